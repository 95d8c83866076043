//===- TensorCoreTiling.cpp - the tensor-core forward's tiling rules ------===//
//
// Which ops the tensor-core forward kernel (TensorCoreKernelBuilder.cpp)
// takes, how it tiles them (mma.sync or wgmma; query rows, keys per step,
// warps: rules measured on the H200, see each rule), and its shared-memory
// layout: the parts of the kernel-configuration chooser
// (ForwardKernelChooser.cpp) that know this kernel.
//
//===----------------------------------------------------------------------===//

#include "KernelCommon.h"
#include "MmaEmitterBase.h"
#include "TensorCoreKernel.h"

using namespace mlir;
using namespace mlir::attn;

int64_t tc::operandBytes(AttentionOpInterface op) {
  return op.getQueryType().getElementType().isF32() ? 4 : kOperandBytes;
}

bool tc::isEligible(AttentionOpInterface op, std::string &why, bool tf32) {
  if (op.getDropoutMask()) {
    why = "the op has an explicit dropout_mask (the tensor-core kernel only "
          "generates Philox keep bits)";
    return false;
  }
  RankedTensorType q = op.getQueryType();
  Type elt = q.getElementType();
  int64_t d = op.getHeadDimSize(), dv = op.getValueDimSize();
  if (elt.isF32() && !tf32) {
    why = "the element type is f32, which tensor cores take only as tf32 "
          "(--f32-precision=tf32: the dense forward)";
    return false;
  }
  if (!elt.isF16() && !elt.isBF16() && !elt.isF32()) {
    why = "the element type is not f16, bf16 or f32";
    return false;
  }
  if (op.getKeyType().getElementType() != elt ||
      op.getValueType().getElementType() != elt) {
    why = "query, key and value element types differ";
    return false;
  }
  if (d % 8 || dv % 8 || d > kMaxTensorCoreHeadDim ||
      dv > kMaxTensorCoreHeadDim) {
    why = ("head dims D = " + Twine(d) + " and Dv = " + Twine(dv) +
           " must be multiples of 8 up to " + Twine(kMaxTensorCoreHeadDim) +
           " (16-byte rows of cp.async and of the O stores)")
              .str();
    return false;
  }
  return true;
}

tc::TileDims tc::tileDims(int64_t headDim, int64_t valueDim, bool warpgroupMma,
                          int64_t operandBytes) {
  const int64_t step = warpgroupMma ? 64 : 32 / operandBytes;
  return {roundUp(headDim, step), roundUp(valueDim, step)};
}

bool tc::skipsUnchangedRescale(int64_t valueTileDim) {
  return valueTileDim >= 128;
}

bool tc::keepsQueryInRegisters(int64_t rowsPerWarp, int64_t blockKV,
                               TileDims dims, int64_t operandBytes) {
  int64_t mTiles = rowsPerWarp / 16;
  // Q's A fragments: 4 registers per k-step of 32 bytes.
  return mTiles * ((blockKV + dims.v) / 2 + dims.qk * operandBytes / 8) <= 160;
}

// Defaults (H200 sweep of 2026-11-29, bench/sweep_tilings.py,
// docs/performance.md): 4 warps of 32 query rows (Br = 128), so each K/V
// fragment read from shared memory feeds two mma.sync, with Bc = 64 (at
// D = 128 only where wideKeyBlocksFit, 3-7 % faster than Bc = 32 there).
// Variants with per-element work beyond the causal/window
// rules (dropout's Philox, softcap, a mask tensor) and short queries
// (Lq <= 64) keep 4 warps of 16 rows with Bc = 64, which fits them without
// spills. An attn.tiles block_q <= 64 also picks the latter. Other head
// dims follow the register budget those measurements set: S and O
// accumulators of at most accumulatorBudget f32 per thread (32 rows per
// warp only up to Dv = 128, Bc = 32 where 64 keys exceed it), and the
// shared memory of the chip (Bc halved until the tiles fit).
/// Whether Br = 128 (32 rows per warp) with Bc = 64 fits 255 registers at
/// Dv = 128: with skipsUnchangedRescale, on sm_90 (ptxas for sm_80 spills 4
/// bytes), and only when Lk is a multiple of 64 (the key guard of a ragged
/// last block spills 8-12 bytes); measured with ptxas 13 on 2026-11-29.
static bool wideKeyBlocksFit(AttentionOpInterface op,
                             const TensorCoreTiling &target) {
  return op.getValueDimSize() == 128 && target.smVersion >= 90 &&
         kernel::Extent(op.getUniformKeyLen()).isMultipleOf(64);
}

