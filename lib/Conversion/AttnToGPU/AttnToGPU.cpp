//===- AttnToGPU.cpp - attn-to-gpu pass -----------------------------------===//

#include "GpuCodegenChoices.h"

#include "attnopt/Conversion/AttnToGPU/AttnToGPU.h"
#include "attnopt/Conversion/Passes.h"

#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/LLVMIR/NVVMDialect.h"
#include "mlir/Dialect/NVGPU/IR/NVGPUDialect.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"

namespace mlir::attn {
#define GEN_PASS_DEF_ATTNTOGPUPASS
#include "attnopt/Conversion/Passes.h.inc"

namespace {
struct AttnToGPUPass final : impl::AttnToGPUPassBase<AttnToGPUPass> {
  using Base::Base;

  // The tensor-core kernel also builds nvgpu, nvvm, llvm and vector ops.
  void getDependentDialects(DialectRegistry &registry) const override {
    Base::getDependentDialects(registry);
    registry.insert<LLVM::LLVMDialect, NVVM::NVVMDialect, nvgpu::NVGPUDialect,
                    vector::VectorDialect>();
  }

  /// The options are checked once, before any module: a bad value is the
  /// command line's error, not the module's.
  LogicalResult initialize(MLIRContext *context) override {
    GpuCodegenChoices choices = withBackwardChoices(
        forwardCodegenChoices(chip, kernel, mma, tma, blockQ, blockKV, warps,
                              splitKV, smCount, persistent, f32Precision),
        gradMma, gradTma, gradDq, gradBlockKV);
    std::string error;
    FailureOr<GpuCodegenOptions> resolved =
        resolveGpuCodegenOptions(choices, error);
    if (failed(resolved))
      return emitError(UnknownLoc::get(context), "attn-to-gpu: ") << error;
    options = std::move(*resolved);
    return success();
  }

  void runOnOperation() override {
    ModuleOp module = getOperation();
    bool any = false;
    module.walk([&](Operation *op) {
      if (isa<AttentionOp, AttentionGradOp, VarlenAttentionOp,
              VarlenAttentionGradOp, PagedAttentionOp, MergePartialsOp>(op))
        any = true;
    });
    if (!any)
      return;
    // A second run would emit every kernel again beside the first run's:
    // the symbol would be defined twice.
    if (Operation *earlier = module.lookupSymbol("attn_kernels")) {
      const bool ours = isa<gpu::GPUModuleOp>(earlier) &&
                        earlier->hasAttr("attn.manifest_kernels");
      InFlightDiagnostic diag = earlier->emitError("attn-to-gpu: ");
      if (ours)
        diag << "the module already holds @attn_kernels, the kernels of an "
                "earlier attn-to-gpu run (attn-gpu-pipeline runs attn-to-gpu "
                "itself); lower this module's gpu.module with the NVVM "
                "passes alone, or compile the attn ops from a module "
                "without it";
      else
        diag << "the symbol @attn_kernels, which names the kernels' "
                "gpu.module, is taken; rename it";
      return signalPassFailure();
    }
    OpBuilder b(&getContext());
    module->setAttr(gpu::GPUDialect::getContainerModuleAttrName(),
                    b.getUnitAttr());
    b.setInsertionPointToEnd(module.getBody());
    auto gpuModule =
        gpu::GPUModuleOp::create(b, module.getLoc(), "attn_kernels");
    llvm::json::Array manifest;
    if (failed(buildAttentionKernels(module, b, gpuModule, options, &manifest)))
      return signalPassFailure();
    std::string json;
    llvm::raw_string_ostream os(json);
    os << llvm::json::Value(std::move(manifest));
    gpuModule->setAttr("attn.manifest_kernels", b.getStringAttr(json));
  }

private:
  GpuCodegenOptions options;
};
} // namespace
} // namespace mlir::attn
