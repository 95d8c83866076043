func.func @v_gqa_bf16(%q: tensor<2x8x200x64xbf16>, %k: tensor<2x2x333x64xbf16>, %v: tensor<2x2x333x64xbf16>) -> (tensor<2x8x200x64xbf16>, tensor<2x8x200xf32>) {
  %o, %l = attn.attention ins(%q, %k, %v : tensor<2x8x200x64xbf16>, tensor<2x2x333x64xbf16>, tensor<2x2x333x64xbf16>) -> tensor<2x8x200x64xbf16>, tensor<2x8x200xf32>
  return %o, %l : tensor<2x8x200x64xbf16>, tensor<2x8x200xf32>
}
