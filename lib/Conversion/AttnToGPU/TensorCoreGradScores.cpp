//===- TensorCoreGradScores.cpp - the backward's P and dS recomputation ---===//
//
// The tensor-core backward's element-wise arithmetic between the products
// (TensorCoreGradEmitter.h): the mask value, the exponent of P with the score
// modifiers and the ragged-key guard, the dropout factor, lse·log2(e), and
// for the key-block kernels Pᵀ recomputed from Sᵀ (masked or plain per block
// pair, the dropout keep bits packed in one register) and dSᵀ from dPᵀ. The
// dq kernel (TensorCoreGradDq.cpp) applies the same parts to S and dP.
//
//===----------------------------------------------------------------------===//

#include "SharedDropoutDraw.h"
#include "TensorCoreGradEmitter.h"

#include "attnopt/Dialect/Attn/Utils/Philox.h"
#include "attnopt/Dialect/Attn/Utils/ScoreModifiers.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"

using namespace mlir;
using namespace mlir::attn;
using kernel::kLog2E;
using kernel::kNegInf;
using kernel::kPosInf;
using tcgrad::GradEmitter;

Value GradEmitter::maskValue(Value bI, Value hI, Value query, Value key) {
  return kernel::emitMaskLoad(b, loc, args.mask, maskDims, mods.booleanMask, bI,
                              hI, query, key);
}

Value GradEmitter::exponent(Value raw, Value bI, Value hI, Value query,
                            Value key, Value lse2, bool masked, bool guardKey) {
  Value mv;
  if (args.mask)
    mv = maskValue(bI, hI, clampToLast(query, queryLen),
                   clampToLast(key, keyLen));
  Value sc = emitModifiedScore(b, loc, masked ? forms.masked : forms.plain, raw,
                               mv, query, key, size(queryLen), size(keyLen));
  if (guardKey)
    sc = arith::SelectOp::create(b, loc, lessThan(key, keyLen), sc,
                                 f32(kNegInf));
  Value negLse = arith::NegFOp::create(b, loc, lse2);
  return fmaC(sc, f32(forms.foldScale ? mods.scale * kLog2E : kLog2E), negLse);
}

// A packed batch draws at its tokens' coordinates in the batch-1 form
// (docs/semantics.md, section 14.3), as its forward kernel does.
kernel::DropoutCoordinates GradEmitter::dropoutCoordinates() {
  if (packed)
    return kernel::DropoutCoordinates::packed(
        idx(0), idx(heads), totalQueryTokens, qToken0, kToken0);
  return kernel::DropoutCoordinates::dense(bIdx, idx(heads), size(queryLen));
}

SmallVector<Value> GradEmitter::dropoutFactors(Value hI, ArrayRef<Value> rows,
                                               Value keyT, int64_t nTiles) {
  if (dropP <= 0.0f)
    return {};
  const kernel::DropoutCoordinates coords = dropoutCoordinates();
  auto at = [&](int64_t r, Value key) {
    return coords.at(b, loc, hI, rows[r], key);
  };
  SmallVector<Value> keeps(4 * nTiles);
  if (nTiles % 2 == 0) {
    SmallVector<Value> shared = kernel::drawQueryRowKeeps(
        b, loc, {args.seed, args.offset, dropP, coords.keyToken0}, lane, t4,
        rows.size(), nTiles, keyT, at);
    for (int64_t nt = 0; nt < nTiles; ++nt)
      for (int64_t e = 0; e < 4; ++e)
        keeps[4 * nt + e] = shared[((e / 2) * nTiles + nt) * 2 + e % 2];
  } else {
    // An odd number of n-tiles leaves a lane pair without a partner tile:
    // one draw per element.
    for (int64_t nt = 0; nt < nTiles; ++nt)
      for (int64_t e = 0; e < 4; ++e)
        keeps[4 * nt + e] =
            emitDropoutKeep(b, loc, args.seed, args.offset,
                            at(e / 2, add(keyT, 8 * nt + e % 2)), dropP);
  }
  SmallVector<Value> factors;
  for (Value keep : keeps)
    factors.push_back(arith::SelectOp::create(
        b, loc, keep, f32(1.0f / (1.0f - dropP)), f32(0.0f)));
  return factors;
}

Value GradEmitter::keyRowKeepBits(const KeyStep &step, int64_t nTilesQ) {
  if (dropP <= 0.0f)
    return Value();
  Value queryT = add(add(step.q0, step.queryOffset), mul(t4, 2));
  const kernel::DropoutCoordinates coords = dropoutCoordinates();
  auto at = [&](Value query, Value key) {
    return coords.at(b, loc, step.hIdx, query, key);
  };
  return kernel::drawKeyRowKeepBits(
      b, loc, {args.seed, args.offset, dropP, coords.keyToken0}, lane, g,
      nTilesQ, step.keys[0], queryT, at);
}

