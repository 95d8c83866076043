// The tensor-core (mma.sync) kernel configurations assemble with ptxas for
// sm_90a and sm_80 without spilling: bf16 and f16, D = 64 and 128, plain
// causal GQA with lse, boolean mask + dropout, and every modifier at once,
// each with the default tiling (tc::chooseTiling: Br = 128 in 4 warps of 32
// rows with Bc = 64 for the plain variants (at D = 128 only on sm_90a with
// Lk a multiple of 64, where the kernel skips the unchanged rescales; Bc =
// 32 at D = 128 otherwise, e.g. here: Lk = 1000), Br = 64
// in 4 warps of 16 rows for the dropout / softcap / mask ones), with
// --block-q=64 (4 warps of 16 rows everywhere) and with --block-q=128
// --warps=8 (8 warps of 16 rows). Needs only the CUDA toolkit, not a GPU.
// REQUIRES: ptxas
// RUN: attn-compile %s --kernel=tensor-core --chip=sm_90a --mma=mma-sync -o %t.auto.ptx | FileCheck %s --check-prefix=COMPILE
// RUN: FileCheck %s --check-prefix=PTX < %t.auto.ptx
// RUN: FileCheck %s --check-prefix=VOTE < %t.auto.ptx
// RUN: FileCheck %s --check-prefix=MANIFEST < %t.auto.json
// RUN: ptxas -arch=sm_90a -v %t.auto.ptx -o %t.auto.cubin 2>&1 | FileCheck %s
// RUN: attn-compile %s --kernel=tensor-core --chip=sm_80 -o %t.sm80.auto.ptx
// RUN: FileCheck %s --check-prefix=MANIFEST80 < %t.sm80.auto.json
// RUN: ptxas -arch=sm_80 -v %t.sm80.auto.ptx -o %t.sm80.auto.cubin 2>&1 | FileCheck %s
// RUN: attn-compile %s --kernel=tensor-core --chip=sm_90a --block-q=128 --warps=8 -o %t.sm90.128.ptx
// RUN: ptxas -arch=sm_90a -v %t.sm90.128.ptx -o %t.sm90.128.cubin 2>&1 | FileCheck %s
// RUN: attn-compile %s --kernel=tensor-core --chip=sm_80 --block-q=128 --warps=8 -o %t.sm80.128.ptx
// RUN: ptxas -arch=sm_80 -v %t.sm80.128.ptx -o %t.sm80.128.cubin 2>&1 | FileCheck %s
// RUN: attn-compile %s --kernel=tensor-core --chip=sm_90a --mma=mma-sync --block-q=64 -o %t.sm90.64.ptx
// RUN: ptxas -arch=sm_90a -v %t.sm90.64.ptx -o %t.sm90.64.cubin 2>&1 | FileCheck %s
// RUN: attn-compile %s --kernel=tensor-core --chip=sm_80 --block-q=64 -o %t.sm80.64.ptx
// RUN: ptxas -arch=sm_80 -v %t.sm80.64.ptx -o %t.sm80.64.cubin 2>&1 | FileCheck %s
// RUN: FileCheck %s --check-prefix=PTX64 < %t.sm90.64.ptx
// RUN: attn-compile %s --kernel=tensor-core --chip=sm_90a --tma=off -o %t.wgmma.ptx
// RUN: ptxas -arch=sm_90a -v %t.wgmma.ptx -o %t.wgmma.cubin > %t.wgmma.log 2>&1
// RUN: FileCheck %s < %t.wgmma.log
// RUN: FileCheck %s --check-prefix=NOSERIAL < %t.wgmma.log
// RUN: FileCheck %s --check-prefix=WGMMA < %t.wgmma.ptx
// RUN: attn-compile %s --kernel=tensor-core --chip=sm_90a --mma=wgmma --block-kv=64 -o %t.wgmma64.ptx
// RUN: ptxas -arch=sm_90a -v %t.wgmma64.ptx -o %t.wgmma64.cubin > %t.wgmma64.log 2>&1
// RUN: FileCheck %s < %t.wgmma64.log
// RUN: FileCheck %s --check-prefix=NOSERIAL < %t.wgmma64.log
// RUN: attn-compile %s --kernel=tensor-core --chip=sm_90a --block-q=64 -o %t.wgmmaq64.ptx
// RUN: ptxas -arch=sm_90a -v %t.wgmmaq64.ptx -o %t.wgmmaq64.cubin > %t.wgmmaq64.log 2>&1
// RUN: FileCheck %s < %t.wgmmaq64.log
// RUN: FileCheck %s --check-prefix=NOSERIAL < %t.wgmmaq64.log

