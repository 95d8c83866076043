//===- AttnToGPU.cpp - attn-to-gpu pass -----------------------------------===//

#include "attnopt/Conversion/AttnToGPU/AttnToGPU.h"
#include "attnopt/Conversion/Passes.h"

namespace mlir::attn {
#define GEN_PASS_DEF_ATTNTOGPUPASS
#include "attnopt/Conversion/Passes.h.inc"

namespace {
struct AttnToGPUPass final : impl::AttnToGPUPassBase<AttnToGPUPass> {
  using Base::Base;

  void runOnOperation() override {
    ModuleOp module = getOperation();
    SmallVector<AttentionOp> ops;
    module.walk([&](AttentionOp op) { ops.push_back(op); });
    if (ops.empty())
      return;
    OpBuilder b(&getContext());
    module->setAttr(gpu::GPUDialect::getContainerModuleAttrName(),
                    b.getUnitAttr());
    b.setInsertionPointToEnd(module.getBody());
    auto gpuModule = gpu::GPUModuleOp::create(b, module.getLoc(), "attn_kernels");
    for (auto [i, op] : llvm::enumerate(ops)) {
      FailureOr<KernelSpec> spec =
          describeAttentionKernel(op, "attn_fwd_" + std::to_string(i));
      if (failed(spec) || failed(buildAttentionKernel(b, gpuModule, op, *spec)))
        return signalPassFailure();
    }
  }
};
} // namespace
} // namespace mlir::attn
