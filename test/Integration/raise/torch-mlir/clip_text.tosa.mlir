// clip_text (ClipText: CLIP's text encoder: a 3-D bmm of the scaled queries, viewed as 4-D to add the causal and the padding masks (both inputs).), exported by
// scripts/export_torch_mlir_cases.py (torch 2.15.0+cu132, torch_mlir.fx, output tosa).
// RUN: attention-opt %s --attn-raise-pipeline | FileCheck %s
// RUN: attn-raise-check %s --require-raised --runs=2 --seed=65 | FileCheck %s --check-prefix=PROOF --implicit-check-not=FAIL
// CHECK: attn.attention {{.*}}mask({{.*}} : tensor<2x1x16x16xf32>) {scale = 0.17677{{[0-9]+}} : f32}
// PROOF: @clip_text: 1 attn.attention after the raising
// PROOF: run 1 result 0 {{.*}}: PASS
module {
  func.func @clip_text(%arg0: tensor<2x4x16x32xf32>, %arg1: tensor<2x4x16x32xf32>, %arg2: tensor<2x4x16x32xf32>, %arg3: tensor<2x1x16x16xf32>, %arg4: tensor<2x1x16x16xf32>) -> tensor<8x16x32xf32> {
    %0 = "tosa.const"() <{values = dense<0> : tensor<1xi8>}> : () -> tensor<1xi8>
    %1 = tosa.const_shape  {values = dense<[8, 16, 32]> : tensor<3xindex>} : () -> !tosa.shape<3>
    %2 = "tosa.const"() <{values = dense<0.000000e+00> : tensor<1xf32>}> : () -> tensor<1xf32>
    %3 = tosa.const_shape  {values = dense<[2, 4, 16, 16]> : tensor<4xindex>} : () -> !tosa.shape<4>
    %4 = tosa.const_shape  {values = dense<[8, 16, 16]> : tensor<3xindex>} : () -> !tosa.shape<3>
    %5 = "tosa.const"() <{values = dense<0.176776692> : tensor<1x1x1x1xf32>}> : () -> tensor<1x1x1x1xf32>
    %6 = tosa.mul %arg0, %5, %0 : (tensor<2x4x16x32xf32>, tensor<1x1x1x1xf32>, tensor<1xi8>) -> tensor<2x4x16x32xf32>
    %7 = tosa.reshape %6, %1 : (tensor<2x4x16x32xf32>, !tosa.shape<3>) -> tensor<8x16x32xf32>
    %8 = tosa.reshape %arg1, %1 : (tensor<2x4x16x32xf32>, !tosa.shape<3>) -> tensor<8x16x32xf32>
    %9 = tosa.transpose %8 {perms = array<i32: 0, 2, 1>} : (tensor<8x16x32xf32>) -> tensor<8x32x16xf32>
    %10 = tosa.matmul %7, %9, %2, %2 : (tensor<8x16x32xf32>, tensor<8x32x16xf32>, tensor<1xf32>, tensor<1xf32>) -> tensor<8x16x16xf32>
    %11 = tosa.reshape %10, %3 : (tensor<8x16x16xf32>, !tosa.shape<4>) -> tensor<2x4x16x16xf32>
    %12 = tosa.add %11, %arg3 : (tensor<2x4x16x16xf32>, tensor<2x1x16x16xf32>) -> tensor<2x4x16x16xf32>
    %13 = tosa.add %12, %arg4 : (tensor<2x4x16x16xf32>, tensor<2x1x16x16xf32>) -> tensor<2x4x16x16xf32>
    %14 = tosa.reshape %13, %4 : (tensor<2x4x16x16xf32>, !tosa.shape<3>) -> tensor<8x16x16xf32>
    %15 = tosa.reduce_max %14 {axis = 2 : i32} : (tensor<8x16x16xf32>) -> tensor<8x16x1xf32>
    %16 = tosa.sub %14, %15 : (tensor<8x16x16xf32>, tensor<8x16x1xf32>) -> tensor<8x16x16xf32>
    %17 = tosa.exp %16 : (tensor<8x16x16xf32>) -> tensor<8x16x16xf32>
    %18 = tosa.reduce_sum %17 {axis = 2 : i32} : (tensor<8x16x16xf32>) -> tensor<8x16x1xf32>
    %19 = tosa.reciprocal %18 : (tensor<8x16x1xf32>) -> tensor<8x16x1xf32>
    %20 = tosa.mul %17, %19, %0 : (tensor<8x16x16xf32>, tensor<8x16x1xf32>, tensor<1xi8>) -> tensor<8x16x16xf32>
    %21 = tosa.reshape %arg2, %1 : (tensor<2x4x16x32xf32>, !tosa.shape<3>) -> tensor<8x16x32xf32>
    %22 = tosa.matmul %20, %21, %2, %2 : (tensor<8x16x16xf32>, tensor<8x16x32xf32>, tensor<1xf32>, tensor<1xf32>) -> tensor<8x16x32xf32>
    return %22 : tensor<8x16x32xf32>
  }
}
