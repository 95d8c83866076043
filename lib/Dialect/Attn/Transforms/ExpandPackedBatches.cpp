//===- ExpandPackedBatches.cpp - packed batches as masked dense ops -------===//
//
// The rewrite attn-decompose and attn-tile share: every packed-batch op
// becomes its definition, the batch-1 dense op over the concatenated
// sequence with a block-diagonal mask (VarlenDecomposition.cpp). Correct
// for every lowering of the dense op, though not efficient: the dense form
// does not know that most of its (query block, key block) pairs belong to
// different sequences. A paged cache (attn.paged_attention) likewise
// becomes its definition, the dense op over the gathered cache with a
// length mask (PagedAttention.cpp), and attn.merge_partials its linalg
// definition (MergePartials.cpp): it has no tiled form of its own.
//
//===----------------------------------------------------------------------===//

#include "attnopt/Dialect/Attn/Transforms/Transforms.h"

using namespace mlir;
using namespace mlir::attn;

LogicalResult mlir::attn::expandPackedBatches(RewriterBase &rewriter,
                                              Operation *root) {
  SmallVector<linalg::AggregatedOpInterface> ops;
  root->walk([&](Operation *op) {
    if (isa<VarlenAttentionOp, VarlenAttentionGradOp, PagedAttentionOp,
            MergePartialsOp>(op))
      ops.push_back(cast<linalg::AggregatedOpInterface>(op));
  });
  for (linalg::AggregatedOpInterface op : ops) {
    OpBuilder::InsertionGuard guard(rewriter);
    rewriter.setInsertionPoint(op);
    FailureOr<SmallVector<Value>> results = op.decomposeOperation(rewriter);
    if (failed(results))
      return failure();
    rewriter.replaceOp(op, *results);
  }
  return success();
}
