// Query rows asked for with --block-q / --warps are not dropped on a
// decoding op: the split_kv stage packs 64 rows in 4 warps, so under
// --split-kv=auto another request leaves the op to the one-kernel forward
// (which takes 128 rows, or says why it does not take 96, as for any op),
// and a forced split with it is an error naming both. 64 rows keep the
// split group.
// RUN: attn-compile %s --block-q=128 -o %t.128.ptx | FileCheck %s --check-prefix=ONE
// RUN: FileCheck %s --check-prefix=ROWS128 < %t.128.json
// RUN: attn-compile %s --block-q=64 -o %t.64.ptx | FileCheck %s --check-prefix=GROUP
// RUN: not attn-compile %s --block-q=96 --warps=64 -o %t.96.ptx 2>&1 | FileCheck %s --check-prefix=BAD
// RUN: not attn-compile %s --split-kv=4 --block-q=128 -o %t.f.ptx 2>&1 | FileCheck %s --check-prefix=FORCED

// ONE: (1 kernel, sm_90a,
// ROWS128: "block_q": 128,
// GROUP: (2 kernels, sm_90a,
// BAD: error: 'attn.attention' op GPU code generation: tensor-core tiling: query block 96 (expected 64 or 128)
// FORCED: error: 'attn.attention' op GPU code generation: --split-kv=4 packs 64 query rows in 4 warps per block, not --block-q=128
func.func @decode(%q: tensor<8x32x1x128xbf16>, %k: tensor<8x8x4096x128xbf16>, %v: tensor<8x8x4096x128xbf16>) -> tensor<8x32x1x128xbf16> {
  %o = attn.attention ins(%q, %k, %v : tensor<8x32x1x128xbf16>, tensor<8x8x4096x128xbf16>, tensor<8x8x4096x128xbf16>) {causal = #attn.causal<bottom_right>} -> tensor<8x32x1x128xbf16>
  return %o : tensor<8x32x1x128xbf16>
}
