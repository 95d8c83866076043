//===- AttentionGradKernelBuilder.cpp - attn.attention_grad as gpu.funcs --===//
//
// The first GPU mapping of the attention backward pass (CUDA cores, no
// tensor cores yet; correctness first). One attn.attention_grad becomes two
// kernels (docs/kernel-manifest.md, "Backward kernels"), both of which
// recompute the probabilities from Q, K and the saved lse
// (P = exp(s - lse), docs/semantics.md §13) and never materialize anything
// of size Lq x Lk:
//
//   attn_bwd_dkdv_<n>: grid = (ceil(Lk / Bc), Hkv, B); block = Bc * T threads
//     T threads own key row j of the block: k_j and v_j slices in f32
//     registers and the f32 accumulators dK_j, dV_j. For each of the G query
//     heads h of the kv head's group and each query block (of Br rows) that
//     the causal/window rules let see some key of the block
//     (emitVisibleQueryBlocks), the block stages Q (Br x D) in shared memory,
//     and, per row, dO (zeroed for rows without any allowed key), lse and
//     D_i = rowsum(dO_i * O_i) (computed here by the T threads of a row group
//     from dO and the given O). Then per query row i of the tile and key j:
//       raw  = q_i . k_j                      (T partial sums + xor shuffles)
//       p    = exp(emitModifiedScore(raw) - lse_i)   (0 when lse_i = -inf)
//       keep = Philox bit of (b, h, i, j), h the query head
//       dV_j += p * keep / (1 - p_drop) * dO_i
//       dP   = (dO_i . v_j) * keep / (1 - p_drop)
//       dS   = p * (dP - D_i) * (1 - tanh^2)   (softcap factor if any)
//       dK_j += dS * q_i
//     and finally dK_j *= scale; dK, dV are rounded to the element type and
//     stored (key rows past Lk are not stored).
//
//   attn_bwd_dq_<n>: grid = (ceil(Lq / Br), Hq, B); block = Br * T threads
//     T threads own query row i: q_i, dO_i in f32 registers, D_i and lse_i,
//     an f32 dQ_i accumulator. For each key block (of Bc keys) the rules
//     leave visible (emitVisibleKeyBlocks), K and V are staged in shared
//     memory; per key the same element math as above gives dS, and
//     dQ_i += dS * k_j. Finally dQ_i *= scale, rounded and stored.
//
// Thread mapping: head-dim element e of a row belongs to lane e % T of the
// row's T threads (slot e / T): the T lanes of a row read consecutive
// shared-memory words (no bank conflicts; rows of a warp read the same
// tile row, a broadcast). D and Dv are padded to multiples of T in registers
// and shared memory (zeros), so any head dim works. T is the smallest power
// of two (at most 32) that leaves at most kMaxPerThread elements of the
// widest head dim per thread, which bounds the registers: the dkdv thread
// holds 4 such arrays (k, v, dK, dV), the dq thread 3 (q, dO, dQ); ptxas
// reports 160-245 registers per thread and no spills (test/Target/PTX/
// ptxas-grad.mlir). Blocks have at most 256 threads so that ptxas may use
// that many (64 rows per block for T <= 4, fewer for wider heads), and the
// staged tiles are halved until they fit 48 KiB of static shared memory.
//
// Determinism: there are no atomics. Every element of grad_key/grad_value is
// accumulated by one thread of one dkdv block (over the group's query heads
// and the query rows, in a fixed order) and every element of grad_query by
// one thread of one dq block, so the results are bit-identical from run to
// run whether or not the op is `deterministic`. The price is that the dkdv
// and dq kernels each recompute Q K^T, dO V^T, P and the dropout bits.
//
// Score modifiers, recomputed probabilities, the softcap derivative and the
// dropout bits come from the emitters that the reference decomposition
// (AttentionGradDecomposition.cpp) uses (Utils/ScoreModifiers.h,
// Utils/Philox.h).
//
//===----------------------------------------------------------------------===//

#include "KernelArguments.h"
#include "KernelCommon.h"
#include "TensorCoreGradKernel.h"
#include "attnopt/Conversion/AttnToGPU/AttnToGPU.h"
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

#include <limits>

using namespace mlir;
using namespace mlir::attn;
using namespace mlir::attn::kernel;

namespace {

/// Elements of the widest head dim one thread holds (per register array).
constexpr int64_t kMaxPerThread = 32;
/// Threads per block at most: 256 threads leave ptxas up to 255 registers
/// per thread (64K registers per SM), which the 4 (dkdv) or 3 (dq) register
/// arrays of 32 elements plus the score math need; 512 threads would cap it
/// at 128 and spill. Wide head dims (T = 8, 16, 32) get fewer rows per block.
constexpr int64_t kMaxThreadsPerBlock = 256;
/// Static shared memory a kernel may use without opting in (48 KiB).
constexpr int64_t kSharedBudget = 48 * 1024;
/// Rows (keys or queries) per tile at most.
constexpr int64_t kTileRows = 64;

int64_t ceilDiv(int64_t a, int64_t b) { return (a + b - 1) / b; }
int64_t roundUp(int64_t a, int64_t b) { return ceilDiv(a, b) * b; }

/// Threads sharing one row's head dims (a power of two, <= 32).
int64_t gradThreadsPerRow(int64_t d, int64_t dv) {
  int64_t widest = std::max(d, dv), t = 1;
  while (t < 32 && ceilDiv(widest, t) > kMaxPerThread)
    t *= 2;
  return t;
}

/// Rows of a tile over a sequence of `len` rows: 64, or `len` rounded up to
/// 16 when shorter (64 for a run-time length).
int64_t tileRowsFor(int64_t len) {
  if (!isShortLength(len, kTileRows))
    return kTileRows;
  return std::max<int64_t>(16, roundUp(len, 16));
}

class GradEmitter : ScalarOps {
public:
  GradEmitter(OpBuilder &b, AttentionGradOp op, const KernelSpec &spec)
      : ScalarOps(b, op.getLoc()), op(op), spec(spec),
        mods(ScoreModifiers::get(op)),
        dropP(op.getDropoutP().convertToFloat()) {
    RankedTensorType q = op.getQueryType();
    heads = q.getDimSize(1);
    headDim = q.getDimSize(3);
    kvHeads = op.getKeyType().getDimSize(1);
    valueDim = op.getValueType().getDimSize(3);
    group = heads / kvHeads;
    elt = q.getElementType();
    t = spec.threadsPerRow;
    dPer = ceilDiv(headDim, t);
    dvPer = ceilDiv(valueDim, t);
  }

