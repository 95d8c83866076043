func.func @grid_bwd_f16_d64_l16384_full(%q: tensor<2x32x16384x64xf16>, %k: tensor<2x32x16384x64xf16>, %v: tensor<2x32x16384x64xf16>, %do: tensor<2x32x16384x64xf16>) -> (tensor<2x32x16384x64xf16>, tensor<2x32x16384xf32>, tensor<2x32x16384x64xf16>, tensor<2x32x16384x64xf16>, tensor<2x32x16384x64xf16>) {
  %o, %l = attn.attention ins(%q, %k, %v : tensor<2x32x16384x64xf16>, tensor<2x32x16384x64xf16>, tensor<2x32x16384x64xf16>) -> tensor<2x32x16384x64xf16>, tensor<2x32x16384xf32>
  %dq, %dk, %dv = attn.attention_grad ins(%q, %k, %v : tensor<2x32x16384x64xf16>, tensor<2x32x16384x64xf16>, tensor<2x32x16384x64xf16>) forward(%o, %l : tensor<2x32x16384x64xf16>, tensor<2x32x16384xf32>) grad_output(%do : tensor<2x32x16384x64xf16>) -> tensor<2x32x16384x64xf16>, tensor<2x32x16384x64xf16>, tensor<2x32x16384x64xf16>
  return %o, %l, %dq, %dk, %dv : tensor<2x32x16384x64xf16>, tensor<2x32x16384xf32>, tensor<2x32x16384x64xf16>, tensor<2x32x16384x64xf16>, tensor<2x32x16384x64xf16>
}
