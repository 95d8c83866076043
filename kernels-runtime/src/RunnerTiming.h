//===- RunnerTiming.h - attn-run's timings ----------------------*- C++ -*-===//
//
// CUDA-event timings of kernels, forwards and groups, and the TFLOP/s and
// GB/s they report (private to kernels-runtime/src).
//
//===----------------------------------------------------------------------===//

#ifndef ATTNRT_RUNNER_TIMING_H
#define ATTNRT_RUNNER_TIMING_H

#include "RunnerBuffers.h"
#include "RunnerGroups.h"
#include "RunnerReport.h"
#include "attnrt/Cuda.h"
#include "attnrt/Manifest.h"
#include "attnrt/Runner.h"

#include <cmath>
#include <functional>
#include <string>

namespace attnrt::runner {

/// A median time and its extremes, in ms (NaN when not timed).
struct Timing {
  double ms = NAN, minMs = NAN, maxMs = NAN;
};

/// `warmup` untimed calls of `launchAll`, then `iters` calls each between
/// its own pair of events; the median.
Timing timeLaunches(const std::function<void()> &launchAll, int warmup,
                    int iters, const std::string &what);

/// Times one kernel and fills the result's ms / tflops / gbps.
void timeKernel(const KernelSpec &k, Binding &binding,
                const KernelLauncher &launcher, const RunOptions &options,
                KernelResult &result);

/// Times each kernel of `set` alone and, for a group, the group back to
/// back (the forward's time); then gives every kernel the forward's status
/// and the last kernel (combine) its errors.
void timeForward(ForwardSet &set, const RunOptions &options, ForwardResult &r);

} // namespace attnrt::runner

#endif // ATTNRT_RUNNER_TIMING_H
