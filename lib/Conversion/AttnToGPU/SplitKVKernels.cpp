//===- SplitKVKernels.cpp - the split-KV forward group (decoding) ---------===//
//
// Flash-decoding as a forward group (docs/kernel-manifest.md, "Split-KV
// forward groups"): when the one-kernel forward has too few blocks to fill
// the chip (few query tokens per sequence against a long cache), the
// split_kv stage runs the mma.sync forward (TensorCoreKernelBuilder.cpp)
// over chunks of the key range, with the Hq / Hkv query heads of one KV head
// packed into the rows of one tile (their rows are contiguous in
// [B, Hq, Lq, D], so K and V are read once per KV head), and writes each
// chunk's normalised output and log-sum-exp to f32 workspaces; the combine
// stage (CombineKernelBuilder.cpp) merges the chunks by their lse.
//
//===----------------------------------------------------------------------===//

#include "KernelCommon.h"
#include "SplitKV.h"
#include "TensorCoreKernel.h"

using namespace mlir;
using namespace mlir::attn;

/// The packed rows of one KV head: its Hq / Hkv query heads times Lq.
static int64_t packedRows(AttentionOp op) {
  RankedTensorType q = op.getQueryType();
  return q.getDimSize(1) / op.getKeyType().getDimSize(1) * q.getDimSize(2);
}

std::optional<tc::Tiling> splitkv::splitTiling(AttentionOp op,
                                               const TensorCoreTiling &tiling,
                                               std::string &why) {
  TensorCoreTiling requested;
  requested.blockQ = 64;
  requested.warps = 4;
  requested.blockKV = tiling.blockKV;
  requested.smVersion = tiling.smVersion;
  return tc::chooseTiling(op, requested, why);
}

/// Why `op` cannot take the split-KV group (empty when it can).
static std::string whyNoSplit(AttentionOp op, KernelChoice choice) {
  std::string why;
  if (choice == KernelChoice::CudaCore)
    return "the CUDA-core kernel was asked for (--kernel=cuda-core)";
  if (!tc::isEligible(op, why))
    return "no tensor-core kernel: " + why;
  if (op.getDropoutP().convertToFloat() > 0.0f)
    return "the op has dropout";
  if (op.getQueryType().isDynamicDim(2))
    return "the query length is a run-time size";
  return "";
}

FailureOr<int64_t> splitkv::chooseSplits(AttentionOp op,
                                         const SplitKVOptions &options,
                                         KernelChoice choice,
                                         const TensorCoreTiling &tiling,
                                         StringRef request) {
  if (options.splits == 0)
    return 0;
  // Sizes no kernel takes are the same diagnostic as without a split (and
  // keep the arithmetic below within range).
  if (failed(kernel::checkKernelShapes(op)))
    return failure();
  std::string why = whyNoSplit(op, choice);
  std::optional<tc::Tiling> split;
  if (why.empty() && !(split = splitTiling(op, tiling, why)))
    why = "tensor-core tiling: " + why;
  if (!why.empty()) {
    if (options.splits < 0)
      return 0;
    return op.emitOpError("GPU code generation: ")
           << request << " does not apply: " << why;
  }
  if (options.splits > 0)
    return options.splits;

  // Auto: decoding-like ops (the packed rows of a KV head fill at most two
  // row blocks) with a known batch (a run-time batch keeps the forward
  // kernel; --split-kv=N forces a count for it).
  RankedTensorType q = op.getQueryType();
  const int64_t batch = q.getDimSize(0);
  const int64_t rowBlocks =
      (packedRows(op) + split->blockQ - 1) / split->blockQ;
  if (ShapedType::isDynamic(batch) || batch < 1 || rowBlocks > 2)
    return 0;
  // Two blocks per SM (4 warps each, 87 KB of shared memory at D = 128)
  // keep enough K/V copies in flight to stream the cache; as many chunks as
  // fill those slots in one wave (a partial second wave would cost a whole
  // chunk's time).
  const int64_t perChunk = rowBlocks * op.getKeyType().getDimSize(1) * batch;
  int64_t splits = 2 * options.smCount / perChunk;
  // At least two key blocks per chunk where the key length is known.
  const int64_t keyLen = op.getKeyType().getDimSize(2);
  if (!ShapedType::isDynamic(keyLen))
    splits = std::min(splits,
                      (keyLen + 2 * split->blockKV - 1) / (2 * split->blockKV));
  splits = std::max<int64_t>(1, std::min(splits, kMaxSplitKV));
  // One chunk still pays where query heads share a KV head: the forward
  // kernel reads each KV head's cache once per query head, the packed
  // tile once.
  const int64_t group = q.getDimSize(1) / op.getKeyType().getDimSize(1);
  return splits >= 2 || group > 1 ? splits : 0;
}

