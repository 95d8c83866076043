//===- Runner.cpp - run, validate and time manifest kernels ---------------===//

#include "attnrt/Runner.h"
#include "attnopt/Reference/AttentionGradReference.h"
#include "attnopt/Reference/PackedReference.h"
#include "attnopt/Reference/Philox.h"
#include "attnrt/Cuda.h"
#include "attnrt/HostData.h"
#include "attnrt/Manifest.h"
#include "attnrt/Merge.h"
#include "attnrt/Paged.h"
#include "attnrt/ReferenceKernel.h"
#include "attnrt/Runtime.h"
#include "attnrt/Util.h"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <functional>
#include <limits>
#include <map>
#include <memory>
#include <set>

namespace attnrt {
namespace {

constexpr uint64_t kGuardBytes = 256; // after each output, must stay intact
constexpr uint8_t kGuardByte = 0xA5;
constexpr uint8_t kPoisonByte = 0xFF; // NaN in f16, bf16 and f32

void out(const std::string &s) {
  std::fputs(s.c_str(), stdout);
  std::fflush(stdout);
}

void warn(const std::string &s) {
  std::fflush(stdout);
  std::fprintf(stderr, "attn-run: warning: %s\n", s.c_str());
  std::fflush(stderr);
}

std::string sci(double v) {
  if (std::isnan(v))
    return "nan";
  return format("%.3e", v);
}

std::string shortFloat(double v) { return format("%g", v); }

std::string noSpaces(std::string s) {
  s.erase(std::remove(s.begin(), s.end(), ' '), s.end());
  return s;
}

std::string windowText(const KernelSpec &k) {
  if (!k.hasWindow)
    return "none";
  return std::to_string(k.windowLeft) + "," + std::to_string(k.windowRight);
}

std::string maskText(const KernelSpec &k) {
  if (!k.hasMask)
    return "none";
  return std::string(dtypeName(k.maskDtype)) +
         noSpaces(formatShape({k.maskShape.begin(), k.maskShape.end()}));
}

double median(std::vector<float> v) {
  std::sort(v.begin(), v.end());
  size_t n = v.size();
  if (n == 0)
    return NAN;
  return n % 2 ? v[n / 2] : 0.5 * (double(v[n / 2 - 1]) + double(v[n / 2]));
}

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

std::string msText(double ms) {
  return std::isnan(ms) ? std::string("nan") : format("%.5f", ms);
}

std::string tflopsText(double t) {
  return std::isnan(t) ? std::string("nan") : format("%.3f", t);
}

/// The problem's fields of a RESULT/TRAIN line, from dtype to mask. A
/// packed kernel has no single length: its token totals Tq, Tk and its
/// longest sequences Lq_max, Lk_max instead of Lq, Lk; a paged kernel its
/// capacity Lk_max and its cache geometry.
std::string problemFields(const KernelSpec &k) {
  std::string s;
  s += std::string(" dtype=") + dtypeName(k.dtype);
  s += " B=" + std::to_string(k.batch) + " Hq=" + std::to_string(k.queryHeads) +
       " Hkv=" + std::to_string(k.kvHeads);
  if (k.isVarlen())
    s += " Tq=" + std::to_string(k.totalQueryTokens) +
         " Tk=" + std::to_string(k.totalKeyTokens) +
         " Lq_max=" + std::to_string(k.queryLen) +
         " Lk_max=" + std::to_string(k.keyLen);
  else if (k.isPaged())
    s += " Lq=" + std::to_string(k.queryLen) +
         " Lk_max=" + std::to_string(k.keyLen) +
         " page_size=" + std::to_string(k.pageSize) +
         " num_pages=" + std::to_string(k.numPages) +
         " max_pages_per_seq=" + std::to_string(k.maxPagesPerSeq);
  else
    s += " Lq=" + std::to_string(k.queryLen) +
         " Lk=" + std::to_string(k.keyLen);
  s += " D=" + std::to_string(k.headDim) + " Dv=" + std::to_string(k.valueDim);
  s += std::string(" causal=") + causalName(k.causal);
  s += " window=" + windowText(k);
  s += " softcap=" + (k.hasSoftcap ? shortFloat(k.softcap) : "none");
  s += " dropout=" + shortFloat(k.dropoutP);
  s += " mask=" + maskText(k);
  return s;
}

std::string resultLine(const KernelSpec &k, const KernelResult &r) {
  std::string s = "RESULT";
  s += " name=" + k.name;
  s += k.op == KernelOp::Attention ? "" : std::string(" op=") + opName(k.op);
  if (k.isGrad() || k.isForwardStage())
    s += std::string(" stage=") + stageName(k.stage) +
         (k.group.empty() ? std::string() : " group=" + k.group);
  // The key chunks of the launch (decided at launch where the manifest
  // leaves codegen.splits null).
  if (k.isForwardStage())
    s += " splits=" + std::to_string(k.splits);
  // A merge kernel has no attention problem: its dtypes and sizes.
  s += k.isMerge() ? std::string(" dtype=") + dtypeName(k.dtype) +
                         " partial_dtype=" + dtypeName(k.partialDtype) +
                         " S=" + std::to_string(k.splits) +
                         " rows=" + std::to_string(k.rows) +
                         " Dv=" + std::to_string(k.valueDim)
                   : problemFields(k);
  s += std::string(" lse=") + (k.hasLse ? "1" : "0");
  s += format(" flops=%.6e", k.flops());
  s += std::string(" causal_halved=") + (k.flopsHalvedForCausal() ? "1" : "0");
  s += " ms=" + msText(r.ms);
  s += " tflops=" + tflopsText(r.tflops);
  s += " gbps=" +
       (std::isnan(r.gbps) ? std::string("nan") : format("%.1f", r.gbps));
  s += " max_rel_err=" + sci(r.outErr);
  s += " lse_err=" + sci(r.lseErr);
  if (k.isGrad()) {
    // The errors of the gradients this stage writes (none for prep).
    for (const std::string &out : stageOutputs(k.stage))
      if (out == "grad_query")
        s += " dq_err=" + sci(r.dqErr);
      else if (out == "grad_key")
        s += " dk_err=" + sci(r.dkErr) + " dv_err=" + sci(r.dvErr);
    s += " repeat_identical=" +
         (r.repeatIdentical < 0 ? std::string("nan")
                                : std::to_string(r.repeatIdentical));
  }
  s += " nans=" + (r.nans < 0 ? std::string("nan") : std::to_string(r.nans));
  s += " status=" + r.status;
  return s + "\n";
}

/// "'name' [shape] dtype", naming a buffer in error messages.
std::string bufferName(const ParamSpec &ps) {
  return "'" + ps.name + "' " + formatShape(ps.shape) + " " +
         dtypeName(ps.dtype);
}

/// Fills `buffer` (of `spec`, followed by kGuardBytes) with the NaN pattern
/// and its guard.
void poisonWithGuard(DeviceBuffer &buffer, const ParamSpec &spec) {
  uint64_t bytes = spec.sizeBytes();
  buffer.fill(kPoisonByte, bytes);
  buffer.fill(kGuardByte, kGuardBytes, bytes);
}

/// Reports writes past the end of `buffer` (of `spec`, followed by
/// kGuardBytes); false if there were any.
bool checkGuard(const DeviceBuffer &buffer, const ParamSpec &spec) {
  std::vector<uint8_t> guard(kGuardBytes);
  buffer.download(guard.data(), kGuardBytes, spec.sizeBytes());
  int64_t bad = std::count_if(guard.begin(), guard.end(),
                              [](uint8_t x) { return x != kGuardByte; });
  if (bad)
    out(format("  '%s': %lld of the %llu bytes after the end were "
               "written  <-- FAIL (out-of-bounds write)\n",
               spec.name.c_str(), (long long)bad,
               (unsigned long long)kGuardBytes));
  return bad == 0;
}

/// One kernel parameter, bound to its data: an owned device buffer, or a
/// buffer borrowed from elsewhere (another binding, or SharedBuffers).
struct Bound {
  const ParamSpec *spec = nullptr;
  DeviceBuffer buffer; // empty when borrowed
  CUdeviceptr ptr = 0; // what the kernel gets
  uint64_t scalar = 0;
  int32_t size = 0; // an i32 run-time size parameter
  bool borrowed = false;
  /// A tensor map, encoded over the tensor bound before it (passed by
  /// value: the kernel parameter is the map itself, so it lives here, as
  /// long as the binding; CUtensorMap's type gives the 64-byte alignment,
  /// and make_unique honours it).
  CUtensorMap map;
};

/// The parameters of one kernel: device buffers in parameter order (so that
/// a problem too large for the GPU fails before any host memory is spent on
/// it); outputs are poisoned and followed by a guard region.
class Binding {
public:
  Binding(const KernelSpec &k,
          const std::map<std::string, CUdeviceptr> &borrow = {}) {
    for (const ParamSpec &ps : k.params) {
      auto b = std::make_unique<Bound>();
      b->spec = &ps;
      if (ps.kind == ParamSpec::Kind::U64) {
        args.push_back(&b->scalar);
      } else if (ps.kind == ParamSpec::Kind::I32) {
        b->size = ps.sizeValue;
        args.push_back(&b->size);
      } else if (ps.kind == ParamSpec::Kind::TensorMap) {
        encodeMap(*b);
        args.push_back(&b->map);
      } else {
        auto it = borrow.find(ps.name);
        if (it != borrow.end()) {
          b->ptr = it->second;
          b->borrowed = true;
        } else {
          uint64_t bytes = ps.sizeBytes();
          b->buffer = DeviceBuffer(bytes + (ps.isOutput ? kGuardBytes : 0),
                                   bufferName(ps));
          b->ptr = b->buffer.ptr();
        }
        args.push_back(&b->ptr);
      }
      bound.push_back(std::move(b));
    }
    poisonOutputs();
  }

  /// Encodes tensor map `b` over the tensor bound before it (owned or
  /// borrowed: its pointer does not change for the binding's life).
  void encodeMap(Bound &b) {
    const Bound *tensor = find(b.spec->mapOf);
    encodeTensorMap(*b.spec, *tensor->spec, tensor->ptr, &b.map);
  }

  Bound *find(const std::string &name) {
    for (auto &b : bound)
      if (b->spec->name == name)
        return b.get();
    return nullptr;
  }
  CUdeviceptr ptr(const std::string &name) {
    Bound *b = find(name);
    return b ? b->ptr : 0;
  }
  std::vector<void *> &params() { return args; }
  void setScalars(uint64_t seed, uint64_t offset) {
    if (Bound *b = find("seed"))
      b->scalar = seed;
    if (Bound *b = find("offset"))
      b->scalar = offset;
  }
  /// The owned outputs, in parameter order.
  std::vector<Bound *> outputs() {
    std::vector<Bound *> v;
    for (auto &b : bound)
      if (b->spec->isOutput && !b->borrowed)
        v.push_back(b.get());
    return v;
  }
  /// Fills the outputs with the NaN pattern and their guards.
  void poisonOutputs() {
    for (Bound *b : outputs())
      poisonWithGuard(b->buffer, *b->spec);
  }
  /// Reports writes past the end of the outputs; false if there were any.
  bool checkGuards() {
    bool ok = true;
    for (Bound *b : outputs())
      ok = checkGuard(b->buffer, *b->spec) && ok;
    return ok;
  }
  /// Adds this kernel's tensors (not its workspaces) and its seed/offset
  /// to `args`, for a launch through the runtime library.
  void addTo(Arguments &args) const {
    uint64_t seed = args.seed(), offset = args.offset();
    for (const auto &b : bound) {
      if (b->spec->kind == ParamSpec::Kind::Tensor && !b->spec->isWorkspace)
        args.set(b->spec->name, b->ptr);
      else if (b->spec->name == "seed")
        seed = b->scalar;
      else if (b->spec->name == "offset")
        offset = b->scalar;
    }
    args.dropoutSeed(seed, offset);
  }
  /// The raw bytes of an owned output.
  std::vector<uint8_t> bytesOf(Bound *b) {
    std::vector<uint8_t> v(b->spec->sizeBytes());
    b->buffer.download(v.data(), v.size());
    return v;
  }

private:
  std::vector<std::unique_ptr<Bound>> bound;
  std::vector<void *> args;
};

/// The buffers that backward kernels share: their inputs (allocated and
/// uploaded once, or borrowed from the forward kernel's binding in
/// training) and the workspaces of each group (one allocation per group and
/// name, NaN-poisoned with a guard, like outputs). Each kernel still owns
/// the gradients it writes.
class SharedBuffers {
public:
  /// Parameter `name` of every backward kernel is `ptr`, owned elsewhere.
  void borrow(const std::string &name, CUdeviceptr ptr) {
    entries[name].ptr = ptr;
  }

