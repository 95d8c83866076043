// An #attn.grad_kernels the backward kernels cannot take is an error at the
// op that names the configuration they take, or says why they cannot.
// RUN: attention-opt %s -split-input-file -verify-diagnostics --attn-select-kernels="chip=sm_90a"
// RUN: not attention-opt %s -split-input-file --attn-select-kernels="chip=sm_80" 2>&1 | FileCheck %s --check-prefix=SM80
// RUN: not attention-opt %s -split-input-file --attn-to-gpu="chip=sm_90a" 2>&1 | FileCheck %s --check-prefix=TOGPU

// The atomic dQ for a `deterministic` op.
func.func @atomic_deterministic(%q: tensor<1x4x512x64xf16>, %k: tensor<1x4x512x64xf16>, %v: tensor<1x4x512x64xf16>, %o: tensor<1x4x512x64xf16>, %lse: tensor<1x4x512xf32>, %do: tensor<1x4x512x64xf16>) -> tensor<1x4x512x64xf16> {
  // expected-error @+1 {{cannot honour #attn.grad_kernels<kernel = wgmma, key_block = 128, dq = atomic, loads = tma>: for this op the backward takes #attn.grad_kernels<kernel = wgmma, key_block = 128, dq = separate, loads = tma> (the atomic dQ needs an op without `deterministic`, at least 64 queries, and a key-block kernel that has it for these head dims; with split = warpgroups at D = 256 and two query stages, a causal op without GQA)}}
  %dq, %dk, %dv = attn.attention_grad ins(%q, %k, %v : tensor<1x4x512x64xf16>, tensor<1x4x512x64xf16>, tensor<1x4x512x64xf16>) forward(%o, %lse : tensor<1x4x512x64xf16>, tensor<1x4x512xf32>) grad_output(%do : tensor<1x4x512x64xf16>) {deterministic, attn.grad_kernels = #attn.grad_kernels<kernel = wgmma, key_block = 128, dq = atomic, loads = tma>} -> tensor<1x4x512x64xf16>, tensor<1x4x512x64xf16>, tensor<1x4x512x64xf16>
  return %dq : tensor<1x4x512x64xf16>
}
// TOGPU: cannot honour #attn.grad_kernels<kernel = wgmma, key_block = 128, dq = atomic, loads = tma>: for this op the backward takes

// -----

// 128 keys per block where they do not fit the shared memory.
func.func @key_block_too_big(%q: tensor<1x2x256x224xf16>, %k: tensor<1x2x256x224xf16>, %v: tensor<1x2x256x224xf16>, %o: tensor<1x2x256x224xf16>, %lse: tensor<1x2x256xf32>, %do: tensor<1x2x256x224xf16>) -> tensor<1x2x256x224xf16> {
  // expected-error @+1 {{GPU code generation: the dkdv kernel with 128 keys per block needs}}
  %dq, %dk, %dv = attn.attention_grad ins(%q, %k, %v : tensor<1x2x256x224xf16>, tensor<1x2x256x224xf16>, tensor<1x2x256x224xf16>) forward(%o, %lse : tensor<1x2x256x224xf16>, tensor<1x2x256xf32>) grad_output(%do : tensor<1x2x256x224xf16>) {deterministic, attn.grad_kernels = #attn.grad_kernels<kernel = wgmma, key_block = 128, dq = separate, loads = tma>} -> tensor<1x2x256x224xf16>, tensor<1x2x256x224xf16>, tensor<1x2x256x224xf16>
  return %dq : tensor<1x2x256x224xf16>
}

// -----

// Tensor cores for f32.
func.func @f32_tensor_cores(%q: tensor<1x2x100x64xf32>, %k: tensor<1x2x100x64xf32>, %v: tensor<1x2x100x64xf32>, %o: tensor<1x2x100x64xf32>, %lse: tensor<1x2x100xf32>, %do: tensor<1x2x100x64xf32>) -> tensor<1x2x100x64xf32> {
  // expected-error @+1 {{cannot honour #attn.grad_kernels<kernel = mma_sync, key_block = 64, dq = separate>: no tensor-core backward kernel: the element type is not f16 or bf16}}
  %dq, %dk, %dv = attn.attention_grad ins(%q, %k, %v : tensor<1x2x100x64xf32>, tensor<1x2x100x64xf32>, tensor<1x2x100x64xf32>) forward(%o, %lse : tensor<1x2x100x64xf32>, tensor<1x2x100xf32>) grad_output(%do : tensor<1x2x100x64xf32>) {attn.grad_kernels = #attn.grad_kernels<kernel = mma_sync, key_block = 64, dq = separate>} -> tensor<1x2x100x64xf32>, tensor<1x2x100x64xf32>, tensor<1x2x100x64xf32>
  return %dq : tensor<1x2x100x64xf32>
}

// -----

// The wgmma kernel on a chip without it (checked by the sm_80 run; on
// sm_90a it is taken).
// SM80: cannot honour #attn.grad_kernels<kernel = wgmma, key_block = 64, dq = separate>: kernel = wgmma needs chip=sm_90a, not sm_80
func.func @wgmma_chip(%q: tensor<1x4x512x64xf16>, %k: tensor<1x4x512x64xf16>, %v: tensor<1x4x512x64xf16>, %o: tensor<1x4x512x64xf16>, %lse: tensor<1x4x512xf32>, %do: tensor<1x4x512x64xf16>) -> tensor<1x4x512x64xf16> {
  %dq, %dk, %dv = attn.attention_grad ins(%q, %k, %v : tensor<1x4x512x64xf16>, tensor<1x4x512x64xf16>, tensor<1x4x512x64xf16>) forward(%o, %lse : tensor<1x4x512x64xf16>, tensor<1x4x512xf32>) grad_output(%do : tensor<1x4x512x64xf16>) {deterministic, attn.grad_kernels = #attn.grad_kernels<kernel = wgmma, key_block = 64, dq = separate>} -> tensor<1x4x512x64xf16>, tensor<1x4x512x64xf16>, tensor<1x4x512x64xf16>
  return %dq : tensor<1x4x512x64xf16>
}

// -----

// A packed batch: no CUDA-core backward.
func.func @packed_cuda_core(%q: tensor<?x8x128xbf16>, %k: tensor<?x2x128xbf16>, %v: tensor<?x2x128xbf16>, %cq: tensor<?xi32>, %ck: tensor<?xi32>, %o: tensor<?x8x128xbf16>, %l: tensor<8x?xf32>, %do: tensor<?x8x128xbf16>) -> tensor<?x8x128xbf16> {
  // expected-error @+1 {{cannot honour #attn.grad_kernels<kernel = cuda_core>: packed batches have no CUDA-core backward}}
  %dq, %dk, %dv = attn.varlen_attention_grad ins(%q, %k, %v : tensor<?x8x128xbf16>, tensor<?x2x128xbf16>, tensor<?x2x128xbf16>) seqlens(%cq, %ck : tensor<?xi32>, tensor<?xi32>) forward(%o, %l : tensor<?x8x128xbf16>, tensor<8x?xf32>) grad_output(%do : tensor<?x8x128xbf16>) {attn.grad_kernels = #attn.grad_kernels<kernel = cuda_core>} -> tensor<?x8x128xbf16>, tensor<?x2x128xbf16>, tensor<?x2x128xbf16>
  return %dq : tensor<?x8x128xbf16>
}

// -----

// Another attribute under the name.
func.func @not_grad_kernels(%q: tensor<1x4x512x64xf16>, %k: tensor<1x4x512x64xf16>, %v: tensor<1x4x512x64xf16>, %o: tensor<1x4x512x64xf16>, %lse: tensor<1x4x512xf32>, %do: tensor<1x4x512x64xf16>) -> tensor<1x4x512x64xf16> {
  // expected-error @+1 {{'attn.grad_kernels' must be an #attn.grad_kernels<...> (a kernel configuration), got #attn.tiles<block_q = 64, block_kv = 64, stages = 2, warps = 4, kernel = mma_sync>}}
  %dq, %dk, %dv = attn.attention_grad ins(%q, %k, %v : tensor<1x4x512x64xf16>, tensor<1x4x512x64xf16>, tensor<1x4x512x64xf16>) forward(%o, %lse : tensor<1x4x512x64xf16>, tensor<1x4x512xf32>) grad_output(%do : tensor<1x4x512x64xf16>) {attn.grad_kernels = #attn.tiles<block_q = 64, block_kv = 64, stages = 2, warps = 4, kernel = mma_sync>} -> tensor<1x4x512x64xf16>, tensor<1x4x512x64xf16>, tensor<1x4x512x64xf16>
  return %dq : tensor<1x4x512x64xf16>
}

// -----

// One Q / dO stage without the head split (D + Dv <= 256): only the head
// split's consumer lays out a one-stage ring.
func.func @one_stage_no_head_split(%q: tensor<1x4x512x128xbf16>, %k: tensor<1x4x512x128xbf16>, %v: tensor<1x4x512x128xbf16>, %o: tensor<1x4x512x128xbf16>, %lse: tensor<1x4x512xf32>, %do: tensor<1x4x512x128xbf16>) -> tensor<1x4x512x128xbf16> {
  // expected-error @+1 {{cannot honour #attn.grad_kernels<kernel = wgmma, key_block = 128, dq = atomic, loads = tma, query_stages = 1>: for this op the backward takes #attn.grad_kernels<kernel = wgmma, key_block = 128, dq = atomic, loads = tma> (query_stages = 1 needs the head split: split = warpgroups, D + Dv > 256 each rounded up to 16, loads = tma; or kernel = mma_sync)}}
  %dq, %dk, %dv = attn.attention_grad ins(%q, %k, %v : tensor<1x4x512x128xbf16>, tensor<1x4x512x128xbf16>, tensor<1x4x512x128xbf16>) forward(%o, %lse : tensor<1x4x512x128xbf16>, tensor<1x4x512xf32>) grad_output(%do : tensor<1x4x512x128xbf16>) {attn.grad_kernels = #attn.grad_kernels<kernel = wgmma, key_block = 128, dq = atomic, loads = tma, query_stages = 1>} -> tensor<1x4x512x128xbf16>, tensor<1x4x512x128xbf16>, tensor<1x4x512x128xbf16>
  return %dq : tensor<1x4x512x128xbf16>
}

// -----

// D = 256 on sm_80: two stages of the mma.sync kernels' streamed tiles do
// not fit its shared memory (absent query_stages means two); the chooser
// takes one (select-kernels-grad.mlir). sm_90a has room for two.
// SM80: select-kernels-grad-invalid.mlir:[[@LINE+2]]:{{[0-9]+}}: error: 'attn.attention_grad' op GPU code generation: the dkdv kernel with 64 keys per block needs 203776 bytes of shared memory at D = 256, Dv = 256, more than the 166912 a block has (use one stage of its streamed tiles: query_stages = 1 in #attn.grad_kernels)
func.func @two_stages_d256(%q: tensor<1x2x100x256xbf16>, %k: tensor<1x2x100x256xbf16>, %v: tensor<1x2x100x256xbf16>, %o: tensor<1x2x100x256xbf16>, %lse: tensor<1x2x100xf32>, %do: tensor<1x2x100x256xbf16>) -> tensor<1x2x100x256xbf16> {
  %dq, %dk, %dv = attn.attention_grad ins(%q, %k, %v : tensor<1x2x100x256xbf16>, tensor<1x2x100x256xbf16>, tensor<1x2x100x256xbf16>) forward(%o, %lse : tensor<1x2x100x256xbf16>, tensor<1x2x100xf32>) grad_output(%do : tensor<1x2x100x256xbf16>) {attn.grad_kernels = #attn.grad_kernels<kernel = mma_sync, key_block = 64, dq = separate>} -> tensor<1x2x100x256xbf16>, tensor<1x2x100x256xbf16>, tensor<1x2x100x256xbf16>
  return %dq : tensor<1x2x100x256xbf16>
}
