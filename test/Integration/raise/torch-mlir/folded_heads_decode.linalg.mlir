// folded_heads_decode (FoldedHeadsDecode: Heads folded into the batch: K q and p V as batched matrix-vector products on [B*H, T, D].), exported by
// scripts/export_torch_mlir_cases.py (torch 2.15.0+cu132, torch_mlir.fx, output linalg-on-tensors).
// RUN: attention-opt %s --attn-raise-pipeline | FileCheck %s
// RUN: attn-raise-check %s --require-raised --runs=2 --seed=78 | FileCheck %s --check-prefix=PROOF --implicit-check-not=FAIL
// CHECK: attn.attention {{.*}}tensor<1x8x1x32xf32>, tensor<1x8x24x32xf32>, tensor<1x8x24x32xf32>) {scale = 0.17677{{[0-9]+}} : f32}
// CHECK-NOT: linalg.
// PROOF: @folded_heads_decode: 1 attn.attention after the raising
// PROOF: run 1 result 0 {{.*}}: PASS
#map = affine_map<(d0, d1) -> (d0, d1)>
#map1 = affine_map<(d0, d1) -> (d0)>
#map2 = affine_map<(d0, d1) -> (d0, 0)>
module {
  func.func @folded_heads_decode(%arg0: tensor<8x32xf32>, %arg1: tensor<8x24x32xf32>, %arg2: tensor<8x24x32xf32>) -> tensor<8x32xf32> {
    %cst = arith.constant 0.000000e+00 : f32
    %c0_i64 = arith.constant 0 : i64
    %cst_0 = arith.constant 0xFF800000 : f32
    %cst_1 = arith.constant 5.6568542494923806 : f64
    %expanded = tensor.expand_shape %arg0 [[0], [1, 2]] output_shape [8, 32, 1] : tensor<8x32xf32> into tensor<8x32x1xf32>
    %0 = tensor.empty() : tensor<8x24x1xf32>
    %1 = linalg.fill ins(%cst : f32) outs(%0 : tensor<8x24x1xf32>) -> tensor<8x24x1xf32>
    %2 = linalg.batch_matmul ins(%arg1, %expanded : tensor<8x24x32xf32>, tensor<8x32x1xf32>) outs(%1 : tensor<8x24x1xf32>) -> tensor<8x24x1xf32>
    %collapsed = tensor.collapse_shape %2 [[0], [1, 2]] : tensor<8x24x1xf32> into tensor<8x24xf32>
    %3 = tensor.empty() : tensor<8x24xf32>
    %4 = linalg.generic {indexing_maps = [#map, #map], iterator_types = ["parallel", "parallel"]} ins(%collapsed : tensor<8x24xf32>) outs(%3 : tensor<8x24xf32>) {
    ^bb0(%in: f32, %out: f32):
      %19 = arith.truncf %cst_1 : f64 to f32
      %20 = arith.divf %in, %19 : f32
      linalg.yield %20 : f32
    } -> tensor<8x24xf32>
    %5 = tensor.empty() : tensor<8xi64>
    %6 = linalg.fill ins(%c0_i64 : i64) outs(%5 : tensor<8xi64>) -> tensor<8xi64>
    %7 = tensor.empty() : tensor<8xf32>
    %8 = linalg.fill ins(%cst_0 : f32) outs(%7 : tensor<8xf32>) -> tensor<8xf32>
    %9:2 = linalg.generic {indexing_maps = [#map, #map1, #map1], iterator_types = ["parallel", "reduction"]} ins(%4 : tensor<8x24xf32>) outs(%8, %6 : tensor<8xf32>, tensor<8xi64>) {
    ^bb0(%in: f32, %out: f32, %out_5: i64):
      %19 = linalg.index 1 : index
      %20 = arith.index_cast %19 : index to i64
      %21 = arith.maximumf %in, %out : f32
      %22 = arith.cmpf ogt, %in, %out : f32
      %23 = arith.select %22, %20, %out_5 : i64
      linalg.yield %21, %23 : f32, i64
    } -> (tensor<8xf32>, tensor<8xi64>)
    %expanded_2 = tensor.expand_shape %9#0 [[0, 1]] output_shape [8, 1] : tensor<8xf32> into tensor<8x1xf32>
    %10 = linalg.generic {indexing_maps = [#map, #map2, #map], iterator_types = ["parallel", "parallel"]} ins(%4, %expanded_2 : tensor<8x24xf32>, tensor<8x1xf32>) outs(%3 : tensor<8x24xf32>) {
    ^bb0(%in: f32, %in_5: f32, %out: f32):
      %19 = arith.subf %in, %in_5 : f32
      linalg.yield %19 : f32
    } -> tensor<8x24xf32>
    %11 = linalg.generic {indexing_maps = [#map, #map], iterator_types = ["parallel", "parallel"]} ins(%10 : tensor<8x24xf32>) outs(%3 : tensor<8x24xf32>) {
    ^bb0(%in: f32, %out: f32):
      %19 = math.exp %in : f32
      linalg.yield %19 : f32
    } -> tensor<8x24xf32>
    %12 = tensor.empty() : tensor<8x1xf32>
    %13 = linalg.fill ins(%cst : f32) outs(%12 : tensor<8x1xf32>) -> tensor<8x1xf32>
    %14 = linalg.generic {indexing_maps = [#map, #map2], iterator_types = ["parallel", "reduction"]} ins(%11 : tensor<8x24xf32>) outs(%13 : tensor<8x1xf32>) {
    ^bb0(%in: f32, %out: f32):
      %19 = arith.addf %in, %out : f32
      linalg.yield %19 : f32
    } -> tensor<8x1xf32>
    %15 = linalg.generic {indexing_maps = [#map, #map2, #map], iterator_types = ["parallel", "parallel"]} ins(%11, %14 : tensor<8x24xf32>, tensor<8x1xf32>) outs(%3 : tensor<8x24xf32>) {
    ^bb0(%in: f32, %in_5: f32, %out: f32):
      %19 = arith.divf %in, %in_5 : f32
      linalg.yield %19 : f32
    } -> tensor<8x24xf32>
    %expanded_3 = tensor.expand_shape %15 [[0], [1, 2]] output_shape [8, 1, 24] : tensor<8x24xf32> into tensor<8x1x24xf32>
    %16 = tensor.empty() : tensor<8x1x32xf32>
    %17 = linalg.fill ins(%cst : f32) outs(%16 : tensor<8x1x32xf32>) -> tensor<8x1x32xf32>
    %18 = linalg.batch_matmul ins(%expanded_3, %arg2 : tensor<8x1x24xf32>, tensor<8x24x32xf32>) outs(%17 : tensor<8x1x32xf32>) -> tensor<8x1x32xf32>
    %collapsed_4 = tensor.collapse_shape %18 [[0, 1], [2]] : tensor<8x1x32xf32> into tensor<8x32xf32>
    return %collapsed_4 : tensor<8x32xf32>
  }
}
