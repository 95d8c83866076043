func.func @grid_bf16_d64_l4096_causal(%q: tensor<8x32x4096x64xbf16>, %k: tensor<8x32x4096x64xbf16>, %v: tensor<8x32x4096x64xbf16>) -> (tensor<8x32x4096x64xbf16>) {
  %o = attn.attention ins(%q, %k, %v : tensor<8x32x4096x64xbf16>, tensor<8x32x4096x64xbf16>, tensor<8x32x4096x64xbf16>) {causal = #attn.causal<top_left>} -> tensor<8x32x4096x64xbf16>
  return %o : tensor<8x32x4096x64xbf16>
}
