// mqa_decode_einsum (MqaDecodeEinsum: A multi-query decode step: 'bhd,bkd->bhk' (the heads are the rows that share K and V).), exported by
// scripts/export_torch_mlir_cases.py (torch 2.15.0+cu132, torch_mlir.fx, output tosa).
// RUN: attention-opt %s --attn-raise-pipeline | FileCheck %s
// RUN: attn-raise-check %s --require-raised --runs=2 --seed=90 | FileCheck %s --check-prefix=PROOF --implicit-check-not=FAIL
// CHECK: attn.attention {{.*}}tensor<1x2x4x32xf32>, tensor<1x2x24x32xf32>, tensor<1x2x24x32xf32>) {scale = 0.17677{{[0-9]+}} : f32}
// CHECK-NOT: linalg.
// PROOF: @mqa_decode_einsum: 1 attn.attention after the raising
// PROOF: run 1 result 0 {{.*}}: PASS
module {
  func.func @mqa_decode_einsum(%arg0: tensor<2x4x32xf32>, %arg1: tensor<2x24x32xf32>, %arg2: tensor<2x24x32xf32>) -> tensor<2x4x32xf32> {
    %0 = tosa.const_shape  {values = dense<[2, 24, 32, 1]> : tensor<4xindex>} : () -> !tosa.shape<4>
    %1 = tosa.const_shape  {values = dense<[2, 32, 24]> : tensor<3xindex>} : () -> !tosa.shape<3>
    %2 = "tosa.const"() <{values = dense<0.000000e+00> : tensor<1xf32>}> : () -> tensor<1xf32>
    %3 = "tosa.const"() <{values = dense<0> : tensor<1xi8>}> : () -> tensor<1xi8>
    %4 = "tosa.const"() <{values = dense<0.176776692> : tensor<1x1x1xf32>}> : () -> tensor<1x1x1xf32>
    %5 = tosa.reshape %arg1, %0 : (tensor<2x24x32xf32>, !tosa.shape<4>) -> tensor<2x24x32x1xf32>
    %6 = tosa.transpose %5 {perms = array<i32: 0, 2, 1, 3>} : (tensor<2x24x32x1xf32>) -> tensor<2x32x24x1xf32>
    %7 = tosa.reshape %6, %1 : (tensor<2x32x24x1xf32>, !tosa.shape<3>) -> tensor<2x32x24xf32>
    %8 = tosa.matmul %arg0, %7, %2, %2 : (tensor<2x4x32xf32>, tensor<2x32x24xf32>, tensor<1xf32>, tensor<1xf32>) -> tensor<2x4x24xf32>
    %9 = tosa.mul %8, %4, %3 : (tensor<2x4x24xf32>, tensor<1x1x1xf32>, tensor<1xi8>) -> tensor<2x4x24xf32>
    %10 = tosa.reduce_max %9 {axis = 2 : i32} : (tensor<2x4x24xf32>) -> tensor<2x4x1xf32>
    %11 = tosa.sub %9, %10 : (tensor<2x4x24xf32>, tensor<2x4x1xf32>) -> tensor<2x4x24xf32>
    %12 = tosa.exp %11 : (tensor<2x4x24xf32>) -> tensor<2x4x24xf32>
    %13 = tosa.reduce_sum %12 {axis = 2 : i32} : (tensor<2x4x24xf32>) -> tensor<2x4x1xf32>
    %14 = tosa.reciprocal %13 : (tensor<2x4x1xf32>) -> tensor<2x4x1xf32>
    %15 = tosa.mul %12, %14, %3 : (tensor<2x4x24xf32>, tensor<2x4x1xf32>, tensor<1xi8>) -> tensor<2x4x24xf32>
    %16 = tosa.matmul %15, %arg2, %2, %2 : (tensor<2x4x24xf32>, tensor<2x24x32xf32>, tensor<1xf32>, tensor<1xf32>) -> tensor<2x4x32xf32>
    return %16 : tensor<2x4x32xf32>
  }
}
