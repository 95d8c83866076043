//===- Runner.cpp - attn-run's driver: runManifest ------------------------===//
//
// runManifest (Runner.h): loads the manifest, binds run-time sizes, packed
// lengths, paged caches and split counts, selects the kernels, loads the
// PTX and runs each forward, backward group, training step or merge kernel
// (RunnerGroups.cpp) once per draw and repeat, printing their RESULT lines.
//
//===----------------------------------------------------------------------===//

#include "attnrt/Runner.h"
#include "RunnerGroups.h"
#include "RunnerReport.h"
#include "attnrt/Cuda.h"
#include "attnrt/Manifest.h"
#include "attnrt/Paged.h"
#include "attnrt/Runtime.h"
#include "attnrt/Util.h"
#include "attnrt/Varlen.h"

#include <cstdio>
#include <memory>
#include <set>
#include <string>
#include <vector>

namespace attnrt {

using namespace runner;

namespace {

/// Packed kernel `k` (not yet bound) bound to its sequence lengths for a run
/// with `seed` (drawSequences: options.seqlens, or a random split of the
/// token totals of the manifest or `sizes`). Fills `draw` when given.
KernelSpec bindPacked(const KernelSpec &k, int indexBits,
                      const RunOptions &options, const RuntimeSizes &sizes,
                      uint64_t seed, SequenceDraw *draw) {
  SequenceDraw d = drawSequences(k, options.seqlens, sizes, seed);
  const std::string who = "kernel '" + k.name + "': ";
  KernelSpec b = bindSequences(k, offsetsFromLengths(d.q, who + "query lengths"),
                               offsetsFromLengths(d.k, who + "key lengths"),
                               indexBits);
  if (draw)
    *draw = d;
  return b;
}

/// The training groups of the selected kernels: each forward kernel that
/// some backward kernel names, with those backward kernels.
std::vector<TrainGroup> trainGroups(const Manifest &m,
                                    const std::string &only) {
  std::vector<TrainGroup> groups;
  for (const KernelSpec &f : m.kernels) {
    if (f.isGrad())
      continue;
    TrainGroup g;
    // A split-KV forward group once, at its first kernel.
    g.forward = forwardOf(m, f);
    if (g.forward.kernels.front() != &f)
      continue;
    for (const KernelSpec &b : m.kernels)
      if (b.isGrad() && b.forward == g.forward.name)
        g.backward.push_back(&b);
    if (g.backward.empty())
      continue;
    bool selected = only.empty() || g.forward.name == only;
    for (const KernelSpec *k : g.forward.kernels)
      selected = selected || k->name == only;
    for (const KernelSpec *b : g.backward)
      selected = selected || b->name == only;
    if (selected)
      groups.push_back(g);
  }
  return groups;
}

/// The names of the kernels a run launches: with `train`, the forward
/// kernels of the training groups of `only` and their backward kernels;
/// otherwise `only` (and the rest of its backward group), or every kernel.
std::set<std::string> kernelsToRun(const Manifest &m, const std::string &only,
                                   bool train) {
  std::set<std::string> names;
  if (train) {
    for (const TrainGroup &g : trainGroups(m, only)) {
      for (const KernelSpec *f : g.forward.kernels)
        names.insert(f->name);
      for (const KernelSpec *b : g.backward)
        names.insert(b->name);
    }
    return names;
  }
  for (const KernelSpec &k : m.kernels) {
    if (!only.empty() && k.name != only)
      continue;
    names.insert(k.name);
    if (k.isGrad())
      for (const KernelSpec *member : gradGroupOf(m, k).kernels)
        names.insert(member->name);
  }
  return names;
}

/// `unbound` with its packed kernels among `names` bound to the sequence
/// lengths of `seed` (bindPacked). Every kernel of a backward group, and a
/// forward with the backward kernels naming it, draws the same lengths: the
/// draw depends only on the options, the seed and the problem's sizes, which
/// the manifest check made equal. Adds to `redraw` the kernels whose lengths
/// come from the seed; with `report`, prints each draw (once per group).
Manifest bindPackedKernels(const Manifest &unbound,
                           const std::set<std::string> &names,
                           const RunOptions &options, const RuntimeSizes &sizes,
                           uint64_t seed, std::set<std::string> *redraw,
                           bool report) {
  Manifest m = unbound;
  std::set<std::string> reportedGroups;
  for (KernelSpec &k : m.kernels) {
    if (!k.isVarlen() || !names.count(k.name))
      continue;
    SequenceDraw d;
    k = bindPacked(k, m.indexBits, options, sizes, seed, &d);
    if (d.random && redraw)
      redraw->insert(k.name);
    const std::string group =
        k.isGrad() ? gradGroupOf(unbound, *findKernel(unbound, k.name)).name
                   : "";
    if (!report || (!group.empty() && !reportedGroups.insert(group).second))
      continue;
    std::vector<int64_t> q = lengthsFromOffsets(k.cuSeqlensQ),
                         kl = lengthsFromOffsets(k.cuSeqlensK);
    out("attn-run: " +
        (group.empty() ? "kernel '" + k.name + "'"
                       : "backward group '" + group + "'") +
        ": " + std::to_string(k.batch) + " sequences, query lengths " +
        lengthsText(q) + ", key lengths " +
        (q == kl ? std::string("the same") : lengthsText(kl)) + " (" + d.how +
        ")\n");
  }
  return m;
}

/// `m` with its paged groups among `names` bound (bindPaged) to the cache
/// lengths of options.cacheSeqlens[0] (checked: B lengths within the
/// capacity) or drawn from `seed`, and to a block table drawn from `seed`
/// (shuffled pages, -1 in unused entries); both stages of a group get the
/// same. With `report`, prints each group's lengths and table.
Manifest bindPagedKernels(const Manifest &m, const std::set<std::string> &names,
                          const RunOptions &options, uint64_t seed,
                          bool report) {
  Manifest bound = m;
  for (const GradGroup &g : forwardGroups(m)) {
    const KernelSpec &first = *g.kernels.front();
    if (!first.isPaged() || !names.count(first.name))
      continue;
    const bool given = !options.cacheSeqlens.empty();
    const std::vector<int32_t> lengths =
        given
            ? cacheSeqlensFor(first, options.cacheSeqlens[0], "--cache-seqlens")
            : drawCacheSeqlens(first, seed);
    int64_t shared = 0;
    const std::vector<int32_t> table =
        drawBlockTable(first, lengths, seed, &shared);
    for (const KernelSpec *k : g.kernels)
      bound.kernels[size_t(k - m.kernels.data())] =
          bindPaged(*k, lengths, table);
    if (!report)
      continue;
    int64_t used = 0;
    for (int32_t len : lengths)
      used += pagesFor(len, first.pageSize);
    out("attn-run: paged forward group '" + g.name +
        "': " + std::to_string(first.batch) + " sequences, cache lengths " +
        lengthsText(std::vector<int64_t>(lengths.begin(), lengths.end())) +
        " (" +
        (given ? std::string("given")
               : "drawn from seed " + std::to_string(seed)) +
        "; capacity " + std::to_string(first.keyLen) + "); block table " +
        formatShape({first.batch, first.maxPagesPerSeq}) + ": " +
        std::to_string(used) + " entries on shuffled pages of " +
        std::to_string(first.numPages) +
        (shared ? " (" + std::to_string(shared) + " on shared pages)" : "") +
        ", unused entries -1 (drawn from seed " + std::to_string(seed) + ")\n");
  }
  return bound;
}

/// "a, b": the kernels of `m` with run-time sizes (packed ones aside: their
/// lengths come from --seqlens-q or a draw).
std::string runtimeSizedNames(const Manifest &m) {
  std::string names;
  for (const KernelSpec &k : m.kernels)
    if (k.hasRuntimeSizes() && !k.isVarlen())
      names += (names.empty() ? "" : ", ") + k.name;
  return names;
}

/// An example --sizes value naming the run-time sizes of `m`'s kernels
/// (packed ones aside): "batch=2,query_len=1000,key_len=1000", or
/// "batch=2,num_pages=256" for a paged group.
std::string sizesExample(const Manifest &m) {
  RuntimeSizes example;
  for (const KernelSpec &k : m.kernels) {
    if (k.isVarlen())
      continue;
    if (k.batch == kRuntimeSize)
      example.batch = 2;
    if (k.queryLen == kRuntimeSize)
      example.queryLen = 1000;
    if (k.keyLen == kRuntimeSize)
      example.keyLen = 1000;
    if (k.numPages == kRuntimeSize)
      example.numPages = 256;
    if (k.maxPagesPerSeq == kRuntimeSize)
      example.maxPagesPerSeq = 64;
  }
  return runtimeSizesText(example);
}

/// One line per selected split-KV group (among `names`) whose split count
/// is decided at launch: S and where it came from (given with --sizes
/// num_splits, else the split rule on `smCount` SMs with its terms).
void reportSplits(const Manifest &m, const std::set<std::string> &names,
                  int64_t smCount) {
  for (const GradGroup &g : forwardGroups(m)) {
    const KernelSpec &k = *g.kernels.front();
    if (!k.splitRule.maxSplits || !names.count(k.name))
      continue;
    std::string how = "given (--sizes num_splits)";
    int64_t splits = k.splits;
    if (k.splitsAtLaunch()) {
      const SplitRule &r = k.splitRule;
      splits = ruleSplits(k, smCount);
      how = format("the split rule on %lld SMs: max(1, min(%lld, floor(%lld "
                   "* %lld / (%u * %lld)), ceil(%lld / %lld)))",
                   (long long)smCount, (long long)r.maxSplits,
                   (long long)r.blocksPerSm, (long long)smCount, k.grid[1],
                   (long long)k.batch, (long long)k.keyLen,
                   (long long)r.minChunkKeys);
    }
    out("attn-run: forward group '" + g.name + "': " + std::to_string(splits) +
        " key chunks (" + how + ")\n");
  }
}

} // namespace

/// --cache-seqlens is for paged kernels: an input error on a manifest
/// without one.
static void requirePagedKernel(const Manifest &m, const RunOptions &options) {
  if (options.cacheSeqlens.empty())
    return;
  for (const KernelSpec &k : m.kernels)
    if (k.isPaged())
      return;
  throw Error("'" + m.path +
                  "' has no paged kernel (\"op\": \"paged_attention\"): "
                  "--cache-seqlens is for those",
              kExitInput);
}

int runManifest(const RunOptions &options) {
  Manifest m = loadManifest(options.manifestPath);
  // Kernels with run-time sizes run once per --sizes draw, bound to it.
  if (hasRuntimeSizes(m) && options.sizes.empty())
    throw Error(
        "'" + m.path + "': kernel(s) " + runtimeSizedNames(m) +
            " take their batch, lengths or paged-cache sizes at run time "
            "(null in the manifest): give them with --sizes, e.g. "
            "--sizes " +
            sizesExample(m),
        kExitInput);
  if (options.sizes.size() > 1) {
    int failedDraws = 0;
    for (size_t i = 0; i < options.sizes.size(); ++i) {
      RunOptions one = options;
      one.sizes = {options.sizes[i]};
      out(format("\nattn-run: sizes %d of %d: %s\n", int(i) + 1,
                 int(options.sizes.size()),
                 runtimeSizesText(options.sizes[i]).c_str()));
      if (runManifest(one) != kExitOk)
        ++failedDraws;
    }
    out(format("\nattn-run: %d size draw(s): %d failed\n",
               int(options.sizes.size()), failedDraws));
    return failedDraws ? kExitFailure : kExitOk;
  }
  // Bound before the paged groups' lengths are checked: a run-time batch
  // is the number of lengths each --cache-seqlens list must have.
  if (!options.sizes.empty())
    m = bindSizes(m, options.sizes[0]);
  // Paged groups run once per --cache-seqlens list. Each list is checked
  // against every paged group before anything runs.
  if (options.cacheSeqlens.size() > 1) {
    // Before the first list's heading: a manifest without paged kernels is
    // the error, not its first list.
    requirePagedKernel(m, options);
    for (const std::vector<int64_t> &lengths : options.cacheSeqlens)
      for (const KernelSpec &k : m.kernels)
        if (k.isPaged())
          cacheSeqlensFor(k, lengths, "--cache-seqlens");
    int failedLists = 0;
    for (size_t i = 0; i < options.cacheSeqlens.size(); ++i) {
      RunOptions one = options;
      one.cacheSeqlens = {options.cacheSeqlens[i]};
      out(format("\nattn-run: cache lengths %d of %d: %s\n", int(i) + 1,
                 int(options.cacheSeqlens.size()),
                 lengthsText(options.cacheSeqlens[i]).c_str()));
      if (runManifest(one) != kExitOk)
        ++failedLists;
    }
    out(format("\nattn-run: %d cache length list(s): %d failed\n",
               int(options.cacheSeqlens.size()), failedLists));
    return failedLists ? kExitFailure : kExitOk;
  }
  // Packed kernels take their lengths from options.seqlens or a draw; bind
  // the ones that run before the driver, so that a bad length is an input
  // error. (`unbound`, which --repeat draws packed and paged kernels from
  // again, gets the split rule with m once the device is known.)
  Manifest unbound = m;
  const RuntimeSizes drawSizes =
      options.sizes.empty() ? RuntimeSizes() : options.sizes[0];
  std::set<std::string> redraw; // packed kernels with lengths from the seed
  const std::set<std::string> toRun =
      kernelsToRun(unbound, options.kernel, options.train);
  bool anyPacked = false;
  for (const KernelSpec &k : unbound.kernels)
    anyPacked = anyPacked || k.isVarlen();
  m = bindPackedKernels(unbound, toRun, options, drawSizes, options.seed,
                        &redraw, /*report=*/true);
  if (options.seqlens.given() && !anyPacked)
    throw Error("'" + m.path + "' has no packed kernel (\"op\": "
                "\"varlen_attention\"): --seqlens-q, --seqlens-k and "
                "--seqlens-dist are for those",
                kExitInput);
  // Paged groups: cache lengths given or drawn, a drawn block table; bound
  // before the driver, so that a bad length is an input error.
  bool pagedSelected = false;
  for (const KernelSpec &k : unbound.kernels)
    pagedSelected = pagedSelected || (k.isPaged() && toRun.count(k.name));
  requirePagedKernel(unbound, options);
  m = bindPagedKernels(m, toRun, options, options.seed, /*report=*/true);
  std::vector<const KernelSpec *> selected;
  std::vector<TrainGroup> groups;
  std::string kernelNote; // printed once the device is up
  auto allNames = [&] {
    std::string names;
    for (const KernelSpec &k : m.kernels)
      names += (names.empty() ? "" : ", ") + k.name;
    return names;
  };
  if (options.train) {
    if (!options.kernel.empty() && !findKernel(m, options.kernel))
      throw Error("no kernel named '" + options.kernel + "' in '" + m.path +
                      "' (it has: " + allNames() + ")",
                  kExitInput);
    groups = trainGroups(m, options.kernel);
    if (groups.empty())
      throw Error("--train: " +
                      (options.kernel.empty()
                           ? "no backward kernel in '" + m.path +
                                 "' names a forward kernel (field "
                                 "\"forward\"): nothing to run as a "
                                 "training step"
                           : "kernel '" + options.kernel +
                                 "' is in no forward/backward pair of '" +
                                 m.path + "' (field \"forward\")"),
                  kExitInput);
    for (const TrainGroup &g : groups) {
      selected.insert(selected.end(), g.forward.kernels.begin(),
                      g.forward.kernels.end());
      selected.insert(selected.end(), g.backward.begin(), g.backward.end());
    }
  } else {
    for (const KernelSpec &k : m.kernels)
      if (options.kernel.empty() || k.name == options.kernel)
        selected.push_back(&k);
    if (selected.empty())
      throw Error("no kernel named '" + options.kernel + "' in '" + m.path +
                      "' (it has: " + allNames() + ")",
                  kExitInput);
    // A backward kernel or a split-KV forward stage cannot run without the
    // rest of its group (it reads workspaces that other kernels write):
    // --kernel picks the group.
    const KernelSpec &k = *selected[0];
    if (!options.kernel.empty() && (k.isGrad() || k.isForwardStage())) {
      GradGroup g =
          k.isGrad() ? gradGroupOf(m, k) : findForwardGroup(m, k.group);
      if (g.kernels.size() > 1) {
        kernelNote = "attn-run: --kernel " + options.kernel +
                     ": running its whole " +
                     (k.isGrad() ? "backward" : "forward") + " group '" +
                     g.name + "': " + memberList(g) + "\n";
        selected = g.kernels;
      }
    }
  }
  // Read the PTX before touching the driver: a missing file is reported the
  // same way on every machine.
  std::string ptx = readFile(m.ptxPath, "PTX file",
                             "named by \"ptx\" in '" + m.path + "'");

  CudaContext ctx(options.device);
  out("attn-run: " + m.path + ": " + std::to_string(m.kernels.size()) +
      " kernel(s), " + m.ptxPath + " for " + m.chip + "\n");
  out("attn-run: device " + std::to_string(options.device) + ": " +
      ctx.describe() + "\n");
  out(kernelNote);
  const DeviceInfo &dev = ctx.info();
  // Split counts decided at launch and not given (--sizes num_splits): the
  // split rule on this device. In place: `selected` points into m.
  reportSplits(m, toRun, dev.smCount);
  bindSplitsByRule(m, dev.smCount);
  bindSplitsByRule(unbound, dev.smCount);
  int chipCC = m.chipMajor * 10 + m.chipMinor,
      devCC = dev.ccMajor * 10 + dev.ccMinor;
  bool archSpecific = !m.chip.empty() && (m.chip.back() == 'a');
  if (chipCC > devCC)
    warn("the PTX targets " + m.chip + " but the device is sm_" +
         std::to_string(devCC) + ": JIT compilation will likely fail");
  else if (archSpecific && chipCC != devCC)
    warn("the PTX targets " + m.chip +
         " (architecture-specific features) but the device is sm_" +
         std::to_string(devCC) + ": JIT compilation will likely fail");

  std::unique_ptr<Module> loaded;
  try {
    loaded = std::make_unique<Module>(ptx, m.ptxPath, options.verbose);
  } catch (const Error &e) {
    // Nothing can run; still give each kernel its RESULT line for scripts.
    std::fflush(stdout);
    std::fprintf(stderr, "attn-run: error: %s\n", e.what());
    std::fflush(stderr);
    for (const KernelSpec *k : selected) {
      out(resultLine(*k, KernelResult()));
      GradGroup g = k->isGrad() ? gradGroupOf(m, *k) : GradGroup();
      if (g.explicitGroup && g.kernels.back() == k && !options.train)
        out(groupLine(g, GroupResult()));
      ForwardKernels f = k->isGrad() ? ForwardKernels() : forwardOf(m, *k);
      if (f.group && f.kernels.back() == k && !options.train)
        out(forwardGroupLine(f, KernelResult()));
    }
    for (const TrainGroup &g : groups)
      out(trainLine(g, TrainResult()));
    return kExitFailure;
  }
  const Module &module = *loaded;
  // --api: the same manifest through the runtime library, whose kernel
  // sets then launch everything the validation checks.
  std::unique_ptr<Library> api;
  struct ApiReset {
    ~ApiReset() { apiLibrary = nullptr; }
  } apiReset;
  if (options.viaApi) {
    LoadOptions lo;
    lo.device = options.device;
    Expected<std::unique_ptr<Library>> lib = Library::load(options.manifestPath, lo);
    if (!lib.ok())
      throw Error("--api: " + lib.status().message(),
                  int(lib.status().code()));
    api = std::move(*lib);
    apiLibrary = api.get();
    out("attn-run: --api: forward sets (split-KV and paged groups "
        "included), backward groups and merge kernels launch through the "
        "runtime library (" +
        std::to_string(api->names().size()) +
        " kernel sets); per-kernel timings of a group use attn-run's own "
        "launchers\n");
  }
  bool ctxUnusable = false; // a sticky CUDA error: nothing more can run
  const uint64_t baseSeed = options.seed;
  if (options.verbose && !module.infoLog().empty())
    out("attn-run: JIT info log:\n" + module.infoLog() + "\n");

  // One run over the selected kernels with the inputs of `options.seed`;
  // --repeat runs it again with fresh inputs (seed + 1, ...), because a read
  // of unwritten shared memory or a race shows up in some launches only.
  auto runOnce = [&](const RunOptions &options) -> int {
    int failures = 0, passes = 0;
    // Packed kernels whose lengths came from the seed draw them again for
    // each --repeat (seed + 1, ...); given lengths stay.
    Manifest redrawn;
    const Manifest *cur = &m;
    if (!redraw.empty() && options.seed != baseSeed) {
      redrawn = bindPackedKernels(unbound, toRun, options, drawSizes,
                                  options.seed, nullptr, /*report=*/false);
      cur = &redrawn;
    }
    // Paged groups draw a new block table (and, unless given, new cache
    // lengths) for each --repeat.
    if (pagedSelected && options.seed != baseSeed) {
      redrawn = bindPagedKernels(cur == &redrawn ? redrawn : unbound, toRun,
                                 options, options.seed, /*report=*/true);
      cur = &redrawn;
    }
    // An error of one kernel or group: reported; false if the context is
    // unusable afterwards (nothing more can run).
    auto reportError = [&](const std::string &who, const Error &e) {
      std::fflush(stdout);
      std::fprintf(stderr, "attn-run: error: %s: %s\n", who.c_str(), e.what());
      std::fflush(stderr);
      ++failures;
      const CudaError *ce = dynamic_cast<const CudaError *>(&e);
      if (ce && isStickyError(ce->result())) {
        std::fprintf(stderr, "attn-run: the CUDA context is unusable after "
                             "this error; not running the remaining "
                             "kernels\n");
        return false;
      }
      return true;
    };

    // Runs a backward group and prints its kernels' RESULT lines (and GROUP
    // line); false if the CUDA context is unusable afterwards.
    auto runBackwardGroup = [&](const Manifest &man, const GradGroup &g) {
      GroupResult r;
      r.kernels.resize(g.kernels.size());
      try {
        r = runGradGroup(man, g, module, ctx, options);
      } catch (const Error &e) {
        for (size_t i = 0; i < g.kernels.size(); ++i)
          out(resultLine(*g.kernels[i], r.kernels[i]));
        if (g.explicitGroup)
          out(groupLine(g, r));
        // Every kernel of the group counts as failed.
        failures += int(g.kernels.size()) - 1;
        return reportError(g.kernels.size() == 1
                               ? "kernel '" + g.kernels[0]->name + "'"
                               : "backward group '" + g.name + "'",
                           e);
      }
      for (size_t i = 0; i < g.kernels.size(); ++i) {
        out(resultLine(*g.kernels[i], r.kernels[i]));
        if (r.kernels[i].status == "FAIL")
          ++failures;
        else
          ++passes;
      }
      if (g.explicitGroup)
        out(groupLine(g, r));
      return true;
    };

    if (options.train) {
      for (const TrainGroup &g : trainGroups(*cur, options.kernel)) {
        TrainResult r;
        try {
          r = runTrainGroup(*cur, g, module, ctx, options);
        } catch (const Error &e) {
          r.backward.resize(g.backward.size());
          printForward(g.forward, r.forward);
          for (size_t i = 0; i < g.backward.size(); ++i)
            out(resultLine(*g.backward[i], r.backward[i]));
          out(trainLine(g, TrainResult()));
          if (!reportError("training step of '" + g.forward.name + "'", e))
            return kExitFailure;
          continue;
        }
        printForward(g.forward, r.forward);
        for (size_t i = 0; i < g.backward.size(); ++i)
          out(resultLine(*g.backward[i], r.backward[i]));
        out(trainLine(g, r));
        if (r.status == "FAIL")
          ++failures;
        else
          ++passes;
      }
      out(format("\nattn-run: %d training step(s): %d ok, %d failed\n",
                 int(groups.size()), passes, failures));
      return failures ? kExitFailure : kExitOk;
    }

    for (const KernelSpec *selectedKernel : selected) {
      const KernelSpec *k = findKernel(*cur, selectedKernel->name);
      if (k->isMerge()) {
        KernelResult r;
        try {
          r = runMerge(*k, module, ctx, options);
        } catch (const Error &e) {
          out(resultLine(*k, r));
          if (!reportError("kernel '" + k->name + "'", e))
            return kExitFailure;
          continue;
        }
        out(resultLine(*k, r));
        if (r.status == "FAIL")
          ++failures;
        else
          ++passes;
        continue;
      }
      if (k->isGrad()) {
        // A backward group runs once, at its first kernel (all of its
        // kernels are selected).
        GradGroup g = gradGroupOf(*cur, *k);
        if (g.kernels.front() == k && !runBackwardGroup(*cur, g))
          return kExitFailure;
        continue;
      }
      // A split-KV forward group runs once, at its first kernel.
      const ForwardKernels f = forwardOf(*cur, *k);
      if (f.kernels.front() != k)
        continue;
      ForwardResult r;
      try {
        r = runForward(f, module, ctx, options);
      } catch (const Error &e) {
        printForward(f, r);
        // Every kernel of the group counts as failed.
        failures += int(f.kernels.size()) - 1;
        // The historical message form: "kernel 'name': <error>".
        if (!reportError(forwardText(f), e))
          return kExitFailure;
        continue;
      }
      printForward(f, r);
      for (const KernelResult &kr : r.kernels)
        if (kr.status == "FAIL")
          ++failures;
        else
          ++passes;
    }
    out(format("\nattn-run: %d kernel(s): %d ok, %d failed\n",
               int(selected.size()), passes, failures));
    return failures ? kExitFailure : kExitOk;
  };
  int failedRepeats = 0;
  for (int rep = 0; rep < options.repeat; ++rep) {
    RunOptions once = options;
    once.seed = options.seed + uint64_t(rep);
    if (options.repeat > 1)
      out(format("\nattn-run: repeat %d of %d, seed %llu\n", rep + 1,
                 options.repeat, (unsigned long long)once.seed));
    int rc = runOnce(once);
    if (rc != kExitOk)
      ++failedRepeats;
    if (rc == kExitFailure && ctxUnusable)
      break;
  }
  if (options.repeat > 1)
    out(format("\nattn-run: %d repeat(s) with fresh inputs: %d failed\n",
               options.repeat, failedRepeats));
  return failedRepeats ? kExitFailure : kExitOk;
}

} // namespace attnrt
