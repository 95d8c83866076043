//===- Merge.h - merge_partials inputs and float64 reference ----*- C++ -*-===//
//
// Host side of the merge kernels ("op": "merge_partials",
// docs/kernel-manifest.md "Merging partial results"): the seeded draw of
// their inputs (partial outputs and log-sum-exps, with -inf partials whose
// outputs are NaN, and rows where every partial is -inf) and the float64
// reference of the merge.
//
//===----------------------------------------------------------------------===//

#ifndef ATTNRT_MERGE_H
#define ATTNRT_MERGE_H

#include "attnrt/HostData.h"
#include "attnrt/Manifest.h"

#include <cstdint>
#include <vector>

namespace attnrt {

/// The merge of `splits` partial results of `rows` rows of `valueDim`
/// values, in float64: partialOutput [S, R, Dv], partialLse [S, R] (the
/// row dimensions d... flattened to R), output [R, Dv] and lse [R]. Per row,
/// with m = max_s partialLse[s, r]: every partial -inf gives output 0 and
/// lse -inf; otherwise w_s = exp(partialLse[s, r] - m), output = sum_s w_s
/// partialOutput[s, r] / sum_s w_s, lse = m + log sum_s w_s, where a
/// partial with lse -inf is skipped (its output is not read: it may be
/// NaN).
void mergeReference(int64_t splits, int64_t rows, int64_t valueDim,
                    const std::vector<double> &partialOutput,
                    const std::vector<double> &partialLse,
                    std::vector<double> &output, std::vector<double> &lse);

/// The inputs of one merge run, as uploaded.
struct MergeInputs {
  HostTensor partialOutput, partialLse;
  /// Rows whose partials are all -inf, and -inf partials in all.
  int64_t emptyRows = 0, infPartials = 0;
};

/// Inputs of merge kernel `k` drawn from `seed`: partial outputs uniform in
/// [-1, 1] and partial lse uniform in [-5, 5] (partial_dtype and f32); then
/// about 20% of the partial lse set to -inf with their partial outputs set
/// to NaN (all bits set), and every partial -inf in about 5% of the rows
/// (row 0 always, when there are two rows or more).
MergeInputs drawMergeInputs(const KernelSpec &k, uint64_t seed);

} // namespace attnrt

#endif // ATTNRT_MERGE_H
