//===- AttentionGradReference.h - float64 attention gradients ---*- C++ -*-===//
//
// A plain C++ evaluation of the gradients of attention in double precision,
// written directly from docs/semantics.md ("Gradients (attn.attention_grad)")
// and independent of every MLIR path, like the forward reference in
// AttentionReference.h: it is what compiled backward code is compared against.
//
//===----------------------------------------------------------------------===//

#ifndef ATTNOPT_REFERENCE_ATTENTIONGRADREFERENCE_H
#define ATTNOPT_REFERENCE_ATTENTIONGRADREFERENCE_H

#include "attnopt/Reference/AttentionReference.h"

#include <vector>

namespace attnopt::ref {

/// Gradients of attention (the semantics of attn.attention_grad, see
/// docs/semantics.md): given the forward inputs, the forward results `out`
/// ([B,Hq,Lq,Dv]) and `lse` ([B,Hq,Lq]) and the output gradient `dout`
/// ([B,Hq,Lq,Dv]), fills dq [B,Hq,Lq,D], dk [B,Hkv,Lk,D], dv [B,Hkv,Lk,Dv].
///
/// The probabilities are recomputed as P = exp(s - lse) from the given `lse`
/// and D_i = dout_i . out_i uses the given `out`; neither is recomputed from
/// the inputs. Rows with lse = -inf (fully masked) contribute nothing. With
/// GQA/MQA, dk and dv are summed over the query heads sharing a kv head.
/// With `p.hasDropoutMask`, `dropoutMask` holds the explicit keep mask (as
/// for referenceAttention) in place of the Philox bits.
void referenceAttentionGrad(
    const AttentionProblem &p, const std::vector<double> &q,
    const std::vector<double> &k, const std::vector<double> &v,
    const std::vector<double> &mask, const std::vector<double> &out,
    const std::vector<double> &dout, const std::vector<double> &lse,
    std::vector<double> &dq, std::vector<double> &dk, std::vector<double> &dv,
    const std::vector<double> *dropoutMask = nullptr);

} // namespace attnopt::ref

#endif // ATTNOPT_REFERENCE_ATTENTIONGRADREFERENCE_H
