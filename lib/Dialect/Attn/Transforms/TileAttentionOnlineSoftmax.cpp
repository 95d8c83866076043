//===- TileAttentionOnlineSoftmax.cpp - attn-tile pass --------------------===//
//
// FlashAttention as a rewrite: attn.attention becomes a parallel loop over
// query blocks with a sequential loop over key/value blocks that carries the
// online-softmax state (m, l, acc). All tiles are statically shaped (Br x D,
// Bc x D, Br x Bc, Br x Dv); remainders are padded, and padded key columns are
// masked, so the same IR maps onto fixed-size tensor-core fragments later.
//
//===----------------------------------------------------------------------===//

#include "AttentionTileBuilder.h"
#include "attnopt/Dialect/Attn/Analysis/TileSelection.h"
#include "attnopt/Dialect/Attn/Transforms/Passes.h"
#include "attnopt/Dialect/Attn/Transforms/Transforms.h"
#include "attnopt/Dialect/Attn/Utils/Philox.h"
#include "attnopt/Dialect/Attn/Utils/ScoreModifiers.h"
#include "attnopt/Dialect/Attn/Utils/SizeLimits.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"

#include <limits>

namespace mlir::attn {
#define GEN_PASS_DEF_ATTNTILEPASS
#include "attnopt/Dialect/Attn/Transforms/Passes.h.inc"
} // namespace mlir::attn

using namespace mlir;
using namespace mlir::attn;

namespace {

/// Emits the tiled form of one attention op.
class OnlineSoftmaxBuilder : public AttentionTileBuilder {
public:
  OnlineSoftmaxBuilder(RewriterBase &b, AttentionOp op,
                       const OnlineSoftmaxTiling &tiling)
      : AttentionTileBuilder(b, op, tiling.blockQ, tiling.blockKV), op(op) {}

  FailureOr<SmallVector<Value>> build();

private:
  Value blockNeedsMask(Value q0, Value rows, Value k0);
  SmallVector<Value> kvStep(Value bIdx, Value hIdx, Value kvHead, Value q0,
                            Value rows, Value qTile, Value kb, Value acc,
                            Value rowMax, Value rowSum);
  Value finalOutput(Value acc, Value rowSum);
  Value finalLse(Value rowMax, Value rowSum);

