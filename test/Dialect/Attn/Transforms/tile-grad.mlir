// RUN: attention-opt %s --attn-tile="block-q=16 block-kv=32" --mlir-print-local-scope | FileCheck %s
// RUN: attention-opt %s --attn-tile="block-q=16 block-kv=32" | FileCheck %s --check-prefix=NOLQLK

// The backward with recomputation: D = rowsum(dO * O) over [B, Hq, Lq];
// one scf.forall over (batch, kv head, key block) that loops over the G query
// heads of the group and the visible query blocks, accumulating [Bc, D] and
// [Bc, Dv] in f32; one scf.forall over (batch, query head, query block) that
// loops over the visible key blocks, accumulating [Br, D]. Lq = 48 and
// Lk = 80, so no type may contain 48x80 or 80x48: nothing of size Lq x Lk
// exists (the test has no mask: a mask operand is Lq x Lk by the user's
// choice and is read block by block).

// CHECK-LABEL: func @grad_gqa_causal
// CHECK-NOT: attn.attention_grad
// CHECK: %[[DELTA:.+]] = linalg.generic {{.*}} iterator_types = ["parallel", "parallel", "parallel", "reduction"]} ins(%{{.*}}, %{{.*}} : tensor<2x4x48x32xbf16>, tensor<2x4x48x32xbf16>) outs(%{{.*}} : tensor<2x4x48xf32>)
// CHECK: %[[KV:.+]]:2 = scf.forall (%[[B:.+]], %[[HK:.+]], %[[KB:.+]]) in (2, 2, %{{.*}}) shared_outs(%{{.*}} = %{{.*}}, %{{.*}} = %{{.*}}) -> (tensor<2x2x80x64xbf16>, tensor<2x2x80x32xbf16>)
// CHECK: scf.for %{{.*}} = %c0{{.*}} to %c2{{.*}} step %c1{{.*}} iter_args(%{{.*}} = %{{.*}}, %{{.*}} = %{{.*}}) -> (tensor<32x64xf32>, tensor<32x32xf32>)
// CHECK: scf.for %{{.*}} = %{{.*}} to %{{.*}} step %c1{{.*}} iter_args({{.*}}) -> (tensor<32x64xf32>, tensor<32x32xf32>)
// CHECK: math.exp
// CHECK: scf.yield
// CHECK: scf.forall.in_parallel
// CHECK: tensor.parallel_insert_slice
// CHECK: tensor.parallel_insert_slice
// CHECK: %[[DQ:.+]] = scf.forall (%{{.*}}, %{{.*}}, %{{.*}}) in (2, 4, %{{.*}}) shared_outs(%{{.*}} = %{{.*}}) -> (tensor<2x4x48x64xbf16>)
// CHECK: scf.for %{{.*}} = %{{.*}} to %{{.*}} step %c1{{.*}} iter_args(%{{.*}} = %{{.*}}) -> (tensor<16x64xf32>)
// CHECK: return %[[DQ]], %[[KV]]#0, %[[KV]]#1

// NOLQLK-NOT: 48x80
// NOLQLK-NOT: 80x48
func.func @grad_gqa_causal(%q: tensor<2x4x48x64xbf16>, %k: tensor<2x2x80x64xbf16>, %v: tensor<2x2x80x32xbf16>, %o: tensor<2x4x48x32xbf16>, %lse: tensor<2x4x48xf32>, %do: tensor<2x4x48x32xbf16>, %s: i64, %f: i64) -> (tensor<2x4x48x64xbf16>, tensor<2x2x80x64xbf16>, tensor<2x2x80x32xbf16>) {
  %dq, %dk, %dv = attn.attention_grad ins(%q, %k, %v : tensor<2x4x48x64xbf16>, tensor<2x2x80x64xbf16>, tensor<2x2x80x32xbf16>) forward(%o, %lse : tensor<2x4x48x32xbf16>, tensor<2x4x48xf32>) grad_output(%do : tensor<2x4x48x32xbf16>) rng(%s, %f) {causal = #attn.causal<bottom_right>, dropout_p = 0.1 : f32, softcap = 5.0 : f32, deterministic} -> tensor<2x4x48x64xbf16>, tensor<2x2x80x64xbf16>, tensor<2x2x80x32xbf16>
  return %dq, %dk, %dv : tensor<2x4x48x64xbf16>, tensor<2x2x80x64xbf16>, tensor<2x2x80x32xbf16>
}
