// Self-attention: one value as query, key and value (and one value as the
// dropout seed and offset). Each operand position gets its own buffer in the
// entry function, so the op is checked on the inputs the reference sees
// (issue 17: a mapping by value made all three read one buffer, a false
// FAIL with a relative error near 1).
// RUN: attn-cpu-run %s --seed=2 | FileCheck %s
// RUN: attn-cpu-run %s --seed=5 --lowering="attn-tile{block-q=8 block-kv=8}" | FileCheck %s

// CHECK-NOT: FAIL
// CHECK: B=2 Hq=4 Hkv=4 Lq=24 Lk=24 D=16 Dv=16 f32
// CHECK: PASS
func.func @self_attention(%x: tensor<2x4x24x16xf32>) -> (tensor<2x4x24x16xf32>, tensor<2x4x24xf32>) {
  %o, %l = attn.attention ins(%x, %x, %x : tensor<2x4x24x16xf32>, tensor<2x4x24x16xf32>, tensor<2x4x24x16xf32>) {causal = #attn.causal<top_left>} -> tensor<2x4x24x16xf32>, tensor<2x4x24xf32>
  return %o, %l : tensor<2x4x24x16xf32>, tensor<2x4x24xf32>
}

// CHECK: B=1 Hq=2 Hkv=2 Lq=17 Lk=17 D=32 Dv=32 bf16
// CHECK: PASS
func.func @shared_key_value(%q: tensor<1x2x17x32xbf16>, %kv: tensor<1x2x17x32xbf16>) -> tensor<1x2x17x32xbf16> {
  %o = attn.attention ins(%q, %kv, %kv : tensor<1x2x17x32xbf16>, tensor<1x2x17x32xbf16>, tensor<1x2x17x32xbf16>) -> tensor<1x2x17x32xbf16>
  return %o : tensor<1x2x17x32xbf16>
}

// CHECK: B=1 Hq=2 Hkv=2 Lq=20 Lk=20 D=16 Dv=16 f32
// CHECK: PASS
func.func @same_seed_and_offset(%x: tensor<1x2x20x16xf32>, %s: i64) -> tensor<1x2x20x16xf32> {
  %o = attn.attention ins(%x, %x, %x : tensor<1x2x20x16xf32>, tensor<1x2x20x16xf32>, tensor<1x2x20x16xf32>) rng(%s, %s) {dropout_p = 0.2 : f32} -> tensor<1x2x20x16xf32>
  return %o : tensor<1x2x20x16xf32>
}

// The gradient of self-attention.
// CHECK: attn.attention_grad
// CHECK: PASS
func.func @self_attention_grad(%x: tensor<1x2x16x16xf32>, %do: tensor<1x2x16x16xf32>) -> (tensor<1x2x16x16xf32>, tensor<1x2x16x16xf32>, tensor<1x2x16x16xf32>) {
  %o, %l = attn.attention ins(%x, %x, %x : tensor<1x2x16x16xf32>, tensor<1x2x16x16xf32>, tensor<1x2x16x16xf32>) -> tensor<1x2x16x16xf32>, tensor<1x2x16xf32>
  %dq, %dk, %dv = attn.attention_grad ins(%x, %x, %x : tensor<1x2x16x16xf32>, tensor<1x2x16x16xf32>, tensor<1x2x16x16xf32>) forward(%o, %l : tensor<1x2x16x16xf32>, tensor<1x2x16xf32>) grad_output(%do : tensor<1x2x16x16xf32>) -> tensor<1x2x16x16xf32>, tensor<1x2x16x16xf32>, tensor<1x2x16x16xf32>
  return %dq, %dk, %dv : tensor<1x2x16x16xf32>, tensor<1x2x16x16xf32>, tensor<1x2x16x16xf32>
}
