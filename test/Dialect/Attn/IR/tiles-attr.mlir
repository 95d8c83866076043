// RUN: attention-opt %s -split-input-file -verify-diagnostics | FileCheck %s

// #attn.tiles: the tile fields, then the optional GPU kernel configuration
// (kernel, splits: a number, or ? for a count decided at launch), printed
// only when present; fields may be given in any order.

// CHECK-LABEL: func.func @tiles
// CHECK: gpu = #attn.tiles<block_q = 128, block_kv = 128, stages = 2, warps = 8, kernel = wgmma>
// CHECK-SAME: persistent = #attn.tiles<block_q = 128, block_kv = 128, stages = 2, warps = 8, kernel = wgmma, loads = tma, schedule = persistent>
// CHECK-SAME: plain = #attn.tiles<block_q = 64, block_kv = 32, stages = 3, warps = 4>
// CHECK-SAME: split = #attn.tiles<block_q = 64, block_kv = 64, stages = 2, warps = 4, kernel = mma_sync, splits = 16>
// CHECK-SAME: split_at_launch = #attn.tiles<block_q = 64, block_kv = 64, stages = 2, warps = 4, kernel = mma_sync, splits = ?>
// CHECK-SAME: split_wgmma = #attn.tiles<block_q = 64, block_kv = 64, stages = 2, warps = 4, kernel = wgmma, splits = 4, loads = tma>
// CHECK-SAME: tma = #attn.tiles<block_q = 128, block_kv = 128, stages = 2, warps = 8, kernel = wgmma, loads = tma>
// CHECK-SAME: unordered = #attn.tiles<block_q = 64, block_kv = 64, stages = 1, warps = 2, kernel = cuda_core>
func.func @tiles() attributes {
    plain = #attn.tiles<block_q = 64, block_kv = 32, stages = 3, warps = 4>,
    gpu = #attn.tiles<block_q = 128, block_kv = 128, stages = 2, warps = 8, kernel = wgmma>,
    split = #attn.tiles<block_q = 64, block_kv = 64, stages = 2, warps = 4, kernel = mma_sync, splits = 16>,
    split_wgmma = #attn.tiles<block_q = 64, block_kv = 64, stages = 2, warps = 4, kernel = wgmma, splits = 4, loads = tma>,
    split_at_launch = #attn.tiles<splits = ?, block_q = 64, block_kv = 64, stages = 2, warps = 4, kernel = mma_sync>,
    tma = #attn.tiles<loads = tma, block_q = 128, block_kv = 128, stages = 2, warps = 8, kernel = wgmma>,
    persistent = #attn.tiles<schedule = persistent, loads = tma, block_q = 128, block_kv = 128, stages = 2, warps = 8, kernel = wgmma>,
    unordered = #attn.tiles<kernel = cuda_core, warps = 2, stages = 1, block_kv = 64, block_q = 64>} {
  return
}

// -----

// expected-error @+1 {{tiles: splits needs kernel = wgmma or mma_sync (the split-KV group's first stage is the tensor-core forward)}}
func.func @split_cuda_core() attributes {t = #attn.tiles<block_q = 64, block_kv = 64, stages = 2, warps = 4, kernel = cuda_core, splits = 2>} {
  return
}

// -----

// expected-error @+1 {{tiles: loads = tma needs kernel = wgmma (only the wgmma kernel's producer loads with TMA)}}
func.func @tma_mma_sync() attributes {t = #attn.tiles<block_q = 64, block_kv = 64, stages = 2, warps = 4, kernel = mma_sync, loads = tma>} {
  return
}

// -----

// expected-error @+2 {{expected one of [cp_async, tma] for how a GPU kernel copies its tiles from global to shared memory, got: bulk}}
// expected-error @+1 {{failed to parse Attn_TileConfigAttr parameter 'loads'}}
func.func @unknown_loads() attributes {t = #attn.tiles<block_q = 128, block_kv = 128, stages = 2, warps = 8, kernel = wgmma, loads = bulk>} {
  return
}

// -----

// expected-error @+1 {{tiles: expected 1 <= splits <= 64 or ?, got 65}}
func.func @too_many_splits() attributes {t = #attn.tiles<block_q = 64, block_kv = 64, stages = 2, warps = 4, kernel = mma_sync, splits = 65>} {
  return
}

// -----

// expected-error @+2 {{expected integer value}}
// expected-error @+1 {{failed to parse Attn_TileConfigAttr parameter 'splits'}}
func.func @bad_split_count() attributes {t = #attn.tiles<block_q = 64, block_kv = 64, stages = 2, warps = 4, kernel = mma_sync, splits = auto>} {
  return
}

// -----

// expected-error @+2 {{expected one of [cuda_core, mma_sync, wgmma] for GPU forward kernel family, got: tensor_core}}
// expected-error @+1 {{failed to parse Attn_TileConfigAttr parameter 'kernel'}}
func.func @unknown_kernel() attributes {t = #attn.tiles<block_q = 64, block_kv = 64, stages = 2, warps = 4, kernel = tensor_core>} {
  return
}

// -----

// expected-error @+1 {{struct is missing required parameter: warps}}
func.func @missing_field() attributes {t = #attn.tiles<block_q = 64, block_kv = 64, stages = 2>} {
  return
}

// -----

// expected-error @+1 {{tiles: schedule = persistent needs kernel = wgmma with loads = tma and no splits (only the TMA-fed wgmma forward loops over tiles)}}
func.func @persistent_cp_async() attributes {t = #attn.tiles<block_q = 128, block_kv = 128, stages = 2, warps = 8, kernel = wgmma, schedule = persistent>} {
  return
}