/// f32 accumulator registers per thread of the mma.sync kernel's S and O
/// tiles: rows / 16 m-tiles of (blockKV + Dv tile) / 2.
static int64_t accumulators(const tc::Tiling &t, tc::TileDims dims) {
  return t.rowsPerWarp() / 16 * (t.blockKV + dims.v) / 2;
}
/// The default rule's budget of accumulators: D = Dv = 128 at 32 rows per
/// warp and Bc = 32 with skipsUnchangedRescale (more only where
/// wideKeyBlocksFit), less without it (ptxas 13 for sm_80 spilled 12 bytes
/// at D = Dv = 96, 32 rows, Bc = 64: 160); and the most a requested tiling
/// may have.
static int64_t accumulatorBudget(tc::TileDims dims) {
  return tc::skipsUnchangedRescale(dims.v) ? 160 : 144;
}
constexpr int64_t kAccumulatorLimit = 192;

/// The wgmma forward's registers per consumer thread for its S (blockKV /
/// 2 f32), packed P (blockKV / 4) and O (Dv / 2 f32) fragments, and the
/// budget that leaves room for addresses and softmax temporaries within
/// kConsumerRegisters: 176 (D = Dv = 256, Bc = 64), 160 where a mask,
/// softcap or dropout adds temporaries (ptxas 13 spilled 4 bytes at 176
/// with a mask and softcap; dropout at D = Dv = 256 with two consumer
/// warpgroups spilled 32 bytes, and takes one; D = Dv = 128, Bc = 128 is
/// 160). Known exception: with a boolean mask
/// and causal rules at D = Dv = 128, Bc = 128 ptxas 13 spills 20-88 bytes;
/// Bc = 64 there (no spills) measured 14 % slower on the H200 (0.416 vs
/// 0.365 ms, B4 Hq8/Hkv2 L4096, key-padding mask, bottom-right causal;
/// docs/performance.md, session 13), so the budget stays.
int64_t tc::wgmmaFragmentRegisters(int64_t blockKV, tc::TileDims dims) {
  return blockKV / 2 + blockKV / 4 + dims.v / 2;
}
static int64_t wgmmaFragmentBudget(AttentionOpInterface op) {
  return op.getMask() || op.getSoftcapAttr() || op.hasDropout() ? 160 : 176;
}

/// Whether the wgmma kernel is the faster one for `op`'s head dims, which
/// it pads to whole 64-column panels (only Q K^T's k-steps up to D round up
/// to 16 run; P V runs over the padded Dv). Measured on the H200
/// (2026-12-01, docs/performance.md, bf16, against the mma.sync kernel):
/// at L = 4096, 1.16-1.9x faster for D = Dv in {48, 80, 96, 112, 160}
/// but 4 % slower at D = 32 (padding doubles the work); at L = 257
/// (ViT-H, D = 80) 17 % slower (a short key loop does not hide the
/// pipeline's prologue). Whole panels (64, 128, 192, 256) always take it.
static bool wgmmaPaysForPadding(AttentionOpInterface op) {
  const int64_t d = op.getHeadDimSize(), dv = op.getValueDimSize();
  if (d % 64 == 0 && dv % 64 == 0)
    return true;
  return std::min(d, dv) > 32 &&
         kernel::isLongLength(op.getUniformKeyLen(), 512);
}

