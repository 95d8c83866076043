//===- FuseAttentionChains.cpp - attn-fuse pass ---------------------------===//
//
// This file implements the attn-fuse pass: it recognizes unfused attention
// chains written with upstream ops on tensors (linalg named ops and
// generics, or TOSA) and replaces each chain with one `attn.attention`, so
// that no [.., Lq, Lk] score or probability tensor remains.
//
// A chain is matched from its softmax (the anchor: a `linalg.softmax`, or
// the row-max reduction of a decomposed softmax) backwards to the Q·Kᵀ
// contraction and forwards to the P·V contraction. Every op is looked at
// through one of three views, whatever its dialect:
//  - Contraction: a linalg contraction (matmul, batch_matmul with or without
//    indexing_maps, a mul/add generic) or tosa.matmul, as indexing maps;
//  - Elementwise: a parallel linalg op whose body is one arith/math op, or a
//    TOSA elementwise op, with each operand as a tensor plus indexing map
//    (broadcasts folded in) or as a splat constant;
//  - Reduction: a max/sum over one dimension (linalg or TOSA).
// The semantic checks (which dimension is reduced, which operand is Q, what
// the constants are, that no intermediate has another user) are made on the
// views, so the linalg and the TOSA forms share them.
//
// Causal masks built from `linalg.index` comparisons (a generic whose body
// compares the key index j with the query index i plus a constant and
// selects -inf, or adds a select'd -inf/0 bias, where the comparison
// excludes) become `causal` / `window` attributes: allowed j <= i gives
// top_left, j <= i + (Lk - Lq) (static) bottom_right, j <= i + c (c > 0)
// window = [-1, c]. The same holds for an i1 keep mask or a float bias
// tensor produced by such a generic without inputs (e.g. [Lq, Lk],
// broadcast); if that tensor is not recognized it stays a tensor mask.
//
// Dropout between the softmax and P·V (P' = P * keep * c, over one or more
// elementwise steps, with an i1 keep mask seen directly, through uitofp /
// select / tosa.cast, or pre-scaled, and c = 1/(1 - p)) becomes dropout_p
// and the explicit dropout_mask operand (docs/semantics.md, 8.7).
//
// The matcher is ChainMatcher (ChainMatcher.h, filling an AttentionChain.h
// Chain); this file has the pass and the matcher's scores, Q·Kᵀ and P·V
// parts, MatchSoftmax.cpp, MatchMasks.cpp and MatchDropout.cpp the others,
// ChainViews.cpp the views. The rewrite into attn.attention is
// RewriteAttentionChain.cpp. Every chain left alone has a reason and the
// first op that blocks it, which `explain` reports.
//
//===----------------------------------------------------------------------===//

#include "ChainMatcher.h"
#include "attnopt/Dialect/Attn/Transforms/Passes.h"

#include "mlir/Dialect/Linalg/IR/LinalgInterfaces.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/Dialect/Tosa/IR/TosaOps.h"
#include "mlir/Dialect/Utils/IndexingUtils.h"
#include "mlir/Dialect/Utils/StaticValueUtils.h"
#include "mlir/IR/Matchers.h"
#include "llvm/ADT/TypeSwitch.h"

