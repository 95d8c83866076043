// sdpa_scale_causal (SdpaScaleCausal), exported by
// scripts/export_torch_mlir_cases.py (torch 2.15.0+cu132, torch_mlir.fx, output tosa).
// RUN: attention-opt %s --attn-raise-pipeline | FileCheck %s
// RUN: attn-raise-check %s --require-raised --runs=2 --seed=28 | FileCheck %s --check-prefix=PROOF --implicit-check-not=FAIL
// CHECK: attn.attention {{.*}}{causal = #attn.causal<top_left>, scale = 3.000000e-01 : f32}
// CHECK-NOT: linalg.
// PROOF: @sdpa_scale_causal: 1 attn.attention after the raising
// PROOF: run 1 result 0 {{.*}}: PASS
module {
  func.func @sdpa_scale_causal(%arg0: tensor<2x4x16x32xf32>, %arg1: tensor<2x4x16x32xf32>, %arg2: tensor<2x4x16x32xf32>) -> tensor<2x4x16x32xf32> {
    %0 = "tosa.const"() <{values = dense<0.000000e+00> : tensor<2x4x16x16xf32>}> : () -> tensor<2x4x16x16xf32>
    %1 = "tosa.const"() <{values = dense<true> : tensor<16x16xi1>}> : () -> tensor<16x16xi1>
    %2 = "tosa.const"() <{values = dense<0> : tensor<1xi8>}> : () -> tensor<1xi8>
    %3 = "tosa.const"() <{values = dense<[0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15]> : tensor<16xi64>}> : () -> tensor<16xi64>
    %4 = tosa.const_shape  {values = dense<[1, 16]> : tensor<2xindex>} : () -> !tosa.shape<2>
    %5 = tosa.const_shape  {values = dense<[16, 1]> : tensor<2xindex>} : () -> !tosa.shape<2>
    %6 = tosa.const_shape  {values = dense<[8, 16, 32]> : tensor<3xindex>} : () -> !tosa.shape<3>
    %7 = tosa.const_shape  {values = dense<[8, 32, 16]> : tensor<3xindex>} : () -> !tosa.shape<3>
    %8 = "tosa.const"() <{values = dense<0.000000e+00> : tensor<1xf32>}> : () -> tensor<1xf32>
    %9 = tosa.const_shape  {values = dense<[2, 4, 16, 16]> : tensor<4xindex>} : () -> !tosa.shape<4>
    %10 = tosa.const_shape  {values = dense<[1, 1, 16, 16]> : tensor<4xindex>} : () -> !tosa.shape<4>
    %11 = tosa.const_shape  {values = dense<[8, 16, 16]> : tensor<3xindex>} : () -> !tosa.shape<3>
    %12 = tosa.const_shape  {values = dense<[2, 4, 16, 32]> : tensor<4xindex>} : () -> !tosa.shape<4>
    %13 = "tosa.const"() <{values = dense<0.547722578> : tensor<1x1x1x1xf32>}> : () -> tensor<1x1x1x1xf32>
    %14 = "tosa.const"() <{values = dense<0> : tensor<1x1xi64>}> : () -> tensor<1x1xi64>
    %15 = "tosa.const"() <{values = dense<0.000000e+00> : tensor<1x1xf32>}> : () -> tensor<1x1xf32>
    %16 = "tosa.const"() <{values = dense<0xFF800000> : tensor<1x1xf32>}> : () -> tensor<1x1xf32>
    %17 = "tosa.const"() <{values = dense<0xFFF0000000000000> : tensor<1x1x1x1xf64>}> : () -> tensor<1x1x1x1xf64>
    %18 = tosa.mul %arg0, %13, %2 : (tensor<2x4x16x32xf32>, tensor<1x1x1x1xf32>, tensor<1xi8>) -> tensor<2x4x16x32xf32>
    %19 = tosa.reshape %3, %4 : (tensor<16xi64>, !tosa.shape<2>) -> tensor<1x16xi64>
    %20 = tosa.reshape %3, %5 : (tensor<16xi64>, !tosa.shape<2>) -> tensor<16x1xi64>
    %21 = tosa.cast %20 : (tensor<16x1xi64>) -> tensor<16x1xi32>
    %22 = tosa.cast %19 : (tensor<1x16xi64>) -> tensor<1x16xi32>
    %23 = tosa.sub %22, %21 : (tensor<1x16xi32>, tensor<16x1xi32>) -> tensor<16x16xi32>
    %24 = tosa.cast %23 : (tensor<16x16xi32>) -> tensor<16x16xi64>
    %25 = tosa.greater_equal %14, %24 : (tensor<1x1xi64>, tensor<16x16xi64>) -> tensor<16x16xi1>
    %26 = tosa.logical_and %25, %1 : (tensor<16x16xi1>, tensor<16x16xi1>) -> tensor<16x16xi1>
    %27 = tosa.select %26, %15, %16 : (tensor<16x16xi1>, tensor<1x1xf32>, tensor<1x1xf32>) -> tensor<16x16xf32>
    %28 = tosa.transpose %arg1 {perms = array<i32: 0, 1, 3, 2>} : (tensor<2x4x16x32xf32>) -> tensor<2x4x32x16xf32>
    %29 = tosa.mul %28, %13, %2 : (tensor<2x4x32x16xf32>, tensor<1x1x1x1xf32>, tensor<1xi8>) -> tensor<2x4x32x16xf32>
    %30 = tosa.reshape %18, %6 : (tensor<2x4x16x32xf32>, !tosa.shape<3>) -> tensor<8x16x32xf32>
    %31 = tosa.reshape %29, %7 : (tensor<2x4x32x16xf32>, !tosa.shape<3>) -> tensor<8x32x16xf32>
    %32 = tosa.matmul %30, %31, %8, %8 : (tensor<8x16x32xf32>, tensor<8x32x16xf32>, tensor<1xf32>, tensor<1xf32>) -> tensor<8x16x16xf32>
    %33 = tosa.reshape %32, %9 : (tensor<8x16x16xf32>, !tosa.shape<4>) -> tensor<2x4x16x16xf32>
    %34 = tosa.reshape %27, %10 : (tensor<16x16xf32>, !tosa.shape<4>) -> tensor<1x1x16x16xf32>
    %35 = tosa.add %33, %34 : (tensor<2x4x16x16xf32>, tensor<1x1x16x16xf32>) -> tensor<2x4x16x16xf32>
    %36 = tosa.reduce_max %35 {axis = 3 : i32} : (tensor<2x4x16x16xf32>) -> tensor<2x4x16x1xf32>
    %37 = tosa.sub %35, %36 : (tensor<2x4x16x16xf32>, tensor<2x4x16x1xf32>) -> tensor<2x4x16x16xf32>
    %38 = tosa.exp %37 : (tensor<2x4x16x16xf32>) -> tensor<2x4x16x16xf32>
    %39 = tosa.reduce_sum %38 {axis = 3 : i32} : (tensor<2x4x16x16xf32>) -> tensor<2x4x16x1xf32>
    %40 = tosa.reciprocal %39 : (tensor<2x4x16x1xf32>) -> tensor<2x4x16x1xf32>
    %41 = tosa.mul %38, %40, %2 : (tensor<2x4x16x16xf32>, tensor<2x4x16x1xf32>, tensor<1xi8>) -> tensor<2x4x16x16xf32>
    %42 = tosa.cast %35 : (tensor<2x4x16x16xf32>) -> tensor<2x4x16x16xf64>
    %43 = tosa.equal %42, %17 : (tensor<2x4x16x16xf64>, tensor<1x1x1x1xf64>) -> tensor<2x4x16x16xi1>
    %44 = tosa.reduce_all %43 {axis = 3 : i32} : (tensor<2x4x16x16xi1>) -> tensor<2x4x16x1xi1>
    %45 = tosa.select %44, %0, %41 : (tensor<2x4x16x1xi1>, tensor<2x4x16x16xf32>, tensor<2x4x16x16xf32>) -> tensor<2x4x16x16xf32>
    %46 = tosa.reshape %45, %11 : (tensor<2x4x16x16xf32>, !tosa.shape<3>) -> tensor<8x16x16xf32>
    %47 = tosa.reshape %arg2, %6 : (tensor<2x4x16x32xf32>, !tosa.shape<3>) -> tensor<8x16x32xf32>
    %48 = tosa.matmul %46, %47, %8, %8 : (tensor<8x16x16xf32>, tensor<8x16x32xf32>, tensor<1xf32>, tensor<1xf32>) -> tensor<8x16x32xf32>
    %49 = tosa.reshape %48, %12 : (tensor<8x16x32xf32>, !tosa.shape<4>) -> tensor<2x4x16x32xf32>
    return %49 : tensor<2x4x16x32xf32>
  }
}
