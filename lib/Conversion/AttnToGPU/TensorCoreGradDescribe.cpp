//===- TensorCoreGradDescribe.cpp - the tensor-core backward group --------===//
//
// tcgrad::describeKernels: which kernels the tensor-core backward of one
// attn.attention_grad (or attn.varlen_attention_grad) is (prep, the
// key-block kernel on wgmma or mma.sync, then dq or dq_convert), their
// tiling, grids, workspaces and parameters (docs/kernel-manifest.md,
// "Backward kernels"); their bodies are emitted by the other
// TensorCoreGrad* files (TensorCoreGradKernelBuilder.cpp).
//
//===----------------------------------------------------------------------===//

#include "KernelCommon.h"
#include "TensorCoreGradKernel.h"
#include "WarpSpecialization.h"
#include "attnopt/Conversion/AttnToGPU/AttnToGPU.h"

using namespace mlir;
using namespace mlir::attn;
using namespace mlir::attn::kernel;

/// Whether the gradient op asks for bit-reproducible gradients.
static bool isDeterministic(AttentionOpInterface op) {
  if (auto packed = dyn_cast<VarlenAttentionGradOp>(op.getOperation()))
    return packed.getDeterministic();
  return cast<AttentionGradOp>(op.getOperation()).getDeterministic();
}

/// An f32 workspace of `shape`; `queryLenMultiple`: its dimension 2 is the
/// run-time query length rounded up to that (0: none).
static KernelParam workspaceParam(StringRef name, ArrayRef<int64_t> shape,
                                  int64_t queryLenMultiple) {
  KernelParam p;
  p.name = name.str();
  p.isWorkspace = true;
  p.dtype = "f32";
  p.shape.assign(shape.begin(), shape.end());
  p.queryLenMultiple = queryLenMultiple;
  return p;
}

/// The workspaces' query rows per head and the `query_len_multiple` of
/// their row dimension: Lq rounded up to whole query blocks, or for a
/// packed batch W = 4 ceil(Tq / 4) + 68 B (docs/kernel-manifest.md, "Packed
/// backward kernels"; dynamic where Tq or B is).
static std::pair<int64_t, int64_t> workspaceRows(AttentionOpInterface op) {
  if (op.isPacked()) {
    int64_t tokens = op.getQueryType().getDimSize(0), batch = packedBatch(op);
    if (ShapedType::isDynamic(tokens) || ShapedType::isDynamic(batch))
      return {ShapedType::kDynamic, 0};
    return {roundUp(tokens, 4) + 68 * batch, 0};
  }
  int64_t queryLen = op.getQueryType().getDimSize(2);
  if (ShapedType::isDynamic(queryLen))
    return {queryLen, tcgrad::kBlock};
  return {roundUp(queryLen, tcgrad::kBlock), 0};
}

