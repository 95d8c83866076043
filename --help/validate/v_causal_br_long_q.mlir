func.func @v_causal_br_long_q(%q: tensor<1x4x300x64xf16>, %k: tensor<1x4x100x64xf16>, %v: tensor<1x4x100x64xf16>) -> (tensor<1x4x300x64xf16>, tensor<1x4x300xf32>) {
  %o, %l = attn.attention ins(%q, %k, %v : tensor<1x4x300x64xf16>, tensor<1x4x100x64xf16>, tensor<1x4x100x64xf16>) {causal = #attn.causal<bottom_right>} -> tensor<1x4x300x64xf16>, tensor<1x4x300xf32>
  return %o, %l : tensor<1x4x300x64xf16>, tensor<1x4x300xf32>
}
