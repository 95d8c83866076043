// RUN: attention-opt %s -split-input-file -verify-diagnostics

// Kernel configurations under a wrong name, of a wrong type or on the wrong
// op are errors: a pass would otherwise ignore them and choose the kernels
// itself.

func.func @misspelt(%q: tensor<1x2x16x8xf16>, %k: tensor<1x2x16x8xf16>, %v: tensor<1x2x16x8xf16>) -> tensor<1x2x16x8xf16> {
  // expected-error @+1 {{unknown attribute 'attn.tile' in the attn namespace (a kernel configuration is 'attn.tiles' on a forward op, 'attn.grad_kernels' on a gradient op)}}
  %o = attn.attention ins(%q, %k, %v : tensor<1x2x16x8xf16>, tensor<1x2x16x8xf16>, tensor<1x2x16x8xf16>) {attn.tile = #attn.tiles<block_q = 64, block_kv = 64, stages = 2, warps = 4, kernel = cuda_core>} -> tensor<1x2x16x8xf16>
  return %o : tensor<1x2x16x8xf16>
}

// -----

func.func @unprefixed(%q: tensor<1x2x16x8xf16>, %k: tensor<1x2x16x8xf16>, %v: tensor<1x2x16x8xf16>) -> tensor<1x2x16x8xf16> {
  // expected-error @+1 {{a kernel configuration in 'tiles' is read by no pass: write it as 'attn.tiles'}}
  %o = attn.attention ins(%q, %k, %v : tensor<1x2x16x8xf16>, tensor<1x2x16x8xf16>, tensor<1x2x16x8xf16>) {tiles = #attn.tiles<block_q = 64, block_kv = 64, stages = 2, warps = 4, kernel = cuda_core>} -> tensor<1x2x16x8xf16>
  return %o : tensor<1x2x16x8xf16>
}

// -----

func.func @not_a_config(%q: tensor<1x2x16x8xf16>, %k: tensor<1x2x16x8xf16>, %v: tensor<1x2x16x8xf16>) -> tensor<1x2x16x8xf16> {
  // expected-error @+1 {{'attn.tiles' must be an #attn.tiles<...> (a kernel configuration), got 5 : i32}}
  %o = attn.attention ins(%q, %k, %v : tensor<1x2x16x8xf16>, tensor<1x2x16x8xf16>, tensor<1x2x16x8xf16>) {attn.tiles = 5 : i32} -> tensor<1x2x16x8xf16>
  return %o : tensor<1x2x16x8xf16>
}

// -----

func.func @grad_kernels_on_forward(%q: tensor<1x2x16x8xf16>, %k: tensor<1x2x16x8xf16>, %v: tensor<1x2x16x8xf16>) -> tensor<1x2x16x8xf16> {
  // expected-error @+1 {{'attn.grad_kernels' configures the gradient ops' kernels; a forward op takes 'attn.tiles'}}
  %o = attn.attention ins(%q, %k, %v : tensor<1x2x16x8xf16>, tensor<1x2x16x8xf16>, tensor<1x2x16x8xf16>) {attn.grad_kernels = #attn.grad_kernels<kernel = cuda_core>} -> tensor<1x2x16x8xf16>
  return %o : tensor<1x2x16x8xf16>
}

// -----

func.func @gpu_tiles_on_gradient(%q: tensor<1x2x16x8xf16>, %k: tensor<1x2x16x8xf16>, %v: tensor<1x2x16x8xf16>, %o: tensor<1x2x16x8xf16>, %lse: tensor<1x2x16xf32>, %do: tensor<1x2x16x8xf16>) -> tensor<1x2x16x8xf16> {
  // expected-error @+1 {{'attn.tiles' with a kernel family on a gradient op: its GPU kernels are configured by 'attn.grad_kernels' (attn.tiles gives a gradient op only attn-tile's block sizes)}}
  %dq, %dk, %dv = attn.attention_grad ins(%q, %k, %v : tensor<1x2x16x8xf16>, tensor<1x2x16x8xf16>, tensor<1x2x16x8xf16>) forward(%o, %lse : tensor<1x2x16x8xf16>, tensor<1x2x16xf32>) grad_output(%do : tensor<1x2x16x8xf16>) {attn.tiles = #attn.tiles<block_q = 64, block_kv = 64, stages = 2, warps = 4, kernel = cuda_core>} -> tensor<1x2x16x8xf16>, tensor<1x2x16x8xf16>, tensor<1x2x16x8xf16>
  return %dq : tensor<1x2x16x8xf16>
}

// -----

// expected-error @+1 {{'attn.tiles' configures an attention op's kernels; 'func.func' has none}}
func.func @on_a_function() attributes {attn.tiles = #attn.tiles<block_q = 64, block_kv = 32, stages = 3, warps = 4>} {
  return
}
