// Gradient cases for the peer check against jax (scripts/jax_peer_check.py
// --ops=grad, ctest jax-peer-check-grad): jax's float64 VJP of
// jax.nn.dot_product_attention against our float64 gradient reference and the
// compiled dQ, dK, dV. Mostly f32, so that the O and lse given to the op
// (the float64 forward rounded to the op's types) are close to the exact
// ones. Everything jax can express: plain, explicit and negative scale,
// causal top-left and bottom-right (Lq = Lk, Lq < Lk, Lq > Lk with empty
// rows), windows (two-sided, one-sided, unbounded, with causal), GQA/MQA,
// boolean masks and additive masks (with -inf entries and -inf rows) in
// several broadcast shapes, D != Dv, Lq = 1, and a few bf16/f16 ops. No
// dropout and no softcap: jax has neither (gradients.mlir has them, and the
// peer check reports them as skipped). Here they also run as CPU tests.
// RUN: attn-cpu-run %s --seed=41 | FileCheck %s
// RUN: attn-cpu-run %s --seed=42 --lowering="attn-tile{block-q=8 block-kv=12}" | FileCheck %s
// RUN: attn-cpu-run %s --seed=43 --lowering="attn-tile" | FileCheck %s

// CHECK-NOT: FAIL

// No attribute: scale 1/sqrt(D).
// CHECK-LABEL: attn.attention_grad at {{.*}}
// CHECK-NEXT: B=2 Hq=2 Hkv=2 Lq=24 Lk=24 D=32 Dv=32 f32
// CHECK: PASS
func.func @plain(%q: tensor<2x2x24x32xf32>, %k: tensor<2x2x24x32xf32>, %v: tensor<2x2x24x32xf32>, %o: tensor<2x2x24x32xf32>, %lse: tensor<2x2x24xf32>, %do: tensor<2x2x24x32xf32>) -> (tensor<2x2x24x32xf32>, tensor<2x2x24x32xf32>, tensor<2x2x24x32xf32>) {
  %dq, %dk, %dv = attn.attention_grad ins(%q, %k, %v : tensor<2x2x24x32xf32>, tensor<2x2x24x32xf32>, tensor<2x2x24x32xf32>) forward(%o, %lse : tensor<2x2x24x32xf32>, tensor<2x2x24xf32>) grad_output(%do : tensor<2x2x24x32xf32>) -> tensor<2x2x24x32xf32>, tensor<2x2x24x32xf32>, tensor<2x2x24x32xf32>
  return %dq, %dk, %dv : tensor<2x2x24x32xf32>, tensor<2x2x24x32xf32>, tensor<2x2x24x32xf32>
}

// An explicit scale, Lq < Lk.
// CHECK-LABEL: attn.attention_grad at {{.*}}
// CHECK-NEXT: B=1 Hq=2 Hkv=2 Lq=20 Lk=28 D=16 Dv=16 f32
// CHECK: PASS
func.func @scale_rect(%q: tensor<1x2x20x16xf32>, %k: tensor<1x2x28x16xf32>, %v: tensor<1x2x28x16xf32>, %o: tensor<1x2x20x16xf32>, %lse: tensor<1x2x20xf32>, %do: tensor<1x2x20x16xf32>) -> (tensor<1x2x20x16xf32>, tensor<1x2x28x16xf32>, tensor<1x2x28x16xf32>) {
  %dq, %dk, %dv = attn.attention_grad ins(%q, %k, %v : tensor<1x2x20x16xf32>, tensor<1x2x28x16xf32>, tensor<1x2x28x16xf32>) forward(%o, %lse : tensor<1x2x20x16xf32>, tensor<1x2x20xf32>) grad_output(%do : tensor<1x2x20x16xf32>) {scale = 0.3 : f32} -> tensor<1x2x20x16xf32>, tensor<1x2x28x16xf32>, tensor<1x2x28x16xf32>
  return %dq, %dk, %dv : tensor<1x2x20x16xf32>, tensor<1x2x28x16xf32>, tensor<1x2x28x16xf32>
}

// A negative scale.
// CHECK-LABEL: attn.attention_grad at {{.*}}
// CHECK-NEXT: B=1 Hq=2 Hkv=2 Lq=16 Lk=16 D=8 Dv=8 f32
// CHECK: PASS
func.func @negative_scale(%q: tensor<1x2x16x8xf32>, %k: tensor<1x2x16x8xf32>, %v: tensor<1x2x16x8xf32>, %o: tensor<1x2x16x8xf32>, %lse: tensor<1x2x16xf32>, %do: tensor<1x2x16x8xf32>) -> (tensor<1x2x16x8xf32>, tensor<1x2x16x8xf32>, tensor<1x2x16x8xf32>) {
  %dq, %dk, %dv = attn.attention_grad ins(%q, %k, %v : tensor<1x2x16x8xf32>, tensor<1x2x16x8xf32>, tensor<1x2x16x8xf32>) forward(%o, %lse : tensor<1x2x16x8xf32>, tensor<1x2x16xf32>) grad_output(%do : tensor<1x2x16x8xf32>) {scale = -0.5 : f32} -> tensor<1x2x16x8xf32>, tensor<1x2x16x8xf32>, tensor<1x2x16x8xf32>
  return %dq, %dk, %dv : tensor<1x2x16x8xf32>, tensor<1x2x16x8xf32>, tensor<1x2x16x8xf32>
}

