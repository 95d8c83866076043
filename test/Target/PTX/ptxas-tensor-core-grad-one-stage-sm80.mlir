// Issue 19: the sm_80 backward on tensor cores past D = Dv = 208, where two
// stages of the mma.sync kernels' streamed tiles (Q / dO in dkdv, K / V in
// dq) do not fit a block's 163 KiB of shared memory: the chooser takes one
// stage (`query_stages` / `key_stages` 1 in the manifest; each step waits
// for its copies and refills the stage once every warp has read it), and
// the dq kernel takes 32-key steps past D = 192 (tcgrad::dqKeys: its 128
// f32 dQ accumulators beside S, P and dP of 64 keys spilled 88 bytes at
// D = 256). Before (session 47) these head dims fell to the CUDA-core
// backward. Six variants (causal GQA; `deterministic`; mask + softcap +
// window; dropout; D != Dv both ways), every kernel assembling for sm_80
// without spills (ptxas 13). The GPU validation: bench/mma_sync_backward.sh.
// REQUIRES: ptxas
// RUN: attn-compile %s --chip=sm_80 -o %t.ptx 2>&1 | FileCheck %s --check-prefix=COMPILE
// RUN: ptxas -arch=sm_80 -v %t.ptx -o %t.cubin 2>&1 | FileCheck %s
// RUN: FileCheck %s --check-prefix=KIND < %t.json
// RUN: FileCheck %s --check-prefix=DQ < %t.json

// COMPILE-NOT: remark
// COMPILE: (24 kernels, sm_80,
// CHECK-COUNT-24: 0 bytes spill stores, 0 bytes spill loads
// CHECK-NOT: bytes spill stores

// KIND-COUNT-6: "query_stages": 1,
// KIND-NOT: "query_stages"
// DQ-COUNT-6: "key_stages": 1,
// DQ-NOT: "key_stages"

