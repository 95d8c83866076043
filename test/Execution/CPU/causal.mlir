// Causal modes, including Lq != Lk where top-left and bottom-right differ,
// and Lq > Lk bottom-right, whose first Lq - Lk rows see no key at all.
// RUN: attn-cpu-run %s --seed=3 | FileCheck %s
// RUN: attn-cpu-run %s --seed=11 | FileCheck %s
// The online-softmax tiled form, with tiles that divide the lengths and
// tiles that don't, and with the tiles attn-select-tiles picks for sm_80.
// RUN: attn-cpu-run %s --seed=3 --lowering="attn-tile{block-q=16 block-kv=16}" | FileCheck %s
// RUN: attn-cpu-run %s --seed=3 --lowering="attn-tile{block-q=8 block-kv=12}" | FileCheck %s
// RUN: attn-cpu-run %s --seed=3 --lowering="attn-select-tiles{chip=sm_80},attn-tile" | FileCheck %s

// CHECK: Lq=20 Lk=36 {{.*}} causal=top_left
// CHECK: rows with no allowed key: 0 of
// CHECK: PASS
func.func @top_left(%q: tensor<1x2x20x16xf32>, %k: tensor<1x2x36x16xf32>, %v: tensor<1x2x36x16xf32>) -> (tensor<1x2x20x16xf32>, tensor<1x2x20xf32>) {
  %o, %l = attn.attention ins(%q, %k, %v : tensor<1x2x20x16xf32>, tensor<1x2x36x16xf32>, tensor<1x2x36x16xf32>) {causal = #attn.causal<top_left>} -> tensor<1x2x20x16xf32>, tensor<1x2x20xf32>
  return %o, %l : tensor<1x2x20x16xf32>, tensor<1x2x20xf32>
}

// CHECK: Lq=20 Lk=36 {{.*}} causal=bottom_right
// CHECK: PASS
func.func @bottom_right(%q: tensor<1x2x20x16xbf16>, %k: tensor<1x2x36x16xbf16>, %v: tensor<1x2x36x16xbf16>) -> (tensor<1x2x20x16xbf16>, tensor<1x2x20xf32>) {
  %o, %l = attn.attention ins(%q, %k, %v : tensor<1x2x20x16xbf16>, tensor<1x2x36x16xbf16>, tensor<1x2x36x16xbf16>) {causal = #attn.causal<bottom_right>} -> tensor<1x2x20x16xbf16>, tensor<1x2x20xf32>
  return %o, %l : tensor<1x2x20x16xbf16>, tensor<1x2x20xf32>
}

// 2 batches x 3 heads x (30 - 12) rows have no key on or left of their diagonal.
// CHECK: Lq=30 Lk=12 {{.*}} causal=bottom_right
// CHECK: -inf mismatches 0
// CHECK: rows with no allowed key: 108 of 180
// CHECK: PASS
func.func @bottom_right_more_queries(%q: tensor<2x3x30x8xf16>, %k: tensor<2x3x12x8xf16>, %v: tensor<2x3x12x8xf16>) -> (tensor<2x3x30x8xf16>, tensor<2x3x30xf32>) {
  %o, %l = attn.attention ins(%q, %k, %v : tensor<2x3x30x8xf16>, tensor<2x3x12x8xf16>, tensor<2x3x12x8xf16>) {causal = #attn.causal<bottom_right>} -> tensor<2x3x30x8xf16>, tensor<2x3x30xf32>
  return %o, %l : tensor<2x3x30x8xf16>, tensor<2x3x30xf32>
}

// CHECK: Lq=33 Lk=33 {{.*}} causal=top_left
// CHECK: PASS
func.func @square_f16(%q: tensor<1x4x33x32xf16>, %k: tensor<1x2x33x32xf16>, %v: tensor<1x2x33x32xf16>) -> tensor<1x4x33x32xf16> {
  %o = attn.attention ins(%q, %k, %v : tensor<1x4x33x32xf16>, tensor<1x2x33x32xf16>, tensor<1x2x33x32xf16>) {causal = #attn.causal<top_left>} -> tensor<1x4x33x32xf16>
  return %o : tensor<1x4x33x32xf16>
}
// CHECK: all 4 attention op(s) match
