//===- SizeLimits.cpp - the problem sizes the tools support ---------------===//

#include "attnopt/Dialect/Attn/Utils/SizeLimits.h"

#include "llvm/Support/MathExtras.h"

using namespace mlir;
using namespace mlir::attn;

std::optional<int64_t> mlir::attn::checkedProduct(ArrayRef<int64_t> sizes) {
  int64_t product = 1;
  for (int64_t s : sizes) {
    if (s < 0 || ShapedType::isDynamic(s))
      return std::nullopt;
    if (llvm::MulOverflow(product, s, product))
      return std::nullopt;
  }
  return product;
}

LogicalResult mlir::attn::checkSizeLimits(Operation *op, StringRef tool) {
  auto check = [&](Type t, StringRef what, unsigned i) -> LogicalResult {
    auto ranked = dyn_cast<RankedTensorType>(t);
    if (!ranked)
      return success();
    // Dims 0..2 of a rank-4 operand are batch, heads and length; dim 3 a
    // head dim (masks: batch, heads, query, key - all sequence-like).
    bool headDimLast = ranked.getRank() == 4 &&
                       !ranked.getElementType().isSignlessInteger(1) &&
                       what != "mask";
    for (auto [d, size] : llvm::enumerate(ranked.getShape())) {
      if (ShapedType::isDynamic(size))
        continue;
      bool headDim = headDimLast && d == 3;
      int64_t limit = headDim ? kMaxHeadDim : kMaxSequenceDim;
      if (size > limit)
        return op->emitError()
               << tool << ": " << what << " #" << i << " (" << ranked
               << "): dimension " << d << " is " << size
               << ", above the supported " << (headDim ? "head dim " : "size ")
               << limit << (headDim ? " (2^16)" : " (2^31 - 1)");
    }
    if (ranked.hasStaticShape()) {
      std::optional<int64_t> n = checkedProduct(ranked.getShape());
      if (!n || *n > kMaxTensorElements)
        return op->emitError()
               << tool << ": " << what << " #" << i << " (" << ranked
               << ") has more than 2^56 elements, the supported maximum";
    }
    return success();
  };
  auto iface = dyn_cast<AttentionOpInterface>(op);
  for (OpOperand &use : op->getOpOperands()) {
    StringRef what = "operand";
    if (iface &&
        (use.get() == iface.getMask() || use.get() == iface.getDropoutMask()))
      what = "mask";
    if (failed(check(use.get().getType(), what, use.getOperandNumber())))
      return failure();
  }
  for (auto [i, t] : llvm::enumerate(op->getResultTypes()))
    if (failed(check(t, "result", i)))
      return failure();
  return success();
}
