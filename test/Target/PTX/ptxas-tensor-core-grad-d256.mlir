// Issue 19: the tensor-core backward at D = Dv = 256 on sm_90a: the dkdv
// kernel splits dK and dV between two blocks per key block
// (tcgrad::keyBlockParts), 203776 bytes of shared memory per mma.sync block (more
// than sm_80 has: there the CUDA-core backward runs, with a remark,
// cuda-core-remark.mlir). Four variants (causal GQA; softcap + window +
// key-padding mask; dropout; `deterministic`), Lq = Lk = 1000; the dkdv
// kernel on wgmma (SW128 tiles, warp-specialized: 198696 bytes) except with
// the mask and softcap, where the wgmma one would spill. With dropout the
// wgmma kernel spills (96 bytes here, ptxas 13; mma.sync's none) but ran
// 1.28-1.39x faster (session 44, H100). No other spills; bounded at 99
// bytes like the other head dims.
// REQUIRES: ptxas
// RUN: attn-compile %s --chip=sm_90a -o %t.ptx | FileCheck %s --check-prefix=COMPILE
// RUN: ptxas -arch=sm_90a -v %t.ptx -o %t.cubin 2>&1 | FileCheck %s
// RUN: FileCheck %s --check-prefix=KIND < %t.json
// RUN: not grep -q cuda-core %t.json

// COMPILE: (16 kernels, sm_90a,
// CHECK-COUNT-16: {{^ *([0-9]|[1-9][0-9])[0-9]? bytes stack frame, ([0-9]|[1-9][0-9]) bytes spill stores}}
// CHECK-NOT: bytes spill stores

// KIND: "block_kv": 64,
// KIND: "key_block_parts": 2,
// KIND: "mma": "wgmma",
// KIND: "dynamic_shared_memory": 198696,
// KIND: "grid": [
// KIND-NEXT: 32,
// KIND-NEXT: 2,
// KIND-NEXT: 2
// KIND: "name": "attn_bwd_dkdv_0"
// KIND: "block_kv": 64,
// KIND: "key_block_parts": 2,
// KIND: "mma": "mma.sync",
// KIND: "dynamic_shared_memory": 203776,
// KIND: "grid": [
// KIND-NEXT: 32,
// KIND-NEXT: 2,
// KIND-NEXT: 2
// KIND: "name": "attn_bwd_dkdv_1"
// KIND: "block_kv": 64,
// KIND: "key_block_parts": 2,
// KIND: "mma": "wgmma",
// KIND: "dynamic_shared_memory": 198696,
// KIND: "grid": [
// KIND-NEXT: 32,
// KIND-NEXT: 2,
// KIND-NEXT: 2
// KIND: "name": "attn_bwd_dkdv_2"
// KIND: "block_kv": 64,
// KIND: "key_block_parts": 2,
// KIND: "mma": "wgmma",
// KIND: "dynamic_shared_memory": 198696,
// KIND: "grid": [
// KIND-NEXT: 32,
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
