// mpt_alibi (MptAlibi: MPT: ALiBi from arange(1 - L, 1) times slopes computed in the graph, and a causal fill of finfo.min.), exported by
// scripts/export_torch_mlir_cases.py (torch 2.15.0+cu132, torch_mlir.fx, output tosa).
// RUN: attention-opt %s --attn-raise-pipeline="large-negative-is-masked" | FileCheck %s
// RUN: attn-raise-check %s --require-raised --runs=2 --seed=110 --pipeline='attn-raise-pipeline{large-negative-is-masked}' | FileCheck %s --check-prefix=PROOF --implicit-check-not=FAIL
// CHECK: attn.attention {{.*}}mask({{.*}} : tensor<1x4x1x16xf32>) {causal = #attn.causal<top_left>, scale = 0.17677{{[0-9]+}} : f32}
// PROOF: @mpt_alibi: 1 attn.attention after the raising
// PROOF: run 1 result 0 {{.*}}: PASS
module {
  func.func @mpt_alibi(%arg0: tensor<2x4x16x32xf32>, %arg1: tensor<2x4x16x32xf32>, %arg2: tensor<2x4x16x32xf32>) -> tensor<2x4x16x32xf32> {
    %0 = "tosa.const"() <{values = dense<true> : tensor<16x16xi1>}> : () -> tensor<16x16xi1>
    %1 = "tosa.const"() <{values = dense<[1, 2, 3, 4]> : tensor<4xi64>}> : () -> tensor<4xi64>
    %2 = "tosa.const"() <{values = dense<[-15, -14, -13, -12, -11, -10, -9, -8, -7, -6, -5, -4, -3, -2, -1, 0]> : tensor<16xi64>}> : () -> tensor<16xi64>
    %3 = tosa.const_shape  {values = dense<[1, 1, 1, 16]> : tensor<4xindex>} : () -> !tosa.shape<4>
    %4 = tosa.const_shape  {values = dense<[1, 4, 1, 1]> : tensor<4xindex>} : () -> !tosa.shape<4>
    %5 = "tosa.const"() <{values = dense<0> : tensor<1xi8>}> : () -> tensor<1xi8>
    %6 = tosa.const_shape  {values = dense<[8, 16, 32]> : tensor<3xindex>} : () -> !tosa.shape<3>
    %7 = tosa.const_shape  {values = dense<[8, 32, 16]> : tensor<3xindex>} : () -> !tosa.shape<3>
    %8 = "tosa.const"() <{values = dense<0.000000e+00> : tensor<1xf32>}> : () -> tensor<1xf32>
    %9 = tosa.const_shape  {values = dense<[2, 4, 16, 16]> : tensor<4xindex>} : () -> !tosa.shape<4>
    %10 = "tosa.const"() <{values = dense<[0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15]> : tensor<16xi64>}> : () -> tensor<16xi64>
    %11 = tosa.const_shape  {values = dense<[1, 16]> : tensor<2xindex>} : () -> !tosa.shape<2>
    %12 = tosa.const_shape  {values = dense<[16, 1]> : tensor<2xindex>} : () -> !tosa.shape<2>
    %13 = tosa.const_shape  {values = dense<[1, 1, 16, 16]> : tensor<4xindex>} : () -> !tosa.shape<4>
    %14 = tosa.const_shape  {values = dense<[8, 16, 16]> : tensor<3xindex>} : () -> !tosa.shape<3>
    %15 = tosa.const_shape  {values = dense<[2, 4, 16, 32]> : tensor<4xindex>} : () -> !tosa.shape<4>
    %16 = "tosa.const"() <{values = dense<2.500000e-01> : tensor<1xf32>}> : () -> tensor<1xf32>
    %17 = "tosa.const"() <{values = dense<0.176776692> : tensor<1x1x1x1xf32>}> : () -> tensor<1x1x1x1xf32>
    %18 = "tosa.const"() <{values = dense<0> : tensor<1x1xi64>}> : () -> tensor<1x1xi64>
    %19 = "tosa.const"() <{values = dense<-3.40282347E+38> : tensor<1x1x1x1xf32>}> : () -> tensor<1x1x1x1xf32>
    %20 = tosa.cast %1 : (tensor<4xi64>) -> tensor<4xf32>
    %21 = tosa.pow %16, %20 : (tensor<1xf32>, tensor<4xf32>) -> tensor<4xf32>
    %22 = tosa.cast %2 : (tensor<16xi64>) -> tensor<16xi32>
    %23 = tosa.reshape %22, %3 : (tensor<16xi32>, !tosa.shape<4>) -> tensor<1x1x1x16xi32>
    %24 = tosa.reshape %21, %4 : (tensor<4xf32>, !tosa.shape<4>) -> tensor<1x4x1x1xf32>
    %25 = tosa.cast %23 : (tensor<1x1x1x16xi32>) -> tensor<1x1x1x16xf32>
    %26 = tosa.mul %25, %24, %5 : (tensor<1x1x1x16xf32>, tensor<1x4x1x1xf32>, tensor<1xi8>) -> tensor<1x4x1x16xf32>
    %27 = tosa.transpose %arg1 {perms = array<i32: 0, 1, 3, 2>} : (tensor<2x4x16x32xf32>) -> tensor<2x4x32x16xf32>
    %28 = tosa.reshape %arg0, %6 : (tensor<2x4x16x32xf32>, !tosa.shape<3>) -> tensor<8x16x32xf32>
    %29 = tosa.reshape %27, %7 : (tensor<2x4x32x16xf32>, !tosa.shape<3>) -> tensor<8x32x16xf32>
    %30 = tosa.matmul %28, %29, %8, %8 : (tensor<8x16x32xf32>, tensor<8x32x16xf32>, tensor<1xf32>, tensor<1xf32>) -> tensor<8x16x16xf32>
    %31 = tosa.reshape %30, %9 : (tensor<8x16x16xf32>, !tosa.shape<4>) -> tensor<2x4x16x16xf32>
    %32 = tosa.mul %31, %17, %5 : (tensor<2x4x16x16xf32>, tensor<1x1x1x1xf32>, tensor<1xi8>) -> tensor<2x4x16x16xf32>
    %33 = tosa.add %32, %26 : (tensor<2x4x16x16xf32>, tensor<1x4x1x16xf32>) -> tensor<2x4x16x16xf32>
    %34 = tosa.reshape %10, %11 : (tensor<16xi64>, !tosa.shape<2>) -> tensor<1x16xi64>
    %35 = tosa.reshape %10, %12 : (tensor<16xi64>, !tosa.shape<2>) -> tensor<16x1xi64>
    %36 = tosa.cast %35 : (tensor<16x1xi64>) -> tensor<16x1xi32>
    %37 = tosa.cast %34 : (tensor<1x16xi64>) -> tensor<1x16xi32>
    %38 = tosa.sub %37, %36 : (tensor<1x16xi32>, tensor<16x1xi32>) -> tensor<16x16xi32>
    %39 = tosa.cast %38 : (tensor<16x16xi32>) -> tensor<16x16xi64>
    %40 = tosa.greater_equal %18, %39 : (tensor<1x1xi64>, tensor<16x16xi64>) -> tensor<16x16xi1>
    %41 = tosa.logical_and %40, %0 : (tensor<16x16xi1>, tensor<16x16xi1>) -> tensor<16x16xi1>
    %42 = tosa.logical_not %41 : (tensor<16x16xi1>) -> tensor<16x16xi1>
    %43 = tosa.reshape %42, %13 : (tensor<16x16xi1>, !tosa.shape<4>) -> tensor<1x1x16x16xi1>
    %44 = tosa.select %43, %19, %33 : (tensor<1x1x16x16xi1>, tensor<1x1x1x1xf32>, tensor<2x4x16x16xf32>) -> tensor<2x4x16x16xf32>
    %45 = tosa.reduce_max %44 {axis = 3 : i32} : (tensor<2x4x16x16xf32>) -> tensor<2x4x16x1xf32>
    %46 = tosa.sub %44, %45 : (tensor<2x4x16x16xf32>, tensor<2x4x16x1xf32>) -> tensor<2x4x16x16xf32>
    %47 = tosa.exp %46 : (tensor<2x4x16x16xf32>) -> tensor<2x4x16x16xf32>
    %48 = tosa.reduce_sum %47 {axis = 3 : i32} : (tensor<2x4x16x16xf32>) -> tensor<2x4x16x1xf32>
    %49 = tosa.reciprocal %48 : (tensor<2x4x16x1xf32>) -> tensor<2x4x16x1xf32>
    %50 = tosa.mul %47, %49, %5 : (tensor<2x4x16x16xf32>, tensor<2x4x16x1xf32>, tensor<1xi8>) -> tensor<2x4x16x16xf32>
    %51 = tosa.reshape %50, %14 : (tensor<2x4x16x16xf32>, !tosa.shape<3>) -> tensor<8x16x16xf32>
    %52 = tosa.reshape %arg2, %6 : (tensor<2x4x16x32xf32>, !tosa.shape<3>) -> tensor<8x16x32xf32>
    %53 = tosa.matmul %51, %52, %8, %8 : (tensor<8x16x16xf32>, tensor<8x16x32xf32>, tensor<1xf32>, tensor<1xf32>) -> tensor<8x16x32xf32>
    %54 = tosa.reshape %53, %15 : (tensor<8x16x32xf32>, !tosa.shape<4>) -> tensor<2x4x16x32xf32>
    return %54 : tensor<2x4x16x32xf32>
  }
}
