// Issue 21: the split-KV forward groups of decoding (docs/kernel-manifest.md,
// "Split-KV forward groups"): split_kv (the tensor-core forward over one
// chunk of the key range, the query heads of a KV head packed into one
// tile, partial O and lse to f32 workspaces: on sm_90a the wgmma forward
// with one consumer warpgroup at two blocks per SM, except D = 256, whose
// fragments do not fit; mma.sync on sm_80 and with --mma=mma-sync) and
// combine (merge by lse). With --tma=on the wgmma stage loads with TMA, Q
// as one box of whole heads (G heads x Lq tokens). One op
// per family: GQA 4 single-token decoding with bottom-right causal and lse;
// speculative decoding (Lq = 16, GQA 8: 128 packed rows, two row blocks)
// top-left causal; a padded head dim (D = 80) with a window; a boolean mask
// per head and token with softcap (f16); MLA-style D = 192 / Dv = 128 with
// 16 query heads on one KV head; D = 256; run-time batch and key length
// (--split-kv=5). Each assembles with ptxas without spilling on sm_90a and
// sm_80, and kernels-runtime's manifest check accepts the manifest.
// REQUIRES: ptxas
// RUN: attn-compile %s --chip=sm_90a --split-kv=5 -o %t.sm90.ptx | FileCheck %s --check-prefix=COMPILE90
// RUN: ptxas -arch=sm_90a -v %t.sm90.ptx -o %t.sm90.cubin 2>&1 | FileCheck %s
// RUN: FileCheck %s --check-prefix=MANIFEST < %t.sm90.json
// RUN: attn-manifest-check %t.sm90.json | FileCheck %s --check-prefix=VALID
// RUN: FileCheck %s --check-prefix=PTX < %t.sm90.ptx
// RUN: attn-compile %s --chip=sm_90a --split-kv=5 --tma=on -o %t.tma.ptx | FileCheck %s --check-prefix=COMPILE90
// RUN: ptxas -arch=sm_90a -v %t.tma.ptx -o %t.tma.cubin 2>&1 | FileCheck %s
// RUN: FileCheck %s --check-prefix=TMA < %t.tma.json
// RUN: FileCheck %s --check-prefix=TMAPTX < %t.tma.ptx
// RUN: attn-manifest-check %t.tma.json | FileCheck %s --check-prefix=VALID
// RUN: attn-compile %s --chip=sm_90a --split-kv=5 --mma=mma-sync -o %t.sync.ptx | FileCheck %s --check-prefix=COMPILE90
// RUN: ptxas -arch=sm_90a -v %t.sync.ptx -o %t.sync.cubin 2>&1 | FileCheck %s
// RUN: attn-manifest-check %t.sync.json | FileCheck %s --check-prefix=VALID
// RUN: attn-compile %s --chip=sm_80 --split-kv=5 -o %t.sm80.ptx | FileCheck %s --check-prefix=COMPILE80
// RUN: ptxas -arch=sm_80 -v %t.sm80.ptx -o %t.sm80.cubin 2>&1 | FileCheck %s
// RUN: attn-manifest-check %t.sm80.json | FileCheck %s --check-prefix=VALID

// COMPILE90: (14 kernels, sm_90a, 32-bit indices)
// COMPILE80: (14 kernels, sm_80, 32-bit indices)
// CHECK-COUNT-14: 0 bytes spill stores, 0 bytes spill loads
// CHECK-NOT: bytes spill stores
// VALID: valid, 14 kernels for

