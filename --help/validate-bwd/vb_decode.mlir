func.func @vb_decode(%q: tensor<8x32x1x128xbf16>, %k: tensor<8x8x2048x128xbf16>, %v: tensor<8x8x2048x128xbf16>, %do: tensor<8x32x1x128xbf16>) -> (tensor<8x32x1x128xbf16>, tensor<8x32x1xf32>, tensor<8x32x1x128xbf16>, tensor<8x8x2048x128xbf16>, tensor<8x8x2048x128xbf16>) {
  %o, %l = attn.attention ins(%q, %k, %v : tensor<8x32x1x128xbf16>, tensor<8x8x2048x128xbf16>, tensor<8x8x2048x128xbf16>) {causal = #attn.causal<bottom_right>} -> tensor<8x32x1x128xbf16>, tensor<8x32x1xf32>
  %dq, %dk, %dv = attn.attention_grad ins(%q, %k, %v : tensor<8x32x1x128xbf16>, tensor<8x8x2048x128xbf16>, tensor<8x8x2048x128xbf16>) forward(%o, %l : tensor<8x32x1x128xbf16>, tensor<8x32x1xf32>) grad_output(%do : tensor<8x32x1x128xbf16>) {causal = #attn.causal<bottom_right>} -> tensor<8x32x1x128xbf16>, tensor<8x8x2048x128xbf16>, tensor<8x8x2048x128xbf16>
  return %o, %l, %dq, %dk, %dv : tensor<8x32x1x128xbf16>, tensor<8x32x1xf32>, tensor<8x32x1x128xbf16>, tensor<8x8x2048x128xbf16>, tensor<8x8x2048x128xbf16>
}
