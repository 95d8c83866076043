//===- Driver.cpp - the CUDA driver, loaded on first use ------------------===//

#include "attnrt/Driver.h"
#include "attnrt/Cuda.h"

#include <dlfcn.h>

#include <cstdlib>

namespace attnrt::driver {

static void *libraryHandle(std::string &error) {
  // Loaded once, never closed: the driver stays for the process's life, as
  // a linked libcuda would.
  static std::string why;
  static void *handle = [] {
    const char *path = std::getenv("ATTNRT_CUDA_DRIVER_LIBRARY");
    if (!path || !*path)
      path = "libcuda.so.1";
    void *h = dlopen(path, RTLD_NOW | RTLD_LOCAL);
    if (!h) {
      const char *text = dlerror();
      why = text ? text : std::string(path) + " could not be loaded";
    }
    return h;
  }();
  error = why;
  return handle;
}

const std::string &loadError() {
  static const std::string error = [] {
    std::string why;
    libraryHandle(why);
    return why;
  }();
  return error;
}

void *entryPoint(const char *name) {
  std::string why;
  void *handle = libraryHandle(why);
  if (!handle)
    throw CudaError(CUDA_ERROR_NOT_INITIALIZED,
                    "no CUDA driver/GPU available: the NVIDIA driver library "
                    "could not be loaded (" +
                        why + "); install the NVIDIA driver",
                    kExitNoDevice);
  dlerror();
  void *fn = dlsym(handle, name);
  if (!fn)
    throw CudaError(CUDA_ERROR_NOT_FOUND,
                    std::string("the CUDA driver (libcuda.so.1) has no ") +
                        name + ": it is older than this build of attnrt " +
                        "needs (CUDA 12 or newer)",
                    kExitNoDevice);
  return fn;
}

} // namespace attnrt::driver
