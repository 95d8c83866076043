//===- TensorCoreEmitter.h - the tensor-core forward emitter ----*- C++ -*-===//
//
// Private to lib/Conversion/AttnToGPU: the class that emits the tensor-core
// forward kernel (tc::emitKernel; the kernel's design is documented at the top
// of TensorCoreKernelBuilder.cpp). Its methods are defined by job:
//   TensorCoreKernelBuilder.cpp  emit, emitBody: the kernel's outline
//   TensorCoreEmitterSetup.cpp   the constructor, arguments, shared-memory
//                                views, block / thread indices, and the
//                                packed, split-KV and paged bindings
//   TensorCoreCopies.cpp         cp.async copies of Q / K / V, the wgmma
//                                producer warpgroup and the role split
//   TensorCoreSoftmax.cpp        rows and fragments, the score epilogues and
//                                online softmax, the rescale of O
//   TensorCoreMainLoop.cpp       the mma.sync loop and the pipelined wgmma loop
//   TensorCoreEpilogue.cpp       O / l and lse to global memory (and the
//                                split-KV partials)
//
//===----------------------------------------------------------------------===//

#ifndef ATTNOPT_LIB_CONVERSION_ATTNTOGPU_TENSORCOREEMITTER_H
#define ATTNOPT_LIB_CONVERSION_ATTNTOGPU_TENSORCOREEMITTER_H

#include "KernelArguments.h"
#include "KernelCommon.h"
#include "MmaEmitterBase.h"
#include "SharedDropoutDraw.h"
#include "TensorCoreKernel.h"

#include "attnopt/Dialect/Attn/Utils/ScoreModifiers.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/SCF/IR/SCF.h"

#include <array>
#include <optional>

namespace mlir::attn::tc {

/// Emits one tensor-core forward kernel (mma.sync, or warp-specialized
/// wgmma) for `op` as described by `spec` into a gpu.func (tc::emitKernel).
class TensorCoreEmitter : public MmaEmitterBase {
public:
  TensorCoreEmitter(OpBuilder &b, AttentionOpInterface op,
                    const KernelSpec &spec);

  void emit(gpu::GPUFuncOp func);

private:
  // --- the kernel's parts, in emission order (emit) -------------------------
  /// Arguments, shared-memory views, block and thread indices, the visible
  /// key blocks.
  void emitSetup(Block &entry);
  /// Everything after the setup, for the current key guard (emitted twice
  /// for a run-time key length, see emit).
  void emitBody();
  /// The per-thread row lists emitRowsAndFragments fills, emptied (before
  /// each emission of the body, and each tile of a persistent kernel).
  void clearRowState();
  /// Persistent kernel, consumers' branch: the tile loop (rows, pipelined
  /// wgmma loop, epilogue, release of the Q buffer per tile) between the
  /// ping-pong protocol's first turn and last pass.
  void emitPersistentConsumers();
  /// keyGuard and maySkipMask from keyLen.
  void setKeyGuard();
  /// Packed batch: this block's sequence (block z) from the offsets: its
  /// lengths, first tokens, and the token-major rows of its head.
  void bindPackedSequence(const KernelArguments &args);
  /// split_kv: this block's chunk, KV head and packed row block, and the
  /// row bases of Q, K / V and the partials.
  void bindSplitKVBlock();
  /// split_kv: posFirst / posRows from the packed rows of the block.
  void setPackedHeadPositions();
  /// split_kv: [firstBlock, lastBlock) narrowed to this block's chunk.
  void restrictToChunk();
  /// The rows and key blocks of the tile (qBlock, hIdx, bIdx): q0, the row
  /// bases, rowsInBlock, the positions the rules see, [firstBlock,
  /// lastBlock). Once at entry, or per tile of a persistent kernel.
  void bindTile(const KernelArguments *args);
  /// Persistent kernel: `body` once per tile of this block (tiles
  /// blockIdx.x, + gridDim.x, ...; query block fastest, then head, then
  /// batch), with the tile bound (bindTile), anyBlock, the Q tile's buffer
  /// and mbarriers (tile i of the block uses buffer i % 2) and the rings'
  /// fill count of the block's earlier tiles (ringBase).
  void emitTileLoop(function_ref<void()> body);
  /// The Q tile's byte offset in shared memory (from smemBase): buffer
  /// tileIter % 2 of a persistent kernel.
  Value queryTileOffset() {
    if (!persistent)
      return idx(qOff);
    return add(idx(qOff), mul(remu(tileIter, 2), qTileBytes));
  }
  /// The parity of the Q tile's full mbarrier this tile waits for.
  Value queryPhase() {
    return persistent ? remu(divu(tileIter, 2), 2) : idx(0);
  }
  /// wgmma: mbarrier initialisation and the producer / consumer split
  /// (afterwards the builder is in the consumers' branch); mma.sync: the
  /// prologue copies of Q and the first K / V block.
  void emitRolesOrPrologue();
  /// Fragment addressing (mma.sync), this thread's rows and the loop's
  /// initial state.
  void emitRowsAndFragments();
  SmallVector<Value> emitSyncLoop();
  /// One key block of the mma.sync loop after its copies landed in
  /// `stage`: S = Q K^T, softmax, O = O alpha + P V; returns the next
  /// state.
  SmallVector<Value> syncStep(Value kb, Value stage, ValueRange state);
  SmallVector<Value> emitPipelinedWgmma();
  /// Two consumer warpgroups: warpgroup 1 gives warpgroup 0 the first turn
  /// to issue; at the end warpgroup 0 takes the turn warpgroup 1 passed
  /// after its last wgmmas, so every arrive is matched.
  /// `isFirstGroup`: whether this consumer thread is in warpgroup 0.
  void emitPingPongStart(Value isFirstGroup);
  void emitPingPongEnd(Value isFirstGroup);
  /// O / l through shared memory to global memory, lse.
  void emitEpilogue(ArrayRef<Value> finalState);
  /// split_kv: the chunk's O / l and lse to the f32 workspaces.
  void emitPartialEpilogue(ArrayRef<Value> finalState);

