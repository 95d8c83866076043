//===- ArangeInputsToIndices.cpp - constant aranges become linalg.index ---===//
//
// Front ends build causal and sliding-window masks by comparing two arange
// constants broadcast against each other (`tosa.greater(cols, rows)`,
// `torch.arange(L)[None, :] > torch.arange(L)[:, None]`). After lowering,
// the comparison is a generic whose inputs are those constants. Small masks
// are evaluated to constants (FoldConstantMask) and attn-fuse reads their
// band; a real model's mask ([L, L] with L in the thousands) is too large
// to evaluate, so this pattern rewrites it instead: an integer constant
// input whose values are an affine function of its indices,
// `value[x] = base + sum_k coef_k * x_k`, is replaced by that function of
// the generic's `linalg.index` values. The mask becomes an input-less
// generic of index comparisons, the form attn-fuse reads as causal / window
// at any size. The rewrite is exact (the constant is checked element by
// element), and applies only to generics computing an i1 mask (or the
// integers, such as `j - i`, that only such generics read).
//
//===----------------------------------------------------------------------===//

#include "attnopt/Dialect/Attn/Transforms/Transforms.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Utils/IndexingUtils.h"
#include "mlir/IR/Matchers.h"
#include "mlir/IR/PatternMatch.h"

namespace mlir::attn {
namespace {

/// Constants larger than this are not inspected (compile time).
constexpr int64_t kMaxArangeElements = 1 << 22;

/// value[x] = base + sum_k coef[k] * x[k] over a constant's indices.
struct AffineValues {
  int64_t base = 0;
  SmallVector<int64_t> coef;
};

/// The constant `c` as an affine function of its indices, if it is one
/// (checked on every element); not for splats (nothing to gain).
std::optional<AffineValues> affineValuesOf(DenseIntElementsAttr c) {
  auto type = cast<ShapedType>(c.getType());
  if (c.isSplat() || !type.hasStaticShape() ||
      type.getNumElements() > kMaxArangeElements ||
      type.getElementType().getIntOrFloatBitWidth() > 64)
    return std::nullopt;
  SmallVector<int64_t> values;
  values.reserve(type.getNumElements());
  for (const APInt &v : c.getValues<APInt>())
    values.push_back(v.getSExtValue());
  ArrayRef<int64_t> shape = type.getShape();
  SmallVector<int64_t> strides = computeStrides(shape);
  AffineValues f;
  f.base = values.front();
  for (auto [k, size] : llvm::enumerate(shape))
    f.coef.push_back(size > 1 ? values[strides[k]] - f.base : 0);
  for (auto [flat, v] : llvm::enumerate(values)) {
    SmallVector<int64_t> at = delinearize(flat, strides);
    int64_t expected = f.base;
    for (auto [x, a] : llvm::zip(at, f.coef))
      expected += a * x;
    if (v != expected)
      return std::nullopt;
  }
  return f;
}

/// `base + sum_k coef[k] * (linalg.index of map result k)` in the element
/// type `type`, built at the rewriter's insertion point (in a body).
Value emitAffineIndex(PatternRewriter &rewriter, Location loc,
                      const AffineValues &f, AffineMap map, Type type) {
  auto cst = [&](int64_t v) -> Value {
    return arith::ConstantIndexOp::create(rewriter, loc, v);
  };
  Value sum = cst(f.base);
  for (auto [k, a] : llvm::enumerate(f.coef)) {
    if (a == 0)
      continue;
    unsigned dim = cast<AffineDimExpr>(map.getResult(k)).getPosition();
    Value term = linalg::IndexOp::create(rewriter, loc, dim);
    if (a != 1)
      term = arith::MulIOp::create(rewriter, loc, term, cst(a));
    sum = arith::AddIOp::create(rewriter, loc, sum, term);
  }
  if (type.isIndex())
    return sum;
  return arith::IndexCastOp::create(rewriter, loc, type, sum);
}

/// Whether `v` is an i1 mask, or integers only such generics read, through
/// a few integer steps (the `j - i` that SDPA's causal mask compares with 0;
/// in TOSA exports an i32 `j - i` widened to i64 before the comparison).
bool computesMask(Value v, int depth = 3) {
  Type elt = getElementTypeOrSelf(v.getType());
  if (elt.isInteger(1))
    return true;
  return depth > 0 && elt.isInteger() && !v.use_empty() &&
         llvm::all_of(v.getUsers(), [&](Operation *user) {
           auto g = dyn_cast<linalg::GenericOp>(user);
           return g && g.getNumResults() == 1 &&
                  computesMask(g.getResult(0), depth - 1);
         });
}

/// generic(ins(arange, x...)) computing an i1 mask -> generic(ins(x...))
/// with the arange's values computed from linalg.index.
struct ArangeInputToIndex final : OpRewritePattern<linalg::GenericOp> {
  using OpRewritePattern::OpRewritePattern;

  LogicalResult matchAndRewrite(linalg::GenericOp op,
                                PatternRewriter &rewriter) const override {
    if (!op.hasPureTensorSemantics() || op.getNumDpsInits() != 1 ||
        op.getNumLoops() != op.getNumParallelLoops() ||
        !computesMask(op.getResult(0)))
      return failure();
    for (OpOperand *input : op.getDpsInputOperands()) {
      DenseIntElementsAttr values;
      AffineMap map = op.getMatchingIndexingMap(input);
      if (!map.isProjectedPermutation(/*allowZeroInResults=*/false) ||
          !matchPattern(input->get(), m_Constant(&values)))
        continue;
      std::optional<AffineValues> f = affineValuesOf(values);
      if (!f)
        continue;
      rewriteInput(rewriter, op, input, *f, map);
      return success();
    }
    return failure();
  }

private:
  static void rewriteInput(PatternRewriter &rewriter, linalg::GenericOp op,
                           OpOperand *input, const AffineValues &f,
                           AffineMap map) {
    unsigned n = input->getOperandNumber();
    SmallVector<Value> inputs;
    SmallVector<AffineMap> maps;
    for (OpOperand *in : op.getDpsInputOperands())
      if (in != input) {
        inputs.push_back(in->get());
        maps.push_back(op.getMatchingIndexingMap(in));
      }
    maps.push_back(op.getMatchingIndexingMap(op.getDpsInitOperand(0)));
    auto rebuilt = linalg::GenericOp::create(
        rewriter, op.getLoc(), op.getResultTypes(), inputs, op.getDpsInits(),
        maps, op.getIteratorTypesArray());
    rewriter.inlineRegionBefore(op.getRegion(), rebuilt.getRegion(),
                                rebuilt.getRegion().begin());
    Block &body = rebuilt.getRegion().front();
    BlockArgument arg = body.getArgument(n);
    rewriter.setInsertionPointToStart(&body);
    Value computed =
        emitAffineIndex(rewriter, op.getLoc(), f, map, arg.getType());
    rewriter.replaceAllUsesWith(arg, computed);
    body.eraseArgument(n);
    rewriter.replaceOp(op, rebuilt.getResults());
  }
};

} // namespace

void populateArangeInputsToIndicesPatterns(RewritePatternSet &patterns) {
  patterns.add<ArangeInputToIndex>(patterns.getContext());
}

} // namespace mlir::attn