/// Whether dropout, softcap and a positional rule together spill the wgmma
/// kernel's one consumer warpgroup at D and Dv over 192 (255 registers a
/// thread): 4-20 bytes with ptxas 13 (2026-12-06, D = Dv = 256, with and
/// without a mask), where the mma.sync kernel spills none. Without one of
/// the three the wgmma kernel spills none either.
static bool dropoutSpillsWideWarpgroup(AttentionOpInterface op) {
  return op.hasDropout() && op.getSoftcapAttr() &&
         (op.getCausal() != CausalMode::none || op.getWindow()) &&
         op.getHeadDimSize() > 192 && op.getValueDimSize() > 192;
}

bool tc::wgmmaApplies(AttentionOpInterface op, std::string &why) {
  if (op.getQueryType().getElementType().isF32())
    why = "f32 operands are multiplied in tf32 by the mma.sync kernel "
          "(wgmma's tf32 reads both operands K-major, and V is not)";
  else if (dropoutSpillsWideWarpgroup(op))
    why = "dropout with softcap and a causal rule or window at D and Dv "
          "over 192 spills in the wgmma kernel";
  else if (kernel::isShortLength(op.getUniformQueryLen(), 64))
    why = "the query length is at most 64 (the wgmma kernel takes 64 or "
          "128 rows per block)";
  else if (!wgmmaPaysForPadding(op))
    why = "D = " + std::to_string(op.getHeadDimSize()) +
          " and Dv = " + std::to_string(op.getValueDimSize()) +
          " are padded to 64-column panels, which does not pay at this "
          "key length";
  else
    return true;
  return false;
}

bool tc::tmaApplies(AttentionOpInterface op, std::string &why) {
  // A packed batch's tiles read past their sequence into the next one's
  // tokens: the key rows are masked as keys past the length, the query
  // rows' outputs are not stored (kernel-manifest.md, "TMA tensor maps").
  if (!op.isPaged())
    return true;
  why = "a paged cache's rows are gathered through its block table";
  return false;
}

bool tc::persistentApplies(AttentionOpInterface op, std::string &why) {
  if (!isa<AttentionOp>(op.getOperation()))
    why = "only a dense attn.attention's forward is persistent";
  else if (op.getQueryType().isDynamicDim(0) ||
           ShapedType::isDynamic(op.getQueryLenBound()) ||
           ShapedType::isDynamic(op.getKeyLenBound()))
    why = "run-time sizes (the persistent kernel's tile count is static)";
  else
    return true;
  return false;
}

/// persistent=auto's rule: the persistent kernel where it measured faster
/// and compiles without spills (docs/performance.md, session 34, H100:
/// 1.02-1.09x the one-block-per-tile kernel on non-causal prefill, 1.4-1.7x
/// with 77 to 300 keys): more tiles than SMs, the same work in every tile
/// (no causal rule or window), and neither a mask, a softcap nor D or Dv
/// over 128, whose per-element work or fragments spill 4-116 bytes in the
/// persistent kernel (ptxas 13) and none in the other. Causal rows stay
/// with one block per tile: the persistent kernel measured 0.90-1.11x there
/// in either tile order (chooseTileOrder), losing on B8 H16 L4096 in a way
/// the tile-balance model does not predict.
static bool persistentPays(AttentionOpInterface op, const tc::Tiling &t,
                           int64_t smCount) {
  RankedTensorType q = op.getQueryType();
  const int64_t tiles = q.getDimSize(0) * q.getDimSize(1) *
                        llvm::divideCeil(q.getDimSize(2), t.blockQ);
  return tiles > smCount && op.getCausal() == CausalMode::none &&
         !op.getWindow() && !op.getMask() && !op.getSoftcapAttr() &&
         op.getHeadDimSize() <= 128 && op.getValueDimSize() <= 128;
}

