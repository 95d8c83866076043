// The head split of the backward's wgmma key-block kernel (issue 19; split
// = warpgroups, TensorCoreGradKeyBlockHeadSplit.cpp): where D + Dv > 256
// (each rounded up to 16) on sm_90a, the two consumer warpgroups of one
// 64-key block (384 threads with the TMA producer; grid x = key blocks,
// no key_block_parts) split the head dims of dK, dV and dQ. Each computes
// Sᵀ and dPᵀ for its 32 queries (m64n32k16, over D and Dv), stores Pdᵀ and
// dSᵀ as bf16/f16 pairs into SW128 tiles, and after one named barrier of
// both (barrier.sync: each warpgroup reaches it in its own copy of the
// loop, where the aligned bar.sync would be undefined) multiplies its
// columns: chunks inside the 64-column panels (D = 184: 64 + 32 | 32 + 56).
// dQ goes out with bulk reductions where the staging tile fits: MLA
// 192/128 with two Q / dO stages, D = 256 with one (the chooser's default
// there since session 47: query_stages = 1); asked for two stages at
// D = 256, per-thread vector reductions (only causal without GQA: elsewhere
// the dq kernel); a `deterministic` op gets the dkdv form and the dq
// kernel. An explicit
// #attn.grad_kernels without `split` keeps the two blocks per key block;
// `split = warpgroups` where the kernel does not apply is an error.
// RUN: attention-opt %s --attn-select-kernels="chip=sm_90a" | FileCheck %s --check-prefix=CHOICE
// RUN: attn-compile %s --chip=sm_90a --emit=gpu -o %t.mlir
// RUN: FileCheck %s < %t.mlir
// RUN: attn-compile %s --chip=sm_90a -o %t.ptx
// RUN: FileCheck %s --check-prefix=MANIFEST < %t.json
// RUN: not attn-compile %S/Inputs/head-split-invalid.mlir --chip=sm_90a -o %t.bad.ptx 2>&1 | FileCheck %s --check-prefix=BAD
// RUN: not attn-compile %S/Inputs/head-split-atomic-invalid.mlir --chip=sm_90a -o %t.bad2.ptx 2>&1 | FileCheck %s --check-prefix=BAD-ATOMIC

// CHOICE: #attn.grad_kernels<kernel = wgmma, key_block = 64, dq = atomic, loads = tma, split = warpgroups>
// CHOICE: #attn.grad_kernels<kernel = wgmma, key_block = 64, dq = atomic, loads = tma, split = warpgroups>
// CHOICE: #attn.grad_kernels<kernel = wgmma, key_block = 64, dq = separate, loads = tma, split = warpgroups>
// CHOICE: #attn.grad_kernels<kernel = wgmma, key_block = 64, dq = separate, loads = tma>
// CHOICE: #attn.grad_kernels<kernel = wgmma, key_block = 64, dq = atomic, loads = tma, split = warpgroups, query_stages = 1>
// CHOICE: #attn.grad_kernels<kernel = wgmma, key_block = 64, dq = atomic, loads = tma, split = warpgroups, query_stages = 1>

// CHECK-LABEL: gpu.func @attn_bwd_dkdv_dq_0(
// CHECK-SAME: known_block_size = array<i32: 384, 1, 1>
// CHECK: nvvm.setmaxregister  decrease 24
// CHECK: nvvm.setmaxregister  increase 240
// The first warpgroup's loop: Sᵀ then dPᵀ over D = Dv = 256 (16 k-steps
// each), its Pdᵀ and dSᵀ slices (4 + 4 stores a thread), the barrier, then
// dV and dK over its two 64-column chunks (4 k-steps each), dQ a chunk at
// a time.
// CHECK: scf.for
// CHECK-COUNT-32: wgmma.mma_async.sync.aligned.m64n32k16.f32.bf16.bf16
// CHECK-COUNT-4: memref.store {{.*}} : memref<4096xi32, #gpu.address_space<workgroup>>
// CHECK-COUNT-4: memref.store {{.*}} : memref<4096xi32, #gpu.address_space<workgroup>>
// CHECK: llvm.call_intrinsic "llvm.nvvm.barrier.cta.sync.count"(%{{.+}}, %c256_i32{{(_[0-9]+)?}})
// The stage is released (the empty mbarrier's arrive) once dV's and dK's
// products are done, while the first dQ chunk's run.
// CHECK-COUNT-20: wgmma.mma_async.sync.aligned.m64n64k16.f32.bf16.bf16
// CHECK: nvvm.wgmma.wait.group.sync.aligned 1
// CHECK: nvvm.mbarrier.arrive %
// CHECK-NEXT: nvvm.wgmma.wait.group.sync.aligned 0
// CHECK: red.global.add.v4.f32
// CHECK-COUNT-4: wgmma.mma_async.sync.aligned.m64n64k16.f32.bf16.bf16
// CHECK: red.global.add.v4.f32
// The second warpgroup's copy of the loop.
// CHECK: scf.for
// CHECK-COUNT-32: wgmma.mma_async.sync.aligned.m64n32k16.f32.bf16.bf16
// CHECK: llvm.call_intrinsic "llvm.nvvm.barrier.cta.sync.count"(%{{.+}}, %c256_i32{{(_[0-9]+)?}})
// CHECK-NOT: nvvm.barrier id
// CHECK-LABEL: gpu.func @attn_bwd_dq_convert_0(

