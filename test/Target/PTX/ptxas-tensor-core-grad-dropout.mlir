// Dropout's backward on sm_90a (performance.md, session 30): at D + Dv > 128
// the warp-specialized wgmma dkdv_dq kernel where it has the fused dQ, up to
// D, Dv = 192 (static or run-time sizes; split where the padded D + Dv
// exceed 256): 1.4-2.0x faster than the mma.sync kernel it replaced. Where
// the padded D + Dv exceed 256 (D = 160 and 256 here) its two consumer
// warpgroups split the head dims (split = warpgroups, session 45; before,
// two blocks per key block), at D = 256 with the fused dQ beside one Q / dO
// stage (query_stages 1, session 47; before, the dkdv form and the dq
// kernel). The separate dQ at
// D <= 192 (`deterministic`, --grad-dq=separate) keeps the mma.sync dkdv +
// dq, as do --grad-tma=off (the cp.async form) and sm_80. Every kernel
// assembles; the spill bound is 8 bytes (ptxas 13: none; 4 in the
// two-stage dkdv kernel at D = 256 before session 47, 152 there before its
// K and V descriptors were recomputed every step, session 46).
// REQUIRES: ptxas
// RUN: attn-compile %s --chip=sm_90a -o %t.sm90.ptx | FileCheck %s --check-prefix=COMPILE
// RUN: ptxas -arch=sm_90a -v %t.sm90.ptx -o %t.sm90.cubin 2>&1 | FileCheck %s --check-prefix=SPILLS
// RUN: FileCheck %s --check-prefix=KIND < %t.sm90.json
// RUN: attn-compile %s --chip=sm_90a --grad-tma=off -o %t.off.ptx
// RUN: FileCheck %s --check-prefix=OFF < %t.off.json

// COMPILE: (20 kernels, sm_90a,
// SPILLS-COUNT-20: {{^ *([0-9]|[1-9][0-9]) bytes stack frame, [0-8] bytes spill stores}}
// SPILLS-NOT: bytes spill stores

// KIND-NOT: "key_block_parts"
// KIND: "mma": "none",
// KIND: "name": "attn_bwd_prep_0"
// KIND-NOT: "key_block_parts"
// KIND: "mma": "wgmma",
// KIND: "name": "attn_bwd_dkdv_dq_0"
// KIND-NOT: "key_block_parts"
// KIND: "mma": "none",
// KIND: "name": "attn_bwd_dq_convert_0"
// KIND-NOT: "key_block_parts"
// KIND: "mma": "none",
// KIND: "name": "attn_bwd_prep_1"
// KIND: "key_block_split": "warpgroups",
// KIND: "mma": "wgmma",
// KIND: "name": "attn_bwd_dkdv_dq_1"
// KIND-NOT: "key_block_parts"
// KIND: "mma": "none",
// KIND: "name": "attn_bwd_dq_convert_1"
// KIND-NOT: "key_block_parts"
// KIND: "mma": "none",
// KIND: "name": "attn_bwd_prep_2"
// KIND-NOT: "key_block_parts"
// KIND: "mma": "wgmma",
// KIND: "name": "attn_bwd_dkdv_dq_2"
// KIND-NOT: "key_block_parts"
// KIND: "mma": "none",
// KIND: "name": "attn_bwd_dq_convert_2"
// KIND-NOT: "key_block_parts"
// KIND: "mma": "none",
// KIND: "name": "attn_bwd_prep_3"
// KIND: "key_block_split": "warpgroups",
// KIND: "mma": "wgmma",
// KIND: "query_stages": 1,
// KIND: "name": "attn_bwd_dkdv_dq_3"
// KIND-NOT: "key_block_parts"
// KIND: "mma": "none",
// KIND: "name": "attn_bwd_dq_convert_3"
// KIND-NOT: "key_block_parts"
// KIND: "mma": "none",
// KIND: "name": "attn_bwd_prep_4"
// KIND-NOT: "key_block_parts"
// KIND: "mma": "mma.sync",
// KIND: "name": "attn_bwd_dkdv_4"
// KIND-NOT: "key_block_parts"
// KIND: "mma": "mma.sync",
// KIND: "name": "attn_bwd_dq_4"