func.func @d256_causal_gqa(%q: tensor<2x8x300x256xbf16>, %k: tensor<2x2x300x256xbf16>, %v: tensor<2x2x300x256xbf16>, %do: tensor<2x8x300x256xbf16>) -> (tensor<2x8x300x256xbf16>, tensor<2x8x300xf32>, tensor<2x8x300x256xbf16>, tensor<2x2x300x256xbf16>, tensor<2x2x300x256xbf16>) {
  %o, %l = attn.attention ins(%q, %k, %v : tensor<2x8x300x256xbf16>, tensor<2x2x300x256xbf16>, tensor<2x2x300x256xbf16>) {causal = #attn.causal<bottom_right>} -> tensor<2x8x300x256xbf16>, tensor<2x8x300xf32>
  %dq, %dk, %dv = attn.attention_grad ins(%q, %k, %v : tensor<2x8x300x256xbf16>, tensor<2x2x300x256xbf16>, tensor<2x2x300x256xbf16>) forward(%o, %l : tensor<2x8x300x256xbf16>, tensor<2x8x300xf32>) grad_output(%do : tensor<2x8x300x256xbf16>) {causal = #attn.causal<bottom_right>} -> tensor<2x8x300x256xbf16>, tensor<2x2x300x256xbf16>, tensor<2x2x300x256xbf16>
  return %o, %l, %dq, %dk, %dv : tensor<2x8x300x256xbf16>, tensor<2x8x300xf32>, tensor<2x8x300x256xbf16>, tensor<2x2x300x256xbf16>, tensor<2x2x300x256xbf16>
}

func.func @d248_det(%q: tensor<1x4x200x248xf16>, %k: tensor<1x4x333x248xf16>, %v: tensor<1x4x333x248xf16>, %do: tensor<1x4x200x248xf16>) -> (tensor<1x4x200x248xf16>, tensor<1x4x200xf32>, tensor<1x4x200x248xf16>, tensor<1x4x333x248xf16>, tensor<1x4x333x248xf16>) {
  %o, %l = attn.attention ins(%q, %k, %v : tensor<1x4x200x248xf16>, tensor<1x4x333x248xf16>, tensor<1x4x333x248xf16>) {causal = #attn.causal<top_left>} -> tensor<1x4x200x248xf16>, tensor<1x4x200xf32>
  %dq, %dk, %dv = attn.attention_grad ins(%q, %k, %v : tensor<1x4x200x248xf16>, tensor<1x4x333x248xf16>, tensor<1x4x333x248xf16>) forward(%o, %l : tensor<1x4x200x248xf16>, tensor<1x4x200xf32>) grad_output(%do : tensor<1x4x200x248xf16>) {causal = #attn.causal<top_left>, deterministic} -> tensor<1x4x200x248xf16>, tensor<1x4x333x248xf16>, tensor<1x4x333x248xf16>
  return %o, %l, %dq, %dk, %dv : tensor<1x4x200x248xf16>, tensor<1x4x200xf32>, tensor<1x4x200x248xf16>, tensor<1x4x333x248xf16>, tensor<1x4x333x248xf16>
}

func.func @d216_heavy(%q: tensor<2x4x257x216xbf16>, %k: tensor<2x2x129x216xbf16>, %v: tensor<2x2x129x216xbf16>, %do: tensor<2x4x257x216xbf16>, %m: tensor<2x1x1x129xi1>) -> (tensor<2x4x257x216xbf16>, tensor<2x4x257xf32>, tensor<2x4x257x216xbf16>, tensor<2x2x129x216xbf16>, tensor<2x2x129x216xbf16>) {
  %o, %l = attn.attention ins(%q, %k, %v : tensor<2x4x257x216xbf16>, tensor<2x2x129x216xbf16>, tensor<2x2x129x216xbf16>) mask(%m : tensor<2x1x1x129xi1>) {softcap = 30.0 : f32, window = array<i64: 64, 8>} -> tensor<2x4x257x216xbf16>, tensor<2x4x257xf32>
  %dq, %dk, %dv = attn.attention_grad ins(%q, %k, %v : tensor<2x4x257x216xbf16>, tensor<2x2x129x216xbf16>, tensor<2x2x129x216xbf16>) forward(%o, %l : tensor<2x4x257x216xbf16>, tensor<2x4x257xf32>) grad_output(%do : tensor<2x4x257x216xbf16>) mask(%m : tensor<2x1x1x129xi1>) {softcap = 30.0 : f32, window = array<i64: 64, 8>} -> tensor<2x4x257x216xbf16>, tensor<2x2x129x216xbf16>, tensor<2x2x129x216xbf16>
  return %o, %l, %dq, %dk, %dv : tensor<2x4x257x216xbf16>, tensor<2x4x257xf32>, tensor<2x4x257x216xbf16>, tensor<2x2x129x216xbf16>, tensor<2x2x129x216xbf16>
}

func.func @d232_dropout(%q: tensor<1x4x300x232xf16>, %k: tensor<1x4x300x232xf16>, %v: tensor<1x4x300x232xf16>, %do: tensor<1x4x300x232xf16>, %seed: i64, %off: i64) -> (tensor<1x4x300x232xf16>, tensor<1x4x300xf32>, tensor<1x4x300x232xf16>, tensor<1x4x300x232xf16>, tensor<1x4x300x232xf16>) {
  %o, %l = attn.attention ins(%q, %k, %v : tensor<1x4x300x232xf16>, tensor<1x4x300x232xf16>, tensor<1x4x300x232xf16>) rng(%seed, %off) {dropout_p = 1.000000e-01 : f32} -> tensor<1x4x300x232xf16>, tensor<1x4x300xf32>
  %dq, %dk, %dv = attn.attention_grad ins(%q, %k, %v : tensor<1x4x300x232xf16>, tensor<1x4x300x232xf16>, tensor<1x4x300x232xf16>) forward(%o, %l : tensor<1x4x300x232xf16>, tensor<1x4x300xf32>) grad_output(%do : tensor<1x4x300x232xf16>) rng(%seed, %off) {dropout_p = 1.000000e-01 : f32} -> tensor<1x4x300x232xf16>, tensor<1x4x300x232xf16>, tensor<1x4x300x232xf16>
  return %o, %l, %dq, %dk, %dv : tensor<1x4x300x232xf16>, tensor<1x4x300xf32>, tensor<1x4x300x232xf16>, tensor<1x4x300x232xf16>, tensor<1x4x300x232xf16>
}

func.func @d256_dv200(%q: tensor<1x4x1000x256xbf16>, %k: tensor<1x1x1000x256xbf16>, %v: tensor<1x1x1000x200xbf16>, %do: tensor<1x4x1000x200xbf16>) -> (tensor<1x4x1000x200xbf16>, tensor<1x4x1000xf32>, tensor<1x4x1000x256xbf16>, tensor<1x1x1000x256xbf16>, tensor<1x1x1000x200xbf16>) {
  %o, %l = attn.attention ins(%q, %k, %v : tensor<1x4x1000x256xbf16>, tensor<1x1x1000x256xbf16>, tensor<1x1x1000x200xbf16>) {causal = #attn.causal<top_left>} -> tensor<1x4x1000x200xbf16>, tensor<1x4x1000xf32>
  %dq, %dk, %dv = attn.attention_grad ins(%q, %k, %v : tensor<1x4x1000x256xbf16>, tensor<1x1x1000x256xbf16>, tensor<1x1x1000x200xbf16>) forward(%o, %l : tensor<1x4x1000x200xbf16>, tensor<1x4x1000xf32>) grad_output(%do : tensor<1x4x1000x200xbf16>) {causal = #attn.causal<top_left>} -> tensor<1x4x1000x256xbf16>, tensor<1x1x1000x256xbf16>, tensor<1x1x1000x200xbf16>
  return %o, %l, %dq, %dk, %dv : tensor<1x4x1000x200xbf16>, tensor<1x4x1000xf32>, tensor<1x4x1000x256xbf16>, tensor<1x1x1000x256xbf16>, tensor<1x1x1000x200xbf16>
}

func.func @d224_dv256_dropout(%q: tensor<1x4x512x224xbf16>, %k: tensor<1x2x512x224xbf16>, %v: tensor<1x2x512x256xbf16>, %do: tensor<1x4x512x256xbf16>, %seed: i64, %off: i64) -> (tensor<1x4x512x256xbf16>, tensor<1x4x512xf32>, tensor<1x4x512x224xbf16>, tensor<1x2x512x224xbf16>, tensor<1x2x512x256xbf16>) {
  %o, %l = attn.attention ins(%q, %k, %v : tensor<1x4x512x224xbf16>, tensor<1x2x512x224xbf16>, tensor<1x2x512x256xbf16>) rng(%seed, %off) {causal = #attn.causal<top_left>, dropout_p = 1.000000e-01 : f32} -> tensor<1x4x512x256xbf16>, tensor<1x4x512xf32>
  %dq, %dk, %dv = attn.attention_grad ins(%q, %k, %v : tensor<1x4x512x224xbf16>, tensor<1x2x512x224xbf16>, tensor<1x2x512x256xbf16>) forward(%o, %l : tensor<1x4x512x256xbf16>, tensor<1x4x512xf32>) grad_output(%do : tensor<1x4x512x256xbf16>) rng(%seed, %off) {causal = #attn.causal<top_left>, dropout_p = 1.000000e-01 : f32} -> tensor<1x4x512x224xbf16>, tensor<1x2x512x224xbf16>, tensor<1x2x512x256xbf16>
  return %o, %l, %dq, %dk, %dv : tensor<1x4x512x256xbf16>, tensor<1x4x512xf32>, tensor<1x4x512x224xbf16>, tensor<1x2x512x224xbf16>, tensor<1x2x512x256xbf16>
}