  AttentionOp op;
};

Value OnlineSoftmaxBuilder::blockNeedsMask(Value q0, Value rows, Value k0) {
  Value blockEnd = add(k0, idx(bc));
  Value needs = arith::CmpIOp::create(b, loc, arith::CmpIPredicate::sgt,
                                      blockEnd, keyLen);
  if (!mods.hasPositionalMask())
    return needs;
  Value delta =
      mods.causal == CausalMode::bottom_right ? sub(keyLen, queryLen) : idx(0);
  auto orWith = [&](Value cond) {
    needs = arith::OrIOp::create(b, loc, needs, cond);
  };
  // Upper edge: the first row's diagonal (+ right) must cover the block end.
  std::optional<int64_t> right;
  if (mods.causal != CausalMode::none)
    right = 0;
  if (mods.window && mods.window->second >= 0)
    right = right ? std::min(*right, mods.window->second) : mods.window->second;
  if (right) {
    Value firstUpper = add(add(q0, delta), idx(*right));
    orWith(arith::CmpIOp::create(b, loc, arith::CmpIPredicate::sgt,
                                 sub(blockEnd, idx(1)), firstUpper));
  }
  // Lower edge: the last row's window start must not pass the block start.
  if (mods.window && mods.window->first >= 0) {
    Value lastLower =
        sub(add(add(q0, sub(rows, idx(1))), delta), idx(mods.window->first));
    orWith(arith::CmpIOp::create(b, loc, arith::CmpIPredicate::slt, k0,
                                 lastLower));
  }
  return needs;
}

/// One step of the inner loop: returns the new (acc, m, l).
SmallVector<Value> OnlineSoftmaxBuilder::kvStep(Value bIdx, Value hIdx,
                                                Value kvHead, Value q0,
                                                Value rows, Value qTile,
                                                Value kb, Value acc,
                                                Value rowMax, Value rowSum) {
  MLIRContext *ctx = b.getContext();
  Value k0 = mul(kb, idx(bc));
  // Static lengths that the block divides need neither min nor padding.
  Value cols =
      divides(op.getKey(), 2, bc) ? idx(bc) : minI(idx(bc), sub(keyLen, k0));
  OpFoldResult one = b.getIndexAttr(1), zero = b.getIndexAttr(0);
  Value kTile =
      paddedSlice(op.getKey(), {bIdx, kvHead, k0, zero},
                  {one, one, cols, b.getIndexAttr(headDim)}, bc, headDim);
  Value vTile =
      paddedSlice(op.getValue(), {bIdx, kvHead, k0, zero},
                  {one, one, cols, b.getIndexAttr(valueDim)}, bc, valueDim);
  Value mTile = maskTile(bIdx, hIdx, q0, rows, k0, cols);
  Value raw = scoreTile(qTile, kTile);

  // Only blocks on a mask boundary pay for the elementwise mask.
  bool staticFullBlocks =
      !mods.hasPositionalMask() && divides(op.getKey(), 2, bc);
  Value s;
  if (staticFullBlocks) {
    s = modifiedScores(raw, mTile, q0, k0, mods, /*boundColumns=*/false);
  } else {
    Value needsMask = blockNeedsMask(q0, rows, k0);
    auto ifOp = scf::IfOp::create(
        b, loc, needsMask,
        [&](OpBuilder &nb, Location l) {
          OpBuilder::InsertionGuard g(b);
          b.setInsertionPoint(nb.getInsertionBlock(), nb.getInsertionPoint());
          Value masked = modifiedScores(raw, mTile, q0, k0, mods, true);
          scf::YieldOp::create(b, l, masked);
        },
        [&](OpBuilder &nb, Location l) {
          OpBuilder::InsertionGuard g(b);
          b.setInsertionPoint(nb.getInsertionBlock(), nb.getInsertionPoint());
          Value plain = modifiedScores(raw, mTile, q0, k0, positional, false);
          scf::YieldOp::create(b, l, plain);
        });
    s = ifOp.getResult(0);
  }

  AffineExpr i, j, e;
  bindDims(ctx, i, j, e);
  AffineMap ij = map(2, {i, j}), iOnly = map(2, {i});
  // m' = max(m, rowmax(S)).
  Value newMax = generic(
      {s}, rowMax, {ij, iOnly}, {par, red},
      [&](OpBuilder &nb, Location l, ValueRange a) {
        linalg::YieldOp::create(
            nb, l, arith::MaximumFOp::create(nb, l, a[0], a[1]).getResult());
      });
  // A row that has seen no allowed key keeps m' = -inf; subtracting 0
  // instead keeps exp(-inf - m') = 0 rather than NaN.
  auto safe = [&](OpBuilder &nb, Location l, Value m) -> Value {
    Value isEmpty = arith::CmpFOp::create(nb, l, arith::CmpFPredicate::OEQ, m,
                                          f32(nb, l, kNegInf));
    return arith::SelectOp::create(nb, l, isEmpty, f32(nb, l, 0.0f), m);
  };
  Value p = generic({s, newMax},
                    tensor::EmptyOp::create(b, loc, ArrayRef<int64_t>{br, bc},
                                            b.getF32Type()),
                    {ij, iOnly, ij}, {par, par},
                    [&](OpBuilder &nb, Location l, ValueRange a) {
                      Value diff =
                          arith::SubFOp::create(nb, l, a[0], safe(nb, l, a[1]));
                      linalg::YieldOp::create(
                          nb, l, math::ExpOp::create(nb, l, diff).getResult());
                    });
  AffineMap i1 = map(1, {getAffineDimExpr(0, ctx)});
  Value alpha = generic(
      {rowMax, newMax},
      tensor::EmptyOp::create(b, loc, ArrayRef<int64_t>{br}, b.getF32Type()),
      {i1, i1, i1}, {par}, [&](OpBuilder &nb, Location l, ValueRange a) {
        Value diff = arith::SubFOp::create(nb, l, a[0], safe(nb, l, a[1]));
        linalg::YieldOp::create(nb, l,
                                math::ExpOp::create(nb, l, diff).getResult());
      });
  // l' = alpha * l + rowsum(P): the sum uses P before dropout.
  Value scaledSum = generic(
      {alpha}, rowSum, {i1, i1}, {par},
      [&](OpBuilder &nb, Location l, ValueRange a) {
        linalg::YieldOp::create(
            nb, l, arith::MulFOp::create(nb, l, a[0], a[1]).getResult());
      });
  Value newSum = generic(
      {p}, scaledSum, {ij, iOnly}, {par, red},
      [&](OpBuilder &nb, Location l, ValueRange a) {
        linalg::YieldOp::create(
            nb, l, arith::AddFOp::create(nb, l, a[0], a[1]).getResult());
      });
  float dropP = op.getDropoutP().convertToFloat();
  if (dropP > 0.0f) {
    // The keep bits: the [Br|1, Bc|1] block of the explicit dropout mask, or
    // the Philox bits at the global position.
    SmallVector<Value> inputs = {p};
    SmallVector<AffineMap> maps = {ij};
    Value keepTile =
        broadcastTile(op.getDropoutMask(), bIdx, hIdx, q0, rows, k0, cols);
    if (keepTile) {
      auto t = cast<RankedTensorType>(keepTile.getType());
      AffineExpr zero = getAffineConstantExpr(0, ctx);
      inputs.push_back(keepTile);
      maps.push_back(map(2, {t.getDimSize(0) == 1 ? zero : i,
                             t.getDimSize(1) == 1 ? zero : j}));
    }
    maps.push_back(ij);
    p = generic(
        inputs,
        tensor::EmptyOp::create(b, loc, ArrayRef<int64_t>{br, bc},
                                b.getF32Type()),
        maps, {par, par}, [&](OpBuilder &nb, Location l, ValueRange a) {
          Value keep;
          if (keepTile) {
            keep = a[1];
          } else {
            DropoutPosition pos{
                bIdx,
                hIdx,
                arith::AddIOp::create(nb, l, q0,
                                      linalg::IndexOp::create(nb, l, 0)),
                arith::AddIOp::create(nb, l, k0,
                                      linalg::IndexOp::create(nb, l, 1)),
                numHeads,
                queryLen};
            keep = emitDropoutKeep(nb, l, op.getSeed(), op.getOffset(), pos,
                                   dropP);
          }
          Value scaled = arith::MulFOp::create(
              nb, l, a[0], f32(nb, l, 1.0f / (1.0f - dropP)));
          linalg::YieldOp::create(
              nb, l,
              arith::SelectOp::create(nb, l, keep, scaled, f32(nb, l, 0.0f))
                  .getResult());
        });
  }
  // acc' = alpha * acc + P · V.
  AffineMap ie = map(2, {i, j});
  Value scaledAcc = generic(
      {alpha}, acc, {iOnly, ie}, {par, par},
      [&](OpBuilder &nb, Location l, ValueRange a) {
        linalg::YieldOp::create(
            nb, l, arith::MulFOp::create(nb, l, a[0], a[1]).getResult());
      });
  // (i, e, j): acc[i, e] += P[i, j] * V[j, e].
  Value newAcc = generic(
      {p, vTile}, scaledAcc, {map(3, {i, e}), map(3, {e, j}), map(3, {i, j})},
      {par, par, red}, [&](OpBuilder &nb, Location l, ValueRange a) {
        Value prod = arith::MulFOp::create(nb, l, a[0], toF32(nb, l, a[1]));
        linalg::YieldOp::create(
            nb, l, arith::AddFOp::create(nb, l, a[2], prod).getResult());
      });
  return {newAcc, newMax, newSum};
}

/// O = acc / l in the output element type (0 for rows with no allowed key).
Value OnlineSoftmaxBuilder::finalOutput(Value acc, Value rowSum) {
  AffineExpr i, e;
  bindDims(b.getContext(), i, e);
  Type elt = op.getOutputType().getElementType();
  Value init =
      tensor::EmptyOp::create(b, loc, ArrayRef<int64_t>{br, valueDim}, elt);
  return generic(
      {acc, rowSum}, init, {map(2, {i, e}), map(2, {i}), map(2, {i, e})},
      {par, par}, [&](OpBuilder &nb, Location l, ValueRange a) {
        Value zero = f32(nb, l, 0.0f);
        Value isEmpty =
            arith::CmpFOp::create(nb, l, arith::CmpFPredicate::OEQ, a[1], zero);
        Value o = arith::SelectOp::create(
            nb, l, isEmpty, zero, arith::DivFOp::create(nb, l, a[0], a[1]));
        if (!elt.isF32())
          o = arith::TruncFOp::create(nb, l, elt, o);
        linalg::YieldOp::create(nb, l, o);
      });
}

/// lse = m + log(l), -inf for rows with no allowed key.
Value OnlineSoftmaxBuilder::finalLse(Value rowMax, Value rowSum) {
  AffineMap i1 = b.getMultiDimIdentityMap(1);
  Value init =
      tensor::EmptyOp::create(b, loc, ArrayRef<int64_t>{br}, b.getF32Type());
  return generic(
      {rowMax, rowSum}, init, {i1, i1, i1}, {par},
      [&](OpBuilder &nb, Location l, ValueRange a) {
        Value negInf = f32(nb, l, kNegInf);
        Value isEmpty = arith::CmpFOp::create(nb, l, arith::CmpFPredicate::OEQ,
                                              a[0], negInf);
        Value lse = arith::AddFOp::create(nb, l, a[0],
                                          math::LogOp::create(nb, l, a[1]));
        linalg::YieldOp::create(
            nb, l,
            arith::SelectOp::create(nb, l, isEmpty, negInf, lse).getResult());
      });
}

FailureOr<SmallVector<Value>> OnlineSoftmaxBuilder::build() {
  RankedTensorType qType = op.getQueryType(), kType = op.getKeyType(),
                   vType = op.getValueType();
  if (qType.isDynamicDim(1) || kType.isDynamicDim(1) || qType.isDynamicDim(3) ||
      vType.isDynamicDim(3))
    return op.emitOpError("attn-tile needs static head counts and head dims");
  if (br < 1 || bc < 1)
    return op.emitOpError("attn-tile: tile sizes must be >= 1, got block-q=")
           << br << " block-kv=" << bc;
  group = op.getGroupSize();
  headDim = qType.getDimSize(3);
  valueDim = vType.getDimSize(3);
  Value batch = dimOf(op.getQuery(), 0);
  numHeads = idx(qType.getDimSize(1));
  queryLen = dimOf(op.getQuery(), 2);
  keyLen = dimOf(op.getKey(), 2);
  Value queryBlocks = arith::CeilDivSIOp::create(b, loc, queryLen, idx(br));

  Type outElt = op.getOutputType().getElementType();
  SmallVector<OpFoldResult> outSizes = {batch, numHeads, queryLen,
                                        b.getIndexAttr(valueDim)};
  SmallVector<Value> inits = {tensor::EmptyOp::create(
      b, loc,
      getAsOpFoldResult(ValueRange{batch, numHeads, queryLen, idx(valueDim)}),
      outElt)};
  if (op.getLse())
    inits.push_back(tensor::EmptyOp::create(
        b, loc, getAsOpFoldResult(ValueRange{batch, numHeads, queryLen}),
        b.getF32Type()));

  auto forall = scf::ForallOp::create(
      b, loc, getAsOpFoldResult(ValueRange{batch, numHeads, queryBlocks}),
      inits, /*mapping=*/std::nullopt);
  Block *body = forall.getBody();
  OpBuilder::InsertionGuard guard(b);
  b.setInsertionPointToStart(body);
  Value bIdx = body->getArgument(0), hIdx = body->getArgument(1);
  Value qb = body->getArgument(2);
  Value q0 = mul(qb, idx(br));
  Value rows = divides(op.getQuery(), 2, br) ? idx(br)
                                             : minI(idx(br), sub(queryLen, q0));
  Value kvHead =
      group == 1 ? hIdx : arith::DivUIOp::create(b, loc, hIdx, idx(group));
  OpFoldResult one = b.getIndexAttr(1), zero = b.getIndexAttr(0);
  Value qTile =
      paddedSlice(op.getQuery(), {bIdx, hIdx, q0, zero},
                  {one, one, rows, b.getIndexAttr(headDim)}, br, headDim);

  auto [first, last] =
      emitVisibleKeyBlocks(b, loc, mods, q0, rows, queryLen, keyLen, bc);
  Value acc0 = filled({br, valueDim}, 0.0f);
  Value max0 = filled({br}, kNegInf);
  Value sum0 = filled({br}, 0.0f);
  auto loop = scf::ForOp::create(
      b, loc, first, last, idx(1), ValueRange{acc0, max0, sum0},
      [&](OpBuilder &nb, Location l, Value kb, ValueRange iter) {
        OpBuilder::InsertionGuard g(b);
        b.setInsertionPoint(nb.getInsertionBlock(), nb.getInsertionPoint());
        SmallVector<Value> next = kvStep(bIdx, hIdx, kvHead, q0, rows, qTile,
                                         kb, iter[0], iter[1], iter[2]);
        scf::YieldOp::create(b, l, next);
      });
  Value acc = loop.getResult(0), rowMax = loop.getResult(1),
        rowSum = loop.getResult(2);

  // Write the valid rows of the block.
  Value outTile = finalOutput(acc, rowSum);
  Value outRows = tensor::ExtractSliceOp::create(
      b, loc, outTile, ArrayRef<OpFoldResult>{zero, zero},
      ArrayRef<OpFoldResult>{rows, b.getIndexAttr(valueDim)},
      ArrayRef<OpFoldResult>{one, one});
  Value lseRows;
  if (op.getLse())
    lseRows = tensor::ExtractSliceOp::create(
        b, loc, finalLse(rowMax, rowSum), ArrayRef<OpFoldResult>{zero},
        ArrayRef<OpFoldResult>{rows}, ArrayRef<OpFoldResult>{one});

  b.setInsertionPointToStart(forall.getTerminator().getBody());
  tensor::ParallelInsertSliceOp::create(
      b, loc, outRows, body->getArgument(3),
      ArrayRef<OpFoldResult>{bIdx, hIdx, q0, zero},
      ArrayRef<OpFoldResult>{one, one, rows, b.getIndexAttr(valueDim)},
      ArrayRef<OpFoldResult>{one, one, one, one});
  if (lseRows)
    tensor::ParallelInsertSliceOp::create(
        b, loc, lseRows, body->getArgument(4),
        ArrayRef<OpFoldResult>{bIdx, hIdx, q0},
        ArrayRef<OpFoldResult>{one, one, rows},
        ArrayRef<OpFoldResult>{one, one, one});

  SmallVector<Value> results;
  for (auto [result, type] :
       llvm::zip(forall.getResults(), op->getResultTypes())) {
    Value r = result;
    if (r.getType() != type) {
      b.setInsertionPointAfter(forall);
      r = tensor::CastOp::create(b, loc, type, r);
    }
    results.push_back(r);
  }
  return results;
}

struct AttnTilePass final : mlir::attn::impl::AttnTilePassBase<AttnTilePass> {
  using Base::Base;

