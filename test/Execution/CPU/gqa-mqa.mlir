// Grouped-query and multi-query attention on the CPU against the float64
// reference, for two input seeds.
// RUN: attn-cpu-run %s --seed=1 | FileCheck %s
// RUN: attn-cpu-run %s --seed=7 | FileCheck %s
// The online-softmax tiled form, with tiles that divide the lengths and
// tiles that don't, and with the tiles attn-select-tiles picks for sm_80.
// RUN: attn-cpu-run %s --seed=1 --lowering="attn-tile{block-q=16 block-kv=16}" | FileCheck %s
// RUN: attn-cpu-run %s --seed=1 --lowering="attn-tile{block-q=8 block-kv=12}" | FileCheck %s
// RUN: attn-cpu-run %s --seed=1 --lowering="attn-select-tiles{chip=sm_80},attn-tile" | FileCheck %s

// CHECK: B=2 Hq=8 Hkv=2 Lq=32 Lk=48 D=16 Dv=16 f32
// CHECK: PASS
func.func @gqa_f32(%q: tensor<2x8x32x16xf32>, %k: tensor<2x2x48x16xf32>, %v: tensor<2x2x48x16xf32>) -> tensor<2x8x32x16xf32> {
  %o = attn.attention ins(%q, %k, %v : tensor<2x8x32x16xf32>, tensor<2x2x48x16xf32>, tensor<2x2x48x16xf32>) -> tensor<2x8x32x16xf32>
  return %o : tensor<2x8x32x16xf32>
}

// CHECK: B=1 Hq=6 Hkv=1 Lq=24 Lk=40 D=32 Dv=32 f16
// CHECK: PASS
func.func @mqa_f16(%q: tensor<1x6x24x32xf16>, %k: tensor<1x1x40x32xf16>, %v: tensor<1x1x40x32xf16>) -> (tensor<1x6x24x32xf16>, tensor<1x6x24xf32>) {
  %o, %lse = attn.attention ins(%q, %k, %v : tensor<1x6x24x32xf16>, tensor<1x1x40x32xf16>, tensor<1x1x40x32xf16>) -> tensor<1x6x24x32xf16>, tensor<1x6x24xf32>
  return %o, %lse : tensor<1x6x24x32xf16>, tensor<1x6x24xf32>
}

// CHECK: B=2 Hq=4 Hkv=4 Lq=17 Lk=17 D=64 Dv=64 bf16
// CHECK: PASS
func.func @mha_bf16(%q: tensor<2x4x17x64xbf16>, %k: tensor<2x4x17x64xbf16>, %v: tensor<2x4x17x64xbf16>) -> tensor<2x4x17x64xbf16> {
  %o = attn.attention ins(%q, %k, %v : tensor<2x4x17x64xbf16>, tensor<2x4x17x64xbf16>, tensor<2x4x17x64xbf16>) -> tensor<2x4x17x64xbf16>
  return %o : tensor<2x4x17x64xbf16>
}
// CHECK: all 3 attention op(s) match the float64 reference
