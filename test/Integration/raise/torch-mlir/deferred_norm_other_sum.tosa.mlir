// deferred_norm_other_sum (DeferredNormOtherSum: exp(s - max) @ v divided by the row sum of another tensor.), exported by
// scripts/export_torch_mlir_cases.py (torch 2.15.0+cu132, torch_mlir.fx, output tosa).
// Not raised, and attn-raise-check proves the chain intact.
// RUN: attention-opt %s --attn-raise-pipeline=explain 2>&1 | FileCheck %s
// RUN: attn-raise-check %s --runs=1 --seed=148 | FileCheck %s --check-prefix=PROOF --implicit-check-not=FAIL
// CHECK: remark: attn-fuse: not fused: exp(s - max) is multiplied before the row sum
// CHECK-NOT: = attn.attention
// PROOF: @deferred_norm_other_sum: 0 attn.attention after the raising
// PROOF: run 0 result 0 {{.*}}: PASS
module {
  func.func @deferred_norm_other_sum(%arg0: tensor<2x4x16x32xf32>, %arg1: tensor<2x4x24x32xf32>, %arg2: tensor<2x4x24x32xf32>, %arg3: tensor<2x4x16x24xf32>) -> tensor<2x4x16x32xf32> {
    %0 = tosa.const_shape  {values = dense<[8, 16, 32]> : tensor<3xindex>} : () -> !tosa.shape<3>
    %1 = tosa.const_shape  {values = dense<[8, 32, 24]> : tensor<3xindex>} : () -> !tosa.shape<3>
    %2 = "tosa.const"() <{values = dense<0.000000e+00> : tensor<1xf32>}> : () -> tensor<1xf32>
    %3 = tosa.const_shape  {values = dense<[2, 4, 16, 24]> : tensor<4xindex>} : () -> !tosa.shape<4>
    %4 = "tosa.const"() <{values = dense<0> : tensor<1xi8>}> : () -> tensor<1xi8>
    %5 = tosa.const_shape  {values = dense<[8, 16, 24]> : tensor<3xindex>} : () -> !tosa.shape<3>
    %6 = tosa.const_shape  {values = dense<[8, 24, 32]> : tensor<3xindex>} : () -> !tosa.shape<3>
    %7 = tosa.const_shape  {values = dense<[2, 4, 16, 32]> : tensor<4xindex>} : () -> !tosa.shape<4>
    %8 = "tosa.const"() <{values = dense<0.176776692> : tensor<1x1x1x1xf32>}> : () -> tensor<1x1x1x1xf32>
    %9 = tosa.transpose %arg1 {perms = array<i32: 0, 1, 3, 2>} : (tensor<2x4x24x32xf32>) -> tensor<2x4x32x24xf32>
    %10 = tosa.reshape %arg0, %0 : (tensor<2x4x16x32xf32>, !tosa.shape<3>) -> tensor<8x16x32xf32>
    %11 = tosa.reshape %9, %1 : (tensor<2x4x32x24xf32>, !tosa.shape<3>) -> tensor<8x32x24xf32>
    %12 = tosa.matmul %10, %11, %2, %2 : (tensor<8x16x32xf32>, tensor<8x32x24xf32>, tensor<1xf32>, tensor<1xf32>) -> tensor<8x16x24xf32>
    %13 = tosa.reshape %12, %3 : (tensor<8x16x24xf32>, !tosa.shape<4>) -> tensor<2x4x16x24xf32>
    %14 = tosa.mul %13, %8, %4 : (tensor<2x4x16x24xf32>, tensor<1x1x1x1xf32>, tensor<1xi8>) -> tensor<2x4x16x24xf32>
    %15 = tosa.reduce_max %14 {axis = 3 : i32} : (tensor<2x4x16x24xf32>) -> tensor<2x4x16x1xf32>
    %16 = tosa.sub %14, %15 : (tensor<2x4x16x24xf32>, tensor<2x4x16x1xf32>) -> tensor<2x4x16x24xf32>
    %17 = tosa.exp %16 : (tensor<2x4x16x24xf32>) -> tensor<2x4x16x24xf32>
    %18 = tosa.reshape %17, %5 : (tensor<2x4x16x24xf32>, !tosa.shape<3>) -> tensor<8x16x24xf32>
    %19 = tosa.reshape %arg2, %6 : (tensor<2x4x24x32xf32>, !tosa.shape<3>) -> tensor<8x24x32xf32>
    %20 = tosa.matmul %18, %19, %2, %2 : (tensor<8x16x24xf32>, tensor<8x24x32xf32>, tensor<1xf32>, tensor<1xf32>) -> tensor<8x16x32xf32>
    %21 = tosa.reshape %20, %7 : (tensor<8x16x32xf32>, !tosa.shape<4>) -> tensor<2x4x16x32xf32>
    %22 = tosa.exp %arg3 : (tensor<2x4x16x24xf32>) -> tensor<2x4x16x24xf32>
    %23 = tosa.reduce_sum %22 {axis = 3 : i32} : (tensor<2x4x16x24xf32>) -> tensor<2x4x16x1xf32>
    %24 = tosa.reciprocal %23 : (tensor<2x4x16x1xf32>) -> tensor<2x4x16x1xf32>
    %25 = tosa.mul %21, %24, %4 : (tensor<2x4x16x32xf32>, tensor<2x4x16x1xf32>, tensor<1xi8>) -> tensor<2x4x16x32xf32>
    return %25 : tensor<2x4x16x32xf32>
  }
}
