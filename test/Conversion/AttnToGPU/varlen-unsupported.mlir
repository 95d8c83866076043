// RUN: not attention-opt %s -split-input-file --attn-to-gpu 2>&1 | FileCheck %s
// RUN: not attn-compile %s -o %t 2>&1 | FileCheck %s --check-prefix=COMPILE

// Packed variable-length batches have no GPU kernels yet: the GPU route
// refuses them at the op instead of leaving them on the host untouched.

// CHECK: varlen-unsupported.mlir:[[@LINE+3]]:{{[0-9]+}}: error: 'attn.varlen_attention' op GPU code generation of packed variable-length batches is not implemented yet; attn-decompose or attn-tile lower the op for the CPU (docs/semantics.md, section 11)
// COMPILE: varlen-unsupported.mlir:[[@LINE+2]]:{{[0-9]+}}: error: 'attn.varlen_attention' op GPU code generation of packed variable-length batches is not implemented yet
func.func @forward(%q: tensor<?x8x64xbf16>, %k: tensor<?x8x64xbf16>, %v: tensor<?x8x64xbf16>, %cq: tensor<?xi32>, %ck: tensor<?xi32>) -> tensor<?x8x64xbf16> {
  %o = attn.varlen_attention ins(%q, %k, %v : tensor<?x8x64xbf16>, tensor<?x8x64xbf16>, tensor<?x8x64xbf16>) seqlens(%cq, %ck : tensor<?xi32>, tensor<?xi32>) -> tensor<?x8x64xbf16>
  return %o : tensor<?x8x64xbf16>
}

// -----

// CHECK: varlen-unsupported.mlir:[[@LINE+2]]:{{[0-9]+}}: error: 'attn.varlen_attention_grad' op GPU code generation of packed variable-length batches is not implemented yet
func.func @gradient(%q: tensor<?x8x64xbf16>, %k: tensor<?x8x64xbf16>, %v: tensor<?x8x64xbf16>, %cq: tensor<?xi32>, %ck: tensor<?xi32>, %o: tensor<?x8x64xbf16>, %l: tensor<8x?xf32>, %do: tensor<?x8x64xbf16>) -> tensor<?x8x64xbf16> {
  %dq, %dk, %dv = attn.varlen_attention_grad ins(%q, %k, %v : tensor<?x8x64xbf16>, tensor<?x8x64xbf16>, tensor<?x8x64xbf16>) seqlens(%cq, %ck : tensor<?xi32>, tensor<?xi32>) forward(%o, %l : tensor<?x8x64xbf16>, tensor<8x?xf32>) grad_output(%do : tensor<?x8x64xbf16>) -> tensor<?x8x64xbf16>, tensor<?x8x64xbf16>, tensor<?x8x64xbf16>
  return %dq : tensor<?x8x64xbf16>
}