// MLA: the bulk dQ, one 128-thread barrier per warpgroup before its
// reductions (64 + 32 and 32 + 64 columns).
// CHECK-LABEL: gpu.func @attn_bwd_dkdv_dq_1(
// CHECK: llvm.call_intrinsic "llvm.nvvm.barrier.cta.sync.count"(%{{.+}}, %c256_i32{{(_[0-9]+)?}})
// CHECK: nvvm.barrier id = %{{.+}} number_of_threads = %c128_i32
// CHECK: cp.reduce.async.bulk.global.shared::cta.bulk_group.add.f32 [$0], [$1], 16384;
// CHECK: cp.reduce.async.bulk.global.shared::cta.bulk_group.add.f32 [$0], [$1], 8192;
// CHECK: llvm.call_intrinsic "llvm.nvvm.barrier.cta.sync.count"(%{{.+}}, %c256_i32{{(_[0-9]+)?}})
// CHECK: nvvm.barrier id = %{{.+}} number_of_threads = %c128_i32
// CHECK: cp.reduce.async.bulk.global.shared::cta.bulk_group.add.f32 [$0], [$1], 8192;
// CHECK: cp.reduce.async.bulk.global.shared::cta.bulk_group.add.f32 [$0], [$1], 16384;
// CHECK-LABEL: gpu.func @attn_bwd_dq_convert_1(

// D = 184, deterministic: the dkdv form (no dQ), chunks of 64 + 32 | 32 +
// 56 columns.
// CHECK-LABEL: gpu.func @attn_bwd_dkdv_2(
// CHECK: wgmma.mma_async.sync.aligned.m64n32k16.f32.f16.f16
// CHECK: wgmma.mma_async.sync.aligned.m64n56k16.f32.f16.f16
// CHECK-NOT: red.global
// CHECK-LABEL: gpu.func @attn_bwd_dq_2(

// CHECK-LABEL: gpu.func @attn_bwd_dkdv_3(
// CHECK-SAME: known_block_size = array<i32: 256, 1, 1>

// query_stages = 1 at D = 256: one mbarrier pair initialised, 230952 bytes
// of shared memory, so the bulk dQ's staging tile fits (fragment-order
// dq_accum, bulk reductions per 64-column chunk).
// CHECK-LABEL: gpu.func @attn_bwd_dkdv_dq_4(
// CHECK-COUNT-3: nvvm.mbarrier.init
// CHECK-NOT: nvvm.mbarrier.init
// CHECK: llvm.call_intrinsic "llvm.nvvm.barrier.cta.sync.count"(%{{.+}}, %c256_i32{{(_[0-9]+)?}})
// CHECK: nvvm.barrier id = %{{.+}} number_of_threads = %c128_i32
// CHECK: cp.reduce.async.bulk.global.shared::cta.bulk_group.add.f32 [$0], [$1], 16384;
// CHECK: cp.reduce.async.bulk.global.shared::cta.bulk_group.add.f32 [$0], [$1], 16384;
// CHECK-NOT: red.global
// CHECK-LABEL: gpu.func @attn_bwd_dq_convert_4(

// D = 256 full, nothing asked for: the chooser's one stage and bulk dQ.
// CHECK-LABEL: gpu.func @attn_bwd_dkdv_dq_5(
// CHECK-COUNT-3: nvvm.mbarrier.init
// CHECK-NOT: nvvm.mbarrier.init
// CHECK: cp.reduce.async.bulk.global.shared::cta.bulk_group.add.f32
// CHECK-NOT: red.global
// CHECK-LABEL: gpu.func @attn_bwd_dq_convert_5(

