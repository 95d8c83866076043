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
//===----------------------------------------------------------------------===//

#include "KernelArguments.h"
#include "KernelCommon.h"
#include "MmaEmitterBase.h"
#include "TensorCoreKernel.h"

#include "attnopt/Dialect/Attn/Utils/Philox.h"
#include "attnopt/Dialect/Attn/Utils/ScoreModifiers.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/LLVMIR/NVVMDialect.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/NVGPU/IR/NVGPUDialect.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"

#include <limits>

using namespace mlir;
using namespace mlir::attn;

namespace {

using kernel::kLn2;
using kernel::kLog2E;
using kernel::kNegInf;

/// setmaxnreg budgets of the wgmma forward's warpgroups when there are two
/// consumer warpgroups. The block starts with the cap of 384 threads at one
/// block per SM, 168 registers, and setmaxnreg.inc only takes registers
/// that the block's setmaxnreg.dec gave back (it blocks until then: a
/// budget over 384 x 168 = 64512 hung the kernel on the H200):
/// 128 x 56 + 256 x 224 = 64512. The consumers hold the S, O and packed P
/// fragments (218 registers at D = 128 in the kernel without a producer);
/// the producer only computes copy addresses, but ptxas spilled 20 bytes of
/// it at 40 registers (at 24: 144 bytes).
constexpr int64_t kProducerRegisters = 56, kConsumerRegisters = 224;
static_assert(tc::kProducerThreads * kProducerRegisters +
                      2 * 128 * kConsumerRegisters <=
                  (65536 / (tc::kProducerThreads + 2 * 128)) / 8 * 8 *
                      (tc::kProducerThreads + 2 * 128),
              "setmaxnreg budgets beyond the block's registers at entry "
              "deadlock the consumers' setmaxnreg.inc");

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
  /// wgmma: mbarrier initialisation and the producer / consumer split
  /// (afterwards the builder is in the consumers' branch); mma.sync: the
  /// prologue copies of Q and the first K / V block.
  void emitRolesOrPrologue();
  /// warp, lane, g, t4 from `tid`.
  void setThreadCoordinates();
  /// Fragment addressing (mma.sync), this thread's rows and the loop's
  /// initial state.
  void emitRowsAndFragments();
  SmallVector<Value> emitSyncLoop();
  /// One key block of the mma.sync loop after its copies landed in
  /// `stage`: S = Q K^T, softmax, O = O alpha + P V; returns the next
  /// state.
  SmallVector<Value> syncStep(Value kb, Value stage, ValueRange state);
  SmallVector<Value> emitPipelinedWgmma();
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
    return arith::SubIOp::create(b, loc, kb, firstBlock).getResult();
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
  // V empty (one per stage each), then Q full. Visible key block i is fill i
  // of both rings.
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

  // --- the loop's pieces ----------------------------------------------------
  /// First tile row of this warp's m-tile mt.
  Value tileRow0(int64_t mt) { return add(warpRow0, 16 * mt); }
  /// The Q A-fragment of m-tile mt, k-step ks (ldmatrix.x4).
  std::array<Value, 4> loadQ(int64_t mt, int64_t ks) {
    return ldmatrix4(add(qLaneAddr[mt], ks * 16 * eltBytes), false);
  }
  int64_t oIndex(int64_t mt, int64_t nt, int64_t e) const {
    return oState + (mt * nTilesO + nt) * 4 + e;
  }

  /// Whether the causal / window rules or the Lk bound can exclude any
  /// (row, key) of this query block and the key block starting at key k0:
  /// uniform per block pair (as attn-tile's blockNeedsMask), it picks the
  /// masked or the plain score epilogue.
  Value blockNeedsMask(Value k0);
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
  static constexpr int64_t eltBytes = kOperandBytes;
  /// Producer threads per stream (the K and the V stream, emitProducer).
  static constexpr int64_t streamThreads = tc::kProducerThreads / 2;
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
  bool keyGuard, maySkipMask, foldScale;
  /// The block's threads (MmaEmitterBase::threads is the consumers' count
  /// inside the wgmma kernel's consumer branch).
  int64_t blockThreads;
  float log2Scale;
  ScoreModifiers maskedMods, plainMods;

