//===- RuntimeC.cpp - the C form of the runtime API ----------------------===//
//
// Thin wrappers: the opaque C handles are the C++ objects themselves, and a
// failed Status is kept per thread for attnrt_last_error().
//
//===----------------------------------------------------------------------===//

#include "attnrt/RuntimeC.h"

#include "attnrt/Runtime.h"

#include <cuda.h>

#include <memory>
#include <string>
#include <vector>

struct attnrt_library {
  std::unique_ptr<attnrt::Library> library;
  std::vector<std::string> names;
};
struct attnrt_arguments {
  attnrt::Arguments args;
};

namespace {

thread_local std::string lastError;

attnrt_status record(const attnrt::Status &s) {
  if (!s.ok())
    lastError = s.message();
  return attnrt_status(s.code());
}

attnrt_status inputError(const std::string &message) {
  return record(attnrt::Status::error(attnrt::StatusCode::Input, message));
}

const attnrt::KernelSet *cxx(const attnrt_kernel_set *set) {
  return reinterpret_cast<const attnrt::KernelSet *>(set);
}

attnrt_status setResult(const attnrt::Expected<const attnrt::KernelSet *> &set,
                        const attnrt_kernel_set **out) {
  if (!set.ok())
    return record(set.status());
  *out = reinterpret_cast<const attnrt_kernel_set *>(set.value());
  return 0;
}

/// Arguments from the one-call form's names, pointers and sizes.
attnrt_status makeArguments(const char *caller, int count,
                            const char *const *names,
                            const uint64_t *device_pointers,
                            const attnrt_sizes *sizes,
                            attnrt::Arguments &args) {
  if (count < 0 || (count && (!names || !device_pointers)))
    return inputError(std::string(caller) + ": null argument");
  for (int i = 0; i < count; ++i) {
    if (!names[i])
      return inputError(std::string(caller) + ": null name");
    args.set(names[i], CUdeviceptr(device_pointers[i]));
  }
  if (!sizes)
    return 0;
  attnrt::RuntimeSizes s;
  s.batch = sizes->batch;
  s.queryLen = sizes->query_len;
  s.keyLen = sizes->key_len;
  s.splits = sizes->num_splits;
  s.numPages = sizes->num_pages;
  s.maxPagesPerSeq = sizes->max_pages_per_seq;
  args.sizes(s);
  if (sizes->offsets_count < 0 ||
      (sizes->offsets_count && (!sizes->cu_seqlens_q || !sizes->cu_seqlens_k)))
    return inputError(std::string(caller) + ": offsets_count " +
                      std::to_string(sizes->offsets_count) +
                      " without both offset arrays");
  if (sizes->offsets_count)
    args.sequenceOffsets(
        std::vector<int32_t>(sizes->cu_seqlens_q,
                             sizes->cu_seqlens_q + sizes->offsets_count),
        std::vector<int32_t>(sizes->cu_seqlens_k,
                             sizes->cu_seqlens_k + sizes->offsets_count));
  return 0;
}

} // namespace