/// The tensor-core group (TensorCoreGradKernelBuilder.cpp): 64 query rows
/// per block; the key-block kernel takes 64 or 128 keys (chooseKeyBlock, one
/// warp per 16), the kernels over query blocks have 4 warps; dynamic shared
/// memory. A prep kernel writes D_i and lse·log2(e) per query row (padded to
/// whole 64-row blocks, so the key-block kernel copies them with cp.async
/// like Q and dO). With the atomic dQ (GradDqMode::Atomic, or Auto on sm_90)
/// and an op without `deterministic`, the key-block kernel also adds dS K to
/// an f32 dQ accumulator with atomics (FlashAttention-2's five products per
/// block pair instead of seven) and a last kernel scales and converts it.
/// Fewer than 64 queries (decoding) keep the atomic-free kernels: one query
/// block makes the separate dq kernel cheap, and ptxas spills the fused
/// kernel there (ragged single block); so do the ops whose wgmma key-block
/// kernel (tcgrad::hasWarpgroupKeyBlock) is not taken (sm_80, and the
/// spilling cases below),
/// except D = Dv = 64 and 128, whose mma.sync key-block kernel has the
/// atomic dQ too (tcgrad::hasAtomicDq), and the split wgmma kernel where
/// its dQ would spill (splitDqFits). A packed batch (grid x from its
/// longest sequence, z from its offsets) decides as a dense op whose
/// lengths are bounded by the token totals.
FailureOr<GradKernelConfig>
tcgrad::chooseConfig(AttentionOpInterface op,
                     const GradKernelOptions &options) {
  RankedTensorType q = op.getQueryType();
  const bool packed = op.isPacked();
  int64_t batch = packed ? packedBatch(op) : q.getDimSize(0),
          queryLen = op.getUniformQueryLen(), headDim = op.getHeadDimSize();
  int64_t keyLen = op.getUniformKeyLen(), valueDim = op.getValueDimSize();
  const bool wantAtomics =
      options.dqMode == GradDqMode::Atomic ||
      (options.dqMode == GradDqMode::Auto && options.vectorReductions);
  const bool dropout = op.getDropoutP().convertToFloat() > 0.0f;
  const bool elementwise = op.getMask() || op.getSoftcapAttr();
  const bool canSpecialize = options.tma;
  // The split wgmma kernel's dK block holds dQ's chunk beside 96-128 dK
  // accumulators: ptxas 13 spilled 84 bytes at D = 256, and 16 at D = 192
  // with Dv = 128 with a mask and softcap, in a packed batch (its sequence
  // bindings) or with run-time lengths; none at D <= 192 with static sizes
  // and neither.
  const bool staticSizes = !packed && !ShapedType::isDynamic(batch) &&
                           !ShapedType::isDynamic(queryLen) &&
                           !ShapedType::isDynamic(keyLen);
  // D + Dv > 256 on the warp-specialized wgmma kernel: the two consumer
  // warpgroups of one 64-key block split the head dims (split =
  // warpgroups; TensorCoreGradKeyBlockHeadSplit.cpp) unless asked for the
  // split blocks or 128 keys. Each thread holds half of dK and dV (64 + 64
  // accumulators at D = Dv = 256) and a 32-query slice of Sᵀ and dPᵀ, so
  // masks, softcap, dropout and the fused dQ fit beside them.
  auto headSplitLayout = [&](int64_t queryStages) {
    return tcgrad::keyBlockLayout(headDim, valueDim, 64, /*withDq=*/true,
                                  /*warpgroupMma=*/true,
                                  /*warpSpecialized=*/true, /*headSplit=*/true,
                                  queryStages);
  };
  const bool headSplit = canSpecialize && options.mma != GradMma::MmaSync &&
                         tcgrad::keyBlockParts(headDim, valueDim) == 2 &&
                         tcgrad::hasWarpgroupKeyBlock(headDim, valueDim) &&
                         options.split != KeyBlockSplit::blocks &&
                         (options.keyBlock == 0 || options.keyBlock == 64) &&
                         headSplitLayout(2).plan.launchBytes() <=
                             maxDynamicSharedBytes(options.smVersion);
  // Its fused dQ: bulk reductions where the staging tile fits (D + Dv up
  // to 384: MLA 192/128 1.16-1.19x, D = Dv = 192 causal 1.10x faster than
  // the two-block split, H200, session 45). Where it does not beside two
  // Q / dO stages (D = 256), it does beside one (FlashAttention-3's choice
  // at D = 256): the producer refills the stage while the consumers compute
  // dQ (TensorCoreGradKeyBlockHeadSplit.cpp). The chooser takes one stage
  // there whenever the fused dQ is wanted: the backward alone measured
  // 1.27-1.68x faster than the two-stage kernels with per-thread dQ or
  // the dq kernel (H200, session 47: D = 256 causal, full, GQA 16/4,
  // dropout, B2-B8 L512-4096).
  // (keyBlockLayout places the staging tile only where it fits.)
  const bool dqWanted = wantAtomics && !isDeterministic(op) &&
                        isLongLength(op.getQueryLenBound(), tcgrad::kBlock);
  const bool oneStageDq = headSplit && !options.queryStages && dqWanted &&
                          !headSplitLayout(2).dqStaging &&
                          headSplitLayout(1).dqStaging;
  const int64_t queryStages =
      options.queryStages ? options.queryStages : (oneStageDq ? 1 : 2);
  const bool headSplitStages =
      headSplit && headSplitLayout(queryStages).dqStaging.has_value();
  // Without the staging tile, per-thread reductions of 64 x D floats per
  // step, which paid only causal without GQA (1.20x the split, 1.12x the
  // head split with the dq kernel; full 0.95x the split, GQA 4 causal
  // 0.96x; dropout causal 1.23x). Elsewhere the head split keeps the dq
  // kernel (full 1.06-1.09x the split).
  const bool headSplitDq =
      headSplit &&
      (headSplitStages || (op.getCausal() != CausalMode::none &&
                           q.getDimSize(1) == op.getKeyType().getDimSize(1)));
  const bool splitDqFits =
      tcgrad::keyBlockParts(headDim, valueDim) == 1 || headSplitDq ||
      (!headSplit && headDim <= 192 && !elementwise && staticSizes);
  // The key-block kernel adds dQ itself (where its kernel family has the
  // atomic dQ, below).
  const bool fusedDq = dqWanted && splitDqFits;
  // GradMma::Auto keeps mma.sync where the wgmma kernel spills: a mask's or
  // softcap's temporaries beside the 128 dK accumulators of D = 256 (ptxas
  // 13: 40 bytes at D = Dv = 256, 4 at D = 256 with Dv = 128; none at 192),
  // and dropout's Philox state beside the accumulators of D + Dv > 128
  // except in the warp-specialized dkdv_dq kernel (240 registers a
  // consumer thread) up to D, Dv = 192. There its backward measured
  // 1.42-2.0x faster than the mma.sync kernel (H200, B2 H16 L4096, static
  // sizes; 1.42-2.03x at D = 96-128 with run-time sizes; performance.md,
  // session 30), spilling about as much (ptxas 13 there: 0 / 0 / 60 / 88 /
  // 0 / 28 bytes at D = 72 / 96 / 112 / 128 / 160 / 192 against 0 / 40 /
  // 96 / 116 / 0 / 0). (The split kernels, D + Dv > 256, have the fused dQ
  // with static sizes only: splitDqFits.) Left out: the separate dQ at
  // D <= 192 (56-68 bytes at D = 128, not measured) and packed batches (not
  // measured). Past 192, the split key-block kernels
  // (dkdv + dq) on wgmma spill 68-104 bytes with dropout (ptxas 13, D = 256)
  // and mma.sync's none, but the wgmma backward measured 1.28-1.39x faster
  // (H100, session 44: bf16 D = 256, B1-4 H16 L1024-4096, causal and not).
  const bool wgmmaDropout = canSpecialize && !packed &&
                            (fusedDq ? std::max(headDim, valueDim) <= 192
                                     : std::max(headDim, valueDim) > 192);
  const bool wgmma =
      tcgrad::hasWarpgroupKeyBlock(headDim, valueDim) &&
      (options.mma == GradMma::Wgmma ||
       (options.mma == GradMma::Auto &&
        (headSplit ||
         (!(dropout && headDim + valueDim > 128 && !wgmmaDropout) &&
          !(elementwise && std::max(headDim, valueDim) > 192)))));
  const bool atomics = fusedDq && tcgrad::hasAtomicDq(headDim, valueDim, wgmma);
  // The warp-specialized TMA form of the wgmma key-block kernel (a packed
  // batch's too: rows its boxes read past a sequence are masked, see
  // emitKeyBlockLoads).
  const bool warpSpecialized = wgmma && canSpecialize;
  std::string why;
  std::optional<int64_t> keyBlock =
      headSplit ? std::optional<int64_t>(64)
                : tcgrad::chooseKeyBlock(options.keyBlock, atomics, headDim,
                                         valueDim, options.smVersion, wgmma,
                                         warpSpecialized, why);
  if (!keyBlock)
    return op.emitOpError("GPU code generation: ") << why;
  // isEligible checked 64-key blocks; 128 asked for may not fit.
  const abi::Stage keyStage = atomics ? abi::Stage::DKDVDQ : abi::Stage::DKDV;
  const int64_t limit = maxDynamicSharedBytes(options.smVersion);
  // One Q / dO stage in the head split (the one wgmma consumer that lays
  // out and releases a one-stage ring; the other assumes two), and in the
  // mma.sync group where two stages of its streamed tiles do not fit the
  // chip (sm_80 past D = Dv = 208, sm_86 / sm_89 past 112): each step
  // waits for its copies instead of overlapping them with the products,
  // which keeps these head dims on tensor cores rather than on the
  // CUDA-core kernels (FlashAttention-2 does the same at D = 256 on the
  // A100).
  int64_t stages = 2;
  if (warpSpecialized && headSplit)
    stages = queryStages;
  else if (!wgmma)
    stages = options.queryStages
                 ? options.queryStages
                 : std::max<int64_t>(
                       1, tcgrad::mmaSyncStages(headDim, valueDim, *keyBlock,
                                                atomics, options.smVersion));
  // (An explicit configuration may ask for more than fits: say what would.)
  auto tooBig = [&](abi::Stage stage, int64_t bytes) {
    InFlightDiagnostic diag = op.emitOpError("GPU code generation: the ")
                              << abi::stageName(stage) << " kernel";
    if (stage == keyStage)
      diag << " with " << *keyBlock << " keys per block";
    diag << " needs " << bytes << " bytes of shared memory at D = " << headDim
         << ", Dv = " << valueDim << ", more than the " << limit
         << " a block has";
    if (stage == keyStage && *keyBlock == 128)
      diag << " (use 64 keys per block: grad-block-kv=64)";
    else if (!wgmma && stages == 2)
      diag << " (use one stage of its streamed tiles: query_stages = 1 in "
              "#attn.grad_kernels)";
    return diag;
  };
  if (int64_t bytes =
          tcgrad::sharedMemoryBytes(op, keyStage, tcgrad::kBlock, *keyBlock,
                                    wgmma, warpSpecialized, headSplit, stages);
      bytes > limit)
    return tooBig(keyStage, bytes);
  // The dq kernel (mma.sync in every group) takes the mma.sync group's
  // stages (describeKernels).
  if (int64_t bytes = tcgrad::sharedMemoryBytes(
          op, abi::Stage::DQ,
          tcgrad::dqRows(headDim, valueDim, options.smVersion),
          tcgrad::dqKeys(headDim, options.smVersion), false, false, false,
          wgmma ? 2 : stages);
      !atomics && bytes > limit)
    return tooBig(abi::Stage::DQ, bytes);
  GradKernelConfig config;
  config.kernel = wgmma ? KernelFamily::wgmma : KernelFamily::mma_sync;
  config.keyBlock = *keyBlock;
  config.atomicDq = atomics;
  config.tma = warpSpecialized;
  config.headSplit = headSplit;
  config.queryStages = stages;
  return config;
}

