// Dropout with an explicit keep mask (dropout_mask): attn-cpu-run fills the
// mask with random bits (kept with probability 1 - dropout_p) from its
// seeded generator and compares output and lse with the float64 reference,
// which reads the same bits.
// RUN: attn-cpu-run %s --seed=2 | FileCheck %s
// RUN: attn-cpu-run %s --seed=13 | FileCheck %s
// The online-softmax tiled form, with tiles that divide the lengths and
// ragged ones (the padded keep tile must drop nothing it should keep).
// RUN: attn-cpu-run %s --seed=2 --lowering="attn-tile{block-q=16 block-kv=16}" | FileCheck %s
// RUN: attn-cpu-run %s --seed=3 --lowering="attn-tile{block-q=8 block-kv=12}" | FileCheck %s
// RUN: attn-cpu-run %s --seed=4 --lowering="attn-tile{block-q=5 block-kv=7}" | FileCheck %s

// A full [B, Hq, Lq, Lk] keep mask.
// CHECK: f32 causal=none dropout dropout_mask{{$}}
// CHECK: lse: max rel err
// CHECK: PASS
func.func @full_mask(%q: tensor<2x4x24x16xf32>, %k: tensor<2x4x24x16xf32>, %v: tensor<2x4x24x16xf32>, %keep: tensor<2x4x24x24xi1>) -> (tensor<2x4x24x16xf32>, tensor<2x4x24xf32>) {
  %o, %l = attn.attention ins(%q, %k, %v : tensor<2x4x24x16xf32>, tensor<2x4x24x16xf32>, tensor<2x4x24x16xf32>) dropout_mask(%keep : tensor<2x4x24x24xi1>) {dropout_p = 0.25 : f32} -> tensor<2x4x24x16xf32>, tensor<2x4x24xf32>
  return %o, %l : tensor<2x4x24x16xf32>, tensor<2x4x24xf32>
}

// GQA, a boolean mask, bottom-right causal, and a keep mask broadcast over
// batch and heads; Lk = 37.
// CHECK: bf16 causal=bottom_right masked dropout dropout_mask{{$}}
// CHECK: PASS
func.func @gqa_masked_causal(%q: tensor<1x8x9x32xbf16>, %k: tensor<1x2x37x32xbf16>, %v: tensor<1x2x37x32xbf16>, %m: tensor<1x1x9x37xi1>, %keep: tensor<1x1x9x37xi1>) -> tensor<1x8x9x32xbf16> {
  %o = attn.attention ins(%q, %k, %v : tensor<1x8x9x32xbf16>, tensor<1x2x37x32xbf16>, tensor<1x2x37x32xbf16>) mask(%m : tensor<1x1x9x37xi1>) dropout_mask(%keep : tensor<1x1x9x37xi1>) {causal = #attn.causal<bottom_right>, dropout_p = 0.1 : f32} -> tensor<1x8x9x32xbf16>
  return %o : tensor<1x8x9x32xbf16>
}

// A keep mask per (batch, key), broadcast over heads and query rows, with a
// window and softcap, p = 0.5.
// CHECK: f16 causal=none window softcap dropout dropout_mask{{$}}
// CHECK: PASS
func.func @per_key_mask(%q: tensor<2x2x20x8xf16>, %k: tensor<2x2x40x8xf16>, %v: tensor<2x2x40x8xf16>, %keep: tensor<2x1x1x40xi1>) -> (tensor<2x2x20x8xf16>, tensor<2x2x20xf32>) {
  %o, %l = attn.attention ins(%q, %k, %v : tensor<2x2x20x8xf16>, tensor<2x2x40x8xf16>, tensor<2x2x40x8xf16>) dropout_mask(%keep : tensor<2x1x1x40xi1>) {dropout_p = 0.5 : f32, softcap = 20.0 : f32, window = array<i64: 6, 3>} -> tensor<2x2x20x8xf16>, tensor<2x2x20xf32>
  return %o, %l : tensor<2x2x20x8xf16>, tensor<2x2x20xf32>
}
// CHECK: all 3 attention op(s) match the float64 reference