extern "C" {

const char *attnrt_last_error(void) { return lastError.c_str(); }

int attnrt_api_version(void) { return 3; }

attnrt_status attnrt_library_load(const char *manifest, int device,
                                  attnrt_library **out) {
  if (!out)
    return inputError("attnrt_library_load: null output handle");
  *out = nullptr;
  if (!manifest)
    return inputError("attnrt_library_load: null manifest path");
  attnrt::LoadOptions options;
  options.device = device;
  auto lib = attnrt::Library::load(manifest, options);
  if (!lib.ok())
    return record(lib.status());
  auto handle = std::make_unique<attnrt_library>();
  handle->names = (*lib)->names();
  handle->library = std::move(*lib);
  *out = handle.release();
  return 0;
}

void attnrt_library_free(attnrt_library *library) { delete library; }

attnrt_status attnrt_library_find(const attnrt_library *library,
                                  const char *name,
                                  const attnrt_kernel_set **out) {
  if (!library || !name || !out)
    return inputError("attnrt_library_find: null argument");
  *out = nullptr;
  return setResult(library->library->find(name), out);
}

attnrt_status attnrt_library_forward(const attnrt_library *library,
                                     const attnrt_kernel_set **out) {
  if (!library || !out)
    return inputError("attnrt_library_forward: null argument");
  *out = nullptr;
  return setResult(library->library->forward(), out);
}

attnrt_status attnrt_library_backward(const attnrt_library *library,
                                      const char *forward,
                                      const attnrt_kernel_set **out) {
  if (!library || !out)
    return inputError("attnrt_library_backward: null argument");
  *out = nullptr;
  return setResult(library->library->backward(forward ? forward : ""), out);
}

const char *attnrt_kernel_set_name(const attnrt_kernel_set *set) {
  return set ? cxx(set)->name().c_str() : nullptr;
}

int attnrt_library_num_sets(const attnrt_library *library) {
  return library ? int(library->names.size()) : 0;
}

const char *attnrt_library_set_name(const attnrt_library *library, int index) {
  if (!library || index < 0 || index >= int(library->names.size()))
    return nullptr;
  return library->names[index].c_str();
}

attnrt_arguments *attnrt_arguments_new(void) { return new attnrt_arguments; }

void attnrt_arguments_free(attnrt_arguments *args) { delete args; }

attnrt_status attnrt_arguments_set(attnrt_arguments *args, const char *name,
                                   uint64_t device_pointer) {
  if (!args || !name)
    return inputError("attnrt_arguments_set: null argument");
  args->args.set(name, CUdeviceptr(device_pointer));
  if (args->args.unknownName() == name)
    return inputError(std::string("no kernel parameter is called '") + name +
                      "'");
  return 0;
}

void attnrt_arguments_dropout(attnrt_arguments *args, uint64_t seed,
                              uint64_t offset) {
  if (args)
    args->args.dropoutSeed(seed, offset);
}

void attnrt_arguments_sizes(attnrt_arguments *args, int64_t batch,
                            int64_t query_len, int64_t key_len) {
  if (!args)
    return;
  attnrt::RuntimeSizes s =
      args->args.sizes(); // keeps num_splits and the paged sizes
  s.batch = batch;
  s.queryLen = query_len;
  s.keyLen = key_len;
  args->args.sizes(s);
}

void attnrt_arguments_num_splits(attnrt_arguments *args, int64_t num_splits) {
  if (!args)
    return;
  attnrt::RuntimeSizes s = args->args.sizes();
  s.splits = num_splits;
  args->args.sizes(s);
}

void attnrt_arguments_num_pages(attnrt_arguments *args, int64_t num_pages) {
  if (!args)
    return;
  attnrt::RuntimeSizes s = args->args.sizes();
  s.numPages = num_pages;
  args->args.sizes(s);
}

void attnrt_arguments_max_pages_per_seq(attnrt_arguments *args,
                                        int64_t max_pages_per_seq) {
  if (!args)
    return;
  attnrt::RuntimeSizes s = args->args.sizes();
  s.maxPagesPerSeq = max_pages_per_seq;
  args->args.sizes(s);
}

void attnrt_arguments_offsets(attnrt_arguments *args,
                              const int32_t *cu_seqlens_q,
                              const int32_t *cu_seqlens_k, int64_t count) {
  if (!args || !cu_seqlens_q || !cu_seqlens_k || count < 0)
    return;
  args->args.sequenceOffsets(
      std::vector<int32_t>(cu_seqlens_q, cu_seqlens_q + count),
      std::vector<int32_t>(cu_seqlens_k, cu_seqlens_k + count));
}

attnrt_status attnrt_workspace_bytes(const attnrt_kernel_set *set,
                                     const attnrt_arguments *args,
                                     uint64_t *bytes) {
  if (!set || !args || !bytes)
    return inputError("attnrt_workspace_bytes: null argument");
  auto n = cxx(set)->workspaceBytes(args->args);
  if (!n.ok())
    return record(n.status());
  *bytes = *n;
  return 0;
}

attnrt_status attnrt_launch(const attnrt_kernel_set *set,
                            const attnrt_arguments *args, void *stream,
                            uint64_t workspace, uint64_t workspace_bytes) {
  if (!set || !args)
    return inputError("attnrt_launch: null argument");
  return record(cxx(set)->launch(args->args, static_cast<CUstream>(stream),
                                 CUdeviceptr(workspace), workspace_bytes));
}

attnrt_status attnrt_launch_pointers(const attnrt_kernel_set *set, int count,
                                     const char *const *names,
                                     const uint64_t *device_pointers,
                                     uint64_t seed, uint64_t offset,
                                     void *stream, uint64_t workspace,
                                     uint64_t workspace_bytes) {
  return attnrt_launch_pointers_sized(set, count, names, device_pointers,
                                      nullptr, seed, offset, stream, workspace,
                                      workspace_bytes);
}

attnrt_status attnrt_launch_pointers_sized(const attnrt_kernel_set *set,
                                           int count, const char *const *names,
                                           const uint64_t *device_pointers,
                                           const attnrt_sizes *sizes,
                                           uint64_t seed, uint64_t offset,
                                           void *stream, uint64_t workspace,
                                           uint64_t workspace_bytes) {
  const char *caller =
      sizes ? "attnrt_launch_pointers_sized" : "attnrt_launch_pointers";
  if (!set)
    return inputError(std::string(caller) + ": null argument");
  attnrt::Arguments args;
  if (attnrt_status s =
          makeArguments(caller, count, names, device_pointers, sizes, args))
    return s;
  args.dropoutSeed(seed, offset);
  return record(cxx(set)->launch(args, static_cast<CUstream>(stream),
                                 CUdeviceptr(workspace), workspace_bytes));
}

attnrt_status attnrt_workspace_bytes_sized(const attnrt_kernel_set *set,
                                           const attnrt_sizes *sizes,
                                           uint64_t *bytes) {
  if (!set || !bytes)
    return inputError("attnrt_workspace_bytes_sized: null argument");
  attnrt::Arguments args;
  if (attnrt_status s = makeArguments("attnrt_workspace_bytes_sized", 0,
                                      nullptr, nullptr, sizes, args))
    return s;
  auto n = cxx(set)->workspaceBytes(args);
  if (!n.ok())
    return record(n.status());
  *bytes = *n;
  return 0;
}

} // extern "C"
