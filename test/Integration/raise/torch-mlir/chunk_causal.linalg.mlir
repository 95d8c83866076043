// chunk_causal (ChunkCausal: A prefill chunk (Lq < Lk): causal to the bottom right, from aranges with an offset.), exported by
// scripts/export_torch_mlir_cases.py (torch 2.15.0+cu132, torch_mlir.fx, output linalg-on-tensors).
// RUN: attention-opt %s --attn-raise-pipeline | FileCheck %s
// RUN: attn-raise-check %s --require-raised --runs=2 --seed=105 | FileCheck %s --check-prefix=PROOF --implicit-check-not=FAIL
// CHECK: attn.attention {{.*}}{causal = #attn.causal<bottom_right>, scale = 0.17677{{[0-9]+}} : f32}
// CHECK-NOT: linalg.
// PROOF: @chunk_causal: 1 attn.attention after the raising
// PROOF: run 1 result 0 {{.*}}: PASS
#map = affine_map<(d0) -> (d0)>
#map1 = affine_map<(d0, d1) -> (d0, d1)>
#map2 = affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>
#map3 = affine_map<(d0, d1) -> (0, d1)>
#map4 = affine_map<(d0, d1) -> (d0, 0)>
#map5 = affine_map<(d0, d1, d2, d3) -> (d2, d3)>
#map6 = affine_map<(d0, d1, d2, d3) -> ()>
#map7 = affine_map<(d0, d1, d2, d3) -> (d0, d1, d2)>
#map8 = affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, 0)>
module {
  func.func @chunk_causal(%arg0: tensor<2x4x16x32xf32>, %arg1: tensor<2x4x24x32xf32>, %arg2: tensor<2x4x24x32xf32>) -> tensor<2x4x16x32xf32> {
    %c8_i64 = arith.constant 8 : i64
    %c0_i64 = arith.constant 0 : i64
    %cst = arith.constant 0.000000e+00 : f32
    %cst_0 = arith.constant 0xFF800000 : f32
    %cst_1 = arith.constant dense<0xFF800000> : tensor<f32>
    %cst_2 = arith.constant 5.6568542494923806 : f64
    %0 = tensor.empty() : tensor<16xi64>
    %1 = linalg.generic {indexing_maps = [#map], iterator_types = ["parallel"]} outs(%0 : tensor<16xi64>) {
    ^bb0(%out: i64):
      %29 = linalg.index 0 : index
      %30 = arith.index_cast %29 : index to i64
      linalg.yield %30 : i64
    } -> tensor<16xi64>
    %expanded = tensor.expand_shape %1 [[0, 1]] output_shape [16, 1] : tensor<16xi64> into tensor<16x1xi64>
    %2 = tensor.empty() : tensor<16x1xi64>
    %3 = linalg.generic {indexing_maps = [#map1, #map1], iterator_types = ["parallel", "parallel"]} ins(%expanded : tensor<16x1xi64>) outs(%2 : tensor<16x1xi64>) {
    ^bb0(%in: i64, %out: i64):
      %29 = arith.addi %in, %c8_i64 : i64
      linalg.yield %29 : i64
    } -> tensor<16x1xi64>
    %4 = tensor.empty() : tensor<24xi64>
    %5 = linalg.generic {indexing_maps = [#map], iterator_types = ["parallel"]} outs(%4 : tensor<24xi64>) {
    ^bb0(%out: i64):
      %29 = linalg.index 0 : index
      %30 = arith.index_cast %29 : index to i64
      linalg.yield %30 : i64
    } -> tensor<24xi64>
    %expanded_3 = tensor.expand_shape %5 [[0, 1]] output_shape [1, 24] : tensor<24xi64> into tensor<1x24xi64>
    %6 = tensor.empty() : tensor<2x4x32x24xf32>
    %transposed = linalg.transpose ins(%arg1 : tensor<2x4x24x32xf32>) outs(%6 : tensor<2x4x32x24xf32>) permutation = [0, 1, 3, 2] 
    %collapsed = tensor.collapse_shape %arg0 [[0, 1], [2], [3]] : tensor<2x4x16x32xf32> into tensor<8x16x32xf32>
    %collapsed_4 = tensor.collapse_shape %transposed [[0, 1], [2], [3]] : tensor<2x4x32x24xf32> into tensor<8x32x24xf32>
    %7 = tensor.empty() : tensor<8x16x24xf32>
    %8 = linalg.fill ins(%cst : f32) outs(%7 : tensor<8x16x24xf32>) -> tensor<8x16x24xf32>
    %9 = linalg.batch_matmul ins(%collapsed, %collapsed_4 : tensor<8x16x32xf32>, tensor<8x32x24xf32>) outs(%8 : tensor<8x16x24xf32>) -> tensor<8x16x24xf32>
    %expanded_5 = tensor.expand_shape %9 [[0, 1], [2], [3]] output_shape [2, 4, 16, 24] : tensor<8x16x24xf32> into tensor<2x4x16x24xf32>
    %10 = tensor.empty() : tensor<2x4x16x24xf32>
    %11 = linalg.generic {indexing_maps = [#map2, #map2], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%expanded_5 : tensor<2x4x16x24xf32>) outs(%10 : tensor<2x4x16x24xf32>) {
    ^bb0(%in: f32, %out: f32):
      %29 = arith.truncf %cst_2 : f64 to f32
      %30 = arith.divf %in, %29 : f32
      linalg.yield %30 : f32
    } -> tensor<2x4x16x24xf32>
    %12 = tensor.empty() : tensor<16x24xi1>
    %13 = linalg.generic {indexing_maps = [#map3, #map4, #map1], iterator_types = ["parallel", "parallel"]} ins(%expanded_3, %3 : tensor<1x24xi64>, tensor<16x1xi64>) outs(%12 : tensor<16x24xi1>) {
    ^bb0(%in: i64, %in_10: i64, %out: i1):
      %29 = arith.cmpi sgt, %in, %in_10 : i64
      linalg.yield %29 : i1
    } -> tensor<16x24xi1>
    %14 = linalg.generic {indexing_maps = [#map5, #map6, #map2, #map2], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%13, %cst_1, %11 : tensor<16x24xi1>, tensor<f32>, tensor<2x4x16x24xf32>) outs(%10 : tensor<2x4x16x24xf32>) {
    ^bb0(%in: i1, %in_10: f32, %in_11: f32, %out: f32):
      %29 = arith.select %in, %in_10, %in_11 : f32
      linalg.yield %29 : f32
    } -> tensor<2x4x16x24xf32>
    %15 = tensor.empty() : tensor<2x4x16xi64>
    %16 = linalg.fill ins(%c0_i64 : i64) outs(%15 : tensor<2x4x16xi64>) -> tensor<2x4x16xi64>
    %17 = tensor.empty() : tensor<2x4x16xf32>
    %18 = linalg.fill ins(%cst_0 : f32) outs(%17 : tensor<2x4x16xf32>) -> tensor<2x4x16xf32>
    %19:2 = linalg.generic {indexing_maps = [#map2, #map7, #map7], iterator_types = ["parallel", "parallel", "parallel", "reduction"]} ins(%14 : tensor<2x4x16x24xf32>) outs(%18, %16 : tensor<2x4x16xf32>, tensor<2x4x16xi64>) {
    ^bb0(%in: f32, %out: f32, %out_10: i64):
      %29 = linalg.index 3 : index
      %30 = arith.index_cast %29 : index to i64
      %31 = arith.maximumf %in, %out : f32
      %32 = arith.cmpf ogt, %in, %out : f32
      %33 = arith.select %32, %30, %out_10 : i64
      linalg.yield %31, %33 : f32, i64
    } -> (tensor<2x4x16xf32>, tensor<2x4x16xi64>)
    %expanded_6 = tensor.expand_shape %19#0 [[0], [1], [2, 3]] output_shape [2, 4, 16, 1] : tensor<2x4x16xf32> into tensor<2x4x16x1xf32>
    %20 = linalg.generic {indexing_maps = [#map2, #map8, #map2], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%14, %expanded_6 : tensor<2x4x16x24xf32>, tensor<2x4x16x1xf32>) outs(%10 : tensor<2x4x16x24xf32>) {
    ^bb0(%in: f32, %in_10: f32, %out: f32):
      %29 = arith.subf %in, %in_10 : f32
      linalg.yield %29 : f32
    } -> tensor<2x4x16x24xf32>
    %21 = linalg.generic {indexing_maps = [#map2, #map2], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%20 : tensor<2x4x16x24xf32>) outs(%10 : tensor<2x4x16x24xf32>) {
    ^bb0(%in: f32, %out: f32):
      %29 = math.exp %in : f32
      linalg.yield %29 : f32
    } -> tensor<2x4x16x24xf32>
    %22 = tensor.empty() : tensor<2x4x16x1xf32>
    %23 = linalg.fill ins(%cst : f32) outs(%22 : tensor<2x4x16x1xf32>) -> tensor<2x4x16x1xf32>
    %24 = linalg.generic {indexing_maps = [#map2, #map8], iterator_types = ["parallel", "parallel", "parallel", "reduction"]} ins(%21 : tensor<2x4x16x24xf32>) outs(%23 : tensor<2x4x16x1xf32>) {
    ^bb0(%in: f32, %out: f32):
      %29 = arith.addf %in, %out : f32
      linalg.yield %29 : f32
    } -> tensor<2x4x16x1xf32>
    %25 = linalg.generic {indexing_maps = [#map2, #map8, #map2], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%21, %24 : tensor<2x4x16x24xf32>, tensor<2x4x16x1xf32>) outs(%10 : tensor<2x4x16x24xf32>) {
    ^bb0(%in: f32, %in_10: f32, %out: f32):
      %29 = arith.divf %in, %in_10 : f32
      linalg.yield %29 : f32
    } -> tensor<2x4x16x24xf32>
    %collapsed_7 = tensor.collapse_shape %25 [[0, 1], [2], [3]] : tensor<2x4x16x24xf32> into tensor<8x16x24xf32>
    %collapsed_8 = tensor.collapse_shape %arg2 [[0, 1], [2], [3]] : tensor<2x4x24x32xf32> into tensor<8x24x32xf32>
    %26 = tensor.empty() : tensor<8x16x32xf32>
    %27 = linalg.fill ins(%cst : f32) outs(%26 : tensor<8x16x32xf32>) -> tensor<8x16x32xf32>
    %28 = linalg.batch_matmul ins(%collapsed_7, %collapsed_8 : tensor<8x16x24xf32>, tensor<8x24x32xf32>) outs(%27 : tensor<8x16x32xf32>) -> tensor<8x16x32xf32>
    %expanded_9 = tensor.expand_shape %28 [[0, 1], [2], [3]] output_shape [2, 4, 16, 32] : tensor<8x16x32xf32> into tensor<2x4x16x32xf32>
    return %expanded_9 : tensor<2x4x16x32xf32>
  }
}
