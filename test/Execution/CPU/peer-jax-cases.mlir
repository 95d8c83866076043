// Extra cases for the peer check against jax.nn.dot_product_attention
// (scripts/jax_peer_check.py), mostly f32 so that the comparison is tight:
// window alignment and -1 (unbounded) sides, bottom-right causal with
// Lq < Lk and Lq > Lk (expressed for jax as a shifted window), GQA with
// per-head masks and biases, broadcast biases with fully -inf rows, an
// explicit scale, D != Dv. Here they also run as ordinary CPU tests.
// RUN: attn-cpu-run %s --seed=31 | FileCheck %s
// RUN: attn-cpu-run %s --seed=32 | FileCheck %s

// CHECK-LABEL: Lq=16 Lk=24 {{.*}} f32 causal=none window
// CHECK: PASS
func.func @window_rect_no_causal(%q: tensor<1x2x16x16xf32>, %k: tensor<1x2x24x16xf32>, %v: tensor<1x2x24x16xf32>) -> (tensor<1x2x16x16xf32>, tensor<1x2x16xf32>) {
  %o, %l = attn.attention ins(%q, %k, %v : tensor<1x2x16x16xf32>, tensor<1x2x24x16xf32>, tensor<1x2x24x16xf32>) {window = array<i64: 3, 2>} -> tensor<1x2x16x16xf32>, tensor<1x2x16xf32>
  return %o, %l : tensor<1x2x16x16xf32>, tensor<1x2x16xf32>
}

// Both sides unbounded: the same as no window.
// CHECK-LABEL: Lq=12 Lk=20 {{.*}} f32 causal=none window
// CHECK: PASS
func.func @window_unbounded(%q: tensor<1x2x12x16xf32>, %k: tensor<1x2x20x16xf32>, %v: tensor<1x2x20x16xf32>) -> (tensor<1x2x12x16xf32>, tensor<1x2x12xf32>) {
  %o, %l = attn.attention ins(%q, %k, %v : tensor<1x2x12x16xf32>, tensor<1x2x20x16xf32>, tensor<1x2x20x16xf32>) {window = array<i64: -1, -1>} -> tensor<1x2x12x16xf32>, tensor<1x2x12xf32>
  return %o, %l : tensor<1x2x12x16xf32>, tensor<1x2x12xf32>
}

// Left-only window, Lq > Lk: rows i >= Lk + 3 see no key.
// CHECK-LABEL: Lq=28 Lk=12 {{.*}} f32 causal=none window
// CHECK: rows with no allowed key: 26 of 56
// CHECK: PASS
func.func @window_left_only_more_queries(%q: tensor<1x2x28x16xf32>, %k: tensor<1x2x12x16xf32>, %v: tensor<1x2x12x16xf32>) -> (tensor<1x2x28x16xf32>, tensor<1x2x28xf32>) {
  %o, %l = attn.attention ins(%q, %k, %v : tensor<1x2x28x16xf32>, tensor<1x2x12x16xf32>, tensor<1x2x12x16xf32>) {window = array<i64: 3, -1>} -> tensor<1x2x28x16xf32>, tensor<1x2x28xf32>
  return %o, %l : tensor<1x2x28x16xf32>, tensor<1x2x28xf32>
}

