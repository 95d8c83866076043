// RUN: attention-opt %s -split-input-file -verify-diagnostics --attn-to-gpu="chip=sm_90a"
// RUN: not attention-opt %s --attn-to-gpu="chip=sm_90a split-kv=off" 2>&1 | FileCheck %s --check-prefix=OFF
// RUN: not attention-opt %s --attn-to-gpu="chip=sm_90a kernel=cuda-core" 2>&1 | FileCheck %s --check-prefix=CUDA

// What the GPU code generation refuses for attn.paged_attention, each a
// diagnostic at the op that says why. The first op is valid: the option
// runs above refuse it.

// OFF: error: 'attn.paged_attention' op GPU code generation: --split-kv=off does not apply: a paged key/value cache is read by the split-KV group only
// CUDA: error: 'attn.paged_attention' op GPU code generation: a paged cache has no CUDA-core kernel (--kernel=cuda-core)
func.func @ok(%q: tensor<2x8x1x64xbf16>, %kc: tensor<40x16x2x64xbf16>, %vc: tensor<40x16x2x64xbf16>,
              %t: tensor<2x12xi32>, %n: tensor<2xi32>) -> tensor<2x8x1x64xbf16> {
  %o = attn.paged_attention ins(%q : tensor<2x8x1x64xbf16>)
      cache(%kc, %vc : tensor<40x16x2x64xbf16>, tensor<40x16x2x64xbf16>)
      pages(%t, %n : tensor<2x12xi32>, tensor<2xi32>) -> tensor<2x8x1x64xbf16>
  return %o : tensor<2x8x1x64xbf16>
}

// -----

func.func @dynamic_page_size(%q: tensor<?x8x1x64xbf16>, %kc: tensor<40x?x2x64xbf16>, %vc: tensor<40x?x2x64xbf16>,
                             %t: tensor<?x12xi32>, %n: tensor<?xi32>) -> tensor<?x8x1x64xbf16> {
  // expected-error @+1 {{GPU code generation: 'tensor<40x?x2x64xbf16>' is dynamic at dimension 1; only the page count (dimension 0) and the block table's width may be run-time sizes for a paged cache}}
  %o = attn.paged_attention ins(%q : tensor<?x8x1x64xbf16>)
      cache(%kc, %vc : tensor<40x?x2x64xbf16>, tensor<40x?x2x64xbf16>)
      pages(%t, %n : tensor<?x12xi32>, tensor<?xi32>) -> tensor<?x8x1x64xbf16>
  return %o : tensor<?x8x1x64xbf16>
}

// -----

func.func @dynamic_query_len(%q: tensor<?x8x?x64xbf16>, %kc: tensor<40x16x2x64xbf16>, %vc: tensor<40x16x2x64xbf16>,
                             %t: tensor<?x?xi32>, %n: tensor<?xi32>) -> tensor<?x8x?x64xbf16> {
  // expected-error @+1 {{GPU code generation: 'tensor<?x8x?x64xbf16>' is dynamic at dimension 2; only the batch (dimension 0) and the block table's width may be run-time sizes for a paged cache}}
  %o = attn.paged_attention ins(%q : tensor<?x8x?x64xbf16>)
      cache(%kc, %vc : tensor<40x16x2x64xbf16>, tensor<40x16x2x64xbf16>)
      pages(%t, %n : tensor<?x?xi32>, tensor<?xi32>) -> tensor<?x8x?x64xbf16>
  return %o : tensor<?x8x?x64xbf16>
}

// -----

func.func @f32(%q: tensor<2x8x1x64xf32>, %kc: tensor<40x16x2x64xf32>, %vc: tensor<40x16x2x64xf32>,
               %t: tensor<2x12xi32>, %n: tensor<2xi32>) -> tensor<2x8x1x64xf32> {
  // expected-error @+1 {{GPU code generation: a paged cache needs the tensor-core kernel, which does not apply: the element type is f32, which tensor cores take only as tf32 (--f32-precision=tf32: the dense forward)}}
  %o = attn.paged_attention ins(%q : tensor<2x8x1x64xf32>)
      cache(%kc, %vc : tensor<40x16x2x64xf32>, tensor<40x16x2x64xf32>)
      pages(%t, %n : tensor<2x12xi32>, tensor<2xi32>) -> tensor<2x8x1x64xf32>
  return %o : tensor<2x8x1x64xf32>
}

// -----

func.func @odd_head_dim(%q: tensor<2x8x1x60xf16>, %kc: tensor<40x16x2x60xf16>, %vc: tensor<40x16x2x60xf16>,
                        %t: tensor<2x12xi32>, %n: tensor<2xi32>) -> tensor<2x8x1x60xf16> {
  // expected-error @+1 {{a paged cache needs the tensor-core kernel, which does not apply: head dims D = 60 and Dv = 60 must be multiples of 8 up to 256}}
  %o = attn.paged_attention ins(%q : tensor<2x8x1x60xf16>)
      cache(%kc, %vc : tensor<40x16x2x60xf16>, tensor<40x16x2x60xf16>)
      pages(%t, %n : tensor<2x12xi32>, tensor<2xi32>) -> tensor<2x8x1x60xf16>
  return %o : tensor<2x8x1x60xf16>
}

// -----

