//===- ScoreModifiers.h - per-element score semantics -----------*- C++ -*-===//
//
// One scalar-level definition of what happens to a raw dot product q·k
// before softmax (scale, softcap, additive or boolean mask, causal and window
// restrictions). Every lowering of attn.attention emits it through here, so
// the reference decomposition, the tiled form and the GPU kernels cannot
// drift apart.
//
//===----------------------------------------------------------------------===//

#ifndef ATTNOPT_DIALECT_ATTN_UTILS_SCOREMODIFIERS_H
#define ATTNOPT_DIALECT_ATTN_UTILS_SCOREMODIFIERS_H

#include "attnopt/Dialect/Attn/IR/AttnOps.h"
#include "mlir/IR/Builders.h"

#include <optional>

namespace mlir::attn {

/// The window side ScoreModifiers::get clamps to when a length is dynamic:
/// exact while Lq + Lk <= 2^30 (a side of Lq + Lk or more excludes
/// nothing), and small enough that row + (Lk - Lq) + side stays below 2^31
/// in the kernels' 32-bit index arithmetic.
constexpr int64_t kMaxRuntimeWindowReach = int64_t(1) << 30;

/// The attributes of an attention op that act on individual scores.
struct ScoreModifiers {
  float scale = 1.0f;
  std::optional<float> softcap;
  /// The softcap's tanh carries fastmath<afn> (softcap_approx): the GPU
  /// lowering emits tanh.approx.f32 for it, the CPU ones stay exact.
  bool softcapApprox = false;
  CausalMode causal = CausalMode::none;
  std::optional<std::pair<int64_t, int64_t>> window; // -1: unbounded side
  bool booleanMask = false, additiveMask = false;

  static ScoreModifiers get(AttentionOpInterface op);
  /// Whether positions (i, j) can be excluded by causal/window rules.
  bool hasPositionalMask() const {
    return causal != CausalMode::none || window.has_value();
  }
  /// Whether a row's last visible key moves with its position (a causal
  /// rule, or a window's right side): later query blocks then see more keys
  /// than earlier ones, or as many once a left window side also moves.
  bool rightBoundByRow() const {
    return causal != CausalMode::none || (window && window->second >= 0);
  }
};

/// Emits the i1 "key `col` is allowed for query `row`" predicate of the
/// causal and window rules (index operands; `queryLen`/`keyLen` are the full
/// lengths). Returns a null Value when no positional rule applies.
Value emitPositionAllowed(OpBuilder &b, Location loc,
                          const ScoreModifiers &mods, Value row, Value col,
                          Value queryLen, Value keyLen);

/// Emits the f32 score that enters softmax for raw f32 dot product `dot`:
/// scale, softcap, additive mask, then -inf where the boolean mask or the
/// positional rules exclude (row, col). `maskValue` is the mask element
/// (i1 or float) or null.
Value emitModifiedScore(OpBuilder &b, Location loc, const ScoreModifiers &mods,
                        Value dot, Value maskValue, Value row, Value col,
                        Value queryLen, Value keyLen);

/// The factor the softcap puts on score gradients: with
/// t = tanh(scale * dot / softcap), d softcap(scale * dot) / d(scale * dot)
/// = 1 - t^2. Null when the op has no softcap.
Value emitSoftcapDerivative(OpBuilder &b, Location loc,
                            const ScoreModifiers &mods, Value dot);

/// The probability recomputed from a modified score and the saved row
/// log-sum-exp: exp(score - lse), and 0 for a row with lse = -inf (no
/// allowed key), where the difference would be NaN.
Value emitRecomputedProbability(OpBuilder &b, Location loc, Value score,
                                Value lse);

/// Emits the range [first, last) of key blocks (of `blockKV` keys) that the
/// causal and window rules leave visible to query rows [firstRow, firstRow +
/// rows): from the window's left edge of the first row to the causal/window
/// right edge of the last row. An empty range (first == last) means every row
/// of the block is fully masked. Index operands.
std::pair<Value, Value> emitVisibleKeyBlocks(OpBuilder &b, Location loc,
                                             const ScoreModifiers &mods,
                                             Value firstRow, Value rows,
                                             Value queryLen, Value keyLen,
                                             int64_t blockKV);

/// The transpose of emitVisibleKeyBlocks: the range [first, last) of query
/// blocks (of `blockQ` rows) containing every row that the causal and window
/// rules allow to see at least one key of [firstKey, firstKey + keys). Key j
/// is visible to row i iff j <= i + delta (causal), i + delta - left <= j
/// (window left) and j <= i + delta + right (window right), i.e. iff
/// i >= j - delta, i <= j - delta + left and i >= j - delta - right; the
/// range runs from the first row that sees the first key to the last row that
/// sees the last key. An empty range means no row sees any key of the block.
/// Index operands.
std::pair<Value, Value> emitVisibleQueryBlocks(OpBuilder &b, Location loc,
                                               const ScoreModifiers &mods,
                                               Value firstKey, Value keys,
                                               Value queryLen, Value keyLen,
                                               int64_t blockQ);

} // namespace mlir::attn

#endif // ATTNOPT_DIALECT_ATTN_UTILS_SCOREMODIFIERS_H
