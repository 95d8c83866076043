//===- TensorCoreCopies.cpp - the tensor-core forward's copies and roles --===//
//
// Who copies what in the tensor-core forward (TensorCoreEmitter.h): the
// cp.async copies of the Q tile and of a key block's K / V tiles (padded rows
// for mma.sync, SW128 tiles for wgmma); the wgmma kernel's producer warpgroup,
// which fills the stages and signals them on mbarriers, and its split into
// producer and consumer roles with their setmaxnreg budgets; the mma.sync
// kernel's prologue copies.
//
//===----------------------------------------------------------------------===//

#include "SplitKV.h"
#include "TensorCoreEmitter.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/NVGPU/IR/NVGPUDialect.h"
#include "mlir/Dialect/SCF/IR/SCF.h"

using namespace mlir;
using namespace mlir::attn;
using tc::TensorCoreEmitter;

/// setmaxnreg budgets of the wgmma forward's warpgroups (registerBudgets,
/// MmaEmitterBase.h), by the producer's budget:
/// - one block per SM with two consumer warpgroups: 56 / 224 (128 x 56 +
///   256 x 224 = 384 x 168). The consumers hold the S, O and packed P
///   fragments (218 registers at D = 128 in the kernel without a
///   producer); ptxas spilled 20 bytes of the cp.async producer at 40
///   registers (at 24: 144 bytes). With TMA the producer would need only
///   24, but FA3's 24 / 240 measured the same as 56 / 224 on the H200
///   (docs/performance.md, session 26) and made ptxas 13 spill 8 bytes in
///   the masked wgmma forward with run-time sizes (0 at 56 / 224).
/// - two blocks per SM with one consumer warpgroup (the split_kv stage):
///   64 / 192 (128 x 64 + 128 x 192 = 256 x 128): the paged producer's
///   per-row block-table reads spilled 4 bytes at 56 (ptxas 13, pages of
///   256), none at 64.
/// - one block per SM with one consumer warpgroup: every thread has 255
///   registers at entry already, no setmaxnreg.
static constexpr RegisterBudgets forwardBudgets(int64_t blockThreads,
                                                int64_t consumerThreads,
                                                int64_t blocksPerSM) {
  return registerBudgets(blockThreads, consumerThreads, blocksPerSM,
                         blocksPerSM > 1 ? 64 : 56);
}
static_assert(forwardBudgets(384, 256, 1).consumers == 224 &&
                  forwardBudgets(256, 128, 2).consumers ==
                      splitkv::kSplitWgmmaConsumerRegisters &&
                  !forwardBudgets(256, 128, 1).rebalance(),
              "the measured setmaxnreg budgets");

Value TensorCoreEmitter::copyQuery() {
  SmallVector<Value> tokens;
  TileRowWidth width{headDim, dims.qk};
  if (wgmma)
    copyTileSwizzled128(query, width, {qRowBase, qRowStep}, q0, queryLen,
                        blockQ, tiles, idx(qOff / eltBytes), tokens);
  else
    copyTile(query, width, {qRowBase, qRowStep}, q0, queryLen, blockQ, qS,
             ValueRange{}, tokens);
  return commitCopies(tokens);
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
  commitCopies(tokens);
}

void TensorCoreEmitter::tmaTile(Value map, Value row0, Value head, Value token0,
                                int64_t rows, int64_t cols, Value tileOff,
                                Value full) {
  tmaSwizzledTile(add(smemBase, tileOff), map,
                  tmaRowCoordinates(row0, head, bIdx, token0), rows, cols,
                  full);
}

