func.func @v_decode(%q: tensor<8x32x1x128xbf16>, %k: tensor<8x8x2048x128xbf16>, %v: tensor<8x8x2048x128xbf16>) -> (tensor<8x32x1x128xbf16>, tensor<8x32x1xf32>) {
  %o, %l = attn.attention ins(%q, %k, %v : tensor<8x32x1x128xbf16>, tensor<8x8x2048x128xbf16>, tensor<8x8x2048x128xbf16>) {causal = #attn.causal<bottom_right>} -> tensor<8x32x1x128xbf16>, tensor<8x32x1xf32>
  return %o, %l : tensor<8x32x1x128xbf16>, tensor<8x32x1xf32>
}
