// RUN: attention-opt %s -split-input-file -verify-diagnostics | FileCheck %s

// #attn.grad_kernels: the backward's key-block kernel family, then (tensor
// cores) its keys per block, the dQ scheme, its loads and how a key block
// too wide for one warpgroup is split, and the Q / dO stages of the TMA
// producer; fields in any order, `loads`, `split` and `query_stages`
// printed only when given.

// CHECK-LABEL: func.func @grad_kernels
// CHECK: cuda = #attn.grad_kernels<kernel = cuda_core>
// CHECK-SAME: mma = #attn.grad_kernels<kernel = mma_sync, key_block = 64, dq = separate>
// CHECK-SAME: one_stage = #attn.grad_kernels<kernel = wgmma, key_block = 64, dq = atomic, loads = tma, split = warpgroups, query_stages = 1>
// CHECK-SAME: split = #attn.grad_kernels<kernel = wgmma, key_block = 64, dq = atomic, loads = tma, split = warpgroups>
// CHECK-SAME: split_blocks = #attn.grad_kernels<kernel = mma_sync, key_block = 128, dq = separate, split = blocks>
// CHECK-SAME: unordered = #attn.grad_kernels<kernel = wgmma, key_block = 64, dq = separate, loads = cp_async>
// CHECK-SAME: wgmma = #attn.grad_kernels<kernel = wgmma, key_block = 128, dq = atomic, loads = tma>
func.func @grad_kernels() attributes {
    one_stage = #attn.grad_kernels<query_stages = 1, kernel = wgmma, key_block = 64, dq = atomic, loads = tma, split = warpgroups>,
    split = #attn.grad_kernels<split = warpgroups, kernel = wgmma, key_block = 64, dq = atomic, loads = tma>,
    split_blocks = #attn.grad_kernels<kernel = mma_sync, key_block = 128, dq = separate, split = blocks>,
    cuda = #attn.grad_kernels<kernel = cuda_core>,
    mma = #attn.grad_kernels<kernel = mma_sync, key_block = 64, dq = separate>,
    wgmma = #attn.grad_kernels<kernel = wgmma, key_block = 128, dq = atomic, loads = tma>,
    unordered = #attn.grad_kernels<loads = cp_async, dq = separate, key_block = 64, kernel = wgmma>} {
  return
}

// -----

// expected-error @+1 {{grad_kernels: kernel = cuda_core takes no key_block, dq, loads, split or query_stages (its kernels choose their own tiles)}}
func.func @cuda_core_fields() attributes {g = #attn.grad_kernels<kernel = cuda_core, key_block = 64>} {
  return
}

// -----

// expected-error @+1 {{grad_kernels: kernel = mma_sync needs key_block and dq}}
func.func @missing_dq() attributes {g = #attn.grad_kernels<kernel = mma_sync, key_block = 64>} {
  return
}

// -----

// expected-error @+1 {{grad_kernels: expected key_block = 64 or 128, got 96}}
func.func @key_block() attributes {g = #attn.grad_kernels<kernel = wgmma, key_block = 96, dq = atomic>} {
  return
}

// -----

// expected-error @+1 {{grad_kernels: loads = tma needs kernel = wgmma (only the wgmma key-block kernel has a TMA producer)}}
func.func @tma_mma_sync() attributes {g = #attn.grad_kernels<kernel = mma_sync, key_block = 64, dq = separate, loads = tma>} {
  return
}

// -----

// expected-error @+1 {{grad_kernels: split = warpgroups needs kernel = wgmma, loads = tma and key_block = 64 (its two consumer warpgroups share one 64-key block)}}
func.func @split_cp_async() attributes {g = #attn.grad_kernels<kernel = wgmma, key_block = 64, dq = atomic, split = warpgroups>} {
  return
}

// -----

// expected-error @+1 {{grad_kernels: split = warpgroups needs kernel = wgmma, loads = tma and key_block = 64 (its two consumer warpgroups share one 64-key block)}}
func.func @split_128() attributes {g = #attn.grad_kernels<kernel = wgmma, key_block = 128, dq = atomic, loads = tma, split = warpgroups>} {
  return
}

// -----

// expected-error @+1 {{grad_kernels: expected query_stages = 1 or 2, got 3}}
func.func @query_stages_3() attributes {g = #attn.grad_kernels<kernel = wgmma, key_block = 64, dq = atomic, loads = tma, query_stages = 3>} {
  return
}

// -----

// expected-error @+1 {{grad_kernels: query_stages needs loads = tma (the stages of the TMA producer's ring)}}
func.func @query_stages_cp_async() attributes {g = #attn.grad_kernels<kernel = wgmma, key_block = 64, dq = atomic, query_stages = 1>} {
  return
}

// -----

// expected-error @+1 {{grad_kernels: kernel = cuda_core takes no key_block, dq, loads, split or query_stages (its kernels choose their own tiles)}}
func.func @query_stages_cuda_core() attributes {g = #attn.grad_kernels<kernel = cuda_core, query_stages = 2>} {
  return
}
