//===- NormalizeAttentionChains.cpp - attn-normalize-chains pass ----------===//
//
// Brings attention written by front ends (TOSA lowered to linalg, torch-mlir
// style linalg) into the one form attn-fuse matches, whatever op boundaries
// and ranks the front end chose:
//
//  1. linalg.softmax is decomposed into its max / exp(s - max) / sum / div
//     generics, and named structured ops other than linalg.fill become
//     linalg.generic (a batch_matmul is then a contraction generic like a
//     4-D einsum);
//  2. reshapes that split or merge non-unit dims (heads folded into the batch
//     for a 3-D matmul, `[B*H, L, L]` scores expanded to `[B, H, L, L]` for the
//     softmax) are propagated through the generics by expanding their
//     iteration spaces, so that the whole chain runs at the finest rank and
//     the reshapes cancel or move to its edges;
//  3. expand_shapes that only add unit dims (the keepdim of a reduction) are
//     folded into the maps of the generics that read them;
//  4. multi-statement generic bodies (a scale and a bias in one body,
//     `exp(s - max)` in one body) are split into one generic per statement,
//     so that every step of the chain is visible to the matcher;
//  5. fill-like generics become linalg.fill again; inits a body does not
//     read become tensor.empty; `x * 1` becomes `x`.
//
// Every rewrite is an upstream-equivalent, semantics-preserving rewrite of
// the whole function, not only of attention chains; run it in front of your
// own linalg pipeline (attn-raise-pipeline does so before attn-fuse).
//
//===----------------------------------------------------------------------===//

#include "attnopt/Dialect/Attn/Transforms/Passes.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Linalg/Transforms/Transforms.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/Dialect/Tensor/Transforms/Transforms.h"
#include "mlir/IR/Matchers.h"
#include "mlir/IR/PatternMatch.h"
#include "mlir/Interfaces/TilingInterface.h"
#include "mlir/Transforms/GreedyPatternRewriteDriver.h"
#include "llvm/ADT/SmallBitVector.h"

namespace mlir::attn {
#define GEN_PASS_DEF_ATTNNORMALIZECHAINSPASS
#include "attnopt/Dialect/Attn/Transforms/Passes.h.inc"

namespace {

/// Whether `shape` has at most one non-unit dim in each group, i.e. the
/// reshape only adds or removes unit dims.
bool onlyUnitDims(ArrayRef<int64_t> shape,
                  ArrayRef<ReassociationIndices> groups) {
  for (const ReassociationIndices &group : groups) {
    int64_t nonUnit = 0;
    for (int64_t d : group)
      if (shape[d] != 1)
        ++nonUnit;
    if (nonUnit > 1)
      return false;
  }
  return true;
}

/// Whether a reshape feeding or fed by `operand`'s generic splits or merges
/// real dims (heads folded into the batch) rather than only unit dims: only
/// those are propagated. Unit dims are kept, since dropping them everywhere
/// would also drop a real size-1 query length (decoding).
bool splitsRealDims(OpOperand *operand) {
  Operation *reshape = operand->get().getDefiningOp();
  if (!isa_and_nonnull<tensor::ExpandShapeOp, tensor::CollapseShapeOp>(reshape))
    reshape = operand->getOwner();
  if (auto expand = dyn_cast<tensor::ExpandShapeOp>(reshape))
    return !onlyUnitDims(expand.getResultType().getShape(),
                         expand.getReassociationIndices());
  if (auto collapse = dyn_cast<tensor::CollapseShapeOp>(reshape))
    return !onlyUnitDims(collapse.getSrcType().getShape(),
                         collapse.getReassociationIndices());
  return false;
}

/// generic(ins(expand_shape(x)) ...) where the expand only inserts unit dims
/// reads x directly: the map results of the inserted unit dims are dropped.
/// This is how a keepdim reduction result (`[B, H, L, 1]`) is read back by
/// the subtract or divide of a softmax.
struct FoldUnitExpandIntoGenericInput final
    : OpRewritePattern<linalg::GenericOp> {
  using OpRewritePattern::OpRewritePattern;

  LogicalResult matchAndRewrite(linalg::GenericOp op,
                                PatternRewriter &rewriter) const override {
    for (OpOperand *input : op.getDpsInputOperands()) {
      auto expand = input->get().getDefiningOp<tensor::ExpandShapeOp>();
      if (!expand)
        continue;
      ArrayRef<int64_t> shape = expand.getResultType().getShape();
      SmallVector<ReassociationIndices> groups =
          expand.getReassociationIndices();
      if (!onlyUnitDims(shape, groups))
        continue;
      AffineMap map = op.getMatchingIndexingMap(input);
      // Keep, per group, its non-unit dim (or its first dim when all are
      // unit and the source dim is 1 as well).
      SmallVector<AffineExpr> kept;
      for (const ReassociationIndices &group : groups) {
        int64_t keep = group.front();
        for (int64_t d : group)
          if (shape[d] != 1)
            keep = d;
        kept.push_back(map.getResult(keep));
      }
      SmallVector<AffineMap> maps = op.getIndexingMapsArray();
      maps[input->getOperandNumber()] =
          AffineMap::get(map.getNumDims(), 0, kept, op.getContext());
      rewriter.modifyOpInPlace(op, [&] {
        input->set(expand.getSrc());
        op.setIndexingMapsAttr(rewriter.getAffineMapArrayAttr(maps));
      });
      return success();
    }
    return failure();
  }
};

/// An all-parallel generic whose result has a unit dim that no input reads
/// (the `[B, H, L, 1]` reciprocal of a keepdim row sum) computes on the
/// smaller iteration space; the unit dim is added back by an expand_shape
/// that FoldUnitExpandIntoGenericInput then folds into the readers.
struct DropUnreadUnitLoops final : OpRewritePattern<linalg::GenericOp> {
  using OpRewritePattern::OpRewritePattern;

