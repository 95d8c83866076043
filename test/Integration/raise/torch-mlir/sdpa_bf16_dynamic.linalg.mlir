// sdpa_bf16_dynamic (SdpaCausal16: bf16 tensors: PyTorch's math path computes in f32 between casts.), exported with a dynamic batch and
// lengths (torch.export Dims) by scripts/export_torch_mlir_cases.py (torch 2.15.0+cu132,
// torch_mlir.fx, output linalg-on-tensors). The raising runs on the dynamic
// function; the proof runs it at several sizes.
// RUN: attention-opt %s --attn-raise-pipeline | FileCheck %s
// RUN: attn-raise-check %s --require-raised --runs=1 --seed=43 '--shapes=2x4x16x32,2x4x24x32,2x4x24x32->2x4x16x32' '--shapes=1x4x1x32,1x4x7x32,1x4x7x32->1x4x1x32' '--shapes=3x4x33x32,3x4x1x32,3x4x1x32->3x4x33x32' '--shapes=2x4x5x32,2x4x70x32,2x4x70x32->2x4x5x32' | FileCheck %s --check-prefix=PROOF --implicit-check-not=FAIL
// CHECK: attn.attention {{.*}}-> tensor<?x4x?x32xf32>
// PROOF: @sdpa_bf16_dynamic at {{.*}}: 1 attn.attention after the raising
// PROOF: run 0 result 0 {{.*}}: PASS
// PROOF: @sdpa_bf16_dynamic at {{.*}}: 1 attn.attention after the raising
// PROOF: run 0 result 0 {{.*}}: PASS
// PROOF: @sdpa_bf16_dynamic at {{.*}}: 1 attn.attention after the raising
// PROOF: run 0 result 0 {{.*}}: PASS
// PROOF: @sdpa_bf16_dynamic at {{.*}}: 1 attn.attention after the raising
// PROOF: run 0 result 0 {{.*}}: PASS
#map = affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>
#map1 = affine_map<(d0, d1) -> ()>
#map2 = affine_map<(d0, d1) -> (d0, d1)>
#map3 = affine_map<(d0) -> (d0)>
#map4 = affine_map<(d0, d1) -> (0, d1)>
#map5 = affine_map<(d0, d1) -> (d0, 0)>
#map6 = affine_map<(d0, d1, d2, d3) -> (d2, d3)>
#map7 = affine_map<(d0, d1, d2, d3) -> (d0, d1, d2)>
#map8 = affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, 0)>
#map9 = affine_map<(d0, d1, d2, d3) -> ()>
module {
  func.func @sdpa_bf16_dynamic(%arg0: tensor<?x4x?x32xbf16>, %arg1: tensor<?x4x?x32xbf16>, %arg2: tensor<?x4x?x32xbf16>) -> tensor<?x4x?x32xbf16> {
    %c1_i64 = arith.constant 1 : i64
    %c0_i64 = arith.constant 0 : i64
    %c4_i64 = arith.constant 4 : i64
    %c1 = arith.constant 1 : index
    %c0 = arith.constant 0 : index
    %c2 = arith.constant 2 : index
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
    %dim_6 = tensor.dim %arg2, %c0 : tensor<?x4x?x32xbf16>
    %1 = arith.index_cast %dim_6 : index to i64
    %dim_7 = tensor.dim %arg2, %c2 : tensor<?x4x?x32xbf16>
    %2 = arith.index_cast %dim_7 : index to i64
    %dim_8 = tensor.dim %arg0, %c0 : tensor<?x4x?x32xbf16>
    %3 = tensor.empty(%dim_8, %dim) : tensor<?x4x?x32xf32>
    %4 = linalg.generic {indexing_maps = [#map, #map], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%arg0 : tensor<?x4x?x32xbf16>) outs(%3 : tensor<?x4x?x32xf32>) {
    ^bb0(%in: bf16, %out: f32):
      %163 = arith.extf %in : bf16 to f32
      linalg.yield %163 : f32
    } -> tensor<?x4x?x32xf32>
    %dim_9 = tensor.dim %arg1, %c0 : tensor<?x4x?x32xbf16>
    %dim_10 = tensor.dim %arg1, %c2 : tensor<?x4x?x32xbf16>
    %5 = tensor.empty(%dim_9, %dim_10) : tensor<?x4x?x32xf32>
    %6 = linalg.generic {indexing_maps = [#map, #map], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%arg1 : tensor<?x4x?x32xbf16>) outs(%5 : tensor<?x4x?x32xf32>) {
    ^bb0(%in: bf16, %out: f32):
      %163 = arith.extf %in : bf16 to f32
      linalg.yield %163 : f32
    } -> tensor<?x4x?x32xf32>
    %7 = tensor.empty(%dim_6, %dim_7) : tensor<?x4x?x32xf32>
    %8 = linalg.generic {indexing_maps = [#map, #map], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%arg2 : tensor<?x4x?x32xbf16>) outs(%7 : tensor<?x4x?x32xf32>) {
    ^bb0(%in: bf16, %out: f32):
      %163 = arith.extf %in : bf16 to f32
      linalg.yield %163 : f32
    } -> tensor<?x4x?x32xf32>
    %9 = linalg.generic {indexing_maps = [#map, #map], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%4 : tensor<?x4x?x32xf32>) outs(%3 : tensor<?x4x?x32xf32>) {
    ^bb0(%in: f32, %out: f32):
      %163 = arith.truncf %cst_5 : f64 to f32
      %164 = arith.mulf %in, %163 : f32
      linalg.yield %164 : f32
    } -> tensor<?x4x?x32xf32>
    %10 = arith.cmpi sge, %0, %c0_i64 : i64
    cf.assert %10, "negative values not allowed in new dimensions"
    %11 = arith.cmpi sge, %2, %c0_i64 : i64
    cf.assert %11, "negative values not allowed in new dimensions"
    %12 = tensor.empty(%dim, %dim_7) : tensor<?x?xi1>
    %13 = linalg.generic {indexing_maps = [#map1, #map2], iterator_types = ["parallel", "parallel"]} ins(%cst_3 : tensor<i1>) outs(%12 : tensor<?x?xi1>) {
    ^bb0(%in: i1, %out: i1):
      linalg.yield %in : i1
    } -> tensor<?x?xi1>
    %14 = tensor.empty(%dim_7) : tensor<?xi64>
    %15 = linalg.generic {indexing_maps = [#map3], iterator_types = ["parallel"]} outs(%14 : tensor<?xi64>) {
    ^bb0(%out: i64):
      %163 = linalg.index 0 : index
      %164 = arith.index_cast %163 : index to i64
      linalg.yield %164 : i64
    } -> tensor<?xi64>
    %expanded = tensor.expand_shape %15 [[0, 1]] output_shape [1, %dim_7] : tensor<?xi64> into tensor<1x?xi64>
    %16 = tensor.empty(%dim) : tensor<?xi64>
    %17 = linalg.generic {indexing_maps = [#map3], iterator_types = ["parallel"]} outs(%16 : tensor<?xi64>) {
    ^bb0(%out: i64):
      %163 = linalg.index 0 : index
      %164 = arith.index_cast %163 : index to i64
      linalg.yield %164 : i64
    } -> tensor<?xi64>
    %expanded_11 = tensor.expand_shape %17 [[0, 1]] output_shape [%dim, 1] : tensor<?xi64> into tensor<?x1xi64>
    %18 = tensor.empty(%dim, %dim_7) : tensor<?x?xi64>
    %19 = linalg.generic {indexing_maps = [#map4, #map5, #map2], iterator_types = ["parallel", "parallel"]} ins(%expanded, %expanded_11 : tensor<1x?xi64>, tensor<?x1xi64>) outs(%18 : tensor<?x?xi64>) {
    ^bb0(%in: i64, %in_23: i64, %out: i64):
      %163 = arith.subi %in, %in_23 : i64
      linalg.yield %163 : i64
    } -> tensor<?x?xi64>
    %20 = tensor.empty(%dim, %dim_7) : tensor<?x?xi1>
    %21 = linalg.generic {indexing_maps = [#map2, #map2], iterator_types = ["parallel", "parallel"]} ins(%19 : tensor<?x?xi64>) outs(%20 : tensor<?x?xi1>) {
    ^bb0(%in: i64, %out: i1):
      %163 = arith.cmpi sle, %in, %c0_i64 : i64
      linalg.yield %163 : i1
    } -> tensor<?x?xi1>
    cf.assert %true, "mismatched size for broadcast"
    cf.assert %true, "mismatched size for broadcast"
    %22 = linalg.generic {indexing_maps = [#map2, #map2, #map2], iterator_types = ["parallel", "parallel"]} ins(%21, %13 : tensor<?x?xi1>, tensor<?x?xi1>) outs(%20 : tensor<?x?xi1>) {
    ^bb0(%in: i1, %in_23: i1, %out: i1):
      %163 = arith.andi %in, %in_23 : i1
      linalg.yield %163 : i1
    } -> tensor<?x?xi1>
    %23 = tensor.empty(%dim, %dim_7) : tensor<?x?xf32>
    %24 = linalg.generic {indexing_maps = [#map2, #map1, #map1, #map2], iterator_types = ["parallel", "parallel"]} ins(%22, %cst_1, %cst_2 : tensor<?x?xi1>, tensor<f32>, tensor<f32>) outs(%23 : tensor<?x?xf32>) {
    ^bb0(%in: i1, %in_23: f32, %in_24: f32, %out: f32):
      %163 = arith.select %in, %in_23, %in_24 : f32
      linalg.yield %163 : f32
    } -> tensor<?x?xf32>
    %25 = tensor.empty(%dim_9, %dim_10) : tensor<?x4x32x?xf32>
    %transposed = linalg.transpose ins(%6 : tensor<?x4x?x32xf32>) outs(%25 : tensor<?x4x32x?xf32>) permutation = [0, 1, 3, 2] 
    %26 = linalg.generic {indexing_maps = [#map, #map], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%transposed : tensor<?x4x32x?xf32>) outs(%25 : tensor<?x4x32x?xf32>) {
    ^bb0(%in: f32, %out: f32):
      %163 = arith.truncf %cst_5 : f64 to f32
      %164 = arith.mulf %in, %163 : f32
      linalg.yield %164 : f32
    } -> tensor<?x4x32x?xf32>
    %27 = arith.muli %1, %c4_i64 : i64
    %28 = arith.cmpi sge, %1, %c0_i64 : i64
    cf.assert %28, "unimplemented: dynamic negative broadcast sizes"
    %29 = arith.cmpi sge, %0, %c0_i64 : i64
    cf.assert %29, "unimplemented: dynamic negative broadcast sizes"
    %30 = tensor.empty(%dim_6, %dim) : tensor<?x4x?x32xf32>
    %31 = linalg.generic {indexing_maps = [#map], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} outs(%30 : tensor<?x4x?x32xf32>) {
    ^bb0(%out: f32):
      %163 = linalg.index 0 : index
      %164 = linalg.index 1 : index
      %165 = linalg.index 2 : index
      %166 = linalg.index 3 : index
      %167 = arith.cmpi eq, %dim_8, %c1 : index
      %168 = arith.select %167, %c0, %163 : index
      %169 = arith.cmpi eq, %dim, %c1 : index
      %170 = arith.select %169, %c0, %165 : index
      %extracted = tensor.extract %9[%168, %164, %170, %166] : tensor<?x4x?x32xf32>
      linalg.yield %extracted : f32
    } -> tensor<?x4x?x32xf32>
    %32 = arith.cmpi slt, %27, %c0_i64 : i64
    %33 = arith.select %32, %c1_i64, %27 : i64
    %34 = arith.extui %32 : i1 to i64
    %35 = arith.muli %33, %0 : i64
    %36 = arith.addi %34, %c1_i64 : i64
    %37 = arith.cmpi slt, %0, %c0_i64 : i64
    %38 = arith.select %37, %33, %35 : i64
    %39 = arith.select %37, %36, %34 : i64
    %40 = arith.muli %38, %c32_i64 : i64
    %41 = arith.cmpi sle, %39, %c1_i64 : i64
    cf.assert %41, "must have at most one inferred (negative) dimension"
    %42 = arith.muli %27, %0 : i64
    %43 = arith.muli %42, %c32_i64 : i64
    %44 = arith.divsi %43, %40 : i64
    %45 = arith.select %32, %44, %27 : i64
    %46 = arith.select %37, %44, %0 : i64
    %from_elements = tensor.from_elements %45, %46, %c32_i64 : tensor<3xi64>
    %reshape = tensor.reshape %31(%from_elements) : (tensor<?x4x?x32xf32>, tensor<3xi64>) -> tensor<?x?x32xf32>
    cf.assert %28, "unimplemented: dynamic negative broadcast sizes"
    %47 = arith.cmpi sge, %2, %c0_i64 : i64
    cf.assert %47, "unimplemented: dynamic negative broadcast sizes"
    %48 = tensor.empty(%dim_6, %dim_7) : tensor<?x4x32x?xf32>
    %49 = linalg.generic {indexing_maps = [#map], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} outs(%48 : tensor<?x4x32x?xf32>) {
    ^bb0(%out: f32):
      %163 = linalg.index 0 : index
      %164 = linalg.index 1 : index
      %165 = linalg.index 2 : index
      %166 = linalg.index 3 : index
      %167 = arith.cmpi eq, %dim_9, %c1 : index
      %168 = arith.select %167, %c0, %163 : index
      %169 = arith.cmpi eq, %dim_10, %c1 : index
      %170 = arith.select %169, %c0, %166 : index
      %extracted = tensor.extract %26[%168, %164, %165, %170] : tensor<?x4x32x?xf32>
      linalg.yield %extracted : f32
    } -> tensor<?x4x32x?xf32>
    %50 = arith.muli %33, %c32_i64 : i64
    %51 = arith.muli %50, %2 : i64
    %52 = arith.cmpi slt, %2, %c0_i64 : i64
    %53 = arith.select %52, %50, %51 : i64
    %54 = arith.select %52, %36, %34 : i64
    %55 = arith.cmpi sle, %54, %c1_i64 : i64
    cf.assert %55, "must have at most one inferred (negative) dimension"
    %56 = arith.muli %1, %c128_i64 : i64
    %57 = arith.muli %56, %2 : i64
    %58 = arith.divsi %57, %53 : i64
    %59 = arith.select %32, %58, %27 : i64
    %60 = arith.select %52, %58, %2 : i64
    %from_elements_12 = tensor.from_elements %59, %c32_i64, %60 : tensor<3xi64>
    %reshape_13 = tensor.reshape %49(%from_elements_12) : (tensor<?x4x32x?xf32>, tensor<3xi64>) -> tensor<?x32x?xf32>
    %61 = arith.index_cast %45 : i64 to index
    %62 = arith.index_cast %46 : i64 to index
    %63 = arith.index_cast %60 : i64 to index
    %64 = arith.cmpi eq, %45, %59 : i64
    cf.assert %64, "mismatching contracting dimension"
    %65 = tensor.empty(%61, %62, %63) : tensor<?x?x?xf32>
    %66 = linalg.fill ins(%cst : f32) outs(%65 : tensor<?x?x?xf32>) -> tensor<?x?x?xf32>
    %67 = linalg.batch_matmul ins(%reshape, %reshape_13 : tensor<?x?x32xf32>, tensor<?x32x?xf32>) outs(%66 : tensor<?x?x?xf32>) -> tensor<?x?x?xf32>
    %68 = arith.cmpi slt, %1, %c0_i64 : i64
    %69 = arith.select %68, %c1_i64, %1 : i64
    %70 = arith.extui %68 : i1 to i64
    %71 = arith.muli %69, %c4_i64 : i64
    %72 = arith.muli %71, %0 : i64
    %73 = arith.addi %70, %c1_i64 : i64
    %74 = arith.select %37, %71, %72 : i64
    %75 = arith.select %37, %73, %70 : i64
    %76 = arith.muli %74, %2 : i64
    %77 = arith.addi %75, %c1_i64 : i64
    %78 = arith.select %52, %74, %76 : i64
    %79 = arith.select %52, %77, %75 : i64
    %80 = arith.cmpi sle, %79, %c1_i64 : i64
    cf.assert %80, "must have at most one inferred (negative) dimension"
    %81 = arith.muli %45, %46 : i64
    %82 = arith.muli %81, %60 : i64
    %83 = arith.divsi %82, %78 : i64
    %84 = arith.select %68, %83, %1 : i64
    %85 = arith.select %37, %83, %0 : i64
    %86 = arith.select %52, %83, %2 : i64
    %from_elements_14 = tensor.from_elements %84, %c4_i64, %85, %86 : tensor<4xi64>
    %reshape_15 = tensor.reshape %67(%from_elements_14) : (tensor<?x?x?xf32>, tensor<4xi64>) -> tensor<?x4x?x?xf32>
    %87 = arith.index_cast %84 : i64 to index
    %88 = arith.index_cast %85 : i64 to index
    %89 = arith.index_cast %86 : i64 to index
    %90 = arith.cmpi eq, %88, %dim : index
    cf.assert %90, "mismatched size for broadcast"
    %91 = arith.cmpi eq, %89, %dim_7 : index
    cf.assert %91, "mismatched size for broadcast"
    %92 = tensor.empty(%87, %88, %89) : tensor<?x4x?x?xf32>
    %93 = linalg.generic {indexing_maps = [#map, #map6, #map], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%reshape_15, %24 : tensor<?x4x?x?xf32>, tensor<?x?xf32>) outs(%92 : tensor<?x4x?x?xf32>) {
    ^bb0(%in: f32, %in_23: f32, %out: f32):
      %163 = arith.addf %in, %in_23 : f32
      linalg.yield %163 : f32
    } -> tensor<?x4x?x?xf32>
    %94 = tensor.empty(%87, %88) : tensor<?x4x?xi64>
    %95 = linalg.fill ins(%c0_i64 : i64) outs(%94 : tensor<?x4x?xi64>) -> tensor<?x4x?xi64>
    %96 = tensor.empty(%87, %88) : tensor<?x4x?xf32>
    %97 = linalg.fill ins(%cst_0 : f32) outs(%96 : tensor<?x4x?xf32>) -> tensor<?x4x?xf32>
    %98:2 = linalg.generic {indexing_maps = [#map, #map7, #map7], iterator_types = ["parallel", "parallel", "parallel", "reduction"]} ins(%93 : tensor<?x4x?x?xf32>) outs(%97, %95 : tensor<?x4x?xf32>, tensor<?x4x?xi64>) {
    ^bb0(%in: f32, %out: f32, %out_23: i64):
      %163 = linalg.index 3 : index
      %164 = arith.index_cast %163 : index to i64
      %165 = arith.maximumf %in, %out : f32
      %166 = arith.cmpf ogt, %in, %out : f32
      %167 = arith.select %166, %164, %out_23 : i64
      linalg.yield %165, %167 : f32, i64
    } -> (tensor<?x4x?xf32>, tensor<?x4x?xi64>)
    %expanded_16 = tensor.expand_shape %98#0 [[0], [1], [2, 3]] output_shape [%87, 4, %88, 1] : tensor<?x4x?xf32> into tensor<?x4x?x1xf32>
    %99 = linalg.generic {indexing_maps = [#map, #map8, #map], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%93, %expanded_16 : tensor<?x4x?x?xf32>, tensor<?x4x?x1xf32>) outs(%92 : tensor<?x4x?x?xf32>) {
    ^bb0(%in: f32, %in_23: f32, %out: f32):
      %163 = arith.subf %in, %in_23 : f32
      linalg.yield %163 : f32
    } -> tensor<?x4x?x?xf32>
    %100 = linalg.generic {indexing_maps = [#map, #map], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%99 : tensor<?x4x?x?xf32>) outs(%92 : tensor<?x4x?x?xf32>) {
    ^bb0(%in: f32, %out: f32):
      %163 = math.exp %in : f32
      linalg.yield %163 : f32
    } -> tensor<?x4x?x?xf32>
    %101 = tensor.empty(%87, %88) : tensor<?x4x?x1xf32>
    %102 = linalg.fill ins(%cst : f32) outs(%101 : tensor<?x4x?x1xf32>) -> tensor<?x4x?x1xf32>
    %103 = linalg.generic {indexing_maps = [#map, #map8], iterator_types = ["parallel", "parallel", "parallel", "reduction"]} ins(%100 : tensor<?x4x?x?xf32>) outs(%102 : tensor<?x4x?x1xf32>) {
    ^bb0(%in: f32, %out: f32):
      %163 = arith.addf %in, %out : f32
      linalg.yield %163 : f32
    } -> tensor<?x4x?x1xf32>
    %104 = linalg.generic {indexing_maps = [#map, #map8, #map], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%100, %103 : tensor<?x4x?x?xf32>, tensor<?x4x?x1xf32>) outs(%92 : tensor<?x4x?x?xf32>) {
    ^bb0(%in: f32, %in_23: f32, %out: f32):
      %163 = arith.divf %in, %in_23 : f32
      linalg.yield %163 : f32
    } -> tensor<?x4x?x?xf32>
    %105 = tensor.empty(%87, %88, %89) : tensor<?x4x?x?xi1>
    %106 = linalg.generic {indexing_maps = [#map, #map], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%93 : tensor<?x4x?x?xf32>) outs(%105 : tensor<?x4x?x?xi1>) {
    ^bb0(%in: f32, %out: i1):
      %163 = arith.extf %in : f32 to f64
      %164 = arith.cmpf oeq, %163, %cst_4 : f64
      linalg.yield %164 : i1
    } -> tensor<?x4x?x?xi1>
    %107 = tensor.empty(%87, %88) : tensor<?x4x?x1xi1>
    %108 = linalg.fill ins(%true : i1) outs(%107 : tensor<?x4x?x1xi1>) -> tensor<?x4x?x1xi1>
    %109 = linalg.generic {indexing_maps = [#map, #map8], iterator_types = ["parallel", "parallel", "parallel", "reduction"]} ins(%106 : tensor<?x4x?x?xi1>) outs(%108 : tensor<?x4x?x1xi1>) {
    ^bb0(%in: i1, %out: i1):
      %163 = arith.andi %in, %out : i1
      linalg.yield %163 : i1
    } -> tensor<?x4x?x1xi1>
    %110 = arith.cmpi sge, %84, %c0_i64 : i64
    cf.assert %110, "negative values not allowed in new dimensions"
    %111 = arith.index_cast %84 : i64 to index
    %112 = arith.cmpi sge, %85, %c0_i64 : i64
    cf.assert %112, "negative values not allowed in new dimensions"
    %113 = arith.index_cast %85 : i64 to index
    %114 = arith.cmpi sge, %86, %c0_i64 : i64
    cf.assert %114, "negative values not allowed in new dimensions"
    %115 = arith.index_cast %86 : i64 to index
    %116 = tensor.empty(%111, %113, %115) : tensor<?x4x?x?xf32>
    %117 = linalg.generic {indexing_maps = [#map9, #map], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%cst_1 : tensor<f32>) outs(%116 : tensor<?x4x?x?xf32>) {
    ^bb0(%in: f32, %out: f32):
      linalg.yield %in : f32
    } -> tensor<?x4x?x?xf32>
    %118 = arith.cmpi eq, %87, %111 : index
    cf.assert %118, "mismatched size for broadcast"
    %119 = arith.cmpi eq, %88, %113 : index
    cf.assert %119, "mismatched size for broadcast"
    %120 = arith.cmpi eq, %115, %89 : index
    cf.assert %120, "mismatched size for broadcast"
    %121 = tensor.empty(%87, %88, %115) : tensor<?x4x?x?xf32>
    %122 = linalg.generic {indexing_maps = [#map8, #map, #map, #map], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%109, %117, %104 : tensor<?x4x?x1xi1>, tensor<?x4x?x?xf32>, tensor<?x4x?x?xf32>) outs(%121 : tensor<?x4x?x?xf32>) {
    ^bb0(%in: i1, %in_23: f32, %in_24: f32, %out: f32):
      %163 = arith.select %in, %in_23, %in_24 : f32
      linalg.yield %163 : f32
    } -> tensor<?x4x?x?xf32>
    cf.assert %28, "unimplemented: dynamic negative broadcast sizes"
    cf.assert %29, "unimplemented: dynamic negative broadcast sizes"
    cf.assert %47, "unimplemented: dynamic negative broadcast sizes"
    %123 = tensor.empty(%dim_6, %dim, %dim_7) : tensor<?x4x?x?xf32>
    %124 = linalg.generic {indexing_maps = [#map], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} outs(%123 : tensor<?x4x?x?xf32>) {
    ^bb0(%out: f32):
      %163 = linalg.index 0 : index
      %164 = linalg.index 1 : index
      %165 = linalg.index 2 : index
      %166 = linalg.index 3 : index
      %167 = arith.cmpi eq, %87, %c1 : index
      %168 = arith.select %167, %c0, %163 : index
      %169 = arith.cmpi eq, %88, %c1 : index
      %170 = arith.select %169, %c0, %165 : index
      %171 = arith.cmpi eq, %115, %c1 : index
      %172 = arith.select %171, %c0, %166 : index
      %extracted = tensor.extract %122[%168, %164, %170, %172] : tensor<?x4x?x?xf32>
      linalg.yield %extracted : f32
    } -> tensor<?x4x?x?xf32>
    %125 = arith.muli %38, %2 : i64
    %126 = arith.addi %39, %c1_i64 : i64
    %127 = arith.select %52, %38, %125 : i64
    %128 = arith.select %52, %126, %39 : i64
    %129 = arith.cmpi sle, %128, %c1_i64 : i64
    cf.assert %129, "must have at most one inferred (negative) dimension"
    %130 = arith.muli %42, %2 : i64
    %131 = arith.divsi %130, %127 : i64
    %132 = arith.select %32, %131, %27 : i64
    %133 = arith.select %37, %131, %0 : i64
    %134 = arith.select %52, %131, %2 : i64
    %from_elements_17 = tensor.from_elements %132, %133, %134 : tensor<3xi64>
    %reshape_18 = tensor.reshape %124(%from_elements_17) : (tensor<?x4x?x?xf32>, tensor<3xi64>) -> tensor<?x?x?xf32>
    cf.assert %28, "unimplemented: dynamic negative broadcast sizes"
    cf.assert %47, "unimplemented: dynamic negative broadcast sizes"
    %135 = tensor.empty(%dim_6, %dim_7) : tensor<?x4x?x32xf32>
    %136 = linalg.generic {indexing_maps = [#map], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} outs(%135 : tensor<?x4x?x32xf32>) {
    ^bb0(%out: f32):
      %163 = linalg.index 0 : index
      %164 = linalg.index 1 : index
      %165 = linalg.index 2 : index
      %166 = linalg.index 3 : index
      %167 = arith.cmpi eq, %dim_6, %c1 : index
      %168 = arith.select %167, %c0, %163 : index
      %169 = arith.cmpi eq, %dim_7, %c1 : index
      %170 = arith.select %169, %c0, %165 : index
      %extracted = tensor.extract %8[%168, %164, %170, %166] : tensor<?x4x?x32xf32>
      linalg.yield %extracted : f32
    } -> tensor<?x4x?x32xf32>
    %137 = arith.muli %33, %2 : i64
    %138 = arith.select %52, %33, %137 : i64
    %139 = arith.muli %138, %c32_i64 : i64
    cf.assert %55, "must have at most one inferred (negative) dimension"
    %140 = arith.muli %27, %2 : i64
    %141 = arith.muli %140, %c32_i64 : i64
    %142 = arith.divsi %141, %139 : i64
    %143 = arith.select %32, %142, %27 : i64
    %144 = arith.select %52, %142, %2 : i64
    %from_elements_19 = tensor.from_elements %143, %144, %c32_i64 : tensor<3xi64>
    %reshape_20 = tensor.reshape %136(%from_elements_19) : (tensor<?x4x?x32xf32>, tensor<3xi64>) -> tensor<?x?x32xf32>
    %145 = arith.index_cast %132 : i64 to index
    %146 = arith.index_cast %133 : i64 to index
    %147 = arith.cmpi eq, %132, %143 : i64
    cf.assert %147, "mismatching contracting dimension"
    %148 = arith.cmpi eq, %134, %144 : i64
    cf.assert %148, "mismatching contracting dimension"
    %149 = tensor.empty(%145, %146) : tensor<?x?x32xf32>
    %150 = linalg.fill ins(%cst : f32) outs(%149 : tensor<?x?x32xf32>) -> tensor<?x?x32xf32>
    %151 = linalg.batch_matmul ins(%reshape_18, %reshape_20 : tensor<?x?x?xf32>, tensor<?x?x32xf32>) outs(%150 : tensor<?x?x32xf32>) -> tensor<?x?x32xf32>
    %152 = arith.muli %74, %c32_i64 : i64
    %153 = arith.cmpi sle, %75, %c1_i64 : i64
    cf.assert %153, "must have at most one inferred (negative) dimension"
    %154 = arith.muli %132, %133 : i64
    %155 = arith.muli %154, %c32_i64 : i64
    %156 = arith.divsi %155, %152 : i64
    %157 = arith.select %68, %156, %1 : i64
    %158 = arith.select %37, %156, %0 : i64
    %from_elements_21 = tensor.from_elements %157, %c4_i64, %158, %c32_i64 : tensor<4xi64>
    %reshape_22 = tensor.reshape %151(%from_elements_21) : (tensor<?x?x32xf32>, tensor<4xi64>) -> tensor<?x4x?x32xf32>
    %159 = arith.index_cast %157 : i64 to index
    %160 = arith.index_cast %158 : i64 to index
    %161 = tensor.empty(%159, %160) : tensor<?x4x?x32xbf16>
    %162 = linalg.generic {indexing_maps = [#map, #map], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%reshape_22 : tensor<?x4x?x32xf32>) outs(%161 : tensor<?x4x?x32xbf16>) {
    ^bb0(%in: f32, %out: bf16):
      %163 = arith.truncf %in : f32 to bf16
      linalg.yield %163 : bf16
    } -> tensor<?x4x?x32xbf16>
    return %162 : tensor<?x4x?x32xbf16>
  }
}