// CHECK-LABEL: Lq=20 Lk=28 {{.*}} f32 causal=top_left window
// CHECK: PASS
func.func @top_left_window_rect(%q: tensor<2x4x20x16xf32>, %k: tensor<2x2x28x16xf32>, %v: tensor<2x2x28x16xf32>) -> (tensor<2x4x20x16xf32>, tensor<2x4x20xf32>) {
  %o, %l = attn.attention ins(%q, %k, %v : tensor<2x4x20x16xf32>, tensor<2x2x28x16xf32>, tensor<2x2x28x16xf32>) {causal = #attn.causal<top_left>, window = array<i64: 4, 2>} -> tensor<2x4x20x16xf32>, tensor<2x4x20xf32>
  return %o, %l : tensor<2x4x20x16xf32>, tensor<2x4x20xf32>
}

// CHECK-LABEL: Hq=4 Hkv=2 Lq=18 Lk=40 {{.*}} f32 causal=bottom_right
// CHECK: PASS
func.func @bottom_right_gqa(%q: tensor<2x4x18x32xf32>, %k: tensor<2x2x40x32xf32>, %v: tensor<2x2x40x32xf32>) -> (tensor<2x4x18x32xf32>, tensor<2x4x18xf32>) {
  %o, %l = attn.attention ins(%q, %k, %v : tensor<2x4x18x32xf32>, tensor<2x2x40x32xf32>, tensor<2x2x40x32xf32>) {causal = #attn.causal<bottom_right>} -> tensor<2x4x18x32xf32>, tensor<2x4x18xf32>
  return %o, %l : tensor<2x4x18x32xf32>, tensor<2x4x18xf32>
}

// Lq > Lk: the first Lq - Lk = 14 rows of each head see no key.
// CHECK-LABEL: Lq=24 Lk=10 {{.*}} f32 causal=bottom_right
// CHECK: rows with no allowed key: 56 of 96
// CHECK: PASS
func.func @bottom_right_more_queries_f32(%q: tensor<2x2x24x8xf32>, %k: tensor<2x2x10x8xf32>, %v: tensor<2x2x10x8xf32>) -> (tensor<2x2x24x8xf32>, tensor<2x2x24xf32>) {
  %o, %l = attn.attention ins(%q, %k, %v : tensor<2x2x24x8xf32>, tensor<2x2x10x8xf32>, tensor<2x2x10x8xf32>) {causal = #attn.causal<bottom_right>} -> tensor<2x2x24x8xf32>, tensor<2x2x24xf32>
  return %o, %l : tensor<2x2x24x8xf32>, tensor<2x2x24xf32>
}

// CHECK-LABEL: Lq=12 Lk=36 {{.*}} f32 causal=bottom_right window
// CHECK: PASS
func.func @bottom_right_window_two_sided(%q: tensor<1x2x12x16xf32>, %k: tensor<1x2x36x16xf32>, %v: tensor<1x2x36x16xf32>) -> (tensor<1x2x12x16xf32>, tensor<1x2x12xf32>) {
  %o, %l = attn.attention ins(%q, %k, %v : tensor<1x2x12x16xf32>, tensor<1x2x36x16xf32>, tensor<1x2x36x16xf32>) {causal = #attn.causal<bottom_right>, window = array<i64: 5, 3>} -> tensor<1x2x12x16xf32>, tensor<1x2x12xf32>
  return %o, %l : tensor<1x2x12x16xf32>, tensor<1x2x12xf32>
}

// Lq > Lk with a bottom-right window: the window's left edge is below key 0
// for the last rows.
// CHECK-LABEL: Lq=20 Lk=14 {{.*}} f32 causal=bottom_right window
// CHECK: PASS
func.func @bottom_right_window_more_queries(%q: tensor<1x2x20x16xf32>, %k: tensor<1x2x14x16xf32>, %v: tensor<1x2x14x16xf32>) -> (tensor<1x2x20x16xf32>, tensor<1x2x20xf32>) {
  %o, %l = attn.attention ins(%q, %k, %v : tensor<1x2x20x16xf32>, tensor<1x2x14x16xf32>, tensor<1x2x14x16xf32>) {causal = #attn.causal<bottom_right>, window = array<i64: 2, 0>} -> tensor<1x2x20x16xf32>, tensor<1x2x20xf32>
  return %o, %l : tensor<1x2x20x16xf32>, tensor<1x2x20xf32>
}

// The diagonal only: window [0, 0] without causal.
// CHECK-LABEL: Lq=10 Lk=16 {{.*}} f32 causal=none window
// CHECK: PASS
func.func @window_diagonal(%q: tensor<1x1x10x8xf32>, %k: tensor<1x1x16x8xf32>, %v: tensor<1x1x16x8xf32>) -> (tensor<1x1x10x8xf32>, tensor<1x1x10xf32>) {
  %o, %l = attn.attention ins(%q, %k, %v : tensor<1x1x10x8xf32>, tensor<1x1x16x8xf32>, tensor<1x1x16x8xf32>) {window = array<i64: 0, 0>} -> tensor<1x1x10x8xf32>, tensor<1x1x10xf32>
  return %o, %l : tensor<1x1x10x8xf32>, tensor<1x1x10xf32>
}

// A per-query-head boolean mask with GQA: jax must pair query head h with
// kv head h / G and mask head h.
// CHECK-LABEL: Hq=6 Hkv=2 {{.*}} f32 causal=none masked
// CHECK: PASS
func.func @gqa_bool_per_head(%q: tensor<2x6x14x16xf32>, %k: tensor<2x2x22x16xf32>, %v: tensor<2x2x22x16xf32>, %m: tensor<2x6x14x22xi1>) -> (tensor<2x6x14x16xf32>, tensor<2x6x14xf32>) {
  %o, %l = attn.attention ins(%q, %k, %v : tensor<2x6x14x16xf32>, tensor<2x2x22x16xf32>, tensor<2x2x22x16xf32>) mask(%m : tensor<2x6x14x22xi1>) -> tensor<2x6x14x16xf32>, tensor<2x6x14xf32>
  return %o, %l : tensor<2x6x14x16xf32>, tensor<2x6x14xf32>
}

// CHECK-LABEL: Hq=4 Hkv=1 {{.*}} f32 causal=top_left masked
// CHECK: PASS
func.func @mqa_bias_per_head_causal(%q: tensor<1x4x16x16xf32>, %k: tensor<1x1x16x16xf32>, %v: tensor<1x1x16x16xf32>, %m: tensor<1x4x16x16xf32>) -> (tensor<1x4x16x16xf32>, tensor<1x4x16xf32>) {
  %o, %l = attn.attention ins(%q, %k, %v : tensor<1x4x16x16xf32>, tensor<1x1x16x16xf32>, tensor<1x1x16x16xf32>) mask(%m : tensor<1x4x16x16xf32>) {causal = #attn.causal<top_left>} -> tensor<1x4x16x16xf32>, tensor<1x4x16xf32>
  return %o, %l : tensor<1x4x16x16xf32>, tensor<1x4x16xf32>
}

// A bias per (batch, query) broadcast over heads and keys: 10% of its rows
// are -inf, so whole query rows are fully excluded by the bias alone.
// CHECK-LABEL: B=2 Hq=2 {{.*}} f32 causal=none masked
// CHECK: PASS
func.func @bias_row_broadcast(%q: tensor<2x2x30x8xf32>, %k: tensor<2x2x12x8xf32>, %v: tensor<2x2x12x8xf32>, %m: tensor<2x1x30x1xf32>) -> (tensor<2x2x30x8xf32>, tensor<2x2x30xf32>) {
  %o, %l = attn.attention ins(%q, %k, %v : tensor<2x2x30x8xf32>, tensor<2x2x12x8xf32>, tensor<2x2x12x8xf32>) mask(%m : tensor<2x1x30x1xf32>) -> tensor<2x2x30x8xf32>, tensor<2x2x30xf32>
  return %o, %l : tensor<2x2x30x8xf32>, tensor<2x2x30xf32>
}

// A bias with -inf entries and a bottom-right causal mask (Lq < Lk).
// CHECK-LABEL: Lq=10 Lk=18 {{.*}} f32 causal=bottom_right masked
// CHECK: PASS
func.func @bias_bottom_right(%q: tensor<2x2x10x16xf32>, %k: tensor<2x2x18x16xf32>, %v: tensor<2x2x18x16xf32>, %m: tensor<2x2x10x18xf32>) -> (tensor<2x2x10x16xf32>, tensor<2x2x10xf32>) {
  %o, %l = attn.attention ins(%q, %k, %v : tensor<2x2x10x16xf32>, tensor<2x2x18x16xf32>, tensor<2x2x18x16xf32>) mask(%m : tensor<2x2x10x18xf32>) {causal = #attn.causal<bottom_right>} -> tensor<2x2x10x16xf32>, tensor<2x2x10xf32>
  return %o, %l : tensor<2x2x10x16xf32>, tensor<2x2x10xf32>
}

// A boolean mask with a window and top-left causal.
// CHECK-LABEL: Lq=24 Lk=24 {{.*}} f32 causal=top_left masked window
// CHECK: PASS
func.func @bool_causal_window(%q: tensor<1x2x24x16xf32>, %k: tensor<1x2x24x16xf32>, %v: tensor<1x2x24x16xf32>, %m: tensor<1x1x24x24xi1>) -> (tensor<1x2x24x16xf32>, tensor<1x2x24xf32>) {
  %o, %l = attn.attention ins(%q, %k, %v : tensor<1x2x24x16xf32>, tensor<1x2x24x16xf32>, tensor<1x2x24x16xf32>) mask(%m : tensor<1x1x24x24xi1>) {causal = #attn.causal<top_left>, window = array<i64: 6, 0>} -> tensor<1x2x24x16xf32>, tensor<1x2x24xf32>
  return %o, %l : tensor<1x2x24x16xf32>, tensor<1x2x24xf32>
}

// CHECK-LABEL: Lq=9 Lk=19 D=64 Dv=64 f32
// CHECK: PASS
func.func @explicit_scale(%q: tensor<1x2x9x64xf32>, %k: tensor<1x2x19x64xf32>, %v: tensor<1x2x19x64xf32>) -> (tensor<1x2x9x64xf32>, tensor<1x2x9xf32>) {
  %o, %l = attn.attention ins(%q, %k, %v : tensor<1x2x9x64xf32>, tensor<1x2x19x64xf32>, tensor<1x2x19x64xf32>) {scale = 0.3 : f32} -> tensor<1x2x9x64xf32>, tensor<1x2x9xf32>
  return %o, %l : tensor<1x2x9x64xf32>, tensor<1x2x9xf32>
}

// CHECK-LABEL: Hq=4 Hkv=2 Lq=11 Lk=23 D=16 Dv=40 f32
// CHECK: PASS
func.func @d_ne_dv_gqa(%q: tensor<1x4x11x16xf32>, %k: tensor<1x2x23x16xf32>, %v: tensor<1x2x23x40xf32>) -> (tensor<1x4x11x40xf32>, tensor<1x4x11xf32>) {
  %o, %l = attn.attention ins(%q, %k, %v : tensor<1x4x11x16xf32>, tensor<1x2x23x16xf32>, tensor<1x2x23x40xf32>) {causal = #attn.causal<bottom_right>} -> tensor<1x4x11x40xf32>, tensor<1x4x11xf32>
  return %o, %l : tensor<1x4x11x40xf32>, tensor<1x4x11xf32>
}

// CHECK-LABEL: Hq=8 Hkv=2 Lq=1 Lk=77 D=32 Dv=32 f32
// CHECK: PASS
func.func @decode_f32(%q: tensor<2x8x1x32xf32>, %k: tensor<2x2x77x32xf32>, %v: tensor<2x2x77x32xf32>) -> (tensor<2x8x1x32xf32>, tensor<2x8x1xf32>) {
  %o, %l = attn.attention ins(%q, %k, %v : tensor<2x8x1x32xf32>, tensor<2x2x77x32xf32>, tensor<2x2x77x32xf32>) {causal = #attn.causal<bottom_right>, window = array<i64: 31, 0>} -> tensor<2x8x1x32xf32>, tensor<2x8x1xf32>
  return %o, %l : tensor<2x8x1x32xf32>, tensor<2x8x1xf32>
}

// A packed batch (attn.varlen_attention): the peer check compares each
// sequence as its own batch-1 problem; cross lengths per sequence make the
// bottom-right diagonal and the window differ from sequence to sequence.
// CHECK-LABEL: B=4 Tq=45 Tk=70 Hq=4 Hkv=2 D=16 Dv=24 f32 causal=bottom_right window
// CHECK: PASS
func.func @varlen_cross_window_gqa(%q: tensor<45x4x16xf32>, %k: tensor<70x2x16xf32>, %v: tensor<70x2x24xf32>, %cq: tensor<5xi32>, %ck: tensor<5xi32>) -> (tensor<45x4x24xf32>, tensor<4x45xf32>) {
  %o, %l = attn.varlen_attention ins(%q, %k, %v : tensor<45x4x16xf32>, tensor<70x2x16xf32>, tensor<70x2x24xf32>) seqlens(%cq, %ck : tensor<5xi32>, tensor<5xi32>) {causal = #attn.causal<bottom_right>, window = array<i64: 7, 3>} -> tensor<45x4x24xf32>, tensor<4x45xf32>
  return %o, %l : tensor<45x4x24xf32>, tensor<4x45xf32>
}

// CHECK: all 18 attention op(s) match the float64 reference
