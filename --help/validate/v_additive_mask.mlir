func.func @v_additive_mask(%q: tensor<1x8x96x64xbf16>, %k: tensor<1x2x96x64xbf16>, %v: tensor<1x2x96x64xbf16>, %m: tensor<1x8x1x96xbf16>) -> (tensor<1x8x96x64xbf16>, tensor<1x8x96xf32>) {
  %o, %l = attn.attention ins(%q, %k, %v : tensor<1x8x96x64xbf16>, tensor<1x2x96x64xbf16>, tensor<1x2x96x64xbf16>) mask(%m : tensor<1x8x1x96xbf16>) {causal = #attn.causal<top_left>} -> tensor<1x8x96x64xbf16>, tensor<1x8x96xf32>
  return %o, %l : tensor<1x8x96x64xbf16>, tensor<1x8x96xf32>
}
