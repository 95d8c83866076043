func.func @vb_odd_d33_f32(%q: tensor<1x2x33x33xf32>, %k: tensor<1x2x47x33xf32>, %v: tensor<1x2x47x33xf32>, %do: tensor<1x2x33x33xf32>) -> (tensor<1x2x33x33xf32>, tensor<1x2x33xf32>, tensor<1x2x33x33xf32>, tensor<1x2x47x33xf32>, tensor<1x2x47x33xf32>) {
  %o, %l = attn.attention ins(%q, %k, %v : tensor<1x2x33x33xf32>, tensor<1x2x47x33xf32>, tensor<1x2x47x33xf32>) -> tensor<1x2x33x33xf32>, tensor<1x2x33xf32>
  %dq, %dk, %dv = attn.attention_grad ins(%q, %k, %v : tensor<1x2x33x33xf32>, tensor<1x2x47x33xf32>, tensor<1x2x47x33xf32>) forward(%o, %l : tensor<1x2x33x33xf32>, tensor<1x2x33xf32>) grad_output(%do : tensor<1x2x33x33xf32>) -> tensor<1x2x33x33xf32>, tensor<1x2x47x33xf32>, tensor<1x2x47x33xf32>
  return %o, %l, %dq, %dk, %dv : tensor<1x2x33x33xf32>, tensor<1x2x33xf32>, tensor<1x2x33x33xf32>, tensor<1x2x47x33xf32>, tensor<1x2x47x33xf32>
}
