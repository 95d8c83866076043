func.func @grid_bwd_f16_d64_l4096_full(%q: tensor<8x32x4096x64xf16>, %k: tensor<8x32x4096x64xf16>, %v: tensor<8x32x4096x64xf16>, %do: tensor<8x32x4096x64xf16>) -> (tensor<8x32x4096x64xf16>, tensor<8x32x4096xf32>, tensor<8x32x4096x64xf16>, tensor<8x32x4096x64xf16>, tensor<8x32x4096x64xf16>) {
  %o, %l = attn.attention ins(%q, %k, %v : tensor<8x32x4096x64xf16>, tensor<8x32x4096x64xf16>, tensor<8x32x4096x64xf16>) -> tensor<8x32x4096x64xf16>, tensor<8x32x4096xf32>
  %dq, %dk, %dv = attn.attention_grad ins(%q, %k, %v : tensor<8x32x4096x64xf16>, tensor<8x32x4096x64xf16>, tensor<8x32x4096x64xf16>) forward(%o, %l : tensor<8x32x4096x64xf16>, tensor<8x32x4096xf32>) grad_output(%do : tensor<8x32x4096x64xf16>) -> tensor<8x32x4096x64xf16>, tensor<8x32x4096x64xf16>, tensor<8x32x4096x64xf16>
  return %o, %l, %dq, %dk, %dv : tensor<8x32x4096x64xf16>, tensor<8x32x4096xf32>, tensor<8x32x4096x64xf16>, tensor<8x32x4096x64xf16>, tensor<8x32x4096x64xf16>
}
