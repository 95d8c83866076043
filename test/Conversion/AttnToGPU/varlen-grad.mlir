// RUN: attention-opt %s --attn-to-gpu="chip=sm_90a" | FileCheck %s

// A packed batch's backward group (docs/kernel-manifest.md, "Packed backward
// kernels"), here the atomic one of sm_90a (D = 64): prep, dkdv_dq,
// dq_convert. Every kernel reads its block's sequence (block z) from the
// offsets; the workspaces hold W = 4 ceil(Tq / 4) + 68 B rows per head and
// sequence b's start at P_b = 4 ceil(cu_seqlens_q[b] / 4) + 68 b; rows of
// Q, O, dO (8 query heads) and K, V (2 kv heads) are token-major; blocks
// past their sequence's length do nothing (the grid covers the longest).

// The parameters: the inputs, the offsets, the workspaces (dq_accum a global
// pointer), then batch, total_query_tokens and total_key_tokens.
// CHECK-LABEL: gpu.func @attn_bwd_prep_0
// CHECK-SAME: %[[CQ:arg6]]: memref<{{[0-9]+}}xi32>, %[[CK:arg7]]: memref<{{[0-9]+}}xi32>, %{{arg8}}: memref<{{[0-9]+}}xf32>, %{{arg9}}: memref<{{[0-9]+}}xf32>, %{{arg10}}: !llvm.ptr<1>, %[[B:arg11]]: i32, %[[TQ:arg12]]: i32, %{{arg13}}: i32)
// CHECK: %[[Z:.+]] = gpu.block_id z
// CHECK: %[[NEXT:.+]] = arith.addi %[[Z]], %c1
// CHECK: %[[QS_I:.+]] = memref.load %[[CQ]][%[[Z]]]
// CHECK: %[[QS:.+]] = arith.index_cast %[[QS_I]] : i32 to index
// CHECK: memref.load %[[CK]][%[[Z]]]
// CHECK: %[[QE_I:.+]] = memref.load %[[CQ]][%[[NEXT]]]
// CHECK: %[[QE:.+]] = arith.index_cast %[[QE_I]] : i32 to index
// CHECK: %[[LQ:.+]] = arith.subi %[[QE]], %[[QS]]
// W: Tq rounded up to 4, plus 68 B.
// CHECK: %[[TQX:.+]] = arith.index_cast %[[TQ]] : i32 to index
// CHECK: %[[BX_:.+]] = arith.index_cast %[[B]] : i32 to index
// CHECK: %[[TQ3:.+]] = arith.addi %[[TQX]], %c3
// CHECK: %[[TQ4:.+]] = arith.divui %[[TQ3]], %c4
// CHECK: %[[TQA:.+]] = arith.muli %[[TQ4]], %c4
// CHECK: %[[B68:.+]] = arith.muli %[[BX_]], %c68
// CHECK: %[[W:.+]] = arith.addi %[[TQA]], %[[B68]]
// P_b: the sequence's first token rounded up to 4, plus 68 b.
// CHECK: %[[QS3:.+]] = arith.addi %[[QS]], %c3
// CHECK: %[[QS4:.+]] = arith.divui %[[QS3]], %c4
// CHECK: %[[QSA:.+]] = arith.muli %[[QS4]], %c4
// CHECK: %[[Z68:.+]] = arith.muli %[[Z]], %c68
// CHECK: %[[P:.+]] = arith.addi %[[QSA]], %[[Z68]]
// CHECK: %[[X:.+]] = gpu.block_id x
// CHECK: %[[Q0:.+]] = arith.muli %[[X]], %c64
// CHECK: %[[H:.+]] = gpu.block_id y
// Token t of head h: row t * 8 + h.
// CHECK: %[[QT:.+]] = arith.muli %[[QS]], %c8
// CHECK: %[[ROW0:.+]] = arith.addi %[[QT]], %[[H]]
// The workspace row of q0: h * W + P_b + q0.
// CHECK: %[[HW:.+]] = arith.muli %[[H]], %[[W]]
// CHECK: %[[HWP:.+]] = arith.addi %[[HW]], %[[P]]
// CHECK: arith.addi %[[HWP]], %[[Q0]]
// CHECK: %[[LIVE:.+]] = arith.cmpi slt, %[[Q0]], %[[LQ]]
// CHECK: scf.if %[[LIVE]] {
// CHECK: gpu.return