  /// Binds backward kernel `k` of the group called `groupKey`: its inputs
  /// and workspaces from here (allocated at first use), its outputs its
  /// own.
  std::unique_ptr<Binding> bind(const KernelSpec &k,
                                const std::string &groupKey) {
    std::map<std::string, CUdeviceptr> borrowed;
    for (const ParamSpec &ps : k.params)
      if (ps.kind == ParamSpec::Kind::Tensor && !ps.isOutput)
        borrowed[ps.name] = provide(
            ps.isWorkspace ? workspaceKey(groupKey, ps.name) : ps.name, ps);
    return std::make_unique<Binding>(k, borrowed);
  }

  /// The workspaces of a group, in the order they were first bound.
  std::vector<std::pair<const ParamSpec *, DeviceBuffer *>>
  workspaces(const std::string &groupKey) {
    std::vector<std::pair<const ParamSpec *, DeviceBuffer *>> v;
    for (const std::string &key : workspaceKeys)
      if (key.compare(0, groupKey.size() + 1, groupKey + "/") == 0)
        v.emplace_back(entries[key].spec, &entries[key].buffer);
    return v;
  }
  /// Fills a group's workspaces with the NaN pattern (so that a kernel
  /// reading what no earlier kernel wrote shows up) and their guards.
  void poisonWorkspaces(const std::string &groupKey) {
    for (auto &w : workspaces(groupKey))
      poisonWithGuard(*w.second, *w.first);
  }
  /// Reports writes past the end of a group's workspaces; false if any.
  bool checkWorkspaceGuards(const std::string &groupKey) {
    bool ok = true;
    for (auto &w : workspaces(groupKey))
      ok = checkGuard(*w.second, *w.first) && ok;
    return ok;
  }

private:
  struct Entry {
    CUdeviceptr ptr = 0;
    const ParamSpec *spec = nullptr;
    DeviceBuffer buffer; // empty when borrowed
  };
  std::map<std::string, Entry> entries;
  std::vector<std::string> workspaceKeys;

  static std::string workspaceKey(const std::string &groupKey,
                                  const std::string &name) {
    return groupKey + "/" + name;
  }

