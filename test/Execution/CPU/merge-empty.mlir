// RUN: attn-cpu-run %s | FileCheck %s
// RUN: attn-cpu-run %s --lowering=attn-tile | FileCheck %s

// A merge of empty partials (Dv = 0): nothing to compare, and no row count
// to derive from the element count (before: a division by zero).

// CHECK: attn.merge_partials at {{.*}}merge-empty.mlir
// CHECK-NEXT: empty (tensor<1x1x0xf32>): nothing to compare
// CHECK: all 1 attention op(s) match the float64 reference
func.func @f(%po: tensor<1x1x0xf32>, %pl: tensor<1x1xf32>) -> tensor<1x0xf32> {
  %o = attn.merge_partials ins(%po, %pl : tensor<1x1x0xf32>, tensor<1x1xf32>) -> tensor<1x0xf32>
  return %o : tensor<1x0xf32>
}
