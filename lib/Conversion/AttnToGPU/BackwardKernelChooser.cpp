//===- BackwardKernelChooser.cpp - one kernel group per gradient op -------===//
//
// The GPU kernel chooser of the gradient ops (attn.attention_grad,
// attn.varlen_attention_grad): the family of the key-block kernel (wgmma,
// mma.sync, CUDA-core), its keys per block, its loads, and how dQ is
// accumulated, decided once per op and recorded on it as
// #attn.grad_kernels. Every GPU route goes through here
// (attn-select-kernels, attn-to-gpu and so attn-gpu-pipeline,
// attn-compile), and an op that already carries such an attribute is
// compiled exactly as it says or not at all: an override the kernels
// cannot take is an error at the op that names the configuration they
// take, as for the forward (ForwardKernelChooser.cpp).
//
// The rules themselves live beside the kernels they describe
// (tcgrad::chooseConfig in TensorCoreGradDescribe.cpp); this file orders
// them: tensor cores where they apply, else the CUDA-core kernels.
//
//===----------------------------------------------------------------------===//

#include "KernelCommon.h"
#include "TensorCoreGradKernel.h"

using namespace mlir;
using namespace mlir::attn;

GradKernelConfigAttr GradKernelConfig::toAttr(MLIRContext *ctx) const {
  if (kernel == KernelFamily::cuda_core)
    return GradKernelConfigAttr::get(ctx, kernel, std::nullopt, std::nullopt,
                                     std::nullopt, std::nullopt, std::nullopt);
  return GradKernelConfigAttr::get(
      ctx, kernel, keyBlock, atomicDq ? GradDq::atomic : GradDq::separate,
      tma ? std::optional<TileLoads>(TileLoads::tma) : std::nullopt,
      headSplit ? std::optional<KeyBlockSplit>(KeyBlockSplit::warpgroups)
                : std::nullopt,
      queryStages != 2 ? std::optional<int64_t>(queryStages) : std::nullopt);
}

/// Whether `op` has GPU backward kernels at all: its shapes and operands
/// (a diagnostic at the op where not); `tensorCores` and `whyNot` say
/// whether the tensor-core group applies.
static LogicalResult checkBackward(AttentionOpInterface op,
                                   const GpuCodegenOptions &options,
                                   bool &tensorCores, std::string &whyNot) {
  // An op's own #attn.grad_kernels outranks the kernel option.
  const KernelChoice choice =
      op->hasAttr(kGradKernelsAttrName) ? KernelChoice::Auto : options.kernel;
  if (auto packed = dyn_cast<VarlenAttentionGradOp>(op.getOperation())) {
    if (failed(kernel::checkPackedGradKernel(packed, choice,
                                             options.grad.smVersion)))
      return failure();
    tensorCores = true;
    return success();
  }
  if (failed(kernel::checkKernelShapes(op)))
    return failure();
  // Neither backward kernel reads a keep-mask tensor: reject rather than
  // drop the operand.
  if (op.getDropoutMask())
    return op.emitOpError(
        "GPU code generation: explicit dropout masks are not supported on "
        "the GPU yet (only the Philox dropout of rng(seed, offset))");
  tensorCores = tcgrad::isEligible(op, options.grad.smVersion, whyNot);
  if (choice == KernelChoice::TensorCore && !tensorCores)
    return op.emitOpError(
               "GPU code generation: no tensor-core backward kernel: ")
           << whyNot;
  return success();
}

