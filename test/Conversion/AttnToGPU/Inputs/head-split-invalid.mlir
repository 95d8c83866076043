// A head split asked for where the kernel does not apply (D = Dv = 128);
// tensor-core-grad-head-split.mlir runs it.
func.func @d128(%q: tensor<1x2x130x128xbf16>, %k: tensor<1x2x130x128xbf16>, %v: tensor<1x2x130x128xbf16>, %o: tensor<1x2x130x128xbf16>, %lse: tensor<1x2x130xf32>, %do: tensor<1x2x130x128xbf16>) -> (tensor<1x2x130x128xbf16>, tensor<1x2x130x128xbf16>, tensor<1x2x130x128xbf16>) {
  %dq, %dk, %dv = attn.attention_grad ins(%q, %k, %v : tensor<1x2x130x128xbf16>, tensor<1x2x130x128xbf16>, tensor<1x2x130x128xbf16>) forward(%o, %lse : tensor<1x2x130x128xbf16>, tensor<1x2x130xf32>) grad_output(%do : tensor<1x2x130x128xbf16>) {attn.grad_kernels = #attn.grad_kernels<kernel = wgmma, key_block = 64, dq = atomic, loads = tma, split = warpgroups>} -> tensor<1x2x130x128xbf16>, tensor<1x2x130x128xbf16>, tensor<1x2x130x128xbf16>
  return %dq, %dk, %dv : tensor<1x2x130x128xbf16>, tensor<1x2x130x128xbf16>, tensor<1x2x130x128xbf16>
}
