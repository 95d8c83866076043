//===- AggregatedOpInterfaceImpl.cpp - attention reference decomposition --===//
//
// AttentionOp::decomposeOperation: the unfused form of docs/semantics.md in
// linalg on tensors. It materializes the [B, Hq, Lq, Lk] scores on purpose:
// this is the ground truth the tiled and GPU paths are validated against, so
// it follows the definition step by step rather than being clever.
//
//===----------------------------------------------------------------------===//

#include "attnopt/Dialect/Attn/IR/AttnOps.h"
#include "attnopt/Dialect/Attn/Utils/LinalgBuilders.h"
#include "attnopt/Dialect/Attn/Utils/Philox.h"
#include "attnopt/Dialect/Attn/Utils/ScoreModifiers.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/Dialect/Utils/StructuredOpsUtils.h"

#include <limits>

using namespace mlir;
using namespace mlir::attn;

namespace {

/// Builds the linalg.generic ops of the decomposition for one attention op.
class ReferenceBuilder {
public:
  ReferenceBuilder(OpBuilder &b, AttentionOp op)
      : b(b), loc(op.getLoc()), op(op), mods(ScoreModifiers::get(op)) {}

  FailureOr<SmallVector<Value>> build();

private:
  using BodyFn = function_ref<void(OpBuilder &, Location, ValueRange)>;

  Value dimOf(Value tensor, int64_t dim);
  Value emptyF32(ArrayRef<Value> sizes);
  Value filled(ArrayRef<Value> sizes, float value);
  Value generic(ValueRange inputs, Value init, ArrayRef<AffineMap> maps,
                ArrayRef<utils::IteratorType> iterators, BodyFn body);
  AffineMap map(unsigned numDims, ArrayRef<AffineExpr> results) {
    return AffineMap::get(numDims, 0, results, b.getContext());
  }
  Value constF32(OpBuilder &nb, Location l, float v) {
    return arith::ConstantFloatOp::create(nb, l, nb.getF32Type(), APFloat(v));
  }
  Value toF32(OpBuilder &nb, Location l, Value v) {
    return v.getType().isF32()
               ? v
               : arith::ExtFOp::create(nb, l, nb.getF32Type(), v).getResult();
  }

  Value scores();
  Value modifiedScores(Value raw);
  Value rowMax(Value s);
  Value probabilities(Value s, Value max);
  Value rowSum(Value p);
  Value logSumExp(Value max, Value sum);
  Value normalizedWithDropout(Value p, Value sum);
  Value weightedValues(Value probs);

