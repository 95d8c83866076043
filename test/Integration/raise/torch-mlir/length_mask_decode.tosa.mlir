// length_mask_decode (LengthMaskDecode: Keys at or past each sequence's cache length masked out.), exported by
// scripts/export_torch_mlir_cases.py (torch 2.15.0+cu132, torch_mlir.fx, output tosa).
// RUN: attention-opt %s --attn-raise-pipeline | FileCheck %s
// RUN: attn-raise-check %s --require-raised --runs=2 --seed=77 | FileCheck %s --check-prefix=PROOF --implicit-check-not=FAIL
// CHECK: attn.attention {{.*}}mask({{.*}} : tensor<2x1x1x24xi1>) {scale = 0.17677{{[0-9]+}} : f32}
// PROOF: @length_mask_decode: 1 attn.attention after the raising
// PROOF: run 1 result 0 {{.*}}: PASS
module {
  func.func @length_mask_decode(%arg0: tensor<2x4x32xf32>, %arg1: tensor<2x4x24x32xf32>, %arg2: tensor<2x4x24x32xf32>, %arg3: tensor<2xi64>) -> tensor<2x4x32xf32> {
    %0 = tosa.const_shape  {values = dense<[8, 1, 32]> : tensor<3xindex>} : () -> !tosa.shape<3>
    %1 = tosa.const_shape  {values = dense<[8, 32, 24]> : tensor<3xindex>} : () -> !tosa.shape<3>
    %2 = "tosa.const"() <{values = dense<0.000000e+00> : tensor<1xf32>}> : () -> tensor<1xf32>
    %3 = tosa.const_shape  {values = dense<[2, 4, 24]> : tensor<3xindex>} : () -> !tosa.shape<3>
    %4 = "tosa.const"() <{values = dense<0> : tensor<1xi8>}> : () -> tensor<1xi8>
    %5 = tosa.const_shape  {values = dense<[2, 1]> : tensor<2xindex>} : () -> !tosa.shape<2>
    %6 = tosa.const_shape  {values = dense<[2, 1, 24]> : tensor<3xindex>} : () -> !tosa.shape<3>
    %7 = tosa.const_shape  {values = dense<[8, 1, 24]> : tensor<3xindex>} : () -> !tosa.shape<3>
    %8 = tosa.const_shape  {values = dense<[8, 24, 32]> : tensor<3xindex>} : () -> !tosa.shape<3>
    %9 = tosa.const_shape  {values = dense<[2, 4, 32]> : tensor<3xindex>} : () -> !tosa.shape<3>
    %10 = "tosa.const"() <{values = dense<0.176776692> : tensor<1x1x1xf32>}> : () -> tensor<1x1x1xf32>
    %11 = "tosa.const"() <{values = dense<[[0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16, 17, 18, 19, 20, 21, 22, 23]]> : tensor<1x24xi64>}> : () -> tensor<1x24xi64>
    %12 = "tosa.const"() <{values = dense<0xFF800000> : tensor<1x1x1xf32>}> : () -> tensor<1x1x1xf32>
    %13 = tosa.reshape %arg0, %0 : (tensor<2x4x32xf32>, !tosa.shape<3>) -> tensor<8x1x32xf32>
    %14 = tosa.transpose %arg1 {perms = array<i32: 0, 1, 3, 2>} : (tensor<2x4x24x32xf32>) -> tensor<2x4x32x24xf32>
    %15 = tosa.reshape %14, %1 : (tensor<2x4x32x24xf32>, !tosa.shape<3>) -> tensor<8x32x24xf32>
    %16 = tosa.matmul %13, %15, %2, %2 : (tensor<8x1x32xf32>, tensor<8x32x24xf32>, tensor<1xf32>, tensor<1xf32>) -> tensor<8x1x24xf32>
    %17 = tosa.reshape %16, %3 : (tensor<8x1x24xf32>, !tosa.shape<3>) -> tensor<2x4x24xf32>
    %18 = tosa.mul %17, %10, %4 : (tensor<2x4x24xf32>, tensor<1x1x1xf32>, tensor<1xi8>) -> tensor<2x4x24xf32>
    %19 = tosa.reshape %arg3, %5 : (tensor<2xi64>, !tosa.shape<2>) -> tensor<2x1xi64>
    %20 = tosa.greater_equal %11, %19 : (tensor<1x24xi64>, tensor<2x1xi64>) -> tensor<2x24xi1>
    %21 = tosa.reshape %20, %6 : (tensor<2x24xi1>, !tosa.shape<3>) -> tensor<2x1x24xi1>
    %22 = tosa.select %21, %12, %18 : (tensor<2x1x24xi1>, tensor<1x1x1xf32>, tensor<2x4x24xf32>) -> tensor<2x4x24xf32>
    %23 = tosa.reduce_max %22 {axis = 2 : i32} : (tensor<2x4x24xf32>) -> tensor<2x4x1xf32>
    %24 = tosa.sub %22, %23 : (tensor<2x4x24xf32>, tensor<2x4x1xf32>) -> tensor<2x4x24xf32>
    %25 = tosa.exp %24 : (tensor<2x4x24xf32>) -> tensor<2x4x24xf32>
    %26 = tosa.reduce_sum %25 {axis = 2 : i32} : (tensor<2x4x24xf32>) -> tensor<2x4x1xf32>
    %27 = tosa.reciprocal %26 : (tensor<2x4x1xf32>) -> tensor<2x4x1xf32>
    %28 = tosa.mul %25, %27, %4 : (tensor<2x4x24xf32>, tensor<2x4x1xf32>, tensor<1xi8>) -> tensor<2x4x24xf32>
    %29 = tosa.reshape %28, %7 : (tensor<2x4x24xf32>, !tosa.shape<3>) -> tensor<8x1x24xf32>
    %30 = tosa.reshape %arg2, %8 : (tensor<2x4x24x32xf32>, !tosa.shape<3>) -> tensor<8x24x32xf32>
    %31 = tosa.matmul %29, %30, %2, %2 : (tensor<8x1x24xf32>, tensor<8x24x32xf32>, tensor<1xf32>, tensor<1xf32>) -> tensor<8x1x32xf32>
    %32 = tosa.reshape %31, %9 : (tensor<8x1x32xf32>, !tosa.shape<3>) -> tensor<2x4x32xf32>
    return %32 : tensor<2x4x32xf32>
  }
}
