//===- RunnerBuffers.cpp - attn-run's device buffers and inputs -----------===//
//
// The guard regions after outputs and workspaces, the seeded inputs of
// dense, packed and paged kernels (uploaded as the kernels read them) and
// the downloads of results as doubles.
//
//===----------------------------------------------------------------------===//

#include "RunnerBuffers.h"
#include "RunnerReport.h"
#include "attnrt/Paged.h"
#include "attnrt/Util.h"

#include <algorithm>

namespace attnrt::runner {

std::string bufferName(const ParamSpec &ps) {
  return "'" + ps.name + "' " + formatShape(ps.shape) + " " +
         dtypeName(ps.dtype);
}

void poisonWithGuard(DeviceBuffer &buffer, const ParamSpec &spec) {
  uint64_t bytes = spec.sizeBytes();
  buffer.fill(kPoisonByte, bytes);
  buffer.fill(kGuardByte, kGuardBytes, bytes);
}

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

/// Uploads seeded random values to the tensor at `ptr`.
static void uploadRandom(InputGenerator &gen, const ParamSpec &spec,
                         CUdeviceptr ptr, double lo, double hi, bool isMask,
                         int64_t maskRowLen) {
  HostTensor t(spec.dtype, spec.shape);
  if (isMask)
    gen.fillMask(t, maskRowLen, /*keepValues=*/false);
  else
    gen.fill(t, lo, hi, /*keepValues=*/false);
  ATTNRT_CU_CHECK_MSG(cuMemcpyHtoD(ptr, t.data(), t.sizeBytes()),
                      "uploading '" + spec.name + "'");
}

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

void uploadGradOutput(const ParamSpec &spec, CUdeviceptr ptr,
                      InputGenerator &gen) {
  uploadRandom(gen, spec, ptr, -1.0, 1.0, false, 0);
}

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

} // namespace attnrt::runner
