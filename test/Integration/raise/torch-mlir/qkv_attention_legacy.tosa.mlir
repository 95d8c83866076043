// qkv_attention_legacy (QkvAttentionLegacy: OpenAI's guided-diffusion / Stable Diffusion QKVAttention: [B*H, D, T] channels first, q and k each scaled by d ** -0.25, P·V written V·Pᵀ (einsum('bts,bcs->bct')), the softmax in f32.), exported by
// scripts/export_torch_mlir_cases.py (torch 2.15.0+cu132, torch_mlir.fx, output tosa).
// RUN: attention-opt %s --attn-raise-pipeline | FileCheck %s
// RUN: attn-raise-check %s --require-raised --runs=2 --seed=134 | FileCheck %s --check-prefix=PROOF --implicit-check-not=FAIL
// CHECK: attn.attention {{.*}}tensor<1x8x24x32xf32>) {scale = 0.17677{{[0-9]+}} : f32}
// PROOF: @qkv_attention_legacy: 1 attn.attention after the raising
// PROOF: run 1 result 0 {{.*}}: PASS
module {
  func.func @qkv_attention_legacy(%arg0: tensor<8x32x16xf32>, %arg1: tensor<8x32x24xf32>, %arg2: tensor<8x32x24xf32>) -> tensor<8x32x16xf32> {
    %0 = "tosa.const"() <{values = dense<0> : tensor<1xi8>}> : () -> tensor<1xi8>
    %1 = tosa.const_shape  {values = dense<[8, 32, 16, 1]> : tensor<4xindex>} : () -> !tosa.shape<4>
    %2 = tosa.const_shape  {values = dense<[8, 16, 32]> : tensor<3xindex>} : () -> !tosa.shape<3>
    %3 = "tosa.const"() <{values = dense<0.000000e+00> : tensor<1xf32>}> : () -> tensor<1xf32>
    %4 = tosa.const_shape  {values = dense<[8, 16, 24, 1]> : tensor<4xindex>} : () -> !tosa.shape<4>
    %5 = tosa.const_shape  {values = dense<[8, 24, 16]> : tensor<3xindex>} : () -> !tosa.shape<3>
    %6 = "tosa.const"() <{values = dense<0.420448214> : tensor<1x1x1xf32>}> : () -> tensor<1x1x1xf32>
    %7 = tosa.mul %arg0, %6, %0 : (tensor<8x32x16xf32>, tensor<1x1x1xf32>, tensor<1xi8>) -> tensor<8x32x16xf32>
    %8 = tosa.mul %arg1, %6, %0 : (tensor<8x32x24xf32>, tensor<1x1x1xf32>, tensor<1xi8>) -> tensor<8x32x24xf32>
    %9 = tosa.reshape %7, %1 : (tensor<8x32x16xf32>, !tosa.shape<4>) -> tensor<8x32x16x1xf32>
    %10 = tosa.transpose %9 {perms = array<i32: 0, 2, 1, 3>} : (tensor<8x32x16x1xf32>) -> tensor<8x16x32x1xf32>
    %11 = tosa.reshape %10, %2 : (tensor<8x16x32x1xf32>, !tosa.shape<3>) -> tensor<8x16x32xf32>
    %12 = tosa.matmul %11, %8, %3, %3 : (tensor<8x16x32xf32>, tensor<8x32x24xf32>, tensor<1xf32>, tensor<1xf32>) -> tensor<8x16x24xf32>
    %13 = tosa.reduce_max %12 {axis = 2 : i32} : (tensor<8x16x24xf32>) -> tensor<8x16x1xf32>
    %14 = tosa.sub %12, %13 : (tensor<8x16x24xf32>, tensor<8x16x1xf32>) -> tensor<8x16x24xf32>
    %15 = tosa.exp %14 : (tensor<8x16x24xf32>) -> tensor<8x16x24xf32>
    %16 = tosa.reduce_sum %15 {axis = 2 : i32} : (tensor<8x16x24xf32>) -> tensor<8x16x1xf32>
    %17 = tosa.reciprocal %16 : (tensor<8x16x1xf32>) -> tensor<8x16x1xf32>
    %18 = tosa.mul %15, %17, %0 : (tensor<8x16x24xf32>, tensor<8x16x1xf32>, tensor<1xi8>) -> tensor<8x16x24xf32>
    %19 = tosa.reshape %18, %4 : (tensor<8x16x24xf32>, !tosa.shape<4>) -> tensor<8x16x24x1xf32>
    %20 = tosa.transpose %19 {perms = array<i32: 0, 2, 1, 3>} : (tensor<8x16x24x1xf32>) -> tensor<8x24x16x1xf32>
    %21 = tosa.reshape %20, %5 : (tensor<8x24x16x1xf32>, !tosa.shape<3>) -> tensor<8x24x16xf32>
    %22 = tosa.matmul %arg2, %21, %3, %3 : (tensor<8x32x24xf32>, tensor<8x24x16xf32>, tensor<1xf32>, tensor<1xf32>) -> tensor<8x32x16xf32>
    return %22 : tensor<8x32x16xf32>
  }
}
