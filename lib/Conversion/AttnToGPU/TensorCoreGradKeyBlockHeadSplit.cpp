//===- TensorCoreGradKeyBlockHeadSplit.cpp - dkdv(_dq), head dims split ---===//
//
// The warp-specialized wgmma key-block kernel for D + Dv > 256 with its two
// consumer warpgroups sharing one 64-key block (KernelSpec::headSplit;
// FlashAttention-3's backward at large head dims). One warpgroup's
// registers cannot hold a 64-key block's dK and dV (64 x (D + Dv) f32, 256
// a thread at D = Dv = 256), which the other form answers with two blocks
// per key block that each recompute Sᵀ, and a dq kernel that recomputes S
// and dP again (8 products per block pair). Here, per step:
//
//   warpgroup w:  Sᵀ and dPᵀ of the block's 64 keys and its 32 queries
//                 [32 w, 32 w + 32) (N = 32, over D and Dv), Pdᵀ and dSᵀ
//                 from them in registers, both written to shared memory
//                 (SW128 [64 keys][64 queries] tiles, one per step parity);
//   both:         one named barrier;
//   warpgroup w:  dV[:, cols_w] += Pdᵀ dO[:, cols_w],
//                 dK[:, cols_w] += dSᵀ Q[:, cols_w] (A from the shared
//                 tiles, K-major), and with dQ, dQ[:, cols_w] = dS K[:,
//                 cols_w] (A the dSᵀ tile read MN-major), added to dq_accum
//                 with bulk reductions where the staging tile fits, else
//                 per-thread reductions.
//
// Five products per step and no recomputation; a thread holds half of dK
// and dV (64 + 64 accumulators at D = Dv = 256) and 16 + 16 of Sᵀ and dPᵀ.
// The columns cols_w (headSplitColumns) are chunks inside the 64-column
// SW128 panels (an MN-major operand may start inside a panel but not run
// across its end), so each warpgroup's loop is emitted on its own with its
// chunks as constants. The producer (emitKeyBlockLoads) is the other form's.
// A warpgroup releases its Q / dO stage as soon as its dV and dK products
// have read it, before dQ's: with one stage (KernelSpec::queryStages, which
// makes room for the dQ staging tile at D = 256) the producer's next copies
// then overlap the dQ products and their reductions.
//
//===----------------------------------------------------------------------===//

#include "TensorCoreGradEmitter.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"

using namespace mlir;
using namespace mlir::attn;
using tcgrad::GradEmitter;

namespace {
/// (first column, width) chunks of one warpgroup's columns.
using ColumnChunks = SmallVector<std::pair<int64_t, int64_t>, 4>;
} // namespace

/// The two warpgroups' columns of a `dim`-wide gradient (a multiple of 8):
/// [0, h) and [h, dim) with h the half rounded up to 8 (wgmma's N step),
/// each cut at the 64-column panel boundaries. Never past dim: the dQ
/// chunks are staged and reduced whole (a staging tile and dq_accum rows
/// are dim wide).
static std::array<ColumnChunks, 2> headSplitColumns(int64_t dim) {
  assert(dim % 8 == 0 && "the tensor-core backward's head dims");
  const int64_t total = dim;
  const int64_t half = roundUp((total + 1) / 2, 8);
  std::array<ColumnChunks, 2> chunks;
  for (int64_t w = 0; w < 2; ++w) {
    int64_t c = w == 0 ? 0 : half;
    const int64_t end = w == 0 ? half : total;
    while (c < end) {
      const int64_t width = std::min(end, roundUp(c + 1, 64)) - c;
      chunks[w].push_back({c, width});
      c += width;
    }
  }
  return chunks;
}

static int64_t accumulatorsOf(ArrayRef<std::pair<int64_t, int64_t>> chunks) {
  int64_t n = 0;
  for (auto [c0, width] : chunks)
    n += width / 2;
  return n;
}

