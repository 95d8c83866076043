// RUN: attention-opt %s --attn-to-gpu="chip=sm_90a" | FileCheck %s

// A packed batch's forward kernel (docs/kernel-manifest.md, "Packed
// variable-length batches"): block z is sequence z; its first tokens and
// lengths come from the offsets; token t of head h is row t * H + h of the
// token-major tensors (H = 8 query heads, 2 kv heads); the lse row of head
// h starts at h * Tq (Tq the run-time total); blocks past their sequence's
// last query do nothing. With causal rows the grid's first blocks take the
// last query blocks (the longest tiles start first).

// CHECK-LABEL: gpu.func @attn_fwd_0
// CHECK-SAME: (%[[Q:[a-z0-9]+]]: memref<{{[0-9]+}}xbf16>, %{{[a-z0-9]+}}: memref<{{[0-9]+}}xbf16>, %{{[a-z0-9]+}}: memref<{{[0-9]+}}xbf16>, %[[CQ:[a-z0-9]+]]: memref<{{[0-9]+}}xi32>, %[[CK:[a-z0-9]+]]: memref<{{[0-9]+}}xi32>, %{{[a-z0-9]+}}: memref<{{[0-9]+}}xbf16>, %{{[a-z0-9]+}}: memref<{{[0-9]+}}xf32>, %[[B:[a-z0-9]+]]: i32, %[[TQ:[a-z0-9]+]]: i32, %[[TK:[a-z0-9]+]]: i32, %[[QMAP:[a-z0-9]+]]: !llvm.ptr, %[[KMAP:[a-z0-9]+]]: !llvm.ptr, %[[VMAP:[a-z0-9]+]]: !llvm.ptr)
// CHECK: %[[BX:.+]] = gpu.block_id x
// CHECK: %[[GX:.+]] = gpu.grid_dim x
// CHECK: %[[LASTX:.+]] = arith.subi %[[GX]], %c1
// CHECK: %[[QB:.+]] = arith.subi %[[LASTX]], %[[BX]]
// CHECK: %[[H:.+]] = gpu.block_id y
// CHECK: %[[Z:.+]] = gpu.block_id z
// CHECK: %[[Q0:.+]] = arith.muli %[[QB]], %c128
// CHECK: %[[KVH:.+]] = arith.divui %[[H]], %c4
// CHECK: %[[NEXT:.+]] = arith.addi %[[Z]], %c1
// CHECK: %[[QS_I:.+]] = memref.load %[[CQ]][%[[Z]]]
// CHECK: %[[QS:.+]] = arith.index_cast %[[QS_I]] : i32 to index
// CHECK: %[[KS_I:.+]] = memref.load %[[CK]][%[[Z]]]
// CHECK: %[[KS:.+]] = arith.index_cast %[[KS_I]] : i32 to index
// CHECK: %[[QE_I:.+]] = memref.load %[[CQ]][%[[NEXT]]]
// CHECK: %[[QE:.+]] = arith.index_cast %[[QE_I]] : i32 to index
// CHECK: %[[LQ:.+]] = arith.subi %[[QE]], %[[QS]]
// CHECK: memref.load %[[CK]][%[[NEXT]]]
// CHECK: %[[TQI:.+]] = arith.index_cast %[[TQ]] : i32 to index
// CHECK: %[[QT:.+]] = arith.muli %[[QS]], %c8
// CHECK: arith.addi %[[QT]], %[[H]]
// CHECK: %[[KT:.+]] = arith.muli %[[KS]], %c2
// CHECK: arith.addi %[[KT]], %[[KVH]]
// CHECK: %[[LSE_H:.+]] = arith.muli %[[H]], %[[TQI]]
// CHECK: arith.addi %[[LSE_H]], %[[QS]]
// CHECK: %[[LIVE:.+]] = arith.cmpi slt, %[[Q0]], %[[LQ]]
// CHECK: scf.if %[[LIVE]] {
// The producer's TMA boxes over the [T, H, D] tensors: (column, head, the
// sequence's first token + row); a box past the sequence reads the next
// one's tokens, which the kernel masks.
// CHECK: %[[QTOK:.+]] = arith.addi %[[QS]], %[[Q0]] : index
// CHECK: %[[QH32:.+]] = arith.index_castui %[[H]] : index to i32
// CHECK: %[[QTOK32:.+]] = arith.index_castui %[[QTOK]] : index to i32
// CHECK: nvvm.cp.async.bulk.tensor.shared.cluster.global %{{.+}}, %[[QMAP]], %{{.+}}, box[%{{.+}}, %[[QH32]], %[[QTOK32]]]
// CHECK: %[[KROW:.+]] = arith.muli %{{.+}}, %c128{{.*}} : index
// CHECK: %[[KTOK:.+]] = arith.addi %[[KS]], %[[KROW]] : index
// CHECK: %[[KH32:.+]] = arith.index_castui %[[KVH]] : index to i32
// CHECK: %[[KTOK32:.+]] = arith.index_castui %[[KTOK]] : index to i32
// CHECK: nvvm.cp.async.bulk.tensor.shared.cluster.global %{{.+}}, %[[KMAP]], %{{.+}}, box[%{{.+}}, %[[KH32]], %[[KTOK32]]]
// CHECK: nvvm.cp.async.bulk.tensor.shared.cluster.global %{{.+}}, %[[VMAP]], %{{.+}}, box[%{{.+}}, %{{.+}}, %{{.+}}]
func.func @packed(%q: tensor<?x8x128xbf16>, %k: tensor<?x2x128xbf16>, %v: tensor<?x2x128xbf16>, %cq: tensor<?xi32>, %ck: tensor<?xi32>) -> (tensor<?x8x128xbf16>, tensor<8x?xf32>) {
  %o, %l = attn.varlen_attention ins(%q, %k, %v : tensor<?x8x128xbf16>, tensor<?x2x128xbf16>, tensor<?x2x128xbf16>) seqlens(%cq, %ck : tensor<?xi32>, tensor<?xi32>) {causal = #attn.causal<bottom_right>} -> tensor<?x8x128xbf16>, tensor<8x?xf32>
  return %o, %l : tensor<?x8x128xbf16>, tensor<8x?xf32>
}