// The wgmma forward (the default on sm_90a, --mma=auto): the plain causal GQA
// kernels (Lq = 1000 > 64) take two consumer warpgroups of 64 rows and 128
// keys per step (S = Q Kᵀ m64n128, O += P V m64n64 / m64n128 with P from
// registers) plus a producer warpgroup. The producer (setmaxnreg.dec to 56 registers)
// copies with cp.async.cg into 128-byte swizzled tiles (SW128), waits for
// its own copies, fences them for the
// async proxy and arrives on a full mbarrier (64 arrivals: the K and the V
// streams have a warp pair each); from a stage's second use on it waits on
// the stage's empty mbarrier (256 arrivals: every consumer thread). The
// consumers (setmaxnreg.inc to 224) wait on full mbarriers, take their turn
// (bar.sync on their turn barrier, 256 threads: the other warpgroup
// arrives), issue, pass the turn (bar.arrive) and release what the retired
// wgmmas read. The loop is software-pipelined: S of block kb and P V of
// block kb - 1 are in flight together and the softmax waits for S only
// (wait_group 1). P is packed only after the P V that reads the previous P
// has completed; packing it earlier makes ptxas serialize the wgmmas,
// which NOSERIAL catches.
// (The cp.async producer, --tma=off; the TMA producer is ptxas-tma.mlir's.)
// WGMMA-LABEL: .visible .entry attn_fwd_0(
// WGMMA: .maxntid 384, 1, 1
// WGMMA: .minnctapersm 1
// mbarriers: Q full, then per stage K full, V full, K empty, V empty.
// WGMMA: mov.b32 [[N64:%r[0-9]+]], 64;
// WGMMA-COUNT-3: mbarrier.init.shared.b64 [%rd{{[0-9]+}}], [[N64]];
// WGMMA: mov.b32 [[N256:%r[0-9]+]], 256;
// WGMMA-COUNT-2: mbarrier.init.shared.b64 [%rd{{[0-9]+}}], [[N256]];
// WGMMA-COUNT-2: mbarrier.init.shared.b64 [%rd{{[0-9]+}}], [[N64]];
// WGMMA-COUNT-2: mbarrier.init.shared.b64 [%rd{{[0-9]+}}], [[N256]];
// WGMMA: bar.sync 0;
// WGMMA: setmaxnreg.dec.sync.aligned.u32 56;
// WGMMA: cp.async.cg.shared.global
// WGMMA: cp.async.wait_group 0;
// WGMMA: fence.proxy.async.shared::cta;
// WGMMA: mbarrier.arrive.shared.b64
// WGMMA: mbarrier.try_wait.parity.shared::cta.b64
// WGMMA: setmaxnreg.inc.sync.aligned.u32 224;
// WGMMA: bar.arrive %r{{[0-9]+}}, %r{{[0-9]+}};
// The first block: Q and K_first, then S alone. Its descriptors have
// layout type 1 (bit 62: 128-byte swizzle), SBO = 1024 >> 4 (bits 32-45),
// LBO = 16 >> 4 (unused for K-major); P V's (MN-major V, Bc = 128) have
// LBO = 16384 >> 4 (the next 64-column panel).
// WGMMA: mbarrier.try_wait.parity.shared::cta.b64
// WGMMA: mbarrier.try_wait.parity.shared::cta.b64
// WGMMA: bar.sync %r{{[0-9]+}}, 256;
// WGMMA: wgmma.fence.sync.aligned;
// WGMMA-COUNT-4: wgmma.mma_async.sync.aligned.m64n128k16.f32.bf16.bf16
// WGMMA: wgmma.commit_group.sync.aligned;
// WGMMA: bar.arrive %r{{[0-9]+}}, %r{{[0-9]+}};
// WGMMA: wgmma.wait_group.sync.aligned 0;
// WGMMA: mbarrier.arrive.shared.b64
// The loop's step: K_kb and V_kb-1, both products issued in one turn, then
// the wait for S alone and the release of K_kb (the rest of the step's
// blocks are laid out elsewhere).
// WGMMA: mbarrier.try_wait.parity.shared::cta.b64
// WGMMA: mbarrier.try_wait.parity.shared::cta.b64
// WGMMA: bar.sync %r{{[0-9]+}}, 256;
// WGMMA: wgmma.fence.sync.aligned;
// WGMMA: or.b64 %rd{{[0-9]+}}, %rd{{[0-9]+}}, 4611686293305360384;
// WGMMA-COUNT-4: wgmma.mma_async.sync.aligned.m64n128k16.f32.bf16.bf16
// WGMMA: wgmma.commit_group.sync.aligned;
// WGMMA: or.b64 %rd{{[0-9]+}}, %rd{{[0-9]+}}, 4611686293372403712;
// WGMMA-COUNT-8: wgmma.mma_async.sync.aligned.m64n64k16.f32.bf16.bf16 {{.*}}, {%r{{[0-9]+}}, %r{{[0-9]+}}, %r{{[0-9]+}}, %r{{[0-9]+}}}, %rd{{[0-9]+}}, 1, 1, 1, 1;
// WGMMA: wgmma.commit_group.sync.aligned;
// WGMMA: bar.arrive %r{{[0-9]+}}, %r{{[0-9]+}};
// WGMMA: wgmma.wait_group.sync.aligned 1;
// WGMMA: mbarrier.arrive.shared.b64
// The last block's P V.
// WGMMA: mbarrier.try_wait.parity.shared::cta.b64
// WGMMA: bar.sync %r{{[0-9]+}}, 256;
// WGMMA: wgmma.fence.sync.aligned;
// WGMMA-COUNT-8: wgmma.mma_async.sync.aligned.m64n64k16.f32.bf16.bf16
// WGMMA: wgmma.commit_group.sync.aligned;
// WGMMA: bar.arrive %r{{[0-9]+}}, %r{{[0-9]+}};
// WGMMA: wgmma.wait_group.sync.aligned 0;
// Warpgroup 0 takes the last turn; each warpgroup's epilogue barrier.
// WGMMA: bar.sync {{%r[0-9]+|[0-9]+}}, 256;
// WGMMA: bar.sync %r{{[0-9]+}}, 128;
// Dropout (here with a boolean mask) takes wgmma with 64 keys per step
// (tc::chooseTiling): S = Q Kᵀ is m64n64.
// WGMMA-LABEL: .visible .entry attn_fwd_1(
// WGMMA: .maxntid 384, 1, 1
// WGMMA: wgmma.mma_async.sync.aligned.m64n64k16.f32.bf16.bf16
// WGMMA-LABEL: .visible .entry attn_fwd_3(
// WGMMA: wgmma.mma_async.sync.aligned.m64n128k16.f32.bf16.bf16
// WGMMA: wgmma.mma_async.sync.aligned.m64n128k16.f32.bf16.bf16
// An additive mask with softcap and a window but no dropout takes wgmma
// too (session 9).
// WGMMA-LABEL: .visible .entry attn_fwd_12(
// WGMMA: .maxntid 384, 1, 1
// WGMMA: wgmma.mma_async.sync.aligned.m64n128k16.f32.bf16.bf16