tc::Tiling tc::tilingOf(const ForwardKernelConfig &config) {
  Tiling t;
  t.blockQ = config.blockQ;
  t.blockKV = config.blockKV;
  t.warps = config.warps;
  t.warpgroupMma = config.kernel == KernelFamily::wgmma;
  t.tma = config.tma;
  t.persistentBlocks = config.persistentBlocks;
  return t;
}

ForwardKernelConfig tc::configOf(const Tiling &tiling) {
  ForwardKernelConfig c;
  c.kernel = tiling.warpgroupMma ? KernelFamily::wgmma : KernelFamily::mma_sync;
  c.blockQ = tiling.blockQ;
  c.blockKV = tiling.blockKV;
  c.warps = tiling.warps;
  c.stages = tiling.warpgroupMma ? kWgmmaStages : kMmaSyncStages;
  c.tma = tiling.tma;
  c.persistentBlocks = tiling.persistentBlocks;
  return c;
}

/// A packed batch with a window and no causal rule: its per-element window
/// bounds against each sequence's run-time lengths, on top of two m-tiles
/// per warp, spill on sm_80 (32 bytes at D = 64 with ptxas 13, f16 and
/// bf16, one- or two-sided; session 16), so its mma.sync kernel takes one
/// m-tile per warp, as the elementwise-heavy ones do.
static bool packedWindow(AttentionOpInterface op) {
  return op.isPacked() && op.getWindow() && op.getCausal() == CausalMode::none;
}

/// Whether 64-key blocks of the mma.sync kernel spill at a short key
/// length: with a mask tensor and D or Dv >= 128, two key blocks (64 < Lk
/// <= 128) are straight-line code that ptxas schedules together, and it
/// spilled 8-288 bytes on sm_80 (ptxas 13, session 39's sweep of about 500
/// variants) where the second block is partial (Lk < 128), or at Lk = 128
/// with a causal rule or window or a head dim above 192; none at longer or
/// single-block lengths, and none with 32-key blocks, which keep a loop.
/// At such lengths the smaller block costs nothing measurable: the whole
/// row is four key blocks at most.
static bool shortKeysSpill(AttentionOpInterface op, const tc::Tiling &t,
                           const tc::TileDims &dims) {
  const int64_t keyLen = op.getKeyLenBound();
  if (t.rowsPerWarp() != 16 || t.blockKV != 64 || !op.getMask() ||
      std::max(dims.qk, dims.v) < 128 || !kernel::isShortLength(keyLen, 128) ||
      keyLen <= 64)
    return false;
  const bool positional =
      op.getCausal() != CausalMode::none || op.getWindow().has_value();
  return keyLen < 128 || positional || std::max(dims.qk, dims.v) > 192;
}

