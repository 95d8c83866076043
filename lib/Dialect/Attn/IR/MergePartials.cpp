//===- MergePartials.cpp - attn.merge_partials: verifier, decomposition ---===//
//
// attn.merge_partials (docs/semantics.md, section 16) merges S partial
// attention results by their log-sum-exp. The decomposition is the
// definition written as linalg: the row maximum of the partial lse, the
// weights exp(lse_s - m) (0 for a partial with lse -inf, whose output is
// never multiplied, so that its contents, NaN included, cannot leak), their
// sum, the weighted sum of the outputs, and the division, with rows whose
// partials are all empty set to output 0 and lse -inf.
//
//===----------------------------------------------------------------------===//

#include "OpVerification.h"
#include "attnopt/Dialect/Attn/IR/AttnOps.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"

#include <limits>

using namespace mlir;
using namespace mlir::attn;
using namespace mlir::attn::opverify;

//===----------------------------------------------------------------------===//
// Verifier
//===----------------------------------------------------------------------===//

namespace {
bool isFloatElement(Type t) { return t.isF16() || t.isBF16() || t.isF32(); }

/// `type` has the shape `expected` (dynamic sizes on either side match).
LogicalResult verifyShape(Operation *op, StringRef name, RankedTensorType type,
                          ArrayRef<int64_t> expected, StringRef what) {
  if (type.getRank() != static_cast<int64_t>(expected.size()))
    return op->emitOpError()
           << name << ": expected rank " << expected.size() << " (" << what
           << "), got rank " << type.getRank() << " (" << type << ")";
  for (auto [i, size] : llvm::enumerate(expected)) {
    int64_t actual = type.getDimSize(i);
    if (!ShapedType::isDynamic(size) && !ShapedType::isDynamic(actual) &&
        size != actual)
      return op->emitOpError()
             << name << ": expected dimension " << i << " to be " << size
             << " (" << what << "), got " << actual;
  }
  return success();
}
} // namespace

LogicalResult MergePartialsOp::verify() {
  if (failed(verifyNoEncodings(*this)) ||
      failed(verifyNoStrayAttributes(*this)))
    return failure();
  RankedTensorType partial = getPartialOutputType();
  auto partialLse = cast<RankedTensorType>(getPartialLse().getType());
  if (partial.getRank() < 3)
    return emitOpError("partial_output: expected rank >= 3 ([S, d..., Dv] "
                       "with at least one d), got rank ")
           << partial.getRank() << " (" << partial << ")";
  if (!isFloatElement(partial.getElementType()))
    return emitOpError("partial_output: expected element type f16, bf16 or "
                       "f32, got ")
           << partial.getElementType();
  if (getSplits() == 0)
    return emitOpError("partial_output: expected at least one partial "
                       "(dimension 0), got 0");
  ArrayRef<int64_t> shape = partial.getShape();
  if (!partialLse.getElementType().isF32())
    return emitOpError("partial_lse: expected element type f32, got ")
           << partialLse.getElementType();
  if (failed(verifyShape(*this, "partial_lse", partialLse, shape.drop_back(),
                         "partial_output's shape without Dv")))
    return failure();
  RankedTensorType out = getOutputType();
  if (!isFloatElement(out.getElementType()))
    return emitOpError("output: expected element type f16, bf16 or f32, got ")
           << out.getElementType();
  if (failed(verifyShape(*this, "output", out, shape.drop_front(),
                         "partial_output's shape without S")))
    return failure();
  if (Value lse = getLse()) {
    auto lseType = cast<RankedTensorType>(lse.getType());
    if (!lseType.getElementType().isF32())
      return emitOpError("lse: expected element type f32, got ")
             << lseType.getElementType();
    if (failed(verifyShape(*this, "lse", lseType,
                           shape.drop_front().drop_back(),
                           "partial_output's shape without S and Dv")))
      return failure();
  }
  return success();
}

//===----------------------------------------------------------------------===//
// Decomposition
//===----------------------------------------------------------------------===//

namespace {
/// Builds the linalg form of one merge. Loops are (d..., [e,] s): the rows,
/// the value column where a tensor has one, and the partials last.
class MergeBuilder {
public:
  MergeBuilder(OpBuilder &b, MergePartialsOp op)
      : b(b), loc(op.getLoc()), op(op),
        rows(op.getPartialOutputType().getRank() - 2) {}