// OFF-NOT: "key_block_parts"
// OFF: "mma": "none",
// OFF: "name": "attn_bwd_prep_0"
// OFF-NOT: "key_block_parts"
// OFF: "mma": "mma.sync",
// OFF: "name": "attn_bwd_dkdv_0"
// OFF-NOT: "key_block_parts"
// OFF: "mma": "mma.sync",
// OFF: "name": "attn_bwd_dq_0"
// OFF-NOT: "key_block_parts"
// OFF: "mma": "none",
// OFF: "name": "attn_bwd_prep_1"
// OFF: "key_block_parts": 2,
// OFF: "mma": "mma.sync",
// OFF: "name": "attn_bwd_dkdv_1"
// OFF-NOT: "key_block_parts"
// OFF: "mma": "mma.sync",
// OFF: "name": "attn_bwd_dq_1"
// OFF-NOT: "key_block_parts"
// OFF: "mma": "none",
// OFF: "name": "attn_bwd_prep_2"
// OFF-NOT: "key_block_parts"
// OFF: "mma": "mma.sync",
// OFF: "name": "attn_bwd_dkdv_2"
// OFF-NOT: "key_block_parts"
// OFF: "mma": "mma.sync",
// OFF: "name": "attn_bwd_dq_2"
// OFF-NOT: "key_block_parts"
// OFF: "mma": "none",
// OFF: "name": "attn_bwd_prep_3"
// OFF: "key_block_parts": 2,
// OFF: "mma": "mma.sync",
// OFF: "name": "attn_bwd_dkdv_3"
// OFF-NOT: "key_block_parts"
// OFF: "mma": "mma.sync",
// OFF: "name": "attn_bwd_dq_3"
// OFF-NOT: "key_block_parts"
// OFF: "mma": "none",
// OFF: "name": "attn_bwd_prep_4"
// OFF-NOT: "key_block_parts"
// OFF: "mma": "mma.sync",
// OFF: "name": "attn_bwd_dkdv_4"
// OFF-NOT: "key_block_parts"
// OFF: "mma": "mma.sync",
// OFF: "name": "attn_bwd_dq_4"

func.func @d96(%q: tensor<2x4x200x96xbf16>, %k: tensor<2x4x200x96xbf16>, %v: tensor<2x4x200x96xbf16>, %do: tensor<2x4x200x96xbf16>, %seed: i64, %off: i64) -> (tensor<2x4x200x96xbf16>, tensor<2x4x200xf32>, tensor<2x4x200x96xbf16>, tensor<2x4x200x96xbf16>, tensor<2x4x200x96xbf16>) {
  %o, %l = attn.attention ins(%q, %k, %v : tensor<2x4x200x96xbf16>, tensor<2x4x200x96xbf16>, tensor<2x4x200x96xbf16>) rng(%seed, %off) {dropout_p = 0.2 : f32} -> tensor<2x4x200x96xbf16>, tensor<2x4x200xf32>
  %dq, %dk, %dv = attn.attention_grad ins(%q, %k, %v : tensor<2x4x200x96xbf16>, tensor<2x4x200x96xbf16>, tensor<2x4x200x96xbf16>) forward(%o, %l : tensor<2x4x200x96xbf16>, tensor<2x4x200xf32>) grad_output(%do : tensor<2x4x200x96xbf16>) rng(%seed, %off) {dropout_p = 0.2 : f32} -> tensor<2x4x200x96xbf16>, tensor<2x4x200x96xbf16>, tensor<2x4x200x96xbf16>
  return %o, %l, %dq, %dk, %dv : tensor<2x4x200x96xbf16>, tensor<2x4x200xf32>, tensor<2x4x200x96xbf16>, tensor<2x4x200x96xbf16>, tensor<2x4x200x96xbf16>
}

func.func @d160(%q: tensor<2x4x200x160xbf16>, %k: tensor<2x4x200x160xbf16>, %v: tensor<2x4x200x160xbf16>, %do: tensor<2x4x200x160xbf16>, %seed: i64, %off: i64) -> (tensor<2x4x200x160xbf16>, tensor<2x4x200xf32>, tensor<2x4x200x160xbf16>, tensor<2x4x200x160xbf16>, tensor<2x4x200x160xbf16>) {
  %o, %l = attn.attention ins(%q, %k, %v : tensor<2x4x200x160xbf16>, tensor<2x4x200x160xbf16>, tensor<2x4x200x160xbf16>) rng(%seed, %off) {dropout_p = 0.2 : f32} -> tensor<2x4x200x160xbf16>, tensor<2x4x200xf32>
  %dq, %dk, %dv = attn.attention_grad ins(%q, %k, %v : tensor<2x4x200x160xbf16>, tensor<2x4x200x160xbf16>, tensor<2x4x200x160xbf16>) forward(%o, %l : tensor<2x4x200x160xbf16>, tensor<2x4x200xf32>) grad_output(%do : tensor<2x4x200x160xbf16>) rng(%seed, %off) {dropout_p = 0.2 : f32} -> tensor<2x4x200x160xbf16>, tensor<2x4x200x160xbf16>, tensor<2x4x200x160xbf16>
  return %o, %l, %dq, %dk, %dv : tensor<2x4x200x160xbf16>, tensor<2x4x200xf32>, tensor<2x4x200x160xbf16>, tensor<2x4x200x160xbf16>, tensor<2x4x200x160xbf16>
}

