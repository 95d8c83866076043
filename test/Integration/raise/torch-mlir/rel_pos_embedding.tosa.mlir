// rel_pos_embedding (RelPosEmbedding: A learned relative position bias (T5, Swin): an embedding of j - i, [L, L, H] permuted to [1, H, L, L].), exported by
// scripts/export_torch_mlir_cases.py (torch 2.15.0+cu132, torch_mlir.fx, output tosa).
// RUN: attention-opt %s --attn-raise-pipeline | FileCheck %s
// RUN: attn-raise-check %s --require-raised --runs=2 --seed=104 | FileCheck %s --check-prefix=PROOF --implicit-check-not=FAIL
// CHECK: attn.attention {{.*}}mask({{.*}} : tensor<1x4x16x16xf32>) {scale = 0.17677{{[0-9]+}} : f32}
// PROOF: @rel_pos_embedding: 1 attn.attention after the raising
// PROOF: run 1 result 0 {{.*}}: PASS
module {
  func.func @rel_pos_embedding(%arg0: tensor<2x4x16x32xf32>, %arg1: tensor<2x4x16x32xf32>, %arg2: tensor<2x4x16x32xf32>) -> tensor<2x4x16x32xf32> {
    %0 = "tosa.const"() <{values = dense<[0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15]> : tensor<16xi64>}> : () -> tensor<16xi64>
    %1 = tosa.const_shape  {values = dense<[1, 16]> : tensor<2xindex>} : () -> !tosa.shape<2>
    %2 = tosa.const_shape  {values = dense<[16, 1]> : tensor<2xindex>} : () -> !tosa.shape<2>
    %3 = "tosa.const"() <{values = dense<0> : tensor<1xi8>}> : () -> tensor<1xi8>
    %4 = tosa.const_shape  {values = dense<[1, 256]> : tensor<2xindex>} : () -> !tosa.shape<2>
    %5 = tosa.const_shape  {values = dense<[16, 16, 4]> : tensor<3xindex>} : () -> !tosa.shape<3>
    %6 = tosa.const_shape  {values = dense<[1, 4, 16, 16]> : tensor<4xindex>} : () -> !tosa.shape<4>
    %7 = tosa.const_shape  {values = dense<[8, 16, 32]> : tensor<3xindex>} : () -> !tosa.shape<3>
    %8 = tosa.const_shape  {values = dense<[8, 32, 16]> : tensor<3xindex>} : () -> !tosa.shape<3>
    %9 = "tosa.const"() <{values = dense<0.000000e+00> : tensor<1xf32>}> : () -> tensor<1xf32>
    %10 = tosa.const_shape  {values = dense<[2, 4, 16, 16]> : tensor<4xindex>} : () -> !tosa.shape<4>
    %11 = tosa.const_shape  {values = dense<[8, 16, 16]> : tensor<3xindex>} : () -> !tosa.shape<3>
    %12 = tosa.const_shape  {values = dense<[2, 4, 16, 32]> : tensor<4xindex>} : () -> !tosa.shape<4>
    %13 = "tosa.const"() <{values = dense<16> : tensor<1x1xi32>}> : () -> tensor<1x1xi32>
    %14 = "tosa.const"() <{values = dense<1> : tensor<1x1xi32>}> : () -> tensor<1x1xi32>
    %15 = "tosa.const"() <{values = dense_resource<torch_tensor_31_4_torch.float32> : tensor<1x31x4xf32>}> : () -> tensor<1x31x4xf32>
    %16 = "tosa.const"() <{values = dense<0.176776692> : tensor<1x1x1x1xf32>}> : () -> tensor<1x1x1x1xf32>
    %17 = tosa.reshape %0, %1 : (tensor<16xi64>, !tosa.shape<2>) -> tensor<1x16xi64>
    %18 = tosa.reshape %0, %2 : (tensor<16xi64>, !tosa.shape<2>) -> tensor<16x1xi64>
    %19 = tosa.cast %18 : (tensor<16x1xi64>) -> tensor<16x1xi32>
    %20 = tosa.cast %17 : (tensor<1x16xi64>) -> tensor<1x16xi32>
    %21 = tosa.sub %20, %19 : (tensor<1x16xi32>, tensor<16x1xi32>) -> tensor<16x16xi32>
    %22 = tosa.add %21, %13 : (tensor<16x16xi32>, tensor<1x1xi32>) -> tensor<16x16xi32>
    %23 = tosa.sub %22, %14 : (tensor<16x16xi32>, tensor<1x1xi32>) -> tensor<16x16xi32>
    %24 = tosa.cast %23 : (tensor<16x16xi32>) -> tensor<16x16xi64>
    %25 = tosa.reshape %24, %4 : (tensor<16x16xi64>, !tosa.shape<2>) -> tensor<1x256xi64>
    %26 = tosa.cast %25 : (tensor<1x256xi64>) -> tensor<1x256xi32>
    %27 = tosa.gather %15, %26 : (tensor<1x31x4xf32>, tensor<1x256xi32>) -> tensor<1x256x4xf32>
    %28 = tosa.reshape %27, %5 : (tensor<1x256x4xf32>, !tosa.shape<3>) -> tensor<16x16x4xf32>
    %29 = tosa.transpose %28 {perms = array<i32: 2, 0, 1>} : (tensor<16x16x4xf32>) -> tensor<4x16x16xf32>
    %30 = tosa.reshape %29, %6 : (tensor<4x16x16xf32>, !tosa.shape<4>) -> tensor<1x4x16x16xf32>
    %31 = tosa.transpose %arg1 {perms = array<i32: 0, 1, 3, 2>} : (tensor<2x4x16x32xf32>) -> tensor<2x4x32x16xf32>
    %32 = tosa.reshape %arg0, %7 : (tensor<2x4x16x32xf32>, !tosa.shape<3>) -> tensor<8x16x32xf32>
    %33 = tosa.reshape %31, %8 : (tensor<2x4x32x16xf32>, !tosa.shape<3>) -> tensor<8x32x16xf32>
    %34 = tosa.matmul %32, %33, %9, %9 : (tensor<8x16x32xf32>, tensor<8x32x16xf32>, tensor<1xf32>, tensor<1xf32>) -> tensor<8x16x16xf32>
    %35 = tosa.reshape %34, %10 : (tensor<8x16x16xf32>, !tosa.shape<4>) -> tensor<2x4x16x16xf32>
    %36 = tosa.mul %35, %16, %3 : (tensor<2x4x16x16xf32>, tensor<1x1x1x1xf32>, tensor<1xi8>) -> tensor<2x4x16x16xf32>
    %37 = tosa.add %36, %30 : (tensor<2x4x16x16xf32>, tensor<1x4x16x16xf32>) -> tensor<2x4x16x16xf32>
    %38 = tosa.reduce_max %37 {axis = 3 : i32} : (tensor<2x4x16x16xf32>) -> tensor<2x4x16x1xf32>
    %39 = tosa.sub %37, %38 : (tensor<2x4x16x16xf32>, tensor<2x4x16x1xf32>) -> tensor<2x4x16x16xf32>
    %40 = tosa.exp %39 : (tensor<2x4x16x16xf32>) -> tensor<2x4x16x16xf32>
    %41 = tosa.reduce_sum %40 {axis = 3 : i32} : (tensor<2x4x16x16xf32>) -> tensor<2x4x16x1xf32>
    %42 = tosa.reciprocal %41 : (tensor<2x4x16x1xf32>) -> tensor<2x4x16x1xf32>
    %43 = tosa.mul %40, %42, %3 : (tensor<2x4x16x16xf32>, tensor<2x4x16x1xf32>, tensor<1xi8>) -> tensor<2x4x16x16xf32>
    %44 = tosa.reshape %43, %11 : (tensor<2x4x16x16xf32>, !tosa.shape<3>) -> tensor<8x16x16xf32>
    %45 = tosa.reshape %arg2, %7 : (tensor<2x4x16x32xf32>, !tosa.shape<3>) -> tensor<8x16x32xf32>
    %46 = tosa.matmul %44, %45, %9, %9 : (tensor<8x16x16xf32>, tensor<8x16x32xf32>, tensor<1xf32>, tensor<1xf32>) -> tensor<8x16x32xf32>
    %47 = tosa.reshape %46, %12 : (tensor<8x16x32xf32>, !tosa.shape<4>) -> tensor<2x4x16x32xf32>
    return %47 : tensor<2x4x16x32xf32>
  }
}

