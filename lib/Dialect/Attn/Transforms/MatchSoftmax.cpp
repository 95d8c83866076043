//===- MatchSoftmax.cpp - attn-fuse: the softmax of a chain ---------------===//
//
// The softmax that anchors a chain: linalg.softmax, or decomposed as
// m = max_j s, e = exp(s - m), p = e / sum_j e (or e * (1 / sum), or the
// log-sum-exp form exp(s - (m + log l))), with dropout on e before the
// division.
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

#include <functional>

namespace mlir::attn::fuse {

/// The stat of `red` read back for every element of a row.
bool ChainMatcher::isRowOperand(const EwOperand &o, const Reduction &red,
                                int64_t rank) {
  if (o.tensor != red.op->getResult(0) || !o.map)
    return false;
  MLIRContext *ctx = red.op->getContext();
  SmallVector<AffineExpr> exprs;
  for (int64_t d = 0; d < rank; ++d) {
    if (d == red.dim) {
      if (red.keepDim)
        exprs.push_back(getAffineConstantExpr(0, ctx));
      continue;
    }
    exprs.push_back(getAffineDimExpr(d, ctx));
  }
  return o.map == AffineMap::get(rank, 0, exprs, ctx);
}

/// Where `step` reads the row sum `l` (within a few producers): the op that
/// blocks the normalization, i.e. `step` itself where it reads l or its
/// reciprocal, else the op between them (an `l + eps`); null where `step`
/// does not read l at all (a dropout step).
static Operation *rowSumReader(Operation *step, Value l) {
  std::function<Operation *(Operation *, int)> find =
      [&](Operation *op, int depth) -> Operation * {
    for (Value v : op->getOperands()) {
      if (v == l)
        return op;
      Operation *def = v.getDefiningOp();
      if (depth > 0 && def && !def->hasTrait<OpTrait::ConstantLike>())
        if (Operation *reader = find(def, depth - 1))
          return reader;
    }
    return nullptr;
  };
  Operation *reader = find(step, 2);
  if (!reader || reader == step)
    return reader;
  FailureOr<Elementwise> recip = getElementwise(reader);
  return succeeded(recip) && recip->kind == EwKind::Reciprocal ? step : reader;
}

LogicalResult ChainMatcher::checkScoreRank(int64_t rank) {
  // One query row of one head, without batch or head dims (q [D] against
  // k [Lk, D]): the op needs a query dim that the chain could take.
  if (rank >= 2)
    return success();
  return fail("the scores have rank " + Twine(rank) +
                  " (one query row with neither a batch nor a head dim); "
                  "attn.attention needs [batch..., query, key] scores: "
                  "give the query a batch or head dim of size 1",
              anchor);
}

LogicalResult ChainMatcher::matchSoftmax(Operation *anchor, Chain &chain,
                                         Value &scores, Value &probs) {
  if (auto sm = dyn_cast<linalg::SoftmaxOp>(anchor)) {
    scores = sm.getInput();
    chain.rank = sm.getInputOperandType().getRank();
    if (failed(checkScoreRank(chain.rank)))
      return failure();
    if (static_cast<int64_t>(sm.getDimension()) != chain.rank - 1)
      return fail("softmax is over dimension " + Twine(sm.getDimension()) +
                      ", not the key dimension " + Twine(chain.rank - 1),
                  sm);
    probs = sm.getResult()[0];
    chain.ops.push_back(sm);
    findAllMaskedRowsTest(scores, sm, chain.rank);
    return success();
  }
  // Decomposed: m = max_j s; e = exp(s - m); p = e / sum_j e (or e * 1/sum).
  FailureOr<Reduction> max = getReduction(anchor);
  if (failed(max) || !max->isMax)
    return fail("not a softmax", anchor);
  scores = max->input;
  chain.rank = cast<RankedTensorType>(scores.getType()).getRank();
  if (failed(checkScoreRank(chain.rank)))
    return failure();
  if (max->dim != chain.rank - 1)
    return fail("softmax is over dimension " + Twine(max->dim) +
                    ", not the key dimension " + Twine(chain.rank - 1),
                anchor);
  chain.ops.push_back(anchor);
  if (!max->op->getResult(0).hasOneUse())
    return matchLogSumExpSoftmax(*max, scores, chain, probs);
  // PyTorch's safe softmax tests the scores for all -inf rows as well: that
  // user is taken with the select it feeds (peelSafeSoftmax).
  int64_t testUsers = 0;
  auto isTestOp = [&](Operation *op) {
    return allMaskedRows && op == allMaskedRows->ops.front();
  };
  if (findAllMaskedRowsTest(scores, anchor, chain.rank))
    testUsers = 1;
  // The scores feed the max and the subtraction only.
  if (std::distance(scores.use_begin(), scores.use_end()) != 2 + testUsers) {
    // The extra user: one that is not a subtraction, else the second one.
    Operation *extra = nullptr;
    bool seenSub = false;
    for (Operation *user : scores.getUsers()) {
      if (user == anchor || isTestOp(user))
        continue;
      FailureOr<Elementwise> ew = getElementwise(user);
      bool isSub = succeeded(ew) && ew->kind == EwKind::Sub;
      if (!isSub || seenSub)
        extra = extra ? extra : user;
      seenSub |= isSub;
    }
    return fail("the scores have users other than the softmax",
                extra ? extra : producerOf(scores));
  }
  Operation *subOp = nullptr;
  for (Operation *user : scores.getUsers())
    if (user != anchor && !isTestOp(user))
      subOp = user;
  FailureOr<Elementwise> sub = getElementwise(subOp);
  if (failed(sub) || sub->kind != EwKind::Sub ||
      !isIdentityOperand(sub->args[0], scores) ||
      !isRowOperand(sub->args[1], *max, chain.rank)) {
    // Where the row max goes elsewhere first (a keepdim reshape), that op.
    Operation *maxUser = *max->op->getResult(0).user_begin();
    return fail("the row max is not subtracted from the scores",
                maxUser != subOp ? maxUser : subOp);
  }
  chain.ops.push_back(subOp);
  Value shifted = subOp->getResult(0);
  if (!shifted.hasOneUse())
    return fail("s - max has another user", blockingUser(shifted));
  Operation *expOp = *shifted.getUsers().begin();
  FailureOr<Elementwise> exp = getElementwise(expOp);
  if (failed(exp) || exp->kind != EwKind::Exp ||
      !isIdentityOperand(exp->args[0], shifted))
    return fail("s - max is not exponentiated", expOp);
  chain.ops.push_back(expOp);
  Value e = expOp->getResult(0);
  if (e.hasOneUse()) {
    // e.g. dropout applied to exp(s - max), then summed and normalized.
    Operation *user = *e.getUsers().begin();
    FailureOr<Elementwise> ew = getElementwise(user);
    auto generic = dyn_cast<linalg::GenericOp>(user);
    bool isProduct =
        (succeeded(ew) &&
         (ew->kind == EwKind::Mul || ew->kind == EwKind::Select)) ||
        (generic && !generic.getBody()->getOps<arith::MulFOp>().empty());
    if (isProduct)
      return fail("exp(s - max) is multiplied before the row sum (dropout "
                  "before the softmax normalization?): that changes the row "
                  "sum l, while attn.attention's dropout keeps l pre-dropout",
                  user);
  }
  if (std::distance(e.use_begin(), e.use_end()) != 2)
    return fail("exp(s - max) must feed the row sum and the normalization "
                "only",
                blockingUser(e));
  std::optional<Reduction> sum;
  Operation *normOp = nullptr;
  for (Operation *user : e.getUsers()) {
    FailureOr<Reduction> r = getReduction(user);
    if (succeeded(r) && !r->isMax && r->input == e && !sum)
      sum = *r;
    else
      normOp = user;
  }
  if (!sum || !normOp)
    return fail("exp(s - max) is not summed over a row",
                normOp ? normOp : userOtherThan(e, sum->op));
  if (sum->dim != chain.rank - 1)
    return fail("the softmax sum is over dimension " + Twine(sum->dim) +
                    ", not the key dimension " + Twine(chain.rank - 1),
                sum->op);
  chain.ops.push_back(sum->op);
  Value l = sum->op->getResult(0);
  if (l.use_empty())
    return fail("the row sum does not normalize the softmax", normOp);
  if (!l.hasOneUse())
    return fail("the row sum has another user", userOtherThan(l, normOp));
  // The normalization after P·V, (e·V) / l: Σ_j (e_j / l) v_j equals
  // (Σ_j e_j v_j) / l in real arithmetic (rounding only), so e stands for
  // the probabilities and the division of P·V's result joins the chain
  // (peelDeferredNormalization).
  std::string why;
  if (succeeded(getContraction(normOp, why))) {
    deferredSum = *sum;
    probs = e;
    return success();
  }
  // p = e / l; or dropout applied to e before the division,
  // (e * keep * c) / l, which is attn.attention's dropout of e / l up to
  // rounding (its row sum l is the pre-dropout one as well).
  Value x = e;
  Operation *step = normOp;
  DropoutSteps dropout;
  while (true) {
    if (std::optional<Normalization> n =
            normalizationOf(step, x, *sum, chain.rank)) {
      if (n->sharedReciprocal)
        return fail("the reciprocal of the row sum has another user",
                    userOtherThan(n->ops.front()->getResult(0), step));
      chain.ops.append(n->ops.begin(), n->ops.end());
      break;
    }
    if (Operation *reader = rowSumReader(step, l))
      return fail("the softmax is not normalized by the row sum l: '" +
                      step->getName().getStringRef() +
                      "' reads it, but not as x / l or x * (1 / l) with l "
                      "read back along the keys",
                  reader);
    FailureOr<bool> isStep = collectDropoutStep(step, x, dropout);
    if (failed(isStep))
      return failure();
    if (!*isStep)
      return fail("the softmax is not normalized by the row sum", step);
    x = step->getResult(0);
    if (!x.hasOneUse())
      return fail("the dropped-out exp(s - max) has another user",
                  blockingUser(x));
    step = *x.getUsers().begin();
  }
  if (!dropout.ops.empty() && failed(recordDropout(dropout, chain)))
    return failure();
  probs = step->getResult(0);
  return success();
}

std::optional<ChainMatcher::Normalization>
ChainMatcher::normalizationOf(Operation *op, Value x, const Reduction &sum,
                              int64_t rank) {
  FailureOr<Elementwise> norm = getElementwise(op);
  if (failed(norm))
    return std::nullopt;
  if (norm->kind == EwKind::Div && isIdentityOperand(norm->args[0], x) &&
      isRowOperand(norm->args[1], sum, rank))
    return Normalization{{op}, false};
  if (norm->kind != EwKind::Mul)
    return std::nullopt;
  // x * (1 / l), with the reciprocal over the row sums.
  const EwOperand *other = nullptr;
  if (isIdentityOperand(norm->args[0], x))
    other = &norm->args[1];
  else if (isIdentityOperand(norm->args[1], x))
    other = &norm->args[0];
  Operation *recipOp =
      other && other->tensor ? other->tensor.getDefiningOp() : nullptr;
  FailureOr<Elementwise> recip = failure();
  if (recipOp)
    recip = getElementwise(other->tensor);
  // The reciprocal has the layout of the row sums, so the operand of the
  // normalization reads it like it would read the sums.
  Reduction asSum = sum;
  asSum.op = recipOp;
  // Over the row sums and read back per row, or over the row sums
  // broadcast to the scores' shape (by a multiply with ones) and read
  // elementwise.
  Value l = sum.op->getResult(0);
  bool perRow = succeeded(recip) && recip->kind == EwKind::Reciprocal &&
                isIdentityOperand(recip->args[0], l) &&
                isRowOperand(*other, asSum, rank);
  bool perElement = succeeded(recip) && recip->kind == EwKind::Reciprocal &&
                    isRowOperand(recip->args[0], sum, rank) && other->map &&
                    other->map.isIdentity();
  if (!perRow && !perElement)
    return std::nullopt;
  return Normalization{{recipOp, op}, !other->tensor.hasOneUse()};
}

FailureOr<Elementwise> ChainMatcher::onlyUserOfKind(Value v, EwKind kind) {
  if (!v.hasOneUse())
    return failure();
  FailureOr<Elementwise> ew = getElementwise(*v.getUsers().begin());
  if (failed(ew) || ew->kind != kind ||
      llvm::none_of(ew->args, [&](const EwOperand &o) {
        return isIdentityOperand(o, v);
      }))
    return failure();
  return ew;
}

/// The log-sum-exp spelling of the softmax:
///   m = max_j s; l = sum_j exp(s - m); p = exp(s - (m + log l)),
/// which is e / l up to rounding. `max` is the anchor, already recorded.
LogicalResult ChainMatcher::matchLogSumExpSoftmax(const Reduction &max,
                                                  Value scores, Chain &chain,
                                                  Value &probs) {
  Value m = max.op->getResult(0);
  if (std::distance(m.use_begin(), m.use_end()) != 2 ||
      std::distance(scores.use_begin(), scores.use_end()) != 3) {
    // A user of the row max that is neither a subtraction (s - m) nor the
    // addition of log l blocks it; else, with two such users, an extra user
    // of the scores.
    Operation *extra = nullptr;
    for (Operation *user : m.getUsers()) {
      FailureOr<Elementwise> ew = getElementwise(user);
      if (failed(ew) || (ew->kind != EwKind::Sub && ew->kind != EwKind::Add)) {
        extra = user;
        break;
      }
    }
    if (extra || std::distance(m.use_begin(), m.use_end()) != 2)
      return fail("the row max has another user", extra ? extra : max.op);
    for (Operation *user : scores.getUsers()) {
      FailureOr<Elementwise> ew = getElementwise(user);
      if (user != max.op && (failed(ew) || ew->kind != EwKind::Sub)) {
        extra = user;
        break;
      }
    }
    return fail("the scores have users other than the softmax",
                extra ? extra : blockingUser(scores));
  }
  // Of the scores' other users, one subtracts m, the other the lse.
  Operation *shiftOp = nullptr, *outerOp = nullptr;
  for (Operation *user : scores.getUsers()) {
    if (user == max.op)
      continue;
    FailureOr<Elementwise> sub = getElementwise(user);
    if (failed(sub) || sub->kind != EwKind::Sub ||
        !isIdentityOperand(sub->args[0], scores))
      return fail("the row max has another user", user);
    (isRowOperand(sub->args[1], max, chain.rank) ? shiftOp : outerOp) = user;
  }
  if (!shiftOp || !outerOp)
    return fail("the row max is not subtracted from the scores",
                userOtherThan(scores, max.op));
  FailureOr<Elementwise> exp =
      onlyUserOfKind(shiftOp->getResult(0), EwKind::Exp);
  if (failed(exp))
    return fail("s - max is not exponentiated (log-sum-exp softmax)",
                blockingUser(shiftOp->getResult(0)));
  Value e = exp->op->getResult(0);
  FailureOr<Reduction> sum = e.hasOneUse() ? getReduction(*e.getUsers().begin())
                                           : FailureOr<Reduction>(failure());
  if (failed(sum) || sum->isMax || sum->input != e ||
      sum->dim != chain.rank - 1)
    return fail("exp(s - max) is not summed over a row (log-sum-exp "
                "softmax)",
                blockingUser(e));
  FailureOr<Elementwise> log =
      onlyUserOfKind(sum->op->getResult(0), EwKind::Log);
  if (failed(log))
    return fail("the row sum is not the log-sum-exp's log",
                blockingUser(sum->op->getResult(0)));
  FailureOr<Elementwise> lse =
      onlyUserOfKind(log->op->getResult(0), EwKind::Add);
  if (failed(lse) || llvm::none_of(lse->args, [&](const EwOperand &o) {
        return isIdentityOperand(o, m);
      }))
    return fail("the log of the row sum is not added to the row max",
                blockingUser(log->op->getResult(0)));
  Value lseValue = lse->op->getResult(0);
  Reduction asMax = max;
  asMax.op = lse->op;
  FailureOr<Elementwise> outer = getElementwise(outerOp);
  if (!lseValue.hasOneUse() || *lseValue.getUsers().begin() != outerOp ||
      !isRowOperand(outer->args[1], asMax, chain.rank))
    return fail("the log-sum-exp is not subtracted from the scores",
                lseValue.hasOneUse() ? outerOp
                                     : userOtherThan(lseValue, outerOp));
  FailureOr<Elementwise> p = onlyUserOfKind(outerOp->getResult(0), EwKind::Exp);
  if (failed(p))
    return fail("s - lse is not exponentiated",
                blockingUser(outerOp->getResult(0)));
  chain.ops.append(
      {shiftOp, exp->op, sum->op, log->op, lse->op, outerOp, p->op});
  probs = p->op->getResult(0);
  return success();
}

} // namespace mlir::attn::fuse
