func.func @vb_f32(%q: tensor<1x2x70x32xf32>, %k: tensor<1x2x90x32xf32>, %v: tensor<1x2x90x32xf32>, %do: tensor<1x2x70x32xf32>) -> (tensor<1x2x70x32xf32>, tensor<1x2x70xf32>, tensor<1x2x70x32xf32>, tensor<1x2x90x32xf32>, tensor<1x2x90x32xf32>) {
  %o, %l = attn.attention ins(%q, %k, %v : tensor<1x2x70x32xf32>, tensor<1x2x90x32xf32>, tensor<1x2x90x32xf32>) {causal = #attn.causal<top_left>} -> tensor<1x2x70x32xf32>, tensor<1x2x70xf32>
  %dq, %dk, %dv = attn.attention_grad ins(%q, %k, %v : tensor<1x2x70x32xf32>, tensor<1x2x90x32xf32>, tensor<1x2x90x32xf32>) forward(%o, %l : tensor<1x2x70x32xf32>, tensor<1x2x70xf32>) grad_output(%do : tensor<1x2x70x32xf32>) {causal = #attn.causal<top_left>} -> tensor<1x2x70x32xf32>, tensor<1x2x90x32xf32>, tensor<1x2x90x32xf32>
  return %o, %l, %dq, %dk, %dv : tensor<1x2x70x32xf32>, tensor<1x2x70xf32>, tensor<1x2x70x32xf32>, tensor<1x2x90x32xf32>, tensor<1x2x90x32xf32>
}