  // --- copies ---------------------------------------------------------------
  /// cp.async of the Q tile, as one group.
  Value copyQuery();
  /// cp.async of key block kb's K tile and/or V tile into stage `stage`, as
  /// one group.
  void copyBlock(Value kb, Value stage, bool keys, bool values);
  void issueKV(Value kb, Value stage) {
    copyBlock(kb, stage, /*keys=*/true, /*values=*/true);
  }
  /// Key block kb's index among the visible ones (kb - first): it is the
  /// (index / stages)-th fill of stage index % stages.
  Value visibleIndex(Value kb) {
    Value i = arith::SubIOp::create(b, loc, kb, firstBlock);
    return ringBase ? add(ringBase, i) : i;
  }
  Value stageOf(Value kb) { return remu(visibleIndex(kb), stages); }
  Value anyBlockOf() {
    return arith::CmpIOp::create(b, loc, arith::CmpIPredicate::slt, firstBlock,
                                 lastBlock)
        .getResult();
  }

  // --- warp specialization (wgmma) ------------------------------------------
  // The producer warpgroup copies Q and the K / V stages; the consumers wait
  // for them on mbarriers (MmaEmitterBase.h, "warp specialization") and
  // multiply. The mbarriers follow the tiles: K full, V full, K empty,
  // V empty (one per stage each), then Q full (a persistent kernel: Q full
  // of buffers 0 and 1, then their Q empty). Visible key block i is fill i
  // of both rings (fill ringBase + i in a persistent kernel).
  MbarrierRing keyRing() {
    return MbarrierRing(*this, smemBase, barOff, barOff + 16 * stages, stages);
  }
  MbarrierRing valueRing() {
    return MbarrierRing(*this, smemBase, barOff + 8 * stages,
                        barOff + 24 * stages, stages);
  }
  /// The producer: warps 0-1 copy Q and the K tiles, warps 2-3 the V tiles,
  /// each pair on its own. Per visible key block a pair waits until the
  /// consumers released the stage (from its second use on), copies its
  /// tile, waits for its own copies (cp.async.wait_group 0), fences them for
  /// the tensor cores' async proxy and arrives on the stage's full mbarrier.
  /// (One sequence K, V, K, ... signalled K_kb only once the consumers had
  /// released V_{kb-2}, at the end of step kb - 1: a bubble every step.)
  void emitProducer();
  /// The producer with TMA (spec.tma): thread 0 loads Q and the K stream,
  /// thread 64 (warp 2) the V stream, one cp.async.bulk.tensor per 64-column
  /// panel of a tile; each fill arrives on its full mbarrier with the
  /// tile's bytes as the transactions to wait for, so the consumers' waits
  /// are unchanged. The other producer threads have nothing to do.
  void emitTmaProducer();
  /// TMA loads of the `rows`-row SW128 tile of `map` whose first row is
  /// `row0` of (head, bIdx), or of a packed batch's sequence starting at
  /// token `token0` (tmaRowCoordinates; null when dense), `cols` columns
  /// (whole panels), to the tile at byte offset `tileOff`, completing on
  /// `full`: one box per panel (the map's box may cover fewer rows, as the
  /// packed rows of a split_kv stage do; the others are not written).
  void tmaTile(Value map, Value row0, Value head, Value token0, int64_t rows,
               int64_t cols, Value tileOff, Value full);