// COMPILE: attn-compile: wrote {{.*}}.ptx and {{.*}}.json (13 kernels, sm_90a, 32-bit indices)

// CHECK-COUNT-13: 0 bytes spill stores, 0 bytes spill loads
// CHECK-NOT: bytes spill stores

// No wgmma is serialized, and no register is written between a
// wgmma.fence and a wgmma (ptxas would inject a warpgroup.arrive, C7519).
// NOSERIAL-NOT: {{serialized|is injected}}
// NOSERIAL: Compiling entry function 'attn_fwd_12'
// NOSERIAL-NOT: {{serialized|is injected}}

// Every default tiling has 4 warps (128 threads, 2 CTAs per SM); the plain
// variants take Br = 128 (two m16 tiles per warp; fastest on the H200,
// docs/performance.md), the others Br = 64.
// PTX: .target sm_90a
// PTX-LABEL: .visible .entry attn_fwd_0(
// PTX: .maxntid 128, 1, 1
// PTX: .minnctapersm 2
// PTX: cp.async.cg.shared.global [{{.+}}], [{{.+}}], 16, {{.+}};
// PTX: cp.async.commit_group;
// PTX: cp.async.wait_group 0;
// PTX: bar.sync 0;
//   (The loop's blocks are laid out out of order: no order among these.)
//   exp2 with scale * log2(e) = 0.18034 (D = 64) folded into one FMA per
//   score.
// PTX-DAG: ldmatrix.sync.aligned.m8n8.x4.shared.b16
// PTX-DAG: mma.sync.aligned.m16n8k16.row.col.f32.bf16.bf16.f32
// PTX-DAG: fma.rn.f32 {{.+}}, 0f3E38AA3B, {{.+}};
// PTX-DAG: ex2.approx.ftz.f32
// PTX-DAG: ldmatrix.sync.aligned.m8n8.x4.trans.shared.b16
//   Epilogue: O through shared memory, 16-byte global stores.
// PTX: bar.warp.sync -1;
// PTX: ld.shared.v4.b32
// PTX: st.global.v4.b32
// PTX-LABEL: .visible .entry attn_fwd_1(
// PTX: .maxntid 128, 1, 1
// PTX: .minnctapersm 2
// PTX-LABEL: .visible .entry attn_fwd_6(
// PTX: mma.sync.aligned.m16n8k16.row.col.f32.f16.f16.f32
// PTX64-LABEL: .visible .entry attn_fwd_0(
// PTX64: .maxntid 128, 1, 1
// PTX64: .minnctapersm 2

