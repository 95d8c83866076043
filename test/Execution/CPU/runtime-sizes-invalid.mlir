// attn-cpu-run on ops with run-time sizes: a size not given, a dynamic head
// dim, and malformed --sizes are errors that say what to give.
// RUN: not attn-cpu-run %s 2>&1 | FileCheck %s --check-prefix=NONE
// RUN: not attn-cpu-run %s --sizes batch=2,query_len=3 2>&1 | FileCheck %s --check-prefix=NOKEY
// RUN: not attn-cpu-run %s --sizes batch=2,q=3 2>&1 | FileCheck %s --check-prefix=NAME
// RUN: not attn-cpu-run %s --sizes batch=two 2>&1 | FileCheck %s --check-prefix=VALUE
// RUN: not attn-cpu-run %s --sizes batch=1,query_len=2,key_len=2 --sizes batch=2,query_len=2,key_len=2 --dump-dir=%t 2>&1 | FileCheck %s --check-prefix=DUMP

// NONE: runtime-sizes-invalid.mlir:[[@LINE+6]]:{{[0-9]+}}: error: attn-cpu-run: 'tensor<?x2x?x16xf32>' has a dynamic batch; give it with --sizes batch=N
// NOKEY: runtime-sizes-invalid.mlir:[[@LINE+5]]:{{[0-9]+}}: error: attn-cpu-run: 'tensor<?x2x?x16xf32>' has a dynamic key_len; give it with --sizes key_len=N
// NAME: attn-cpu-run: --sizes batch=2,q=3: unknown size 'q' (expected batch, query_len, key_len, num_pages or max_pages_per_seq
// VALUE: attn-cpu-run: --sizes batch=two: size batch: expected a non-negative integer, got 'two'
// DUMP: attn-cpu-run: --dump-dir writes one problem per op; give one --sizes draw with it
func.func @f(%q: tensor<?x2x?x16xf32>, %k: tensor<?x2x?x16xf32>, %v: tensor<?x2x?x16xf32>) -> tensor<?x2x?x16xf32> {
  %o = attn.attention ins(%q, %k, %v : tensor<?x2x?x16xf32>, tensor<?x2x?x16xf32>, tensor<?x2x?x16xf32>) -> tensor<?x2x?x16xf32>
  return %o : tensor<?x2x?x16xf32>
}
