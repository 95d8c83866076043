// RUN: attention-opt %s | attention-opt | FileCheck %s
// RUN: attention-opt %s --mlir-print-op-generic | attention-opt | FileCheck %s

// Every feature of attn.attention must survive printing and re-parsing, both
// from the custom form and from the generic form. Attributes are printed in
// alphabetical order; default values (causal none, dropout_p 0) are elided.

// CHECK-LABEL: func @plain
// CHECK: attn.attention ins(%{{.*}}, %{{.*}}, %{{.*}} : tensor<1x4x16x32xf16>, tensor<1x4x16x32xf16>, tensor<1x4x16x32xf16>) -> tensor<1x4x16x32xf16>
func.func @plain(%q: tensor<1x4x16x32xf16>, %k: tensor<1x4x16x32xf16>, %v: tensor<1x4x16x32xf16>) -> tensor<1x4x16x32xf16> {
  %o = attn.attention ins(%q, %k, %v : tensor<1x4x16x32xf16>, tensor<1x4x16x32xf16>, tensor<1x4x16x32xf16>) -> tensor<1x4x16x32xf16>
  return %o : tensor<1x4x16x32xf16>
}

// Explicitly spelled default values are elided when printed.
// CHECK-LABEL: func @explicit_defaults
// CHECK: attn.attention ins(%{{.*}}, %{{.*}}, %{{.*}} : tensor<1x4x16x32xf32>, tensor<1x4x16x32xf32>, tensor<1x4x16x32xf32>) -> tensor<1x4x16x32xf32>
func.func @explicit_defaults(%q: tensor<1x4x16x32xf32>, %k: tensor<1x4x16x32xf32>, %v: tensor<1x4x16x32xf32>) -> tensor<1x4x16x32xf32> {
  %o = attn.attention ins(%q, %k, %v : tensor<1x4x16x32xf32>, tensor<1x4x16x32xf32>, tensor<1x4x16x32xf32>) {causal = #attn.causal<none>, dropout_p = 0.0 : f32} -> tensor<1x4x16x32xf32>
  return %o : tensor<1x4x16x32xf32>
}

//===-- Masks. ------------------------------------------------------------===//

// CHECK-LABEL: func @mask_i1
// CHECK-SAME: (%[[Q:[a-z0-9_]+]]: tensor<2x4x16x32xf16>, %[[K:[a-z0-9_]+]]: tensor<2x4x24x32xf16>, %[[V:[a-z0-9_]+]]: tensor<2x4x24x32xf16>, %[[M:[a-z0-9_]+]]: tensor<2x4x16x24xi1>)
// CHECK: attn.attention ins(%[[Q]], %[[K]], %[[V]] : tensor<2x4x16x32xf16>, tensor<2x4x24x32xf16>, tensor<2x4x24x32xf16>) mask(%[[M]] : tensor<2x4x16x24xi1>) -> tensor<2x4x16x32xf16>
func.func @mask_i1(%q: tensor<2x4x16x32xf16>, %k: tensor<2x4x24x32xf16>, %v: tensor<2x4x24x32xf16>, %m: tensor<2x4x16x24xi1>) -> tensor<2x4x16x32xf16> {
  %o = attn.attention ins(%q, %k, %v : tensor<2x4x16x32xf16>, tensor<2x4x24x32xf16>, tensor<2x4x24x32xf16>) mask(%m : tensor<2x4x16x24xi1>) -> tensor<2x4x16x32xf16>
  return %o : tensor<2x4x16x32xf16>
}

// A boolean mask broadcast over batch and heads (the usual padding mask).
// CHECK-LABEL: func @mask_i1_broadcast
// CHECK-SAME: %[[M:[a-z0-9_]+]]: tensor<1x1x16x24xi1>)
// CHECK: attn.attention ins(%{{.*}}, %{{.*}}, %{{.*}} : tensor<2x4x16x32xbf16>, tensor<2x4x24x32xbf16>, tensor<2x4x24x32xbf16>) mask(%[[M]] : tensor<1x1x16x24xi1>) -> tensor<2x4x16x32xbf16>
func.func @mask_i1_broadcast(%q: tensor<2x4x16x32xbf16>, %k: tensor<2x4x24x32xbf16>, %v: tensor<2x4x24x32xbf16>, %m: tensor<1x1x16x24xi1>) -> tensor<2x4x16x32xbf16> {
  %o = attn.attention ins(%q, %k, %v : tensor<2x4x16x32xbf16>, tensor<2x4x24x32xbf16>, tensor<2x4x24x32xbf16>) mask(%m : tensor<1x1x16x24xi1>) -> tensor<2x4x16x32xbf16>
  return %o : tensor<2x4x16x32xbf16>
}

// Additive f16 bias broadcast over batch (one bias per head, e.g. ALiBi).
// CHECK-LABEL: func @mask_f16_additive
// CHECK-SAME: %[[M:[a-z0-9_]+]]: tensor<1x4x16x24xf16>)
// CHECK: attn.attention ins(%{{.*}}, %{{.*}}, %{{.*}} : tensor<2x4x16x32xf16>, tensor<2x4x24x32xf16>, tensor<2x4x24x32xf16>) mask(%[[M]] : tensor<1x4x16x24xf16>) -> tensor<2x4x16x32xf16>
func.func @mask_f16_additive(%q: tensor<2x4x16x32xf16>, %k: tensor<2x4x24x32xf16>, %v: tensor<2x4x24x32xf16>, %m: tensor<1x4x16x24xf16>) -> tensor<2x4x16x32xf16> {
  %o = attn.attention ins(%q, %k, %v : tensor<2x4x16x32xf16>, tensor<2x4x24x32xf16>, tensor<2x4x24x32xf16>) mask(%m : tensor<1x4x16x24xf16>) -> tensor<2x4x16x32xf16>
  return %o : tensor<2x4x16x32xf16>
}

// Additive bf16 bias broadcast over query rows; its element type need not be
// the query's.
// CHECK-LABEL: func @mask_bf16_additive
// CHECK-SAME: %[[M:[a-z0-9_]+]]: tensor<2x4x1x24xbf16>)
// CHECK: attn.attention ins(%{{.*}}, %{{.*}}, %{{.*}} : tensor<2x4x16x32xf32>, tensor<2x4x24x32xf32>, tensor<2x4x24x32xf32>) mask(%[[M]] : tensor<2x4x1x24xbf16>) -> tensor<2x4x16x32xf32>
func.func @mask_bf16_additive(%q: tensor<2x4x16x32xf32>, %k: tensor<2x4x24x32xf32>, %v: tensor<2x4x24x32xf32>, %m: tensor<2x4x1x24xbf16>) -> tensor<2x4x16x32xf32> {
  %o = attn.attention ins(%q, %k, %v : tensor<2x4x16x32xf32>, tensor<2x4x24x32xf32>, tensor<2x4x24x32xf32>) mask(%m : tensor<2x4x1x24xbf16>) -> tensor<2x4x16x32xf32>
  return %o : tensor<2x4x16x32xf32>
}

// Additive f32 bias broadcast in every dimension.
// CHECK-LABEL: func @mask_f32_broadcast_all
// CHECK-SAME: %[[M:[a-z0-9_]+]]: tensor<1x1x1x1xf32>)
// CHECK: attn.attention ins(%{{.*}}, %{{.*}}, %{{.*}} : tensor<2x4x16x32xf32>, tensor<2x4x24x32xf32>, tensor<2x4x24x32xf32>) mask(%[[M]] : tensor<1x1x1x1xf32>) -> tensor<2x4x16x32xf32>
func.func @mask_f32_broadcast_all(%q: tensor<2x4x16x32xf32>, %k: tensor<2x4x24x32xf32>, %v: tensor<2x4x24x32xf32>, %m: tensor<1x1x1x1xf32>) -> tensor<2x4x16x32xf32> {
  %o = attn.attention ins(%q, %k, %v : tensor<2x4x16x32xf32>, tensor<2x4x24x32xf32>, tensor<2x4x24x32xf32>) mask(%m : tensor<1x1x1x1xf32>) -> tensor<2x4x16x32xf32>
  return %o : tensor<2x4x16x32xf32>
}

// A mask with dynamic dimensions against static operands.
// CHECK-LABEL: func @mask_dynamic
// CHECK: attn.attention ins(%{{.*}}, %{{.*}}, %{{.*}} : tensor<2x4x16x32xf32>, tensor<2x4x24x32xf32>, tensor<2x4x24x32xf32>) mask(%{{.*}} : tensor<?x1x?x?xi1>) -> tensor<2x4x16x32xf32>
func.func @mask_dynamic(%q: tensor<2x4x16x32xf32>, %k: tensor<2x4x24x32xf32>, %v: tensor<2x4x24x32xf32>, %m: tensor<?x1x?x?xi1>) -> tensor<2x4x16x32xf32> {
  %o = attn.attention ins(%q, %k, %v : tensor<2x4x16x32xf32>, tensor<2x4x24x32xf32>, tensor<2x4x24x32xf32>) mask(%m : tensor<?x1x?x?xi1>) -> tensor<2x4x16x32xf32>
  return %o : tensor<2x4x16x32xf32>
}

//===-- Dropout and the rng operands. -------------------------------------===//

// CHECK-LABEL: func @dropout
// CHECK-SAME: %[[SEED:[a-z0-9_]+]]: i64, %[[OFF:[a-z0-9_]+]]: i64)
// CHECK: attn.attention ins(%{{.*}}, %{{.*}}, %{{.*}} : tensor<1x4x16x32xf16>, tensor<1x4x16x32xf16>, tensor<1x4x16x32xf16>) rng(%[[SEED]], %[[OFF]]) {dropout_p = 1.000000e-01 : f32} -> tensor<1x4x16x32xf16>
func.func @dropout(%q: tensor<1x4x16x32xf16>, %k: tensor<1x4x16x32xf16>, %v: tensor<1x4x16x32xf16>, %seed: i64, %offset: i64) -> tensor<1x4x16x32xf16> {
  %o = attn.attention ins(%q, %k, %v : tensor<1x4x16x32xf16>, tensor<1x4x16x32xf16>, tensor<1x4x16x32xf16>) rng(%seed, %offset) {dropout_p = 0.1 : f32} -> tensor<1x4x16x32xf16>
  return %o : tensor<1x4x16x32xf16>
}

// rng operands are allowed without dropout (dropout_p = 0 is elided).
// CHECK-LABEL: func @rng_without_dropout
// CHECK-SAME: %[[SEED:[a-z0-9_]+]]: i64, %[[OFF:[a-z0-9_]+]]: i64)
// CHECK: attn.attention ins(%{{.*}}, %{{.*}}, %{{.*}} : tensor<1x4x16x32xf16>, tensor<1x4x16x32xf16>, tensor<1x4x16x32xf16>) rng(%[[SEED]], %[[OFF]]) -> tensor<1x4x16x32xf16>
func.func @rng_without_dropout(%q: tensor<1x4x16x32xf16>, %k: tensor<1x4x16x32xf16>, %v: tensor<1x4x16x32xf16>, %seed: i64, %offset: i64) -> tensor<1x4x16x32xf16> {
  %o = attn.attention ins(%q, %k, %v : tensor<1x4x16x32xf16>, tensor<1x4x16x32xf16>, tensor<1x4x16x32xf16>) rng(%seed, %offset) -> tensor<1x4x16x32xf16>
  return %o : tensor<1x4x16x32xf16>
}

// An explicit dropout keep mask, broadcast over batch and heads, after the
// mask.
// CHECK-LABEL: func @dropout_mask
// CHECK-SAME: %[[M:[a-z0-9_]+]]: tensor<1x4x16x16xf32>, %[[KEEP:[a-z0-9_]+]]: tensor<1x1x16x16xi1>)
// CHECK: attn.attention ins(%{{.*}}, %{{.*}}, %{{.*}} : tensor<1x4x16x32xf16>, tensor<1x4x16x32xf16>, tensor<1x4x16x32xf16>) mask(%[[M]] : tensor<1x4x16x16xf32>) dropout_mask(%[[KEEP]] : tensor<1x1x16x16xi1>) {dropout_p = 2.500000e-01 : f32} -> tensor<1x4x16x32xf16>
func.func @dropout_mask(%q: tensor<1x4x16x32xf16>, %k: tensor<1x4x16x32xf16>, %v: tensor<1x4x16x32xf16>, %m: tensor<1x4x16x16xf32>, %keep: tensor<1x1x16x16xi1>) -> tensor<1x4x16x32xf16> {
  %o = attn.attention ins(%q, %k, %v : tensor<1x4x16x32xf16>, tensor<1x4x16x32xf16>, tensor<1x4x16x32xf16>) mask(%m : tensor<1x4x16x16xf32>) dropout_mask(%keep : tensor<1x1x16x16xi1>) {dropout_p = 0.25 : f32} -> tensor<1x4x16x32xf16>
  return %o : tensor<1x4x16x32xf16>
}

// The mask and rng operands together: mask comes first.
// CHECK-LABEL: func @mask_and_rng
// CHECK-SAME: %[[M:[a-z0-9_]+]]: tensor<1x1x16x16xi1>, %[[SEED:[a-z0-9_]+]]: i64, %[[OFF:[a-z0-9_]+]]: i64)
// CHECK: attn.attention ins(%{{.*}}, %{{.*}}, %{{.*}} : tensor<1x4x16x32xf16>, tensor<1x4x16x32xf16>, tensor<1x4x16x32xf16>) mask(%[[M]] : tensor<1x1x16x16xi1>) rng(%[[SEED]], %[[OFF]]) {dropout_p = 5.000000e-01 : f32} -> tensor<1x4x16x32xf16>
func.func @mask_and_rng(%q: tensor<1x4x16x32xf16>, %k: tensor<1x4x16x32xf16>, %v: tensor<1x4x16x32xf16>, %m: tensor<1x1x16x16xi1>, %seed: i64, %offset: i64) -> tensor<1x4x16x32xf16> {
  %o = attn.attention ins(%q, %k, %v : tensor<1x4x16x32xf16>, tensor<1x4x16x32xf16>, tensor<1x4x16x32xf16>) mask(%m : tensor<1x1x16x16xi1>) rng(%seed, %offset) {dropout_p = 0.5 : f32} -> tensor<1x4x16x32xf16>
  return %o : tensor<1x4x16x32xf16>
}

//===-- Score attributes: scale, causal, window, softcap. -----------------===//

// CHECK-LABEL: func @scale
// CHECK: attn.attention ins(%{{.*}}, %{{.*}}, %{{.*}} : tensor<1x4x16x32xf32>, tensor<1x4x16x32xf32>, tensor<1x4x16x32xf32>) {scale = 1.250000e-01 : f32} -> tensor<1x4x16x32xf32>
func.func @scale(%q: tensor<1x4x16x32xf32>, %k: tensor<1x4x16x32xf32>, %v: tensor<1x4x16x32xf32>) -> tensor<1x4x16x32xf32> {
  %o = attn.attention ins(%q, %k, %v : tensor<1x4x16x32xf32>, tensor<1x4x16x32xf32>, tensor<1x4x16x32xf32>) {scale = 0.125 : f32} -> tensor<1x4x16x32xf32>
  return %o : tensor<1x4x16x32xf32>
}

// Zero and negative scales are finite, hence valid.
// CHECK-LABEL: func @scale_zero_and_negative
// CHECK: attn.attention {{.*}} {scale = 0.000000e+00 : f32} -> tensor<1x4x16x32xf32>
// CHECK: attn.attention {{.*}} {scale = -2.000000e+00 : f32} -> tensor<1x4x16x32xf32>
func.func @scale_zero_and_negative(%q: tensor<1x4x16x32xf32>) -> (tensor<1x4x16x32xf32>, tensor<1x4x16x32xf32>) {
  %o0 = attn.attention ins(%q, %q, %q : tensor<1x4x16x32xf32>, tensor<1x4x16x32xf32>, tensor<1x4x16x32xf32>) {scale = 0.0 : f32} -> tensor<1x4x16x32xf32>
  %o1 = attn.attention ins(%q, %q, %q : tensor<1x4x16x32xf32>, tensor<1x4x16x32xf32>, tensor<1x4x16x32xf32>) {scale = -2.0 : f32} -> tensor<1x4x16x32xf32>
  return %o0, %o1 : tensor<1x4x16x32xf32>, tensor<1x4x16x32xf32>
}

// CHECK-LABEL: func @causal_top_left
// CHECK: attn.attention ins(%{{.*}}, %{{.*}}, %{{.*}} : tensor<1x4x16x32xf16>, tensor<1x4x24x32xf16>, tensor<1x4x24x32xf16>) {causal = #attn.causal<top_left>} -> tensor<1x4x16x32xf16>
func.func @causal_top_left(%q: tensor<1x4x16x32xf16>, %k: tensor<1x4x24x32xf16>, %v: tensor<1x4x24x32xf16>) -> tensor<1x4x16x32xf16> {
  %o = attn.attention ins(%q, %k, %v : tensor<1x4x16x32xf16>, tensor<1x4x24x32xf16>, tensor<1x4x24x32xf16>) {causal = #attn.causal<top_left>} -> tensor<1x4x16x32xf16>
  return %o : tensor<1x4x16x32xf16>
}

// CHECK-LABEL: func @causal_bottom_right
// CHECK: attn.attention ins(%{{.*}}, %{{.*}}, %{{.*}} : tensor<1x4x16x32xf16>, tensor<1x4x24x32xf16>, tensor<1x4x24x32xf16>) {causal = #attn.causal<bottom_right>} -> tensor<1x4x16x32xf16>
func.func @causal_bottom_right(%q: tensor<1x4x16x32xf16>, %k: tensor<1x4x24x32xf16>, %v: tensor<1x4x24x32xf16>) -> tensor<1x4x16x32xf16> {
  %o = attn.attention ins(%q, %k, %v : tensor<1x4x16x32xf16>, tensor<1x4x24x32xf16>, tensor<1x4x24x32xf16>) {causal = #attn.causal<bottom_right>} -> tensor<1x4x16x32xf16>
  return %o : tensor<1x4x16x32xf16>
}

// Sliding window of 16 keys to the left, none to the right.
// CHECK-LABEL: func @window
// CHECK: attn.attention ins(%{{.*}}, %{{.*}}, %{{.*}} : tensor<1x4x64x32xf32>, tensor<1x4x64x32xf32>, tensor<1x4x64x32xf32>) {window = array<i64: 16, 0>} -> tensor<1x4x64x32xf32>
func.func @window(%q: tensor<1x4x64x32xf32>, %k: tensor<1x4x64x32xf32>, %v: tensor<1x4x64x32xf32>) -> tensor<1x4x64x32xf32> {
  %o = attn.attention ins(%q, %k, %v : tensor<1x4x64x32xf32>, tensor<1x4x64x32xf32>, tensor<1x4x64x32xf32>) {window = array<i64: 16, 0>} -> tensor<1x4x64x32xf32>
  return %o : tensor<1x4x64x32xf32>
}

// -1 leaves a side of the window unbounded.
// CHECK-LABEL: func @window_unbounded
// CHECK: attn.attention {{.*}} {window = array<i64: -1, 8>} -> tensor<1x4x64x32xf32>
// CHECK: attn.attention {{.*}} {window = array<i64: 16, -1>} -> tensor<1x4x64x32xf32>
// CHECK: attn.attention {{.*}} {window = array<i64: -1, -1>} -> tensor<1x4x64x32xf32>
func.func @window_unbounded(%q: tensor<1x4x64x32xf32>) -> (tensor<1x4x64x32xf32>, tensor<1x4x64x32xf32>, tensor<1x4x64x32xf32>) {
  %o0 = attn.attention ins(%q, %q, %q : tensor<1x4x64x32xf32>, tensor<1x4x64x32xf32>, tensor<1x4x64x32xf32>) {window = array<i64: -1, 8>} -> tensor<1x4x64x32xf32>
  %o1 = attn.attention ins(%q, %q, %q : tensor<1x4x64x32xf32>, tensor<1x4x64x32xf32>, tensor<1x4x64x32xf32>) {window = array<i64: 16, -1>} -> tensor<1x4x64x32xf32>
  %o2 = attn.attention ins(%q, %q, %q : tensor<1x4x64x32xf32>, tensor<1x4x64x32xf32>, tensor<1x4x64x32xf32>) {window = array<i64: -1, -1>} -> tensor<1x4x64x32xf32>
  return %o0, %o1, %o2 : tensor<1x4x64x32xf32>, tensor<1x4x64x32xf32>, tensor<1x4x64x32xf32>
}

// Window and bottom-right causal combined (Mistral-style).
// CHECK-LABEL: func @window_causal
// CHECK: attn.attention ins(%{{.*}}, %{{.*}}, %{{.*}} : tensor<1x4x16x32xf32>, tensor<1x4x64x32xf32>, tensor<1x4x64x32xf32>) {causal = #attn.causal<bottom_right>, window = array<i64: 16, 0>} -> tensor<1x4x16x32xf32>
func.func @window_causal(%q: tensor<1x4x16x32xf32>, %k: tensor<1x4x64x32xf32>, %v: tensor<1x4x64x32xf32>) -> tensor<1x4x16x32xf32> {
  %o = attn.attention ins(%q, %k, %v : tensor<1x4x16x32xf32>, tensor<1x4x64x32xf32>, tensor<1x4x64x32xf32>) {window = array<i64: 16, 0>, causal = #attn.causal<bottom_right>} -> tensor<1x4x16x32xf32>
  return %o : tensor<1x4x16x32xf32>
}

// CHECK-LABEL: func @softcap
// CHECK: attn.attention ins(%{{.*}}, %{{.*}}, %{{.*}} : tensor<1x4x16x32xbf16>, tensor<1x4x16x32xbf16>, tensor<1x4x16x32xbf16>) {softcap = 5.000000e+01 : f32} -> tensor<1x4x16x32xbf16>
func.func @softcap(%q: tensor<1x4x16x32xbf16>, %k: tensor<1x4x16x32xbf16>, %v: tensor<1x4x16x32xbf16>) -> tensor<1x4x16x32xbf16> {
  %o = attn.attention ins(%q, %k, %v : tensor<1x4x16x32xbf16>, tensor<1x4x16x32xbf16>, tensor<1x4x16x32xbf16>) {softcap = 50.0 : f32} -> tensor<1x4x16x32xbf16>
  return %o : tensor<1x4x16x32xbf16>
}

// CHECK-LABEL: func @softcap_approx
// CHECK: {softcap = 5.000000e+01 : f32, softcap_approx}
// CHECK: attn.attention_grad
// CHECK-SAME: {softcap = 5.000000e+01 : f32, softcap_approx}
func.func @softcap_approx(%q: tensor<1x4x16x32xbf16>, %k: tensor<1x4x16x32xbf16>, %v: tensor<1x4x16x32xbf16>, %do: tensor<1x4x16x32xbf16>) -> tensor<1x4x16x32xbf16> {
  %o, %lse = attn.attention ins(%q, %k, %v : tensor<1x4x16x32xbf16>, tensor<1x4x16x32xbf16>, tensor<1x4x16x32xbf16>) {softcap_approx, softcap = 50.0 : f32} -> tensor<1x4x16x32xbf16>, tensor<1x4x16xf32>
  %dq, %dk, %dv = attn.attention_grad ins(%q, %k, %v : tensor<1x4x16x32xbf16>, tensor<1x4x16x32xbf16>, tensor<1x4x16x32xbf16>) forward(%o, %lse : tensor<1x4x16x32xbf16>, tensor<1x4x16xf32>) grad_output(%do : tensor<1x4x16x32xbf16>) {softcap = 50.0 : f32, softcap_approx} -> tensor<1x4x16x32xbf16>, tensor<1x4x16x32xbf16>, tensor<1x4x16x32xbf16>
  return %dq : tensor<1x4x16x32xbf16>
}

//===-- The lse result. ---------------------------------------------------===//

// CHECK-LABEL: func @lse
// CHECK: %{{.*}}, %{{.*}} = attn.attention ins(%{{.*}}, %{{.*}}, %{{.*}} : tensor<2x4x16x32xf16>, tensor<2x4x16x32xf16>, tensor<2x4x16x32xf16>) -> tensor<2x4x16x32xf16>, tensor<2x4x16xf32>
func.func @lse(%q: tensor<2x4x16x32xf16>, %k: tensor<2x4x16x32xf16>, %v: tensor<2x4x16x32xf16>) -> (tensor<2x4x16x32xf16>, tensor<2x4x16xf32>) {
  %o, %lse = attn.attention ins(%q, %k, %v : tensor<2x4x16x32xf16>, tensor<2x4x16x32xf16>, tensor<2x4x16x32xf16>) -> tensor<2x4x16x32xf16>, tensor<2x4x16xf32>
  return %o, %lse : tensor<2x4x16x32xf16>, tensor<2x4x16xf32>
}

//===-- Head layouts and shapes. ------------------------------------------===//

// GQA: 8 query heads share 2 kv heads.
// CHECK-LABEL: func @gqa
// CHECK: attn.attention ins(%{{.*}}, %{{.*}}, %{{.*}} : tensor<2x8x128x64xbf16>, tensor<2x2x256x64xbf16>, tensor<2x2x256x64xbf16>) {causal = #attn.causal<bottom_right>, scale = 1.250000e-01 : f32} -> tensor<2x8x128x64xbf16>, tensor<2x8x128xf32>
func.func @gqa(%q: tensor<2x8x128x64xbf16>, %k: tensor<2x2x256x64xbf16>, %v: tensor<2x2x256x64xbf16>) -> (tensor<2x8x128x64xbf16>, tensor<2x8x128xf32>) {
  %o, %lse = attn.attention ins(%q, %k, %v : tensor<2x8x128x64xbf16>, tensor<2x2x256x64xbf16>, tensor<2x2x256x64xbf16>) {causal = #attn.causal<bottom_right>, scale = 0.125 : f32} -> tensor<2x8x128x64xbf16>, tensor<2x8x128xf32>
  return %o, %lse : tensor<2x8x128x64xbf16>, tensor<2x8x128xf32>
}

// MQA: one kv head for all query heads.
// CHECK-LABEL: func @mqa
// CHECK: attn.attention ins(%{{.*}}, %{{.*}}, %{{.*}} : tensor<2x8x16x32xf16>, tensor<2x1x16x32xf16>, tensor<2x1x16x32xf16>) -> tensor<2x8x16x32xf16>
func.func @mqa(%q: tensor<2x8x16x32xf16>, %k: tensor<2x1x16x32xf16>, %v: tensor<2x1x16x32xf16>) -> tensor<2x8x16x32xf16> {
  %o = attn.attention ins(%q, %k, %v : tensor<2x8x16x32xf16>, tensor<2x1x16x32xf16>, tensor<2x1x16x32xf16>) -> tensor<2x8x16x32xf16>
  return %o : tensor<2x8x16x32xf16>
}

// Dynamic dimensions everywhere; the default scale needs a static head dim,
// so scale is explicit.
// CHECK-LABEL: func @dynamic
// CHECK: attn.attention ins(%{{.*}}, %{{.*}}, %{{.*}} : tensor<?x?x?x?xf32>, tensor<?x?x?x?xf32>, tensor<?x?x?x?xf32>) {scale = 1.250000e-01 : f32} -> tensor<?x?x?x?xf32>, tensor<?x?x?xf32>
func.func @dynamic(%q: tensor<?x?x?x?xf32>, %k: tensor<?x?x?x?xf32>, %v: tensor<?x?x?x?xf32>) -> (tensor<?x?x?x?xf32>, tensor<?x?x?xf32>) {
  %o, %lse = attn.attention ins(%q, %k, %v : tensor<?x?x?x?xf32>, tensor<?x?x?x?xf32>, tensor<?x?x?x?xf32>) {scale = 0.125 : f32} -> tensor<?x?x?x?xf32>, tensor<?x?x?xf32>
  return %o, %lse : tensor<?x?x?x?xf32>, tensor<?x?x?xf32>
}

// Dynamic batch and lengths with static heads and head dim (default scale),
// static and dynamic sizes mixed between operands.
// CHECK-LABEL: func @dynamic_lengths
// CHECK: attn.attention ins(%{{.*}}, %{{.*}}, %{{.*}} : tensor<?x8x?x64xf16>, tensor<?x2x?x64xf16>, tensor<2x2x?x32xf16>) mask(%{{.*}} : tensor<?x1x?x?xf16>) {causal = #attn.causal<bottom_right>} -> tensor<2x8x?x32xf16>, tensor<?x8x?xf32>
func.func @dynamic_lengths(%q: tensor<?x8x?x64xf16>, %k: tensor<?x2x?x64xf16>, %v: tensor<2x2x?x32xf16>, %m: tensor<?x1x?x?xf16>) -> (tensor<2x8x?x32xf16>, tensor<?x8x?xf32>) {
  %o, %lse = attn.attention ins(%q, %k, %v : tensor<?x8x?x64xf16>, tensor<?x2x?x64xf16>, tensor<2x2x?x32xf16>) mask(%m : tensor<?x1x?x?xf16>) {causal = #attn.causal<bottom_right>} -> tensor<2x8x?x32xf16>, tensor<?x8x?xf32>
  return %o, %lse : tensor<2x8x?x32xf16>, tensor<?x8x?xf32>
}

// Decode: a single query row.
// CHECK-LABEL: func @single_query
// CHECK: attn.attention ins(%{{.*}}, %{{.*}}, %{{.*}} : tensor<4x8x1x128xf16>, tensor<4x8x1024x128xf16>, tensor<4x8x1024x128xf16>) {causal = #attn.causal<bottom_right>} -> tensor<4x8x1x128xf16>
func.func @single_query(%q: tensor<4x8x1x128xf16>, %k: tensor<4x8x1024x128xf16>, %v: tensor<4x8x1024x128xf16>) -> tensor<4x8x1x128xf16> {
  %o = attn.attention ins(%q, %k, %v : tensor<4x8x1x128xf16>, tensor<4x8x1024x128xf16>, tensor<4x8x1024x128xf16>) {causal = #attn.causal<bottom_right>} -> tensor<4x8x1x128xf16>
  return %o : tensor<4x8x1x128xf16>
}

// The value head dim differs from the query/key head dim.
// CHECK-LABEL: func @value_head_dim
// CHECK: attn.attention ins(%{{.*}}, %{{.*}}, %{{.*}} : tensor<1x4x16x192xbf16>, tensor<1x4x32x192xbf16>, tensor<1x4x32x128xbf16>) -> tensor<1x4x16x128xbf16>, tensor<1x4x16xf32>
func.func @value_head_dim(%q: tensor<1x4x16x192xbf16>, %k: tensor<1x4x32x192xbf16>, %v: tensor<1x4x32x128xbf16>) -> (tensor<1x4x16x128xbf16>, tensor<1x4x16xf32>) {
  %o, %lse = attn.attention ins(%q, %k, %v : tensor<1x4x16x192xbf16>, tensor<1x4x32x192xbf16>, tensor<1x4x32x128xbf16>) -> tensor<1x4x16x128xbf16>, tensor<1x4x16xf32>
  return %o, %lse : tensor<1x4x16x128xbf16>, tensor<1x4x16xf32>
}

// Zero-sized batch, lengths and head dims are valid (the heads are not).
// CHECK-LABEL: func @empty_dims
// CHECK: attn.attention ins(%{{.*}}, %{{.*}}, %{{.*}} : tensor<0x4x0x0xf32>, tensor<0x2x0x0xf32>, tensor<0x2x0x0xf32>) {scale = 1.000000e+00 : f32} -> tensor<0x4x0x0xf32>, tensor<0x4x0xf32>
func.func @empty_dims(%q: tensor<0x4x0x0xf32>, %k: tensor<0x2x0x0xf32>, %v: tensor<0x2x0x0xf32>) -> (tensor<0x4x0x0xf32>, tensor<0x4x0xf32>) {
  %o, %lse = attn.attention ins(%q, %k, %v : tensor<0x4x0x0xf32>, tensor<0x2x0x0xf32>, tensor<0x2x0x0xf32>) {scale = 1.0 : f32} -> tensor<0x4x0x0xf32>, tensor<0x4x0xf32>
  return %o, %lse : tensor<0x4x0x0xf32>, tensor<0x4x0xf32>
}

//===-- Everything at once. -----------------------------------------------===//

// CHECK-LABEL: func @all_features
// CHECK-SAME: (%[[Q:[a-z0-9_]+]]: tensor<2x8x16x64xbf16>, %[[K:[a-z0-9_]+]]: tensor<2x2x32x64xbf16>, %[[V:[a-z0-9_]+]]: tensor<2x2x32x48xbf16>, %[[M:[a-z0-9_]+]]: tensor<1x8x1x32xf32>, %[[SEED:[a-z0-9_]+]]: i64, %[[OFF:[a-z0-9_]+]]: i64)
// CHECK: %[[O:[a-z0-9_]+]], %[[L:[a-z0-9_]+]] = attn.attention ins(%[[Q]], %[[K]], %[[V]] : tensor<2x8x16x64xbf16>, tensor<2x2x32x64xbf16>, tensor<2x2x32x48xbf16>)
// CHECK-SAME: mask(%[[M]] : tensor<1x8x1x32xf32>) rng(%[[SEED]], %[[OFF]])
// CHECK-SAME: {causal = #attn.causal<bottom_right>, dropout_p = 2.500000e-01 : f32, scale = 5.000000e-01 : f32, softcap = 3.000000e+01 : f32, window = array<i64: 8, -1>}
// CHECK-SAME: -> tensor<2x8x16x48xbf16>, tensor<2x8x16xf32>
// CHECK: return %[[O]], %[[L]]
func.func @all_features(%q: tensor<2x8x16x64xbf16>, %k: tensor<2x2x32x64xbf16>, %v: tensor<2x2x32x48xbf16>, %m: tensor<1x8x1x32xf32>, %seed: i64, %offset: i64) -> (tensor<2x8x16x48xbf16>, tensor<2x8x16xf32>) {
  %o, %lse = attn.attention ins(%q, %k, %v : tensor<2x8x16x64xbf16>, tensor<2x2x32x64xbf16>, tensor<2x2x32x48xbf16>) mask(%m : tensor<1x8x1x32xf32>) rng(%seed, %offset) {window = array<i64: 8, -1>, softcap = 30.0 : f32, scale = 0.5 : f32, dropout_p = 0.25 : f32, causal = #attn.causal<bottom_right>} -> tensor<2x8x16x48xbf16>, tensor<2x8x16xf32>
  return %o, %lse : tensor<2x8x16x48xbf16>, tensor<2x8x16xf32>
}

//===-- attn.attention_grad. ----------------------------------------------===//

// CHECK-LABEL: func @grad_minimal
// CHECK: %{{.*}}, %{{.*}}, %{{.*}} = attn.attention_grad ins(%{{.*}}, %{{.*}}, %{{.*}} : tensor<2x4x8x16xf32>, tensor<2x2x6x16xf32>, tensor<2x2x6x12xf32>) forward(%{{.*}}, %{{.*}} : tensor<2x4x8x12xf32>, tensor<2x4x8xf32>) grad_output(%{{.*}} : tensor<2x4x8x12xf32>) -> tensor<2x4x8x16xf32>, tensor<2x2x6x16xf32>, tensor<2x2x6x12xf32>
func.func @grad_minimal(%q: tensor<2x4x8x16xf32>, %k: tensor<2x2x6x16xf32>, %v: tensor<2x2x6x12xf32>, %o: tensor<2x4x8x12xf32>, %lse: tensor<2x4x8xf32>, %do: tensor<2x4x8x12xf32>) -> (tensor<2x4x8x16xf32>, tensor<2x2x6x16xf32>, tensor<2x2x6x12xf32>) {
  %dq, %dk, %dv = attn.attention_grad ins(%q, %k, %v : tensor<2x4x8x16xf32>, tensor<2x2x6x16xf32>, tensor<2x2x6x12xf32>) forward(%o, %lse : tensor<2x4x8x12xf32>, tensor<2x4x8xf32>) grad_output(%do : tensor<2x4x8x12xf32>) -> tensor<2x4x8x16xf32>, tensor<2x2x6x16xf32>, tensor<2x2x6x12xf32>
  return %dq, %dk, %dv : tensor<2x4x8x16xf32>, tensor<2x2x6x16xf32>, tensor<2x2x6x12xf32>
}

// CHECK-LABEL: func @grad_all_features
// CHECK: attn.attention_grad
// CHECK-SAME: mask(%{{.*}} : tensor<1x8x1x32xi1>) rng(%{{.*}}, %{{.*}})
// CHECK-SAME: {causal = #attn.causal<top_left>, deterministic, dropout_p = 1.000000e-01 : f32, softcap = 2.000000e+01 : f32, window = array<i64: 4, 4>}
func.func @grad_all_features(%q: tensor<2x8x16x64xbf16>, %k: tensor<2x2x32x64xbf16>, %v: tensor<2x2x32x48xbf16>, %o: tensor<2x8x16x48xbf16>, %lse: tensor<2x8x16xf32>, %do: tensor<2x8x16x48xbf16>, %m: tensor<1x8x1x32xi1>, %seed: i64, %offset: i64) -> (tensor<2x8x16x64xbf16>, tensor<2x2x32x64xbf16>, tensor<2x2x32x48xbf16>) {
  %dq, %dk, %dv = attn.attention_grad ins(%q, %k, %v : tensor<2x8x16x64xbf16>, tensor<2x2x32x64xbf16>, tensor<2x2x32x48xbf16>) forward(%o, %lse : tensor<2x8x16x48xbf16>, tensor<2x8x16xf32>) grad_output(%do : tensor<2x8x16x48xbf16>) mask(%m : tensor<1x8x1x32xi1>) rng(%seed, %offset) {causal = #attn.causal<top_left>, window = array<i64: 4, 4>, softcap = 20.0 : f32, dropout_p = 0.1 : f32, deterministic} -> tensor<2x8x16x64xbf16>, tensor<2x2x32x64xbf16>, tensor<2x2x32x48xbf16>
  return %dq, %dk, %dv : tensor<2x8x16x64xbf16>, tensor<2x2x32x64xbf16>, tensor<2x2x32x48xbf16>
}

// The gradient with an explicit dropout keep mask.
// CHECK-LABEL: func @grad_dropout_mask
// CHECK: attn.attention_grad
// CHECK-SAME: dropout_mask(%{{.*}} : tensor<2x1x8x6xi1>) {dropout_p = 2.500000e-01 : f32}
func.func @grad_dropout_mask(%q: tensor<2x4x8x16xf32>, %k: tensor<2x2x6x16xf32>, %v: tensor<2x2x6x12xf32>, %o: tensor<2x4x8x12xf32>, %lse: tensor<2x4x8xf32>, %do: tensor<2x4x8x12xf32>, %keep: tensor<2x1x8x6xi1>) -> (tensor<2x4x8x16xf32>, tensor<2x2x6x16xf32>, tensor<2x2x6x12xf32>) {
  %dq, %dk, %dv = attn.attention_grad ins(%q, %k, %v : tensor<2x4x8x16xf32>, tensor<2x2x6x16xf32>, tensor<2x2x6x12xf32>) forward(%o, %lse : tensor<2x4x8x12xf32>, tensor<2x4x8xf32>) grad_output(%do : tensor<2x4x8x12xf32>) dropout_mask(%keep : tensor<2x1x8x6xi1>) {dropout_p = 0.25 : f32} -> tensor<2x4x8x16xf32>, tensor<2x2x6x16xf32>, tensor<2x2x6x12xf32>
  return %dq, %dk, %dv : tensor<2x4x8x16xf32>, tensor<2x2x6x16xf32>, tensor<2x2x6x12xf32>
}

// Dynamic sizes are accepted where the relations cannot be checked.
// CHECK-LABEL: func @grad_dynamic
// CHECK: attn.attention_grad
func.func @grad_dynamic(%q: tensor<?x4x?x16xf16>, %k: tensor<?x2x?x16xf16>, %v: tensor<?x2x?x16xf16>, %o: tensor<?x4x?x16xf16>, %lse: tensor<?x4x?xf32>, %do: tensor<?x4x?x16xf16>) -> (tensor<?x4x?x16xf16>, tensor<?x2x?x16xf16>, tensor<?x2x?x16xf16>) {
  %dq, %dk, %dv = attn.attention_grad ins(%q, %k, %v : tensor<?x4x?x16xf16>, tensor<?x2x?x16xf16>, tensor<?x2x?x16xf16>) forward(%o, %lse : tensor<?x4x?x16xf16>, tensor<?x4x?xf32>) grad_output(%do : tensor<?x4x?x16xf16>) -> tensor<?x4x?x16xf16>, tensor<?x2x?x16xf16>, tensor<?x2x?x16xf16>
  return %dq, %dk, %dv : tensor<?x4x?x16xf16>, tensor<?x2x?x16xf16>, tensor<?x2x?x16xf16>
}

// A window of [-1, -1] restricts nothing, as no window does: the gradient of
// such a forward may leave the window out.
// CHECK-LABEL: func @grad_of_unbounded_window
// CHECK: attn.attention_grad
func.func @grad_of_unbounded_window(%q: tensor<1x2x8x16xf32>, %k: tensor<1x2x8x16xf32>, %v: tensor<1x2x8x16xf32>, %do: tensor<1x2x8x16xf32>) -> tensor<1x2x8x16xf32> {
  %o, %lse = attn.attention ins(%q, %k, %v : tensor<1x2x8x16xf32>, tensor<1x2x8x16xf32>, tensor<1x2x8x16xf32>) {window = array<i64: -1, -1>} -> tensor<1x2x8x16xf32>, tensor<1x2x8xf32>
  %dq, %dk, %dv = attn.attention_grad ins(%q, %k, %v : tensor<1x2x8x16xf32>, tensor<1x2x8x16xf32>, tensor<1x2x8x16xf32>) forward(%o, %lse : tensor<1x2x8x16xf32>, tensor<1x2x8xf32>) grad_output(%do : tensor<1x2x8x16xf32>) -> tensor<1x2x8x16xf32>, tensor<1x2x8x16xf32>, tensor<1x2x8x16xf32>
  return %dq : tensor<1x2x8x16xf32>
}