  CUdeviceptr provide(const std::string &key, const ParamSpec &spec) {
    Entry &e = entries[key];
    if (e.ptr)
      return e.ptr;
    e.spec = &spec;
    e.buffer =
        DeviceBuffer(spec.sizeBytes() + (spec.isWorkspace ? kGuardBytes : 0),
                     bufferName(spec));
    e.ptr = e.buffer.ptr();
    if (spec.isWorkspace)
      workspaceKeys.push_back(key);
    return e.ptr;
  }
};

/// Uploads seeded random values to the tensor at `ptr`.
void uploadRandom(InputGenerator &gen, const ParamSpec &spec, CUdeviceptr ptr,
                  double lo, double hi, bool isMask, int64_t maskRowLen) {
  HostTensor t(spec.dtype, spec.shape);
  if (isMask)
    gen.fillMask(t, maskRowLen, /*keepValues=*/false);
  else
    gen.fill(t, lo, hi, /*keepValues=*/false);
  ATTNRT_CU_CHECK_MSG(cuMemcpyHtoD(ptr, t.data(), t.sizeBytes()),
                      "uploading '" + spec.name + "'");
}

/// Inputs q, k, v, mask, then seed and offset, then the explicit dropout
/// keep mask (random bits, kept with probability 1 - dropout_p), from the
/// seeded generator; each rounded to its type on the host, uploaded and
/// dropped. Sets p.seed/p.offset and the binding's seed/offset.
void uploadInputs(const KernelSpec &k, Binding &binding, InputGenerator &gen,
                  attnopt::ref::AttentionProblem &p) {
  uploadRandom(gen, *binding.find("query")->spec, binding.ptr("query"), -2.0,
               2.0, false, 0);
  uploadRandom(gen, *binding.find("key")->spec, binding.ptr("key"), -2.0, 2.0,
               false, 0);
  uploadRandom(gen, *binding.find("value")->spec, binding.ptr("value"), -1.0,
               1.0, false, 0);
  if (Bound *m = binding.find("mask"))
    uploadRandom(gen, *m->spec, m->ptr, 0.0, 0.0, true, k.maskShape[3]);
  // A packed kernel's offsets: the lengths bound to it (bindSequences).
  for (const char *name : {"cu_seqlens_q", "cu_seqlens_k"})
    if (Bound *cu = binding.find(name)) {
      const std::vector<int32_t> &offsets =
          std::string(name) == "cu_seqlens_q" ? k.cuSeqlensQ : k.cuSeqlensK;
      ATTNRT_CU_CHECK_MSG(cuMemcpyHtoD(cu->ptr, offsets.data(),
                                       offsets.size() * sizeof(int32_t)),
                          std::string("uploading '") + name + "'");
    }
  p.seed = gen.next();
  p.offset = gen.next() & 0xFFFFFFFFFFull;
  binding.setScalars(p.seed, p.offset);
  if (Bound *keep = binding.find("dropout_mask")) {
    HostTensor t(keep->spec->dtype, keep->spec->shape);
    gen.fillKeep(t, k.dropoutP, /*keepValues=*/false);
    ATTNRT_CU_CHECK_MSG(cuMemcpyHtoD(keep->ptr, t.data(), t.sizeBytes()),
                        "uploading 'dropout_mask'");
  }
}

/// The caches of a paged group as uploaded (the reference gathers each
/// sequence's keys and values from them).
struct PagedCaches {
  HostTensor key, value;
};

/// The inputs of a paged group (docs/kernel-manifest.md, "Paged key/value
/// caches"): query uniform in [-2, 2], every page of key_cache in [-2, 2]
/// and of value_cache in [-1, 1] from the seeded generator, and the cache
/// lengths and block table bound to the kernel (bindPaged), checked
/// against the contract on exactly the host copies that are uploaded.
PagedCaches uploadPagedInputs(const KernelSpec &k, Binding &binding,
                              InputGenerator &gen) {
  checkPagedInputs(k, k.cacheSeqlens, k.blockTable,
                   "kernel '" + k.name + "' (before launch)");
  uploadRandom(gen, *binding.find("query")->spec, binding.ptr("query"), -2.0,
               2.0, false, 0);
  PagedCaches c;
  const struct {
    const char *name;
    HostTensor *host;
    double lo, hi;
  } caches[] = {{"key_cache", &c.key, -2.0, 2.0},
                {"value_cache", &c.value, -1.0, 1.0}};
  for (const auto &cache : caches) {
    Bound *b = binding.find(cache.name);
    *cache.host = HostTensor(b->spec->dtype, b->spec->shape);
    gen.fill(*cache.host, cache.lo, cache.hi, /*keepValues=*/false);
    ATTNRT_CU_CHECK_MSG(
        cuMemcpyHtoD(b->ptr, cache.host->data(), cache.host->sizeBytes()),
        std::string("uploading '") + cache.name + "'");
  }
  const struct {
    const char *name;
    const std::vector<int32_t> *values;
  } ints[] = {{"block_table", &k.blockTable},
              {"cache_seqlens", &k.cacheSeqlens}};
  for (const auto &in : ints) {
    Bound *b = binding.find(in.name);
    if (uint64_t(in.values->size() * sizeof(int32_t)) != b->spec->sizeBytes())
      throw Error("kernel '" + k.name + "': '" + in.name + "' " +
                      formatShape(b->spec->shape) + " but " +
                      std::to_string(in.values->size()) + " values bound",
                  kExitFailure);
    ATTNRT_CU_CHECK_MSG(cuMemcpyHtoD(b->ptr, in.values->data(),
                                     in.values->size() * sizeof(int32_t)),
                        std::string("uploading '") + in.name + "'");
  }
  return c;
}

/// grad_output: uniform in [-1, 1], drawn after the forward's inputs.
void uploadGradOutput(const ParamSpec &spec, CUdeviceptr ptr,
                      InputGenerator &gen) {
  uploadRandom(gen, spec, ptr, -1.0, 1.0, false, 0);
}

/// The tensor at `ptr` (of `spec`'s type and shape) as doubles.
std::vector<double> downloadAsDouble(const ParamSpec &spec, CUdeviceptr ptr) {
  HostTensor t(spec.dtype, spec.shape);
  ATTNRT_CU_CHECK_MSG(cuMemcpyDtoH(t.data(), ptr, t.sizeBytes()),
                      "downloading '" + spec.name + "'");
  return t.toDouble();
}

std::vector<double> downloadDoubles(const DeviceBuffer &b) {
  std::vector<double> v(size_t(b.size() / sizeof(double)));
  b.download(v.data(), v.size() * sizeof(double));
  return v;
}

double elapsedMs(std::chrono::steady_clock::time_point t0) {
  return std::chrono::duration<double, std::milli>(
             std::chrono::steady_clock::now() - t0)
      .count();
}

/// The float64 GPU reference forward of a problem, on device and host.
struct ReferenceForward {
  DeviceBuffer out, lse; // double
  std::vector<double> hostOut, hostLse;
  double ms = 0.0;
};

ReferenceForward referenceForward(const KernelSpec &k,
                                  const attnopt::ref::AttentionProblem &p,
                                  CUdeviceptr q, CUdeviceptr kk, CUdeviceptr v,
                                  CUdeviceptr mask, bool download,
                                  CUdeviceptr dropoutMask = 0) {
  ReferenceForward r;
  // A packed problem's p.batch counts sequences, not rows of the tensors:
  // its output is [Tq, Hq, Dv] and its lse [Hq, Tq].
  const int64_t outElements =
      k.isVarlen() ? p.queryLen * p.queryHeads * p.valueDim
                   : p.outputElements();
  const int64_t lseElements =
      k.isVarlen() ? p.queryHeads * p.queryLen : p.lseElements();
  r.out = DeviceBuffer(uint64_t(outElements) * sizeof(double),
                       "the reference output (f64)");
  r.lse = DeviceBuffer(uint64_t(lseElements) * sizeof(double),
                       "the reference lse (f64)");
  auto t0 = std::chrono::steady_clock::now();
  if (k.isVarlen())
    runGpuReferenceVarlen(p, k.dtype, k.cuSeqlensQ, k.cuSeqlensK, q, kk, v,
                          r.out.ptr(), r.lse.ptr());
  else
    runGpuReference(p, k.dtype, k.maskDtype, q, kk, v, mask, r.out.ptr(),
                    r.lse.ptr(), dropoutMask);
  r.ms = elapsedMs(t0);
  if (download) {
    r.hostOut = downloadDoubles(r.out);
    r.hostLse = downloadDoubles(r.lse);
  }
  return r;
}

/// The float64 reference of a paged group (on host; the GPU reference
/// computes it): each sequence b is the dense problem of batch 1 with Lk =
/// cache_seqlens[b] on its query rows and the keys and values gathered
/// through its block table row (gatherPagedSequence), so the causal and
/// window rules align to its own length. A sequence with an empty cache
/// has no key: output 0 and lse -inf on every row.
ReferenceForward referencePaged(const KernelSpec &k,
                                const attnopt::ref::AttentionProblem &p,
                                CUdeviceptr q, const PagedCaches &caches) {
  ReferenceForward r;
  const int64_t rows = k.queryHeads * k.queryLen;
  const size_t elem = dtypeSize(k.dtype);
  r.hostOut.assign(size_t(k.batch * rows * k.valueDim), 0.0);
  r.hostLse.assign(size_t(k.batch * rows),
                   -std::numeric_limits<double>::infinity());
  auto t0 = std::chrono::steady_clock::now();
  for (int64_t b = 0; b < k.batch; ++b) {
    const int64_t len = k.cacheSeqlens[size_t(b)];
    if (len == 0)
      continue;
    attnopt::ref::AttentionProblem pb = p;
    pb.batch = 1;
    pb.keyLen = len;
    const int32_t *row = k.blockTable.data() + b * k.maxPagesPerSeq;
    std::vector<uint8_t> keys(size_t(k.kvHeads * len * k.headDim) * elem),
        values(size_t(k.kvHeads * len * k.valueDim) * elem);
    gatherPagedSequence(k, caches.key.data(), elem, k.headDim, row, len,
                        keys.data());
    gatherPagedSequence(k, caches.value.data(), elem, k.valueDim, row, len,
                        values.data());
    const std::string seq = " of sequence " + std::to_string(b);
    DeviceBuffer dk(keys.size(), "the gathered keys" + seq),
        dv(values.size(), "the gathered values" + seq),
        out(uint64_t(rows * k.valueDim) * sizeof(double),
            "the reference output" + seq + " (f64)"),
        lse(uint64_t(rows) * sizeof(double),
            "the reference lse" + seq + " (f64)");
    dk.upload(keys.data(), keys.size());
    dv.upload(values.data(), values.size());
    runGpuReference(pb, k.dtype, k.maskDtype,
                    q + CUdeviceptr(b * rows * k.headDim * int64_t(elem)),
                    dk.ptr(), dv.ptr(), 0, out.ptr(), lse.ptr());
    out.download(r.hostOut.data() + b * rows * k.valueDim,
                 uint64_t(rows * k.valueDim) * sizeof(double));
    lse.download(r.hostLse.data() + b * rows, uint64_t(rows) * sizeof(double));
  }
  r.ms = elapsedMs(t0);
  return r;
}

/// Compares the forward kernel's output (and lse) with the reference; prints
/// the report lines and fills `result`. False on a failure.
bool checkForward(const KernelSpec &k, Binding &binding,
                  const ReferenceForward &ref, const RunOptions &options,
                  KernelResult &result) {
  Bound *oB = binding.find("output"), *lB = binding.find("lse");
  std::vector<double> gotO = downloadAsDouble(*oB->spec, oB->ptr);
  std::vector<double> gotL;
  if (lB)
    gotL = downloadAsDouble(*lB->spec, lB->ptr);
  Comparison c = compareResults(gotO, ref.hostOut, lB ? &gotL : nullptr,
                                &ref.hostLse);
  double tol = options.outTolerance >= 0 ? options.outTolerance
                                         : defaultOutputTolerance(k.dtype);
  result.outErr = c.outRelErr;
  result.nans = c.outNaNs + c.lseNaNs;
  bool ok = true;
  bool outOk = c.outNaNs == 0 && c.outRelErr <= tol;
  out(format("  output: max rel err %.3e (max abs diff %.3e, max |ref| "
             "%.3e; tolerance %.1e), NaN/inf %lld%s\n",
             c.outRelErr, c.outMaxAbsDiff, c.refMaxAbs, tol,
             (long long)c.outNaNs, outOk ? "" : "  <-- FAIL"));
  ok = ok && outOk;
  if (lB) {
    result.lseErr = c.lseErr;
    bool lseOk = c.lseNaNs == 0 && c.lseInfMismatches == 0 &&
                 c.lseErr <= options.lseTolerance;
    out(format("  lse: max err %.3e (|l - r| / max(1, |r|); tolerance "
               "%.1e), -inf mismatches %lld, NaN %lld%s\n",
               c.lseErr, options.lseTolerance, (long long)c.lseInfMismatches,
               (long long)c.lseNaNs, lseOk ? "" : "  <-- FAIL"));
    ok = ok && lseOk;
  }
  out(format("  rows with no allowed key: %lld of %lld; float64 GPU "
             "reference took %.1f ms\n",
             (long long)c.emptyRows, (long long)ref.hostLse.size(), ref.ms));
  if (k.dropoutP > 0 && !k.hasDropoutMask)
    out("  note: dropout keep bits are checked through the output only\n");
  return binding.checkGuards() && ok;
}

/// The float64 GPU reference gradients, on host, and on demand (`sizes`)
/// the sizes of the terms each sums (runGpuReferenceGrad's magnitude pass).
struct ReferenceGrad {
  std::vector<double> dq, dk, dv;
  double ms = 0.0;
  std::vector<double> dqSize, dkSize, dvSize;
  /// Fills dqSize, dkSize, dvSize (once).
  std::function<void(ReferenceGrad &)> sizes;
};

ReferenceGrad referenceGrad(const KernelSpec &k,
                            const attnopt::ref::AttentionProblem &p,
                            CUdeviceptr q, CUdeviceptr kk, CUdeviceptr v,
                            CUdeviceptr mask, CUdeviceptr o, CUdeviceptr lse,
                            CUdeviceptr dout) {
  ReferenceGrad r;
  // A gradient has its input's shape (dense, or packed token-major).
  auto doubles = [&](const char *input) {
    return uint64_t(k.findParam(input)->numElements()) * sizeof(double);
  };
  const uint64_t dqBytes = doubles("query"), dkBytes = doubles("key"),
                 dvBytes = doubles("value");
  auto run = [=, &k](bool magnitude, std::vector<double> &outQ,
                     std::vector<double> &outK, std::vector<double> &outV) {
    DeviceBuffer dq(dqBytes, "the reference grad_query (f64)");
    DeviceBuffer dk(dkBytes, "the reference grad_key (f64)");
    DeviceBuffer dv(dvBytes, "the reference grad_value (f64)");
    if (k.isVarlen())
      runGpuReferenceVarlenGrad(p, k.dtype, k.cuSeqlensQ, k.cuSeqlensK, q, kk,
                                v, o, lse, dout, dq.ptr(), dk.ptr(), dv.ptr(),
                                magnitude);
    else
      runGpuReferenceGrad(p, k.dtype, k.maskDtype, q, kk, v, mask, o, lse, dout,
                          dq.ptr(), dk.ptr(), dv.ptr(), magnitude);
    outQ = downloadDoubles(dq);
    outK = downloadDoubles(dk);
    outV = downloadDoubles(dv);
  };
  auto t0 = std::chrono::steady_clock::now();
  run(false, r.dq, r.dk, r.dv);
  r.ms = elapsedMs(t0);
  // The inputs are still alive when checkGrad asks (the caller's buffers).
  r.sizes = [run](ReferenceGrad &g) {
    if (g.dqSize.empty() && g.dkSize.empty() && g.dvSize.empty())
      run(true, g.dqSize, g.dkSize, g.dvSize);
  };
  return r;
}

/// Where a gradient's terms cancel (a row with one visible key: dS = P (dP
/// - D) is 0 exactly), the reference is rounding noise and an error relative
/// to it means nothing. Such a gradient passes when each element is within
/// tolerance · max|ref| plus kCancellationFloor times the size of the terms
/// it sums (ReferenceGrad::sizes): 64 f32 unit roundoffs, the kernels'
/// accumulation precision with room for the order of their sums.
constexpr double kCancellationFloor = 64.0 * 5.9604644775390625e-8;

/// The largest |got - want| / (tol · max|want| + kCancellationFloor · size)
/// over the elements: at most 1 when the gradient is within the floor.
double cancellationRatio(const std::vector<double> &got,
                         const std::vector<double> &want,
                         const std::vector<double> &size, double tol,
                         double refMax) {
  double worst = 0.0;
  for (size_t e = 0; e < got.size() && e < want.size() && e < size.size();
       ++e) {
    double bound = tol * refMax + kCancellationFloor * size[e];
    double diff = std::fabs(got[e] - want[e]);
    if (!(diff <= bound)) // NaN too
      worst = std::max(worst, bound > 0.0 ? diff / bound : INFINITY);
  }
  return worst;
}

/// Rounds the reference forward to what a forward kernel would hand the
/// backward: output in the element type, lse in f32.
void roundForward(const KernelSpec &k, const ReferenceForward &ref,
                  CUdeviceptr o, CUdeviceptr lse) {
  runGpuRound(ref.out.ptr(), k.dtype, o, int64_t(ref.out.size() / 8));
  runGpuRound(ref.lse.ptr(), DType::F32, lse, int64_t(ref.lse.size() / 8));
}

/// Compares the gradients a backward kernel wrote with the reference;
/// prints the report lines (each gradient followed by `label`, which names
/// the writer in a group) and fills `result`. False on a failure. A kernel
/// writing no gradient (prep) leaves the errors unset.
bool checkGrad(const KernelSpec &k, Binding &binding, ReferenceGrad &ref,
               const RunOptions &options, KernelResult &result,
               const std::string &label = "") {
  double tol = options.gradTolerance >= 0 ? options.gradTolerance
                                          : defaultGradTolerance(k.dtype);
  bool ok = true;
  if (binding.outputs().empty())
    return binding.checkGuards();
  result.outErr = 0.0;
  result.nans = 0;
  for (Bound *b : binding.outputs()) {
    const std::string &n = b->spec->name;
    const std::vector<double> &want =
        n == "grad_query" ? ref.dq : n == "grad_key" ? ref.dk : ref.dv;
    std::vector<double> got = downloadAsDouble(*b->spec, b->ptr);
    Comparison c = compareResults(got, want, nullptr, nullptr);
    bool good = c.outNaNs == 0 && c.outRelErr <= tol;
    std::string floorNote;
    if (!good && c.outNaNs == 0 && ref.sizes) {
      ref.sizes(ref);
      const std::vector<double> &size = n == "grad_query" ? ref.dqSize
                                        : n == "grad_key" ? ref.dkSize
                                                          : ref.dvSize;
      double ratio = cancellationRatio(got, want, size, tol, c.refMaxAbs);
      good = ratio <= 1.0;
      floorNote = format("; cancelling terms: %s (worst %.2f of tolerance + "
                         "%.1e x |terms|)",
                         good ? "within their rounding" : "beyond it", ratio,
                         kCancellationFloor);
    }
    out(format("  %s%s: max rel err %.3e (max abs diff %.3e, max |ref| "
               "%.3e; tolerance %.1e%s), NaN/inf %lld%s\n",
               n.c_str(), label.c_str(), c.outRelErr, c.outMaxAbsDiff,
               c.refMaxAbs, tol, floorNote.c_str(), (long long)c.outNaNs,
               good ? "" : "  <-- FAIL"));
    (n == "grad_query" ? result.dqErr
     : n == "grad_key" ? result.dkErr
                       : result.dvErr) = c.outRelErr;
    result.outErr = std::max(result.outErr, c.outRelErr);
    result.nans += c.outNaNs;
    ok = ok && good;
  }
  return binding.checkGuards() && ok;
}

/// The sizes attn-run bound kernel `bound` to, as the runtime library takes
/// them: a split-KV group's S (given or by the rule), so that the library's
/// launch matches the buffers and the report; a paged group's batch and
/// page count (its key length is its capacity, which the library does not
/// take); none for a merge kernel.
RuntimeSizes apiSizes(const KernelSpec &bound) {
  RuntimeSizes sizes;
  if (bound.isMerge())
    return sizes;
  sizes.batch = bound.batch;
  sizes.queryLen = bound.queryLen;
  sizes.keyLen = bound.isPaged() ? 0 : bound.keyLen;
  sizes.numPages = bound.isPaged() ? bound.numPages : 0;
  sizes.splits = bound.isForwardStage() ? bound.splits : 0;
  return sizes;
}

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
const Library *apiLibrary = nullptr;

/// The library's kernel set that launches `kernelName`'s set.
const KernelSet &apiSetOf(const std::string &kernelName) {
  Expected<const KernelSet *> set = apiLibrary->find(kernelName);
  if (!set.ok())
    throw Error(set.status().message(), int(set.status().code()));
  return **set;
}

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
                             k.dynamicSharedMemory, ctx.info());
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

/// Launches the kernels of group `g` of `set` a second time on the same
/// inputs (outputs and workspaces poisoned again) and compares the bits of
/// every gradient with the first launch's. A difference fails only a
/// "deterministic" group (one whose dQ comes from atomics may differ);
/// otherwise it is reported as information. Sets each member's
/// repeatIdentical (a kernel writing no gradient gets the group's) and
/// clears ok[i] of a member that failed. Prints a line.
void checkRepeat(BackwardSet &set, const BackwardSet::Group &g,
                 SharedBuffers &shared, std::vector<KernelResult> &results,
                 std::vector<bool> &ok) {
  std::vector<std::vector<std::vector<uint8_t>>> first;
  for (size_t i : g.members) {
    first.emplace_back();
    for (Bound *b : set.binding(i).outputs())
      first.back().push_back(set.binding(i).bytesOf(b));
    set.binding(i).poisonOutputs();
  }
  shared.poisonWorkspaces(g.key);
  for (size_t i : g.members)
    set.launchChecked(i, " (repeat launch)");
  const bool deterministic = set.kernel(g.members.front()).deterministic;
  std::string text;
  bool groupSame = true;
  for (size_t m = 0; m < g.members.size(); ++m) {
    size_t i = g.members[m];
    bool same = true;
    size_t idx = 0;
    for (Bound *b : set.binding(i).outputs()) {
      std::vector<uint8_t> second = set.binding(i).bytesOf(b);
      const size_t width = dtypeSize(b->spec->dtype);
      int64_t differ = 0;
      for (size_t e = 0; e * width < second.size(); ++e)
        differ += std::memcmp(&first[m][idx][e * width], &second[e * width],
                              width) != 0;
      text += format("%s%s %lld of %lld elements differ",
                     text.empty() ? "" : "; ", b->spec->name.c_str(),
                     (long long)differ, (long long)b->spec->numElements());
      same = same && differ == 0;
      ++idx;
    }
    results[i].repeatIdentical = same ? 1 : 0;
    ok[i] = ok[i] && (same || !deterministic);
    groupSame = groupSame && same;
  }
  for (size_t i : g.members)
    if (set.binding(i).outputs().empty())
      results[i].repeatIdentical = groupSame ? 1 : 0;
  std::string verdict = groupSame       ? ""
                        : deterministic ? "  <-- FAIL"
                                        : "  (not required: \"deterministic\" "
                                          "is false)";
  out("  repeat launch" +
      (g.members.size() > 1 ? " of group '" + g.group.name + "'"
                            : std::string()) +
      " on the same inputs: " +
      std::string(groupSame ? "bit-identical" : "NOT bit-identical") + " (" +
      text + ")" + verdict + "\n");
}

struct Timing {
  double ms = NAN, minMs = NAN, maxMs = NAN;
};

/// `warmup` untimed calls of `launchAll`, then `iters` calls each between
/// its own pair of events; the median.
Timing timeLaunches(const std::function<void()> &launchAll, int warmup,
                    int iters, const std::string &what) {
  Timing t;
  for (int w = 0; w < warmup; ++w)
    launchAll();
  if (iters <= 0)
    return t;
  std::vector<Event> starts, stops;
  starts.reserve(iters);
  stops.reserve(iters);
  for (int it = 0; it < iters; ++it) {
    starts.emplace_back();
    stops.emplace_back();
  }
  for (int it = 0; it < iters; ++it) {
    starts[it].record();
    launchAll();
    stops[it].record();
  }
  stops.back().synchronize();
  ATTNRT_CU_CHECK_MSG(cuCtxSynchronize(), "running " + what +
                                              " (timed launches)");
  std::vector<float> times;
  for (int it = 0; it < iters; ++it)
    times.push_back(stops[it].elapsedSince(starts[it]));
  t.ms = median(times);
  t.minMs = *std::min_element(times.begin(), times.end());
  t.maxMs = *std::max_element(times.begin(), times.end());
  return t;
}

/// Times one kernel and fills the result's ms / tflops / gbps.
void timeKernel(const KernelSpec &k, Binding &binding,
                const KernelLauncher &launcher, const RunOptions &options,
                KernelResult &result) {
  Timing t = timeLaunches([&] { launcher.launch(binding.params()); },
                          options.warmup, options.iters,
                          "kernel '" + k.name + "'");
  if (std::isnan(t.ms))
    return;
  result.ms = t.ms;
  double seconds = result.ms * 1e-3;
  // A kernel executing no matrix products (prep, dq_convert) has no
  // meaningful TFLOP/s: nan rather than 0.
  result.tflops =
      seconds > 0 && k.flops() > 0 ? k.flops() / seconds / 1e12 : NAN;
  result.gbps = seconds > 0 ? double(k.bytesMoved()) / seconds / 1e9 : NAN;
  out(format("  time: median %.5f ms of %d launches (min %.5f, max %.5f) "
             "after %d warm-up\n",
             result.ms, options.iters, t.minMs, t.maxMs, options.warmup));
  if (k.isVarlen() && !k.isGrad()) {
    out(format("  %.4e FLOP (the sum over sequences of "
               "2*Hq*Lq_b*Lk_b*(D+Dv)%s) -> %.3f TFLOP/s; %s moved (Q, K, V, "
               "cu_seqlens, O%s once) -> %.1f GB/s\n",
               k.flops(),
               k.flopsHalvedForCausal()
                   ? ", halved: causal with Lq_b = Lk_b in every sequence"
                   : "",
               result.tflops, formatBytes(k.bytesMoved()).c_str(),
               k.hasLse ? ", lse" : "", result.gbps));
    return;
  }
  if (k.isForwardStage()) {
    std::string moved;
    for (const ParamSpec &p : k.params)
      if (p.kind == ParamSpec::Kind::Tensor)
        moved += (moved.empty() ? "" : ", ") + p.name;
    const std::string flopsText =
        k.flops() > 0
            ? format("%.4e FLOP (%s%s) -> %.3f TFLOP/s", k.flops(),
                     k.isPaged() ? "2*Hq*Lq*(the sum of the cache "
                                   "lengths)*(D+Dv)"
                                 : "2*B*Hq*Lq*Lk*(D+Dv)",
                     k.flopsHalvedForCausal() ? ", halved: causal with Lq = Lk"
                                              : ", dense",
                     result.tflops)
            : std::string("no matrix products (the combine stage; 0 FLOP "
                          "counted)");
    out(format("  %s; %s moved (%s once%s) -> %.1f GB/s\n", flopsText.c_str(),
               formatBytes(k.bytesMoved()).c_str(), moved.c_str(),
               k.isPaged() ? "; of the caches, the sequences' tokens" : "",
               result.gbps));
    return;
  }
  if (!k.isGrad()) {
    out(format("  %.4e FLOP (2*B*Hq*Lq*Lk*(D+Dv)%s) -> %.3f TFLOP/s; %s "
               "moved (Q, K, V, %sO%s once) -> %.1f GB/s\n",
               k.flops(),
               k.flopsHalvedForCausal() ? ", halved: causal with Lq = Lk"
                                        : ", dense",
               result.tflops, formatBytes(k.bytesMoved()).c_str(),
               (std::string(k.hasMask ? "mask, " : "") +
                (k.hasDropoutMask ? "dropout_mask, " : ""))
                   .c_str(),
               k.hasLse ? ", lse" : "", result.gbps));
    return;
  }
  std::string moved = k.hasMask ? "mask, " : k.isVarlen() ? "cu_seqlens, " : "";
  for (const ParamSpec &p : k.params)
    if (p.isWorkspace)
      moved += p.name + ", ";
  for (const std::string &o : stageOutputs(k.stage))
    moved += std::string(o == "grad_query" ? "dQ"
                         : o == "grad_key" ? "dK"
                                           : "dV") +
             (o == "grad_key" ? ", " : "");
  if (moved.size() >= 2 && moved.compare(moved.size() - 2, 2, ", ") == 0)
    moved.resize(moved.size() - 2);
  const char *products = k.stage == GradStage::DKDV     ? "2D+2Dv"
                         : k.stage == GradStage::DQ     ? "2D+Dv"
                         : k.stage == GradStage::DKDVDQ ? "3D+2Dv"
                                                        : nullptr;
  // A packed stage scores each sequence's own (query, key) pairs.
  const char *pairs = k.isVarlen() ? "the sum over sequences of 2*Hq*Lq_b*Lk_b"
                                   : "2*B*Hq*Lq*Lk";
  const char *halved = !k.flopsHalvedForCausal() ? ""
                       : k.isVarlen()
                           ? ", halved: causal with Lq_b = Lk_b in every "
                             "sequence"
                           : ", halved: causal with Lq = Lk";
  std::string flopsText =
      products ? format("%.4e FLOP (the %s stage's products: %s*(%s)%s) -> "
                        "%.3f TFLOP/s",
                        k.flops(), stageName(k.stage), pairs, products, halved,
                        result.tflops)
               : format("no matrix products (the %s stage; 0 FLOP counted)",
                        stageName(k.stage));
  out(format("  %s; %s moved (Q, K, V, O, lse, dO%s%s once) -> %.1f GB/s\n",
             flopsText.c_str(), formatBytes(k.bytesMoved()).c_str(),
             moved.empty() ? "" : ", ", moved.c_str(), result.gbps));
}

/// The sequences of a bound packed kernel, for its report: "  packed
/// (varlen_attention): 3 sequences, 900 query / 1200 key tokens\n  query
/// lengths [...]\n  key lengths [...]\n".
std::string packedText(const KernelSpec &k) {
  std::vector<int64_t> q = lengthsFromOffsets(k.cuSeqlensQ),
                       kl = lengthsFromOffsets(k.cuSeqlensK);
  return format("  packed (varlen_attention): %lld sequences, %lld query / "
                "%lld key tokens\n",
                (long long)k.batch, (long long)k.totalQueryTokens,
                (long long)k.totalKeyTokens) +
         "  query lengths " + lengthsText(q) + "\n  key lengths   " +
         (q == kl ? std::string("the same") : lengthsText(kl)) + "\n";
}

/// The cache of a bound paged kernel, for its report: "  paged cache: 40
/// pages of 16 tokens, block table [3, 12] (up to 192 tokens per
/// sequence)\n  cache lengths [...]\n".
std::string pagedText(const KernelSpec &k) {
  return format("  paged cache (paged_attention): %lld pages of %lld tokens, "
                "block table [%lld, %lld] (up to %lld tokens per sequence)\n",
                (long long)k.numPages, (long long)k.pageSize,
                (long long)k.batch, (long long)k.maxPagesPerSeq,
                (long long)k.keyLen) +
         "  cache lengths " +
         lengthsText(std::vector<int64_t>(k.cacheSeqlens.begin(),
                                          k.cacheSeqlens.end())) +
         "\n";
}

void printHeader(const KernelSpec &k, const KernelLauncher &launcher) {
  out("\nkernel " + k.name +
      (k.source.empty() ? std::string() : " (" + k.source + ")") + "\n");
  if (k.isGrad())
    out(std::string("  backward, stage ") + stageName(k.stage) +
        (k.deterministic ? ", deterministic" : "") +
        (k.group.empty() ? std::string() : ", group " + k.group) +
        (k.forward.empty() ? std::string() : ", forward kernel " + k.forward) +
        "\n");
  if (k.isForwardStage())
    out(std::string(k.isPaged() ? "  paged" : "  split-KV") +
        " forward, stage " + stageName(k.stage) + ", group " + k.group + ", " +
        std::to_string(k.splits) + " key chunks" +
        (k.splitRule.maxSplits ? " (decided at launch)" : "") + "\n");
  if (k.isVarlen())
    out(packedText(k));
  if (k.isPaged())
    out(pagedText(k));
  out(format("  %s B=%lld Hq=%lld Hkv=%lld %s=%lld %s=%lld D=%lld Dv=%lld "
             "scale=%g causal=%s",
             dtypeName(k.dtype), (long long)k.batch, (long long)k.queryHeads,
             (long long)k.kvHeads, k.isVarlen() ? "Lq_max" : "Lq",
             (long long)k.queryLen,
             k.isVarlen() || k.isPaged() ? "Lk_max" : "Lk", (long long)k.keyLen,
             (long long)k.headDim, (long long)k.valueDim, double(k.scale),
             causalName(k.causal)) +
      (k.hasWindow ? " window=[" + windowText(k) + "]" : "") +
      (k.hasSoftcap ? " softcap=" + shortFloat(k.softcap) : "") +
      (k.dropoutP > 0 ? " dropout_p=" + shortFloat(k.dropoutP) : "") +
      (k.hasMask ? " mask=" + maskText(k) : "") +
      (k.hasDropoutMask ? " dropout_mask=" +
                              noSpaces(formatShape({k.dropoutMaskShape.begin(),
                                                    k.dropoutMaskShape.end()}))
                        : "") +
      (k.hasLse ? " lse" : "") + "\n");
  const FunctionAttributes &attrs = launcher.attributes();
  out(format("  launch: grid [%u, %u, %u] block [%u, %u, %u], %u B dynamic "
             "shared memory; %d registers, %d B static shared, %d B local\n",
             k.grid[0], k.grid[1], k.grid[2], k.block[0], k.block[1],
             k.block[2], k.dynamicSharedMemory, attrs.numRegs,
             attrs.staticShared, attrs.localBytes));
  if (attrs.localBytes > 0)
    out(format("  note: %d bytes of local memory per thread (register "
               "spills or local arrays)\n",
               attrs.localBytes));
}

/// "a (prep), b (dkdv_dq), c (dq_convert)".
std::string memberList(const GradGroup &g) {
  std::string s;
  for (const KernelSpec *k : g.kernels)
    s += (s.empty() ? "" : ", ") + k->name + " (" + stageName(k->stage) + ")";
  return s;
}

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
ForwardKernels forwardOf(const Manifest &m, const KernelSpec &k) {
  if (!k.isForwardStage())
    return {k.name, false, {&k}};
  GradGroup g = findForwardGroup(m, k.group);
  return {g.name, true, g.kernels};
}

/// "kernel 'k'" or "forward group 'g'", in messages.
std::string forwardText(const ForwardKernels &f) {
  return (f.group ? "forward group '" : "kernel '") + f.name + "'";
}

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
                             k->block, k->dynamicSharedMemory, ctx.info());
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

