//===- MatchSafeSoftmax.cpp - PyTorch's safe softmax in a chain -----------===//
//
// PyTorch's decomposition of scaled_dot_product_attention (the math path,
// which torch.export and torch-mlir produce) zeroes the probabilities of a
// row whose scores are all -inf, where the plain softmax gives NaN:
//
//   p = softmax(s)
//   p = where(all(s == -inf, dim=-1, keepdim), 0, p)     (_safe_softmax)
//
// with s widened to f64 for the comparison. attn.attention defines a row
// with no allowed key to give 0 (docs/semantics.md §6), so the select is
// what the op does already: the test on the scores (extf, cmpf oeq -inf,
// and-reduction over the key dim) and the select become part of the chain.
//
//===----------------------------------------------------------------------===//

#include "ChainMatcher.h"
#include "LinalgLoops.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/IR/Matchers.h"

using namespace mlir;
using namespace mlir::attn;
using namespace mlir::attn::fuse;

namespace {

/// Whether `g` is an all-parallel generic reading its one input `in` and
/// writing its one result with identity maps.
bool isElementwiseOf(linalg::GenericOp g, Value in) {
  return g && g.hasPureTensorSemantics() && g.getNumDpsInputs() == 1 &&
         g.getNumResults() == 1 && g.getNumParallelLoops() == g.getNumLoops() &&
         g.getDpsInputOperand(0)->get() == in &&
         llvm::all_of(g.getIndexingMapsArray(),
                      [](AffineMap m) { return m.isIdentity(); });
}

/// Whether `v` is a float -inf constant (scalar or splat).
bool isNegInf(Value v) {
  if (std::optional<APFloat> f = getSplatFloat(v))
    return f->isInfinity() && f->isNegative();
  return false;
}

} // namespace

std::optional<AllMaskedRowsTest>
ChainMatcher::allMaskedRowsTest(Operation *user, Value scores, int64_t rank) {
  AllMaskedRowsTest test;
  Value x = scores;
  auto g = dyn_cast<linalg::GenericOp>(user);
  // The scores widened first (PyTorch compares in f64): exact.
  if (isElementwiseOf(g, x) && soleStatement<arith::ExtFOp>(g)) {
    test.ops.push_back(g);
    x = g.getResult(0);
    if (!x.hasOneUse())
      return std::nullopt;
    g = dyn_cast<linalg::GenericOp>(*x.user_begin());
  }
  // == -inf, elementwise.
  auto cmp =
      isElementwiseOf(g, x) ? soleStatement<arith::CmpFOp>(g) : arith::CmpFOp();
  if (!cmp || (cmp.getPredicate() != arith::CmpFPredicate::OEQ &&
               cmp.getPredicate() != arith::CmpFPredicate::UEQ))
    return std::nullopt;
  Value arg = g.getBody()->getArgument(0);
  if (!((cmp.getLhs() == arg && isNegInf(cmp.getRhs())) ||
        (cmp.getRhs() == arg && isNegInf(cmp.getLhs()))))
    return std::nullopt;
  test.ops.push_back(g);
  Value eq = g.getResult(0);
  if (!eq.hasOneUse())
    return std::nullopt;
  // all(...) over the key dim: an and-reduction from true.
  auto all = dyn_cast<linalg::GenericOp>(*eq.user_begin());
  if (!all || all.getNumDpsInputs() != 1 || all.getNumResults() != 1 ||
      all.getNumLoops() != rank || all.getNumReductionLoops() != 1 ||
      all.getIteratorTypesArray()[rank - 1] != utils::IteratorType::reduction ||
      !all.getMatchingIndexingMap(all.getDpsInputOperand(0)).isIdentity())
    return std::nullopt;
  auto andi = soleStatement<arith::AndIOp>(all);
  auto fill = all.getDpsInitOperand(0)->get().getDefiningOp<linalg::FillOp>();
  if (!andi || !fill || !matchPattern(fill.getInputs()[0], m_One()))
    return std::nullopt;
  test.ops.push_back(all);
  test.rows = all.getResult(0);
  test.rowsMap = all.getMatchingIndexingMap(all.getDpsInitOperand(0));
  return test;
}

bool ChainMatcher::findAllMaskedRowsTest(Value scores, Operation *softmax,
                                         int64_t rank) {
  for (Operation *user : scores.getUsers())
    if (user != softmax && !allMaskedRows)
      allMaskedRows = allMaskedRowsTest(user, scores, rank);
  return allMaskedRows.has_value();
}

LogicalResult ChainMatcher::peelSafeSoftmax(Value &probs, Chain &chain) {
  if (!allMaskedRows)
    return success();
  auto blocked = [&] {
    return fail("the scores have users other than the softmax",
                allMaskedRows->ops.front());
  };
  const AllMaskedRowsTest &test = *allMaskedRows;
  if (!probs.hasOneUse() || !test.rows.hasOneUse())
    return blocked();
  Operation *user = *probs.user_begin();
  FailureOr<Elementwise> sel = getElementwise(user);
  // select(all masked, 0, p): the row test read as the row (the
  // reduction's output map composed into the select's loops).
  if (failed(sel) || sel->kind != EwKind::Select ||
      sel->args[0].tensor != test.rows || !sel->args[1].scalar ||
      !sel->args[1].scalar->isZero() || sel->args[2].tensor != probs ||
      !isIdentityOperand(sel->args[2], probs) ||
      sel->args[0].map != test.rowsMap)
    return blocked();
  chain.ops.push_back(user);
  chain.ops.append(test.ops.rbegin(), test.ops.rend());
  probs = user->getResult(0);
  return success();
}
