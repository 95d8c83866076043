// tril_bool_where (TrilBoolWhere: torch.ones(L, L).tril().bool() and where(mask, s, -inf).), exported by
// scripts/export_torch_mlir_cases.py (torch 2.15.0+cu132, torch_mlir.fx, output linalg-on-tensors).
// RUN: attention-opt %s --attn-raise-pipeline | FileCheck %s
// RUN: attn-raise-check %s --require-raised --runs=2 --seed=95 | FileCheck %s --check-prefix=PROOF --implicit-check-not=FAIL
// CHECK: attn.attention {{.*}}{causal = #attn.causal<top_left>, scale = 0.17677{{[0-9]+}} : f32}
// CHECK-NOT: linalg.
// PROOF: @tril_bool_where: 1 attn.attention after the raising
// PROOF: run 1 result 0 {{.*}}: PASS
#map = affine_map<(d0) -> (d0)>
#map1 = affine_map<(d0, d1) -> (0, d1)>
#map2 = affine_map<(d0, d1) -> (d0, 0)>
#map3 = affine_map<(d0, d1) -> (d0, d1)>
#map4 = affine_map<(d0, d1) -> ()>
#map5 = affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>
#map6 = affine_map<(d0, d1, d2, d3) -> (d2, d3)>
#map7 = affine_map<(d0, d1, d2, d3) -> ()>
#map8 = affine_map<(d0, d1, d2, d3) -> (d0, d1, d2)>
#map9 = affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, 0)>
module {
  func.func @tril_bool_where(%arg0: tensor<2x4x16x32xf32>, %arg1: tensor<2x4x16x32xf32>, %arg2: tensor<2x4x16x32xf32>) -> tensor<2x4x16x32xf32> {
    %c0_i64 = arith.constant 0 : i64
    %cst = arith.constant 0.000000e+00 : f32
    %cst_0 = arith.constant 0xFF800000 : f32
    %cst_1 = arith.constant dense<0xFF800000> : tensor<f32>
    %cst_2 = arith.constant dense<0.000000e+00> : tensor<f32>
    %cst_3 = arith.constant dense<1.000000e+00> : tensor<16x16xf32>
    %cst_4 = arith.constant 5.6568542494923806 : f64
    %0 = tensor.empty() : tensor<16xi64>
    %1 = linalg.generic {indexing_maps = [#map], iterator_types = ["parallel"]} outs(%0 : tensor<16xi64>) {
    ^bb0(%out: i64):
      %30 = linalg.index 0 : index
      %31 = arith.index_cast %30 : index to i64
      linalg.yield %31 : i64
    } -> tensor<16xi64>
    %expanded = tensor.expand_shape %1 [[0, 1]] output_shape [1, 16] : tensor<16xi64> into tensor<1x16xi64>
    %expanded_5 = tensor.expand_shape %1 [[0, 1]] output_shape [16, 1] : tensor<16xi64> into tensor<16x1xi64>
    %2 = tensor.empty() : tensor<16x16xi64>
    %3 = linalg.generic {indexing_maps = [#map1, #map2, #map3], iterator_types = ["parallel", "parallel"]} ins(%expanded, %expanded_5 : tensor<1x16xi64>, tensor<16x1xi64>) outs(%2 : tensor<16x16xi64>) {
    ^bb0(%in: i64, %in_12: i64, %out: i64):
      %30 = arith.subi %in, %in_12 : i64
      linalg.yield %30 : i64
    } -> tensor<16x16xi64>
    %4 = tensor.empty() : tensor<16x16xi1>
    %5 = linalg.generic {indexing_maps = [#map3, #map3], iterator_types = ["parallel", "parallel"]} ins(%3 : tensor<16x16xi64>) outs(%4 : tensor<16x16xi1>) {
    ^bb0(%in: i64, %out: i1):
      %30 = arith.cmpi sle, %in, %c0_i64 : i64
      linalg.yield %30 : i1
    } -> tensor<16x16xi1>
    %6 = tensor.empty() : tensor<16x16xf32>
    %7 = linalg.generic {indexing_maps = [#map3, #map3, #map4, #map3], iterator_types = ["parallel", "parallel"]} ins(%5, %cst_3, %cst_2 : tensor<16x16xi1>, tensor<16x16xf32>, tensor<f32>) outs(%6 : tensor<16x16xf32>) {
    ^bb0(%in: i1, %in_12: f32, %in_13: f32, %out: f32):
      %30 = arith.select %in, %in_12, %in_13 : f32
      linalg.yield %30 : f32
    } -> tensor<16x16xf32>
    %8 = linalg.generic {indexing_maps = [#map3, #map3], iterator_types = ["parallel", "parallel"]} ins(%7 : tensor<16x16xf32>) outs(%4 : tensor<16x16xi1>) {
    ^bb0(%in: f32, %out: i1):
      %30 = arith.cmpf une, %in, %cst : f32
      linalg.yield %30 : i1
    } -> tensor<16x16xi1>
    %9 = tensor.empty() : tensor<2x4x32x16xf32>
    %transposed = linalg.transpose ins(%arg1 : tensor<2x4x16x32xf32>) outs(%9 : tensor<2x4x32x16xf32>) permutation = [0, 1, 3, 2] 
    %collapsed = tensor.collapse_shape %arg0 [[0, 1], [2], [3]] : tensor<2x4x16x32xf32> into tensor<8x16x32xf32>
    %collapsed_6 = tensor.collapse_shape %transposed [[0, 1], [2], [3]] : tensor<2x4x32x16xf32> into tensor<8x32x16xf32>
    %10 = tensor.empty() : tensor<8x16x16xf32>
    %11 = linalg.fill ins(%cst : f32) outs(%10 : tensor<8x16x16xf32>) -> tensor<8x16x16xf32>
    %12 = linalg.batch_matmul ins(%collapsed, %collapsed_6 : tensor<8x16x32xf32>, tensor<8x32x16xf32>) outs(%11 : tensor<8x16x16xf32>) -> tensor<8x16x16xf32>
    %expanded_7 = tensor.expand_shape %12 [[0, 1], [2], [3]] output_shape [2, 4, 16, 16] : tensor<8x16x16xf32> into tensor<2x4x16x16xf32>
    %13 = tensor.empty() : tensor<2x4x16x16xf32>
    %14 = linalg.generic {indexing_maps = [#map5, #map5], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%expanded_7 : tensor<2x4x16x16xf32>) outs(%13 : tensor<2x4x16x16xf32>) {
    ^bb0(%in: f32, %out: f32):
      %30 = arith.truncf %cst_4 : f64 to f32
      %31 = arith.divf %in, %30 : f32
      linalg.yield %31 : f32
    } -> tensor<2x4x16x16xf32>
    %15 = linalg.generic {indexing_maps = [#map6, #map5, #map7, #map5], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%8, %14, %cst_1 : tensor<16x16xi1>, tensor<2x4x16x16xf32>, tensor<f32>) outs(%13 : tensor<2x4x16x16xf32>) {
    ^bb0(%in: i1, %in_12: f32, %in_13: f32, %out: f32):
      %30 = arith.select %in, %in_12, %in_13 : f32
      linalg.yield %30 : f32
    } -> tensor<2x4x16x16xf32>
    %16 = tensor.empty() : tensor<2x4x16xi64>
    %17 = linalg.fill ins(%c0_i64 : i64) outs(%16 : tensor<2x4x16xi64>) -> tensor<2x4x16xi64>
    %18 = tensor.empty() : tensor<2x4x16xf32>
    %19 = linalg.fill ins(%cst_0 : f32) outs(%18 : tensor<2x4x16xf32>) -> tensor<2x4x16xf32>
    %20:2 = linalg.generic {indexing_maps = [#map5, #map8, #map8], iterator_types = ["parallel", "parallel", "parallel", "reduction"]} ins(%15 : tensor<2x4x16x16xf32>) outs(%19, %17 : tensor<2x4x16xf32>, tensor<2x4x16xi64>) {
    ^bb0(%in: f32, %out: f32, %out_12: i64):
      %30 = linalg.index 3 : index
      %31 = arith.index_cast %30 : index to i64
      %32 = arith.maximumf %in, %out : f32
      %33 = arith.cmpf ogt, %in, %out : f32
      %34 = arith.select %33, %31, %out_12 : i64
      linalg.yield %32, %34 : f32, i64
    } -> (tensor<2x4x16xf32>, tensor<2x4x16xi64>)
    %expanded_8 = tensor.expand_shape %20#0 [[0], [1], [2, 3]] output_shape [2, 4, 16, 1] : tensor<2x4x16xf32> into tensor<2x4x16x1xf32>
    %21 = linalg.generic {indexing_maps = [#map5, #map9, #map5], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%15, %expanded_8 : tensor<2x4x16x16xf32>, tensor<2x4x16x1xf32>) outs(%13 : tensor<2x4x16x16xf32>) {
    ^bb0(%in: f32, %in_12: f32, %out: f32):
      %30 = arith.subf %in, %in_12 : f32
      linalg.yield %30 : f32
    } -> tensor<2x4x16x16xf32>
    %22 = linalg.generic {indexing_maps = [#map5, #map5], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%21 : tensor<2x4x16x16xf32>) outs(%13 : tensor<2x4x16x16xf32>) {
    ^bb0(%in: f32, %out: f32):
      %30 = math.exp %in : f32
      linalg.yield %30 : f32
    } -> tensor<2x4x16x16xf32>
    %23 = tensor.empty() : tensor<2x4x16x1xf32>
    %24 = linalg.fill ins(%cst : f32) outs(%23 : tensor<2x4x16x1xf32>) -> tensor<2x4x16x1xf32>
    %25 = linalg.generic {indexing_maps = [#map5, #map9], iterator_types = ["parallel", "parallel", "parallel", "reduction"]} ins(%22 : tensor<2x4x16x16xf32>) outs(%24 : tensor<2x4x16x1xf32>) {
    ^bb0(%in: f32, %out: f32):
      %30 = arith.addf %in, %out : f32
      linalg.yield %30 : f32
    } -> tensor<2x4x16x1xf32>
    %26 = linalg.generic {indexing_maps = [#map5, #map9, #map5], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%22, %25 : tensor<2x4x16x16xf32>, tensor<2x4x16x1xf32>) outs(%13 : tensor<2x4x16x16xf32>) {
    ^bb0(%in: f32, %in_12: f32, %out: f32):
      %30 = arith.divf %in, %in_12 : f32
      linalg.yield %30 : f32
    } -> tensor<2x4x16x16xf32>
    %collapsed_9 = tensor.collapse_shape %26 [[0, 1], [2], [3]] : tensor<2x4x16x16xf32> into tensor<8x16x16xf32>
    %collapsed_10 = tensor.collapse_shape %arg2 [[0, 1], [2], [3]] : tensor<2x4x16x32xf32> into tensor<8x16x32xf32>
    %27 = tensor.empty() : tensor<8x16x32xf32>
    %28 = linalg.fill ins(%cst : f32) outs(%27 : tensor<8x16x32xf32>) -> tensor<8x16x32xf32>
    %29 = linalg.batch_matmul ins(%collapsed_9, %collapsed_10 : tensor<8x16x16xf32>, tensor<8x16x32xf32>) outs(%28 : tensor<8x16x32xf32>) -> tensor<8x16x32xf32>
    %expanded_11 = tensor.expand_shape %29 [[0, 1], [2], [3]] output_shape [2, 4, 16, 32] : tensor<8x16x32xf32> into tensor<2x4x16x32xf32>
    return %expanded_11 : tensor<2x4x16x32xf32>
  }
}
