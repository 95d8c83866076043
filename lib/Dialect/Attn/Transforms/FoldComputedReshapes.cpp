//===- FoldComputedReshapes.cpp - reshapes to computed shapes -------------===//
//
// torch-mlir writes `view`/`reshape` of a tensor with dynamic sizes as
// `tensor.reshape %x(%shape)`, the shape a `tensor.from_elements` of i64
// sizes computed from the operands' `tensor.dim`s (with selects for a `-1`
// the user could have passed, and a division that infers it). A
// `tensor.reshape` is opaque to linalg's reshape propagation, so the heads
// folded into the batch around a 3-D matmul would stay folded. Where each
// computed size is provably the product of consecutive dims of the operand
// (or, for an expansion, each operand dim the product of consecutive
// sizes), whatever the run-time sizes are (SymbolicSizes.h), the reshape
// is that `tensor.collapse_shape` or `tensor.expand_shape`: both reshape in
// row-major order, as `tensor.reshape` does.
//
//===----------------------------------------------------------------------===//

#include "SymbolicSizes.h"
#include "attnopt/Dialect/Attn/Transforms/Transforms.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/IR/PatternMatch.h"

using namespace mlir;
using namespace mlir::attn;

namespace {

/// Groups of consecutive `fine` sizes whose products are the `coarse`
/// sizes, one group per coarse size; trailing fine sizes of 1 join the last
/// group. None if the sizes do not split that way.
std::optional<SmallVector<ReassociationIndices>>
groupsOf(ArrayRef<SymbolicSize> fine, ArrayRef<SymbolicSize> coarse) {
  SmallVector<ReassociationIndices> groups;
  int64_t next = 0, n = fine.size();
  for (const SymbolicSize &target : coarse) {
    if (next == n)
      return std::nullopt;
    ReassociationIndices group{next};
    SymbolicSize p = fine[next++];
    while (p != target && next < n) {
      std::optional<SymbolicSize> q = p.times(fine[next]);
      if (!q)
        return std::nullopt;
      p = *q;
      group.push_back(next++);
    }
    if (p != target)
      return std::nullopt;
    groups.push_back(group);
  }
  for (; next < n; ++next) {
    if (groups.empty() || fine[next] != SymbolicSize::ofConstant(1))
      return std::nullopt;
    groups.back().push_back(next);
  }
  return groups;
}

struct ReshapeOfComputedShapeIsCollapseOrExpand final
    : OpRewritePattern<tensor::ReshapeOp> {
  using OpRewritePattern::OpRewritePattern;

  LogicalResult matchAndRewrite(tensor::ReshapeOp op,
                                PatternRewriter &rewriter) const override {
    auto shape = op.getShape().getDefiningOp<tensor::FromElementsOp>();
    auto sourceType = dyn_cast<RankedTensorType>(op.getSource().getType());
    auto resultType = dyn_cast<RankedTensorType>(op.getResult().getType());
    if (!shape || !sourceType || !resultType)
      return rewriter.notifyMatchFailure(op, "not a computed shape");
    SymbolicSizes sizes;
    SmallVector<SymbolicSize> from, to;
    for (int64_t d = 0; d < sourceType.getRank(); ++d) {
      std::optional<SymbolicSize> s = sizes.dimOf(op.getSource(), d);
      if (!s)
        return rewriter.notifyMatchFailure(op, "a source size not evaluated");
      from.push_back(*s);
    }
    for (Value e : shape.getElements()) {
      std::optional<SymbolicSize> s = sizes.sizeOf(e);
      if (!s)
        return rewriter.notifyMatchFailure(op, "a target size not evaluated");
      to.push_back(*s);
    }
    Location loc = op.getLoc();
    Value reshaped;
    if (from.size() == to.size()) {
      if (from != to)
        return rewriter.notifyMatchFailure(op, "not the same sizes");
      reshaped = op.getSource();
    } else if (from.size() > to.size()) {
      std::optional<SmallVector<ReassociationIndices>> groups =
          groupsOf(from, to);
      if (!groups)
        return rewriter.notifyMatchFailure(op, "not a collapse");
      reshaped = tensor::CollapseShapeOp::create(rewriter, loc, op.getSource(),
                                                 *groups);
    } else {
      std::optional<SmallVector<ReassociationIndices>> groups =
          groupsOf(to, from);
      if (!groups)
        return rewriter.notifyMatchFailure(op, "not an expansion");
      SmallVector<OpFoldResult> outputShape;
      SmallVector<int64_t> staticShape;
      for (auto [d, size] : llvm::enumerate(to)) {
        if (size.isConstant()) {
          outputShape.push_back(rewriter.getIndexAttr(size.constant));
          staticShape.push_back(size.constant);
          continue;
        }
        Value e = shape.getElements()[d];
        if (!e.getType().isIndex())
          e = arith::IndexCastOp::create(rewriter, loc, rewriter.getIndexType(),
                                         e);
        outputShape.push_back(e);
        staticShape.push_back(ShapedType::kDynamic);
      }
      auto expandedType = RankedTensorType::get(
          staticShape, sourceType.getElementType(), sourceType.getEncoding());
      reshaped = tensor::ExpandShapeOp::create(
          rewriter, loc, expandedType, op.getSource(), *groups, outputShape);
    }
    if (reshaped.getType() != resultType)
      reshaped = tensor::CastOp::create(rewriter, loc, resultType, reshaped);
    rewriter.replaceOp(op, reshaped);
    return success();
  }
};

} // namespace

void mlir::attn::populateFoldComputedReshapesPatterns(
    RewritePatternSet &patterns) {
  patterns.add<ReshapeOfComputedShapeIsCollapseOrExpand>(patterns.getContext());
}
