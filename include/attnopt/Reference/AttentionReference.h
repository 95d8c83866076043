//===- AttentionReference.h - float64 attention reference -------*- C++ -*-===//
//
// A plain C++ evaluation of attention in double precision, written directly
// from docs/semantics.md and independent of every MLIR path: it is what the
// compiled code is compared against.
//
//===----------------------------------------------------------------------===//

#ifndef ATTNOPT_REFERENCE_ATTENTIONREFERENCE_H
#define ATTNOPT_REFERENCE_ATTENTIONREFERENCE_H

#include <array>
#include <cstdint>
#include <vector>

namespace attnopt::ref {

enum class Causal { None, TopLeft, BottomRight };
enum class MaskKind { None, Boolean, Additive };

/// Everything that defines one attention evaluation.
struct AttentionProblem {
  int64_t batch = 1, queryHeads = 1, kvHeads = 1;
  int64_t queryLen = 1, keyLen = 1, headDim = 1, valueDim = 1;
  float scale = 1.0f;
  Causal causal = Causal::None;
  bool hasWindow = false;
  int64_t windowLeft = -1, windowRight = -1; // -1: unbounded on that side
  bool hasSoftcap = false;
  float softcap = 0.0f;
  MaskKind maskKind = MaskKind::None;
  std::array<int64_t, 4> maskShape = {1, 1, 1, 1}; // each 1 or full size
  float dropoutP = 0.0f;
  uint64_t seed = 0, offset = 0;
  /// With dropoutP > 0: the keep mask is an explicit boolean tensor of this
  /// shape (each dim 1 or full size) instead of the Philox stream.
  bool hasDropoutMask = false;
  std::array<int64_t, 4> dropoutMaskShape = {1, 1, 1, 1};
  /// Where the Philox keep bits come from: element (b, h, i, j) reads the bit
  /// of (b, h, i + dropoutRowOrigin, j + dropoutColOrigin) in a problem of
  /// dropoutRows query rows (0: queryLen). Non-zero for one sequence of a
  /// packed batch evaluated on its own (docs/semantics.md, section 14).
  int64_t dropoutRowOrigin = 0, dropoutColOrigin = 0, dropoutRows = 0;

  int64_t queryElements() const {
    return batch * queryHeads * queryLen * headDim;
  }
  int64_t keyElements() const { return batch * kvHeads * keyLen * headDim; }
  int64_t valueElements() const { return batch * kvHeads * keyLen * valueDim; }
  int64_t outputElements() const {
    return batch * queryHeads * queryLen * valueDim;
  }
  int64_t lseElements() const { return batch * queryHeads * queryLen; }
  int64_t maskElements() const {
    return maskShape[0] * maskShape[1] * maskShape[2] * maskShape[3];
  }
  int64_t dropoutMaskElements() const {
    return dropoutMaskShape[0] * dropoutMaskShape[1] * dropoutMaskShape[2] *
           dropoutMaskShape[3];
  }
};

/// The Philox keep bit of element (b, h, i, j) of `p` (docs/semantics.md,
/// section 8), at the problem's dropout origin.
bool philoxKeep(const AttentionProblem &p, int64_t b, int64_t h, int64_t i,
                int64_t j);

/// Whether key j may be attended from query row i by the causal and window
/// rules (the boolean mask is applied separately).
bool isPositionAllowed(const AttentionProblem &p, int64_t i, int64_t j);

/// Evaluates attention. Tensors are dense row-major in the shapes of
/// docs/semantics.md; `mask` holds 0/1 for a boolean mask. Fills `out`
/// ([B, Hq, Lq, Dv]) and `lse` ([B, Hq, Lq], natural log, -inf for rows with
/// no allowed key). `keep`, if non-null, receives the dropout keep mask
/// ([B, Hq, Lq, Lk], 1 = kept). With `p.hasDropoutMask`, `dropoutMask`
/// holds the explicit keep mask (0/1, shape `p.dropoutMaskShape`) and
/// replaces the Philox bits.
void referenceAttention(const AttentionProblem &p, const std::vector<double> &q,
                        const std::vector<double> &k,
                        const std::vector<double> &v,
                        const std::vector<double> &mask,
                        std::vector<double> &out, std::vector<double> &lse,
                        std::vector<uint8_t> *keep = nullptr,
                        const std::vector<double> *dropoutMask = nullptr);

} // namespace attnopt::ref

#endif // ATTNOPT_REFERENCE_ATTENTIONREFERENCE_H
