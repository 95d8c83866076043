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
  for (Value v : op->getOperands())
    if (auto t = dyn_cast<RankedTensorType>(v.getType());
        t && !t.hasStaticShape())
      return op.emitOpError("GPU code generation needs static shapes for a "
                            "paged cache (the cache lengths are the run-time "
                            "sizes): ")
             << t << " is dynamic";
  RankedTensorType q = op.getQueryType();
  for (int64_t d = 0; d < 4; ++d)
    if (q.getDimSize(d) == 0)
      return op.emitOpError("GPU code generation: empty query (")
             << q << "): the kernels need every size >= 1";
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
  entry["stage"] = spec.stage;
  entry["group"] = spec.group;
  entry["page_size"] = op.getPageSize();
  entry["num_pages"] = op.getKeyType().getDimSize(0);
  entry["max_pages_per_seq"] =
      cast<ShapedType>(op.getBlockTable().getType()).getDimSize(1);
  return entry;
}
