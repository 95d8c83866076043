//===- TensorCoreGradEmitter.h - tensor-core backward emitter ---*- C++ -*-===//
//
// Private to lib/Conversion/AttnToGPU: the class that emits the kernels of
// the tensor-core backward group (tcgrad::emitKernel; the kernels' design is
// documented at the top of TensorCoreGradKernelBuilder.cpp). Its methods are
// defined by job:
//   TensorCoreGradKernelBuilder.cpp  tcgrad::emitKernel: the stage chooser
//   TensorCoreGradSetup.cpp          the constructor, arguments and sizes,
//                                    the packed bindings, indices, shared-
//                                    memory views, global and workspace rows
//   TensorCoreGradFragments.cpp      ldmatrix lane offsets, A fragments from
//                                    C, products over n-tile pairs, staged
//                                    row pairs, C-fragment stores
//   TensorCoreGradScores.cpp         P and dS: score modifiers, dropout, lse
//   TensorCoreGradRowKernels.cpp     prep, dq_convert and the D_i row dots
//   TensorCoreGradAtomicDq.cpp       dSᵀ to shared memory, dQ = dS K and the
//                                    reductions into dq_accum
//   TensorCoreGradKeySchedule.cpp    the key-block kernels' steps and the
//                                    staged lse / D_i copies
//   TensorCoreGradKeyBlock.cpp       dkdv / dkdv_dq with mma.sync
//   TensorCoreGradKeyBlockWgmma.cpp  dkdv / dkdv_dq with wgmma (sm_90a)
//   TensorCoreGradKeyBlockHeadSplit.cpp  its consumers where two
//                                    warpgroups split the head dims
//   TensorCoreGradDq.cpp             dq
//
//===----------------------------------------------------------------------===//

#ifndef ATTNOPT_LIB_CONVERSION_ATTNTOGPU_TENSORCOREGRADEMITTER_H
#define ATTNOPT_LIB_CONVERSION_ATTNTOGPU_TENSORCOREGRADEMITTER_H

#include "KernelArguments.h"
#include "KernelCommon.h"
#include "MmaEmitterBase.h"
#include "SharedDropoutDraw.h"
#include "TensorCoreGradKernel.h"

#include "attnopt/Dialect/Attn/Utils/ScoreModifiers.h"

#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/SCF/IR/SCF.h"

#include <array>

namespace mlir::attn::tcgrad {

/// Emits one kernel of the tensor-core backward group (prep, dkdv,
/// dkdv_dq, dq or dq_convert) for `op` as described by `spec` into a
/// gpu.func (tcgrad::emitKernel).
class GradEmitter : public MmaEmitterBase {
public:
  GradEmitter(OpBuilder &b, AttentionOpInterface op, const KernelSpec &spec);

