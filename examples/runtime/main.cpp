// attn-runtime-example: a forward and a backward of attention on the
// program's own device buffers, through the runtime API (attnrt/Runtime.h).
//
//   attn-runtime-example train.json
//
// train.json is a manifest with one forward kernel set that writes lse and
// one backward set (attn-compile on a function with attn.attention and
// attn.attention_grad, e.g. the one docs/runtime.md shows). The example
// allocates every tensor the sets list, fills the inputs with random
// values, launches the forward and the backward on a stream of its own, and
// prints the sum of each output. It exits with 2 and "no CUDA driver/GPU"
// on a machine without a GPU, with 3 on a bad manifest.

#include "attnrt/Runtime.h"

#include <cuda.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <map>
#include <random>
#include <string>
#include <vector>

namespace {

int fail(const attnrt::Status &s) {
  std::fprintf(stderr, "attn-runtime-example: %s\n", s.message().c_str());
  return int(s.code());
}

int64_t numElements(const attnrt::TensorInfo &t) {
  int64_t n = 1;
  for (int64_t d : t.shape)
    n *= d;
  return n;
}

size_t elementBytes(const std::string &dtype) {
  return dtype == "f32" || dtype == "i32" ? 4 : dtype == "i1" ? 1 : 2;
}

/// A float as a bf16/f16 bit pattern (round to nearest even) or f32 bytes.
void encode(float x, const std::string &dtype, unsigned char *dst) {
  uint32_t bits;
  std::memcpy(&bits, &x, 4);
  if (dtype == "f32") {
    std::memcpy(dst, &bits, 4);
  } else if (dtype == "bf16") {
    uint16_t h = uint16_t((bits + 0x7FFF + ((bits >> 16) & 1)) >> 16);
    std::memcpy(dst, &h, 2);
  } else if (dtype == "f16") {
    // Inputs in [-1, 1]: normal or zero halves, no overflow.
    uint32_t sign = (bits >> 16) & 0x8000, mant = bits & 0x7FFFFF;
    int exp = int((bits >> 23) & 0xFF) - 127 + 15;
    uint16_t h =
        exp <= 0 ? uint16_t(sign) : uint16_t(sign | (exp << 10) | (mant >> 13));
    std::memcpy(dst, &h, 2);
  } else {
    *dst = x > 0; // i1 masks: keep about half
  }
}

double decode(const unsigned char *src, const std::string &dtype) {
  if (dtype == "f32") {
    float f;
    std::memcpy(&f, src, 4);
    return f;
  }
  uint16_t h;
  std::memcpy(&h, src, 2);
  if (dtype == "bf16") {
    uint32_t bits = uint32_t(h) << 16;
    float f;
    std::memcpy(&f, &bits, 4);
    return f;
  }
  int exp = (h >> 10) & 0x1F, mant = h & 0x3FF;
  double v = exp ? std::ldexp(1.0 + mant / 1024.0, exp - 15)
                 : std::ldexp(mant / 1024.0, -14);
  return (h & 0x8000) ? -v : v;
}

#define CHECK_CU(call)                                                         \
  do {                                                                         \
    CUresult r_ = (call);                                                      \
    if (r_ != CUDA_SUCCESS) {                                                  \
      const char *name_ = nullptr;                                             \
      cuGetErrorName(r_, &name_);                                              \
      std::fprintf(stderr, "attn-runtime-example: %s failed: %s\n", #call,     \
                   name_ ? name_ : "?");                                       \
      return 1;                                                                \
    }                                                                          \
  } while (0)

} // namespace

