func.func @vb_bool_mask(%q: tensor<2x4x100x64xbf16>, %k: tensor<2x2x150x64xbf16>, %v: tensor<2x2x150x64xbf16>, %do: tensor<2x4x100x64xbf16>, %m: tensor<2x1x100x150xi1>) -> (tensor<2x4x100x64xbf16>, tensor<2x4x100xf32>, tensor<2x4x100x64xbf16>, tensor<2x2x150x64xbf16>, tensor<2x2x150x64xbf16>) {
  %o, %l = attn.attention ins(%q, %k, %v : tensor<2x4x100x64xbf16>, tensor<2x2x150x64xbf16>, tensor<2x2x150x64xbf16>) mask(%m : tensor<2x1x100x150xi1>) -> tensor<2x4x100x64xbf16>, tensor<2x4x100xf32>
  %dq, %dk, %dv = attn.attention_grad ins(%q, %k, %v : tensor<2x4x100x64xbf16>, tensor<2x2x150x64xbf16>, tensor<2x2x150x64xbf16>) forward(%o, %l : tensor<2x4x100x64xbf16>, tensor<2x4x100xf32>) grad_output(%do : tensor<2x4x100x64xbf16>) mask(%m : tensor<2x1x100x150xi1>) -> tensor<2x4x100x64xbf16>, tensor<2x2x150x64xbf16>, tensor<2x2x150x64xbf16>
  return %o, %l, %dq, %dk, %dv : tensor<2x4x100x64xbf16>, tensor<2x4x100xf32>, tensor<2x4x100x64xbf16>, tensor<2x2x150x64xbf16>, tensor<2x2x150x64xbf16>
}
