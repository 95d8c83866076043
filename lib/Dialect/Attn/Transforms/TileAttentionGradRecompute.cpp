//===- TileAttentionGradRecompute.cpp - tiled attention gradients ---------===//
//
// FlashAttention's backward as a rewrite of attn.attention_grad: nothing of
// size Lq x Lk is stored; every Br x Bc block of the scores is recomputed
// from Q, K and the saved log-sum-exp:
//
//   D = rowsum(dO * O)                                   [B, Hq, Lq]
//   dK, dV: scf.forall over (batch, kv head, key block of Bc rows), looping
//           over the query heads of the group and the query blocks that can
//           see the key block (causal/window), accumulating in f32:
//             S = mods(Q Kᵀ), P = exp(S - lse), Pd = dropout(P)
//             dV += Pdᵀ dO;  dP = dropout(dO Vᵀ);  dS = P (dP - D) softcap'
//             dK += dSᵀ Q
//   dQ:     scf.forall over (batch, query head, query block), looping over
//           the visible key blocks: the same dS, dQ += dS K.
//
// dQ gets its own pass over the blocks instead of being accumulated from the
// key-block loop: with tensors there is no atomic accumulation to express,
// and the separate pass makes dQ independent of the order of the parallel
// iterations, i.e. bit-identical from run to run (what `deterministic`
// asks). The price is computing S, P and dP twice.
//
//===----------------------------------------------------------------------===//

#include "AttentionTileBuilder.h"
#include "attnopt/Dialect/Attn/Transforms/Transforms.h"
#include "attnopt/Dialect/Attn/Utils/Philox.h"

#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"

using namespace mlir;
using namespace mlir::attn;

namespace {

/// The tiles of one query block that every step of both passes reads.
struct QueryBlock {
  Value bIdx, hIdx, q0, rows;
  Value qTile, dOutTile; ///< [Br, D], [Br, Dv] (element type, zero padded)
  Value lseTile;         ///< [Br] f32, padded with -inf (P = 0 there)
  Value deltaTile;       ///< [Br] f32, padded with 0
};

/// The tiles of one key block.
struct KeyBlock {
  Value k0, cols;
  Value kTile, vTile; ///< [Bc, D], [Bc, Dv] (element type, zero padded)
};

class GradientTileBuilder : public AttentionTileBuilder {
public:
  GradientTileBuilder(RewriterBase &b, AttentionGradOp op,
                      const OnlineSoftmaxTiling &tiling)
      : AttentionTileBuilder(b, op, tiling.blockQ, tiling.blockKV), op(op),
        dropP(op.getDropoutP().convertToFloat()) {}

  FailureOr<SmallVector<Value>> build();

private:
  Value outputDotGradient();
  QueryBlock loadQueryBlock(Value bIdx, Value hIdx, Value qb, Value delta);
  KeyBlock loadKeyBlock(Value bIdx, Value kvHead, Value kb);
  /// The dropout of a [Br, Bc] tile at global positions (identity without
  /// dropout).
  Value dropoutTile(Value tile, const QueryBlock &q, const KeyBlock &k);
  /// P and dS of one (query block, key block) pair.
  std::pair<Value, Value> probabilitiesAndScoreGradient(const QueryBlock &q,
                                                        const KeyBlock &k);
  /// acc[r, x] += sum_c lhs[c, r] * rhs[c, x] (lhsᵀ · rhs), f32.
  Value accumulateTransposedProduct(Value lhs, Value rhs, Value acc);
  /// acc[r, x] += sum_c lhs[r, c] * rhs[c, x] (lhs · rhs), f32.
  Value accumulateProduct(Value lhs, Value rhs, Value acc);
  /// `scale * acc` in `elt`, its first `rows` rows.
  Value finalRows(Value acc, float scale, Type elt, Value rows, int64_t width);

  std::pair<Value, Value> keyValueGradients(Value delta);
  Value queryGradient(Value delta);

