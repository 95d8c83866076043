//===- Runtime.cpp - the runtime API over manifests and the driver --------===//
//
// Library::load turns the manifest into kernel sets (a forward kernel, a
// split-KV forward group, dense or paged, a backward group, a merge kernel)
// whose members hold their CUfunction and launch checks (KernelLauncher). A
// launch resolves a Plan (the members' specs bound to the launch's sizes,
// and where each workspace lies in the caller's workspace), fills every
// member's parameter array on the stack, and only then launches them, so
// that a bad argument launches nothing. Errors inside (attnrt::Error from the
// manifest and driver helpers) become a Status at the API boundary.
//
//===----------------------------------------------------------------------===//

#include "attnrt/Runtime.h"

#include "attnrt/Cuda.h"
#include "attnrt/Error.h"
#include "attnrt/Manifest.h"
#include "attnrt/Paged.h"
#include "attnrt/TensorMap.h"
#include "attnrt/Util.h"
#include "attnrt/Varlen.h"

#include <algorithm>
#include <cstring>
#include <map>
#include <mutex>
#include <tuple>

namespace attnrt {

static_assert(int(StatusCode::Failure) == kExitFailure &&
                  int(StatusCode::NoDevice) == kExitNoDevice &&
                  int(StatusCode::Input) == kExitInput,
              "StatusCode mirrors attn-run's exit codes");

namespace {

constexpr const char *kTensorNames[Arguments::kNumTensors] = {
    "query",        "key",           "value",
    "mask",         "dropout_mask",  "output",
    "lse",          "grad_output",   "grad_query",
    "grad_key",     "grad_value",    "cu_seqlens_q",
    "cu_seqlens_k", "key_cache",     "value_cache",
    "block_table",  "cache_seqlens", "partial_output",
    "partial_lse"};

/// The most parameters and kernels one launch handles: the ABI has at most
/// 23 parameters, a set at most three kernels (prep, dkdv, dq).
constexpr int kMaxParams = 32;
constexpr int kMaxMembers = 4;
/// Tensor maps per kernel (the wgmma forward has three: query, key and
/// value).
constexpr int kMaxTensorMaps = 8;
/// Where each workspace starts in the caller's workspace, and the alignment
/// the caller's workspace must have (what cudaMalloc and PyTorch give).
constexpr uint64_t kWorkspaceAlignment = 256;
/// The alignment of the caller's tensors: the kernels load 16 bytes at a
/// time where a row allows it.
constexpr uint64_t kTensorAlignment = 16;
// A tensor that a tensor map covers must start on a 16-byte boundary
// (cuTensorMapEncodeTiled), which the check above already guarantees.
static_assert(kTensorAlignment % kTensorMapGranule == 0,
              "tensors are aligned as TMA requires");

int tensorIndex(const std::string &name) {
  for (int i = 0; i < Arguments::kNumTensors; ++i)
    if (name == kTensorNames[i])
      return i;
  return -1;
}

Status inputError(const std::string &message) {
  return Status::error(StatusCode::Input, message);
}

/// An attnrt::Error as a Status with its exit code as the status code.
Status statusOf(const Error &e) {
  return Status::error(StatusCode(e.exitCode()), e.what());
}

uint64_t alignUp(uint64_t v, uint64_t a) { return (v + a - 1) / a * a; }

/// The members of a set bound to one launch's sizes, and each workspace
/// parameter's offset in the caller's workspace (-1 for other parameters).
struct Plan {
  std::vector<KernelSpec> specs;
  std::vector<std::vector<int64_t>> workspaceOffsets;
  uint64_t workspaceBytes = 0;
};

/// Lays the workspaces of `specs` out one after another (by name, in order
/// of first use; the kernels of a group share each by name).
std::shared_ptr<const Plan> makePlan(std::vector<KernelSpec> specs) {
  auto plan = std::make_shared<Plan>();
  std::map<std::string, int64_t> offsets;
  for (const KernelSpec &k : specs) {
    std::vector<int64_t> perParam;
    for (const ParamSpec &p : k.params) {
      if (!p.isWorkspace) {
        perParam.push_back(-1);
        continue;
      }
      auto it = offsets.find(p.name);
      if (it == offsets.end()) {
        it = offsets.emplace(p.name, int64_t(plan->workspaceBytes)).first;
        plan->workspaceBytes =
            alignUp(plan->workspaceBytes + p.sizeBytes(), kWorkspaceAlignment);
      }
      perParam.push_back(it->second);
    }
    plan->workspaceOffsets.push_back(std::move(perParam));
  }
  plan->specs = std::move(specs);
  return plan;
}

TensorInfo tensorInfo(const ParamSpec &p) {
  TensorInfo t;
  t.name = p.name;
  t.dtype = dtypeName(p.dtype);
  t.shape = p.shape;
  t.isOutput = p.isOutput;
  return t;
}

/// Makes the library's context current for a scope when it is not (a
/// thread the caller did not set up, e.g. PyTorch's autograd threads).
class ContextScope {
public:
  explicit ContextScope(CUcontext ctx) {
    CUcontext current = nullptr;
    if (cuCtxGetCurrent(&current) == CUDA_SUCCESS && current != ctx)
      pushed = cuCtxPushCurrent(ctx) == CUDA_SUCCESS;
  }
  ~ContextScope() {
    if (pushed) {
      CUcontext popped = nullptr;
      (void)cuCtxPopCurrent(&popped);
    }
  }

private:
  bool pushed = false;
};

} // namespace

const char *const *Arguments::tensorNames() { return kTensorNames; }

Arguments &Arguments::set(const std::string &name, CUdeviceptr ptr) {
  int i = tensorIndex(name);
  if (i >= 0)
    ptrs[i] = ptr;
  else if (unknown.empty())
    unknown = name;
  return *this;
}

//===----------------------------------------------------------------------===//
// KernelSet
//===----------------------------------------------------------------------===//

struct KernelSet::Impl {
  std::string name;
  SetKind kind = SetKind::Forward;
  std::string forward;
  int indexBits = 0;
  CUcontext context = nullptr;
  std::vector<const KernelSpec *> specs;
  std::vector<KernelLauncher> launchers;
  std::vector<TensorInfo> tensors;
  bool runtimeSizes = false, packed = false;
  /// A paged forward group; a merge kernel (no attention sizes: it ignores
  /// RuntimeSizes).
  bool paged = false, merge = false;
  /// A split-KV group whose split count is decided at launch
  /// (RuntimeSizes::splits, or the split rule with smCount).
  bool splitsAtLaunch = false;
  /// The device's multiprocessors, for the split rule.
  int64_t smCount = 0;
  /// The plan of a set without run-time sizes or split count.
  std::shared_ptr<const Plan> staticPlan;
  /// Plans by (batch, query_len, key_len, num_pages, splits as given: 0
  /// for the rule, which the others and the device fix), made at first
  /// use.
  mutable std::mutex mutex;
  mutable std::map<
      std::tuple<int64_t, int64_t, int64_t, int64_t, int64_t, int64_t>,
      std::shared_ptr<const Plan>>
      sizedPlans;

