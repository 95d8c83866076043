// sdpa_gqa (SdpaGqa), exported by
// scripts/export_torch_mlir_cases.py (torch 2.15.0+cu132, torch_mlir.fx, output tosa).
// RUN: attention-opt %s --attn-raise-pipeline | FileCheck %s
// RUN: attn-raise-check %s --require-raised --runs=2 --seed=22 | FileCheck %s --check-prefix=PROOF --implicit-check-not=FAIL
// CHECK: attn.attention {{.*}}tensor<2x2x24x32xf32>) {scale = 0.17677{{[0-9]+}} : f32}
// CHECK-NOT: linalg.
// PROOF: @sdpa_gqa: 1 attn.attention after the raising
// PROOF: run 1 result 0 {{.*}}: PASS
module {
  func.func @sdpa_gqa(%arg0: tensor<2x4x16x32xf32>, %arg1: tensor<2x2x24x32xf32>, %arg2: tensor<2x2x24x32xf32>) -> tensor<2x4x16x32xf32> {
    %0 = "tosa.const"() <{values = dense<0.000000e+00> : tensor<2x4x16x24xf32>}> : () -> tensor<2x4x16x24xf32>
    %1 = "tosa.const"() <{values = dense<0> : tensor<1xi8>}> : () -> tensor<1xi8>
    %2 = tosa.const_shape  {values = dense<[2, 2, 1, 24, 32]> : tensor<5xindex>} : () -> !tosa.shape<5>
    %3 = tosa.const_shape  {values = dense<[1, 1, 2, 1, 1]> : tensor<5xindex>} : () -> !tosa.shape<5>
    %4 = tosa.const_shape  {values = dense<[2, 4, 24, 32]> : tensor<4xindex>} : () -> !tosa.shape<4>
    %5 = tosa.const_shape  {values = dense<[8, 16, 32]> : tensor<3xindex>} : () -> !tosa.shape<3>
    %6 = tosa.const_shape  {values = dense<[8, 32, 24]> : tensor<3xindex>} : () -> !tosa.shape<3>
    %7 = "tosa.const"() <{values = dense<0.000000e+00> : tensor<1xf32>}> : () -> tensor<1xf32>
    %8 = tosa.const_shape  {values = dense<[2, 4, 16, 24]> : tensor<4xindex>} : () -> !tosa.shape<4>
    %9 = tosa.const_shape  {values = dense<[8, 16, 24]> : tensor<3xindex>} : () -> !tosa.shape<3>
    %10 = tosa.const_shape  {values = dense<[8, 24, 32]> : tensor<3xindex>} : () -> !tosa.shape<3>
    %11 = tosa.const_shape  {values = dense<[2, 4, 16, 32]> : tensor<4xindex>} : () -> !tosa.shape<4>
    %12 = "tosa.const"() <{values = dense<0.420448214> : tensor<1x1x1x1xf32>}> : () -> tensor<1x1x1x1xf32>
    %13 = "tosa.const"() <{values = dense<0xFFF0000000000000> : tensor<1x1x1x1xf64>}> : () -> tensor<1x1x1x1xf64>
    %14 = tosa.mul %arg0, %12, %1 : (tensor<2x4x16x32xf32>, tensor<1x1x1x1xf32>, tensor<1xi8>) -> tensor<2x4x16x32xf32>
    %15 = tosa.reshape %arg1, %2 : (tensor<2x2x24x32xf32>, !tosa.shape<5>) -> tensor<2x2x1x24x32xf32>
    %16 = tosa.tile %15, %3 : (tensor<2x2x1x24x32xf32>, !tosa.shape<5>) -> tensor<2x2x2x24x32xf32>
    %17 = tosa.reshape %16, %4 : (tensor<2x2x2x24x32xf32>, !tosa.shape<4>) -> tensor<2x4x24x32xf32>
    %18 = tosa.reshape %arg2, %2 : (tensor<2x2x24x32xf32>, !tosa.shape<5>) -> tensor<2x2x1x24x32xf32>
    %19 = tosa.tile %18, %3 : (tensor<2x2x1x24x32xf32>, !tosa.shape<5>) -> tensor<2x2x2x24x32xf32>
    %20 = tosa.transpose %17 {perms = array<i32: 0, 1, 3, 2>} : (tensor<2x4x24x32xf32>) -> tensor<2x4x32x24xf32>
    %21 = tosa.mul %20, %12, %1 : (tensor<2x4x32x24xf32>, tensor<1x1x1x1xf32>, tensor<1xi8>) -> tensor<2x4x32x24xf32>
    %22 = tosa.reshape %14, %5 : (tensor<2x4x16x32xf32>, !tosa.shape<3>) -> tensor<8x16x32xf32>
    %23 = tosa.reshape %21, %6 : (tensor<2x4x32x24xf32>, !tosa.shape<3>) -> tensor<8x32x24xf32>
    %24 = tosa.matmul %22, %23, %7, %7 : (tensor<8x16x32xf32>, tensor<8x32x24xf32>, tensor<1xf32>, tensor<1xf32>) -> tensor<8x16x24xf32>
    %25 = tosa.reshape %24, %8 : (tensor<8x16x24xf32>, !tosa.shape<4>) -> tensor<2x4x16x24xf32>
    %26 = tosa.reduce_max %25 {axis = 3 : i32} : (tensor<2x4x16x24xf32>) -> tensor<2x4x16x1xf32>
    %27 = tosa.sub %25, %26 : (tensor<2x4x16x24xf32>, tensor<2x4x16x1xf32>) -> tensor<2x4x16x24xf32>
    %28 = tosa.exp %27 : (tensor<2x4x16x24xf32>) -> tensor<2x4x16x24xf32>
    %29 = tosa.reduce_sum %28 {axis = 3 : i32} : (tensor<2x4x16x24xf32>) -> tensor<2x4x16x1xf32>
    %30 = tosa.reciprocal %29 : (tensor<2x4x16x1xf32>) -> tensor<2x4x16x1xf32>
    %31 = tosa.mul %28, %30, %1 : (tensor<2x4x16x24xf32>, tensor<2x4x16x1xf32>, tensor<1xi8>) -> tensor<2x4x16x24xf32>
    %32 = tosa.cast %25 : (tensor<2x4x16x24xf32>) -> tensor<2x4x16x24xf64>
    %33 = tosa.equal %32, %13 : (tensor<2x4x16x24xf64>, tensor<1x1x1x1xf64>) -> tensor<2x4x16x24xi1>
    %34 = tosa.reduce_all %33 {axis = 3 : i32} : (tensor<2x4x16x24xi1>) -> tensor<2x4x16x1xi1>
    %35 = tosa.select %34, %0, %31 : (tensor<2x4x16x1xi1>, tensor<2x4x16x24xf32>, tensor<2x4x16x24xf32>) -> tensor<2x4x16x24xf32>
    %36 = tosa.reshape %35, %9 : (tensor<2x4x16x24xf32>, !tosa.shape<3>) -> tensor<8x16x24xf32>
    %37 = tosa.reshape %19, %10 : (tensor<2x2x2x24x32xf32>, !tosa.shape<3>) -> tensor<8x24x32xf32>
    %38 = tosa.matmul %36, %37, %7, %7 : (tensor<8x16x24xf32>, tensor<8x24x32xf32>, tensor<1xf32>, tensor<1xf32>) -> tensor<8x16x32xf32>
    %39 = tosa.reshape %38, %11 : (tensor<8x16x32xf32>, !tosa.shape<4>) -> tensor<2x4x16x32xf32>
    return %39 : tensor<2x4x16x32xf32>
  }
}
