// sdpa_batch1 (SdpaBatch1: F.scaled_dot_product_attention at a batch of 1 (inference): PyTorch scales q and k by sqrt(scale) before folding the heads into the batch, a collapse of a unit dim.), exported by
// scripts/export_torch_mlir_cases.py (torch 2.15.0+cu132, torch_mlir.fx, output tosa).
// RUN: attention-opt %s --attn-raise-pipeline | FileCheck %s
// RUN: attn-raise-check %s --require-raised --runs=2 --seed=94 | FileCheck %s --check-prefix=PROOF --implicit-check-not=FAIL
// CHECK: attn.attention {{.*}}tensor<1x4x24x32xf32>) {scale = 0.17677{{[0-9]+}} : f32}
// CHECK-NOT: linalg.
// PROOF: @sdpa_batch1: 1 attn.attention after the raising
// PROOF: run 1 result 0 {{.*}}: PASS
module {
  func.func @sdpa_batch1(%arg0: tensor<1x4x16x32xf32>, %arg1: tensor<1x4x24x32xf32>, %arg2: tensor<1x4x24x32xf32>) -> tensor<1x4x16x32xf32> {
    %0 = "tosa.const"() <{values = dense<0.000000e+00> : tensor<1x4x16x24xf32>}> : () -> tensor<1x4x16x24xf32>
    %1 = "tosa.const"() <{values = dense<0> : tensor<1xi8>}> : () -> tensor<1xi8>
    %2 = tosa.const_shape  {values = dense<[4, 16, 32]> : tensor<3xindex>} : () -> !tosa.shape<3>
    %3 = tosa.const_shape  {values = dense<[4, 32, 24]> : tensor<3xindex>} : () -> !tosa.shape<3>
    %4 = "tosa.const"() <{values = dense<0.000000e+00> : tensor<1xf32>}> : () -> tensor<1xf32>
    %5 = tosa.const_shape  {values = dense<[1, 4, 16, 24]> : tensor<4xindex>} : () -> !tosa.shape<4>
    %6 = tosa.const_shape  {values = dense<[4, 16, 24]> : tensor<3xindex>} : () -> !tosa.shape<3>
    %7 = tosa.const_shape  {values = dense<[4, 24, 32]> : tensor<3xindex>} : () -> !tosa.shape<3>
    %8 = tosa.const_shape  {values = dense<[1, 4, 16, 32]> : tensor<4xindex>} : () -> !tosa.shape<4>
    %9 = "tosa.const"() <{values = dense<0.420448214> : tensor<1x1x1x1xf32>}> : () -> tensor<1x1x1x1xf32>
    %10 = "tosa.const"() <{values = dense<0xFFF0000000000000> : tensor<1x1x1x1xf64>}> : () -> tensor<1x1x1x1xf64>
    %11 = tosa.mul %arg0, %9, %1 : (tensor<1x4x16x32xf32>, tensor<1x1x1x1xf32>, tensor<1xi8>) -> tensor<1x4x16x32xf32>
    %12 = tosa.transpose %arg1 {perms = array<i32: 0, 1, 3, 2>} : (tensor<1x4x24x32xf32>) -> tensor<1x4x32x24xf32>
    %13 = tosa.mul %12, %9, %1 : (tensor<1x4x32x24xf32>, tensor<1x1x1x1xf32>, tensor<1xi8>) -> tensor<1x4x32x24xf32>
    %14 = tosa.reshape %11, %2 : (tensor<1x4x16x32xf32>, !tosa.shape<3>) -> tensor<4x16x32xf32>
    %15 = tosa.reshape %13, %3 : (tensor<1x4x32x24xf32>, !tosa.shape<3>) -> tensor<4x32x24xf32>
    %16 = tosa.matmul %14, %15, %4, %4 : (tensor<4x16x32xf32>, tensor<4x32x24xf32>, tensor<1xf32>, tensor<1xf32>) -> tensor<4x16x24xf32>
    %17 = tosa.reshape %16, %5 : (tensor<4x16x24xf32>, !tosa.shape<4>) -> tensor<1x4x16x24xf32>
    %18 = tosa.reduce_max %17 {axis = 3 : i32} : (tensor<1x4x16x24xf32>) -> tensor<1x4x16x1xf32>
    %19 = tosa.sub %17, %18 : (tensor<1x4x16x24xf32>, tensor<1x4x16x1xf32>) -> tensor<1x4x16x24xf32>
    %20 = tosa.exp %19 : (tensor<1x4x16x24xf32>) -> tensor<1x4x16x24xf32>
    %21 = tosa.reduce_sum %20 {axis = 3 : i32} : (tensor<1x4x16x24xf32>) -> tensor<1x4x16x1xf32>
    %22 = tosa.reciprocal %21 : (tensor<1x4x16x1xf32>) -> tensor<1x4x16x1xf32>
    %23 = tosa.mul %20, %22, %1 : (tensor<1x4x16x24xf32>, tensor<1x4x16x1xf32>, tensor<1xi8>) -> tensor<1x4x16x24xf32>
    %24 = tosa.cast %17 : (tensor<1x4x16x24xf32>) -> tensor<1x4x16x24xf64>
    %25 = tosa.equal %24, %10 : (tensor<1x4x16x24xf64>, tensor<1x1x1x1xf64>) -> tensor<1x4x16x24xi1>
    %26 = tosa.reduce_all %25 {axis = 3 : i32} : (tensor<1x4x16x24xi1>) -> tensor<1x4x16x1xi1>
    %27 = tosa.select %26, %0, %23 : (tensor<1x4x16x1xi1>, tensor<1x4x16x24xf32>, tensor<1x4x16x24xf32>) -> tensor<1x4x16x24xf32>
    %28 = tosa.reshape %27, %6 : (tensor<1x4x16x24xf32>, !tosa.shape<3>) -> tensor<4x16x24xf32>
    %29 = tosa.reshape %arg2, %7 : (tensor<1x4x24x32xf32>, !tosa.shape<3>) -> tensor<4x24x32xf32>
    %30 = tosa.matmul %28, %29, %4, %4 : (tensor<4x16x24xf32>, tensor<4x24x32xf32>, tensor<1xf32>, tensor<1xf32>) -> tensor<4x16x32xf32>
    %31 = tosa.reshape %30, %8 : (tensor<4x16x32xf32>, !tosa.shape<4>) -> tensor<1x4x16x32xf32>
    return %31 : tensor<1x4x16x32xf32>
  }
}