  void emitKeyValueKernel(gpu::GPUFuncOp func);
  void emitQueryKernel(gpu::GPUFuncOp func);

private:
  using LoopBody = function_ref<SmallVector<Value>(Value iv, ValueRange iter)>;

  /// scf.for with `init` iteration values; `body` returns what to yield.
  scf::ForOp forLoop(Value lb, Value ub, ValueRange init, LoopBody body) {
    return scf::ForOp::create(
        b, loc, lb, ub, idx(1), init,
        [&](OpBuilder &nb, Location, Value iv, ValueRange iter) {
          OpBuilder::InsertionGuard g(b);
          b.setInsertionPoint(nb.getInsertionBlock(), nb.getInsertionPoint());
          scf::YieldOp::create(b, loc, body(iv, iter));
        });
  }
  Value cmp(arith::CmpIPredicate pred, Value x, Value y) {
    return arith::CmpIOp::create(b, loc, pred, x, y);
  }
  Value select(Value c, Value x, Value y) {
    return arith::SelectOp::create(b, loc, c, x, y);
  }
  Value fmul(Value x, Value y) { return arith::MulFOp::create(b, loc, x, y); }
  /// x * y + z marked `contract`, which the NVPTX backend fuses into fma.rn.
  Value fmaC(Value x, Value y, Value z) {
    auto contract = arith::FastMathFlagsAttr::get(
        b.getContext(), arith::FastMathFlags::contract);
    Value p = arith::MulFOp::create(b, loc, x, y, contract);
    return arith::AddFOp::create(b, loc, p, z, contract);
  }
  Value zeroElt() {
    return arith::ConstantOp::create(b, loc, b.getZeroAttr(elt));
  }

  /// Element index of slot `slot` of this thread's lane (slot * T + lane).
  Value slotElement(int64_t slot) { return add(idx(slot * t), lane); }
  /// Whether slot `slot` of this lane is inside a head dim of `width`
  /// elements; null when it is for every lane.
  Value slotValid(int64_t slot, int64_t width) {
    if ((slot + 1) * t <= width)
      return Value();
    return cmp(arith::CmpIPredicate::slt, lane, idx(width - slot * t));
  }
  /// This lane's slots of the row at flat element `base` of `global` (rows
  /// of `width` elements), in the element type, zero in the padding.
  SmallVector<Value> loadSlice(Value global, Value base, int64_t width);
  /// Rounds `values` (times `scale` unless 1) to the element type and stores
  /// this lane's slots of the row at flat element `base`.
  void storeSlice(Value global, Value base, int64_t width,
                  ArrayRef<Value> values, float scale);
  /// sum over slots of regs[s] * shared[row][s * T + lane] (this lane's
  /// partial dot product; f32, in kDotChains interleaved chains).
  Value partialDot(ArrayRef<Value> regs, Value shared, Value row);
  /// Sum of `v` over the T lanes of a row (xor butterfly).
  Value laneSum(Value v);
  /// acc[s] += factor * shared[row][s * T + lane].
  SmallVector<Value> accumulate(ValueRange acc, Value factor, Value shared,
                                Value row);

  /// The per-element gradient math for (row, key): returns the dropped
  /// probability Pd (for dV) and dS (for dQ, dK; unscaled).
  std::pair<Value, Value> elementGradients(Value raw, Value dPd, Value lse,
                                           Value delta, Value bIdx, Value hIdx,
                                           Value row, Value key);

  AttentionGradOp op;
  const KernelSpec &spec;
  ScoreModifiers mods;
  float dropP;
  int64_t heads, headDim, kvHeads, valueDim, group;
  int64_t t, dPer, dvPer;
  Type elt;
  Value lane, mask, seed, offset;
  /// The batch and lengths (static, or the kernel's run-time arguments;
  /// RuntimeSizes.h), the lengths as index values, the mask's dimensions.
  KernelExtents sizes = {0, 0, 0};
  Value queryLen, keyLen;
  SmallVector<Extent, 4> maskDims;

