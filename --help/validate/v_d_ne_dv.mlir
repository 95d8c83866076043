func.func @v_d_ne_dv(%q: tensor<1x2x50x64xbf16>, %k: tensor<1x2x60x64xbf16>, %v: tensor<1x2x60x128xbf16>) -> (tensor<1x2x50x128xbf16>, tensor<1x2x50xf32>) {
  %o, %l = attn.attention ins(%q, %k, %v : tensor<1x2x50x64xbf16>, tensor<1x2x60x64xbf16>, tensor<1x2x60x128xbf16>) -> tensor<1x2x50x128xbf16>, tensor<1x2x50xf32>
  return %o, %l : tensor<1x2x50x128xbf16>, tensor<1x2x50xf32>
}
