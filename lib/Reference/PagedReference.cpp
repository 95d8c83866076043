//===- PagedReference.cpp - float64 reference of paged caches -------------===//

#include "attnopt/Reference/PagedReference.h"

namespace attnopt::ref {

namespace {
/// Sequence b's [1, Hkv, L_b, X] keys or values, gathered through its row
/// of the block table.
std::vector<double> gatherSequence(const PagedCache &c, int64_t b,
                                   const std::vector<double> &cache,
                                   int64_t width) {
  const int64_t heads = c.problem.kvHeads, len = c.lengths[b];
  std::vector<double> dense(heads * len * width);
  for (int64_t j = 0; j < len; ++j) {
    int64_t page = c.table[b * c.maxPages + j / c.pageSize];
    int64_t token = page * c.pageSize + j % c.pageSize;
    for (int64_t h = 0; h < heads; ++h)
      for (int64_t x = 0; x < width; ++x)
        dense[(h * len + j) * width + x] =
            cache[(token * heads + h) * width + x];
  }
  return dense;
}
} // namespace

void referencePagedAttention(const PagedCache &cache,
                             const std::vector<double> &q,
                             const std::vector<double> &keyCache,
                             const std::vector<double> &valueCache,
                             std::vector<double> &out,
                             std::vector<double> &lse) {
  const AttentionProblem &p = cache.problem;
  const int64_t qPerSeq = p.queryHeads * p.queryLen * p.headDim;
  const int64_t outPerSeq = p.queryHeads * p.queryLen * p.valueDim;
  const int64_t lsePerSeq = p.queryHeads * p.queryLen;
  out.assign(p.batch * outPerSeq, 0.0);
  lse.assign(p.batch * lsePerSeq, 0.0);
  for (int64_t b = 0; b < p.batch; ++b) {
    AttentionProblem s = p;
    s.batch = 1;
    s.keyLen = cache.lengths[b];
    std::vector<double> seqQ(q.begin() + b * qPerSeq,
                             q.begin() + (b + 1) * qPerSeq);
    std::vector<double> seqOut, seqLse;
    referenceAttention(s, seqQ, gatherSequence(cache, b, keyCache, p.headDim),
                       gatherSequence(cache, b, valueCache, p.valueDim), {},
                       seqOut, seqLse);
    std::copy(seqOut.begin(), seqOut.end(), out.begin() + b * outPerSeq);
    std::copy(seqLse.begin(), seqLse.end(), lse.begin() + b * lsePerSeq);
  }
}

} // namespace attnopt::ref
