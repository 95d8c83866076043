// einsum_decode_dynamic (CacheLayoutDecodeF32: A cache laid out [B, T, H, D], f32.), exported with a dynamic batch and
// lengths (torch.export Dims) by scripts/export_torch_mlir_cases.py (torch 2.15.0+cu132,
// torch_mlir.fx, output linalg-on-tensors). The raising runs on the dynamic
// function; the proof runs it at several sizes.
// RUN: attention-opt %s --attn-raise-pipeline | FileCheck %s
// RUN: attn-raise-check %s --require-raised --runs=1 --seed=80 '--shapes=2x4x32,2x24x4x32,2x24x4x32->2x4x32' '--shapes=1x4x32,1x7x4x32,1x7x4x32->1x4x32' '--shapes=3x4x32,3x1x4x32,3x1x4x32->3x4x32' '--shapes=2x4x32,2x70x4x32,2x70x4x32->2x4x32' | FileCheck %s --check-prefix=PROOF --implicit-check-not=FAIL
// CHECK: attn.attention {{.*}}tensor<?x4x1x32xf32>, tensor<?x4x?x32xf32>, tensor<?x4x?x32xf32>) {scale = 0.17677{{[0-9]+}} : f32}
// PROOF: @einsum_decode_dynamic at {{.*}}: 1 attn.attention after the raising
// PROOF: run 0 result 0 {{.*}}: PASS
// PROOF: @einsum_decode_dynamic at {{.*}}: 1 attn.attention after the raising
// PROOF: run 0 result 0 {{.*}}: PASS
// PROOF: @einsum_decode_dynamic at {{.*}}: 1 attn.attention after the raising
// PROOF: run 0 result 0 {{.*}}: PASS
// PROOF: @einsum_decode_dynamic at {{.*}}: 1 attn.attention after the raising
// PROOF: run 0 result 0 {{.*}}: PASS
#map = affine_map<()[s0] -> (s0 * 4)>
#map1 = affine_map<(d0, d1, d2) -> (d0, d1, d2)>
#map2 = affine_map<(d0, d1, d2) -> (d0, d1)>
#map3 = affine_map<(d0, d1, d2) -> (d0, d1, 0)>
module {
  func.func @einsum_decode_dynamic(%arg0: tensor<?x4x32xf32>, %arg1: tensor<?x?x4x32xf32>, %arg2: tensor<?x?x4x32xf32>) -> tensor<?x4x32xf32> {
    %c0_i64 = arith.constant 0 : i64
    %c1_i64 = arith.constant 1 : i64
    %c4_i64 = arith.constant 4 : i64
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c4 = arith.constant 4 : index
    %c32_i64 = arith.constant 32 : i64
    %cst = arith.constant 0.000000e+00 : f32
    %cst_0 = arith.constant 0xFF800000 : f32
    %cst_1 = arith.constant 5.6568542494923806 : f64
    %c128_i64 = arith.constant 128 : i64
    %dim = tensor.dim %arg1, %c1 : tensor<?x?x4x32xf32>
    %0 = arith.index_cast %dim : index to i64
    %dim_2 = tensor.dim %arg2, %c0 : tensor<?x?x4x32xf32>
    %1 = arith.index_cast %dim_2 : index to i64
    %dim_3 = tensor.dim %arg1, %c0 : tensor<?x?x4x32xf32>
    %2 = arith.muli %1, %c4_i64 : i64
    %collapsed = tensor.collapse_shape %arg0 [[0, 1], [2]] : tensor<?x4x32xf32> into tensor<?x32xf32>
    %dim_4 = tensor.dim %arg0, %c0 : tensor<?x4x32xf32>
    %3 = affine.apply #map()[%dim_4]
    %expanded = tensor.expand_shape %collapsed [[0], [1, 2]] output_shape [%3, 1, 32] : tensor<?x32xf32> into tensor<?x1x32xf32>
    %4 = tensor.empty(%dim_3, %dim) : tensor<?x4x32x?xf32>
    %transposed = linalg.transpose ins(%arg1 : tensor<?x?x4x32xf32>) outs(%4 : tensor<?x4x32x?xf32>) permutation = [0, 2, 3, 1] 
    %5 = arith.cmpi slt, %2, %c0_i64 : i64
    %6 = arith.select %5, %c1_i64, %2 : i64
    %7 = arith.extui %5 : i1 to i64
    %8 = arith.muli %6, %c32_i64 : i64
    %9 = arith.muli %8, %0 : i64
    %10 = arith.addi %7, %c1_i64 : i64
    %11 = arith.cmpi slt, %0, %c0_i64 : i64
    %12 = arith.select %11, %8, %9 : i64
    %13 = arith.select %11, %10, %7 : i64
    %14 = arith.cmpi sle, %13, %c1_i64 : i64
    cf.assert %14, "must have at most one inferred (negative) dimension"
    %15 = arith.index_cast %dim_3 : index to i64
    %16 = arith.muli %15, %c128_i64 : i64
    %17 = arith.muli %16, %0 : i64
    %18 = arith.divsi %17, %12 : i64
    %19 = arith.select %5, %18, %2 : i64
    %20 = arith.select %11, %18, %0 : i64
    %from_elements = tensor.from_elements %19, %c32_i64, %20 : tensor<3xi64>
    %reshape = tensor.reshape %transposed(%from_elements) : (tensor<?x4x32x?xf32>, tensor<3xi64>) -> tensor<?x32x?xf32>
    %21 = arith.index_cast %20 : i64 to index
    %22 = arith.index_cast %3 : index to i64
    %23 = arith.cmpi eq, %22, %19 : i64
    cf.assert %23, "mismatching contracting dimension"
    %24 = tensor.empty(%3, %21) : tensor<?x1x?xf32>
    %25 = linalg.fill ins(%cst : f32) outs(%24 : tensor<?x1x?xf32>) -> tensor<?x1x?xf32>
    %26 = linalg.batch_matmul ins(%expanded, %reshape : tensor<?x1x32xf32>, tensor<?x32x?xf32>) outs(%25 : tensor<?x1x?xf32>) -> tensor<?x1x?xf32>
    %27 = arith.cmpi slt, %1, %c0_i64 : i64
    %28 = arith.select %27, %c1_i64, %1 : i64
    %29 = arith.extui %27 : i1 to i64
    %30 = arith.muli %28, %c4_i64 : i64
    %31 = arith.muli %30, %0 : i64
    %32 = arith.addi %29, %c1_i64 : i64
    %33 = arith.select %11, %30, %31 : i64
    %34 = arith.select %11, %32, %29 : i64
    %35 = arith.cmpi sle, %34, %c1_i64 : i64
    cf.assert %35, "must have at most one inferred (negative) dimension"
    %36 = arith.muli %22, %20 : i64
    %37 = arith.divsi %36, %33 : i64
    %38 = arith.select %27, %37, %1 : i64
    %39 = arith.select %11, %37, %0 : i64
    %from_elements_5 = tensor.from_elements %38, %c4_i64, %c1_i64, %39 : tensor<4xi64>
    %reshape_6 = tensor.reshape %26(%from_elements_5) : (tensor<?x1x?xf32>, tensor<4xi64>) -> tensor<?x4x1x?xf32>
    %40 = arith.index_cast %38 : i64 to index
    %41 = arith.index_cast %39 : i64 to index
    %42 = tensor.empty(%40, %41) : tensor<?x4x?x1xf32>
    %transposed_7 = linalg.transpose ins(%reshape_6 : tensor<?x4x1x?xf32>) outs(%42 : tensor<?x4x?x1xf32>) permutation = [0, 1, 3, 2] 
    cf.assert %35, "must have at most one inferred (negative) dimension"
    %43 = arith.muli %38, %c4_i64 : i64
    %44 = arith.muli %43, %39 : i64
    %45 = arith.divsi %44, %33 : i64
    %46 = arith.select %27, %45, %1 : i64
    %47 = arith.select %11, %45, %0 : i64
    %from_elements_8 = tensor.from_elements %46, %c4_i64, %47 : tensor<3xi64>
    %reshape_9 = tensor.reshape %transposed_7(%from_elements_8) : (tensor<?x4x?x1xf32>, tensor<3xi64>) -> tensor<?x4x?xf32>
    %48 = arith.index_cast %46 : i64 to index
    %49 = arith.index_cast %47 : i64 to index
    %50 = tensor.empty(%48, %49) : tensor<?x4x?xf32>
    %51 = linalg.generic {indexing_maps = [#map1, #map1], iterator_types = ["parallel", "parallel", "parallel"]} ins(%reshape_9 : tensor<?x4x?xf32>) outs(%50 : tensor<?x4x?xf32>) {
    ^bb0(%in: f32, %out: f32):
      %87 = arith.truncf %cst_1 : f64 to f32
      %88 = arith.divf %in, %87 : f32
      linalg.yield %88 : f32
    } -> tensor<?x4x?xf32>
    %52 = tensor.empty(%48) : tensor<?x4xi64>
    %53 = linalg.fill ins(%c0_i64 : i64) outs(%52 : tensor<?x4xi64>) -> tensor<?x4xi64>
    %54 = tensor.empty(%48) : tensor<?x4xf32>
    %55 = linalg.fill ins(%cst_0 : f32) outs(%54 : tensor<?x4xf32>) -> tensor<?x4xf32>
    %56:2 = linalg.generic {indexing_maps = [#map1, #map2, #map2], iterator_types = ["parallel", "parallel", "reduction"]} ins(%51 : tensor<?x4x?xf32>) outs(%55, %53 : tensor<?x4xf32>, tensor<?x4xi64>) {
    ^bb0(%in: f32, %out: f32, %out_21: i64):
      %87 = linalg.index 2 : index
      %88 = arith.index_cast %87 : index to i64
      %89 = arith.maximumf %in, %out : f32
      %90 = arith.cmpf ogt, %in, %out : f32
      %91 = arith.select %90, %88, %out_21 : i64
      linalg.yield %89, %91 : f32, i64
    } -> (tensor<?x4xf32>, tensor<?x4xi64>)
    %expanded_10 = tensor.expand_shape %56#0 [[0], [1, 2]] output_shape [%48, 4, 1] : tensor<?x4xf32> into tensor<?x4x1xf32>
    %57 = linalg.generic {indexing_maps = [#map1, #map3, #map1], iterator_types = ["parallel", "parallel", "parallel"]} ins(%51, %expanded_10 : tensor<?x4x?xf32>, tensor<?x4x1xf32>) outs(%50 : tensor<?x4x?xf32>) {
    ^bb0(%in: f32, %in_21: f32, %out: f32):
      %87 = arith.subf %in, %in_21 : f32
      linalg.yield %87 : f32
    } -> tensor<?x4x?xf32>
    %58 = linalg.generic {indexing_maps = [#map1, #map1], iterator_types = ["parallel", "parallel", "parallel"]} ins(%57 : tensor<?x4x?xf32>) outs(%50 : tensor<?x4x?xf32>) {
    ^bb0(%in: f32, %out: f32):
      %87 = math.exp %in : f32
      linalg.yield %87 : f32
    } -> tensor<?x4x?xf32>
    %59 = tensor.empty(%48) : tensor<?x4x1xf32>
    %60 = linalg.fill ins(%cst : f32) outs(%59 : tensor<?x4x1xf32>) -> tensor<?x4x1xf32>
    %61 = linalg.generic {indexing_maps = [#map1, #map3], iterator_types = ["parallel", "parallel", "reduction"]} ins(%58 : tensor<?x4x?xf32>) outs(%60 : tensor<?x4x1xf32>) {
    ^bb0(%in: f32, %out: f32):
      %87 = arith.addf %in, %out : f32
      linalg.yield %87 : f32
    } -> tensor<?x4x1xf32>
    %62 = linalg.generic {indexing_maps = [#map1, #map3, #map1], iterator_types = ["parallel", "parallel", "parallel"]} ins(%58, %61 : tensor<?x4x?xf32>, tensor<?x4x1xf32>) outs(%50 : tensor<?x4x?xf32>) {
    ^bb0(%in: f32, %in_21: f32, %out: f32):
      %87 = arith.divf %in, %in_21 : f32
      linalg.yield %87 : f32
    } -> tensor<?x4x?xf32>
    %expanded_11 = tensor.expand_shape %62 [[0], [1], [2, 3]] output_shape [%48, 4, %49, 1] : tensor<?x4x?xf32> into tensor<?x4x?x1xf32>
    %dim_12 = tensor.dim %arg2, %c1 : tensor<?x?x4x32xf32>
    %63 = arith.muli %6, %0 : i64
    %64 = arith.select %11, %6, %63 : i64
    cf.assert %14, "must have at most one inferred (negative) dimension"
    %65 = arith.muli %46, %c4_i64 : i64
    %66 = arith.muli %65, %47 : i64
    %67 = arith.divsi %66, %64 : i64
    %68 = arith.select %5, %67, %2 : i64
    %69 = arith.select %11, %67, %0 : i64
    %from_elements_13 = tensor.from_elements %68, %c1_i64, %69 : tensor<3xi64>
    %reshape_14 = tensor.reshape %expanded_11(%from_elements_13) : (tensor<?x4x?x1xf32>, tensor<3xi64>) -> tensor<?x1x?xf32>
    %70 = tensor.empty(%dim_2, %dim_12) : tensor<?x4x?x32xf32>
    %transposed_15 = linalg.transpose ins(%arg2 : tensor<?x?x4x32xf32>) outs(%70 : tensor<?x4x?x32xf32>) permutation = [0, 2, 1, 3] 
    %71 = arith.muli %64, %c32_i64 : i64
    cf.assert %14, "must have at most one inferred (negative) dimension"
    %72 = arith.muli %1, %c4_i64 : i64
    %73 = arith.index_cast %dim_12 : index to i64
    %74 = arith.muli %72, %73 : i64
    %75 = arith.muli %74, %c32_i64 : i64
    %76 = arith.divsi %75, %71 : i64
    %77 = arith.select %5, %76, %2 : i64
    %78 = arith.select %11, %76, %0 : i64
    %from_elements_16 = tensor.from_elements %77, %78, %c32_i64 : tensor<3xi64>
    %reshape_17 = tensor.reshape %transposed_15(%from_elements_16) : (tensor<?x4x?x32xf32>, tensor<3xi64>) -> tensor<?x?x32xf32>
    %79 = arith.index_cast %68 : i64 to index
    %80 = arith.cmpi eq, %68, %77 : i64
    cf.assert %80, "mismatching contracting dimension"
    %81 = arith.cmpi eq, %69, %78 : i64
    cf.assert %81, "mismatching contracting dimension"
    %82 = tensor.empty(%79) : tensor<?x1x32xf32>
    %83 = linalg.fill ins(%cst : f32) outs(%82 : tensor<?x1x32xf32>) -> tensor<?x1x32xf32>
    %84 = linalg.batch_matmul ins(%reshape_14, %reshape_17 : tensor<?x1x?xf32>, tensor<?x?x32xf32>) outs(%83 : tensor<?x1x32xf32>) -> tensor<?x1x32xf32>
    %85 = arith.divsi %79, %c4 : index
    %expanded_18 = tensor.expand_shape %84 [[0, 1], [2], [3]] output_shape [%85, 4, 1, 32] : tensor<?x1x32xf32> into tensor<?x4x1x32xf32>
    %86 = tensor.empty(%85) : tensor<?x4x32x1xf32>
    %transposed_19 = linalg.transpose ins(%expanded_18 : tensor<?x4x1x32xf32>) outs(%86 : tensor<?x4x32x1xf32>) permutation = [0, 1, 3, 2] 
    %collapsed_20 = tensor.collapse_shape %transposed_19 [[0], [1], [2, 3]] : tensor<?x4x32x1xf32> into tensor<?x4x32xf32>
    return %collapsed_20 : tensor<?x4x32xf32>
  }
}
