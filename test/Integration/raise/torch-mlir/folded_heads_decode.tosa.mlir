// folded_heads_decode (FoldedHeadsDecode: Heads folded into the batch: K q and p V as batched matrix-vector products on [B*H, T, D].), exported by
// scripts/export_torch_mlir_cases.py (torch 2.15.0+cu132, torch_mlir.fx, output tosa).
// RUN: attention-opt %s --attn-raise-pipeline | FileCheck %s
// RUN: attn-raise-check %s --require-raised --runs=2 --seed=79 | FileCheck %s --check-prefix=PROOF --implicit-check-not=FAIL
// CHECK: attn.attention {{.*}}tensor<1x8x1x32xf32>, tensor<1x8x24x32xf32>, tensor<1x8x24x32xf32>) {scale = 0.17677{{[0-9]+}} : f32}
// CHECK-NOT: linalg.
// PROOF: @folded_heads_decode: 1 attn.attention after the raising
// PROOF: run 1 result 0 {{.*}}: PASS
module {
  func.func @folded_heads_decode(%arg0: tensor<8x32xf32>, %arg1: tensor<8x24x32xf32>, %arg2: tensor<8x24x32xf32>) -> tensor<8x32xf32> {
    %0 = tosa.const_shape  {values = dense<[8, 32, 1]> : tensor<3xindex>} : () -> !tosa.shape<3>
    %1 = "tosa.const"() <{values = dense<0.000000e+00> : tensor<1xf32>}> : () -> tensor<1xf32>
    %2 = tosa.const_shape  {values = dense<[8, 24]> : tensor<2xindex>} : () -> !tosa.shape<2>
    %3 = "tosa.const"() <{values = dense<0> : tensor<1xi8>}> : () -> tensor<1xi8>
    %4 = tosa.const_shape  {values = dense<[8, 1, 24]> : tensor<3xindex>} : () -> !tosa.shape<3>
    %5 = tosa.const_shape  {values = dense<[8, 32]> : tensor<2xindex>} : () -> !tosa.shape<2>
    %6 = "tosa.const"() <{values = dense<0.176776692> : tensor<1x1xf32>}> : () -> tensor<1x1xf32>
    %7 = tosa.reshape %arg0, %0 : (tensor<8x32xf32>, !tosa.shape<3>) -> tensor<8x32x1xf32>
    %8 = tosa.matmul %arg1, %7, %1, %1 : (tensor<8x24x32xf32>, tensor<8x32x1xf32>, tensor<1xf32>, tensor<1xf32>) -> tensor<8x24x1xf32>
    %9 = tosa.reshape %8, %2 : (tensor<8x24x1xf32>, !tosa.shape<2>) -> tensor<8x24xf32>
    %10 = tosa.mul %9, %6, %3 : (tensor<8x24xf32>, tensor<1x1xf32>, tensor<1xi8>) -> tensor<8x24xf32>
    %11 = tosa.reduce_max %10 {axis = 1 : i32} : (tensor<8x24xf32>) -> tensor<8x1xf32>
    %12 = tosa.sub %10, %11 : (tensor<8x24xf32>, tensor<8x1xf32>) -> tensor<8x24xf32>
    %13 = tosa.exp %12 : (tensor<8x24xf32>) -> tensor<8x24xf32>
    %14 = tosa.reduce_sum %13 {axis = 1 : i32} : (tensor<8x24xf32>) -> tensor<8x1xf32>
    %15 = tosa.reciprocal %14 : (tensor<8x1xf32>) -> tensor<8x1xf32>
    %16 = tosa.mul %13, %15, %3 : (tensor<8x24xf32>, tensor<8x1xf32>, tensor<1xi8>) -> tensor<8x24xf32>
    %17 = tosa.reshape %16, %4 : (tensor<8x24xf32>, !tosa.shape<3>) -> tensor<8x1x24xf32>
    %18 = tosa.matmul %17, %arg2, %1, %1 : (tensor<8x1x24xf32>, tensor<8x24x32xf32>, tensor<1xf32>, tensor<1xf32>) -> tensor<8x1x32xf32>
    %19 = tosa.reshape %18, %5 : (tensor<8x1x32xf32>, !tosa.shape<2>) -> tensor<8x32xf32>
    return %19 : tensor<8x32xf32>
  }
}
