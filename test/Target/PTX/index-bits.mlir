// attn-compile computes offsets in 32-bit index arithmetic when every tensor
// of every compiled op has fewer than 2^31 elements, else in 64 bits;
// --index-bits forces a width, and 32 is refused where it could overflow.
// (The op's own tensors here: --split-kv=off keeps its one kernel;
// index-bits-workspace.mlir counts a split-KV group's workspaces.)
// RUN: sed 's/SEQ/256/g' %s > %t.small.mlir
// RUN: attn-compile %t.small.mlir --split-kv=off -o %t.ptx | FileCheck %s --check-prefix=AUTO
// RUN: attn-compile %t.small.mlir --split-kv=off --index-bits=64 -o %t.64.ptx | FileCheck %s --check-prefix=FORCED64
// RUN: sed 's/SEQ/131072/g' %s > %t.large.mlir
// RUN: attn-compile %t.large.mlir --split-kv=off -o %t.large.ptx | FileCheck %s --check-prefix=LARGE
// RUN: not attn-compile %t.large.mlir --index-bits=32 -o %t.bad.ptx 2>&1 | FileCheck %s --check-prefix=REFUSED
// RUN: not attn-compile %t.small.mlir --index-bits=16 -o %t.bad.ptx 2>&1 | FileCheck %s --check-prefix=BADBITS

// AUTO: attn-compile: wrote {{.*}} (1 kernel, sm_90a, 32-bit indices)
// FORCED64: attn-compile: wrote {{.*}} (1 kernel, sm_90a, 64-bit indices)
// 1 x 64 x 131072 x 256 = 2^31 elements: 64-bit.
// LARGE: attn-compile: wrote {{.*}} (1 kernel, sm_90a, 64-bit indices)
// REFUSED: attn-compile: --index-bits=32: a tensor has 2147483648 elements (32-bit offsets need fewer than 2^31)
// BADBITS: attn-compile: unsupported --index-bits=16 (expected 0, 32 or 64)
func.func @f(%q: tensor<1x64x128x256xbf16>, %k: tensor<1x64xSEQx256xbf16>, %v: tensor<1x64xSEQx256xbf16>) -> tensor<1x64x128x256xbf16> {
  %o = attn.attention ins(%q, %k, %v : tensor<1x64x128x256xbf16>, tensor<1x64xSEQx256xbf16>, tensor<1x64xSEQx256xbf16>) {causal = #attn.causal<bottom_right>} -> tensor<1x64x128x256xbf16>
  return %o : tensor<1x64x128x256xbf16>
}
