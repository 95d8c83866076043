//===- TensorCoreGradKeyBlockWgmma.cpp - dkdv / dkdv_dq with wgmma --------===//
//
// The tensor-core backward's key-block kernel with wgmma (sm_90a,
// KernelSpec::warpgroupMma; TensorCoreGradEmitter.h): the steps of the
// mma.sync kernel (TensorCoreGradKeyBlock.cpp) with one warpgroup per 64
// keys, K, V, Q and dO in 128-byte swizzled tiles read through matrix
// descriptors, Pdᵀ and dSᵀ from registers, and in dkdv_dq dQ = dS K from the
// core-matrix dSᵀ tile. Any D and Dv multiples of 8 up to 256: tiles padded
// to whole panels (zero-filled); where D + Dv > 256 two blocks per key block
// split dV and dK (and dQ) between them.
//
// Warp-specialized (spec.tma, dense ops on sm_90a): a producer warpgroup
// in front of the consumers, one thread of which loads the key block's K
// and V with TMA, then each step's Q and dO tiles with TMA and its lse·log2(e)
// and D_i rows with bulk copies into a ring of two stages (full / empty
// mbarriers, as the forward's producer). The consumers meet only at the
// dSᵀ tile: one named barrier per step before dQ reads it (two dSᵀ tiles
// alternate, so none is needed before one is rewritten).
// They hold no copy addresses and never wait at a block barrier.
//
// dkdv_dq, both forms (spec.bulkDq, where the staging tile fits): each
// warpgroup stages its dQ columns in shared memory and its first thread adds
// them to dq_accum with bulk reductions (stageDqColumns, addStagedDq).
//
//===----------------------------------------------------------------------===//

#include "TensorCoreGradEmitter.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/NVGPU/IR/NVGPUDialect.h"
#include "mlir/Dialect/SCF/IR/SCF.h"

#include <algorithm>
#include <optional>

using namespace mlir;
using namespace mlir::attn;
using tcgrad::GradEmitter;

namespace {
/// The columns of dQ = dS K each warpgroup of a dkdv_dq block computes, as
/// (first column, width) chunks: D split at the 64-column panels of the K
/// tile (an MN-major SW128 operand cannot run across a panel's end), the
/// panels halved (in multiples of 16) until every warpgroup has one, then
/// dealt out widest first to the warpgroup with the fewest columns.
/// `uniformStride` where warpgroup w's chunks are warpgroup 0's shifted by
/// w * uniformStride (D = 64, 128; any D with one warpgroup): one
/// branch-free sequence.
struct DqColumnChunks {
  SmallVector<SmallVector<std::pair<int64_t, int64_t>, 2>, 2> perWarpgroup;
  std::optional<int64_t> uniformStride;
};
} // namespace

