//===- TensorCoreMainLoop.cpp - the tensor-core forward's key-block loops -===//
//
// The key-block loops of the tensor-core forward (TensorCoreEmitter.h): the
// mma.sync loop (cp.async double buffering, S = Q K^T, softmax, O = O alpha +
// P V per block) and the wgmma consumers' software-pipelined loop (S of block
// kb with P V of block kb - 1, stages from the producer's mbarriers,
// ping-pong issue between two consumer warpgroups).
//
//===----------------------------------------------------------------------===//

#include "TensorCoreEmitter.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"

using namespace mlir;
using namespace mlir::attn;
using tc::TensorCoreEmitter;

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
          operandsOf(ldmatrix4(
              add(kBase, (16 * np * kStride + kStepElements * ks) * eltBytes),
              false)),
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
  for (int64_t kk = 0; kk < kStepsPV && tf32; ++kk)
    mmaValuesTf32(s, stage, kk, o);
  for (int64_t kk = 0; kk < kStepsPV && !tf32; ++kk) {
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

// tf32's m16n8k8 A fragment is a0 = (g, t), a1 = (g + 8, t), a2 = (g, t + 4),
// a3 = (g + 8, t + 4), but P's C fragment of an n-tile of 8 keys holds
// keys 2t and 2t + 1 of rows g and g + 8. A dot product may take its k
// index in any order that A and B share: let k-index t be key 2t and t + 4
// key 2t + 1. Then P's A fragment is (c0, c2, c1, c3) of n-tile kk, no
// shuffles, and V's B fragment b0 = (k t, n g), b1 = (k t + 4, n g) is V
// rows 8kk + 2t and 8kk + 2t + 1 at dv column 8nt + g: two scalar loads
// (ldmatrix cannot transpose 32-bit elements), in distinct banks with the
// row stride paddedStride gives.
void TensorCoreEmitter::mmaValuesTf32(const SmallVector<SmallVector<Frag>> &p,
                                      Value stage, int64_t kk,
                                      SmallVector<SmallVector<Frag>> &o) {
  SmallVector<std::array<Value, 4>> pa;
  for (int64_t mt = 0; mt < mTiles; ++mt) {
    const Frag &c = p[mt][kk];
    pa.push_back({roundToTf32(c[0]), roundToTf32(c[2]), roundToTf32(c[1]),
                  roundToTf32(c[3])});
  }
  Value key = add(mul(t4, 2), 8 * kk);
  for (int64_t nt = 0; nt < nTilesO; ++nt) {
    Value col = add(g, 8 * nt);
    auto load = [&](Value row) {
      return roundToTf32(
          memref::LoadOp::create(b, loc, vS, ValueRange{stage, row, col}));
    };
    Value b0 = load(key), b1 = load(add(key, 1));
    for (int64_t mt = 0; mt < mTiles; ++mt)
      o[mt][nt] = mma(pa[mt], b0, b1, o[mt][nt]);
  }
}

void TensorCoreEmitter::emitPingPongStart(Value isFirstGroup) {
  emitIf(arith::XOrIOp::create(b, loc, isFirstGroup,
                               arith::ConstantIntOp::create(b, loc, 1, 1)),
         [&] { namedBarrierArrive(NamedBarrier::PingPongTurn, Value(), 256); });
}

void TensorCoreEmitter::emitPingPongEnd(Value isFirstGroup) {
  emitIf(isFirstGroup,
         [&] { namedBarrier(NamedBarrier::PingPongTurn, Value(), 256); });
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
  // A persistent kernel passes the turn on from tile to tile: the first
  // turn and the last pass are emitted around its tile loop
  // (emitPingPongStart / emitPingPongEnd), so that warpgroup 1 cannot pass
  // twice before warpgroup 0 took the first pass (a named barrier would
  // then complete with warpgroup 1's threads alone).
  if (pingPong && !persistent)
    emitPingPongStart(isFirstGroup);
  // The warpgroup's 64 rows of the SW128 Q tile (in every panel).
  Value qRows =
      add(persistent ? add(smemBase, queryTileOffset()) : add(smemBase, qOff),
          mul(divu(warp, 4), 64 * 128));
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
    // (A persistent kernel's consumers waited at the tile's start.)
    if (!persistent)
      mbarrierWait(queryFull, queryPhase());
    // The first visible block is fill 0 of the rings, or of a persistent
    // kernel fill ringBase (after the block's earlier tiles).
    auto [firstStage, firstRound] =
        persistent ? keyRing().slot(ringBase)
                   : std::pair<Value, Value>(idx(0), idx(0));
    keyRing().wait(firstStage, firstRound);
    // The first S's (unused) accumulators get registers of their own here:
    // left as poison, LLVM may copy one register into all of them right
    // before the wgmma, i.e. after the fence, and ptxas then injects a
    // warpgroup.arrive.
    SmallVector<Value> fresh =
        wgmmaFenceOperands(freshAccumulators(blockKV / 2));
    takeTurn();
    wgmmaFence();
    SmallVector<Value> scores = issueScores(firstStage, fresh);
    passTurn();
    wgmmaWait(0);
    scores = wgmmaFenceOperands(scores);
    keyRing().release(firstStage);
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
    // A persistent kernel's producer refills the stage for a later tile.
    if (persistent)
      valueRing().release(stage);
    return wgmmaFenceOperands(acc);
  });
  if (pingPong && !persistent)
    emitPingPongEnd(isFirstGroup);
  ml.append(o);
  return ml;
}