// The wgmma stage: 256 threads at two blocks per SM, whose producer gives
// registers to the consumers (128 x 64 + 128 x 192 = 256 x 128), cp.async
// copies by default; D = 256 (split_kv_5) keeps mma.sync.
// PTX-LABEL: .entry attn_fwd_split_kv_0(
// PTX: .maxntid 256, 1, 1
// PTX-NEXT: .minnctapersm 2
// PTX: setmaxnreg.dec.sync.aligned.u32 64;
// PTX: cp.async.cg.shared.global
// PTX: setmaxnreg.inc.sync.aligned.u32 192;
// PTX: wgmma.mma_async
// PTX-LABEL: .entry attn_fwd_split_kv_5(
// PTX: .maxntid 128, 1, 1
// PTX-NOT: wgmma.mma_async
// PTX: mma.sync.aligned.m16n8k16
// PTX-LABEL: .entry attn_fwd_combine_5(
// PTX-NOT: cp.async.bulk.tensor

// --tma=on: the query map's box is the packed rows of a row block, whole
// heads: G = 4 heads of Lq = 1 (gqa4), 4 heads of 16 of the 8 (speculative:
// two row blocks), 16 heads of 1 (mla); K and V one 64-column panel of 64
// keys. Q's fill waits for 4 rows x 2 panels x 128 bytes.
// TMA: "name": "attn_fwd_split_kv_0",
// TMA: "box": [
// TMA-NEXT: 64,
// TMA-NEXT: 1,
// TMA-NEXT: 4,
// TMA-NEXT: 1
// TMA: "name": "attn_fwd_split_kv_1",
// TMA: "box": [
// TMA-NEXT: 64,
// TMA-NEXT: 16,
// TMA-NEXT: 4,
// TMA-NEXT: 1
// TMA: "name": "attn_fwd_split_kv_4",
// TMA: "box": [
// TMA-NEXT: 64,
// TMA-NEXT: 1,
// TMA-NEXT: 16,
// TMA-NEXT: 1
// TMA: "name": "query_tensor_map",
// TMA: "name": "attn_fwd_split_kv_5",
// TMA-NOT: tensor_map
// TMA: "name": "attn_fwd_combine_5",
// TMAPTX-LABEL: .entry attn_fwd_split_kv_0(
// TMAPTX: mov.b32 [[TX:%r[0-9]+]], 1024;
// TMAPTX: mbarrier.arrive.expect_tx.shared.b64 %rd{{[0-9]+}}, [%rd{{[0-9]+}}], [[TX]];
// TMAPTX: cp.async.bulk.tensor.4d

// The dynamic op's split_kv entry (keys sorted by llvm::json; the earlier
// ops' entries come first): 5 chunks, grid z and the workspaces' batch null
// ([B, S, Hq, Lq, Dv] and [B, S, Hq, Lq]), the sizes batch and key_len
// last, then its combine stage in the same group.
// MANIFEST: "splits": 5,
// MANIFEST: "group": "attn_fwd_6",
// MANIFEST: "name": "attn_fwd_split_kv_6",
// MANIFEST: "name": "partial_output",
// MANIFEST-NEXT: "role": "workspace",
// MANIFEST-NEXT: "shape": [
// MANIFEST-NEXT: null,
// MANIFEST-NEXT: 5,
// MANIFEST-NEXT: 32,
// MANIFEST-NEXT: 1,
// MANIFEST-NEXT: 128
// MANIFEST: "name": "partial_lse",
// MANIFEST: "name": "batch"
// MANIFEST: "name": "key_len"
// MANIFEST: "stage": "split_kv",
// MANIFEST: "group": "attn_fwd_6",
// MANIFEST: "name": "attn_fwd_combine_6",
// MANIFEST: "stage": "combine",

