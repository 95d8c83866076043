// The shipped example: causal GQA attention in bf16 with the log-sum-exp.
// 8 query heads share 2 key/value heads; Lq = 128 queries attend to Lk = 192
// keys with the causal diagonal aligned bottom-right.
func.func @attention(%q: tensor<2x8x128x64xbf16>, %k: tensor<2x2x192x64xbf16>,
                     %v: tensor<2x2x192x64xbf16>)
    -> (tensor<2x8x128x64xbf16>, tensor<2x8x128xf32>) {
  %out, %lse = attn.attention ins(%q, %k, %v : tensor<2x8x128x64xbf16>,
                                  tensor<2x2x192x64xbf16>, tensor<2x2x192x64xbf16>)
      {causal = #attn.causal<bottom_right>}
      -> tensor<2x8x128x64xbf16>, tensor<2x8x128xf32>
  return %out, %lse : tensor<2x8x128x64xbf16>, tensor<2x8x128xf32>
}
