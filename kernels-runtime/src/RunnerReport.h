//===- RunnerReport.h - attn-run's report lines -----------------*- C++ -*-===//
//
// The text attn-run prints (private to kernels-runtime/src): progress and
// warnings (out, warn), each kernel's header, and the RESULT, GROUP and
// TRAIN lines that scripts read, from the results the runners fill
// (KernelResult here; the forward, group and training results in
// RunnerGroups.h).
//
//===----------------------------------------------------------------------===//

#ifndef ATTNRT_RUNNER_REPORT_H
#define ATTNRT_RUNNER_REPORT_H

#include "attnrt/Cuda.h"
#include "attnrt/Manifest.h"

#include <cmath>
#include <cstdint>
#include <string>

namespace attnrt::runner {

struct ForwardKernels;
struct ForwardResult;
struct GroupResult;
struct TrainGroup;
struct TrainResult;

/// Prints `s` to stdout (flushed).
void out(const std::string &s);

/// Prints "attn-run: warning: `s`" to stderr (stdout flushed first).
void warn(const std::string &s);

/// `s` without its spaces: "[1,8,1,32]".
std::string noSpaces(std::string s);

struct KernelResult {
  std::string status = "ERROR"; // PASS FAIL NOT_VALIDATED ERROR
  double ms = NAN, tflops = NAN, gbps = NAN;
  double outErr = NAN, lseErr = NAN;
  int64_t nans = -1;
  // Backward kernels: the error of each gradient (NaN when not written or
  // not validated) and whether a second launch gave the same bits
  // (-1: not checked).
  double dqErr = NAN, dkErr = NAN, dvErr = NAN;
  int repeatIdentical = -1;
};

/// The RESULT line of kernel `k`.
std::string resultLine(const KernelSpec &k, const KernelResult &r);

/// The report header of kernel `k`: its problem and launch.
/// "  launch: grid [..] block [..], .. B dynamic shared memory; ..
/// registers, ..": how kernel `k` is launched and what it uses.
std::string launchLine(const KernelSpec &k, const KernelLauncher &launcher);

void printHeader(const KernelSpec &k, const KernelLauncher &launcher);

/// "kernel 'k'" or "forward group 'g'", in messages.
std::string forwardText(const ForwardKernels &f);

/// The GROUP line of an explicit group, after its kernels' RESULT lines:
/// the whole backward's time and the benchmark FLOPs (2.5 x forward).
std::string groupLine(const GradGroup &g, const GroupResult &r);

/// The GROUP line of a split-KV forward group, after its kernels' RESULT
/// lines: the forward's time (both launches), FLOPs, errors and verdict.
std::string forwardGroupLine(const ForwardKernels &f, const KernelResult &r);

/// The RESULT lines of a forward's kernels, then a group's GROUP line.
void printForward(const ForwardKernels &f, const ForwardResult &r);

/// The TRAIN line of a training step.
std::string trainLine(const TrainGroup &g, const TrainResult &r);

} // namespace attnrt::runner

#endif // ATTNRT_RUNNER_REPORT_H
