//===- Runner.h - run, validate and time manifest kernels -------*- C++ -*-===//
//
// What attn-run does, as a library: for each kernel of a manifest, generate
// seeded inputs, launch with poisoned outputs, validate against the GPU
// float64 reference (forward or gradient) and time it with CUDA events (a
// split-KV forward group runs, is validated and is timed as one forward;
// a paged group too, on drawn or given cache lengths and a drawn block
// table, against the dense reference of each sequence's gathered cache);
// the training mode (a forward kernel or group feeding the backward kernels
// that name it); and the self-test of the GPU references against the CPU
// float64 references.
//
//===----------------------------------------------------------------------===//

#ifndef ATTNRT_RUNNER_H
#define ATTNRT_RUNNER_H

#include "attnrt/Manifest.h"
#include "attnrt/Varlen.h"

#include <cstdint>
#include <string>
#include <vector>

namespace attnrt {

struct RunOptions {
  std::string manifestPath;
  std::string kernel;      // only this kernel when non-empty
  uint64_t seed = 1;
  int warmup = 10;
  int iters = 50;
  bool validate = true;
  int device = 0;
  double outTolerance = -1.0; // < 0: by dtype (f32 1e-5, f16 2e-3, bf16 8e-3)
  double lseTolerance = 1e-4;
  double gradTolerance = -1.0; // < 0: by dtype (f32 1e-4, f16 1e-2, bf16 2e-2)
  bool train = false; // run forward/backward pairs as a training step
  /// Launch every forward set and backward group through the runtime
  /// library (attnrt/Runtime.h: Library, KernelSet::launch, one workspace
  /// per set) instead of attn-run's own launchers, so that the validation
  /// checks the library's binding. Per-kernel timings still use the direct
  /// launchers; set and group timings go through the library.
  bool viaApi = false;
  bool verbose = false;
  int repeat = 1; // runs with fresh inputs: seed, seed + 1, ...
  /// Values for the kernels' run-time sizes (docs/kernel-manifest.md,
  /// "Run-time sizes"): the manifest runs once per entry. Required when a
  /// kernel has run-time sizes; sizes a kernel has static are ignored.
  /// RuntimeSizes::splits (num_splits) sets the split count of the
  /// split-KV groups that decide it at launch (else: the split rule).
  std::vector<RuntimeSizes> sizes;
  /// The sequence lengths of packed kernels (varlen_attention): given, or a
  /// long-tail draw; neither: a random split of the token totals (from the
  /// manifest, or `sizes`: batch, query_len = Tq, key_len = Tk), drawn from
  /// `seed` (each --repeat draws again).
  SeqlenOptions seqlens;
  /// The cache lengths of paged groups (paged_attention; --cache-seqlens):
  /// the manifest runs once per entry, each B lengths in [0,
  /// max_pages_per_seq * page_size] (checked before anything runs). Empty:
  /// lengths drawn from `seed` (each --repeat draws again). The block table
  /// is always drawn from `seed`.
  std::vector<std::vector<int64_t>> cacheSeqlens;
};

/// Runs the manifest's kernels and prints a report and one RESULT line per
/// kernel (with `train`: per training step, the forward and its backward
/// kernels, then one TRAIN line). Returns the exit code (kExitOk, or kExitFailure when a kernel
/// failed validation or hit a CUDA error); throws attnrt::Error for errors
/// that stop everything (manifest, PTX file, no device, JIT failure).
int runManifest(const RunOptions &options);

/// Compares the GPU reference (forward and gradient) with the CPU float64
/// reference on small problems covering every feature. Returns kExitOk or kExitFailure.
int runSelfTest(const RunOptions &options);

} // namespace attnrt

#endif // ATTNRT_RUNNER_H
