//===- AttnDialect.cpp - attn dialect registration ------------------------===//

#include "attnopt/Dialect/Attn/IR/AttnDialect.h"
#include "attnopt/Dialect/Attn/IR/AttnOps.h"

#include "mlir/IR/Builders.h"
#include "mlir/IR/DialectImplementation.h"
#include "llvm/ADT/TypeSwitch.h"

using namespace mlir;
using namespace mlir::attn;

#include "attnopt/Dialect/Attn/IR/AttnEnums.cpp.inc"
#include "attnopt/Dialect/Attn/IR/AttnOpsDialect.cpp.inc"

/// `splits = N` or `splits = ?` of #attn.tiles (? is stored as
/// ShapedType::kDynamic: the chunk count decided at launch).
static FailureOr<std::optional<int64_t>> parseSplitCount(AsmParser &parser) {
  if (succeeded(parser.parseOptionalQuestion()))
    return std::optional<int64_t>(ShapedType::kDynamic);
  int64_t n;
  if (parser.parseInteger(n))
    return failure();
  return std::optional<int64_t>(n);
}
static void printSplitCount(AsmPrinter &printer, std::optional<int64_t> n) {
  if (ShapedType::isDynamic(*n))
    printer << '?';
  else
    printer << *n;
}

#define GET_ATTRDEF_CLASSES
#include "attnopt/Dialect/Attn/IR/AttnAttrs.cpp.inc"

void AttnDialect::initialize() {
  addAttributes<
#define GET_ATTRDEF_LIST
#include "attnopt/Dialect/Attn/IR/AttnAttrs.cpp.inc"
      >();
  addOperations<
#define GET_OP_LIST
#include "attnopt/Dialect/Attn/IR/AttnOps.cpp.inc"
      >();
}

/// The discardable attributes in the dialect's namespace: the kernel
/// configurations a user may write (attn.tiles on the forward ops, and on
/// the gradient ops for attn-tile's CPU tiling; attn.grad_kernels on the
/// gradient ops), the chain's softmax type attn-fuse records, and what the
/// GPU lowering puts on its gpu.module and kernels.
LogicalResult AttnDialect::verifyOperationAttribute(Operation *op,
                                                    NamedAttribute attr) {
  StringRef name = attr.getName().strref();
  Attribute value = attr.getValue();
  const bool attentionOp = isa<AttentionOpInterface>(op);
  if (name == "attn.tiles" || name == "attn.grad_kernels") {
    const bool tiles = name == "attn.tiles";
    if (tiles ? !isa<TileConfigAttr>(value) : !isa<GradKernelConfigAttr>(value))
      return op->emitError("'")
             << name << "' must be an "
             << (tiles ? "#attn.tiles<...>" : "#attn.grad_kernels<...>")
             << " (a kernel configuration), got " << value;
    if (!attentionOp)
      return op->emitError("'")
             << name << "' configures an attention op's kernels; '"
             << op->getName() << "' has none";
    const bool gradient = isa<AttentionGradOp, VarlenAttentionGradOp>(op);
    if (!tiles && !gradient)
      return op->emitError("'attn.grad_kernels' configures the gradient "
                           "ops' kernels; a forward op takes 'attn.tiles'");
    if (tiles && gradient && cast<TileConfigAttr>(value).getKernel())
      return op->emitError(
          "'attn.tiles' with a kernel family on a gradient op: its GPU "
          "kernels are configured by 'attn.grad_kernels' (attn.tiles gives "
          "a gradient op only attn-tile's block sizes)");
    return success();
  }
  if (name == "attn.chain_softmax_type") {
    if (!isa<TypeAttr>(value) || !attentionOp)
      return op->emitError("'attn.chain_softmax_type' must be a type on an "
                           "attention op (attn-fuse records it), got ")
             << value;
    return success();
  }
  // The GPU lowering's own: the manifest on the gpu.module, the kernels'
  // TMA arguments, shared-memory and L2-prefetch bytes.
  if (name == "attn.manifest_kernels" || name == "attn.tensor_map_args" ||
      name == "attn.dynamic_shared_memory" || name == "attn.l2_prefetch_bytes")
    return success();
  return op->emitError("unknown attribute '")
         << name
         << "' in the attn namespace (a kernel configuration is "
            "'attn.tiles' on a forward op, 'attn.grad_kernels' on a "
            "gradient op)";
}