  // Values of the kernel body, set as it is emitted.
  Value query, key, value, mask, seed, offset, out, lse;
  /// split_kv: the workspaces, this block's chunk, and the partials' row
  /// of this block's packed row 0.
  Value partialOutput, partialLse, splitIdx, partialRowBase;
  /// Paged cache: the block table and cache lengths (i32), and the K / V
  /// rows of this block's sequence.
  Value blockTable, cacheSeqlens;
  std::optional<GlobalRows::Pages> kvPages;
  /// The query positions the causal / window rules see for this block:
  /// [posFirst, posFirst + posRows) of a sequence of posLen (the block's
  /// rows themselves, except with split_kv: the tokens its packed rows
  /// span).
  Value posFirst, posRows;
  kernel::Extent posLen = 0;
  Value qS, kS, vS, smemBase, tiles;
  Value threadId, qBlock, hIdx, bIdx, warp, lane, g, t4;
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

TensorCoreEmitter::TensorCoreEmitter(OpBuilder &b, AttentionOpInterface op,
                                     const KernelSpec &spec)
    : MmaEmitterBase(b, op.getLoc(), op.getQueryType().getElementType(),
                     op.getHeadDimSize(), spec.block[0]),
      op(op), spec(spec), packed(op.isPacked()),
      splitKV(spec.stage == "split_kv"), splits(spec.splits),
      paged(op.isPaged()),
      mods(ScoreModifiers::get(op)), blockQ(spec.blockQ), blockKV(spec.blockKV),
      wgmma(spec.warpgroupMma) {
  consumerThreads = spec.block[0] - (wgmma ? tc::kProducerThreads : 0);
  rowsPerWarp = blockQ / (consumerThreads / 32);
  auto q = op.getQueryType();
  heads = q.getDimSize(1);
  kvHeads = op.getKeyHeads();
  // A packed batch's (and a paged cache's key) lengths are read per block
  // (emitSetup).
  queryLen = op.getUniformQueryLen();
  keyLen = op.getUniformKeyLen();
  valueDim = op.getValueDimSize();
  dims = tc::tileDims(headDim, valueDim, wgmma);

  group = heads / kvHeads;
  if (splitKV)
    tokens = op.getUniformQueryLen();
  mTiles = rowsPerWarp / 16;
  nTilesS = blockKV / 8;
  // Only Q K^T's k-steps that hold real dims (the tile may be padded to
  // whole panels further).
  kStepsQK = roundUp(headDim, 16) / 16;
  nTilesO = dims.v / 8;
  kStepsPV = blockKV / 16;
  tc::SharedLayout layout = tc::sharedLayout(
      dims, tc::Tiling{blockQ, blockKV, consumerThreads / 32, wgmma});
  qStride = layout.queryRow;
  kStride = layout.keyRow;
  vStride = layout.valueRow;
  kTileBytes = layout.keyTileBytes;
  vTileBytes = layout.valueTileBytes;
  stages = layout.stages;
  qOff = layout.query;
  kOff = layout.keys;
  vOff = layout.values;
  barOff = layout.barriers;
  nRows = 2 * mTiles;
  oState = 2 * nRows;
  dropP = op.getDropoutP().convertToFloat();
  qInRegisters =
      !wgmma && tc::keepsQueryInRegisters(rowsPerWarp, blockKV, dims);
  blockThreads = threads;
  setKeyGuard();
  foldScale = mods.scale > 0.0f && !mods.softcap && !mods.additiveMask;
  log2Scale = mods.scale * kLog2E;
  maskedMods = mods;
  if (foldScale)
    maskedMods.scale = 1.0f; // applied in the exponent
  plainMods = maskedMods;
  plainMods.causal = CausalMode::none;
  plainMods.window.reset();
}

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

void TensorCoreEmitter::setKeyGuard() {
  keyGuard = !keyLen.isMultipleOf(blockKV);
  maySkipMask = keyGuard || mods.hasPositionalMask();
}

void TensorCoreEmitter::emitBody() {
  // Emitted once or twice (emit): start from the block-wide thread values
  // and empty per-thread lists.
  tid = threadId;
  threads = blockThreads;
  qLaneAddr.clear();
  rows.clear();
  rowsC.clear();
  scoreRows.clear();
  maskHeads.clear();
  init.clear();
  roles = nullptr;
  emitRolesOrPrologue();
  if (wgmma)
    setThreadCoordinates();
  emitRowsAndFragments();
  SmallVector<Value> finalState = wgmma ? emitPipelinedWgmma() : emitSyncLoop();
  emitEpilogue(finalState);
}

void TensorCoreEmitter::setThreadCoordinates() {
  warp = divu(tid, 32);
  lane = remu(tid, 32);
  g = divu(lane, 4);
  t4 = remu(lane, 4);
}

void TensorCoreEmitter::bindPackedSequence(const KernelArguments &args) {
  kernel::PackedSequence seq = kernel::PackedSequence::load(
      b, loc, args.cuSeqlensQ, args.cuSeqlensK, bIdx);
  qToken0 = seq.queryToken0;
  kToken0 = seq.keyToken0;
  queryLen = seq.queryLen;
  keyLen = seq.keyLen;
  totalQueryTokens = kernel::sizeValue(b, loc, op.getQueryType().getDimSize(0),
                                       args.totalQueryTokens);
  // Token t of head h is row t * H + h of the [T * H, D] view.
  qRowBase = add(mul(qToken0, heads), hIdx);
  qRowStep = heads;
  kvRowBase = add(mul(kToken0, kvHeads), kvHead);
  kvRowStep = kvHeads;
  lseBase = add(mul(hIdx, totalQueryTokens), qToken0); // lse is [Hq, Tq]
}

void TensorCoreEmitter::emitSetup(Block &entry) {
  b.setInsertionPointToStart(&entry);
  packedF16Convert = wgmma;
  l2Prefetch128 = splitKV;
  KernelArguments args =
      splitKV  ? KernelArguments::unpackByName(entry, spec)
      : packed ? KernelArguments::unpack(entry, cast<VarlenAttentionOp>(op))
               : KernelArguments::unpack(entry, cast<AttentionOp>(op));
  query = args.query;
  key = args.key;
  value = args.value;
  mask = args.mask;
  seed = args.seed;
  offset = args.offset;
  out = args.output;
  lse = args.lse;
  partialOutput = args.partialOutput;
  partialLse = args.partialLse;
  blockTable = args.blockTable;
  cacheSeqlens = args.cacheSeqlens;
  if (args.numSplits)
    splits = kernel::Extent::dynamic(
        arith::IndexCastUIOp::create(b, loc, b.getIndexType(), args.numSplits));
  if (paged) {
    queryLen = op.getUniformQueryLen(); // static; the key length per block
  } else if (!packed) {
    kernel::KernelExtents sizes = kernel::KernelExtents::get(
        b, loc, op, args.batch, args.queryLen, args.keyLen);
    queryLen = sizes.queryLen;
    keyLen = sizes.keyLen;
    if (op.getMask())
      maskDims = kernel::maskExtents(op.getMask().getType(), sizes);
  }

  // Shared memory: one dynamic buffer, viewed as Q [Br][S], K/V [2][Bc][S].
  auto workgroup =
      gpu::AddressSpaceAttr::get(ctx, gpu::AddressSpace::Workgroup);
  Value dyn = gpu::DynamicSharedMemoryOp::create(
      b, loc,
      MemRefType::get({ShapedType::kDynamic}, b.getI8Type(), AffineMap(),
                      workgroup));
  auto view = [&](int64_t byteOff, ArrayRef<int64_t> shape) -> Value {
    return memref::ViewOp::create(
        b, loc, MemRefType::get(shape, elt, AffineMap(), workgroup), dyn,
        idx(byteOff), ValueRange{});
  };
  qS = view(qOff, {blockQ, qStride});
  kS = view(kOff, {stages, blockKV, kStride});
  vS = view(vOff, {stages, blockKV, vStride});
  smemBase = memref::ExtractAlignedPointerAsIndexOp::create(b, loc, dyn);
  if (wgmma) {
    // The SW128 tiles start at the first 1024-byte boundary (the buffer
    // has kSwizzle128Alignment bytes of slack); `tiles` views them as one
    // flat array of elements (qS, kS and vS above are unused).
    Value aligned = alignForSwizzle128(smemBase);
    tiles = memref::ViewOp::create(
        b, loc,
        MemRefType::get({barOff / eltBytes}, elt, AffineMap(), workgroup), dyn,
        arith::SubIOp::create(b, loc, aligned, smemBase), ValueRange{});
    smemBase = aligned;
  }

  threadId = gpu::ThreadIdOp::create(b, loc, gpu::Dimension::x);
  tid = threadId;
  qBlock = gpu::BlockIdOp::create(b, loc, gpu::Dimension::x);
  hIdx = gpu::BlockIdOp::create(b, loc, gpu::Dimension::y);
  bIdx = gpu::BlockIdOp::create(b, loc, gpu::Dimension::z);
  // With wgmma the thread coordinates are set once the roles have split
  // (consumer threads count from 0).
  if (!wgmma)
    setThreadCoordinates();
  if (splitKV) {
    bindSplitKVBlock();
  } else {
    q0 = mul(qBlock, blockQ);
    kvHead = divu(hIdx, group);
  }
  if (packed) {
    bindPackedSequence(args);
  } else if (!splitKV) {
    // Row indices (in units of rows) of the first row of this (b, h) slice.
    qRowBase = mul(add(mul(bIdx, heads), hIdx), queryLen);
    kvRowBase = mul(add(mul(bIdx, kvHeads), kvHead), keyLen);
    lseBase = qRowBase;
  }

  rowsInBlock = arith::MinSIOp::create(
      b, loc, idx(blockQ), arith::SubIOp::create(b, loc, size(queryLen), q0));
  if (!splitKV) {
    posFirst = q0;
    posRows = rowsInBlock;
    posLen = queryLen;
  } else {
    setPackedHeadPositions();
  }
  std::tie(firstBlock, lastBlock) = emitVisibleKeyBlocks(
      b, loc, mods, posFirst, posRows, size(posLen), size(keyLen), blockKV);
  if (splitKV)
    restrictToChunk();
}

void TensorCoreEmitter::bindSplitKVBlock() {
  // Grid (S, R Hkv, B): y = kv R + row block.
  const int64_t rowBlocks = (group * tokens + blockQ - 1) / blockQ;
  splitIdx = qBlock;
  kvHead = divu(hIdx, rowBlocks);
  qBlock = remu(hIdx, rowBlocks);
  hIdx = mul(kvHead, group); // the first query head of the KV head
  q0 = mul(qBlock, blockQ);
  // The rows of query heads hIdx .. hIdx + G - 1 of batch b are contiguous
  // in [B, Hq, Lq, D]: one sequence of G Lq rows, from here on queryLen.
  posLen = queryLen;
  queryLen = group * tokens;
  qRowBase = mul(add(mul(bIdx, heads), hIdx), tokens);
  if (paged) {
    // Head kv of cache token t is row t * Hkv + kv of the [P * page_size *
    // Hkv, D] view; the sequence's tokens come from its block-table row.
    const int64_t maxPages =
        cast<ShapedType>(op.getBlockTable().getType()).getDimSize(1);
    const int64_t pageSize = op.getKeyType().getDimSize(1);
    kvRowBase = kvHead;
    kvRowStep = kvHeads;
    kvPages = GlobalRows::Pages{blockTable, mul(bIdx, maxPages), pageSize};
    Value len = memref::LoadOp::create(b, loc, cacheSeqlens, ValueRange{bIdx});
    keyLen = kernel::Extent::dynamic(
        arith::IndexCastUIOp::create(b, loc, b.getIndexType(), len));
  } else {
    kvRowBase = mul(add(mul(bIdx, kvHeads), kvHead), keyLen);
  }
  partialRowBase =
      mul(add(mul(add(mul(bIdx, splits), splitIdx), heads), hIdx), tokens);
}

void TensorCoreEmitter::setPackedHeadPositions() {
  // The tokens rows [q0, q0 + rowsInBlock) span: a run within one head, or
  // (conservatively) all Lq when they cross a head.
  if (tokens == 1) {
    posFirst = idx(0);
    posRows = idx(1);
    return;
  }
  Value lastRow = arith::SubIOp::create(b, loc, add(q0, rowsInBlock), idx(1));
  Value oneHead =
      arith::CmpIOp::create(b, loc, arith::CmpIPredicate::eq, divu(q0, tokens),
                            divu(lastRow, tokens));
  posFirst = arith::SelectOp::create(b, loc, oneHead, remu(q0, tokens), idx(0));
  posRows = arith::SelectOp::create(b, loc, oneHead, rowsInBlock, idx(tokens));
}

void TensorCoreEmitter::restrictToChunk() {
  // Chunk s: visible key blocks [first + s c, first + (s + 1) c) within
  // [first, last), c = ceil((last - first) / S); empty past the end.
  Value visible = arith::SubIOp::create(b, loc, lastBlock, firstBlock);
  Value perChunk = ceilDivU(visible, splits);
  Value from = arith::MinSIOp::create(
      b, loc, add(firstBlock, mul(splitIdx, perChunk)), lastBlock);
  lastBlock = arith::MinSIOp::create(b, loc, add(from, perChunk), lastBlock);
  firstBlock = from;
}

Value TensorCoreEmitter::copyQuery() {
  SmallVector<Value> tokens;
  TileRowWidth width{headDim, dims.qk};
  if (wgmma)
    copyTileSwizzled128(query, width, {qRowBase, qRowStep}, q0, queryLen,
                        blockQ, tiles, idx(qOff / eltBytes), tokens);
  else
    copyTile(query, width, {qRowBase, qRowStep}, q0, queryLen, blockQ, qS,
             ValueRange{}, tokens);
  return nvgpu::DeviceAsyncCreateGroupOp::create(
      b, loc, nvgpu::DeviceAsyncTokenType::get(ctx), tokens);
}

void TensorCoreEmitter::copyBlock(Value kb, Value stage, bool keys,
                                  bool values) {
  SmallVector<Value> tokens;
  Value key0 = mul(kb, blockKV);
  auto copy = [&](Value global, TileRowWidth width, int64_t tileOff,
                  int64_t tileBytes, Value tile) {
    GlobalRows rows(kvRowBase, kvRowStep, kvPages);
    if (wgmma)
      copyTileSwizzled128(
          global, width, rows, key0, keyLen, blockKV, tiles,
          add(mul(stage, tileBytes / eltBytes), tileOff / eltBytes), tokens);
    else
      copyTile(global, width, rows, key0, keyLen, blockKV, tile,
               ValueRange{stage}, tokens);
  };
  if (keys)
    copy(key, {headDim, dims.qk}, kOff, kTileBytes, kS);
  if (values)
    copy(value, {valueDim, dims.v}, vOff, vTileBytes, vS);
  nvgpu::DeviceAsyncCreateGroupOp::create(
      b, loc, nvgpu::DeviceAsyncTokenType::get(ctx), tokens);
}

void TensorCoreEmitter::emitProducer() {
  Value copiesKeys = ltC(threadId, streamThreads);
  tid = remu(threadId, streamThreads);
  threads = streamThreads;
  auto landed = [&](ArrayRef<Value> full) {
    cpAsyncWait(0);
    fenceProxyAsync();
    for (Value f : full)
      mbarrierArrive(f);
  };
  // Key blocks [from, last) of the K (keys) or V stream.
  auto stream = [&](bool keys, Value from) {
    MbarrierRing ring = keys ? keyRing() : valueRing();
    emitLoop(from, lastBlock, ValueRange{},
             [&](Value kb, ValueRange) -> SmallVector<Value> {
               auto [stage, round] = ring.slot(visibleIndex(kb));
               ring.acquire(stage, round);
               copyBlock(kb, stage, keys, !keys);
               landed(ring.full(stage));
               return {};
             });
  };
  emitIf(anyBlock, [&] {
    emitIf(copiesKeys, [&] {
      copyQuery();
      copyBlock(firstBlock, idx(0), /*keys=*/true, /*values=*/false);
      landed({queryFull, keyRing().full(idx(0))});
      stream(/*keys=*/true, add(firstBlock, 1));
    });
    emitIf(arith::XOrIOp::create(b, loc, copiesKeys,
                                 arith::ConstantIntOp::create(b, loc, 1, 1)),
           [&] { stream(/*keys=*/false, firstBlock); });
  });
}

void TensorCoreEmitter::emitRolesOrPrologue() {
  if (wgmma) {
    anyBlock = anyBlockOf();
    queryFull = add(smemBase, barOff + 8 * 4 * stages);
    emitIf(arith::CmpIOp::create(b, loc, arith::CmpIPredicate::eq, threadId,
                                 idx(0)),
           [&] {
             mbarrierInit(queryFull, streamThreads);
             for (int64_t st = 0; st < stages; ++st) {
               keyRing().initFull(st, streamThreads);
               valueRing().initFull(st, streamThreads);
               keyRing().initEmpty(st, consumerThreads);
               valueRing().initEmpty(st, consumerThreads);
             }
           });
    gpu::BarrierOp::create(b, loc);
    // One branch per role, so that ptxas applies each setmaxnreg to its
    // warpgroups: the producer needs few registers, the consumers' S, O
    // and P fragments many.
    roles = scf::IfOp::create(b, loc, TypeRange{},
                              ltC(threadId, tc::kProducerThreads),
                              /*withElseRegion=*/true);
    b.setInsertionPoint(roles.thenBlock()->getTerminator());
    // With one consumer warpgroup (256 threads) the cap at entry is 255
    // registers already.
    const bool rebalance = consumerThreads > 128;
    if (rebalance)
      setMaxRegisters(kProducerRegisters, /*increase=*/false);
    emitProducer();
    b.setInsertionPoint(roles.elseBlock()->getTerminator());
    if (rebalance)
      setMaxRegisters(kConsumerRegisters, /*increase=*/true);
    tid = arith::SubIOp::create(b, loc, threadId, idx(tc::kProducerThreads));
    threads = consumerThreads;
  } else {
    // Prologue: Q tile, and the first visible K/V block when there is one.
    qGroup = copyQuery();
    anyBlock = anyBlockOf();
    emitIf(anyBlock, [&] { issueKV(firstBlock, idx(0)); });
    emitWaitAllCopies(qGroup);
  }
}

void TensorCoreEmitter::emitRowsAndFragments() {
  warpRow0 = mul(warp, rowsPerWarp);
  // Q A-fragments of m-tile mt, one x4 per k-step of 16 dims: lane l
  // addresses tile row 16mt + l % 16, column 16ks + 8 * (l / 16), so
  // matrices 0..3 = (rows 0-7, cols 0-7), (8-15, 0-7), (0-7, 8-15),
  // (8-15, 8-15) = a0..a3.
  qLaneOff =
      mul(add(mul(remu(lane, 16), qStride), mul(divu(lane, 16), 8)), eltBytes);
  for (int64_t mt = 0; mt < mTiles; ++mt)
    qLaneAddr.push_back(
        add(add(smemBase, qOff),
            add(mul(tileRow0(mt), qStride * eltBytes), qLaneOff)));
  qFrag.assign(mTiles, {});
  if (qInRegisters)
    for (int64_t mt = 0; mt < mTiles; ++mt)
      for (int64_t ks = 0; ks < kStepsQK; ++ks)
        qFrag[mt].push_back(loadQ(mt, ks));

  // K B-fragments, one x4 per (pair of key n-tiles, k-step): lane l addresses
  // key 16np + l % 8 + 8 * (l / 16), dim 16ks + 8 * ((l / 8) % 2); registers
  // {0, 1} = (b0, b1) of n-tile 2np, {2, 3} = (b0, b1) of n-tile 2np + 1.
  // Each is used by every m-tile of the warp.
  kLaneOff = mul(add(mul(add(remu(lane, 8), mul(divu(lane, 16), 8)), kStride),
                     mul(remu(divu(lane, 8), 2), 8)),
                 eltBytes);
  // V B-fragments (transposed), one x4 per (pair of dv n-tiles, k-step of 16
  // keys): lane l addresses key 16kk + l % 8 + 8 * ((l / 8) % 2), dv
  // 16np + 8 * (l / 16); registers {0, 1} = (b0, b1) of dv n-tile 2np,
  // {2, 3} = (b0, b1) of dv n-tile 2np + 1.
  vLaneOff =
      mul(add(mul(add(remu(lane, 8), mul(remu(divu(lane, 8), 2), 8)), vStride),
              mul(divu(lane, 16), 8)),
          eltBytes);

  // This thread's query rows: C-fragment rows g and g + 8 of each m-tile,
  // global and clamped (padding rows compute on the last row, as in the
  // CUDA-core kernel; their results are not stored). Row slot i = 2mt + r.
  for (int64_t mt = 0; mt < mTiles; ++mt)
    for (int64_t r = 0; r < 2; ++r) {
      rows.push_back(add(q0, add(tileRow0(mt), add(g, 8 * r))));
      rowsC.push_back(clampToLast(rows.back(), queryLen));
      if (!splitKV) {
        scoreRows.push_back(rowsC.back());
        maskHeads.push_back(hIdx);
      } else if (tokens == 1) {
        scoreRows.push_back(idx(0));
        maskHeads.push_back(add(hIdx, rowsC.back()));
      } else {
        scoreRows.push_back(remu(rowsC.back(), tokens));
        maskHeads.push_back(add(hIdx, divu(rowsC.back(), tokens)));
      }
    }

  // Loop state: m[nRows], l[nRows] (l is this thread's partial sum over its
  // columns; the quad's partial sums are added in the epilogue), then the O
  // fragments of each m-tile.
  for (int64_t i = 0; i < nRows; ++i)
    init.push_back(f32(kNegInf));
  for (int64_t i = 0; i < nRows; ++i)
    init.push_back(f32(0.0f));
  for (int64_t i = 0; i < mTiles * nTilesO * 4; ++i)
    init.push_back(f32(0.0f));
}

Value TensorCoreEmitter::blockNeedsMask(Value k0) {
  // Only called where some block may need it (maySkipMask), so non-null.
  return blockPairNeedsMask(mods, posLen, keyLen, posFirst, posRows, k0,
                            blockKV);
}

void TensorCoreEmitter::softmaxStep(Value kb, SmallVector<SmallVector<Frag>> &s,
                                    SmallVector<Value> &ml,
                                    SmallVector<Value> &alpha) {
  // Score modifiers at global (row, key): element e of n-tile nt of
  // m-tile mt is at row rows[2mt + e / 2], key key0 + 8nt + 2t + e % 2.
  // With `foldScale` the scores stay raw (masked ones -inf) and
  // scale * log2(e) is applied in the exponent (one FMA per element);
  // otherwise they leave here modified and multiplied by log2(e).
  // Either way m is in the log2 domain.
  Value key0 = mul(kb, blockKV);
  Value keyT = add(key0, mul(t4, 2));
  auto modifiedScores = [&](bool masked) {
    const ScoreModifiers &m = masked ? maskedMods : plainMods;
    const bool guardKeys = masked && keyGuard;
    SmallVector<Value> out;
    for (int64_t mt = 0; mt < mTiles; ++mt)
      for (int64_t nt = 0; nt < nTilesS; ++nt)
        for (int64_t e = 0; e < 4; ++e) {
          Value keyIdx = add(keyT, 8 * nt + e % 2);
          Value row = scoreRows[2 * mt + e / 2];
          Value mv;
          if (mask)
            mv = kernel::emitMaskLoad(b, loc, mask, maskDims, mods.booleanMask,
                                      bIdx, maskHeads[2 * mt + e / 2], row,
                                      guardKeys ? clampToLast(keyIdx, keyLen)
                                                : keyIdx);
          Value sc = emitModifiedScore(b, loc, m, s[mt][nt][e], mv, row, keyIdx,
                                       size(posLen), size(keyLen));
          if (guardKeys)
            sc = arith::SelectOp::create(b, loc, lessThan(keyIdx, keyLen), sc,
                                         f32(kNegInf));
          if (!foldScale)
            sc = fmul(sc, f32(kLog2E));
          out.push_back(sc);
        }
    return out;
  };
  // Uniform per block: only diagonal / window-edge / last (ragged) key
  // blocks take the elementwise positional path.
  SmallVector<Value> scores =
      maySkipMask ? emitUniformChoice(blockNeedsMask(key0), modifiedScores)
                  : modifiedScores(/*masked=*/false);
  for (int64_t mt = 0; mt < mTiles; ++mt)
    for (int64_t nt = 0; nt < nTilesS; ++nt)
      for (int64_t e = 0; e < 4; ++e)
        s[mt][nt][e] = scores[(mt * nTilesS + nt) * 4 + e];

  // Online softmax per row slot i = 2mt + r (r = 0: elements 0, 1 of
  // each n-tile; r = 1: elements 2, 3). The 4 threads of a quad (same
  // g) share a row.
  for (int64_t i = 0; i < nRows; ++i) {
    int64_t mt = i / 2, r = i % 2;
    SmallVector<Frag> &sm = s[mt];
    Value mx = sm[0][2 * r];
    for (int64_t nt = 0; nt < nTilesS; ++nt)
      for (int64_t j = 0; j < 2; ++j)
        if (nt || j)
          mx = fmax(mx, sm[nt][2 * r + j]);
    mx = fmax(mx, shflXor(mx, 1));
    mx = fmax(mx, shflXor(mx, 2));
    if (foldScale)
      mx = fmul(mx, f32(log2Scale));
    Value m = ml[i], l = ml[nRows + i];
    Value mNew = fmax(m, mx);
    Value isEmpty = arith::CmpFOp::create(b, loc, arith::CmpFPredicate::OEQ,
                                          mNew, f32(kNegInf));
    Value safe = arith::SelectOp::create(b, loc, isEmpty, f32(0.0f), mNew);
    alpha[i] = exp2(arith::SubFOp::create(b, loc, m, safe));
    Value negSafe = arith::NegFOp::create(b, loc, safe);
    Value sum = f32(0.0f);
    for (int64_t nt = 0; nt < nTilesS; ++nt)
      for (int64_t j = 0; j < 2; ++j) {
        Value &sv = sm[nt][2 * r + j];
        // s * (scale log2 e) - m: one FMA.
        Value x =
            foldScale ? fmaC(sv, f32(log2Scale), negSafe) : fadd(sv, negSafe);
        Value p = exp2(x);
        sum = fadd(sum, p);
        Value weight = p;
        if (dropP > 0.0f) {
          Value keyIdx = add(keyT, 8 * nt + j);
          // A packed batch draws at its tokens' coordinates in the batch-1
          // form (docs/semantics.md, section 14.3).
          DropoutPosition pos =
              packed ? DropoutPosition{idx(0),
                                       hIdx,
                                       add(qToken0, rowsC[i]),
                                       add(kToken0, keyIdx),
                                       idx(heads),
                                       totalQueryTokens}
                     : DropoutPosition{bIdx,   hIdx,       rowsC[i],
                                       keyIdx, idx(heads), size(queryLen)};
          Value keep = emitDropoutKeep(b, loc, seed, offset, pos, dropP);
          weight = arith::SelectOp::create(
              b, loc, keep, fmul(p, f32(1.0f / (1.0f - dropP))), f32(0.0f));
        }
        sv = weight; // s now holds the (dropped-out) P.
      }
    ml[i] = mNew;
    ml[nRows + i] = fmaC(l, alpha[i], sum);
  }
}

SmallVector<Value> TensorCoreEmitter::rescaleO(ArrayRef<Value> o,
                                               ValueRange mOld, ValueRange mNew,
                                               ArrayRef<Value> alpha) {
  auto rescaleAll = [&](bool rescale) {
    SmallVector<Value> out;
    for (int64_t mt = 0; mt < mTiles; ++mt)
      for (int64_t nt = 0; nt < nTilesO; ++nt)
        for (int64_t e = 0; e < 4; ++e) {
          Value v = o[(mt * nTilesO + nt) * 4 + e];
          out.push_back(rescale ? fmul(v, alpha[2 * mt + e / 2]) : v);
        }
    return out;
  };
  if (tc::skipsUnchangedRescale(dims.v)) {
    Value grew = arith::ConstantIntOp::create(b, loc, 0, 1);
    for (int64_t i = 0; i < nRows; ++i)
      grew = arith::OrIOp::create(
          b, loc, grew,
          arith::CmpFOp::create(b, loc, arith::CmpFPredicate::UNE, mOld[i],
                                mNew[i]));
    return emitUniformChoice(warpAny(grew), rescaleAll);
  }
  return rescaleAll(/*rescale=*/true);
}

SmallVector<SmallVector<Frag>> TensorCoreEmitter::fragsOf(ArrayRef<Value> flat,
                                                          int64_t nTiles) {
  SmallVector<SmallVector<Frag>> f(mTiles, SmallVector<Frag>(nTiles));
  for (int64_t mt = 0; mt < mTiles; ++mt)
    for (int64_t nt = 0; nt < nTiles; ++nt)
      for (int64_t e = 0; e < 4; ++e)
        f[mt][nt][e] = flat[(mt * nTiles + nt) * 4 + e];
  return f;
}

SmallVector<Value> TensorCoreEmitter::flatten(ArrayRef<SmallVector<Frag>> f) {
  SmallVector<Value> flat;
  for (const SmallVector<Frag> &tile : f)
    for (const Frag &frag : tile)
      flat.append(frag.begin(), frag.end());
  return flat;
}

std::array<Value, 4> TensorCoreEmitter::packP(const SmallVector<Frag> &p,
                                              int64_t kk) {
  const Frag &p0 = p[2 * kk], &p1 = p[2 * kk + 1];
  return std::array<Value, 4>{packPair(p0[0], p0[1]), packPair(p0[2], p0[3]),
                              packPair(p1[0], p1[1]), packPair(p1[2], p1[3])};
}

// The mma.sync loop: per key block, S = Q K^T, softmax, O = O alpha + P V.
SmallVector<Value> TensorCoreEmitter::emitSyncLoop() {
  SmallVector<Value> loop =
      emitLoop(firstBlock, lastBlock, init, [&](Value kb, ValueRange state) {
        Value stage = stageOf(kb);
        emitPrefetchingStepHead(
            qGroup, kb, stage, lastBlock,
            [&](Value next, Value nextStage) { issueKV(next, nextStage); });
        // split_kv: a warp whose rows all lie past the packed rows (G Lq
        // may be as few as 1) only copies and waits; it skips the
        // products and the softmax (warp-uniform).
        if (splitKV)
          return emitUniformChoice(
              arith::CmpIOp::create(b, loc, arith::CmpIPredicate::slt, warpRow0,
                                    rowsInBlock),
              [&](bool live) -> SmallVector<Value> {
                if (!live)
                  return SmallVector<Value>(state);
                return syncStep(kb, stage, state);
              });
        return syncStep(kb, stage, state);
      });
  return loop;
}

SmallVector<Value> TensorCoreEmitter::syncStep(Value kb, Value stage,
                                               ValueRange state) {
  Value kBase = add(add(add(smemBase, kOff), mul(stage, kTileBytes)), kLaneOff);
  Value vBase = add(add(add(smemBase, vOff), mul(stage, vTileBytes)), vLaneOff);

  // S = Q K^T: per m-tile, blockKV / 8 n-tiles of 8 keys, f32. Each
  // K fragment pair feeds every m-tile.
  Frag zero{f32(0.0f), f32(0.0f), f32(0.0f), f32(0.0f)};
  SmallVector<SmallVector<Frag>> s(mTiles, SmallVector<Frag>(nTilesS, zero));
  for (int64_t ks = 0; ks < kStepsQK; ++ks) {
    SmallVector<std::array<Value, 4>> qf;
    for (int64_t mt = 0; mt < mTiles; ++mt)
      qf.push_back(qInRegisters ? qFrag[mt][ks] : loadQ(mt, ks));
    for (int64_t np = 0; np < nTilesS / 2; ++np) {
      mmaTilePair(
          qf,
          ldmatrix4(add(kBase, (16 * np * kStride + 16 * ks) * eltBytes),
                    false),
          np, s);
    }
  }

  SmallVector<Value> ml(state.begin(), state.begin() + oState);
  SmallVector<Value> alpha(nRows);
  softmaxStep(kb, s, ml, alpha);
  SmallVector<Value> oFlat(state.begin() + oState, state.end());
  SmallVector<SmallVector<Frag>> o =
      fragsOf(rescaleO(oFlat, state.take_front(nRows),
                       ArrayRef<Value>(ml).take_front(nRows), alpha),
              nTilesO);
  // Each V fragment pair feeds every m-tile.
  for (int64_t kk = 0; kk < kStepsPV; ++kk) {
    SmallVector<std::array<Value, 4>> pa;
    for (int64_t mt = 0; mt < mTiles; ++mt)
      pa.push_back(packP(s[mt], kk));
    for (int64_t np = 0; np < nTilesO / 2; ++np) {
      mmaTilePair(
          pa,
          ldmatrix4(add(vBase, (16 * kk * vStride + 16 * np) * eltBytes), true),
          np, o);
    }
  }
  SmallVector<Value> next = ml;
  next.append(flatten(o));
  return next;
}

// The wgmma loop (sm_90a), software-pipelined as in FlashAttention-3:
// step kb issues S_kb = Q K_kb^T and O += P_{kb-1} V_{kb-1} back to back,
// waits for S only and computes block kb's softmax while the tensor cores
// still multiply P V, then waits for O and rescales it. The stages come
// from the producer warpgroup (emitProducer): step kb waits on the full
// mbarriers of K_kb and V_{kb-1} and releases each stage on its empty
// mbarrier as soon as the wgmma reading it has retired, so the two
// consumer warpgroups never wait for each other. The first block's S
// and softmax are peeled before the loop, the last block's P V follows
// it. Loop state: m, l, O (as emitSyncLoop) and P as packed A fragments.
//
// With two consumer warpgroups they also take turns to issue their
// wgmmas (FlashAttention-3's ping-pong scheduling): warpgroup w waits on
// named barrier PingPongTurn + w (bar.sync, 256 threads) before issuing
// and passes the turn with bar.arrive on the other's once issued, so one
// warpgroup's softmax runs while the other's wgmmas have the tensor
// cores. Warpgroup 1 gives warpgroup 0 the first turn, and warpgroup 0
// takes the one warpgroup 1 passes after its last wgmmas, so every
// arrive is matched.
SmallVector<Value> TensorCoreEmitter::emitPipelinedWgmma() {
  const bool pingPong = consumerThreads == 256;
  Value wg = divu(warp, 4);
  Value isFirstGroup =
      arith::CmpIOp::create(b, loc, arith::CmpIPredicate::eq, wg, idx(0));
  auto takeTurn = [&] {
    if (pingPong)
      namedBarrier(NamedBarrier::PingPongTurn, wg, 256);
  };
  auto passTurn = [&] {
    if (pingPong)
      namedBarrierArrive(NamedBarrier::PingPongTurn,
                         arith::SubIOp::create(b, loc, idx(1), wg), 256);
  };
  if (pingPong)
    emitIf(
        arith::XOrIOp::create(b, loc, isFirstGroup,
                              arith::ConstantIntOp::create(b, loc, 1, 1)),
        [&] { namedBarrierArrive(NamedBarrier::PingPongTurn, Value(), 256); });
  // The warpgroup's 64 rows of the SW128 Q tile (in every panel).
  Value qRows = add(add(smemBase, qOff), mul(divu(warp, 4), 64 * 128));
  // S = Q K^T with both operands K-major in shared memory; committed, not
  // waited.
  auto issueScores = [&](Value stage, SmallVector<Value> acc) {
    Value kTile = add(add(smemBase, kOff), mul(stage, kTileBytes));
    wgmmaAccumulates = false;
    for (int64_t ks = 0; ks < kStepsQK; ++ks)
      acc = wgmmaSharedA(swizzledKMajorDescriptor(qRows, blockQ, ks), false,
                         swizzledKMajorDescriptor(kTile, blockKV, ks), false,
                         acc);
    wgmmaCommit();
    return acc;
  };
  // O += P V: P from registers, V MN-major; committed, not waited.
  auto issueValues = [&](ArrayRef<Value> p, Value stage,
                         SmallVector<Value> acc) {
    Value vTile = add(add(smemBase, vOff), mul(stage, vTileBytes));
    for (int64_t kk = 0; kk < kStepsPV; ++kk)
      acc = wgmmaRegA(p.slice(4 * kk, 4),
                      swizzledMnMajorDescriptor(vTile, blockKV, kk), true, acc);
    wgmmaCommit();
    return acc;
  };
  // Block kb's softmax on its (waited-for) scores: updates ml, returns P
  // in f32 (s, n-tile order).
  auto probabilities = [&](Value kb, ArrayRef<Value> scores,
                           SmallVector<Value> &ml, SmallVector<Value> &alpha) {
    SmallVector<SmallVector<Frag>> s = fragsOf(scores, nTilesS);
    softmaxStep(kb, s, ml, alpha);
    return s;
  };
  // P as packed A fragments: only once no wgmma still reads the previous
  // P (ptxas may give the new P the old one's registers), and all of it
  // before the next wgmma.fence (register writes between the fence and a
  // wgmma make ptxas inject warpgroup.arrive).
  auto packed = [&](const SmallVector<SmallVector<Frag>> &s) {
    SmallVector<Value> p;
    for (int64_t kk = 0; kk < kStepsPV; ++kk)
      llvm::append_range(p, packP(s[0], kk));
    return p;
  };

  // Peeled first block (K_first and V_first are in stage 0).
  SmallVector<Value> mlInit(init.begin(), init.begin() + oState);
  // O's zeros likewise: one constant register copied into every
  // accumulator would be copied right before the first P V.
  SmallVector<Value> oInit =
      wgmmaFenceOperands(ArrayRef<Value>(init).drop_front(oState));
  SmallVector<Value> pInit(kStepsPV * 4, i32c(0));
  SmallVector<Value> first = emitUniformChoice(anyBlock, [&](bool any) {
    SmallVector<Value> ml = mlInit;
    if (!any) {
      ml.append(pInit);
      return ml;
    }
    mbarrierWait(queryFull, idx(0));
    keyRing().wait(idx(0), idx(0));
    // The first S's (unused) accumulators get registers of their own here:
    // left as poison, LLVM may copy one register into all of them right
    // before the wgmma, i.e. after the fence, and ptxas then injects a
    // warpgroup.arrive.
    SmallVector<Value> fresh =
        wgmmaFenceOperands(freshAccumulators(blockKV / 2));
    takeTurn();
    wgmmaFence();
    SmallVector<Value> scores = issueScores(idx(0), fresh);
    passTurn();
    wgmmaWait(0);
    scores = wgmmaFenceOperands(scores);
    keyRing().release(idx(0));
    SmallVector<Value> alpha(nRows);
    ml.append(packed(probabilities(firstBlock, scores, ml, alpha)));
    return ml;
  });
  SmallVector<Value> loopInit(first.begin(), first.begin() + oState);
  loopInit.append(oInit);
  loopInit.append(first.begin() + oState, first.end());
  const int64_t pState = oState + static_cast<int64_t>(oInit.size());

  SmallVector<Value> loop = emitLoop(
      add(firstBlock, 1), lastBlock, loopInit, [&](Value kb, ValueRange state) {
        // S of block i, and P V of block i - 1.
        Value i = visibleIndex(kb);
        auto [stage, round] = keyRing().slot(i);
        auto [prevStage, prevRound] = valueRing().slot(add(i, -1));
        keyRing().wait(stage, round);
        valueRing().wait(prevStage, prevRound);

        SmallVector<Value> oPrev(state.begin() + oState,
                                 state.begin() + pState);
        SmallVector<Value> pPrev(state.begin() + pState, state.end());
        takeTurn();
        wgmmaFence();
        SmallVector<Value> scores =
            issueScores(stage, freshAccumulators(blockKV / 2));
        SmallVector<Value> o = issueValues(pPrev, prevStage, oPrev);
        passTurn();
        wgmmaWait(1);
        scores = wgmmaFenceOperands(scores);
        keyRing().release(stage);
        SmallVector<Value> ml(state.begin(), state.begin() + oState);
        SmallVector<Value> alpha(nRows);
        SmallVector<SmallVector<Frag>> p = probabilities(kb, scores, ml, alpha);
        wgmmaWait(0);
        o = wgmmaFenceOperands(o);
        valueRing().release(prevStage);
        SmallVector<Value> nextState = ml;
        nextState.append(rescaleO(o, state.take_front(nRows),
                                  ArrayRef<Value>(ml).take_front(nRows),
                                  alpha));
        nextState.append(packed(p));
        return nextState;
      });

  // The last block's P V.
  SmallVector<Value> ml(loop.begin(), loop.begin() + oState);
  SmallVector<Value> o(loop.begin() + oState, loop.begin() + pState);
  SmallVector<Value> p(loop.begin() + pState, loop.end());
  o = emitUniformChoice(anyBlock, [&](bool any) {
    if (!any)
      return o;
    auto [stage, round] = valueRing().slot(visibleIndex(add(lastBlock, -1)));
    valueRing().wait(stage, round);
    takeTurn();
    wgmmaFence();
    SmallVector<Value> acc = issueValues(p, stage, o);
    passTurn();
    wgmmaWait(0);
    return wgmmaFenceOperands(acc);
  });
  if (pingPong)
    emitIf(isFirstGroup,
           [&] { namedBarrier(NamedBarrier::PingPongTurn, Value(), 256); });
  ml.append(o);
  return ml;
}

std::pair<Value, SmallVector<Value, 2>>
TensorCoreEmitter::staged(Value row, Value chunk, int64_t inChunk) {
  if (!wgmma)
    return {qS, {row, add(mul(chunk, 8), inChunk)}};
  // The SW128 offset of (row, 8 chunk + inChunk) in the Q tile: the warp's
  // own rows in every panel.
  Value slot = arith::XOrIOp::create(b, loc, remu(chunk, 8), remu(row, 8));
  return {tiles,
          {add(add(idx(qOff / eltBytes), mul(divu(chunk, 8), 64 * blockQ)),
               add(mul(row, 64), add(mul(slot, 8), inChunk)))}};
}

void TensorCoreEmitter::emitPartialEpilogue(ArrayRef<Value> finalState) {
  // Row slot i = 2mt + r: the chunk's O / l (0 when l == 0) straight from
  // the fragments, two f32 per store (columns 8nt + 2t, + 1), and its lse
  // (-inf without keys), to the partials' row partialRowBase + row.
  auto pairTy = VectorType::get({2}, b.getF32Type());
  for (int64_t i = 0; i < nRows; ++i) {
    int64_t mt = i / 2, r = i % 2;
    Value m = finalState[i], l = finalState[nRows + i];
    l = fadd(l, shflXor(l, 1));
    l = fadd(l, shflXor(l, 2));
    emitIf(lessThan(rows[i], queryLen), [&] {
      Value isEmpty = arith::CmpFOp::create(b, loc, arith::CmpFPredicate::OEQ,
                                            l, f32(0.0f));
      Value inv =
          arith::SelectOp::create(b, loc, isEmpty, f32(0.0f),
                                  arith::DivFOp::create(b, loc, f32(1.0f), l));
      Value row = add(partialRowBase, rows[i]);
      Value rowStart = mul(row, valueDim);
      for (int64_t nt = 0; nt < valueDim / 8; ++nt) {
        Value pair = vector::FromElementsOp::create(
            b, loc, pairTy,
            ValueRange{fmul(finalState[oIndex(mt, nt, 2 * r)], inv),
                       fmul(finalState[oIndex(mt, nt, 2 * r + 1)], inv)});
        vector::StoreOp::create(
            b, loc, pair, partialOutput,
            ValueRange{add(rowStart, add(mul(t4, 2), 8 * nt))},
            /*nontemporal=*/false, llvm::MaybeAlign(8));
      }
      emitIf(
          arith::CmpIOp::create(b, loc, arith::CmpIPredicate::eq, t4, idx(0)),
          [&] {
            Value noKey = arith::CmpFOp::create(
                b, loc, arith::CmpFPredicate::OEQ, m, f32(kNegInf));
            Value v = arith::SelectOp::create(
                b, loc, noKey, f32(kNegInf),
                fmul(fadd(m, math::Log2Op::create(b, loc, l)), f32(kLn2)));
            memref::StoreOp::create(b, loc, v, partialLse, row);
          });
    });
  }
}

void TensorCoreEmitter::emitEpilogue(ArrayRef<Value> finalState) {
  if (splitKV)
    return emitPartialEpilogue(finalState);
  // wgmma: the warpgroup's wgmmas, which read all 64 of its Q rows, must
  // have retired in every one of its warps before a warp overwrites its own
  // rows.
  if (wgmma)
    namedBarrier(NamedBarrier::WarpgroupEpilogue, divu(warp, 4), 128);
  else
    // mma.sync: the warp's lanes overwrite Q rows that other lanes read
    // (ldmatrix). A block with visible key blocks has passed block
    // barriers since; one without any (a sequence with no keys, rows that
    // causal or window rules leave nothing) has not, and racecheck reports
    // the write-after-read within the warp (H200, 2026-12-02).
    NVVM::SyncWarpOp::create(b, loc, i32c(-1));
  // Epilogue. Row slot i = 2mt + r of this thread: O[mt][nt][2r],
  // O[mt][nt][2r + 1] at dv 8nt + 2t + {0, 1}. The normalized O goes through
  // this warp's own rows of the Q tile (only this warp ever reads them, and
  // its last read has completed: no block barrier), then to global memory in
  // 16-byte stores of whole row segments.
  for (int64_t i = 0; i < nRows; ++i) {
    int64_t mt = i / 2, r = i % 2;
    Value m = finalState[i], l = finalState[nRows + i];
    l = fadd(l, shflXor(l, 1));
    l = fadd(l, shflXor(l, 2));
    Value isEmpty =
        arith::CmpFOp::create(b, loc, arith::CmpFPredicate::OEQ, l, f32(0.0f));
    Value inv =
        arith::SelectOp::create(b, loc, isEmpty, f32(0.0f),
                                arith::DivFOp::create(b, loc, f32(1.0f), l));
    Value smemRow = add(tileRow0(mt), add(g, 8 * r));
    auto pairTy = VectorType::get({2}, elt);
    // Only O's real columns (not the tile's padding) are staged.
    for (int64_t nt = 0; nt < valueDim / 8; ++nt) {
      Value lo = fmul(finalState[oIndex(mt, nt, 2 * r)], inv);
      Value hi = fmul(finalState[oIndex(mt, nt, 2 * r + 1)], inv);
      Value pair = vector::FromElementsOp::create(
          b, loc, pairTy,
          ValueRange{arith::TruncFOp::create(b, loc, elt, lo),
                     arith::TruncFOp::create(b, loc, elt, hi)});
      auto [buffer, at] = staged(smemRow, idx(nt), 0);
      at.back() = add(at.back(), mul(t4, 2));
      vector::StoreOp::create(b, loc, pair, buffer, at,
                              /*nontemporal=*/false, llvm::MaybeAlign(4));
    }
    if (lse) {
      Value valid = lessThan(rows[i], queryLen);
      Value first =
          arith::CmpIOp::create(b, loc, arith::CmpIPredicate::eq, t4, idx(0));
      emitIf(arith::AndIOp::create(b, loc, valid, first), [&] {
        // m is in the log2 domain: lse = (m + log2 l) * ln 2.
        Value noKey = arith::CmpFOp::create(b, loc, arith::CmpFPredicate::OEQ,
                                            m, f32(kNegInf));
        Value v = arith::SelectOp::create(
            b, loc, noKey, f32(kNegInf),
            fmul(fadd(m, math::Log2Op::create(b, loc, l)), f32(kLn2)));
        memref::StoreOp::create(b, loc, v, lse, add(lseBase, rows[i]));
      });
    }
  }
  NVVM::SyncWarpOp::create(b, loc, i32c(-1));
  // Lane l copies 16-byte chunks l, l + 32, ... of the warp's rows x Dv tile.
  const int64_t chunksPerRow = valueDim / 8;
  auto chunkTy = VectorType::get({8}, elt);
  auto storeChunk = [&](Value warpRow, Value chunkIdx, Value col) {
    Value smemRow = add(warpRow0, warpRow);
    Value row = add(q0, smemRow);
    emitIf(lessThan(row, queryLen), [&] {
      auto [buffer, from] = staged(smemRow, chunkIdx, 0);
      Value chunk =
          vector::LoadOp::create(b, loc, chunkTy, buffer, from,
                                 /*nontemporal=*/false, llvm::MaybeAlign(16));
      Value at = add(mul(globalRow({qRowBase, qRowStep}, row), valueDim), col);
      vector::StoreOp::create(b, loc, chunk, out, ValueRange{at},
                              /*nontemporal=*/false, llvm::MaybeAlign(16));
    });
  };
  if (32 % chunksPerRow == 0) {
    // A lane keeps its column; rows advance by a constant per pass.
    const int64_t rowsPerPass = 32 / chunksPerRow;
    Value cRow = divu(lane, chunksPerRow);
    Value cChunk = remu(lane, chunksPerRow), cCol = mul(cChunk, 8);
    for (int64_t pass = 0; pass < rowsPerWarp / rowsPerPass; ++pass)
      storeChunk(add(cRow, pass * rowsPerPass), cChunk, cCol);
  } else {
    // Dv such as 80 or 96: chunk c = lane + 32 pass of the warp's
    // rowsPerWarp x chunksPerRow chunks; a last, partial pass is guarded.
    const int64_t total = rowsPerWarp * chunksPerRow;
    for (int64_t pass = 0; pass * 32 < total; ++pass) {
      Value c = add(lane, pass * 32);
      auto store = [&] {
        Value chunk = remu(c, chunksPerRow);
        storeChunk(divu(c, chunksPerRow), chunk, mul(chunk, 8));
      };
      if ((pass + 1) * 32 <= total)
        store();
      else
        emitIf(ltC(c, total), store);
    }
  }
  if (roles)
    b.setInsertionPointAfter(roles);
}

} // namespace

void tc::emitKernel(OpBuilder &b, gpu::GPUFuncOp func, AttentionOpInterface op,
                    const KernelSpec &spec) {
  TensorCoreEmitter(b, op, spec).emit(func);
}