// MANIFEST: "key_block_split": "warpgroups",
// MANIFEST: "grid": [
// MANIFEST-NEXT: 3,
// MANIFEST-NEXT: 4,
// MANIFEST-NEXT: 1
// MANIFEST: "name": "attn_bwd_dkdv_dq_0"
// MANIFEST: "key_block_split": "warpgroups",
// MANIFEST: "name": "attn_bwd_dkdv_dq_1"
// MANIFEST: "key_block_split": "warpgroups",
// MANIFEST: "name": "attn_bwd_dkdv_2"
// MANIFEST: "key_block_parts": 2,
// MANIFEST-NOT: key_block_split
// MANIFEST: "name": "attn_bwd_dkdv_3"
// MANIFEST: "dq_accum": "fragments",
// MANIFEST: "query_stages": 1,
// MANIFEST: "dynamic_shared_memory": 230952,
// MANIFEST: "name": "attn_bwd_dkdv_dq_4"
// MANIFEST: "query_stages": 1,
// MANIFEST: "dynamic_shared_memory": 230952,
// MANIFEST: "name": "attn_bwd_dkdv_dq_5"

// BAD-ATOMIC: error: 'attn.attention_grad' op GPU code generation: cannot honour #attn.grad_kernels<kernel = wgmma, key_block = 64, dq = atomic, loads = tma, split = warpgroups>: for this op the backward takes #attn.grad_kernels<kernel = wgmma, key_block = 64, dq = separate, loads = tma, split = warpgroups> (the atomic dQ needs {{.*}}; with split = warpgroups at D = 256 and two query stages, a causal op without GQA)

// BAD: error: 'attn.attention_grad' op GPU code generation: cannot honour #attn.grad_kernels<kernel = wgmma, key_block = 64, dq = atomic, loads = tma, split = warpgroups>: for this op the backward takes #attn.grad_kernels<kernel = wgmma, key_block = 64, dq = atomic, loads = tma> (split = warpgroups needs D + Dv > 256, each rounded up to 16, and a dense op on sm_90a)

