//===- AttentionGradDecomposition.cpp - unfused attention gradients -------===//
//
// AttentionGradOp::decomposeOperation: the gradient formulas of
// docs/semantics.md ("Gradients") in linalg on tensors, step by step. Like
// the forward decomposition it materializes [B, Hq, Lq, Lk] tensors (P, dP,
// dS) on purpose: it is the ground truth for the tiled and GPU backward.
//
//===----------------------------------------------------------------------===//

#include "attnopt/Dialect/Attn/IR/AttnOps.h"
#include "attnopt/Dialect/Attn/Utils/LinalgBuilders.h"
#include "attnopt/Dialect/Attn/Utils/Philox.h"
#include "attnopt/Dialect/Attn/Utils/ScoreModifiers.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"

using namespace mlir;
using namespace mlir::attn;

namespace {

/// Builds the linalg.generic ops of the gradient for one attention_grad op.
class GradientBuilder {
public:
  GradientBuilder(OpBuilder &b, AttentionGradOp op)
      : b(b), loc(op.getLoc()), op(op), mods(ScoreModifiers::get(op)),
        dropP(op.getDropoutP().convertToFloat()) {}

  FailureOr<SmallVector<Value>> build();

private:
  Value dimOf(Value tensor, int64_t dim);
  AffineMap map(unsigned numDims, ArrayRef<AffineExpr> results) {
    return AffineMap::get(numDims, 0, results, b.getContext());
  }
  Value generic(ValueRange inputs, Value init, ArrayRef<AffineMap> maps,
                ArrayRef<utils::IteratorType> iterators, GenericBodyFn body) {
    return createGeneric(b, loc, inputs, init, maps, iterators, body);
  }
  /// init + a * b, widening a and b to f32.
  static Value multiplyAdd(OpBuilder &nb, Location l, Value a, Value b,
                           Value init) {
    Value prod = arith::MulFOp::create(nb, l, extendToF32(nb, l, a),
                                       extendToF32(nb, l, b));
    return arith::AddFOp::create(nb, l, init, prod);
  }
  /// The dropout keep bit of element (b, h, i, j) inside a 4-D generic over
  /// [B, Hq, Lq, Lk]: `maskBit` (the dropout_mask element, an input of the
  /// generic) or the Philox bit; null without dropout.
  Value keepBit(OpBuilder &nb, Location l, Value maskBit);
  /// `x * keep / (1 - p)` (0 where dropped); `x` without dropout.
  Value applyDropout(OpBuilder &nb, Location l, Value x, Value maskBit);
  /// Adds the dropout_mask (if any) as an input of a 4-D generic over
  /// [B, Hq, Lq, Lk] (broadcast dims read at 0); returns whether it did.
  bool addDropoutMaskInput(SmallVectorImpl<Value> &inputs,
                           SmallVectorImpl<AffineMap> &maps);

  Value groupedHeads(Value t);
  Value rawScores();
  Value probabilities(Value raw);
  Value outputDotGradient();
  Value valueGradient(Value probs);
  Value probabilityGradient();
  Value scoreGradient(Value raw, Value probs, Value dPd, Value delta);
  Value queryGradient(Value dS);
  Value keyGradient(Value dS);

