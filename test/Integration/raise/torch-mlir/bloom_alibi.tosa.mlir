// bloom_alibi (BloomAlibi: Bloom: baddbmm onto the ALiBi bias, masked_fill with finfo.min, the softmax in f32, on [B*H, L, D]. Its boolean mask is true at excluded keys, the negation of the padding mask's ones (`keep`).), exported by
// scripts/export_torch_mlir_cases.py (torch 2.15.0+cu132, torch_mlir.fx, output tosa).
// RUN: attention-opt %s --attn-raise-pipeline="large-negative-is-masked" | FileCheck %s
// RUN: attn-raise-check %s --require-raised --runs=2 --seed=63 --pipeline='attn-raise-pipeline{large-negative-is-masked}' | FileCheck %s --check-prefix=PROOF --implicit-check-not=FAIL
// CHECK: attn.attention {{.*}}mask({{.*}} : tensor<2x4x16x24xf32>) {scale = 0.17677{{[0-9]+}} : f32}
// PROOF: @bloom_alibi: 1 attn.attention after the raising
// PROOF: run 1 result 0 {{.*}}: PASS
module {
  func.func @bloom_alibi(%arg0: tensor<8x16x32xf32>, %arg1: tensor<8x24x32xf32>, %arg2: tensor<8x24x32xf32>, %arg3: tensor<8x1x24xf32>, %arg4: tensor<2x1x16x24xi1>) -> tensor<8x16x32xf32> {
    %0 = "tosa.const"() <{values = dense<0.000000e+00> : tensor<1xf32>}> : () -> tensor<1xf32>
    %1 = "tosa.const"() <{values = dense<0> : tensor<1xi8>}> : () -> tensor<1xi8>
    %2 = tosa.const_shape  {values = dense<[2, 4, 16, 24]> : tensor<4xindex>} : () -> !tosa.shape<4>
    %3 = tosa.const_shape  {values = dense<[8, 16, 24]> : tensor<3xindex>} : () -> !tosa.shape<3>
    %4 = "tosa.const"() <{values = dense<0.176776692> : tensor<1x1x1xf32>}> : () -> tensor<1x1x1xf32>
    %5 = "tosa.const"() <{values = dense<-3.40282347E+38> : tensor<1x1x1x1xf32>}> : () -> tensor<1x1x1x1xf32>
    %6 = tosa.transpose %arg1 {perms = array<i32: 0, 2, 1>} : (tensor<8x24x32xf32>) -> tensor<8x32x24xf32>
    %7 = tosa.matmul %arg0, %6, %0, %0 : (tensor<8x16x32xf32>, tensor<8x32x24xf32>, tensor<1xf32>, tensor<1xf32>) -> tensor<8x16x24xf32>
    %8 = tosa.mul %7, %4, %1 : (tensor<8x16x24xf32>, tensor<1x1x1xf32>, tensor<1xi8>) -> tensor<8x16x24xf32>
    %9 = tosa.add %arg3, %8 : (tensor<8x1x24xf32>, tensor<8x16x24xf32>) -> tensor<8x16x24xf32>
    %10 = tosa.reshape %9, %2 : (tensor<8x16x24xf32>, !tosa.shape<4>) -> tensor<2x4x16x24xf32>
    %11 = tosa.select %arg4, %10, %5 : (tensor<2x1x16x24xi1>, tensor<2x4x16x24xf32>, tensor<1x1x1x1xf32>) -> tensor<2x4x16x24xf32>
    %12 = tosa.reduce_max %11 {axis = 3 : i32} : (tensor<2x4x16x24xf32>) -> tensor<2x4x16x1xf32>
    %13 = tosa.sub %11, %12 : (tensor<2x4x16x24xf32>, tensor<2x4x16x1xf32>) -> tensor<2x4x16x24xf32>
    %14 = tosa.exp %13 : (tensor<2x4x16x24xf32>) -> tensor<2x4x16x24xf32>
    %15 = tosa.reduce_sum %14 {axis = 3 : i32} : (tensor<2x4x16x24xf32>) -> tensor<2x4x16x1xf32>
    %16 = tosa.reciprocal %15 : (tensor<2x4x16x1xf32>) -> tensor<2x4x16x1xf32>
    %17 = tosa.mul %14, %16, %1 : (tensor<2x4x16x24xf32>, tensor<2x4x16x1xf32>, tensor<1xi8>) -> tensor<2x4x16x24xf32>
    %18 = tosa.reshape %17, %3 : (tensor<2x4x16x24xf32>, !tosa.shape<3>) -> tensor<8x16x24xf32>
    %19 = tosa.matmul %18, %arg2, %0, %0 : (tensor<8x16x24xf32>, tensor<8x24x32xf32>, tensor<1xf32>, tensor<1xf32>) -> tensor<8x16x32xf32>
    return %19 : tensor<8x16x32xf32>
  }
}
