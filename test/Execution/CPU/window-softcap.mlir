// Sliding windows (with and without causal alignment) and logit softcapping.
// RUN: attn-cpu-run %s --seed=4 | FileCheck %s
// RUN: attn-cpu-run %s --seed=21 | FileCheck %s
// The online-softmax tiled form, with tiles that divide the lengths and
// tiles that don't, and with the tiles attn-select-tiles picks for sm_80.
// RUN: attn-cpu-run %s --seed=4 --lowering="attn-tile{block-q=16 block-kv=16}" | FileCheck %s
// RUN: attn-cpu-run %s --seed=4 --lowering="attn-tile{block-q=8 block-kv=12}" | FileCheck %s
// RUN: attn-cpu-run %s --seed=4 --lowering="attn-select-tiles{chip=sm_80},attn-tile" | FileCheck %s

// CHECK: Lq=32 Lk=32 {{.*}} causal=top_left window
// CHECK: PASS
func.func @causal_window(%q: tensor<1x2x32x16xf32>, %k: tensor<1x2x32x16xf32>, %v: tensor<1x2x32x16xf32>) -> (tensor<1x2x32x16xf32>, tensor<1x2x32xf32>) {
  %o, %l = attn.attention ins(%q, %k, %v : tensor<1x2x32x16xf32>, tensor<1x2x32x16xf32>, tensor<1x2x32x16xf32>) {causal = #attn.causal<top_left>, window = array<i64: 5, 0>} -> tensor<1x2x32x16xf32>, tensor<1x2x32xf32>
  return %o, %l : tensor<1x2x32x16xf32>, tensor<1x2x32xf32>
}

// CHECK: Lq=12 Lk=40 {{.*}} causal=bottom_right window
// CHECK: PASS
func.func @bottom_right_window(%q: tensor<2x2x12x16xbf16>, %k: tensor<2x2x40x16xbf16>, %v: tensor<2x2x40x16xbf16>) -> (tensor<2x2x12x16xbf16>, tensor<2x2x12xf32>) {
  %o, %l = attn.attention ins(%q, %k, %v : tensor<2x2x12x16xbf16>, tensor<2x2x40x16xbf16>, tensor<2x2x40x16xbf16>) {causal = #attn.causal<bottom_right>, window = array<i64: 7, -1>} -> tensor<2x2x12x16xbf16>, tensor<2x2x12xf32>
  return %o, %l : tensor<2x2x12x16xbf16>, tensor<2x2x12xf32>
}

// A two-sided window without causal; right side only.
// CHECK: Lq=24 Lk=24 {{.*}} causal=none window
// CHECK: PASS
func.func @two_sided(%q: tensor<1x2x24x8xf16>, %k: tensor<1x2x24x8xf16>, %v: tensor<1x2x24x8xf16>) -> tensor<1x2x24x8xf16> {
  %o = attn.attention ins(%q, %k, %v : tensor<1x2x24x8xf16>, tensor<1x2x24x8xf16>, tensor<1x2x24x8xf16>) {window = array<i64: 3, 4>} -> tensor<1x2x24x8xf16>
  return %o : tensor<1x2x24x8xf16>
}
// CHECK: Lq=24 Lk=30 {{.*}} causal=none window
// CHECK: PASS
func.func @right_only(%q: tensor<1x1x24x8xf32>, %k: tensor<1x1x30x8xf32>, %v: tensor<1x1x30x8xf32>) -> (tensor<1x1x24x8xf32>, tensor<1x1x24xf32>) {
  %o, %l = attn.attention ins(%q, %k, %v : tensor<1x1x24x8xf32>, tensor<1x1x30x8xf32>, tensor<1x1x30x8xf32>) {window = array<i64: -1, 2>} -> tensor<1x1x24x8xf32>, tensor<1x1x24xf32>
  return %o, %l : tensor<1x1x24x8xf32>, tensor<1x1x24xf32>
}

// CHECK: f32 causal=none softcap
// CHECK: PASS
func.func @softcap(%q: tensor<2x2x16x32xf32>, %k: tensor<2x2x16x32xf32>, %v: tensor<2x2x16x32xf32>) -> (tensor<2x2x16x32xf32>, tensor<2x2x16xf32>) {
  %o, %l = attn.attention ins(%q, %k, %v : tensor<2x2x16x32xf32>, tensor<2x2x16x32xf32>, tensor<2x2x16x32xf32>) {softcap = 1.5 : f32, scale = 0.5 : f32} -> tensor<2x2x16x32xf32>, tensor<2x2x16xf32>
  return %o, %l : tensor<2x2x16x32xf32>, tensor<2x2x16xf32>
}

// CHECK: bf16 causal=top_left masked window softcap dropout
// CHECK: dropout keep mask: 0 mismatches
// CHECK: PASS
func.func @everything(%q: tensor<2x4x20x16xbf16>, %k: tensor<2x2x20x16xbf16>, %v: tensor<2x2x20x16xbf16>, %m: tensor<2x1x20x20xf32>, %s: i64, %off: i64) -> (tensor<2x4x20x16xbf16>, tensor<2x4x20xf32>) {
  %o, %l = attn.attention ins(%q, %k, %v : tensor<2x4x20x16xbf16>, tensor<2x2x20x16xbf16>, tensor<2x2x20x16xbf16>) mask(%m : tensor<2x1x20x20xf32>) rng(%s, %off) {causal = #attn.causal<top_left>, window = array<i64: 6, 0>, softcap = 20.0 : f32, dropout_p = 0.2 : f32} -> tensor<2x4x20x16xbf16>, tensor<2x4x20xf32>
  return %o, %l : tensor<2x4x20x16xbf16>, tensor<2x4x20xf32>
}
// CHECK: all 6 attention op(s) match
