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
//     folded into the maps of the generics that read them, and size-1 dims
//     read at a constant 0 (TOSA broadcasting) are collapsed away, so that
//     every map is a projected permutation;
//  4. multi-statement generic bodies (a scale and a bias in one body,
//     `exp(s - max)` in one body) are split into one generic per statement,
//     so that every step of the chain is visible to the matcher; a value
//     computed inside a reduction's body (elementwise fusion's copy of the
//     scale and bias in the row max) is peeled into a generic of its own;
//  5. index arithmetic split from the comparison it feeds is fused back,
//     small masks computed from constants or indices are evaluated, and
//     arange constants that larger masks compare become linalg.index
//     arithmetic (ArangeInputsToIndices.cpp);
//     fill-like generics become linalg.fill again; inits a body does not
//     read become tensor.empty; `x * 1` and `x + 0` become `x`;
//  6. casts of float constants (`arith.truncf` of an f64 constant, as
//     torch-mlir writes `s / math.sqrt(d)`) are folded, rounded as the cast
//     rounds (FoldFloatCastConstants.cpp), so that the scale is a constant;
//     small `dense_resource` constants (torch-mlir's module buffers, a
//     causal `tril`) become dense ones (MaterializeResourceConstants.cpp);
//  7. a softmax over a size-1 dim whose row max and sum the front end folded
//     away (`s - s`, `e * (1 / e)`: TOSA's reduce folders) gets them back
//     (RestoreUnitRowReductions.cpp);
//  8. dynamic sizes as torch-mlir writes them: a `tensor.reshape` to a
//     shape computed from its operand's dims is the collapse or expansion
//     it is (FoldComputedReshapes.cpp), and a gather broadcasting dynamic
//     size-1 dims is its source (FoldDynamicBroadcastGathers.cpp);
//  9. a decode step written with matrix-vector products (its size-1 query
//     dim dropped: `einsum('bhd,bhkd->bhk')`, batch_matvec) gets the query
//     dim back as a unit loop (RestoreUnitQueryDims.cpp).
//
// Every rewrite is an upstream-equivalent, semantics-preserving rewrite of
// the whole function, not only of attention chains (except that step 8
// asserts at run time that a dynamic broadcast does not broadcast, where
// that is not provable); run it in front of your own linalg pipeline
// (attn-raise-pipeline does so before attn-fuse).
//
//===----------------------------------------------------------------------===//

#include "LinalgLoops.h"
#include "attnopt/Dialect/Attn/Transforms/Passes.h"
#include "attnopt/Dialect/Attn/Transforms/Transforms.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/ControlFlow/IR/ControlFlowOps.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Linalg/Transforms/Transforms.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/Dialect/MemRef/Transforms/Transforms.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/Dialect/Tensor/Transforms/Transforms.h"
#include "mlir/Dialect/Utils/IndexingUtils.h"
#include "mlir/IR/Matchers.h"
#include "mlir/IR/PatternMatch.h"
#include "mlir/Interfaces/TilingInterface.h"
#include "mlir/Transforms/GreedyPatternRewriteDriver.h"
#include "llvm/ADT/SmallBitVector.h"
#include "llvm/ADT/TypeSwitch.h"

