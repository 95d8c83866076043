//===- RestoreUnitRowReductions.cpp - a softmax's folded row reductions ---===//
//
// A softmax over a dim of size 1 (one key: Lk = 1, cross-attention to a
// single token, the first step of a cache) loses its row reductions in front
// ends that fold a reduction over a size-1 axis into its input, as TOSA's
// reduce_max and reduce_sum folders do: `s - reduce_max(s)` becomes
// `s - s`, and `e * reciprocal(reduce_sum(e))` becomes `e * reciprocal(e)`.
// The chain is then no softmax attn-fuse can see. These patterns put the
// reductions back, as keepdim generics over the unit dim:
//
//   generic { subf(x, x) } (x [..., 1]), its result exponentiated
//     -> generic { subf(x, m) } with m = max-reduce(x) from -inf
//   generic { divf(1, e) } or generic { divf(e, e) } (e = exp(...) [..., 1])
//     -> the same with e's row sum l = sum-reduce(e) from 0 as the divisor
//   generic { log(e) } (e an exponential)  -> log(sum-reduce(e))
//   generic { addf(x, log(sum(exp(x - m)))) } (m = max(x), restored above)
//     -> the same with m for x: the log-sum-exp softmax's m + log(l)
//
// Both are exact: the max of one element (from -inf) and the sum of one
// element (from 0) are that element. They apply only to the softmax's own
// shape: the subtraction's result must feed an exponential, and the divisor
// must be an exponential's result.
//
//===----------------------------------------------------------------------===//

#include "LinalgLoops.h"
#include "attnopt/Dialect/Attn/Transforms/Transforms.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/IR/Matchers.h"
#include "mlir/IR/PatternMatch.h"

#include <limits>

using namespace mlir;

