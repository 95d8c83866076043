// Run-time sizes of zero: an empty batch, no query rows, no keys. Static
// zero sizes run on the CPU, and --sizes takes 0 as well: with Lk = 0 every
// row sees no key (output 0, lse -inf, zero gradients), with B = 0 or
// Lq = 0 there is nothing to compute. A negative size is refused.
// RUN: attn-cpu-run %s --seed=3 --sizes batch=0,query_len=5,key_len=7 --sizes batch=2,query_len=0,key_len=7 --sizes batch=2,query_len=5,key_len=0 | FileCheck %s
// RUN: not attn-cpu-run %s --sizes batch=1,query_len=-1,key_len=2 2>&1 | FileCheck %s --check-prefix=NEG
// NEG: size query_len: expected a non-negative integer, got '-1'

// CHECK: B=0 Hq=4 Hkv=2 Lq=5 Lk=7 D=16 Dv=16 f32 causal=bottom_right
// CHECK: PASS
// CHECK: B=2 Hq=4 Hkv=2 Lq=0 Lk=7
// CHECK: PASS
// CHECK: B=2 Hq=4 Hkv=2 Lq=5 Lk=0
// CHECK: -inf mismatches 0
// CHECK: rows with no allowed key: 40 of 40
// CHECK: PASS
func.func @forward(%q: tensor<?x4x?x16xf32>, %k: tensor<?x2x?x16xf32>, %v: tensor<?x2x?x16xf32>) -> (tensor<?x4x?x16xf32>, tensor<?x4x?xf32>) {
  %o, %l = attn.attention ins(%q, %k, %v : tensor<?x4x?x16xf32>, tensor<?x2x?x16xf32>, tensor<?x2x?x16xf32>) {causal = #attn.causal<bottom_right>} -> tensor<?x4x?x16xf32>, tensor<?x4x?xf32>
  return %o, %l : tensor<?x4x?x16xf32>, tensor<?x4x?xf32>
}

// CHECK: attn.attention_grad at
// CHECK-NEXT: B=0 Hq=2 Hkv=2 Lq=5 Lk=7 D=8 Dv=8 f16
// CHECK: PASS
// CHECK: B=2 Hq=2 Hkv=2 Lq=0 Lk=7
// CHECK: PASS
// CHECK: B=2 Hq=2 Hkv=2 Lq=5 Lk=0
// CHECK: PASS
func.func @gradient(%q: tensor<?x2x?x8xf16>, %k: tensor<?x2x?x8xf16>, %v: tensor<?x2x?x8xf16>, %o: tensor<?x2x?x8xf16>, %lse: tensor<?x2x?xf32>, %do: tensor<?x2x?x8xf16>) -> (tensor<?x2x?x8xf16>, tensor<?x2x?x8xf16>, tensor<?x2x?x8xf16>) {
  %dq, %dk, %dv = attn.attention_grad ins(%q, %k, %v : tensor<?x2x?x8xf16>, tensor<?x2x?x8xf16>, tensor<?x2x?x8xf16>) forward(%o, %lse : tensor<?x2x?x8xf16>, tensor<?x2x?xf32>) grad_output(%do : tensor<?x2x?x8xf16>) -> tensor<?x2x?x8xf16>, tensor<?x2x?x8xf16>, tensor<?x2x?x8xf16>
  return %dq, %dk, %dv : tensor<?x2x?x8xf16>, tensor<?x2x?x8xf16>, tensor<?x2x?x8xf16>
}
