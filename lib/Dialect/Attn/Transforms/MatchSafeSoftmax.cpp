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
// Users write the same from the boolean mask itself:
//
//   s = s.masked_fill(~keep, -inf)
//   p = where(keep.any(-1, keepdim=True), softmax(s), 0)
//
// The rows that select zeroes are the op's rows with no allowed key only
// where the tensor any() reduces is the chain's keep mask, read from the
// same scores the same way, and reduced over the keys alone: the select is
// peeled with the softmax, and checked against the masks once the scores
// are matched. Any other select of whole rows (another dim, another tensor,
// all(), a nonzero fill) would zero rows the op does not, or keep rows it
// zeroes, and stays a chain with the reason.
//
//===----------------------------------------------------------------------===//

#include "ChainMatcher.h"
#include "LinalgLoops.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
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

/// The i1 value that `v` splats: a constant, a splat constant or a
/// linalg.fill of one.
std::optional<bool> getSplatBool(Value v) {
  if (auto fill = v.getDefiningOp<linalg::FillOp>())
    v = fill.getInputs()[0];
  APInt x;
  if (!getElementTypeOrSelf(v.getType()).isInteger(1) ||
      !matchPattern(v, m_ConstantInt(&x)))
    return std::nullopt;
  return !x.isZero();
}

/// A boolean tensor read through `map`, negated where `negated`.
struct BoolRead {
  Value tensor;
  AffineMap map;
  bool negated = false;
};

/// Whether `g` negates its one i1 input elementwise: xori(x, true), as
/// torch-mlir writes PyTorch's `~m`.
bool isNegation(linalg::GenericOp g) {
  if (!g || !g.hasPureTensorSemantics() || g.getNumDpsInputs() != 1 ||
      g.getNumDpsInits() != 1 || g.getNumParallelLoops() != g.getNumLoops() ||
      !g.getMatchingIndexingMap(g.getDpsInitOperand(0)).isIdentity())
    return false;
  auto xori = soleStatement<arith::XOrIOp>(g);
  Value in = g.getBody()->getArgument(0);
  return xori && xori.getType().isInteger(1) &&
         ((xori.getLhs() == in && getSplatBool(xori.getRhs()) == true) ||
          (xori.getRhs() == in && getSplatBool(xori.getLhs()) == true));
}

/// `map`, a read of the result of `reshape` (which only adds or removes
/// unit dims), as a read of its source: each source dim takes the
/// expression of the one non-unit dim of its group, a unit dim reads 0.
AffineMap readThroughReshape(Operation *reshape, AffineMap map) {
  MLIRContext *ctx = map.getContext();
  AffineExpr zero = getAffineConstantExpr(0, ctx);
  SmallVector<AffineExpr> exprs;
  if (auto collapse = dyn_cast<tensor::CollapseShapeOp>(reshape)) {
    ArrayRef<int64_t> src = collapse.getSrcType().getShape();
    for (auto [g, group] : llvm::enumerate(collapse.getReassociationIndices()))
      for (int64_t d : group)
        exprs.push_back(src[d] == 1 ? zero : map.getResult(g));
  } else {
    auto expand = cast<tensor::ExpandShapeOp>(reshape);
    ArrayRef<int64_t> dst = expand.getResultType().getShape();
    for (const ReassociationIndices &group : expand.getReassociationIndices()) {
      AffineExpr e = zero;
      for (int64_t d : group)
        if (dst[d] != 1)
          e = map.getResult(d);
      exprs.push_back(e);
    }
  }
  return AffineMap::get(map.getNumDims(), 0, exprs, ctx);
}

/// `read` seen through what only moves or negates the elements of its
/// tensor: copies and broadcasts, reshapes of unit dims (torch-mlir's and
/// attn-normalize-chains' keepdim handling) and negations.
BoolRead throughViews(BoolRead read) {
  while (true) {
    EwOperand n = normalizeOperand(read.tensor, read.map);
    if (!n.tensor)
      return read;
    read.tensor = n.tensor;
    read.map = n.map;
    Operation *def = read.tensor.getDefiningOp();
    auto g = dyn_cast_or_null<linalg::GenericOp>(def);
    if (def && reshapesOnlyUnitDims(def)) {
      read.map = readThroughReshape(def, read.map);
      read.tensor = def->getOperand(0);
    } else if (isNegation(g)) {
      OpOperand *in = g.getDpsInputOperand(0);
      read.map = g.getMatchingIndexingMap(in).compose(read.map);
      read.tensor = in->get();
      read.negated = !read.negated;
    } else {
      return read;
    }
  }
}

