// attn.attention_grad whose results are less static than its operands (or
// more): the decomposition and attn-tile cast each gradient to its own
// declared type. attn-tile returned grad_query as grad_key here (a
// dangling list of its results), and the decomposition returned values of
// the operands' types (invalid IR).
// RUN: attn-cpu-run %s --sizes batch=1,query_len=4,key_len=6 | FileCheck %s
// RUN: attn-cpu-run %s --sizes batch=1,query_len=4,key_len=6 --lowering=attn-tile | FileCheck %s
// RUN: attn-cpu-run %s --sizes batch=1,query_len=4,key_len=6 --lowering="attn-tile{block-q=2 block-kv=4}" | FileCheck %s
// RUN: attention-opt %s --attn-decompose | FileCheck %s --check-prefix=CAST

// CHECK: all 2 attention op(s) match the float64 reference
// CAST-LABEL: func.func @dynamic_results
// CAST: tensor.cast {{.*}} : tensor<1x2x4x8xf32> to tensor<?x2x?x8xf32>
// CAST: tensor.cast {{.*}} : tensor<1x2x6x8xf32> to tensor<?x2x?x8xf32>
// CAST: tensor.cast {{.*}} : tensor<1x2x6x16xf32> to tensor<?x2x?x16xf32>
func.func @dynamic_results(%q: tensor<1x2x4x8xf32>, %k: tensor<1x2x6x8xf32>, %v: tensor<1x2x6x16xf32>, %o: tensor<1x2x4x16xf32>, %l: tensor<1x2x4xf32>, %do: tensor<1x2x4x16xf32>) -> (tensor<?x2x?x8xf32>, tensor<?x2x?x8xf32>, tensor<?x2x?x16xf32>) {
  %dq, %dk, %dv = attn.attention_grad ins(%q, %k, %v : tensor<1x2x4x8xf32>, tensor<1x2x6x8xf32>, tensor<1x2x6x16xf32>) forward(%o, %l : tensor<1x2x4x16xf32>, tensor<1x2x4xf32>) grad_output(%do : tensor<1x2x4x16xf32>) -> tensor<?x2x?x8xf32>, tensor<?x2x?x8xf32>, tensor<?x2x?x16xf32>
  return %dq, %dk, %dv : tensor<?x2x?x8xf32>, tensor<?x2x?x8xf32>, tensor<?x2x?x16xf32>
}

func.func @static_results(%q: tensor<?x2x?x8xf32>, %k: tensor<?x2x?x8xf32>, %v: tensor<?x2x?x8xf32>, %o: tensor<?x2x?x8xf32>, %l: tensor<?x2x?xf32>, %do: tensor<?x2x?x8xf32>) -> (tensor<1x2x4x8xf32>, tensor<1x2x6x8xf32>, tensor<1x2x6x8xf32>) {
  %dq, %dk, %dv = attn.attention_grad ins(%q, %k, %v : tensor<?x2x?x8xf32>, tensor<?x2x?x8xf32>, tensor<?x2x?x8xf32>) forward(%o, %l : tensor<?x2x?x8xf32>, tensor<?x2x?xf32>) grad_output(%do : tensor<?x2x?x8xf32>) {causal = #attn.causal<bottom_right>} -> tensor<1x2x4x8xf32>, tensor<1x2x6x8xf32>, tensor<1x2x6x8xf32>
  return %dq, %dk, %dv : tensor<1x2x4x8xf32>, tensor<1x2x6x8xf32>, tensor<1x2x6x8xf32>
}
