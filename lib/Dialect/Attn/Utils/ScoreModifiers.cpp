//===- ScoreModifiers.cpp - per-element score semantics -------------------===//

#include "attnopt/Dialect/Attn/Utils/ScoreModifiers.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Math/IR/Math.h"

#include <limits>

using namespace mlir;
using namespace mlir::attn;

ScoreModifiers ScoreModifiers::get(AttentionOpInterface op) {
  ScoreModifiers mods;
  mods.scale = op.getEffectiveScale();
  if (FloatAttr softcap = op.getSoftcapAttr())
    mods.softcap = softcap.getValue().convertToFloat();
  mods.softcapApprox = op.getSoftcapApprox();
  mods.causal = op.getCausal();
  if (std::optional<ArrayRef<int64_t>> window = op.getWindow()) {
    mods.window = std::make_pair((*window)[0], (*window)[1]);
    // With static lengths a side of Lq + Lk or more excludes nothing (|row
    // + delta - key| < Lq + Lk): clamp it there, so that index arithmetic
    // (32-bit in the kernels) never sees the verifier's 2^62.
    // With a run-time length the clamp is kMaxRuntimeWindowReach, exact
    // while Lq + Lk stays within it (kernels-runtime refuses more).
    int64_t lq = op.getQueryLenBound(), lk = op.getKeyLenBound();
    int64_t reach = ShapedType::isDynamic(lq) || ShapedType::isDynamic(lk)
                        ? kMaxRuntimeWindowReach
                        : lq + lk;
    for (int64_t *side : {&mods.window->first, &mods.window->second})
      if (*side > reach)
        *side = reach;
  }
  if (Value mask = op.getMask()) {
    Type elt = cast<RankedTensorType>(mask.getType()).getElementType();
    mods.booleanMask = elt.isInteger(1);
    mods.additiveMask = !mods.booleanMask;
  }
  return mods;
}

static Value andOrNull(OpBuilder &b, Location loc, Value lhs, Value rhs) {
  if (!lhs)
    return rhs;
  return arith::AndIOp::create(b, loc, lhs, rhs);
}

Value mlir::attn::emitPositionAllowed(OpBuilder &b, Location loc,
                                      const ScoreModifiers &mods, Value row,
                                      Value col, Value queryLen, Value keyLen) {
  if (!mods.hasPositionalMask())
    return Value();
  // The diagonal of row i sits at key i + delta.
  Value diag = row;
  if (mods.causal == CausalMode::bottom_right) {
    Value delta = arith::SubIOp::create(b, loc, keyLen, queryLen);
    diag = arith::AddIOp::create(b, loc, row, delta);
  }
  auto offsetDiag = [&](int64_t off) -> Value {
    if (off == 0)
      return diag;
    return arith::AddIOp::create(b, loc, diag,
                                 arith::ConstantIndexOp::create(b, loc, off));
  };
  Value allowed;
  if (mods.causal != CausalMode::none)
    allowed =
        arith::CmpIOp::create(b, loc, arith::CmpIPredicate::sle, col, diag);
  if (mods.window) {
    auto [left, right] = *mods.window;
    if (left >= 0)
      allowed =
          andOrNull(b, loc, allowed,
                    arith::CmpIOp::create(b, loc, arith::CmpIPredicate::sge,
                                          col, offsetDiag(-left)));
    if (right >= 0)
      allowed =
          andOrNull(b, loc, allowed,
                    arith::CmpIOp::create(b, loc, arith::CmpIPredicate::sle,
                                          col, offsetDiag(right)));
  }
  return allowed;
}