// Causal, Lq = Lk (jax: is_causal).
// CHECK-LABEL: attn.attention_grad at {{.*}}
// CHECK-NEXT: B=1 Hq=2 Hkv=2 Lq=32 Lk=32 D=16 Dv=16 f32
// CHECK: PASS
func.func @top_left_square(%q: tensor<1x2x32x16xf32>, %k: tensor<1x2x32x16xf32>, %v: tensor<1x2x32x16xf32>, %o: tensor<1x2x32x16xf32>, %lse: tensor<1x2x32xf32>, %do: tensor<1x2x32x16xf32>) -> (tensor<1x2x32x16xf32>, tensor<1x2x32x16xf32>, tensor<1x2x32x16xf32>) {
  %dq, %dk, %dv = attn.attention_grad ins(%q, %k, %v : tensor<1x2x32x16xf32>, tensor<1x2x32x16xf32>, tensor<1x2x32x16xf32>) forward(%o, %lse : tensor<1x2x32x16xf32>, tensor<1x2x32xf32>) grad_output(%do : tensor<1x2x32x16xf32>) {causal = #attn.causal<top_left>} -> tensor<1x2x32x16xf32>, tensor<1x2x32x16xf32>, tensor<1x2x32x16xf32>
  return %dq, %dk, %dv : tensor<1x2x32x16xf32>, tensor<1x2x32x16xf32>, tensor<1x2x32x16xf32>
}

// Causal top-left, GQA, Lq < Lk.
// CHECK-LABEL: attn.attention_grad at {{.*}}
// CHECK-NEXT: B=2 Hq=4 Hkv=2 Lq=20 Lk=36 D=16 Dv=16 f32
// CHECK: PASS
func.func @top_left_gqa_more_keys(%q: tensor<2x4x20x16xf32>, %k: tensor<2x2x36x16xf32>, %v: tensor<2x2x36x16xf32>, %o: tensor<2x4x20x16xf32>, %lse: tensor<2x4x20xf32>, %do: tensor<2x4x20x16xf32>) -> (tensor<2x4x20x16xf32>, tensor<2x2x36x16xf32>, tensor<2x2x36x16xf32>) {
  %dq, %dk, %dv = attn.attention_grad ins(%q, %k, %v : tensor<2x4x20x16xf32>, tensor<2x2x36x16xf32>, tensor<2x2x36x16xf32>) forward(%o, %lse : tensor<2x4x20x16xf32>, tensor<2x4x20xf32>) grad_output(%do : tensor<2x4x20x16xf32>) {causal = #attn.causal<top_left>} -> tensor<2x4x20x16xf32>, tensor<2x2x36x16xf32>, tensor<2x2x36x16xf32>
  return %dq, %dk, %dv : tensor<2x4x20x16xf32>, tensor<2x2x36x16xf32>, tensor<2x2x36x16xf32>
}

// Causal top-left, MQA, Lq > Lk.
// CHECK-LABEL: attn.attention_grad at {{.*}}
// CHECK-NEXT: B=1 Hq=3 Hkv=1 Lq=36 Lk=20 D=16 Dv=16 f32
// CHECK: PASS
func.func @top_left_mqa_more_queries(%q: tensor<1x3x36x16xf32>, %k: tensor<1x1x20x16xf32>, %v: tensor<1x1x20x16xf32>, %o: tensor<1x3x36x16xf32>, %lse: tensor<1x3x36xf32>, %do: tensor<1x3x36x16xf32>) -> (tensor<1x3x36x16xf32>, tensor<1x1x20x16xf32>, tensor<1x1x20x16xf32>) {
  %dq, %dk, %dv = attn.attention_grad ins(%q, %k, %v : tensor<1x3x36x16xf32>, tensor<1x1x20x16xf32>, tensor<1x1x20x16xf32>) forward(%o, %lse : tensor<1x3x36x16xf32>, tensor<1x3x36xf32>) grad_output(%do : tensor<1x3x36x16xf32>) {causal = #attn.causal<top_left>} -> tensor<1x3x36x16xf32>, tensor<1x1x20x16xf32>, tensor<1x1x20x16xf32>
  return %dq, %dk, %dv : tensor<1x3x36x16xf32>, tensor<1x1x20x16xf32>, tensor<1x1x20x16xf32>
}

// Bottom-right with Lq = Lk: the same as top-left.
// CHECK-LABEL: attn.attention_grad at {{.*}}
// CHECK-NEXT: B=1 Hq=2 Hkv=2 Lq=24 Lk=24 D=16 Dv=16 f32
// CHECK: PASS
func.func @bottom_right_square(%q: tensor<1x2x24x16xf32>, %k: tensor<1x2x24x16xf32>, %v: tensor<1x2x24x16xf32>, %o: tensor<1x2x24x16xf32>, %lse: tensor<1x2x24xf32>, %do: tensor<1x2x24x16xf32>) -> (tensor<1x2x24x16xf32>, tensor<1x2x24x16xf32>, tensor<1x2x24x16xf32>) {
  %dq, %dk, %dv = attn.attention_grad ins(%q, %k, %v : tensor<1x2x24x16xf32>, tensor<1x2x24x16xf32>, tensor<1x2x24x16xf32>) forward(%o, %lse : tensor<1x2x24x16xf32>, tensor<1x2x24xf32>) grad_output(%do : tensor<1x2x24x16xf32>) {causal = #attn.causal<bottom_right>} -> tensor<1x2x24x16xf32>, tensor<1x2x24x16xf32>, tensor<1x2x24x16xf32>
  return %dq, %dk, %dv : tensor<1x2x24x16xf32>, tensor<1x2x24x16xf32>, tensor<1x2x24x16xf32>
}

// Bottom-right, GQA, Lq < Lk (jax: a shifted window).
// CHECK-LABEL: attn.attention_grad at {{.*}}
// CHECK-NEXT: B=2 Hq=4 Hkv=2 Lq=18 Lk=40 D=32 Dv=32 f32
// CHECK: PASS
func.func @bottom_right_gqa_more_keys(%q: tensor<2x4x18x32xf32>, %k: tensor<2x2x40x32xf32>, %v: tensor<2x2x40x32xf32>, %o: tensor<2x4x18x32xf32>, %lse: tensor<2x4x18xf32>, %do: tensor<2x4x18x32xf32>) -> (tensor<2x4x18x32xf32>, tensor<2x2x40x32xf32>, tensor<2x2x40x32xf32>) {
  %dq, %dk, %dv = attn.attention_grad ins(%q, %k, %v : tensor<2x4x18x32xf32>, tensor<2x2x40x32xf32>, tensor<2x2x40x32xf32>) forward(%o, %lse : tensor<2x4x18x32xf32>, tensor<2x4x18xf32>) grad_output(%do : tensor<2x4x18x32xf32>) {causal = #attn.causal<bottom_right>} -> tensor<2x4x18x32xf32>, tensor<2x2x40x32xf32>, tensor<2x2x40x32xf32>
  return %dq, %dk, %dv : tensor<2x4x18x32xf32>, tensor<2x2x40x32xf32>, tensor<2x2x40x32xf32>
}

// Bottom-right, MQA, Lq > Lk: the first 14 rows of each head see no key.
// CHECK-LABEL: attn.attention_grad at {{.*}}
// CHECK-NEXT: B=2 Hq=2 Hkv=1 Lq=24 Lk=10 D=8 Dv=8 f32
// CHECK: PASS
func.func @bottom_right_more_queries(%q: tensor<2x2x24x8xf32>, %k: tensor<2x1x10x8xf32>, %v: tensor<2x1x10x8xf32>, %o: tensor<2x2x24x8xf32>, %lse: tensor<2x2x24xf32>, %do: tensor<2x2x24x8xf32>) -> (tensor<2x2x24x8xf32>, tensor<2x1x10x8xf32>, tensor<2x1x10x8xf32>) {
  %dq, %dk, %dv = attn.attention_grad ins(%q, %k, %v : tensor<2x2x24x8xf32>, tensor<2x1x10x8xf32>, tensor<2x1x10x8xf32>) forward(%o, %lse : tensor<2x2x24x8xf32>, tensor<2x2x24xf32>) grad_output(%do : tensor<2x2x24x8xf32>) {causal = #attn.causal<bottom_right>} -> tensor<2x2x24x8xf32>, tensor<2x1x10x8xf32>, tensor<2x1x10x8xf32>
  return %dq, %dk, %dv : tensor<2x2x24x8xf32>, tensor<2x1x10x8xf32>, tensor<2x1x10x8xf32>
}

// A two-sided window without causal.
// CHECK-LABEL: attn.attention_grad at {{.*}}
// CHECK-NEXT: B=1 Hq=2 Hkv=2 Lq=16 Lk=24 D=16 Dv=16 f32
// CHECK: PASS
func.func @window_two_sided(%q: tensor<1x2x16x16xf32>, %k: tensor<1x2x24x16xf32>, %v: tensor<1x2x24x16xf32>, %o: tensor<1x2x16x16xf32>, %lse: tensor<1x2x16xf32>, %do: tensor<1x2x16x16xf32>) -> (tensor<1x2x16x16xf32>, tensor<1x2x24x16xf32>, tensor<1x2x24x16xf32>) {
  %dq, %dk, %dv = attn.attention_grad ins(%q, %k, %v : tensor<1x2x16x16xf32>, tensor<1x2x24x16xf32>, tensor<1x2x24x16xf32>) forward(%o, %lse : tensor<1x2x16x16xf32>, tensor<1x2x16xf32>) grad_output(%do : tensor<1x2x16x16xf32>) {window = array<i64: 3, 2>} -> tensor<1x2x16x16xf32>, tensor<1x2x24x16xf32>, tensor<1x2x24x16xf32>
  return %dq, %dk, %dv : tensor<1x2x16x16xf32>, tensor<1x2x24x16xf32>, tensor<1x2x24x16xf32>
}

// Left-only window, Lq > Lk: rows i >= Lk + 3 see no key.
// CHECK-LABEL: attn.attention_grad at {{.*}}
// CHECK-NEXT: B=1 Hq=2 Hkv=2 Lq=28 Lk=12 D=16 Dv=16 f32
// CHECK: PASS
func.func @window_left_only_more_queries(%q: tensor<1x2x28x16xf32>, %k: tensor<1x2x12x16xf32>, %v: tensor<1x2x12x16xf32>, %o: tensor<1x2x28x16xf32>, %lse: tensor<1x2x28xf32>, %do: tensor<1x2x28x16xf32>) -> (tensor<1x2x28x16xf32>, tensor<1x2x12x16xf32>, tensor<1x2x12x16xf32>) {
  %dq, %dk, %dv = attn.attention_grad ins(%q, %k, %v : tensor<1x2x28x16xf32>, tensor<1x2x12x16xf32>, tensor<1x2x12x16xf32>) forward(%o, %lse : tensor<1x2x28x16xf32>, tensor<1x2x28xf32>) grad_output(%do : tensor<1x2x28x16xf32>) {window = array<i64: 3, -1>} -> tensor<1x2x28x16xf32>, tensor<1x2x12x16xf32>, tensor<1x2x12x16xf32>
  return %dq, %dk, %dv : tensor<1x2x28x16xf32>, tensor<1x2x12x16xf32>, tensor<1x2x12x16xf32>
}

// Right-only window.
// CHECK-LABEL: attn.attention_grad at {{.*}}
// CHECK-NEXT: B=1 Hq=2 Hkv=2 Lq=20 Lk=20 D=16 Dv=16 f32
// CHECK: PASS
func.func @window_right_only(%q: tensor<1x2x20x16xf32>, %k: tensor<1x2x20x16xf32>, %v: tensor<1x2x20x16xf32>, %o: tensor<1x2x20x16xf32>, %lse: tensor<1x2x20xf32>, %do: tensor<1x2x20x16xf32>) -> (tensor<1x2x20x16xf32>, tensor<1x2x20x16xf32>, tensor<1x2x20x16xf32>) {
  %dq, %dk, %dv = attn.attention_grad ins(%q, %k, %v : tensor<1x2x20x16xf32>, tensor<1x2x20x16xf32>, tensor<1x2x20x16xf32>) forward(%o, %lse : tensor<1x2x20x16xf32>, tensor<1x2x20xf32>) grad_output(%do : tensor<1x2x20x16xf32>) {window = array<i64: -1, 2>} -> tensor<1x2x20x16xf32>, tensor<1x2x20x16xf32>, tensor<1x2x20x16xf32>
  return %dq, %dk, %dv : tensor<1x2x20x16xf32>, tensor<1x2x20x16xf32>, tensor<1x2x20x16xf32>
}

// Both sides unbounded: no window.
// CHECK-LABEL: attn.attention_grad at {{.*}}
// CHECK-NEXT: B=1 Hq=2 Hkv=2 Lq=12 Lk=20 D=16 Dv=16 f32
// CHECK: PASS
func.func @window_unbounded(%q: tensor<1x2x12x16xf32>, %k: tensor<1x2x20x16xf32>, %v: tensor<1x2x20x16xf32>, %o: tensor<1x2x12x16xf32>, %lse: tensor<1x2x12xf32>, %do: tensor<1x2x12x16xf32>) -> (tensor<1x2x12x16xf32>, tensor<1x2x20x16xf32>, tensor<1x2x20x16xf32>) {
  %dq, %dk, %dv = attn.attention_grad ins(%q, %k, %v : tensor<1x2x12x16xf32>, tensor<1x2x20x16xf32>, tensor<1x2x20x16xf32>) forward(%o, %lse : tensor<1x2x12x16xf32>, tensor<1x2x12xf32>) grad_output(%do : tensor<1x2x12x16xf32>) {window = array<i64: -1, -1>} -> tensor<1x2x12x16xf32>, tensor<1x2x20x16xf32>, tensor<1x2x20x16xf32>
  return %dq, %dk, %dv : tensor<1x2x12x16xf32>, tensor<1x2x20x16xf32>, tensor<1x2x20x16xf32>
}

// Causal top-left and a window, GQA.
// CHECK-LABEL: attn.attention_grad at {{.*}}
// CHECK-NEXT: B=2 Hq=4 Hkv=2 Lq=20 Lk=28 D=16 Dv=16 f32
// CHECK: PASS
func.func @top_left_window_gqa(%q: tensor<2x4x20x16xf32>, %k: tensor<2x2x28x16xf32>, %v: tensor<2x2x28x16xf32>, %o: tensor<2x4x20x16xf32>, %lse: tensor<2x4x20xf32>, %do: tensor<2x4x20x16xf32>) -> (tensor<2x4x20x16xf32>, tensor<2x2x28x16xf32>, tensor<2x2x28x16xf32>) {
  %dq, %dk, %dv = attn.attention_grad ins(%q, %k, %v : tensor<2x4x20x16xf32>, tensor<2x2x28x16xf32>, tensor<2x2x28x16xf32>) forward(%o, %lse : tensor<2x4x20x16xf32>, tensor<2x4x20xf32>) grad_output(%do : tensor<2x4x20x16xf32>) {causal = #attn.causal<top_left>, window = array<i64: 4, 2>} -> tensor<2x4x20x16xf32>, tensor<2x2x28x16xf32>, tensor<2x2x28x16xf32>
  return %dq, %dk, %dv : tensor<2x4x20x16xf32>, tensor<2x2x28x16xf32>, tensor<2x2x28x16xf32>
}

// Causal bottom-right and a window, Lq < Lk.
// CHECK-LABEL: attn.attention_grad at {{.*}}
// CHECK-NEXT: B=1 Hq=2 Hkv=2 Lq=12 Lk=36 D=16 Dv=16 f32
// CHECK: PASS
func.func @bottom_right_window(%q: tensor<1x2x12x16xf32>, %k: tensor<1x2x36x16xf32>, %v: tensor<1x2x36x16xf32>, %o: tensor<1x2x12x16xf32>, %lse: tensor<1x2x12xf32>, %do: tensor<1x2x12x16xf32>) -> (tensor<1x2x12x16xf32>, tensor<1x2x36x16xf32>, tensor<1x2x36x16xf32>) {
  %dq, %dk, %dv = attn.attention_grad ins(%q, %k, %v : tensor<1x2x12x16xf32>, tensor<1x2x36x16xf32>, tensor<1x2x36x16xf32>) forward(%o, %lse : tensor<1x2x12x16xf32>, tensor<1x2x12xf32>) grad_output(%do : tensor<1x2x12x16xf32>) {causal = #attn.causal<bottom_right>, window = array<i64: 5, 3>} -> tensor<1x2x12x16xf32>, tensor<1x2x36x16xf32>, tensor<1x2x36x16xf32>
  return %dq, %dk, %dv : tensor<1x2x12x16xf32>, tensor<1x2x36x16xf32>, tensor<1x2x36x16xf32>
}

// Causal bottom-right and a window, Lq > Lk.
// CHECK-LABEL: attn.attention_grad at {{.*}}
// CHECK-NEXT: B=1 Hq=2 Hkv=2 Lq=20 Lk=14 D=16 Dv=16 f32
// CHECK: PASS
func.func @bottom_right_window_more_queries(%q: tensor<1x2x20x16xf32>, %k: tensor<1x2x14x16xf32>, %v: tensor<1x2x14x16xf32>, %o: tensor<1x2x20x16xf32>, %lse: tensor<1x2x20xf32>, %do: tensor<1x2x20x16xf32>) -> (tensor<1x2x20x16xf32>, tensor<1x2x14x16xf32>, tensor<1x2x14x16xf32>) {
  %dq, %dk, %dv = attn.attention_grad ins(%q, %k, %v : tensor<1x2x20x16xf32>, tensor<1x2x14x16xf32>, tensor<1x2x14x16xf32>) forward(%o, %lse : tensor<1x2x20x16xf32>, tensor<1x2x20xf32>) grad_output(%do : tensor<1x2x20x16xf32>) {causal = #attn.causal<bottom_right>, window = array<i64: 2, 0>} -> tensor<1x2x20x16xf32>, tensor<1x2x14x16xf32>, tensor<1x2x14x16xf32>
  return %dq, %dk, %dv : tensor<1x2x20x16xf32>, tensor<1x2x14x16xf32>, tensor<1x2x14x16xf32>
}

// Boolean mask per head, GQA, with fully masked rows.
// CHECK-LABEL: attn.attention_grad at {{.*}}
// CHECK-NEXT: B=2 Hq=4 Hkv=2 Lq=16 Lk=24 D=16 Dv=16 f32
// CHECK: PASS
func.func @bool_mask_per_head_gqa(%q: tensor<2x4x16x16xf32>, %k: tensor<2x2x24x16xf32>, %v: tensor<2x2x24x16xf32>, %o: tensor<2x4x16x16xf32>, %lse: tensor<2x4x16xf32>, %do: tensor<2x4x16x16xf32>, %m: tensor<2x4x16x24xi1>) -> (tensor<2x4x16x16xf32>, tensor<2x2x24x16xf32>, tensor<2x2x24x16xf32>) {
  %dq, %dk, %dv = attn.attention_grad ins(%q, %k, %v : tensor<2x4x16x16xf32>, tensor<2x2x24x16xf32>, tensor<2x2x24x16xf32>) forward(%o, %lse : tensor<2x4x16x16xf32>, tensor<2x4x16xf32>) grad_output(%do : tensor<2x4x16x16xf32>) mask(%m : tensor<2x4x16x24xi1>) -> tensor<2x4x16x16xf32>, tensor<2x2x24x16xf32>, tensor<2x2x24x16xf32>
  return %dq, %dk, %dv : tensor<2x4x16x16xf32>, tensor<2x2x24x16xf32>, tensor<2x2x24x16xf32>
}

// Boolean mask broadcast over batch and heads, and causal.
// CHECK-LABEL: attn.attention_grad at {{.*}}
// CHECK-NEXT: B=2 Hq=2 Hkv=2 Lq=20 Lk=20 D=16 Dv=16 f32
// CHECK: PASS
func.func @bool_mask_broadcast_causal(%q: tensor<2x2x20x16xf32>, %k: tensor<2x2x20x16xf32>, %v: tensor<2x2x20x16xf32>, %o: tensor<2x2x20x16xf32>, %lse: tensor<2x2x20xf32>, %do: tensor<2x2x20x16xf32>, %m: tensor<1x1x20x20xi1>) -> (tensor<2x2x20x16xf32>, tensor<2x2x20x16xf32>, tensor<2x2x20x16xf32>) {
  %dq, %dk, %dv = attn.attention_grad ins(%q, %k, %v : tensor<2x2x20x16xf32>, tensor<2x2x20x16xf32>, tensor<2x2x20x16xf32>) forward(%o, %lse : tensor<2x2x20x16xf32>, tensor<2x2x20xf32>) grad_output(%do : tensor<2x2x20x16xf32>) mask(%m : tensor<1x1x20x20xi1>) {causal = #attn.causal<top_left>} -> tensor<2x2x20x16xf32>, tensor<2x2x20x16xf32>, tensor<2x2x20x16xf32>
  return %dq, %dk, %dv : tensor<2x2x20x16xf32>, tensor<2x2x20x16xf32>, tensor<2x2x20x16xf32>
}

// Boolean key-padding mask [B,1,1,Lk] and a window.
// CHECK-LABEL: attn.attention_grad at {{.*}}
// CHECK-NEXT: B=2 Hq=2 Hkv=2 Lq=16 Lk=24 D=16 Dv=16 f32
// CHECK: PASS
func.func @bool_mask_keys_window(%q: tensor<2x2x16x16xf32>, %k: tensor<2x2x24x16xf32>, %v: tensor<2x2x24x16xf32>, %o: tensor<2x2x16x16xf32>, %lse: tensor<2x2x16xf32>, %do: tensor<2x2x16x16xf32>, %m: tensor<2x1x1x24xi1>) -> (tensor<2x2x16x16xf32>, tensor<2x2x24x16xf32>, tensor<2x2x24x16xf32>) {
  %dq, %dk, %dv = attn.attention_grad ins(%q, %k, %v : tensor<2x2x16x16xf32>, tensor<2x2x24x16xf32>, tensor<2x2x24x16xf32>) forward(%o, %lse : tensor<2x2x16x16xf32>, tensor<2x2x16xf32>) grad_output(%do : tensor<2x2x16x16xf32>) mask(%m : tensor<2x1x1x24xi1>) {window = array<i64: 6, 6>} -> tensor<2x2x16x16xf32>, tensor<2x2x24x16xf32>, tensor<2x2x24x16xf32>
  return %dq, %dk, %dv : tensor<2x2x16x16xf32>, tensor<2x2x24x16xf32>, tensor<2x2x24x16xf32>
}

// Additive mask per head with -inf entries and rows, GQA, D != Dv.
// CHECK-LABEL: attn.attention_grad at {{.*}}
// CHECK-NEXT: B=1 Hq=4 Hkv=2 Lq=12 Lk=19 D=8 Dv=12 f32
// CHECK: PASS
func.func @bias_per_head_gqa_dv(%q: tensor<1x4x12x8xf32>, %k: tensor<1x2x19x8xf32>, %v: tensor<1x2x19x12xf32>, %o: tensor<1x4x12x12xf32>, %lse: tensor<1x4x12xf32>, %do: tensor<1x4x12x12xf32>, %m: tensor<1x4x12x19xf32>) -> (tensor<1x4x12x8xf32>, tensor<1x2x19x8xf32>, tensor<1x2x19x12xf32>) {
  %dq, %dk, %dv = attn.attention_grad ins(%q, %k, %v : tensor<1x4x12x8xf32>, tensor<1x2x19x8xf32>, tensor<1x2x19x12xf32>) forward(%o, %lse : tensor<1x4x12x12xf32>, tensor<1x4x12xf32>) grad_output(%do : tensor<1x4x12x12xf32>) mask(%m : tensor<1x4x12x19xf32>) -> tensor<1x4x12x8xf32>, tensor<1x2x19x8xf32>, tensor<1x2x19x12xf32>
  return %dq, %dk, %dv : tensor<1x4x12x8xf32>, tensor<1x2x19x8xf32>, tensor<1x2x19x12xf32>
}

// Additive mask broadcast over rows, causal.
// CHECK-LABEL: attn.attention_grad at {{.*}}
// CHECK-NEXT: B=1 Hq=4 Hkv=2 Lq=12 Lk=19 D=8 Dv=8 f32
// CHECK: PASS
func.func @bias_rows_broadcast_causal(%q: tensor<1x4x12x8xf32>, %k: tensor<1x2x19x8xf32>, %v: tensor<1x2x19x8xf32>, %o: tensor<1x4x12x8xf32>, %lse: tensor<1x4x12xf32>, %do: tensor<1x4x12x8xf32>, %m: tensor<1x4x1x19xf32>) -> (tensor<1x4x12x8xf32>, tensor<1x2x19x8xf32>, tensor<1x2x19x8xf32>) {
  %dq, %dk, %dv = attn.attention_grad ins(%q, %k, %v : tensor<1x4x12x8xf32>, tensor<1x2x19x8xf32>, tensor<1x2x19x8xf32>) forward(%o, %lse : tensor<1x4x12x8xf32>, tensor<1x4x12xf32>) grad_output(%do : tensor<1x4x12x8xf32>) mask(%m : tensor<1x4x1x19xf32>) {causal = #attn.causal<top_left>} -> tensor<1x4x12x8xf32>, tensor<1x2x19x8xf32>, tensor<1x2x19x8xf32>
  return %dq, %dk, %dv : tensor<1x4x12x8xf32>, tensor<1x2x19x8xf32>, tensor<1x2x19x8xf32>
}

// Additive mask broadcast over heads, bottom-right.
// CHECK-LABEL: attn.attention_grad at {{.*}}
// CHECK-NEXT: B=2 Hq=2 Hkv=2 Lq=16 Lk=24 D=16 Dv=16 f32
// CHECK: PASS
func.func @bias_bottom_right(%q: tensor<2x2x16x16xf32>, %k: tensor<2x2x24x16xf32>, %v: tensor<2x2x24x16xf32>, %o: tensor<2x2x16x16xf32>, %lse: tensor<2x2x16xf32>, %do: tensor<2x2x16x16xf32>, %m: tensor<2x1x16x24xf32>) -> (tensor<2x2x16x16xf32>, tensor<2x2x24x16xf32>, tensor<2x2x24x16xf32>) {
  %dq, %dk, %dv = attn.attention_grad ins(%q, %k, %v : tensor<2x2x16x16xf32>, tensor<2x2x24x16xf32>, tensor<2x2x24x16xf32>) forward(%o, %lse : tensor<2x2x16x16xf32>, tensor<2x2x16xf32>) grad_output(%do : tensor<2x2x16x16xf32>) mask(%m : tensor<2x1x16x24xf32>) {causal = #attn.causal<bottom_right>} -> tensor<2x2x16x16xf32>, tensor<2x2x24x16xf32>, tensor<2x2x24x16xf32>
  return %dq, %dk, %dv : tensor<2x2x16x16xf32>, tensor<2x2x24x16xf32>, tensor<2x2x24x16xf32>
}

// D = 16, Dv = 40 (jax: V in D-wide chunks).
// CHECK-LABEL: attn.attention_grad at {{.*}}
// CHECK-NEXT: B=1 Hq=2 Hkv=2 Lq=20 Lk=24 D=16 Dv=40 f32
// CHECK: PASS
func.func @value_dim_wider(%q: tensor<1x2x20x16xf32>, %k: tensor<1x2x24x16xf32>, %v: tensor<1x2x24x40xf32>, %o: tensor<1x2x20x40xf32>, %lse: tensor<1x2x20xf32>, %do: tensor<1x2x20x40xf32>) -> (tensor<1x2x20x16xf32>, tensor<1x2x24x16xf32>, tensor<1x2x24x40xf32>) {
  %dq, %dk, %dv = attn.attention_grad ins(%q, %k, %v : tensor<1x2x20x16xf32>, tensor<1x2x24x16xf32>, tensor<1x2x24x40xf32>) forward(%o, %lse : tensor<1x2x20x40xf32>, tensor<1x2x20xf32>) grad_output(%do : tensor<1x2x20x40xf32>) {causal = #attn.causal<bottom_right>} -> tensor<1x2x20x16xf32>, tensor<1x2x24x16xf32>, tensor<1x2x24x40xf32>
  return %dq, %dk, %dv : tensor<1x2x20x16xf32>, tensor<1x2x24x16xf32>, tensor<1x2x24x40xf32>
}

// Lq = 1, MQA.
// CHECK-LABEL: attn.attention_grad at {{.*}}
// CHECK-NEXT: B=2 Hq=4 Hkv=1 Lq=1 Lk=37 D=16 Dv=16 f32
// CHECK: PASS
func.func @decode_mqa(%q: tensor<2x4x1x16xf32>, %k: tensor<2x1x37x16xf32>, %v: tensor<2x1x37x16xf32>, %o: tensor<2x4x1x16xf32>, %lse: tensor<2x4x1xf32>, %do: tensor<2x4x1x16xf32>) -> (tensor<2x4x1x16xf32>, tensor<2x1x37x16xf32>, tensor<2x1x37x16xf32>) {
  %dq, %dk, %dv = attn.attention_grad ins(%q, %k, %v : tensor<2x4x1x16xf32>, tensor<2x1x37x16xf32>, tensor<2x1x37x16xf32>) forward(%o, %lse : tensor<2x4x1x16xf32>, tensor<2x4x1xf32>) grad_output(%do : tensor<2x4x1x16xf32>) -> tensor<2x4x1x16xf32>, tensor<2x1x37x16xf32>, tensor<2x1x37x16xf32>
  return %dq, %dk, %dv : tensor<2x4x1x16xf32>, tensor<2x1x37x16xf32>, tensor<2x1x37x16xf32>
}

// bf16, GQA, causal.
// CHECK-LABEL: attn.attention_grad at {{.*}}
// CHECK-NEXT: B=2 Hq=4 Hkv=2 Lq=32 Lk=32 D=32 Dv=32 bf16
// CHECK: PASS
func.func @bf16_gqa_causal(%q: tensor<2x4x32x32xbf16>, %k: tensor<2x2x32x32xbf16>, %v: tensor<2x2x32x32xbf16>, %o: tensor<2x4x32x32xbf16>, %lse: tensor<2x4x32xf32>, %do: tensor<2x4x32x32xbf16>) -> (tensor<2x4x32x32xbf16>, tensor<2x2x32x32xbf16>, tensor<2x2x32x32xbf16>) {
  %dq, %dk, %dv = attn.attention_grad ins(%q, %k, %v : tensor<2x4x32x32xbf16>, tensor<2x2x32x32xbf16>, tensor<2x2x32x32xbf16>) forward(%o, %lse : tensor<2x4x32x32xbf16>, tensor<2x4x32xf32>) grad_output(%do : tensor<2x4x32x32xbf16>) {causal = #attn.causal<top_left>} -> tensor<2x4x32x32xbf16>, tensor<2x2x32x32xbf16>, tensor<2x2x32x32xbf16>
  return %dq, %dk, %dv : tensor<2x4x32x32xbf16>, tensor<2x2x32x32xbf16>, tensor<2x2x32x32xbf16>
}

// f16 with a boolean mask and a window.
// CHECK-LABEL: attn.attention_grad at {{.*}}
// CHECK-NEXT: B=1 Hq=2 Hkv=2 Lq=24 Lk=30 D=16 Dv=16 f16
// CHECK: PASS
func.func @f16_bool_mask_window(%q: tensor<1x2x24x16xf16>, %k: tensor<1x2x30x16xf16>, %v: tensor<1x2x30x16xf16>, %o: tensor<1x2x24x16xf16>, %lse: tensor<1x2x24xf32>, %do: tensor<1x2x24x16xf16>, %m: tensor<1x2x24x30xi1>) -> (tensor<1x2x24x16xf16>, tensor<1x2x30x16xf16>, tensor<1x2x30x16xf16>) {
  %dq, %dk, %dv = attn.attention_grad ins(%q, %k, %v : tensor<1x2x24x16xf16>, tensor<1x2x30x16xf16>, tensor<1x2x30x16xf16>) forward(%o, %lse : tensor<1x2x24x16xf16>, tensor<1x2x24xf32>) grad_output(%do : tensor<1x2x24x16xf16>) mask(%m : tensor<1x2x24x30xi1>) {window = array<i64: 6, 6>} -> tensor<1x2x24x16xf16>, tensor<1x2x30x16xf16>, tensor<1x2x30x16xf16>
  return %dq, %dk, %dv : tensor<1x2x24x16xf16>, tensor<1x2x30x16xf16>, tensor<1x2x30x16xf16>
}

// bf16 additive mask, MQA, bottom-right.
// CHECK-LABEL: attn.attention_grad at {{.*}}
// CHECK-NEXT: B=1 Hq=2 Hkv=1 Lq=16 Lk=24 D=16 Dv=16 bf16
// CHECK: PASS
func.func @bf16_bias_mqa(%q: tensor<1x2x16x16xbf16>, %k: tensor<1x1x24x16xbf16>, %v: tensor<1x1x24x16xbf16>, %o: tensor<1x2x16x16xbf16>, %lse: tensor<1x2x16xf32>, %do: tensor<1x2x16x16xbf16>, %m: tensor<1x1x16x24xbf16>) -> (tensor<1x2x16x16xbf16>, tensor<1x1x24x16xbf16>, tensor<1x1x24x16xbf16>) {
  %dq, %dk, %dv = attn.attention_grad ins(%q, %k, %v : tensor<1x2x16x16xbf16>, tensor<1x1x24x16xbf16>, tensor<1x1x24x16xbf16>) forward(%o, %lse : tensor<1x2x16x16xbf16>, tensor<1x2x16xf32>) grad_output(%do : tensor<1x2x16x16xbf16>) mask(%m : tensor<1x1x16x24xbf16>) {causal = #attn.causal<bottom_right>} -> tensor<1x2x16x16xbf16>, tensor<1x1x24x16xbf16>, tensor<1x1x24x16xbf16>
  return %dq, %dk, %dv : tensor<1x2x16x16xbf16>, tensor<1x1x24x16xbf16>, tensor<1x1x24x16xbf16>
}

// A packed batch (attn.varlen_attention_grad), compared sequence by
// sequence: GQA, bottom-right causal with cross lengths, an explicit scale.
// CHECK-LABEL: attn.varlen_attention_grad at {{.*}}
// CHECK-NEXT: B=3 Tq=30 Tk=50 Hq=4 Hkv=2 D=16 Dv=16 f32 causal=bottom_right
// CHECK: PASS
func.func @varlen_causal_gqa(%q: tensor<30x4x16xf32>, %k: tensor<50x2x16xf32>, %v: tensor<50x2x16xf32>, %cq: tensor<4xi32>, %ck: tensor<4xi32>, %o: tensor<30x4x16xf32>, %lse: tensor<4x30xf32>, %do: tensor<30x4x16xf32>) -> (tensor<30x4x16xf32>, tensor<50x2x16xf32>, tensor<50x2x16xf32>) {
  %dq, %dk, %dv = attn.varlen_attention_grad ins(%q, %k, %v : tensor<30x4x16xf32>, tensor<50x2x16xf32>, tensor<50x2x16xf32>) seqlens(%cq, %ck : tensor<4xi32>, tensor<4xi32>) forward(%o, %lse : tensor<30x4x16xf32>, tensor<4x30xf32>) grad_output(%do : tensor<30x4x16xf32>) {causal = #attn.causal<bottom_right>, scale = 0.3 : f32} -> tensor<30x4x16xf32>, tensor<50x2x16xf32>, tensor<50x2x16xf32>
  return %dq, %dk, %dv : tensor<30x4x16xf32>, tensor<50x2x16xf32>, tensor<50x2x16xf32>
}

// CHECK: all 28 attention op(s) match the float64 reference
