//===- Cuda.h - checked CUDA driver API wrappers ----------------*- C++ -*-===//
//
// Every driver call goes through ATTNRT_CU_CHECK, which turns a failure into
// an attnrt::Error whose message names the call as written, the CUresult
// name (cuGetErrorName) and description (cuGetErrorString), e.g.
//
//   cuMemAlloc(&ptr, bytes) failed: CUDA_ERROR_OUT_OF_MEMORY (out of memory)
//
// RAII owners (context, buffers, module, events) release their resources in
// destructors that never throw.
//
//===----------------------------------------------------------------------===//

#ifndef ATTNRT_CUDA_H
#define ATTNRT_CUDA_H

#include "attnrt/Driver.h"
#include "attnrt/Error.h"

#include <cuda.h>

#include <array>
#include <cstdint>
#include <string>
#include <vector>

namespace attnrt {

/// "CUDA_ERROR_OUT_OF_MEMORY"; falls back to a built-in table (and then to
/// "CUresult <n>") when the driver cannot answer, e.g. the stub library.
std::string cuResultName(CUresult r);
/// The driver's description, or "" when it has none.
std::string cuResultString(CUresult r);
/// "CUDA_ERROR_OUT_OF_MEMORY (out of memory)".
std::string describeCuResult(CUresult r);

struct ParamSpec;
/// Encodes tensor map `map` (a "tensor_map" parameter) over `tensor` (the
/// parameter it names, bound to the launch's sizes), whose data is at
/// `ptr`, into `out` (64-byte aligned): cuTensorMapEncodeTiled with
/// tensorMapLayout's dims, strides and box and the manifest's fixed
/// choices (docs/kernel-manifest.md, "TMA tensor maps"): element strides
/// 1, no interleave, L2 promotion of 256 bytes, out-of-bounds elements
/// read as zeros. Throws an Error (kExitInput) naming the map and the
/// tensor where the tensor cannot be mapped (`ptr` not 16-byte aligned, or
/// tensorMapLayout's reasons), a CudaError (kExitFailure) where the driver
/// refuses. Allocates nothing on success. (TensorMapEncode.cpp.)
void encodeTensorMap(const ParamSpec &map, const ParamSpec &tensor,
                     CUdeviceptr ptr, CUtensorMap *out);

/// An attnrt::Error that carries the CUresult.
class CudaError : public Error {
public:
  CudaError(CUresult result, const std::string &message, int exitCode)
      : Error(message, exitCode), res(result) {}
  CUresult result() const { return res; }

private:
  CUresult res;
};

[[noreturn]] void throwCudaError(CUresult r, const char *call,
                                 const char *file, int line,
                                 const std::string &extra = std::string());

/// Whether an error leaves the context unusable (every later call fails).
bool isStickyError(CUresult r);

#define ATTNRT_CU_CHECK(call)                                                  \
  do {                                                                         \
    CUresult attnrtResult_ = (call);                                           \
    if (attnrtResult_ != CUDA_SUCCESS)                                         \
      ::attnrt::throwCudaError(attnrtResult_, #call, __FILE__, __LINE__);      \
  } while (0)

/// As ATTNRT_CU_CHECK, with more context appended to the message.
#define ATTNRT_CU_CHECK_MSG(call, extra)                                       \
  do {                                                                         \
    CUresult attnrtResult_ = (call);                                           \
    if (attnrtResult_ != CUDA_SUCCESS)                                         \
      ::attnrt::throwCudaError(attnrtResult_, #call, __FILE__, __LINE__,       \
                               (extra));                                       \
  } while (0)

struct DeviceInfo {
  int ordinal = 0;
  std::string name;
  int ccMajor = 0, ccMinor = 0;
  int smCount = 0;
  uint64_t totalMemory = 0;
  int maxSharedPerBlockOptin = 0;
  int driverVersion = 0;
};

/// cuInit + the primary context of one device, made current. A failure of
/// cuInit, of the device count, or a machine without devices is an Error
/// with kExitNoDevice and the text "no CUDA driver/GPU available: ...".
class CudaContext {
public:
  explicit CudaContext(int ordinal = 0);
  ~CudaContext();
  CudaContext(const CudaContext &) = delete;
  CudaContext &operator=(const CudaContext &) = delete;

  const DeviceInfo &info() const { return dev; }
  CUdevice device() const { return handle; }
  /// cuCtxSynchronize, checked.
  void synchronize();
  /// "NVIDIA H200 (sm_90, 132 SMs, 139.8 GiB, driver 13.0)".
  std::string describe() const;

private:
  DeviceInfo dev;
  CUdevice handle = 0;
  CUcontext ctx = nullptr;
};

/// Device memory of a given size; `what` names it in error messages (the
/// out-of-memory message gives the size).
class DeviceBuffer {
public:
  DeviceBuffer() = default;
  DeviceBuffer(uint64_t bytes, const std::string &what);
  ~DeviceBuffer();
  DeviceBuffer(DeviceBuffer &&other) noexcept;
  DeviceBuffer &operator=(DeviceBuffer &&other) noexcept;
  DeviceBuffer(const DeviceBuffer &) = delete;
  DeviceBuffer &operator=(const DeviceBuffer &) = delete;

  CUdeviceptr ptr() const { return dptr; }
  /// The address of the pointer, for a kernel parameter array.
  CUdeviceptr *ptrAddress() { return &dptr; }
  uint64_t size() const { return bytes; }

  void upload(const void *src, uint64_t n, uint64_t offset = 0);
  void download(void *dst, uint64_t n, uint64_t offset = 0) const;
  void fill(uint8_t byte, uint64_t n, uint64_t offset = 0);

private:
  CUdeviceptr dptr = 0;
  uint64_t bytes = 0;
  std::string name;
};

/// A module JIT-compiled from PTX text. On failure the message holds the
/// JIT error log (this is how a PTX for another architecture shows up).
class Module {
public:
  Module(const std::string &ptx, const std::string &pathForMessages,
         bool verbose);
  ~Module();
  Module(const Module &) = delete;
  Module &operator=(const Module &) = delete;

  /// cuModuleGetFunction; a missing entry is an Error naming the PTX file.
  CUfunction function(const std::string &name) const;
  const std::string &infoLog() const { return info; }

private:
  CUmodule mod = nullptr;
  std::string path;
  std::string info;
};

struct FunctionAttributes {
  int numRegs = 0, staticShared = 0, localBytes = 0, maxThreadsPerBlock = 0;
  int ptxVersion = 0, binaryVersion = 0;
};
FunctionAttributes functionAttributes(CUfunction f);

/// Blocks of `f` that one SM holds at once with `block` threads and
/// `dynamicShared` bytes of dynamic shared memory
/// (cuOccupancyMaxActiveBlocksPerMultiprocessor; 0 if none fits).
int residentBlocksPerSm(CUfunction f, const std::array<uint32_t, 3> &block,
                        uint32_t dynamicShared);

/// A kernel ready to launch on the null stream: the constructor checks the
/// block against the function's thread limit and the shared memory against
/// the device's, and raises the dynamic shared memory limit when needed, so
/// that launch() is a bare cuLaunchKernel (nothing else between timing
/// events).
///
/// A `persistent` kernel (codegen.schedule "persistent") loops over its
/// tiles with stride gridDim.x. Its grid[0] was sized for the SM count the
/// compiler assumed (attn-compile --sm-count); on a GPU with fewer SMs that
/// many blocks would run in two waves, the second finishing alone. So its
/// x extent is capped at the device's SMs x resident blocks per SM, in
/// every launch (launch and launchOn alike): min(grid[0], that), never
/// more than the manifest's count.
class KernelLauncher {
public:
  KernelLauncher(CUfunction f, const std::string &name,
                 const std::array<uint32_t, 3> &grid,
                 const std::array<uint32_t, 3> &block, uint32_t dynamicShared,
                 const DeviceInfo &device, bool persistent = false);
  /// `params` holds one pointer per kernel parameter. Does not synchronize.
  void launch(std::vector<void *> &params) const;
  /// cuLaunchKernel on `stream` with grid `gridDims` (a kernel with run-time
  /// sizes has one per launch; a persistent kernel's x extent capped as
  /// above); never throws, allocates nothing.
  CUresult launchOn(void **params, CUstream stream,
                    const std::array<uint32_t, 3> &gridDims) const noexcept;
  /// What launch() puts in its error message: "kernel 'k', grid [...],
  /// block [...], n bytes of dynamic shared memory".
  std::string describeLaunch(const std::array<uint32_t, 3> &gridDims) const;
  const FunctionAttributes &attributes() const { return attrs; }
  /// The grid launch() uses: the constructor's, capped if persistent.
  const std::array<uint32_t, 3> &launchGrid() const { return grid; }

private:
  /// `gridDims` with a persistent kernel's x extent capped.
  std::array<uint32_t, 3> capped(std::array<uint32_t, 3> gridDims) const;

  CUfunction fn;
  std::string name;
  std::array<uint32_t, 3> grid, block;
  uint32_t shared;
  /// Blocks the device holds at once (SMs x resident blocks per SM) for a
  /// persistent kernel; 0 for the others.
  uint32_t maxResidentBlocks = 0;
  FunctionAttributes attrs;
};

class Event {
public:
  Event();
  ~Event();
  Event(Event &&other) noexcept : ev(other.ev) { other.ev = nullptr; }
  Event(const Event &) = delete;
  Event &operator=(const Event &) = delete;

  void record();
  void synchronize();
  CUevent get() const { return ev; }
  /// Milliseconds from `start` to this event (both recorded, this one done).
  float elapsedSince(const Event &start) const;

private:
  CUevent ev = nullptr;
};

} // namespace attnrt

#endif // ATTNRT_CUDA_H
