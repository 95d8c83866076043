// mha_3d (Mha3d: [B, L, H*D] inputs split into heads, as nn.MultiheadAttention does.), exported by
// scripts/export_torch_mlir_cases.py (torch 2.15.0+cu132, torch_mlir.fx, output tosa).
// RUN: attention-opt %s --attn-raise-pipeline | FileCheck %s
// RUN: attn-raise-check %s --require-raised --runs=2 --seed=18 | FileCheck %s --check-prefix=PROOF --implicit-check-not=FAIL
// CHECK: attn.attention {{.*}}{scale = 0.17677{{[0-9]+}} : f32}
// PROOF: @mha_3d: 1 attn.attention after the raising
// PROOF: run 1 result 0 {{.*}}: PASS
module {
  func.func @mha_3d(%arg0: tensor<2x16x128xf32>, %arg1: tensor<2x24x128xf32>, %arg2: tensor<2x24x128xf32>) -> tensor<2x16x128xf32> {
    %0 = tosa.const_shape  {values = dense<[2, 16, 4, 32]> : tensor<4xindex>} : () -> !tosa.shape<4>
    %1 = tosa.const_shape  {values = dense<[2, 24, 4, 32]> : tensor<4xindex>} : () -> !tosa.shape<4>
    %2 = tosa.const_shape  {values = dense<[8, 16, 32]> : tensor<3xindex>} : () -> !tosa.shape<3>
    %3 = tosa.const_shape  {values = dense<[8, 32, 24]> : tensor<3xindex>} : () -> !tosa.shape<3>
    %4 = "tosa.const"() <{values = dense<0.000000e+00> : tensor<1xf32>}> : () -> tensor<1xf32>
    %5 = tosa.const_shape  {values = dense<[2, 4, 16, 24]> : tensor<4xindex>} : () -> !tosa.shape<4>
    %6 = "tosa.const"() <{values = dense<0> : tensor<1xi8>}> : () -> tensor<1xi8>
    %7 = tosa.const_shape  {values = dense<[8, 16, 24]> : tensor<3xindex>} : () -> !tosa.shape<3>
    %8 = tosa.const_shape  {values = dense<[8, 24, 32]> : tensor<3xindex>} : () -> !tosa.shape<3>
    %9 = tosa.const_shape  {values = dense<[2, 4, 16, 32]> : tensor<4xindex>} : () -> !tosa.shape<4>
    %10 = tosa.const_shape  {values = dense<[2, 16, 128]> : tensor<3xindex>} : () -> !tosa.shape<3>
    %11 = "tosa.const"() <{values = dense<0.176776692> : tensor<1x1x1x1xf32>}> : () -> tensor<1x1x1x1xf32>
    %12 = tosa.reshape %arg0, %0 : (tensor<2x16x128xf32>, !tosa.shape<4>) -> tensor<2x16x4x32xf32>
    %13 = tosa.transpose %12 {perms = array<i32: 0, 2, 1, 3>} : (tensor<2x16x4x32xf32>) -> tensor<2x4x16x32xf32>
    %14 = tosa.reshape %arg1, %1 : (tensor<2x24x128xf32>, !tosa.shape<4>) -> tensor<2x24x4x32xf32>
    %15 = tosa.reshape %arg2, %1 : (tensor<2x24x128xf32>, !tosa.shape<4>) -> tensor<2x24x4x32xf32>
    %16 = tosa.transpose %15 {perms = array<i32: 0, 2, 1, 3>} : (tensor<2x24x4x32xf32>) -> tensor<2x4x24x32xf32>
    %17 = tosa.transpose %14 {perms = array<i32: 0, 2, 3, 1>} : (tensor<2x24x4x32xf32>) -> tensor<2x4x32x24xf32>
    %18 = tosa.reshape %13, %2 : (tensor<2x4x16x32xf32>, !tosa.shape<3>) -> tensor<8x16x32xf32>
    %19 = tosa.reshape %17, %3 : (tensor<2x4x32x24xf32>, !tosa.shape<3>) -> tensor<8x32x24xf32>
    %20 = tosa.matmul %18, %19, %4, %4 : (tensor<8x16x32xf32>, tensor<8x32x24xf32>, tensor<1xf32>, tensor<1xf32>) -> tensor<8x16x24xf32>
    %21 = tosa.reshape %20, %5 : (tensor<8x16x24xf32>, !tosa.shape<4>) -> tensor<2x4x16x24xf32>
    %22 = tosa.mul %21, %11, %6 : (tensor<2x4x16x24xf32>, tensor<1x1x1x1xf32>, tensor<1xi8>) -> tensor<2x4x16x24xf32>
    %23 = tosa.reduce_max %22 {axis = 3 : i32} : (tensor<2x4x16x24xf32>) -> tensor<2x4x16x1xf32>
    %24 = tosa.sub %22, %23 : (tensor<2x4x16x24xf32>, tensor<2x4x16x1xf32>) -> tensor<2x4x16x24xf32>
    %25 = tosa.exp %24 : (tensor<2x4x16x24xf32>) -> tensor<2x4x16x24xf32>
    %26 = tosa.reduce_sum %25 {axis = 3 : i32} : (tensor<2x4x16x24xf32>) -> tensor<2x4x16x1xf32>
    %27 = tosa.reciprocal %26 : (tensor<2x4x16x1xf32>) -> tensor<2x4x16x1xf32>
    %28 = tosa.mul %25, %27, %6 : (tensor<2x4x16x24xf32>, tensor<2x4x16x1xf32>, tensor<1xi8>) -> tensor<2x4x16x24xf32>
    %29 = tosa.reshape %28, %7 : (tensor<2x4x16x24xf32>, !tosa.shape<3>) -> tensor<8x16x24xf32>
    %30 = tosa.reshape %16, %8 : (tensor<2x4x24x32xf32>, !tosa.shape<3>) -> tensor<8x24x32xf32>
    %31 = tosa.matmul %29, %30, %4, %4 : (tensor<8x16x24xf32>, tensor<8x24x32xf32>, tensor<1xf32>, tensor<1xf32>) -> tensor<8x16x32xf32>
    %32 = tosa.reshape %31, %9 : (tensor<8x16x32xf32>, !tosa.shape<4>) -> tensor<2x4x16x32xf32>
    %33 = tosa.transpose %32 {perms = array<i32: 0, 2, 1, 3>} : (tensor<2x4x16x32xf32>) -> tensor<2x16x4x32xf32>
    %34 = tosa.reshape %33, %10 : (tensor<2x16x4x32xf32>, !tosa.shape<3>) -> tensor<2x16x128xf32>
    return %34 : tensor<2x16x128xf32>
  }
}
