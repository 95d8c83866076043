// sdpa_causal_rect (SdpaCausalRect: SDPA is_causal with Lq < Lk: PyTorch's causal is top-left there.), exported by
// scripts/export_torch_mlir_cases.py (torch 2.15.0+cu132, torch_mlir.fx, output linalg-on-tensors).
// RUN: attention-opt %s --attn-raise-pipeline | FileCheck %s
// RUN: attn-raise-check %s --require-raised --runs=2 --seed=107 | FileCheck %s --check-prefix=PROOF --implicit-check-not=FAIL
// CHECK: attn.attention {{.*}}{causal = #attn.causal<top_left>, scale = 0.17677{{[0-9]+}} : f32}
// CHECK-NOT: linalg.
// PROOF: @sdpa_causal_rect: 1 attn.attention after the raising
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
  func.func @sdpa_causal_rect(%arg0: tensor<2x4x16x32xf32>, %arg1: tensor<2x4x24x32xf32>, %arg2: tensor<2x4x24x32xf32>) -> tensor<2x4x16x32xf32> {
    %c0_i64 = arith.constant 0 : i64
    %cst = arith.constant 0.000000e+00 : f32
    %cst_0 = arith.constant 0xFF800000 : f32
    %true = arith.constant true
    %cst_1 = arith.constant dense<0.000000e+00> : tensor<2x4x16x24xf32>
    %cst_2 = arith.constant dense<0.000000e+00> : tensor<f32>
    %cst_3 = arith.constant dense<0xFF800000> : tensor<f32>
    %cst_4 = arith.constant dense<true> : tensor<16x24xi1>
    %cst_5 = arith.constant 0xFFF0000000000000 : f64
    %cst_6 = arith.constant 0.42044820762685725 : f64
    %0 = tensor.empty() : tensor<2x4x16x32xf32>
    %1 = linalg.generic {indexing_maps = [#map, #map], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%arg0 : tensor<2x4x16x32xf32>) outs(%0 : tensor<2x4x16x32xf32>) {
    ^bb0(%in: f32, %out: f32):
      %40 = arith.truncf %cst_6 : f64 to f32
      %41 = arith.mulf %in, %40 : f32
      linalg.yield %41 : f32
    } -> tensor<2x4x16x32xf32>
    %2 = tensor.empty() : tensor<24xi64>
    %3 = linalg.generic {indexing_maps = [#map1], iterator_types = ["parallel"]} outs(%2 : tensor<24xi64>) {
    ^bb0(%out: i64):
      %40 = linalg.index 0 : index
      %41 = arith.index_cast %40 : index to i64
      linalg.yield %41 : i64
    } -> tensor<24xi64>
    %expanded = tensor.expand_shape %3 [[0, 1]] output_shape [1, 24] : tensor<24xi64> into tensor<1x24xi64>
    %4 = tensor.empty() : tensor<16xi64>
    %5 = linalg.generic {indexing_maps = [#map1], iterator_types = ["parallel"]} outs(%4 : tensor<16xi64>) {
    ^bb0(%out: i64):
      %40 = linalg.index 0 : index
      %41 = arith.index_cast %40 : index to i64
      linalg.yield %41 : i64
    } -> tensor<16xi64>
    %expanded_7 = tensor.expand_shape %5 [[0, 1]] output_shape [16, 1] : tensor<16xi64> into tensor<16x1xi64>
    %6 = tensor.empty() : tensor<16x24xi64>
    %7 = linalg.generic {indexing_maps = [#map2, #map3, #map4], iterator_types = ["parallel", "parallel"]} ins(%expanded, %expanded_7 : tensor<1x24xi64>, tensor<16x1xi64>) outs(%6 : tensor<16x24xi64>) {
    ^bb0(%in: i64, %in_14: i64, %out: i64):
      %40 = arith.subi %in, %in_14 : i64
      linalg.yield %40 : i64
    } -> tensor<16x24xi64>
    %8 = tensor.empty() : tensor<16x24xi1>
    %9 = linalg.generic {indexing_maps = [#map4, #map4], iterator_types = ["parallel", "parallel"]} ins(%7 : tensor<16x24xi64>) outs(%8 : tensor<16x24xi1>) {
    ^bb0(%in: i64, %out: i1):
      %40 = arith.cmpi sle, %in, %c0_i64 : i64
      linalg.yield %40 : i1
    } -> tensor<16x24xi1>
    %10 = linalg.generic {indexing_maps = [#map4, #map4, #map4], iterator_types = ["parallel", "parallel"]} ins(%9, %cst_4 : tensor<16x24xi1>, tensor<16x24xi1>) outs(%8 : tensor<16x24xi1>) {
    ^bb0(%in: i1, %in_14: i1, %out: i1):
      %40 = arith.andi %in, %in_14 : i1
      linalg.yield %40 : i1
    } -> tensor<16x24xi1>
    %11 = tensor.empty() : tensor<16x24xf32>
    %12 = linalg.generic {indexing_maps = [#map4, #map5, #map5, #map4], iterator_types = ["parallel", "parallel"]} ins(%10, %cst_2, %cst_3 : tensor<16x24xi1>, tensor<f32>, tensor<f32>) outs(%11 : tensor<16x24xf32>) {
    ^bb0(%in: i1, %in_14: f32, %in_15: f32, %out: f32):
      %40 = arith.select %in, %in_14, %in_15 : f32
      linalg.yield %40 : f32
    } -> tensor<16x24xf32>
    %13 = tensor.empty() : tensor<2x4x32x24xf32>
    %transposed = linalg.transpose ins(%arg1 : tensor<2x4x24x32xf32>) outs(%13 : tensor<2x4x32x24xf32>) permutation = [0, 1, 3, 2] 
    %14 = linalg.generic {indexing_maps = [#map, #map], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%transposed : tensor<2x4x32x24xf32>) outs(%13 : tensor<2x4x32x24xf32>) {
    ^bb0(%in: f32, %out: f32):
      %40 = arith.truncf %cst_6 : f64 to f32
      %41 = arith.mulf %in, %40 : f32
      linalg.yield %41 : f32
    } -> tensor<2x4x32x24xf32>
    %collapsed = tensor.collapse_shape %1 [[0, 1], [2], [3]] : tensor<2x4x16x32xf32> into tensor<8x16x32xf32>
    %collapsed_8 = tensor.collapse_shape %14 [[0, 1], [2], [3]] : tensor<2x4x32x24xf32> into tensor<8x32x24xf32>
    %15 = tensor.empty() : tensor<8x16x24xf32>
    %16 = linalg.fill ins(%cst : f32) outs(%15 : tensor<8x16x24xf32>) -> tensor<8x16x24xf32>
    %17 = linalg.batch_matmul ins(%collapsed, %collapsed_8 : tensor<8x16x32xf32>, tensor<8x32x24xf32>) outs(%16 : tensor<8x16x24xf32>) -> tensor<8x16x24xf32>
    %expanded_9 = tensor.expand_shape %17 [[0, 1], [2], [3]] output_shape [2, 4, 16, 24] : tensor<8x16x24xf32> into tensor<2x4x16x24xf32>
    %18 = tensor.empty() : tensor<2x4x16x24xf32>
    %19 = linalg.generic {indexing_maps = [#map, #map6, #map], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%expanded_9, %12 : tensor<2x4x16x24xf32>, tensor<16x24xf32>) outs(%18 : tensor<2x4x16x24xf32>) {
    ^bb0(%in: f32, %in_14: f32, %out: f32):
      %40 = arith.addf %in, %in_14 : f32
      linalg.yield %40 : f32
    } -> tensor<2x4x16x24xf32>
    %20 = tensor.empty() : tensor<2x4x16xi64>
    %21 = linalg.fill ins(%c0_i64 : i64) outs(%20 : tensor<2x4x16xi64>) -> tensor<2x4x16xi64>
    %22 = tensor.empty() : tensor<2x4x16xf32>
    %23 = linalg.fill ins(%cst_0 : f32) outs(%22 : tensor<2x4x16xf32>) -> tensor<2x4x16xf32>
    %24:2 = linalg.generic {indexing_maps = [#map, #map7, #map7], iterator_types = ["parallel", "parallel", "parallel", "reduction"]} ins(%19 : tensor<2x4x16x24xf32>) outs(%23, %21 : tensor<2x4x16xf32>, tensor<2x4x16xi64>) {
    ^bb0(%in: f32, %out: f32, %out_14: i64):
      %40 = linalg.index 3 : index
      %41 = arith.index_cast %40 : index to i64
      %42 = arith.maximumf %in, %out : f32
      %43 = arith.cmpf ogt, %in, %out : f32
      %44 = arith.select %43, %41, %out_14 : i64
      linalg.yield %42, %44 : f32, i64
    } -> (tensor<2x4x16xf32>, tensor<2x4x16xi64>)
    %expanded_10 = tensor.expand_shape %24#0 [[0], [1], [2, 3]] output_shape [2, 4, 16, 1] : tensor<2x4x16xf32> into tensor<2x4x16x1xf32>
    %25 = linalg.generic {indexing_maps = [#map, #map8, #map], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%19, %expanded_10 : tensor<2x4x16x24xf32>, tensor<2x4x16x1xf32>) outs(%18 : tensor<2x4x16x24xf32>) {
    ^bb0(%in: f32, %in_14: f32, %out: f32):
      %40 = arith.subf %in, %in_14 : f32
      linalg.yield %40 : f32
    } -> tensor<2x4x16x24xf32>
    %26 = linalg.generic {indexing_maps = [#map, #map], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%25 : tensor<2x4x16x24xf32>) outs(%18 : tensor<2x4x16x24xf32>) {
    ^bb0(%in: f32, %out: f32):
      %40 = math.exp %in : f32
      linalg.yield %40 : f32
    } -> tensor<2x4x16x24xf32>
    %27 = tensor.empty() : tensor<2x4x16x1xf32>
    %28 = linalg.fill ins(%cst : f32) outs(%27 : tensor<2x4x16x1xf32>) -> tensor<2x4x16x1xf32>
    %29 = linalg.generic {indexing_maps = [#map, #map8], iterator_types = ["parallel", "parallel", "parallel", "reduction"]} ins(%26 : tensor<2x4x16x24xf32>) outs(%28 : tensor<2x4x16x1xf32>) {
    ^bb0(%in: f32, %out: f32):
      %40 = arith.addf %in, %out : f32
      linalg.yield %40 : f32
    } -> tensor<2x4x16x1xf32>
    %30 = linalg.generic {indexing_maps = [#map, #map8, #map], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%26, %29 : tensor<2x4x16x24xf32>, tensor<2x4x16x1xf32>) outs(%18 : tensor<2x4x16x24xf32>) {
    ^bb0(%in: f32, %in_14: f32, %out: f32):
      %40 = arith.divf %in, %in_14 : f32
      linalg.yield %40 : f32
    } -> tensor<2x4x16x24xf32>
    %31 = tensor.empty() : tensor<2x4x16x24xi1>
    %32 = linalg.generic {indexing_maps = [#map, #map], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%19 : tensor<2x4x16x24xf32>) outs(%31 : tensor<2x4x16x24xi1>) {
    ^bb0(%in: f32, %out: i1):
      %40 = arith.extf %in : f32 to f64
      %41 = arith.cmpf oeq, %40, %cst_5 : f64
      linalg.yield %41 : i1
    } -> tensor<2x4x16x24xi1>
    %33 = tensor.empty() : tensor<2x4x16x1xi1>
    %34 = linalg.fill ins(%true : i1) outs(%33 : tensor<2x4x16x1xi1>) -> tensor<2x4x16x1xi1>
    %35 = linalg.generic {indexing_maps = [#map, #map8], iterator_types = ["parallel", "parallel", "parallel", "reduction"]} ins(%32 : tensor<2x4x16x24xi1>) outs(%34 : tensor<2x4x16x1xi1>) {
    ^bb0(%in: i1, %out: i1):
      %40 = arith.andi %in, %out : i1
      linalg.yield %40 : i1
    } -> tensor<2x4x16x1xi1>
    %36 = linalg.generic {indexing_maps = [#map8, #map, #map, #map], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%35, %cst_1, %30 : tensor<2x4x16x1xi1>, tensor<2x4x16x24xf32>, tensor<2x4x16x24xf32>) outs(%18 : tensor<2x4x16x24xf32>) {
    ^bb0(%in: i1, %in_14: f32, %in_15: f32, %out: f32):
      %40 = arith.select %in, %in_14, %in_15 : f32
      linalg.yield %40 : f32
    } -> tensor<2x4x16x24xf32>
    %collapsed_11 = tensor.collapse_shape %36 [[0, 1], [2], [3]] : tensor<2x4x16x24xf32> into tensor<8x16x24xf32>
    %collapsed_12 = tensor.collapse_shape %arg2 [[0, 1], [2], [3]] : tensor<2x4x24x32xf32> into tensor<8x24x32xf32>
    %37 = tensor.empty() : tensor<8x16x32xf32>
    %38 = linalg.fill ins(%cst : f32) outs(%37 : tensor<8x16x32xf32>) -> tensor<8x16x32xf32>
    %39 = linalg.batch_matmul ins(%collapsed_11, %collapsed_12 : tensor<8x16x24xf32>, tensor<8x24x32xf32>) outs(%38 : tensor<8x16x32xf32>) -> tensor<8x16x32xf32>
    %expanded_13 = tensor.expand_shape %39 [[0, 1], [2], [3]] output_shape [2, 4, 16, 32] : tensor<8x16x32xf32> into tensor<2x4x16x32xf32>
    return %expanded_13 : tensor<2x4x16x32xf32>
  }
}
