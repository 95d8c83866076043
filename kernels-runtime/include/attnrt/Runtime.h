//===- Runtime.h - call attention-opt's kernels from a program --*- C++ -*-===//
//
// The runtime API: load the manifest and PTX that attn-compile wrote once,
// then launch a forward kernel, a split-KV forward group (dense, or over a
// paged key/value cache), a whole backward group or a merge of partial
// results on the caller's device buffers and CUDA stream.
//
//   auto lib = attnrt::Library::load("out/attention.json");
//   if (!lib.ok()) { fprintf(stderr, "%s\n", lib.status().message().c_str());
//   ... } const attnrt::KernelSet *fwd =
//   lib->find("attention_kernel_0").value(); attnrt::Arguments args;
//   args.set("query", q).set("key", k).set("value", v)
//       .set("output", o).set("lse", lse);
//   attnrt::Status s = fwd->launch(args, stream);
//
// No exception crosses this API and nothing in it exits the process: every
// call returns a Status (or an Expected<T>) whose message says what was
// wrong ("kernel set 'attn_bwd_0': no device pointer for 'grad_output' [2,
// 8, 200, 64] bf16"). docs/runtime.md describes the API with examples.
//
// Costs: load() JIT-compiles the PTX (or loads a cubin) and looks up every
// kernel once. launch() checks the arguments, builds the parameter array on
// the stack (encoding the TMA tensor maps of kernels that take them:
// cuTensorMapEncodeTiled, host work only) and calls cuLaunchKernel once per
// kernel of the set: no device or host allocation, no synchronization. A
// kernel set with run-time sizes or a split count decided at launch
// computes its grid and sizes at the first launch with a given (batch,
// query_len, key_len, num_pages, num_splits) and caches them; a packed
// (varlen) set binds its sequence offsets at every launch (host work
// proportional to the batch).
//
// Thread safety: a Library may be shared between threads; launch() is
// const and may run concurrently.
//
//===----------------------------------------------------------------------===//

#ifndef ATTNRT_RUNTIME_H
#define ATTNRT_RUNTIME_H

#include "attnrt/Sizes.h"

#include <cuda.h>

#include <cstdint>
#include <memory>
#include <string>
#include <utility>
#include <vector>

#if defined(__GNUC__)
#define ATTNRT_API __attribute__((visibility("default")))
#else
#define ATTNRT_API
#endif

namespace attnrt {

/// What kind of failure a Status reports (the exit codes of attn-run).
enum class StatusCode : int {
  Ok = 0,
  Failure = 1,  // a CUDA error while loading or launching
  NoDevice = 2, // no CUDA driver or no GPU
  Input = 3,    // a bad manifest, PTX file, kernel name or argument
};

/// The outcome of an API call: success, or a code and a complete message.
class Status {
public:
  Status() = default;
  static Status error(StatusCode code, std::string message) {
    Status s;
    s.statusCode = code;
    s.text = std::move(message);
    return s;
  }
  bool ok() const { return statusCode == StatusCode::Ok; }
  StatusCode code() const { return statusCode; }
  /// "" on success.
  const std::string &message() const { return text; }

private:
  StatusCode statusCode = StatusCode::Ok;
  std::string text;
};

/// A value or the Status saying why there is none.
template <typename T> class Expected {
public:
  Expected(T value) : val(std::move(value)), has(true) {}
  Expected(Status error) : err(std::move(error)) {}
  bool ok() const { return has; }
  const Status &status() const { return err; }
  T &value() { return val; }
  const T &value() const { return val; }
  T *operator->() { return &val; }
  const T *operator->() const { return &val; }
  T &operator*() { return val; }

private:
  T val{};
  Status err;
  bool has = false;
};

/// One tensor a kernel set reads or writes, as the caller provides it:
/// contiguous, row-major, in `dtype` ("f16", "bf16", "f32", "i1" as one
/// byte per element, "i32"). A dimension of -1 is a run-time size.
struct TensorInfo {
  std::string name;
  std::string dtype;
  std::vector<int64_t> shape;
  bool isOutput = false;
};

/// The arguments of one launch: device pointers by parameter name, the
/// dropout seed and offset, run-time sizes, and the host copy of a packed
/// batch's sequence offsets. Setting is cheap (no allocation but the
/// offsets); an unknown name is reported by launch().
class ATTNRT_API Arguments {
public:
  /// The names a pointer can be given for: query key value mask
  /// dropout_mask output lse grad_output grad_query grad_key grad_value
  /// cu_seqlens_q cu_seqlens_k (packed sets), key_cache value_cache
  /// block_table cache_seqlens (paged sets), partial_output partial_lse (the
  /// inputs of a merge set; a split-KV or paged group's are workspaces,
  /// which come from launch()'s workspace).
  static constexpr int kNumTensors = 19;
  static const char *const *tensorNames();

