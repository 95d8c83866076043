// sdpa_float_mask (SdpaMask), exported by
// scripts/export_torch_mlir_cases.py (torch 2.15.0+cu132, torch_mlir.fx, output linalg-on-tensors).
// RUN: attention-opt %s --attn-raise-pipeline | FileCheck %s
// RUN: attn-raise-check %s --require-raised --runs=2 --seed=25 | FileCheck %s --check-prefix=PROOF --implicit-check-not=FAIL
// CHECK: attn.attention {{.*}}mask(%arg3 : tensor<2x1x1x24xf32>) {scale = 0.17677{{[0-9]+}} : f32}
// CHECK-NOT: linalg.
// PROOF: @sdpa_float_mask: 1 attn.attention after the raising
// PROOF: run 1 result 0 {{.*}}: PASS
#map = affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>
#map1 = affine_map<(d0, d1, d2, d3) -> (d0, 0, 0, d3)>
#map2 = affine_map<(d0, d1, d2, d3) -> (d0, d1, d2)>
#map3 = affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, 0)>
module {
  func.func @sdpa_float_mask(%arg0: tensor<2x4x16x32xf32>, %arg1: tensor<2x4x24x32xf32>, %arg2: tensor<2x4x24x32xf32>, %arg3: tensor<2x1x1x24xf32>) -> tensor<2x4x16x32xf32> {
    %cst = arith.constant 0.000000e+00 : f32
    %c0_i64 = arith.constant 0 : i64
    %cst_0 = arith.constant 0xFF800000 : f32
    %true = arith.constant true
    %cst_1 = arith.constant dense<0.000000e+00> : tensor<2x4x16x24xf32>
    %cst_2 = arith.constant 0xFFF0000000000000 : f64
    %cst_3 = arith.constant 0.42044820762685725 : f64
    %0 = tensor.empty() : tensor<2x4x16x32xf32>
    %1 = linalg.generic {indexing_maps = [#map, #map], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%arg0 : tensor<2x4x16x32xf32>) outs(%0 : tensor<2x4x16x32xf32>) {
    ^bb0(%in: f32, %out: f32):
      %29 = arith.truncf %cst_3 : f64 to f32
      %30 = arith.mulf %in, %29 : f32
      linalg.yield %30 : f32
    } -> tensor<2x4x16x32xf32>
    %2 = tensor.empty() : tensor<2x4x32x24xf32>
    %transposed = linalg.transpose ins(%arg1 : tensor<2x4x24x32xf32>) outs(%2 : tensor<2x4x32x24xf32>) permutation = [0, 1, 3, 2] 
    %3 = linalg.generic {indexing_maps = [#map, #map], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%transposed : tensor<2x4x32x24xf32>) outs(%2 : tensor<2x4x32x24xf32>) {
    ^bb0(%in: f32, %out: f32):
      %29 = arith.truncf %cst_3 : f64 to f32
      %30 = arith.mulf %in, %29 : f32
      linalg.yield %30 : f32
    } -> tensor<2x4x32x24xf32>
    %collapsed = tensor.collapse_shape %1 [[0, 1], [2], [3]] : tensor<2x4x16x32xf32> into tensor<8x16x32xf32>
    %collapsed_4 = tensor.collapse_shape %3 [[0, 1], [2], [3]] : tensor<2x4x32x24xf32> into tensor<8x32x24xf32>
    %4 = tensor.empty() : tensor<8x16x24xf32>
    %5 = linalg.fill ins(%cst : f32) outs(%4 : tensor<8x16x24xf32>) -> tensor<8x16x24xf32>
    %6 = linalg.batch_matmul ins(%collapsed, %collapsed_4 : tensor<8x16x32xf32>, tensor<8x32x24xf32>) outs(%5 : tensor<8x16x24xf32>) -> tensor<8x16x24xf32>
    %expanded = tensor.expand_shape %6 [[0, 1], [2], [3]] output_shape [2, 4, 16, 24] : tensor<8x16x24xf32> into tensor<2x4x16x24xf32>
    %7 = tensor.empty() : tensor<2x4x16x24xf32>
    %8 = linalg.generic {indexing_maps = [#map, #map1, #map], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%expanded, %arg3 : tensor<2x4x16x24xf32>, tensor<2x1x1x24xf32>) outs(%7 : tensor<2x4x16x24xf32>) {
    ^bb0(%in: f32, %in_9: f32, %out: f32):
      %29 = arith.addf %in, %in_9 : f32
      linalg.yield %29 : f32
    } -> tensor<2x4x16x24xf32>
    %9 = tensor.empty() : tensor<2x4x16xi64>
    %10 = linalg.fill ins(%c0_i64 : i64) outs(%9 : tensor<2x4x16xi64>) -> tensor<2x4x16xi64>
    %11 = tensor.empty() : tensor<2x4x16xf32>
    %12 = linalg.fill ins(%cst_0 : f32) outs(%11 : tensor<2x4x16xf32>) -> tensor<2x4x16xf32>
    %13:2 = linalg.generic {indexing_maps = [#map, #map2, #map2], iterator_types = ["parallel", "parallel", "parallel", "reduction"]} ins(%8 : tensor<2x4x16x24xf32>) outs(%12, %10 : tensor<2x4x16xf32>, tensor<2x4x16xi64>) {
    ^bb0(%in: f32, %out: f32, %out_9: i64):
      %29 = linalg.index 3 : index
      %30 = arith.index_cast %29 : index to i64
      %31 = arith.maximumf %in, %out : f32
      %32 = arith.cmpf ogt, %in, %out : f32
      %33 = arith.select %32, %30, %out_9 : i64
      linalg.yield %31, %33 : f32, i64
    } -> (tensor<2x4x16xf32>, tensor<2x4x16xi64>)
    %expanded_5 = tensor.expand_shape %13#0 [[0], [1], [2, 3]] output_shape [2, 4, 16, 1] : tensor<2x4x16xf32> into tensor<2x4x16x1xf32>
    %14 = linalg.generic {indexing_maps = [#map, #map3, #map], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%8, %expanded_5 : tensor<2x4x16x24xf32>, tensor<2x4x16x1xf32>) outs(%7 : tensor<2x4x16x24xf32>) {
    ^bb0(%in: f32, %in_9: f32, %out: f32):
      %29 = arith.subf %in, %in_9 : f32
      linalg.yield %29 : f32
    } -> tensor<2x4x16x24xf32>
    %15 = linalg.generic {indexing_maps = [#map, #map], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%14 : tensor<2x4x16x24xf32>) outs(%7 : tensor<2x4x16x24xf32>) {
    ^bb0(%in: f32, %out: f32):
      %29 = math.exp %in : f32
      linalg.yield %29 : f32
    } -> tensor<2x4x16x24xf32>
    %16 = tensor.empty() : tensor<2x4x16x1xf32>
    %17 = linalg.fill ins(%cst : f32) outs(%16 : tensor<2x4x16x1xf32>) -> tensor<2x4x16x1xf32>
    %18 = linalg.generic {indexing_maps = [#map, #map3], iterator_types = ["parallel", "parallel", "parallel", "reduction"]} ins(%15 : tensor<2x4x16x24xf32>) outs(%17 : tensor<2x4x16x1xf32>) {
    ^bb0(%in: f32, %out: f32):
      %29 = arith.addf %in, %out : f32
      linalg.yield %29 : f32
    } -> tensor<2x4x16x1xf32>
    %19 = linalg.generic {indexing_maps = [#map, #map3, #map], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%15, %18 : tensor<2x4x16x24xf32>, tensor<2x4x16x1xf32>) outs(%7 : tensor<2x4x16x24xf32>) {
    ^bb0(%in: f32, %in_9: f32, %out: f32):
      %29 = arith.divf %in, %in_9 : f32
      linalg.yield %29 : f32
    } -> tensor<2x4x16x24xf32>
    %20 = tensor.empty() : tensor<2x4x16x24xi1>
    %21 = linalg.generic {indexing_maps = [#map, #map], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%8 : tensor<2x4x16x24xf32>) outs(%20 : tensor<2x4x16x24xi1>) {
    ^bb0(%in: f32, %out: i1):
      %29 = arith.extf %in : f32 to f64
      %30 = arith.cmpf oeq, %29, %cst_2 : f64
      linalg.yield %30 : i1
    } -> tensor<2x4x16x24xi1>
    %22 = tensor.empty() : tensor<2x4x16x1xi1>
    %23 = linalg.fill ins(%true : i1) outs(%22 : tensor<2x4x16x1xi1>) -> tensor<2x4x16x1xi1>
    %24 = linalg.generic {indexing_maps = [#map, #map3], iterator_types = ["parallel", "parallel", "parallel", "reduction"]} ins(%21 : tensor<2x4x16x24xi1>) outs(%23 : tensor<2x4x16x1xi1>) {
    ^bb0(%in: i1, %out: i1):
      %29 = arith.andi %in, %out : i1
      linalg.yield %29 : i1
    } -> tensor<2x4x16x1xi1>
    %25 = linalg.generic {indexing_maps = [#map3, #map, #map, #map], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%24, %cst_1, %19 : tensor<2x4x16x1xi1>, tensor<2x4x16x24xf32>, tensor<2x4x16x24xf32>) outs(%7 : tensor<2x4x16x24xf32>) {
    ^bb0(%in: i1, %in_9: f32, %in_10: f32, %out: f32):
      %29 = arith.select %in, %in_9, %in_10 : f32
      linalg.yield %29 : f32
    } -> tensor<2x4x16x24xf32>
    %collapsed_6 = tensor.collapse_shape %25 [[0, 1], [2], [3]] : tensor<2x4x16x24xf32> into tensor<8x16x24xf32>
    %collapsed_7 = tensor.collapse_shape %arg2 [[0, 1], [2], [3]] : tensor<2x4x24x32xf32> into tensor<8x24x32xf32>
    %26 = tensor.empty() : tensor<8x16x32xf32>
    %27 = linalg.fill ins(%cst : f32) outs(%26 : tensor<8x16x32xf32>) -> tensor<8x16x32xf32>
    %28 = linalg.batch_matmul ins(%collapsed_6, %collapsed_7 : tensor<8x16x24xf32>, tensor<8x24x32xf32>) outs(%27 : tensor<8x16x32xf32>) -> tensor<8x16x32xf32>
    %expanded_8 = tensor.expand_shape %28 [[0, 1], [2], [3]] output_shape [2, 4, 16, 32] : tensor<8x16x32xf32> into tensor<2x4x16x32xf32>
    return %expanded_8 : tensor<2x4x16x32xf32>
  }
}
