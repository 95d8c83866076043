// The tensor-core (FA2, mma.sync) kernel: f16/bf16 with D = Dv in {64, 128}
// take it by default (--kernel=auto); everything else, and --kernel=cuda-core,
// keeps the CUDA-core kernel (attn-to-gpu.mlir).
// RUN: attn-compile %s --emit=gpu --mma=mma-sync -o %t.auto.mlir
// RUN: FileCheck %s < %t.auto.mlir
// RUN: attn-compile %s --emit=gpu --kernel=cuda-core -o %t.cuda.mlir
// RUN: FileCheck %s --check-prefix=CUDA < %t.cuda.mlir
// RUN: not attn-compile %s --emit=gpu --kernel=tensor-core -o %t.forced.mlir 2>&1 | FileCheck %s --check-prefix=FORCED
// RUN: not attn-compile %s --kernel=warp-specialized 2>&1 | FileCheck %s --check-prefix=BADKIND
// RUN: attn-compile %s --emit=gpu --mma=mma-sync --block-q=64 -o %t.bq64.mlir
// RUN: FileCheck %s --check-prefix=BQ64 < %t.bq64.mlir
// RUN: not attn-compile %s --mma=mma-sync --block-q=32 2>&1 | FileCheck %s --check-prefix=BADBQ
// RUN: not attn-compile %s --block-q=128 --block-kv=128 --warps=4 2>&1 | FileCheck %s --check-prefix=BADREGS
// RUN: not attn-compile %s --warps=3 2>&1 | FileCheck %s --check-prefix=BADWARPS
// RUN: not attn-compile %s --block-kv=-1 2>&1 | FileCheck %s --check-prefix=NEGATIVE
// RUN: not attn-compile %s --mma=wgmma --chip=sm_80 2>&1 | FileCheck %s --check-prefix=BADMMA80
// RUN: not attn-compile %s --mma=wmma 2>&1 | FileCheck %s --check-prefix=BADMMA
// RUN: attn-compile %s --emit=gpu -o %t.default.mlir
// RUN: FileCheck %s --check-prefix=DEFAULT < %t.default.mlir
// RUN: attn-compile %s --emit=gpu --chip=sm_80 -o %t.default80.mlir
// RUN: FileCheck %s --check-prefix=DEFAULT80 < %t.default80.mlir
// RUN: attn-compile %s --emit=gpu --mma=wgmma --chip=sm_90a --block-q=64 -o %t.wg64.mlir
// RUN: FileCheck %s --check-prefix=WGBQ64 < %t.wg64.mlir
// RUN: not attn-compile %s --mma=wgmma --chip=sm_90a --block-q=32 2>&1 | FileCheck %s --check-prefix=WGBADBQ
// wgmma with --block-q=64: one consumer warpgroup after the producer
// warpgroup (measured slow in session 7's form, docs/performance.md, but
// valid); other query blocks are diagnosed.
// WGBQ64-LABEL: gpu.func @attn_fwd_0(
// WGBQ64-SAME: known_block_size = array<i32: 256, 1, 1>
// WGBADBQ: error: 'attn.attention' op GPU code generation: tensor-core tiling: query block 32 with wgmma (expected 64 or 128)
// BADMMA80: attn-compile: mma=wgmma needs chip=sm_90a (wgmma is an sm_90a instruction), not sm_80
// BADMMA: attn-compile: unsupported mma=wmma (expected auto, wgmma or mma-sync)
// --mma=auto (the default) takes wgmma on sm_90a (the default chip): a
// producer warpgroup and two consumer warpgroups of 64 rows, the tiles
// viewed from the first 1024-byte boundary of the dynamic shared memory
// (the 128-byte swizzle's alignment); mma.sync on sm_80.
// DEFAULT-LABEL: gpu.func @attn_fwd_0(
// DEFAULT-SAME: known_block_size = array<i32: 384, 1, 1>
// DEFAULT: %[[BASE:.+]] = memref.extract_aligned_pointer_as_index
// DEFAULT: %[[UP:.+]] = arith.addi %[[BASE]], %c1023
// DEFAULT: %[[ALIGNED:.+]] = arith.andi %[[UP]], %c-1024
// DEFAULT: %[[SHIFT:.+]] = arith.subi %[[ALIGNED]], %[[BASE]]
// DEFAULT: memref.view %{{.+}}[%[[SHIFT]]][] : memref<?xi8, #gpu.address_space<workgroup>> to memref<{{[0-9]+}}xbf16, #gpu.address_space<workgroup>>
// DEFAULT80-LABEL: gpu.func @attn_fwd_0(
// DEFAULT80-SAME: known_block_size = array<i32: 128, 1, 1>

