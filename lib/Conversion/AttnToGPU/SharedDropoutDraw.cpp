//===- SharedDropoutDraw.cpp - dropout keep bits drawn once a block -------===//

#include "SharedDropoutDraw.h"
#include "KernelCommon.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"

#include <cassert>

using namespace mlir;
using namespace mlir::attn;
using namespace mlir::attn::kernel;

namespace {

/// Index and i32 arithmetic for the lane bookkeeping: ScalarOps's index
/// helpers plus i32 bit operations.
struct Arith : ScalarOps {
  using ScalarOps::add;
  using ScalarOps::ScalarOps;

  Value i32(int64_t v) {
    return arith::ConstantIntOp::create(b, loc, b.getI32Type(), v);
  }
  Value sub(Value x, Value y) { return arith::SubIOp::create(b, loc, x, y); }
  Value toI32(Value index) {
    return arith::IndexCastUIOp::create(b, loc, b.getI32Type(), index);
  }
  Value shl(Value x, int64_t c) {
    return c ? arith::ShLIOp::create(b, loc, x, i32(c)).getResult() : x;
  }
  Value shru(Value x, Value y) { return arith::ShRUIOp::create(b, loc, x, y); }
  Value andI(Value x, int64_t c) {
    return arith::AndIOp::create(b, loc, x, i32(c));
  }
  Value orI(Value x, Value y) { return arith::OrIOp::create(b, loc, x, y); }
};

/// `size` lanes at lane-id distance `stride` that hold elements of the same
/// Philox blocks; `rank` (index) is this lane's place among them.
struct LaneGroup {
  int64_t size, stride;
  Value lane, rank;
};

/// The keep decisions of the four columns from `first` on, as the low four
/// bits of an i32. Without a column shift `first` starts a Philox block;
/// with one (a packed batch) it is `shift & 3` columns into one, and the
/// four columns take the rest of that block and the start of the next.
Value keepNibbleFrom(OpBuilder &b, Location loc, const DropoutDraw &draw,
                     const DropoutPosition &first) {
  Arith a{b, loc};
  Value nibble =
      emitDropoutKeepNibble(b, loc, draw.seed, draw.offset, first, draw.p);
  if (!draw.columnShift)
    return nibble;
  DropoutPosition next = first;
  next.col = a.add(first.col, 4);
  Value nextNibble =
      emitDropoutKeepNibble(b, loc, draw.seed, draw.offset, next, draw.p);
  Value eight = a.orI(nibble, a.shl(nextNibble, 4));
  return a.andI(a.shru(eight, a.toI32(a.remu(draw.columnShift, 4))), 15);
}

/// Draws numSlots * group.size four-column groups over the lane group: in
/// slot s the lane of rank x draws group (s, x) from `firstOf(s)` (the
/// caller's position of the first column for this lane's rank). Returns
/// words[c][x]: the keep nibble of group (s, x) at bits 4 (s % 8) ..
/// 4 (s % 8) + 3 of word [s / 8][x].
SmallVector<SmallVector<Value>>
drawShared(OpBuilder &b, Location loc, const DropoutDraw &draw,
           const LaneGroup &group, int64_t numSlots,
           function_ref<DropoutPosition(int64_t)> firstOf) {
  Arith a{b, loc};
  SmallVector<SmallVector<Value>> words;
  Value width = a.i32(32);
  // This lane's id less its rank's offset: the lane of rank x is base + x
  // times the stride.
  Value base = a.toI32(a.sub(group.lane, a.mul(group.rank, group.stride)));
  for (int64_t c = 0; c * 8 < numSlots; ++c) {
    Value own = a.i32(0);
    for (int64_t s = c * 8; s < std::min(numSlots, c * 8 + 8); ++s) {
      Value nibble = keepNibbleFrom(b, loc, draw, firstOf(s));
      own = a.orI(own, a.shl(nibble, 4 * (s % 8)));
    }
    SmallVector<Value> &fromRank = words.emplace_back();
    for (int64_t x = 0; x < group.size; ++x) {
      Value src = arith::AddIOp::create(b, loc, base, a.i32(x * group.stride));
      fromRank.push_back(
          gpu::ShuffleOp::create(b, loc, own, src, width, gpu::ShuffleMode::IDX)
              .getShuffleResult());
    }
  }
  return words;
}

} // namespace