  /// Unpacks the kernel's arguments at the entry and binds the sizes.
  GradKernelArguments unpackArguments(Block &entry);
};

GradKernelArguments GradEmitter::unpackArguments(Block &entry) {
  GradKernelArguments args = GradKernelArguments::unpack(entry, spec);
  mask = args.mask;
  seed = args.seed;
  offset = args.offset;
  sizes =
      KernelExtents::get(b, loc, op, args.batch, args.queryLen, args.keyLen);
  queryLen = sizes.queryLen.value(b, loc);
  keyLen = sizes.keyLen.value(b, loc);
  if (mask)
    maskDims = maskExtents(op.getMask().getType(), sizes);
  return args;
}

SmallVector<Value> GradEmitter::loadSlice(Value global, Value base,
                                          int64_t width) {
  SmallVector<Value> out;
  for (int64_t s = 0, e = ceilDiv(width, t); s < e; ++s) {
    Value element = slotElement(s);
    Value valid = slotValid(s, width);
    if (valid)
      element = arith::MinUIOp::create(b, loc, element, idx(width - 1));
    Value v = memref::LoadOp::create(b, loc, global, add(base, element));
    if (valid)
      v = select(valid, v, zeroElt());
    out.push_back(v);
  }
  return out;
}

void GradEmitter::storeSlice(Value global, Value base, int64_t width,
                             ArrayRef<Value> values, float scale) {
  for (auto [s, value] : llvm::enumerate(values)) {
    auto store = [&, s = s, value = value] {
      Value v = value;
      if (scale != 1.0f)
        v = fmul(v, f32(scale));
      if (!elt.isF32())
        v = arith::TruncFOp::create(b, loc, elt, v);
      memref::StoreOp::create(b, loc, v, global, add(base, slotElement(s)));
    };
    if (Value valid = slotValid(s, width))
      emitIf(valid, store);
    else
      store();
  }
}

Value GradEmitter::partialDot(ArrayRef<Value> regs, Value shared, Value row) {
  // Independent chains so that consecutive FMAs do not wait on each other.
  constexpr int64_t kDotChains = 4;
  int64_t chains = std::min<int64_t>(kDotChains, regs.size());
  SmallVector<Value> sums(chains, Value());
  for (auto [s, reg] : llvm::enumerate(regs)) {
    Value x = toF32(memref::LoadOp::create(b, loc, shared,
                                           ValueRange{row, slotElement(s)}));
    Value &sum = sums[s % chains];
    sum = sum ? fmaC(reg, x, sum) : fmul(reg, x);
  }
  Value total = sums[0];
  for (int64_t c = 1; c < chains; ++c)
    total = arith::AddFOp::create(b, loc, total, sums[c]);
  return total;
}

Value GradEmitter::laneSum(Value v) {
  for (int64_t s = 1; s < t; s *= 2) {
    auto shfl = gpu::ShuffleOp::create(b, loc, v, static_cast<int32_t>(s), 32,
                                       gpu::ShuffleMode::XOR);
    v = arith::AddFOp::create(b, loc, v, shfl.getShuffleResult());
  }
  return v;
}

SmallVector<Value> GradEmitter::accumulate(ValueRange acc, Value factor,
                                           Value shared, Value row) {
  SmallVector<Value> next;
  for (auto [s, a] : llvm::enumerate(acc)) {
    Value x = toF32(memref::LoadOp::create(b, loc, shared,
                                           ValueRange{row, slotElement(s)}));
    next.push_back(fmaC(factor, x, a));
  }
  return next;
}

std::pair<Value, Value> GradEmitter::elementGradients(Value raw, Value dPd,
                                                      Value lse, Value delta,
                                                      Value bIdx, Value hIdx,
                                                      Value row, Value key) {
  Value maskValue = mask ? emitMaskLoad(b, loc, mask, maskDims,
                                        mods.booleanMask, bIdx, hIdx, row, key)
                         : Value();
  Value s = emitModifiedScore(b, loc, mods, raw, maskValue, row, key, queryLen,
                              keyLen);
  Value p = emitRecomputedProbability(b, loc, s, lse);
  Value pd = p, dP = dPd;
  if (dropP > 0.0f) {
    DropoutPosition pos{bIdx, hIdx, row, key, idx(heads), queryLen};
    Value keep = emitDropoutKeep(b, loc, seed, offset, pos, dropP);
    Value r = f32(1.0f / (1.0f - dropP));
    pd = select(keep, fmul(p, r), f32(0.0f));
    dP = select(keep, fmul(dPd, r), f32(0.0f));
  }
  Value dS = fmul(p, arith::SubFOp::create(b, loc, dP, delta));
  if (Value factor = emitSoftcapDerivative(b, loc, mods, raw))
    dS = fmul(dS, factor);
  return {pd, dS};
}

//===----------------------------------------------------------------------===//
// dK, dV: one block per (key block, kv head, batch)
//===----------------------------------------------------------------------===//

void GradEmitter::emitKeyValueKernel(gpu::GPUFuncOp func) {
  Block &entry = func.getBody().front();
  b.setInsertionPointToStart(&entry);
  const int64_t blockKV = spec.blockKV, blockQ = spec.blockQ;
  const int64_t threads = spec.block[0];
  GradKernelArguments args = unpackArguments(entry);
  Value qShared = func.getWorkgroupAttributions()[0];
  Value doShared = func.getWorkgroupAttributions()[1];
  Value lseShared = func.getWorkgroupAttributions()[2];
  Value deltaShared = func.getWorkgroupAttributions()[3];

  Value tid = gpu::ThreadIdOp::create(b, loc, gpu::Dimension::x);
  Value kBlock = gpu::BlockIdOp::create(b, loc, gpu::Dimension::x);
  Value kvHead = gpu::BlockIdOp::create(b, loc, gpu::Dimension::y);
  Value bIdx = gpu::BlockIdOp::create(b, loc, gpu::Dimension::z);
  Value keyInBlock = arith::DivUIOp::create(b, loc, tid, idx(t));
  lane = arith::RemUIOp::create(b, loc, tid, idx(t));
  Value k0 = mul(kBlock, idx(blockKV));
  Value keyPos = add(k0, keyInBlock);
  Value keyValid = cmp(arith::CmpIPredicate::slt, keyPos, keyLen);
  // Threads of keys past Lk compute on the last key (nothing is stored).
  Value keyClamped = clampToLast(keyPos, keyLen);
  Value kvRow =
      add(mul(add(mul(bIdx, idx(kvHeads)), kvHead), keyLen), keyClamped);

  // This thread's slices of k_j and v_j, in f32 registers.
  SmallVector<Value> kRegs, vRegs;
  for (Value v : loadSlice(args.key, mul(kvRow, idx(headDim)), headDim))
    kRegs.push_back(toF32(v));
  for (Value v : loadSlice(args.value, mul(kvRow, idx(valueDim)), valueDim))
    vRegs.push_back(toF32(v));

  Value keysInBlock = arith::MinSIOp::create(
      b, loc, idx(blockKV), arith::SubIOp::create(b, loc, keyLen, k0));
  auto [firstBlock, lastBlock] = emitVisibleQueryBlocks(
      b, loc, mods, k0, keysInBlock, queryLen, keyLen, blockQ);

  // Accumulators: dK slots, then dV slots.
  SmallVector<Value> init(dPer + dvPer, f32(0.0f));
  const int64_t passes = ceilDiv(blockQ, blockKV);

  auto headLoop =
      forLoop(idx(0), idx(group), init, [&](Value g, ValueRange acc0) {
        Value hIdx = add(mul(kvHead, idx(group)), g);
        Value bh = add(mul(bIdx, idx(heads)), hIdx);
        Value rowBase = mul(bh, queryLen);
        auto blockLoop = forLoop(
            firstBlock, lastBlock, acc0, [&](Value qb, ValueRange acc1) {
              Value q0 = mul(qb, idx(blockQ));
              // The previous tile's readers are done.
              gpu::BarrierOp::create(b, loc);
              emitStageRows(b, loc, args.query, qShared, elt, blockQ, headDim,
                            dPer * t, rowBase, q0, sizes.queryLen, tid,
                            threads);
              // Row groups (T threads each; there are Bc of them) stage dO, lse
              // and D_i = dO_i . O_i of the tile's rows. Every thread runs
              // every pass (the shuffles need the whole warp); only stores are
              // predicated.
              for (int64_t pass = 0; pass < passes; ++pass) {
                Value r = add(keyInBlock, idx(pass * blockKV));
                bool partial = (pass + 1) * blockKV > blockQ;
                Value rIn = partial
                                ? cmp(arith::CmpIPredicate::slt, r, idx(blockQ))
                                : Value();
                Value rC = partial ? minS(r, blockQ - 1) : r;
                Value row = add(q0, rC);
                Value rowValid = cmp(arith::CmpIPredicate::slt, row, queryLen);
                Value rowLin = add(rowBase, clampToLast(row, queryLen));
                Value lse = memref::LoadOp::create(b, loc, args.lse, rowLin);
                Value live = arith::AndIOp::create(
                    b, loc, rowValid,
                    arith::CmpFOp::create(b, loc, arith::CmpFPredicate::ONE,
                                          lse, f32(kNegInf)));
                Value sliceBase = mul(rowLin, idx(valueDim));
                SmallVector<Value> dO =
                    loadSlice(args.gradOutput, sliceBase, valueDim);
                SmallVector<Value> o =
                    loadSlice(args.output, sliceBase, valueDim);
                Value partialSum = f32(0.0f);
                for (auto [x, y] : llvm::zip(dO, o))
                  partialSum = fmaC(toF32(x), toF32(y), partialSum);
                Value delta = laneSum(partialSum);
                auto stage = [&] {
                  for (auto [s, x] : llvm::enumerate(dO))
                    memref::StoreOp::create(b, loc, select(live, x, zeroElt()),
                                            doShared,
                                            ValueRange{rC, slotElement(s)});
                  auto rowValues = [&] {
                    memref::StoreOp::create(
                        b, loc, select(live, lse, f32(kNegInf)), lseShared, rC);
                    memref::StoreOp::create(b, loc,
                                            select(live, delta, f32(0.0f)),
                                            deltaShared, rC);
                  };
                  if (t > 1)
                    emitIf(cmp(arith::CmpIPredicate::eq, lane, idx(0)),
                           rowValues);
                  else
                    rowValues();
                };
                if (rIn)
                  emitIf(rIn, stage);
                else
                  stage();
              }
              gpu::BarrierOp::create(b, loc);

              Value rowsHere = arith::MinSIOp::create(
                  b, loc, idx(blockQ),
                  arith::SubIOp::create(b, loc, queryLen, q0));
              auto rowLoop =
                  forLoop(idx(0), rowsHere, acc1, [&](Value i, ValueRange acc) {
                    Value raw = laneSum(partialDot(kRegs, qShared, i));
                    Value dPd = laneSum(partialDot(vRegs, doShared, i));
                    Value lse = memref::LoadOp::create(b, loc, lseShared, i);
                    Value delta =
                        memref::LoadOp::create(b, loc, deltaShared, i);
                    auto [pd, dS] =
                        elementGradients(raw, dPd, lse, delta, bIdx, hIdx,
                                         add(q0, i), keyClamped);
                    SmallVector<Value> next =
                        accumulate(acc.take_front(dPer), dS, qShared, i);
                    llvm::append_range(next, accumulate(acc.drop_front(dPer),
                                                        pd, doShared, i));
                    return next;
                  });
              return SmallVector<Value>(rowLoop.getResults());
            });
        return SmallVector<Value>(blockLoop.getResults());
      });

  // Epilogue: dK = scale * sum dS q, dV = sum Pd dO, for keys inside Lk.
  emitIf(keyValid, [&] {
    ValueRange acc = headLoop.getResults();
    storeSlice(args.gradKey, mul(kvRow, idx(headDim)), headDim,
               SmallVector<Value>(acc.take_front(dPer)),
               op.getEffectiveScale());
    storeSlice(args.gradValue, mul(kvRow, idx(valueDim)), valueDim,
               SmallVector<Value>(acc.drop_front(dPer)), 1.0f);
  });
  gpu::ReturnOp::create(b, loc);
}

//===----------------------------------------------------------------------===//
// dQ: one block per (query block, query head, batch)
//===----------------------------------------------------------------------===//

void GradEmitter::emitQueryKernel(gpu::GPUFuncOp func) {
  Block &entry = func.getBody().front();
  b.setInsertionPointToStart(&entry);
  const int64_t blockKV = spec.blockKV, blockQ = spec.blockQ;
  const int64_t threads = spec.block[0];
  GradKernelArguments args = unpackArguments(entry);
  Value kShared = func.getWorkgroupAttributions()[0];
  Value vShared = func.getWorkgroupAttributions()[1];

  Value tid = gpu::ThreadIdOp::create(b, loc, gpu::Dimension::x);
  Value qBlock = gpu::BlockIdOp::create(b, loc, gpu::Dimension::x);
  Value hIdx = gpu::BlockIdOp::create(b, loc, gpu::Dimension::y);
  Value bIdx = gpu::BlockIdOp::create(b, loc, gpu::Dimension::z);
  Value rowInBlock = arith::DivUIOp::create(b, loc, tid, idx(t));
  lane = arith::RemUIOp::create(b, loc, tid, idx(t));
  Value q0 = mul(qBlock, idx(blockQ));
  Value row = add(q0, rowInBlock);
  Value rowValid = cmp(arith::CmpIPredicate::slt, row, queryLen);
  // Padding rows compute on the last row (their results are not stored).
  Value rowClamped = clampToLast(row, queryLen);
  Value kvHead = arith::DivUIOp::create(b, loc, hIdx, idx(group));
  Value kvBase = mul(add(mul(bIdx, idx(kvHeads)), kvHead), keyLen);
  Value rowLin =
      add(mul(add(mul(bIdx, idx(heads)), hIdx), queryLen), rowClamped);

  // q_i, dO_i (zero for a row without any allowed key), D_i and lse_i.
  SmallVector<Value> qRegs, doRegs;
  for (Value v : loadSlice(args.query, mul(rowLin, idx(headDim)), headDim))
    qRegs.push_back(toF32(v));
  Value lse = memref::LoadOp::create(b, loc, args.lse, rowLin);
  Value live = arith::CmpFOp::create(b, loc, arith::CmpFPredicate::ONE, lse,
                                     f32(kNegInf));
  Value outBase = mul(rowLin, idx(valueDim));
  SmallVector<Value> dO = loadSlice(args.gradOutput, outBase, valueDim);
  SmallVector<Value> o = loadSlice(args.output, outBase, valueDim);
  Value partialSum = f32(0.0f);
  for (auto [x, y] : llvm::zip(dO, o)) {
    Value xf = toF32(x);
    partialSum = fmaC(xf, toF32(y), partialSum);
    doRegs.push_back(select(live, xf, f32(0.0f)));
  }
  Value delta = select(live, laneSum(partialSum), f32(0.0f));

  Value rowsInBlock = arith::MinSIOp::create(
      b, loc, idx(blockQ), arith::SubIOp::create(b, loc, queryLen, q0));
  auto [firstBlock, lastBlock] = emitVisibleKeyBlocks(
      b, loc, mods, q0, rowsInBlock, queryLen, keyLen, blockKV);

  SmallVector<Value> init(dPer, f32(0.0f));
  auto blockLoop =
      forLoop(firstBlock, lastBlock, init, [&](Value kb, ValueRange acc0) {
        Value key0 = mul(kb, idx(blockKV));
        gpu::BarrierOp::create(b, loc);
        emitStageRows(b, loc, args.key, kShared, elt, blockKV, headDim,
                      dPer * t, kvBase, key0, sizes.keyLen, tid, threads);
        emitStageRows(b, loc, args.value, vShared, elt, blockKV, valueDim,
                      dvPer * t, kvBase, key0, sizes.keyLen, tid, threads);
        gpu::BarrierOp::create(b, loc);
        Value keysHere = arith::MinSIOp::create(
            b, loc, idx(blockKV), arith::SubIOp::create(b, loc, keyLen, key0));
        auto keyLoop =
            forLoop(idx(0), keysHere, acc0, [&](Value j, ValueRange acc) {
              Value raw = laneSum(partialDot(qRegs, kShared, j));
              Value dPd = laneSum(partialDot(doRegs, vShared, j));
              Value dS = elementGradients(raw, dPd, lse, delta, bIdx, hIdx,
                                          rowClamped, add(key0, j))
                             .second;
              return accumulate(acc, dS, kShared, j);
            });
        return SmallVector<Value>(keyLoop.getResults());
      });

  emitIf(rowValid, [&] {
    storeSlice(args.gradQuery, mul(rowLin, idx(headDim)), headDim,
               SmallVector<Value>(blockLoop.getResults()),
               op.getEffectiveScale());
  });
  gpu::ReturnOp::create(b, loc);
}

/// The operand or result of a gradient op (attn.attention_grad or
/// attn.varlen_attention_grad) a backward kernel parameter stands for.
template <typename GradOpT> Value gradParamValue(GradOpT op, StringRef name) {
  return llvm::StringSwitch<Value>(name)
      .Case("query", op.getQuery())
      .Case("key", op.getKey())
      .Case("value", op.getValue())
      .Case("output", op.getOutput())
      .Case("lse", op.getLse())
      .Case("grad_output", op.getGradOutput())
      .Case("mask", op.getMask())
      .Case("grad_query", op.getGradQuery())
      .Case("grad_key", op.getGradKey())
      .Case("grad_value", op.getGradValue())
      .Default(Value());
}

Value paramValue(AttentionOpInterface op, StringRef name) {
  if (auto packed = dyn_cast<VarlenAttentionGradOp>(op.getOperation())) {
    if (name == "cu_seqlens_q")
      return packed.getCuSeqlensQ();
    if (name == "cu_seqlens_k")
      return packed.getCuSeqlensK();
    return gradParamValue(packed, name);
  }
  return gradParamValue(cast<AttentionGradOp>(op.getOperation()), name);
}

/// Whether the gradient op asks for bit-reproducible gradients.
bool isDeterministic(AttentionOpInterface op) {
  if (auto packed = dyn_cast<VarlenAttentionGradOp>(op.getOperation()))
    return packed.getDeterministic();
  return cast<AttentionGradOp>(op.getOperation()).getDeterministic();
}

} // namespace