/// The map of `read` without the dims of size 1 (read at 0 whatever the
/// map says); for a constant tensor, `elements` is set to its elements
/// without those dims.
AffineMap withoutUnitDims(const BoolRead &read, DenseElementsAttr &elements) {
  auto type = cast<ShapedType>(read.tensor.getType());
  SmallVector<AffineExpr> exprs;
  SmallVector<int64_t> shape;
  for (int64_t d = 0, e = type.getRank(); d < e; ++d) {
    if (type.getDimSize(d) == 1)
      continue;
    exprs.push_back(read.map.getResult(d));
    shape.push_back(type.getDimSize(d));
  }
  if (matchPattern(read.tensor, m_Constant(&elements)))
    elements =
        elements.reshape(RankedTensorType::get(shape, type.getElementType()));
  return AffineMap::get(read.map.getNumDims(), 0, exprs, read.map.getContext());
}

/// Whether `a` and `b` read the same elements, negated alike: one tensor,
/// or constants with the same elements (attn-normalize-chains folds a
/// constant mask reshaped for the scores into a new constant), through
/// maps that agree on every dim of size > 1.
bool readsSameElements(const BoolRead &a, const BoolRead &b) {
  DenseElementsAttr ea, eb;
  AffineMap ma = withoutUnitDims(a, ea), mb = withoutUnitDims(b, eb);
  return a.negated == b.negated && ma == mb &&
         (a.tensor == b.tensor || (ea && ea == eb));
}