void TensorCoreEmitter::emitTmaProducer() {
  auto stream = [&](bool keys) {
    MbarrierRing ring = keys ? keyRing() : valueRing();
    const int64_t tileBytes = keys ? kTileBytes : vTileBytes;
    emitLoop(firstBlock, lastBlock, ValueRange{},
             [&](Value kb, ValueRange) -> SmallVector<Value> {
               auto [stage, round] = ring.slot(visibleIndex(kb));
               ring.acquire(stage, round);
               Value full = ring.full(stage);
               mbarrierArriveExpectTx(full, tileBytes);
               tmaTile(keys ? keyMap : valueMap, mul(kb, blockKV), kvHead,
                       kToken0, blockKV, keys ? dims.qk : dims.v,
                       add(mul(stage, tileBytes), keys ? kOff : vOff), full);
               return {};
             });
  };
  auto isThread = [&](int64_t t) {
    return arith::CmpIOp::create(b, loc, arith::CmpIPredicate::eq, threadId,
                                 idx(t))
        .getResult();
  };
  // The Q tile's box (the query map's rows times heads: blockQ rows, or a
  // split_kv stage's packed rows, splitkv::queryBox) and its first row:
  // packed row q0 is token q0 mod Lq of head hIdx + q0 div Lq.
  int64_t boxRows = blockQ;
  Value qRow0 = q0, qHead = hIdx;
  for (const KernelParam &p : spec.params)
    if (p.isTensorMap() && p.tensorMapOf == "query")
      boxRows = p.box[1] * p.box[2];
  if (splitKV) {
    qRow0 = remu(q0, tokens);
    qHead = add(hIdx, divu(q0, tokens));
  }
  if (persistent) {
    // Every tile completes one phase of its Q buffer's full mbarrier (one
    // without visible keys by a plain arrive), so that the consumers'
    // parity follows the tile count; the buffer is refilled only once the
    // consumers released it after tile tileIter - 2's epilogue.
    emitIf(isThread(0), [&] {
      emitIf(arith::CmpIOp::create(b, loc, arith::CmpIPredicate::sge, tileIter,
                                   idx(2)),
             [&] {
               mbarrierWait(queryEmpty, remu(add(divu(tileIter, 2), 1), 2));
             });
      emitIf(anyBlock, [&] {
        mbarrierArriveExpectTx(queryFull, boxRows * dims.qk * eltBytes);
        tmaTile(queryMap, qRow0, qHead, qToken0, blockQ, dims.qk,
                queryTileOffset(), queryFull);
        stream(/*keys=*/true);
      });
      emitIf(arith::XOrIOp::create(b, loc, anyBlock,
                                   arith::ConstantIntOp::create(b, loc, 1, 1)),
             [&] { mbarrierArrive(queryFull); });
    });
    emitIf(anyBlock,
           [&] { emitIf(isThread(64), [&] { stream(/*keys=*/false); }); });
    return;
  }
  emitIf(anyBlock, [&] {
    emitIf(isThread(0), [&] {
      mbarrierArriveExpectTx(queryFull, boxRows * dims.qk * eltBytes);
      tmaTile(queryMap, qRow0, qHead, qToken0, blockQ, dims.qk,
              queryTileOffset(), queryFull);
      stream(/*keys=*/true);
    });
    emitIf(isThread(64), [&] { stream(/*keys=*/false); });
  });
}

void TensorCoreEmitter::emitProducer() {
  if (tma)
    return emitTmaProducer();
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
    if (!persistent) {
      anyBlock = anyBlockOf();
      queryFull = add(smemBase, barOff + 8 * 4 * stages);
    }
    emitIf(arith::CmpIOp::create(b, loc, arith::CmpIPredicate::eq, threadId,
                                 idx(0)),
           [&] {
             // With TMA one thread per stream arrives (with the bytes to
             // wait for).
             const int64_t producers = tma ? 1 : streamThreads;
             if (persistent) {
               // Q full of tiles 0 and 1, then their Q empty (every
               // consumer thread arrives after its epilogue).
               Value qBarriers = add(smemBase, barOff + 8 * 4 * stages);
               for (int64_t q = 0; q < 2; ++q) {
                 mbarrierInit(add(qBarriers, 8 * q), producers);
                 mbarrierInit(add(qBarriers, 16 + 8 * q), consumerThreads);
               }
             } else {
               mbarrierInit(queryFull, producers);
             }
             for (int64_t st = 0; st < stages; ++st) {
               keyRing().initFull(st, producers);
               valueRing().initFull(st, producers);
               keyRing().initEmpty(st, consumerThreads);
               valueRing().initEmpty(st, consumerThreads);
             }
           });
    gpu::BarrierOp::create(b, loc);
    // One branch per role, so that ptxas applies each setmaxnreg to its
    // warpgroups: the producer needs few registers, the consumers' S, O
    // and P fragments many.
    roles = scf::IfOp::create(b, loc, TypeRange{},
                              ltC(threadId, kProducerWarpgroupThreads),
                              /*withElseRegion=*/true);
    b.setInsertionPoint(roles.thenBlock()->getTerminator());
    const RegisterBudgets budgets =
        forwardBudgets(blockThreads, consumerThreads, tc::blocksPerSM(spec));
    if (budgets.rebalance())
      setMaxRegisters(budgets.producer, /*increase=*/false);
    if (persistent)
      emitTileLoop([&] { emitProducer(); });
    else
      emitProducer();
    b.setInsertionPoint(roles.elseBlock()->getTerminator());
    if (budgets.rebalance())
      setMaxRegisters(budgets.consumers, /*increase=*/true);
    tid =
        arith::SubIOp::create(b, loc, threadId, idx(kProducerWarpgroupThreads));
    threads = consumerThreads;
  } else {
    // Prologue: Q tile, and the first visible K/V block when there is one.
    qGroup = copyQuery();
    anyBlock = anyBlockOf();
    emitIf(anyBlock, [&] { issueKV(firstBlock, idx(0)); });
    emitWaitAllCopies(qGroup);
  }
}
