// RUN: not attention-opt %s -split-input-file --attn-to-gpu 2>&1 | FileCheck %s
// RUN: not attention-opt %s -split-input-file --attn-to-gpu="kernel=cuda-core" 2>&1 | FileCheck %s --check-prefix=CUDA
// RUN: not attention-opt %s -split-input-file --attn-to-gpu="chip=sm_86" 2>&1 | FileCheck %s --check-prefix=SM86
// RUN: not attention-opt %s -split-input-file --attn-to-gpu="chip=sm_80" 2>&1 | FileCheck %s --check-prefix=SM80

// Packed variable-length batches on the GPU (docs/kernel-manifest.md,
// "Packed variable-length batches"): the forward kernel and the backward
// group are the tensor-core ones only, with static head counts and head
// dims. Each is a diagnostic at the op.

// CHECK: varlen-invalid.mlir:[[@LINE+3]]:{{[0-9]+}}: error: 'attn.varlen_attention' op GPU code generation: packed batches need the tensor-core kernel, which does not apply: the element type is f32, which tensor cores take only as tf32 (--f32-precision=tf32: the dense forward)
// CUDA: varlen-invalid.mlir:[[@LINE+2]]:{{[0-9]+}}: error: 'attn.varlen_attention' op GPU code generation: packed batches have no CUDA-core kernel (--kernel=cuda-core)
func.func @f32(%q: tensor<?x8x64xf32>, %k: tensor<?x8x64xf32>, %v: tensor<?x8x64xf32>, %cq: tensor<?xi32>, %ck: tensor<?xi32>) -> tensor<?x8x64xf32> {
  %o = attn.varlen_attention ins(%q, %k, %v : tensor<?x8x64xf32>, tensor<?x8x64xf32>, tensor<?x8x64xf32>) seqlens(%cq, %ck : tensor<?xi32>, tensor<?xi32>) -> tensor<?x8x64xf32>
  return %o : tensor<?x8x64xf32>
}

// -----

// CHECK: varlen-invalid.mlir:[[@LINE+2]]:{{[0-9]+}}: error: 'attn.varlen_attention' op GPU code generation needs static head counts and head dims: dimension 1 of the query ('tensor<?x?x64xbf16>') is dynamic
func.func @dynamic_heads(%q: tensor<?x?x64xbf16>, %k: tensor<?x?x64xbf16>, %v: tensor<?x?x64xbf16>, %cq: tensor<?xi32>, %ck: tensor<?xi32>) -> tensor<?x?x64xbf16> {
  %o = attn.varlen_attention ins(%q, %k, %v : tensor<?x?x64xbf16>, tensor<?x?x64xbf16>, tensor<?x?x64xbf16>) seqlens(%cq, %ck : tensor<?xi32>, tensor<?xi32>) {scale = 0.125 : f32} -> tensor<?x?x64xbf16>
  return %o : tensor<?x?x64xbf16>
}

// -----

// CHECK: varlen-invalid.mlir:[[@LINE+3]]:{{[0-9]+}}: error: 'attn.varlen_attention_grad' op GPU code generation: packed batches need the tensor-core backward, which does not apply: the element type is not f16 or bf16
// CUDA: varlen-invalid.mlir:[[@LINE+2]]:{{[0-9]+}}: error: 'attn.varlen_attention_grad' op GPU code generation: packed batches have no CUDA-core backward (--kernel=cuda-core)
func.func @gradient_f32(%q: tensor<?x8x64xf32>, %k: tensor<?x8x64xf32>, %v: tensor<?x8x64xf32>, %cq: tensor<?xi32>, %ck: tensor<?xi32>, %o: tensor<?x8x64xf32>, %l: tensor<8x?xf32>, %do: tensor<?x8x64xf32>) -> tensor<?x8x64xf32> {
  %dq, %dk, %dv = attn.varlen_attention_grad ins(%q, %k, %v : tensor<?x8x64xf32>, tensor<?x8x64xf32>, tensor<?x8x64xf32>) seqlens(%cq, %ck : tensor<?xi32>, tensor<?xi32>) forward(%o, %l : tensor<?x8x64xf32>, tensor<8x?xf32>) grad_output(%do : tensor<?x8x64xf32>) -> tensor<?x8x64xf32>, tensor<?x8x64xf32>, tensor<?x8x64xf32>
  return %dq : tensor<?x8x64xf32>
}