// The O rescale is skipped by a warp vote where no row's maximum grew: at
// Dv = 128 only (attn_fwd_3 is D = 128, attn_fwd_0 D = 64).
// VOTE-LABEL: .visible .entry attn_fwd_0(
// VOTE-NOT: vote.sync.any
// VOTE-LABEL: .visible .entry attn_fwd_3(
// VOTE: vote.sync.any.pred

// Launch: dynamic shared memory Q [Br] + 2 K + 2 V tiles of Bc rows, all
// (D + 8) elements wide, 2 bytes per element: Br = 128, Bc = 64, D = 64:
// 55296 bytes; Br = 64, Bc = 64: 46080 (D = 64), 87040 (D = 128);
// Br = 128, Bc = 32, D = 128 (ragged Lk): 69632.
// MANIFEST: "block": [
// MANIFEST-NEXT: 128,
// MANIFEST: "dynamic_shared_memory": 55296,
// MANIFEST: "grid": [
// MANIFEST-NEXT: 8,
// MANIFEST-NEXT: 8,
// MANIFEST-NEXT: 2
// MANIFEST: "name": "attn_fwd_0"
// MANIFEST: "block": [
// MANIFEST-NEXT: 128,
// MANIFEST: "dynamic_shared_memory": 46080,
// MANIFEST: "grid": [
// MANIFEST-NEXT: 2,
// MANIFEST: "name": "attn_fwd_1"
// MANIFEST: "dynamic_shared_memory": 69632,
// MANIFEST: "name": "attn_fwd_3"
// MANIFEST80: "name": "attn_fwd_1"
// MANIFEST80: "dynamic_shared_memory": 69632,
// MANIFEST80: "name": "attn_fwd_3"
// MANIFEST: "dynamic_shared_memory": 87040,
// MANIFEST: "name": "attn_fwd_4"

