//===- BuildKernels.cpp - every attention op of a module to kernels -------===//
//
// The code generation driver that attn-compile and the attn-to-gpu pass (and
// so attn-gpu-pipeline and the mlir-opt plugin) share: the user's choices
// validated once, then one kernel per attn.attention (or a split-KV group),
// attn.varlen_attention, one split-KV group per attn.paged_attention, one
// kernel per attn.merge_partials and one kernel group per
// attn.attention_grad, with their manifest entries.
//
//===----------------------------------------------------------------------===//

#include "attnopt/Conversion/AttnToGPU/AttnToGPU.h"

#include "llvm/ADT/StringSwitch.h"

using namespace mlir;
using namespace mlir::attn;

std::optional<int64_t> mlir::attn::gpuChipVersion(StringRef chip) {
  return llvm::StringSwitch<std::optional<int64_t>>(chip)
      .Case("sm_80", 80)
      .Case("sm_86", 86)
      .Case("sm_89", 89)
      .Case("sm_90", 90)
      .Case("sm_90a", 90)
      .Default(std::nullopt);
}

FailureOr<GpuCodegenOptions>
mlir::attn::resolveGpuCodegenOptions(const GpuCodegenChoices &c,
                                     std::string &error) {
  auto fail = [&](const Twine &message) {
    error = message.str();
    return failure();
  };
  const std::optional<int64_t> smVersion = gpuChipVersion(c.chip);
  if (!smVersion)
    return fail("unsupported chip=" + c.chip + " (expected " + kGpuChipList +
                ")");
  GpuCodegenOptions o;
  o.chip = c.chip;
  std::optional<KernelChoice> kernel = parseKernelChoice(c.kernel);
  if (!kernel)
    return fail("unsupported kernel=" + c.kernel +
                " (expected auto, tensor-core or cuda-core)");
  o.kernel = *kernel;
  if (c.blockQ < 0 || c.blockKV < 0 || c.warps < 0)
    return fail("block-q, block-kv and warps must not be negative");
  const bool hopper = *smVersion >= 90;
  const bool archSpecific = c.chip == "sm_90a";
  // The choices with three values, one of which only sm_90a has.
  struct ArchChoice {
    StringRef name, value, archOnly, other, why;
  };
  const StringRef wgmmaWhy = "wgmma is an sm_90a instruction",
                  tmaWhy = "the TMA loads feed the wgmma kernels";
  for (const ArchChoice &a :
       {ArchChoice{"mma", c.mma, "wgmma", "mma-sync", wgmmaWhy},
        ArchChoice{"grad-mma", c.gradMma, "wgmma", "mma-sync", wgmmaWhy},
        ArchChoice{"tma", c.tma, "on", "off", tmaWhy},
        ArchChoice{"grad-tma", c.gradTma, "on", "off", tmaWhy}}) {
    if (a.value != "auto" && a.value != a.archOnly && a.value != a.other)
      return fail("unsupported " + a.name + "=" + a.value +
                  " (expected auto, " + a.archOnly + " or " + a.other + ")");
    if (a.value == a.archOnly && !archSpecific)
      return fail(a.name + "=" + a.archOnly + " needs chip=sm_90a (" + a.why +
                  "), not " + c.chip);
  }
  // Explicit choices that exclude each other: one of them would be dropped
  // without a word.
  if (c.tma == "on" && c.mma == "mma-sync")
    return fail("tma=on needs the wgmma forward (" + tmaWhy +
                "), but mma=mma-sync");
  if (c.gradTma == "on" && c.gradMma == "mma-sync")
    return fail("grad-tma=on needs the wgmma key-block kernel (" + tmaWhy +
                "), but grad-mma=mma-sync");
  if (c.persistent == "on" && (c.mma == "mma-sync" || c.tma == "off"))
    return fail("persistent=on is the TMA-fed wgmma forward, but " +
                Twine(c.mma == "mma-sync" ? "mma=mma-sync" : "tma=off"));
  // The CUDA-core kernels take none of the tensor-core choices.
  if (c.kernel == "cuda-core")
    for (auto [name, value] : {std::pair<StringRef, StringRef>{"mma", c.mma},
                               {"tma", c.tma},
                               {"persistent", c.persistent},
                               {"f32-precision", c.f32Precision}}) {
      const bool neutral = value == "auto" || value == "ieee" ||
                           (name != "mma" && value == "off");
      if (!neutral)
        return fail("kernel=cuda-core excludes " + name + "=" + value +
                    " (a choice of the tensor-core kernels)");
    }
  if (c.persistent == "on" && c.splitKV != "auto" && c.splitKV != "off")
    return fail("persistent=on schedules the one-kernel forward, but "
                "split-kv=" +
                c.splitKV + " asks for the split-KV group everywhere");
  if (c.splitKV == "auto") {
    o.splitKV.splits = -1;
  } else if (c.splitKV == "off") {
    o.splitKV.splits = 0;
  } else {
    int64_t n = 0;
    if (StringRef(c.splitKV).getAsInteger(10, n) || n < 1 || n > kMaxSplitKV)
      return fail("unsupported split-kv=" + c.splitKV +
                  " (expected auto, off or a number of chunks from 1 to " +
                  Twine(kMaxSplitKV) + ")");
    o.splitKV.splits = n;
  }
  if (c.smCount < 1 || c.smCount > 1024)
    return fail("unsupported sm-count=" + Twine(c.smCount) +
                " (expected 1 to 1024)");
  o.splitKV.smCount = c.smCount;
  std::optional<PersistentChoice> persistent =
      llvm::StringSwitch<std::optional<PersistentChoice>>(c.persistent)
          .Case("auto", PersistentChoice::automatic)
          .Case("on", PersistentChoice::on)
          .Case("off", PersistentChoice::off)
          .Default(std::nullopt);
  if (!persistent)
    return fail("unsupported persistent=" + c.persistent +
                " (expected auto, on or off)");
  if (c.persistent == "on" && !archSpecific)
    return fail("persistent=on needs chip=sm_90a (the persistent kernel is "
                "the TMA-fed wgmma forward), not " +
                c.chip);
  if (c.f32Precision != "ieee" && c.f32Precision != "tf32")
    return fail("unsupported f32-precision=" + c.f32Precision +
                " (expected ieee or tf32)");
  o.forward = {c.blockQ, c.blockKV, c.warps, *smVersion,
               c.mma == "wgmma" || (c.mma == "auto" && archSpecific),
               // tma=auto takes TMA loads on sm_90a: 3-15 % faster than the
               // cp.async producer on the H200 (docs/performance.md,
               // session 26).
               c.tma == "on" || (c.tma == "auto" && archSpecific),
               c.tma == "on",
               // auto: the rule decides on sm_90a (tc::chooseTiling).
               archSpecific ? *persistent : PersistentChoice::off, c.smCount,
               c.f32Precision == "tf32"};
  o.forward.warpgroupMmaRequested = c.mma == "wgmma";

  std::optional<GradDqMode> dq =
      llvm::StringSwitch<std::optional<GradDqMode>>(c.gradDq)
          .Case("auto", GradDqMode::Auto)
          .Case("separate", GradDqMode::Separate)
          .Case("atomic", GradDqMode::Atomic)
          .Default(std::nullopt);
  if (!dq)
    return fail("unsupported grad-dq=" + c.gradDq +
                " (expected auto, separate or atomic)");
  o.grad.dqMode = *dq;
  // sm_90: one red.global.add.v4.f32 per four dQ elements (PTX 8.1).
  o.grad.vectorReductions = hopper;
  o.grad.smVersion = *smVersion;
  if (c.gradBlockKV != 0 && c.gradBlockKV != 64 && c.gradBlockKV != 128)
    return fail("unsupported grad-block-kv=" + Twine(c.gradBlockKV) +
                " (expected 0, 64 or 128)");
  o.grad.keyBlock = c.gradBlockKV;
  o.grad.mma = c.gradMma == "wgmma"                  ? GradMma::Wgmma
               : c.gradMma == "auto" && archSpecific ? GradMma::Auto
                                                     : GradMma::MmaSync;
  // grad-tma=auto: the warp-specialized TMA key-block kernel on sm_90a
  // (docs/performance.md, session 28).
  o.grad.tma = c.gradTma == "on" || (c.gradTma == "auto" && archSpecific);
  o.grad.archSpecific = archSpecific;
  return o;
}