int main(int argc, char **argv) {
  if (argc != 2) {
    std::fprintf(stderr, "usage: attn-runtime-example <manifest.json>\n");
    return 3;
  }
  // Load once: the manifest is validated, the PTX JIT-compiled, every
  // kernel looked up.
  auto lib = attnrt::Library::load(argv[1]);
  if (!lib.ok())
    return fail(lib.status());
  std::printf("device: %s\n", (*lib)->device().c_str());
  auto fwd = (*lib)->forward();
  if (!fwd.ok())
    return fail(fwd.status());
  auto bwd = (*lib)->backward((*fwd)->name());
  if (!bwd.ok())
    return fail(bwd.status());

  // One buffer per tensor name; the backward shares the forward's inputs
  // and reads its output and lse.
  std::map<std::string, CUdeviceptr> buffers;
  std::map<std::string, attnrt::TensorInfo> infos;
  std::mt19937 rng(42);
  std::uniform_real_distribution<float> uniform(-1.0f, 1.0f);
  attnrt::Arguments args;
  for (const attnrt::KernelSet *set : {*fwd, *bwd}) {
    for (const attnrt::TensorInfo &t : set->tensors()) {
      if (buffers.count(t.name))
        continue;
      size_t bytes = size_t(numElements(t)) * elementBytes(t.dtype);
      CUdeviceptr ptr = 0;
      CHECK_CU(cuMemAlloc(&ptr, bytes));
      buffers[t.name] = ptr;
      infos[t.name] = t;
      args.set(t.name, ptr);
      bool input = !t.isOutput && t.name != "output" && t.name != "lse";
      if (!input)
        continue;
      std::vector<unsigned char> host(bytes);
      for (int64_t i = 0; i < numElements(t); ++i)
        encode(uniform(rng), t.dtype, &host[size_t(i) * elementBytes(t.dtype)]);
      CHECK_CU(cuMemcpyHtoD(ptr, host.data(), bytes));
    }
  }
  args.dropoutSeed(1234, 0);

  // The scratch of a split-KV forward group and of the backward group: the
  // caller's, any content. One buffer serves both, as they run one after
  // the other on one stream.
  auto fwdBytes = (*fwd)->workspaceBytes(args);
  if (!fwdBytes.ok())
    return fail(fwdBytes.status());
  auto bwdBytes = (*bwd)->workspaceBytes(args);
  if (!bwdBytes.ok())
    return fail(bwdBytes.status());
  uint64_t wsBytes = std::max(*fwdBytes, *bwdBytes);
  CUdeviceptr workspace = 0;
  if (wsBytes)
    CHECK_CU(cuMemAlloc(&workspace, wsBytes));

  CUstream stream = nullptr;
  CHECK_CU(cuStreamCreate(&stream, CU_STREAM_NON_BLOCKING));
  attnrt::Status s = (*fwd)->launch(args, stream, workspace, wsBytes);
  if (!s.ok())
    return fail(s);
  s = (*bwd)->launch(args, stream, workspace, wsBytes);
  if (!s.ok())
    return fail(s);
  CHECK_CU(cuStreamSynchronize(stream));

  bool finite = true;
  for (const char *name :
       {"output", "lse", "grad_query", "grad_key", "grad_value"}) {
    auto it = infos.find(name);
    if (it == infos.end())
      continue;
    const attnrt::TensorInfo &t = it->second;
    size_t eb = elementBytes(t.dtype);
    std::vector<unsigned char> host(size_t(numElements(t)) * eb);
    CHECK_CU(cuMemcpyDtoH(host.data(), buffers[name], host.size()));
    double sum = 0.0;
    for (int64_t i = 0; i < numElements(t); ++i) {
      double v = decode(&host[size_t(i) * eb], t.dtype);
      finite = finite && std::isfinite(v);
      sum += v;
    }
    std::printf("%-10s %s sum %.6g\n", name, t.dtype.c_str(), sum);
  }
  for (auto &b : buffers)
    cuMemFree(b.second);
  if (workspace)
    cuMemFree(workspace);
  cuStreamDestroy(stream);
  if (!finite) {
    std::fprintf(stderr, "attn-runtime-example: an output is not finite\n");
    return 1;
  }
  std::printf("OK\n");
  return 0;
}
