// hf_additive_mask_dynamic (HfAdditiveMask), exported with a dynamic batch and
// lengths (torch.export Dims) by scripts/export_torch_mlir_cases.py (torch 2.15.0+cu132,
// torch_mlir.fx, output linalg-on-tensors). The raising runs on the dynamic
// function; the proof runs it at several sizes.
// RUN: attention-opt %s --attn-raise-pipeline | FileCheck %s
// RUN: attn-raise-check %s --require-raised --runs=1 --seed=57 '--shapes=2x4x16x32,2x4x24x32,2x4x24x32,2x24->2x4x16x32' '--shapes=1x4x1x32,1x4x7x32,1x4x7x32,1x7->1x4x1x32' '--shapes=3x4x33x32,3x4x1x32,3x4x1x32,3x1->3x4x33x32' '--shapes=2x4x5x32,2x4x70x32,2x4x70x32,2x70->2x4x5x32' | FileCheck %s --check-prefix=PROOF --implicit-check-not=FAIL
// CHECK: attn.attention {{.*}}mask({{.*}}) {scale = 0.17677{{[0-9]+}} : f32}
// PROOF: @hf_additive_mask_dynamic at {{.*}}: 1 attn.attention after the raising
// PROOF: run 0 result 0 {{.*}}: PASS
// PROOF: @hf_additive_mask_dynamic at {{.*}}: 1 attn.attention after the raising
// PROOF: run 0 result 0 {{.*}}: PASS
// PROOF: @hf_additive_mask_dynamic at {{.*}}: 1 attn.attention after the raising
// PROOF: run 0 result 0 {{.*}}: PASS
// PROOF: @hf_additive_mask_dynamic at {{.*}}: 1 attn.attention after the raising
// PROOF: run 0 result 0 {{.*}}: PASS
#map = affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>
#map1 = affine_map<(d0, d1, d2, d3) -> ()>
#map2 = affine_map<(d0, d1, d2, d3) -> (d0, 0, 0, d3)>
#map3 = affine_map<(d0, d1, d2, d3) -> (d0, d1, d2)>
#map4 = affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, 0)>
module {
  func.func @hf_additive_mask_dynamic(%arg0: tensor<?x4x?x32xf32>, %arg1: tensor<?x4x?x32xf32>, %arg2: tensor<?x4x?x32xf32>, %arg3: tensor<?x?xi64>) -> tensor<?x4x?x32xf32> {
    %c1_i64 = arith.constant 1 : i64
    %c0_i64 = arith.constant 0 : i64
    %c4_i64 = arith.constant 4 : i64
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c2 = arith.constant 2 : index
    %c32_i64 = arith.constant 32 : i64
    %cst = arith.constant 0.000000e+00 : f32
    %cst_0 = arith.constant 0xFF800000 : f32
    %cst_1 = arith.constant dense<1.000000e+00> : tensor<f32>
    %cst_2 = arith.constant 5.6568542494923806 : f64
    %cst_3 = arith.constant -3.40282347E+38 : f32
    %c128_i64 = arith.constant 128 : i64
    %dim = tensor.dim %arg0, %c2 : tensor<?x4x?x32xf32>
    %0 = arith.index_cast %dim : index to i64
    %dim_4 = tensor.dim %arg2, %c0 : tensor<?x4x?x32xf32>
    %1 = arith.index_cast %dim_4 : index to i64
    %dim_5 = tensor.dim %arg2, %c2 : tensor<?x4x?x32xf32>
    %2 = arith.index_cast %dim_5 : index to i64
    %dim_6 = tensor.dim %arg3, %c0 : tensor<?x?xi64>
    %dim_7 = tensor.dim %arg3, %c1 : tensor<?x?xi64>
    %expanded = tensor.expand_shape %arg3 [[0], [1, 2, 3]] output_shape [%dim_6, 1, 1, %dim_7] : tensor<?x?xi64> into tensor<?x1x1x?xi64>
    %3 = tensor.empty(%dim_6, %dim_7) : tensor<?x1x1x?xf32>
    %4 = linalg.generic {indexing_maps = [#map, #map], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%expanded : tensor<?x1x1x?xi64>) outs(%3 : tensor<?x1x1x?xf32>) {
    ^bb0(%in: i64, %out: f32):
      %123 = arith.sitofp %in : i64 to f32
      linalg.yield %123 : f32
    } -> tensor<?x1x1x?xf32>
    %5 = linalg.generic {indexing_maps = [#map1, #map, #map], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%cst_1, %4 : tensor<f32>, tensor<?x1x1x?xf32>) outs(%3 : tensor<?x1x1x?xf32>) {
    ^bb0(%in: f32, %in_21: f32, %out: f32):
      %123 = arith.subf %in, %in_21 : f32
      linalg.yield %123 : f32
    } -> tensor<?x1x1x?xf32>
    %6 = linalg.generic {indexing_maps = [#map, #map], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%5 : tensor<?x1x1x?xf32>) outs(%3 : tensor<?x1x1x?xf32>) {
    ^bb0(%in: f32, %out: f32):
      %123 = arith.mulf %in, %cst_3 : f32
      linalg.yield %123 : f32
    } -> tensor<?x1x1x?xf32>
    %dim_8 = tensor.dim %arg1, %c0 : tensor<?x4x?x32xf32>
    %dim_9 = tensor.dim %arg1, %c2 : tensor<?x4x?x32xf32>
    %7 = tensor.empty(%dim_8, %dim_9) : tensor<?x4x32x?xf32>
    %transposed = linalg.transpose ins(%arg1 : tensor<?x4x?x32xf32>) outs(%7 : tensor<?x4x32x?xf32>) permutation = [0, 1, 3, 2] 
    %8 = arith.muli %1, %c4_i64 : i64
    %9 = arith.cmpi sge, %1, %c0_i64 : i64
    cf.assert %9, "unimplemented: dynamic negative broadcast sizes"
    %10 = arith.cmpi sge, %0, %c0_i64 : i64
    cf.assert %10, "unimplemented: dynamic negative broadcast sizes"
    %11 = tensor.empty(%dim_4, %dim) : tensor<?x4x?x32xf32>
    %12 = linalg.generic {indexing_maps = [#map], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} outs(%11 : tensor<?x4x?x32xf32>) {
    ^bb0(%out: f32):
      %123 = linalg.index 0 : index
      %124 = linalg.index 1 : index
      %125 = linalg.index 2 : index
      %126 = linalg.index 3 : index
      %dim_21 = tensor.dim %arg0, %c0 : tensor<?x4x?x32xf32>
      %127 = arith.cmpi eq, %dim_21, %c1 : index
      %128 = arith.select %127, %c0, %123 : index
      %129 = arith.cmpi eq, %dim, %c1 : index
      %130 = arith.select %129, %c0, %125 : index
      %extracted = tensor.extract %arg0[%128, %124, %130, %126] : tensor<?x4x?x32xf32>
      linalg.yield %extracted : f32
    } -> tensor<?x4x?x32xf32>
    %13 = arith.cmpi slt, %8, %c0_i64 : i64
    %14 = arith.select %13, %c1_i64, %8 : i64
    %15 = arith.extui %13 : i1 to i64
    %16 = arith.muli %14, %0 : i64
    %17 = arith.addi %15, %c1_i64 : i64
    %18 = arith.cmpi slt, %0, %c0_i64 : i64
    %19 = arith.select %18, %14, %16 : i64
    %20 = arith.select %18, %17, %15 : i64
    %21 = arith.muli %19, %c32_i64 : i64
    %22 = arith.cmpi sle, %20, %c1_i64 : i64
    cf.assert %22, "must have at most one inferred (negative) dimension"
    %23 = arith.muli %8, %0 : i64
    %24 = arith.muli %23, %c32_i64 : i64
    %25 = arith.divsi %24, %21 : i64
    %26 = arith.select %13, %25, %8 : i64
    %27 = arith.select %18, %25, %0 : i64
    %from_elements = tensor.from_elements %26, %27, %c32_i64 : tensor<3xi64>
    %reshape = tensor.reshape %12(%from_elements) : (tensor<?x4x?x32xf32>, tensor<3xi64>) -> tensor<?x?x32xf32>
    cf.assert %9, "unimplemented: dynamic negative broadcast sizes"
    %28 = arith.cmpi sge, %2, %c0_i64 : i64
    cf.assert %28, "unimplemented: dynamic negative broadcast sizes"
    %29 = tensor.empty(%dim_4, %dim_5) : tensor<?x4x32x?xf32>
    %30 = linalg.generic {indexing_maps = [#map], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} outs(%29 : tensor<?x4x32x?xf32>) {
    ^bb0(%out: f32):
      %123 = linalg.index 0 : index
      %124 = linalg.index 1 : index
      %125 = linalg.index 2 : index
      %126 = linalg.index 3 : index
      %127 = arith.cmpi eq, %dim_8, %c1 : index
      %128 = arith.select %127, %c0, %123 : index
      %129 = arith.cmpi eq, %dim_9, %c1 : index
      %130 = arith.select %129, %c0, %126 : index
      %extracted = tensor.extract %transposed[%128, %124, %125, %130] : tensor<?x4x32x?xf32>
      linalg.yield %extracted : f32
    } -> tensor<?x4x32x?xf32>
    %31 = arith.muli %14, %c32_i64 : i64
    %32 = arith.muli %31, %2 : i64
    %33 = arith.cmpi slt, %2, %c0_i64 : i64
    %34 = arith.select %33, %31, %32 : i64
    %35 = arith.select %33, %17, %15 : i64
    %36 = arith.cmpi sle, %35, %c1_i64 : i64
    cf.assert %36, "must have at most one inferred (negative) dimension"
    %37 = arith.muli %1, %c128_i64 : i64
    %38 = arith.muli %37, %2 : i64
    %39 = arith.divsi %38, %34 : i64
    %40 = arith.select %13, %39, %8 : i64
    %41 = arith.select %33, %39, %2 : i64
    %from_elements_10 = tensor.from_elements %40, %c32_i64, %41 : tensor<3xi64>
    %reshape_11 = tensor.reshape %30(%from_elements_10) : (tensor<?x4x32x?xf32>, tensor<3xi64>) -> tensor<?x32x?xf32>
    %42 = arith.index_cast %26 : i64 to index
    %43 = arith.index_cast %27 : i64 to index
    %44 = arith.index_cast %41 : i64 to index
    %45 = arith.cmpi eq, %26, %40 : i64
    cf.assert %45, "mismatching contracting dimension"
    %46 = tensor.empty(%42, %43, %44) : tensor<?x?x?xf32>
    %47 = linalg.fill ins(%cst : f32) outs(%46 : tensor<?x?x?xf32>) -> tensor<?x?x?xf32>
    %48 = linalg.batch_matmul ins(%reshape, %reshape_11 : tensor<?x?x32xf32>, tensor<?x32x?xf32>) outs(%47 : tensor<?x?x?xf32>) -> tensor<?x?x?xf32>
    %49 = arith.cmpi slt, %1, %c0_i64 : i64
    %50 = arith.select %49, %c1_i64, %1 : i64
    %51 = arith.extui %49 : i1 to i64
    %52 = arith.muli %50, %c4_i64 : i64
    %53 = arith.muli %52, %0 : i64
    %54 = arith.addi %51, %c1_i64 : i64
    %55 = arith.select %18, %52, %53 : i64
    %56 = arith.select %18, %54, %51 : i64
    %57 = arith.muli %55, %2 : i64
    %58 = arith.addi %56, %c1_i64 : i64
    %59 = arith.select %33, %55, %57 : i64
    %60 = arith.select %33, %58, %56 : i64
    %61 = arith.cmpi sle, %60, %c1_i64 : i64
    cf.assert %61, "must have at most one inferred (negative) dimension"
    %62 = arith.muli %26, %27 : i64
    %63 = arith.muli %62, %41 : i64
    %64 = arith.divsi %63, %59 : i64
    %65 = arith.select %49, %64, %1 : i64
    %66 = arith.select %18, %64, %0 : i64
    %67 = arith.select %33, %64, %2 : i64
    %from_elements_12 = tensor.from_elements %65, %c4_i64, %66, %67 : tensor<4xi64>
    %reshape_13 = tensor.reshape %48(%from_elements_12) : (tensor<?x?x?xf32>, tensor<4xi64>) -> tensor<?x4x?x?xf32>
    %68 = arith.index_cast %65 : i64 to index
    %69 = arith.index_cast %66 : i64 to index
    %70 = arith.index_cast %67 : i64 to index
    %71 = tensor.empty(%68, %69, %70) : tensor<?x4x?x?xf32>
    %72 = linalg.generic {indexing_maps = [#map, #map], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%reshape_13 : tensor<?x4x?x?xf32>) outs(%71 : tensor<?x4x?x?xf32>) {
    ^bb0(%in: f32, %out: f32):
      %123 = arith.truncf %cst_2 : f64 to f32
      %124 = arith.divf %in, %123 : f32
      linalg.yield %124 : f32
    } -> tensor<?x4x?x?xf32>
    %73 = arith.cmpi eq, %68, %dim_6 : index
    cf.assert %73, "mismatched size for broadcast"
    %74 = arith.cmpi eq, %70, %dim_7 : index
    cf.assert %74, "mismatched size for broadcast"
    %75 = linalg.generic {indexing_maps = [#map, #map2, #map], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%72, %6 : tensor<?x4x?x?xf32>, tensor<?x1x1x?xf32>) outs(%71 : tensor<?x4x?x?xf32>) {
    ^bb0(%in: f32, %in_21: f32, %out: f32):
      %123 = arith.addf %in, %in_21 : f32
      linalg.yield %123 : f32
    } -> tensor<?x4x?x?xf32>
    %76 = tensor.empty(%68, %69) : tensor<?x4x?xi64>
    %77 = linalg.fill ins(%c0_i64 : i64) outs(%76 : tensor<?x4x?xi64>) -> tensor<?x4x?xi64>
    %78 = tensor.empty(%68, %69) : tensor<?x4x?xf32>
    %79 = linalg.fill ins(%cst_0 : f32) outs(%78 : tensor<?x4x?xf32>) -> tensor<?x4x?xf32>
    %80:2 = linalg.generic {indexing_maps = [#map, #map3, #map3], iterator_types = ["parallel", "parallel", "parallel", "reduction"]} ins(%75 : tensor<?x4x?x?xf32>) outs(%79, %77 : tensor<?x4x?xf32>, tensor<?x4x?xi64>) {
    ^bb0(%in: f32, %out: f32, %out_21: i64):
      %123 = linalg.index 3 : index
      %124 = arith.index_cast %123 : index to i64
      %125 = arith.maximumf %in, %out : f32
      %126 = arith.cmpf ogt, %in, %out : f32
      %127 = arith.select %126, %124, %out_21 : i64
      linalg.yield %125, %127 : f32, i64
    } -> (tensor<?x4x?xf32>, tensor<?x4x?xi64>)
    %expanded_14 = tensor.expand_shape %80#0 [[0], [1], [2, 3]] output_shape [%68, 4, %69, 1] : tensor<?x4x?xf32> into tensor<?x4x?x1xf32>
    %81 = linalg.generic {indexing_maps = [#map, #map4, #map], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%75, %expanded_14 : tensor<?x4x?x?xf32>, tensor<?x4x?x1xf32>) outs(%71 : tensor<?x4x?x?xf32>) {
    ^bb0(%in: f32, %in_21: f32, %out: f32):
      %123 = arith.subf %in, %in_21 : f32
      linalg.yield %123 : f32
    } -> tensor<?x4x?x?xf32>
    %82 = linalg.generic {indexing_maps = [#map, #map], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%81 : tensor<?x4x?x?xf32>) outs(%71 : tensor<?x4x?x?xf32>) {
    ^bb0(%in: f32, %out: f32):
      %123 = math.exp %in : f32
      linalg.yield %123 : f32
    } -> tensor<?x4x?x?xf32>
    %83 = tensor.empty(%68, %69) : tensor<?x4x?x1xf32>
    %84 = linalg.fill ins(%cst : f32) outs(%83 : tensor<?x4x?x1xf32>) -> tensor<?x4x?x1xf32>
    %85 = linalg.generic {indexing_maps = [#map, #map4], iterator_types = ["parallel", "parallel", "parallel", "reduction"]} ins(%82 : tensor<?x4x?x?xf32>) outs(%84 : tensor<?x4x?x1xf32>) {
    ^bb0(%in: f32, %out: f32):
      %123 = arith.addf %in, %out : f32
      linalg.yield %123 : f32
    } -> tensor<?x4x?x1xf32>
    %86 = linalg.generic {indexing_maps = [#map, #map4, #map], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%82, %85 : tensor<?x4x?x?xf32>, tensor<?x4x?x1xf32>) outs(%71 : tensor<?x4x?x?xf32>) {
    ^bb0(%in: f32, %in_21: f32, %out: f32):
      %123 = arith.divf %in, %in_21 : f32
      linalg.yield %123 : f32
    } -> tensor<?x4x?x?xf32>
    cf.assert %9, "unimplemented: dynamic negative broadcast sizes"
    cf.assert %10, "unimplemented: dynamic negative broadcast sizes"
    cf.assert %28, "unimplemented: dynamic negative broadcast sizes"
    %87 = tensor.empty(%dim_4, %dim, %dim_5) : tensor<?x4x?x?xf32>
    %88 = linalg.generic {indexing_maps = [#map], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} outs(%87 : tensor<?x4x?x?xf32>) {
    ^bb0(%out: f32):
      %123 = linalg.index 0 : index
      %124 = linalg.index 1 : index
      %125 = linalg.index 2 : index
      %126 = linalg.index 3 : index
      %127 = arith.cmpi eq, %68, %c1 : index
      %128 = arith.select %127, %c0, %123 : index
      %129 = arith.cmpi eq, %69, %c1 : index
      %130 = arith.select %129, %c0, %125 : index
      %131 = arith.cmpi eq, %70, %c1 : index
      %132 = arith.select %131, %c0, %126 : index
      %extracted = tensor.extract %86[%128, %124, %130, %132] : tensor<?x4x?x?xf32>
      linalg.yield %extracted : f32
    } -> tensor<?x4x?x?xf32>
    %89 = arith.muli %19, %2 : i64
    %90 = arith.addi %20, %c1_i64 : i64
    %91 = arith.select %33, %19, %89 : i64
    %92 = arith.select %33, %90, %20 : i64
    %93 = arith.cmpi sle, %92, %c1_i64 : i64
    cf.assert %93, "must have at most one inferred (negative) dimension"
    %94 = arith.muli %23, %2 : i64
    %95 = arith.divsi %94, %91 : i64
    %96 = arith.select %13, %95, %8 : i64
    %97 = arith.select %18, %95, %0 : i64
    %98 = arith.select %33, %95, %2 : i64
    %from_elements_15 = tensor.from_elements %96, %97, %98 : tensor<3xi64>
    %reshape_16 = tensor.reshape %88(%from_elements_15) : (tensor<?x4x?x?xf32>, tensor<3xi64>) -> tensor<?x?x?xf32>
    cf.assert %9, "unimplemented: dynamic negative broadcast sizes"
    cf.assert %28, "unimplemented: dynamic negative broadcast sizes"
    %99 = tensor.empty(%dim_4, %dim_5) : tensor<?x4x?x32xf32>
    %100 = linalg.generic {indexing_maps = [#map], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} outs(%99 : tensor<?x4x?x32xf32>) {
    ^bb0(%out: f32):
      %123 = linalg.index 0 : index
      %124 = linalg.index 1 : index
      %125 = linalg.index 2 : index
      %126 = linalg.index 3 : index
      %127 = arith.cmpi eq, %dim_4, %c1 : index
      %128 = arith.select %127, %c0, %123 : index
      %129 = arith.cmpi eq, %dim_5, %c1 : index
      %130 = arith.select %129, %c0, %125 : index
      %extracted = tensor.extract %arg2[%128, %124, %130, %126] : tensor<?x4x?x32xf32>
      linalg.yield %extracted : f32
    } -> tensor<?x4x?x32xf32>
    %101 = arith.muli %14, %2 : i64
    %102 = arith.select %33, %14, %101 : i64
    %103 = arith.muli %102, %c32_i64 : i64
    cf.assert %36, "must have at most one inferred (negative) dimension"
    %104 = arith.muli %8, %2 : i64
    %105 = arith.muli %104, %c32_i64 : i64
    %106 = arith.divsi %105, %103 : i64
    %107 = arith.select %13, %106, %8 : i64
    %108 = arith.select %33, %106, %2 : i64
    %from_elements_17 = tensor.from_elements %107, %108, %c32_i64 : tensor<3xi64>
    %reshape_18 = tensor.reshape %100(%from_elements_17) : (tensor<?x4x?x32xf32>, tensor<3xi64>) -> tensor<?x?x32xf32>
    %109 = arith.index_cast %96 : i64 to index
    %110 = arith.index_cast %97 : i64 to index
    %111 = arith.cmpi eq, %96, %107 : i64
    cf.assert %111, "mismatching contracting dimension"
    %112 = arith.cmpi eq, %98, %108 : i64
    cf.assert %112, "mismatching contracting dimension"
    %113 = tensor.empty(%109, %110) : tensor<?x?x32xf32>
    %114 = linalg.fill ins(%cst : f32) outs(%113 : tensor<?x?x32xf32>) -> tensor<?x?x32xf32>
    %115 = linalg.batch_matmul ins(%reshape_16, %reshape_18 : tensor<?x?x?xf32>, tensor<?x?x32xf32>) outs(%114 : tensor<?x?x32xf32>) -> tensor<?x?x32xf32>
    %116 = arith.muli %55, %c32_i64 : i64
    %117 = arith.cmpi sle, %56, %c1_i64 : i64
    cf.assert %117, "must have at most one inferred (negative) dimension"
    %118 = arith.muli %96, %97 : i64
    %119 = arith.muli %118, %c32_i64 : i64
    %120 = arith.divsi %119, %116 : i64
    %121 = arith.select %49, %120, %1 : i64
    %122 = arith.select %18, %120, %0 : i64
    %from_elements_19 = tensor.from_elements %121, %c4_i64, %122, %c32_i64 : tensor<4xi64>
    %reshape_20 = tensor.reshape %115(%from_elements_19) : (tensor<?x?x32xf32>, tensor<4xi64>) -> tensor<?x4x?x32xf32>
    return %reshape_20 : tensor<?x4x?x32xf32>
  }
}
