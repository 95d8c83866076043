//===- PackedKernels.cpp - kernels of packed variable-length batches ------===//
//
// attn.varlen_attention on the GPU: the tensor-core forward kernel
// (TensorCoreKernelBuilder.cpp) with each block's sequence read from the
// offsets. Block (x, h, b) takes query rows [x * block_q, (x + 1) * block_q)
// of sequence b and exits when they start past its length; the grid's x
// covers the longest sequence (computed at launch). Rows are token-major:
// token t of head h is row t * H + h of the tensor viewed as rows of D
// (GlobalRows with step H). The kernel interface is
// docs/kernel-manifest.md, "Packed variable-length batches". The backward
// group is the tensor-core one of attn.attention_grad
// (TensorCoreGradKernelBuilder.cpp) reading the same offsets: block z is
// sequence z, blocks past its length exit, and the workspaces hold W rows per
// head ("Packed backward kernels").
//
//===----------------------------------------------------------------------===//

#include "KernelCommon.h"
#include "TensorCoreGradKernel.h"
#include "TensorCoreKernel.h"

using namespace mlir;
using namespace mlir::attn;

/// Static head counts and head dims (the kernel is specialised on them),
/// grids within CUDA's limits.
static LogicalResult checkPackedShapes(AttentionOpInterface op) {
  if (failed(checkSizeLimits(op, "attn-to-gpu")))
    return failure();
  // Head counts and widths are compiled in: every dimension but the
  // tokens' (dimension 0; lse's 1).
  for (StringRef name : {"query", "key", "value", "output", "grad_output",
                         "grad_query", "grad_key", "grad_value", "lse"}) {
    Value v = kernel::abiOperand(op, name);
    if (!v)
      continue;
    auto type = cast<RankedTensorType>(v.getType());
    const unsigned tokens = name == "lse" ? 1 : 0;
    for (unsigned d = 0; d < type.getRank(); ++d)
      if (d != tokens && type.isDynamicDim(d))
        return op.emitOpError("GPU code generation needs static head counts "
                              "and head dims: dimension ")
               << d << " of the " << name << " (" << type << ") is dynamic";
  }
  // The batch and the token totals may be run-time sizes, each in every
  // tensor that holds it or in none.
  using kernel::SizeUse;
  if (failed(kernel::checkOneSize(
          op, "the batch",
          {SizeUse{"cu_seqlens_q", 0}, SizeUse{"cu_seqlens_k", 0}})) ||
      failed(kernel::checkOneSize(op, "the query token total",
                                  {SizeUse{"query", 0}, SizeUse{"output", 0},
                                   SizeUse{"lse", 1}, SizeUse{"grad_output", 0},
                                   SizeUse{"grad_query", 0}})) ||
      failed(kernel::checkOneSize(op, "the key token total",
                                  {SizeUse{"key", 0}, SizeUse{"value", 0},
                                   SizeUse{"grad_key", 0},
                                   SizeUse{"grad_value", 0}})))
    return failure();
  for (auto [name, type] :
       {std::pair<StringRef, RankedTensorType>{"query", op.getQueryType()},
        {"key", op.getKeyType()},
        {"value", op.getValueType()}})
    if (llvm::is_contained(type.getShape(), 0))
      return op.emitOpError("GPU code generation: empty ")
             << name << " (" << type
             << "): the kernels need every size >= 1 (a token total may be "
                "a run-time size, ?)";
  constexpr int64_t kMaxGridYZ = 65535;
  int64_t batch = kernel::packedBatch(op);
  if (op.getQueryType().getDimSize(1) > kMaxGridYZ ||
      (!ShapedType::isDynamic(batch) && batch > kMaxGridYZ))
    return op.emitOpError("GPU code generation: the grid's heads and batch "
                          "are at most ")
           << kMaxGridYZ;
  return success();
}

LogicalResult kernel::checkPackedKernel(VarlenAttentionOp op,
                                        KernelChoice choice) {
  if (failed(checkPackedShapes(op)))
    return failure();
  std::string whyNot;
  if (choice == KernelChoice::CudaCore)
    return op.emitOpError("GPU code generation: packed batches have no "
                          "CUDA-core kernel (--kernel=cuda-core)");
  if (!tc::isEligible(op, whyNot))
    return op.emitOpError("GPU code generation: packed batches need the "
                          "tensor-core kernel, which does not apply: ")
           << whyNot;
  return success();
}