func.func @gqa4(%q: tensor<8x32x1x128xbf16>, %k: tensor<8x8x8192x128xbf16>, %v: tensor<8x8x8192x128xbf16>) -> (tensor<8x32x1x128xbf16>, tensor<8x32x1xf32>) {
  %o, %l = attn.attention ins(%q, %k, %v : tensor<8x32x1x128xbf16>, tensor<8x8x8192x128xbf16>, tensor<8x8x8192x128xbf16>) {causal = #attn.causal<bottom_right>} -> tensor<8x32x1x128xbf16>, tensor<8x32x1xf32>
  return %o, %l : tensor<8x32x1x128xbf16>, tensor<8x32x1xf32>
}

func.func @speculative(%q: tensor<2x16x16x128xbf16>, %k: tensor<2x2x3000x128xbf16>, %v: tensor<2x2x3000x128xbf16>) -> tensor<2x16x16x128xbf16> {
  %o = attn.attention ins(%q, %k, %v : tensor<2x16x16x128xbf16>, tensor<2x2x3000x128xbf16>, tensor<2x2x3000x128xbf16>) {causal = #attn.causal<top_left>} -> tensor<2x16x16x128xbf16>
  return %o : tensor<2x16x16x128xbf16>
}

func.func @d80_window(%q: tensor<2x8x4x80xbf16>, %k: tensor<2x2x777x80xbf16>, %v: tensor<2x2x777x80xbf16>) -> (tensor<2x8x4x80xbf16>, tensor<2x8x4xf32>) {
  %o, %l = attn.attention ins(%q, %k, %v : tensor<2x8x4x80xbf16>, tensor<2x2x777x80xbf16>, tensor<2x2x777x80xbf16>) {causal = #attn.causal<bottom_right>, window = array<i64: 100, 0>} -> tensor<2x8x4x80xbf16>, tensor<2x8x4xf32>
  return %o, %l : tensor<2x8x4x80xbf16>, tensor<2x8x4xf32>
}

func.func @mask_softcap(%q: tensor<2x8x5x64xf16>, %k: tensor<2x2x3000x64xf16>, %v: tensor<2x2x3000x64xf16>, %m: tensor<1x8x5x3000xi1>) -> tensor<2x8x5x64xf16> {
  %o = attn.attention ins(%q, %k, %v : tensor<2x8x5x64xf16>, tensor<2x2x3000x64xf16>, tensor<2x2x3000x64xf16>) mask(%m : tensor<1x8x5x3000xi1>) {softcap = 30.0 : f32} -> tensor<2x8x5x64xf16>
  return %o : tensor<2x8x5x64xf16>
}

func.func @mla(%q: tensor<2x16x1x192xbf16>, %k: tensor<2x1x3333x192xbf16>, %v: tensor<2x1x3333x128xbf16>) -> (tensor<2x16x1x128xbf16>, tensor<2x16x1xf32>) {
  %o, %l = attn.attention ins(%q, %k, %v : tensor<2x16x1x192xbf16>, tensor<2x1x3333x192xbf16>, tensor<2x1x3333x128xbf16>) -> tensor<2x16x1x128xbf16>, tensor<2x16x1xf32>
  return %o, %l : tensor<2x16x1x128xbf16>, tensor<2x16x1xf32>
}

func.func @d256(%q: tensor<1x8x2x256xbf16>, %k: tensor<1x2x5000x256xbf16>, %v: tensor<1x2x5000x256xbf16>) -> (tensor<1x8x2x256xbf16>, tensor<1x8x2xf32>) {
  %o, %l = attn.attention ins(%q, %k, %v : tensor<1x8x2x256xbf16>, tensor<1x2x5000x256xbf16>, tensor<1x2x5000x256xbf16>) {causal = #attn.causal<bottom_right>} -> tensor<1x8x2x256xbf16>, tensor<1x8x2xf32>
  return %o, %l : tensor<1x8x2x256xbf16>, tensor<1x8x2xf32>
}

func.func @dynamic(%q: tensor<?x32x1x128xbf16>, %k: tensor<?x8x?x128xbf16>, %v: tensor<?x8x?x128xbf16>) -> (tensor<?x32x1x128xbf16>, tensor<?x32x1xf32>) {
  %o, %l = attn.attention ins(%q, %k, %v : tensor<?x32x1x128xbf16>, tensor<?x8x?x128xbf16>, tensor<?x8x?x128xbf16>) {causal = #attn.causal<bottom_right>} -> tensor<?x32x1x128xbf16>, tensor<?x32x1xf32>
  return %o, %l : tensor<?x32x1x128xbf16>, tensor<?x32x1xf32>
}
