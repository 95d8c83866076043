// whisper_cross (WhisperCross: Whisper's (and BART's) cross attention: q_proj(x) * scaling on [B, L, H*D] before the heads are split out, bmm on [B*H, L, D], Lq != Lk.), exported by
// scripts/export_torch_mlir_cases.py (torch 2.15.0+cu132, torch_mlir.fx, output tosa).
// RUN: attention-opt %s --attn-raise-pipeline | FileCheck %s
// RUN: attn-raise-check %s --require-raised --runs=2 --seed=128 | FileCheck %s --check-prefix=PROOF --implicit-check-not=FAIL
// CHECK: attn.attention {{.*}}{scale = 0.17677{{[0-9]+}} : f32}
// PROOF: @whisper_cross: 1 attn.attention after the raising
// PROOF: run 1 result 0 {{.*}}: PASS
module {
  func.func @whisper_cross(%arg0: tensor<2x16x128xf32>, %arg1: tensor<2x24x128xf32>, %arg2: tensor<2x24x128xf32>) -> tensor<2x16x128xf32> {
    %0 = "tosa.const"() <{values = dense<0> : tensor<1xi8>}> : () -> tensor<1xi8>
    %1 = tosa.const_shape  {values = dense<[2, 16, 4, 32]> : tensor<4xindex>} : () -> !tosa.shape<4>
    %2 = tosa.const_shape  {values = dense<[2, 24, 4, 32]> : tensor<4xindex>} : () -> !tosa.shape<4>
    %3 = tosa.const_shape  {values = dense<[8, 16, 32]> : tensor<3xindex>} : () -> !tosa.shape<3>
    %4 = tosa.const_shape  {values = dense<[8, 24, 32]> : tensor<3xindex>} : () -> !tosa.shape<3>
    %5 = "tosa.const"() <{values = dense<0.000000e+00> : tensor<1xf32>}> : () -> tensor<1xf32>
    %6 = tosa.const_shape  {values = dense<[2, 4, 16, 32]> : tensor<4xindex>} : () -> !tosa.shape<4>
    %7 = tosa.const_shape  {values = dense<[2, 16, 128]> : tensor<3xindex>} : () -> !tosa.shape<3>
    %8 = "tosa.const"() <{values = dense<0.176776692> : tensor<1x1x1xf32>}> : () -> tensor<1x1x1xf32>
    %9 = tosa.mul %arg0, %8, %0 : (tensor<2x16x128xf32>, tensor<1x1x1xf32>, tensor<1xi8>) -> tensor<2x16x128xf32>
    %10 = tosa.reshape %9, %1 : (tensor<2x16x128xf32>, !tosa.shape<4>) -> tensor<2x16x4x32xf32>
    %11 = tosa.transpose %10 {perms = array<i32: 0, 2, 1, 3>} : (tensor<2x16x4x32xf32>) -> tensor<2x4x16x32xf32>
    %12 = tosa.reshape %arg1, %2 : (tensor<2x24x128xf32>, !tosa.shape<4>) -> tensor<2x24x4x32xf32>
    %13 = tosa.transpose %12 {perms = array<i32: 0, 2, 1, 3>} : (tensor<2x24x4x32xf32>) -> tensor<2x4x24x32xf32>
    %14 = tosa.reshape %arg2, %2 : (tensor<2x24x128xf32>, !tosa.shape<4>) -> tensor<2x24x4x32xf32>
    %15 = tosa.transpose %14 {perms = array<i32: 0, 2, 1, 3>} : (tensor<2x24x4x32xf32>) -> tensor<2x4x24x32xf32>
    %16 = tosa.reshape %11, %3 : (tensor<2x4x16x32xf32>, !tosa.shape<3>) -> tensor<8x16x32xf32>
    %17 = tosa.reshape %13, %4 : (tensor<2x4x24x32xf32>, !tosa.shape<3>) -> tensor<8x24x32xf32>
    %18 = tosa.reshape %15, %4 : (tensor<2x4x24x32xf32>, !tosa.shape<3>) -> tensor<8x24x32xf32>
    %19 = tosa.transpose %17 {perms = array<i32: 0, 2, 1>} : (tensor<8x24x32xf32>) -> tensor<8x32x24xf32>
    %20 = tosa.matmul %16, %19, %5, %5 : (tensor<8x16x32xf32>, tensor<8x32x24xf32>, tensor<1xf32>, tensor<1xf32>) -> tensor<8x16x24xf32>
    %21 = tosa.reduce_max %20 {axis = 2 : i32} : (tensor<8x16x24xf32>) -> tensor<8x16x1xf32>
    %22 = tosa.sub %20, %21 : (tensor<8x16x24xf32>, tensor<8x16x1xf32>) -> tensor<8x16x24xf32>
    %23 = tosa.exp %22 : (tensor<8x16x24xf32>) -> tensor<8x16x24xf32>
    %24 = tosa.reduce_sum %23 {axis = 2 : i32} : (tensor<8x16x24xf32>) -> tensor<8x16x1xf32>
    %25 = tosa.reciprocal %24 : (tensor<8x16x1xf32>) -> tensor<8x16x1xf32>
    %26 = tosa.mul %23, %25, %0 : (tensor<8x16x24xf32>, tensor<8x16x1xf32>, tensor<1xi8>) -> tensor<8x16x24xf32>
    %27 = tosa.matmul %26, %18, %5, %5 : (tensor<8x16x24xf32>, tensor<8x24x32xf32>, tensor<1xf32>, tensor<1xf32>) -> tensor<8x16x32xf32>
    %28 = tosa.reshape %27, %6 : (tensor<8x16x32xf32>, !tosa.shape<4>) -> tensor<2x4x16x32xf32>
    %29 = tosa.transpose %28 {perms = array<i32: 0, 2, 1, 3>} : (tensor<2x4x16x32xf32>) -> tensor<2x16x4x32xf32>
    %30 = tosa.reshape %29, %7 : (tensor<2x16x4x32xf32>, !tosa.shape<3>) -> tensor<2x16x128xf32>
    return %30 : tensor<2x16x128xf32>
  }
}