// -----

// D = 256: the backward's tiles need more shared memory than sm_86 has, even
// with one stage of streamed tiles (a dense op falls back to the CUDA-core
// backward there; a packed one has none). sm_80 takes them with one stage.
// SM86: varlen-invalid.mlir:[[@LINE+3]]:{{[0-9]+}}: error: 'attn.varlen_attention_grad' op GPU code generation: packed batches need the tensor-core backward, which does not apply: the kernels' tiles at D = 256, Dv = 256 need 135680 bytes of shared memory, more than the 101376 a block has on sm_86
// SM80-NOT: D = 256, Dv = 256 need
func.func @gradient_d256(%q: tensor<?x4x256xbf16>, %k: tensor<?x1x256xbf16>, %v: tensor<?x1x256xbf16>, %cq: tensor<?xi32>, %ck: tensor<?xi32>, %o: tensor<?x4x256xbf16>, %l: tensor<4x?xf32>, %do: tensor<?x4x256xbf16>) -> tensor<?x4x256xbf16> {
  %dq, %dk, %dv = attn.varlen_attention_grad ins(%q, %k, %v : tensor<?x4x256xbf16>, tensor<?x1x256xbf16>, tensor<?x1x256xbf16>) seqlens(%cq, %ck : tensor<?xi32>, tensor<?xi32>) forward(%o, %l : tensor<?x4x256xbf16>, tensor<4x?xf32>) grad_output(%do : tensor<?x4x256xbf16>) -> tensor<?x4x256xbf16>, tensor<?x1x256xbf16>, tensor<?x1x256xbf16>
  return %dq : tensor<?x4x256xbf16>
}

// -----

// Empty tensors with static sizes (a valid op; the kernels need every size
// >= 1, token totals may be run-time sizes).
// CHECK: varlen-invalid.mlir:[[@LINE+2]]:{{[0-9]+}}: error: 'attn.varlen_attention' op GPU code generation: empty value ('tensor<7x2x0xf16>'): the kernels need every size >= 1 (a token total may be a run-time size, ?)
func.func @empty_value_dim(%q: tensor<10x4x16xf16>, %k: tensor<7x2x16xf16>, %v: tensor<7x2x0xf16>, %cq: tensor<3xi32>, %ck: tensor<3xi32>) -> tensor<10x4x0xf16> {
  %o = attn.varlen_attention ins(%q, %k, %v : tensor<10x4x16xf16>, tensor<7x2x16xf16>, tensor<7x2x0xf16>) seqlens(%cq, %ck : tensor<3xi32>, tensor<3xi32>) {scale = 0.5 : f32} -> tensor<10x4x0xf16>
  return %o : tensor<10x4x0xf16>
}

// -----

// CHECK: varlen-invalid.mlir:[[@LINE+2]]:{{[0-9]+}}: error: 'attn.varlen_attention_grad' op GPU code generation: empty key ('tensor<0x2x16xbf16>'): the kernels need every size >= 1
func.func @no_key_tokens(%q: tensor<10x4x16xbf16>, %k: tensor<0x2x16xbf16>, %v: tensor<0x2x16xbf16>, %cq: tensor<3xi32>, %ck: tensor<3xi32>, %o: tensor<10x4x16xbf16>, %l: tensor<4x10xf32>, %do: tensor<10x4x16xbf16>) -> tensor<10x4x16xbf16> {
  %dq, %dk, %dv = attn.varlen_attention_grad ins(%q, %k, %v : tensor<10x4x16xbf16>, tensor<0x2x16xbf16>, tensor<0x2x16xbf16>) seqlens(%cq, %ck : tensor<3xi32>, tensor<3xi32>) forward(%o, %l : tensor<10x4x16xbf16>, tensor<4x10xf32>) grad_output(%do : tensor<10x4x16xbf16>) -> tensor<10x4x16xbf16>, tensor<0x2x16xbf16>, tensor<0x2x16xbf16>
  return %dq : tensor<10x4x16xbf16>
}

