func.func @vb_causal_tl(%q: tensor<1x4x300x64xbf16>, %k: tensor<1x4x300x64xbf16>, %v: tensor<1x4x300x64xbf16>, %do: tensor<1x4x300x64xbf16>) -> (tensor<1x4x300x64xbf16>, tensor<1x4x300xf32>, tensor<1x4x300x64xbf16>, tensor<1x4x300x64xbf16>, tensor<1x4x300x64xbf16>) {
  %o, %l = attn.attention ins(%q, %k, %v : tensor<1x4x300x64xbf16>, tensor<1x4x300x64xbf16>, tensor<1x4x300x64xbf16>) {causal = #attn.causal<top_left>} -> tensor<1x4x300x64xbf16>, tensor<1x4x300xf32>
  %dq, %dk, %dv = attn.attention_grad ins(%q, %k, %v : tensor<1x4x300x64xbf16>, tensor<1x4x300x64xbf16>, tensor<1x4x300x64xbf16>) forward(%o, %l : tensor<1x4x300x64xbf16>, tensor<1x4x300xf32>) grad_output(%do : tensor<1x4x300x64xbf16>) {causal = #attn.causal<top_left>} -> tensor<1x4x300x64xbf16>, tensor<1x4x300x64xbf16>, tensor<1x4x300x64xbf16>
  return %o, %l, %dq, %dk, %dv : tensor<1x4x300x64xbf16>, tensor<1x4x300xf32>, tensor<1x4x300x64xbf16>, tensor<1x4x300x64xbf16>, tensor<1x4x300x64xbf16>
}
