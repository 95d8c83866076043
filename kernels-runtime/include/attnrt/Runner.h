//===- Runner.h - run, validate and time manifest kernels -------*- C++ -*-===//
//
// What attn-run does, as a library: for each kernel of a manifest, generate
// seeded inputs, launch with poisoned outputs, validate against the GPU
// float64 reference and time it with CUDA events; and the self-test of the
// GPU reference against the CPU float64 reference.
//
//===----------------------------------------------------------------------===//

#ifndef ATTNRT_RUNNER_H
#define ATTNRT_RUNNER_H

#include <cstdint>
#include <string>

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
  bool verbose = false;
};

/// Runs the manifest's kernels and prints a report and one RESULT line per
/// kernel. Returns the exit code (kExitOk, or kExitFailure when a kernel
/// failed validation or hit a CUDA error); throws attnrt::Error for errors
/// that stop everything (manifest, PTX file, no device, JIT failure).
int runManifest(const RunOptions &options);

/// Compares the GPU reference with the CPU float64 reference on small
/// problems covering every feature. Returns kExitOk or kExitFailure.
int runSelfTest(const RunOptions &options);

} // namespace attnrt

#endif // ATTNRT_RUNNER_H