func.func @wgmma_override(%q: tensor<2x8x1x64xbf16>, %kc: tensor<40x16x2x64xbf16>, %vc: tensor<40x16x2x64xbf16>,
                          %t: tensor<2x12xi32>, %n: tensor<2xi32>) -> tensor<2x8x1x64xbf16> {
  // expected-error @+1 {{cannot honour #attn.tiles<block_q = 128, block_kv = 128, stages = 2, warps = 8, kernel = wgmma>: a paged cache is read by the split-KV group only (kernel = wgmma or mma_sync with splits = N)}}
  %o = attn.paged_attention ins(%q : tensor<2x8x1x64xbf16>)
      cache(%kc, %vc : tensor<40x16x2x64xbf16>, tensor<40x16x2x64xbf16>)
      pages(%t, %n : tensor<2x12xi32>, tensor<2xi32>)
      {attn.tiles = #attn.tiles<block_q = 128, block_kv = 128, stages = 2, warps = 8, kernel = wgmma>}
      -> tensor<2x8x1x64xbf16>
  return %o : tensor<2x8x1x64xbf16>
}

// -----

// A recorded split count is honoured (3 here, where auto takes 2).
func.func @splits_override(%q: tensor<2x8x1x64xbf16>, %kc: tensor<40x16x2x64xbf16>, %vc: tensor<40x16x2x64xbf16>,
                           %t: tensor<2x12xi32>, %n: tensor<2xi32>) -> tensor<2x8x1x64xbf16> {
  %o = attn.paged_attention ins(%q : tensor<2x8x1x64xbf16>)
      cache(%kc, %vc : tensor<40x16x2x64xbf16>, tensor<40x16x2x64xbf16>)
      pages(%t, %n : tensor<2x12xi32>, tensor<2xi32>)
      {attn.tiles = #attn.tiles<block_q = 64, block_kv = 64, stages = 2, warps = 4, kernel = mma_sync, splits = 3>}
      -> tensor<2x8x1x64xbf16>
  return %o : tensor<2x8x1x64xbf16>
}

// -----

// Empty caches and block tables (valid ops: the kernels need every size).
func.func @empty_value_dim(%q: tensor<2x4x1x16xf16>, %kc: tensor<5x8x2x16xf16>, %vc: tensor<5x8x2x0xf16>, %t: tensor<2x3xi32>, %n: tensor<2xi32>) -> tensor<2x4x1x0xf16> {
  // expected-error @+1 {{GPU code generation: empty key/value cache ('tensor<5x8x2x0xf16>'): the kernels need every size >= 1}}
  %o = attn.paged_attention ins(%q : tensor<2x4x1x16xf16>) cache(%kc, %vc : tensor<5x8x2x16xf16>, tensor<5x8x2x0xf16>) pages(%t, %n : tensor<2x3xi32>, tensor<2xi32>) {scale = 0.5 : f32} -> tensor<2x4x1x0xf16>
  return %o : tensor<2x4x1x0xf16>
}

// -----

func.func @no_pages_per_sequence(%q: tensor<2x4x1x16xf16>, %kc: tensor<5x8x2x16xf16>, %vc: tensor<5x8x2x16xf16>, %t: tensor<2x0xi32>, %n: tensor<2xi32>) -> tensor<2x4x1x16xf16> {
  // expected-error @+1 {{GPU code generation: empty block table ('tensor<2x0xi32>'): the kernels need every size >= 1}}
  %o = attn.paged_attention ins(%q : tensor<2x4x1x16xf16>) cache(%kc, %vc : tensor<5x8x2x16xf16>, tensor<5x8x2x16xf16>) pages(%t, %n : tensor<2x0xi32>, tensor<2xi32>) -> tensor<2x4x1x16xf16>
  return %o : tensor<2x4x1x16xf16>
}

// -----

// The batch and the page count are each static in every tensor that holds
// them or dynamic in every one (attn-compile wrote a manifest its runtime
// then refused).
func.func @mixed_batch(%q: tensor<2x8x1x64xbf16>, %kc: tensor<40x16x2x64xbf16>, %vc: tensor<40x16x2x64xbf16>,
                       %t: tensor<?x12xi32>, %n: tensor<2xi32>) -> tensor<2x8x1x64xbf16> {
  // expected-error @+1 {{GPU code generation: the batch is static in dimension 0 of the query ('tensor<2x8x1x64xbf16>') but dynamic in dimension 0 of the block_table ('tensor<?x12xi32>'); a size must be static in every tensor or dynamic in every tensor}}
  %o = attn.paged_attention ins(%q : tensor<2x8x1x64xbf16>)
      cache(%kc, %vc : tensor<40x16x2x64xbf16>, tensor<40x16x2x64xbf16>)
      pages(%t, %n : tensor<?x12xi32>, tensor<2xi32>) -> tensor<2x8x1x64xbf16>
  return %o : tensor<2x8x1x64xbf16>
}

// -----

func.func @mixed_pages(%q: tensor<2x8x1x64xbf16>, %kc: tensor<40x16x2x64xbf16>, %vc: tensor<?x16x2x64xbf16>,
                       %t: tensor<2x12xi32>, %n: tensor<2xi32>) -> tensor<2x8x1x64xbf16> {
  // expected-error @+1 {{GPU code generation: the page count is static in dimension 0 of the key_cache ('tensor<40x16x2x64xbf16>') but dynamic in dimension 0 of the value_cache ('tensor<?x16x2x64xbf16>')}}
  %o = attn.paged_attention ins(%q : tensor<2x8x1x64xbf16>)
      cache(%kc, %vc : tensor<40x16x2x64xbf16>, tensor<?x16x2x64xbf16>)
      pages(%t, %n : tensor<2x12xi32>, tensor<2xi32>) -> tensor<2x8x1x64xbf16>
  return %o : tensor<2x8x1x64xbf16>
}