// The key-block kernel: live while its first key is inside the sequence's
// keys; K/V rows token-major over the 2 kv heads.
// CHECK-LABEL: gpu.func @attn_bwd_dkdv_dq_0
// CHECK: %[[KZ:.+]] = gpu.block_id z
// CHECK: %[[KNEXT:.+]] = arith.addi %[[KZ]], %c1
// CHECK: %[[KQS_I:.+]] = memref.load %arg6[%[[KZ]]]
// CHECK: %[[KQS:.+]] = arith.index_cast %[[KQS_I]] : i32 to index
// CHECK: %[[KS_I:.+]] = memref.load %arg7[%[[KZ]]]
// CHECK: %[[KS:.+]] = arith.index_cast %[[KS_I]] : i32 to index
// CHECK: %[[KE_I:.+]] = memref.load %arg7[%[[KNEXT]]]
// CHECK: %[[KE:.+]] = arith.index_cast %[[KE_I]] : i32 to index
// CHECK: %[[LK:.+]] = arith.subi %[[KE]], %[[KS]]
// CHECK: %[[KX:.+]] = gpu.block_id x
// CHECK: %[[KVH:.+]] = gpu.block_id y
// CHECK: %[[K0:.+]] = arith.muli %[[KX]], %c128
// CHECK: %[[KLIVE:.+]] = arith.cmpi slt, %[[K0]], %[[LK]]
// CHECK: scf.if %[[KLIVE]] {
// Each role (warp-specialized, --grad-tma=auto) reads the offsets again
// after its setmaxnreg: ptxas spills values loaded before it and used after.
// CHECK: nvvm.setmaxregister decrease 24
// CHECK: %[[PQS_I:.+]] = memref.load %arg6[%[[KZ]]]
// CHECK: %[[PQS:.+]] = arith.index_cast %[[PQS_I]] : i32 to index
// CHECK: %[[PKS_I:.+]] = memref.load %arg7[%[[KZ]]]
// CHECK: %[[PKS:.+]] = arith.index_cast %[[PKS_I]] : i32 to index
// CHECK: %[[KT:.+]] = arith.muli %[[PKS]], %c2
// CHECK: arith.addi %[[KT]], %[[KVH]]
// The producer's TMA boxes over the [T, H, D] tensors: K and V at (column,
// kv head, the sequence's first key token + k0), Q and dO at (column, query
// head, its first query token + q0); rows a box reads past the sequence are
// masked (keys past the length; query rows with lse +inf).
// CHECK: %[[KTOK:.+]] = arith.addi %[[PKS]], %{{.+}} : index
// CHECK: %[[KH32:.+]] = arith.index_castui %[[KVH]] : index to i32
// CHECK: %[[KTOK32:.+]] = arith.index_castui %[[KTOK]] : index to i32
// CHECK: nvvm.cp.async.bulk.tensor.shared.cluster.global %{{.+}}, %arg18, %{{.+}}, box[%{{.+}}, %[[KH32]], %[[KTOK32]]]
// CHECK: nvvm.cp.async.bulk.tensor.shared.cluster.global %{{.+}}, %arg19, %{{.+}}, box[%{{.+}}, %{{.+}}, %{{.+}}]
// CHECK: %[[QTOK:.+]] = arith.addi %[[PQS]], %{{.+}} : index
// CHECK: %[[QTOK32:.+]] = arith.index_castui %[[QTOK]] : index to i32
// CHECK: nvvm.cp.async.bulk.tensor.shared.cluster.global %{{.+}}, %arg16, %{{.+}}, box[%{{.+}}, %{{.+}}, %[[QTOK32]]]
// CHECK: nvvm.cp.async.bulk.tensor.shared.cluster.global %{{.+}}, %arg17, %{{.+}}, box[%{{.+}}, %{{.+}}, %{{.+}}]
// The consumers read them again too.
// CHECK: nvvm.setmaxregister increase 240
// CHECK: memref.load %arg6[%[[KZ]]]
// CHECK: memref.load %arg7[%[[KZ]]]

// CHECK-LABEL: gpu.func @attn_bwd_dq_convert_0
// CHECK: scf.if
// CHECK: gpu.return
func.func @packed(%q: tensor<?x8x64xbf16>, %k: tensor<?x2x64xbf16>, %v: tensor<?x2x64xbf16>, %cq: tensor<?xi32>, %ck: tensor<?xi32>, %o: tensor<?x8x64xbf16>, %l: tensor<8x?xf32>, %do: tensor<?x8x64xbf16>) -> (tensor<?x8x64xbf16>, tensor<?x2x64xbf16>, tensor<?x2x64xbf16>) {
  %dq, %dk, %dv = attn.varlen_attention_grad ins(%q, %k, %v : tensor<?x8x64xbf16>, tensor<?x2x64xbf16>, tensor<?x2x64xbf16>) seqlens(%cq, %ck : tensor<?xi32>, tensor<?xi32>) forward(%o, %l : tensor<?x8x64xbf16>, tensor<8x?xf32>) grad_output(%do : tensor<?x8x64xbf16>) {causal = #attn.causal<bottom_right>} -> tensor<?x8x64xbf16>, tensor<?x2x64xbf16>, tensor<?x2x64xbf16>
  return %dq, %dk, %dv : tensor<?x8x64xbf16>, tensor<?x2x64xbf16>, tensor<?x2x64xbf16>
}
