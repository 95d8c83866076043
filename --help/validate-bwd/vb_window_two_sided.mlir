func.func @vb_window_two_sided(%q: tensor<1x2x190x128xf16>, %k: tensor<1x2x190x128xf16>, %v: tensor<1x2x190x128xf16>, %do: tensor<1x2x190x128xf16>) -> (tensor<1x2x190x128xf16>, tensor<1x2x190xf32>, tensor<1x2x190x128xf16>, tensor<1x2x190x128xf16>, tensor<1x2x190x128xf16>) {
  %o, %l = attn.attention ins(%q, %k, %v : tensor<1x2x190x128xf16>, tensor<1x2x190x128xf16>, tensor<1x2x190x128xf16>) {window = array<i64: 17, 9>} -> tensor<1x2x190x128xf16>, tensor<1x2x190xf32>
  %dq, %dk, %dv = attn.attention_grad ins(%q, %k, %v : tensor<1x2x190x128xf16>, tensor<1x2x190x128xf16>, tensor<1x2x190x128xf16>) forward(%o, %l : tensor<1x2x190x128xf16>, tensor<1x2x190xf32>) grad_output(%do : tensor<1x2x190x128xf16>) {window = array<i64: 17, 9>} -> tensor<1x2x190x128xf16>, tensor<1x2x190x128xf16>, tensor<1x2x190x128xf16>
  return %o, %l, %dq, %dk, %dv : tensor<1x2x190x128xf16>, tensor<1x2x190xf32>, tensor<1x2x190x128xf16>, tensor<1x2x190x128xf16>, tensor<1x2x190x128xf16>
}
