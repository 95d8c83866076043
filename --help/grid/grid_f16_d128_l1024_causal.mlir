func.func @grid_f16_d128_l1024_causal(%q: tensor<32x16x1024x128xf16>, %k: tensor<32x16x1024x128xf16>, %v: tensor<32x16x1024x128xf16>) -> (tensor<32x16x1024x128xf16>) {
  %o = attn.attention ins(%q, %k, %v : tensor<32x16x1024x128xf16>, tensor<32x16x1024x128xf16>, tensor<32x16x1024x128xf16>) {causal = #attn.causal<top_left>} -> tensor<32x16x1024x128xf16>
  return %o : tensor<32x16x1024x128xf16>
}
