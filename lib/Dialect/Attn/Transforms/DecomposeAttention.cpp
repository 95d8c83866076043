//===- DecomposeAttention.cpp - attn-decompose pass -----------------------===//
//
// Thin driver: the decomposition itself is AttentionOp::decomposeOperation
// (lib/Dialect/Attn/IR/AggregatedOpInterfaceImpl.cpp).
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
    SmallVector<AttentionOp> ops;
    getOperation()->walk([&](AttentionOp op) { ops.push_back(op); });
    IRRewriter rewriter(&getContext());
    for (AttentionOp op : ops) {
      FailureOr<SmallVector<Value>> results = op.decomposeOperation(rewriter);
      if (failed(results))
        return signalPassFailure();
      rewriter.replaceOp(op, *results);
    }
  }
};
} // namespace
} // namespace mlir::attn