  std::string where() const { return "kernel set '" + name + "'"; }
  Expected<std::shared_ptr<const Plan>> planFor(const Arguments &args) const;
  Status checkStaticSizes(const RuntimeSizes &given) const;
  /// The sizes that key this set's plans: those it takes at run time (a
  /// paged set's key length is its capacity: not one of them).
  RuntimeSizes planSizes(const RuntimeSizes &given) const;
  Status fillParams(const Plan &plan, size_t member, const Arguments &args,
                    CUdeviceptr workspace, void **params, uint64_t *values,
                    CUtensorMap *maps) const;
  /// Encodes tensor map `map` of member `k` over the tensor it names,
  /// whose pointer fillParams has put in `values` (the map comes after it).
  Status encodeMap(const KernelSpec &k, const ParamSpec &map,
                   const uint64_t *values, CUtensorMap *out) const;
};

Status KernelSet::Impl::encodeMap(const KernelSpec &k, const ParamSpec &map,
                                  const uint64_t *values,
                                  CUtensorMap *out) const {
  size_t t = 0;
  while (k.params[t].name != map.mapOf)
    ++t; // the validator saw it listed before the map
  try {
    encodeTensorMap(map, k.params[t], CUdeviceptr(values[t]), out);
  } catch (const Error &e) {
    return Status::error(StatusCode(e.exitCode()), where() + ": " + e.what());
  }
  return Status();
}

Status KernelSet::Impl::checkStaticSizes(const RuntimeSizes &given) const {
  // A merge kernel has no attention sizes (nor a split count to decide).
  if (merge)
    return Status();
  const KernelSpec &k = *specs.front();
  const struct {
    int64_t have, given;
    const char *name;
  } sizes[] = {
      {k.batch, given.batch, "batch"},
      {k.queryLen, given.queryLen, "query_len"},
      // A paged set's key length is each sequence's (cache_seqlens),
      // its num_pages the caches'; only a paged set has the latter.
      {paged ? 0 : k.keyLen, paged ? 0 : given.keyLen, "key_len"},
      {paged ? k.numPages : 0, paged ? given.numPages : 0, "num_pages"},
      {paged ? k.maxPagesPerSeq : 0, paged ? given.maxPagesPerSeq : 0,
       "max_pages_per_seq"}};
  for (const auto &s : sizes)
    if (s.given != 0 && s.have != kRuntimeSize && s.given != s.have)
      return inputError(where() + ": " + s.name + " = " +
                        std::to_string(s.given) +
                        " given, but the kernels are compiled for " + s.name +
                        " = " + std::to_string(s.have));
  // A split count compiled in (codegen.splits a number) is the only one.
  // (Sets that split nothing ignore num_splits, so that one Arguments can
  // serve a forward group and its backward.)
  if (given.splits != 0 && k.isForwardStage() && !k.splitsAtLaunch() &&
      given.splits != k.splits)
    return inputError(
        where() + ": num_splits = " + std::to_string(given.splits) +
        " given, but the kernels are compiled for " + std::to_string(k.splits) +
        " key chunks (codegen.splits)");
  return Status();
}

Expected<std::shared_ptr<const Plan>>
KernelSet::Impl::planFor(const Arguments &args) const {
  if (!packed) {
    Status s = checkStaticSizes(args.sizes());
    if (!s.ok())
      return s;
  }
  if (staticPlan)
    return staticPlan;
  try {
    std::vector<KernelSpec> bound;
    if (packed) {
      if (args.offsetsQ().empty() || args.offsetsK().empty())
        return inputError(where() + ": a packed set needs the host copy of "
                                    "its sequence offsets "
                                    "(Arguments::sequenceOffsets)");
      for (const KernelSpec *k : specs)
        bound.push_back(
            bindSequences(*k, args.offsetsQ(), args.offsetsK(), indexBits));
      return makePlan(std::move(bound));
    }
    const RuntimeSizes s = planSizes(args.sizes());
    auto key = std::make_tuple(s.batch, s.queryLen, s.keyLen, s.numPages,
                               s.maxPagesPerSeq, s.splits);
    std::lock_guard<std::mutex> lock(mutex);
    auto it = sizedPlans.find(key);
    if (it != sizedPlans.end())
      return it->second;
    for (const KernelSpec *k : specs)
      bound.push_back(bindSizes(*k, s, indexBits));
    // No num_splits given: the split rule on this device, from the
    // split_kv stage (the first), for both stages.
    if (splitsAtLaunch && bound.front().splitsAtLaunch()) {
      const int64_t splits = ruleSplits(bound.front(), smCount);
      for (KernelSpec &k : bound)
        k = bindSplits(k, splits, indexBits);
    }
    return sizedPlans.emplace(key, makePlan(std::move(bound))).first->second;
  } catch (const Error &e) {
    return statusOf(e);
  }
}

RuntimeSizes KernelSet::Impl::planSizes(const RuntimeSizes &given) const {
  RuntimeSizes s;
  // A set without run-time sizes (deciding only S) keys its plans by S.
  if (runtimeSizes) {
    s.batch = given.batch;
    s.queryLen = given.queryLen;
    s.keyLen = paged ? 0 : given.keyLen;
    s.numPages = paged ? given.numPages : 0;
    s.maxPagesPerSeq = paged ? given.maxPagesPerSeq : 0;
  }
  s.splits = splitsAtLaunch ? given.splits : 0;
  return s;
}

Status KernelSet::Impl::fillParams(const Plan &plan, size_t member,
                                   const Arguments &args, CUdeviceptr workspace,
                                   void **params, uint64_t *values,
                                   CUtensorMap *maps) const {
  const KernelSpec &k = plan.specs[member];
  int numMaps = 0;
  for (size_t i = 0; i < k.params.size(); ++i) {
    const ParamSpec &p = k.params[i];
    params[i] = &values[i];
    switch (p.kind) {
    case ParamSpec::Kind::TensorMap: {
      // Passed by value: the kernel parameter is the 128-byte map itself,
      // encoded per launch because it holds the tensor's address. (addSet
      // refused kernels with more than kMaxTensorMaps.)
      CUtensorMap *map = &maps[numMaps++];
      if (Status s = encodeMap(k, p, values, map); !s.ok())
        return s;
      params[i] = map;
      continue;
    }
    case ParamSpec::Kind::U64:
      values[i] = p.name == "seed" ? args.seed() : args.offset();
      continue;
    case ParamSpec::Kind::I32: {
      // An i32 parameter in the low bytes of its slot (little endian).
      int32_t v = p.sizeValue;
      values[i] = 0;
      std::memcpy(&values[i], &v, sizeof v);
      continue;
    }
    case ParamSpec::Kind::Tensor:
      break;
    }
    CUdeviceptr ptr = 0;
    if (p.isWorkspace) {
      ptr = workspace + uint64_t(plan.workspaceOffsets[member][i]);
    } else {
      ptr = args.pointer(tensorIndex(p.name));
      // The message is built only on an error: launching allocates nothing.
      auto what = [&] {
        return "'" + p.name + "' " + formatShape(p.shape) + " " +
               dtypeName(p.dtype);
      };
      if (!ptr)
        return inputError(where() + ": no device pointer for " + what());
      if (ptr % kTensorAlignment)
        return inputError(where() + ": the device pointer for " + what() +
                          " is not " + std::to_string(kTensorAlignment) +
                          "-byte aligned");
    }
    values[i] = uint64_t(ptr);
  }
  return Status();
}

KernelSet::KernelSet(std::unique_ptr<Impl> i) : impl(std::move(i)) {}
KernelSet::~KernelSet() = default;

const std::string &KernelSet::name() const { return impl->name; }
SetKind KernelSet::kind() const { return impl->kind; }
const std::string &KernelSet::forward() const { return impl->forward; }
const std::vector<TensorInfo> &KernelSet::tensors() const {
  return impl->tensors;
}
bool KernelSet::hasRuntimeSizes() const { return impl->runtimeSizes; }
bool KernelSet::splitsAtLaunch() const { return impl->splitsAtLaunch; }
bool KernelSet::isPacked() const { return impl->packed; }
bool KernelSet::isPaged() const { return impl->paged; }

Status
KernelSet::checkPagedInputs(const RuntimeSizes &sizes,
                            const std::vector<int32_t> &cacheSeqlens,
                            const std::vector<int32_t> &blockTable) const {
  if (!impl->paged)
    return inputError(impl->where() +
                      ": not a paged set (\"op\": \"paged_attention\"): it "
                      "has no cache_seqlens or block_table");
  Status given = impl->checkStaticSizes(sizes);
  if (!given.ok())
    return given;
  // The batch and page count only: the split count does not matter here.
  RuntimeSizes bind = impl->planSizes(sizes);
  bind.splits = 0;
  try {
    const KernelSpec k = bindSizes(*impl->specs.front(), bind, impl->indexBits);
    const std::string problem = pagedInputsProblem(k, cacheSeqlens, blockTable);
    if (!problem.empty())
      return inputError(impl->where() + ": " + problem);
  } catch (const Error &e) {
    return statusOf(e);
  }
  return Status();
}

std::vector<std::string> KernelSet::kernels() const {
  std::vector<std::string> v;
  for (const KernelSpec *k : impl->specs)
    v.push_back(k->name);
  return v;
}

Expected<uint64_t> KernelSet::workspaceBytes(const Arguments &args) const {
  auto plan = impl->planFor(args);
  if (!plan.ok())
    return plan.status();
  return (*plan)->workspaceBytes;
}

Status KernelSet::launch(const Arguments &args, CUstream stream,
                         CUdeviceptr workspace, uint64_t workspaceSize) const {
  if (!args.unknownName().empty())
    return inputError(impl->where() + ": no kernel parameter is called '" +
                      args.unknownName() + "'");
  auto planOr = impl->planFor(args);
  if (!planOr.ok())
    return planOr.status();
  const Plan &plan = **planOr;
  if (plan.workspaceBytes) {
    if (!workspace || workspaceSize < plan.workspaceBytes)
      return inputError(
          impl->where() + ": needs a workspace of " +
          std::to_string(plan.workspaceBytes) + " bytes (workspaceBytes()), " +
          (workspace ? "got " + std::to_string(workspaceSize) : "got none"));
    if (workspace % kWorkspaceAlignment)
      return inputError(impl->where() + ": the workspace is not " +
                        std::to_string(kWorkspaceAlignment) + "-byte aligned");
  }
  void *params[kMaxMembers][kMaxParams];
  uint64_t values[kMaxMembers][kMaxParams];
  // The tensor maps' storage, alive until the launches return (which copy
  // the parameters); CUtensorMap's own alignment (64 bytes, 128 in CUDA
  // 13's cuda.h) is what a by-value map needs (TensorMapEncode.cpp).
  CUtensorMap maps[kMaxMembers][kMaxTensorMaps];
  // The context before fillParams: it may call the driver (tensor maps).
  ContextScope scope(impl->context);
  for (size_t m = 0; m < plan.specs.size(); ++m) {
    Status s = impl->fillParams(plan, m, args, workspace, params[m], values[m],
                                maps[m]);
    if (!s.ok())
      return s;
  }
  for (size_t m = 0; m < plan.specs.size(); ++m) {
    CUresult r =
        impl->launchers[m].launchOn(params[m], stream, plan.specs[m].grid);
    if (r != CUDA_SUCCESS)
      return Status::error(
          StatusCode::Failure,
          impl->where() + ": cuLaunchKernel failed: " + describeCuResult(r) +
              " (" + impl->launchers[m].describeLaunch(plan.specs[m].grid) +
              ")");
  }
  return Status();
}

//===----------------------------------------------------------------------===//
// Library
//===----------------------------------------------------------------------===//

struct Library::Impl {
  Manifest manifest;
  std::unique_ptr<CudaContext> context;
  /// The device's primary context (retained by `context`).
  CUcontext cuContext = nullptr;
  std::unique_ptr<Module> module;
  std::vector<std::unique_ptr<KernelSet>> sets;

