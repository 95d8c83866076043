//===- TileSelection.h - IO-aware tile sizes for attention ------*- C++ -*-===//
//
// Chooses the query block Br, key/value block Bc, pipeline stages and warps
// for an attention op from a target description, starting from the
// FlashAttention rule (Bc = ceil(M / 4d), Br = min(Bc, d)) and refining it for
// tensor-core shapes, registers and shared memory; and predicts the HBM
// traffic of the naive and the tiled evaluation (docs/io-model.md).
//
//===----------------------------------------------------------------------===//

#ifndef ATTNOPT_DIALECT_ATTN_ANALYSIS_TILESELECTION_H
#define ATTNOPT_DIALECT_ATTN_ANALYSIS_TILESELECTION_H

#include "attnopt/Dialect/Attn/IR/AttnOps.h"
#include "mlir/Support/LLVM.h"

#include <optional>
#include <string>

namespace mlir::attn {

/// The on-chip resources of one GPU generation that bound the tiles.
struct TargetDescription {
  std::string chip;
  int64_t sharedMemoryBytes = 0; ///< Usable shared memory per thread block.
  int64_t registersPerThread = 255;
  int64_t preferredStages = 2; ///< K/V tiles in flight when they fit.

  /// "sm_80" (A100: 163 KiB a block), "sm_86" / "sm_89" (99 KiB) or
  /// "sm_90" / "sm_90a" (H100/H200: 227 KiB); nullopt for other chips.
  static std::optional<TargetDescription> get(StringRef chip);
};

/// The sizes of one attention problem that the model needs.
struct AttentionShape {
  int64_t batch = 1, queryHeads = 1, queryLen = 1, keyLen = 1;
  int64_t headDim = 1, valueDim = 1, elementBytes = 2;
  /// Bytes per [Lq, Lk] element of the mask tensors (mask and
  /// dropout_mask); 0 without either.
  int64_t maskElementBytes = 0;
  bool hasLse = false;
  CausalMode causal = CausalMode::none;
  std::optional<std::pair<int64_t, int64_t>> window;

  /// Fails (with a diagnostic) for dynamic head dims; other sizes may be
  /// dynamic (ShapedType::kDynamic), which analyzeIO does not accept.
  static FailureOr<AttentionShape> get(AttentionOp op);
};

struct TileChoice {
  int64_t blockQ = 64, blockKV = 64, stages = 2, warps = 4;
  int64_t ruleBlockQ = 0, ruleBlockKV = 0; ///< FlashAttention's Br, Bc.
  int64_t sharedMemoryBytes = 0;           ///< Q tile + stages × (K + V).
  int64_t registersPerThread = 0;          ///< Model estimate.
};

/// Estimated f32 registers per thread: accumulator and score tile spread
/// over the block's threads plus a fixed allowance for addresses and the
/// softmax statistics.
int64_t estimateRegistersPerThread(int64_t blockQ, int64_t blockKV,
                                   int64_t valueDim, int64_t warps);

TileChoice selectTiles(const AttentionShape &shape,
                       const TargetDescription &target);

/// Which key/value blocks a query block visits: [first, last) in units of
/// blockKV, after causal and window block skipping.
std::pair<int64_t, int64_t> visitedKVBlocks(const AttentionShape &shape,
                                            int64_t blockQ, int64_t blockKV,
                                            int64_t queryBlock);

struct IOReport {
  /// Bytes and FLOPs in double: at the supported sizes (SizeLimits.h) they
  /// can pass 2^63; printed as integers (exact below 2^53).
  double naiveBytes = 0, tiledBytes = 0;
  double denseFlops = 0, executedFlops = 0;
  int64_t visitedBlocks = 0, totalBlocks = 0; ///< Per (batch, head).
};

/// Requires static sizes.
IOReport analyzeIO(const AttentionShape &shape, const TileChoice &tiles);

/// Prints `report` as the remarks of attn-select-tiles and
/// attn-select-kernels show it: HBM bytes, FLOPs and arithmetic intensity of
/// the naive and the tiled evaluation, three indented lines.
void printIOReport(raw_ostream &os, const IOReport &report);

} // namespace mlir::attn

#endif // ATTNOPT_DIALECT_ATTN_ANALYSIS_TILESELECTION_H
