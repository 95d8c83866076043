//===- VarlenDecomposition.cpp - packed batches as one masked attention ---===//
//
// VarlenAttentionOp / VarlenAttentionGradOp::decomposeOperation. A packed
// variable-length batch is, by definition (docs/semantics.md, section 14),
// the batch-1 attention over the concatenated sequence with a
// block-diagonal boolean mask: query token t sees key token u iff both
// belong to the same sequence and the causal/window rules allow (t, u) at
// their positions inside that sequence, with that sequence's lengths. The
// decomposition builds exactly that: the tensors transposed to [1, H, T, X],
// the [1, 1, Tq, Tk] mask from the offsets, one attn.attention (or
// attn.attention_grad) without causal or window, and the results transposed
// back. It is quadratic in the token totals on purpose: it is the reference
// the packed kernels are validated against, and it reuses the dense
// reference rather than restating it.
//
// The offsets are assumed valid (0 first, non-decreasing, the totals last):
// the verifier checks constant ones, the runtime checks the others before
// launch.
//
//===----------------------------------------------------------------------===//

#include "attnopt/Dialect/Attn/IR/AttnOps.h"
#include "attnopt/Dialect/Attn/Utils/ScoreModifiers.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Arith/Utils/Utils.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"

using namespace mlir;
using namespace mlir::attn;

namespace {

/// Converts between the packed and the batch-1 dense forms of one op.
class PackedBatchBuilder {
public:
  PackedBatchBuilder(OpBuilder &b, AttentionOpInterface op, Value cuQ,
                     Value cuK)
      : b(b), loc(op.getLoc()), op(op), cuQ(cuQ), cuK(cuK),
        mods(ScoreModifiers::get(op)) {}

  /// A packed [T, H, X] tensor as the dense [1, H, T, X].
  Value toDense(Value packed);
  /// A dense [1, H, T, X] result as the packed [T, H, X] of `packedType`.
  Value toPacked(Value dense, Type packedType);
  /// The packed lse [Hq, Tq] as the dense [1, Hq, Tq], and back.
  Value lseToDense(Value lse);
  Value lseToPacked(Value lse, Type packedType);
  /// The i1 [1, 1, Tq, Tk] mask: (t, u) allowed iff same sequence and the
  /// causal/window rules allow it inside that sequence.
  Value blockDiagonalMask();
  /// The score attributes of the dense op: the effective scale (explicit),
  /// softcap and dropout_p; causal and window are in the mask.
  FloatAttr scaleAttr() { return b.getF32FloatAttr(op.getEffectiveScale()); }
  CausalModeAttr noCausal() {
    return CausalModeAttr::get(b.getContext(), CausalMode::none);
  }

private:
  Value dimOf(Value tensor, int64_t dim) {
    return getValueOrCreateConstantIndexOp(b, loc, mixedDim(tensor, dim));
  }
  OpFoldResult mixedDim(Value tensor, int64_t dim) {
    return tensor::getMixedSize(b, loc, tensor, dim);
  }
  Value transpose(Value source, ArrayRef<int64_t> perm);
  /// [T] i32: the index of the sequence each of the `tokens` tokens
  /// belongs to, sum over b < B of (offsets[b + 1] <= t).
  Value sequenceOfToken(Value offsets, Value tokens);

