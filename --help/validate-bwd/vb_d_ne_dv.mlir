func.func @vb_d_ne_dv(%q: tensor<1x2x50x64xbf16>, %k: tensor<1x2x60x64xbf16>, %v: tensor<1x2x60x128xbf16>, %do: tensor<1x2x50x128xbf16>) -> (tensor<1x2x50x128xbf16>, tensor<1x2x50xf32>, tensor<1x2x50x64xbf16>, tensor<1x2x60x64xbf16>, tensor<1x2x60x128xbf16>) {
  %o, %l = attn.attention ins(%q, %k, %v : tensor<1x2x50x64xbf16>, tensor<1x2x60x64xbf16>, tensor<1x2x60x128xbf16>) -> tensor<1x2x50x128xbf16>, tensor<1x2x50xf32>
  %dq, %dk, %dv = attn.attention_grad ins(%q, %k, %v : tensor<1x2x50x64xbf16>, tensor<1x2x60x64xbf16>, tensor<1x2x60x128xbf16>) forward(%o, %l : tensor<1x2x50x128xbf16>, tensor<1x2x50xf32>) grad_output(%do : tensor<1x2x50x128xbf16>) -> tensor<1x2x50x64xbf16>, tensor<1x2x60x64xbf16>, tensor<1x2x60x128xbf16>
  return %o, %l, %dq, %dk, %dv : tensor<1x2x50x128xbf16>, tensor<1x2x50xf32>, tensor<1x2x50x64xbf16>, tensor<1x2x60x64xbf16>, tensor<1x2x60x128xbf16>
}
