// RUN: attention-opt %s | attention-opt | FileCheck %s

// attn.paged_attention prints and parses back: a GQA decode step with lse,
// and a sliding window with softcap and an explicit scale.

// CHECK-LABEL: func.func @decode
// CHECK: attn.paged_attention ins(%{{.*}} : tensor<4x32x1x128xbf16>) cache(%{{.*}}, %{{.*}} : tensor<256x64x8x128xbf16>, tensor<256x64x8x128xbf16>) pages(%{{.*}}, %{{.*}} : tensor<4x32xi32>, tensor<4xi32>) {causal = #attn.causal<bottom_right>} -> tensor<4x32x1x128xbf16>, tensor<4x32x1xf32>
func.func @decode(%q: tensor<4x32x1x128xbf16>, %kc: tensor<256x64x8x128xbf16>, %vc: tensor<256x64x8x128xbf16>,
                  %table: tensor<4x32xi32>, %lens: tensor<4xi32>) -> (tensor<4x32x1x128xbf16>, tensor<4x32x1xf32>) {
  %o, %lse = attn.paged_attention ins(%q : tensor<4x32x1x128xbf16>)
      cache(%kc, %vc : tensor<256x64x8x128xbf16>, tensor<256x64x8x128xbf16>)
      pages(%table, %lens : tensor<4x32xi32>, tensor<4xi32>)
      {causal = #attn.causal<bottom_right>}
      -> tensor<4x32x1x128xbf16>, tensor<4x32x1xf32>
  return %o, %lse : tensor<4x32x1x128xbf16>, tensor<4x32x1xf32>
}

// CHECK-LABEL: func.func @window
// CHECK: attn.paged_attention ins(%{{.*}} : tensor<2x4x3x16xf16>) cache(%{{.*}}, %{{.*}} : tensor<9x16x2x16xf16>, tensor<9x16x2x8xf16>) pages(%{{.*}}, %{{.*}} : tensor<2x5xi32>, tensor<2xi32>) {scale = 2.500000e-01 : f32, softcap = 3.000000e+01 : f32, window = array<i64: 7, 0>} -> tensor<2x4x3x8xf16>
func.func @window(%q: tensor<2x4x3x16xf16>, %kc: tensor<9x16x2x16xf16>, %vc: tensor<9x16x2x8xf16>,
                  %table: tensor<2x5xi32>, %lens: tensor<2xi32>) -> tensor<2x4x3x8xf16> {
  %o = attn.paged_attention ins(%q : tensor<2x4x3x16xf16>)
      cache(%kc, %vc : tensor<9x16x2x16xf16>, tensor<9x16x2x8xf16>)
      pages(%table, %lens : tensor<2x5xi32>, tensor<2xi32>)
      {window = array<i64: 7, 0>, softcap = 30.0 : f32, scale = 0.25 : f32}
      -> tensor<2x4x3x8xf16>
  return %o : tensor<2x4x3x8xf16>
}