/// Poisons the workspaces of a forward group (reporting them) before its
/// validated launch.
void prepareWorkspaces(ForwardSet &set) {
  std::string workspaces = set.workspaceText();
  if (!workspaces.empty())
    out("  workspaces: " + workspaces +
        " (one buffer each for the group, NaN-poisoned before the first "
        "launch)\n");
  set.poisonWorkspaces();
}

/// The float64 GPU reference of the launched forward `set`, on its inputs.
ReferenceForward referenceOf(ForwardSet &set,
                             const attnopt::ref::AttentionProblem &p) {
  return referenceForward(set.kernel(0), p, set.ptr("query"), set.ptr("key"),
                          set.ptr("value"), set.ptr("mask"), true,
                          set.ptr("dropout_mask"));
}

/// Validates the output and lse of the launched forward `set` as those of a
/// forward kernel, and the guards of its workspaces.
bool checkForwardSet(ForwardSet &set, const ReferenceForward &ref,
                     const RunOptions &options, KernelResult &result) {
  bool ok = checkForward(set.last(), set.lastBinding(), ref, options, result);
  return set.checkWorkspaceGuards() && ok;
}

/// Times each kernel of `set` alone and, for a group, the group back to
/// back (the forward's time); then gives every kernel the forward's status
/// and the last kernel (combine) its errors.
void timeForward(ForwardSet &set, const RunOptions &options, ForwardResult &r) {
  if (set.size() == 1) {
    timeKernel(set.kernel(0), set.binding(0), set.launcher(0), options,
               r.total);
    r.kernels.assign(1, r.total);
    return;
  }
  for (size_t i = 0; i < set.size(); ++i) {
    out("  kernel " + set.kernel(i).name + ":\n");
    timeKernel(set.kernel(i), set.binding(i), set.launcher(i), options,
               r.kernels[i]);
  }
  const ForwardKernels &f = set.kernels();
  Timing t = timeLaunches([&] { set.launchAll(); }, options.warmup,
                          options.iters, forwardText(f));
  const KernelSpec &k = set.last();
  // Q, K, V, mask read and O, lse written once (the workspaces aside).
  uint64_t bytes = 0;
  for (const ParamSpec &p : k.params)
    if (p.kind == ParamSpec::Kind::Tensor && !p.isWorkspace)
      bytes += k.bytesMovedBy(p);
  r.total.ms = t.ms;
  if (!std::isnan(t.ms) && t.ms > 0) {
    r.total.tflops = k.forwardFlops() / (t.ms * 1e-3) / 1e12;
    r.total.gbps = double(bytes) / (t.ms * 1e-3) / 1e9;
    out(format("  group %s (%zu kernels back to back): median %.5f ms (min "
               "%.5f, max %.5f) -> %.3f TFLOP/s (the forward's %.4e FLOP), "
               "%.1f GB/s (Q, K, V%s, %sO%s once)\n",
               f.name.c_str(), set.size(), t.ms, t.minMs, t.maxMs,
               r.total.tflops, k.forwardFlops(), r.total.gbps,
               k.isPaged() ? " of the sequences' tokens, block_table, "
                             "cache_seqlens"
                           : "",
               k.hasMask ? "mask, " : "", k.hasLse ? ", lse" : ""));
  }
  for (KernelResult &kr : r.kernels)
    kr.status = r.total.status;
  r.kernels.back().outErr = r.total.outErr;
  r.kernels.back().lseErr = r.total.lseErr;
  r.kernels.back().nans = r.total.nans;
}

