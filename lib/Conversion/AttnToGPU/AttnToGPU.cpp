//===- AttnToGPU.cpp - attn-to-gpu pass -----------------------------------===//

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
    registry.insert<LLVM::LLVMDialect, NVVM::NVVMDialect,
                    nvgpu::NVGPUDialect, vector::VectorDialect>();
  }

  void runOnOperation() override {
    ModuleOp module = getOperation();
    SmallVector<AttentionOp> ops;
    SmallVector<AttentionGradOp> gradOps;
    module.walk([&](Operation *op) {
      if (auto fwd = dyn_cast<AttentionOp>(op))
        ops.push_back(fwd);
      else if (auto grad = dyn_cast<AttentionGradOp>(op))
        gradOps.push_back(grad);
    });
    if (ops.empty() && gradOps.empty())
      return;
    OpBuilder b(&getContext());
    module->setAttr(gpu::GPUDialect::getContainerModuleAttrName(),
                    b.getUnitAttr());
    b.setInsertionPointToEnd(module.getBody());
    auto gpuModule = gpu::GPUModuleOp::create(b, module.getLoc(), "attn_kernels");
    for (auto [i, op] : llvm::enumerate(ops)) {
      // The pass keeps the CUDA-core kernel (it has no option to choose; its
      // tests check that kernel's structure); attn-compile --kernel selects.
      FailureOr<KernelSpec> spec = describeAttentionKernel(
          op, "attn_fwd_" + std::to_string(i), KernelChoice::CudaCore);
      if (failed(spec) || failed(buildAttentionKernel(b, gpuModule, op, *spec)))
        return signalPassFailure();
    }
    // Gradients: two kernels each (attn_bwd_dkdv_<n>, attn_bwd_dq_<n>),
    // after the forward kernels.
    for (auto [i, op] : llvm::enumerate(gradOps)) {
      FailureOr<GradKernelSpecs> specs = describeAttentionGradKernels(
          op, static_cast<int64_t>(i), KernelChoice::CudaCore);
      if (failed(specs) ||
          failed(buildAttentionGradKernels(b, gpuModule, op, *specs)))
        return signalPassFailure();
    }
  }
};
} // namespace
} // namespace mlir::attn
