// Raising front-end attention (issue 24): attn-raise-pipeline turns each chain
// into one attn.attention, attn-raise-check proves the raised function equal
// to the chain run in float64 on fresh seeded inputs, and attn-compile takes
// the result.
// RUN: attention-opt %s --attn-raise-pipeline | FileCheck %s
// RUN: attn-raise-check %s --require-raised --runs=2 --seed=24 | FileCheck %s --check-prefix=PROOF --implicit-check-not=FAIL
// RUN: attention-opt %s --attn-raise-pipeline | attn-compile - --chip=sm_90a -o %t.ptx 2>&1 | FileCheck %s --check-prefix=COMPILE
// COMPILE: attn-compile: wrote

// Heads folded into the batch for the 3-D tosa.matmul, 4-D scale/mask/softmax
// between reshapes, keepdim reductions, a reciprocal-multiply normalization.
// CHECK-LABEL: func.func @tosa_mha
// CHECK-NEXT: %[[O:.*]] = attn.attention ins(%arg0, %arg1, %arg2 : tensor<2x4x16x8xf32>, tensor<2x4x16x8xf32>, tensor<2x4x16x8xf32>) mask(%arg3 : tensor<2x1x1x16xf32>) {scale = 0.353553385 : f32}
// CHECK-NEXT: return %[[O]]
// PROOF: @tosa_mha: 1 attn.attention after the raising
// PROOF: run 1 result 0 tensor<2x4x16x8xf32>: {{.*}}: PASS
func.func @tosa_mha(%q: tensor<2x4x16x8xf32>, %k: tensor<2x4x16x8xf32>, %v: tensor<2x4x16x8xf32>, %mask: tensor<2x1x1x16xf32>) -> tensor<2x4x16x8xf32> {
  %zp = "tosa.const"() <{values = dense<0.0> : tensor<1xf32>}> : () -> tensor<1xf32>
  %shift = "tosa.const"() <{values = dense<0> : tensor<1xi8>}> : () -> tensor<1xi8>
  %c = "tosa.const"() <{values = dense<0.353553385> : tensor<1x1x1x1xf32>}> : () -> tensor<1x1x1x1xf32>
  %s3 = tosa.const_shape {values = dense<[8, 16, 8]> : tensor<3xindex>} : () -> !tosa.shape<3>
  %s4 = tosa.const_shape {values = dense<[2, 4, 16, 16]> : tensor<4xindex>} : () -> !tosa.shape<4>
  %s3s = tosa.const_shape {values = dense<[8, 16, 16]> : tensor<3xindex>} : () -> !tosa.shape<3>
  %s4o = tosa.const_shape {values = dense<[2, 4, 16, 8]> : tensor<4xindex>} : () -> !tosa.shape<4>
  %kt = tosa.transpose %k {perms = array<i32: 0, 1, 3, 2>} : (tensor<2x4x16x8xf32>) -> tensor<2x4x8x16xf32>
  %q3 = tosa.reshape %q, %s3 : (tensor<2x4x16x8xf32>, !tosa.shape<3>) -> tensor<8x16x8xf32>
  %s3k = tosa.const_shape {values = dense<[8, 8, 16]> : tensor<3xindex>} : () -> !tosa.shape<3>
  %k3 = tosa.reshape %kt, %s3k : (tensor<2x4x8x16xf32>, !tosa.shape<3>) -> tensor<8x8x16xf32>
  %s = tosa.matmul %q3, %k3, %zp, %zp : (tensor<8x16x8xf32>, tensor<8x8x16xf32>, tensor<1xf32>, tensor<1xf32>) -> tensor<8x16x16xf32>
  %s4d = tosa.reshape %s, %s4 : (tensor<8x16x16xf32>, !tosa.shape<4>) -> tensor<2x4x16x16xf32>
  %ss = tosa.mul %s4d, %c, %shift : (tensor<2x4x16x16xf32>, tensor<1x1x1x1xf32>, tensor<1xi8>) -> tensor<2x4x16x16xf32>
  %sb = tosa.add %ss, %mask : (tensor<2x4x16x16xf32>, tensor<2x1x1x16xf32>) -> tensor<2x4x16x16xf32>
  %m = tosa.reduce_max %sb {axis = 3 : i32} : (tensor<2x4x16x16xf32>) -> tensor<2x4x16x1xf32>
  %d = tosa.sub %sb, %m : (tensor<2x4x16x16xf32>, tensor<2x4x16x1xf32>) -> tensor<2x4x16x16xf32>
  %e = tosa.exp %d : (tensor<2x4x16x16xf32>) -> tensor<2x4x16x16xf32>
  %l = tosa.reduce_sum %e {axis = 3 : i32} : (tensor<2x4x16x16xf32>) -> tensor<2x4x16x1xf32>
  %r = tosa.reciprocal %l : (tensor<2x4x16x1xf32>) -> tensor<2x4x16x1xf32>
  %p = tosa.mul %e, %r, %shift : (tensor<2x4x16x16xf32>, tensor<2x4x16x1xf32>, tensor<1xi8>) -> tensor<2x4x16x16xf32>
  %p3 = tosa.reshape %p, %s3s : (tensor<2x4x16x16xf32>, !tosa.shape<3>) -> tensor<8x16x16xf32>
  %v3 = tosa.reshape %v, %s3 : (tensor<2x4x16x8xf32>, !tosa.shape<3>) -> tensor<8x16x8xf32>
  %o = tosa.matmul %p3, %v3, %zp, %zp : (tensor<8x16x16xf32>, tensor<8x16x8xf32>, tensor<1xf32>, tensor<1xf32>) -> tensor<8x16x8xf32>
  %o4 = tosa.reshape %o, %s4o : (tensor<8x16x8xf32>, !tosa.shape<4>) -> tensor<2x4x16x8xf32>
  return %o4 : tensor<2x4x16x8xf32>
}

