//===- TensorCoreGradKeyBlock.cpp - dkdv / dkdv_dq with mma.sync ----------===//
//
// The tensor-core backward's key-block kernel with mma.sync
// (TensorCoreGradEmitter.h; design in TensorCoreGradKernelBuilder.cpp): one
// warp per 16 keys, K and V loaded once, Q and dO double-buffered per step
// (one buffer where two do not fit: KernelSpec::queryStages);
// per step Sᵀ = K Qᵀ, Pᵀ, dV += Pdᵀ dO, dPᵀ = V dOᵀ, dSᵀ, dK += dSᵀ Q (and
// the atomic dQ in dkdv_dq); dK and dV stored at the end. Where dK and dV do
// not fit one warp's registers, two blocks per key block split them.
//
//===----------------------------------------------------------------------===//

#include "TensorCoreGradEmitter.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/NVGPU/IR/NVGPUDialect.h"
#include "mlir/Dialect/SCF/IR/SCF.h"

using namespace mlir;
using namespace mlir::attn;
using tcgrad::GradEmitter;

void GradEmitter::emitKeyBlocks(gpu::GPUFuncOp func, bool withDq) {
  // The bf16 conversion form that keeps ptxas under 255 registers
  // (MmaEmitterBase.h): in the dkdv_dq kernel with vector reductions (sm_90)
  // the packed form spills 8 bytes on the D = 64 grid shape, with scalar
  // reductions (sm_80) the scalar form does; measured with 128-key blocks.
  // In the dkdv kernel the packed form spills 4 bytes with dropout at D =
  // Dv = 96-128 on sm_80 (ptxas 13) and the scalar form none, but the
  // scalar form measured 1.5-1.8 % slower (sm_80 PTX on an H100, D = 128
  // causal with and without dropout, session 48): the packed form stays.
  const int64_t parts = tcgrad::keyBlockParts(headDim, valueDim);
  packedBF16Convert = !withDq || !spec.vectorReductions;
  Value blockX = setUp(func);
  Value kvHead = gpu::BlockIdOp::create(b, loc, gpu::Dimension::y);
  scf::IfOp live = enterLiveBlock(
      [&] { return mul(divu(blockX, parts), spec.blockKV); }, keyLen);
  assert((parts == 1 || !withDq) &&
         "the split mma.sync key-block kernel has no atomic dQ");
  emitKeyBlockParts(blockX, withDq,
                    [&](Value kBlockIdx, bool dq, KeyBlockProducts products) {
                      emitKeyBlock(kBlockIdx, kvHead, dq, products);
                    });
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
  const int64_t stages = spec.queryStages;
  const tcgrad::KeyBlockLayout layout =
      tcgrad::keyBlockLayout(tileDimQK, tileDimV, keyBlock, withDq,
                             /*warpgroupMma=*/false, false, false, stages);
  const int64_t kOff = layout.keys, vOff = layout.values, qOff = layout.queries,
                dOOff = layout.gradOutputs, lseOff = layout.lse,
                deltaOff = layout.delta, dsOff = layout.dsT;
  Value kS = view(kOff, {keyBlock, strideQK}, elt);
  Value vS = view(vOff, {keyBlock, strideV}, elt);
  Value qS = view(qOff, {stages, kBlock, strideQK}, elt);
  Value dOS = view(dOOff, {stages, kBlock, strideV}, elt);
  Value lseS = view(lseOff, {stages, kBlock}, b.getF32Type());
  Value deltaS = view(deltaOff, {stages, kBlock}, b.getF32Type());
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
  Value kvGroup = commitCopies(tokens);
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
    commitCopies(ts);
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
            beginKeyStep(invariant, sched, it, kvGroup, total, issue, stages);

        Value qBase = add(add(smemBase, qOff), mul(step.stage, qTileBytes));
        Value dOBase = add(add(smemBase, dOOff), mul(step.stage, dOTileBytes));

        // The dropout keep bits depend on positions only: drawn before the
        // product, the Philox rounds do not share registers with Sᵀ.
        Value keepBits = keyRowKeepBits(step, nTilesQ);
        // Sᵀ = K Qᵀ: 8 n-tiles of 8 queries.
        SmallVector<Frag> s(nTilesQ,
                            Frag{f32(0.0f), f32(0.0f), f32(0.0f), f32(0.0f)});
        for (int64_t ks = 0; ks < kStepsD; ++ks)
          mmaAcrossPairs(kFragAt(ks), qBase, bOffQK, strideQK, ks, false, s);
        Probabilities pr = recomputeProbabilities(step, s, keepBits);
        SmallVector<std::array<Value, 4>> pdA;
        for (int64_t kk = 0; wantDV && kk < kBlock / 16; ++kk)
          pdA.push_back(packA(pr.pd, kk));

        SmallVector<Value> acc(state.begin(), state.end());
        SmallVector<Frag> dK = groupFragments(
                              ArrayRef<Value>(acc).take_front(4 * nTilesDK)),
                          dV = groupFragments(
                              ArrayRef<Value>(acc).drop_front(4 * nTilesDK));

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

        emitRefillingStepTail(it, total, issue, stages);
        SmallVector<Value> nextState;
        for (const Frag &f : dK)
          nextState.append(f.begin(), f.end());
        for (const Frag &f : dV)
          nextState.append(f.begin(), f.end());
        return nextState;
      });

  ArrayRef<Value> results = loop;
  storeKeyBlockGradients(groupFragments(results.take_front(4 * nTilesDK)),
                         groupFragments(results.drop_front(4 * nTilesDK)),
                         wantDK, wantDV, kvRows, k0);
}
