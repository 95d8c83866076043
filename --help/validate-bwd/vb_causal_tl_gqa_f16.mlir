func.func @vb_causal_tl_gqa_f16(%q: tensor<2x8x256x128xf16>, %k: tensor<2x2x256x128xf16>, %v: tensor<2x2x256x128xf16>, %do: tensor<2x8x256x128xf16>) -> (tensor<2x8x256x128xf16>, tensor<2x8x256xf32>, tensor<2x8x256x128xf16>, tensor<2x2x256x128xf16>, tensor<2x2x256x128xf16>) {
  %o, %l = attn.attention ins(%q, %k, %v : tensor<2x8x256x128xf16>, tensor<2x2x256x128xf16>, tensor<2x2x256x128xf16>) {causal = #attn.causal<top_left>} -> tensor<2x8x256x128xf16>, tensor<2x8x256xf32>
  %dq, %dk, %dv = attn.attention_grad ins(%q, %k, %v : tensor<2x8x256x128xf16>, tensor<2x2x256x128xf16>, tensor<2x2x256x128xf16>) forward(%o, %l : tensor<2x8x256x128xf16>, tensor<2x8x256xf32>) grad_output(%do : tensor<2x8x256x128xf16>) {causal = #attn.causal<top_left>} -> tensor<2x8x256x128xf16>, tensor<2x2x256x128xf16>, tensor<2x2x256x128xf16>
  return %o, %l, %dq, %dk, %dv : tensor<2x8x256x128xf16>, tensor<2x8x256xf32>, tensor<2x8x256x128xf16>, tensor<2x2x256x128xf16>, tensor<2x2x256x128xf16>
}
