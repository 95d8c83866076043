func.func @vb_mqa_f16_d128(%q: tensor<2x6x130x128xf16>, %k: tensor<2x1x257x128xf16>, %v: tensor<2x1x257x128xf16>, %do: tensor<2x6x130x128xf16>) -> (tensor<2x6x130x128xf16>, tensor<2x6x130xf32>, tensor<2x6x130x128xf16>, tensor<2x1x257x128xf16>, tensor<2x1x257x128xf16>) {
  %o, %l = attn.attention ins(%q, %k, %v : tensor<2x6x130x128xf16>, tensor<2x1x257x128xf16>, tensor<2x1x257x128xf16>) -> tensor<2x6x130x128xf16>, tensor<2x6x130xf32>
  %dq, %dk, %dv = attn.attention_grad ins(%q, %k, %v : tensor<2x6x130x128xf16>, tensor<2x1x257x128xf16>, tensor<2x1x257x128xf16>) forward(%o, %l : tensor<2x6x130x128xf16>, tensor<2x6x130xf32>) grad_output(%do : tensor<2x6x130x128xf16>) -> tensor<2x6x130x128xf16>, tensor<2x1x257x128xf16>, tensor<2x1x257x128xf16>
  return %o, %l, %dq, %dk, %dv : tensor<2x6x130x128xf16>, tensor<2x6x130xf32>, tensor<2x6x130x128xf16>, tensor<2x1x257x128xf16>, tensor<2x1x257x128xf16>
}
