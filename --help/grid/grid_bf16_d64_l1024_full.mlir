func.func @grid_bf16_d64_l1024_full(%q: tensor<32x32x1024x64xbf16>, %k: tensor<32x32x1024x64xbf16>, %v: tensor<32x32x1024x64xbf16>) -> (tensor<32x32x1024x64xbf16>) {
  %o = attn.attention ins(%q, %k, %v : tensor<32x32x1024x64xbf16>, tensor<32x32x1024x64xbf16>, tensor<32x32x1024x64xbf16>) -> tensor<32x32x1024x64xbf16>
  return %o : tensor<32x32x1024x64xbf16>
}
