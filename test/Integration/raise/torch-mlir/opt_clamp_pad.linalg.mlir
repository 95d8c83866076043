// opt_clamp_pad (OptClampPad: OPT's (and BioGPT's) attention: bmm on [B*H, L, D], a padding mask of -inf added, then torch.max(w, finfo.min).), exported by
// scripts/export_torch_mlir_cases.py (torch 2.15.0+cu132, torch_mlir.fx, output linalg-on-tensors).
// RUN: attention-opt %s --attn-raise-pipeline="large-negative-is-masked" | FileCheck %s
// RUN: attn-raise-check %s --require-raised --runs=2 --seed=129 --pipeline='attn-raise-pipeline{large-negative-is-masked}' | FileCheck %s --check-prefix=PROOF --implicit-check-not=FAIL
// CHECK: attn.attention {{.*}}mask({{.*}} : tensor<2x1x1x24xi1>) {scale = 0.17677{{[0-9]+}} : f32}
// PROOF: @opt_clamp_pad: 1 attn.attention after the raising
// PROOF: run 1 result 0 {{.*}}: PASS
#map = affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>
#map1 = affine_map<(d0, d1, d2, d3) -> ()>
#map2 = affine_map<(d0, d1, d2) -> (d0, d1, d2)>
#map3 = affine_map<(d0, d1, d2, d3) -> (d0, 0, 0, d3)>
#map4 = affine_map<(d0, d1, d2) -> (d0, d1)>
#map5 = affine_map<(d0, d1, d2) -> (d0, d1, 0)>
module {
  func.func @opt_clamp_pad(%arg0: tensor<8x16x32xf32>, %arg1: tensor<8x24x32xf32>, %arg2: tensor<8x24x32xf32>, %arg3: tensor<2x24xi64>) -> tensor<8x16x32xf32> {
    %c0_i64 = arith.constant 0 : i64
    %cst = arith.constant 0.000000e+00 : f32
    %cst_0 = arith.constant 0xFF800000 : f32
    %cst_1 = arith.constant dense<0xFF800000> : tensor<f32>
    %cst_2 = arith.constant dense<0.000000e+00> : tensor<2x1x1x24xf32>
    %cst_3 = arith.constant dense<-3.40282347E+38> : tensor<f32>
    %cst_4 = arith.constant 0.17677669529663689 : f64
    %expanded = tensor.expand_shape %arg3 [[0], [1, 2, 3]] output_shape [2, 1, 1, 24] : tensor<2x24xi64> into tensor<2x1x1x24xi64>
    %0 = tensor.empty() : tensor<2x1x1x24xi1>
    %1 = linalg.generic {indexing_maps = [#map, #map], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%expanded : tensor<2x1x1x24xi64>) outs(%0 : tensor<2x1x1x24xi1>) {
    ^bb0(%in: i64, %out: i1):
      %26 = arith.cmpi eq, %in, %c0_i64 : i64
      linalg.yield %26 : i1
    } -> tensor<2x1x1x24xi1>
    %2 = tensor.empty() : tensor<2x1x1x24xf32>
    %3 = linalg.generic {indexing_maps = [#map, #map1, #map, #map], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%1, %cst_1, %cst_2 : tensor<2x1x1x24xi1>, tensor<f32>, tensor<2x1x1x24xf32>) outs(%2 : tensor<2x1x1x24xf32>) {
    ^bb0(%in: i1, %in_7: f32, %in_8: f32, %out: f32):
      %26 = arith.select %in, %in_7, %in_8 : f32
      linalg.yield %26 : f32
    } -> tensor<2x1x1x24xf32>
    %4 = tensor.empty() : tensor<8x16x32xf32>
    %5 = linalg.generic {indexing_maps = [#map2, #map2], iterator_types = ["parallel", "parallel", "parallel"]} ins(%arg0 : tensor<8x16x32xf32>) outs(%4 : tensor<8x16x32xf32>) {
    ^bb0(%in: f32, %out: f32):
      %26 = arith.truncf %cst_4 : f64 to f32
      %27 = arith.mulf %in, %26 : f32
      linalg.yield %27 : f32
    } -> tensor<8x16x32xf32>
    %6 = tensor.empty() : tensor<8x32x24xf32>
    %transposed = linalg.transpose ins(%arg1 : tensor<8x24x32xf32>) outs(%6 : tensor<8x32x24xf32>) permutation = [0, 2, 1] 
    %7 = tensor.empty() : tensor<8x16x24xf32>
    %8 = linalg.fill ins(%cst : f32) outs(%7 : tensor<8x16x24xf32>) -> tensor<8x16x24xf32>
    %9 = linalg.batch_matmul ins(%5, %transposed : tensor<8x16x32xf32>, tensor<8x32x24xf32>) outs(%8 : tensor<8x16x24xf32>) -> tensor<8x16x24xf32>
    %expanded_5 = tensor.expand_shape %9 [[0, 1], [2], [3]] output_shape [2, 4, 16, 24] : tensor<8x16x24xf32> into tensor<2x4x16x24xf32>
    %10 = tensor.empty() : tensor<2x4x16x24xf32>
    %11 = linalg.generic {indexing_maps = [#map, #map3, #map], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%expanded_5, %3 : tensor<2x4x16x24xf32>, tensor<2x1x1x24xf32>) outs(%10 : tensor<2x4x16x24xf32>) {
    ^bb0(%in: f32, %in_7: f32, %out: f32):
      %26 = arith.addf %in, %in_7 : f32
      linalg.yield %26 : f32
    } -> tensor<2x4x16x24xf32>
    %12 = linalg.generic {indexing_maps = [#map, #map1, #map], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%11, %cst_3 : tensor<2x4x16x24xf32>, tensor<f32>) outs(%10 : tensor<2x4x16x24xf32>) {
    ^bb0(%in: f32, %in_7: f32, %out: f32):
      %26 = arith.cmpf ogt, %in, %in_7 : f32
      %27 = arith.select %26, %in, %in_7 : f32
      linalg.yield %27 : f32
    } -> tensor<2x4x16x24xf32>
    %collapsed = tensor.collapse_shape %12 [[0, 1], [2], [3]] : tensor<2x4x16x24xf32> into tensor<8x16x24xf32>
    %13 = tensor.empty() : tensor<8x16xi64>
    %14 = linalg.fill ins(%c0_i64 : i64) outs(%13 : tensor<8x16xi64>) -> tensor<8x16xi64>
    %15 = tensor.empty() : tensor<8x16xf32>
    %16 = linalg.fill ins(%cst_0 : f32) outs(%15 : tensor<8x16xf32>) -> tensor<8x16xf32>
    %17:2 = linalg.generic {indexing_maps = [#map2, #map4, #map4], iterator_types = ["parallel", "parallel", "reduction"]} ins(%collapsed : tensor<8x16x24xf32>) outs(%16, %14 : tensor<8x16xf32>, tensor<8x16xi64>) {
    ^bb0(%in: f32, %out: f32, %out_7: i64):
      %26 = linalg.index 2 : index
      %27 = arith.index_cast %26 : index to i64
      %28 = arith.maximumf %in, %out : f32
      %29 = arith.cmpf ogt, %in, %out : f32
      %30 = arith.select %29, %27, %out_7 : i64
      linalg.yield %28, %30 : f32, i64
    } -> (tensor<8x16xf32>, tensor<8x16xi64>)
    %expanded_6 = tensor.expand_shape %17#0 [[0], [1, 2]] output_shape [8, 16, 1] : tensor<8x16xf32> into tensor<8x16x1xf32>
    %18 = linalg.generic {indexing_maps = [#map2, #map5, #map2], iterator_types = ["parallel", "parallel", "parallel"]} ins(%collapsed, %expanded_6 : tensor<8x16x24xf32>, tensor<8x16x1xf32>) outs(%7 : tensor<8x16x24xf32>) {
    ^bb0(%in: f32, %in_7: f32, %out: f32):
      %26 = arith.subf %in, %in_7 : f32
      linalg.yield %26 : f32
    } -> tensor<8x16x24xf32>
    %19 = linalg.generic {indexing_maps = [#map2, #map2], iterator_types = ["parallel", "parallel", "parallel"]} ins(%18 : tensor<8x16x24xf32>) outs(%7 : tensor<8x16x24xf32>) {
    ^bb0(%in: f32, %out: f32):
      %26 = math.exp %in : f32
      linalg.yield %26 : f32
    } -> tensor<8x16x24xf32>
    %20 = tensor.empty() : tensor<8x16x1xf32>
    %21 = linalg.fill ins(%cst : f32) outs(%20 : tensor<8x16x1xf32>) -> tensor<8x16x1xf32>
    %22 = linalg.generic {indexing_maps = [#map2, #map5], iterator_types = ["parallel", "parallel", "reduction"]} ins(%19 : tensor<8x16x24xf32>) outs(%21 : tensor<8x16x1xf32>) {
    ^bb0(%in: f32, %out: f32):
      %26 = arith.addf %in, %out : f32
      linalg.yield %26 : f32
    } -> tensor<8x16x1xf32>
    %23 = linalg.generic {indexing_maps = [#map2, #map5, #map2], iterator_types = ["parallel", "parallel", "parallel"]} ins(%19, %22 : tensor<8x16x24xf32>, tensor<8x16x1xf32>) outs(%7 : tensor<8x16x24xf32>) {
    ^bb0(%in: f32, %in_7: f32, %out: f32):
      %26 = arith.divf %in, %in_7 : f32
      linalg.yield %26 : f32
    } -> tensor<8x16x24xf32>
    %24 = linalg.fill ins(%cst : f32) outs(%4 : tensor<8x16x32xf32>) -> tensor<8x16x32xf32>
    %25 = linalg.batch_matmul ins(%23, %arg2 : tensor<8x16x24xf32>, tensor<8x24x32xf32>) outs(%24 : tensor<8x16x32xf32>) -> tensor<8x16x32xf32>
    return %25 : tensor<8x16x32xf32>
  }
}