LogicalResult TileConfigAttr::verify(
    function_ref<InFlightDiagnostic()> emitError, int64_t blockQ,
    int64_t blockKV, int64_t stages, int64_t warps,
    std::optional<KernelFamily> kernel, std::optional<int64_t> splits,
    std::optional<TileLoads> loads, std::optional<TileSchedule> schedule) {
  if (blockQ < 1 || blockKV < 1)
    return emitError() << "tiles: expected block_q and block_kv >= 1, got "
                       << blockQ << " and " << blockKV;
  if (stages < 1 || stages > 8)
    return emitError() << "tiles: expected 1 <= stages <= 8, got " << stages;
  if (warps < 1 || warps > 32)
    return emitError() << "tiles: expected 1 <= warps <= 32, got " << warps;
  if (splits && !ShapedType::isDynamic(*splits) &&
      (*splits < 1 || *splits > 64))
    return emitError() << "tiles: expected 1 <= splits <= 64 or ?, got "
                       << *splits;
  if (splits && kernel != KernelFamily::mma_sync &&
      kernel != KernelFamily::wgmma)
    return emitError()
           << "tiles: splits needs kernel = wgmma or mma_sync (the split-KV "
              "group's first stage is the tensor-core forward)";
  if (loads == TileLoads::tma && kernel != KernelFamily::wgmma)
    return emitError() << "tiles: loads = tma needs kernel = wgmma (only the "
                          "wgmma kernel's producer loads with TMA)";
  if (schedule == TileSchedule::persistent &&
      (kernel != KernelFamily::wgmma || loads != TileLoads::tma || splits))
    return emitError() << "tiles: schedule = persistent needs kernel = wgmma "
                          "with loads = tma and no splits (only the TMA-fed "
                          "wgmma forward loops over tiles)";
  return success();
}

LogicalResult GradKernelConfigAttr::verify(
    function_ref<InFlightDiagnostic()> emitError, KernelFamily kernel,
    std::optional<int64_t> keyBlock, std::optional<GradDq> dq,
    std::optional<TileLoads> loads, std::optional<KeyBlockSplit> split,
    std::optional<int64_t> queryStages) {
  if (kernel == KernelFamily::cuda_core) {
    if (keyBlock || dq || loads || split || queryStages)
      return emitError() << "grad_kernels: kernel = cuda_core takes no "
                            "key_block, dq, loads, split or query_stages (its "
                            "kernels choose their own tiles)";
    return success();
  }
  if (!keyBlock || !dq)
    return emitError() << "grad_kernels: kernel = "
                       << stringifyKernelFamily(kernel)
                       << " needs key_block and dq";
  if (*keyBlock != 64 && *keyBlock != 128)
    return emitError() << "grad_kernels: expected key_block = 64 or 128, got "
                       << *keyBlock;
  if (loads == TileLoads::tma && kernel != KernelFamily::wgmma)
    return emitError() << "grad_kernels: loads = tma needs kernel = wgmma "
                          "(only the wgmma key-block kernel has a TMA "
                          "producer)";
  if (split == KeyBlockSplit::warpgroups &&
      (kernel != KernelFamily::wgmma || loads != TileLoads::tma ||
       *keyBlock != 64))
    return emitError() << "grad_kernels: split = warpgroups needs kernel = "
                          "wgmma, loads = tma and key_block = 64 (its two "
                          "consumer warpgroups share one 64-key block)";
  if (queryStages && *queryStages != 1 && *queryStages != 2)
    return emitError() << "grad_kernels: expected query_stages = 1 or 2, got "
                       << *queryStages;
  if (queryStages && loads != TileLoads::tma &&
      kernel != KernelFamily::mma_sync)
    return emitError() << "grad_kernels: query_stages needs loads = tma "
                          "(the stages of the TMA producer's ring) or kernel "
                          "= mma_sync (its cp.async stages)";
  return success();
}
