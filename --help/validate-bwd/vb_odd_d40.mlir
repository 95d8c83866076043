func.func @vb_odd_d40(%q: tensor<1x2x45x40xbf16>, %k: tensor<1x1x67x40xbf16>, %v: tensor<1x1x67x40xbf16>, %do: tensor<1x2x45x40xbf16>) -> (tensor<1x2x45x40xbf16>, tensor<1x2x45xf32>, tensor<1x2x45x40xbf16>, tensor<1x1x67x40xbf16>, tensor<1x1x67x40xbf16>) {
  %o, %l = attn.attention ins(%q, %k, %v : tensor<1x2x45x40xbf16>, tensor<1x1x67x40xbf16>, tensor<1x1x67x40xbf16>) {causal = #attn.causal<top_left>} -> tensor<1x2x45x40xbf16>, tensor<1x2x45xf32>
  %dq, %dk, %dv = attn.attention_grad ins(%q, %k, %v : tensor<1x2x45x40xbf16>, tensor<1x1x67x40xbf16>, tensor<1x1x67x40xbf16>) forward(%o, %l : tensor<1x2x45x40xbf16>, tensor<1x2x45xf32>) grad_output(%do : tensor<1x2x45x40xbf16>) {causal = #attn.causal<top_left>} -> tensor<1x2x45x40xbf16>, tensor<1x1x67x40xbf16>, tensor<1x1x67x40xbf16>
  return %o, %l, %dq, %dk, %dv : tensor<1x2x45x40xbf16>, tensor<1x2x45xf32>, tensor<1x2x45x40xbf16>, tensor<1x1x67x40xbf16>, tensor<1x1x67x40xbf16>
}
