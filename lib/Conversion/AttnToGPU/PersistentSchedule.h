//===- PersistentSchedule.h - the persistent tile order ---------*- C++ -*-===//
//
// Private to lib/Conversion/AttnToGPU. A persistent kernel's block x takes
// the tiles x, x + n, x + 2n, ... of a fixed order, decided here at compile
// time from the static shape: the tiles' work (visible key blocks) is known,
// so the order and the finishing time it gives can be compared with the
// hardware's own scheduling of a one-block-per-tile grid before the kernel
// is built (docs/architecture.md, "The persistent forward").
//
//===----------------------------------------------------------------------===//

#ifndef ATTNOPT_LIB_CONVERSION_ATTNTOGPU_PERSISTENTSCHEDULE_H
#define ATTNOPT_LIB_CONVERSION_ATTNTOGPU_PERSISTENTSCHEDULE_H

#include "attnopt/Dialect/Attn/IR/AttnOps.h"

#include <cstdint>

namespace mlir::attn::tc {

/// The order of a persistent kernel's tiles, and the modelled finishing
/// times (in key-block steps of the busiest SM) that chose it.
struct TileOrder {
  /// 0: query block fastest, then head, then batch (index order). S > 0:
  /// the (batch, head) slices in sections of S, each section walking its
  /// query blocks from the last to the first (the most visible keys to the
  /// fewest with causal rows) with its S slices fastest, so that every block
  /// draws long and short tiles alike while one section's K and V stay in L2. S
  /// divides B * Hq.
  int64_t section = 0;
  /// The busiest block of the persistent kernel with this order.
  double makespan = 0;
  /// The busiest SM of the one-block-per-tile grid, blocks dispatched in
  /// launch order to the SM that frees first.
  double oneBlockPerTile = 0;
};

/// The tile order of `op`'s persistent forward with query blocks of
/// `blockQ`, key blocks of `blockKV` and `blocks` resident blocks: of index
/// order and the sections whose K and V fit in L2, the one whose busiest
/// block finishes first (index order on ties, so uniform tiles keep it).
/// `op` has static sizes (persistentApplies).
TileOrder chooseTileOrder(AttentionOpInterface op, int64_t blockQ,
                          int64_t blockKV, int64_t blocks);

} // namespace mlir::attn::tc

#endif // ATTNOPT_LIB_CONVERSION_ATTNTOGPU_PERSISTENTSCHEDULE_H