namespace mlir::attn {
#define GEN_PASS_DEF_ATTNNORMALIZECHAINSPASS
#include "attnopt/Dialect/Attn/Transforms/Passes.h.inc"

namespace {

/// Whether a reshape feeding or fed by `operand`'s generic splits or merges
/// real dims (heads folded into the batch) rather than only unit dims: only
/// those are propagated. Unit dims are kept, since dropping them everywhere
/// would also drop a real size-1 query length (decoding).
bool splitsRealDims(OpOperand *operand) {
  Operation *reshape = operand->get().getDefiningOp();
  if (!isa_and_nonnull<tensor::ExpandShapeOp, tensor::CollapseShapeOp>(reshape))
    reshape = operand->getOwner();
  return isa<tensor::ExpandShapeOp, tensor::CollapseShapeOp>(reshape) &&
         !reshapesOnlyUnitDims(reshape);
}

/// Reassociation groups that drop the dims `dropped` of a rank-`rank`
/// shape: each kept dim starts a group; a dropped dim joins the group before
/// it (leading ones the first group). With every dim dropped: no group.
SmallVector<ReassociationIndices> groupsDropping(int64_t rank,
                                                 ArrayRef<int64_t> dropped) {
  SmallVector<ReassociationIndices> groups;
  ReassociationIndices leading;
  for (int64_t d = 0; d < rank; ++d) {
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
  return groups;
}

/// Splits the results of `map` (which reads a tensor of type `type`) into
/// the dims of size 1 read at the constant 0 (`dropped`) and the others
/// (`kept`, as expressions).
void splitUnitZeroResults(AffineMap map, RankedTensorType type,
                          SmallVectorImpl<int64_t> &dropped,
                          SmallVectorImpl<AffineExpr> &kept) {
  for (auto [d, e] : llvm::enumerate(map.getResults())) {
    auto c = dyn_cast<AffineConstantExpr>(e);
    if (c && c.getValue() == 0 && type.getDimSize(d) == 1)
      dropped.push_back(d);
    else
      kept.push_back(e);
  }
}

/// Makes `op` read `value` through a map with results `results` (over the
/// same loops) instead of `input`.
void replaceInput(PatternRewriter &rewriter, linalg::GenericOp op,
                  OpOperand &input, Value value, ArrayRef<AffineExpr> results) {
  SmallVector<AffineMap> maps = op.getIndexingMapsArray();
  maps[input.getOperandNumber()] =
      AffineMap::get(op.getNumLoops(), 0, results, op.getContext());
  rewriter.modifyOpInPlace(op, [&] {
    input.set(value);
    op.setIndexingMapsAttr(rewriter.getAffineMapArrayAttr(maps));
  });
}

/// A generic computing `op`'s body (moved, not copied) into `init` through
/// `maps` over `iterators`; the caller replaces `op`.
linalg::GenericOp rebuildWithBody(PatternRewriter &rewriter,
                                  linalg::GenericOp op, Value init,
                                  ArrayRef<AffineMap> maps,
                                  ArrayRef<utils::IteratorType> iterators) {
  auto rebuilt = linalg::GenericOp::create(
      rewriter, op.getLoc(), TypeRange{init.getType()}, op.getDpsInputs(),
      ValueRange{init}, maps, iterators);
  rewriter.inlineRegionBefore(op.getRegion(), rebuilt.getRegion(),
                              rebuilt.getRegion().begin());
  return rebuilt;
}

/// generic(ins(x) ...) reading a size-1 dim of x at the constant 0 (TOSA's
/// size-1 broadcasting, e.g. a `[B, 1, 1, Lk]` mask read at (b, 0, 0, j))
/// reads collapse_shape(x) without those dims instead. The maps become
/// projected permutations, which reshape propagation needs.
struct DropBroadcastUnitDims final : OpRewritePattern<linalg::GenericOp> {
  using OpRewritePattern::OpRewritePattern;

  LogicalResult matchAndRewrite(linalg::GenericOp op,
                                PatternRewriter &rewriter) const override {
    for (OpOperand *input : op.getDpsInputOperands()) {
      auto type = dyn_cast<RankedTensorType>(input->get().getType());
      if (!type)
        continue;
      SmallVector<int64_t> dropped;
      SmallVector<AffineExpr> kept;
      splitUnitZeroResults(op.getMatchingIndexingMap(input), type, dropped,
                           kept);
      if (dropped.empty())
        continue;
      SmallVector<ReassociationIndices> groups =
          groupsDropping(type.getRank(), dropped);
      rewriter.setInsertionPoint(op);
      Value collapsed = tensor::CollapseShapeOp::create(rewriter, op.getLoc(),
                                                        input->get(), groups);
      replaceInput(rewriter, op, *input, collapsed, kept);
      return success();
    }
    return failure();
  }
};

/// collapse_shape(generic(x)) that only drops unit dims, of an elementwise
/// generic (identity maps, all parallel, its result read by the collapse
/// alone) becomes generic(collapse_shape(x)): the reshape moves above the
/// elementwise step, so that what the step computes is seen right where
/// it is read. A bias `select(keep, 0, -inf)` of a boolean mask that
/// DropBroadcastUnitDims collapsed is then that boolean mask to attn-fuse;
/// SDPA's `q * sqrt(scale)` and `k * sqrt(scale)` at a batch or head count
/// of 1 (heads folded into the batch by a collapse of a unit dim, which
/// reshape propagation leaves) then feed Q·Kᵀ directly and join the op's
/// scale, as they do at larger batches.
struct CollapseUnitDimsAboveElementwise final
    : OpRewritePattern<tensor::CollapseShapeOp> {
  using OpRewritePattern::OpRewritePattern;

  LogicalResult matchAndRewrite(tensor::CollapseShapeOp collapse,
                                PatternRewriter &rewriter) const override {
    auto op = collapse.getSrc().getDefiningOp<linalg::GenericOp>();
    RankedTensorType srcType = collapse.getSrcType();
    if (!op || !op.hasPureTensorSemantics() || op.getNumResults() != 1 ||
        !op->getResult(0).hasOneUse() ||
        op.getNumParallelLoops() != op.getNumLoops() ||
        !onlyUnitDims(srcType.getShape(), collapse.getReassociationIndices()) ||
        op.payloadUsesValueFromOperand(op.getDpsInitOperand(0)) ||
        !llvm::all_of(op.getIndexingMapsArray(),
                      [](AffineMap m) { return m.isIdentity(); }))
      return failure();
    // An input-less generic (an index mask) keeps its unit loops: the
    // unit-dim patterns drop those that its readers do not need.
    if (op.getNumDpsInputs() == 0)
      return failure();
    Location loc = op.getLoc();
    RankedTensorType resultType = collapse.getResultType();
    SmallVector<Value> inputs;
    for (Value in : op.getDpsInputs())
      inputs.push_back(tensor::CollapseShapeOp::create(
          rewriter, loc, in, collapse.getReassociationIndices()));
    // The init is not read: collapsed, it carries the (dynamic) sizes.
    Value init = tensor::CollapseShapeOp::create(
        rewriter, loc, op.getDpsInits()[0], collapse.getReassociationIndices());
    const int64_t rank = resultType.getRank();
    SmallVector<AffineMap> maps(
        inputs.size() + 1,
        AffineMap::getMultiDimIdentityMap(rank, rewriter.getContext()));
    auto moved = linalg::GenericOp::create(
        rewriter, loc, TypeRange{resultType}, inputs, ValueRange{init}, maps,
        SmallVector<utils::IteratorType>(rank, utils::IteratorType::parallel));
    rewriter.inlineRegionBefore(op.getRegion(), moved.getRegion(),
                                moved.getRegion().begin());
    rewriter.replaceOp(collapse, moved.getResults());
    rewriter.eraseOp(op);
    return success();
  }
};

/// The same for the init of a generic: a keepdim reduction written with an
/// output map that yields 0 for the reduced dim (`[B, H, L, 1]` at
/// (b, h, i, 0)) computes into the collapsed init, and an expand_shape gives
/// the original type back (folded into the readers by
/// FoldUnitExpandIntoGenericInput).
struct DropUnitDimsOfInit final : OpRewritePattern<linalg::GenericOp> {
  using OpRewritePattern::OpRewritePattern;

  LogicalResult matchAndRewrite(linalg::GenericOp op,
                                PatternRewriter &rewriter) const override {
    if (op.getNumDpsInits() != 1)
      return failure();
    OpOperand *init = op.getDpsInitOperand(0);
    auto type = dyn_cast<RankedTensorType>(init->get().getType());
    if (!type)
      return failure();
    AffineMap map = op.getMatchingIndexingMap(init);
    SmallVector<int64_t> dropped;
    SmallVector<AffineExpr> kept;
    splitUnitZeroResults(map, type, dropped, kept);
    if (dropped.empty() || kept.empty())
      return failure();
    SmallVector<ReassociationIndices> groups =
        groupsDropping(type.getRank(), dropped);
    Location loc = op.getLoc();
    SmallVector<OpFoldResult> sizes =
        tensor::getMixedSizes(rewriter, loc, init->get());
    Value collapsed =
        tensor::CollapseShapeOp::create(rewriter, loc, init->get(), groups);
    SmallVector<AffineMap> maps = op.getIndexingMapsArray();
    maps.back() = AffineMap::get(map.getNumDims(), 0, kept, op.getContext());
    linalg::GenericOp smaller = rebuildWithBody(rewriter, op, collapsed, maps,
                                                op.getIteratorTypesArray());
    rewriter.replaceOpWithNewOp<tensor::ExpandShapeOp>(
        op, type, smaller.getResult(0), groups, sizes);
    return success();
  }
};

/// collapse_shape(copy) where the collapse merges away unit dims of a
/// generic that only copies or broadcasts its input (tosa.tile's lowering
/// interleaves a unit dim with every repeated one: `[1, 1, 1, 2, 4, 1, 1,
/// 16, 1, 8]` collapsed to `[8, 16, 8]`): the copy is computed without those
/// unit loops, so that the reshape that remains splits only real dims and
/// can be propagated. Only unit dims the collapse removes anyway are dropped.
struct DropMergedUnitDimsOfCopy final
    : OpRewritePattern<tensor::CollapseShapeOp> {
  using OpRewritePattern::OpRewritePattern;

  LogicalResult matchAndRewrite(tensor::CollapseShapeOp collapse,
                                PatternRewriter &rewriter) const override {
    auto copy = collapse.getSrc().getDefiningOp<linalg::GenericOp>();
    if (!isCopyOfInput(copy) || !copy->hasOneUse())
      return failure();
    RankedTensorType srcType = collapse.getSrcType();
    if (!srcType.hasStaticShape())
      return failure();
    SmallVector<ReassociationIndices> groups =
        collapse.getReassociationIndices();
    SmallVector<int64_t> dropped;
    for (const ReassociationIndices &group : groups) {
      bool hasReal = llvm::any_of(
          group, [&](int64_t d) { return srcType.getDimSize(d) != 1; });
      for (int64_t d : group)
        if (group.size() > 1 && hasReal && srcType.getDimSize(d) == 1)
          dropped.push_back(d);
    }
    if (dropped.empty())
      return failure();
    // Old loop d -> new loop (or the constant 0 for a dropped one).
    SmallVector<AffineExpr> replacement;
    SmallVector<int64_t> keptShape, newIndex(srcType.getRank(), -1);
    for (int64_t d = 0; d < srcType.getRank(); ++d) {
      if (llvm::is_contained(dropped, d)) {
        replacement.push_back(rewriter.getAffineConstantExpr(0));
        continue;
      }
      newIndex[d] = keptShape.size();
      replacement.push_back(rewriter.getAffineDimExpr(keptShape.size()));
      keptShape.push_back(srcType.getDimSize(d));
    }
    int64_t rank = keptShape.size();
    AffineMap inMap = copy.getMatchingIndexingMap(copy.getDpsInputOperand(0))
                          .replaceDimsAndSymbols(replacement, {}, rank, 0);
    Location loc = copy.getLoc();
    Value init = tensor::EmptyOp::create(rewriter, loc, keptShape,
                                         srcType.getElementType());
    linalg::GenericOp smaller = rebuildWithBody(
        rewriter, copy, init, {inMap, rewriter.getMultiDimIdentityMap(rank)},
        SmallVector<utils::IteratorType>(rank, utils::IteratorType::parallel));
    SmallVector<ReassociationIndices> newGroups;
    for (const ReassociationIndices &group : groups) {
      newGroups.emplace_back();
      for (int64_t d : group)
        if (newIndex[d] >= 0)
          newGroups.back().push_back(newIndex[d]);
    }
    if (rank == collapse.getResultType().getRank())
      rewriter.replaceOp(collapse, smaller.getResult(0));
    else
      rewriter.replaceOpWithNewOp<tensor::CollapseShapeOp>(
          collapse, collapse.getResultType(), smaller.getResult(0), newGroups);
    rewriter.eraseOp(copy);
    return success();
  }
};

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
      replaceInput(rewriter, op, *input, expand.getSrc(), kept);
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
    if (!type || type.getRank() < 2)
      return failure();
    llvm::SmallBitVector read = loopsReadByInputs(op);
    SmallVector<int64_t> dropped;
    for (int64_t d = 0; d < type.getRank(); ++d)
      if (type.getDimSize(d) == 1 && !read.test(d))
        dropped.push_back(d);
    if (dropped.empty() || (int64_t)dropped.size() == type.getRank())
      return failure();
    // Old loop d -> new loop position (or none).
    Location loc = op.getLoc();
    SmallVector<OpFoldResult> sizes =
        tensor::getMixedSizes(rewriter, loc, op.getDpsInits()[0]);
    SmallVector<AffineExpr> replacement;
    SmallVector<OpFoldResult> keptSizes;
    int64_t next = 0;
    for (int64_t d = 0; d < type.getRank(); ++d) {
      if (llvm::is_contained(dropped, d)) {
        replacement.push_back(rewriter.getAffineConstantExpr(0));
        continue;
      }
      replacement.push_back(rewriter.getAffineDimExpr(next++));
      keptSizes.push_back(sizes[d]);
    }
    SmallVector<AffineMap> maps;
    for (OpOperand *input : op.getDpsInputOperands())
      maps.push_back(op.getMatchingIndexingMap(input).replaceDimsAndSymbols(
          replacement, {}, next, 0));
    maps.push_back(rewriter.getMultiDimIdentityMap(next));
    Value init = tensor::EmptyOp::create(rewriter, loc, keptSizes,
                                         type.getElementType());
    linalg::GenericOp smaller = rebuildWithBody(
        rewriter, op, init, maps,
        SmallVector<utils::IteratorType>(next, utils::IteratorType::parallel));
    // The loops kept are renumbered; so are the linalg.index ops of them.
    for (linalg::IndexOp index : smaller.getBody()->getOps<linalg::IndexOp>())
      rewriter.modifyOpInPlace(index, [&] {
        index.setDim(
            cast<AffineDimExpr>(replacement[index.getDim()]).getPosition());
      });
    SmallVector<ReassociationIndices> groups =
        groupsDropping(type.getRank(), dropped);
    rewriter.replaceOpWithNewOp<tensor::ExpandShapeOp>(
        op, type, smaller.getResult(0), groups, sizes);
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
    // Or one without inputs that yields a value from outside its body (a
    // constant the body captured).
    if (!value && op.getNumDpsInputs() == 0 && op.getNumDpsInits() == 1 &&
        op.getNumParallelLoops() == op.getNumLoops() &&
        op.getIndexingMapsArray()[0].isIdentity()) {
      Value yielded = op.getBody()->getTerminator()->getOperand(0);
      if (!op.getRegion().isAncestor(yielded.getParentRegion()))
        value = yielded;
    }
    if (!value)
      return failure();
    rewriter.replaceOpWithNewOp<linalg::FillOp>(op, *value,
                                                op.getDpsInits().front());
    return success();
  }
};

/// A tensor.empty, possibly behind tensor.casts: canonicalization turns
/// `tensor.empty(%c4) : tensor<?xf32>` into a static empty and a cast to the
/// dynamic type, which must count as empty, or UnreadInitToEmpty would
/// rebuild the dynamic empty forever.
bool isEmptyTensor(Value v) {
  while (auto cast = v.getDefiningOp<tensor::CastOp>())
    v = cast.getSource();
  return v.getDefiningOp<tensor::EmptyOp>() != nullptr;
}

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
      if (isEmptyTensor(init.get()) || op.payloadUsesValueFromOperand(&init))
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

/// Whether `v`, used in the body of `op`, is the float constant `value`: a
/// scalar constant, or a block argument reading a splat constant.
bool isConstant(linalg::GenericOp op, Value v, double value) {
  auto isValue = [&](Attribute a) {
    if (auto f = dyn_cast_or_null<FloatAttr>(a))
      return f.getValue().isExactlyValue(value);
    if (auto d = dyn_cast_or_null<DenseFPElementsAttr>(a))
      return d.isSplat() && d.getSplatValue<APFloat>().isExactlyValue(value);
    return false;
  };
  Attribute attr;
  if (matchPattern(v, m_Constant(&attr)))
    return isValue(attr);
  auto arg = dyn_cast<BlockArgument>(v);
  if (!arg || arg.getOwner() != op.getBody() ||
      arg.getArgNumber() >= op.getNumDpsInputs())
    return false;
  return matchPattern(op.getDpsInputs()[arg.getArgNumber()],
                      m_Constant(&attr)) &&
         isValue(attr);
}

/// x * 1 and x + 0 are x: the body yields x (a broadcast of x when the
/// generic reads x with a broadcasting map: a row max multiplied by a ones
/// tensor to give it the shape of the scores, K or V added to a zeros
/// tensor to repeat it over the heads of a group). x + 0 differs from x
/// only for x = -0 (it gives +0), which no later step of an attention chain
/// can tell apart.
struct IdentityArithIsCopy final : OpRewritePattern<linalg::GenericOp> {
  using OpRewritePattern::OpRewritePattern;

