// Packed variable-length batches (attn.varlen_attention), run on random
// sequence-length draws (empty and one-token sequences among them) and
// compared with the float64 reference of each sequence on its own; through
// the decomposition and the tiled form with tiles that do not divide the
// lengths. One compiled function per op serves every --sizes draw.
// RUN: attn-cpu-run %s --seed=11 --sizes batch=1,query_len=1,key_len=1 --sizes batch=6,query_len=70,key_len=70 --sizes batch=3,query_len=23,key_len=41 --sizes batch=9,query_len=9,key_len=9 | FileCheck %s
// RUN: attn-cpu-run %s --seed=12 --lowering="attn-tile{block-q=8 block-kv=12}" --sizes batch=1,query_len=1,key_len=1 --sizes batch=6,query_len=70,key_len=70 --sizes batch=3,query_len=23,key_len=41 --sizes batch=9,query_len=9,key_len=9 | FileCheck %s
// --dump-dir writes each sequence as its batch-1 dense problem, for the peer
// check (scripts/jax_peer_check.py, lib/Execution/DumpArrays.h):
// RUN: rm -rf %t.dump && attn-cpu-run %s --seed=13 --sizes batch=1,query_len=5,key_len=7 --dump-dir=%t.dump > /dev/null && ls %t.dump | FileCheck %s --check-prefix=DUMP
// RUN: FileCheck %s --check-prefix=DUMPJSON < %t.dump/varlen2.seq0.json
// DUMP: varlen0.seq0.json
// DUMP: varlen0.seq0.lse.bin
// DUMP: varlen0.seq0.q.bin
// DUMP: varlen0.seq0.ref_out.bin
// DUMP: varlen1.seq0.json
// DUMP: varlen2.seq0.json
// DUMPJSON: "batch": 1,
// DUMPJSON: "packed": {
// DUMPJSON-NEXT: "sequence": 0,
// DUMPJSON-NEXT: "query_token": 0,
// DUMPJSON-NEXT: "key_token": 0,

// Self-attention, GQA 4/2, bottom-right causal per sequence, with lse.
// CHECK: attn.varlen_attention at {{.*}}varlen.mlir{{.*}}:[[@LINE+12]]:
// CHECK-NEXT: B=1 Tq=1 Tk=1 Hq=4 Hkv=2 D=32 Dv=16 f32 causal=bottom_right
// CHECK-NEXT: query lengths [1], key lengths [1]
// CHECK: PASS
// CHECK: B=6 Tq=70 Tk=70
// CHECK: PASS
// CHECK: B=3 Tq=23 Tk=41
// CHECK: PASS
// CHECK: B=9 Tq=9 Tk=9
// CHECK-NEXT: query lengths [{{.*}}0{{.*}}]
// CHECK: PASS
func.func @self_causal_gqa(%q: tensor<?x4x32xf32>, %k: tensor<?x2x32xf32>, %v: tensor<?x2x16xf32>, %cq: tensor<?xi32>, %ck: tensor<?xi32>) -> (tensor<?x4x16xf32>, tensor<4x?xf32>) {
  %o, %l = attn.varlen_attention ins(%q, %k, %v : tensor<?x4x32xf32>, tensor<?x2x32xf32>, tensor<?x2x16xf32>) seqlens(%cq, %ck : tensor<?xi32>, tensor<?xi32>) {causal = #attn.causal<bottom_right>} -> tensor<?x4x16xf32>, tensor<4x?xf32>
  return %o, %l : tensor<?x4x16xf32>, tensor<4x?xf32>
}

// MQA, a sliding window with softcap and Philox dropout (the keep bits of
// each sequence sit at its packed token coordinates), bf16.
// CHECK: attn.varlen_attention at {{.*}}varlen.mlir{{.*}}:[[@LINE+10]]:
// CHECK-NEXT: B=1 Tq=1 Tk=1 Hq=2 Hkv=1 D=16 Dv=16 bf16 causal=bottom_right window softcap dropout
// CHECK: PASS
// CHECK: B=6 Tq=70 Tk=70
// CHECK: PASS
// CHECK: B=3 Tq=23 Tk=41
// CHECK: PASS
// CHECK: B=9 Tq=9 Tk=9
// CHECK: PASS
func.func @window_dropout_mqa(%q: tensor<?x2x16xbf16>, %k: tensor<?x1x16xbf16>, %v: tensor<?x1x16xbf16>, %cq: tensor<?xi32>, %ck: tensor<?xi32>, %seed: i64, %off: i64) -> (tensor<?x2x16xbf16>, tensor<2x?xf32>) {
  %o, %l = attn.varlen_attention ins(%q, %k, %v : tensor<?x2x16xbf16>, tensor<?x1x16xbf16>, tensor<?x1x16xbf16>) seqlens(%cq, %ck : tensor<?xi32>, tensor<?xi32>) rng(%seed, %off) {causal = #attn.causal<bottom_right>, window = array<i64: 6, 2>, softcap = 5.0 : f32, dropout_p = 0.25 : f32} -> tensor<?x2x16xbf16>, tensor<2x?xf32>
  return %o, %l : tensor<?x2x16xbf16>, tensor<2x?xf32>
}

// Static totals and batch: cross-attention (key lengths drawn apart from
// the query lengths, so some sequences have queries but no keys), f16,
// top-left causal, no lse.
// CHECK: attn.varlen_attention at {{.*}}varlen.mlir{{.*}}:[[@LINE+4]]:
// CHECK-NEXT: B=5 Tq=37 Tk=50 Hq=3 Hkv=3 D=8 Dv=24 f16 causal=top_left
// CHECK: PASS
func.func @static_cross(%q: tensor<37x3x8xf16>, %k: tensor<50x3x8xf16>, %v: tensor<50x3x24xf16>, %cq: tensor<6xi32>, %ck: tensor<6xi32>) -> tensor<37x3x24xf16> {
  %o = attn.varlen_attention ins(%q, %k, %v : tensor<37x3x8xf16>, tensor<50x3x8xf16>, tensor<50x3x24xf16>) seqlens(%cq, %ck : tensor<6xi32>, tensor<6xi32>) {causal = #attn.causal<top_left>, scale = 0.3 : f32} -> tensor<37x3x24xf16>
  return %o : tensor<37x3x24xf16>
}
// CHECK: all 3 attention op(s) match the float64 reference
