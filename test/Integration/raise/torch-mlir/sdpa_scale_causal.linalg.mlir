// sdpa_scale_causal (SdpaScaleCausal), exported by
// scripts/export_torch_mlir_cases.py (torch 2.15.0+cu132, torch_mlir.fx, output linalg-on-tensors).
// RUN: attention-opt %s --attn-raise-pipeline | FileCheck %s
// RUN: attn-raise-check %s --require-raised --runs=2 --seed=27 | FileCheck %s --check-prefix=PROOF --implicit-check-not=FAIL
// CHECK: attn.attention {{.*}}{causal = #attn.causal<top_left>, scale = 3.000000e-01 : f32}
// CHECK-NOT: linalg.
// PROOF: @sdpa_scale_causal: 1 attn.attention after the raising
// PROOF: run 1 result 0 {{.*}}: PASS
#map = affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>
#map1 = affine_map<(d0) -> (d0)>
#map2 = affine_map<(d0, d1) -> (0, d1)>
#map3 = affine_map<(d0, d1) -> (d0, 0)>
#map4 = affine_map<(d0, d1) -> (d0, d1)>
#map5 = affine_map<(d0, d1) -> ()>
#map6 = affine_map<(d0, d1, d2, d3) -> (d2, d3)>
#map7 = affine_map<(d0, d1, d2, d3) -> (d0, d1, d2)>
#map8 = affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, 0)>
module {
  func.func @sdpa_scale_causal(%arg0: tensor<2x4x16x32xf32>, %arg1: tensor<2x4x16x32xf32>, %arg2: tensor<2x4x16x32xf32>) -> tensor<2x4x16x32xf32> {
    %c0_i64 = arith.constant 0 : i64
    %cst = arith.constant 0.000000e+00 : f32
    %cst_0 = arith.constant 0xFF800000 : f32
    %true = arith.constant true
    %cst_1 = arith.constant dense<0.000000e+00> : tensor<2x4x16x16xf32>
    %cst_2 = arith.constant dense<0.000000e+00> : tensor<f32>
    %cst_3 = arith.constant dense<0xFF800000> : tensor<f32>
    %cst_4 = arith.constant dense<true> : tensor<16x16xi1>
    %cst_5 = arith.constant 0xFFF0000000000000 : f64
    %cst_6 = arith.constant 0.54772255750516607 : f64
    %0 = tensor.empty() : tensor<2x4x16x32xf32>
    %1 = linalg.generic {indexing_maps = [#map, #map], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%arg0 : tensor<2x4x16x32xf32>) outs(%0 : tensor<2x4x16x32xf32>) {
    ^bb0(%in: f32, %out: f32):
      %38 = arith.truncf %cst_6 : f64 to f32
      %39 = arith.mulf %in, %38 : f32
      linalg.yield %39 : f32
    } -> tensor<2x4x16x32xf32>
    %2 = tensor.empty() : tensor<16xi64>
    %3 = linalg.generic {indexing_maps = [#map1], iterator_types = ["parallel"]} outs(%2 : tensor<16xi64>) {
    ^bb0(%out: i64):
      %38 = linalg.index 0 : index
      %39 = arith.index_cast %38 : index to i64
      linalg.yield %39 : i64
    } -> tensor<16xi64>
    %expanded = tensor.expand_shape %3 [[0, 1]] output_shape [1, 16] : tensor<16xi64> into tensor<1x16xi64>
    %expanded_7 = tensor.expand_shape %3 [[0, 1]] output_shape [16, 1] : tensor<16xi64> into tensor<16x1xi64>
    %4 = tensor.empty() : tensor<16x16xi64>
    %5 = linalg.generic {indexing_maps = [#map2, #map3, #map4], iterator_types = ["parallel", "parallel"]} ins(%expanded, %expanded_7 : tensor<1x16xi64>, tensor<16x1xi64>) outs(%4 : tensor<16x16xi64>) {
    ^bb0(%in: i64, %in_14: i64, %out: i64):
      %38 = arith.subi %in, %in_14 : i64
      linalg.yield %38 : i64
    } -> tensor<16x16xi64>
    %6 = tensor.empty() : tensor<16x16xi1>
    %7 = linalg.generic {indexing_maps = [#map4, #map4], iterator_types = ["parallel", "parallel"]} ins(%5 : tensor<16x16xi64>) outs(%6 : tensor<16x16xi1>) {
    ^bb0(%in: i64, %out: i1):
      %38 = arith.cmpi sle, %in, %c0_i64 : i64
      linalg.yield %38 : i1
    } -> tensor<16x16xi1>
    %8 = linalg.generic {indexing_maps = [#map4, #map4, #map4], iterator_types = ["parallel", "parallel"]} ins(%7, %cst_4 : tensor<16x16xi1>, tensor<16x16xi1>) outs(%6 : tensor<16x16xi1>) {
    ^bb0(%in: i1, %in_14: i1, %out: i1):
      %38 = arith.andi %in, %in_14 : i1
      linalg.yield %38 : i1
    } -> tensor<16x16xi1>
    %9 = tensor.empty() : tensor<16x16xf32>
    %10 = linalg.generic {indexing_maps = [#map4, #map5, #map5, #map4], iterator_types = ["parallel", "parallel"]} ins(%8, %cst_2, %cst_3 : tensor<16x16xi1>, tensor<f32>, tensor<f32>) outs(%9 : tensor<16x16xf32>) {
    ^bb0(%in: i1, %in_14: f32, %in_15: f32, %out: f32):
      %38 = arith.select %in, %in_14, %in_15 : f32
      linalg.yield %38 : f32
    } -> tensor<16x16xf32>
    %11 = tensor.empty() : tensor<2x4x32x16xf32>
    %transposed = linalg.transpose ins(%arg1 : tensor<2x4x16x32xf32>) outs(%11 : tensor<2x4x32x16xf32>) permutation = [0, 1, 3, 2] 
    %12 = linalg.generic {indexing_maps = [#map, #map], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%transposed : tensor<2x4x32x16xf32>) outs(%11 : tensor<2x4x32x16xf32>) {
    ^bb0(%in: f32, %out: f32):
      %38 = arith.truncf %cst_6 : f64 to f32
      %39 = arith.mulf %in, %38 : f32
      linalg.yield %39 : f32
    } -> tensor<2x4x32x16xf32>
    %collapsed = tensor.collapse_shape %1 [[0, 1], [2], [3]] : tensor<2x4x16x32xf32> into tensor<8x16x32xf32>
    %collapsed_8 = tensor.collapse_shape %12 [[0, 1], [2], [3]] : tensor<2x4x32x16xf32> into tensor<8x32x16xf32>
    %13 = tensor.empty() : tensor<8x16x16xf32>
    %14 = linalg.fill ins(%cst : f32) outs(%13 : tensor<8x16x16xf32>) -> tensor<8x16x16xf32>
    %15 = linalg.batch_matmul ins(%collapsed, %collapsed_8 : tensor<8x16x32xf32>, tensor<8x32x16xf32>) outs(%14 : tensor<8x16x16xf32>) -> tensor<8x16x16xf32>
    %expanded_9 = tensor.expand_shape %15 [[0, 1], [2], [3]] output_shape [2, 4, 16, 16] : tensor<8x16x16xf32> into tensor<2x4x16x16xf32>
    %16 = tensor.empty() : tensor<2x4x16x16xf32>
    %17 = linalg.generic {indexing_maps = [#map, #map6, #map], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%expanded_9, %10 : tensor<2x4x16x16xf32>, tensor<16x16xf32>) outs(%16 : tensor<2x4x16x16xf32>) {
    ^bb0(%in: f32, %in_14: f32, %out: f32):
      %38 = arith.addf %in, %in_14 : f32
      linalg.yield %38 : f32
    } -> tensor<2x4x16x16xf32>
    %18 = tensor.empty() : tensor<2x4x16xi64>
    %19 = linalg.fill ins(%c0_i64 : i64) outs(%18 : tensor<2x4x16xi64>) -> tensor<2x4x16xi64>
    %20 = tensor.empty() : tensor<2x4x16xf32>
    %21 = linalg.fill ins(%cst_0 : f32) outs(%20 : tensor<2x4x16xf32>) -> tensor<2x4x16xf32>
    %22:2 = linalg.generic {indexing_maps = [#map, #map7, #map7], iterator_types = ["parallel", "parallel", "parallel", "reduction"]} ins(%17 : tensor<2x4x16x16xf32>) outs(%21, %19 : tensor<2x4x16xf32>, tensor<2x4x16xi64>) {
    ^bb0(%in: f32, %out: f32, %out_14: i64):
      %38 = linalg.index 3 : index
      %39 = arith.index_cast %38 : index to i64
      %40 = arith.maximumf %in, %out : f32
      %41 = arith.cmpf ogt, %in, %out : f32
      %42 = arith.select %41, %39, %out_14 : i64
      linalg.yield %40, %42 : f32, i64
    } -> (tensor<2x4x16xf32>, tensor<2x4x16xi64>)
    %expanded_10 = tensor.expand_shape %22#0 [[0], [1], [2, 3]] output_shape [2, 4, 16, 1] : tensor<2x4x16xf32> into tensor<2x4x16x1xf32>
    %23 = linalg.generic {indexing_maps = [#map, #map8, #map], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%17, %expanded_10 : tensor<2x4x16x16xf32>, tensor<2x4x16x1xf32>) outs(%16 : tensor<2x4x16x16xf32>) {
    ^bb0(%in: f32, %in_14: f32, %out: f32):
      %38 = arith.subf %in, %in_14 : f32
      linalg.yield %38 : f32
    } -> tensor<2x4x16x16xf32>
    %24 = linalg.generic {indexing_maps = [#map, #map], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%23 : tensor<2x4x16x16xf32>) outs(%16 : tensor<2x4x16x16xf32>) {
    ^bb0(%in: f32, %out: f32):
      %38 = math.exp %in : f32
      linalg.yield %38 : f32
    } -> tensor<2x4x16x16xf32>
    %25 = tensor.empty() : tensor<2x4x16x1xf32>
    %26 = linalg.fill ins(%cst : f32) outs(%25 : tensor<2x4x16x1xf32>) -> tensor<2x4x16x1xf32>
    %27 = linalg.generic {indexing_maps = [#map, #map8], iterator_types = ["parallel", "parallel", "parallel", "reduction"]} ins(%24 : tensor<2x4x16x16xf32>) outs(%26 : tensor<2x4x16x1xf32>) {
    ^bb0(%in: f32, %out: f32):
      %38 = arith.addf %in, %out : f32
      linalg.yield %38 : f32
    } -> tensor<2x4x16x1xf32>
    %28 = linalg.generic {indexing_maps = [#map, #map8, #map], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%24, %27 : tensor<2x4x16x16xf32>, tensor<2x4x16x1xf32>) outs(%16 : tensor<2x4x16x16xf32>) {
    ^bb0(%in: f32, %in_14: f32, %out: f32):
      %38 = arith.divf %in, %in_14 : f32
      linalg.yield %38 : f32
    } -> tensor<2x4x16x16xf32>
    %29 = tensor.empty() : tensor<2x4x16x16xi1>
    %30 = linalg.generic {indexing_maps = [#map, #map], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%17 : tensor<2x4x16x16xf32>) outs(%29 : tensor<2x4x16x16xi1>) {
    ^bb0(%in: f32, %out: i1):
      %38 = arith.extf %in : f32 to f64
      %39 = arith.cmpf oeq, %38, %cst_5 : f64
      linalg.yield %39 : i1
    } -> tensor<2x4x16x16xi1>
    %31 = tensor.empty() : tensor<2x4x16x1xi1>
    %32 = linalg.fill ins(%true : i1) outs(%31 : tensor<2x4x16x1xi1>) -> tensor<2x4x16x1xi1>
    %33 = linalg.generic {indexing_maps = [#map, #map8], iterator_types = ["parallel", "parallel", "parallel", "reduction"]} ins(%30 : tensor<2x4x16x16xi1>) outs(%32 : tensor<2x4x16x1xi1>) {
    ^bb0(%in: i1, %out: i1):
      %38 = arith.andi %in, %out : i1
      linalg.yield %38 : i1
    } -> tensor<2x4x16x1xi1>
    %34 = linalg.generic {indexing_maps = [#map8, #map, #map, #map], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%33, %cst_1, %28 : tensor<2x4x16x1xi1>, tensor<2x4x16x16xf32>, tensor<2x4x16x16xf32>) outs(%16 : tensor<2x4x16x16xf32>) {
    ^bb0(%in: i1, %in_14: f32, %in_15: f32, %out: f32):
      %38 = arith.select %in, %in_14, %in_15 : f32
      linalg.yield %38 : f32
    } -> tensor<2x4x16x16xf32>
    %collapsed_11 = tensor.collapse_shape %34 [[0, 1], [2], [3]] : tensor<2x4x16x16xf32> into tensor<8x16x16xf32>
    %collapsed_12 = tensor.collapse_shape %arg2 [[0, 1], [2], [3]] : tensor<2x4x16x32xf32> into tensor<8x16x32xf32>
    %35 = tensor.empty() : tensor<8x16x32xf32>
    %36 = linalg.fill ins(%cst : f32) outs(%35 : tensor<8x16x32xf32>) -> tensor<8x16x32xf32>
    %37 = linalg.batch_matmul ins(%collapsed_11, %collapsed_12 : tensor<8x16x16xf32>, tensor<8x16x32xf32>) outs(%36 : tensor<8x16x32xf32>) -> tensor<8x16x32xf32>
    %expanded_13 = tensor.expand_shape %37 [[0, 1], [2], [3]] output_shape [2, 4, 16, 32] : tensor<8x16x32xf32> into tensor<2x4x16x32xf32>
    return %expanded_13 : tensor<2x4x16x32xf32>
  }
}
