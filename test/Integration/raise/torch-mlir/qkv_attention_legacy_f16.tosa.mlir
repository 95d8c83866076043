// qkv_attention_legacy_f16 (QkvAttentionLegacy: OpenAI's guided-diffusion / Stable Diffusion QKVAttention: [B*H, D, T] channels first, q and k each scaled by d ** -0.25, P·V written V·Pᵀ (einsum('bts,bcs->bct')), the softmax in f32.), exported by
// scripts/export_torch_mlir_cases.py (torch 2.15.0+cu132, torch_mlir.fx, output tosa).
// RUN: attention-opt %s --attn-raise-pipeline | FileCheck %s
// RUN: attn-raise-check %s --require-raised --runs=2 --seed=136 | FileCheck %s --check-prefix=PROOF --implicit-check-not=FAIL
// CHECK: attn.attention {{.*}}tensor<1x8x24x32xf16>) {scale = 0.1767{{[0-9]+}} : f32}
// PROOF: @qkv_attention_legacy_f16: 1 attn.attention after the raising
// PROOF: run 1 result 0 {{.*}}: PASS
module {
  func.func @qkv_attention_legacy_f16(%arg0: tensor<8x32x16xf16>, %arg1: tensor<8x32x24xf16>, %arg2: tensor<8x32x24xf16>) -> tensor<8x32x16xf16> {
    %0 = "tosa.const"() <{values = dense<0> : tensor<1xi8>}> : () -> tensor<1xi8>
    %1 = tosa.const_shape  {values = dense<[8, 32, 16, 1]> : tensor<4xindex>} : () -> !tosa.shape<4>
    %2 = tosa.const_shape  {values = dense<[8, 16, 32]> : tensor<3xindex>} : () -> !tosa.shape<3>
    %3 = "tosa.const"() <{values = dense<0.000000e+00> : tensor<1xf16>}> : () -> tensor<1xf16>
    %4 = tosa.const_shape  {values = dense<[8, 16, 24, 1]> : tensor<4xindex>} : () -> !tosa.shape<4>
    %5 = tosa.const_shape  {values = dense<[8, 24, 16]> : tensor<3xindex>} : () -> !tosa.shape<3>
    %6 = "tosa.const"() <{values = dense<4.204100e-01> : tensor<1x1x1xf16>}> : () -> tensor<1x1x1xf16>
    %7 = tosa.mul %arg0, %6, %0 : (tensor<8x32x16xf16>, tensor<1x1x1xf16>, tensor<1xi8>) -> tensor<8x32x16xf16>
    %8 = tosa.mul %arg1, %6, %0 : (tensor<8x32x24xf16>, tensor<1x1x1xf16>, tensor<1xi8>) -> tensor<8x32x24xf16>
    %9 = tosa.reshape %7, %1 : (tensor<8x32x16xf16>, !tosa.shape<4>) -> tensor<8x32x16x1xf16>
    %10 = tosa.transpose %9 {perms = array<i32: 0, 2, 1, 3>} : (tensor<8x32x16x1xf16>) -> tensor<8x16x32x1xf16>
    %11 = tosa.reshape %10, %2 : (tensor<8x16x32x1xf16>, !tosa.shape<3>) -> tensor<8x16x32xf16>
    %12 = tosa.matmul %11, %8, %3, %3 : (tensor<8x16x32xf16>, tensor<8x32x24xf16>, tensor<1xf16>, tensor<1xf16>) -> tensor<8x16x24xf32>
    %13 = tosa.cast %12 : (tensor<8x16x24xf32>) -> tensor<8x16x24xf16>
    %14 = tosa.cast %13 : (tensor<8x16x24xf16>) -> tensor<8x16x24xf32>
    %15 = tosa.reduce_max %14 {axis = 2 : i32} : (tensor<8x16x24xf32>) -> tensor<8x16x1xf32>
    %16 = tosa.sub %14, %15 : (tensor<8x16x24xf32>, tensor<8x16x1xf32>) -> tensor<8x16x24xf32>
    %17 = tosa.exp %16 : (tensor<8x16x24xf32>) -> tensor<8x16x24xf32>
    %18 = tosa.reduce_sum %17 {axis = 2 : i32} : (tensor<8x16x24xf32>) -> tensor<8x16x1xf32>
    %19 = tosa.reciprocal %18 : (tensor<8x16x1xf32>) -> tensor<8x16x1xf32>
    %20 = tosa.mul %17, %19, %0 : (tensor<8x16x24xf32>, tensor<8x16x1xf32>, tensor<1xi8>) -> tensor<8x16x24xf32>
    %21 = tosa.cast %20 : (tensor<8x16x24xf32>) -> tensor<8x16x24xf16>
    %22 = tosa.reshape %21, %4 : (tensor<8x16x24xf16>, !tosa.shape<4>) -> tensor<8x16x24x1xf16>
    %23 = tosa.transpose %22 {perms = array<i32: 0, 2, 1, 3>} : (tensor<8x16x24x1xf16>) -> tensor<8x24x16x1xf16>
    %24 = tosa.reshape %23, %5 : (tensor<8x24x16x1xf16>, !tosa.shape<3>) -> tensor<8x24x16xf16>
    %25 = tosa.matmul %arg2, %24, %3, %3 : (tensor<8x32x24xf16>, tensor<8x24x16xf16>, tensor<1xf16>, tensor<1xf16>) -> tensor<8x32x16xf32>
    %26 = tosa.cast %25 : (tensor<8x32x16xf32>) -> tensor<8x32x16xf16>
    return %26 : tensor<8x32x16xf16>
  }
}