  AttentionGradOp op;
  float dropP;
  Value batch, kvHeads;
};

/// D[b,h,i] = sum_e dO[b,h,i,e] * O[b,h,i,e]: O(Lq Dv), computed once.
Value GradientTileBuilder::outputDotGradient() {
  AffineExpr d0, d1, d2, d3;
  bindDims(b.getContext(), d0, d1, d2, d3);
  AffineMap full = map(4, {d0, d1, d2, d3});
  Value init = createFilledF32(b, loc, {batch, numHeads, queryLen}, 0.0f);
  return generic({op.getGradOutput(), op.getOutput()}, init,
                 {full, full, map(4, {d0, d1, d2})}, {par, par, par, red},
                 [&](OpBuilder &nb, Location l, ValueRange a) {
                   Value prod = arith::MulFOp::create(nb, l, toF32(nb, l, a[0]),
                                                      toF32(nb, l, a[1]));
                   linalg::YieldOp::create(
                       nb, l,
                       arith::AddFOp::create(nb, l, a[2], prod).getResult());
                 });
}

QueryBlock GradientTileBuilder::loadQueryBlock(Value bIdx, Value hIdx, Value qb,
                                               Value delta) {
  QueryBlock q;
  q.bIdx = bIdx;
  q.hIdx = hIdx;
  q.q0 = mul(qb, idx(br));
  q.rows = validRows(op.getQuery(), 2, q.q0, queryLen, br);
  q.qTile = rowTile(op.getQuery(), bIdx, hIdx, q.q0, q.rows, br);
  q.dOutTile = rowTile(op.getGradOutput(), bIdx, hIdx, q.q0, q.rows, br);
  q.lseTile =
      paddedRowSlice(op.getLse(), bIdx, hIdx, q.q0, q.rows, br, kNegInf);
  q.deltaTile = paddedRowSlice(delta, bIdx, hIdx, q.q0, q.rows, br, 0.0f);
  return q;
}

KeyBlock GradientTileBuilder::loadKeyBlock(Value bIdx, Value kvHead, Value kb) {
  KeyBlock k;
  k.k0 = mul(kb, idx(bc));
  k.cols = validRows(op.getKey(), 2, k.k0, keyLen, bc);
  k.kTile = rowTile(op.getKey(), bIdx, kvHead, k.k0, k.cols, bc);
  k.vTile = rowTile(op.getValue(), bIdx, kvHead, k.k0, k.cols, bc);
  return k;
}

Value GradientTileBuilder::dropoutTile(Value tile, const QueryBlock &q,
                                       const KeyBlock &k) {
  if (dropP <= 0.0f)
    return tile;
  AffineMap ij = b.getMultiDimIdentityMap(2);
  // The [Br|1, Bc|1] block of an explicit dropout_mask, or Philox bits.
  SmallVector<Value> inputs = {tile};
  SmallVector<AffineMap> maps = {ij};
  Value keepTile = broadcastTile(op.getDropoutMask(), q.bIdx, q.hIdx, q.q0,
                                 q.rows, k.k0, k.cols);
  if (keepTile) {
    auto t = cast<RankedTensorType>(keepTile.getType());
    AffineExpr zero = getAffineConstantExpr(0, b.getContext());
    inputs.push_back(keepTile);
    maps.push_back(
        map(2, {t.getDimSize(0) == 1 ? zero : b.getAffineDimExpr(0),
                t.getDimSize(1) == 1 ? zero : b.getAffineDimExpr(1)}));
  }
  maps.push_back(ij);
  return generic(
      inputs, emptyF32({br, bc}), maps, {par, par},
      [&](OpBuilder &nb, Location l, ValueRange a) {
        Value scaled = arith::MulFOp::create(nb, l, a[0],
                                             f32(nb, l, 1.0f / (1.0f - dropP)));
        if (keepTile) {
          linalg::YieldOp::create(
              nb, l,
              arith::SelectOp::create(nb, l, a[1], scaled, f32(nb, l, 0.0f))
                  .getResult());
          return;
        }
        DropoutPosition pos{q.bIdx,
                            q.hIdx,
                            arith::AddIOp::create(
                                nb, l, q.q0, linalg::IndexOp::create(nb, l, 0)),
                            arith::AddIOp::create(
                                nb, l, k.k0, linalg::IndexOp::create(nb, l, 1)),
                            numHeads,
                            queryLen};
        Value keep =
            emitDropoutKeep(nb, l, op.getSeed(), op.getOffset(), pos, dropP);
        linalg::YieldOp::create(
            nb, l,
            arith::SelectOp::create(nb, l, keep, scaled, f32(nb, l, 0.0f))
                .getResult());
      });
}

std::pair<Value, Value>
GradientTileBuilder::probabilitiesAndScoreGradient(const QueryBlock &q,
                                                   const KeyBlock &k) {
  AffineExpr i, j, e;
  bindDims(b.getContext(), i, j, e);
  AffineMap ij = map(2, {i, j}), iOnly = map(2, {i});
  Value raw = scoreTile(q.qTile, k.kTile);
  Value mTile = maskTile(q.bIdx, q.hIdx, q.q0, q.rows, k.k0, k.cols);
  // Every block applies the full rule set here (the forward's per-block
  // scf.if is an optimization the GPU kernels make instead); padded keys
  // get -inf, padded rows lse = -inf, so both give P = 0.
  Value s = modifiedScores(raw, mTile, q.q0, k.k0, mods, /*boundColumns=*/true);
  Value p = generic({s, q.lseTile}, emptyF32({br, bc}), {ij, iOnly, ij},
                    {par, par}, [&](OpBuilder &nb, Location l, ValueRange a) {
                      linalg::YieldOp::create(
                          nb, l, emitRecomputedProbability(nb, l, a[0], a[1]));
                    });
  // dPd[i, j] = sum_e dO[i, e] * V[j, e].
  Value dPd = generic(
      {q.dOutTile, k.vTile}, filled({br, bc}, 0.0f),
      {map(3, {i, e}), map(3, {j, e}), map(3, {i, j})}, {par, par, red},
      [&](OpBuilder &nb, Location l, ValueRange a) {
        Value prod = arith::MulFOp::create(nb, l, toF32(nb, l, a[0]),
                                           toF32(nb, l, a[1]));
        linalg::YieldOp::create(
            nb, l, arith::AddFOp::create(nb, l, a[2], prod).getResult());
      });
  Value dP = dropoutTile(dPd, q, k);
  Value dS = generic(
      {raw, p, dP, q.deltaTile}, emptyF32({br, bc}), {ij, ij, ij, iOnly, ij},
      {par, par}, [&](OpBuilder &nb, Location l, ValueRange a) {
        Value ds = arith::MulFOp::create(
            nb, l, a[1], arith::SubFOp::create(nb, l, a[2], a[3]));
        if (Value factor = emitSoftcapDerivative(nb, l, mods, a[0]))
          ds = arith::MulFOp::create(nb, l, ds, factor);
        linalg::YieldOp::create(nb, l, ds);
      });
  return {p, dS};
}

Value GradientTileBuilder::accumulateTransposedProduct(Value lhs, Value rhs,
                                                       Value acc) {
  AffineExpr r, x, c;
  bindDims(b.getContext(), r, x, c);
  return generic(
      {lhs, rhs}, acc, {map(3, {c, r}), map(3, {c, x}), map(3, {r, x})},
      {par, par, red}, [&](OpBuilder &nb, Location l, ValueRange a) {
        Value prod = arith::MulFOp::create(nb, l, toF32(nb, l, a[0]),
                                           toF32(nb, l, a[1]));
        linalg::YieldOp::create(
            nb, l, arith::AddFOp::create(nb, l, a[2], prod).getResult());
      });
}

Value GradientTileBuilder::accumulateProduct(Value lhs, Value rhs, Value acc) {
  AffineExpr r, x, c;
  bindDims(b.getContext(), r, x, c);
  return generic(
      {lhs, rhs}, acc, {map(3, {r, c}), map(3, {c, x}), map(3, {r, x})},
      {par, par, red}, [&](OpBuilder &nb, Location l, ValueRange a) {
        Value prod = arith::MulFOp::create(nb, l, toF32(nb, l, a[0]),
                                           toF32(nb, l, a[1]));
        linalg::YieldOp::create(
            nb, l, arith::AddFOp::create(nb, l, a[2], prod).getResult());
      });
}

Value GradientTileBuilder::finalRows(Value acc, float scale, Type elt,
                                     Value rows, int64_t width) {
  auto accType = cast<RankedTensorType>(acc.getType());
  AffineMap id = b.getMultiDimIdentityMap(2);
  Value init = tensor::EmptyOp::create(b, loc, accType.getShape(), elt);
  Value out =
      generic({acc}, init, {id, id}, {par, par},
              [&](OpBuilder &nb, Location l, ValueRange a) {
                Value v = a[0];
                if (scale != 1.0f)
                  v = arith::MulFOp::create(nb, l, v, f32(nb, l, scale));
                if (!elt.isF32())
                  v = arith::TruncFOp::create(nb, l, elt, v);
                linalg::YieldOp::create(nb, l, v);
              });
  OpFoldResult zero = b.getIndexAttr(0), one = b.getIndexAttr(1);
  return tensor::ExtractSliceOp::create(
      b, loc, out, ArrayRef<OpFoldResult>{zero, zero},
      ArrayRef<OpFoldResult>{rows, b.getIndexAttr(width)},
      ArrayRef<OpFoldResult>{one, one});
}

/// Inserts `tile` ([rows, width]) at (b, h, row0, 0) of the forall's
/// shared output `dest`.
static void insertRows(OpBuilder &b, Location loc, scf::ForallOp forall,
                       Value tile, BlockArgument dest, Value bIdx, Value hIdx,
                       Value row0, Value rows, int64_t width) {
  OpBuilder::InsertionGuard guard(b);
  b.setInsertionPointToEnd(forall.getTerminator().getBody());
  OpFoldResult zero = b.getIndexAttr(0), one = b.getIndexAttr(1);
  tensor::ParallelInsertSliceOp::create(
      b, loc, tile, dest, ArrayRef<OpFoldResult>{bIdx, hIdx, row0, zero},
      ArrayRef<OpFoldResult>{one, one, rows, b.getIndexAttr(width)},
      ArrayRef<OpFoldResult>{one, one, one, one});
}

std::pair<Value, Value> GradientTileBuilder::keyValueGradients(Value delta) {
  Type elt = op.getQueryType().getElementType();
  Value keyBlocks = arith::CeilDivSIOp::create(b, loc, keyLen, idx(bc));
  SmallVector<Value> inits = {
      tensor::EmptyOp::create(
          b, loc,
          getAsOpFoldResult(ValueRange{batch, kvHeads, keyLen, idx(headDim)}),
          elt),
      tensor::EmptyOp::create(
          b, loc,
          getAsOpFoldResult(ValueRange{batch, kvHeads, keyLen, idx(valueDim)}),
          elt)};
  auto forall = scf::ForallOp::create(
      b, loc, getAsOpFoldResult(ValueRange{batch, kvHeads, keyBlocks}), inits,
      /*mapping=*/std::nullopt);
  Block *body = forall.getBody();
  OpBuilder::InsertionGuard guard(b);
  b.setInsertionPointToStart(body);
  Value bIdx = body->getArgument(0), kvHead = body->getArgument(1);
  KeyBlock k = loadKeyBlock(bIdx, kvHead, body->getArgument(2));
  auto [firstQ, lastQ] =
      emitVisibleQueryBlocks(b, loc, mods, k.k0, k.cols, queryLen, keyLen, br);

  Value dK0 = filled({bc, headDim}, 0.0f), dV0 = filled({bc, valueDim}, 0.0f);
  auto headLoop = scf::ForOp::create(
      b, loc, idx(0), idx(group), idx(1), ValueRange{dK0, dV0},
      [&](OpBuilder &nb, Location l, Value g, ValueRange headIter) {
        OpBuilder::InsertionGuard g1(b);
        b.setInsertionPoint(nb.getInsertionBlock(), nb.getInsertionPoint());
        Value hIdx = add(mul(kvHead, idx(group)), g);
        auto rowLoop = scf::ForOp::create(
            b, l, firstQ, lastQ, idx(1), headIter,
            [&](OpBuilder &nb2, Location l2, Value qb, ValueRange iter) {
              OpBuilder::InsertionGuard g2(b);
              b.setInsertionPoint(nb2.getInsertionBlock(),
                                  nb2.getInsertionPoint());
              QueryBlock q = loadQueryBlock(bIdx, hIdx, qb, delta);
              auto [p, dS] = probabilitiesAndScoreGradient(q, k);
              Value dV = accumulateTransposedProduct(dropoutTile(p, q, k),
                                                     q.dOutTile, iter[1]);
              Value dK = accumulateTransposedProduct(dS, q.qTile, iter[0]);
              scf::YieldOp::create(b, l2, ValueRange{dK, dV});
            });
        scf::YieldOp::create(b, l, rowLoop.getResults());
      });
  Value dK = finalRows(headLoop.getResult(0), op.getEffectiveScale(), elt,
                       k.cols, headDim);
  Value dV = finalRows(headLoop.getResult(1), 1.0f, elt, k.cols, valueDim);
  insertRows(b, loc, forall, dK, body->getArgument(3), bIdx, kvHead, k.k0,
             k.cols, headDim);
  insertRows(b, loc, forall, dV, body->getArgument(4), bIdx, kvHead, k.k0,
             k.cols, valueDim);
  return {forall.getResult(0), forall.getResult(1)};
}

Value GradientTileBuilder::queryGradient(Value delta) {
  Type elt = op.getQueryType().getElementType();
  Value queryBlocks = arith::CeilDivSIOp::create(b, loc, queryLen, idx(br));
  Value init = tensor::EmptyOp::create(
      b, loc,
      getAsOpFoldResult(ValueRange{batch, numHeads, queryLen, idx(headDim)}),
      elt);
  auto forall = scf::ForallOp::create(
      b, loc, getAsOpFoldResult(ValueRange{batch, numHeads, queryBlocks}),
      ValueRange{init}, /*mapping=*/std::nullopt);
  Block *body = forall.getBody();
  OpBuilder::InsertionGuard guard(b);
  b.setInsertionPointToStart(body);
  Value bIdx = body->getArgument(0), hIdx = body->getArgument(1);
  QueryBlock q = loadQueryBlock(bIdx, hIdx, body->getArgument(2), delta);
  Value kvHead =
      group == 1 ? hIdx : arith::DivUIOp::create(b, loc, hIdx, idx(group));
  auto [first, last] =
      emitVisibleKeyBlocks(b, loc, mods, q.q0, q.rows, queryLen, keyLen, bc);
  auto loop = scf::ForOp::create(
      b, loc, first, last, idx(1), ValueRange{filled({br, headDim}, 0.0f)},
      [&](OpBuilder &nb, Location l, Value kb, ValueRange iter) {
        OpBuilder::InsertionGuard g(b);
        b.setInsertionPoint(nb.getInsertionBlock(), nb.getInsertionPoint());
        KeyBlock k = loadKeyBlock(bIdx, kvHead, kb);
        Value dS = probabilitiesAndScoreGradient(q, k).second;
        scf::YieldOp::create(b, l, accumulateProduct(dS, k.kTile, iter[0]));
      });
  Value dQ = finalRows(loop.getResult(0), op.getEffectiveScale(), elt, q.rows,
                       headDim);
  insertRows(b, loc, forall, dQ, body->getArgument(3), bIdx, hIdx, q.q0, q.rows,
             headDim);
  return forall.getResult(0);
}

FailureOr<SmallVector<Value>> GradientTileBuilder::build() {
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
  batch = dimOf(op.getQuery(), 0);
  numHeads = idx(qType.getDimSize(1));
  kvHeads = idx(kType.getDimSize(1));
  queryLen = dimOf(op.getQuery(), 2);
  keyLen = dimOf(op.getKey(), 2);

  Value delta = outputDotGradient();
  auto [dK, dV] = keyValueGradients(delta);
  Value dQ = queryGradient(delta);
  // Keep the op's declared result types. (A ValueRange over a braced list
  // here dangled: the list died before the loop read it, and grad_key came
  // out as grad_query.)
  SmallVector<Value> results = {dQ, dK, dV};
  for (auto [r, type] : llvm::zip(results, op->getResultTypes()))
    if (r.getType() != type)
      r = tensor::CastOp::create(b, loc, type, r);
  return results;
}

} // namespace

FailureOr<SmallVector<Value>> mlir::attn::tileAttentionGradWithRecomputation(
    RewriterBase &rewriter, AttentionGradOp op,
    const OnlineSoftmaxTiling &tiling) {
  OpBuilder::InsertionGuard guard(rewriter);
  rewriter.setInsertionPoint(op);
  return GradientTileBuilder(rewriter, op, tiling).build();
}
