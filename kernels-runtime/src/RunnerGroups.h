//===- RunnerGroups.h - kernel sets and group runners -----------*- C++ -*-===//
//
// Kernels bound to run (private to kernels-runtime/src): a forward (a
// kernel, or a split-KV or paged group) as a ForwardSet, backward groups as
// a BackwardSet, each launched by attn-run's own launchers or through the
// runtime library (ApiSet, with --api); their results; and the runners of
// a forward, a backward group, a training step and a merge kernel.
//
//===----------------------------------------------------------------------===//

#ifndef ATTNRT_RUNNER_GROUPS_H
#define ATTNRT_RUNNER_GROUPS_H

#include "RunnerBuffers.h"
#include "RunnerReport.h"
#include "attnrt/Cuda.h"
#include "attnrt/Manifest.h"
#include "attnrt/Runner.h"
#include "attnrt/Runtime.h"
#include "attnrt/Util.h"

#include <algorithm>
#include <cmath>
#include <memory>
#include <string>
#include <vector>

namespace attnrt::runner {

/// The sizes attn-run bound kernel `bound` to, as the runtime library takes
/// them: a split-KV group's S (given or by the rule), so that the library's
/// launch matches the buffers and the report; a paged group's batch and
/// page count (its key length is its capacity, which the library does not
/// take); none for a merge kernel.
RuntimeSizes apiSizes(const KernelSpec &bound);

/// A kernel set of the runtime library bound to attn-run's buffers
/// (RunOptions::viaApi): the arguments come from the bindings of its
/// kernels, the workspace is one NaN-poisoned buffer of workspaceBytes().
class ApiSet {
public:
  ApiSet(const KernelSet &set, const std::vector<Binding *> &bindings,
         const KernelSpec &bound)
      : kernelSet(&set) {
    for (Binding *b : bindings)
      b->addTo(args);
    args.sizes(apiSizes(bound));
    if (bound.isVarlen())
      args.sequenceOffsets(bound.cuSeqlensQ, bound.cuSeqlensK);
    // A paged set: the library's check of the contract on attn-run's host
    // copies of the lengths and table (attn-run has checked them too).
    if (bound.isPaged()) {
      Status s = set.checkPagedInputs(args.sizes(), bound.cacheSeqlens,
                                      bound.blockTable);
      if (!s.ok())
        throw Error("through the runtime library: " + s.message(),
                    int(s.code()));
    }
    Expected<uint64_t> bytes = set.workspaceBytes(args);
    if (!bytes.ok())
      throw Error(bytes.status().message(), int(bytes.status().code()));
    if (*bytes) {
      workspace = DeviceBuffer(*bytes, "workspace of kernel set '" +
                                           set.name() + "'");
      workspace.fill(0xFF, *bytes); // NaN in every f32
    }
  }
  /// Launches the set on the null stream; an error is an attnrt::Error.
  void launch() const {
    Status s = kernelSet->launch(args, nullptr, workspace.ptr(),
                                 workspace.size());
    if (!s.ok())
      throw Error("through the runtime library: " + s.message(),
                  int(s.code()));
  }
  const std::string &name() const { return kernelSet->name(); }

private:
  const KernelSet *kernelSet;
  Arguments args;
  DeviceBuffer workspace;
};

/// The runtime library of the manifest, when RunOptions::viaApi.
extern const Library *apiLibrary;

/// The library's kernel set that launches `kernelName`'s set.
const KernelSet &apiSetOf(const std::string &kernelName);

/// Backward kernels bound to run: the kernels of one or more groups in
/// manifest order (how they are launched), on the inputs of a SharedBuffers;
/// the kernels of a group share its workspaces.
class BackwardSet {
public:
  /// The kernels of one group of the set, by index into the set.
  struct Group {
    GradGroup group;
    std::string key; // names the group's workspaces in SharedBuffers
    std::vector<size_t> members;
  };

  BackwardSet(const Manifest &m, const std::vector<const KernelSpec *> &ks,
              const Module &module, CudaContext &ctx)
      : kernels(ks) {
    for (size_t i = 0; i < ks.size(); ++i) {
      const KernelSpec &k = *ks[i];
      launchers.emplace_back(module.function(k.name), k.name, k.grid, k.block,
                             k.dynamicSharedMemory, ctx.info(), k.persistent);
      GradGroup g = gradGroupOf(m, k);
      // A kernel without "group" may share its name with a group.
      std::string key = (g.explicitGroup ? "group " : "kernel ") + g.name;
      auto it = std::find_if(groupList.begin(), groupList.end(),
                             [&](const Group &x) { return x.key == key; });
      if (it == groupList.end()) {
        groupList.push_back({g, key, {}});
        it = groupList.end() - 1;
      }
      it->members.push_back(i);
      groupIndex.push_back(size_t(it - groupList.begin()));
    }
  }

  /// Allocates (or borrows from `shared`) every kernel's parameters.
  void bind(SharedBuffers &shared) {
    for (size_t i = 0; i < kernels.size(); ++i)
      bindings.push_back(
          shared.bind(*kernels[i], groupList[groupIndex[i]].key));
  }

