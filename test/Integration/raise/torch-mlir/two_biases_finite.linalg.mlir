// two_biases_finite (TwoBiasesFinite: The same with HF's finite causal bias (finfo.min, not -inf).), exported by
// scripts/export_torch_mlir_cases.py (torch 2.15.0+cu132, torch_mlir.fx, output linalg-on-tensors).
// RUN: attention-opt %s --attn-raise-pipeline="large-negative-is-masked" | FileCheck %s
// RUN: attn-raise-check %s --require-raised --runs=2 --seed=33 --pipeline='attn-raise-pipeline{large-negative-is-masked}' | FileCheck %s --check-prefix=PROOF --implicit-check-not=FAIL
// CHECK: attn.attention {{.*}}mask({{.*}}) {causal = #attn.causal<top_left>, scale = 0.17677{{[0-9]+}} : f32}
// PROOF: @two_biases_finite: 1 attn.attention after the raising
// PROOF: run 1 result 0 {{.*}}: PASS
#map = affine_map<(d0) -> (d0)>
#map1 = affine_map<(d0, d1) -> (0, d1)>
#map2 = affine_map<(d0, d1) -> (d0, 0)>
#map3 = affine_map<(d0, d1) -> (d0, d1)>
#map4 = affine_map<(d0, d1) -> ()>
#map5 = affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>
#map6 = affine_map<(d0, d1, d2, d3) -> ()>
#map7 = affine_map<(d0, d1, d2, d3) -> (d2, d3)>
#map8 = affine_map<(d0, d1, d2, d3) -> (d0, 0, 0, d3)>
#map9 = affine_map<(d0, d1, d2, d3) -> (d0, d1, d2)>
#map10 = affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, 0)>
module {
  func.func @two_biases_finite(%arg0: tensor<2x4x16x32xf32>, %arg1: tensor<2x4x16x32xf32>, %arg2: tensor<2x4x16x32xf32>, %arg3: tensor<2x16xi64>) -> tensor<2x4x16x32xf32> {
    %c0_i64 = arith.constant 0 : i64
    %c1_i64 = arith.constant 1 : i64
    %cst = arith.constant 0.000000e+00 : f32
    %cst_0 = arith.constant 0xFF800000 : f32
    %cst_1 = arith.constant dense<0.000000e+00> : tensor<f32>
    %cst_2 = arith.constant dense<-3.40282347E+38> : tensor<16x16xf32>
    %cst_3 = arith.constant dense<1.000000e+00> : tensor<f32>
    %cst_4 = arith.constant 5.6568542494923806 : f64
    %cst_5 = arith.constant -3.40282347E+38 : f32
    %0 = tensor.empty() : tensor<16xi64>
    %1 = linalg.generic {indexing_maps = [#map], iterator_types = ["parallel"]} outs(%0 : tensor<16xi64>) {
    ^bb0(%out: i64):
      %34 = linalg.index 0 : index
      %35 = arith.index_cast %34 : index to i64
      linalg.yield %35 : i64
    } -> tensor<16xi64>
    %expanded = tensor.expand_shape %1 [[0, 1]] output_shape [1, 16] : tensor<16xi64> into tensor<1x16xi64>
    %expanded_6 = tensor.expand_shape %1 [[0, 1]] output_shape [16, 1] : tensor<16xi64> into tensor<16x1xi64>
    %2 = tensor.empty() : tensor<16x16xi64>
    %3 = linalg.generic {indexing_maps = [#map1, #map2, #map3], iterator_types = ["parallel", "parallel"]} ins(%expanded, %expanded_6 : tensor<1x16xi64>, tensor<16x1xi64>) outs(%2 : tensor<16x16xi64>) {
    ^bb0(%in: i64, %in_14: i64, %out: i64):
      %34 = arith.subi %in, %in_14 : i64
      linalg.yield %34 : i64
    } -> tensor<16x16xi64>
    %4 = tensor.empty() : tensor<16x16xi1>
    %5 = linalg.generic {indexing_maps = [#map3, #map3], iterator_types = ["parallel", "parallel"]} ins(%3 : tensor<16x16xi64>) outs(%4 : tensor<16x16xi1>) {
    ^bb0(%in: i64, %out: i1):
      %34 = arith.cmpi sge, %in, %c1_i64 : i64
      linalg.yield %34 : i1
    } -> tensor<16x16xi1>
    %6 = tensor.empty() : tensor<16x16xf32>
    %7 = linalg.generic {indexing_maps = [#map3, #map3, #map4, #map3], iterator_types = ["parallel", "parallel"]} ins(%5, %cst_2, %cst_1 : tensor<16x16xi1>, tensor<16x16xf32>, tensor<f32>) outs(%6 : tensor<16x16xf32>) {
    ^bb0(%in: i1, %in_14: f32, %in_15: f32, %out: f32):
      %34 = arith.select %in, %in_14, %in_15 : f32
      linalg.yield %34 : f32
    } -> tensor<16x16xf32>
    %expanded_7 = tensor.expand_shape %arg3 [[0], [1, 2, 3]] output_shape [2, 1, 1, 16] : tensor<2x16xi64> into tensor<2x1x1x16xi64>
    %8 = tensor.empty() : tensor<2x1x1x16xf32>
    %9 = linalg.generic {indexing_maps = [#map5, #map5], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%expanded_7 : tensor<2x1x1x16xi64>) outs(%8 : tensor<2x1x1x16xf32>) {
    ^bb0(%in: i64, %out: f32):
      %34 = arith.sitofp %in : i64 to f32
      linalg.yield %34 : f32
    } -> tensor<2x1x1x16xf32>
    %10 = linalg.generic {indexing_maps = [#map6, #map5, #map5], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%cst_3, %9 : tensor<f32>, tensor<2x1x1x16xf32>) outs(%8 : tensor<2x1x1x16xf32>) {
    ^bb0(%in: f32, %in_14: f32, %out: f32):
      %34 = arith.subf %in, %in_14 : f32
      linalg.yield %34 : f32
    } -> tensor<2x1x1x16xf32>
    %11 = linalg.generic {indexing_maps = [#map5, #map5], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%10 : tensor<2x1x1x16xf32>) outs(%8 : tensor<2x1x1x16xf32>) {
    ^bb0(%in: f32, %out: f32):
      %34 = arith.mulf %in, %cst_5 : f32
      linalg.yield %34 : f32
    } -> tensor<2x1x1x16xf32>
    %12 = tensor.empty() : tensor<2x4x32x16xf32>
    %transposed = linalg.transpose ins(%arg1 : tensor<2x4x16x32xf32>) outs(%12 : tensor<2x4x32x16xf32>) permutation = [0, 1, 3, 2] 
    %collapsed = tensor.collapse_shape %arg0 [[0, 1], [2], [3]] : tensor<2x4x16x32xf32> into tensor<8x16x32xf32>
    %collapsed_8 = tensor.collapse_shape %transposed [[0, 1], [2], [3]] : tensor<2x4x32x16xf32> into tensor<8x32x16xf32>
    %13 = tensor.empty() : tensor<8x16x16xf32>
    %14 = linalg.fill ins(%cst : f32) outs(%13 : tensor<8x16x16xf32>) -> tensor<8x16x16xf32>
    %15 = linalg.batch_matmul ins(%collapsed, %collapsed_8 : tensor<8x16x32xf32>, tensor<8x32x16xf32>) outs(%14 : tensor<8x16x16xf32>) -> tensor<8x16x16xf32>
    %expanded_9 = tensor.expand_shape %15 [[0, 1], [2], [3]] output_shape [2, 4, 16, 16] : tensor<8x16x16xf32> into tensor<2x4x16x16xf32>
    %16 = tensor.empty() : tensor<2x4x16x16xf32>
    %17 = linalg.generic {indexing_maps = [#map5, #map5], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%expanded_9 : tensor<2x4x16x16xf32>) outs(%16 : tensor<2x4x16x16xf32>) {
    ^bb0(%in: f32, %out: f32):
      %34 = arith.truncf %cst_4 : f64 to f32
      %35 = arith.divf %in, %34 : f32
      linalg.yield %35 : f32
    } -> tensor<2x4x16x16xf32>
    %18 = linalg.generic {indexing_maps = [#map5, #map7, #map5], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%17, %7 : tensor<2x4x16x16xf32>, tensor<16x16xf32>) outs(%16 : tensor<2x4x16x16xf32>) {
    ^bb0(%in: f32, %in_14: f32, %out: f32):
      %34 = arith.addf %in, %in_14 : f32
      linalg.yield %34 : f32
    } -> tensor<2x4x16x16xf32>
    %19 = linalg.generic {indexing_maps = [#map5, #map8, #map5], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%18, %11 : tensor<2x4x16x16xf32>, tensor<2x1x1x16xf32>) outs(%16 : tensor<2x4x16x16xf32>) {
    ^bb0(%in: f32, %in_14: f32, %out: f32):
      %34 = arith.addf %in, %in_14 : f32
      linalg.yield %34 : f32
    } -> tensor<2x4x16x16xf32>
    %20 = tensor.empty() : tensor<2x4x16xi64>
    %21 = linalg.fill ins(%c0_i64 : i64) outs(%20 : tensor<2x4x16xi64>) -> tensor<2x4x16xi64>
    %22 = tensor.empty() : tensor<2x4x16xf32>
    %23 = linalg.fill ins(%cst_0 : f32) outs(%22 : tensor<2x4x16xf32>) -> tensor<2x4x16xf32>
    %24:2 = linalg.generic {indexing_maps = [#map5, #map9, #map9], iterator_types = ["parallel", "parallel", "parallel", "reduction"]} ins(%19 : tensor<2x4x16x16xf32>) outs(%23, %21 : tensor<2x4x16xf32>, tensor<2x4x16xi64>) {
    ^bb0(%in: f32, %out: f32, %out_14: i64):
      %34 = linalg.index 3 : index
      %35 = arith.index_cast %34 : index to i64
      %36 = arith.maximumf %in, %out : f32
      %37 = arith.cmpf ogt, %in, %out : f32
      %38 = arith.select %37, %35, %out_14 : i64
      linalg.yield %36, %38 : f32, i64
    } -> (tensor<2x4x16xf32>, tensor<2x4x16xi64>)
    %expanded_10 = tensor.expand_shape %24#0 [[0], [1], [2, 3]] output_shape [2, 4, 16, 1] : tensor<2x4x16xf32> into tensor<2x4x16x1xf32>
    %25 = linalg.generic {indexing_maps = [#map5, #map10, #map5], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%19, %expanded_10 : tensor<2x4x16x16xf32>, tensor<2x4x16x1xf32>) outs(%16 : tensor<2x4x16x16xf32>) {
    ^bb0(%in: f32, %in_14: f32, %out: f32):
      %34 = arith.subf %in, %in_14 : f32
      linalg.yield %34 : f32
    } -> tensor<2x4x16x16xf32>
    %26 = linalg.generic {indexing_maps = [#map5, #map5], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%25 : tensor<2x4x16x16xf32>) outs(%16 : tensor<2x4x16x16xf32>) {
    ^bb0(%in: f32, %out: f32):
      %34 = math.exp %in : f32
      linalg.yield %34 : f32
    } -> tensor<2x4x16x16xf32>
    %27 = tensor.empty() : tensor<2x4x16x1xf32>
    %28 = linalg.fill ins(%cst : f32) outs(%27 : tensor<2x4x16x1xf32>) -> tensor<2x4x16x1xf32>
    %29 = linalg.generic {indexing_maps = [#map5, #map10], iterator_types = ["parallel", "parallel", "parallel", "reduction"]} ins(%26 : tensor<2x4x16x16xf32>) outs(%28 : tensor<2x4x16x1xf32>) {
    ^bb0(%in: f32, %out: f32):
      %34 = arith.addf %in, %out : f32
      linalg.yield %34 : f32
    } -> tensor<2x4x16x1xf32>
    %30 = linalg.generic {indexing_maps = [#map5, #map10, #map5], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%26, %29 : tensor<2x4x16x16xf32>, tensor<2x4x16x1xf32>) outs(%16 : tensor<2x4x16x16xf32>) {
    ^bb0(%in: f32, %in_14: f32, %out: f32):
      %34 = arith.divf %in, %in_14 : f32
      linalg.yield %34 : f32
    } -> tensor<2x4x16x16xf32>
    %collapsed_11 = tensor.collapse_shape %30 [[0, 1], [2], [3]] : tensor<2x4x16x16xf32> into tensor<8x16x16xf32>
    %collapsed_12 = tensor.collapse_shape %arg2 [[0, 1], [2], [3]] : tensor<2x4x16x32xf32> into tensor<8x16x32xf32>
    %31 = tensor.empty() : tensor<8x16x32xf32>
    %32 = linalg.fill ins(%cst : f32) outs(%31 : tensor<8x16x32xf32>) -> tensor<8x16x32xf32>
    %33 = linalg.batch_matmul ins(%collapsed_11, %collapsed_12 : tensor<8x16x16xf32>, tensor<8x16x32xf32>) outs(%32 : tensor<8x16x32xf32>) -> tensor<8x16x32xf32>
    %expanded_13 = tensor.expand_shape %33 [[0, 1], [2], [3]] output_shape [2, 4, 16, 32] : tensor<8x16x32xf32> into tensor<2x4x16x32xf32>
    return %expanded_13 : tensor<2x4x16x32xf32>
  }
}