/// "forward": the name of the kernel of the forward op (ForwardOpT) whose
/// output and lse the gradient op `grad` differentiates, when that op is
/// compiled here too; "" otherwise.
template <typename ForwardOpT, typename GradOpT>
static std::string
forwardKernelOf(GradOpT grad,
                const llvm::DenseMap<Operation *, std::string> &names) {
  auto fwd = grad.getOutput().template getDefiningOp<ForwardOpT>();
  if (!fwd || fwd.getOutput() != grad.getOutput() ||
      fwd.getLse() != grad.getLse())
    return "";
  auto it = names.find(fwd);
  return it == names.end() ? "" : it->second;
}

LogicalResult mlir::attn::buildAttentionKernels(
    Operation *root, OpBuilder &b, gpu::GPUModuleOp gpuModule,
    const GpuCodegenOptions &options, llvm::json::Array *manifest) {
  SmallVector<AttentionOp> ops;
  SmallVector<AttentionGradOp> gradOps;
  SmallVector<VarlenAttentionOp> packedOps;
  SmallVector<VarlenAttentionGradOp> packedGradOps;
  SmallVector<PagedAttentionOp> pagedOps;
  SmallVector<MergePartialsOp> mergeOps;
  root->walk([&](Operation *op) {
    if (auto fwd = dyn_cast<AttentionOp>(op))
      ops.push_back(fwd);
    else if (auto grad = dyn_cast<AttentionGradOp>(op))
      gradOps.push_back(grad);
    else if (auto packed = dyn_cast<VarlenAttentionOp>(op))
      packedOps.push_back(packed);
    else if (auto packedGrad = dyn_cast<VarlenAttentionGradOp>(op))
      packedGradOps.push_back(packedGrad);
    else if (auto paged = dyn_cast<PagedAttentionOp>(op))
      pagedOps.push_back(paged);
    else if (auto merge = dyn_cast<MergePartialsOp>(op))
      mergeOps.push_back(merge);
  });
  OpBuilder::InsertionGuard guard(b);
  b.setInsertionPointToEnd(gpuModule.getBody());
  llvm::DenseMap<Operation *, std::string> forwardNames;
  // The forward ops' kernel configurations, recorded on them (#attn.tiles).
  auto configure =
      [&](AttentionOpInterface op) -> FailureOr<ForwardKernelConfig> {
    FailureOr<ForwardKernelConfig> config = chooseForwardKernel(op, options);
    if (succeeded(config))
      op->setAttr(kTilesAttrName, config->toAttr(op->getContext()));
    return config;
  };
  for (auto [i, op] : llvm::enumerate(ops)) {
    FailureOr<ForwardKernelConfig> config = configure(op);
    if (failed(config))
      return failure();
    if (config->splits) {
      FailureOr<SmallVector<KernelSpec, 2>> specs =
          describeSplitKVAttentionKernels(op, static_cast<int64_t>(i), *config);
      if (failed(specs) ||
          failed(buildSplitKVAttentionKernels(b, gpuModule, op, *specs)))
        return failure();
      forwardNames[op] = specs->front().group;
      if (manifest)
        for (const KernelSpec &spec : *specs)
          manifest->push_back(kernelManifestEntry(op, spec));
      continue;
    }
    FailureOr<KernelSpec> spec =
        describeAttentionKernel(op, "attn_fwd_" + std::to_string(i), *config);
    if (failed(spec) || failed(buildAttentionKernel(b, gpuModule, op, *spec)))
      return failure();
    forwardNames[op] = spec->name;
    if (manifest)
      manifest->push_back(kernelManifestEntry(op, *spec));
  }
  // Packed batches are numbered after the dense forward kernels.
  for (auto [i, op] : llvm::enumerate(packedOps)) {
    FailureOr<ForwardKernelConfig> config = configure(op);
    if (failed(config))
      return failure();
    FailureOr<KernelSpec> spec = describePackedAttentionKernel(
        op, "attn_fwd_" + std::to_string(ops.size() + i), *config);
    if (failed(spec) ||
        failed(buildPackedAttentionKernel(b, gpuModule, op, *spec)))
      return failure();
    forwardNames[op] = spec->name;
    if (manifest)
      manifest->push_back(kernelManifestEntry(op, *spec));
  }
  // Paged caches are numbered after the packed batches; each is a split-KV
  // group.
  for (auto [i, op] : llvm::enumerate(pagedOps)) {
    FailureOr<ForwardKernelConfig> config = configure(op);
    if (failed(config))
      return failure();
    FailureOr<SmallVector<KernelSpec, 2>> specs =
        describeSplitKVAttentionKernels(
            op, static_cast<int64_t>(ops.size() + packedOps.size() + i),
            *config);
    if (failed(specs) ||
        failed(buildSplitKVAttentionKernels(b, gpuModule, op, *specs)))
      return failure();
    if (manifest)
      for (const KernelSpec &spec : *specs)
        manifest->push_back(kernelManifestEntry(op, spec));
  }
  for (auto [i, op] : llvm::enumerate(mergeOps)) {
    FailureOr<KernelSpec> spec =
        describeMergeKernel(op, "attn_merge_" + std::to_string(i));
    if (failed(spec) || failed(buildMergeKernel(b, gpuModule, op, *spec)))
      return failure();
    if (manifest)
      manifest->push_back(kernelManifestEntry(op, *spec));
  }
  // The gradient ops' kernel configurations, recorded on them
  // (#attn.grad_kernels).
  auto configureGrad =
      [&](AttentionOpInterface op) -> FailureOr<GradKernelConfig> {
    FailureOr<GradKernelConfig> config = chooseBackwardKernel(op, options);
    if (succeeded(config))
      op->setAttr(kGradKernelsAttrName, config->toAttr(op->getContext()));
    return config;
  };
  for (auto [i, op] : llvm::enumerate(gradOps)) {
    FailureOr<GradKernelConfig> config = configureGrad(op);
    if (failed(config))
      return failure();
    FailureOr<GradKernelSpecs> specs = describeAttentionGradKernels(
        op, static_cast<int64_t>(i), *config, options.grad);
    if (failed(specs) ||
        failed(buildAttentionGradKernels(b, gpuModule, op, *specs)))
      return failure();
    if (!manifest)
      continue;
    std::string forward = forwardKernelOf<AttentionOp>(op, forwardNames);
    for (const KernelSpec &spec : specs->kernels)
      manifest->push_back(kernelManifestEntry(op, *specs, spec, forward));
  }
  // Packed gradient groups are numbered after the dense ones.
  for (auto [i, op] : llvm::enumerate(packedGradOps)) {
    FailureOr<GradKernelConfig> config = configureGrad(op);
    if (failed(config))
      return failure();
    FailureOr<GradKernelSpecs> specs = describePackedAttentionGradKernels(
        op, static_cast<int64_t>(gradOps.size() + i), *config, options.grad);
    if (failed(specs) ||
        failed(buildPackedAttentionGradKernels(b, gpuModule, op, *specs)))
      return failure();
    if (!manifest)
      continue;
    std::string forward = forwardKernelOf<VarlenAttentionOp>(op, forwardNames);
    for (const KernelSpec &spec : specs->kernels)
      manifest->push_back(kernelManifestEntry(op, *specs, spec, forward));
  }
  return success();
}
