// The order in which a one-block-per-tile grid walks the query blocks. The
// hardware dispatches blocks in index order (x fastest); where later query
// blocks see more keys (causal rows, a window's right side) block x takes
// query block gridDim.x - 1 - x, so the longest tiles start first and the
// last wave is the shortest ones (docs/architecture.md, "Query block
// order"). Elsewhere, and where x is not a query block (split-KV groups,
// persistent kernels), x is the query block.
// RUN: attn-compile %s --emit=gpu --chip=sm_90a --split-kv=off -o %t.wgmma.mlir
// RUN: FileCheck %s < %t.wgmma.mlir
// RUN: attn-compile %s --emit=gpu --chip=sm_80 --split-kv=off -o %t.sm80.mlir
// RUN: FileCheck %s < %t.sm80.mlir

// CHECK-LABEL: gpu.func @attn_fwd_0(
// CHECK: %[[X:.+]] = gpu.block_id x
// CHECK: %[[GX:.+]] = gpu.grid_dim x
// CHECK-NEXT: %[[LAST:.+]] = arith.subi %[[GX]], %c1
// CHECK-NEXT: %[[QB:.+]] = arith.subi %[[LAST]], %[[X]]
// CHECK: arith.muli %[[QB]], %c{{64|128}}
func.func @causal(%q: tensor<2x4x300x64xbf16>, %k: tensor<2x4x300x64xbf16>, %v: tensor<2x4x300x64xbf16>) -> tensor<2x4x300x64xbf16> {
  %o = attn.attention ins(%q, %k, %v : tensor<2x4x300x64xbf16>, tensor<2x4x300x64xbf16>, tensor<2x4x300x64xbf16>) {causal = #attn.causal<top_left>} -> tensor<2x4x300x64xbf16>
  return %o : tensor<2x4x300x64xbf16>
}

// A window's right side alone (no causal rule) bounds keys by the row too.
// CHECK-LABEL: gpu.func @attn_fwd_1(
// CHECK: gpu.block_id x
// CHECK: gpu.grid_dim x
func.func @right_window(%q: tensor<2x4x300x64xbf16>, %k: tensor<2x4x300x64xbf16>, %v: tensor<2x4x300x64xbf16>) -> tensor<2x4x300x64xbf16> {
  %o = attn.attention ins(%q, %k, %v : tensor<2x4x300x64xbf16>, tensor<2x4x300x64xbf16>, tensor<2x4x300x64xbf16>) {window = array<i64: -1, 16>} -> tensor<2x4x300x64xbf16>
  return %o : tensor<2x4x300x64xbf16>
}

// Every query block sees every key, or (a left window side alone) later
// blocks see fewer: index order.
// CHECK-LABEL: gpu.func @attn_fwd_2(
// CHECK-NOT: gpu.grid_dim
// CHECK: %[[X2:.+]] = gpu.block_id x
// CHECK-NOT: gpu.grid_dim
// CHECK: arith.muli %[[X2]], %c{{64|128}}
func.func @full(%q: tensor<2x4x300x64xbf16>, %k: tensor<2x4x300x64xbf16>, %v: tensor<2x4x300x64xbf16>) -> tensor<2x4x300x64xbf16> {
  %o = attn.attention ins(%q, %k, %v : tensor<2x4x300x64xbf16>, tensor<2x4x300x64xbf16>, tensor<2x4x300x64xbf16>) -> tensor<2x4x300x64xbf16>
  return %o : tensor<2x4x300x64xbf16>
}
// CHECK-LABEL: gpu.func @attn_fwd_3(
// CHECK-NOT: gpu.grid_dim
// CHECK: %[[X3:.+]] = gpu.block_id x
// CHECK-NOT: gpu.grid_dim
// CHECK: arith.muli %[[X3]], %c{{64|128}}
func.func @left_window(%q: tensor<2x4x300x64xbf16>, %k: tensor<2x4x300x64xbf16>, %v: tensor<2x4x300x64xbf16>) -> tensor<2x4x300x64xbf16> {
  %o = attn.attention ins(%q, %k, %v : tensor<2x4x300x64xbf16>, tensor<2x4x300x64xbf16>, tensor<2x4x300x64xbf16>) {window = array<i64: 16, -1>} -> tensor<2x4x300x64xbf16>
  return %o : tensor<2x4x300x64xbf16>
}

// The backward's dq kernel (here in the `deterministic` group: prep, dkdv,
// dq) walks its query blocks the same way; the dkdv kernel's key blocks are
// already longest first in index order (the first keys are seen by the
// most queries).
// CHECK-LABEL: gpu.func @attn_bwd_dq_0(
// CHECK: %[[DX:.+]] = gpu.block_id x
// CHECK: %[[DGX:.+]] = gpu.grid_dim x
// CHECK-NEXT: %[[DLAST:.+]] = arith.subi %[[DGX]], %c1
// CHECK-NEXT: arith.subi %[[DLAST]], %[[DX]]
func.func @causal_grad(%q: tensor<2x4x300x64xbf16>, %k: tensor<2x4x300x64xbf16>, %v: tensor<2x4x300x64xbf16>, %o: tensor<2x4x300x64xbf16>, %l: tensor<2x4x300xf32>, %do: tensor<2x4x300x64xbf16>) -> (tensor<2x4x300x64xbf16>, tensor<2x4x300x64xbf16>, tensor<2x4x300x64xbf16>) {
  %dq, %dk, %dv = attn.attention_grad ins(%q, %k, %v : tensor<2x4x300x64xbf16>, tensor<2x4x300x64xbf16>, tensor<2x4x300x64xbf16>) forward(%o, %l : tensor<2x4x300x64xbf16>, tensor<2x4x300xf32>) grad_output(%do : tensor<2x4x300x64xbf16>) {causal = #attn.causal<top_left>, deterministic} -> tensor<2x4x300x64xbf16>, tensor<2x4x300x64xbf16>, tensor<2x4x300x64xbf16>
  return %dq, %dk, %dv : tensor<2x4x300x64xbf16>, tensor<2x4x300x64xbf16>, tensor<2x4x300x64xbf16>
}

// A split-KV group's x is the key chunk: not reordered.
// RUN: attn-compile %s --emit=gpu --chip=sm_90a --split-kv=4 -o %t.split.mlir 2>&1
// RUN: FileCheck %s --check-prefix=SPLIT < %t.split.mlir
// SPLIT-LABEL: gpu.func @attn_fwd_split_kv_0(
// SPLIT-NOT: gpu.grid_dim
// SPLIT: gpu.block_id z