static DqColumnChunks dqColumnChunks(int64_t headDim, int64_t warpgroups) {
  SmallVector<std::pair<int64_t, int64_t>> pieces;
  for (int64_t c0 = 0; c0 < headDim; c0 += 64)
    pieces.push_back({c0, std::min<int64_t>(64, headDim - c0)});
  while (static_cast<int64_t>(pieces.size()) < warpgroups) {
    auto widest = std::max_element(
        pieces.begin(), pieces.end(),
        [](auto x, auto y) { return x.second < y.second; });
    if (widest->second < 32)
      break;
    const int64_t half = roundUp(widest->second / 2, 16);
    const std::pair<int64_t, int64_t> rest = {widest->first + half,
                                              widest->second - half};
    widest->second = half;
    pieces.insert(widest + 1, rest);
  }
  DqColumnChunks chunks;
  chunks.perWarpgroup.resize(warpgroups);
  SmallVector<int64_t> load(warpgroups, 0);
  SmallVector<std::pair<int64_t, int64_t>> byWidth = pieces;
  std::stable_sort(byWidth.begin(), byWidth.end(),
                   [](auto x, auto y) { return x.second > y.second; });
  for (auto piece : byWidth) {
    const int64_t w = std::min_element(load.begin(), load.end()) - load.begin();
    chunks.perWarpgroup[w].push_back(piece);
    load[w] += piece.second;
  }
  for (auto &list : chunks.perWarpgroup)
    llvm::sort(list);
  // Uniform: same widths, offsets shifted by one stride per warpgroup.
  const auto &first = chunks.perWarpgroup.front();
  if (warpgroups == 1) { // wg is 0: the whole width, as before the split
    chunks.uniformStride = headDim;
    return chunks;
  }
  if (chunks.perWarpgroup[1].empty())
    return chunks;
  const int64_t stride =
      chunks.perWarpgroup[1].front().first - first.front().first;
  bool uniform = true;
  for (int64_t w = 1; uniform && w < warpgroups; ++w) {
    const auto &list = chunks.perWarpgroup[w];
    uniform = list.size() == first.size();
    for (size_t i = 0; uniform && i < list.size(); ++i)
      uniform = list[i].second == first[i].second &&
                list[i].first == first[i].first + w * stride;
  }
  if (uniform)
    chunks.uniformStride = stride;
  return chunks;
}

void GradEmitter::emitKeyBlocksWarpgroup(gpu::GPUFuncOp func, bool withDq) {
  tensorCoresReadShared = true;
  packedF16Convert = true;
  Value blockX = setUp(func);
  Value kvHead = gpu::BlockIdOp::create(b, loc, gpu::Dimension::y);
  const int64_t parts = spec.keyBlockParts;
  scf::IfOp live = enterLiveBlock(
      [&] {
        return mul(parts == 1 ? blockX : divu(blockX, parts), spec.blockKV);
      },
      keyLen);
  // K, V, Q and dO in SW128 tiles (MmaEmitterBase.h) from the first
  // 1024-byte boundary on.
  Value aligned = alignForSwizzle128(smemBase);
  viewShift = arith::SubIOp::create(b, loc, aligned, smemBase);
  smemBase = aligned;
  auto consumers = [&] {
    if (spec.headSplit) {
      emitKeyBlockHeadSplit(blockX, kvHead, withDq);
      return;
    }
    emitKeyBlockParts(blockX, withDq,
                      [&](Value kBlockIdx, bool dq, KeyBlockProducts products) {
                        emitKeyBlockWarpgroup(kBlockIdx, kvHead, dq, products);
                      });
  };
  if (!spec.tma) {
    consumers();
    leaveLiveBlock(live);
    gpu::ReturnOp::create(b, loc);
    return;
  }
  // Warp-specialized: thread 0 initialises the mbarriers (the full ones
  // complete on the producer thread's arrival and its copies' bytes, the
  // empty ones on every consumer thread's arrival), then one branch per
  // role, so that ptxas applies each setmaxnreg to its warpgroups.
  const int64_t consumerThreads = spec.block[0] - kProducerWarpgroupThreads;
  Value threadId = tid;
  emitIf(cmp(arith::CmpIPredicate::eq, threadId, idx(0)), [&] {
    MbarrierRing ring = queryRing();
    mbarrierInit(keyValueFull(), 1);
    for (int64_t st = 0; st < spec.queryStages; ++st) {
      ring.initFull(st, 1);
      ring.initEmpty(st, consumerThreads);
    }
  });
  gpu::BarrierOp::create(b, loc);
  auto roles = scf::IfOp::create(b, loc, TypeRange{},
                                 ltC(threadId, kProducerWarpgroupThreads),
                                 /*withElseRegion=*/true);
  // The producer needs few registers (one thread issues every copy), the
  // consumers' dK and dV accumulators beside the step's products many:
  // 24 / 240 with two consumer warpgroups (at 128 keys), no rebalancing
  // with one (255 registers each at entry).
  const RegisterBudgets budgets =
      registerBudgets(spec.block[0], consumerThreads, 1, /*producer=*/24);
  // A packed batch's offsets are read again in each role's branch: ptxas
  // (13) spills a value that is loaded before setmaxnreg and used after it
  // (the key block's first token and length: 8 bytes at D = 128); reading
  // them again is two loads per role and block.
  auto enterRole = [&](Block *branch, int64_t registers, bool increase) {
    b.setInsertionPoint(branch->getTerminator());
    if (budgets.rebalance())
      setMaxRegisters(registers, increase);
    if (packed)
      bindPackedSequence();
  };
  enterRole(roles.thenBlock(), budgets.producer, /*increase=*/false);
  emitKeyBlockParts(blockX, withDq,
                    [&](Value kBlockIdx, bool, KeyBlockProducts products) {
                      emitKeyBlockLoads(kBlockIdx, kvHead, products);
                    });
  enterRole(roles.elseBlock(), budgets.consumers, /*increase=*/true);
  tid = arith::SubIOp::create(b, loc, threadId, idx(kProducerWarpgroupThreads));
  threads = consumerThreads;
  setThreadCoordinates();
  consumers();
  b.setInsertionPointAfter(roles);
  leaveLiveBlock(live);
  gpu::ReturnOp::create(b, loc);
}

