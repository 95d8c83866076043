// The tensor-core backward group at the kernel-IR level (attn-compile
// --emit=gpu): the prep kernel and the workspaces, the key-block kernel that
// copies the prepared rows with cp.async, and, with the atomic dQ (the
// default on sm_90a, --grad-dq=atomic elsewhere), the dQ accumulation
// through a global pointer with vector reductions (sm_90) or scalar ones
// (sm_80). ptxas-tensor-core-grad.mlir assembles the same kernels;
// bench/run_h200.sh validates them on the GPU.
// RUN: attn-compile %s --emit=gpu --grad-dq=separate --grad-mma=mma-sync -o %t.separate.mlir
// RUN: FileCheck %s < %t.separate.mlir
// RUN: attn-compile %s --emit=gpu --grad-mma=mma-sync -o %t.atomic.mlir
// RUN: FileCheck %s --check-prefix=ATOMIC < %t.atomic.mlir
// RUN: attn-compile %s --emit=gpu --grad-dq=atomic --chip=sm_80 -o %t.atomic80.mlir
// RUN: FileCheck %s --check-prefix=ATOMIC80 < %t.atomic80.mlir
// RUN: attn-compile %s --grad-mma=mma-sync -o %t.atomic.ptx
// RUN: FileCheck %s --check-prefix=MANIFEST < %t.atomic.json
// Defaults: atomic with 128-key blocks on sm_90a, separate with 64-key blocks
// on sm_80; --grad-block-kv overrides the key block of either.
// RUN: attn-compile %s --chip=sm_80 -o %t.auto80.ptx
// RUN: FileCheck %s --check-prefix=AUTO80 < %t.auto80.json
// RUN: attn-compile %s --grad-dq=separate --grad-block-kv=128 --grad-mma=mma-sync -o %t.sep128.ptx
// RUN: FileCheck %s --check-prefix=SEP128 < %t.sep128.json
// RUN: attn-compile %s --grad-block-kv=64 --grad-mma=mma-sync --emit=gpu -o %t.atomic64.mlir
// RUN: FileCheck %s --check-prefix=ATOMIC64 < %t.atomic64.mlir
// RUN: not attn-compile %s --grad-block-kv=96 -o %t.bad.ptx 2>&1 | FileCheck %s --check-prefix=BAD
// RUN: not attn-compile %s --grad-dq=sometimes -o %t.bad.ptx 2>&1 | FileCheck %s --check-prefix=BAD-DQ
// RUN: attn-compile %s --emit=gpu --grad-tma=off -o %t.wgmma.mlir
// RUN: FileCheck %s --check-prefix=WGMMA < %t.wgmma.mlir
// RUN: attn-compile %s --grad-tma=off -o %t.wgmma.ptx
// RUN: FileCheck %s --check-prefix=WGMMA-MANIFEST < %t.wgmma.json
// RUN: attn-compile %s --emit=gpu --chip=sm_80 --grad-dq=atomic -o %t.sync80.mlir
// RUN: FileCheck %s --check-prefix=SYNC80 < %t.sync80.mlir
// RUN: not attn-compile %s --grad-mma=wgmma --chip=sm_80 -o %t.bad.ptx 2>&1 | FileCheck %s --check-prefix=BAD-MMA80
// RUN: not attn-compile %s --grad-mma=tensor -o %t.bad.ptx 2>&1 | FileCheck %s --check-prefix=BAD-MMA

// BAD: attn-compile: unsupported grad-block-kv=96 (expected 0, 64 or 128)
// BAD-DQ: attn-compile: unsupported grad-dq=sometimes (expected auto, separate or atomic)
// BAD-MMA80: attn-compile: grad-mma=wgmma needs chip=sm_90a (wgmma is an sm_90a instruction), not sm_80
// BAD-MMA: attn-compile: unsupported grad-mma=tensor (expected auto, wgmma or mma-sync)

