//===- Varlen.h - sequence lengths of packed kernels ------------*- C++ -*-===//
//
// A packed kernel ("op": "varlen_attention", or a stage of its backward
// "varlen_attention_grad", docs/semantics.md §14) takes the tokens of B
// sequences concatenated, and the offsets
// cu_seqlens_q / cu_seqlens_k (B + 1 i32 each) that say where each sequence
// starts. Its sizes are not numbers to bind but data: this file checks
// offsets (checkSeqlenOffsets, meant for any caller that launches such a
// kernel, not only attn-run), makes them from lengths, draws lengths for
// attn-run (a random split of a token total, a long-tail distribution) and
// binds a manifest kernel to them (bindSequences: sizes, shapes, grid and
// the i32 size parameters), checking the limits before anything is
// allocated or launched.
//
//===----------------------------------------------------------------------===//

#ifndef ATTNRT_VARLEN_H
#define ATTNRT_VARLEN_H

#include "attnrt/Manifest.h"

#include <cstdint>
#include <string>
#include <vector>

namespace attnrt {

/// The most sequences a packed kernel takes: one grid row (z) each.
constexpr int64_t kMaxSequences = 65535;

/// Why `count` offsets at `cu` are not those of a packed batch of `batch`
/// sequences and `total` tokens, or "" when they are: count = batch + 1,
/// batch in [1, kMaxSequences], total in [0, 2^31 - 1], cu[0] = 0, never
/// decreasing, cu[batch] = total. The message names the first offending
/// entry ("cu[3] = 10 is less than cu[2] = 12").
std::string seqlenOffsetsProblem(const int32_t *cu, size_t count,
                                 int64_t batch, int64_t total);

/// Throws Error (kExitInput) "<what>: <problem>" when seqlenOffsetsProblem
/// finds one.
void checkSeqlenOffsets(const std::vector<int32_t> &cu, int64_t batch,
                        int64_t total, const std::string &what);

/// The offsets {0, L0, L0 + L1, ...} of sequences of `lengths`. Throws
/// Error (kExitInput) naming `what` when there is no length, one is
/// negative, or the total passes 2^31 - 1 (offsets are i32).
std::vector<int32_t> offsetsFromLengths(const std::vector<int64_t> &lengths,
                                        const std::string &what);

/// The lengths cu[b + 1] - cu[b] of valid offsets.
std::vector<int64_t> lengthsFromOffsets(const std::vector<int32_t> &cu);

/// Parses "L0,L1,..." (non-negative integers, at least one); throws Error
/// (kExitInput) naming `option` and the bad part.
std::vector<int64_t> parseSeqlens(const std::string &text,
                                  const std::string &option);

/// `parts` lengths adding up to `total`: parts - 1 cut points uniform in
/// [0, total], sorted (empty sequences happen, as in real batches). A pure
/// function of (total, parts, seed, stream): the same draw on every machine.
std::vector<int64_t> randomSplit(int64_t total, int64_t parts, uint64_t seed,
                                 uint64_t stream = 0);

/// --seqlens-dist longtail:B:MIN:MAX: B lengths log-uniform in [MIN, MAX]
/// (benchmarks: many short sequences, a few long ones). batch 0: none.
struct LongTail {
  int64_t batch = 0, minLen = 0, maxLen = 0;
};

/// Parses "longtail:B:MIN:MAX" (1 <= B <= kMaxSequences, 1 <= MIN <= MAX <=
/// 2^31 - 1); throws Error (kExitInput) naming the bad part.
LongTail parseSeqlensDist(const std::string &text);

/// The B lengths of `d`, drawn from `seed`.
std::vector<int64_t> longTailLengths(const LongTail &d, uint64_t seed);

/// "[12, 500, 3]", or for more than head + tail lengths "[12, 500, ...
/// (56 more) ..., 7, 80]".
std::string lengthsText(const std::vector<int64_t> &lengths, size_t head = 8,
                        size_t tail = 4);

/// How attn-run gets a packed kernel's sequence lengths (the command line).
struct SeqlenOptions {
  std::vector<int64_t> q, k; // --seqlens-q, --seqlens-k (k empty: q's)
  LongTail dist;             // --seqlens-dist
  bool given() const { return !q.empty() || dist.batch > 0; }
};

/// The sequence lengths of one run of a packed kernel, and how they were
/// obtained ("given", "longtail:...", "random split of ...").
struct SequenceDraw {
  std::vector<int64_t> q, k;
  std::string how;
  bool random = false; // drawn from the seed (a new seed draws again)
};

/// The lengths for packed kernel `k`: `o.q`/`o.k` when given, else the
/// long-tail draw, else a random split (seeded) of the token totals into B
/// sequences, with B, Tq and Tk from the manifest where static and from
/// `sizes` (batch, query_len = Tq, key_len = Tk) where null; the keys use
/// the query split when Tq = Tk. Throws Error (kExitInput) naming the
/// kernel when a value is missing. (bindSequences checks the lengths
/// against the manifest.)
SequenceDraw drawSequences(const KernelSpec &k, const SeqlenOptions &o,
                           const RuntimeSizes &sizes, uint64_t seed);

/// The rows per head of a packed backward kernel's workspaces (row_dot,
/// lse_log2 [Hq, W], dq_accum [Hq, W, D]): W = 4 * ceil(Tq / 4) + 68 * B.
/// Sequence b's rows start at 4 * ceil(cu_seqlens_q[b] / 4) + 68 * b and
/// span its length rounded up to 64 (the kernels copy whole 64-row blocks),
/// so the spans never overlap. kRuntimeSize when Tq or B is.
int64_t packedWorkspaceRows(int64_t totalQueryTokens, int64_t batch);

/// Packed kernel `k` (forward, or a backward stage) of a manifest with
/// `indexBits` bound to the offsets `cuQ` and `cuK`: batch, token totals,
/// queryLen / keyLen (the longest sequence's), the shapes (workspaces W =
/// packedWorkspaceRows rows per head), the i32 size parameters and the
/// grid (x = max(1, ceil(max Lq_b / codegen.block_q)); for the dkdv and
/// dkdv_dq stages max(1, ceil(max Lk_b / codegen.block_kv)) *
/// codegen.key_block_parts; z = B). Throws Error
/// (kExitInput) naming the kernel, before anything is allocated: offsets
/// that are not valid (checkSeqlenOffsets), B or a token total that differs
/// from a static one in the manifest, Lq_b + Lk_b above 2^30 (window sides
/// are clamped to 2^30 for run-time lengths), or with 32-bit indices a
/// tensor of 2^31 elements or more.
KernelSpec bindSequences(const KernelSpec &k, const std::vector<int32_t> &cuQ,
                         const std::vector<int32_t> &cuK, int indexBits);

} // namespace attnrt

#endif // ATTNRT_VARLEN_H
