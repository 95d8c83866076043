//===- AttentionTileBuilder.cpp - blocks of the tiled attention forms -----===//

#include "AttentionTileBuilder.h"

#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"

using namespace mlir;
using namespace mlir::attn;

AttentionTileBuilder::AttentionTileBuilder(RewriterBase &b,
                                           AttentionOpInterface op, int64_t br,
                                           int64_t bc)
    : b(b), loc(op.getLoc()), iface(op), br(br), bc(bc),
      mods(ScoreModifiers::get(op)) {
  positional = mods;
  positional.causal = CausalMode::none;
  positional.window.reset();
}

Value AttentionTileBuilder::dimOf(Value tensor, int64_t dim) {
  auto type = cast<RankedTensorType>(tensor.getType());
  if (!type.isDynamicDim(dim))
    return idx(type.getDimSize(dim));
  return tensor::DimOp::create(b, loc, tensor, dim);
}

Value AttentionTileBuilder::emptyF32(ArrayRef<int64_t> shape) {
  return tensor::EmptyOp::create(b, loc, shape, b.getF32Type());
}

Value AttentionTileBuilder::filled(ArrayRef<int64_t> shape, float value) {
  Value empty = emptyF32(shape);
  return linalg::FillOp::create(b, loc, f32(b, loc, value), empty).getResult(0);
}

Value AttentionTileBuilder::generic(ValueRange inputs, Value init,
                                    ArrayRef<AffineMap> maps,
                                    ArrayRef<utils::IteratorType> iterators,
                                    BodyFn body) {
  return linalg::GenericOp::create(b, loc, TypeRange{init.getType()}, inputs,
                                   ValueRange{init}, maps, iterators, body)
      .getResult(0);
}

Value AttentionTileBuilder::paddedSlice(Value source,
                                        ArrayRef<OpFoldResult> offsets,
                                        ArrayRef<OpFoldResult> sizes,
                                        int64_t padRows, int64_t padCols,
                                        TypedAttr padValue) {
  auto srcType = cast<RankedTensorType>(source.getType());
  SmallVector<OpFoldResult> strides(4, b.getIndexAttr(1));
  auto sliceType = tensor::ExtractSliceOp::inferCanonicalRankReducedResultType(
      2, srcType, sizes);
  Value slice = tensor::ExtractSliceOp::create(b, loc, sliceType, source,
                                               offsets, sizes, strides);
  auto padType =
      RankedTensorType::get({padRows, padCols}, srcType.getElementType());
  if (sliceType == padType)
    return slice;
  auto highOf = [&](OpFoldResult size, int64_t target) -> OpFoldResult {
    if (std::optional<int64_t> c = getConstantIntValue(size))
      return b.getIndexAttr(target - *c);
    return sub(idx(target), cast<Value>(size));
  };
  SmallVector<OpFoldResult> low(2, b.getIndexAttr(0));
  SmallVector<OpFoldResult> high = {highOf(sizes[2], padRows),
                                    highOf(sizes[3], padCols)};
  if (!padValue)
    padValue = cast<TypedAttr>(b.getZeroAttr(srcType.getElementType()));
  Value pad = arith::ConstantOp::create(b, loc, padValue);
  return tensor::PadOp::create(b, loc, padType, slice, low, high, pad);
}

/// Whether block [k0, k0 + Bc) of rows [q0, q0 + rows) has any position the
/// causal/window rules exclude, or runs past the last key.

Value AttentionTileBuilder::broadcastTile(Value mask, Value bIdx, Value hIdx,
                                          Value q0, Value rows, Value k0,
                                          Value cols) {
  if (!mask)
    return Value();
  auto type = cast<RankedTensorType>(mask.getType());
  auto pick = [&](int64_t dim, Value v) {
    return type.getDimSize(dim) == 1 ? OpFoldResult(b.getIndexAttr(0))
                                     : OpFoldResult(v);
  };
  auto size = [&](int64_t dim, Value v) {
    return type.getDimSize(dim) == 1 ? OpFoldResult(b.getIndexAttr(1))
                                     : OpFoldResult(v);
  };
  SmallVector<OpFoldResult> offsets = {pick(0, bIdx), pick(1, hIdx),
                                       pick(2, q0), pick(3, k0)};
  SmallVector<OpFoldResult> sizes = {b.getIndexAttr(1), b.getIndexAttr(1),
                                     size(2, rows), size(3, cols)};
  return paddedSlice(mask, offsets, sizes, type.getDimSize(2) == 1 ? 1 : br,
                     type.getDimSize(3) == 1 ? 1 : bc);
}