/// A forward on its own: a kernel, or a split-KV group launched split_kv
/// then combine on shared workspaces. Inputs seeded, outputs and workspaces
/// poisoned, the first launch validated against the float64 reference
/// (output and lse as a forward kernel's), then timed.
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

/// The result of a backward group: one KernelResult per kernel (in group
/// order) and the group's own verdict and time.
struct GroupResult {
  std::string status = "ERROR";
  std::vector<KernelResult> kernels;
  double ms = NAN, tflops = NAN;
};

/// "row_dot [2, 8, 256] f32, ...": the workspaces of a bound group.
std::string workspaceList(SharedBuffers &shared, const std::string &key) {
  std::string s;
  for (auto &w : shared.workspaces(key))
    s += (s.empty() ? "" : ", ") + w.first->name + " " +
         formatShape(w.first->shape) + " f32";
  return s;
}

/// Validates the gradients of the bound backward kernels (all of `set`,
/// launched) against the reference: each kernel's outputs, each group's
/// workspace guards, then each group's repeat check. Fills `results` (by
/// set index) and returns per kernel whether it passed; a kernel writing no
/// gradient (prep) passes when its whole group does.
std::vector<bool> checkBackward(BackwardSet &set, SharedBuffers &shared,
                                ReferenceGrad &ref, const RunOptions &options,
                                std::vector<KernelResult> &results,
                                const std::function<void(size_t)> &before) {
  std::vector<bool> ok(set.size(), true);
  for (const BackwardSet::Group &g : set.groups()) {
    bool named = g.members.size() > 1;
    for (size_t i : g.members) {
      if (before)
        before(i);
      ok[i] = checkGrad(set.kernel(i), set.binding(i), ref, options, results[i],
                        named ? " (" + set.kernel(i).name + ")" : "");
    }
    bool groupOk = shared.checkWorkspaceGuards(g.key);
    checkRepeat(set, g, shared, results, ok);
    for (size_t i : g.members)
      groupOk = groupOk && ok[i];
    for (size_t i : g.members)
      if (set.binding(i).outputs().empty())
        ok[i] = groupOk;
  }
  return ok;
}

/// The kernels of one attn.attention_grad (a group; an old-style kernel is
/// a group of one) on their own: inputs q, k, v, mask, seed/offset and
/// grad_output uploaded once, output and lse from the float64 GPU reference
/// forward, rounded as a forward kernel would write them; workspaces shared
/// by the group; every kernel launched in manifest order, the gradients
/// validated, the group launched again for the repeat check; then each
/// kernel timed alone and the group back to back.
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

/// The GROUP line of an explicit group, after its kernels' RESULT lines:
/// the whole backward's time and the benchmark FLOPs (2.5 x forward).
std::string groupLine(const GradGroup &g, const GroupResult &r) {
  const KernelSpec &k = *g.kernels.front();
  std::string names, stages;
  for (const KernelSpec *x : g.kernels) {
    names += (names.empty() ? "" : ",") + x->name;
    stages += (stages.empty() ? "" : ",") + std::string(stageName(x->stage));
  }
  double dq = NAN, dk = NAN, dv = NAN, err = NAN;
  int repeat = -1;
  auto maxOf = [](double a, double b) {
    return std::isnan(a) ? b : std::isnan(b) ? a : std::max(a, b);
  };
  for (const KernelResult &x : r.kernels) {
    dq = maxOf(dq, x.dqErr);
    dk = maxOf(dk, x.dkErr);
    dv = maxOf(dv, x.dvErr);
    err = maxOf(err, x.outErr);
    if (x.repeatIdentical >= 0)
      repeat =
          repeat < 0 ? x.repeatIdentical : std::min(repeat, x.repeatIdentical);
  }
  std::string s =
      "GROUP name=" + g.name + " kernels=" + names + " stages=" + stages;
  s += problemFields(k);
  s += std::string(" deterministic=") + (k.deterministic ? "1" : "0");
  s += format(" bwd_flops=%.6e", k.backwardFlops());
  s += std::string(" causal_halved=") + (k.flopsHalvedForCausal() ? "1" : "0");
  s += " ms=" + msText(r.ms) + " tflops=" + tflopsText(r.tflops);
  s += " max_rel_err=" + sci(err) + " dq_err=" + sci(dq) +
       " dk_err=" + sci(dk) + " dv_err=" + sci(dv);
  s += " repeat_identical=" +
       (repeat < 0 ? std::string("nan") : std::to_string(repeat));
  s += " status=" + r.status;
  return s + "\n";
}

/// The GROUP line of a split-KV forward group, after its kernels' RESULT
/// lines: the forward's time (both launches), FLOPs, errors and verdict.
std::string forwardGroupLine(const ForwardKernels &f, const KernelResult &r) {
  const KernelSpec &k = *f.kernels.back();
  std::string names, stages;
  for (const KernelSpec *x : f.kernels) {
    names += (names.empty() ? "" : ",") + x->name;
    stages += (stages.empty() ? "" : ",") + std::string(stageName(x->stage));
  }
  std::string s =
      "GROUP name=" + f.name + " kernels=" + names + " stages=" + stages;
  s += problemFields(k);
  s += std::string(" lse=") + (k.hasLse ? "1" : "0");
  s += " splits=" + std::to_string(k.splits);
  s += format(" flops=%.6e", k.forwardFlops());
  s += std::string(" causal_halved=") + (k.flopsHalvedForCausal() ? "1" : "0");
  s += " ms=" + msText(r.ms) + " tflops=" + tflopsText(r.tflops);
  s += " gbps=" +
       (std::isnan(r.gbps) ? std::string("nan") : format("%.1f", r.gbps));
  s += " max_rel_err=" + sci(r.outErr) + " lse_err=" + sci(r.lseErr);
  s += " nans=" + (r.nans < 0 ? std::string("nan") : std::to_string(r.nans));
  s += " status=" + r.status;
  return s + "\n";
}

/// The RESULT lines of a forward's kernels, then a group's GROUP line.
void printForward(const ForwardKernels &f, const ForwardResult &r) {
  for (size_t i = 0; i < f.kernels.size(); ++i)
    out(resultLine(*f.kernels[i],
                   i < r.kernels.size() ? r.kernels[i] : KernelResult()));
  if (f.group)
    out(forwardGroupLine(f, r.total));
}

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