std::optional<tc::Tiling> tc::chooseTiling(AttentionOpInterface op,
                                           TensorCoreTiling requested,
                                           std::string &why) {
  const int64_t d = op.getHeadDimSize(), dv = op.getValueDimSize();
  const bool elementwiseHeavy =
      op.hasDropout() || op.getSoftcapAttr() || op.getMask();
  const int64_t smemLimit = maxDynamicSharedBytes(requested.smVersion);
  auto fail = [&](const Twine &msg) -> std::optional<Tiling> {
    why = msg.str();
    return std::nullopt;
  };
  auto fits = [&](const Tiling &t) {
    return sharedMemoryBytes(op, t) <= smemLimit;
  };
  // wgmma (sm_90a): warpgroups of 64 rows, 16 per warp, 128 keys per step
  // unless asked otherwise (64 where the fragments or the shared memory
  // need it: Dv > 128, or D = 192 with Dv = 192). Masks and softcap fit
  // its registers (no spills; a boolean key-padding mask measured 1.8x and
  // softcap 1.3x the mma.sync kernel on the H200, session 9); dropout
  // takes 64 keys per step (below). Short queries
  // and the padded head dims where it does not pay (wgmmaPaysForPadding)
  // keep the mma.sync kernel below.
  std::string whyNoWgmma;
  if (requested.warpgroupMma && !requested.warps &&
      wgmmaApplies(op, whyNoWgmma)) {
    // One warpgroup per 64 query rows.
    if (requested.blockQ && requested.blockQ != 64 && requested.blockQ != 128)
      return fail("query block " + Twine(requested.blockQ) +
                  " with wgmma (expected 64 or 128)");
    Tiling t;
    t.blockQ = requested.blockQ ? requested.blockQ : 128;
    t.warpgroupMma = true;
    const TileDims dims = tileDims(d, dv, /*warpgroupMma=*/true);
    const int64_t budget = wgmmaFragmentBudget(op);
    if (requested.blockKV) {
      t.blockKV = requested.blockKV;
    } else {
      t.blockKV = 128;
      t.warps = t.blockQ / 16;
      // Dropout: the keep bits of 128 keys (64 a thread, SharedDropoutDraw.h)
      // beside the fragments spilled 4-52 bytes with ptxas 13 (2026-12-06)
      // at D = Dv = 64 to 192 with a mask, a window, softcap, a packed batch
      // or the persistent schedule; 64 keys spill none there.
      if (wgmmaFragmentRegisters(t.blockKV, dims) > budget || !fits(t) ||
          op.hasDropout())
        t.blockKV = 64;
    }
    // Fragments over the budget even so: one consumer warpgroup, whose
    // threads keep the 255 registers of a 256-thread block (no setmaxnreg).
    if (!requested.blockQ && wgmmaFragmentRegisters(t.blockKV, dims) > budget)
      t.blockQ = 64;
    t.warps = t.blockQ / 16;
    if (t.blockKV != 64 && t.blockKV != 128)
      return fail("key block " + Twine(t.blockKV) +
                  " with wgmma (expected 64 or 128)");
    std::string whyNoTma;
    t.tma = requested.tma && tmaApplies(op, whyNoTma);
    std::string whyNotPersistent;
    if (t.tma && requested.persistent != PersistentChoice::off &&
        persistentApplies(op, whyNotPersistent) &&
        (requested.persistent == PersistentChoice::on ||
         persistentPays(op, t, requested.smCount))) {
      // Where the second Q tile does not fit (D = 256), one block per tile.
      t.persistentBlocks = requested.smCount;
      if (!fits(t))
        t.persistentBlocks = 0;
    }
    if (!fits(t))
      return fail("D = " + Twine(d) + ", Dv = " + Twine(dv) + " with " +
                  Twine(t.blockKV) + " keys per step needs " +
                  Twine(sharedMemoryBytes(op, t)) +
                  " bytes of shared memory (at most " + Twine(smemLimit) + ")");
    return t;
  }

  Tiling t;
  const TileDims dims =
      tileDims(d, dv, /*warpgroupMma=*/false, operandBytes(op));
  // 4 warps unless asked: 32 rows each for Br = 128, 16 for Br = 64.
  t.warps = requested.warps ? requested.warps : 4;
  if (requested.blockQ)
    t.blockQ = requested.blockQ;
  else if (auto tiles = op->getAttrOfType<TileConfigAttr>("attn.tiles"))
    t.blockQ = tiles.getBlockQ() > 64 ? 128 : 64;
  else
    t.blockQ = elementwiseHeavy || packedWindow(op) ||
                       kernel::isShortLength(op.getUniformQueryLen(), 64)
                   ? 64
                   : 128;
  // Wide O tiles leave no room for two m-tiles per warp.
  if (!requested.blockQ && t.blockQ == 128 && !requested.warps &&
      accumulators(Tiling{128, 32, 4}, dims) > accumulatorBudget(dims))
    t.blockQ = 64;
  if (requested.blockKV) {
    t.blockKV = requested.blockKV;
  } else {
    t.blockKV = 64;
    if (t.rowsPerWarp() == 32 &&
        accumulators(t, dims) > accumulatorBudget(dims) &&
        !wideKeyBlocksFit(op, requested))
      t.blockKV = 32;
    if (!fits(t) || shortKeysSpill(op, t, dims))
      t.blockKV = 32;
  }
  // Tiles of 4-byte elements (f32 in tf32) that still exceed the shared
  // memory: half the query rows (D = 192 on sm_80).
  if (!fits(t) && !requested.blockQ && !requested.warps && t.blockQ == 128)
    t.blockQ = 64;
  if (t.blockQ != 64 && t.blockQ != 128)
    return fail("query block " + Twine(t.blockQ) + " (expected 64 or 128)");
  if (t.blockKV != 32 && t.blockKV != 64 && t.blockKV != 128)
    return fail("key block " + Twine(t.blockKV) + " (expected 32, 64 or 128)");
  if (t.warps <= 0 || t.blockQ % t.warps ||
      (t.rowsPerWarp() != 16 && t.rowsPerWarp() != 32))
    return fail(Twine(t.warps) + " warps for " + Twine(t.blockQ) +
                " query rows (expected 16 or 32 rows per warp)");
  if (accumulators(t, dims) > kAccumulatorLimit)
    return fail(Twine(t.rowsPerWarp()) + " rows per warp with " +
                Twine(t.blockKV) + " keys per step and Dv = " + Twine(dv) +
                " need " + Twine(accumulators(t, dims)) +
                " accumulator registers per thread (at most " +
                Twine(kAccumulatorLimit) + ")");
  if (!fits(t))
    return fail("D = " + Twine(d) + ", Dv = " + Twine(dv) + " with " +
                Twine(t.blockQ) + " query rows and " + Twine(t.blockKV) +
                " keys per step needs " + Twine(sharedMemoryBytes(op, t)) +
                " bytes of shared memory (at most " + Twine(smemLimit) + ")");
  return t;
}

