func.func @grid_bf16_d64_l16384_full(%q: tensor<2x32x16384x64xbf16>, %k: tensor<2x32x16384x64xbf16>, %v: tensor<2x32x16384x64xbf16>) -> (tensor<2x32x16384x64xbf16>) {
  %o = attn.attention ins(%q, %k, %v : tensor<2x32x16384x64xbf16>, tensor<2x32x16384x64xbf16>, tensor<2x32x16384x64xbf16>) -> tensor<2x32x16384x64xbf16>
  return %o : tensor<2x32x16384x64xbf16>
}
