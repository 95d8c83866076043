// chunk_causal (ChunkCausal: A prefill chunk (Lq < Lk): causal to the bottom right, from aranges with an offset.), exported by
// scripts/export_torch_mlir_cases.py (torch 2.15.0+cu132, torch_mlir.fx, output tosa).
// RUN: attention-opt %s --attn-raise-pipeline | FileCheck %s
// RUN: attn-raise-check %s --require-raised --runs=2 --seed=106 | FileCheck %s --check-prefix=PROOF --implicit-check-not=FAIL
// CHECK: attn.attention {{.*}}{causal = #attn.causal<bottom_right>, scale = 0.17677{{[0-9]+}} : f32}
// CHECK-NOT: linalg.
// PROOF: @chunk_causal: 1 attn.attention after the raising
// PROOF: run 1 result 0 {{.*}}: PASS
module {
  func.func @chunk_causal(%arg0: tensor<2x4x16x32xf32>, %arg1: tensor<2x4x24x32xf32>, %arg2: tensor<2x4x24x32xf32>) -> tensor<2x4x16x32xf32> {
    %0 = "tosa.const"() <{values = dense<0> : tensor<1xi8>}> : () -> tensor<1xi8>
    %1 = tosa.const_shape  {values = dense<[8, 16, 32]> : tensor<3xindex>} : () -> !tosa.shape<3>
    %2 = tosa.const_shape  {values = dense<[8, 32, 24]> : tensor<3xindex>} : () -> !tosa.shape<3>
    %3 = "tosa.const"() <{values = dense<0.000000e+00> : tensor<1xf32>}> : () -> tensor<1xf32>
    %4 = tosa.const_shape  {values = dense<[2, 4, 16, 24]> : tensor<4xindex>} : () -> !tosa.shape<4>
    %5 = tosa.const_shape  {values = dense<[1, 1, 16, 24]> : tensor<4xindex>} : () -> !tosa.shape<4>
    %6 = tosa.const_shape  {values = dense<[8, 16, 24]> : tensor<3xindex>} : () -> !tosa.shape<3>
    %7 = tosa.const_shape  {values = dense<[8, 24, 32]> : tensor<3xindex>} : () -> !tosa.shape<3>
    %8 = tosa.const_shape  {values = dense<[2, 4, 16, 32]> : tensor<4xindex>} : () -> !tosa.shape<4>
    %9 = "tosa.const"() <{values = dense<[[0], [1], [2], [3], [4], [5], [6], [7], [8], [9], [10], [11], [12], [13], [14], [15]]> : tensor<16x1xi64>}> : () -> tensor<16x1xi64>
    %10 = "tosa.const"() <{values = dense<8> : tensor<1x1xi32>}> : () -> tensor<1x1xi32>
    %11 = "tosa.const"() <{values = dense<[[0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16, 17, 18, 19, 20, 21, 22, 23]]> : tensor<1x24xi64>}> : () -> tensor<1x24xi64>
    %12 = "tosa.const"() <{values = dense<0.176776692> : tensor<1x1x1x1xf32>}> : () -> tensor<1x1x1x1xf32>
    %13 = "tosa.const"() <{values = dense<0xFF800000> : tensor<1x1x1x1xf32>}> : () -> tensor<1x1x1x1xf32>
    %14 = tosa.cast %9 : (tensor<16x1xi64>) -> tensor<16x1xi32>
    %15 = tosa.add %14, %10 : (tensor<16x1xi32>, tensor<1x1xi32>) -> tensor<16x1xi32>
    %16 = tosa.cast %15 : (tensor<16x1xi32>) -> tensor<16x1xi64>
    %17 = tosa.transpose %arg1 {perms = array<i32: 0, 1, 3, 2>} : (tensor<2x4x24x32xf32>) -> tensor<2x4x32x24xf32>
    %18 = tosa.reshape %arg0, %1 : (tensor<2x4x16x32xf32>, !tosa.shape<3>) -> tensor<8x16x32xf32>
    %19 = tosa.reshape %17, %2 : (tensor<2x4x32x24xf32>, !tosa.shape<3>) -> tensor<8x32x24xf32>
    %20 = tosa.matmul %18, %19, %3, %3 : (tensor<8x16x32xf32>, tensor<8x32x24xf32>, tensor<1xf32>, tensor<1xf32>) -> tensor<8x16x24xf32>
    %21 = tosa.reshape %20, %4 : (tensor<8x16x24xf32>, !tosa.shape<4>) -> tensor<2x4x16x24xf32>
    %22 = tosa.mul %21, %12, %0 : (tensor<2x4x16x24xf32>, tensor<1x1x1x1xf32>, tensor<1xi8>) -> tensor<2x4x16x24xf32>
    %23 = tosa.greater %11, %16 : (tensor<1x24xi64>, tensor<16x1xi64>) -> tensor<16x24xi1>
    %24 = tosa.reshape %23, %5 : (tensor<16x24xi1>, !tosa.shape<4>) -> tensor<1x1x16x24xi1>
    %25 = tosa.select %24, %13, %22 : (tensor<1x1x16x24xi1>, tensor<1x1x1x1xf32>, tensor<2x4x16x24xf32>) -> tensor<2x4x16x24xf32>
    %26 = tosa.reduce_max %25 {axis = 3 : i32} : (tensor<2x4x16x24xf32>) -> tensor<2x4x16x1xf32>
    %27 = tosa.sub %25, %26 : (tensor<2x4x16x24xf32>, tensor<2x4x16x1xf32>) -> tensor<2x4x16x24xf32>
    %28 = tosa.exp %27 : (tensor<2x4x16x24xf32>) -> tensor<2x4x16x24xf32>
    %29 = tosa.reduce_sum %28 {axis = 3 : i32} : (tensor<2x4x16x24xf32>) -> tensor<2x4x16x1xf32>
    %30 = tosa.reciprocal %29 : (tensor<2x4x16x1xf32>) -> tensor<2x4x16x1xf32>
    %31 = tosa.mul %28, %30, %0 : (tensor<2x4x16x24xf32>, tensor<2x4x16x1xf32>, tensor<1xi8>) -> tensor<2x4x16x24xf32>
    %32 = tosa.reshape %31, %6 : (tensor<2x4x16x24xf32>, !tosa.shape<3>) -> tensor<8x16x24xf32>
    %33 = tosa.reshape %arg2, %7 : (tensor<2x4x24x32xf32>, !tosa.shape<3>) -> tensor<8x24x32xf32>
    %34 = tosa.matmul %32, %33, %3, %3 : (tensor<8x16x24xf32>, tensor<8x24x32xf32>, tensor<1xf32>, tensor<1xf32>) -> tensor<8x16x32xf32>
    %35 = tosa.reshape %34, %8 : (tensor<8x16x32xf32>, !tosa.shape<4>) -> tensor<2x4x16x32xf32>
    return %35 : tensor<2x4x16x32xf32>
  }
}
