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
// row-major order, as `tensor.reshape` does. Where a size is computed from
// another tensor's dim (equal to the product it replaces only by the
// program's own shapes: torch-mlir's einsum sizes the `view` of Q and K by
// V's batch and length), it is taken to be that product if it has its form
// (the same constant, as many run-time factors), and a `cf.assert` checks
// it at run time: any grouping whose products equal the sizes is the same
// row-major reshape.
//
//===----------------------------------------------------------------------===//

#include "SymbolicSizes.h"
#include "attnopt/Dialect/Attn/Transforms/Transforms.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/ControlFlow/IR/ControlFlowOps.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/IR/PatternMatch.h"

using namespace mlir;
using namespace mlir::attn;

namespace {

/// Whether `a` and `b` have the same form: the same constant and as many
/// run-time factors (equal sizes, or sizes that only the program's own
/// shapes make equal: torch-mlir sizes a `view` of Q by V's batch).
bool sameForm(const SymbolicSize &a, const SymbolicSize &b) {
  return a.constant == b.constant && a.dims.size() == b.dims.size();
}

/// Groups of consecutive `fine` sizes whose products are the `coarse`
/// sizes, one group per coarse size; trailing fine sizes of 1 join the last
/// group. None if the sizes do not split that way. With `unproven`, a
/// group's product need only have the form of its coarse size (sameForm),
/// and the coarse sizes it is not provably equal to are listed there: the
/// caller checks them at run time.
std::optional<SmallVector<ReassociationIndices>>
groupsOf(ArrayRef<SymbolicSize> fine, ArrayRef<SymbolicSize> coarse,
         SmallVectorImpl<int64_t> *unproven = nullptr) {
  SmallVector<ReassociationIndices> groups;
  int64_t next = 0, n = fine.size();
  auto matches = [&](const SymbolicSize &p, const SymbolicSize &target) {
    return p == target || (unproven && sameForm(p, target));
  };
  for (auto [c, target] : llvm::enumerate(coarse)) {
    if (next == n)
      return std::nullopt;
    ReassociationIndices group{next};
    SymbolicSize p = fine[next++];
    while (!matches(p, target) && next < n) {
      std::optional<SymbolicSize> q = p.times(fine[next]);
      if (!q)
        return std::nullopt;
      p = *q;
      group.push_back(next++);
    }
    if (!matches(p, target))
      return std::nullopt;
    if (p != target)
      unproven->push_back(c);
    groups.push_back(group);
  }
  for (; next < n; ++next) {
    if (groups.empty() || fine[next] != SymbolicSize::ofConstant(1))
      return std::nullopt;
    groups.back().push_back(next);
  }
  return groups;
}

/// The product of dims `group` of `tensor`, as an index.
Value productOfDims(PatternRewriter &rewriter, Location loc, Value tensor,
                    const ReassociationIndices &group) {
  Value product;
  for (int64_t d : group) {
    Value dim = tensor::DimOp::create(rewriter, loc, tensor, d);
    product =
        product ? arith::MulIOp::create(rewriter, loc, product, dim) : dim;
  }
  return product;
}

/// `value` (an integer or index size) as an index.
Value asIndex(PatternRewriter &rewriter, Location loc, Value value) {
  if (value.getType().isIndex())
    return value;
  return arith::IndexCastOp::create(rewriter, loc, rewriter.getIndexType(),
                                    value);
}

/// Asserts at run time that `a == b`, sizes that the element count of a
/// reshape makes equal wherever no other size is 0.
void assertSameSize(PatternRewriter &rewriter, Location loc, Value a, Value b) {
  Value same =
      arith::CmpIOp::create(rewriter, loc, arith::CmpIPredicate::eq, a, b);
  cf::AssertOp::create(
      rewriter, loc, same,
      rewriter.getStringAttr(
          "attn-normalize-chains: a reshape's size computed from another "
          "tensor (torch-mlir's view with dynamic sizes) is taken to be the "
          "product of the dims it replaces; they differ at run time"));
}

/// `source` (sizes `from`) reshaped to the sizes `to` (their values
/// `toValues`) as the collapse, expansion or identity it is, with run-time
/// checks of the sizes taken as equal by form; null (nothing created) if it
/// is none of them.
Value reshapeByGroups(PatternRewriter &rewriter, Location loc, Value source,
                      ArrayRef<SymbolicSize> from, ArrayRef<SymbolicSize> to,
                      ArrayRef<Value> toValues) {
  if (from.size() == to.size()) {
    for (auto [a, b] : llvm::zip(from, to))
      if (!sameForm(a, b))
        return {};
    for (auto [d, pair] : llvm::enumerate(llvm::zip(from, to)))
      if (std::get<0>(pair) != std::get<1>(pair))
        assertSameSize(rewriter, loc,
                       tensor::DimOp::create(rewriter, loc, source, d),
                       asIndex(rewriter, loc, toValues[d]));
    return source;
  }
  const bool collapse = from.size() > to.size();
  ArrayRef<SymbolicSize> fine = collapse ? from : to;
  ArrayRef<SymbolicSize> coarse = collapse ? to : from;
  SmallVector<int64_t> unproven;
  std::optional<SmallVector<ReassociationIndices>> groups =
      groupsOf(fine, coarse);
  if (!groups)
    groups = groupsOf(fine, coarse, &unproven);
  if (!groups)
    return {};
  // The product of a group of `toValues`, as an index.
  auto productOfSizes = [&](const ReassociationIndices &group) {
    Value product;
    for (int64_t d : group) {
      Value size = asIndex(rewriter, loc, toValues[d]);
      product =
          product ? arith::MulIOp::create(rewriter, loc, product, size) : size;
    }
    return product;
  };
  for (int64_t c : unproven) {
    if (collapse)
      assertSameSize(rewriter, loc,
                     productOfDims(rewriter, loc, source, (*groups)[c]),
                     asIndex(rewriter, loc, toValues[c]));
    else
      assertSameSize(rewriter, loc,
                     tensor::DimOp::create(rewriter, loc, source, c),
                     productOfSizes((*groups)[c]));
  }
  if (collapse)
    return tensor::CollapseShapeOp::create(rewriter, loc, source, *groups);
  auto sourceType = cast<RankedTensorType>(source.getType());
  SmallVector<OpFoldResult> outputShape;
  SmallVector<int64_t> staticShape;
  for (auto [d, size] : llvm::enumerate(to)) {
    if (size.isConstant()) {
      outputShape.push_back(rewriter.getIndexAttr(size.constant));
      staticShape.push_back(size.constant);
      continue;
    }
    outputShape.push_back(asIndex(rewriter, loc, toValues[d]));
    staticShape.push_back(ShapedType::kDynamic);
  }
  auto expandedType = RankedTensorType::get(
      staticShape, sourceType.getElementType(), sourceType.getEncoding());
  return tensor::ExpandShapeOp::create(rewriter, loc, expandedType, source,
                                       *groups, outputShape);
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
    SmallVector<Value> toValues(shape.getElements());
    Value reshaped =
        reshapeByGroups(rewriter, loc, op.getSource(), from, to, toValues);
    if (!reshaped) {
      // A unit dim moved (torch-mlir's squeeze and unsqueeze around a bmm:
      // [b, h, l, 1] to [b * h, 1, l]): to the result's sizes other than 1,
      // then expanded to the result.
      SmallVector<SymbolicSize> core;
      SmallVector<Value> coreValues;
      for (auto [size, value] : llvm::zip(to, toValues))
        if (size != SymbolicSize::ofConstant(1)) {
          core.push_back(size);
          coreValues.push_back(value);
        }
      if (core.size() == to.size() || core.size() > from.size() ||
          !groupsOf(to, core))
        return rewriter.notifyMatchFailure(op, "not a collapse or expansion");
      Value mid = reshapeByGroups(rewriter, loc, op.getSource(), from, core,
                                  coreValues);
      if (!mid)
        return rewriter.notifyMatchFailure(op, "not a collapse or expansion");
      reshaped = reshapeByGroups(rewriter, loc, mid, core, to, toValues);
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