void GradEmitter::storeSharedScores(Value tile, Value first,
                                    const std::array<Value, 4> &a, Value wgWarp,
                                    int64_t kStep) {
  // A fragment element i: key 16 wgWarp + g + 8 (i % 2), queries 16 kStep +
  // 2 t4 + 8 (i / 2) and + 1, at SW128 byte 128 key + (((query / 8) ^ g)
  // 16) + 2 (query % 8), i.e. i32 32 key + 4 ((2 kStep + i / 2) ^ g) + t4.
  // A warp's 32 stores hit 32 different banks.
  for (int64_t i = 0; i < 4; ++i) {
    Value key = add(add(mul(wgWarp, 16), g), 8 * (i % 2));
    Value chunk = arith::XOrIOp::create(b, loc, idx(2 * kStep + i / 2), g);
    Value at = add(first, add(add(mul(key, 32), mul(chunk, 4)), t4));
    memref::StoreOp::create(b, loc, a[i], tile, ValueRange{at});
  }
}

SmallVector<Value>
GradEmitter::querySliceProduct(Value keyRows, Value queryRows, int64_t dim) {
  // The block's 64 key rows of a K-major SW128 tile against 32 query rows
  // of the stage tile (64 rows), over dim (k-steps of 16; the tiles are
  // zero-filled past it).
  constexpr int64_t queries = tcgrad::kBlock / 2;
  SmallVector<Value> acc = freshAccumulators(queries / 2);
  wgmmaAccumulates = false;
  for (int64_t ks = 0; ks < roundUp(dim, 16) / 16; ++ks)
    acc = wgmmaSharedA(
        swizzledKMajorDescriptor(keyRows, spec.blockKV, ks), false,
        swizzledKMajorDescriptor(queryRows, tcgrad::kBlock, ks), false, acc);
  return acc;
}

SmallVector<Value>
GradEmitter::chunkProducts(Value aTile, bool transA, Value bTile,
                           ArrayRef<std::pair<int64_t, int64_t>> chunks,
                           SmallVector<Value> acc, bool fresh) {
  // Column c0 of a [64][panels x 64] SW128 tile: its panel, then 2 bytes a
  // column inside the panel's 128-byte rows.
  auto columnAt = [&](int64_t c0) {
    return add(bTile,
               (c0 / 64) * 128 * tcgrad::kBlock + (c0 % 64) * kOperandBytes);
  };
  int64_t at = 0;
  for (auto [c0, width] : chunks) {
    SmallVector<Value> part(acc.begin() + at, acc.begin() + at + width / 2);
    if (fresh)
      wgmmaAccumulates = false;
    for (int64_t kk = 0; kk < 4; ++kk) {
      Value descA = transA ? swizzledMnMajorDescriptor(aTile, spec.blockKV, kk)
                           : swizzledKMajorDescriptor(aTile, spec.blockKV, kk);
      part = wgmmaSharedA(
          descA, transA,
          swizzledMnMajorDescriptor(columnAt(c0), tcgrad::kBlock, kk), true,
          part);
    }
    std::copy(part.begin(), part.end(), acc.begin() + at);
    at += width / 2;
  }
  return acc;
}

void GradEmitter::storeChunkFragments(
    ArrayRef<Value> acc, ArrayRef<std::pair<int64_t, int64_t>> chunks,
    float scale, Value dest, GlobalRows rows, Value row0, int64_t width) {
  int64_t at = 0;
  for (auto [c0, chunkWidth] : chunks) {
    storeFragments(groupFragments(acc.slice(at, chunkWidth / 2)), scale, dest,
                   rows, row0, keyLen, width, c0);
    at += chunkWidth / 2;
  }
}

void GradEmitter::emitKeyBlockHeadSplit(Value kBlockIdx, Value kvHead,
                                        bool withDq) {
  assert(spec.headSplit && spec.tma && threads == 256 && spec.blockKV == 64 &&
         "two consumer warpgroups on one 64-key block");
  KeyBlockSchedule sched = scheduleKeyBlock(kBlockIdx, kvHead, spec.blockKV);
  Value any = arith::CmpIOp::create(b, loc, arith::CmpIPredicate::sgt,
                                    sched.total, idx(0));
  emitIf(any, [&] { mbarrierWait(keyValueFull(), idx(0)); });
  Value first = arith::CmpIOp::create(b, loc, arith::CmpIPredicate::eq,
                                      divu(warp, 4), idx(0));
  auto branches = scf::IfOp::create(b, loc, TypeRange{}, first,
                                    /*withElseRegion=*/true);
  for (int64_t w = 0; w < 2; ++w) {
    b.setInsertionPoint(w == 0 ? branches.thenBlock()->getTerminator()
                               : branches.elseBlock()->getTerminator());
    emitHeadSplitWarpgroup(sched, withDq, w);
  }
  b.setInsertionPointAfter(branches);
}

