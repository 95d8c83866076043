//===- PagedKernels.cpp - kernels of a paged key/value cache --------------===//
//
// attn.paged_attention on the GPU: the split-KV forward group
// (SplitKVKernels.cpp) whose split_kv stage reads K and V through the block
// table (GlobalRows::Pages in the tile copies: one table read per tile
// where a page holds whole key blocks, one per row otherwise) and takes
// each block's key length from cache_seqlens. The kernel interface is
// docs/kernel-manifest.md, "Paged key/value caches".
//
//===----------------------------------------------------------------------===//

#include "KernelCommon.h"
#include "TensorCoreKernel.h"
#include "attnopt/Dialect/Attn/Utils/SizeLimits.h"

using namespace mlir;
using namespace mlir::attn;

LogicalResult kernel::checkPagedKernel(PagedAttentionOp op,
                                       KernelChoice choice) {
  if (failed(checkSizeLimits(op, "GPU code generation")))
    return failure();
  // The batch (dimension 0 of query, block table, cache lengths and the
  // results), the page count (dimension 0 of the caches) and the block
  // table's width (its dimension 1) may be run-time sizes; everything else
  // is compiled in.
  auto batchOrPages = [&](Value v) {
    return v == op.getKey() || v == op.getValue() ? "the page count"
                                                  : "the batch";
  };
  SmallVector<Value> tensors(op->getOperands());
  llvm::append_range(tensors, op->getResults());
  for (Value v : tensors) {
    auto t = dyn_cast<RankedTensorType>(v.getType());
    if (!t)
      continue;
    for (int64_t d = 1; d < t.getRank(); ++d)
      if (t.isDynamicDim(d) && !(v == op.getBlockTable() && d == 1))
        return op.emitOpError("GPU code generation: ")
               << t << " is dynamic at dimension " << d << "; only "
               << batchOrPages(v)
               << " (dimension 0) and the block table's width may be "
                  "run-time sizes for a paged cache";
  }
  using kernel::SizeUse;
  if (failed(
          kernel::checkOneSize(op, "the batch",
                               {SizeUse{"query", 0}, SizeUse{"block_table", 0},
                                SizeUse{"cache_seqlens", 0},
                                SizeUse{"output", 0}, SizeUse{"lse", 0}})) ||
      failed(kernel::checkOneSize(
          op, "the page count",
          {SizeUse{"key_cache", 0}, SizeUse{"value_cache", 0}})))
    return failure();
  for (Value v :
       {op.getQuery(), op.getKey(), op.getValue(), op.getBlockTable()}) {
    auto t = cast<RankedTensorType>(v.getType());
    if (llvm::is_contained(t.getShape(), 0))
      return op.emitOpError("GPU code generation: empty ")
             << (v == op.getQuery()        ? "query"
                 : v == op.getBlockTable() ? "block table"
                                           : "key/value cache")
             << " (" << t << "): the kernels need every size >= 1";
  }
  RankedTensorType q = op.getQueryType();
  if (q.getDimSize(0) > 65535)
    return op.emitOpError("GPU code generation: batch ")
           << q.getDimSize(0) << " exceeds the grid's 65535 blocks";
  if (choice == KernelChoice::CudaCore)
    return op.emitOpError("GPU code generation: a paged cache has no "
                          "CUDA-core kernel (--kernel=cuda-core)");
  std::string whyNot;
  if (!tc::isEligible(op, whyNot))
    return op.emitOpError("GPU code generation: a paged cache needs the "
                          "tensor-core kernel, which does not apply: ")
           << whyNot;
  return success();
}

llvm::json::Object mlir::attn::kernelManifestEntry(PagedAttentionOp op,
                                                   const KernelSpec &spec) {
  llvm::json::Object entry = kernel::manifestFields(op, spec);
  entry["op"] = "paged_attention";
  entry["has_lse"] = static_cast<bool>(op.getLse());
  entry["stage"] = abi::stageName(spec.stage);
  entry["group"] = spec.group;
  entry["page_size"] = op.getPageSize();
  const int64_t pages = op.getKeyType().getDimSize(0);
  entry["num_pages"] = ShapedType::isDynamic(pages) ? llvm::json::Value(nullptr)
                                                    : llvm::json::Value(pages);
  const int64_t width =
      cast<ShapedType>(op.getBlockTable().getType()).getDimSize(1);
  entry["max_pages_per_seq"] = ShapedType::isDynamic(width)
                                   ? llvm::json::Value(nullptr)
                                   : llvm::json::Value(width);
  return entry;
}
