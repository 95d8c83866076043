// RUN: attention-opt %s | attention-opt | FileCheck %s

// The packed variable-length ops print and parse back: dynamic totals and
// batch, GQA, lse [Hq, Tq], rng, and the gradient with deterministic.

// CHECK-LABEL: func.func @forward
// CHECK: attn.varlen_attention ins(%{{.*}}, %{{.*}}, %{{.*}} : tensor<?x32x128xbf16>, tensor<?x8x128xbf16>, tensor<?x8x128xbf16>) seqlens(%{{.*}}, %{{.*}} : tensor<?xi32>, tensor<?xi32>) {causal = #attn.causal<bottom_right>} -> tensor<?x32x128xbf16>, tensor<32x?xf32>
func.func @forward(%q: tensor<?x32x128xbf16>, %k: tensor<?x8x128xbf16>, %v: tensor<?x8x128xbf16>,
                   %cq: tensor<?xi32>, %ck: tensor<?xi32>) -> (tensor<?x32x128xbf16>, tensor<32x?xf32>) {
  %o, %lse = attn.varlen_attention ins(%q, %k, %v : tensor<?x32x128xbf16>, tensor<?x8x128xbf16>, tensor<?x8x128xbf16>)
      seqlens(%cq, %ck : tensor<?xi32>, tensor<?xi32>) {causal = #attn.causal<bottom_right>}
      -> tensor<?x32x128xbf16>, tensor<32x?xf32>
  return %o, %lse : tensor<?x32x128xbf16>, tensor<32x?xf32>
}

// CHECK-LABEL: func.func @gradient
// CHECK: attn.varlen_attention_grad ins(%{{.*}}, %{{.*}}, %{{.*}} : tensor<10x4x16xf16>, tensor<12x2x16xf16>, tensor<12x2x8xf16>) seqlens(%{{.*}}, %{{.*}} : tensor<4xi32>, tensor<4xi32>) forward(%{{.*}}, %{{.*}} : tensor<10x4x8xf16>, tensor<4x10xf32>) grad_output(%{{.*}} : tensor<10x4x8xf16>) rng(%{{.*}}, %{{.*}}) {deterministic, dropout_p = 1.250000e-01 : f32, window = array<i64: 3, 0>}
func.func @gradient(%q: tensor<10x4x16xf16>, %k: tensor<12x2x16xf16>, %v: tensor<12x2x8xf16>,
                    %cq: tensor<4xi32>, %ck: tensor<4xi32>, %o: tensor<10x4x8xf16>, %lse: tensor<4x10xf32>,
                    %do: tensor<10x4x8xf16>, %seed: i64, %off: i64)
    -> (tensor<10x4x16xf16>, tensor<12x2x16xf16>, tensor<12x2x8xf16>) {
  %dq, %dk, %dv = attn.varlen_attention_grad ins(%q, %k, %v : tensor<10x4x16xf16>, tensor<12x2x16xf16>, tensor<12x2x8xf16>)
      seqlens(%cq, %ck : tensor<4xi32>, tensor<4xi32>)
      forward(%o, %lse : tensor<10x4x8xf16>, tensor<4x10xf32>)
      grad_output(%do : tensor<10x4x8xf16>) rng(%seed, %off)
      {deterministic, dropout_p = 0.125 : f32, window = array<i64: 3, 0>}
      -> tensor<10x4x16xf16>, tensor<12x2x16xf16>, tensor<12x2x8xf16>
  return %dq, %dk, %dv : tensor<10x4x16xf16>, tensor<12x2x16xf16>, tensor<12x2x8xf16>
}