  /// m[d...] = max_s partial_lse[s, d...].
  Value rowMax();
  /// sum_s w_s [d...].
  Value weightSum(Value m);
  /// sum_s w_s partial_output[s, d..., e] (f32).
  Value weightedOutputs(Value m);
  /// output[d..., e] = acc / sum (0 for an empty row), in the output type.
  Value output(Value m, Value acc, Value sum);
  /// lse[d...] = m + log(sum) (-inf for an empty row).
  Value lse(Value m, Value sum);

private:
  Value f32(OpBuilder &nb, float v) {
    return arith::ConstantOp::create(nb, loc, nb.getF32FloatAttr(v));
  }
  Value negInf(OpBuilder &nb) {
    return f32(nb, -std::numeric_limits<float>::infinity());
  }
  Value isNegInf(OpBuilder &nb, Value x) {
    return arith::CmpFOp::create(nb, loc, arith::CmpFPredicate::OEQ, x,
                                 negInf(nb));
  }
  /// exp(l - m) with m = 0 for an empty row; 0 where l = -inf.
  Value weight(OpBuilder &nb, Value l, Value m) {
    Value safe = arith::SelectOp::create(nb, loc, isNegInf(nb, m), f32(nb, 0),
                                         m);
    Value w = math::ExpOp::create(nb, loc,
                                  arith::SubFOp::create(nb, loc, l, safe));
    return arith::SelectOp::create(nb, loc, isNegInf(nb, l), f32(nb, 0), w);
  }
  /// An f32 tensor of the row dims (and Dv with `column`) filled with `v`.
  Value filled(bool column, float v);
  /// The map from the loops (d..., [e,] s), with the column loop e iff
  /// `withColumnLoop`, to a tensor indexed by [s,] d... [, e].
  AffineMap map(bool withColumnLoop, bool partial, bool column);
  SmallVector<utils::IteratorType> iterators(bool withColumnLoop,
                                             bool reduceOverPartials);
  Value generic(Type resultType, ValueRange ins, Value init,
                ArrayRef<AffineMap> maps,
                ArrayRef<utils::IteratorType> iterators,
                function_ref<Value(OpBuilder &, ValueRange)> body);

