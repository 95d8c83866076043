//===- RestoreUnitQueryDims.cpp - a decode step's dropped query dim -------===//
//
// A decode step attends one new query token to the cache. Front ends and
// hand-written code often drop its size-1 query dim, so that Q·Kᵀ and P·V are
// matrix-vector products (JAX's `einsum('bhd,bhkd->bhk')`, a
// `linalg.batch_matvec` over the folded heads, or upstream's unit-extent
// folding of `[B, H, 1, D]`):
//
//   s[b, h, k] = sum_d q[b, h, d] * k[b, h, k, d]
//   p = softmax over k of (s * scale + mask)
//   o[b, h, d] = sum_k p[b, h, k] * v[b, h, k, d]
//
// Neither product is a contraction in linalg's sense (each operand needs a
// loop the other lacks), so attn-fuse cannot tell Q from K. These patterns
// give the chain its query dim back, exactly: the vector operand of each
// product gets a unit dim (tensor.expand_shape), the product a unit parallel
// loop read by that operand and the result, and the result is collapsed
// back:
//
//   s'[b, h, u, k] = sum_d expand(q)[b, h, u, d] * k[b, h, k, d]
//   s = collapse(s') ([[0], [1, 2], [3]]: u joins the dim before it)
//
// Upstream's fusion of reshapes by expansion then carries the unit dim
// through the softmax (u joins a batch dim, so it stays a parallel loop of
// the row max and sum), and the collapse meets P·V's expand and cancels.
//
// Only the ops between a pair of such products whose softmax computes an
// exponential are rewritten (collectUnitQueryChains): other matrix-vector
// products of the program keep their form.
//
//===----------------------------------------------------------------------===//

#include "LinalgLoops.h"
#include "attnopt/Dialect/Attn/Transforms/Transforms.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Linalg/Transforms/Transforms.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/IR/PatternMatch.h"

using namespace mlir;

