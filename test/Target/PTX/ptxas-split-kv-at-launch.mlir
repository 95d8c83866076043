// Issue 21: split-KV groups whose chunk count is decided at launch
// (docs/kernel-manifest.md, "Split-KV forward groups"): with a run-time
// batch or key length, --split-kv=auto takes the group with
// `codegen.splits: null`, the rule's constants in `codegen.split_rule`, the
// split_kv grid's x and the workspaces' dimension 1 null, and the i32
// parameter num_splits last on both stages. Families: GQA 4 decoding with
// run-time batch and key length and lse; a run-time key length only (static
// batch) with a key-padding mask; speculative decoding (Lq = 16, GQA 8,
// two row blocks) with a run-time batch only and D = 256 with a window; a
// static op with `splits = ?` in attn.tiles; a paged cache with a run-time
// batch and page count (the sizes batch and num_pages, then num_splits). Each assembles with ptxas
// without spilling on sm_90a and sm_80, and kernels-runtime's manifest
// check accepts the manifest.
// REQUIRES: ptxas
// RUN: attn-compile %s --chip=sm_90a -o %t.sm90.ptx | FileCheck %s --check-prefix=COMPILE90
// RUN: ptxas -arch=sm_90a -v %t.sm90.ptx -o %t.sm90.cubin 2>&1 | FileCheck %s
// RUN: FileCheck %s --check-prefix=MANIFEST < %t.sm90.json
// RUN: attn-manifest-check %t.sm90.json | FileCheck %s --check-prefix=VALID
// RUN: attn-compile %s --chip=sm_80 -o %t.sm80.ptx | FileCheck %s --check-prefix=COMPILE80
// RUN: ptxas -arch=sm_80 -v %t.sm80.ptx -o %t.sm80.cubin 2>&1 | FileCheck %s
// RUN: attn-manifest-check %t.sm80.json | FileCheck %s --check-prefix=VALID
// The kernels read the count from num_splits: the chunk length divides by
// it, and the combine stage loops over it.
// RUN: attention-opt %s --attn-to-gpu="chip=sm_90a" | FileCheck %s --check-prefix=IR

// COMPILE90: (10 kernels, sm_90a, 32-bit indices)
// COMPILE80: (10 kernels, sm_80, 32-bit indices)
// CHECK-COUNT-10: 0 bytes spill stores, 0 bytes spill loads
// CHECK-NOT: bytes spill stores
// VALID: valid, 10 kernels for

// MANIFEST: "codegen": {
// MANIFEST-NEXT: "block_kv": 64,
// MANIFEST-NEXT: "block_q": 64,
// MANIFEST-NEXT: "kernel": "tensor-core",
// MANIFEST-NEXT: "mma": "wgmma",
// MANIFEST-NEXT: "split_rule": {
// MANIFEST-NEXT: "blocks_per_sm": 2,
// MANIFEST-NEXT: "max_splits": 64,
// MANIFEST-NEXT: "min_chunk_keys": 128
// MANIFEST-NEXT: },
// MANIFEST-NEXT: "splits": null,
// MANIFEST: "grid": [
// MANIFEST-NEXT: null,
// MANIFEST-NEXT: 8,
// MANIFEST-NEXT: null
// MANIFEST-NEXT: ],
// MANIFEST: "name": "attn_fwd_split_kv_0",
// MANIFEST: "name": "partial_output",
// MANIFEST-NEXT: "role": "workspace",
// MANIFEST-NEXT: "shape": [
// MANIFEST-NEXT: null,
// MANIFEST-NEXT: null,
// MANIFEST-NEXT: 32,
// MANIFEST-NEXT: 1,
// MANIFEST-NEXT: 128
// MANIFEST: "name": "batch"
// MANIFEST: "name": "key_len"
// MANIFEST: "name": "num_splits"
// MANIFEST-NEXT: }
// MANIFEST-NEXT: ],
// MANIFEST: "name": "attn_fwd_combine_0",
// MANIFEST: "name": "num_splits"
// MANIFEST-NEXT: }
// MANIFEST-NEXT: ],
// The run-time key length only: the batch stays static (grid z = 2).
// MANIFEST: "grid": [
// MANIFEST-NEXT: null,
// MANIFEST-NEXT: 2,
// MANIFEST-NEXT: 2
// MANIFEST-NEXT: ],
// MANIFEST: "name": "attn_fwd_split_kv_1",
// The static op with `splits = ?`: the only null in its shapes is S.
// MANIFEST: "name": "attn_fwd_split_kv_3",
// MANIFEST: "name": "partial_lse",
// MANIFEST-NEXT: "role": "workspace",
// MANIFEST-NEXT: "shape": [
// MANIFEST-NEXT: 2,
// MANIFEST-NEXT: null,
// MANIFEST-NEXT: 8,
// MANIFEST-NEXT: 1
// MANIFEST-NEXT: ]
// The paged op: batch and num_pages null, its sizes batch, num_pages,
// num_splits.
// MANIFEST: "batch": null,
// MANIFEST: "name": "attn_fwd_split_kv_4",
// MANIFEST: "num_pages": null,
// MANIFEST: "op": "paged_attention",
// MANIFEST: "name": "key_cache",
// MANIFEST-NEXT: "role": "input",
// MANIFEST-NEXT: "shape": [
// MANIFEST-NEXT: null,
// MANIFEST-NEXT: 64,
// MANIFEST-NEXT: 2,
// MANIFEST-NEXT: 128
// MANIFEST: "name": "batch"
// MANIFEST: "name": "num_pages"
// MANIFEST: "name": "num_splits"

