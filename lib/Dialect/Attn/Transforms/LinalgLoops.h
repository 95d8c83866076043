//===- LinalgLoops.h - loop queries on linalg generics ----------*- C++ -*-===//
//
// Small queries on a generic's loops and body that attn-normalize-chains'
// patterns (NormalizeAttentionChains.cpp, PeelFusedProducers.cpp,
// RestoreUnitRowReductions.cpp, RestoreUnitQueryDims.cpp,
// FoldDynamicBroadcastGathers.cpp, HoistCastsAboveBroadcasts.cpp) and attn-fuse
// (MatchSafeSoftmax.cpp) share.
//
//===----------------------------------------------------------------------===//

#ifndef ATTNOPT_LIB_DIALECT_ATTN_TRANSFORMS_LINALGLOOPS_H
#define ATTNOPT_LIB_DIALECT_ATTN_TRANSFORMS_LINALGLOOPS_H

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "llvm/ADT/SmallBitVector.h"

namespace mlir::attn {

/// The loops of `op` that its inputs' indexing maps or its body's
/// linalg.index ops read (a loop only the result has is not set).
inline llvm::SmallBitVector loopsReadByInputs(linalg::GenericOp op) {
  llvm::SmallBitVector read(op.getNumLoops());
  for (OpOperand *input : op.getDpsInputOperands())
    for (AffineExpr e : op.getMatchingIndexingMap(input).getResults())
      e.walk([&](AffineExpr sub) {
        if (auto dim = dyn_cast<AffineDimExpr>(sub))
          read.set(dim.getPosition());
      });
  for (linalg::IndexOp index : op.getBody()->getOps<linalg::IndexOp>())
    read.set(index.getDim());
  return read;
}

/// The one statement of `op`'s body if it is an `OpTy` whose result the
/// body yields (a one-op generic: `exp(x)`, `x - y`, an and-reduction).
template <typename OpTy> OpTy soleStatement(linalg::GenericOp op) {
  Block *body = op.getBody();
  if (!llvm::hasSingleElement(body->without_terminator()))
    return {};
  auto stmt = dyn_cast<OpTy>(&body->front());
  if (!stmt || body->getTerminator()->getNumOperands() != 1 ||
      body->getTerminator()->getOperand(0) != stmt->getResult(0))
    return {};
  return stmt;
}

/// Whether `op` only copies or broadcasts its one input: all loops
/// parallel, an identity result map, and a body that yields the input.
inline bool isCopyOfInput(linalg::GenericOp op) {
  if (!op || !op.hasPureTensorSemantics() || op.getNumDpsInputs() != 1 ||
      op.getNumDpsInits() != 1 ||
      op.getNumParallelLoops() != op.getNumLoops() ||
      !op.getMatchingIndexingMap(op.getDpsInitOperand(0)).isIdentity())
    return false;
  Operation *yield = op.getBody()->getTerminator();
  return yield->getNumOperands() == 1 &&
         yield->getOperand(0) == op.getBody()->getArgument(0);
}

/// A generic copying `source`, read through `read`, into `init` (all loops
/// parallel, identity result map): a broadcast where `read` drops or zeroes
/// dims.
inline linalg::GenericOp createCopyThroughMap(OpBuilder &b, Location loc,
                                              Value source, AffineMap read,
                                              Value init) {
  int64_t rank = cast<ShapedType>(init.getType()).getRank();
  return linalg::GenericOp::create(
      b, loc, init.getType(), ValueRange{source}, ValueRange{init},
      ArrayRef<AffineMap>{read, b.getMultiDimIdentityMap(rank)},
      SmallVector<utils::IteratorType>(rank, utils::IteratorType::parallel),
      [](OpBuilder &nested, Location l, ValueRange args) {
        linalg::YieldOp::create(nested, l, args[0]);
      });
}

/// Whether `op`'s body sums products of its two inputs, `acc + a * b`
/// (possibly through casts): a contraction's body, or a matrix-vector
/// product's, which linalg's contraction interface does not take.
inline bool sumsProducts(linalg::GenericOp op) {
  return op.getNumDpsInputs() == 2 &&
         linalg::detail::isContractionBody(
             *op.getBody(), [](Operation *mul, Operation *add) {
               return isa<arith::MulFOp>(mul) && isa<arith::AddFOp>(add);
             });
}

/// Whether `shape` has at most one non-unit dim in each group, i.e. the
/// reshape only adds or removes unit dims.
inline bool onlyUnitDims(ArrayRef<int64_t> shape,
                         ArrayRef<ReassociationIndices> groups) {
  return llvm::all_of(groups, [&](const ReassociationIndices &group) {
    return llvm::count_if(group, [&](int64_t d) { return shape[d] != 1; }) <= 1;
  });
}

/// Whether `op` is a tensor.expand_shape or tensor.collapse_shape that only
/// adds or removes unit dims.
inline bool reshapesOnlyUnitDims(Operation *op) {
  if (auto expand = dyn_cast<tensor::ExpandShapeOp>(op))
    return onlyUnitDims(expand.getResultType().getShape(),
                        expand.getReassociationIndices());
  if (auto collapse = dyn_cast<tensor::CollapseShapeOp>(op))
    return onlyUnitDims(collapse.getSrcType().getShape(),
                        collapse.getReassociationIndices());
  return false;
}

} // namespace mlir::attn

#endif // ATTNOPT_LIB_DIALECT_ATTN_TRANSFORMS_LINALGLOOPS_H
