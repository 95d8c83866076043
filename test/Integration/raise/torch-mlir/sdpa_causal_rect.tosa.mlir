// sdpa_causal_rect (SdpaCausalRect: SDPA is_causal with Lq < Lk: PyTorch's causal is top-left there.), exported by
// scripts/export_torch_mlir_cases.py (torch 2.15.0+cu132, torch_mlir.fx, output tosa).
// RUN: attention-opt %s --attn-raise-pipeline | FileCheck %s
// RUN: attn-raise-check %s --require-raised --runs=2 --seed=108 | FileCheck %s --check-prefix=PROOF --implicit-check-not=FAIL
// CHECK: attn.attention {{.*}}{causal = #attn.causal<top_left>, scale = 0.17677{{[0-9]+}} : f32}
// CHECK-NOT: linalg.
// PROOF: @sdpa_causal_rect: 1 attn.attention after the raising
// PROOF: run 1 result 0 {{.*}}: PASS
module {
  func.func @sdpa_causal_rect(%arg0: tensor<2x4x16x32xf32>, %arg1: tensor<2x4x24x32xf32>, %arg2: tensor<2x4x24x32xf32>) -> tensor<2x4x16x32xf32> {
    %0 = "tosa.const"() <{values = dense<0.000000e+00> : tensor<2x4x16x24xf32>}> : () -> tensor<2x4x16x24xf32>
    %1 = "tosa.const"() <{values = dense<true> : tensor<16x24xi1>}> : () -> tensor<16x24xi1>
    %2 = "tosa.const"() <{values = dense<0> : tensor<1xi8>}> : () -> tensor<1xi8>
    %3 = tosa.const_shape  {values = dense<[8, 16, 32]> : tensor<3xindex>} : () -> !tosa.shape<3>
    %4 = tosa.const_shape  {values = dense<[8, 32, 24]> : tensor<3xindex>} : () -> !tosa.shape<3>
    %5 = "tosa.const"() <{values = dense<0.000000e+00> : tensor<1xf32>}> : () -> tensor<1xf32>
    %6 = tosa.const_shape  {values = dense<[2, 4, 16, 24]> : tensor<4xindex>} : () -> !tosa.shape<4>
    %7 = tosa.const_shape  {values = dense<[1, 1, 16, 24]> : tensor<4xindex>} : () -> !tosa.shape<4>
    %8 = tosa.const_shape  {values = dense<[8, 16, 24]> : tensor<3xindex>} : () -> !tosa.shape<3>
    %9 = tosa.const_shape  {values = dense<[8, 24, 32]> : tensor<3xindex>} : () -> !tosa.shape<3>
    %10 = tosa.const_shape  {values = dense<[2, 4, 16, 32]> : tensor<4xindex>} : () -> !tosa.shape<4>
    %11 = "tosa.const"() <{values = dense<0.420448214> : tensor<1x1x1x1xf32>}> : () -> tensor<1x1x1x1xf32>
    %12 = "tosa.const"() <{values = dense<[[0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16, 17, 18, 19, 20, 21, 22, 23]]> : tensor<1x24xi64>}> : () -> tensor<1x24xi64>
    %13 = "tosa.const"() <{values = dense<[[0], [1], [2], [3], [4], [5], [6], [7], [8], [9], [10], [11], [12], [13], [14], [15]]> : tensor<16x1xi64>}> : () -> tensor<16x1xi64>
    %14 = "tosa.const"() <{values = dense<0> : tensor<1x1xi64>}> : () -> tensor<1x1xi64>
    %15 = "tosa.const"() <{values = dense<0.000000e+00> : tensor<1x1xf32>}> : () -> tensor<1x1xf32>
    %16 = "tosa.const"() <{values = dense<0xFF800000> : tensor<1x1xf32>}> : () -> tensor<1x1xf32>
    %17 = "tosa.const"() <{values = dense<0xFFF0000000000000> : tensor<1x1x1x1xf64>}> : () -> tensor<1x1x1x1xf64>
    %18 = tosa.mul %arg0, %11, %2 : (tensor<2x4x16x32xf32>, tensor<1x1x1x1xf32>, tensor<1xi8>) -> tensor<2x4x16x32xf32>
    %19 = tosa.cast %13 : (tensor<16x1xi64>) -> tensor<16x1xi32>
    %20 = tosa.cast %12 : (tensor<1x24xi64>) -> tensor<1x24xi32>
    %21 = tosa.sub %20, %19 : (tensor<1x24xi32>, tensor<16x1xi32>) -> tensor<16x24xi32>
    %22 = tosa.cast %21 : (tensor<16x24xi32>) -> tensor<16x24xi64>
    %23 = tosa.greater_equal %14, %22 : (tensor<1x1xi64>, tensor<16x24xi64>) -> tensor<16x24xi1>
    %24 = tosa.logical_and %23, %1 : (tensor<16x24xi1>, tensor<16x24xi1>) -> tensor<16x24xi1>
    %25 = tosa.select %24, %15, %16 : (tensor<16x24xi1>, tensor<1x1xf32>, tensor<1x1xf32>) -> tensor<16x24xf32>
    %26 = tosa.transpose %arg1 {perms = array<i32: 0, 1, 3, 2>} : (tensor<2x4x24x32xf32>) -> tensor<2x4x32x24xf32>
    %27 = tosa.mul %26, %11, %2 : (tensor<2x4x32x24xf32>, tensor<1x1x1x1xf32>, tensor<1xi8>) -> tensor<2x4x32x24xf32>
    %28 = tosa.reshape %18, %3 : (tensor<2x4x16x32xf32>, !tosa.shape<3>) -> tensor<8x16x32xf32>
    %29 = tosa.reshape %27, %4 : (tensor<2x4x32x24xf32>, !tosa.shape<3>) -> tensor<8x32x24xf32>
    %30 = tosa.matmul %28, %29, %5, %5 : (tensor<8x16x32xf32>, tensor<8x32x24xf32>, tensor<1xf32>, tensor<1xf32>) -> tensor<8x16x24xf32>
    %31 = tosa.reshape %30, %6 : (tensor<8x16x24xf32>, !tosa.shape<4>) -> tensor<2x4x16x24xf32>
    %32 = tosa.reshape %25, %7 : (tensor<16x24xf32>, !tosa.shape<4>) -> tensor<1x1x16x24xf32>
    %33 = tosa.add %31, %32 : (tensor<2x4x16x24xf32>, tensor<1x1x16x24xf32>) -> tensor<2x4x16x24xf32>
    %34 = tosa.reduce_max %33 {axis = 3 : i32} : (tensor<2x4x16x24xf32>) -> tensor<2x4x16x1xf32>
    %35 = tosa.sub %33, %34 : (tensor<2x4x16x24xf32>, tensor<2x4x16x1xf32>) -> tensor<2x4x16x24xf32>
    %36 = tosa.exp %35 : (tensor<2x4x16x24xf32>) -> tensor<2x4x16x24xf32>
    %37 = tosa.reduce_sum %36 {axis = 3 : i32} : (tensor<2x4x16x24xf32>) -> tensor<2x4x16x1xf32>
    %38 = tosa.reciprocal %37 : (tensor<2x4x16x1xf32>) -> tensor<2x4x16x1xf32>
    %39 = tosa.mul %36, %38, %2 : (tensor<2x4x16x24xf32>, tensor<2x4x16x1xf32>, tensor<1xi8>) -> tensor<2x4x16x24xf32>
    %40 = tosa.cast %33 : (tensor<2x4x16x24xf32>) -> tensor<2x4x16x24xf64>
    %41 = tosa.equal %40, %17 : (tensor<2x4x16x24xf64>, tensor<1x1x1x1xf64>) -> tensor<2x4x16x24xi1>
    %42 = tosa.reduce_all %41 {axis = 3 : i32} : (tensor<2x4x16x24xi1>) -> tensor<2x4x16x1xi1>
    %43 = tosa.select %42, %0, %39 : (tensor<2x4x16x1xi1>, tensor<2x4x16x24xf32>, tensor<2x4x16x24xf32>) -> tensor<2x4x16x24xf32>
    %44 = tosa.reshape %43, %8 : (tensor<2x4x16x24xf32>, !tosa.shape<3>) -> tensor<8x16x24xf32>
    %45 = tosa.reshape %arg2, %9 : (tensor<2x4x24x32xf32>, !tosa.shape<3>) -> tensor<8x24x32xf32>
    %46 = tosa.matmul %44, %45, %5, %5 : (tensor<8x16x24xf32>, tensor<8x24x32xf32>, tensor<1xf32>, tensor<1xf32>) -> tensor<8x16x32xf32>
    %47 = tosa.reshape %46, %10 : (tensor<8x16x32xf32>, !tosa.shape<4>) -> tensor<2x4x16x32xf32>
    return %47 : tensor<2x4x16x32xf32>
  }
}
