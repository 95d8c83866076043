//===- Driver.h - the CUDA driver, loaded on first use ----------*- C++ -*-===//
//
// attnrt does not link libcuda.so.1: it opens it with dlopen when the first
// driver call is made, so that attn-run, the runtime library and the
// Python package load on a machine without the NVIDIA driver and say so in
// an error ("no CUDA driver/GPU available: ...", exit status 2) instead of
// failing in the dynamic loader.
//
// $ATTNRT_CUDA_DRIVER_LIBRARY, when set, names the library to open instead
// of libcuda.so.1 (a driver outside the loader's path; the tests use a
// missing one).
//
// Code inside namespace attnrt keeps writing driver calls as cuda.h spells
// them: for each entry point below this header declares, in namespace
// attnrt, a callable object with the same (versioned) name, e.g.
// attnrt::cuMemAlloc_v2 for cuMemAlloc, which unqualified lookup finds
// before the global declaration (and, being an object, without argument
// dependent lookup of the global one). A call that bypassed it would need
// libcuda at link time, so the build catches it. Code outside attnrt (a
// program of its own) links CUDA::cuda_driver as usual.
//
//===----------------------------------------------------------------------===//

#ifndef ATTNRT_DRIVER_H
#define ATTNRT_DRIVER_H

#include <cuda.h>

#include <atomic>
#include <string>

namespace attnrt {
namespace driver {

/// Opens the driver library once; returns "" on success, else why it failed
/// (dlerror's text). Thread-safe.
const std::string &loadError();

/// The address of entry point `name` ("cuMemAlloc_v2"). Throws a CudaError
/// with exit status kExitNoDevice naming the library or the entry point
/// when the driver cannot be loaded or lacks it (a driver too old).
void *entryPoint(const char *name);

/// A driver entry point resolved on its first call (then cached).
template <typename Signature> class LazyEntry;
template <typename R, typename... Args> class LazyEntry<R(Args...)> {
public:
  constexpr explicit LazyEntry(const char *name) : name(name) {}
  R operator()(Args... args) const {
    void *fn = cached.load(std::memory_order_acquire);
    if (!fn) {
      fn = entryPoint(name);
      cached.store(fn, std::memory_order_release);
    }
    return reinterpret_cast<R (*)(Args...)>(fn)(args...);
  }

private:
  const char *name;
  mutable std::atomic<void *> cached{nullptr};
};

} // namespace driver

// Every driver entry point attnrt calls, as cuda.h spells it (a macro in
// cuda.h for the versioned ones: cuMemAlloc is cuMemAlloc_v2).
#define ATTNRT_DRIVER_ENTRY_POINTS(X)                                          \
  X(cuInit)                                                                    \
  X(cuDriverGetVersion)                                                        \
  X(cuGetErrorName)                                                            \
  X(cuGetErrorString)                                                          \
  X(cuDeviceGetCount)                                                          \
  X(cuDeviceGet)                                                               \
  X(cuDeviceGetName)                                                           \
  X(cuDeviceGetAttribute)                                                      \
  X(cuDeviceTotalMem)                                                          \
  X(cuDevicePrimaryCtxRetain)                                                  \
  X(cuDevicePrimaryCtxRelease)                                                 \
  X(cuCtxSetCurrent)                                                           \
  X(cuCtxGetCurrent)                                                           \
  X(cuCtxPushCurrent)                                                          \
  X(cuCtxPopCurrent)                                                           \
  X(cuCtxSynchronize)                                                          \
  X(cuMemAlloc)                                                                \
  X(cuMemFree)                                                                 \
  X(cuMemGetInfo)                                                              \
  X(cuMemcpyHtoD)                                                              \
  X(cuMemcpyDtoH)                                                              \
  X(cuMemsetD8)                                                                \
  X(cuModuleLoadDataEx)                                                        \
  X(cuModuleUnload)                                                            \
  X(cuModuleGetFunction)                                                       \
  X(cuFuncGetAttribute)                                                        \
  X(cuFuncSetAttribute)                                                        \
  X(cuOccupancyMaxActiveBlocksPerMultiprocessor)                               \
  X(cuLaunchKernel)                                                            \
  X(cuStreamCreate)                                                            \
  X(cuStreamDestroy)                                                           \
  X(cuStreamSynchronize)                                                       \
  X(cuEventCreate)                                                             \
  X(cuEventDestroy)                                                            \
  X(cuEventRecord)                                                             \
  X(cuEventSynchronize)                                                        \
  X(cuEventElapsedTime)                                                        \
  X(cuTensorMapEncodeTiled)

// `name` is macro-expanded before it is pasted in, so the object and the
// symbol looked up carry cuda.h's versioned name.
#define ATTNRT_DRIVER_STRING(name) #name
#define ATTNRT_DRIVER_DECLARE(name)                                            \
  inline const driver::LazyEntry<decltype(::name)> name{                       \
      ATTNRT_DRIVER_STRING(name)};
ATTNRT_DRIVER_ENTRY_POINTS(ATTNRT_DRIVER_DECLARE)
#undef ATTNRT_DRIVER_DECLARE

} // namespace attnrt

#endif // ATTNRT_DRIVER_H
