//===- HoistCastsAboveBroadcasts.cpp - cast, then broadcast ---------------===//
//
// Llama's `repeat_kv` broadcasts K and V over the query heads of a group;
// PyTorch's math path for `scaled_dot_product_attention` on bf16 tensors then
// widens Q, K and V to f32. Exported, the widening is applied to the
// repeated K and V:
//
//   %r = generic ins(%k : [B, Hkv, L, D]) -> [B, Hkv, G, L, D]   (copy)
//   %w = generic ins(%r) { arith.extf } -> f32
//
// which hides the broadcast (GQA) from attn-fuse behind the cast, and widens
// G copies of every element. A cast of a broadcast is the broadcast of the
// cast: the cast moves above the copy, onto the tensor it repeats.
//
//===----------------------------------------------------------------------===//

#include "attnopt/Dialect/Attn/Transforms/Transforms.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/IR/PatternMatch.h"

using namespace mlir;

namespace {

/// Whether `g` is an all-parallel generic of one input and one result,
/// with an identity result map, whose body is `op(in)` of one op of type
/// OpTy (or, with no OpTy, yields its input: a copy or broadcast).
template <typename OpTy = void> bool isUnaryElementwise(linalg::GenericOp g) {
  if (!g || !g.hasPureTensorSemantics() || g.getNumDpsInputs() != 1 ||
      g.getNumDpsInits() != 1 || g.getNumParallelLoops() != g.getNumLoops() ||
      !g.getIndexingMapsArray().back().isIdentity() ||
      g.payloadUsesValueFromOperand(g.getDpsInitOperand(0)))
    return false;
  Block *body = g.getBody();
  auto yield = cast<linalg::YieldOp>(body->getTerminator());
  Value in = body->getArgument(0);
  if constexpr (std::is_void_v<OpTy>) {
    return body->getOperations().size() == 1 && yield.getValues()[0] == in;
  } else {
    auto op = yield.getValues()[0].template getDefiningOp<OpTy>();
    return body->getOperations().size() == 2 && op && op->getOperand(0) == in;
  }
}

/// extf(broadcast(x)) -> broadcast(extf(x)).
struct ExtendBeforeBroadcast final : OpRewritePattern<linalg::GenericOp> {
  using OpRewritePattern::OpRewritePattern;

  LogicalResult matchAndRewrite(linalg::GenericOp widen,
                                PatternRewriter &rewriter) const override {
    if (!isUnaryElementwise<arith::ExtFOp>(widen) ||
        !widen.getIndexingMapsArray().front().isIdentity())
      return rewriter.notifyMatchFailure(widen, "not an elementwise extf");
    auto copy = widen.getDpsInputs()[0].getDefiningOp<linalg::GenericOp>();
    if (!isUnaryElementwise(copy) || !copy->hasOneUse())
      return rewriter.notifyMatchFailure(widen, "not of a copy");
    AffineMap read = copy.getIndexingMapsArray().front();
    if (read.isIdentity() || !read.isProjectedPermutation())
      return rewriter.notifyMatchFailure(widen, "not of a broadcast");
    Location loc = widen.getLoc();
    Value x = copy.getDpsInputs()[0];
    auto xType = cast<RankedTensorType>(x.getType());
    Type wide = getElementTypeOrSelf(widen.getResult(0).getType());
    Value init = tensor::EmptyOp::create(
        rewriter, loc, tensor::getMixedSizes(rewriter, loc, x), wide);
    int64_t rank = xType.getRank();
    auto widened = linalg::GenericOp::create(
        rewriter, loc, init.getType(), ValueRange{x}, ValueRange{init},
        SmallVector<AffineMap>(2, rewriter.getMultiDimIdentityMap(rank)),
        SmallVector<utils::IteratorType>(rank, utils::IteratorType::parallel),
        [&](OpBuilder &b, Location l, ValueRange args) {
          Value e = arith::ExtFOp::create(b, l, wide, args[0]);
          linalg::YieldOp::create(b, l, e);
        });
    auto repeated = linalg::GenericOp::create(
        rewriter, loc, widen.getResult(0).getType(), widened.getResults(),
        widen.getDpsInits(), copy.getIndexingMapsArray(),
        copy.getIteratorTypesArray(),
        [](OpBuilder &b, Location l, ValueRange args) {
          linalg::YieldOp::create(b, l, args[0]);
        });
    rewriter.replaceOp(widen, repeated.getResults());
    return success();
  }
};

} // namespace

void mlir::attn::populateHoistCastsAboveBroadcastsPatterns(
    RewritePatternSet &patterns) {
  patterns.add<ExtendBeforeBroadcast>(patterns.getContext());
}
