// sliding_window (SlidingWindow), exported by
// scripts/export_torch_mlir_cases.py (torch 2.15.0+cu132, torch_mlir.fx, output tosa).
// RUN: attention-opt %s --attn-raise-pipeline | FileCheck %s
// RUN: attn-raise-check %s --require-raised --runs=2 --seed=20 | FileCheck %s --check-prefix=PROOF --implicit-check-not=FAIL
// CHECK: attn.attention {{.*}}{causal = #attn.causal<top_left>, scale = 0.17677{{[0-9]+}} : f32, window = array<i64: 3, -1>}
// CHECK-NOT: linalg.
// PROOF: @sliding_window: 1 attn.attention after the raising
// PROOF: run 1 result 0 {{.*}}: PASS
module {
  func.func @sliding_window(%arg0: tensor<2x4x16x32xf32>, %arg1: tensor<2x4x16x32xf32>, %arg2: tensor<2x4x16x32xf32>) -> tensor<2x4x16x32xf32> {
    %0 = "tosa.const"() <{values = dense<[0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15]> : tensor<16xi64>}> : () -> tensor<16xi64>
    %1 = tosa.const_shape  {values = dense<[16, 1]> : tensor<2xindex>} : () -> !tosa.shape<2>
    %2 = tosa.const_shape  {values = dense<[1, 16]> : tensor<2xindex>} : () -> !tosa.shape<2>
    %3 = "tosa.const"() <{values = dense<0> : tensor<1xi8>}> : () -> tensor<1xi8>
    %4 = tosa.const_shape  {values = dense<[8, 16, 32]> : tensor<3xindex>} : () -> !tosa.shape<3>
    %5 = tosa.const_shape  {values = dense<[8, 32, 16]> : tensor<3xindex>} : () -> !tosa.shape<3>
    %6 = "tosa.const"() <{values = dense<0.000000e+00> : tensor<1xf32>}> : () -> tensor<1xf32>
    %7 = tosa.const_shape  {values = dense<[2, 4, 16, 16]> : tensor<4xindex>} : () -> !tosa.shape<4>
    %8 = tosa.const_shape  {values = dense<[1, 1, 16, 16]> : tensor<4xindex>} : () -> !tosa.shape<4>
    %9 = tosa.const_shape  {values = dense<[8, 16, 16]> : tensor<3xindex>} : () -> !tosa.shape<3>
    %10 = tosa.const_shape  {values = dense<[2, 4, 16, 32]> : tensor<4xindex>} : () -> !tosa.shape<4>
    %11 = "tosa.const"() <{values = dense<4> : tensor<1x1xi32>}> : () -> tensor<1x1xi32>
    %12 = "tosa.const"() <{values = dense<0.176776692> : tensor<1x1x1x1xf32>}> : () -> tensor<1x1x1x1xf32>
    %13 = "tosa.const"() <{values = dense<0xFF800000> : tensor<1x1x1x1xf32>}> : () -> tensor<1x1x1x1xf32>
    %14 = tosa.reshape %0, %1 : (tensor<16xi64>, !tosa.shape<2>) -> tensor<16x1xi64>
    %15 = tosa.reshape %0, %2 : (tensor<16xi64>, !tosa.shape<2>) -> tensor<1x16xi64>
    %16 = tosa.greater_equal %14, %15 : (tensor<16x1xi64>, tensor<1x16xi64>) -> tensor<16x16xi1>
    %17 = tosa.cast %14 : (tensor<16x1xi64>) -> tensor<16x1xi32>
    %18 = tosa.sub %17, %11 : (tensor<16x1xi32>, tensor<1x1xi32>) -> tensor<16x1xi32>
    %19 = tosa.cast %18 : (tensor<16x1xi32>) -> tensor<16x1xi64>
    %20 = tosa.greater %15, %19 : (tensor<1x16xi64>, tensor<16x1xi64>) -> tensor<16x16xi1>
    %21 = tosa.logical_and %16, %20 : (tensor<16x16xi1>, tensor<16x16xi1>) -> tensor<16x16xi1>
    %22 = tosa.transpose %arg1 {perms = array<i32: 0, 1, 3, 2>} : (tensor<2x4x16x32xf32>) -> tensor<2x4x32x16xf32>
    %23 = tosa.reshape %arg0, %4 : (tensor<2x4x16x32xf32>, !tosa.shape<3>) -> tensor<8x16x32xf32>
    %24 = tosa.reshape %22, %5 : (tensor<2x4x32x16xf32>, !tosa.shape<3>) -> tensor<8x32x16xf32>
    %25 = tosa.matmul %23, %24, %6, %6 : (tensor<8x16x32xf32>, tensor<8x32x16xf32>, tensor<1xf32>, tensor<1xf32>) -> tensor<8x16x16xf32>
    %26 = tosa.reshape %25, %7 : (tensor<8x16x16xf32>, !tosa.shape<4>) -> tensor<2x4x16x16xf32>
    %27 = tosa.mul %26, %12, %3 : (tensor<2x4x16x16xf32>, tensor<1x1x1x1xf32>, tensor<1xi8>) -> tensor<2x4x16x16xf32>
    %28 = tosa.logical_not %21 : (tensor<16x16xi1>) -> tensor<16x16xi1>
    %29 = tosa.reshape %28, %8 : (tensor<16x16xi1>, !tosa.shape<4>) -> tensor<1x1x16x16xi1>
    %30 = tosa.select %29, %13, %27 : (tensor<1x1x16x16xi1>, tensor<1x1x1x1xf32>, tensor<2x4x16x16xf32>) -> tensor<2x4x16x16xf32>
    %31 = tosa.reduce_max %30 {axis = 3 : i32} : (tensor<2x4x16x16xf32>) -> tensor<2x4x16x1xf32>
    %32 = tosa.sub %30, %31 : (tensor<2x4x16x16xf32>, tensor<2x4x16x1xf32>) -> tensor<2x4x16x16xf32>
    %33 = tosa.exp %32 : (tensor<2x4x16x16xf32>) -> tensor<2x4x16x16xf32>
    %34 = tosa.reduce_sum %33 {axis = 3 : i32} : (tensor<2x4x16x16xf32>) -> tensor<2x4x16x1xf32>
    %35 = tosa.reciprocal %34 : (tensor<2x4x16x1xf32>) -> tensor<2x4x16x1xf32>
    %36 = tosa.mul %33, %35, %3 : (tensor<2x4x16x16xf32>, tensor<2x4x16x1xf32>, tensor<1xi8>) -> tensor<2x4x16x16xf32>
    %37 = tosa.reshape %36, %9 : (tensor<2x4x16x16xf32>, !tosa.shape<3>) -> tensor<8x16x16xf32>
    %38 = tosa.reshape %arg2, %4 : (tensor<2x4x16x32xf32>, !tosa.shape<3>) -> tensor<8x16x32xf32>
    %39 = tosa.matmul %37, %38, %6, %6 : (tensor<8x16x16xf32>, tensor<8x16x32xf32>, tensor<1xf32>, tensor<1xf32>) -> tensor<8x16x32xf32>
    %40 = tosa.reshape %39, %10 : (tensor<8x16x32xf32>, !tosa.shape<4>) -> tensor<2x4x16x32xf32>
    return %40 : tensor<2x4x16x32xf32>
  }
}