// The key-block kernel on sm_90a multiplies with wgmma (two warpgroups of
// 64 keys). With --grad-tma=off (the default, warp-specialized TMA form is
// tensor-core-grad-warp-specialized.mlir) its K, V, Q and dO tiles are copied with
// cp.async.cg (bypassL1) into a flat view from the first 1024-byte
// boundary on (128-byte swizzled layout, SW128) and fenced for the async
// proxy; Sᵀ = K Qᵀ starts
// a chain without accumulating (scale-d 0) from two shared-memory
// descriptors; dV += Pdᵀ dO takes Pdᵀ from registers and dO MN-major; dSᵀ
// goes to shared memory for dQ = dS K, whose operands are both MN-major
// (n = 32: each warpgroup takes half of D = 64).
// WGMMA-LABEL: gpu.func @attn_bwd_dkdv_dq_0(
// WGMMA-SAME: known_block_size = array<i32: 256, 1, 1>, nvvm.minctasm = 1
// WGMMA: %[[BASE:.+]] = memref.extract_aligned_pointer_as_index
// WGMMA: %[[ALIGNED:.+]] = arith.andi %{{.+}}, %c-1024
// WGMMA: %[[SHIFT:.+]] = arith.subi %[[ALIGNED]], %[[BASE]]
// WGMMA: memref.view %{{.+}}[%[[SHIFT]]][] : memref<?xi8, #gpu.address_space<workgroup>> to memref<32768xbf16, #gpu.address_space<workgroup>>
// WGMMA: nvgpu.device_async_copy {{.*}} {bypassL1} : memref<204800xbf16> to memref<32768xbf16, #gpu.address_space<workgroup>>
// WGMMA: nvvm.fence.proxy {kind = #nvvm.proxy_kind<async.shared>, space = #nvvm.shared_space<cta>}
// WGMMA: gpu.barrier
// WGMMA: nvvm.wgmma.fence.aligned
// WGMMA: "wgmma.mma_async.sync.aligned.m64n64k16.f32.bf16.bf16 {{.*}}, $32, $33, 0, 1, 1, 0, 0;"
// WGMMA: "wgmma.mma_async.sync.aligned.m64n64k16.f32.bf16.bf16 {{.*}}, $32, $33, 1, 1, 1, 0, 0;"
// WGMMA: nvvm.wgmma.commit.group.sync.aligned
// WGMMA: nvvm.wgmma.wait.group.sync.aligned 1
// WGMMA: "wgmma.mma_async.sync.aligned.m64n64k16.f32.bf16.bf16 {{.*}}, {$32, $33, $34, $35}, $36, 1, 1, 1, 1;"
// WGMMA: memref.store {{.*}} : memref<4096xi32, #gpu.address_space<workgroup>>
// WGMMA: nvvm.fence.proxy {kind = #nvvm.proxy_kind<async.shared>, space = #nvvm.shared_space<cta>}
// WGMMA: gpu.barrier
// WGMMA: "wgmma.mma_async.sync.aligned.m64n32k16.f32.bf16.bf16 {{.*}}, $16, $17, 0, 1, 1, 1, 1;"
// WGMMA: nvvm.wgmma.wait.group.sync.aligned 0
// The bulk dQ without warp specialization too: the warpgroup's 64 x 32
// columns in the f32 staging tile (4096 floats), then one bulk reduction.
// WGMMA: memref<4096xf32, #gpu.address_space<workgroup>>
// WGMMA: vector.store {{.*}} {alignment = 16 : i64} : memref<4096xf32, #gpu.address_space<workgroup>>, vector<4xf32>
// WGMMA: nvvm.barrier id = %{{.+}} number_of_threads = %c128_i32
// WGMMA: "cp.reduce.async.bulk.global.shared::cta.bulk_group.add.f32 [$0], [$1], 8192;"
// WGMMA-NOT: red.global.add
// WGMMA-NOT: nvvm.mma.sync
// WGMMA-LABEL: gpu.func @attn_bwd_dq_convert_0(
// Unpadded tiles: K, V 128 x 64, Q, dO 2 x 64 x 64 elements, 4 x 64 floats,
// dSᵀ 128 x 64 elements, the 64 x 64 f32 dQ staging tile, 1024 bytes of
// alignment slack.
// WGMMA-MANIFEST: "dq_accum": "fragments",
// WGMMA-MANIFEST: "dynamic_shared_memory": 100352,
// WGMMA-MANIFEST: "stage": "dkdv_dq"
// SYNC80-LABEL: gpu.func @attn_bwd_dkdv_dq_0(
// SYNC80-NOT: wgmma
// SYNC80: nvvm.mma.sync
// SYNC80-NOT: wgmma
// SYNC80-LABEL: gpu.func @attn_bwd_dq_convert_0(