/// `f` as remarks print it.
std::string floatText(const APFloat &f) {
  SmallString<16> text;
  f.toString(text);
  return std::string(text);
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

LogicalResult ChainMatcher::peelUserSafeSoftmax(Value &probs, Chain &chain) {
  if (!probs.hasOneUse())
    return success();
  Operation *select = *probs.user_begin();
  FailureOr<Elementwise> sel = getElementwise(select);
  if (failed(sel) || sel->kind != EwKind::Select || !sel->args[0].tensor ||
      !getElementTypeOrSelf(sel->args[0].tensor.getType()).isInteger(1))
    return success();
  int pArg = isIdentityOperand(sel->args[1], probs)   ? 1
             : isIdentityOperand(sel->args[2], probs) ? 2
                                                      : 0;
  if (pArg == 0)
    return success();
  // A condition that is no reduction is a keep mask, of single
  // probabilities or of whole rows (each scaled by 1/(1 - p) after):
  // dropout's (matchDropout).
  BoolRead rows = throughViews({sel->args[0].tensor, sel->args[0].map});
  auto red = rows.tensor.getDefiningOp<linalg::GenericOp>();
  if (!red || red.getNumReductionLoops() == 0)
    return success();
  const EwOperand &other = sel->args[pArg == 1 ? 2 : 1];
  if (!other.scalar || !other.scalar->isZero())
    return fail("a select sets whole rows of the probabilities to " +
                    (other.scalar ? floatText(*other.scalar)
                                  : std::string("a non-constant")) +
                    ", not 0; attn.attention gives 0 only in a row with no "
                    "allowed key",
                select);
  // (Where the condition is negated, select(!c, 0, p) keeps p where c.)
  if ((pArg == 1) == rows.negated)
    return fail("a select keeps the probabilities of the rows where its "
                "condition is false: where(any(keep, -1, keepdim=True), p, "
                "0) keeps them where it is true",
                select);
  AnyKeptRowsTest test;
  test.ops.push_back(select);
  if (failed(matchAnyOverKeys(red, rows.map, chain.rank, test)))
    return failure();
  chain.ops.append(test.ops.begin(), test.ops.end());
  probs = select->getResult(0);
  anyKeptRows = std::move(test);
  return success();
}

LogicalResult ChainMatcher::matchAnyOverKeys(linalg::GenericOp red,
                                             AffineMap rowsMap, int64_t rank,
                                             AnyKeptRowsTest &test) {
  Operation *select = test.ops.front();
  if (red.getNumDpsInputs() != 1 || red.getNumDpsInits() != 1 ||
      red.getNumReductionLoops() != 1 ||
      !red.getMatchingIndexingMap(red.getDpsInputOperand(0)).isPermutation())
    return fail("a select keeps whole rows of the probabilities by a "
                "reduction that is not of one boolean tensor over one "
                "dimension",
                select);
  Value init = red.getDpsInitOperand(0)->get();
  Block *body = red.getBody();
  auto isCombine = [&](auto op) {
    return op && llvm::is_contained(op->getOperands(), body->getArgument(0)) &&
           llvm::is_contained(op->getOperands(), body->getArgument(1));
  };
  if (isCombine(soleStatement<arith::AndIOp>(red)) &&
      getSplatBool(init) == true)
    return fail("a select keeps the rows of the probabilities where all() of "
                "a boolean tensor holds, not any(): it zeroes rows that have "
                "an allowed key, where attn.attention gives their "
                "attention",
                select);
  if (!isCombine(soleStatement<arith::OrIOp>(red)) ||
      getSplatBool(init) != false)
    return fail("a select keeps whole rows of the probabilities by a "
                "reduction that is not any() (an or from false)",
                select);
  // The condition read along the keys: any() over another dim.
  const int64_t key = rank - 1;
  if (rowsMap.isFunctionOfDim(key))
    return fail("a select keeps the probabilities by any() of a boolean "
                "tensor over a dimension other than the keys (its condition "
                "varies along the key dimension " +
                    Twine(key) + ")",
                select);
  // Each loop of the reduction as the select reads it from the score loops:
  // the kept ones through the result, the reduced one along the keys.
  SmallVector<unsigned> reduced;
  red.getReductionDims(reduced);
  MLIRContext *ctx = red.getContext();
  SmallVector<AffineExpr> loops(red.getNumLoops());
  loops[reduced.front()] = getAffineDimExpr(key, ctx);
  AffineMap outMap = red.getMatchingIndexingMap(red.getDpsInitOperand(0));
  bool eachOnce = true;
  for (auto [k, e] : llvm::enumerate(outMap.getResults())) {
    auto d = dyn_cast<AffineDimExpr>(e);
    if (!d)
      continue;
    eachOnce &= !loops[d.getPosition()];
    loops[d.getPosition()] = rowsMap.getResult(k);
  }
  if (!eachOnce || llvm::is_contained(loops, AffineExpr()))
    return fail("a select keeps whole rows of the probabilities by a "
                "reduction whose result does not have each loop it does not "
                "reduce once",
                select);
  AffineMap inMap = red.getMatchingIndexingMap(red.getDpsInputOperand(0));
  SmallVector<AffineExpr> keepExprs;
  for (AffineExpr e : inMap.getResults())
    keepExprs.push_back(loops[cast<AffineDimExpr>(e).getPosition()]);
  test.ops.push_back(red);
  test.keep = red.getDpsInputOperand(0)->get();
  test.keepMap = AffineMap::get(rank, 0, keepExprs, ctx);
  return success();
}

LogicalResult ChainMatcher::checkAnyKeptRows(const Chain &chain) {
  if (!anyKeptRows)
    return success();
  BoolRead any = throughViews({anyKeptRows->keep, anyKeptRows->keepMap});
  MLIRContext *ctx = any.map.getContext();
  auto isBool = [](Value m) {
    return m && getElementTypeOrSelf(m.getType()).isInteger(1);
  };
  // The op's keep mask, read from the scores: the mask, negated where the
  // chain excludes where it is true.
  auto isAny = [&](Value mask, ArrayRef<int64_t> dims, bool inverted) {
    if (!isBool(mask))
      return false;
    SmallVector<AffineExpr> exprs;
    for (int64_t d : dims)
      exprs.push_back(getAffineDimExpr(d, ctx));
    return readsSameElements(
        throughViews(
            {mask, AffineMap::get(chain.rank, 0, exprs, ctx), inverted}),
        any);
  };
  if (isAny(chain.mask, chain.maskDims, chain.maskInverted) ||
      (chain.secondMask &&
       isAny(chain.secondMask->tensor, chain.secondMask->dims,
             chain.secondMask->inverted)))
    return success();
  Operation *select = anyKeptRows->ops.front();
  if (!isBool(chain.mask) &&
      !(chain.secondMask && isBool(chain.secondMask->tensor)))
    return fail("a select zeroes the rows of the probabilities where any() "
                "of a boolean tensor over the keys is false, but no boolean "
                "mask tensor excludes the scores: attn.attention zeroes only "
                "the rows with no allowed key",
                select);
  return fail("a select zeroes the rows of the probabilities where any() of "
              "a boolean tensor over the keys is false, and that tensor is "
              "not the boolean mask that excludes the scores (the same "
              "tensor, read the same way): attn.attention zeroes only the "
              "rows with no allowed key",
              select);
}