/// The softcap's t = tanh(scale * dot / softcap). Exact: the division of
/// `scaled` (= scale * dot) by the softcap. Under softcap_approx, one
/// multiplication of `dot` by fl(scale / softcap) (a relative change of
/// about 2^-23 in the argument, far below tanh.approx's error) and a tanh
/// marked fastmath<afn>: the IEEE division costs about as much as the
/// approximate tanh saves.
static Value emitSoftcapTanh(OpBuilder &b, Location loc,
                             const ScoreModifiers &mods, Value dot,
                             Value scaled) {
  FloatType f32 = b.getF32Type();
  if (mods.softcapApprox) {
    auto factor = static_cast<float>(static_cast<double>(mods.scale) /
                                     static_cast<double>(*mods.softcap));
    Value arg = arith::MulFOp::create(
        b, loc, dot,
        arith::ConstantFloatOp::create(b, loc, f32, APFloat(factor)));
    return math::TanhOp::create(b, loc, arg, arith::FastMathFlags::afn);
  }
  Value cap =
      arith::ConstantFloatOp::create(b, loc, f32, APFloat(*mods.softcap));
  return math::TanhOp::create(b, loc,
                              arith::DivFOp::create(b, loc, scaled, cap));
}

Value mlir::attn::emitModifiedScore(OpBuilder &b, Location loc,
                                    const ScoreModifiers &mods, Value dot,
                                    Value maskValue, Value row, Value col,
                                    Value queryLen, Value keyLen) {
  Type f32 = b.getF32Type();
  auto constF32 = [&](float v) -> Value {
    return arith::ConstantFloatOp::create(b, loc, b.getF32Type(), APFloat(v));
  };
  // scale * dot, unless softcap_approx folds the scale into the tanh's
  // argument.
  Value score;
  if (!mods.softcap || !mods.softcapApprox)
    score = arith::MulFOp::create(b, loc, dot, constF32(mods.scale));
  if (mods.softcap) {
    // Two statements: the operands' order of creation is then fixed.
    Value t = emitSoftcapTanh(b, loc, mods, dot, score);
    score = arith::MulFOp::create(b, loc, t, constF32(*mods.softcap));
  }
  Value allowed = emitPositionAllowed(b, loc, mods, row, col, queryLen, keyLen);
  if (mods.additiveMask) {
    Value bias = maskValue;
    if (bias.getType() != f32)
      bias = arith::ExtFOp::create(b, loc, f32, bias);
    score = arith::AddFOp::create(b, loc, score, bias);
  } else if (mods.booleanMask) {
    allowed = andOrNull(b, loc, allowed, maskValue);
  }
  if (!allowed)
    return score;
  Value negInf = constF32(-std::numeric_limits<float>::infinity());
  return arith::SelectOp::create(b, loc, allowed, score, negInf);
}

Value mlir::attn::emitSoftcapDerivative(OpBuilder &b, Location loc,
                                        const ScoreModifiers &mods, Value dot) {
  if (!mods.softcap)
    return Value();
  auto constF32 = [&](float v) -> Value {
    return arith::ConstantFloatOp::create(b, loc, b.getF32Type(), APFloat(v));
  };
  // The same operation order as emitModifiedScore, so that t is the tanh
  // the forward computed.
  Value score = mods.softcapApprox
                    ? Value()
                    : arith::MulFOp::create(b, loc, dot, constF32(mods.scale));
  Value t = emitSoftcapTanh(b, loc, mods, dot, score);
  return arith::SubFOp::create(b, loc, constF32(1.0f),
                               arith::MulFOp::create(b, loc, t, t));
}

Value mlir::attn::emitRecomputedProbability(OpBuilder &b, Location loc,
                                            Value score, Value lse) {
  Value negInf = arith::ConstantFloatOp::create(
      b, loc, b.getF32Type(), APFloat(-std::numeric_limits<float>::infinity()));
  Value zero =
      arith::ConstantFloatOp::create(b, loc, b.getF32Type(), APFloat(0.0f));
  Value emptyRow =
      arith::CmpFOp::create(b, loc, arith::CmpFPredicate::OEQ, lse, negInf);
  Value p =
      math::ExpOp::create(b, loc, arith::SubFOp::create(b, loc, score, lse));
  return arith::SelectOp::create(b, loc, emptyRow, zero, p);
}