  LogicalResult matchAndRewrite(linalg::GenericOp op,
                                PatternRewriter &rewriter) const override {
    auto yield = cast<linalg::YieldOp>(op.getBody()->getTerminator());
    for (OpOperand &yielded : yield->getOpOperands()) {
      Operation *def = yielded.get().getDefiningOp();
      if (!def || def->getBlock() != op.getBody() ||
          !isa<arith::MulFOp, arith::AddFOp>(def))
        continue;
      double neutral = isa<arith::MulFOp>(def) ? 1.0 : 0.0;
      Value lhs = def->getOperand(0), rhs = def->getOperand(1);
      Value x = isConstant(op, rhs, neutral)   ? lhs
                : isConstant(op, lhs, neutral) ? rhs
                                               : Value();
      if (!x)
        continue;
      rewriter.modifyOpInPlace(yield, [&] { yielded.set(x); });
      return success();
    }
    return failure();
  }
};

/// The value of `o` on the constant operands `in`, for the integer, index,
/// comparison and select ops masks are built from (ops' own folders may
/// rewrite the op in place, which a pattern must not do to an op it keeps).
Attribute evaluate(Operation &o, ArrayRef<Attribute> in, Builder &b) {
  Type type = o.getResult(0).getType();
  auto apint = [&](unsigned k) -> std::optional<APInt> {
    if (auto a = dyn_cast_or_null<IntegerAttr>(in[k]))
      return a.getValue();
    return std::nullopt;
  };
  auto apfloat = [&](unsigned k) -> std::optional<APFloat> {
    if (auto a = dyn_cast_or_null<FloatAttr>(in[k]))
      return a.getValue();
    return std::nullopt;
  };
  unsigned width = type.isIndex() ? 64 : type.getIntOrFloatBitWidth();
  auto binary = [&](auto fn) -> Attribute {
    std::optional<APInt> x = apint(0), y = apint(1);
    if (!x || !y)
      return {};
    return IntegerAttr::get(type, fn(*x, *y));
  };
  auto resized = [&](bool isSigned) -> Attribute {
    std::optional<APInt> x = apint(0);
    if (!x)
      return {};
    return IntegerAttr::get(type, isSigned ? x->sextOrTrunc(width)
                                           : x->zextOrTrunc(width));
  };
  return llvm::TypeSwitch<Operation *, Attribute>(&o)
      .Case([&](arith::ConstantOp c) { return c.getValue(); })
      .Case([&](arith::AddIOp) { return binary(std::plus<APInt>()); })
      .Case([&](arith::SubIOp) { return binary(std::minus<APInt>()); })
      .Case([&](arith::MulIOp) { return binary(std::multiplies<APInt>()); })
      .Case([&](arith::AndIOp) {
        return binary([](const APInt &x, const APInt &y) { return x & y; });
      })
      .Case([&](arith::OrIOp) {
        return binary([](const APInt &x, const APInt &y) { return x | y; });
      })
      .Case([&](arith::XOrIOp) {
        return binary([](const APInt &x, const APInt &y) { return x ^ y; });
      })
      .Case([&](arith::CmpIOp c) -> Attribute {
        std::optional<APInt> x = apint(0), y = apint(1);
        if (!x || !y)
          return {};
        return b.getBoolAttr(
            arith::applyCmpPredicate(c.getPredicate(), *x, *y));
      })
      .Case([&](arith::CmpFOp c) -> Attribute {
        std::optional<APFloat> x = apfloat(0), y = apfloat(1);
        if (!x || !y)
          return {};
        return b.getBoolAttr(
            arith::applyCmpPredicate(c.getPredicate(), *x, *y));
      })
      .Case([&](arith::SelectOp) -> Attribute {
        std::optional<APInt> c = apint(0);
        if (!c)
          return {};
        return c->isZero() ? in[2] : in[1];
      })
      .Case<arith::IndexCastOp, arith::ExtSIOp, arith::TruncIOp>(
          [&](Operation *) { return resized(true); })
      .Case<arith::IndexCastUIOp, arith::ExtUIOp>(
          [&](Operation *) { return resized(false); })
      .Case<arith::SIToFPOp, arith::UIToFPOp>([&](Operation *op) -> Attribute {
        std::optional<APInt> x = apint(0);
        auto ft = dyn_cast<FloatType>(type);
        if (!x || !ft)
          return {};
        APFloat f(ft.getFloatSemantics());
        f.convertFromAPInt(*x, isa<arith::SIToFPOp>(op),
                           APFloat::rmNearestTiesToEven);
        return FloatAttr::get(type, f);
      })
      .Default([](Operation *) { return Attribute(); });
}

/// Whether `op`'s body only picks among its inputs and constants (selects,
/// on conditions of integer comparisons and logic): evaluated, it rounds
/// nothing. Float masks are built so from boolean ones: `ones(n,
/// n).tril().bool()` selects the boolean tril to 1.0 / 0.0 before comparing
/// with 0, and Hugging Face's Mistral / Qwen2 sliding-window bias fills
/// `triu(full(min), 1)` with `min` where a second boolean band is true.
static bool onlySelects(linalg::GenericOp op) {
  return llvm::all_of(op.getBody()->without_terminator(), [](Operation &o) {
    return isa<arith::SelectOp, arith::ConstantOp, arith::CmpIOp, arith::AndIOp,
               arith::OrIOp, arith::XOrIOp>(o);
  });
}

/// Evaluates a small all-parallel generic into a constant when its inputs
/// are all constants (or it has none): an `i1` mask, a float bias built
/// without inputs (from linalg.index), or a float mask that only selects
/// among constants (onlySelects), folded element by element with the
/// ops' own folders. Masks that front ends build from index comparisons or
/// from `tosa.greater` of arange constants then reach attn-fuse as
/// constants, whose band (causal / window) it recognizes. Other values are
/// left alone: this is not a general constant folder.
/// (The ops are evaluated here, not with their folders, which may rewrite
/// an op in place.)
struct FoldConstantMask final : OpRewritePattern<linalg::GenericOp> {
  using OpRewritePattern::OpRewritePattern;
  /// Larger masks stay generics (attn-fuse still reads upper-bound masks
  /// from linalg.index comparisons directly).
  static constexpr int64_t kMaxElements = 1 << 16;

