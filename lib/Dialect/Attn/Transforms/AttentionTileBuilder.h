//===- AttentionTileBuilder.h - blocks of the tiled attention forms -*- C++
//-*-===//
//
// What the tiled forward (attn-tile, TileAttentionOnlineSoftmax.cpp) and the
// tiled gradient (TileAttentionGradRecompute.cpp) both build: statically
// shaped, zero-padded tiles of the operands, the block of the mask, the
// Br x Bc score tile and the score modifiers applied to it at global
// positions. Values named `*Tile` have static tile shapes; `q0`/`k0` are the
// first query row / key of a block.
//
//===----------------------------------------------------------------------===//

#ifndef ATTNOPT_LIB_DIALECT_ATTN_TRANSFORMS_ATTENTIONTILEBUILDER_H
#define ATTNOPT_LIB_DIALECT_ATTN_TRANSFORMS_ATTENTIONTILEBUILDER_H

#include "attnopt/Dialect/Attn/IR/AttnOps.h"
#include "attnopt/Dialect/Attn/Utils/LinalgBuilders.h"
#include "attnopt/Dialect/Attn/Utils/ScoreModifiers.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/IR/PatternMatch.h"

#include <limits>

namespace mlir::attn {

inline constexpr float kNegInf = -std::numeric_limits<float>::infinity();

class AttentionTileBuilder {
protected:
  AttentionTileBuilder(RewriterBase &b, AttentionOpInterface op, int64_t br,
                       int64_t bc);

  using BodyFn = GenericBodyFn;

  // Small builders.
  Value idx(int64_t v) { return arith::ConstantIndexOp::create(b, loc, v); }
  Value f32(OpBuilder &nb, Location l, float v) {
    return createF32Constant(nb, l, v);
  }
  Value toF32(OpBuilder &nb, Location l, Value v) {
    return extendToF32(nb, l, v);
  }
  Value add(Value x, Value y) { return arith::AddIOp::create(b, loc, x, y); }
  Value sub(Value x, Value y) { return arith::SubIOp::create(b, loc, x, y); }
  Value mul(Value x, Value y) { return arith::MulIOp::create(b, loc, x, y); }
  Value minI(Value x, Value y) { return arith::MinSIOp::create(b, loc, x, y); }
  Value maxI(Value x, Value y) { return arith::MaxSIOp::create(b, loc, x, y); }
  Value dimOf(Value tensor, int64_t dim);
  /// Whether dimension `dim` of `tensor` is static and a multiple of `block`.
  static bool divides(Value tensor, int64_t dim, int64_t block) {
    auto type = cast<RankedTensorType>(tensor.getType());
    return !type.isDynamicDim(dim) && type.getDimSize(dim) % block == 0;
  }
  /// The number of valid rows of the block starting at `start` of a
  /// dimension of size `length` (constant `block` when it divides a static
  /// length).
  Value validRows(Value tensor, int64_t dim, Value start, Value length,
                  int64_t block) {
    return divides(tensor, dim, block) ? idx(block)
                                       : minI(idx(block), sub(length, start));
  }
  Value filled(ArrayRef<int64_t> shape, float value);
  Value emptyF32(ArrayRef<int64_t> shape);
  Value generic(ValueRange inputs, Value init, ArrayRef<AffineMap> maps,
                ArrayRef<utils::IteratorType> iterators, BodyFn body);
  AffineMap map(unsigned numDims, ArrayRef<AffineExpr> results) {
    return AffineMap::get(numDims, 0, results, b.getContext());
  }
  /// [rows x cols] slice of a rank-4 tensor at (i0, i1, i2, 0 or col0),
  /// padded with `padValue` (zero when null) to [padRows x padCols].
  Value paddedSlice(Value source, ArrayRef<OpFoldResult> offsets,
                    ArrayRef<OpFoldResult> sizes, int64_t padRows,
                    int64_t padCols, TypedAttr padValue = {});
  /// [rows] slice at (b, h, row0) of a rank-3 tensor, padded with
  /// `padValue` to [padRows].
  Value paddedRowSlice(Value source, Value bIdx, Value hIdx, Value row0,
                       Value rows, int64_t padRows, float padValue);
  /// A [rows x width] tile of a rank-4 tensor at (b, h, row0, 0), padded
  /// with zeros to [padRows x width].
  Value rowTile(Value source, Value bIdx, Value hIdx, Value row0, Value rows,
                int64_t padRows);

  /// The [Br|1, Bc|1] block of the mask (broadcast dims keep size 1).
  Value maskTile(Value bIdx, Value hIdx, Value q0, Value rows, Value k0,
                 Value cols) {
    return broadcastTile(iface.getMask(), bIdx, hIdx, q0, rows, k0, cols);
  }
  /// The [Br|1, Bc|1] block at (b, h, q0, k0) of a rank-4 operand that
  /// broadcasts to [B, Hq, Lq, Lk] (the mask or the dropout mask), padded
  /// with zeros (false); null for a null `source`.
  Value broadcastTile(Value source, Value bIdx, Value hIdx, Value q0,
                      Value rows, Value k0, Value cols);
  /// S[i, j] = sum_d Q[i, d] * K[j, d] in f32: [Br, Bc].
  Value scoreTile(Value qTile, Value kTile);
  /// Scale, softcap, mask and the causal/window rules of `m` at global
  /// positions; with `boundColumns`, keys at or past Lk get -inf too.
  Value modifiedScores(Value raw, Value maskTile, Value q0, Value k0,
                       const ScoreModifiers &m, bool boundColumns);

  RewriterBase &b;
  Location loc;
  AttentionOpInterface iface;
  int64_t br, bc;
  /// The op's modifiers, and the same without causal/window (for blocks
  /// known to be fully inside the allowed region).
  ScoreModifiers mods, positional;
  int64_t group = 1, headDim = 0, valueDim = 0;
  Value numHeads, queryLen, keyLen;
  utils::IteratorType par = utils::IteratorType::parallel;
  utils::IteratorType red = utils::IteratorType::reduction;
};

} // namespace mlir::attn

#endif // ATTNOPT_LIB_DIALECT_ATTN_TRANSFORMS_ATTENTIONTILEBUILDER_H
