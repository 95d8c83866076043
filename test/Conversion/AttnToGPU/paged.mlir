// RUN: attention-opt %s -split-input-file --attn-to-gpu="chip=sm_90a mma=mma-sync" | FileCheck %s
// RUN: attention-opt %s -split-input-file --attn-to-gpu="chip=sm_90a" | FileCheck %s --check-prefix=WGMMA
// RUN: attention-opt %s -split-input-file --attn-gpu-pipeline="to-binary=false" | FileCheck %s --check-prefix=PIPE
// RUN: attention-opt %s -split-input-file --attn-select-kernels="chip=sm_90a report=true" 2>&1 | FileCheck %s --check-prefix=REPORT

// attn.paged_attention (docs/kernel-manifest.md, "Paged key/value caches")
// compiles to the split-KV group: split_kv takes each sequence's key length
// from cache_seqlens and reads K and V through the block table, combine
// merges the chunks by lse. Decoding with GQA 4, pages of 16 (below the
// 64-key tile: one table read per copied row). The checks below follow the
// mma.sync split_kv stage (sm_80, and sm_90a with mma=mma-sync); on sm_90a
// it is the wgmma stage, whose producer warpgroup reads the table the same
// way.

// CHECK: attn.paged_attention {{.*}}attn.tiles = #attn.tiles<block_q = 64, block_kv = 64, stages = 2, warps = 4, kernel = mma_sync, splits = 2>
// WGMMA: attn.paged_attention {{.*}}attn.tiles = #attn.tiles<block_q = 64, block_kv = 64, stages = 2, warps = 4, kernel = wgmma, splits = 2>
// WGMMA-LABEL: gpu.func @attn_fwd_split_kv_0
// WGMMA-SAME: %[[TABLE:arg3]]: memref<24xi32>, %[[LENS:arg4]]: memref<2xi32>
// WGMMA-SAME: known_block_size = array<i32: 256, 1, 1>, nvvm.minctasm = 2
// WGMMA: memref.load %[[LENS]]
// WGMMA: nvvm.setmaxregister decrease 64
// WGMMA: memref.load %[[TABLE]]
// WGMMA: nvgpu.device_async_copy %arg1[
// WGMMA: nvvm.setmaxregister increase 192
// WGMMA: wgmma.mma_async
// CHECK-LABEL: gpu.func @attn_fwd_split_kv_0
// CHECK-SAME: (%{{.*}}: memref<1024xbf16>, %[[KC:.*]]: memref<81920xbf16>, %{{.*}}: memref<81920xbf16>, %[[TABLE:.*]]: memref<24xi32>, %[[LENS:.*]]: memref<2xi32>, %{{.*}}: memref<2048xf32>, %{{.*}}: memref<32xf32>)
// CHECK: %[[B:.*]] = gpu.block_id z
// The sequence's row of the block table (12 entries each) and its length.
// CHECK: %[[ROW:.*]] = arith.muli %[[B]], %c12
// CHECK: %[[LEN:.*]] = memref.load %[[LENS]][%[[B]]] : memref<2xi32>
// CHECK: arith.index_castui %[[LEN]] : i32 to index
// A K row: page = table[row + r div 16], token = page 16 + r mod 16, global
// row token Hkv + kv.
// CHECK: %[[PI:.*]] = arith.divui %[[R:[0-9]+]], %c16
// CHECK: %[[AT:.*]] = arith.addi %[[ROW]], %[[PI]]
// CHECK: %[[ENTRY:.*]] = memref.load %[[TABLE]][%[[AT]]] : memref<24xi32>
// CHECK: %[[PAGE:.*]] = arith.index_cast %[[ENTRY]] : i32 to index
// CHECK: %[[SLOT:.*]] = arith.remui %[[R]], %c16
// CHECK: %[[P16:.*]] = arith.muli %[[PAGE]], %c16
// CHECK: %[[TOKEN:.*]] = arith.addi %[[P16]], %[[SLOT]]
// CHECK: arith.muli %[[TOKEN]], %c2
// CHECK: nvgpu.device_async_copy %[[KC]][
// CHECK-LABEL: gpu.func @attn_fwd_combine_0
// PIPE: gpu.module @attn_kernels
// PIPE-DAG: llvm.func @attn_fwd_split_kv_0
// PIPE-DAG: llvm.func @attn_fwd_combine_0
// REPORT: remark: attn-select-kernels sm_90a: #attn.tiles<block_q = 64, block_kv = 64, stages = 2, warps = 4, kernel = wgmma, splits = 2>; 256 threads, dynamic shared memory 42056 B of 232448; split-KV group: 2 key-range chunks, then the combine kernel
// REPORT-NEXT: no IO report (paged cache)
func.func @decode(%q: tensor<2x8x1x64xbf16>, %kc: tensor<40x16x2x64xbf16>, %vc: tensor<40x16x2x64xbf16>,
                  %t: tensor<2x12xi32>, %n: tensor<2xi32>) -> (tensor<2x8x1x64xbf16>, tensor<2x8x1xf32>) {
  %o, %lse = attn.paged_attention ins(%q : tensor<2x8x1x64xbf16>)
      cache(%kc, %vc : tensor<40x16x2x64xbf16>, tensor<40x16x2x64xbf16>)
      pages(%t, %n : tensor<2x12xi32>, tensor<2xi32>) {causal = #attn.causal<bottom_right>}
      -> tensor<2x8x1x64xbf16>, tensor<2x8x1xf32>
  return %o, %lse : tensor<2x8x1x64xbf16>, tensor<2x8x1xf32>
}

// -----

// Pages of 128 hold whole 64-key tiles: one table read per K tile and one
// per V tile, then consecutive tokens (no table read in the per-row
// copies).

// CHECK-LABEL: gpu.func @attn_fwd_split_kv_0
// CHECK-SAME: %[[KC:arg1]]: memref<458752xf16>, %[[VC:arg2]]: memref<458752xf16>, %[[TABLE:arg3]]: memref<6xi32>
// CHECK: arith.divui %[[K0:[0-9]+]], %c128
// CHECK: memref.load %[[TABLE]][%{{.*}}] : memref<6xi32>
// CHECK: arith.remui %[[K0]], %c128
// CHECK: %[[SHIFT:.*]] = arith.subi %{{.*}}, %[[K0]] : index
// CHECK: arith.muli %[[SHIFT]], %c4
// CHECK-NOT: memref.load %[[TABLE]]
// CHECK-COUNT-8: nvgpu.device_async_copy %[[KC]]
// CHECK-NOT: nvgpu.device_async_copy
// CHECK: memref.load %[[TABLE]][%{{.*}}] : memref<6xi32>
// CHECK-NOT: memref.load %[[TABLE]]
// CHECK-COUNT-8: nvgpu.device_async_copy %[[VC]]
// CHECK-NOT: memref.load %[[TABLE]]
// CHECK: nvgpu.device_async_create_group
func.func @pages128(%q: tensor<3x8x2x128xf16>, %kc: tensor<7x128x4x128xf16>, %vc: tensor<7x128x4x128xf16>,
                    %t: tensor<3x2xi32>, %n: tensor<3xi32>) -> tensor<3x8x2x128xf16> {
  %o = attn.paged_attention ins(%q : tensor<3x8x2x128xf16>)
      cache(%kc, %vc : tensor<7x128x4x128xf16>, tensor<7x128x4x128xf16>)
      pages(%t, %n : tensor<3x2xi32>, tensor<3xi32>) {window = array<i64: 50, 0>}
      -> tensor<3x8x2x128xf16>
  return %o : tensor<3x8x2x128xf16>
}
