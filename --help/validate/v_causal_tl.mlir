func.func @v_causal_tl(%q: tensor<1x4x300x64xbf16>, %k: tensor<1x4x300x64xbf16>, %v: tensor<1x4x300x64xbf16>) -> (tensor<1x4x300x64xbf16>, tensor<1x4x300xf32>) {
  %o, %l = attn.attention ins(%q, %k, %v : tensor<1x4x300x64xbf16>, tensor<1x4x300x64xbf16>, tensor<1x4x300x64xbf16>) {causal = #attn.causal<top_left>} -> tensor<1x4x300x64xbf16>, tensor<1x4x300xf32>
  return %o, %l : tensor<1x4x300x64xbf16>, tensor<1x4x300xf32>
}