namespace {

/// A generic computing `out += a * b` over one reduction loop where one
/// operand (`vector`) has no loop of its own: every loop it reads is the
/// reduction loop or a loop of the result that the other operand reads too.
struct VectorContraction {
  unsigned vector;   ///< Input number of the vector operand.
  int64_t vectorPos; ///< Where the reduction loop is in its map.
  int64_t resultPos; ///< Where the result's first free loop is in its map.
};

bool hasLoop(AffineMap map, unsigned loop) { return map.isFunctionOfDim(loop); }

int64_t resultPosition(AffineMap map, unsigned loop) {
  std::optional<unsigned> p =
      map.getResultPosition(getAffineDimExpr(loop, map.getContext()));
  return p ? static_cast<int64_t>(*p) : -1;
}

FailureOr<VectorContraction> matchVectorContraction(linalg::GenericOp g) {
  if (!g.hasPureTensorSemantics() || g.getNumDpsInits() != 1 ||
      g.getNumReductionLoops() != 1 || !attn::sumsProducts(g))
    return failure();
  SmallVector<AffineMap> maps = g.getIndexingMapsArray();
  if (!llvm::all_of(maps, [](AffineMap m) {
        return m.isProjectedPermutation(/*allowZeroInResults=*/false);
      }))
    return failure();
  SmallVector<unsigned> red;
  g.getReductionDims(red);
  unsigned r = red[0];
  AffineMap out = maps[2];
  if (!hasLoop(maps[0], r) || !hasLoop(maps[1], r) || hasLoop(out, r))
    return failure();
  // The loops of the result that only one operand reads.
  auto freeLoops = [&](unsigned self) {
    SmallVector<unsigned> loops;
    for (AffineExpr e : out.getResults()) {
      unsigned l = cast<AffineDimExpr>(e).getPosition();
      if (hasLoop(maps[self], l) && !hasLoop(maps[1 - self], l))
        loops.push_back(l);
    }
    return loops;
  };
  SmallVector<unsigned> free0 = freeLoops(0), free1 = freeLoops(1);
  if (free0.empty() == free1.empty())
    return failure();
  VectorContraction c;
  c.vector = free0.empty() ? 0 : 1;
  // The vector operand reads nothing but the reduction loop and loops of
  // the result; every loop of the result is read by an operand.
  for (AffineExpr e : maps[c.vector].getResults()) {
    unsigned l = cast<AffineDimExpr>(e).getPosition();
    if (l != r && !hasLoop(out, l))
      return failure();
  }
  for (AffineExpr e : out.getResults()) {
    unsigned l = cast<AffineDimExpr>(e).getPosition();
    if (!hasLoop(maps[0], l) && !hasLoop(maps[1], l))
      return failure();
  }
  c.vectorPos = resultPosition(maps[c.vector], r);
  c.resultPos = out.getNumResults();
  for (unsigned l : c.vector == 0 ? free1 : free0)
    c.resultPos = std::min(c.resultPos, resultPosition(out, l));
  // The unit dim joins the result dim before the free ones, which must be
  // a batch loop (read by both operands: a parallel loop of the softmax).
  if (c.resultPos == 0)
    return failure();
  unsigned before =
      cast<AffineDimExpr>(out.getResult(c.resultPos - 1)).getPosition();
  if (!hasLoop(maps[0], before) || !hasLoop(maps[1], before))
    return failure();
  return c;
}

/// `map` over one more loop, `unit`, read at result position `pos`.
AffineMap withUnitLoop(AffineMap map, unsigned unit, int64_t pos) {
  SmallVector<AffineExpr> results(map.getResults());
  results.insert(results.begin() + pos,
                 getAffineDimExpr(unit, map.getContext()));
  return AffineMap::get(map.getNumDims() + 1, 0, results, map.getContext());
}

/// Groups that merge the unit dim at `pos` of a rank-`rank` shape into the
/// dim before it (into the next one at position 0).
SmallVector<ReassociationIndices> unitDimGroups(int64_t rank, int64_t pos) {
  SmallVector<ReassociationIndices> groups;
  for (int64_t d = 0; d < rank; ++d) {
    if (d == pos && d > 0)
      groups.back().push_back(d);
    else if (d == pos + 1 && pos == 0)
      groups.back().push_back(d);
    else
      groups.push_back({d});
  }
  return groups;
}

/// `type` with a unit dim inserted at `pos`.
RankedTensorType withUnitDim(RankedTensorType type, int64_t pos) {
  SmallVector<int64_t> shape(type.getShape());
  shape.insert(shape.begin() + pos, 1);
  return type.clone(shape);
}

/// Inserts the unit dim at `pos` of `value`.
Value expandUnitDim(PatternRewriter &rewriter, Location loc, Value value,
                    int64_t pos) {
  auto type = cast<RankedTensorType>(value.getType());
  RankedTensorType expanded = withUnitDim(type, pos);
  return tensor::ExpandShapeOp::create(rewriter, loc, expanded, value,
                                       unitDimGroups(expanded.getRank(), pos));
}

/// A vector contraction of a decode chain -> the matrix contraction with a
/// unit query loop, its result collapsed back.
struct VectorContractionWithUnitRow final
    : OpRewritePattern<linalg::GenericOp> {
  VectorContractionWithUnitRow(MLIRContext *ctx,
                               const DenseSet<Operation *> &chainOps)
      : OpRewritePattern(ctx), chainOps(chainOps) {}

  LogicalResult matchAndRewrite(linalg::GenericOp op,
                                PatternRewriter &rewriter) const override {
    if (!chainOps.contains(op))
      return failure();
    FailureOr<VectorContraction> c = matchVectorContraction(op);
    if (failed(c))
      return failure();
    Location loc = op.getLoc();
    unsigned unit = op.getNumLoops();
    SmallVector<AffineMap> maps = op.getIndexingMapsArray();
    SmallVector<Value> inputs(op.getDpsInputs());
    inputs[c->vector] =
        expandUnitDim(rewriter, loc, inputs[c->vector], c->vectorPos);
    maps[c->vector] = withUnitLoop(maps[c->vector], unit, c->vectorPos);
    maps[2] = withUnitLoop(maps[2], unit, c->resultPos);
    for (unsigned i : {0u, 1u})
      if (i != c->vector)
        maps[i] =
            AffineMap::get(unit + 1, 0, maps[i].getResults(), op.getContext());
    Value init =
        expandUnitDim(rewriter, loc, op.getDpsInits()[0], c->resultPos);
    SmallVector<utils::IteratorType> iterators = op.getIteratorTypesArray();
    iterators.push_back(utils::IteratorType::parallel);
    auto rows =
        linalg::GenericOp::create(rewriter, loc, TypeRange{init.getType()},
                                  inputs, ValueRange{init}, maps, iterators);
    rewriter.inlineRegionBefore(op.getRegion(), rows.getRegion(),
                                rows.getRegion().begin());
    auto type = cast<RankedTensorType>(op.getResult(0).getType());
    rewriter.replaceOpWithNewOp<tensor::CollapseShapeOp>(
        op, type, rows.getResult(0),
        unitDimGroups(type.getRank() + 1, c->resultPos));
    return success();
  }

  const DenseSet<Operation *> &chainOps;
};

/// Whether a generic in `ops` computes an exponential (a softmax's).
bool computesExponential(const DenseSet<Operation *> &ops) {
  return llvm::any_of(ops, [](Operation *op) {
    auto g = dyn_cast<linalg::GenericOp>(op);
    return g && !g.getBody()->getOps<math::ExpOp>().empty();
  });
}

/// The ops that use `from`'s results, transitively, within its block.
DenseSet<Operation *> usersOf(Operation *from) {
  DenseSet<Operation *> seen;
  SmallVector<Operation *> work{from};
  while (!work.empty()) {
    Operation *op = work.pop_back_val();
    for (Operation *user : op->getUsers())
      if (user->getBlock() == from->getBlock() && seen.insert(user).second)
        work.push_back(user);
  }
  return seen;
}

/// The ops that `value` is computed from, transitively, within its block.
DenseSet<Operation *> producersOf(Value value, Block *block) {
  DenseSet<Operation *> seen;
  SmallVector<Value> work{value};
  while (!work.empty()) {
    Operation *def = work.pop_back_val().getDefiningOp();
    if (!def || def->getBlock() != block || !seen.insert(def).second)
      continue;
    llvm::append_range(work, def->getOperands());
  }
  return seen;
}

} // namespace

