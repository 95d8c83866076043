//===- TileSelection.cpp - IO-aware tile sizes for attention --------------===//

#include "attnopt/Dialect/Attn/Analysis/TileSelection.h"

#include "mlir/IR/BuiltinTypes.h"
#include "llvm/Support/Format.h"

#include <algorithm>

using namespace mlir;
using namespace mlir::attn;

static int64_t ceilDiv(int64_t a, int64_t b) { return (a + b - 1) / b; }
static int64_t floorTo(int64_t v, int64_t m) { return v / m * m; }
static int64_t roundUpTo(int64_t v, int64_t m) { return ceilDiv(v, m) * m; }

std::optional<TargetDescription> TargetDescription::get(StringRef chip) {
  TargetDescription t;
  t.chip = chip.str();
  // Shared memory: the per-block opt-in limit (the per-SM capacity minus
  // the 1 KiB CUDA reserves per block), which is what one tile plan may use
  // and what the runtime's manifest check enforces.
  if (chip == "sm_80") {
    t.sharedMemoryBytes = 163 * 1024;
    t.preferredStages = 2;
    return t;
  }
  if (chip == "sm_86" || chip == "sm_89") {
    t.sharedMemoryBytes = 99 * 1024;
    t.preferredStages = 2;
    return t;
  }
  if (chip == "sm_90" || chip == "sm_90a") {
    t.sharedMemoryBytes = 227 * 1024;
    t.preferredStages = 3;
    return t;
  }
  return std::nullopt;
}

FailureOr<AttentionShape> AttentionShape::get(AttentionOp op) {
  RankedTensorType q = op.getQueryType(), k = op.getKeyType(),
                   v = op.getValueType();
  if (q.isDynamicDim(3) || v.isDynamicDim(3))
    return op.emitOpError("tile selection needs static head dims");
  AttentionShape s;
  s.batch = q.getDimSize(0);
  s.queryHeads = q.getDimSize(1);
  s.queryLen = q.getDimSize(2);
  s.headDim = q.getDimSize(3);
  s.keyLen = k.getDimSize(2);
  s.valueDim = v.getDimSize(3);
  s.elementBytes = q.getElementType().getIntOrFloatBitWidth() / 8;
  if (Value mask = op.getMask()) {
    Type elt = cast<RankedTensorType>(mask.getType()).getElementType();
    s.maskElementBytes = std::max<int64_t>(1, elt.getIntOrFloatBitWidth() / 8);
  }
  // An explicit dropout keep mask is read like a boolean mask (1 byte).
  if (op.getDropoutMask())
    s.maskElementBytes += 1;
  s.hasLse = static_cast<bool>(op.getLse());
  s.causal = op.getCausal();
  if (std::optional<ArrayRef<int64_t>> w = op.getWindow())
    s.window = std::make_pair((*w)[0], (*w)[1]);
  return s;
}

int64_t mlir::attn::estimateRegistersPerThread(int64_t blockQ, int64_t blockKV,
                                               int64_t valueDim,
                                               int64_t warps) {
  constexpr int64_t kFixedRegisters = 32;
  return ceilDiv(blockQ * (valueDim + blockKV), 32 * warps) + kFixedRegisters;
}

TileChoice mlir::attn::selectTiles(const AttentionShape &s,
                                   const TargetDescription &target) {
  TileChoice t;
  // An empty head dim (D = Dv = 0) tiles like D = 1.
  int64_t d = std::max({s.headDim, s.valueDim, int64_t(1)});
  // FlashAttention (Algorithm 1): M elements of SRAM hold four tiles.
  int64_t m = target.sharedMemoryBytes / s.elementBytes;
  t.ruleBlockKV = ceilDiv(m, 4 * d);
  t.ruleBlockQ = std::min(t.ruleBlockKV, d);

  // Tensor cores: 4 warps of m16 rows each, so Br is 64 or 128; shorter
  // query lengths (decoding) use fewer rows and warps.
  t.blockQ = std::clamp<int64_t>(floorTo(t.ruleBlockQ, 64), 64, 128);
  if (!ShapedType::isDynamic(s.queryLen))
    t.blockQ =
        std::max<int64_t>(16, std::min(t.blockQ, roundUpTo(s.queryLen, 16)));
  t.warps = std::clamp<int64_t>(t.blockQ / 16, 1, 4);
  // Bc: a multiple of the mma k (16), of 64 when large, and at most 128.
  t.blockKV = std::clamp<int64_t>(floorTo(t.ruleBlockKV, 16), 16, 128);
  if (t.blockKV >= 64)
    t.blockKV = floorTo(t.blockKV, 64);
  if (!ShapedType::isDynamic(s.keyLen))
    t.blockKV =
        std::max<int64_t>(16, std::min(t.blockKV, roundUpTo(s.keyLen, 16)));

  while (t.blockKV > 16 &&
         estimateRegistersPerThread(t.blockQ, t.blockKV, s.valueDim, t.warps) >
             target.registersPerThread)
    t.blockKV = std::max<int64_t>(16, floorTo(t.blockKV / 2, 16));

  auto qBytes = [&] { return t.blockQ * s.headDim * s.elementBytes; };
  auto stageBytes = [&] {
    return t.blockKV * (s.headDim + s.valueDim) * s.elementBytes;
  };
  while (target.sharedMemoryBytes - qBytes() < stageBytes() &&
         (t.blockKV > 16 || t.blockQ > 16)) {
    if (t.blockKV > 16)
      t.blockKV = std::max<int64_t>(16, floorTo(t.blockKV / 2, 16));
    else
      t.blockQ = std::max<int64_t>(16, floorTo(t.blockQ / 2, 16));
  }
  // (An empty head dim stores nothing per stage.)
  int64_t fit = (target.sharedMemoryBytes - qBytes()) /
                std::max<int64_t>(stageBytes(), 1);
  t.stages = std::max<int64_t>(1, std::min(fit, target.preferredStages));
  t.sharedMemoryBytes = qBytes() + t.stages * stageBytes();
  t.registersPerThread =
      estimateRegistersPerThread(t.blockQ, t.blockKV, s.valueDim, t.warps);
  return t;
}