// The log-sum-exp softmax exp(s - (max + log sum exp(s - max))) and a scale
// given as the reciprocal of a constant.
// CHECK-LABEL: func.func @tosa_lse
// CHECK: attn.attention ins({{.*}} : tensor<1x8x16x8xf32>, tensor<1x8x16x8xf32>, tensor<1x8x16x8xf32>) {scale = 0.353553385 : f32}
// CHECK-NOT: linalg.
// PROOF: @tosa_lse: 1 attn.attention after the raising
// PROOF: run 1 result 0 {{.*}}: PASS
func.func @tosa_lse(%q: tensor<8x16x8xf32>, %k: tensor<8x16x8xf32>, %v: tensor<8x16x8xf32>) -> tensor<8x16x8xf32> {
  %zp = "tosa.const"() <{values = dense<0.0> : tensor<1xf32>}> : () -> tensor<1xf32>
  %shift = "tosa.const"() <{values = dense<0> : tensor<1xi8>}> : () -> tensor<1xi8>
  %d = "tosa.const"() <{values = dense<2.82842708> : tensor<1x1x1xf32>}> : () -> tensor<1x1x1xf32>
  %c = tosa.reciprocal %d : (tensor<1x1x1xf32>) -> tensor<1x1x1xf32>
  %kt = tosa.transpose %k {perms = array<i32: 0, 2, 1>} : (tensor<8x16x8xf32>) -> tensor<8x8x16xf32>
  %s = tosa.matmul %q, %kt, %zp, %zp : (tensor<8x16x8xf32>, tensor<8x8x16xf32>, tensor<1xf32>, tensor<1xf32>) -> tensor<8x16x16xf32>
  %ss = tosa.mul %s, %c, %shift : (tensor<8x16x16xf32>, tensor<1x1x1xf32>, tensor<1xi8>) -> tensor<8x16x16xf32>
  %m = tosa.reduce_max %ss {axis = 2 : i32} : (tensor<8x16x16xf32>) -> tensor<8x16x1xf32>
  %x = tosa.sub %ss, %m : (tensor<8x16x16xf32>, tensor<8x16x1xf32>) -> tensor<8x16x16xf32>
  %e = tosa.exp %x : (tensor<8x16x16xf32>) -> tensor<8x16x16xf32>
  %l = tosa.reduce_sum %e {axis = 2 : i32} : (tensor<8x16x16xf32>) -> tensor<8x16x1xf32>
  %lg = tosa.log %l : (tensor<8x16x1xf32>) -> tensor<8x16x1xf32>
  %lse = tosa.add %m, %lg : (tensor<8x16x1xf32>, tensor<8x16x1xf32>) -> tensor<8x16x1xf32>
  %y = tosa.sub %ss, %lse : (tensor<8x16x16xf32>, tensor<8x16x1xf32>) -> tensor<8x16x16xf32>
  %p = tosa.exp %y : (tensor<8x16x16xf32>) -> tensor<8x16x16xf32>
  %o = tosa.matmul %p, %v, %zp, %zp : (tensor<8x16x16xf32>, tensor<8x16x8xf32>, tensor<1xf32>, tensor<1xf32>) -> tensor<8x16x8xf32>
  return %o : tensor<8x16x8xf32>
}

// The row max broadcast to the scores' shape by a multiply with ones.
// CHECK-LABEL: func.func @ones_broadcast
// CHECK: attn.attention {{.*}} {scale = 1.000000e+00 : f32}
// CHECK-NOT: linalg.
// PROOF: @ones_broadcast: 1 attn.attention after the raising
// PROOF: run 1 result 0 {{.*}}: PASS
func.func @ones_broadcast(%q: tensor<4x16x8xf32>, %k: tensor<4x16x8xf32>, %v: tensor<4x16x8xf32>) -> tensor<4x16x8xf32> {
  %zp = "tosa.const"() <{values = dense<0.0> : tensor<1xf32>}> : () -> tensor<1xf32>
  %shift = "tosa.const"() <{values = dense<0> : tensor<1xi8>}> : () -> tensor<1xi8>
  %ones = "tosa.const"() <{values = dense<1.0> : tensor<1x1x16xf32>}> : () -> tensor<1x1x16xf32>
  %kt = tosa.transpose %k {perms = array<i32: 0, 2, 1>} : (tensor<4x16x8xf32>) -> tensor<4x8x16xf32>
  %s = tosa.matmul %q, %kt, %zp, %zp : (tensor<4x16x8xf32>, tensor<4x8x16xf32>, tensor<1xf32>, tensor<1xf32>) -> tensor<4x16x16xf32>
  %m = tosa.reduce_max %s {axis = 2 : i32} : (tensor<4x16x16xf32>) -> tensor<4x16x1xf32>
  %mb = tosa.mul %m, %ones, %shift : (tensor<4x16x1xf32>, tensor<1x1x16xf32>, tensor<1xi8>) -> tensor<4x16x16xf32>
  %d = tosa.sub %s, %mb : (tensor<4x16x16xf32>, tensor<4x16x16xf32>) -> tensor<4x16x16xf32>
  %e = tosa.exp %d : (tensor<4x16x16xf32>) -> tensor<4x16x16xf32>
  %l = tosa.reduce_sum %e {axis = 2 : i32} : (tensor<4x16x16xf32>) -> tensor<4x16x1xf32>
  %r = tosa.reciprocal %l : (tensor<4x16x1xf32>) -> tensor<4x16x1xf32>
  %p = tosa.mul %e, %r, %shift : (tensor<4x16x16xf32>, tensor<4x16x1xf32>, tensor<1xi8>) -> tensor<4x16x16xf32>
  %o = tosa.matmul %p, %v, %zp, %zp : (tensor<4x16x16xf32>, tensor<4x16x8xf32>, tensor<1xf32>, tensor<1xf32>) -> tensor<4x16x8xf32>
  return %o : tensor<4x16x8xf32>
}