  /// prep: D_i and lse·log2(e) per query row, the zeroed dq_accum.
  void emitPrep(gpu::GPUFuncOp func);
  /// dkdv, or with `withDq` dkdv_dq: mma.sync, one warp per 16 keys.
  /// Its blocks split dK and dV between them where one warp's accumulators
  /// of both would not fit (tcgrad::keyBlockParts).
  void emitKeyBlocks(gpu::GPUFuncOp func, bool withDq);
  /// The same kernels with wgmma (sm_90a, spec.warpgroupMma): one
  /// warpgroup per 64 keys, split as emitKeyBlocks's.
  void emitKeyBlocksWarpgroup(gpu::GPUFuncOp func, bool withDq);
  /// dq (the group without atomics): one warp per 16 query rows.
  void emitDq(gpu::GPUFuncOp func);
  /// dq_convert: grad_query = dq_accum · scale in the element type.
  void emitDqConvert(gpu::GPUFuncOp func);

private:
  /// The gradients one key block's blocks accumulate.
  enum class KeyBlockProducts { Both, ValueOnly, KeyOnly };
  /// The body of a key-block kernel for key block kBlockIdx of kv head
  /// kvHead: Sᵀ and Pᵀ, then dV (unless KeyOnly) and dPᵀ, dSᵀ, dK (unless
  /// ValueOnly).
  void emitKeyBlock(Value kBlockIdx, Value kvHead, bool withDq,
                    KeyBlockProducts products);
  /// The same with wgmma (emitKeyBlocksWarpgroup; smemBase already aligned
  /// for the SW128 tiles). Warp-specialized (spec.tma): the consumers'
  /// part, the loads done by emitKeyBlockLoads.
  void emitKeyBlockWarpgroup(Value kBlockIdx, Value kvHead, bool withDq,
                             KeyBlockProducts products);
  /// The head split (spec.headSplit, TensorCoreGradKeyBlockHeadSplit.cpp):
  /// the consumers' part of the warp-specialized wgmma kernel where its two
  /// consumer warpgroups share key block kBlockIdx and split its head dims,
  /// one branch per warpgroup (emitHeadSplitWarpgroup with w = 0, 1).
  struct KeyBlockSchedule;
  void emitKeyBlockHeadSplit(Value kBlockIdx, Value kvHead, bool withDq);
  void emitHeadSplitWarpgroup(const KeyBlockSchedule &sched, bool withDq,
                              int64_t w);
  /// A head-split step's shared tiles (byte addresses): K and V of the key
  /// block, the step's Q and dO stage, and the Pdᵀ and dSᵀ tiles of its
  /// parity `buffer` (it mod 2; probsT and dsT set once they are written),
  /// and i32 views of the two Pdᵀ / dSᵀ buffers (made before the loop).
  struct KeyStep;
  struct HeadSplitStep {
    Value keys, values, queries, gradOutputs, buffer, probsT, dsT;
    Value probsView, dsView;
  };
  /// Its two halves around the named barrier: this warpgroup's Sᵀ and dPᵀ
  /// slices (queries step.queryOffset ..) made into Pdᵀ and dSᵀ in the
  /// shared tiles of `tiles.buffer`; and dQ's chunks `chunks` from dSᵀ and
  /// K, staged for the bulk reductions or added per thread,
  /// `releaseStage` called once the first chunk's product is issued.
  void headSplitScores(const KeyStep &step, const HeadSplitStep &tiles,
                       Value wgWarp);
  struct BulkDqStaging;
  void headSplitDq(const KeyStep &step, const HeadSplitStep &tiles,
                   ArrayRef<std::pair<int64_t, int64_t>> chunks,
                   const BulkDqStaging &bulk, Value wgWarp, int64_t w,
                   function_ref<void()> releaseStage);
  /// Its products (emitHeadSplitWarpgroup): Sᵀ or dPᵀ of the block's 64
  /// keys (`keyRows`, the K or V tile) and 32 queries (`queryRows` inside
  /// the Q or dO stage tile) over `dim`; acc[chunks] += A B over the 64
  /// queries (dV, dK) or keys (dQ, `transA`: A read MN-major) with A the
  /// shared [64][64] tile `aTile` and B the chunks' columns of the SW128
  /// tile `bTile` (MN-major), `fresh`: each chunk's first product
  /// overwrites; and the stores of chunked dK or dV rows (only columns below
  /// `width`, rows below Lk).
  SmallVector<Value> querySliceProduct(Value keyRows, Value queryRows,
                                       int64_t dim);
  SmallVector<Value> chunkProducts(Value aTile, bool transA, Value bTile,
                                   ArrayRef<std::pair<int64_t, int64_t>> chunks,
                                   SmallVector<Value> acc, bool fresh);
  void storeChunkFragments(ArrayRef<Value> acc,
                           ArrayRef<std::pair<int64_t, int64_t>> chunks,
                           float scale, Value dest, GlobalRows rows, Value row0,
                           int64_t width);
  /// Stores the A fragment `a` of k-step kStep (queries [16 kStep, 16 kStep
  /// + 16)) of this warp's 16 keys (16 wgWarp ..) to the SW128 [64 keys][64
  /// queries] tile at i32 index `first` of the view `tile`.
  void storeSharedScores(Value tile, Value first, const std::array<Value, 4> &a,
                         Value wgWarp, int64_t kStep);
  /// The producer of the warp-specialized wgmma key-block kernel (one
  /// thread): K and V of the key block with TMA on the K/V mbarrier, then
  /// for every step Q and dO with TMA and the staged lse·log2(e) and D_i
  /// rows with bulk copies into the step's stage of the Q/dO ring.
  void emitKeyBlockLoads(Value kBlockIdx, Value kvHead,
                         KeyBlockProducts products);
  /// The warp-specialized kernel's layout: the kernel's (with dSᵀ for
  /// dkdv_dq), whichever part of a split kernel a block runs, so that every
  /// role of every block finds the mbarriers where thread 0 initialised
  /// them.
  KeyBlockLayout warpSpecializedLayout() const {
    return keyBlockLayout(
        headDim, valueDim, spec.blockKV, spec.stage == abi::Stage::DKDVDQ,
        /*warpgroupMma=*/true,
        /*warpSpecialized=*/true, spec.headSplit, spec.queryStages);
  }
  /// Its Q/dO ring (spec.queryStages stages; the mbarriers have room for
  /// two) and K/V mbarrier.
  MbarrierRing queryRing() {
    const int64_t at = warpSpecializedLayout().barriers;
    return MbarrierRing(*this, smemBase, at + 8, at + 24, spec.queryStages);
  }
  Value keyValueFull() {
    return add(smemBase, warpSpecializedLayout().barriers);
  }
  /// Dispatches block blockIdx.x = `blockX` of a key-block kernel to
  /// `emitBlock(kBlockIdx, withDq, products)`: key block blockX doing both
  /// products, or where keyBlockParts is 2 (block-uniform branches) the
  /// even block 2 kb doing dV of key block kb and the odd one its dK (and,
  /// `withDq`, the atomic dQ, which needs dS).
  void emitKeyBlockParts(
      Value blockX, bool withDq,
      function_ref<void(Value, bool, KeyBlockProducts)> emitBlock);
  /// One (query head, query block) step of a key-block kernel as one thread
  /// sees it: its two keys (C rows g, g + 8 of its warp's 16) and the
  /// staged [2][64] lse·log2(e) and D_i rows.
  /// `queryOffset`: the thread's first query column in the block (the
  /// head split's second warpgroup holds queries 32 .. 63 of Sᵀ).
  struct KeyStep {
    Value hIdx, q0, rowsInBlock, k0, stage;
    std::array<Value, 2> keys;
    int64_t keyBlock;
    Value lseS, deltaS;
    int64_t queryOffset = 0;
  };
  /// Pᵀ of a step recomputed from Sᵀ = K Qᵀ (C fragments over the 64
  /// queries): `pd` = Pᵀ with dropout applied (the A operand of dV), `w` =
  /// Pᵀ (· softcap'), the factor of dSᵀ, and the dropout keep bits packed in
  /// one i32 (null without dropout).
  struct Probabilities {
    SmallVector<Frag> pd, w;
    Value keepBits;
  };
  /// `keepBits` is keyRowKeepBits(step, s.size()), drawn by the caller
  /// where integer work overlaps the product best (null without dropout).
  Probabilities recomputeProbabilities(const KeyStep &step, ArrayRef<Frag> s,
                                       Value keepBits);
  /// The dropout keep bits of a key-block step's Pᵀ (nTilesQ n-tiles of 8
  /// queries, keys step.keys[e / 2]): bit 4 nt + e keeps element (nt, e);
  /// null without dropout. They depend on positions only. Each Philox block
  /// is drawn once by the four lanes that hold it (SharedDropoutDraw.h).
  Value keyRowKeepBits(const KeyStep &step, int64_t nTilesQ);
  /// dPᵀ -> dSᵀ = w (dPᵀ keep/(1-p) - D) in place.
  void scoreGradients(const KeyStep &step, const Probabilities &p,
                      MutableArrayRef<Frag> dP);
  /// The iteration space of a key-block kernel: the (query head of the kv
  /// head's group, visible query block) pairs of key block k0, flattened
  /// into steps 0 .. total - 1.
  struct KeyBlockSchedule {
    Value kvHead, k0, firstQ, numQ, total;
    GlobalRows kvRows{Value()};
  };
  KeyBlockSchedule scheduleKeyBlock(Value kBlockIdx, Value kvHead,
                                    int64_t keyBlock);
  /// Starts step `it` of a key-block loop: waits for its copies and, with
  /// two `stages`, prefetches step it + 1 (emitPrefetchingStepHead with
  /// `issue`; with one, the step ends in emitRefillingStepTail), then
  /// returns `invariant` (k0, keys, keyBlock, lseS, deltaS) completed with
  /// the step's stage, query head, first query and rows.
  KeyStep beginKeyStep(KeyStep invariant, const KeyBlockSchedule &sched,
                       Value it, Value anchor, Value total,
                       function_ref<void(Value, Value)> issue,
                       int64_t stages = 2);
  /// `invariant` completed for step `it` with its data in `stage`.
  KeyStep keyStepAt(KeyStep invariant, const KeyBlockSchedule &sched, Value it,
                    Value stage);
  /// The query head and the first query of step `it`.
  Value headOf(const KeyBlockSchedule &sched, Value it);
  Value queryBlockStart(const KeyBlockSchedule &sched, Value it);
  /// The global rows of query head h's queries, and of kv head kvHead's
  /// keys: consecutive for a dense op, token-major (step = heads) for a
  /// packed batch.
  GlobalRows queryRows(Value h);
  GlobalRows keyRows(Value kvHead);
  /// The lse element of query q of head h ([B, Hq, Lq], or [Hq, Tq] packed).
  Value lseIndex(Value h, Value q);
  /// The workspace row of query q of head h (paddedLen rows per head, or a
  /// packed batch's W rows per head from the sequence's P_b).
  Value paddedRow(Value h, Value q);
  /// cp.async of the 64 staged lse·log2(e) and D_i values of head h's query
  /// block q0 into `stage` of lseS / deltaS (threads 0-15, 16 bytes each).
  void copyStagedRows(Value h, Value q0, Value stage, Value lseS, Value deltaS);

