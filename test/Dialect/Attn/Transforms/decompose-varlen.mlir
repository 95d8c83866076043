// RUN: attention-opt %s --attn-decompose --mlir-print-local-scope | FileCheck %s
// RUN: attention-opt %s --attn-tile --mlir-print-local-scope | FileCheck %s --check-prefix=TILE

// A packed batch decomposes into its definition (docs/semantics.md, section
// 14): the token-major tensors transposed to the batch-1 dense form, the
// sequence of each token counted from the offsets, a block-diagonal i1
// mask whose causal rule uses each sequence's own positions and lengths,
// the dense attention on that mask, and the results transposed back.

// CHECK-LABEL: func.func @packed_causal
// CHECK-SAME: (%[[Q:[a-z0-9_]+]]: tensor<?x4x16xf32>, %[[K:[a-z0-9_]+]]: tensor<?x2x16xf32>, %[[V:[a-z0-9_]+]]: tensor<?x2x8xf32>, %[[CQ:[a-z0-9_]+]]: tensor<?xi32>, %[[CK:[a-z0-9_]+]]: tensor<?xi32>)
// CHECK-NOT: attn.
// CHECK: %[[QT:.+]] = linalg.transpose ins(%[[Q]] : tensor<?x4x16xf32>) outs(%{{.*}} : tensor<4x?x16xf32>) permutation = [1, 0, 2]
// CHECK: %[[QD:.+]] = tensor.expand_shape %[[QT]] {{\[\[}}0, 1], [2], [3]] output_shape [1, 4, %{{.*}}, 16] : tensor<4x?x16xf32> into tensor<1x4x?x16xf32>
// CHECK: linalg.transpose ins(%[[K]] : tensor<?x2x16xf32>)
// CHECK: linalg.transpose ins(%[[V]] : tensor<?x2x8xf32>)
// Sequence of each query token: the number of sequence ends at or before it.
// CHECK: %[[ENDS_Q:.+]] = tensor.extract_slice %[[CQ]][1] [%{{.*}}] [1] : tensor<?xi32> to tensor<?xi32>
// CHECK: %[[SEQ_Q:.+]] = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d1)>, affine_map<(d0, d1) -> (d0)>], iterator_types = ["parallel", "reduction"]} ins(%[[ENDS_Q]] : tensor<?xi32>)
// CHECK: arith.cmpi sle
// CHECK: %[[SEQ_K:.+]] = linalg.generic {{.*}} ins(%{{.*}} : tensor<?xi32>)
// The mask: same sequence, and the bottom-right causal rule inside it.
// CHECK: %[[MASK:.+]] = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d2)>, affine_map<(d0, d1, d2, d3) -> (d3)>, affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>], {{.*}}} ins(%[[SEQ_Q]], %[[SEQ_K]] : tensor<?xi32>, tensor<?xi32>) outs(%{{.*}} : tensor<1x1x?x?xi1>)
// CHECK: ^bb0(%[[SQ:.+]]: i32, %[[SK:.+]]: i32, %{{.*}}: i1):
// CHECK: %[[SAME:.+]] = arith.cmpi eq, %[[SQ]], %[[SK]] : i32
// CHECK: %[[SEQ:.+]] = arith.index_cast %[[SQ]] : i32 to index
// CHECK: tensor.extract %[[CQ]][%[[SEQ]]]
// CHECK: tensor.extract %[[CK]][%[[SEQ]]]
// CHECK: %[[ROW:.+]] = arith.subi %{{.*}}, %{{.*}} : index
// CHECK: %[[COL:.+]] = arith.subi %{{.*}}, %{{.*}} : index
// CHECK: %[[LENQ:.+]] = arith.subi %{{.*}}, %{{.*}} : index
// CHECK: %[[LENK:.+]] = arith.subi %{{.*}}, %{{.*}} : index
// CHECK: %[[DELTA:.+]] = arith.subi %[[LENK]], %[[LENQ]] : index
// CHECK: %[[DIAG:.+]] = arith.addi %[[ROW]], %[[DELTA]] : index
// CHECK: %[[CAUSAL:.+]] = arith.cmpi sle, %[[COL]], %[[DIAG]] : index
// CHECK: %[[ALLOWED:.+]] = arith.andi %[[SAME]], %[[CAUSAL]] : i1
// CHECK: linalg.yield %[[ALLOWED]] : i1
// The dense scores read the mask, broadcast over the heads.
// CHECK: linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>, affine_map<(d0, d1, d2, d3) -> (0, 0, d2, d3)>, {{.*}}} ins(%{{.*}}, %[[MASK]] : tensor<1x4x?x?xf32>, tensor<1x1x?x?xi1>)
// CHECK: %[[O:.+]] = tensor.collapse_shape %{{.*}} {{\[\[}}0, 1], [2], [3]] : tensor<1x4x?x8xf32> into tensor<4x?x8xf32>
// CHECK: %[[OT:.+]] = linalg.transpose ins(%[[O]] : tensor<4x?x8xf32>) outs(%{{.*}} : tensor<?x4x8xf32>) permutation = [1, 0, 2]
// CHECK: %[[LSE:.+]] = tensor.collapse_shape %{{.*}} {{\[\[}}0, 1], [2]] : tensor<1x4x?xf32> into tensor<4x?xf32>
// CHECK: return %[[OT]], %[[LSE]] : tensor<?x4x8xf32>, tensor<4x?xf32>

