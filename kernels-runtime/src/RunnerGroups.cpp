//===- RunnerGroups.cpp - kernel sets and group runners -------------------===//
//
// What attn-run does with one forward, backward group, training step or
// merge kernel: inputs seeded, outputs and workspaces poisoned, the first
// launch validated against the float64 reference, then timed; and the
// runtime library's kernel sets that --api launches them through.
//
//===----------------------------------------------------------------------===//

#include "RunnerGroups.h"
#include "RunnerTiming.h"
#include "RunnerValidation.h"
#include "attnrt/HostData.h"
#include "attnrt/Merge.h"
#include "attnrt/Util.h"

#include <cmath>

namespace attnrt::runner {

RuntimeSizes apiSizes(const KernelSpec &bound) {
  RuntimeSizes sizes;
  if (bound.isMerge())
    return sizes;
  sizes.batch = bound.batch;
  sizes.queryLen = bound.queryLen;
  sizes.keyLen = bound.isPaged() ? 0 : bound.keyLen;
  sizes.numPages = bound.isPaged() ? bound.numPages : 0;
  sizes.maxPagesPerSeq = bound.isPaged() ? bound.maxPagesPerSeq : 0;
  sizes.splits = bound.isForwardStage() ? bound.splits : 0;
  return sizes;
}

const Library *apiLibrary = nullptr;

const KernelSet &apiSetOf(const std::string &kernelName) {
  Expected<const KernelSet *> set = apiLibrary->find(kernelName);
  if (!set.ok())
    throw Error(set.status().message(), int(set.status().code()));
  return **set;
}

ForwardKernels forwardOf(const Manifest &m, const KernelSpec &k) {
  if (!k.isForwardStage())
    return {k.name, false, {&k}};
  GradGroup g = findForwardGroup(m, k.group);
  return {g.name, true, g.kernels};
}

/// Poisons the workspaces of a forward group (reporting them) before its
/// validated launch.
static void prepareWorkspaces(ForwardSet &set) {
  std::string workspaces = set.workspaceText();
  if (!workspaces.empty())
    out("  workspaces: " + workspaces +
        " (one buffer each for the group, NaN-poisoned before the first "
        "launch)\n");
  set.poisonWorkspaces();
}

ForwardResult runForward(const ForwardKernels &f, const Module &module,
                         CudaContext &ctx, const RunOptions &options) {
  ForwardResult r;
  r.kernels.resize(f.kernels.size());
  const KernelSpec &k0 = *f.kernels.front();
  attnopt::ref::AttentionProblem p = k0.problem();
  if (f.group)
    out("\nforward group " + f.name + ": " +
        memberList(GradGroup{f.name, true, f.kernels}) +
        ", launched in this order\n");
  ForwardSet set(f, module, ctx);
  for (size_t i = 0; i < set.size(); ++i)
    printHeader(set.kernel(i), set.launcher(i));
  set.bind();
  InputGenerator gen(options.seed);
  PagedCaches caches; // a paged group's, for its reference
  if (k0.isPaged())
    caches = uploadPagedInputs(k0, set.binding(0), gen);
  else
    uploadInputs(k0, set.binding(0), gen, p);
  prepareWorkspaces(set);

  // First launch: the one that is validated.
  set.launchChecked();

  if (options.validate) {
    bool ok = checkForwardSet(
        set,
        k0.isPaged() ? referencePaged(k0, p, set.ptr("query"), caches)
                     : referenceOf(set, p),
        options, r.total);
    r.total.status = ok ? "PASS" : "FAIL";
  } else {
    r.total.status = "NOT_VALIDATED";
  }
  timeForward(set, options, r);
  out("  " + r.total.status + "\n");
  return r;
}

/// "row_dot [2, 8, 256] f32, ...": the workspaces of a bound group.
static std::string workspaceList(SharedBuffers &shared,
                                 const std::string &key) {
  std::string s;
  for (auto &w : shared.workspaces(key))
    s += (s.empty() ? "" : ", ") + w.first->name + " " +
         formatShape(w.first->shape) + " f32";
  return s;
}

GroupResult runGradGroup(const Manifest &m, const GradGroup &g,
                         const Module &module, CudaContext &ctx,
                         const RunOptions &options) {
  GroupResult r;
  r.kernels.resize(g.kernels.size());
  const KernelSpec &k0 = *g.kernels.front();
  attnopt::ref::AttentionProblem p = k0.problem();
  const bool single = g.kernels.size() == 1;
  if (g.explicitGroup)
    out("\nbackward group " + g.name + ": " + memberList(g) +
        ", launched in this order\n");
  BackwardSet set(m, g.kernels, module, ctx);
  for (size_t i = 0; i < set.size(); ++i)
    printHeader(set.kernel(i), set.launcher(i));
  SharedBuffers shared;
  set.bind(shared);
  const std::string &key = set.groups().front().key;
  Binding &b0 = set.binding(0);
  InputGenerator gen(options.seed);
  uploadInputs(k0, b0, gen, p);
  set.setScalars(p.seed, p.offset);
  uploadGradOutput(*b0.find("grad_output")->spec, b0.ptr("grad_output"), gen);
  {
    ReferenceForward fwd =
        referenceForward(k0, p, b0.ptr("query"), b0.ptr("key"), b0.ptr("value"),
                         b0.ptr("mask"), false);
    roundForward(k0, fwd, b0.ptr("output"), b0.ptr("lse"));
    out(format("  inputs: query, key, value, %sgrad_output random; output "
               "and lse from the float64 GPU reference forward (output "
               "rounded to %s, lse to f32; %.1f ms)\n",
               k0.hasMask ? "mask, " : "", dtypeName(k0.dtype), fwd.ms));
  }
  std::string workspaces = workspaceList(shared, key);
  if (!workspaces.empty())
    out("  workspaces: " + workspaces +
        " (one buffer each for the group, "
        "NaN-poisoned before the first launch)\n");
  shared.poisonWorkspaces(key);

  for (size_t i = 0; i < set.size(); ++i)
    set.launchChecked(i);

  if (options.validate) {
    ReferenceGrad ref = referenceGrad(
        k0, p, b0.ptr("query"), b0.ptr("key"), b0.ptr("value"), b0.ptr("mask"),
        b0.ptr("output"), b0.ptr("lse"), b0.ptr("grad_output"));
    // The old single-kernel report: gradient lines, the reference's time,
    // then the repeat check; a group prints the reference time first.
    if (!single)
      out(format("  float64 GPU reference gradient took %.1f ms\n", ref.ms));
    std::vector<bool> ok;
    if (single) {
      bool good = checkGrad(k0, b0, ref, options, r.kernels[0]);
      ok.push_back(shared.checkWorkspaceGuards(key) && good);
      out(format("  float64 GPU reference gradient took %.1f ms\n", ref.ms));
      if (k0.dropoutP > 0)
        out("  note: dropout keep bits are checked through the gradients "
            "only\n");
      checkRepeat(set, set.groups().front(), shared, r.kernels, ok);
    } else {
      ok = checkBackward(set, shared, ref, options, r.kernels, nullptr);
      if (k0.dropoutP > 0)
        out("  note: dropout keep bits are checked through the gradients "
            "only\n");
    }
    bool all = true;
    for (size_t i = 0; i < set.size(); ++i) {
      r.kernels[i].status = ok[i] ? "PASS" : "FAIL";
      all = all && ok[i];
    }
    r.status = all ? "PASS" : "FAIL";
  } else {
    for (KernelResult &kr : r.kernels)
      kr.status = "NOT_VALIDATED";
    r.status = "NOT_VALIDATED";
  }

  for (size_t i = 0; i < set.size(); ++i) {
    if (!single)
      out("  kernel " + set.kernel(i).name + ":\n");
    timeKernel(set.kernel(i), set.binding(i), set.launcher(i), options,
               r.kernels[i]);
  }
  if (!single) {
    Timing t = timeLaunches([&] { set.launchAll(); }, options.warmup,
                            options.iters, "backward group '" + g.name + "'");
    r.ms = t.ms;
    if (!std::isnan(t.ms)) {
      r.tflops = k0.backwardFlops() / (t.ms * 1e-3) / 1e12;
      out(format("  group %s (%zu kernels back to back): median %.5f ms "
                 "(min %.5f, max %.5f) -> %.3f TFLOP/s (2.5 x the forward's "
                 "%.4e FLOP)\n",
                 g.name.c_str(), set.size(), t.ms, t.minMs, t.maxMs, r.tflops,
                 k0.forwardFlops()));
    }
  } else {
    r.ms = r.kernels[0].ms;
  }
  out("  " + r.status + "\n");
  return r;
}

TrainResult runTrainGroup(const Manifest &m, const TrainGroup &g,
                          const Module &module, CudaContext &ctx,
                          const RunOptions &options) {
  TrainResult r;
  r.backward.resize(g.backward.size());
  r.forward.kernels.resize(g.forward.kernels.size());
  // The forward's first kernel takes the inputs, its last (the combine
  // stage of a split-KV group) writes output and lse.
  const KernelSpec &fk = *g.forward.kernels.front();
  const KernelSpec &fo = *g.forward.kernels.back();
  const std::string &fName = g.forward.name;
  attnopt::ref::AttentionProblem p = fk.problem();
  out("\ntraining step: forward " + fName + ", backward");
  for (const KernelSpec *b : g.backward)
    out(" " + b->name + " (" + stageName(b->stage) + ")");
  out("\n");

  ForwardSet fwd(g.forward, module, ctx);
  BackwardSet set(m, g.backward, module, ctx);

  fwd.bind();
  InputGenerator gen(options.seed);
  uploadInputs(fk, fwd.binding(0), gen, p);
  // The backward reads the forward's own buffers; grad_output and the
  // workspaces are allocated by `shared`.
  SharedBuffers shared;
  for (const char *name : {"query", "key", "value", "output", "lse", "mask",
                           "cu_seqlens_q", "cu_seqlens_k"})
    if (CUdeviceptr ptr = fwd.ptr(name))
      shared.borrow(name, ptr);
  set.bind(shared);
  set.setScalars(p.seed, p.offset);
  Binding &b0 = set.binding(0);
  uploadGradOutput(*b0.find("grad_output")->spec, b0.ptr("grad_output"), gen);
  for (const BackwardSet::Group &bg : set.groups())
    shared.poisonWorkspaces(bg.key);
  prepareWorkspaces(fwd);

  // The validated launches: forward, then each backward kernel on its
  // results, in manifest order.
  fwd.launchChecked();
  for (size_t i = 0; i < set.size(); ++i)
    set.launchChecked(i);

  bool ok = true;
  if (options.validate) {
    out("\n" + forwardText(g.forward) + " (forward)\n");
    ReferenceForward ref = referenceOf(fwd, p);
    bool fOk = checkForwardSet(fwd, ref, options, r.forward.total);
    r.forward.total.status = fOk ? "PASS" : "FAIL";
    ok = ok && fOk;
    // The reference gradient of the reference forward (lse rounded to
    // f32), with D_i = rowsum(dO * O) from the output the backward read:
    // the forward kernel's, checked above. dS = P (dP - D_i) cancels
    // exactly where a row sees one key (Lk = 1), so a one-ulp difference
    // between two roundings of O would otherwise be all of a near-zero
    // reference dQ and dK (seen with dropout at Lq = Lk = 1). After a
    // tf32 forward the lse is the forward kernel's too: its scores carry
    // tf32's rounding (about 1e-3), which the exact backward's P inherits,
    // so the reference is the backward of the inputs the backward read.
    const ParamSpec *oSpec = fo.findParam("output");
    DeviceBuffer refO(oSpec->sizeBytes(), "the rounded reference output");
    DeviceBuffer refL(fo.findParam("lse")->sizeBytes(),
                      "the rounded reference lse");
    roundForward(fo, ref, refO.ptr(), refL.ptr());
    ReferenceGrad grad = referenceGrad(
        fk, p, fwd.ptr("query"), fwd.ptr("key"), fwd.ptr("value"),
        fwd.ptr("mask"), fwd.ptr("output"),
        fo.tf32 ? fwd.ptr("lse") : refL.ptr(), b0.ptr("grad_output"));
    std::vector<bool> bOk =
        checkBackward(set, shared, grad, options, r.backward, [&](size_t i) {
          const KernelSpec &bk = set.kernel(i);
          out("\nkernel " + bk.name + " (backward, stage " +
              stageName(bk.stage) + ", on " + fName + "'s output and lse)\n");
        });
    for (size_t i = 0; i < set.size(); ++i) {
      r.backward[i].status = bOk[i] ? "PASS" : "FAIL";
      ok = ok && bOk[i];
    }
    out(format("\n  reference gradient (of the reference forward, lse "
               "%s, D_i from %s's %s output) took %.1f ms\n",
               fo.tf32 ? "from the tf32 forward" : "rounded to f32",
               fName.c_str(), dtypeName(fk.dtype), grad.ms));
    r.status = ok ? "PASS" : "FAIL";
  } else {
    r.forward.total.status = "NOT_VALIDATED";
    for (KernelResult &b : r.backward)
      b.status = "NOT_VALIDATED";
    r.status = "NOT_VALIDATED";
  }

  // Timing: each kernel alone, the backward (all its kernels), forward +
  // backward.
  out("\ntiming\n");
  out("  forward " + fName + ":\n");
  timeForward(fwd, options, r.forward);
  for (size_t i = 0; i < set.size(); ++i) {
    out("  backward " + set.kernel(i).name + ":\n");
    timeKernel(set.kernel(i), set.binding(i), set.launcher(i), options,
               r.backward[i]);
  }
  Timing tb =
      timeLaunches([&] { set.launchAll(); }, options.warmup, options.iters,
                   "the backward kernels of '" + fName + "'");
  Timing tfb = timeLaunches(
      [&] {
        fwd.launchAll();
        set.launchAll();
      },
      options.warmup, options.iters, "the training step of '" + fName + "'");
  r.fwdMs = r.forward.total.ms;
  r.bwdMs = tb.ms;
  r.fwdBwdMs = tfb.ms;
  double fwdFlops = fk.forwardFlops(), bwdFlops = fk.backwardFlops();
  if (!std::isnan(tb.ms))
    out(format("  backward (%zu kernel(s) back to back): median %.5f ms -> "
               "%.3f TFLOP/s (2.5 x the forward's %.4e FLOP)\n"
               "  forward + backward: median %.5f ms -> %.3f TFLOP/s (3.5 x "
               "the forward's FLOP)\n",
               g.backward.size(), tb.ms, bwdFlops / (tb.ms * 1e-3) / 1e12,
               fwdFlops, tfb.ms,
               (fwdFlops + bwdFlops) / (tfb.ms * 1e-3) / 1e12));
  out("  " + r.status + "\n");
  return r;
}

KernelResult runMerge(const KernelSpec &k, const Module &module,
                      CudaContext &ctx, const RunOptions &options) {
  KernelResult r;
  KernelLauncher launcher(module.function(k.name), k.name, k.grid, k.block,
                          k.dynamicSharedMemory, ctx.info(), k.persistent);
  out("\nkernel " + k.name +
      (k.source.empty() ? std::string() : " (" + k.source + ")") + "\n");
  out(format("  merge_partials: %lld partial results of %lld rows %s x Dv "
             "%lld; partial %s, output %s%s\n",
             (long long)k.splits, (long long)k.rows,
             noSpaces(formatShape(k.rowDims)).c_str(), (long long)k.valueDim,
             dtypeName(k.partialDtype), dtypeName(k.dtype),
             k.hasLse ? ", lse" : ""));
  out(launchLine(k, launcher));
  // Outputs NaN-poisoned (with guards) by the binding.
  Binding binding(k);
  MergeInputs in = drawMergeInputs(k, options.seed);
  ATTNRT_CU_CHECK_MSG(cuMemcpyHtoD(binding.ptr("partial_output"),
                                   in.partialOutput.data(),
                                   in.partialOutput.sizeBytes()),
                      "uploading 'partial_output'");
  ATTNRT_CU_CHECK_MSG(cuMemcpyHtoD(binding.ptr("partial_lse"),
                                   in.partialLse.data(),
                                   in.partialLse.sizeBytes()),
                      "uploading 'partial_lse'");
  out(format("  inputs (seed %llu): partial_output U(-1, 1), partial_lse "
             "U(-5, 5); %lld of %lld partials -inf (their outputs NaN), "
             "%lld row(s) with every partial -inf\n",
             (unsigned long long)options.seed, (long long)in.infPartials,
             (long long)(k.splits * k.rows), (long long)in.emptyRows));
  // Through the runtime library (--api): its merge set on these buffers.
  std::unique_ptr<ApiSet> api;
  if (apiLibrary)
    api = std::make_unique<ApiSet>(apiSetOf(k.name),
                                   std::vector<Binding *>{&binding}, k);
  auto launch = [&] {
    if (api)
      api->launch();
    else
      launcher.launch(binding.params());
  };
  // First launch: the one that is validated.
  launch();
  ATTNRT_CU_CHECK_MSG(cuCtxSynchronize(),
                      "running kernel '" + k.name + "'" +
                          (api ? " through the runtime library" : ""));
  if (options.validate) {
    std::vector<double> refOut, refLse;
    mergeReference(k.splits, k.rows, k.valueDim, in.partialOutput.toDouble(),
                   in.partialLse.toDouble(), refOut, refLse);
    Bound *oB = binding.find("output"), *lB = binding.find("lse");
    std::vector<double> gotO = downloadAsDouble(*oB->spec, oB->ptr), gotL;
    if (lB)
      gotL = downloadAsDouble(*lB->spec, lB->ptr);
    Comparison c = compareResults(gotO, refOut, lB ? &gotL : nullptr, &refLse);
    const double tol = options.outTolerance >= 0
                           ? options.outTolerance
                           : defaultOutputTolerance(k.dtype);
    const double lseTol = 1e-5;
    r.outErr = c.outRelErr;
    r.nans = c.outNaNs + c.lseNaNs;
    const bool outOk = c.outNaNs == 0 && c.outRelErr <= tol;
    out(format("  output: max rel err %.3e (max abs diff %.3e, max |ref| "
               "%.3e; tolerance %.1e), NaN/inf %lld%s\n",
               c.outRelErr, c.outMaxAbsDiff, c.refMaxAbs, tol,
               (long long)c.outNaNs, outOk ? "" : "  <-- FAIL"));
    bool ok = outOk;
    if (lB) {
      r.lseErr = c.lseErr;
      const bool lseOk =
          c.lseNaNs == 0 && c.lseInfMismatches == 0 && c.lseErr <= lseTol;
      out(format("  lse: max err %.3e (|l - r| / max(1, |r|); tolerance "
                 "%.1e), -inf mismatches %lld, NaN %lld%s\n",
                 c.lseErr, lseTol, (long long)c.lseInfMismatches,
                 (long long)c.lseNaNs, lseOk ? "" : "  <-- FAIL"));
      ok = ok && lseOk;
    }
    out(format("  rows with every partial -inf: %lld of %lld (expected "
               "output 0, lse -inf)\n",
               (long long)c.emptyRows, (long long)k.rows));
    ok = binding.checkGuards() && ok;
    r.status = ok ? "PASS" : "FAIL";
  } else {
    r.status = "NOT_VALIDATED";
  }
  Timing t = timeLaunches(launch, options.warmup, options.iters,
                          "kernel '" + k.name + "'");
  if (!std::isnan(t.ms)) {
    r.ms = t.ms;
    const double seconds = r.ms * 1e-3;
    r.gbps = seconds > 0 ? double(k.bytesMoved()) / seconds / 1e9 : NAN;
    out(format("  time: median %.5f ms of %d launches (min %.5f, max %.5f) "
               "after %d warm-up\n",
               r.ms, options.iters, t.minMs, t.maxMs, options.warmup));
    out(format("  no matrix products (0 FLOP counted); %s moved "
               "(partial_output, partial_lse read, output%s written once) "
               "-> %.1f GB/s\n",
               formatBytes(k.bytesMoved()).c_str(), k.hasLse ? ", lse" : "",
               r.gbps));
  }
  out("  " + r.status + "\n");
  return r;
}

} // namespace attnrt::runner
