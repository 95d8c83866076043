// llama_sdpa_bf16 (LlamaSdpa: HF Llama's sdpa attention: repeat_kv, then causal SDPA, in bf16.), exported by
// scripts/export_torch_mlir_cases.py (torch 2.15.0+cu132, torch_mlir.fx, output linalg-on-tensors).
// RUN: attention-opt %s --attn-raise-pipeline="allow-precision-change" | FileCheck %s
// RUN: attn-raise-check %s --require-raised --runs=2 --seed=35 --pipeline='attn-raise-pipeline{allow-precision-change}' | FileCheck %s --check-prefix=PROOF --implicit-check-not=FAIL
// CHECK: attn.attention {{.*}}tensor<2x2x320x32xbf16>) {causal = #attn.causal<top_left>, scale = 0.17677{{[0-9]+}} : f32} -> tensor<2x4x320x32xbf16>
// CHECK-NOT: linalg.
// PROOF: @llama_sdpa_bf16: 1 attn.attention after the raising
// PROOF: run 1 result 0 {{.*}}: PASS
#map = affine_map<(d0, d1, d2, d3, d4) -> (d0, d1, d3, d4)>
#map1 = affine_map<(d0, d1, d2, d3, d4) -> (d0, d1, d2, d3, d4)>
#map2 = affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>
#map3 = affine_map<(d0) -> (d0)>
#map4 = affine_map<(d0, d1) -> (0, d1)>
#map5 = affine_map<(d0, d1) -> (d0, 0)>
#map6 = affine_map<(d0, d1) -> (d0, d1)>
#map7 = affine_map<(d0, d1) -> ()>
#map8 = affine_map<(d0, d1, d2, d3) -> (d2, d3)>
#map9 = affine_map<(d0, d1, d2, d3) -> (d0, d1, d2)>
#map10 = affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, 0)>
module {
  func.func @llama_sdpa_bf16(%arg0: tensor<2x4x320x32xbf16>, %arg1: tensor<2x2x320x32xbf16>, %arg2: tensor<2x2x320x32xbf16>) -> tensor<2x4x320x32xbf16> {
    %c0_i64 = arith.constant 0 : i64
    %cst = arith.constant 0.000000e+00 : f32
    %cst_0 = arith.constant 0xFF800000 : f32
    %true = arith.constant true
    %cst_1 = arith.constant dense<0.000000e+00> : tensor<2x4x320x320xf32>
    %cst_2 = arith.constant dense<0.000000e+00> : tensor<f32>
    %cst_3 = arith.constant dense<0xFF800000> : tensor<f32>
    %cst_4 = arith.constant dense<true> : tensor<320x320xi1>
    %cst_5 = arith.constant 0xFFF0000000000000 : f64
    %cst_6 = arith.constant 0.42044820762685725 : f64
    %0 = tensor.empty() : tensor<2x2x2x320x32xbf16>
    %1 = linalg.generic {indexing_maps = [#map, #map1], iterator_types = ["parallel", "parallel", "parallel", "parallel", "parallel"]} ins(%arg1 : tensor<2x2x320x32xbf16>) outs(%0 : tensor<2x2x2x320x32xbf16>) {
    ^bb0(%in: bf16, %out: bf16):
      linalg.yield %in : bf16
    } -> tensor<2x2x2x320x32xbf16>
    %collapsed = tensor.collapse_shape %1 [[0], [1, 2], [3], [4]] : tensor<2x2x2x320x32xbf16> into tensor<2x4x320x32xbf16>
    %2 = linalg.generic {indexing_maps = [#map, #map1], iterator_types = ["parallel", "parallel", "parallel", "parallel", "parallel"]} ins(%arg2 : tensor<2x2x320x32xbf16>) outs(%0 : tensor<2x2x2x320x32xbf16>) {
    ^bb0(%in: bf16, %out: bf16):
      linalg.yield %in : bf16
    } -> tensor<2x2x2x320x32xbf16>
    %collapsed_7 = tensor.collapse_shape %2 [[0], [1, 2], [3], [4]] : tensor<2x2x2x320x32xbf16> into tensor<2x4x320x32xbf16>
    %3 = tensor.empty() : tensor<2x4x320x32xf32>
    %4 = linalg.generic {indexing_maps = [#map2, #map2], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%arg0 : tensor<2x4x320x32xbf16>) outs(%3 : tensor<2x4x320x32xf32>) {
    ^bb0(%in: bf16, %out: f32):
      %46 = arith.extf %in : bf16 to f32
      linalg.yield %46 : f32
    } -> tensor<2x4x320x32xf32>
    %5 = linalg.generic {indexing_maps = [#map2, #map2], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%collapsed : tensor<2x4x320x32xbf16>) outs(%3 : tensor<2x4x320x32xf32>) {
    ^bb0(%in: bf16, %out: f32):
      %46 = arith.extf %in : bf16 to f32
      linalg.yield %46 : f32
    } -> tensor<2x4x320x32xf32>
    %6 = linalg.generic {indexing_maps = [#map2, #map2], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%collapsed_7 : tensor<2x4x320x32xbf16>) outs(%3 : tensor<2x4x320x32xf32>) {
    ^bb0(%in: bf16, %out: f32):
      %46 = arith.extf %in : bf16 to f32
      linalg.yield %46 : f32
    } -> tensor<2x4x320x32xf32>
    %7 = linalg.generic {indexing_maps = [#map2, #map2], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%4 : tensor<2x4x320x32xf32>) outs(%3 : tensor<2x4x320x32xf32>) {
    ^bb0(%in: f32, %out: f32):
      %46 = arith.truncf %cst_6 : f64 to f32
      %47 = arith.mulf %in, %46 : f32
      linalg.yield %47 : f32
    } -> tensor<2x4x320x32xf32>
    %8 = tensor.empty() : tensor<320xi64>
    %9 = linalg.generic {indexing_maps = [#map3], iterator_types = ["parallel"]} outs(%8 : tensor<320xi64>) {
    ^bb0(%out: i64):
      %46 = linalg.index 0 : index
      %47 = arith.index_cast %46 : index to i64
      linalg.yield %47 : i64
    } -> tensor<320xi64>
    %expanded = tensor.expand_shape %9 [[0, 1]] output_shape [1, 320] : tensor<320xi64> into tensor<1x320xi64>
    %expanded_8 = tensor.expand_shape %9 [[0, 1]] output_shape [320, 1] : tensor<320xi64> into tensor<320x1xi64>
    %10 = tensor.empty() : tensor<320x320xi64>
    %11 = linalg.generic {indexing_maps = [#map4, #map5, #map6], iterator_types = ["parallel", "parallel"]} ins(%expanded, %expanded_8 : tensor<1x320xi64>, tensor<320x1xi64>) outs(%10 : tensor<320x320xi64>) {
    ^bb0(%in: i64, %in_16: i64, %out: i64):
      %46 = arith.subi %in, %in_16 : i64
      linalg.yield %46 : i64
    } -> tensor<320x320xi64>
    %12 = tensor.empty() : tensor<320x320xi1>
    %13 = linalg.generic {indexing_maps = [#map6, #map6], iterator_types = ["parallel", "parallel"]} ins(%11 : tensor<320x320xi64>) outs(%12 : tensor<320x320xi1>) {
    ^bb0(%in: i64, %out: i1):
      %46 = arith.cmpi sle, %in, %c0_i64 : i64
      linalg.yield %46 : i1
    } -> tensor<320x320xi1>
    %14 = linalg.generic {indexing_maps = [#map6, #map6, #map6], iterator_types = ["parallel", "parallel"]} ins(%13, %cst_4 : tensor<320x320xi1>, tensor<320x320xi1>) outs(%12 : tensor<320x320xi1>) {
    ^bb0(%in: i1, %in_16: i1, %out: i1):
      %46 = arith.andi %in, %in_16 : i1
      linalg.yield %46 : i1
    } -> tensor<320x320xi1>
    %15 = tensor.empty() : tensor<320x320xf32>
    %16 = linalg.generic {indexing_maps = [#map6, #map7, #map7, #map6], iterator_types = ["parallel", "parallel"]} ins(%14, %cst_2, %cst_3 : tensor<320x320xi1>, tensor<f32>, tensor<f32>) outs(%15 : tensor<320x320xf32>) {
    ^bb0(%in: i1, %in_16: f32, %in_17: f32, %out: f32):
      %46 = arith.select %in, %in_16, %in_17 : f32
      linalg.yield %46 : f32
    } -> tensor<320x320xf32>
    %17 = tensor.empty() : tensor<2x4x32x320xf32>
    %transposed = linalg.transpose ins(%5 : tensor<2x4x320x32xf32>) outs(%17 : tensor<2x4x32x320xf32>) permutation = [0, 1, 3, 2] 
    %18 = linalg.generic {indexing_maps = [#map2, #map2], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%transposed : tensor<2x4x32x320xf32>) outs(%17 : tensor<2x4x32x320xf32>) {
    ^bb0(%in: f32, %out: f32):
      %46 = arith.truncf %cst_6 : f64 to f32
      %47 = arith.mulf %in, %46 : f32
      linalg.yield %47 : f32
    } -> tensor<2x4x32x320xf32>
    %collapsed_9 = tensor.collapse_shape %7 [[0, 1], [2], [3]] : tensor<2x4x320x32xf32> into tensor<8x320x32xf32>
    %collapsed_10 = tensor.collapse_shape %18 [[0, 1], [2], [3]] : tensor<2x4x32x320xf32> into tensor<8x32x320xf32>
    %19 = tensor.empty() : tensor<8x320x320xf32>
    %20 = linalg.fill ins(%cst : f32) outs(%19 : tensor<8x320x320xf32>) -> tensor<8x320x320xf32>
    %21 = linalg.batch_matmul ins(%collapsed_9, %collapsed_10 : tensor<8x320x32xf32>, tensor<8x32x320xf32>) outs(%20 : tensor<8x320x320xf32>) -> tensor<8x320x320xf32>
    %expanded_11 = tensor.expand_shape %21 [[0, 1], [2], [3]] output_shape [2, 4, 320, 320] : tensor<8x320x320xf32> into tensor<2x4x320x320xf32>
    %22 = tensor.empty() : tensor<2x4x320x320xf32>
    %23 = linalg.generic {indexing_maps = [#map2, #map8, #map2], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%expanded_11, %16 : tensor<2x4x320x320xf32>, tensor<320x320xf32>) outs(%22 : tensor<2x4x320x320xf32>) {
    ^bb0(%in: f32, %in_16: f32, %out: f32):
      %46 = arith.addf %in, %in_16 : f32
      linalg.yield %46 : f32
    } -> tensor<2x4x320x320xf32>
    %24 = tensor.empty() : tensor<2x4x320xi64>
    %25 = linalg.fill ins(%c0_i64 : i64) outs(%24 : tensor<2x4x320xi64>) -> tensor<2x4x320xi64>
    %26 = tensor.empty() : tensor<2x4x320xf32>
    %27 = linalg.fill ins(%cst_0 : f32) outs(%26 : tensor<2x4x320xf32>) -> tensor<2x4x320xf32>
    %28:2 = linalg.generic {indexing_maps = [#map2, #map9, #map9], iterator_types = ["parallel", "parallel", "parallel", "reduction"]} ins(%23 : tensor<2x4x320x320xf32>) outs(%27, %25 : tensor<2x4x320xf32>, tensor<2x4x320xi64>) {
    ^bb0(%in: f32, %out: f32, %out_16: i64):
      %46 = linalg.index 3 : index
      %47 = arith.index_cast %46 : index to i64
      %48 = arith.maximumf %in, %out : f32
      %49 = arith.cmpf ogt, %in, %out : f32
      %50 = arith.select %49, %47, %out_16 : i64
      linalg.yield %48, %50 : f32, i64
    } -> (tensor<2x4x320xf32>, tensor<2x4x320xi64>)
    %expanded_12 = tensor.expand_shape %28#0 [[0], [1], [2, 3]] output_shape [2, 4, 320, 1] : tensor<2x4x320xf32> into tensor<2x4x320x1xf32>
    %29 = linalg.generic {indexing_maps = [#map2, #map10, #map2], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%23, %expanded_12 : tensor<2x4x320x320xf32>, tensor<2x4x320x1xf32>) outs(%22 : tensor<2x4x320x320xf32>) {
    ^bb0(%in: f32, %in_16: f32, %out: f32):
      %46 = arith.subf %in, %in_16 : f32
      linalg.yield %46 : f32
    } -> tensor<2x4x320x320xf32>
    %30 = linalg.generic {indexing_maps = [#map2, #map2], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%29 : tensor<2x4x320x320xf32>) outs(%22 : tensor<2x4x320x320xf32>) {
    ^bb0(%in: f32, %out: f32):
      %46 = math.exp %in : f32
      linalg.yield %46 : f32
    } -> tensor<2x4x320x320xf32>
    %31 = tensor.empty() : tensor<2x4x320x1xf32>
    %32 = linalg.fill ins(%cst : f32) outs(%31 : tensor<2x4x320x1xf32>) -> tensor<2x4x320x1xf32>
    %33 = linalg.generic {indexing_maps = [#map2, #map10], iterator_types = ["parallel", "parallel", "parallel", "reduction"]} ins(%30 : tensor<2x4x320x320xf32>) outs(%32 : tensor<2x4x320x1xf32>) {
    ^bb0(%in: f32, %out: f32):
      %46 = arith.addf %in, %out : f32
      linalg.yield %46 : f32
    } -> tensor<2x4x320x1xf32>
    %34 = linalg.generic {indexing_maps = [#map2, #map10, #map2], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%30, %33 : tensor<2x4x320x320xf32>, tensor<2x4x320x1xf32>) outs(%22 : tensor<2x4x320x320xf32>) {
    ^bb0(%in: f32, %in_16: f32, %out: f32):
      %46 = arith.divf %in, %in_16 : f32
      linalg.yield %46 : f32
    } -> tensor<2x4x320x320xf32>
    %35 = tensor.empty() : tensor<2x4x320x320xi1>
    %36 = linalg.generic {indexing_maps = [#map2, #map2], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%23 : tensor<2x4x320x320xf32>) outs(%35 : tensor<2x4x320x320xi1>) {
    ^bb0(%in: f32, %out: i1):
      %46 = arith.extf %in : f32 to f64
      %47 = arith.cmpf oeq, %46, %cst_5 : f64
      linalg.yield %47 : i1
    } -> tensor<2x4x320x320xi1>
    %37 = tensor.empty() : tensor<2x4x320x1xi1>
    %38 = linalg.fill ins(%true : i1) outs(%37 : tensor<2x4x320x1xi1>) -> tensor<2x4x320x1xi1>
    %39 = linalg.generic {indexing_maps = [#map2, #map10], iterator_types = ["parallel", "parallel", "parallel", "reduction"]} ins(%36 : tensor<2x4x320x320xi1>) outs(%38 : tensor<2x4x320x1xi1>) {
    ^bb0(%in: i1, %out: i1):
      %46 = arith.andi %in, %out : i1
      linalg.yield %46 : i1
    } -> tensor<2x4x320x1xi1>
    %40 = linalg.generic {indexing_maps = [#map10, #map2, #map2, #map2], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%39, %cst_1, %34 : tensor<2x4x320x1xi1>, tensor<2x4x320x320xf32>, tensor<2x4x320x320xf32>) outs(%22 : tensor<2x4x320x320xf32>) {
    ^bb0(%in: i1, %in_16: f32, %in_17: f32, %out: f32):
      %46 = arith.select %in, %in_16, %in_17 : f32
      linalg.yield %46 : f32
    } -> tensor<2x4x320x320xf32>
    %collapsed_13 = tensor.collapse_shape %40 [[0, 1], [2], [3]] : tensor<2x4x320x320xf32> into tensor<8x320x320xf32>
    %collapsed_14 = tensor.collapse_shape %6 [[0, 1], [2], [3]] : tensor<2x4x320x32xf32> into tensor<8x320x32xf32>
    %41 = tensor.empty() : tensor<8x320x32xf32>
    %42 = linalg.fill ins(%cst : f32) outs(%41 : tensor<8x320x32xf32>) -> tensor<8x320x32xf32>
    %43 = linalg.batch_matmul ins(%collapsed_13, %collapsed_14 : tensor<8x320x320xf32>, tensor<8x320x32xf32>) outs(%42 : tensor<8x320x32xf32>) -> tensor<8x320x32xf32>
    %expanded_15 = tensor.expand_shape %43 [[0, 1], [2], [3]] output_shape [2, 4, 320, 32] : tensor<8x320x32xf32> into tensor<2x4x320x32xf32>
    %44 = tensor.empty() : tensor<2x4x320x32xbf16>
    %45 = linalg.generic {indexing_maps = [#map2, #map2], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%expanded_15 : tensor<2x4x320x32xf32>) outs(%44 : tensor<2x4x320x32xbf16>) {
    ^bb0(%in: f32, %out: bf16):
      %46 = arith.truncf %in : f32 to bf16
      linalg.yield %46 : bf16
    } -> tensor<2x4x320x32xbf16>
    return %45 : tensor<2x4x320x32xbf16>
  }
}
