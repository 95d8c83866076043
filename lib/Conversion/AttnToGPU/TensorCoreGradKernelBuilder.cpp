//===- TensorCoreGradKernelBuilder.cpp - mma.sync attention backward ------===//
//
// The tensor-core mapping of attn.attention_grad (FlashAttention-2's backward
// with recomputation), f16/bf16 with D and Dv multiples of 8 up to 256, as an
// ordered group of kernels sharing f32 workspaces (docs/kernel-manifest.md,
// "Backward kernels"): prep, dkdv, dq without atomics (sm_80,
// `deterministic`, decoding, --grad-dq=separate, head dims other than
// D = Dv = 64 or 128); prep, dkdv_dq, dq_convert with the atomic dQ (the
// default on sm_90: GradDqMode::Auto).
//
// Head dims: the mma.sync tiles hold D and Dv rounded up to the k-step of 16
// (tcgrad::tileDim; the copies zero-fill the padding columns, which are
// never stored), Q and K in rows of tileDimQK, V and dO in rows of tileDimV.
// One warp of the dkdv kernel holds 16 keys x (D + Dv) f32 accumulators,
// (D + Dv) / 2 registers per thread; past padded D + Dv = 256 that does not
// fit beside the products, and the kernel runs two blocks per key block
// (tcgrad::keyBlockParts): the even one computes Sᵀ, Pᵀ and dV, the odd one
// Sᵀ, Pᵀ, dPᵀ, dSᵀ and dK (one more product per block pair than the fused
// kernel, half the accumulators each).
//
// The key-block kernels take keyBlock = 64 or 128 keys (spec.blockKV; 128 by
// default with the atomic dQ, 64 without), one warp per 16 keys; the
// description below is written for 64 (4 warps).
//
// prep: grid = (ceil(Lq / 64), Hq, B): row_dot = D_i = dO_i · O_i and
//   lse_log2 = lse_i·log2(e) per query row (0 and +inf for rows past Lq,
//   +inf where lse = -inf, so that P = 0 there), padded to whole 64-row
//   blocks; zeroes dq_accum in the atomic group.
// dkdv: grid = (ceil(Lk / 64), Hkv, B), 4 warps; warp w owns keys
//   [16w, 16w + 16) of the block's 64. Everything is computed transposed,
//   with keys as the M dimension, so that Pᵀ and dSᵀ leave mma.sync as C
//   fragments that are directly the A operands of the next products (no
//   trip through shared memory):
//     shared (dynamic): K [64][D+8], V [64][D+8] (loaded once),
//                       Q [2][64][D+8], dO [2][64][D+8], lse·log2(e)
//                       [2][64], D [2][64] (double-buffered, cp.async)
//     for each query head h of the kv head's group, for each query block
//     that can see the key block (emitVisibleQueryBlocks), flattened into
//     one loop with the next (h, block) prefetched:
//       Sᵀ  = K Qᵀ                (A: K rows, B: Q non-transposed)
//       Pᵀ  = exp2(Sᵀ·scale·log2 e - lse·log2 e), score modifiers at global
//             (query, key); dropout at (b, h, query, key)
//       dV += Pdᵀ dO              (A: Pdᵀ from C, B: dO via ldmatrix.trans)
//       dPᵀ = V dOᵀ              (A: V rows, B: dO non-transposed)
//       dSᵀ = Pᵀ (dPᵀ·keep/(1-p) - D) (·softcap')
//       dK += dSᵀ Q               (A: dSᵀ from C, B: Q via ldmatrix.trans)
//     dK *= scale; keys past Lk are computed on zero-filled rows with P = 0
//     (the ragged last key block takes the masked path) and never stored.
// dkdv_dq: dkdv, and per step dSᵀ also goes to shared memory
//   [keyBlock][64+8]; after a barrier warp w computes dS K for query rows
//   32 (w % 2) .. + 32 and D / (warps / 2) columns (A: dS via
//   ldmatrix.trans of the [key][query] tile, B: K via ldmatrix.trans) and
//   adds it to dq_accum with red.global.add (v4 on sm_90 after a pair swap
//   between lanes t4 and t4 ^ 1).
// dq: grid = (ceil(Lq / 64), Hq, B), 4 warps (128 query rows and 8 warps
//   for the split head dims where they fit, tcgrad::dqRows); warp w owns
//   query rows [16w, 16w + 16), like the forward kernel:
//     shared: Q [64][D+8], dO [64][D+8], K [2][64][D+8], V [2][64][D+8]
//     D_i and lse_i·log2(e) of the thread's two rows in registers
//     for each visible key block (emitVisibleKeyBlocks), K/V prefetched:
//       S = Q Kᵀ, P = exp2(...), dP = dO Vᵀ (B: V non-transposed),
//       dS = P (dP·keep/(1-p) - D) (·softcap'), dQ += dS K (B: K via
//       ldmatrix.trans)
//     dQ *= scale.
// dq_convert: grad_query = dq_accum · scale in the element type.
//
// The default group has no atomics: dQ is not accumulated across key blocks
// by several CTAs (the dq kernel recomputes S, P and dP instead), so every
// gradient is bit-identical from run to run whatever `deterministic` says,
// at the cost of 7 instead of FlashAttention-2's 5 matrix products per
// (query block, key block) pair. With 64-key blocks the atomic group's
// reductions cost about as much as those two products (docs/performance.md).
//
// On sm_90a (KernelSpec::warpgroupMma, GradMma) the key-block kernels are
// emitted by emitKeyBlocksWarpgroup instead: the same steps with wgmma, one
// warpgroup per 64 keys, K, V, Q and dO in 128-byte swizzled tiles and dSᵀ
// in the core-matrix layout (MmaEmitterBase.h), read by the tensor cores
// through matrix descriptors; Pdᵀ and dSᵀ still feed dV and dK from registers,
// and warp w still owns keys [16w, 16w + 16), so the C-fragment code below is
// shared.
//
// Fragment layouts and the ldmatrix lane patterns are those of the forward
// (TensorCoreKernelBuilder.cpp, header comment):
//   A operand, rows r0.. of a [rows][k] tile: lane l -> row r0 + l % 16,
//     column k0 + 8 (l / 16), ldmatrix.x4 non-transposed.
//   B operand from a [n][k] tile ("non-transposed"): lane l -> row
//     n0 + l % 8 + 8 (l / 16), column k0 + 8 ((l / 8) % 2).
//   B operand from a [k][n] tile ("transposed"): lane l -> row
//     k0 + l % 8 + 8 ((l / 8) % 2), column n0 + 8 (l / 16), ldmatrix.trans.
//   C fragment of n-tile nt: c0, c1 at (row g, columns 8nt + 2t + {0, 1}),
//     c2, c3 at row g + 8; the C fragments of n-tiles 2kk, 2kk + 1 packed in
//     pairs are the A fragment of k-step kk.
//
//===----------------------------------------------------------------------===//

#include "KernelArguments.h"
#include "KernelCommon.h"
#include "MmaEmitterBase.h"
#include "TensorCoreGradKernel.h"

#include "attnopt/Dialect/Attn/Utils/Philox.h"
#include "attnopt/Dialect/Attn/Utils/ScoreModifiers.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/LLVMIR/NVVMDialect.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/NVGPU/IR/NVGPUDialect.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"

#include "llvm/ADT/StringSwitch.h"

#include <algorithm>
#include <limits>

using namespace mlir;
using namespace mlir::attn;
using tcgrad::kBlock;
using tcgrad::kThreads;

namespace {

using kernel::kLog2E;
using kernel::kNegInf;
using kernel::kPosInf;

class GradEmitter : public MmaEmitterBase {
public:
  GradEmitter(OpBuilder &b, AttentionOpInterface op, const KernelSpec &spec)
      : MmaEmitterBase(b, op.getLoc(), op.getQueryType().getElementType(),
                       op.getHeadDimSize(), spec.block[0]),
        op(op), spec(spec), mods(ScoreModifiers::get(op)),
        dropP(op.getDropoutP().convertToFloat()), packed(op.isPacked()) {
    // Dimension 1 is the head count in the dense and the packed layouts.
    heads = op.getQueryType().getDimSize(1);
    kvHeads = op.getKeyType().getDimSize(1);
    valueDim = op.getValueDimSize();
    group = heads / kvHeads;
    // Static here; setUp binds the run-time ones to the kernel's arguments
    // (a packed batch's to its block's sequence).
    queryLen = op.getUniformQueryLen();
    keyLen = op.getUniformKeyLen();
    if (queryLen.isStatic())
      paddedLen = roundUp(queryLen.getStatic(), kBlock);
    tileDimQK = tcgrad::tileDim(headDim);
    tileDimV = tcgrad::tileDim(valueDim);
    strideQK = paddedStride(tileDimQK);
    strideV = paddedStride(tileDimV);
    foldScale = mods.scale > 0.0f && !mods.softcap && !mods.additiveMask;
    maskedMods = mods;
    if (foldScale)
      maskedMods.scale = 1.0f; // applied in the exponent
    plainMods = maskedMods;
    plainMods.causal = CausalMode::none;
    plainMods.window.reset();
  }

