//===- MergeKernels.cpp - the kernel of attn.merge_partials ---------------===//
//
// attn.merge_partials on the GPU: the split-KV group's combine kernel
// (CombineKernelBuilder.cpp) on [S, rows] partials, one warp per row, with
// empty partials (lse -inf) ignored whatever their outputs hold. The kernel
// interface is docs/kernel-manifest.md, "Merging partial results".
//
//===----------------------------------------------------------------------===//

#include "KernelCommon.h"
#include "SplitKV.h"

using namespace mlir;
using namespace mlir::attn;

/// The rows of `op`: the product of the dims between S and Dv.
static int64_t mergeRows(MergePartialsOp op) {
  RankedTensorType t = op.getOutputType();
  return t.getNumElements() / t.getDimSize(t.getRank() - 1);
}

FailureOr<KernelSpec> mlir::attn::describeMergeKernel(MergePartialsOp op,
                                                      StringRef name) {
  for (Value v : llvm::concat<Value>(op->getOperands(), op->getResults()))
    if (auto t = cast<RankedTensorType>(v.getType()); !t.hasStaticShape())
      return op.emitOpError("GPU code generation needs static shapes: ")
             << t << " is dynamic";
  RankedTensorType out = op.getOutputType();
  if (out.getNumElements() == 0)
    return op.emitOpError("GPU code generation: empty output (")
           << out << "): the kernel needs every size >= 1";
  const int64_t rows = mergeRows(op);
  constexpr int64_t kMaxGridX = (int64_t(1) << 31) - 1;
  if ((rows + splitkv::kCombineRowsPerBlock - 1) /
          splitkv::kCombineRowsPerBlock >
      kMaxGridX)
    return op.emitOpError("GPU code generation: ")
           << rows << " rows exceed the grid's " << kMaxGridX << " blocks of "
           << splitkv::kCombineRowsPerBlock;
  KernelSpec spec;
  spec.name = name.str();
  spec.source = kernel::sourceOf(op.getLoc());
  spec.splits = op.getSplits();
  spec.blockQ = splitkv::kCombineRowsPerBlock;
  spec.block = {32 * splitkv::kCombineRowsPerBlock, 1, 1};
  spec.grid = {(rows + splitkv::kCombineRowsPerBlock - 1) /
                   splitkv::kCombineRowsPerBlock,
               1, 1};
  spec.params =
      kernel::abiParams(op, abi::Family::Merge, kernel::abiFeatures(op));
  return spec;
}

LogicalResult mlir::attn::buildMergeKernel(OpBuilder &b,
                                           gpu::GPUModuleOp module,
                                           MergePartialsOp op,
                                           const KernelSpec &spec) {
  SmallVector<Type> argTypes;
  for (const KernelParam &p : spec.params) {
    Value v = p.name == "partial_output" ? op.getPartialOutput()
              : p.name == "partial_lse"  ? op.getPartialLse()
              : p.name == "output"       ? op.getOutput()
                                         : op.getLse();
    argTypes.push_back(kernel::flatArgumentType(
        b, p, cast<ShapedType>(v.getType()).getElementType()));
  }
  gpu::GPUFuncOp func =
      kernel::createTensorCoreFunc(b, module, op.getLoc(), spec, argTypes);
  splitkv::CombineLayout layout;
  layout.rowsPerBatch = mergeRows(op);
  layout.valueDim = op.getOutputType().getDimSize(
      op.getOutputType().getRank() - 1);
  layout.outputType = op.getOutputType().getElementType();
  layout.splitMajor = true;
  layout.ignoreEmptyOutputs = true;
  splitkv::emitCombineKernel(b, func, op.getLoc(), layout, spec);
  return success();
}

llvm::json::Object mlir::attn::kernelManifestEntry(MergePartialsOp op,
                                                   const KernelSpec &spec) {
  using llvm::json::Array;
  using llvm::json::Object;
  RankedTensorType out = op.getOutputType();
  return Object{
      {"name", spec.name},
      {"source", spec.source},
      {"op", "merge_partials"},
      {"dtype", kernel::dtypeName(out.getElementType())},
      {"partial_dtype",
       kernel::dtypeName(op.getPartialOutputType().getElementType())},
      {"splits", spec.splits},
      {"rows", mergeRows(op)},
      {"value_dim", out.getDimSize(out.getRank() - 1)},
      {"has_lse", static_cast<bool>(op.getLse())},
      {"grid", Array{spec.grid[0], spec.grid[1], spec.grid[2]}},
      {"block", Array{spec.block[0], spec.block[1], spec.block[2]}},
      {"dynamic_shared_memory", 0},
      {"codegen", Object{{"kernel", "cuda-core"},
                         {"mma", "none"},
                         {"block_q", spec.blockQ},
                         {"threads", spec.block[0]}}},
      {"params", kernel::manifestParams(spec)},
  };
}