// Grouped-query attention: K repeated over the 4 query heads of each KV head
// by tosa.tile, V by an add of zeros, the heads folded for tosa.matmul.
// CHECK-LABEL: func.func @gqa_tile
// CHECK-NEXT: %[[O:.*]] = attn.attention ins(%arg0, %arg1, %arg2 : tensor<1x8x16x8xf32>, tensor<1x2x16x8xf32>, tensor<1x2x16x8xf32>) {scale = 0.353553385 : f32}
// CHECK-NEXT: return %[[O]]
// PROOF: @gqa_tile: 1 attn.attention after the raising
// PROOF: run 1 result 0 {{.*}}: PASS
func.func @gqa_tile(%q: tensor<1x8x16x8xf32>, %k: tensor<1x2x16x8xf32>, %v: tensor<1x2x16x8xf32>) -> tensor<1x8x16x8xf32> {
  %zp = "tosa.const"() <{values = dense<0.0> : tensor<1xf32>}> : () -> tensor<1xf32>
  %shift = "tosa.const"() <{values = dense<0> : tensor<1xi8>}> : () -> tensor<1xi8>
  %c = "tosa.const"() <{values = dense<0.353553385> : tensor<1x1x1xf32>}> : () -> tensor<1x1x1xf32>
  %zeros = "tosa.const"() <{values = dense<0.0> : tensor<1x1x4x1x1xf32>}> : () -> tensor<1x1x4x1x1xf32>
  %s5 = tosa.const_shape {values = dense<[1, 2, 1, 16, 8]> : tensor<5xindex>} : () -> !tosa.shape<5>
  %mult = tosa.const_shape {values = dense<[1, 1, 4, 1, 1]> : tensor<5xindex>} : () -> !tosa.shape<5>
  %s3 = tosa.const_shape {values = dense<[8, 16, 8]> : tensor<3xindex>} : () -> !tosa.shape<3>
  %s4 = tosa.const_shape {values = dense<[1, 8, 16, 8]> : tensor<4xindex>} : () -> !tosa.shape<4>
  %k5 = tosa.reshape %k, %s5 : (tensor<1x2x16x8xf32>, !tosa.shape<5>) -> tensor<1x2x1x16x8xf32>
  %kt5 = tosa.tile %k5, %mult : (tensor<1x2x1x16x8xf32>, !tosa.shape<5>) -> tensor<1x2x4x16x8xf32>
  %v5 = tosa.reshape %v, %s5 : (tensor<1x2x16x8xf32>, !tosa.shape<5>) -> tensor<1x2x1x16x8xf32>
  %vb5 = tosa.add %v5, %zeros : (tensor<1x2x1x16x8xf32>, tensor<1x1x4x1x1xf32>) -> tensor<1x2x4x16x8xf32>
  %k3 = tosa.reshape %kt5, %s3 : (tensor<1x2x4x16x8xf32>, !tosa.shape<3>) -> tensor<8x16x8xf32>
  %v3 = tosa.reshape %vb5, %s3 : (tensor<1x2x4x16x8xf32>, !tosa.shape<3>) -> tensor<8x16x8xf32>
  %q3 = tosa.reshape %q, %s3 : (tensor<1x8x16x8xf32>, !tosa.shape<3>) -> tensor<8x16x8xf32>
  %kt = tosa.transpose %k3 {perms = array<i32: 0, 2, 1>} : (tensor<8x16x8xf32>) -> tensor<8x8x16xf32>
  %s = tosa.matmul %q3, %kt, %zp, %zp : (tensor<8x16x8xf32>, tensor<8x8x16xf32>, tensor<1xf32>, tensor<1xf32>) -> tensor<8x16x16xf32>
  %ss = tosa.mul %s, %c, %shift : (tensor<8x16x16xf32>, tensor<1x1x1xf32>, tensor<1xi8>) -> tensor<8x16x16xf32>
  %m = tosa.reduce_max %ss {axis = 2 : i32} : (tensor<8x16x16xf32>) -> tensor<8x16x1xf32>
  %d = tosa.sub %ss, %m : (tensor<8x16x16xf32>, tensor<8x16x1xf32>) -> tensor<8x16x16xf32>
  %e = tosa.exp %d : (tensor<8x16x16xf32>) -> tensor<8x16x16xf32>
  %l = tosa.reduce_sum %e {axis = 2 : i32} : (tensor<8x16x16xf32>) -> tensor<8x16x1xf32>
  %r = tosa.reciprocal %l : (tensor<8x16x1xf32>) -> tensor<8x16x1xf32>
  %p = tosa.mul %e, %r, %shift : (tensor<8x16x16xf32>, tensor<8x16x1xf32>, tensor<1xi8>) -> tensor<8x16x16xf32>
  %o = tosa.matmul %p, %v3, %zp, %zp : (tensor<8x16x16xf32>, tensor<8x16x8xf32>, tensor<1xf32>, tensor<1xf32>) -> tensor<8x16x8xf32>
  %o4 = tosa.reshape %o, %s4 : (tensor<8x16x8xf32>, !tosa.shape<4>) -> tensor<1x8x16x8xf32>
  return %o4 : tensor<1x8x16x8xf32>
}

// A materialized causal mask (a constant tril buffer, as exported models
// carry) applied with tosa.select: the band becomes causal = top_left and
// no mask operand remains.
// CHECK-LABEL: func.func @tosa_const_causal
// CHECK: attn.attention ins({{.*}}) {causal = #attn.causal<top_left>, scale = 0.353553385 : f32}
// PROOF: @tosa_const_causal: 1 attn.attention after the raising
// PROOF: run 1 result 0 {{.*}}: PASS
func.func @tosa_const_causal(%q: tensor<2x4x8xf32>, %k: tensor<2x4x8xf32>, %v: tensor<2x4x8xf32>) -> tensor<2x4x8xf32> {
  %zp = "tosa.const"() <{values = dense<0.0> : tensor<1xf32>}> : () -> tensor<1xf32>
  %shift = "tosa.const"() <{values = dense<0> : tensor<1xi8>}> : () -> tensor<1xi8>
  %c = "tosa.const"() <{values = dense<0.353553385> : tensor<1x1x1xf32>}> : () -> tensor<1x1x1xf32>
  %ninf = "tosa.const"() <{values = dense<0xFF800000> : tensor<1x1x1xf32>}> : () -> tensor<1x1x1xf32>
  %tril = "tosa.const"() <{values = dense<[[[true, false, false, false], [true, true, false, false], [true, true, true, false], [true, true, true, true]]]> : tensor<1x4x4xi1>}> : () -> tensor<1x4x4xi1>
  %kt = tosa.transpose %k {perms = array<i32: 0, 2, 1>} : (tensor<2x4x8xf32>) -> tensor<2x8x4xf32>
  %s = tosa.matmul %q, %kt, %zp, %zp : (tensor<2x4x8xf32>, tensor<2x8x4xf32>, tensor<1xf32>, tensor<1xf32>) -> tensor<2x4x4xf32>
  %ss = tosa.mul %s, %c, %shift : (tensor<2x4x4xf32>, tensor<1x1x1xf32>, tensor<1xi8>) -> tensor<2x4x4xf32>
  %sm = tosa.select %tril, %ss, %ninf : (tensor<1x4x4xi1>, tensor<2x4x4xf32>, tensor<1x1x1xf32>) -> tensor<2x4x4xf32>
  %m = tosa.reduce_max %sm {axis = 2 : i32} : (tensor<2x4x4xf32>) -> tensor<2x4x1xf32>
  %d = tosa.sub %sm, %m : (tensor<2x4x4xf32>, tensor<2x4x1xf32>) -> tensor<2x4x4xf32>
  %e = tosa.exp %d : (tensor<2x4x4xf32>) -> tensor<2x4x4xf32>
  %l = tosa.reduce_sum %e {axis = 2 : i32} : (tensor<2x4x4xf32>) -> tensor<2x4x1xf32>
  %r = tosa.reciprocal %l : (tensor<2x4x1xf32>) -> tensor<2x4x1xf32>
  %p = tosa.mul %e, %r, %shift : (tensor<2x4x4xf32>, tensor<2x4x1xf32>, tensor<1xi8>) -> tensor<2x4x4xf32>
  %o = tosa.matmul %p, %v, %zp, %zp : (tensor<2x4x4xf32>, tensor<2x4x8xf32>, tensor<1xf32>, tensor<1xf32>) -> tensor<2x4x8xf32>
  return %o : tensor<2x4x8xf32>
}