  size_t size() const { return kernels.size(); }
  const KernelSpec &kernel(size_t i) const { return *kernels[i]; }
  const KernelLauncher &launcher(size_t i) const { return launchers[i]; }
  Binding &binding(size_t i) { return *bindings[i]; }
  const std::vector<Group> &groups() const { return groupList; }
  const Group &groupOf(size_t i) const { return groupList[groupIndex[i]]; }

  void setScalars(uint64_t seed, uint64_t offset) {
    for (auto &b : bindings)
      b->setScalars(seed, offset);
  }
  /// Launches kernel i and waits for it, so that an error names it.
  /// Through the runtime library, the first kernel of a group launches the
  /// whole group and the others nothing.
  void launchChecked(size_t i, const std::string &note = "") {
    if (apiLibrary) {
      if (launchGroupViaApi(i))
        ATTNRT_CU_CHECK_MSG(cuCtxSynchronize(),
                            "running kernel set '" + apiSet(i).name() +
                                "' through the runtime library" + note);
      return;
    }
    launchers[i].launch(bindings[i]->params());
    ATTNRT_CU_CHECK_MSG(cuCtxSynchronize(),
                        "running kernel '" + kernels[i]->name + "'" + note);
  }
  /// Launches the kernels `which` in order, without waiting (timing).
  void launch(const std::vector<size_t> &which) {
    for (size_t i : which)
      if (!apiLibrary)
        launchers[i].launch(bindings[i]->params());
      else
        launchGroupViaApi(i);
  }
  void launchAll() {
    for (size_t i = 0; i < kernels.size(); ++i)
      if (!apiLibrary)
        launchers[i].launch(bindings[i]->params());
      else
        launchGroupViaApi(i);
  }

private:
  std::vector<const KernelSpec *> kernels;
  std::vector<KernelLauncher> launchers;
  std::vector<std::unique_ptr<Binding>> bindings;
  std::vector<Group> groupList;
  std::vector<size_t> groupIndex; // per kernel, into groupList
  /// Per group, its runtime-library set (RunOptions::viaApi), bound at its
  /// first launch (after the inputs and scalars are in place).
  std::vector<std::unique_ptr<ApiSet>> apiSets;

  ApiSet &apiSet(size_t i) {
    const Group &g = groupList[groupIndex[i]];
    apiSets.resize(groupList.size());
    std::unique_ptr<ApiSet> &a = apiSets[groupIndex[i]];
    if (!a) {
      std::vector<Binding *> members;
      for (size_t m : g.members)
        members.push_back(bindings[m].get());
      a = std::make_unique<ApiSet>(apiSetOf(kernels[g.members.front()]->name),
                                   members, *kernels[g.members.front()]);
    }
    return *a;
  }
  /// Launches kernel i's group when i is its first kernel; false otherwise.
  bool launchGroupViaApi(size_t i) {
    if (groupList[groupIndex[i]].members.front() != i)
      return false;
    apiSet(i).launch();
    return true;
  }
};

/// The kernels of one forward: a forward kernel alone, or the split_kv and
/// combine stages of a split-KV forward group (docs/kernel-manifest.md,
/// "Split-KV forward groups"), launched one after another in manifest order.
/// The last kernel writes output and lse.
struct ForwardKernels {
  std::string name; // the kernel's, or the group's
  bool group = false;
  std::vector<const KernelSpec *> kernels;
};

/// The forward that forward kernel `k` (of `m`) is part of.
ForwardKernels forwardOf(const Manifest &m, const KernelSpec &k);

/// A forward bound to run: its kernels' launchers and bindings, on inputs
/// and workspaces shared through a SharedBuffers (a group's workspaces are
/// one allocation each, NaN-poisoned with a guard like outputs); each kernel
/// owns its outputs.
class ForwardSet {
public:
  ForwardSet(const ForwardKernels &f, const Module &module, CudaContext &ctx)
      : fwd(f), key("forward " + f.name) {
    for (const KernelSpec *k : f.kernels)
      launchers.emplace_back(module.function(k->name), k->name, k->grid,
                             k->block, k->dynamicSharedMemory, ctx.info(),
                             k->persistent);
  }

  /// Allocates every kernel's parameters (inputs and workspaces once).
  void bind() {
    for (const KernelSpec *k : fwd.kernels)
      bindings.push_back(shared.bind(*k, key));
  }

