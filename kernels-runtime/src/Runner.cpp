//===- Runner.cpp - run, validate and time manifest kernels ---------------===//

#include "attnrt/Runner.h"
#include "attnrt/Cuda.h"
#include "attnrt/HostData.h"
#include "attnrt/Manifest.h"
#include "attnrt/ReferenceKernel.h"
#include "attnrt/Util.h"
#include "attnopt/Reference/Philox.h"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <limits>
#include <memory>

namespace attnrt {
namespace {

constexpr uint64_t kGuardBytes = 256; // after each output, must stay intact
constexpr uint8_t kGuardByte = 0xA5;
constexpr uint8_t kPoisonByte = 0xFF; // NaN in f16, bf16 and f32

void out(const std::string &s) {
  std::fputs(s.c_str(), stdout);
  std::fflush(stdout);
}

void warn(const std::string &s) {
  std::fflush(stdout);
  std::fprintf(stderr, "attn-run: warning: %s\n", s.c_str());
  std::fflush(stderr);
}

std::string sci(double v) {
  if (std::isnan(v))
    return "nan";
  return format("%.3e", v);
}

std::string shortFloat(double v) { return format("%g", v); }

std::string noSpaces(std::string s) {
  s.erase(std::remove(s.begin(), s.end(), ' '), s.end());
  return s;
}

std::string windowText(const KernelSpec &k) {
  if (!k.hasWindow)
    return "none";
  return std::to_string(k.windowLeft) + "," + std::to_string(k.windowRight);
}

std::string maskText(const KernelSpec &k) {
  if (!k.hasMask)
    return "none";
  return std::string(dtypeName(k.maskDtype)) +
         noSpaces(formatShape({k.maskShape.begin(), k.maskShape.end()}));
}

struct KernelResult {
  std::string status = "ERROR"; // PASS FAIL NOT_VALIDATED ERROR
  double ms = NAN, tflops = NAN, gbps = NAN;
  double outErr = NAN, lseErr = NAN;
  int64_t nans = -1;
};

std::string resultLine(const KernelSpec &k, const KernelResult &r) {
  std::string s = "RESULT";
  s += " name=" + k.name;
  s += std::string(" dtype=") + dtypeName(k.dtype);
  s += " B=" + std::to_string(k.batch) + " Hq=" + std::to_string(k.queryHeads) +
       " Hkv=" + std::to_string(k.kvHeads) +
       " Lq=" + std::to_string(k.queryLen) + " Lk=" + std::to_string(k.keyLen) +
       " D=" + std::to_string(k.headDim) + " Dv=" + std::to_string(k.valueDim);
  s += std::string(" causal=") + causalName(k.causal);
  s += " window=" + windowText(k);
  s += " softcap=" + (k.hasSoftcap ? shortFloat(k.softcap) : "none");
  s += " dropout=" + shortFloat(k.dropoutP);
  s += " mask=" + maskText(k);
  s += std::string(" lse=") + (k.hasLse ? "1" : "0");
  s += format(" flops=%.6e", k.flops());
  s += std::string(" causal_halved=") + (k.flopsHalvedForCausal() ? "1" : "0");
  s += " ms=" + (std::isnan(r.ms) ? std::string("nan") : format("%.5f", r.ms));
  s += " tflops=" +
       (std::isnan(r.tflops) ? std::string("nan") : format("%.3f", r.tflops));
  s += " gbps=" +
       (std::isnan(r.gbps) ? std::string("nan") : format("%.1f", r.gbps));
  s += " max_rel_err=" + sci(r.outErr);
  s += " lse_err=" + sci(r.lseErr);
  s += " nans=" + (r.nans < 0 ? std::string("nan") : std::to_string(r.nans));
  s += " status=" + r.status;
  return s + "\n";
}

/// One kernel parameter, bound to its data.
struct Bound {
  const ParamSpec *spec = nullptr;
  DeviceBuffer buffer;
  uint64_t scalar = 0;
};

double median(std::vector<float> v) {
  std::sort(v.begin(), v.end());
  size_t n = v.size();
  if (n == 0)
    return NAN;
  return n % 2 ? v[n / 2] : 0.5 * (double(v[n / 2 - 1]) + double(v[n / 2]));
}

KernelResult runKernel(const KernelSpec &k, CUfunction f, CudaContext &ctx,
                       const RunOptions &options) {
  KernelResult result;
  attnopt::ref::AttentionProblem p = k.problem();

  out("\nkernel " + k.name +
      (k.source.empty() ? std::string() : " (" + k.source + ")") + "\n");
  out(format("  %s B=%lld Hq=%lld Hkv=%lld Lq=%lld Lk=%lld D=%lld Dv=%lld "
             "scale=%g causal=%s",
             dtypeName(k.dtype), (long long)k.batch, (long long)k.queryHeads,
             (long long)k.kvHeads, (long long)k.queryLen, (long long)k.keyLen,
             (long long)k.headDim, (long long)k.valueDim, double(k.scale),
             causalName(k.causal)) +
      (k.hasWindow ? " window=[" + windowText(k) + "]" : "") +
      (k.hasSoftcap ? " softcap=" + shortFloat(k.softcap) : "") +
      (k.dropoutP > 0 ? " dropout_p=" + shortFloat(k.dropoutP) : "") +
      (k.hasMask ? " mask=" + maskText(k) : "") + (k.hasLse ? " lse" : "") +
      "\n");
  KernelLauncher launcher(f, k.name, k.grid, k.block, k.dynamicSharedMemory,
                          ctx.info());
  const FunctionAttributes &attrs = launcher.attributes();
  out(format("  launch: grid [%u, %u, %u] block [%u, %u, %u], %u B dynamic "
             "shared memory; %d registers, %d B static shared, %d B local\n",
             k.grid[0], k.grid[1], k.grid[2], k.block[0], k.block[1],
             k.block[2], k.dynamicSharedMemory, attrs.numRegs,
             attrs.staticShared, attrs.localBytes));
  if (attrs.localBytes > 0)
    out(format("  note: %d bytes of local memory per thread (register "
               "spills or local arrays)\n",
               attrs.localBytes));

  // Device buffers first, in parameter order (so that a problem too large
  // for the GPU fails before any host memory is spent on it); outputs are
  // poisoned and followed by a guard region.
  std::vector<std::unique_ptr<Bound>> bound;
  std::vector<void *> params;
  Bound *qB = nullptr, *kB = nullptr, *vB = nullptr, *mB = nullptr,
        *oB = nullptr, *lB = nullptr, *seedB = nullptr, *offsetB = nullptr;
  for (const ParamSpec &ps : k.params) {
    auto b = std::make_unique<Bound>();
    b->spec = &ps;
    if (ps.kind == ParamSpec::Kind::U64) {
      params.push_back(&b->scalar);
      (ps.name == "seed" ? seedB : offsetB) = b.get();
    } else {
      uint64_t bytes = ps.sizeBytes();
      b->buffer = DeviceBuffer(bytes + (ps.isOutput ? kGuardBytes : 0),
                               "'" + ps.name + "' " + formatShape(ps.shape) +
                                   " " + dtypeName(ps.dtype));
      if (ps.isOutput) {
        b->buffer.fill(kPoisonByte, bytes);
        b->buffer.fill(kGuardByte, kGuardBytes, bytes);
      }
      params.push_back(b->buffer.ptrAddress());
      Bound **slot = ps.name == "query"    ? &qB
                     : ps.name == "key"    ? &kB
                     : ps.name == "value"  ? &vB
                     : ps.name == "mask"   ? &mB
                     : ps.name == "output" ? &oB
                                           : &lB;
      *slot = b.get();
    }
    bound.push_back(std::move(b));
  }

  // Inputs q, k, v, mask, then seed and offset, from the seeded generator;
  // each rounded to its type on the host, uploaded and dropped.
  InputGenerator gen(options.seed);
  auto upload = [&](Bound *b, double lo, double hi, bool isMask) {
    HostTensor t(b->spec->dtype, b->spec->shape);
    if (isMask)
      gen.fillMask(t, k.maskShape[3], /*keepValues=*/false);
    else
      gen.fill(t, lo, hi, /*keepValues=*/false);
    b->buffer.upload(t.data(), t.sizeBytes());
  };
  upload(qB, -2.0, 2.0, false);
  upload(kB, -2.0, 2.0, false);
  upload(vB, -1.0, 1.0, false);
  if (mB)
    upload(mB, 0.0, 0.0, true);
  p.seed = gen.next();
  p.offset = gen.next() & 0xFFFFFFFFFFull;
  if (seedB)
    seedB->scalar = p.seed;
  if (offsetB)
    offsetB->scalar = p.offset;

  // First launch: the one that is validated.
  launcher.launch(params);
  ATTNRT_CU_CHECK_MSG(cuCtxSynchronize(), "running kernel '" + k.name + "'");

  bool ok = true;
  if (options.validate) {
    DeviceBuffer refOut(uint64_t(p.outputElements()) * sizeof(double),
                        "the reference output (f64)");
    DeviceBuffer refLse(uint64_t(p.lseElements()) * sizeof(double),
                        "the reference lse (f64)");
    auto t0 = std::chrono::steady_clock::now();
    runGpuReference(p, k.dtype, k.maskDtype, qB->buffer.ptr(),
                    kB->buffer.ptr(), vB->buffer.ptr(),
                    mB ? mB->buffer.ptr() : 0, refOut.ptr(), refLse.ptr());
    double refMs = std::chrono::duration<double, std::milli>(
                       std::chrono::steady_clock::now() - t0)
                       .count();
    std::vector<double> refO(size_t(p.outputElements())),
        refL(size_t(p.lseElements()));
    refOut.download(refO.data(), refOut.size());
    refLse.download(refL.data(), refLse.size());

    HostTensor ho(k.dtype, oB->spec->shape);
    oB->buffer.download(ho.data(), ho.sizeBytes());
    std::vector<double> gotO = ho.toDouble();
    std::vector<double> gotL;
    if (lB) {
      HostTensor hl(DType::F32, lB->spec->shape);
      lB->buffer.download(hl.data(), hl.sizeBytes());
      gotL = hl.toDouble();
    }
    Comparison c =
        compareResults(gotO, refO, lB ? &gotL : nullptr, &refL);
    double tol = options.outTolerance >= 0
                     ? options.outTolerance
                     : defaultOutputTolerance(k.dtype);
    result.outErr = c.outRelErr;
    result.nans = c.outNaNs + c.lseNaNs;
    bool outOk = c.outNaNs == 0 && c.outRelErr <= tol;
    out(format("  output: max rel err %.3e (max abs diff %.3e, max |ref| "
               "%.3e; tolerance %.1e), NaN/inf %lld%s\n",
               c.outRelErr, c.outMaxAbsDiff, c.refMaxAbs, tol,
               (long long)c.outNaNs, outOk ? "" : "  <-- FAIL"));
    ok = ok && outOk;
    if (lB) {
      result.lseErr = c.lseErr;
      bool lseOk = c.lseNaNs == 0 && c.lseInfMismatches == 0 &&
                   c.lseErr <= options.lseTolerance;
      out(format("  lse: max err %.3e (|l - r| / max(1, |r|); tolerance "
                 "%.1e), -inf mismatches %lld, NaN %lld%s\n",
                 c.lseErr, options.lseTolerance,
                 (long long)c.lseInfMismatches, (long long)c.lseNaNs,
                 lseOk ? "" : "  <-- FAIL"));
      ok = ok && lseOk;
    }
    out(format("  rows with no allowed key: %lld of %lld; float64 GPU "
               "reference took %.1f ms\n",
               (long long)c.emptyRows, (long long)p.lseElements(), refMs));
    if (k.dropoutP > 0)
      out("  note: dropout keep bits are checked through the output only\n");
    // Writes past the end of the outputs.
    for (Bound *b : {oB, lB}) {
      if (!b)
        continue;
      std::vector<uint8_t> guard(kGuardBytes);
      b->buffer.download(guard.data(), kGuardBytes, b->spec->sizeBytes());
      int64_t bad = std::count_if(guard.begin(), guard.end(),
                                  [](uint8_t x) { return x != kGuardByte; });
      if (bad) {
        out(format("  '%s': %lld of the %llu bytes after the end were "
                   "written  <-- FAIL (out-of-bounds write)\n",
                   b->spec->name.c_str(), (long long)bad,
                   (unsigned long long)kGuardBytes));
        ok = false;
      }
    }
    result.status = ok ? "PASS" : "FAIL";
  } else {
    result.status = "NOT_VALIDATED";
  }

  // Timing.
  for (int w = 0; w < options.warmup; ++w)
    launcher.launch(params);
  if (options.iters > 0) {
    std::vector<Event> starts, stops;
    starts.reserve(options.iters);
    stops.reserve(options.iters);
    for (int it = 0; it < options.iters; ++it) {
      starts.emplace_back();
      stops.emplace_back();
    }
    for (int it = 0; it < options.iters; ++it) {
      starts[it].record();
      launcher.launch(params);
      stops[it].record();
    }
    stops.back().synchronize();
    ATTNRT_CU_CHECK_MSG(cuCtxSynchronize(),
                        "running kernel '" + k.name + "' (timed launches)");
    std::vector<float> times;
    for (int it = 0; it < options.iters; ++it)
      times.push_back(stops[it].elapsedSince(starts[it]));
    result.ms = median(times);
    double seconds = result.ms * 1e-3;
    result.tflops = seconds > 0 ? k.flops() / seconds / 1e12 : NAN;
    result.gbps = seconds > 0 ? double(k.bytesMoved()) / seconds / 1e9 : NAN;
    out(format("  time: median %.5f ms of %d launches (min %.5f, max %.5f) "
               "after %d warm-up\n",
               result.ms, options.iters,
               double(*std::min_element(times.begin(), times.end())),
               double(*std::max_element(times.begin(), times.end())),
               options.warmup));
    out(format("  %.4e FLOP (2*B*Hq*Lq*Lk*(D+Dv)%s) -> %.3f TFLOP/s; %s "
               "moved (Q, K, V, %sO%s once) -> %.1f GB/s\n",
               k.flops(),
               k.flopsHalvedForCausal() ? ", halved: causal with Lq = Lk"
                                        : ", dense",
               result.tflops, formatBytes(k.bytesMoved()).c_str(),
               k.hasMask ? "mask, " : "", k.hasLse ? ", lse" : "",
               result.gbps));
  }
  out("  " + result.status + "\n");
  return result;
}

} // namespace

int runManifest(const RunOptions &options) {
  Manifest m = loadManifest(options.manifestPath);
  std::vector<const KernelSpec *> selected;
  for (const KernelSpec &k : m.kernels)
    if (options.kernel.empty() || k.name == options.kernel)
      selected.push_back(&k);
  if (selected.empty()) {
    std::string names;
    for (const KernelSpec &k : m.kernels)
      names += (names.empty() ? "" : ", ") + k.name;
    throw Error("no kernel named '" + options.kernel + "' in '" + m.path +
                    "' (it has: " + names + ")",
                kExitInput);
  }
  // Read the PTX before touching the driver: a missing file is reported the
  // same way on every machine.
  std::string ptx = readFile(m.ptxPath, "PTX file",
                             "named by \"ptx\" in '" + m.path + "'");

  CudaContext ctx(options.device);
  out("attn-run: " + m.path + ": " + std::to_string(m.kernels.size()) +
      " kernel(s), " + m.ptxPath + " for " + m.chip + "\n");
  out("attn-run: device " + std::to_string(options.device) + ": " +
      ctx.describe() + "\n");
  const DeviceInfo &dev = ctx.info();
  int chipCC = m.chipMajor * 10 + m.chipMinor,
      devCC = dev.ccMajor * 10 + dev.ccMinor;
  bool archSpecific = !m.chip.empty() && (m.chip.back() == 'a');
  if (chipCC > devCC)
    warn("the PTX targets " + m.chip + " but the device is sm_" +
         std::to_string(devCC) + ": JIT compilation will likely fail");
  else if (archSpecific && chipCC != devCC)
    warn("the PTX targets " + m.chip +
         " (architecture-specific features) but the device is sm_" +
         std::to_string(devCC) + ": JIT compilation will likely fail");

  std::unique_ptr<Module> loaded;
  try {
    loaded = std::make_unique<Module>(ptx, m.ptxPath, options.verbose);
  } catch (const Error &e) {
    // Nothing can run; still give each kernel its RESULT line for scripts.
    std::fflush(stdout);
    std::fprintf(stderr, "attn-run: error: %s\n", e.what());
    std::fflush(stderr);
    for (const KernelSpec *k : selected)
      out(resultLine(*k, KernelResult()));
    return kExitFailure;
  }
  const Module &module = *loaded;
  if (options.verbose && !module.infoLog().empty())
    out("attn-run: JIT info log:\n" + module.infoLog() + "\n");

  int failures = 0, passes = 0;
  for (const KernelSpec *k : selected) {
    KernelResult r;
    try {
      CUfunction f = module.function(k->name);
      r = runKernel(*k, f, ctx, options);
    } catch (const CudaError &e) {
      std::fflush(stdout);
      std::fprintf(stderr, "attn-run: error: kernel '%s': %s\n",
                   k->name.c_str(), e.what());
      out(resultLine(*k, r));
      ++failures;
      if (isStickyError(e.result())) {
        std::fprintf(stderr, "attn-run: the CUDA context is unusable after "
                             "this error; not running the remaining "
                             "kernels\n");
        return kExitFailure;
      }
      continue;
    } catch (const Error &e) {
      std::fflush(stdout);
      std::fprintf(stderr, "attn-run: error: kernel '%s': %s\n",
                   k->name.c_str(), e.what());
      out(resultLine(*k, r));
      ++failures;
      continue;
    }
    out(resultLine(*k, r));
    if (r.status == "FAIL")
      ++failures;
    else
      ++passes;
  }
  out(format("\nattn-run: %d kernel(s): %d ok, %d failed\n",
             int(selected.size()), passes, failures));
  return failures ? kExitFailure : kExitOk;
}

//===----------------------------------------------------------------------===//
// Self-test: GPU reference vs CPU reference
//===----------------------------------------------------------------------===//

namespace {

struct SelfCase {
  std::string name;
  attnopt::ref::AttentionProblem p;
  DType dtype = DType::F32;
  DType maskDtype = DType::I1;
};

SelfCase makeCase(const std::string &name, DType t, int64_t B, int64_t Hq,
                  int64_t Hkv, int64_t Lq, int64_t Lk, int64_t D,
                  int64_t Dv) {
  SelfCase c;
  c.name = name;
  c.dtype = t;
  c.p.batch = B;
  c.p.queryHeads = Hq;
  c.p.kvHeads = Hkv;
  c.p.queryLen = Lq;
  c.p.keyLen = Lk;
  c.p.headDim = D;
  c.p.valueDim = Dv;
  c.p.scale = float(1.0 / std::sqrt(double(D)));
  return c;
}

void setMask(SelfCase &c, DType t, std::array<int64_t, 4> shape) {
  c.maskDtype = t;
  c.p.maskKind = t == DType::I1 ? attnopt::ref::MaskKind::Boolean
                                : attnopt::ref::MaskKind::Additive;
  c.p.maskShape = shape;
}

std::vector<SelfCase> selfTestCases() {
  using attnopt::ref::Causal;
  std::vector<SelfCase> cases;
  cases.push_back(makeCase("plain-f32", DType::F32, 1, 2, 2, 8, 8, 16, 16));
  {
    auto c = makeCase("gqa-bf16-bottom-right", DType::BF16, 2, 8, 2, 16, 24,
                      32, 32);
    c.p.causal = Causal::BottomRight;
    cases.push_back(c);
  }
  {
    auto c = makeCase("mqa-f16-top-left", DType::F16, 1, 4, 1, 20, 13, 16,
                      16);
    c.p.causal = Causal::TopLeft;
    cases.push_back(c);
  }
  {
    auto c = makeCase("bottom-right-lq-gt-lk(empty-rows)", DType::F32, 1, 2,
                      1, 24, 16, 8, 8);
    c.p.causal = Causal::BottomRight;
    cases.push_back(c);
  }
  {
    auto c = makeCase("window-3-2-none", DType::F32, 1, 2, 2, 16, 40, 8, 8);
    c.p.hasWindow = true;
    c.p.windowLeft = 3;
    c.p.windowRight = 2;
    cases.push_back(c);
  }
  {
    auto c = makeCase("window-4-unbounded-bottom-right", DType::BF16, 2, 2, 2,
                      12, 30, 16, 16);
    c.p.causal = Causal::BottomRight;
    c.p.hasWindow = true;
    c.p.windowLeft = 4;
    c.p.windowRight = -1;
    cases.push_back(c);
  }
  {
    auto c = makeCase("window-unbounded-0-top-left", DType::F16, 1, 2, 2, 9,
                      9, 8, 8);
    c.p.causal = Causal::TopLeft;
    c.p.hasWindow = true;
    c.p.windowLeft = -1;
    c.p.windowRight = 0;
    cases.push_back(c);
  }
  {
    auto c = makeCase("softcap", DType::F32, 1, 2, 2, 10, 17, 16, 16);
    c.p.hasSoftcap = true;
    c.p.softcap = 2.5f;
    c.p.scale = 0.9f;
    cases.push_back(c);
  }
  {
    auto c = makeCase("bool-mask-key-padding", DType::BF16, 3, 2, 2, 12, 40,
                      32, 32);
    setMask(c, DType::I1, {3, 1, 1, 40});
    cases.push_back(c);
  }
  {
    auto c = makeCase("bool-mask-full-gqa", DType::F16, 2, 4, 2, 7, 11, 8, 8);
    setMask(c, DType::I1, {2, 4, 7, 11});
    cases.push_back(c);
  }
  {
    auto c = makeCase("bool-mask-shared-causal", DType::F32, 2, 2, 1, 9, 9, 8,
                      8);
    setMask(c, DType::I1, {1, 1, 9, 9});
    c.p.causal = Causal::TopLeft;
    cases.push_back(c);
  }
  {
    auto c = makeCase("additive-f32-per-head", DType::BF16, 2, 8, 2, 16, 32,
                      16, 16);
    setMask(c, DType::F32, {1, 8, 1, 32});
    cases.push_back(c);
  }
  {
    auto c = makeCase("additive-f16-full", DType::F16, 1, 2, 2, 6, 10, 8, 8);
    setMask(c, DType::F16, {1, 2, 6, 10});
    cases.push_back(c);
  }
  {
    auto c = makeCase("additive-bf16-scalar", DType::F32, 1, 1, 1, 5, 5, 4,
                      4);
    setMask(c, DType::BF16, {1, 1, 1, 1});
    cases.push_back(c);
  }
  {
    auto c = makeCase("additive-bf16-rows", DType::F32, 2, 2, 2, 8, 12, 8,
                      8);
    setMask(c, DType::BF16, {2, 1, 8, 1});
    cases.push_back(c);
  }
  {
    auto c = makeCase("dropout-0.25-lk-not-multiple-of-4", DType::F32, 2, 4,
                      2, 9, 13, 8, 8);
    c.p.dropoutP = 0.25f;
    cases.push_back(c);
  }
  {
    auto c = makeCase("dropout-0.1-mask-causal", DType::BF16, 1, 2, 2, 16, 16,
                      16, 16);
    c.p.dropoutP = 0.1f;
    c.p.causal = Causal::BottomRight;
    setMask(c, DType::I1, {1, 1, 16, 16});
    cases.push_back(c);
  }
  {
    auto c = makeCase("decode-lq-1", DType::BF16, 2, 8, 2, 1, 300, 64, 64);
    c.p.causal = Causal::BottomRight;
    cases.push_back(c);
  }
  {
    auto c = makeCase("d-ne-dv-long-keys", DType::F16, 1, 2, 1, 4, 517, 64,
                      48);
    cases.push_back(c);
  }
  {
    auto c = makeCase("wide-value-dim", DType::F32, 1, 1, 1, 3, 150, 24, 200);
    cases.push_back(c);
  }
  {
    auto c = makeCase("scale-zero", DType::F32, 1, 1, 1, 4, 6, 8, 8);
    c.p.scale = 0.0f;
    cases.push_back(c);
  }
  {
    auto c = makeCase("scale-negative", DType::F32, 1, 1, 1, 4, 6, 8, 8);
    c.p.scale = -0.7f;
    cases.push_back(c);
  }
  {
    // The "everything at once" example of docs/semantics.md.
    auto c = makeCase("everything", DType::BF16, 2, 8, 2, 16, 32, 64, 48);
    setMask(c, DType::F32, {1, 8, 1, 32});
    c.p.dropoutP = 0.25f;
    c.p.scale = 0.5f;
    c.p.hasSoftcap = true;
    c.p.softcap = 30.0f;
    c.p.causal = Causal::BottomRight;
    c.p.hasWindow = true;
    c.p.windowLeft = 8;
    c.p.windowRight = -1;
    cases.push_back(c);
  }
  {
    auto c = makeCase("delta-negative-window", DType::F32, 1, 1, 1, 4, 4, 4, 4);
    c.p.causal = Causal::BottomRight;
    c.p.hasWindow = true;
    c.p.windowLeft = 2;
    c.p.windowRight = -1;
    c.p.queryLen = 12; // rows 0..7 have no key at all (delta = -8)
    cases.push_back(c);
  }
  return cases;
}

} // namespace

int runSelfTest(const RunOptions &options) {
  CudaContext ctx(options.device);
  out("attn-run --self-test: GPU float64 reference vs CPU float64 reference "
      "(lib/Reference)\n");
  out("attn-run: device " + std::to_string(options.device) + ": " +
      ctx.describe() + "\n");
  const double kLimit = 1e-10;
  int failures = 0;

  // Philox known answers (docs/semantics.md 8.4), on host and device.
  {
    std::vector<std::array<uint32_t, 6>> in = {
        {0, 0, 0, 0, 0, 0},
        {0xffffffffu, 0xffffffffu, 0xffffffffu, 0xffffffffu, 0xffffffffu,
         0xffffffffu},
        {0x243f6a88u, 0x85a308d3u, 0x13198a2eu, 0x03707344u, 0xa4093822u,
         0x299f31d0u}};
    std::vector<std::array<uint32_t, 4>> want = {
        {0x6627e8d5u, 0xe169c58du, 0xbc57ac4cu, 0x9b00dbd8u},
        {0x408f276du, 0x41c83b0eu, 0xa20bc7c6u, 0x6d5451fdu},
        {0xd16cfe09u, 0x94fdccebu, 0x5001e420u, 0x24126ea1u}};
    std::vector<std::array<uint32_t, 4>> got = runGpuPhilox(in);
    bool ok = true;
    for (size_t t = 0; t < in.size(); ++t) {
      auto host = attnopt::ref::philox4x32_10({in[t][0], in[t][1], in[t][2],
                                               in[t][3]},
                                              {in[t][4], in[t][5]});
      ok = ok && got[t] == want[t] && host == want[t];
    }
    out(std::string("  philox4x32-10 known answers on the GPU and host: ") +
        (ok ? "PASS" : "FAIL") + "\n");
    failures += !ok;
  }

  uint64_t caseSeed = options.seed;
  for (SelfCase &c : selfTestCases()) {
    attnopt::ref::AttentionProblem &p = c.p;
    InputGenerator gen(caseSeed++);
    HostTensor hq(c.dtype, {p.batch, p.queryHeads, p.queryLen, p.headDim});
    HostTensor hk(c.dtype, {p.batch, p.kvHeads, p.keyLen, p.headDim});
    HostTensor hv(c.dtype, {p.batch, p.kvHeads, p.keyLen, p.valueDim});
    std::vector<double> qv = gen.fill(hq, -2.0, 2.0);
    std::vector<double> kv = gen.fill(hk, -2.0, 2.0);
    std::vector<double> vv = gen.fill(hv, -1.0, 1.0);
    HostTensor hm;
    std::vector<double> mv;
    if (p.maskKind != attnopt::ref::MaskKind::None) {
      hm = HostTensor(c.maskDtype, {p.maskShape.begin(), p.maskShape.end()});
      mv = gen.fillMask(hm, p.maskShape[3]);
    }
    p.seed = gen.next();
    p.offset = gen.next() & 0xFFFFFFFFFFull;

    DeviceBuffer dq(hq.sizeBytes(), "query"), dk(hk.sizeBytes(), "key"),
        dv(hv.sizeBytes(), "value");
    dq.upload(hq.data(), hq.sizeBytes());
    dk.upload(hk.data(), hk.sizeBytes());
    dv.upload(hv.data(), hv.sizeBytes());
    DeviceBuffer dm;
    if (!mv.empty()) {
      dm = DeviceBuffer(hm.sizeBytes(), "mask");
      dm.upload(hm.data(), hm.sizeBytes());
    }
    DeviceBuffer dout(uint64_t(p.outputElements()) * 8, "reference output");
    DeviceBuffer dlse(uint64_t(p.lseElements()) * 8, "reference lse");
    dout.fill(kPoisonByte, dout.size());
    dlse.fill(kPoisonByte, dlse.size());
    runGpuReference(p, c.dtype, c.maskDtype, dq.ptr(), dk.ptr(), dv.ptr(),
                    dm.ptr(), dout.ptr(), dlse.ptr());
    std::vector<double> gpuOut(size_t(p.outputElements())),
        gpuLse(size_t(p.lseElements()));
    dout.download(gpuOut.data(), dout.size());
    dlse.download(gpuLse.data(), dlse.size());

    std::vector<double> cpuOut, cpuLse;
    attnopt::ref::referenceAttention(p, qv, kv, vv, mv, cpuOut, cpuLse);
    Comparison cmp = compareResults(gpuOut, cpuOut, &gpuLse, &cpuLse);
    // The lse error measure of compareResults is relative to max(1, |r|);
    // also report the plain maximum absolute difference.
    double lseAbs = 0.0;
    for (size_t r = 0; r < cpuLse.size(); ++r)
      if (std::isfinite(cpuLse[r]) && std::isfinite(gpuLse[r]))
        lseAbs = std::max(lseAbs, std::fabs(gpuLse[r] - cpuLse[r]));

    int64_t bitMismatches = 0, bitCount = 0;
    if (p.dropoutP > 0.0f) {
      bitCount = p.batch * p.queryHeads * p.queryLen * p.keyLen;
      DeviceBuffer dbits(uint64_t(bitCount) * 4, "dropout bits");
      runGpuDropoutBits(p, dbits.ptr());
      std::vector<uint32_t> bits(static_cast<size_t>(bitCount));
      dbits.download(bits.data(), dbits.size());
      int64_t idx = 0;
      for (int64_t b = 0; b < p.batch; ++b)
        for (int64_t h = 0; h < p.queryHeads; ++h)
          for (int64_t i = 0; i < p.queryLen; ++i)
            for (int64_t j = 0; j < p.keyLen; ++j, ++idx)
              bitMismatches +=
                  bits[size_t(idx)] !=
                  attnopt::ref::dropoutBits(p.seed, p.offset, b, h, i, j,
                                            p.queryHeads, p.queryLen);
    }
    bool ok = cmp.outNaNs == 0 && cmp.lseNaNs == 0 &&
              cmp.lseInfMismatches == 0 && cmp.outRelErr <= kLimit &&
              lseAbs <= kLimit && bitMismatches == 0;
    failures += !ok;
    out(format("  %-36s out max rel diff %.2e, lse max abs diff %.2e, "
               "empty rows %lld/%lld (-inf mismatches %lld), NaN %lld",
               c.name.c_str(), cmp.outRelErr, lseAbs,
               (long long)cmp.emptyRows, (long long)p.lseElements(),
               (long long)cmp.lseInfMismatches,
               (long long)(cmp.outNaNs + cmp.lseNaNs)) +
        (bitCount ? format(", dropout bits %lld/%lld mismatches",
                           (long long)bitMismatches, (long long)bitCount)
                  : std::string()) +
        (ok ? ": PASS\n" : ": FAIL\n"));
  }
  out(format("attn-run --self-test: %s (limit %.0e)\n",
             failures ? "FAIL" : "PASS", kLimit));
  return failures ? kExitFailure : kExitOk;
}

} // namespace attnrt
