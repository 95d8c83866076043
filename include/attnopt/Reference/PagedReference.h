//===- PagedReference.h - float64 reference of paged caches ------*- C++
//-*-===//
//
// attn.paged_attention evaluated the way docs/semantics.md (section 15)
// states it: each sequence's keys and values gathered from the cache
// through its block-table row, then the dense float64 reference with the
// sequence's own key length. Independent of the compiler's decomposition,
// which gathers the whole capacity and masks it instead.
//
//===----------------------------------------------------------------------===//

#ifndef ATTNOPT_REFERENCE_PAGEDREFERENCE_H
#define ATTNOPT_REFERENCE_PAGEDREFERENCE_H

#include "attnopt/Reference/AttentionReference.h"

#include <cstdint>
#include <vector>

namespace attnopt::ref {

/// A paged cache: `problem` has the batch, heads, query length and head
/// dims (its keyLen is unused); the caches are [pages, pageSize, Hkv, X],
/// `table` is [B, maxPages] and `lengths` [B].
struct PagedCache {
  AttentionProblem problem;
  int64_t pages = 0, pageSize = 0, maxPages = 0;
  std::vector<int64_t> table, lengths;
};

/// Fills `out` [B, Hq, Lq, Dv] and `lse` [B, Hq, Lq] (rows without an
/// allowed key: 0 and -inf) from q [B, Hq, Lq, D] and the caches.
void referencePagedAttention(const PagedCache &cache,
                             const std::vector<double> &q,
                             const std::vector<double> &keyCache,
                             const std::vector<double> &valueCache,
                             std::vector<double> &out,
                             std::vector<double> &lse);

} // namespace attnopt::ref

#endif // ATTNOPT_REFERENCE_PAGEDREFERENCE_H