// Lq = 200: the workspaces have ceil(200 / 64) * 64 = 256 rows per head
// (2 * 8 * 256 = 4096 floats), so the key-block kernel copies whole 64-row
// blocks of them. Every kernel takes all the inputs, then its workspaces,
// then its outputs.
// CHECK-LABEL: gpu.func @attn_bwd_prep_0(
// CHECK-SAME: memref<3200xf32>, %{{.+}}: memref<204800xbf16>, %{{.+}}: memref<4096xf32>, %{{.+}}: memref<4096xf32>)
// CHECK-SAME: known_block_size = array<i32: 128, 1, 1>
// CHECK: gpu.shuffle xor
// CHECK: scf.if
// CHECK: memref.store {{.*}} : memref<4096xf32>
// CHECK: memref.store {{.*}} : memref<4096xf32>
// CHECK: gpu.return
// CHECK-LABEL: gpu.func @attn_bwd_dkdv_0(
// CHECK-SAME: memref<4096xf32>, %{{.+}}: memref<4096xf32>, %{{.+}}: memref<65536xbf16>, %{{.+}}: memref<65536xbf16>)
// CHECK-SAME: known_block_size = array<i32: 128, 1, 1>, nvvm.minctasm = 2
// Threads 0-15 copy 16 bytes of lse·log2(e) and of D_i each into the stage.
// CHECK: scf.if
// CHECK: nvgpu.device_async_copy {{.*}}, 4 {bypassL1} : memref<4096xf32> to memref<2x64xf32, #gpu.address_space<workgroup>>
// CHECK: nvgpu.device_async_copy {{.*}}, 4 {bypassL1} : memref<4096xf32> to memref<2x64xf32, #gpu.address_space<workgroup>>
// CHECK: nvvm.mma.sync
// CHECK-NOT: llvm.inline_asm {{.*}}red.global
// CHECK-LABEL: gpu.func @attn_bwd_dq_0(
// CHECK-SAME: memref<204800xbf16>, %{{.+}}: memref<204800xbf16>)
// CHECK-NOT: red.global

// Atomic: dq_accum [2, 8, 256, 64] f32 is a global pointer; prep zeroes it
// 16 bytes per store, the key-block kernel (8 warps, 128 keys, one CTA per
// SM) stores dSᵀ pairs to shared memory [128][36 x i32] and adds dS K with
// red.global.add.v4.f32 at immediate offsets (warp tiles of 32 query rows x
// 16 columns: n-tiles 32 bytes apart, the second m-tile 16 rows = 4096 bytes
// further), the last kernel scales and converts 8 elements at a time.
// ATOMIC-LABEL: gpu.func @attn_bwd_prep_0(
// ATOMIC-SAME: memref<4096xf32>, %{{.+}}: memref<4096xf32>, %{{.+}}: !llvm.ptr<1>)
// ATOMIC: llvm.store {{.*}} {alignment = 16 : i64} : vector<4xf32>, !llvm.ptr<1>
// ATOMIC-LABEL: gpu.func @attn_bwd_dkdv_dq_0(
// ATOMIC-SAME: !llvm.ptr<1>, %{{.+}}: memref<65536xbf16>, %{{.+}}: memref<65536xbf16>)
// ATOMIC-SAME: known_block_size = array<i32: 256, 1, 1>, nvvm.minctasm = 1
// ATOMIC: memref.store {{.*}} : memref<128x36xi32, #gpu.address_space<workgroup>>
// ATOMIC: gpu.barrier
// ATOMIC: nvvm.ldmatrix {{.*}} {eltType = #nvvm.ld_st_matrix_elt_type<b16>, layout = #nvvm.mma_layout<col>, num = 4 : i32, shape = #nvvm.ld_st_matrix_shape<m = 8, n = 8>}
// ATOMIC: gpu.shuffle xor
// ATOMIC: llvm.inline_asm has_side_effects asm_dialect = att "red.global.add.v4.f32 [$0+0], {$1, $2, $3, $4};", "l,f,f,f,f"
// ATOMIC: "red.global.add.v4.f32 [$0+32], {$1, $2, $3, $4};"
// ATOMIC: "red.global.add.v4.f32 [$0+4096], {$1, $2, $3, $4};"
// ATOMIC: "red.global.add.v4.f32 [$0+4128], {$1, $2, $3, $4};"
// ATOMIC-NOT: "red.global.add.v4.f32 [$0+{{[0-9]+}}]
// ATOMIC-NOT: "red.global.add.f32
// ATOMIC-LABEL: gpu.func @attn_bwd_dq_convert_0(
// ATOMIC-SAME: !llvm.ptr<1>, %{{.+}}: memref<204800xbf16>)
// ATOMIC: llvm.load {{.*}} {alignment = 16 : i64} : !llvm.ptr<1> -> vector<4xf32>
// ATOMIC: arith.mulf {{.*}} : vector<8xf32>
// ATOMIC: arith.truncf {{.*}} : vector<8xf32> to vector<8xbf16>
// ATOMIC80-LABEL: gpu.func @attn_bwd_dkdv_dq_0(
// ATOMIC80-NOT: red.global.add.v4
// ATOMIC80: "red.global.add.f32 [$0+0], $1;", "l,f"
// ATOMIC80-LABEL: gpu.func @attn_bwd_dq_convert_0(

