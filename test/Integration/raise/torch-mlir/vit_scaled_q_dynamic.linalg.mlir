// vit_scaled_q_dynamic (VitScaledQ), exported with a dynamic batch and
// lengths (torch.export Dims) by scripts/export_torch_mlir_cases.py (torch 2.15.0+cu132,
// torch_mlir.fx, output linalg-on-tensors). The raising runs on the dynamic
// function; the proof runs it at several sizes.
// RUN: attention-opt %s --attn-raise-pipeline | FileCheck %s
// RUN: attn-raise-check %s --require-raised --runs=1 --seed=42 '--shapes=2x4x16x32,2x4x24x32,2x4x24x32->2x4x16x32' '--shapes=1x4x1x32,1x4x7x32,1x4x7x32->1x4x1x32' '--shapes=3x4x33x32,3x4x1x32,3x4x1x32->3x4x33x32' '--shapes=2x4x5x32,2x4x70x32,2x4x70x32->2x4x5x32' | FileCheck %s --check-prefix=PROOF --implicit-check-not=FAIL
// CHECK: attn.attention {{.*}}{scale = 0.17677{{[0-9]+}} : f32}
// CHECK-NOT: linalg.
// PROOF: @vit_scaled_q_dynamic at {{.*}}: 1 attn.attention after the raising
// PROOF: run 0 result 0 {{.*}}: PASS
// PROOF: @vit_scaled_q_dynamic at {{.*}}: 1 attn.attention after the raising
// PROOF: run 0 result 0 {{.*}}: PASS
// PROOF: @vit_scaled_q_dynamic at {{.*}}: 1 attn.attention after the raising
// PROOF: run 0 result 0 {{.*}}: PASS
// PROOF: @vit_scaled_q_dynamic at {{.*}}: 1 attn.attention after the raising
// PROOF: run 0 result 0 {{.*}}: PASS
#map = affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>
#map1 = affine_map<(d0, d1, d2, d3) -> (d0, d1, d2)>
#map2 = affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, 0)>
module {
  func.func @vit_scaled_q_dynamic(%arg0: tensor<?x4x?x32xf32>, %arg1: tensor<?x4x?x32xf32>, %arg2: tensor<?x4x?x32xf32>) -> tensor<?x4x?x32xf32> {
    %c0_i64 = arith.constant 0 : i64
    %c4_i64 = arith.constant 4 : i64
    %c1 = arith.constant 1 : index
    %c0 = arith.constant 0 : index
    %c2 = arith.constant 2 : index
    %c32_i64 = arith.constant 32 : i64
    %c1_i64 = arith.constant 1 : i64
    %cst = arith.constant 0.000000e+00 : f32
    %cst_0 = arith.constant 0xFF800000 : f32
    %cst_1 = arith.constant 0.17677669529663689 : f64
    %c128_i64 = arith.constant 128 : i64
    %dim = tensor.dim %arg0, %c2 : tensor<?x4x?x32xf32>
    %0 = arith.index_cast %dim : index to i64
    %dim_2 = tensor.dim %arg2, %c0 : tensor<?x4x?x32xf32>
    %1 = arith.index_cast %dim_2 : index to i64
    %dim_3 = tensor.dim %arg2, %c2 : tensor<?x4x?x32xf32>
    %2 = arith.index_cast %dim_3 : index to i64
    %dim_4 = tensor.dim %arg0, %c0 : tensor<?x4x?x32xf32>
    %3 = tensor.empty(%dim_4, %dim) : tensor<?x4x?x32xf32>
    %4 = linalg.generic {indexing_maps = [#map, #map], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%arg0 : tensor<?x4x?x32xf32>) outs(%3 : tensor<?x4x?x32xf32>) {
    ^bb0(%in: f32, %out: f32):
      %117 = arith.truncf %cst_1 : f64 to f32
      %118 = arith.mulf %in, %117 : f32
      linalg.yield %118 : f32
    } -> tensor<?x4x?x32xf32>
    %dim_5 = tensor.dim %arg1, %c0 : tensor<?x4x?x32xf32>
    %dim_6 = tensor.dim %arg1, %c2 : tensor<?x4x?x32xf32>
    %5 = tensor.empty(%dim_5, %dim_6) : tensor<?x4x32x?xf32>
    %transposed = linalg.transpose ins(%arg1 : tensor<?x4x?x32xf32>) outs(%5 : tensor<?x4x32x?xf32>) permutation = [0, 1, 3, 2] 
    %6 = arith.muli %1, %c4_i64 : i64
    %7 = arith.cmpi sge, %1, %c0_i64 : i64
    cf.assert %7, "unimplemented: dynamic negative broadcast sizes"
    %8 = arith.cmpi sge, %0, %c0_i64 : i64
    cf.assert %8, "unimplemented: dynamic negative broadcast sizes"
    %9 = tensor.empty(%dim_2, %dim) : tensor<?x4x?x32xf32>
    %10 = linalg.generic {indexing_maps = [#map], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} outs(%9 : tensor<?x4x?x32xf32>) {
    ^bb0(%out: f32):
      %117 = linalg.index 0 : index
      %118 = linalg.index 1 : index
      %119 = linalg.index 2 : index
      %120 = linalg.index 3 : index
      %121 = arith.cmpi eq, %dim_4, %c1 : index
      %122 = arith.select %121, %c0, %117 : index
      %123 = arith.cmpi eq, %dim, %c1 : index
      %124 = arith.select %123, %c0, %119 : index
      %extracted = tensor.extract %4[%122, %118, %124, %120] : tensor<?x4x?x32xf32>
      linalg.yield %extracted : f32
    } -> tensor<?x4x?x32xf32>
    %11 = arith.cmpi slt, %6, %c0_i64 : i64
    %12 = arith.select %11, %c1_i64, %6 : i64
    %13 = arith.extui %11 : i1 to i64
    %14 = arith.muli %12, %0 : i64
    %15 = arith.addi %13, %c1_i64 : i64
    %16 = arith.cmpi slt, %0, %c0_i64 : i64
    %17 = arith.select %16, %12, %14 : i64
    %18 = arith.select %16, %15, %13 : i64
    %19 = arith.muli %17, %c32_i64 : i64
    %20 = arith.cmpi sle, %18, %c1_i64 : i64
    cf.assert %20, "must have at most one inferred (negative) dimension"
    %21 = arith.muli %6, %0 : i64
    %22 = arith.muli %21, %c32_i64 : i64
    %23 = arith.divsi %22, %19 : i64
    %24 = arith.select %11, %23, %6 : i64
    %25 = arith.select %16, %23, %0 : i64
    %from_elements = tensor.from_elements %24, %25, %c32_i64 : tensor<3xi64>
    %reshape = tensor.reshape %10(%from_elements) : (tensor<?x4x?x32xf32>, tensor<3xi64>) -> tensor<?x?x32xf32>
    cf.assert %7, "unimplemented: dynamic negative broadcast sizes"
    %26 = arith.cmpi sge, %2, %c0_i64 : i64
    cf.assert %26, "unimplemented: dynamic negative broadcast sizes"
    %27 = tensor.empty(%dim_2, %dim_3) : tensor<?x4x32x?xf32>
    %28 = linalg.generic {indexing_maps = [#map], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} outs(%27 : tensor<?x4x32x?xf32>) {
    ^bb0(%out: f32):
      %117 = linalg.index 0 : index
      %118 = linalg.index 1 : index
      %119 = linalg.index 2 : index
      %120 = linalg.index 3 : index
      %121 = arith.cmpi eq, %dim_5, %c1 : index
      %122 = arith.select %121, %c0, %117 : index
      %123 = arith.cmpi eq, %dim_6, %c1 : index
      %124 = arith.select %123, %c0, %120 : index
      %extracted = tensor.extract %transposed[%122, %118, %119, %124] : tensor<?x4x32x?xf32>
      linalg.yield %extracted : f32
    } -> tensor<?x4x32x?xf32>
    %29 = arith.muli %12, %c32_i64 : i64
    %30 = arith.muli %29, %2 : i64
    %31 = arith.cmpi slt, %2, %c0_i64 : i64
    %32 = arith.select %31, %29, %30 : i64
    %33 = arith.select %31, %15, %13 : i64
    %34 = arith.cmpi sle, %33, %c1_i64 : i64
    cf.assert %34, "must have at most one inferred (negative) dimension"
    %35 = arith.muli %1, %c128_i64 : i64
    %36 = arith.muli %35, %2 : i64
    %37 = arith.divsi %36, %32 : i64
    %38 = arith.select %11, %37, %6 : i64
    %39 = arith.select %31, %37, %2 : i64
    %from_elements_7 = tensor.from_elements %38, %c32_i64, %39 : tensor<3xi64>
    %reshape_8 = tensor.reshape %28(%from_elements_7) : (tensor<?x4x32x?xf32>, tensor<3xi64>) -> tensor<?x32x?xf32>
    %40 = arith.index_cast %24 : i64 to index
    %41 = arith.index_cast %25 : i64 to index
    %42 = arith.index_cast %39 : i64 to index
    %43 = arith.cmpi eq, %24, %38 : i64
    cf.assert %43, "mismatching contracting dimension"
    %44 = tensor.empty(%40, %41, %42) : tensor<?x?x?xf32>
    %45 = linalg.fill ins(%cst : f32) outs(%44 : tensor<?x?x?xf32>) -> tensor<?x?x?xf32>
    %46 = linalg.batch_matmul ins(%reshape, %reshape_8 : tensor<?x?x32xf32>, tensor<?x32x?xf32>) outs(%45 : tensor<?x?x?xf32>) -> tensor<?x?x?xf32>
    %47 = arith.cmpi slt, %1, %c0_i64 : i64
    %48 = arith.select %47, %c1_i64, %1 : i64
    %49 = arith.extui %47 : i1 to i64
    %50 = arith.muli %48, %c4_i64 : i64
    %51 = arith.muli %50, %0 : i64
    %52 = arith.addi %49, %c1_i64 : i64
    %53 = arith.select %16, %50, %51 : i64
    %54 = arith.select %16, %52, %49 : i64
    %55 = arith.muli %53, %2 : i64
    %56 = arith.addi %54, %c1_i64 : i64
    %57 = arith.select %31, %53, %55 : i64
    %58 = arith.select %31, %56, %54 : i64
    %59 = arith.cmpi sle, %58, %c1_i64 : i64
    cf.assert %59, "must have at most one inferred (negative) dimension"
    %60 = arith.muli %24, %25 : i64
    %61 = arith.muli %60, %39 : i64
    %62 = arith.divsi %61, %57 : i64
    %63 = arith.select %47, %62, %1 : i64
    %64 = arith.select %16, %62, %0 : i64
    %65 = arith.select %31, %62, %2 : i64
    %from_elements_9 = tensor.from_elements %63, %c4_i64, %64, %65 : tensor<4xi64>
    %reshape_10 = tensor.reshape %46(%from_elements_9) : (tensor<?x?x?xf32>, tensor<4xi64>) -> tensor<?x4x?x?xf32>
    %66 = arith.index_cast %63 : i64 to index
    %67 = arith.index_cast %64 : i64 to index
    %68 = tensor.empty(%66, %67) : tensor<?x4x?xi64>
    %69 = linalg.fill ins(%c0_i64 : i64) outs(%68 : tensor<?x4x?xi64>) -> tensor<?x4x?xi64>
    %70 = tensor.empty(%66, %67) : tensor<?x4x?xf32>
    %71 = linalg.fill ins(%cst_0 : f32) outs(%70 : tensor<?x4x?xf32>) -> tensor<?x4x?xf32>
    %72:2 = linalg.generic {indexing_maps = [#map, #map1, #map1], iterator_types = ["parallel", "parallel", "parallel", "reduction"]} ins(%reshape_10 : tensor<?x4x?x?xf32>) outs(%71, %69 : tensor<?x4x?xf32>, tensor<?x4x?xi64>) {
    ^bb0(%in: f32, %out: f32, %out_17: i64):
      %117 = linalg.index 3 : index
      %118 = arith.index_cast %117 : index to i64
      %119 = arith.maximumf %in, %out : f32
      %120 = arith.cmpf ogt, %in, %out : f32
      %121 = arith.select %120, %118, %out_17 : i64
      linalg.yield %119, %121 : f32, i64
    } -> (tensor<?x4x?xf32>, tensor<?x4x?xi64>)
    %expanded = tensor.expand_shape %72#0 [[0], [1], [2, 3]] output_shape [%66, 4, %67, 1] : tensor<?x4x?xf32> into tensor<?x4x?x1xf32>
    %73 = arith.index_cast %65 : i64 to index
    %74 = tensor.empty(%66, %67, %73) : tensor<?x4x?x?xf32>
    %75 = linalg.generic {indexing_maps = [#map, #map2, #map], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%reshape_10, %expanded : tensor<?x4x?x?xf32>, tensor<?x4x?x1xf32>) outs(%74 : tensor<?x4x?x?xf32>) {
    ^bb0(%in: f32, %in_17: f32, %out: f32):
      %117 = arith.subf %in, %in_17 : f32
      linalg.yield %117 : f32
    } -> tensor<?x4x?x?xf32>
    %76 = linalg.generic {indexing_maps = [#map, #map], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%75 : tensor<?x4x?x?xf32>) outs(%74 : tensor<?x4x?x?xf32>) {
    ^bb0(%in: f32, %out: f32):
      %117 = math.exp %in : f32
      linalg.yield %117 : f32
    } -> tensor<?x4x?x?xf32>
    %77 = tensor.empty(%66, %67) : tensor<?x4x?x1xf32>
    %78 = linalg.fill ins(%cst : f32) outs(%77 : tensor<?x4x?x1xf32>) -> tensor<?x4x?x1xf32>
    %79 = linalg.generic {indexing_maps = [#map, #map2], iterator_types = ["parallel", "parallel", "parallel", "reduction"]} ins(%76 : tensor<?x4x?x?xf32>) outs(%78 : tensor<?x4x?x1xf32>) {
    ^bb0(%in: f32, %out: f32):
      %117 = arith.addf %in, %out : f32
      linalg.yield %117 : f32
    } -> tensor<?x4x?x1xf32>
    %80 = linalg.generic {indexing_maps = [#map, #map2, #map], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%76, %79 : tensor<?x4x?x?xf32>, tensor<?x4x?x1xf32>) outs(%74 : tensor<?x4x?x?xf32>) {
    ^bb0(%in: f32, %in_17: f32, %out: f32):
      %117 = arith.divf %in, %in_17 : f32
      linalg.yield %117 : f32
    } -> tensor<?x4x?x?xf32>
    cf.assert %7, "unimplemented: dynamic negative broadcast sizes"
    cf.assert %8, "unimplemented: dynamic negative broadcast sizes"
    cf.assert %26, "unimplemented: dynamic negative broadcast sizes"
    %81 = tensor.empty(%dim_2, %dim, %dim_3) : tensor<?x4x?x?xf32>
    %82 = linalg.generic {indexing_maps = [#map], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} outs(%81 : tensor<?x4x?x?xf32>) {
    ^bb0(%out: f32):
      %117 = linalg.index 0 : index
      %118 = linalg.index 1 : index
      %119 = linalg.index 2 : index
      %120 = linalg.index 3 : index
      %121 = arith.cmpi eq, %66, %c1 : index
      %122 = arith.select %121, %c0, %117 : index
      %123 = arith.cmpi eq, %67, %c1 : index
      %124 = arith.select %123, %c0, %119 : index
      %125 = arith.cmpi eq, %73, %c1 : index
      %126 = arith.select %125, %c0, %120 : index
      %extracted = tensor.extract %80[%122, %118, %124, %126] : tensor<?x4x?x?xf32>
      linalg.yield %extracted : f32
    } -> tensor<?x4x?x?xf32>
    %83 = arith.muli %17, %2 : i64
    %84 = arith.addi %18, %c1_i64 : i64
    %85 = arith.select %31, %17, %83 : i64
    %86 = arith.select %31, %84, %18 : i64
    %87 = arith.cmpi sle, %86, %c1_i64 : i64
    cf.assert %87, "must have at most one inferred (negative) dimension"
    %88 = arith.muli %21, %2 : i64
    %89 = arith.divsi %88, %85 : i64
    %90 = arith.select %11, %89, %6 : i64
    %91 = arith.select %16, %89, %0 : i64
    %92 = arith.select %31, %89, %2 : i64
    %from_elements_11 = tensor.from_elements %90, %91, %92 : tensor<3xi64>
    %reshape_12 = tensor.reshape %82(%from_elements_11) : (tensor<?x4x?x?xf32>, tensor<3xi64>) -> tensor<?x?x?xf32>
    cf.assert %7, "unimplemented: dynamic negative broadcast sizes"
    cf.assert %26, "unimplemented: dynamic negative broadcast sizes"
    %93 = tensor.empty(%dim_2, %dim_3) : tensor<?x4x?x32xf32>
    %94 = linalg.generic {indexing_maps = [#map], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} outs(%93 : tensor<?x4x?x32xf32>) {
    ^bb0(%out: f32):
      %117 = linalg.index 0 : index
      %118 = linalg.index 1 : index
      %119 = linalg.index 2 : index
      %120 = linalg.index 3 : index
      %121 = arith.cmpi eq, %dim_2, %c1 : index
      %122 = arith.select %121, %c0, %117 : index
      %123 = arith.cmpi eq, %dim_3, %c1 : index
      %124 = arith.select %123, %c0, %119 : index
      %extracted = tensor.extract %arg2[%122, %118, %124, %120] : tensor<?x4x?x32xf32>
      linalg.yield %extracted : f32
    } -> tensor<?x4x?x32xf32>
    %95 = arith.muli %12, %2 : i64
    %96 = arith.select %31, %12, %95 : i64
    %97 = arith.muli %96, %c32_i64 : i64
    cf.assert %34, "must have at most one inferred (negative) dimension"
    %98 = arith.muli %6, %2 : i64
    %99 = arith.muli %98, %c32_i64 : i64
    %100 = arith.divsi %99, %97 : i64
    %101 = arith.select %11, %100, %6 : i64
    %102 = arith.select %31, %100, %2 : i64
    %from_elements_13 = tensor.from_elements %101, %102, %c32_i64 : tensor<3xi64>
    %reshape_14 = tensor.reshape %94(%from_elements_13) : (tensor<?x4x?x32xf32>, tensor<3xi64>) -> tensor<?x?x32xf32>
    %103 = arith.index_cast %90 : i64 to index
    %104 = arith.index_cast %91 : i64 to index
    %105 = arith.cmpi eq, %90, %101 : i64
    cf.assert %105, "mismatching contracting dimension"
    %106 = arith.cmpi eq, %92, %102 : i64
    cf.assert %106, "mismatching contracting dimension"
    %107 = tensor.empty(%103, %104) : tensor<?x?x32xf32>
    %108 = linalg.fill ins(%cst : f32) outs(%107 : tensor<?x?x32xf32>) -> tensor<?x?x32xf32>
    %109 = linalg.batch_matmul ins(%reshape_12, %reshape_14 : tensor<?x?x?xf32>, tensor<?x?x32xf32>) outs(%108 : tensor<?x?x32xf32>) -> tensor<?x?x32xf32>
    %110 = arith.muli %53, %c32_i64 : i64
    %111 = arith.cmpi sle, %54, %c1_i64 : i64
    cf.assert %111, "must have at most one inferred (negative) dimension"
    %112 = arith.muli %90, %91 : i64
    %113 = arith.muli %112, %c32_i64 : i64
    %114 = arith.divsi %113, %110 : i64
    %115 = arith.select %47, %114, %1 : i64
    %116 = arith.select %16, %114, %0 : i64
    %from_elements_15 = tensor.from_elements %115, %c4_i64, %116, %c32_i64 : tensor<4xi64>
    %reshape_16 = tensor.reshape %109(%from_elements_15) : (tensor<?x?x32xf32>, tensor<4xi64>) -> tensor<?x4x?x32xf32>
    return %reshape_16 : tensor<?x4x?x32xf32>
  }
}
