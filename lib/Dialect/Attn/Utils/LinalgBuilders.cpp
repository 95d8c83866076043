//===- LinalgBuilders.cpp - linalg-on-tensors building blocks -------------===//

#include "attnopt/Dialect/Attn/Utils/LinalgBuilders.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"

using namespace mlir;
using namespace mlir::attn;

Value mlir::attn::createF32Constant(OpBuilder &b, Location loc, float value) {
  return arith::ConstantFloatOp::create(b, loc, b.getF32Type(), APFloat(value));
}

Value mlir::attn::extendToF32(OpBuilder &b, Location loc, Value v) {
  if (v.getType().isF32())
    return v;
  return arith::ExtFOp::create(b, loc, b.getF32Type(), v);
}

Value mlir::attn::createEmptyF32(OpBuilder &b, Location loc,
                                 ArrayRef<Value> sizes) {
  SmallVector<OpFoldResult> mixed;
  for (Value s : sizes) {
    if (std::optional<int64_t> c = getConstantIntValue(s))
      mixed.push_back(b.getIndexAttr(*c));
    else
      mixed.push_back(s);
  }
  return tensor::EmptyOp::create(b, loc, mixed, b.getF32Type());
}

Value mlir::attn::createFilledF32(OpBuilder &b, Location loc,
                                  ArrayRef<Value> sizes, float value) {
  return linalg::FillOp::create(b, loc, createF32Constant(b, loc, value),
                                createEmptyF32(b, loc, sizes))
      .getResult(0);
}

Value mlir::attn::createGeneric(OpBuilder &b, Location loc, ValueRange inputs,
                                Value init, ArrayRef<AffineMap> maps,
                                ArrayRef<utils::IteratorType> iterators,
                                GenericBodyFn body) {
  return linalg::GenericOp::create(b, loc, TypeRange{init.getType()}, inputs,
                                   ValueRange{init}, maps, iterators, body)
      .getResult(0);
}

Value mlir::attn::createTruncatedTo(OpBuilder &b, Location loc, Value source,
                                    RankedTensorType resultType) {
  auto sourceType = cast<RankedTensorType>(source.getType());
  Type elt = resultType.getElementType();
  Value result = source;
  if (sourceType.getElementType() != elt) {
    SmallVector<OpFoldResult> sizes = tensor::getMixedSizes(b, loc, source);
    Value init = tensor::EmptyOp::create(b, loc, sizes, elt);
    unsigned rank = sourceType.getRank();
    AffineMap id = b.getMultiDimIdentityMap(rank);
    SmallVector<utils::IteratorType> par(rank, utils::IteratorType::parallel);
    result = createGeneric(
        b, loc, {source}, init, {id, id}, par,
        [&](OpBuilder &nb, Location l, ValueRange args) {
          linalg::YieldOp::create(
              nb, l, arith::TruncFOp::create(nb, l, elt, args[0]).getResult());
        });
  }
  if (result.getType() != resultType)
    result = tensor::CastOp::create(b, loc, resultType, result);
  return result;
}

AffineMap mlir::attn::createBroadcastReadMap(MLIRContext *ctx,
                                             ShapedType maskType) {
  SmallVector<AffineExpr> exprs;
  for (int64_t i = 0; i < 4; ++i)
    exprs.push_back(maskType.getDimSize(i) == 1 ? getAffineConstantExpr(0, ctx)
                                                : getAffineDimExpr(i, ctx));
  return AffineMap::get(4, 0, exprs, ctx);
}