/// The backward ABI's parameters (docs/kernel-manifest.md): the inputs,
/// then `workspaces`, then `outputs`, then the run-time sizes.
static void addGradParams(AttentionOpInterface op, KernelSpec &spec,
                          ArrayRef<KernelParam> workspaces,
                          ArrayRef<StringRef> outputs) {
  SmallVector<StringRef, 8> inputs = {"query",  "key", "value",
                                      "output", "lse", "grad_output"};
  if (op.isPacked())
    inputs.append({"cu_seqlens_q", "cu_seqlens_k"});
  for (StringRef name : inputs)
    spec.params.push_back(tensorParam(name, paramValue(op, name), false));
  if (op.getMask())
    spec.params.push_back(tensorParam("mask", op.getMask(), false));
  if (op.getSeed()) {
    spec.params.push_back(scalarParam("seed"));
    spec.params.push_back(scalarParam("offset"));
  }
  spec.params.append(workspaces.begin(), workspaces.end());
  for (StringRef name : outputs)
    spec.params.push_back(tensorParam(name, paramValue(op, name), true));
  if (op.isPacked())
    appendPackedSizeParams(op, spec.params);
  else
    appendSizeParams(op, spec.params);
}

/// An f32 workspace of `shape`; `queryLenMultiple`: its dimension 2 is the
/// run-time query length rounded up to that (0: none).
static KernelParam workspaceParam(StringRef name, ArrayRef<int64_t> shape,
                                  int64_t queryLenMultiple) {
  KernelParam p;
  p.name = name.str();
  p.isWorkspace = true;
  p.dtype = "f32";
  p.shape.assign(shape.begin(), shape.end());
  p.queryLenMultiple = queryLenMultiple;
  return p;
}

