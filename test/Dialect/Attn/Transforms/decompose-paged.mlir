// RUN: attention-opt %s --attn-decompose --mlir-print-local-scope | FileCheck %s
// RUN: attention-opt %s --attn-tile --mlir-print-local-scope | FileCheck %s --check-prefix=TILE

// A paged cache decomposes into its definition (docs/semantics.md, section
// 15): K and V gathered per sequence through the block table to
// [B, Hkv, max_pages * page_size, X] (positions past the sequence's length
// read page 0), a length mask with the bottom-right causal rule at the
// sequence's own length, and the dense attention on that mask.

// CHECK-LABEL: func.func @decode
// CHECK-SAME: (%[[Q:[a-z0-9_]+]]: tensor<2x4x1x16xf32>, %[[KC:[a-z0-9_]+]]: tensor<5x8x2x16xf32>, %[[VC:[a-z0-9_]+]]: tensor<5x8x2x8xf32>, %[[T:[a-z0-9_]+]]: tensor<2x3xi32>, %[[N:[a-z0-9_]+]]: tensor<2xi32>)
// CHECK-NOT: attn.
// The key gather: page = table[b, j / 8] where j < len[b], else 0.
// CHECK: linalg.generic {{.*}} outs(%{{.*}} : tensor<2x2x24x16xf32>)
// CHECK: %[[B:.+]] = linalg.index 0 : index
// CHECK: %[[H:.+]] = linalg.index 1 : index
// CHECK: %[[J:.+]] = linalg.index 2 : index
// CHECK: %[[X:.+]] = linalg.index 3 : index
// CHECK: %[[PI:.+]] = arith.divui %[[J]], %{{.*}} : index
// CHECK: tensor.extract %[[T]][%[[B]], %[[PI]]] : tensor<2x3xi32>
// CHECK: tensor.extract %[[N]][%[[B]]] : tensor<2xi32>
// CHECK: %[[USED:.+]] = arith.cmpi slt, %[[J]], %{{.*}} : index
// CHECK: %[[PAGE:.+]] = arith.select %[[USED]], %{{.*}}, %{{.*}} : index
// CHECK: %[[SLOT:.+]] = arith.remui %[[J]], %{{.*}} : index
// CHECK: tensor.extract %[[KC]][%[[PAGE]], %[[SLOT]], %[[H]], %[[X]]] : tensor<5x8x2x16xf32>
// The value gather.
// CHECK: linalg.generic {{.*}} outs(%{{.*}} : tensor<2x2x24x8xf32>)
// CHECK: tensor.extract %[[VC]][%{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}] : tensor<5x8x2x8xf32>
// The mask: j < len[b] and j <= i + len[b] - Lq.
// CHECK: linalg.generic {{.*}} outs(%{{.*}} : tensor<2x1x1x24xi1>)
// CHECK: tensor.extract %[[N]]
// CHECK: arith.cmpi slt
// CHECK: arith.andi
// CHECK: return
func.func @decode(%q: tensor<2x4x1x16xf32>, %kc: tensor<5x8x2x16xf32>, %vc: tensor<5x8x2x8xf32>,
                  %t: tensor<2x3xi32>, %n: tensor<2xi32>) -> tensor<2x4x1x8xf32> {
  %o = attn.paged_attention ins(%q : tensor<2x4x1x16xf32>)
      cache(%kc, %vc : tensor<5x8x2x16xf32>, tensor<5x8x2x8xf32>)
      pages(%t, %n : tensor<2x3xi32>, tensor<2xi32>) {causal = #attn.causal<bottom_right>}
      -> tensor<2x4x1x8xf32>
  return %o : tensor<2x4x1x8xf32>
}

// attn-tile tiles the dense form over the gathered capacity.
// TILE-LABEL: func.func @decode
// TILE-NOT: attn.paged_attention
// TILE: tensor.extract %{{.*}} : tensor<5x8x2x16xf32>
// TILE: scf.for
