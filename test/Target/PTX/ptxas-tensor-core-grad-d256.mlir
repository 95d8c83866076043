// Issue 19: the tensor-core backward at D = Dv = 256 on sm_90a: one
// warpgroup cannot hold a 64-key block's dK and dV, so the two consumer
// warpgroups of the warp-specialized wgmma key-block kernel share the block
// and split the head dims (split = warpgroups, 384 threads; K, V, the Q and
// dO stages, two Pdᵀ and dSᵀ tiles; tensor-core-grad-head-split.mlir).
// Four variants (causal GQA; softcap + window + key-padding mask; dropout;
// `deterministic`), Lq = Lk = 1000. The first three take the fused dQ with
// one Q / dO stage (query_stages 1, which leaves room for the bulk dQ's
// staging tile: 230952 bytes; the chooser's default since session 47,
// 1.27-1.68x faster than two stages with the dq kernel or per-thread
// reductions); `deterministic` the dkdv form with two stages and the dq
// kernel. sm_80 has no room for these tiles (203776 bytes per mma.sync
// block; the CUDA-core backward runs there, with a remark,
// cuda-core-remark.mlir). No spills (ptxas 13): the key-block kernel
// recomputes K's and V's wgmma descriptors every step (loopVariant) rather
// than holding them across the loop, which spilled 12 bytes with the mask
// and softcap and 104 with dropout (session 46).
// REQUIRES: ptxas
// RUN: attn-compile %s --chip=sm_90a -o %t.ptx | FileCheck %s --check-prefix=COMPILE
// RUN: ptxas -arch=sm_90a -v %t.ptx -o %t.cubin 2>&1 | FileCheck %s
// RUN: FileCheck %s --check-prefix=KIND < %t.json
// RUN: not grep -q cuda-core %t.json
// RUN: not grep -q key_block_parts %t.json

// COMPILE: (16 kernels, sm_90a,
// CHECK-COUNT-16: {{^ *0 bytes stack frame, 0 bytes spill stores}}
// CHECK-NOT: bytes spill stores

// KIND: "dq_accum": "fragments",
// KIND: "key_block_split": "warpgroups",
// KIND: "mma": "wgmma",
// KIND: "query_stages": 1,
// KIND: "threads": 384
// KIND: "dynamic_shared_memory": 230952,
// KIND: "grid": [
// KIND-NEXT: 16,
// KIND-NEXT: 2,
// KIND-NEXT: 2
// KIND: "name": "attn_bwd_dkdv_dq_0"
// KIND: "dq_accum": "fragments",
// KIND: "key_block_split": "warpgroups",
// KIND: "mma": "wgmma",
// KIND: "query_stages": 1,
// KIND: "threads": 384
// KIND: "dynamic_shared_memory": 230952,
// KIND: "grid": [
// KIND-NEXT: 16,
// KIND-NEXT: 2,
// KIND-NEXT: 2
// KIND: "name": "attn_bwd_dkdv_dq_1"
// KIND: "dq_accum": "fragments",
// KIND: "key_block_split": "warpgroups",
// KIND: "mma": "wgmma",
// KIND: "query_stages": 1,
// KIND: "threads": 384
// KIND: "dynamic_shared_memory": 230952,
// KIND: "grid": [
// KIND-NEXT: 16,
// KIND-NEXT: 2,
// KIND-NEXT: 2
// KIND: "name": "attn_bwd_dkdv_dq_2"
// KIND: "key_block_split": "warpgroups",
// KIND: "mma": "wgmma",
// KIND: "query_stages": 2,
// KIND: "threads": 384
// KIND: "dynamic_shared_memory": 231464,
// KIND: "grid": [
// KIND-NEXT: 16,
// KIND-NEXT: 2,
// KIND-NEXT: 2
// KIND: "name": "attn_bwd_dkdv_3"

