// sigmoid_attention (SigmoidAttention: Sigmoid attention, sigmoid(s - log(Lk)) @ v: no softmax.), exported by
// scripts/export_torch_mlir_cases.py (torch 2.15.0+cu132, torch_mlir.fx, output linalg-on-tensors).
// Not raised, and attn-raise-check proves the chain intact.
// RUN: attention-opt %s --attn-raise-pipeline=explain 2>&1 | FileCheck %s
// RUN: attn-raise-check %s --runs=1 --seed=125 | FileCheck %s --check-prefix=PROOF --implicit-check-not=FAIL
// CHECK-NOT: attn.attention
// PROOF: @sigmoid_attention: 0 attn.attention after the raising
// PROOF: run 0 result 0 {{.*}}: PASS
#map = affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>
module {
  func.func @sigmoid_attention(%arg0: tensor<2x4x16x32xf32>, %arg1: tensor<2x4x24x32xf32>, %arg2: tensor<2x4x24x32xf32>) -> tensor<2x4x16x32xf32> {
    %cst = arith.constant 0.000000e+00 : f32
    %cst_0 = arith.constant 1.000000e+00 : f32
    %cst_1 = arith.constant 3.1780538303479458 : f64
    %cst_2 = arith.constant 5.6568542494923806 : f64
    %0 = tensor.empty() : tensor<2x4x32x24xf32>
    %transposed = linalg.transpose ins(%arg1 : tensor<2x4x24x32xf32>) outs(%0 : tensor<2x4x32x24xf32>) permutation = [0, 1, 3, 2] 
    %collapsed = tensor.collapse_shape %arg0 [[0, 1], [2], [3]] : tensor<2x4x16x32xf32> into tensor<8x16x32xf32>
    %collapsed_3 = tensor.collapse_shape %transposed [[0, 1], [2], [3]] : tensor<2x4x32x24xf32> into tensor<8x32x24xf32>
    %1 = tensor.empty() : tensor<8x16x24xf32>
    %2 = linalg.fill ins(%cst : f32) outs(%1 : tensor<8x16x24xf32>) -> tensor<8x16x24xf32>
    %3 = linalg.batch_matmul ins(%collapsed, %collapsed_3 : tensor<8x16x32xf32>, tensor<8x32x24xf32>) outs(%2 : tensor<8x16x24xf32>) -> tensor<8x16x24xf32>
    %expanded = tensor.expand_shape %3 [[0, 1], [2], [3]] output_shape [2, 4, 16, 24] : tensor<8x16x24xf32> into tensor<2x4x16x24xf32>
    %4 = tensor.empty() : tensor<2x4x16x24xf32>
    %5 = linalg.generic {indexing_maps = [#map, #map], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%expanded : tensor<2x4x16x24xf32>) outs(%4 : tensor<2x4x16x24xf32>) {
    ^bb0(%in: f32, %out: f32):
      %11 = arith.truncf %cst_2 : f64 to f32
      %12 = arith.divf %in, %11 : f32
      linalg.yield %12 : f32
    } -> tensor<2x4x16x24xf32>
    %6 = linalg.generic {indexing_maps = [#map, #map], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%5 : tensor<2x4x16x24xf32>) outs(%4 : tensor<2x4x16x24xf32>) {
    ^bb0(%in: f32, %out: f32):
      %11 = arith.truncf %cst_1 : f64 to f32
      %12 = arith.subf %in, %11 : f32
      linalg.yield %12 : f32
    } -> tensor<2x4x16x24xf32>
    %7 = linalg.generic {indexing_maps = [#map, #map], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%6 : tensor<2x4x16x24xf32>) outs(%4 : tensor<2x4x16x24xf32>) {
    ^bb0(%in: f32, %out: f32):
      %11 = arith.negf %in : f32
      %12 = math.exp %11 : f32
      %13 = arith.addf %12, %cst_0 : f32
      %14 = arith.divf %cst_0, %13 : f32
      linalg.yield %14 : f32
    } -> tensor<2x4x16x24xf32>
    %collapsed_4 = tensor.collapse_shape %7 [[0, 1], [2], [3]] : tensor<2x4x16x24xf32> into tensor<8x16x24xf32>
    %collapsed_5 = tensor.collapse_shape %arg2 [[0, 1], [2], [3]] : tensor<2x4x24x32xf32> into tensor<8x24x32xf32>
    %8 = tensor.empty() : tensor<8x16x32xf32>
    %9 = linalg.fill ins(%cst : f32) outs(%8 : tensor<8x16x32xf32>) -> tensor<8x16x32xf32>
    %10 = linalg.batch_matmul ins(%collapsed_4, %collapsed_5 : tensor<8x16x24xf32>, tensor<8x24x32xf32>) outs(%9 : tensor<8x16x32xf32>) -> tensor<8x16x32xf32>
    %expanded_6 = tensor.expand_shape %10 [[0, 1], [2], [3]] output_shape [2, 4, 16, 32] : tensor<8x16x32xf32> into tensor<2x4x16x32xf32>
    return %expanded_6 : tensor<2x4x16x32xf32>
  }
}
