//===- CudaCoreGradScores.cpp - the backward's P and dS of one element ----===//
//
// The element-wise gradient math of the CUDA-core backward
// (CudaCoreGradEmitter.h) for one (query row, key) pair, shared by the dkdv
// and dq kernels so that both recompute exactly the same values: the mask
// value, the modified score, P = exp(s - lse), the dropout keep bit and
// 1 / (1 - p) factor, and dS with the softcap derivative. The element
// emitters are those of the reference decomposition (Utils/ScoreModifiers.h,
// Utils/Philox.h).
//
//===----------------------------------------------------------------------===//

#include "CudaCoreGradEmitter.h"

#include "attnopt/Dialect/Attn/Utils/Philox.h"
#include "attnopt/Dialect/Attn/Utils/ScoreModifiers.h"

#include "mlir/Dialect/Arith/IR/Arith.h"

using namespace mlir;
using namespace mlir::attn;
using namespace mlir::attn::kernel;
using ccgrad::GradEmitter;

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
