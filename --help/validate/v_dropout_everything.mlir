func.func @v_dropout_everything(%q: tensor<1x8x150x128xbf16>, %k: tensor<1x2x170x128xbf16>, %v: tensor<1x2x170x128xbf16>, %m: tensor<1x1x150x170xi1>, %seed: i64, %off: i64) -> (tensor<1x8x150x128xbf16>, tensor<1x8x150xf32>) {
  %o, %l = attn.attention ins(%q, %k, %v : tensor<1x8x150x128xbf16>, tensor<1x2x170x128xbf16>, tensor<1x2x170x128xbf16>) mask(%m : tensor<1x1x150x170xi1>) rng(%seed, %off) {causal = #attn.causal<bottom_right>, window = array<i64: 64, 0>, softcap = 30.0 : f32, dropout_p = 0.1 : f32} -> tensor<1x8x150x128xbf16>, tensor<1x8x150xf32>
  return %o, %l : tensor<1x8x150x128xbf16>, tensor<1x8x150xf32>
}
