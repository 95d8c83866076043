// neox_baddbmm (NeoxBaddbmm: GPT-NeoX's eager attention: baddbmm on zeros, a causal where with finfo.min, then the padding bias.), exported by
// scripts/export_torch_mlir_cases.py (torch 2.15.0+cu132, torch_mlir.fx, output linalg-on-tensors).
// RUN: attention-opt %s --attn-raise-pipeline="large-negative-is-masked" | FileCheck %s
// RUN: attn-raise-check %s --require-raised --runs=2 --seed=60 --pipeline='attn-raise-pipeline{large-negative-is-masked}' | FileCheck %s --check-prefix=PROOF --implicit-check-not=FAIL
// CHECK: attn.attention {{.*}}mask({{.*}} : tensor<2x1x1x16xf32>) {causal = #attn.causal<top_left>, scale = 0.17677{{[0-9]+}} : f32}
// CHECK-NOT: linalg.
// PROOF: @neox_baddbmm: 1 attn.attention after the raising
// PROOF: run 1 result 0 {{.*}}: PASS
#map = affine_map<(d0, d1, d2) -> (d0, d1, d2)>
#map1 = affine_map<(d0) -> (d0)>
#map2 = affine_map<(d0, d1) -> (0, d1)>
#map3 = affine_map<(d0, d1) -> (d0, 0)>
#map4 = affine_map<(d0, d1) -> (d0, d1)>
#map5 = affine_map<(d0, d1, d2, d3) -> (0, 0, d2, d3)>
#map6 = affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>
#map7 = affine_map<(d0, d1, d2, d3) -> ()>
#map8 = affine_map<(d0, d1, d2, d3) -> (d0, 0, 0, d3)>
#map9 = affine_map<(d0, d1, d2, d3) -> (d0, d1, d2)>
#map10 = affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, 0)>
module {
  func.func @neox_baddbmm(%arg0: tensor<2x4x16x32xf32>, %arg1: tensor<2x4x16x32xf32>, %arg2: tensor<2x4x16x32xf32>, %arg3: tensor<2x1x1x16xf32>) -> tensor<2x4x16x32xf32> {
    %c0_i64 = arith.constant 0 : i64
    %cst = arith.constant 0.000000e+00 : f32
    %cst_0 = arith.constant 0xFF800000 : f32
    %cst_1 = arith.constant dense<true> : tensor<16x16xi1>
    %cst_2 = arith.constant dense<0.000000e+00> : tensor<8x16x16xf32>
    %cst_3 = arith.constant dense<-3.40282347E+38> : tensor<f32>
    %cst_4 = arith.constant 0.17677669529663687 : f64
    %collapsed = tensor.collapse_shape %arg0 [[0, 1], [2], [3]] : tensor<2x4x16x32xf32> into tensor<8x16x32xf32>
    %collapsed_5 = tensor.collapse_shape %arg1 [[0, 1], [2], [3]] : tensor<2x4x16x32xf32> into tensor<8x16x32xf32>
    %0 = tensor.empty() : tensor<8x32x16xf32>
    %transposed = linalg.transpose ins(%collapsed_5 : tensor<8x16x32xf32>) outs(%0 : tensor<8x32x16xf32>) permutation = [0, 2, 1] 
    %1 = tensor.empty() : tensor<8x16x16xf32>
    %2 = linalg.fill ins(%cst : f32) outs(%1 : tensor<8x16x16xf32>) -> tensor<8x16x16xf32>
    %3 = linalg.batch_matmul ins(%collapsed, %transposed : tensor<8x16x32xf32>, tensor<8x32x16xf32>) outs(%2 : tensor<8x16x16xf32>) -> tensor<8x16x16xf32>
    %4 = linalg.generic {indexing_maps = [#map, #map], iterator_types = ["parallel", "parallel", "parallel"]} ins(%3 : tensor<8x16x16xf32>) outs(%1 : tensor<8x16x16xf32>) {
    ^bb0(%in: f32, %out: f32):
      %30 = arith.truncf %cst_4 : f64 to f32
      %31 = arith.mulf %in, %30 : f32
      linalg.yield %31 : f32
    } -> tensor<8x16x16xf32>
    %5 = linalg.generic {indexing_maps = [#map, #map, #map], iterator_types = ["parallel", "parallel", "parallel"]} ins(%cst_2, %4 : tensor<8x16x16xf32>, tensor<8x16x16xf32>) outs(%1 : tensor<8x16x16xf32>) {
    ^bb0(%in: f32, %in_13: f32, %out: f32):
      %30 = arith.addf %in, %in_13 : f32
      linalg.yield %30 : f32
    } -> tensor<8x16x16xf32>
    %expanded = tensor.expand_shape %5 [[0, 1], [2], [3]] output_shape [2, 4, 16, 16] : tensor<8x16x16xf32> into tensor<2x4x16x16xf32>
    %6 = tensor.empty() : tensor<16xi64>
    %7 = linalg.generic {indexing_maps = [#map1], iterator_types = ["parallel"]} outs(%6 : tensor<16xi64>) {
    ^bb0(%out: i64):
      %30 = linalg.index 0 : index
      %31 = arith.index_cast %30 : index to i64
      linalg.yield %31 : i64
    } -> tensor<16xi64>
    %expanded_6 = tensor.expand_shape %7 [[0, 1]] output_shape [1, 16] : tensor<16xi64> into tensor<1x16xi64>
    %expanded_7 = tensor.expand_shape %7 [[0, 1]] output_shape [16, 1] : tensor<16xi64> into tensor<16x1xi64>
    %8 = tensor.empty() : tensor<16x16xi64>
    %9 = linalg.generic {indexing_maps = [#map2, #map3, #map4], iterator_types = ["parallel", "parallel"]} ins(%expanded_6, %expanded_7 : tensor<1x16xi64>, tensor<16x1xi64>) outs(%8 : tensor<16x16xi64>) {
    ^bb0(%in: i64, %in_13: i64, %out: i64):
      %30 = arith.subi %in, %in_13 : i64
      linalg.yield %30 : i64
    } -> tensor<16x16xi64>
    %10 = tensor.empty() : tensor<16x16xi1>
    %11 = linalg.generic {indexing_maps = [#map4, #map4], iterator_types = ["parallel", "parallel"]} ins(%9 : tensor<16x16xi64>) outs(%10 : tensor<16x16xi1>) {
    ^bb0(%in: i64, %out: i1):
      %30 = arith.cmpi sle, %in, %c0_i64 : i64
      linalg.yield %30 : i1
    } -> tensor<16x16xi1>
    %12 = linalg.generic {indexing_maps = [#map4, #map4, #map4], iterator_types = ["parallel", "parallel"]} ins(%11, %cst_1 : tensor<16x16xi1>, tensor<16x16xi1>) outs(%10 : tensor<16x16xi1>) {
    ^bb0(%in: i1, %in_13: i1, %out: i1):
      %30 = arith.andi %in, %in_13 : i1
      linalg.yield %30 : i1
    } -> tensor<16x16xi1>
    %expanded_8 = tensor.expand_shape %12 [[0, 1, 2], [3]] output_shape [1, 1, 16, 16] : tensor<16x16xi1> into tensor<1x1x16x16xi1>
    %13 = tensor.empty() : tensor<2x4x16x16xf32>
    %14 = linalg.generic {indexing_maps = [#map5, #map6, #map7, #map6], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%expanded_8, %expanded, %cst_3 : tensor<1x1x16x16xi1>, tensor<2x4x16x16xf32>, tensor<f32>) outs(%13 : tensor<2x4x16x16xf32>) {
    ^bb0(%in: i1, %in_13: f32, %in_14: f32, %out: f32):
      %30 = arith.select %in, %in_13, %in_14 : f32
      linalg.yield %30 : f32
    } -> tensor<2x4x16x16xf32>
    %15 = linalg.generic {indexing_maps = [#map6, #map8, #map6], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%14, %arg3 : tensor<2x4x16x16xf32>, tensor<2x1x1x16xf32>) outs(%13 : tensor<2x4x16x16xf32>) {
    ^bb0(%in: f32, %in_13: f32, %out: f32):
      %30 = arith.addf %in, %in_13 : f32
      linalg.yield %30 : f32
    } -> tensor<2x4x16x16xf32>
    %16 = tensor.empty() : tensor<2x4x16xi64>
    %17 = linalg.fill ins(%c0_i64 : i64) outs(%16 : tensor<2x4x16xi64>) -> tensor<2x4x16xi64>
    %18 = tensor.empty() : tensor<2x4x16xf32>
    %19 = linalg.fill ins(%cst_0 : f32) outs(%18 : tensor<2x4x16xf32>) -> tensor<2x4x16xf32>
    %20:2 = linalg.generic {indexing_maps = [#map6, #map9, #map9], iterator_types = ["parallel", "parallel", "parallel", "reduction"]} ins(%15 : tensor<2x4x16x16xf32>) outs(%19, %17 : tensor<2x4x16xf32>, tensor<2x4x16xi64>) {
    ^bb0(%in: f32, %out: f32, %out_13: i64):
      %30 = linalg.index 3 : index
      %31 = arith.index_cast %30 : index to i64
      %32 = arith.maximumf %in, %out : f32
      %33 = arith.cmpf ogt, %in, %out : f32
      %34 = arith.select %33, %31, %out_13 : i64
      linalg.yield %32, %34 : f32, i64
    } -> (tensor<2x4x16xf32>, tensor<2x4x16xi64>)
    %expanded_9 = tensor.expand_shape %20#0 [[0], [1], [2, 3]] output_shape [2, 4, 16, 1] : tensor<2x4x16xf32> into tensor<2x4x16x1xf32>
    %21 = linalg.generic {indexing_maps = [#map6, #map10, #map6], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%15, %expanded_9 : tensor<2x4x16x16xf32>, tensor<2x4x16x1xf32>) outs(%13 : tensor<2x4x16x16xf32>) {
    ^bb0(%in: f32, %in_13: f32, %out: f32):
      %30 = arith.subf %in, %in_13 : f32
      linalg.yield %30 : f32
    } -> tensor<2x4x16x16xf32>
    %22 = linalg.generic {indexing_maps = [#map6, #map6], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%21 : tensor<2x4x16x16xf32>) outs(%13 : tensor<2x4x16x16xf32>) {
    ^bb0(%in: f32, %out: f32):
      %30 = math.exp %in : f32
      linalg.yield %30 : f32
    } -> tensor<2x4x16x16xf32>
    %23 = tensor.empty() : tensor<2x4x16x1xf32>
    %24 = linalg.fill ins(%cst : f32) outs(%23 : tensor<2x4x16x1xf32>) -> tensor<2x4x16x1xf32>
    %25 = linalg.generic {indexing_maps = [#map6, #map10], iterator_types = ["parallel", "parallel", "parallel", "reduction"]} ins(%22 : tensor<2x4x16x16xf32>) outs(%24 : tensor<2x4x16x1xf32>) {
    ^bb0(%in: f32, %out: f32):
      %30 = arith.addf %in, %out : f32
      linalg.yield %30 : f32
    } -> tensor<2x4x16x1xf32>
    %26 = linalg.generic {indexing_maps = [#map6, #map10, #map6], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%22, %25 : tensor<2x4x16x16xf32>, tensor<2x4x16x1xf32>) outs(%13 : tensor<2x4x16x16xf32>) {
    ^bb0(%in: f32, %in_13: f32, %out: f32):
      %30 = arith.divf %in, %in_13 : f32
      linalg.yield %30 : f32
    } -> tensor<2x4x16x16xf32>
    %collapsed_10 = tensor.collapse_shape %26 [[0, 1], [2], [3]] : tensor<2x4x16x16xf32> into tensor<8x16x16xf32>
    %collapsed_11 = tensor.collapse_shape %arg2 [[0, 1], [2], [3]] : tensor<2x4x16x32xf32> into tensor<8x16x32xf32>
    %27 = tensor.empty() : tensor<8x16x32xf32>
    %28 = linalg.fill ins(%cst : f32) outs(%27 : tensor<8x16x32xf32>) -> tensor<8x16x32xf32>
    %29 = linalg.batch_matmul ins(%collapsed_10, %collapsed_11 : tensor<8x16x16xf32>, tensor<8x16x32xf32>) outs(%28 : tensor<8x16x32xf32>) -> tensor<8x16x32xf32>
    %expanded_12 = tensor.expand_shape %29 [[0, 1], [2], [3]] output_shape [2, 4, 16, 32] : tensor<8x16x32xf32> into tensor<2x4x16x32xf32>
    return %expanded_12 : tensor<2x4x16x32xf32>
  }
}
