// bloom_alibi (BloomAlibi: Bloom: baddbmm onto the ALiBi bias, masked_fill with finfo.min, the softmax in f32, on [B*H, L, D]. Its boolean mask is true at excluded keys, the negation of the padding mask's ones (`keep`).), exported by
// scripts/export_torch_mlir_cases.py (torch 2.15.0+cu132, torch_mlir.fx, output linalg-on-tensors).
// RUN: attention-opt %s --attn-raise-pipeline="large-negative-is-masked" | FileCheck %s
// RUN: attn-raise-check %s --require-raised --runs=2 --seed=62 --pipeline='attn-raise-pipeline{large-negative-is-masked}' | FileCheck %s --check-prefix=PROOF --implicit-check-not=FAIL
// CHECK: attn.attention {{.*}}mask({{.*}} : tensor<2x4x16x24xf32>) {scale = 0.17677{{[0-9]+}} : f32}
// PROOF: @bloom_alibi: 1 attn.attention after the raising
// PROOF: run 1 result 0 {{.*}}: PASS
#map = affine_map<(d0, d1, d2) -> (d0, d1, d2)>
#map1 = affine_map<(d0, d1, d2) -> (d0, 0, d2)>
#map2 = affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>
#map3 = affine_map<(d0, d1, d2, d3) -> (d0, 0, d2, d3)>
#map4 = affine_map<(d0, d1, d2, d3) -> ()>
#map5 = affine_map<(d0, d1, d2, d3) -> (d0, d1, d2)>
#map6 = affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, 0)>
module {
  func.func @bloom_alibi(%arg0: tensor<8x16x32xf32>, %arg1: tensor<8x24x32xf32>, %arg2: tensor<8x24x32xf32>, %arg3: tensor<8x1x24xf32>, %arg4: tensor<2x1x16x24xi1>) -> tensor<8x16x32xf32> {
    %cst = arith.constant 0.000000e+00 : f32
    %true = arith.constant true
    %c0_i64 = arith.constant 0 : i64
    %cst_0 = arith.constant 0xFF800000 : f32
    %cst_1 = arith.constant dense<-3.40282347E+38> : tensor<f32>
    %cst_2 = arith.constant 0.17677669529663687 : f64
    %0 = tensor.empty() : tensor<8x32x24xf32>
    %transposed = linalg.transpose ins(%arg1 : tensor<8x24x32xf32>) outs(%0 : tensor<8x32x24xf32>) permutation = [0, 2, 1] 
    %1 = tensor.empty() : tensor<8x16x24xf32>
    %2 = linalg.fill ins(%cst : f32) outs(%1 : tensor<8x16x24xf32>) -> tensor<8x16x24xf32>
    %3 = linalg.batch_matmul ins(%arg0, %transposed : tensor<8x16x32xf32>, tensor<8x32x24xf32>) outs(%2 : tensor<8x16x24xf32>) -> tensor<8x16x24xf32>
    %4 = linalg.generic {indexing_maps = [#map, #map], iterator_types = ["parallel", "parallel", "parallel"]} ins(%3 : tensor<8x16x24xf32>) outs(%1 : tensor<8x16x24xf32>) {
    ^bb0(%in: f32, %out: f32):
      %24 = arith.truncf %cst_2 : f64 to f32
      %25 = arith.mulf %in, %24 : f32
      linalg.yield %25 : f32
    } -> tensor<8x16x24xf32>
    %5 = linalg.generic {indexing_maps = [#map1, #map, #map], iterator_types = ["parallel", "parallel", "parallel"]} ins(%arg3, %4 : tensor<8x1x24xf32>, tensor<8x16x24xf32>) outs(%1 : tensor<8x16x24xf32>) {
    ^bb0(%in: f32, %in_4: f32, %out: f32):
      %24 = arith.addf %in, %in_4 : f32
      linalg.yield %24 : f32
    } -> tensor<8x16x24xf32>
    %expanded = tensor.expand_shape %5 [[0, 1], [2], [3]] output_shape [2, 4, 16, 24] : tensor<8x16x24xf32> into tensor<2x4x16x24xf32>
    %6 = tensor.empty() : tensor<2x1x16x24xi1>
    %7 = linalg.generic {indexing_maps = [#map2, #map2], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%arg4 : tensor<2x1x16x24xi1>) outs(%6 : tensor<2x1x16x24xi1>) {
    ^bb0(%in: i1, %out: i1):
      %24 = arith.xori %in, %true : i1
      linalg.yield %24 : i1
    } -> tensor<2x1x16x24xi1>
    %8 = tensor.empty() : tensor<2x4x16x24xf32>
    %9 = linalg.generic {indexing_maps = [#map3, #map4, #map2, #map2], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%7, %cst_1, %expanded : tensor<2x1x16x24xi1>, tensor<f32>, tensor<2x4x16x24xf32>) outs(%8 : tensor<2x4x16x24xf32>) {
    ^bb0(%in: i1, %in_4: f32, %in_5: f32, %out: f32):
      %24 = arith.select %in, %in_4, %in_5 : f32
      linalg.yield %24 : f32
    } -> tensor<2x4x16x24xf32>
    %10 = tensor.empty() : tensor<2x4x16xi64>
    %11 = linalg.fill ins(%c0_i64 : i64) outs(%10 : tensor<2x4x16xi64>) -> tensor<2x4x16xi64>
    %12 = tensor.empty() : tensor<2x4x16xf32>
    %13 = linalg.fill ins(%cst_0 : f32) outs(%12 : tensor<2x4x16xf32>) -> tensor<2x4x16xf32>
    %14:2 = linalg.generic {indexing_maps = [#map2, #map5, #map5], iterator_types = ["parallel", "parallel", "parallel", "reduction"]} ins(%9 : tensor<2x4x16x24xf32>) outs(%13, %11 : tensor<2x4x16xf32>, tensor<2x4x16xi64>) {
    ^bb0(%in: f32, %out: f32, %out_4: i64):
      %24 = linalg.index 3 : index
      %25 = arith.index_cast %24 : index to i64
      %26 = arith.maximumf %in, %out : f32
      %27 = arith.cmpf ogt, %in, %out : f32
      %28 = arith.select %27, %25, %out_4 : i64
      linalg.yield %26, %28 : f32, i64
    } -> (tensor<2x4x16xf32>, tensor<2x4x16xi64>)
    %expanded_3 = tensor.expand_shape %14#0 [[0], [1], [2, 3]] output_shape [2, 4, 16, 1] : tensor<2x4x16xf32> into tensor<2x4x16x1xf32>
    %15 = linalg.generic {indexing_maps = [#map2, #map6, #map2], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%9, %expanded_3 : tensor<2x4x16x24xf32>, tensor<2x4x16x1xf32>) outs(%8 : tensor<2x4x16x24xf32>) {
    ^bb0(%in: f32, %in_4: f32, %out: f32):
      %24 = arith.subf %in, %in_4 : f32
      linalg.yield %24 : f32
    } -> tensor<2x4x16x24xf32>
    %16 = linalg.generic {indexing_maps = [#map2, #map2], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%15 : tensor<2x4x16x24xf32>) outs(%8 : tensor<2x4x16x24xf32>) {
    ^bb0(%in: f32, %out: f32):
      %24 = math.exp %in : f32
      linalg.yield %24 : f32
    } -> tensor<2x4x16x24xf32>
    %17 = tensor.empty() : tensor<2x4x16x1xf32>
    %18 = linalg.fill ins(%cst : f32) outs(%17 : tensor<2x4x16x1xf32>) -> tensor<2x4x16x1xf32>
    %19 = linalg.generic {indexing_maps = [#map2, #map6], iterator_types = ["parallel", "parallel", "parallel", "reduction"]} ins(%16 : tensor<2x4x16x24xf32>) outs(%18 : tensor<2x4x16x1xf32>) {
    ^bb0(%in: f32, %out: f32):
      %24 = arith.addf %in, %out : f32
      linalg.yield %24 : f32
    } -> tensor<2x4x16x1xf32>
    %20 = linalg.generic {indexing_maps = [#map2, #map6, #map2], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%16, %19 : tensor<2x4x16x24xf32>, tensor<2x4x16x1xf32>) outs(%8 : tensor<2x4x16x24xf32>) {
    ^bb0(%in: f32, %in_4: f32, %out: f32):
      %24 = arith.divf %in, %in_4 : f32
      linalg.yield %24 : f32
    } -> tensor<2x4x16x24xf32>
    %collapsed = tensor.collapse_shape %20 [[0, 1], [2], [3]] : tensor<2x4x16x24xf32> into tensor<8x16x24xf32>
    %21 = tensor.empty() : tensor<8x16x32xf32>
    %22 = linalg.fill ins(%cst : f32) outs(%21 : tensor<8x16x32xf32>) -> tensor<8x16x32xf32>
    %23 = linalg.batch_matmul ins(%collapsed, %arg2 : tensor<8x16x24xf32>, tensor<8x24x32xf32>) outs(%22 : tensor<8x16x32xf32>) -> tensor<8x16x32xf32>
    return %23 : tensor<8x16x32xf32>
  }
}
