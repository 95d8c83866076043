//===- Cuda.cpp - checked CUDA driver API wrappers ------------------------===//

#include "attnrt/Cuda.h"
#include "attnrt/Util.h"

#include <algorithm>
#include <cstdio>
#include <cstring>

namespace attnrt {

static const char *builtinResultName(int r) {
  switch (r) {
#define ATTNRT_CU_RESULT(name, value)                                          \
  case value:                                                                  \
    return #name;
#include "CuResultNames.inc"
#undef ATTNRT_CU_RESULT
  default:
    return nullptr;
  }
}

std::string cuResultName(CUresult r) {
  const char *name = nullptr;
  // Without a driver library, the built-in table answers.
  if (driver::loadError().empty() && cuGetErrorName(r, &name) == CUDA_SUCCESS &&
      name)
    return name;
  if (const char *builtin = builtinResultName(int(r)))
    return builtin;
  return "CUresult " + std::to_string(int(r));
}

std::string cuResultString(CUresult r) {
  const char *text = nullptr;
  if (driver::loadError().empty() &&
      cuGetErrorString(r, &text) == CUDA_SUCCESS && text)
    return text;
  if (r == CUDA_ERROR_STUB_LIBRARY)
    return "CUDA driver is a stub library";
  return "";
}

std::string describeCuResult(CUresult r) {
  std::string s = cuResultName(r);
  std::string text = cuResultString(r);
  if (!text.empty())
    s += " (" + text + ")";
  return s;
}

static const char *baseName(const char *file) {
  const char *slash = std::strrchr(file, '/');
  return slash ? slash + 1 : file;
}

void throwCudaError(CUresult r, const char *call, const char *file, int line,
                    const std::string &extra) {
  std::string message = std::string(call) + " failed: " + describeCuResult(r);
  if (!extra.empty())
    message += ": " + extra;
  message += " [" + std::string(baseName(file)) + ":" + std::to_string(line) +
             "]";
  throw CudaError(r, message, kExitFailure);
}

bool isStickyError(CUresult r) {
  switch (int(r)) {
  case 214: // ECC uncorrectable
  case 700: // illegal address
  case 702: // launch timeout
  case 710: // assert
  case 714: // hardware stack error
  case 715: // illegal instruction
  case 716: // misaligned address
  case 717: // invalid address space
  case 718: // invalid pc
  case 719: // launch failed
    return true;
  default:
    return false;
  }
}

//===----------------------------------------------------------------------===//
// Context
//===----------------------------------------------------------------------===//

[[noreturn]] static void noDevice(CUresult r, const std::string &what) {
  std::string message = "no CUDA driver/GPU available: " + what + ": " +
                        describeCuResult(r);
  if (r == CUDA_ERROR_NO_DEVICE)
    message += "; check nvidia-smi and CUDA_VISIBLE_DEVICES";
  else if (r == CUDA_ERROR_SYSTEM_DRIVER_MISMATCH ||
           r == CUDA_ERROR_COMPAT_NOT_SUPPORTED_ON_DEVICE)
    message += "; the NVIDIA kernel driver and the user-space driver "
               "library do not match";
  else if (r == CUDA_ERROR_STUB_LIBRARY)
    message += "; the libcuda.so.1 loaded is the CUDA toolkit's stub, no "
               "NVIDIA driver is installed";
  throw CudaError(r, message, kExitNoDevice);
}

CudaContext::CudaContext(int ordinal) {
  CUresult r = cuInit(0);
  if (r != CUDA_SUCCESS)
    noDevice(r, "cuInit(0) failed");
  int count = 0;
  r = cuDeviceGetCount(&count);
  if (r != CUDA_SUCCESS)
    noDevice(r, "cuDeviceGetCount failed");
  if (count == 0)
    noDevice(CUDA_ERROR_NO_DEVICE, "cuDeviceGetCount found 0 devices");
  if (ordinal < 0 || ordinal >= count)
    throw Error("no CUDA device " + std::to_string(ordinal) + ": found " +
                    std::to_string(count) + " device(s), numbered 0 to " +
                    std::to_string(count - 1),
                kExitNoDevice);
  dev.ordinal = ordinal;
  ATTNRT_CU_CHECK(cuDriverGetVersion(&dev.driverVersion));
  ATTNRT_CU_CHECK(cuDeviceGet(&handle, ordinal));
  char name[256] = {0};
  ATTNRT_CU_CHECK(cuDeviceGetName(name, sizeof name - 1, handle));
  dev.name = name;
  ATTNRT_CU_CHECK(cuDeviceGetAttribute(
      &dev.ccMajor, CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MAJOR, handle));
  ATTNRT_CU_CHECK(cuDeviceGetAttribute(
      &dev.ccMinor, CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MINOR, handle));
  ATTNRT_CU_CHECK(cuDeviceGetAttribute(
      &dev.smCount, CU_DEVICE_ATTRIBUTE_MULTIPROCESSOR_COUNT, handle));
  ATTNRT_CU_CHECK(cuDeviceGetAttribute(
      &dev.maxSharedPerBlockOptin,
      CU_DEVICE_ATTRIBUTE_MAX_SHARED_MEMORY_PER_BLOCK_OPTIN, handle));
  size_t total = 0;
  ATTNRT_CU_CHECK(cuDeviceTotalMem(&total, handle));
  dev.totalMemory = total;
  ATTNRT_CU_CHECK(cuDevicePrimaryCtxRetain(&ctx, handle));
  r = cuCtxSetCurrent(ctx);
  if (r != CUDA_SUCCESS) {
    cuDevicePrimaryCtxRelease(handle);
    ctx = nullptr;
    throwCudaError(r, "cuCtxSetCurrent(ctx)", __FILE__, __LINE__);
  }
}

CudaContext::~CudaContext() {
  if (ctx)
    (void)cuDevicePrimaryCtxRelease(handle);
}

void CudaContext::synchronize() { ATTNRT_CU_CHECK(cuCtxSynchronize()); }

std::string CudaContext::describe() const {
  return format("%s (sm_%d%d, %d SMs, %.1f GiB, driver CUDA %d.%d)",
                dev.name.c_str(), dev.ccMajor, dev.ccMinor, dev.smCount,
                double(dev.totalMemory) / (1024.0 * 1024.0 * 1024.0),
                dev.driverVersion / 1000, (dev.driverVersion % 1000) / 10);
}

//===----------------------------------------------------------------------===//
// Buffers
//===----------------------------------------------------------------------===//

DeviceBuffer::DeviceBuffer(uint64_t n, const std::string &what)
    : bytes(n), name(what) {
  // cuMemAlloc(0) is an error; keep one byte so that every buffer has a
  // distinct, valid address.
  CUresult r = cuMemAlloc(&dptr, n ? n : 1);
  if (r != CUDA_SUCCESS) {
    dptr = 0;
    std::string extra = "allocating " + formatBytes(n) + " for " + what;
    if (r == CUDA_ERROR_OUT_OF_MEMORY) {
      size_t freeBytes = 0, totalBytes = 0;
      if (cuMemGetInfo(&freeBytes, &totalBytes) == CUDA_SUCCESS)
        extra += " (device memory: " + formatBytes(freeBytes) + " free of " +
                 formatBytes(totalBytes) + ")";
    }
    throwCudaError(r, "cuMemAlloc", __FILE__, __LINE__, extra);
  }
}

DeviceBuffer::~DeviceBuffer() {
  if (dptr)
    (void)cuMemFree(dptr);
}

DeviceBuffer::DeviceBuffer(DeviceBuffer &&o) noexcept
    : dptr(o.dptr), bytes(o.bytes), name(std::move(o.name)) {
  o.dptr = 0;
  o.bytes = 0;
}

DeviceBuffer &DeviceBuffer::operator=(DeviceBuffer &&o) noexcept {
  if (this != &o) {
    if (dptr)
      (void)cuMemFree(dptr);
    dptr = o.dptr;
    bytes = o.bytes;
    name = std::move(o.name);
    o.dptr = 0;
    o.bytes = 0;
  }
  return *this;
}

static void checkRange(uint64_t offset, uint64_t n, uint64_t size,
                       const std::string &name) {
  if (offset > size || n > size - offset)
    throw Error("internal error: access of " + std::to_string(n) +
                " bytes at offset " + std::to_string(offset) + " of " +
                name + " (" + std::to_string(size) + " bytes)");
}

void DeviceBuffer::upload(const void *src, uint64_t n, uint64_t offset) {
  checkRange(offset, n, bytes, name);
  if (n)
    ATTNRT_CU_CHECK_MSG(cuMemcpyHtoD(dptr + offset, src, n),
                        "uploading " + name);
}

void DeviceBuffer::download(void *dst, uint64_t n, uint64_t offset) const {
  checkRange(offset, n, bytes, name);
  if (n)
    ATTNRT_CU_CHECK_MSG(cuMemcpyDtoH(dst, dptr + offset, n),
                        "downloading " + name);
}

void DeviceBuffer::fill(uint8_t byte, uint64_t n, uint64_t offset) {
  checkRange(offset, n, bytes, name);
  if (n)
    ATTNRT_CU_CHECK_MSG(cuMemsetD8(dptr + offset, byte, n),
                        "filling " + name);
}

//===----------------------------------------------------------------------===//
// Module
//===----------------------------------------------------------------------===//

static std::string trimLog(const char *log, size_t capacity) {
  std::string s(log, strnlen(log, capacity));
  while (!s.empty() && (s.back() == '\n' || s.back() == ' ' || s.back() == '\0'))
    s.pop_back();
  return s;
}

Module::Module(const std::string &ptx, const std::string &pathForMessages,
               bool verbose)
    : path(pathForMessages) {
  constexpr size_t kLogSize = 64 * 1024;
  std::vector<char> infoLog(kLogSize, '\0'), errorLog(kLogSize, '\0');
  CUjit_option options[] = {
      CU_JIT_INFO_LOG_BUFFER, CU_JIT_INFO_LOG_BUFFER_SIZE_BYTES,
      CU_JIT_ERROR_LOG_BUFFER, CU_JIT_ERROR_LOG_BUFFER_SIZE_BYTES,
      CU_JIT_LOG_VERBOSE};
  void *values[] = {infoLog.data(),
                    reinterpret_cast<void *>(uintptr_t(kLogSize - 1)),
                    errorLog.data(),
                    reinterpret_cast<void *>(uintptr_t(kLogSize - 1)),
                    reinterpret_cast<void *>(uintptr_t(verbose ? 1 : 0))};
  // The PTX must be NUL-terminated; std::string guarantees it.
  CUresult r = cuModuleLoadDataEx(&mod, ptx.c_str(),
                                  unsigned(sizeof options / sizeof *options),
                                  options, values);
  info = trimLog(infoLog.data(), kLogSize);
  if (r != CUDA_SUCCESS) {
    mod = nullptr;
    std::string log = trimLog(errorLog.data(), kLogSize);
    std::string extra = "JIT compilation of '" + path + "' failed";
    if (r == CUDA_ERROR_UNSUPPORTED_PTX_VERSION)
      extra += " (the PTX ISA version is newer than this driver supports; "
               "update the driver or generate PTX for an older ISA)";
    extra += log.empty() ? std::string("; the JIT error log is empty")
                         : "; JIT error log:\n" + log;
    if (!info.empty())
      extra += "\nJIT info log:\n" + info;
    throwCudaError(r, "cuModuleLoadDataEx", __FILE__, __LINE__, extra);
  }
}

Module::~Module() {
  if (mod)
    (void)cuModuleUnload(mod);
}

CUfunction Module::function(const std::string &name) const {
  CUfunction f = nullptr;
  CUresult r = cuModuleGetFunction(&f, mod, name.c_str());
  if (r == CUDA_ERROR_NOT_FOUND)
    throw CudaError(r,
                    "kernel '" + name + "' not found in '" + path +
                        "' (cuModuleGetFunction: " + describeCuResult(r) +
                        "); the manifest and the PTX file disagree",
                    kExitFailure);
  if (r != CUDA_SUCCESS)
    throwCudaError(r, "cuModuleGetFunction", __FILE__, __LINE__,
                   "kernel '" + name + "' in '" + path + "'");
  return f;
}

FunctionAttributes functionAttributes(CUfunction f) {
  FunctionAttributes a;
  ATTNRT_CU_CHECK(cuFuncGetAttribute(&a.numRegs, CU_FUNC_ATTRIBUTE_NUM_REGS, f));
  ATTNRT_CU_CHECK(cuFuncGetAttribute(
      &a.staticShared, CU_FUNC_ATTRIBUTE_SHARED_SIZE_BYTES, f));
  ATTNRT_CU_CHECK(cuFuncGetAttribute(
      &a.localBytes, CU_FUNC_ATTRIBUTE_LOCAL_SIZE_BYTES, f));
  ATTNRT_CU_CHECK(cuFuncGetAttribute(
      &a.maxThreadsPerBlock, CU_FUNC_ATTRIBUTE_MAX_THREADS_PER_BLOCK, f));
  ATTNRT_CU_CHECK(cuFuncGetAttribute(&a.ptxVersion,
                                     CU_FUNC_ATTRIBUTE_PTX_VERSION, f));
  ATTNRT_CU_CHECK(cuFuncGetAttribute(&a.binaryVersion,
                                     CU_FUNC_ATTRIBUTE_BINARY_VERSION, f));
  return a;
}

KernelLauncher::KernelLauncher(CUfunction f, const std::string &kernelName,
                               const std::array<uint32_t, 3> &gridDims,
                               const std::array<uint32_t, 3> &blockDims,
                               uint32_t dynamicShared, const DeviceInfo &device,
                               bool persistent)
    : fn(f), name(kernelName), grid(gridDims), block(blockDims),
      shared(dynamicShared), attrs(functionAttributes(f)) {
  uint64_t threads = uint64_t(block[0]) * block[1] * block[2];
  if (threads > uint64_t(attrs.maxThreadsPerBlock))
    throw Error(format("kernel '%s': a block of %llu threads exceeds the "
                       "function's limit of %d threads per block (it uses "
                       "%d registers per thread)",
                       name.c_str(), (unsigned long long)threads,
                       attrs.maxThreadsPerBlock, attrs.numRegs));
  uint64_t totalShared = uint64_t(attrs.staticShared) + shared;
  if (totalShared > uint64_t(device.maxSharedPerBlockOptin))
    throw Error(format("kernel '%s': needs %llu bytes of shared memory per "
                       "block (%d static + %u dynamic), the device allows "
                       "%d",
                       name.c_str(), (unsigned long long)totalShared,
                       attrs.staticShared, shared,
                       device.maxSharedPerBlockOptin));
  // The opt-in limit counts static + dynamic shared memory: a kernel with
  // 48 KiB of dynamic and 1 byte of static shared memory needs it too.
  if (totalShared > 48 * 1024)
    ATTNRT_CU_CHECK_MSG(
        cuFuncSetAttribute(f, CU_FUNC_ATTRIBUTE_MAX_DYNAMIC_SHARED_SIZE_BYTES,
                           int(shared)),
        "kernel '" + name + "'");
  if (persistent) {
    // After the shared memory limit is raised: occupancy counts it.
    const int perSm = residentBlocksPerSm(f, block, shared);
    if (perSm < 1)
      throw Error(format("kernel '%s': no block of %llu threads with %llu "
                         "bytes of shared memory fits on an SM of the device",
                         name.c_str(), (unsigned long long)threads,
                         (unsigned long long)totalShared));
    maxResidentBlocks = uint32_t(std::min<uint64_t>(
        uint64_t(perSm) * uint64_t(device.smCount), UINT32_MAX));
    grid = capped(grid);
  }
}

int residentBlocksPerSm(CUfunction f, const std::array<uint32_t, 3> &block,
                        uint32_t dynamicShared) {
  int blocks = 0;
  ATTNRT_CU_CHECK(cuOccupancyMaxActiveBlocksPerMultiprocessor(
      &blocks, f, int(block[0] * block[1] * block[2]), size_t(dynamicShared)));
  return blocks;
}

std::array<uint32_t, 3>
KernelLauncher::capped(std::array<uint32_t, 3> gridDims) const {
  if (maxResidentBlocks)
    gridDims[0] = std::min(gridDims[0], maxResidentBlocks);
  return gridDims;
}

void KernelLauncher::launch(std::vector<void *> &params) const {
  CUresult r = launchOn(params.data(), nullptr, grid);
  if (r != CUDA_SUCCESS)
    throwCudaError(r, "cuLaunchKernel", __FILE__, __LINE__,
                   describeLaunch(grid));
}

CUresult KernelLauncher::launchOn(
    void **params, CUstream stream,
    const std::array<uint32_t, 3> &gridDims) const noexcept {
  const std::array<uint32_t, 3> g = capped(gridDims);
  return cuLaunchKernel(fn, g[0], g[1], g[2], block[0], block[1], block[2],
                        shared, stream, params, nullptr);
}

std::string
KernelLauncher::describeLaunch(const std::array<uint32_t, 3> &gridDims) const {
  return format("kernel '%s', grid [%u, %u, %u], block [%u, %u, %u], %u bytes "
                "of dynamic shared memory",
                name.c_str(), capped(gridDims)[0], gridDims[1], gridDims[2],
                block[0], block[1], block[2], shared);
}

//===----------------------------------------------------------------------===//
// Events
//===----------------------------------------------------------------------===//

Event::Event() { ATTNRT_CU_CHECK(cuEventCreate(&ev, CU_EVENT_DEFAULT)); }

Event::~Event() {
  if (ev)
    (void)cuEventDestroy(ev);
}

void Event::record() { ATTNRT_CU_CHECK(cuEventRecord(ev, nullptr)); }

void Event::synchronize() { ATTNRT_CU_CHECK(cuEventSynchronize(ev)); }

float Event::elapsedSince(const Event &start) const {
  float ms = 0.0f;
  ATTNRT_CU_CHECK(cuEventElapsedTime(&ms, start.ev, ev));
  return ms;
}

} // namespace attnrt
