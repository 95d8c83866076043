func.func @v_dropout(%q: tensor<2x4x128x64xbf16>, %k: tensor<2x4x128x64xbf16>, %v: tensor<2x4x128x64xbf16>, %seed: i64, %off: i64) -> (tensor<2x4x128x64xbf16>, tensor<2x4x128xf32>) {
  %o, %l = attn.attention ins(%q, %k, %v : tensor<2x4x128x64xbf16>, tensor<2x4x128x64xbf16>, tensor<2x4x128x64xbf16>) rng(%seed, %off) {dropout_p = 0.2 : f32} -> tensor<2x4x128x64xbf16>, tensor<2x4x128xf32>
  return %o, %l : tensor<2x4x128x64xbf16>, tensor<2x4x128xf32>
}
