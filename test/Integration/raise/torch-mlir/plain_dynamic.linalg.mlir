// plain_dynamic (Plain), exported with a dynamic batch and
// lengths (torch.export Dims) by scripts/export_torch_mlir_cases.py (torch 2.15.0+cu132,
// torch_mlir.fx, output linalg-on-tensors). The raising runs on the dynamic
// function; the proof runs it at several sizes.
// RUN: attention-opt %s --attn-raise-pipeline | FileCheck %s
// RUN: attn-raise-check %s --require-raised --runs=1 --seed=50 '--shapes=2x4x16x32,2x4x24x32,2x4x24x32->2x4x16x32' '--shapes=1x4x1x32,1x4x7x32,1x4x7x32->1x4x1x32' '--shapes=3x4x33x32,3x4x1x32,3x4x1x32->3x4x33x32' '--shapes=2x4x5x32,2x4x70x32,2x4x70x32->2x4x5x32' | FileCheck %s --check-prefix=PROOF --implicit-check-not=FAIL
// CHECK: attn.attention {{.*}}{scale = 0.17677{{[0-9]+}} : f32}
// CHECK-NOT: linalg.
// PROOF: @plain_dynamic at {{.*}}: 1 attn.attention after the raising
// PROOF: run 0 result 0 {{.*}}: PASS
// PROOF: @plain_dynamic at {{.*}}: 1 attn.attention after the raising
// PROOF: run 0 result 0 {{.*}}: PASS
// PROOF: @plain_dynamic at {{.*}}: 1 attn.attention after the raising
// PROOF: run 0 result 0 {{.*}}: PASS
// PROOF: @plain_dynamic at {{.*}}: 1 attn.attention after the raising
// PROOF: run 0 result 0 {{.*}}: PASS
#map = affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>
#map1 = affine_map<(d0, d1, d2, d3) -> (d0, d1, d2)>
#map2 = affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, 0)>
module {
  func.func @plain_dynamic(%arg0: tensor<?x4x?x32xf32>, %arg1: tensor<?x4x?x32xf32>, %arg2: tensor<?x4x?x32xf32>) -> tensor<?x4x?x32xf32> {
    %c0_i64 = arith.constant 0 : i64
    %c4_i64 = arith.constant 4 : i64
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c2 = arith.constant 2 : index
    %c32_i64 = arith.constant 32 : i64
    %c1_i64 = arith.constant 1 : i64
    %cst = arith.constant 0.000000e+00 : f32
    %cst_0 = arith.constant 0xFF800000 : f32
    %cst_1 = arith.constant 5.6568542494923806 : f64
    %c128_i64 = arith.constant 128 : i64
    %dim = tensor.dim %arg0, %c2 : tensor<?x4x?x32xf32>
    %0 = arith.index_cast %dim : index to i64
    %dim_2 = tensor.dim %arg2, %c0 : tensor<?x4x?x32xf32>
    %1 = arith.index_cast %dim_2 : index to i64
    %dim_3 = tensor.dim %arg2, %c2 : tensor<?x4x?x32xf32>
    %2 = arith.index_cast %dim_3 : index to i64
    %dim_4 = tensor.dim %arg1, %c0 : tensor<?x4x?x32xf32>
    %dim_5 = tensor.dim %arg1, %c2 : tensor<?x4x?x32xf32>
    %3 = tensor.empty(%dim_4, %dim_5) : tensor<?x4x32x?xf32>
    %transposed = linalg.transpose ins(%arg1 : tensor<?x4x?x32xf32>) outs(%3 : tensor<?x4x32x?xf32>) permutation = [0, 1, 3, 2] 
    %4 = arith.muli %1, %c4_i64 : i64
    %5 = arith.cmpi sge, %1, %c0_i64 : i64
    cf.assert %5, "unimplemented: dynamic negative broadcast sizes"
    %6 = arith.cmpi sge, %0, %c0_i64 : i64
    cf.assert %6, "unimplemented: dynamic negative broadcast sizes"
    %7 = tensor.empty(%dim_2, %dim) : tensor<?x4x?x32xf32>
    %8 = linalg.generic {indexing_maps = [#map], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} outs(%7 : tensor<?x4x?x32xf32>) {
    ^bb0(%out: f32):
      %116 = linalg.index 0 : index
      %117 = linalg.index 1 : index
      %118 = linalg.index 2 : index
      %119 = linalg.index 3 : index
      %dim_16 = tensor.dim %arg0, %c0 : tensor<?x4x?x32xf32>
      %120 = arith.cmpi eq, %dim_16, %c1 : index
      %121 = arith.select %120, %c0, %116 : index
      %122 = arith.cmpi eq, %dim, %c1 : index
      %123 = arith.select %122, %c0, %118 : index
      %extracted = tensor.extract %arg0[%121, %117, %123, %119] : tensor<?x4x?x32xf32>
      linalg.yield %extracted : f32
    } -> tensor<?x4x?x32xf32>
    %9 = arith.cmpi slt, %4, %c0_i64 : i64
    %10 = arith.select %9, %c1_i64, %4 : i64
    %11 = arith.extui %9 : i1 to i64
    %12 = arith.muli %10, %0 : i64
    %13 = arith.addi %11, %c1_i64 : i64
    %14 = arith.cmpi slt, %0, %c0_i64 : i64
    %15 = arith.select %14, %10, %12 : i64
    %16 = arith.select %14, %13, %11 : i64
    %17 = arith.muli %15, %c32_i64 : i64
    %18 = arith.cmpi sle, %16, %c1_i64 : i64
    cf.assert %18, "must have at most one inferred (negative) dimension"
    %19 = arith.muli %4, %0 : i64
    %20 = arith.muli %19, %c32_i64 : i64
    %21 = arith.divsi %20, %17 : i64
    %22 = arith.select %9, %21, %4 : i64
    %23 = arith.select %14, %21, %0 : i64
    %from_elements = tensor.from_elements %22, %23, %c32_i64 : tensor<3xi64>
    %reshape = tensor.reshape %8(%from_elements) : (tensor<?x4x?x32xf32>, tensor<3xi64>) -> tensor<?x?x32xf32>
    cf.assert %5, "unimplemented: dynamic negative broadcast sizes"
    %24 = arith.cmpi sge, %2, %c0_i64 : i64
    cf.assert %24, "unimplemented: dynamic negative broadcast sizes"
    %25 = tensor.empty(%dim_2, %dim_3) : tensor<?x4x32x?xf32>
    %26 = linalg.generic {indexing_maps = [#map], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} outs(%25 : tensor<?x4x32x?xf32>) {
    ^bb0(%out: f32):
      %116 = linalg.index 0 : index
      %117 = linalg.index 1 : index
      %118 = linalg.index 2 : index
      %119 = linalg.index 3 : index
      %120 = arith.cmpi eq, %dim_4, %c1 : index
      %121 = arith.select %120, %c0, %116 : index
      %122 = arith.cmpi eq, %dim_5, %c1 : index
      %123 = arith.select %122, %c0, %119 : index
      %extracted = tensor.extract %transposed[%121, %117, %118, %123] : tensor<?x4x32x?xf32>
      linalg.yield %extracted : f32
    } -> tensor<?x4x32x?xf32>
    %27 = arith.muli %10, %c32_i64 : i64
    %28 = arith.muli %27, %2 : i64
    %29 = arith.cmpi slt, %2, %c0_i64 : i64
    %30 = arith.select %29, %27, %28 : i64
    %31 = arith.select %29, %13, %11 : i64
    %32 = arith.cmpi sle, %31, %c1_i64 : i64
    cf.assert %32, "must have at most one inferred (negative) dimension"
    %33 = arith.muli %1, %c128_i64 : i64
    %34 = arith.muli %33, %2 : i64
    %35 = arith.divsi %34, %30 : i64
    %36 = arith.select %9, %35, %4 : i64
    %37 = arith.select %29, %35, %2 : i64
    %from_elements_6 = tensor.from_elements %36, %c32_i64, %37 : tensor<3xi64>
    %reshape_7 = tensor.reshape %26(%from_elements_6) : (tensor<?x4x32x?xf32>, tensor<3xi64>) -> tensor<?x32x?xf32>
    %38 = arith.index_cast %22 : i64 to index
    %39 = arith.index_cast %23 : i64 to index
    %40 = arith.index_cast %37 : i64 to index
    %41 = arith.cmpi eq, %22, %36 : i64
    cf.assert %41, "mismatching contracting dimension"
    %42 = tensor.empty(%38, %39, %40) : tensor<?x?x?xf32>
    %43 = linalg.fill ins(%cst : f32) outs(%42 : tensor<?x?x?xf32>) -> tensor<?x?x?xf32>
    %44 = linalg.batch_matmul ins(%reshape, %reshape_7 : tensor<?x?x32xf32>, tensor<?x32x?xf32>) outs(%43 : tensor<?x?x?xf32>) -> tensor<?x?x?xf32>
    %45 = arith.cmpi slt, %1, %c0_i64 : i64
    %46 = arith.select %45, %c1_i64, %1 : i64
    %47 = arith.extui %45 : i1 to i64
    %48 = arith.muli %46, %c4_i64 : i64
    %49 = arith.muli %48, %0 : i64
    %50 = arith.addi %47, %c1_i64 : i64
    %51 = arith.select %14, %48, %49 : i64
    %52 = arith.select %14, %50, %47 : i64
    %53 = arith.muli %51, %2 : i64
    %54 = arith.addi %52, %c1_i64 : i64
    %55 = arith.select %29, %51, %53 : i64
    %56 = arith.select %29, %54, %52 : i64
    %57 = arith.cmpi sle, %56, %c1_i64 : i64
    cf.assert %57, "must have at most one inferred (negative) dimension"
    %58 = arith.muli %22, %23 : i64
    %59 = arith.muli %58, %37 : i64
    %60 = arith.divsi %59, %55 : i64
    %61 = arith.select %45, %60, %1 : i64
    %62 = arith.select %14, %60, %0 : i64
    %63 = arith.select %29, %60, %2 : i64
    %from_elements_8 = tensor.from_elements %61, %c4_i64, %62, %63 : tensor<4xi64>
    %reshape_9 = tensor.reshape %44(%from_elements_8) : (tensor<?x?x?xf32>, tensor<4xi64>) -> tensor<?x4x?x?xf32>
    %64 = arith.index_cast %61 : i64 to index
    %65 = arith.index_cast %62 : i64 to index
    %66 = arith.index_cast %63 : i64 to index
    %67 = tensor.empty(%64, %65, %66) : tensor<?x4x?x?xf32>
    %68 = linalg.generic {indexing_maps = [#map, #map], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%reshape_9 : tensor<?x4x?x?xf32>) outs(%67 : tensor<?x4x?x?xf32>) {
    ^bb0(%in: f32, %out: f32):
      %116 = arith.truncf %cst_1 : f64 to f32
      %117 = arith.divf %in, %116 : f32
      linalg.yield %117 : f32
    } -> tensor<?x4x?x?xf32>
    %69 = tensor.empty(%64, %65) : tensor<?x4x?xi64>
    %70 = linalg.fill ins(%c0_i64 : i64) outs(%69 : tensor<?x4x?xi64>) -> tensor<?x4x?xi64>
    %71 = tensor.empty(%64, %65) : tensor<?x4x?xf32>
    %72 = linalg.fill ins(%cst_0 : f32) outs(%71 : tensor<?x4x?xf32>) -> tensor<?x4x?xf32>
    %73:2 = linalg.generic {indexing_maps = [#map, #map1, #map1], iterator_types = ["parallel", "parallel", "parallel", "reduction"]} ins(%68 : tensor<?x4x?x?xf32>) outs(%72, %70 : tensor<?x4x?xf32>, tensor<?x4x?xi64>) {
    ^bb0(%in: f32, %out: f32, %out_16: i64):
      %116 = linalg.index 3 : index
      %117 = arith.index_cast %116 : index to i64
      %118 = arith.maximumf %in, %out : f32
      %119 = arith.cmpf ogt, %in, %out : f32
      %120 = arith.select %119, %117, %out_16 : i64
      linalg.yield %118, %120 : f32, i64
    } -> (tensor<?x4x?xf32>, tensor<?x4x?xi64>)
    %expanded = tensor.expand_shape %73#0 [[0], [1], [2, 3]] output_shape [%64, 4, %65, 1] : tensor<?x4x?xf32> into tensor<?x4x?x1xf32>
    %74 = linalg.generic {indexing_maps = [#map, #map2, #map], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%68, %expanded : tensor<?x4x?x?xf32>, tensor<?x4x?x1xf32>) outs(%67 : tensor<?x4x?x?xf32>) {
    ^bb0(%in: f32, %in_16: f32, %out: f32):
      %116 = arith.subf %in, %in_16 : f32
      linalg.yield %116 : f32
    } -> tensor<?x4x?x?xf32>
    %75 = linalg.generic {indexing_maps = [#map, #map], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%74 : tensor<?x4x?x?xf32>) outs(%67 : tensor<?x4x?x?xf32>) {
    ^bb0(%in: f32, %out: f32):
      %116 = math.exp %in : f32
      linalg.yield %116 : f32
    } -> tensor<?x4x?x?xf32>
    %76 = tensor.empty(%64, %65) : tensor<?x4x?x1xf32>
    %77 = linalg.fill ins(%cst : f32) outs(%76 : tensor<?x4x?x1xf32>) -> tensor<?x4x?x1xf32>
    %78 = linalg.generic {indexing_maps = [#map, #map2], iterator_types = ["parallel", "parallel", "parallel", "reduction"]} ins(%75 : tensor<?x4x?x?xf32>) outs(%77 : tensor<?x4x?x1xf32>) {
    ^bb0(%in: f32, %out: f32):
      %116 = arith.addf %in, %out : f32
      linalg.yield %116 : f32
    } -> tensor<?x4x?x1xf32>
    %79 = linalg.generic {indexing_maps = [#map, #map2, #map], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%75, %78 : tensor<?x4x?x?xf32>, tensor<?x4x?x1xf32>) outs(%67 : tensor<?x4x?x?xf32>) {
    ^bb0(%in: f32, %in_16: f32, %out: f32):
      %116 = arith.divf %in, %in_16 : f32
      linalg.yield %116 : f32
    } -> tensor<?x4x?x?xf32>
    cf.assert %5, "unimplemented: dynamic negative broadcast sizes"
    cf.assert %6, "unimplemented: dynamic negative broadcast sizes"
    cf.assert %24, "unimplemented: dynamic negative broadcast sizes"
    %80 = tensor.empty(%dim_2, %dim, %dim_3) : tensor<?x4x?x?xf32>
    %81 = linalg.generic {indexing_maps = [#map], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} outs(%80 : tensor<?x4x?x?xf32>) {
    ^bb0(%out: f32):
      %116 = linalg.index 0 : index
      %117 = linalg.index 1 : index
      %118 = linalg.index 2 : index
      %119 = linalg.index 3 : index
      %120 = arith.cmpi eq, %64, %c1 : index
      %121 = arith.select %120, %c0, %116 : index
      %122 = arith.cmpi eq, %65, %c1 : index
      %123 = arith.select %122, %c0, %118 : index
      %124 = arith.cmpi eq, %66, %c1 : index
      %125 = arith.select %124, %c0, %119 : index
      %extracted = tensor.extract %79[%121, %117, %123, %125] : tensor<?x4x?x?xf32>
      linalg.yield %extracted : f32
    } -> tensor<?x4x?x?xf32>
    %82 = arith.muli %15, %2 : i64
    %83 = arith.addi %16, %c1_i64 : i64
    %84 = arith.select %29, %15, %82 : i64
    %85 = arith.select %29, %83, %16 : i64
    %86 = arith.cmpi sle, %85, %c1_i64 : i64
    cf.assert %86, "must have at most one inferred (negative) dimension"
    %87 = arith.muli %19, %2 : i64
    %88 = arith.divsi %87, %84 : i64
    %89 = arith.select %9, %88, %4 : i64
    %90 = arith.select %14, %88, %0 : i64
    %91 = arith.select %29, %88, %2 : i64
    %from_elements_10 = tensor.from_elements %89, %90, %91 : tensor<3xi64>
    %reshape_11 = tensor.reshape %81(%from_elements_10) : (tensor<?x4x?x?xf32>, tensor<3xi64>) -> tensor<?x?x?xf32>
    cf.assert %5, "unimplemented: dynamic negative broadcast sizes"
    cf.assert %24, "unimplemented: dynamic negative broadcast sizes"
    %92 = tensor.empty(%dim_2, %dim_3) : tensor<?x4x?x32xf32>
    %93 = linalg.generic {indexing_maps = [#map], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} outs(%92 : tensor<?x4x?x32xf32>) {
    ^bb0(%out: f32):
      %116 = linalg.index 0 : index
      %117 = linalg.index 1 : index
      %118 = linalg.index 2 : index
      %119 = linalg.index 3 : index
      %120 = arith.cmpi eq, %dim_2, %c1 : index
      %121 = arith.select %120, %c0, %116 : index
      %122 = arith.cmpi eq, %dim_3, %c1 : index
      %123 = arith.select %122, %c0, %118 : index
      %extracted = tensor.extract %arg2[%121, %117, %123, %119] : tensor<?x4x?x32xf32>
      linalg.yield %extracted : f32
    } -> tensor<?x4x?x32xf32>
    %94 = arith.muli %10, %2 : i64
    %95 = arith.select %29, %10, %94 : i64
    %96 = arith.muli %95, %c32_i64 : i64
    cf.assert %32, "must have at most one inferred (negative) dimension"
    %97 = arith.muli %4, %2 : i64
    %98 = arith.muli %97, %c32_i64 : i64
    %99 = arith.divsi %98, %96 : i64
    %100 = arith.select %9, %99, %4 : i64
    %101 = arith.select %29, %99, %2 : i64
    %from_elements_12 = tensor.from_elements %100, %101, %c32_i64 : tensor<3xi64>
    %reshape_13 = tensor.reshape %93(%from_elements_12) : (tensor<?x4x?x32xf32>, tensor<3xi64>) -> tensor<?x?x32xf32>
    %102 = arith.index_cast %89 : i64 to index
    %103 = arith.index_cast %90 : i64 to index
    %104 = arith.cmpi eq, %89, %100 : i64
    cf.assert %104, "mismatching contracting dimension"
    %105 = arith.cmpi eq, %91, %101 : i64
    cf.assert %105, "mismatching contracting dimension"
    %106 = tensor.empty(%102, %103) : tensor<?x?x32xf32>
    %107 = linalg.fill ins(%cst : f32) outs(%106 : tensor<?x?x32xf32>) -> tensor<?x?x32xf32>
    %108 = linalg.batch_matmul ins(%reshape_11, %reshape_13 : tensor<?x?x?xf32>, tensor<?x?x32xf32>) outs(%107 : tensor<?x?x32xf32>) -> tensor<?x?x32xf32>
    %109 = arith.muli %51, %c32_i64 : i64
    %110 = arith.cmpi sle, %52, %c1_i64 : i64
    cf.assert %110, "must have at most one inferred (negative) dimension"
    %111 = arith.muli %89, %90 : i64
    %112 = arith.muli %111, %c32_i64 : i64
    %113 = arith.divsi %112, %109 : i64
    %114 = arith.select %45, %113, %1 : i64
    %115 = arith.select %14, %113, %0 : i64
    %from_elements_14 = tensor.from_elements %114, %c4_i64, %115, %c32_i64 : tensor<4xi64>
    %reshape_15 = tensor.reshape %108(%from_elements_14) : (tensor<?x?x32xf32>, tensor<4xi64>) -> tensor<?x4x?x32xf32>
    return %reshape_15 : tensor<?x4x?x32xf32>
  }
}
