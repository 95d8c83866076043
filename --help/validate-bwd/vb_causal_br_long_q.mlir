func.func @vb_causal_br_long_q(%q: tensor<1x4x300x64xf16>, %k: tensor<1x4x100x64xf16>, %v: tensor<1x4x100x64xf16>, %do: tensor<1x4x300x64xf16>) -> (tensor<1x4x300x64xf16>, tensor<1x4x300xf32>, tensor<1x4x300x64xf16>, tensor<1x4x100x64xf16>, tensor<1x4x100x64xf16>) {
  %o, %l = attn.attention ins(%q, %k, %v : tensor<1x4x300x64xf16>, tensor<1x4x100x64xf16>, tensor<1x4x100x64xf16>) {causal = #attn.causal<bottom_right>} -> tensor<1x4x300x64xf16>, tensor<1x4x300xf32>
  %dq, %dk, %dv = attn.attention_grad ins(%q, %k, %v : tensor<1x4x300x64xf16>, tensor<1x4x100x64xf16>, tensor<1x4x100x64xf16>) forward(%o, %l : tensor<1x4x300x64xf16>, tensor<1x4x300xf32>) grad_output(%do : tensor<1x4x300x64xf16>) {causal = #attn.causal<bottom_right>} -> tensor<1x4x300x64xf16>, tensor<1x4x100x64xf16>, tensor<1x4x100x64xf16>
  return %o, %l, %dq, %dk, %dv : tensor<1x4x300x64xf16>, tensor<1x4x300xf32>, tensor<1x4x300x64xf16>, tensor<1x4x100x64xf16>, tensor<1x4x100x64xf16>
}
