//===- RunnerValidation.h - references and checks ---------------*- C++ -*-===//
//
// The float64 GPU references of a forward (dense, packed, paged) and of the
// gradients, and the checks of what the kernels wrote against them: output
// and lse, gradients (with the cancellation floor), guards, and the repeat
// launch of a backward group (private to kernels-runtime/src).
//
//===----------------------------------------------------------------------===//

#ifndef ATTNRT_RUNNER_VALIDATION_H
#define ATTNRT_RUNNER_VALIDATION_H

#include "RunnerBuffers.h"
#include "RunnerGroups.h"
#include "RunnerReport.h"
#include "attnrt/Cuda.h"
#include "attnrt/Manifest.h"
#include "attnrt/Runner.h"

#include <functional>
#include <string>
#include <vector>

namespace attnrt::runner {

/// The float64 GPU reference forward of a problem, on device and host.
struct ReferenceForward {
  DeviceBuffer out, lse; // double
  std::vector<double> hostOut, hostLse;
  double ms = 0.0;
};

/// The float64 GPU reference forward of kernel `k`'s problem `p` on the
/// given inputs; on host too when `download`.
ReferenceForward referenceForward(const KernelSpec &k,
                                  const attnopt::ref::AttentionProblem &p,
                                  CUdeviceptr q, CUdeviceptr kk, CUdeviceptr v,
                                  CUdeviceptr mask, bool download,
                                  CUdeviceptr dropoutMask = 0);

/// The float64 reference of a paged group (on host; the GPU reference
/// computes it): each sequence b is the dense problem of batch 1 with Lk =
/// cache_seqlens[b] on its query rows and the keys and values gathered
/// through its block table row (gatherPagedSequence), so the causal and
/// window rules align to its own length. A sequence with an empty cache
/// has no key: output 0 and lse -inf on every row.
ReferenceForward referencePaged(const KernelSpec &k,
                                const attnopt::ref::AttentionProblem &p,
                                CUdeviceptr q, const PagedCaches &caches);

/// Compares the forward kernel's output (and lse) with the reference; prints
/// the report lines and fills `result`. False on a failure. `inputs` is the
/// binding that holds the value tensor when `binding` (the last kernel of a
/// split-KV set) does not; null: `binding`.
bool checkForward(const KernelSpec &k, Binding &binding,
                  const ReferenceForward &ref, const RunOptions &options,
                  KernelResult &result, Binding *inputs = nullptr);

/// The float64 GPU reference gradients, on host, and on demand (`sizes`)
/// the sizes of the terms each sums (runGpuReferenceGrad's magnitude pass).
struct ReferenceGrad {
  std::vector<double> dq, dk, dv;
  double ms = 0.0;
  std::vector<double> dqSize, dkSize, dvSize;
  /// Fills dqSize, dkSize, dvSize (once).
  std::function<void(ReferenceGrad &)> sizes;
};

/// The float64 GPU reference gradients of kernel `k`'s problem `p` on the
/// given inputs, forward and grad_output.
ReferenceGrad referenceGrad(const KernelSpec &k,
                            const attnopt::ref::AttentionProblem &p,
                            CUdeviceptr q, CUdeviceptr kk, CUdeviceptr v,
                            CUdeviceptr mask, CUdeviceptr o, CUdeviceptr lse,
                            CUdeviceptr dout);

/// Rounds the reference forward to what a forward kernel would hand the
/// backward: output in the element type, lse in f32.
void roundForward(const KernelSpec &k, const ReferenceForward &ref,
                  CUdeviceptr o, CUdeviceptr lse);

/// Compares the gradients a backward kernel wrote with the reference;
/// prints the report lines (each gradient followed by `label`, which names
/// the writer in a group) and fills `result`. False on a failure. A kernel
/// writing no gradient (prep) leaves the errors unset.
bool checkGrad(const KernelSpec &k, Binding &binding, ReferenceGrad &ref,
               const RunOptions &options, KernelResult &result,
               const std::string &label = "");

/// Launches the kernels of group `g` of `set` a second time on the same
/// inputs (outputs and workspaces poisoned again) and compares the bits of
/// every gradient with the first launch's. A difference fails only a
/// "deterministic" group (one whose dQ comes from atomics may differ);
/// otherwise it is reported as information. Sets each member's
/// repeatIdentical (a kernel writing no gradient gets the group's) and
/// clears ok[i] of a member that failed. Prints a line.
void checkRepeat(BackwardSet &set, const BackwardSet::Group &g,
                 SharedBuffers &shared, std::vector<KernelResult> &results,
                 std::vector<bool> &ok);

/// The float64 GPU reference of the launched forward `set`, on its inputs.
ReferenceForward referenceOf(ForwardSet &set,
                             const attnopt::ref::AttentionProblem &p);

/// Validates the output and lse of the launched forward `set` as those of a
/// forward kernel, and the guards of its workspaces.
bool checkForwardSet(ForwardSet &set, const ReferenceForward &ref,
                     const RunOptions &options, KernelResult &result);

/// Validates the gradients of the bound backward kernels (all of `set`,
/// launched) against the reference: each kernel's outputs, each group's
/// workspace guards, then each group's repeat check. Fills `results` (by
/// set index) and returns per kernel whether it passed; a kernel writing no
/// gradient (prep) passes when its whole group does.
std::vector<bool> checkBackward(BackwardSet &set, SharedBuffers &shared,
                                ReferenceGrad &ref, const RunOptions &options,
                                std::vector<KernelResult> &results,
                                const std::function<void(size_t)> &before);

} // namespace attnrt::runner

#endif // ATTNRT_RUNNER_VALIDATION_H
