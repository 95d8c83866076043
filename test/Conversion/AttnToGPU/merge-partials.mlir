// RUN: attention-opt %s --attn-to-gpu="chip=sm_90a" | FileCheck %s
// RUN: attn-compile %s --chip=sm_90a -o %t.ptx | FileCheck %s --check-prefix=COMPILE
// RUN: FileCheck %s --check-prefix=MANIFEST < %t.json

// attn.merge_partials compiles to the split-KV group's combine kernel on
// [S, rows] partials (docs/kernel-manifest.md, "Merging partial results"):
// one warp per row, grid (ceil(rows / 4), 1, 1); a partial with lse -inf
// adds nothing even where its output is NaN (a select, not 0 times it);
// bf16 partials are widened to f32.

// CHECK-LABEL: gpu.func @attn_merge_0
// CHECK-SAME: (%[[PO:.*]]: memref<12288xf32>, %[[PL:.*]]: memref<192xf32>, %[[O:.*]]: memref<3072xbf16>, %[[L:.*]]: memref<48xf32>)
// CHECK-SAME: known_block_size = array<i32: 128, 1, 1>
// Partial s's row: s * 48 + row.
// CHECK: scf.for %[[S:.*]] = %c0{{.*}} to %c4{{.*}} step
// CHECK: arith.muli %[[S]], %c48
// CHECK: %[[LS:.*]] = memref.load %[[PL]]
// CHECK: %[[W:.*]] = math.exp
// CHECK: %[[EMPTY:.*]] = arith.cmpf oeq, %[[LS]], %{{.*}} : f32
// CHECK: %[[OV:.*]] = memref.load %[[PO]]
// CHECK: %[[WO:.*]] = arith.mulf %[[W]], %[[OV]] : f32
// CHECK: %[[ACC:.*]] = arith.addf %[[WO]], %[[PREV:.*]] : f32
// CHECK: arith.select %[[EMPTY]], %[[PREV]], %[[ACC]] : f32
// CHECK: memref.store %{{.*}}, %[[O]]
// CHECK: memref.store %{{.*}}, %[[L]]
// CHECK-LABEL: gpu.func @attn_merge_1
// CHECK-SAME: (%{{.*}}: memref<2040xbf16>, %{{.*}}: memref<51xf32>, %{{.*}}: memref<680xf16>)
// CHECK: arith.extf %{{.*}} : bf16 to f32

// COMPILE: (2 kernels, sm_90a, 32-bit indices)
// MANIFEST: "dtype": "bf16",
// MANIFEST: "grid": [
// MANIFEST-NEXT: 12,
// MANIFEST: "has_lse": true,
// MANIFEST: "name": "attn_merge_0",
// MANIFEST: "op": "merge_partials",
// MANIFEST: "partial_dtype": "f32",
// MANIFEST: "rows": 48,
// MANIFEST: "splits": 4,
// MANIFEST: "value_dim": 64
// MANIFEST: "name": "attn_merge_1",
// MANIFEST: "partial_dtype": "bf16",
// MANIFEST: "rows": 17,
// MANIFEST: "splits": 3,

func.func @merge(%po: tensor<4x2x8x3x64xf32>, %pl: tensor<4x2x8x3xf32>) -> (tensor<2x8x3x64xbf16>, tensor<2x8x3xf32>) {
  %o, %l = attn.merge_partials ins(%po, %pl : tensor<4x2x8x3x64xf32>, tensor<4x2x8x3xf32>)
      -> tensor<2x8x3x64xbf16>, tensor<2x8x3xf32>
  return %o, %l : tensor<2x8x3x64xbf16>, tensor<2x8x3xf32>
}

func.func @merge_bf16(%po: tensor<3x17x40xbf16>, %pl: tensor<3x17xf32>) -> tensor<17x40xf16> {
  %o = attn.merge_partials ins(%po, %pl : tensor<3x17x40xbf16>, tensor<3x17xf32>) -> tensor<17x40xf16>
  return %o : tensor<17x40xf16>
}
