//===- Manifest.cpp - the attn-kernels-v1 kernel manifest -----------------===//

#include "attnrt/Manifest.h"
#include "attnrt/Error.h"
#include "attnrt/Json.h"
#include "attnrt/TensorMap.h"
#include "attnrt/Util.h"
#include "attnrt/Varlen.h"

#include <algorithm>
#include <cerrno>
#include <cmath>
#include <cstdlib>
#include <limits>
#include <map>
#include <set>

namespace attnrt {

using json::Value;

const char *causalName(CausalMode c) {
  switch (c) {
  case CausalMode::None:
    return "none";
  case CausalMode::TopLeft:
    return "top_left";
  case CausalMode::BottomRight:
    return "bottom_right";
  }
  return "?";
}

const char *opName(KernelOp op) {
  switch (op) {
  case KernelOp::Attention:
    return "attention";
  case KernelOp::AttentionGrad:
    return "attention_grad";
  case KernelOp::VarlenAttention:
    return "varlen_attention";
  case KernelOp::VarlenAttentionGrad:
    return "varlen_attention_grad";
  case KernelOp::PagedAttention:
    return "paged_attention";
  case KernelOp::MergePartials:
    return "merge_partials";
  }
  return "?";
}

const char *stageName(GradStage s) {
  switch (s) {
  case GradStage::None:
    return "none";
  case GradStage::Prep:
    return "prep";
  case GradStage::DKDV:
    return "dkdv";
  case GradStage::DQ:
    return "dq";
  case GradStage::DKDVDQ:
    return "dkdv_dq";
  case GradStage::DQConvert:
    return "dq_convert";
  case GradStage::SplitKV:
    return "split_kv";
  case GradStage::Combine:
    return "combine";
  }
  return "?";
}

std::vector<std::string> stageOutputs(GradStage s) {
  switch (s) {
  case GradStage::DKDV:
  case GradStage::DKDVDQ:
    return {"grad_key", "grad_value"};
  case GradStage::DQ:
  case GradStage::DQConvert:
    return {"grad_query"};
  case GradStage::None:
  case GradStage::Prep:
  case GradStage::SplitKV:
  case GradStage::Combine:
    break;
  }
  return {};
}

bool isWorkspaceName(const std::string &name) {
  return name == "row_dot" || name == "lse_log2" || name == "dq_accum";
}

int64_t ParamSpec::numElements() const {
  if (kind != Kind::Tensor)
    return 0;
  int64_t n = 1;
  for (int64_t d : shape)
    n *= d;
  return n;
}

const ParamSpec *KernelSpec::findParam(const std::string &n) const {
  for (const ParamSpec &p : params)
    if (p.name == n)
      return &p;
  return nullptr;
}

attnopt::ref::AttentionProblem KernelSpec::problem() const {
  attnopt::ref::AttentionProblem p;
  p.batch = batch;
  p.queryHeads = queryHeads;
  p.kvHeads = kvHeads;
  // A packed batch's lengths are its token totals (PackedBatch).
  p.queryLen = isVarlen() ? totalQueryTokens : queryLen;
  p.keyLen = isVarlen() ? totalKeyTokens : keyLen;
  p.headDim = headDim;
  p.valueDim = valueDim;
  p.scale = scale;
  p.causal = causal == CausalMode::None      ? attnopt::ref::Causal::None
             : causal == CausalMode::TopLeft ? attnopt::ref::Causal::TopLeft
                                             : attnopt::ref::Causal::BottomRight;
  p.hasWindow = hasWindow;
  p.windowLeft = windowLeft;
  p.windowRight = windowRight;
  p.hasSoftcap = hasSoftcap;
  p.softcap = softcap;
  p.maskKind = !hasMask ? attnopt::ref::MaskKind::None
               : maskDtype == DType::I1 ? attnopt::ref::MaskKind::Boolean
                                        : attnopt::ref::MaskKind::Additive;
  p.maskShape = maskShape;
  p.dropoutP = dropoutP;
  p.hasDropoutMask = hasDropoutMask;
  p.dropoutMaskShape = dropoutMaskShape;
  return p;
}

double KernelSpec::lengthProducts() const {
  // A bound paged kernel scores each sequence's cache; unbound, the
  // capacity (keyLen) of every sequence.
  if (isPaged() && !cacheSeqlens.empty()) {
    double keys = 0.0;
    for (int32_t len : cacheSeqlens)
      keys += double(len);
    return double(queryLen) * keys;
  }
  if (!isVarlen())
    return double(batch) * double(queryLen) * double(keyLen);
  double sum = 0.0;
  for (size_t b = 0; b + 1 < cuSeqlensQ.size() && b + 1 < cuSeqlensK.size();
       ++b)
    sum += double(cuSeqlensQ[b + 1] - cuSeqlensQ[b]) *
           double(cuSeqlensK[b + 1] - cuSeqlensK[b]);
  return sum;
}

double KernelSpec::forwardFlops() const {
  double f =
      2.0 * double(queryHeads) * lengthProducts() * double(headDim + valueDim);
  return flopsHalvedForCausal() ? f / 2.0 : f;
}

double KernelSpec::flops() const {
  // A split-KV group's products are all in its split_kv stage.
  if (!isGrad())
    return stage == GradStage::Combine || isMerge() ? 0.0 : forwardFlops();
  // The matrix products per (query, key) element: S = QK^T and dP = dO V^T
  // (D + Dv) in every stage that has any, then dV = P^T dO (Dv), dK = dS^T Q
  // (D) and dQ = dS K (D) where the stage computes them.
  int64_t perElement = 0;
  switch (stage) {
  case GradStage::DKDV:
    perElement = 2 * headDim + 2 * valueDim;
    break;
  case GradStage::DQ:
    perElement = 2 * headDim + valueDim;
    break;
  case GradStage::DKDVDQ:
    perElement = 3 * headDim + 2 * valueDim;
    break;
  case GradStage::None:
  case GradStage::Prep:
  case GradStage::DQConvert:
  case GradStage::SplitKV:
  case GradStage::Combine:
    return 0.0;
  }
  double f = 2.0 * double(queryHeads) * lengthProducts() * double(perElement);
  return flopsHalvedForCausal() ? f / 2.0 : f;
}

const KernelSpec *findKernel(const Manifest &m, const std::string &name) {
  for (const KernelSpec &k : m.kernels)
    if (k.name == name)
      return &k;
  return nullptr;
}

namespace {

/// The groups of the backward kernels of `m` (`forward` false; a kernel
/// without "group" is its own) or of its split-KV forward stages (`forward`
/// true; only explicit groups), ordered by their first kernel.
std::vector<GradGroup> collectGroups(const Manifest &m, bool forward) {
  std::vector<GradGroup> groups;
  // The index in `groups` of each explicit group (a tree rather than a scan
  // of the groups so far, which made many groups quadratic).
  std::map<std::string, size_t> explicitGroups;
  for (const KernelSpec &k : m.kernels) {
    if (forward ? k.isGrad() || k.group.empty() : !k.isGrad())
      continue;
    // Kernels without "group" are alone even when a group has their name.
    if (!k.group.empty()) {
      auto [at, inserted] = explicitGroups.emplace(k.group, groups.size());
      if (!inserted) {
        groups[at->second].kernels.push_back(&k);
        continue;
      }
    }
    groups.emplace_back();
    GradGroup &g = groups.back();
    g.name = k.group.empty() ? k.name : k.group;
    g.explicitGroup = !k.group.empty();
    g.kernels.push_back(&k);
  }
  return groups;
}

} // namespace

std::vector<GradGroup> gradGroups(const Manifest &m) {
  return collectGroups(m, /*forward=*/false);
}

std::vector<GradGroup> forwardGroups(const Manifest &m) {
  return collectGroups(m, /*forward=*/true);
}

GradGroup findForwardGroup(const Manifest &m, const std::string &name) {
  for (GradGroup &g : forwardGroups(m))
    if (g.name == name)
      return g;
  return GradGroup{name, true, {}};
}

GradGroup gradGroupOf(const Manifest &m, const KernelSpec &k) {
  for (GradGroup &g : gradGroups(m))
    for (const KernelSpec *member : g.kernels)
      if (member == &k)
        return g;
  return GradGroup{k.name, false, {&k}};
}

uint64_t KernelSpec::bytesMovedBy(const ParamSpec &p) const {
  if (p.kind != ParamSpec::Kind::Tensor)
    return 0;
  // A paged cache is read only where the sequences' tokens are.
  if (isPaged() && !cacheSeqlens.empty() &&
      (p.name == "key_cache" || p.name == "value_cache")) {
    uint64_t tokens = 0;
    for (int32_t len : cacheSeqlens)
      tokens += uint64_t(std::max<int32_t>(len, 0));
    const int64_t width = p.name == "key_cache" ? headDim : valueDim;
    return tokens * uint64_t(kvHeads) * uint64_t(width) * dtypeSize(p.dtype);
  }
  return p.sizeBytes();
}

uint64_t KernelSpec::bytesMoved() const {
  uint64_t bytes = 0;
  for (const ParamSpec &p : params)
    bytes += bytesMovedBy(p);
  return bytes;
}

namespace {

const char *const kParamNames[] = {
    "query",  "key",    "value", "mask",  "dropout_mask", "seed",
    "offset", "output", "lse",   "batch", "query_len",    "key_len"};

/// Every parameter name of a packed forward kernel (varlen_attention).
const char *const kVarlenParamNames[] = {
    "query",  "key",    "value", "cu_seqlens_q", "cu_seqlens_k",
    "seed",   "offset", "output", "lse",         "batch",
    "total_query_tokens",        "total_key_tokens"};

/// The kernel's value of size `name` (kRuntimeSize where run-time).
int64_t sizeOf(const KernelSpec &k, const std::string &name) {
  return name == "batch"                ? k.batch
         : name == "query_len"          ? k.queryLen
         : name == "key_len"            ? k.keyLen
         : name == "num_pages"          ? k.numPages
         : name == "total_query_tokens" ? k.totalQueryTokens
                                        : k.totalKeyTokens;
}

/// A size as the manifest writes it: "null" for a run-time one.
std::string sizeText(int64_t size) {
  return size == kRuntimeSize ? "null" : std::to_string(size);
}

/// codegen.split_rule as the manifest writes it, or "null" when absent.
std::string splitRuleText(const SplitRule &r) {
  if (r.maxSplits == 0)
    return "null";
  return "{\"blocks_per_sm\": " + std::to_string(r.blocksPerSm) +
         ", \"max_splits\": " + std::to_string(r.maxSplits) +
         ", \"min_chunk_keys\": " + std::to_string(r.minChunkKeys) + "}";
}

/// Every parameter name of a split-KV forward stage (split_kv, combine).
const char *const kSplitKVParamNames[] = {
    "query",  "key", "value", "mask",      "partial_output", "partial_lse",
    "output", "lse", "batch", "query_len", "key_len",        "num_splits"};

/// Every parameter name of a paged forward stage (paged_attention).
const char *const kPagedParamNames[] = {
    "query",         "key_cache",      "value_cache", "block_table",
    "cache_seqlens", "partial_output", "partial_lse", "output",
    "lse",           "batch",          "num_pages",   "num_splits"};

/// Every parameter name of a backward kernel (the workspaces aside).
const char *const kGradParamNames[] = {
    "query",    "key",        "value",     "output",  "lse",
    "grad_output",            "mask",      "seed",    "offset",
    "grad_query", "grad_key", "grad_value",
    "batch",    "query_len",  "key_len"};

/// Every parameter name of a packed backward kernel (the workspaces aside).
const char *const kVarlenGradParamNames[] = {
    "query",           "key",          "value",
    "output",          "lse",          "grad_output",
    "cu_seqlens_q",    "cu_seqlens_k", "seed",
    "offset",          "grad_query",   "grad_key",
    "grad_value",      "batch",        "total_query_tokens",
    "total_key_tokens"};

/// What a tensor parameter must look like.
struct TensorExpectation {
  bool output = false;
  /// A workspace at a fixed place in the ABI (role "workspace"; the split-KV
  /// forward's): neither an input nor an output.
  bool workspace = false;
  DType dtype = DType::F32;
  std::vector<int64_t> shape;
  std::string shapeText;
  const char *dtypeNote = " (the kernel's dtype)";
};

/// One parameter of a kernel's ABI and what it must be.
struct ExpectedParam {
  std::string name;
  ParamSpec::Kind kind = ParamSpec::Kind::Tensor;
  TensorExpectation tensor; // Kind::Tensor only
  /// Why the kernel has it, for the message when it is missing (" (has_lse
  /// is true)"); "" for a parameter every kernel of the op has.
  std::string why;
};

/// The parameter list that one kernel must have (docs/kernel-manifest.md).
/// Each op (dense or packed, forward or backward stage) builds one from the
/// kernel's fields, and one validator (Validator::paramList) checks every
/// list against its table, so that the ops share their rules and messages.
struct ParamTable {
  /// Names the list in messages: "the forward parameters".
  std::string title;
  /// Whom an unknown name is unknown to: " for a backward kernel".
  std::string unknownTo;
  /// Every parameter name of the op (workspaces aside), for the message on
  /// an unknown one.
  std::vector<std::string> known;
  /// The kernel's parameters in ABI order (workspaces aside).
  std::vector<ExpectedParam> order;
  /// Backward kernels: workspaces come, in any order, after the inputs
  /// order[0, numInputs) and before the rest (outputs, then sizes).
  bool workspaces = false;
  size_t numInputs = 0;
  /// Packed backward kernels: each workspace's shape. Empty for the dense
  /// backward, whose workspaces may have any shape that grows with its
  /// run-time sizes.
  std::map<std::string, TensorExpectation> workspaceShapes;
  /// Names of the op that this kernel must not list, with the reason
  /// ("listed, but has_lse is false").
  std::map<std::string, std::string> excluded;
  /// The ABI order as messages give it.
  std::string orderText;
};

/// The parameter table of kernel `k` (its op and fields read), for a list
/// that names seed or offset when `rngListed`.
ParamTable paramTable(const KernelSpec &k, bool rngListed);
/// Whether parameter list `v` names seed or offset (then both are
/// expected, dropout or not).
bool listsRng(const Value &v);

/// The first problem field (dtype, sizes, scale, causal, window, softcap,
/// dropout_p, mask) in which two kernels differ, with both values as text;
/// an empty field when they have the same problem.
struct ProblemDifference {
  std::string field, theirs, ours;
};

ProblemDifference problemDifference(const KernelSpec &f, const KernelSpec &k) {
  auto num = [](double x) { return format("%.9g", x); };
  if (f.dtype != k.dtype)
    return {"dtype", dtypeName(f.dtype), dtypeName(k.dtype)};
  const struct {
    const char *field;
    int64_t theirs, ours;
  } sizes[] = {{"batch", f.batch, k.batch},
               {"query_heads", f.queryHeads, k.queryHeads},
               {"kv_heads", f.kvHeads, k.kvHeads},
               {"query_len", f.queryLen, k.queryLen},
               {"key_len", f.keyLen, k.keyLen},
               {"total_query_tokens", f.totalQueryTokens, k.totalQueryTokens},
               {"total_key_tokens", f.totalKeyTokens, k.totalKeyTokens},
               {"head_dim", f.headDim, k.headDim},
               {"value_dim", f.valueDim, k.valueDim},
               {"page_size", f.pageSize, k.pageSize},
               {"num_pages", f.numPages, k.numPages},
               {"max_pages_per_seq", f.maxPagesPerSeq, k.maxPagesPerSeq}};
  for (const auto &s : sizes)
    if (s.theirs != s.ours)
      return {s.field, sizeText(s.theirs), sizeText(s.ours)};
  if (f.scale != k.scale)
    return {"scale", num(f.scale), num(k.scale)};
  if (f.causal != k.causal)
    return {"causal", causalName(f.causal), causalName(k.causal)};
  auto window = [](const KernelSpec &x) {
    return x.hasWindow ? "[" + std::to_string(x.windowLeft) + ", " +
                             std::to_string(x.windowRight) + "]"
                       : std::string("null");
  };
  if (window(f) != window(k))
    return {"window", window(f), window(k)};
  auto softcap = [&](const KernelSpec &x) {
    return x.hasSoftcap ? num(x.softcap) : std::string("null");
  };
  if (softcap(f) != softcap(k))
    return {"softcap", softcap(f), softcap(k)};
  if (f.dropoutP != k.dropoutP)
    return {"dropout_p", num(f.dropoutP), num(k.dropoutP)};
  auto mask = [](const KernelSpec &x) {
    return x.hasMask ? std::string(dtypeName(x.maskDtype)) +
                           formatShape({x.maskShape.begin(), x.maskShape.end()})
                     : std::string("null");
  };
  if (mask(f) != mask(k))
    return {"mask", mask(f), mask(k)};
  return {};
}

/// A grid as messages give it: a 0 entry (computed at launch from a run-time
/// size) prints as null.
template <typename T> std::string gridText(const std::array<T, 3> &g) {
  auto entry = [](int64_t x) { return x == 0 ? kRuntimeSize : x; };
  return formatShape(
      {entry(int64_t(g[0])), entry(int64_t(g[1])), entry(int64_t(g[2]))});
}

/// "a (prep), b (dkdv_dq)": the kernels of a group and their stages.
std::string membersText(const GradGroup &g) {
  std::string s;
  for (const KernelSpec *k : g.kernels)
    s += (s.empty() ? "" : ", ") + k->name + " (" + stageName(k->stage) + ")";
  return s;
}

/// The most dynamic shared memory one thread block may use on
/// sm_<major><minor> after opting in (CU_FUNC_ATTRIBUTE_MAX_DYNAMIC_SHARED_
/// SIZE_BYTES, which attnrt sets): the CUDA C++ Programming Guide's maximum
/// shared memory per thread block. A chip this table does not know gets the
/// most any chip allows, 227 KiB (sm_90, sm_100), so that the bound never
/// rejects a kernel a newer chip could run.
int64_t maxDynamicSharedMemory(int major, int minor) {
  constexpr int64_t KiB = 1024;
  switch (major) {
  case 7: // sm_75; sm_70, sm_72
    return minor == 5 ? 64 * KiB : 96 * KiB;
  case 8: // sm_80, sm_87; sm_86, sm_89
    return minor == 0 || minor == 7 ? 163 * KiB : 99 * KiB;
  case 12: // sm_120, sm_121
    return 99 * KiB;
  default:
    return 227 * KiB;
  }
}

/// The fields of a kernel's "codegen" object that the validator checks the
/// launch against, or null where absent. The object is informational: a
/// field the runtime does not know is accepted unread.
struct Codegen {
  const Value *kernel = nullptr;  // "tensor-core" or "cuda-core"
  const Value *mma = nullptr;     // "wgmma", "mma.sync" or "none"
  const Value *blockQ = nullptr;  // a positive integer
  const Value *blockKV = nullptr; // a positive integer
  const Value *threads = nullptr; // a positive integer, block[0]
  /// A positive integer, dkdv / dkdv_dq only: blocks per key block (2: dK
  /// and dV accumulated by separate blocks).
  const Value *keyBlockParts = nullptr;
  /// A positive integer or null, split-KV forward stages only (and
  /// required there): the key chunks S, null where S is decided at launch.
  const Value *splits = nullptr;
  /// An object, split-KV forward stages only, exactly where splits is null:
  /// the constants of the split rule.
  const Value *splitRule = nullptr;
};

class Validator {
public:
  explicit Validator(const std::string &path) : path(path) {}