  // --- the loop's pieces ----------------------------------------------------
  /// First tile row of this warp's m-tile mt.
  Value tileRow0(int64_t mt) { return add(warpRow0, 16 * mt); }
  /// The Q A-fragment of m-tile mt, k-step ks (ldmatrix.x4; rounded to
  /// tf32 in the tf32 kernel).
  std::array<Value, 4> loadQ(int64_t mt, int64_t ks) {
    return operandsOf(
        ldmatrix4(add(qLaneAddr[mt], ks * kStepElements * eltBytes), false));
  }
  /// ldmatrix registers as the mma's operands: rounded to tf32 in the tf32
  /// kernel (the f32 bits of two 16-bit halves are one f32), else as is.
  std::array<Value, 4> operandsOf(std::array<Value, 4> regs) {
    if (tf32)
      for (Value &r : regs)
        r = roundToTf32(r);
    return regs;
  }
  /// tf32 kernel: O += P V for k-step kk (8 keys) of the V tile in
  /// `stage`, every m-tile (see the definition for the fragment layout).
  void mmaValuesTf32(const SmallVector<SmallVector<Frag>> &p, Value stage,
                     int64_t kk, SmallVector<SmallVector<Frag>> &o);
  int64_t oIndex(int64_t mt, int64_t nt, int64_t e) const {
    return oState + (mt * nTilesO + nt) * 4 + e;
  }

  /// Whether the causal / window rules or the Lk bound can exclude any
  /// (row, key) of this query block and the key block starting at key k0:
  /// uniform per block pair (as attn-tile's blockNeedsMask), it picks the
  /// masked or the plain score epilogue.
  Value blockNeedsMask(Value k0);
  /// Where this block's dropout draws (dense or packed batch).
  kernel::DropoutCoordinates dropoutCoordinates();
  /// One key block's scores to probabilities: the score modifiers at global
  /// (row, key), then the online-softmax update of ml = (m[nRows],
  /// l[nRows]). `s` holds S on entry and P (after dropout) on exit; `alpha`
  /// receives the factors O must be rescaled by.
  void softmaxStep(Value kb, SmallVector<SmallVector<Frag>> &s,
                   SmallVector<Value> &ml, SmallVector<Value> &alpha);
  /// O * alpha, o in oIndex order less oState. With Dv >= 128 the rescale is
  /// skipped when no row of the warp has a new maximum: alpha is then
  /// exp2(0) = 1 exactly (or O is still 0), so skipping is bit-identical,
  /// and past the first key blocks the running maxima rarely grow. (A NaN
  /// maximum compares unequal: it rescales.) Measured on the H200
  /// (docs/performance.md, session 5): at D = 128 it keeps Br = 128 / Bc = 64
  /// within 255 registers (the unconditional rescale spilled), 1.00-1.07x
  /// FA2; at D = 64 the branch cost 0-8 %, so it is not emitted there.
  SmallVector<Value> rescaleO(ArrayRef<Value> o, ValueRange mOld,
                              ValueRange mNew, ArrayRef<Value> alpha);
  /// A flat list of C-fragment values as [mTiles][nTiles] fragments.
  SmallVector<SmallVector<Frag>> fragsOf(ArrayRef<Value> flat, int64_t nTiles);
  static SmallVector<Value> flatten(ArrayRef<SmallVector<Frag>> f);
  /// P's C fragments of n-tiles 2kk, 2kk + 1 are the A fragment of k-step
  /// kk: a0 = (P[2kk].c0, c1), a1 = (P[2kk].c2, c3), a2 = (P[2kk+1].c0, c1),
  /// a3 = (P[2kk+1].c2, c3).
  std::array<Value, 4> packP(const SmallVector<Frag> &p, int64_t kk);
  /// acc[mt][2np] and acc[mt][2np + 1] += a[mt] times the two n-tiles of
  /// the x4 B fragment `bPair` (registers {0, 1} and {2, 3}), for every
  /// m-tile: each B fragment read from shared memory feeds all m-tiles.
  void mmaTilePair(ArrayRef<std::array<Value, 4>> a,
                   const std::array<Value, 4> &bPair, int64_t np,
                   SmallVector<SmallVector<Frag>> &acc) {
    for (int64_t mt = 0; mt < mTiles; ++mt) {
      acc[mt][2 * np] = mma(a[mt], bPair[0], bPair[1], acc[mt][2 * np]);
      acc[mt][2 * np + 1] = mma(a[mt], bPair[2], bPair[3], acc[mt][2 * np + 1]);
    }
  }
  /// The staging position of O element (row, dv) in the Q tile: padded rows
  /// (mma.sync); with wgmma the same SW128 position as the Q element
  /// (only this warp's rows, in every panel), whose chunk c ^ (r % 8) also
  /// makes the 8 rows of one fragment store, and the lanes of one 16-byte
  /// load, hit distinct banks.
  std::pair<Value, SmallVector<Value, 2>> staged(Value row, Value chunk,
                                                 int64_t inChunk);