  OpBuilder &b;
  Location loc;
  AttentionOp op;
  ScoreModifiers mods;
  int64_t group = 1;
  Value batch, heads, queryLen, keyLen, valueDim;
  utils::IteratorType par = utils::IteratorType::parallel;
  utils::IteratorType red = utils::IteratorType::reduction;
};

Value ReferenceBuilder::dimOf(Value tensor, int64_t dim) {
  auto type = cast<RankedTensorType>(tensor.getType());
  if (!type.isDynamicDim(dim))
    return arith::ConstantIndexOp::create(b, loc, type.getDimSize(dim));
  return tensor::DimOp::create(b, loc, tensor, dim);
}

Value ReferenceBuilder::emptyF32(ArrayRef<Value> sizes) {
  SmallVector<OpFoldResult> mixed;
  for (Value s : sizes) {
    if (std::optional<int64_t> c = getConstantIntValue(s))
      mixed.push_back(b.getIndexAttr(*c));
    else
      mixed.push_back(s);
  }
  return tensor::EmptyOp::create(b, loc, mixed, b.getF32Type());
}

Value ReferenceBuilder::filled(ArrayRef<Value> sizes, float value) {
  return linalg::FillOp::create(b, loc, constF32(b, loc, value),
                                emptyF32(sizes))
      .getResult(0);
}

Value ReferenceBuilder::generic(ValueRange inputs, Value init,
                                ArrayRef<AffineMap> maps,
                                ArrayRef<utils::IteratorType> iterators,
                                BodyFn body) {
  return linalg::GenericOp::create(b, loc, TypeRange{init.getType()}, inputs,
                                   ValueRange{init}, maps, iterators, body)
      .getResult(0);
}

/// The map that reads a rank-4 mask-like operand from the [B, Hq, Lq, Lk]
/// loops (broadcast dimensions read element 0).
static AffineMap broadcastMap(Value mask) {
  return createBroadcastReadMap(mask.getContext(),
                                cast<ShapedType>(mask.getType()));
}

/// S[b,h,i,j] = sum_d q[b,h,i,d] * k[b,h/G,j,d], in f32.
Value ReferenceBuilder::scores() {
  AffineExpr d0, d1, d2, d3, d4;
  bindDims(b.getContext(), d0, d1, d2, d3, d4);
  AffineExpr kvHead = group == 1 ? d1 : d1.floorDiv(group);
  SmallVector<AffineMap> maps = {map(5, {d0, d1, d2, d4}),
                                 map(5, {d0, kvHead, d3, d4}),
                                 map(5, {d0, d1, d2, d3})};
  Value init = filled({batch, heads, queryLen, keyLen}, 0.0f);
  return generic({op.getQuery(), op.getKey()}, init, maps,
                 {par, par, par, par, red},
                 [&](OpBuilder &nb, Location l, ValueRange args) {
                   Value prod = arith::MulFOp::create(
                       nb, l, toF32(nb, l, args[0]), toF32(nb, l, args[1]));
                   Value sum = arith::AddFOp::create(nb, l, args[2], prod);
                   linalg::YieldOp::create(nb, l, sum);
                 });
}

/// Applies scale, softcap, mask, causal and window to the raw scores.
Value ReferenceBuilder::modifiedScores(Value raw) {
  AffineExpr d[4];
  bindDims(b.getContext(), d[0], d[1], d[2], d[3]);
  AffineMap identity = map(4, {d[0], d[1], d[2], d[3]});
  SmallVector<Value> inputs = {raw};
  SmallVector<AffineMap> maps = {identity};
  if (Value mask = op.getMask()) {
    inputs.push_back(mask);
    maps.push_back(broadcastMap(mask));
  }
  maps.push_back(identity);
  Value init = emptyF32({batch, heads, queryLen, keyLen});
  return generic(inputs, init, maps, {par, par, par, par},
                 [&](OpBuilder &nb, Location l, ValueRange args) {
                   Value row = linalg::IndexOp::create(nb, l, 2);
                   Value col = linalg::IndexOp::create(nb, l, 3);
                   Value maskValue = op.getMask() ? args[1] : Value();
                   Value s = emitModifiedScore(nb, l, mods, args[0], maskValue,
                                               row, col, queryLen, keyLen);
                   linalg::YieldOp::create(nb, l, s);
                 });
}

/// Reduces the last dimension of a [B, Hq, Lq, Lk] tensor into [B, Hq, Lq].
static SmallVector<AffineMap> rowReductionMaps(MLIRContext *ctx,
                                               unsigned numInputs) {
  AffineExpr d0, d1, d2, d3;
  bindDims(ctx, d0, d1, d2, d3);
  SmallVector<AffineMap> maps(numInputs,
                              AffineMap::get(4, 0, {d0, d1, d2, d3}, ctx));
  maps.push_back(AffineMap::get(4, 0, {d0, d1, d2}, ctx));
  return maps;
}

Value ReferenceBuilder::rowMax(Value s) {
  Value init =
      filled({batch, heads, queryLen}, -std::numeric_limits<float>::infinity());
  return generic(
      {s}, init, rowReductionMaps(b.getContext(), 1), {par, par, par, red},
      [&](OpBuilder &nb, Location l, ValueRange args) {
        linalg::YieldOp::create(
            nb, l,
            arith::MaximumFOp::create(nb, l, args[0], args[1]).getResult());
      });
}

/// P = exp(S - m), where a row max of -inf (no allowed key) is replaced by 0
/// so that the row becomes exp(-inf) = 0 instead of NaN.
Value ReferenceBuilder::probabilities(Value s, Value max) {
  AffineExpr d0, d1, d2, d3;
  bindDims(b.getContext(), d0, d1, d2, d3);
  AffineMap full = map(4, {d0, d1, d2, d3});
  Value init = emptyF32({batch, heads, queryLen, keyLen});
  return generic(
      {s, max}, init, {full, map(4, {d0, d1, d2}), full}, {par, par, par, par},
      [&](OpBuilder &nb, Location l, ValueRange args) {
        Value negInf = constF32(nb, l, -std::numeric_limits<float>::infinity());
        Value empty = arith::CmpFOp::create(nb, l, arith::CmpFPredicate::OEQ,
                                            args[1], negInf);
        Value safeMax = arith::SelectOp::create(nb, l, empty,
                                                constF32(nb, l, 0.0f), args[1]);
        Value diff = arith::SubFOp::create(nb, l, args[0], safeMax);
        linalg::YieldOp::create(nb, l,
                                math::ExpOp::create(nb, l, diff).getResult());
      });
}

Value ReferenceBuilder::rowSum(Value p) {
  Value init = filled({batch, heads, queryLen}, 0.0f);
  return generic(
      {p}, init, rowReductionMaps(b.getContext(), 1), {par, par, par, red},
      [&](OpBuilder &nb, Location l, ValueRange args) {
        linalg::YieldOp::create(
            nb, l, arith::AddFOp::create(nb, l, args[0], args[1]).getResult());
      });
}

/// lse = m + log(l), or -inf for rows with no allowed key.
Value ReferenceBuilder::logSumExp(Value max, Value sum) {
  AffineExpr d0, d1, d2;
  bindDims(b.getContext(), d0, d1, d2);
  AffineMap id = map(3, {d0, d1, d2});
  Value init = emptyF32({batch, heads, queryLen});
  return generic(
      {max, sum}, init, {id, id, id}, {par, par, par},
      [&](OpBuilder &nb, Location l, ValueRange args) {
        Value negInf = constF32(nb, l, -std::numeric_limits<float>::infinity());
        Value empty = arith::CmpFOp::create(nb, l, arith::CmpFPredicate::OEQ,
                                            args[0], negInf);
        Value lse = arith::AddFOp::create(nb, l, args[0],
                                          math::LogOp::create(nb, l, args[1]));
        linalg::YieldOp::create(
            nb, l,
            arith::SelectOp::create(nb, l, empty, negInf, lse).getResult());
      });
}

/// A = P / l (0 where l = 0), then dropout: A * keep / (1 - p), with keep
/// the explicit dropout_mask or the Philox bits.
Value ReferenceBuilder::normalizedWithDropout(Value p, Value sum) {
  AffineExpr d0, d1, d2, d3;
  bindDims(b.getContext(), d0, d1, d2, d3);
  AffineMap full = map(4, {d0, d1, d2, d3});
  float dropP = op.getDropoutP().convertToFloat();
  Value init = emptyF32({batch, heads, queryLen, keyLen});
  SmallVector<Value> inputs = {p, sum};
  SmallVector<AffineMap> maps = {full, map(4, {d0, d1, d2})};
  Value dropoutMask = dropP > 0.0f ? op.getDropoutMask() : Value();
  if (dropoutMask) {
    inputs.push_back(dropoutMask);
    maps.push_back(broadcastMap(dropoutMask));
  }
  maps.push_back(full);
  return generic(inputs, init, maps, {par, par, par, par},
                 [&](OpBuilder &nb, Location l, ValueRange args) {
                   Value zero = constF32(nb, l, 0.0f);
                   Value isEmpty = arith::CmpFOp::create(
                       nb, l, arith::CmpFPredicate::OEQ, args[1], zero);
                   Value ratio = arith::DivFOp::create(nb, l, args[0], args[1]);
                   Value prob =
                       arith::SelectOp::create(nb, l, isEmpty, zero, ratio);
                   if (dropP > 0.0f) {
                     Value keep;
                     if (dropoutMask) {
                       keep = args[2];
                     } else {
                       DropoutPosition pos{linalg::IndexOp::create(nb, l, 0),
                                           linalg::IndexOp::create(nb, l, 1),
                                           linalg::IndexOp::create(nb, l, 2),
                                           linalg::IndexOp::create(nb, l, 3),
                                           heads,
                                           queryLen};
                       keep = emitDropoutKeep(nb, l, op.getSeed(),
                                              op.getOffset(), pos, dropP);
                     }
                     Value scaled = arith::MulFOp::create(
                         nb, l, prob, constF32(nb, l, 1.0f / (1.0f - dropP)));
                     prob = arith::SelectOp::create(nb, l, keep, scaled, zero);
                   }
                   linalg::YieldOp::create(nb, l, prob);
                 });
}

/// O[b,h,i,e] = sum_j A[b,h,i,j] * v[b,h/G,j,e], in f32.
Value ReferenceBuilder::weightedValues(Value probs) {
  AffineExpr d0, d1, d2, d3, d4;
  bindDims(b.getContext(), d0, d1, d2, d3, d4);
  AffineExpr kvHead = group == 1 ? d1 : d1.floorDiv(group);
  SmallVector<AffineMap> maps = {map(5, {d0, d1, d2, d4}),
                                 map(5, {d0, kvHead, d4, d3}),
                                 map(5, {d0, d1, d2, d3})};
  Value init = filled({batch, heads, queryLen, valueDim}, 0.0f);
  return generic(
      {probs, op.getValue()}, init, maps, {par, par, par, par, red},
      [&](OpBuilder &nb, Location l, ValueRange args) {
        Value prod =
            arith::MulFOp::create(nb, l, args[0], toF32(nb, l, args[1]));
        linalg::YieldOp::create(
            nb, l, arith::AddFOp::create(nb, l, args[2], prod).getResult());
      });
}

FailureOr<SmallVector<Value>> ReferenceBuilder::build() {
  RankedTensorType qType = op.getQueryType(), kType = op.getKeyType();
  if (qType.isDynamicDim(1) || kType.isDynamicDim(1))
    return op.emitOpError(
        "decomposition needs static head counts (the GQA head map is an "
        "affine floordiv by Hq/Hkv)");
  group = op.getGroupSize();
  batch = dimOf(op.getQuery(), 0);
  heads = dimOf(op.getQuery(), 1);
  queryLen = dimOf(op.getQuery(), 2);
  keyLen = dimOf(op.getKey(), 2);
  valueDim = dimOf(op.getValue(), 3);

  Value s = modifiedScores(scores());
  Value max = rowMax(s);
  Value p = probabilities(s, max);
  Value sum = rowSum(p);
  Value out = weightedValues(normalizedWithDropout(p, sum));

  Type outElt = op.getOutputType().getElementType();
  if (!outElt.isF32()) {
    Value init = tensor::EmptyOp::create(
        b, loc, getAsOpFoldResult(ValueRange{batch, heads, queryLen, valueDim}),
        outElt);
    AffineMap id = b.getMultiDimIdentityMap(4);
    out = generic(
        {out}, init, {id, id}, {par, par, par, par},
        [&](OpBuilder &nb, Location l, ValueRange args) {
          linalg::YieldOp::create(
              nb, l,
              arith::TruncFOp::create(nb, l, outElt, args[0]).getResult());
        });
  }
  // Keep the op's declared (possibly dynamic) result type.
  if (out.getType() != op.getOutputType())
    out = tensor::CastOp::create(b, loc, op.getOutputType(), out);
  SmallVector<Value> results = {out};
  if (Value lse = op.getLse()) {
    Value l = logSumExp(max, sum);
    if (l.getType() != lse.getType())
      l = tensor::CastOp::create(b, loc, lse.getType(), l);
    results.push_back(l);
  }
  return results;
}

} // namespace

FailureOr<SmallVector<Value>> AttentionOp::decomposeOperation(OpBuilder &b) {
  OpBuilder::InsertionGuard guard(b);
  b.setInsertionPoint(getOperation());
  return ReferenceBuilder(b, *this).build();
}
