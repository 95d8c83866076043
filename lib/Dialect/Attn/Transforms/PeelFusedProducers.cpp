//===- PeelFusedProducers.cpp - undo elementwise fusion into reductions ---===//
//
// Patterns of attn-normalize-chains that take apart what a front end's own
// elementwise fusion (upstream --linalg-fuse-elementwise-ops, IREE's) put
// into a softmax's reductions and into P·V: the scale and bias copied into
// the row max, the normalization (or P's narrowing) computed inside the
// P·V contraction, and the unit loops a keepdim reduction keeps after the
// fusion expanded its input. Each is a semantics-preserving rewrite of any
// linalg IR; CSE afterwards merges a peeled producer with the copy fused
// into the exponential.
//
//===----------------------------------------------------------------------===//

#include "LinalgLoops.h"
#include "attnopt/Dialect/Attn/Transforms/Transforms.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Linalg/Transforms/Transforms.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/IR/IRMapping.h"
#include "mlir/IR/PatternMatch.h"
#include "llvm/ADT/SetVector.h"
#include "llvm/ADT/SmallBitVector.h"

namespace mlir::attn {
namespace {

/// A reduction whose body first computes a value from its inputs and then
/// combines it with the accumulator (`max(s * c + bias, acc)`: elementwise
/// fusion puts a softmax's scale and bias into its row max, and again into
/// the exponential) becomes an all-parallel generic computing that value
/// over the whole iteration space, reduced by a generic whose body is the
/// combiner alone. The producer is then split per statement like any other
/// and CSE'd with the copy fused into the exponential, so that the matcher
/// sees the softmax's steps once.
/// A reduction on tensors with one result and no linalg.index in its body:
/// the ones whose body the patterns below take apart.
bool isPlainReduction(linalg::GenericOp op) {
  return op.hasPureTensorSemantics() && op.getNumReductionLoops() != 0 &&
         op.getNumDpsInits() == 1 && op.getNumResults() == 1 &&
         op.getBody()->getOps<linalg::IndexOp>().empty();
}

struct PeelReductionProducer final : OpRewritePattern<linalg::GenericOp> {
  using OpRewritePattern::OpRewritePattern;

