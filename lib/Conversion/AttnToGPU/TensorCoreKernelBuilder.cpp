//===- TensorCoreKernelBuilder.cpp - FA2-style mma.sync attention ---------===//
//
// The tensor-core mapping of attention (FlashAttention-2 forward), used for
// f16/bf16 with D = Dv in {64, 128}:
//
//   grid  = (ceil(Lq / Br), Hq, B); block = W warps of Br / W rows (16 or
//   32: one or two m16 tiles per warp, each K/V fragment then feeds every
//   m-tile); Bc keys per step. Tiling: tc::chooseTiling (default Br = 128,
//   W = 4, Bc = 64 (Bc = 32 at D = 128 unless wideKeyBlocksFit); Br = 64, W =
//   4, Bc = 64 for the dropout / softcap / mask-tensor variants and short
//   queries). Warp w owns query rows [w Br/W, (w+1) Br/W) of the block's Br
//   rows. Shared memory (dynamic, KernelSpec::dynamicSharedBytes):
//     Q [Br][D + 8], K [2][Bc][D + 8], V [2][Bc][D + 8]   (element type)
//   The +8 element pad makes consecutive rows start 16 bytes apart modulo
//   128 bytes, so the 8 row addresses of one ldmatrix 8x8 matrix hit 8
//   distinct 16-byte bank groups (no bank conflicts).
//
//   Prologue: Q tile and the first visible K/V block are copied with cp.async
//   (nvgpu.device_async_copy, 16-byte chunks, rows past Lq/Lk zero-filled
//   through srcElements = 0); where the accumulators leave room
//   (tc::keepsQueryInRegisters) Q is then loaded once into mma A fragments
//   (ldmatrix.x4) that stay in registers; otherwise the Q fragments are
//   re-read from shared memory at each k-step (register pressure).
//   Per visible key block kb (emitVisibleKeyBlocks), with stage = (kb-first)%2:
//     wait for all cp.async groups; barrier;
//     if kb + 1 < last: cp.async block kb+1 into stage 1-stage, commit;
//     S = Q K^T                  (mma.sync m16n8k16, f32 accumulators)
//     score epilogue, chosen per key block (uniform branch): blocks that the
//       causal/window rules or the Lk bound can cut for this query block
//       (diagonal, window edges, last ragged block) apply them per element
//       at global (row, key) (emitModifiedScore, -inf for key >= Lk); the
//       others only scale (+ softcap, tensor mask, where present);
//     online softmax on the warp's rows (quad shuffles) in the log2 domain:
//       p = exp2(s * scale * log2 e - m) (one FMA + ex2.approx.ftz; with
//       softcap or an additive mask the modified score times log2 e),
//       dropout on P (l sums P before dropout);
//     O = O * alpha + P V        (P re-packed from C to A fragments).
//   The single barrier per step is enough: the prefetch of step kb+1 writes
//   the stage that step kb-1 read, and every warp has passed step kb-1's
//   compute once it reaches step kb's barrier.
//   Epilogue: O / l (0 when l == 0) staged through the warp's own rows of the
//   Q tile and stored with 16-byte stores; lse = (m + log2 l) * ln 2 (m is
//   in the log2 domain; -inf when m == -inf). The CUDA-core kernel and the
//   CPU paths keep exp / log.
//
// With Tiling::warpgroupMma (attn-compile --mma=wgmma, sm_90a) the kernel
// is warp-specialized like FlashAttention-3: a producer warpgroup (threads
// 0-127, emitProducer) copies Q and kWgmmaStages stages of K and of V with
// cp.async and signals them on mbarriers; the consumer warpgroups
// (threads 128-383 for Br = 128) multiply with wgmma, consumer warp w
// owning rows [16w, 16w + 16), its rows of the m64 accumulators, so the
// softmax code is shared. Q, K and V are in the 128-byte swizzled
// layout (SW128, MmaEmitterBase.h; the no-swizzle core-matrix layout left
// wgmma starved for shared-memory bandwidth), S = Q K^T with both operands
// in shared memory, O += P V with P from registers. The consumer loop is
// software-pipelined (emitPipelinedWgmma): step kb issues S_kb and
// O += P_{kb-1} V_{kb-1} together and runs block kb's softmax while the
// tensor cores finish P V; the two consumer warpgroups take turns to issue.
// With Tiling::tma (`loads = tma`, attn-compile --tma=on; dense ops only)
// the producer loads with the Tensor Memory Accelerator instead
// (emitTmaProducer): one thread per stream issues a cp.async.bulk.tensor.4d
// per 64-column panel of a tile through the tensor maps the runtime encodes
// at launch (the kernel's last parameters, by-value grid constants; TMA's
// 128-byte swizzle is the SW128 layout, and it zero-fills rows past L), and
// arrives on the stage's full mbarrier with the tile's bytes as the
// transactions to wait for; the consumers are unchanged.
//
// With KernelSpec::persistent (attn-compile --persistent=on, `schedule =
// persistent`; experimental: not yet validated with several tiles per
// block) the TMA kernel is launched with one block per SM, and both roles
// loop over the tiles blockIdx.x + i gridDim.x (emitTileLoop: query block
// fastest, then head, then batch), binding each tile's rows and key blocks
// (bindTile). Tile i of a block uses Q buffer i % 2, with its own full and
// empty mbarriers: the producer loads tile i + 1's Q (once the consumers
// released the buffer after tile i - 1's epilogue) and K / V while the
// consumers finish tile i. The K / V rings count on across tiles
// (ringBase), and the two consumer warpgroups pass the issue turn on from
// tile to tile.
//
// mma.sync is emitted as nvvm.mma.sync (nvgpu.mma.sync cannot deduce bf16 PTX
// types in MLIR 22) and ldmatrix as nvvm.ldmatrix on shared-memory byte
// addresses computed here.
//
// Fragment layouts (PTX ISA, "Matrix fragments for mma.m16n8k16", 16-bit
// types), lane = threadIdx.x % 32, g = lane / 4, t = lane % 4. A "pair" is
// one 32-bit register holding two 16-bit values, the lower column (or k) in
// the low half.
//   A (16x16, row major):  a0 = A[g][2t..2t+1]     a1 = A[g+8][2t..2t+1]
//                          a2 = A[g][2t+8..2t+9]   a3 = A[g+8][2t+8..2t+9]
//   B (16x8, "col"):       b0 = B[2t..2t+1][g]     b1 = B[2t+8..2t+9][g]
//   C/D (16x8, f32):       c0,c1 = C[g][2t], C[g][2t+1]
//                          c2,c3 = C[g+8][2t], C[g+8][2t+1]
//   ldmatrix.x4: lanes 8j..8j+7 give the row addresses of matrix j; matrix j
//   lands in result register j; without .trans lane gets row g, columns
//   2t..2t+1 of each matrix; with .trans it gets rows 2t..2t+1 of column g.
//
// This file holds the emitter's outline (TensorCoreEmitter::emit, emitBody)
// and tc::emitKernel; the class is declared in TensorCoreEmitter.h, which
// lists the files that define its other parts.
//
//===----------------------------------------------------------------------===//

