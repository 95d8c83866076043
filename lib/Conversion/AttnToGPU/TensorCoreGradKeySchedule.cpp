//===- TensorCoreGradKeySchedule.cpp - the key-block kernels' steps -------===//
//
// The iteration space that the tensor-core backward's key-block kernels
// (dkdv, dkdv_dq; mma.sync and wgmma alike, TensorCoreGradEmitter.h) walk:
// the (query head, visible query block) pairs of a key block flattened into
// one loop, the start of each step with the next step's copies prefetched,
// and the cp.async copy of the staged lse·log2(e) and D_i rows.
//
//===----------------------------------------------------------------------===//

#include "TensorCoreGradEmitter.h"

#include "attnopt/Dialect/Attn/Utils/ScoreModifiers.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/NVGPU/IR/NVGPUDialect.h"

using namespace mlir;
using namespace mlir::attn;
using tcgrad::GradEmitter;

void GradEmitter::emitKeyBlockParts(
    Value blockX, bool withDq,
    function_ref<void(Value, bool, KeyBlockProducts)> emitBlock) {
  if (spec.keyBlockParts == 1) {
    emitBlock(blockX, withDq, KeyBlockProducts::Both);
    return;
  }
  Value kBlockIdx = divu(blockX, 2);
  Value odd = arith::CmpIOp::create(b, loc, arith::CmpIPredicate::ne,
                                    remu(blockX, 2), idx(0));
  Value even = arith::XOrIOp::create(
      b, loc, odd, arith::ConstantIntOp::create(b, loc, 1, 1));
  emitIf(even,
         [&] { emitBlock(kBlockIdx, false, KeyBlockProducts::ValueOnly); });
  emitIf(odd, [&] { emitBlock(kBlockIdx, withDq, KeyBlockProducts::KeyOnly); });
}

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

GradEmitter::KeyStep GradEmitter::beginKeyStep(
    KeyStep invariant, const KeyBlockSchedule &sched, Value it, Value anchor,
    Value total, function_ref<void(Value, Value)> issue, int64_t stages) {
  Value stage = copyStage(it, stages);
  emitPrefetchingStepHead(anchor, it, stage, total, issue, stages);
  return keyStepAt(invariant, sched, it, stage);
}

GradEmitter::KeyStep GradEmitter::keyStepAt(KeyStep invariant,
                                            const KeyBlockSchedule &sched,
                                            Value it, Value stage) {
  KeyStep step = invariant;
  step.stage = stage;
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