DenseSet<Operation *> mlir::attn::collectUnitQueryChains(Operation *root) {
  SmallVector<std::pair<linalg::GenericOp, VectorContraction>> products;
  root->walk([&](linalg::GenericOp g) {
    if (FailureOr<VectorContraction> c = matchVectorContraction(g);
        succeeded(c))
      products.push_back({g, *c});
  });
  DenseSet<Operation *> chainOps;
  // The users of each product, computed once (a model has a Q·Kᵀ per layer,
  // each one's users reaching to the function's end).
  DenseMap<Operation *, DenseSet<Operation *>> users;
  for (auto &[pv, c] : products) {
    Value probs = pv.getDpsInputs()[c.vector];
    DenseSet<Operation *> above = producersOf(probs, pv->getBlock());
    for (auto &[qk, unused] : products) {
      if (qk == pv || !above.contains(qk))
        continue;
      auto [it, inserted] = users.try_emplace(qk);
      if (inserted)
        it->second = usersOf(qk);
      DenseSet<Operation *> between;
      for (Operation *op : it->second)
        if (above.contains(op))
          between.insert(op);
      if (!computesExponential(between))
        continue;
      chainOps.insert(between.begin(), between.end());
      chainOps.insert(qk);
      chainOps.insert(pv);
      // P·V accumulated in f32 and rounded to bf16 by its only user: the
      // rounding takes the unit dim too, so that it stays P·V's only user
      // (the op's own result rounding, for attn-fuse).
      if (pv->hasOneUse())
        if (auto round = dyn_cast<linalg::GenericOp>(*pv->user_begin());
            round && attn::soleStatement<arith::TruncFOp>(round))
          chainOps.insert(round);
    }
  }
  return chainOps;
}

void mlir::attn::populateRestoreUnitQueryDimsPatterns(
    RewritePatternSet &patterns, const DenseSet<Operation *> &chainOps) {
  patterns.add<VectorContractionWithUnitRow>(patterns.getContext(), chainOps);
  // The unit dim crosses the softmax's generics where it joins one of
  // their parallel loops; only reshapes that add or drop unit dims, and only
  // into the chain's ops.
  linalg::populateFoldReshapeOpsByExpansionPatterns(
      patterns, [&chainOps](OpOperand *operand) {
        Operation *owner = operand->getOwner();
        Operation *reshape = operand->get().getDefiningOp();
        Operation *generic = owner;
        if (isa<tensor::ExpandShapeOp>(owner)) {
          reshape = owner;
          generic = operand->get().getDefiningOp();
        }
        // (The products themselves get the unit dim from the pattern
        // above, as a query loop; expanded here, it would be a batch loop.)
        auto g = dyn_cast_or_null<linalg::GenericOp>(generic);
        return g && chainOps.contains(g) && reshape &&
               attn::reshapesOnlyUnitDims(reshape) &&
               failed(matchVectorContraction(g));
      });
}
