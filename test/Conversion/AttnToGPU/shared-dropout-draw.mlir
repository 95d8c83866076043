// Dropout's Philox blocks are drawn once per block, not once per element
// (SharedDropoutDraw.h): a Philox4x32-10 block gives the keep decisions of
// four consecutive keys, and in the mma fragment layout two lanes (S = Q Kᵀ:
// lanes t4, t4 ^ 1) or four lanes (Sᵀ = K Qᵀ: lanes g = 4j .. 4j + 3) hold
// elements of the same blocks. Each draws a share and the group exchanges
// the keep bits with `gpu.shuffle idx`. A block is 10 rounds of two
// arith.mului_extended: 64 x 64 tiles of 128 threads draw 8 blocks a thread
// and a step (160 products), where one block per element drew 32 (640).
// RUN: attn-compile %s --emit=gpu --chip=sm_90a -o %t.sm90.mlir
// RUN: FileCheck %s --check-prefixes=CHECK,SM90 < %t.sm90.mlir
// RUN: attn-compile %s --emit=gpu --chip=sm_80 -o %t.sm80.mlir
// RUN: FileCheck %s --check-prefixes=CHECK,SM80 < %t.sm80.mlir

// The forward (lane pairs; wgmma on sm_90a, mma.sync on sm_80, both 16
// rows a warp and 64 keys a step): 8 of 16 blocks per thread and key
// block, exchanged by two shuffles. The wgmma kernel peels its first key
// block off the loop, with a draw of its own.
// CHECK-LABEL: gpu.func @attn_fwd_0(
// SM90-COUNT-160: arith.mului_extended
// SM90-NOT:   arith.mului_extended
// SM90-COUNT-2: gpu.shuffle  idx
// CHECK:       scf.for
// CHECK-COUNT-160: arith.mului_extended
// CHECK-NOT:   arith.mului_extended
// CHECK-COUNT-2: gpu.shuffle  idx
// CHECK-NOT:   arith.mului_extended
// CHECK:       gpu.return

// The forward kernels come first. A packed batch (@packed, below) draws
// at token coordinates; a sequence starts at any token, so a pair's four
// keys may take the end of one block and the start of the next: each lane
// draws both blocks of its share, 16 blocks (320 products) where one block
// per element would draw 32. The kernel body is emitted twice (two
// versions of its loop), each with its own draws (on sm_90a each also
// with its peeled first block's).
// CHECK-LABEL: gpu.func @attn_fwd_1(
// SM90-COUNT-320: arith.mului_extended
// SM90-NOT:   arith.mului_extended
// SM90-COUNT-2: gpu.shuffle  idx
// SM90-COUNT-320: arith.mului_extended
// SM90-NOT:   arith.mului_extended
// SM90-COUNT-2: gpu.shuffle  idx
// CHECK-COUNT-320: arith.mului_extended
// CHECK-NOT:   arith.mului_extended
// CHECK-COUNT-2: gpu.shuffle  idx
// CHECK-COUNT-320: arith.mului_extended
// CHECK-NOT:   arith.mului_extended
// CHECK-COUNT-2: gpu.shuffle  idx
// CHECK-NOT:   arith.mului_extended
// CHECK:       gpu.return

// The backward's key-block kernel (wgmma dkdv_dq on sm_90a, mma.sync dkdv
// on sm_80; quads of lanes): 8 of 32 blocks, four shuffles.
// SM90-LABEL: gpu.func @attn_bwd_dkdv_dq_0(
// SM80-LABEL: gpu.func @attn_bwd_dkdv_0(
// CHECK-COUNT-160: arith.mului_extended
// CHECK-NOT:   arith.mului_extended
// CHECK-COUNT-4: gpu.shuffle  idx
// CHECK-NOT:   arith.mului_extended
// CHECK:       gpu.return

// The dq kernel of sm_80's group (lane pairs, as the forward).
// SM80-LABEL: gpu.func @attn_bwd_dq_0(
// SM80-COUNT-160: arith.mului_extended
// SM80-NOT:   arith.mului_extended
// SM80-COUNT-2: gpu.shuffle  idx
// SM80-NOT:   arith.mului_extended
// SM80:       gpu.return
func.func @train(%q: tensor<1x4x100x64xbf16>, %k: tensor<1x2x130x64xbf16>, %v: tensor<1x2x130x64xbf16>, %do: tensor<1x4x100x64xbf16>, %seed: i64, %off: i64) -> (tensor<1x4x100x64xbf16>, tensor<1x4x100xf32>, tensor<1x4x100x64xbf16>, tensor<1x2x130x64xbf16>, tensor<1x2x130x64xbf16>) {
  %o, %l = attn.attention ins(%q, %k, %v : tensor<1x4x100x64xbf16>, tensor<1x2x130x64xbf16>, tensor<1x2x130x64xbf16>) rng(%seed, %off) {dropout_p = 0.2 : f32, causal = #attn.causal<bottom_right>} -> tensor<1x4x100x64xbf16>, tensor<1x4x100xf32>
  %dq, %dk, %dv = attn.attention_grad ins(%q, %k, %v : tensor<1x4x100x64xbf16>, tensor<1x2x130x64xbf16>, tensor<1x2x130x64xbf16>) forward(%o, %l : tensor<1x4x100x64xbf16>, tensor<1x4x100xf32>) grad_output(%do : tensor<1x4x100x64xbf16>) rng(%seed, %off) {dropout_p = 0.2 : f32, causal = #attn.causal<bottom_right>} -> tensor<1x4x100x64xbf16>, tensor<1x2x130x64xbf16>, tensor<1x2x130x64xbf16>
  return %o, %l, %dq, %dk, %dv : tensor<1x4x100x64xbf16>, tensor<1x4x100xf32>, tensor<1x4x100x64xbf16>, tensor<1x2x130x64xbf16>, tensor<1x2x130x64xbf16>
}

func.func @packed(%q: tensor<300x4x64xbf16>, %k: tensor<500x2x64xbf16>, %v: tensor<500x2x64xbf16>, %cq: tensor<4xi32>, %ck: tensor<4xi32>, %s: i64, %off: i64) -> tensor<300x4x64xbf16> {
  %o = attn.varlen_attention ins(%q, %k, %v : tensor<300x4x64xbf16>, tensor<500x2x64xbf16>, tensor<500x2x64xbf16>) seqlens(%cq, %ck : tensor<4xi32>, tensor<4xi32>) rng(%s, %off) {dropout_p = 0.1 : f32} -> tensor<300x4x64xbf16>
  return %o : tensor<300x4x64xbf16>
}
