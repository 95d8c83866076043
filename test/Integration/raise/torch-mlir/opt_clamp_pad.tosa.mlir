// opt_clamp_pad (OptClampPad: OPT's (and BioGPT's) attention: bmm on [B*H, L, D], a padding mask of -inf added, then torch.max(w, finfo.min).), exported by
// scripts/export_torch_mlir_cases.py (torch 2.15.0+cu132, torch_mlir.fx, output tosa).
// RUN: attention-opt %s --attn-raise-pipeline="large-negative-is-masked" | FileCheck %s
// RUN: attn-raise-check %s --require-raised --runs=2 --seed=130 --pipeline='attn-raise-pipeline{large-negative-is-masked}' | FileCheck %s --check-prefix=PROOF --implicit-check-not=FAIL
// CHECK: attn.attention {{.*}}mask({{.*}} : tensor<2x1x1x24xi1>) {scale = 0.17677{{[0-9]+}} : f32}
// PROOF: @opt_clamp_pad: 1 attn.attention after the raising
// PROOF: run 1 result 0 {{.*}}: PASS
module {
  func.func @opt_clamp_pad(%arg0: tensor<8x16x32xf32>, %arg1: tensor<8x24x32xf32>, %arg2: tensor<8x24x32xf32>, %arg3: tensor<2x24xi64>) -> tensor<8x16x32xf32> {
    %0 = "tosa.const"() <{values = dense<0.000000e+00> : tensor<2x1x1x24xf32>}> : () -> tensor<2x1x1x24xf32>
    %1 = tosa.const_shape  {values = dense<[2, 1, 1, 24]> : tensor<4xindex>} : () -> !tosa.shape<4>
    %2 = "tosa.const"() <{values = dense<0> : tensor<1xi8>}> : () -> tensor<1xi8>
    %3 = "tosa.const"() <{values = dense<0.000000e+00> : tensor<1xf32>}> : () -> tensor<1xf32>
    %4 = tosa.const_shape  {values = dense<[2, 4, 16, 24]> : tensor<4xindex>} : () -> !tosa.shape<4>
    %5 = tosa.const_shape  {values = dense<[8, 16, 24]> : tensor<3xindex>} : () -> !tosa.shape<3>
    %6 = "tosa.const"() <{values = dense<0> : tensor<1x1x1x1xi64>}> : () -> tensor<1x1x1x1xi64>
    %7 = "tosa.const"() <{values = dense<0xFF800000> : tensor<1x1x1x1xf32>}> : () -> tensor<1x1x1x1xf32>
    %8 = "tosa.const"() <{values = dense<0.176776692> : tensor<1x1x1xf32>}> : () -> tensor<1x1x1xf32>
    %9 = "tosa.const"() <{values = dense<-3.40282347E+38> : tensor<1x1x1x1xf32>}> : () -> tensor<1x1x1x1xf32>
    %10 = tosa.reshape %arg3, %1 : (tensor<2x24xi64>, !tosa.shape<4>) -> tensor<2x1x1x24xi64>
    %11 = tosa.equal %10, %6 : (tensor<2x1x1x24xi64>, tensor<1x1x1x1xi64>) -> tensor<2x1x1x24xi1>
    %12 = tosa.select %11, %7, %0 : (tensor<2x1x1x24xi1>, tensor<1x1x1x1xf32>, tensor<2x1x1x24xf32>) -> tensor<2x1x1x24xf32>
    %13 = tosa.mul %arg0, %8, %2 : (tensor<8x16x32xf32>, tensor<1x1x1xf32>, tensor<1xi8>) -> tensor<8x16x32xf32>
    %14 = tosa.transpose %arg1 {perms = array<i32: 0, 2, 1>} : (tensor<8x24x32xf32>) -> tensor<8x32x24xf32>
    %15 = tosa.matmul %13, %14, %3, %3 : (tensor<8x16x32xf32>, tensor<8x32x24xf32>, tensor<1xf32>, tensor<1xf32>) -> tensor<8x16x24xf32>
    %16 = tosa.reshape %15, %4 : (tensor<8x16x24xf32>, !tosa.shape<4>) -> tensor<2x4x16x24xf32>
    %17 = tosa.add %16, %12 : (tensor<2x4x16x24xf32>, tensor<2x1x1x24xf32>) -> tensor<2x4x16x24xf32>
    %18 = tosa.maximum %17, %9 : (tensor<2x4x16x24xf32>, tensor<1x1x1x1xf32>) -> tensor<2x4x16x24xf32>
    %19 = tosa.reshape %18, %5 : (tensor<2x4x16x24xf32>, !tosa.shape<3>) -> tensor<8x16x24xf32>
    %20 = tosa.reduce_max %19 {axis = 2 : i32} : (tensor<8x16x24xf32>) -> tensor<8x16x1xf32>
    %21 = tosa.sub %19, %20 : (tensor<8x16x24xf32>, tensor<8x16x1xf32>) -> tensor<8x16x24xf32>
    %22 = tosa.exp %21 : (tensor<8x16x24xf32>) -> tensor<8x16x24xf32>
    %23 = tosa.reduce_sum %22 {axis = 2 : i32} : (tensor<8x16x24xf32>) -> tensor<8x16x1xf32>
    %24 = tosa.reciprocal %23 : (tensor<8x16x1xf32>) -> tensor<8x16x1xf32>
    %25 = tosa.mul %22, %24, %2 : (tensor<8x16x24xf32>, tensor<8x16x1xf32>, tensor<1xi8>) -> tensor<8x16x24xf32>
    %26 = tosa.matmul %25, %arg2, %3, %3 : (tensor<8x16x24xf32>, tensor<8x24x32xf32>, tensor<1xf32>, tensor<1xf32>) -> tensor<8x16x32xf32>
    return %26 : tensor<8x16x32xf32>
  }
}