std::pair<int64_t, int64_t>
mlir::attn::visitedKVBlocks(const AttentionShape &s, int64_t blockQ,
                            int64_t blockKV, int64_t queryBlock) {
  int64_t firstRow = queryBlock * blockQ;
  int64_t lastRow = std::min(s.queryLen, firstRow + blockQ) - 1;
  int64_t delta =
      s.causal == CausalMode::bottom_right ? s.keyLen - s.queryLen : 0;
  // Allowed columns of the block span [lo, hi).
  int64_t lo = 0, hi = s.keyLen;
  if (s.causal != CausalMode::none)
    hi = std::min(hi, lastRow + delta + 1);
  if (s.window) {
    if (s.window->first >= 0)
      lo = std::max(lo, firstRow + delta - s.window->first);
    if (s.window->second >= 0)
      hi = std::min(hi, lastRow + delta + s.window->second + 1);
  }
  if (hi <= lo)
    return {0, 0};
  return {lo / blockKV, ceilDiv(hi, blockKV)};
}

IOReport mlir::attn::analyzeIO(const AttentionShape &s, const TileChoice &t) {
  IOReport r;
  const double e = s.elementBytes, pairs = double(s.batch) * s.queryHeads;
  const int64_t lq = s.queryLen, lk = s.keyLen;
  const double d = s.headDim, dv = s.valueDim;
  const double lseBytes = s.hasLse ? 4.0 * lq : 0.0;
  // Naive: read Q, K, V; write O; write S, read S, write P, read P (in the
  // element type); read a materialized full-size mask once.
  const double lqd = lq, lkd = lk;
  r.naiveBytes =
      pairs * ((lqd * d + lkd * d + lkd * dv + lqd * dv) * e +
               4 * lqd * lkd * e + lqd * lkd * s.maskElementBytes + lseBytes);
  r.denseFlops = pairs * 2 * lqd * lkd * (d + dv);

  // Tiled: Q read and O written once; K and V (and the mask slice) read once
  // per visited block. One step per query block: the visited key blocks of
  // a query block are a range, whose keys are counted in closed form (a
  // loop over key blocks too hung the report at Lq, Lk near 2^31).
  double perPairBytes = (lqd * d + lqd * dv) * e + lseBytes;
  double perPairFlops = 0;
  int64_t queryBlocks = ceilDiv(lq, t.blockQ);
  int64_t kvBlocks = ceilDiv(lk, t.blockKV);
  for (int64_t qb = 0; qb < queryBlocks; ++qb) {
    double rows = std::min(t.blockQ, lq - qb * t.blockQ);
    auto [first, last] = visitedKVBlocks(s, t.blockQ, t.blockKV, qb);
    if (last <= first)
      continue;
    // Keys of blocks [first, last): whole blocks, the last one clipped.
    double cols = double(std::min(last * t.blockKV, lk) - first * t.blockKV);
    perPairBytes += cols * (d + dv) * e + rows * cols * s.maskElementBytes;
    perPairFlops += 2 * rows * cols * (d + dv);
    r.visitedBlocks += last - first;
  }
  r.totalBlocks = queryBlocks * kvBlocks;
  r.tiledBytes = pairs * perPairBytes;
  r.executedFlops = pairs * perPairFlops;
  return r;
}

void mlir::attn::printIOReport(raw_ostream &os, const IOReport &r) {
  auto ratio = [](double a, double b) { return b > 0 ? a / b : 0.0; };
  os << llvm::format("  HBM bytes: naive %.0f, tiled %.0f", r.naiveBytes,
                     r.tiledBytes)
     << llvm::format(" (%.2fx less)", ratio(r.naiveBytes, r.tiledBytes))
     << llvm::format("\n  FLOPs: dense %.0f, executed %.0f", r.denseFlops,
                     r.executedFlops)
     << " (" << r.visitedBlocks << " of " << r.totalBlocks
     << " blocks per head)\n"
     << llvm::format("  arithmetic intensity: naive %.1f, tiled %.1f "
                     "FLOP/byte",
                     ratio(r.denseFlops, r.naiveBytes),
                     ratio(r.executedFlops, r.tiledBytes));
}