  AttentionOpInterface op;
  const KernelSpec &spec;
  /// A packed variable-length batch (attn.varlen_attention): token-major
  /// tensors, each block's sequence from the offsets.
  bool packed;
  /// The split_kv stage of a split-KV group (docs/kernel-manifest.md,
  /// "Split-KV forward groups"): block (s, y, b) takes row block y mod R of
  /// the G Lq rows that KV head y div R's query heads pack (row i is head
  /// hIdx + i div Lq, token i mod Lq), and chunk s of their visible key
  /// blocks; it writes the chunk's normalised O and lse to the f32
  /// workspaces. `splits` chunks (static, or the num_splits argument);
  /// `tokens` = Lq (static).
  bool splitKV;
  kernel::Extent splits = 0;
  int64_t tokens = 0;
  /// A paged key/value cache (attn.paged_attention, split_kv only): K and V
  /// rows through the block table (GlobalRows::Pages), each block's key
  /// length from cache_seqlens.
  bool paged;
  ScoreModifiers mods;
  int64_t blockQ, blockKV; // tc::Tiling
  /// wgmma (sm_90a): Q, K, V in SW128 tiles (MmaEmitterBase.h) read
  /// by the tensor cores; a producer warpgroup (threads [0, 128)) copies
  /// them, and consumer warp w (threads 128 + [32w, 32w + 32)) owns rows
  /// [16w, 16w + 16), its rows of its warpgroup's m64 accumulators.
  bool wgmma;
  /// wgmma only: the producer loads with TMA (emitTmaProducer) through the
  /// tensor maps queryMap, keyMap, valueMap (the kernel's last arguments).
  bool tma;
  /// TMA wgmma only (spec.persistent): grid[0] blocks loop over the tiles
  /// (emitTileLoop), two Q tiles of qTileBytes each.
  bool persistent;
  int64_t qTileBytes = 0;
  /// The threads that own query rows (all of them without wgmma) and how
  /// many rows each warp of them owns.
  int64_t consumerThreads, rowsPerWarp;
  int64_t heads, kvHeads, valueDim;
  /// The lengths: static, or (from emitSetup on) the run-time sizes.
  kernel::Extent queryLen = 0, keyLen = 0;
  /// The mask's dimensions (RuntimeSizes.h), set by emitSetup.
  SmallVector<kernel::Extent, 4> maskDims;
  /// The tiles' head dims (tc::tileDims) and row strides (elements).
  tc::TileDims dims;
  int64_t qStride, kStride, vStride;

