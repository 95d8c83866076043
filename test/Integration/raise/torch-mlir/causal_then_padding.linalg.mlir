// causal_then_padding (CausalThenPadding: masked_fill(triu(ones, 1).bool(), -inf), then masked_fill of a padding mask (attention_mask == 0).), exported by
// scripts/export_torch_mlir_cases.py (torch 2.15.0+cu132, torch_mlir.fx, output linalg-on-tensors).
// RUN: attention-opt %s --attn-raise-pipeline | FileCheck %s
// RUN: attn-raise-check %s --require-raised --runs=2 --seed=99 | FileCheck %s --check-prefix=PROOF --implicit-check-not=FAIL
// CHECK: attn.attention {{.*}}mask({{.*}} : tensor<2x1x1x16xi1>) {causal = #attn.causal<top_left>, scale = 0.17677{{[0-9]+}} : f32}
// PROOF: @causal_then_padding: 1 attn.attention after the raising
// PROOF: run 1 result 0 {{.*}}: PASS
#map = affine_map<(d0) -> (d0)>
#map1 = affine_map<(d0, d1) -> (0, d1)>
#map2 = affine_map<(d0, d1) -> (d0, 0)>
#map3 = affine_map<(d0, d1) -> (d0, d1)>
#map4 = affine_map<(d0, d1) -> ()>
#map5 = affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>
#map6 = affine_map<(d0, d1, d2, d3) -> (d2, d3)>
#map7 = affine_map<(d0, d1, d2, d3) -> ()>
#map8 = affine_map<(d0, d1, d2, d3) -> (d0, 0, 0, d3)>
#map9 = affine_map<(d0, d1, d2, d3) -> (d0, d1, d2)>
#map10 = affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, 0)>
module {
  func.func @causal_then_padding(%arg0: tensor<2x4x16x32xf32>, %arg1: tensor<2x4x16x32xf32>, %arg2: tensor<2x4x16x32xf32>, %arg3: tensor<2x16xi64>) -> tensor<2x4x16x32xf32> {
    %c0_i64 = arith.constant 0 : i64
    %c1_i64 = arith.constant 1 : i64
    %cst = arith.constant 0.000000e+00 : f32
    %cst_0 = arith.constant 0xFF800000 : f32
    %cst_1 = arith.constant dense<0xFF800000> : tensor<f32>
    %cst_2 = arith.constant dense<0.000000e+00> : tensor<f32>
    %cst_3 = arith.constant dense<1.000000e+00> : tensor<16x16xf32>
    %cst_4 = arith.constant 5.6568542494923806 : f64
    %0 = tensor.empty() : tensor<16xi64>
    %1 = linalg.generic {indexing_maps = [#map], iterator_types = ["parallel"]} outs(%0 : tensor<16xi64>) {
    ^bb0(%out: i64):
      %33 = linalg.index 0 : index
      %34 = arith.index_cast %33 : index to i64
      linalg.yield %34 : i64
    } -> tensor<16xi64>
    %expanded = tensor.expand_shape %1 [[0, 1]] output_shape [1, 16] : tensor<16xi64> into tensor<1x16xi64>
    %expanded_5 = tensor.expand_shape %1 [[0, 1]] output_shape [16, 1] : tensor<16xi64> into tensor<16x1xi64>
    %2 = tensor.empty() : tensor<16x16xi64>
    %3 = linalg.generic {indexing_maps = [#map1, #map2, #map3], iterator_types = ["parallel", "parallel"]} ins(%expanded, %expanded_5 : tensor<1x16xi64>, tensor<16x1xi64>) outs(%2 : tensor<16x16xi64>) {
    ^bb0(%in: i64, %in_13: i64, %out: i64):
      %33 = arith.subi %in, %in_13 : i64
      linalg.yield %33 : i64
    } -> tensor<16x16xi64>
    %4 = tensor.empty() : tensor<16x16xi1>
    %5 = linalg.generic {indexing_maps = [#map3, #map3], iterator_types = ["parallel", "parallel"]} ins(%3 : tensor<16x16xi64>) outs(%4 : tensor<16x16xi1>) {
    ^bb0(%in: i64, %out: i1):
      %33 = arith.cmpi sge, %in, %c1_i64 : i64
      linalg.yield %33 : i1
    } -> tensor<16x16xi1>
    %6 = tensor.empty() : tensor<16x16xf32>
    %7 = linalg.generic {indexing_maps = [#map3, #map3, #map4, #map3], iterator_types = ["parallel", "parallel"]} ins(%5, %cst_3, %cst_2 : tensor<16x16xi1>, tensor<16x16xf32>, tensor<f32>) outs(%6 : tensor<16x16xf32>) {
    ^bb0(%in: i1, %in_13: f32, %in_14: f32, %out: f32):
      %33 = arith.select %in, %in_13, %in_14 : f32
      linalg.yield %33 : f32
    } -> tensor<16x16xf32>
    %8 = linalg.generic {indexing_maps = [#map3, #map3], iterator_types = ["parallel", "parallel"]} ins(%7 : tensor<16x16xf32>) outs(%4 : tensor<16x16xi1>) {
    ^bb0(%in: f32, %out: i1):
      %33 = arith.cmpf une, %in, %cst : f32
      linalg.yield %33 : i1
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
      %33 = arith.truncf %cst_4 : f64 to f32
      %34 = arith.divf %in, %33 : f32
      linalg.yield %34 : f32
    } -> tensor<2x4x16x16xf32>
    %15 = linalg.generic {indexing_maps = [#map6, #map7, #map5, #map5], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%8, %cst_1, %14 : tensor<16x16xi1>, tensor<f32>, tensor<2x4x16x16xf32>) outs(%13 : tensor<2x4x16x16xf32>) {
    ^bb0(%in: i1, %in_13: f32, %in_14: f32, %out: f32):
      %33 = arith.select %in, %in_13, %in_14 : f32
      linalg.yield %33 : f32
    } -> tensor<2x4x16x16xf32>
    %expanded_8 = tensor.expand_shape %arg3 [[0], [1, 2, 3]] output_shape [2, 1, 1, 16] : tensor<2x16xi64> into tensor<2x1x1x16xi64>
    %16 = tensor.empty() : tensor<2x1x1x16xi1>
    %17 = linalg.generic {indexing_maps = [#map5, #map5], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%expanded_8 : tensor<2x1x1x16xi64>) outs(%16 : tensor<2x1x1x16xi1>) {
    ^bb0(%in: i64, %out: i1):
      %33 = arith.cmpi eq, %in, %c0_i64 : i64
      linalg.yield %33 : i1
    } -> tensor<2x1x1x16xi1>
    %18 = linalg.generic {indexing_maps = [#map8, #map7, #map5, #map5], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%17, %cst_1, %15 : tensor<2x1x1x16xi1>, tensor<f32>, tensor<2x4x16x16xf32>) outs(%13 : tensor<2x4x16x16xf32>) {
    ^bb0(%in: i1, %in_13: f32, %in_14: f32, %out: f32):
      %33 = arith.select %in, %in_13, %in_14 : f32
      linalg.yield %33 : f32
    } -> tensor<2x4x16x16xf32>
    %19 = tensor.empty() : tensor<2x4x16xi64>
    %20 = linalg.fill ins(%c0_i64 : i64) outs(%19 : tensor<2x4x16xi64>) -> tensor<2x4x16xi64>
    %21 = tensor.empty() : tensor<2x4x16xf32>
    %22 = linalg.fill ins(%cst_0 : f32) outs(%21 : tensor<2x4x16xf32>) -> tensor<2x4x16xf32>
    %23:2 = linalg.generic {indexing_maps = [#map5, #map9, #map9], iterator_types = ["parallel", "parallel", "parallel", "reduction"]} ins(%18 : tensor<2x4x16x16xf32>) outs(%22, %20 : tensor<2x4x16xf32>, tensor<2x4x16xi64>) {
    ^bb0(%in: f32, %out: f32, %out_13: i64):
      %33 = linalg.index 3 : index
      %34 = arith.index_cast %33 : index to i64
      %35 = arith.maximumf %in, %out : f32
      %36 = arith.cmpf ogt, %in, %out : f32
      %37 = arith.select %36, %34, %out_13 : i64
      linalg.yield %35, %37 : f32, i64
    } -> (tensor<2x4x16xf32>, tensor<2x4x16xi64>)
    %expanded_9 = tensor.expand_shape %23#0 [[0], [1], [2, 3]] output_shape [2, 4, 16, 1] : tensor<2x4x16xf32> into tensor<2x4x16x1xf32>
    %24 = linalg.generic {indexing_maps = [#map5, #map10, #map5], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%18, %expanded_9 : tensor<2x4x16x16xf32>, tensor<2x4x16x1xf32>) outs(%13 : tensor<2x4x16x16xf32>) {
    ^bb0(%in: f32, %in_13: f32, %out: f32):
      %33 = arith.subf %in, %in_13 : f32
      linalg.yield %33 : f32
    } -> tensor<2x4x16x16xf32>
    %25 = linalg.generic {indexing_maps = [#map5, #map5], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%24 : tensor<2x4x16x16xf32>) outs(%13 : tensor<2x4x16x16xf32>) {
    ^bb0(%in: f32, %out: f32):
      %33 = math.exp %in : f32
      linalg.yield %33 : f32
    } -> tensor<2x4x16x16xf32>
    %26 = tensor.empty() : tensor<2x4x16x1xf32>
    %27 = linalg.fill ins(%cst : f32) outs(%26 : tensor<2x4x16x1xf32>) -> tensor<2x4x16x1xf32>
    %28 = linalg.generic {indexing_maps = [#map5, #map10], iterator_types = ["parallel", "parallel", "parallel", "reduction"]} ins(%25 : tensor<2x4x16x16xf32>) outs(%27 : tensor<2x4x16x1xf32>) {
    ^bb0(%in: f32, %out: f32):
      %33 = arith.addf %in, %out : f32
      linalg.yield %33 : f32
    } -> tensor<2x4x16x1xf32>
    %29 = linalg.generic {indexing_maps = [#map5, #map10, #map5], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%25, %28 : tensor<2x4x16x16xf32>, tensor<2x4x16x1xf32>) outs(%13 : tensor<2x4x16x16xf32>) {
    ^bb0(%in: f32, %in_13: f32, %out: f32):
      %33 = arith.divf %in, %in_13 : f32
      linalg.yield %33 : f32
    } -> tensor<2x4x16x16xf32>
    %collapsed_10 = tensor.collapse_shape %29 [[0, 1], [2], [3]] : tensor<2x4x16x16xf32> into tensor<8x16x16xf32>
    %collapsed_11 = tensor.collapse_shape %arg2 [[0, 1], [2], [3]] : tensor<2x4x16x32xf32> into tensor<8x16x32xf32>
    %30 = tensor.empty() : tensor<8x16x32xf32>
    %31 = linalg.fill ins(%cst : f32) outs(%30 : tensor<8x16x32xf32>) -> tensor<8x16x32xf32>
    %32 = linalg.batch_matmul ins(%collapsed_10, %collapsed_11 : tensor<8x16x16xf32>, tensor<8x16x32xf32>) outs(%31 : tensor<8x16x32xf32>) -> tensor<8x16x32xf32>
    %expanded_12 = tensor.expand_shape %32 [[0, 1], [2], [3]] output_shape [2, 4, 16, 32] : tensor<8x16x32xf32> into tensor<2x4x16x32xf32>
    return %expanded_12 : tensor<2x4x16x32xf32>
  }
}