  size_t size() const { return fwd.kernels.size(); }
  const ForwardKernels &kernels() const { return fwd; }
  const KernelSpec &kernel(size_t i) const { return *fwd.kernels[i]; }
  const KernelLauncher &launcher(size_t i) const { return launchers[i]; }
  Binding &binding(size_t i) { return *bindings[i]; }
  /// The kernel writing output and lse, and its binding.
  const KernelSpec &last() const { return *fwd.kernels.back(); }
  Binding &lastBinding() { return *bindings.back(); }
  /// Tensor `name` (an input, a workspace or an output), or 0.
  CUdeviceptr ptr(const std::string &name) {
    for (auto &b : bindings)
      if (CUdeviceptr p = b->ptr(name))
        return p;
    return 0;
  }
  /// "partial_output [2, 8, 8, 1, 128] f32, ...", or "" without workspaces.
  std::string workspaceText() {
    std::string s;
    for (auto &w : shared.workspaces(key))
      s += (s.empty() ? "" : ", ") + w.first->name + " " +
           formatShape(w.first->shape) + " f32";
    return s;
  }
  void poisonWorkspaces() { shared.poisonWorkspaces(key); }
  bool checkWorkspaceGuards() { return shared.checkWorkspaceGuards(key); }
  /// Launches every kernel, waiting for each, so that an error names it.
  /// Through the runtime library: the whole set, then one wait.
  void launchChecked() {
    if (apiLibrary) {
      viaApi().launch();
      ATTNRT_CU_CHECK_MSG(cuCtxSynchronize(),
                          "running kernel set '" + viaApi().name() +
                              "' through the runtime library");
      return;
    }
    for (size_t i = 0; i < size(); ++i) {
      launchers[i].launch(bindings[i]->params());
      ATTNRT_CU_CHECK_MSG(cuCtxSynchronize(),
                          "running kernel '" + kernel(i).name + "'");
    }
  }
  /// Launches every kernel in order, without waiting (timing).
  void launchAll() {
    if (apiLibrary)
      return viaApi().launch();
    for (size_t i = 0; i < size(); ++i)
      launchers[i].launch(bindings[i]->params());
  }

private:
  /// The runtime-library set (RunOptions::viaApi), bound at first use.
  std::unique_ptr<ApiSet> api;
  ApiSet &viaApi() {
    if (!api) {
      std::vector<Binding *> all;
      for (auto &b : bindings)
        all.push_back(b.get());
      api = std::make_unique<ApiSet>(apiSetOf(fwd.kernels.front()->name), all,
                                     *fwd.kernels.front());
    }
    return *api;
  }

  ForwardKernels fwd;
  std::string key; // names the workspaces in `shared`
  std::vector<KernelLauncher> launchers;
  SharedBuffers shared;
  std::vector<std::unique_ptr<Binding>> bindings;
};

/// The result of a forward: one KernelResult per kernel, and the forward's
/// (for a group: the combine stage's errors, both launches' time; for a
/// kernel alone, its own).
struct ForwardResult {
  std::vector<KernelResult> kernels;
  KernelResult total;
};

/// The result of a backward group: one KernelResult per kernel (in group
/// order) and the group's own verdict and time.
struct GroupResult {
  std::string status = "ERROR";
  std::vector<KernelResult> kernels;
  double ms = NAN, tflops = NAN;
};

/// A forward (kernel or split-KV group) and the backward kernels naming it
/// ("forward"), run as training does.
struct TrainGroup {
  ForwardKernels forward;
  std::vector<const KernelSpec *> backward; // manifest order
};

struct TrainResult {
  std::string status = "ERROR";
  ForwardResult forward;
  std::vector<KernelResult> backward;
  double fwdMs = NAN, bwdMs = NAN, fwdBwdMs = NAN;
};

/// A forward on its own: a kernel, or a split-KV group launched split_kv
/// then combine on shared workspaces. Inputs seeded, outputs and workspaces
/// poisoned, the first launch validated against the float64 reference
/// (output and lse as a forward kernel's), then timed.
ForwardResult runForward(const ForwardKernels &f, const Module &module,
                         CudaContext &ctx, const RunOptions &options);

/// The kernels of one attn.attention_grad (a group; an old-style kernel is
/// a group of one) on their own: inputs q, k, v, mask, seed/offset and
/// grad_output uploaded once, output and lse from the float64 GPU reference
/// forward, rounded as a forward kernel would write them; workspaces shared
/// by the group; every kernel launched in manifest order, the gradients
/// validated, the group launched again for the repeat check; then each
/// kernel timed alone and the group back to back.
GroupResult runGradGroup(const Manifest &m, const GradGroup &g,
                         const Module &module, CudaContext &ctx,
                         const RunOptions &options);

/// Runs a training group: the forward (a kernel, or a split-KV group; saving
/// lse) on seeded inputs, then every backward kernel on the forward's output
/// and lse buffers. Validates the forward against the reference forward and the
/// gradients against the reference gradient of the reference forward (lse
/// rounded to f32; D_i from the forward kernel's output, which the backward
/// read); times forward, backward and both.
TrainResult runTrainGroup(const Manifest &m, const TrainGroup &g,
                          const Module &module, CudaContext &ctx,
                          const RunOptions &options);

/// A merge kernel ("op": "merge_partials"): inputs drawn from the seed
/// (drawMergeInputs: -inf partials with NaN outputs, rows of -inf only),
/// output and lse poisoned, one launch validated against the float64
/// reference (mergeReference), then timed (bytes read and written).
KernelResult runMerge(const KernelSpec &k, const Module &module,
                      CudaContext &ctx, const RunOptions &options);

} // namespace attnrt::runner

#endif // ATTNRT_RUNNER_GROUPS_H