  // Fixed by the op and the tiling (constructor).
  /// Bytes of an operand element (operandBytes()), elements of one k-step
  /// of the matrix instruction (32 bytes: 16 f16 / bf16 of m16n8k16, 8 f32
  /// of m16n8k8), and whether the operands are f32 multiplied in tf32
  /// (mma.sync only; tc::isEligible).
  int64_t eltBytes, kStepElements;
  bool tf32;
  /// Producer threads per stream (the K and the V stream, emitProducer).
  static constexpr int64_t streamThreads = kProducerWarpgroupThreads / 2;
  int64_t group;    ///< query heads per KV head
  int64_t mTiles;   ///< m16 tiles per warp (1 or 2)
  int64_t nTilesS;  ///< key n-tiles of S per m-tile
  int64_t kStepsQK; ///< k-steps of Q K^T
  int64_t nTilesO;  ///< dv n-tiles of O per m-tile
  int64_t kStepsPV; ///< k-steps of P V
  int64_t kTileBytes, vTileBytes, stages, qOff, kOff, vOff, barOff;
  /// Row slots per thread (rows g and g + 8 of each m-tile) and where O
  /// starts in the loop state (m[nRows], l[nRows], O).
  int64_t nRows, oState;
  float dropP;
  /// The Q fragments stay in registers for the whole kernel when the
  /// accumulators leave room (tc::keepsQueryInRegisters); otherwise they are
  /// re-read from the (never overwritten) Q tile once per k-step and key
  /// block.
  bool qInRegisters;
  // Score epilogues (in the loop): the masked one applies the positional
  // rules and the Lk bound per element, the plain one only what exists
  // everywhere (scale, softcap, tensor mask); see blockNeedsMask.
  bool keyGuard, maySkipMask;
  /// The block's threads (MmaEmitterBase::threads is the consumers' count
  /// inside the wgmma kernel's consumer branch).
  int64_t blockThreads;
  float log2Scale;
  /// `mods` as the masked and plain epilogues apply them.
  kernel::ScoreModifierForms forms{mods};

  // Values of the kernel body, set as it is emitted.
  Value query, key, value, mask, seed, offset, out, lse;
  Value queryMap, keyMap, valueMap;
  /// split_kv: the workspaces, this block's chunk, and the partials' row
  /// of this block's packed row 0.
  Value partialOutput, partialLse, splitIdx, partialRowBase;
  /// Paged cache: the block table and cache lengths (i32), the table's
  /// width (its row stride: max_pages_per_seq, static or a run-time size),
  /// and the K / V rows of this block's sequence.
  Value blockTable, cacheSeqlens;
  kernel::Extent tableWidth = 0;
  std::optional<GlobalRows::Pages> kvPages;
  /// The query positions the causal / window rules see for this block:
  /// [posFirst, posFirst + posRows) of a sequence of posLen (the block's
  /// rows themselves, except with split_kv: the tokens its packed rows
  /// span).
  Value posFirst, posRows;
  kernel::Extent posLen = 0;
  Value qS, kS, vS, smemBase, tiles;
  Value threadId, qBlock, hIdx, bIdx;
  Value q0, kvHead, qRowBase, kvRowBase, rowsInBlock, firstBlock, lastBlock;
  /// Rows between consecutive sequence rows of Q/O and of K/V (GlobalRows):
  /// 1, or the head counts for a packed batch.
  int64_t qRowStep = 1, kvRowStep = 1;
  /// The lse index of the block's first row (its rows are consecutive).
  Value lseBase;
  /// Packed batch: the sequence's first query and key tokens, and the query
  /// token total (the Philox rows and the lse's row length).
  Value qToken0, kToken0, totalQueryTokens;
  Value anyBlock;  ///< whether any key block is visible
  Value queryFull; ///< wgmma: the Q tile's mbarrier
  /// Persistent kernel: the Q tile's empty mbarrier (the consumers are done
  /// with the buffer), this block's tile count so far, and the K/V ring
  /// fills of its earlier tiles (null otherwise).
  Value queryEmpty, tileIter, ringBase;
  Value qGroup;    ///< mma.sync: the Q copy's cp.async group
  scf::IfOp roles; ///< wgmma: the producer / consumer branch
  Value warpRow0, qLaneOff, kLaneOff, vLaneOff;
  SmallVector<Value> qLaneAddr;
  SmallVector<SmallVector<std::array<Value, 4>>> qFrag;
  /// This thread's query rows (global, and clamped to Lq - 1) per row slot.
  SmallVector<Value> rows, rowsC;
  /// Per row slot: the query position the score modifiers see, and the
  /// head a mask tensor is read at (rowsC and hIdx, except with split_kv).
  SmallVector<Value> scoreRows, maskHeads;
  SmallVector<Value> init; ///< the loop's initial state
};

} // namespace mlir::attn::tc

#endif // ATTNOPT_LIB_CONVERSION_ATTNTOGPU_TENSORCOREEMITTER_H
