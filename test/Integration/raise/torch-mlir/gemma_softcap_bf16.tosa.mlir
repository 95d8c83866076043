// gemma_softcap_bf16 (GemmaSoftcap), exported by
// scripts/export_torch_mlir_cases.py (torch 2.15.0+cu132, torch_mlir.fx, output tosa).
// RUN: attention-opt %s --attn-raise-pipeline | FileCheck %s
// RUN: attn-raise-check %s --require-raised --runs=2 --seed=14 | FileCheck %s --check-prefix=PROOF --implicit-check-not=FAIL
// CHECK: attn.attention {{.*}}{scale = 0.1767{{[0-9]+}} : f32, softcap = 5.000000e+01 : f32}
// CHECK-NOT: linalg.
// PROOF: @gemma_softcap_bf16: 1 attn.attention after the raising
// PROOF: run 1 result 0 {{.*}}: PASS
module {
  func.func @gemma_softcap_bf16(%arg0: tensor<2x4x16x32xbf16>, %arg1: tensor<2x4x24x32xbf16>, %arg2: tensor<2x4x24x32xbf16>) -> tensor<2x4x16x32xbf16> {
    %0 = tosa.const_shape  {values = dense<[8, 16, 32]> : tensor<3xindex>} : () -> !tosa.shape<3>
    %1 = tosa.const_shape  {values = dense<[8, 32, 24]> : tensor<3xindex>} : () -> !tosa.shape<3>
    %2 = "tosa.const"() <{values = dense<0.000000e+00> : tensor<1xbf16>}> : () -> tensor<1xbf16>
    %3 = tosa.const_shape  {values = dense<[2, 4, 16, 24]> : tensor<4xindex>} : () -> !tosa.shape<4>
    %4 = "tosa.const"() <{values = dense<0> : tensor<1xi8>}> : () -> tensor<1xi8>
    %5 = tosa.const_shape  {values = dense<[8, 16, 24]> : tensor<3xindex>} : () -> !tosa.shape<3>
    %6 = tosa.const_shape  {values = dense<[8, 24, 32]> : tensor<3xindex>} : () -> !tosa.shape<3>
    %7 = tosa.const_shape  {values = dense<[2, 4, 16, 32]> : tensor<4xindex>} : () -> !tosa.shape<4>
    %8 = "tosa.const"() <{values = dense<1.767580e-01> : tensor<1x1x1x1xbf16>}> : () -> tensor<1x1x1x1xbf16>
    %9 = "tosa.const"() <{values = dense<2.001950e-02> : tensor<1x1x1x1xbf16>}> : () -> tensor<1x1x1x1xbf16>
    %10 = "tosa.const"() <{values = dense<5.000000e+01> : tensor<1x1x1x1xbf16>}> : () -> tensor<1x1x1x1xbf16>
    %11 = tosa.transpose %arg1 {perms = array<i32: 0, 1, 3, 2>} : (tensor<2x4x24x32xbf16>) -> tensor<2x4x32x24xbf16>
    %12 = tosa.reshape %arg0, %0 : (tensor<2x4x16x32xbf16>, !tosa.shape<3>) -> tensor<8x16x32xbf16>
    %13 = tosa.reshape %11, %1 : (tensor<2x4x32x24xbf16>, !tosa.shape<3>) -> tensor<8x32x24xbf16>
    %14 = tosa.matmul %12, %13, %2, %2 : (tensor<8x16x32xbf16>, tensor<8x32x24xbf16>, tensor<1xbf16>, tensor<1xbf16>) -> tensor<8x16x24xf32>
    %15 = tosa.cast %14 : (tensor<8x16x24xf32>) -> tensor<8x16x24xbf16>
    %16 = tosa.reshape %15, %3 : (tensor<8x16x24xbf16>, !tosa.shape<4>) -> tensor<2x4x16x24xbf16>
    %17 = tosa.mul %16, %8, %4 : (tensor<2x4x16x24xbf16>, tensor<1x1x1x1xbf16>, tensor<1xi8>) -> tensor<2x4x16x24xbf16>
    %18 = tosa.mul %17, %9, %4 : (tensor<2x4x16x24xbf16>, tensor<1x1x1x1xbf16>, tensor<1xi8>) -> tensor<2x4x16x24xbf16>
    %19 = tosa.tanh %18 : (tensor<2x4x16x24xbf16>) -> tensor<2x4x16x24xbf16>
    %20 = tosa.mul %19, %10, %4 : (tensor<2x4x16x24xbf16>, tensor<1x1x1x1xbf16>, tensor<1xi8>) -> tensor<2x4x16x24xbf16>
    %21 = tosa.cast %20 : (tensor<2x4x16x24xbf16>) -> tensor<2x4x16x24xf32>
    %22 = tosa.reduce_max %21 {axis = 3 : i32} : (tensor<2x4x16x24xf32>) -> tensor<2x4x16x1xf32>
    %23 = tosa.sub %21, %22 : (tensor<2x4x16x24xf32>, tensor<2x4x16x1xf32>) -> tensor<2x4x16x24xf32>
    %24 = tosa.exp %23 : (tensor<2x4x16x24xf32>) -> tensor<2x4x16x24xf32>
    %25 = tosa.reduce_sum %24 {axis = 3 : i32} : (tensor<2x4x16x24xf32>) -> tensor<2x4x16x1xf32>
    %26 = tosa.reciprocal %25 : (tensor<2x4x16x1xf32>) -> tensor<2x4x16x1xf32>
    %27 = tosa.mul %24, %26, %4 : (tensor<2x4x16x24xf32>, tensor<2x4x16x1xf32>, tensor<1xi8>) -> tensor<2x4x16x24xf32>
    %28 = tosa.cast %27 : (tensor<2x4x16x24xf32>) -> tensor<2x4x16x24xbf16>
    %29 = tosa.reshape %28, %5 : (tensor<2x4x16x24xbf16>, !tosa.shape<3>) -> tensor<8x16x24xbf16>
    %30 = tosa.reshape %arg2, %6 : (tensor<2x4x24x32xbf16>, !tosa.shape<3>) -> tensor<8x24x32xbf16>
    %31 = tosa.matmul %29, %30, %2, %2 : (tensor<8x16x24xbf16>, tensor<8x24x32xbf16>, tensor<1xbf16>, tensor<1xbf16>) -> tensor<8x16x32xf32>
    %32 = tosa.cast %31 : (tensor<8x16x32xf32>) -> tensor<8x16x32xbf16>
    %33 = tosa.reshape %32, %7 : (tensor<8x16x32xbf16>, !tosa.shape<4>) -> tensor<2x4x16x32xbf16>
    return %33 : tensor<2x4x16x32xbf16>
  }
}
