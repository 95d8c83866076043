// Every tensor parameter of every kernel decides attn-compile's index width,
// the workspaces included: a split-KV group's partial output is S times the
// output (docs/kernel-manifest.md, "Split-KV forward groups"). Here Q, K, V
// and O stay below 2^31 elements, but 64 chunks make the partial output
// 128 x 64 x 64 x 16 x 256 = 2^31 elements: 64-bit indices, and 32 is
// refused; without the split the kernel keeps 32-bit indices.
// RUN: attn-compile %s --split-kv=64 -o %t.ptx | FileCheck %s --check-prefix=SPLIT
// RUN: attn-compile %s --split-kv=off -o %t.off.ptx | FileCheck %s --check-prefix=OFF
// RUN: not attn-compile %s --split-kv=64 --index-bits=32 -o %t.bad.ptx 2>&1 | FileCheck %s --check-prefix=REFUSED

// SPLIT: attn-compile: wrote {{.*}} (2 kernels, sm_90a, 64-bit indices)
// OFF: attn-compile: wrote {{.*}} (1 kernel, sm_90a, 32-bit indices)
// REFUSED: attn-compile: --index-bits=32: a tensor has 2147483648 elements (32-bit offsets need fewer than 2^31)
func.func @decode(%q: tensor<128x64x16x256xbf16>, %k: tensor<128x8x1000x256xbf16>, %v: tensor<128x8x1000x256xbf16>) -> tensor<128x64x16x256xbf16> {
  %o = attn.attention ins(%q, %k, %v : tensor<128x64x16x256xbf16>, tensor<128x8x1000x256xbf16>, tensor<128x8x1000x256xbf16>) -> tensor<128x64x16x256xbf16>
  return %o : tensor<128x64x16x256xbf16>
}