  LogicalResult matchAndRewrite(linalg::GenericOp op,
                                PatternRewriter &rewriter) const override {
    if (!isPlainReduction(op))
      return failure();
    Block *body = op.getBody();
    BlockArgument acc = body->getArguments().back();
    auto yield = cast<linalg::YieldOp>(body->getTerminator());
    Operation *combiner = yield.getValues()[0].getDefiningOp();
    if (!combiner || combiner->getBlock() != body ||
        combiner->getNumOperands() != 2 || combiner->getNumResults() != 1 ||
        !isa<arith::MaximumFOp, arith::MaxNumFOp, arith::MinimumFOp,
             arith::MinNumFOp, arith::AddFOp, arith::MulFOp>(combiner))
      return failure();
    unsigned accIdx = combiner->getOperand(0) == acc ? 0 : 1;
    Value value = combiner->getOperand(1 - accIdx);
    Operation *producer = value.getDefiningOp();
    // Only a value computed in the body (an input read directly is already
    // a plain reduction), from the inputs alone.
    if (combiner->getOperand(accIdx) != acc || !producer ||
        producer->getBlock() != body || !acc.hasOneUse())
      return failure();
    // Only where an input already spans the whole iteration space (the
    // scores of a row max): a contraction (whose inputs each lack a loop)
    // stays one op, and the peeled value is no larger than that input.
    auto spans = [&](OpOperand *in) {
      return op.getMatchingIndexingMap(in).isPermutation();
    };
    if (llvm::none_of(op.getDpsInputOperands(), spans))
      return failure();
    // Nor a matrix-vector product (`acc + a * b` where the vector lacks
    // loops the matrix spans: a decode step's Q·Kᵀ or P·V, which
    // RestoreUnitQueryDims.cpp turns into a contraction).
    if (!llvm::all_of(op.getDpsInputOperands(), spans) && sumsProducts(op))
      return failure();
    Location loc = op.getLoc();
    SmallVector<Range, 4> ranges = cast<linalg::LinalgOp>(op.getOperation())
                                       .createLoopRanges(rewriter, loc);
    SmallVector<OpFoldResult> sizes;
    for (const Range &r : ranges)
      sizes.push_back(r.size);
    Value empty =
        tensor::EmptyOp::create(rewriter, loc, sizes, value.getType());
    const int64_t loops = op.getNumLoops();
    AffineMap all = rewriter.getMultiDimIdentityMap(loops);
    SmallVector<AffineMap> producerMaps;
    for (OpOperand *in : op.getDpsInputOperands())
      producerMaps.push_back(op.getMatchingIndexingMap(in));
    producerMaps.push_back(all);
    SmallVector<utils::IteratorType> parallel(loops,
                                              utils::IteratorType::parallel);
    auto values = linalg::GenericOp::create(
        rewriter, loc, TypeRange{empty.getType()}, op.getDpsInputs(),
        ValueRange{empty}, producerMaps, parallel,
        [&](OpBuilder &b, Location l, ValueRange args) {
          IRMapping map;
          for (auto [from, to] : llvm::zip(body->getArguments(), args))
            map.map(from, to);
          for (Operation &o : body->without_terminator())
            if (&o != combiner)
              b.clone(o, map);
          linalg::YieldOp::create(b, l, map.lookup(value));
        });
    OpOperand *init = op.getDpsInitOperand(0);
    auto reduced = linalg::GenericOp::create(
        rewriter, loc, op->getResultTypes(), values.getResult(0), init->get(),
        {all, op.getMatchingIndexingMap(init)}, op.getIteratorTypesArray(),
        [&](OpBuilder &b, Location l, ValueRange args) {
          IRMapping map;
          map.map(value, args[0]);
          map.map(acc, args[1]);
          linalg::YieldOp::create(b, l, b.clone(*combiner, map)->getResult(0));
        });
    rewriter.replaceOp(op, reduced.getResults());
    return success();
  }
};

/// A contraction `acc + f(...) * b` whose factor f is computed in its body
/// from several inputs or by more than a widening (elementwise fusion's
/// `(e / l) * v`, or `truncf(p) * v`): f is peeled into an all-parallel
/// generic over the loops of the input that spans its operands (P's
/// [.., Lq, Lk]), which the contraction then reads as one operand. The
/// peeled generic is split per statement like any other, so that the
/// normalization (or the narrowing of P) is a step of its own.
struct PeelContractionOperand final : OpRewritePattern<linalg::GenericOp> {
  using OpRewritePattern::OpRewritePattern;