// attn-tile tiles the same dense masked form (the mask is sliced per tile).
// TILE-LABEL: func.func @packed_causal
// TILE-NOT: attn.varlen_attention
// TILE: tensor.expand_shape
// TILE: linalg.generic {{.*}} outs(%{{.*}} : tensor<1x1x?x?xi1>)
// TILE: scf.forall
// TILE: scf.for
func.func @packed_causal(%q: tensor<?x4x16xf32>, %k: tensor<?x2x16xf32>, %v: tensor<?x2x8xf32>, %cq: tensor<?xi32>, %ck: tensor<?xi32>) -> (tensor<?x4x8xf32>, tensor<4x?xf32>) {
  %o, %l = attn.varlen_attention ins(%q, %k, %v : tensor<?x4x16xf32>, tensor<?x2x16xf32>, tensor<?x2x8xf32>) seqlens(%cq, %ck : tensor<?xi32>, tensor<?xi32>) {causal = #attn.causal<bottom_right>} -> tensor<?x4x8xf32>, tensor<4x?xf32>
  return %o, %l : tensor<?x4x8xf32>, tensor<4x?xf32>
}

// The gradient: the dense attention_grad on the same mask, its three
// results transposed back to the packed layout.
// CHECK-LABEL: func.func @packed_grad
// CHECK-NOT: attn.
// CHECK: outs(%{{.*}} : tensor<1x1x10x12xi1>)
// CHECK: %[[DQ:.+]] = linalg.transpose ins(%{{.*}} : tensor<4x10x16xf16>) outs(%{{.*}} : tensor<10x4x16xf16>) permutation = [1, 0, 2]
// CHECK: %[[DK:.+]] = linalg.transpose ins(%{{.*}} : tensor<2x12x16xf16>) outs(%{{.*}} : tensor<12x2x16xf16>) permutation = [1, 0, 2]
// CHECK: %[[DV:.+]] = linalg.transpose ins(%{{.*}} : tensor<2x12x8xf16>) outs(%{{.*}} : tensor<12x2x8xf16>) permutation = [1, 0, 2]
// CHECK: return %[[DQ]], %[[DK]], %[[DV]]
func.func @packed_grad(%q: tensor<10x4x16xf16>, %k: tensor<12x2x16xf16>, %v: tensor<12x2x8xf16>,
                       %cq: tensor<4xi32>, %ck: tensor<4xi32>, %o: tensor<10x4x8xf16>, %lse: tensor<4x10xf32>,
                       %do: tensor<10x4x8xf16>)
    -> (tensor<10x4x16xf16>, tensor<12x2x16xf16>, tensor<12x2x8xf16>) {
  %dq, %dk, %dv = attn.varlen_attention_grad ins(%q, %k, %v : tensor<10x4x16xf16>, tensor<12x2x16xf16>, tensor<12x2x8xf16>)
      seqlens(%cq, %ck : tensor<4xi32>, tensor<4xi32>)
      forward(%o, %lse : tensor<10x4x8xf16>, tensor<4x10xf32>)
      grad_output(%do : tensor<10x4x8xf16>) {window = array<i64: 3, 0>}
      -> tensor<10x4x16xf16>, tensor<12x2x16xf16>, tensor<12x2x8xf16>
  return %dq, %dk, %dv : tensor<10x4x16xf16>, tensor<12x2x16xf16>, tensor<12x2x8xf16>
}
