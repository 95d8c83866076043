// gqa_grouped_einsum (GqaGroupedEinsum: Grouped-query attention with the query heads grouped by KV head: q [B, Hkv, G, L, D], 'bngqd,bnkd->bngqk'.), exported by
// scripts/export_torch_mlir_cases.py (torch 2.15.0+cu132, torch_mlir.fx, output tosa).
// RUN: attention-opt %s --attn-raise-pipeline | FileCheck %s
// RUN: attn-raise-check %s --require-raised --runs=2 --seed=92 | FileCheck %s --check-prefix=PROOF --implicit-check-not=FAIL
// CHECK: attn.attention {{.*}}tensor<2x4x16x32xf32>, tensor<2x2x24x32xf32>, tensor<2x2x24x32xf32>) {scale = 0.17677{{[0-9]+}} : f32}
// CHECK-NOT: linalg.
// PROOF: @gqa_grouped_einsum: 1 attn.attention after the raising
// PROOF: run 1 result 0 {{.*}}: PASS
module {
  func.func @gqa_grouped_einsum(%arg0: tensor<2x2x2x16x32xf32>, %arg1: tensor<2x2x24x32xf32>, %arg2: tensor<2x2x24x32xf32>) -> tensor<2x2x2x16x32xf32> {
    %0 = tosa.const_shape  {values = dense<[2, 2, 24, 32, 1, 1]> : tensor<6xindex>} : () -> !tosa.shape<6>
    %1 = tosa.const_shape  {values = dense<[4, 32, 32]> : tensor<3xindex>} : () -> !tosa.shape<3>
    %2 = tosa.const_shape  {values = dense<[4, 32, 24]> : tensor<3xindex>} : () -> !tosa.shape<3>
    %3 = "tosa.const"() <{values = dense<0.000000e+00> : tensor<1xf32>}> : () -> tensor<1xf32>
    %4 = tosa.const_shape  {values = dense<[2, 2, 2, 16, 24]> : tensor<5xindex>} : () -> !tosa.shape<5>
    %5 = "tosa.const"() <{values = dense<0> : tensor<1xi8>}> : () -> tensor<1xi8>
    %6 = tosa.const_shape  {values = dense<[4, 24, 32]> : tensor<3xindex>} : () -> !tosa.shape<3>
    %7 = tosa.const_shape  {values = dense<[2, 2, 2, 16, 32]> : tensor<5xindex>} : () -> !tosa.shape<5>
    %8 = "tosa.const"() <{values = dense<0.176776692> : tensor<1x1x1x1x1xf32>}> : () -> tensor<1x1x1x1x1xf32>
    %9 = tosa.reshape %arg1, %0 : (tensor<2x2x24x32xf32>, !tosa.shape<6>) -> tensor<2x2x24x32x1x1xf32>
    %10 = tosa.reshape %arg0, %1 : (tensor<2x2x2x16x32xf32>, !tosa.shape<3>) -> tensor<4x32x32xf32>
    %11 = tosa.transpose %9 {perms = array<i32: 0, 1, 3, 2, 4, 5>} : (tensor<2x2x24x32x1x1xf32>) -> tensor<2x2x32x24x1x1xf32>
    %12 = tosa.reshape %11, %2 : (tensor<2x2x32x24x1x1xf32>, !tosa.shape<3>) -> tensor<4x32x24xf32>
    %13 = tosa.matmul %10, %12, %3, %3 : (tensor<4x32x32xf32>, tensor<4x32x24xf32>, tensor<1xf32>, tensor<1xf32>) -> tensor<4x32x24xf32>
    %14 = tosa.reshape %13, %4 : (tensor<4x32x24xf32>, !tosa.shape<5>) -> tensor<2x2x2x16x24xf32>
    %15 = tosa.mul %14, %8, %5 : (tensor<2x2x2x16x24xf32>, tensor<1x1x1x1x1xf32>, tensor<1xi8>) -> tensor<2x2x2x16x24xf32>
    %16 = tosa.reduce_max %15 {axis = 4 : i32} : (tensor<2x2x2x16x24xf32>) -> tensor<2x2x2x16x1xf32>
    %17 = tosa.sub %15, %16 : (tensor<2x2x2x16x24xf32>, tensor<2x2x2x16x1xf32>) -> tensor<2x2x2x16x24xf32>
    %18 = tosa.exp %17 : (tensor<2x2x2x16x24xf32>) -> tensor<2x2x2x16x24xf32>
    %19 = tosa.reduce_sum %18 {axis = 4 : i32} : (tensor<2x2x2x16x24xf32>) -> tensor<2x2x2x16x1xf32>
    %20 = tosa.reciprocal %19 : (tensor<2x2x2x16x1xf32>) -> tensor<2x2x2x16x1xf32>
    %21 = tosa.mul %18, %20, %5 : (tensor<2x2x2x16x24xf32>, tensor<2x2x2x16x1xf32>, tensor<1xi8>) -> tensor<2x2x2x16x24xf32>
    %22 = tosa.reshape %21, %2 : (tensor<2x2x2x16x24xf32>, !tosa.shape<3>) -> tensor<4x32x24xf32>
    %23 = tosa.reshape %arg2, %6 : (tensor<2x2x24x32xf32>, !tosa.shape<3>) -> tensor<4x24x32xf32>
    %24 = tosa.matmul %22, %23, %3, %3 : (tensor<4x32x24xf32>, tensor<4x24x32xf32>, tensor<1xf32>, tensor<1xf32>) -> tensor<4x32x32xf32>
    %25 = tosa.reshape %24, %7 : (tensor<4x32x32xf32>, !tosa.shape<5>) -> tensor<2x2x2x16x32xf32>
    return %25 : tensor<2x2x2x16x32xf32>
  }
}
