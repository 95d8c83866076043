// Issue 21: a paged cache whose block table's width (max_pages_per_seq) is
// a run-time size, as a server's table grows with its longest sequence
// (docs/kernel-manifest.md, "Paged key/value caches"): one kernel group
// for every width. The manifest has "max_pages_per_seq": null and block
// table shape [B, null]; the i32 size parameter max_pages_per_seq follows
// batch and num_pages; the capacity (the split rule's key length) is known
// at launch only, so --split-kv=auto decides the split count there
// (num_splits last). Families: everything at run time (GQA 4, lse); the
// width alone (static batch and pages, Lq = 16, a window: the clamp of
// run-time lengths). Each assembles with ptxas without spilling on sm_90a
// and sm_80, and kernels-runtime's manifest check accepts the manifest.
// REQUIRES: ptxas
// RUN: attn-compile %s --chip=sm_90a -o %t.sm90.ptx | FileCheck %s --check-prefix=COMPILE90
// RUN: ptxas -arch=sm_90a -v %t.sm90.ptx -o %t.sm90.cubin 2>&1 | FileCheck %s
// RUN: FileCheck %s --check-prefix=MANIFEST < %t.sm90.json
// RUN: attn-manifest-check %t.sm90.json | FileCheck %s --check-prefix=VALID
// RUN: attn-compile %s --chip=sm_80 -o %t.sm80.ptx | FileCheck %s --check-prefix=COMPILE80
// RUN: ptxas -arch=sm_80 -v %t.sm80.ptx -o %t.sm80.cubin 2>&1 | FileCheck %s
// RUN: attn-manifest-check %t.sm80.json | FileCheck %s --check-prefix=VALID
// The kernel reads its sequence's table row at batch * max_pages_per_seq.
// RUN: attention-opt %s --attn-to-gpu="chip=sm_90a" | FileCheck %s --check-prefix=IR

// COMPILE90: (4 kernels, sm_90a, 32-bit indices)
// COMPILE80: (4 kernels, sm_80, 32-bit indices)
// CHECK-COUNT-4: 0 bytes spill stores, 0 bytes spill loads
// CHECK-NOT: bytes spill stores
// VALID: valid, 4 kernels for

// MANIFEST: "batch": null,
// MANIFEST: "max_pages_per_seq": null,
// MANIFEST-NEXT: "name": "attn_fwd_split_kv_0",
// MANIFEST: "num_pages": null,
// MANIFEST: "name": "block_table",
// MANIFEST-NEXT: "role": "input",
// MANIFEST-NEXT: "shape": [
// MANIFEST-NEXT: null,
// MANIFEST-NEXT: null
// MANIFEST-NEXT: ]
// MANIFEST: "name": "batch"
// MANIFEST: "name": "num_pages"
// MANIFEST: "name": "max_pages_per_seq"
// MANIFEST: "name": "num_splits"
// The width-only op: a static batch, no batch or num_pages parameter.
// MANIFEST: "batch": 4,
// MANIFEST: "max_pages_per_seq": null,
// MANIFEST-NEXT: "name": "attn_fwd_split_kv_1",
// MANIFEST: "num_pages": 1024,
// MANIFEST: "name": "cache_seqlens"
// MANIFEST-NOT: "name": "batch"
// MANIFEST: "name": "max_pages_per_seq"
// MANIFEST: "name": "num_splits"

// IR-LABEL: gpu.func @attn_fwd_split_kv_1(
// IR-SAME: %[[W:[a-z0-9]+]]: i32, %{{[a-z0-9]+}}: i32)
// IR: %[[WI:.*]] = arith.index_castui %[[W]] : i32 to index
// IR: arith.muli %block_id_z, %[[WI]] : index

func.func @paged_width(%q: tensor<?x8x1x128xbf16>, %kc: tensor<?x64x2x128xbf16>, %vc: tensor<?x64x2x128xbf16>,
                       %t: tensor<?x?xi32>, %n: tensor<?xi32>) -> (tensor<?x8x1x128xbf16>, tensor<?x8x1xf32>) {
  %o, %l = attn.paged_attention ins(%q : tensor<?x8x1x128xbf16>)
      cache(%kc, %vc : tensor<?x64x2x128xbf16>, tensor<?x64x2x128xbf16>)
      pages(%t, %n : tensor<?x?xi32>, tensor<?xi32>) {causal = #attn.causal<bottom_right>}
      -> tensor<?x8x1x128xbf16>, tensor<?x8x1xf32>
  return %o, %l : tensor<?x8x1x128xbf16>, tensor<?x8x1xf32>
}

func.func @width_only(%q: tensor<4x32x16x128xf16>, %kc: tensor<1024x16x8x128xf16>, %vc: tensor<1024x16x8x128xf16>,
                      %t: tensor<4x?xi32>, %n: tensor<4xi32>) -> tensor<4x32x16x128xf16> {
  %o = attn.paged_attention ins(%q : tensor<4x32x16x128xf16>)
      cache(%kc, %vc : tensor<1024x16x8x128xf16>, tensor<1024x16x8x128xf16>)
      pages(%t, %n : tensor<4x?xi32>, tensor<4xi32>) {causal = #attn.causal<bottom_right>, window = array<i64: 100, 0>}
      -> tensor<4x32x16x128xf16>
  return %o : tensor<4x32x16x128xf16>
}
