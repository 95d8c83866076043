// sdpa_scale_causal_dynamic (SdpaScaleCausal), exported with a dynamic batch and
// lengths (torch.export Dims) by scripts/export_torch_mlir_cases.py (torch 2.15.0+cu132,
// torch_mlir.fx, output linalg-on-tensors). The raising runs on the dynamic
// function; the proof runs it at several sizes.
// RUN: attention-opt %s --attn-raise-pipeline | FileCheck %s
// RUN: attn-raise-check %s --require-raised --runs=1 --seed=41 '--shapes=2x4x16x32,2x4x24x32,2x4x24x32->2x4x16x32' '--shapes=1x4x1x32,1x4x7x32,1x4x7x32->1x4x1x32' '--shapes=3x4x33x32,3x4x1x32,3x4x1x32->3x4x33x32' '--shapes=2x4x5x32,2x4x70x32,2x4x70x32->2x4x5x32' | FileCheck %s --check-prefix=PROOF --implicit-check-not=FAIL
// CHECK: attn.attention {{.*}}{causal = #attn.causal<top_left>, scale = 3.000000e-01 : f32}
// CHECK-NOT: linalg.
// PROOF: @sdpa_scale_causal_dynamic at {{.*}}: 1 attn.attention after the raising
// PROOF: run 0 result 0 {{.*}}: PASS
// PROOF: @sdpa_scale_causal_dynamic at {{.*}}: 1 attn.attention after the raising
// PROOF: run 0 result 0 {{.*}}: PASS
// PROOF: @sdpa_scale_causal_dynamic at {{.*}}: 1 attn.attention after the raising
// PROOF: run 0 result 0 {{.*}}: PASS
// PROOF: @sdpa_scale_causal_dynamic at {{.*}}: 1 attn.attention after the raising
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
  func.func @sdpa_scale_causal_dynamic(%arg0: tensor<?x4x?x32xf32>, %arg1: tensor<?x4x?x32xf32>, %arg2: tensor<?x4x?x32xf32>) -> tensor<?x4x?x32xf32> {
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
    %cst_5 = arith.constant 0.54772255750516607 : f64
    %c128_i64 = arith.constant 128 : i64
    %dim = tensor.dim %arg0, %c2 : tensor<?x4x?x32xf32>
    %0 = arith.index_cast %dim : index to i64
    %dim_6 = tensor.dim %arg2, %c0 : tensor<?x4x?x32xf32>
    %1 = arith.index_cast %dim_6 : index to i64
    %dim_7 = tensor.dim %arg2, %c2 : tensor<?x4x?x32xf32>
    %2 = arith.index_cast %dim_7 : index to i64
    %dim_8 = tensor.dim %arg0, %c0 : tensor<?x4x?x32xf32>
    %3 = tensor.empty(%dim_8, %dim) : tensor<?x4x?x32xf32>
    %4 = linalg.generic {indexing_maps = [#map, #map], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%arg0 : tensor<?x4x?x32xf32>) outs(%3 : tensor<?x4x?x32xf32>) {
    ^bb0(%in: f32, %out: f32):
      %154 = arith.truncf %cst_5 : f64 to f32
      %155 = arith.mulf %in, %154 : f32
      linalg.yield %155 : f32
    } -> tensor<?x4x?x32xf32>
    %5 = arith.cmpi sge, %0, %c0_i64 : i64
    cf.assert %5, "negative values not allowed in new dimensions"
    %6 = arith.cmpi sge, %2, %c0_i64 : i64
    cf.assert %6, "negative values not allowed in new dimensions"
    %7 = tensor.empty(%dim, %dim_7) : tensor<?x?xi1>
    %8 = linalg.generic {indexing_maps = [#map1, #map2], iterator_types = ["parallel", "parallel"]} ins(%cst_3 : tensor<i1>) outs(%7 : tensor<?x?xi1>) {
    ^bb0(%in: i1, %out: i1):
      linalg.yield %in : i1
    } -> tensor<?x?xi1>
    %9 = tensor.empty(%dim_7) : tensor<?xi64>
    %10 = linalg.generic {indexing_maps = [#map3], iterator_types = ["parallel"]} outs(%9 : tensor<?xi64>) {
    ^bb0(%out: i64):
      %154 = linalg.index 0 : index
      %155 = arith.index_cast %154 : index to i64
      linalg.yield %155 : i64
    } -> tensor<?xi64>
    %expanded = tensor.expand_shape %10 [[0, 1]] output_shape [1, %dim_7] : tensor<?xi64> into tensor<1x?xi64>
    %11 = tensor.empty(%dim) : tensor<?xi64>
    %12 = linalg.generic {indexing_maps = [#map3], iterator_types = ["parallel"]} outs(%11 : tensor<?xi64>) {
    ^bb0(%out: i64):
      %154 = linalg.index 0 : index
      %155 = arith.index_cast %154 : index to i64
      linalg.yield %155 : i64
    } -> tensor<?xi64>
    %expanded_9 = tensor.expand_shape %12 [[0, 1]] output_shape [%dim, 1] : tensor<?xi64> into tensor<?x1xi64>
    %13 = tensor.empty(%dim, %dim_7) : tensor<?x?xi64>
    %14 = linalg.generic {indexing_maps = [#map4, #map5, #map2], iterator_types = ["parallel", "parallel"]} ins(%expanded, %expanded_9 : tensor<1x?xi64>, tensor<?x1xi64>) outs(%13 : tensor<?x?xi64>) {
    ^bb0(%in: i64, %in_23: i64, %out: i64):
      %154 = arith.subi %in, %in_23 : i64
      linalg.yield %154 : i64
    } -> tensor<?x?xi64>
    %15 = tensor.empty(%dim, %dim_7) : tensor<?x?xi1>
    %16 = linalg.generic {indexing_maps = [#map2, #map2], iterator_types = ["parallel", "parallel"]} ins(%14 : tensor<?x?xi64>) outs(%15 : tensor<?x?xi1>) {
    ^bb0(%in: i64, %out: i1):
      %154 = arith.cmpi sle, %in, %c0_i64 : i64
      linalg.yield %154 : i1
    } -> tensor<?x?xi1>
    cf.assert %true, "mismatched size for broadcast"
    cf.assert %true, "mismatched size for broadcast"
    %17 = linalg.generic {indexing_maps = [#map2, #map2, #map2], iterator_types = ["parallel", "parallel"]} ins(%16, %8 : tensor<?x?xi1>, tensor<?x?xi1>) outs(%15 : tensor<?x?xi1>) {
    ^bb0(%in: i1, %in_23: i1, %out: i1):
      %154 = arith.andi %in, %in_23 : i1
      linalg.yield %154 : i1
    } -> tensor<?x?xi1>
    %18 = tensor.empty(%dim, %dim_7) : tensor<?x?xf32>
    %19 = linalg.generic {indexing_maps = [#map2, #map1, #map1, #map2], iterator_types = ["parallel", "parallel"]} ins(%17, %cst_1, %cst_2 : tensor<?x?xi1>, tensor<f32>, tensor<f32>) outs(%18 : tensor<?x?xf32>) {
    ^bb0(%in: i1, %in_23: f32, %in_24: f32, %out: f32):
      %154 = arith.select %in, %in_23, %in_24 : f32
      linalg.yield %154 : f32
    } -> tensor<?x?xf32>
    %dim_10 = tensor.dim %arg1, %c0 : tensor<?x4x?x32xf32>
    %dim_11 = tensor.dim %arg1, %c2 : tensor<?x4x?x32xf32>
    %20 = tensor.empty(%dim_10, %dim_11) : tensor<?x4x32x?xf32>
    %transposed = linalg.transpose ins(%arg1 : tensor<?x4x?x32xf32>) outs(%20 : tensor<?x4x32x?xf32>) permutation = [0, 1, 3, 2] 
    %21 = linalg.generic {indexing_maps = [#map, #map], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%transposed : tensor<?x4x32x?xf32>) outs(%20 : tensor<?x4x32x?xf32>) {
    ^bb0(%in: f32, %out: f32):
      %154 = arith.truncf %cst_5 : f64 to f32
      %155 = arith.mulf %in, %154 : f32
      linalg.yield %155 : f32
    } -> tensor<?x4x32x?xf32>
    %22 = arith.muli %1, %c4_i64 : i64
    %23 = arith.cmpi sge, %1, %c0_i64 : i64
    cf.assert %23, "unimplemented: dynamic negative broadcast sizes"
    %24 = arith.cmpi sge, %0, %c0_i64 : i64
    cf.assert %24, "unimplemented: dynamic negative broadcast sizes"
    %25 = tensor.empty(%dim_6, %dim) : tensor<?x4x?x32xf32>
    %26 = linalg.generic {indexing_maps = [#map], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} outs(%25 : tensor<?x4x?x32xf32>) {
    ^bb0(%out: f32):
      %154 = linalg.index 0 : index
      %155 = linalg.index 1 : index
      %156 = linalg.index 2 : index
      %157 = linalg.index 3 : index
      %158 = arith.cmpi eq, %dim_8, %c1 : index
      %159 = arith.select %158, %c0, %154 : index
      %160 = arith.cmpi eq, %dim, %c1 : index
      %161 = arith.select %160, %c0, %156 : index
      %extracted = tensor.extract %4[%159, %155, %161, %157] : tensor<?x4x?x32xf32>
      linalg.yield %extracted : f32
    } -> tensor<?x4x?x32xf32>
    %27 = arith.cmpi slt, %22, %c0_i64 : i64
    %28 = arith.select %27, %c1_i64, %22 : i64
    %29 = arith.extui %27 : i1 to i64
    %30 = arith.muli %28, %0 : i64
    %31 = arith.addi %29, %c1_i64 : i64
    %32 = arith.cmpi slt, %0, %c0_i64 : i64
    %33 = arith.select %32, %28, %30 : i64
    %34 = arith.select %32, %31, %29 : i64
    %35 = arith.muli %33, %c32_i64 : i64
    %36 = arith.cmpi sle, %34, %c1_i64 : i64
    cf.assert %36, "must have at most one inferred (negative) dimension"
    %37 = arith.muli %22, %0 : i64
    %38 = arith.muli %37, %c32_i64 : i64
    %39 = arith.divsi %38, %35 : i64
    %40 = arith.select %27, %39, %22 : i64
    %41 = arith.select %32, %39, %0 : i64
    %from_elements = tensor.from_elements %40, %41, %c32_i64 : tensor<3xi64>
    %reshape = tensor.reshape %26(%from_elements) : (tensor<?x4x?x32xf32>, tensor<3xi64>) -> tensor<?x?x32xf32>
    cf.assert %23, "unimplemented: dynamic negative broadcast sizes"
    %42 = arith.cmpi sge, %2, %c0_i64 : i64
    cf.assert %42, "unimplemented: dynamic negative broadcast sizes"
    %43 = tensor.empty(%dim_6, %dim_7) : tensor<?x4x32x?xf32>
    %44 = linalg.generic {indexing_maps = [#map], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} outs(%43 : tensor<?x4x32x?xf32>) {
    ^bb0(%out: f32):
      %154 = linalg.index 0 : index
      %155 = linalg.index 1 : index
      %156 = linalg.index 2 : index
      %157 = linalg.index 3 : index
      %158 = arith.cmpi eq, %dim_10, %c1 : index
      %159 = arith.select %158, %c0, %154 : index
      %160 = arith.cmpi eq, %dim_11, %c1 : index
      %161 = arith.select %160, %c0, %157 : index
      %extracted = tensor.extract %21[%159, %155, %156, %161] : tensor<?x4x32x?xf32>
      linalg.yield %extracted : f32
    } -> tensor<?x4x32x?xf32>
    %45 = arith.muli %28, %c32_i64 : i64
    %46 = arith.muli %45, %2 : i64
    %47 = arith.cmpi slt, %2, %c0_i64 : i64
    %48 = arith.select %47, %45, %46 : i64
    %49 = arith.select %47, %31, %29 : i64
    %50 = arith.cmpi sle, %49, %c1_i64 : i64
    cf.assert %50, "must have at most one inferred (negative) dimension"
    %51 = arith.muli %1, %c128_i64 : i64
    %52 = arith.muli %51, %2 : i64
    %53 = arith.divsi %52, %48 : i64
    %54 = arith.select %27, %53, %22 : i64
    %55 = arith.select %47, %53, %2 : i64
    %from_elements_12 = tensor.from_elements %54, %c32_i64, %55 : tensor<3xi64>
    %reshape_13 = tensor.reshape %44(%from_elements_12) : (tensor<?x4x32x?xf32>, tensor<3xi64>) -> tensor<?x32x?xf32>
    %56 = arith.index_cast %40 : i64 to index
    %57 = arith.index_cast %41 : i64 to index
    %58 = arith.index_cast %55 : i64 to index
    %59 = arith.cmpi eq, %40, %54 : i64
    cf.assert %59, "mismatching contracting dimension"
    %60 = tensor.empty(%56, %57, %58) : tensor<?x?x?xf32>
    %61 = linalg.fill ins(%cst : f32) outs(%60 : tensor<?x?x?xf32>) -> tensor<?x?x?xf32>
    %62 = linalg.batch_matmul ins(%reshape, %reshape_13 : tensor<?x?x32xf32>, tensor<?x32x?xf32>) outs(%61 : tensor<?x?x?xf32>) -> tensor<?x?x?xf32>
    %63 = arith.cmpi slt, %1, %c0_i64 : i64
    %64 = arith.select %63, %c1_i64, %1 : i64
    %65 = arith.extui %63 : i1 to i64
    %66 = arith.muli %64, %c4_i64 : i64
    %67 = arith.muli %66, %0 : i64
    %68 = arith.addi %65, %c1_i64 : i64
    %69 = arith.select %32, %66, %67 : i64
    %70 = arith.select %32, %68, %65 : i64
    %71 = arith.muli %69, %2 : i64
    %72 = arith.addi %70, %c1_i64 : i64
    %73 = arith.select %47, %69, %71 : i64
    %74 = arith.select %47, %72, %70 : i64
    %75 = arith.cmpi sle, %74, %c1_i64 : i64
    cf.assert %75, "must have at most one inferred (negative) dimension"
    %76 = arith.muli %40, %41 : i64
    %77 = arith.muli %76, %55 : i64
    %78 = arith.divsi %77, %73 : i64
    %79 = arith.select %63, %78, %1 : i64
    %80 = arith.select %32, %78, %0 : i64
    %81 = arith.select %47, %78, %2 : i64
    %from_elements_14 = tensor.from_elements %79, %c4_i64, %80, %81 : tensor<4xi64>
    %reshape_15 = tensor.reshape %62(%from_elements_14) : (tensor<?x?x?xf32>, tensor<4xi64>) -> tensor<?x4x?x?xf32>
    %82 = arith.index_cast %79 : i64 to index
    %83 = arith.index_cast %80 : i64 to index
    %84 = arith.index_cast %81 : i64 to index
    %85 = arith.cmpi eq, %83, %dim : index
    cf.assert %85, "mismatched size for broadcast"
    %86 = arith.cmpi eq, %84, %dim_7 : index
    cf.assert %86, "mismatched size for broadcast"
    %87 = tensor.empty(%82, %83, %84) : tensor<?x4x?x?xf32>
    %88 = linalg.generic {indexing_maps = [#map, #map6, #map], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%reshape_15, %19 : tensor<?x4x?x?xf32>, tensor<?x?xf32>) outs(%87 : tensor<?x4x?x?xf32>) {
    ^bb0(%in: f32, %in_23: f32, %out: f32):
      %154 = arith.addf %in, %in_23 : f32
      linalg.yield %154 : f32
    } -> tensor<?x4x?x?xf32>
    %89 = tensor.empty(%82, %83) : tensor<?x4x?xi64>
    %90 = linalg.fill ins(%c0_i64 : i64) outs(%89 : tensor<?x4x?xi64>) -> tensor<?x4x?xi64>
    %91 = tensor.empty(%82, %83) : tensor<?x4x?xf32>
    %92 = linalg.fill ins(%cst_0 : f32) outs(%91 : tensor<?x4x?xf32>) -> tensor<?x4x?xf32>
    %93:2 = linalg.generic {indexing_maps = [#map, #map7, #map7], iterator_types = ["parallel", "parallel", "parallel", "reduction"]} ins(%88 : tensor<?x4x?x?xf32>) outs(%92, %90 : tensor<?x4x?xf32>, tensor<?x4x?xi64>) {
    ^bb0(%in: f32, %out: f32, %out_23: i64):
      %154 = linalg.index 3 : index
      %155 = arith.index_cast %154 : index to i64
      %156 = arith.maximumf %in, %out : f32
      %157 = arith.cmpf ogt, %in, %out : f32
      %158 = arith.select %157, %155, %out_23 : i64
      linalg.yield %156, %158 : f32, i64
    } -> (tensor<?x4x?xf32>, tensor<?x4x?xi64>)
    %expanded_16 = tensor.expand_shape %93#0 [[0], [1], [2, 3]] output_shape [%82, 4, %83, 1] : tensor<?x4x?xf32> into tensor<?x4x?x1xf32>
    %94 = linalg.generic {indexing_maps = [#map, #map8, #map], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%88, %expanded_16 : tensor<?x4x?x?xf32>, tensor<?x4x?x1xf32>) outs(%87 : tensor<?x4x?x?xf32>) {
    ^bb0(%in: f32, %in_23: f32, %out: f32):
      %154 = arith.subf %in, %in_23 : f32
      linalg.yield %154 : f32
    } -> tensor<?x4x?x?xf32>
    %95 = linalg.generic {indexing_maps = [#map, #map], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%94 : tensor<?x4x?x?xf32>) outs(%87 : tensor<?x4x?x?xf32>) {
    ^bb0(%in: f32, %out: f32):
      %154 = math.exp %in : f32
      linalg.yield %154 : f32
    } -> tensor<?x4x?x?xf32>
    %96 = tensor.empty(%82, %83) : tensor<?x4x?x1xf32>
    %97 = linalg.fill ins(%cst : f32) outs(%96 : tensor<?x4x?x1xf32>) -> tensor<?x4x?x1xf32>
    %98 = linalg.generic {indexing_maps = [#map, #map8], iterator_types = ["parallel", "parallel", "parallel", "reduction"]} ins(%95 : tensor<?x4x?x?xf32>) outs(%97 : tensor<?x4x?x1xf32>) {
    ^bb0(%in: f32, %out: f32):
      %154 = arith.addf %in, %out : f32
      linalg.yield %154 : f32
    } -> tensor<?x4x?x1xf32>
    %99 = linalg.generic {indexing_maps = [#map, #map8, #map], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%95, %98 : tensor<?x4x?x?xf32>, tensor<?x4x?x1xf32>) outs(%87 : tensor<?x4x?x?xf32>) {
    ^bb0(%in: f32, %in_23: f32, %out: f32):
      %154 = arith.divf %in, %in_23 : f32
      linalg.yield %154 : f32
    } -> tensor<?x4x?x?xf32>
    %100 = tensor.empty(%82, %83, %84) : tensor<?x4x?x?xi1>
    %101 = linalg.generic {indexing_maps = [#map, #map], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%88 : tensor<?x4x?x?xf32>) outs(%100 : tensor<?x4x?x?xi1>) {
    ^bb0(%in: f32, %out: i1):
      %154 = arith.extf %in : f32 to f64
      %155 = arith.cmpf oeq, %154, %cst_4 : f64
      linalg.yield %155 : i1
    } -> tensor<?x4x?x?xi1>
    %102 = tensor.empty(%82, %83) : tensor<?x4x?x1xi1>
    %103 = linalg.fill ins(%true : i1) outs(%102 : tensor<?x4x?x1xi1>) -> tensor<?x4x?x1xi1>
    %104 = linalg.generic {indexing_maps = [#map, #map8], iterator_types = ["parallel", "parallel", "parallel", "reduction"]} ins(%101 : tensor<?x4x?x?xi1>) outs(%103 : tensor<?x4x?x1xi1>) {
    ^bb0(%in: i1, %out: i1):
      %154 = arith.andi %in, %out : i1
      linalg.yield %154 : i1
    } -> tensor<?x4x?x1xi1>
    %105 = arith.cmpi sge, %79, %c0_i64 : i64
    cf.assert %105, "negative values not allowed in new dimensions"
    %106 = arith.index_cast %79 : i64 to index
    %107 = arith.cmpi sge, %80, %c0_i64 : i64
    cf.assert %107, "negative values not allowed in new dimensions"
    %108 = arith.index_cast %80 : i64 to index
    %109 = arith.cmpi sge, %81, %c0_i64 : i64
    cf.assert %109, "negative values not allowed in new dimensions"
    %110 = arith.index_cast %81 : i64 to index
    %111 = tensor.empty(%106, %108, %110) : tensor<?x4x?x?xf32>
    %112 = linalg.generic {indexing_maps = [#map9, #map], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%cst_1 : tensor<f32>) outs(%111 : tensor<?x4x?x?xf32>) {
    ^bb0(%in: f32, %out: f32):
      linalg.yield %in : f32
    } -> tensor<?x4x?x?xf32>
    %113 = arith.cmpi eq, %82, %106 : index
    cf.assert %113, "mismatched size for broadcast"
    %114 = arith.cmpi eq, %83, %108 : index
    cf.assert %114, "mismatched size for broadcast"
    %115 = arith.cmpi eq, %110, %84 : index
    cf.assert %115, "mismatched size for broadcast"
    %116 = tensor.empty(%82, %83, %110) : tensor<?x4x?x?xf32>
    %117 = linalg.generic {indexing_maps = [#map8, #map, #map, #map], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%104, %112, %99 : tensor<?x4x?x1xi1>, tensor<?x4x?x?xf32>, tensor<?x4x?x?xf32>) outs(%116 : tensor<?x4x?x?xf32>) {
    ^bb0(%in: i1, %in_23: f32, %in_24: f32, %out: f32):
      %154 = arith.select %in, %in_23, %in_24 : f32
      linalg.yield %154 : f32
    } -> tensor<?x4x?x?xf32>
    cf.assert %23, "unimplemented: dynamic negative broadcast sizes"
    cf.assert %24, "unimplemented: dynamic negative broadcast sizes"
    cf.assert %42, "unimplemented: dynamic negative broadcast sizes"
    %118 = tensor.empty(%dim_6, %dim, %dim_7) : tensor<?x4x?x?xf32>
    %119 = linalg.generic {indexing_maps = [#map], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} outs(%118 : tensor<?x4x?x?xf32>) {
    ^bb0(%out: f32):
      %154 = linalg.index 0 : index
      %155 = linalg.index 1 : index
      %156 = linalg.index 2 : index
      %157 = linalg.index 3 : index
      %158 = arith.cmpi eq, %82, %c1 : index
      %159 = arith.select %158, %c0, %154 : index
      %160 = arith.cmpi eq, %83, %c1 : index
      %161 = arith.select %160, %c0, %156 : index
      %162 = arith.cmpi eq, %110, %c1 : index
      %163 = arith.select %162, %c0, %157 : index
      %extracted = tensor.extract %117[%159, %155, %161, %163] : tensor<?x4x?x?xf32>
      linalg.yield %extracted : f32
    } -> tensor<?x4x?x?xf32>
    %120 = arith.muli %33, %2 : i64
    %121 = arith.addi %34, %c1_i64 : i64
    %122 = arith.select %47, %33, %120 : i64
    %123 = arith.select %47, %121, %34 : i64
    %124 = arith.cmpi sle, %123, %c1_i64 : i64
    cf.assert %124, "must have at most one inferred (negative) dimension"
    %125 = arith.muli %37, %2 : i64
    %126 = arith.divsi %125, %122 : i64
    %127 = arith.select %27, %126, %22 : i64
    %128 = arith.select %32, %126, %0 : i64
    %129 = arith.select %47, %126, %2 : i64
    %from_elements_17 = tensor.from_elements %127, %128, %129 : tensor<3xi64>
    %reshape_18 = tensor.reshape %119(%from_elements_17) : (tensor<?x4x?x?xf32>, tensor<3xi64>) -> tensor<?x?x?xf32>
    cf.assert %23, "unimplemented: dynamic negative broadcast sizes"
    cf.assert %42, "unimplemented: dynamic negative broadcast sizes"
    %130 = tensor.empty(%dim_6, %dim_7) : tensor<?x4x?x32xf32>
    %131 = linalg.generic {indexing_maps = [#map], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} outs(%130 : tensor<?x4x?x32xf32>) {
    ^bb0(%out: f32):
      %154 = linalg.index 0 : index
      %155 = linalg.index 1 : index
      %156 = linalg.index 2 : index
      %157 = linalg.index 3 : index
      %158 = arith.cmpi eq, %dim_6, %c1 : index
      %159 = arith.select %158, %c0, %154 : index
      %160 = arith.cmpi eq, %dim_7, %c1 : index
      %161 = arith.select %160, %c0, %156 : index
      %extracted = tensor.extract %arg2[%159, %155, %161, %157] : tensor<?x4x?x32xf32>
      linalg.yield %extracted : f32
    } -> tensor<?x4x?x32xf32>
    %132 = arith.muli %28, %2 : i64
    %133 = arith.select %47, %28, %132 : i64
    %134 = arith.muli %133, %c32_i64 : i64
    cf.assert %50, "must have at most one inferred (negative) dimension"
    %135 = arith.muli %22, %2 : i64
    %136 = arith.muli %135, %c32_i64 : i64
    %137 = arith.divsi %136, %134 : i64
    %138 = arith.select %27, %137, %22 : i64
    %139 = arith.select %47, %137, %2 : i64
    %from_elements_19 = tensor.from_elements %138, %139, %c32_i64 : tensor<3xi64>
    %reshape_20 = tensor.reshape %131(%from_elements_19) : (tensor<?x4x?x32xf32>, tensor<3xi64>) -> tensor<?x?x32xf32>
    %140 = arith.index_cast %127 : i64 to index
    %141 = arith.index_cast %128 : i64 to index
    %142 = arith.cmpi eq, %127, %138 : i64
    cf.assert %142, "mismatching contracting dimension"
    %143 = arith.cmpi eq, %129, %139 : i64
    cf.assert %143, "mismatching contracting dimension"
    %144 = tensor.empty(%140, %141) : tensor<?x?x32xf32>
    %145 = linalg.fill ins(%cst : f32) outs(%144 : tensor<?x?x32xf32>) -> tensor<?x?x32xf32>
    %146 = linalg.batch_matmul ins(%reshape_18, %reshape_20 : tensor<?x?x?xf32>, tensor<?x?x32xf32>) outs(%145 : tensor<?x?x32xf32>) -> tensor<?x?x32xf32>
    %147 = arith.muli %69, %c32_i64 : i64
    %148 = arith.cmpi sle, %70, %c1_i64 : i64
    cf.assert %148, "must have at most one inferred (negative) dimension"
    %149 = arith.muli %127, %128 : i64
    %150 = arith.muli %149, %c32_i64 : i64
    %151 = arith.divsi %150, %147 : i64
    %152 = arith.select %63, %151, %1 : i64
    %153 = arith.select %32, %151, %0 : i64
    %from_elements_21 = tensor.from_elements %152, %c4_i64, %153, %c32_i64 : tensor<4xi64>
    %reshape_22 = tensor.reshape %146(%from_elements_21) : (tensor<?x?x32xf32>, tensor<4xi64>) -> tensor<?x4x?x32xf32>
    return %reshape_22 : tensor<?x4x?x32xf32>
  }
}
