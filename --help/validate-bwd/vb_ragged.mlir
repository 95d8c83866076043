func.func @vb_ragged(%q: tensor<3x4x61x64xbf16>, %k: tensor<3x2x189x64xbf16>, %v: tensor<3x2x189x64xbf16>, %do: tensor<3x4x61x64xbf16>) -> (tensor<3x4x61x64xbf16>, tensor<3x4x61xf32>, tensor<3x4x61x64xbf16>, tensor<3x2x189x64xbf16>, tensor<3x2x189x64xbf16>) {
  %o, %l = attn.attention ins(%q, %k, %v : tensor<3x4x61x64xbf16>, tensor<3x2x189x64xbf16>, tensor<3x2x189x64xbf16>) {causal = #attn.causal<bottom_right>} -> tensor<3x4x61x64xbf16>, tensor<3x4x61xf32>
  %dq, %dk, %dv = attn.attention_grad ins(%q, %k, %v : tensor<3x4x61x64xbf16>, tensor<3x2x189x64xbf16>, tensor<3x2x189x64xbf16>) forward(%o, %l : tensor<3x4x61x64xbf16>, tensor<3x4x61xf32>) grad_output(%do : tensor<3x4x61x64xbf16>) {causal = #attn.causal<bottom_right>} -> tensor<3x4x61x64xbf16>, tensor<3x2x189x64xbf16>, tensor<3x2x189x64xbf16>
  return %o, %l, %dq, %dk, %dv : tensor<3x4x61x64xbf16>, tensor<3x4x61xf32>, tensor<3x4x61x64xbf16>, tensor<3x2x189x64xbf16>, tensor<3x2x189x64xbf16>
}
