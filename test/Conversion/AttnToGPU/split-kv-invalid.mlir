// RUN: not attention-opt %s -split-input-file --attn-to-gpu="split-kv=3" 2>&1 | FileCheck %s
// RUN: not attention-opt %s -split-input-file --attn-to-gpu="kernel=cuda-core split-kv=3" 2>&1 | FileCheck %s --check-prefix=CUDA
// RUN: attention-opt %s -split-input-file --attn-to-gpu | FileCheck %s --check-prefix=AUTO
// RUN: not attention-opt %s --attn-to-gpu="split-kv=0" 2>&1 | FileCheck %s --check-prefix=ZERO
// RUN: not attention-opt %s --attn-to-gpu="split-kv=65" 2>&1 | FileCheck %s --check-prefix=MANY
// RUN: not attention-opt %s --attn-to-gpu="split-kv=some" 2>&1 | FileCheck %s --check-prefix=WORD
// RUN: not attention-opt %s --attn-to-gpu="sm-count=0" 2>&1 | FileCheck %s --check-prefix=SMS
// RUN: not attn-compile %s --split-kv=-2 -o %t.ptx 2>&1 | FileCheck %s --check-prefix=COMPILE

// A forced split-KV group (docs/kernel-manifest.md, "Split-KV forward
// groups") where it cannot apply is a diagnostic at the op that says why;
// with the default (auto) the same ops compile to the one-kernel forward.
// Bad option values name the option and what it accepts.

// ZERO: attn-to-gpu: unsupported split-kv=0 (expected auto, off or a number of chunks from 1 to 64)
// MANY: attn-to-gpu: unsupported split-kv=65 (expected auto, off or a number of chunks from 1 to 64)
// WORD: attn-to-gpu: unsupported split-kv=some (expected auto, off or a number of chunks from 1 to 64)
// SMS: attn-to-gpu: unsupported sm-count=0 (expected 1 to 1024)
// COMPILE: attn-compile: unsupported split-kv=-2 (expected auto, off or a number of chunks from 1 to 64)

// CHECK: split-kv-invalid.mlir:[[@LINE+4]]:{{[0-9]+}}: error: 'attn.attention' op GPU code generation: --split-kv=3 does not apply: the op has dropout
// CUDA: split-kv-invalid.mlir:[[@LINE+3]]:{{[0-9]+}}: error: 'attn.attention' op GPU code generation: --split-kv=3 does not apply: the CUDA-core kernel was asked for (--kernel=cuda-core)
// AUTO: gpu.func @attn_fwd_0(
func.func @dropout(%q: tensor<1x8x1x64xbf16>, %k: tensor<1x2x4096x64xbf16>, %v: tensor<1x2x4096x64xbf16>, %s: i64, %off: i64) -> tensor<1x8x1x64xbf16> {
  %o = attn.attention ins(%q, %k, %v : tensor<1x8x1x64xbf16>, tensor<1x2x4096x64xbf16>, tensor<1x2x4096x64xbf16>) rng(%s, %off) {dropout_p = 0.1 : f32} -> tensor<1x8x1x64xbf16>
  return %o : tensor<1x8x1x64xbf16>
}

// -----

// CHECK: split-kv-invalid.mlir:[[@LINE+3]]:{{[0-9]+}}: error: 'attn.attention' op GPU code generation: --split-kv=3 does not apply: the query length is a run-time size
// AUTO: gpu.func @attn_fwd_0(
func.func @dynamic_query_len(%q: tensor<1x8x?x64xbf16>, %k: tensor<1x2x4096x64xbf16>, %v: tensor<1x2x4096x64xbf16>) -> tensor<1x8x?x64xbf16> {
  %o = attn.attention ins(%q, %k, %v : tensor<1x8x?x64xbf16>, tensor<1x2x4096x64xbf16>, tensor<1x2x4096x64xbf16>) -> tensor<1x8x?x64xbf16>
  return %o : tensor<1x8x?x64xbf16>
}

// -----

// CHECK: split-kv-invalid.mlir:[[@LINE+3]]:{{[0-9]+}}: error: 'attn.attention' op GPU code generation: --split-kv=3 does not apply: no tensor-core kernel: the element type is f32, which tensor cores take only as tf32 (--f32-precision=tf32: the dense forward)
// AUTO: gpu.func @attn_fwd_0(
func.func @f32(%q: tensor<1x8x1x64xf32>, %k: tensor<1x2x4096x64xf32>, %v: tensor<1x2x4096x64xf32>) -> tensor<1x8x1x64xf32> {
  %o = attn.attention ins(%q, %k, %v : tensor<1x8x1x64xf32>, tensor<1x2x4096x64xf32>, tensor<1x2x4096x64xf32>) -> tensor<1x8x1x64xf32>
  return %o : tensor<1x8x1x64xf32>
}
