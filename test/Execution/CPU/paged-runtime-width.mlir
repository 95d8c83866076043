// RUN: attn-cpu-run %s --sizes batch=2,num_pages=6,max_pages_per_seq=1 --sizes max_pages_per_seq=13,batch=2,num_pages=6 --sizes batch=2,num_pages=6,max_pages_per_seq=0 --runs=2 --seed=7 | FileCheck %s --check-prefixes=CHECK,DEC
// RUN: attn-cpu-run %s --sizes batch=2,num_pages=6,max_pages_per_seq=5 --runs=2 --seed=8 --lowering=attn-tile | FileCheck %s --check-prefixes=CHECK,TILE
// RUN: not attn-cpu-run %s --sizes batch=2,num_pages=6 2>&1 | FileCheck %s --check-prefix=NOWIDTH
// RUN: not attn-cpu-run %s --sizes batch=2,num_pages=6,max_pages_per_seq=4,widht=3 2>&1 | FileCheck %s --check-prefix=TYPO

// attn.paged_attention whose block table's width (max_pages_per_seq, the
// table's dimension 1) is a run-time size, with the batch and page count
// (first op) or alone (second op; the draws give the sizes it has static,
// which are checked against them): one compiled function run at each
// width, the capacity (width x page size) and the drawn cache lengths
// following it; a width of 0 holds no keys (every row empty: output 0, lse
// -inf).

// DEC: B=2 Hq=8 Hkv=2 Lq=2 D=32 Dv=32 pages=6x16 max_pages=1
// DEC: B=2 Hq=8 Hkv=2 Lq=2 D=32 Dv=32 pages=6x16 max_pages=13
// DEC: B=2 Hq=8 Hkv=2 Lq=2 D=32 Dv=32 pages=6x16 max_pages=0
// DEC: rows with no allowed key: 32 of 32
// DEC: B=2 Hq=4 Hkv=1 Lq=3 D=64 Dv=32 pages=6x8 max_pages=13
// DEC: B=2 Hq=4 Hkv=1 Lq=3 D=64 Dv=32 pages=6x8 max_pages=0
// TILE: B=2 Hq=8 Hkv=2 Lq=2 D=32 Dv=32 pages=6x16 max_pages=5
// TILE: B=2 Hq=4 Hkv=1 Lq=3 D=64 Dv=32 pages=6x8 max_pages=5
// CHECK-NOT: FAIL
// CHECK: all 2 attention op(s) match the float64 reference

// NOWIDTH: error: attn-cpu-run: the op's max_pages_per_seq is a run-time size: give it with --sizes max_pages_per_seq=N (repeat --sizes for several draws)
// TYPO: unknown size 'widht' (expected batch, query_len, key_len, num_pages or max_pages_per_seq

func.func @all_runtime(%q: tensor<?x8x2x32xf32>, %kc: tensor<?x16x2x32xf32>, %vc: tensor<?x16x2x32xf32>,
                       %t: tensor<?x?xi32>, %n: tensor<?xi32>) -> (tensor<?x8x2x32xf32>, tensor<?x8x2xf32>) {
  %o, %l = attn.paged_attention ins(%q : tensor<?x8x2x32xf32>)
      cache(%kc, %vc : tensor<?x16x2x32xf32>, tensor<?x16x2x32xf32>)
      pages(%t, %n : tensor<?x?xi32>, tensor<?xi32>) {causal = #attn.causal<bottom_right>}
      -> tensor<?x8x2x32xf32>, tensor<?x8x2xf32>
  return %o, %l : tensor<?x8x2x32xf32>, tensor<?x8x2xf32>
}

// MQA, Dv != D, a window: only the width at run time.
func.func @width_only(%q: tensor<2x4x3x64xf32>, %kc: tensor<6x8x1x64xf32>, %vc: tensor<6x8x1x32xf32>,
                      %t: tensor<2x?xi32>, %n: tensor<2xi32>) -> tensor<2x4x3x32xf32> {
  %o = attn.paged_attention ins(%q : tensor<2x4x3x64xf32>)
      cache(%kc, %vc : tensor<6x8x1x64xf32>, tensor<6x8x1x32xf32>)
      pages(%t, %n : tensor<2x?xi32>, tensor<2xi32>) {causal = #attn.causal<bottom_right>, window = array<i64: 20, 0>}
      -> tensor<2x4x3x32xf32>
  return %o : tensor<2x4x3x32xf32>
}
