// gradients-cancellation.mlir's rule for a packed batch's gradients
// (attn.varlen_attention_grad): with softcap = 1e-3 the tanh saturates and
// dQ, dK are rounding noise; each element is judged against the rounding of
// the terms it sums in its own sequence
// (referencePackedAttentionGradMagnitudes), as kernels-runtime does.
// RUN: attn-cpu-run %s --seed=3 --sizes batch=3,query_len=40,key_len=50 | FileCheck %s
// CHECK: attn.varlen_attention_grad at
// CHECK: grad_query: max rel err {{.*}}cancelling terms: within their rounding
// CHECK: PASS
func.func @saturated_softcap_packed(%q: tensor<?x2x16xf32>, %k: tensor<?x2x16xf32>, %v: tensor<?x2x8xf32>, %cq: tensor<?xi32>, %ck: tensor<?xi32>, %o: tensor<?x2x8xf32>, %l: tensor<2x?xf32>, %do: tensor<?x2x8xf32>) -> (tensor<?x2x16xf32>, tensor<?x2x16xf32>, tensor<?x2x8xf32>) {
  %dq, %dk, %dv = attn.varlen_attention_grad ins(%q, %k, %v : tensor<?x2x16xf32>, tensor<?x2x16xf32>, tensor<?x2x8xf32>) seqlens(%cq, %ck : tensor<?xi32>, tensor<?xi32>) forward(%o, %l : tensor<?x2x8xf32>, tensor<2x?xf32>) grad_output(%do : tensor<?x2x8xf32>) {softcap = 1.0e-3 : f32} -> tensor<?x2x16xf32>, tensor<?x2x16xf32>, tensor<?x2x8xf32>
  return %dq, %dk, %dv : tensor<?x2x16xf32>, tensor<?x2x16xf32>, tensor<?x2x8xf32>
}
