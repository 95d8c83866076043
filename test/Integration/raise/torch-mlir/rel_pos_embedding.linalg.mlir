// rel_pos_embedding (RelPosEmbedding: A learned relative position bias (T5, Swin): an embedding of j - i, [L, L, H] permuted to [1, H, L, L].), exported by
// scripts/export_torch_mlir_cases.py (torch 2.15.0+cu132, torch_mlir.fx, output linalg-on-tensors).
// RUN: attention-opt %s --attn-raise-pipeline | FileCheck %s
// RUN: attn-raise-check %s --require-raised --runs=2 --seed=103 | FileCheck %s --check-prefix=PROOF --implicit-check-not=FAIL
// CHECK: attn.attention {{.*}}mask({{.*}} : tensor<1x4x16x16xf32>) {scale = 0.17677{{[0-9]+}} : f32}
// PROOF: @rel_pos_embedding: 1 attn.attention after the raising
// PROOF: run 1 result 0 {{.*}}: PASS
#map = affine_map<(d0) -> (d0)>
#map1 = affine_map<(d0, d1) -> (0, d1)>
#map2 = affine_map<(d0, d1) -> (d0, 0)>
#map3 = affine_map<(d0, d1) -> (d0, d1)>
#map4 = affine_map<(d0, d1, d2) -> (d0, d1)>
#map5 = affine_map<(d0, d1, d2) -> (d0, d1, d2)>
#map6 = affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>
#map7 = affine_map<(d0, d1, d2, d3) -> (0, d1, d2, d3)>
#map8 = affine_map<(d0, d1, d2, d3) -> (d0, d1, d2)>
#map9 = affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, 0)>
module {
  func.func @rel_pos_embedding(%arg0: tensor<2x4x16x32xf32>, %arg1: tensor<2x4x16x32xf32>, %arg2: tensor<2x4x16x32xf32>) -> tensor<2x4x16x32xf32> {
    %c0_i64 = arith.constant 0 : i64
    %c16_i64 = arith.constant 16 : i64
    %c1_i64 = arith.constant 1 : i64
    %c31 = arith.constant 31 : index
    %cst = arith.constant 0.000000e+00 : f32
    %cst_0 = arith.constant 0xFF800000 : f32
    %cst_1 = arith.constant 5.6568542494923806 : f64
    %cst_2 = arith.constant dense_resource<torch_tensor_31_4_torch.float32> : tensor<31x4xf32>
    %0 = tensor.empty() : tensor<16xi64>
    %1 = linalg.generic {indexing_maps = [#map], iterator_types = ["parallel"]} outs(%0 : tensor<16xi64>) {
    ^bb0(%out: i64):
      %30 = linalg.index 0 : index
      %31 = arith.index_cast %30 : index to i64
      linalg.yield %31 : i64
    } -> tensor<16xi64>
    %expanded = tensor.expand_shape %1 [[0, 1]] output_shape [1, 16] : tensor<16xi64> into tensor<1x16xi64>
    %expanded_3 = tensor.expand_shape %1 [[0, 1]] output_shape [16, 1] : tensor<16xi64> into tensor<16x1xi64>
    %2 = tensor.empty() : tensor<16x16xi64>
    %3 = linalg.generic {indexing_maps = [#map1, #map2, #map3], iterator_types = ["parallel", "parallel"]} ins(%expanded, %expanded_3 : tensor<1x16xi64>, tensor<16x1xi64>) outs(%2 : tensor<16x16xi64>) {
    ^bb0(%in: i64, %in_12: i64, %out: i64):
      %30 = arith.subi %in, %in_12 : i64
      linalg.yield %30 : i64
    } -> tensor<16x16xi64>
    %4 = linalg.generic {indexing_maps = [#map3, #map3], iterator_types = ["parallel", "parallel"]} ins(%3 : tensor<16x16xi64>) outs(%2 : tensor<16x16xi64>) {
    ^bb0(%in: i64, %out: i64):
      %30 = arith.addi %in, %c16_i64 : i64
      linalg.yield %30 : i64
    } -> tensor<16x16xi64>
    %5 = linalg.generic {indexing_maps = [#map3, #map3], iterator_types = ["parallel", "parallel"]} ins(%4 : tensor<16x16xi64>) outs(%2 : tensor<16x16xi64>) {
    ^bb0(%in: i64, %out: i64):
      %30 = arith.subi %in, %c1_i64 : i64
      linalg.yield %30 : i64
    } -> tensor<16x16xi64>
    %6 = tensor.empty() : tensor<16x16x4xf32>
    %7 = linalg.generic {indexing_maps = [#map4, #map5], iterator_types = ["parallel", "parallel", "parallel"]} ins(%5 : tensor<16x16xi64>) outs(%6 : tensor<16x16x4xf32>) {
    ^bb0(%in: i64, %out: f32):
      %30 = arith.index_cast %in : i64 to index
      %31 = linalg.index 2 : index
      %32 = arith.cmpi slt, %30, %c31 : index
      cf.assert %32, "index must be smaller than dim size"
      %33 = arith.cmpi sge, %in, %c0_i64 : i64
      cf.assert %33, "index must be larger or equal to 0"
      %extracted = tensor.extract %cst_2[%30, %31] : tensor<31x4xf32>
      linalg.yield %extracted : f32
    } -> tensor<16x16x4xf32>
    %8 = tensor.empty() : tensor<4x16x16xf32>
    %transposed = linalg.transpose ins(%7 : tensor<16x16x4xf32>) outs(%8 : tensor<4x16x16xf32>) permutation = [2, 0, 1] 
    %expanded_4 = tensor.expand_shape %transposed [[0, 1], [2], [3]] output_shape [1, 4, 16, 16] : tensor<4x16x16xf32> into tensor<1x4x16x16xf32>
    %9 = tensor.empty() : tensor<2x4x32x16xf32>
    %transposed_5 = linalg.transpose ins(%arg1 : tensor<2x4x16x32xf32>) outs(%9 : tensor<2x4x32x16xf32>) permutation = [0, 1, 3, 2] 
    %collapsed = tensor.collapse_shape %arg0 [[0, 1], [2], [3]] : tensor<2x4x16x32xf32> into tensor<8x16x32xf32>
    %collapsed_6 = tensor.collapse_shape %transposed_5 [[0, 1], [2], [3]] : tensor<2x4x32x16xf32> into tensor<8x32x16xf32>
    %10 = tensor.empty() : tensor<8x16x16xf32>
    %11 = linalg.fill ins(%cst : f32) outs(%10 : tensor<8x16x16xf32>) -> tensor<8x16x16xf32>
    %12 = linalg.batch_matmul ins(%collapsed, %collapsed_6 : tensor<8x16x32xf32>, tensor<8x32x16xf32>) outs(%11 : tensor<8x16x16xf32>) -> tensor<8x16x16xf32>
    %expanded_7 = tensor.expand_shape %12 [[0, 1], [2], [3]] output_shape [2, 4, 16, 16] : tensor<8x16x16xf32> into tensor<2x4x16x16xf32>
    %13 = tensor.empty() : tensor<2x4x16x16xf32>
    %14 = linalg.generic {indexing_maps = [#map6, #map6], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%expanded_7 : tensor<2x4x16x16xf32>) outs(%13 : tensor<2x4x16x16xf32>) {
    ^bb0(%in: f32, %out: f32):
      %30 = arith.truncf %cst_1 : f64 to f32
      %31 = arith.divf %in, %30 : f32
      linalg.yield %31 : f32
    } -> tensor<2x4x16x16xf32>
    %15 = linalg.generic {indexing_maps = [#map6, #map7, #map6], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%14, %expanded_4 : tensor<2x4x16x16xf32>, tensor<1x4x16x16xf32>) outs(%13 : tensor<2x4x16x16xf32>) {
    ^bb0(%in: f32, %in_12: f32, %out: f32):
      %30 = arith.addf %in, %in_12 : f32
      linalg.yield %30 : f32
    } -> tensor<2x4x16x16xf32>
    %16 = tensor.empty() : tensor<2x4x16xi64>
    %17 = linalg.fill ins(%c0_i64 : i64) outs(%16 : tensor<2x4x16xi64>) -> tensor<2x4x16xi64>
    %18 = tensor.empty() : tensor<2x4x16xf32>
    %19 = linalg.fill ins(%cst_0 : f32) outs(%18 : tensor<2x4x16xf32>) -> tensor<2x4x16xf32>
    %20:2 = linalg.generic {indexing_maps = [#map6, #map8, #map8], iterator_types = ["parallel", "parallel", "parallel", "reduction"]} ins(%15 : tensor<2x4x16x16xf32>) outs(%19, %17 : tensor<2x4x16xf32>, tensor<2x4x16xi64>) {
    ^bb0(%in: f32, %out: f32, %out_12: i64):
      %30 = linalg.index 3 : index
      %31 = arith.index_cast %30 : index to i64
      %32 = arith.maximumf %in, %out : f32
      %33 = arith.cmpf ogt, %in, %out : f32
      %34 = arith.select %33, %31, %out_12 : i64
      linalg.yield %32, %34 : f32, i64
    } -> (tensor<2x4x16xf32>, tensor<2x4x16xi64>)
    %expanded_8 = tensor.expand_shape %20#0 [[0], [1], [2, 3]] output_shape [2, 4, 16, 1] : tensor<2x4x16xf32> into tensor<2x4x16x1xf32>
    %21 = linalg.generic {indexing_maps = [#map6, #map9, #map6], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%15, %expanded_8 : tensor<2x4x16x16xf32>, tensor<2x4x16x1xf32>) outs(%13 : tensor<2x4x16x16xf32>) {
    ^bb0(%in: f32, %in_12: f32, %out: f32):
      %30 = arith.subf %in, %in_12 : f32
      linalg.yield %30 : f32
    } -> tensor<2x4x16x16xf32>
    %22 = linalg.generic {indexing_maps = [#map6, #map6], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%21 : tensor<2x4x16x16xf32>) outs(%13 : tensor<2x4x16x16xf32>) {
    ^bb0(%in: f32, %out: f32):
      %30 = math.exp %in : f32
      linalg.yield %30 : f32
    } -> tensor<2x4x16x16xf32>
    %23 = tensor.empty() : tensor<2x4x16x1xf32>
    %24 = linalg.fill ins(%cst : f32) outs(%23 : tensor<2x4x16x1xf32>) -> tensor<2x4x16x1xf32>
    %25 = linalg.generic {indexing_maps = [#map6, #map9], iterator_types = ["parallel", "parallel", "parallel", "reduction"]} ins(%22 : tensor<2x4x16x16xf32>) outs(%24 : tensor<2x4x16x1xf32>) {
    ^bb0(%in: f32, %out: f32):
      %30 = arith.addf %in, %out : f32
      linalg.yield %30 : f32
    } -> tensor<2x4x16x1xf32>
    %26 = linalg.generic {indexing_maps = [#map6, #map9, #map6], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%22, %25 : tensor<2x4x16x16xf32>, tensor<2x4x16x1xf32>) outs(%13 : tensor<2x4x16x16xf32>) {
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

{-#
  dialect_resources: {
    builtin: {
      torch_tensor_31_4_torch.float32: "0x040000007CF1783E8865B93FD92CD93E334023BF65585ABE96E3AD3F7D520E3ED95EA03F4C63E23E7EDAB5BE9A4E8BBF035D813FE2AFB6BFCE1F863F3261B63F22A50ABF4FF9DEBEB8D450BFC1B1AFBFDAC67BBDFFCD263FF2DCBB3FEAC55C3F0179713F5034AF3E42FE6EBF0A37B3BEFE53483FF2CB193F9A0BC93E9A11843F43E2C4BD5378C7BD3C0108BEC172393F736B6C3F44D27D3C00946CBFACE7A5BFE8A2DD3EB6965C3ED94A1FBFF45A52BF4168943F7F61F1BFF7142E3FC68B8ABEC1BDB3BFCEE4993E7C44AE3F176A843F12AB87BD77D9CFBEE6692CBF1ECCE7BFF98250BF03B0DD3E4D7B2F3F8359D6BFBF98D1BEE95F803F399B103F75158D3F155D733F61EAF8BE80DCC13E72B7C23C3B86173F61E67D3F340D5CBE4F6A78BF2A6D1ABFF5EC07C0729357BE94FF83BE9EC185BF1E38B93E6C3D943FC4A0D03FEA097CBD6CDD3D3F9FCF253FC5BD6ABF79A45CBF29E340BF626423BF27042EBF5445ECBEB728323F31E77ABF3D3EB6BF3F8721BE790A9ABB2BF753BFEE5652BFAE7DDDBE38831D3F67F460BEC5836DBFB77A3AC04D068FBF7C5F1CC0599BB4BF0E4A81BF7C2AC5BF55B6913EC73F6B3FE004693F08510740C4BF8A3F46CD0FBD95844B3F3B28613F9C47133FC82A923E565D1BBF5F33F4BC897F72BF1A08763F2CC5BCBF2E2FCF3F2EE8EA3D71BD273E96D806BF"
    }
  }
#-}