std::string trainLine(const TrainGroup &g, const TrainResult &r) {
  const KernelSpec &f = *g.forward.kernels.back();
  std::string names;
  for (const KernelSpec *b : g.backward)
    names += (names.empty() ? "" : ",") + b->name;
  double fwdFlops = f.forwardFlops(), bwdFlops = f.backwardFlops();
  auto tf = [](double flops, double ms) {
    return std::isnan(ms) || ms <= 0 ? NAN : flops / (ms * 1e-3) / 1e12;
  };
  std::string s = "TRAIN forward=" + g.forward.name + " backward=" + names;
  s += problemFields(f);
  s += format(" fwd_flops=%.6e bwd_flops=%.6e", fwdFlops, bwdFlops);
  s += std::string(" causal_halved=") + (f.flopsHalvedForCausal() ? "1" : "0");
  s += " fwd_ms=" + msText(r.fwdMs) + " bwd_ms=" + msText(r.bwdMs) +
       " fwdbwd_ms=" + msText(r.fwdBwdMs);
  s += " fwd_tflops=" + tflopsText(tf(fwdFlops, r.fwdMs)) +
       " bwd_tflops=" + tflopsText(tf(bwdFlops, r.bwdMs)) +
       " fwdbwd_tflops=" + tflopsText(tf(fwdFlops + bwdFlops, r.fwdBwdMs));
  double dq = NAN, dk = NAN, dv = NAN;
  int repeat = -1;
  for (const KernelResult &b : r.backward) {
    if (!std::isnan(b.dqErr))
      dq = std::isnan(dq) ? b.dqErr : std::max(dq, b.dqErr);
    if (!std::isnan(b.dkErr))
      dk = std::isnan(dk) ? b.dkErr : std::max(dk, b.dkErr);
    if (!std::isnan(b.dvErr))
      dv = std::isnan(dv) ? b.dvErr : std::max(dv, b.dvErr);
    if (b.repeatIdentical >= 0)
      repeat = repeat < 0 ? b.repeatIdentical
                          : std::min(repeat, b.repeatIdentical);
  }
  s += " out_err=" + sci(r.forward.total.outErr) +
       " lse_err=" + sci(r.forward.total.lseErr) + " dq_err=" + sci(dq) +
       " dk_err=" + sci(dk) + " dv_err=" + sci(dv);
  s += " repeat_identical=" +
       (repeat < 0 ? std::string("nan") : std::to_string(repeat));
  s += " status=" + r.status;
  return s + "\n";
}

/// Runs a training group: the forward (a kernel, or a split-KV group; saving
/// lse) on seeded inputs, then every backward kernel on the forward's output
/// and lse buffers. Validates the forward against the reference forward and the
/// gradients against the reference gradient of the reference forward (lse
/// rounded to f32; D_i from the forward kernel's output, which the backward
/// read); times forward, backward and both.
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
    // reference dQ and dK (seen with dropout at Lq = Lk = 1).
    const ParamSpec *oSpec = fo.findParam("output");
    DeviceBuffer refO(oSpec->sizeBytes(), "the rounded reference output");
    DeviceBuffer refL(fo.findParam("lse")->sizeBytes(),
                      "the rounded reference lse");
    roundForward(fo, ref, refO.ptr(), refL.ptr());
    ReferenceGrad grad = referenceGrad(
        fk, p, fwd.ptr("query"), fwd.ptr("key"), fwd.ptr("value"),
        fwd.ptr("mask"), fwd.ptr("output"), refL.ptr(),
        b0.ptr("grad_output"));
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
               "rounded to f32, D_i from %s's %s output) took %.1f ms\n",
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