// -----

// A size is static in every tensor that holds it or dynamic in every one:
// the kernel and the manifest take one value for it (attn-compile wrote a
// manifest its runtime then refused).
// CHECK: varlen-invalid.mlir:[[@LINE+2]]:{{[0-9]+}}: error: 'attn.varlen_attention' op GPU code generation: the batch is static in dimension 0 of the cu_seqlens_q ('tensor<3xi32>') but dynamic in dimension 0 of the cu_seqlens_k ('tensor<?xi32>'); a size must be static in every tensor or dynamic in every tensor
func.func @mixed_batch(%q: tensor<4x1x16xf16>, %k: tensor<4x1x16xf16>, %v: tensor<4x1x16xf16>, %cq: tensor<3xi32>, %ck: tensor<?xi32>) -> tensor<4x1x16xf16> {
  %o = attn.varlen_attention ins(%q, %k, %v : tensor<4x1x16xf16>, tensor<4x1x16xf16>, tensor<4x1x16xf16>) seqlens(%cq, %ck : tensor<3xi32>, tensor<?xi32>) -> tensor<4x1x16xf16>
  return %o : tensor<4x1x16xf16>
}

// -----

// CHECK: varlen-invalid.mlir:[[@LINE+2]]:{{[0-9]+}}: error: 'attn.varlen_attention' op GPU code generation: the key token total is static in dimension 0 of the key ('tensor<9x2x16xf16>') but dynamic in dimension 0 of the value ('tensor<?x2x16xf16>')
func.func @mixed_key_tokens(%q: tensor<7x2x16xf16>, %k: tensor<9x2x16xf16>, %v: tensor<?x2x16xf16>, %cq: tensor<4xi32>, %ck: tensor<4xi32>) -> tensor<7x2x16xf16> {
  %o = attn.varlen_attention ins(%q, %k, %v : tensor<7x2x16xf16>, tensor<9x2x16xf16>, tensor<?x2x16xf16>) seqlens(%cq, %ck : tensor<4xi32>, tensor<4xi32>) -> tensor<7x2x16xf16>
  return %o : tensor<7x2x16xf16>
}

// -----

// CHECK: varlen-invalid.mlir:[[@LINE+2]]:{{[0-9]+}}: error: 'attn.varlen_attention' op GPU code generation: the query token total is static in dimension 0 of the query ('tensor<7x2x16xf16>') but dynamic in dimension 0 of the output ('tensor<?x2x16xf16>')
func.func @mixed_query_tokens(%q: tensor<7x2x16xf16>, %k: tensor<9x2x16xf16>, %v: tensor<9x2x16xf16>, %cq: tensor<4xi32>, %ck: tensor<4xi32>) -> tensor<?x2x16xf16> {
  %o = attn.varlen_attention ins(%q, %k, %v : tensor<7x2x16xf16>, tensor<9x2x16xf16>, tensor<9x2x16xf16>) seqlens(%cq, %ck : tensor<4xi32>, tensor<4xi32>) -> tensor<?x2x16xf16>
  return %o : tensor<?x2x16xf16>
}

// -----

// CHECK: varlen-invalid.mlir:[[@LINE+2]]:{{[0-9]+}}: error: 'attn.varlen_attention' op GPU code generation needs static head counts and head dims: dimension 0 of the lse ('tensor<?x?xf32>')
func.func @dynamic_lse_heads(%q: tensor<?x2x16xf16>, %k: tensor<?x2x16xf16>, %v: tensor<?x2x16xf16>, %cq: tensor<4xi32>, %ck: tensor<4xi32>) -> tensor<?x?xf32> {
  %o, %l = attn.varlen_attention ins(%q, %k, %v : tensor<?x2x16xf16>, tensor<?x2x16xf16>, tensor<?x2x16xf16>) seqlens(%cq, %ck : tensor<4xi32>, tensor<4xi32>) -> tensor<?x2x16xf16>, tensor<?x?xf32>
  return %l : tensor<?x?xf32>
}