{-#
  dialect_resources: {
    builtin: {
      torch_tensor_31_4_torch.float32: "0x040000007CF1783E8865B93FD92CD93E334023BF65585ABE96E3AD3F7D520E3ED95EA03F4C63E23E7EDAB5BE9A4E8BBF035D813FE2AFB6BFCE1F863F3261B63F22A50ABF4FF9DEBEB8D450BFC1B1AFBFDAC67BBDFFCD263FF2DCBB3FEAC55C3F0179713F5034AF3E42FE6EBF0A37B3BEFE53483FF2CB193F9A0BC93E9A11843F43E2C4BD5378C7BD3C0108BEC172393F736B6C3F44D27D3C00946CBFACE7A5BFE8A2DD3EB6965C3ED94A1FBFF45A52BF4168943F7F61F1BFF7142E3FC68B8ABEC1BDB3BFCEE4993E7C44AE3F176A843F12AB87BD77D9CFBEE6692CBF1ECCE7BFF98250BF03B0DD3E4D7B2F3F8359D6BFBF98D1BEE95F803F399B103F75158D3F155D733F61EAF8BE80DCC13E72B7C23C3B86173F61E67D3F340D5CBE4F6A78BF2A6D1ABFF5EC07C0729357BE94FF83BE9EC185BF1E38B93E6C3D943FC4A0D03FEA097CBD6CDD3D3F9FCF253FC5BD6ABF79A45CBF29E340BF626423BF27042EBF5445ECBEB728323F31E77ABF3D3EB6BF3F8721BE790A9ABB2BF753BFEE5652BFAE7DDDBE38831D3F67F460BEC5836DBFB77A3AC04D068FBF7C5F1CC0599BB4BF0E4A81BF7C2AC5BF55B6913EC73F6B3FE004693F08510740C4BF8A3F46CD0FBD95844B3F3B28613F9C47133FC82A923E565D1BBF5F33F4BC897F72BF1A08763F2CC5BCBF2E2FCF3F2EE8EA3D71BD273E96D806BF"
    }
  }
#-}