// IR-LABEL: gpu.func @attn_fwd_split_kv_0(
// IR-SAME: %[[S:[a-z0-9]+]]: i32)
// IR: %[[SI:.*]] = arith.index_castui %[[S]] : i32 to index
// IR: arith.divui %{{.*}}, %[[SI]] : index
// IR-LABEL: gpu.func @attn_fwd_combine_0(
// IR-SAME: %[[CS:[a-z0-9]+]]: i32)
// IR: %[[CSI:.*]] = arith.index_castui %[[CS]] : i32 to index
// IR: scf.for %{{.*}} = %{{.*}} to %[[CSI]]

func.func @gqa4(%q: tensor<?x32x1x128xbf16>, %k: tensor<?x8x?x128xbf16>, %v: tensor<?x8x?x128xbf16>) -> (tensor<?x32x1x128xbf16>, tensor<?x32x1xf32>) {
  %o, %l = attn.attention ins(%q, %k, %v : tensor<?x32x1x128xbf16>, tensor<?x8x?x128xbf16>, tensor<?x8x?x128xbf16>) {causal = #attn.causal<bottom_right>} -> tensor<?x32x1x128xbf16>, tensor<?x32x1xf32>
  return %o, %l : tensor<?x32x1x128xbf16>, tensor<?x32x1xf32>
}

func.func @key_len_only(%q: tensor<2x4x3x64xf16>, %k: tensor<2x2x?x64xf16>, %v: tensor<2x2x?x64xf16>, %m: tensor<2x1x1x?xi1>) -> tensor<2x4x3x64xf16> {
  %o = attn.attention ins(%q, %k, %v : tensor<2x4x3x64xf16>, tensor<2x2x?x64xf16>, tensor<2x2x?x64xf16>) mask(%m : tensor<2x1x1x?xi1>) {causal = #attn.causal<bottom_right>} -> tensor<2x4x3x64xf16>
  return %o : tensor<2x4x3x64xf16>
}

func.func @speculative_d256(%q: tensor<?x16x16x256xbf16>, %k: tensor<?x2x3000x256xbf16>, %v: tensor<?x2x3000x256xbf16>) -> tensor<?x16x16x256xbf16> {
  %o = attn.attention ins(%q, %k, %v : tensor<?x16x16x256xbf16>, tensor<?x2x3000x256xbf16>, tensor<?x2x3000x256xbf16>) {causal = #attn.causal<bottom_right>, window = array<i64: 500, 0>} -> tensor<?x16x16x256xbf16>
  return %o : tensor<?x16x16x256xbf16>
}

func.func @static_at_launch(%q: tensor<2x8x1x64xbf16>, %k: tensor<2x2x4096x64xbf16>, %v: tensor<2x2x4096x64xbf16>) -> tensor<2x8x1x64xbf16> {
  %o = attn.attention ins(%q, %k, %v : tensor<2x8x1x64xbf16>, tensor<2x2x4096x64xbf16>, tensor<2x2x4096x64xbf16>) {attn.tiles = #attn.tiles<block_q = 64, block_kv = 64, stages = 2, warps = 4, kernel = mma_sync, splits = ?>} -> tensor<2x8x1x64xbf16>
  return %o : tensor<2x8x1x64xbf16>
}

func.func @paged(%q: tensor<?x8x1x128xbf16>, %kc: tensor<?x64x2x128xbf16>, %vc: tensor<?x64x2x128xbf16>,
                 %t: tensor<?x100xi32>, %n: tensor<?xi32>) -> (tensor<?x8x1x128xbf16>, tensor<?x8x1xf32>) {
  %o, %l = attn.paged_attention ins(%q : tensor<?x8x1x128xbf16>)
      cache(%kc, %vc : tensor<?x64x2x128xbf16>, tensor<?x64x2x128xbf16>)
      pages(%t, %n : tensor<?x100xi32>, tensor<?xi32>) {causal = #attn.causal<bottom_right>}
      -> tensor<?x8x1x128xbf16>, tensor<?x8x1xf32>
  return %o, %l : tensor<?x8x1x128xbf16>, tensor<?x8x1xf32>
}
