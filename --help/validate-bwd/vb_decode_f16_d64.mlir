func.func @vb_decode_f16_d64(%q: tensor<4x8x1x64xf16>, %k: tensor<4x1x777x64xf16>, %v: tensor<4x1x777x64xf16>, %do: tensor<4x8x1x64xf16>) -> (tensor<4x8x1x64xf16>, tensor<4x8x1xf32>, tensor<4x8x1x64xf16>, tensor<4x1x777x64xf16>, tensor<4x1x777x64xf16>) {
  %o, %l = attn.attention ins(%q, %k, %v : tensor<4x8x1x64xf16>, tensor<4x1x777x64xf16>, tensor<4x1x777x64xf16>) -> tensor<4x8x1x64xf16>, tensor<4x8x1xf32>
  %dq, %dk, %dv = attn.attention_grad ins(%q, %k, %v : tensor<4x8x1x64xf16>, tensor<4x1x777x64xf16>, tensor<4x1x777x64xf16>) forward(%o, %l : tensor<4x8x1x64xf16>, tensor<4x8x1xf32>) grad_output(%do : tensor<4x8x1x64xf16>) -> tensor<4x8x1x64xf16>, tensor<4x1x777x64xf16>, tensor<4x1x777x64xf16>
  return %o, %l, %dq, %dk, %dv : tensor<4x8x1x64xf16>, tensor<4x8x1xf32>, tensor<4x8x1x64xf16>, tensor<4x1x777x64xf16>, tensor<4x1x777x64xf16>
}