FailureOr<SmallVector<KernelSpec, 2>>
mlir::attn::describeSplitKVAttentionKernels(AttentionOp op, int64_t n,
                                            const ForwardKernelConfig &config) {
  if (failed(kernel::checkKernelShapes(op)))
    return failure();
  const int64_t splits = config.splits;
  const tc::Tiling t = tc::tilingOf(config);
  RankedTensorType q = op.getQueryType();
  const int64_t batch = q.getDimSize(0), heads = q.getDimSize(1),
                queryLen = q.getDimSize(2),
                kvHeads = op.getKeyType().getDimSize(1);
  const std::string suffix = std::to_string(n);

  using kernel::tensorParam;
  // Every stage takes the inputs, then the workspaces.
  SmallVector<KernelParam> inputs = {
      tensorParam("query", op.getQuery(), false),
      tensorParam("key", op.getKey(), false),
      tensorParam("value", op.getValue(), false)};
  if (op.getMask())
    inputs.push_back(tensorParam("mask", op.getMask(), false));
  auto workspace = [&](StringRef name, SmallVector<int64_t> shape) {
    KernelParam p;
    p.name = name.str();
    p.isWorkspace = true;
    p.dtype = "f32";
    p.shape = std::move(shape);
    return p;
  };
  inputs.push_back(workspace("partial_output", {batch, splits, heads, queryLen,
                                                op.getValueDimSize()}));
  inputs.push_back(workspace("partial_lse", {batch, splits, heads, queryLen}));

  KernelSpec split;
  split.name = "attn_fwd_split_kv_" + suffix;
  split.source = kernel::sourceOf(op.getLoc());
  split.stage = "split_kv";
  split.group = "attn_fwd_" + suffix;
  split.splits = splits;
  split.tensorCores = true;
  split.blockQ = t.blockQ;
  split.blockKV = t.blockKV;
  split.block = {t.threads(), 1, 1};
  split.dynamicSharedBytes = tc::sharedMemoryBytes(op, t);
  const int64_t rowBlocks = (packedRows(op) + t.blockQ - 1) / t.blockQ;
  split.grid = {splits, rowBlocks * kvHeads, kernel::gridBatch(batch)};
  split.params = inputs;

  KernelSpec combine;
  combine.name = "attn_fwd_combine_" + suffix;
  combine.source = split.source;
  combine.stage = "combine";
  combine.group = split.group;
  combine.splits = splits;
  combine.blockQ = splitkv::kCombineRowsPerBlock;
  combine.blockKV = split.blockKV;
  combine.block = {32 * splitkv::kCombineRowsPerBlock, 1, 1};
  combine.grid = {(heads * queryLen + splitkv::kCombineRowsPerBlock - 1) /
                      splitkv::kCombineRowsPerBlock,
                  kernel::gridBatch(batch), 1};
  combine.params = inputs;
  combine.params.push_back(tensorParam("output", op.getOutput(), true));
  if (op.getLse())
    combine.params.push_back(tensorParam("lse", op.getLse(), true));

  // The run-time sizes (the query length is static here).
  for (KernelSpec *spec : {&split, &combine})
    kernel::appendSizeParams(op, spec->params);
  return SmallVector<KernelSpec, 2>{split, combine};
}

LogicalResult
mlir::attn::buildSplitKVAttentionKernels(OpBuilder &b, gpu::GPUModuleOp module,
                                         AttentionOp op,
                                         ArrayRef<KernelSpec> specs) {
  for (const KernelSpec &spec : specs) {
    SmallVector<Type> argTypes;
    for (const KernelParam &p : spec.params) {
      Type elt = !p.isTensor        ? Type()
                 : p.isWorkspace    ? Type(b.getF32Type())
                 : p.name == "lse"  ? op.getLse().getType()
                 : p.name == "mask" ? op.getMask().getType()
                                    : op.getQuery().getType();
      if (elt && isa<ShapedType>(elt))
        elt = cast<ShapedType>(elt).getElementType();
      argTypes.push_back(kernel::flatArgumentType(b, p, elt));
    }
    gpu::GPUFuncOp func =
        kernel::createTensorCoreFunc(b, module, op.getLoc(), spec, argTypes);
    if (spec.stage == "split_kv")
      tc::emitKernel(b, func, op, spec);
    else
      splitkv::emitCombineKernel(b, func, op, spec);
  }
  return success();
}