  OpBuilder &b;
  Location loc;
  AttentionGradOp op;
  ScoreModifiers mods;
  float dropP;
  int64_t group = 1;
  Value batch, heads, kvHeads, queryLen, keyLen, headDim, valueDim;
  utils::IteratorType par = utils::IteratorType::parallel;
  utils::IteratorType red = utils::IteratorType::reduction;
};

Value GradientBuilder::dimOf(Value tensor, int64_t dim) {
  auto type = cast<RankedTensorType>(tensor.getType());
  if (!type.isDynamicDim(dim))
    return arith::ConstantIndexOp::create(b, loc, type.getDimSize(dim));
  return tensor::DimOp::create(b, loc, tensor, dim);
}

bool GradientBuilder::addDropoutMaskInput(SmallVectorImpl<Value> &inputs,
                                          SmallVectorImpl<AffineMap> &maps) {
  Value mask = op.getDropoutMask();
  if (dropP <= 0.0f || !mask)
    return false;
  inputs.push_back(mask);
  maps.push_back(
      createBroadcastReadMap(b.getContext(), cast<ShapedType>(mask.getType())));
  return true;
}

Value GradientBuilder::keepBit(OpBuilder &nb, Location l, Value maskBit) {
  if (dropP <= 0.0f)
    return Value();
  if (maskBit)
    return maskBit;
  DropoutPosition pos{linalg::IndexOp::create(nb, l, 0),
                      linalg::IndexOp::create(nb, l, 1),
                      linalg::IndexOp::create(nb, l, 2),
                      linalg::IndexOp::create(nb, l, 3),
                      heads,
                      queryLen};
  return emitDropoutKeep(nb, l, op.getSeed(), op.getOffset(), pos, dropP);
}

Value GradientBuilder::applyDropout(OpBuilder &nb, Location l, Value x,
                                    Value maskBit) {
  Value keep = keepBit(nb, l, maskBit);
  if (!keep)
    return x;
  Value scaled = arith::MulFOp::create(
      nb, l, x, createF32Constant(nb, l, 1.0f / (1.0f - dropP)));
  return arith::SelectOp::create(nb, l, keep, scaled,
                                 createF32Constant(nb, l, 0.0f));
}

/// [B, Hq, X, Y] viewed as [B, Hkv, G, X, Y], so that the reductions over
/// the query heads of a group (dK, dV) have a loop bound linalg can infer.
Value GradientBuilder::groupedHeads(Value t) {
  auto type = cast<RankedTensorType>(t.getType());
  SmallVector<int64_t> shape = {type.getDimSize(0), type.getDimSize(1) / group,
                                group, type.getDimSize(2), type.getDimSize(3)};
  SmallVector<OpFoldResult> sizes = tensor::getMixedSizes(b, loc, t);
  SmallVector<OpFoldResult> outSizes = {sizes[0], b.getIndexAttr(shape[1]),
                                        b.getIndexAttr(group), sizes[2],
                                        sizes[3]};
  SmallVector<ReassociationIndices> reassoc = {{0}, {1, 2}, {3}, {4}};
  return tensor::ExpandShapeOp::create(
      b, loc, RankedTensorType::get(shape, type.getElementType()), t, reassoc,
      outSizes);
}

/// raw[b,h,i,j] = sum_d q[b,h,i,d] * k[b,h/G,j,d] (unscaled, f32).
Value GradientBuilder::rawScores() {
  AffineExpr d0, d1, d2, d3, d4;
  bindDims(b.getContext(), d0, d1, d2, d3, d4);
  AffineExpr kvHead = group == 1 ? d1 : d1.floorDiv(group);
  Value init = createFilledF32(b, loc, {batch, heads, queryLen, keyLen}, 0.0f);
  return generic(
      {op.getQuery(), op.getKey()}, init,
      {map(5, {d0, d1, d2, d4}), map(5, {d0, kvHead, d3, d4}),
       map(5, {d0, d1, d2, d3})},
      {par, par, par, par, red}, [&](OpBuilder &nb, Location l, ValueRange a) {
        linalg::YieldOp::create(nb, l, multiplyAdd(nb, l, a[0], a[1], a[2]));
      });
}

/// P = exp(s - lse), with s the modified score (-inf where not allowed).
Value GradientBuilder::probabilities(Value raw) {
  AffineExpr d[4];
  bindDims(b.getContext(), d[0], d[1], d[2], d[3]);
  AffineMap full = map(4, {d[0], d[1], d[2], d[3]});
  SmallVector<Value> inputs = {raw, op.getLse()};
  SmallVector<AffineMap> maps = {full, map(4, {d[0], d[1], d[2]})};
  if (Value mask = op.getMask()) {
    inputs.push_back(mask);
    maps.push_back(createBroadcastReadMap(b.getContext(),
                                          cast<ShapedType>(mask.getType())));
  }
  maps.push_back(full);
  Value init = createEmptyF32(b, loc, {batch, heads, queryLen, keyLen});
  return generic(inputs, init, maps, {par, par, par, par},
                 [&](OpBuilder &nb, Location l, ValueRange a) {
                   Value row = linalg::IndexOp::create(nb, l, 2);
                   Value col = linalg::IndexOp::create(nb, l, 3);
                   Value maskValue = op.getMask() ? a[2] : Value();
                   Value s = emitModifiedScore(nb, l, mods, a[0], maskValue,
                                               row, col, queryLen, keyLen);
                   linalg::YieldOp::create(
                       nb, l, emitRecomputedProbability(nb, l, s, a[1]));
                 });
}

/// D[b,h,i] = sum_e dO[b,h,i,e] * O[b,h,i,e].
Value GradientBuilder::outputDotGradient() {
  AffineExpr d0, d1, d2, d3;
  bindDims(b.getContext(), d0, d1, d2, d3);
  AffineMap full = map(4, {d0, d1, d2, d3});
  Value init = createFilledF32(b, loc, {batch, heads, queryLen}, 0.0f);
  return generic({op.getGradOutput(), op.getOutput()}, init,
                 {full, full, map(4, {d0, d1, d2})}, {par, par, par, red},
                 [&](OpBuilder &nb, Location l, ValueRange a) {
                   linalg::YieldOp::create(
                       nb, l, multiplyAdd(nb, l, a[0], a[1], a[2]));
                 });
}

/// dV[b,k,j,e] = sum_{g,i} Pd[b,k*G+g,i,j] * dO[b,k*G+g,i,e], with Pd the
/// probabilities after dropout.
Value GradientBuilder::valueGradient(Value probs) {
  // Dropout needs the (b, h, i, j) position, so Pd is its own generic.
  Value dropped = probs;
  if (dropP > 0.0f) {
    AffineMap id = b.getMultiDimIdentityMap(4);
    SmallVector<Value> inputs = {probs};
    SmallVector<AffineMap> maps = {id};
    bool hasMask = addDropoutMaskInput(inputs, maps);
    maps.push_back(id);
    dropped = generic(
        inputs, createEmptyF32(b, loc, {batch, heads, queryLen, keyLen}), maps,
        {par, par, par, par}, [&](OpBuilder &nb, Location l, ValueRange a) {
          linalg::YieldOp::create(
              nb, l, applyDropout(nb, l, a[0], hasMask ? a[1] : Value()));
        });
  }
  // Dims: (b, k, j, e, g, i).
  AffineExpr d0, d1, d2, d3, d4, d5;
  bindDims(b.getContext(), d0, d1, d2, d3, d4, d5);
  Value init =
      createFilledF32(b, loc, {batch, kvHeads, keyLen, valueDim}, 0.0f);
  return generic(
      {groupedHeads(dropped), groupedHeads(op.getGradOutput())}, init,
      {map(6, {d0, d1, d4, d5, d2}), map(6, {d0, d1, d4, d5, d3}),
       map(6, {d0, d1, d2, d3})},
      {par, par, par, par, red, red},
      [&](OpBuilder &nb, Location l, ValueRange a) {
        linalg::YieldOp::create(nb, l, multiplyAdd(nb, l, a[0], a[1], a[2]));
      });
}

/// dPd[b,h,i,j] = sum_e dO[b,h,i,e] * v[b,h/G,j,e]: the gradient of the
/// probabilities after dropout.
Value GradientBuilder::probabilityGradient() {
  AffineExpr d0, d1, d2, d3, d4;
  bindDims(b.getContext(), d0, d1, d2, d3, d4);
  AffineExpr kvHead = group == 1 ? d1 : d1.floorDiv(group);
  Value init = createFilledF32(b, loc, {batch, heads, queryLen, keyLen}, 0.0f);
  return generic(
      {op.getGradOutput(), op.getValue()}, init,
      {map(5, {d0, d1, d2, d4}), map(5, {d0, kvHead, d3, d4}),
       map(5, {d0, d1, d2, d3})},
      {par, par, par, par, red}, [&](OpBuilder &nb, Location l, ValueRange a) {
        linalg::YieldOp::create(nb, l, multiplyAdd(nb, l, a[0], a[1], a[2]));
      });
}

/// dS = P * (dP - D) * softcap'(raw), dP = dropout(dPd).
Value GradientBuilder::scoreGradient(Value raw, Value probs, Value dPd,
                                     Value delta) {
  AffineExpr d0, d1, d2, d3;
  bindDims(b.getContext(), d0, d1, d2, d3);
  AffineMap full = map(4, {d0, d1, d2, d3});
  Value init = createEmptyF32(b, loc, {batch, heads, queryLen, keyLen});
  SmallVector<Value> inputs = {raw, probs, dPd, delta};
  SmallVector<AffineMap> maps = {full, full, full, map(4, {d0, d1, d2})};
  bool hasMask = addDropoutMaskInput(inputs, maps);
  maps.push_back(full);
  return generic(inputs, init, maps, {par, par, par, par},
                 [&](OpBuilder &nb, Location l, ValueRange a) {
                   Value dP =
                       applyDropout(nb, l, a[2], hasMask ? a[4] : Value());
                   Value dS = arith::MulFOp::create(
                       nb, l, a[1], arith::SubFOp::create(nb, l, dP, a[3]));
                   if (Value factor = emitSoftcapDerivative(nb, l, mods, a[0]))
                     dS = arith::MulFOp::create(nb, l, dS, factor);
                   linalg::YieldOp::create(nb, l, dS);
                 });
}

/// dQ[b,h,i,d] = scale * sum_j dS[b,h,i,j] * k[b,h/G,j,d].
Value GradientBuilder::queryGradient(Value dS) {
  AffineExpr d0, d1, d2, d3, d4;
  bindDims(b.getContext(), d0, d1, d2, d3, d4);
  AffineExpr kvHead = group == 1 ? d1 : d1.floorDiv(group);
  Value init = createFilledF32(b, loc, {batch, heads, queryLen, headDim}, 0.0f);
  Value sum = generic(
      {dS, op.getKey()}, init,
      {map(5, {d0, d1, d2, d4}), map(5, {d0, kvHead, d4, d3}),
       map(5, {d0, d1, d2, d3})},
      {par, par, par, par, red}, [&](OpBuilder &nb, Location l, ValueRange a) {
        linalg::YieldOp::create(nb, l, multiplyAdd(nb, l, a[0], a[1], a[2]));
      });
  return sum;
}

/// dK[b,k,j,d] = scale * sum_{g,i} dS[b,k*G+g,i,j] * q[b,k*G+g,i,d].
Value GradientBuilder::keyGradient(Value dS) {
  AffineExpr d0, d1, d2, d3, d4, d5;
  bindDims(b.getContext(), d0, d1, d2, d3, d4, d5);
  Value init = createFilledF32(b, loc, {batch, kvHeads, keyLen, headDim}, 0.0f);
  return generic({groupedHeads(dS), groupedHeads(op.getQuery())}, init,
                 {map(6, {d0, d1, d4, d5, d2}), map(6, {d0, d1, d4, d5, d3}),
                  map(6, {d0, d1, d2, d3})},
                 {par, par, par, par, red, red},
                 [&](OpBuilder &nb, Location l, ValueRange a) {
                   linalg::YieldOp::create(
                       nb, l, multiplyAdd(nb, l, a[0], a[1], a[2]));
                 });
}

/// `x * scale`, elementwise, for the f32 tensor x.
static Value scaled(OpBuilder &b, Location loc, Value x, float scale) {
  auto type = cast<RankedTensorType>(x.getType());
  AffineMap id = b.getMultiDimIdentityMap(type.getRank());
  SmallVector<utils::IteratorType> par(type.getRank(),
                                       utils::IteratorType::parallel);
  Value init = tensor::EmptyOp::create(b, loc, tensor::getMixedSizes(b, loc, x),
                                       b.getF32Type());
  return createGeneric(
      b, loc, {x}, init, {id, id}, par,
      [&](OpBuilder &nb, Location l, ValueRange a) {
        linalg::YieldOp::create(
            nb, l,
            arith::MulFOp::create(nb, l, a[0], createF32Constant(nb, l, scale))
                .getResult());
      });
}

FailureOr<SmallVector<Value>> GradientBuilder::build() {
  RankedTensorType qType = op.getQueryType(), kType = op.getKeyType();
  if (qType.isDynamicDim(1) || kType.isDynamicDim(1))
    return op.emitOpError(
        "decomposition needs static head counts (the GQA head map is an "
        "affine floordiv by Hq/Hkv)");
  group = op.getGroupSize();
  batch = dimOf(op.getQuery(), 0);
  heads = dimOf(op.getQuery(), 1);
  kvHeads = dimOf(op.getKey(), 1);
  queryLen = dimOf(op.getQuery(), 2);
  keyLen = dimOf(op.getKey(), 2);
  headDim = dimOf(op.getQuery(), 3);
  valueDim = dimOf(op.getValue(), 3);

  Value raw = rawScores();
  Value probs = probabilities(raw);
  Value dV = valueGradient(probs);
  Value dS =
      scoreGradient(raw, probs, probabilityGradient(), outputDotGradient());
  float scale = op.getEffectiveScale();
  Value dQ = scaled(b, loc, queryGradient(dS), scale);
  Value dK = scaled(b, loc, keyGradient(dS), scale);
  return SmallVector<Value>{createTruncatedTo(b, loc, dQ, op.getQueryType()),
                            createTruncatedTo(b, loc, dK, op.getKeyType()),
                            createTruncatedTo(b, loc, dV, op.getValueType())};
}

} // namespace

FailureOr<SmallVector<Value>>
AttentionGradOp::decomposeOperation(OpBuilder &b) {
  OpBuilder::InsertionGuard guard(b);
  b.setInsertionPoint(getOperation());
  FailureOr<SmallVector<Value>> results = GradientBuilder(b, *this).build();
  if (failed(results))
    return failure();
  // Keep the op's declared result types, which may be more or less static
  // than its operands' (the gradients are built in the operands' types).
  for (auto [r, type] : llvm::zip(*results, getResultTypes()))
    if (r.getType() != type)
      r = tensor::CastOp::create(b, getLoc(), type, r);
  return results;
}