  /// The chip is checked once, before any operation (whether or not an op
  /// needs tile selection): a bad value is the command line's error.
  LogicalResult initialize(MLIRContext *context) override {
    std::optional<TargetDescription> found = TargetDescription::get(chip);
    if (!found)
      return emitError(UnknownLoc::get(context), "attn-tile: unknown chip '")
             << chip << "' (expected sm_80, sm_86, sm_89, sm_90 or sm_90a)";
    target = *found;
    // 0 keeps the op's attn.tiles or the selection; a negative size was
    // read as 0 without a word (attn-cpu-pipeline and attn-compile refuse
    // it).
    if (blockQ < 0 || blockKV < 0)
      return emitError(UnknownLoc::get(context),
                       "attn-tile: block-q and block-kv must not be negative "
                       "(0 keeps the op's attn.tiles or the selection), got "
                       "block-q=")
             << static_cast<int64_t>(blockQ)
             << " block-kv=" << static_cast<int64_t>(blockKV);
    return success();
  }

  /// Pass options win, then the op's attn.tiles, then tile selection (for
  /// the forward; the IO model does not cover the gradient, which gets the
  /// default OnlineSoftmaxTiling).
  FailureOr<OnlineSoftmaxTiling> tilingFor(Operation *op) {
    OnlineSoftmaxTiling tiling;
    auto forward = dyn_cast<AttentionOp>(op);
    if (auto tiles = op->getAttrOfType<TileConfigAttr>("attn.tiles")) {
      tiling.blockQ = tiles.getBlockQ();
      tiling.blockKV = tiles.getBlockKv();
    } else if (forward && (blockQ <= 0 || blockKV <= 0)) {
      FailureOr<AttentionShape> shape = AttentionShape::get(forward);
      if (failed(shape))
        return failure();
      TileChoice choice = selectTiles(*shape, target);
      tiling.blockQ = choice.blockQ;
      tiling.blockKV = choice.blockKV;
    }
    if (blockQ > 0)
      tiling.blockQ = blockQ;
    if (blockKV > 0)
      tiling.blockKV = blockKV;
    if (tiling.blockQ <= 0 || tiling.blockKV <= 0)
      return op->emitOpError("attn-tile: block sizes must be positive, got "
                             "block_q = ")
             << tiling.blockQ << ", block_kv = " << tiling.blockKV;
    // A tile never needs to be longer than its sequence: clamping changes
    // nothing in the result, and keeps the tile loops and their index
    // arithmetic in range (a block of 2^63 - 1 overflowed them).
    auto iface = cast<AttentionOpInterface>(op);
    // The tile loops slice along the head dims; an empty one (which the
    // verifier allows: Q Kᵀ is then 0) has no slices.
    if (iface.getQueryType().getDimSize(3) == 0 ||
        iface.getValueType().getDimSize(3) == 0)
      return op->emitOpError("attn-tile: empty head dims (D = ")
             << iface.getQueryType().getDimSize(3)
             << ", Dv = " << iface.getValueType().getDimSize(3)
             << ") are not tiled; attn-decompose lowers them";
    auto clampTo = [](int64_t block, int64_t len) {
      int64_t bound = ShapedType::isDynamic(len) ? kMaxSequenceDim
                                                 : std::max<int64_t>(len, 1);
      return std::min(block, bound);
    };
    tiling.blockQ = clampTo(tiling.blockQ, iface.getQueryType().getDimSize(2));
    tiling.blockKV = clampTo(tiling.blockKV, iface.getKeyType().getDimSize(2));
    return tiling;
  }

