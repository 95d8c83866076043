//===- LinalgBuilders.h - linalg-on-tensors building blocks -----*- C++ -*-===//
//
// The few constructs every attn lowering to linalg builds over and over:
// f32 scratch tensors, linalg.generic with one init, element conversions.
// Arithmetic of every attn lowering is f32, so the helpers are f32-centred.
//
//===----------------------------------------------------------------------===//

#ifndef ATTNOPT_DIALECT_ATTN_UTILS_LINALGBUILDERS_H
#define ATTNOPT_DIALECT_ATTN_UTILS_LINALGBUILDERS_H

#include "mlir/Dialect/Utils/StructuredOpsUtils.h"
#include "mlir/IR/Builders.h"

namespace mlir::attn {

using GenericBodyFn = function_ref<void(OpBuilder &, Location, ValueRange)>;

/// An f32 scalar constant.
Value createF32Constant(OpBuilder &b, Location loc, float value);

/// `v` widened to f32 (returned as is when it already is f32).
Value extendToF32(OpBuilder &b, Location loc, Value v);

/// `tensor.empty` of f32 with the given (index-typed) sizes; constant sizes
/// become static dimensions.
Value createEmptyF32(OpBuilder &b, Location loc, ArrayRef<Value> sizes);

/// An f32 tensor of the given sizes filled with `value`.
Value createFilledF32(OpBuilder &b, Location loc, ArrayRef<Value> sizes,
                      float value);

/// A linalg.generic with a single init, returning its result.
Value createGeneric(OpBuilder &b, Location loc, ValueRange inputs, Value init,
                    ArrayRef<AffineMap> maps,
                    ArrayRef<utils::IteratorType> iterators,
                    GenericBodyFn body);

/// The indexing map that reads a rank-4 mask-like operand (attention mask,
/// dropout keep mask) of `maskType` from loops over [B, Hq, Lq, Lk]: a
/// broadcast dimension (size 1) reads element 0, the others follow their
/// loop.
AffineMap createBroadcastReadMap(MLIRContext *ctx, ShapedType maskType);

/// The f32 tensor `source` converted elementwise to `elementType` (truncf),
/// then cast to `resultType` (which may have dynamic dimensions).
Value createTruncatedTo(OpBuilder &b, Location loc, Value source,
                        RankedTensorType resultType);

} // namespace mlir::attn

#endif // ATTNOPT_DIALECT_ATTN_UTILS_LINALGBUILDERS_H