  Arguments &set(const std::string &name, CUdeviceptr ptr);
  Arguments &set(const std::string &name, const void *ptr) {
    return set(name, CUdeviceptr(reinterpret_cast<uintptr_t>(ptr)));
  }
  /// The Philox seed and offset of dropout (ignored by kernels without).
  Arguments &dropoutSeed(uint64_t seed, uint64_t offset) {
    rngSeed = seed;
    rngOffset = offset;
    return *this;
  }
  /// The run-time sizes (a paged set's: batch, numPages and
  /// maxPagesPerSeq; its key length is its capacity, key_len is not read),
  /// and the split count of a
  /// split-KV group that decides it at launch (RuntimeSizes::splits; 0: the
  /// split rule).
  Arguments &sizes(const RuntimeSizes &s) {
    runtimeSizes = s;
    return *this;
  }
  /// A packed (varlen) set: the host copy of cu_seqlens_q and cu_seqlens_k
  /// (B + 1 entries each; the device copies are set as tensors). The grid
  /// is computed from the longest sequence.
  Arguments &sequenceOffsets(std::vector<int32_t> cuQ,
                             std::vector<int32_t> cuK) {
    hostCuQ = std::move(cuQ);
    hostCuK = std::move(cuK);
    return *this;
  }

  /// The pointer given for tensor `index` of tensorNames(), or 0.
  CUdeviceptr pointer(int index) const { return ptrs[index]; }
  uint64_t seed() const { return rngSeed; }
  uint64_t offset() const { return rngOffset; }
  const RuntimeSizes &sizes() const { return runtimeSizes; }
  const std::vector<int32_t> &offsetsQ() const { return hostCuQ; }
  const std::vector<int32_t> &offsetsK() const { return hostCuK; }
  /// The first name set() did not know, or "".
  const std::string &unknownName() const { return unknown; }

private:
  CUdeviceptr ptrs[kNumTensors] = {};
  uint64_t rngSeed = 0, rngOffset = 0;
  RuntimeSizes runtimeSizes;
  std::vector<int32_t> hostCuQ, hostCuK;
  std::string unknown;
};

/// What a kernel set computes.
enum class SetKind {
  Forward,  // a forward kernel, or a split-KV forward group (dense or paged)
  Backward, // the kernels of one attn.attention_grad
  Merge,    // a merge of partial results (attn.merge_partials): one kernel
};

/// Kernels launched together on one problem: a forward kernel alone, the
/// split_kv and combine stages of a split-KV forward (dense, or over a paged
/// cache: query, key_cache, value_cache, block_table, cache_seqlens), the
/// stages of a backward (in manifest order, sharing workspaces), or a merge
/// kernel alone (partial_output, partial_lse, output, lse). Owned by its
/// Library.
class ATTNRT_API KernelSet {
public:
  ~KernelSet();
  KernelSet(const KernelSet &) = delete;
  KernelSet &operator=(const KernelSet &) = delete;

