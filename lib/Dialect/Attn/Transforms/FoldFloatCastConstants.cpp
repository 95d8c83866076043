//===- FoldFloatCastConstants.cpp - casts of float constants --------------===//
//
// Front ends write constants in a wider type and cast them where they are
// used: torch-mlir's `scores / math.sqrt(d)` is `arith.truncf` of an f64
// constant inside the division's generic body. Upstream folds such a cast
// only where it is exact, so 1/sqrt(d) (not exact in f32) stays a cast, the
// body splits into a generic computing the cast over the whole tensor, and
// the scale is no constant attn-fuse can see. These patterns fold
// `arith.truncf` and `arith.extf` of a float constant (scalar or splat)
// into the constant they compute, rounded to nearest even as the cast
// without a rounding mode does: the same value, bit for bit.
//
//===----------------------------------------------------------------------===//

#include "attnopt/Dialect/Attn/Transforms/Transforms.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/IR/BuiltinAttributes.h"
#include "mlir/IR/Matchers.h"
#include "mlir/IR/PatternMatch.h"
#include "mlir/IR/TypeUtilities.h"

#include <cmath>

using namespace mlir;

namespace {

/// `value` converted to `to` as the cast computes it (nearest even).
APFloat convertLikeCast(APFloat value, FloatType to) {
  bool losesInfo = false;
  value.convert(to.getFloatSemantics(), APFloat::rmNearestTiesToEven,
                &losesInfo);
  return value;
}

template <typename CastOp>
struct FoldCastOfFloatConstant final : OpRewritePattern<CastOp> {
  using OpRewritePattern<CastOp>::OpRewritePattern;

  LogicalResult matchAndRewrite(CastOp op,
                                PatternRewriter &rewriter) const override {
    // A cast with an explicit rounding mode other than nearest even is
    // left to upstream (truncf only has the attribute).
    if constexpr (std::is_same_v<CastOp, arith::TruncFOp>) {
      std::optional<arith::RoundingMode> mode = op.getRoundingmode();
      if (mode && *mode != arith::RoundingMode::to_nearest_even)
        return failure();
    }
    Type resultType = op.getType();
    auto to = dyn_cast<FloatType>(getElementTypeOrSelf(resultType));
    if (!to)
      return failure();
    Attribute folded;
    APFloat scalar(0.0);
    DenseElementsAttr dense;
    if (matchPattern(op.getIn(), m_ConstantFloat(&scalar))) {
      folded = rewriter.getFloatAttr(to, convertLikeCast(scalar, to));
    } else if (matchPattern(op.getIn(), m_Constant(&dense)) &&
               dense.isSplat() && isa<ShapedType>(resultType)) {
      folded = DenseElementsAttr::get(
          cast<ShapedType>(resultType),
          convertLikeCast(dense.getSplatValue<APFloat>(), to));
    } else {
      return failure();
    }
    rewriter.replaceOpWithNewOp<arith::ConstantOp>(op, resultType,
                                                   cast<TypedAttr>(folded));
    return success();
  }
};

/// `math.rsqrt` of a scalar float constant (a scale written 1 / sqrt(d)
/// as rsqrt(d), or TOSA's `tosa.rsqrt` of a constant once lowered and its
/// splat folded into the body): the constant, computed in double and
/// rounded once to nearest even. Upstream folds `math.sqrt` of a constant
/// but not `math.rsqrt`.
struct FoldRsqrtOfFloatConstant final : OpRewritePattern<math::RsqrtOp> {
  using OpRewritePattern::OpRewritePattern;

  LogicalResult matchAndRewrite(math::RsqrtOp op,
                                PatternRewriter &rewriter) const override {
    auto type = dyn_cast<FloatType>(op.getType());
    APFloat x(0.0);
    if (!type || !matchPattern(op.getOperand(), m_ConstantFloat(&x)))
      return failure();
    bool losesInfo = false;
    x.convert(APFloat::IEEEdouble(), APFloat::rmNearestTiesToEven, &losesInfo);
    double d = x.convertToDouble();
    if (!(d > 0.0) || !std::isfinite(d))
      return failure(); // rsqrt of 0, a negative, inf or NaN: left as is
    APFloat r(1.0 / std::sqrt(d));
    rewriter.replaceOpWithNewOp<arith::ConstantOp>(
        op, rewriter.getFloatAttr(type, convertLikeCast(r, type)));
    return success();
  }
};

} // namespace

void mlir::attn::populateFoldFloatCastConstantsPatterns(
    RewritePatternSet &patterns) {
  patterns
      .add<FoldCastOfFloatConstant<arith::TruncFOp>,
           FoldCastOfFloatConstant<arith::ExtFOp>, FoldRsqrtOfFloatConstant>(
          patterns.getContext());
}
