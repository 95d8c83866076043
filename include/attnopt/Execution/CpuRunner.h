//===- CpuRunner.h - run attn.attention on the CPU and validate -*- C++ -*-===//
//
// The CPU execution path: each attn.attention of a module is compiled on its
// own (lowered by the chosen pipeline down to LLVM, JIT-compiled with the
// MLIR ExecutionEngine), run on seeded random inputs with poisoned outputs,
// and compared with the independent float64 reference
// (attnopt/Reference/AttentionReference.h). An op with a dynamic batch or
// sequence length is compiled once and run at each given size draw.
//
//===----------------------------------------------------------------------===//

#ifndef ATTNOPT_EXECUTION_CPURUNNER_H
#define ATTNOPT_EXECUTION_CPURUNNER_H

#include "mlir/IR/BuiltinOps.h"
#include "mlir/Support/LLVM.h"
#include "llvm/Support/raw_ostream.h"

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace mlir::attn {

/// Values for the batch and sequence lengths that are dynamic (`?`) in an
/// op's IR (attn-cpu-run --sizes); 0 where not given.
struct RunSizes {
  /// A size --sizes did not give (0 is a size: an empty batch or sequence).
  static constexpr int64_t kNotGiven = -1;
  int64_t batch = kNotGiven, queryLen = kNotGiven, keyLen = kNotGiven;
  /// attn.paged_attention: the pages of the caches, and the block table's
  /// width.
  int64_t numPages = kNotGiven, maxPagesPerSeq = kNotGiven;
};

/// Parses "batch=2,query_len=100,key_len=77" (any of them, and num_pages
/// and max_pages_per_seq for a paged cache, in any order); fails with `error`
/// set on an unknown name or a value that is not a non-negative integer.
FailureOr<RunSizes> parseRunSizes(StringRef text, std::string &error);

struct CpuRunOptions {
  /// Seeds the input generator (and the dropout seed/offset operands).
  uint64_t seed = 1;
  /// Pass pipeline (textual, func.func-anchored) that removes attn.attention
  /// before the common bufferize-and-lower-to-LLVM tail.
  std::string lowering = "attn-decompose";
  /// Maximum relative error accepted for the output (0 asks for exact
  /// results); unset picks the default of the element type (f32 1e-5, f16
  /// 2e-3, bf16 8e-3; gradients: attn-cpu-run --help).
  std::optional<double> tolerance;
  /// Print the lowered LLVM-dialect module of each op to this stream.
  llvm::raw_ostream *dumpLowered = nullptr;
  /// If not empty, write each op's inputs, compiled results and reference
  /// results to this directory (opN.json + opN.*.bin, see
  /// lib/Execution/DumpArrays.h) for peer checks such as
  /// scripts/jax_peer_check.py.
  std::string dumpDir;
  /// The size draws of ops with a dynamic batch or length: such an op is
  /// compiled once and run once per draw (one without any is an error);
  /// ops with static shapes ignore them.
  std::vector<RunSizes> sizes;
  /// Runs of each attn.paged_attention and attn.merge_partials, each with
  /// fresh inputs (and cache lengths and block tables; attn-cpu-run --runs).
  unsigned runs = 1;
};

/// Runs every attn.attention in `module` and prints one report per op to
/// `os`. Fails if any op cannot be compiled or does not match the reference.
LogicalResult runAttentionOnCpu(ModuleOp module, const CpuRunOptions &options,
                                llvm::raw_ostream &os);

} // namespace mlir::attn

#endif // ATTNOPT_EXECUTION_CPURUNNER_H