  void emitPrep(gpu::GPUFuncOp func);
  /// dkdv, or with `withDq` dkdv_dq: mma.sync, one warp per 16 keys.
  /// Its blocks split dK and dV between them where one warp's accumulators
  /// of both would not fit (tcgrad::keyBlockParts).
  void emitKeyBlocks(gpu::GPUFuncOp func, bool withDq);
  /// The same kernels with wgmma (sm_90a, spec.warpgroupMma): one
  /// warpgroup per 64 keys.
  void emitKeyBlocksWarpgroup(gpu::GPUFuncOp func, bool withDq);
  void emitDq(gpu::GPUFuncOp func);
  void emitDqConvert(gpu::GPUFuncOp func);

private:
  /// The gradients one key block's blocks accumulate.
  enum class KeyBlockProducts { Both, ValueOnly, KeyOnly };
  /// The body of a key-block kernel for key block kBlockIdx of kv head
  /// kvHead: Sᵀ and Pᵀ, then dV (unless KeyOnly) and dPᵀ, dSᵀ, dK (unless
  /// ValueOnly).
  void emitKeyBlock(Value kBlockIdx, Value kvHead, bool withDq,
                    KeyBlockProducts products);
  /// One (query head, query block) step of a key-block kernel as one thread
  /// sees it: its two keys (C rows g, g + 8 of its warp's 16) and the
  /// staged [2][64] lse·log2(e) and D_i rows.
  struct KeyStep {
    Value hIdx, q0, rowsInBlock, k0, stage;
    std::array<Value, 2> keys;
    int64_t keyBlock;
    Value lseS, deltaS;
  };
  /// Pᵀ of a step recomputed from Sᵀ = K Qᵀ (C fragments over the 64
  /// queries): `pd` = Pᵀ with dropout applied (the A operand of dV), `w` =
  /// Pᵀ (· softcap'), the factor of dSᵀ, and the dropout keep bits packed in
  /// one i32 (null without dropout).
  struct Probabilities {
    SmallVector<Frag> pd, w;
    Value keepBits;
  };
  Probabilities recomputeProbabilities(const KeyStep &step, ArrayRef<Frag> s);
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
  /// Starts step `it` of a key-block loop: waits for its copies and
  /// prefetches step it + 1 (emitPrefetchingStepHead with `issue`), then
  /// returns `invariant` (k0, keys, keyBlock, lseS, deltaS) completed with
  /// the step's stage, query head, first query and rows.
  KeyStep beginKeyStep(KeyStep invariant, const KeyBlockSchedule &sched,
                       Value it, Value anchor, Value total,
                       function_ref<void(Value, Value)> issue);
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
  /// keep / (1 - p) at (b, h, query, key) as 0 or 1/(1-p); null without
  /// dropout.
  Value dropoutFactor(Value bIdx, Value hIdx, Value query, Value key);
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
  void storeFragments(ArrayRef<Frag> acc, float scale, Value dest,
                      GlobalRows rows, Value row0, kernel::Extent limit,
                      int64_t width);

