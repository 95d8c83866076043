//===- DecomposeAttention.cpp - attn-decompose pass -----------------------===//
//
// Thin driver: the decompositions themselves are the ops' AggregatedOpInterface
// implementations (lib/Dialect/Attn/IR/AggregatedOpInterfaceImpl.cpp for
// attn.attention, AttentionGradDecomposition.cpp for attn.attention_grad).
//
//===----------------------------------------------------------------------===//

#include "attnopt/Dialect/Attn/Transforms/Passes.h"

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
    SmallVector<linalg::AggregatedOpInterface> ops;
    getOperation()->walk([&](Operation *op) {
      if (isa<AttentionOp, AttentionGradOp>(op))
        ops.push_back(cast<linalg::AggregatedOpInterface>(op));
    });
    IRRewriter rewriter(&getContext());
    for (linalg::AggregatedOpInterface op : ops) {
      FailureOr<SmallVector<Value>> results = op.decomposeOperation(rewriter);
      if (failed(results))
        return signalPassFailure();
      rewriter.replaceOp(op, *results);
    }
  }
};
} // namespace
} // namespace mlir::attn
