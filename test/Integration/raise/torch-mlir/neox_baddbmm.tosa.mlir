// neox_baddbmm (NeoxBaddbmm: GPT-NeoX's eager attention: baddbmm on zeros, a causal where with finfo.min, then the padding bias.), exported by
// scripts/export_torch_mlir_cases.py (torch 2.15.0+cu132, torch_mlir.fx, output tosa).
// RUN: attention-opt %s --attn-raise-pipeline="large-negative-is-masked" | FileCheck %s
// RUN: attn-raise-check %s --require-raised --runs=2 --seed=61 --pipeline='attn-raise-pipeline{large-negative-is-masked}' | FileCheck %s --check-prefix=PROOF --implicit-check-not=FAIL
// CHECK: attn.attention {{.*}}mask({{.*}} : tensor<2x1x1x16xf32>) {causal = #attn.causal<top_left>, scale = 0.17677{{[0-9]+}} : f32}
// CHECK-NOT: linalg.
// PROOF: @neox_baddbmm: 1 attn.attention after the raising
// PROOF: run 1 result 0 {{.*}}: PASS
module {
  func.func @neox_baddbmm(%arg0: tensor<2x4x16x32xf32>, %arg1: tensor<2x4x16x32xf32>, %arg2: tensor<2x4x16x32xf32>, %arg3: tensor<2x1x1x16xf32>) -> tensor<2x4x16x32xf32> {
    %0 = "tosa.const"() <{values = dense<true> : tensor<16x16xi1>}> : () -> tensor<16x16xi1>
    %1 = tosa.const_shape  {values = dense<[8, 16, 32]> : tensor<3xindex>} : () -> !tosa.shape<3>
    %2 = "tosa.const"() <{values = dense<0.000000e+00> : tensor<1xf32>}> : () -> tensor<1xf32>
    %3 = "tosa.const"() <{values = dense<0> : tensor<1xi8>}> : () -> tensor<1xi8>
    %4 = tosa.const_shape  {values = dense<[2, 4, 16, 16]> : tensor<4xindex>} : () -> !tosa.shape<4>
    %5 = "tosa.const"() <{values = dense<[0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15]> : tensor<16xi64>}> : () -> tensor<16xi64>
    %6 = tosa.const_shape  {values = dense<[1, 16]> : tensor<2xindex>} : () -> !tosa.shape<2>
    %7 = tosa.const_shape  {values = dense<[16, 1]> : tensor<2xindex>} : () -> !tosa.shape<2>
    %8 = tosa.const_shape  {values = dense<[1, 1, 16, 16]> : tensor<4xindex>} : () -> !tosa.shape<4>
    %9 = tosa.const_shape  {values = dense<[8, 16, 16]> : tensor<3xindex>} : () -> !tosa.shape<3>
    %10 = tosa.const_shape  {values = dense<[2, 4, 16, 32]> : tensor<4xindex>} : () -> !tosa.shape<4>
    %11 = "tosa.const"() <{values = dense<0.176776692> : tensor<1x1x1xf32>}> : () -> tensor<1x1x1xf32>
    %12 = "tosa.const"() <{values = dense<0> : tensor<1x1xi64>}> : () -> tensor<1x1xi64>
    %13 = "tosa.const"() <{values = dense<-3.40282347E+38> : tensor<1x1x1x1xf32>}> : () -> tensor<1x1x1x1xf32>
    %14 = tosa.reshape %arg0, %1 : (tensor<2x4x16x32xf32>, !tosa.shape<3>) -> tensor<8x16x32xf32>
    %15 = tosa.reshape %arg1, %1 : (tensor<2x4x16x32xf32>, !tosa.shape<3>) -> tensor<8x16x32xf32>
    %16 = tosa.transpose %15 {perms = array<i32: 0, 2, 1>} : (tensor<8x16x32xf32>) -> tensor<8x32x16xf32>
    %17 = tosa.matmul %14, %16, %2, %2 : (tensor<8x16x32xf32>, tensor<8x32x16xf32>, tensor<1xf32>, tensor<1xf32>) -> tensor<8x16x16xf32>
    %18 = tosa.mul %17, %11, %3 : (tensor<8x16x16xf32>, tensor<1x1x1xf32>, tensor<1xi8>) -> tensor<8x16x16xf32>
    %19 = tosa.reshape %18, %4 : (tensor<8x16x16xf32>, !tosa.shape<4>) -> tensor<2x4x16x16xf32>
    %20 = tosa.reshape %5, %6 : (tensor<16xi64>, !tosa.shape<2>) -> tensor<1x16xi64>
    %21 = tosa.reshape %5, %7 : (tensor<16xi64>, !tosa.shape<2>) -> tensor<16x1xi64>
    %22 = tosa.cast %21 : (tensor<16x1xi64>) -> tensor<16x1xi32>
    %23 = tosa.cast %20 : (tensor<1x16xi64>) -> tensor<1x16xi32>
    %24 = tosa.sub %23, %22 : (tensor<1x16xi32>, tensor<16x1xi32>) -> tensor<16x16xi32>
    %25 = tosa.cast %24 : (tensor<16x16xi32>) -> tensor<16x16xi64>
    %26 = tosa.greater_equal %12, %25 : (tensor<1x1xi64>, tensor<16x16xi64>) -> tensor<16x16xi1>
    %27 = tosa.logical_and %26, %0 : (tensor<16x16xi1>, tensor<16x16xi1>) -> tensor<16x16xi1>
    %28 = tosa.reshape %27, %8 : (tensor<16x16xi1>, !tosa.shape<4>) -> tensor<1x1x16x16xi1>
    %29 = tosa.select %28, %19, %13 : (tensor<1x1x16x16xi1>, tensor<2x4x16x16xf32>, tensor<1x1x1x1xf32>) -> tensor<2x4x16x16xf32>
    %30 = tosa.add %29, %arg3 : (tensor<2x4x16x16xf32>, tensor<2x1x1x16xf32>) -> tensor<2x4x16x16xf32>
    %31 = tosa.reduce_max %30 {axis = 3 : i32} : (tensor<2x4x16x16xf32>) -> tensor<2x4x16x1xf32>
    %32 = tosa.sub %30, %31 : (tensor<2x4x16x16xf32>, tensor<2x4x16x1xf32>) -> tensor<2x4x16x16xf32>
    %33 = tosa.exp %32 : (tensor<2x4x16x16xf32>) -> tensor<2x4x16x16xf32>
    %34 = tosa.reduce_sum %33 {axis = 3 : i32} : (tensor<2x4x16x16xf32>) -> tensor<2x4x16x1xf32>
    %35 = tosa.reciprocal %34 : (tensor<2x4x16x1xf32>) -> tensor<2x4x16x1xf32>
    %36 = tosa.mul %33, %35, %3 : (tensor<2x4x16x16xf32>, tensor<2x4x16x1xf32>, tensor<1xi8>) -> tensor<2x4x16x16xf32>
    %37 = tosa.reshape %36, %9 : (tensor<2x4x16x16xf32>, !tosa.shape<3>) -> tensor<8x16x16xf32>
    %38 = tosa.reshape %arg2, %1 : (tensor<2x4x16x32xf32>, !tosa.shape<3>) -> tensor<8x16x32xf32>
    %39 = tosa.matmul %37, %38, %2, %2 : (tensor<8x16x16xf32>, tensor<8x16x32xf32>, tensor<1xf32>, tensor<1xf32>) -> tensor<8x16x32xf32>
    %40 = tosa.reshape %39, %10 : (tensor<8x16x32xf32>, !tosa.shape<4>) -> tensor<2x4x16x32xf32>
    return %40 : tensor<2x4x16x32xf32>
  }
}
