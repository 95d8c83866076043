// alibi_decode (AlibiDecode: A decode step with ALiBi: slope_h * (j - (Lk - 1)) added.), exported by
// scripts/export_torch_mlir_cases.py (torch 2.15.0+cu132, torch_mlir.fx, output tosa).
// RUN: attention-opt %s --attn-raise-pipeline | FileCheck %s
// RUN: attn-raise-check %s --require-raised --runs=2 --seed=86 | FileCheck %s --check-prefix=PROOF --implicit-check-not=FAIL
// CHECK: attn.attention {{.*}}mask({{.*}} : tensor<1x4x1x24xf32>) {scale = 0.17677{{[0-9]+}} : f32}
// PROOF: @alibi_decode: 1 attn.attention after the raising
// PROOF: run 1 result 0 {{.*}}: PASS
module {
  func.func @alibi_decode(%arg0: tensor<2x4x32xf32>, %arg1: tensor<2x4x24x32xf32>, %arg2: tensor<2x4x24x32xf32>, %arg3: tensor<4xf32>) -> tensor<2x4x32xf32> {
    %0 = tosa.const_shape  {values = dense<[8, 1, 32]> : tensor<3xindex>} : () -> !tosa.shape<3>
    %1 = tosa.const_shape  {values = dense<[8, 32, 24]> : tensor<3xindex>} : () -> !tosa.shape<3>
    %2 = "tosa.const"() <{values = dense<0.000000e+00> : tensor<1xf32>}> : () -> tensor<1xf32>
    %3 = tosa.const_shape  {values = dense<[2, 4, 24]> : tensor<3xindex>} : () -> !tosa.shape<3>
    %4 = "tosa.const"() <{values = dense<0> : tensor<1xi8>}> : () -> tensor<1xi8>
    %5 = "tosa.const"() <{values = dense<[0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16, 17, 18, 19, 20, 21, 22, 23]> : tensor<24xi64>}> : () -> tensor<24xi64>
    %6 = tosa.const_shape  {values = dense<[1, 4, 1]> : tensor<3xindex>} : () -> !tosa.shape<3>
    %7 = tosa.const_shape  {values = dense<[1, 1, 24]> : tensor<3xindex>} : () -> !tosa.shape<3>
    %8 = tosa.const_shape  {values = dense<[8, 1, 24]> : tensor<3xindex>} : () -> !tosa.shape<3>
    %9 = tosa.const_shape  {values = dense<[8, 24, 32]> : tensor<3xindex>} : () -> !tosa.shape<3>
    %10 = tosa.const_shape  {values = dense<[2, 4, 32]> : tensor<3xindex>} : () -> !tosa.shape<3>
    %11 = "tosa.const"() <{values = dense<0.176776692> : tensor<1x1x1xf32>}> : () -> tensor<1x1x1xf32>
    %12 = "tosa.const"() <{values = dense<2.300000e+01> : tensor<1x1x1xf32>}> : () -> tensor<1x1x1xf32>
    %13 = tosa.reshape %arg0, %0 : (tensor<2x4x32xf32>, !tosa.shape<3>) -> tensor<8x1x32xf32>
    %14 = tosa.transpose %arg1 {perms = array<i32: 0, 1, 3, 2>} : (tensor<2x4x24x32xf32>) -> tensor<2x4x32x24xf32>
    %15 = tosa.reshape %14, %1 : (tensor<2x4x32x24xf32>, !tosa.shape<3>) -> tensor<8x32x24xf32>
    %16 = tosa.matmul %13, %15, %2, %2 : (tensor<8x1x32xf32>, tensor<8x32x24xf32>, tensor<1xf32>, tensor<1xf32>) -> tensor<8x1x24xf32>
    %17 = tosa.reshape %16, %3 : (tensor<8x1x24xf32>, !tosa.shape<3>) -> tensor<2x4x24xf32>
    %18 = tosa.mul %17, %11, %4 : (tensor<2x4x24xf32>, tensor<1x1x1xf32>, tensor<1xi8>) -> tensor<2x4x24xf32>
    %19 = tosa.cast %5 : (tensor<24xi64>) -> tensor<24xf32>
    %20 = tosa.reshape %arg3, %6 : (tensor<4xf32>, !tosa.shape<3>) -> tensor<1x4x1xf32>
    %21 = tosa.reshape %19, %7 : (tensor<24xf32>, !tosa.shape<3>) -> tensor<1x1x24xf32>
    %22 = tosa.sub %21, %12 : (tensor<1x1x24xf32>, tensor<1x1x1xf32>) -> tensor<1x1x24xf32>
    %23 = tosa.mul %20, %22, %4 : (tensor<1x4x1xf32>, tensor<1x1x24xf32>, tensor<1xi8>) -> tensor<1x4x24xf32>
    %24 = tosa.add %18, %23 : (tensor<2x4x24xf32>, tensor<1x4x24xf32>) -> tensor<2x4x24xf32>
    %25 = tosa.reduce_max %24 {axis = 2 : i32} : (tensor<2x4x24xf32>) -> tensor<2x4x1xf32>
    %26 = tosa.sub %24, %25 : (tensor<2x4x24xf32>, tensor<2x4x1xf32>) -> tensor<2x4x24xf32>
    %27 = tosa.exp %26 : (tensor<2x4x24xf32>) -> tensor<2x4x24xf32>
    %28 = tosa.reduce_sum %27 {axis = 2 : i32} : (tensor<2x4x24xf32>) -> tensor<2x4x1xf32>
    %29 = tosa.reciprocal %28 : (tensor<2x4x1xf32>) -> tensor<2x4x1xf32>
    %30 = tosa.mul %27, %29, %4 : (tensor<2x4x24xf32>, tensor<2x4x1xf32>, tensor<1xi8>) -> tensor<2x4x24xf32>
    %31 = tosa.reshape %30, %8 : (tensor<2x4x24xf32>, !tosa.shape<3>) -> tensor<8x1x24xf32>
    %32 = tosa.reshape %arg2, %9 : (tensor<2x4x24x32xf32>, !tosa.shape<3>) -> tensor<8x24x32xf32>
    %33 = tosa.matmul %31, %32, %2, %2 : (tensor<8x1x24xf32>, tensor<8x24x32xf32>, tensor<1xf32>, tensor<1xf32>) -> tensor<8x1x32xf32>
    %34 = tosa.reshape %33, %10 : (tensor<8x1x32xf32>, !tosa.shape<3>) -> tensor<2x4x32xf32>
    return %34 : tensor<2x4x32xf32>
  }
}
