// Gradients (attn.attention_grad) on the CPU against the float64 gradient
// reference, which is itself checked by finite differences
// (test/Reference/AttentionGradFiniteDifference.cpp). O and lse are the
// float64 forward's, rounded to the op's types, as training would pass them.
//
// The unfused decomposition, two seeds:
// RUN: attn-cpu-run %s --seed=3 | FileCheck %s
// RUN: attn-cpu-run %s --seed=17 | FileCheck %s
// The tiled backward with recomputation (attn-tile), with tiles that divide
// the lengths, tiles that don't, and odd tiles smaller than the group:
// RUN: attn-cpu-run %s --seed=3 --lowering="attn-tile{block-q=16 block-kv=16}" | FileCheck %s
// RUN: attn-cpu-run %s --seed=5 --lowering="attn-tile{block-q=8 block-kv=12}" | FileCheck %s
// RUN: attn-cpu-run %s --seed=9 --lowering="attn-tile{block-q=5 block-kv=7}" | FileCheck %s
// RUN: attn-cpu-run %s --seed=11 --lowering="attn-tile" | FileCheck %s

// Each op also runs twice; the second run must reproduce every bit.
// CHECK-NOT: FAIL
// plain.
// CHECK-LABEL: attn.attention_grad at {{.*}}
// CHECK-NEXT: B=1 Hq=2 Hkv=2 Lq=16 Lk=16 D=16 Dv=16
// CHECK: second run: 0 elements differ
// CHECK: PASS
func.func @plain(%q: tensor<1x2x16x16xf32>, %k: tensor<1x2x16x16xf32>, %v: tensor<1x2x16x16xf32>, %o: tensor<1x2x16x16xf32>, %lse: tensor<1x2x16xf32>, %do: tensor<1x2x16x16xf32>) -> (tensor<1x2x16x16xf32>, tensor<1x2x16x16xf32>, tensor<1x2x16x16xf32>) {
  %dq, %dk, %dv = attn.attention_grad ins(%q, %k, %v : tensor<1x2x16x16xf32>, tensor<1x2x16x16xf32>, tensor<1x2x16x16xf32>) forward(%o, %lse : tensor<1x2x16x16xf32>, tensor<1x2x16xf32>) grad_output(%do : tensor<1x2x16x16xf32>) -> tensor<1x2x16x16xf32>, tensor<1x2x16x16xf32>, tensor<1x2x16x16xf32>
  return %dq, %dk, %dv : tensor<1x2x16x16xf32>, tensor<1x2x16x16xf32>, tensor<1x2x16x16xf32>
}

