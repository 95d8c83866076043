// llama_gqa_bf16 (LlamaGqa), exported by
// scripts/export_torch_mlir_cases.py (torch 2.15.0+cu132, torch_mlir.fx, output tosa).
// RUN: attention-opt %s --attn-raise-pipeline | FileCheck %s
// RUN: attn-raise-check %s --require-raised --runs=2 --seed=12 | FileCheck %s --check-prefix=PROOF --implicit-check-not=FAIL
// CHECK: attn.attention {{.*}}tensor<2x2x24x32xbf16>) {scale = 0.1767{{[0-9]+}} : f32}
// CHECK-NOT: linalg.
// PROOF: @llama_gqa_bf16: 1 attn.attention after the raising
// PROOF: run 1 result 0 {{.*}}: PASS
module {
  func.func @llama_gqa_bf16(%arg0: tensor<2x4x16x32xbf16>, %arg1: tensor<2x2x24x32xbf16>, %arg2: tensor<2x2x24x32xbf16>) -> tensor<2x4x16x32xbf16> {
    %0 = tosa.const_shape  {values = dense<[2, 2, 1, 24, 32]> : tensor<5xindex>} : () -> !tosa.shape<5>
    %1 = tosa.const_shape  {values = dense<[1, 1, 2, 1, 1]> : tensor<5xindex>} : () -> !tosa.shape<5>
    %2 = tosa.const_shape  {values = dense<[2, 4, 24, 32]> : tensor<4xindex>} : () -> !tosa.shape<4>
    %3 = tosa.const_shape  {values = dense<[8, 16, 32]> : tensor<3xindex>} : () -> !tosa.shape<3>
    %4 = tosa.const_shape  {values = dense<[8, 32, 24]> : tensor<3xindex>} : () -> !tosa.shape<3>
    %5 = "tosa.const"() <{values = dense<0.000000e+00> : tensor<1xbf16>}> : () -> tensor<1xbf16>
    %6 = tosa.const_shape  {values = dense<[2, 4, 16, 24]> : tensor<4xindex>} : () -> !tosa.shape<4>
    %7 = "tosa.const"() <{values = dense<0> : tensor<1xi8>}> : () -> tensor<1xi8>
    %8 = tosa.const_shape  {values = dense<[8, 16, 24]> : tensor<3xindex>} : () -> !tosa.shape<3>
    %9 = tosa.const_shape  {values = dense<[8, 24, 32]> : tensor<3xindex>} : () -> !tosa.shape<3>
    %10 = tosa.const_shape  {values = dense<[2, 4, 16, 32]> : tensor<4xindex>} : () -> !tosa.shape<4>
    %11 = "tosa.const"() <{values = dense<1.767580e-01> : tensor<1x1x1x1xbf16>}> : () -> tensor<1x1x1x1xbf16>
    %12 = tosa.reshape %arg1, %0 : (tensor<2x2x24x32xbf16>, !tosa.shape<5>) -> tensor<2x2x1x24x32xbf16>
    %13 = tosa.tile %12, %1 : (tensor<2x2x1x24x32xbf16>, !tosa.shape<5>) -> tensor<2x2x2x24x32xbf16>
    %14 = tosa.reshape %13, %2 : (tensor<2x2x2x24x32xbf16>, !tosa.shape<4>) -> tensor<2x4x24x32xbf16>
    %15 = tosa.reshape %arg2, %0 : (tensor<2x2x24x32xbf16>, !tosa.shape<5>) -> tensor<2x2x1x24x32xbf16>
    %16 = tosa.tile %15, %1 : (tensor<2x2x1x24x32xbf16>, !tosa.shape<5>) -> tensor<2x2x2x24x32xbf16>
    %17 = tosa.transpose %14 {perms = array<i32: 0, 1, 3, 2>} : (tensor<2x4x24x32xbf16>) -> tensor<2x4x32x24xbf16>
    %18 = tosa.reshape %arg0, %3 : (tensor<2x4x16x32xbf16>, !tosa.shape<3>) -> tensor<8x16x32xbf16>
    %19 = tosa.reshape %17, %4 : (tensor<2x4x32x24xbf16>, !tosa.shape<3>) -> tensor<8x32x24xbf16>
    %20 = tosa.matmul %18, %19, %5, %5 : (tensor<8x16x32xbf16>, tensor<8x32x24xbf16>, tensor<1xbf16>, tensor<1xbf16>) -> tensor<8x16x24xf32>
    %21 = tosa.cast %20 : (tensor<8x16x24xf32>) -> tensor<8x16x24xbf16>
    %22 = tosa.reshape %21, %6 : (tensor<8x16x24xbf16>, !tosa.shape<4>) -> tensor<2x4x16x24xbf16>
    %23 = tosa.mul %22, %11, %7 : (tensor<2x4x16x24xbf16>, tensor<1x1x1x1xbf16>, tensor<1xi8>) -> tensor<2x4x16x24xbf16>
    %24 = tosa.cast %23 : (tensor<2x4x16x24xbf16>) -> tensor<2x4x16x24xf32>
    %25 = tosa.reduce_max %24 {axis = 3 : i32} : (tensor<2x4x16x24xf32>) -> tensor<2x4x16x1xf32>
    %26 = tosa.sub %24, %25 : (tensor<2x4x16x24xf32>, tensor<2x4x16x1xf32>) -> tensor<2x4x16x24xf32>
    %27 = tosa.exp %26 : (tensor<2x4x16x24xf32>) -> tensor<2x4x16x24xf32>
    %28 = tosa.reduce_sum %27 {axis = 3 : i32} : (tensor<2x4x16x24xf32>) -> tensor<2x4x16x1xf32>
    %29 = tosa.reciprocal %28 : (tensor<2x4x16x1xf32>) -> tensor<2x4x16x1xf32>
    %30 = tosa.mul %27, %29, %7 : (tensor<2x4x16x24xf32>, tensor<2x4x16x1xf32>, tensor<1xi8>) -> tensor<2x4x16x24xf32>
    %31 = tosa.cast %30 : (tensor<2x4x16x24xf32>) -> tensor<2x4x16x24xbf16>
    %32 = tosa.reshape %31, %8 : (tensor<2x4x16x24xbf16>, !tosa.shape<3>) -> tensor<8x16x24xbf16>
    %33 = tosa.reshape %16, %9 : (tensor<2x2x2x24x32xbf16>, !tosa.shape<3>) -> tensor<8x24x32xbf16>
    %34 = tosa.matmul %32, %33, %5, %5 : (tensor<8x16x24xbf16>, tensor<8x24x32xbf16>, tensor<1xbf16>, tensor<1xbf16>) -> tensor<8x16x32xf32>
    %35 = tosa.cast %34 : (tensor<8x16x32xf32>) -> tensor<8x16x32xbf16>
    %36 = tosa.reshape %35, %10 : (tensor<8x16x32xbf16>, !tosa.shape<4>) -> tensor<2x4x16x32xbf16>
    return %36 : tensor<2x4x16x32xbf16>
  }
}
