// safe_softmax_over_queries (SafeSoftmaxOverQueries: where(keep.any(-2, keepdim=True), p, 0): any() over the queries, which zeroes columns, not rows.), exported by
// scripts/export_torch_mlir_cases.py (torch 2.15.0+cu132, torch_mlir.fx, output linalg-on-tensors).
// Not raised, and attn-raise-check proves the chain intact.
// RUN: attention-opt %s --attn-raise-pipeline=explain 2>&1 | FileCheck %s
// RUN: attn-raise-check %s --runs=1 --seed=158 | FileCheck %s --check-prefix=PROOF --implicit-check-not=FAIL
// CHECK: remark: attn-fuse: not fused: a select keeps the probabilities by any() of a boolean tensor over a dimension other than the keys
// CHECK-NOT: = attn.attention
// PROOF: @safe_softmax_over_queries: 0 attn.attention after the raising
// PROOF: run 0 result 0 {{.*}}: PASS
#map = affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>
#map1 = affine_map<(d0, d1, d2, d3) -> (d0, 0, d2, d3)>
#map2 = affine_map<(d0, d1, d2, d3) -> ()>
#map3 = affine_map<(d0, d1, d2, d3) -> (d0, d1, d2)>
#map4 = affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, 0)>
#map5 = affine_map<(d0, d1, d2, d3) -> (d0, d1, 0, d3)>
#map6 = affine_map<(d0, d1, d2, d3) -> (d0, 0, 0, d3)>
module {
  func.func @safe_softmax_over_queries(%arg0: tensor<2x4x16x32xf32>, %arg1: tensor<2x4x24x32xf32>, %arg2: tensor<2x4x24x32xf32>, %arg3: tensor<2x1x16x24xi1>) -> tensor<2x4x16x32xf32> {
    %cst = arith.constant 0.000000e+00 : f32
    %true = arith.constant true
    %c0_i64 = arith.constant 0 : i64
    %cst_0 = arith.constant 0xFF800000 : f32
    %false = arith.constant false
    %cst_1 = arith.constant dense<0.000000e+00> : tensor<f32>
    %cst_2 = arith.constant dense<0xFF800000> : tensor<f32>
    %cst_3 = arith.constant 5.6568542494923806 : f64
    %0 = tensor.empty() : tensor<2x4x32x24xf32>
    %transposed = linalg.transpose ins(%arg1 : tensor<2x4x24x32xf32>) outs(%0 : tensor<2x4x32x24xf32>) permutation = [0, 1, 3, 2] 
    %collapsed = tensor.collapse_shape %arg0 [[0, 1], [2], [3]] : tensor<2x4x16x32xf32> into tensor<8x16x32xf32>
    %collapsed_4 = tensor.collapse_shape %transposed [[0, 1], [2], [3]] : tensor<2x4x32x24xf32> into tensor<8x32x24xf32>
    %1 = tensor.empty() : tensor<8x16x24xf32>
    %2 = linalg.fill ins(%cst : f32) outs(%1 : tensor<8x16x24xf32>) -> tensor<8x16x24xf32>
    %3 = linalg.batch_matmul ins(%collapsed, %collapsed_4 : tensor<8x16x32xf32>, tensor<8x32x24xf32>) outs(%2 : tensor<8x16x24xf32>) -> tensor<8x16x24xf32>
    %expanded = tensor.expand_shape %3 [[0, 1], [2], [3]] output_shape [2, 4, 16, 24] : tensor<8x16x24xf32> into tensor<2x4x16x24xf32>
    %4 = tensor.empty() : tensor<2x4x16x24xf32>
    %5 = linalg.generic {indexing_maps = [#map, #map], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%expanded : tensor<2x4x16x24xf32>) outs(%4 : tensor<2x4x16x24xf32>) {
    ^bb0(%in: f32, %out: f32):
      %27 = arith.truncf %cst_3 : f64 to f32
      %28 = arith.divf %in, %27 : f32
      linalg.yield %28 : f32
    } -> tensor<2x4x16x24xf32>
    %6 = tensor.empty() : tensor<2x1x16x24xi1>
    %7 = linalg.generic {indexing_maps = [#map, #map], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%arg3 : tensor<2x1x16x24xi1>) outs(%6 : tensor<2x1x16x24xi1>) {
    ^bb0(%in: i1, %out: i1):
      %27 = arith.xori %in, %true : i1
      linalg.yield %27 : i1
    } -> tensor<2x1x16x24xi1>
    %8 = linalg.generic {indexing_maps = [#map1, #map2, #map, #map], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%7, %cst_2, %5 : tensor<2x1x16x24xi1>, tensor<f32>, tensor<2x4x16x24xf32>) outs(%4 : tensor<2x4x16x24xf32>) {
    ^bb0(%in: i1, %in_9: f32, %in_10: f32, %out: f32):
      %27 = arith.select %in, %in_9, %in_10 : f32
      linalg.yield %27 : f32
    } -> tensor<2x4x16x24xf32>
    %9 = tensor.empty() : tensor<2x4x16xi64>
    %10 = linalg.fill ins(%c0_i64 : i64) outs(%9 : tensor<2x4x16xi64>) -> tensor<2x4x16xi64>
    %11 = tensor.empty() : tensor<2x4x16xf32>
    %12 = linalg.fill ins(%cst_0 : f32) outs(%11 : tensor<2x4x16xf32>) -> tensor<2x4x16xf32>
    %13:2 = linalg.generic {indexing_maps = [#map, #map3, #map3], iterator_types = ["parallel", "parallel", "parallel", "reduction"]} ins(%8 : tensor<2x4x16x24xf32>) outs(%12, %10 : tensor<2x4x16xf32>, tensor<2x4x16xi64>) {
    ^bb0(%in: f32, %out: f32, %out_9: i64):
      %27 = linalg.index 3 : index
      %28 = arith.index_cast %27 : index to i64
      %29 = arith.maximumf %in, %out : f32
      %30 = arith.cmpf ogt, %in, %out : f32
      %31 = arith.select %30, %28, %out_9 : i64
      linalg.yield %29, %31 : f32, i64
    } -> (tensor<2x4x16xf32>, tensor<2x4x16xi64>)
    %expanded_5 = tensor.expand_shape %13#0 [[0], [1], [2, 3]] output_shape [2, 4, 16, 1] : tensor<2x4x16xf32> into tensor<2x4x16x1xf32>
    %14 = linalg.generic {indexing_maps = [#map, #map4, #map], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%8, %expanded_5 : tensor<2x4x16x24xf32>, tensor<2x4x16x1xf32>) outs(%4 : tensor<2x4x16x24xf32>) {
    ^bb0(%in: f32, %in_9: f32, %out: f32):
      %27 = arith.subf %in, %in_9 : f32
      linalg.yield %27 : f32
    } -> tensor<2x4x16x24xf32>
    %15 = linalg.generic {indexing_maps = [#map, #map], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%14 : tensor<2x4x16x24xf32>) outs(%4 : tensor<2x4x16x24xf32>) {
    ^bb0(%in: f32, %out: f32):
      %27 = math.exp %in : f32
      linalg.yield %27 : f32
    } -> tensor<2x4x16x24xf32>
    %16 = tensor.empty() : tensor<2x4x16x1xf32>
    %17 = linalg.fill ins(%cst : f32) outs(%16 : tensor<2x4x16x1xf32>) -> tensor<2x4x16x1xf32>
    %18 = linalg.generic {indexing_maps = [#map, #map4], iterator_types = ["parallel", "parallel", "parallel", "reduction"]} ins(%15 : tensor<2x4x16x24xf32>) outs(%17 : tensor<2x4x16x1xf32>) {
    ^bb0(%in: f32, %out: f32):
      %27 = arith.addf %in, %out : f32
      linalg.yield %27 : f32
    } -> tensor<2x4x16x1xf32>
    %19 = linalg.generic {indexing_maps = [#map, #map4, #map], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%15, %18 : tensor<2x4x16x24xf32>, tensor<2x4x16x1xf32>) outs(%4 : tensor<2x4x16x24xf32>) {
    ^bb0(%in: f32, %in_9: f32, %out: f32):
      %27 = arith.divf %in, %in_9 : f32
      linalg.yield %27 : f32
    } -> tensor<2x4x16x24xf32>
    %20 = tensor.empty() : tensor<2x1x1x24xi1>
    %21 = linalg.fill ins(%false : i1) outs(%20 : tensor<2x1x1x24xi1>) -> tensor<2x1x1x24xi1>
    %22 = linalg.generic {indexing_maps = [#map, #map5], iterator_types = ["parallel", "parallel", "reduction", "parallel"]} ins(%arg3 : tensor<2x1x16x24xi1>) outs(%21 : tensor<2x1x1x24xi1>) {
    ^bb0(%in: i1, %out: i1):
      %27 = arith.ori %in, %out : i1
      linalg.yield %27 : i1
    } -> tensor<2x1x1x24xi1>
    %23 = linalg.generic {indexing_maps = [#map6, #map, #map2, #map], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%22, %19, %cst_1 : tensor<2x1x1x24xi1>, tensor<2x4x16x24xf32>, tensor<f32>) outs(%4 : tensor<2x4x16x24xf32>) {
    ^bb0(%in: i1, %in_9: f32, %in_10: f32, %out: f32):
      %27 = arith.select %in, %in_9, %in_10 : f32
      linalg.yield %27 : f32
    } -> tensor<2x4x16x24xf32>
    %collapsed_6 = tensor.collapse_shape %23 [[0, 1], [2], [3]] : tensor<2x4x16x24xf32> into tensor<8x16x24xf32>
    %collapsed_7 = tensor.collapse_shape %arg2 [[0, 1], [2], [3]] : tensor<2x4x24x32xf32> into tensor<8x24x32xf32>
    %24 = tensor.empty() : tensor<8x16x32xf32>
    %25 = linalg.fill ins(%cst : f32) outs(%24 : tensor<8x16x32xf32>) -> tensor<8x16x32xf32>
    %26 = linalg.batch_matmul ins(%collapsed_6, %collapsed_7 : tensor<8x16x24xf32>, tensor<8x24x32xf32>) outs(%25 : tensor<8x16x32xf32>) -> tensor<8x16x32xf32>
    %expanded_8 = tensor.expand_shape %26 [[0, 1], [2], [3]] output_shape [2, 4, 16, 32] : tensor<8x16x32xf32> into tensor<2x4x16x32xf32>
    return %expanded_8 : tensor<2x4x16x32xf32>
  }
}
