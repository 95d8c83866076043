// safe_softmax_causal_only (SafeSoftmaxCausalOnly: Causal scores (from aranges) and rows zeroed by any() of a mask that does not mask them.), exported by
// scripts/export_torch_mlir_cases.py (torch 2.15.0+cu132, torch_mlir.fx, output tosa).
// Not raised, and attn-raise-check proves the chain intact.
// RUN: attention-opt %s --attn-raise-pipeline=explain 2>&1 | FileCheck %s
// RUN: attn-raise-check %s --runs=1 --seed=173 | FileCheck %s --check-prefix=PROOF --implicit-check-not=FAIL
// CHECK: remark: attn-fuse: not fused: a select zeroes the rows of the probabilities where any() of a boolean tensor over the keys is false, but no boolean mask tensor excludes the scores
// CHECK-NOT: = attn.attention
// PROOF: @safe_softmax_causal_only: 0 attn.attention after the raising
// PROOF: run 0 result 0 {{.*}}: PASS
module {
  func.func @safe_softmax_causal_only(%arg0: tensor<2x4x16x32xf32>, %arg1: tensor<2x4x16x32xf32>, %arg2: tensor<2x4x16x32xf32>, %arg3: tensor<2x1x16x16xi1>) -> tensor<2x4x16x32xf32> {
    %0 = "tosa.const"() <{values = dense<[0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15]> : tensor<16xi64>}> : () -> tensor<16xi64>
    %1 = tosa.const_shape  {values = dense<[16, 1]> : tensor<2xindex>} : () -> !tosa.shape<2>
    %2 = tosa.const_shape  {values = dense<[1, 16]> : tensor<2xindex>} : () -> !tosa.shape<2>
    %3 = tosa.const_shape  {values = dense<[8, 16, 32]> : tensor<3xindex>} : () -> !tosa.shape<3>
    %4 = tosa.const_shape  {values = dense<[8, 32, 16]> : tensor<3xindex>} : () -> !tosa.shape<3>
    %5 = "tosa.const"() <{values = dense<0.000000e+00> : tensor<1xf32>}> : () -> tensor<1xf32>
    %6 = tosa.const_shape  {values = dense<[2, 4, 16, 16]> : tensor<4xindex>} : () -> !tosa.shape<4>
    %7 = "tosa.const"() <{values = dense<0> : tensor<1xi8>}> : () -> tensor<1xi8>
    %8 = tosa.const_shape  {values = dense<[1, 1, 16, 16]> : tensor<4xindex>} : () -> !tosa.shape<4>
    %9 = tosa.const_shape  {values = dense<[8, 16, 16]> : tensor<3xindex>} : () -> !tosa.shape<3>
    %10 = tosa.const_shape  {values = dense<[2, 4, 16, 32]> : tensor<4xindex>} : () -> !tosa.shape<4>
    %11 = "tosa.const"() <{values = dense<0.176776692> : tensor<1x1x1x1xf32>}> : () -> tensor<1x1x1x1xf32>
    %12 = "tosa.const"() <{values = dense<0xFF800000> : tensor<1x1x1x1xf32>}> : () -> tensor<1x1x1x1xf32>
    %13 = "tosa.const"() <{values = dense<0.000000e+00> : tensor<1x1x1x1xf32>}> : () -> tensor<1x1x1x1xf32>
    %14 = tosa.reshape %0, %1 : (tensor<16xi64>, !tosa.shape<2>) -> tensor<16x1xi64>
    %15 = tosa.reshape %0, %2 : (tensor<16xi64>, !tosa.shape<2>) -> tensor<1x16xi64>
    %16 = tosa.transpose %arg1 {perms = array<i32: 0, 1, 3, 2>} : (tensor<2x4x16x32xf32>) -> tensor<2x4x32x16xf32>
    %17 = tosa.reshape %arg0, %3 : (tensor<2x4x16x32xf32>, !tosa.shape<3>) -> tensor<8x16x32xf32>
    %18 = tosa.reshape %16, %4 : (tensor<2x4x32x16xf32>, !tosa.shape<3>) -> tensor<8x32x16xf32>
    %19 = tosa.matmul %17, %18, %5, %5 : (tensor<8x16x32xf32>, tensor<8x32x16xf32>, tensor<1xf32>, tensor<1xf32>) -> tensor<8x16x16xf32>
    %20 = tosa.reshape %19, %6 : (tensor<8x16x16xf32>, !tosa.shape<4>) -> tensor<2x4x16x16xf32>
    %21 = tosa.mul %20, %11, %7 : (tensor<2x4x16x16xf32>, tensor<1x1x1x1xf32>, tensor<1xi8>) -> tensor<2x4x16x16xf32>
    %22 = tosa.greater %15, %14 : (tensor<1x16xi64>, tensor<16x1xi64>) -> tensor<16x16xi1>
    %23 = tosa.reshape %22, %8 : (tensor<16x16xi1>, !tosa.shape<4>) -> tensor<1x1x16x16xi1>
    %24 = tosa.select %23, %12, %21 : (tensor<1x1x16x16xi1>, tensor<1x1x1x1xf32>, tensor<2x4x16x16xf32>) -> tensor<2x4x16x16xf32>
    %25 = tosa.reduce_max %24 {axis = 3 : i32} : (tensor<2x4x16x16xf32>) -> tensor<2x4x16x1xf32>
    %26 = tosa.sub %24, %25 : (tensor<2x4x16x16xf32>, tensor<2x4x16x1xf32>) -> tensor<2x4x16x16xf32>
    %27 = tosa.exp %26 : (tensor<2x4x16x16xf32>) -> tensor<2x4x16x16xf32>
    %28 = tosa.reduce_sum %27 {axis = 3 : i32} : (tensor<2x4x16x16xf32>) -> tensor<2x4x16x1xf32>
    %29 = tosa.reciprocal %28 : (tensor<2x4x16x1xf32>) -> tensor<2x4x16x1xf32>
    %30 = tosa.mul %27, %29, %7 : (tensor<2x4x16x16xf32>, tensor<2x4x16x1xf32>, tensor<1xi8>) -> tensor<2x4x16x16xf32>
    %31 = tosa.reduce_any %arg3 {axis = 3 : i32} : (tensor<2x1x16x16xi1>) -> tensor<2x1x16x1xi1>
    %32 = tosa.select %31, %30, %13 : (tensor<2x1x16x1xi1>, tensor<2x4x16x16xf32>, tensor<1x1x1x1xf32>) -> tensor<2x4x16x16xf32>
    %33 = tosa.reshape %32, %9 : (tensor<2x4x16x16xf32>, !tosa.shape<3>) -> tensor<8x16x16xf32>
    %34 = tosa.reshape %arg2, %3 : (tensor<2x4x16x32xf32>, !tosa.shape<3>) -> tensor<8x16x32xf32>
    %35 = tosa.matmul %33, %34, %5, %5 : (tensor<8x16x16xf32>, tensor<8x16x32xf32>, tensor<1xf32>, tensor<1xf32>) -> tensor<8x16x32xf32>
    %36 = tosa.reshape %35, %10 : (tensor<8x16x32xf32>, !tosa.shape<4>) -> tensor<2x4x16x32xf32>
    return %36 : tensor<2x4x16x32xf32>
  }
}
