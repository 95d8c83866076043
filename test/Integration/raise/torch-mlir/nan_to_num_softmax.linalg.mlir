// nan_to_num_softmax (NanToNumSoftmax: torch.nan_to_num(softmax(s)): zeroes the fully masked rows, but also rows that a NaN or +inf score makes NaN, which the op gives as NaN.), exported by
// scripts/export_torch_mlir_cases.py (torch 2.15.0+cu132, torch_mlir.fx, output linalg-on-tensors).
// Not raised, and attn-raise-check proves the chain intact.
// RUN: attention-opt %s --attn-raise-pipeline=explain 2>&1 | FileCheck %s
// RUN: attn-raise-check %s --runs=1 --seed=149 | FileCheck %s --check-prefix=PROOF --implicit-check-not=FAIL
// CHECK: remark: attn-fuse: not fused: the probabilities have another user
// CHECK-NOT: = attn.attention
// PROOF: @nan_to_num_softmax: 0 attn.attention after the raising
// PROOF: run 0 result 0 {{.*}}: PASS
#map = affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>
#map1 = affine_map<(d0, d1, d2, d3) -> (d0, 0, d2, d3)>
#map2 = affine_map<(d0, d1, d2, d3) -> ()>
#map3 = affine_map<(d0, d1, d2, d3) -> (d0, d1, d2)>
#map4 = affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, 0)>
module {
  func.func @nan_to_num_softmax(%arg0: tensor<2x4x16x32xf32>, %arg1: tensor<2x4x24x32xf32>, %arg2: tensor<2x4x24x32xf32>, %arg3: tensor<2x1x16x24xi1>) -> tensor<2x4x16x32xf32> {
    %cst = arith.constant 0.000000e+00 : f32
    %true = arith.constant true
    %c0_i64 = arith.constant 0 : i64
    %cst_0 = arith.constant 0xFF800000 : f32
    %cst_1 = arith.constant dense<3.40282347E+38> : tensor<f32>
    %cst_2 = arith.constant dense<-3.40282347E+38> : tensor<f32>
    %cst_3 = arith.constant dense<0.000000e+00> : tensor<f32>
    %cst_4 = arith.constant dense<0xFF800000> : tensor<f32>
    %cst_5 = arith.constant 0x7FF0000000000000 : f64
    %cst_6 = arith.constant 0xFFF0000000000000 : f64
    %cst_7 = arith.constant 5.6568542494923806 : f64
    %0 = tensor.empty() : tensor<2x4x32x24xf32>
    %transposed = linalg.transpose ins(%arg1 : tensor<2x4x24x32xf32>) outs(%0 : tensor<2x4x32x24xf32>) permutation = [0, 1, 3, 2] 
    %collapsed = tensor.collapse_shape %arg0 [[0, 1], [2], [3]] : tensor<2x4x16x32xf32> into tensor<8x16x32xf32>
    %collapsed_8 = tensor.collapse_shape %transposed [[0, 1], [2], [3]] : tensor<2x4x32x24xf32> into tensor<8x32x24xf32>
    %1 = tensor.empty() : tensor<8x16x24xf32>
    %2 = linalg.fill ins(%cst : f32) outs(%1 : tensor<8x16x24xf32>) -> tensor<8x16x24xf32>
    %3 = linalg.batch_matmul ins(%collapsed, %collapsed_8 : tensor<8x16x32xf32>, tensor<8x32x24xf32>) outs(%2 : tensor<8x16x24xf32>) -> tensor<8x16x24xf32>
    %expanded = tensor.expand_shape %3 [[0, 1], [2], [3]] output_shape [2, 4, 16, 24] : tensor<8x16x24xf32> into tensor<2x4x16x24xf32>
    %4 = tensor.empty() : tensor<2x4x16x24xf32>
    %5 = linalg.generic {indexing_maps = [#map, #map], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%expanded : tensor<2x4x16x24xf32>) outs(%4 : tensor<2x4x16x24xf32>) {
    ^bb0(%in: f32, %out: f32):
      %30 = arith.truncf %cst_7 : f64 to f32
      %31 = arith.divf %in, %30 : f32
      linalg.yield %31 : f32
    } -> tensor<2x4x16x24xf32>
    %6 = tensor.empty() : tensor<2x1x16x24xi1>
    %7 = linalg.generic {indexing_maps = [#map, #map], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%arg3 : tensor<2x1x16x24xi1>) outs(%6 : tensor<2x1x16x24xi1>) {
    ^bb0(%in: i1, %out: i1):
      %30 = arith.xori %in, %true : i1
      linalg.yield %30 : i1
    } -> tensor<2x1x16x24xi1>
    %8 = linalg.generic {indexing_maps = [#map1, #map2, #map, #map], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%7, %cst_4, %5 : tensor<2x1x16x24xi1>, tensor<f32>, tensor<2x4x16x24xf32>) outs(%4 : tensor<2x4x16x24xf32>) {
    ^bb0(%in: i1, %in_13: f32, %in_14: f32, %out: f32):
      %30 = arith.select %in, %in_13, %in_14 : f32
      linalg.yield %30 : f32
    } -> tensor<2x4x16x24xf32>
    %9 = tensor.empty() : tensor<2x4x16xi64>
    %10 = linalg.fill ins(%c0_i64 : i64) outs(%9 : tensor<2x4x16xi64>) -> tensor<2x4x16xi64>
    %11 = tensor.empty() : tensor<2x4x16xf32>
    %12 = linalg.fill ins(%cst_0 : f32) outs(%11 : tensor<2x4x16xf32>) -> tensor<2x4x16xf32>
    %13:2 = linalg.generic {indexing_maps = [#map, #map3, #map3], iterator_types = ["parallel", "parallel", "parallel", "reduction"]} ins(%8 : tensor<2x4x16x24xf32>) outs(%12, %10 : tensor<2x4x16xf32>, tensor<2x4x16xi64>) {
    ^bb0(%in: f32, %out: f32, %out_13: i64):
      %30 = linalg.index 3 : index
      %31 = arith.index_cast %30 : index to i64
      %32 = arith.maximumf %in, %out : f32
      %33 = arith.cmpf ogt, %in, %out : f32
      %34 = arith.select %33, %31, %out_13 : i64
      linalg.yield %32, %34 : f32, i64
    } -> (tensor<2x4x16xf32>, tensor<2x4x16xi64>)
    %expanded_9 = tensor.expand_shape %13#0 [[0], [1], [2, 3]] output_shape [2, 4, 16, 1] : tensor<2x4x16xf32> into tensor<2x4x16x1xf32>
    %14 = linalg.generic {indexing_maps = [#map, #map4, #map], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%8, %expanded_9 : tensor<2x4x16x24xf32>, tensor<2x4x16x1xf32>) outs(%4 : tensor<2x4x16x24xf32>) {
    ^bb0(%in: f32, %in_13: f32, %out: f32):
      %30 = arith.subf %in, %in_13 : f32
      linalg.yield %30 : f32
    } -> tensor<2x4x16x24xf32>
    %15 = linalg.generic {indexing_maps = [#map, #map], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%14 : tensor<2x4x16x24xf32>) outs(%4 : tensor<2x4x16x24xf32>) {
    ^bb0(%in: f32, %out: f32):
      %30 = math.exp %in : f32
      linalg.yield %30 : f32
    } -> tensor<2x4x16x24xf32>
    %16 = tensor.empty() : tensor<2x4x16x1xf32>
    %17 = linalg.fill ins(%cst : f32) outs(%16 : tensor<2x4x16x1xf32>) -> tensor<2x4x16x1xf32>
    %18 = linalg.generic {indexing_maps = [#map, #map4], iterator_types = ["parallel", "parallel", "parallel", "reduction"]} ins(%15 : tensor<2x4x16x24xf32>) outs(%17 : tensor<2x4x16x1xf32>) {
    ^bb0(%in: f32, %out: f32):
      %30 = arith.addf %in, %out : f32
      linalg.yield %30 : f32
    } -> tensor<2x4x16x1xf32>
    %19 = linalg.generic {indexing_maps = [#map, #map4, #map], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%15, %18 : tensor<2x4x16x24xf32>, tensor<2x4x16x1xf32>) outs(%4 : tensor<2x4x16x24xf32>) {
    ^bb0(%in: f32, %in_13: f32, %out: f32):
      %30 = arith.divf %in, %in_13 : f32
      linalg.yield %30 : f32
    } -> tensor<2x4x16x24xf32>
    %20 = tensor.empty() : tensor<2x4x16x24xi1>
    %21 = linalg.generic {indexing_maps = [#map, #map, #map], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%19, %19 : tensor<2x4x16x24xf32>, tensor<2x4x16x24xf32>) outs(%20 : tensor<2x4x16x24xi1>) {
    ^bb0(%in: f32, %in_13: f32, %out: i1):
      %30 = arith.cmpf une, %in, %in_13 : f32
      linalg.yield %30 : i1
    } -> tensor<2x4x16x24xi1>
    %22 = linalg.generic {indexing_maps = [#map, #map2, #map, #map], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%21, %cst_3, %19 : tensor<2x4x16x24xi1>, tensor<f32>, tensor<2x4x16x24xf32>) outs(%4 : tensor<2x4x16x24xf32>) {
    ^bb0(%in: i1, %in_13: f32, %in_14: f32, %out: f32):
      %30 = arith.select %in, %in_13, %in_14 : f32
      linalg.yield %30 : f32
    } -> tensor<2x4x16x24xf32>
    %23 = linalg.generic {indexing_maps = [#map, #map], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%19 : tensor<2x4x16x24xf32>) outs(%20 : tensor<2x4x16x24xi1>) {
    ^bb0(%in: f32, %out: i1):
      %30 = arith.extf %in : f32 to f64
      %31 = arith.cmpf oeq, %30, %cst_6 : f64
      linalg.yield %31 : i1
    } -> tensor<2x4x16x24xi1>
    %24 = linalg.generic {indexing_maps = [#map, #map2, #map, #map], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%23, %cst_2, %22 : tensor<2x4x16x24xi1>, tensor<f32>, tensor<2x4x16x24xf32>) outs(%4 : tensor<2x4x16x24xf32>) {
    ^bb0(%in: i1, %in_13: f32, %in_14: f32, %out: f32):
      %30 = arith.select %in, %in_13, %in_14 : f32
      linalg.yield %30 : f32
    } -> tensor<2x4x16x24xf32>
    %25 = linalg.generic {indexing_maps = [#map, #map], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%19 : tensor<2x4x16x24xf32>) outs(%20 : tensor<2x4x16x24xi1>) {
    ^bb0(%in: f32, %out: i1):
      %30 = arith.extf %in : f32 to f64
      %31 = arith.cmpf oeq, %30, %cst_5 : f64
      linalg.yield %31 : i1
    } -> tensor<2x4x16x24xi1>
    %26 = linalg.generic {indexing_maps = [#map, #map2, #map, #map], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%25, %cst_1, %24 : tensor<2x4x16x24xi1>, tensor<f32>, tensor<2x4x16x24xf32>) outs(%4 : tensor<2x4x16x24xf32>) {
    ^bb0(%in: i1, %in_13: f32, %in_14: f32, %out: f32):
      %30 = arith.select %in, %in_13, %in_14 : f32
      linalg.yield %30 : f32
    } -> tensor<2x4x16x24xf32>
    %collapsed_10 = tensor.collapse_shape %26 [[0, 1], [2], [3]] : tensor<2x4x16x24xf32> into tensor<8x16x24xf32>
    %collapsed_11 = tensor.collapse_shape %arg2 [[0, 1], [2], [3]] : tensor<2x4x24x32xf32> into tensor<8x24x32xf32>
    %27 = tensor.empty() : tensor<8x16x32xf32>
    %28 = linalg.fill ins(%cst : f32) outs(%27 : tensor<8x16x32xf32>) -> tensor<8x16x32xf32>
    %29 = linalg.batch_matmul ins(%collapsed_10, %collapsed_11 : tensor<8x16x24xf32>, tensor<8x24x32xf32>) outs(%28 : tensor<8x16x32xf32>) -> tensor<8x16x32xf32>
    %expanded_12 = tensor.expand_shape %29 [[0, 1], [2], [3]] output_shape [2, 4, 16, 32] : tensor<8x16x32xf32> into tensor<2x4x16x32xf32>
    return %expanded_12 : tensor<2x4x16x32xf32>
  }
}
