func.func @grid_f16_d64_l16384_causal(%q: tensor<2x32x16384x64xf16>, %k: tensor<2x32x16384x64xf16>, %v: tensor<2x32x16384x64xf16>) -> (tensor<2x32x16384x64xf16>) {
  %o = attn.attention ins(%q, %k, %v : tensor<2x32x16384x64xf16>, tensor<2x32x16384x64xf16>, tensor<2x32x16384x64xf16>) {causal = #attn.causal<top_left>} -> tensor<2x32x16384x64xf16>
  return %o : tensor<2x32x16384x64xf16>
}
