// attn.attention_grad with an explicit dropout keep mask on the CPU against
// the float64 gradient reference (which reads the same random keep bits that
// attn-cpu-run generates for the mask), decomposed and tiled.
// RUN: attn-cpu-run %s --seed=3 | FileCheck %s
// RUN: attn-cpu-run %s --seed=17 | FileCheck %s
// RUN: attn-cpu-run %s --seed=5 --lowering="attn-tile{block-q=8 block-kv=12}" | FileCheck %s
// RUN: attn-cpu-run %s --seed=9 --lowering="attn-tile{block-q=5 block-kv=7}" | FileCheck %s

// CHECK-NOT: FAIL
// A full keep mask, GQA, Lq < Lk.
// CHECK-LABEL: attn.attention_grad at {{.*}}
// CHECK-NEXT: B=2 Hq=4 Hkv=2 Lq=12 Lk=20 D=16 Dv=8 f32 causal=none dropout dropout_mask{{$}}
// CHECK: second run: 0 elements differ
// CHECK: PASS
func.func @full_mask(%q: tensor<2x4x12x16xf32>, %k: tensor<2x2x20x16xf32>, %v: tensor<2x2x20x8xf32>, %o: tensor<2x4x12x8xf32>, %lse: tensor<2x4x12xf32>, %do: tensor<2x4x12x8xf32>, %keep: tensor<2x4x12x20xi1>) -> (tensor<2x4x12x16xf32>, tensor<2x2x20x16xf32>, tensor<2x2x20x8xf32>) {
  %dq, %dk, %dv = attn.attention_grad ins(%q, %k, %v : tensor<2x4x12x16xf32>, tensor<2x2x20x16xf32>, tensor<2x2x20x8xf32>) forward(%o, %lse : tensor<2x4x12x8xf32>, tensor<2x4x12xf32>) grad_output(%do : tensor<2x4x12x8xf32>) dropout_mask(%keep : tensor<2x4x12x20xi1>) {dropout_p = 0.25 : f32} -> tensor<2x4x12x16xf32>, tensor<2x2x20x16xf32>, tensor<2x2x20x8xf32>
  return %dq, %dk, %dv : tensor<2x4x12x16xf32>, tensor<2x2x20x16xf32>, tensor<2x2x20x8xf32>
}

// A broadcast keep mask with a boolean mask and causal; bf16.
// CHECK-LABEL: attn.attention_grad at {{.*}}
// CHECK-NEXT: B=1 Hq=2 Hkv=1 Lq=16 Lk=16 D=32 Dv=32 bf16 causal=top_left masked dropout dropout_mask{{$}}
// CHECK: second run: 0 elements differ
// CHECK: PASS
func.func @broadcast_mask(%q: tensor<1x2x16x32xbf16>, %k: tensor<1x1x16x32xbf16>, %v: tensor<1x1x16x32xbf16>, %o: tensor<1x2x16x32xbf16>, %lse: tensor<1x2x16xf32>, %do: tensor<1x2x16x32xbf16>, %m: tensor<1x1x16x16xi1>, %keep: tensor<1x1x16x16xi1>) -> (tensor<1x2x16x32xbf16>, tensor<1x1x16x32xbf16>, tensor<1x1x16x32xbf16>) {
  %dq, %dk, %dv = attn.attention_grad ins(%q, %k, %v : tensor<1x2x16x32xbf16>, tensor<1x1x16x32xbf16>, tensor<1x1x16x32xbf16>) forward(%o, %lse : tensor<1x2x16x32xbf16>, tensor<1x2x16xf32>) grad_output(%do : tensor<1x2x16x32xbf16>) mask(%m : tensor<1x1x16x16xi1>) dropout_mask(%keep : tensor<1x1x16x16xi1>) {causal = #attn.causal<top_left>, dropout_p = 0.5 : f32} -> tensor<1x2x16x32xbf16>, tensor<1x1x16x32xbf16>, tensor<1x1x16x32xbf16>
  return %dq, %dk, %dv : tensor<1x2x16x32xbf16>, tensor<1x1x16x32xbf16>, tensor<1x1x16x32xbf16>
}
// CHECK: all 2 attention op(s) match the float64 reference
