//===- RunnerBuffers.h - attn-run's device buffers and inputs ---*- C++ -*-===//
//
// A kernel's parameters bound to device buffers (Binding), the buffers that
// the kernels of a group share (SharedBuffers), the NaN poison and guard
// regions of outputs and workspaces, the seeded inputs and the downloads
// (private to kernels-runtime/src).
//
//===----------------------------------------------------------------------===//

#ifndef ATTNRT_RUNNER_BUFFERS_H
#define ATTNRT_RUNNER_BUFFERS_H

#include "attnrt/Cuda.h"
#include "attnrt/HostData.h"
#include "attnrt/Manifest.h"
#include "attnrt/Runtime.h"

#include <cstdint>
#include <map>
#include <memory>
#include <string>
#include <utility>
#include <vector>

namespace attnrt::runner {

constexpr uint64_t kGuardBytes = 256; // after each output, must stay intact
constexpr uint8_t kGuardByte = 0xA5;
constexpr uint8_t kPoisonByte = 0xFF; // NaN in f16, bf16 and f32

/// "'name' [shape] dtype", naming a buffer in error messages.
std::string bufferName(const ParamSpec &ps);

/// Fills `buffer` (of `spec`, followed by kGuardBytes) with the NaN pattern
/// and its guard.
void poisonWithGuard(DeviceBuffer &buffer, const ParamSpec &spec);

/// Reports writes past the end of `buffer` (of `spec`, followed by
/// kGuardBytes); false if there were any.
bool checkGuard(const DeviceBuffer &buffer, const ParamSpec &spec);

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

/// Inputs q, k, v, mask, then seed and offset, then the explicit dropout
/// keep mask (random bits, kept with probability 1 - dropout_p), from the
/// seeded generator; each rounded to its type on the host, uploaded and
/// dropped. Sets p.seed/p.offset and the binding's seed/offset.
void uploadInputs(const KernelSpec &k, Binding &binding, InputGenerator &gen,
                  attnopt::ref::AttentionProblem &p);

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
                              InputGenerator &gen);

/// grad_output: uniform in [-1, 1], drawn after the forward's inputs.
void uploadGradOutput(const ParamSpec &spec, CUdeviceptr ptr,
                      InputGenerator &gen);

/// The tensor at `ptr` (of `spec`'s type and shape) as doubles.
std::vector<double> downloadAsDouble(const ParamSpec &spec, CUdeviceptr ptr);

/// The doubles of device buffer `b`.
std::vector<double> downloadDoubles(const DeviceBuffer &b);

} // namespace attnrt::runner

#endif // ATTNRT_RUNNER_BUFFERS_H
