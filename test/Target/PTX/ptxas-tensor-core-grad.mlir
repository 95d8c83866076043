// The tensor-core backward (TensorCoreGradKernelBuilder.cpp) assembles with
// ptxas for sm_90a and sm_80 without spilling on the configurations the
// benchmark grid uses (D = 64 and 128, causal or not, GQA) and on the D = 64
// feature variants, the D = 128 additive mask and decoding, in both dQ modes:
// prep + dkdv + dq (no atomics; the default on sm_80) and prep + dkdv_dq +
// dq_convert (dQ added with red.global.add; the default on sm_90a, and
// --grad-dq=atomic; decoding, Lq < 64, keeps the separate dq kernel), and
// with the non-default key blocks (--grad-block-kv), with the key-block
// kernel on wgmma (the default on sm_90a, --grad-mma) and on mma.sync. The D = 128 variants that hold the most live
// values at once spill a few bytes; they are
// ptxas-tensor-core-grad-heavy.mlir. Needs only the CUDA toolkit.
// REQUIRES: ptxas
// RUN: attn-compile %s --kernel=tensor-core --grad-dq=separate --grad-mma=mma-sync --chip=sm_90a -o %t.sm90.ptx | FileCheck %s --check-prefix=COMPILE
// RUN: ptxas -arch=sm_90a -v %t.sm90.ptx -o %t.sm90.cubin 2>&1 | FileCheck %s
// RUN: attn-compile %s --kernel=tensor-core --chip=sm_80 -o %t.sm80.ptx
// RUN: ptxas -arch=sm_80 -v %t.sm80.ptx -o %t.sm80.cubin 2>&1 | FileCheck %s
// RUN: FileCheck %s --check-prefix=PTX < %t.sm90.ptx
// RUN: FileCheck %s --check-prefix=MANIFEST < %t.sm90.json
// RUN: attn-compile %s --kernel=tensor-core --chip=sm_90a -o %t.atomic90.ptx | FileCheck %s --check-prefix=COMPILE
// RUN: ptxas -arch=sm_90a -v %t.atomic90.ptx -o %t.atomic90.cubin 2>&1 | FileCheck %s
// RUN: attn-compile %s --kernel=tensor-core --grad-dq=atomic --chip=sm_80 -o %t.atomic80.ptx
// RUN: ptxas -arch=sm_80 -v %t.atomic80.ptx -o %t.atomic80.cubin 2>&1 | FileCheck %s
// RUN: FileCheck %s --check-prefix=ATOMIC < %t.atomic90.ptx
// RUN: FileCheck %s --check-prefix=ATOMIC80 < %t.atomic80.ptx
// RUN: FileCheck %s --check-prefix=ATOMIC-MANIFEST < %t.atomic90.json
// RUN: attn-compile %s --kernel=tensor-core --grad-dq=atomic --grad-mma=mma-sync --chip=sm_90a -o %t.sync90.ptx
// RUN: ptxas -arch=sm_90a -v %t.sync90.ptx -o %t.sync90.cubin 2>&1 | FileCheck %s
// RUN: FileCheck %s --check-prefix=SYNC90 < %t.sync90.ptx
// RUN: attn-compile %s --kernel=tensor-core --grad-dq=separate --chip=sm_90a -o %t.sepwg.ptx
// RUN: ptxas -arch=sm_90a -v %t.sepwg.ptx -o %t.sepwg.cubin 2>&1 | FileCheck %s
// RUN: attn-compile %s --kernel=tensor-core --grad-dq=separate --grad-block-kv=128 --chip=sm_90a -o %t.sep128.ptx
// RUN: ptxas -arch=sm_90a -v %t.sep128.ptx -o %t.sep128.cubin 2>&1 | FileCheck %s
// RUN: attn-compile %s --kernel=tensor-core --grad-block-kv=64 --chip=sm_90a -o %t.atomic64.ptx
// RUN: ptxas -arch=sm_90a -v %t.atomic64.ptx -o %t.atomic64.cubin 2>&1 | FileCheck %s

