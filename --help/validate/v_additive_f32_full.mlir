func.func @v_additive_f32_full(%q: tensor<2x2x64x64xf16>, %k: tensor<2x2x80x64xf16>, %v: tensor<2x2x80x64xf16>, %m: tensor<2x2x64x80xf32>) -> (tensor<2x2x64x64xf16>, tensor<2x2x64xf32>) {
  %o, %l = attn.attention ins(%q, %k, %v : tensor<2x2x64x64xf16>, tensor<2x2x80x64xf16>, tensor<2x2x80x64xf16>) mask(%m : tensor<2x2x64x80xf32>) -> tensor<2x2x64x64xf16>, tensor<2x2x64xf32>
  return %o, %l : tensor<2x2x64x64xf16>, tensor<2x2x64xf32>
}