  OpBuilder &b;
  Location loc;
  AttentionOpInterface op;
  Value cuQ, cuK;
  ScoreModifiers mods;
};

Value PackedBatchBuilder::transpose(Value source, ArrayRef<int64_t> perm) {
  auto type = cast<RankedTensorType>(source.getType());
  SmallVector<OpFoldResult> sizes;
  for (int64_t d : perm)
    sizes.push_back(mixedDim(source, d));
  Value init = tensor::EmptyOp::create(b, loc, sizes, type.getElementType());
  return linalg::TransposeOp::create(b, loc, source, init, perm).getResult()[0];
}

Value PackedBatchBuilder::toDense(Value packed) {
  Value headMajor = transpose(packed, {1, 0, 2});
  auto type = cast<RankedTensorType>(headMajor.getType());
  SmallVector<int64_t> shape = {1};
  llvm::append_range(shape, type.getShape());
  auto denseType = RankedTensorType::get(shape, type.getElementType());
  return tensor::ExpandShapeOp::create(
             b, loc, denseType, headMajor,
             ArrayRef<ReassociationIndices>{{0, 1}, {2}, {3}})
      .getResult();
}

Value PackedBatchBuilder::toPacked(Value dense, Type packedType) {
  auto type = cast<RankedTensorType>(dense.getType());
  auto headMajorType = RankedTensorType::get(type.getShape().drop_front(),
                                             type.getElementType());
  Value headMajor = tensor::CollapseShapeOp::create(
                        b, loc, headMajorType, dense,
                        ArrayRef<ReassociationIndices>{{0, 1}, {2}, {3}})
                        .getResult();
  Value packed = transpose(headMajor, {1, 0, 2});
  if (packed.getType() == packedType)
    return packed;
  return tensor::CastOp::create(b, loc, packedType, packed).getResult();
}

Value PackedBatchBuilder::lseToDense(Value lse) {
  auto type = cast<RankedTensorType>(lse.getType());
  SmallVector<int64_t> shape = {1};
  llvm::append_range(shape, type.getShape());
  return tensor::ExpandShapeOp::create(
             b, loc, RankedTensorType::get(shape, type.getElementType()), lse,
             ArrayRef<ReassociationIndices>{{0, 1}, {2}})
      .getResult();
}

Value PackedBatchBuilder::lseToPacked(Value lse, Type packedType) {
  auto type = cast<RankedTensorType>(lse.getType());
  Value packed = tensor::CollapseShapeOp::create(
                     b, loc,
                     RankedTensorType::get(type.getShape().drop_front(),
                                           type.getElementType()),
                     lse, ArrayRef<ReassociationIndices>{{0, 1}, {2}})
                     .getResult();
  if (packed.getType() == packedType)
    return packed;
  return tensor::CastOp::create(b, loc, packedType, packed).getResult();
}

Value PackedBatchBuilder::sequenceOfToken(Value offsets, Value tokens) {
  // ends = offsets[1 : B + 1], the end of each sequence.
  Value one = arith::ConstantIndexOp::create(b, loc, 1);
  Value batch = arith::SubIOp::create(b, loc, dimOf(offsets, 0), one);
  Value ends = tensor::ExtractSliceOp::create(
      b, loc, offsets, ArrayRef<OpFoldResult>{b.getIndexAttr(1)},
      ArrayRef<OpFoldResult>{batch}, ArrayRef<OpFoldResult>{b.getIndexAttr(1)});
  Type i32 = b.getI32Type();
  Value zero = arith::ConstantIntOp::create(b, loc, i32, 0);
  SmallVector<OpFoldResult> size = {getAsOpFoldResult(tokens)};
  Value empty = tensor::EmptyOp::create(b, loc, size, i32);
  Value init = linalg::FillOp::create(b, loc, zero, empty).getResult(0);
  AffineExpr t, s;
  bindDims(b.getContext(), t, s);
  auto map = [&](ArrayRef<AffineExpr> r) {
    return AffineMap::get(2, 0, r, b.getContext());
  };
  return linalg::GenericOp::create(
             b, loc, TypeRange{init.getType()}, ValueRange{ends},
             ValueRange{init}, ArrayRef<AffineMap>{map({s}), map({t})},
             ArrayRef<utils::IteratorType>{utils::IteratorType::parallel,
                                           utils::IteratorType::reduction},
             [&](OpBuilder &nb, Location l, ValueRange args) {
               Value token = arith::IndexCastOp::create(
                   nb, l, nb.getI32Type(), linalg::IndexOp::create(nb, l, 0));
               Value ended = arith::CmpIOp::create(
                   nb, l, arith::CmpIPredicate::sle, args[0], token);
               Value count =
                   arith::ExtUIOp::create(nb, l, nb.getI32Type(), ended);
               linalg::YieldOp::create(
                   nb, l,
                   arith::AddIOp::create(nb, l, args[1], count).getResult());
             })
      .getResult(0);
}

Value PackedBatchBuilder::blockDiagonalMask() {
  Value totalQ = dimOf(op.getQuery(), 0), totalK = dimOf(op.getKey(), 0);
  Value seqQ = sequenceOfToken(cuQ, totalQ);
  Value seqK = sequenceOfToken(cuK, totalK);
  SmallVector<OpFoldResult> shape = {b.getIndexAttr(1), b.getIndexAttr(1),
                                     getAsOpFoldResult(totalQ),
                                     getAsOpFoldResult(totalK)};
  Value init = tensor::EmptyOp::create(b, loc, shape, b.getI1Type());
  AffineExpr d0, d1, d2, d3;
  bindDims(b.getContext(), d0, d1, d2, d3);
  auto map = [&](ArrayRef<AffineExpr> r) {
    return AffineMap::get(4, 0, r, b.getContext());
  };
  auto par = utils::IteratorType::parallel;
  return linalg::GenericOp::create(
             b, loc, TypeRange{init.getType()}, ValueRange{seqQ, seqK},
             ValueRange{init},
             ArrayRef<AffineMap>{map({d2}), map({d3}), map({d0, d1, d2, d3})},
             ArrayRef<utils::IteratorType>{par, par, par, par},
             [&](OpBuilder &nb, Location l, ValueRange args) {
               Value same = arith::CmpIOp::create(
                   nb, l, arith::CmpIPredicate::eq, args[0], args[1]);
               if (!mods.hasPositionalMask()) {
                 linalg::YieldOp::create(nb, l, same);
                 return;
               }
               // Positions and lengths inside the query's sequence (the
               // key's, when it is the same one).
               Value seq = arith::IndexCastOp::create(nb, l, nb.getIndexType(),
                                                      args[0]);
               Value next = arith::AddIOp::create(
                   nb, l, seq, arith::ConstantIndexOp::create(nb, l, 1));
               auto offsetAt = [&](Value offsets, Value i) -> Value {
                 Value v = tensor::ExtractOp::create(nb, l, offsets, i);
                 return arith::IndexCastOp::create(nb, l, nb.getIndexType(), v);
               };
               Value q0 = offsetAt(cuQ, seq), q1 = offsetAt(cuQ, next);
               Value k0 = offsetAt(cuK, seq), k1 = offsetAt(cuK, next);
               Value row = arith::SubIOp::create(
                   nb, l, linalg::IndexOp::create(nb, l, 2), q0);
               Value col = arith::SubIOp::create(
                   nb, l, linalg::IndexOp::create(nb, l, 3), k0);
               Value lenQ = arith::SubIOp::create(nb, l, q1, q0);
               Value lenK = arith::SubIOp::create(nb, l, k1, k0);
               Value allowed =
                   emitPositionAllowed(nb, l, mods, row, col, lenQ, lenK);
               linalg::YieldOp::create(
                   nb, l,
                   arith::AndIOp::create(nb, l, same, allowed).getResult());
             })
      .getResult(0);
}

} // namespace

