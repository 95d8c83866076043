//===- PackedReference.cpp - float64 reference of packed batches ----------===//

#include "attnopt/Reference/PackedReference.h"
#include "attnopt/Reference/AttentionGradReference.h"

namespace attnopt::ref {

namespace {
/// Copies the rows [first, first + len) of a token-major [T, H, X] tensor
/// into a head-major [1, H, len, X] one, and back.
struct SequenceSlice {
  int64_t first, len, heads, width;

  std::vector<double> gather(const std::vector<double> &packed) const {
    std::vector<double> dense(heads * len * width);
    for (int64_t h = 0; h < heads; ++h)
      for (int64_t t = 0; t < len; ++t)
        for (int64_t x = 0; x < width; ++x)
          dense[(h * len + t) * width + x] =
              packed[((first + t) * heads + h) * width + x];
    return dense;
  }

  void scatter(const std::vector<double> &dense,
               std::vector<double> &packed) const {
    for (int64_t h = 0; h < heads; ++h)
      for (int64_t t = 0; t < len; ++t)
        for (int64_t x = 0; x < width; ++x)
          packed[((first + t) * heads + h) * width + x] =
              dense[(h * len + t) * width + x];
  }
};

struct SequenceSlices {
  SequenceSlice q, k, v, out;
};

SequenceSlices slicesOf(const PackedBatch &batch, int64_t b) {
  const AttentionProblem &p = batch.problem;
  int64_t q0 = batch.cuQ[b], lq = batch.cuQ[b + 1] - q0;
  int64_t k0 = batch.cuK[b], lk = batch.cuK[b + 1] - k0;
  return {{q0, lq, p.queryHeads, p.headDim},
          {k0, lk, p.kvHeads, p.headDim},
          {k0, lk, p.kvHeads, p.valueDim},
          {q0, lq, p.queryHeads, p.valueDim}};
}
} // namespace

AttentionProblem sequenceProblem(const PackedBatch &batch, int64_t b) {
  AttentionProblem s = batch.problem;
  s.batch = 1;
  s.queryLen = batch.cuQ[b + 1] - batch.cuQ[b];
  s.keyLen = batch.cuK[b + 1] - batch.cuK[b];
  s.dropoutRowOrigin = batch.cuQ[b];
  s.dropoutColOrigin = batch.cuK[b];
  s.dropoutRows = batch.problem.queryLen;
  return s;
}

void referencePackedAttention(const PackedBatch &batch,
                              const std::vector<double> &q,
                              const std::vector<double> &k,
                              const std::vector<double> &v,
                              std::vector<double> &out,
                              std::vector<double> &lse) {
  const AttentionProblem &p = batch.problem;
  out.assign(p.queryLen * p.queryHeads * p.valueDim, 0.0);
  lse.assign(p.queryHeads * p.queryLen, 0.0);
  for (int64_t b = 0; b < p.batch; ++b) {
    AttentionProblem s = sequenceProblem(batch, b);
    SequenceSlices sl = slicesOf(batch, b);
    std::vector<double> seqOut, seqLse;
    referenceAttention(s, sl.q.gather(q), sl.k.gather(k), sl.v.gather(v), {},
                       seqOut, seqLse);
    sl.out.scatter(seqOut, out);
    for (int64_t h = 0; h < p.queryHeads; ++h)
      for (int64_t t = 0; t < s.queryLen; ++t)
        lse[h * p.queryLen + sl.q.first + t] = seqLse[h * s.queryLen + t];
  }
}

/// The gradients (or their terms' sizes, `perSequence` being
/// referenceAttentionGradMagnitudes) of each sequence's batch-1 problem.
static void
packedGradientSums(const PackedBatch &batch, const std::vector<double> &q,
                   const std::vector<double> &k, const std::vector<double> &v,
                   const std::vector<double> &out,
                   const std::vector<double> &dout,
                   const std::vector<double> &lse, std::vector<double> &dq,
                   std::vector<double> &dk, std::vector<double> &dv,
                   decltype(&referenceAttentionGrad) perSequence) {
  const AttentionProblem &p = batch.problem;
  dq.assign(p.queryLen * p.queryHeads * p.headDim, 0.0);
  dk.assign(p.keyLen * p.kvHeads * p.headDim, 0.0);
  dv.assign(p.keyLen * p.kvHeads * p.valueDim, 0.0);
  for (int64_t b = 0; b < p.batch; ++b) {
    AttentionProblem s = sequenceProblem(batch, b);
    SequenceSlices sl = slicesOf(batch, b);
    std::vector<double> seqLse(p.queryHeads * s.queryLen);
    for (int64_t h = 0; h < p.queryHeads; ++h)
      for (int64_t t = 0; t < s.queryLen; ++t)
        seqLse[h * s.queryLen + t] = lse[h * p.queryLen + sl.q.first + t];
    std::vector<double> seqDq, seqDk, seqDv;
    perSequence(s, sl.q.gather(q), sl.k.gather(k), sl.v.gather(v), {},
                sl.out.gather(out), sl.out.gather(dout), seqLse, seqDq, seqDk,
                seqDv, nullptr);
    sl.q.scatter(seqDq, dq);
    sl.k.scatter(seqDk, dk);
    sl.v.scatter(seqDv, dv);
  }
}

void referencePackedAttentionGrad(
    const PackedBatch &batch, const std::vector<double> &q,
    const std::vector<double> &k, const std::vector<double> &v,
    const std::vector<double> &out, const std::vector<double> &dout,
    const std::vector<double> &lse, std::vector<double> &dq,
    std::vector<double> &dk, std::vector<double> &dv) {
  packedGradientSums(batch, q, k, v, out, dout, lse, dq, dk, dv,
                     &referenceAttentionGrad);
}

void referencePackedAttentionGradMagnitudes(
    const PackedBatch &batch, const std::vector<double> &q,
    const std::vector<double> &k, const std::vector<double> &v,
    const std::vector<double> &out, const std::vector<double> &dout,
    const std::vector<double> &lse, std::vector<double> &dq,
    std::vector<double> &dk, std::vector<double> &dv) {
  packedGradientSums(batch, q, k, v, out, dout, lse, dq, dk, dv,
                     &referenceAttentionGradMagnitudes);
}

} // namespace attnopt::ref
