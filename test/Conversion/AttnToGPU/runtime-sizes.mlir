// RUN: attention-opt %s --attn-to-gpu | FileCheck %s

// Run-time batch and lengths (docs/kernel-manifest.md, "Run-time sizes"):
// the kernel takes them as trailing i32 arguments (batch, query_len,
// key_len: the dynamic ones, in that order) and casts them to index once;
// the flat tensor arguments get the largest supported extent (2^56), a
// bound for the bare-pointer calling convention that is never read. (On
// sm_90a the wgmma kernel's TMA tensor maps follow them.)
// CHECK-LABEL: gpu.func @attn_fwd_0(
// CHECK-SAME: memref<72057594037927936xbf16>
// CHECK-SAME: %[[B:[a-z0-9]+]]: i32, %[[LQ:[a-z0-9]+]]: i32, %[[LK:[a-z0-9]+]]: i32,
// CHECK-SAME: !llvm.ptr, %{{.*}}: !llvm.ptr, %{{.*}}: !llvm.ptr)
// CHECK-DAG: arith.index_castui %[[B]] : i32 to index
// CHECK-DAG: arith.index_castui %[[LQ]] : i32 to index
// CHECK-DAG: arith.index_castui %[[LK]] : i32 to index
func.func @all_three(%q: tensor<?x4x?x64xbf16>, %k: tensor<?x2x?x64xbf16>, %v: tensor<?x2x?x64xbf16>) -> tensor<?x4x?x64xbf16> {
  %o = attn.attention ins(%q, %k, %v : tensor<?x4x?x64xbf16>, tensor<?x2x?x64xbf16>, tensor<?x2x?x64xbf16>) {causal = #attn.causal<bottom_right>} -> tensor<?x4x?x64xbf16>
  return %o : tensor<?x4x?x64xbf16>
}

// Decoding: a static Lq = 1 and batch, a run-time key length only; the
// static tensors keep their exact extents. (It is a split-KV group with the
// chunk count decided at launch, docs/kernel-manifest.md "Split-KV forward
// groups": its split_kv stage takes key_len, then num_splits, after the f32
// workspaces.)
// CHECK-LABEL: gpu.func @attn_fwd_split_kv_1(
// CHECK-SAME: memref<256xf16>
// CHECK-SAME: memref<72057594037927936xf16>
// CHECK-SAME: %[[K1:[a-z0-9]+]]: i32, %[[S1:[a-z0-9]+]]: i32)
// CHECK-DAG: arith.index_castui %[[K1]] : i32 to index
// CHECK-DAG: arith.index_castui %[[S1]] : i32 to index
func.func @decode(%q: tensor<2x2x1x64xf16>, %k: tensor<2x1x?x64xf16>, %v: tensor<2x1x?x64xf16>) -> tensor<2x2x1x64xf16> {
  %o = attn.attention ins(%q, %k, %v : tensor<2x2x1x64xf16>, tensor<2x1x?x64xf16>, tensor<2x1x?x64xf16>) -> tensor<2x2x1x64xf16>
  return %o : tensor<2x2x1x64xf16>
}

// A backward group takes the same trailing sizes in every kernel (here a
// run-time query length only: the prep, dkdv_dq and dq_convert kernels of
// the atomic-dQ group on the pass's default chip, sm_90a; the
// warp-specialized key-block kernel's tensor maps follow them).
// CHECK-LABEL: gpu.func @attn_bwd_prep_0(
// CHECK-SAME: %[[PQ:[a-z0-9]+]]: i32)
// CHECK: arith.index_castui %[[PQ]] : i32 to index
// CHECK-LABEL: gpu.func @attn_bwd_dkdv_dq_0(
// CHECK-SAME: memref<72057594037927936xf16>
// CHECK-SAME: memref<512xf16>
// CHECK-SAME: %[[KQ:[a-z0-9]+]]: i32, %{{.+}}: !llvm.ptr, %{{.+}}: !llvm.ptr, %{{.+}}: !llvm.ptr, %{{.+}}: !llvm.ptr)
// CHECK: arith.index_castui %[[KQ]] : i32 to index
// CHECK-LABEL: gpu.func @attn_bwd_dq_convert_0(
// CHECK-SAME: %{{[a-z0-9]+}}: i32)
func.func @grad(%q: tensor<1x2x?x64xf16>, %k: tensor<1x2x4x64xf16>, %v: tensor<1x2x4x64xf16>, %o: tensor<1x2x?x64xf16>, %lse: tensor<1x2x?xf32>, %do: tensor<1x2x?x64xf16>) -> (tensor<1x2x?x64xf16>, tensor<1x2x4x64xf16>, tensor<1x2x4x64xf16>) {
  %dq, %dk, %dv = attn.attention_grad ins(%q, %k, %v : tensor<1x2x?x64xf16>, tensor<1x2x4x64xf16>, tensor<1x2x4x64xf16>) forward(%o, %lse : tensor<1x2x?x64xf16>, tensor<1x2x?xf32>) grad_output(%do : tensor<1x2x?x64xf16>) -> tensor<1x2x?x64xf16>, tensor<1x2x4x64xf16>, tensor<1x2x4x64xf16>
  return %dq, %dk, %dv : tensor<1x2x?x64xf16>, tensor<1x2x4x64xf16>, tensor<1x2x4x64xf16>
}
