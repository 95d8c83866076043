// The sm_90a backward group at a head dim that is an odd multiple of 8
// (D = 72: one 64-column SW128 panel plus 8 columns of a second, padded with
// zeros): the wgmma key-block kernel with the atomic dQ
// (tcgrad::hasWarpgroupKeyBlock). Sᵀ = K Qᵀ and dPᵀ = V dOᵀ run ceil(72 / 16)
// = 5 k-steps each, the last half over the zero padding; dV and dK are
// exactly 72 columns wide (m64n72); dQ = dS K goes in column chunks that do
// not cross a panel, 64 + 8 (m64n64 and m64n8, 128 keys in 8 k-steps each):
// 5 + 5 + 8 m64n64k16, 4 + 4 m64n72k16 and 8 m64n8k16. Each warpgroup
// stages its chunk and adds it with one bulk reduction: 64 x 64 and 64 x 8
// f32 (16384 and 2048 bytes). dq_convert turns the fragment-order tile's
// 32 row pairs x 9 column blocks into the gradient with 128 threads: 2
// whole passes and a third guarded one (288 items); a truncated pass count
// dropped the last ones (the H200 validation's NaN, session 27).
// RUN: attn-compile %s --emit=gpu -o %t.mlir
// RUN: FileCheck %s < %t.mlir
// RUN: grep -o "m64n64k16" %t.mlir | count 18
// RUN: grep -o "m64n72k16" %t.mlir | count 8
// RUN: grep -o "m64n8k16" %t.mlir | count 8

// CHECK-LABEL: gpu.func @attn_bwd_prep_0
// CHECK-LABEL: gpu.func @attn_bwd_dkdv_dq_0
// CHECK: wgmma.mma_async.sync.aligned.m64n64k16
// CHECK: wgmma.mma_async.sync.aligned.m64n72k16
// CHECK: cp.reduce.async.bulk.global.shared::cta.bulk_group.add.f32 [$0], [$1], 16384;
// CHECK: wgmma.mma_async.sync.aligned.m64n8k16
// CHECK: cp.reduce.async.bulk.global.shared::cta.bulk_group.add.f32 [$0], [$1], 2048;
// CHECK-LABEL: gpu.func @attn_bwd_dq_convert_0
// CHECK: %[[C288:.*]] = arith.constant 288 : index
// CHECK-NEXT: %[[LAST:.*]] = arith.cmpi slt, %{{.*}}, %[[C288]] : index
// CHECK-NEXT: scf.if %[[LAST]]

func.func @train72(%q: tensor<2x4x300x72xbf16>, %k: tensor<2x2x333x72xbf16>, %v: tensor<2x2x333x72xbf16>, %o: tensor<2x4x300x72xbf16>, %l: tensor<2x4x300xf32>, %do: tensor<2x4x300x72xbf16>) -> (tensor<2x4x300x72xbf16>, tensor<2x2x333x72xbf16>, tensor<2x2x333x72xbf16>) {
  %dq, %dk, %dv = attn.attention_grad ins(%q, %k, %v : tensor<2x4x300x72xbf16>, tensor<2x2x333x72xbf16>, tensor<2x2x333x72xbf16>) forward(%o, %l : tensor<2x4x300x72xbf16>, tensor<2x4x300xf32>) grad_output(%do : tensor<2x4x300x72xbf16>) {causal = #attn.causal<bottom_right>} -> tensor<2x4x300x72xbf16>, tensor<2x2x333x72xbf16>, tensor<2x2x333x72xbf16>
  return %dq, %dk, %dv : tensor<2x4x300x72xbf16>, tensor<2x2x333x72xbf16>, tensor<2x2x333x72xbf16>
}
