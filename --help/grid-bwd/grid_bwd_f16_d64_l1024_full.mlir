func.func @grid_bwd_f16_d64_l1024_full(%q: tensor<32x32x1024x64xf16>, %k: tensor<32x32x1024x64xf16>, %v: tensor<32x32x1024x64xf16>, %do: tensor<32x32x1024x64xf16>) -> (tensor<32x32x1024x64xf16>, tensor<32x32x1024xf32>, tensor<32x32x1024x64xf16>, tensor<32x32x1024x64xf16>, tensor<32x32x1024x64xf16>) {
  %o, %l = attn.attention ins(%q, %k, %v : tensor<32x32x1024x64xf16>, tensor<32x32x1024x64xf16>, tensor<32x32x1024x64xf16>) -> tensor<32x32x1024x64xf16>, tensor<32x32x1024xf32>
  %dq, %dk, %dv = attn.attention_grad ins(%q, %k, %v : tensor<32x32x1024x64xf16>, tensor<32x32x1024x64xf16>, tensor<32x32x1024x64xf16>) forward(%o, %l : tensor<32x32x1024x64xf16>, tensor<32x32x1024xf32>) grad_output(%do : tensor<32x32x1024x64xf16>) -> tensor<32x32x1024x64xf16>, tensor<32x32x1024x64xf16>, tensor<32x32x1024x64xf16>
  return %o, %l, %dq, %dk, %dv : tensor<32x32x1024x64xf16>, tensor<32x32x1024xf32>, tensor<32x32x1024x64xf16>, tensor<32x32x1024x64xf16>, tensor<32x32x1024x64xf16>
}
