func.func @grid_bf16_d128_l4096_causal(%q: tensor<8x16x4096x128xbf16>, %k: tensor<8x16x4096x128xbf16>, %v: tensor<8x16x4096x128xbf16>) -> (tensor<8x16x4096x128xbf16>) {
  %o = attn.attention ins(%q, %k, %v : tensor<8x16x4096x128xbf16>, tensor<8x16x4096x128xbf16>, tensor<8x16x4096x128xbf16>) {causal = #attn.causal<top_left>} -> tensor<8x16x4096x128xbf16>
  return %o : tensor<8x16x4096x128xbf16>
}
