// safe_softmax_causal_only (SafeSoftmaxCausalOnly: Causal scores (from aranges) and rows zeroed by any() of a mask that does not mask them.), exported by
// scripts/export_torch_mlir_cases.py (torch 2.15.0+cu132, torch_mlir.fx, output linalg-on-tensors).
// Not raised, and attn-raise-check proves the chain intact.
// RUN: attention-opt %s --attn-raise-pipeline=explain 2>&1 | FileCheck %s
// RUN: attn-raise-check %s --runs=1 --seed=172 | FileCheck %s --check-prefix=PROOF --implicit-check-not=FAIL
// CHECK: remark: attn-fuse: not fused: a select zeroes the rows of the probabilities where any() of a boolean tensor over the keys is false, but no boolean mask tensor excludes the scores
// CHECK-NOT: = attn.attention
// PROOF: @safe_softmax_causal_only: 0 attn.attention after the raising
// PROOF: run 0 result 0 {{.*}}: PASS
#map = affine_map<(d0) -> (d0)>
#map1 = affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>
#map2 = affine_map<(d0, d1) -> (0, d1)>
#map3 = affine_map<(d0, d1) -> (d0, 0)>
#map4 = affine_map<(d0, d1) -> (d0, d1)>
#map5 = affine_map<(d0, d1, d2, d3) -> (d2, d3)>
#map6 = affine_map<(d0, d1, d2, d3) -> ()>
#map7 = affine_map<(d0, d1, d2, d3) -> (d0, d1, d2)>
#map8 = affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, 0)>
#map9 = affine_map<(d0, d1, d2, d3) -> (d0, 0, d2, 0)>
module {
  func.func @safe_softmax_causal_only(%arg0: tensor<2x4x16x32xf32>, %arg1: tensor<2x4x16x32xf32>, %arg2: tensor<2x4x16x32xf32>, %arg3: tensor<2x1x16x16xi1>) -> tensor<2x4x16x32xf32> {
    %c0_i64 = arith.constant 0 : i64
    %cst = arith.constant 0.000000e+00 : f32
    %cst_0 = arith.constant 0xFF800000 : f32
    %false = arith.constant false
    %cst_1 = arith.constant dense<0.000000e+00> : tensor<f32>
    %cst_2 = arith.constant dense<0xFF800000> : tensor<f32>
    %cst_3 = arith.constant 5.6568542494923806 : f64
    %0 = tensor.empty() : tensor<16xi64>
    %1 = linalg.generic {indexing_maps = [#map], iterator_types = ["parallel"]} outs(%0 : tensor<16xi64>) {
    ^bb0(%out: i64):
      %29 = linalg.index 0 : index
      %30 = arith.index_cast %29 : index to i64
      linalg.yield %30 : i64
    } -> tensor<16xi64>
    %expanded = tensor.expand_shape %1 [[0, 1]] output_shape [16, 1] : tensor<16xi64> into tensor<16x1xi64>
    %expanded_4 = tensor.expand_shape %1 [[0, 1]] output_shape [1, 16] : tensor<16xi64> into tensor<1x16xi64>
    %2 = tensor.empty() : tensor<2x4x32x16xf32>
    %transposed = linalg.transpose ins(%arg1 : tensor<2x4x16x32xf32>) outs(%2 : tensor<2x4x32x16xf32>) permutation = [0, 1, 3, 2] 
    %collapsed = tensor.collapse_shape %arg0 [[0, 1], [2], [3]] : tensor<2x4x16x32xf32> into tensor<8x16x32xf32>
    %collapsed_5 = tensor.collapse_shape %transposed [[0, 1], [2], [3]] : tensor<2x4x32x16xf32> into tensor<8x32x16xf32>
    %3 = tensor.empty() : tensor<8x16x16xf32>
    %4 = linalg.fill ins(%cst : f32) outs(%3 : tensor<8x16x16xf32>) -> tensor<8x16x16xf32>
    %5 = linalg.batch_matmul ins(%collapsed, %collapsed_5 : tensor<8x16x32xf32>, tensor<8x32x16xf32>) outs(%4 : tensor<8x16x16xf32>) -> tensor<8x16x16xf32>
    %expanded_6 = tensor.expand_shape %5 [[0, 1], [2], [3]] output_shape [2, 4, 16, 16] : tensor<8x16x16xf32> into tensor<2x4x16x16xf32>
    %6 = tensor.empty() : tensor<2x4x16x16xf32>
    %7 = linalg.generic {indexing_maps = [#map1, #map1], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%expanded_6 : tensor<2x4x16x16xf32>) outs(%6 : tensor<2x4x16x16xf32>) {
    ^bb0(%in: f32, %out: f32):
      %29 = arith.truncf %cst_3 : f64 to f32
      %30 = arith.divf %in, %29 : f32
      linalg.yield %30 : f32
    } -> tensor<2x4x16x16xf32>
    %8 = tensor.empty() : tensor<16x16xi1>
    %9 = linalg.generic {indexing_maps = [#map2, #map3, #map4], iterator_types = ["parallel", "parallel"]} ins(%expanded_4, %expanded : tensor<1x16xi64>, tensor<16x1xi64>) outs(%8 : tensor<16x16xi1>) {
    ^bb0(%in: i64, %in_11: i64, %out: i1):
      %29 = arith.cmpi sgt, %in, %in_11 : i64
      linalg.yield %29 : i1
    } -> tensor<16x16xi1>
    %10 = linalg.generic {indexing_maps = [#map5, #map6, #map1, #map1], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%9, %cst_2, %7 : tensor<16x16xi1>, tensor<f32>, tensor<2x4x16x16xf32>) outs(%6 : tensor<2x4x16x16xf32>) {
    ^bb0(%in: i1, %in_11: f32, %in_12: f32, %out: f32):
      %29 = arith.select %in, %in_11, %in_12 : f32
      linalg.yield %29 : f32
    } -> tensor<2x4x16x16xf32>
    %11 = tensor.empty() : tensor<2x4x16xi64>
    %12 = linalg.fill ins(%c0_i64 : i64) outs(%11 : tensor<2x4x16xi64>) -> tensor<2x4x16xi64>
    %13 = tensor.empty() : tensor<2x4x16xf32>
    %14 = linalg.fill ins(%cst_0 : f32) outs(%13 : tensor<2x4x16xf32>) -> tensor<2x4x16xf32>
    %15:2 = linalg.generic {indexing_maps = [#map1, #map7, #map7], iterator_types = ["parallel", "parallel", "parallel", "reduction"]} ins(%10 : tensor<2x4x16x16xf32>) outs(%14, %12 : tensor<2x4x16xf32>, tensor<2x4x16xi64>) {
    ^bb0(%in: f32, %out: f32, %out_11: i64):
      %29 = linalg.index 3 : index
      %30 = arith.index_cast %29 : index to i64
      %31 = arith.maximumf %in, %out : f32
      %32 = arith.cmpf ogt, %in, %out : f32
      %33 = arith.select %32, %30, %out_11 : i64
      linalg.yield %31, %33 : f32, i64
    } -> (tensor<2x4x16xf32>, tensor<2x4x16xi64>)
    %expanded_7 = tensor.expand_shape %15#0 [[0], [1], [2, 3]] output_shape [2, 4, 16, 1] : tensor<2x4x16xf32> into tensor<2x4x16x1xf32>
    %16 = linalg.generic {indexing_maps = [#map1, #map8, #map1], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%10, %expanded_7 : tensor<2x4x16x16xf32>, tensor<2x4x16x1xf32>) outs(%6 : tensor<2x4x16x16xf32>) {
    ^bb0(%in: f32, %in_11: f32, %out: f32):
      %29 = arith.subf %in, %in_11 : f32
      linalg.yield %29 : f32
    } -> tensor<2x4x16x16xf32>
    %17 = linalg.generic {indexing_maps = [#map1, #map1], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%16 : tensor<2x4x16x16xf32>) outs(%6 : tensor<2x4x16x16xf32>) {
    ^bb0(%in: f32, %out: f32):
      %29 = math.exp %in : f32
      linalg.yield %29 : f32
    } -> tensor<2x4x16x16xf32>
    %18 = tensor.empty() : tensor<2x4x16x1xf32>
    %19 = linalg.fill ins(%cst : f32) outs(%18 : tensor<2x4x16x1xf32>) -> tensor<2x4x16x1xf32>
    %20 = linalg.generic {indexing_maps = [#map1, #map8], iterator_types = ["parallel", "parallel", "parallel", "reduction"]} ins(%17 : tensor<2x4x16x16xf32>) outs(%19 : tensor<2x4x16x1xf32>) {
    ^bb0(%in: f32, %out: f32):
      %29 = arith.addf %in, %out : f32
      linalg.yield %29 : f32
    } -> tensor<2x4x16x1xf32>
    %21 = linalg.generic {indexing_maps = [#map1, #map8, #map1], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%17, %20 : tensor<2x4x16x16xf32>, tensor<2x4x16x1xf32>) outs(%6 : tensor<2x4x16x16xf32>) {
    ^bb0(%in: f32, %in_11: f32, %out: f32):
      %29 = arith.divf %in, %in_11 : f32
      linalg.yield %29 : f32
    } -> tensor<2x4x16x16xf32>
    %22 = tensor.empty() : tensor<2x1x16x1xi1>
    %23 = linalg.fill ins(%false : i1) outs(%22 : tensor<2x1x16x1xi1>) -> tensor<2x1x16x1xi1>
    %24 = linalg.generic {indexing_maps = [#map1, #map8], iterator_types = ["parallel", "parallel", "parallel", "reduction"]} ins(%arg3 : tensor<2x1x16x16xi1>) outs(%23 : tensor<2x1x16x1xi1>) {
    ^bb0(%in: i1, %out: i1):
      %29 = arith.ori %in, %out : i1
      linalg.yield %29 : i1
    } -> tensor<2x1x16x1xi1>
    %25 = linalg.generic {indexing_maps = [#map9, #map1, #map6, #map1], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%24, %21, %cst_1 : tensor<2x1x16x1xi1>, tensor<2x4x16x16xf32>, tensor<f32>) outs(%6 : tensor<2x4x16x16xf32>) {
    ^bb0(%in: i1, %in_11: f32, %in_12: f32, %out: f32):
      %29 = arith.select %in, %in_11, %in_12 : f32
      linalg.yield %29 : f32
    } -> tensor<2x4x16x16xf32>
    %collapsed_8 = tensor.collapse_shape %25 [[0, 1], [2], [3]] : tensor<2x4x16x16xf32> into tensor<8x16x16xf32>
    %collapsed_9 = tensor.collapse_shape %arg2 [[0, 1], [2], [3]] : tensor<2x4x16x32xf32> into tensor<8x16x32xf32>
    %26 = tensor.empty() : tensor<8x16x32xf32>
    %27 = linalg.fill ins(%cst : f32) outs(%26 : tensor<8x16x32xf32>) -> tensor<8x16x32xf32>
    %28 = linalg.batch_matmul ins(%collapsed_8, %collapsed_9 : tensor<8x16x16xf32>, tensor<8x16x32xf32>) outs(%27 : tensor<8x16x32xf32>) -> tensor<8x16x32xf32>
    %expanded_10 = tensor.expand_shape %28 [[0, 1], [2], [3]] output_shape [2, 4, 16, 32] : tensor<8x16x32xf32> into tensor<2x4x16x32xf32>
    return %expanded_10 : tensor<2x4x16x32xf32>
  }
}