  /// The group's name, or the kernel's for a kernel alone.
  const std::string &name() const;
  SetKind kind() const;
  /// The kernel names, in launch order.
  std::vector<std::string> kernels() const;
  /// For a backward set: the forward it belongs to (a kernel or a split-KV
  /// group name), or "".
  const std::string &forward() const;
  /// The tensors the caller provides (inputs and outputs), in the first
  /// kernel's parameter order; shapes with -1 where sizes are run-time.
  const std::vector<TensorInfo> &tensors() const;
  /// Whether the set takes run-time sizes (Arguments::sizes) or sequence
  /// offsets (Arguments::sequenceOffsets, a packed set).
  bool hasRuntimeSizes() const;
  /// Whether the set is a split-KV forward group whose split count S is
  /// decided at launch (codegen.splits null): RuntimeSizes::splits when
  /// given (1 to codegen.split_rule.max_splits), else the split rule for
  /// the launch's batch and key length (a paged group's: its capacity
  /// max_pages_per_seq * page_size) on this library's device. S sizes the
  /// workspace (workspaceBytes).
  bool splitsAtLaunch() const;
  bool isPacked() const;
  /// A paged forward group ("op": "paged_attention"). Its cache_seqlens and
  /// block_table are read by the kernels as given (docs/kernel-manifest.md,
  /// "Paged key/value caches": lengths in [0, capacity], the entries a
  /// sequence reads in [0, num_pages)); launch() cannot check device data,
  /// checkPagedInputs checks host copies.
  bool isPaged() const;
  /// A paged set: whether `cacheSeqlens` (B entries) and `blockTable`
  /// (row-major [B, max_pages_per_seq]) meet that contract for `sizes` (the
  /// launch's batch and num_pages where they are run-time sizes); an input
  /// error naming the first bad entry otherwise, or for another set.
  Status checkPagedInputs(const RuntimeSizes &sizes,
                          const std::vector<int32_t> &cacheSeqlens,
                          const std::vector<int32_t> &blockTable) const;

  /// The bytes of f32 scratch that launch() needs for these arguments'
  /// sizes and split count (0 for a forward kernel alone). The workspace
  /// need not be initialized: the set's first stage writes what the others
  /// read.
  Expected<uint64_t> workspaceBytes(const Arguments &args) const;

  /// Launches every kernel of the set on `stream`, in order. `workspace`
  /// (workspaceBytes() bytes, 256-byte aligned; 0 when none is needed) is
  /// the caller's until the stream has passed the last kernel. Every
  /// tensor of tensors() must have a pointer, 16-byte aligned. Checks
  /// everything before the first launch: on an error nothing was launched.
  Status launch(const Arguments &args, CUstream stream = nullptr,
                CUdeviceptr workspace = 0, uint64_t workspaceSize = 0) const;

private:
  friend class Library;
  struct Impl;
  explicit KernelSet(std::unique_ptr<Impl> impl);
  std::unique_ptr<Impl> impl;
};

struct LoadOptions {
  /// The CUDA device; its primary context (the one the CUDA runtime and
  /// PyTorch use) is retained for the library's lifetime.
  int device = 0;
  /// The PTX file, overriding the manifest's "ptx" (resolved against the
  /// manifest's directory). A ".cubin" is loaded as is.
  std::string ptxPath;
};

/// The kernels of one manifest, loaded on one device.
class ATTNRT_API Library {
public:
  /// Reads and validates the manifest (docs/kernel-manifest.md), checks its
  /// chip against the device, JIT-compiles the PTX and looks up every
  /// kernel.
  static Expected<std::unique_ptr<Library>>
  load(const std::string &manifest, const LoadOptions &options = {});
  ~Library();
  Library(const Library &) = delete;
  Library &operator=(const Library &) = delete;

  /// The kernel sets: forward kernels alone and merge kernels, then
  /// split-KV and paged forward groups, then backward groups, each in
  /// manifest order.
  std::vector<std::string> names() const;
  /// The set called `name` (a group, or a kernel alone); a backward
  /// kernel's or split-KV stage's own name finds its group.
  Expected<const KernelSet *> find(const std::string &name) const;
  /// The forward set of the manifest when there is exactly one (merge sets
  /// are not forward sets: find() them by name).
  Expected<const KernelSet *> forward() const;
  /// The backward set whose forward is `forward` (any, when "") when there
  /// is exactly one.
  Expected<const KernelSet *> backward(const std::string &forward = "") const;
  /// "NVIDIA H200 (sm_90, 132 SMs, 139.8 GiB, driver 13.0)".
  std::string device() const;

private:
  struct Impl;
  explicit Library(std::unique_ptr<Impl> impl);
  std::unique_ptr<Impl> impl;
};

} // namespace attnrt

#endif // ATTNRT_RUNTIME_H
