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
static int64_t packedRows(AttentionOpInterface op) {
  RankedTensorType q = op.getQueryType();
  return q.getDimSize(1) / op.getKeyHeads() * q.getDimSize(2);
}

/// The shape checks of the kernels of `op` (a dense or a paged forward op).
static LogicalResult checkShapes(AttentionOpInterface op) {
  if (auto paged = dyn_cast<PagedAttentionOp>(op.getOperation()))
    return kernel::checkPagedKernel(paged, KernelChoice::TensorCore);
  return kernel::checkKernelShapes(op);
}

std::optional<std::pair<int64_t, int64_t>>
splitkv::queryBox(int64_t group, int64_t tokens, int64_t blockQ) {
  // Row i of the packed rows is token i mod Lq of head hIdx + i div Lq: a
  // box of whole heads ({64, Lq, G', 1}) lays them out in that order.
  if (group * tokens <= blockQ)
    return std::make_pair(tokens, group);
  if (blockQ % tokens == 0)
    return std::make_pair(tokens, blockQ / tokens);
  // One head: plain rows, those past Lq zero-filled.
  if (group == 1)
    return std::make_pair(blockQ, int64_t(1));
  return std::nullopt;
}

/// The wgmma split_kv stage (sm_90a): one consumer warpgroup of 64 packed
/// rows and 64 keys per step (unless asked otherwise), two blocks per SM
/// (the shared memory of 2 x (Q + 2 stages of K and V) and the consumers'
/// registers after setmaxnreg both fit), the producer copying with
/// cp.async: on the H200 (docs/performance.md, session 27) it streamed the
/// cache at 3.4-4.2 TB/s, 4-8 % faster than the mma.sync stage, while the
/// same kernel with TMA loads (one box per 64-column panel) was within 2 %
/// of the mma.sync stage on five shapes and 18-22 % slower on two (B8,
/// Lk 8k at Lq 1 and 16), so TMA is taken only where asked for
/// (tmaEverywhere) and where the packed rows form whole boxes (queryBox).
/// None where the fragments or two blocks per SM do not fit (D = 256).
static std::optional<tc::Tiling>
splitWgmmaTiling(AttentionOpInterface op, const TensorCoreTiling &requested) {
  tc::Tiling t;
  t.blockQ = splitkv::kSplitBlockQ;
  t.warps = t.blockQ / 16;
  t.warpgroupMma = true;
  t.blockKV = requested.blockKV ? requested.blockKV : 64;
  if (t.blockKV != 64 && t.blockKV != 128)
    return std::nullopt;
  const tc::TileDims dims =
      tc::tileDims(op.getHeadDimSize(), op.getValueDimSize(), true);
  if (tc::wgmmaFragmentRegisters(t.blockKV, dims) >
      splitkv::kSplitWgmmaFragmentBudget)
    return std::nullopt;
  if (tc::sharedMemoryBytes(op, t) * kSplitKVBlocksPerSM >
      maxDynamicSharedBytes(requested.smVersion))
    return std::nullopt;
  std::string whyNoTma;
  t.tma = requested.tma && requested.tmaEverywhere &&
          tc::tmaApplies(op, whyNoTma) &&
          splitkv::queryBox(op.getGroupSize(), op.getQueryType().getDimSize(2),
                            t.blockQ);
  return t;
}

std::optional<tc::Tiling> splitkv::splitTiling(AttentionOpInterface op,
                                               const TensorCoreTiling &tiling,
                                               std::string &why) {
  if (tiling.warpgroupMma && !tiling.warps &&
      (!tiling.blockQ || tiling.blockQ == kSplitBlockQ))
    if (std::optional<tc::Tiling> t = splitWgmmaTiling(op, tiling))
      return t;
  TensorCoreTiling requested;
  requested.blockQ = kSplitBlockQ;
  requested.warps = kSplitBlockQ / 16;
  requested.blockKV = tiling.blockKV;
  requested.smVersion = tiling.smVersion;
  return tc::chooseTiling(op, requested, why);
}

