// RUN: attn-cpu-run %s --runs=3 --seed=5 | FileCheck %s
// RUN: attn-cpu-run %s --runs=2 --seed=6 --lowering=attn-tile | FileCheck %s

// attn.merge_partials on the CPU against a float64 evaluation of
// docs/semantics.md section 16, on random partials with about one in five
// empty (lse -inf, output NaN: it must not leak) and, in the first run, rows
// whose partials are all empty (output 0, lse -inf). f32 partials into bf16
// (the split-KV layout [S, B, Hq, Lq, Dv]), bf16 partials into f32, and a
// single partial (the merge is the identity there).

// CHECK-NOT: FAIL
// CHECK: all 3 attention op(s) match the float64 reference

func.func @split_kv_layout(%po: tensor<4x2x8x3x64xf32>, %pl: tensor<4x2x8x3xf32>) -> (tensor<2x8x3x64xbf16>, tensor<2x8x3xf32>) {
  %o, %l = attn.merge_partials ins(%po, %pl : tensor<4x2x8x3x64xf32>, tensor<4x2x8x3xf32>)
      -> tensor<2x8x3x64xbf16>, tensor<2x8x3xf32>
  return %o, %l : tensor<2x8x3x64xbf16>, tensor<2x8x3xf32>
}

func.func @bf16_partials(%po: tensor<3x17x40xbf16>, %pl: tensor<3x17xf32>) -> (tensor<17x40xf32>, tensor<17xf32>) {
  %o, %l = attn.merge_partials ins(%po, %pl : tensor<3x17x40xbf16>, tensor<3x17xf32>)
      -> tensor<17x40xf32>, tensor<17xf32>
  return %o, %l : tensor<17x40xf32>, tensor<17xf32>
}

func.func @one_partial(%po: tensor<1x5x2x8xf32>, %pl: tensor<1x5x2xf32>) -> tensor<5x2x8xf32> {
  %o = attn.merge_partials ins(%po, %pl : tensor<1x5x2x8xf32>, tensor<1x5x2xf32>) -> tensor<5x2x8xf32>
  return %o : tensor<5x2x8xf32>
}
