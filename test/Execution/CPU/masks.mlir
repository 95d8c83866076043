// Boolean keep masks and additive biases, full and broadcast. The generator
// switches off a quarter of the entries and 10% of whole mask rows (biases
// become -inf there), so fully masked rows occur.
// RUN: attn-cpu-run %s --seed=5 | FileCheck %s
// RUN: attn-cpu-run %s --seed=9 | FileCheck %s
// The online-softmax tiled form, with tiles that divide the lengths and
// tiles that don't, and with the tiles attn-select-tiles picks for sm_80.
// RUN: attn-cpu-run %s --seed=5 --lowering="attn-tile{block-q=16 block-kv=16}" | FileCheck %s
// RUN: attn-cpu-run %s --seed=5 --lowering="attn-tile{block-q=8 block-kv=12}" | FileCheck %s
// RUN: attn-cpu-run %s --seed=5 --lowering="attn-select-tiles{chip=sm_80},attn-tile" | FileCheck %s

// CHECK: B=2 Hq=4 {{.*}} f32 causal=none masked
// CHECK: PASS
func.func @bool_full(%q: tensor<2x4x16x16xf32>, %k: tensor<2x4x24x16xf32>, %v: tensor<2x4x24x16xf32>, %m: tensor<2x4x16x24xi1>) -> (tensor<2x4x16x16xf32>, tensor<2x4x16xf32>) {
  %o, %l = attn.attention ins(%q, %k, %v : tensor<2x4x16x16xf32>, tensor<2x4x24x16xf32>, tensor<2x4x24x16xf32>) mask(%m : tensor<2x4x16x24xi1>) -> tensor<2x4x16x16xf32>, tensor<2x4x16xf32>
  return %o, %l : tensor<2x4x16x16xf32>, tensor<2x4x16xf32>
}

// A padding mask: one row of keys per batch, broadcast over heads and queries.
// CHECK: B=3 Hq=2 {{.*}} bf16 causal=none masked
// CHECK: PASS
func.func @bool_padding(%q: tensor<3x2x12x32xbf16>, %k: tensor<3x2x40x32xbf16>, %v: tensor<3x2x40x32xbf16>, %m: tensor<3x1x1x40xi1>) -> tensor<3x2x12x32xbf16> {
  %o = attn.attention ins(%q, %k, %v : tensor<3x2x12x32xbf16>, tensor<3x2x40x32xbf16>, tensor<3x2x40x32xbf16>) mask(%m : tensor<3x1x1x40xi1>) -> tensor<3x2x12x32xbf16>
  return %o : tensor<3x2x12x32xbf16>
}

// CHECK: B=2 Hq=4 Hkv=2 {{.*}} f16 causal=top_left masked
// CHECK: PASS
func.func @bool_broadcast_causal(%q: tensor<2x4x20x16xf16>, %k: tensor<2x2x20x16xf16>, %v: tensor<2x2x20x16xf16>, %m: tensor<1x1x20x20xi1>) -> (tensor<2x4x20x16xf16>, tensor<2x4x20xf32>) {
  %o, %l = attn.attention ins(%q, %k, %v : tensor<2x4x20x16xf16>, tensor<2x2x20x16xf16>, tensor<2x2x20x16xf16>) mask(%m : tensor<1x1x20x20xi1>) {causal = #attn.causal<top_left>} -> tensor<2x4x20x16xf16>, tensor<2x4x20xf32>
  return %o, %l : tensor<2x4x20x16xf16>, tensor<2x4x20xf32>
}

// CHECK: B=2 Hq=2 {{.*}} f32 causal=none masked
// CHECK: PASS
func.func @additive_full(%q: tensor<2x2x10x8xf32>, %k: tensor<2x2x14x8xf32>, %v: tensor<2x2x14x8xf32>, %m: tensor<2x2x10x14xf32>) -> (tensor<2x2x10x8xf32>, tensor<2x2x10xf32>) {
  %o, %l = attn.attention ins(%q, %k, %v : tensor<2x2x10x8xf32>, tensor<2x2x14x8xf32>, tensor<2x2x14x8xf32>) mask(%m : tensor<2x2x10x14xf32>) -> tensor<2x2x10x8xf32>, tensor<2x2x10xf32>
  return %o, %l : tensor<2x2x10x8xf32>, tensor<2x2x10xf32>
}

// A per-head bias broadcast over batch and queries, in bf16.
// CHECK: B=2 Hq=4 {{.*}} bf16 causal=bottom_right masked
// CHECK: PASS
func.func @additive_per_head(%q: tensor<2x4x9x16xbf16>, %k: tensor<2x4x21x16xbf16>, %v: tensor<2x4x21x16xbf16>, %m: tensor<1x4x1x21xbf16>) -> (tensor<2x4x9x16xbf16>, tensor<2x4x9xf32>) {
  %o, %l = attn.attention ins(%q, %k, %v : tensor<2x4x9x16xbf16>, tensor<2x4x21x16xbf16>, tensor<2x4x21x16xbf16>) mask(%m : tensor<1x4x1x21xbf16>) {causal = #attn.causal<bottom_right>} -> tensor<2x4x9x16xbf16>, tensor<2x4x9xf32>
  return %o, %l : tensor<2x4x9x16xbf16>, tensor<2x4x9xf32>
}
// CHECK: all 5 attention op(s) match