/// The workspaces' query rows per head and the `query_len_multiple` of
/// their row dimension: Lq rounded up to whole query blocks, or for a
/// packed batch W = 4 ceil(Tq / 4) + 68 B (docs/kernel-manifest.md, "Packed
/// backward kernels"; dynamic where Tq or B is).
static std::pair<int64_t, int64_t> workspaceRows(AttentionOpInterface op) {
  if (op.isPacked()) {
    int64_t tokens = op.getQueryType().getDimSize(0), batch = packedBatch(op);
    if (ShapedType::isDynamic(tokens) || ShapedType::isDynamic(batch))
      return {ShapedType::kDynamic, 0};
    return {roundUp(tokens, 4) + 68 * batch, 0};
  }
  int64_t queryLen = op.getQueryType().getDimSize(2);
  if (ShapedType::isDynamic(queryLen))
    return {queryLen, tcgrad::kBlock};
  return {roundUp(queryLen, tcgrad::kBlock), 0};
}

/// The tensor-core group (TensorCoreGradKernelBuilder.cpp): 64 query rows
/// per block; the key-block kernel takes 64 or 128 keys (chooseKeyBlock, one
/// warp per 16), the kernels over query blocks have 4 warps; dynamic shared
/// memory. A prep kernel writes D_i and lse·log2(e) per query row (padded to
/// whole 64-row blocks, so the key-block kernel copies them with cp.async
/// like Q and dO). With the atomic dQ (GradDqMode::Atomic, or Auto on sm_90)
/// and an op without `deterministic`, the key-block kernel also adds dS K to
/// an f32 dQ accumulator with atomics (FlashAttention-2's five products per
/// block pair instead of seven) and a last kernel scales and converts it.
/// Fewer than 64 queries (decoding) keep the atomic-free kernels: one query
/// block makes the separate dq kernel cheap, and ptxas spills the fused
/// kernel there (ragged single block); so do head dims other than 64 and
/// 128 (tcgrad::hasAtomicDq), which also keep the mma.sync key-block kernel
/// (tcgrad::hasWarpgroupKeyBlock). A packed batch (grid x from its longest
/// sequence, z from its offsets) decides as a dense op whose lengths are
/// bounded by the token totals.
FailureOr<GradKernelSpecs>
tcgrad::describeKernels(AttentionOpInterface op, int64_t n,
                        const GradKernelOptions &options) {
  RankedTensorType q = op.getQueryType();
  const bool packed = op.isPacked();
  int64_t batch = packed ? packedBatch(op) : q.getDimSize(0),
          heads = q.getDimSize(1), queryLen = op.getUniformQueryLen(),
          headDim = op.getHeadDimSize();
  int64_t kvHeads = op.getKeyType().getDimSize(1),
          keyLen = op.getUniformKeyLen(), valueDim = op.getValueDimSize();
  const bool wantAtomics =
      options.dqMode == GradDqMode::Atomic ||
      (options.dqMode == GradDqMode::Auto && options.vectorReductions);
  const bool atomics = wantAtomics && !isDeterministic(op) &&
                       isLongLength(op.getQueryLenBound(), tcgrad::kBlock) &&
                       tcgrad::hasAtomicDq(headDim, valueDim);
  std::string why;
  std::optional<int64_t> keyBlock = tcgrad::chooseKeyBlock(
      options.keyBlock, atomics, headDim, valueDim, options.smVersion, why);
  if (!keyBlock)
    return op.emitOpError("GPU code generation: ") << why;
  const int64_t dqRows = tcgrad::dqRows(headDim, valueDim, options.smVersion);
  auto [rowsPerHead, multiple] = workspaceRows(op);
  SmallVector<int64_t, 4> rowsShape =
      packed ? SmallVector<int64_t, 4>{heads, rowsPerHead}
             : SmallVector<int64_t, 4>{batch, heads, rowsPerHead};
  SmallVector<int64_t, 4> accumShape = rowsShape;
  accumShape.push_back(headDim);
  KernelParam rowDot = workspaceParam("row_dot", rowsShape, multiple);
  KernelParam lseLog2 = workspaceParam("lse_log2", rowsShape, multiple);
  KernelParam dqAccum = workspaceParam("dq_accum", accumShape, multiple);

  // GradMma::Auto keeps mma.sync where the wgmma kernel spills.
  const bool wgmma =
      tcgrad::hasWarpgroupKeyBlock(headDim, valueDim) &&
      (options.mma == GradMma::Wgmma ||
       (options.mma == GradMma::Auto &&
        !(headDim == 128 && op.getDropoutP().convertToFloat() > 0.0f)));
  GradKernelSpecs specs;
  specs.deterministic = !atomics;
  auto add = [&](StringRef stage, std::array<int64_t, 3> grid,
                 ArrayRef<KernelParam> workspaces,
                 ArrayRef<StringRef> outputs) {
    KernelSpec spec;
    spec.name = ("attn_bwd_" + stage + "_" + Twine(n)).str();
    spec.group = "attn_bwd_" + std::to_string(n);
    spec.stage = stage.str();
    spec.source = sourceOf(op.getLoc());
    spec.tensorCores = true;
    spec.vectorReductions = options.vectorReductions;
    const bool keyBlockStage = stage == "dkdv" || stage == "dkdv_dq";
    spec.warpgroupMma = keyBlockStage && wgmma;
    // One warp per 16 keys (key-block kernels) or query rows (dq).
    spec.blockQ = stage == "dq" ? dqRows : tcgrad::kBlock;
    spec.blockKV = keyBlockStage ? *keyBlock : tcgrad::kBlock;
    spec.block = {keyBlockStage   ? 2 * *keyBlock
                  : stage == "dq" ? 2 * dqRows
                                  : tcgrad::kThreads,
                  1, 1};
    spec.grid = grid;
    if (stage == "dq")
      spec.grid[0] = gridBlocks(queryLen, dqRows);
    if (keyBlockStage && !spec.warpgroupMma) {
      spec.keyBlockParts = tcgrad::keyBlockParts(headDim, valueDim);
      spec.grid[0] *= spec.keyBlockParts;
    }
    spec.dynamicSharedBytes = tcgrad::sharedMemoryBytes(
        op, spec.stage, spec.blockQ, spec.blockKV, spec.warpgroupMma);
    addGradParams(op, spec, workspaces, outputs);
    specs.kernels.push_back(std::move(spec));
  };
  // 0 in a grid: computed at launch from a run-time size (a packed batch's
  // x from its longest sequence).
  const int64_t batchBlocks = gridBatch(batch);
  std::array<int64_t, 3> overQueries = {gridBlocks(queryLen, tcgrad::kBlock),
                                        heads, batchBlocks},
                         overKeys = {gridBlocks(keyLen, *keyBlock), kvHeads,
                                     batchBlocks};
  if (atomics) {
    add("prep", overQueries, {rowDot, lseLog2, dqAccum}, {});
    add("dkdv_dq", overKeys, {rowDot, lseLog2, dqAccum},
        {"grad_key", "grad_value"});
    add("dq_convert", overQueries, {dqAccum}, {"grad_query"});
  } else {
    add("prep", overQueries, {rowDot, lseLog2}, {});
    add("dkdv", overKeys, {rowDot, lseLog2}, {"grad_key", "grad_value"});
    add("dq", overQueries, {}, {"grad_query"});
  }
  // isEligible checked 64-key blocks; 128 asked for may not fit.
  const int64_t limit = maxDynamicSharedBytes(options.smVersion);
  for (const KernelSpec &spec : specs.kernels)
    if (spec.dynamicSharedBytes > limit)
      return op.emitOpError("GPU code generation: the ")
             << spec.stage << " kernel with " << spec.blockKV
             << " keys per block needs " << spec.dynamicSharedBytes
             << " bytes of shared memory at D = " << headDim
             << ", Dv = " << valueDim << ", more than the " << limit
             << " a block has (use 64 keys per block: grad-block-kv=64)";
  return specs;
}

