// Sizes at and past the supported limits (include/attnopt/Dialect/Attn/
// Utils/SizeLimits.h) get a diagnostic naming the limit from every tool,
// never a SIGFPE, a hang or a wrapped byte count (issue 17).
// RUN: attention-opt %s -split-input-file --attn-select-tiles="chip=sm_90a report" -verify-diagnostics -o /dev/null
// (attn-tile: tile-limits.mlir.)

// An empty head dim (D = Dv = 0) no longer divides by zero in the tile rule
// (the roundtrip test's @empty_dims); an empty problem has nothing to report.
func.func @empty_dims(%q: tensor<1x4x8x0xf32>, %k: tensor<1x2x8x0xf32>, %v: tensor<1x2x8x0xf32>) -> tensor<1x4x8x0xf32> {
  // expected-remark @+1 {{block_q=16 block_kv=16}}
  %o = attn.attention ins(%q, %k, %v : tensor<1x4x8x0xf32>, tensor<1x2x8x0xf32>, tensor<1x2x8x0xf32>) {scale = 1.0 : f32} -> tensor<1x4x8x0xf32>
  return %o : tensor<1x4x8x0xf32>
}

// -----

func.func @huge_head_dim(%q: tensor<1x1x8x4611686018427387904xf16>, %k: tensor<1x1x8x4611686018427387904xf16>, %v: tensor<1x1x8x4611686018427387904xf16>) -> tensor<1x1x8x4611686018427387904xf16> {
  // expected-error @+1 {{dimension 3 is 4611686018427387904, above the supported head dim 65536 (2^16)}}
  %o = attn.attention ins(%q, %k, %v : tensor<1x1x8x4611686018427387904xf16>, tensor<1x1x8x4611686018427387904xf16>, tensor<1x1x8x4611686018427387904xf16>) {scale = 1.0 : f32} -> tensor<1x1x8x4611686018427387904xf16>
  return %o : tensor<1x1x8x4611686018427387904xf16>
}

// -----

func.func @too_long(%q: tensor<1x1x2147483648x64xf16>, %k: tensor<1x1x16x64xf16>, %v: tensor<1x1x16x64xf16>) -> tensor<1x1x2147483648x64xf16> {
  // expected-error @+1 {{dimension 2 is 2147483648, above the supported size 2147483647 (2^31 - 1)}}
  %o = attn.attention ins(%q, %k, %v : tensor<1x1x2147483648x64xf16>, tensor<1x1x16x64xf16>, tensor<1x1x16x64xf16>) -> tensor<1x1x2147483648x64xf16>
  return %o : tensor<1x1x2147483648x64xf16>
}

// -----

// Every dim within 2^31 - 1, but the element count overflows 64 bits.
func.func @overflowing_elements(%q: tensor<2147483647x2147483647x2147483647x64xf16>, %k: tensor<2147483647x2147483647x16x64xf16>, %v: tensor<2147483647x2147483647x16x64xf16>) -> tensor<2147483647x2147483647x2147483647x64xf16> {
  // expected-error @+1 {{has more than 2^56 elements, the supported maximum}}
  %o = attn.attention ins(%q, %k, %v : tensor<2147483647x2147483647x2147483647x64xf16>, tensor<2147483647x2147483647x16x64xf16>, tensor<2147483647x2147483647x16x64xf16>) -> tensor<2147483647x2147483647x2147483647x64xf16>
  return %o : tensor<2147483647x2147483647x2147483647x64xf16>
}