/// The configuration an op's #attn.grad_kernels names, checked against what
/// the kernels can take: the chooser's rules run with its fields as the
/// options must give it back.
static FailureOr<GradKernelConfig>
honourGradKernels(AttentionOpInterface op, GradKernelConfigAttr attr,
                  bool tensorCores, const std::string &whyNot,
                  const GpuCodegenOptions &options) {
  auto refuse = [&](const Twine &why) {
    return op.emitOpError("GPU code generation: cannot honour ")
           << attr << ": " << why;
  };
  const KernelFamily family = attr.getKernel();
  if (family == KernelFamily::cuda_core) {
    if (op.isPacked())
      return refuse("packed batches have no CUDA-core backward");
    return GradKernelConfig{};
  }
  if (!tensorCores)
    return refuse("no tensor-core backward kernel: " + whyNot);
  const bool wgmma = family == KernelFamily::wgmma;
  const bool tma = attr.getLoads() == TileLoads::tma;
  if ((wgmma || tma) && !options.grad.archSpecific)
    return refuse(Twine(wgmma ? "kernel = wgmma" : "loads = tma") +
                  " needs chip=sm_90a, not " + options.chip);
  if (wgmma &&
      !tcgrad::hasWarpgroupKeyBlock(op.getHeadDimSize(), op.getValueDimSize()))
    return refuse("the wgmma key-block kernel does not take D = " +
                  Twine(op.getHeadDimSize()) +
                  ", Dv = " + Twine(op.getValueDimSize()));
  GradKernelOptions requested = options.grad;
  requested.mma = wgmma ? GradMma::Wgmma : GradMma::MmaSync;
  requested.tma = tma;
  requested.keyBlock = *attr.getKeyBlock();
  requested.dqMode = attr.getDq() == GradDq::atomic ? GradDqMode::Atomic
                                                    : GradDqMode::Separate;
  requested.split = attr.getSplit().value_or(KeyBlockSplit::blocks);
  requested.queryStages = attr.getQueryStages().value_or(2);
  FailureOr<GradKernelConfig> got = tcgrad::chooseConfig(op, requested);
  if (failed(got))
    return failure();
  // `loads = cp_async`, `split = blocks` and `query_stages = 2` are the
  // absent fields' meaning.
  if (attr.getLoads() == TileLoads::cp_async ||
      attr.getSplit() == KeyBlockSplit::blocks || attr.getQueryStages() == 2)
    attr = GradKernelConfigAttr::get(
        op->getContext(), family, attr.getKeyBlock(), attr.getDq(),
        attr.getLoads() == TileLoads::cp_async ? std::nullopt : attr.getLoads(),
        attr.getSplit() == KeyBlockSplit::blocks ? std::nullopt
                                                 : attr.getSplit(),
        attr.getQueryStages() == 2 ? std::nullopt : attr.getQueryStages());
  if (GradKernelConfigAttr nearest = got->toAttr(op->getContext());
      nearest != attr) {
    std::string text;
    llvm::raw_string_ostream(text) << nearest;
    return refuse(
        "for this op the backward takes " + text +
        (attr.getDq() == GradDq::atomic && !got->atomicDq
             ? " (the atomic dQ needs an op without "
               "`deterministic`, at least 64 queries, and a "
               "key-block kernel that has it for these head dims; with "
               "split = warpgroups at D = 256 and two query stages, a causal "
               "op without GQA)"
         : attr.getSplit() == KeyBlockSplit::warpgroups && !got->headSplit
             ? " (split = warpgroups needs D + Dv > 256, each "
               "rounded up to 16, and a dense op on sm_90a)"
         : attr.getQueryStages() && *attr.getQueryStages() != got->queryStages
             ? " (query_stages = 1 needs the head split: split = "
               "warpgroups, D + Dv > 256 each rounded up to 16, loads = tma; "
               "or kernel = mma_sync)"
             : ""));
  }
  return got;
}

FailureOr<GradKernelConfig>
mlir::attn::chooseBackwardKernel(AttentionOpInterface op,
                                 const GpuCodegenOptions &options) {
  bool tensorCores = false;
  std::string whyNot;
  if (failed(checkBackward(op, options, tensorCores, whyNot)))
    return failure();
  if (Attribute attr = op->getAttr(kGradKernelsAttrName)) {
    auto config = dyn_cast<GradKernelConfigAttr>(attr);
    if (!config)
      return op.emitOpError("GPU code generation: ")
             << kGradKernelsAttrName << " must be an #attn.grad_kernels, got "
             << attr;
    return honourGradKernels(op, config, tensorCores, whyNot, options);
  }
  if (tensorCores && options.kernel != KernelChoice::CudaCore)
    return tcgrad::chooseConfig(op, options.grad);
  if (!tensorCores && options.kernel == KernelChoice::Auto)
    op.emitRemark("GPU code generation: CUDA-core backward kernels, no "
                  "tensor-core backward: ")
        << whyNot;
  return GradKernelConfig{};
}
