// Raising attention over one key (Lk = 1: cross-attention to a single
// token, the first step of a key/value cache). TOSA folds a reduce_max or
// reduce_sum over a size-1 axis into its input, so the softmax arrives as
// `s - s`, `e * reciprocal(e)` and, in the log-sum-exp form,
// `exp(s - (s + log(exp(s - s))))`: attn-normalize-chains puts the row
// reductions back (RestoreUnitRowReductions.cpp) and the chain raises.
// RUN: attention-opt %s --attn-raise-pipeline | FileCheck %s
// RUN: attn-raise-check %s --require-raised --runs=2 --seed=11 | FileCheck %s --check-prefix=PROOF --implicit-check-not=FAIL
// RUN: attention-opt %s --attn-raise-pipeline | attn-compile - --chip=sm_80 -o %t.ptx 2>&1 | FileCheck %s --check-prefix=COMPILE
// COMPILE: attn-compile: wrote

// CHECK-LABEL: func.func @tosa_mha_one_key
// CHECK: attn.attention ins(%arg0, %arg1, %arg2 : tensor<2x4x16x8xf32>, tensor<2x4x1x8xf32>, tensor<2x4x1x8xf32>) mask(%arg3 : tensor<2x1x1x1xf32>) {scale = 0.353553385 : f32}
// CHECK-NOT: linalg.
// CHECK: return
// PROOF: @tosa_mha_one_key: 1 attn.attention after the raising
// PROOF: run 1 result 0 tensor<2x4x16x8xf32>: {{.*}}: PASS
func.func @tosa_mha_one_key(%q: tensor<2x4x16x8xf32>, %k: tensor<2x4x1x8xf32>, %v: tensor<2x4x1x8xf32>, %mask: tensor<2x1x1x1xf32>) -> tensor<2x4x16x8xf32> {
  %zp = "tosa.const"() <{values = dense<0.0> : tensor<1xf32>}> : () -> tensor<1xf32>
  %shift = "tosa.const"() <{values = dense<0> : tensor<1xi8>}> : () -> tensor<1xi8>
  %c = "tosa.const"() <{values = dense<0.353553385> : tensor<1x1x1x1xf32>}> : () -> tensor<1x1x1x1xf32>
  %s3 = tosa.const_shape {values = dense<[8, 16, 8]> : tensor<3xindex>} : () -> !tosa.shape<3>
  %s4 = tosa.const_shape {values = dense<[2, 4, 16, 1]> : tensor<4xindex>} : () -> !tosa.shape<4>
  %s3s = tosa.const_shape {values = dense<[8, 16, 1]> : tensor<3xindex>} : () -> !tosa.shape<3>
  %s4o = tosa.const_shape {values = dense<[2, 4, 16, 8]> : tensor<4xindex>} : () -> !tosa.shape<4>
  %kt = tosa.transpose %k {perms = array<i32: 0, 1, 3, 2>} : (tensor<2x4x1x8xf32>) -> tensor<2x4x8x1xf32>
  %q3 = tosa.reshape %q, %s3 : (tensor<2x4x16x8xf32>, !tosa.shape<3>) -> tensor<8x16x8xf32>
  %s3k = tosa.const_shape {values = dense<[8, 8, 1]> : tensor<3xindex>} : () -> !tosa.shape<3>
  %k3 = tosa.reshape %kt, %s3k : (tensor<2x4x8x1xf32>, !tosa.shape<3>) -> tensor<8x8x1xf32>
  %s = tosa.matmul %q3, %k3, %zp, %zp : (tensor<8x16x8xf32>, tensor<8x8x1xf32>, tensor<1xf32>, tensor<1xf32>) -> tensor<8x16x1xf32>
  %s4d = tosa.reshape %s, %s4 : (tensor<8x16x1xf32>, !tosa.shape<4>) -> tensor<2x4x16x1xf32>
  %ss = tosa.mul %s4d, %c, %shift : (tensor<2x4x16x1xf32>, tensor<1x1x1x1xf32>, tensor<1xi8>) -> tensor<2x4x16x1xf32>
  %sb = tosa.add %ss, %mask : (tensor<2x4x16x1xf32>, tensor<2x1x1x1xf32>) -> tensor<2x4x16x1xf32>
  %m = tosa.reduce_max %sb {axis = 3 : i32} : (tensor<2x4x16x1xf32>) -> tensor<2x4x16x1xf32>
  %d = tosa.sub %sb, %m : (tensor<2x4x16x1xf32>, tensor<2x4x16x1xf32>) -> tensor<2x4x16x1xf32>
  %e = tosa.exp %d : (tensor<2x4x16x1xf32>) -> tensor<2x4x16x1xf32>
  %l = tosa.reduce_sum %e {axis = 3 : i32} : (tensor<2x4x16x1xf32>) -> tensor<2x4x16x1xf32>
  %r = tosa.reciprocal %l : (tensor<2x4x16x1xf32>) -> tensor<2x4x16x1xf32>
  %p = tosa.mul %e, %r, %shift : (tensor<2x4x16x1xf32>, tensor<2x4x16x1xf32>, tensor<1xi8>) -> tensor<2x4x16x1xf32>
  %p3 = tosa.reshape %p, %s3s : (tensor<2x4x16x1xf32>, !tosa.shape<3>) -> tensor<8x16x1xf32>
  %s3v = tosa.const_shape {values = dense<[8, 1, 8]> : tensor<3xindex>} : () -> !tosa.shape<3>
  %v3 = tosa.reshape %v, %s3v : (tensor<2x4x1x8xf32>, !tosa.shape<3>) -> tensor<8x1x8xf32>
  %o = tosa.matmul %p3, %v3, %zp, %zp : (tensor<8x16x1xf32>, tensor<8x1x8xf32>, tensor<1xf32>, tensor<1xf32>) -> tensor<8x16x8xf32>
  %o4 = tosa.reshape %o, %s4o : (tensor<8x16x8xf32>, !tosa.shape<4>) -> tensor<2x4x16x8xf32>
  return %o4 : tensor<2x4x16x8xf32>
}

