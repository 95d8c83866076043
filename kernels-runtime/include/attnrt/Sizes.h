//===- Sizes.h - the run-time sizes of a launch -----------------*- C++ -*-===//
//
// Its own header (no CUDA) because both the manifest code (attnrt_host,
// which builds without CUDA) and the installed runtime API use it.
//
//===----------------------------------------------------------------------===//

#ifndef ATTNRT_SIZES_H
#define ATTNRT_SIZES_H

#include <cstdint>

namespace attnrt {

/// The run-time sizes of a launch (docs/kernel-manifest.md, "Run-time
/// sizes"): needed where the manifest has null; 0 where not given. Sizes
/// the kernels have static are checked against these when given.
struct RuntimeSizes {
  int64_t batch = 0, queryLen = 0, keyLen = 0;
  /// The split count S (num_splits) of a split-KV forward group whose
  /// count is decided at launch (codegen.splits null,
  /// docs/kernel-manifest.md "Split-KV forward groups"): 1 to
  /// codegen.split_rule.max_splits; 0 = by the split rule
  /// (splitRuleCount), from the launch's batch and key length and the
  /// device's SM count.
  int64_t splits = 0;
  /// The pages P of a paged cache whose page count is a run-time size
  /// ("num_pages": null, docs/kernel-manifest.md "Paged key/value caches"):
  /// dimension 0 of key_cache and value_cache (the kernels do not read it;
  /// it sizes the caches for the checks). 0 where not given.
  int64_t numPages = 0;
  /// The block table's width (max_pages_per_seq) of a paged cache whose
  /// width is a run-time size ("max_pages_per_seq": null): dimension 1 of
  /// block_table, its row stride in the kernels; the key capacity is
  /// maxPagesPerSeq * page_size. 0 where not given.
  int64_t maxPagesPerSeq = 0;
};

} // namespace attnrt

#endif // ATTNRT_SIZES_H
