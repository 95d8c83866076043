// The atomic dQ asked for with the head split at D = 256 on a non-causal
// op (the chooser keeps the dq kernel there); tensor-core-grad-head-split.mlir
// runs it.
func.func @d256_full(%q: tensor<1x2x130x256xbf16>, %k: tensor<1x2x130x256xbf16>, %v: tensor<1x2x130x256xbf16>, %o: tensor<1x2x130x256xbf16>, %lse: tensor<1x2x130xf32>, %do: tensor<1x2x130x256xbf16>) -> (tensor<1x2x130x256xbf16>, tensor<1x2x130x256xbf16>, tensor<1x2x130x256xbf16>) {
  %dq, %dk, %dv = attn.attention_grad ins(%q, %k, %v : tensor<1x2x130x256xbf16>, tensor<1x2x130x256xbf16>, tensor<1x2x130x256xbf16>) forward(%o, %lse : tensor<1x2x130x256xbf16>, tensor<1x2x130xf32>) grad_output(%do : tensor<1x2x130x256xbf16>) {attn.grad_kernels = #attn.grad_kernels<kernel = wgmma, key_block = 64, dq = atomic, loads = tma, split = warpgroups>} -> tensor<1x2x130x256xbf16>, tensor<1x2x130x256xbf16>, tensor<1x2x130x256xbf16>
  return %dq, %dk, %dv : tensor<1x2x130x256xbf16>, tensor<1x2x130x256xbf16>, tensor<1x2x130x256xbf16>
}
