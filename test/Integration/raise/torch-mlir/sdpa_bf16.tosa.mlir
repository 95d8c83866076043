// sdpa_bf16 (SdpaCausal16: bf16 tensors: PyTorch's math path computes in f32 between casts.), exported by
// scripts/export_torch_mlir_cases.py (torch 2.15.0+cu132, torch_mlir.fx, output tosa).
// RUN: attention-opt %s --attn-raise-pipeline | FileCheck %s
// RUN: attn-raise-check %s --require-raised --runs=2 --seed=38 | FileCheck %s --check-prefix=PROOF --implicit-check-not=FAIL
// CHECK: attn.attention {{.*}}-> tensor<2x4x16x32xf32>
// PROOF: @sdpa_bf16: 1 attn.attention after the raising
// PROOF: run 1 result 0 {{.*}}: PASS
module {
  func.func @sdpa_bf16(%arg0: tensor<2x4x16x32xbf16>, %arg1: tensor<2x4x16x32xbf16>, %arg2: tensor<2x4x16x32xbf16>) -> tensor<2x4x16x32xbf16> {
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
    %13 = "tosa.const"() <{values = dense<0.420448214> : tensor<1x1x1x1xf32>}> : () -> tensor<1x1x1x1xf32>
    %14 = "tosa.const"() <{values = dense<0> : tensor<1x1xi64>}> : () -> tensor<1x1xi64>
    %15 = "tosa.const"() <{values = dense<0.000000e+00> : tensor<1x1xf32>}> : () -> tensor<1x1xf32>
    %16 = "tosa.const"() <{values = dense<0xFF800000> : tensor<1x1xf32>}> : () -> tensor<1x1xf32>
    %17 = "tosa.const"() <{values = dense<0xFFF0000000000000> : tensor<1x1x1x1xf64>}> : () -> tensor<1x1x1x1xf64>
    %18 = tosa.cast %arg0 : (tensor<2x4x16x32xbf16>) -> tensor<2x4x16x32xf32>
    %19 = tosa.cast %arg1 : (tensor<2x4x16x32xbf16>) -> tensor<2x4x16x32xf32>
    %20 = tosa.cast %arg2 : (tensor<2x4x16x32xbf16>) -> tensor<2x4x16x32xf32>
    %21 = tosa.mul %18, %13, %2 : (tensor<2x4x16x32xf32>, tensor<1x1x1x1xf32>, tensor<1xi8>) -> tensor<2x4x16x32xf32>
    %22 = tosa.reshape %3, %4 : (tensor<16xi64>, !tosa.shape<2>) -> tensor<1x16xi64>
    %23 = tosa.reshape %3, %5 : (tensor<16xi64>, !tosa.shape<2>) -> tensor<16x1xi64>
    %24 = tosa.cast %23 : (tensor<16x1xi64>) -> tensor<16x1xi32>
    %25 = tosa.cast %22 : (tensor<1x16xi64>) -> tensor<1x16xi32>
    %26 = tosa.sub %25, %24 : (tensor<1x16xi32>, tensor<16x1xi32>) -> tensor<16x16xi32>
    %27 = tosa.cast %26 : (tensor<16x16xi32>) -> tensor<16x16xi64>
    %28 = tosa.greater_equal %14, %27 : (tensor<1x1xi64>, tensor<16x16xi64>) -> tensor<16x16xi1>
    %29 = tosa.logical_and %28, %1 : (tensor<16x16xi1>, tensor<16x16xi1>) -> tensor<16x16xi1>
    %30 = tosa.select %29, %15, %16 : (tensor<16x16xi1>, tensor<1x1xf32>, tensor<1x1xf32>) -> tensor<16x16xf32>
    %31 = tosa.transpose %19 {perms = array<i32: 0, 1, 3, 2>} : (tensor<2x4x16x32xf32>) -> tensor<2x4x32x16xf32>
    %32 = tosa.mul %31, %13, %2 : (tensor<2x4x32x16xf32>, tensor<1x1x1x1xf32>, tensor<1xi8>) -> tensor<2x4x32x16xf32>
    %33 = tosa.reshape %21, %6 : (tensor<2x4x16x32xf32>, !tosa.shape<3>) -> tensor<8x16x32xf32>
    %34 = tosa.reshape %32, %7 : (tensor<2x4x32x16xf32>, !tosa.shape<3>) -> tensor<8x32x16xf32>
    %35 = tosa.matmul %33, %34, %8, %8 : (tensor<8x16x32xf32>, tensor<8x32x16xf32>, tensor<1xf32>, tensor<1xf32>) -> tensor<8x16x16xf32>
    %36 = tosa.reshape %35, %9 : (tensor<8x16x16xf32>, !tosa.shape<4>) -> tensor<2x4x16x16xf32>
    %37 = tosa.reshape %30, %10 : (tensor<16x16xf32>, !tosa.shape<4>) -> tensor<1x1x16x16xf32>
    %38 = tosa.add %36, %37 : (tensor<2x4x16x16xf32>, tensor<1x1x16x16xf32>) -> tensor<2x4x16x16xf32>
    %39 = tosa.reduce_max %38 {axis = 3 : i32} : (tensor<2x4x16x16xf32>) -> tensor<2x4x16x1xf32>
    %40 = tosa.sub %38, %39 : (tensor<2x4x16x16xf32>, tensor<2x4x16x1xf32>) -> tensor<2x4x16x16xf32>
    %41 = tosa.exp %40 : (tensor<2x4x16x16xf32>) -> tensor<2x4x16x16xf32>
    %42 = tosa.reduce_sum %41 {axis = 3 : i32} : (tensor<2x4x16x16xf32>) -> tensor<2x4x16x1xf32>
    %43 = tosa.reciprocal %42 : (tensor<2x4x16x1xf32>) -> tensor<2x4x16x1xf32>
    %44 = tosa.mul %41, %43, %2 : (tensor<2x4x16x16xf32>, tensor<2x4x16x1xf32>, tensor<1xi8>) -> tensor<2x4x16x16xf32>
    %45 = tosa.cast %38 : (tensor<2x4x16x16xf32>) -> tensor<2x4x16x16xf64>
    %46 = tosa.equal %45, %17 : (tensor<2x4x16x16xf64>, tensor<1x1x1x1xf64>) -> tensor<2x4x16x16xi1>
    %47 = tosa.reduce_all %46 {axis = 3 : i32} : (tensor<2x4x16x16xi1>) -> tensor<2x4x16x1xi1>
    %48 = tosa.select %47, %0, %44 : (tensor<2x4x16x1xi1>, tensor<2x4x16x16xf32>, tensor<2x4x16x16xf32>) -> tensor<2x4x16x16xf32>
    %49 = tosa.reshape %48, %11 : (tensor<2x4x16x16xf32>, !tosa.shape<3>) -> tensor<8x16x16xf32>
    %50 = tosa.reshape %20, %6 : (tensor<2x4x16x32xf32>, !tosa.shape<3>) -> tensor<8x16x32xf32>
    %51 = tosa.matmul %49, %50, %8, %8 : (tensor<8x16x16xf32>, tensor<8x16x32xf32>, tensor<1xf32>, tensor<1xf32>) -> tensor<8x16x32xf32>
    %52 = tosa.reshape %51, %12 : (tensor<8x16x32xf32>, !tosa.shape<4>) -> tensor<2x4x16x32xf32>
    %53 = tosa.cast %52 : (tensor<2x4x16x32xf32>) -> tensor<2x4x16x32xbf16>
    return %53 : tensor<2x4x16x32xbf16>
  }
}
