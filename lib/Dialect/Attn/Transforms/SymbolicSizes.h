//===- SymbolicSizes.h - sizes as products of dims -------------*- C++ -*-===//
//
// Front ends that export dynamic shapes compute every size they need from
// the function's arguments: torch-mlir's `view` of a `[B, H, L, D]` tensor to
// `[B*H, L, D]` is a `tensor.reshape` whose shape is built with i64
// arithmetic from `tensor.dim`s, with selects for the `-1` it could have been
// given (`x < 0 ? inferred : x`). To see such a reshape as the collapse it is,
// and a broadcast of a size as the identity it is, the sizes are evaluated
// symbolically: each as a constant times a product of dims that are only
// known at run time (an argument's dim, or a dim of a value the evaluator
// does not see through). Two sizes with the same product are equal at run
// time whatever the argument sizes are.
//
//===----------------------------------------------------------------------===//

#ifndef ATTNOPT_LIB_DIALECT_ATTN_TRANSFORMS_SYMBOLICSIZES_H
#define ATTNOPT_LIB_DIALECT_ATTN_TRANSFORMS_SYMBOLICSIZES_H

#include "mlir/IR/AffineExpr.h"
#include "mlir/IR/Value.h"
#include "mlir/IR/ValueRange.h"
#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/SmallVector.h"

#include <optional>

namespace mlir::attn {

/// A size: `constant` times the product of `dims`, each a dim of a tensor
/// that is only known at run time (and so is a non-negative number). The
/// dims are sorted, so that equal products compare equal.
struct SymbolicSize {
  /// A run-time dim (tensor, dim), or (value, kOpaqueValue) for an integer
  /// value the evaluator does not see through: equal only to itself, and
  /// of unknown sign.
  using Dim = std::pair<Value, int64_t>;
  static constexpr int64_t kOpaqueValue = -1;
  int64_t constant = 1;
  SmallVector<Dim, 2> dims;

  static SymbolicSize ofConstant(int64_t c) { return {c, {}}; }
  /// The product of this size and `other` (none on overflow).
  std::optional<SymbolicSize> times(const SymbolicSize &other) const;
  bool isConstant() const { return dims.empty(); }
  bool operator==(const SymbolicSize &other) const {
    return constant == other.constant && dims == other.dims;
  }
  bool operator!=(const SymbolicSize &other) const { return !(*this == other); }
};

/// Evaluates sizes (integer and index values) and the conditions built from
/// them, memoized. Sizes are seen through ops whose value is a product:
/// constants, casts between integer types that keep such values
/// (index_cast, extsi/extui), muli, exact divisions, addi of constants,
/// selects whose condition evaluates, and dims of tensors (static dims,
/// tensor.empty operands, the inits of destination-style ops, reshapes,
/// casts), and affine.apply of products. Any other value is an opaque factor; a
/// negative constant, or a division that is not exact, gives no value.
class SymbolicSizes {
public:
  /// The size `value` holds, if it evaluates.
  std::optional<SymbolicSize> sizeOf(Value value);
  /// Dim `dim` of the ranked tensor `tensor`.
  std::optional<SymbolicSize> dimOf(Value tensor, int64_t dim);
  /// The truth of an i1 `condition` (a constant, or a comparison of sizes
  /// decided by their products and signs), if it is decided.
  std::optional<bool> truthOf(Value condition);
  /// Whether `a` and `b` are provably equal sizes.
  bool equal(Value a, Value b) {
    std::optional<SymbolicSize> x = sizeOf(a), y = sizeOf(b);
    return x && y && *x == *y;
  }

private:
  std::optional<SymbolicSize> evaluate(Value value);
  std::optional<SymbolicSize> evaluateDim(Value tensor, int64_t dim);
  /// An affine product of constants and the sizes of `operands` (the
  /// map's dims, then its symbols).
  std::optional<SymbolicSize>
  evaluateProduct(AffineExpr expr, ValueRange operands, unsigned numDims);

  llvm::DenseMap<Value, std::optional<SymbolicSize>> sizes;
  llvm::DenseMap<std::pair<Value, int64_t>, std::optional<SymbolicSize>> dims;
  unsigned depth = 0;
};

} // namespace mlir::attn

#endif // ATTNOPT_LIB_DIALECT_ATTN_TRANSFORMS_SYMBOLICSIZES_H