  void addSet(const std::string &name, SetKind kind,
              const std::vector<const KernelSpec *> &members);
  void checkChip() const;
};

void Library::Impl::checkChip() const {
  const DeviceInfo &dev = context->info();
  int chipCC = manifest.chipMajor * 10 + manifest.chipMinor;
  int devCC = dev.ccMajor * 10 + dev.ccMinor;
  bool archSpecific = !manifest.chip.empty() && manifest.chip.back() == 'a';
  if (chipCC > devCC || (archSpecific && chipCC != devCC))
    throw Error("'" + manifest.path + "': the kernels were compiled for " +
                    manifest.chip + ", but device " +
                    std::to_string(dev.ordinal) + " is sm_" +
                    std::to_string(devCC) +
                    " (compile them with attn-compile --chip=sm_" +
                    std::to_string(devCC) + (devCC >= 90 ? "a" : "") + ")",
                kExitInput);
}

void Library::Impl::addSet(const std::string &name, SetKind kind,
                           const std::vector<const KernelSpec *> &members) {
  if (members.size() > size_t(kMaxMembers))
    throw Error("kernel set '" + name + "' has " +
                    std::to_string(members.size()) + " kernels; at most " +
                    std::to_string(kMaxMembers) + " are supported",
                kExitInput);
  auto set = std::make_unique<KernelSet::Impl>();
  set->name = name;
  set->kind = kind;
  set->indexBits = manifest.indexBits;
  set->context = cuContext;
  set->specs = members;
  set->forward = members.front()->forward;
  set->packed = members.front()->isVarlen();
  set->paged = members.front()->isPaged();
  set->merge = members.front()->isMerge();
  set->runtimeSizes = set->packed || members.front()->hasRuntimeSizes();
  set->splitsAtLaunch = members.front()->splitsAtLaunch();
  set->smCount = context->info().smCount;
  for (const KernelSpec *k : members) {
    if (k->params.size() > size_t(kMaxParams))
      throw Error("kernel '" + k->name + "' has more than " +
                      std::to_string(kMaxParams) + " parameters",
                  kExitInput);
    if (std::count_if(k->params.begin(), k->params.end(),
                      [](const ParamSpec &p) {
                        return p.kind == ParamSpec::Kind::TensorMap;
                      }) > kMaxTensorMaps)
      throw Error("kernel '" + k->name + "' has more than " +
                      std::to_string(kMaxTensorMaps) + " tensor maps",
                  kExitInput);
    set->launchers.emplace_back(module->function(k->name), k->name, k->grid,
                                k->block, k->dynamicSharedMemory,
                                context->info(), k->persistent);
    for (const ParamSpec &p : k->params) {
      if (p.kind != ParamSpec::Kind::Tensor || p.isWorkspace)
        continue;
      bool seen = false;
      for (const TensorInfo &t : set->tensors)
        seen = seen || t.name == p.name;
      if (!seen)
        set->tensors.push_back(tensorInfo(p));
    }
  }
  if (!set->runtimeSizes && !set->splitsAtLaunch) {
    std::vector<KernelSpec> specs;
    for (const KernelSpec *k : members)
      specs.push_back(*k);
    set->staticPlan = makePlan(std::move(specs));
  }
  sets.push_back(std::unique_ptr<KernelSet>(new KernelSet(std::move(set))));
}

Library::Library(std::unique_ptr<Impl> i) : impl(std::move(i)) {}
Library::~Library() {
  // The kernel sets and the module go before the context they live in,
  // with that context current (cuModuleUnload acts on the current one).
  ContextScope scope(impl->cuContext);
  impl->sets.clear();
  impl->module.reset();
}

Expected<std::unique_ptr<Library>> Library::load(const std::string &manifest,
                                                 const LoadOptions &options) {
  auto impl = std::make_unique<Impl>();
  try {
    impl->manifest = loadManifest(manifest);
    Manifest &m = impl->manifest;
    std::string image =
        options.ptxPath.empty()
            ? readFile(m.ptxPath, "PTX file",
                       "named by \"ptx\" in '" + m.path + "'")
            : readFile(joinPath(directoryOf(m.path), options.ptxPath),
                       "PTX file");
    impl->context = std::make_unique<CudaContext>(options.device);
    ATTNRT_CU_CHECK(cuCtxGetCurrent(&impl->cuContext));
    impl->checkChip();
    impl->module = std::make_unique<Module>(
        image, options.ptxPath.empty() ? m.ptxPath : options.ptxPath,
        /*verbose=*/false);
    // Forward kernels alone and merge kernels (partial_output and
    // partial_lse as inputs), then forward groups (split-KV or paged).
    for (const KernelSpec &k : m.kernels)
      if (!k.isGrad() && k.group.empty())
        impl->addSet(k.name, k.isMerge() ? SetKind::Merge : SetKind::Forward,
                     {&k});
    for (const GradGroup &g : forwardGroups(m))
      impl->addSet(g.name, SetKind::Forward, g.kernels);
    for (const GradGroup &g : gradGroups(m))
      impl->addSet(g.name, SetKind::Backward, g.kernels);
  } catch (const Error &e) {
    return statusOf(e);
  } catch (const std::exception &e) {
    return Status::error(StatusCode::Failure,
                         std::string("attnrt: unexpected error: ") + e.what());
  }
  return std::unique_ptr<Library>(new Library(std::move(impl)));
}

std::vector<std::string> Library::names() const {
  std::vector<std::string> v;
  for (const auto &s : impl->sets)
    v.push_back(s->name());
  return v;
}

Expected<const KernelSet *> Library::find(const std::string &name) const {
  for (const auto &s : impl->sets)
    if (s->name() == name)
      return s.get();
  for (const auto &s : impl->sets)
    for (const KernelSpec *k : s->impl->specs)
      if (k->name == name)
        return s.get();
  std::string known;
  for (const auto &s : impl->sets)
    known += (known.empty() ? "" : ", ") + s->name();
  return inputError("'" + impl->manifest.path + "' has no kernel set '" + name +
                    "' (it has " + (known.empty() ? "none" : known) + ")");
}

static Expected<const KernelSet *>
onlySet(const std::vector<std::unique_ptr<KernelSet>> &sets,
        const std::string &path, SetKind kind, const std::string &forward) {
  const KernelSet *found = nullptr;
  int count = 0;
  for (const auto &s : sets) {
    if (s->kind() != kind || (!forward.empty() && s->forward() != forward))
      continue;
    found = s.get();
    ++count;
  }
  const char *what = kind == SetKind::Forward    ? "forward"
                     : kind == SetKind::Backward ? "backward"
                                                 : "merge";
  if (count == 1)
    return found;
  return inputError("'" + path + "' has " + std::to_string(count) + " " + what +
                    " kernel sets" +
                    (forward.empty() ? "" : " of forward '" + forward + "'") +
                    (count ? ": choose one by name with find()" : ""));
}

Expected<const KernelSet *> Library::forward() const {
  return onlySet(impl->sets, impl->manifest.path, SetKind::Forward, "");
}

Expected<const KernelSet *>
Library::backward(const std::string &forward) const {
  return onlySet(impl->sets, impl->manifest.path, SetKind::Backward, forward);
}

std::string Library::device() const { return impl->context->describe(); }

} // namespace attnrt
