// RUN: attention-opt %s -split-input-file -verify-diagnostics --attn-select-kernels="chip=sm_90a"
// RUN: not attention-opt %s -split-input-file --attn-select-kernels="chip=sm_80" 2>&1 | FileCheck %s --check-prefix=SM80
// RUN: not attention-opt %s -split-input-file --attn-to-gpu="chip=sm_90a" 2>&1 | FileCheck %s --check-prefix=TOGPU

// A kernel configuration in attn.tiles (a user's, or recorded by an earlier
// run) that the kernels cannot take is an error at the op; where the fields
// are the problem it names the nearest configuration the kernel takes.
// Every GPU route checks it the same way.

// SM80: error: 'attn.attention' op GPU code generation: cannot honour #attn.tiles<block_q = 128, block_kv = 64, stages = 3, warps = 8, kernel = wgmma>: kernel = wgmma needs chip=sm_90a, not sm_80
// TOGPU: error: 'attn.attention' op GPU code generation: cannot honour #attn.tiles<block_q = 128, block_kv = 64, stages = 3, warps = 8, kernel = wgmma>: for this op that kernel takes #attn.tiles<block_q = 128, block_kv = 64, stages = 2, warps = 8, kernel = wgmma>
func.func @stages(%q: tensor<2x8x1024x128xbf16>, %k: tensor<2x8x1024x128xbf16>, %v: tensor<2x8x1024x128xbf16>) -> tensor<2x8x1024x128xbf16> {
  // expected-error @+1 {{cannot honour #attn.tiles<block_q = 128, block_kv = 64, stages = 3, warps = 8, kernel = wgmma>: for this op that kernel takes #attn.tiles<block_q = 128, block_kv = 64, stages = 2, warps = 8, kernel = wgmma>}}
  %o = attn.attention ins(%q, %k, %v : tensor<2x8x1024x128xbf16>, tensor<2x8x1024x128xbf16>, tensor<2x8x1024x128xbf16>) {attn.tiles = #attn.tiles<block_q = 128, block_kv = 64, stages = 3, warps = 8, kernel = wgmma>} -> tensor<2x8x1024x128xbf16>
  return %o : tensor<2x8x1024x128xbf16>
}

// -----

// The wgmma kernel's warps follow from its rows: 16 per warp.
func.func @wgmma_warps(%q: tensor<2x8x1024x128xbf16>, %k: tensor<2x8x1024x128xbf16>, %v: tensor<2x8x1024x128xbf16>) -> tensor<2x8x1024x128xbf16> {
  // expected-error @+1 {{for this op that kernel takes #attn.tiles<block_q = 64, block_kv = 128, stages = 2, warps = 4, kernel = wgmma>}}
  %o = attn.attention ins(%q, %k, %v : tensor<2x8x1024x128xbf16>, tensor<2x8x1024x128xbf16>, tensor<2x8x1024x128xbf16>) {attn.tiles = #attn.tiles<block_q = 64, block_kv = 128, stages = 2, warps = 8, kernel = wgmma>} -> tensor<2x8x1024x128xbf16>
  return %o : tensor<2x8x1024x128xbf16>
}

// -----

func.func @wgmma_dropout_softcap_d256(%q: tensor<1x8x512x256xbf16>, %k: tensor<1x8x512x256xbf16>, %v: tensor<1x8x512x256xbf16>, %s: i64, %off: i64) -> tensor<1x8x512x256xbf16> {
  // expected-error @+1 {{the wgmma kernel does not take this op: dropout with softcap and a causal rule or window at D and Dv over 192 spills in the wgmma kernel}}
  %o = attn.attention ins(%q, %k, %v : tensor<1x8x512x256xbf16>, tensor<1x8x512x256xbf16>, tensor<1x8x512x256xbf16>) rng(%s, %off) {dropout_p = 0.1 : f32, softcap = 30.0 : f32, causal = #attn.causal<top_left>, attn.tiles = #attn.tiles<block_q = 64, block_kv = 64, stages = 2, warps = 4, kernel = wgmma>} -> tensor<1x8x512x256xbf16>
  return %o : tensor<1x8x512x256xbf16>
}

// -----

func.func @wgmma_short(%q: tensor<1x8x48x64xbf16>, %k: tensor<1x8x512x64xbf16>, %v: tensor<1x8x512x64xbf16>) -> tensor<1x8x48x64xbf16> {
  // expected-error @+1 {{the wgmma kernel does not take this op: the query length is at most 64}}
  %o = attn.attention ins(%q, %k, %v : tensor<1x8x48x64xbf16>, tensor<1x8x512x64xbf16>, tensor<1x8x512x64xbf16>) {attn.tiles = #attn.tiles<block_q = 64, block_kv = 128, stages = 2, warps = 4, kernel = wgmma>} -> tensor<1x8x48x64xbf16>
  return %o : tensor<1x8x48x64xbf16>
}

// -----

func.func @query_block(%q: tensor<2x8x1024x128xbf16>, %k: tensor<2x8x1024x128xbf16>, %v: tensor<2x8x1024x128xbf16>) -> tensor<2x8x1024x128xbf16> {
  // expected-error @+1 {{cannot honour #attn.tiles<block_q = 96, block_kv = 64, stages = 2, warps = 4, kernel = mma_sync>: query block 96 (expected 64 or 128)}}
  %o = attn.attention ins(%q, %k, %v : tensor<2x8x1024x128xbf16>, tensor<2x8x1024x128xbf16>, tensor<2x8x1024x128xbf16>) {attn.tiles = #attn.tiles<block_q = 96, block_kv = 64, stages = 2, warps = 4, kernel = mma_sync>} -> tensor<2x8x1024x128xbf16>
  return %o : tensor<2x8x1024x128xbf16>
}

// -----

func.func @registers(%q: tensor<2x8x1024x128xbf16>, %k: tensor<2x8x1024x128xbf16>, %v: tensor<2x8x1024x128xbf16>) -> tensor<2x8x1024x128xbf16> {
  // expected-error @+1 {{32 rows per warp with 128 keys per step and Dv = 128 need 256 accumulator registers per thread (at most 192)}}
  %o = attn.attention ins(%q, %k, %v : tensor<2x8x1024x128xbf16>, tensor<2x8x1024x128xbf16>, tensor<2x8x1024x128xbf16>) {attn.tiles = #attn.tiles<block_q = 128, block_kv = 128, stages = 2, warps = 4, kernel = mma_sync>} -> tensor<2x8x1024x128xbf16>
  return %o : tensor<2x8x1024x128xbf16>
}

// -----

// f32 takes the tensor cores only as tf32 on the mma.sync kernel
// (kernel = mma_sync on an f32 op asks for it; docs/semantics.md §2.1).
func.func @f32_wgmma(%q: tensor<1x2x100x64xf32>, %k: tensor<1x2x100x64xf32>, %v: tensor<1x2x100x64xf32>) -> tensor<1x2x100x64xf32> {
  // expected-error @+1 {{cannot honour #attn.tiles<block_q = 128, block_kv = 64, stages = 2, warps = 8, kernel = wgmma>: the wgmma kernel does not take this op: f32 operands are multiplied in tf32 by the mma.sync kernel (wgmma's tf32 reads both operands K-major, and V is not)}}
  %o = attn.attention ins(%q, %k, %v : tensor<1x2x100x64xf32>, tensor<1x2x100x64xf32>, tensor<1x2x100x64xf32>) {attn.tiles = #attn.tiles<block_q = 128, block_kv = 64, stages = 2, warps = 8, kernel = wgmma>} -> tensor<1x2x100x64xf32>
  return %o : tensor<1x2x100x64xf32>
}

// -----

// The CUDA-core kernel's threads follow from its rows and head dims.
func.func @cuda_core_warps(%q: tensor<1x2x100x64xf32>, %k: tensor<1x2x100x64xf32>, %v: tensor<1x2x100x64xf32>) -> tensor<1x2x100x64xf32> {
  // expected-error @+1 {{for this op that kernel takes #attn.tiles<block_q = 64, block_kv = 64, stages = 1, warps = 2, kernel = cuda_core>}}
  %o = attn.attention ins(%q, %k, %v : tensor<1x2x100x64xf32>, tensor<1x2x100x64xf32>, tensor<1x2x100x64xf32>) {attn.tiles = #attn.tiles<block_q = 64, block_kv = 64, stages = 1, warps = 4, kernel = cuda_core>} -> tensor<1x2x100x64xf32>
  return %o : tensor<1x2x100x64xf32>
}

// -----

func.func @split_dropout(%q: tensor<1x8x1x64xbf16>, %k: tensor<1x2x4096x64xbf16>, %v: tensor<1x2x4096x64xbf16>, %s: i64, %off: i64) -> tensor<1x8x1x64xbf16> {
  // expected-error @+1 {{GPU code generation: splits = 4 in attn.tiles does not apply: the op has dropout}}
  %o = attn.attention ins(%q, %k, %v : tensor<1x8x1x64xbf16>, tensor<1x2x4096x64xbf16>, tensor<1x2x4096x64xbf16>) rng(%s, %off) {dropout_p = 0.1 : f32, attn.tiles = #attn.tiles<block_q = 64, block_kv = 64, stages = 2, warps = 4, kernel = mma_sync, splits = 4>} -> tensor<1x8x1x64xbf16>
  return %o : tensor<1x8x1x64xbf16>
}

// -----

// The split stage packs a KV head's query heads into 64-row tiles of 4
// warps.
func.func @split_rows(%q: tensor<1x8x1x64xbf16>, %k: tensor<1x2x4096x64xbf16>, %v: tensor<1x2x4096x64xbf16>) -> tensor<1x8x1x64xbf16> {
  // expected-error @+1 {{for this op that kernel takes #attn.tiles<block_q = 64, block_kv = 64, stages = 2, warps = 4, kernel = mma_sync, splits = 4>}}
  %o = attn.attention ins(%q, %k, %v : tensor<1x8x1x64xbf16>, tensor<1x2x4096x64xbf16>, tensor<1x2x4096x64xbf16>) {attn.tiles = #attn.tiles<block_q = 128, block_kv = 64, stages = 2, warps = 4, kernel = mma_sync, splits = 4>} -> tensor<1x8x1x64xbf16>
  return %o : tensor<1x8x1x64xbf16>
}

// -----

func.func @packed_split(%q: tensor<?x8x128xbf16>, %k: tensor<?x2x128xbf16>, %v: tensor<?x2x128xbf16>, %cq: tensor<?xi32>, %ck: tensor<?xi32>) -> tensor<?x8x128xbf16> {
  // expected-error @+1 {{cannot honour #attn.tiles<block_q = 64, block_kv = 64, stages = 2, warps = 4, kernel = mma_sync, splits = 2>: packed batches have no split-KV group}}
  %o = attn.varlen_attention ins(%q, %k, %v : tensor<?x8x128xbf16>, tensor<?x2x128xbf16>, tensor<?x2x128xbf16>) seqlens(%cq, %ck : tensor<?xi32>, tensor<?xi32>) {attn.tiles = #attn.tiles<block_q = 64, block_kv = 64, stages = 2, warps = 4, kernel = mma_sync, splits = 2>} -> tensor<?x8x128xbf16>
  return %o : tensor<?x8x128xbf16>
}

// -----

func.func @packed_cuda_core(%q: tensor<?x8x128xbf16>, %k: tensor<?x2x128xbf16>, %v: tensor<?x2x128xbf16>, %cq: tensor<?xi32>, %ck: tensor<?xi32>) -> tensor<?x8x128xbf16> {
  // expected-error @+1 {{packed batches have no CUDA-core kernel}}
  %o = attn.varlen_attention ins(%q, %k, %v : tensor<?x8x128xbf16>, tensor<?x2x128xbf16>, tensor<?x2x128xbf16>) seqlens(%cq, %ck : tensor<?xi32>, tensor<?xi32>) {attn.tiles = #attn.tiles<block_q = 64, block_kv = 64, stages = 1, warps = 4, kernel = cuda_core>} -> tensor<?x8x128xbf16>
  return %o : tensor<?x8x128xbf16>
}

// -----

func.func @split_at_launch_dropout(%q: tensor<?x8x1x64xbf16>, %k: tensor<?x2x?x64xbf16>, %v: tensor<?x2x?x64xbf16>, %s: i64, %off: i64) -> tensor<?x8x1x64xbf16> {
  // expected-error @+1 {{GPU code generation: splits = ? in attn.tiles does not apply: the op has dropout}}
  %o = attn.attention ins(%q, %k, %v : tensor<?x8x1x64xbf16>, tensor<?x2x?x64xbf16>, tensor<?x2x?x64xbf16>) rng(%s, %off) {dropout_p = 0.1 : f32, attn.tiles = #attn.tiles<block_q = 64, block_kv = 64, stages = 2, warps = 4, kernel = mma_sync, splits = ?>} -> tensor<?x8x1x64xbf16>
  return %o : tensor<?x8x1x64xbf16>
}

// -----

// An explicit `loads = cp_async` is the absent field and is honoured as
// written.
func.func @explicit_cp_async(%q: tensor<2x8x1024x128xbf16>, %k: tensor<2x8x1024x128xbf16>, %v: tensor<2x8x1024x128xbf16>) -> tensor<2x8x1024x128xbf16> {
  %o = attn.attention ins(%q, %k, %v : tensor<2x8x1024x128xbf16>, tensor<2x8x1024x128xbf16>, tensor<2x8x1024x128xbf16>) {attn.tiles = #attn.tiles<block_q = 128, block_kv = 128, stages = 2, warps = 8, kernel = wgmma, loads = cp_async>} -> tensor<2x8x1024x128xbf16>
  return %o : tensor<2x8x1024x128xbf16>
}

// -----

// The split_kv stage: wgmma with TMA where asked for (the chooser keeps
// cp.async there), Q as one box of whole heads; mma_sync on sm_90a where
// asked for. A row block that starts inside a head has no box.
func.func @split_tma(%q: tensor<2x8x1x128xbf16>, %k: tensor<2x2x4096x128xbf16>, %v: tensor<2x2x4096x128xbf16>) -> tensor<2x8x1x128xbf16> {
  %o = attn.attention ins(%q, %k, %v : tensor<2x8x1x128xbf16>, tensor<2x2x4096x128xbf16>, tensor<2x2x4096x128xbf16>) {attn.tiles = #attn.tiles<block_q = 64, block_kv = 64, stages = 2, warps = 4, kernel = wgmma, splits = 4, loads = tma>} -> tensor<2x8x1x128xbf16>
  return %o : tensor<2x8x1x128xbf16>
}

// -----

func.func @split_mma_sync(%q: tensor<2x8x1x128xbf16>, %k: tensor<2x2x4096x128xbf16>, %v: tensor<2x2x4096x128xbf16>) -> tensor<2x8x1x128xbf16> {
  %o = attn.attention ins(%q, %k, %v : tensor<2x8x1x128xbf16>, tensor<2x2x4096x128xbf16>, tensor<2x2x4096x128xbf16>) {attn.tiles = #attn.tiles<block_q = 64, block_kv = 64, stages = 2, warps = 4, kernel = mma_sync, splits = 4>} -> tensor<2x8x1x128xbf16>
  return %o : tensor<2x8x1x128xbf16>
}

// -----

func.func @split_tma_no_box(%q: tensor<1x32x3x128xbf16>, %k: tensor<1x1x2000x128xbf16>, %v: tensor<1x1x2000x128xbf16>) -> tensor<1x32x3x128xbf16> {
  // expected-error @+1 {{cannot honour #attn.tiles<block_q = 64, block_kv = 64, stages = 2, warps = 4, kernel = wgmma, splits = 4, loads = tma>: loads = tma: a 64-row block of the 32 x 3 packed query rows starts inside a head, which no tensor-map box covers}}
  %o = attn.attention ins(%q, %k, %v : tensor<1x32x3x128xbf16>, tensor<1x1x2000x128xbf16>, tensor<1x1x2000x128xbf16>) {attn.tiles = #attn.tiles<block_q = 64, block_kv = 64, stages = 2, warps = 4, kernel = wgmma, splits = 4, loads = tma>} -> tensor<1x32x3x128xbf16>
  return %o : tensor<1x32x3x128xbf16>
}

// -----

// schedule = persistent: static sizes only (the tile loop's bound).
func.func @persistent_runtime_sizes(%q: tensor<2x8x?x128xbf16>, %k: tensor<2x2x?x128xbf16>, %v: tensor<2x2x?x128xbf16>) -> tensor<2x8x?x128xbf16> {
  // expected-error @+1 {{cannot honour #attn.tiles<block_q = 128, block_kv = 128, stages = 2, warps = 8, kernel = wgmma, loads = tma, schedule = persistent>: schedule = persistent: run-time sizes (the persistent kernel's tile count is static)}}
  %o = attn.attention ins(%q, %k, %v : tensor<2x8x?x128xbf16>, tensor<2x2x?x128xbf16>, tensor<2x2x?x128xbf16>) {scale = 0.088 : f32, attn.tiles = #attn.tiles<block_q = 128, block_kv = 128, stages = 2, warps = 8, kernel = wgmma, loads = tma, schedule = persistent>} -> tensor<2x8x?x128xbf16>
  return %o : tensor<2x8x?x128xbf16>
}
