// RUN: attention-opt %s --attn-select-kernels="chip=sm_90a" | FileCheck %s
// RUN: attention-opt %s --attn-select-kernels="chip=sm_80" | FileCheck %s --check-prefix=SM80
// RUN: attention-opt %s --attn-select-kernels="chip=sm_90a tma=off" | FileCheck %s --check-prefix=NOTMA
// RUN: attention-opt %s --attn-select-kernels="chip=sm_90a report" 2>&1 >/dev/null | FileCheck %s --check-prefix=REPORT
// The pass is idempotent: a second run keeps every recorded choice.
// RUN: attention-opt %s --attn-select-kernels="chip=sm_90a" --attn-select-kernels="chip=sm_90a" | FileCheck %s
// attn-to-gpu records the same choices (one chooser behind every route).
// RUN: attention-opt %s --attn-to-gpu="chip=sm_90a" | FileCheck %s
// A recorded choice outranks the options: forcing mma.sync does not change
// what attn-select-kernels wrote for the prefill op.
// RUN: attention-opt %s --attn-select-kernels="chip=sm_90a" --attn-to-gpu="chip=sm_90a mma=mma-sync" | FileCheck %s --check-prefix=KEPT
// attn-compile honours the user's choice too (its manifest's codegen).
// RUN: attn-compile %s --chip=sm_90a -o %t.ptx 2>/dev/null
// RUN: FileCheck %s --check-prefix=MANIFEST < %t.json
// f32-precision=tf32 puts f32 on the mma.sync kernel; attn-to-gpu honours
// the recorded choice without the option (it asks for tf32 itself).
// RUN: attention-opt %s --attn-select-kernels="chip=sm_90a f32-precision=tf32" | FileCheck %s --check-prefix=TF32
// RUN: attention-opt %s --attn-select-kernels="chip=sm_90a f32-precision=tf32" --attn-to-gpu="chip=sm_90a" | FileCheck %s --check-prefix=TF32-GPU