func.func @bf16_d64_causal_gqa_lse(%q: tensor<2x8x1000x64xbf16>, %k: tensor<2x2x1000x64xbf16>, %v: tensor<2x2x1000x64xbf16>) -> (tensor<2x8x1000x64xbf16>, tensor<2x8x1000xf32>) {
  %o, %l = attn.attention ins(%q, %k, %v : tensor<2x8x1000x64xbf16>, tensor<2x2x1000x64xbf16>, tensor<2x2x1000x64xbf16>) {causal = #attn.causal<top_left>} -> tensor<2x8x1000x64xbf16>, tensor<2x8x1000xf32>
  return %o, %l : tensor<2x8x1000x64xbf16>, tensor<2x8x1000xf32>
}

func.func @bf16_d64_bool_mask_dropout(%q: tensor<1x4x100x64xbf16>, %k: tensor<1x2x300x64xbf16>, %v: tensor<1x2x300x64xbf16>, %m: tensor<1x1x100x300xi1>, %s: i64, %off: i64) -> (tensor<1x4x100x64xbf16>, tensor<1x4x100xf32>) {
  %o, %l = attn.attention ins(%q, %k, %v : tensor<1x4x100x64xbf16>, tensor<1x2x300x64xbf16>, tensor<1x2x300x64xbf16>) mask(%m : tensor<1x1x100x300xi1>) rng(%s, %off) {causal = #attn.causal<bottom_right>, dropout_p = 0.1 : f32} -> tensor<1x4x100x64xbf16>, tensor<1x4x100xf32>
  return %o, %l : tensor<1x4x100x64xbf16>, tensor<1x4x100xf32>
}

func.func @bf16_d64_everything(%q: tensor<1x8x512x64xbf16>, %k: tensor<1x2x512x64xbf16>, %v: tensor<1x2x512x64xbf16>, %m: tensor<1x1x512x512xbf16>, %s: i64, %off: i64) -> (tensor<1x8x512x64xbf16>) {
  %o = attn.attention ins(%q, %k, %v : tensor<1x8x512x64xbf16>, tensor<1x2x512x64xbf16>, tensor<1x2x512x64xbf16>) mask(%m : tensor<1x1x512x512xbf16>) rng(%s, %off) {causal = #attn.causal<bottom_right>, window = array<i64: 128, 0>, softcap = 30.0 : f32, dropout_p = 0.1 : f32} -> tensor<1x8x512x64xbf16>
  return %o : tensor<1x8x512x64xbf16>
}

func.func @bf16_d128_causal_gqa_lse(%q: tensor<2x8x1000x128xbf16>, %k: tensor<2x2x1000x128xbf16>, %v: tensor<2x2x1000x128xbf16>) -> (tensor<2x8x1000x128xbf16>, tensor<2x8x1000xf32>) {
  %o, %l = attn.attention ins(%q, %k, %v : tensor<2x8x1000x128xbf16>, tensor<2x2x1000x128xbf16>, tensor<2x2x1000x128xbf16>) {causal = #attn.causal<top_left>} -> tensor<2x8x1000x128xbf16>, tensor<2x8x1000xf32>
  return %o, %l : tensor<2x8x1000x128xbf16>, tensor<2x8x1000xf32>
}

func.func @bf16_d128_bool_mask_dropout(%q: tensor<1x4x100x128xbf16>, %k: tensor<1x2x300x128xbf16>, %v: tensor<1x2x300x128xbf16>, %m: tensor<1x1x100x300xi1>, %s: i64, %off: i64) -> (tensor<1x4x100x128xbf16>, tensor<1x4x100xf32>) {
  %o, %l = attn.attention ins(%q, %k, %v : tensor<1x4x100x128xbf16>, tensor<1x2x300x128xbf16>, tensor<1x2x300x128xbf16>) mask(%m : tensor<1x1x100x300xi1>) rng(%s, %off) {causal = #attn.causal<bottom_right>, dropout_p = 0.1 : f32} -> tensor<1x4x100x128xbf16>, tensor<1x4x100xf32>
  return %o, %l : tensor<1x4x100x128xbf16>, tensor<1x4x100xf32>
}

func.func @bf16_d128_everything(%q: tensor<1x8x512x128xbf16>, %k: tensor<1x2x512x128xbf16>, %v: tensor<1x2x512x128xbf16>, %m: tensor<1x1x512x512xbf16>, %s: i64, %off: i64) -> (tensor<1x8x512x128xbf16>) {
  %o = attn.attention ins(%q, %k, %v : tensor<1x8x512x128xbf16>, tensor<1x2x512x128xbf16>, tensor<1x2x512x128xbf16>) mask(%m : tensor<1x1x512x512xbf16>) rng(%s, %off) {causal = #attn.causal<bottom_right>, window = array<i64: 128, 0>, softcap = 30.0 : f32, dropout_p = 0.1 : f32} -> tensor<1x8x512x128xbf16>
  return %o : tensor<1x8x512x128xbf16>
}

func.func @f16_d64_causal_gqa_lse(%q: tensor<2x8x1000x64xf16>, %k: tensor<2x2x1000x64xf16>, %v: tensor<2x2x1000x64xf16>) -> (tensor<2x8x1000x64xf16>, tensor<2x8x1000xf32>) {
  %o, %l = attn.attention ins(%q, %k, %v : tensor<2x8x1000x64xf16>, tensor<2x2x1000x64xf16>, tensor<2x2x1000x64xf16>) {causal = #attn.causal<top_left>} -> tensor<2x8x1000x64xf16>, tensor<2x8x1000xf32>
  return %o, %l : tensor<2x8x1000x64xf16>, tensor<2x8x1000xf32>
}

func.func @f16_d64_bool_mask_dropout(%q: tensor<1x4x100x64xf16>, %k: tensor<1x2x300x64xf16>, %v: tensor<1x2x300x64xf16>, %m: tensor<1x1x100x300xi1>, %s: i64, %off: i64) -> (tensor<1x4x100x64xf16>, tensor<1x4x100xf32>) {
  %o, %l = attn.attention ins(%q, %k, %v : tensor<1x4x100x64xf16>, tensor<1x2x300x64xf16>, tensor<1x2x300x64xf16>) mask(%m : tensor<1x1x100x300xi1>) rng(%s, %off) {causal = #attn.causal<bottom_right>, dropout_p = 0.1 : f32} -> tensor<1x4x100x64xf16>, tensor<1x4x100xf32>
  return %o, %l : tensor<1x4x100x64xf16>, tensor<1x4x100xf32>
}

func.func @f16_d64_everything(%q: tensor<1x8x512x64xf16>, %k: tensor<1x2x512x64xf16>, %v: tensor<1x2x512x64xf16>, %m: tensor<1x1x512x512xf16>, %s: i64, %off: i64) -> (tensor<1x8x512x64xf16>) {
  %o = attn.attention ins(%q, %k, %v : tensor<1x8x512x64xf16>, tensor<1x2x512x64xf16>, tensor<1x2x512x64xf16>) mask(%m : tensor<1x1x512x512xf16>) rng(%s, %off) {causal = #attn.causal<bottom_right>, window = array<i64: 128, 0>, softcap = 30.0 : f32, dropout_p = 0.1 : f32} -> tensor<1x8x512x64xf16>
  return %o : tensor<1x8x512x64xf16>
}

func.func @f16_d128_causal_gqa_lse(%q: tensor<2x8x1000x128xf16>, %k: tensor<2x2x1000x128xf16>, %v: tensor<2x2x1000x128xf16>) -> (tensor<2x8x1000x128xf16>, tensor<2x8x1000xf32>) {
  %o, %l = attn.attention ins(%q, %k, %v : tensor<2x8x1000x128xf16>, tensor<2x2x1000x128xf16>, tensor<2x2x1000x128xf16>) {causal = #attn.causal<top_left>} -> tensor<2x8x1000x128xf16>, tensor<2x8x1000xf32>
  return %o, %l : tensor<2x8x1000x128xf16>, tensor<2x8x1000xf32>
}

func.func @f16_d128_bool_mask_dropout(%q: tensor<1x4x100x128xf16>, %k: tensor<1x2x300x128xf16>, %v: tensor<1x2x300x128xf16>, %m: tensor<1x1x100x300xi1>, %s: i64, %off: i64) -> (tensor<1x4x100x128xf16>, tensor<1x4x100xf32>) {
  %o, %l = attn.attention ins(%q, %k, %v : tensor<1x4x100x128xf16>, tensor<1x2x300x128xf16>, tensor<1x2x300x128xf16>) mask(%m : tensor<1x1x100x300xi1>) rng(%s, %off) {causal = #attn.causal<bottom_right>, dropout_p = 0.1 : f32} -> tensor<1x4x100x128xf16>, tensor<1x4x100xf32>
  return %o, %l : tensor<1x4x100x128xf16>, tensor<1x4x100xf32>
}

func.func @f16_d128_everything(%q: tensor<1x8x512x128xf16>, %k: tensor<1x2x512x128xf16>, %v: tensor<1x2x512x128xf16>, %m: tensor<1x1x512x512xf16>, %s: i64, %off: i64) -> (tensor<1x8x512x128xf16>) {
  %o = attn.attention ins(%q, %k, %v : tensor<1x8x512x128xf16>, tensor<1x2x512x128xf16>, tensor<1x2x512x128xf16>) mask(%m : tensor<1x1x512x512xf16>) rng(%s, %off) {causal = #attn.causal<bottom_right>, window = array<i64: 128, 0>, softcap = 30.0 : f32, dropout_p = 0.1 : f32} -> tensor<1x8x512x128xf16>
  return %o : tensor<1x8x512x128xf16>
}

func.func @bf16_d128_mask_softcap(%q: tensor<1x8x512x128xbf16>, %k: tensor<1x2x512x128xbf16>, %v: tensor<1x2x512x128xbf16>, %m: tensor<1x1x512x512xbf16>) -> (tensor<1x8x512x128xbf16>) {
  %o = attn.attention ins(%q, %k, %v : tensor<1x8x512x128xbf16>, tensor<1x2x512x128xbf16>, tensor<1x2x512x128xbf16>) mask(%m : tensor<1x1x512x512xbf16>) {causal = #attn.causal<bottom_right>, window = array<i64: 128, 0>, softcap = 30.0 : f32} -> tensor<1x8x512x128xbf16>
  return %o : tensor<1x8x512x128xbf16>
}
