// llama_gqa_bf16_dynamic (LlamaGqa), exported with a dynamic batch and
// lengths (torch.export Dims) by scripts/export_torch_mlir_cases.py (torch 2.15.0+cu132,
// torch_mlir.fx, output linalg-on-tensors). The raising runs on the dynamic
// function; the proof runs it at several sizes.
// RUN: attention-opt %s --attn-raise-pipeline | FileCheck %s
// RUN: attn-raise-check %s --require-raised --runs=1 --seed=54 '--shapes=2x4x16x32,2x2x24x32,2x2x24x32->2x4x16x32' '--shapes=1x4x1x32,1x2x7x32,1x2x7x32->1x4x1x32' '--shapes=3x4x33x32,3x2x1x32,3x2x1x32->3x4x33x32' '--shapes=2x4x5x32,2x2x70x32,2x2x70x32->2x4x5x32' | FileCheck %s --check-prefix=PROOF --implicit-check-not=FAIL
// CHECK: attn.attention {{.*}}tensor<?x2x?x32xbf16>) {scale = 0.1767{{[0-9]+}} : f32}
// CHECK-NOT: linalg.
// PROOF: @llama_gqa_bf16_dynamic at {{.*}}: 1 attn.attention after the raising
// PROOF: run 0 result 0 {{.*}}: PASS
// PROOF: @llama_gqa_bf16_dynamic at {{.*}}: 1 attn.attention after the raising
// PROOF: run 0 result 0 {{.*}}: PASS
// PROOF: @llama_gqa_bf16_dynamic at {{.*}}: 1 attn.attention after the raising
// PROOF: run 0 result 0 {{.*}}: PASS
// PROOF: @llama_gqa_bf16_dynamic at {{.*}}: 1 attn.attention after the raising
// PROOF: run 0 result 0 {{.*}}: PASS
#map = affine_map<(d0, d1, d2, d3, d4) -> (d0, d1, d2, d3, d4)>
#map1 = affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>
#map2 = affine_map<(d0, d1, d2) -> (d0, d1, d2)>
#map3 = affine_map<(d0, d1, d2, d3) -> (d0, d1, d2)>
#map4 = affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, 0)>
module {
  func.func @llama_gqa_bf16_dynamic(%arg0: tensor<?x4x?x32xbf16>, %arg1: tensor<?x2x?x32xbf16>, %arg2: tensor<?x2x?x32xbf16>) -> tensor<?x4x?x32xbf16> {
    %c0_i64 = arith.constant 0 : i64
    %c4_i64 = arith.constant 4 : i64
    %c0 = arith.constant 0 : index
    %c2 = arith.constant 2 : index
    %c1 = arith.constant 1 : index
    %c32_i64 = arith.constant 32 : i64
    %c1_i64 = arith.constant 1 : i64
    %cst = arith.constant 0.000000e+00 : f32
    %cst_0 = arith.constant 0xFF800000 : f32
    %cst_1 = arith.constant 5.6568542494923806 : f64
    %c128_i64 = arith.constant 128 : i64
    %dim = tensor.dim %arg0, %c2 : tensor<?x4x?x32xbf16>
    %0 = arith.index_cast %dim : index to i64
    %dim_2 = tensor.dim %arg2, %c0 : tensor<?x2x?x32xbf16>
    %1 = arith.index_cast %dim_2 : index to i64
    %dim_3 = tensor.dim %arg2, %c2 : tensor<?x2x?x32xbf16>
    %2 = arith.index_cast %dim_3 : index to i64
    %dim_4 = tensor.dim %arg1, %c0 : tensor<?x2x?x32xbf16>
    %dim_5 = tensor.dim %arg1, %c2 : tensor<?x2x?x32xbf16>
    %expanded = tensor.expand_shape %arg1 [[0], [1], [2, 3], [4]] output_shape [%dim_4, 2, 1, %dim_5, 32] : tensor<?x2x?x32xbf16> into tensor<?x2x1x?x32xbf16>
    %3 = arith.cmpi sge, %1, %c0_i64 : i64
    cf.assert %3, "unimplemented: dynamic negative broadcast sizes"
    %4 = arith.cmpi sge, %2, %c0_i64 : i64
    cf.assert %4, "unimplemented: dynamic negative broadcast sizes"
    %5 = tensor.empty(%dim_2, %dim_3) : tensor<?x2x2x?x32xbf16>
    %6 = linalg.generic {indexing_maps = [#map], iterator_types = ["parallel", "parallel", "parallel", "parallel", "parallel"]} outs(%5 : tensor<?x2x2x?x32xbf16>) {
    ^bb0(%out: bf16):
      %136 = linalg.index 0 : index
      %137 = linalg.index 1 : index
      %138 = linalg.index 3 : index
      %139 = linalg.index 4 : index
      %140 = arith.cmpi eq, %dim_4, %c1 : index
      %141 = arith.select %140, %c0, %136 : index
      %142 = arith.cmpi eq, %dim_5, %c1 : index
      %143 = arith.select %142, %c0, %138 : index
      %extracted = tensor.extract %expanded[%141, %137, %c0, %143, %139] : tensor<?x2x1x?x32xbf16>
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
    %expanded_6 = tensor.expand_shape %arg2 [[0], [1], [2, 3], [4]] output_shape [%dim_2, 2, 1, %dim_3, 32] : tensor<?x2x?x32xbf16> into tensor<?x2x1x?x32xbf16>
    cf.assert %3, "unimplemented: dynamic negative broadcast sizes"
    cf.assert %4, "unimplemented: dynamic negative broadcast sizes"
    %24 = linalg.generic {indexing_maps = [#map], iterator_types = ["parallel", "parallel", "parallel", "parallel", "parallel"]} outs(%5 : tensor<?x2x2x?x32xbf16>) {
    ^bb0(%out: bf16):
      %136 = linalg.index 0 : index
      %137 = linalg.index 1 : index
      %138 = linalg.index 3 : index
      %139 = linalg.index 4 : index
      %140 = arith.cmpi eq, %dim_2, %c1 : index
      %141 = arith.select %140, %c0, %136 : index
      %142 = arith.cmpi eq, %dim_3, %c1 : index
      %143 = arith.select %142, %c0, %138 : index
      %extracted = tensor.extract %expanded_6[%141, %137, %c0, %143, %139] : tensor<?x2x1x?x32xbf16>
      linalg.yield %extracted : bf16
    } -> tensor<?x2x2x?x32xbf16>
    cf.assert %17, "must have at most one inferred (negative) dimension"
    %reshape_7 = tensor.reshape %24(%from_elements) : (tensor<?x2x2x?x32xbf16>, tensor<4xi64>) -> tensor<?x4x?x32xbf16>
    %25 = arith.index_cast %22 : i64 to index
    %26 = arith.index_cast %23 : i64 to index
    %27 = tensor.empty(%25, %26) : tensor<?x4x32x?xbf16>
    %transposed = linalg.transpose ins(%reshape : tensor<?x4x?x32xbf16>) outs(%27 : tensor<?x4x32x?xbf16>) permutation = [0, 1, 3, 2] 
    cf.assert %3, "unimplemented: dynamic negative broadcast sizes"
    %28 = arith.cmpi sge, %0, %c0_i64 : i64
    cf.assert %28, "unimplemented: dynamic negative broadcast sizes"
    %29 = tensor.empty(%dim_2, %dim) : tensor<?x4x?x32xbf16>
    %30 = linalg.generic {indexing_maps = [#map1], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} outs(%29 : tensor<?x4x?x32xbf16>) {
    ^bb0(%out: bf16):
      %136 = linalg.index 0 : index
      %137 = linalg.index 1 : index
      %138 = linalg.index 2 : index
      %139 = linalg.index 3 : index
      %dim_21 = tensor.dim %arg0, %c0 : tensor<?x4x?x32xbf16>
      %140 = arith.cmpi eq, %dim_21, %c1 : index
      %141 = arith.select %140, %c0, %136 : index
      %142 = arith.cmpi eq, %dim, %c1 : index
      %143 = arith.select %142, %c0, %138 : index
      %extracted = tensor.extract %arg0[%141, %137, %143, %139] : tensor<?x4x?x32xbf16>
      linalg.yield %extracted : bf16
    } -> tensor<?x4x?x32xbf16>
    %31 = arith.cmpi slt, %18, %c0_i64 : i64
    %32 = arith.select %31, %c1_i64, %18 : i64
    %33 = arith.extui %31 : i1 to i64
    %34 = arith.muli %32, %0 : i64
    %35 = arith.addi %33, %c1_i64 : i64
    %36 = arith.cmpi slt, %0, %c0_i64 : i64
    %37 = arith.select %36, %32, %34 : i64
    %38 = arith.select %36, %35, %33 : i64
    %39 = arith.muli %37, %c32_i64 : i64
    %40 = arith.cmpi sle, %38, %c1_i64 : i64
    cf.assert %40, "must have at most one inferred (negative) dimension"
    %41 = arith.muli %18, %0 : i64
    %42 = arith.muli %41, %c32_i64 : i64
    %43 = arith.divsi %42, %39 : i64
    %44 = arith.select %31, %43, %18 : i64
    %45 = arith.select %36, %43, %0 : i64
    %from_elements_8 = tensor.from_elements %44, %45, %c32_i64 : tensor<3xi64>
    %reshape_9 = tensor.reshape %30(%from_elements_8) : (tensor<?x4x?x32xbf16>, tensor<3xi64>) -> tensor<?x?x32xbf16>
    cf.assert %3, "unimplemented: dynamic negative broadcast sizes"
    cf.assert %4, "unimplemented: dynamic negative broadcast sizes"
    %46 = tensor.empty(%dim_2, %dim_3) : tensor<?x4x32x?xbf16>
    %47 = linalg.generic {indexing_maps = [#map1], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} outs(%46 : tensor<?x4x32x?xbf16>) {
    ^bb0(%out: bf16):
      %136 = linalg.index 0 : index
      %137 = linalg.index 1 : index
      %138 = linalg.index 2 : index
      %139 = linalg.index 3 : index
      %140 = arith.cmpi eq, %25, %c1 : index
      %141 = arith.select %140, %c0, %136 : index
      %142 = arith.cmpi eq, %26, %c1 : index
      %143 = arith.select %142, %c0, %139 : index
      %extracted = tensor.extract %transposed[%141, %137, %138, %143] : tensor<?x4x32x?xbf16>
      linalg.yield %extracted : bf16
    } -> tensor<?x4x32x?xbf16>
    %48 = arith.muli %32, %c32_i64 : i64
    %49 = arith.muli %48, %2 : i64
    %50 = arith.select %13, %48, %49 : i64
    %51 = arith.select %13, %35, %33 : i64
    %52 = arith.cmpi sle, %51, %c1_i64 : i64
    cf.assert %52, "must have at most one inferred (negative) dimension"
    %53 = arith.muli %1, %c128_i64 : i64
    %54 = arith.muli %53, %2 : i64
    %55 = arith.divsi %54, %50 : i64
    %56 = arith.select %31, %55, %18 : i64
    %57 = arith.select %13, %55, %2 : i64
    %from_elements_10 = tensor.from_elements %56, %c32_i64, %57 : tensor<3xi64>
    %reshape_11 = tensor.reshape %47(%from_elements_10) : (tensor<?x4x32x?xbf16>, tensor<3xi64>) -> tensor<?x32x?xbf16>
    %58 = arith.index_cast %44 : i64 to index
    %59 = arith.index_cast %45 : i64 to index
    %60 = arith.index_cast %57 : i64 to index
    %61 = arith.cmpi eq, %44, %56 : i64
    cf.assert %61, "mismatching contracting dimension"
    %62 = tensor.empty(%58, %59, %60) : tensor<?x?x?xf32>
    %63 = linalg.fill ins(%cst : f32) outs(%62 : tensor<?x?x?xf32>) -> tensor<?x?x?xf32>
    %64 = linalg.batch_matmul ins(%reshape_9, %reshape_11 : tensor<?x?x32xbf16>, tensor<?x32x?xbf16>) outs(%63 : tensor<?x?x?xf32>) -> tensor<?x?x?xf32>
    %65 = tensor.empty(%58, %59, %60) : tensor<?x?x?xbf16>
    %66 = linalg.generic {indexing_maps = [#map2, #map2], iterator_types = ["parallel", "parallel", "parallel"]} ins(%64 : tensor<?x?x?xf32>) outs(%65 : tensor<?x?x?xbf16>) {
    ^bb0(%in: f32, %out: bf16):
      %136 = arith.truncf %in : f32 to bf16
      linalg.yield %136 : bf16
    } -> tensor<?x?x?xbf16>
    %67 = arith.muli %10, %0 : i64
    %68 = arith.select %36, %10, %67 : i64
    %69 = arith.select %36, %12, %9 : i64
    %70 = arith.muli %68, %2 : i64
    %71 = arith.addi %69, %c1_i64 : i64
    %72 = arith.select %13, %68, %70 : i64
    %73 = arith.select %13, %71, %69 : i64
    %74 = arith.cmpi sle, %73, %c1_i64 : i64
    cf.assert %74, "must have at most one inferred (negative) dimension"
    %75 = arith.muli %44, %45 : i64
    %76 = arith.muli %75, %57 : i64
    %77 = arith.divsi %76, %72 : i64
    %78 = arith.select %7, %77, %1 : i64
    %79 = arith.select %36, %77, %0 : i64
    %80 = arith.select %13, %77, %2 : i64
    %from_elements_12 = tensor.from_elements %78, %c4_i64, %79, %80 : tensor<4xi64>
    %reshape_13 = tensor.reshape %66(%from_elements_12) : (tensor<?x?x?xbf16>, tensor<4xi64>) -> tensor<?x4x?x?xbf16>
    %81 = arith.index_cast %78 : i64 to index
    %82 = arith.index_cast %79 : i64 to index
    %83 = arith.index_cast %80 : i64 to index
    %84 = tensor.empty(%81, %82, %83) : tensor<?x4x?x?xbf16>
    %85 = linalg.generic {indexing_maps = [#map1, #map1], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%reshape_13 : tensor<?x4x?x?xbf16>) outs(%84 : tensor<?x4x?x?xbf16>) {
    ^bb0(%in: bf16, %out: bf16):
      %136 = arith.truncf %cst_1 : f64 to bf16
      %137 = arith.divf %in, %136 : bf16
      linalg.yield %137 : bf16
    } -> tensor<?x4x?x?xbf16>
    %86 = tensor.empty(%81, %82, %83) : tensor<?x4x?x?xf32>
    %87 = linalg.generic {indexing_maps = [#map1, #map1], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%85 : tensor<?x4x?x?xbf16>) outs(%86 : tensor<?x4x?x?xf32>) {
    ^bb0(%in: bf16, %out: f32):
      %136 = arith.extf %in : bf16 to f32
      linalg.yield %136 : f32
    } -> tensor<?x4x?x?xf32>
    %88 = tensor.empty(%81, %82) : tensor<?x4x?xi64>
    %89 = linalg.fill ins(%c0_i64 : i64) outs(%88 : tensor<?x4x?xi64>) -> tensor<?x4x?xi64>
    %90 = tensor.empty(%81, %82) : tensor<?x4x?xf32>
    %91 = linalg.fill ins(%cst_0 : f32) outs(%90 : tensor<?x4x?xf32>) -> tensor<?x4x?xf32>
    %92:2 = linalg.generic {indexing_maps = [#map1, #map3, #map3], iterator_types = ["parallel", "parallel", "parallel", "reduction"]} ins(%87 : tensor<?x4x?x?xf32>) outs(%91, %89 : tensor<?x4x?xf32>, tensor<?x4x?xi64>) {
    ^bb0(%in: f32, %out: f32, %out_21: i64):
      %136 = linalg.index 3 : index
      %137 = arith.index_cast %136 : index to i64
      %138 = arith.maximumf %in, %out : f32
      %139 = arith.cmpf ogt, %in, %out : f32
      %140 = arith.select %139, %137, %out_21 : i64
      linalg.yield %138, %140 : f32, i64
    } -> (tensor<?x4x?xf32>, tensor<?x4x?xi64>)
    %expanded_14 = tensor.expand_shape %92#0 [[0], [1], [2, 3]] output_shape [%81, 4, %82, 1] : tensor<?x4x?xf32> into tensor<?x4x?x1xf32>
    %93 = linalg.generic {indexing_maps = [#map1, #map4, #map1], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%87, %expanded_14 : tensor<?x4x?x?xf32>, tensor<?x4x?x1xf32>) outs(%86 : tensor<?x4x?x?xf32>) {
    ^bb0(%in: f32, %in_21: f32, %out: f32):
      %136 = arith.subf %in, %in_21 : f32
      linalg.yield %136 : f32
    } -> tensor<?x4x?x?xf32>
    %94 = linalg.generic {indexing_maps = [#map1, #map1], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%93 : tensor<?x4x?x?xf32>) outs(%86 : tensor<?x4x?x?xf32>) {
    ^bb0(%in: f32, %out: f32):
      %136 = math.exp %in : f32
      linalg.yield %136 : f32
    } -> tensor<?x4x?x?xf32>
    %95 = tensor.empty(%81, %82) : tensor<?x4x?x1xf32>
    %96 = linalg.fill ins(%cst : f32) outs(%95 : tensor<?x4x?x1xf32>) -> tensor<?x4x?x1xf32>
    %97 = linalg.generic {indexing_maps = [#map1, #map4], iterator_types = ["parallel", "parallel", "parallel", "reduction"]} ins(%94 : tensor<?x4x?x?xf32>) outs(%96 : tensor<?x4x?x1xf32>) {
    ^bb0(%in: f32, %out: f32):
      %136 = arith.addf %in, %out : f32
      linalg.yield %136 : f32
    } -> tensor<?x4x?x1xf32>
    %98 = linalg.generic {indexing_maps = [#map1, #map4, #map1], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%94, %97 : tensor<?x4x?x?xf32>, tensor<?x4x?x1xf32>) outs(%86 : tensor<?x4x?x?xf32>) {
    ^bb0(%in: f32, %in_21: f32, %out: f32):
      %136 = arith.divf %in, %in_21 : f32
      linalg.yield %136 : f32
    } -> tensor<?x4x?x?xf32>
    %99 = linalg.generic {indexing_maps = [#map1, #map1], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%98 : tensor<?x4x?x?xf32>) outs(%84 : tensor<?x4x?x?xbf16>) {
    ^bb0(%in: f32, %out: bf16):
      %136 = arith.truncf %in : f32 to bf16
      linalg.yield %136 : bf16
    } -> tensor<?x4x?x?xbf16>
    cf.assert %3, "unimplemented: dynamic negative broadcast sizes"
    cf.assert %28, "unimplemented: dynamic negative broadcast sizes"
    cf.assert %4, "unimplemented: dynamic negative broadcast sizes"
    %100 = tensor.empty(%dim_2, %dim, %dim_3) : tensor<?x4x?x?xbf16>
    %101 = linalg.generic {indexing_maps = [#map1], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} outs(%100 : tensor<?x4x?x?xbf16>) {
    ^bb0(%out: bf16):
      %136 = linalg.index 0 : index
      %137 = linalg.index 1 : index
      %138 = linalg.index 2 : index
      %139 = linalg.index 3 : index
      %140 = arith.cmpi eq, %81, %c1 : index
      %141 = arith.select %140, %c0, %136 : index
      %142 = arith.cmpi eq, %82, %c1 : index
      %143 = arith.select %142, %c0, %138 : index
      %144 = arith.cmpi eq, %83, %c1 : index
      %145 = arith.select %144, %c0, %139 : index
      %extracted = tensor.extract %99[%141, %137, %143, %145] : tensor<?x4x?x?xbf16>
      linalg.yield %extracted : bf16
    } -> tensor<?x4x?x?xbf16>
    %102 = arith.muli %37, %2 : i64
    %103 = arith.addi %38, %c1_i64 : i64
    %104 = arith.select %13, %37, %102 : i64
    %105 = arith.select %13, %103, %38 : i64
    %106 = arith.cmpi sle, %105, %c1_i64 : i64
    cf.assert %106, "must have at most one inferred (negative) dimension"
    %107 = arith.muli %41, %2 : i64
    %108 = arith.divsi %107, %104 : i64
    %109 = arith.select %31, %108, %18 : i64
    %110 = arith.select %36, %108, %0 : i64
    %111 = arith.select %13, %108, %2 : i64
    %from_elements_15 = tensor.from_elements %109, %110, %111 : tensor<3xi64>
    %reshape_16 = tensor.reshape %101(%from_elements_15) : (tensor<?x4x?x?xbf16>, tensor<3xi64>) -> tensor<?x?x?xbf16>
    cf.assert %3, "unimplemented: dynamic negative broadcast sizes"
    cf.assert %4, "unimplemented: dynamic negative broadcast sizes"
    %112 = tensor.empty(%dim_2, %dim_3) : tensor<?x4x?x32xbf16>
    %113 = linalg.generic {indexing_maps = [#map1], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} outs(%112 : tensor<?x4x?x32xbf16>) {
    ^bb0(%out: bf16):
      %136 = linalg.index 0 : index
      %137 = linalg.index 1 : index
      %138 = linalg.index 2 : index
      %139 = linalg.index 3 : index
      %140 = arith.cmpi eq, %25, %c1 : index
      %141 = arith.select %140, %c0, %136 : index
      %142 = arith.cmpi eq, %26, %c1 : index
      %143 = arith.select %142, %c0, %138 : index
      %extracted = tensor.extract %reshape_7[%141, %137, %143, %139] : tensor<?x4x?x32xbf16>
      linalg.yield %extracted : bf16
    } -> tensor<?x4x?x32xbf16>
    %114 = arith.muli %32, %2 : i64
    %115 = arith.select %13, %32, %114 : i64
    %116 = arith.muli %115, %c32_i64 : i64
    cf.assert %52, "must have at most one inferred (negative) dimension"
    %117 = arith.divsi %20, %116 : i64
    %118 = arith.select %31, %117, %18 : i64
    %119 = arith.select %13, %117, %2 : i64
    %from_elements_17 = tensor.from_elements %118, %119, %c32_i64 : tensor<3xi64>
    %reshape_18 = tensor.reshape %113(%from_elements_17) : (tensor<?x4x?x32xbf16>, tensor<3xi64>) -> tensor<?x?x32xbf16>
    %120 = arith.index_cast %109 : i64 to index
    %121 = arith.index_cast %110 : i64 to index
    %122 = arith.cmpi eq, %109, %118 : i64
    cf.assert %122, "mismatching contracting dimension"
    %123 = arith.cmpi eq, %111, %119 : i64
    cf.assert %123, "mismatching contracting dimension"
    %124 = tensor.empty(%120, %121) : tensor<?x?x32xf32>
    %125 = linalg.fill ins(%cst : f32) outs(%124 : tensor<?x?x32xf32>) -> tensor<?x?x32xf32>
    %126 = linalg.batch_matmul ins(%reshape_16, %reshape_18 : tensor<?x?x?xbf16>, tensor<?x?x32xbf16>) outs(%125 : tensor<?x?x32xf32>) -> tensor<?x?x32xf32>
    %127 = tensor.empty(%120, %121) : tensor<?x?x32xbf16>
    %128 = linalg.generic {indexing_maps = [#map2, #map2], iterator_types = ["parallel", "parallel", "parallel"]} ins(%126 : tensor<?x?x32xf32>) outs(%127 : tensor<?x?x32xbf16>) {
    ^bb0(%in: f32, %out: bf16):
      %136 = arith.truncf %in : f32 to bf16
      linalg.yield %136 : bf16
    } -> tensor<?x?x32xbf16>
    %129 = arith.muli %68, %c32_i64 : i64
    %130 = arith.cmpi sle, %69, %c1_i64 : i64
    cf.assert %130, "must have at most one inferred (negative) dimension"
    %131 = arith.muli %109, %110 : i64
    %132 = arith.muli %131, %c32_i64 : i64
    %133 = arith.divsi %132, %129 : i64
    %134 = arith.select %7, %133, %1 : i64
    %135 = arith.select %36, %133, %0 : i64
    %from_elements_19 = tensor.from_elements %134, %c4_i64, %135, %c32_i64 : tensor<4xi64>
    %reshape_20 = tensor.reshape %128(%from_elements_19) : (tensor<?x?x32xbf16>, tensor<4xi64>) -> tensor<?x4x?x32xbf16>
    return %reshape_20 : tensor<?x4x?x32xbf16>
  }
}
