//===- ChainMatcher.h - attn-fuse's chain matcher ---------------*- C++ -*-===//
//
// ChainMatcher matches one attention chain around a softmax anchor into a
// Chain (AttentionChain.h), or says why not and at which op. Its parts are
// one file each: the scores (scale, softcap, masks, Q·Kᵀ) and P·V in
// FuseAttentionChains.cpp, the softmax in MatchSoftmax.cpp, masks in
// MatchMasks.cpp, dropout in MatchDropout.cpp, the selects of a safe softmax
// that zero the rows with no allowed key in MatchSafeSoftmax.cpp.
//
//===----------------------------------------------------------------------===//

#ifndef ATTNOPT_LIB_DIALECT_ATTN_TRANSFORMS_CHAINMATCHER_H
#define ATTNOPT_LIB_DIALECT_ATTN_TRANSFORMS_CHAINMATCHER_H

#include "AttentionChain.h"
#include "ChainViews.h"

#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"

namespace mlir::attn::fuse {

struct FuseOptions {
  bool inexactReciprocal = false;
  bool largeNegativeIsMasked = false;
  bool allowPrecisionChange = false;
};

/// What the dropout step multiplies the probabilities by: P itself (which
/// must occur once), i1 keep masks read from the score loops, and the
/// product of the constant factors.
struct DropoutFactors {
  int64_t probs = 0;
  SmallVector<EwOperand> keeps;
  double scale = 1.0;
};

/// PyTorch's test for rows whose scores are all -inf (_safe_softmax):
/// [extf,] cmpf oeq -inf, and-reduction from true over the key dim; `rows`
/// is its result, written through `rowsMap`.
struct AllMaskedRowsTest {
  SmallVector<Operation *, 3> ops;
  Value rows;
  AffineMap rowsMap;
};

/// A user's safe softmax, where(any(keep, -1, keepdim), p, 0): its ops (the
/// select, then the or-reduction), and `keep` as the reduction reads it from
/// the score loops (`keepMap`, the key loop at the reduced dim).
struct AnyKeptRowsTest {
  SmallVector<Operation *, 2> ops;
  Value keep;
  AffineMap keepMap;
};

class ChainMatcher {
public:
  ChainMatcher(const FuseOptions &options) : options(options) {}