/// S[i, j] = sum_d Q[i, d] * K[j, d] in f32: [Br, Bc].
Value AttentionTileBuilder::scoreTile(Value qTile, Value kTile) {
  AffineExpr i, j, d;
  bindDims(b.getContext(), i, j, d);
  return generic({qTile, kTile}, filled({br, bc}, 0.0f),
                 {map(3, {i, d}), map(3, {j, d}), map(3, {i, j})},
                 {par, par, red}, [&](OpBuilder &nb, Location l, ValueRange a) {
                   Value prod = arith::MulFOp::create(nb, l, toF32(nb, l, a[0]),
                                                      toF32(nb, l, a[1]));
                   linalg::YieldOp::create(
                       nb, l,
                       arith::AddFOp::create(nb, l, a[2], prod).getResult());
                 });
}

Value AttentionTileBuilder::modifiedScores(Value raw, Value maskTile, Value q0,
                                           Value k0, const ScoreModifiers &m,
                                           bool boundColumns) {
  AffineExpr i, j;
  bindDims(b.getContext(), i, j);
  AffineMap id = map(2, {i, j});
  SmallVector<Value> inputs = {raw};
  SmallVector<AffineMap> maps = {id};
  if (maskTile) {
    auto t = cast<RankedTensorType>(maskTile.getType());
    AffineExpr zero = getAffineConstantExpr(0, b.getContext());
    inputs.push_back(maskTile);
    maps.push_back(map(
        2, {t.getDimSize(0) == 1 ? zero : i, t.getDimSize(1) == 1 ? zero : j}));
  }
  maps.push_back(id);
  Value init = tensor::EmptyOp::create(b, loc, ArrayRef<int64_t>{br, bc},
                                       b.getF32Type());
  return generic(
      inputs, init, maps, {par, par},
      [&](OpBuilder &nb, Location l, ValueRange a) {
        Value row =
            arith::AddIOp::create(nb, l, q0, linalg::IndexOp::create(nb, l, 0));
        Value col =
            arith::AddIOp::create(nb, l, k0, linalg::IndexOp::create(nb, l, 1));
        Value s = emitModifiedScore(nb, l, m, a[0], maskTile ? a[1] : Value(),
                                    row, col, queryLen, keyLen);
        if (boundColumns) {
          Value inside = arith::CmpIOp::create(nb, l, arith::CmpIPredicate::slt,
                                               col, keyLen);
          s = arith::SelectOp::create(nb, l, inside, s, f32(nb, l, kNegInf));
        }
        linalg::YieldOp::create(nb, l, s);
      });
}

Value AttentionTileBuilder::paddedRowSlice(Value source, Value bIdx, Value hIdx,
                                           Value row0, Value rows,
                                           int64_t padRows, float padValue) {
  auto srcType = cast<RankedTensorType>(source.getType());
  OpFoldResult one = b.getIndexAttr(1);
  SmallVector<OpFoldResult> offsets = {bIdx, hIdx, row0};
  SmallVector<OpFoldResult> sizes = {one, one, rows};
  SmallVector<OpFoldResult> strides(3, one);
  auto sliceType = tensor::ExtractSliceOp::inferCanonicalRankReducedResultType(
      1, srcType, sizes);
  Value slice = tensor::ExtractSliceOp::create(b, loc, sliceType, source,
                                               offsets, sizes, strides);
  auto padType = RankedTensorType::get({padRows}, srcType.getElementType());
  if (sliceType == padType)
    return slice;
  OpFoldResult high = sub(idx(padRows), rows);
  if (std::optional<int64_t> c = getConstantIntValue(rows))
    high = b.getIndexAttr(padRows - *c);
  Value pad = f32(b, loc, padValue);
  return tensor::PadOp::create(b, loc, padType, slice,
                               ArrayRef<OpFoldResult>{b.getIndexAttr(0)},
                               ArrayRef<OpFoldResult>{high}, pad);
}

Value AttentionTileBuilder::rowTile(Value source, Value bIdx, Value hIdx,
                                    Value row0, Value rows, int64_t padRows) {
  int64_t width = cast<RankedTensorType>(source.getType()).getDimSize(3);
  OpFoldResult one = b.getIndexAttr(1), zero = b.getIndexAttr(0);
  return paddedSlice(source, {bIdx, hIdx, row0, zero},
                     {one, one, rows, b.getIndexAttr(width)}, padRows, width);
}
