// sdpa_bool_mask (SdpaMask), exported by
// scripts/export_torch_mlir_cases.py (torch 2.15.0+cu132, torch_mlir.fx, output tosa).
// RUN: attention-opt %s --attn-raise-pipeline | FileCheck %s
// RUN: attn-raise-check %s --require-raised --runs=2 --seed=24 | FileCheck %s --check-prefix=PROOF --implicit-check-not=FAIL
// CHECK: attn.attention {{.*}}mask(%arg3 : tensor<2x1x16x24xi1>) {scale = 0.17677{{[0-9]+}} : f32}
// CHECK-NOT: linalg.
// PROOF: @sdpa_bool_mask: 1 attn.attention after the raising
// PROOF: run 1 result 0 {{.*}}: PASS
module {
  func.func @sdpa_bool_mask(%arg0: tensor<2x4x16x32xf32>, %arg1: tensor<2x4x24x32xf32>, %arg2: tensor<2x4x24x32xf32>, %arg3: tensor<2x1x16x24xi1>) -> tensor<2x4x16x32xf32> {
    %0 = "tosa.const"() <{values = dense<0.000000e+00> : tensor<2x4x16x24xf32>}> : () -> tensor<2x4x16x24xf32>
    %1 = "tosa.const"() <{values = dense<0> : tensor<1xi8>}> : () -> tensor<1xi8>
    %2 = tosa.const_shape  {values = dense<[8, 16, 32]> : tensor<3xindex>} : () -> !tosa.shape<3>
    %3 = tosa.const_shape  {values = dense<[8, 32, 24]> : tensor<3xindex>} : () -> !tosa.shape<3>
    %4 = "tosa.const"() <{values = dense<0.000000e+00> : tensor<1xf32>}> : () -> tensor<1xf32>
    %5 = tosa.const_shape  {values = dense<[2, 4, 16, 24]> : tensor<4xindex>} : () -> !tosa.shape<4>
    %6 = tosa.const_shape  {values = dense<[8, 16, 24]> : tensor<3xindex>} : () -> !tosa.shape<3>
    %7 = tosa.const_shape  {values = dense<[8, 24, 32]> : tensor<3xindex>} : () -> !tosa.shape<3>
    %8 = tosa.const_shape  {values = dense<[2, 4, 16, 32]> : tensor<4xindex>} : () -> !tosa.shape<4>
    %9 = "tosa.const"() <{values = dense<0.000000e+00> : tensor<1x1x1x1xf32>}> : () -> tensor<1x1x1x1xf32>
    %10 = "tosa.const"() <{values = dense<0xFF800000> : tensor<1x1x1x1xf32>}> : () -> tensor<1x1x1x1xf32>
    %11 = "tosa.const"() <{values = dense<0.420448214> : tensor<1x1x1x1xf32>}> : () -> tensor<1x1x1x1xf32>
    %12 = "tosa.const"() <{values = dense<0xFFF0000000000000> : tensor<1x1x1x1xf64>}> : () -> tensor<1x1x1x1xf64>
    %13 = tosa.select %arg3, %9, %10 : (tensor<2x1x16x24xi1>, tensor<1x1x1x1xf32>, tensor<1x1x1x1xf32>) -> tensor<2x1x16x24xf32>
    %14 = tosa.mul %arg0, %11, %1 : (tensor<2x4x16x32xf32>, tensor<1x1x1x1xf32>, tensor<1xi8>) -> tensor<2x4x16x32xf32>
    %15 = tosa.transpose %arg1 {perms = array<i32: 0, 1, 3, 2>} : (tensor<2x4x24x32xf32>) -> tensor<2x4x32x24xf32>
    %16 = tosa.mul %15, %11, %1 : (tensor<2x4x32x24xf32>, tensor<1x1x1x1xf32>, tensor<1xi8>) -> tensor<2x4x32x24xf32>
    %17 = tosa.reshape %14, %2 : (tensor<2x4x16x32xf32>, !tosa.shape<3>) -> tensor<8x16x32xf32>
    %18 = tosa.reshape %16, %3 : (tensor<2x4x32x24xf32>, !tosa.shape<3>) -> tensor<8x32x24xf32>
    %19 = tosa.matmul %17, %18, %4, %4 : (tensor<8x16x32xf32>, tensor<8x32x24xf32>, tensor<1xf32>, tensor<1xf32>) -> tensor<8x16x24xf32>
    %20 = tosa.reshape %19, %5 : (tensor<8x16x24xf32>, !tosa.shape<4>) -> tensor<2x4x16x24xf32>
    %21 = tosa.add %20, %13 : (tensor<2x4x16x24xf32>, tensor<2x1x16x24xf32>) -> tensor<2x4x16x24xf32>
    %22 = tosa.reduce_max %21 {axis = 3 : i32} : (tensor<2x4x16x24xf32>) -> tensor<2x4x16x1xf32>
    %23 = tosa.sub %21, %22 : (tensor<2x4x16x24xf32>, tensor<2x4x16x1xf32>) -> tensor<2x4x16x24xf32>
    %24 = tosa.exp %23 : (tensor<2x4x16x24xf32>) -> tensor<2x4x16x24xf32>
    %25 = tosa.reduce_sum %24 {axis = 3 : i32} : (tensor<2x4x16x24xf32>) -> tensor<2x4x16x1xf32>
    %26 = tosa.reciprocal %25 : (tensor<2x4x16x1xf32>) -> tensor<2x4x16x1xf32>
    %27 = tosa.mul %24, %26, %1 : (tensor<2x4x16x24xf32>, tensor<2x4x16x1xf32>, tensor<1xi8>) -> tensor<2x4x16x24xf32>
    %28 = tosa.cast %21 : (tensor<2x4x16x24xf32>) -> tensor<2x4x16x24xf64>
    %29 = tosa.equal %28, %12 : (tensor<2x4x16x24xf64>, tensor<1x1x1x1xf64>) -> tensor<2x4x16x24xi1>
    %30 = tosa.reduce_all %29 {axis = 3 : i32} : (tensor<2x4x16x24xi1>) -> tensor<2x4x16x1xi1>
    %31 = tosa.select %30, %0, %27 : (tensor<2x4x16x1xi1>, tensor<2x4x16x24xf32>, tensor<2x4x16x24xf32>) -> tensor<2x4x16x24xf32>
    %32 = tosa.reshape %31, %6 : (tensor<2x4x16x24xf32>, !tosa.shape<3>) -> tensor<8x16x24xf32>
    %33 = tosa.reshape %arg2, %7 : (tensor<2x4x24x32xf32>, !tosa.shape<3>) -> tensor<8x24x32xf32>
    %34 = tosa.matmul %32, %33, %4, %4 : (tensor<8x16x24xf32>, tensor<8x24x32xf32>, tensor<1xf32>, tensor<1xf32>) -> tensor<8x16x32xf32>
    %35 = tosa.reshape %34, %8 : (tensor<8x16x32xf32>, !tosa.shape<4>) -> tensor<2x4x16x32xf32>
    return %35 : tensor<2x4x16x32xf32>
  }
}
