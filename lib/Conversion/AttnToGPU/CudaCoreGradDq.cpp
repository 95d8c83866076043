//===- CudaCoreGradDq.cpp - the CUDA-core dq kernel -----------------------===//
//
// attn_bwd_dq of the CUDA-core backward (CudaCoreGradEmitter.h; design at the
// top of AttentionGradKernelBuilder.cpp): one block per (query block, query
// head, batch), T threads per query row holding q_i, dO_i, D_i, lse_i and
// the dQ_i accumulator in registers. For each visible key block it stages K
// and V, then accumulates dS k_j over the block's keys; dQ is scaled and
// stored for the rows inside Lq.
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

void GradEmitter::emitQueryKernel(gpu::GPUFuncOp func) {
  Block &entry = func.getBody().front();
  b.setInsertionPointToStart(&entry);
  const int64_t blockKV = spec.blockKV, blockQ = spec.blockQ;
  const int64_t threads = spec.block[0];
  KernelArguments args = unpackArguments(entry);
  Value kShared = func.getWorkgroupAttributions()[0];
  Value vShared = func.getWorkgroupAttributions()[1];

  ThreadRow thread = bindThreadRow(blockQ, queryLen);
  Value tid = thread.tid, hIdx = thread.blockY, bIdx = thread.blockZ;
  Value q0 = thread.start, rowValid = thread.valid, rowClamped = thread.clamped;
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
  SmallVector<Value> dQ =
      emitLoop(firstBlock, lastBlock, init, [&](Value kb, ValueRange acc0) {
        Value key0 = mul(kb, idx(blockKV));
        gpu::BarrierOp::create(b, loc);
        emitStageRows(b, loc, args.key, kShared, elt, blockKV, headDim,
                      dPer * t, kvBase, key0, sizes.keyLen, tid, threads);
        emitStageRows(b, loc, args.value, vShared, elt, blockKV, valueDim,
                      dvPer * t, kvBase, key0, sizes.keyLen, tid, threads);
        gpu::BarrierOp::create(b, loc);
        Value keysHere = arith::MinSIOp::create(
            b, loc, idx(blockKV), arith::SubIOp::create(b, loc, keyLen, key0));
        return emitLoop(
            idx(0), keysHere, acc0, [&](Value j, ValueRange acc) {
              Value raw = laneSum(partialDot(qRegs, kShared, j));
              Value dPd = laneSum(partialDot(doRegs, vShared, j));
              Value dS = elementGradients(raw, dPd, lse, delta, bIdx, hIdx,
                                          rowClamped, add(key0, j))
                             .second;
              return accumulate(acc, dS, kShared, j);
            });
      });

  emitIf(rowValid, [&] {
    storeSlice(args.gradQuery, mul(rowLin, idx(headDim)), headDim, dQ,
               op.getEffectiveScale());
  });
  gpu::ReturnOp::create(b, loc);
}