/// Why `op` cannot take the split-KV group (empty when it can).
static std::string whyNoSplit(AttentionOpInterface op, KernelChoice choice) {
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

int64_t mlir::attn::splitKVRule(int64_t smCount, int64_t blocksPerChunk,
                                int64_t batch, int64_t keyLen,
                                int64_t minChunkKeys) {
  // As many chunks as fill the block slots in one wave (a partial second
  // wave would cost a whole chunk's time).
  int64_t splits = kSplitKVBlocksPerSM * smCount / (blocksPerChunk * batch);
  // At least two key blocks per chunk where the key length is known.
  if (!ShapedType::isDynamic(keyLen))
    splits = std::min(splits, (keyLen + minChunkKeys - 1) / minChunkKeys);
  return std::max<int64_t>(1, std::min(splits, kMaxSplitKV));
}

FailureOr<int64_t> splitkv::chooseSplits(AttentionOpInterface op,
                                         const SplitKVOptions &options,
                                         KernelChoice choice,
                                         const TensorCoreTiling &tiling,
                                         StringRef request) {
  // A paged cache has no one-kernel forward: it always takes the group.
  const bool paged = op.isPaged();
  if (options.splits == 0 && paged)
    return op.emitOpError("GPU code generation: ")
           << request
           << " does not apply: a paged key/value cache is read by the "
              "split-KV group only";
  if (options.splits == 0)
    return 0;
  const bool atLaunch = ShapedType::isDynamic(options.splits);
  // Sizes no kernel takes are the same diagnostic as without a split (and
  // keep the arithmetic below within range).
  if (failed(checkShapes(op)))
    return failure();
  std::string why = whyNoSplit(op, choice);
  std::optional<tc::Tiling> split;
  if (why.empty() && !(split = splitTiling(op, tiling, why)))
    why = "tensor-core tiling: " + why;
  if (!why.empty()) {
    if (options.splits < 0 && !atLaunch && !paged)
      return 0;
    return op.emitOpError("GPU code generation: ")
           << request << " does not apply: " << why;
  }
  if (options.splits > 0 || atLaunch)
    return options.splits;

  // Auto: decoding-like ops (the packed rows of a KV head fill at most two
  // row blocks). A paged cache splits whatever its rows.
  RankedTensorType q = op.getQueryType();
  const int64_t batch = q.getDimSize(0);
  const int64_t keyLen = op.getKeyLenBound();
  const int64_t rowBlocks =
      (packedRows(op) + split->blockQ - 1) / split->blockQ;
  if (!paged && rowBlocks > 2)
    return 0;
  // A run-time batch or key length: the same rule at launch, from the
  // sizes and the SMs of the launching device.
  if (ShapedType::isDynamic(batch) || ShapedType::isDynamic(keyLen))
    return ShapedType::kDynamic;
  const int64_t splits =
      splitKVRule(options.smCount, rowBlocks * op.getKeyHeads(), batch, keyLen,
                  2 * split->blockKV);
  // One chunk still pays where query heads share a KV head: the forward
  // kernel reads each KV head's cache once per query head, the packed
  // tile once.
  return splits >= 2 || op.getGroupSize() > 1 || paged ? splits : 0;
}

FailureOr<SmallVector<KernelSpec, 2>>
mlir::attn::describeSplitKVAttentionKernels(AttentionOpInterface op, int64_t n,
                                            const ForwardKernelConfig &config) {
  if (failed(checkShapes(op)))
    return failure();
  const int64_t splits = config.splits;
  const tc::Tiling t = tc::tilingOf(config);
  RankedTensorType q = op.getQueryType();
  const int64_t batch = q.getDimSize(0), heads = q.getDimSize(1),
                queryLen = q.getDimSize(2), kvHeads = op.getKeyHeads();
  const std::string suffix = std::to_string(n);

  auto workspace = [&](StringRef name, SmallVector<int64_t> shape) {
    KernelParam p;
    p.name = name.str();
    p.isWorkspace = true;
    p.dtype = "f32";
    p.shape = std::move(shape);
    return p;
  };
  const KernelParam workspaces[] = {
      workspace("partial_output",
                {batch, splits, heads, queryLen, op.getValueDimSize()}),
      workspace("partial_lse", {batch, splits, heads, queryLen})};
  // The run-time sizes are the batch and lengths of a dense op (the query
  // length is static here), a paged cache's batch and page count (the
  // kernels do not read num_pages: it sizes the caches for the runtime's
  // checks), then the chunk count where it is decided at launch.
  const abi::Family family =
      op.isPaged() ? abi::Family::Paged : abi::Family::SplitKV;
  abi::Features features = kernel::abiFeatures(op);
  features.splitsAtLaunch = ShapedType::isDynamic(splits);

  KernelSpec split;
  split.name = "attn_fwd_split_kv_" + suffix;
  split.source = kernel::sourceOf(op.getLoc());
  split.stage = abi::Stage::SplitKV;
  split.group = "attn_fwd_" + suffix;
  split.splits = splits;
  split.tensorCores = true;
  split.warpgroupMma = t.warpgroupMma;
  split.tma = t.tma;
  split.blockQ = t.blockQ;
  split.blockKV = t.blockKV;
  split.block = {t.threads(), 1, 1};
  split.dynamicSharedBytes = tc::sharedMemoryBytes(op, t);
  const int64_t rowBlocks = (packedRows(op) + t.blockQ - 1) / t.blockQ;
  // A count decided at launch is also the grid's x then (0: computed at
  // launch).
  split.grid = {kernel::gridBatch(splits), rowBlocks * kvHeads,
                kernel::gridBatch(batch)};
  split.params = kernel::abiParams(op, family, features, workspaces);

  KernelSpec combine;
  combine.name = "attn_fwd_combine_" + suffix;
  combine.source = split.source;
  combine.stage = abi::Stage::Combine;
  combine.group = split.group;
  combine.splits = splits;
  combine.blockQ = splitkv::kCombineRowsPerBlock;
  combine.blockKV = split.blockKV;
  combine.block = {32 * splitkv::kCombineRowsPerBlock, 1, 1};
  combine.grid = {(heads * queryLen + splitkv::kCombineRowsPerBlock - 1) /
                      splitkv::kCombineRowsPerBlock,
                  kernel::gridBatch(batch), 1};
  features.combine = true;
  combine.params = kernel::abiParams(op, family, features, workspaces);

  if (split.tma) {
    // The packed rows of a row block as one box of whole heads (queryBox),
    // K and V as the one-kernel forward loads them: one SW128 panel (64
    // columns) per copy.
    auto [boxTokens, boxHeads] =
        *splitkv::queryBox(op.getGroupSize(), queryLen, t.blockQ);
    using kernel::tensorMapParam;
    split.params.push_back(
        tensorMapParam("query", {64, boxTokens, boxHeads, 1}));
    split.params.push_back(tensorMapParam("key", {64, t.blockKV, 1, 1}));
    split.params.push_back(tensorMapParam("value", {64, t.blockKV, 1, 1}));
  }
  return SmallVector<KernelSpec, 2>{split, combine};
}

LogicalResult
mlir::attn::buildSplitKVAttentionKernels(OpBuilder &b, gpu::GPUModuleOp module,
                                         AttentionOpInterface op,
                                         ArrayRef<KernelSpec> specs) {
  for (const KernelSpec &spec : specs) {
    SmallVector<Type> argTypes;
    for (const KernelParam &p : spec.params) {
      Type elt;
      if (p.isWorkspace || p.name == "lse")
        elt = b.getF32Type();
      else if (p.name == "block_table" || p.name == "cache_seqlens")
        elt = b.getI32Type();
      else if (p.name == "mask")
        elt = cast<ShapedType>(op.getMask().getType()).getElementType();
      else if (p.isTensor)
        elt = op.getQueryType().getElementType();
      argTypes.push_back(kernel::flatArgumentType(b, p, elt));
    }
    gpu::GPUFuncOp func =
        kernel::createTensorCoreFunc(b, module, op.getLoc(), spec, argTypes);
    if (spec.stage == abi::Stage::SplitKV)
      tc::emitKernel(b, func, op, spec);
    else
      splitkv::emitCombineKernel(b, func, op, spec);
  }
  return success();
}