namespace mlir::attn::fuse {
namespace {

/// A softcap c * tanh(s / c): c, the tanh, its operand s / c, and s;
/// `approx` when the tanh allows approximation (softcap_approx).
struct SoftcapMatch {
  float cap;
  Operation *tanhOp;
  Value inner, scores;
  bool approx;
};

/// Whether the tanh of a softcap (a generic around math.tanh, or tosa.tanh)
/// allows an approximate result: math.tanh with fastmath `afn`, as a front
/// end writes it under "fast math". Its raised op gets softcap_approx.
bool allowsApproximation(Operation *tanhOp) {
  bool afn = false;
  tanhOp->walk([&](math::TanhOp t) {
    afn = arith::bitEnumContainsAll(t.getFastmath(), arith::FastMathFlags::afn);
  });
  return afn;
}

/// Whether the constant `r` is 1/c as a chain in r's type writes it:
/// fl(1/c) in f32, or that rounded to r's narrower type (TOSA's
/// `s * 0.0200195` for softcap 50 in bf16).
bool isReciprocalOf(const APFloat &r, float c) {
  APFloat want(1.0f / c);
  bool losesInfo = false;
  want.convert(r.getSemantics(), APFloat::rmNearestTiesToEven, &losesInfo);
  return want.bitwiseIsEqual(r);
}

/// c * tanh(s / c) (a softcap) seen from its outer product `mul`.
FailureOr<SoftcapMatch> matchSoftcap(const Elementwise &mul) {
  for (unsigned a = 0; a < 2; ++a) {
    const EwOperand &c = mul.args[a], &t = mul.args[1 - a];
    if (!c.scalar || !t.tensor || !t.map || !t.map.isIdentity())
      continue;
    std::optional<float> cap = toExactF32(*c.scalar);
    FailureOr<Elementwise> tanh = getElementwise(t.tensor);
    if (!cap || !(*cap > 0.0f) || !std::isfinite(*cap) || failed(tanh) ||
        tanh->kind != EwKind::Tanh || !tanh->args[0].tensor ||
        !isIdentityOperand(tanh->args[0], tanh->args[0].tensor))
      continue;
    Value inner = tanh->args[0].tensor;
    FailureOr<Elementwise> div = getElementwise(inner);
    if (failed(div) || div->args.size() != 2)
      continue;
    // s / c, or s * (1 / c).
    std::optional<unsigned> sArg;
    if (div->kind == EwKind::Div && div->args[1].scalar &&
        toExactF32(*div->args[1].scalar) == cap)
      sArg = 0;
    for (unsigned b = 0; b < 2 && div->kind == EwKind::Mul; ++b)
      if (div->args[1 - b].scalar &&
          isReciprocalOf(*div->args[1 - b].scalar, *cap))
        sArg = b;
    if (!sArg || !div->args[*sArg].tensor ||
        !isIdentityOperand(div->args[*sArg], div->args[*sArg].tensor))
      continue;
    return SoftcapMatch{*cap, tanh->op, inner, div->args[*sArg].tensor,
                        allowsApproximation(tanh->op)};
  }
  return failure();
}

} // namespace

/// `scale * factor` as one f32 scale: none where it overflows, or
/// underflows to 0 though neither is 0.
static std::optional<float> scaledBy(float scale, float factor) {
  float product = scale * factor;
  if (!std::isfinite(product) ||
      (product == 0.0f && scale != 0.0f && factor != 0.0f))
    return std::nullopt;
  return product;
}

/// The generic computing `cond` as `x > c` (or `>=`, ordered or not) of
/// the operand `x` and the constant `c`, elementwise: with select(cond, x,
/// c) it is max(x, c), as torch-mlir writes `torch.max(w, c)`. Null where
/// `cond` is anything else.
static Operation *clampComparison(const EwOperand &cond, const EwOperand &x,
                                  const APFloat &c) {
  auto g = cond.tensor.getDefiningOp<linalg::GenericOp>();
  if (!g || !cond.map.isIdentity() || !x.map.isIdentity() ||
      g.getNumDpsInputs() != 1 || g.getNumResults() != 1 ||
      g.getNumParallelLoops() != g.getNumLoops() ||
      g.getDpsInputs()[0] != x.tensor ||
      !llvm::all_of(g.getIndexingMapsArray(),
                    [](AffineMap m) { return m.isIdentity(); }))
    return nullptr;
  Block *body = g.getBody();
  auto cmp = cast<linalg::YieldOp>(body->getTerminator())
                 .getValues()[0]
                 .getDefiningOp<arith::CmpFOp>();
  APFloat bound(0.0f);
  if (!cmp || cmp->getBlock() != body || cmp.getLhs() != body->getArgument(0) ||
      !matchPattern(cmp.getRhs(), m_ConstantFloat(&bound)) ||
      !bound.bitwiseIsEqual(c) ||
      !llvm::is_contained({arith::CmpFPredicate::OGT, arith::CmpFPredicate::OGE,
                           arith::CmpFPredicate::UGT,
                           arith::CmpFPredicate::UGE},
                          cmp.getPredicate()))
    return nullptr;
  return g;
}

LogicalResult ChainMatcher::matchScores(Value scores, Chain &chain) {
  // Peeled in the reverse of attn.attention's order: exclusion, bias, scale.
  Value x = scores;
  if (auto st = dyn_cast<RankedTensorType>(scores.getType());
      st && st.getRank() >= 2) {
    chain.lq = st.getDimSize(st.getRank() - 2);
    chain.lk = st.getDimSize(st.getRank() - 1);
  }
  // The scores are an identity-mapped operand produced by a contraction or
  // by an earlier step (preferred over, e.g., a full-size bias).
  auto step = [&](FailureOr<Elementwise> &ew, Value &main,
                  const EwOperand *&other) -> bool {
    std::optional<unsigned> pick;
    for (unsigned a = 0; a < ew->args.size(); ++a) {
      const EwOperand &o = ew->args[a];
      if (!o.tensor || !o.map || !o.map.isIdentity() || !o.tensor.getDefiningOp())
        continue;
      std::string unused;
      bool likely = succeeded(getContraction(o.tensor.getDefiningOp(), unused));
      if (FailureOr<Elementwise> prev = getElementwise(o.tensor);
          succeeded(prev) &&
          (prev->kind == EwKind::Mul || prev->kind == EwKind::Div))
        likely = true;
      if (!pick || likely)
        pick = a;
      if (likely)
        break;
    }
    if (!pick || ew->args.size() != 2)
      return false;
    main = ew->args[*pick].tensor;
    other = &ew->args[1 - *pick];
    return true;
  };
  auto peel = [&](Value next) -> LogicalResult {
    chain.ops.push_back(x.getDefiningOp());
    if (!next.hasOneUse())
      return fail("an intermediate score tensor has another user",
                  userOtherThan(next, x.getDefiningOp()));
    x = next;
    return success();
  };

  FailureOr<Elementwise> ew = getElementwise(x);
  // The scores widened for the softmax (extf) between any two steps: peeled
  // where met, so that a scale or mask applied in the narrow type before the
  // widening (`(s * c).float()`) is seen as well.
  auto refresh = [&]() -> LogicalResult {
    ew = getElementwise(x);
    if (succeeded(ew) && ew->kind == EwKind::Extend) {
      if (failed(peelWidening(x, chain)))
        return failure();
      ew = getElementwise(x);
    }
    return success();
  };
  if (failed(refresh()))
    return failure();
  if (failed(peelUserRowShift(x, chain)) || failed(refresh()))
    return failure();
  // A causal mask built from linalg.index comparisons in the body of a
  // generic: it commutes with the other steps (with a positive scale), so
  // it is accepted between any two of them.
  bool scaled = false;
  auto indexMask = [&]() -> LogicalResult {
    bool matched;
    Value next;
    if (failed(matchIndexMask(x, chain, next, matched)))
      return failure();
    if (!matched)
      return success();
    if (scaled && !(chain.scale > 0.0f))
      return fail("an index-built mask is followed by a non-positive scale",
                  x.getDefiningOp());
    if (failed(peel(next)))
      return failure();
    return refresh();
  };
  if (failed(indexMask()))
    return failure();
  // (4) exclusion: select(keep, s, -inf). Also accepted before the bias
  // and the scale (below, `beforeScale`): `select(m, s, -inf) * c + b` is
  // `select(m, s * c + b, -inf)` for c > 0 (-inf stays -inf), as GPT-J's
  // `where(causal, w, min) / scale` and `masked_fill(m, -inf) / sqrt(d)`
  // write it; not before a softcap (c * tanh(-inf / c) is -c, not -inf).
  auto exclusion = [&](bool beforeScale) -> LogicalResult {
    if (failed(ew) || ew->kind != EwKind::Select)
      return success();
    if (beforeScale) {
      if (chain.softcap)
        return fail("a boolean mask is applied before the softcap, which "
                    "turns its -inf into a finite value",
                    x.getDefiningOp());
      if (scaled && !(chain.scale > 0.0f))
        return fail("a boolean mask is followed by a non-positive scale",
                    x.getDefiningOp());
    }
    const EwOperand &cond = ew->args[0], &t = ew->args[1], &f = ew->args[2];
    // select(m, -inf, s) excludes where m is true: the op gets !m.
    bool inverted = t.scalar && f.tensor;
    const EwOperand &kept = inverted ? f : t, &fill = inverted ? t : f;
    if (!cond.tensor || !kept.tensor || !kept.map.isIdentity() ||
        !fill.scalar)
      return fail("unsupported select on the scores", x.getDefiningOp());
    // where(any(keep), s, 0): whole rows of scores set to 0 give uniform
    // probabilities there, not the zeros of where(any(keep), p, 0).
    if (fill.scalar->isZero() && cond.map &&
        !cond.map.isFunctionOfDim(chain.rank - 1))
      return fail("a select sets whole rows of the scores to 0, which the "
                  "softmax turns into uniform probabilities, not zeros "
                  "(zero the probabilities instead: where(any(keep, -1, "
                  "keepdim=True), softmax(s), 0) is raised)",
                  x.getDefiningOp());
    if (!isMaskFill(*fill.scalar))
      return fail("the masked scores are set to a finite value, not -inf "
                  "(see option large-negative-is-masked)",
                  x.getDefiningOp());
    // A finite fill (large-negative-is-masked) scaled must still be one.
    if (beforeScale && scaled && fill.scalar->isFinite() &&
        !isMaskFill(APFloat(fill.scalar->convertToDouble() * chain.scale)))
      return fail("the masked scores' finite fill, scaled, is above -1e4 "
                  "(no longer a mask fill)",
                  x.getDefiningOp());
    if (!getElementTypeOrSelf(cond.tensor.getType()).isInteger(1))
      return fail("the select condition is not i1", x.getDefiningOp());
    if (failed(matchAnotherMask(cond, inverted, x.getDefiningOp(), chain)))
      return failure();
    if (failed(peel(kept.tensor)))
      return failure();
    if (failed(refresh()))
      return failure();
    return indexMask();
  };
  // A clamp of the scores from below, max(x, c) (OPT's and BioGPT's
  // `torch.max(w, torch.tensor(finfo.min))` after the mask; torch-mlir
  // writes it select(x > c, x, c), TOSA `maximum`): with c = -inf it is x;
  // with c the lowest finite value it only turns the mask's -inf into c,
  // a masked score under large-negative-is-masked (a row masked whole then
  // averages V in the chain where the op gives 0, as with any finite fill).
  // Only where no scale or softcap follows: scaled or capped, c is no
  // longer that fill.
  auto clamp = [&]() -> LogicalResult {
    if (failed(ew))
      return success();
    Operation *op = x.getDefiningOp();
    const EwOperand *kept = nullptr;
    std::optional<APFloat> c;
    Operation *cmp = nullptr;
    if (ew->kind == EwKind::Max && ew->args.size() == 2) {
      for (unsigned a = 0; a < 2; ++a)
        if (ew->args[a].scalar && ew->args[1 - a].tensor) {
          c = ew->args[a].scalar;
          kept = &ew->args[1 - a];
        }
    } else if (ew->kind == EwKind::Select && ew->args[0].tensor &&
               ew->args[1].tensor && ew->args[2].scalar) {
      cmp = clampComparison(ew->args[0], ew->args[1], *ew->args[2].scalar);
      if (cmp) {
        c = ew->args[2].scalar;
        kept = &ew->args[1];
      }
    }
    if (!kept || !kept->map.isIdentity())
      return success();
    if (!(c->isInfinity() && c->isNegative())) {
      if (!c->isNegative() || !c->isLargest())
        return fail("the scores are clamped from below at a finite value "
                    "other than the lowest (a clamp, not a mask fill)",
                    op);
      if (!isMaskFill(*c))
        return fail("the scores are clamped at the lowest finite value, "
                    "which turns a mask's -inf into a finite value (see "
                    "option large-negative-is-masked)",
                    op);
      if (scaled || chain.softcap)
        return fail("the scores are clamped at a finite value before a scale "
                    "or softcap",
                    op);
    }
    // The clamped scores feed the clamp (and its comparison) alone.
    Value next = kept->tensor;
    if (!llvm::all_of(
            next.getUsers(),
            [&](Operation *user) { return user == op || user == cmp; }) ||
        (cmp && !cmp->getResult(0).hasOneUse()))
      return fail("an intermediate score tensor has another user",
                  userOtherThan(next, op));
    chain.ops.push_back(op);
    if (cmp)
      chain.ops.push_back(cmp);
    x = next;
    return refresh();
  };
  // Several in a row (`s.masked_fill(causal, -inf).masked_fill(pad, -inf)`)
  // exclude where any does: select(a, select(b, s, -inf), -inf) is
  // select(a and b, s, -inf), which matchAnotherMask combines (a band
  // becomes causal / window). A clamp may come between them.
  auto exclusions = [&](bool beforeScale) -> LogicalResult {
    for (Value before; x != before;) {
      before = x;
      if (failed(clamp()) || failed(exclusion(beforeScale)))
        return failure();
    }
    return success();
  };
  if (failed(exclusions(/*beforeScale=*/false)))
    return failure();
  // (3) additive biases, one or more in a row (`s + causal + padding`), a
  // boolean mask between them or below them (`where(causal, s, min) +
  // padding`, GPT-NeoX): select(m, s, -inf) + b is select(m, s + b, -inf).
  // At most two stay mask tensors (the others are bands: causal / window),
  // which the rewrite combines. A constant zero added (`baddbmm` on zeros
  // with beta = 1) is the scores themselves.
  Value main;
  const EwOperand *other = nullptr;
  while (succeeded(ew) && ew->kind == EwKind::Add && step(ew, main, other) &&
         other) {
    Operation *add = x.getDefiningOp();
    const bool zero = other->scalar
                          ? other->scalar->isZero()
                          : matchPattern(other->tensor, m_AnyZeroFloat());
    if (zero) {
      if (failed(peel(main)) || failed(refresh()))
        return failure();
      continue;
    }
    if (!other->tensor)
      return fail("a scalar is added to the scores", add);
    Type bt = getElementTypeOrSelf(other->tensor.getType());
    // (f64 only beside f64 Q, K and V: checked in match.)
    if (!bt.isF16() && !bt.isBF16() && !bt.isF32() && !bt.isF64())
      return fail("the additive bias is not f16, bf16, f32 or f64", add);
    if (failed(matchAnotherMask(*other, /*inverted=*/false, add, chain)))
      return failure();
    if (failed(peel(main)))
      return failure();
    if (failed(refresh()))
      return failure();
    if (failed(indexMask()))
      return failure();
    if (failed(exclusions(/*beforeScale=*/true)))
      return failure();
  }
  // (2) softcap: c * tanh(s / c) (or tanh(s * fl(1/c)), which differs by
  // rounding only).
  if (succeeded(ew) && ew->kind == EwKind::Mul && ew->args.size() == 2) {
    FailureOr<SoftcapMatch> cap = matchSoftcap(*ew);
    if (succeeded(cap)) {
      chain.softcap = cap->cap;
      chain.softcapApprox = cap->approx;
      chain.ops.push_back(x.getDefiningOp());
      chain.ops.push_back(cap->tanhOp);
      for (Value v : {Value(cap->tanhOp->getResult(0)), cap->inner})
        if (!v.hasOneUse())
          return fail("an intermediate score tensor has another user",
                      blockingUser(v));
      x = cap->inner;
      if (failed(peel(cap->scores)))
        return failure();
      if (failed(refresh()))
        return failure();
      if (failed(indexMask()))
        return failure();
    }
  }
  // (1) scale: one constant factor or divisor, or several in a row
  // (`s / sqrt(d) * c`), which multiply into one. Their product rounded once
  // differs from the chain's successive roundings by a few roundings of each
  // score at most (none where all but one factor are powers of two), as
  // `S / c` taken as `S * fl(1/c)` does.
  while (succeeded(ew) &&
         (ew->kind == EwKind::Mul || ew->kind == EwKind::Div) &&
         step(ew, main, other) && other) {
    bool isDiv = ew->kind == EwKind::Div;
    Operation *scaleOp = x.getDefiningOp();
    if (isDiv && !isIdentityOperand(ew->args[0], main))
      return fail("the scores are a divisor", scaleOp);
    if (!other->scalar)
      return fail("the scores are scaled by a non-constant", scaleOp);
    std::optional<float> c = toExactF32(*other->scalar);
    if (!c)
      return fail("the scale constant is not exact in f32", scaleOp);
    float factor = *c;
    // The op's scale is a finite f32 (its verifier): a chain scaled by inf
    // or NaN is left as written.
    if (!std::isfinite(factor)) {
      SmallString<16> text;
      APFloat(factor).toString(text);
      return fail("the scores are " + Twine(isDiv ? "divided" : "scaled") +
                      " by " + text + ", not a finite f32",
                  scaleOp);
    }
    if (isDiv) {
      // S / c is S * fl(1/c): exact where c is a power of two, else the two
      // differ by at most one rounding of each score, below the op's own
      // rounding (its softmax is not the chain's bit for bit either). That
      // is PyTorch's `scores / math.sqrt(d)` at d = 32, 128, ...
      APFloat divisor(*c);
      if (divisor.isZero() || !divisor.isFinite() ||
          !std::isfinite(1.0f / *c)) {
        SmallString<16> text;
        divisor.toString(text);
        return fail("the scores are divided by " + text +
                        ", whose reciprocal is not a finite f32",
                    scaleOp);
      }
      factor = 1.0f / *c;
    }
    if (scaled) {
      std::optional<float> product = scaledBy(chain.scale, factor);
      if (!product)
        return fail("the scores are scaled twice, and the product of the "
                    "factors is not a finite, nonzero f32",
                    scaleOp);
      factor = *product;
    }
    chain.scale = factor;
    if (failed(peel(main)))
      return failure();
    if (failed(refresh()))
      return failure();
    scaled = true;
    if (failed(indexMask()))
      return failure();
  }
  if (failed(exclusions(/*beforeScale=*/true)))
    return failure();
  if (failed(peelWidening(x, chain)))
    return failure();
  return matchQK(x, chain);
}

/// The row max subtracted by the user right before the softmax (`s -
/// s.amax(-1, keepdim=True)`, a stable softmax written out before calling
/// one): the softmax's own max of fl(s - m) is then fl(m - m) = 0, so its
/// exponentials are of the same fl(s - m) the op computes. `x` becomes s.
LogicalResult ChainMatcher::peelUserRowShift(Value &x, Chain &chain) {
  FailureOr<Elementwise> ew = getElementwise(x);
  if (failed(ew) || ew->kind != EwKind::Sub || ew->args.size() != 2 ||
      !ew->args[0].tensor || !ew->args[1].tensor ||
      !isIdentityOperand(ew->args[0], ew->args[0].tensor))
    return success();
  Value s = ew->args[0].tensor;
  Operation *maxOp = ew->args[1].tensor.getDefiningOp();
  FailureOr<Reduction> max =
      maxOp ? getReduction(maxOp) : FailureOr<Reduction>(failure());
  if (failed(max) || !max->isMax || max->input != s ||
      max->dim != chain.rank - 1 ||
      !isRowOperand(ew->args[1], *max, chain.rank))
    return success();
  // The scores feed this max and the subtraction alone.
  if (!max->op->getResult(0).hasOneUse() ||
      !llvm::all_of(s.getUsers(), [&](Operation *user) {
        return user == ew->op || user == max->op;
      }))
    return fail("the scores from which the row max is subtracted before the "
                "softmax have another user",
                userOtherThan(s, max->op));
  chain.ops.push_back(ew->op);
  chain.ops.push_back(max->op);
  x = s;
  return success();
}

/// The scores widened for the softmax (f16/bf16 Q·Kᵀ, extf to f32, as
/// mixed-precision front ends write it), before the scale and masks or
/// after them: x becomes the narrow scores. attn.attention computes the
/// scores and the softmax in f32 whatever its element type, so the chain's
/// widening is what the op does anyway.
LogicalResult ChainMatcher::peelWidening(Value &x, Chain &chain) {
  FailureOr<Elementwise> ew = getElementwise(x);
  if (failed(ew) || ew->kind != EwKind::Extend)
    return success();
  if (!isIdentityOperand(ew->args[0], ew->args[0].tensor))
    return fail("the widened scores are not read elementwise", ew->op);
  Value narrow = ew->args[0].tensor;
  Type wide = getElementTypeOrSelf(x.getType());
  if (!wide.isF32() || chain.softmaxType)
    return fail("the scores are widened to another type than f32, or "
                "twice",
                ew->op);
  chain.softmaxType = wide;
  chain.ops.push_back(x.getDefiningOp());
  if (!narrow.hasOneUse())
    return fail("an intermediate score tensor has another user",
                userOtherThan(narrow, ew->op));
  x = narrow;
  return success();
}

/// The scores rounded to Q's element type right after a contraction that
/// accumulates wider (bf16 operands, an f32 result, then truncf: torch-mlir's
/// `q @ k.transpose(-2, -1)` in bf16): that is the contraction's own result
/// rounding, as a contraction with a bf16 result has; attn.attention keeps
/// the scores in f32, as it does for such a contraction (accumulators are
/// not judged). `scores` becomes the contraction's result.
LogicalResult ChainMatcher::peelContractionRounding(Value &scores,
                                                    Chain &chain) {
  FailureOr<Elementwise> ew = getElementwise(scores);
  if (failed(ew) || ew->kind != EwKind::Truncate ||
      !isIdentityOperand(ew->args[0], ew->args[0].tensor))
    return success();
  Value wide = ew->args[0].tensor;
  Operation *def = wide.getDefiningOp();
  std::string unused;
  FailureOr<Contraction> c =
      def ? getContraction(def, unused) : FailureOr<Contraction>(failure());
  if (failed(c) || getElementTypeOrSelf(scores.getType()) !=
                       getElementTypeOrSelf(c->lhs.getType()))
    return success();
  if (!wide.hasOneUse())
    return fail("an intermediate score tensor has another user",
                userOtherThan(wide, ew->op));
  chain.ops.push_back(ew->op);
  scores = wide;
  return success();
}

/// `x` (read through `map`) seen through the copies that produce it (a
/// transpose of the heads out of `[B, L, H, D]`) where each result has that
/// one use: their source, `map` composed with them, and the copies in
/// `copies`. Without such copies, `x` itself.
static Value throughSoleCopies(Value x, AffineMap &map,
                               SmallVectorImpl<Operation *> &copies) {
  EwOperand read = normalizeOperand(x, map);
  if (!read.tensor)
    return x;
  SmallVector<Operation *> path;
  for (Value v = x; v != read.tensor;) {
    if (!v.hasOneUse())
      return x;
    auto copy = v.getDefiningOp<linalg::LinalgOp>();
    path.push_back(copy);
    v = copy.getDpsInputOperand(0)->get();
  }
  copies.append(path);
  map = read.map;
  return read.tensor;
}

/// Q or K multiplied by a constant before Q·Kᵀ (PyTorch's decomposition of
/// scaled_dot_product_attention scales each by sqrt(scale); ViT writes
/// `q * scale`): the factor joins the op's scale, and the operand is read
/// before it (through a transpose copy, as the contraction would). The
/// product may also come before transpose copies of it (Whisper's and
/// BART's `q_proj(x) * scaling` on `[B, L, H * D]`, then the heads split
/// out and transposed), each with one use, which go with it.
/// (q c1)·(k c2) rounds each product term where s·(c1 c2) rounds the sum:
/// the same few roundings per score as `S / c` taken as `S * fl(1/c)`.
LogicalResult ChainMatcher::peelOperandScale(Value &x, AffineMap &map,
                                             Chain &chain) {
  while (true) {
    SmallVector<Operation *> copies;
    AffineMap throughMap = map;
    Value product = throughSoleCopies(x, throughMap, copies);
    FailureOr<Elementwise> ew = getElementwise(product);
    if (failed(ew) || ew->kind != EwKind::Mul || ew->args.size() != 2)
      return success();
    const EwOperand *tensor = nullptr, *factor = nullptr;
    // (The tensor read through a projected permutation: a transpose copy
    // or a broadcast over grouped heads the view already looked through.)
    for (unsigned a = 0; a < 2; ++a)
      if (ew->args[a].scalar && ew->args[1 - a].tensor && ew->args[1 - a].map &&
          ew->args[1 - a].map.isProjectedPermutation()) {
        factor = &ew->args[a];
        tensor = &ew->args[1 - a];
      }
    if (!factor || !product.hasOneUse())
      return success();
    std::optional<float> c = toExactF32(*factor->scalar);
    if (!c)
      return success();
    std::optional<float> scale = scaledBy(chain.scale, *c);
    if (!scale)
      return success();
    chain.scale = *scale;
    chain.ops.append(copies);
    chain.ops.push_back(ew->op);
    EwOperand read =
        normalizeOperand(tensor->tensor, tensor->map.compose(throughMap));
    x = read.tensor;
    map = read.map;
  }
}

LogicalResult ChainMatcher::matchQK(Value scores, Chain &chain) {
  if (failed(peelContractionRounding(scores, chain)))
    return failure();
  Operation *def = scores.getDefiningOp();
  std::string why;
  FailureOr<Contraction> c =
      def ? getContraction(def, why) : FailureOr<Contraction>(failure());
  // An elementwise step the order above did not take (a bias or mask
  // before a softcap or a non-positive scale, a subtraction, a rounding
  // after the scale): named, rather than "not a contraction".
  if (failed(c) && def) {
    if (FailureOr<Elementwise> ew = getElementwise(scores); succeeded(ew)) {
      return fail(Twine("the scores are not a Q·Kᵀ contraction: ") +
                      describe(ew->kind) +
                      " of the scores is left that the steps read (Q·Kᵀ, "
                      "then a positive constant scale, softcap, additive "
                      "bias and mask, in this order; a boolean mask may "
                      "also come before the bias and scale) do not cover",
                  def);
    }
  }
  if (failed(c))
    return fail("the scores are not a Q·Kᵀ contraction" +
                    (def ? " (found '" + def->getName().getStringRef() +
                               "': " + why + ")"
                         : Twine("")),
                producerOf(scores));
  int64_t r = chain.rank;
  if (c->outMap.getNumResults() != r || r < 2 || r > kMaxScoreRank)
    return fail("the scores have rank " + Twine(c->outMap.getNumResults()) +
                    "; 2 to " + Twine(kMaxScoreRank) + " are supported",
                def);
  SmallVector<unsigned> loops;
  for (AffineExpr e : c->outMap.getResults())
    loops.push_back(cast<AffineDimExpr>(e).getPosition());
  unsigned i = loops[r - 2], j = loops[r - 1], d = c->redLoop;
  SmallVector<unsigned> batch(loops.begin(), loops.end() - 2);
  SmallVector<unsigned> qLoops(batch), kLoops(batch);
  qLoops.append({i, d});
  Value q = c->lhs, k = c->rhs;
  AffineMap qMap = c->lhsMap, kMap = c->rhsMap;
  if (positionOf(qMap, i) < 0)
    std::swap(q, k), std::swap(qMap, kMap);
  if (failed(peelOperandScale(q, qMap, chain)) ||
      failed(peelOperandScale(k, kMap, chain)))
    return failure();
  // Grouped-query heads (found on V by matchPV): K is broadcast over the
  // same score dim and read without it.
  for (int64_t b = 0; b < (int64_t)batch.size(); ++b)
    chain.kBatch.push_back(b);
  if (chain.groupDim) {
    std::optional<BroadcastOperand> g = groupBroadcastOf(def, k, kMap, batch);
    if (!g || groupIndexOf(*g, def, batch) != *chain.groupDim)
      return fail("V is broadcast over the query heads of a group but K is "
                  "not",
                  def);
    k = g->operand.tensor;
    kMap = g->operand.map;
    for (int64_t m : llvm::reverse(g->missing)) {
      kLoops.erase(kLoops.begin() + m);
      chain.kBatch.erase(chain.kBatch.begin() + m);
    }
  }
  kLoops.append({j, d});
  FailureOr<SmallVector<int64_t>> qPerm = permutationTo(qMap, qLoops);
  FailureOr<SmallVector<int64_t>> kPerm = permutationTo(kMap, kLoops);
  if (failed(qPerm) || failed(kPerm))
    return fail("the score contraction is not Q·Kᵀ over the head dimension",
                def);
  chain.qk = def;
  chain.q = q;
  chain.k = k;
  chain.qPerm = *qPerm;
  chain.kPerm = *kPerm;
  chain.ops.push_back(def);
  return success();
}

/// `op` as a copy of its one input through a permutation (a transpose,
/// generalized): the map from its loops to the input's dims; null if not.
static AffineMap transposeCopyMap(Operation *op) {
  auto g = dyn_cast<linalg::GenericOp>(op);
  if (!g || !g.hasPureTensorSemantics() || g.getNumDpsInputs() != 1 ||
      g.getNumDpsInits() != 1 || g.getNumParallelLoops() != g.getNumLoops())
    return AffineMap();
  SmallVector<AffineMap> maps = g.getIndexingMapsArray();
  auto yield = cast<linalg::YieldOp>(g.getBody()->getTerminator());
  if (!maps[0].isPermutation() || !maps[1].isIdentity() ||
      yield.getNumOperands() != 1 ||
      yield.getOperand(0) != g.getBody()->getArgument(0))
    return AffineMap();
  return maps[0];
}

LogicalResult ChainMatcher::matchPV(Value probs, Chain &chain) {
  // With the normalization after P·V, the probabilities are exp(s - max),
  // which the row sum reads too.
  Operation *user = nullptr;
  if (deferredSum) {
    user = userOtherThan(probs, deferredSum->op);
  } else {
    if (!probs.hasOneUse())
      return fail("the probabilities have another user", blockingUser(probs));
    user = *probs.getUsers().begin();
  }
  // P transposed for P·V (a channels-first product, OpenAI's QKVAttention
  // `einsum('bts,bcs->bct', w, v)`, multiplies V by Pᵀ): the contraction
  // reads P through the copy (erased with it), its map composed with the
  // copy's.
  Value read = probs;
  AffineMap copyMap = transposeCopyMap(user);
  if (copyMap && user->getResult(0).hasOneUse()) {
    read = user->getResult(0);
    user = *read.getUsers().begin();
  } else {
    copyMap = AffineMap();
  }
  std::string why;
  FailureOr<Contraction> c = getContraction(user, why);
  if (failed(c))
    return fail("the probabilities are not consumed by a P·V contraction (" +
                    why + ")",
                user);
  if (c->lhs == c->rhs)
    return fail("the P·V contraction multiplies P by itself", user);
  int64_t r = chain.rank;
  Value v = c->rhs;
  AffineMap pMap = c->lhsMap, vMap = c->rhsMap;
  if (c->rhs == read)
    v = c->lhs, std::swap(pMap, vMap);
  if (copyMap)
    pMap = copyMap.compose(pMap);
  // (V may lack the group dim: checked by groupBroadcastOf and
  // permutationTo below.)
  if (pMap.getNumResults() != r || c->outMap.getNumResults() != r)
    return fail("the P·V contraction does not have the rank of the scores",
                user);
  SmallVector<unsigned> pLoops;
  for (AffineExpr e : pMap.getResults())
    pLoops.push_back(cast<AffineDimExpr>(e).getPosition());
  if (pLoops[r - 1] != c->redLoop)
    return fail("the P·V contraction does not reduce over the key dimension",
                user);
  // The value dim: the loop of V that P does not have.
  std::optional<unsigned> e;
  for (AffineExpr x : vMap.getResults()) {
    unsigned l = cast<AffineDimExpr>(x).getPosition();
    if (!llvm::is_contained(pLoops, l))
      e = l;
  }
  if (!e)
    return fail("V has no value dimension", user);
  SmallVector<unsigned> batch(pLoops.begin(), pLoops.end() - 2);
  SmallVector<unsigned> vLoops(batch), outLoops(batch);
  // Grouped-query heads: V broadcast over one of the batch dims.
  for (int64_t b = 0; b < (int64_t)batch.size(); ++b)
    chain.vBatch.push_back(b);
  if (std::optional<BroadcastOperand> g =
          groupBroadcastOf(user, v, vMap, batch)) {
    v = g->operand.tensor;
    vMap = g->operand.map;
    chain.groupDim = groupIndexOf(*g, user, batch);
    for (int64_t m : llvm::reverse(g->missing)) {
      vLoops.erase(vLoops.begin() + m);
      chain.vBatch.erase(chain.vBatch.begin() + m);
    }
  }
  vLoops.append({pLoops[r - 1], *e});
  outLoops.append({pLoops[r - 2], *e});
  FailureOr<SmallVector<int64_t>> vPerm = permutationTo(vMap, vLoops);
  // outPerm: result dim k = fused-layout dim outPerm[k].
  SmallVector<int64_t> outPerm;
  for (AffineExpr x : c->outMap.getResults()) {
    auto it = llvm::find(outLoops, cast<AffineDimExpr>(x).getPosition());
    if (it == outLoops.end())
      return fail("the P·V result is not [batch..., query, value]", user);
    outPerm.push_back(it - outLoops.begin());
  }
  if (failed(vPerm))
    return fail("V is not [batch..., key, value] in the P·V contraction", user);
  chain.v = v;
  chain.vPerm = *vPerm;
  chain.outPerm = outPerm;
  chain.pv = user;
  chain.probs = probs;
  return success();
}

/// P·V accumulated in a wider float than Q, K and V and rounded back by
/// its only user (bf16 operands, an f32 result, then truncf, as torch-mlir
/// and IREE write mixed precision): the rounding is the op's own result
/// rounding, so the fused op replaces it. Where P·V also reads the
/// probabilities in the wider type, the op rounds them to the element type
/// for the product (as FlashAttention does) and the chain does not: raised
/// only under allow-precision-change.
LogicalResult ChainMatcher::peelResultNarrowing(Chain &chain, Type elt) {
  Value result = chain.pv->getResult(0);
  auto wide = dyn_cast<FloatType>(getElementTypeOrSelf(result.getType()));
  auto narrow = dyn_cast<FloatType>(elt);
  if (!wide || !narrow || wide.getWidth() <= narrow.getWidth() ||
      !result.hasOneUse())
    return success();
  Operation *user = *result.user_begin();
  FailureOr<Elementwise> trunc = getElementwise(user);
  if (failed(trunc) || trunc->kind != EwKind::Truncate ||
      !isIdentityOperand(trunc->args[0], result) ||
      getElementTypeOrSelf(user->getResult(0).getType()) != elt)
    return success();
  Type probsElt = getElementTypeOrSelf(chain.probs.getType());
  if (probsElt != elt && !options.allowPrecisionChange)
    return fail("P·V multiplies the probabilities in " + typeName(probsElt) +
                    " by V in " + typeName(elt) + " and rounds its " +
                    typeName(wide) + " result to " + typeName(elt) +
                    ": attn.attention rounds P to " + typeName(elt) +
                    " for P·V (as FlashAttention does), which the chain "
                    "does not (see option allow-precision-change)",
                chain.pv);
  chain.ops.push_back(chain.pv);
  chain.pv = user;
  return success();
}

/// The probabilities narrowed back to the type of V for P·V (truncf after
/// a widened softmax): probs becomes the narrowed tensor.
LogicalResult ChainMatcher::peelNarrowing(Value &probs, Chain &chain) {
  if (!probs.hasOneUse())
    return success();
  Operation *user = *probs.getUsers().begin();
  FailureOr<Elementwise> ew = getElementwise(user);
  if (failed(ew) || ew->kind != EwKind::Truncate ||
      !isIdentityOperand(ew->args[0], probs))
    return success();
  chain.ops.push_back(user);
  probs = user->getResult(0);
  return success();
}

LogicalResult ChainMatcher::peelDeferredNormalization(Chain &chain) {
  const Reduction &sum = *deferredSum;
  Value o = chain.pv->getResult(0);
  Value l = sum.op->getResult(0);
  if (!o.hasOneUse())
    return fail("exp(s - max)·V is not normalized by the row sum: it has "
                "another user",
                blockingUser(o));
  Operation *user = *o.getUsers().begin();
  // l read back for every element of a row of the result: result dim k is
  // fused-layout dim outPerm[k], which is score dim outPerm[k] but for the
  // value dim (the last); the key dim of a keepdim sum is read at 0.
  MLIRContext *ctx = user->getContext();
  int64_t r = chain.rank;
  SmallVector<AffineExpr> exprs;
  for (int64_t d = 0; d < r; ++d) {
    if (d == sum.dim) {
      if (sum.keepDim)
        exprs.push_back(getAffineConstantExpr(0, ctx));
      continue;
    }
    auto it = llvm::find(chain.outPerm, d);
    if (it == chain.outPerm.end())
      return fail("the P·V result is not [batch..., query, value]", chain.pv);
    exprs.push_back(getAffineDimExpr(it - chain.outPerm.begin(), ctx));
  }
  AffineMap rowMap = AffineMap::get(r, 0, exprs, ctx);
  auto blocked = [&] {
    return fail("exp(s - max)·V is not normalized by the row sum l of "
                "exp(s - max): '" +
                    user->getName().getStringRef() +
                    "' is not (e·V) / l or (e·V) * (1 / l) with l read back "
                    "along the value dim",
                user);
  };
  FailureOr<Elementwise> norm = getElementwise(user);
  if (failed(norm))
    return blocked();
  // The reciprocal of (e·V) * (1 / l), if any. The normalization itself
  // becomes chain.pv, which rewriteChain replaces; it is not one of the
  // chain's ops, which are erased after it.
  Operation *reciprocal = nullptr;
  const bool divides = norm->kind == EwKind::Div &&
                       isIdentityOperand(norm->args[0], o) &&
                       norm->args[1].tensor == l && norm->args[1].map == rowMap;
  if (!divides) {
    if (norm->kind != EwKind::Mul)
      return blocked();
    const EwOperand *other =
        isIdentityOperand(norm->args[0], o)   ? &norm->args[1]
        : isIdentityOperand(norm->args[1], o) ? &norm->args[0]
                                              : nullptr;
    FailureOr<Elementwise> recip = failure();
    if (other && other->tensor && other->tensor.getDefiningOp())
      recip = getElementwise(other->tensor);
    if (failed(recip) || recip->kind != EwKind::Reciprocal ||
        !isIdentityOperand(recip->args[0], l) || other->map != rowMap)
      return blocked();
    if (!other->tensor.hasOneUse())
      return fail("the reciprocal of the row sum has another user",
                  userOtherThan(other->tensor, user));
    reciprocal = recip->op;
  }
  chain.ops.push_back(chain.pv);
  if (reciprocal)
    chain.ops.push_back(reciprocal);
  chain.pv = user;
  return success();
}

LogicalResult ChainMatcher::checkMergedBatchDims(const Chain &chain) {
  if (chain.rank < 2 || chain.rank > kMaxScoreRank)
    return fail("the scores have rank " + Twine(chain.rank) + "; 2 to " +
                    Twine(kMaxScoreRank) + " are supported",
                chain.qk);
  // [..., KV head, group, i, j]: the query heads of a KV head are the op's
  // head dim, query head = KV head * G + group (repeat_interleave, as
  // repeat_kv writes it). The tile order [..., group, KV head, i, j]
  // (query head = group * Hkv + KV head) would need Q's heads permuted.
  if (chain.groupDim && *chain.groupDim != chain.rank - 3)
    return fail("the query heads of a group are score dim " +
                    Twine(*chain.groupDim) +
                    ", not the one right before the query dim: K and V "
                    "are repeated in tile order ([.., group, KV head, Lq, "
                    "Lk]), and only the interleaved order ([.., KV head, "
                    "group, Lq, Lk], repeat_kv's) is raised",
                chain.pv);
  const int64_t lead = chain.mergedBatchDims();
  if (lead == 0)
    return success();
  // Merged into one batch dim: K and V have all of those dims, first and in
  // order. (A mask with only some of them, or with some of size 1, is
  // broadcast over the rest by the rewrite.)
  auto mergeable = [&](ArrayRef<int64_t> dims) {
    if (llvm::count_if(dims, [&](int64_t d) { return d < lead; }) != lead)
      return false;
    for (int64_t d = 0; d < lead; ++d)
      if (dims[d] != d)
        return false;
    return true;
  };
  if (!mergeable(chain.kBatch))
    return fail("K lacks one of the " + Twine(lead) +
                    " leading batch dims the op's batch dim merges",
                chain.qk);
  if (!mergeable(chain.vBatch))
    return fail("V lacks one of the " + Twine(lead) +
                    " leading batch dims the op's batch dim merges",
                chain.pv);
  return success();
}

/// The narrower tensor `x` is widened from by an elementwise extf, if any.
static Value widenedFrom(Value x) {
  FailureOr<Elementwise> ew = getElementwise(x);
  if (failed(ew) || ew->kind != EwKind::Extend ||
      !isIdentityOperand(ew->args[0], ew->args[0].tensor))
    return {};
  return ew->args[0].tensor;
}

/// Q, K and V all widened from f16 or bf16 to f32 and the result rounded
/// back (PyTorch's math path for `scaled_dot_product_attention` on bf16
/// tensors upcasts): under allow-precision-change the op takes the narrow
/// operands and gives the narrow result, on the tensor-core kernels. Its
/// scores are the same (products of the narrow values, in f32); it rounds P
/// to the narrow type for P·V, which the chain does not. Without the
/// option the op computes in f32 between the casts, as the chain does.
LogicalResult ChainMatcher::peelUpcast(Chain &chain) {
  Value q = widenedFrom(chain.q), k = widenedFrom(chain.k),
        v = widenedFrom(chain.v);
  if (!q || !k || !v || !options.allowPrecisionChange ||
      !getElementTypeOrSelf(chain.q.getType()).isF32())
    return success();
  Type narrow = getElementTypeOrSelf(q.getType());
  if ((!narrow.isF16() && !narrow.isBF16()) ||
      getElementTypeOrSelf(k.getType()) != narrow ||
      getElementTypeOrSelf(v.getType()) != narrow)
    return success();
  Value result = chain.pv->getResult(0);
  if (!result.hasOneUse())
    return success();
  Operation *user = *result.user_begin();
  FailureOr<Elementwise> trunc = getElementwise(user);
  if (failed(trunc) || trunc->kind != EwKind::Truncate ||
      !isIdentityOperand(trunc->args[0], result) ||
      getElementTypeOrSelf(user->getResult(0).getType()) != narrow)
    return success();
  for (Value wide : {chain.q, chain.k, chain.v})
    chain.ops.push_back(wide.getDefiningOp());
  chain.q = q;
  chain.k = k;
  chain.v = v;
  chain.ops.push_back(chain.pv);
  chain.pv = user;
  return success();
}

LogicalResult ChainMatcher::match(Operation *anchor, Chain &chain) {
  this->anchor = anchor;
  chain.anchor = anchor;
  allMaskedRows.reset();
  anyKeptRows.reset();
  deferredSum.reset();
  Value scores, probs;
  if (failed(matchSoftmax(anchor, chain, scores, probs)))
    return failure();
  if (deferredSum) {
    // Normalized after P·V: nothing between exp(s - max) and P·V (no
    // safe-softmax select, dropout or narrowing of e).
    if (allMaskedRows)
      return fail("the scores have users other than the softmax",
                  allMaskedRows->ops.front());
    if (failed(matchPV(probs, chain)) ||
        failed(peelDeferredNormalization(chain)) ||
        failed(matchScores(scores, chain)))
      return failure();
  } else if (failed(peelSafeSoftmax(probs, chain)) ||
             failed(peelUserSafeSoftmax(probs, chain)) ||
             failed(matchDropout(probs, chain)) ||
             failed(peelNarrowing(probs, chain)) ||
             failed(matchPV(probs, chain)) ||
             failed(matchScores(scores, chain)) ||
             failed(checkAnyKeptRows(chain)))
    return failure();
  // A softmax widened without narrowing back (or the reverse) computes P·V
  // in another type than Q·Kᵀ; the type check below refuses it.

  // Nothing to compute; and folded into the head dim, a zero batch would
  // make an op with no heads, which the verifier rejects.
  for (Value operand : {chain.q, chain.k, chain.v})
    if (llvm::is_contained(cast<ShapedType>(operand.getType()).getShape(), 0))
      return fail("Q, K or V has a dimension of size 0 (nothing to compute)",
                  chain.qk);
  if (failed(checkMergedBatchDims(chain)) || failed(peelUpcast(chain)))
    return failure();
  Type elt = getElementTypeOrSelf(chain.q.getType());
  if (elt.isF64()) {
    // The op has no f64 form: raised only on request, with Q, K, V and a
    // float mask rounded to f32 and the result widened back.
    if (!options.allowPrecisionChange)
      return fail("Q, K and V are f64; attn.attention computes in f16, bf16 "
                  "or f32, so the results would lose f64's precision (see "
                  "option allow-precision-change, which raises the chain "
                  "with its operands rounded to f32)",
                  chain.qk);
    chain.roundedFrom = elt;
  } else if (!elt.isF16() && !elt.isBF16() && !elt.isF32()) {
    return fail("Q is not f16, bf16, f32 or f64", chain.qk);
  }
  auto isF64 = [](Value m) {
    return m && getElementTypeOrSelf(m.getType()).isF64();
  };
  if ((isF64(chain.mask) ||
       (chain.secondMask && isF64(chain.secondMask->tensor))) &&
      !chain.roundedFrom)
    return fail("the additive bias is f64 but Q is " + typeName(elt) +
                    "; attn.attention takes an f16, bf16 or f32 bias",
                chain.qk);
  if (getElementTypeOrSelf(chain.k.getType()) != elt)
    return fail("Q and K do not share one element type", chain.qk);
  if (getElementTypeOrSelf(chain.v.getType()) == elt &&
      failed(peelResultNarrowing(chain, elt)))
    return failure();
  if (getElementTypeOrSelf(chain.v.getType()) != elt ||
      getElementTypeOrSelf(chain.pv->getResult(0).getType()) != elt)
    return fail("Q, V and the result do not share one element type", chain.pv);
  for (Value t : {chain.q, chain.k, chain.v})
    if (!isa<RankedTensorType>(t.getType()))
      return fail("an operand is not a ranked tensor", chain.qk);
  // attn.attention runs the softmax in f32 whatever its element type; a
  // chain that runs it in f16/bf16 rounds in a way the op cannot reproduce.
  // (Contraction accumulators are not judged: front ends write f16
  // accumulators where the hardware accumulates in f32.)
  Type softmaxElt = chain.softmaxType ? chain.softmaxType
                                      : getElementTypeOrSelf(scores.getType());
  if (!softmaxElt.isF32() && !options.allowPrecisionChange)
    return fail("the softmax runs in " + typeName(softmaxElt) +
                    "; attn.attention computes it in f32, so the results would "
                    "differ by the chain's own rounding (see option "
                    "allow-precision-change)",
                chain.anchor);
  if (!softmaxElt.isF32())
    chain.changedSoftmaxType = softmaxElt;
  return success();
}

} // namespace mlir::attn::fuse