// A causal mask built by tosa.greater of two arange constants (key index >
// query index is excluded with tosa.select): evaluated to a constant band.
// CHECK-LABEL: func.func @tosa_arange_causal
// CHECK: attn.attention ins({{.*}}) {causal = #attn.causal<top_left>, scale = 1.000000e+00 : f32}
// PROOF: @tosa_arange_causal: 1 attn.attention after the raising
// PROOF: run 1 result 0 {{.*}}: PASS
func.func @tosa_arange_causal(%q: tensor<2x4x8xf32>, %k: tensor<2x4x8xf32>, %v: tensor<2x4x8xf32>) -> tensor<2x4x8xf32> {
  %zp = "tosa.const"() <{values = dense<0.0> : tensor<1xf32>}> : () -> tensor<1xf32>
  %shift = "tosa.const"() <{values = dense<0> : tensor<1xi8>}> : () -> tensor<1xi8>
  %ninf = "tosa.const"() <{values = dense<0xFF800000> : tensor<1x1x1xf32>}> : () -> tensor<1x1x1xf32>
  %rows = "tosa.const"() <{values = dense<[[[0], [1], [2], [3]]]> : tensor<1x4x1xi32>}> : () -> tensor<1x4x1xi32>
  %cols = "tosa.const"() <{values = dense<[[[0, 1, 2, 3]]]> : tensor<1x1x4xi32>}> : () -> tensor<1x1x4xi32>
  %after = tosa.greater %cols, %rows : (tensor<1x1x4xi32>, tensor<1x4x1xi32>) -> tensor<1x4x4xi1>
  %kt = tosa.transpose %k {perms = array<i32: 0, 2, 1>} : (tensor<2x4x8xf32>) -> tensor<2x8x4xf32>
  %s = tosa.matmul %q, %kt, %zp, %zp : (tensor<2x4x8xf32>, tensor<2x8x4xf32>, tensor<1xf32>, tensor<1xf32>) -> tensor<2x4x4xf32>
  %sm = tosa.select %after, %ninf, %s : (tensor<1x4x4xi1>, tensor<1x1x1xf32>, tensor<2x4x4xf32>) -> tensor<2x4x4xf32>
  %m = tosa.reduce_max %sm {axis = 2 : i32} : (tensor<2x4x4xf32>) -> tensor<2x4x1xf32>
  %d = tosa.sub %sm, %m : (tensor<2x4x4xf32>, tensor<2x4x1xf32>) -> tensor<2x4x4xf32>
  %e = tosa.exp %d : (tensor<2x4x4xf32>) -> tensor<2x4x4xf32>
  %l = tosa.reduce_sum %e {axis = 2 : i32} : (tensor<2x4x4xf32>) -> tensor<2x4x1xf32>
  %r = tosa.reciprocal %l : (tensor<2x4x1xf32>) -> tensor<2x4x1xf32>
  %p = tosa.mul %e, %r, %shift : (tensor<2x4x4xf32>, tensor<2x4x1xf32>, tensor<1xi8>) -> tensor<2x4x4xf32>
  %o = tosa.matmul %p, %v, %zp, %zp : (tensor<2x4x4xf32>, tensor<2x4x8xf32>, tensor<1xf32>, tensor<1xf32>) -> tensor<2x4x8xf32>
  return %o : tensor<2x4x8xf32>
}