// The prep kernel's workspaces, then the key-block kernel's launch: 128-key
// blocks, grid.x = ceil(256 / 128); K, V 128 rows + Q, dO 2 x 64 rows of 72
// elements, 2 x 2 x 64 floats of lse / D rows, dSᵀ [128][72].
// MANIFEST: "name": "dq_accum",
// MANIFEST-NEXT: "role": "workspace",
// MANIFEST-NEXT: "shape": [
// MANIFEST-NEXT: 2,
// MANIFEST-NEXT: 8,
// MANIFEST-NEXT: 256,
// MANIFEST-NEXT: 64
// MANIFEST: "stage": "prep",
// MANIFEST: "block": [
// MANIFEST-NEXT: 256,
// MANIFEST: "deterministic": false,
// MANIFEST: "dynamic_shared_memory": 93184,
// MANIFEST: "grid": [
// MANIFEST-NEXT: 2,
// MANIFEST-NEXT: 2,
// MANIFEST-NEXT: 2
// MANIFEST: "group": "attn_bwd_0",
// MANIFEST: "stage": "dkdv_dq"

// AUTO80: "stage": "prep",
// AUTO80: "block": [
// AUTO80-NEXT: 128,
// AUTO80: "deterministic": true,
// AUTO80: "stage": "dkdv"
// SEP128: "stage": "prep",
// SEP128: "block": [
// SEP128-NEXT: 256,
// SEP128: "dynamic_shared_memory": 74752,
// SEP128: "stage": "dkdv"
// ATOMIC64-LABEL: gpu.func @attn_bwd_dkdv_dq_0(
// ATOMIC64-SAME: known_block_size = array<i32: 128, 1, 1>, nvvm.minctasm = 2
// ATOMIC64: memref.store {{.*}} : memref<64x36xi32, #gpu.address_space<workgroup>>

func.func @grad(%q: tensor<2x8x200x64xbf16>, %k: tensor<2x2x256x64xbf16>, %v: tensor<2x2x256x64xbf16>, %o: tensor<2x8x200x64xbf16>, %lse: tensor<2x8x200xf32>, %do: tensor<2x8x200x64xbf16>) -> (tensor<2x8x200x64xbf16>, tensor<2x2x256x64xbf16>, tensor<2x2x256x64xbf16>) {
  %dq, %dk, %dv = attn.attention_grad ins(%q, %k, %v : tensor<2x8x200x64xbf16>, tensor<2x2x256x64xbf16>, tensor<2x2x256x64xbf16>) forward(%o, %lse : tensor<2x8x200x64xbf16>, tensor<2x8x200xf32>) grad_output(%do : tensor<2x8x200x64xbf16>) -> tensor<2x8x200x64xbf16>, tensor<2x2x256x64xbf16>, tensor<2x2x256x64xbf16>
  return %dq, %dk, %dv : tensor<2x8x200x64xbf16>, tensor<2x2x256x64xbf16>, tensor<2x2x256x64xbf16>
}