void GradEmitter::emitKeyBlockLoads(Value kBlockIdx, Value kvHead,
                                    KeyBlockProducts products) {
  const int64_t keyBlock = spec.blockKV;
  const KeyBlockLayout layout = warpSpecializedLayout();
  const int64_t colsQK = tcgrad::panelDim(headDim),
                colsV = tcgrad::panelDim(valueDim);
  const int64_t qTile = kBlock * colsQK * kOperandBytes,
                dOTile = kBlock * colsV * kOperandBytes, rowBytes = kBlock * 4;
  // V only for dPᵀ (not in the split kernel's dV block).
  const bool values = products != KeyBlockProducts::ValueOnly;
  KeyBlockSchedule sched = scheduleKeyBlock(kBlockIdx, kvHead, keyBlock);
  Value loads = arith::AndIOp::create(
      b, loc, cmp(arith::CmpIPredicate::sgt, sched.total, idx(0)),
      cmp(arith::CmpIPredicate::eq, tid, idx(0)));
  emitIf(loads, [&] {
    Value kvFull = keyValueFull();
    mbarrierArriveExpectTx(kvFull, keyBlock * (colsQK + (values ? colsV : 0)) *
                                       kOperandBytes);
    // A packed batch's key rows past the sequence (the next one's) are
    // masked as keys past the length are; its query rows past the length
    // have lse +inf in lse_log2 (prep), so their P and dS are 0.
    SmallVector<Value, 3> keyRows =
        tmaRowCoordinates(sched.k0, kvHead, bIdx, kToken0);
    tmaSwizzledTile(add(smemBase, layout.keys), args.keyMap, keyRows, keyBlock,
                    colsQK, kvFull);
    if (values)
      tmaSwizzledTile(add(smemBase, layout.values), args.valueMap, keyRows,
                      keyBlock, colsV, kvFull);
    MbarrierRing ring = queryRing();
    emitLoop(idx(0), sched.total, ValueRange{},
             [&](Value it, ValueRange) -> SmallVector<Value> {
               auto [stage, round] = ring.slot(it);
               ring.acquire(stage, round);
               Value full = ring.full(stage);
               mbarrierArriveExpectTx(full, qTile + dOTile + 2 * rowBytes);
               Value h = headOf(sched, it), q0 = queryBlockStart(sched, it);
               SmallVector<Value, 3> queryRows =
                   tmaRowCoordinates(q0, h, bIdx, qToken0);
               tmaSwizzledTile(
                   add(add(smemBase, layout.queries), mul(stage, qTile)),
                   args.queryMap, queryRows, kBlock, colsQK, full);
               tmaSwizzledTile(
                   add(add(smemBase, layout.gradOutputs), mul(stage, dOTile)),
                   args.gradOutputMap, queryRows, kBlock, colsV, full);
               // The staged rows: 64 f32 of the workspaces, padded to whole
               // blocks by prep (16-byte aligned, 256 bytes).
               Value row = arith::IndexCastUIOp::create(b, loc, b.getI64Type(),
                                                        paddedRow(h, q0));
               for (auto [src, off] : {std::pair{args.lseLog2, layout.lse},
                                       std::pair{args.rowDot, layout.delta}})
                 bulkCopyToShared(add(add(smemBase, off), mul(stage, rowBytes)),
                                  LLVM::GEPOp::create(b, loc, src.getType(),
                                                      b.getF32Type(), src,
                                                      ValueRange{row}),
                                  rowBytes, full);
               return {};
             });
  });
}

