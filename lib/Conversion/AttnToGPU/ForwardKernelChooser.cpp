//===- ForwardKernelChooser.cpp - one kernel configuration per forward op -===//
//
// The GPU kernel-configuration chooser of the forward ops (attn.attention,
// attn.varlen_attention): the kernel family (wgmma, mma.sync, CUDA-core),
// its tiles, and the split-KV chunk count, decided once per op and recorded
// on it as #attn.tiles with a `kernel` field. Every GPU route goes through
// here (attn-select-kernels, attn-to-gpu and so attn-gpu-pipeline,
// attn-compile), and an op that already carries such an attribute (chosen
// earlier, or written by a user) is compiled exactly as it says or not at
// all: an override the kernels cannot take is an error at the op that names
// the nearest configuration they can.
//
// The rules themselves live beside the kernels they describe
// (TensorCoreTiling.cpp, CudaCoreKernel.h, SplitKVKernels.cpp); this file
// orders them: split-KV for decoding-like ops, else one kernel, tensor
// cores where they apply.
//
//===----------------------------------------------------------------------===//

#include "CudaCoreKernel.h"
#include "KernelCommon.h"
#include "SplitKV.h"
#include "TensorCoreKernel.h"

using namespace mlir;
using namespace mlir::attn;

TileConfigAttr ForwardKernelConfig::toAttr(MLIRContext *ctx) const {
  return TileConfigAttr::get(
      ctx, blockQ, blockKV, stages, warps, kernel,
      splits ? std::optional<int64_t>(splits) : std::nullopt,
      tma ? std::optional<TileLoads>(TileLoads::tma) : std::nullopt,
      persistentBlocks ? std::optional<TileSchedule>(TileSchedule::persistent)
                       : std::nullopt);
}

/// A --mma=wgmma that the rule did not follow (the op compiles to the
/// mma.sync kernel): a remark with the reason, so that nothing the user
/// asked for is dropped silently.
static void remarkWgmmaNotTaken(AttentionOpInterface op,
                                const TensorCoreTiling &requested,
                                const tc::Tiling &got) {
  if (!requested.warpgroupMmaRequested || got.warpgroupMma)
    return;
  std::string why;
  if (requested.warps)
    why = "--warps sets the mma.sync kernel's warp count";
  else if (tc::wgmmaApplies(op, why))
    why = "its tiles do not fit";
  op.emitRemark("GPU code generation: --mma=wgmma not taken, the mma.sync "
                "kernel instead: ")
      << why;
}

/// The tensor-core tiling under `requested` (a diagnostic where it fails).
static FailureOr<ForwardKernelConfig>
chooseTensorCore(AttentionOpInterface op, const TensorCoreTiling &requested) {
  std::string why;
  std::optional<tc::Tiling> t = tc::chooseTiling(op, requested, why);
  if (!t)
    return op.emitOpError("GPU code generation: tensor-core tiling: ") << why;
  remarkWgmmaNotTaken(op, requested, *t);
  return tc::configOf(*t);
}

/// The split_kv stage's configuration for a split into `splits` chunks (the
/// split chooser accepted it with this tiling request).
static ForwardKernelConfig splitConfig(AttentionOpInterface op,
                                       const TensorCoreTiling &requested,
                                       int64_t splits) {
  std::string why;
  ForwardKernelConfig c =
      tc::configOf(*splitkv::splitTiling(op, requested, why));
  c.splits = splits;
  // --tma=on asks for TMA in the split stage too; say where it is not taken.
  if (requested.tmaEverywhere && !c.tma) {
    std::string whyNot;
    if (c.kernel != KernelFamily::wgmma)
      whyNot = "the stage is the mma.sync kernel here (TMA feeds wgmma)";
    else if (tc::tmaApplies(op, whyNot))
      whyNot = "its " + std::to_string(splitkv::kSplitBlockQ) +
               " packed query rows are not whole boxes (Lq x Hq/Hkv over " +
               std::to_string(splitkv::kSplitBlockQ) +
               ", Lq not dividing it, and Hq != Hkv)";
    op.emitRemark("GPU code generation: --tma=on not taken in the split_kv "
                  "stage, cp.async instead: ")
        << whyNot;
  }
  return c;
}

/// The block_q of a kernel-less #attn.tiles (attn-select-tiles' choice for
/// the tiled loops), a hint for the CUDA-core kernel; 0 without one.
static int64_t blockQHint(Operation *op) {
  auto tiles = op->getAttrOfType<TileConfigAttr>(kTilesAttrName);
  return tiles ? tiles.getBlockQ() : 0;
}

