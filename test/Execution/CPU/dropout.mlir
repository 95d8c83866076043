// Dropout: the keep mask emitted in MLIR must equal the C++ Philox bit for
// bit, and the output must match the reference that uses the C++ bits.
// RUN: attn-cpu-run %s --seed=2 | FileCheck %s
// RUN: attn-cpu-run %s --seed=13 | FileCheck %s
// The online-softmax tiled form, with tiles that divide the lengths and
// tiles that don't, and with the tiles attn-select-tiles picks for sm_80.
// RUN: attn-cpu-run %s --seed=2 --lowering="attn-tile{block-q=16 block-kv=16}" | FileCheck %s
// RUN: attn-cpu-run %s --seed=2 --lowering="attn-tile{block-q=8 block-kv=12}" | FileCheck %s
// RUN: attn-cpu-run %s --seed=2 --lowering="attn-select-tiles{chip=sm_80},attn-tile" | FileCheck %s

// CHECK: f32 causal=none dropout
// CHECK: dropout keep mask: 0 mismatches of 4608
// CHECK: PASS
func.func @dropout_f32(%q: tensor<2x4x24x16xf32>, %k: tensor<2x4x24x16xf32>, %v: tensor<2x4x24x16xf32>, %seed: i64, %off: i64) -> (tensor<2x4x24x16xf32>, tensor<2x4x24xf32>) {
  %o, %l = attn.attention ins(%q, %k, %v : tensor<2x4x24x16xf32>, tensor<2x4x24x16xf32>, tensor<2x4x24x16xf32>) rng(%seed, %off) {dropout_p = 0.25 : f32} -> tensor<2x4x24x16xf32>, tensor<2x4x24xf32>
  return %o, %l : tensor<2x4x24x16xf32>, tensor<2x4x24xf32>
}

// Lk = 37 is not a multiple of the 4 words one Philox call yields.
// CHECK: bf16 causal=bottom_right masked dropout
// CHECK: dropout keep mask: 0 mismatches of 2664
// CHECK: PASS
func.func @dropout_gqa_masked(%q: tensor<1x8x9x32xbf16>, %k: tensor<1x2x37x32xbf16>, %v: tensor<1x2x37x32xbf16>, %m: tensor<1x1x9x37xi1>, %seed: i64, %off: i64) -> tensor<1x8x9x32xbf16> {
  %o = attn.attention ins(%q, %k, %v : tensor<1x8x9x32xbf16>, tensor<1x2x37x32xbf16>, tensor<1x2x37x32xbf16>) mask(%m : tensor<1x1x9x37xi1>) rng(%seed, %off) {causal = #attn.causal<bottom_right>, dropout_p = 0.1 : f32} -> tensor<1x8x9x32xbf16>
  return %o : tensor<1x8x9x32xbf16>
}

// CHECK: f16 causal=none dropout
// CHECK: dropout keep mask: 0 mismatches of 1600
// CHECK: PASS
func.func @dropout_high(%q: tensor<1x1x40x8xf16>, %k: tensor<1x1x40x8xf16>, %v: tensor<1x1x40x8xf16>, %seed: i64, %off: i64) -> tensor<1x1x40x8xf16> {
  %o = attn.attention ins(%q, %k, %v : tensor<1x1x40x8xf16>, tensor<1x1x40x8xf16>, tensor<1x1x40x8xf16>) rng(%seed, %off) {dropout_p = 0.9 : f32} -> tensor<1x1x40x8xf16>
  return %o : tensor<1x1x40x8xf16>
}
// CHECK: all 3 attention op(s) match