  /// red.global.add of C fragments into dq_accum: fragment
  /// [m * nTiles + nt] holds rows row0 + 16 m + g (+ 8) of the workspace,
  /// columns col0 + 8 nt + 2 t4 (+ 1).
  void addToDqAccum(ArrayRef<Frag> frags, int64_t mTiles, Value row0,
                    Value col0);
  /// The bulk dQ of a key-block kernel (`withDq`, spec.bulkDq): the f32
  /// staging tile's byte offset in `layout` and the condition "first thread
  /// of its warpgroup", which issues (and waits for) the warpgroup's
  /// reductions; none without it.
  struct BulkDqStaging {
    std::optional<int64_t> offset;
    Value leader;
  };
  BulkDqStaging bulkDqStaging(const KeyBlockLayout &layout, bool withDq);
  /// The bulk dQ (KernelSpec::bulkDq), one consumer warpgroup's part:
  /// stores its wgmma accumulator fragments `frags` of dQ columns col0 ..
  /// col0 + 8 frags.size() (col0 a multiple of 8) into the f32 staging tile
  /// at byte offset `staging`, in dq_accum's fragment order
  /// (tcgrad::kDqColumnBlockFloats): one 16-byte store per fragment,
  /// consecutive threads at consecutive addresses.
  void stageDqColumns(int64_t staging, ArrayRef<Frag> frags, Value col0);
  /// Then, once the warpgroup (`wgIdx`) has staged its chunks `chunks`
  /// (first column, width): its thread `leader` adds each chunk to the
  /// 64-row dq_accum tile at workspace row `tileRow` with one bulk
  /// reduction and commits them as one bulk group.
  void addStagedDq(int64_t staging, Value wgIdx, Value leader, Value tileRow,
                   ArrayRef<std::pair<Value, int64_t>> chunks);