// Three kernels per op.
// COMPILE: attn-compile: wrote {{.*}} (24 kernels, sm_90a, 32-bit indices)
// CHECK-COUNT-24: 0 bytes spill stores, 0 bytes spill loads
// CHECK-NOT: bytes spill stores
// Tensor cores, asynchronous copies, no atomics.
// PTX: .visible .entry attn_bwd_prep_0(
// PTX: .visible .entry attn_bwd_dkdv_0(
// PTX: mma.sync.aligned.m16n8k16.row.col.f32.bf16.bf16.f32
// PTX: ldmatrix.sync.aligned.m8n8.x4.trans.shared.b16
// PTX: cp.async
// PTX: .visible .entry attn_bwd_dq_0(
// PTX-NOT: {{^[[:space:]]*}}atom.
// PTX-NOT: {{^[[:space:]]*}}red.global
// Launch: 4 warps; prep without shared memory; dkdv with dynamic shared
// memory for K, V, two Q/dO stages and two stages of the lse/D rows
// (D = 64: 6 * 64 * 72 * 2 + 2 * 2 * 64 * 4 bytes). The workspaces are f32,
// padded to whole 64-row query blocks (192 rows here).
// MANIFEST: "name": "attn_bwd_prep_0",
// MANIFEST: "name": "row_dot",
// MANIFEST-NEXT: "role": "workspace",
// MANIFEST-NEXT: "shape": [
// MANIFEST-NEXT: 2,
// MANIFEST-NEXT: 8,
// MANIFEST-NEXT: 192
// MANIFEST: "name": "lse_log2",
// MANIFEST-NEXT: "role": "workspace",
// MANIFEST: "stage": "prep"
// MANIFEST: "block": [
// MANIFEST-NEXT: 128,
// MANIFEST: "deterministic": true,
// MANIFEST: "dynamic_shared_memory": 56320,
// MANIFEST: "group": "attn_bwd_0",
// MANIFEST: "stage": "dkdv"
// MANIFEST: "stage": "dq"

