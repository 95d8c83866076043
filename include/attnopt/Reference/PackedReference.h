//===- PackedReference.h - float64 reference of packed batches --*- C++ -*-===//
//
// attn.varlen_attention and attn.varlen_attention_grad evaluated the way
// docs/semantics.md (section 14) states them: every sequence of the packed
// batch on its own, as a batch-1 dense problem with the sequence's lengths,
// by the dense float64 references. Independent of the compiler's
// decomposition, which builds one block-diagonal masked problem instead.
//
//===----------------------------------------------------------------------===//

#ifndef ATTNOPT_REFERENCE_PACKEDREFERENCE_H
#define ATTNOPT_REFERENCE_PACKEDREFERENCE_H

#include "attnopt/Reference/AttentionReference.h"

#include <cstdint>
#include <vector>

namespace attnopt::ref {

/// A packed batch: `p.queryLen` / `p.keyLen` are the token totals Tq / Tk,
/// `p.batch` the number of sequences, and sequence b owns query tokens
/// [cuQ[b], cuQ[b+1]) and key tokens [cuK[b], cuK[b+1]). Tensors are
/// token-major: q [Tq, Hq, D], k [Tk, Hkv, D], v [Tk, Hkv, Dv],
/// out [Tq, Hq, Dv]; lse is [Hq, Tq]. Masks are not supported.
struct PackedBatch {
  AttentionProblem problem;
  std::vector<int64_t> cuQ, cuK;
};

/// The batch-1 dense problem of sequence `b`: its lengths, the packed
/// problem's attributes, and the Philox origin of its scores in the packed
/// coordinates (query token cuQ[b], key token cuK[b], Tq rows).
AttentionProblem sequenceProblem(const PackedBatch &batch, int64_t b);

/// Fills `out` and `lse` (rows of tokens without an allowed key: 0 and
/// -inf).
void referencePackedAttention(const PackedBatch &batch,
                              const std::vector<double> &q,
                              const std::vector<double> &k,
                              const std::vector<double> &v,
                              std::vector<double> &out,
                              std::vector<double> &lse);

/// Fills dq [Tq, Hq, D], dk [Tk, Hkv, D] and dv [Tk, Hkv, Dv] from the
/// forward's `out` and `lse` and the output gradient `dout` (see
/// referenceAttentionGrad).
void referencePackedAttentionGrad(
    const PackedBatch &batch, const std::vector<double> &q,
    const std::vector<double> &k, const std::vector<double> &v,
    const std::vector<double> &out, const std::vector<double> &dout,
    const std::vector<double> &lse, std::vector<double> &dq,
    std::vector<double> &dk, std::vector<double> &dv);

/// The size of the terms each gradient element of the packed batch sums
/// (referenceAttentionGradMagnitudes per sequence), with the arguments of
/// referencePackedAttentionGrad.
void referencePackedAttentionGradMagnitudes(
    const PackedBatch &batch, const std::vector<double> &q,
    const std::vector<double> &k, const std::vector<double> &v,
    const std::vector<double> &out, const std::vector<double> &dout,
    const std::vector<double> &lse, std::vector<double> &dq,
    std::vector<double> &dk, std::vector<double> &dv);

} // namespace attnopt::ref

#endif // ATTNOPT_REFERENCE_PACKEDREFERENCE_H