  AttentionOpInterface op;
  const KernelSpec &spec;
  ScoreModifiers mods, maskedMods, plainMods;
  float dropP;
  /// A packed variable-length batch (attn.varlen_attention_grad): block z
  /// is sequence z (bindPackedSequence), rows are token-major.
  bool packed;
  bool foldScale;
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
  GradKernelArguments args;
  Value dyn, smemBase, warp, lane, g, t4, bIdx;
  /// Packed batch: the sequence's first query and key tokens, the query
  /// token total (lse is [Hq, Tq]), the workspaces' rows per head (W) and
  /// the sequence's first workspace row (P_b; docs/kernel-manifest.md,
  /// "Packed backward kernels").
  Value qToken0, kToken0, totalQueryTokens, workspaceRows, workspaceRow0;
  /// Bytes from the dynamic shared memory's start to smemBase (null: 0),
  /// where a kernel aligns its tiles (emitKeyBlocksWarpgroup).
  Value viewShift;
};

void GradEmitter::bindSizes() {
  kernel::KernelExtents sizes = kernel::KernelExtents::get(
      b, loc, op, args.batch, args.queryLen, args.keyLen);
  queryLen = sizes.queryLen;
  keyLen = sizes.keyLen;
  if (!queryLen.isStatic())
    paddedLen =
        kernel::Extent::dynamic(
            mul(divu(add(queryLen.getDynamic(), idx(kBlock - 1)), kBlock),
                kBlock))
            .knownMultipleOf(kBlock);
  if (op.getMask())
    maskDims = kernel::maskExtents(op.getMask().getType(), sizes);
}

void GradEmitter::bindPackedSequence() {
  kernel::PackedSequence seq = kernel::PackedSequence::load(
      b, loc, args.cuSeqlensQ, args.cuSeqlensK, bIdx);
  qToken0 = seq.queryToken0;
  kToken0 = seq.keyToken0;
  queryLen = seq.queryLen;
  keyLen = seq.keyLen;
  totalQueryTokens = kernel::sizeValue(b, loc, op.getQueryType().getDimSize(0),
                                       args.totalQueryTokens);
  Value batch = kernel::sizeValue(b, loc, kernel::packedBatch(op), args.batch);
  // W = 4 ceil(Tq / 4) + 68 B and P_b = 4 ceil(cu_seqlens_q[b] / 4) + 68 b:
  // each sequence's rows start 16-byte aligned (the key-block kernels copy
  // them 16 bytes at a time) and span its length rounded up to 64 without
  // reaching the next sequence's (P_(b+1) - P_b >= L_b - 3 + 68).
  auto alignedTo4 = [&](Value v) { return mul(divu(add(v, 3), 4), 4); };
  Value alignedTotal = alignedTo4(totalQueryTokens);
  workspaceRows = add(alignedTotal, mul(batch, 68));
  Value alignedStart = alignedTo4(qToken0);
  workspaceRow0 = add(alignedStart, mul(bIdx, 68));
}

scf::IfOp GradEmitter::enterLiveBlock(function_ref<Value()> start,
                                      kernel::Extent len) {
  if (!packed)
    return nullptr;
  auto live = scf::IfOp::create(b, loc, lessThan(start(), len),
                                /*withElseRegion=*/false);
  b.setInsertionPoint(live.thenBlock()->getTerminator());
  return live;
}

void GradEmitter::leaveLiveBlock(scf::IfOp live) {
  if (live)
    b.setInsertionPointAfter(live);
}

Value GradEmitter::setUp(gpu::GPUFuncOp func) {
  Block &entry = func.getBody().front();
  b.setInsertionPointToStart(&entry);
  args = GradKernelArguments::unpack(entry, spec);
  if (!packed)
    bindSizes();
  auto workgroup =
      gpu::AddressSpaceAttr::get(ctx, gpu::AddressSpace::Workgroup);
  dyn = gpu::DynamicSharedMemoryOp::create(
      b, loc,
      MemRefType::get({ShapedType::kDynamic}, b.getI8Type(), AffineMap(),
                      workgroup));
  smemBase = memref::ExtractAlignedPointerAsIndexOp::create(b, loc, dyn);
  tid = gpu::ThreadIdOp::create(b, loc, gpu::Dimension::x);
  warp = divu(tid, 32);
  lane = remu(tid, 32);
  g = divu(lane, 4);
  t4 = remu(lane, 4);
  bIdx = gpu::BlockIdOp::create(b, loc, gpu::Dimension::z);
  if (packed)
    bindPackedSequence(); // reads the offsets at the sequence bIdx
  return gpu::BlockIdOp::create(b, loc, gpu::Dimension::x);
}

GradEmitter::QueryBlock GradEmitter::setUpQueryBlock(gpu::GPUFuncOp func) {
  QueryBlock qb;
  qb.q0 = mul(setUp(func), kBlock);
  qb.h = gpu::BlockIdOp::create(b, loc, gpu::Dimension::y);
  qb.rows = queryRows(qb.h);
  qb.paddedRow0 = paddedRow(qb.h, qb.q0);
  return qb;
}

Value GradEmitter::view(int64_t byteOff, ArrayRef<int64_t> shape, Type type) {
  auto workgroup =
      gpu::AddressSpaceAttr::get(ctx, gpu::AddressSpace::Workgroup);
  return memref::ViewOp::create(
      b, loc, MemRefType::get(shape, type, AffineMap(), workgroup), dyn,
      viewShift ? add(viewShift, byteOff) : idx(byteOff), ValueRange{});
}

Value GradEmitter::aLaneOffset(int64_t stride) {
  return mul(add(mul(remu(lane, 16), stride), mul(divu(lane, 16), 8)),
             kOperandBytes);
}

Value GradEmitter::bLaneOffset(int64_t stride) {
  return mul(add(mul(add(remu(lane, 8), mul(divu(lane, 16), 8)), stride),
                 mul(remu(divu(lane, 8), 2), 8)),
             kOperandBytes);
}

Value GradEmitter::bTransLaneOffset(int64_t stride) {
  return mul(
      add(mul(add(remu(lane, 8), mul(remu(divu(lane, 8), 2), 8)), stride),
          mul(divu(lane, 16), 8)),
      kOperandBytes);
}

Value GradEmitter::maskValue(Value bI, Value hI, Value query, Value key) {
  return kernel::emitMaskLoad(b, loc, args.mask, maskDims, mods.booleanMask, bI,
                              hI, query, key);
}

Value GradEmitter::exponent(Value raw, Value bI, Value hI, Value query,
                            Value key, Value lse2, bool masked, bool guardKey) {
  Value mv;
  if (args.mask)
    mv = maskValue(bI, hI, clampToLast(query, queryLen),
                   clampToLast(key, keyLen));
  Value sc = emitModifiedScore(b, loc, masked ? maskedMods : plainMods, raw, mv,
                               query, key, size(queryLen), size(keyLen));
  if (guardKey)
    sc = arith::SelectOp::create(b, loc, lessThan(key, keyLen), sc,
                                 f32(kNegInf));
  Value negLse = arith::NegFOp::create(b, loc, lse2);
  return fmaC(sc, f32(foldScale ? mods.scale * kLog2E : kLog2E), negLse);
}

Value GradEmitter::dropoutFactor(Value bI, Value hI, Value query, Value key) {
  if (dropP <= 0.0f)
    return Value();
  // A packed batch draws at its tokens' coordinates in the batch-1 form
  // (docs/semantics.md, section 14.3), as its forward kernel does.
  DropoutPosition pos =
      packed ? DropoutPosition{idx(0),
                               hI,
                               add(qToken0, query),
                               add(kToken0, key),
                               idx(heads),
                               totalQueryTokens}
             : DropoutPosition{bI, hI, query, key, idx(heads), size(queryLen)};
  Value keep = emitDropoutKeep(b, loc, args.seed, args.offset, pos, dropP);
  return arith::SelectOp::create(b, loc, keep, f32(1.0f / (1.0f - dropP)),
                                 f32(0.0f));
}

std::array<Value, 4> GradEmitter::packA(ArrayRef<Frag> c, int64_t kk) {
  const Frag &c0 = c[2 * kk], &c1 = c[2 * kk + 1];
  return {packPair(c0[0], c0[1]), packPair(c0[2], c0[3]),
          packPair(c1[0], c1[1]), packPair(c1[2], c1[3])};
}

void GradEmitter::mmaAcrossPairs(const std::array<Value, 4> &a, Value tile,
                                 Value lane, int64_t stride, int64_t k,
                                 bool transposed, MutableArrayRef<Frag> acc) {
  for (size_t np = 0; np < acc.size() / 2; ++np) {
    const int64_t n = static_cast<int64_t>(np);
    const int64_t elements =
        transposed ? 16 * k * stride + 16 * n : 16 * n * stride + 16 * k;
    auto r =
        ldmatrix4(add(add(tile, lane), elements * kOperandBytes), transposed);
    acc[2 * np] = mma(a, r[0], r[1], acc[2 * np]);
    acc[2 * np + 1] = mma(a, r[2], r[3], acc[2 * np + 1]);
  }
}

Value GradEmitter::partialRowDot(Value rowC, Value col0, int64_t cols,
                                 function_ref<Value(Value)> loadDO) {
  Value sum = f32(0.0f);
  for (int64_t c = 0; c < cols; c += 8)
    sum = chunkDot(rowC, add(col0, c), loadDO, sum);
  return sum;
}

Value GradEmitter::stridedRowDot(Value rowC, Value firstChunk, int64_t step,
                                 function_ref<Value(Value)> loadDO) {
  const int64_t chunks = valueDim / 8;
  Value sum = f32(0.0f);
  for (int64_t pass = 0; pass * step < chunks; ++pass) {
    Value chunk = add(firstChunk, pass * step);
    if ((pass + 1) * step <= chunks) {
      sum = chunkDot(rowC, mul(chunk, 8), loadDO, sum);
      continue;
    }
    // A last, partial pass: threads past the row re-read its last chunk and
    // add nothing.
    Value dot =
        chunkDot(rowC, mul(minS(chunk, chunks - 1), 8), loadDO, f32(0.0f));
    sum = fadd(sum, arith::SelectOp::create(b, loc, ltC(chunk, chunks), dot,
                                            f32(0.0f)));
  }
  return sum;
}

Value GradEmitter::chunkDot(Value rowC, Value col,
                            function_ref<Value(Value)> loadDO, Value sum) {
  auto chunkTy = VectorType::get({8}, elt);
  Value o = vector::LoadOp::create(b, loc, chunkTy, args.output,
                                   ValueRange{add(mul(rowC, valueDim), col)},
                                   /*nontemporal=*/false, llvm::MaybeAlign(16));
  Value d = loadDO(col);
  for (int64_t e = 0; e < 8; ++e) {
    Value oElt = vector::ExtractOp::create(b, loc, o, e);
    Value dElt = vector::ExtractOp::create(b, loc, d, e);
    Value oe = arith::ExtFOp::create(b, loc, b.getF32Type(), oElt);
    Value de = arith::ExtFOp::create(b, loc, b.getF32Type(), dElt);
    sum = fmaC(oe, de, sum);
  }
  return sum;
}

Value GradEmitter::dqAccumAt(Value row, Value col) {
  Type i64 = b.getI64Type();
  Value r = arith::IndexCastUIOp::create(b, loc, i64, row);
  Value c = arith::IndexCastUIOp::create(b, loc, i64, col);
  Value lin = arith::AddIOp::create(
      b, loc,
      arith::MulIOp::create(b, loc, r,
                            arith::ConstantIntOp::create(b, loc, i64, headDim)),
      c);
  return LLVM::GEPOp::create(b, loc, args.dqAccum.getType(), b.getF32Type(),
                             args.dqAccum, ValueRange{lin});
}

void GradEmitter::atomicAdd(Value ptr, int64_t byteOffset, Value v) {
  LLVM::InlineAsmOp::create(
      b, loc, TypeRange{}, ValueRange{ptr, v},
      ("red.global.add.f32 [$0+" + Twine(byteOffset) + "], $1;").str(), "l,f",
      /*has_side_effects=*/true, /*is_align_stack=*/false,
      LLVM::tailcallkind::TailCallKind::None,
      LLVM::AsmDialectAttr::get(ctx, LLVM::AsmDialect::AD_ATT), ArrayAttr());
}

Value GradEmitter::loadRowPair(Value rows, Value stage, int64_t nt,
                               int64_t which) {
  Value pair =
      vector::LoadOp::create(b, loc, VectorType::get({2}, b.getF32Type()), rows,
                             ValueRange{stage, add(mul(t4, 2), 8 * nt)},
                             /*nontemporal=*/false, llvm::MaybeAlign(8));
  return vector::ExtractOp::create(b, loc, pair, which);
}

Value GradEmitter::lseLog2(Value at, Value valid) {
  Value l = memref::LoadOp::create(b, loc, args.lse, at);
  Value noKey =
      arith::CmpFOp::create(b, loc, arith::CmpFPredicate::OEQ, l, f32(kNegInf));
  Value empty = arith::OrIOp::create(
      b, loc, noKey,
      arith::XOrIOp::create(b, loc, valid,
                            arith::ConstantIntOp::create(b, loc, 1, 1)));
  return arith::SelectOp::create(b, loc, empty, f32(kPosInf),
                                 fmul(l, f32(kLog2E)));
}

void GradEmitter::storeFragments(ArrayRef<Frag> acc, float scale, Value dest,
                                 GlobalRows rows, Value row0,
                                 kernel::Extent limit, int64_t width) {
  auto pairTy = VectorType::get({2}, elt);
  // Only the real columns: a padded tile's last n-tiles are not stored.
  acc = acc.take_front(width / 8);
  for (int64_t r = 0; r < 2; ++r) {
    Value row = add(row0, add(g, 8 * r));
    emitIf(lessThan(row, limit), [&] {
      for (size_t nt = 0; nt < acc.size(); ++nt) {
        Value lo = acc[nt][2 * r], hi = acc[nt][2 * r + 1];
        if (scale != 1.0f) {
          lo = fmul(lo, f32(scale));
          hi = fmul(hi, f32(scale));
        }
        Value pair = vector::FromElementsOp::create(
            b, loc, pairTy,
            ValueRange{arith::TruncFOp::create(b, loc, elt, lo),
                       arith::TruncFOp::create(b, loc, elt, hi)});
        Value at = add(mul(globalRow(rows, row), width),
                       add(mul(t4, 2), 8 * static_cast<int64_t>(nt)));
        vector::StoreOp::create(b, loc, pair, dest, ValueRange{at},
                                /*nontemporal=*/false, llvm::MaybeAlign(4));
      }
    });
  }
}

std::array<Value, 4> GradEmitter::quadOfPairs(const Frag &c, Value odd) {
  // Even threads keep row g (c0, c1) and take the partner's row-g pair; odd
  // threads keep row g + 8 (c2, c3) and take the partner's row-g + 8 pair.
  auto pick = [&](Value ifOdd, Value ifEven) -> Value {
    return arith::SelectOp::create(b, loc, odd, ifOdd, ifEven);
  };
  Value got0 = shflXor(pick(c[0], c[2]), 1);
  Value got1 = shflXor(pick(c[1], c[3]), 1);
  return {pick(got0, c[0]), pick(got1, c[1]), pick(c[2], got0),
          pick(c[3], got1)};
}

void GradEmitter::atomicAdd4(Value ptr, int64_t byteOffset,
                             const std::array<Value, 4> &v) {
  LLVM::InlineAsmOp::create(
      b, loc, TypeRange{}, ValueRange{ptr, v[0], v[1], v[2], v[3]},
      ("red.global.add.v4.f32 [$0+" + Twine(byteOffset) +
       "], {$1, $2, $3, $4};")
          .str(),
      "l,f,f,f,f", /*has_side_effects=*/true, /*is_align_stack=*/false,
      LLVM::tailcallkind::TailCallKind::None,
      LLVM::AsmDialectAttr::get(ctx, LLVM::AsmDialect::AD_ATT), ArrayAttr());
}

void GradEmitter::storeTransposedScores(Value dsS,
                                        const std::array<Value, 4> &a,
                                        int64_t kk) {
  Value key = add(mul(warp, 16), g);
  Value col = add(t4, 8 * kk);
  memref::StoreOp::create(b, loc, a[0], dsS, ValueRange{key, col});
  memref::StoreOp::create(b, loc, a[1], dsS, ValueRange{add(key, 8), col});
  memref::StoreOp::create(b, loc, a[2], dsS, ValueRange{key, add(col, 4)});
  memref::StoreOp::create(b, loc, a[3], dsS,
                          ValueRange{add(key, 8), add(col, 4)});
}

void GradEmitter::emitAtomicDq(Value dsBase, int64_t dsStride, Value kBase,
                               Value paddedRow0, int64_t keys) {
  // Warp tiles of 32 query rows (two m-tiles) x D / (warps / 2) columns,
  // computed in chunks of up to 32 columns: per k-step two dS and one or two
  // K ldmatrix feed four or eight mma.sync (16-row tiles re-reading dS for
  // every 16 columns needed one ldmatrix per mma.sync).
  const int64_t colsPerWarp = headDim * 2 / (threads / 32);
  const int64_t chunk = std::min<int64_t>(32, colsPerWarp);
  Value row0 = mul(remu(warp, 2), 32);
  Value col0 = mul(divu(warp, 2), colsPerWarp);
  // A operand from a [k][m] tile (ldmatrix.trans): lane l -> key row
  // 16kk + l % 8 + 8 (l / 16), query column row0 + 16m + 8 ((l / 8) % 2).
  Value aOff =
      mul(add(mul(add(remu(lane, 8), mul(divu(lane, 16), 8)), dsStride),
              add(mul(remu(divu(lane, 8), 2), 8), row0)),
          kOperandBytes);
  Value bTOff = add(bTransLaneOffset(strideQK), mul(col0, kOperandBytes));
  Frag zero{f32(0.0f), f32(0.0f), f32(0.0f), f32(0.0f)};
  for (int64_t c0 = 0; c0 < colsPerWarp; c0 += chunk) {
    SmallVector<Frag> acc(2 * chunk / 8, zero); // [m][n-tile]
    for (int64_t kk = 0; kk < keys / 16; ++kk) {
      std::array<Value, 4> da[2];
      for (int64_t m = 0; m < 2; ++m)
        da[m] = ldmatrix4(add(add(dsBase, aOff),
                              (16 * kk * dsStride + 16 * m) * kOperandBytes),
                          true);
      for (int64_t np = 0; np < chunk / 16; ++np) {
        auto kr =
            ldmatrix4(add(add(kBase, bTOff),
                          (16 * kk * strideQK + c0 + 16 * np) * kOperandBytes),
                      true);
        for (int64_t m = 0; m < 2; ++m) {
          Frag &lo = acc[m * chunk / 8 + 2 * np];
          Frag &hi = acc[m * chunk / 8 + 2 * np + 1];
          lo = mma(da[m], kr[0], kr[1], lo);
          hi = mma(da[m], kr[2], kr[3], hi);
        }
      }
    }
    addToDqAccum(acc, 2, add(paddedRow0, row0), add(col0, c0));
  }
}

void GradEmitter::addToDqAccum(ArrayRef<Frag> frags, int64_t mTiles, Value row0,
                               Value col0) {
  const int64_t nTiles = frags.size() / mTiles;
  // This thread's first element: row row0 + g, column col0 + 2 t4.
  Value base = dqAccumAt(add(row0, g), add(col0, mul(t4, 2)));
  // Vector reductions: threads t4 and t4 ^ 1 swap a pair (quadOfPairs), so
  // that an even t4 adds columns 2 t4 .. 2 t4 + 3 of row g and an odd one
  // columns 2 t4 - 2 .. 2 t4 + 1 of row g + 8, 16-byte aligned.
  Value odd, quadBase;
  if (spec.vectorReductions) {
    odd = arith::CmpIOp::create(b, loc, arith::CmpIPredicate::ne, remu(t4, 2),
                                idx(0));
    Value shift = arith::SelectOp::create(
        b, loc, odd,
        arith::ConstantIntOp::create(b, loc, b.getI32Type(),
                                     (8 * headDim - 2) * 4),
        arith::ConstantIntOp::create(b, loc, b.getI32Type(), 0));
    quadBase = LLVM::GEPOp::create(b, loc, base.getType(), b.getI8Type(), base,
                                   ValueRange{shift});
  }
  for (int64_t m = 0; m < mTiles; ++m)
    for (int64_t nt = 0; nt < nTiles; ++nt) {
      const Frag &f = frags[m * nTiles + nt];
      const int64_t at = 16 * m * headDim + 8 * nt;
      if (quadBase) {
        atomicAdd4(quadBase, at * 4, quadOfPairs(f, odd));
        continue;
      }
      for (int64_t e = 0; e < 4; ++e)
        atomicAdd(base, (at + 8 * (e / 2) * headDim + e % 2) * 4, f[e]);
    }
}

//===----------------------------------------------------------------------===//
// prep: D_i and lse·log2(e) per query row, zeroed dQ accumulator
//===----------------------------------------------------------------------===//

void GradEmitter::emitPrep(gpu::GPUFuncOp func) {
  QueryBlock qb = setUpQueryBlock(func);
  Value q0 = qb.q0, paddedRow0 = qb.paddedRow0;
  scf::IfOp live = enterLiveBlock([&] { return q0; }, queryLen);
  auto chunkTy = VectorType::get({8}, elt);

  // Two threads per row, each over half of Dv (whole 8-column chunks: Dv a
  // multiple of 16), else every other chunk.
  Value r = divu(tid, 2), part = remu(tid, 2);
  Value query = add(q0, r);
  Value valid = lessThan(query, queryLen);
  Value queryC = clampToLast(query, queryLen);
  Value rowC = globalRow(qb.rows, queryC);
  auto loadDO = [&](Value col) -> Value {
    return vector::LoadOp::create(b, loc, chunkTy, args.gradOutput,
                                  ValueRange{add(mul(rowC, valueDim), col)},
                                  /*nontemporal=*/false, llvm::MaybeAlign(16));
  };
  Value dot = valueDim % 16 == 0 ? partialRowDot(rowC, mul(part, valueDim / 2),
                                                 valueDim / 2, loadDO)
                                 : stridedRowDot(rowC, part, 2, loadDO);
  dot = fadd(dot, shflXor(dot, 1));
  Value first =
      arith::CmpIOp::create(b, loc, arith::CmpIPredicate::eq, part, idx(0));
  emitIf(first, [&] {
    Value at = add(paddedRow0, r);
    memref::StoreOp::create(
        b, loc, arith::SelectOp::create(b, loc, valid, dot, f32(0.0f)),
        args.rowDot, at);
    memref::StoreOp::create(b, loc, lseLog2(lseIndex(qb.h, queryC), valid),
                            args.lseLog2, at);
  });

  if (args.dqAccum) {
    // Zero the block's kBlock x D accumulator rows, 4 floats per store.
    auto quadTy = VectorType::get({4}, b.getF32Type());
    Value zeros = arith::ConstantOp::create(
        b, loc, DenseElementsAttr::get(quadTy, b.getF32FloatAttr(0.0f)));
    const int64_t quadsPerRow = headDim / 4;
    for (int64_t pass = 0; pass < kBlock * quadsPerRow / threads; ++pass) {
      Value quad = add(tid, pass * threads);
      Value ptr = dqAccumAt(add(paddedRow0, divu(quad, quadsPerRow)),
                            mul(remu(quad, quadsPerRow), 4));
      LLVM::StoreOp::create(b, loc, zeros, ptr, /*alignment=*/16);
    }
  }
  leaveLiveBlock(live);
  gpu::ReturnOp::create(b, loc);
}

//===----------------------------------------------------------------------===//
// dq_convert: grad_query = dq_accum · scale in the element type
//===----------------------------------------------------------------------===//

void GradEmitter::emitDqConvert(gpu::GPUFuncOp func) {
  QueryBlock qb = setUpQueryBlock(func);
  Value q0 = qb.q0, paddedRow0 = qb.paddedRow0;
  scf::IfOp live = enterLiveBlock([&] { return q0; }, queryLen);
  auto quadTy = VectorType::get({4}, b.getF32Type());
  auto outTy = VectorType::get({8}, elt);
  auto wideTy = VectorType::get({8}, b.getF32Type());
  Value scale = arith::ConstantOp::create(
      b, loc, DenseElementsAttr::get(wideTy, b.getF32FloatAttr(mods.scale)));
  // Thread tid converts 8 consecutive elements per pass.
  const int64_t octsPerRow = headDim / 8;
  for (int64_t pass = 0; pass < kBlock * octsPerRow / threads; ++pass) {
    Value oct = add(tid, pass * threads);
    Value r = divu(oct, octsPerRow), col = mul(remu(oct, octsPerRow), 8);
    emitIf(lessThan(add(q0, r), queryLen), [&] {
      Value ptr = dqAccumAt(add(paddedRow0, r), col);
      Value lo = LLVM::LoadOp::create(b, loc, quadTy, ptr, /*alignment=*/16);
      Value hi = LLVM::LoadOp::create(
          b, loc, quadTy,
          LLVM::GEPOp::create(b, loc, ptr.getType(), b.getF32Type(), ptr,
                              ArrayRef<LLVM::GEPArg>{4}),
          /*alignment=*/16);
      Value wide = vector::ShuffleOp::create(
          b, loc, lo, hi, ArrayRef<int64_t>{0, 1, 2, 3, 4, 5, 6, 7});
      Value v = arith::TruncFOp::create(
          b, loc, outTy, arith::MulFOp::create(b, loc, wide, scale));
      vector::StoreOp::create(
          b, loc, v, args.gradQuery,
          ValueRange{add(mul(globalRow(qb.rows, add(q0, r)), headDim), col)},
          /*nontemporal=*/false, llvm::MaybeAlign(16));
    });
  }
  leaveLiveBlock(live);
  gpu::ReturnOp::create(b, loc);
}

//===----------------------------------------------------------------------===//
// dK, dV
//===----------------------------------------------------------------------===//

GradEmitter::KeyBlockSchedule
GradEmitter::scheduleKeyBlock(Value kBlockIdx, Value kvHead, int64_t keyBlock) {
  KeyBlockSchedule sched;
  sched.kvHead = kvHead;
  sched.k0 = mul(kBlockIdx, keyBlock);
  sched.kvRows = keyRows(kvHead);
  Value keysInBlock = arith::MinSIOp::create(
      b, loc, idx(keyBlock),
      arith::SubIOp::create(b, loc, size(keyLen), sched.k0));
  auto [firstQ, lastQ] =
      emitVisibleQueryBlocks(b, loc, mods, sched.k0, keysInBlock,
                             size(queryLen), size(keyLen), kBlock);
  sched.firstQ = firstQ;
  sched.numQ = arith::MaxSIOp::create(
      b, loc, arith::SubIOp::create(b, loc, lastQ, firstQ), idx(0));
  sched.total = mul(sched.numQ, group);
  return sched;
}

GradEmitter::KeyStep
GradEmitter::beginKeyStep(KeyStep invariant, const KeyBlockSchedule &sched,
                          Value it, Value anchor, Value total,
                          function_ref<void(Value, Value)> issue) {
  KeyStep step = invariant;
  step.stage = remu(it, 2);
  emitPrefetchingStepHead(anchor, it, step.stage, total, issue);
  step.hIdx = headOf(sched, it);
  step.q0 = queryBlockStart(sched, it);
  step.rowsInBlock = arith::MinSIOp::create(
      b, loc, idx(kBlock),
      arith::SubIOp::create(b, loc, size(queryLen), step.q0));
  return step;
}

Value GradEmitter::headOf(const KeyBlockSchedule &sched, Value it) {
  return add(mul(sched.kvHead, group),
             arith::DivUIOp::create(b, loc, it, sched.numQ));
}

Value GradEmitter::queryBlockStart(const KeyBlockSchedule &sched, Value it) {
  return mul(add(sched.firstQ, arith::RemUIOp::create(b, loc, it, sched.numQ)),
             kBlock);
}

GlobalRows GradEmitter::queryRows(Value h) {
  // Token t of head h is row t * H + h of the packed [T * H, D] view.
  if (packed)
    return {add(mul(qToken0, heads), h), heads};
  return {mul(add(mul(bIdx, heads), h), queryLen)};
}

GlobalRows GradEmitter::keyRows(Value kvHead) {
  if (packed)
    return {add(mul(kToken0, kvHeads), kvHead), kvHeads};
  return {mul(add(mul(bIdx, kvHeads), kvHead), keyLen)};
}

Value GradEmitter::lseIndex(Value h, Value q) {
  if (packed)
    return add(add(mul(h, totalQueryTokens), qToken0), q);
  return add(queryRows(h).base, q);
}

Value GradEmitter::paddedRow(Value h, Value q) {
  if (packed)
    return add(add(mul(h, workspaceRows), workspaceRow0), q);
  return add(mul(add(mul(bIdx, heads), h), paddedLen), q);
}

void GradEmitter::copyStagedRows(Value h, Value q0, Value stage, Value lseS,
                                 Value deltaS) {
  // prep padded the rows to whole blocks: 16 chunks of 4 floats each. The
  // tokens stay inside the scf.if; cp.async.commit_group still commits them
  // with the calling thread's group, as PTX defines it per thread.
  emitIf(ltC(tid, kBlock / 4), [&] {
    Value col = mul(tid, 4);
    Value row = paddedRow(h, add(q0, col));
    auto tokenTy = nvgpu::DeviceAsyncTokenType::get(ctx);
    for (auto [src, dst] :
         {std::pair{args.lseLog2, lseS}, std::pair{args.rowDot, deltaS}})
      nvgpu::DeviceAsyncCopyOp::create(
          b, loc, tokenTy, dst, ValueRange{stage, col}, src, ValueRange{row},
          b.getIndexAttr(4), Value(), b.getUnitAttr());
  });
}

GradEmitter::Probabilities
GradEmitter::recomputeProbabilities(const KeyStep &step, ArrayRef<Frag> s) {
  const int64_t nTilesQ = s.size();
  const bool raggedKeys = !keyLen.isMultipleOf(step.keyBlock);
  // Pᵀ: element (nt, e) at key keys[e / 2], query q0 + 8nt + 2t + e % 2.
  Value queryT = add(step.q0, mul(t4, 2));
  auto queryAt = [&](int64_t nt, int64_t e) {
    return add(queryT, 8 * nt + e % 2);
  };
  auto probabilities = [&](bool masked) {
    SmallVector<Value> p;
    for (int64_t nt = 0; nt < nTilesQ; ++nt)
      for (int64_t e = 0; e < 4; ++e) {
        Value lse2 = loadRowPair(step.lseS, step.stage, nt, e % 2);
        p.push_back(exp2(exponent(s[nt][e], bIdx, step.hIdx, queryAt(nt, e),
                                  step.keys[e / 2], lse2, masked,
                                  /*guardKey=*/masked && raggedKeys)));
      }
    return p;
  };
  // Keys past Lk (zero-filled rows) get P = 0 too, not exp(0 - lse): that
  // can overflow f16 in dSᵀ, and dQ = dS K then multiplies inf by the zero
  // row (NaN rows in grad_query, issue 17).
  Value needs = blockPairNeedsMask(mods, queryLen, keyLen, step.q0,
                                   step.rowsInBlock, step.k0, step.keyBlock);
  SmallVector<Value> probs = needs ? emitUniformChoice(needs, probabilities)
                                   : probabilities(/*masked=*/false);

  // Register budget (D = 128 holds 128 f32 accumulators): what outlives
  // this point is only the packed A fragments of Pdᵀ, the dropout keep bits
  // packed in one i32, and w = Pᵀ (· softcap'), the factor of dSᵀ; the raw
  // scores die here.
  Probabilities out;
  out.pd.resize(nTilesQ);
  out.w.resize(nTilesQ);
  out.keepBits = dropP > 0.0f ? i32c(0) : Value();
  for (int64_t nt = 0; nt < nTilesQ; ++nt)
    for (int64_t e = 0; e < 4; ++e) {
      Value p = probs[4 * nt + e];
      out.pd[nt][e] = p;
      if (out.keepBits) {
        Value f =
            dropoutFactor(bIdx, step.hIdx, queryAt(nt, e), step.keys[e / 2]);
        out.pd[nt][e] = fmul(p, f);
        Value kept = arith::CmpFOp::create(b, loc, arith::CmpFPredicate::ONE, f,
                                           f32(0.0f));
        Value bit = arith::ShLIOp::create(
            b, loc, arith::ExtUIOp::create(b, loc, b.getI32Type(), kept),
            i32c(static_cast<int32_t>(4 * nt + e)));
        out.keepBits = arith::OrIOp::create(b, loc, out.keepBits, bit);
      }
      out.w[nt][e] = p;
      if (Value factor = emitSoftcapDerivative(b, loc, mods, s[nt][e]))
        out.w[nt][e] = fmul(p, factor);
    }
  return out;
}

void GradEmitter::scoreGradients(const KeyStep &step, const Probabilities &p,
                                 MutableArrayRef<Frag> dP) {
  for (size_t nt = 0; nt < dP.size(); ++nt)
    for (int64_t e = 0; e < 4; ++e) {
      Value delta = loadRowPair(step.deltaS, step.stage, nt, e % 2);
      Value dpv = dP[nt][e];
      if (p.keepBits) {
        Value bit = arith::AndIOp::create(
            b, loc,
            arith::ShRUIOp::create(b, loc, p.keepBits,
                                   i32c(static_cast<int32_t>(4 * nt + e))),
            i32c(1));
        Value kept = arith::CmpIOp::create(b, loc, arith::CmpIPredicate::ne,
                                           bit, i32c(0));
        dpv = arith::SelectOp::create(
            b, loc, kept, fmul(dpv, f32(1.0f / (1.0f - dropP))), f32(0.0f));
      }
      dP[nt][e] = fmul(p.w[nt][e], arith::SubFOp::create(b, loc, dpv, delta));
    }
}

void GradEmitter::emitKeyBlocks(gpu::GPUFuncOp func, bool withDq) {
  // The bf16 conversion form that keeps ptxas under 255 registers
  // (MmaEmitterBase.h): in the dkdv_dq kernel with vector reductions (sm_90)
  // the packed form spills 8 bytes on the D = 64 grid shape, with scalar
  // reductions (sm_80) the scalar form does; measured with 128-key blocks.
  packedBF16Convert = !withDq || !spec.vectorReductions;
  Value blockX = setUp(func);
  Value kvHead = gpu::BlockIdOp::create(b, loc, gpu::Dimension::y);
  const int64_t parts = tcgrad::keyBlockParts(headDim, valueDim);
  scf::IfOp live = enterLiveBlock(
      [&] { return mul(divu(blockX, parts), spec.blockKV); }, keyLen);
  if (parts == 1) {
    emitKeyBlock(blockX, kvHead, withDq, KeyBlockProducts::Both);
  } else {
    // Two blocks per key block (block-uniform branches): dV in the even
    // one, dK in the odd one.
    assert(!withDq && "the split key-block kernel has no atomic dQ");
    Value kBlockIdx = divu(blockX, 2);
    Value odd = arith::CmpIOp::create(b, loc, arith::CmpIPredicate::ne,
                                      remu(blockX, 2), idx(0));
    Value even = arith::XOrIOp::create(
        b, loc, odd, arith::ConstantIntOp::create(b, loc, 1, 1));
    emitIf(even, [&] {
      emitKeyBlock(kBlockIdx, kvHead, false, KeyBlockProducts::ValueOnly);
    });
    emitIf(odd, [&] {
      emitKeyBlock(kBlockIdx, kvHead, false, KeyBlockProducts::KeyOnly);
    });
  }
  leaveLiveBlock(live);
  gpu::ReturnOp::create(b, loc);
}

void GradEmitter::emitKeyBlock(Value kBlockIdx, Value kvHead, bool withDq,
                               KeyBlockProducts products) {
  const bool wantDK = products != KeyBlockProducts::ValueOnly,
             wantDV = products != KeyBlockProducts::KeyOnly;
  // One warp per 16 keys.
  const int64_t keyBlock = spec.blockKV;
  assert(keyBlock == 16 * (threads / 32) && "one warp per 16 keys");
  const int64_t dsStride = kBlock + 8;
  // A Q / dO stage.
  const int64_t qTileBytes = kBlock * strideQK * kOperandBytes,
                dOTileBytes = kBlock * strideV * kOperandBytes;
  const tcgrad::KeyBlockLayout layout = tcgrad::keyBlockLayout(
      tileDimQK, tileDimV, keyBlock, withDq, /*warpgroupMma=*/false);
  const int64_t kOff = layout.keys, vOff = layout.values, qOff = layout.queries,
                dOOff = layout.gradOutputs, lseOff = layout.lse,
                deltaOff = layout.delta, dsOff = layout.dsT;
  Value kS = view(kOff, {keyBlock, strideQK}, elt);
  Value vS = view(vOff, {keyBlock, strideV}, elt);
  Value qS = view(qOff, {2, kBlock, strideQK}, elt);
  Value dOS = view(dOOff, {2, kBlock, strideV}, elt);
  Value lseS = view(lseOff, {2, kBlock}, b.getF32Type());
  Value deltaS = view(deltaOff, {2, kBlock}, b.getF32Type());
  // dSᵀ as packed pairs, [key][query / 2], for dQ = dS K (withDq only).
  Value dsS =
      withDq ? view(dsOff, {keyBlock, dsStride / 2}, b.getI32Type()) : Value();
  const int64_t kStepsD = tileDimQK / 16, kStepsDv = tileDimV / 16;
  const int64_t nTilesQ = kBlock / 8;

  KeyBlockSchedule sched = scheduleKeyBlock(kBlockIdx, kvHead, keyBlock);
  Value k0 = sched.k0, total = sched.total;
  GlobalRows kvRows = sched.kvRows;

  // Prologue: K (and V for dPᵀ) once; Q, dO of the first (head, query
  // block).
  SmallVector<Value> tokens;
  copyTile(args.key, widthQK(), kvRows, k0, keyLen, keyBlock, kS, ValueRange{},
           tokens);
  if (wantDK)
    copyTile(args.value, widthV(), kvRows, k0, keyLen, keyBlock, vS,
             ValueRange{}, tokens);
  auto tokenTy = nvgpu::DeviceAsyncTokenType::get(ctx);
  Value kvGroup =
      nvgpu::DeviceAsyncCreateGroupOp::create(b, loc, tokenTy, tokens);
  auto issue = [&](Value it, Value stage) {
    SmallVector<Value> ts;
    Value h = headOf(sched, it);
    GlobalRows base = queryRows(h);
    Value q0 = queryBlockStart(sched, it);
    copyTile(args.query, widthQK(), base, q0, queryLen, kBlock, qS,
             ValueRange{stage}, ts);
    copyTile(args.gradOutput, widthV(), base, q0, queryLen, kBlock, dOS,
             ValueRange{stage}, ts);
    copyStagedRows(h, q0, stage, lseS, deltaS);
    nvgpu::DeviceAsyncCreateGroupOp::create(b, loc, tokenTy, ts);
  };
  Value any =
      arith::CmpIOp::create(b, loc, arith::CmpIPredicate::sgt, total, idx(0));
  emitIf(any, [&] { issue(idx(0), idx(0)); });
  emitWaitAllCopies(kvGroup);

  // K and V A fragments of the warp's 16 keys: in registers for D = Dv = 64,
  // re-read from shared memory for larger head dims (register pressure).
  Value kA = add(
      add(smemBase, kOff),
      add(aLaneOffset(strideQK), mul(mul(warp, 16 * strideQK), kOperandBytes)));
  Value vA = add(
      add(smemBase, vOff),
      add(aLaneOffset(strideV), mul(mul(warp, 16 * strideV), kOperandBytes)));
  // (The dkdv_dq kernel needs those registers for the dQ product.)
  const bool fragsInRegisters = tileDimQK + tileDimV <= 128 && !withDq;
  SmallVector<std::array<Value, 4>> kFrag, vFrag;
  if (fragsInRegisters) {
    for (int64_t ks = 0; ks < kStepsD; ++ks)
      kFrag.push_back(ldmatrix4(add(kA, ks * 16 * kOperandBytes), false));
    for (int64_t ks = 0; wantDK && ks < kStepsDv; ++ks)
      vFrag.push_back(ldmatrix4(add(vA, ks * 16 * kOperandBytes), false));
  }
  auto kFragAt = [&](int64_t ks) {
    return fragsInRegisters
               ? kFrag[ks]
               : ldmatrix4(add(kA, ks * 16 * kOperandBytes), false);
  };
  auto vFragAt = [&](int64_t ks) {
    return fragsInRegisters
               ? vFrag[ks]
               : ldmatrix4(add(vA, ks * 16 * kOperandBytes), false);
  };
  Value bOffQK = bLaneOffset(strideQK), bTOffQK = bTransLaneOffset(strideQK);
  Value bOffV = bLaneOffset(strideV), bTOffV = bTransLaneOffset(strideV);
  // This thread's keys (C rows g, g + 8 of the warp's 16).
  Value keyA = add(k0, add(mul(warp, 16), g));
  KeyStep invariant{};
  invariant.k0 = k0;
  invariant.keys = {keyA, add(keyA, 8)};
  invariant.keyBlock = keyBlock;
  invariant.lseS = lseS;
  invariant.deltaS = deltaS;

  const int64_t nTilesDK = wantDK ? tileDimQK / 8 : 0,
                nTilesDV = wantDV ? tileDimV / 8 : 0;
  SmallVector<Value> init(4 * (nTilesDK + nTilesDV), f32(0.0f));
  SmallVector<Value> loop =
      emitLoop(idx(0), total, init, [&](Value it, ValueRange state) {
        KeyStep step =
            beginKeyStep(invariant, sched, it, kvGroup, total, issue);

        Value qBase = add(add(smemBase, qOff), mul(step.stage, qTileBytes));
        Value dOBase = add(add(smemBase, dOOff), mul(step.stage, dOTileBytes));

        // Sᵀ = K Qᵀ: 8 n-tiles of 8 queries.
        SmallVector<Frag> s(nTilesQ,
                            Frag{f32(0.0f), f32(0.0f), f32(0.0f), f32(0.0f)});
        for (int64_t ks = 0; ks < kStepsD; ++ks)
          mmaAcrossPairs(kFragAt(ks), qBase, bOffQK, strideQK, ks, false, s);
        Probabilities pr = recomputeProbabilities(step, s);
        SmallVector<std::array<Value, 4>> pdA;
        for (int64_t kk = 0; wantDV && kk < kBlock / 16; ++kk)
          pdA.push_back(packA(pr.pd, kk));

        SmallVector<Frag> dK(nTilesDK), dV(nTilesDV);
        for (int64_t nt = 0; nt < nTilesDK; ++nt)
          for (int64_t e = 0; e < 4; ++e)
            dK[nt][e] = state[4 * nt + e];
        for (int64_t nt = 0; nt < nTilesDV; ++nt)
          for (int64_t e = 0; e < 4; ++e)
            dV[nt][e] = state[4 * (nTilesDK + nt) + e];

        // dV += Pdᵀ dO: k-steps over the 64 queries.
        for (int64_t kk = 0; wantDV && kk < kBlock / 16; ++kk)
          mmaAcrossPairs(pdA[kk], dOBase, bTOffV, strideV, kk, true, dV);

        if (wantDK) {
          // dPᵀ = V dOᵀ.
          SmallVector<Frag> dP(
              nTilesQ, Frag{f32(0.0f), f32(0.0f), f32(0.0f), f32(0.0f)});
          for (int64_t ks = 0; ks < kStepsDv; ++ks)
            mmaAcrossPairs(vFragAt(ks), dOBase, bOffV, strideV, ks, false, dP);

          scoreGradients(step, pr, dP);

          // dK += dSᵀ Q (dSᵀ also to shared memory for dQ).
          for (int64_t kk = 0; kk < kBlock / 16; ++kk) {
            auto da = packA(dP, kk);
            if (withDq)
              storeTransposedScores(dsS, da, kk);
            mmaAcrossPairs(da, qBase, bTOffQK, strideQK, kk, true, dK);
          }
          if (withDq) {
            gpu::BarrierOp::create(b, loc);
            emitAtomicDq(add(smemBase, dsOff), dsStride, add(smemBase, kOff),
                         paddedRow(step.hIdx, step.q0), keyBlock);
          }
        }

        SmallVector<Value> nextState;
        for (const Frag &f : dK)
          nextState.append(f.begin(), f.end());
        for (const Frag &f : dV)
          nextState.append(f.begin(), f.end());
        return nextState;
      });

  SmallVector<Frag> dK(nTilesDK), dV(nTilesDV);
  for (int64_t nt = 0; nt < nTilesDK; ++nt)
    for (int64_t e = 0; e < 4; ++e)
      dK[nt][e] = loop[4 * nt + e];
  for (int64_t nt = 0; nt < nTilesDV; ++nt)
    for (int64_t e = 0; e < 4; ++e)
      dV[nt][e] = loop[4 * (nTilesDK + nt) + e];
  Value warpKey0 = add(k0, mul(warp, 16));
  if (wantDK)
    storeFragments(dK, mods.scale, args.gradKey, kvRows, warpKey0, keyLen,
                   headDim);
  if (wantDV)
    storeFragments(dV, 1.0f, args.gradValue, kvRows, warpKey0, keyLen,
                   valueDim);
}

//===----------------------------------------------------------------------===//
// dK, dV with wgmma (sm_90a)
//===----------------------------------------------------------------------===//

void GradEmitter::emitKeyBlocksWarpgroup(gpu::GPUFuncOp func, bool withDq) {
  tensorCoresReadShared = true;
  packedF16Convert = true;
  Value kBlockIdx = setUp(func);
  Value kvHead = gpu::BlockIdOp::create(b, loc, gpu::Dimension::y);
  scf::IfOp live =
      enterLiveBlock([&] { return mul(kBlockIdx, spec.blockKV); }, keyLen);
  // One warpgroup per 64 keys; warp w still owns keys [16w, 16w + 16) (the
  // rows of a wgmma accumulator that warp w % 4 of its warpgroup holds), so
  // every C fragment has the mma.sync layout of emitKeyBlocks.
  const int64_t keyBlock = spec.blockKV;
  const int64_t warpgroups = keyBlock / 64;
  assert(keyBlock % 64 == 0 && threads == 2 * keyBlock && headDim == valueDim &&
         "one warpgroup per 64 keys");
  // K, V, Q and dO in SW128 tiles (MmaEmitterBase.h) from the first
  // 1024-byte boundary on; the dSᵀ tile in the core-matrix layout.
  Value aligned = alignForSwizzle128(smemBase);
  viewShift = arith::SubIOp::create(b, loc, aligned, smemBase);
  smemBase = aligned;
  const int64_t qTile = kBlock * headDim * kOperandBytes;
  const tcgrad::KeyBlockLayout layout =
      tcgrad::keyBlockLayout(headDim, valueDim, keyBlock, withDq,
                             /*warpgroupMma=*/true);
  const int64_t kOff = layout.keys, vOff = layout.values, qOff = layout.queries,
                dOOff = layout.gradOutputs, lseOff = layout.lse,
                deltaOff = layout.delta, dsOff = layout.dsT;
  Value tiles = view(0, {lseOff / kOperandBytes}, elt);
  Value lseS = view(lseOff, {2, kBlock}, b.getF32Type());
  Value deltaS = view(deltaOff, {2, kBlock}, b.getF32Type());
  // dSᵀ [keyBlock][64 queries] in the core-matrix layout, as i32 pairs.
  Value dsS =
      withDq ? view(dsOff, {keyBlock * kBlock / 2}, b.getI32Type()) : Value();

  KeyBlockSchedule sched = scheduleKeyBlock(kBlockIdx, kvHead, keyBlock);
  Value k0 = sched.k0, total = sched.total;
  GlobalRows kvRows = sched.kvRows;

  SmallVector<Value> tokens;
  copyTileSwizzled128(args.key, TileRowWidth::exact(headDim), kvRows, k0,
                      keyLen, keyBlock, tiles, idx(kOff / kOperandBytes),
                      tokens);
  copyTileSwizzled128(args.value, TileRowWidth::exact(headDim), kvRows, k0,
                      keyLen, keyBlock, tiles, idx(vOff / kOperandBytes),
                      tokens);
  auto tokenTy = nvgpu::DeviceAsyncTokenType::get(ctx);
  Value kvGroup =
      nvgpu::DeviceAsyncCreateGroupOp::create(b, loc, tokenTy, tokens);
  auto issue = [&](Value it, Value stage) {
    SmallVector<Value> ts;
    Value h = headOf(sched, it);
    GlobalRows base = queryRows(h);
    Value q0 = queryBlockStart(sched, it);
    Value stageElts = mul(stage, qTile / kOperandBytes);
    copyTileSwizzled128(args.query, TileRowWidth::exact(headDim), base, q0,
                        queryLen, kBlock, tiles,
                        add(stageElts, qOff / kOperandBytes), ts);
    copyTileSwizzled128(args.gradOutput, TileRowWidth::exact(headDim), base, q0,
                        queryLen, kBlock, tiles,
                        add(stageElts, dOOff / kOperandBytes), ts);
    copyStagedRows(h, q0, stage, lseS, deltaS);
    nvgpu::DeviceAsyncCreateGroupOp::create(b, loc, tokenTy, ts);
  };
  Value any =
      arith::CmpIOp::create(b, loc, arith::CmpIPredicate::sgt, total, idx(0));
  emitIf(any, [&] { issue(idx(0), idx(0)); });
  emitWaitAllCopies(kvGroup);

  Value wg = divu(warp, 4);
  // The warpgroup's 64 rows of K and V (in every panel).
  Value kRows = add(add(smemBase, kOff), mul(wg, 64 * 128));
  Value vRows = add(add(smemBase, vOff), mul(wg, 64 * 128));
  Value keyA = add(k0, add(mul(warp, 16), g));
  std::array<Value, 2> keys = {keyA, add(keyA, 8)};
  auto fragsOf = [](ArrayRef<Value> acc) {
    SmallVector<Frag> f(acc.size() / 4);
    for (size_t i = 0; i < acc.size(); ++i)
      f[i / 4][i % 4] = acc[i];
    return f;
  };

  // C = rows x Qᵀ-like product over D (A: 64 rows at `rows` of a key
  // tile, B: the stage tile at `cols`), both K-major: Sᵀ = K Qᵀ and
  // dPᵀ = V dOᵀ.
  auto productOverHeadDim = [&](Value rows, Value cols) {
    SmallVector<Value> acc = freshAccumulators(kBlock / 2);
    wgmmaAccumulates = false;
    for (int64_t ks = 0; ks < headDim / 16; ++ks)
      acc =
          wgmmaSharedA(swizzledKMajorDescriptor(rows, keyBlock, ks), false,
                       swizzledKMajorDescriptor(cols, kBlock, ks), false, acc);
    return acc;
  };
  // acc += Aᵀ-fragments x (stage tile, MN-major): dV += Pdᵀ dO, dK += dSᵀ Q.
  auto productOverQueries = [&](ArrayRef<std::array<Value, 4>> a, Value tile,
                                SmallVector<Value> acc) {
    for (int64_t kk = 0; kk < kBlock / 16; ++kk)
      acc = wgmmaRegA(a[kk], swizzledMnMajorDescriptor(tile, kBlock, kk), true,
                      acc);
    return acc;
  };

  KeyStep invariant{};
  invariant.k0 = k0;
  invariant.keys = keys;
  invariant.keyBlock = keyBlock;
  invariant.lseS = lseS;
  invariant.deltaS = deltaS;

  const int64_t accs = headDim / 2; // f32 per thread of a 64 x D product
  SmallVector<Value> init(2 * accs, f32(0.0f));
  SmallVector<Value> loop =
      emitLoop(idx(0), total, init, [&](Value it, ValueRange state) {
        KeyStep step =
            beginKeyStep(invariant, sched, it, kvGroup, total, issue);
        Value stageBytes = mul(step.stage, qTile);
        Value qBase = add(add(smemBase, qOff), stageBytes);
        Value dOBase = add(add(smemBase, dOOff), stageBytes);
        SmallVector<Value> dK(state.begin(), state.begin() + accs),
            dV(state.begin() + accs, state.end());

        // Sᵀ = K Qᵀ; with D = 64 dPᵀ = V dOᵀ is issued with it and runs
        // while Pᵀ is recomputed (with D = 128 the two accumulators on top
        // of dK and dV would spill).
        const bool overlapDp = headDim <= 64;
        wgmmaFence();
        SmallVector<Value> sAcc = productOverHeadDim(kRows, qBase), dPAcc;
        wgmmaCommit();
        if (overlapDp) {
          dPAcc = productOverHeadDim(vRows, dOBase);
          wgmmaCommit();
        }
        wgmmaWait(overlapDp ? 1 : 0);
        Probabilities pr = recomputeProbabilities(step, fragsOf(sAcc));
        SmallVector<std::array<Value, 4>> pdA;
        for (int64_t kk = 0; kk < kBlock / 16; ++kk)
          pdA.push_back(packA(pr.pd, kk));

        // dPᵀ (D = 128), then dV += Pdᵀ dO. With D = 64 dV runs while dSᵀ
        // is formed; with D = 128 the Pdᵀ fragments it holds would spill.
        wgmmaFence();
        if (!overlapDp) {
          dPAcc = productOverHeadDim(vRows, dOBase);
          wgmmaCommit();
        }
        dV = productOverQueries(pdA, dOBase, dV);
        wgmmaCommit();
        wgmmaWait(overlapDp ? 1 : 0);

        SmallVector<Frag> dP = fragsOf(dPAcc);
        scoreGradients(step, pr, dP);
        SmallVector<std::array<Value, 4>> dsA;
        for (int64_t kk = 0; kk < kBlock / 16; ++kk)
          dsA.push_back(packA(dP, kk));
        if (withDq) {
          // dSᵀ to shared memory: pair (key, 2 pairs) of A fragment i of
          // k-step kk at key 16w + g + 8 (i % 2), queries 16 kk + 2 t4 +
          // 8 (i / 2) (coreMatrixOffset / 4).
          for (int64_t kk = 0; kk < kBlock / 16; ++kk)
            for (int64_t i = 0; i < 4; ++i) {
              Value at = add(
                  add(mul(add(mul(warp, 2), i % 2), 256), add(mul(g, 4), t4)),
                  (2 * kk + i / 2) * 32);
              memref::StoreOp::create(b, loc, dsA[kk][i], dsS, ValueRange{at});
            }
          fenceProxyAsync();
        }
        // dK += dSᵀ Q.
        wgmmaFence();
        dK = productOverQueries(dsA, qBase, dK);
        wgmmaCommit();
        if (withDq) {
          gpu::BarrierOp::create(b, loc);
          // dQ (64 queries x D) = dS K over the block's keys: warpgroup wg
          // takes columns [wg D / warpgroups, ...) in chunks of up to 64.
          // A = dS from the [key][query] core-matrix tile and B = K from
          // the [key][D] SW128 tile (columns col0.. of their panel), both
          // MN-major.
          const int64_t cols = headDim / warpgroups;
          const int64_t chunk = std::min<int64_t>(64, cols);
          Value dsBase = add(smemBase, dsOff);
          for (int64_t c0 = 0; c0 < cols; c0 += chunk) {
            Value col0 = add(mul(wg, cols), c0);
            Value kCols = add(add(smemBase, kOff),
                              add(mul(divu(col0, 64), 128 * keyBlock),
                                  mul(remu(col0, 64), kOperandBytes)));
            SmallVector<Value> acc = freshAccumulators(chunk / 2);
            wgmmaFence();
            wgmmaAccumulates = false;
            for (int64_t kk = 0; kk < keyBlock / 16; ++kk)
              acc = wgmmaSharedA(
                  mnMajorDescriptor(add(dsBase, 2 * kk * 16 * kBlock), kBlock),
                  true, swizzledMnMajorDescriptor(kCols, keyBlock, kk), true,
                  acc);
            wgmmaCommitAndWait(0);
            addToDqAccum(
                fragsOf(acc), 1,
                add(paddedRow(step.hIdx, step.q0), mul(remu(warp, 4), 16)),
                col0);
          }
        }
        wgmmaWait(0);
        SmallVector<Value> next = dK;
        next.append(dV.begin(), dV.end());
        return next;
      });

  SmallVector<Value> results = loop;
  SmallVector<Frag> dK = fragsOf(ArrayRef<Value>(results).take_front(accs)),
                    dV = fragsOf(ArrayRef<Value>(results).drop_front(accs));
  Value warpKey0 = add(k0, mul(warp, 16));
  storeFragments(dK, mods.scale, args.gradKey, kvRows, warpKey0, keyLen,
                 headDim);
  storeFragments(dV, 1.0f, args.gradValue, kvRows, warpKey0, keyLen, valueDim);
  leaveLiveBlock(live);
  gpu::ReturnOp::create(b, loc);
}

//===----------------------------------------------------------------------===//
// dQ
//===----------------------------------------------------------------------===//

void GradEmitter::emitDq(gpu::GPUFuncOp func) {
  packedBF16Convert = false; // sm_80, D = 128: see MmaEmitterBase.h
  Value qBlockIdx = setUp(func);
  Value hIdx = gpu::BlockIdOp::create(b, loc, gpu::Dimension::y);
  // A K / V stage.
  const int64_t kTileBytes = kBlock * strideQK * kOperandBytes,
                vTileBytes = kBlock * strideV * kOperandBytes;
  // Query rows per block: one warp per 16 (spec.blockQ, tcgrad::dqRows).
  const int64_t blockRows = spec.blockQ;
  assert(blockRows == 16 * (threads / 32) && "one warp per 16 query rows");
  const tcgrad::DqLayout layout =
      tcgrad::dqLayout(tileDimQK, tileDimV, blockRows);
  const int64_t qOff = layout.queries, dOOff = layout.gradOutputs,
                kOff = layout.keys, vOff = layout.values;
  Value qS = view(qOff, {blockRows, strideQK}, elt);
  Value dOS = view(dOOff, {blockRows, strideV}, elt);
  Value kS = view(kOff, {2, kBlock, strideQK}, elt);
  Value vS = view(vOff, {2, kBlock, strideV}, elt);
  const int64_t kStepsD = tileDimQK / 16, kStepsDv = tileDimV / 16;
  const int64_t nTilesK = kBlock / 8, nTilesDQ = tileDimQK / 8;
  const bool keyGuard = !keyLen.isMultipleOf(kBlock);

  Value q0 = mul(qBlockIdx, blockRows);
  scf::IfOp live = enterLiveBlock([&] { return q0; }, queryLen);
  Value kvHead = divu(hIdx, group);
  GlobalRows qRows = queryRows(hIdx), kvRows = keyRows(kvHead);
  Value rowsInBlock =
      arith::MinSIOp::create(b, loc, idx(blockRows),
                             arith::SubIOp::create(b, loc, size(queryLen), q0));
  auto [first, last] = emitVisibleKeyBlocks(
      b, loc, mods, q0, rowsInBlock, size(queryLen), size(keyLen), kBlock);

  SmallVector<Value> tokens;
  copyTile(args.query, widthQK(), qRows, q0, queryLen, blockRows, qS,
           ValueRange{}, tokens);
  copyTile(args.gradOutput, widthV(), qRows, q0, queryLen, blockRows, dOS,
           ValueRange{}, tokens);
  auto tokenTy = nvgpu::DeviceAsyncTokenType::get(ctx);
  Value qGroup =
      nvgpu::DeviceAsyncCreateGroupOp::create(b, loc, tokenTy, tokens);
  auto issue = [&](Value kb, Value stage) {
    SmallVector<Value> ts;
    Value key0 = mul(kb, kBlock);
    copyTile(args.key, widthQK(), kvRows, key0, keyLen, kBlock, kS,
             ValueRange{stage}, ts);
    copyTile(args.value, widthV(), kvRows, key0, keyLen, kBlock, vS,
             ValueRange{stage}, ts);
    nvgpu::DeviceAsyncCreateGroupOp::create(b, loc, tokenTy, ts);
  };
  Value any =
      arith::CmpIOp::create(b, loc, arith::CmpIPredicate::slt, first, last);
  emitIf(any, [&] { issue(first, idx(0)); });
  emitWaitAllCopies(qGroup);

  // This thread's rows (C rows g, g + 8 of the warp's 16), clamped for reads.
  Value rowA = add(q0, add(mul(warp, 16), g));
  Value rows[2] = {rowA, add(rowA, 8)};
  Value rowsC[2] = {clampToLast(rows[0], queryLen),
                    clampToLast(rows[1], queryLen)};
  Value lse2[2], delta[2];
  for (int64_t r = 0; r < 2; ++r) {
    Value rowG = globalRow(qRows, rowsC[r]);
    lse2[r] = lseLog2(lseIndex(hIdx, rowsC[r]), lessThan(rows[r], queryLen));
    // The quad's four threads each take Dv / 4 columns of the row (whole
    // 8-column chunks: Dv a multiple of 32), else every fourth chunk.
    Value smemRow = add(mul(warp, 16), add(g, 8 * r));
    auto chunkTy = VectorType::get({8}, elt);
    auto loadDO = [&](Value col) -> Value {
      return vector::LoadOp::create(
          b, loc, chunkTy, dOS, ValueRange{smemRow, col},
          /*nontemporal=*/false, llvm::MaybeAlign(16));
    };
    Value dot = valueDim % 32 == 0 ? partialRowDot(rowG, mul(t4, valueDim / 4),
                                                   valueDim / 4, loadDO)
                                   : stridedRowDot(rowG, t4, 4, loadDO);
    dot = fadd(dot, shflXor(dot, 1));
    delta[r] = fadd(dot, shflXor(dot, 2));
  }

  // Q and dO A fragments of the warp's rows.
  Value qA = add(
      add(smemBase, qOff),
      add(aLaneOffset(strideQK), mul(mul(warp, 16 * strideQK), kOperandBytes)));
  Value dOA = add(
      add(smemBase, dOOff),
      add(aLaneOffset(strideV), mul(mul(warp, 16 * strideV), kOperandBytes)));
  // Both are re-read from shared memory at each use: keeping even the D = 64
  // fragments in registers pushed ptxas for sm_80 past 255 registers (it
  // hoists the K/V ldmatrix of a whole block ahead of the products).
  auto qFragAt = [&](int64_t ks) {
    return ldmatrix4(add(qA, ks * 16 * kOperandBytes), false);
  };
  auto dOFragAt = [&](int64_t ks) {
    return ldmatrix4(add(dOA, ks * 16 * kOperandBytes), false);
  };
  Value bOffQK = bLaneOffset(strideQK), bTOffQK = bTransLaneOffset(strideQK);
  Value bOffV = bLaneOffset(strideV);

  SmallVector<Value> init(4 * nTilesDQ, f32(0.0f));
  SmallVector<Value> loop =
      emitLoop(first, last, init, [&](Value kb, ValueRange state) {
        Value stage = remu(arith::SubIOp::create(b, loc, kb, first), 2);
        emitPrefetchingStepHead(qGroup, kb, stage, last, issue);
        Value kBase = add(add(smemBase, kOff), mul(stage, kTileBytes));
        Value vBase = add(add(smemBase, vOff), mul(stage, vTileBytes));
        Value k0 = mul(kb, kBlock);

        // S = Q Kᵀ.
        SmallVector<Frag> s(nTilesK,
                            Frag{f32(0.0f), f32(0.0f), f32(0.0f), f32(0.0f)});
        for (int64_t ks = 0; ks < kStepsD; ++ks)
          mmaAcrossPairs(qFragAt(ks), kBase, bOffQK, strideQK, ks, false, s);
        // P: element (nt, e) at query rows[e / 2], key k0 + 8nt + 2t + e % 2.
        Value keyT = add(k0, mul(t4, 2));
        auto probabilities = [&](bool masked) {
          SmallVector<Value> p;
          for (int64_t nt = 0; nt < nTilesK; ++nt)
            for (int64_t e = 0; e < 4; ++e)
              p.push_back(exp2(exponent(s[nt][e], bIdx, hIdx, rows[e / 2],
                                        add(keyT, 8 * nt + e % 2), lse2[e / 2],
                                        masked, masked && keyGuard)));
          return p;
        };
        Value needs = blockPairNeedsMask(mods, queryLen, keyLen, q0,
                                         rowsInBlock, k0, kBlock);
        SmallVector<Value> probs = needs
                                       ? emitUniformChoice(needs, probabilities)
                                       : probabilities(/*masked=*/false);
        // w = P (· softcap'): the raw scores die here (register budget).
        for (int64_t nt = 0; nt < nTilesK; ++nt)
          for (int64_t e = 0; e < 4; ++e)
            if (Value factor = emitSoftcapDerivative(b, loc, mods, s[nt][e]))
              probs[4 * nt + e] = fmul(probs[4 * nt + e], factor);

        // dP = dO Vᵀ.
        SmallVector<Frag> dP(nTilesK,
                             Frag{f32(0.0f), f32(0.0f), f32(0.0f), f32(0.0f)});
        for (int64_t ks = 0; ks < kStepsDv; ++ks)
          mmaAcrossPairs(dOFragAt(ks), vBase, bOffV, strideV, ks, false, dP);

        // dS = w (dP keep/(1-p) - D).
        for (int64_t nt = 0; nt < nTilesK; ++nt)
          for (int64_t e = 0; e < 4; ++e) {
            Value dpv = dP[nt][e];
            if (Value f = dropoutFactor(bIdx, hIdx, rows[e / 2],
                                        add(keyT, 8 * nt + e % 2)))
              dpv = fmul(dpv, f);
            dP[nt][e] = fmul(probs[4 * nt + e],
                             arith::SubFOp::create(b, loc, dpv, delta[e / 2]));
          }

        // dQ += dS K.
        SmallVector<Frag> dQ(nTilesDQ);
        for (int64_t nt = 0; nt < nTilesDQ; ++nt)
          for (int64_t e = 0; e < 4; ++e)
            dQ[nt][e] = state[4 * nt + e];
        for (int64_t kk = 0; kk < kBlock / 16; ++kk)
          mmaAcrossPairs(packA(dP, kk), kBase, bTOffQK, strideQK, kk, true, dQ);
        SmallVector<Value> nextState;
        for (const Frag &f : dQ)
          nextState.append(f.begin(), f.end());
        return nextState;
      });

  SmallVector<Frag> dQ(nTilesDQ);
  for (int64_t nt = 0; nt < nTilesDQ; ++nt)
    for (int64_t e = 0; e < 4; ++e)
      dQ[nt][e] = loop[4 * nt + e];
  storeFragments(dQ, mods.scale, args.gradQuery, qRows, add(q0, mul(warp, 16)),
                 queryLen, headDim);
  leaveLiveBlock(live);
  gpu::ReturnOp::create(b, loc);
}

} // namespace

void tcgrad::emitKernel(OpBuilder &b, gpu::GPUFuncOp func,
                        AttentionOpInterface op, const KernelSpec &spec) {
  GradEmitter emitter(b, op, spec);
  if (spec.stage == "prep")
    emitter.emitPrep(func);
  else if ((spec.stage == "dkdv" || spec.stage == "dkdv_dq") &&
           spec.warpgroupMma)
    emitter.emitKeyBlocksWarpgroup(func, spec.stage == "dkdv_dq");
  else if (spec.stage == "dkdv" || spec.stage == "dkdv_dq")
    emitter.emitKeyBlocks(func, spec.stage == "dkdv_dq");
  else if (spec.stage == "dq")
    emitter.emitDq(func);
  else
    emitter.emitDqConvert(func);
}
