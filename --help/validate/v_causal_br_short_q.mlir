func.func @v_causal_br_short_q(%q: tensor<2x4x77x128xbf16>, %k: tensor<2x2x300x128xbf16>, %v: tensor<2x2x300x128xbf16>) -> (tensor<2x4x77x128xbf16>, tensor<2x4x77xf32>) {
  %o, %l = attn.attention ins(%q, %k, %v : tensor<2x4x77x128xbf16>, tensor<2x2x300x128xbf16>, tensor<2x2x300x128xbf16>) {causal = #attn.causal<bottom_right>} -> tensor<2x4x77x128xbf16>, tensor<2x4x77xf32>
  return %o, %l : tensor<2x4x77x128xbf16>, tensor<2x4x77xf32>
}
