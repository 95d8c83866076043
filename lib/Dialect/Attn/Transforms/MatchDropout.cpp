//===- MatchDropout.cpp - attn-fuse: dropout in a chain -------------------===//
//
// Dropout between the softmax and P·V (P' = P * keep * c, over one or more
// elementwise steps, with an i1 keep mask seen directly, through uitofp /
// select / tosa.cast, or pre-scaled, and c = 1/(1 - p)): it becomes the
// op's dropout_p and explicit dropout_mask operand (docs/semantics.md, 8.7).
//
//===----------------------------------------------------------------------===//

#include "ChainMatcher.h"

#include "mlir/Dialect/Linalg/IR/LinalgInterfaces.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/Dialect/Tosa/IR/TosaOps.h"
#include "mlir/Dialect/Utils/IndexingUtils.h"
#include "mlir/Dialect/Utils/StaticValueUtils.h"
#include "mlir/IR/Matchers.h"
#include "llvm/ADT/TypeSwitch.h"

#include <cmath>

namespace mlir::attn::fuse {

//===----------------------------------------------------------------------===//
// Dropout between the softmax and P·V
//===----------------------------------------------------------------------===//

/// The dropout probability for a keep-mask factor `scale`: an f32 p in
/// (0, 1) whose f32 factor 1.0f / (1.0f - p), the one attn.attention
/// applies, equals `scale` rounded to f32 (`exact`), or, when no f32 p gives
/// exactly that factor (e.g. 2.5: fl(1/(1 - fl(0.6))) = 2.50000024), the p
/// that comes closest (`exact` false).
struct DropoutP {
  float p = 0.0f;
  bool exact = false;
  float factor = 0.0f; // fl(1 / (1 - p))
};

static std::optional<DropoutP> dropoutPFor(double scale) {
  if (!(scale > 1.0) || !std::isfinite(scale))
    return std::nullopt;
  float want = static_cast<float>(scale);
  double exact = 1.0 - 1.0 / scale;
  auto factor = [](float cand) { return 1.0f / (1.0f - cand); };
  auto valid = [](float cand) { return cand > 0.0f && cand < 1.0f; };
  // The shortest decimal p that gives the factor (1.3333334 is 1/(1 - 0.25),
  // not 1/(1 - 0.25000003)), else the f32 nearest to 1 - 1/scale or a
  // neighbour.
  SmallVector<float> candidates;
  for (int digits = 1; digits <= 9; ++digits) {
    double pow10 = std::pow(10.0, digits);
    candidates.push_back(static_cast<float>(std::round(exact * pow10) / pow10));
  }
  float nearest = static_cast<float>(exact);
  candidates.append(
      {nearest, std::nextafter(nearest, 0.0f), std::nextafter(nearest, 1.0f)});
  for (float cand : candidates)
    if (valid(cand) && factor(cand) == want)
      return DropoutP{cand, true, want};
  if (!valid(nearest))
    return std::nullopt;
  std::optional<DropoutP> best;
  for (float cand : candidates)
    if (valid(cand) && (!best || std::fabs(double(factor(cand)) - scale) <
                                     std::fabs(double(best->factor) - scale)))
      best = DropoutP{cand, false, factor(cand)};
  return best;
}

/// An i1 condition in the body of `g`: a block argument reading an i1
/// tensor (possibly through arith.extui, which is an unsigned widening).
LogicalResult ChainMatcher::collectBodyKeep(linalg::GenericOp g, Value cond,
                                            AffineMap map, DropoutFactors &f) {
  auto arg = dyn_cast<BlockArgument>(cond);
  if (!arg || arg.getOwner() != g.getBody() ||
      arg.getArgNumber() >= g.getNumDpsInputs())
    return fail("the keep condition is not an i1 input of the generic", g);
  OpOperand *in = g.getDpsInputOperand(arg.getArgNumber());
  if (!isa<RankedTensorType>(in->get().getType()) ||
      !getElementTypeOrSelf(in->get().getType()).isInteger(1))
    return fail("the keep condition is not read from an i1 tensor", g);
  EwOperand keep = normalizeOperand(in->get(), g.getMatchingIndexingMap(in));
  keep.map = keep.map.compose(map);
  f.keeps.push_back(keep);
  return success();
}

/// Factors of scalar `v` of the body of `g` (whose result is read through
/// `map` from the score loops): products and divisions by constants of
/// inputs, constants, uitofp of i1 (or of its extui) and select(keep, x, 0).
LogicalResult ChainMatcher::collectBodyFactors(linalg::GenericOp g, Value v,
                                               AffineMap map, Value probs,
                                               DropoutFactors &f) {
  Block *body = g.getBody();
  if (std::optional<APFloat> c = getSplatFloat(v)) {
    f.scale *= c->convertToDouble();
    return success();
  }
  if (auto arg = dyn_cast<BlockArgument>(v)) {
    if (arg.getOwner() != body || arg.getArgNumber() >= g.getNumDpsInputs())
      return fail("the dropout generic reads its output or a non-constant "
                  "scalar",
                  g);
    OpOperand *in = g.getDpsInputOperand(arg.getArgNumber());
    if (!isa<RankedTensorType>(in->get().getType())) {
      if (std::optional<APFloat> c = getSplatFloat(in->get())) {
        f.scale *= c->convertToDouble();
        return success();
      }
      return fail("the probabilities are multiplied by a non-constant "
                  "scalar",
                  g);
    }
    EwOperand o = normalizeOperand(in->get(), g.getMatchingIndexingMap(in));
    if (o.scalar) {
      f.scale *= o.scalar->convertToDouble();
      return success();
    }
    return collectTensorFactors(o.tensor, o.map.compose(map), probs, g, f);
  }
  Operation *def = v.getDefiningOp();
  if (!def || def->getBlock() != body)
    return fail("the probabilities are multiplied by a non-constant scalar", g);
  if (auto mul = dyn_cast<arith::MulFOp>(def))
    return success(
        succeeded(collectBodyFactors(g, mul.getLhs(), map, probs, f)) &&
        succeeded(collectBodyFactors(g, mul.getRhs(), map, probs, f)));
  if (auto div = dyn_cast<arith::DivFOp>(def)) {
    std::optional<APFloat> c = getSplatFloat(div.getRhs());
    if (!c || c->isZero())
      return fail("the dropout generic divides by a non-constant", div);
    f.scale /= c->convertToDouble();
    return collectBodyFactors(g, div.getLhs(), map, probs, f);
  }
  if (auto conv = dyn_cast<arith::UIToFPOp>(def)) {
    Value in = conv.getIn();
    if (auto ext = in.getDefiningOp<arith::ExtUIOp>();
        ext && ext->getBlock() == body)
      in = ext.getIn();
    if (!in.getType().isInteger(1))
      return fail("the dropout generic converts a non-i1 integer to float",
                  conv);
    return collectBodyKeep(g, in, map, f);
  }
  if (auto sel = dyn_cast<arith::SelectOp>(def)) {
    if (isSplatZero(sel.getTrueValue()) && !isSplatZero(sel.getFalseValue()))
      return fail("the dropout select keeps where its condition is false; "
                  "attn.attention's dropout_mask keeps where it is true",
                  sel);
    if (!isSplatZero(sel.getFalseValue()))
      return fail("the dropout select does not put 0 at dropped positions",
                  sel);
    if (failed(collectBodyKeep(g, sel.getCondition(), map, f)))
      return failure();
    return collectBodyFactors(g, sel.getTrueValue(), map, probs, f);
  }
  return fail("the dropout generic computes '" + def->getName().getStringRef() +
                  "', not a product with a keep mask",
              def);
}

/// Factors of tensor `t`, read from the score loops through `map`.
LogicalResult ChainMatcher::collectTensorFactors(Value t, AffineMap map,
                                                 Value probs, Operation *reader,
                                                 DropoutFactors &f) {
  if (t == probs) {
    if (!map.isIdentity())
      return fail("the probabilities are read with a non-identity map", reader);
    ++f.probs;
    return success();
  }
  if (std::optional<APFloat> c = getSplatFloat(t)) {
    f.scale *= c->convertToDouble();
    return success();
  }
  if (getElementTypeOrSelf(t.getType()).isInteger(1)) {
    f.keeps.push_back(EwOperand{t, map, std::nullopt});
    return success();
  }
  Operation *def = t.getDefiningOp();
  if (auto cast = dyn_cast_or_null<tosa::CastOp>(def)) {
    auto inType = dyn_cast<RankedTensorType>(cast.getInput().getType());
    if (!inType || !inType.getElementType().isInteger(1))
      return fail("the dropout multiplier is a tosa.cast of a non-i1 tensor",
                  cast);
    f.keeps.push_back(EwOperand{cast.getInput(), map, std::nullopt});
    return success();
  }
  if (FailureOr<Elementwise> ew = getElementwise(t); succeeded(ew)) {
    auto operand = [&](const EwOperand &o) -> LogicalResult {
      if (o.scalar) {
        f.scale *= o.scalar->convertToDouble();
        return success();
      }
      if (!o.tensor)
        return fail("the probabilities are multiplied by a non-constant "
                    "scalar",
                    ew->op);
      return collectTensorFactors(o.tensor, o.map.compose(map), probs, ew->op,
                                  f);
    };
    switch (ew->kind) {
    case EwKind::Mul:
      return success(succeeded(operand(ew->args[0])) &&
                     succeeded(operand(ew->args[1])));
    case EwKind::Div:
      if (!ew->args[1].scalar || ew->args[1].scalar->isZero())
        return fail("the dropout step divides by a non-constant", ew->op);
      f.scale /= ew->args[1].scalar->convertToDouble();
      return operand(ew->args[0]);
    case EwKind::Select: {
      const EwOperand &cond = ew->args[0], &tv = ew->args[1], &fv = ew->args[2];
      if (tv.scalar && tv.scalar->isZero() &&
          !(fv.scalar && fv.scalar->isZero()))
        return fail("the dropout select keeps where its condition is false; "
                    "attn.attention's dropout_mask keeps where it is true",
                    ew->op);
      if (!fv.scalar || !fv.scalar->isZero())
        return fail("the dropout select does not put 0 at dropped positions",
                    ew->op);
      if (!cond.tensor ||
          !getElementTypeOrSelf(cond.tensor.getType()).isInteger(1))
        return fail("the dropout select condition is not an i1 tensor", ew->op);
      f.keeps.push_back(
          EwOperand{cond.tensor, cond.map.compose(map), std::nullopt});
      return operand(tv);
    }
    default:
      break;
    }
  }
  if (auto g = dyn_cast_or_null<linalg::GenericOp>(def)) {
    if (g.hasPureTensorSemantics() && g.getNumDpsInits() == 1 &&
        g.getNumLoops() == g.getNumParallelLoops() &&
        g.getMatchingIndexingMap(g.getDpsInitOperand(0)).isIdentity() &&
        g.getBody()->getOps<linalg::IndexOp>().empty()) {
      auto yield = cast<linalg::YieldOp>(g.getBody()->getTerminator());
      return collectBodyFactors(g, yield.getValues()[0], map, probs, f);
    }
  }
  return fail("the probabilities are multiplied by a tensor that is not "
              "provably a 0/1 keep mask (" +
                  (def ? "'" + def->getName().getStringRef() + "'"
                       : Twine("a block argument")) +
                  "; convert an i1 mask with arith.uitofp, arith.select or "
                  "tosa.cast)",
              def ? def : reader);
}

/// Dropout between the softmax and P·V: P' = P * keep * c (in any order
/// and grouping, over one or more elementwise steps, each of which must
/// feed only the next), with an i1 keep mask and c = 1/(1 - p). On success
/// `probs` is the dropped-out P' that P·V consumes.
FailureOr<bool> ChainMatcher::collectDropoutStep(Operation *user, Value x,
                                                 DropoutSteps &steps) {
  // Only elementwise products are dropout steps; anything else is left to
  // the caller's message.
  auto linalgOp = dyn_cast<linalg::LinalgOp>(user);
  bool elementwise =
      (isa<linalg::GenericOp, linalg::MulOp, linalg::DivOp>(user) &&
       linalgOp.getNumLoops() == linalgOp.getNumParallelLoops()) ||
      isa<tosa::MulOp, tosa::SelectOp>(user);
  if (!elementwise || user->getNumResults() != 1 ||
      user->getResult(0).getType() != x.getType())
    return false;
  DropoutFactors f;
  AffineMap id = AffineMap::getMultiDimIdentityMap(
      cast<RankedTensorType>(x.getType()).getRank(), x.getContext());
  if (failed(collectTensorFactors(user->getResult(0), id, x, user, f)))
    return failWithPrefix("dropout: ");
  if (f.probs != 1)
    return fail("dropout: the probabilities are not multiplied elementwise "
                "by a keep mask and a constant",
                user);
  steps.total.keeps.append(f.keeps);
  steps.total.scale *= f.scale;
  steps.ops.push_back(user);
  return true;
}

LogicalResult ChainMatcher::recordDropout(const DropoutSteps &steps,
                                          Chain &chain) {
  const DropoutFactors &total = steps.total;
  Operation *first = steps.ops.front();
  if (total.keeps.empty())
    return fail("dropout: the probabilities are multiplied by a constant but "
                "not by a keep mask",
                first);
  if (total.keeps.size() > 1)
    return fail("dropout: the probabilities are multiplied by " +
                    Twine(total.keeps.size()) + " keep masks",
                first);
  std::optional<DropoutP> p = dropoutPFor(total.scale);
  auto text = [](double x) {
    SmallString<16> t;
    APFloat(static_cast<float>(x)).toString(t);
    return std::string(t);
  };
  if (!p)
    return fail("dropout: the kept probabilities are scaled by " +
                    text(total.scale) +
                    ", which is not 1/(1 - p) for a p in (0, 1)",
                first);
  if (!p->exact && !options.inexactReciprocal)
    return fail("dropout: the factor " + text(total.scale) +
                    " is not fl(1/(1 - p)) for any f32 p (p = " + text(p->p) +
                    " gives " + text(p->factor) +
                    "; see option inexact-reciprocal)",
                first);
  SmallVector<int64_t> dims;
  if (failed(matchScoreDims(total.keeps.front(), chain.rank, "keep mask", first,
                            dims)))
    return failWithPrefix("dropout: ");
  chain.dropoutP = p->p;
  chain.dropoutMask = total.keeps.front().tensor;
  chain.dropoutMaskDims = dims;
  if (variesOverGroupedHeads(dims, chain))
    return fail("the dropout keep mask varies over the KV heads or the "
                "query heads of a group, not over both",
                first);
  chain.ops.append(steps.ops.begin(), steps.ops.end());
  return success();
}

LogicalResult ChainMatcher::matchDropout(Value &probs, Chain &chain) {
  Value x = probs;
  DropoutSteps steps;
  while (true) {
    if (!x.hasOneUse())
      return fail(x == probs ? "the probabilities have another user"
                             : "the dropped-out probabilities have another "
                               "user",
                  blockingUser(x));
    Operation *user = *x.getUsers().begin();
    std::string why;
    if (succeeded(getContraction(user, why)))
      break;
    FailureOr<bool> isStep = collectDropoutStep(user, x, steps);
    if (failed(isStep))
      return failure();
    if (!*isStep)
      break;
    x = user->getResult(0);
  }
  if (steps.ops.empty())
    return success();
  if (chain.dropoutMask)
    return fail("dropout is applied both before and after the softmax "
                "normalization",
                steps.ops.front());
  if (failed(recordDropout(steps, chain)))
    return failure();
  probs = x;
  return success();
}

} // namespace mlir::attn::fuse
