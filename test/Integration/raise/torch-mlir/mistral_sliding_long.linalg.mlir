// mistral_sliding_long (MistralSliding: Hugging Face Mistral's sliding-window causal bias: triu(finfo.min, 1) filled with finfo.min where tril(ones, -window) is true.), exported by
// scripts/export_torch_mlir_cases.py (torch 2.15.0+cu132, torch_mlir.fx, output linalg-on-tensors).
// RUN: attention-opt %s --attn-raise-pipeline="large-negative-is-masked" | FileCheck %s
// RUN: attn-raise-check %s --require-raised --runs=2 --seed=137 --pipeline='attn-raise-pipeline{large-negative-is-masked}' | FileCheck %s --check-prefix=PROOF --implicit-check-not=FAIL
// CHECK: attn.attention {{.*}}{causal = #attn.causal<top_left>, scale = 0.17677{{[0-9]+}} : f32, window = array<i64: 3, -1>}
// CHECK-NOT: linalg.
// PROOF: @mistral_sliding_long: 1 attn.attention after the raising
// PROOF: run 1 result 0 {{.*}}: PASS
#map = affine_map<(d0) -> (d0)>
#map1 = affine_map<(d0, d1) -> (0, d1)>
#map2 = affine_map<(d0, d1) -> (d0, 0)>
#map3 = affine_map<(d0, d1) -> (d0, d1)>
#map4 = affine_map<(d0, d1) -> ()>
#map5 = affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>
#map6 = affine_map<(d0, d1, d2, d3) -> (d2, d3)>
#map7 = affine_map<(d0, d1, d2, d3) -> (d0, d1, d2)>
#map8 = affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, 0)>
module {
  func.func @mistral_sliding_long(%arg0: tensor<1x2x320x32xf32>, %arg1: tensor<1x2x320x32xf32>, %arg2: tensor<1x2x320x32xf32>) -> tensor<1x2x320x32xf32> {
    %c-4_i64 = arith.constant -4 : i64
    %c0_i64 = arith.constant 0 : i64
    %c1_i64 = arith.constant 1 : i64
    %cst = arith.constant 0.000000e+00 : f32
    %cst_0 = arith.constant 0xFF800000 : f32
    %cst_1 = arith.constant dense<-3.40282347E+38> : tensor<f32>
    %cst_2 = arith.constant dense<true> : tensor<320x320xi1>
    %cst_3 = arith.constant dense<0.000000e+00> : tensor<f32>
    %cst_4 = arith.constant dense<-3.40282347E+38> : tensor<320x320xf32>
    %cst_5 = arith.constant 5.6568542494923806 : f64
    %0 = tensor.empty() : tensor<320xi64>
    %1 = linalg.generic {indexing_maps = [#map], iterator_types = ["parallel"]} outs(%0 : tensor<320xi64>) {
    ^bb0(%out: i64):
      %32 = linalg.index 0 : index
      %33 = arith.index_cast %32 : index to i64
      linalg.yield %33 : i64
    } -> tensor<320xi64>
    %expanded = tensor.expand_shape %1 [[0, 1]] output_shape [1, 320] : tensor<320xi64> into tensor<1x320xi64>
    %expanded_6 = tensor.expand_shape %1 [[0, 1]] output_shape [320, 1] : tensor<320xi64> into tensor<320x1xi64>
    %2 = tensor.empty() : tensor<320x320xi64>
    %3 = linalg.generic {indexing_maps = [#map1, #map2, #map3], iterator_types = ["parallel", "parallel"]} ins(%expanded, %expanded_6 : tensor<1x320xi64>, tensor<320x1xi64>) outs(%2 : tensor<320x320xi64>) {
    ^bb0(%in: i64, %in_13: i64, %out: i64):
      %32 = arith.subi %in, %in_13 : i64
      linalg.yield %32 : i64
    } -> tensor<320x320xi64>
    %4 = tensor.empty() : tensor<320x320xi1>
    %5 = linalg.generic {indexing_maps = [#map3, #map3], iterator_types = ["parallel", "parallel"]} ins(%3 : tensor<320x320xi64>) outs(%4 : tensor<320x320xi1>) {
    ^bb0(%in: i64, %out: i1):
      %32 = arith.cmpi sge, %in, %c1_i64 : i64
      linalg.yield %32 : i1
    } -> tensor<320x320xi1>
    %6 = tensor.empty() : tensor<320x320xf32>
    %7 = linalg.generic {indexing_maps = [#map3, #map3, #map4, #map3], iterator_types = ["parallel", "parallel"]} ins(%5, %cst_4, %cst_3 : tensor<320x320xi1>, tensor<320x320xf32>, tensor<f32>) outs(%6 : tensor<320x320xf32>) {
    ^bb0(%in: i1, %in_13: f32, %in_14: f32, %out: f32):
      %32 = arith.select %in, %in_13, %in_14 : f32
      linalg.yield %32 : f32
    } -> tensor<320x320xf32>
    %8 = linalg.generic {indexing_maps = [#map3, #map3], iterator_types = ["parallel", "parallel"]} ins(%3 : tensor<320x320xi64>) outs(%4 : tensor<320x320xi1>) {
    ^bb0(%in: i64, %out: i1):
      %32 = arith.cmpi sle, %in, %c-4_i64 : i64
      linalg.yield %32 : i1
    } -> tensor<320x320xi1>
    %9 = linalg.generic {indexing_maps = [#map3, #map3, #map3], iterator_types = ["parallel", "parallel"]} ins(%8, %cst_2 : tensor<320x320xi1>, tensor<320x320xi1>) outs(%4 : tensor<320x320xi1>) {
    ^bb0(%in: i1, %in_13: i1, %out: i1):
      %32 = arith.andi %in, %in_13 : i1
      linalg.yield %32 : i1
    } -> tensor<320x320xi1>
    %10 = linalg.generic {indexing_maps = [#map3, #map4, #map3, #map3], iterator_types = ["parallel", "parallel"]} ins(%9, %cst_1, %7 : tensor<320x320xi1>, tensor<f32>, tensor<320x320xf32>) outs(%6 : tensor<320x320xf32>) {
    ^bb0(%in: i1, %in_13: f32, %in_14: f32, %out: f32):
      %32 = arith.select %in, %in_13, %in_14 : f32
      linalg.yield %32 : f32
    } -> tensor<320x320xf32>
    %11 = tensor.empty() : tensor<1x2x32x320xf32>
    %transposed = linalg.transpose ins(%arg1 : tensor<1x2x320x32xf32>) outs(%11 : tensor<1x2x32x320xf32>) permutation = [0, 1, 3, 2] 
    %collapsed = tensor.collapse_shape %arg0 [[0, 1], [2], [3]] : tensor<1x2x320x32xf32> into tensor<2x320x32xf32>
    %collapsed_7 = tensor.collapse_shape %transposed [[0, 1], [2], [3]] : tensor<1x2x32x320xf32> into tensor<2x32x320xf32>
    %12 = tensor.empty() : tensor<2x320x320xf32>
    %13 = linalg.fill ins(%cst : f32) outs(%12 : tensor<2x320x320xf32>) -> tensor<2x320x320xf32>
    %14 = linalg.batch_matmul ins(%collapsed, %collapsed_7 : tensor<2x320x32xf32>, tensor<2x32x320xf32>) outs(%13 : tensor<2x320x320xf32>) -> tensor<2x320x320xf32>
    %expanded_8 = tensor.expand_shape %14 [[0, 1], [2], [3]] output_shape [1, 2, 320, 320] : tensor<2x320x320xf32> into tensor<1x2x320x320xf32>
    %15 = tensor.empty() : tensor<1x2x320x320xf32>
    %16 = linalg.generic {indexing_maps = [#map5, #map5], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%expanded_8 : tensor<1x2x320x320xf32>) outs(%15 : tensor<1x2x320x320xf32>) {
    ^bb0(%in: f32, %out: f32):
      %32 = arith.truncf %cst_5 : f64 to f32
      %33 = arith.divf %in, %32 : f32
      linalg.yield %33 : f32
    } -> tensor<1x2x320x320xf32>
    %17 = linalg.generic {indexing_maps = [#map5, #map6, #map5], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%16, %10 : tensor<1x2x320x320xf32>, tensor<320x320xf32>) outs(%15 : tensor<1x2x320x320xf32>) {
    ^bb0(%in: f32, %in_13: f32, %out: f32):
      %32 = arith.addf %in, %in_13 : f32
      linalg.yield %32 : f32
    } -> tensor<1x2x320x320xf32>
    %18 = tensor.empty() : tensor<1x2x320xi64>
    %19 = linalg.fill ins(%c0_i64 : i64) outs(%18 : tensor<1x2x320xi64>) -> tensor<1x2x320xi64>
    %20 = tensor.empty() : tensor<1x2x320xf32>
    %21 = linalg.fill ins(%cst_0 : f32) outs(%20 : tensor<1x2x320xf32>) -> tensor<1x2x320xf32>
    %22:2 = linalg.generic {indexing_maps = [#map5, #map7, #map7], iterator_types = ["parallel", "parallel", "parallel", "reduction"]} ins(%17 : tensor<1x2x320x320xf32>) outs(%21, %19 : tensor<1x2x320xf32>, tensor<1x2x320xi64>) {
    ^bb0(%in: f32, %out: f32, %out_13: i64):
      %32 = linalg.index 3 : index
      %33 = arith.index_cast %32 : index to i64
      %34 = arith.maximumf %in, %out : f32
      %35 = arith.cmpf ogt, %in, %out : f32
      %36 = arith.select %35, %33, %out_13 : i64
      linalg.yield %34, %36 : f32, i64
    } -> (tensor<1x2x320xf32>, tensor<1x2x320xi64>)
    %expanded_9 = tensor.expand_shape %22#0 [[0], [1], [2, 3]] output_shape [1, 2, 320, 1] : tensor<1x2x320xf32> into tensor<1x2x320x1xf32>
    %23 = linalg.generic {indexing_maps = [#map5, #map8, #map5], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%17, %expanded_9 : tensor<1x2x320x320xf32>, tensor<1x2x320x1xf32>) outs(%15 : tensor<1x2x320x320xf32>) {
    ^bb0(%in: f32, %in_13: f32, %out: f32):
      %32 = arith.subf %in, %in_13 : f32
      linalg.yield %32 : f32
    } -> tensor<1x2x320x320xf32>
    %24 = linalg.generic {indexing_maps = [#map5, #map5], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%23 : tensor<1x2x320x320xf32>) outs(%15 : tensor<1x2x320x320xf32>) {
    ^bb0(%in: f32, %out: f32):
      %32 = math.exp %in : f32
      linalg.yield %32 : f32
    } -> tensor<1x2x320x320xf32>
    %25 = tensor.empty() : tensor<1x2x320x1xf32>
    %26 = linalg.fill ins(%cst : f32) outs(%25 : tensor<1x2x320x1xf32>) -> tensor<1x2x320x1xf32>
    %27 = linalg.generic {indexing_maps = [#map5, #map8], iterator_types = ["parallel", "parallel", "parallel", "reduction"]} ins(%24 : tensor<1x2x320x320xf32>) outs(%26 : tensor<1x2x320x1xf32>) {
    ^bb0(%in: f32, %out: f32):
      %32 = arith.addf %in, %out : f32
      linalg.yield %32 : f32
    } -> tensor<1x2x320x1xf32>
    %28 = linalg.generic {indexing_maps = [#map5, #map8, #map5], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%24, %27 : tensor<1x2x320x320xf32>, tensor<1x2x320x1xf32>) outs(%15 : tensor<1x2x320x320xf32>) {
    ^bb0(%in: f32, %in_13: f32, %out: f32):
      %32 = arith.divf %in, %in_13 : f32
      linalg.yield %32 : f32
    } -> tensor<1x2x320x320xf32>
    %collapsed_10 = tensor.collapse_shape %28 [[0, 1], [2], [3]] : tensor<1x2x320x320xf32> into tensor<2x320x320xf32>
    %collapsed_11 = tensor.collapse_shape %arg2 [[0, 1], [2], [3]] : tensor<1x2x320x32xf32> into tensor<2x320x32xf32>
    %29 = tensor.empty() : tensor<2x320x32xf32>
    %30 = linalg.fill ins(%cst : f32) outs(%29 : tensor<2x320x32xf32>) -> tensor<2x320x32xf32>
    %31 = linalg.batch_matmul ins(%collapsed_10, %collapsed_11 : tensor<2x320x320xf32>, tensor<2x320x32xf32>) outs(%30 : tensor<2x320x32xf32>) -> tensor<2x320x32xf32>
    %expanded_12 = tensor.expand_shape %31 [[0, 1], [2], [3]] output_shape [1, 2, 320, 32] : tensor<2x320x32xf32> into tensor<1x2x320x32xf32>
    return %expanded_12 : tensor<1x2x320x32xf32>
  }
}