  LogicalResult matchAndRewrite(linalg::GenericOp op,
                                PatternRewriter &rewriter) const override {
    if (op.getNumDpsInits() != 1 ||
        op.getNumParallelLoops() != op.getNumLoops() ||
        !op.getMatchingIndexingMap(op.getDpsInitOperand(0)).isIdentity() ||
        op.payloadUsesValueFromOperand(op.getDpsInitOperand(0)))
      return failure();
    auto type = dyn_cast<RankedTensorType>(op.getResult(0).getType());
    if (!type || !type.hasStaticShape() || type.getNumElements() > kMaxElements)
      return failure();
    // i1 masks, the integer steps that build them from constants (an
    // arange cast from i64 to i32 and back, as PyTorch's causal mask is
    // exported), float masks computed from indices alone, and float masks
    // that select among constants (without them, `ones(n, n).tril().bool()`
    // and Mistral's sliding-window bias stayed generics of a float tensor,
    // whose band attn-fuse cannot read: a mask operand where they are
    // `causal` and a `window`).
    Type elt = type.getElementType();
    if (!elt.isIntOrIndex() &&
        !(isa<FloatType>(elt) &&
          (op.getNumDpsInputs() == 0 || onlySelects(op))))
      return failure();
    SmallVector<DenseElementsAttr> inputs;
    for (Value in : op.getDpsInputs()) {
      DenseElementsAttr c;
      if (!matchPattern(in, m_Constant(&c)))
        return failure();
      inputs.push_back(c);
    }
    Block *body = op.getBody();
    for (Operation &o : body->without_terminator())
      if (o.getNumResults() != 1 ||
          !isa<linalg::IndexOp, arith::ConstantOp, arith::AddIOp, arith::SubIOp,
               arith::MulIOp, arith::AndIOp, arith::OrIOp, arith::XOrIOp,
               arith::CmpIOp, arith::CmpFOp, arith::SelectOp,
               arith::IndexCastOp, arith::IndexCastUIOp, arith::ExtSIOp,
               arith::ExtUIOp, arith::TruncIOp, arith::SIToFPOp,
               arith::UIToFPOp>(o))
        return failure();
    SmallVector<AffineMap> maps = op.getIndexingMapsArray();
    SmallVector<int64_t> strides = computeStrides(type.getShape());
    SmallVector<Attribute> values;
    values.reserve(type.getNumElements());
    for (int64_t flat = 0; flat < type.getNumElements(); ++flat) {
      SmallVector<int64_t> loops = delinearize(flat, strides);
      DenseMap<Value, Attribute> env;
      for (auto [k, c] : llvm::enumerate(inputs)) {
        SmallVector<int64_t> at = maps[k].compose(loops);
        auto inType = cast<ShapedType>(c.getType());
        int64_t index = 0;
        for (auto [d, x] : llvm::enumerate(at))
          index = index * inType.getDimSize(d) + x;
        env[body->getArgument(k)] = c.isSplat()
                                        ? c.getSplatValue<Attribute>()
                                        : c.getValues<Attribute>()[index];
      }
      for (Operation &o : body->without_terminator()) {
        if (auto index = dyn_cast<linalg::IndexOp>(o)) {
          env[index] = rewriter.getIndexAttr(loops[index.getDim()]);
          continue;
        }
        SmallVector<Attribute> operands;
        for (Value v : o.getOperands()) {
          Attribute a = env.lookup(v);
          // A constant defined outside the body.
          if (!a && !matchPattern(v, m_Constant(&a)))
            return failure();
          operands.push_back(a);
        }
        Attribute a = evaluate(o, operands, rewriter);
        if (!a)
          return failure();
        env[o.getResult(0)] = a;
      }
      Attribute y = env.lookup(
          cast<linalg::YieldOp>(body->getTerminator()).getOperand(0));
      if (!y)
        return failure();
      values.push_back(y);
    }
    rewriter.replaceOpWithNewOp<arith::ConstantOp>(
        op, DenseElementsAttr::get(type, values));
    return success();
  }
};

/// The generic yields select(c, k1, k2) of two constants (a band sliced
/// from a constant buffer, FoldBandConstantSlices.cpp); with `only`, the
/// body has no other statement but constants (c is an input).
static bool selectsConstants(linalg::GenericOp g, bool only) {
  auto select = g.getBody()
                    ->getTerminator()
                    ->getOperand(0)
                    .getDefiningOp<arith::SelectOp>();
  return select && select->getBlock() == g.getBody() &&
         matchPattern(select.getTrueValue(), m_Constant()) &&
         matchPattern(select.getFalseValue(), m_Constant()) &&
         (!only ||
          llvm::all_of(g.getBody()->without_terminator(), [&](Operation &o) {
            return &o == select.getOperation() ||
                   o.hasTrait<OpTrait::ConstantLike>();
          }));
}

/// An op of a mask built from indices: index arithmetic, comparisons,
/// logic, and selects.
static bool isIndexMaskOp(Operation &o) {
  return isa<linalg::IndexOp, linalg::YieldOp, arith::ConstantOp, arith::AddIOp,
             arith::SubIOp, arith::MulIOp, arith::IndexCastOp,
             arith::IndexCastUIOp, arith::ExtSIOp, math::AbsIOp, arith::CmpIOp,
             arith::AndIOp, arith::OrIOp, arith::XOrIOp, arith::SelectOp>(o);
}

/// Whether `g` only selects among masks built from indices (every input an
/// input-less generic, its body index arithmetic, logic and selects): Hugging
/// Face Mistral's and Qwen2's sliding-window bias, `triu(full(min), 1)` filled
/// with min where a second band holds. Fused, it is one input-less generic,
/// whose band attn-fuse reads (SelectOfSameFill joins the two conditions); the
/// select on the scores reads the scores, no index generic.
static bool selectsAmongIndexMasks(linalg::GenericOp g) {
  return g.getNumDpsInputs() > 0 && g.getNumResults() == 1 &&
         llvm::all_of(g.getBody()->getOperations(), isIndexMaskOp) &&
         llvm::all_of(g.getDpsInputs(), [](Value in) {
           auto producer = in.getDefiningOp<linalg::GenericOp>();
           return producer && producer.getNumDpsInputs() == 0;
         });
}

/// select(a, x, select(b, x, y)) is select(a or b, x, y): two masks filling
/// the same value, one after the other, are one condition (which
/// attn-fuse's band reader takes as the `ori` of the excluded sides).
struct SelectOfSameFill final : OpRewritePattern<arith::SelectOp> {
  using OpRewritePattern::OpRewritePattern;

