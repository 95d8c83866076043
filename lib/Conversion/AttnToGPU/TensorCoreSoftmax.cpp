//===- TensorCoreSoftmax.cpp - the tensor-core forward's online softmax ---===//
//
// The per-thread arithmetic of the tensor-core forward (TensorCoreEmitter.h)
// between the two products: this thread's rows and fragment addresses and
// the loop's initial state; per key block the score epilogue (masked or
// plain, blockNeedsMask), the online-softmax update in the log2 domain with
// dropout on P, and the rescale of O; the conversions between flat loop
// state, C fragments and P's A fragments.
//
//===----------------------------------------------------------------------===//

#include "TensorCoreEmitter.h"

#include "SharedDropoutDraw.h"

#include "attnopt/Dialect/Attn/Utils/Philox.h"
#include "attnopt/Dialect/Attn/Utils/ScoreModifiers.h"

#include "mlir/Dialect/Arith/IR/Arith.h"

using namespace mlir;
using namespace mlir::attn;
using kernel::kLog2E;
using kernel::kNegInf;
using tc::TensorCoreEmitter;

void TensorCoreEmitter::emitRowsAndFragments() {
  warpRow0 = mul(warp, rowsPerWarp);
  // Q A-fragments of m-tile mt, one x4 per k-step of 16 dims: lane l
  // addresses tile row 16mt + l % 16, column 16ks + 8 * (l / 16), so
  // matrices 0..3 = (rows 0-7, cols 0-7), (8-15, 0-7), (0-7, 8-15),
  // (8-15, 8-15) = a0..a3.
  // (In bytes the same with f32 elements: one k-step of m16n8k8's tf32
  // is 8 columns, whose x4 matrices are a0..a3 of that instruction.)
  qLaneOff = mul(
      add(mul(remu(lane, 16), qStride), mul(divu(lane, 16), chunkElements())),
      eltBytes);
  for (int64_t mt = 0; mt < mTiles; ++mt)
    qLaneAddr.push_back(
        add(add(smemBase, qOff),
            add(mul(tileRow0(mt), qStride * eltBytes), qLaneOff)));
  qFrag.assign(mTiles, {});
  if (qInRegisters)
    for (int64_t mt = 0; mt < mTiles; ++mt)
      for (int64_t ks = 0; ks < kStepsQK; ++ks)
        qFrag[mt].push_back(loadQ(mt, ks));

  // K B-fragments, one x4 per (pair of key n-tiles, k-step): lane l addresses
  // key 16np + l % 8 + 8 * (l / 16), dim 16ks + 8 * ((l / 8) % 2); registers
  // {0, 1} = (b0, b1) of n-tile 2np, {2, 3} = (b0, b1) of n-tile 2np + 1.
  // Each is used by every m-tile of the warp.
  kLaneOff = mul(add(mul(add(remu(lane, 8), mul(divu(lane, 16), 8)), kStride),
                     mul(remu(divu(lane, 8), 2), chunkElements())),
                 eltBytes);
  // V B-fragments (transposed), one x4 per (pair of dv n-tiles, k-step of 16
  // keys): lane l addresses key 16kk + l % 8 + 8 * ((l / 8) % 2), dv
  // 16np + 8 * (l / 16); registers {0, 1} = (b0, b1) of dv n-tile 2np,
  // {2, 3} = (b0, b1) of dv n-tile 2np + 1.
  vLaneOff =
      mul(add(mul(add(remu(lane, 8), mul(remu(divu(lane, 8), 2), 8)), vStride),
              mul(divu(lane, 16), 8)),
          eltBytes);

  // This thread's query rows: C-fragment rows g and g + 8 of each m-tile,
  // global and clamped (padding rows compute on the last row, as in the
  // CUDA-core kernel; their results are not stored). Row slot i = 2mt + r.
  for (int64_t mt = 0; mt < mTiles; ++mt)
    for (int64_t r = 0; r < 2; ++r) {
      rows.push_back(add(q0, add(tileRow0(mt), add(g, 8 * r))));
      rowsC.push_back(clampToLast(rows.back(), queryLen));
      if (!splitKV) {
        scoreRows.push_back(rowsC.back());
        maskHeads.push_back(hIdx);
      } else if (tokens == 1) {
        scoreRows.push_back(idx(0));
        maskHeads.push_back(add(hIdx, rowsC.back()));
      } else {
        scoreRows.push_back(remu(rowsC.back(), tokens));
        maskHeads.push_back(add(hIdx, divu(rowsC.back(), tokens)));
      }
    }

  // Loop state: m[nRows], l[nRows] (l is this thread's partial sum over its
  // columns; the quad's partial sums are added in the epilogue), then the O
  // fragments of each m-tile.
  for (int64_t i = 0; i < nRows; ++i)
    init.push_back(f32(kNegInf));
  for (int64_t i = 0; i < nRows; ++i)
    init.push_back(f32(0.0f));
  for (int64_t i = 0; i < mTiles * nTilesO * 4; ++i)
    init.push_back(f32(0.0f));
}

