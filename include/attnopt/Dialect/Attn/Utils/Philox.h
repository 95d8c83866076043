//===- Philox.h - Philox dropout bits emitted as arith ops ------*- C++ -*-===//
//
// The MLIR twin of attnopt/Reference/Philox.h: every lowering of attention
// (reference decomposition, tiled form, GPU kernels) emits the dropout keep
// decision through these functions, so that all paths draw the same bits.
//
//===----------------------------------------------------------------------===//

#ifndef ATTNOPT_DIALECT_ATTN_UTILS_PHILOX_H
#define ATTNOPT_DIALECT_ATTN_UTILS_PHILOX_H

#include "mlir/IR/Builders.h"
#include "mlir/IR/Value.h"

#include <array>

namespace mlir::attn {

/// Emits Philox4x32-10 on four i32 counter words and two i32 key words.
std::array<Value, 4> emitPhilox4x32_10(OpBuilder &b, Location loc,
                                       std::array<Value, 4> ctr,
                                       std::array<Value, 2> key);

/// Position of one element of the [B, Hq, Lq, Lk] probability matrix, as
/// index values, plus the sizes that linearize its row.
struct DropoutPosition {
  Value batch, head, row, col;
  Value numHeads, queryLen;
};

/// Emits the four i32 words of the Philox block that holds element `pos`:
/// word w is the random word of column (pos.col & ~3) + w of its row.
std::array<Value, 4> emitDropoutBlockWords(OpBuilder &b, Location loc,
                                           Value seed, Value offset,
                                           const DropoutPosition &pos);

/// Emits the i32 random word of element `pos` (docs/semantics.md).
Value emitDropoutBits(OpBuilder &b, Location loc, Value seed, Value offset,
                      const DropoutPosition &pos);

/// Emits the keep decisions of the four elements of `pos`'s Philox block
/// for drop probability `p`, as the low four bits of an i32: bit w keeps
/// column (pos.col & ~3) + w. One block draw serves four elements.
Value emitDropoutKeepNibble(OpBuilder &b, Location loc, Value seed,
                            Value offset, const DropoutPosition &pos, float p);

/// Emits the i1 keep decision of element `pos` for drop probability `p`.
Value emitDropoutKeep(OpBuilder &b, Location loc, Value seed, Value offset,
                      const DropoutPosition &pos, float p);

} // namespace mlir::attn

#endif // ATTNOPT_DIALECT_ATTN_UTILS_PHILOX_H
