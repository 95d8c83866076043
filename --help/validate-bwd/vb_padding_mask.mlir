func.func @vb_padding_mask(%q: tensor<3x4x64x128xf16>, %k: tensor<3x4x200x128xf16>, %v: tensor<3x4x200x128xf16>, %do: tensor<3x4x64x128xf16>, %m: tensor<3x1x1x200xi1>) -> (tensor<3x4x64x128xf16>, tensor<3x4x64xf32>, tensor<3x4x64x128xf16>, tensor<3x4x200x128xf16>, tensor<3x4x200x128xf16>) {
  %o, %l = attn.attention ins(%q, %k, %v : tensor<3x4x64x128xf16>, tensor<3x4x200x128xf16>, tensor<3x4x200x128xf16>) mask(%m : tensor<3x1x1x200xi1>) -> tensor<3x4x64x128xf16>, tensor<3x4x64xf32>
  %dq, %dk, %dv = attn.attention_grad ins(%q, %k, %v : tensor<3x4x64x128xf16>, tensor<3x4x200x128xf16>, tensor<3x4x200x128xf16>) forward(%o, %l : tensor<3x4x64x128xf16>, tensor<3x4x64xf32>) grad_output(%do : tensor<3x4x64x128xf16>) mask(%m : tensor<3x1x1x200xi1>) -> tensor<3x4x64x128xf16>, tensor<3x4x200x128xf16>, tensor<3x4x200x128xf16>
  return %o, %l, %dq, %dk, %dv : tensor<3x4x64x128xf16>, tensor<3x4x64xf32>, tensor<3x4x64x128xf16>, tensor<3x4x200x128xf16>, tensor<3x4x200x128xf16>
}
