// causal_then_padding (CausalThenPadding: masked_fill(triu(ones, 1).bool(), -inf), then masked_fill of a padding mask (attention_mask == 0).), exported by
// scripts/export_torch_mlir_cases.py (torch 2.15.0+cu132, torch_mlir.fx, output tosa).
// RUN: attention-opt %s --attn-raise-pipeline | FileCheck %s
// RUN: attn-raise-check %s --require-raised --runs=2 --seed=100 | FileCheck %s --check-prefix=PROOF --implicit-check-not=FAIL
// CHECK: attn.attention {{.*}}mask({{.*}} : tensor<2x1x1x16xi1>) {causal = #attn.causal<top_left>, scale = 0.17677{{[0-9]+}} : f32}
// PROOF: @causal_then_padding: 1 attn.attention after the raising
// PROOF: run 1 result 0 {{.*}}: PASS
module {
  func.func @causal_then_padding(%arg0: tensor<2x4x16x32xf32>, %arg1: tensor<2x4x16x32xf32>, %arg2: tensor<2x4x16x32xf32>, %arg3: tensor<2x16xi64>) -> tensor<2x4x16x32xf32> {
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
    %10 = tosa.const_shape  {values = dense<[2, 1, 1, 16]> : tensor<4xindex>} : () -> !tosa.shape<4>
    %11 = tosa.const_shape  {values = dense<[8, 16, 16]> : tensor<3xindex>} : () -> !tosa.shape<3>
    %12 = tosa.const_shape  {values = dense<[2, 4, 16, 32]> : tensor<4xindex>} : () -> !tosa.shape<4>
    %13 = "tosa.const"() <{values = dense<1> : tensor<1x1xi64>}> : () -> tensor<1x1xi64>
    %14 = "tosa.const"() <{values = dense<0.000000e+00> : tensor<1x1xf32>}> : () -> tensor<1x1xf32>
    %15 = "tosa.const"() <{values = dense<0.176776692> : tensor<1x1x1x1xf32>}> : () -> tensor<1x1x1x1xf32>
    %16 = "tosa.const"() <{values = dense<0xFF800000> : tensor<1x1x1x1xf32>}> : () -> tensor<1x1x1x1xf32>
    %17 = "tosa.const"() <{values = dense<0> : tensor<1x1x1x1xi64>}> : () -> tensor<1x1x1x1xi64>
    %18 = tosa.reshape %1, %2 : (tensor<16xi64>, !tosa.shape<2>) -> tensor<1x16xi64>
    %19 = tosa.reshape %1, %3 : (tensor<16xi64>, !tosa.shape<2>) -> tensor<16x1xi64>
    %20 = tosa.cast %19 : (tensor<16x1xi64>) -> tensor<16x1xi32>
    %21 = tosa.cast %18 : (tensor<1x16xi64>) -> tensor<1x16xi32>
    %22 = tosa.sub %21, %20 : (tensor<1x16xi32>, tensor<16x1xi32>) -> tensor<16x16xi32>
    %23 = tosa.cast %22 : (tensor<16x16xi32>) -> tensor<16x16xi64>
    %24 = tosa.greater_equal %23, %13 : (tensor<16x16xi64>, tensor<1x1xi64>) -> tensor<16x16xi1>
    %25 = tosa.select %24, %0, %14 : (tensor<16x16xi1>, tensor<16x16xf32>, tensor<1x1xf32>) -> tensor<16x16xf32>
    %26 = tosa.equal %25, %14 : (tensor<16x16xf32>, tensor<1x1xf32>) -> tensor<16x16xi1>
    %27 = tosa.logical_not %26 : (tensor<16x16xi1>) -> tensor<16x16xi1>
    %28 = tosa.transpose %arg1 {perms = array<i32: 0, 1, 3, 2>} : (tensor<2x4x16x32xf32>) -> tensor<2x4x32x16xf32>
    %29 = tosa.reshape %arg0, %5 : (tensor<2x4x16x32xf32>, !tosa.shape<3>) -> tensor<8x16x32xf32>
    %30 = tosa.reshape %28, %6 : (tensor<2x4x32x16xf32>, !tosa.shape<3>) -> tensor<8x32x16xf32>
    %31 = tosa.matmul %29, %30, %7, %7 : (tensor<8x16x32xf32>, tensor<8x32x16xf32>, tensor<1xf32>, tensor<1xf32>) -> tensor<8x16x16xf32>
    %32 = tosa.reshape %31, %8 : (tensor<8x16x16xf32>, !tosa.shape<4>) -> tensor<2x4x16x16xf32>
    %33 = tosa.mul %32, %15, %4 : (tensor<2x4x16x16xf32>, tensor<1x1x1x1xf32>, tensor<1xi8>) -> tensor<2x4x16x16xf32>
    %34 = tosa.reshape %27, %9 : (tensor<16x16xi1>, !tosa.shape<4>) -> tensor<1x1x16x16xi1>
    %35 = tosa.select %34, %16, %33 : (tensor<1x1x16x16xi1>, tensor<1x1x1x1xf32>, tensor<2x4x16x16xf32>) -> tensor<2x4x16x16xf32>
    %36 = tosa.reshape %arg3, %10 : (tensor<2x16xi64>, !tosa.shape<4>) -> tensor<2x1x1x16xi64>
    %37 = tosa.equal %36, %17 : (tensor<2x1x1x16xi64>, tensor<1x1x1x1xi64>) -> tensor<2x1x1x16xi1>
    %38 = tosa.select %37, %16, %35 : (tensor<2x1x1x16xi1>, tensor<1x1x1x1xf32>, tensor<2x4x16x16xf32>) -> tensor<2x4x16x16xf32>
    %39 = tosa.reduce_max %38 {axis = 3 : i32} : (tensor<2x4x16x16xf32>) -> tensor<2x4x16x1xf32>
    %40 = tosa.sub %38, %39 : (tensor<2x4x16x16xf32>, tensor<2x4x16x1xf32>) -> tensor<2x4x16x16xf32>
    %41 = tosa.exp %40 : (tensor<2x4x16x16xf32>) -> tensor<2x4x16x16xf32>
    %42 = tosa.reduce_sum %41 {axis = 3 : i32} : (tensor<2x4x16x16xf32>) -> tensor<2x4x16x1xf32>
    %43 = tosa.reciprocal %42 : (tensor<2x4x16x1xf32>) -> tensor<2x4x16x1xf32>
    %44 = tosa.mul %41, %43, %4 : (tensor<2x4x16x16xf32>, tensor<2x4x16x1xf32>, tensor<1xi8>) -> tensor<2x4x16x16xf32>
    %45 = tosa.reshape %44, %11 : (tensor<2x4x16x16xf32>, !tosa.shape<3>) -> tensor<8x16x16xf32>
    %46 = tosa.reshape %arg2, %5 : (tensor<2x4x16x32xf32>, !tosa.shape<3>) -> tensor<8x16x32xf32>
    %47 = tosa.matmul %45, %46, %7, %7 : (tensor<8x16x16xf32>, tensor<8x16x32xf32>, tensor<1xf32>, tensor<1xf32>) -> tensor<8x16x32xf32>
    %48 = tosa.reshape %47, %12 : (tensor<8x16x32xf32>, !tosa.shape<4>) -> tensor<2x4x16x32xf32>
    return %48 : tensor<2x4x16x32xf32>
  }
}