namespace mlir::attn {
#define GEN_PASS_DEF_ATTNFUSEPASS
#include "attnopt/Dialect/Attn/Transforms/Passes.h.inc"

namespace {

using fuse::Chain;
using fuse::ChainMatcher;
using fuse::Elementwise;
using fuse::EwKind;
using fuse::FuseOptions;
using fuse::getElementwise;
using fuse::getReduction;
using fuse::Reduction;
using fuse::rewriteChain;

/// For explain: why a reduction whose body takes a maximum (softmax-like)
/// is not a row max the matcher can start from; empty if it is not
/// max-like at all.
std::string whyNotRowMax(Operation *op) {
  auto linalgOp = dyn_cast<linalg::LinalgOp>(op);
  if (!linalgOp || linalgOp.getNumReductionLoops() == 0)
    return "";
  Block *body = linalgOp.getBlock();
  if (body->getOps<arith::MaximumFOp>().empty() &&
      body->getOps<arith::MaxNumFOp>().empty())
    return "";
  if (linalgOp->getNumResults() != 1)
    return "the max reduction has " + std::to_string(op->getNumResults()) +
           " results (an argmax?); a softmax's row max has one";
  if (linalgOp.getNumReductionLoops() != 1)
    return "the max reduction reduces over more than one dimension";
  return "the max reduction is not a plain row max (one max op in the "
         "body, over the reduced element and the accumulator, from -inf or "
         "the lowest float)";
}

/// For explain: the exponential of a row sum of exp(s) whose s is not
/// shifted by a row max (a softmax written without it); null otherwise.
Operation *expWithoutRowMax(Operation *op) {
  FailureOr<Reduction> sum = getReduction(op);
  if (failed(sum) || sum->isMax)
    return nullptr;
  FailureOr<Elementwise> exp = getElementwise(sum->input);
  if (failed(exp) || exp->kind != EwKind::Exp || !exp->args[0].tensor)
    return nullptr;
  // exp(s - m), possibly widened between the two: the row max's remark
  // covers it.
  Value shifted = exp->args[0].tensor;
  for (FailureOr<Elementwise> ew = getElementwise(shifted);
       succeeded(ew) && ew->kind == EwKind::Extend && ew->args[0].tensor;
       ew = getElementwise(shifted))
    shifted = ew->args[0].tensor;
  FailureOr<Elementwise> shift = getElementwise(shifted);
  if (succeeded(shift) && shift->kind == EwKind::Sub)
    return nullptr;
  return exp->op;
}

struct AttnFusePass final : impl::AttnFusePassBase<AttnFusePass> {
  using Base::Base;