void GradEmitter::headSplitScores(const KeyStep &step,
                                  const HeadSplitStep &tiles, Value wgWarp) {
  constexpr int64_t queries = tcgrad::kBlock / 2;
  const int64_t scoreTile = spec.blockKV * tcgrad::kBlock * kOperandBytes;
  Value rowsOffset = idx(step.queryOffset * 128);

  wgmmaFence();
  SmallVector<Value> sAcc =
      querySliceProduct(tiles.keys, add(tiles.queries, rowsOffset), headDim);
  wgmmaCommit();
  SmallVector<Value> dPAcc = querySliceProduct(
      tiles.values, add(tiles.gradOutputs, rowsOffset), valueDim);
  wgmmaCommit();
  // The dropout draw (integer work) runs while the products do.
  Value keepBits = keyRowKeepBits(step, queries / 8);
  Value bufferAt = mul(tiles.buffer, scoreTile / 4);
  auto storeSlice = [&](Value tileView, ArrayRef<Frag> frags) {
    for (int64_t kk = 0; kk < queries / 16; ++kk)
      storeSharedScores(tileView, bufferAt, packA(frags, kk), wgWarp,
                        step.queryOffset / 16 + kk);
  };
  wgmmaWait(1);
  Probabilities pr =
      recomputeProbabilities(step, groupFragments(sAcc), keepBits);
  storeSlice(tiles.probsView, pr.pd);
  wgmmaWait(0);
  SmallVector<Frag> dP = groupFragments(dPAcc);
  scoreGradients(step, pr, dP);
  storeSlice(tiles.dsView, dP);
  fenceProxyAsync();
}

void GradEmitter::headSplitDq(const KeyStep &step, const HeadSplitStep &tiles,
                              ArrayRef<std::pair<int64_t, int64_t>> chunks,
                              const BulkDqStaging &bulk, Value wgWarp,
                              int64_t w, function_ref<void()> releaseStage) {
  // dQ[:, cols_w] = dS K[:, cols_w] over the block's keys, one chunk at a
  // time (at most 32 more accumulators).
  Value tileRow = paddedRow(step.hIdx, step.q0);
  for (auto [i, chunk] : llvm::enumerate(chunks)) {
    auto [c0, width] = chunk;
    wgmmaFence();
    SmallVector<Value> acc =
        chunkProducts(tiles.dsT, true, tiles.keys, {{c0, width}},
                      freshAccumulators(width / 2), true);
    wgmmaCommit();
    if (i == 0)
      releaseStage();
    wgmmaWait(0);
    if (bulk.offset)
      stageDqColumns(*bulk.offset, groupFragments(acc), idx(c0));
    else
      addToDqAccum(groupFragments(acc), 1, add(tileRow, mul(wgWarp, 16)),
                   idx(c0));
  }
  if (bulk.offset) {
    SmallVector<std::pair<Value, int64_t>> list;
    for (auto [c0, width] : chunks)
      list.push_back({idx(c0), width});
    addStagedDq(*bulk.offset, idx(w), bulk.leader, tileRow, list);
  }
}

