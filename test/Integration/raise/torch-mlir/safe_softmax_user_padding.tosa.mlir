// safe_softmax_user_padding (SafeSoftmaxUser: Rows with no kept key zeroed by the user: where(keep.any(-1, keepdim=True), softmax(s), 0) after masked_fill(~keep, -inf).), exported by
// scripts/export_torch_mlir_cases.py (torch 2.15.0+cu132, torch_mlir.fx, output tosa).
// RUN: attention-opt %s --attn-raise-pipeline | FileCheck %s
// RUN: attn-raise-check %s --require-raised --runs=2 --seed=154 | FileCheck %s --check-prefix=PROOF --implicit-check-not=FAIL
// CHECK: attn.attention {{.*}}mask({{.*}} : tensor<2x1x1x24xi1>) {scale = 0.17677{{[0-9]+}} : f32}
// PROOF: @safe_softmax_user_padding: 1 attn.attention after the raising
// PROOF: run 1 result 0 {{.*}}: PASS
module {
  func.func @safe_softmax_user_padding(%arg0: tensor<2x4x16x32xf32>, %arg1: tensor<2x4x24x32xf32>, %arg2: tensor<2x4x24x32xf32>, %arg3: tensor<2x1x1x24xi1>) -> tensor<2x4x16x32xf32> {
    %0 = tosa.const_shape  {values = dense<[8, 16, 32]> : tensor<3xindex>} : () -> !tosa.shape<3>
    %1 = tosa.const_shape  {values = dense<[8, 32, 24]> : tensor<3xindex>} : () -> !tosa.shape<3>
    %2 = "tosa.const"() <{values = dense<0.000000e+00> : tensor<1xf32>}> : () -> tensor<1xf32>
    %3 = tosa.const_shape  {values = dense<[2, 4, 16, 24]> : tensor<4xindex>} : () -> !tosa.shape<4>
    %4 = "tosa.const"() <{values = dense<0> : tensor<1xi8>}> : () -> tensor<1xi8>
    %5 = tosa.const_shape  {values = dense<[8, 16, 24]> : tensor<3xindex>} : () -> !tosa.shape<3>
    %6 = tosa.const_shape  {values = dense<[8, 24, 32]> : tensor<3xindex>} : () -> !tosa.shape<3>
    %7 = tosa.const_shape  {values = dense<[2, 4, 16, 32]> : tensor<4xindex>} : () -> !tosa.shape<4>
    %8 = "tosa.const"() <{values = dense<0.176776692> : tensor<1x1x1x1xf32>}> : () -> tensor<1x1x1x1xf32>
    %9 = "tosa.const"() <{values = dense<0xFF800000> : tensor<1x1x1x1xf32>}> : () -> tensor<1x1x1x1xf32>
    %10 = "tosa.const"() <{values = dense<0.000000e+00> : tensor<1x1x1x1xf32>}> : () -> tensor<1x1x1x1xf32>
    %11 = tosa.transpose %arg1 {perms = array<i32: 0, 1, 3, 2>} : (tensor<2x4x24x32xf32>) -> tensor<2x4x32x24xf32>
    %12 = tosa.reshape %arg0, %0 : (tensor<2x4x16x32xf32>, !tosa.shape<3>) -> tensor<8x16x32xf32>
    %13 = tosa.reshape %11, %1 : (tensor<2x4x32x24xf32>, !tosa.shape<3>) -> tensor<8x32x24xf32>
    %14 = tosa.matmul %12, %13, %2, %2 : (tensor<8x16x32xf32>, tensor<8x32x24xf32>, tensor<1xf32>, tensor<1xf32>) -> tensor<8x16x24xf32>
    %15 = tosa.reshape %14, %3 : (tensor<8x16x24xf32>, !tosa.shape<4>) -> tensor<2x4x16x24xf32>
    %16 = tosa.mul %15, %8, %4 : (tensor<2x4x16x24xf32>, tensor<1x1x1x1xf32>, tensor<1xi8>) -> tensor<2x4x16x24xf32>
    %17 = tosa.select %arg3, %16, %9 : (tensor<2x1x1x24xi1>, tensor<2x4x16x24xf32>, tensor<1x1x1x1xf32>) -> tensor<2x4x16x24xf32>
    %18 = tosa.reduce_max %17 {axis = 3 : i32} : (tensor<2x4x16x24xf32>) -> tensor<2x4x16x1xf32>
    %19 = tosa.sub %17, %18 : (tensor<2x4x16x24xf32>, tensor<2x4x16x1xf32>) -> tensor<2x4x16x24xf32>
    %20 = tosa.exp %19 : (tensor<2x4x16x24xf32>) -> tensor<2x4x16x24xf32>
    %21 = tosa.reduce_sum %20 {axis = 3 : i32} : (tensor<2x4x16x24xf32>) -> tensor<2x4x16x1xf32>
    %22 = tosa.reciprocal %21 : (tensor<2x4x16x1xf32>) -> tensor<2x4x16x1xf32>
    %23 = tosa.mul %20, %22, %4 : (tensor<2x4x16x24xf32>, tensor<2x4x16x1xf32>, tensor<1xi8>) -> tensor<2x4x16x24xf32>
    %24 = tosa.reduce_any %arg3 {axis = 3 : i32} : (tensor<2x1x1x24xi1>) -> tensor<2x1x1x1xi1>
    %25 = tosa.select %24, %23, %10 : (tensor<2x1x1x1xi1>, tensor<2x4x16x24xf32>, tensor<1x1x1x1xf32>) -> tensor<2x4x16x24xf32>
    %26 = tosa.reshape %25, %5 : (tensor<2x4x16x24xf32>, !tosa.shape<3>) -> tensor<8x16x24xf32>
    %27 = tosa.reshape %arg2, %6 : (tensor<2x4x24x32xf32>, !tosa.shape<3>) -> tensor<8x24x32xf32>
    %28 = tosa.matmul %26, %27, %2, %2 : (tensor<8x16x24xf32>, tensor<8x24x32xf32>, tensor<1xf32>, tensor<1xf32>) -> tensor<8x16x32xf32>
    %29 = tosa.reshape %28, %7 : (tensor<8x16x32xf32>, !tosa.shape<4>) -> tensor<2x4x16x32xf32>
    return %29 : tensor<2x4x16x32xf32>
  }
}
