//===- CudaCoreGradKeyBlock.cpp - the CUDA-core dkdv kernel ---------------===//
//
// attn_bwd_dkdv of the CUDA-core backward (CudaCoreGradEmitter.h; design at
// the top of AttentionGradKernelBuilder.cpp): one block per (key block, kv
// head, batch), T threads per key holding k_j, v_j and the dK_j, dV_j
// accumulators in registers. For each query head of the group and each
// visible query block it stages Q, dO, lse and D_i = dO_i . O_i (computed
// here, there is no prep kernel), then accumulates every row of the tile;
// the epilogue scales dK and stores both for the keys inside Lk.
//
//===----------------------------------------------------------------------===//

#include "CudaCoreGradEmitter.h"

#include "attnopt/Dialect/Attn/Utils/ScoreModifiers.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"

using namespace mlir;
using namespace mlir::attn;
using namespace mlir::attn::kernel;
using ccgrad::GradEmitter;

void GradEmitter::emitKeyValueKernel(gpu::GPUFuncOp func) {
  Block &entry = func.getBody().front();
  b.setInsertionPointToStart(&entry);
  const int64_t blockKV = spec.blockKV, blockQ = spec.blockQ;
  const int64_t threads = spec.block[0];
  KernelArguments args = unpackArguments(entry);
  Value qShared = func.getWorkgroupAttributions()[0];
  Value doShared = func.getWorkgroupAttributions()[1];
  Value lseShared = func.getWorkgroupAttributions()[2];
  Value deltaShared = func.getWorkgroupAttributions()[3];

  ThreadRow thread = bindThreadRow(blockKV, keyLen);
  Value tid = thread.tid, kvHead = thread.blockY, bIdx = thread.blockZ;
  Value k0 = thread.start, keyInBlock = thread.inBlock, keyValid = thread.valid,
        keyClamped = thread.clamped;
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

  SmallVector<Value> grads =
      emitLoop(idx(0), idx(group), init, [&](Value g, ValueRange acc0) {
        Value hIdx = add(mul(kvHead, idx(group)), g);
        Value bh = add(mul(bIdx, idx(heads)), hIdx);
        Value rowBase = mul(bh, queryLen);
        return emitLoop(
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
              return emitLoop(
                  idx(0), rowsHere, acc1, [&](Value i, ValueRange acc) {
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
            });
      });

  // Epilogue: dK = scale * sum dS q, dV = sum Pd dO, for keys inside Lk.
  emitIf(keyValid, [&] {
    ArrayRef<Value> acc = grads;
    storeSlice(args.gradKey, mul(kvRow, idx(headDim)), headDim,
               SmallVector<Value>(acc.take_front(dPer)),
               op.getEffectiveScale());
    storeSlice(args.gradValue, mul(kvRow, idx(valueDim)), valueDim,
               SmallVector<Value>(acc.drop_front(dPer)), 1.0f);
  });
  gpu::ReturnOp::create(b, loc);
}