std::pair<Value, Value> mlir::attn::emitVisibleKeyBlocks(
    OpBuilder &b, Location loc, const ScoreModifiers &mods, Value firstRow,
    Value rows, Value queryLen, Value keyLen, int64_t blockKV) {
  auto idx = [&](int64_t v) -> Value {
    return arith::ConstantIndexOp::create(b, loc, v);
  };
  auto add = [&](Value x, Value y) -> Value {
    return arith::AddIOp::create(b, loc, x, y);
  };
  auto sub = [&](Value x, Value y) -> Value {
    return arith::SubIOp::create(b, loc, x, y);
  };
  Value zero = idx(0), block = idx(blockKV);
  Value delta =
      mods.causal == CausalMode::bottom_right ? sub(keyLen, queryLen) : zero;
  Value lo = zero, hi = keyLen;
  Value lastDiag = add(add(firstRow, sub(rows, idx(1))), delta);
  if (mods.causal != CausalMode::none)
    hi = arith::MinSIOp::create(b, loc, hi, add(lastDiag, idx(1)));
  if (mods.window) {
    auto [left, right] = *mods.window;
    if (left >= 0)
      lo = arith::MaxSIOp::create(b, loc, lo,
                                  sub(add(firstRow, delta), idx(left)));
    if (right >= 0)
      hi = arith::MinSIOp::create(b, loc, hi, add(lastDiag, idx(right + 1)));
  }
  Value first = arith::DivSIOp::create(b, loc, lo, block);
  Value hiBlocks = arith::CeilDivSIOp::create(
      b, loc, arith::MaxSIOp::create(b, loc, hi, zero), block);
  Value empty =
      arith::CmpIOp::create(b, loc, arith::CmpIPredicate::sle, hi, lo);
  Value last = arith::SelectOp::create(
      b, loc, empty, first, arith::MaxSIOp::create(b, loc, hiBlocks, first));
  return {first, last};
}

std::pair<Value, Value> mlir::attn::emitVisibleQueryBlocks(
    OpBuilder &b, Location loc, const ScoreModifiers &mods, Value firstKey,
    Value keys, Value queryLen, Value keyLen, int64_t blockQ) {
  auto idx = [&](int64_t v) -> Value {
    return arith::ConstantIndexOp::create(b, loc, v);
  };
  auto add = [&](Value x, Value y) -> Value {
    return arith::AddIOp::create(b, loc, x, y);
  };
  auto sub = [&](Value x, Value y) -> Value {
    return arith::SubIOp::create(b, loc, x, y);
  };
  Value zero = idx(0), block = idx(blockQ);
  Value delta =
      mods.causal == CausalMode::bottom_right ? sub(keyLen, queryLen) : zero;
  // Rows [lo, hi) see some key of the block: the first key's diagonal row is
  // firstKey - delta, the last key's is firstKey + keys - 1 - delta.
  Value firstDiag = sub(firstKey, delta);
  Value lastDiag = sub(add(firstKey, sub(keys, idx(1))), delta);
  Value lo = zero, hi = queryLen;
  if (mods.causal != CausalMode::none)
    lo = arith::MaxSIOp::create(b, loc, lo, firstDiag);
  if (mods.window) {
    auto [left, right] = *mods.window;
    if (right >= 0)
      lo = arith::MaxSIOp::create(b, loc, lo, sub(firstDiag, idx(right)));
    if (left >= 0)
      hi = arith::MinSIOp::create(b, loc, hi, add(lastDiag, idx(left + 1)));
  }
  Value first = arith::DivSIOp::create(b, loc, lo, block);
  Value hiBlocks = arith::CeilDivSIOp::create(
      b, loc, arith::MaxSIOp::create(b, loc, hi, zero), block);
  Value empty =
      arith::CmpIOp::create(b, loc, arith::CmpIPredicate::sle, hi, lo);
  Value last = arith::SelectOp::create(
      b, loc, empty, first, arith::MaxSIOp::create(b, loc, hiBlocks, first));
  return {first, last};
}