// CHECK-LABEL: func.func @tosa_lse_one_key
// CHECK: attn.attention ins({{.*}} : tensor<1x8x16x8xf32>, tensor<1x8x1x8xf32>, tensor<1x8x1x8xf32>) {scale = 0.353553385 : f32}
// CHECK-NOT: linalg.
// CHECK: return
// PROOF: @tosa_lse_one_key: 1 attn.attention after the raising
// PROOF: run 1 result 0 tensor<8x16x8xf32>: {{.*}}: PASS
func.func @tosa_lse_one_key(%q: tensor<8x16x8xf32>, %k: tensor<8x1x8xf32>, %v: tensor<8x1x8xf32>) -> tensor<8x16x8xf32> {
  %zp = "tosa.const"() <{values = dense<0.0> : tensor<1xf32>}> : () -> tensor<1xf32>
  %shift = "tosa.const"() <{values = dense<0> : tensor<1xi8>}> : () -> tensor<1xi8>
  %d = "tosa.const"() <{values = dense<2.82842708> : tensor<1x1x1xf32>}> : () -> tensor<1x1x1xf32>
  %c = tosa.reciprocal %d : (tensor<1x1x1xf32>) -> tensor<1x1x1xf32>
  %kt = tosa.transpose %k {perms = array<i32: 0, 2, 1>} : (tensor<8x1x8xf32>) -> tensor<8x8x1xf32>
  %s = tosa.matmul %q, %kt, %zp, %zp : (tensor<8x16x8xf32>, tensor<8x8x1xf32>, tensor<1xf32>, tensor<1xf32>) -> tensor<8x16x1xf32>
  %ss = tosa.mul %s, %c, %shift : (tensor<8x16x1xf32>, tensor<1x1x1xf32>, tensor<1xi8>) -> tensor<8x16x1xf32>
  %m = tosa.reduce_max %ss {axis = 2 : i32} : (tensor<8x16x1xf32>) -> tensor<8x16x1xf32>
  %x = tosa.sub %ss, %m : (tensor<8x16x1xf32>, tensor<8x16x1xf32>) -> tensor<8x16x1xf32>
  %e = tosa.exp %x : (tensor<8x16x1xf32>) -> tensor<8x16x1xf32>
  %l = tosa.reduce_sum %e {axis = 2 : i32} : (tensor<8x16x1xf32>) -> tensor<8x16x1xf32>
  %lg = tosa.log %l : (tensor<8x16x1xf32>) -> tensor<8x16x1xf32>
  %lse = tosa.add %m, %lg : (tensor<8x16x1xf32>, tensor<8x16x1xf32>) -> tensor<8x16x1xf32>
  %y = tosa.sub %ss, %lse : (tensor<8x16x1xf32>, tensor<8x16x1xf32>) -> tensor<8x16x1xf32>
  %p = tosa.exp %y : (tensor<8x16x1xf32>) -> tensor<8x16x1xf32>
  %o = tosa.matmul %p, %v, %zp, %zp : (tensor<8x16x1xf32>, tensor<8x1x8xf32>, tensor<1xf32>, tensor<1xf32>) -> tensor<8x16x8xf32>
  return %o : tensor<8x16x8xf32>
}