FailureOr<KernelSpec>
mlir::attn::describePackedAttentionKernel(VarlenAttentionOp op, StringRef name,
                                          const ForwardKernelConfig &config) {
  if (failed(checkPackedShapes(op)))
    return failure();
  const tc::Tiling t = tc::tilingOf(config);
  KernelSpec spec;
  spec.name = name.str();
  spec.source = kernel::sourceOf(op.getLoc());
  spec.tensorCores = true;
  spec.blockQ = t.blockQ;
  spec.blockKV = t.blockKV;
  spec.block = {t.threads(), 1, 1};
  spec.warpgroupMma = t.warpgroupMma;
  spec.dynamicSharedBytes = tc::sharedMemoryBytes(op, t);
  // x from the longest sequence and z from the offsets, at launch.
  int64_t offsets =
      cast<ShapedType>(op.getCuSeqlensQ().getType()).getDimSize(0);
  spec.grid = {0, op.getQueryType().getDimSize(1),
               ShapedType::isDynamic(offsets) ? 0 : offsets - 1};

  spec.params = kernel::abiParams(op, abi::Family::PackedForward,
                                  kernel::abiFeatures(op));
  spec.tma = t.tma;
  if (spec.tma)
    kernel::appendForwardTensorMaps(spec, /*packed=*/true);
  return spec;
}

FailureOr<gpu::GPUFuncOp>
mlir::attn::buildPackedAttentionKernel(OpBuilder &b, gpu::GPUModuleOp module,
                                       VarlenAttentionOp op,
                                       const KernelSpec &spec) {
  SmallVector<Type> argTypes;
  for (const KernelParam &p : spec.params) {
    Value v = kernel::abiOperand(op, p.name);
    argTypes.push_back(kernel::flatArgumentType(
        b, p,
        p.isTensor ? cast<ShapedType>(v.getType()).getElementType() : Type()));
  }
  gpu::GPUFuncOp func =
      kernel::createTensorCoreFunc(b, module, op.getLoc(), spec, argTypes);
  tc::emitKernel(b, func, op, spec);
  return func;
}

/// The size fields of a packed kernel's manifest entry: batch and the token
/// totals, null where they are run-time sizes.
static void addPackedSizeFields(AttentionOpInterface op,
                                llvm::json::Object &entry) {
  auto sizeOrNull = [](int64_t size) -> llvm::json::Value {
    if (ShapedType::isDynamic(size))
      return nullptr;
    return size;
  };
  entry["batch"] = sizeOrNull(kernel::packedBatch(op));
  entry["total_query_tokens"] = sizeOrNull(op.getQueryType().getDimSize(0));
  entry["total_key_tokens"] = sizeOrNull(op.getKeyType().getDimSize(0));
}

llvm::json::Object mlir::attn::kernelManifestEntry(VarlenAttentionOp op,
                                                   const KernelSpec &spec) {
  llvm::json::Object entry = kernel::manifestFields(op, spec);
  entry["op"] = "varlen_attention";
  entry["has_lse"] = static_cast<bool>(op.getLse());
  addPackedSizeFields(op, entry);
  return entry;
}

//===----------------------------------------------------------------------===//
// Backward
//===----------------------------------------------------------------------===//

LogicalResult kernel::checkPackedGradKernel(VarlenAttentionGradOp op,
                                            KernelChoice choice,
                                            int64_t smVersion) {
  if (failed(checkPackedShapes(op)))
    return failure();
  if (choice == KernelChoice::CudaCore)
    return op.emitOpError("GPU code generation: packed batches have no "
                          "CUDA-core backward (--kernel=cuda-core)");
  std::string whyNot;
  if (!tcgrad::isEligible(op, smVersion, whyNot))
    return op.emitOpError("GPU code generation: packed batches need the "
                          "tensor-core backward, which does not apply: ")
           << whyNot;
  return success();
}

FailureOr<GradKernelSpecs> mlir::attn::describePackedAttentionGradKernels(
    VarlenAttentionGradOp op, int64_t n, const GradKernelConfig &config,
    const GradKernelOptions &options) {
  return tcgrad::describeKernels(op, n, options, config);
}

LogicalResult mlir::attn::buildPackedAttentionGradKernels(
    OpBuilder &b, gpu::GPUModuleOp module, VarlenAttentionGradOp op,
    const GradKernelSpecs &specs) {
  for (const KernelSpec &spec : specs.kernels)
    tcgrad::buildKernel(b, module, op, spec);
  return success();
}

llvm::json::Object mlir::attn::kernelManifestEntry(VarlenAttentionGradOp op,
                                                   const GradKernelSpecs &specs,
                                                   const KernelSpec &spec,
                                                   StringRef forwardKernel) {
  llvm::json::Object entry =
      kernel::gradManifestFields(op, specs, spec, forwardKernel);
  entry["op"] = "varlen_attention_grad";
  addPackedSizeFields(op, entry);
  return entry;
}