namespace {

/// The one statement of an all-parallel, one-result generic with identity
/// maps whose last loop has the static size 1, if its body is `op` yielded.
template <typename OpTy> OpTy unitRowStatement(linalg::GenericOp g) {
  if (!g.hasPureTensorSemantics() || g.getNumResults() != 1 ||
      g.getNumLoops() == 0 || g.getNumReductionLoops() != 0 ||
      !llvm::all_of(g.getIndexingMapsArray(),
                    [](AffineMap m) { return m.isIdentity(); }))
    return {};
  auto type = cast<RankedTensorType>(g.getResult(0).getType());
  if (type.getShape().back() != 1)
    return {};
  return attn::soleStatement<OpTy>(g);
}

/// The tensor a block argument of `g` reads (nullptr for the init or a
/// value from outside the body).
Value inputOf(linalg::GenericOp g, Value v) {
  auto arg = dyn_cast<BlockArgument>(v);
  if (!arg || arg.getOwner() != g.getBody() ||
      arg.getArgNumber() >= g.getNumDpsInputs())
    return {};
  return g.getDpsInputOperand(arg.getArgNumber())->get();
}

/// Whether `v` is the result of a one-statement `math.exp` generic over a
/// unit last dim.
bool isUnitRowExp(Value v) {
  auto g = v.getDefiningOp<linalg::GenericOp>();
  return g && unitRowStatement<math::ExpOp>(g);
}

/// The init of a reduction generic if it is a linalg.fill of `value`.
bool fillsWith(linalg::GenericOp g, double value) {
  auto fill = g.getDpsInitOperand(0)->get().getDefiningOp<linalg::FillOp>();
  APFloat f(0.0);
  return fill && matchPattern(fill.getInputs()[0], m_ConstantFloat(&f)) &&
         f.convertToDouble() == value;
}

/// The input of a one-input reduction generic over a unit last dim whose
/// body is one `OpTy` of the element and the accumulator, from `init`.
template <typename OpTy> Value unitRowReductionInput(Value v, double init) {
  auto g = v.getDefiningOp<linalg::GenericOp>();
  if (!g || g.getNumDpsInputs() != 1 || g.getNumReductionLoops() != 1 ||
      !fillsWith(g, init))
    return {};
  if (!attn::soleStatement<OpTy>(g))
    return {};
  Value x = g.getDpsInputOperand(0)->get();
  if (cast<RankedTensorType>(x.getType()).getShape().back() != 1)
    return {};
  return x;
}

/// A keepdim reduction of `x` ([..., 1]) over its last dim, from `identity`,
/// combining with `combine`: `[..., 1]` again.
Value reduceUnitRow(
    PatternRewriter &rewriter, Location loc, Value x, TypedAttr identity,
    function_ref<Value(OpBuilder &, Location, Value, Value)> combine) {
  auto type = cast<RankedTensorType>(x.getType());
  const int64_t rank = type.getRank();
  MLIRContext *ctx = rewriter.getContext();
  Value init = tensor::EmptyOp::create(rewriter, loc, type.getShape(),
                                       type.getElementType());
  Value start = arith::ConstantOp::create(rewriter, loc, identity);
  init = linalg::FillOp::create(rewriter, loc, start, init).getResult(0);
  SmallVector<AffineExpr> row;
  for (int64_t d = 0; d + 1 < rank; ++d)
    row.push_back(getAffineDimExpr(d, ctx));
  row.push_back(getAffineConstantExpr(0, ctx));
  SmallVector<AffineMap> maps = {AffineMap::getMultiDimIdentityMap(rank, ctx),
                                 AffineMap::get(rank, 0, row, ctx)};
  SmallVector<utils::IteratorType> iterators(rank,
                                             utils::IteratorType::parallel);
  iterators.back() = utils::IteratorType::reduction;
  return linalg::GenericOp::create(
             rewriter, loc, TypeRange{type}, ValueRange{x}, ValueRange{init},
             maps, iterators,
             [&](OpBuilder &b, Location l, ValueRange args) {
               linalg::YieldOp::create(b, l, combine(b, l, args[0], args[1]));
             })
      .getResult(0);
}

/// The row sum of `e` ([..., 1]) from 0, keepdim.
Value unitRowSum(PatternRewriter &rewriter, Location loc, Value e) {
  auto elt = cast<FloatType>(getElementTypeOrSelf(e.getType()));
  return reduceUnitRow(
      rewriter, loc, e, rewriter.getFloatAttr(elt, 0.0),
      [](OpBuilder &b, Location l, Value in, Value acc) -> Value {
        return arith::AddFOp::create(b, l, in, acc);
      });
}

/// Replaces `g` (identity maps, all parallel) by the same generic with
/// `value` as one more input, which `use` (an operand of the statement of
/// its body) reads instead of what it read: the statement, its flags and
/// the other inputs stay as written (an input no longer read is left to
/// canonicalization).
void readInstead(PatternRewriter &rewriter, linalg::GenericOp g, OpOperand &use,
                 Value value) {
  SmallVector<Value> inputs = g.getDpsInputs();
  inputs.push_back(value);
  SmallVector<AffineMap> maps(inputs.size() + 1,
                              AffineMap::getMultiDimIdentityMap(
                                  g.getNumLoops(), rewriter.getContext()));
  auto rebuilt = linalg::GenericOp::create(
      rewriter, g.getLoc(), g->getResultTypes(), inputs, g.getDpsInits(), maps,
      g.getIteratorTypesArray());
  rewriter.inlineRegionBefore(g.getRegion(), rebuilt.getRegion(),
                              rebuilt.getRegion().begin());
  Block *body = rebuilt.getBody();
  BlockArgument arg = body->insertArgument(
      inputs.size() - 1, getElementTypeOrSelf(value.getType()), g.getLoc());
  rewriter.modifyOpInPlace(use.getOwner(), [&] { use.set(arg); });
  rewriter.replaceOp(g, rebuilt.getResults());
}

/// `x - x` over a unit row whose result is exponentiated becomes
/// `x - max(x)`.
struct RestoreUnitRowMax final : OpRewritePattern<linalg::GenericOp> {
  using OpRewritePattern::OpRewritePattern;

  LogicalResult matchAndRewrite(linalg::GenericOp g,
                                PatternRewriter &rewriter) const override {
    auto sub = unitRowStatement<arith::SubFOp>(g);
    if (!sub)
      return failure();
    Value x = inputOf(g, sub.getLhs());
    if (!x || x != inputOf(g, sub.getRhs()))
      return failure();
    if (!llvm::any_of(g->getUsers(), [](Operation *user) {
          return user->getNumResults() == 1 && isUnitRowExp(user->getResult(0));
        }))
      return failure();
    auto elt = cast<FloatType>(getElementTypeOrSelf(x.getType()));
    TypedAttr negInf = rewriter.getFloatAttr(
        elt, APFloat::getInf(elt.getFloatSemantics(), /*Negative=*/true));
    Value max = reduceUnitRow(
        rewriter, g.getLoc(), x, negInf,
        [](OpBuilder &b, Location l, Value in, Value acc) -> Value {
          return arith::MaximumFOp::create(b, l, in, acc);
        });
    readInstead(rewriter, g, sub->getOpOperand(1), max);
    return success();
  }
};

/// `1 / e` and `e / e` over a unit row, `e` an exponential, divide by the
/// row sum of `e` instead.
struct RestoreUnitRowSum final : OpRewritePattern<linalg::GenericOp> {
  using OpRewritePattern::OpRewritePattern;