kernel::DropoutCoordinates TensorCoreEmitter::dropoutCoordinates() {
  if (packed)
    return kernel::DropoutCoordinates::packed(
        idx(0), idx(heads), totalQueryTokens, qToken0, kToken0);
  return kernel::DropoutCoordinates::dense(bIdx, idx(heads), size(queryLen));
}

Value TensorCoreEmitter::blockNeedsMask(Value k0) {
  // Only called where some block may need it (maySkipMask), so non-null.
  return blockPairNeedsMask(mods, posLen, keyLen, posFirst, posRows, k0,
                            blockKV);
}

void TensorCoreEmitter::softmaxStep(Value kb, SmallVector<SmallVector<Frag>> &s,
                                    SmallVector<Value> &ml,
                                    SmallVector<Value> &alpha) {
  // Score modifiers at global (row, key): element e of n-tile nt of
  // m-tile mt is at row rows[2mt + e / 2], key key0 + 8nt + 2t + e % 2.
  // With `foldScale` the scores stay raw (masked ones -inf) and
  // scale * log2(e) is applied in the exponent (one FMA per element);
  // otherwise they leave here modified and multiplied by log2(e).
  // Either way m is in the log2 domain.
  Value key0 = mul(kb, blockKV);
  Value keyT = add(key0, mul(t4, 2));
  auto modifiedScores = [&](bool masked) {
    const ScoreModifiers &m = masked ? forms.masked : forms.plain;
    const bool guardKeys = masked && keyGuard;
    SmallVector<Value> out;
    for (int64_t mt = 0; mt < mTiles; ++mt)
      for (int64_t nt = 0; nt < nTilesS; ++nt)
        for (int64_t e = 0; e < 4; ++e) {
          Value keyIdx = add(keyT, 8 * nt + e % 2);
          Value row = scoreRows[2 * mt + e / 2];
          Value mv;
          if (mask)
            mv = kernel::emitMaskLoad(b, loc, mask, maskDims, mods.booleanMask,
                                      bIdx, maskHeads[2 * mt + e / 2], row,
                                      guardKeys ? clampToLast(keyIdx, keyLen)
                                                : keyIdx);
          Value sc = emitModifiedScore(b, loc, m, s[mt][nt][e], mv, row, keyIdx,
                                       size(posLen), size(keyLen));
          if (guardKeys)
            sc = arith::SelectOp::create(b, loc, lessThan(keyIdx, keyLen), sc,
                                         f32(kNegInf));
          if (!forms.foldScale)
            sc = fmul(sc, f32(kLog2E));
          out.push_back(sc);
        }
    return out;
  };
  // Uniform per block: only diagonal / window-edge / last (ragged) key
  // blocks take the elementwise positional path.
  SmallVector<Value> scores =
      maySkipMask ? emitUniformChoice(blockNeedsMask(key0), modifiedScores)
                  : modifiedScores(/*masked=*/false);
  for (int64_t mt = 0; mt < mTiles; ++mt)
    for (int64_t nt = 0; nt < nTilesS; ++nt)
      for (int64_t e = 0; e < 4; ++e)
        s[mt][nt][e] = scores[(mt * nTilesS + nt) * 4 + e];

  // Dropout's keep decisions, each Philox block drawn once by the lane pair
  // that holds it (SharedDropoutDraw.h).
  const kernel::DropoutCoordinates coords = dropoutCoordinates();
  auto dropoutAt = [&](int64_t i, Value key) {
    return coords.at(b, loc, hIdx, rowsC[i], key);
  };
  SmallVector<Value> keeps;
  if (dropP > 0.0f && nTilesS % 2 == 0)
    keeps = kernel::drawQueryRowKeeps(
        b, loc, {seed, offset, dropP, coords.keyToken0}, lane, t4, nRows,
        nTilesS, keyT, dropoutAt);

  // Online softmax per row slot i = 2mt + r (r = 0: elements 0, 1 of
  // each n-tile; r = 1: elements 2, 3). The 4 threads of a quad (same
  // g) share a row.
  for (int64_t i = 0; i < nRows; ++i) {
    int64_t mt = i / 2, r = i % 2;
    SmallVector<Frag> &sm = s[mt];
    Value mx = sm[0][2 * r];
    for (int64_t nt = 0; nt < nTilesS; ++nt)
      for (int64_t j = 0; j < 2; ++j)
        if (nt || j)
          mx = fmax(mx, sm[nt][2 * r + j]);
    mx = fmax(mx, shflXor(mx, 1));
    mx = fmax(mx, shflXor(mx, 2));
    if (forms.foldScale)
      mx = fmul(mx, f32(log2Scale));
    Value m = ml[i], l = ml[nRows + i];
    Value mNew = fmax(m, mx);
    Value isEmpty = arith::CmpFOp::create(b, loc, arith::CmpFPredicate::OEQ,
                                          mNew, f32(kNegInf));
    Value safe = arith::SelectOp::create(b, loc, isEmpty, f32(0.0f), mNew);
    alpha[i] = exp2(arith::SubFOp::create(b, loc, m, safe));
    Value negSafe = arith::NegFOp::create(b, loc, safe);
    Value sum = f32(0.0f);
    for (int64_t nt = 0; nt < nTilesS; ++nt)
      for (int64_t j = 0; j < 2; ++j) {
        Value &sv = sm[nt][2 * r + j];
        // s * (scale log2 e) - m: one FMA.
        Value x = forms.foldScale ? fmaC(sv, f32(log2Scale), negSafe)
                                  : fadd(sv, negSafe);
        Value p = exp2(x);
        sum = fadd(sum, p);
        Value weight = p;
        if (dropP > 0.0f) {
          Value keep =
              keeps.empty()
                  ? emitDropoutKeep(b, loc, seed, offset,
                                    dropoutAt(i, add(keyT, 8 * nt + j)), dropP)
                  : keeps[(i * nTilesS + nt) * 2 + j];
          weight = arith::SelectOp::create(
              b, loc, keep, fmul(p, f32(1.0f / (1.0f - dropP))), f32(0.0f));
        }
        sv = weight; // s now holds the (dropped-out) P.
      }
    ml[i] = mNew;
    ml[nRows + i] = fmaC(l, alpha[i], sum);
  }
}

