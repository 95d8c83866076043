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

#include "LinalgLoops.h"
#include "attnopt/Dialect/Attn/Transforms/Transforms.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/IR/PatternMatch.h"

using namespace mlir;
using namespace mlir::attn;

namespace {

/// extf(broadcast(x)) -> broadcast(extf(x)).
struct ExtendBeforeBroadcast final : OpRewritePattern<linalg::GenericOp> {
  using OpRewritePattern::OpRewritePattern;

  LogicalResult matchAndRewrite(linalg::GenericOp widen,
                                PatternRewriter &rewriter) const override {
    // An elementwise extf of the generic's one input.
    auto extf = soleStatement<arith::ExtFOp>(widen);
    if (!extf || !widen.hasPureTensorSemantics() ||
        widen.getNumDpsInputs() != 1 ||
        extf.getIn() != widen.getBody()->getArgument(0) ||
        widen.getNumParallelLoops() != widen.getNumLoops() ||
        !llvm::all_of(widen.getIndexingMapsArray(),
                      [](AffineMap m) { return m.isIdentity(); }))
      return rewriter.notifyMatchFailure(widen, "not an elementwise extf");
    auto copy = widen.getDpsInputs()[0].getDefiningOp<linalg::GenericOp>();
    if (!isCopyOfInput(copy) || !copy->hasOneUse())
      return rewriter.notifyMatchFailure(widen, "not of a copy");
    AffineMap read = copy.getIndexingMapsArray().front();
    if (read.isIdentity() || !read.isProjectedPermutation())
      return rewriter.notifyMatchFailure(widen, "not of a broadcast");
    Location loc = widen.getLoc();
    Value x = copy.getDpsInputs()[0];
    Type wide = getElementTypeOrSelf(widen.getResult(0).getType());
    Value init = tensor::EmptyOp::create(
        rewriter, loc, tensor::getMixedSizes(rewriter, loc, x), wide);
    int64_t rank = cast<RankedTensorType>(x.getType()).getRank();
    auto widened = linalg::GenericOp::create(
        rewriter, loc, init.getType(), ValueRange{x}, ValueRange{init},
        SmallVector<AffineMap>(2, rewriter.getMultiDimIdentityMap(rank)),
        SmallVector<utils::IteratorType>(rank, utils::IteratorType::parallel),
        [&](OpBuilder &b, Location l, ValueRange args) {
          Value e = arith::ExtFOp::create(b, l, wide, args[0]);
          linalg::YieldOp::create(b, l, e);
        });
    linalg::GenericOp repeated = createCopyThroughMap(
        rewriter, loc, widened.getResult(0), read, widen.getDpsInits()[0]);
    rewriter.replaceOp(widen, repeated.getResults());
    return success();
  }
};

} // namespace

void mlir::attn::populateHoistCastsAboveBroadcastsPatterns(
    RewritePatternSet &patterns) {
  patterns.add<ExtendBeforeBroadcast>(patterns.getContext());
}
