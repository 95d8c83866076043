//===- TensorCoreGradTiling.cpp - the tensor-core backward's tiling rules -===//
//
// Which ops the tensor-core backward group (TensorCoreGradKernelBuilder.cpp)
// takes, its key blocks, dQ rows and split dK/dV parts (rules measured on
// the H200, see each rule), and its kernels' shared-memory layouts: the
// parts of the backward's kernel choice that know these kernels.
//
//===----------------------------------------------------------------------===//

#include "KernelCommon.h"
#include "MmaEmitterBase.h"
#include "TensorCoreGradKernel.h"

using namespace mlir;
using namespace mlir::attn;

bool tcgrad::isEligible(AttentionOpInterface op, int64_t smVersion,
                        std::string &why) {
  Type elt = op.getQueryType().getElementType();
  int64_t d = op.getHeadDimSize(), dv = op.getValueDimSize();
  if (!elt.isF16() && !elt.isBF16()) {
    why = "the element type is not f16 or bf16";
    return false;
  }
  if (d % 8 || dv % 8 || d > 256 || dv > 256) {
    why =
        "head dims must be multiples of 8 up to 256 (D = " + std::to_string(d) +
        ", Dv = " + std::to_string(dv) + ")";
    return false;
  }
  // The larger of the key-block kernel (64 keys) and the dq kernel, with
  // one stage of streamed tiles where two do not fit.
  const int64_t tileD = tileDim(d), tileDv = tileDim(dv);
  const int64_t bytes =
      std::max(keyBlockLayout(tileD, tileDv, 64, false, false, false, false, 1)
                   .plan.launchBytes(),
               dqLayout(tileD, tileDv, kBlock, 1, dqKeys(d, smVersion))
                   .plan.launchBytes());
  const int64_t limit = maxDynamicSharedBytes(smVersion);
  if (bytes > limit) {
    why = "the kernels' tiles at D = " + std::to_string(d) +
          ", Dv = " + std::to_string(dv) + " need " + std::to_string(bytes) +
          " bytes of shared memory, more than the " + std::to_string(limit) +
          " a block has on sm_" + std::to_string(smVersion ? smVersion : 80);
    return false;
  }
  return true;
}

bool tcgrad::hasAtomicDq(int64_t headDim, int64_t valueDim,
                         bool warpgroupMma) {
  if (warpgroupMma)
    return hasWarpgroupKeyBlock(headDim, valueDim);
  return headDim == valueDim && (headDim == 64 || headDim == 128);
}

int64_t tcgrad::tileDim(int64_t headDim) { return roundUp(headDim, 16); }

int64_t tcgrad::panelDim(int64_t headDim) { return roundUp(headDim, 64); }

int64_t tcgrad::keyBlockParts(int64_t headDim, int64_t valueDim) {
  return tileDim(headDim) + tileDim(valueDim) <= 256 ? 1 : 2;
}

bool tcgrad::hasWarpgroupKeyBlock(int64_t headDim, int64_t valueDim) {
  return headDim % 8 == 0 && valueDim % 8 == 0 && headDim <= 256 &&
         valueDim <= 256;
}

std::optional<int64_t>
tcgrad::chooseKeyBlock(int64_t requested, bool atomicDq, int64_t headDim,
                       int64_t valueDim, int64_t smVersion, bool warpgroupMma,
                       bool warpSpecialized, std::string &why) {
  // Measured on the H200 (docs/performance.md, session 5): 128 keys halve
  // the atomic group's dQ reductions per FLOP (3-4 % faster at D = 128,
  // equal at D = 64); without them, 64-key blocks are as fast or faster
  // (finer causal skipping, two CTAs per SM; up to 8 % at L = 1k causal).
  // The split kernels (keyBlockParts 2) take 128 keys where their tiles fit
  // the shared memory: 8-9 % faster than 64 at D = 160 and 192, B2 H16
  // L4096, causal or not (session 12); D = 256 does not fit.
  // Either way 128 keys only where their tiles fit (two stages; on sm_86 /
  // sm_89's 99 KiB the atomic group's D = 128 needs 64).
  auto fits128 = [&] {
    return keyBlockLayout(warpgroupMma ? headDim : tileDim(headDim),
                          warpgroupMma ? valueDim : tileDim(valueDim), 128,
                          /*withDq=*/atomicDq, warpgroupMma, warpSpecialized)
               .plan.launchBytes() <= maxDynamicSharedBytes(smVersion);
  };
  if (requested == 0)
    return (keyBlockParts(headDim, valueDim) > 1 || atomicDq) && fits128() ? 128
                                                                           : 64;
  if (requested == 64 || requested == 128)
    return requested;
  why = "keys per block of the backward key-block kernel must be 64 or 128, "
        "not " +
        std::to_string(requested);
  return std::nullopt;
}