SmallVector<Value> TensorCoreEmitter::rescaleO(ArrayRef<Value> o,
                                               ValueRange mOld, ValueRange mNew,
                                               ArrayRef<Value> alpha) {
  auto rescaleAll = [&](bool rescale) {
    SmallVector<Value> out;
    for (int64_t mt = 0; mt < mTiles; ++mt)
      for (int64_t nt = 0; nt < nTilesO; ++nt)
        for (int64_t e = 0; e < 4; ++e) {
          Value v = o[(mt * nTilesO + nt) * 4 + e];
          out.push_back(rescale ? fmul(v, alpha[2 * mt + e / 2]) : v);
        }
    return out;
  };
  if (tc::skipsUnchangedRescale(dims.v)) {
    Value grew = arith::ConstantIntOp::create(b, loc, 0, 1);
    for (int64_t i = 0; i < nRows; ++i)
      grew = arith::OrIOp::create(
          b, loc, grew,
          arith::CmpFOp::create(b, loc, arith::CmpFPredicate::UNE, mOld[i],
                                mNew[i]));
    return emitUniformChoice(warpAny(grew), rescaleAll);
  }
  return rescaleAll(/*rescale=*/true);
}

SmallVector<SmallVector<Frag>> TensorCoreEmitter::fragsOf(ArrayRef<Value> flat,
                                                          int64_t nTiles) {
  SmallVector<SmallVector<Frag>> f(mTiles, SmallVector<Frag>(nTiles));
  for (int64_t mt = 0; mt < mTiles; ++mt)
    for (int64_t nt = 0; nt < nTiles; ++nt)
      for (int64_t e = 0; e < 4; ++e)
        f[mt][nt][e] = flat[(mt * nTiles + nt) * 4 + e];
  return f;
}

SmallVector<Value> TensorCoreEmitter::flatten(ArrayRef<SmallVector<Frag>> f) {
  SmallVector<Value> flat;
  for (const SmallVector<Frag> &tile : f)
    for (const Frag &frag : tile)
      flat.append(frag.begin(), frag.end());
  return flat;
}

std::array<Value, 4> TensorCoreEmitter::packP(const SmallVector<Frag> &p,
                                              int64_t kk) {
  const Frag &p0 = p[2 * kk], &p1 = p[2 * kk + 1];
  return std::array<Value, 4>{packPair(p0[0], p0[1]), packPair(p0[2], p0[3]),
                              packPair(p1[0], p1[1]), packPair(p1[2], p1[3])};
}
