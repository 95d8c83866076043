func.func @v_mqa_f16_d128(%q: tensor<2x6x130x128xf16>, %k: tensor<2x1x257x128xf16>, %v: tensor<2x1x257x128xf16>) -> (tensor<2x6x130x128xf16>, tensor<2x6x130xf32>) {
  %o, %l = attn.attention ins(%q, %k, %v : tensor<2x6x130x128xf16>, tensor<2x1x257x128xf16>, tensor<2x1x257x128xf16>) -> tensor<2x6x130x128xf16>, tensor<2x6x130xf32>
  return %o, %l : tensor<2x6x130x128xf16>, tensor<2x6x130xf32>
}