  void runOnOperation() override {
    // A packed batch is tiled as its dense masked form: correct, but every
    // query block still visits every key block (the block-diagonal mask is
    // data, not structure, to the tile loops).
    IRRewriter rewriter(&getContext());
    if (failed(expandPackedBatches(rewriter, getOperation())))
      return signalPassFailure();
    SmallVector<Operation *> ops;
    getOperation()->walk([&](Operation *op) {
      if (isa<AttentionOp, AttentionGradOp>(op))
        ops.push_back(op);
    });
    for (Operation *op : ops) {
      if (failed(checkSizeLimits(op, "attn-tile")))
        return signalPassFailure();
      FailureOr<OnlineSoftmaxTiling> tiling = tilingFor(op);
      if (failed(tiling))
        return signalPassFailure();
      rewriter.setInsertionPoint(op);
      FailureOr<SmallVector<Value>> results =
          isa<AttentionOp>(op)
              ? tileAttentionWithOnlineSoftmax(rewriter, cast<AttentionOp>(op),
                                               *tiling)
              : tileAttentionGradWithRecomputation(
                    rewriter, cast<AttentionGradOp>(op), *tiling);
      if (failed(results))
        return signalPassFailure();
      rewriter.replaceOp(op, *results);
    }
  }

private:
  TargetDescription target;
};

} // namespace

FailureOr<SmallVector<Value>> mlir::attn::tileAttentionWithOnlineSoftmax(
    RewriterBase &rewriter, AttentionOp op, const OnlineSoftmaxTiling &tiling) {
  OpBuilder::InsertionGuard guard(rewriter);
  rewriter.setInsertionPoint(op);
  return OnlineSoftmaxBuilder(rewriter, op, tiling).build();
}
