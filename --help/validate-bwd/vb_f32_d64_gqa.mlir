func.func @vb_f32_d64_gqa(%q: tensor<2x4x48x64xf32>, %k: tensor<2x2x80x64xf32>, %v: tensor<2x2x80x64xf32>, %do: tensor<2x4x48x64xf32>, %m: tensor<2x1x1x80xi1>) -> (tensor<2x4x48x64xf32>, tensor<2x4x48xf32>, tensor<2x4x48x64xf32>, tensor<2x2x80x64xf32>, tensor<2x2x80x64xf32>) {
  %o, %l = attn.attention ins(%q, %k, %v : tensor<2x4x48x64xf32>, tensor<2x2x80x64xf32>, tensor<2x2x80x64xf32>) mask(%m : tensor<2x1x1x80xi1>) -> tensor<2x4x48x64xf32>, tensor<2x4x48xf32>
  %dq, %dk, %dv = attn.attention_grad ins(%q, %k, %v : tensor<2x4x48x64xf32>, tensor<2x2x80x64xf32>, tensor<2x2x80x64xf32>) forward(%o, %l : tensor<2x4x48x64xf32>, tensor<2x4x48xf32>) grad_output(%do : tensor<2x4x48x64xf32>) mask(%m : tensor<2x1x1x80xi1>) -> tensor<2x4x48x64xf32>, tensor<2x2x80x64xf32>, tensor<2x2x80x64xf32>
  return %o, %l, %dq, %dk, %dv : tensor<2x4x48x64xf32>, tensor<2x4x48xf32>, tensor<2x4x48x64xf32>, tensor<2x2x80x64xf32>, tensor<2x2x80x64xf32>
}