  void runOnOperation() override {
    SmallVector<Operation *> anchors;
    getOperation()->walk([&](Operation *op) {
      if (isa<linalg::SoftmaxOp>(op)) {
        anchors.push_back(op);
        return;
      }
      FailureOr<Reduction> r = getReduction(op);
      if (succeeded(r) && r->isMax) {
        anchors.push_back(op);
        return;
      }
      if (!explain)
        return;
      // Softmax-like reductions that cannot start a chain are named too:
      // a max reduction that is no row max, and a row sum of exp(s)
      // without the max.
      if (std::string why = whyNotRowMax(op); !why.empty()) {
        InFlightDiagnostic remark = op->emitRemark("attn-fuse: not fused: ")
                                    << why;
        remark.attachNote(op->getLoc())
            << "the first op that blocks it: '" << op->getName()
            << "' (the reduction itself)";
      } else if (Operation *exp = expWithoutRowMax(op)) {
        InFlightDiagnostic remark = op->emitRemark(
            "attn-fuse: not fused: a softmax without its row max, exp(s) / "
            "sum_j exp(s): attn.attention subtracts the row max (it does not "
            "overflow where this chain does); write exp(s - max) to raise "
            "it");
        remark.attachNote(exp->getLoc())
            << "the first op that blocks it: '" << exp->getName() << "'";
      }
    });
    FuseOptions fuseOptions{inexactReciprocal, largeNegativeIsMasked,
                            allowPrecisionChange};
    IRRewriter rewriter(&getContext());
    DenseSet<Operation *> erased;
    for (Operation *anchor : anchors) {
      if (erased.contains(anchor))
        continue;
      ChainMatcher matcher(fuseOptions);
      Chain chain;
      if (failed(matcher.match(anchor, chain))) {
        if (explain) {
          InFlightDiagnostic remark =
              anchor->emitRemark("attn-fuse: not fused: ") << matcher.reason;
          Operation *blocker = matcher.blocker ? matcher.blocker : anchor;
          remark.attachNote(blocker->getLoc())
              << "the first op that blocks it: '" << blocker->getName() << "'"
              << (blocker == anchor ? " (the softmax itself)" : "");
        }
        continue;
      }
      rewriteChain(rewriter, chain, erased);
    }
  }
};

} // namespace
} // namespace mlir::attn