// The same at a real length (300 x 300 = 90000 mask elements, too many to
// evaluate): the aranges become linalg.index arithmetic, and the index
// comparison is read as causal at any size.
// CHECK-LABEL: func.func @tosa_arange_causal_large
// CHECK: attn.attention ins({{.*}}) {causal = #attn.causal<top_left>, scale = 1.000000e+00 : f32}
// PROOF: @tosa_arange_causal_large: 1 attn.attention after the raising
// PROOF: run 1 result 0 {{.*}}: PASS
func.func @tosa_arange_causal_large(%q: tensor<2x300x8xf32>, %k: tensor<2x300x8xf32>, %v: tensor<2x300x8xf32>) -> tensor<2x300x8xf32> {
  %zp = "tosa.const"() <{values = dense<0.0> : tensor<1xf32>}> : () -> tensor<1xf32>
  %shift = "tosa.const"() <{values = dense<0> : tensor<1xi8>}> : () -> tensor<1xi8>
  %ninf = "tosa.const"() <{values = dense<0xFF800000> : tensor<1x1x1xf32>}> : () -> tensor<1x1x1xf32>
  %rows = "tosa.const"() <{values = dense<[[[0], [1], [2], [3], [4], [5], [6], [7], [8], [9], [10], [11], [12], [13], [14], [15], [16], [17], [18], [19], [20], [21], [22], [23], [24], [25], [26], [27], [28], [29], [30], [31], [32], [33], [34], [35], [36], [37], [38], [39], [40], [41], [42], [43], [44], [45], [46], [47], [48], [49], [50], [51], [52], [53], [54], [55], [56], [57], [58], [59], [60], [61], [62], [63], [64], [65], [66], [67], [68], [69], [70], [71], [72], [73], [74], [75], [76], [77], [78], [79], [80], [81], [82], [83], [84], [85], [86], [87], [88], [89], [90], [91], [92], [93], [94], [95], [96], [97], [98], [99], [100], [101], [102], [103], [104], [105], [106], [107], [108], [109], [110], [111], [112], [113], [114], [115], [116], [117], [118], [119], [120], [121], [122], [123], [124], [125], [126], [127], [128], [129], [130], [131], [132], [133], [134], [135], [136], [137], [138], [139], [140], [141], [142], [143], [144], [145], [146], [147], [148], [149], [150], [151], [152], [153], [154], [155], [156], [157], [158], [159], [160], [161], [162], [163], [164], [165], [166], [167], [168], [169], [170], [171], [172], [173], [174], [175], [176], [177], [178], [179], [180], [181], [182], [183], [184], [185], [186], [187], [188], [189], [190], [191], [192], [193], [194], [195], [196], [197], [198], [199], [200], [201], [202], [203], [204], [205], [206], [207], [208], [209], [210], [211], [212], [213], [214], [215], [216], [217], [218], [219], [220], [221], [222], [223], [224], [225], [226], [227], [228], [229], [230], [231], [232], [233], [234], [235], [236], [237], [238], [239], [240], [241], [242], [243], [244], [245], [246], [247], [248], [249], [250], [251], [252], [253], [254], [255], [256], [257], [258], [259], [260], [261], [262], [263], [264], [265], [266], [267], [268], [269], [270], [271], [272], [273], [274], [275], [276], [277], [278], [279], [280], [281], [282], [283], [284], [285], [286], [287], [288], [289], [290], [291], [292], [293], [294], [295], [296], [297], [298], [299]]]> : tensor<1x300x1xi32>}> : () -> tensor<1x300x1xi32>
  %cols = "tosa.const"() <{values = dense<[[[0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16, 17, 18, 19, 20, 21, 22, 23, 24, 25, 26, 27, 28, 29, 30, 31, 32, 33, 34, 35, 36, 37, 38, 39, 40, 41, 42, 43, 44, 45, 46, 47, 48, 49, 50, 51, 52, 53, 54, 55, 56, 57, 58, 59, 60, 61, 62, 63, 64, 65, 66, 67, 68, 69, 70, 71, 72, 73, 74, 75, 76, 77, 78, 79, 80, 81, 82, 83, 84, 85, 86, 87, 88, 89, 90, 91, 92, 93, 94, 95, 96, 97, 98, 99, 100, 101, 102, 103, 104, 105, 106, 107, 108, 109, 110, 111, 112, 113, 114, 115, 116, 117, 118, 119, 120, 121, 122, 123, 124, 125, 126, 127, 128, 129, 130, 131, 132, 133, 134, 135, 136, 137, 138, 139, 140, 141, 142, 143, 144, 145, 146, 147, 148, 149, 150, 151, 152, 153, 154, 155, 156, 157, 158, 159, 160, 161, 162, 163, 164, 165, 166, 167, 168, 169, 170, 171, 172, 173, 174, 175, 176, 177, 178, 179, 180, 181, 182, 183, 184, 185, 186, 187, 188, 189, 190, 191, 192, 193, 194, 195, 196, 197, 198, 199, 200, 201, 202, 203, 204, 205, 206, 207, 208, 209, 210, 211, 212, 213, 214, 215, 216, 217, 218, 219, 220, 221, 222, 223, 224, 225, 226, 227, 228, 229, 230, 231, 232, 233, 234, 235, 236, 237, 238, 239, 240, 241, 242, 243, 244, 245, 246, 247, 248, 249, 250, 251, 252, 253, 254, 255, 256, 257, 258, 259, 260, 261, 262, 263, 264, 265, 266, 267, 268, 269, 270, 271, 272, 273, 274, 275, 276, 277, 278, 279, 280, 281, 282, 283, 284, 285, 286, 287, 288, 289, 290, 291, 292, 293, 294, 295, 296, 297, 298, 299]]]> : tensor<1x1x300xi32>}> : () -> tensor<1x1x300xi32>
  %after = tosa.greater %cols, %rows : (tensor<1x1x300xi32>, tensor<1x300x1xi32>) -> tensor<1x300x300xi1>
  %kt = tosa.transpose %k {perms = array<i32: 0, 2, 1>} : (tensor<2x300x8xf32>) -> tensor<2x8x300xf32>
  %s = tosa.matmul %q, %kt, %zp, %zp : (tensor<2x300x8xf32>, tensor<2x8x300xf32>, tensor<1xf32>, tensor<1xf32>) -> tensor<2x300x300xf32>
  %sm = tosa.select %after, %ninf, %s : (tensor<1x300x300xi1>, tensor<1x1x1xf32>, tensor<2x300x300xf32>) -> tensor<2x300x300xf32>
  %m = tosa.reduce_max %sm {axis = 2 : i32} : (tensor<2x300x300xf32>) -> tensor<2x300x1xf32>
  %d = tosa.sub %sm, %m : (tensor<2x300x300xf32>, tensor<2x300x1xf32>) -> tensor<2x300x300xf32>
  %e = tosa.exp %d : (tensor<2x300x300xf32>) -> tensor<2x300x300xf32>
  %l = tosa.reduce_sum %e {axis = 2 : i32} : (tensor<2x300x300xf32>) -> tensor<2x300x1xf32>
  %r = tosa.reciprocal %l : (tensor<2x300x1xf32>) -> tensor<2x300x1xf32>
  %p = tosa.mul %e, %r, %shift : (tensor<2x300x300xf32>, tensor<2x300x1xf32>, tensor<1xi8>) -> tensor<2x300x300xf32>
  %o = tosa.matmul %p, %v, %zp, %zp : (tensor<2x300x300xf32>, tensor<2x300x8xf32>, tensor<1xf32>, tensor<1xf32>) -> tensor<2x300x8xf32>
  return %o : tensor<2x300x8xf32>
}