  /// Binds the run-time sizes of the unpacked arguments (queryLen, keyLen,
  /// paddedLen, maskDims).
  void bindSizes();
  /// Binds a packed batch's block to its sequence bIdx: qToken0, kToken0,
  /// queryLen, keyLen, totalQueryTokens, workspaceRows, workspaceRow0.
  void bindPackedSequence();
  /// Packed batch: an scf.if around the rest of the kernel, entered when
  /// the block's first row `start()` is inside its sequence's `len` (the
  /// grid covers the longest sequence); null (no branch, `start` not
  /// called) for a dense op, whose grid is exact. Uniform per block, before
  /// any barrier.
  scf::IfOp enterLiveBlock(function_ref<Value()> start, kernel::Extent len);
  /// Closes enterLiveBlock's branch (if any) before the kernel's return.
  void leaveLiveBlock(scf::IfOp live);
  /// Sets up tid, warp, lane, g, t4, the dynamic shared memory base, and
  /// unpacks the arguments; returns blockIdx.x.
  Value setUp(gpu::GPUFuncOp func);
  /// The block of a kernel over query blocks without tensor cores (prep,
  /// dq_convert): its first query q0, query head h, the global rows of the
  /// head's queries, and the workspace row of q0.
  struct QueryBlock {
    Value q0, h;
    GlobalRows rows{Value()};
    Value paddedRow0;
  };
  /// setUp for those kernels.
  QueryBlock setUpQueryBlock(gpu::GPUFuncOp func);
  /// A view of the dynamic shared memory at `byteOff`.
  Value view(int64_t byteOff, ArrayRef<int64_t> shape, Type type);