tc::SharedLayout tc::sharedLayout(TileDims dims, const Tiling &tiling,
                                  int64_t eltBytes) {
  constexpr int64_t mbarrierBytes = 8;
  const bool wgmma = tiling.warpgroupMma;
  auto row = [&](int64_t cols) {
    return wgmma ? cols : paddedStride(cols, eltBytes);
  };
  SharedLayout l;
  // The Q tile also stages O in the epilogue.
  l.queryRow = row(std::max(dims.qk, dims.v));
  l.keyRow = row(dims.qk);
  l.valueRow = row(dims.v);
  l.keyTileBytes = tiling.blockKV * l.keyRow * eltBytes;
  l.valueTileBytes = tiling.blockKV * l.valueRow * eltBytes;
  l.stages = wgmma ? kWgmmaStages : kMmaSyncStages;
  // A persistent kernel has two Q tiles: the producer loads the next
  // tile's while the consumers finish the current one.
  l.queryTileBytes = tiling.blockQ * l.queryRow * eltBytes;
  l.query = l.plan.place((tiling.persistentBlocks ? 2 : 1) * l.queryTileBytes);
  l.keys = l.plan.place(l.stages * l.keyTileBytes);
  l.values = l.plan.place(l.stages * l.valueTileBytes);
  l.barriers = l.plan.regionBytes();
  if (wgmma) {
    // K full, V full, K empty, V empty per stage, then Q full (and with
    // two Q tiles: Q full and Q empty per tile).
    l.plan.place(mbarrierBytes *
                 (4 * l.stages + (tiling.persistentBlocks ? 4 : 1)));
    l.plan.reserveAlignmentSlack(kSwizzle128Alignment);
  }
  return l;
}

int64_t tc::sharedMemoryBytes(AttentionOpInterface op, const Tiling &tiling) {
  const int64_t bytes = operandBytes(op);
  return sharedLayout(tileDims(op.getHeadDimSize(), op.getValueDimSize(),
                               tiling.warpgroupMma, bytes),
                      tiling, bytes)
      .plan.launchBytes();
}