/// The group under `config`: its stages, tiling, grids, workspaces and
/// parameters.
FailureOr<GradKernelSpecs>
tcgrad::describeKernels(AttentionOpInterface op, int64_t n,
                        const GradKernelOptions &options,
                        const GradKernelConfig &config) {
  RankedTensorType q = op.getQueryType();
  const bool packed = op.isPacked();
  int64_t batch = packed ? packedBatch(op) : q.getDimSize(0),
          heads = q.getDimSize(1), queryLen = op.getUniformQueryLen(),
          headDim = op.getHeadDimSize();
  int64_t kvHeads = op.getKeyType().getDimSize(1),
          keyLen = op.getUniformKeyLen(), valueDim = op.getValueDimSize();
  const bool wgmma = config.kernel == KernelFamily::wgmma;
  const bool atomics = config.atomicDq;
  const bool warpSpecialized = config.tma;
  const std::optional<int64_t> keyBlock = config.keyBlock;
  const bool headSplit = config.headSplit;
  const int64_t dqRows = tcgrad::dqRows(headDim, valueDim, options.smVersion);
  // The wgmma dkdv_dq kernel adds dQ with bulk reductions where its
  // staging tile fits; dq_convert then reads the fragment order.
  const bool bulkDq =
      atomics && wgmma &&
      tcgrad::keyBlockLayout(headDim, valueDim, *keyBlock, /*withDq=*/true,
                             /*warpgroupMma=*/true, warpSpecialized, headSplit,
                             config.queryStages)
          .dqStaging.has_value();
  auto [rowsPerHead, multiple] = workspaceRows(op);
  SmallVector<int64_t, 4> rowsShape =
      packed ? SmallVector<int64_t, 4>{heads, rowsPerHead}
             : SmallVector<int64_t, 4>{batch, heads, rowsPerHead};
  SmallVector<int64_t, 4> accumShape = rowsShape;
  accumShape.push_back(headDim);
  KernelParam rowDot = workspaceParam("row_dot", rowsShape, multiple);
  KernelParam lseLog2 = workspaceParam("lse_log2", rowsShape, multiple);
  KernelParam dqAccum = workspaceParam("dq_accum", accumShape, multiple);

  GradKernelSpecs specs;
  specs.deterministic = !atomics;
  auto add = [&](abi::Stage stage, std::array<int64_t, 3> grid,
                 ArrayRef<KernelParam> workspaces) {
    KernelSpec spec;
    spec.name =
        ("attn_bwd_" + Twine(abi::stageName(stage)) + "_" + Twine(n)).str();
    spec.group = "attn_bwd_" + std::to_string(n);
    spec.stage = stage;
    spec.source = sourceOf(op.getLoc());
    spec.tensorCores = true;
    spec.vectorReductions = options.vectorReductions;
    const bool keyBlockStage =
        stage == abi::Stage::DKDV || stage == abi::Stage::DKDVDQ;
    spec.warpgroupMma = keyBlockStage && wgmma;
    spec.tma = keyBlockStage && warpSpecialized;
    spec.bulkDq = bulkDq && (stage == abi::Stage::DKDVDQ ||
                             stage == abi::Stage::DQConvert);
    // One warp per 16 keys (key-block kernels) or query rows (dq).
    spec.blockQ = stage == abi::Stage::DQ ? dqRows : tcgrad::kBlock;
    spec.blockKV = keyBlockStage ? *keyBlock
                   : stage == abi::Stage::DQ
                       ? tcgrad::dqKeys(headDim, options.smVersion)
                       : tcgrad::kBlock;
    spec.headSplit = keyBlockStage && headSplit;
    if (spec.tma || (keyBlockStage && !wgmma))
      spec.queryStages = config.queryStages;
    // The dq kernel (mma.sync in every group) follows the mma.sync group's
    // stages.
    if (stage == abi::Stage::DQ && !wgmma)
      spec.keyStages = config.queryStages;
    // One warp per 16 keys (two with the head split), plus the producer
    // warpgroup when warp-specialized.
    spec.block = {keyBlockStage ? (spec.headSplit ? 4 : 2) * *keyBlock +
                                      (spec.tma ? kProducerWarpgroupThreads : 0)
                  : stage == abi::Stage::DQ ? 2 * dqRows
                                            : tcgrad::kThreads,
                  1, 1};
    spec.grid = grid;
    if (stage == abi::Stage::DQ)
      spec.grid[0] = gridBlocks(queryLen, dqRows);
    if (keyBlockStage) {
      spec.keyBlockParts =
          headSplit ? 1 : tcgrad::keyBlockParts(headDim, valueDim);
      spec.grid[0] *= spec.keyBlockParts;
    }
    spec.dynamicSharedBytes = tcgrad::sharedMemoryBytes(
        op, spec.stage, spec.blockQ, spec.blockKV, spec.warpgroupMma, spec.tma,
        spec.headSplit,
        stage == abi::Stage::DQ ? spec.keyStages : spec.queryStages);
    kernel::addGradParams(op, spec, workspaces, abi::stageGradients(stage));
    if (spec.tma) {
      // One SW128 panel (64 columns) of a tile's rows per copy.
      for (StringRef t : {"query", "grad_output"})
        spec.params.push_back(
            tensorMapParam(t, kernel::tmaTileBox(packed, tcgrad::kBlock)));
      for (StringRef t : {"key", "value"})
        spec.params.push_back(
            tensorMapParam(t, kernel::tmaTileBox(packed, *keyBlock)));
    }
    specs.kernels.push_back(std::move(spec));
  };
  // 0 in a grid: computed at launch from a run-time size (a packed batch's
  // x from its longest sequence).
  const int64_t batchBlocks = gridBatch(batch);
  std::array<int64_t, 3> overQueries = {gridBlocks(queryLen, tcgrad::kBlock),
                                        heads, batchBlocks},
                         overKeys = {gridBlocks(keyLen, *keyBlock), kvHeads,
                                     batchBlocks};
  if (atomics) {
    add(abi::Stage::Prep, overQueries, {rowDot, lseLog2, dqAccum});
    add(abi::Stage::DKDVDQ, overKeys, {rowDot, lseLog2, dqAccum});
    add(abi::Stage::DQConvert, overQueries, {dqAccum});
  } else {
    add(abi::Stage::Prep, overQueries, {rowDot, lseLog2});
    add(abi::Stage::DKDV, overKeys, {rowDot, lseLog2});
    add(abi::Stage::DQ, overQueries, {});
  }
  return specs;
}
