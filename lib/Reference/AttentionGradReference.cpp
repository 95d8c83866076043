//===- AttentionGradReference.cpp - float64 attention gradients -----------===//

#include "attnopt/Reference/AttentionGradReference.h"
#include "attnopt/Reference/Philox.h"

#include <algorithm>
#include <cmath>
#include <limits>

namespace attnopt::ref {

// Same broadcasting rule as the forward reference (docs/semantics.md §5);
// repeated here rather than shared so that this file reads on its own.
static int64_t broadcastIndex(const std::array<int64_t, 4> &s, int64_t b,
                              int64_t h, int64_t i, int64_t j) {
  int64_t bb = s[0] == 1 ? 0 : b, hh = s[1] == 1 ? 0 : h;
  int64_t ii = s[2] == 1 ? 0 : i, jj = s[3] == 1 ? 0 : j;
  return ((bb * s[1] + hh) * s[2] + ii) * s[3] + jj;
}

/// The gradients, or with `magnitude` the size of the terms each sums: every
/// input read as its absolute value and D_i subtracted as + |D_i|, so that
/// dS = P (|dP| + |D|) and each product adds |dS| |k|, |dS| |q|, Pd |dO|.
static void
gradientSums(const AttentionProblem &p, const std::vector<double> &q,
             const std::vector<double> &k, const std::vector<double> &v,
             const std::vector<double> &mask, const std::vector<double> &out,
             const std::vector<double> &dout, const std::vector<double> &lse,
             std::vector<double> &dq, std::vector<double> &dk,
             std::vector<double> &dv, const std::vector<double> *dropoutMask,
             bool magnitude) {
  auto sized = [magnitude](double x) { return magnitude ? std::fabs(x) : x; };
  const double negInf = -std::numeric_limits<double>::infinity();
  const int64_t group = p.queryHeads / p.kvHeads;
  const double scale = double(p.scale);
  const double softcap = double(p.softcap);
  const double dropScale = 1.0 / (1.0 - double(p.dropoutP));
  // dk and dv accumulate over the query rows (and over the G query heads of a
  // kv head), dq over the keys: all start from zero, and whatever is never
  // touched (fully masked rows, keys nobody attends to) stays zero.
  dq.assign(p.queryElements(), 0.0);
  dk.assign(p.keyElements(), 0.0);
  dv.assign(p.valueElements(), 0.0);

  for (int64_t b = 0; b < p.batch; ++b)
    for (int64_t h = 0; h < p.queryHeads; ++h)
      for (int64_t i = 0; i < p.queryLen; ++i) {
        int64_t hk = h / group;
        int64_t row = (b * p.queryHeads + h) * p.queryLen + i;
        // A fully masked row has out = 0 and lse = -inf and does not depend
        // on any input: it contributes nothing. (exp(s - lse) would be
        // exp(+inf) or NaN, so it must be skipped, not computed.)
        double rowLse = lse[row];
        if (rowLse == negInf)
          continue;
        const double *qRow = &q[row * p.headDim];
        const double *oRow = &out[row * p.valueDim];
        const double *doRow = &dout[row * p.valueDim];
        double *dqRow = &dq[row * p.headDim];

        // D_i = dout_i . out_i, from the given output: it equals
        // sum_j P_ij dP_ij, the softmax Jacobian's correction term.
        double rowD = 0.0;
        for (int64_t e = 0; e < p.valueDim; ++e)
          rowD += sized(doRow[e] * oRow[e]);

        for (int64_t j = 0; j < p.keyLen; ++j) {
          // Excluded positions have P = 0: no gradient flows through them.
          bool allowed = isPositionAllowed(p, i, j);
          if (p.maskKind == MaskKind::Boolean)
            allowed =
                allowed && mask[broadcastIndex(p.maskShape, b, h, i, j)] != 0.0;
          if (!allowed)
            continue;
          int64_t kvRow = (b * p.kvHeads + hk) * p.keyLen + j;
          const double *kRow = &k[kvRow * p.headDim];
          const double *vRow = &v[kvRow * p.valueDim];
          double *dkRow = &dk[kvRow * p.headDim];
          double *dvRow = &dv[kvRow * p.valueDim];

          // The forward score pipeline: scale, softcap, additive mask.
          double dot = 0.0;
          for (int64_t d = 0; d < p.headDim; ++d)
            dot += qRow[d] * kRow[d];
          double score = scale * dot;
          double tanhT = 0.0;
          if (p.hasSoftcap) {
            tanhT = std::tanh(score / softcap);
            score = softcap * tanhT;
          }
          if (p.maskKind == MaskKind::Additive)
            score += mask[broadcastIndex(p.maskShape, b, h, i, j)];

          // Softmax probability recomputed from the given lse (a -inf bias
          // gives P = 0).
          double prob = std::exp(score - rowLse);

          // Dropout: out used Pd = P * keep * r, so both dV and dP see the
          // same factor keep * r (0 for a dropped element).
          double dropFactor = 1.0;
          if (p.dropoutP > 0.0f)
            dropFactor =
                (p.hasDropoutMask ? (*dropoutMask)[broadcastIndex(
                                        p.dropoutMaskShape, b, h, i, j)] != 0.0
                                  : philoxKeep(p, b, h, i, j))
                    ? dropScale
                    : 0.0;
          double probDropped = prob * dropFactor;

          // dV_j += Pd_ij * dout_i (summed over i and the group's heads).
          for (int64_t e = 0; e < p.valueDim; ++e)
            dvRow[e] += probDropped * sized(doRow[e]);

          // dPd_ij = dout_i . v_j, then back through dropout to dP_ij.
          double dProbDropped = 0.0;
          for (int64_t e = 0; e < p.valueDim; ++e)
            dProbDropped += sized(doRow[e] * vRow[e]);
          double dProb = dProbDropped * dropFactor;

          // Softmax backward: dS_ij = P_ij * (dP_ij - D_i). The additive
          // mask is a constant shift, so it passes dS through unchanged.
          // (In the magnitude pass both are sums of |terms|.)
          double dScore =
              magnitude ? prob * (dProb + rowD) : prob * (dProb - rowD);
          // Softcap backward: d(c * tanh(x / c))/dx = 1 - tanh^2.
          // In the magnitude pass the factor carries the rounding of t as
          // well: a kernel's 1 - t^2 from an f32 t is off by about 2|t| f32
          // roundoffs, which is all of it where the tanh saturates.
          if (p.hasSoftcap)
            dScore *= magnitude ? 1.0 - tanhT * tanhT + 2.0 * std::fabs(tanhT)
                                : 1.0 - tanhT * tanhT;

          // Scale and the Q.K^T product: dq_i += scale * dS_ij * k_j and
          // dK_j += scale * dS_ij * q_i.
          for (int64_t d = 0; d < p.headDim; ++d) {
            dqRow[d] += sized(scale) * dScore * sized(kRow[d]);
            dkRow[d] += sized(scale) * dScore * sized(qRow[d]);
          }
        }
      }
}

void referenceAttentionGrad(
    const AttentionProblem &p, const std::vector<double> &q,
    const std::vector<double> &k, const std::vector<double> &v,
    const std::vector<double> &mask, const std::vector<double> &out,
    const std::vector<double> &dout, const std::vector<double> &lse,
    std::vector<double> &dq, std::vector<double> &dk, std::vector<double> &dv,
    const std::vector<double> *dropoutMask) {
  gradientSums(p, q, k, v, mask, out, dout, lse, dq, dk, dv, dropoutMask,
               /*magnitude=*/false);
}

void referenceAttentionGradMagnitudes(
    const AttentionProblem &p, const std::vector<double> &q,
    const std::vector<double> &k, const std::vector<double> &v,
    const std::vector<double> &mask, const std::vector<double> &out,
    const std::vector<double> &dout, const std::vector<double> &lse,
    std::vector<double> &dq, std::vector<double> &dk, std::vector<double> &dv,
    const std::vector<double> *dropoutMask) {
  gradientSums(p, q, k, v, mask, out, dout, lse, dq, dk, dv, dropoutMask,
               /*magnitude=*/true);
}

double gradientCancellationRatio(const std::vector<double> &got,
                                 const std::vector<double> &want,
                                 const std::vector<double> &size, double tol,
                                 double refMax, double floor) {
  double worst = 0.0;
  for (size_t e = 0; e < got.size() && e < want.size() && e < size.size();
       ++e) {
    double bound = tol * refMax + floor * size[e];
    double diff = std::fabs(got[e] - want[e]);
    if (std::isnan(diff) || (diff > 0.0 && bound <= 0.0))
      return std::numeric_limits<double>::infinity();
    if (diff > 0.0)
      worst = std::max(worst, diff / bound);
  }
  return worst;
}

} // namespace attnopt::ref
