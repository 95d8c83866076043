// --sizes for a size the op has static binds nothing (a draw applies to
// every op of the file): the run says so on stderr instead of silently
// checking another problem than the one asked for.
// RUN: attn-cpu-run %s --sizes query_len=5 2>&1 | FileCheck %s --check-prefix=QUERY
// RUN: attn-cpu-run %s --sizes batch=3,key_len=9 2>&1 | FileCheck %s --check-prefix=BATCH
// RUN: attn-cpu-run %s --sizes batch=2,query_len=17,key_len=9 2>&1 | FileCheck %s --check-prefix=SAME --implicit-check-not=warning

// QUERY: runtime-sizes-static.mlir:[[@LINE+7]]:{{[0-9]+}}: warning: attn-cpu-run: --sizes query_len=5 does not apply: the op's query_len is static (17)
// QUERY: PASS
// BATCH: runtime-sizes-static.mlir:[[@LINE+5]]:{{[0-9]+}}: warning: attn-cpu-run: --sizes batch=3 does not apply: the op's batch is static (2)
// BATCH: PASS
// SAME: B=2 Hq=2 Hkv=2 Lq=17 Lk=9 D=8 Dv=8 f32
// SAME: PASS
func.func @f(%q: tensor<2x2x17x8xf32>, %k: tensor<2x2x9x8xf32>, %v: tensor<2x2x9x8xf32>) -> tensor<2x2x17x8xf32> {
  %o = attn.attention ins(%q, %k, %v : tensor<2x2x17x8xf32>, tensor<2x2x9x8xf32>, tensor<2x2x9x8xf32>) -> tensor<2x2x17x8xf32>
  return %o : tensor<2x2x17x8xf32>
}
