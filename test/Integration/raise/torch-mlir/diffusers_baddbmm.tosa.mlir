// diffusers_baddbmm (DiffusersBaddbmm: diffusers' get_attention_scores: baddbmm(empty, q, kT, beta=0, alpha=scale) on [B*H, L, D].), exported by
// scripts/export_torch_mlir_cases.py (torch 2.15.0+cu132, torch_mlir.fx, output tosa).
// RUN: attention-opt %s --attn-raise-pipeline | FileCheck %s
// RUN: attn-raise-check %s --require-raised --runs=2 --seed=67 | FileCheck %s --check-prefix=PROOF --implicit-check-not=FAIL
// CHECK: attn.attention {{.*}}{scale = 0.17677{{[0-9]+}} : f32}
// CHECK-NOT: linalg.
// PROOF: @diffusers_baddbmm: 1 attn.attention after the raising
// PROOF: run 1 result 0 {{.*}}: PASS
module {
  func.func @diffusers_baddbmm(%arg0: tensor<8x16x32xf32>, %arg1: tensor<8x24x32xf32>, %arg2: tensor<8x24x32xf32>) -> tensor<8x16x32xf32> {
    %0 = "tosa.const"() <{values = dense<0.000000e+00> : tensor<1xf32>}> : () -> tensor<1xf32>
    %1 = "tosa.const"() <{values = dense<0> : tensor<1xi8>}> : () -> tensor<1xi8>
    %2 = "tosa.const"() <{values = dense<0.176776692> : tensor<1x1x1xf32>}> : () -> tensor<1x1x1xf32>
    %3 = tosa.transpose %arg1 {perms = array<i32: 0, 2, 1>} : (tensor<8x24x32xf32>) -> tensor<8x32x24xf32>
    %4 = tosa.matmul %arg0, %3, %0, %0 : (tensor<8x16x32xf32>, tensor<8x32x24xf32>, tensor<1xf32>, tensor<1xf32>) -> tensor<8x16x24xf32>
    %5 = tosa.mul %4, %2, %1 : (tensor<8x16x24xf32>, tensor<1x1x1xf32>, tensor<1xi8>) -> tensor<8x16x24xf32>
    %6 = tosa.reduce_max %5 {axis = 2 : i32} : (tensor<8x16x24xf32>) -> tensor<8x16x1xf32>
    %7 = tosa.sub %5, %6 : (tensor<8x16x24xf32>, tensor<8x16x1xf32>) -> tensor<8x16x24xf32>
    %8 = tosa.exp %7 : (tensor<8x16x24xf32>) -> tensor<8x16x24xf32>
    %9 = tosa.reduce_sum %8 {axis = 2 : i32} : (tensor<8x16x24xf32>) -> tensor<8x16x1xf32>
    %10 = tosa.reciprocal %9 : (tensor<8x16x1xf32>) -> tensor<8x16x1xf32>
    %11 = tosa.mul %8, %10, %1 : (tensor<8x16x24xf32>, tensor<8x16x1xf32>, tensor<1xi8>) -> tensor<8x16x24xf32>
    %12 = tosa.matmul %11, %arg2, %0, %0 : (tensor<8x16x24xf32>, tensor<8x24x32xf32>, tensor<1xf32>, tensor<1xf32>) -> tensor<8x16x32xf32>
    return %12 : tensor<8x16x32xf32>
  }
}