// The atomic form: the key-block kernel adds dS K to dq_accum (a global
// pointer parameter) with relaxed reductions, four elements per instruction
// on sm_90 (PTX 8.1), one on sm_80; the last kernel converts.
// ATOMIC: .version 8.1
// ATOMIC: .visible .entry attn_bwd_prep_0(
// ATOMIC: .visible .entry attn_bwd_dkdv_dq_0(
// ATOMIC: fence.proxy.async.shared::cta;
// ATOMIC: wgmma.mma_async.sync.aligned.m64n64k16.f32.bf16.bf16
// ATOMIC: wgmma.mma_async.sync.aligned.m64n32k16.f32.bf16.bf16
// The warp-specialized wgmma kernel (the sm_90a default) stages each
// warpgroup's 64 x 32 dQ columns in shared memory in fragment order (four
// 16-byte stores a thread) and adds them with one 8192-byte bulk reduction;
// the mma.sync kernel (SYNC90) keeps the per-thread reductions.
// ATOMIC: st.shared.v4.b32
// ATOMIC: fence.proxy.async.shared::cta;
// ATOMIC: bar.sync %r{{[0-9]+}}, 128;
// ATOMIC: cp.reduce.async.bulk.global.shared::cta.bulk_group.add.f32 [%rd{{[0-9]+}}], [%r{{[0-9]+}}], 8192;
// ATOMIC: cp.async.bulk.commit_group;
// ATOMIC: cp.async.bulk.wait_group 0;
// ATOMIC-NOT: red.global.add
// ATOMIC-NOT: mma.sync
// ATOMIC: .visible .entry attn_bwd_dq_convert_0(
// ATOMIC: .visible .entry attn_bwd_dq_7(
// ATOMIC-MANIFEST: "name": "dq_accum",
// ATOMIC-MANIFEST-NEXT: "role": "workspace",
// ATOMIC-MANIFEST-NEXT: "shape": [
// ATOMIC-MANIFEST-NEXT: 2,
// ATOMIC-MANIFEST-NEXT: 8,
// ATOMIC-MANIFEST-NEXT: 192,
// ATOMIC-MANIFEST-NEXT: 64
// ATOMIC-MANIFEST: "stage": "prep",
// The warp-specialized wgmma kernel (--grad-tma=auto): a producer
// warpgroup beside the two consumer ones; two dSᵀ tiles and five mbarriers
// beside the cp.async form's 83968 bytes.
// ATOMIC-MANIFEST: "block": [
// ATOMIC-MANIFEST-NEXT: 384,
// ATOMIC-MANIFEST: "deterministic": false,
// ATOMIC-MANIFEST: "dq_accum": "fragments",
// ATOMIC-MANIFEST: "dynamic_shared_memory": 116776,
// ATOMIC-MANIFEST: "stage": "dkdv_dq"
// ATOMIC-MANIFEST: "dq_accum": "fragments",
// ATOMIC-MANIFEST: "stage": "dq_convert"
// SYNC90: .visible .entry attn_bwd_dkdv_dq_0(
// SYNC90: red.global.add.v4.f32 [%rd{{[0-9]+}}+{{[0-9]+}}], {%r{{[0-9]+}}, %r{{[0-9]+}}, %r{{[0-9]+}}, %r{{[0-9]+}}};
// SYNC90-NOT: cp.reduce.async.bulk
// SYNC90: .visible .entry attn_bwd_dq_convert_0(
// ATOMIC80: .version 8.0
// ATOMIC80: .visible .entry attn_bwd_dkdv_dq_0(
// ATOMIC80-NOT: red.global.add.v4
// ATOMIC80: red.global.add.f32 [%rd{{[0-9]+}}+{{[0-9]+}}], %r{{[0-9]+}};

func.func @d64_bf16(%q: tensor<2x8x192x64xbf16>, %k: tensor<2x2x256x64xbf16>, %v: tensor<2x2x256x64xbf16>, %o: tensor<2x8x192x64xbf16>, %lse: tensor<2x8x192xf32>, %do: tensor<2x8x192x64xbf16>) -> (tensor<2x8x192x64xbf16>, tensor<2x2x256x64xbf16>, tensor<2x2x256x64xbf16>) {
  %dq, %dk, %dv = attn.attention_grad ins(%q, %k, %v : tensor<2x8x192x64xbf16>, tensor<2x2x256x64xbf16>, tensor<2x2x256x64xbf16>) forward(%o, %lse : tensor<2x8x192x64xbf16>, tensor<2x8x192xf32>) grad_output(%do : tensor<2x8x192x64xbf16>) -> tensor<2x8x192x64xbf16>, tensor<2x2x256x64xbf16>, tensor<2x2x256x64xbf16>
  return %dq, %dk, %dv : tensor<2x8x192x64xbf16>, tensor<2x2x256x64xbf16>, tensor<2x2x256x64xbf16>
}