func.func @t256_causal(%q: tensor<2x8x1000x256xbf16>, %k: tensor<2x2x1000x256xbf16>, %v: tensor<2x2x1000x256xbf16>, %do: tensor<2x8x1000x256xbf16>) -> (tensor<2x8x1000x256xbf16>, tensor<2x8x1000xf32>, tensor<2x8x1000x256xbf16>, tensor<2x2x1000x256xbf16>, tensor<2x2x1000x256xbf16>) {
  %o, %l = attn.attention ins(%q, %k, %v : tensor<2x8x1000x256xbf16>, tensor<2x2x1000x256xbf16>, tensor<2x2x1000x256xbf16>) {causal = #attn.causal<bottom_right>} -> tensor<2x8x1000x256xbf16>, tensor<2x8x1000xf32>
  %dq, %dk, %dv = attn.attention_grad ins(%q, %k, %v : tensor<2x8x1000x256xbf16>, tensor<2x2x1000x256xbf16>, tensor<2x2x1000x256xbf16>) forward(%o, %l : tensor<2x8x1000x256xbf16>, tensor<2x8x1000xf32>) grad_output(%do : tensor<2x8x1000x256xbf16>) {causal = #attn.causal<bottom_right>} -> tensor<2x8x1000x256xbf16>, tensor<2x2x1000x256xbf16>, tensor<2x2x1000x256xbf16>
  return %o, %l, %dq, %dk, %dv : tensor<2x8x1000x256xbf16>, tensor<2x8x1000xf32>, tensor<2x8x1000x256xbf16>, tensor<2x2x1000x256xbf16>, tensor<2x2x1000x256xbf16>
}

func.func @t256_heavy(%q: tensor<2x8x1000x256xbf16>, %k: tensor<2x2x1000x256xbf16>, %v: tensor<2x2x1000x256xbf16>, %do: tensor<2x8x1000x256xbf16>, %m: tensor<2x1x1x1000xi1>) -> (tensor<2x8x1000x256xbf16>, tensor<2x8x1000xf32>, tensor<2x8x1000x256xbf16>, tensor<2x2x1000x256xbf16>, tensor<2x2x1000x256xbf16>) {
  %o, %l = attn.attention ins(%q, %k, %v : tensor<2x8x1000x256xbf16>, tensor<2x2x1000x256xbf16>, tensor<2x2x1000x256xbf16>) mask(%m : tensor<2x1x1x1000xi1>) {softcap = 30.0 : f32, window = array<i64: 100, 0>, causal = #attn.causal<bottom_right>} -> tensor<2x8x1000x256xbf16>, tensor<2x8x1000xf32>
  %dq, %dk, %dv = attn.attention_grad ins(%q, %k, %v : tensor<2x8x1000x256xbf16>, tensor<2x2x1000x256xbf16>, tensor<2x2x1000x256xbf16>) forward(%o, %l : tensor<2x8x1000x256xbf16>, tensor<2x8x1000xf32>) grad_output(%do : tensor<2x8x1000x256xbf16>) mask(%m : tensor<2x1x1x1000xi1>) {softcap = 30.0 : f32, window = array<i64: 100, 0>, causal = #attn.causal<bottom_right>} -> tensor<2x8x1000x256xbf16>, tensor<2x2x1000x256xbf16>, tensor<2x2x1000x256xbf16>
  return %o, %l, %dq, %dk, %dv : tensor<2x8x1000x256xbf16>, tensor<2x8x1000xf32>, tensor<2x8x1000x256xbf16>, tensor<2x2x1000x256xbf16>, tensor<2x2x1000x256xbf16>
}

func.func @t256_dropout(%q: tensor<2x8x1000x256xbf16>, %k: tensor<2x2x1000x256xbf16>, %v: tensor<2x2x1000x256xbf16>, %do: tensor<2x8x1000x256xbf16>, %seed: i64, %off: i64) -> (tensor<2x8x1000x256xbf16>, tensor<2x8x1000xf32>, tensor<2x8x1000x256xbf16>, tensor<2x2x1000x256xbf16>, tensor<2x2x1000x256xbf16>) {
  %o, %l = attn.attention ins(%q, %k, %v : tensor<2x8x1000x256xbf16>, tensor<2x2x1000x256xbf16>, tensor<2x2x1000x256xbf16>) rng(%seed, %off) {dropout_p = 0.1 : f32} -> tensor<2x8x1000x256xbf16>, tensor<2x8x1000xf32>
  %dq, %dk, %dv = attn.attention_grad ins(%q, %k, %v : tensor<2x8x1000x256xbf16>, tensor<2x2x1000x256xbf16>, tensor<2x2x1000x256xbf16>) forward(%o, %l : tensor<2x8x1000x256xbf16>, tensor<2x8x1000xf32>) grad_output(%do : tensor<2x8x1000x256xbf16>) rng(%seed, %off) {dropout_p = 0.1 : f32} -> tensor<2x8x1000x256xbf16>, tensor<2x2x1000x256xbf16>, tensor<2x2x1000x256xbf16>
  return %o, %l, %dq, %dk, %dv : tensor<2x8x1000x256xbf16>, tensor<2x8x1000xf32>, tensor<2x8x1000x256xbf16>, tensor<2x2x1000x256xbf16>, tensor<2x2x1000x256xbf16>
}

func.func @t256_det(%q: tensor<2x8x1000x256xbf16>, %k: tensor<2x2x1000x256xbf16>, %v: tensor<2x2x1000x256xbf16>, %do: tensor<2x8x1000x256xbf16>) -> (tensor<2x8x1000x256xbf16>, tensor<2x8x1000xf32>, tensor<2x8x1000x256xbf16>, tensor<2x2x1000x256xbf16>, tensor<2x2x1000x256xbf16>) {
  %o, %l = attn.attention ins(%q, %k, %v : tensor<2x8x1000x256xbf16>, tensor<2x2x1000x256xbf16>, tensor<2x2x1000x256xbf16>) -> tensor<2x8x1000x256xbf16>, tensor<2x8x1000xf32>
  %dq, %dk, %dv = attn.attention_grad ins(%q, %k, %v : tensor<2x8x1000x256xbf16>, tensor<2x2x1000x256xbf16>, tensor<2x2x1000x256xbf16>) forward(%o, %l : tensor<2x8x1000x256xbf16>, tensor<2x8x1000xf32>) grad_output(%do : tensor<2x8x1000x256xbf16>) {deterministic} -> tensor<2x8x1000x256xbf16>, tensor<2x2x1000x256xbf16>, tensor<2x2x1000x256xbf16>
  return %o, %l, %dq, %dk, %dv : tensor<2x8x1000x256xbf16>, tensor<2x8x1000xf32>, tensor<2x8x1000x256xbf16>, tensor<2x2x1000x256xbf16>, tensor<2x2x1000x256xbf16>
}