// GQA, Lq < Lk.
// CHECK-LABEL: attn.attention_grad at {{.*}}
// CHECK-NEXT: B=2 Hq=4 Hkv=2 Lq=24 Lk=40 D=32 Dv=16
// CHECK: second run: 0 elements differ
// CHECK: PASS
func.func @gqa_causal_bottom_right(%q: tensor<2x4x24x32xbf16>, %k: tensor<2x2x40x32xbf16>, %v: tensor<2x2x40x16xbf16>, %o: tensor<2x4x24x16xbf16>, %lse: tensor<2x4x24xf32>, %do: tensor<2x4x24x16xbf16>) -> (tensor<2x4x24x32xbf16>, tensor<2x2x40x32xbf16>, tensor<2x2x40x16xbf16>) {
  %dq, %dk, %dv = attn.attention_grad ins(%q, %k, %v : tensor<2x4x24x32xbf16>, tensor<2x2x40x32xbf16>, tensor<2x2x40x16xbf16>) forward(%o, %lse : tensor<2x4x24x16xbf16>, tensor<2x4x24xf32>) grad_output(%do : tensor<2x4x24x16xbf16>) {causal = #attn.causal<bottom_right>} -> tensor<2x4x24x32xbf16>, tensor<2x2x40x32xbf16>, tensor<2x2x40x16xbf16>
  return %dq, %dk, %dv : tensor<2x4x24x32xbf16>, tensor<2x2x40x32xbf16>, tensor<2x2x40x16xbf16>
}

// MQA, Lq > Lk.
// CHECK-LABEL: attn.attention_grad at {{.*}}
// CHECK-NEXT: B=1 Hq=3 Hkv=1 Lq=40 Lk=24 D=16 Dv=16
// CHECK: second run: 0 elements differ
// CHECK: PASS
func.func @mqa_causal_top_left(%q: tensor<1x3x40x16xf16>, %k: tensor<1x1x24x16xf16>, %v: tensor<1x1x24x16xf16>, %o: tensor<1x3x40x16xf16>, %lse: tensor<1x3x40xf32>, %do: tensor<1x3x40x16xf16>) -> (tensor<1x3x40x16xf16>, tensor<1x1x24x16xf16>, tensor<1x1x24x16xf16>) {
  %dq, %dk, %dv = attn.attention_grad ins(%q, %k, %v : tensor<1x3x40x16xf16>, tensor<1x1x24x16xf16>, tensor<1x1x24x16xf16>) forward(%o, %lse : tensor<1x3x40x16xf16>, tensor<1x3x40xf32>) grad_output(%do : tensor<1x3x40x16xf16>) {causal = #attn.causal<top_left>} -> tensor<1x3x40x16xf16>, tensor<1x1x24x16xf16>, tensor<1x1x24x16xf16>
  return %dq, %dk, %dv : tensor<1x3x40x16xf16>, tensor<1x1x24x16xf16>, tensor<1x1x24x16xf16>
}

// Lq > Lk: the first 8 rows see no key.
// CHECK-LABEL: attn.attention_grad at {{.*}}
// CHECK-NEXT: B=1 Hq=2 Hkv=1 Lq=20 Lk=12 D=8 Dv=8
// CHECK: second run: 0 elements differ
// CHECK: PASS
func.func @empty_rows_bottom_right(%q: tensor<1x2x20x8xf32>, %k: tensor<1x1x12x8xf32>, %v: tensor<1x1x12x8xf32>, %o: tensor<1x2x20x8xf32>, %lse: tensor<1x2x20xf32>, %do: tensor<1x2x20x8xf32>) -> (tensor<1x2x20x8xf32>, tensor<1x1x12x8xf32>, tensor<1x1x12x8xf32>) {
  %dq, %dk, %dv = attn.attention_grad ins(%q, %k, %v : tensor<1x2x20x8xf32>, tensor<1x1x12x8xf32>, tensor<1x1x12x8xf32>) forward(%o, %lse : tensor<1x2x20x8xf32>, tensor<1x2x20xf32>) grad_output(%do : tensor<1x2x20x8xf32>) {causal = #attn.causal<bottom_right>} -> tensor<1x2x20x8xf32>, tensor<1x1x12x8xf32>, tensor<1x1x12x8xf32>
  return %dq, %dk, %dv : tensor<1x2x20x8xf32>, tensor<1x1x12x8xf32>, tensor<1x1x12x8xf32>
}

// two-sided window, softcap, explicit scale.
// CHECK-LABEL: attn.attention_grad at {{.*}}
// CHECK-NEXT: B=1 Hq=2 Hkv=2 Lq=33 Lk=29 D=16 Dv=8
// CHECK: second run: 0 elements differ
// CHECK: PASS
func.func @window_softcap(%q: tensor<1x2x33x16xf32>, %k: tensor<1x2x29x16xf32>, %v: tensor<1x2x29x8xf32>, %o: tensor<1x2x33x8xf32>, %lse: tensor<1x2x33xf32>, %do: tensor<1x2x33x8xf32>) -> (tensor<1x2x33x16xf32>, tensor<1x2x29x16xf32>, tensor<1x2x29x8xf32>) {
  %dq, %dk, %dv = attn.attention_grad ins(%q, %k, %v : tensor<1x2x33x16xf32>, tensor<1x2x29x16xf32>, tensor<1x2x29x8xf32>) forward(%o, %lse : tensor<1x2x33x8xf32>, tensor<1x2x33xf32>) grad_output(%do : tensor<1x2x33x8xf32>) {window = array<i64: 4, 3>, softcap = 1.5 : f32, scale = 0.7 : f32} -> tensor<1x2x33x16xf32>, tensor<1x2x29x16xf32>, tensor<1x2x29x8xf32>
  return %dq, %dk, %dv : tensor<1x2x33x16xf32>, tensor<1x2x29x16xf32>, tensor<1x2x29x8xf32>
}

// boolean mask broadcast over heads, with fully masked rows.
// CHECK-LABEL: attn.attention_grad at {{.*}}
// CHECK-NEXT: B=2 Hq=2 Hkv=2 Lq=17 Lk=23 D=16 Dv=16
// CHECK: second run: 0 elements differ
// CHECK: PASS
func.func @bool_mask_broadcast(%q: tensor<2x2x17x16xbf16>, %k: tensor<2x2x23x16xbf16>, %v: tensor<2x2x23x16xbf16>, %o: tensor<2x2x17x16xbf16>, %lse: tensor<2x2x17xf32>, %do: tensor<2x2x17x16xbf16>, %m: tensor<2x1x17x23xi1>) -> (tensor<2x2x17x16xbf16>, tensor<2x2x23x16xbf16>, tensor<2x2x23x16xbf16>) {
  %dq, %dk, %dv = attn.attention_grad ins(%q, %k, %v : tensor<2x2x17x16xbf16>, tensor<2x2x23x16xbf16>, tensor<2x2x23x16xbf16>) forward(%o, %lse : tensor<2x2x17x16xbf16>, tensor<2x2x17xf32>) grad_output(%do : tensor<2x2x17x16xbf16>) mask(%m : tensor<2x1x17x23xi1>) -> tensor<2x2x17x16xbf16>, tensor<2x2x23x16xbf16>, tensor<2x2x23x16xbf16>
  return %dq, %dk, %dv : tensor<2x2x17x16xbf16>, tensor<2x2x23x16xbf16>, tensor<2x2x23x16xbf16>
}

// additive mask broadcast over rows, with -inf entries.
// CHECK-LABEL: attn.attention_grad at {{.*}}
// CHECK-NEXT: B=1 Hq=4 Hkv=2 Lq=12 Lk=19 D=8 Dv=12
// CHECK: second run: 0 elements differ
// CHECK: PASS
func.func @additive_mask(%q: tensor<1x4x12x8xf32>, %k: tensor<1x2x19x8xf32>, %v: tensor<1x2x19x12xf32>, %o: tensor<1x4x12x12xf32>, %lse: tensor<1x4x12xf32>, %do: tensor<1x4x12x12xf32>, %m: tensor<1x4x1x19xf32>) -> (tensor<1x4x12x8xf32>, tensor<1x2x19x8xf32>, tensor<1x2x19x12xf32>) {
  %dq, %dk, %dv = attn.attention_grad ins(%q, %k, %v : tensor<1x4x12x8xf32>, tensor<1x2x19x8xf32>, tensor<1x2x19x12xf32>) forward(%o, %lse : tensor<1x4x12x12xf32>, tensor<1x4x12xf32>) grad_output(%do : tensor<1x4x12x12xf32>) mask(%m : tensor<1x4x1x19xf32>) {causal = #attn.causal<top_left>} -> tensor<1x4x12x8xf32>, tensor<1x2x19x8xf32>, tensor<1x2x19x12xf32>
  return %dq, %dk, %dv : tensor<1x4x12x8xf32>, tensor<1x2x19x8xf32>, tensor<1x2x19x12xf32>
}

// dropout with GQA.
// CHECK-LABEL: attn.attention_grad at {{.*}}
// CHECK-NEXT: B=2 Hq=4 Hkv=2 Lq=16 Lk=24 D=16 Dv=16
// CHECK: second run: 0 elements differ
// CHECK: PASS
func.func @dropout_gqa(%q: tensor<2x4x16x16xf32>, %k: tensor<2x2x24x16xf32>, %v: tensor<2x2x24x16xf32>, %o: tensor<2x4x16x16xf32>, %lse: tensor<2x4x16xf32>, %do: tensor<2x4x16x16xf32>, %seed: i64, %offset: i64) -> (tensor<2x4x16x16xf32>, tensor<2x2x24x16xf32>, tensor<2x2x24x16xf32>) {
  %dq, %dk, %dv = attn.attention_grad ins(%q, %k, %v : tensor<2x4x16x16xf32>, tensor<2x2x24x16xf32>, tensor<2x2x24x16xf32>) forward(%o, %lse : tensor<2x4x16x16xf32>, tensor<2x4x16xf32>) grad_output(%do : tensor<2x4x16x16xf32>) rng(%seed, %offset) {dropout_p = 0.25 : f32, causal = #attn.causal<bottom_right>} -> tensor<2x4x16x16xf32>, tensor<2x2x24x16xf32>, tensor<2x2x24x16xf32>
  return %dq, %dk, %dv : tensor<2x4x16x16xf32>, tensor<2x2x24x16xf32>, tensor<2x2x24x16xf32>
}

// Lq = 1.
// CHECK-LABEL: attn.attention_grad at {{.*}}
// CHECK-NEXT: B=2 Hq=4 Hkv=1 Lq=1 Lk=37 D=16 Dv=16
// CHECK: second run: 0 elements differ
// CHECK: PASS
func.func @decode(%q: tensor<2x4x1x16xf16>, %k: tensor<2x1x37x16xf16>, %v: tensor<2x1x37x16xf16>, %o: tensor<2x4x1x16xf16>, %lse: tensor<2x4x1xf32>, %do: tensor<2x4x1x16xf16>) -> (tensor<2x4x1x16xf16>, tensor<2x1x37x16xf16>, tensor<2x1x37x16xf16>) {
  %dq, %dk, %dv = attn.attention_grad ins(%q, %k, %v : tensor<2x4x1x16xf16>, tensor<2x1x37x16xf16>, tensor<2x1x37x16xf16>) forward(%o, %lse : tensor<2x4x1x16xf16>, tensor<2x4x1xf32>) grad_output(%do : tensor<2x4x1x16xf16>) -> tensor<2x4x1x16xf16>, tensor<2x1x37x16xf16>, tensor<2x1x37x16xf16>
  return %dq, %dk, %dv : tensor<2x4x1x16xf16>, tensor<2x1x37x16xf16>, tensor<2x1x37x16xf16>
}

// every feature at once.
// CHECK-LABEL: attn.attention_grad at {{.*}}
// CHECK-NEXT: B=1 Hq=4 Hkv=2 Lq=18 Lk=27 D=24 Dv=40
// CHECK: second run: 0 elements differ
// CHECK: PASS
func.func @everything(%q: tensor<1x4x18x24xbf16>, %k: tensor<1x2x27x24xbf16>, %v: tensor<1x2x27x40xbf16>, %o: tensor<1x4x18x40xbf16>, %lse: tensor<1x4x18xf32>, %do: tensor<1x4x18x40xbf16>, %m: tensor<1x4x18x27xbf16>, %seed: i64, %offset: i64) -> (tensor<1x4x18x24xbf16>, tensor<1x2x27x24xbf16>, tensor<1x2x27x40xbf16>) {
  %dq, %dk, %dv = attn.attention_grad ins(%q, %k, %v : tensor<1x4x18x24xbf16>, tensor<1x2x27x24xbf16>, tensor<1x2x27x40xbf16>) forward(%o, %lse : tensor<1x4x18x40xbf16>, tensor<1x4x18xf32>) grad_output(%do : tensor<1x4x18x40xbf16>) mask(%m : tensor<1x4x18x27xbf16>) rng(%seed, %offset) {causal = #attn.causal<bottom_right>, window = array<i64: 9, -1>, softcap = 3.0 : f32, dropout_p = 0.1 : f32, deterministic} -> tensor<1x4x18x24xbf16>, tensor<1x2x27x24xbf16>, tensor<1x2x27x40xbf16>
  return %dq, %dk, %dv : tensor<1x4x18x24xbf16>, tensor<1x2x27x24xbf16>, tensor<1x2x27x40xbf16>
}

// CHECK: all 10 attention op(s) match the float64 reference
