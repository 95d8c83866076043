// gqa_repeat_interleave (GqaRepeatInterleave: K and V repeated with repeat_interleave(G, dim=1): head h reads KV head h // G.), exported by
// scripts/export_torch_mlir_cases.py (torch 2.15.0+cu132, torch_mlir.fx, output linalg-on-tensors).
// RUN: attention-opt %s --attn-raise-pipeline | FileCheck %s
// RUN: attn-raise-check %s --require-raised --runs=2 --seed=111 | FileCheck %s --check-prefix=PROOF --implicit-check-not=FAIL
// CHECK: attn.attention {{.*}}tensor<2x2x24x32xf32>) {scale = 0.17677{{[0-9]+}} : f32}
// CHECK-NOT: linalg.
// PROOF: @gqa_repeat_interleave: 1 attn.attention after the raising
// PROOF: run 1 result 0 {{.*}}: PASS
#map = affine_map<(d0, d1, d2, d3, d4) -> (d0, d1, d3, d4)>
#map1 = affine_map<(d0, d1, d2, d3, d4) -> (d0, d1, d2, d3, d4)>
#map2 = affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>
#map3 = affine_map<(d0, d1, d2, d3) -> (d0, d1, d2)>
#map4 = affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, 0)>
module {
  func.func @gqa_repeat_interleave(%arg0: tensor<2x4x16x32xf32>, %arg1: tensor<2x2x24x32xf32>, %arg2: tensor<2x2x24x32xf32>) -> tensor<2x4x16x32xf32> {
    %c0_i64 = arith.constant 0 : i64
    %cst = arith.constant 0.000000e+00 : f32
    %cst_0 = arith.constant 0xFF800000 : f32
    %cst_1 = arith.constant 5.6568542494923806 : f64
    %0 = tensor.empty() : tensor<2x2x2x24x32xf32>
    %1 = linalg.generic {indexing_maps = [#map, #map1], iterator_types = ["parallel", "parallel", "parallel", "parallel", "parallel"]} ins(%arg1 : tensor<2x2x24x32xf32>) outs(%0 : tensor<2x2x2x24x32xf32>) {
    ^bb0(%in: f32, %out: f32):
      linalg.yield %in : f32
    } -> tensor<2x2x2x24x32xf32>
    %collapsed = tensor.collapse_shape %1 [[0], [1, 2], [3], [4]] : tensor<2x2x2x24x32xf32> into tensor<2x4x24x32xf32>
    %2 = linalg.generic {indexing_maps = [#map, #map1], iterator_types = ["parallel", "parallel", "parallel", "parallel", "parallel"]} ins(%arg2 : tensor<2x2x24x32xf32>) outs(%0 : tensor<2x2x2x24x32xf32>) {
    ^bb0(%in: f32, %out: f32):
      linalg.yield %in : f32
    } -> tensor<2x2x2x24x32xf32>
    %3 = tensor.empty() : tensor<2x4x32x24xf32>
    %transposed = linalg.transpose ins(%collapsed : tensor<2x4x24x32xf32>) outs(%3 : tensor<2x4x32x24xf32>) permutation = [0, 1, 3, 2] 
    %collapsed_2 = tensor.collapse_shape %arg0 [[0, 1], [2], [3]] : tensor<2x4x16x32xf32> into tensor<8x16x32xf32>
    %collapsed_3 = tensor.collapse_shape %transposed [[0, 1], [2], [3]] : tensor<2x4x32x24xf32> into tensor<8x32x24xf32>
    %4 = tensor.empty() : tensor<8x16x24xf32>
    %5 = linalg.fill ins(%cst : f32) outs(%4 : tensor<8x16x24xf32>) -> tensor<8x16x24xf32>
    %6 = linalg.batch_matmul ins(%collapsed_2, %collapsed_3 : tensor<8x16x32xf32>, tensor<8x32x24xf32>) outs(%5 : tensor<8x16x24xf32>) -> tensor<8x16x24xf32>
    %expanded = tensor.expand_shape %6 [[0, 1], [2], [3]] output_shape [2, 4, 16, 24] : tensor<8x16x24xf32> into tensor<2x4x16x24xf32>
    %7 = tensor.empty() : tensor<2x4x16x24xf32>
    %8 = linalg.generic {indexing_maps = [#map2, #map2], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%expanded : tensor<2x4x16x24xf32>) outs(%7 : tensor<2x4x16x24xf32>) {
    ^bb0(%in: f32, %out: f32):
      %23 = arith.truncf %cst_1 : f64 to f32
      %24 = arith.divf %in, %23 : f32
      linalg.yield %24 : f32
    } -> tensor<2x4x16x24xf32>
    %9 = tensor.empty() : tensor<2x4x16xi64>
    %10 = linalg.fill ins(%c0_i64 : i64) outs(%9 : tensor<2x4x16xi64>) -> tensor<2x4x16xi64>
    %11 = tensor.empty() : tensor<2x4x16xf32>
    %12 = linalg.fill ins(%cst_0 : f32) outs(%11 : tensor<2x4x16xf32>) -> tensor<2x4x16xf32>
    %13:2 = linalg.generic {indexing_maps = [#map2, #map3, #map3], iterator_types = ["parallel", "parallel", "parallel", "reduction"]} ins(%8 : tensor<2x4x16x24xf32>) outs(%12, %10 : tensor<2x4x16xf32>, tensor<2x4x16xi64>) {
    ^bb0(%in: f32, %out: f32, %out_8: i64):
      %23 = linalg.index 3 : index
      %24 = arith.index_cast %23 : index to i64
      %25 = arith.maximumf %in, %out : f32
      %26 = arith.cmpf ogt, %in, %out : f32
      %27 = arith.select %26, %24, %out_8 : i64
      linalg.yield %25, %27 : f32, i64
    } -> (tensor<2x4x16xf32>, tensor<2x4x16xi64>)
    %expanded_4 = tensor.expand_shape %13#0 [[0], [1], [2, 3]] output_shape [2, 4, 16, 1] : tensor<2x4x16xf32> into tensor<2x4x16x1xf32>
    %14 = linalg.generic {indexing_maps = [#map2, #map4, #map2], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%8, %expanded_4 : tensor<2x4x16x24xf32>, tensor<2x4x16x1xf32>) outs(%7 : tensor<2x4x16x24xf32>) {
    ^bb0(%in: f32, %in_8: f32, %out: f32):
      %23 = arith.subf %in, %in_8 : f32
      linalg.yield %23 : f32
    } -> tensor<2x4x16x24xf32>
    %15 = linalg.generic {indexing_maps = [#map2, #map2], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%14 : tensor<2x4x16x24xf32>) outs(%7 : tensor<2x4x16x24xf32>) {
    ^bb0(%in: f32, %out: f32):
      %23 = math.exp %in : f32
      linalg.yield %23 : f32
    } -> tensor<2x4x16x24xf32>
    %16 = tensor.empty() : tensor<2x4x16x1xf32>
    %17 = linalg.fill ins(%cst : f32) outs(%16 : tensor<2x4x16x1xf32>) -> tensor<2x4x16x1xf32>
    %18 = linalg.generic {indexing_maps = [#map2, #map4], iterator_types = ["parallel", "parallel", "parallel", "reduction"]} ins(%15 : tensor<2x4x16x24xf32>) outs(%17 : tensor<2x4x16x1xf32>) {
    ^bb0(%in: f32, %out: f32):
      %23 = arith.addf %in, %out : f32
      linalg.yield %23 : f32
    } -> tensor<2x4x16x1xf32>
    %19 = linalg.generic {indexing_maps = [#map2, #map4, #map2], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%15, %18 : tensor<2x4x16x24xf32>, tensor<2x4x16x1xf32>) outs(%7 : tensor<2x4x16x24xf32>) {
    ^bb0(%in: f32, %in_8: f32, %out: f32):
      %23 = arith.divf %in, %in_8 : f32
      linalg.yield %23 : f32
    } -> tensor<2x4x16x24xf32>
    %collapsed_5 = tensor.collapse_shape %19 [[0, 1], [2], [3]] : tensor<2x4x16x24xf32> into tensor<8x16x24xf32>
    %collapsed_6 = tensor.collapse_shape %2 [[0, 1, 2], [3], [4]] : tensor<2x2x2x24x32xf32> into tensor<8x24x32xf32>
    %20 = tensor.empty() : tensor<8x16x32xf32>
    %21 = linalg.fill ins(%cst : f32) outs(%20 : tensor<8x16x32xf32>) -> tensor<8x16x32xf32>
    %22 = linalg.batch_matmul ins(%collapsed_5, %collapsed_6 : tensor<8x16x24xf32>, tensor<8x24x32xf32>) outs(%21 : tensor<8x16x32xf32>) -> tensor<8x16x32xf32>
    %expanded_7 = tensor.expand_shape %22 [[0, 1], [2], [3]] output_shape [2, 4, 16, 32] : tensor<8x16x32xf32> into tensor<2x4x16x32xf32>
    return %expanded_7 : tensor<2x4x16x32xf32>
  }
}