void GradEmitter::emitKeyBlockWarpgroup(Value kBlockIdx, Value kvHead,
                                        bool withDq,
                                        KeyBlockProducts products) {
  const bool wantDK = products != KeyBlockProducts::ValueOnly,
             wantDV = products != KeyBlockProducts::KeyOnly;
  // One warpgroup per 64 keys; warp w still owns keys [16w, 16w + 16) (the
  // rows of a wgmma accumulator that warp w % 4 of its warpgroup holds), so
  // every C fragment has the mma.sync layout of emitKeyBlocks.
  const int64_t keyBlock = spec.blockKV;
  const int64_t warpgroups = keyBlock / 64;
  const bool ws = spec.tma; // warp-specialized: the loads are the producer's
  assert(keyBlock % 64 == 0 && threads == 2 * keyBlock &&
         tcgrad::hasWarpgroupKeyBlock(headDim, valueDim) &&
         "one (consumer) warpgroup per 64 keys");
  // Tiles of whole panels (zero-filled past D or Dv); the dSᵀ tile in the
  // core-matrix layout.
  const TileRowWidth widthQK{headDim, tcgrad::panelDim(headDim)},
      widthV{valueDim, tcgrad::panelDim(valueDim)};
  const int64_t qTile = kBlock * widthQK.tileCols * kOperandBytes,
                dOTile = kBlock * widthV.tileCols * kOperandBytes;
  const tcgrad::KeyBlockLayout layout =
      tcgrad::keyBlockLayout(headDim, valueDim, keyBlock, withDq,
                             /*warpgroupMma=*/true, ws);
  const int64_t kOff = layout.keys, vOff = layout.values, qOff = layout.queries,
                dOOff = layout.gradOutputs, lseOff = layout.lse,
                deltaOff = layout.delta, dsOff = layout.dsT;
  Value tiles = view(0, {lseOff / kOperandBytes}, elt);
  Value lseS = view(lseOff, {spec.queryStages, kBlock}, b.getF32Type());
  Value deltaS = view(deltaOff, {spec.queryStages, kBlock}, b.getF32Type());
  // dSᵀ [keyBlock][64 queries] in the core-matrix layout, as i32 pairs
  // (layout.dsBuffers of them, alternating by step).
  const int64_t dsPairs = keyBlock * kBlock / 2;
  Value dsS = withDq ? view(dsOff, {layout.dsBuffers * dsPairs}, b.getI32Type())
                     : Value();
  // The bulk dQ (spec.bulkDq): the f32 staging tile, whose reductions each
  // warpgroup's first thread issues (and waits for).
  const BulkDqStaging bulk = bulkDqStaging(layout, withDq);
  const std::optional<int64_t> staging = bulk.offset;
  Value stagingLeader = bulk.leader;

  KeyBlockSchedule sched = scheduleKeyBlock(kBlockIdx, kvHead, keyBlock);
  Value k0 = sched.k0, total = sched.total;
  GlobalRows kvRows = sched.kvRows;
  Value any =
      arith::CmpIOp::create(b, loc, arith::CmpIPredicate::sgt, total, idx(0));

  SmallVector<Value> tokens;
  Value kvGroup;
  if (ws) {
    emitIf(any, [&] { mbarrierWait(keyValueFull(), idx(0)); });
  } else {
    copyTileSwizzled128(args.key, widthQK, kvRows, k0, keyLen, keyBlock, tiles,
                        idx(kOff / kOperandBytes), tokens);
    if (wantDK) // V only for dPᵀ.
      copyTileSwizzled128(args.value, widthV, kvRows, k0, keyLen, keyBlock,
                          tiles, idx(vOff / kOperandBytes), tokens);
    kvGroup = commitCopies(tokens);
  }
  auto issue = [&](Value it, Value stage) {
    SmallVector<Value> ts;
    Value h = headOf(sched, it);
    GlobalRows base = queryRows(h);
    Value q0 = queryBlockStart(sched, it);
    copyTileSwizzled128(
        args.query, widthQK, base, q0, queryLen, kBlock, tiles,
        add(mul(stage, qTile / kOperandBytes), qOff / kOperandBytes), ts);
    copyTileSwizzled128(
        args.gradOutput, widthV, base, q0, queryLen, kBlock, tiles,
        add(mul(stage, dOTile / kOperandBytes), dOOff / kOperandBytes), ts);
    copyStagedRows(h, q0, stage, lseS, deltaS);
    commitCopies(ts);
  };
  if (!ws) {
    emitIf(any, [&] { issue(idx(0), idx(0)); });
    emitWaitAllCopies(kvGroup);
  }

  Value wg = divu(warp, 4);
  // The warpgroup's 64 rows of K and V (in every panel).
  Value kRows = add(add(smemBase, kOff), mul(wg, 64 * 128));
  Value vRows = add(add(smemBase, vOff), mul(wg, 64 * 128));
  Value keyA = add(k0, add(mul(warp, 16), g));
  std::array<Value, 2> keys = {keyA, add(keyA, 8)};

  // C = rows x Qᵀ-like product over `dim` (A: 64 rows at `rows` of a key
  // tile, B: the stage tile at `cols`), both K-major: Sᵀ = K Qᵀ over D and
  // dPᵀ = V dOᵀ over Dv (the k-steps of the real columns only: up to
  // `dim` rounded up to 16, whose last 8 columns, where dim is an odd
  // multiple of 8, are the tiles' zero-filled padding).
  auto productOverHeadDim = [&](Value rows, Value cols, int64_t dim) {
    SmallVector<Value> acc = freshAccumulators(kBlock / 2);
    wgmmaAccumulates = false;
    for (int64_t ks = 0; ks < roundUp(dim, 16) / 16; ++ks)
      acc =
          wgmmaSharedA(swizzledKMajorDescriptor(rows, keyBlock, ks), false,
                       swizzledKMajorDescriptor(cols, kBlock, ks), false, acc);
    return acc;
  };
  // acc += Aᵀ-fragments x (stage tile, MN-major): dV += Pdᵀ dO, dK += dSᵀ Q,
  // acc.size() * 2 (Dv or D) columns wide.
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

  // f32 per thread of the 64 x D (dK) and 64 x Dv (dV) products.
  const int64_t accs = wantDK ? headDim / 2 : 0,
                accsV = wantDV ? valueDim / 2 : 0;
  SmallVector<Value> init(accs + accsV, f32(0.0f));
  SmallVector<Value> loop =
      emitLoop(idx(0), total, init, [&](Value it, ValueRange state) {
        KeyStep step;
        MbarrierRing ring = queryRing();
        if (ws) {
          auto [stage, round] = ring.slot(it);
          ring.wait(stage, round);
          step = keyStepAt(invariant, sched, it, stage);
        } else {
          step = beginKeyStep(invariant, sched, it, kvGroup, total, issue);
        }
        Value qBase = add(add(smemBase, qOff), mul(step.stage, qTile));
        Value dOBase = add(add(smemBase, dOOff), mul(step.stage, dOTile));
        SmallVector<Value> dK(state.begin(), state.begin() + accs),
            dV(state.begin() + accs, state.end());

        // Sᵀ = K Qᵀ; where dK and dV take at most 64 registers dPᵀ = V
        // dOᵀ is issued with it and runs while Pᵀ is recomputed (with
        // D = Dv = 128 the two accumulators on top of dK and dV would
        // spill).
        const bool overlapDp = wantDK && accs + accsV <= 64;
        wgmmaFence();
        SmallVector<Value> sAcc = productOverHeadDim(kRows, qBase, headDim),
                           dPAcc;
        wgmmaCommit();
        if (overlapDp) {
          dPAcc = productOverHeadDim(vRows, dOBase, valueDim);
          wgmmaCommit();
        }
        // The dropout draw (integer work on positions only) runs while the
        // tensor cores compute Sᵀ.
        Value keepBits = keyRowKeepBits(step, kBlock / 8);
        wgmmaWait(overlapDp ? 1 : 0);
        Probabilities pr =
            recomputeProbabilities(step, groupFragments(sAcc), keepBits);
        SmallVector<std::array<Value, 4>> pdA;
        for (int64_t kk = 0; wantDV && kk < kBlock / 16; ++kk)
          pdA.push_back(packA(pr.pd, kk));

        // dPᵀ (no overlap), then dV += Pdᵀ dO. With the overlap dV runs
        // while dSᵀ is formed; without it the Pdᵀ fragments it holds would
        // spill.
        // Warp-specialized (240 registers a consumer thread, not 255): dV
        // completes before dPᵀ is issued, so that the Pdᵀ fragments are
        // free before the dPᵀ accumulators are live.
        const bool dVFirst = ws && wantDK && wantDV && !overlapDp;
        wgmmaFence();
        if (dVFirst) {
          dV = productOverQueries(pdA, dOBase, dV);
          wgmmaCommitAndWait(0);
          wgmmaFence();
        }
        if (wantDK && !overlapDp) {
          dPAcc = productOverHeadDim(vRows, dOBase, valueDim);
          wgmmaCommit();
        }
        if (wantDV && !dVFirst) {
          dV = productOverQueries(pdA, dOBase, dV);
          wgmmaCommit();
        }
        if (!wantDK) { // dV completes at the step's last wait.
          wgmmaWait(0);
          if (ws)
            ring.release(step.stage);
          return dV;
        }
        wgmmaWait(wantDV && overlapDp ? 1 : 0);

        SmallVector<Frag> dP = groupFragments(dPAcc);
        scoreGradients(step, pr, dP);
        SmallVector<std::array<Value, 4>> dsA;
        for (int64_t kk = 0; kk < kBlock / 16; ++kk)
          dsA.push_back(packA(dP, kk));
        // The dSᵀ tile of this step (warp-specialized: the other
        // warpgroup may still read the previous step's for its dQ).
        Value dsBuffer = layout.dsBuffers > 1 ? remu(it, 2) : idx(0);
        if (withDq) {
          // dSᵀ to shared memory: pair (key, 2 pairs) of A fragment i of
          // k-step kk at key 16w + g + 8 (i % 2), queries 16 kk + 2 t4 +
          // 8 (i / 2) (coreMatrixOffset / 4).
          Value first = mul(dsBuffer, dsPairs);
          for (int64_t kk = 0; kk < kBlock / 16; ++kk)
            for (int64_t i = 0; i < 4; ++i) {
              Value at = add(
                  add(mul(add(mul(warp, 2), i % 2), 256), add(mul(g, 4), t4)),
                  (2 * kk + i / 2) * 32);
              memref::StoreOp::create(b, loc, dsA[kk][i], dsS,
                                      ValueRange{add(first, at)});
            }
          fenceProxyAsync();
        }
        // dK += dSᵀ Q.
        wgmmaFence();
        dK = productOverQueries(dsA, qBase, dK);
        wgmmaCommit();
        if (withDq) {
          // Bulk dQ: the previous step's reductions have read the staging
          // tile before anyone passes the barrier and rewrites it.
          if (staging)
            emitIf(stagingLeader,
                   [&] { bulkWaitGroup(0, /*readsOnly=*/true); });
          if (ws)
            namedBarrier(NamedBarrier::ScoresWritten, nullptr, threads);
          else
            gpu::BarrierOp::create(b, loc);
          // dQ (64 queries x D) = dS K over the block's keys, in the column
          // chunks of dqColumnChunks.
          // A = dS from the [key][query] core-matrix tile and B = K from
          // the [key][D] SW128 tile (columns col0.. of their panel), both
          // MN-major.
          Value dsBase = add(add(smemBase, dsOff), mul(dsBuffer, dsPairs * 4));
          auto dqChunk = [&](Value col0, int64_t width) {
            Value kCols = add(add(smemBase, kOff),
                              add(mul(divu(col0, 64), 128 * keyBlock),
                                  mul(remu(col0, 64), kOperandBytes)));
            SmallVector<Value> acc = freshAccumulators(width / 2);
            wgmmaFence();
            wgmmaAccumulates = false;
            for (int64_t kk = 0; kk < keyBlock / 16; ++kk)
              acc = wgmmaSharedA(
                  mnMajorDescriptor(add(dsBase, 2 * kk * 16 * kBlock), kBlock),
                  true, swizzledMnMajorDescriptor(kCols, keyBlock, kk), true,
                  acc);
            wgmmaCommitAndWait(0);
            if (staging)
              stageDqColumns(*staging, groupFragments(acc), col0);
            else
              addToDqAccum(
                  groupFragments(acc), 1,
                  add(paddedRow(step.hIdx, step.q0), mul(remu(warp, 4), 16)),
                  col0);
          };
          // A warpgroup's chunks (first column, width), then with the bulk
          // dQ their reductions once all of its threads have staged them.
          auto dqChunks = [&](Value wgIdx,
                              ArrayRef<std::pair<Value, int64_t>> list) {
            for (auto [c0, width] : list)
              dqChunk(c0, width);
            if (staging)
              addStagedDq(*staging, wgIdx, stagingLeader,
                          paddedRow(step.hIdx, step.q0), list);
          };
          const DqColumnChunks chunks = dqColumnChunks(headDim, warpgroups);
          if (chunks.uniformStride) {
            // Every warpgroup's chunks are the first one's, shifted.
            SmallVector<std::pair<Value, int64_t>> list;
            for (auto [c0, width] : chunks.perWarpgroup.front())
              list.push_back({add(mul(wg, *chunks.uniformStride), c0), width});
            dqChunks(wg, list);
          } else {
            for (int64_t w = 0; w < warpgroups; ++w) {
              if (chunks.perWarpgroup[w].empty())
                continue;
              Value mine = arith::CmpIOp::create(
                  b, loc, arith::CmpIPredicate::eq, wg, idx(w));
              emitIf(mine, [&] {
                SmallVector<std::pair<Value, int64_t>> list;
                for (auto [c0, width] : chunks.perWarpgroup[w])
                  list.push_back({idx(c0), width});
                dqChunks(idx(w), list);
              });
            }
          }
        }
        wgmmaWait(0);
        if (ws)
          ring.release(step.stage);
        SmallVector<Value> next = dK;
        next.append(dV.begin(), dV.end());
        return next;
      });

  // The bulk dQ's last reductions finish before the block exits.
  if (staging)
    emitIf(stagingLeader, [&] { bulkWaitGroup(0, /*readsOnly=*/false); });

  ArrayRef<Value> results = loop;
  storeKeyBlockGradients(groupFragments(results.take_front(accs)),
                         groupFragments(results.drop_front(accs)), wantDK,
                         wantDV, kvRows, k0);
}