/// The rules for attn.attention: the split-KV group where it pays, else one
/// kernel, on tensor cores where they apply (a remark says why not when the
/// choice was left to the compiler).
static FailureOr<ForwardKernelConfig>
chooseDense(AttentionOp op, const GpuCodegenOptions &options) {
  // Query rows the split_kv stage does not take (it packs 64 rows in 4
  // warps) are not dropped: under --split-kv=auto they leave the op to the
  // one-kernel forward, which takes them or says why not; a forced split
  // is an error naming both.
  SplitKVOptions split = options.splitKV;
  const TensorCoreTiling &f = options.forward;
  const bool otherRows = (f.blockQ && f.blockQ != splitkv::kSplitBlockQ) ||
                         (f.warps && f.warps != splitkv::kSplitBlockQ / 16);
  if (otherRows && split.splits > 0) {
    std::string asked;
    if (f.blockQ)
      asked += " --block-q=" + std::to_string(f.blockQ);
    if (f.warps)
      asked += " --warps=" + std::to_string(f.warps);
    return op.emitOpError("GPU code generation: --split-kv=")
           << split.splits << " packs " << splitkv::kSplitBlockQ
           << " query rows in " << splitkv::kSplitBlockQ / 16
           << " warps per block, not" << asked;
  }
  if (otherRows && split.splits == -1)
    split.splits = 0;
  FailureOr<int64_t> splits = splitkv::chooseSplits(
      op, split, options.kernel, options.forward,
      ("--split-kv=" + Twine(options.splitKV.splits)).str());
  if (failed(splits))
    return failure();
  if (*splits)
    return splitConfig(op, options.forward, *splits);
  if (failed(kernel::checkKernelShapes(op)))
    return failure();
  std::string whyNot;
  const bool tensorCores = tc::isEligible(op, whyNot, options.forward.tf32);
  if (options.kernel == KernelChoice::TensorCore && !tensorCores)
    return op.emitOpError("GPU code generation: no tensor-core kernel: ")
           << whyNot;
  if (!tensorCores && options.kernel == KernelChoice::Auto)
    op.emitRemark("GPU code generation: CUDA-core kernel, no tensor-core "
                  "kernel: ")
        << whyNot;
  if (tensorCores && options.kernel != KernelChoice::CudaCore) {
    std::string why;
    if (std::optional<tc::Tiling> t =
            tc::chooseTiling(op, options.forward, why)) {
      remarkWgmmaNotTaken(op, options.forward, *t);
      return tc::configOf(*t);
    }
    // f32 in tf32 only where its tiles fit (the 4-byte tiles of D = 256
    // exceed sm_80's shared memory); elsewhere the exact kernel, with a
    // remark.
    if (options.kernel != KernelChoice::Auto ||
        !op.getQueryType().getElementType().isF32())
      return op.emitOpError("GPU code generation: tensor-core tiling: ") << why;
    op.emitRemark("GPU code generation: CUDA-core kernel (exact f32), no "
                  "tf32 tensor-core kernel: ")
        << why;
  }
  FailureOr<cc::Tiling> t = cc::chooseTiling(op, blockQHint(op));
  if (failed(t))
    return failure();
  return cc::configOf(*t);
}