  LogicalResult matchAndRewrite(linalg::GenericOp op,
                                PatternRewriter &rewriter) const override {
    if (op.getNumDpsInits() != 1 ||
        op.getNumParallelLoops() != op.getNumLoops() ||
        !op.getMatchingIndexingMap(op.getDpsInitOperand(0)).isIdentity() ||
        op.payloadUsesValueFromOperand(op.getDpsInitOperand(0)))
      return failure();
    auto type = dyn_cast<RankedTensorType>(op.getResult(0).getType());
    if (!type || !type.hasStaticShape() || type.getRank() < 2)
      return failure();
    llvm::SmallBitVector read(op.getNumLoops());
    for (OpOperand *input : op.getDpsInputOperands())
      for (AffineExpr e : op.getMatchingIndexingMap(input).getResults())
        e.walk([&](AffineExpr sub) {
          if (auto dim = dyn_cast<AffineDimExpr>(sub))
            read.set(dim.getPosition());
        });
    // linalg.index would read the loop as well.
    bool usesIndex = !op.getBody()->getOps<linalg::IndexOp>().empty();
    SmallVector<int64_t> dropped;
    for (int64_t d = 0; d < type.getRank(); ++d)
      if (type.getDimSize(d) == 1 && !read.test(d) && !usesIndex)
        dropped.push_back(d);
    if (dropped.empty() || (int64_t)dropped.size() == type.getRank())
      return failure();
    // Old loop d -> new loop position (or none).
    SmallVector<AffineExpr> replacement;
    SmallVector<int64_t> keptShape;
    int64_t next = 0;
    for (int64_t d = 0; d < type.getRank(); ++d) {
      if (llvm::is_contained(dropped, d)) {
        replacement.push_back(rewriter.getAffineConstantExpr(0));
        continue;
      }
      replacement.push_back(rewriter.getAffineDimExpr(next++));
      keptShape.push_back(type.getDimSize(d));
    }
    SmallVector<AffineMap> maps;
    for (OpOperand *input : op.getDpsInputOperands())
      maps.push_back(op.getMatchingIndexingMap(input).replaceDimsAndSymbols(
          replacement, {}, next, 0));
    maps.push_back(rewriter.getMultiDimIdentityMap(next));
    Location loc = op.getLoc();
    Value init = tensor::EmptyOp::create(rewriter, loc, keptShape,
                                         type.getElementType());
    auto smaller = linalg::GenericOp::create(
        rewriter, loc, TypeRange{init.getType()}, op.getDpsInputs(),
        ValueRange{init}, maps,
        SmallVector<utils::IteratorType>(next, utils::IteratorType::parallel));
    rewriter.inlineRegionBefore(op.getRegion(), smaller.getRegion(),
                                smaller.getRegion().begin());
    // Each kept dim starts a group; dropped dims join the group before them
    // (leading ones the first group).
    SmallVector<ReassociationIndices> groups;
    ReassociationIndices leading;
    for (int64_t d = 0; d < type.getRank(); ++d) {
      if (!llvm::is_contained(dropped, d)) {
        groups.push_back(leading);
        groups.back().push_back(d);
        leading.clear();
      } else if (groups.empty()) {
        leading.push_back(d);
      } else {
        groups.back().push_back(d);
      }
    }
    rewriter.replaceOpWithNewOp<tensor::ExpandShapeOp>(
        op, type, smaller.getResult(0), groups);
    return success();
  }
};

/// A generic that only broadcasts a scalar input into its init becomes
/// linalg.fill again (generalization and reshape propagation turn fills
/// into generics; the matcher reads reduction inits through linalg.fill).
struct SpecializeFillGeneric final : OpRewritePattern<linalg::GenericOp> {
  using OpRewritePattern::OpRewritePattern;

