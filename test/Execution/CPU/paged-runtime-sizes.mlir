// RUN: attn-cpu-run %s --sizes batch=3,num_pages=7 --sizes batch=1,num_pages=1 --sizes batch=5,num_pages=40 --runs=2 --seed=5 | FileCheck %s --check-prefixes=CHECK,DEC
// RUN: attn-cpu-run %s --sizes batch=2,num_pages=9 --sizes batch=4,num_pages=3 --runs=2 --seed=6 --lowering=attn-tile | FileCheck %s --check-prefixes=CHECK,TILE
// RUN: not attn-cpu-run %s 2>&1 | FileCheck %s --check-prefix=NOSIZES
// RUN: not attn-cpu-run %s --sizes batch=2,key_len=100 2>&1 | FileCheck %s --check-prefix=KEYLEN
// RUN: not attn-cpu-run %s --sizes batch=2,num_pages=0 2>&1 | FileCheck %s --check-prefix=NOPAGES

// attn.paged_attention with a run-time batch and page count (every other
// size static), compiled once and run at each --sizes draw with fresh
// caches (lengths in [0, capacity], shuffled shared pages; one page shared
// by every sequence in the second draw) against the float64 reference.

// DEC: B=3 Hq=8 Hkv=2 Lq=2 D=32 Dv=32 pages=7x16 max_pages=6
// DEC: B=1 Hq=8 Hkv=2 Lq=2 D=32 Dv=32 pages=1x16 max_pages=6
// DEC: B=5 Hq=8 Hkv=2 Lq=2 D=32 Dv=32 pages=40x16 max_pages=6
// DEC: B=5 Hq=4 Hkv=4 Lq=1 D=64 Dv=64 pages=40x32 max_pages=4
// TILE: B=4 Hq=8 Hkv=2 Lq=2 D=32 Dv=32 pages=3x16 max_pages=6
// TILE: B=4 Hq=4 Hkv=4 Lq=1 D=64 Dv=64 pages=3x32 max_pages=4
// CHECK-NOT: FAIL
// CHECK: all 2 attention op(s) match the float64 reference

// NOSIZES: error: attn-cpu-run: the op's batch is a run-time size: give it with --sizes batch=N (repeat --sizes for several draws)
// NOPAGES: error: attn-cpu-run: --sizes num_pages=0: the pool needs at least one page
// KEYLEN: error: attn-cpu-run: attn.paged_attention takes batch, num_pages and max_pages_per_seq in --sizes (its key lengths are drawn per sequence; its query length is static)

func.func @gqa_causal(%q: tensor<?x8x2x32xf32>, %kc: tensor<?x16x2x32xf32>, %vc: tensor<?x16x2x32xf32>,
                      %t: tensor<?x6xi32>, %n: tensor<?xi32>) -> (tensor<?x8x2x32xf32>, tensor<?x8x2xf32>) {
  %o, %l = attn.paged_attention ins(%q : tensor<?x8x2x32xf32>)
      cache(%kc, %vc : tensor<?x16x2x32xf32>, tensor<?x16x2x32xf32>)
      pages(%t, %n : tensor<?x6xi32>, tensor<?xi32>) {causal = #attn.causal<bottom_right>}
      -> tensor<?x8x2x32xf32>, tensor<?x8x2xf32>
  return %o, %l : tensor<?x8x2x32xf32>, tensor<?x8x2xf32>
}

// MHA with a window and softcap in f16, the same draws.
func.func @window_f16(%q: tensor<?x4x1x64xf16>, %kc: tensor<?x32x4x64xf16>, %vc: tensor<?x32x4x64xf16>,
                      %t: tensor<?x4xi32>, %n: tensor<?xi32>) -> tensor<?x4x1x64xf16> {
  %o = attn.paged_attention ins(%q : tensor<?x4x1x64xf16>)
      cache(%kc, %vc : tensor<?x32x4x64xf16>, tensor<?x32x4x64xf16>)
      pages(%t, %n : tensor<?x4xi32>, tensor<?xi32>) {window = array<i64: 40, 0>, softcap = 20.0 : f32}
      -> tensor<?x4x1x64xf16>
  return %o : tensor<?x4x1x64xf16>
}
