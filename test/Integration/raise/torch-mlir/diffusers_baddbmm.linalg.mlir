// diffusers_baddbmm (DiffusersBaddbmm: diffusers' get_attention_scores: baddbmm(empty, q, kT, beta=0, alpha=scale) on [B*H, L, D].), exported by
// scripts/export_torch_mlir_cases.py (torch 2.15.0+cu132, torch_mlir.fx, output linalg-on-tensors).
// RUN: attention-opt %s --attn-raise-pipeline | FileCheck %s
// RUN: attn-raise-check %s --require-raised --runs=2 --seed=66 | FileCheck %s --check-prefix=PROOF --implicit-check-not=FAIL
// CHECK: attn.attention {{.*}}{scale = 0.17677{{[0-9]+}} : f32}
// CHECK-NOT: linalg.
// PROOF: @diffusers_baddbmm: 1 attn.attention after the raising
// PROOF: run 1 result 0 {{.*}}: PASS
#map = affine_map<(d0, d1, d2) -> (d0, d1, d2)>
#map1 = affine_map<(d0, d1, d2) -> (d0, d1)>
#map2 = affine_map<(d0, d1, d2) -> (d0, d1, 0)>
module {
  func.func @diffusers_baddbmm(%arg0: tensor<8x16x32xf32>, %arg1: tensor<8x24x32xf32>, %arg2: tensor<8x24x32xf32>) -> tensor<8x16x32xf32> {
    %cst = arith.constant 0.000000e+00 : f32
    %c0_i64 = arith.constant 0 : i64
    %cst_0 = arith.constant 0xFF800000 : f32
    %cst_1 = arith.constant 0.17677669529663689 : f64
    %0 = tensor.empty() : tensor<8x32x24xf32>
    %transposed = linalg.transpose ins(%arg1 : tensor<8x24x32xf32>) outs(%0 : tensor<8x32x24xf32>) permutation = [0, 2, 1] 
    %1 = tensor.empty() : tensor<8x16x24xf32>
    %2 = linalg.fill ins(%cst : f32) outs(%1 : tensor<8x16x24xf32>) -> tensor<8x16x24xf32>
    %3 = linalg.batch_matmul ins(%arg0, %transposed : tensor<8x16x32xf32>, tensor<8x32x24xf32>) outs(%2 : tensor<8x16x24xf32>) -> tensor<8x16x24xf32>
    %4 = linalg.generic {indexing_maps = [#map, #map], iterator_types = ["parallel", "parallel", "parallel"]} ins(%3 : tensor<8x16x24xf32>) outs(%1 : tensor<8x16x24xf32>) {
    ^bb0(%in: f32, %out: f32):
      %19 = arith.truncf %cst_1 : f64 to f32
      %20 = arith.mulf %in, %19 : f32
      linalg.yield %20 : f32
    } -> tensor<8x16x24xf32>
    %5 = tensor.empty() : tensor<8x16xi64>
    %6 = linalg.fill ins(%c0_i64 : i64) outs(%5 : tensor<8x16xi64>) -> tensor<8x16xi64>
    %7 = tensor.empty() : tensor<8x16xf32>
    %8 = linalg.fill ins(%cst_0 : f32) outs(%7 : tensor<8x16xf32>) -> tensor<8x16xf32>
    %9:2 = linalg.generic {indexing_maps = [#map, #map1, #map1], iterator_types = ["parallel", "parallel", "reduction"]} ins(%4 : tensor<8x16x24xf32>) outs(%8, %6 : tensor<8x16xf32>, tensor<8x16xi64>) {
    ^bb0(%in: f32, %out: f32, %out_2: i64):
      %19 = linalg.index 2 : index
      %20 = arith.index_cast %19 : index to i64
      %21 = arith.maximumf %in, %out : f32
      %22 = arith.cmpf ogt, %in, %out : f32
      %23 = arith.select %22, %20, %out_2 : i64
      linalg.yield %21, %23 : f32, i64
    } -> (tensor<8x16xf32>, tensor<8x16xi64>)
    %expanded = tensor.expand_shape %9#0 [[0], [1, 2]] output_shape [8, 16, 1] : tensor<8x16xf32> into tensor<8x16x1xf32>
    %10 = linalg.generic {indexing_maps = [#map, #map2, #map], iterator_types = ["parallel", "parallel", "parallel"]} ins(%4, %expanded : tensor<8x16x24xf32>, tensor<8x16x1xf32>) outs(%1 : tensor<8x16x24xf32>) {
    ^bb0(%in: f32, %in_2: f32, %out: f32):
      %19 = arith.subf %in, %in_2 : f32
      linalg.yield %19 : f32
    } -> tensor<8x16x24xf32>
    %11 = linalg.generic {indexing_maps = [#map, #map], iterator_types = ["parallel", "parallel", "parallel"]} ins(%10 : tensor<8x16x24xf32>) outs(%1 : tensor<8x16x24xf32>) {
    ^bb0(%in: f32, %out: f32):
      %19 = math.exp %in : f32
      linalg.yield %19 : f32
    } -> tensor<8x16x24xf32>
    %12 = tensor.empty() : tensor<8x16x1xf32>
    %13 = linalg.fill ins(%cst : f32) outs(%12 : tensor<8x16x1xf32>) -> tensor<8x16x1xf32>
    %14 = linalg.generic {indexing_maps = [#map, #map2], iterator_types = ["parallel", "parallel", "reduction"]} ins(%11 : tensor<8x16x24xf32>) outs(%13 : tensor<8x16x1xf32>) {
    ^bb0(%in: f32, %out: f32):
      %19 = arith.addf %in, %out : f32
      linalg.yield %19 : f32
    } -> tensor<8x16x1xf32>
    %15 = linalg.generic {indexing_maps = [#map, #map2, #map], iterator_types = ["parallel", "parallel", "parallel"]} ins(%11, %14 : tensor<8x16x24xf32>, tensor<8x16x1xf32>) outs(%1 : tensor<8x16x24xf32>) {
    ^bb0(%in: f32, %in_2: f32, %out: f32):
      %19 = arith.divf %in, %in_2 : f32
      linalg.yield %19 : f32
    } -> tensor<8x16x24xf32>
    %16 = tensor.empty() : tensor<8x16x32xf32>
    %17 = linalg.fill ins(%cst : f32) outs(%16 : tensor<8x16x32xf32>) -> tensor<8x16x32xf32>
    %18 = linalg.batch_matmul ins(%15, %arg2 : tensor<8x16x24xf32>, tensor<8x24x32xf32>) outs(%17 : tensor<8x16x32xf32>) -> tensor<8x16x32xf32>
    return %18 : tensor<8x16x32xf32>
  }
}