/// The argument types of a backward kernel, in the order of its parameters.
static SmallVector<Type> gradArgumentTypes(OpBuilder &b,
                                           AttentionOpInterface op,
                                           const KernelSpec &spec) {
  SmallVector<Type> argTypes;
  for (const KernelParam &p : spec.params) {
    // The dQ accumulator is only reached through atomics (inline PTX),
    // which need its 64-bit address: a global pointer, not a memref (whose
    // aligned pointer is an index, 32 bits wide in 32-bit index mode).
    if (p.name == "dq_accum") {
      argTypes.push_back(LLVM::LLVMPointerType::get(b.getContext(), 1));
      continue;
    }
    Value v = paramValue(op, p.name);
    argTypes.push_back(flatArgumentType(
        b, p,
        v ? cast<ShapedType>(v.getType()).getElementType() : b.getF32Type()));
  }
  return argTypes;
}

void tcgrad::buildKernel(OpBuilder &b, gpu::GPUModuleOp module,
                         AttentionOpInterface op, const KernelSpec &spec) {
  OpBuilder::InsertionGuard guard(b);
  loadTensorCoreDialects(b.getContext()); // before the argument types
  gpu::GPUFuncOp func = createTensorCoreFunc(b, module, op.getLoc(), spec,
                                             gradArgumentTypes(b, op, spec));
  tcgrad::emitKernel(b, func, op, spec);
}

