// sliding_window_dynamic (SlidingWindow), exported with a dynamic batch and
// lengths (torch.export Dims) by scripts/export_torch_mlir_cases.py (torch 2.15.0+cu132,
// torch_mlir.fx, output linalg-on-tensors). The raising runs on the dynamic
// function; the proof runs it at several sizes.
// RUN: attention-opt %s --attn-raise-pipeline | FileCheck %s
// RUN: attn-raise-check %s --require-raised --runs=1 --seed=47 '--shapes=2x4x16x32,2x4x16x32,2x4x16x32->2x4x16x32' '--shapes=1x4x1x32,1x4x1x32,1x4x1x32->1x4x1x32' '--shapes=3x4x33x32,3x4x33x32,3x4x33x32->3x4x33x32' '--shapes=2x4x5x32,2x4x5x32,2x4x5x32->2x4x5x32' | FileCheck %s --check-prefix=PROOF --implicit-check-not=FAIL
// CHECK: attn.attention {{.*}}{causal = #attn.causal<top_left>, scale = 0.17677{{[0-9]+}} : f32, window = array<i64: 3, -1>}
// CHECK-NOT: linalg.
// PROOF: @sliding_window_dynamic at {{.*}}: 1 attn.attention after the raising
// PROOF: run 0 result 0 {{.*}}: PASS
// PROOF: @sliding_window_dynamic at {{.*}}: 1 attn.attention after the raising
// PROOF: run 0 result 0 {{.*}}: PASS
// PROOF: @sliding_window_dynamic at {{.*}}: 1 attn.attention after the raising
// PROOF: run 0 result 0 {{.*}}: PASS
// PROOF: @sliding_window_dynamic at {{.*}}: 1 attn.attention after the raising
// PROOF: run 0 result 0 {{.*}}: PASS
#map = affine_map<(d0) -> (d0)>
#map1 = affine_map<(d0, d1) -> (0, d1)>
#map2 = affine_map<(d0, d1) -> (d0, 0)>
#map3 = affine_map<(d0, d1) -> (d0, d1)>
#map4 = affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>
#map5 = affine_map<(d0, d1, d2, d3) -> (d2, d3)>
#map6 = affine_map<(d0, d1, d2, d3) -> ()>
#map7 = affine_map<(d0, d1, d2, d3) -> (d0, d1, d2)>
#map8 = affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, 0)>
module {
  func.func @sliding_window_dynamic(%arg0: tensor<?x4x?x32xf32>, %arg1: tensor<?x4x?x32xf32>, %arg2: tensor<?x4x?x32xf32>) -> tensor<?x4x?x32xf32> {
    %c4_i64 = arith.constant 4 : i64
    %c1_i64 = arith.constant 1 : i64
    %c0_i64 = arith.constant 0 : i64
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c2 = arith.constant 2 : index
    %c32_i64 = arith.constant 32 : i64
    %cst = arith.constant 0.000000e+00 : f32
    %true = arith.constant true
    %cst_0 = arith.constant 0xFF800000 : f32
    %cst_1 = arith.constant dense<0xFF800000> : tensor<f32>
    %cst_2 = arith.constant 5.6568542494923806 : f64
    %c128_i64 = arith.constant 128 : i64
    %dim = tensor.dim %arg0, %c2 : tensor<?x4x?x32xf32>
    %0 = arith.index_cast %dim : index to i64
    %dim_3 = tensor.dim %arg2, %c0 : tensor<?x4x?x32xf32>
    %1 = arith.index_cast %dim_3 : index to i64
    %2 = tensor.empty(%dim) : tensor<?xi64>
    %3 = linalg.generic {indexing_maps = [#map], iterator_types = ["parallel"]} outs(%2 : tensor<?xi64>) {
    ^bb0(%out: i64):
      %111 = linalg.index 0 : index
      %112 = arith.index_cast %111 : index to i64
      linalg.yield %112 : i64
    } -> tensor<?xi64>
    %expanded = tensor.expand_shape %3 [[0, 1]] output_shape [%dim, 1] : tensor<?xi64> into tensor<?x1xi64>
    %expanded_4 = tensor.expand_shape %3 [[0, 1]] output_shape [1, %dim] : tensor<?xi64> into tensor<1x?xi64>
    %4 = tensor.empty(%dim, %dim) : tensor<?x?xi1>
    %5 = linalg.generic {indexing_maps = [#map1, #map2, #map3], iterator_types = ["parallel", "parallel"]} ins(%expanded_4, %expanded : tensor<1x?xi64>, tensor<?x1xi64>) outs(%4 : tensor<?x?xi1>) {
    ^bb0(%in: i64, %in_17: i64, %out: i1):
      %111 = arith.cmpi sle, %in, %in_17 : i64
      linalg.yield %111 : i1
    } -> tensor<?x?xi1>
    %6 = tensor.empty(%dim) : tensor<?x1xi64>
    %7 = linalg.generic {indexing_maps = [#map3, #map3], iterator_types = ["parallel", "parallel"]} ins(%expanded : tensor<?x1xi64>) outs(%6 : tensor<?x1xi64>) {
    ^bb0(%in: i64, %out: i64):
      %111 = arith.subi %in, %c4_i64 : i64
      linalg.yield %111 : i64
    } -> tensor<?x1xi64>
    %8 = linalg.generic {indexing_maps = [#map1, #map2, #map3], iterator_types = ["parallel", "parallel"]} ins(%expanded_4, %7 : tensor<1x?xi64>, tensor<?x1xi64>) outs(%4 : tensor<?x?xi1>) {
    ^bb0(%in: i64, %in_17: i64, %out: i1):
      %111 = arith.cmpi sgt, %in, %in_17 : i64
      linalg.yield %111 : i1
    } -> tensor<?x?xi1>
    %9 = linalg.generic {indexing_maps = [#map3, #map3, #map3], iterator_types = ["parallel", "parallel"]} ins(%5, %8 : tensor<?x?xi1>, tensor<?x?xi1>) outs(%4 : tensor<?x?xi1>) {
    ^bb0(%in: i1, %in_17: i1, %out: i1):
      %111 = arith.andi %in, %in_17 : i1
      linalg.yield %111 : i1
    } -> tensor<?x?xi1>
    %dim_5 = tensor.dim %arg1, %c0 : tensor<?x4x?x32xf32>
    %dim_6 = tensor.dim %arg1, %c2 : tensor<?x4x?x32xf32>
    %10 = tensor.empty(%dim_5, %dim_6) : tensor<?x4x32x?xf32>
    %transposed = linalg.transpose ins(%arg1 : tensor<?x4x?x32xf32>) outs(%10 : tensor<?x4x32x?xf32>) permutation = [0, 1, 3, 2] 
    %11 = arith.muli %1, %c4_i64 : i64
    %12 = arith.cmpi sge, %1, %c0_i64 : i64
    cf.assert %12, "unimplemented: dynamic negative broadcast sizes"
    %13 = arith.cmpi sge, %0, %c0_i64 : i64
    cf.assert %13, "unimplemented: dynamic negative broadcast sizes"
    %14 = tensor.empty(%dim_3, %dim) : tensor<?x4x?x32xf32>
    %15 = linalg.generic {indexing_maps = [#map4], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} outs(%14 : tensor<?x4x?x32xf32>) {
    ^bb0(%out: f32):
      %111 = linalg.index 0 : index
      %112 = linalg.index 1 : index
      %113 = linalg.index 2 : index
      %114 = linalg.index 3 : index
      %dim_17 = tensor.dim %arg0, %c0 : tensor<?x4x?x32xf32>
      %115 = arith.cmpi eq, %dim_17, %c1 : index
      %116 = arith.select %115, %c0, %111 : index
      %117 = arith.cmpi eq, %dim, %c1 : index
      %118 = arith.select %117, %c0, %113 : index
      %extracted = tensor.extract %arg0[%116, %112, %118, %114] : tensor<?x4x?x32xf32>
      linalg.yield %extracted : f32
    } -> tensor<?x4x?x32xf32>
    %16 = arith.cmpi slt, %11, %c0_i64 : i64
    %17 = arith.select %16, %c1_i64, %11 : i64
    %18 = arith.extui %16 : i1 to i64
    %19 = arith.muli %17, %0 : i64
    %20 = arith.addi %18, %c1_i64 : i64
    %21 = arith.cmpi slt, %0, %c0_i64 : i64
    %22 = arith.select %21, %17, %19 : i64
    %23 = arith.select %21, %20, %18 : i64
    %24 = arith.muli %22, %c32_i64 : i64
    %25 = arith.cmpi sle, %23, %c1_i64 : i64
    cf.assert %25, "must have at most one inferred (negative) dimension"
    %26 = arith.muli %11, %0 : i64
    %27 = arith.muli %26, %c32_i64 : i64
    %28 = arith.divsi %27, %24 : i64
    %29 = arith.select %16, %28, %11 : i64
    %30 = arith.select %21, %28, %0 : i64
    %from_elements = tensor.from_elements %29, %30, %c32_i64 : tensor<3xi64>
    %reshape = tensor.reshape %15(%from_elements) : (tensor<?x4x?x32xf32>, tensor<3xi64>) -> tensor<?x?x32xf32>
    cf.assert %12, "unimplemented: dynamic negative broadcast sizes"
    cf.assert %13, "unimplemented: dynamic negative broadcast sizes"
    %31 = tensor.empty(%dim_3, %dim) : tensor<?x4x32x?xf32>
    %32 = linalg.generic {indexing_maps = [#map4], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} outs(%31 : tensor<?x4x32x?xf32>) {
    ^bb0(%out: f32):
      %111 = linalg.index 0 : index
      %112 = linalg.index 1 : index
      %113 = linalg.index 2 : index
      %114 = linalg.index 3 : index
      %115 = arith.cmpi eq, %dim_5, %c1 : index
      %116 = arith.select %115, %c0, %111 : index
      %117 = arith.cmpi eq, %dim_6, %c1 : index
      %118 = arith.select %117, %c0, %114 : index
      %extracted = tensor.extract %transposed[%116, %112, %113, %118] : tensor<?x4x32x?xf32>
      linalg.yield %extracted : f32
    } -> tensor<?x4x32x?xf32>
    %33 = arith.muli %17, %c32_i64 : i64
    %34 = arith.muli %33, %0 : i64
    %35 = arith.select %21, %33, %34 : i64
    cf.assert %25, "must have at most one inferred (negative) dimension"
    %36 = arith.muli %1, %c128_i64 : i64
    %37 = arith.muli %36, %0 : i64
    %38 = arith.divsi %37, %35 : i64
    %39 = arith.select %16, %38, %11 : i64
    %40 = arith.select %21, %38, %0 : i64
    %from_elements_7 = tensor.from_elements %39, %c32_i64, %40 : tensor<3xi64>
    %reshape_8 = tensor.reshape %32(%from_elements_7) : (tensor<?x4x32x?xf32>, tensor<3xi64>) -> tensor<?x32x?xf32>
    %41 = arith.index_cast %29 : i64 to index
    %42 = arith.index_cast %30 : i64 to index
    %43 = arith.index_cast %40 : i64 to index
    %44 = arith.cmpi eq, %29, %39 : i64
    cf.assert %44, "mismatching contracting dimension"
    %45 = tensor.empty(%41, %42, %43) : tensor<?x?x?xf32>
    %46 = linalg.fill ins(%cst : f32) outs(%45 : tensor<?x?x?xf32>) -> tensor<?x?x?xf32>
    %47 = linalg.batch_matmul ins(%reshape, %reshape_8 : tensor<?x?x32xf32>, tensor<?x32x?xf32>) outs(%46 : tensor<?x?x?xf32>) -> tensor<?x?x?xf32>
    %48 = arith.cmpi slt, %1, %c0_i64 : i64
    %49 = arith.select %48, %c1_i64, %1 : i64
    %50 = arith.extui %48 : i1 to i64
    %51 = arith.muli %49, %c4_i64 : i64
    %52 = arith.muli %51, %0 : i64
    %53 = arith.addi %50, %c1_i64 : i64
    %54 = arith.select %21, %51, %52 : i64
    %55 = arith.select %21, %53, %50 : i64
    %56 = arith.muli %54, %0 : i64
    %57 = arith.addi %55, %c1_i64 : i64
    %58 = arith.select %21, %51, %56 : i64
    %59 = arith.select %21, %57, %50 : i64
    %60 = arith.cmpi sle, %59, %c1_i64 : i64
    cf.assert %60, "must have at most one inferred (negative) dimension"
    %61 = arith.muli %29, %30 : i64
    %62 = arith.muli %61, %40 : i64
    %63 = arith.divsi %62, %58 : i64
    %64 = arith.select %48, %63, %1 : i64
    %65 = arith.select %21, %63, %0 : i64
    %from_elements_9 = tensor.from_elements %64, %c4_i64, %65, %65 : tensor<4xi64>
    %reshape_10 = tensor.reshape %47(%from_elements_9) : (tensor<?x?x?xf32>, tensor<4xi64>) -> tensor<?x4x?x?xf32>
    %66 = arith.index_cast %64 : i64 to index
    %67 = arith.index_cast %65 : i64 to index
    %68 = tensor.empty(%66, %67, %67) : tensor<?x4x?x?xf32>
    %69 = linalg.generic {indexing_maps = [#map4, #map4], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%reshape_10 : tensor<?x4x?x?xf32>) outs(%68 : tensor<?x4x?x?xf32>) {
    ^bb0(%in: f32, %out: f32):
      %111 = arith.truncf %cst_2 : f64 to f32
      %112 = arith.divf %in, %111 : f32
      linalg.yield %112 : f32
    } -> tensor<?x4x?x?xf32>
    %70 = linalg.generic {indexing_maps = [#map3, #map3], iterator_types = ["parallel", "parallel"]} ins(%9 : tensor<?x?xi1>) outs(%4 : tensor<?x?xi1>) {
    ^bb0(%in: i1, %out: i1):
      %111 = arith.xori %in, %true : i1
      linalg.yield %111 : i1
    } -> tensor<?x?xi1>
    %71 = arith.cmpi eq, %dim, %67 : index
    cf.assert %71, "mismatched size for broadcast"
    cf.assert %71, "mismatched size for broadcast"
    %72 = tensor.empty(%66, %dim, %dim) : tensor<?x4x?x?xf32>
    %73 = linalg.generic {indexing_maps = [#map5, #map6, #map4, #map4], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%70, %cst_1, %69 : tensor<?x?xi1>, tensor<f32>, tensor<?x4x?x?xf32>) outs(%72 : tensor<?x4x?x?xf32>) {
    ^bb0(%in: i1, %in_17: f32, %in_18: f32, %out: f32):
      %111 = arith.select %in, %in_17, %in_18 : f32
      linalg.yield %111 : f32
    } -> tensor<?x4x?x?xf32>
    %74 = tensor.empty(%66, %dim) : tensor<?x4x?xi64>
    %75 = linalg.fill ins(%c0_i64 : i64) outs(%74 : tensor<?x4x?xi64>) -> tensor<?x4x?xi64>
    %76 = tensor.empty(%66, %dim) : tensor<?x4x?xf32>
    %77 = linalg.fill ins(%cst_0 : f32) outs(%76 : tensor<?x4x?xf32>) -> tensor<?x4x?xf32>
    %78:2 = linalg.generic {indexing_maps = [#map4, #map7, #map7], iterator_types = ["parallel", "parallel", "parallel", "reduction"]} ins(%73 : tensor<?x4x?x?xf32>) outs(%77, %75 : tensor<?x4x?xf32>, tensor<?x4x?xi64>) {
    ^bb0(%in: f32, %out: f32, %out_17: i64):
      %111 = linalg.index 3 : index
      %112 = arith.index_cast %111 : index to i64
      %113 = arith.maximumf %in, %out : f32
      %114 = arith.cmpf ogt, %in, %out : f32
      %115 = arith.select %114, %112, %out_17 : i64
      linalg.yield %113, %115 : f32, i64
    } -> (tensor<?x4x?xf32>, tensor<?x4x?xi64>)
    %expanded_11 = tensor.expand_shape %78#0 [[0], [1], [2, 3]] output_shape [%66, 4, %dim, 1] : tensor<?x4x?xf32> into tensor<?x4x?x1xf32>
    %79 = linalg.generic {indexing_maps = [#map4, #map8, #map4], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%73, %expanded_11 : tensor<?x4x?x?xf32>, tensor<?x4x?x1xf32>) outs(%72 : tensor<?x4x?x?xf32>) {
    ^bb0(%in: f32, %in_17: f32, %out: f32):
      %111 = arith.subf %in, %in_17 : f32
      linalg.yield %111 : f32
    } -> tensor<?x4x?x?xf32>
    %80 = linalg.generic {indexing_maps = [#map4, #map4], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%79 : tensor<?x4x?x?xf32>) outs(%72 : tensor<?x4x?x?xf32>) {
    ^bb0(%in: f32, %out: f32):
      %111 = math.exp %in : f32
      linalg.yield %111 : f32
    } -> tensor<?x4x?x?xf32>
    %81 = tensor.empty(%66, %dim) : tensor<?x4x?x1xf32>
    %82 = linalg.fill ins(%cst : f32) outs(%81 : tensor<?x4x?x1xf32>) -> tensor<?x4x?x1xf32>
    %83 = linalg.generic {indexing_maps = [#map4, #map8], iterator_types = ["parallel", "parallel", "parallel", "reduction"]} ins(%80 : tensor<?x4x?x?xf32>) outs(%82 : tensor<?x4x?x1xf32>) {
    ^bb0(%in: f32, %out: f32):
      %111 = arith.addf %in, %out : f32
      linalg.yield %111 : f32
    } -> tensor<?x4x?x1xf32>
    %84 = linalg.generic {indexing_maps = [#map4, #map8, #map4], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%80, %83 : tensor<?x4x?x?xf32>, tensor<?x4x?x1xf32>) outs(%72 : tensor<?x4x?x?xf32>) {
    ^bb0(%in: f32, %in_17: f32, %out: f32):
      %111 = arith.divf %in, %in_17 : f32
      linalg.yield %111 : f32
    } -> tensor<?x4x?x?xf32>
    cf.assert %12, "unimplemented: dynamic negative broadcast sizes"
    cf.assert %13, "unimplemented: dynamic negative broadcast sizes"
    cf.assert %13, "unimplemented: dynamic negative broadcast sizes"
    %85 = tensor.empty(%dim_3, %dim, %dim) : tensor<?x4x?x?xf32>
    %86 = linalg.generic {indexing_maps = [#map4], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} outs(%85 : tensor<?x4x?x?xf32>) {
    ^bb0(%out: f32):
      %111 = linalg.index 0 : index
      %112 = linalg.index 1 : index
      %113 = linalg.index 2 : index
      %114 = linalg.index 3 : index
      %115 = arith.cmpi eq, %66, %c1 : index
      %116 = arith.select %115, %c0, %111 : index
      %117 = arith.cmpi eq, %dim, %c1 : index
      %118 = arith.select %117, %c0, %113 : index
      %119 = arith.select %117, %c0, %114 : index
      %extracted = tensor.extract %84[%116, %112, %118, %119] : tensor<?x4x?x?xf32>
      linalg.yield %extracted : f32
    } -> tensor<?x4x?x?xf32>
    %87 = arith.muli %22, %0 : i64
    %88 = arith.addi %23, %c1_i64 : i64
    %89 = arith.select %21, %17, %87 : i64
    %90 = arith.select %21, %88, %18 : i64
    %91 = arith.cmpi sle, %90, %c1_i64 : i64
    cf.assert %91, "must have at most one inferred (negative) dimension"
    %92 = arith.muli %26, %0 : i64
    %93 = arith.divsi %92, %89 : i64
    %94 = arith.select %16, %93, %11 : i64
    %95 = arith.select %21, %93, %0 : i64
    %from_elements_12 = tensor.from_elements %94, %95, %95 : tensor<3xi64>
    %reshape_13 = tensor.reshape %86(%from_elements_12) : (tensor<?x4x?x?xf32>, tensor<3xi64>) -> tensor<?x?x?xf32>
    cf.assert %12, "unimplemented: dynamic negative broadcast sizes"
    cf.assert %13, "unimplemented: dynamic negative broadcast sizes"
    %96 = linalg.generic {indexing_maps = [#map4], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} outs(%14 : tensor<?x4x?x32xf32>) {
    ^bb0(%out: f32):
      %111 = linalg.index 0 : index
      %112 = linalg.index 1 : index
      %113 = linalg.index 2 : index
      %114 = linalg.index 3 : index
      %115 = arith.cmpi eq, %dim_3, %c1 : index
      %116 = arith.select %115, %c0, %111 : index
      %dim_17 = tensor.dim %arg2, %c2 : tensor<?x4x?x32xf32>
      %117 = arith.cmpi eq, %dim_17, %c1 : index
      %118 = arith.select %117, %c0, %113 : index
      %extracted = tensor.extract %arg2[%116, %112, %118, %114] : tensor<?x4x?x32xf32>
      linalg.yield %extracted : f32
    } -> tensor<?x4x?x32xf32>
    cf.assert %25, "must have at most one inferred (negative) dimension"
    %reshape_14 = tensor.reshape %96(%from_elements) : (tensor<?x4x?x32xf32>, tensor<3xi64>) -> tensor<?x?x32xf32>
    %97 = arith.index_cast %94 : i64 to index
    %98 = arith.index_cast %95 : i64 to index
    %99 = arith.cmpi eq, %94, %29 : i64
    cf.assert %99, "mismatching contracting dimension"
    %100 = arith.cmpi eq, %95, %30 : i64
    cf.assert %100, "mismatching contracting dimension"
    %101 = tensor.empty(%97, %98) : tensor<?x?x32xf32>
    %102 = linalg.fill ins(%cst : f32) outs(%101 : tensor<?x?x32xf32>) -> tensor<?x?x32xf32>
    %103 = linalg.batch_matmul ins(%reshape_13, %reshape_14 : tensor<?x?x?xf32>, tensor<?x?x32xf32>) outs(%102 : tensor<?x?x32xf32>) -> tensor<?x?x32xf32>
    %104 = arith.muli %54, %c32_i64 : i64
    %105 = arith.cmpi sle, %55, %c1_i64 : i64
    cf.assert %105, "must have at most one inferred (negative) dimension"
    %106 = arith.muli %94, %95 : i64
    %107 = arith.muli %106, %c32_i64 : i64
    %108 = arith.divsi %107, %104 : i64
    %109 = arith.select %48, %108, %1 : i64
    %110 = arith.select %21, %108, %0 : i64
    %from_elements_15 = tensor.from_elements %109, %c4_i64, %110, %c32_i64 : tensor<4xi64>
    %reshape_16 = tensor.reshape %103(%from_elements_15) : (tensor<?x?x32xf32>, tensor<4xi64>) -> tensor<?x4x?x32xf32>
    return %reshape_16 : tensor<?x4x?x32xf32>
  }
}
