// deferred_norm_masked (DeferredNormMasked: exp(s - max) @ v divided by the row sum, with a boolean mask. (With .reciprocal() instead, torch-mlir's linalg asserts that the row sum is nonzero, an assertion attn-fuse keeps: left alone.)), exported by
// scripts/export_torch_mlir_cases.py (torch 2.15.0+cu132, torch_mlir.fx, output tosa).
// RUN: attention-opt %s --attn-raise-pipeline | FileCheck %s
// RUN: attn-raise-check %s --require-raised --runs=2 --seed=142 | FileCheck %s --check-prefix=PROOF --implicit-check-not=FAIL
// CHECK: attn.attention {{.*}}mask({{.*}} : tensor<2x1x16x24xi1>) {scale = 0.17677{{[0-9]+}} : f32}
// CHECK-NOT: linalg.
// PROOF: @deferred_norm_masked: 1 attn.attention after the raising
// PROOF: run 1 result 0 {{.*}}: PASS
module {
  func.func @deferred_norm_masked(%arg0: tensor<2x4x16x32xf32>, %arg1: tensor<2x4x24x32xf32>, %arg2: tensor<2x4x24x32xf32>, %arg3: tensor<2x1x16x24xi1>) -> tensor<2x4x16x32xf32> {
    %0 = tosa.const_shape  {values = dense<[8, 16, 32]> : tensor<3xindex>} : () -> !tosa.shape<3>
    %1 = tosa.const_shape  {values = dense<[8, 32, 24]> : tensor<3xindex>} : () -> !tosa.shape<3>
    %2 = "tosa.const"() <{values = dense<0.000000e+00> : tensor<1xf32>}> : () -> tensor<1xf32>
    %3 = tosa.const_shape  {values = dense<[2, 4, 16, 24]> : tensor<4xindex>} : () -> !tosa.shape<4>
    %4 = "tosa.const"() <{values = dense<0> : tensor<1xi8>}> : () -> tensor<1xi8>
    %5 = tosa.const_shape  {values = dense<[8, 16, 24]> : tensor<3xindex>} : () -> !tosa.shape<3>
    %6 = tosa.const_shape  {values = dense<[8, 24, 32]> : tensor<3xindex>} : () -> !tosa.shape<3>
    %7 = tosa.const_shape  {values = dense<[2, 4, 16, 32]> : tensor<4xindex>} : () -> !tosa.shape<4>
    %8 = "tosa.const"() <{values = dense<0.176776692> : tensor<1x1x1x1xf32>}> : () -> tensor<1x1x1x1xf32>
    %9 = "tosa.const"() <{values = dense<0xFF800000> : tensor<1x1x1x1xf32>}> : () -> tensor<1x1x1x1xf32>
    %10 = tosa.transpose %arg1 {perms = array<i32: 0, 1, 3, 2>} : (tensor<2x4x24x32xf32>) -> tensor<2x4x32x24xf32>
    %11 = tosa.reshape %arg0, %0 : (tensor<2x4x16x32xf32>, !tosa.shape<3>) -> tensor<8x16x32xf32>
    %12 = tosa.reshape %10, %1 : (tensor<2x4x32x24xf32>, !tosa.shape<3>) -> tensor<8x32x24xf32>
    %13 = tosa.matmul %11, %12, %2, %2 : (tensor<8x16x32xf32>, tensor<8x32x24xf32>, tensor<1xf32>, tensor<1xf32>) -> tensor<8x16x24xf32>
    %14 = tosa.reshape %13, %3 : (tensor<8x16x24xf32>, !tosa.shape<4>) -> tensor<2x4x16x24xf32>
    %15 = tosa.mul %14, %8, %4 : (tensor<2x4x16x24xf32>, tensor<1x1x1x1xf32>, tensor<1xi8>) -> tensor<2x4x16x24xf32>
    %16 = tosa.select %arg3, %15, %9 : (tensor<2x1x16x24xi1>, tensor<2x4x16x24xf32>, tensor<1x1x1x1xf32>) -> tensor<2x4x16x24xf32>
    %17 = tosa.reduce_max %16 {axis = 3 : i32} : (tensor<2x4x16x24xf32>) -> tensor<2x4x16x1xf32>
    %18 = tosa.sub %16, %17 : (tensor<2x4x16x24xf32>, tensor<2x4x16x1xf32>) -> tensor<2x4x16x24xf32>
    %19 = tosa.exp %18 : (tensor<2x4x16x24xf32>) -> tensor<2x4x16x24xf32>
    %20 = tosa.reshape %19, %5 : (tensor<2x4x16x24xf32>, !tosa.shape<3>) -> tensor<8x16x24xf32>
    %21 = tosa.reshape %arg2, %6 : (tensor<2x4x24x32xf32>, !tosa.shape<3>) -> tensor<8x24x32xf32>
    %22 = tosa.matmul %20, %21, %2, %2 : (tensor<8x16x24xf32>, tensor<8x24x32xf32>, tensor<1xf32>, tensor<1xf32>) -> tensor<8x16x32xf32>
    %23 = tosa.reshape %22, %7 : (tensor<8x16x32xf32>, !tosa.shape<4>) -> tensor<2x4x16x32xf32>
    %24 = tosa.reduce_sum %19 {axis = 3 : i32} : (tensor<2x4x16x24xf32>) -> tensor<2x4x16x1xf32>
    %25 = tosa.reciprocal %24 : (tensor<2x4x16x1xf32>) -> tensor<2x4x16x1xf32>
    %26 = tosa.mul %23, %25, %4 : (tensor<2x4x16x32xf32>, tensor<2x4x16x1xf32>, tensor<1xi8>) -> tensor<2x4x16x32xf32>
    return %26 : tensor<2x4x16x32xf32>
  }
}