// Prefill, bf16 D = 128: the wgmma kernel, 128 query rows in two consumer
// warpgroups (8 warps), 128 keys per step, two K/V stages.
// CHECK-LABEL: func.func @prefill
// CHECK: attn.tiles = #attn.tiles<block_q = 128, block_kv = 128, stages = 2, warps = 8, kernel = wgmma, loads = tma>
// SM80-LABEL: func.func @prefill
// SM80: attn.tiles = #attn.tiles<block_q = 128, block_kv = 32, stages = 2, warps = 4, kernel = mma_sync>
// REPORT: select-kernels.mlir:[[@LINE+5]]:8: remark: attn-select-kernels sm_90a: #attn.tiles<block_q = 128, block_kv = 128, stages = 2, warps = 8, kernel = wgmma, loads = tma>; 384 threads, dynamic shared memory 164936 B of 232448
// REPORT-NEXT: HBM bytes: naive 150994944, tiled 46137344 (3.27x less)
// REPORT-NEXT: FLOPs: dense 8589934592, executed 4831838208 (36 of 64 blocks per head)
// REPORT-NEXT: arithmetic intensity: naive 56.9, tiled 104.7 FLOP/byte
func.func @prefill(%q: tensor<2x8x1024x128xbf16>, %k: tensor<2x8x1024x128xbf16>, %v: tensor<2x8x1024x128xbf16>) -> tensor<2x8x1024x128xbf16> {
  %o = attn.attention ins(%q, %k, %v : tensor<2x8x1024x128xbf16>, tensor<2x8x1024x128xbf16>, tensor<2x8x1024x128xbf16>) {causal = #attn.causal<bottom_right>} -> tensor<2x8x1024x128xbf16>
  return %o : tensor<2x8x1024x128xbf16>
}

// Decoding with GQA 4: the split-KV group, 8 chunks.
// CHECK-LABEL: func.func @decode
// CHECK: attn.tiles = #attn.tiles<block_q = 64, block_kv = 64, stages = 2, warps = 4, kernel = wgmma, splits = 8>
// REPORT: remark: attn-select-kernels sm_90a: #attn.tiles<block_q = 64, block_kv = 64, stages = 2, warps = 4, kernel = wgmma, splits = 8>; 256 threads, dynamic shared memory 83016 B of 232448; split-KV group: 8 key-range chunks, then the combine kernel
// REPORT-NEXT: no IO report (split-KV group)
func.func @decode(%q: tensor<4x32x1x128xf16>, %k: tensor<4x8x8192x128xf16>, %v: tensor<4x8x8192x128xf16>) -> tensor<4x32x1x128xf16> {
  %o = attn.attention ins(%q, %k, %v : tensor<4x32x1x128xf16>, tensor<4x8x8192x128xf16>, tensor<4x8x8192x128xf16>) -> tensor<4x32x1x128xf16>
  return %o : tensor<4x32x1x128xf16>
}

// f32: the CUDA-core kernel (a remark says why), one stage, 64 rows of one
// thread each.
// CHECK-LABEL: func.func @f32
// CHECK: attn.tiles = #attn.tiles<block_q = 64, block_kv = 64, stages = 1, warps = 2, kernel = cuda_core>
// REPORT: remark: GPU code generation: CUDA-core kernel, no tensor-core kernel: the element type is f32, which tensor cores take only as tf32 (--f32-precision=tf32: the dense forward)
// REPORT: remark: attn-select-kernels sm_90a: #attn.tiles<block_q = 64, block_kv = 64, stages = 1, warps = 2, kernel = cuda_core>; 64 threads
// TF32-LABEL: func.func @f32
// TF32: attn.tiles = #attn.tiles<block_q = 128, block_kv = 64, stages = 2, warps = 4, kernel = mma_sync>
// TF32-GPU: gpu.func @attn_fwd_2(%arg0: memref<12800xf32>
// TF32-GPU: nvvm.mma.sync {{.*}}multiplicandAPtxType = #nvvm.mma_type<tf32>, multiplicandBPtxType = #nvvm.mma_type<tf32>, shape = #nvvm.shape<m = 16, n = 8, k = 8>
func.func @f32(%q: tensor<1x2x100x64xf32>, %k: tensor<1x2x100x64xf32>, %v: tensor<1x2x100x64xf32>) -> tensor<1x2x100x64xf32> {
  %o = attn.attention ins(%q, %k, %v : tensor<1x2x100x64xf32>, tensor<1x2x100x64xf32>, tensor<1x2x100x64xf32>) -> tensor<1x2x100x64xf32>
  return %o : tensor<1x2x100x64xf32>
}

// A user's choice is kept as written (mma.sync, 64 rows, where the chooser
// would take wgmma).
// CHECK-LABEL: func.func @override
// CHECK: attn.tiles = #attn.tiles<block_q = 64, block_kv = 64, stages = 2, warps = 4, kernel = mma_sync>
// SM80-LABEL: func.func @override
// SM80: attn.tiles = #attn.tiles<block_q = 64, block_kv = 64, stages = 2, warps = 4, kernel = mma_sync>
func.func @override(%q: tensor<2x8x1024x128xbf16>, %k: tensor<2x8x1024x128xbf16>, %v: tensor<2x8x1024x128xbf16>) -> tensor<2x8x1024x128xbf16> {
  %o = attn.attention ins(%q, %k, %v : tensor<2x8x1024x128xbf16>, tensor<2x8x1024x128xbf16>, tensor<2x8x1024x128xbf16>) {attn.tiles = #attn.tiles<block_q = 64, block_kv = 64, stages = 2, warps = 4, kernel = mma_sync>} -> tensor<2x8x1024x128xbf16>
  return %o : tensor<2x8x1024x128xbf16>
}

// attn-select-tiles' kernel-less choice (the CPU tiled loops) is replaced;
// its block_q is a hint for the mma.sync kernel (sm_80).
// NOTMA-LABEL: func.func @prefill
// NOTMA: kernel = wgmma>
// NOTMA-LABEL: func.func @cpu_tiles
// NOTMA: kernel = wgmma>
// CHECK-LABEL: func.func @cpu_tiles
// CHECK: attn.tiles = #attn.tiles<block_q = 128, block_kv = 128, stages = 2, warps = 8, kernel = wgmma, loads = tma>
// SM80-LABEL: func.func @cpu_tiles
// SM80: attn.tiles = #attn.tiles<block_q = 64, block_kv = 64, stages = 2, warps = 4, kernel = mma_sync>
func.func @cpu_tiles(%q: tensor<1x4x512x64xf16>, %k: tensor<1x4x512x64xf16>, %v: tensor<1x4x512x64xf16>) -> tensor<1x4x512x64xf16> {
  %o = attn.attention ins(%q, %k, %v : tensor<1x4x512x64xf16>, tensor<1x4x512x64xf16>, tensor<1x4x512x64xf16>) {attn.tiles = #attn.tiles<block_q = 64, block_kv = 32, stages = 3, warps = 4>} -> tensor<1x4x512x64xf16>
  return %o : tensor<1x4x512x64xf16>
}

// A packed batch: the tensor-core kernel with TMA loads (the rows a box
// reads past a sequence's end are masked); no IO report.
// CHECK-LABEL: func.func @packed
// CHECK: attn.tiles = #attn.tiles<block_q = 128, block_kv = 128, stages = 2, warps = 8, kernel = wgmma, loads = tma>
// REPORT: select-kernels.mlir:[[@LINE+3]]:12: remark: attn-select-kernels sm_90a: #attn.tiles<block_q = 128, block_kv = 128, stages = 2, warps = 8, kernel = wgmma, loads = tma>; 384 threads
// REPORT-NEXT: no IO report (packed batch)
func.func @packed(%q: tensor<?x8x128xbf16>, %k: tensor<?x2x128xbf16>, %v: tensor<?x2x128xbf16>, %cq: tensor<?xi32>, %ck: tensor<?xi32>) -> (tensor<?x8x128xbf16>, tensor<8x?xf32>) {
  %o, %l = attn.varlen_attention ins(%q, %k, %v : tensor<?x8x128xbf16>, tensor<?x2x128xbf16>, tensor<?x2x128xbf16>) seqlens(%cq, %ck : tensor<?xi32>, tensor<?xi32>) {causal = #attn.causal<bottom_right>} -> tensor<?x8x128xbf16>, tensor<8x?xf32>
  return %o, %l : tensor<?x8x128xbf16>, tensor<8x?xf32>
}

// The kernels follow the recorded choices: wgmma (384 threads) for
// @prefill, mma.sync with 64 rows (128 threads) for @override.
// KEPT: gpu.func @attn_fwd_0({{.*}} known_block_size = array<i32: 384, 1, 1>
// KEPT: gpu.func @attn_fwd_3({{.*}} known_block_size = array<i32: 128, 1, 1>
// MANIFEST: "name": "attn_fwd_2",
// MANIFEST: "codegen": {
// MANIFEST-NEXT: "block_kv": 64,
// MANIFEST-NEXT: "block_q": 64,
// MANIFEST-NEXT: "kernel": "tensor-core",
// MANIFEST-NEXT: "mma": "mma.sync",
// MANIFEST-NEXT: "threads": 128
// MANIFEST: "name": "attn_fwd_3",

// Decoding with a run-time batch and key length: the split-KV group with
// the chunk count decided at launch (`splits = ?`).
// CHECK-LABEL: func.func @decode_at_launch
// CHECK: attn.tiles = #attn.tiles<block_q = 64, block_kv = 64, stages = 2, warps = 4, kernel = wgmma, splits = ?>
// REPORT: remark: attn-select-kernels sm_90a: #attn.tiles<block_q = 64, block_kv = 64, stages = 2, warps = 4, kernel = wgmma, splits = ?>; 256 threads, dynamic shared memory 83016 B of 232448; split-KV group: key-range chunks decided at launch, then the combine kernel
// REPORT-NEXT: no IO report (split-KV group)
func.func @decode_at_launch(%q: tensor<?x32x1x128xf16>, %k: tensor<?x8x?x128xf16>, %v: tensor<?x8x?x128xf16>) -> tensor<?x32x1x128xf16> {
  %o = attn.attention ins(%q, %k, %v : tensor<?x32x1x128xf16>, tensor<?x8x?x128xf16>, tensor<?x8x?x128xf16>) -> tensor<?x32x1x128xf16>
  return %o : tensor<?x32x1x128xf16>
}

// Dropout: the wgmma kernel with 64 keys per step (the keep bits of 128
// keys spill with a mask, window or softcap; tc::chooseTiling); sm_80
// keeps one m-tile per warp for the per-element work.
// CHECK-LABEL: func.func @dropout
// CHECK: attn.tiles = #attn.tiles<block_q = 128, block_kv = 64, stages = 2, warps = 8, kernel = wgmma, loads = tma>
// SM80-LABEL: func.func @dropout
// SM80: attn.tiles = #attn.tiles<block_q = 64, block_kv = 64, stages = 2, warps = 4, kernel = mma_sync>
func.func @dropout(%q: tensor<2x8x1024x128xbf16>, %k: tensor<2x8x1024x128xbf16>, %v: tensor<2x8x1024x128xbf16>, %s: i64, %off: i64) -> tensor<2x8x1024x128xbf16> {
  %o = attn.attention ins(%q, %k, %v : tensor<2x8x1024x128xbf16>, tensor<2x8x1024x128xbf16>, tensor<2x8x1024x128xbf16>) rng(%s, %off) {dropout_p = 0.1 : f32, causal = #attn.causal<top_left>} -> tensor<2x8x1024x128xbf16>
  return %o : tensor<2x8x1024x128xbf16>
}
