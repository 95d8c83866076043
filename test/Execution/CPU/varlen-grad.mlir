// Gradients of packed variable-length batches (attn.varlen_attention_grad)
// on random sequence-length draws, against the float64 gradient reference
// of each sequence on its own; decomposition and tiled backward.
// RUN: attn-cpu-run %s --seed=21 --sizes batch=6,query_len=70,key_len=70 --sizes batch=3,query_len=23,key_len=41 --sizes batch=2,query_len=5,key_len=3 | FileCheck %s
// RUN: attn-cpu-run %s --seed=22 --lowering="attn-tile{block-q=8 block-kv=12}" --sizes batch=6,query_len=70,key_len=70 --sizes batch=3,query_len=23,key_len=41 --sizes batch=2,query_len=5,key_len=3 | FileCheck %s

// GQA 4/2, bottom-right causal, softcap and Philox dropout, f32.
// CHECK: attn.varlen_attention_grad at {{.*}}varlen-grad.mlir{{.*}}:[[@LINE+8]]:
// CHECK-NEXT: B=6 Tq=70 Tk=70 Hq=4 Hkv=2 D=16 Dv=8 f32 causal=bottom_right softcap dropout
// CHECK: PASS
// CHECK: B=3 Tq=23 Tk=41
// CHECK: PASS
// CHECK: B=2 Tq=5 Tk=3
// CHECK: PASS
func.func @causal_dropout(%q: tensor<?x4x16xf32>, %k: tensor<?x2x16xf32>, %v: tensor<?x2x8xf32>, %cq: tensor<?xi32>, %ck: tensor<?xi32>, %o: tensor<?x4x8xf32>, %l: tensor<4x?xf32>, %do: tensor<?x4x8xf32>, %s: i64, %off: i64) -> tensor<?x4x16xf32> {
  %dq, %dk, %dv = attn.varlen_attention_grad ins(%q, %k, %v : tensor<?x4x16xf32>, tensor<?x2x16xf32>, tensor<?x2x8xf32>) seqlens(%cq, %ck : tensor<?xi32>, tensor<?xi32>) forward(%o, %l : tensor<?x4x8xf32>, tensor<4x?xf32>) grad_output(%do : tensor<?x4x8xf32>) rng(%s, %off) {causal = #attn.causal<bottom_right>, dropout_p = 0.1 : f32, softcap = 10.0 : f32} -> tensor<?x4x16xf32>, tensor<?x2x16xf32>, tensor<?x2x8xf32>
  return %dq : tensor<?x4x16xf32>
}

// Static cross-attention with a window, bf16, deterministic.
// CHECK: attn.varlen_attention_grad at {{.*}}varlen-grad.mlir{{.*}}:[[@LINE+4]]:
// CHECK-NEXT: B=4 Tq=30 Tk=45 Hq=2 Hkv=2 D=16 Dv=16 bf16 causal=none window
// CHECK: PASS
func.func @static_window(%q: tensor<30x2x16xbf16>, %k: tensor<45x2x16xbf16>, %v: tensor<45x2x16xbf16>, %cq: tensor<5xi32>, %ck: tensor<5xi32>, %o: tensor<30x2x16xbf16>, %l: tensor<2x30xf32>, %do: tensor<30x2x16xbf16>) -> tensor<45x2x16xbf16> {
  %dq, %dk, %dv = attn.varlen_attention_grad ins(%q, %k, %v : tensor<30x2x16xbf16>, tensor<45x2x16xbf16>, tensor<45x2x16xbf16>) seqlens(%cq, %ck : tensor<5xi32>, tensor<5xi32>) forward(%o, %l : tensor<30x2x16xbf16>, tensor<2x30xf32>) grad_output(%do : tensor<30x2x16xbf16>) {window = array<i64: 4, 4>, deterministic} -> tensor<30x2x16xbf16>, tensor<45x2x16xbf16>, tensor<45x2x16xbf16>
  return %dk : tensor<45x2x16xbf16>
}
// CHECK: all 2 attention op(s) match the float64 reference