#include "TensorCoreEmitter.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/SCF/IR/SCF.h"

using namespace mlir;
using namespace mlir::attn;
using tc::TensorCoreEmitter;

void TensorCoreEmitter::emit(gpu::GPUFuncOp func) {
  emitSetup(func.getBody().front());
  // Packed batch: the grid covers the longest sequence; the blocks past
  // their own sequence's last query have nothing to do (uniform per block,
  // before any barrier).
  scf::IfOp live;
  if (packed) {
    live = scf::IfOp::create(b, loc, lessThan(q0, queryLen),
                             /*withElseRegion=*/false);
    b.setInsertionPoint(live.thenBlock()->getTerminator());
  }
  if (keyLen.isStatic()) {
    emitBody();
  } else {
    // A run-time key length: one copy of the body for lengths that are a
    // multiple of the key block, which, like a static kernel of such a
    // length, has no ragged last block to guard (no per-element key bound
    // in the score epilogue, no masked/plain branch per key block without
    // causal or window rules, no per-row clamp in the K/V copies), and one
    // for the others. The branch is uniform over the grid; it costs code
    // size and compile time, not time in the loop (measured on the H200,
    // docs/performance.md, session 13).
    const kernel::Extent runtimeKeyLen = keyLen;
    Value aligned = arith::CmpIOp::create(b, loc, arith::CmpIPredicate::eq,
                                          remu(size(keyLen), blockKV), idx(0));
    auto branch = scf::IfOp::create(b, loc, aligned, /*withElseRegion=*/true);
    for (bool ragged : {false, true}) {
      OpBuilder::InsertionGuard guard(b);
      b.setInsertionPoint(
          (ragged ? branch.elseBlock() : branch.thenBlock())->getTerminator());
      keyLen = ragged ? runtimeKeyLen : runtimeKeyLen.knownMultipleOf(blockKV);
      setKeyGuard();
      emitBody();
    }
    keyLen = runtimeKeyLen;
  }
  if (live)
    b.setInsertionPointAfter(live);
  gpu::ReturnOp::create(b, loc);
}

void TensorCoreEmitter::emitBody() {
  // Emitted once or twice (emit): start from the block-wide thread values
  // and empty per-thread lists.
  tid = threadId;
  threads = blockThreads;
  clearRowState();
  roles = nullptr;
  emitRolesOrPrologue();
  if (persistent)
    return emitPersistentConsumers();
  if (wgmma)
    setThreadCoordinates();
  emitRowsAndFragments();
  SmallVector<Value> finalState = wgmma ? emitPipelinedWgmma() : emitSyncLoop();
  emitEpilogue(finalState);
}

void TensorCoreEmitter::clearRowState() {
  qLaneAddr.clear();
  rows.clear();
  rowsC.clear();
  scoreRows.clear();
  maskHeads.clear();
  init.clear();
}

void TensorCoreEmitter::emitPersistentConsumers() {
  // The consumers' tile loop; each tile's epilogue releases its Q buffer
  // (fenced: the producer refills it through the async proxy). The issue
  // turn of the two warpgroups passes on from tile to tile.
  const bool pingPong = consumerThreads == 256;
  Value isFirstGroup;
  if (pingPong) {
    isFirstGroup = arith::CmpIOp::create(b, loc, arith::CmpIPredicate::eq,
                                         divu(tid, 128), idx(0));
    emitPingPongStart(isFirstGroup);
  }
  emitTileLoop([&] {
    // Every tile, with or without visible key blocks: the producer's
    // arrive on the buffer's Q full orders this tile's release of the
    // buffer after the producer's wait for its previous release (else,
    // through tiles without keys, the consumers could complete two
    // phases of Q empty before the producer waits for the first).
    mbarrierWait(queryFull, queryPhase());
    clearRowState();
    setThreadCoordinates();
    emitRowsAndFragments();
    emitEpilogue(emitPipelinedWgmma());
    fenceProxyAsync();
    mbarrierArrive(queryEmpty);
  });
  if (pingPong)
    emitPingPongEnd(isFirstGroup);
  b.setInsertionPointAfter(roles);
}

void tc::emitKernel(OpBuilder &b, gpu::GPUFuncOp func, AttentionOpInterface op,
                    const KernelSpec &spec) {
  TensorCoreEmitter(b, op, spec).emit(func);
}
