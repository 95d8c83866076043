// nan_to_num_softmax (NanToNumSoftmax: torch.nan_to_num(softmax(s)): zeroes the fully masked rows, but also rows that a NaN or +inf score makes NaN, which the op gives as NaN.), exported by
// scripts/export_torch_mlir_cases.py (torch 2.15.0+cu132, torch_mlir.fx, output tosa).
// Not raised, and attn-raise-check proves the chain intact.
// RUN: attention-opt %s --attn-raise-pipeline=explain 2>&1 | FileCheck %s
// RUN: attn-raise-check %s --runs=1 --seed=150 | FileCheck %s --check-prefix=PROOF --implicit-check-not=FAIL
// CHECK: remark: attn-fuse: not fused: the probabilities have another user
// CHECK-NOT: = attn.attention
// PROOF: @nan_to_num_softmax: 0 attn.attention after the raising
// PROOF: run 0 result 0 {{.*}}: PASS
module {
  func.func @nan_to_num_softmax(%arg0: tensor<2x4x16x32xf32>, %arg1: tensor<2x4x24x32xf32>, %arg2: tensor<2x4x24x32xf32>, %arg3: tensor<2x1x16x24xi1>) -> tensor<2x4x16x32xf32> {
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
    %11 = "tosa.const"() <{values = dense<0xFFF0000000000000> : tensor<1x1x1x1xf64>}> : () -> tensor<1x1x1x1xf64>
    %12 = "tosa.const"() <{values = dense<-3.40282347E+38> : tensor<1x1x1x1xf32>}> : () -> tensor<1x1x1x1xf32>
    %13 = "tosa.const"() <{values = dense<0x7FF0000000000000> : tensor<1x1x1x1xf64>}> : () -> tensor<1x1x1x1xf64>
    %14 = "tosa.const"() <{values = dense<3.40282347E+38> : tensor<1x1x1x1xf32>}> : () -> tensor<1x1x1x1xf32>
    %15 = tosa.transpose %arg1 {perms = array<i32: 0, 1, 3, 2>} : (tensor<2x4x24x32xf32>) -> tensor<2x4x32x24xf32>
    %16 = tosa.reshape %arg0, %0 : (tensor<2x4x16x32xf32>, !tosa.shape<3>) -> tensor<8x16x32xf32>
    %17 = tosa.reshape %15, %1 : (tensor<2x4x32x24xf32>, !tosa.shape<3>) -> tensor<8x32x24xf32>
    %18 = tosa.matmul %16, %17, %2, %2 : (tensor<8x16x32xf32>, tensor<8x32x24xf32>, tensor<1xf32>, tensor<1xf32>) -> tensor<8x16x24xf32>
    %19 = tosa.reshape %18, %3 : (tensor<8x16x24xf32>, !tosa.shape<4>) -> tensor<2x4x16x24xf32>
    %20 = tosa.mul %19, %8, %4 : (tensor<2x4x16x24xf32>, tensor<1x1x1x1xf32>, tensor<1xi8>) -> tensor<2x4x16x24xf32>
    %21 = tosa.select %arg3, %20, %9 : (tensor<2x1x16x24xi1>, tensor<2x4x16x24xf32>, tensor<1x1x1x1xf32>) -> tensor<2x4x16x24xf32>
    %22 = tosa.reduce_max %21 {axis = 3 : i32} : (tensor<2x4x16x24xf32>) -> tensor<2x4x16x1xf32>
    %23 = tosa.sub %21, %22 : (tensor<2x4x16x24xf32>, tensor<2x4x16x1xf32>) -> tensor<2x4x16x24xf32>
    %24 = tosa.exp %23 : (tensor<2x4x16x24xf32>) -> tensor<2x4x16x24xf32>
    %25 = tosa.reduce_sum %24 {axis = 3 : i32} : (tensor<2x4x16x24xf32>) -> tensor<2x4x16x1xf32>
    %26 = tosa.reciprocal %25 : (tensor<2x4x16x1xf32>) -> tensor<2x4x16x1xf32>
    %27 = tosa.mul %24, %26, %4 : (tensor<2x4x16x24xf32>, tensor<2x4x16x1xf32>, tensor<1xi8>) -> tensor<2x4x16x24xf32>
    %28 = tosa.equal %27, %27 : (tensor<2x4x16x24xf32>, tensor<2x4x16x24xf32>) -> tensor<2x4x16x24xi1>
    %29 = tosa.select %28, %27, %10 : (tensor<2x4x16x24xi1>, tensor<2x4x16x24xf32>, tensor<1x1x1x1xf32>) -> tensor<2x4x16x24xf32>
    %30 = tosa.cast %27 : (tensor<2x4x16x24xf32>) -> tensor<2x4x16x24xf64>
    %31 = tosa.equal %30, %11 : (tensor<2x4x16x24xf64>, tensor<1x1x1x1xf64>) -> tensor<2x4x16x24xi1>
    %32 = tosa.select %31, %12, %29 : (tensor<2x4x16x24xi1>, tensor<1x1x1x1xf32>, tensor<2x4x16x24xf32>) -> tensor<2x4x16x24xf32>
    %33 = tosa.equal %30, %13 : (tensor<2x4x16x24xf64>, tensor<1x1x1x1xf64>) -> tensor<2x4x16x24xi1>
    %34 = tosa.select %33, %14, %32 : (tensor<2x4x16x24xi1>, tensor<1x1x1x1xf32>, tensor<2x4x16x24xf32>) -> tensor<2x4x16x24xf32>
    %35 = tosa.reshape %34, %5 : (tensor<2x4x16x24xf32>, !tosa.shape<3>) -> tensor<8x16x24xf32>
    %36 = tosa.reshape %arg2, %6 : (tensor<2x4x24x32xf32>, !tosa.shape<3>) -> tensor<8x24x32xf32>
    %37 = tosa.matmul %35, %36, %2, %2 : (tensor<8x16x24xf32>, tensor<8x24x32xf32>, tensor<1xf32>, tensor<1xf32>) -> tensor<8x16x32xf32>
    %38 = tosa.reshape %37, %7 : (tensor<8x16x32xf32>, !tosa.shape<4>) -> tensor<2x4x16x32xf32>
    return %38 : tensor<2x4x16x32xf32>
  }
}
