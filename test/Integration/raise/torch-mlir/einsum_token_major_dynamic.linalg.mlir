// einsum_token_major_dynamic (EinsumTokenMajor: einsum on token-major [B, L, H, D] tensors (the heads not split out first).), exported with a dynamic batch and
// lengths (torch.export Dims) by scripts/export_torch_mlir_cases.py (torch 2.15.0+cu132,
// torch_mlir.fx, output linalg-on-tensors). The raising runs on the dynamic
// function; the proof runs it at several sizes.
// RUN: attention-opt %s --attn-raise-pipeline | FileCheck %s
// RUN: attn-raise-check %s --require-raised --runs=1 --seed=82 '--shapes=2x16x4x32,2x24x4x32,2x24x4x32->2x16x4x32' '--shapes=1x1x4x32,1x7x4x32,1x7x4x32->1x1x4x32' '--shapes=3x33x4x32,3x1x4x32,3x1x4x32->3x33x4x32' '--shapes=2x5x4x32,2x70x4x32,2x70x4x32->2x5x4x32' | FileCheck %s --check-prefix=PROOF --implicit-check-not=FAIL
// CHECK: attn.attention {{.*}}{scale = 0.17677{{[0-9]+}} : f32}
// PROOF: @einsum_token_major_dynamic at {{.*}}: 1 attn.attention after the raising
// PROOF: run 0 result 0 {{.*}}: PASS
// PROOF: @einsum_token_major_dynamic at {{.*}}: 1 attn.attention after the raising
// PROOF: run 0 result 0 {{.*}}: PASS
// PROOF: @einsum_token_major_dynamic at {{.*}}: 1 attn.attention after the raising
// PROOF: run 0 result 0 {{.*}}: PASS
// PROOF: @einsum_token_major_dynamic at {{.*}}: 1 attn.attention after the raising
// PROOF: run 0 result 0 {{.*}}: PASS
#map = affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>
#map1 = affine_map<(d0, d1, d2, d3) -> (d0, d1, d2)>
#map2 = affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, 0)>
module {
  func.func @einsum_token_major_dynamic(%arg0: tensor<?x?x4x32xf32>, %arg1: tensor<?x?x4x32xf32>, %arg2: tensor<?x?x4x32xf32>) -> tensor<?x?x4x32xf32> {
    %c0_i64 = arith.constant 0 : i64
    %c1_i64 = arith.constant 1 : i64
    %c4_i64 = arith.constant 4 : i64
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c32_i64 = arith.constant 32 : i64
    %cst = arith.constant 0.000000e+00 : f32
    %cst_0 = arith.constant 0xFF800000 : f32
    %cst_1 = arith.constant 5.6568542494923806 : f64
    %c128_i64 = arith.constant 128 : i64
    %dim = tensor.dim %arg0, %c1 : tensor<?x?x4x32xf32>
    %0 = arith.index_cast %dim : index to i64
    %dim_2 = tensor.dim %arg1, %c1 : tensor<?x?x4x32xf32>
    %1 = arith.index_cast %dim_2 : index to i64
    %dim_3 = tensor.dim %arg2, %c0 : tensor<?x?x4x32xf32>
    %2 = arith.index_cast %dim_3 : index to i64
    %dim_4 = tensor.dim %arg0, %c0 : tensor<?x?x4x32xf32>
    %expanded = tensor.expand_shape %arg0 [[0], [1], [2], [3, 4]] output_shape [%dim_4, %dim, 4, 32, 1] : tensor<?x?x4x32xf32> into tensor<?x?x4x32x1xf32>
    %dim_5 = tensor.dim %arg1, %c0 : tensor<?x?x4x32xf32>
    %expanded_6 = tensor.expand_shape %arg1 [[0], [1], [2], [3, 4]] output_shape [%dim_5, %dim_2, 4, 32, 1] : tensor<?x?x4x32xf32> into tensor<?x?x4x32x1xf32>
    %3 = arith.muli %2, %c4_i64 : i64
    %4 = tensor.empty(%dim_4, %dim) : tensor<?x4x?x32x1xf32>
    %transposed = linalg.transpose ins(%expanded : tensor<?x?x4x32x1xf32>) outs(%4 : tensor<?x4x?x32x1xf32>) permutation = [0, 2, 1, 3, 4] 
    %5 = arith.cmpi slt, %3, %c0_i64 : i64
    %6 = arith.select %5, %c1_i64, %3 : i64
    %7 = arith.extui %5 : i1 to i64
    %8 = arith.muli %6, %0 : i64
    %9 = arith.addi %7, %c1_i64 : i64
    %10 = arith.cmpi slt, %0, %c0_i64 : i64
    %11 = arith.select %10, %6, %8 : i64
    %12 = arith.select %10, %9, %7 : i64
    %13 = arith.muli %11, %c32_i64 : i64
    %14 = arith.cmpi sle, %12, %c1_i64 : i64
    cf.assert %14, "must have at most one inferred (negative) dimension"
    %15 = arith.index_cast %dim_4 : index to i64
    %16 = arith.muli %15, %c4_i64 : i64
    %17 = arith.muli %16, %0 : i64
    %18 = arith.muli %17, %c32_i64 : i64
    %19 = arith.divsi %18, %13 : i64
    %20 = arith.select %5, %19, %3 : i64
    %21 = arith.select %10, %19, %0 : i64
    %from_elements = tensor.from_elements %20, %21, %c32_i64 : tensor<3xi64>
    %reshape = tensor.reshape %transposed(%from_elements) : (tensor<?x4x?x32x1xf32>, tensor<3xi64>) -> tensor<?x?x32xf32>
    %22 = tensor.empty(%dim_5, %dim_2) : tensor<?x4x32x?x1xf32>
    %transposed_7 = linalg.transpose ins(%expanded_6 : tensor<?x?x4x32x1xf32>) outs(%22 : tensor<?x4x32x?x1xf32>) permutation = [0, 2, 3, 1, 4] 
    %23 = arith.muli %6, %c32_i64 : i64
    %24 = arith.muli %23, %1 : i64
    %25 = arith.cmpi slt, %1, %c0_i64 : i64
    %26 = arith.select %25, %23, %24 : i64
    %27 = arith.select %25, %9, %7 : i64
    %28 = arith.cmpi sle, %27, %c1_i64 : i64
    cf.assert %28, "must have at most one inferred (negative) dimension"
    %29 = arith.index_cast %dim_5 : index to i64
    %30 = arith.muli %29, %c128_i64 : i64
    %31 = arith.muli %30, %1 : i64
    %32 = arith.divsi %31, %26 : i64
    %33 = arith.select %5, %32, %3 : i64
    %34 = arith.select %25, %32, %1 : i64
    %from_elements_8 = tensor.from_elements %33, %c32_i64, %34 : tensor<3xi64>
    %reshape_9 = tensor.reshape %transposed_7(%from_elements_8) : (tensor<?x4x32x?x1xf32>, tensor<3xi64>) -> tensor<?x32x?xf32>
    %35 = arith.index_cast %20 : i64 to index
    %36 = arith.index_cast %21 : i64 to index
    %37 = arith.index_cast %34 : i64 to index
    %38 = arith.cmpi eq, %20, %33 : i64
    cf.assert %38, "mismatching contracting dimension"
    %39 = tensor.empty(%35, %36, %37) : tensor<?x?x?xf32>
    %40 = linalg.fill ins(%cst : f32) outs(%39 : tensor<?x?x?xf32>) -> tensor<?x?x?xf32>
    %41 = linalg.batch_matmul ins(%reshape, %reshape_9 : tensor<?x?x32xf32>, tensor<?x32x?xf32>) outs(%40 : tensor<?x?x?xf32>) -> tensor<?x?x?xf32>
    %42 = arith.cmpi slt, %2, %c0_i64 : i64
    %43 = arith.select %42, %c1_i64, %2 : i64
    %44 = arith.extui %42 : i1 to i64
    %45 = arith.muli %43, %c4_i64 : i64
    %46 = arith.muli %45, %0 : i64
    %47 = arith.addi %44, %c1_i64 : i64
    %48 = arith.select %10, %45, %46 : i64
    %49 = arith.select %10, %47, %44 : i64
    %50 = arith.muli %48, %1 : i64
    %51 = arith.addi %49, %c1_i64 : i64
    %52 = arith.select %25, %48, %50 : i64
    %53 = arith.select %25, %51, %49 : i64
    %54 = arith.cmpi sle, %53, %c1_i64 : i64
    cf.assert %54, "must have at most one inferred (negative) dimension"
    %55 = arith.muli %20, %21 : i64
    %56 = arith.muli %55, %34 : i64
    %57 = arith.divsi %56, %52 : i64
    %58 = arith.select %42, %57, %2 : i64
    %59 = arith.select %10, %57, %0 : i64
    %60 = arith.select %25, %57, %1 : i64
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
    %69 = arith.select %42, %68, %2 : i64
    %70 = arith.select %10, %68, %0 : i64
    %71 = arith.select %25, %68, %1 : i64
    %from_elements_13 = tensor.from_elements %69, %c4_i64, %70, %71 : tensor<4xi64>
    %reshape_14 = tensor.reshape %transposed_12(%from_elements_13) : (tensor<?x4x?x?x1xf32>, tensor<4xi64>) -> tensor<?x4x?x?xf32>
    %72 = arith.index_cast %69 : i64 to index
    %73 = arith.index_cast %70 : i64 to index
    %74 = arith.index_cast %71 : i64 to index
    %75 = tensor.empty(%72, %73, %74) : tensor<?x4x?x?xf32>
    %76 = linalg.generic {indexing_maps = [#map, #map], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%reshape_14 : tensor<?x4x?x?xf32>) outs(%75 : tensor<?x4x?x?xf32>) {
    ^bb0(%in: f32, %out: f32):
      %136 = arith.truncf %cst_1 : f64 to f32
      %137 = arith.divf %in, %136 : f32
      linalg.yield %137 : f32
    } -> tensor<?x4x?x?xf32>
    %77 = tensor.empty(%72, %73) : tensor<?x4x?xi64>
    %78 = linalg.fill ins(%c0_i64 : i64) outs(%77 : tensor<?x4x?xi64>) -> tensor<?x4x?xi64>
    %79 = tensor.empty(%72, %73) : tensor<?x4x?xf32>
    %80 = linalg.fill ins(%cst_0 : f32) outs(%79 : tensor<?x4x?xf32>) -> tensor<?x4x?xf32>
    %81:2 = linalg.generic {indexing_maps = [#map, #map1, #map1], iterator_types = ["parallel", "parallel", "parallel", "reduction"]} ins(%76 : tensor<?x4x?x?xf32>) outs(%80, %78 : tensor<?x4x?xf32>, tensor<?x4x?xi64>) {
    ^bb0(%in: f32, %out: f32, %out_29: i64):
      %136 = linalg.index 3 : index
      %137 = arith.index_cast %136 : index to i64
      %138 = arith.maximumf %in, %out : f32
      %139 = arith.cmpf ogt, %in, %out : f32
      %140 = arith.select %139, %137, %out_29 : i64
      linalg.yield %138, %140 : f32, i64
    } -> (tensor<?x4x?xf32>, tensor<?x4x?xi64>)
    %expanded_15 = tensor.expand_shape %81#0 [[0], [1], [2, 3]] output_shape [%72, 4, %73, 1] : tensor<?x4x?xf32> into tensor<?x4x?x1xf32>
    %82 = linalg.generic {indexing_maps = [#map, #map2, #map], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%76, %expanded_15 : tensor<?x4x?x?xf32>, tensor<?x4x?x1xf32>) outs(%75 : tensor<?x4x?x?xf32>) {
    ^bb0(%in: f32, %in_29: f32, %out: f32):
      %136 = arith.subf %in, %in_29 : f32
      linalg.yield %136 : f32
    } -> tensor<?x4x?x?xf32>
    %83 = linalg.generic {indexing_maps = [#map, #map], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%82 : tensor<?x4x?x?xf32>) outs(%75 : tensor<?x4x?x?xf32>) {
    ^bb0(%in: f32, %out: f32):
      %136 = math.exp %in : f32
      linalg.yield %136 : f32
    } -> tensor<?x4x?x?xf32>
    %84 = tensor.empty(%72, %73) : tensor<?x4x?x1xf32>
    %85 = linalg.fill ins(%cst : f32) outs(%84 : tensor<?x4x?x1xf32>) -> tensor<?x4x?x1xf32>
    %86 = linalg.generic {indexing_maps = [#map, #map2], iterator_types = ["parallel", "parallel", "parallel", "reduction"]} ins(%83 : tensor<?x4x?x?xf32>) outs(%85 : tensor<?x4x?x1xf32>) {
    ^bb0(%in: f32, %out: f32):
      %136 = arith.addf %in, %out : f32
      linalg.yield %136 : f32
    } -> tensor<?x4x?x1xf32>
    %87 = linalg.generic {indexing_maps = [#map, #map2, #map], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%83, %86 : tensor<?x4x?x?xf32>, tensor<?x4x?x1xf32>) outs(%75 : tensor<?x4x?x?xf32>) {
    ^bb0(%in: f32, %in_29: f32, %out: f32):
      %136 = arith.divf %in, %in_29 : f32
      linalg.yield %136 : f32
    } -> tensor<?x4x?x?xf32>
    %expanded_16 = tensor.expand_shape %87 [[0], [1], [2], [3, 4]] output_shape [%72, 4, %73, %74, 1] : tensor<?x4x?x?xf32> into tensor<?x4x?x?x1xf32>
    %dim_17 = tensor.dim %arg2, %c1 : tensor<?x?x4x32xf32>
    %expanded_18 = tensor.expand_shape %arg2 [[0], [1], [2], [3, 4]] output_shape [%dim_3, %dim_17, 4, 32, 1] : tensor<?x?x4x32xf32> into tensor<?x?x4x32x1xf32>
    %88 = arith.muli %11, %1 : i64
    %89 = arith.addi %12, %c1_i64 : i64
    %90 = arith.select %25, %11, %88 : i64
    %91 = arith.select %25, %89, %12 : i64
    %92 = arith.cmpi sle, %91, %c1_i64 : i64
    cf.assert %92, "must have at most one inferred (negative) dimension"
    %93 = arith.muli %69, %c4_i64 : i64
    %94 = arith.muli %93, %70 : i64
    %95 = arith.muli %94, %71 : i64
    %96 = arith.divsi %95, %90 : i64
    %97 = arith.select %5, %96, %3 : i64
    %98 = arith.select %10, %96, %0 : i64
    %99 = arith.select %25, %96, %1 : i64
    %from_elements_19 = tensor.from_elements %97, %98, %99 : tensor<3xi64>
    %reshape_20 = tensor.reshape %expanded_16(%from_elements_19) : (tensor<?x4x?x?x1xf32>, tensor<3xi64>) -> tensor<?x?x?xf32>
    %100 = tensor.empty(%dim_3, %dim_17) : tensor<?x4x?x32x1xf32>
    %transposed_21 = linalg.transpose ins(%expanded_18 : tensor<?x?x4x32x1xf32>) outs(%100 : tensor<?x4x?x32x1xf32>) permutation = [0, 2, 1, 3, 4] 
    %101 = arith.muli %6, %1 : i64
    %102 = arith.select %25, %6, %101 : i64
    %103 = arith.muli %102, %c32_i64 : i64
    cf.assert %28, "must have at most one inferred (negative) dimension"
    %104 = arith.muli %2, %c4_i64 : i64
    %105 = arith.index_cast %dim_17 : index to i64
    %106 = arith.muli %104, %105 : i64
    %107 = arith.muli %106, %c32_i64 : i64
    %108 = arith.divsi %107, %103 : i64
    %109 = arith.select %5, %108, %3 : i64
    %110 = arith.select %25, %108, %1 : i64
    %from_elements_22 = tensor.from_elements %109, %110, %c32_i64 : tensor<3xi64>
    %reshape_23 = tensor.reshape %transposed_21(%from_elements_22) : (tensor<?x4x?x32x1xf32>, tensor<3xi64>) -> tensor<?x?x32xf32>
    %111 = arith.index_cast %97 : i64 to index
    %112 = arith.index_cast %98 : i64 to index
    %113 = arith.cmpi eq, %97, %109 : i64
    cf.assert %113, "mismatching contracting dimension"
    %114 = arith.cmpi eq, %99, %110 : i64
    cf.assert %114, "mismatching contracting dimension"
    %115 = tensor.empty(%111, %112) : tensor<?x?x32xf32>
    %116 = linalg.fill ins(%cst : f32) outs(%115 : tensor<?x?x32xf32>) -> tensor<?x?x32xf32>
    %117 = linalg.batch_matmul ins(%reshape_20, %reshape_23 : tensor<?x?x?xf32>, tensor<?x?x32xf32>) outs(%116 : tensor<?x?x32xf32>) -> tensor<?x?x32xf32>
    %118 = arith.muli %48, %c32_i64 : i64
    %119 = arith.cmpi sle, %49, %c1_i64 : i64
    cf.assert %119, "must have at most one inferred (negative) dimension"
    %120 = arith.muli %97, %98 : i64
    %121 = arith.muli %120, %c32_i64 : i64
    %122 = arith.divsi %121, %118 : i64
    %123 = arith.select %42, %122, %2 : i64
    %124 = arith.select %10, %122, %0 : i64
    %from_elements_24 = tensor.from_elements %123, %c4_i64, %124, %c1_i64, %c32_i64 : tensor<5xi64>
    %reshape_25 = tensor.reshape %117(%from_elements_24) : (tensor<?x?x32xf32>, tensor<5xi64>) -> tensor<?x4x?x1x32xf32>
    %125 = arith.index_cast %123 : i64 to index
    %126 = arith.index_cast %124 : i64 to index
    %127 = tensor.empty(%125, %126) : tensor<?x?x4x32x1xf32>
    %transposed_26 = linalg.transpose ins(%reshape_25 : tensor<?x4x?x1x32xf32>) outs(%127 : tensor<?x?x4x32x1xf32>) permutation = [0, 2, 1, 4, 3] 
    %128 = arith.muli %43, %0 : i64
    %129 = arith.select %10, %43, %128 : i64
    %130 = arith.muli %129, %c128_i64 : i64
    cf.assert %119, "must have at most one inferred (negative) dimension"
    %131 = arith.muli %123, %124 : i64
    %132 = arith.muli %131, %c128_i64 : i64
    %133 = arith.divsi %132, %130 : i64
    %134 = arith.select %42, %133, %2 : i64
    %135 = arith.select %10, %133, %0 : i64
    %from_elements_27 = tensor.from_elements %134, %135, %c4_i64, %c32_i64 : tensor<4xi64>
    %reshape_28 = tensor.reshape %transposed_26(%from_elements_27) : (tensor<?x?x4x32x1xf32>, tensor<4xi64>) -> tensor<?x?x4x32xf32>
    return %reshape_28 : tensor<?x?x4x32xf32>
  }
}
