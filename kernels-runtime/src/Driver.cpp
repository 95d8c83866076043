//===- Driver.cpp - the CUDA driver, loaded on first use ------------------===//

#include "attnrt/Driver.h"
#include "attnrt/Cuda.h"

#include <dlfcn.h>

#include <cstdlib>

namespace attnrt::driver {

namespace {
/// The driver library, opened once and never closed: it stays for the
/// process's life, as a linked libcuda would.
struct Library {
  void *handle = nullptr;
  std::string error; ///< why it could not be opened; "" when it was
};
} // namespace

static const Library &library() {
  static const Library lib = [] {
    Library l;
    const char *path = std::getenv("ATTNRT_CUDA_DRIVER_LIBRARY");
    if (!path || !*path)
      path = "libcuda.so.1";
    l.handle = dlopen(path, RTLD_NOW | RTLD_LOCAL);
    if (!l.handle) {
      const char *text = dlerror();
      l.error = text ? text : std::string(path) + " could not be loaded";
    }
    return l;
  }();
  return lib;
}

const std::string &loadError() { return library().error; }

void *entryPoint(const char *name) {
  const Library &lib = library();
  if (!lib.handle)
    throw CudaError(CUDA_ERROR_NOT_INITIALIZED,
                    "no CUDA driver/GPU available: the NVIDIA driver library "
                    "could not be loaded (" +
                        lib.error + "); install the NVIDIA driver",
                    kExitNoDevice);
  dlerror();
  void *fn = dlsym(lib.handle, name);
  if (!fn)
    throw CudaError(CUDA_ERROR_NOT_FOUND,
                    std::string("the CUDA driver (libcuda.so.1) has no ") +
                        name + ": it is older than this build of attnrt " +
                        "needs (CUDA 12 or newer)",
                    kExitNoDevice);
  return fn;
}

} // namespace attnrt::driver