tcgrad::KeyBlockLayout
tcgrad::keyBlockLayout(int64_t headDim, int64_t valueDim, int64_t keyBlock,
                       bool withDq, bool warpgroupMma, bool warpSpecialized,
                       bool headSplit, int64_t queryStages) {
  assert((!headSplit || (warpgroupMma && warpSpecialized && keyBlock == 64)) &&
         "the head split is a form of the warp-specialized wgmma kernel");
  assert((queryStages == 2 ||
          (queryStages == 1 && (warpSpecialized || !warpgroupMma))) &&
         "one Q / dO stage only in the producer's ring or with mma.sync");
  constexpr int64_t f32Bytes = 4;
  auto rowBytes = [&](int64_t dim) {
    return (warpgroupMma ? panelDim(dim) : paddedStride(dim)) * kOperandBytes;
  };
  KeyBlockLayout l;
  l.queryStages = queryStages;
  l.keys = l.plan.place(keyBlock * rowBytes(headDim));
  l.values = l.plan.place(keyBlock * rowBytes(valueDim));
  l.queries = l.plan.place(queryStages * kBlock * rowBytes(headDim));
  l.gradOutputs = l.plan.place(queryStages * kBlock * rowBytes(valueDim));
  // The head split's Pdᵀ and dSᵀ tiles, two of each (by step parity), SW128
  // [64 keys][64 queries] (one panel each), 1024-byte aligned after the
  // whole panels above.
  const int64_t sharedScoreTile = keyBlock * kBlock * kOperandBytes;
  if (headSplit) {
    l.dsBuffers = 2;
    l.probsT = l.plan.place(2 * sharedScoreTile);
    l.dsT = l.plan.place(2 * sharedScoreTile);
  }
  l.lse = l.plan.place(queryStages * kBlock * f32Bytes);
  l.delta = l.plan.place(queryStages * kBlock * f32Bytes);
  const int64_t dsBytes =
      keyBlock * (warpgroupMma ? kBlock : kBlock + 8) * kOperandBytes;
  // Warp-specialized: two dSᵀ tiles (every key block and head dim that
  // fits with one fits with two), then the mbarriers (8 bytes each: K/V
  // full, 2 x full, 2 x empty).
  constexpr int64_t barrierBytes = 5 * 8;
  if (warpSpecialized)
    l.dsBuffers = 2;
  if (!headSplit) {
    l.dsT = l.plan.regionBytes();
    if (withDq)
      l.plan.place(l.dsBuffers * dsBytes);
  }
  // The bulk dQ's staging tile where it fits (sm_90a's limit: wgmma is
  // sm_90a only); the key block was chosen without it, so it never costs a
  // smaller key block.
  const int64_t stagingBytes = kBlock * headDim * f32Bytes;
  if (warpgroupMma && withDq &&
      l.plan.regionBytes() + stagingBytes +
              (warpSpecialized ? barrierBytes : 0) + kSwizzle128Alignment <=
          maxDynamicSharedBytes(90))
    l.dqStaging = l.plan.place(stagingBytes);
  if (warpSpecialized)
    l.barriers = l.plan.place(barrierBytes);
  if (warpgroupMma)
    l.plan.reserveAlignmentSlack(kSwizzle128Alignment);
  return l;
}

tcgrad::DqLayout tcgrad::dqLayout(int64_t headDim, int64_t valueDim,
                                  int64_t rows, int64_t keyStages,
                                  int64_t keyRows) {
  assert((keyStages == 1 || keyStages == 2) && "one or two K / V stages");
  const int64_t qkRowBytes = paddedStride(headDim) * kOperandBytes,
                vRowBytes = paddedStride(valueDim) * kOperandBytes;
  DqLayout l;
  l.queries = l.plan.place(rows * qkRowBytes);
  l.gradOutputs = l.plan.place(rows * vRowBytes);
  l.keys = l.plan.place(keyStages * keyRows * qkRowBytes);
  l.values = l.plan.place(keyStages * keyRows * vRowBytes);
  return l;
}

int64_t tcgrad::dqKeys(int64_t headDim, int64_t smVersion) {
  return tileDim(headDim) > 192 && smVersion < 90 ? 32 : kBlock;
}

int64_t tcgrad::mmaSyncStages(int64_t headDim, int64_t valueDim,
                              int64_t keyBlock, bool withDq,
                              int64_t smVersion) {
  const int64_t tileD = tileDim(headDim), tileDv = tileDim(valueDim);
  const int64_t limit = maxDynamicSharedBytes(smVersion);
  // The dkdv_dq group has no dq kernel.
  auto fits = [&](int64_t stages) {
    return keyBlockLayout(tileD, tileDv, keyBlock, withDq,
                          /*warpgroupMma=*/false, false, false, stages)
                   .plan.launchBytes() <= limit &&
           (withDq ||
            dqLayout(tileD, tileDv, dqRows(headDim, valueDim, smVersion),
                     stages, dqKeys(headDim, smVersion))
                    .plan.launchBytes() <= limit);
  };
  return fits(2) ? 2 : fits(1) ? 1 : 0;
}

int64_t tcgrad::dqRows(int64_t headDim, int64_t valueDim, int64_t smVersion) {
  // Where the dkdv kernel is split (and takes 128 keys where they fit), the
  // dq kernel takes 128 query rows (8 warps) where they fit too.
  if (keyBlockParts(headDim, valueDim) == 1)
    return kBlock;
  return dqLayout(tileDim(headDim), tileDim(valueDim), 2 * kBlock, 2,
                  dqKeys(headDim, smVersion))
                     .plan.launchBytes() <= maxDynamicSharedBytes(smVersion)
             ? 2 * kBlock
             : kBlock;
}

int64_t tcgrad::sharedMemoryBytes(AttentionOpInterface op, abi::Stage stage,
                                  int64_t queryRows, int64_t keyBlock,
                                  bool warpgroupMma, bool warpSpecialized,
                                  bool headSplit, int64_t stages) {
  // The wgmma tiles are whole panels (keyBlockLayout pads them).
  const int64_t d = op.getHeadDimSize(), dv = op.getValueDimSize();
  if (stage == abi::Stage::DKDV || stage == abi::Stage::DKDVDQ)
    return keyBlockLayout(warpgroupMma ? d : tileDim(d),
                          warpgroupMma ? dv : tileDim(dv), keyBlock,
                          stage == abi::Stage::DKDVDQ, warpgroupMma,
                          warpSpecialized, headSplit, stages)
        .plan.launchBytes();
  if (stage == abi::Stage::DQ)
    return dqLayout(tileDim(d), tileDim(dv), queryRows, stages, keyBlock)
        .plan.launchBytes();
  return 0; // prep and dq_convert
}