// bf16, D = 64, GQA, bottom-right causal, ragged Lq/Lk, lse.
// Default (tc::chooseTiling): Br = 128 in 4 warps of 32 rows (two m16 tiles
// each, so every K/V fragment feeds two mma.sync), Bc = 64; shared memory
// is dynamic: Q [128][72], K/V [2][64][72] (rows padded by 8 elements
// against ldmatrix bank conflicts). --block-q=64: 4 warps of 16 rows.
// BQ64-LABEL: gpu.func @attn_fwd_0(
// BQ64-SAME: kernel attributes {attn.dynamic_shared_memory = {{[0-9]+}} : i64, known_block_size = array<i32: 128, 1, 1>, nvvm.minctasm = 2 : i32}
// BQ64: memref.view {{.*}} to memref<64x72xbf16, #gpu.address_space<workgroup>>
// BQ64: scf.if %{{.+}} -> (f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32) {
// BADBQ: error: 'attn.attention' op GPU code generation: tensor-core tiling: query block 32 (expected 64 or 128)
// BADREGS: error: 'attn.attention' op GPU code generation: tensor-core tiling: 32 rows per warp with 128 keys per step and Dv = 128 need 256 accumulator registers per thread (at most 192)
// BADWARPS: error: 'attn.attention' op GPU code generation: tensor-core tiling: 3 warps for 128 query rows (expected 16 or 32 rows per warp)
// NEGATIVE: attn-compile: block-q, block-kv and warps must not be negative
// CHECK-LABEL: gpu.func @attn_fwd_0(%{{.+}}: memref<25600xbf16>, %{{.+}}: memref<8320xbf16>, %{{.+}}: memref<8320xbf16>, %{{.+}}: memref<25600xbf16>, %{{.+}}: memref<400xf32>)
// CHECK-SAME: kernel attributes {attn.dynamic_shared_memory = {{[0-9]+}} : i64, known_block_size = array<i32: 128, 1, 1>, nvvm.minctasm = 2 : i32}
// CHECK:   gpu.dynamic_shared_memory : memref<?xi8, #gpu.address_space<workgroup>>
// CHECK:   memref.view {{.*}} to memref<128x72xbf16, #gpu.address_space<workgroup>>
// CHECK:   memref.view {{.*}} to memref<2x64x72xbf16, #gpu.address_space<workgroup>>
// CHECK:   memref.view {{.*}} to memref<2x64x72xbf16, #gpu.address_space<workgroup>>
//   Prologue: Q tile by cp.async (zero fill past Lq through srcElements),
//   first visible K/V block, then Q A-fragments by ldmatrix.x4.
// CHECK:   arith.ceildivsi
// CHECK:   nvgpu.device_async_copy %{{.+}}[%{{.+}}], %{{.+}}[%{{.+}}, %{{.+}}], 8, %{{.+}} {bypassL1}
// CHECK:   nvgpu.device_async_create_group
// CHECK:   scf.if
// CHECK:     nvgpu.device_async_copy
// CHECK:     nvgpu.device_async_create_group
// CHECK:   nvgpu.device_async_wait %{{.+}} {numGroups = 0 : i32}
// CHECK:   gpu.barrier
// CHECK:   nvvm.ldmatrix {{.*}}layout = #nvvm.mma_layout<row>, num = 4 : i32
//   Per key block: wait + barrier, prefetch the next block into the other
//   stage, S = Q K^T on tensor cores, the score epilogue (positional rules
//   per element only in blocks that need them: scf.if with the 2 x 32 scores
//   as results), online softmax with exp2 (scale * log2 e folded in),
//   O += P V.
// CHECK:   scf.for
// CHECK:     nvgpu.device_async_wait
// CHECK:     gpu.barrier
// CHECK:     scf.if
// CHECK:       nvgpu.device_async_copy
// CHECK:       nvgpu.device_async_create_group
// CHECK:     nvvm.ldmatrix {{.*}}layout = #nvvm.mma_layout<row>
// CHECK:     nvvm.mma.sync A[{{.*}}] B[{{.*}}] C[{{.*}}] {layoutA = #nvvm.mma_layout<row>, layoutB = #nvvm.mma_layout<col>, multiplicandAPtxType = #nvvm.mma_type<bf16>, multiplicandBPtxType = #nvvm.mma_type<bf16>, shape = #nvvm.shape<m = 16, n = 8, k = 16>} : (i32, i32, f32) -> !llvm.struct<(f32, f32, f32, f32)>
// CHECK:     scf.if %{{.+}} -> ([[F64:(f32, ){63}f32]]) {
// CHECK:       arith.cmpi sle
// CHECK:       arith.select
// CHECK:       scf.yield
// CHECK:     } else {
// CHECK-NOT:   arith.cmpi
// CHECK:       scf.yield
// CHECK:     }
// CHECK:     arith.maximumf
// CHECK:     gpu.shuffle  xor
// CHECK:     gpu.shuffle  xor
// CHECK:     llvm.call_intrinsic "llvm.nvvm.ex2.approx.ftz.f32"
// CHECK-NOT: math.exp
//   P packed to bf16 pairs by one cvt.rn.bf16x2.f32 each.
// CHECK:     nvvm.convert.f32x2.to.bf16x2 %{{.+}}, %{{.+}} {rnd = #nvvm.fp_rnd_mode<rn>} : vector<2xbf16>
// CHECK:     nvvm.ldmatrix {{.*}}layout = #nvvm.mma_layout<col>
// CHECK:     nvvm.mma.sync
// CHECK:     scf.yield
//   Epilogue: quad sum of l, O / l into the warp's rows of the Q tile, lse
//   (log2 domain -> natural) by the first thread of each quad, then 16-byte
//   row segments from shared to global memory.
// CHECK:   gpu.shuffle  xor
// CHECK:   arith.divf
// CHECK:   vector.store {{.*}} {alignment = 4 : i64} : memref<128x72xbf16, #gpu.address_space<workgroup>>, vector<2xbf16>
// CHECK:   math.log2
// CHECK:   memref.store {{.*}} : memref<400xf32>
// CHECK:   nvvm.bar.warp.sync
// CHECK:   vector.load {{.*}} {alignment = 16 : i64} : memref<128x72xbf16, #gpu.address_space<workgroup>>, vector<8xbf16>
// CHECK:   vector.store {{.*}} {alignment = 16 : i64} : memref<25600xbf16>, vector<8xbf16>
// CHECK:   gpu.return
func.func @bf16_d64(%q: tensor<1x2x200x64xbf16>, %k: tensor<1x1x130x64xbf16>, %v: tensor<1x1x130x64xbf16>) -> (tensor<1x2x200x64xbf16>, tensor<1x2x200xf32>) {
  %o, %l = attn.attention ins(%q, %k, %v : tensor<1x2x200x64xbf16>, tensor<1x1x130x64xbf16>, tensor<1x1x130x64xbf16>) {causal = #attn.causal<bottom_right>} -> tensor<1x2x200x64xbf16>, tensor<1x2x200xf32>
  return %o, %l : tensor<1x2x200x64xbf16>, tensor<1x2x200xf32>
}

// f16, D = 128, boolean mask and dropout (Br = 64, 4 warps of 16 rows, as
// for every variant with per-element dropout/softcap/mask work): f16
// mma operands are vector<2xf16>; the dropout bits come from the Philox
// emitter. Lk is a multiple of 64 and no positional rule: no per-block
// branch, the boolean mask applies everywhere.
// CHECK-LABEL: gpu.func @attn_fwd_1(
// CHECK-SAME: memref<8192xi8>, %{{.+}}: i64, %{{.+}}: i64, %{{.+}}: memref<8192xf16>)
// CHECK-SAME: known_block_size = array<i32: 128, 1, 1>
// CHECK:   memref.view {{.*}} to memref<2x64x136xf16, #gpu.address_space<workgroup>>
// CHECK:   scf.for
// CHECK:     nvvm.mma.sync {{.*}}shape = #nvvm.shape<m = 16, n = 8, k = 16>} : (vector<2xf16>, vector<2xf16>, f32) -> !llvm.struct<(f32, f32, f32, f32)>
// CHECK-NOT: scf.if {{.*}} -> (f32
// CHECK:     memref.load {{.*}} : memref<8192xi8>
// CHECK:     arith.mului_extended
// CHECK:     nvvm.ldmatrix {{.*}}layout = #nvvm.mma_layout<col>
// CHECK:   gpu.return
func.func @f16_d128_mask_dropout(%q: tensor<1x1x64x128xf16>, %k: tensor<1x1x128x128xf16>, %v: tensor<1x1x128x128xf16>, %m: tensor<1x1x64x128xi1>, %s: i64, %off: i64) -> tensor<1x1x64x128xf16> {
  %r = attn.attention ins(%q, %k, %v : tensor<1x1x64x128xf16>, tensor<1x1x128x128xf16>, tensor<1x1x128x128xf16>) mask(%m : tensor<1x1x64x128xi1>) rng(%s, %off) {dropout_p = 0.1 : f32} -> tensor<1x1x64x128xf16>
  return %r : tensor<1x1x64x128xf16>
}

// f32 has no tensor-core kernel: CUDA cores (workgroup attributions, one
// thread per row), and --kernel=tensor-core is an error.
// CHECK-LABEL: gpu.func @attn_fwd_2(
// CHECK-SAME: workgroup(
// CHECK-SAME: known_block_size = array<i32: 64, 1, 1>
// CHECK-NOT: nvvm.mma.sync
// CHECK: gpu.return
// FORCED: error: 'attn.attention' op GPU code generation: no tensor-core kernel: the element type is f32, which tensor cores take only as tf32 (--f32-precision=tf32: the dense forward)
func.func @f32_d64(%q: tensor<1x1x64x64xf32>, %k: tensor<1x1x64x64xf32>, %v: tensor<1x1x64x64xf32>) -> tensor<1x1x64x64xf32> {
  %r = attn.attention ins(%q, %k, %v : tensor<1x1x64x64xf32>, tensor<1x1x64x64xf32>, tensor<1x1x64x64xf32>) -> tensor<1x1x64x64xf32>
  return %r : tensor<1x1x64x64xf32>
}

// --kernel=cuda-core: no tensor-core op anywhere.
// CUDA-LABEL: gpu.func @attn_fwd_0(
// CUDA-SAME: workgroup(
// CUDA-NOT: nvvm.mma.sync
// CUDA-NOT: nvgpu.
// CUDA: gpu.func @attn_fwd_2(
// BADKIND: attn-compile: unsupported kernel=warp-specialized (expected auto, tensor-core or cuda-core)