  Manifest run(const Value &root);

private:
  const std::string &path;
  std::string context; // "kernel 'x': " or "kernels[3]: "
  /// The manifest being built, once its "chip" is known (the kernels'
  /// shared memory limit depends on it).
  const Manifest *manifest = nullptr;
  /// The index of each kernel name in the manifest: a tree, so that
  /// looking names up does not make many kernels quadratic.
  std::map<std::string, size_t> kernelIndex;

  [[noreturn]] void fail(const Value &at, const std::string &message) const {
    throw Error(path + ":" + std::to_string(at.loc.line) + ":" +
                    std::to_string(at.loc.column) + ": " + context + message,
                kExitInput);
  }

  static std::string got(const Value &v) {
    if (v.isObject() || v.isArray())
      return std::string("got ") + (v.isObject() ? "an object" : "an array");
    return "got " + v.brief() + " (" + v.kindName() + ")";
  }

  void checkKeys(const Value &obj, std::initializer_list<const char *> keys,
                 const std::string &what) const {
    for (const auto &member : obj.object) {
      bool known = false;
      for (const char *k : keys)
        known = known || member.first == k;
      if (!known) {
        std::string list;
        for (const char *k : keys)
          list += std::string(list.empty() ? "" : ", ") + k;
        fail(member.second, "unknown field '" + member.first + "' in " +
                                what + " (expected fields: " + list + ")");
      }
    }
  }

  const Value &field(const Value &obj, const char *key,
                     const std::string &what) const {
    const Value *v = obj.find(key);
    if (!v)
      fail(obj, std::string("missing field '") + key + "' in " + what);
    return *v;
  }

  std::string string(const Value &v, const std::string &name,
                     bool allowEmpty = false) const {
    if (!v.isString())
      fail(v, name + ": expected a string, " + got(v));
    if (!allowEmpty && v.text.empty())
      fail(v, name + ": expected a non-empty string");
    return v.text;
  }

  int64_t integer(const Value &v, const std::string &name, int64_t lo,
                  int64_t hi, const char *expectation) const {
    if (!v.isInteger() || v.asInteger() < lo || v.asInteger() > hi)
      fail(v, name + ": expected " + expectation + ", " + got(v));
    return v.asInteger();
  }

  int64_t positive(const Value &v, const std::string &name) const {
    return integer(v, name, 1, int64_t(1) << 40, "a positive integer");
  }

  /// A batch or sequence length: positive, or null (kRuntimeSize), in
  /// forward and backward kernels alike.
  int64_t lengthField(const Value &v, const std::string &name) const {
    if (v.isNull())
      return kRuntimeSize;
    return integer(v, name, 1, int64_t(1) << 40,
                   "a positive integer or null (a run-time size)");
  }

  /// A size parameter (kind "i32") is only for a run-time size.
  void checkSizeParam(const Value &nameValue, const std::string &at,
                      const KernelSpec &k, const std::string &name) const {
    const int64_t value = sizeOf(k, name);
    if (value != kRuntimeSize)
      fail(nameValue, at + ": listed, but the kernel's '" + name + "' is " +
                          std::to_string(value) +
                          " (a size parameter is only for a run-time size, "
                          "null)");
  }

  float f32(const Value &v, const std::string &name) const {
    if (!v.isNumber())
      fail(v, name + ": expected a number, " + got(v));
    float f = float(v.number);
    if (!std::isfinite(f))
      fail(v, name + ": expected a finite f32 value, got " + v.text);
    return f;
  }

  /// An array of positive integers; null entries (run-time sizes) are
  /// kRuntimeSize, and the caller compares them with the kernel's sizes.
  std::vector<int64_t> shape(const Value &v, const std::string &name) const {
    if (!v.isArray())
      fail(v, name + ": expected an array of positive integers, " + got(v));
    std::vector<int64_t> s;
    int64_t elements = 1;
    for (size_t i = 0; i < v.array.size(); ++i) {
      if (v.array[i].isNull()) {
        s.push_back(kRuntimeSize);
        continue;
      }
      int64_t d = positive(v.array[i], name + "[" + std::to_string(i) + "]");
      if (elements > (int64_t(1) << 50) / d)
        fail(v, name + ": " + formatShape(s) + "... has more than 2^50 "
                "elements");
      elements *= d;
      s.push_back(d);
    }
    return s;
  }

  /// With `allowI32` (tensor parameters, which are then compared with
  /// what their name needs), also i32 (the offsets of a packed batch).
  DType dtype(const Value &v, const std::string &name, bool allowI1,
              bool allowI32 = false) const {
    std::string s = string(v, name);
    DType t;
    if (!parseDType(s, t) || (!allowI1 && t == DType::I1) ||
        (!allowI32 && t == DType::I32))
      fail(v, name + ": unknown dtype \"" + s + "\" (expected " +
                  (allowI32  ? "i1, i32, f16, bf16 or f32"
                   : allowI1 ? "i1, f16, bf16 or f32"
                             : "f16, bf16 or f32") +
                  ")");
    return t;
  }

  /// With `allowNull` (the grid), a null entry is 0: computed at launch.
  std::array<uint32_t, 3> dim3(const Value &v, const std::string &name,
                               const std::array<int64_t, 3> &limits,
                               bool allowNull = false) const {
    if (!v.isArray() || v.array.size() != 3)
      fail(v, name + ": expected an array of 3 positive integers, " + got(v));
    std::array<uint32_t, 3> out;
    for (int i = 0; i < 3; ++i)
      out[i] = allowNull && v.array[i].isNull() ? 0 : uint32_t(integer(
          v.array[i], name + "[" + std::to_string(i) + "]", 1, limits[i],
          ("an integer in [1, " + std::to_string(limits[i]) + "]").c_str()));
    return out;
  }