func.func @d96_dynamic(%q: tensor<?x4x?x96xbf16>, %k: tensor<?x4x?x96xbf16>, %v: tensor<?x4x?x96xbf16>, %do: tensor<?x4x?x96xbf16>, %seed: i64, %off: i64) -> (tensor<?x4x?x96xbf16>, tensor<?x4x?xf32>, tensor<?x4x?x96xbf16>, tensor<?x4x?x96xbf16>, tensor<?x4x?x96xbf16>) {
  %o, %l = attn.attention ins(%q, %k, %v : tensor<?x4x?x96xbf16>, tensor<?x4x?x96xbf16>, tensor<?x4x?x96xbf16>) rng(%seed, %off) {dropout_p = 0.2 : f32} -> tensor<?x4x?x96xbf16>, tensor<?x4x?xf32>
  %dq, %dk, %dv = attn.attention_grad ins(%q, %k, %v : tensor<?x4x?x96xbf16>, tensor<?x4x?x96xbf16>, tensor<?x4x?x96xbf16>) forward(%o, %l : tensor<?x4x?x96xbf16>, tensor<?x4x?xf32>) grad_output(%do : tensor<?x4x?x96xbf16>) rng(%seed, %off) {dropout_p = 0.2 : f32} -> tensor<?x4x?x96xbf16>, tensor<?x4x?x96xbf16>, tensor<?x4x?x96xbf16>
  return %o, %l, %dq, %dk, %dv : tensor<?x4x?x96xbf16>, tensor<?x4x?xf32>, tensor<?x4x?x96xbf16>, tensor<?x4x?x96xbf16>, tensor<?x4x?x96xbf16>
}

func.func @d256(%q: tensor<2x4x200x256xbf16>, %k: tensor<2x4x200x256xbf16>, %v: tensor<2x4x200x256xbf16>, %do: tensor<2x4x200x256xbf16>, %seed: i64, %off: i64) -> (tensor<2x4x200x256xbf16>, tensor<2x4x200xf32>, tensor<2x4x200x256xbf16>, tensor<2x4x200x256xbf16>, tensor<2x4x200x256xbf16>) {
  %o, %l = attn.attention ins(%q, %k, %v : tensor<2x4x200x256xbf16>, tensor<2x4x200x256xbf16>, tensor<2x4x200x256xbf16>) rng(%seed, %off) {dropout_p = 0.2 : f32} -> tensor<2x4x200x256xbf16>, tensor<2x4x200xf32>
  %dq, %dk, %dv = attn.attention_grad ins(%q, %k, %v : tensor<2x4x200x256xbf16>, tensor<2x4x200x256xbf16>, tensor<2x4x200x256xbf16>) forward(%o, %l : tensor<2x4x200x256xbf16>, tensor<2x4x200xf32>) grad_output(%do : tensor<2x4x200x256xbf16>) rng(%seed, %off) {dropout_p = 0.2 : f32} -> tensor<2x4x200x256xbf16>, tensor<2x4x200x256xbf16>, tensor<2x4x200x256xbf16>
  return %o, %l, %dq, %dk, %dv : tensor<2x4x200x256xbf16>, tensor<2x4x200xf32>, tensor<2x4x200x256xbf16>, tensor<2x4x200x256xbf16>, tensor<2x4x200x256xbf16>
}

func.func @d96_deterministic(%q: tensor<2x4x200x96xbf16>, %k: tensor<2x4x200x96xbf16>, %v: tensor<2x4x200x96xbf16>, %do: tensor<2x4x200x96xbf16>, %seed: i64, %off: i64) -> (tensor<2x4x200x96xbf16>, tensor<2x4x200xf32>, tensor<2x4x200x96xbf16>, tensor<2x4x200x96xbf16>, tensor<2x4x200x96xbf16>) {
  %o, %l = attn.attention ins(%q, %k, %v : tensor<2x4x200x96xbf16>, tensor<2x4x200x96xbf16>, tensor<2x4x200x96xbf16>) rng(%seed, %off) {dropout_p = 0.2 : f32} -> tensor<2x4x200x96xbf16>, tensor<2x4x200xf32>
  %dq, %dk, %dv = attn.attention_grad ins(%q, %k, %v : tensor<2x4x200x96xbf16>, tensor<2x4x200x96xbf16>, tensor<2x4x200x96xbf16>) forward(%o, %l : tensor<2x4x200x96xbf16>, tensor<2x4x200xf32>) grad_output(%do : tensor<2x4x200x96xbf16>) rng(%seed, %off) {deterministic, dropout_p = 0.2 : f32} -> tensor<2x4x200x96xbf16>, tensor<2x4x200x96xbf16>, tensor<2x4x200x96xbf16>
  return %o, %l, %dq, %dk, %dv : tensor<2x4x200x96xbf16>, tensor<2x4x200xf32>, tensor<2x4x200x96xbf16>, tensor<2x4x200x96xbf16>, tensor<2x4x200x96xbf16>
}
