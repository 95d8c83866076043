//===- SharedDropoutDraw.h - dropout keep bits drawn once a block -*- C++
//-*-===//
//
// Dropout draws one Philox4x32-10 block (four i32 words) for four
// consecutive keys of a score row (docs/semantics.md, section 8.7), about
// 60 integer instructions a block. In the mma.sync / wgmma accumulator
// layout (lane = 4 g + t4) several lanes hold elements of the same blocks:
//
//   S = Q Kᵀ (rows: queries): lane t4 holds keys 2 t4, 2 t4 + 1 of each
//     8-key n-tile, so lanes t4 and t4 ^ 1 hold the four keys of one block;
//   Sᵀ = K Qᵀ (rows: keys): lane g holds keys g and g + 8 of the warp's 16,
//     so the four lanes g = 4j .. 4j + 3 of a column hold one key each of
//     the same blocks, for the same queries.
//
// Drawing the block of every element, as emitDropoutKeep does, repeats each
// block four times and made the dropout kernels bound by integer
// throughput. Here each lane of such a group draws 1 / G of the group's
// blocks and the group exchanges the keep decisions with G shuffles: four
// bits a block, eight blocks a 32-bit word.
//
// A packed (variable-length) batch draws at token coordinates: a sequence
// starts at any token, so a group's four keys may take the end of one block
// and the start of the next. There each lane draws both blocks of its share
// (half the draws of one block per element) and shifts their eight bits to
// the group's four (DropoutDraw::columnShift).
//
//===----------------------------------------------------------------------===//

#ifndef ATTNOPT_LIB_CONVERSION_ATTNTOGPU_SHAREDDROPOUTDRAW_H
#define ATTNOPT_LIB_CONVERSION_ATTNTOGPU_SHAREDDROPOUTDRAW_H

#include "attnopt/Dialect/Attn/Utils/Philox.h"

#include "mlir/IR/Builders.h"
#include "llvm/ADT/STLFunctionalExtras.h"
#include "llvm/ADT/SmallVector.h"

namespace mlir::attn::kernel {

/// Where a kernel's dropout draws in its [B, H, Lq, Lk] score space: a
/// dense batch at (batch, head, query, key); a packed batch at its tokens'
/// coordinates in the batch-1 form (docs/semantics.md, section 14.3):
/// batch 0, the query and key offset by the sequence's first tokens, and the
/// total query tokens as the row count. Kernels index queries and keys from
/// their sequence's start either way; `at` maps them.
struct DropoutCoordinates {
  Value batch, numHeads, queryLen;
  /// A packed batch's first query and key tokens of the sequence; null for
  /// a dense batch.
  Value queryToken0, keyToken0;

  static DropoutCoordinates dense(Value batch, Value numHeads, Value queryLen) {
    return {batch, numHeads, queryLen, Value(), Value()};
  }
  static DropoutCoordinates packed(Value zero, Value numHeads,
                                   Value totalQueryTokens, Value queryToken0,
                                   Value keyToken0) {
    return {zero, numHeads, totalQueryTokens, queryToken0, keyToken0};
  }
  /// The position of (head, query, key), query and key counted from the
  /// sequence's start.
  DropoutPosition at(OpBuilder &b, Location loc, Value head, Value query,
                     Value key) const;
};

/// The seed, offset and drop probability of a kernel's Philox dropout, and
/// `columnShift` (index): the run-time distance from the keys the kernel
/// indexes to the columns the positions draw at (a packed batch's first key
/// token, which the position callbacks add); null where it is 0.
struct DropoutDraw {
  Value seed, offset;
  float p;
  Value columnShift = nullptr;
};

/// Keep decisions of an accumulator tile whose rows are queries (S = Q Kᵀ):
/// `numRows` row slots of this lane, `nTiles` (even) n-tiles of 8 keys, the
/// lane holding keys keyT + 8 nt + j (j < 2) where keyT = k0 + 2 t4 and k0
/// is a multiple of 4 (the drawn columns are columnShift more). `at(i,
/// key)` is the dropout position of row slot i at
/// `key`. Lanes t4 and t4 ^ 1 share every block; each draws half of them.
/// Returns the i1 keep of element (i, nt, j) at (i * nTiles + nt) * 2 + j.
SmallVector<Value>
drawQueryRowKeeps(OpBuilder &b, Location loc, const DropoutDraw &draw,
                  Value lane, Value t4, int64_t numRows, int64_t nTiles,
                  Value keyT, function_ref<DropoutPosition(int64_t, Value)> at);

/// Keep decisions of an accumulator tile whose rows are keys (Sᵀ = K Qᵀ):
/// this lane's keys keyA and keyA + 8 with keyA = k0 + 16 w + g (k0 a
/// multiple of 4; the drawn columns are columnShift more), `nTiles` (at
/// most 8) n-tiles of 8 queries, the lane
/// holding queries queryT + 8 nt + j (j < 2). `at(query, key)` is the
/// dropout position. The four lanes g = 4j .. 4j + 3 share every block;
/// each draws a quarter of them. Returns the keep bits packed in one i32:
/// bit 4 nt + e keeps element e of n-tile nt (key keyA + 8 (e / 2), query
/// queryT + 8 nt + e % 2).
Value drawKeyRowKeepBits(OpBuilder &b, Location loc, const DropoutDraw &draw,
                         Value lane, Value g, int64_t nTiles, Value keyA,
                         Value queryT,
                         function_ref<DropoutPosition(Value, Value)> at);

} // namespace mlir::attn::kernel

#endif // ATTNOPT_LIB_CONVERSION_ATTNTOGPU_SHAREDDROPOUTDRAW_H
