//===- DecomposeAttention.cpp - attn-decompose pass -----------------------===//
//
// Thin driver: the decompositions themselves are the ops' AggregatedOpInterface
// implementations (lib/Dialect/Attn/IR/AggregatedOpInterfaceImpl.cpp for
// attn.attention, AttentionGradDecomposition.cpp for attn.attention_grad,
// VarlenDecomposition.cpp for the packed-batch ops).
//
//===----------------------------------------------------------------------===//

#include "attnopt/Dialect/Attn/Transforms/Passes.h"
#include "attnopt/Dialect/Attn/Transforms/Transforms.h"

#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/IR/PatternMatch.h"

namespace mlir::attn {
#define GEN_PASS_DEF_ATTNDECOMPOSEPASS
#include "attnopt/Dialect/Attn/Transforms/Passes.h.inc"

namespace {
struct AttnDecomposePass final
    : impl::AttnDecomposePassBase<AttnDecomposePass> {
  using Base::Base;

  void runOnOperation() override {
    // Packed batches first: they become attn.attention(_grad) ops, which
    // are then decomposed into linalg like the others.
    IRRewriter rewriter(&getContext());
    if (failed(expandPackedBatches(rewriter, getOperation())))
      return signalPassFailure();
    SmallVector<linalg::AggregatedOpInterface> ops;
    getOperation()->walk([&](Operation *op) {
      if (isa<AttentionOp, AttentionGradOp>(op))
        ops.push_back(cast<linalg::AggregatedOpInterface>(op));
    });
    for (linalg::AggregatedOpInterface op : ops) {
      rewriter.setInsertionPoint(op);
      FailureOr<SmallVector<Value>> results = op.decomposeOperation(rewriter);
      if (failed(results))
        return signalPassFailure();
      rewriter.replaceOp(op, *results);
    }
  }
};
} // namespace
} // namespace mlir::attn
