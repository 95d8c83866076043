//===- SelectKernels.cpp - attn-select-kernels pass -----------------------===//
//
// Records the GPU kernel choosers' decisions on each forward op
// (ForwardKernelChooser.cpp, #attn.tiles) and gradient op
// (BackwardKernelChooser.cpp, #attn.grad_kernels), where a user reads them,
// overrides them, and sees them in the report before anything is compiled.
//
//===----------------------------------------------------------------------===//

#include "GpuCodegenChoices.h"
#include "PersistentSchedule.h"
#include "SharedMemoryPlan.h"

#include "attnopt/Conversion/AttnToGPU/AttnToGPU.h"
#include "attnopt/Conversion/Passes.h"
#include "attnopt/Dialect/Attn/Analysis/TileSelection.h"

#include "llvm/Support/Format.h"

namespace mlir::attn {
#define GEN_PASS_DEF_ATTNSELECTKERNELSPASS
#include "attnopt/Conversion/Passes.h.inc"

namespace {

/// The launch of the kernel (the first stage of a split-KV group) that
/// `config` gives `op`.
FailureOr<KernelSpec> describeLaunch(Operation *op,
                                     const ForwardKernelConfig &config) {
  if (auto packed = dyn_cast<VarlenAttentionOp>(op))
    return describePackedAttentionKernel(packed, "report", config);
  if (!config.splits)
    return describeAttentionKernel(cast<AttentionOp>(op), "report", config);
  FailureOr<SmallVector<KernelSpec, 2>> group = describeSplitKVAttentionKernels(
      cast<AttentionOpInterface>(op), 0, config);
  if (failed(group))
    return failure();
  return group->front();
}

/// The remark of `report`: the configuration, its launch, and the IO model
/// for its tiles where the shapes are static.
LogicalResult emitReport(Operation *op, StringRef chip, int64_t smVersion,
                         const ForwardKernelConfig &config) {
  FailureOr<KernelSpec> launch = describeLaunch(op, config);
  if (failed(launch))
    return failure();
  std::string msg;
  llvm::raw_string_ostream os(msg);
  os << "attn-select-kernels " << chip << ": "
     << config.toAttr(op->getContext()) << "; " << launch->block[0]
     << " threads, dynamic shared memory " << launch->dynamicSharedBytes
     << " B of " << maxDynamicSharedBytes(smVersion);
  if (ShapedType::isDynamic(config.splits))
    os << "; split-KV group: key-range chunks decided at launch, then the "
          "combine kernel";
  else if (config.splits)
    os << "; split-KV group: " << config.splits
       << " key-range chunks, then the combine kernel";
  if (launch->persistent) {
    // The tile order's model (PersistentSchedule.h), in key-block steps.
    tc::TileOrder order =
        tc::chooseTileOrder(cast<AttentionOpInterface>(op), launch->blockQ,
                            launch->blockKV, launch->grid[0]);
    os << "; persistent: " << launch->grid[0] << " blocks, tiles "
       << (order.section ? "in sections of " + std::to_string(order.section) +
                               " (batch, head) slices, last query "
                               "blocks first"
                         : std::string("in index order"))
       << llvm::format("; modelled busiest block %.0f key-block steps (one "
                       "block per tile: %.0f)",
                       order.makespan, order.oneBlockPerTile);
  }
  auto dense = dyn_cast<AttentionOp>(op);
  FailureOr<AttentionShape> shape =
      dense ? AttentionShape::get(dense) : FailureOr<AttentionShape>();
  if (succeeded(shape) && dense.getQueryType().hasStaticShape() &&
      dense.getKeyType().hasStaticShape() && !config.splits) {
    TileChoice tiles;
    tiles.blockQ = config.blockQ;
    tiles.blockKV = config.blockKV;
    tiles.stages = config.stages;
    tiles.warps = config.warps;
    os << "\n";
    printIOReport(os, analyzeIO(*shape, tiles));
  } else {
    os << "\n  no IO report ("
       << (isa<PagedAttentionOp>(op) ? "paged cache"
           : !dense                  ? "packed batch"
           : config.splits           ? "split-KV group"
                                     : "run-time sizes")
       << ")";
  }
  op->emitRemark(msg);
  return success();
}

/// The remark of `report` for a gradient op: the configuration and the
/// kernels of its group with their launches.
LogicalResult emitGradReport(Operation *op, StringRef chip, int64_t smVersion,
                             const GradKernelConfig &config,
                             const GradKernelOptions &grad) {
  FailureOr<GradKernelSpecs> specs =
      isa<AttentionGradOp>(op)
          ? describeAttentionGradKernels(cast<AttentionGradOp>(op), 0, config,
                                         grad)
          : describePackedAttentionGradKernels(cast<VarlenAttentionGradOp>(op),
                                               0, config, grad);
  if (failed(specs))
    return failure();
  std::string msg;
  llvm::raw_string_ostream os(msg);
  os << "attn-select-kernels " << chip << ": "
     << config.toAttr(op->getContext()) << "; ";
  llvm::interleaveComma(specs->kernels, os, [&](const KernelSpec &spec) {
    os << abi::stageName(spec.stage) << " " << spec.block[0] << " threads";
    if (spec.dynamicSharedBytes)
      os << " with " << spec.dynamicSharedBytes
         << " B of dynamic shared memory (of "
         << maxDynamicSharedBytes(smVersion) << ")";
  });
  os << "; "
     << (specs->deterministic ? "bit-reproducible"
                              : "dQ added with f32 atomics (not "
                                "bit-reproducible)");
  op->emitRemark(msg);
  return success();
}

struct AttnSelectKernelsPass final
    : impl::AttnSelectKernelsPassBase<AttnSelectKernelsPass> {
  using Base::Base;

  /// The options are checked once, before any operation: a bad value is
  /// the command line's error, not the IR's.
  LogicalResult initialize(MLIRContext *context) override {
    std::string error;
    FailureOr<GpuCodegenOptions> resolved = resolveGpuCodegenOptions(
        withBackwardChoices(forwardCodegenChoices(
                                chip, kernel, mma, tma, blockQ, blockKV, warps,
                                splitKV, smCount, persistent, f32Precision),
                            gradMma, gradTma, gradDq, gradBlockKV),
        error);
    if (failed(resolved))
      return emitError(UnknownLoc::get(context), "attn-select-kernels: ")
             << error;
    options = std::move(*resolved);
    return success();
  }

  void runOnOperation() override {
    getOperation()->walk([&](Operation *op) {
      if (isa<AttentionGradOp, VarlenAttentionGradOp>(op)) {
        FailureOr<GradKernelConfig> config =
            chooseBackwardKernel(cast<AttentionOpInterface>(op), options);
        if (failed(config) ||
            (report &&
             failed(emitGradReport(op, chip, options.forward.smVersion, *config,
                                   options.grad)))) {
          signalPassFailure();
          return WalkResult::interrupt();
        }
        op->setAttr(kGradKernelsAttrName, config->toAttr(&getContext()));
        return WalkResult::advance();
      }
      if (!isa<AttentionOp, VarlenAttentionOp, PagedAttentionOp>(op))
        return WalkResult::advance();
      FailureOr<ForwardKernelConfig> config =
          chooseForwardKernel(cast<AttentionOpInterface>(op), options);
      if (failed(config) ||
          (report &&
           failed(emitReport(op, chip, options.forward.smVersion, *config)))) {
        signalPassFailure();
        return WalkResult::interrupt();
      }
      op->setAttr(kTilesAttrName, config->toAttr(&getContext()));
      return WalkResult::advance();
    });
  }

private:
  GpuCodegenOptions options;
};

} // namespace
} // namespace mlir::attn
