// mistral_sliding (MistralSliding: Hugging Face Mistral's sliding-window causal bias: triu(finfo.min, 1) filled with finfo.min where tril(ones, -window) is true.), exported by
// scripts/export_torch_mlir_cases.py (torch 2.15.0+cu132, torch_mlir.fx, output tosa).
// RUN: attention-opt %s --attn-raise-pipeline="large-negative-is-masked" | FileCheck %s
// RUN: attn-raise-check %s --require-raised --runs=2 --seed=98 --pipeline='attn-raise-pipeline{large-negative-is-masked}' | FileCheck %s --check-prefix=PROOF --implicit-check-not=FAIL
// CHECK: attn.attention {{.*}}{causal = #attn.causal<top_left>, scale = 0.17677{{[0-9]+}} : f32, window = array<i64: 3, -1>}
// CHECK-NOT: linalg.
// PROOF: @mistral_sliding: 1 attn.attention after the raising
// PROOF: run 1 result 0 {{.*}}: PASS
module {
  func.func @mistral_sliding(%arg0: tensor<2x4x16x32xf32>, %arg1: tensor<2x4x16x32xf32>, %arg2: tensor<2x4x16x32xf32>) -> tensor<2x4x16x32xf32> {
    %0 = "tosa.const"() <{values = dense<true> : tensor<16x16xi1>}> : () -> tensor<16x16xi1>
    %1 = "tosa.const"() <{values = dense<-3.40282347E+38> : tensor<16x16xf32>}> : () -> tensor<16x16xf32>
    %2 = "tosa.const"() <{values = dense<[0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15]> : tensor<16xi64>}> : () -> tensor<16xi64>
    %3 = tosa.const_shape  {values = dense<[1, 16]> : tensor<2xindex>} : () -> !tosa.shape<2>
    %4 = tosa.const_shape  {values = dense<[16, 1]> : tensor<2xindex>} : () -> !tosa.shape<2>
    %5 = "tosa.const"() <{values = dense<0> : tensor<1xi8>}> : () -> tensor<1xi8>
    %6 = tosa.const_shape  {values = dense<[8, 16, 32]> : tensor<3xindex>} : () -> !tosa.shape<3>
    %7 = tosa.const_shape  {values = dense<[8, 32, 16]> : tensor<3xindex>} : () -> !tosa.shape<3>
    %8 = "tosa.const"() <{values = dense<0.000000e+00> : tensor<1xf32>}> : () -> tensor<1xf32>
    %9 = tosa.const_shape  {values = dense<[2, 4, 16, 16]> : tensor<4xindex>} : () -> !tosa.shape<4>
    %10 = tosa.const_shape  {values = dense<[1, 1, 16, 16]> : tensor<4xindex>} : () -> !tosa.shape<4>
    %11 = tosa.const_shape  {values = dense<[8, 16, 16]> : tensor<3xindex>} : () -> !tosa.shape<3>
    %12 = tosa.const_shape  {values = dense<[2, 4, 16, 32]> : tensor<4xindex>} : () -> !tosa.shape<4>
    %13 = "tosa.const"() <{values = dense<1> : tensor<1x1xi64>}> : () -> tensor<1x1xi64>
    %14 = "tosa.const"() <{values = dense<0.000000e+00> : tensor<1x1xf32>}> : () -> tensor<1x1xf32>
    %15 = "tosa.const"() <{values = dense<-4> : tensor<1x1xi64>}> : () -> tensor<1x1xi64>
    %16 = "tosa.const"() <{values = dense<-3.40282347E+38> : tensor<1x1xf32>}> : () -> tensor<1x1xf32>
    %17 = "tosa.const"() <{values = dense<0.176776692> : tensor<1x1x1x1xf32>}> : () -> tensor<1x1x1x1xf32>
    %18 = tosa.reshape %2, %3 : (tensor<16xi64>, !tosa.shape<2>) -> tensor<1x16xi64>
    %19 = tosa.reshape %2, %4 : (tensor<16xi64>, !tosa.shape<2>) -> tensor<16x1xi64>
    %20 = tosa.cast %19 : (tensor<16x1xi64>) -> tensor<16x1xi32>
    %21 = tosa.cast %18 : (tensor<1x16xi64>) -> tensor<1x16xi32>
    %22 = tosa.sub %21, %20 : (tensor<1x16xi32>, tensor<16x1xi32>) -> tensor<16x16xi32>
    %23 = tosa.cast %22 : (tensor<16x16xi32>) -> tensor<16x16xi64>
    %24 = tosa.greater_equal %23, %13 : (tensor<16x16xi64>, tensor<1x1xi64>) -> tensor<16x16xi1>
    %25 = tosa.select %24, %1, %14 : (tensor<16x16xi1>, tensor<16x16xf32>, tensor<1x1xf32>) -> tensor<16x16xf32>
    %26 = tosa.greater_equal %15, %23 : (tensor<1x1xi64>, tensor<16x16xi64>) -> tensor<16x16xi1>
    %27 = tosa.logical_and %26, %0 : (tensor<16x16xi1>, tensor<16x16xi1>) -> tensor<16x16xi1>
    %28 = tosa.select %27, %16, %25 : (tensor<16x16xi1>, tensor<1x1xf32>, tensor<16x16xf32>) -> tensor<16x16xf32>
    %29 = tosa.transpose %arg1 {perms = array<i32: 0, 1, 3, 2>} : (tensor<2x4x16x32xf32>) -> tensor<2x4x32x16xf32>
    %30 = tosa.reshape %arg0, %6 : (tensor<2x4x16x32xf32>, !tosa.shape<3>) -> tensor<8x16x32xf32>
    %31 = tosa.reshape %29, %7 : (tensor<2x4x32x16xf32>, !tosa.shape<3>) -> tensor<8x32x16xf32>
    %32 = tosa.matmul %30, %31, %8, %8 : (tensor<8x16x32xf32>, tensor<8x32x16xf32>, tensor<1xf32>, tensor<1xf32>) -> tensor<8x16x16xf32>
    %33 = tosa.reshape %32, %9 : (tensor<8x16x16xf32>, !tosa.shape<4>) -> tensor<2x4x16x16xf32>
    %34 = tosa.mul %33, %17, %5 : (tensor<2x4x16x16xf32>, tensor<1x1x1x1xf32>, tensor<1xi8>) -> tensor<2x4x16x16xf32>
    %35 = tosa.reshape %28, %10 : (tensor<16x16xf32>, !tosa.shape<4>) -> tensor<1x1x16x16xf32>
    %36 = tosa.add %34, %35 : (tensor<2x4x16x16xf32>, tensor<1x1x16x16xf32>) -> tensor<2x4x16x16xf32>
    %37 = tosa.reduce_max %36 {axis = 3 : i32} : (tensor<2x4x16x16xf32>) -> tensor<2x4x16x1xf32>
    %38 = tosa.sub %36, %37 : (tensor<2x4x16x16xf32>, tensor<2x4x16x1xf32>) -> tensor<2x4x16x16xf32>
    %39 = tosa.exp %38 : (tensor<2x4x16x16xf32>) -> tensor<2x4x16x16xf32>
    %40 = tosa.reduce_sum %39 {axis = 3 : i32} : (tensor<2x4x16x16xf32>) -> tensor<2x4x16x1xf32>
    %41 = tosa.reciprocal %40 : (tensor<2x4x16x1xf32>) -> tensor<2x4x16x1xf32>
    %42 = tosa.mul %39, %41, %5 : (tensor<2x4x16x16xf32>, tensor<2x4x16x1xf32>, tensor<1xi8>) -> tensor<2x4x16x16xf32>
    %43 = tosa.reshape %42, %11 : (tensor<2x4x16x16xf32>, !tosa.shape<3>) -> tensor<8x16x16xf32>
    %44 = tosa.reshape %arg2, %6 : (tensor<2x4x16x32xf32>, !tosa.shape<3>) -> tensor<8x16x32xf32>
    %45 = tosa.matmul %43, %44, %8, %8 : (tensor<8x16x16xf32>, tensor<8x16x32xf32>, tensor<1xf32>, tensor<1xf32>) -> tensor<8x16x32xf32>
    %46 = tosa.reshape %45, %12 : (tensor<8x16x32xf32>, !tosa.shape<4>) -> tensor<2x4x16x32xf32>
    return %46 : tensor<2x4x16x32xf32>
  }
}
