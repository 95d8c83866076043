func.func @v_window(%q: tensor<1x4x256x64xbf16>, %k: tensor<1x2x256x64xbf16>, %v: tensor<1x2x256x64xbf16>) -> (tensor<1x4x256x64xbf16>, tensor<1x4x256xf32>) {
  %o, %l = attn.attention ins(%q, %k, %v : tensor<1x4x256x64xbf16>, tensor<1x2x256x64xbf16>, tensor<1x2x256x64xbf16>) {causal = #attn.causal<top_left>, window = array<i64: 40, 0>} -> tensor<1x4x256x64xbf16>, tensor<1x4x256xf32>
  return %o, %l : tensor<1x4x256x64xbf16>, tensor<1x4x256xf32>
}