  LogicalResult matchAndRewrite(arith::SelectOp op,
                                PatternRewriter &rewriter) const override {
    auto inner = op.getFalseValue().getDefiningOp<arith::SelectOp>();
    if (!inner || !inner->hasOneUse() ||
        inner.getTrueValue() != op.getTrueValue() ||
        !inner.getCondition().getType().isInteger(1) ||
        !op.getCondition().getType().isInteger(1))
      return failure();
    Value either = arith::OrIOp::create(
        rewriter, op.getLoc(), op.getCondition(), inner.getCondition());
    rewriter.replaceOpWithNewOp<arith::SelectOp>(op, either, op.getTrueValue(),
                                                 inner.getFalseValue());
    return success();
  }
};

/// Fusion control: `operand` reads the result of an input-less generic that
/// only does integer arithmetic on linalg.index (an index value, or one
/// cast to an integer type, as an arange turned into indices is) and
/// comparisons of it (an i1 mask, joined by andi / ori into a band), and
/// the consumer computes integers too (a mask, not the select on the scores:
/// fused there, a mask would have to be a band, while as a tensor attn-fuse
/// reads a band as causal / window and keeps any other mask an operand).
/// A sliced band buffer's select of two constants joins this: its condition
/// is fused into it, and it into a comparison computing an i1 (GPT-2's
/// `bias[:T, :T] == 0`), which then folds into the band's condition.
bool isIndexComputation(OpOperand *operand) {
  auto producer = operand->get().getDefiningOp<linalg::GenericOp>();
  auto consumer = dyn_cast<linalg::GenericOp>(operand->getOwner());
  if (!producer || producer.getNumDpsInputs() != 0 || !consumer)
    return false;
  if (selectsAmongIndexMasks(consumer))
    return llvm::all_of(producer.getBody()->getOperations(), isIndexMaskOp);
  bool integerConsumer = llvm::all_of(consumer->getResultTypes(), [](Type t) {
    return getElementTypeOrSelf(t).isIntOrIndex();
  });
  bool floatProducer =
      !getElementTypeOrSelf(operand->get().getType()).isIntOrIndex();
  if (floatProducer) {
    if (!selectsConstants(producer, /*only=*/false) ||
        consumer.getNumResults() != 1 ||
        !getElementTypeOrSelf(consumer.getResult(0).getType()).isInteger(1))
      return false;
  } else if (!integerConsumer && !(selectsConstants(consumer, /*only=*/true) &&
                                   consumer.getNumDpsInputs() == 1)) {
    return false;
  }
  return llvm::all_of(producer.getBody()->getOperations(), [&](Operation &o) {
    return isa<linalg::IndexOp, linalg::YieldOp, arith::ConstantOp,
               arith::AddIOp, arith::SubIOp, arith::MulIOp, arith::IndexCastOp,
               arith::IndexCastUIOp, arith::ExtSIOp, math::AbsIOp,
               arith::CmpIOp, arith::AndIOp, arith::OrIOp, arith::XOrIOp>(o) ||
           (floatProducer && isa<arith::SelectOp>(o));
  });
}

/// Step 1: softmax decomposed, named ops (other than fill) generalized.
LogicalResult generalize(Operation *root) {
  if (failed(decomposeSoftmaxOps(root)))
    return failure();
  IRRewriter rewriter(root->getContext());
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
  // tensor.dim of a generic's (or reshape's) result is the dim of what it
  // was computed from: the split's tensor.empty sizes at run-time shapes
  // would otherwise be extra users of the scores.
  memref::populateResolveRankedShapedTypeResultDimsPatterns(patterns);
  tensor::DimOp::getCanonicalizationPatterns(patterns, ctx);
  tensor::populateReassociativeReshapeFoldingPatterns(patterns);
  tensor::populateFoldTensorEmptyPatterns(patterns);
  tensor::ExpandShapeOp::getCanonicalizationPatterns(patterns, ctx);
  tensor::CollapseShapeOp::getCanonicalizationPatterns(patterns, ctx);
  tensor::EmptyOp::getCanonicalizationPatterns(patterns, ctx);
  linalg::FillOp::getCanonicalizationPatterns(patterns, ctx);
  linalg::GenericOp::getCanonicalizationPatterns(patterns, ctx);
  // A tensor.cast to a less static type folded into the linalg op that
  // reads it (the op then casts its results back): linalg's elementwise
  // fusion (RemoveOutsDependency) rebuilds an init that is a cast of an
  // empty as a dynamic tensor.empty, which the empty's canonicalization
  // turns back into a static empty and a cast, forever.
  // (The tensor dialect's canonicalization: FoldTensorCastProducerOp.)
  ctx->getOrLoadDialect<tensor::TensorDialect>()->getCanonicalizationPatterns(
      patterns);
}

} // namespace