  LogicalResult matchAndRewrite(linalg::GenericOp g,
                                PatternRewriter &rewriter) const override {
    auto div = unitRowStatement<arith::DivFOp>(g);
    if (!div)
      return failure();
    Value e = inputOf(g, div.getRhs());
    if (!e || !isUnitRowExp(e))
      return failure();
    Value numerator = inputOf(g, div.getLhs());
    const bool reciprocal =
        !numerator && matchPattern(div.getLhs(), m_OneFloat());
    if (!reciprocal && numerator != e)
      return failure();
    readInstead(rewriter, g, div->getOpOperand(1),
                unitRowSum(rewriter, g.getLoc(), e));
    return success();
  }
};

/// `log(e)` over a unit row, `e` an exponential, is the log of its row sum.
struct RestoreUnitRowLogSum final : OpRewritePattern<linalg::GenericOp> {
  using OpRewritePattern::OpRewritePattern;

  LogicalResult matchAndRewrite(linalg::GenericOp g,
                                PatternRewriter &rewriter) const override {
    auto log = unitRowStatement<math::LogOp>(g);
    if (!log)
      return failure();
    Value e = inputOf(g, log.getOperand());
    if (!e || !isUnitRowExp(e))
      return failure();
    readInstead(rewriter, g, log->getOpOperand(0),
                unitRowSum(rewriter, g.getLoc(), e));
    return success();
  }
};

/// The log-sum-exp softmax's `m + log(l)` whose max was folded into `x`:
/// `x + log(sum(exp(x - m)))` with `m` the (restored) row max of `x` adds
/// `m` instead, which is `x` itself over a unit row.
struct RestoreUnitRowLogSumExp final : OpRewritePattern<linalg::GenericOp> {
  using OpRewritePattern::OpRewritePattern;

  /// The max `m` if `lg` is log(sum(exp(x - m))) with m = max(x).
  static Value maxUnderLogSumExp(Value lg, Value x) {
    auto logGeneric = lg.getDefiningOp<linalg::GenericOp>();
    auto log =
        logGeneric ? unitRowStatement<math::LogOp>(logGeneric) : math::LogOp();
    if (!log)
      return {};
    Value sum = inputOf(logGeneric, log.getOperand());
    Value e = sum ? unitRowReductionInput<arith::AddFOp>(sum, 0.0) : Value();
    if (!e || !isUnitRowExp(e))
      return {};
    auto expGeneric = e.getDefiningOp<linalg::GenericOp>();
    Value shifted = inputOf(
        expGeneric, unitRowStatement<math::ExpOp>(expGeneric).getOperand());
    auto subGeneric =
        shifted ? shifted.getDefiningOp<linalg::GenericOp>() : nullptr;
    auto sub = subGeneric ? unitRowStatement<arith::SubFOp>(subGeneric)
                          : arith::SubFOp();
    if (!sub || inputOf(subGeneric, sub.getLhs()) != x)
      return {};
    Value m = inputOf(subGeneric, sub.getRhs());
    const double negInf = -std::numeric_limits<double>::infinity();
    if (!m || unitRowReductionInput<arith::MaximumFOp>(m, negInf) != x)
      return {};
    return m;
  }

  LogicalResult matchAndRewrite(linalg::GenericOp g,
                                PatternRewriter &rewriter) const override {
    auto add = unitRowStatement<arith::AddFOp>(g);
    if (!add)
      return failure();
    Value a = inputOf(g, add.getLhs()), b = inputOf(g, add.getRhs());
    if (!a || !b)
      return failure();
    // x is the operand beside the log: it reads m instead.
    if (Value m = maxUnderLogSumExp(b, a)) {
      readInstead(rewriter, g, add->getOpOperand(0), m);
      return success();
    }
    if (Value m = maxUnderLogSumExp(a, b)) {
      readInstead(rewriter, g, add->getOpOperand(1), m);
      return success();
    }
    return failure();
  }
};

} // namespace

void mlir::attn::populateRestoreUnitRowReductionsPatterns(
    RewritePatternSet &patterns) {
  patterns.add<RestoreUnitRowMax, RestoreUnitRowSum, RestoreUnitRowLogSum,
               RestoreUnitRowLogSumExp>(patterns.getContext());
}
