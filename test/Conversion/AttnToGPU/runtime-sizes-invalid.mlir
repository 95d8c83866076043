// RUN: not attention-opt %s -split-input-file --attn-to-gpu 2>&1 | FileCheck %s

// Run-time sizes are the batch and the sequence lengths, each dynamic in
// every tensor that carries it or in none (docs/kernel-manifest.md,
// "Run-time sizes"); anything else is a diagnostic at the op.

// CHECK: runtime-sizes-invalid.mlir:[[@LINE+2]]:{{[0-9]+}}: error: 'attn.attention' op GPU code generation needs static head counts and head dims: dimension 1 of the query ('tensor<1x?x8x64xf16>') is dynamic
func.func @dynamic_heads(%q: tensor<1x?x8x64xf16>, %k: tensor<1x?x8x64xf16>, %v: tensor<1x?x8x64xf16>) -> tensor<1x?x8x64xf16> {
  %o = attn.attention ins(%q, %k, %v : tensor<1x?x8x64xf16>, tensor<1x?x8x64xf16>, tensor<1x?x8x64xf16>) -> tensor<1x?x8x64xf16>
  return %o : tensor<1x?x8x64xf16>
}

// -----

// CHECK: runtime-sizes-invalid.mlir:[[@LINE+2]]:{{[0-9]+}}: error: 'attn.attention' op GPU code generation: the batch is static in dimension 0 of the key ('tensor<2x2x8x64xf16>') but dynamic in the query or key; a size must be static in every tensor or dynamic in every tensor
func.func @mixed_batch(%q: tensor<?x2x8x64xf16>, %k: tensor<2x2x8x64xf16>, %v: tensor<2x2x8x64xf16>) -> tensor<?x2x8x64xf16> {
  %o = attn.attention ins(%q, %k, %v : tensor<?x2x8x64xf16>, tensor<2x2x8x64xf16>, tensor<2x2x8x64xf16>) -> tensor<?x2x8x64xf16>
  return %o : tensor<?x2x8x64xf16>
}

// -----

// CHECK: runtime-sizes-invalid.mlir:[[@LINE+2]]:{{[0-9]+}}: error: 'attn.attention' op GPU code generation: the key length is static in dimension 3 of the mask ('tensor<1x1x1x64xi1>') but dynamic in the query or key; a size must be static in every tensor or dynamic in every tensor (a mask may also broadcast it with 1)
func.func @mask_static_key_len(%q: tensor<1x2x8x64xf16>, %k: tensor<1x2x?x64xf16>, %v: tensor<1x2x?x64xf16>, %m: tensor<1x1x1x64xi1>) -> tensor<1x2x8x64xf16> {
  %o = attn.attention ins(%q, %k, %v : tensor<1x2x8x64xf16>, tensor<1x2x?x64xf16>, tensor<1x2x?x64xf16>) mask(%m : tensor<1x1x1x64xi1>) -> tensor<1x2x8x64xf16>
  return %o : tensor<1x2x8x64xf16>
}

// -----

// CHECK: runtime-sizes-invalid.mlir:[[@LINE+2]]:{{[0-9]+}}: error: 'attn.attention' op GPU code generation: the query length is dynamic in dimension 2 of the mask ('tensor<1x1x?x8xi1>') but static in the query or key
func.func @mask_dynamic_query_len(%q: tensor<1x2x8x64xf16>, %k: tensor<1x2x8x64xf16>, %v: tensor<1x2x8x64xf16>, %m: tensor<1x1x?x8xi1>) -> tensor<1x2x8x64xf16> {
  %o = attn.attention ins(%q, %k, %v : tensor<1x2x8x64xf16>, tensor<1x2x8x64xf16>, tensor<1x2x8x64xf16>) mask(%m : tensor<1x1x?x8xi1>) -> tensor<1x2x8x64xf16>
  return %o : tensor<1x2x8x64xf16>
}

// -----

// The backward op's tensors follow the same rule: here the gradient of the
// key has a static length where the key's is dynamic.
// CHECK: runtime-sizes-invalid.mlir:[[@LINE+2]]:{{[0-9]+}}: error: 'attn.attention_grad' op GPU code generation: the key length is static in dimension 2 of the grad_key ('tensor<1x2x8x64xf16>') but dynamic in the query or key
func.func @grad_static_key_len(%q: tensor<1x2x8x64xf16>, %k: tensor<1x2x?x64xf16>, %v: tensor<1x2x?x64xf16>, %o: tensor<1x2x8x64xf16>, %lse: tensor<1x2x8xf32>, %do: tensor<1x2x8x64xf16>) -> (tensor<1x2x8x64xf16>, tensor<1x2x8x64xf16>, tensor<1x2x?x64xf16>) {
  %dq, %dk, %dv = attn.attention_grad ins(%q, %k, %v : tensor<1x2x8x64xf16>, tensor<1x2x?x64xf16>, tensor<1x2x?x64xf16>) forward(%o, %lse : tensor<1x2x8x64xf16>, tensor<1x2x8xf32>) grad_output(%do : tensor<1x2x8x64xf16>) -> tensor<1x2x8x64xf16>, tensor<1x2x8x64xf16>, tensor<1x2x?x64xf16>
  return %dq, %dk, %dv : tensor<1x2x8x64xf16>, tensor<1x2x8x64xf16>, tensor<1x2x?x64xf16>
}