FailureOr<GradKernelSpecs>
mlir::attn::describeAttentionGradKernels(AttentionGradOp op, int64_t n,
                                         KernelChoice choice,
                                         GradKernelOptions options) {
  if (failed(checkKernelShapes(op)))
    return failure();
  RankedTensorType q = op.getQueryType();
  int64_t batch = q.getDimSize(0), heads = q.getDimSize(1),
          queryLen = q.getDimSize(2), headDim = q.getDimSize(3);
  int64_t kvHeads = op.getKeyType().getDimSize(1),
          keyLen = op.getKeyType().getDimSize(2),
          valueDim = op.getValueType().getDimSize(3);
  // Neither backward kernel reads a keep-mask tensor: reject rather than
  // drop the operand.
  if (op.getDropoutMask())
    return op.emitOpError(
        "GPU code generation: explicit dropout masks are not supported on "
        "the GPU yet (only the Philox dropout of rng(seed, offset))");

  std::string whyNot;
  bool tcOk = tcgrad::isEligible(op, options.smVersion, whyNot);
  if (choice == KernelChoice::TensorCore && !tcOk)
    return op.emitOpError(
               "GPU code generation: no tensor-core backward kernel: ")
           << whyNot;
  if (tcOk && choice != KernelChoice::CudaCore)
    return tcgrad::describeKernels(op, n, options);
  if (!tcOk && choice == KernelChoice::Auto)
    op.emitRemark("GPU code generation: CUDA-core backward kernels, no "
                  "tensor-core backward: ")
        << whyNot;

  const int64_t t = gradThreadsPerRow(headDim, valueDim);
  const int64_t eltBytes = q.getElementType().isF32() ? 4 : 2;
  // Bytes of one staged row: the padded head dims of Q and dO (dkdv) or of K
  // and V (dq).
  const int64_t rowBytes =
      (roundUp(headDim, t) + roundUp(valueDim, t)) * eltBytes;
  // The largest tile of at most `rows` rows that fits the shared budget
  // (`extra` more bytes per row).
  auto fitRows = [&](int64_t rows, int64_t extra) -> int64_t {
    while (rows > 1 && rows * (rowBytes + extra) > kSharedBudget)
      rows /= 2;
    return rows * (rowBytes + extra) > kSharedBudget ? 0 : rows;
  };

  GradKernelSpecs specs;
  specs.kernels.resize(2);
  std::string source = sourceOf(op.getLoc());
  for (KernelSpec &spec : specs.kernels) {
    spec.source = source;
    spec.group = "attn_bwd_" + std::to_string(n);
    spec.threadsPerRow = t;
  }

  // dkdv: Bc keys per block (one row group each), query tiles of Br rows
  // staged with their lse and D_i (8 bytes per row).
  KernelSpec &kv = specs.kernels[0];
  kv.name = "attn_bwd_dkdv_" + std::to_string(n);
  kv.stage = "dkdv";
  kv.blockKV = std::min(tileRowsFor(keyLen), kMaxThreadsPerBlock / t);
  kv.blockQ = fitRows(tileRowsFor(queryLen), 8);
  kv.block = {kv.blockKV * t, 1, 1};
  // 0 in a grid: computed at launch from a run-time size.
  const int64_t batchBlocks = gridBatch(batch);
  kv.grid = {gridBlocks(keyLen, kv.blockKV), kvHeads, batchBlocks};

  // dq: Br queries per block, key tiles of Bc rows.
  KernelSpec &qs = specs.kernels[1];
  qs.name = "attn_bwd_dq_" + std::to_string(n);
  qs.stage = "dq";
  qs.blockQ = std::min(tileRowsFor(queryLen), kMaxThreadsPerBlock / t);
  qs.blockKV = fitRows(tileRowsFor(keyLen), 0);
  qs.block = {qs.blockQ * t, 1, 1};
  qs.grid = {gridBlocks(queryLen, qs.blockQ), heads, batchBlocks};

  if (kv.blockQ == 0 || qs.blockKV == 0)
    return op.emitOpError("GPU code generation: head dims ")
           << headDim << " and " << valueDim
           << " need more than 48 KiB of shared memory for one staged row "
              "of the backward kernels";

  addGradParams(op, kv, {}, {"grad_key", "grad_value"});
  addGradParams(op, qs, {}, {"grad_query"});
  return specs;
}