  /// Lane offsets (bytes) of the three ldmatrix patterns for a tile with
  /// row stride `stride` (elements).
  Value aLaneOffset(int64_t stride);
  Value bLaneOffset(int64_t stride);
  Value bTransLaneOffset(int64_t stride);

  /// The mask value at (b, h, query, key), indices already clamped.
  Value maskValue(Value bIdx, Value hIdx, Value query, Value key);
  /// x with P = exp2(x) for the raw score `raw` at (query, key): the score
  /// modifiers (`masked`: with the causal/window rules), then
  /// s·log2(e) - lse·log2(e). `lse2` is lse·log2(e), +inf for rows with no
  /// key; `guardKey` sends keys at or past Lk to -inf.
  Value exponent(Value raw, Value bIdx, Value hIdx, Value query, Value key,
                 Value lse2, bool masked, bool guardKey);
  /// keep / (1 - p), 0 or 1/(1-p), of the dq kernel's S tile (query
  /// rows[e / 2], key keyT + 8 nt + e % 2 of nTiles n-tiles) at 4 nt + e;
  /// empty without dropout. Each Philox block is drawn once by the lane
  /// pair that holds it (SharedDropoutDraw.h).
  SmallVector<Value> dropoutFactors(Value hIdx, ArrayRef<Value> rows,
                                    Value keyT, int64_t nTiles);
  /// Where this block's dropout draws (dense or packed batch).
  kernel::DropoutCoordinates dropoutCoordinates();
  /// Bit `bit` of `keepBits` (i32) as an i1.
  Value keptAt(Value keepBits, int64_t bit);
  /// The A fragment of k-step kk from C fragments 2kk, 2kk + 1.
  std::array<Value, 4> packA(ArrayRef<Frag> c, int64_t kk);
  /// acc[2 np], acc[2 np + 1] += a · B for every n-tile pair np of `acc`,
  /// B from k-step `k` of the operand tile at byte address `tile` (row
  /// stride `stride` elements, this lane's ldmatrix offset `lane`): a
  /// [n][k] tile, or with `transposed` a [k][n] tile read by ldmatrix.trans.
  void mmaAcrossPairs(const std::array<Value, 4> &a, Value tile, Value lane,
                      int64_t stride, int64_t k, bool transposed,
                      MutableArrayRef<Frag> acc);
  /// The copied rows of Q and K (D elements into tileDimQK columns) and of
  /// V and dO (Dv into tileDimV).
  TileRowWidth widthQK() const { return {headDim, tileDimQK}; }
  TileRowWidth widthV() const { return {valueDim, tileDimV}; }
  /// dO_i · O_i over columns [col0, col0 + cols) of (clamped) global row
  /// `rowC`, O read from global memory, dO by `loadDO(col)` (8 elements).
  Value partialRowDot(Value rowC, Value col0, int64_t cols,
                      function_ref<Value(Value)> loadDO);
  /// The same over the 8-column chunks firstChunk, firstChunk + step, ...
  /// of the row's Dv / 8 (a quad's threads interleaved: Dv / 4 need not be
  /// whole chunks).
  Value stridedRowDot(Value rowC, Value firstChunk, int64_t step,
                      function_ref<Value(Value)> loadDO);
  /// dO · O of the 8 columns at `col` of global row `rowC`.
  Value chunkDot(Value rowC, Value col, function_ref<Value(Value)> loadDO,
                 Value sum);
  /// The dq_accum element at flat f32 index `row * headDim + col` (i64
  /// arithmetic: the accumulator can outgrow 32-bit indices).
  Value dqAccumAt(Value row, Value col);
  /// red.global.add.f32 at `ptr` + `byteOffset`: a relaxed atomic add whose
  /// result nobody reads. (The offset goes into the instruction: inline asm
  /// hides the address from the backend, which could not fold it.)
  void atomicAdd(Value ptr, int64_t byteOffset, Value v);
  /// red.global.add.v4.f32 of `v` at `ptr` + `byteOffset` (16-byte aligned;
  /// sm_90, PTX 8.1).
  void atomicAdd4(Value ptr, int64_t byteOffset, const std::array<Value, 4> &v);
  /// The four consecutive dQ elements this thread adds from C fragment `c`
  /// after swapping one pair with lane ^ 1 (`odd`: t4 is odd).
  std::array<Value, 4> quadOfPairs(const Frag &c, Value odd);
  /// Stores the A fragment `a` of k-step kk of dSᵀ (the warp's 16 keys x
  /// queries [16kk, 16kk + 16)) to `dsS` ([key][query / 2] pairs).
  void storeTransposedScores(Value dsS, const std::array<Value, 4> &a,
                             int64_t kk);
  /// dq_accum[paddedRow0 + ..] += dS K for the block's 64 query rows and
  /// `keys` keys: warp w takes rows 32 (w % 2) .. + 32 and columns
  /// D (w / 2) / (warps / 2) .. + D / (warps / 2). dS is read transposed from
  /// the [key][query] tile at byte address `dsBase` (row stride `dsStride`
  /// elements), K from the [key][D] tile at `kBase`.
  void emitAtomicDq(Value dsBase, int64_t dsStride, Value kBase,
                    Value paddedRow0, int64_t keys);
  /// Element `which` of the pair of staged per-query values (lse·log2 e or
  /// D_i) at queries 2 t4 + 8 nt, + 1 of `stage` of the [2][64] f32 tile
  /// `rows`: one 8-byte shared load per pair (the second load of the pair is
  /// the same instruction, CSE'd).
  Value loadRowPair(Value rows, Value stage, int64_t nt, int64_t which);
  /// lse·log2(e) of the lse element `at` (a clamped row), +inf if lse =
  /// -inf or !valid.
  Value lseLog2(Value at, Value valid);
  /// Stores the C fragments `acc` (rows row0 + g, row0 + g + 8 of a
  /// [rows][width] tile) times `scale` to `dest` at the global rows `rows`
  /// for rows < limit.
  /// `col0`: the fragments hold columns col0 .. of the rows (only those
  /// below `width` are stored).
  void storeFragments(ArrayRef<Frag> acc, float scale, Value dest,
                      GlobalRows rows, Value row0, kernel::Extent limit,
                      int64_t width, int64_t col0 = 0);
  /// The key-block kernels' end: each warp's 16 keys of dK (times the
  /// softmax scale) and dV to grad_key and grad_value, keys below Lk.
  void storeKeyBlockGradients(ArrayRef<Frag> dK, ArrayRef<Frag> dV, bool wantDK,
                              bool wantDV, GlobalRows kvRows, Value k0);

