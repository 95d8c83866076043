// einsum_dynamic (EinsumAttention: einsum('bhqd,bhkd->bhqk') and einsum('bhqk,bhkd->bhqd').), exported with a dynamic batch and
// lengths (torch.export Dims) by scripts/export_torch_mlir_cases.py (torch 2.15.0+cu132,
// torch_mlir.fx, output linalg-on-tensors). The raising runs on the dynamic
// function; the proof runs it at several sizes.
// RUN: attention-opt %s --attn-raise-pipeline | FileCheck %s
// RUN: attn-raise-check %s --require-raised --runs=1 --seed=81 '--shapes=2x4x16x32,2x4x24x32,2x4x24x32->2x4x16x32' '--shapes=1x4x1x32,1x4x7x32,1x4x7x32->1x4x1x32' '--shapes=3x4x33x32,3x4x1x32,3x4x1x32->3x4x33x32' '--shapes=2x4x5x32,2x4x70x32,2x4x70x32->2x4x5x32' | FileCheck %s --check-prefix=PROOF --implicit-check-not=FAIL
// CHECK: attn.attention {{.*}}{scale = 0.17677{{[0-9]+}} : f32}
// CHECK-NOT: linalg.
// PROOF: @einsum_dynamic at {{.*}}: 1 attn.attention after the raising
// PROOF: run 0 result 0 {{.*}}: PASS
// PROOF: @einsum_dynamic at {{.*}}: 1 attn.attention after the raising
// PROOF: run 0 result 0 {{.*}}: PASS
// PROOF: @einsum_dynamic at {{.*}}: 1 attn.attention after the raising
// PROOF: run 0 result 0 {{.*}}: PASS
// PROOF: @einsum_dynamic at {{.*}}: 1 attn.attention after the raising
// PROOF: run 0 result 0 {{.*}}: PASS
#map = affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>
#map1 = affine_map<(d0, d1, d2, d3) -> (d0, d1, d2)>
#map2 = affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, 0)>
module {
  func.func @einsum_dynamic(%arg0: tensor<?x4x?x32xf32>, %arg1: tensor<?x4x?x32xf32>, %arg2: tensor<?x4x?x32xf32>) -> tensor<?x4x?x32xf32> {
    %c0_i64 = arith.constant 0 : i64
    %c4_i64 = arith.constant 4 : i64
    %c0 = arith.constant 0 : index
    %c2 = arith.constant 2 : index
    %c1_i64 = arith.constant 1 : i64
    %c32_i64 = arith.constant 32 : i64
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
    %dim_4 = tensor.dim %arg0, %c0 : tensor<?x4x?x32xf32>
    %expanded = tensor.expand_shape %arg0 [[0], [1], [2], [3, 4]] output_shape [%dim_4, 4, %dim, 32, 1] : tensor<?x4x?x32xf32> into tensor<?x4x?x32x1xf32>
    %dim_5 = tensor.dim %arg1, %c0 : tensor<?x4x?x32xf32>
    %dim_6 = tensor.dim %arg1, %c2 : tensor<?x4x?x32xf32>
    %expanded_7 = tensor.expand_shape %arg1 [[0], [1], [2], [3, 4]] output_shape [%dim_5, 4, %dim_6, 32, 1] : tensor<?x4x?x32xf32> into tensor<?x4x?x32x1xf32>
    %3 = arith.muli %1, %c4_i64 : i64
    %4 = arith.cmpi slt, %3, %c0_i64 : i64
    %5 = arith.select %4, %c1_i64, %3 : i64
    %6 = arith.extui %4 : i1 to i64
    %7 = arith.muli %5, %0 : i64
    %8 = arith.addi %6, %c1_i64 : i64
    %9 = arith.cmpi slt, %0, %c0_i64 : i64
    %10 = arith.select %9, %5, %7 : i64
    %11 = arith.select %9, %8, %6 : i64
    %12 = arith.muli %10, %c32_i64 : i64
    %13 = arith.cmpi sle, %11, %c1_i64 : i64
    cf.assert %13, "must have at most one inferred (negative) dimension"
    %14 = arith.index_cast %dim_4 : index to i64
    %15 = arith.muli %14, %c4_i64 : i64
    %16 = arith.muli %15, %0 : i64
    %17 = arith.muli %16, %c32_i64 : i64
    %18 = arith.divsi %17, %12 : i64
    %19 = arith.select %4, %18, %3 : i64
    %20 = arith.select %9, %18, %0 : i64
    %from_elements = tensor.from_elements %19, %20, %c32_i64 : tensor<3xi64>
    %reshape = tensor.reshape %expanded(%from_elements) : (tensor<?x4x?x32x1xf32>, tensor<3xi64>) -> tensor<?x?x32xf32>
    %21 = tensor.empty(%dim_5, %dim_6) : tensor<?x4x32x?x1xf32>
    %transposed = linalg.transpose ins(%expanded_7 : tensor<?x4x?x32x1xf32>) outs(%21 : tensor<?x4x32x?x1xf32>) permutation = [0, 1, 3, 2, 4] 
    %22 = arith.muli %5, %c32_i64 : i64
    %23 = arith.muli %22, %2 : i64
    %24 = arith.cmpi slt, %2, %c0_i64 : i64
    %25 = arith.select %24, %22, %23 : i64
    %26 = arith.select %24, %8, %6 : i64
    %27 = arith.cmpi sle, %26, %c1_i64 : i64
    cf.assert %27, "must have at most one inferred (negative) dimension"
    %28 = arith.index_cast %dim_5 : index to i64
    %29 = arith.muli %28, %c128_i64 : i64
    %30 = arith.index_cast %dim_6 : index to i64
    %31 = arith.muli %29, %30 : i64
    %32 = arith.divsi %31, %25 : i64
    %33 = arith.select %4, %32, %3 : i64
    %34 = arith.select %24, %32, %2 : i64
    %from_elements_8 = tensor.from_elements %33, %c32_i64, %34 : tensor<3xi64>
    %reshape_9 = tensor.reshape %transposed(%from_elements_8) : (tensor<?x4x32x?x1xf32>, tensor<3xi64>) -> tensor<?x32x?xf32>
    %35 = arith.index_cast %19 : i64 to index
    %36 = arith.index_cast %20 : i64 to index
    %37 = arith.index_cast %34 : i64 to index
    %38 = arith.cmpi eq, %19, %33 : i64
    cf.assert %38, "mismatching contracting dimension"
    %39 = tensor.empty(%35, %36, %37) : tensor<?x?x?xf32>
    %40 = linalg.fill ins(%cst : f32) outs(%39 : tensor<?x?x?xf32>) -> tensor<?x?x?xf32>
    %41 = linalg.batch_matmul ins(%reshape, %reshape_9 : tensor<?x?x32xf32>, tensor<?x32x?xf32>) outs(%40 : tensor<?x?x?xf32>) -> tensor<?x?x?xf32>
    %42 = arith.cmpi slt, %1, %c0_i64 : i64
    %43 = arith.select %42, %c1_i64, %1 : i64
    %44 = arith.extui %42 : i1 to i64
    %45 = arith.muli %43, %c4_i64 : i64
    %46 = arith.muli %45, %0 : i64
    %47 = arith.addi %44, %c1_i64 : i64
    %48 = arith.select %9, %45, %46 : i64
    %49 = arith.select %9, %47, %44 : i64
    %50 = arith.muli %48, %2 : i64
    %51 = arith.addi %49, %c1_i64 : i64
    %52 = arith.select %24, %48, %50 : i64
    %53 = arith.select %24, %51, %49 : i64
    %54 = arith.cmpi sle, %53, %c1_i64 : i64
    cf.assert %54, "must have at most one inferred (negative) dimension"
    %55 = arith.muli %19, %20 : i64
    %56 = arith.muli %55, %34 : i64
    %57 = arith.divsi %56, %52 : i64
    %58 = arith.select %42, %57, %1 : i64
    %59 = arith.select %9, %57, %0 : i64
    %60 = arith.select %24, %57, %2 : i64
    %from_elements_10 = tensor.from_elements %58, %c4_i64, %59, %c1_i64, %60 : tensor<5xi64>
    %reshape_11 = tensor.reshape %41(%from_elements_10) : (tensor<?x?x?xf32>, tensor<5xi64>) -> tensor<?x4x?x1x?xf32>
    %61 = arith.index_cast %58 : i64 to index
    %62 = arith.index_cast %59 : i64 to index
    %63 = arith.index_cast %60 : i64 to index
    %64 = tensor.empty(%61, %62, %63) : tensor<?x4x?x?x1xf32>
    %transposed_12 = linalg.transpose ins(%reshape_11 : tensor<?x4x?x1x?xf32>) outs(%64 : tensor<?x4x?x?x1xf32>) permutation = [0, 1, 2, 4, 3] 
    cf.assert %54, "must have at most one inferred (negative) dimension"
    %65 = arith.muli %58, %c4_i64 : i64
    %66 = arith.muli %65, %59 : i64
    %67 = arith.muli %66, %60 : i64
    %68 = arith.divsi %67, %52 : i64
    %69 = arith.select %42, %68, %1 : i64
    %70 = arith.select %9, %68, %0 : i64
    %71 = arith.select %24, %68, %2 : i64
    %from_elements_13 = tensor.from_elements %69, %c4_i64, %70, %71 : tensor<4xi64>
    %reshape_14 = tensor.reshape %transposed_12(%from_elements_13) : (tensor<?x4x?x?x1xf32>, tensor<4xi64>) -> tensor<?x4x?x?xf32>
    %72 = arith.index_cast %69 : i64 to index
    %73 = arith.index_cast %70 : i64 to index
    %74 = arith.index_cast %71 : i64 to index
    %75 = tensor.empty(%72, %73, %74) : tensor<?x4x?x?xf32>
    %76 = linalg.generic {indexing_maps = [#map, #map], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%reshape_14 : tensor<?x4x?x?xf32>) outs(%75 : tensor<?x4x?x?xf32>) {
    ^bb0(%in: f32, %out: f32):
      %132 = arith.truncf %cst_1 : f64 to f32
      %133 = arith.divf %in, %132 : f32
      linalg.yield %133 : f32
    } -> tensor<?x4x?x?xf32>
    %77 = tensor.empty(%72, %73) : tensor<?x4x?xi64>
    %78 = linalg.fill ins(%c0_i64 : i64) outs(%77 : tensor<?x4x?xi64>) -> tensor<?x4x?xi64>
    %79 = tensor.empty(%72, %73) : tensor<?x4x?xf32>
    %80 = linalg.fill ins(%cst_0 : f32) outs(%79 : tensor<?x4x?xf32>) -> tensor<?x4x?xf32>
    %81:2 = linalg.generic {indexing_maps = [#map, #map1, #map1], iterator_types = ["parallel", "parallel", "parallel", "reduction"]} ins(%76 : tensor<?x4x?x?xf32>) outs(%80, %78 : tensor<?x4x?xf32>, tensor<?x4x?xi64>) {
    ^bb0(%in: f32, %out: f32, %out_27: i64):
      %132 = linalg.index 3 : index
      %133 = arith.index_cast %132 : index to i64
      %134 = arith.maximumf %in, %out : f32
      %135 = arith.cmpf ogt, %in, %out : f32
      %136 = arith.select %135, %133, %out_27 : i64
      linalg.yield %134, %136 : f32, i64
    } -> (tensor<?x4x?xf32>, tensor<?x4x?xi64>)
    %expanded_15 = tensor.expand_shape %81#0 [[0], [1], [2, 3]] output_shape [%72, 4, %73, 1] : tensor<?x4x?xf32> into tensor<?x4x?x1xf32>
    %82 = linalg.generic {indexing_maps = [#map, #map2, #map], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%76, %expanded_15 : tensor<?x4x?x?xf32>, tensor<?x4x?x1xf32>) outs(%75 : tensor<?x4x?x?xf32>) {
    ^bb0(%in: f32, %in_27: f32, %out: f32):
      %132 = arith.subf %in, %in_27 : f32
      linalg.yield %132 : f32
    } -> tensor<?x4x?x?xf32>
    %83 = linalg.generic {indexing_maps = [#map, #map], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%82 : tensor<?x4x?x?xf32>) outs(%75 : tensor<?x4x?x?xf32>) {
    ^bb0(%in: f32, %out: f32):
      %132 = math.exp %in : f32
      linalg.yield %132 : f32
    } -> tensor<?x4x?x?xf32>
    %84 = tensor.empty(%72, %73) : tensor<?x4x?x1xf32>
    %85 = linalg.fill ins(%cst : f32) outs(%84 : tensor<?x4x?x1xf32>) -> tensor<?x4x?x1xf32>
    %86 = linalg.generic {indexing_maps = [#map, #map2], iterator_types = ["parallel", "parallel", "parallel", "reduction"]} ins(%83 : tensor<?x4x?x?xf32>) outs(%85 : tensor<?x4x?x1xf32>) {
    ^bb0(%in: f32, %out: f32):
      %132 = arith.addf %in, %out : f32
      linalg.yield %132 : f32
    } -> tensor<?x4x?x1xf32>
    %87 = linalg.generic {indexing_maps = [#map, #map2, #map], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%83, %86 : tensor<?x4x?x?xf32>, tensor<?x4x?x1xf32>) outs(%75 : tensor<?x4x?x?xf32>) {
    ^bb0(%in: f32, %in_27: f32, %out: f32):
      %132 = arith.divf %in, %in_27 : f32
      linalg.yield %132 : f32
    } -> tensor<?x4x?x?xf32>
    %expanded_16 = tensor.expand_shape %87 [[0], [1], [2], [3, 4]] output_shape [%72, 4, %73, %74, 1] : tensor<?x4x?x?xf32> into tensor<?x4x?x?x1xf32>
    %expanded_17 = tensor.expand_shape %arg2 [[0], [1], [2], [3, 4]] output_shape [%dim_2, 4, %dim_3, 32, 1] : tensor<?x4x?x32xf32> into tensor<?x4x?x32x1xf32>
    %88 = arith.muli %10, %2 : i64
    %89 = arith.addi %11, %c1_i64 : i64
    %90 = arith.select %24, %10, %88 : i64
    %91 = arith.select %24, %89, %11 : i64
    %92 = arith.cmpi sle, %91, %c1_i64 : i64
    cf.assert %92, "must have at most one inferred (negative) dimension"
    %93 = arith.muli %69, %c4_i64 : i64
    %94 = arith.muli %93, %70 : i64
    %95 = arith.muli %94, %71 : i64
    %96 = arith.divsi %95, %90 : i64
    %97 = arith.select %4, %96, %3 : i64
    %98 = arith.select %9, %96, %0 : i64
    %99 = arith.select %24, %96, %2 : i64
    %from_elements_18 = tensor.from_elements %97, %98, %99 : tensor<3xi64>
    %reshape_19 = tensor.reshape %expanded_16(%from_elements_18) : (tensor<?x4x?x?x1xf32>, tensor<3xi64>) -> tensor<?x?x?xf32>
    %100 = arith.muli %5, %2 : i64
    %101 = arith.select %24, %5, %100 : i64
    %102 = arith.muli %101, %c32_i64 : i64
    cf.assert %27, "must have at most one inferred (negative) dimension"
    %103 = arith.muli %1, %c4_i64 : i64
    %104 = arith.muli %103, %2 : i64
    %105 = arith.muli %104, %c32_i64 : i64
    %106 = arith.divsi %105, %102 : i64
    %107 = arith.select %4, %106, %3 : i64
    %108 = arith.select %24, %106, %2 : i64
    %from_elements_20 = tensor.from_elements %107, %108, %c32_i64 : tensor<3xi64>
    %reshape_21 = tensor.reshape %expanded_17(%from_elements_20) : (tensor<?x4x?x32x1xf32>, tensor<3xi64>) -> tensor<?x?x32xf32>
    %109 = arith.index_cast %97 : i64 to index
    %110 = arith.index_cast %98 : i64 to index
    %111 = arith.cmpi eq, %97, %107 : i64
    cf.assert %111, "mismatching contracting dimension"
    %112 = arith.cmpi eq, %99, %108 : i64
    cf.assert %112, "mismatching contracting dimension"
    %113 = tensor.empty(%109, %110) : tensor<?x?x32xf32>
    %114 = linalg.fill ins(%cst : f32) outs(%113 : tensor<?x?x32xf32>) -> tensor<?x?x32xf32>
    %115 = linalg.batch_matmul ins(%reshape_19, %reshape_21 : tensor<?x?x?xf32>, tensor<?x?x32xf32>) outs(%114 : tensor<?x?x32xf32>) -> tensor<?x?x32xf32>
    %116 = arith.muli %48, %c32_i64 : i64
    %117 = arith.cmpi sle, %49, %c1_i64 : i64
    cf.assert %117, "must have at most one inferred (negative) dimension"
    %118 = arith.muli %97, %98 : i64
    %119 = arith.muli %118, %c32_i64 : i64
    %120 = arith.divsi %119, %116 : i64
    %121 = arith.select %42, %120, %1 : i64
    %122 = arith.select %9, %120, %0 : i64
    %from_elements_22 = tensor.from_elements %121, %c4_i64, %122, %c1_i64, %c32_i64 : tensor<5xi64>
    %reshape_23 = tensor.reshape %115(%from_elements_22) : (tensor<?x?x32xf32>, tensor<5xi64>) -> tensor<?x4x?x1x32xf32>
    %123 = arith.index_cast %121 : i64 to index
    %124 = arith.index_cast %122 : i64 to index
    %125 = tensor.empty(%123, %124) : tensor<?x4x?x32x1xf32>
    %transposed_24 = linalg.transpose ins(%reshape_23 : tensor<?x4x?x1x32xf32>) outs(%125 : tensor<?x4x?x32x1xf32>) permutation = [0, 1, 2, 4, 3] 
    cf.assert %117, "must have at most one inferred (negative) dimension"
    %126 = arith.muli %121, %c4_i64 : i64
    %127 = arith.muli %126, %122 : i64
    %128 = arith.muli %127, %c32_i64 : i64
    %129 = arith.divsi %128, %116 : i64
    %130 = arith.select %42, %129, %1 : i64
    %131 = arith.select %9, %129, %0 : i64
    %from_elements_25 = tensor.from_elements %130, %c4_i64, %131, %c32_i64 : tensor<4xi64>
    %reshape_26 = tensor.reshape %transposed_24(%from_elements_25) : (tensor<?x4x?x32x1xf32>, tensor<4xi64>) -> tensor<?x4x?x32xf32>
    return %reshape_26 : tensor<?x4x?x32xf32>
  }
}