  /// Matches the chain around a softmax anchor; on failure, `reason` says
  /// why and `blocker` is the first op that blocks it (explain points a
  /// note at it).
  LogicalResult match(Operation *anchor, Chain &chain);
  std::string reason;
  Operation *blocker = nullptr;
  /// The softmax the chain is matched around.
  Operation *anchor = nullptr;

private:
  /// Fails at `at`, the first op that blocks the chain. Every failure names
  /// one: an op of the chain that does not fit, the extra user of an
  /// intermediate, or the op inside a generic's body that is not understood.
  LogicalResult fail(const Twine &msg, Operation *at) {
    // (A site that finds no other user, e.g. of a value whose every use is
    // the op it excludes, names the softmax.)
    blocker = at ? at : anchor;
    reason = (msg + gatherNote(blocker)).str();
    return failure();
  }
  /// Where the op that blocks the chain is a gather (a generic reading with
  /// tensor.extract), what it most likely is: torch-mlir's broadcast of
  /// dynamic sizes, which attn-normalize-chains does not simplify yet.
  static std::string gatherNote(Operation *op) {
    // (The blocker is the generic, or the tensor.extract in its body.)
    if (isa_and_nonnull<tensor::ExtractOp>(op))
      op = op->getParentOfType<linalg::GenericOp>();
    auto generic = dyn_cast_or_null<linalg::GenericOp>(op);
    if (!generic || generic.getBody()->getOps<tensor::ExtractOp>().empty())
      return "";
    return "; it is a gather (tensor.extract in its body), as torch-mlir "
           "writes a broadcast of dynamic sizes: not simplified yet, export "
           "with static shapes (docs/integration.md)";
  }
  /// Fails with `prefix` before the reason of a nested match that failed,
  /// keeping its blocker.
  LogicalResult failWithPrefix(StringRef prefix) {
    reason = (prefix + reason).str();
    return failure();
  }
  /// Fails (at the anchor) for scores of rank below 2: the op needs a
  /// query dim beside the key dim.
  LogicalResult checkScoreRank(int64_t rank);
  LogicalResult matchSoftmax(Operation *anchor, Chain &chain, Value &scores,
                             Value &probs);
  LogicalResult matchScores(Value scores, Chain &chain);
  LogicalResult matchQK(Value scores, Chain &chain);
  /// `s - rowmax(s)` right before the softmax: `x` becomes s.
  LogicalResult peelUserRowShift(Value &x, Chain &chain);
  /// A truncf of the scores to Q's element type right after the Q·Kᵀ
  /// contraction: its result rounding, peeled.
  LogicalResult peelContractionRounding(Value &scores, Chain &chain);
  /// Q or K (`x`, read through `map`) multiplied by a constant: the factor
  /// joins chain.scale and `x` becomes the unscaled operand.
  LogicalResult peelOperandScale(Value &x, AffineMap &map, Chain &chain);
  /// Under allow-precision-change: Q, K, V widened from f16/bf16 and the
  /// result narrowed back become the op's narrow operands and result.
  LogicalResult peelUpcast(Chain &chain);
  LogicalResult matchPV(Value probs, Chain &chain);
  LogicalResult matchDropout(Value &probs, Chain &chain);
  /// Dropout steps seen so far: their ops and combined factors.
  struct DropoutSteps {
    DropoutFactors total;
    SmallVector<Operation *> ops;
  };
  /// Whether `user` multiplies `x` elementwise (a dropout step, whose
  /// factors are added to `steps`); fails where it does so but not by a
  /// keep mask and constants.
  FailureOr<bool> collectDropoutStep(Operation *user, Value x,
                                     DropoutSteps &steps);
  LogicalResult recordDropout(const DropoutSteps &steps, Chain &chain);
  /// `op` as x / l or x * (1 / l) for the row sums l of `sum`: the ops it
  /// takes (reciprocal, product), and whether the reciprocal has another
  /// user.
  struct Normalization {
    SmallVector<Operation *, 2> ops;
    bool sharedReciprocal;
  };
  std::optional<Normalization>
  normalizationOf(Operation *op, Value x, const Reduction &sum, int64_t rank);
  /// `reader` is the op that reads `t`.
  LogicalResult collectTensorFactors(Value t, AffineMap map, Value probs,
                                     Operation *reader, DropoutFactors &f);
  LogicalResult collectBodyFactors(linalg::GenericOp g, Value v, AffineMap map,
                                   Value probs, DropoutFactors &f);
  LogicalResult collectBodyKeep(linalg::GenericOp g, Value cond, AffineMap map,
                                DropoutFactors &f);
  /// The rank limits, and with more than two batch dims that K and V can
  /// have the leading ones merged (Chain::mergedBatchDims).
  LogicalResult checkMergedBatchDims(const Chain &chain);
  /// `reader` is the op that reads the mask-like operand `m`. With
  /// `allowPermuted`, its dims may be score dims in another order (the
  /// rewrite transposes it).
  LogicalResult matchScoreDims(const EwOperand &m, int64_t rank, StringRef what,
                               Operation *reader, SmallVector<int64_t> &dims,
                               bool allowPermuted = false);
  LogicalResult matchMask(const EwOperand &m, Operation *reader, Chain &chain);
  /// `m` (an i1 mask, true at excluded positions where `inverted`, or an
  /// additive bias) as one more of the chain's masks: a band becomes causal
  /// or window; a tensor the op's mask, or beside one already matched the
  /// chain's second mask (at most two).
  LogicalResult matchAnotherMask(const EwOperand &m, bool inverted,
                                 Operation *reader, Chain &chain);
  /// The boolean tensor of an additive bias select(keep, 0, fill) or
  /// select(excluded, fill, 0) read elementwise, with `inverted` true for
  /// the latter; none for any other bias.
  std::optional<EwOperand> booleanOfBias(const EwOperand &bias, bool &inverted);
  LogicalResult peelWidening(Value &x, Chain &chain);
  LogicalResult peelNarrowing(Value &probs, Chain &chain);
  LogicalResult peelResultNarrowing(Chain &chain, Type elt);
  LogicalResult matchLogSumExpSoftmax(const Reduction &max, Value scores,
                                      Chain &chain, Value &probs);
  /// `user` of the rank-`rank` scores as PyTorch's all-masked-rows test
  /// (MatchSafeSoftmax.cpp), or none.
  std::optional<AllMaskedRowsTest>
  allMaskedRowsTest(Operation *user, Value scores, int64_t rank);
  /// Sets allMaskedRows to such a test among the users of the scores other
  /// than the softmax (PyTorch's safe softmax); whether there is one.
  bool findAllMaskedRowsTest(Value scores, Operation *softmax, int64_t rank);
  /// With such a test on the scores (allMaskedRows): the probabilities'
  /// only user must be select(all masked, 0, p), which becomes probs.
  LogicalResult peelSafeSoftmax(Value &probs, Chain &chain);
  /// The test found among the scores' users by matchSoftmax.
  std::optional<AllMaskedRowsTest> allMaskedRows;
  /// Where the probabilities' only user is a select by a reduction of a
  /// boolean tensor: where(any(keep, key dim), p, 0) becomes probs and its
  /// test anyKeptRows (checked by checkAnyKeptRows once the masks are
  /// known); any other such select fails with why. A select by a condition
  /// that is no reduction (a keep mask) is left to matchDropout.
  LogicalResult peelUserSafeSoftmax(Value &probs, Chain &chain);
  /// The reduction `red`, read from the score loops through `rowsMap` by
  /// the select (test.ops.front()), as any() over the keys: sets the
  /// test's keep and keepMap.
  LogicalResult matchAnyOverKeys(linalg::GenericOp red, AffineMap rowsMap,
                                 int64_t rank, AnyKeptRowsTest &test);
  /// With anyKeptRows, after the scores: its `keep` must be the chain's
  /// boolean keep mask (or second mask), read the same way, so that the
  /// rows it zeroes are the op's rows with no allowed key.
  LogicalResult checkAnyKeptRows(const Chain &chain);
  std::optional<AnyKeptRowsTest> anyKeptRows;
  /// The row sum of exp(s - max) where the chain normalizes after P·V,
  /// `(e·V) / l`: matchSoftmax leaves probs = e and sets this;
  /// peelDeferredNormalization then takes the division of P·V's result.
  std::optional<Reduction> deferredSum;
  /// With deferredSum: P·V's only user must be `o / l` or `o * (1 / l)`
  /// with l read back along the value dim; it becomes chain.pv.
  LogicalResult peelDeferredNormalization(Chain &chain);
  /// The single user of `v` as an elementwise op of `kind` whose operand
  /// `v` is read with the identity map, or failure.
  FailureOr<Elementwise> onlyUserOfKind(Value v, EwKind kind);
  bool isRowOperand(const EwOperand &o, const Reduction &red, int64_t rank);
  bool isMaskFill(const APFloat &fill) const;
  /// A bias select(c, t, f) of constants as a mask: true where c keeps
  /// (t = 0, f the fill), false where c excludes (f = 0, t the fill), none
  /// for any other pair.
  std::optional<bool> selectKeeps(const APFloat &t, const APFloat &f) const;
  LogicalResult matchIndexMask(Value x, Chain &chain, Value &next,
                               bool &matched);
  LogicalResult matchCausalCond(Value cond, Block *body,
                                ArrayRef<int64_t> loopToScoreDim,
                                bool condKeeps, Chain &chain);
  /// One side of the allowed band, j <= i + a (`upper`) or j >= i + a.
  struct IndexBound {
    bool upper;
    int64_t a;
  };
  FailureOr<IndexBound> matchIndexBound(Value cond, Block *body,
                                        ArrayRef<int64_t> loopToScoreDim,
                                        bool condKeeps, const Chain &chain);
  /// Records the band; `cond` is the comparison (or the and/or of two)
  /// that bounds it.
  LogicalResult recordIndexBand(std::optional<int64_t> lo,
                                std::optional<int64_t> hi, Operation *cond,
                                Chain &chain);
  LogicalResult matchIndexMaskTensor(const EwOperand &m, bool isBool,
                                     Chain &chain);
  LogicalResult matchConstantBandMask(const EwOperand &m, bool isBool,
                                      Chain &chain);

  const FuseOptions &options;
};

/// Whether score dims `dims` of a mask-like operand vary over the KV heads
/// but not the query heads of a group, or the reverse: with grouped-query
/// heads both become the op's one query-head dim, over which such a mask
/// cannot be broadcast. (A mask over both is collapsed like Q.)
bool variesOverGroupedHeads(ArrayRef<int64_t> dims, const Chain &chain);

} // namespace mlir::attn::fuse

#endif // ATTNOPT_LIB_DIALECT_ATTN_TRANSFORMS_CHAINMATCHER_H