FailureOr<SmallVector<Value>>
VarlenAttentionOp::decomposeOperation(OpBuilder &b) {
  PackedBatchBuilder pb(b, *this, getCuSeqlensQ(), getCuSeqlensK());
  Value q = pb.toDense(getQuery()), k = pb.toDense(getKey()),
        v = pb.toDense(getValue());
  Value mask = pb.blockDiagonalMask();
  auto qType = cast<RankedTensorType>(q.getType());
  auto vType = cast<RankedTensorType>(v.getType());
  auto outType = RankedTensorType::get(
      {1, qType.getDimSize(1), qType.getDimSize(2), vType.getDimSize(3)},
      qType.getElementType());
  SmallVector<Type> resultTypes = {outType};
  if (getLse())
    resultTypes.push_back(RankedTensorType::get(
        {1, qType.getDimSize(1), qType.getDimSize(2)}, b.getF32Type()));
  auto dense = AttentionOp::create(
      b, getLoc(), resultTypes, q, k, v, mask, Value(), getSeed(), getOffset(),
      pb.scaleAttr(), pb.noCausal(), DenseI64ArrayAttr(), getSoftcapAttr(),
      getSoftcapApproxAttr(), getDropoutPAttr());
  SmallVector<Value> results = {
      pb.toPacked(dense.getOutput(), getOutput().getType())};
  if (getLse())
    results.push_back(pb.lseToPacked(dense.getLse(), getLse().getType()));
  return results;
}

FailureOr<SmallVector<Value>>
VarlenAttentionGradOp::decomposeOperation(OpBuilder &b) {
  PackedBatchBuilder pb(b, *this, getCuSeqlensQ(), getCuSeqlensK());
  Value q = pb.toDense(getQuery()), k = pb.toDense(getKey()),
        v = pb.toDense(getValue());
  Value out = pb.toDense(getOutput()), dOut = pb.toDense(getGradOutput());
  Value lse = pb.lseToDense(getLse());
  Value mask = pb.blockDiagonalMask();
  auto dense = AttentionGradOp::create(
      b, getLoc(), TypeRange{q.getType(), k.getType(), v.getType()}, q, k, v,
      out, lse, dOut, mask, Value(), getSeed(), getOffset(), pb.scaleAttr(),
      pb.noCausal(), DenseI64ArrayAttr(), getSoftcapAttr(),
      getSoftcapApproxAttr(), getDropoutPAttr(), getDeterministicAttr());
  return SmallVector<Value>{
      pb.toPacked(dense.getGradQuery(), getGradQuery().getType()),
      pb.toPacked(dense.getGradKey(), getGradKey().getType()),
      pb.toPacked(dense.getGradValue(), getGradValue().getType())};
}