  AttentionOpInterface op;
  const KernelSpec &spec;
  ScoreModifiers mods;
  /// `mods` as the masked and plain score epilogues apply them.
  kernel::ScoreModifierForms forms{mods};
  float dropP;
  /// A packed variable-length batch (attn.varlen_attention_grad): block z
  /// is sequence z (bindPackedSequence), rows are token-major.
  bool packed;
  int64_t heads, kvHeads, valueDim, group;
  /// The sequence lengths: static, or the kernel's run-time arguments
  /// (bound by setUp; RuntimeSizes.h).
  kernel::Extent queryLen = 0, keyLen = 0;
  /// The mask's dimensions (maskExtents), bound by setUp.
  SmallVector<kernel::Extent, 4> maskDims;
  /// The mma.sync tiles' head dims (D and Dv rounded up to the k-step of
  /// 16, tcgrad::tileDim; the padding columns zero-filled) and row strides:
  /// QK for the Q and K tiles, V for the V and dO tiles.
  int64_t tileDimQK, tileDimV, strideQK, strideV;
  /// Query rows of the row_dot / lse_log2 / dq_accum workspaces per head:
  /// Lq rounded up to whole blocks.
  kernel::Extent paddedLen = ShapedType::kDynamic;
  KernelArguments args;
  Value dyn, smemBase, bIdx;
  /// Packed batch: the sequence's first query and key tokens, the query
  /// token total (lse is [Hq, Tq]), the workspaces' rows per head (W) and
  /// the sequence's first workspace row (P_b; docs/kernel-manifest.md,
  /// "Packed backward kernels").
  Value qToken0, kToken0, totalQueryTokens, workspaceRows, workspaceRow0;
  /// Bytes from the dynamic shared memory's start to smemBase (null: 0),
  /// where a kernel aligns its tiles (emitKeyBlocksWarpgroup).
  Value viewShift;
};

} // namespace mlir::attn::tcgrad

#endif // ATTNOPT_LIB_CONVERSION_ATTNTOGPU_TENSORCOREGRADEMITTER_H