LogicalResult decomposeSoftmaxOps(Operation *root) {
  SmallVector<linalg::SoftmaxOp> softmaxes;
  root->walk([&](linalg::SoftmaxOp op) { softmaxes.push_back(op); });
  IRRewriter rewriter(root->getContext());
  for (linalg::SoftmaxOp op : softmaxes) {
    rewriter.setInsertionPoint(op);
    FailureOr<SmallVector<Value>> values = op.decomposeOperation(rewriter);
    if (failed(values))
      return op.emitError("cannot decompose linalg.softmax");
    rewriter.replaceOp(op, *values);
  }
  return success();
}

namespace {

struct AttnNormalizeChainsPass final
    : impl::AttnNormalizeChainsPassBase<AttnNormalizeChainsPass> {
  using Base::Base;

  /// More rewrites than any model needs (a few hundred per attention
  /// chain).
  static constexpr int64_t kMaxRewrites = 1 << 18;

  /// Applies `patterns` greedily; a set that does not converge (patterns
  /// undoing each other) is a diagnostic, not an endless loop.
  static LogicalResult applyToFixpoint(Operation *root,
                                       RewritePatternSet &&patterns,
                                       StringRef stage) {
    GreedyRewriteConfig config;
    config.setMaxNumRewrites(kMaxRewrites);
    if (succeeded(applyPatternsGreedily(root, std::move(patterns), config)))
      return success();
    return root->emitError("attn-normalize-chains: the ")
           << stage << " rewrites did not converge after " << kMaxRewrites
           << " rewrites (a bug of the pass: please report it with this "
              "input)";
  }

  void runOnOperation() override {
    Operation *root = getOperation();
    MLIRContext *ctx = &getContext();
    if (failed(generalize(root)))
      return signalPassFailure();

    // Unit dims first: the reshape propagation below multiplies the unit
    // dims of a reshape into every generic it crosses.
    auto addUnitDimPatterns = [&](RewritePatternSet &patterns) {
      patterns.add<FoldUnitExpandIntoGenericInput, DropUnreadUnitLoops,
                   DropBroadcastUnitDims, DropUnitDimsOfInit,
                   DropMergedUnitDimsOfCopy, IdentityArithIsCopy,
                   CollapseUnitDimsAboveElementwise, SpecializeFillGeneric>(
          ctx);
      populateDropReductionUnitLoopsPatterns(patterns);
      // Constants first seen through a cast (torch-mlir's f64 scale):
      // folded before a body split would make the cast a tensor.
      populateFoldFloatCastConstantsPatterns(patterns);
      populateMaterializeResourceConstantsPatterns(patterns);
      // With the unit dims: a mask generic whose aranges become indices
      // then loses the unit loops those aranges broadcast over.
      populateArangeInputsToIndicesPatterns(patterns);
      // GPT-2's tril buffer sliced to the sequence: index comparisons too.
      populateFoldBandConstantSlicesPatterns(patterns);
      // torch-mlir's dynamic sizes: reshapes to computed shapes and
      // broadcasts of size-1 dims, before the reshapes are propagated.
      populateFoldComputedReshapesPatterns(patterns);
      populateFoldDynamicBroadcastGathersPatterns(patterns);
      populateHoistCastsAboveBroadcastsPatterns(patterns);
      addReshapeCleanups(patterns);
    };
    RewritePatternSet units(ctx);
    addUnitDimPatterns(units);
    if (failed(applyToFixpoint(root, std::move(units), "unit-dim")))
      return signalPassFailure();

    RewritePatternSet reshapes(ctx);
    linalg::populateFoldReshapeOpsByExpansionPatterns(reshapes, splitsRealDims);
    addUnitDimPatterns(reshapes);
    if (failed(
            applyToFixpoint(root, std::move(reshapes), "reshape propagation")))
      return signalPassFailure();

    RewritePatternSet split(ctx);
    linalg::populateDecomposeLinalgOpsPattern(split);
    split.add<SpecializeFillGeneric, UnreadInitToEmpty, IdentityArithIsCopy>(
        ctx);
    populatePeelFusedProducersPatterns(split);
    populateRestoreUnitRowReductionsPatterns(split);
    addReshapeCleanups(split);
    if (failed(applyToFixpoint(root, std::move(split), "body split")))
      return signalPassFailure();

    // The split also separated index arithmetic (linalg.index, addi) from
    // the comparison that builds a mask from it; index-typed input-less
    // generics are fused back into their consumers, so that a mask built
    // from linalg.index is one input-less generic again.
    RewritePatternSet indices(ctx);
    linalg::populateElementwiseOpsFusionPatterns(indices, isIndexComputation);
    indices.add<FoldConstantMask, SelectOfSameFill>(ctx);
    // A fused mask generic keeps the unit loops its inputs had: dropped
    // again, so that the mask is read without a reshape.
    addUnitDimPatterns(indices);
    if (failed(applyToFixpoint(root, std::move(indices), "index fusion")))
      return signalPassFailure();

    // Last, since the unit-dim rewrites above would drop it again: a decode
    // step's matrix-vector products get their unit query dim back.
    DenseSet<Operation *> decodeChains = collectUnitQueryChains(root);
    if (decodeChains.empty())
      return;
    RewritePatternSet queries(ctx);
    populateRestoreUnitQueryDimsPatterns(queries, decodeChains);
    addReshapeCleanups(queries);
    if (failed(applyToFixpoint(root, std::move(queries), "unit query dim")))
      return signalPassFailure();
  }
};

} // namespace
} // namespace mlir::attn
