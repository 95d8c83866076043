// GPU code generation at and past its limits (issue 17): sizes the kernels
// cannot serve are diagnostics naming the limit, never a wrapped
// shared-memory byte count (D = 2^62 once became 0 and the tool ran out of
// memory), a grid dimension over CUDA's 65535, or a manifest the runtime
// then refuses.
// RUN: attention-opt %s -split-input-file --attn-to-gpu -verify-diagnostics -o /dev/null
// RUN: not attn-compile %s --chip=sm_90a -o %t.ptx 2>&1 | FileCheck %s

// CHECK: dimension 3 is 4611686018427387904, above the supported head dim 65536 (2^16)
func.func @huge_head_dim(%q: tensor<1x1x8x4611686018427387904xf16>, %k: tensor<1x1x8x4611686018427387904xf16>, %v: tensor<1x1x8x4611686018427387904xf16>) -> tensor<1x1x8x4611686018427387904xf16> {
  // expected-error @+1 {{GPU code generation: operand #0 ('tensor<1x1x8x4611686018427387904xf16>'): dimension 3 is 4611686018427387904, above the supported head dim 65536 (2^16)}}
  %o = attn.attention ins(%q, %k, %v : tensor<1x1x8x4611686018427387904xf16>, tensor<1x1x8x4611686018427387904xf16>, tensor<1x1x8x4611686018427387904xf16>) {scale = 1.0 : f32} -> tensor<1x1x8x4611686018427387904xf16>
  return %o : tensor<1x1x8x4611686018427387904xf16>
}

// -----

// 2^32 x 2^32 elements: above every limit, and no 32-bit index choice.
func.func @overflowing(%q: tensor<4294967296x4294967296x1x64xf16>, %k: tensor<4294967296x4294967296x1x64xf16>, %v: tensor<4294967296x4294967296x1x64xf16>) -> tensor<4294967296x4294967296x1x64xf16> {
  // expected-error @+1 {{dimension 0 is 4294967296, above the supported size 2147483647 (2^31 - 1)}}
  %o = attn.attention ins(%q, %k, %v : tensor<4294967296x4294967296x1x64xf16>, tensor<4294967296x4294967296x1x64xf16>, tensor<4294967296x4294967296x1x64xf16>) -> tensor<4294967296x4294967296x1x64xf16>
  return %o : tensor<4294967296x4294967296x1x64xf16>
}

// -----

func.func @grid_batch(%q: tensor<1048576x1x16x64xf16>, %k: tensor<1048576x1x16x64xf16>, %v: tensor<1048576x1x16x64xf16>) -> tensor<1048576x1x16x64xf16> {
  // expected-error @+1 {{1 query heads and batch 1048576: the kernels' grid has one block row per head and per batch entry, and CUDA allows at most 65535 in each}}
  %o = attn.attention ins(%q, %k, %v : tensor<1048576x1x16x64xf16>, tensor<1048576x1x16x64xf16>, tensor<1048576x1x16x64xf16>) -> tensor<1048576x1x16x64xf16>
  return %o : tensor<1048576x1x16x64xf16>
}

// -----

func.func @no_keys(%q: tensor<1x2x8x64xf16>, %k: tensor<1x2x0x64xf16>, %v: tensor<1x2x0x64xf16>) -> tensor<1x2x8x64xf16> {
  // expected-error @+1 {{GPU code generation: empty tensor (B = 1, Hq = 2, Hkv = 2, Lq = 8, Lk = 0, D = 64, Dv = 64): the kernels need every size >= 1}}
  %o = attn.attention ins(%q, %k, %v : tensor<1x2x8x64xf16>, tensor<1x2x0x64xf16>, tensor<1x2x0x64xf16>) -> tensor<1x2x8x64xf16>
  return %o : tensor<1x2x8x64xf16>
}

// -----

func.func @empty_head_dim(%q: tensor<1x2x8x0xf16>, %k: tensor<1x2x8x0xf16>, %v: tensor<1x2x8x64xf16>) -> tensor<1x2x8x64xf16> {
  // expected-error @+1 {{empty tensor (B = 1, Hq = 2, Hkv = 2, Lq = 8, Lk = 8, D = 0, Dv = 64)}}
  %o = attn.attention ins(%q, %k, %v : tensor<1x2x8x0xf16>, tensor<1x2x8x0xf16>, tensor<1x2x8x64xf16>) {scale = 1.0 : f32} -> tensor<1x2x8x64xf16>
  return %o : tensor<1x2x8x64xf16>
}