Value GradEmitter::keptAt(Value keepBits, int64_t bit) {
  Value masked = arith::AndIOp::create(b, loc, keepBits,
                                       i32c(static_cast<int32_t>(1u << bit)));
  return arith::CmpIOp::create(b, loc, arith::CmpIPredicate::ne, masked,
                               i32c(0));
}

Value GradEmitter::lseLog2(Value at, Value valid) {
  Value l = memref::LoadOp::create(b, loc, args.lse, at);
  Value noKey =
      arith::CmpFOp::create(b, loc, arith::CmpFPredicate::OEQ, l, f32(kNegInf));
  Value empty = arith::OrIOp::create(
      b, loc, noKey,
      arith::XOrIOp::create(b, loc, valid,
                            arith::ConstantIntOp::create(b, loc, 1, 1)));
  return arith::SelectOp::create(b, loc, empty, f32(kPosInf),
                                 fmul(l, f32(kLog2E)));
}

GradEmitter::Probabilities
GradEmitter::recomputeProbabilities(const KeyStep &step, ArrayRef<Frag> s,
                                    Value keepBits) {
  const int64_t nTilesQ = s.size();
  const bool raggedKeys = !keyLen.isMultipleOf(step.keyBlock);
  // Pᵀ: element (nt, e) at key keys[e / 2], query q0 + queryOffset + 8nt +
  // 2t + e % 2.
  Value queryT = add(add(step.q0, step.queryOffset), mul(t4, 2));
  const int64_t firstTile = step.queryOffset / 8;
  auto queryAt = [&](int64_t nt, int64_t e) {
    return add(queryT, 8 * nt + e % 2);
  };
  auto probabilities = [&](bool masked) {
    SmallVector<Value> p;
    for (int64_t nt = 0; nt < nTilesQ; ++nt)
      for (int64_t e = 0; e < 4; ++e) {
        Value lse2 = loadRowPair(step.lseS, step.stage, firstTile + nt, e % 2);
        p.push_back(exp2(exponent(s[nt][e], bIdx, step.hIdx, queryAt(nt, e),
                                  step.keys[e / 2], lse2, masked,
                                  /*guardKey=*/masked && raggedKeys)));
      }
    return p;
  };
  // Keys past Lk (zero-filled rows) get P = 0 too, not exp(0 - lse): that
  // can overflow f16 in dSᵀ, and dQ = dS K then multiplies inf by the zero
  // row (NaN rows in grad_query, issue 17).
  Value needs = blockPairNeedsMask(mods, queryLen, keyLen, step.q0,
                                   step.rowsInBlock, step.k0, step.keyBlock);
  SmallVector<Value> probs = needs ? emitUniformChoice(needs, probabilities)
                                   : probabilities(/*masked=*/false);

  // Register budget (D = 128 holds 128 f32 accumulators): what outlives
  // this point is only the packed A fragments of Pdᵀ, the dropout keep bits
  // packed in one i32, and w = Pᵀ (· softcap'), the factor of dSᵀ; the raw
  // scores die here.
  Probabilities out;
  out.pd.resize(nTilesQ);
  out.w.resize(nTilesQ);
  out.keepBits = keepBits;
  for (int64_t nt = 0; nt < nTilesQ; ++nt)
    for (int64_t e = 0; e < 4; ++e) {
      Value p = probs[4 * nt + e];
      out.pd[nt][e] = p;
      if (out.keepBits)
        out.pd[nt][e] = arith::SelectOp::create(
            b, loc, keptAt(out.keepBits, 4 * nt + e),
            fmul(p, f32(1.0f / (1.0f - dropP))), f32(0.0f));
      out.w[nt][e] = p;
      if (Value factor = emitSoftcapDerivative(b, loc, mods, s[nt][e]))
        out.w[nt][e] = fmul(p, factor);
    }
  return out;
}

void GradEmitter::scoreGradients(const KeyStep &step, const Probabilities &p,
                                 MutableArrayRef<Frag> dP) {
  for (size_t nt = 0; nt < dP.size(); ++nt)
    for (int64_t e = 0; e < 4; ++e) {
      Value delta = loadRowPair(step.deltaS, step.stage,
                                step.queryOffset / 8 + nt, e % 2);
      Value dpv = dP[nt][e];
      if (p.keepBits)
        dpv = arith::SelectOp::create(b, loc, keptAt(p.keepBits, 4 * nt + e),
                                      fmul(dpv, f32(1.0f / (1.0f - dropP))),
                                      f32(0.0f));
      dP[nt][e] = fmul(p.w[nt][e], arith::SubFOp::create(b, loc, dpv, delta));
    }
}