DropoutPosition kernel::DropoutCoordinates::at(OpBuilder &b, Location loc,
                                               Value head, Value query,
                                               Value key) const {
  if (!queryToken0)
    return {batch, head, query, key, numHeads, queryLen};
  return {batch,
          head,
          arith::AddIOp::create(b, loc, queryToken0, query),
          arith::AddIOp::create(b, loc, keyToken0, key),
          numHeads,
          queryLen};
}

SmallVector<Value> mlir::attn::kernel::drawQueryRowKeeps(
    OpBuilder &b, Location loc, const DropoutDraw &draw, Value lane, Value t4,
    int64_t numRows, int64_t nTiles, Value keyT,
    function_ref<DropoutPosition(int64_t, Value)> at) {
  assert(nTiles % 2 == 0 && "the lane pair shares n-tile pairs");
  Arith a{b, loc};
  // Slot s = (row slot i, n-tile pair np); rank x draws n-tile 2 np + x,
  // the pair's keys keyT - 2 x + 8 nt .. + 3.
  const int64_t pairs = nTiles / 2;
  Value rank = a.remu(t4, 2);
  Value rankKeys = a.add(keyT, a.mul(rank, 6));
  SmallVector<SmallVector<Value>> words =
      drawShared(b, loc, draw, LaneGroup{2, 1, lane, rank}, numRows * pairs,
                 [&](int64_t s) {
                   return at(s / pairs, a.add(rankKeys, 16 * (s % pairs)));
                 });
  // This lane's two keys are columns 2 (t4 & 1) and 2 (t4 & 1) + 1 of each
  // group: shift them to bits 0 and 1 of every nibble once.
  Value shift = a.toI32(a.mul(rank, 2));
  for (SmallVector<Value> &fromRank : words)
    for (Value &w : fromRank)
      w = a.shru(w, shift);
  SmallVector<Value> keeps;
  for (int64_t i = 0; i < numRows; ++i)
    for (int64_t nt = 0; nt < nTiles; ++nt) {
      int64_t s = i * pairs + nt / 2;
      Value word = words[s / 8][nt % 2];
      for (int64_t j = 0; j < 2; ++j)
        keeps.push_back(arith::CmpIOp::create(
            b, loc, arith::CmpIPredicate::ne,
            a.andI(word, int64_t(1) << (4 * (s % 8) + j)), a.i32(0)));
    }
  return keeps;
}

Value mlir::attn::kernel::drawKeyRowKeepBits(
    OpBuilder &b, Location loc, const DropoutDraw &draw, Value lane, Value g,
    int64_t nTiles, Value keyA, Value queryT,
    function_ref<DropoutPosition(Value, Value)> at) {
  assert(nTiles <= 8 && "the keep bits of 8 n-tiles fill one i32");
  Arith a{b, loc};
  // Slot nt; rank x draws element e = x of n-tile nt: the quad's keys
  // keyA - x + 8 (x / 2) .. + 3, query queryT + 8 nt + x % 2. This lane's
  // key is column g & 3 = rank of every group.
  Value rank = a.remu(g, 4);
  Value rankKey = a.add(a.sub(keyA, rank), a.mul(a.divu(rank, 2), 8));
  Value rankQuery = a.add(queryT, a.remu(rank, 2));
  SmallVector<SmallVector<Value>> words = drawShared(
      b, loc, draw, LaneGroup{4, 4, lane, rank}, nTiles,
      [&](int64_t nt) { return at(a.add(rankQuery, 8 * nt), rankKey); });
  // Bit rank of nibble nt of word [0][e] is element (nt, e): move it to bit
  // 4 nt + e.
  Value shift = a.toI32(rank);
  // Bit 0 of each of the nTiles nibbles: (16^nTiles - 1) / 15.
  const int64_t nibbleLowBits = (int64_t(1) << (4 * nTiles)) / 15;
  Value bits = a.i32(0);
  for (int64_t e = 0; e < 4; ++e)
    bits = a.orI(bits,
                 a.shl(a.andI(a.shru(words[0][e], shift), nibbleLowBits), e));
  return bits;
}
