//===- AttentionChain.h - a matched attention chain -------------*- C++ -*-===//
//
// What attn-fuse's matcher (FuseAttentionChains.cpp) found for one chain,
// and the rewrite that replaces it with one attn.attention
// (RewriteAttentionChain.cpp).
//
//===----------------------------------------------------------------------===//

#ifndef ATTNOPT_LIB_DIALECT_ATTN_TRANSFORMS_ATTENTIONCHAIN_H
#define ATTNOPT_LIB_DIALECT_ATTN_TRANSFORMS_ATTENTIONCHAIN_H

#include "attnopt/Dialect/Attn/IR/AttnOps.h"

#include "mlir/IR/PatternMatch.h"
#include "llvm/ADT/DenseSet.h"

#include <optional>

namespace mlir::attn::fuse {

/// The largest score rank attn-fuse takes (batch dims beyond two are merged
/// into the op's batch dim).
constexpr int64_t kMaxScoreRank = 8;

/// A mask-like operand of the scores: the tensor, the score dim of each of
/// its dims, and for an i1 tensor whether it is true at excluded positions
/// (select(m, -inf, s); the op gets its negation).
struct ScoreMask {
  Value tensor;
  SmallVector<int64_t> dims;
  bool inverted = false;
};

/// Everything needed to build the fused op. Score layout: rank r, dims
/// [batch..., i, j]; with more than two batch dims (besides a group dim)
/// the leading ones are the op's batch dim (mergedBatchDims), the group dim
/// then following the KV-head dim right before i.
struct Chain {
  Operation *anchor = nullptr;
  int64_t rank = 0;
  int64_t lq = ShapedType::kDynamic, lk = ShapedType::kDynamic;
  CausalMode causal = CausalMode::none;
  std::optional<int64_t> windowRight; // window = [windowLeft, windowRight]
  std::optional<int64_t> windowLeft;  // (an unset side is -1, unbounded)
  std::optional<float> softcap;
  bool softcapApprox = false; // the tanh carries fastmath<afn>
  Value q, k, v;
  SmallVector<int64_t> qPerm, kPerm, vPerm, outPerm;
  float scale = 1.0f;
  Value mask;
  SmallVector<int64_t> maskDims; // score dim of each mask dim
  /// The i1 mask is true at excluded positions (select(m, -inf, s)); the
  /// op gets its negation.
  bool maskInverted = false;
  /// A second mask tensor the chain applies beside `mask` (a boolean mask
  /// and a bias, or two biases): the op has one mask operand, so the
  /// rewrite materializes their combination (combineMasks).
  std::optional<ScoreMask> secondMask;
  /// The softmax runs in a wider float than the scores and probabilities
  /// (extf before it, truncf after it): the op's own f32 softmax.
  Type softmaxType;
  /// An f64 chain raised under allow-precision-change: the op runs on Q, K,
  /// V and a float mask rounded to f32, its result widened back to this.
  Type roundedFrom;
  /// The softmax's type in the chain where it is not f32 (raised under
  /// allow-precision-change): recorded on the op as
  /// `attn.chain_softmax_type`, since the op computes it in f32.
  Type changedSoftmaxType;
  /// Dropout between the softmax and P·V: p, and the i1 keep mask with the
  /// score dim of each of its dims.
  float dropoutP = 0.0f;
  Value dropoutMask;
  SmallVector<int64_t> dropoutMaskDims;
  /// The two contractions; `pv` is the op whose result the fused op
  /// replaces (P·V, or the rounding of its wider accumulator back to the
  /// element type).
  Operation *qk = nullptr, *pv = nullptr;
  /// The probabilities P·V reads.
  Value probs;
  /// Grouped-query attention: the score dim of the query heads that share a
  /// KV head. K and V are broadcast over it (read without it), and the score
  /// dim before it is the KV head: query head = kv * G + g, the op's GQA.
  std::optional<int64_t> groupDim;
  /// The score dims of the batch dims of K and V, in order (all batch dims
  /// but the group dim and, for a broadcast K or V, unit dims it lacks).
  SmallVector<int64_t> kBatch, vBatch;
  /// The ops the fused op replaces, erased once dead; not pv itself, which
  /// the op replaces.
  SmallVector<Operation *> ops;

  /// How many leading score dims become the op's batch dim: where the
  /// scores have more than two batch dims besides a group dim, all but the
  /// last (the heads; with a group dim, the KV heads), else 0 (fewer become
  /// unit dims).
  int64_t mergedBatchDims() const {
    int64_t unGrouped = rank - (groupDim ? 1 : 0);
    return unGrouped > 4 ? unGrouped - 3 : 0;
  }
};

/// Replaces `chain` (its P·V op and, once unused, the ops it matched) with
/// one attn.attention, adding the reshapes and transposes between the
/// chain's layout and the op's [B, H, L, D]; erased ops go into `erased`.
void rewriteChain(RewriterBase &rewriter, Chain &chain,
                  DenseSet<Operation *> &erased);

} // namespace mlir::attn::fuse

#endif // ATTNOPT_LIB_DIALECT_ATTN_TRANSFORMS_ATTENTIONCHAIN_H
