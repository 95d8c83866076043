func.func @vb_gqa_bf16(%q: tensor<2x8x200x64xbf16>, %k: tensor<2x2x333x64xbf16>, %v: tensor<2x2x333x64xbf16>, %do: tensor<2x8x200x64xbf16>) -> (tensor<2x8x200x64xbf16>, tensor<2x8x200xf32>, tensor<2x8x200x64xbf16>, tensor<2x2x333x64xbf16>, tensor<2x2x333x64xbf16>) {
  %o, %l = attn.attention ins(%q, %k, %v : tensor<2x8x200x64xbf16>, tensor<2x2x333x64xbf16>, tensor<2x2x333x64xbf16>) -> tensor<2x8x200x64xbf16>, tensor<2x8x200xf32>
  %dq, %dk, %dv = attn.attention_grad ins(%q, %k, %v : tensor<2x8x200x64xbf16>, tensor<2x2x333x64xbf16>, tensor<2x2x333x64xbf16>) forward(%o, %l : tensor<2x8x200x64xbf16>, tensor<2x8x200xf32>) grad_output(%do : tensor<2x8x200x64xbf16>) -> tensor<2x8x200x64xbf16>, tensor<2x2x333x64xbf16>, tensor<2x2x333x64xbf16>
  return %o, %l, %dq, %dk, %dv : tensor<2x8x200x64xbf16>, tensor<2x8x200xf32>, tensor<2x8x200x64xbf16>, tensor<2x2x333x64xbf16>, tensor<2x2x333x64xbf16>
}
