// gqa_tile (GqaTile: K and V repeated with .repeat(1, G, 1, 1): head h reads KV head h % Hkv, not h // G as the op's grouped heads do.), exported by
// scripts/export_torch_mlir_cases.py (torch 2.15.0+cu132, torch_mlir.fx, output tosa).
// Not raised, and attn-raise-check proves the chain intact.
// RUN: attention-opt %s --attn-raise-pipeline=explain 2>&1 | FileCheck %s
// RUN: attn-raise-check %s --runs=1 --seed=114 | FileCheck %s --check-prefix=PROOF --implicit-check-not=FAIL
// CHECK: remark: attn-fuse: not fused: the query heads of a group are score dim 1, not the one right before the query dim
// CHECK-NOT: attn.attention
// PROOF: @gqa_tile: 0 attn.attention after the raising
// PROOF: run 0 result 0 {{.*}}: PASS
module {
  func.func @gqa_tile(%arg0: tensor<2x4x16x32xf32>, %arg1: tensor<2x2x24x32xf32>, %arg2: tensor<2x2x24x32xf32>) -> tensor<2x4x16x32xf32> {
    %0 = tosa.const_shape  {values = dense<[2, 1, 2, 24, 32]> : tensor<5xindex>} : () -> !tosa.shape<5>
    %1 = tosa.const_shape  {values = dense<[1, 2, 1, 1, 1]> : tensor<5xindex>} : () -> !tosa.shape<5>
    %2 = tosa.const_shape  {values = dense<[2, 4, 24, 32]> : tensor<4xindex>} : () -> !tosa.shape<4>
    %3 = tosa.const_shape  {values = dense<[8, 16, 32]> : tensor<3xindex>} : () -> !tosa.shape<3>
    %4 = tosa.const_shape  {values = dense<[8, 32, 24]> : tensor<3xindex>} : () -> !tosa.shape<3>
    %5 = "tosa.const"() <{values = dense<0.000000e+00> : tensor<1xf32>}> : () -> tensor<1xf32>
    %6 = tosa.const_shape  {values = dense<[2, 4, 16, 24]> : tensor<4xindex>} : () -> !tosa.shape<4>
    %7 = "tosa.const"() <{values = dense<0> : tensor<1xi8>}> : () -> tensor<1xi8>
    %8 = tosa.const_shape  {values = dense<[8, 16, 24]> : tensor<3xindex>} : () -> !tosa.shape<3>
    %9 = tosa.const_shape  {values = dense<[8, 24, 32]> : tensor<3xindex>} : () -> !tosa.shape<3>
    %10 = tosa.const_shape  {values = dense<[2, 4, 16, 32]> : tensor<4xindex>} : () -> !tosa.shape<4>
    %11 = "tosa.const"() <{values = dense<0.176776692> : tensor<1x1x1x1xf32>}> : () -> tensor<1x1x1x1xf32>
    %12 = tosa.reshape %arg1, %0 : (tensor<2x2x24x32xf32>, !tosa.shape<5>) -> tensor<2x1x2x24x32xf32>
    %13 = tosa.tile %12, %1 : (tensor<2x1x2x24x32xf32>, !tosa.shape<5>) -> tensor<2x2x2x24x32xf32>
    %14 = tosa.reshape %13, %2 : (tensor<2x2x2x24x32xf32>, !tosa.shape<4>) -> tensor<2x4x24x32xf32>
    %15 = tosa.reshape %arg2, %0 : (tensor<2x2x24x32xf32>, !tosa.shape<5>) -> tensor<2x1x2x24x32xf32>
    %16 = tosa.tile %15, %1 : (tensor<2x1x2x24x32xf32>, !tosa.shape<5>) -> tensor<2x2x2x24x32xf32>
    %17 = tosa.transpose %14 {perms = array<i32: 0, 1, 3, 2>} : (tensor<2x4x24x32xf32>) -> tensor<2x4x32x24xf32>
    %18 = tosa.reshape %arg0, %3 : (tensor<2x4x16x32xf32>, !tosa.shape<3>) -> tensor<8x16x32xf32>
    %19 = tosa.reshape %17, %4 : (tensor<2x4x32x24xf32>, !tosa.shape<3>) -> tensor<8x32x24xf32>
    %20 = tosa.matmul %18, %19, %5, %5 : (tensor<8x16x32xf32>, tensor<8x32x24xf32>, tensor<1xf32>, tensor<1xf32>) -> tensor<8x16x24xf32>
    %21 = tosa.reshape %20, %6 : (tensor<8x16x24xf32>, !tosa.shape<4>) -> tensor<2x4x16x24xf32>
    %22 = tosa.mul %21, %11, %7 : (tensor<2x4x16x24xf32>, tensor<1x1x1x1xf32>, tensor<1xi8>) -> tensor<2x4x16x24xf32>
    %23 = tosa.reduce_max %22 {axis = 3 : i32} : (tensor<2x4x16x24xf32>) -> tensor<2x4x16x1xf32>
    %24 = tosa.sub %22, %23 : (tensor<2x4x16x24xf32>, tensor<2x4x16x1xf32>) -> tensor<2x4x16x24xf32>
    %25 = tosa.exp %24 : (tensor<2x4x16x24xf32>) -> tensor<2x4x16x24xf32>
    %26 = tosa.reduce_sum %25 {axis = 3 : i32} : (tensor<2x4x16x24xf32>) -> tensor<2x4x16x1xf32>
    %27 = tosa.reciprocal %26 : (tensor<2x4x16x1xf32>) -> tensor<2x4x16x1xf32>
    %28 = tosa.mul %25, %27, %7 : (tensor<2x4x16x24xf32>, tensor<2x4x16x1xf32>, tensor<1xi8>) -> tensor<2x4x16x24xf32>
    %29 = tosa.reshape %28, %8 : (tensor<2x4x16x24xf32>, !tosa.shape<3>) -> tensor<8x16x24xf32>
    %30 = tosa.reshape %16, %9 : (tensor<2x2x2x24x32xf32>, !tosa.shape<3>) -> tensor<8x24x32xf32>
    %31 = tosa.matmul %29, %30, %5, %5 : (tensor<8x16x24xf32>, tensor<8x24x32xf32>, tensor<1xf32>, tensor<1xf32>) -> tensor<8x16x32xf32>
    %32 = tosa.reshape %31, %10 : (tensor<8x16x32xf32>, !tosa.shape<4>) -> tensor<2x4x16x32xf32>
    return %32 : tensor<2x4x16x32xf32>
  }
}
