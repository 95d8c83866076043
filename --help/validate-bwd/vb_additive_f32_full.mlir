func.func @vb_additive_f32_full(%q: tensor<2x2x64x64xf16>, %k: tensor<2x2x80x64xf16>, %v: tensor<2x2x80x64xf16>, %do: tensor<2x2x64x64xf16>, %m: tensor<2x2x64x80xf32>) -> (tensor<2x2x64x64xf16>, tensor<2x2x64xf32>, tensor<2x2x64x64xf16>, tensor<2x2x80x64xf16>, tensor<2x2x80x64xf16>) {
  %o, %l = attn.attention ins(%q, %k, %v : tensor<2x2x64x64xf16>, tensor<2x2x80x64xf16>, tensor<2x2x80x64xf16>) mask(%m : tensor<2x2x64x80xf32>) -> tensor<2x2x64x64xf16>, tensor<2x2x64xf32>
  %dq, %dk, %dv = attn.attention_grad ins(%q, %k, %v : tensor<2x2x64x64xf16>, tensor<2x2x80x64xf16>, tensor<2x2x80x64xf16>) forward(%o, %l : tensor<2x2x64x64xf16>, tensor<2x2x64xf32>) grad_output(%do : tensor<2x2x64x64xf16>) mask(%m : tensor<2x2x64x80xf32>) -> tensor<2x2x64x64xf16>, tensor<2x2x80x64xf16>, tensor<2x2x80x64xf16>
  return %o, %l, %dq, %dk, %dv : tensor<2x2x64x64xf16>, tensor<2x2x64xf32>, tensor<2x2x64x64xf16>, tensor<2x2x80x64xf16>, tensor<2x2x80x64xf16>
}
