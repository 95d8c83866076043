//===- SplitKV.h - the split-KV forward group's private parts ---*- C++ -*-===//
//
// Private to lib/Conversion/AttnToGPU: what SplitKVKernels.cpp (describe /
// build) and CombineKernelBuilder.cpp (the combine stage) share
// (docs/kernel-manifest.md, "Split-KV forward groups").
//
//===----------------------------------------------------------------------===//

#ifndef ATTNOPT_LIB_CONVERSION_ATTNTOGPU_SPLITKV_H
#define ATTNOPT_LIB_CONVERSION_ATTNTOGPU_SPLITKV_H

#include "TensorCoreKernel.h"

namespace mlir::attn::splitkv {

/// Output rows (b, h, t) per block of the combine stage: one warp each.
constexpr int64_t kCombineRowsPerBlock = 4;

/// The split_kv stage's packed rows per block (the mma.sync stage's 4 warps
/// of 16, the wgmma stage's one consumer warpgroup).
constexpr int64_t kSplitBlockQ = 64;

/// The wgmma split_kv stage's consumer registers: two blocks of 256
/// threads per SM give 128 registers each at entry, and setmaxnreg moves
/// the producer's down to 64 and the consumers' up to 192
/// (TensorCoreCopies.cpp); of those, all but 48 (addresses, softmax
/// temporaries) may hold fragments (tc::wgmmaFragmentRegisters).
constexpr int64_t kSplitWgmmaConsumerRegisters = 192;
constexpr int64_t kSplitWgmmaFragmentBudget = kSplitWgmmaConsumerRegisters - 48;

/// The TMA box {tokens, heads} (box {64, tokens, heads, 1} of the
/// [B, Hq, Lq, D] query) that loads the split_kv stage's `blockQ` packed
/// rows (G = `group` heads of Lq = `tokens` each) in their order, one box
/// per row block; none where a row block starts inside a head of G > 1.
std::optional<std::pair<int64_t, int64_t>>
queryBox(int64_t group, int64_t tokens, int64_t blockQ);

/// The split_kv stage's tiling: on sm_90a (tiling.warpgroupMma) the wgmma
/// kernel with one consumer warpgroup where its fragments and two blocks
/// per SM fit; otherwise 4 warps of 16 rows (one m16 tile each: the
/// packed rows are few), keys per step as `tiling` requests or by the
/// forward's rule.
std::optional<tc::Tiling>
splitTiling(AttentionOpInterface op, const TensorCoreTiling &tiling,
            std::string &why);

/// The number of key-range chunks for `op` under `options` and `tiling`
/// (its smVersion and requested blockKV): 0 where the op keeps the one
/// forward kernel. Fails with a diagnostic at the op where a forced split
/// (options.splits > 0, spelled `request` in the message, e.g.
/// "--split-kv=4") does not apply. A paged cache (attn.paged_attention)
/// always takes the group: at least 1 under `auto`, and `off` is an error.
FailureOr<int64_t> chooseSplits(AttentionOpInterface op,
                                const SplitKVOptions &options,
                                KernelChoice choice,
                                const TensorCoreTiling &tiling,
                                StringRef request);

/// What the combine kernel merges: rows of `valueDim` columns, partials of
/// `rowsPerBatch` rows per batch entry (grid y), into `outputType`.
struct CombineLayout {
  int64_t rowsPerBatch = 0, valueDim = 0;
  Type outputType;
  /// The partials are [S, rows] (attn.merge_partials) instead of a group's
  /// [B, S, Hq, Lq].
  bool splitMajor = false;
  /// A partial with lse -inf adds nothing even where its output is NaN
  /// (attn.merge_partials' contract; a group's empty chunks write 0).
  bool ignoreEmptyOutputs = false;
  /// The layout of `op`'s split-KV group: [B, S, Hq, Lq] partials of Hq Lq
  /// rows per batch entry, the query's element type.
  static CombineLayout ofGroup(AttentionOpInterface op);
};

/// Emits the body of the combine stage `func` (arguments in `spec`'s
/// parameter order): per output row, lse = log sum_s exp(partial_lse_s) and
/// O = sum_s exp(partial_lse_s - lse) partial_output_s, in the op's types.
void emitCombineKernel(OpBuilder &b, gpu::GPUFuncOp func,
                       AttentionOpInterface op,
                       const KernelSpec &spec);

/// Emits a combine kernel of `layout` (attn.merge_partials' kernel).
void emitCombineKernel(OpBuilder &b, gpu::GPUFuncOp func, Location loc,
                       const CombineLayout &layout, const KernelSpec &spec);

} // namespace mlir::attn::splitkv

#endif // ATTNOPT_LIB_CONVERSION_ATTNTOGPU_SPLITKV_H