func.func @d256_causal(%q: tensor<1x4x200x256xbf16>, %k: tensor<1x4x130x256xbf16>, %v: tensor<1x4x130x256xbf16>, %o: tensor<1x4x200x256xbf16>, %lse: tensor<1x4x200xf32>, %do: tensor<1x4x200x256xbf16>) -> (tensor<1x4x200x256xbf16>, tensor<1x4x130x256xbf16>, tensor<1x4x130x256xbf16>) {
  %dq, %dk, %dv = attn.attention_grad ins(%q, %k, %v : tensor<1x4x200x256xbf16>, tensor<1x4x130x256xbf16>, tensor<1x4x130x256xbf16>) forward(%o, %lse : tensor<1x4x200x256xbf16>, tensor<1x4x200xf32>) grad_output(%do : tensor<1x4x200x256xbf16>) {causal = #attn.causal<bottom_right>, attn.grad_kernels = #attn.grad_kernels<kernel = wgmma, key_block = 64, dq = atomic, loads = tma, split = warpgroups>} -> tensor<1x4x200x256xbf16>, tensor<1x4x130x256xbf16>, tensor<1x4x130x256xbf16>
  return %dq, %dk, %dv : tensor<1x4x200x256xbf16>, tensor<1x4x130x256xbf16>, tensor<1x4x130x256xbf16>
}

func.func @mla(%q: tensor<1x2x130x192xbf16>, %k: tensor<1x1x200x192xbf16>, %v: tensor<1x1x200x128xbf16>, %o: tensor<1x2x130x128xbf16>, %lse: tensor<1x2x130xf32>, %do: tensor<1x2x130x128xbf16>) -> (tensor<1x2x130x192xbf16>, tensor<1x1x200x192xbf16>, tensor<1x1x200x128xbf16>) {
  %dq, %dk, %dv = attn.attention_grad ins(%q, %k, %v : tensor<1x2x130x192xbf16>, tensor<1x1x200x192xbf16>, tensor<1x1x200x128xbf16>) forward(%o, %lse : tensor<1x2x130x128xbf16>, tensor<1x2x130xf32>) grad_output(%do : tensor<1x2x130x128xbf16>) -> tensor<1x2x130x192xbf16>, tensor<1x1x200x192xbf16>, tensor<1x1x200x128xbf16>
  return %dq, %dk, %dv : tensor<1x2x130x192xbf16>, tensor<1x1x200x192xbf16>, tensor<1x1x200x128xbf16>
}

func.func @d184_deterministic(%q: tensor<1x2x130x184xf16>, %k: tensor<1x2x77x184xf16>, %v: tensor<1x2x77x184xf16>, %o: tensor<1x2x130x184xf16>, %lse: tensor<1x2x130xf32>, %do: tensor<1x2x130x184xf16>) -> (tensor<1x2x130x184xf16>, tensor<1x2x77x184xf16>, tensor<1x2x77x184xf16>) {
  %dq, %dk, %dv = attn.attention_grad ins(%q, %k, %v : tensor<1x2x130x184xf16>, tensor<1x2x77x184xf16>, tensor<1x2x77x184xf16>) forward(%o, %lse : tensor<1x2x130x184xf16>, tensor<1x2x130xf32>) grad_output(%do : tensor<1x2x130x184xf16>) {deterministic} -> tensor<1x2x130x184xf16>, tensor<1x2x77x184xf16>, tensor<1x2x77x184xf16>
  return %dq, %dk, %dv : tensor<1x2x130x184xf16>, tensor<1x2x77x184xf16>, tensor<1x2x77x184xf16>
}
func.func @d256_blocks(%q: tensor<1x2x130x256xbf16>, %k: tensor<1x2x130x256xbf16>, %v: tensor<1x2x130x256xbf16>, %o: tensor<1x2x130x256xbf16>, %lse: tensor<1x2x130xf32>, %do: tensor<1x2x130x256xbf16>) -> (tensor<1x2x130x256xbf16>, tensor<1x2x130x256xbf16>, tensor<1x2x130x256xbf16>) {
  %dq, %dk, %dv = attn.attention_grad ins(%q, %k, %v : tensor<1x2x130x256xbf16>, tensor<1x2x130x256xbf16>, tensor<1x2x130x256xbf16>) forward(%o, %lse : tensor<1x2x130x256xbf16>, tensor<1x2x130xf32>) grad_output(%do : tensor<1x2x130x256xbf16>) {attn.grad_kernels = #attn.grad_kernels<kernel = wgmma, key_block = 64, dq = separate, loads = tma>} -> tensor<1x2x130x256xbf16>, tensor<1x2x130x256xbf16>, tensor<1x2x130x256xbf16>
  return %dq, %dk, %dv : tensor<1x2x130x256xbf16>, tensor<1x2x130x256xbf16>, tensor<1x2x130x256xbf16>
}
func.func @d256_one_stage(%q: tensor<1x2x130x256xbf16>, %k: tensor<1x2x130x256xbf16>, %v: tensor<1x2x130x256xbf16>, %o: tensor<1x2x130x256xbf16>, %lse: tensor<1x2x130xf32>, %do: tensor<1x2x130x256xbf16>) -> (tensor<1x2x130x256xbf16>, tensor<1x2x130x256xbf16>, tensor<1x2x130x256xbf16>) {
  %dq, %dk, %dv = attn.attention_grad ins(%q, %k, %v : tensor<1x2x130x256xbf16>, tensor<1x2x130x256xbf16>, tensor<1x2x130x256xbf16>) forward(%o, %lse : tensor<1x2x130x256xbf16>, tensor<1x2x130xf32>) grad_output(%do : tensor<1x2x130x256xbf16>) {attn.grad_kernels = #attn.grad_kernels<kernel = wgmma, key_block = 64, dq = atomic, loads = tma, split = warpgroups, query_stages = 1>} -> tensor<1x2x130x256xbf16>, tensor<1x2x130x256xbf16>, tensor<1x2x130x256xbf16>
  return %dq, %dk, %dv : tensor<1x2x130x256xbf16>, tensor<1x2x130x256xbf16>, tensor<1x2x130x256xbf16>
}
func.func @d256_full_auto(%q: tensor<1x2x130x256xbf16>, %k: tensor<1x2x130x256xbf16>, %v: tensor<1x2x130x256xbf16>, %o: tensor<1x2x130x256xbf16>, %lse: tensor<1x2x130xf32>, %do: tensor<1x2x130x256xbf16>) -> (tensor<1x2x130x256xbf16>, tensor<1x2x130x256xbf16>, tensor<1x2x130x256xbf16>) {
  %dq, %dk, %dv = attn.attention_grad ins(%q, %k, %v : tensor<1x2x130x256xbf16>, tensor<1x2x130x256xbf16>, tensor<1x2x130x256xbf16>) forward(%o, %lse : tensor<1x2x130x256xbf16>, tensor<1x2x130xf32>) grad_output(%do : tensor<1x2x130x256xbf16>) -> tensor<1x2x130x256xbf16>, tensor<1x2x130x256xbf16>, tensor<1x2x130x256xbf16>
  return %dq, %dk, %dv : tensor<1x2x130x256xbf16>, tensor<1x2x130x256xbf16>, tensor<1x2x130x256xbf16>
}
