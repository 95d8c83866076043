//===- Paged.h - lengths and block tables of paged kernels ------*- C++ -*-===//
//
// A paged kernel ("op": "paged_attention", docs/kernel-manifest.md "Paged
// key/value caches") reads each sequence's keys and values through a block
// table: key position j of sequence b is row j mod page_size of page
// block_table[b, j div page_size] of key_cache / value_cache [P, page_size,
// Hkv, D]. Its run-time inputs cache_seqlens [B] and block_table [B,
// max_pages_per_seq] (i32) are data the kernels trust: this file checks
// them against the contract (pagedInputsProblem, for any caller that
// launches such a kernel), draws valid ones for attn-run (random lengths
// with the extremes, shuffled pages, -1 in the entries no kernel may read),
// binds a kernel to them, and gathers a sequence's keys or values into a
// contiguous [Hkv, L, width] tensor for the dense float64 reference.
//
//===----------------------------------------------------------------------===//

#ifndef ATTNRT_PAGED_H
#define ATTNRT_PAGED_H

#include "attnrt/Manifest.h"

#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

namespace attnrt {

/// The pages a sequence of `length` tokens uses: ceil(length / pageSize).
int64_t pagesFor(int64_t length, int64_t pageSize);

/// Why `cacheSeqlens` and `blockTable` (row-major [B, max_pages_per_seq])
/// are not valid inputs of paged kernel `k`, or "" when they are: B
/// lengths, each in [0, max_pages_per_seq * page_size]; B *
/// max_pages_per_seq table entries, the first ceil(cache_seqlens[b] /
/// page_size) of row b in [0, num_pages) (later entries are never read and
/// may hold anything). The message names the first offending entry.
std::string pagedInputsProblem(const KernelSpec &k,
                               const std::vector<int32_t> &cacheSeqlens,
                               const std::vector<int32_t> &blockTable);

/// Throws Error (kExitInput) "<what>: <problem>" when pagedInputsProblem
/// finds one.
void checkPagedInputs(const KernelSpec &k,
                      const std::vector<int32_t> &cacheSeqlens,
                      const std::vector<int32_t> &blockTable,
                      const std::string &what);

/// Given cache lengths (--cache-seqlens) for paged kernel `k`: one per
/// sequence (B of them), each in [0, max_pages_per_seq * page_size]. Throws
/// Error (kExitInput) naming `what` and the first bad length.
std::vector<int32_t> cacheSeqlensFor(const KernelSpec &k,
                                     const std::vector<int64_t> &lengths,
                                     const std::string &what);

/// B cache lengths for paged kernel `k`, drawn from `seed`: each uniform in
/// [0, capacity], except that one in eight is 0, one in eight the full
/// capacity and, with causal bottom_right, one in eight below query_len (so
/// that some query rows see no key). A pure function of (k's sizes, seed).
std::vector<int32_t> drawCacheSeqlens(const KernelSpec &k, uint64_t seed);

/// A block table [B, max_pages_per_seq] for `cacheSeqlens`, drawn from
/// `seed`: the used entries take the pages of a random permutation of [0,
/// num_pages) in turn (shuffled, not in order), then, when the sequences
/// need more pages than the cache has, random pages again (shared pages,
/// as with prefix sharing; counted in `*sharedEntries`). Unused entries are
/// -1, which a kernel reading past its sequence's pages would trip on.
std::vector<int32_t> drawBlockTable(const KernelSpec &k,
                                    const std::vector<int32_t> &cacheSeqlens,
                                    uint64_t seed,
                                    int64_t *sharedEntries = nullptr);

/// Paged kernel `k` bound to `cacheSeqlens` and `blockTable` (checked by
/// checkPagedInputs first; errors name the kernel).
KernelSpec bindPaged(const KernelSpec &k,
                     const std::vector<int32_t> &cacheSeqlens,
                     const std::vector<int32_t> &blockTable);

/// Copies the first `length` tokens of one sequence from `cache` ([P,
/// page_size, Hkv, width] elements of `elementBytes` bytes, the geometry of
/// `k`) through `tableRow` (its max_pages_per_seq entries, checked) into
/// `dst`, a contiguous [Hkv, length, width] tensor: the layout of the dense
/// reference's key or value of one batch entry.
void gatherPagedSequence(const KernelSpec &k, const void *cache,
                         size_t elementBytes, int64_t width,
                         const int32_t *tableRow, int64_t length, void *dst);

} // namespace attnrt

#endif // ATTNRT_PAGED_H
