// cache_layout_decode_bf16 (CacheLayoutDecode: A cache laid out [B, T, H, D] (JAX, vLLM), bf16 products and an f32 softmax.), exported by
// scripts/export_torch_mlir_cases.py (torch 2.15.0+cu132, torch_mlir.fx, output tosa).
// RUN: attention-opt %s --attn-raise-pipeline | FileCheck %s
// RUN: attn-raise-check %s --require-raised --runs=2 --seed=75 | FileCheck %s --check-prefix=PROOF --implicit-check-not=FAIL
// CHECK: attn.attention {{.*}}tensor<2x4x1x32xbf16>, tensor<2x4x24x32xbf16>, tensor<2x4x24x32xbf16>) {scale = 0.17677{{[0-9]+}} : f32}
// PROOF: @cache_layout_decode_bf16: 1 attn.attention after the raising
// PROOF: run 1 result 0 {{.*}}: PASS
module {
  func.func @cache_layout_decode_bf16(%arg0: tensor<2x4x32xbf16>, %arg1: tensor<2x24x4x32xbf16>, %arg2: tensor<2x24x4x32xbf16>) -> tensor<2x4x32xbf16> {
    %0 = tosa.const_shape  {values = dense<[8, 1, 32]> : tensor<3xindex>} : () -> !tosa.shape<3>
    %1 = tosa.const_shape  {values = dense<[8, 32, 24]> : tensor<3xindex>} : () -> !tosa.shape<3>
    %2 = "tosa.const"() <{values = dense<0.000000e+00> : tensor<1xbf16>}> : () -> tensor<1xbf16>
    %3 = tosa.const_shape  {values = dense<[2, 4, 24]> : tensor<3xindex>} : () -> !tosa.shape<3>
    %4 = "tosa.const"() <{values = dense<0> : tensor<1xi8>}> : () -> tensor<1xi8>
    %5 = tosa.const_shape  {values = dense<[8, 1, 24]> : tensor<3xindex>} : () -> !tosa.shape<3>
    %6 = tosa.const_shape  {values = dense<[8, 24, 32]> : tensor<3xindex>} : () -> !tosa.shape<3>
    %7 = tosa.const_shape  {values = dense<[2, 4, 32]> : tensor<3xindex>} : () -> !tosa.shape<3>
    %8 = "tosa.const"() <{values = dense<0.176776692> : tensor<1x1x1xf32>}> : () -> tensor<1x1x1xf32>
    %9 = tosa.reshape %arg0, %0 : (tensor<2x4x32xbf16>, !tosa.shape<3>) -> tensor<8x1x32xbf16>
    %10 = tosa.transpose %arg1 {perms = array<i32: 0, 2, 3, 1>} : (tensor<2x24x4x32xbf16>) -> tensor<2x4x32x24xbf16>
    %11 = tosa.reshape %10, %1 : (tensor<2x4x32x24xbf16>, !tosa.shape<3>) -> tensor<8x32x24xbf16>
    %12 = tosa.matmul %9, %11, %2, %2 : (tensor<8x1x32xbf16>, tensor<8x32x24xbf16>, tensor<1xbf16>, tensor<1xbf16>) -> tensor<8x1x24xf32>
    %13 = tosa.cast %12 : (tensor<8x1x24xf32>) -> tensor<8x1x24xbf16>
    %14 = tosa.reshape %13, %3 : (tensor<8x1x24xbf16>, !tosa.shape<3>) -> tensor<2x4x24xbf16>
    %15 = tosa.cast %14 : (tensor<2x4x24xbf16>) -> tensor<2x4x24xf32>
    %16 = tosa.mul %15, %8, %4 : (tensor<2x4x24xf32>, tensor<1x1x1xf32>, tensor<1xi8>) -> tensor<2x4x24xf32>
    %17 = tosa.reduce_max %16 {axis = 2 : i32} : (tensor<2x4x24xf32>) -> tensor<2x4x1xf32>
    %18 = tosa.sub %16, %17 : (tensor<2x4x24xf32>, tensor<2x4x1xf32>) -> tensor<2x4x24xf32>
    %19 = tosa.exp %18 : (tensor<2x4x24xf32>) -> tensor<2x4x24xf32>
    %20 = tosa.reduce_sum %19 {axis = 2 : i32} : (tensor<2x4x24xf32>) -> tensor<2x4x1xf32>
    %21 = tosa.reciprocal %20 : (tensor<2x4x1xf32>) -> tensor<2x4x1xf32>
    %22 = tosa.mul %19, %21, %4 : (tensor<2x4x24xf32>, tensor<2x4x1xf32>, tensor<1xi8>) -> tensor<2x4x24xf32>
    %23 = tosa.cast %22 : (tensor<2x4x24xf32>) -> tensor<2x4x24xbf16>
    %24 = tosa.reshape %23, %5 : (tensor<2x4x24xbf16>, !tosa.shape<3>) -> tensor<8x1x24xbf16>
    %25 = tosa.transpose %arg2 {perms = array<i32: 0, 2, 1, 3>} : (tensor<2x24x4x32xbf16>) -> tensor<2x4x24x32xbf16>
    %26 = tosa.reshape %25, %6 : (tensor<2x4x24x32xbf16>, !tosa.shape<3>) -> tensor<8x24x32xbf16>
    %27 = tosa.matmul %24, %26, %2, %2 : (tensor<8x1x24xbf16>, tensor<8x24x32xbf16>, tensor<1xbf16>, tensor<1xbf16>) -> tensor<8x1x32xf32>
    %28 = tosa.cast %27 : (tensor<8x1x32xf32>) -> tensor<8x1x32xbf16>
    %29 = tosa.reshape %28, %7 : (tensor<8x1x32xbf16>, !tosa.shape<3>) -> tensor<2x4x32xbf16>
    return %29 : tensor<2x4x32xbf16>
  }
}
