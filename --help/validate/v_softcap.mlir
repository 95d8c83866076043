func.func @v_softcap(%q: tensor<2x4x128x64xbf16>, %k: tensor<2x4x128x64xbf16>, %v: tensor<2x4x128x64xbf16>) -> (tensor<2x4x128x64xbf16>, tensor<2x4x128xf32>) {
  %o, %l = attn.attention ins(%q, %k, %v : tensor<2x4x128x64xbf16>, tensor<2x4x128x64xbf16>, tensor<2x4x128x64xbf16>) {softcap = 2.0 : f32, scale = 0.5 : f32} -> tensor<2x4x128x64xbf16>, tensor<2x4x128xf32>
  return %o, %l : tensor<2x4x128x64xbf16>, tensor<2x4x128xf32>
}
