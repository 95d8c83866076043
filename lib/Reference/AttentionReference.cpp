//===- AttentionReference.cpp - float64 attention reference ---------------===//

#include "attnopt/Reference/AttentionReference.h"
#include "attnopt/Reference/Philox.h"

#include <cmath>
#include <limits>

namespace attnopt::ref {

bool isPositionAllowed(const AttentionProblem &p, int64_t i, int64_t j) {
  int64_t delta = p.causal == Causal::BottomRight ? p.keyLen - p.queryLen : 0;
  int64_t diag = i + delta;
  if (p.causal != Causal::None && j > diag)
    return false;
  if (p.hasWindow) {
    if (p.windowLeft >= 0 && j < diag - p.windowLeft)
      return false;
    if (p.windowRight >= 0 && j > diag + p.windowRight)
      return false;
  }
  return true;
}

bool philoxKeep(const AttentionProblem &p, int64_t b, int64_t h, int64_t i,
                int64_t j) {
  int64_t rows = p.dropoutRows ? p.dropoutRows : p.queryLen;
  return dropoutKeep(p.seed, p.offset, b, h, i + p.dropoutRowOrigin,
                     j + p.dropoutColOrigin, p.queryHeads, rows, p.dropoutP);
}

/// Index of (b, h, i, j) in a mask of shape `s` that broadcasts to
/// [B, Hq, Lq, Lk].
static int64_t broadcastIndex(const std::array<int64_t, 4> &s, int64_t b,
                              int64_t h, int64_t i, int64_t j) {
  int64_t bb = s[0] == 1 ? 0 : b, hh = s[1] == 1 ? 0 : h;
  int64_t ii = s[2] == 1 ? 0 : i, jj = s[3] == 1 ? 0 : j;
  return ((bb * s[1] + hh) * s[2] + ii) * s[3] + jj;
}

void referenceAttention(const AttentionProblem &p, const std::vector<double> &q,
                        const std::vector<double> &k,
                        const std::vector<double> &v,
                        const std::vector<double> &mask,
                        std::vector<double> &out, std::vector<double> &lse,
                        std::vector<uint8_t> *keep,
                        const std::vector<double> *dropoutMask) {
  const double negInf = -std::numeric_limits<double>::infinity();
  const int64_t group = p.queryHeads / p.kvHeads;
  out.assign(p.outputElements(), 0.0);
  lse.assign(p.lseElements(), negInf);
  if (keep)
    keep->assign(p.batch * p.queryHeads * p.queryLen * p.keyLen, 1);
  const double dropScale = 1.0 / (1.0 - double(p.dropoutP));
  std::vector<double> s(p.keyLen);

  for (int64_t b = 0; b < p.batch; ++b)
    for (int64_t h = 0; h < p.queryHeads; ++h)
      for (int64_t i = 0; i < p.queryLen; ++i) {
        int64_t hk = h / group;
        const double *qRow =
            &q[((b * p.queryHeads + h) * p.queryLen + i) * p.headDim];
        double rowMax = negInf;
        for (int64_t j = 0; j < p.keyLen; ++j) {
          const double *kRow =
              &k[((b * p.kvHeads + hk) * p.keyLen + j) * p.headDim];
          double dot = 0.0;
          for (int64_t d = 0; d < p.headDim; ++d)
            dot += qRow[d] * kRow[d];
          double score = double(p.scale) * dot;
          if (p.hasSoftcap)
            score = double(p.softcap) * std::tanh(score / double(p.softcap));
          bool allowed = isPositionAllowed(p, i, j);
          if (p.maskKind == MaskKind::Boolean)
            allowed =
                allowed && mask[broadcastIndex(p.maskShape, b, h, i, j)] != 0.0;
          else if (p.maskKind == MaskKind::Additive)
            score += mask[broadcastIndex(p.maskShape, b, h, i, j)];
          s[j] = allowed ? score : negInf;
          rowMax = std::max(rowMax, s[j]);
        }
        // A row with nothing allowed (or only -inf biases) stays 0 / -inf.
        if (rowMax == negInf)
          continue;
        double sum = 0.0;
        for (int64_t j = 0; j < p.keyLen; ++j) {
          s[j] = std::exp(s[j] - rowMax);
          sum += s[j];
        }
        int64_t row = (b * p.queryHeads + h) * p.queryLen + i;
        lse[row] = rowMax + std::log(sum);
        double *oRow = &out[row * p.valueDim];
        for (int64_t j = 0; j < p.keyLen; ++j) {
          double prob = s[j] / sum;
          if (p.dropoutP > 0.0f) {
            bool kept = p.hasDropoutMask
                            ? (*dropoutMask)[broadcastIndex(p.dropoutMaskShape,
                                                            b, h, i, j)] != 0.0
                            : philoxKeep(p, b, h, i, j);
            if (keep)
              (*keep)[row * p.keyLen + j] = kept;
            prob = kept ? prob * dropScale : 0.0;
          }
          if (prob == 0.0)
            continue;
          const double *vRow =
              &v[((b * p.kvHeads + hk) * p.keyLen + j) * p.valueDim];
          for (int64_t e = 0; e < p.valueDim; ++e)
            oRow[e] += prob * vRow[e];
        }
      }
}

} // namespace attnopt::ref