  OpBuilder &b;
  Location loc;
  MergePartialsOp op;
  int64_t rows; ///< the number of row dims d...
};

Value MergeBuilder::filled(bool column, float v) {
  Value partial = op.getPartialOutput();
  SmallVector<OpFoldResult> sizes;
  for (int64_t d = 1; d <= rows + (column ? 1 : 0); ++d)
    sizes.push_back(tensor::getMixedSize(b, loc, partial, d));
  Value empty = tensor::EmptyOp::create(b, loc, sizes, b.getF32Type());
  return linalg::FillOp::create(b, loc, f32(b, v), empty).getResult(0);
}

AffineMap MergeBuilder::map(bool withColumnLoop, bool partial, bool column) {
  const int64_t loops = rows + (withColumnLoop ? 1 : 0) + 1;
  SmallVector<AffineExpr> exprs;
  if (partial)
    exprs.push_back(b.getAffineDimExpr(loops - 1));
  for (int64_t d = 0; d < rows; ++d)
    exprs.push_back(b.getAffineDimExpr(d));
  if (column)
    exprs.push_back(b.getAffineDimExpr(rows));
  return AffineMap::get(loops, 0, exprs, b.getContext());
}

SmallVector<utils::IteratorType>
MergeBuilder::iterators(bool withColumnLoop, bool reduceOverPartials) {
  SmallVector<utils::IteratorType> it(rows + (withColumnLoop ? 1 : 0),
                                      utils::IteratorType::parallel);
  if (reduceOverPartials)
    it.push_back(utils::IteratorType::reduction);
  return it;
}

Value MergeBuilder::generic(Type resultType, ValueRange ins, Value init,
                            ArrayRef<AffineMap> maps,
                            ArrayRef<utils::IteratorType> iterators,
                            function_ref<Value(OpBuilder &, ValueRange)> body) {
  return linalg::GenericOp::create(
             b, loc, TypeRange{resultType}, ins, ValueRange{init}, maps,
             iterators,
             [&](OpBuilder &nb, Location, ValueRange args) {
               linalg::YieldOp::create(nb, loc, body(nb, args));
             })
      .getResult(0);
}

Value MergeBuilder::rowMax() {
  Value init = filled(/*column=*/false, -std::numeric_limits<float>::infinity());
  return generic(init.getType(), op.getPartialLse(), init,
                 {map(false, true, false), map(false, false, false)},
                 iterators(false, true), [&](OpBuilder &nb, ValueRange a) {
                   return arith::MaximumFOp::create(nb, loc, a[0], a[1]);
                 });
}

Value MergeBuilder::weightSum(Value m) {
  Value init = filled(/*column=*/false, 0.0f);
  return generic(
      init.getType(), ValueRange{op.getPartialLse(), m}, init,
      {map(false, true, false), map(false, false, false),
       map(false, false, false)},
      iterators(false, true), [&](OpBuilder &nb, ValueRange a) {
        return arith::AddFOp::create(nb, loc, a[2], weight(nb, a[0], a[1]));
      });
}

Value MergeBuilder::weightedOutputs(Value m) {
  Value init = filled(/*column=*/true, 0.0f);
  return generic(
      init.getType(), ValueRange{op.getPartialOutput(), op.getPartialLse(), m},
      init,
      {map(true, true, true), map(true, true, false), map(true, false, false),
       map(true, false, true)},
      iterators(true, true), [&](OpBuilder &nb, ValueRange a) {
        Value o = a[0];
        if (!o.getType().isF32())
          o = arith::ExtFOp::create(nb, loc, nb.getF32Type(), o);
        // An empty partial adds 0, not 0 times its (unread) output.
        Value term = arith::SelectOp::create(
            nb, loc, isNegInf(nb, a[1]), f32(nb, 0),
            arith::MulFOp::create(nb, loc, weight(nb, a[1], a[2]), o));
        return arith::AddFOp::create(nb, loc, a[3], term);
      });
}

Value MergeBuilder::output(Value m, Value acc, Value sum) {
  RankedTensorType type = op.getOutputType();
  SmallVector<OpFoldResult> sizes;
  for (int64_t d = 0; d < type.getRank(); ++d)
    sizes.push_back(tensor::getMixedSize(b, loc, acc, d));
  Value init = tensor::EmptyOp::create(b, loc, sizes, type.getElementType());
  // Loops (d..., e) only: the maps of the (d..., e, s) space less s.
  auto dropPartial = [&](AffineMap full) {
    return AffineMap::get(rows + 1, 0, full.getResults(), b.getContext());
  };
  Value out = linalg::GenericOp::create(
                  b, loc, TypeRange{init.getType()}, ValueRange{acc, sum, m},
                  ValueRange{init},
                  ArrayRef<AffineMap>{dropPartial(map(true, false, true)),
                                      dropPartial(map(true, false, false)),
                                      dropPartial(map(true, false, false)),
                                      dropPartial(map(true, false, true))},
                  iterators(true, false),
                  [&](OpBuilder &nb, Location, ValueRange a) {
                    Value v = arith::DivFOp::create(nb, loc, a[0], a[1]);
                    v = arith::SelectOp::create(nb, loc, isNegInf(nb, a[2]),
                                                f32(nb, 0), v);
                    if (!type.getElementType().isF32())
                      v = arith::TruncFOp::create(nb, loc,
                                                  type.getElementType(), v);
                    linalg::YieldOp::create(nb, loc, v);
                  })
                  .getResult(0);
  if (out.getType() != type)
    out = tensor::CastOp::create(b, loc, type, out);
  return out;
}

Value MergeBuilder::lse(Value m, Value sum) {
  auto type = cast<RankedTensorType>(op.getLse().getType());
  auto rowMap = AffineMap::getMultiDimIdentityMap(rows, b.getContext());
  Value init = filled(/*column=*/false, 0.0f);
  Value out = linalg::GenericOp::create(
                  b, loc, TypeRange{init.getType()}, ValueRange{m, sum},
                  ValueRange{init},
                  ArrayRef<AffineMap>{rowMap, rowMap, rowMap},
                  iterators(false, false),
                  [&](OpBuilder &nb, Location, ValueRange a) {
                    Value v = arith::AddFOp::create(
                        nb, loc, a[0], math::LogOp::create(nb, loc, a[1]));
                    linalg::YieldOp::create(
                        nb, loc,
                        arith::SelectOp::create(nb, loc, isNegInf(nb, a[0]),
                                                negInf(nb), v)
                            .getResult());
                  })
                  .getResult(0);
  if (out.getType() != type)
    out = tensor::CastOp::create(b, loc, type, out);
  return out;
}
} // namespace

FailureOr<SmallVector<Value>>
MergePartialsOp::decomposeOperation(OpBuilder &b) {
  MergeBuilder mb(b, *this);
  Value m = mb.rowMax();
  Value sum = mb.weightSum(m);
  Value acc = mb.weightedOutputs(m);
  SmallVector<Value> results = {mb.output(m, acc, sum)};
  if (getLse())
    results.push_back(mb.lse(m, sum));
  return results;
}
