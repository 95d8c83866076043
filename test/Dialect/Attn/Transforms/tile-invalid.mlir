// RUN: not attention-opt %s -split-input-file --attn-tile 2>&1 | FileCheck %s
// RUN: not attention-opt %s --attn-tile="chip=sm_70" 2>&1 | FileCheck %s --check-prefix=CHIP
// RUN: not attention-opt %s -split-input-file --attn-tile="block-q=-1 block-kv=4" 2>&1 | FileCheck %s --check-prefix=NEGATIVE

// CHECK: attn-tile needs static head counts and head dims
// CHIP: attn-tile: unknown chip 'sm_70'
// NEGATIVE: <unknown>:0: error: attn-tile: block-q and block-kv must not be negative (0 keeps the op's attn.tiles or the selection), got block-q=-1 block-kv=4
func.func @dynamic_heads(%q: tensor<1x?x8x16xf32>, %k: tensor<1x?x8x16xf32>, %v: tensor<1x?x8x16xf32>) -> tensor<1x?x8x16xf32> {
  %o = attn.attention ins(%q, %k, %v : tensor<1x?x8x16xf32>, tensor<1x?x8x16xf32>, tensor<1x?x8x16xf32>) {scale = 0.25 : f32} -> tensor<1x?x8x16xf32>
  return %o : tensor<1x?x8x16xf32>
}