/// The configuration an op's #attn.tiles names, checked against what the
/// kernels can take.
static FailureOr<ForwardKernelConfig>
honourTiles(AttentionOpInterface op, TileConfigAttr tiles,
            const GpuCodegenOptions &options) {
  auto dense = dyn_cast<AttentionOp>(op.getOperation());
  auto packed = dyn_cast<VarlenAttentionOp>(op.getOperation());
  const KernelFamily family = *tiles.getKernel();
  auto refuse = [&](const Twine &why) {
    return op.emitOpError("GPU code generation: cannot honour ")
           << tiles << ": " << why;
  };
  if (packed && tiles.getSplits())
    return refuse("packed batches have no split-KV group");
  if (packed && family == KernelFamily::cuda_core)
    return refuse("packed batches have no CUDA-core kernel");
  auto paged = dyn_cast<PagedAttentionOp>(op.getOperation());
  if (paged && (family == KernelFamily::cuda_core || !tiles.getSplits()))
    return refuse("a paged cache is read by the split-KV group only "
                  "(kernel = wgmma or mma_sync with splits = N)");

  ForwardKernelConfig got;
  if (family == KernelFamily::cuda_core) {
    FailureOr<cc::Tiling> t = cc::chooseTiling(dense, tiles.getBlockQ());
    if (failed(t))
      return failure();
    got = cc::configOf(*t);
  } else {
    if (dense ? failed(kernel::checkKernelShapes(dense))
        : packed
            ? failed(
                  kernel::checkPackedKernel(packed, KernelChoice::TensorCore))
            : failed(kernel::checkPagedKernel(paged, KernelChoice::TensorCore)))
      return failure();
    std::string why;
    // A tensor-core kernel written for an f32 op asks for tf32: there is
    // no other way to multiply f32 on the tensor cores.
    if (!tc::isEligible(op, why, /*tf32=*/true))
      return refuse("no tensor-core kernel: " + why);
    const bool wgmma = family == KernelFamily::wgmma;
    if (wgmma && options.chip != "sm_90a")
      return refuse("kernel = wgmma needs chip=sm_90a, not " + options.chip);
    // (The split_kv stage has its own wgmma rule, splitkv::splitTiling.)
    if (wgmma && !tiles.getSplits() && !tc::wgmmaApplies(op, why))
      return refuse("the wgmma kernel does not take this op: " + why);
    TensorCoreTiling requested = options.forward;
    requested.blockQ = tiles.getBlockQ();
    requested.blockKV = tiles.getBlockKv();
    // The wgmma kernel's warps follow from its query rows (16 each).
    requested.warps = wgmma ? 0 : tiles.getWarps();
    requested.warpgroupMma = wgmma;
    // An absent `loads` is cp_async: the configuration is honoured as
    // written, not as the chooser would have decided it.
    requested.tma = requested.tmaEverywhere =
        tiles.getLoads() == TileLoads::tma;
    if (requested.tma && !tc::tmaApplies(op, why))
      return refuse("loads = tma: " + why);
    requested.persistent = tiles.getSchedule() == TileSchedule::persistent
                               ? PersistentChoice::on
                               : PersistentChoice::off;
    requested.smCount = options.splitKV.smCount;
    if (requested.persistent == PersistentChoice::on &&
        !tc::persistentApplies(op, why))
      return refuse("schedule = persistent: " + why);
    if (requested.tma && tiles.getSplits()) {
      const int64_t group = op.getGroupSize(),
                    tokens = op.getQueryType().getDimSize(2);
      if (!splitkv::queryBox(group, tokens, splitkv::kSplitBlockQ))
        return refuse("loads = tma: a " + Twine(splitkv::kSplitBlockQ) +
                      "-row block of the " + Twine(group) + " x " +
                      Twine(tokens) +
                      " packed query rows starts inside a head, which no "
                      "tensor-map box covers");
    }
    if (std::optional<int64_t> splits = tiles.getSplits()) {
      SplitKVOptions split = options.splitKV;
      split.splits = *splits;
      FailureOr<int64_t> n = splitkv::chooseSplits(
          op, split, KernelChoice::TensorCore, requested,
          ("splits = " +
           (ShapedType::isDynamic(*splits) ? Twine("?") : Twine(*splits)) +
           " in attn.tiles")
              .str());
      if (failed(n))
        return failure();
      got = splitConfig(op, requested, *n);
    } else {
      std::optional<tc::Tiling> t = tc::chooseTiling(op, requested, why);
      if (!t)
        return refuse(why);
      got = tc::configOf(*t);
    }
  }
  // `loads = cp_async` and `schedule = grid` are the absent fields'
  // meaning.
  if (tiles.getLoads() == TileLoads::cp_async ||
      tiles.getSchedule() == TileSchedule::grid)
    tiles = TileConfigAttr::get(
        op->getContext(), tiles.getBlockQ(), tiles.getBlockKv(),
        tiles.getStages(), tiles.getWarps(), tiles.getKernel(),
        tiles.getSplits(),
        tiles.getLoads() == TileLoads::cp_async ? std::nullopt
                                                : tiles.getLoads(),
        tiles.getSchedule() == TileSchedule::grid ? std::nullopt
                                                  : tiles.getSchedule());
  if (TileConfigAttr nearest = got.toAttr(op->getContext()); nearest != tiles) {
    std::string text;
    llvm::raw_string_ostream(text) << nearest;
    return refuse("for this op that kernel takes " + text);
  }
  return got;
}

/// The rules for attn.paged_attention: the split-KV group, its only
/// kernels.
static FailureOr<ForwardKernelConfig>
choosePaged(PagedAttentionOp op, const GpuCodegenOptions &options) {
  if (failed(kernel::checkPagedKernel(op, options.kernel)))
    return failure();
  FailureOr<int64_t> splits = splitkv::chooseSplits(
      op, options.splitKV, options.kernel, options.forward,
      options.splitKV.splits == 0
          ? "--split-kv=off"
          : ("--split-kv=" + Twine(options.splitKV.splits)).str());
  if (failed(splits))
    return failure();
  return splitConfig(op, options.forward, *splits);
}

FailureOr<ForwardKernelConfig>
mlir::attn::chooseForwardKernel(AttentionOpInterface op,
                                const GpuCodegenOptions &options) {
  auto tiles = op->getAttrOfType<TileConfigAttr>(kTilesAttrName);
  if (tiles && tiles.getKernel())
    return honourTiles(op, tiles, options);
  if (auto dense = dyn_cast<AttentionOp>(op.getOperation()))
    return chooseDense(dense, options);
  if (auto paged = dyn_cast<PagedAttentionOp>(op.getOperation()))
    return choosePaged(paged, options);
  auto packed = cast<VarlenAttentionOp>(op.getOperation());
  if (failed(kernel::checkPackedKernel(packed, options.kernel)))
    return failure();
  if (options.splitKV.splits > 0)
    op.emitRemark("GPU code generation: --split-kv=")
        << options.splitKV.splits
        << " does not apply to a packed batch (no split-KV group for "
           "attn.varlen_attention): one kernel";
  return chooseTensorCore(op, options.forward);
}
