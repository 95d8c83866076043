func.func @grid_bf16_d128_l16384_causal(%q: tensor<2x16x16384x128xbf16>, %k: tensor<2x16x16384x128xbf16>, %v: tensor<2x16x16384x128xbf16>) -> (tensor<2x16x16384x128xbf16>) {
  %o = attn.attention ins(%q, %k, %v : tensor<2x16x16384x128xbf16>, tensor<2x16x16384x128xbf16>, tensor<2x16x16384x128xbf16>) {causal = #attn.causal<top_left>} -> tensor<2x16x16384x128xbf16>
  return %o : tensor<2x16x16384x128xbf16>
}