  void checkPtxName(const Value &ptx) const;
  KernelSpec kernel(const Value &v);
  Codegen codegen(const Value &kernel) const;
  /// Checks the launch and records the grid formula (gridTile, gridParts).
  void checkLaunch(const Value &kernel, KernelSpec &k, const Codegen &cg) const;
  void forwardStageFields(const Value &v, KernelSpec &k);
  void checkSplitKVLaunch(const Value &v, KernelSpec &k,
                          const Codegen &cg) const;
  void checkSplitRule(KernelSpec &k, const Codegen &cg) const;
  void checkForwardGroup(const GradGroup &g, const Value &kernels,
                         const Manifest &m);
  /// Checks parameter list `v` against `t` and fills k.params.
  void paramList(const Value &v, KernelSpec &k, const ParamTable &t);
  /// A trailing parameter of kind "tensor_map" (docs/kernel-manifest.md,
  /// "TMA tensor maps"), checked against the tensors listed before it.
  void tensorMapParam(const Value &pv, const std::string &at, KernelSpec &k);
  void checkParamKind(const Value &pv, const std::string &at,
                      const ParamSpec &p, ParamSpec::Kind want) const;
  /// Fails unless pv's "kind" is one that the manifest knows (a string
  /// among "tensor", "u64", "i32", "tensor_map").
  void checkKnownKind(const Value &pv, const std::string &at) const;
  void varlenFields(const Value &v, KernelSpec &k);
  void pagedFields(const Value &v, KernelSpec &k);
  void mergeKernel(const Value &v, KernelSpec &k);
  std::vector<int64_t> mergeRowDims(const Value &params,
                                    const KernelSpec &k) const;
  void checkVarlenGrid(const Value &v, KernelSpec &k, const Codegen &cg) const;
  void workspaceParam(const Value &pv, const std::string &at,
                      const KernelSpec &k, ParamSpec &p, const ParamTable &t);
  void checkDenseWorkspaceShape(const Value &pv, const std::string &at,
                                const KernelSpec &k, ParamSpec &p);
  void checkTensorParam(const Value &pv, const std::string &at, ParamSpec &p,
                        const TensorExpectation &want);
  void checkForwardLink(const Value &forwardValue, const KernelSpec &k,
                        const Manifest &m);
  void checkGroup(const GradGroup &g, const Value &kernels, const Manifest &m);
  void checkGroupProblem(const GradGroup &g, const Value &kernels,
                         const Manifest &m);
  void checkGroupOutputs(const GradGroup &g, const Value &kernels,
                         const Manifest &m);
  void checkGroupWorkspaces(const GradGroup &g, const Value &kernels,
                            const Manifest &m);
};

Manifest Validator::run(const Value &root) {
  Manifest m;
  m.path = path;
  if (!root.isObject())
    fail(root, "expected the manifest to be a JSON object, " + got(root));
  checkKeys(root, {"format", "ptx", "chip", "index_bits", "kernels"},
            "the manifest");

  const Value &format = field(root, "format", "the manifest");
  m.format = string(format, "format");
  if (m.format != "attn-kernels-v1")
    fail(format, "format: unsupported manifest format \"" + m.format +
                     "\" (expected \"attn-kernels-v1\")");

  const Value &ptx = field(root, "ptx", "the manifest");
  m.ptx = string(ptx, "ptx");
  checkPtxName(ptx);
  m.ptxPath = joinPath(directoryOf(path), m.ptx);

  const Value &chip = field(root, "chip", "the manifest");
  m.chip = string(chip, "chip");
  {
    // sm_<digits>[a|f]
    const std::string &c = m.chip;
    size_t end = c.size();
    if (end > 0 && (c[end - 1] == 'a' || c[end - 1] == 'f'))
      --end;
    bool ok = c.compare(0, 3, "sm_") == 0 && end > 4 && end <= 6;
    for (size_t i = 3; ok && i < end; ++i)
      ok = c[i] >= '0' && c[i] <= '9';
    if (!ok)
      fail(chip, "chip: expected an NVIDIA architecture like \"sm_80\" or "
                 "\"sm_90a\", got \"" + c + "\"");
    int number = std::stoi(c.substr(3, end - 3));
    m.chipMajor = number / 10;
    m.chipMinor = number % 10;
  }
  if (const Value *bits = root.find("index_bits")) {
    if (!bits->isInteger() ||
        (bits->asInteger() != 32 && bits->asInteger() != 64))
      fail(*bits, "index_bits: expected 32 or 64, " + got(*bits));
    m.indexBits = int(bits->asInteger());
  }
  manifest = &m;

  const Value &kernels = field(root, "kernels", "the manifest");
  if (!kernels.isArray())
    fail(kernels, "kernels: expected an array of kernel objects, " +
                      got(kernels));
  if (kernels.array.empty())
    fail(kernels, "kernels: expected at least one kernel, got an empty array");
  for (size_t i = 0; i < kernels.array.size(); ++i) {
    context = "kernels[" + std::to_string(i) + "]: ";
    KernelSpec k = kernel(kernels.array[i]);
    context = "kernels[" + std::to_string(i) + "]: ";
    auto [other, inserted] = kernelIndex.emplace(k.name, i);
    if (!inserted)
      fail(*kernels.array[i].find("name"),
           "name: duplicate kernel name '" + k.name + "' (also kernels[" +
               std::to_string(other->second) + "])");
    m.kernels.push_back(std::move(k));
  }
  // The split-KV forward groups first: a backward kernel may name one.
  for (const GradGroup &g : forwardGroups(m))
    checkForwardGroup(g, kernels, m);
  // Backward kernels naming their forward kernel (or forward group): it
  // must exist, be a forward writing lse, and have the same problem.
  for (size_t i = 0; i < m.kernels.size(); ++i) {
    const KernelSpec &k = m.kernels[i];
    if (k.forward.empty())
      continue;
    context = "kernel '" + k.name + "': ";
    checkForwardLink(*kernels.array[i].find("forward"), k, m);
  }
  for (const GradGroup &g : gradGroups(m))
    checkGroup(g, kernels, m);
  context.clear();
  return m;
}

/// The JSON object of kernel `k` (of `m`, parsed from `kernels`).
const Value &kernelValue(const Value &kernels, const Manifest &m,
                         const KernelSpec &k) {
  return kernels.array[size_t(&k - m.kernels.data())];
}

/// The JSON object of parameter `name` of a validated kernel object.
const Value &paramValue(const Value &kernel, const std::string &name) {
  const Value &params = *kernel.find("params");
  for (const Value &pv : params.array)
    if (pv.find("name")->text == name)
      return pv;
  return params;
}

/// "group 'g'", or how a kernel without a "group" field is grouped.
std::string groupText(const GradGroup &g) {
  return g.explicitGroup ? "group '" + g.name + "'"
                         : std::string("its own group (no \"group\" field)");
}

/// "ptx" must name a file. The existence of the path is no proof (a
/// directory exists too, and "." always does), so names that can only be a
/// directory are rejected here; whether the file is a regular file is for
/// the tools that open it (attn-run, attn-manifest-check).
void Validator::checkPtxName(const Value &ptx) const {
  const std::string &name = ptx.text;
  if (name.find('\0') != std::string::npos)
    fail(ptx, "ptx: the file name contains a NUL character");
  size_t slash = name.find_last_of('/');
  std::string last = slash == std::string::npos ? name : name.substr(slash + 1);
  if (last.empty() || last == "." || last == "..")
    fail(ptx, "ptx: \"" + name +
                  "\" names a directory, not a PTX file (expected a file "
                  "name such as \"attention.ptx\")");
}

Codegen Validator::codegen(const Value &v) const {
  Codegen cg;
  const Value *object = v.find("codegen");
  if (!object)
    return cg;
  auto oneOf = [&](const char *key,
                   std::initializer_list<const char *> values) {
    const Value *f = object->find(key);
    if (!f)
      return f;
    const std::string name = std::string("codegen.") + key;
    std::string text = string(*f, name);
    std::string list;
    bool known = false;
    size_t i = 0;
    for (const char *value : values) {
      known = known || text == value;
      list += std::string(i == 0                   ? ""
                          : i + 1 == values.size() ? " or "
                                                   : ", ") +
              "\"" + value + "\"";
      ++i;
    }
    if (!known)
      fail(*f, name + ": expected " + list + ", got \"" + text + "\"");
    return f;
  };
  cg.kernel = oneOf("kernel", {"tensor-core", "cuda-core"});
  cg.mma = oneOf("mma", {"wgmma", "mma.sync", "none"});
  auto count = [&](const char *key) {
    const Value *f = object->find(key);
    if (f)
      positive(*f, std::string("codegen.") + key);
    return f;
  };
  cg.blockQ = count("block_q");
  cg.blockKV = count("block_kv");
  cg.threads = count("threads");
  cg.keyBlockParts = count("key_block_parts");
  cg.splits = object->find("splits");
  if (cg.splits && !cg.splits->isNull())
    integer(*cg.splits, "codegen.splits", 1, int64_t(1) << 40,
            "a positive integer (or null with codegen.split_rule: S decided "
            "at launch)");
  cg.splitRule = object->find("split_rule");
  return cg;
}

void Validator::checkGroup(const GradGroup &g, const Value &kernels,
                           const Manifest &m) {
  if (g.explicitGroup) {
    checkGroupProblem(g, kernels, m);
    checkGroupOutputs(g, kernels, m);
  }
  checkGroupWorkspaces(g, kernels, m);
}

/// The kernels of a group work on one problem: the same problem fields as
/// the group's first kernel, and the same "deterministic" and "forward".
void Validator::checkGroupProblem(const GradGroup &g, const Value &kernels,
                                  const Manifest &m) {
  const KernelSpec &first = *g.kernels.front();
  for (const KernelSpec *k : g.kernels) {
    ProblemDifference d = problemDifference(first, *k);
    if (first.op != k->op)
      d = {"op", opName(first.op), opName(k->op)};
    if (d.field.empty() && first.deterministic != k->deterministic)
      d = {"deterministic", first.deterministic ? "true" : "false",
           k->deterministic ? "true" : "false"};
    auto orNull = [](const std::string &s) {
      return s.empty() ? std::string("null") : s;
    };
    if (d.field.empty() && first.forward != k->forward)
      d = {"forward", orNull(first.forward), orNull(k->forward)};
    // A split-KV forward: the group writes lse or not, and its stages
    // index the shared workspaces by the same number of chunks.
    if (d.field.empty() && first.hasLse != k->hasLse)
      d = {"has_lse", first.hasLse ? "true" : "false",
           k->hasLse ? "true" : "false"};
    std::string why = "the kernels of a group must have the same problem";
    if (d.field.empty() && first.splits != k->splits) {
      d = {"codegen.splits", sizeText(first.splits), sizeText(k->splits)};
      why = "the stages of a split-KV group share the workspaces "
            "partial_output and partial_lse of codegen.splits chunks";
    }
    if (d.field.empty() && first.splitRule != k->splitRule) {
      d = {"codegen.split_rule", splitRuleText(first.splitRule),
           splitRuleText(k->splitRule)};
      why = "the stages of a split-KV group take one split count, decided "
            "at launch by one rule";
    }
    if (d.field.empty())
      continue;
    context = "kernel '" + k->name + "': ";
    fail(*kernelValue(kernels, m, *k).find("group"),
         "group: kernel '" + first.name + "' of group '" + g.name + "' has " +
             d.field + " = " + d.theirs + ", this kernel " + d.ours + " (" +
             why + ")");
  }
}

/// Each gradient of an attn.attention_grad is written by exactly one kernel
/// of its group.
void Validator::checkGroupOutputs(const GradGroup &g, const Value &kernels,
                                  const Manifest &m) {
  const std::string rule = "each of grad_query, grad_key and grad_value is "
                           "written by exactly one kernel of a group";
  std::map<std::string, const KernelSpec *> writer;
  for (const KernelSpec *k : g.kernels)
    for (const std::string &out : stageOutputs(k->stage)) {
      if (const KernelSpec *other = writer[out]) {
        context = "kernel '" + k->name + "': ";
        fail(*kernelValue(kernels, m, *k).find("group"),
             "group: " + out + " is written by kernel '" + other->name + "' (" +
                 stageName(other->stage) + ") and by this kernel (" +
                 stageName(k->stage) + ") of group '" + g.name + "'; " + rule);
      }
      writer[out] = k;
    }
  for (const char *out : {"grad_query", "grad_key", "grad_value"}) {
    if (writer[out])
      continue;
    const std::string members = membersText(g);
    const KernelSpec &last = *g.kernels.back();
    context = "kernel '" + last.name + "': ";
    fail(*kernelValue(kernels, m, last).find("group"),
         "group: no kernel of group '" + g.name + "' writes " + out +
             " (its kernels: " + members + "); " + rule);
  }
}

/// A workspace is one buffer of the group: the same shape wherever it is
/// listed, and initialized by a "prep" kernel before any other kernel uses
/// it (so the first kernel listing it must be a prep stage).
void Validator::checkGroupWorkspaces(const GradGroup &g, const Value &kernels,
                                     const Manifest &m) {
  std::map<std::string, const KernelSpec *> firstUser;
  for (const KernelSpec *k : g.kernels)
    for (const ParamSpec &p : k->params) {
      if (!p.isWorkspace)
        continue;
      const Value &pv = paramValue(kernelValue(kernels, m, *k), p.name);
      context = "kernel '" + k->name + "': ";
      const KernelSpec *first = firstUser[p.name];
      if (!first) {
        if (k->stage != GradStage::Prep)
          fail(*pv.find("role"),
               "param '" + p.name + "': the first kernel of " + groupText(g) +
                   " that lists workspace '" + p.name + "' is this \"" +
                   stageName(k->stage) +
                   "\" kernel; it must be a \"prep\" "
                   "kernel (prep initializes the workspaces)");
        firstUser[p.name] = k;
        continue;
      }
      const ParamSpec &theirs = *first->findParam(p.name);
      if (theirs.shape != p.shape)
        fail(*pv.find("shape"),
             "param '" + p.name + "': shape " + formatShape(p.shape) +
                 " differs from " + formatShape(theirs.shape) + " in kernel '" +
                 first->name + "' of " + groupText(g) +
                 " (a workspace is one buffer shared by the group)");
      // With the same (null) shape, the rounding must agree too, or the
      // kernels would index one buffer with different row counts.
      if (theirs.queryLenMultiple != p.queryLenMultiple)
        fail(*pv.find("query_len_multiple"),
             "param '" + p.name + "': query_len_multiple " +
                 std::to_string(p.queryLenMultiple) + " differs from " +
                 std::to_string(theirs.queryLenMultiple) + " in kernel '" +
                 first->name + "' of " + groupText(g) +
                 " (a workspace is one buffer shared by the group)");
    }
}

/// A split-KV forward group: exactly one "split_kv" kernel followed (in
/// manifest order, the launch order) by one "combine" kernel, on one
/// problem and with the same codegen.splits, so that the workspaces they
/// share have one shape. (output and lse are the combine stage's by the
/// stages' parameter tables; the split_kv stage writes every element of
/// both workspaces, so no prep stage initializes them.) Its name must not
/// be a kernel's: a backward kernel's "forward" names either.
void Validator::checkForwardGroup(const GradGroup &g, const Value &kernels,
                                  const Manifest &m) {
  const GradStage order[] = {GradStage::SplitKV, GradStage::Combine};
  size_t good = 0;
  while (good < 2 && good < g.kernels.size() &&
         g.kernels[good]->stage == order[good])
    ++good;
  if (good < 2 || g.kernels.size() > 2) {
    const KernelSpec &at = *g.kernels[std::min(good, g.kernels.size() - 1)];
    context = "kernel '" + at.name + "': ";
    fail(*kernelValue(kernels, m, at).find("group"),
         "group: group '" + g.name + "' has the kernels " + membersText(g) +
             "; a " +
             (g.kernels.front()->isPaged()
                  ? "paged forward group (\"op\": \"paged_attention\")"
                  : "split-KV forward group") +
             " is one \"split_kv\" kernel followed by one \"combine\" "
             "kernel (launched in manifest order)");
  }
  auto kernel = kernelIndex.find(g.name);
  if (kernel != kernelIndex.end()) {
    const KernelSpec &first = *g.kernels.front();
    context = "kernel '" + first.name + "': ";
    fail(*kernelValue(kernels, m, first).find("group"),
         "group: '" + g.name + "' is also the name of kernels[" +
             std::to_string(kernel->second) +
             "] (a backward kernel's \"forward\" names a kernel or a "
             "split-KV forward group, so the names must differ)");
  }
  checkGroupProblem(g, kernels, m);
}

void Validator::checkForwardLink(const Value &fv, const KernelSpec &k,
                                 const Manifest &m) {
  auto at = kernelIndex.find(k.forward);
  const KernelSpec *f =
      at == kernelIndex.end() ? nullptr : &m.kernels[at->second];
  std::string who = f ? "forward: kernel '" + f->name + "'" : "";
  // Or a split-KV forward group, which stands for its combine stage (the
  // one writing output and lse); checkForwardGroup made its stages agree.
  const GradGroup group = f ? GradGroup() : findForwardGroup(m, k.forward);
  if (!group.kernels.empty()) {
    f = group.kernels.back();
    who = "forward: forward group '" + group.name + "'";
  }
  if (!f) {
    std::string names, groups;
    for (const KernelSpec &o : m.kernels)
      if (!o.isGrad() && !o.isForwardStage() && !o.isMerge())
        names += (names.empty() ? "" : ", ") + o.name;
    for (const GradGroup &g : forwardGroups(m))
      groups += (groups.empty() ? "" : ", ") + g.name;
    fail(fv, "forward: no kernel named '" + k.forward +
                 "' in this manifest (its forward kernels: " +
                 (names.empty() ? std::string("none") : names) +
                 (groups.empty() ? ""
                                 : "; its split-KV forward groups: " + groups) +
                 ")");
  }
  if (group.kernels.empty() && f->isForwardStage())
    fail(fv, who + " is the \"" + stageName(f->stage) +
                 "\" stage of the split-KV forward group '" + f->group +
                 "': name the group (\"forward\": \"" + f->group + "\")");
  if (f->isGrad())
    fail(fv, who + " is a backward kernel (\"op\": \"" + opName(f->op) +
                 "\"), not a forward one");
  if (f->isPaged())
    fail(fv, who + " is a paged forward (\"op\": \"paged_attention\"), "
                   "which has no backward kernels");
  if (f->isMerge())
    fail(fv, who + " is a merge kernel (\"op\": \"merge_partials\"), not "
                   "a forward one");
  // A dense backward runs on a dense forward, a packed one on a packed
  // forward: the two lay out output and lse differently.
  if (f->isVarlen() != k.isVarlen())
    fail(fv, who + " is a " + (f->isVarlen() ? "packed" : "dense") +
                 " forward kernel (\"op\": \"" + opName(f->op) + "\"), but " +
                 "this \"" + opName(k.op) + "\" kernel needs a \"" +
                 (k.isVarlen() ? "varlen_attention" : "attention") +
                 "\" forward");
  if (!f->hasLse)
    fail(fv, who + " does not write lse (has_lse is false); the backward "
                   "needs the forward's lse");
  ProblemDifference d = problemDifference(*f, k);
  if (!d.field.empty())
    fail(fv, who + " has " + d.field + " = " + d.theirs + ", this kernel " +
                 d.ours +
                 " (a backward kernel must have its forward's "
                 "problem)");
  if (f->hasDropoutMask)
    fail(fv, who + " has a dropout_mask, which no backward kernel supports");
  if (k.dropoutP > 0.0f &&
      (!f->findParam("seed") || !f->findParam("offset")))
    fail(fv, who + " has no seed/offset parameters, but dropout_p > 0");
}

KernelSpec Validator::kernel(const Value &v) {
  KernelSpec k;
  if (!v.isObject())
    fail(v, "expected a kernel object, " + got(v));
  const std::string what = "the kernel";
  const Value &name = field(v, "name", what);
  k.name = string(name, "name");
  bool ident = !(k.name[0] >= '0' && k.name[0] <= '9');
  for (char c : k.name)
    ident = ident && ((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') ||
                      (c >= '0' && c <= '9') || c == '_' || c == '$' ||
                      c == '.');
  if (!ident)
    fail(name, "name: expected a PTX entry name ([A-Za-z_$.][A-Za-z0-9_$.]*), "
               "got \"" + k.name + "\"");
  context = "kernel '" + k.name + "': ";
  checkKeys(v,
            {"name",
             "source",
             "op",
             "stage",
             "deterministic",
             "forward",
             "group",
             "dtype",
             "batch",
             "query_heads",
             "kv_heads",
             "total_query_tokens",
             "total_key_tokens",
             "query_len",
             "key_len",
             "head_dim",
             "value_dim",
             "page_size",
             "num_pages",
             "max_pages_per_seq",
             "scale",
             "causal",
             "window",
             "softcap",
             "dropout_p",
             "mask",
             "dropout_mask",
             "has_lse",
             "grid",
             "block",
             "dynamic_shared_memory",
             "params",
             "codegen",
             "partial_dtype",
             "splits",
             "rows"},
            what);
  // "codegen" (how the compiler generated the kernel) is informational: an
  // object whose fields the runtime does not read.
  if (const Value *codegen = v.find("codegen"))
    if (!codegen->isObject())
      fail(*codegen, "codegen: expected an object, " + got(*codegen));

  // "op" (default "attention"); "deterministic" and "forward" belong to
  // backward kernels only, "stage" and "group" to backward kernels and the
  // stages of a split-KV forward group.
  if (const Value *op = v.find("op")) {
    std::string text = string(*op, "op");
    if (text == "attention")
      k.op = KernelOp::Attention;
    else if (text == "attention_grad")
      k.op = KernelOp::AttentionGrad;
    else if (text == "varlen_attention")
      k.op = KernelOp::VarlenAttention;
    else if (text == "varlen_attention_grad")
      k.op = KernelOp::VarlenAttentionGrad;
    else if (text == "paged_attention")
      k.op = KernelOp::PagedAttention;
    else if (text == "merge_partials")
      k.op = KernelOp::MergePartials;
    else
      fail(*op, "op: expected \"attention\", \"attention_grad\", "
                "\"varlen_attention\", \"varlen_attention_grad\", "
                "\"paged_attention\" or \"merge_partials\", got \"" +
                    text + "\"");
  }
  // A merge kernel has its own fields (no attention problem).
  if (k.isMerge()) {
    mergeKernel(v, k);
    return k;
  }
  for (const char *mergeOnly : {"partial_dtype", "splits", "rows"})
    if (const Value *f = v.find(mergeOnly))
      fail(*f, std::string(mergeOnly) +
                   ": only a merge kernel (\"op\": \"merge_partials\") has "
                   "this field, not a \"" +
                   opName(k.op) + "\" kernel");
  if (!k.isGrad()) {
    for (const char *gradOnly :
         {"stage", "deterministic", "forward", "group"}) {
      const Value *f = v.find(gradOnly);
      const bool grouped =
          std::string(gradOnly) == "stage" || std::string(gradOnly) == "group";
      if (!f || (grouped && (k.op == KernelOp::Attention || k.isPaged())))
        continue;
      fail(*f, std::string(gradOnly) +
                   ": only a backward kernel (\"op\": "
                   "\"attention_grad\" or \"varlen_attention_grad\") has "
                   "this field" +
                   (grouped ? ", or a stage of a split-KV forward group "
                              "(\"op\": \"attention\" or "
                              "\"paged_attention\")"
                            : ""));
    }
    if (k.op == KernelOp::Attention || k.isPaged())
      forwardStageFields(v, k);
  } else {
    const Value &stage = field(v, "stage",
                               "a backward kernel (\"op\": \"" +
                                   std::string(opName(k.op)) + "\")");
    std::string text = string(stage, "stage");
    for (GradStage s : {GradStage::Prep, GradStage::DKDV, GradStage::DQ,
                        GradStage::DKDVDQ, GradStage::DQConvert})
      if (text == stageName(s))
        k.stage = s;
    if (k.stage == GradStage::None)
      fail(stage, "stage: expected \"prep\", \"dkdv\", \"dq\", "
                  "\"dkdv_dq\" or \"dq_convert\", got \"" +
                      text + "\"");
    if (const Value *d = v.find("deterministic")) {
      if (!d->isBool())
        fail(*d, "deterministic: expected true or false, " + got(*d));
      k.deterministic = d->boolean;
    }
    if (const Value *f = v.find("forward"))
      if (!f->isNull())
        k.forward = string(*f, "forward (null or the name of a forward "
                               "kernel)");
    if (const Value *g = v.find("group"))
      k.group = string(*g, "group");
  }

  k.source = string(field(v, "source", what), "source", /*allowEmpty=*/true);
  k.dtype = dtype(field(v, "dtype", what), "dtype", /*allowI1=*/false);
  k.batch = lengthField(field(v, "batch", what), "batch");
  k.queryHeads = positive(field(v, "query_heads", what), "query_heads");
  const Value &kvHeads = field(v, "kv_heads", what);
  k.kvHeads = positive(kvHeads, "kv_heads");
  k.queryLen = lengthField(field(v, "query_len", what), "query_len");
  k.keyLen = lengthField(field(v, "key_len", what), "key_len");
  // The token totals and the per-sequence lengths of a packed kernel.
  varlenFields(v, k);
  // The cache geometry of a paged kernel (whose key_len is null).
  pagedFields(v, k);
  k.headDim = positive(field(v, "head_dim", what), "head_dim");
  k.valueDim = positive(field(v, "value_dim", what), "value_dim");
  if (k.queryHeads % k.kvHeads != 0)
    fail(kvHeads, "query_heads (" + std::to_string(k.queryHeads) +
                      ") must be a multiple of kv_heads (" +
                      std::to_string(k.kvHeads) + ")");

  k.scale = f32(field(v, "scale", what), "scale");

  const Value &causal = field(v, "causal", what);
  std::string c = string(causal, "causal");
  if (c == "none")
    k.causal = CausalMode::None;
  else if (c == "top_left")
    k.causal = CausalMode::TopLeft;
  else if (c == "bottom_right")
    k.causal = CausalMode::BottomRight;
  else
    fail(causal, "causal: expected \"none\", \"top_left\" or "
                 "\"bottom_right\", got \"" + c + "\"");

  const Value &window = field(v, "window", what);
  if (!window.isNull()) {
    if (!window.isArray() || window.array.size() != 2)
      fail(window, "window: expected null or [left, right] (integers >= 0, "
                   "-1 for unbounded), " + got(window));
    k.hasWindow = true;
    k.windowLeft = integer(window.array[0], "window[0] (left)", -1,
                           int64_t(1) << 40, "an integer >= 0 (or -1 for "
                           "unbounded)");
    k.windowRight = integer(window.array[1], "window[1] (right)", -1,
                            int64_t(1) << 40, "an integer >= 0 (or -1 for "
                            "unbounded)");
  }

  const Value &softcap = field(v, "softcap", what);
  if (!softcap.isNull()) {
    k.hasSoftcap = true;
    k.softcap = f32(softcap, "softcap");
    if (!(k.softcap > 0.0f))
      fail(softcap, "softcap: expected null or a finite value > 0, got " +
                        softcap.text);
  }

  const Value &dropout = field(v, "dropout_p", what);
  k.dropoutP = f32(dropout, "dropout_p");
  if (!(k.dropoutP >= 0.0f && k.dropoutP < 1.0f))
    fail(dropout, "dropout_p: expected a value in [0, 1) (as f32), got " +
                      dropout.text);
  // The split-KV form is for decoding: no dropout, and a static query
  // length (its grid and workspaces are sized by it).
  if (k.isForwardStage() && k.dropoutP != 0.0f)
    fail(dropout, "dropout_p: a split-KV forward stage has no dropout: "
                  "expected 0, got " +
                      dropout.text);
  if (k.isForwardStage() && k.queryLen == kRuntimeSize)
    fail(*v.find("query_len"), "query_len: a split-KV forward stage has a "
                               "static query length: expected a positive "
                               "integer, got null");

  // A mask-like field: null or {"dtype": ..., "shape": [B|1, Hq|1, Lq|1,
  // Lk|1]}. Returns whether it is set.
  auto maskField = [&](const Value &m, const std::string &name, DType &type,
                       std::array<int64_t, 4> &shapeOut) {
    if (m.isNull())
      return false;
    if (!m.isObject())
      fail(m, name +
                  ": expected null or {\"dtype\": ..., \"shape\": "
                  "[...]}, " +
                  got(m));
    checkKeys(m, {"dtype", "shape"}, name);
    type = dtype(field(m, "dtype", name), name + ".dtype", true);
    const Value &shapeValue = field(m, "shape", name);
    std::vector<int64_t> s = shape(shapeValue, name + ".shape");
    if (s.size() != 4)
      fail(shapeValue, name +
                           ".shape: expected rank 4 ([B|1, Hq|1, Lq|1, "
                           "Lk|1]), got rank " +
                           std::to_string(s.size()));
    const int64_t full[4] = {k.batch, k.queryHeads, k.queryLen, k.keyLen};
    const char *names[4] = {"batch", "query heads", "query length",
                            "key length"};
    for (int d = 0; d < 4; ++d) {
      if (s[d] != 1 && s[d] != full[d])
        fail(shapeValue.array[d], name + ".shape[" + std::to_string(d) + "] (" +
                                      names[d] + "): expected 1 or " +
                                      sizeText(full[d]) + ", got " +
                                      sizeText(s[d]));
      shapeOut[d] = s[d];
    }
    return true;
  };
  // A packed kernel has no [B, Hq, Lq, Lk] score tensor to broadcast a mask
  // over (docs/semantics.md §14): varlenFields saw to it that its "mask",
  // if there, is null.
  if (!k.isVarlen())
    k.hasMask =
        maskField(field(v, "mask", what), "mask", k.maskDtype, k.maskShape);

  // Optional (absent = null): the explicit dropout keep mask.
  if (const Value *keep = v.find("dropout_mask")) {
    DType keepType = DType::I1;
    k.hasDropoutMask =
        maskField(*keep, "dropout_mask", keepType, k.dropoutMaskShape);
    if (k.hasDropoutMask) {
      if (keepType != DType::I1)
        fail(*keep, "dropout_mask.dtype: expected i1 (true = keep), got " +
                        std::string(dtypeName(keepType)));
      if (k.isGrad())
        fail(*keep, "dropout_mask: a backward kernel cannot take an "
                    "explicit dropout mask");
      if (!(k.dropoutP > 0.0f))
        fail(*keep, "dropout_mask: needs dropout_p > 0 (the scale of the "
                    "kept values)");
    }
  }

  const Value &hasLse = field(v, "has_lse", what);
  if (!hasLse.isBool())
    fail(hasLse, "has_lse: expected true or false, " + got(hasLse));
  k.hasLse = hasLse.boolean;
  if (k.isGrad() && k.hasLse)
    fail(hasLse, "has_lse: expected false for a backward kernel (it reads "
                 "lse, it does not write it)");

  // A split-KV stage's grid x may be its split count decided at launch
  // (checkSplitKVLaunch says which entries must be null).
  k.grid = dim3(field(v, "grid", what), "grid", {2147483647, 65535, 65535},
                /*allowNull=*/k.hasRuntimeSizes() || k.isForwardStage());
  const Value &block = field(v, "block", what);
  k.block = dim3(block, "block", {1024, 1024, 64});
  uint64_t threads = uint64_t(k.block[0]) * k.block[1] * k.block[2];
  if (threads > 1024)
    fail(block, "block: " + std::to_string(threads) +
                    " threads per block, more than the 1024 CUDA allows");
  const Value &smem = field(v, "dynamic_shared_memory", what);
  int64_t smemBytes = integer(smem, "dynamic_shared_memory", 0,
                              std::numeric_limits<int64_t>::max(),
                              "a non-negative integer (bytes)");
  int64_t smemLimit =
      maxDynamicSharedMemory(manifest->chipMajor, manifest->chipMinor);
  if (smemBytes > smemLimit)
    fail(smem, "dynamic_shared_memory: " + std::to_string(smemBytes) +
                   " bytes, more than the " + std::to_string(smemLimit) +
                   " bytes (" + std::to_string(smemLimit / 1024) +
                   " KiB) a thread block can use on " + manifest->chip);
  k.dynamicSharedMemory = uint32_t(smemBytes);

  checkLaunch(v, k, codegen(v));

  const Value &params = field(v, "params", what);
  paramList(params, k, paramTable(k, listsRng(params)));
  return k;
}

/// "stage" and "group" of a forward kernel ("op": "attention"): both or
/// neither; with them the kernel is one of the two stages of a split-KV
/// forward group (docs/kernel-manifest.md, "Split-KV forward groups").
void Validator::forwardStageFields(const Value &v, KernelSpec &k) {
  const Value *stage = v.find("stage"), *group = v.find("group");
  // A paged kernel is always a stage of its group.
  if (!stage && k.isPaged())
    fail(v, "missing field 'stage' in a \"paged_attention\" kernel (it is "
            "the \"split_kv\" or the \"combine\" stage of a paged forward "
            "group)");
  if (!stage && !group)
    return;
  if (!stage)
    fail(*group, "group: only a backward kernel (\"op\": \"attention_grad\" "
                 "or \"varlen_attention_grad\") has this field, or a stage "
                 "of a split-KV forward group (\"op\": \"attention\") with "
                 "\"stage\": \"split_kv\" or \"combine\"");
  std::string text = string(*stage, "stage");
  for (GradStage s : {GradStage::SplitKV, GradStage::Combine})
    if (text == stageName(s))
      k.stage = s;
  if (k.stage == GradStage::None)
    fail(*stage, "stage: expected \"split_kv\" or \"combine\" for a forward "
                 "kernel (\"op\": \"" +
                     std::string(opName(k.op)) +
                     "\"; the other stages are a backward kernel's), got \"" +
                     text + "\"");
  k.group =
      string(field(v, "group",
                   "a split-KV forward stage (\"stage\": \"" + text + "\")"),
             "group");
}

/// The kernel's launch (grid, block and dynamic shared memory) against what
/// its "codegen" says about how it was generated. Only a manifest that
/// states the tiling is held to the compiler's formulas: hand-written
/// kernels (the runtime's samples, with their own 1-D grids and static
/// shared memory) carry no "codegen" and get the CUDA limits alone.
void Validator::checkLaunch(const Value &v, KernelSpec &k,
                            const Codegen &cg) const {
  if (cg.threads && cg.threads->asInteger() != int64_t(k.block[0]))
    fail(*cg.threads, "codegen.threads: " + cg.threads->text +
                          ", but block[0] is " + std::to_string(k.block[0]) +
                          " (threads is the block's x size)");

  // What the kernel multiplies with must suit its stage: the CUDA-core
  // kernels and the backward's prep and dq_convert stages multiply no
  // matrices ("mma": "none"); a tensor-core forward, dkdv, dkdv_dq or dq
  // kernel does (wgmma or mma.sync).
  const bool matrixStage =
      k.stage == GradStage::None || k.stage == GradStage::DKDV ||
      k.stage == GradStage::DKDVDQ || k.stage == GradStage::DQ ||
      k.stage == GradStage::SplitKV;
  const std::string what =
      k.stage != GradStage::None
          ? "a \"" + std::string(stageName(k.stage)) + "\" kernel"
      : k.isVarlen() ? std::string("a \"varlen_attention\" kernel")
                     : std::string("a forward kernel");
  if (cg.mma && cg.kernel) {
    bool tensorCore = cg.kernel->text == "tensor-core";
    bool multiplies = cg.mma->text != "none";
    if (!tensorCore && multiplies)
      fail(*cg.mma, "codegen.mma: \"" + cg.mma->text +
                        "\" for a CUDA-core kernel (expected \"none\": it "
                        "does not use the tensor cores)");
    if (tensorCore && matrixStage && !multiplies)
      fail(*cg.mma, "codegen.mma: \"none\" for " + what +
                        " on tensor cores (expected \"wgmma\" or "
                        "\"mma.sync\")");
  }
  if (cg.mma && !matrixStage && cg.mma->text != "none")
    fail(*cg.mma, "codegen.mma: \"" + cg.mma->text + "\" for " + what +
                      " (expected \"none\": it multiplies no matrices)");

  // A tensor-core matrix stage stages its Q/K/V (and dO) tiles in dynamic
  // shared memory: launched with none, it reads and writes past the end of
  // the block's shared memory. (A CUDA-core kernel's tiles are static
  // shared memory, so 0 dynamic bytes is right for it.)
  std::string tensorCores; // the field that says so, if any
  if (cg.kernel && cg.kernel->text == "tensor-core")
    tensorCores = "codegen.kernel is \"tensor-core\"";
  else if (cg.mma && cg.mma->text != "none")
    tensorCores = "codegen.mma is \"" + cg.mma->text + "\"";
  if (matrixStage && !tensorCores.empty() && k.dynamicSharedMemory == 0)
    fail(*v.find("dynamic_shared_memory"),
         "dynamic_shared_memory: 0 bytes, but " + what + " on tensor cores (" +
             tensorCores +
             ") stages its tiles in dynamic shared memory (expected more "
             "than 0)");

  // The grid: one block per (query block, query head, batch) for the
  // forward and the prep, dq and dq_convert stages, one per (key block, kv
  // head, batch) for dkdv and dkdv_dq (docs/kernel-manifest.md).
  const bool overKeys =
      k.stage == GradStage::DKDV || k.stage == GradStage::DKDVDQ;
  if (cg.keyBlockParts && !overKeys)
    fail(*cg.keyBlockParts, "codegen.key_block_parts: only a \"dkdv\" or "
                            "\"dkdv_dq\" kernel splits its key blocks, not " +
                                what);
  if (cg.splits && !k.isForwardStage())
    fail(*cg.splits, "codegen.splits: only a stage of a split-KV forward "
                     "group (\"split_kv\" or \"combine\") splits the keys, "
                     "not " +
                         what);
  if (cg.splitRule && !k.isForwardStage())
    fail(*cg.splitRule, "codegen.split_rule: only a stage of a split-KV "
                        "forward group (\"split_kv\" or \"combine\") "
                        "decides a split count at launch, not " +
                            what);
  if (k.isForwardStage()) {
    checkSplitKVLaunch(v, k, cg);
    return;
  }
  if (k.isVarlen()) {
    checkVarlenGrid(v, k, cg);
    return;
  }
  const Value *tile = overKeys ? cg.blockKV : cg.blockQ;
  if (!tile) {
    // Without the tile there is no formula to compute a run-time grid.
    if (k.hasRuntimeSizes())
      fail(v, std::string("a kernel with run-time sizes needs codegen.") +
                  (overKeys ? "block_kv" : "block_q") +
                  " (its grid is computed at launch from it)");
    return;
  }
  int64_t rows = tile->asInteger();
  int64_t len = overKeys ? k.keyLen : k.queryLen;
  const int64_t parts = cg.keyBlockParts ? cg.keyBlockParts->asInteger() : 1;
  k.gridTile = rows;
  k.gridParts = parts;
  // A run-time length or batch: null in the grid (0 here).
  const std::array<int64_t, 3> want = {
      len == kRuntimeSize ? 0 : parts * ((len + rows - 1) / rows),
      overKeys ? k.kvHeads : k.queryHeads,
      k.batch == kRuntimeSize ? 0 : k.batch};
  if (want[0] == k.grid[0] && want[1] == k.grid[1] && want[2] == k.grid[2])
    return;
  fail(*v.find("grid"),
       "grid: " + gridText(k.grid) + " does not match the problem: " + what +
           " runs one block per " +
           (overKeys && parts > 1 ? "(key block part, kv head, batch) = "
                                    "(codegen.key_block_parts * ceil(key_len / "
                                    "codegen.block_kv), kv_heads, batch)"
            : overKeys ? "(key block, kv head, batch) = (ceil(key_len / "
                         "codegen.block_kv), kv_heads, batch)"
                       : "(query block, query head, batch) = (ceil(query_len "
                         "/ codegen.block_q), query_heads, batch)") +
           " = " + gridText(want));
}

/// codegen.split_rule of split-KV stage `k` (dense or paged): present
/// exactly where codegen.splits is null (the split count decided at
/// launch), an object of three positive integers; max_splits at most
/// 2^31 - 1 (S is grid x and an i32 parameter).
void Validator::checkSplitRule(KernelSpec &k, const Codegen &cg) const {
  const Value *rule = cg.splitRule;
  const std::string ruleFields =
      "{\"blocks_per_sm\": ..., \"max_splits\": ..., \"min_chunk_keys\": "
      "...}";
  if (k.splitsAtLaunch() && !rule)
    fail(*cg.splits, "codegen.splits: null (the split count decided at "
                     "launch) needs codegen.split_rule, the split rule's "
                     "constants " +
                         ruleFields);
  if (!rule)
    return;
  if (!k.splitsAtLaunch())
    fail(*rule, "codegen.split_rule: only for a split count decided at "
                "launch (codegen.splits null), but codegen.splits is " +
                    cg.splits->text);
  const std::string what = "codegen.split_rule";
  if (!rule->isObject())
    fail(*rule,
         what + ": expected an object " + ruleFields + ", " + got(*rule));
  checkKeys(*rule, {"blocks_per_sm", "max_splits", "min_chunk_keys"}, what);
  k.splitRule.blocksPerSm =
      positive(field(*rule, "blocks_per_sm", what), what + ".blocks_per_sm");
  k.splitRule.maxSplits = integer(
      field(*rule, "max_splits", what), what + ".max_splits", 1, 2147483647,
      "an integer in [1, 2^31 - 1] (S is the split_kv grid's x and "
      "an i32 parameter)");
  k.splitRule.minChunkKeys =
      positive(field(*rule, "min_chunk_keys", what), what + ".min_chunk_keys");
}

/// The launch of a split-KV forward stage (docs/kernel-manifest.md,
/// "Split-KV forward groups"). codegen.splits is required: it sizes the
/// grid and the workspaces (null with codegen.split_rule where S is decided
/// at launch: then split_kv's grid x and the workspaces' dimension 1 are
/// null). split_kv runs (S, R * kv_heads, batch) blocks, R = ceil(G *
/// query_len / block_q) blocks of the G * query_len rows of the G =
/// query_heads / kv_heads heads that share a KV head; combine runs
/// (ceil(query_heads * query_len / 4), batch, 1) blocks of 128 threads (a
/// warp per row) without dynamic shared memory. Only the batch and S can be
/// run-time grid entries (the query length is static in this form).
void Validator::checkSplitKVLaunch(const Value &v, KernelSpec &k,
                                   const Codegen &cg) const {
  const bool split = k.stage == GradStage::SplitKV;
  const std::string what =
      "a \"" + std::string(stageName(k.stage)) + "\" kernel";
  const Value *object = v.find("codegen");
  if (!cg.splits)
    fail(object ? *object : v,
         what + " needs codegen.splits (the key chunks S: its grid and the "
                "workspaces partial_output and partial_lse depend on it; "
                "null with codegen.split_rule where S is decided at launch)");
  k.splits = cg.splits->isNull() ? kRuntimeSize : cg.splits->asInteger();
  checkSplitRule(k, cg);
  // What each stage's code is: the tensor-core forward (wgmma or mma.sync,
  // which checkLaunch holds it to) over a chunk, and a CUDA-core reduction.
  const std::string wantKernel = split ? "tensor-core" : "cuda-core";
  if (cg.kernel && cg.kernel->text != wantKernel)
    fail(*cg.kernel, "codegen.kernel: \"" + cg.kernel->text + "\" for " + what +
                         " (expected \"" + wantKernel + "\")");

  const Value &grid = *v.find("grid");
  const int64_t batch = k.batch == kRuntimeSize ? 0 : k.batch;
  int64_t rows = 0; // query rows: G * query_len, or query_heads * query_len
  if (__builtin_mul_overflow(split ? k.queryHeads / k.kvHeads : k.queryHeads,
                             k.queryLen, &rows))
    fail(grid, "grid: query_heads * query_len overflows 64 bits");
  std::array<int64_t, 3> want;
  std::string formula;
  if (split) {
    if (!cg.blockQ)
      fail(object ? *object : v,
           what + " needs codegen.block_q (its grid packs the query rows of "
                  "the query heads sharing a KV head into blocks of block_q "
                  "rows)");
    const int64_t tile = cg.blockQ->asInteger();
    // S decided at launch: grid x is null (0 here), and nothing else.
    if (k.splitsAtLaunch() && k.grid[0] != 0)
      fail(grid.array[0], "grid[0]: expected null for " + what +
                              " whose split count is decided at launch "
                              "(codegen.splits is null; x = S at launch), "
                              "got " +
                              grid.array[0].text);
    want = {k.splitsAtLaunch() ? 0 : k.splits,
            (rows + tile - 1) / tile * k.kvHeads, batch};
    formula = "(chunk, row block, batch) = (codegen.splits, "
              "ceil(query_heads / kv_heads * query_len / codegen.block_q) * "
              "kv_heads, batch)";
  } else {
    if (k.block != std::array<uint32_t, 3>{128, 1, 1})
      fail(*v.find("block"),
           "block: " + formatShape({k.block[0], k.block[1], k.block[2]}) +
               ", but a \"combine\" kernel runs 128 threads, [128, 1, 1] (a "
               "warp per (batch, query head, query) row)");
    if (k.dynamicSharedMemory != 0)
      fail(*v.find("dynamic_shared_memory"),
           "dynamic_shared_memory: " + std::to_string(k.dynamicSharedMemory) +
               " bytes, but a \"combine\" kernel uses none (expected 0)");
    want = {(rows + 3) / 4, batch, 1};
    formula = "(4 rows of (query head, query), batch) = (ceil(query_heads * "
              "query_len / 4), batch, 1)";
  }
  if (want[0] == int64_t(k.grid[0]) && want[1] == int64_t(k.grid[1]) &&
      want[2] == int64_t(k.grid[2]))
    return;
  fail(grid, "grid: " + gridText(k.grid) +
                 " does not match the problem: " + what +
                 " runs one block per " + formula + " = " + gridText(want));
}

void Validator::checkTensorParam(const Value &pv, const std::string &at,
                                 ParamSpec &p, const TensorExpectation &want) {
  p.kind = ParamSpec::Kind::Tensor;
  checkKeys(pv, {"name", "kind", "role", "dtype", "shape"}, at);
  const Value &role = field(pv, "role", at);
  std::string roleText = string(role, at + ": role");
  const std::string wantRole = want.workspace ? "workspace"
                               : want.output  ? "output"
                                              : "input";
  if (roleText != "input" && roleText != "output" && roleText != "workspace")
    fail(role,
         at + ": role: expected " +
             (want.workspace ? "\"workspace\"" : "\"input\" or \"output\"") +
             ", got \"" + roleText + "\"");
  if (roleText != wantRole)
    fail(role, at + ": role: expected \"" + wantRole + "\" for '" + p.name +
                   "', got \"" + roleText + "\"");
  p.isOutput = want.output;
  p.isWorkspace = want.workspace;
  const Value &dt = field(pv, "dtype", at);
  p.dtype = dtype(dt, at + ": dtype", /*allowI1=*/true, /*allowI32=*/true);
  if (p.dtype != want.dtype)
    fail(dt, at + ": dtype: expected " + dtypeName(want.dtype) +
                 want.dtypeNote + ", got " + dtypeName(p.dtype));
  const Value &sv = field(pv, "shape", at);
  p.shape = shape(sv, at + ": shape");
  if (p.shape != want.shape)
    fail(sv, at + ": shape " + formatShape(p.shape) + " does not match " +
                 want.shapeText + " = " + formatShape(want.shape));
}

/// Why gradient `name` is not a parameter of a `stage` kernel.
std::string notThisStage(GradStage stage, const std::string &name) {
  switch (stage) {
  case GradStage::DKDV:
    return "a \"dkdv\" kernel writes only grad_key and grad_value "
           "(grad_query is the \"dq\" stage's)";
  case GradStage::DQ:
    return "a \"dq\" kernel writes only grad_query (" + name +
           " is the \"dkdv\" stage's)";
  case GradStage::DKDVDQ:
    return "a \"dkdv_dq\" kernel writes only grad_key and grad_value (it "
           "adds dS K into the workspace dq_accum; a \"dq_convert\" kernel "
           "writes grad_query)";
  case GradStage::DQConvert:
    return "a \"dq_convert\" kernel writes only grad_query (" + name +
           " is written by a \"dkdv\" or \"dkdv_dq\" kernel)";
  case GradStage::Prep:
  case GradStage::None:
  case GradStage::SplitKV: // forward stages: not in a backward table
  case GradStage::Combine:
    break;
  }
  return "a \"prep\" kernel writes no gradient (it initializes workspaces)";
}

void Validator::workspaceParam(const Value &pv, const std::string &at,
                               const KernelSpec &k, ParamSpec &p,
                               const ParamTable &t) {
  p.kind = ParamSpec::Kind::Tensor;
  p.isWorkspace = true;
  // A packed workspace has a shape fixed by the ABI (W rows per head), so
  // no query_len_multiple.
  auto fixed = t.workspaceShapes.find(p.name);
  const bool packed = fixed != t.workspaceShapes.end();
  if (packed)
    checkKeys(pv, {"name", "kind", "role", "dtype", "shape"}, at);
  else
    checkKeys(pv,
              {"name", "kind", "role", "dtype", "shape", "query_len_multiple"},
              at);
  const Value &role = field(pv, "role", at);
  std::string roleText = string(role, at + ": role");
  if (roleText != "workspace")
    fail(role, at + ": role: expected \"workspace\" for '" + p.name +
                   "', got \"" + roleText + "\"");
  const Value &dt = field(pv, "dtype", at);
  p.dtype = dtype(dt, at + ": dtype", /*allowI1=*/true, /*allowI32=*/true);
  if (p.dtype != DType::F32)
    fail(dt, at + ": dtype: expected f32 (workspaces are f32), got " +
                 dtypeName(p.dtype));
  const Value &sv = field(pv, "shape", at);
  p.shape = shape(sv, at + ": shape");
  if (!packed) {
    checkDenseWorkspaceShape(pv, at, k, p);
    return;
  }
  if (p.shape != fixed->second.shape)
    fail(sv, at + ": shape " + formatShape(p.shape) + " does not match " +
                 fixed->second.shapeText + " = " +
                 formatShape(fixed->second.shape));
}

/// A dense backward workspace may have any shape (the compiler chooses it,
/// e.g. rows padded to a tile; the group check makes the kernels sharing it
/// agree), but one that grows with the kernel's run-time sizes.
void Validator::checkDenseWorkspaceShape(const Value &pv, const std::string &at,
                                         const KernelSpec &k, ParamSpec &p) {
  const Value &sv = *pv.find("shape");
  // Run-time sizes: a workspace is [B, Hq, Lq padded, ...], so bindSizes
  // can only fill in a null at dimension 0 (the batch) and at dimension 2
  // (the query length, rounded up to "query_len_multiple"). A static
  // dimension where the kernel's size is a run-time one would be a buffer
  // that does not grow with the size the kernel indexes it by.
  for (size_t d = 0; d < p.shape.size(); ++d) {
    const bool null = p.shape[d] == kRuntimeSize;
    const std::string dim = at + ": shape[" + std::to_string(d) + "]";
    if (d != 0 && d != 2) {
      if (null)
        fail(sv.array[d], dim + " is null, but only dimension 0 (the batch) "
                                "and 2 (the query length) of a workspace can "
                                "be a run-time size");
      continue;
    }
    const int64_t size = d == 0 ? k.batch : k.queryLen;
    const char *sizeName = d == 0 ? "batch" : "query_len";
    if (null && size != kRuntimeSize)
      fail(sv.array[d], dim + " is null, but the kernel's " + sizeName +
                            " is " + std::to_string(size) +
                            " (null in a workspace stands for a run-time " +
                            sizeName + ")");
    if (!null && size == kRuntimeSize)
      fail(sv.array[d], dim + " is " + std::to_string(p.shape[d]) +
                            ", but the kernel's " + sizeName +
                            " is null (a run-time size): expected null, "
                            "the workspace grows with it");
  }
  if (k.queryLen == kRuntimeSize && p.shape.size() < 3)
    fail(sv, at + ": shape " + formatShape(p.shape) +
                 " has no dimension 2, but the kernel's query_len is null (a "
                 "run-time size): expected [batch, query_heads, null, ...]");

  const bool paddedRows = p.shape.size() > 2 && p.shape[2] == kRuntimeSize;
  const Value *multiple = pv.find("query_len_multiple");
  if (multiple && !paddedRows)
    fail(*multiple, at + ": query_len_multiple: only for a workspace whose "
                         "shape[2] is null (a run-time query length), but "
                         "shape is " + formatShape(p.shape));
  if (!multiple && paddedRows)
    fail(pv, at + ": missing field 'query_len_multiple' (shape[2] is null: "
                  "the run-time query length rounded up to a multiple of "
                  "query_len_multiple)");
  if (multiple)
    p.queryLenMultiple = positive(*multiple, at + ": query_len_multiple");
}

/// The tensor `n` of a dense kernel: query, key, value, output and their
/// gradients [batch, heads, length, width], lse [batch, query_heads,
/// query_len], the masks in their fields' shapes.
TensorExpectation denseTensor(const KernelSpec &k, const std::string &n) {
  TensorExpectation t;
  t.dtype = k.dtype;
  if (n == "query" || n == "grad_query") {
    t.shape = {k.batch, k.queryHeads, k.queryLen, k.headDim};
    t.shapeText = "[batch, query_heads, query_len, head_dim]";
  } else if (n == "key" || n == "grad_key") {
    t.shape = {k.batch, k.kvHeads, k.keyLen, k.headDim};
    t.shapeText = "[batch, kv_heads, key_len, head_dim]";
  } else if (n == "value" || n == "grad_value") {
    t.shape = {k.batch, k.kvHeads, k.keyLen, k.valueDim};
    t.shapeText = "[batch, kv_heads, key_len, value_dim]";
  } else if (n == "output" || n == "grad_output") {
    t.shape = {k.batch, k.queryHeads, k.queryLen, k.valueDim};
    t.shapeText = "[batch, query_heads, query_len, value_dim]";
  } else if (n == "lse") {
    t.dtype = DType::F32;
    t.dtypeNote = " (lse is always f32)";
    t.shape = {k.batch, k.queryHeads, k.queryLen};
    t.shapeText = "[batch, query_heads, query_len]";
  } else if (n == "mask") {
    t.dtype = k.maskDtype;
    t.dtypeNote = " (the kernel's mask.dtype)";
    t.shape.assign(k.maskShape.begin(), k.maskShape.end());
    t.shapeText = "the kernel's mask.shape";
  } else { // dropout_mask
    t.dtype = DType::I1;
    t.dtypeNote = " (a keep mask is i1)";
    t.shape.assign(k.dropoutMaskShape.begin(), k.dropoutMaskShape.end());
    t.shapeText = "the kernel's dropout_mask.shape";
  }
  return t;
}

/// The tensor `n` of a packed kernel: token-major [tokens, heads, width]
/// for query, key, value, output and their gradients, lse [query_heads,
/// total_query_tokens], the offsets i32 [batch + 1].
TensorExpectation packedTensor(const KernelSpec &k, const std::string &n) {
  TensorExpectation t;
  t.dtype = k.dtype;
  const int64_t tq = k.totalQueryTokens, tk = k.totalKeyTokens;
  if (n == "query" || n == "grad_query") {
    t.shape = {tq, k.queryHeads, k.headDim};
    t.shapeText = "[total_query_tokens, query_heads, head_dim]";
  } else if (n == "key" || n == "grad_key") {
    t.shape = {tk, k.kvHeads, k.headDim};
    t.shapeText = "[total_key_tokens, kv_heads, head_dim]";
  } else if (n == "value" || n == "grad_value") {
    t.shape = {tk, k.kvHeads, k.valueDim};
    t.shapeText = "[total_key_tokens, kv_heads, value_dim]";
  } else if (n == "output" || n == "grad_output") {
    t.shape = {tq, k.queryHeads, k.valueDim};
    t.shapeText = "[total_query_tokens, query_heads, value_dim]";
  } else if (n == "lse") {
    t.dtype = DType::F32;
    t.dtypeNote = " (lse is always f32)";
    t.shape = {k.queryHeads, tq};
    t.shapeText = "[query_heads, total_query_tokens]";
  } else { // cu_seqlens_q, cu_seqlens_k
    t.dtype = DType::I32;
    t.dtypeNote = " (sequence offsets are i32)";
    t.shape = {k.batch == kRuntimeSize ? kRuntimeSize : k.batch + 1};
    t.shapeText = "[batch + 1]";
  }
  return t;
}

/// The workspaces of a packed backward kernel: row_dot and lse_log2
/// [query_heads, W], dq_accum [query_heads, W, head_dim], W =
/// packedWorkspaceRows (null where the batch or Tq is a run-time size).
std::map<std::string, TensorExpectation>
packedWorkspaceShapes(const KernelSpec &k) {
  const int64_t w = packedWorkspaceRows(k.totalQueryTokens, k.batch);
  const std::string wText =
      " (W = 4 * ceil(total_query_tokens / 4) + 68 * batch)";
  std::map<std::string, TensorExpectation> shapes;
  for (const char *n : {"row_dot", "lse_log2", "dq_accum"}) {
    TensorExpectation &t = shapes[n];
    t.dtype = DType::F32;
    const bool rows = std::string(n) == "dq_accum";
    t.shape = {k.queryHeads, w};
    if (rows)
      t.shape.push_back(k.headDim);
    t.shapeText =
        std::string(rows ? "[query_heads, W, head_dim]" : "[query_heads, W]") +
        wText;
  }
  return shapes;
}

void expect(ParamTable &t, const std::string &name, ParamSpec::Kind kind,
            const std::string &why = "") {
  ExpectedParam e;
  e.name = name;
  e.kind = kind;
  e.why = why;
  t.order.push_back(std::move(e));
}

void expectTensor(ParamTable &t, const std::string &name,
                  TensorExpectation tensor, bool output,
                  const std::string &why = "") {
  expect(t, name, ParamSpec::Kind::Tensor, why);
  tensor.output = output;
  t.order.back().tensor = std::move(tensor);
}

/// seed and offset: required with dropout; otherwise optional, but listed
/// together (`listed`: the list names one of them).
void expectRng(ParamTable &t, const KernelSpec &k, bool listed) {
  if (!listed && !(k.dropoutP > 0.0f))
    return;
  const std::string why =
      k.dropoutP > 0.0f
          ? " (dropout_p > 0 needs the seed and offset parameters)"
          : " (seed and offset come together)";
  for (const char *n : {"seed", "offset"})
    expect(t, n, ParamSpec::Kind::U64, why);
}

/// The i32 size parameters `names`: those that are run-time sizes, in this
/// order; a static one must not be listed.
void expectSizes(ParamTable &t, const KernelSpec &k,
                 std::initializer_list<const char *> names) {
  for (const char *n : names) {
    const int64_t value = sizeOf(k, n);
    if (value == kRuntimeSize)
      expect(t, n, ParamSpec::Kind::I32,
             " (the kernel's " + std::string(n) + " is null: a run-time size)");
    else
      t.excluded[n] = "listed, but the kernel's '" + std::string(n) + "' is " +
                      std::to_string(value) +
                      " (a size parameter is only for a run-time size, null)";
  }
}

/// lse: an output of the forward exactly when has_lse.
void expectForwardLse(ParamTable &t, const KernelSpec &k,
                      TensorExpectation lse) {
  if (k.hasLse)
    expectTensor(t, "lse", std::move(lse), true, " (has_lse is true)");
  else
    t.excluded["lse"] = "listed, but has_lse is false";
}

/// "a, b, c" of order[from, to).
std::string orderNames(const ParamTable &t, size_t from, size_t to) {
  std::string s;
  for (size_t i = from; i < to; ++i)
    s += (s.empty() ? "" : ", ") + t.order[i].name;
  return s;
}

bool listsRng(const Value &v) {
  bool listed = false;
  if (v.isArray())
    for (const Value &pv : v.array)
      if (pv.isObject())
        if (const Value *n = pv.find("name"))
          listed = listed || (n->isString() &&
                              (n->text == "seed" || n->text == "offset"));
  return listed;
}

/// The dense mask: an input exactly when the kernel's field 'mask' is set.
void expectMask(ParamTable &t, const KernelSpec &k) {
  if (k.hasMask)
    expectTensor(t, "mask", denseTensor(k, "mask"), false,
                 " (the kernel's field 'mask' is set)");
  else
    t.excluded["mask"] = "listed, but the kernel's field 'mask' is null";
}

/// The workspace `n` of a split-KV forward group: partial_output [batch,
/// splits, query_heads, query_len, value_dim] or partial_lse [batch, splits,
/// query_heads, query_len] (batch null where it is a run-time size).
TensorExpectation splitKVWorkspace(const KernelSpec &k, const std::string &n) {
  TensorExpectation t;
  t.dtype = DType::F32;
  t.dtypeNote = " (workspaces are f32)";
  t.workspace = true;
  t.shape = {k.batch, k.splits, k.queryHeads, k.queryLen};
  t.shapeText = k.splitsAtLaunch()
                    ? "[batch, S (null: codegen.splits is null, S decided at "
                      "launch), query_heads, query_len"
                    : "[batch, codegen.splits, query_heads, query_len";
  if (n == "partial_output") {
    t.shape.push_back(k.valueDim);
    t.shapeText += ", value_dim";
  }
  t.shapeText += "]";
  return t;
}

/// num_splits (i32), the last parameter of a split-KV stage (dense or
/// paged) whose split count is decided at launch; excluded otherwise.
void expectSplitCount(ParamTable &t, const KernelSpec &k) {
  if (k.splitsAtLaunch())
    expect(t, "num_splits", ParamSpec::Kind::I32,
           " (codegen.splits is null: the split count S is decided at "
           "launch)");
  else
    t.excluded["num_splits"] =
        "listed, but codegen.splits is " + std::to_string(k.splits) +
        " (num_splits is only for a split count decided at launch, "
        "codegen.splits null)";
}

/// The ABI of a split-KV forward stage (docs/kernel-manifest.md, "Split-KV
/// forward groups"): query, key, value, mask (with one), the workspaces
/// partial_output and partial_lse, then for combine only output and lse
/// (when has_lse), then the run-time sizes (batch, key_len; the query
/// length is static), then num_splits where the split count is decided at
/// launch.
ParamTable splitKVTable(const KernelSpec &k) {
  const std::string stage = stageName(k.stage);
  ParamTable t;
  t.title = "the \"" + stage + "\" parameters";
  t.unknownTo = " for a \"" + stage + "\" kernel";
  t.known.assign(std::begin(kSplitKVParamNames), std::end(kSplitKVParamNames));
  for (const char *n : {"query", "key", "value"})
    expectTensor(t, n, denseTensor(k, n), false);
  expectMask(t, k);
  for (const char *n : {"partial_output", "partial_lse"})
    expectTensor(t, n, splitKVWorkspace(k, n), false);
  if (k.stage == GradStage::Combine) {
    expectTensor(t, "output", denseTensor(k, "output"), true);
    expectForwardLse(t, k, denseTensor(k, "lse"));
  } else {
    for (const char *n : {"output", "lse"})
      t.excluded[n] = "listed, but a \"split_kv\" kernel writes only the "
                      "workspaces partial_output and partial_lse (" +
                      std::string(n) + " is the \"combine\" stage's)";
  }
  expectSizes(t, k, {"batch", "query_len", "key_len"});
  expectSplitCount(t, k);
  t.orderText = orderNames(t, 0, t.order.size());
  return t;
}

/// The dense forward ABI: query, key, value, mask, dropout_mask, seed,
/// offset, output, lse (those the kernel has), then the run-time sizes.
ParamTable forwardTable(const KernelSpec &k, bool rngListed) {
  if (k.isForwardStage())
    return splitKVTable(k);
  ParamTable t;
  t.title = "the forward parameters";
  t.known.assign(std::begin(kParamNames), std::end(kParamNames));
  for (const char *n : {"query", "key", "value"})
    expectTensor(t, n, denseTensor(k, n), false);
  expectMask(t, k);
  if (k.hasDropoutMask) {
    expectTensor(t, "dropout_mask", denseTensor(k, "dropout_mask"), false,
                 " (the kernel's field 'dropout_mask' is set)");
    for (const char *n : {"seed", "offset"})
      t.excluded[n] = "listed, but the kernel reads its keep bits from "
                      "'dropout_mask' (seed/offset and dropout_mask are "
                      "exclusive)";
  } else {
    t.excluded["dropout_mask"] =
        "listed, but the kernel has no field 'dropout_mask'";
    expectRng(t, k, rngListed);
  }
  expectTensor(t, "output", denseTensor(k, "output"), true);
  expectForwardLse(t, k, denseTensor(k, "lse"));
  expectSizes(t, k, {"batch", "query_len", "key_len"});
  t.orderText = orderNames(t, 0, t.order.size());
  return t;
}

/// The packed forward ABI (docs/kernel-manifest.md): query, key, value,
/// cu_seqlens_q, cu_seqlens_k, seed and offset, output, lse (when has_lse),
/// then the run-time sizes among batch, total_query_tokens,
/// total_key_tokens.
ParamTable varlenTable(const KernelSpec &k, bool rngListed) {
  ParamTable t;
  t.title = "the \"varlen_attention\" parameters";
  t.unknownTo = " for a \"varlen_attention\" kernel";
  t.known.assign(std::begin(kVarlenParamNames), std::end(kVarlenParamNames));
  for (const char *n :
       {"query", "key", "value", "cu_seqlens_q", "cu_seqlens_k"})
    expectTensor(t, n, packedTensor(k, n), false);
  expectRng(t, k, rngListed);
  expectTensor(t, "output", packedTensor(k, "output"), true);
  expectForwardLse(t, k, packedTensor(k, "lse"));
  expectSizes(t, k, {"batch", "total_query_tokens", "total_key_tokens"});
  t.orderText = orderNames(t, 0, t.order.size());
  return t;
}

/// The backward ABI of one stage, dense or packed (docs/kernel-manifest.md,
/// "Parameters" and "Packed backward kernels"): the inputs query, key,
/// value, output, lse, grad_output, then the mask (dense) or the offsets
/// (packed), seed and offset; then the workspaces; the stage's gradients;
/// the run-time sizes.
ParamTable gradTable(const KernelSpec &k, bool rngListed) {
  const bool packed = k.isVarlen();
  auto tensor = [&](const std::string &n) {
    return packed ? packedTensor(k, n) : denseTensor(k, n);
  };
  ParamTable t;
  t.title = std::string("the ") + (packed ? "packed " : "") + "\"" +
            stageName(k.stage) + "\" parameters";
  t.unknownTo = packed ? " for a \"varlen_attention_grad\" kernel"
                       : " for a backward kernel";
  if (packed)
    t.known.assign(std::begin(kVarlenGradParamNames),
                   std::end(kVarlenGradParamNames));
  else
    t.known.assign(std::begin(kGradParamNames), std::end(kGradParamNames));
  t.workspaces = true;
  for (const char *n :
       {"query", "key", "value", "output", "lse", "grad_output"})
    expectTensor(t, n, tensor(n), false);
  if (packed) {
    for (const char *n : {"cu_seqlens_q", "cu_seqlens_k"})
      expectTensor(t, n, tensor(n), false);
    t.workspaceShapes = packedWorkspaceShapes(k);
  } else {
    expectMask(t, k);
  }
  expectRng(t, k, rngListed);
  t.numInputs = t.order.size();
  const std::vector<std::string> outputs = stageOutputs(k.stage);
  for (const std::string &o : outputs)
    expectTensor(t, o, tensor(o), true);
  for (const char *g : {"grad_query", "grad_key", "grad_value"})
    if (std::find(outputs.begin(), outputs.end(), g) == outputs.end())
      t.excluded[g] = notThisStage(k.stage, g);
  const size_t numFixed = t.order.size();
  if (packed)
    expectSizes(t, k, {"batch", "total_query_tokens", "total_key_tokens"});
  else
    expectSizes(t, k, {"batch", "query_len", "key_len"});
  // "query, ..., grad_query, batch": a prep kernel, which has no outputs,
  // says where its workspaces go.
  t.orderText = orderNames(t, 0, numFixed);
  if (outputs.empty())
    t.orderText += ", then its workspaces";
  if (numFixed < t.order.size())
    t.orderText += (outputs.empty() ? ", then " : ", ") +
                   orderNames(t, numFixed, t.order.size());
  return t;
}

/// The tensor `n` of a paged kernel's cache: key_cache [num_pages,
/// page_size, kv_heads, head_dim], value_cache (value_dim), the i32
/// block_table [batch, max_pages_per_seq] and cache_seqlens [batch].
TensorExpectation pagedTensor(const KernelSpec &k, const std::string &n) {
  TensorExpectation t;
  t.dtype = k.dtype;
  if (n == "key_cache") {
    t.shape = {k.numPages, k.pageSize, k.kvHeads, k.headDim};
    t.shapeText = "[num_pages, page_size, kv_heads, head_dim]";
  } else if (n == "value_cache") {
    t.shape = {k.numPages, k.pageSize, k.kvHeads, k.valueDim};
    t.shapeText = "[num_pages, page_size, kv_heads, value_dim]";
  } else if (n == "block_table") {
    t.dtype = DType::I32;
    t.dtypeNote = " (block_table holds i32 page indices)";
    t.shape = {k.batch, k.maxPagesPerSeq};
    t.shapeText = "[batch, max_pages_per_seq]";
  } else { // cache_seqlens
    t.dtype = DType::I32;
    t.dtypeNote = " (cache_seqlens holds i32 lengths)";
    t.shape = {k.batch};
    t.shapeText = "[batch]";
  }
  return t;
}

/// The ABI of a paged forward stage (docs/kernel-manifest.md, "Paged
/// key/value caches"): query, key_cache, value_cache, block_table,
/// cache_seqlens, the workspaces partial_output and partial_lse, then for
/// combine only output and lse (when has_lse), then the run-time sizes
/// among batch, num_pages, then num_splits where the split count is
/// decided at launch.
ParamTable pagedTable(const KernelSpec &k) {
  const std::string stage = stageName(k.stage);
  ParamTable t;
  t.title = "the paged \"" + stage + "\" parameters";
  t.unknownTo = " for a \"paged_attention\" kernel";
  t.known.assign(std::begin(kPagedParamNames), std::end(kPagedParamNames));
  expectTensor(t, "query", denseTensor(k, "query"), false);
  for (const char *n :
       {"key_cache", "value_cache", "block_table", "cache_seqlens"})
    expectTensor(t, n, pagedTensor(k, n), false);
  for (const char *n : {"partial_output", "partial_lse"})
    expectTensor(t, n, splitKVWorkspace(k, n), false);
  if (k.stage == GradStage::Combine) {
    expectTensor(t, "output", denseTensor(k, "output"), true);
    expectForwardLse(t, k, denseTensor(k, "lse"));
  } else {
    for (const char *n : {"output", "lse"})
      t.excluded[n] = "listed, but a \"split_kv\" kernel writes only the "
                      "workspaces partial_output and partial_lse (" +
                      std::string(n) + " is the \"combine\" stage's)";
  }
  expectSizes(t, k, {"batch", "num_pages"});
  expectSplitCount(t, k);
  t.orderText = orderNames(t, 0, t.order.size());
  return t;
}

/// The ABI of a merge kernel (docs/kernel-manifest.md, "Merging partial
/// results"): partial_output [S, d..., Dv] (partial_dtype), partial_lse [S,
/// d...] (f32), output [d..., Dv] (dtype), lse [d...] (f32, when has_lse);
/// d... is k.rowDims. No workspaces, no size parameters.
ParamTable mergeTable(const KernelSpec &k) {
  ParamTable t;
  t.title = "the \"merge_partials\" parameters";
  t.unknownTo = " for a \"merge_partials\" kernel";
  t.known = {"partial_output", "partial_lse", "output", "lse"};
  auto shapeOf = [&](bool split, bool value) {
    std::vector<int64_t> s;
    if (split)
      s.push_back(k.splits);
    s.insert(s.end(), k.rowDims.begin(), k.rowDims.end());
    if (value)
      s.push_back(k.valueDim);
    return s;
  };
  TensorExpectation partialOutput;
  partialOutput.dtype = k.partialDtype;
  partialOutput.dtypeNote = " (the kernel's partial_dtype)";
  partialOutput.shape = shapeOf(true, true);
  partialOutput.shapeText = "[splits, d..., value_dim]";
  expectTensor(t, "partial_output", partialOutput, false);
  TensorExpectation partialLse;
  partialLse.dtype = DType::F32;
  partialLse.dtypeNote = " (partial_lse holds f32 log-sum-exps)";
  partialLse.shape = shapeOf(true, false);
  partialLse.shapeText = "[splits, d...]";
  expectTensor(t, "partial_lse", partialLse, false);
  TensorExpectation output;
  output.dtype = k.dtype;
  output.shape = shapeOf(false, true);
  output.shapeText = "[d..., value_dim]";
  expectTensor(t, "output", output, true);
  TensorExpectation lse;
  lse.dtype = DType::F32;
  lse.dtypeNote = " (lse is f32)";
  lse.shape = shapeOf(false, false);
  lse.shapeText = "[d...]";
  expectForwardLse(t, k, lse);
  t.orderText = orderNames(t, 0, t.order.size());
  return t;
}

ParamTable paramTable(const KernelSpec &k, bool rngListed) {
  if (k.isMerge())
    return mergeTable(k);
  if (k.isPaged())
    return pagedTable(k);
  if (k.isGrad())
    return gradTable(k, rngListed);
  return k.isVarlen() ? varlenTable(k, rngListed) : forwardTable(k, rngListed);
}

/// "query, key, ... or key_len" (or "..., key_len or a workspace: ...").
std::string knownText(const ParamTable &t) {
  std::string s;
  for (size_t i = 0; i < t.known.size(); ++i)
    s += (i == 0                                     ? ""
          : i + 1 == t.known.size() && !t.workspaces ? " or "
                                                     : ", ") +
         t.known[i];
  if (t.workspaces)
    s += " or a workspace: row_dot, lse_log2, dq_accum";
  return s;
}

void Validator::checkParamKind(const Value &pv, const std::string &at,
                               const ParamSpec &p, ParamSpec::Kind want) const {
  const char *wantKind = want == ParamSpec::Kind::I32   ? "i32"
                         : want == ParamSpec::Kind::U64 ? "u64"
                                                        : "tensor";
  checkKnownKind(pv, at);
  const Value &kind = field(pv, "kind", at);
  const std::string &kindText = kind.text;
  if (kindText != wantKind)
    fail(kind, at + ": kind: expected \"" + std::string(wantKind) + "\" for '" +
                   p.name + "', got \"" + kindText + "\"");
}

void Validator::checkKnownKind(const Value &pv, const std::string &at) const {
  const Value &kind = field(pv, "kind", at);
  const std::string kindText = string(kind, at + ": kind");
  if (kindText != "tensor" && kindText != "u64" && kindText != "i32" &&
      kindText != "tensor_map")
    fail(kind, at +
                   ": kind: expected \"tensor\", \"u64\", \"i32\" or "
                   "\"tensor_map\" (after every other parameter), got \"" +
                   kindText + "\"");
}

/// Whether a params entry is a tensor map (kind "tensor_map").
static bool isTensorMapValue(const Value &pv) {
  const Value *kind = pv.isObject() ? pv.find("kind") : nullptr;
  return kind && kind->isString() && kind->text == "tensor_map";
}

void Validator::tensorMapParam(const Value &pv, const std::string &at,
                               KernelSpec &k) {
  ParamSpec p;
  p.kind = ParamSpec::Kind::TensorMap;
  p.name = string(field(pv, "name", at), at + ".name");
  const std::string where = "param '" + p.name + "'";
  checkKeys(pv, {"name", "kind", "tensor", "box", "swizzle"}, where);
  for (const ParamSpec &q : k.params)
    if (q.name == p.name)
      fail(pv, where + ": listed twice");
  const Value &tensorValue = field(pv, "tensor", where);
  p.mapOf = string(tensorValue, where + ": tensor");
  const ParamSpec *tensor = k.findParam(p.mapOf);
  if (!tensor || tensor->kind != ParamSpec::Kind::Tensor)
    fail(tensorValue, where + ": tensor: '" + p.mapOf +
                          "' is not a tensor parameter listed before it");
  if (tensor->isOutput || tensor->isWorkspace)
    fail(tensorValue, where + ": tensor: '" + p.mapOf +
                          "' is an output or a workspace (tensor maps load "
                          "inputs)");
  if (tensorMapDataType(tensor->dtype) < 0)
    fail(tensorValue, where + ": tensor: '" + p.mapOf + "' is " +
                          dtypeName(tensor->dtype) +
                          " (tensor maps take f16, bf16 or f32)");
  const size_t rank = tensor->shape.size();
  if (rank < 1 || rank > size_t(kMaxTensorMapRank))
    fail(tensorValue, where + ": tensor: '" + p.mapOf + "' has " +
                          std::to_string(rank) +
                          " dimensions (a tensor map has 1 to 5)");
  // Every stride is a multiple of the innermost one (the row), so a row
  // that is a multiple of 16 bytes is what TMA needs; a static row is
  // checked here, a run-time one at launch (tensorMapLayout).
  const int64_t elementBytes = int64_t(dtypeSize(tensor->dtype));
  const int64_t row = tensor->shape.back();
  if (rank > 1 && row != kRuntimeSize && row * elementBytes % 16)
    fail(tensorValue, where + ": tensor: '" + p.mapOf + "' has rows of " +
                          std::to_string(row * elementBytes) +
                          " bytes, not a multiple of 16 (TMA strides are)");
  const Value &swizzle = field(pv, "swizzle", where);
  p.swizzle = integer(swizzle, where + ": swizzle", 0, 128, "0, 32, 64 or 128");
  if (tensorMapSwizzleMode(p.swizzle) < 0)
    fail(swizzle, where + ": swizzle: expected 0, 32, 64 or 128, got " +
                      std::to_string(p.swizzle));
  const Value &box = field(pv, "box", where);
  if (!box.isArray() || box.array.size() != rank)
    fail(box, where + ": box: expected an array of " + std::to_string(rank) +
                  " extents (one per dimension of '" + p.mapOf +
                  "', innermost first), " + got(box));
  for (size_t i = 0; i < rank; ++i)
    p.box.push_back(integer(box.array[i],
                            where + ": box[" + std::to_string(i) + "]", 1, 256,
                            "an integer from 1 to 256"));
  // cuTensorMapEncodeTiled's rules for the innermost extent, in bytes.
  const int64_t boxRow = p.box[0] * elementBytes;
  const std::string boxRowText =
      "box[0] (the innermost extent) is " + std::to_string(p.box[0]) +
      " elements of " + std::to_string(elementBytes) +
      " bytes = " + std::to_string(boxRow) + " bytes";
  if (boxRow % 16)
    fail(box.array[0],
         where + ": " + boxRowText + ", not a multiple of 16 bytes");
  if (p.swizzle && boxRow > p.swizzle)
    fail(box.array[0], where + ": " + boxRowText +
                           ", more than the swizzle span (" +
                           std::to_string(p.swizzle) + " bytes)");
  k.params.push_back(std::move(p));
}

void Validator::paramList(const Value &v, KernelSpec &k, const ParamTable &t) {
  if (!v.isArray())
    fail(v, "params: expected an array of parameter objects, " + got(v));
  // Tensor maps follow every other parameter; the op's table describes
  // the ones before them.
  size_t mapsFrom = v.array.size();
  while (mapsFrom > 0 && isTensorMapValue(v.array[mapsFrom - 1]))
    --mapsFrom;
  const std::vector<ExpectedParam> &order = t.order;
  const std::string abi = " (" + t.title + ", in order: " + t.orderText + ")";
  const std::string workspacePlace =
      " (workspaces come after the inputs and before the outputs)";
  // params[idx] (called `what`) stands where order[next] belongs: either
  // order[next] is missing altogether or it comes later.
  auto outOfPlace = [&](const Value &nameValue, const std::string &at,
                        size_t idx, size_t next, const std::string &what,
                        const std::string &note) {
    const ExpectedParam &want = order[next];
    bool listedLater = false;
    for (size_t j = idx + 1; j < v.array.size(); ++j)
      if (const Value *n =
              v.array[j].isObject() ? v.array[j].find("name") : nullptr)
        listedLater = listedLater || (n->isString() && n->text == want.name);
    if (!listedLater)
      fail(nameValue, at + ": missing parameter '" + want.name + "' before " +
                          what + want.why + note + abi);
    fail(nameValue, at + ": expected parameter '" + want.name + "' here, got " +
                        what + note + abi);
  };

  size_t next = 0; // the index in `order` of the next non-workspace
  for (size_t idx = 0; idx < mapsFrom; ++idx) {
    const Value &pv = v.array[idx];
    std::string at = "params[" + std::to_string(idx) + "]";
    if (!pv.isObject())
      fail(pv, at + ": expected a parameter object, " + got(pv));
    if (isTensorMapValue(pv)) {
      // The entry that ends the run of maps: a misspelt kind there reads
      // better as such than as a map out of place.
      const Value &after = v.array[mapsFrom - 1];
      const std::string afterAt =
          "params[" + std::to_string(mapsFrom - 1) + "]";
      if (!after.isObject())
        fail(after, afterAt + ": expected a parameter object, " + got(after));
      checkKnownKind(after, afterAt);
      const Value *later = after.find("name");
      fail(pv, at + ": a tensor map before params[" +
                   std::to_string(mapsFrom - 1) + "]" +
                   (later && later->isString() ? " ('" + later->text + "')"
                                               : std::string()) +
                   " (tensor maps come after every other parameter)");
    }
    ParamSpec p;
    const Value &nameValue = field(pv, "name", at);
    p.name = string(nameValue, at + ".name");
    const Value *roleValue = pv.find("role");
    const bool workspaceRole =
        roleValue && roleValue->isString() && roleValue->text == "workspace";
    const bool workspace = t.workspaces && isWorkspaceName(p.name);
    if (!workspace &&
        std::find(t.known.begin(), t.known.end(), p.name) == t.known.end()) {
      if (t.workspaces && workspaceRole)
        fail(nameValue, at + ".name: unknown workspace \"" + p.name +
                            "\" (expected row_dot, lse_log2 or dq_accum)");
      fail(nameValue, at + ".name: unknown parameter \"" + p.name + "\"" +
                          t.unknownTo + " (expected " + knownText(t) + ")");
    }
    for (size_t j = 0; j < k.params.size(); ++j)
      if (k.params[j].name == p.name)
        fail(nameValue, at + ": parameter '" + p.name +
                            "' is listed twice (also params[" +
                            std::to_string(j) + "])");
    auto excluded = t.excluded.find(p.name);
    if (excluded != t.excluded.end())
      fail(nameValue, "param '" + p.name + "': " + excluded->second);

    const ExpectedParam *want = nullptr;
    if (workspace) {
      // Workspaces may come in any order, but only between the inputs and
      // the outputs.
      if (next < t.numInputs)
        outOfPlace(nameValue, at, idx, next, "workspace '" + p.name + "'",
                   workspacePlace);
      if (next > t.numInputs)
        fail(nameValue, at + ": workspace '" + p.name + "' after " +
                            (order[next - 1].kind == ParamSpec::Kind::I32
                                 ? "the size parameter '"
                                 : "the output '") +
                            order[next - 1].name + "'" + workspacePlace + abi);
    } else {
      if (next >= order.size())
        fail(nameValue, at + ": unexpected parameter '" + p.name +
                            "' after the last one" + abi);
      if (p.name != order[next].name)
        outOfPlace(nameValue, at, idx, next, "'" + p.name + "'", "");
      want = &order[next++];
    }
    at = "param '" + p.name + "'";
    checkParamKind(pv, at, p, want ? want->kind : ParamSpec::Kind::Tensor);

    if (want && want->kind != ParamSpec::Kind::Tensor) {
      p.kind = want->kind;
      checkKeys(pv, {"name", "kind", "role"}, at);
      if (roleValue && string(*roleValue, at + ": role") != "input")
        fail(*roleValue, at + ": role: expected \"input\", got \"" +
                             roleValue->text + "\"");
    } else if (workspace) {
      workspaceParam(pv, at, k, p, t);
    } else {
      if (t.workspaces && workspaceRole)
        fail(*roleValue,
             at +
                 ": role: \"workspace\" is only for the "
                 "workspaces row_dot, lse_log2 and dq_accum "
                 "(expected \"" +
                 std::string(want->tensor.output ? "output" : "input") +
                 "\" for '" + p.name + "')");
      checkTensorParam(pv, at, p, want->tensor);
    }
    k.params.push_back(std::move(p));
  }
  if (next < order.size())
    fail(v, "params: missing parameter '" + order[next].name + "'" +
                order[next].why + abi);
  for (size_t idx = mapsFrom; idx < v.array.size(); ++idx)
    tensorMapParam(v.array[idx], "params[" + std::to_string(idx) + "]", k);
}

/// The fields of a packed kernel ("op": "varlen_attention" or
/// "varlen_attention_grad", docs/semantics.md §14): the token totals, which
/// no other op has; no single query or key length (each sequence has its
/// own, from the offsets), and no mask or explicit dropout mask.
void Validator::varlenFields(const Value &v, KernelSpec &k) {
  const char *const totals[] = {"total_query_tokens", "total_key_tokens"};
  if (!k.isVarlen()) {
    for (const char *name : totals)
      if (const Value *f = v.find(name))
        fail(*f, std::string(name) + ": only a packed kernel (\"op\": "
                                     "\"varlen_attention\" or "
                                     "\"varlen_attention_grad\") has this "
                                     "field");
    return;
  }
  const std::string op = opName(k.op);
  const std::string what = "a packed kernel (\"op\": \"" + op + "\")";
  for (const char *name : {"query_len", "key_len"}) {
    const Value &f = *v.find(name); // present: kernel() read it
    if (!f.isNull())
      fail(f, std::string(name) + ": expected null for a \"" + op +
                  "\" kernel (each sequence's length comes from "
                  "cu_seqlens_q / cu_seqlens_k), " +
                  got(f));
  }
  k.totalQueryTokens = lengthField(field(v, totals[0], what), totals[0]);
  k.totalKeyTokens = lengthField(field(v, totals[1], what), totals[1]);
  for (const char *name : {"mask", "dropout_mask"})
    if (const Value *f = v.find(name))
      if (!f->isNull())
        fail(*f, std::string(name) + ": a \"" + op +
                     "\" kernel takes none (a packed batch has no [B, Hq, "
                     "Lq, Lk] score tensor to apply one to): expected null "
                     "or no field, " +
                     got(*f));
}

/// The fields of a paged kernel ("op": "paged_attention",
/// docs/kernel-manifest.md "Paged key/value caches"): page_size, num_pages
/// and max_pages_per_seq, which no other op has; key_len null (each
/// sequence's length is its cache_seqlens entry; keyLen becomes the
/// capacity max_pages_per_seq * page_size), no mask. The batch (read by
/// kernel()) and num_pages may be null: run-time sizes.
void Validator::pagedFields(const Value &v, KernelSpec &k) {
  const char *const paging[] = {"page_size", "num_pages", "max_pages_per_seq"};
  if (!k.isPaged()) {
    for (const char *name : paging)
      if (const Value *f = v.find(name))
        fail(*f, std::string(name) +
                     ": only a paged kernel (\"op\": \"paged_attention\") "
                     "has this field, not a \"" +
                     opName(k.op) + "\" kernel");
    return;
  }
  const std::string what = "a \"paged_attention\" kernel";
  const Value &keyLen = *v.find("key_len"); // present: kernel() read it
  if (!keyLen.isNull())
    fail(keyLen, "key_len: expected null for " + what +
                     " (each sequence's cache length comes from "
                     "cache_seqlens; there is no key_len size parameter), " +
                     got(keyLen));
  k.pageSize = positive(field(v, "page_size", what), "page_size");
  const Value &pages = field(v, "num_pages", what);
  k.numPages = lengthField(pages, "num_pages");
  if (k.numPages > 2147483647)
    fail(pages, "num_pages: " + std::to_string(k.numPages) +
                    " pages, more than the 2^31 - 1 an i32 block_table "
                    "entry can index");
  const Value &perSeq = field(v, "max_pages_per_seq", what);
  k.maxPagesPerSeq = positive(perSeq, "max_pages_per_seq");
  if (k.maxPagesPerSeq > 2147483647 / k.pageSize)
    fail(perSeq, "max_pages_per_seq: max_pages_per_seq * page_size = " +
                     std::to_string(k.maxPagesPerSeq) + " * " +
                     std::to_string(k.pageSize) +
                     " tokens, more than the 2^31 - 1 an i32 cache_seqlens "
                     "entry holds");
  k.keyLen = k.maxPagesPerSeq * k.pageSize;
  const Value &mask = field(v, "mask", what);
  if (!mask.isNull())
    fail(mask, "mask: " + what +
                   " takes none (attn.paged_attention has no "
                   "mask): expected null, " +
                   got(mask));
  if (const Value *keep = v.find("dropout_mask"))
    if (!keep->isNull())
      fail(*keep, "dropout_mask: " + what +
                      " has no dropout: expected null or no field, " +
                      got(*keep));
}

/// A merge kernel ("op": "merge_partials", docs/kernel-manifest.md
/// "Merging partial results"): its own fields (none of the attention
/// problem's), its launch ((ceil(rows / 4), 1, 1) blocks of 128 threads, no
/// dynamic shared memory; codegen, when present, that of a CUDA-core
/// kernel with block_q 4) and its parameters.
void Validator::mergeKernel(const Value &v, KernelSpec &k) {
  const std::string what = "a \"merge_partials\" kernel";
  static const char *const fields[] = {
      "name",          "source", "op",    "dtype",
      "partial_dtype", "splits", "rows",  "value_dim",
      "has_lse",       "grid",   "block", "dynamic_shared_memory",
      "params",        "codegen"};
  std::string list;
  for (const char *f : fields)
    list += std::string(list.empty() ? "" : ", ") + f;
  for (const auto &member : v.object)
    if (std::find_if(std::begin(fields), std::end(fields), [&](const char *f) {
          return member.first == f;
        }) == std::end(fields))
      fail(member.second,
           member.first + ": " + what +
               " has no such field (it merges partial results and has none "
               "of the attention fields such as heads, lengths, scale, "
               "causal, window, softcap, dropout_p or mask; expected "
               "fields: " +
               list + ")");
  k.source = string(field(v, "source", what), "source", /*allowEmpty=*/true);
  k.dtype = dtype(field(v, "dtype", what), "dtype", /*allowI1=*/false);
  k.partialDtype =
      dtype(field(v, "partial_dtype", what), "partial_dtype", false);
  k.splits = positive(field(v, "splits", what), "splits");
  const Value &rows = field(v, "rows", what);
  k.rows = positive(rows, "rows");
  k.valueDim = positive(field(v, "value_dim", what), "value_dim");
  const Value &hasLse = field(v, "has_lse", what);
  if (!hasLse.isBool())
    fail(hasLse, "has_lse: expected true or false, " + got(hasLse));
  k.hasLse = hasLse.boolean;

  const Value &grid = field(v, "grid", what);
  k.grid = dim3(grid, "grid", {2147483647, 65535, 65535});
  const Value &block = field(v, "block", what);
  k.block = dim3(block, "block", {1024, 1024, 64});
  const Value &smem = field(v, "dynamic_shared_memory", what);
  if (integer(smem, "dynamic_shared_memory", 0,
              std::numeric_limits<int64_t>::max(),
              "a non-negative integer (bytes)") != 0)
    fail(smem, "dynamic_shared_memory: " + smem.text + " bytes, but " + what +
                   " uses none (expected 0)");

  // codegen, when present: a CUDA-core kernel of 4 rows per block.
  const Codegen cg = codegen(v);
  if (cg.kernel && cg.kernel->text != "cuda-core")
    fail(*cg.kernel, "codegen.kernel: \"" + cg.kernel->text + "\" for " + what +
                         " (expected \"cuda-core\")");
  if (cg.mma && cg.mma->text != "none")
    fail(*cg.mma, "codegen.mma: \"" + cg.mma->text + "\" for " + what +
                      " (expected \"none\": it multiplies no matrices)");
  if (cg.blockQ && cg.blockQ->asInteger() != 4)
    fail(*cg.blockQ, "codegen.block_q: " + cg.blockQ->text + " for " + what +
                         " (expected 4: a warp per row, 4 rows per block)");
  for (const Value *other : {cg.blockKV, cg.keyBlockParts, cg.splits})
    if (other)
      fail(*other, "codegen: " + what +
                       " has no key blocks or key chunks (expected only "
                       "kernel, mma, block_q and threads), got " +
                       other->text);
  if (cg.threads && cg.threads->asInteger() != int64_t(k.block[0]))
    fail(*cg.threads, "codegen.threads: " + cg.threads->text +
                          ", but block[0] is " + std::to_string(k.block[0]) +
                          " (threads is the block's x size)");
  if (k.block != std::array<uint32_t, 3>{128, 1, 1})
    fail(block, "block: " + formatShape({k.block[0], k.block[1], k.block[2]}) +
                    ", but " + what +
                    " runs 128 threads, [128, 1, 1] (a warp per row)");
  const std::array<int64_t, 3> want = {(k.rows + 3) / 4, 1, 1};
  if (want[0] != int64_t(k.grid[0]) || k.grid[1] != 1 || k.grid[2] != 1)
    fail(grid, "grid: " + gridText(k.grid) +
                   " does not match the problem: " + what +
                   " runs one block per 4 rows = (ceil(rows / 4), 1, 1) = " +
                   gridText(want));

  const Value &params = field(v, "params", what);
  k.rowDims = mergeRowDims(params, k);
  paramList(params, k, paramTable(k, false));
}

/// The row dimensions d... of a merge kernel, read from the shape of its
/// parameter partial_output ([splits, d..., value_dim]; static, at least 3
/// dimensions, the product of d... equal to "rows"). [rows] when the list
/// has no such parameter with a shape (paramList then reports it).
std::vector<int64_t> Validator::mergeRowDims(const Value &params,
                                             const KernelSpec &k) const {
  if (!params.isArray())
    return {k.rows};
  for (const Value &pv : params.array) {
    const Value *n = pv.isObject() ? pv.find("name") : nullptr;
    if (!n || !n->isString() || n->text != "partial_output")
      continue;
    const Value *sv = pv.find("shape");
    if (!sv)
      return {k.rows};
    const std::string at = "param 'partial_output': shape";
    std::vector<int64_t> s = shape(*sv, at);
    for (size_t i = 0; i < s.size(); ++i)
      if (s[i] == kRuntimeSize)
        fail(sv->array[i], at + "[" + std::to_string(i) +
                               "]: null, but a \"merge_partials\" kernel has "
                               "static shapes");
    if (s.size() < 3)
      fail(*sv, at + " " + formatShape(s) +
                    " does not match [splits, d..., value_dim] (expected at "
                    "least 3 dimensions: one or more row dimensions d... "
                    "between splits and value_dim)");
    std::vector<int64_t> dims(s.begin() + 1, s.end() - 1);
    int64_t product = 1;
    for (int64_t d : dims)
      product *= d; // shape() bounds the elements by 2^50
    if (product != k.rows)
      fail(*sv, at + " " + formatShape(s) + ": the row dimensions d... = " +
                    formatShape(dims) + " hold " + std::to_string(product) +
                    " rows, but the kernel's rows is " +
                    std::to_string(k.rows));
    return dims;
  }
  return {k.rows};
}

/// A packed kernel's grid: one block per (query block of the longest
/// sequence, query head, sequence), or for the backward's dkdv and dkdv_dq
/// stages per (key block of the longest sequence, times
/// codegen.key_block_parts, kv head, sequence). x is always computed at
/// launch from the offsets (a block past its own sequence's end exits at
/// once), so it must be null, and the kernel must carry the tile its
/// formula divides by.
void Validator::checkVarlenGrid(const Value &v, KernelSpec &k,
                                const Codegen &cg) const {
  const bool overKeys =
      k.stage == GradStage::DKDV || k.stage == GradStage::DKDVDQ;
  const std::string what =
      k.isGrad() ? "a packed \"" + std::string(stageName(k.stage)) +
                       "\" kernel (\"op\": \"varlen_attention_grad\")"
                 : std::string("a \"varlen_attention\" kernel");
  const Value *tile = overKeys ? cg.blockKV : cg.blockQ;
  const char *tileName = overKeys ? "codegen.block_kv" : "codegen.block_q";
  if (!tile)
    fail(v, what + " needs " + tileName +
                " (its grid is computed at launch from the longest "
                "sequence)");
  k.gridTile = tile->asInteger();
  k.gridParts = cg.keyBlockParts ? cg.keyBlockParts->asInteger() : 1;
  const std::string x =
      overKeys ? "max(1, ceil(longest key sequence / codegen.block_kv)) * "
                 "codegen.key_block_parts"
               : "max(1, ceil(longest query sequence / codegen.block_q))";
  const Value &grid = *v.find("grid");
  if (k.grid[0] != 0)
    fail(grid.array[0], "grid[0]: expected null for " + what + " (x = " + x +
                            ", computed at launch from the offsets), got " +
                            grid.array[0].text);
  const std::array<int64_t, 3> want = {0, overKeys ? k.kvHeads : k.queryHeads,
                                       k.batch == kRuntimeSize ? 0 : k.batch};
  if (int64_t(k.grid[1]) == want[1] && int64_t(k.grid[2]) == want[2])
    return;
  fail(grid, "grid: " + gridText(k.grid) + " does not match the problem: " +
                 what + " runs one block per " +
                 (overKeys ? "(key block of the longest sequence, kv head, "
                             "sequence) = (null: computed at launch, "
                             "kv_heads, batch) = "
                           : "(query block of the longest sequence, query "
                             "head, sequence) = (null: computed at launch, "
                             "query_heads, batch) = ") +
                 gridText(want));
}

} // namespace

Manifest parseManifest(const std::string &text, const std::string &path) {
  Value root = json::parse(text, path);
  return Validator(path).run(root);
}

Manifest loadManifest(const std::string &path) {
  return parseManifest(readFile(path, "manifest"), path);
}

//===----------------------------------------------------------------------===//
// Run-time sizes
//===----------------------------------------------------------------------===//

RuntimeSizes parseRuntimeSizes(const std::string &text) {
  RuntimeSizes sizes;
  auto bad = [&](const std::string &why) {
    throw Error("sizes '" + text + "': " + why +
                    " (expected name=value[,name=value...] with names "
                    "batch, query_len, key_len, num_pages, num_splits)",
                kExitInput);
  };
  size_t start = 0;
  while (start <= text.size()) {
    size_t end = text.find(',', start);
    if (end == std::string::npos)
      end = text.size();
    std::string part = text.substr(start, end - start);
    size_t eq = part.find('=');
    if (eq == std::string::npos)
      bad("'" + part + "' has no '='");
    std::string name = part.substr(0, eq), value = part.substr(eq + 1);
    int64_t *slot = name == "batch"        ? &sizes.batch
                    : name == "query_len"  ? &sizes.queryLen
                    : name == "key_len"    ? &sizes.keyLen
                    : name == "num_pages"  ? &sizes.numPages
                    : name == "num_splits" ? &sizes.splits
                                           : nullptr;
    if (!slot)
      bad("unknown size '" + name + "'");
    if (*slot)
      bad("'" + name + "' given twice");
    errno = 0;
    char *rest = nullptr;
    long long v = std::strtoll(value.c_str(), &rest, 10);
    if (value.empty() || errno || *rest || v < 1 || v > 2147483647LL)
      bad("'" + name + "' must be an integer in [1, 2^31 - 1], got '" + value +
          "'");
    *slot = v;
    start = end + 1;
  }
  return sizes;
}

std::string runtimeSizesText(const RuntimeSizes &s) {
  std::string text;
  auto add = [&](const char *name, int64_t v) {
    if (v)
      text += (text.empty() ? "" : ",") + std::string(name) + "=" +
              std::to_string(v);
  };
  add("batch", s.batch);
  add("query_len", s.queryLen);
  add("key_len", s.keyLen);
  add("num_pages", s.numPages);
  add("num_splits", s.splits);
  return text;
}

/// Throws for tensor parameter `p` of kernel `k` (its shape bound) when it
/// has more elements than int64 and sizeBytes can carry, or, with 32-bit
/// indices, 2^31 or more. A shape with a dimension still to be decided (a
/// split count at launch) is checked once bound.
void checkTensorElements(const KernelSpec &k, const ParamSpec &p,
                         int indexBits) {
  auto fail = [&](const std::string &message) {
    throw Error("kernel '" + k.name + "': " + message, kExitInput);
  };
  if (std::count(p.shape.begin(), p.shape.end(), kRuntimeSize))
    return;
  // The static part of a shape is below 2^50 elements, but times a batch,
  // a length and a padded length it can pass what int64 holds (and
  // sizeBytes with it): refuse that before numElements() is used.
  int64_t elements = 1;
  for (int64_t d : p.shape)
    if (__builtin_mul_overflow(elements, d, &elements) ||
        elements > (int64_t(1) << 56))
      fail("'" + p.name + "' " + formatShape(p.shape) +
           " has more than 2^56 elements");
  if (indexBits == 32 && p.numElements() >= (int64_t(1) << 31))
    fail("'" + p.name + "' " + formatShape(p.shape) + " has " +
         std::to_string(p.numElements()) +
         " elements: the kernels' 32-bit indices need fewer than 2^31 "
         "(compile with --index-bits=64 for larger tensors)");
}

namespace {

/// `k` with its run-time sizes (batch, query_len, key_len) bound; the split
/// count is bindSplits'.
KernelSpec bindLengths(const KernelSpec &k, const RuntimeSizes &sizes,
                       int indexBits);

} // namespace

int64_t splitRuleCount(const SplitRule &rule, int64_t gridY, int64_t batch,
                       int64_t keyLen, int64_t smCount) {
  const struct {
    int64_t value;
    const char *name;
  } args[] = {{rule.blocksPerSm, "split_rule.blocks_per_sm"},
              {rule.maxSplits, "split_rule.max_splits"},
              {rule.minChunkKeys, "split_rule.min_chunk_keys"},
              {gridY, "grid y"},
              {batch, "batch"},
              {keyLen, "key_len"},
              {smCount, "the SM count"}};
  for (const auto &a : args)
    if (a.value < 1)
      throw Error(std::string("split rule: ") + a.name + " = " +
                      std::to_string(a.value) + " (expected at least 1)",
                  kExitInput);
  // One wave: blocks_per_sm blocks on each SM, gridY * batch blocks per
  // chunk. (Products past int64, which no device or launch reaches, give
  // the clamps: more blocks than that, no limit; more per chunk, one.)
  int64_t blocks = 0, perChunk = 0, byWave = rule.maxSplits;
  if (__builtin_mul_overflow(gridY, batch, &perChunk))
    byWave = 1;
  else if (!__builtin_mul_overflow(rule.blocksPerSm, smCount, &blocks))
    byWave = std::min(rule.maxSplits, blocks / perChunk);
  // At least min_chunk_keys keys per chunk: no more chunks than that.
  const int64_t byKeys = (keyLen + rule.minChunkKeys - 1) / rule.minChunkKeys;
  return std::max<int64_t>(1, std::min({rule.maxSplits, byWave, byKeys}));
}

int64_t ruleSplits(const KernelSpec &splitKV, int64_t smCount) {
  auto fail = [&](const std::string &message) -> void {
    throw Error("kernel '" + splitKV.name + "': " + message, kExitInput);
  };
  if (splitKV.stage != GradStage::SplitKV || !splitKV.splitsAtLaunch())
    fail("the split rule is for the \"split_kv\" stage of a group whose "
         "split count is decided at launch (codegen.splits null)");
  if (splitKV.batch == kRuntimeSize || splitKV.keyLen == kRuntimeSize)
    fail("the split rule needs the batch and key length (bind the run-time "
         "sizes first)");
  return splitRuleCount(splitKV.splitRule, splitKV.grid[1], splitKV.batch,
                        splitKV.keyLen, smCount);
}

KernelSpec bindSplits(const KernelSpec &k, int64_t splits, int indexBits) {
  if (!k.splitsAtLaunch())
    return k;
  if (splits < 1 || splits > k.splitRule.maxSplits)
    throw Error("kernel '" + k.name +
                    "': num_splits = " + std::to_string(splits) +
                    ": expected 1 to " + std::to_string(k.splitRule.maxSplits) +
                    " (codegen.split_rule.max_splits)",
                kExitInput);
  KernelSpec b = k;
  b.splits = splits;
  // One block column per chunk: (S, R * kv_heads, batch).
  if (b.stage == GradStage::SplitKV)
    b.grid[0] = uint32_t(splits);
  for (ParamSpec &p : b.params) {
    if (p.kind == ParamSpec::Kind::I32 && p.name == "num_splits")
      p.sizeValue = int32_t(splits);
    // partial_output [B, S, Hq, Lq, Dv] and partial_lse [B, S, Hq, Lq].
    if (!p.isWorkspace || p.shape.size() < 2 || p.shape[1] != kRuntimeSize)
      continue;
    p.shape[1] = splits;
    checkTensorElements(b, p, indexBits);
  }
  return b;
}

void bindSplitsByRule(Manifest &m, int64_t smCount) {
  for (const GradGroup &g : forwardGroups(m)) {
    const KernelSpec &first = *g.kernels.front();
    if (!first.splitsAtLaunch())
      continue;
    const int64_t splits = ruleSplits(first, smCount);
    for (const KernelSpec *member : g.kernels) {
      KernelSpec &k = m.kernels[size_t(member - m.kernels.data())];
      k = bindSplits(k, splits, m.indexBits);
    }
  }
}

KernelSpec bindSizes(const KernelSpec &k, const RuntimeSizes &sizes,
                     int indexBits) {
  KernelSpec b = bindLengths(k, sizes, indexBits);
  if (b.splitsAtLaunch() && sizes.splits != 0)
    b = bindSplits(b, sizes.splits, indexBits);
  return b;
}

namespace {

KernelSpec bindLengths(const KernelSpec &k, const RuntimeSizes &sizes,
                       int indexBits) {
  // A packed kernel's sizes come from its sequence lengths (bindSequences).
  if (!k.hasRuntimeSizes() || k.isVarlen())
    return k;
  auto fail = [&](const std::string &message) -> void {
    throw Error("kernel '" + k.name + "': " + message, kExitInput);
  };
  KernelSpec b = k;
  const struct {
    int64_t *field;
    int64_t given;
    const char *name;
  } runtime[] = {{&b.batch, sizes.batch, "batch"},
                 {&b.queryLen, sizes.queryLen, "query_len"},
                 {&b.keyLen, sizes.keyLen, "key_len"},
                 {&b.numPages, sizes.numPages, "num_pages"}};
  for (const auto &r : runtime) {
    if (*r.field != kRuntimeSize)
      continue;
    if (r.given < 1 || r.given > 2147483647LL)
      fail(std::string(r.given ? "run-time size " : "no value for the "
                                                    "run-time size ") +
           r.name +
           (r.given ? " = " + std::to_string(r.given) +
                          " (expected 1 to 2^31 - 1)"
                    : std::string(" (give it, e.g. --sizes ") + r.name +
                          "=128)"));
    *r.field = r.given;
  }
  if (b.batch > 65535)
    fail("batch = " + std::to_string(b.batch) +
         ": the grid has one block row per batch entry, and CUDA allows at "
         "most 65535");
  // The compiler clamps window sides of kernels with run-time lengths to
  // 2^30, which is exact (and free of 32-bit overflow) only while
  // Lq + Lk <= 2^30. (A paged kernel's lengths are static: Lq and the
  // capacity.)
  const bool runtimeLengths =
      k.queryLen == kRuntimeSize || k.keyLen == kRuntimeSize;
  if (runtimeLengths && b.queryLen + b.keyLen > (int64_t(1) << 30))
    fail("query_len + key_len = " + std::to_string(b.queryLen + b.keyLen) +
         ": kernels with run-time sizes take at most 2^30 positions");

  auto bindMask = [&](std::array<int64_t, 4> &shape) {
    const int64_t full[4] = {b.batch, b.queryHeads, b.queryLen, b.keyLen};
    for (int d = 0; d < 4; ++d)
      if (shape[d] == kRuntimeSize)
        shape[d] = full[d];
  };
  bindMask(b.maskShape);
  bindMask(b.dropoutMaskShape);
  for (ParamSpec &p : b.params) {
    // num_splits is bindSplits'.
    if (p.kind == ParamSpec::Kind::I32 && p.name != "num_splits") {
      p.sizeValue = int32_t(sizeOf(b, p.name));
      continue;
    }
    if (p.kind != ParamSpec::Kind::Tensor)
      continue;
    // Dimension 0 is the batch; dimension 2 the key length for key, value
    // and their gradients, the query length rounded up to
    // query_len_multiple for a workspace (its rows padded to whole query
    // tiles), else the query length; dimension 3 (masks, [B, Hq, Lq, Lk]:
    // the only tensors with a run-time size there) the key length.
    const bool keys = p.name == "key" || p.name == "value" ||
                      p.name == "grad_key" || p.name == "grad_value";
    int64_t rows = b.queryLen;
    if (p.isWorkspace && p.queryLenMultiple > 0)
      rows = (b.queryLen + p.queryLenMultiple - 1) / p.queryLenMultiple *
             p.queryLenMultiple;
    // Dimension 1 of a split-KV workspace is the split count (bindSplits).
    const bool splitWorkspace = p.isWorkspace && b.isForwardStage();
    // Dimension 0 of a paged cache is its page count.
    const bool cache = p.name == "key_cache" || p.name == "value_cache";
    for (size_t d = 0; d < p.shape.size(); ++d) {
      if (p.shape[d] != kRuntimeSize || (splitWorkspace && d == 1))
        continue;
      p.shape[d] = d == 0 && cache ? b.numPages
                   : d == 0        ? b.batch
                   : d == 3        ? b.keyLen
                   : keys          ? b.keyLen
                                   : rows;
    }
    checkTensorElements(b, p, indexBits);
  }
  // The grid of docs/kernel-manifest.md, "Launch checks": over query
  // blocks, or over key blocks (times codegen.key_block_parts) for dkdv
  // and dkdv_dq.
  const bool overKeys =
      b.stage == GradStage::DKDV || b.stage == GradStage::DKDVDQ;
  const int64_t len = overKeys ? b.keyLen : b.queryLen;
  // A split-KV stage's null x is its split count (bindSplits).
  if (b.grid[0] == 0 && !b.isForwardStage()) {
    // codegen.key_block_parts may be as large as 2^40, so the product is
    // checked by division rather than computed and then compared.
    const int64_t blocks = (len + b.gridTile - 1) / b.gridTile;
    if (blocks > 2147483647 / b.gridParts)
      fail("grid x: " + std::to_string(b.gridParts) + " x " +
           std::to_string(blocks) + " blocks for " +
           (overKeys ? "key_len" : "query_len") + " = " +
           std::to_string(len) + ", more than the 2^31 - 1 CUDA allows");
    b.grid[0] = uint32_t(b.gridParts * blocks);
  }
  // z is the batch; y only for a split-KV combine stage, whose grid is
  // (rows / 4, batch, 1).
  if (b.grid[2] == 0)
    b.grid[2] = uint32_t(b.batch);
  if (b.grid[1] == 0)
    b.grid[1] = uint32_t(b.batch);
  return b;
}

} // namespace

Manifest bindSizes(const Manifest &m, const RuntimeSizes &sizes) {
  if (sizes.splits != 0 &&
      std::none_of(m.kernels.begin(), m.kernels.end(),
                   [](const KernelSpec &k) { return k.splitsAtLaunch(); }))
    throw Error("'" + m.path +
                    "': num_splits = " + std::to_string(sizes.splits) +
                    " given, but no split-KV group of this manifest decides "
                    "its split count at launch (codegen.splits null); "
                    "num_splits is for those",
                kExitInput);
  Manifest b = m;
  for (KernelSpec &k : b.kernels)
    k = bindSizes(k, sizes, m.indexBits);
  return b;
}

bool hasRuntimeSizes(const Manifest &m) {
  for (const KernelSpec &k : m.kernels)
    if (k.hasRuntimeSizes() && !k.isVarlen())
      return true;
  return false;
}

} // namespace attnrt
