// RUN: attention-opt %s --attn-to-gpu="chip=sm_90a" | FileCheck %s --check-prefixes=CHECK,WGMMA
// RUN: attention-opt %s --attn-to-gpu="chip=sm_90a mma=mma-sync" | FileCheck %s --check-prefixes=CHECK,SYNC
// RUN: attention-opt %s --attn-to-gpu="chip=sm_80" | FileCheck %s --check-prefixes=CHECK,SYNC
// RUN: attention-opt %s --attn-to-gpu="chip=sm_90a split-kv=off" | FileCheck %s --check-prefix=OFF
// RUN: attention-opt %s --attn-to-gpu="chip=sm_90a split-kv=3" | FileCheck %s --check-prefix=FORCED
// RUN: attention-opt %s --attn-gpu-pipeline="to-binary=false" | FileCheck %s --check-prefix=PIPE
// RUN: attention-opt %s --attn-gpu-pipeline="to-binary=false split-kv=off" | FileCheck %s --check-prefix=PIPEOFF

// Single-token decoding, GQA 4 (8 query heads on 2 KV heads), 1000 keys:
// the one-kernel forward would launch 16 blocks that each read their KV
// head's whole cache, so the forward is the split-KV group
// (docs/kernel-manifest.md, "Split-KV forward groups"): split_kv over grid
// (S, R Hkv, B) with the 4 query heads of a KV head packed into the rows of
// one tile (R = 1), S = 8 chunks (2 x 132 SMs / 4 blocks per chunk, capped
// at two key blocks per chunk), then combine. On sm_90a split_kv is the
// wgmma forward with one consumer warpgroup at two blocks per SM (the
// producer's registers go to the consumers: 128 x 64 + 128 x 192 = 256 x
// 128); with mma=mma-sync and on sm_80 the mma.sync forward of 4 warps.

// CHECK-LABEL: gpu.func @attn_fwd_split_kv_0
// CHECK-SAME: (%{{.*}}: memref<1024xbf16>, %{{.*}}: memref<256000xbf16>, %{{.*}}: memref<256000xbf16>, %[[PO:.*]]: memref<8192xf32>, %[[PL:.*]]: memref<128xf32>)
// WGMMA-SAME: known_block_size = array<i32: 256, 1, 1>, nvvm.minctasm = 2
// SYNC-SAME: known_block_size = array<i32: 128, 1, 1>, nvvm.minctasm = 2
// CHECK: %[[S:.*]] = gpu.block_id x
// CHECK: %[[Y:.*]] = gpu.block_id y
// CHECK: %[[B:.*]] = gpu.block_id z
// The KV head (y div R) and its first query head (times G = 4): Q rows of
// heads 4kv .. 4kv + 3 are one sequence of G Lq = 4 rows.
// CHECK: %[[KV:.*]] = arith.divui %[[Y]], %c1
// CHECK: %[[H0:.*]] = arith.muli %[[KV]], %c4
// CHECK: %[[BH:.*]] = arith.muli %[[B]], %c8
// CHECK: arith.addi %[[BH]], %[[H0]]
// The partials' rows: ((b S + s) Hq + 4 kv) Lq.
// CHECK: %[[BS:.*]] = arith.muli %[[B]], %c8
// CHECK: %[[BSS:.*]] = arith.addi %[[BS]], %[[S]]
// CHECK: %[[BSH:.*]] = arith.muli %[[BSS]], %c8
// CHECK: arith.addi %[[BSH]], %[[H0]]
// Chunk s of the visible key blocks [first, last): c = ceil((last - first) / 8).
// CHECK: %[[N7:.*]] = arith.addi %{{.*}}, %c7
// CHECK: %[[C:.*]] = arith.divui %[[N7]], %c8
// CHECK: %[[SKIP:.*]] = arith.muli %[[S]], %[[C]]
// CHECK: %[[FROM0:.*]] = arith.addi %{{.*}}, %[[SKIP]]
// CHECK: %[[FROM:.*]] = arith.minsi %[[FROM0]], %[[LAST:.*]] : index
// CHECK: %[[TO0:.*]] = arith.addi %[[FROM]], %[[C]]
// CHECK: %[[TO:.*]] = arith.minsi %[[TO0]], %[[LAST]] : index
// WGMMA: nvvm.setmaxregister decrease 64
// WGMMA: scf.for %{{.*}} = %[[FROM]] to %[[TO]]
// WGMMA: nvvm.setmaxregister increase 192
// WGMMA: wgmma.mma_async
// SYNC: scf.for %{{.*}} = %[[FROM]] to %[[TO]]
// Warps whose rows all lie past the 4 packed rows skip the products.
// SYNC: scf.if %{{.*}} -> (f32
// SYNC: nvvm.mma.sync
// The chunk's O / l, two f32 per store, and its lse, to the workspaces.
// CHECK: vector.store %{{.*}}, %[[PO]][%{{.*}}] {alignment = 8 : i64} : memref<8192xf32>, vector<2xf32>
// CHECK: math.log2
// CHECK: memref.store %{{.*}}, %[[PL]][%{{.*}}] : memref<128xf32>

// Combine: one warp per (b, h, t), the chunks merged by their lse.
// CHECK-LABEL: gpu.func @attn_fwd_combine_0
// CHECK-SAME: (%{{.*}}: memref<1024xbf16>, %{{.*}}: memref<256000xbf16>, %{{.*}}: memref<256000xbf16>, %[[CPO:.*]]: memref<8192xf32>, %[[CPL:.*]]: memref<128xf32>, %[[O:.*]]: memref<1024xbf16>, %[[L:.*]]: memref<16xf32>)
// CHECK: scf.for %{{.*}} = %c0{{.*}} to %c8
// CHECK: memref.load %[[CPL]]
// CHECK: arith.maximumf
// CHECK: scf.for %{{.*}} = %c0{{.*}} to %c8
// CHECK: math.exp
// CHECK: memref.load %[[CPO]]
// CHECK: memref.store %{{.*}}, %[[O]]
// CHECK: math.log
// CHECK: memref.store %{{.*}}, %[[L]]

// OFF-LABEL: gpu.func @attn_fwd_0
// OFF-NOT: split_kv

// The pipeline route emits the same group (and honours split-kv=off).
// PIPE: llvm.func @attn_fwd_split_kv_0(
// PIPE: llvm.func @attn_fwd_combine_0(
// PIPEOFF: llvm.func @attn_fwd_0(
// PIPEOFF-NOT: split_kv

// FORCED: \22splits\22:3
// FORCED-LABEL: gpu.func @attn_fwd_split_kv_0
// FORCED-SAME: memref<3072xf32>, %{{.*}}: memref<48xf32>)

func.func @decode(%q: tensor<2x8x1x64xbf16>, %k: tensor<2x2x1000x64xbf16>, %v: tensor<2x2x1000x64xbf16>) -> (tensor<2x8x1x64xbf16>, tensor<2x8x1xf32>) {
  %o, %l = attn.attention ins(%q, %k, %v : tensor<2x8x1x64xbf16>, tensor<2x2x1000x64xbf16>, tensor<2x2x1000x64xbf16>) {causal = #attn.causal<bottom_right>} -> tensor<2x8x1x64xbf16>, tensor<2x8x1xf32>
  return %o, %l : tensor<2x8x1x64xbf16>, tensor<2x8x1xf32>
}
