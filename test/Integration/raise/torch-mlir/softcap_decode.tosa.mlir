// softcap_decode (SoftcapDecode: A decode step with Gemma-2's softcap, tanh(s / 50) * 50.), exported by
// scripts/export_torch_mlir_cases.py (torch 2.15.0+cu132, torch_mlir.fx, output tosa).
// RUN: attention-opt %s --attn-raise-pipeline | FileCheck %s
// RUN: attn-raise-check %s --require-raised --runs=2 --seed=84 | FileCheck %s --check-prefix=PROOF --implicit-check-not=FAIL
// CHECK: attn.attention {{.*}}tensor<2x4x1x32xf32>, tensor<2x4x24x32xf32>, tensor<2x4x24x32xf32>) {scale = 0.17677{{[0-9]+}} : f32, softcap = 5.000000e+01 : f32}
// CHECK-NOT: linalg.
// PROOF: @softcap_decode: 1 attn.attention after the raising
// PROOF: run 1 result 0 {{.*}}: PASS
module {
  func.func @softcap_decode(%arg0: tensor<2x4x32xf32>, %arg1: tensor<2x4x24x32xf32>, %arg2: tensor<2x4x24x32xf32>) -> tensor<2x4x32xf32> {
    %0 = tosa.const_shape  {values = dense<[8, 1, 32]> : tensor<3xindex>} : () -> !tosa.shape<3>
    %1 = tosa.const_shape  {values = dense<[8, 32, 24]> : tensor<3xindex>} : () -> !tosa.shape<3>
    %2 = "tosa.const"() <{values = dense<0.000000e+00> : tensor<1xf32>}> : () -> tensor<1xf32>
    %3 = tosa.const_shape  {values = dense<[2, 4, 24]> : tensor<3xindex>} : () -> !tosa.shape<3>
    %4 = "tosa.const"() <{values = dense<0> : tensor<1xi8>}> : () -> tensor<1xi8>
    %5 = tosa.const_shape  {values = dense<[8, 1, 24]> : tensor<3xindex>} : () -> !tosa.shape<3>
    %6 = tosa.const_shape  {values = dense<[8, 24, 32]> : tensor<3xindex>} : () -> !tosa.shape<3>
    %7 = tosa.const_shape  {values = dense<[2, 4, 32]> : tensor<3xindex>} : () -> !tosa.shape<3>
    %8 = "tosa.const"() <{values = dense<0.176776692> : tensor<1x1x1xf32>}> : () -> tensor<1x1x1xf32>
    %9 = "tosa.const"() <{values = dense<2.000000e-02> : tensor<1x1x1xf32>}> : () -> tensor<1x1x1xf32>
    %10 = "tosa.const"() <{values = dense<5.000000e+01> : tensor<1x1x1xf32>}> : () -> tensor<1x1x1xf32>
    %11 = tosa.reshape %arg0, %0 : (tensor<2x4x32xf32>, !tosa.shape<3>) -> tensor<8x1x32xf32>
    %12 = tosa.transpose %arg1 {perms = array<i32: 0, 1, 3, 2>} : (tensor<2x4x24x32xf32>) -> tensor<2x4x32x24xf32>
    %13 = tosa.reshape %12, %1 : (tensor<2x4x32x24xf32>, !tosa.shape<3>) -> tensor<8x32x24xf32>
    %14 = tosa.matmul %11, %13, %2, %2 : (tensor<8x1x32xf32>, tensor<8x32x24xf32>, tensor<1xf32>, tensor<1xf32>) -> tensor<8x1x24xf32>
    %15 = tosa.reshape %14, %3 : (tensor<8x1x24xf32>, !tosa.shape<3>) -> tensor<2x4x24xf32>
    %16 = tosa.mul %15, %8, %4 : (tensor<2x4x24xf32>, tensor<1x1x1xf32>, tensor<1xi8>) -> tensor<2x4x24xf32>
    %17 = tosa.mul %16, %9, %4 : (tensor<2x4x24xf32>, tensor<1x1x1xf32>, tensor<1xi8>) -> tensor<2x4x24xf32>
    %18 = tosa.tanh %17 : (tensor<2x4x24xf32>) -> tensor<2x4x24xf32>
    %19 = tosa.mul %18, %10, %4 : (tensor<2x4x24xf32>, tensor<1x1x1xf32>, tensor<1xi8>) -> tensor<2x4x24xf32>
    %20 = tosa.reduce_max %19 {axis = 2 : i32} : (tensor<2x4x24xf32>) -> tensor<2x4x1xf32>
    %21 = tosa.sub %19, %20 : (tensor<2x4x24xf32>, tensor<2x4x1xf32>) -> tensor<2x4x24xf32>
    %22 = tosa.exp %21 : (tensor<2x4x24xf32>) -> tensor<2x4x24xf32>
    %23 = tosa.reduce_sum %22 {axis = 2 : i32} : (tensor<2x4x24xf32>) -> tensor<2x4x1xf32>
    %24 = tosa.reciprocal %23 : (tensor<2x4x1xf32>) -> tensor<2x4x1xf32>
    %25 = tosa.mul %22, %24, %4 : (tensor<2x4x24xf32>, tensor<2x4x1xf32>, tensor<1xi8>) -> tensor<2x4x24xf32>
    %26 = tosa.reshape %25, %5 : (tensor<2x4x24xf32>, !tosa.shape<3>) -> tensor<8x1x24xf32>
    %27 = tosa.reshape %arg2, %6 : (tensor<2x4x24x32xf32>, !tosa.shape<3>) -> tensor<8x24x32xf32>
    %28 = tosa.matmul %26, %27, %2, %2 : (tensor<8x1x24xf32>, tensor<8x24x32xf32>, tensor<1xf32>, tensor<1xf32>) -> tensor<8x1x32xf32>
    %29 = tosa.reshape %28, %7 : (tensor<8x1x32xf32>, !tosa.shape<3>) -> tensor<2x4x32xf32>
    return %29 : tensor<2x4x32xf32>
  }
}