  LogicalResult matchAndRewrite(linalg::GenericOp op,
                                PatternRewriter &rewriter) const override {
    if (!isPlainReduction(op))
      return failure();
    Block *body = op.getBody();
    BlockArgument acc = body->getArguments().back();
    auto yield = cast<linalg::YieldOp>(body->getTerminator());
    auto add = yield.getValues()[0].getDefiningOp<arith::AddFOp>();
    if (!add || add->getBlock() != body)
      return failure();
    Value prodValue = add.getLhs() == acc ? add.getRhs() : add.getLhs();
    auto mul = prodValue.getDefiningOp<arith::MulFOp>();
    if ((add.getLhs() != acc && add.getRhs() != acc) || !mul ||
        mul->getBlock() != body || !acc.hasOneUse())
      return failure();
    for (Value factor : {mul.getLhs(), mul.getRhs()}) {
      // The factor without the widenings it is read through (extf of P
      // narrowed to bf16): those stay in the contraction, so that P is
      // peeled in its narrow type.
      Value f = factor;
      while (auto ext = f.getDefiningOp<arith::ExtFOp>()) {
        if (ext->getBlock() != body || isa<BlockArgument>(ext.getIn()))
          break;
        f = ext.getIn();
      }
      Operation *consumer = f.hasOneUse() ? *f.user_begin() : nullptr;
      // The body ops f is computed from, and the inputs they read.
      SetVector<Operation *> slice;
      SetVector<BlockArgument> inputs;
      bool onlyWidening = true, closed = true;
      SmallVector<Value> work = {f};
      while (!work.empty()) {
        Value v = work.pop_back_val();
        if (auto arg = dyn_cast<BlockArgument>(v)) {
          if (arg.getOwner() != body || arg == acc)
            closed = false;
          else
            inputs.insert(arg);
          continue;
        }
        Operation *def = v.getDefiningOp();
        if (def->getBlock() != body)
          continue; // a value from above (a constant)
        if (!slice.insert(def))
          continue;
        if (!isa<arith::ExtFOp>(def))
          onlyWidening = false;
        llvm::append_range(work, def->getOperands());
      }
      // Only f leaves the slice (to its consumer); a slice op with a region
      // could read body values the walk does not see.
      Operation *fDef = f.getDefiningOp();
      if (slice.empty() || onlyWidening || !closed || !consumer ||
          llvm::any_of(slice, [&](Operation *o) {
            return o->getNumRegions() != 0 ||
                   llvm::any_of(o->getUsers(), [&](Operation *u) {
                     return !slice.contains(u) && !(o == fDef && u == consumer);
                   });
          }))
        continue;
      // The input whose map spans the others' loops: the peeled generic's
      // loops, in its order.
      std::optional<AffineMap> anchor;
      for (BlockArgument arg : inputs) {
        AffineMap m = op.getMatchingIndexingMap(
            op.getDpsInputOperand(arg.getArgNumber()));
        if (!m.isProjectedPermutation(/*allowZeroInResults=*/false))
          continue;
        bool spans = llvm::all_of(inputs, [&](BlockArgument other) {
          AffineMap o = op.getMatchingIndexingMap(
              op.getDpsInputOperand(other.getArgNumber()));
          return llvm::all_of(o.getResults(), [&](AffineExpr e) {
            auto d = dyn_cast<AffineDimExpr>(e);
            return d && m.getResultPosition(e).has_value();
          });
        });
        if (spans && (!anchor || m.getNumResults() > anchor->getNumResults()))
          anchor = m;
      }
      if (!anchor)
        continue;
      if (succeeded(peel(op, rewriter, f, slice, inputs, *anchor)))
        return success();
    }
    return failure();
  }

private:
  LogicalResult peel(linalg::GenericOp op, PatternRewriter &rewriter, Value f,
                     const SetVector<Operation *> &slice,
                     const SetVector<BlockArgument> &inputs,
                     AffineMap anchor) const {
    Location loc = op.getLoc();
    const int64_t n = anchor.getNumResults();
    // Old loop -> new loop (the anchor's k-th result is new loop k).
    SmallVector<AffineExpr> replacement(op.getNumLoops(),
                                        rewriter.getAffineConstantExpr(0));
    for (auto [k, e] : llvm::enumerate(anchor.getResults()))
      replacement[cast<AffineDimExpr>(e).getPosition()] =
          rewriter.getAffineDimExpr(k);
    SmallVector<int64_t> loopSizes = op.getStaticLoopRanges();
    SmallVector<int64_t> shape;
    for (AffineExpr e : anchor.getResults())
      shape.push_back(loopSizes[cast<AffineDimExpr>(e).getPosition()]);
    if (llvm::any_of(shape, ShapedType::isDynamic))
      return failure();
    SmallVector<Value> peeledInputs;
    SmallVector<AffineMap> maps;
    for (BlockArgument arg : inputs) {
      OpOperand *in = op.getDpsInputOperand(arg.getArgNumber());
      peeledInputs.push_back(in->get());
      maps.push_back(op.getMatchingIndexingMap(in).replaceDimsAndSymbols(
          replacement, {}, n, 0));
    }
    maps.push_back(rewriter.getMultiDimIdentityMap(n));
    Value empty = tensor::EmptyOp::create(rewriter, loc, shape, f.getType());
    auto peeled = linalg::GenericOp::create(
        rewriter, loc, TypeRange{empty.getType()}, peeledInputs,
        ValueRange{empty}, maps,
        SmallVector<utils::IteratorType>(n, utils::IteratorType::parallel),
        [&](OpBuilder &b, Location l, ValueRange args) {
          IRMapping map;
          for (auto [arg, to] : llvm::zip(inputs, args))
            map.map(arg, to);
          for (Operation &o : op.getBody()->without_terminator())
            if (slice.contains(&o))
              b.clone(o, map);
          linalg::YieldOp::create(b, l, map.lookup(f));
        });
    // The contraction reads the peeled factor through the anchor's map.
    SmallVector<Value> newInputs = op.getDpsInputs();
    newInputs.push_back(peeled.getResult(0));
    SmallVector<AffineMap> newMaps;
    for (OpOperand *in : op.getDpsInputOperands())
      newMaps.push_back(op.getMatchingIndexingMap(in));
    newMaps.push_back(anchor);
    OpOperand *init = op.getDpsInitOperand(0);
    newMaps.push_back(op.getMatchingIndexingMap(init));
    Block *body = op.getBody();
    auto contraction = linalg::GenericOp::create(
        rewriter, loc, op->getResultTypes(), newInputs, init->get(), newMaps,
        op.getIteratorTypesArray(),
        [&](OpBuilder &b, Location l, ValueRange args) {
          IRMapping map;
          int64_t numInputs = op.getNumDpsInputs();
          for (int64_t i = 0; i < numInputs; ++i)
            map.map(body->getArgument(i), args[i]);
          map.map(f, args[numInputs]);
          map.map(body->getArguments().back(), args.back());
          for (Operation &o : body->without_terminator())
            if (!slice.contains(&o))
              b.clone(o, map);
          linalg::YieldOp::create(
              b, l, map.lookup(body->getTerminator()->getOperand(0)));
        });
    rewriter.replaceOp(op, contraction.getResults());
    return success();
  }
};

} // namespace

/// The unit loops of a reduction generic that only its result has (a
/// keepdim row max or sum after elementwise fusion expanded its input to
/// `[B, H, L, 1, Lk]`): upstream's unit-dim folding drops those, and only
/// those (a size-1 query length that the scores have stays).
static SmallVector<unsigned> unreadUnitLoopsOfReduction(Operation *op) {
  auto g = dyn_cast<linalg::GenericOp>(op);
  if (!g || !g.hasPureTensorSemantics() || g.getNumReductionLoops() == 0)
    return {};
  llvm::SmallBitVector read = loopsReadByInputs(g);
  SmallVector<int64_t> ranges = g.getStaticLoopRanges();
  SmallVector<utils::IteratorType> iterators = g.getIteratorTypesArray();
  SmallVector<unsigned> dims;
  for (unsigned l = 0; l < g.getNumLoops(); ++l)
    if (ranges[l] == 1 && !read.test(l) &&
        iterators[l] == utils::IteratorType::parallel)
      dims.push_back(l);
  return dims;
}

void populatePeelFusedProducersPatterns(RewritePatternSet &patterns) {
  patterns.add<PeelReductionProducer, PeelContractionOperand>(
      patterns.getContext());
}

void populateDropReductionUnitLoopsPatterns(RewritePatternSet &patterns) {
  linalg::ControlDropUnitDims reductions;
  reductions.controlFn = unreadUnitLoopsOfReduction;
  linalg::populateFoldUnitExtentDimsPatterns(patterns, reductions);
}

} // namespace mlir::attn
