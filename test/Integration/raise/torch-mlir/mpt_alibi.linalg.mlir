// mpt_alibi (MptAlibi: MPT: ALiBi from arange(1 - L, 1) times slopes computed in the graph, and a causal fill of finfo.min.), exported by
// scripts/export_torch_mlir_cases.py (torch 2.15.0+cu132, torch_mlir.fx, output linalg-on-tensors).
// RUN: attention-opt %s --attn-raise-pipeline="large-negative-is-masked" | FileCheck %s
// RUN: attn-raise-check %s --require-raised --runs=2 --seed=109 --pipeline='attn-raise-pipeline{large-negative-is-masked}' | FileCheck %s --check-prefix=PROOF --implicit-check-not=FAIL
// CHECK: attn.attention {{.*}}mask({{.*}} : tensor<1x4x1x16xf32>) {causal = #attn.causal<top_left>, scale = 0.17677{{[0-9]+}} : f32}
// PROOF: @mpt_alibi: 1 attn.attention after the raising
// PROOF: run 1 result 0 {{.*}}: PASS
#map = affine_map<(d0) -> (d0)>
#map1 = affine_map<(d0) -> ()>
#map2 = affine_map<(d0, d1, d2, d3) -> (d0, 0, d2, d3)>
#map3 = affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, 0)>
#map4 = affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>
#map5 = affine_map<(d0, d1, d2, d3) -> (0, d1, 0, d3)>
#map6 = affine_map<(d0, d1) -> (0, d1)>
#map7 = affine_map<(d0, d1) -> (d0, 0)>
#map8 = affine_map<(d0, d1) -> (d0, d1)>
#map9 = affine_map<(d0, d1, d2, d3) -> (0, 0, d2, d3)>
#map10 = affine_map<(d0, d1, d2, d3) -> ()>
#map11 = affine_map<(d0, d1, d2, d3) -> (d0, d1, d2)>
module {
  func.func @mpt_alibi(%arg0: tensor<2x4x16x32xf32>, %arg1: tensor<2x4x16x32xf32>, %arg2: tensor<2x4x16x32xf32>) -> tensor<2x4x16x32xf32> {
    %c0_i64 = arith.constant 0 : i64
    %c1_i64 = arith.constant 1 : i64
    %cst = arith.constant 0.000000e+00 : f32
    %true = arith.constant true
    %cst_0 = arith.constant 0xFF800000 : f32
    %cst_1 = arith.constant dense<-3.40282347E+38> : tensor<f32>
    %cst_2 = arith.constant dense<true> : tensor<16x16xi1>
    %cst_3 = arith.constant 0.17677669529663689 : f64
    %cst_4 = arith.constant dense<2.500000e-01> : tensor<f32>
    %c-15_i32 = arith.constant -15 : i32
    %0 = tensor.empty() : tensor<4xi64>
    %1 = linalg.generic {indexing_maps = [#map], iterator_types = ["parallel"]} outs(%0 : tensor<4xi64>) {
    ^bb0(%out: i64):
      %38 = linalg.index 0 : index
      %39 = arith.index_cast %38 : index to i64
      %40 = arith.addi %39, %c1_i64 : i64
      linalg.yield %40 : i64
    } -> tensor<4xi64>
    %2 = tensor.empty() : tensor<4xf32>
    %3 = linalg.generic {indexing_maps = [#map1, #map, #map], iterator_types = ["parallel"]} ins(%cst_4, %1 : tensor<f32>, tensor<4xi64>) outs(%2 : tensor<4xf32>) {
    ^bb0(%in: f32, %in_15: i64, %out: f32):
      %38 = arith.extf %in : f32 to f64
      %39 = arith.sitofp %in_15 : i64 to f64
      %40 = math.powf %38, %39 : f64
      %41 = arith.truncf %40 : f64 to f32
      linalg.yield %41 : f32
    } -> tensor<4xf32>
    %4 = tensor.empty() : tensor<16xi32>
    %5 = linalg.generic {indexing_maps = [#map], iterator_types = ["parallel"]} outs(%4 : tensor<16xi32>) {
    ^bb0(%out: i32):
      %38 = linalg.index 0 : index
      %39 = arith.index_cast %38 : index to i64
      %40 = arith.trunci %39 : i64 to i32
      %41 = arith.addi %40, %c-15_i32 : i32
      linalg.yield %41 : i32
    } -> tensor<16xi32>
    %expanded = tensor.expand_shape %5 [[0, 1, 2, 3]] output_shape [1, 1, 1, 16] : tensor<16xi32> into tensor<1x1x1x16xi32>
    %expanded_5 = tensor.expand_shape %3 [[0, 1, 2, 3]] output_shape [1, 4, 1, 1] : tensor<4xf32> into tensor<1x4x1x1xf32>
    %6 = tensor.empty() : tensor<1x4x1x16xf32>
    %7 = linalg.generic {indexing_maps = [#map2, #map3, #map4], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%expanded, %expanded_5 : tensor<1x1x1x16xi32>, tensor<1x4x1x1xf32>) outs(%6 : tensor<1x4x1x16xf32>) {
    ^bb0(%in: i32, %in_15: f32, %out: f32):
      %38 = arith.sitofp %in : i32 to f32
      %39 = arith.mulf %38, %in_15 : f32
      linalg.yield %39 : f32
    } -> tensor<1x4x1x16xf32>
    %8 = tensor.empty() : tensor<2x4x32x16xf32>
    %transposed = linalg.transpose ins(%arg1 : tensor<2x4x16x32xf32>) outs(%8 : tensor<2x4x32x16xf32>) permutation = [0, 1, 3, 2] 
    %collapsed = tensor.collapse_shape %arg0 [[0, 1], [2], [3]] : tensor<2x4x16x32xf32> into tensor<8x16x32xf32>
    %collapsed_6 = tensor.collapse_shape %transposed [[0, 1], [2], [3]] : tensor<2x4x32x16xf32> into tensor<8x32x16xf32>
    %9 = tensor.empty() : tensor<8x16x16xf32>
    %10 = linalg.fill ins(%cst : f32) outs(%9 : tensor<8x16x16xf32>) -> tensor<8x16x16xf32>
    %11 = linalg.batch_matmul ins(%collapsed, %collapsed_6 : tensor<8x16x32xf32>, tensor<8x32x16xf32>) outs(%10 : tensor<8x16x16xf32>) -> tensor<8x16x16xf32>
    %expanded_7 = tensor.expand_shape %11 [[0, 1], [2], [3]] output_shape [2, 4, 16, 16] : tensor<8x16x16xf32> into tensor<2x4x16x16xf32>
    %12 = tensor.empty() : tensor<2x4x16x16xf32>
    %13 = linalg.generic {indexing_maps = [#map4, #map4], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%expanded_7 : tensor<2x4x16x16xf32>) outs(%12 : tensor<2x4x16x16xf32>) {
    ^bb0(%in: f32, %out: f32):
      %38 = arith.truncf %cst_3 : f64 to f32
      %39 = arith.mulf %in, %38 : f32
      linalg.yield %39 : f32
    } -> tensor<2x4x16x16xf32>
    %14 = linalg.generic {indexing_maps = [#map4, #map5, #map4], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%13, %7 : tensor<2x4x16x16xf32>, tensor<1x4x1x16xf32>) outs(%12 : tensor<2x4x16x16xf32>) {
    ^bb0(%in: f32, %in_15: f32, %out: f32):
      %38 = arith.addf %in, %in_15 : f32
      linalg.yield %38 : f32
    } -> tensor<2x4x16x16xf32>
    %15 = tensor.empty() : tensor<16xi64>
    %16 = linalg.generic {indexing_maps = [#map], iterator_types = ["parallel"]} outs(%15 : tensor<16xi64>) {
    ^bb0(%out: i64):
      %38 = linalg.index 0 : index
      %39 = arith.index_cast %38 : index to i64
      linalg.yield %39 : i64
    } -> tensor<16xi64>
    %expanded_8 = tensor.expand_shape %16 [[0, 1]] output_shape [1, 16] : tensor<16xi64> into tensor<1x16xi64>
    %expanded_9 = tensor.expand_shape %16 [[0, 1]] output_shape [16, 1] : tensor<16xi64> into tensor<16x1xi64>
    %17 = tensor.empty() : tensor<16x16xi64>
    %18 = linalg.generic {indexing_maps = [#map6, #map7, #map8], iterator_types = ["parallel", "parallel"]} ins(%expanded_8, %expanded_9 : tensor<1x16xi64>, tensor<16x1xi64>) outs(%17 : tensor<16x16xi64>) {
    ^bb0(%in: i64, %in_15: i64, %out: i64):
      %38 = arith.subi %in, %in_15 : i64
      linalg.yield %38 : i64
    } -> tensor<16x16xi64>
    %19 = tensor.empty() : tensor<16x16xi1>
    %20 = linalg.generic {indexing_maps = [#map8, #map8], iterator_types = ["parallel", "parallel"]} ins(%18 : tensor<16x16xi64>) outs(%19 : tensor<16x16xi1>) {
    ^bb0(%in: i64, %out: i1):
      %38 = arith.cmpi sle, %in, %c0_i64 : i64
      linalg.yield %38 : i1
    } -> tensor<16x16xi1>
    %21 = linalg.generic {indexing_maps = [#map8, #map8, #map8], iterator_types = ["parallel", "parallel"]} ins(%20, %cst_2 : tensor<16x16xi1>, tensor<16x16xi1>) outs(%19 : tensor<16x16xi1>) {
    ^bb0(%in: i1, %in_15: i1, %out: i1):
      %38 = arith.andi %in, %in_15 : i1
      linalg.yield %38 : i1
    } -> tensor<16x16xi1>
    %22 = linalg.generic {indexing_maps = [#map8, #map8], iterator_types = ["parallel", "parallel"]} ins(%21 : tensor<16x16xi1>) outs(%19 : tensor<16x16xi1>) {
    ^bb0(%in: i1, %out: i1):
      %38 = arith.xori %in, %true : i1
      linalg.yield %38 : i1
    } -> tensor<16x16xi1>
    %expanded_10 = tensor.expand_shape %22 [[0, 1, 2], [3]] output_shape [1, 1, 16, 16] : tensor<16x16xi1> into tensor<1x1x16x16xi1>
    %23 = linalg.generic {indexing_maps = [#map9, #map10, #map4, #map4], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%expanded_10, %cst_1, %14 : tensor<1x1x16x16xi1>, tensor<f32>, tensor<2x4x16x16xf32>) outs(%12 : tensor<2x4x16x16xf32>) {
    ^bb0(%in: i1, %in_15: f32, %in_16: f32, %out: f32):
      %38 = arith.select %in, %in_15, %in_16 : f32
      linalg.yield %38 : f32
    } -> tensor<2x4x16x16xf32>
    %24 = tensor.empty() : tensor<2x4x16xi64>
    %25 = linalg.fill ins(%c0_i64 : i64) outs(%24 : tensor<2x4x16xi64>) -> tensor<2x4x16xi64>
    %26 = tensor.empty() : tensor<2x4x16xf32>
    %27 = linalg.fill ins(%cst_0 : f32) outs(%26 : tensor<2x4x16xf32>) -> tensor<2x4x16xf32>
    %28:2 = linalg.generic {indexing_maps = [#map4, #map11, #map11], iterator_types = ["parallel", "parallel", "parallel", "reduction"]} ins(%23 : tensor<2x4x16x16xf32>) outs(%27, %25 : tensor<2x4x16xf32>, tensor<2x4x16xi64>) {
    ^bb0(%in: f32, %out: f32, %out_15: i64):
      %38 = linalg.index 3 : index
      %39 = arith.index_cast %38 : index to i64
      %40 = arith.maximumf %in, %out : f32
      %41 = arith.cmpf ogt, %in, %out : f32
      %42 = arith.select %41, %39, %out_15 : i64
      linalg.yield %40, %42 : f32, i64
    } -> (tensor<2x4x16xf32>, tensor<2x4x16xi64>)
    %expanded_11 = tensor.expand_shape %28#0 [[0], [1], [2, 3]] output_shape [2, 4, 16, 1] : tensor<2x4x16xf32> into tensor<2x4x16x1xf32>
    %29 = linalg.generic {indexing_maps = [#map4, #map3, #map4], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%23, %expanded_11 : tensor<2x4x16x16xf32>, tensor<2x4x16x1xf32>) outs(%12 : tensor<2x4x16x16xf32>) {
    ^bb0(%in: f32, %in_15: f32, %out: f32):
      %38 = arith.subf %in, %in_15 : f32
      linalg.yield %38 : f32
    } -> tensor<2x4x16x16xf32>
    %30 = linalg.generic {indexing_maps = [#map4, #map4], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%29 : tensor<2x4x16x16xf32>) outs(%12 : tensor<2x4x16x16xf32>) {
    ^bb0(%in: f32, %out: f32):
      %38 = math.exp %in : f32
      linalg.yield %38 : f32
    } -> tensor<2x4x16x16xf32>
    %31 = tensor.empty() : tensor<2x4x16x1xf32>
    %32 = linalg.fill ins(%cst : f32) outs(%31 : tensor<2x4x16x1xf32>) -> tensor<2x4x16x1xf32>
    %33 = linalg.generic {indexing_maps = [#map4, #map3], iterator_types = ["parallel", "parallel", "parallel", "reduction"]} ins(%30 : tensor<2x4x16x16xf32>) outs(%32 : tensor<2x4x16x1xf32>) {
    ^bb0(%in: f32, %out: f32):
      %38 = arith.addf %in, %out : f32
      linalg.yield %38 : f32
    } -> tensor<2x4x16x1xf32>
    %34 = linalg.generic {indexing_maps = [#map4, #map3, #map4], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%30, %33 : tensor<2x4x16x16xf32>, tensor<2x4x16x1xf32>) outs(%12 : tensor<2x4x16x16xf32>) {
    ^bb0(%in: f32, %in_15: f32, %out: f32):
      %38 = arith.divf %in, %in_15 : f32
      linalg.yield %38 : f32
    } -> tensor<2x4x16x16xf32>
    %collapsed_12 = tensor.collapse_shape %34 [[0, 1], [2], [3]] : tensor<2x4x16x16xf32> into tensor<8x16x16xf32>
    %collapsed_13 = tensor.collapse_shape %arg2 [[0, 1], [2], [3]] : tensor<2x4x16x32xf32> into tensor<8x16x32xf32>
    %35 = tensor.empty() : tensor<8x16x32xf32>
    %36 = linalg.fill ins(%cst : f32) outs(%35 : tensor<8x16x32xf32>) -> tensor<8x16x32xf32>
    %37 = linalg.batch_matmul ins(%collapsed_12, %collapsed_13 : tensor<8x16x16xf32>, tensor<8x16x32xf32>) outs(%36 : tensor<8x16x32xf32>) -> tensor<8x16x32xf32>
    %expanded_14 = tensor.expand_shape %37 [[0, 1], [2], [3]] output_shape [2, 4, 16, 32] : tensor<8x16x32xf32> into tensor<2x4x16x32xf32>
    return %expanded_14 : tensor<2x4x16x32xf32>
  }
}
