// Shapes: decoding (Lq = 1), one key, D != Dv, odd sizes, long rows.
// RUN: attn-cpu-run %s --seed=6 | FileCheck %s
// RUN: attn-cpu-run %s --seed=17 | FileCheck %s
// The online-softmax tiled form, with tiles that divide the lengths and
// tiles that don't, and with the tiles attn-select-tiles picks for sm_80.
// RUN: attn-cpu-run %s --seed=6 --lowering="attn-tile{block-q=16 block-kv=16}" | FileCheck %s
// RUN: attn-cpu-run %s --seed=6 --lowering="attn-tile{block-q=8 block-kv=12}" | FileCheck %s
// RUN: attn-cpu-run %s --seed=6 --lowering="attn-select-tiles{chip=sm_80},attn-tile" | FileCheck %s

// CHECK: B=4 Hq=8 Hkv=2 Lq=1 Lk=129 D=64 Dv=64 bf16
// CHECK: PASS
func.func @decode(%q: tensor<4x8x1x64xbf16>, %k: tensor<4x2x129x64xbf16>, %v: tensor<4x2x129x64xbf16>) -> (tensor<4x8x1x64xbf16>, tensor<4x8x1xf32>) {
  %o, %l = attn.attention ins(%q, %k, %v : tensor<4x8x1x64xbf16>, tensor<4x2x129x64xbf16>, tensor<4x2x129x64xbf16>) {causal = #attn.causal<bottom_right>} -> tensor<4x8x1x64xbf16>, tensor<4x8x1xf32>
  return %o, %l : tensor<4x8x1x64xbf16>, tensor<4x8x1xf32>
}

// CHECK: Lq=5 Lk=1 D=16 Dv=16 f32
// CHECK: PASS
func.func @one_key(%q: tensor<1x2x5x16xf32>, %k: tensor<1x2x1x16xf32>, %v: tensor<1x2x1x16xf32>) -> (tensor<1x2x5x16xf32>, tensor<1x2x5xf32>) {
  %o, %l = attn.attention ins(%q, %k, %v : tensor<1x2x5x16xf32>, tensor<1x2x1x16xf32>, tensor<1x2x1x16xf32>) -> tensor<1x2x5x16xf32>, tensor<1x2x5xf32>
  return %o, %l : tensor<1x2x5x16xf32>, tensor<1x2x5xf32>
}

// CHECK: Lq=13 Lk=29 D=24 Dv=40 f16
// CHECK: PASS
func.func @d_ne_dv(%q: tensor<2x3x13x24xf16>, %k: tensor<2x3x29x24xf16>, %v: tensor<2x3x29x40xf16>) -> (tensor<2x3x13x40xf16>, tensor<2x3x13xf32>) {
  %o, %l = attn.attention ins(%q, %k, %v : tensor<2x3x13x24xf16>, tensor<2x3x29x24xf16>, tensor<2x3x29x40xf16>) -> tensor<2x3x13x40xf16>, tensor<2x3x13xf32>
  return %o, %l : tensor<2x3x13x40xf16>, tensor<2x3x13xf32>
}

// CHECK: Lq=3 Lk=300 D=128 Dv=128 bf16
// CHECK: PASS
func.func @long_row(%q: tensor<1x2x3x128xbf16>, %k: tensor<1x1x300x128xbf16>, %v: tensor<1x1x300x128xbf16>) -> tensor<1x2x3x128xbf16> {
  %o = attn.attention ins(%q, %k, %v : tensor<1x2x3x128xbf16>, tensor<1x1x300x128xbf16>, tensor<1x1x300x128xbf16>) {scale = 0.2 : f32} -> tensor<1x2x3x128xbf16>
  return %o : tensor<1x2x3x128xbf16>
}
// CHECK: all 4 attention op(s) match