// A sliding window from two arange comparisons joined by tosa.logical_or
// (keys after the query, or more than 64 before it, excluded), 300 x 300:
// both sides of the band are read from the index arithmetic.
// CHECK-LABEL: func.func @tosa_arange_window_large
// CHECK: attn.attention ins({{.*}}) {causal = #attn.causal<top_left>, scale = 1.000000e+00 : f32, window = array<i64: 64, -1>}
// PROOF: @tosa_arange_window_large: 1 attn.attention after the raising
// PROOF: run 1 result 0 {{.*}}: PASS
func.func @tosa_arange_window_large(%q: tensor<2x300x8xf32>, %k: tensor<2x300x8xf32>, %v: tensor<2x300x8xf32>) -> tensor<2x300x8xf32> {
  %zp = "tosa.const"() <{values = dense<0.0> : tensor<1xf32>}> : () -> tensor<1xf32>
  %shift = "tosa.const"() <{values = dense<0> : tensor<1xi8>}> : () -> tensor<1xi8>
  %ninf = "tosa.const"() <{values = dense<0xFF800000> : tensor<1x1x1xf32>}> : () -> tensor<1x1x1xf32>
  %rows = "tosa.const"() <{values = dense<[[[0], [1], [2], [3], [4], [5], [6], [7], [8], [9], [10], [11], [12], [13], [14], [15], [16], [17], [18], [19], [20], [21], [22], [23], [24], [25], [26], [27], [28], [29], [30], [31], [32], [33], [34], [35], [36], [37], [38], [39], [40], [41], [42], [43], [44], [45], [46], [47], [48], [49], [50], [51], [52], [53], [54], [55], [56], [57], [58], [59], [60], [61], [62], [63], [64], [65], [66], [67], [68], [69], [70], [71], [72], [73], [74], [75], [76], [77], [78], [79], [80], [81], [82], [83], [84], [85], [86], [87], [88], [89], [90], [91], [92], [93], [94], [95], [96], [97], [98], [99], [100], [101], [102], [103], [104], [105], [106], [107], [108], [109], [110], [111], [112], [113], [114], [115], [116], [117], [118], [119], [120], [121], [122], [123], [124], [125], [126], [127], [128], [129], [130], [131], [132], [133], [134], [135], [136], [137], [138], [139], [140], [141], [142], [143], [144], [145], [146], [147], [148], [149], [150], [151], [152], [153], [154], [155], [156], [157], [158], [159], [160], [161], [162], [163], [164], [165], [166], [167], [168], [169], [170], [171], [172], [173], [174], [175], [176], [177], [178], [179], [180], [181], [182], [183], [184], [185], [186], [187], [188], [189], [190], [191], [192], [193], [194], [195], [196], [197], [198], [199], [200], [201], [202], [203], [204], [205], [206], [207], [208], [209], [210], [211], [212], [213], [214], [215], [216], [217], [218], [219], [220], [221], [222], [223], [224], [225], [226], [227], [228], [229], [230], [231], [232], [233], [234], [235], [236], [237], [238], [239], [240], [241], [242], [243], [244], [245], [246], [247], [248], [249], [250], [251], [252], [253], [254], [255], [256], [257], [258], [259], [260], [261], [262], [263], [264], [265], [266], [267], [268], [269], [270], [271], [272], [273], [274], [275], [276], [277], [278], [279], [280], [281], [282], [283], [284], [285], [286], [287], [288], [289], [290], [291], [292], [293], [294], [295], [296], [297], [298], [299]]]> : tensor<1x300x1xi32>}> : () -> tensor<1x300x1xi32>
  %oldest = "tosa.const"() <{values = dense<[[[-64], [-63], [-62], [-61], [-60], [-59], [-58], [-57], [-56], [-55], [-54], [-53], [-52], [-51], [-50], [-49], [-48], [-47], [-46], [-45], [-44], [-43], [-42], [-41], [-40], [-39], [-38], [-37], [-36], [-35], [-34], [-33], [-32], [-31], [-30], [-29], [-28], [-27], [-26], [-25], [-24], [-23], [-22], [-21], [-20], [-19], [-18], [-17], [-16], [-15], [-14], [-13], [-12], [-11], [-10], [-9], [-8], [-7], [-6], [-5], [-4], [-3], [-2], [-1], [0], [1], [2], [3], [4], [5], [6], [7], [8], [9], [10], [11], [12], [13], [14], [15], [16], [17], [18], [19], [20], [21], [22], [23], [24], [25], [26], [27], [28], [29], [30], [31], [32], [33], [34], [35], [36], [37], [38], [39], [40], [41], [42], [43], [44], [45], [46], [47], [48], [49], [50], [51], [52], [53], [54], [55], [56], [57], [58], [59], [60], [61], [62], [63], [64], [65], [66], [67], [68], [69], [70], [71], [72], [73], [74], [75], [76], [77], [78], [79], [80], [81], [82], [83], [84], [85], [86], [87], [88], [89], [90], [91], [92], [93], [94], [95], [96], [97], [98], [99], [100], [101], [102], [103], [104], [105], [106], [107], [108], [109], [110], [111], [112], [113], [114], [115], [116], [117], [118], [119], [120], [121], [122], [123], [124], [125], [126], [127], [128], [129], [130], [131], [132], [133], [134], [135], [136], [137], [138], [139], [140], [141], [142], [143], [144], [145], [146], [147], [148], [149], [150], [151], [152], [153], [154], [155], [156], [157], [158], [159], [160], [161], [162], [163], [164], [165], [166], [167], [168], [169], [170], [171], [172], [173], [174], [175], [176], [177], [178], [179], [180], [181], [182], [183], [184], [185], [186], [187], [188], [189], [190], [191], [192], [193], [194], [195], [196], [197], [198], [199], [200], [201], [202], [203], [204], [205], [206], [207], [208], [209], [210], [211], [212], [213], [214], [215], [216], [217], [218], [219], [220], [221], [222], [223], [224], [225], [226], [227], [228], [229], [230], [231], [232], [233], [234], [235]]]> : tensor<1x300x1xi32>}> : () -> tensor<1x300x1xi32>
  %cols = "tosa.const"() <{values = dense<[[[0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16, 17, 18, 19, 20, 21, 22, 23, 24, 25, 26, 27, 28, 29, 30, 31, 32, 33, 34, 35, 36, 37, 38, 39, 40, 41, 42, 43, 44, 45, 46, 47, 48, 49, 50, 51, 52, 53, 54, 55, 56, 57, 58, 59, 60, 61, 62, 63, 64, 65, 66, 67, 68, 69, 70, 71, 72, 73, 74, 75, 76, 77, 78, 79, 80, 81, 82, 83, 84, 85, 86, 87, 88, 89, 90, 91, 92, 93, 94, 95, 96, 97, 98, 99, 100, 101, 102, 103, 104, 105, 106, 107, 108, 109, 110, 111, 112, 113, 114, 115, 116, 117, 118, 119, 120, 121, 122, 123, 124, 125, 126, 127, 128, 129, 130, 131, 132, 133, 134, 135, 136, 137, 138, 139, 140, 141, 142, 143, 144, 145, 146, 147, 148, 149, 150, 151, 152, 153, 154, 155, 156, 157, 158, 159, 160, 161, 162, 163, 164, 165, 166, 167, 168, 169, 170, 171, 172, 173, 174, 175, 176, 177, 178, 179, 180, 181, 182, 183, 184, 185, 186, 187, 188, 189, 190, 191, 192, 193, 194, 195, 196, 197, 198, 199, 200, 201, 202, 203, 204, 205, 206, 207, 208, 209, 210, 211, 212, 213, 214, 215, 216, 217, 218, 219, 220, 221, 222, 223, 224, 225, 226, 227, 228, 229, 230, 231, 232, 233, 234, 235, 236, 237, 238, 239, 240, 241, 242, 243, 244, 245, 246, 247, 248, 249, 250, 251, 252, 253, 254, 255, 256, 257, 258, 259, 260, 261, 262, 263, 264, 265, 266, 267, 268, 269, 270, 271, 272, 273, 274, 275, 276, 277, 278, 279, 280, 281, 282, 283, 284, 285, 286, 287, 288, 289, 290, 291, 292, 293, 294, 295, 296, 297, 298, 299]]]> : tensor<1x1x300xi32>}> : () -> tensor<1x1x300xi32>
  %after = tosa.greater %cols, %rows : (tensor<1x1x300xi32>, tensor<1x300x1xi32>) -> tensor<1x300x300xi1>
  %before = tosa.greater %oldest, %cols : (tensor<1x300x1xi32>, tensor<1x1x300xi32>) -> tensor<1x300x300xi1>
  %out = tosa.logical_or %after, %before : (tensor<1x300x300xi1>, tensor<1x300x300xi1>) -> tensor<1x300x300xi1>
  %kt = tosa.transpose %k {perms = array<i32: 0, 2, 1>} : (tensor<2x300x8xf32>) -> tensor<2x8x300xf32>
  %s = tosa.matmul %q, %kt, %zp, %zp : (tensor<2x300x8xf32>, tensor<2x8x300xf32>, tensor<1xf32>, tensor<1xf32>) -> tensor<2x300x300xf32>
  %sm = tosa.select %out, %ninf, %s : (tensor<1x300x300xi1>, tensor<1x1x1xf32>, tensor<2x300x300xf32>) -> tensor<2x300x300xf32>
  %m = tosa.reduce_max %sm {axis = 2 : i32} : (tensor<2x300x300xf32>) -> tensor<2x300x1xf32>
  %d = tosa.sub %sm, %m : (tensor<2x300x300xf32>, tensor<2x300x1xf32>) -> tensor<2x300x300xf32>
  %e = tosa.exp %d : (tensor<2x300x300xf32>) -> tensor<2x300x300xf32>
  %l = tosa.reduce_sum %e {axis = 2 : i32} : (tensor<2x300x300xf32>) -> tensor<2x300x1xf32>
  %r = tosa.reciprocal %l : (tensor<2x300x1xf32>) -> tensor<2x300x1xf32>
  %p = tosa.mul %e, %r, %shift : (tensor<2x300x300xf32>, tensor<2x300x1xf32>, tensor<1xi8>) -> tensor<2x300x300xf32>
  %o = tosa.matmul %p, %v, %zp, %zp : (tensor<2x300x300xf32>, tensor<2x300x8xf32>, tensor<1xf32>, tensor<1xf32>) -> tensor<2x300x8xf32>
  return %o : tensor<2x300x8xf32>
}

