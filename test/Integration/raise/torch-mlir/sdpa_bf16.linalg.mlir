// sdpa_bf16 (SdpaCausal16: bf16 tensors: PyTorch's math path computes in f32 between casts.), exported by
// scripts/export_torch_mlir_cases.py (torch 2.15.0+cu132, torch_mlir.fx, output linalg-on-tensors).
// RUN: attention-opt %s --attn-raise-pipeline | FileCheck %s
// RUN: attn-raise-check %s --require-raised --runs=2 --seed=37 | FileCheck %s --check-prefix=PROOF --implicit-check-not=FAIL
// CHECK: attn.attention {{.*}}-> tensor<2x4x16x32xf32>
// PROOF: @sdpa_bf16: 1 attn.attention after the raising
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
  func.func @sdpa_bf16(%arg0: tensor<2x4x16x32xbf16>, %arg1: tensor<2x4x16x32xbf16>, %arg2: tensor<2x4x16x32xbf16>) -> tensor<2x4x16x32xbf16> {
    %c0_i64 = arith.constant 0 : i64
    %cst = arith.constant 0.000000e+00 : f32
    %cst_0 = arith.constant 0xFF800000 : f32
    %true = arith.constant true
    %cst_1 = arith.constant dense<0.000000e+00> : tensor<2x4x16x16xf32>
    %cst_2 = arith.constant dense<0.000000e+00> : tensor<f32>
    %cst_3 = arith.constant dense<0xFF800000> : tensor<f32>
    %cst_4 = arith.constant dense<true> : tensor<16x16xi1>
    %cst_5 = arith.constant 0xFFF0000000000000 : f64
    %cst_6 = arith.constant 0.42044820762685725 : f64
    %0 = tensor.empty() : tensor<2x4x16x32xf32>
    %1 = linalg.generic {indexing_maps = [#map, #map], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%arg0 : tensor<2x4x16x32xbf16>) outs(%0 : tensor<2x4x16x32xf32>) {
    ^bb0(%in: bf16, %out: f32):
      %43 = arith.extf %in : bf16 to f32
      linalg.yield %43 : f32
    } -> tensor<2x4x16x32xf32>
    %2 = linalg.generic {indexing_maps = [#map, #map], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%arg1 : tensor<2x4x16x32xbf16>) outs(%0 : tensor<2x4x16x32xf32>) {
    ^bb0(%in: bf16, %out: f32):
      %43 = arith.extf %in : bf16 to f32
      linalg.yield %43 : f32
    } -> tensor<2x4x16x32xf32>
    %3 = linalg.generic {indexing_maps = [#map, #map], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%arg2 : tensor<2x4x16x32xbf16>) outs(%0 : tensor<2x4x16x32xf32>) {
    ^bb0(%in: bf16, %out: f32):
      %43 = arith.extf %in : bf16 to f32
      linalg.yield %43 : f32
    } -> tensor<2x4x16x32xf32>
    %4 = linalg.generic {indexing_maps = [#map, #map], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%1 : tensor<2x4x16x32xf32>) outs(%0 : tensor<2x4x16x32xf32>) {
    ^bb0(%in: f32, %out: f32):
      %43 = arith.truncf %cst_6 : f64 to f32
      %44 = arith.mulf %in, %43 : f32
      linalg.yield %44 : f32
    } -> tensor<2x4x16x32xf32>
    %5 = tensor.empty() : tensor<16xi64>
    %6 = linalg.generic {indexing_maps = [#map1], iterator_types = ["parallel"]} outs(%5 : tensor<16xi64>) {
    ^bb0(%out: i64):
      %43 = linalg.index 0 : index
      %44 = arith.index_cast %43 : index to i64
      linalg.yield %44 : i64
    } -> tensor<16xi64>
    %expanded = tensor.expand_shape %6 [[0, 1]] output_shape [1, 16] : tensor<16xi64> into tensor<1x16xi64>
    %expanded_7 = tensor.expand_shape %6 [[0, 1]] output_shape [16, 1] : tensor<16xi64> into tensor<16x1xi64>
    %7 = tensor.empty() : tensor<16x16xi64>
    %8 = linalg.generic {indexing_maps = [#map2, #map3, #map4], iterator_types = ["parallel", "parallel"]} ins(%expanded, %expanded_7 : tensor<1x16xi64>, tensor<16x1xi64>) outs(%7 : tensor<16x16xi64>) {
    ^bb0(%in: i64, %in_14: i64, %out: i64):
      %43 = arith.subi %in, %in_14 : i64
      linalg.yield %43 : i64
    } -> tensor<16x16xi64>
    %9 = tensor.empty() : tensor<16x16xi1>
    %10 = linalg.generic {indexing_maps = [#map4, #map4], iterator_types = ["parallel", "parallel"]} ins(%8 : tensor<16x16xi64>) outs(%9 : tensor<16x16xi1>) {
    ^bb0(%in: i64, %out: i1):
      %43 = arith.cmpi sle, %in, %c0_i64 : i64
      linalg.yield %43 : i1
    } -> tensor<16x16xi1>
    %11 = linalg.generic {indexing_maps = [#map4, #map4, #map4], iterator_types = ["parallel", "parallel"]} ins(%10, %cst_4 : tensor<16x16xi1>, tensor<16x16xi1>) outs(%9 : tensor<16x16xi1>) {
    ^bb0(%in: i1, %in_14: i1, %out: i1):
      %43 = arith.andi %in, %in_14 : i1
      linalg.yield %43 : i1
    } -> tensor<16x16xi1>
    %12 = tensor.empty() : tensor<16x16xf32>
    %13 = linalg.generic {indexing_maps = [#map4, #map5, #map5, #map4], iterator_types = ["parallel", "parallel"]} ins(%11, %cst_2, %cst_3 : tensor<16x16xi1>, tensor<f32>, tensor<f32>) outs(%12 : tensor<16x16xf32>) {
    ^bb0(%in: i1, %in_14: f32, %in_15: f32, %out: f32):
      %43 = arith.select %in, %in_14, %in_15 : f32
      linalg.yield %43 : f32
    } -> tensor<16x16xf32>
    %14 = tensor.empty() : tensor<2x4x32x16xf32>
    %transposed = linalg.transpose ins(%2 : tensor<2x4x16x32xf32>) outs(%14 : tensor<2x4x32x16xf32>) permutation = [0, 1, 3, 2] 
    %15 = linalg.generic {indexing_maps = [#map, #map], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%transposed : tensor<2x4x32x16xf32>) outs(%14 : tensor<2x4x32x16xf32>) {
    ^bb0(%in: f32, %out: f32):
      %43 = arith.truncf %cst_6 : f64 to f32
      %44 = arith.mulf %in, %43 : f32
      linalg.yield %44 : f32
    } -> tensor<2x4x32x16xf32>
    %collapsed = tensor.collapse_shape %4 [[0, 1], [2], [3]] : tensor<2x4x16x32xf32> into tensor<8x16x32xf32>
    %collapsed_8 = tensor.collapse_shape %15 [[0, 1], [2], [3]] : tensor<2x4x32x16xf32> into tensor<8x32x16xf32>
    %16 = tensor.empty() : tensor<8x16x16xf32>
    %17 = linalg.fill ins(%cst : f32) outs(%16 : tensor<8x16x16xf32>) -> tensor<8x16x16xf32>
    %18 = linalg.batch_matmul ins(%collapsed, %collapsed_8 : tensor<8x16x32xf32>, tensor<8x32x16xf32>) outs(%17 : tensor<8x16x16xf32>) -> tensor<8x16x16xf32>
    %expanded_9 = tensor.expand_shape %18 [[0, 1], [2], [3]] output_shape [2, 4, 16, 16] : tensor<8x16x16xf32> into tensor<2x4x16x16xf32>
    %19 = tensor.empty() : tensor<2x4x16x16xf32>
    %20 = linalg.generic {indexing_maps = [#map, #map6, #map], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%expanded_9, %13 : tensor<2x4x16x16xf32>, tensor<16x16xf32>) outs(%19 : tensor<2x4x16x16xf32>) {
    ^bb0(%in: f32, %in_14: f32, %out: f32):
      %43 = arith.addf %in, %in_14 : f32
      linalg.yield %43 : f32
    } -> tensor<2x4x16x16xf32>
    %21 = tensor.empty() : tensor<2x4x16xi64>
    %22 = linalg.fill ins(%c0_i64 : i64) outs(%21 : tensor<2x4x16xi64>) -> tensor<2x4x16xi64>
    %23 = tensor.empty() : tensor<2x4x16xf32>
    %24 = linalg.fill ins(%cst_0 : f32) outs(%23 : tensor<2x4x16xf32>) -> tensor<2x4x16xf32>
    %25:2 = linalg.generic {indexing_maps = [#map, #map7, #map7], iterator_types = ["parallel", "parallel", "parallel", "reduction"]} ins(%20 : tensor<2x4x16x16xf32>) outs(%24, %22 : tensor<2x4x16xf32>, tensor<2x4x16xi64>) {
    ^bb0(%in: f32, %out: f32, %out_14: i64):
      %43 = linalg.index 3 : index
      %44 = arith.index_cast %43 : index to i64
      %45 = arith.maximumf %in, %out : f32
      %46 = arith.cmpf ogt, %in, %out : f32
      %47 = arith.select %46, %44, %out_14 : i64
      linalg.yield %45, %47 : f32, i64
    } -> (tensor<2x4x16xf32>, tensor<2x4x16xi64>)
    %expanded_10 = tensor.expand_shape %25#0 [[0], [1], [2, 3]] output_shape [2, 4, 16, 1] : tensor<2x4x16xf32> into tensor<2x4x16x1xf32>
    %26 = linalg.generic {indexing_maps = [#map, #map8, #map], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%20, %expanded_10 : tensor<2x4x16x16xf32>, tensor<2x4x16x1xf32>) outs(%19 : tensor<2x4x16x16xf32>) {
    ^bb0(%in: f32, %in_14: f32, %out: f32):
      %43 = arith.subf %in, %in_14 : f32
      linalg.yield %43 : f32
    } -> tensor<2x4x16x16xf32>
    %27 = linalg.generic {indexing_maps = [#map, #map], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%26 : tensor<2x4x16x16xf32>) outs(%19 : tensor<2x4x16x16xf32>) {
    ^bb0(%in: f32, %out: f32):
      %43 = math.exp %in : f32
      linalg.yield %43 : f32
    } -> tensor<2x4x16x16xf32>
    %28 = tensor.empty() : tensor<2x4x16x1xf32>
    %29 = linalg.fill ins(%cst : f32) outs(%28 : tensor<2x4x16x1xf32>) -> tensor<2x4x16x1xf32>
    %30 = linalg.generic {indexing_maps = [#map, #map8], iterator_types = ["parallel", "parallel", "parallel", "reduction"]} ins(%27 : tensor<2x4x16x16xf32>) outs(%29 : tensor<2x4x16x1xf32>) {
    ^bb0(%in: f32, %out: f32):
      %43 = arith.addf %in, %out : f32
      linalg.yield %43 : f32
    } -> tensor<2x4x16x1xf32>
    %31 = linalg.generic {indexing_maps = [#map, #map8, #map], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%27, %30 : tensor<2x4x16x16xf32>, tensor<2x4x16x1xf32>) outs(%19 : tensor<2x4x16x16xf32>) {
    ^bb0(%in: f32, %in_14: f32, %out: f32):
      %43 = arith.divf %in, %in_14 : f32
      linalg.yield %43 : f32
    } -> tensor<2x4x16x16xf32>
    %32 = tensor.empty() : tensor<2x4x16x16xi1>
    %33 = linalg.generic {indexing_maps = [#map, #map], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%20 : tensor<2x4x16x16xf32>) outs(%32 : tensor<2x4x16x16xi1>) {
    ^bb0(%in: f32, %out: i1):
      %43 = arith.extf %in : f32 to f64
      %44 = arith.cmpf oeq, %43, %cst_5 : f64
      linalg.yield %44 : i1
    } -> tensor<2x4x16x16xi1>
    %34 = tensor.empty() : tensor<2x4x16x1xi1>
    %35 = linalg.fill ins(%true : i1) outs(%34 : tensor<2x4x16x1xi1>) -> tensor<2x4x16x1xi1>
    %36 = linalg.generic {indexing_maps = [#map, #map8], iterator_types = ["parallel", "parallel", "parallel", "reduction"]} ins(%33 : tensor<2x4x16x16xi1>) outs(%35 : tensor<2x4x16x1xi1>) {
    ^bb0(%in: i1, %out: i1):
      %43 = arith.andi %in, %out : i1
      linalg.yield %43 : i1
    } -> tensor<2x4x16x1xi1>
    %37 = linalg.generic {indexing_maps = [#map8, #map, #map, #map], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%36, %cst_1, %31 : tensor<2x4x16x1xi1>, tensor<2x4x16x16xf32>, tensor<2x4x16x16xf32>) outs(%19 : tensor<2x4x16x16xf32>) {
    ^bb0(%in: i1, %in_14: f32, %in_15: f32, %out: f32):
      %43 = arith.select %in, %in_14, %in_15 : f32
      linalg.yield %43 : f32
    } -> tensor<2x4x16x16xf32>
    %collapsed_11 = tensor.collapse_shape %37 [[0, 1], [2], [3]] : tensor<2x4x16x16xf32> into tensor<8x16x16xf32>
    %collapsed_12 = tensor.collapse_shape %3 [[0, 1], [2], [3]] : tensor<2x4x16x32xf32> into tensor<8x16x32xf32>
    %38 = tensor.empty() : tensor<8x16x32xf32>
    %39 = linalg.fill ins(%cst : f32) outs(%38 : tensor<8x16x32xf32>) -> tensor<8x16x32xf32>
    %40 = linalg.batch_matmul ins(%collapsed_11, %collapsed_12 : tensor<8x16x16xf32>, tensor<8x16x32xf32>) outs(%39 : tensor<8x16x32xf32>) -> tensor<8x16x32xf32>
    %expanded_13 = tensor.expand_shape %40 [[0, 1], [2], [3]] output_shape [2, 4, 16, 32] : tensor<8x16x32xf32> into tensor<2x4x16x32xf32>
    %41 = tensor.empty() : tensor<2x4x16x32xbf16>
    %42 = linalg.generic {indexing_maps = [#map, #map], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%expanded_13 : tensor<2x4x16x32xf32>) outs(%41 : tensor<2x4x16x32xbf16>) {
    ^bb0(%in: f32, %out: bf16):
      %43 = arith.truncf %in : f32 to bf16
      linalg.yield %43 : bf16
    } -> tensor<2x4x16x32xbf16>
    return %42 : tensor<2x4x16x32xbf16>
  }
}