  LogicalResult matchAndRewrite(linalg::GenericOp op,
                                PatternRewriter &rewriter) const override {
    std::optional<Value> value = linalg::isaFillOpInterface(op);
    if (!value)
      return failure();
    rewriter.replaceOpWithNewOp<linalg::FillOp>(op, *value,
                                                op.getDpsInits().front());
    return success();
  }
};

/// A generic whose init is not read by its body computes into a fresh
/// tensor.empty. convert-elementwise-to-linalg uses the first operand as the
/// init (`ins(%s, %c) outs(%s)`), which would make the scores look used
/// twice.
struct UnreadInitToEmpty final : OpRewritePattern<linalg::GenericOp> {
  using OpRewritePattern::OpRewritePattern;

  LogicalResult matchAndRewrite(linalg::GenericOp op,
                                PatternRewriter &rewriter) const override {
    bool changed = false;
    for (OpOperand &init : op.getDpsInitsMutable()) {
      if (init.get().getDefiningOp<tensor::EmptyOp>() ||
          op.payloadUsesValueFromOperand(&init))
        continue;
      auto type = dyn_cast<RankedTensorType>(init.get().getType());
      if (!type)
        continue;
      rewriter.setInsertionPoint(op);
      Value empty = tensor::EmptyOp::create(
          rewriter, op.getLoc(),
          tensor::getMixedSizes(rewriter, op.getLoc(), init.get()),
          type.getElementType());
      rewriter.modifyOpInPlace(op, [&] { init.set(empty); });
      changed = true;
    }
    return success(changed);
  }
};

/// Whether `v`, used in the body of `op`, is the float constant 1: a
/// scalar constant, or a block argument reading a splat constant.
bool isOne(linalg::GenericOp op, Value v) {
  auto isOneAttr = [](Attribute a) {
    if (auto f = dyn_cast_or_null<FloatAttr>(a))
      return f.getValue().isExactlyValue(1.0);
    if (auto d = dyn_cast_or_null<DenseFPElementsAttr>(a))
      return d.isSplat() && d.getSplatValue<APFloat>().isExactlyValue(1.0);
    return false;
  };
  Attribute attr;
  if (matchPattern(v, m_Constant(&attr)))
    return isOneAttr(attr);
  auto arg = dyn_cast<BlockArgument>(v);
  if (!arg || arg.getOwner() != op.getBody() ||
      arg.getArgNumber() >= op.getNumDpsInputs())
    return false;
  return matchPattern(op.getDpsInputs()[arg.getArgNumber()],
                      m_Constant(&attr)) &&
         isOneAttr(attr);
}

/// x * 1 is x: the body yields x (a broadcast of x when the generic reads x
/// with a broadcasting map, e.g. a row max multiplied by a ones tensor to
/// give it the shape of the scores).
struct MulByOneIsCopy final : OpRewritePattern<linalg::GenericOp> {
  using OpRewritePattern::OpRewritePattern;