// Decoding: one query token (Lq = 1 is kept, not dropped as a unit dim).
// CHECK-LABEL: func.func @tosa_decode
// CHECK-NEXT: %[[O:.*]] = attn.attention ins(%arg0, %arg1, %arg2 : tensor<2x4x1x8xf32>, tensor<2x4x32x8xf32>, tensor<2x4x32x8xf32>) {scale = 0.353553385 : f32}
// CHECK-NEXT: return %[[O]]
// PROOF: @tosa_decode: 1 attn.attention after the raising
// PROOF: run 1 result 0 {{.*}}: PASS
func.func @tosa_decode(%q: tensor<2x4x1x8xf32>, %k: tensor<2x4x32x8xf32>, %v: tensor<2x4x32x8xf32>) -> tensor<2x4x1x8xf32> {
  %zp = "tosa.const"() <{values = dense<0.0> : tensor<1xf32>}> : () -> tensor<1xf32>
  %shift = "tosa.const"() <{values = dense<0> : tensor<1xi8>}> : () -> tensor<1xi8>
  %c = "tosa.const"() <{values = dense<0.353553385> : tensor<1x1x1x1xf32>}> : () -> tensor<1x1x1x1xf32>
  %sq = tosa.const_shape {values = dense<[8, 1, 8]> : tensor<3xindex>} : () -> !tosa.shape<3>
  %sk = tosa.const_shape {values = dense<[8, 32, 8]> : tensor<3xindex>} : () -> !tosa.shape<3>
  %s4 = tosa.const_shape {values = dense<[2, 4, 1, 32]> : tensor<4xindex>} : () -> !tosa.shape<4>
  %s3p = tosa.const_shape {values = dense<[8, 1, 32]> : tensor<3xindex>} : () -> !tosa.shape<3>
  %s4o = tosa.const_shape {values = dense<[2, 4, 1, 8]> : tensor<4xindex>} : () -> !tosa.shape<4>
  %q3 = tosa.reshape %q, %sq : (tensor<2x4x1x8xf32>, !tosa.shape<3>) -> tensor<8x1x8xf32>
  %k3 = tosa.reshape %k, %sk : (tensor<2x4x32x8xf32>, !tosa.shape<3>) -> tensor<8x32x8xf32>
  %v3 = tosa.reshape %v, %sk : (tensor<2x4x32x8xf32>, !tosa.shape<3>) -> tensor<8x32x8xf32>
  %kt = tosa.transpose %k3 {perms = array<i32: 0, 2, 1>} : (tensor<8x32x8xf32>) -> tensor<8x8x32xf32>
  %s = tosa.matmul %q3, %kt, %zp, %zp : (tensor<8x1x8xf32>, tensor<8x8x32xf32>, tensor<1xf32>, tensor<1xf32>) -> tensor<8x1x32xf32>
  %s4d = tosa.reshape %s, %s4 : (tensor<8x1x32xf32>, !tosa.shape<4>) -> tensor<2x4x1x32xf32>
  %ss = tosa.mul %s4d, %c, %shift : (tensor<2x4x1x32xf32>, tensor<1x1x1x1xf32>, tensor<1xi8>) -> tensor<2x4x1x32xf32>
  %m = tosa.reduce_max %ss {axis = 3 : i32} : (tensor<2x4x1x32xf32>) -> tensor<2x4x1x1xf32>
  %d = tosa.sub %ss, %m : (tensor<2x4x1x32xf32>, tensor<2x4x1x1xf32>) -> tensor<2x4x1x32xf32>
  %e = tosa.exp %d : (tensor<2x4x1x32xf32>) -> tensor<2x4x1x32xf32>
  %l = tosa.reduce_sum %e {axis = 3 : i32} : (tensor<2x4x1x32xf32>) -> tensor<2x4x1x1xf32>
  %r = tosa.reciprocal %l : (tensor<2x4x1x1xf32>) -> tensor<2x4x1x1xf32>
  %p = tosa.mul %e, %r, %shift : (tensor<2x4x1x32xf32>, tensor<2x4x1x1xf32>, tensor<1xi8>) -> tensor<2x4x1x32xf32>
  %p3 = tosa.reshape %p, %s3p : (tensor<2x4x1x32xf32>, !tosa.shape<3>) -> tensor<8x1x32xf32>
  %o = tosa.matmul %p3, %v3, %zp, %zp : (tensor<8x1x32xf32>, tensor<8x32x8xf32>, tensor<1xf32>, tensor<1xf32>) -> tensor<8x1x8xf32>
  %o4 = tosa.reshape %o, %s4o : (tensor<8x1x8xf32>, !tosa.shape<4>) -> tensor<2x4x1x8xf32>
  return %o4 : tensor<2x4x1x8xf32>
}

