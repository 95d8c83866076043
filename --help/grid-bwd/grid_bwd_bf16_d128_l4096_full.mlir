func.func @grid_bwd_bf16_d128_l4096_full(%q: tensor<8x16x4096x128xbf16>, %k: tensor<8x16x4096x128xbf16>, %v: tensor<8x16x4096x128xbf16>, %do: tensor<8x16x4096x128xbf16>) -> (tensor<8x16x4096x128xbf16>, tensor<8x16x4096xf32>, tensor<8x16x4096x128xbf16>, tensor<8x16x4096x128xbf16>, tensor<8x16x4096x128xbf16>) {
  %o, %l = attn.attention ins(%q, %k, %v : tensor<8x16x4096x128xbf16>, tensor<8x16x4096x128xbf16>, tensor<8x16x4096x128xbf16>) -> tensor<8x16x4096x128xbf16>, tensor<8x16x4096xf32>
  %dq, %dk, %dv = attn.attention_grad ins(%q, %k, %v : tensor<8x16x4096x128xbf16>, tensor<8x16x4096x128xbf16>, tensor<8x16x4096x128xbf16>) forward(%o, %l : tensor<8x16x4096x128xbf16>, tensor<8x16x4096xf32>) grad_output(%do : tensor<8x16x4096x128xbf16>) -> tensor<8x16x4096x128xbf16>, tensor<8x16x4096x128xbf16>, tensor<8x16x4096x128xbf16>
  return %o, %l, %dq, %dk, %dv : tensor<8x16x4096x128xbf16>, tensor<8x16x4096xf32>, tensor<8x16x4096x128xbf16>, tensor<8x16x4096x128xbf16>, tensor<8x16x4096x128xbf16>
}
