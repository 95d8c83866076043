// llama_sdpa_bf16_dynamic (LlamaSdpa: HF Llama's sdpa attention: repeat_kv, then causal SDPA, in bf16.), exported with a dynamic batch and
// lengths (torch.export Dims) by scripts/export_torch_mlir_cases.py (torch 2.15.0+cu132,
// torch_mlir.fx, output linalg-on-tensors). The raising runs on the dynamic
// function; the proof runs it at several sizes.
// RUN: attention-opt %s --attn-raise-pipeline | FileCheck %s
// RUN: attn-raise-check %s --require-raised --runs=1 --seed=44 '--shapes=2x4x16x32,2x2x24x32,2x2x24x32->2x4x16x32' '--shapes=1x4x1x32,1x2x7x32,1x2x7x32->1x4x1x32' '--shapes=3x4x33x32,3x2x1x32,3x2x1x32->3x4x33x32' '--shapes=2x4x5x32,2x2x70x32,2x2x70x32->2x4x5x32' | FileCheck %s --check-prefix=PROOF --implicit-check-not=FAIL
// CHECK: attn.attention {{.*}}tensor<?x2x?x32xf32>) {causal = #attn.causal<top_left>, scale = 0.17677{{[0-9]+}} : f32} -> tensor<?x4x?x32xf32>
// PROOF: @llama_sdpa_bf16_dynamic at {{.*}}: 1 attn.attention after the raising
// PROOF: run 0 result 0 {{.*}}: PASS
// PROOF: @llama_sdpa_bf16_dynamic at {{.*}}: 1 attn.attention after the raising
// PROOF: run 0 result 0 {{.*}}: PASS
// PROOF: @llama_sdpa_bf16_dynamic at {{.*}}: 1 attn.attention after the raising
// PROOF: run 0 result 0 {{.*}}: PASS
// PROOF: @llama_sdpa_bf16_dynamic at {{.*}}: 1 attn.attention after the raising
// PROOF: run 0 result 0 {{.*}}: PASS
#map = affine_map<(d0, d1, d2, d3, d4) -> (d0, d1, d2, d3, d4)>
#map1 = affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>
#map2 = affine_map<(d0, d1) -> ()>
#map3 = affine_map<(d0, d1) -> (d0, d1)>
#map4 = affine_map<(d0) -> (d0)>
#map5 = affine_map<(d0, d1) -> (0, d1)>
#map6 = affine_map<(d0, d1) -> (d0, 0)>
#map7 = affine_map<(d0, d1, d2, d3) -> (d2, d3)>
#map8 = affine_map<(d0, d1, d2, d3) -> (d0, d1, d2)>
#map9 = affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, 0)>
#map10 = affine_map<(d0, d1, d2, d3) -> ()>
module {
  func.func @llama_sdpa_bf16_dynamic(%arg0: tensor<?x4x?x32xbf16>, %arg1: tensor<?x2x?x32xbf16>, %arg2: tensor<?x2x?x32xbf16>) -> tensor<?x4x?x32xbf16> {
    %c1_i64 = arith.constant 1 : i64
    %c0_i64 = arith.constant 0 : i64
    %c4_i64 = arith.constant 4 : i64
    %c0 = arith.constant 0 : index
    %c2 = arith.constant 2 : index
    %c1 = arith.constant 1 : index
    %c32_i64 = arith.constant 32 : i64
    %cst = arith.constant 0.000000e+00 : f32
    %cst_0 = arith.constant 0xFF800000 : f32
    %true = arith.constant true
    %cst_1 = arith.constant dense<0.000000e+00> : tensor<f32>
    %cst_2 = arith.constant dense<0xFF800000> : tensor<f32>
    %cst_3 = arith.constant dense<true> : tensor<i1>
    %cst_4 = arith.constant 0xFFF0000000000000 : f64
    %cst_5 = arith.constant 0.42044820762685725 : f64
    %c128_i64 = arith.constant 128 : i64
    %dim = tensor.dim %arg0, %c2 : tensor<?x4x?x32xbf16>
    %0 = arith.index_cast %dim : index to i64
    %dim_6 = tensor.dim %arg2, %c0 : tensor<?x2x?x32xbf16>
    %1 = arith.index_cast %dim_6 : index to i64
    %dim_7 = tensor.dim %arg2, %c2 : tensor<?x2x?x32xbf16>
    %2 = arith.index_cast %dim_7 : index to i64
    %dim_8 = tensor.dim %arg1, %c0 : tensor<?x2x?x32xbf16>
    %dim_9 = tensor.dim %arg1, %c2 : tensor<?x2x?x32xbf16>
    %expanded = tensor.expand_shape %arg1 [[0], [1], [2, 3], [4]] output_shape [%dim_8, 2, 1, %dim_9, 32] : tensor<?x2x?x32xbf16> into tensor<?x2x1x?x32xbf16>
    %3 = arith.cmpi sge, %1, %c0_i64 : i64
    cf.assert %3, "unimplemented: dynamic negative broadcast sizes"
    %4 = arith.cmpi sge, %2, %c0_i64 : i64
    cf.assert %4, "unimplemented: dynamic negative broadcast sizes"
    %5 = tensor.empty(%dim_6, %dim_7) : tensor<?x2x2x?x32xbf16>
    %6 = linalg.generic {indexing_maps = [#map], iterator_types = ["parallel", "parallel", "parallel", "parallel", "parallel"]} outs(%5 : tensor<?x2x2x?x32xbf16>) {
    ^bb0(%out: bf16):
      %175 = linalg.index 0 : index
      %176 = linalg.index 1 : index
      %177 = linalg.index 3 : index
      %178 = linalg.index 4 : index
      %179 = arith.cmpi eq, %dim_8, %c1 : index
      %180 = arith.select %179, %c0, %175 : index
      %181 = arith.cmpi eq, %dim_9, %c1 : index
      %182 = arith.select %181, %c0, %177 : index
      %extracted = tensor.extract %expanded[%180, %176, %c0, %182, %178] : tensor<?x2x1x?x32xbf16>
      linalg.yield %extracted : bf16
    } -> tensor<?x2x2x?x32xbf16>
    %7 = arith.cmpi slt, %1, %c0_i64 : i64
    %8 = arith.select %7, %c1_i64, %1 : i64
    %9 = arith.extui %7 : i1 to i64
    %10 = arith.muli %8, %c4_i64 : i64
    %11 = arith.muli %10, %2 : i64
    %12 = arith.addi %9, %c1_i64 : i64
    %13 = arith.cmpi slt, %2, %c0_i64 : i64
    %14 = arith.select %13, %10, %11 : i64
    %15 = arith.select %13, %12, %9 : i64
    %16 = arith.muli %14, %c32_i64 : i64
    %17 = arith.cmpi sle, %15, %c1_i64 : i64
    cf.assert %17, "must have at most one inferred (negative) dimension"
    %18 = arith.muli %1, %c4_i64 : i64
    %19 = arith.muli %18, %2 : i64
    %20 = arith.muli %19, %c32_i64 : i64
    %21 = arith.divsi %20, %16 : i64
    %22 = arith.select %7, %21, %1 : i64
    %23 = arith.select %13, %21, %2 : i64
    %from_elements = tensor.from_elements %22, %c4_i64, %23, %c32_i64 : tensor<4xi64>
    %reshape = tensor.reshape %6(%from_elements) : (tensor<?x2x2x?x32xbf16>, tensor<4xi64>) -> tensor<?x4x?x32xbf16>
    %expanded_10 = tensor.expand_shape %arg2 [[0], [1], [2, 3], [4]] output_shape [%dim_6, 2, 1, %dim_7, 32] : tensor<?x2x?x32xbf16> into tensor<?x2x1x?x32xbf16>
    cf.assert %3, "unimplemented: dynamic negative broadcast sizes"
    cf.assert %4, "unimplemented: dynamic negative broadcast sizes"
    %24 = linalg.generic {indexing_maps = [#map], iterator_types = ["parallel", "parallel", "parallel", "parallel", "parallel"]} outs(%5 : tensor<?x2x2x?x32xbf16>) {
    ^bb0(%out: bf16):
      %175 = linalg.index 0 : index
      %176 = linalg.index 1 : index
      %177 = linalg.index 3 : index
      %178 = linalg.index 4 : index
      %179 = arith.cmpi eq, %dim_6, %c1 : index
      %180 = arith.select %179, %c0, %175 : index
      %181 = arith.cmpi eq, %dim_7, %c1 : index
      %182 = arith.select %181, %c0, %177 : index
      %extracted = tensor.extract %expanded_10[%180, %176, %c0, %182, %178] : tensor<?x2x1x?x32xbf16>
      linalg.yield %extracted : bf16
    } -> tensor<?x2x2x?x32xbf16>
    cf.assert %17, "must have at most one inferred (negative) dimension"
    %reshape_11 = tensor.reshape %24(%from_elements) : (tensor<?x2x2x?x32xbf16>, tensor<4xi64>) -> tensor<?x4x?x32xbf16>
    %dim_12 = tensor.dim %arg0, %c0 : tensor<?x4x?x32xbf16>
    %25 = tensor.empty(%dim_12, %dim) : tensor<?x4x?x32xf32>
    %26 = linalg.generic {indexing_maps = [#map1, #map1], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%arg0 : tensor<?x4x?x32xbf16>) outs(%25 : tensor<?x4x?x32xf32>) {
    ^bb0(%in: bf16, %out: f32):
      %175 = arith.extf %in : bf16 to f32
      linalg.yield %175 : f32
    } -> tensor<?x4x?x32xf32>
    %27 = arith.index_cast %22 : i64 to index
    %28 = arith.index_cast %23 : i64 to index
    %29 = tensor.empty(%27, %28) : tensor<?x4x?x32xf32>
    %30 = linalg.generic {indexing_maps = [#map1, #map1], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%reshape : tensor<?x4x?x32xbf16>) outs(%29 : tensor<?x4x?x32xf32>) {
    ^bb0(%in: bf16, %out: f32):
      %175 = arith.extf %in : bf16 to f32
      linalg.yield %175 : f32
    } -> tensor<?x4x?x32xf32>
    %31 = linalg.generic {indexing_maps = [#map1, #map1], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%reshape_11 : tensor<?x4x?x32xbf16>) outs(%29 : tensor<?x4x?x32xf32>) {
    ^bb0(%in: bf16, %out: f32):
      %175 = arith.extf %in : bf16 to f32
      linalg.yield %175 : f32
    } -> tensor<?x4x?x32xf32>
    %32 = linalg.generic {indexing_maps = [#map1, #map1], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%26 : tensor<?x4x?x32xf32>) outs(%25 : tensor<?x4x?x32xf32>) {
    ^bb0(%in: f32, %out: f32):
      %175 = arith.truncf %cst_5 : f64 to f32
      %176 = arith.mulf %in, %175 : f32
      linalg.yield %176 : f32
    } -> tensor<?x4x?x32xf32>
    %33 = arith.cmpi sge, %0, %c0_i64 : i64
    cf.assert %33, "negative values not allowed in new dimensions"
    %34 = arith.cmpi sge, %2, %c0_i64 : i64
    cf.assert %34, "negative values not allowed in new dimensions"
    %35 = tensor.empty(%dim, %dim_7) : tensor<?x?xi1>
    %36 = linalg.generic {indexing_maps = [#map2, #map3], iterator_types = ["parallel", "parallel"]} ins(%cst_3 : tensor<i1>) outs(%35 : tensor<?x?xi1>) {
    ^bb0(%in: i1, %out: i1):
      linalg.yield %in : i1
    } -> tensor<?x?xi1>
    %37 = tensor.empty(%dim_7) : tensor<?xi64>
    %38 = linalg.generic {indexing_maps = [#map4], iterator_types = ["parallel"]} outs(%37 : tensor<?xi64>) {
    ^bb0(%out: i64):
      %175 = linalg.index 0 : index
      %176 = arith.index_cast %175 : index to i64
      linalg.yield %176 : i64
    } -> tensor<?xi64>
    %expanded_13 = tensor.expand_shape %38 [[0, 1]] output_shape [1, %dim_7] : tensor<?xi64> into tensor<1x?xi64>
    %39 = tensor.empty(%dim) : tensor<?xi64>
    %40 = linalg.generic {indexing_maps = [#map4], iterator_types = ["parallel"]} outs(%39 : tensor<?xi64>) {
    ^bb0(%out: i64):
      %175 = linalg.index 0 : index
      %176 = arith.index_cast %175 : index to i64
      linalg.yield %176 : i64
    } -> tensor<?xi64>
    %expanded_14 = tensor.expand_shape %40 [[0, 1]] output_shape [%dim, 1] : tensor<?xi64> into tensor<?x1xi64>
    %41 = tensor.empty(%dim, %dim_7) : tensor<?x?xi64>
    %42 = linalg.generic {indexing_maps = [#map5, #map6, #map3], iterator_types = ["parallel", "parallel"]} ins(%expanded_13, %expanded_14 : tensor<1x?xi64>, tensor<?x1xi64>) outs(%41 : tensor<?x?xi64>) {
    ^bb0(%in: i64, %in_28: i64, %out: i64):
      %175 = arith.subi %in, %in_28 : i64
      linalg.yield %175 : i64
    } -> tensor<?x?xi64>
    %43 = tensor.empty(%dim, %dim_7) : tensor<?x?xi1>
    %44 = linalg.generic {indexing_maps = [#map3, #map3], iterator_types = ["parallel", "parallel"]} ins(%42 : tensor<?x?xi64>) outs(%43 : tensor<?x?xi1>) {
    ^bb0(%in: i64, %out: i1):
      %175 = arith.cmpi sle, %in, %c0_i64 : i64
      linalg.yield %175 : i1
    } -> tensor<?x?xi1>
    cf.assert %true, "mismatched size for broadcast"
    cf.assert %true, "mismatched size for broadcast"
    %45 = linalg.generic {indexing_maps = [#map3, #map3, #map3], iterator_types = ["parallel", "parallel"]} ins(%44, %36 : tensor<?x?xi1>, tensor<?x?xi1>) outs(%43 : tensor<?x?xi1>) {
    ^bb0(%in: i1, %in_28: i1, %out: i1):
      %175 = arith.andi %in, %in_28 : i1
      linalg.yield %175 : i1
    } -> tensor<?x?xi1>
    %46 = tensor.empty(%dim, %dim_7) : tensor<?x?xf32>
    %47 = linalg.generic {indexing_maps = [#map3, #map2, #map2, #map3], iterator_types = ["parallel", "parallel"]} ins(%45, %cst_1, %cst_2 : tensor<?x?xi1>, tensor<f32>, tensor<f32>) outs(%46 : tensor<?x?xf32>) {
    ^bb0(%in: i1, %in_28: f32, %in_29: f32, %out: f32):
      %175 = arith.select %in, %in_28, %in_29 : f32
      linalg.yield %175 : f32
    } -> tensor<?x?xf32>
    %48 = tensor.empty(%27, %28) : tensor<?x4x32x?xf32>
    %transposed = linalg.transpose ins(%30 : tensor<?x4x?x32xf32>) outs(%48 : tensor<?x4x32x?xf32>) permutation = [0, 1, 3, 2] 
    %49 = linalg.generic {indexing_maps = [#map1, #map1], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%transposed : tensor<?x4x32x?xf32>) outs(%48 : tensor<?x4x32x?xf32>) {
    ^bb0(%in: f32, %out: f32):
      %175 = arith.truncf %cst_5 : f64 to f32
      %176 = arith.mulf %in, %175 : f32
      linalg.yield %176 : f32
    } -> tensor<?x4x32x?xf32>
    cf.assert %3, "unimplemented: dynamic negative broadcast sizes"
    %50 = arith.cmpi sge, %0, %c0_i64 : i64
    cf.assert %50, "unimplemented: dynamic negative broadcast sizes"
    %51 = tensor.empty(%dim_6, %dim) : tensor<?x4x?x32xf32>
    %52 = linalg.generic {indexing_maps = [#map1], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} outs(%51 : tensor<?x4x?x32xf32>) {
    ^bb0(%out: f32):
      %175 = linalg.index 0 : index
      %176 = linalg.index 1 : index
      %177 = linalg.index 2 : index
      %178 = linalg.index 3 : index
      %179 = arith.cmpi eq, %dim_12, %c1 : index
      %180 = arith.select %179, %c0, %175 : index
      %181 = arith.cmpi eq, %dim, %c1 : index
      %182 = arith.select %181, %c0, %177 : index
      %extracted = tensor.extract %32[%180, %176, %182, %178] : tensor<?x4x?x32xf32>
      linalg.yield %extracted : f32
    } -> tensor<?x4x?x32xf32>
    %53 = arith.cmpi slt, %18, %c0_i64 : i64
    %54 = arith.select %53, %c1_i64, %18 : i64
    %55 = arith.extui %53 : i1 to i64
    %56 = arith.muli %54, %0 : i64
    %57 = arith.addi %55, %c1_i64 : i64
    %58 = arith.cmpi slt, %0, %c0_i64 : i64
    %59 = arith.select %58, %54, %56 : i64
    %60 = arith.select %58, %57, %55 : i64
    %61 = arith.muli %59, %c32_i64 : i64
    %62 = arith.cmpi sle, %60, %c1_i64 : i64
    cf.assert %62, "must have at most one inferred (negative) dimension"
    %63 = arith.muli %18, %0 : i64
    %64 = arith.muli %63, %c32_i64 : i64
    %65 = arith.divsi %64, %61 : i64
    %66 = arith.select %53, %65, %18 : i64
    %67 = arith.select %58, %65, %0 : i64
    %from_elements_15 = tensor.from_elements %66, %67, %c32_i64 : tensor<3xi64>
    %reshape_16 = tensor.reshape %52(%from_elements_15) : (tensor<?x4x?x32xf32>, tensor<3xi64>) -> tensor<?x?x32xf32>
    cf.assert %3, "unimplemented: dynamic negative broadcast sizes"
    cf.assert %4, "unimplemented: dynamic negative broadcast sizes"
    %68 = tensor.empty(%dim_6, %dim_7) : tensor<?x4x32x?xf32>
    %69 = linalg.generic {indexing_maps = [#map1], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} outs(%68 : tensor<?x4x32x?xf32>) {
    ^bb0(%out: f32):
      %175 = linalg.index 0 : index
      %176 = linalg.index 1 : index
      %177 = linalg.index 2 : index
      %178 = linalg.index 3 : index
      %179 = arith.cmpi eq, %27, %c1 : index
      %180 = arith.select %179, %c0, %175 : index
      %181 = arith.cmpi eq, %28, %c1 : index
      %182 = arith.select %181, %c0, %178 : index
      %extracted = tensor.extract %49[%180, %176, %177, %182] : tensor<?x4x32x?xf32>
      linalg.yield %extracted : f32
    } -> tensor<?x4x32x?xf32>
    %70 = arith.muli %54, %c32_i64 : i64
    %71 = arith.muli %70, %2 : i64
    %72 = arith.select %13, %70, %71 : i64
    %73 = arith.select %13, %57, %55 : i64
    %74 = arith.cmpi sle, %73, %c1_i64 : i64
    cf.assert %74, "must have at most one inferred (negative) dimension"
    %75 = arith.muli %1, %c128_i64 : i64
    %76 = arith.muli %75, %2 : i64
    %77 = arith.divsi %76, %72 : i64
    %78 = arith.select %53, %77, %18 : i64
    %79 = arith.select %13, %77, %2 : i64
    %from_elements_17 = tensor.from_elements %78, %c32_i64, %79 : tensor<3xi64>
    %reshape_18 = tensor.reshape %69(%from_elements_17) : (tensor<?x4x32x?xf32>, tensor<3xi64>) -> tensor<?x32x?xf32>
    %80 = arith.index_cast %66 : i64 to index
    %81 = arith.index_cast %67 : i64 to index
    %82 = arith.index_cast %79 : i64 to index
    %83 = arith.cmpi eq, %66, %78 : i64
    cf.assert %83, "mismatching contracting dimension"
    %84 = tensor.empty(%80, %81, %82) : tensor<?x?x?xf32>
    %85 = linalg.fill ins(%cst : f32) outs(%84 : tensor<?x?x?xf32>) -> tensor<?x?x?xf32>
    %86 = linalg.batch_matmul ins(%reshape_16, %reshape_18 : tensor<?x?x32xf32>, tensor<?x32x?xf32>) outs(%85 : tensor<?x?x?xf32>) -> tensor<?x?x?xf32>
    %87 = arith.muli %10, %0 : i64
    %88 = arith.select %58, %10, %87 : i64
    %89 = arith.select %58, %12, %9 : i64
    %90 = arith.muli %88, %2 : i64
    %91 = arith.addi %89, %c1_i64 : i64
    %92 = arith.select %13, %88, %90 : i64
    %93 = arith.select %13, %91, %89 : i64
    %94 = arith.cmpi sle, %93, %c1_i64 : i64
    cf.assert %94, "must have at most one inferred (negative) dimension"
    %95 = arith.muli %66, %67 : i64
    %96 = arith.muli %95, %79 : i64
    %97 = arith.divsi %96, %92 : i64
    %98 = arith.select %7, %97, %1 : i64
    %99 = arith.select %58, %97, %0 : i64
    %100 = arith.select %13, %97, %2 : i64
    %from_elements_19 = tensor.from_elements %98, %c4_i64, %99, %100 : tensor<4xi64>
    %reshape_20 = tensor.reshape %86(%from_elements_19) : (tensor<?x?x?xf32>, tensor<4xi64>) -> tensor<?x4x?x?xf32>
    %101 = arith.index_cast %98 : i64 to index
    %102 = arith.index_cast %99 : i64 to index
    %103 = arith.index_cast %100 : i64 to index
    %104 = arith.cmpi eq, %102, %dim : index
    cf.assert %104, "mismatched size for broadcast"
    %105 = arith.cmpi eq, %103, %dim_7 : index
    cf.assert %105, "mismatched size for broadcast"
    %106 = tensor.empty(%101, %102, %103) : tensor<?x4x?x?xf32>
    %107 = linalg.generic {indexing_maps = [#map1, #map7, #map1], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%reshape_20, %47 : tensor<?x4x?x?xf32>, tensor<?x?xf32>) outs(%106 : tensor<?x4x?x?xf32>) {
    ^bb0(%in: f32, %in_28: f32, %out: f32):
      %175 = arith.addf %in, %in_28 : f32
      linalg.yield %175 : f32
    } -> tensor<?x4x?x?xf32>
    %108 = tensor.empty(%101, %102) : tensor<?x4x?xi64>
    %109 = linalg.fill ins(%c0_i64 : i64) outs(%108 : tensor<?x4x?xi64>) -> tensor<?x4x?xi64>
    %110 = tensor.empty(%101, %102) : tensor<?x4x?xf32>
    %111 = linalg.fill ins(%cst_0 : f32) outs(%110 : tensor<?x4x?xf32>) -> tensor<?x4x?xf32>
    %112:2 = linalg.generic {indexing_maps = [#map1, #map8, #map8], iterator_types = ["parallel", "parallel", "parallel", "reduction"]} ins(%107 : tensor<?x4x?x?xf32>) outs(%111, %109 : tensor<?x4x?xf32>, tensor<?x4x?xi64>) {
    ^bb0(%in: f32, %out: f32, %out_28: i64):
      %175 = linalg.index 3 : index
      %176 = arith.index_cast %175 : index to i64
      %177 = arith.maximumf %in, %out : f32
      %178 = arith.cmpf ogt, %in, %out : f32
      %179 = arith.select %178, %176, %out_28 : i64
      linalg.yield %177, %179 : f32, i64
    } -> (tensor<?x4x?xf32>, tensor<?x4x?xi64>)
    %expanded_21 = tensor.expand_shape %112#0 [[0], [1], [2, 3]] output_shape [%101, 4, %102, 1] : tensor<?x4x?xf32> into tensor<?x4x?x1xf32>
    %113 = linalg.generic {indexing_maps = [#map1, #map9, #map1], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%107, %expanded_21 : tensor<?x4x?x?xf32>, tensor<?x4x?x1xf32>) outs(%106 : tensor<?x4x?x?xf32>) {
    ^bb0(%in: f32, %in_28: f32, %out: f32):
      %175 = arith.subf %in, %in_28 : f32
      linalg.yield %175 : f32
    } -> tensor<?x4x?x?xf32>
    %114 = linalg.generic {indexing_maps = [#map1, #map1], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%113 : tensor<?x4x?x?xf32>) outs(%106 : tensor<?x4x?x?xf32>) {
    ^bb0(%in: f32, %out: f32):
      %175 = math.exp %in : f32
      linalg.yield %175 : f32
    } -> tensor<?x4x?x?xf32>
    %115 = tensor.empty(%101, %102) : tensor<?x4x?x1xf32>
    %116 = linalg.fill ins(%cst : f32) outs(%115 : tensor<?x4x?x1xf32>) -> tensor<?x4x?x1xf32>
    %117 = linalg.generic {indexing_maps = [#map1, #map9], iterator_types = ["parallel", "parallel", "parallel", "reduction"]} ins(%114 : tensor<?x4x?x?xf32>) outs(%116 : tensor<?x4x?x1xf32>) {
    ^bb0(%in: f32, %out: f32):
      %175 = arith.addf %in, %out : f32
      linalg.yield %175 : f32
    } -> tensor<?x4x?x1xf32>
    %118 = linalg.generic {indexing_maps = [#map1, #map9, #map1], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%114, %117 : tensor<?x4x?x?xf32>, tensor<?x4x?x1xf32>) outs(%106 : tensor<?x4x?x?xf32>) {
    ^bb0(%in: f32, %in_28: f32, %out: f32):
      %175 = arith.divf %in, %in_28 : f32
      linalg.yield %175 : f32
    } -> tensor<?x4x?x?xf32>
    %119 = tensor.empty(%101, %102, %103) : tensor<?x4x?x?xi1>
    %120 = linalg.generic {indexing_maps = [#map1, #map1], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%107 : tensor<?x4x?x?xf32>) outs(%119 : tensor<?x4x?x?xi1>) {
    ^bb0(%in: f32, %out: i1):
      %175 = arith.extf %in : f32 to f64
      %176 = arith.cmpf oeq, %175, %cst_4 : f64
      linalg.yield %176 : i1
    } -> tensor<?x4x?x?xi1>
    %121 = tensor.empty(%101, %102) : tensor<?x4x?x1xi1>
    %122 = linalg.fill ins(%true : i1) outs(%121 : tensor<?x4x?x1xi1>) -> tensor<?x4x?x1xi1>
    %123 = linalg.generic {indexing_maps = [#map1, #map9], iterator_types = ["parallel", "parallel", "parallel", "reduction"]} ins(%120 : tensor<?x4x?x?xi1>) outs(%122 : tensor<?x4x?x1xi1>) {
    ^bb0(%in: i1, %out: i1):
      %175 = arith.andi %in, %out : i1
      linalg.yield %175 : i1
    } -> tensor<?x4x?x1xi1>
    %124 = arith.cmpi sge, %98, %c0_i64 : i64
    cf.assert %124, "negative values not allowed in new dimensions"
    %125 = arith.index_cast %98 : i64 to index
    %126 = arith.cmpi sge, %99, %c0_i64 : i64
    cf.assert %126, "negative values not allowed in new dimensions"
    %127 = arith.index_cast %99 : i64 to index
    %128 = arith.cmpi sge, %100, %c0_i64 : i64
    cf.assert %128, "negative values not allowed in new dimensions"
    %129 = arith.index_cast %100 : i64 to index
    %130 = tensor.empty(%125, %127, %129) : tensor<?x4x?x?xf32>
    %131 = linalg.generic {indexing_maps = [#map10, #map1], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%cst_1 : tensor<f32>) outs(%130 : tensor<?x4x?x?xf32>) {
    ^bb0(%in: f32, %out: f32):
      linalg.yield %in : f32
    } -> tensor<?x4x?x?xf32>
    %132 = arith.cmpi eq, %101, %125 : index
    cf.assert %132, "mismatched size for broadcast"
    %133 = arith.cmpi eq, %102, %127 : index
    cf.assert %133, "mismatched size for broadcast"
    %134 = arith.cmpi eq, %129, %103 : index
    cf.assert %134, "mismatched size for broadcast"
    %135 = tensor.empty(%101, %102, %129) : tensor<?x4x?x?xf32>
    %136 = linalg.generic {indexing_maps = [#map9, #map1, #map1, #map1], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%123, %131, %118 : tensor<?x4x?x1xi1>, tensor<?x4x?x?xf32>, tensor<?x4x?x?xf32>) outs(%135 : tensor<?x4x?x?xf32>) {
    ^bb0(%in: i1, %in_28: f32, %in_29: f32, %out: f32):
      %175 = arith.select %in, %in_28, %in_29 : f32
      linalg.yield %175 : f32
    } -> tensor<?x4x?x?xf32>
    cf.assert %3, "unimplemented: dynamic negative broadcast sizes"
    cf.assert %50, "unimplemented: dynamic negative broadcast sizes"
    cf.assert %4, "unimplemented: dynamic negative broadcast sizes"
    %137 = tensor.empty(%dim_6, %dim, %dim_7) : tensor<?x4x?x?xf32>
    %138 = linalg.generic {indexing_maps = [#map1], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} outs(%137 : tensor<?x4x?x?xf32>) {
    ^bb0(%out: f32):
      %175 = linalg.index 0 : index
      %176 = linalg.index 1 : index
      %177 = linalg.index 2 : index
      %178 = linalg.index 3 : index
      %179 = arith.cmpi eq, %101, %c1 : index
      %180 = arith.select %179, %c0, %175 : index
      %181 = arith.cmpi eq, %102, %c1 : index
      %182 = arith.select %181, %c0, %177 : index
      %183 = arith.cmpi eq, %129, %c1 : index
      %184 = arith.select %183, %c0, %178 : index
      %extracted = tensor.extract %136[%180, %176, %182, %184] : tensor<?x4x?x?xf32>
      linalg.yield %extracted : f32
    } -> tensor<?x4x?x?xf32>
    %139 = arith.muli %59, %2 : i64
    %140 = arith.addi %60, %c1_i64 : i64
    %141 = arith.select %13, %59, %139 : i64
    %142 = arith.select %13, %140, %60 : i64
    %143 = arith.cmpi sle, %142, %c1_i64 : i64
    cf.assert %143, "must have at most one inferred (negative) dimension"
    %144 = arith.muli %63, %2 : i64
    %145 = arith.divsi %144, %141 : i64
    %146 = arith.select %53, %145, %18 : i64
    %147 = arith.select %58, %145, %0 : i64
    %148 = arith.select %13, %145, %2 : i64
    %from_elements_22 = tensor.from_elements %146, %147, %148 : tensor<3xi64>
    %reshape_23 = tensor.reshape %138(%from_elements_22) : (tensor<?x4x?x?xf32>, tensor<3xi64>) -> tensor<?x?x?xf32>
    cf.assert %3, "unimplemented: dynamic negative broadcast sizes"
    cf.assert %4, "unimplemented: dynamic negative broadcast sizes"
    %149 = tensor.empty(%dim_6, %dim_7) : tensor<?x4x?x32xf32>
    %150 = linalg.generic {indexing_maps = [#map1], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} outs(%149 : tensor<?x4x?x32xf32>) {
    ^bb0(%out: f32):
      %175 = linalg.index 0 : index
      %176 = linalg.index 1 : index
      %177 = linalg.index 2 : index
      %178 = linalg.index 3 : index
      %179 = arith.cmpi eq, %27, %c1 : index
      %180 = arith.select %179, %c0, %175 : index
      %181 = arith.cmpi eq, %28, %c1 : index
      %182 = arith.select %181, %c0, %177 : index
      %extracted = tensor.extract %31[%180, %176, %182, %178] : tensor<?x4x?x32xf32>
      linalg.yield %extracted : f32
    } -> tensor<?x4x?x32xf32>
    %151 = arith.muli %54, %2 : i64
    %152 = arith.select %13, %54, %151 : i64
    %153 = arith.muli %152, %c32_i64 : i64
    cf.assert %74, "must have at most one inferred (negative) dimension"
    %154 = arith.divsi %20, %153 : i64
    %155 = arith.select %53, %154, %18 : i64
    %156 = arith.select %13, %154, %2 : i64
    %from_elements_24 = tensor.from_elements %155, %156, %c32_i64 : tensor<3xi64>
    %reshape_25 = tensor.reshape %150(%from_elements_24) : (tensor<?x4x?x32xf32>, tensor<3xi64>) -> tensor<?x?x32xf32>
    %157 = arith.index_cast %146 : i64 to index
    %158 = arith.index_cast %147 : i64 to index
    %159 = arith.cmpi eq, %146, %155 : i64
    cf.assert %159, "mismatching contracting dimension"
    %160 = arith.cmpi eq, %148, %156 : i64
    cf.assert %160, "mismatching contracting dimension"
    %161 = tensor.empty(%157, %158) : tensor<?x?x32xf32>
    %162 = linalg.fill ins(%cst : f32) outs(%161 : tensor<?x?x32xf32>) -> tensor<?x?x32xf32>
    %163 = linalg.batch_matmul ins(%reshape_23, %reshape_25 : tensor<?x?x?xf32>, tensor<?x?x32xf32>) outs(%162 : tensor<?x?x32xf32>) -> tensor<?x?x32xf32>
    %164 = arith.muli %88, %c32_i64 : i64
    %165 = arith.cmpi sle, %89, %c1_i64 : i64
    cf.assert %165, "must have at most one inferred (negative) dimension"
    %166 = arith.muli %146, %147 : i64
    %167 = arith.muli %166, %c32_i64 : i64
    %168 = arith.divsi %167, %164 : i64
    %169 = arith.select %7, %168, %1 : i64
    %170 = arith.select %58, %168, %0 : i64
    %from_elements_26 = tensor.from_elements %169, %c4_i64, %170, %c32_i64 : tensor<4xi64>
    %reshape_27 = tensor.reshape %163(%from_elements_26) : (tensor<?x?x32xf32>, tensor<4xi64>) -> tensor<?x4x?x32xf32>
    %171 = arith.index_cast %169 : i64 to index
    %172 = arith.index_cast %170 : i64 to index
    %173 = tensor.empty(%171, %172) : tensor<?x4x?x32xbf16>
    %174 = linalg.generic {indexing_maps = [#map1, #map1], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%reshape_27 : tensor<?x4x?x32xf32>) outs(%173 : tensor<?x4x?x32xbf16>) {
    ^bb0(%in: f32, %out: bf16):
      %175 = arith.truncf %in : f32 to bf16
      linalg.yield %175 : bf16
    } -> tensor<?x4x?x32xbf16>
    return %174 : tensor<?x4x?x32xbf16>
  }
}
