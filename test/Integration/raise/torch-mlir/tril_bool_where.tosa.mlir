// tril_bool_where (TrilBoolWhere: torch.ones(L, L).tril().bool() and where(mask, s, -inf).), exported by
// scripts/export_torch_mlir_cases.py (torch 2.15.0+cu132, torch_mlir.fx, output tosa).
// RUN: attention-opt %s --attn-raise-pipeline | FileCheck %s
// RUN: attn-raise-check %s --require-raised --runs=2 --seed=96 | FileCheck %s --check-prefix=PROOF --implicit-check-not=FAIL
// CHECK: attn.attention {{.*}}{causal = #attn.causal<top_left>, scale = 0.17677{{[0-9]+}} : f32}
// CHECK-NOT: linalg.
// PROOF: @tril_bool_where: 1 attn.attention after the raising
// PROOF: run 1 result 0 {{.*}}: PASS
module {
  func.func @tril_bool_where(%arg0: tensor<2x4x16x32xf32>, %arg1: tensor<2x4x16x32xf32>, %arg2: tensor<2x4x16x32xf32>) -> tensor<2x4x16x32xf32> {
    %0 = "tosa.const"() <{values = dense<1.000000e+00> : tensor<16x16xf32>}> : () -> tensor<16x16xf32>
    %1 = "tosa.const"() <{values = dense<[0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15]> : tensor<16xi64>}> : () -> tensor<16xi64>
    %2 = tosa.const_shape  {values = dense<[1, 16]> : tensor<2xindex>} : () -> !tosa.shape<2>
    %3 = tosa.const_shape  {values = dense<[16, 1]> : tensor<2xindex>} : () -> !tosa.shape<2>
    %4 = "tosa.const"() <{values = dense<0> : tensor<1xi8>}> : () -> tensor<1xi8>
    %5 = tosa.const_shape  {values = dense<[8, 16, 32]> : tensor<3xindex>} : () -> !tosa.shape<3>
    %6 = tosa.const_shape  {values = dense<[8, 32, 16]> : tensor<3xindex>} : () -> !tosa.shape<3>
    %7 = "tosa.const"() <{values = dense<0.000000e+00> : tensor<1xf32>}> : () -> tensor<1xf32>
    %8 = tosa.const_shape  {values = dense<[2, 4, 16, 16]> : tensor<4xindex>} : () -> !tosa.shape<4>
    %9 = tosa.const_shape  {values = dense<[1, 1, 16, 16]> : tensor<4xindex>} : () -> !tosa.shape<4>
    %10 = tosa.const_shape  {values = dense<[8, 16, 16]> : tensor<3xindex>} : () -> !tosa.shape<3>
    %11 = tosa.const_shape  {values = dense<[2, 4, 16, 32]> : tensor<4xindex>} : () -> !tosa.shape<4>
    %12 = "tosa.const"() <{values = dense<0> : tensor<1x1xi64>}> : () -> tensor<1x1xi64>
    %13 = "tosa.const"() <{values = dense<0.000000e+00> : tensor<1x1xf32>}> : () -> tensor<1x1xf32>
    %14 = "tosa.const"() <{values = dense<0.176776692> : tensor<1x1x1x1xf32>}> : () -> tensor<1x1x1x1xf32>
    %15 = "tosa.const"() <{values = dense<0xFF800000> : tensor<1x1x1x1xf32>}> : () -> tensor<1x1x1x1xf32>
    %16 = tosa.reshape %1, %2 : (tensor<16xi64>, !tosa.shape<2>) -> tensor<1x16xi64>
    %17 = tosa.reshape %1, %3 : (tensor<16xi64>, !tosa.shape<2>) -> tensor<16x1xi64>
    %18 = tosa.cast %17 : (tensor<16x1xi64>) -> tensor<16x1xi32>
    %19 = tosa.cast %16 : (tensor<1x16xi64>) -> tensor<1x16xi32>
    %20 = tosa.sub %19, %18 : (tensor<1x16xi32>, tensor<16x1xi32>) -> tensor<16x16xi32>
    %21 = tosa.cast %20 : (tensor<16x16xi32>) -> tensor<16x16xi64>
    %22 = tosa.greater_equal %12, %21 : (tensor<1x1xi64>, tensor<16x16xi64>) -> tensor<16x16xi1>
    %23 = tosa.select %22, %0, %13 : (tensor<16x16xi1>, tensor<16x16xf32>, tensor<1x1xf32>) -> tensor<16x16xf32>
    %24 = tosa.equal %23, %13 : (tensor<16x16xf32>, tensor<1x1xf32>) -> tensor<16x16xi1>
    %25 = tosa.logical_not %24 : (tensor<16x16xi1>) -> tensor<16x16xi1>
    %26 = tosa.transpose %arg1 {perms = array<i32: 0, 1, 3, 2>} : (tensor<2x4x16x32xf32>) -> tensor<2x4x32x16xf32>
    %27 = tosa.reshape %arg0, %5 : (tensor<2x4x16x32xf32>, !tosa.shape<3>) -> tensor<8x16x32xf32>
    %28 = tosa.reshape %26, %6 : (tensor<2x4x32x16xf32>, !tosa.shape<3>) -> tensor<8x32x16xf32>
    %29 = tosa.matmul %27, %28, %7, %7 : (tensor<8x16x32xf32>, tensor<8x32x16xf32>, tensor<1xf32>, tensor<1xf32>) -> tensor<8x16x16xf32>
    %30 = tosa.reshape %29, %8 : (tensor<8x16x16xf32>, !tosa.shape<4>) -> tensor<2x4x16x16xf32>
    %31 = tosa.mul %30, %14, %4 : (tensor<2x4x16x16xf32>, tensor<1x1x1x1xf32>, tensor<1xi8>) -> tensor<2x4x16x16xf32>
    %32 = tosa.reshape %25, %9 : (tensor<16x16xi1>, !tosa.shape<4>) -> tensor<1x1x16x16xi1>
    %33 = tosa.select %32, %31, %15 : (tensor<1x1x16x16xi1>, tensor<2x4x16x16xf32>, tensor<1x1x1x1xf32>) -> tensor<2x4x16x16xf32>
    %34 = tosa.reduce_max %33 {axis = 3 : i32} : (tensor<2x4x16x16xf32>) -> tensor<2x4x16x1xf32>
    %35 = tosa.sub %33, %34 : (tensor<2x4x16x16xf32>, tensor<2x4x16x1xf32>) -> tensor<2x4x16x16xf32>
    %36 = tosa.exp %35 : (tensor<2x4x16x16xf32>) -> tensor<2x4x16x16xf32>
    %37 = tosa.reduce_sum %36 {axis = 3 : i32} : (tensor<2x4x16x16xf32>) -> tensor<2x4x16x1xf32>
    %38 = tosa.reciprocal %37 : (tensor<2x4x16x1xf32>) -> tensor<2x4x16x1xf32>
    %39 = tosa.mul %36, %38, %4 : (tensor<2x4x16x16xf32>, tensor<2x4x16x1xf32>, tensor<1xi8>) -> tensor<2x4x16x16xf32>
    %40 = tosa.reshape %39, %10 : (tensor<2x4x16x16xf32>, !tosa.shape<3>) -> tensor<8x16x16xf32>
    %41 = tosa.reshape %arg2, %5 : (tensor<2x4x16x32xf32>, !tosa.shape<3>) -> tensor<8x16x32xf32>
    %42 = tosa.matmul %40, %41, %7, %7 : (tensor<8x16x16xf32>, tensor<8x16x32xf32>, tensor<1xf32>, tensor<1xf32>) -> tensor<8x16x32xf32>
    %43 = tosa.reshape %42, %11 : (tensor<8x16x32xf32>, !tosa.shape<4>) -> tensor<2x4x16x32xf32>
    return %43 : tensor<2x4x16x32xf32>
  }
}
