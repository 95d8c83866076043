//===- LinalgLoops.h - loop queries on linalg generics ----------*- C++ -*-===//
//
// Small queries on a generic's loops that attn-normalize-chains' patterns
// (NormalizeAttentionChains.cpp, PeelFusedProducers.cpp) share.
//
//===----------------------------------------------------------------------===//

#ifndef ATTNOPT_LIB_DIALECT_ATTN_TRANSFORMS_LINALGLOOPS_H
#define ATTNOPT_LIB_DIALECT_ATTN_TRANSFORMS_LINALGLOOPS_H

#include "mlir/Dialect/Linalg/IR/Linalg.h"
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

} // namespace mlir::attn

#endif // ATTNOPT_LIB_DIALECT_ATTN_TRANSFORMS_LINALGLOOPS_H
