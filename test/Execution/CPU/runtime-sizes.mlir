// Run-time sizes (issue 20): ops whose batch and sequence lengths are
// dynamic are compiled once and run at each --sizes draw (fresh inputs per
// draw), through the decomposition and through the tiled form with tiles
// that divide the lengths and tiles that don't: one query and one key,
// lengths below one tile, Lk < Lq, ragged lengths.
// RUN: attn-cpu-run %s --seed=3 --sizes batch=1,query_len=1,key_len=1 --sizes batch=2,query_len=17,key_len=33 --sizes batch=3,query_len=40,key_len=9 | FileCheck %s
// RUN: attn-cpu-run %s --seed=5 --lowering="attn-tile{block-q=16 block-kv=16}" --sizes batch=1,query_len=1,key_len=1 --sizes batch=2,query_len=17,key_len=33 --sizes batch=3,query_len=40,key_len=9 | FileCheck %s
// RUN: attn-cpu-run %s --seed=7 --lowering="attn-tile{block-q=8 block-kv=12}" --sizes batch=1,query_len=1,key_len=1 --sizes batch=2,query_len=17,key_len=33 --sizes batch=3,query_len=40,key_len=9 | FileCheck %s

// A key-padding mask that follows the run-time batch and key length,
// bottom-right causal.
// CHECK: attn.attention at {{.*}}runtime-sizes.mlir{{.*}}:[[@LINE+8]]:
// CHECK-NEXT: B=1 Hq=4 Hkv=2 Lq=1 Lk=1 D=32 Dv=32 f32 causal=bottom_right masked
// CHECK: PASS
// CHECK: B=2 Hq=4 Hkv=2 Lq=17 Lk=33 D=32 Dv=32 f32
// CHECK: PASS
// CHECK: B=3 Hq=4 Hkv=2 Lq=40 Lk=9 D=32 Dv=32 f32
// CHECK: PASS
func.func @masked(%q: tensor<?x4x?x32xf32>, %k: tensor<?x2x?x32xf32>, %v: tensor<?x2x?x32xf32>, %m: tensor<?x1x1x?xi1>) -> (tensor<?x4x?x32xf32>, tensor<?x4x?xf32>) {
  %o, %l = attn.attention ins(%q, %k, %v : tensor<?x4x?x32xf32>, tensor<?x2x?x32xf32>, tensor<?x2x?x32xf32>) mask(%m : tensor<?x1x1x?xi1>) {causal = #attn.causal<bottom_right>} -> tensor<?x4x?x32xf32>, tensor<?x4x?xf32>
  return %o, %l : tensor<?x4x?x32xf32>, tensor<?x4x?xf32>
}

// Philox dropout: the keep mask the compiled function draws matches the
// C++ one at every size.
// CHECK: B=1 Hq=2 Hkv=2 Lq=1 Lk=1 D=16 Dv=16 f16 causal=top_left softcap dropout
// CHECK: dropout keep mask: 0 mismatches
// CHECK: PASS
// CHECK: B=2 Hq=2 Hkv=2 Lq=17 Lk=33 D=16 Dv=16 f16
// CHECK: dropout keep mask: 0 mismatches
// CHECK: PASS
// CHECK: B=3 Hq=2 Hkv=2 Lq=40 Lk=9 D=16 Dv=16 f16
// CHECK: dropout keep mask: 0 mismatches
// CHECK: PASS
func.func @dropout(%q: tensor<?x2x?x16xf16>, %k: tensor<?x2x?x16xf16>, %v: tensor<?x2x?x16xf16>, %s: i64, %off: i64) -> (tensor<?x2x?x16xf16>, tensor<?x2x?xf32>) {
  %o, %l = attn.attention ins(%q, %k, %v : tensor<?x2x?x16xf16>, tensor<?x2x?x16xf16>, tensor<?x2x?x16xf16>) rng(%s, %off) {dropout_p = 0.2 : f32, causal = #attn.causal<top_left>, softcap = 20.0 : f32} -> tensor<?x2x?x16xf16>, tensor<?x2x?xf32>
  return %o, %l : tensor<?x2x?x16xf16>, tensor<?x2x?xf32>
}

// A static batch with run-time lengths; decoding-style static Lq = 1 would
// ignore query_len the same way.
// CHECK: B=2 Hq=4 Hkv=1 Lq=1 Lk=1 D=8 Dv=24 bf16
// CHECK: PASS
// CHECK: B=2 Hq=4 Hkv=1 Lq=17 Lk=33 D=8 Dv=24 bf16
// CHECK: PASS
// CHECK: B=2 Hq=4 Hkv=1 Lq=40 Lk=9 D=8 Dv=24 bf16
// CHECK: PASS
func.func @static_batch(%q: tensor<2x4x?x8xbf16>, %k: tensor<2x1x?x8xbf16>, %v: tensor<2x1x?x24xbf16>) -> tensor<2x4x?x24xbf16> {
  %o = attn.attention ins(%q, %k, %v : tensor<2x4x?x8xbf16>, tensor<2x1x?x8xbf16>, tensor<2x1x?x24xbf16>) {window = array<i64: 6, 0>} -> tensor<2x4x?x24xbf16>
  return %o : tensor<2x4x?x24xbf16>
}

// The gradient of a training step, at each draw (window + bottom-right causal:
// scripts/jax_peer_check.py compares it with jax.vjp too).
// CHECK: attn.attention_grad at
// CHECK-NEXT: B=1 Hq=4 Hkv=2 Lq=1 Lk=1 D=32 Dv=32 bf16 causal=bottom_right window
// CHECK: second run: 0 elements differ
// CHECK: PASS
// CHECK: B=2 Hq=4 Hkv=2 Lq=17 Lk=33 D=32 Dv=32 bf16
// CHECK: PASS
// CHECK: B=3 Hq=4 Hkv=2 Lq=40 Lk=9 D=32 Dv=32 bf16
// CHECK: PASS
// CHECK: all 4 attention op(s) match the float64 reference
func.func @grad(%q: tensor<?x4x?x32xbf16>, %k: tensor<?x2x?x32xbf16>, %v: tensor<?x2x?x32xbf16>, %o: tensor<?x4x?x32xbf16>, %l: tensor<?x4x?xf32>, %do: tensor<?x4x?x32xbf16>) -> (tensor<?x4x?x32xbf16>, tensor<?x2x?x32xbf16>, tensor<?x2x?x32xbf16>) {
  %dq, %dk, %dv = attn.attention_grad ins(%q, %k, %v : tensor<?x4x?x32xbf16>, tensor<?x2x?x32xbf16>, tensor<?x2x?x32xbf16>) forward(%o, %l : tensor<?x4x?x32xbf16>, tensor<?x4x?xf32>) grad_output(%do : tensor<?x4x?x32xbf16>) {window = array<i64: 8, 2>, causal = #attn.causal<bottom_right>} -> tensor<?x4x?x32xbf16>, tensor<?x2x?x32xbf16>, tensor<?x2x?x32xbf16>
  return %dq, %dk, %dv : tensor<?x4x?x32xbf16>, tensor<?x2x?x32xbf16>, tensor<?x2x?x32xbf16>
}
