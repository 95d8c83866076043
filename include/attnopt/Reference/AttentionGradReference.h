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

/// The size of the terms each gradient element sums, with the arguments of
/// referenceAttentionGrad: |dO|·|V| for dP, |dO|·|O| for D_i, P (|dP| + |D_i|)
/// for dS, and |scale| |dS| |K|, |scale| |dS| |Q|, Pd |dO| for dQ, dK, dV.
/// Where the terms cancel (a row with one allowed key: dS = P (dP - D_i) is
/// rounding noise), a gradient's error is bounded by a few roundings of
/// these sizes, not by its own value.
void referenceAttentionGradMagnitudes(
    const AttentionProblem &p, const std::vector<double> &q,
    const std::vector<double> &k, const std::vector<double> &v,
    const std::vector<double> &mask, const std::vector<double> &out,
    const std::vector<double> &dout, const std::vector<double> &lse,
    std::vector<double> &dq, std::vector<double> &dk, std::vector<double> &dv,
    const std::vector<double> *dropoutMask = nullptr);

/// The rounding a gradient's cancelling terms may carry, per unit of their
/// size (referenceAttentionGradMagnitudes): 64 f32 unit roundoffs, the
/// kernels' accumulation precision with room for the order of their sums.
constexpr double kGradientCancellationFloor = 64.0 * 5.9604644775390625e-8;

/// The largest |got - want| / (tol · refMax + floor · size) over the
/// elements (NaN counts as infinitely far): at most 1 when every element is
/// within the relative tolerance or within the rounding of its terms.
double gradientCancellationRatio(const std::vector<double> &got,
                                 const std::vector<double> &want,
                                 const std::vector<double> &size, double tol,
                                 double refMax, double floor);

} // namespace attnopt::ref

#endif // ATTNOPT_REFERENCE_ATTENTIONGRADREFERENCE_H