  LogicalResult matchAndRewrite(linalg::GenericOp op,
                                PatternRewriter &rewriter) const override {
    auto yield = cast<linalg::YieldOp>(op.getBody()->getTerminator());
    for (OpOperand &yielded : yield->getOpOperands()) {
      auto mul = yielded.get().getDefiningOp<arith::MulFOp>();
      if (!mul || mul->getBlock() != op.getBody())
        continue;
      Value x = isOne(op, mul.getRhs())   ? mul.getLhs()
                : isOne(op, mul.getLhs()) ? mul.getRhs()
                                          : Value();
      if (!x)
        continue;
      rewriter.modifyOpInPlace(yield, [&] { yielded.set(x); });
      return success();
    }
    return failure();
  }
};

/// Step 1: softmax decomposed, named ops (other than fill) generalized.
LogicalResult generalize(Operation *root) {
  IRRewriter rewriter(root->getContext());
  SmallVector<linalg::SoftmaxOp> softmaxes;
  root->walk([&](linalg::SoftmaxOp op) { softmaxes.push_back(op); });
  for (linalg::SoftmaxOp op : softmaxes) {
    rewriter.setInsertionPoint(op);
    FailureOr<SmallVector<Value>> values = op.decomposeOperation(rewriter);
    if (failed(values))
      return op.emitError("attn-normalize-chains: cannot decompose");
    rewriter.replaceOp(op, *values);
  }
  SmallVector<linalg::LinalgOp> named;
  root->walk([&](linalg::LinalgOp op) {
    if (!isa<linalg::GenericOp, linalg::FillOp>(op) &&
        op.hasPureTensorSemantics())
      named.push_back(op);
  });
  for (linalg::LinalgOp op : named) {
    rewriter.setInsertionPoint(op);
    // Ops that have no generic form (none among the ones front ends emit
    // for attention) are left as they are.
    (void)linalg::generalizeNamedOp(rewriter, op);
  }
  return success();
}

void addReshapeCleanups(RewritePatternSet &patterns) {
  MLIRContext *ctx = patterns.getContext();
  tensor::populateReassociativeReshapeFoldingPatterns(patterns);
  tensor::populateFoldTensorEmptyPatterns(patterns);
  tensor::ExpandShapeOp::getCanonicalizationPatterns(patterns, ctx);
  tensor::CollapseShapeOp::getCanonicalizationPatterns(patterns, ctx);
  tensor::EmptyOp::getCanonicalizationPatterns(patterns, ctx);
  linalg::FillOp::getCanonicalizationPatterns(patterns, ctx);
  linalg::GenericOp::getCanonicalizationPatterns(patterns, ctx);
}

struct AttnNormalizeChainsPass final
    : impl::AttnNormalizeChainsPassBase<AttnNormalizeChainsPass> {
  using Base::Base;

  void runOnOperation() override {
    Operation *root = getOperation();
    MLIRContext *ctx = &getContext();
    if (failed(generalize(root)))
      return signalPassFailure();

    RewritePatternSet reshapes(ctx);
    linalg::populateFoldReshapeOpsByExpansionPatterns(reshapes, splitsRealDims);
    reshapes.add<FoldUnitExpandIntoGenericInput, DropUnreadUnitLoops>(ctx);
    addReshapeCleanups(reshapes);
    if (failed(applyPatternsGreedily(root, std::move(reshapes))))
      return signalPassFailure();

    RewritePatternSet split(ctx);
    linalg::populateDecomposeLinalgOpsPattern(split);
    split.add<SpecializeFillGeneric, UnreadInitToEmpty, MulByOneIsCopy>(ctx);
    addReshapeCleanups(split);
    if (failed(applyPatternsGreedily(root, std::move(split))))
      return signalPassFailure();
  }
};

} // namespace
} // namespace mlir::attn