/// A merge kernel ("op": "merge_partials"): inputs drawn from the seed
/// (drawMergeInputs: -inf partials with NaN outputs, rows of -inf only),
/// output and lse poisoned, one launch validated against the float64
/// reference (mergeReference), then timed (bytes read and written).
KernelResult runMerge(const KernelSpec &k, const Module &module,
                      CudaContext &ctx, const RunOptions &options) {
  KernelResult r;
  KernelLauncher launcher(module.function(k.name), k.name, k.grid, k.block,
                          k.dynamicSharedMemory, ctx.info());
  out("\nkernel " + k.name +
      (k.source.empty() ? std::string() : " (" + k.source + ")") + "\n");
  out(format("  merge_partials: %lld partial results of %lld rows %s x Dv "
             "%lld; partial %s, output %s%s\n",
             (long long)k.splits, (long long)k.rows,
             noSpaces(formatShape(k.rowDims)).c_str(), (long long)k.valueDim,
             dtypeName(k.partialDtype), dtypeName(k.dtype),
             k.hasLse ? ", lse" : ""));
  const FunctionAttributes &attrs = launcher.attributes();
  out(format("  launch: grid [%u, %u, %u] block [%u, %u, %u], %u B dynamic "
             "shared memory; %d registers, %d B static shared, %d B local\n",
             k.grid[0], k.grid[1], k.grid[2], k.block[0], k.block[1],
             k.block[2], k.dynamicSharedMemory, attrs.numRegs,
             attrs.staticShared, attrs.localBytes));
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

int runManifest(const RunOptions &options) {
  Manifest m = loadManifest(options.manifestPath);
  // Kernels with run-time sizes run once per --sizes draw, bound to it.
  if (hasRuntimeSizes(m) && options.sizes.empty())
    throw Error("'" + m.path + "': kernel(s) " + runtimeSizedNames(m) +
                    " take their batch, lengths or page count at run time "
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
  bool anyPaged = false, pagedSelected = false;
  for (const KernelSpec &k : unbound.kernels) {
    anyPaged = anyPaged || k.isPaged();
    pagedSelected = pagedSelected || (k.isPaged() && toRun.count(k.name));
  }
  if (!options.cacheSeqlens.empty() && !anyPaged)
    throw Error("'" + m.path +
                    "' has no paged kernel (\"op\": "
                    "\"paged_attention\"): --cache-seqlens is for those",
                kExitInput);
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

//===----------------------------------------------------------------------===//
// Self-test: GPU reference vs CPU reference
//===----------------------------------------------------------------------===//

namespace {

struct SelfCase {
  std::string name;
  attnopt::ref::AttentionProblem p;
  DType dtype = DType::F32;
  DType maskDtype = DType::I1;
};

SelfCase makeCase(const std::string &name, DType t, int64_t B, int64_t Hq,
                  int64_t Hkv, int64_t Lq, int64_t Lk, int64_t D,
                  int64_t Dv) {
  SelfCase c;
  c.name = name;
  c.dtype = t;
  c.p.batch = B;
  c.p.queryHeads = Hq;
  c.p.kvHeads = Hkv;
  c.p.queryLen = Lq;
  c.p.keyLen = Lk;
  c.p.headDim = D;
  c.p.valueDim = Dv;
  c.p.scale = float(1.0 / std::sqrt(double(D)));
  return c;
}

void setMask(SelfCase &c, DType t, std::array<int64_t, 4> shape) {
  c.maskDtype = t;
  c.p.maskKind = t == DType::I1 ? attnopt::ref::MaskKind::Boolean
                                : attnopt::ref::MaskKind::Additive;
  c.p.maskShape = shape;
}

std::vector<SelfCase> selfTestCases() {
  using attnopt::ref::Causal;
  std::vector<SelfCase> cases;
  cases.push_back(makeCase("plain-f32", DType::F32, 1, 2, 2, 8, 8, 16, 16));
  {
    auto c = makeCase("gqa-bf16-bottom-right", DType::BF16, 2, 8, 2, 16, 24,
                      32, 32);
    c.p.causal = Causal::BottomRight;
    cases.push_back(c);
  }
  {
    auto c = makeCase("mqa-f16-top-left", DType::F16, 1, 4, 1, 20, 13, 16,
                      16);
    c.p.causal = Causal::TopLeft;
    cases.push_back(c);
  }
  {
    auto c = makeCase("bottom-right-lq-gt-lk(empty-rows)", DType::F32, 1, 2,
                      1, 24, 16, 8, 8);
    c.p.causal = Causal::BottomRight;
    cases.push_back(c);
  }
  {
    auto c = makeCase("window-3-2-none", DType::F32, 1, 2, 2, 16, 40, 8, 8);
    c.p.hasWindow = true;
    c.p.windowLeft = 3;
    c.p.windowRight = 2;
    cases.push_back(c);
  }
  {
    auto c = makeCase("window-4-unbounded-bottom-right", DType::BF16, 2, 2, 2,
                      12, 30, 16, 16);
    c.p.causal = Causal::BottomRight;
    c.p.hasWindow = true;
    c.p.windowLeft = 4;
    c.p.windowRight = -1;
    cases.push_back(c);
  }
  {
    auto c = makeCase("window-unbounded-0-top-left", DType::F16, 1, 2, 2, 9,
                      9, 8, 8);
    c.p.causal = Causal::TopLeft;
    c.p.hasWindow = true;
    c.p.windowLeft = -1;
    c.p.windowRight = 0;
    cases.push_back(c);
  }
  {
    auto c = makeCase("softcap", DType::F32, 1, 2, 2, 10, 17, 16, 16);
    c.p.hasSoftcap = true;
    c.p.softcap = 2.5f;
    c.p.scale = 0.9f;
    cases.push_back(c);
  }
  {
    auto c = makeCase("bool-mask-key-padding", DType::BF16, 3, 2, 2, 12, 40,
                      32, 32);
    setMask(c, DType::I1, {3, 1, 1, 40});
    cases.push_back(c);
  }
  {
    auto c = makeCase("bool-mask-full-gqa", DType::F16, 2, 4, 2, 7, 11, 8, 8);
    setMask(c, DType::I1, {2, 4, 7, 11});
    cases.push_back(c);
  }
  {
    auto c = makeCase("bool-mask-shared-causal", DType::F32, 2, 2, 1, 9, 9, 8,
                      8);
    setMask(c, DType::I1, {1, 1, 9, 9});
    c.p.causal = Causal::TopLeft;
    cases.push_back(c);
  }
  {
    auto c = makeCase("additive-f32-per-head", DType::BF16, 2, 8, 2, 16, 32,
                      16, 16);
    setMask(c, DType::F32, {1, 8, 1, 32});
    cases.push_back(c);
  }
  {
    auto c = makeCase("additive-f16-full", DType::F16, 1, 2, 2, 6, 10, 8, 8);
    setMask(c, DType::F16, {1, 2, 6, 10});
    cases.push_back(c);
  }
  {
    auto c = makeCase("additive-bf16-scalar", DType::F32, 1, 1, 1, 5, 5, 4,
                      4);
    setMask(c, DType::BF16, {1, 1, 1, 1});
    cases.push_back(c);
  }
  {
    auto c = makeCase("additive-bf16-rows", DType::F32, 2, 2, 2, 8, 12, 8,
                      8);
    setMask(c, DType::BF16, {2, 1, 8, 1});
    cases.push_back(c);
  }
  {
    auto c = makeCase("dropout-0.25-lk-not-multiple-of-4", DType::F32, 2, 4,
                      2, 9, 13, 8, 8);
    c.p.dropoutP = 0.25f;
    cases.push_back(c);
  }
  {
    // An explicit keep mask (broadcast over heads) instead of Philox bits.
    auto c = makeCase("dropout-mask-0.25-broadcast", DType::F16, 2, 4, 2, 9, 13,
                      8, 8);
    c.p.dropoutP = 0.25f;
    c.p.hasDropoutMask = true;
    c.p.dropoutMaskShape = {2, 1, 9, 13};
    cases.push_back(c);
  }
  {
    auto c = makeCase("dropout-0.1-mask-causal", DType::BF16, 1, 2, 2, 16, 16,
                      16, 16);
    c.p.dropoutP = 0.1f;
    c.p.causal = Causal::BottomRight;
    setMask(c, DType::I1, {1, 1, 16, 16});
    cases.push_back(c);
  }
  {
    auto c = makeCase("decode-lq-1", DType::BF16, 2, 8, 2, 1, 300, 64, 64);
    c.p.causal = Causal::BottomRight;
    cases.push_back(c);
  }
  {
    auto c = makeCase("d-ne-dv-long-keys", DType::F16, 1, 2, 1, 4, 517, 64,
                      48);
    cases.push_back(c);
  }
  {
    auto c = makeCase("wide-value-dim", DType::F32, 1, 1, 1, 3, 150, 24, 200);
    cases.push_back(c);
  }
  {
    auto c = makeCase("scale-zero", DType::F32, 1, 1, 1, 4, 6, 8, 8);
    c.p.scale = 0.0f;
    cases.push_back(c);
  }
  {
    auto c = makeCase("scale-negative", DType::F32, 1, 1, 1, 4, 6, 8, 8);
    c.p.scale = -0.7f;
    cases.push_back(c);
  }
  {
    // The "everything at once" example of docs/semantics.md.
    auto c = makeCase("everything", DType::BF16, 2, 8, 2, 16, 32, 64, 48);
    setMask(c, DType::F32, {1, 8, 1, 32});
    c.p.dropoutP = 0.25f;
    c.p.scale = 0.5f;
    c.p.hasSoftcap = true;
    c.p.softcap = 30.0f;
    c.p.causal = Causal::BottomRight;
    c.p.hasWindow = true;
    c.p.windowLeft = 8;
    c.p.windowRight = -1;
    cases.push_back(c);
  }
  {
    auto c = makeCase("delta-negative-window", DType::F32, 1, 1, 1, 4, 4, 4, 4);
    c.p.causal = Causal::BottomRight;
    c.p.hasWindow = true;
    c.p.windowLeft = 2;
    c.p.windowRight = -1;
    c.p.queryLen = 12; // rows 0..7 have no key at all (delta = -8)
    cases.push_back(c);
  }
  return cases;
}

/// A packed batch (docs/semantics.md §14) for the self-test.
struct PackedCase {
  std::string name;
  attnopt::ref::PackedBatch batch;
  DType dtype = DType::F32;
};

PackedCase makePackedCase(const std::string &name, DType t, int64_t Hq,
                          int64_t Hkv, std::vector<int64_t> lq,
                          std::vector<int64_t> lk, int64_t D, int64_t Dv) {
  PackedCase c;
  c.name = name;
  c.dtype = t;
  attnopt::ref::AttentionProblem &p = c.batch.problem;
  p.batch = int64_t(lq.size());
  p.queryHeads = Hq;
  p.kvHeads = Hkv;
  p.headDim = D;
  p.valueDim = Dv;
  p.scale = float(1.0 / std::sqrt(double(D)));
  c.batch.cuQ = {0};
  c.batch.cuK = {0};
  for (size_t b = 0; b < lq.size(); ++b) {
    c.batch.cuQ.push_back(c.batch.cuQ.back() + lq[b]);
    c.batch.cuK.push_back(c.batch.cuK.back() + lk[b]);
  }
  p.queryLen = c.batch.cuQ.back();
  p.keyLen = c.batch.cuK.back();
  return c;
}

/// Sequences with no query, with no key, with more queries than keys and
/// the other way round, so that every positional rule meets its per-sequence
/// lengths; dropout at the packed coordinates.
std::vector<PackedCase> packedSelfTestCases() {
  using attnopt::ref::Causal;
  std::vector<PackedCase> cases;
  {
    auto c = makePackedCase("varlen-gqa-bf16-bottom-right", DType::BF16, 8,
                            2, {5, 0, 17, 9, 3}, {7, 3, 0, 20, 3}, 32, 32);
    c.batch.problem.causal = Causal::BottomRight;
    cases.push_back(c);
  }
  {
    auto c = makePackedCase("varlen-mqa-f16-window-softcap", DType::F16, 4, 1,
                            {12, 1, 30}, {12, 40, 30}, 16, 16);
    c.batch.problem.hasWindow = true;
    c.batch.problem.windowLeft = 3;
    c.batch.problem.windowRight = 2;
    c.batch.problem.hasSoftcap = true;
    c.batch.problem.softcap = 5.0f;
    cases.push_back(c);
  }
  {
    auto c = makePackedCase("varlen-dropout-0.25-top-left", DType::F32, 2, 2,
                            {9, 13, 6}, {11, 5, 14}, 8, 16);
    c.batch.problem.causal = Causal::TopLeft;
    c.batch.problem.dropoutP = 0.25f;
    cases.push_back(c);
  }
  {
    auto c = makePackedCase("varlen-dropout-window-bottom-right", DType::BF16,
                            4, 2, {1, 33, 0, 140}, {300, 20, 5, 140}, 64, 48);
    c.batch.problem.causal = Causal::BottomRight;
    c.batch.problem.hasWindow = true;
    c.batch.problem.windowLeft = 16;
    c.batch.problem.windowRight = -1;
    c.batch.problem.dropoutP = 0.1f;
    cases.push_back(c);
  }
  return cases;
}

/// The packed gradient reference (runGpuReferenceVarlenGrad: the dense
/// gradient kernels per sequence, strided over the token-major tensors)
/// against attnopt::ref::referencePackedAttentionGrad, given the GPU
/// reference forward `dout`/`dlse` rounded as a forward kernel writes it and
/// a random grad_output. Prints a line; false on a difference above
/// `limit`.
bool checkPackedGrad(const PackedCase &c, InputGenerator &gen,
                     const DeviceBuffer &dq, const DeviceBuffer &dk,
                     const DeviceBuffer &dv, const DeviceBuffer &dout,
                     const DeviceBuffer &dlse, const std::vector<double> &qv,
                     const std::vector<double> &kv,
                     const std::vector<double> &vv, double limit) {
  const attnopt::ref::AttentionProblem &p = c.batch.problem;
  const int64_t tq = p.queryLen, tk = p.keyLen;
  const std::vector<int64_t> oShape = {tq, p.queryHeads, p.valueDim};
  HostTensor hdo(c.dtype, oShape);
  std::vector<double> dov = gen.fill(hdo, -1.0, 1.0);
  DeviceBuffer ddo(hdo.sizeBytes(), "grad_output");
  ddo.upload(hdo.data(), hdo.sizeBytes());
  HostTensor ho(c.dtype, oShape), hl(DType::F32, {p.queryHeads, tq});
  DeviceBuffer dor(ho.sizeBytes(), "rounded reference output");
  DeviceBuffer dlr(hl.sizeBytes(), "rounded reference lse");
  runGpuRound(dout.ptr(), c.dtype, dor.ptr(), ho.numElements());
  runGpuRound(dlse.ptr(), DType::F32, dlr.ptr(), hl.numElements());
  dor.download(ho.data(), ho.sizeBytes());
  dlr.download(hl.data(), hl.sizeBytes());
  auto poisoned = [](int64_t elements, const char *what) {
    DeviceBuffer b(uint64_t(std::max<int64_t>(1, elements)) * 8, what);
    b.fill(kPoisonByte, b.size());
    return b;
  };
  DeviceBuffer gq = poisoned(tq * p.queryHeads * p.headDim, "grad_query");
  DeviceBuffer gk = poisoned(tk * p.kvHeads * p.headDim, "grad_key");
  DeviceBuffer gv = poisoned(tk * p.kvHeads * p.valueDim, "grad_value");
  std::vector<int32_t> cuQ(c.batch.cuQ.begin(), c.batch.cuQ.end()),
      cuK(c.batch.cuK.begin(), c.batch.cuK.end());
  runGpuReferenceVarlenGrad(p, c.dtype, cuQ, cuK, dq.ptr(), dk.ptr(), dv.ptr(),
                            dor.ptr(), dlr.ptr(), ddo.ptr(), gq.ptr(), gk.ptr(),
                            gv.ptr());
  std::vector<double> cpuDq, cpuDk, cpuDv;
  attnopt::ref::referencePackedAttentionGrad(c.batch, qv, kv, vv, ho.toDouble(),
                                             dov, hl.toDouble(), cpuDq, cpuDk,
                                             cpuDv);
  auto compare = [](const DeviceBuffer &gpu, const std::vector<double> &cpu) {
    std::vector<double> got = downloadDoubles(gpu);
    got.resize(cpu.size());
    return compareResults(got, cpu, nullptr, nullptr);
  };
  Comparison cq = compare(gq, cpuDq), ck = compare(gk, cpuDk),
             cv = compare(gv, cpuDv);
  const int64_t nans = cq.outNaNs + ck.outNaNs + cv.outNaNs;
  const bool ok = nans == 0 && cq.outRelErr <= limit && ck.outRelErr <= limit &&
                  cv.outRelErr <= limit;
  out(format("  %-36s grad: dq/dk/dv max rel diff %.2e/%.2e/%.2e, NaN "
             "%lld%s",
             "", cq.outRelErr, ck.outRelErr, cv.outRelErr, (long long)nans,
             ok ? ": PASS\n" : ": FAIL\n"));
  return ok;
}

} // namespace

int runSelfTest(const RunOptions &options) {
  CudaContext ctx(options.device);
  out("attn-run --self-test: GPU float64 reference (forward and gradient) vs "
      "CPU float64 reference (lib/Reference)\n");
  out("attn-run: device " + std::to_string(options.device) + ": " +
      ctx.describe() + "\n");
  const double kLimit = 1e-10;
  int failures = 0;

  // Philox known answers (docs/semantics.md 8.4), on host and device.
  {
    std::vector<std::array<uint32_t, 6>> in = {
        {0, 0, 0, 0, 0, 0},
        {0xffffffffu, 0xffffffffu, 0xffffffffu, 0xffffffffu, 0xffffffffu,
         0xffffffffu},
        {0x243f6a88u, 0x85a308d3u, 0x13198a2eu, 0x03707344u, 0xa4093822u,
         0x299f31d0u}};
    std::vector<std::array<uint32_t, 4>> want = {
        {0x6627e8d5u, 0xe169c58du, 0xbc57ac4cu, 0x9b00dbd8u},
        {0x408f276du, 0x41c83b0eu, 0xa20bc7c6u, 0x6d5451fdu},
        {0xd16cfe09u, 0x94fdccebu, 0x5001e420u, 0x24126ea1u}};
    std::vector<std::array<uint32_t, 4>> got = runGpuPhilox(in);
    bool ok = true;
    for (size_t t = 0; t < in.size(); ++t) {
      auto host = attnopt::ref::philox4x32_10({in[t][0], in[t][1], in[t][2],
                                               in[t][3]},
                                              {in[t][4], in[t][5]});
      ok = ok && got[t] == want[t] && host == want[t];
    }
    out(std::string("  philox4x32-10 known answers on the GPU and host: ") +
        (ok ? "PASS" : "FAIL") + "\n");
    failures += !ok;
  }

  uint64_t caseSeed = options.seed;
  for (SelfCase &c : selfTestCases()) {
    attnopt::ref::AttentionProblem &p = c.p;
    InputGenerator gen(caseSeed++);
    HostTensor hq(c.dtype, {p.batch, p.queryHeads, p.queryLen, p.headDim});
    HostTensor hk(c.dtype, {p.batch, p.kvHeads, p.keyLen, p.headDim});
    HostTensor hv(c.dtype, {p.batch, p.kvHeads, p.keyLen, p.valueDim});
    std::vector<double> qv = gen.fill(hq, -2.0, 2.0);
    std::vector<double> kv = gen.fill(hk, -2.0, 2.0);
    std::vector<double> vv = gen.fill(hv, -1.0, 1.0);
    HostTensor hm;
    std::vector<double> mv;
    if (p.maskKind != attnopt::ref::MaskKind::None) {
      hm = HostTensor(c.maskDtype, {p.maskShape.begin(), p.maskShape.end()});
      mv = gen.fillMask(hm, p.maskShape[3]);
    }
    p.seed = gen.next();
    p.offset = gen.next() & 0xFFFFFFFFFFull;
    HostTensor hkeep;
    std::vector<double> keepValues;
    if (p.hasDropoutMask) {
      hkeep = HostTensor(
          DType::I1, {p.dropoutMaskShape.begin(), p.dropoutMaskShape.end()});
      keepValues = gen.fillKeep(hkeep, p.dropoutP);
    }

    DeviceBuffer dq(hq.sizeBytes(), "query"), dk(hk.sizeBytes(), "key"),
        dv(hv.sizeBytes(), "value");
    dq.upload(hq.data(), hq.sizeBytes());
    dk.upload(hk.data(), hk.sizeBytes());
    dv.upload(hv.data(), hv.sizeBytes());
    DeviceBuffer dm;
    if (!mv.empty()) {
      dm = DeviceBuffer(hm.sizeBytes(), "mask");
      dm.upload(hm.data(), hm.sizeBytes());
    }
    DeviceBuffer dkeep;
    if (p.hasDropoutMask) {
      dkeep = DeviceBuffer(hkeep.sizeBytes(), "dropout mask");
      dkeep.upload(hkeep.data(), hkeep.sizeBytes());
    }
    DeviceBuffer dout(uint64_t(p.outputElements()) * 8, "reference output");
    DeviceBuffer dlse(uint64_t(p.lseElements()) * 8, "reference lse");
    dout.fill(kPoisonByte, dout.size());
    dlse.fill(kPoisonByte, dlse.size());
    runGpuReference(p, c.dtype, c.maskDtype, dq.ptr(), dk.ptr(), dv.ptr(),
                    dm.ptr(), dout.ptr(), dlse.ptr(), dkeep.ptr());
    std::vector<double> gpuOut(size_t(p.outputElements())),
        gpuLse(size_t(p.lseElements()));
    dout.download(gpuOut.data(), dout.size());
    dlse.download(gpuLse.data(), dlse.size());

    std::vector<double> cpuOut, cpuLse;
    attnopt::ref::referenceAttention(p, qv, kv, vv, mv, cpuOut, cpuLse, nullptr,
                                     &keepValues);
    Comparison cmp = compareResults(gpuOut, cpuOut, &gpuLse, &cpuLse);
    // The lse error measure of compareResults is relative to max(1, |r|);
    // also report the plain maximum absolute difference.
    double lseAbs = 0.0;
    for (size_t r = 0; r < cpuLse.size(); ++r)
      if (std::isfinite(cpuLse[r]) && std::isfinite(gpuLse[r]))
        lseAbs = std::max(lseAbs, std::fabs(gpuLse[r] - cpuLse[r]));

    int64_t bitMismatches = 0, bitCount = 0;
    if (p.dropoutP > 0.0f && !p.hasDropoutMask) {
      bitCount = p.batch * p.queryHeads * p.queryLen * p.keyLen;
      DeviceBuffer dbits(uint64_t(bitCount) * 4, "dropout bits");
      runGpuDropoutBits(p, dbits.ptr());
      std::vector<uint32_t> bits(static_cast<size_t>(bitCount));
      dbits.download(bits.data(), dbits.size());
      int64_t idx = 0;
      for (int64_t b = 0; b < p.batch; ++b)
        for (int64_t h = 0; h < p.queryHeads; ++h)
          for (int64_t i = 0; i < p.queryLen; ++i)
            for (int64_t j = 0; j < p.keyLen; ++j, ++idx)
              bitMismatches +=
                  bits[size_t(idx)] !=
                  attnopt::ref::dropoutBits(p.seed, p.offset, b, h, i, j,
                                            p.queryHeads, p.queryLen);
    }
    bool ok = cmp.outNaNs == 0 && cmp.lseNaNs == 0 &&
              cmp.lseInfMismatches == 0 && cmp.outRelErr <= kLimit &&
              lseAbs <= kLimit && bitMismatches == 0;
    failures += !ok;
    out(format("  %-36s out max rel diff %.2e, lse max abs diff %.2e, "
               "empty rows %lld/%lld (-inf mismatches %lld), NaN %lld",
               c.name.c_str(), cmp.outRelErr, lseAbs,
               (long long)cmp.emptyRows, (long long)p.lseElements(),
               (long long)cmp.lseInfMismatches,
               (long long)(cmp.outNaNs + cmp.lseNaNs)) +
        (bitCount ? format(", dropout bits %lld/%lld mismatches",
                           (long long)bitMismatches, (long long)bitCount)
                  : std::string()) +
        (ok ? ": PASS\n" : ": FAIL\n"));

    // No backward kernel takes an explicit dropout mask, nor does the GPU
    // gradient reference: the forward check is all for such a case.
    if (p.hasDropoutMask)
      continue;

    // The gradient reference, given the GPU reference forward rounded as a
    // forward kernel writes it (output in the element type, lse in f32)
    // and a random grad_output, against referenceAttentionGrad on the same
    // values. The rounding kernel is checked against the host's rounding.
    const std::vector<int64_t> oShape = {p.batch, p.queryHeads, p.queryLen,
                                         p.valueDim};
    HostTensor hdo(c.dtype, oShape);
    std::vector<double> dov = gen.fill(hdo, -1.0, 1.0);
    DeviceBuffer ddo(hdo.sizeBytes(), "grad_output");
    ddo.upload(hdo.data(), hdo.sizeBytes());
    HostTensor ho(c.dtype, oShape), hl(DType::F32, {p.batch, p.queryHeads,
                                                    p.queryLen});
    DeviceBuffer dor(ho.sizeBytes(), "rounded reference output");
    DeviceBuffer dlr(hl.sizeBytes(), "rounded reference lse");
    runGpuRound(dout.ptr(), c.dtype, dor.ptr(), p.outputElements());
    runGpuRound(dlse.ptr(), DType::F32, dlr.ptr(), p.lseElements());
    dor.download(ho.data(), ho.sizeBytes());
    dlr.download(hl.data(), hl.sizeBytes());
    int64_t roundMismatches = 0;
    {
      HostTensor wo(c.dtype, oShape), wl(DType::F32, hl.shape());
      for (int64_t e = 0; e < wo.numElements(); ++e)
        wo.store(e, gpuOut[size_t(e)]);
      for (int64_t e = 0; e < wl.numElements(); ++e)
        wl.store(e, gpuLse[size_t(e)]);
      const size_t w = dtypeSize(c.dtype);
      for (int64_t e = 0; e < wo.numElements(); ++e)
        roundMismatches +=
            std::memcmp(static_cast<const uint8_t *>(wo.data()) + e * w,
                        static_cast<const uint8_t *>(ho.data()) + e * w,
                        w) != 0;
      for (int64_t e = 0; e < wl.numElements(); ++e)
        roundMismatches +=
            std::memcmp(static_cast<const uint8_t *>(wl.data()) + e * 4,
                        static_cast<const uint8_t *>(hl.data()) + e * 4,
                        4) != 0;
    }
    std::vector<double> ov = ho.toDouble(), lv = hl.toDouble();
    DeviceBuffer gq(uint64_t(p.queryElements()) * 8, "reference grad_query");
    DeviceBuffer gk(uint64_t(p.keyElements()) * 8, "reference grad_key");
    DeviceBuffer gv(uint64_t(p.valueElements()) * 8, "reference grad_value");
    gq.fill(kPoisonByte, gq.size());
    gk.fill(kPoisonByte, gk.size());
    gv.fill(kPoisonByte, gv.size());
    runGpuReferenceGrad(p, c.dtype, c.maskDtype, dq.ptr(), dk.ptr(), dv.ptr(),
                        dm.ptr(), dor.ptr(), dlr.ptr(), ddo.ptr(), gq.ptr(),
                        gk.ptr(), gv.ptr());
    std::vector<double> cpuDq, cpuDk, cpuDv;
    attnopt::ref::referenceAttentionGrad(p, qv, kv, vv, mv, ov, dov, lv, cpuDq,
                                         cpuDk, cpuDv);
    Comparison cq = compareResults(downloadDoubles(gq), cpuDq, nullptr,
                                   nullptr);
    Comparison ck = compareResults(downloadDoubles(gk), cpuDk, nullptr,
                                   nullptr);
    Comparison cv = compareResults(downloadDoubles(gv), cpuDv, nullptr,
                                   nullptr);
    int64_t gradNaNs = cq.outNaNs + ck.outNaNs + cv.outNaNs;
    bool gradOk = gradNaNs == 0 && roundMismatches == 0 &&
                  cq.outRelErr <= kLimit && ck.outRelErr <= kLimit &&
                  cv.outRelErr <= kLimit;
    failures += !gradOk;
    out(format("  %-36s grad: dq/dk/dv max rel diff %.2e/%.2e/%.2e, "
               "rounding to %s/f32 %lld mismatches, NaN %lld",
               "", cq.outRelErr, ck.outRelErr, cv.outRelErr,
               dtypeName(c.dtype), (long long)roundMismatches,
               (long long)gradNaNs) +
        (gradOk ? ": PASS\n" : ": FAIL\n"));
  }
  // The packed form: the GPU reference against the CPU's per-sequence one
  // (attnopt::ref::referencePackedAttention, dense problems of batch 1 with
  // their Philox origin), which shares none of its indexing.
  for (PackedCase &c : packedSelfTestCases()) {
    attnopt::ref::AttentionProblem &p = c.batch.problem;
    const int64_t tq = p.queryLen, tk = p.keyLen;
    InputGenerator gen(caseSeed++);
    HostTensor hq(c.dtype, {tq, p.queryHeads, p.headDim});
    HostTensor hk(c.dtype, {tk, p.kvHeads, p.headDim});
    HostTensor hv(c.dtype, {tk, p.kvHeads, p.valueDim});
    std::vector<double> qv = gen.fill(hq, -2.0, 2.0);
    std::vector<double> kv = gen.fill(hk, -2.0, 2.0);
    std::vector<double> vv = gen.fill(hv, -1.0, 1.0);
    p.seed = gen.next();
    p.offset = gen.next() & 0xFFFFFFFFFFull;
    DeviceBuffer dq(hq.sizeBytes(), "query"), dk(hk.sizeBytes(), "key"),
        dv(hv.sizeBytes(), "value");
    dq.upload(hq.data(), hq.sizeBytes());
    dk.upload(hk.data(), hk.sizeBytes());
    dv.upload(hv.data(), hv.sizeBytes());
    const int64_t outElements = tq * p.queryHeads * p.valueDim,
                  lseElements = p.queryHeads * tq;
    DeviceBuffer dout(uint64_t(outElements) * 8, "reference output");
    DeviceBuffer dlse(uint64_t(lseElements) * 8, "reference lse");
    dout.fill(kPoisonByte, dout.size());
    dlse.fill(kPoisonByte, dlse.size());
    std::vector<int32_t> cuQ(c.batch.cuQ.begin(), c.batch.cuQ.end()),
        cuK(c.batch.cuK.begin(), c.batch.cuK.end());
    runGpuReferenceVarlen(p, c.dtype, cuQ, cuK, dq.ptr(), dk.ptr(), dv.ptr(),
                          dout.ptr(), dlse.ptr());
    std::vector<double> gpuOut = downloadDoubles(dout),
                        gpuLse = downloadDoubles(dlse);
    gpuOut.resize(size_t(outElements));
    gpuLse.resize(size_t(lseElements));
    std::vector<double> cpuOut, cpuLse;
    attnopt::ref::referencePackedAttention(c.batch, qv, kv, vv, cpuOut,
                                           cpuLse);
    Comparison cmp = compareResults(gpuOut, cpuOut, &gpuLse, &cpuLse);
    double lseAbs = 0.0;
    for (size_t r = 0; r < cpuLse.size(); ++r)
      if (std::isfinite(cpuLse[r]) && std::isfinite(gpuLse[r]))
        lseAbs = std::max(lseAbs, std::fabs(gpuLse[r] - cpuLse[r]));
    bool ok = cmp.outNaNs == 0 && cmp.lseNaNs == 0 &&
              cmp.lseInfMismatches == 0 && cmp.outRelErr <= kLimit &&
              lseAbs <= kLimit;
    failures += !ok;
    out(format("  %-36s out max rel diff %.2e, lse max abs diff %.2e, "
               "empty rows %lld/%lld (-inf mismatches %lld), NaN %lld%s",
               c.name.c_str(), cmp.outRelErr, lseAbs,
               (long long)cmp.emptyRows, (long long)lseElements,
               (long long)cmp.lseInfMismatches,
               (long long)(cmp.outNaNs + cmp.lseNaNs),
               ok ? ": PASS\n" : ": FAIL\n"));
    failures +=
        !checkPackedGrad(c, gen, dq, dk, dv, dout, dlse, qv, kv, vv, kLimit);
  }
  out(format("attn-run --self-test: %s (limit %.0e)\n",
             failures ? "FAIL" : "PASS", kLimit));
  return failures ? kExitFailure : kExitOk;
}

} // namespace attnrt
