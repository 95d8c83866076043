//===- PersistentSchedule.cpp - the persistent forward's tile order -------===//
//
// The cost model behind tc::chooseTileOrder (PersistentSchedule.h). A tile
// costs its visible key blocks plus one block's worth of prologue and
// epilogue (Q in, O out). The persistent kernel's block x finishes after the
// tiles x, x + n, ... of its order; the one-block-per-tile grid is
// dispatched by the hardware in launch order to the SM that frees first.
// With causal rows the index order (query block fastest) gives each block
// the query blocks x mod g, x mod g + n mod g, ... of every head, a fixed
// subset whose costs differ from block to block (B8 H16 L4096, 132 blocks:
// the busiest 12 % over the mean, the hardware's dispatch 4 %); sections
// walked longest first give every block each cost in turn.
//
//===----------------------------------------------------------------------===//

#include "PersistentSchedule.h"

#include "attnopt/Dialect/Attn/Analysis/TileSelection.h"

#include <algorithm>
#include <functional>
#include <queue>
#include <vector>

using namespace mlir;
using namespace mlir::attn;

/// One block's worth of key-block steps for a tile's Q load, setup and O
/// store.
constexpr double kTileOverhead = 1.0;
/// The K and V of one section's heads must fit in this much L2 (the H100
/// and H200 have 50 MB; the rest is left to Q, O and the other sections in
/// flight).
constexpr int64_t kSectionL2Bytes = 16 << 20;

namespace {
/// The tiles' costs by query block, and the grid's sizes.
struct TileCosts {
  std::vector<double> byQueryBlock;
  int64_t slices = 0; ///< B * Hq
  int64_t tiles() const {
    return slices * static_cast<int64_t>(byQueryBlock.size());
  }
};
} // namespace

static TileCosts tileCosts(const AttentionShape &s, int64_t blockQ,
                           int64_t blockKV) {
  TileCosts c;
  c.slices = s.batch * s.queryHeads;
  const int64_t queryBlocks = (s.queryLen + blockQ - 1) / blockQ;
  for (int64_t qb = 0; qb < queryBlocks; ++qb) {
    auto [first, last] = visitedKVBlocks(s, blockQ, blockKV, qb);
    c.byQueryBlock.push_back(double(std::max<int64_t>(last - first, 0)) +
                             kTileOverhead);
  }
  return c;
}

/// The query block of tile `t` in the order of `section` (TileOrder).
static int64_t queryBlockOf(int64_t t, int64_t section, int64_t queryBlocks) {
  if (section == 0)
    return t % queryBlocks;
  return queryBlocks - 1 - (t % (section * queryBlocks)) / section;
}

static double persistentMakespan(const TileCosts &c, int64_t section,
                                 int64_t blocks) {
  const int64_t queryBlocks = c.byQueryBlock.size();
  std::vector<double> load(blocks, 0.0);
  for (int64_t t = 0, n = c.tiles(); t < n; ++t)
    load[t % blocks] += c.byQueryBlock[queryBlockOf(t, section, queryBlocks)];
  return *std::max_element(load.begin(), load.end());
}

static double dispatchedMakespan(const TileCosts &c, int64_t blocks) {
  std::priority_queue<double, std::vector<double>, std::greater<double>> free;
  for (int64_t i = 0; i < blocks; ++i)
    free.push(0.0);
  double end = 0;
  for (int64_t slice = 0; slice < c.slices; ++slice)
    for (double cost : c.byQueryBlock) {
      double done = free.top() + cost;
      free.pop();
      free.push(done);
      end = std::max(end, done);
    }
  return end;
}

tc::TileOrder tc::chooseTileOrder(AttentionOpInterface op, int64_t blockQ,
                                  int64_t blockKV, int64_t blocks) {
  FailureOr<AttentionShape> shape =
      AttentionShape::get(cast<AttentionOp>(op.getOperation()));
  TileOrder best;
  if (failed(shape) || blocks < 1)
    return best;
  const TileCosts costs = tileCosts(*shape, blockQ, blockKV);
  best.oneBlockPerTile = dispatchedMakespan(costs, blocks);
  best.makespan = persistentMakespan(costs, 0, blocks);
  // Consecutive slices share a KV head group-fold.
  const int64_t group = std::max<int64_t>(op.getGroupSize(), 1);
  const int64_t kvHeadBytes =
      shape->keyLen * (shape->headDim + shape->valueDim) * shape->elementBytes;
  for (int64_t s = 1; s <= costs.slices; ++s) {
    if (costs.slices % s != 0)
      continue;
    if ((s + group - 1) / group * kvHeadBytes > kSectionL2Bytes)
      break;
    double m = persistentMakespan(costs, s, blocks);
    if (m < best.makespan) {
      best.makespan = m;
      best.section = s;
    }
  }
  return best;
}
