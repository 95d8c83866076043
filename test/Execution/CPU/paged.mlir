// RUN: attn-cpu-run %s --runs=4 --seed=11 | FileCheck %s
// RUN: attn-cpu-run %s --runs=3 --seed=12 --lowering=attn-tile | FileCheck %s

// attn.paged_attention on the CPU against the float64 reference that
// gathers each sequence through its block-table row (PagedReference.h).
// Every run draws new cache lengths in [0, capacity] (the first pins an
// empty and a full cache) and new tables of random, shared pages; unused
// entries are -1. Pages of 16 (below and not a multiple of the tiles),
// GQA, decoding and a few new tokens with bottom-right causal (rows whose
// cache is shorter than Lq see no key), a sliding window with softcap,
// bf16 MQA.

// CHECK-NOT: FAIL
// CHECK: all 3 attention op(s) match the float64 reference

func.func @decode_gqa(%q: tensor<3x8x1x32xf32>, %kc: tensor<20x16x2x32xf32>, %vc: tensor<20x16x2x16xf32>,
                      %t: tensor<3x6xi32>, %n: tensor<3xi32>) -> (tensor<3x8x1x16xf32>, tensor<3x8x1xf32>) {
  %o, %lse = attn.paged_attention ins(%q : tensor<3x8x1x32xf32>)
      cache(%kc, %vc : tensor<20x16x2x32xf32>, tensor<20x16x2x16xf32>)
      pages(%t, %n : tensor<3x6xi32>, tensor<3xi32>)
      {causal = #attn.causal<bottom_right>}
      -> tensor<3x8x1x16xf32>, tensor<3x8x1xf32>
  return %o, %lse : tensor<3x8x1x16xf32>, tensor<3x8x1xf32>
}

func.func @speculative_window(%q: tensor<2x4x5x16xf32>, %kc: tensor<9x16x4x16xf32>, %vc: tensor<9x16x4x16xf32>,
                              %t: tensor<2x4xi32>, %n: tensor<2xi32>) -> (tensor<2x4x5x16xf32>, tensor<2x4x5xf32>) {
  %o, %lse = attn.paged_attention ins(%q : tensor<2x4x5x16xf32>)
      cache(%kc, %vc : tensor<9x16x4x16xf32>, tensor<9x16x4x16xf32>)
      pages(%t, %n : tensor<2x4xi32>, tensor<2xi32>)
      {causal = #attn.causal<bottom_right>, window = array<i64: 20, 0>, softcap = 5.0 : f32}
      -> tensor<2x4x5x16xf32>, tensor<2x4x5xf32>
  return %o, %lse : tensor<2x4x5x16xf32>, tensor<2x4x5xf32>
}

func.func @mqa_bf16(%q: tensor<2x4x2x64xbf16>, %kc: tensor<6x32x1x64xbf16>, %vc: tensor<6x32x1x64xbf16>,
                    %t: tensor<2x3xi32>, %n: tensor<2xi32>) -> tensor<2x4x2x64xbf16> {
  %o = attn.paged_attention ins(%q : tensor<2x4x2x64xbf16>)
      cache(%kc, %vc : tensor<6x32x1x64xbf16>, tensor<6x32x1x64xbf16>)
      pages(%t, %n : tensor<2x3xi32>, tensor<2xi32>) {scale = 0.2 : f32}
      -> tensor<2x4x2x64xbf16>
  return %o : tensor<2x4x2x64xbf16>
}