// The row max and the row sum both broadcast to the scores' shape by a
// multiply with ones; the reciprocal taken at full size.
// CHECK-LABEL: func.func @ones_sum
// CHECK: attn.attention {{.*}} {scale = 1.000000e+00 : f32}
// CHECK-NOT: linalg.
// PROOF: @ones_sum: 1 attn.attention after the raising
// PROOF: run 1 result 0 {{.*}}: PASS
func.func @ones_sum(%q: tensor<4x16x8xf32>, %k: tensor<4x16x8xf32>, %v: tensor<4x16x8xf32>) -> tensor<4x16x8xf32> {
  %zp = "tosa.const"() <{values = dense<0.0> : tensor<1xf32>}> : () -> tensor<1xf32>
  %shift = "tosa.const"() <{values = dense<0> : tensor<1xi8>}> : () -> tensor<1xi8>
  %ones = "tosa.const"() <{values = dense<1.0> : tensor<1x1x16xf32>}> : () -> tensor<1x1x16xf32>
  %kt = tosa.transpose %k {perms = array<i32: 0, 2, 1>} : (tensor<4x16x8xf32>) -> tensor<4x8x16xf32>
  %s = tosa.matmul %q, %kt, %zp, %zp : (tensor<4x16x8xf32>, tensor<4x8x16xf32>, tensor<1xf32>, tensor<1xf32>) -> tensor<4x16x16xf32>
  %m = tosa.reduce_max %s {axis = 2 : i32} : (tensor<4x16x16xf32>) -> tensor<4x16x1xf32>
  %mb = tosa.mul %m, %ones, %shift : (tensor<4x16x1xf32>, tensor<1x1x16xf32>, tensor<1xi8>) -> tensor<4x16x16xf32>
  %d = tosa.sub %s, %mb : (tensor<4x16x16xf32>, tensor<4x16x16xf32>) -> tensor<4x16x16xf32>
  %e = tosa.exp %d : (tensor<4x16x16xf32>) -> tensor<4x16x16xf32>
  %l = tosa.reduce_sum %e {axis = 2 : i32} : (tensor<4x16x16xf32>) -> tensor<4x16x1xf32>
  %lb = tosa.mul %l, %ones, %shift : (tensor<4x16x1xf32>, tensor<1x1x16xf32>, tensor<1xi8>) -> tensor<4x16x16xf32>
  %r = tosa.reciprocal %lb : (tensor<4x16x16xf32>) -> tensor<4x16x16xf32>
  %p = tosa.mul %e, %r, %shift : (tensor<4x16x16xf32>, tensor<4x16x16xf32>, tensor<1xi8>) -> tensor<4x16x16xf32>
  %o = tosa.matmul %p, %v, %zp, %zp : (tensor<4x16x16xf32>, tensor<4x16x8xf32>, tensor<1xf32>, tensor<1xf32>) -> tensor<4x16x8xf32>
  return %o : tensor<4x16x8xf32>
}

// Dropout applied to exp(s - max) after the row sum, before the
// normalization (select(keep, e, 0) * 1.25 * (1 / l)): attn.attention's
// dropout of e / l up to rounding.
// CHECK-LABEL: func.func @tosa_dropout_before_division
// CHECK: attn.attention ins({{.*}} : tensor<1x4x16x8xf32>, tensor<1x4x16x8xf32>, tensor<1x4x16x8xf32>) dropout_mask({{.*}} : tensor<1x4x16x16xi1>) {dropout_p = 2.000000e-01 : f32, scale = 1.000000e+00 : f32}
// PROOF: @tosa_dropout_before_division: 1 attn.attention after the raising
// PROOF: run 1 result 0 {{.*}}: PASS
func.func @tosa_dropout_before_division(%q: tensor<4x16x8xf32>, %k: tensor<4x16x8xf32>, %v: tensor<4x16x8xf32>, %keep: tensor<4x16x16xi1>) -> tensor<4x16x8xf32> {
  %zp = "tosa.const"() <{values = dense<0.0> : tensor<1xf32>}> : () -> tensor<1xf32>
  %shift = "tosa.const"() <{values = dense<0> : tensor<1xi8>}> : () -> tensor<1xi8>
  %zero = "tosa.const"() <{values = dense<0.0> : tensor<1x1x1xf32>}> : () -> tensor<1x1x1xf32>
  %c = "tosa.const"() <{values = dense<1.25> : tensor<1x1x1xf32>}> : () -> tensor<1x1x1xf32>
  %kt = tosa.transpose %k {perms = array<i32: 0, 2, 1>} : (tensor<4x16x8xf32>) -> tensor<4x8x16xf32>
  %s = tosa.matmul %q, %kt, %zp, %zp : (tensor<4x16x8xf32>, tensor<4x8x16xf32>, tensor<1xf32>, tensor<1xf32>) -> tensor<4x16x16xf32>
  %m = tosa.reduce_max %s {axis = 2 : i32} : (tensor<4x16x16xf32>) -> tensor<4x16x1xf32>
  %x = tosa.sub %s, %m : (tensor<4x16x16xf32>, tensor<4x16x1xf32>) -> tensor<4x16x16xf32>
  %e = tosa.exp %x : (tensor<4x16x16xf32>) -> tensor<4x16x16xf32>
  %l = tosa.reduce_sum %e {axis = 2 : i32} : (tensor<4x16x16xf32>) -> tensor<4x16x1xf32>
  %r = tosa.reciprocal %l : (tensor<4x16x1xf32>) -> tensor<4x16x1xf32>
  %ek = tosa.select %keep, %e, %zero : (tensor<4x16x16xi1>, tensor<4x16x16xf32>, tensor<1x1x1xf32>) -> tensor<4x16x16xf32>
  %ed = tosa.mul %ek, %c, %shift : (tensor<4x16x16xf32>, tensor<1x1x1xf32>, tensor<1xi8>) -> tensor<4x16x16xf32>
  %p = tosa.mul %ed, %r, %shift : (tensor<4x16x16xf32>, tensor<4x16x1xf32>, tensor<1xi8>) -> tensor<4x16x16xf32>
  %o = tosa.matmul %p, %v, %zp, %zp : (tensor<4x16x16xf32>, tensor<4x16x8xf32>, tensor<1xf32>, tensor<1xf32>) -> tensor<4x16x8xf32>
  return %o : tensor<4x16x8xf32>
}