void GradEmitter::emitHeadSplitWarpgroup(const KeyBlockSchedule &sched,
                                         bool withDq, int64_t w) {
  constexpr int64_t keyBlock = 64, queriesPerWarpgroup = tcgrad::kBlock / 2;
  const KeyBlockLayout layout = warpSpecializedLayout();
  const int64_t qTile =
                    tcgrad::kBlock * tcgrad::panelDim(headDim) * kOperandBytes,
                dOTile =
                    tcgrad::kBlock * tcgrad::panelDim(valueDim) * kOperandBytes,
                scoreTile = keyBlock * tcgrad::kBlock * kOperandBytes;
  const std::array<ColumnChunks, 2> keyCols = headSplitColumns(headDim),
                                    valueCols = headSplitColumns(valueDim);
  const ColumnChunks &dkChunks = keyCols[w], &dvChunks = valueCols[w];
  const int64_t accsK = accumulatorsOf(dkChunks),
                accsV = accumulatorsOf(dvChunks);

  Value lseS =
      view(layout.lse, {spec.queryStages, tcgrad::kBlock}, b.getF32Type());
  Value deltaS =
      view(layout.delta, {spec.queryStages, tcgrad::kBlock}, b.getF32Type());
  HeadSplitStep invariantTiles;
  invariantTiles.probsView =
      view(layout.probsT, {2 * scoreTile / 4}, b.getI32Type());
  invariantTiles.dsView = view(layout.dsT, {2 * scoreTile / 4}, b.getI32Type());
  const BulkDqStaging bulk = bulkDqStaging(layout, withDq);

  Value wgWarp = remu(warp, 4);
  Value keyA = add(sched.k0, add(mul(wgWarp, 16), g));
  KeyStep invariant{};
  invariant.k0 = sched.k0;
  invariant.keys = {keyA, add(keyA, 8)};
  invariant.keyBlock = keyBlock;
  invariant.lseS = lseS;
  invariant.deltaS = deltaS;
  invariant.queryOffset = queriesPerWarpgroup * w;

  SmallVector<Value> init(accsK + accsV, f32(0.0f));
  SmallVector<Value> loop =
      emitLoop(idx(0), sched.total, init, [&](Value it, ValueRange state) {
        MbarrierRing ring = queryRing();
        auto [stage, round] = ring.slot(it);
        ring.wait(stage, round);
        // K's and V's wgmma descriptors are the same every step: made from
        // a base LLVM cannot hoist, they are recomputed in the loop rather
        // than held in registers across it (ptxas 13 spilled 52-272 bytes
        // at D = 256 otherwise, 0 so).
        Value kvBase = loopVariant(smemBase);
        HeadSplitStep tiles = invariantTiles;
        tiles.keys = add(kvBase, layout.keys);
        tiles.values = add(kvBase, layout.values);
        KeyStep step = keyStepAt(invariant, sched, it, stage);
        tiles.queries = add(add(smemBase, layout.queries), mul(stage, qTile));
        tiles.gradOutputs =
            add(add(smemBase, layout.gradOutputs), mul(stage, dOTile));
        tiles.buffer = remu(it, 2);
        SmallVector<Value> dK(state.begin(), state.begin() + accsK),
            dV(state.begin() + accsK, state.end());

        headSplitScores(step, tiles, wgWarp);
        // The bulk dQ: this warpgroup's previous reductions have read the
        // staging tile before its threads pass the barrier and rewrite it.
        if (bulk.offset)
          emitIf(bulk.leader, [&] { bulkWaitGroup(0, /*readsOnly=*/true); });
        // Each warpgroup reaches it in its own copy of the loop.
        namedBarrier(NamedBarrier::ScoresWritten, nullptr, threads,
                     /*aligned=*/false);

        tiles.probsT =
            add(add(smemBase, layout.probsT), mul(tiles.buffer, scoreTile));
        tiles.dsT =
            add(add(smemBase, layout.dsT), mul(tiles.buffer, scoreTile));
        wgmmaFence();
        dV = chunkProducts(tiles.probsT, false, tiles.gradOutputs, dvChunks, dV,
                           false);
        dK =
            chunkProducts(tiles.dsT, false, tiles.queries, dkChunks, dK, false);
        wgmmaCommit();
        // The stage (Q, dO, lse, D_i) is released as soon as dV's and
        // dK's products have read it: the producer refills it while dQ's
        // products run (what keeps one stage fed, queryStages 1).
        // A warpgroup with no dQ columns (D = 8: the second one's half is
        // empty) commits no dQ product: it releases after dV and dK alone.
        if (withDq && !dkChunks.empty())
          headSplitDq(step, tiles, dkChunks, bulk, wgWarp, w, [&] {
            wgmmaWait(1);
            ring.release(stage);
          });
        else {
          wgmmaWait(0);
          ring.release(stage);
        }
        SmallVector<Value> next = dK;
        next.append(dV.begin(), dV.end());
        return next;
      });

  // The bulk dQ's last reductions finish before the block exits.
  if (bulk.offset)
    emitIf(bulk.leader, [&] { bulkWaitGroup(0, /*readsOnly=*/false); });
  Value warpKey0 = add(sched.k0, mul(wgWarp, 16));
  storeChunkFragments(ArrayRef<Value>(loop).take_front(accsK), dkChunks,
                      mods.scale, args.gradKey, sched.kvRows, warpKey0,
                      headDim);
  storeChunkFragments(ArrayRef<Value>(loop).drop_front(accsK), dvChunks, 1.0f,
                      args.gradValue, sched.kvRows, warpKey0, valueDim);
}
