//===- TensorCoreGradDq.cpp - the backward's dq kernel --------------------===//
//
// The tensor-core backward's dq kernel (the atomic-free group;
// TensorCoreGradEmitter.h): one warp per 16 query rows, Q and dO loaded once,
// K and V double-buffered per visible key block (one buffer where two do
// not fit: KernelSpec::keyStages); per block S = Q Kᵀ, P,
// dP = dO Vᵀ, dS and dQ += dS K with mma.sync; dQ · scale stored at the end.
//
//===----------------------------------------------------------------------===//

#include "TensorCoreGradEmitter.h"

#include "attnopt/Dialect/Attn/Utils/ScoreModifiers.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/NVGPU/IR/NVGPUDialect.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"

using namespace mlir;
using namespace mlir::attn;
using tcgrad::GradEmitter;

void GradEmitter::emitDq(gpu::GPUFuncOp func) {
  packedBF16Convert = false; // sm_80, D = 128: see MmaEmitterBase.h
  Value qBlockIdx = setUp(func);
  // Where later query blocks see more keys, the first blocks of the grid
  // take the last query blocks: the longest tiles start first
  // (TensorCoreEmitter::emitSetup does the same in the forward).
  if (mods.rightBoundByRow())
    qBlockIdx = lastBlockFirst(qBlockIdx);
  Value hIdx = gpu::BlockIdOp::create(b, loc, gpu::Dimension::y);
  // Keys per step (spec.blockKV, tcgrad::dqKeys) and a K / V stage.
  const int64_t keys = spec.blockKV;
  const int64_t kTileBytes = keys * strideQK * kOperandBytes,
                vTileBytes = keys * strideV * kOperandBytes;
  // Query rows per block: one warp per 16 (spec.blockQ, tcgrad::dqRows).
  const int64_t blockRows = spec.blockQ;
  assert(blockRows == 16 * (threads / 32) && "one warp per 16 query rows");
  const int64_t stages = spec.keyStages;
  const tcgrad::DqLayout layout =
      tcgrad::dqLayout(tileDimQK, tileDimV, blockRows, stages, keys);
  const int64_t qOff = layout.queries, dOOff = layout.gradOutputs,
                kOff = layout.keys, vOff = layout.values;
  Value qS = view(qOff, {blockRows, strideQK}, elt);
  Value dOS = view(dOOff, {blockRows, strideV}, elt);
  Value kS = view(kOff, {stages, keys, strideQK}, elt);
  Value vS = view(vOff, {stages, keys, strideV}, elt);
  const int64_t kStepsD = tileDimQK / 16, kStepsDv = tileDimV / 16;
  const int64_t nTilesK = keys / 8, nTilesDQ = tileDimQK / 8;
  const bool keyGuard = !keyLen.isMultipleOf(keys);

  Value q0 = mul(qBlockIdx, blockRows);
  scf::IfOp live = enterLiveBlock([&] { return q0; }, queryLen);
  Value kvHead = divu(hIdx, group);
  GlobalRows qRows = queryRows(hIdx), kvRows = keyRows(kvHead);
  Value rowsInBlock =
      arith::MinSIOp::create(b, loc, idx(blockRows),
                             arith::SubIOp::create(b, loc, size(queryLen), q0));
  auto [first, last] = emitVisibleKeyBlocks(b, loc, mods, q0, rowsInBlock,
                                            size(queryLen), size(keyLen), keys);

  SmallVector<Value> tokens;
  copyTile(args.query, widthQK(), qRows, q0, queryLen, blockRows, qS,
           ValueRange{}, tokens);
  copyTile(args.gradOutput, widthV(), qRows, q0, queryLen, blockRows, dOS,
           ValueRange{}, tokens);
  Value qGroup = commitCopies(tokens);
  auto issue = [&](Value kb, Value stage) {
    SmallVector<Value> ts;
    Value key0 = mul(kb, keys);
    copyTile(args.key, widthQK(), kvRows, key0, keyLen, keys, kS,
             ValueRange{stage}, ts);
    copyTile(args.value, widthV(), kvRows, key0, keyLen, keys, vS,
             ValueRange{stage}, ts);
    commitCopies(ts);
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
        Value stage =
            copyStage(arith::SubIOp::create(b, loc, kb, first), stages);
        emitPrefetchingStepHead(qGroup, kb, stage, last, issue, stages);
        Value kBase = add(add(smemBase, kOff), mul(stage, kTileBytes));
        Value vBase = add(add(smemBase, vOff), mul(stage, vTileBytes));
        Value k0 = mul(kb, keys);

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
                                         rowsInBlock, k0, keys);
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
        SmallVector<Value> factors = dropoutFactors(hIdx, rows, keyT, nTilesK);
        for (int64_t nt = 0; nt < nTilesK; ++nt)
          for (int64_t e = 0; e < 4; ++e) {
            Value dpv = dP[nt][e];
            if (!factors.empty())
              dpv = fmul(dpv, factors[4 * nt + e]);
            dP[nt][e] = fmul(probs[4 * nt + e],
                             arith::SubFOp::create(b, loc, dpv, delta[e / 2]));
          }

        // dQ += dS K.
        SmallVector<Frag> dQ(nTilesDQ);
        for (int64_t nt = 0; nt < nTilesDQ; ++nt)
          for (int64_t e = 0; e < 4; ++e)
            dQ[nt][e] = state[4 * nt + e];
        for (int64_t kk = 0; kk < keys / 16; ++kk)
          mmaAcrossPairs(packA(dP, kk), kBase, bTOffQK, strideQK, kk, true, dQ);
        emitRefillingStepTail(kb, last, issue, stages);
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
