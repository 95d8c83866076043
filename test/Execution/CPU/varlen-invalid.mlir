// attn-cpu-run on packed batches: a size not given, a given size that
// disagrees with a static one, and no sequences for some tokens are errors
// that say so.
// RUN: not attn-cpu-run %s 2>&1 | FileCheck %s --check-prefix=NONE
// RUN: not attn-cpu-run %s --sizes batch=2,query_len=3 2>&1 | FileCheck %s --check-prefix=NOKEY
// RUN: not attn-cpu-run %s --sizes batch=2,query_len=3,key_len=5 2>&1 | FileCheck %s --check-prefix=STATIC

// NONE: varlen-invalid.mlir:[[@LINE+4]]:{{[0-9]+}}: error: attn-cpu-run: the packed op has a dynamic batch; give it with --sizes batch=N (batch = sequences, query_len / key_len = token totals)
// NOKEY: varlen-invalid.mlir:[[@LINE+3]]:{{[0-9]+}}: error: attn-cpu-run: the packed op has a dynamic key_len; give it with --sizes key_len=N
// STATIC: varlen-invalid.mlir:[[@LINE+2]]:{{[0-9]+}}: error: attn-cpu-run: key_len is 5 but 'tensor<4x2x16xf32>' says 4; a run-time size must agree with the tensors where it is static
func.func @f(%q: tensor<?x2x16xf32>, %k: tensor<?x2x16xf32>, %v: tensor<4x2x16xf32>, %cq: tensor<?xi32>, %ck: tensor<?xi32>) -> tensor<?x2x16xf32> {
  %o = attn.varlen_attention ins(%q, %k, %v : tensor<?x2x16xf32>, tensor<?x2x16xf32>, tensor<4x2x16xf32>) seqlens(%cq, %ck : tensor<?xi32>, tensor<?xi32>) -> tensor<?x2x16xf32>
  return %o : tensor<?x2x16xf32>
}
