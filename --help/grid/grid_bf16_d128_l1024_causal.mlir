func.func @grid_bf16_d128_l1024_causal(%q: tensor<32x16x1024x128xbf16>, %k: tensor<32x16x1024x128xbf16>, %v: tensor<32x16x1024x128xbf16>) -> (tensor<32x16x1024x128xbf16>) {
  %o = attn.attention ins(%q, %k, %v : tensor<32x16x1024x128xbf16>, tensor<32x16x1024x128xbf16>, tensor<32x16x1024x128xbf16>) {causal = #attn.causal<top_left>} -> tensor<32x16x1024x128xbf16>
  return %o : tensor<32x16x1024x128xbf16>
}