func.func @d64_f16_causal_gqa(%q: tensor<2x8x192x64xf16>, %k: tensor<2x2x256x64xf16>, %v: tensor<2x2x256x64xf16>, %o: tensor<2x8x192x64xf16>, %lse: tensor<2x8x192xf32>, %do: tensor<2x8x192x64xf16>) -> (tensor<2x8x192x64xf16>, tensor<2x2x256x64xf16>, tensor<2x2x256x64xf16>) {
  %dq, %dk, %dv = attn.attention_grad ins(%q, %k, %v : tensor<2x8x192x64xf16>, tensor<2x2x256x64xf16>, tensor<2x2x256x64xf16>) forward(%o, %lse : tensor<2x8x192x64xf16>, tensor<2x8x192xf32>) grad_output(%do : tensor<2x8x192x64xf16>) {causal = #attn.causal<top_left>} -> tensor<2x8x192x64xf16>, tensor<2x2x256x64xf16>, tensor<2x2x256x64xf16>
  return %dq, %dk, %dv : tensor<2x8x192x64xf16>, tensor<2x2x256x64xf16>, tensor<2x2x256x64xf16>
}

func.func @d128_bf16(%q: tensor<2x8x192x128xbf16>, %k: tensor<2x2x256x128xbf16>, %v: tensor<2x2x256x128xbf16>, %o: tensor<2x8x192x128xbf16>, %lse: tensor<2x8x192xf32>, %do: tensor<2x8x192x128xbf16>) -> (tensor<2x8x192x128xbf16>, tensor<2x2x256x128xbf16>, tensor<2x2x256x128xbf16>) {
  %dq, %dk, %dv = attn.attention_grad ins(%q, %k, %v : tensor<2x8x192x128xbf16>, tensor<2x2x256x128xbf16>, tensor<2x2x256x128xbf16>) forward(%o, %lse : tensor<2x8x192x128xbf16>, tensor<2x8x192xf32>) grad_output(%do : tensor<2x8x192x128xbf16>) -> tensor<2x8x192x128xbf16>, tensor<2x2x256x128xbf16>, tensor<2x2x256x128xbf16>
  return %dq, %dk, %dv : tensor<2x8x192x128xbf16>, tensor<2x2x256x128xbf16>, tensor<2x2x256x128xbf16>
}

func.func @d128_f16_causal(%q: tensor<2x8x192x128xf16>, %k: tensor<2x2x256x128xf16>, %v: tensor<2x2x256x128xf16>, %o: tensor<2x8x192x128xf16>, %lse: tensor<2x8x192xf32>, %do: tensor<2x8x192x128xf16>) -> (tensor<2x8x192x128xf16>, tensor<2x2x256x128xf16>, tensor<2x2x256x128xf16>) {
  %dq, %dk, %dv = attn.attention_grad ins(%q, %k, %v : tensor<2x8x192x128xf16>, tensor<2x2x256x128xf16>, tensor<2x2x256x128xf16>) forward(%o, %lse : tensor<2x8x192x128xf16>, tensor<2x8x192xf32>) grad_output(%do : tensor<2x8x192x128xf16>) {causal = #attn.causal<bottom_right>} -> tensor<2x8x192x128xf16>, tensor<2x2x256x128xf16>, tensor<2x2x256x128xf16>
  return %dq, %dk, %dv : tensor<2x8x192x128xf16>, tensor<2x2x256x128xf16>, tensor<2x2x256x128xf16>
}

func.func @d64_dropout_causal(%q: tensor<2x8x192x64xbf16>, %k: tensor<2x2x256x64xbf16>, %v: tensor<2x2x256x64xbf16>, %o: tensor<2x8x192x64xbf16>, %lse: tensor<2x8x192xf32>, %do: tensor<2x8x192x64xbf16>, %s: i64, %f: i64) -> (tensor<2x8x192x64xbf16>, tensor<2x2x256x64xbf16>, tensor<2x2x256x64xbf16>) {
  %dq, %dk, %dv = attn.attention_grad ins(%q, %k, %v : tensor<2x8x192x64xbf16>, tensor<2x2x256x64xbf16>, tensor<2x2x256x64xbf16>) forward(%o, %lse : tensor<2x8x192x64xbf16>, tensor<2x8x192xf32>) grad_output(%do : tensor<2x8x192x64xbf16>) rng(%s, %f) {dropout_p = 0.1 : f32, causal = #attn.causal<bottom_right>} -> tensor<2x8x192x64xbf16>, tensor<2x2x256x64xbf16>, tensor<2x2x256x64xbf16>
  return %dq, %dk, %dv : tensor<2x8x192x64xbf16>, tensor<2x2x256x64xbf16>, tensor<2x2x256x64xbf16>
}

func.func @d64_softcap_window(%q: tensor<2x8x192x64xbf16>, %k: tensor<2x2x256x64xbf16>, %v: tensor<2x2x256x64xbf16>, %o: tensor<2x8x192x64xbf16>, %lse: tensor<2x8x192xf32>, %do: tensor<2x8x192x64xbf16>) -> (tensor<2x8x192x64xbf16>, tensor<2x2x256x64xbf16>, tensor<2x2x256x64xbf16>) {
  %dq, %dk, %dv = attn.attention_grad ins(%q, %k, %v : tensor<2x8x192x64xbf16>, tensor<2x2x256x64xbf16>, tensor<2x2x256x64xbf16>) forward(%o, %lse : tensor<2x8x192x64xbf16>, tensor<2x8x192xf32>) grad_output(%do : tensor<2x8x192x64xbf16>) {softcap = 30.0 : f32, window = array<i64: 100, 20>} -> tensor<2x8x192x64xbf16>, tensor<2x2x256x64xbf16>, tensor<2x2x256x64xbf16>
  return %dq, %dk, %dv : tensor<2x8x192x64xbf16>, tensor<2x2x256x64xbf16>, tensor<2x2x256x64xbf16>
}

func.func @d128_additive_causal(%q: tensor<2x8x192x128xbf16>, %k: tensor<2x2x256x128xbf16>, %v: tensor<2x2x256x128xbf16>, %o: tensor<2x8x192x128xbf16>, %lse: tensor<2x8x192xf32>, %do: tensor<2x8x192x128xbf16>, %m: tensor<1x8x1x256xbf16>) -> (tensor<2x8x192x128xbf16>, tensor<2x2x256x128xbf16>, tensor<2x2x256x128xbf16>) {
  %dq, %dk, %dv = attn.attention_grad ins(%q, %k, %v : tensor<2x8x192x128xbf16>, tensor<2x2x256x128xbf16>, tensor<2x2x256x128xbf16>) forward(%o, %lse : tensor<2x8x192x128xbf16>, tensor<2x8x192xf32>) grad_output(%do : tensor<2x8x192x128xbf16>) mask(%m : tensor<1x8x1x256xbf16>) {causal = #attn.causal<bottom_right>} -> tensor<2x8x192x128xbf16>, tensor<2x2x256x128xbf16>, tensor<2x2x256x128xbf16>
  return %dq, %dk, %dv : tensor<2x8x192x128xbf16>, tensor<2x2x256x128xbf16>, tensor<2x2x256x128xbf16>
}

func.func @d128_decode(%q: tensor<4x32x1x128xbf16>, %k: tensor<4x8x1000x128xbf16>, %v: tensor<4x8x1000x128xbf16>, %o: tensor<4x32x1x128xbf16>, %lse: tensor<4x32x1xf32>, %do: tensor<4x32x1x128xbf16>) -> (tensor<4x32x1x128xbf16>, tensor<4x8x1000x128xbf16>, tensor<4x8x1000x128xbf16>) {
  %dq, %dk, %dv = attn.attention_grad ins(%q, %k, %v : tensor<4x32x1x128xbf16>, tensor<4x8x1000x128xbf16>, tensor<4x8x1000x128xbf16>) forward(%o, %lse : tensor<4x32x1x128xbf16>, tensor<4x32x1xf32>) grad_output(%do : tensor<4x32x1x128xbf16>) -> tensor<4x32x1x128xbf16>, tensor<4x8x1000x128xbf16>, tensor<4x8x1000x128xbf16>
  return %dq, %dk, %dv : tensor<4x32x1x128xbf16>, tensor<4x8x1000x128xbf16>, tensor<4x8x1000x128xbf16>
}
