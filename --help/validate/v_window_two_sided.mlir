func.func @v_window_two_sided(%q: tensor<1x2x190x128xf16>, %k: tensor<1x2x190x128xf16>, %v: tensor<1x2x190x128xf16>) -> (tensor<1x2x190x128xf16>, tensor<1x2x190xf32>) {
  %o, %l = attn.attention ins(%q, %k, %v : tensor<1x2x190x128xf16>, tensor<1x2x190x128xf16>, tensor<1x2x190x128xf16>) {window = array<i64: 17, 9>} -> tensor<1x2x190x128xf16>, tensor<1x2x190xf32>
  return %o, %l : tensor<1x2x190x128xf16>, tensor<1x2x190xf32>
}
