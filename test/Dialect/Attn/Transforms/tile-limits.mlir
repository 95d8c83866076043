// attn-tile at the edges of the supported sizes (issue 17): a block larger
// than its sequence is clamped to it (a block of 2^63 - 1 overflowed the
// tile loops and crashed the JIT-compiled code; 10^8 ran for minutes), an
// empty head dim and a head dim past 2^16 are errors, not invalid IR.
// RUN: attention-opt %s -split-input-file --attn-tile="block-q=9223372036854775807 block-kv=100000000" -verify-diagnostics | FileCheck %s

// One tile per sequence: query tiles of the clamped 24 rows, key tiles of
// the clamped 40 keys.
// CHECK-LABEL: func.func @clamped
// CHECK: scf.forall ({{.+}}) in (2, 4, %{{.+}}) shared_outs({{.+}}) -> (tensor<2x4x24x16xf32>)
// CHECK: scf.for {{.+}} -> (tensor<24x16xf32>, tensor<24xf32>, tensor<24xf32>)
// CHECK: tensor.extract_slice %arg1[{{.+}}] [1, 1, %c40{{.*}}, 16]
func.func @clamped(%q: tensor<2x4x24x16xf32>, %k: tensor<2x2x40x16xf32>, %v: tensor<2x2x40x16xf32>) -> tensor<2x4x24x16xf32> {
  %o = attn.attention ins(%q, %k, %v : tensor<2x4x24x16xf32>, tensor<2x2x40x16xf32>, tensor<2x2x40x16xf32>) {causal = #attn.causal<bottom_right>} -> tensor<2x4x24x16xf32>
  return %o : tensor<2x4x24x16xf32>
}

// -----

func.func @empty_head_dim(%q: tensor<1x4x8x0xf32>, %k: tensor<1x2x8x0xf32>, %v: tensor<1x2x8x0xf32>) -> tensor<1x4x8x0xf32> {
  // expected-error @+1 {{attn-tile: empty head dims (D = 0, Dv = 0) are not tiled; attn-decompose lowers them}}
  %o = attn.attention ins(%q, %k, %v : tensor<1x4x8x0xf32>, tensor<1x2x8x0xf32>, tensor<1x2x8x0xf32>) {scale = 1.0 : f32} -> tensor<1x4x8x0xf32>
  return %o : tensor<1x4x8x0xf32>
}

// -----

func.func @huge_head_dim(%q: tensor<1x1x8x4611686018427387904xf16>, %k: tensor<1x1x8x4611686018427387904xf16>, %v: tensor<1x1x8x4611686018427387904xf16>) -> tensor<1x1x8x4611686018427387904xf16> {
  // expected-error @+1 {{attn-tile: operand #0 ('tensor<1x1x8x4611686018427387904xf16>'): dimension 3 is 4611686018427387904, above the supported head dim 65536 (2^16)}}
  %o = attn.attention ins(%q, %k, %v : tensor<1x1x8x4611686018427387904xf16>, tensor<1x1x8x4611686018427387904xf16>, tensor<1x1x8x4611686018427387904xf16>) {scale = 1.0 : f32} -> tensor<1x1x8x4611686018427387904xf16>
  return %o : tensor<1x1x8x4611686018427387904xf16>
}