LogicalResult
mlir::attn::buildAttentionGradKernels(OpBuilder &b, gpu::GPUModuleOp module,
                                      AttentionGradOp op,
                                      const GradKernelSpecs &specs) {
  MLIRContext *ctx = b.getContext();
  Type elt = op.getQueryType().getElementType();
  auto workgroup =
      gpu::AddressSpaceAttr::get(ctx, gpu::AddressSpace::Workgroup);
  auto sharedTile = [&](int64_t rows, int64_t width, Type type) {
    return MemRefType::get({rows, width}, type, AffineMap(), workgroup);
  };
  auto sharedVector = [&](int64_t rows) {
    return MemRefType::get({rows}, b.getF32Type(), AffineMap(), workgroup);
  };
  int64_t d = op.getQueryType().getDimSize(3),
          dv = op.getValueType().getDimSize(3);

  OpBuilder::InsertionGuard guard(b);
  for (const KernelSpec &specRef : specs.kernels) {
    const KernelSpec *spec = &specRef;
    if (spec->tensorCores) {
      tcgrad::buildKernel(b, module, op, *spec);
      continue;
    }
    b.setInsertionPointToEnd(module.getBody());
    SmallVector<Type> argTypes = gradArgumentTypes(b, op, *spec);
    const int64_t t = spec->threadsPerRow;
    const int64_t dPad = roundUp(d, t), dvPad = roundUp(dv, t);
    bool dkdv = spec->stage == "dkdv";
    SmallVector<Type> shared;
    if (dkdv)
      shared = {sharedTile(spec->blockQ, dPad, elt),
                sharedTile(spec->blockQ, dvPad, elt),
                sharedVector(spec->blockQ), sharedVector(spec->blockQ)};
    else
      shared = {sharedTile(spec->blockKV, dPad, elt),
                sharedTile(spec->blockKV, dvPad, elt)};
    auto func = gpu::GPUFuncOp::create(b, op.getLoc(), spec->name,
                                       b.getFunctionType(argTypes, {}), shared,
                                       TypeRange{});
    func->setAttr(gpu::GPUDialect::getKernelFuncAttrName(), b.getUnitAttr());
    func.setKnownBlockSizeAttr(
        b.getDenseI32ArrayAttr({static_cast<int32_t>(spec->block[0]), 1, 1}));
    GradEmitter emitter(b, op, *spec);
    if (dkdv)
      emitter.emitKeyValueKernel(func);
    else
      emitter.emitQueryKernel(func);
  }
  return success();
}

llvm::json::Object kernel::gradManifestFields(AttentionOpInterface op,
                                              const GradKernelSpecs &specs,
                                              const KernelSpec &spec,
                                              StringRef forwardKernel) {
  llvm::json::Object entry = manifestFields(op, spec);
  entry["stage"] = spec.stage;
  entry["group"] = spec.group;
  // What the kernels guarantee, which can be more than the op asked for: the
  // atomic-free kernels are bit-reproducible either way.
  entry["deterministic"] = specs.deterministic;
  entry["has_lse"] = false;
  if (!forwardKernel.empty())
    entry["forward"] = forwardKernel.str();
  return entry;
}

llvm::json::Object mlir::attn::kernelManifestEntry(AttentionGradOp op,
                                                   const GradKernelSpecs &specs,
                                                   const KernelSpec &spec,
                                                   StringRef forwardKernel) {
  llvm::json::Object entry = gradManifestFields(op, specs, spec, forwardKernel);
  entry["op"] = "attention_grad";
  return entry;
}
