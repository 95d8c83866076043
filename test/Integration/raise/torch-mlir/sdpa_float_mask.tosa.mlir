// sdpa_float_mask (SdpaMask), exported by
// scripts/export_torch_mlir_cases.py (torch 2.15.0+cu132, torch_mlir.fx, output tosa).
// RUN: attention-opt %s --attn-raise-pipeline | FileCheck %s
// RUN: attn-raise-check %s --require-raised --runs=2 --seed=26 | FileCheck %s --check-prefix=PROOF --implicit-check-not=FAIL
// CHECK: attn.attention {{.*}}mask(%arg3 : tensor<2x1x1x24xf32>) {scale = 0.17677{{[0-9]+}} : f32}
// CHECK-NOT: linalg.
// PROOF: @sdpa_float_mask: 1 attn.attention after the raising
// PROOF: run 1 result 0 {{.*}}: PASS
module {
  func.func @sdpa_float_mask(%arg0: tensor<2x4x16x32xf32>, %arg1: tensor<2x4x24x32xf32>, %arg2: tensor<2x4x24x32xf32>, %arg3: tensor<2x1x1x24xf32>) -> tensor<2x4x16x32xf32> {
    %0 = "tosa.const"() <{values = dense<0.000000e+00> : tensor<2x4x16x24xf32>}> : () -> tensor<2x4x16x24xf32>
    %1 = "tosa.const"() <{values = dense<0> : tensor<1xi8>}> : () -> tensor<1xi8>
    %2 = tosa.const_shape  {values = dense<[8, 16, 32]> : tensor<3xindex>} : () -> !tosa.shape<3>
    %3 = tosa.const_shape  {values = dense<[8, 32, 24]> : tensor<3xindex>} : () -> !tosa.shape<3>
    %4 = "tosa.const"() <{values = dense<0.000000e+00> : tensor<1xf32>}> : () -> tensor<1xf32>
    %5 = tosa.const_shape  {values = dense<[2, 4, 16, 24]> : tensor<4xindex>} : () -> !tosa.shape<4>
    %6 = tosa.const_shape  {values = dense<[8, 16, 24]> : tensor<3xindex>} : () -> !tosa.shape<3>
    %7 = tosa.const_shape  {values = dense<[8, 24, 32]> : tensor<3xindex>} : () -> !tosa.shape<3>
    %8 = tosa.const_shape  {values = dense<[2, 4, 16, 32]> : tensor<4xindex>} : () -> !tosa.shape<4>
    %9 = "tosa.const"() <{values = dense<0.420448214> : tensor<1x1x1x1xf32>}> : () -> tensor<1x1x1x1xf32>
    %10 = "tosa.const"() <{values = dense<0xFFF0000000000000> : tensor<1x1x1x1xf64>}> : () -> tensor<1x1x1x1xf64>
    %11 = tosa.mul %arg0, %9, %1 : (tensor<2x4x16x32xf32>, tensor<1x1x1x1xf32>, tensor<1xi8>) -> tensor<2x4x16x32xf32>
    %12 = tosa.transpose %arg1 {perms = array<i32: 0, 1, 3, 2>} : (tensor<2x4x24x32xf32>) -> tensor<2x4x32x24xf32>
    %13 = tosa.mul %12, %9, %1 : (tensor<2x4x32x24xf32>, tensor<1x1x1x1xf32>, tensor<1xi8>) -> tensor<2x4x32x24xf32>
    %14 = tosa.reshape %11, %2 : (tensor<2x4x16x32xf32>, !tosa.shape<3>) -> tensor<8x16x32xf32>
    %15 = tosa.reshape %13, %3 : (tensor<2x4x32x24xf32>, !tosa.shape<3>) -> tensor<8x32x24xf32>
    %16 = tosa.matmul %14, %15, %4, %4 : (tensor<8x16x32xf32>, tensor<8x32x24xf32>, tensor<1xf32>, tensor<1xf32>) -> tensor<8x16x24xf32>
    %17 = tosa.reshape %16, %5 : (tensor<8x16x24xf32>, !tosa.shape<4>) -> tensor<2x4x16x24xf32>
    %18 = tosa.add %17, %arg3 : (tensor<2x4x16x24xf32>, tensor<2x1x1x24xf32>) -> tensor<2x4x16x24xf32>
    %19 = tosa.reduce_max %18 {axis = 3 : i32} : (tensor<2x4x16x24xf32>) -> tensor<2x4x16x1xf32>
    %20 = tosa.sub %18, %19 : (tensor<2x4x16x24xf32>, tensor<2x4x16x1xf32>) -> tensor<2x4x16x24xf32>
    %21 = tosa.exp %20 : (tensor<2x4x16x24xf32>) -> tensor<2x4x16x24xf32>
    %22 = tosa.reduce_sum %21 {axis = 3 : i32} : (tensor<2x4x16x24xf32>) -> tensor<2x4x16x1xf32>
    %23 = tosa.reciprocal %22 : (tensor<2x4x16x1xf32>) -> tensor<2x4x16x1xf32>
    %24 = tosa.mul %21, %23, %1 : (tensor<2x4x16x24xf32>, tensor<2x4x16x1xf32>, tensor<1xi8>) -> tensor<2x4x16x24xf32>
    %25 = tosa.cast %18 : (tensor<2x4x16x24xf32>) -> tensor<2x4x16x24xf64>
    %26 = tosa.equal %25, %10 : (tensor<2x4x16x24xf64>, tensor<1x1x1x1xf64>) -> tensor<2x4x16x24xi1>
    %27 = tosa.reduce_all %26 {axis = 3 : i32} : (tensor<2x4x16x24xi1>) -> tensor<2x4x16x1xi1>
    %28 = tosa.select %27, %0, %24 : (tensor<2x4x16x1xi1>, tensor<2x4x16x24xf32>, tensor<2x4x16x24xf32>) -> tensor<2x4x16x24xf32>
    %29 = tosa.reshape %28, %6 : (tensor<2x4x16x24xf32>, !tosa.shape<3>) -> tensor<8x16x24xf32>
    %30 = tosa.reshape %arg2, %7 : (tensor<2x4x24x32xf32>, !tosa.shape<3>) -> tensor<8x24x32xf32>
    %31 = tosa.matmul %29, %30, %4, %4 : (tensor<8x16x24xf32>, tensor<8x24x32xf32>, tensor<1xf32>, tensor<1xf32>) -> tensor<8x16x32xf32>
    %32 = tosa.reshape %31, %8 : (tensor<8x16x32xf32>, !tosa.shape<4>) -> tensor<2x4x16x32xf32>
    return %32 : tensor<2x4x16x32xf32>
  }
}
