//===- RunnerTiming.cpp - attn-run's timings ------------------------------===//
//
// Launches timed between CUDA events (the median of many), for a kernel
// alone and for a forward group back to back, with the FLOP and byte counts
// that their report derives rates from.
//
//===----------------------------------------------------------------------===//

#include "RunnerTiming.h"
#include "attnrt/Util.h"

#include <algorithm>
#include <vector>

namespace attnrt::runner {

static double median(std::vector<float> v) {
  std::sort(v.begin(), v.end());
  size_t n = v.size();
  if (n == 0)
    return NAN;
  return n % 2 ? v[n / 2] : 0.5 * (double(v[n / 2 - 1]) + double(v[n / 2]));
}

Timing timeLaunches(const std::function<void()> &launchAll, int warmup,
                    int iters, const std::string &what) {
  Timing t;
  for (int w = 0; w < warmup; ++w)
    launchAll();
  if (iters <= 0)
    return t;
  std::vector<Event> starts, stops;
  starts.reserve(iters);
  stops.reserve(iters);
  for (int it = 0; it < iters; ++it) {
    starts.emplace_back();
    stops.emplace_back();
  }
  for (int it = 0; it < iters; ++it) {
    starts[it].record();
    launchAll();
    stops[it].record();
  }
  stops.back().synchronize();
  ATTNRT_CU_CHECK_MSG(cuCtxSynchronize(), "running " + what +
                                              " (timed launches)");
  std::vector<float> times;
  for (int it = 0; it < iters; ++it)
    times.push_back(stops[it].elapsedSince(starts[it]));
  t.ms = median(times);
  t.minMs = *std::min_element(times.begin(), times.end());
  t.maxMs = *std::max_element(times.begin(), times.end());
  return t;
}

void timeKernel(const KernelSpec &k, Binding &binding,
                const KernelLauncher &launcher, const RunOptions &options,
                KernelResult &result) {
  Timing t = timeLaunches([&] { launcher.launch(binding.params()); },
                          options.warmup, options.iters,
                          "kernel '" + k.name + "'");
  if (std::isnan(t.ms))
    return;
  result.ms = t.ms;
  double seconds = result.ms * 1e-3;
  // A kernel executing no matrix products (prep, dq_convert) has no
  // meaningful TFLOP/s: nan rather than 0.
  result.tflops =
      seconds > 0 && k.flops() > 0 ? k.flops() / seconds / 1e12 : NAN;
  result.gbps = seconds > 0 ? double(k.bytesMoved()) / seconds / 1e9 : NAN;
  out(format("  time: median %.5f ms of %d launches (min %.5f, max %.5f) "
             "after %d warm-up\n",
             result.ms, options.iters, t.minMs, t.maxMs, options.warmup));
  if (k.isVarlen() && !k.isGrad()) {
    out(format("  %.4e FLOP (the sum over sequences of "
               "2*Hq*Lq_b*Lk_b*(D+Dv)%s) -> %.3f TFLOP/s; %s moved (Q, K, V, "
               "cu_seqlens, O%s once) -> %.1f GB/s\n",
               k.flops(),
               k.flopsHalvedForCausal()
                   ? ", halved: causal with Lq_b = Lk_b in every sequence"
                   : "",
               result.tflops, formatBytes(k.bytesMoved()).c_str(),
               k.hasLse ? ", lse" : "", result.gbps));
    return;
  }
  if (k.isForwardStage()) {
    std::string moved;
    for (const ParamSpec &p : k.params)
      if (p.kind == ParamSpec::Kind::Tensor)
        moved += (moved.empty() ? "" : ", ") + p.name;
    const std::string flopsText =
        k.flops() > 0
            ? format("%.4e FLOP (%s%s) -> %.3f TFLOP/s", k.flops(),
                     k.isPaged() ? "2*Hq*Lq*(the sum of the cache "
                                   "lengths)*(D+Dv)"
                                 : "2*B*Hq*Lq*Lk*(D+Dv)",
                     k.flopsHalvedForCausal() ? ", halved: causal with Lq = Lk"
                                              : ", dense",
                     result.tflops)
            : std::string("no matrix products (the combine stage; 0 FLOP "
                          "counted)");
    out(format("  %s; %s moved (%s once%s) -> %.1f GB/s\n", flopsText.c_str(),
               formatBytes(k.bytesMoved()).c_str(), moved.c_str(),
               k.isPaged() ? "; of the caches, the sequences' tokens" : "",
               result.gbps));
    return;
  }
  if (!k.isGrad()) {
    out(format("  %.4e FLOP (2*B*Hq*Lq*Lk*(D+Dv)%s) -> %.3f TFLOP/s; %s "
               "moved (Q, K, V, %sO%s once) -> %.1f GB/s\n",
               k.flops(),
               k.flopsHalvedForCausal() ? ", halved: causal with Lq = Lk"
                                        : ", dense",
               result.tflops, formatBytes(k.bytesMoved()).c_str(),
               (std::string(k.hasMask ? "mask, " : "") +
                (k.hasDropoutMask ? "dropout_mask, " : ""))
                   .c_str(),
               k.hasLse ? ", lse" : "", result.gbps));
    return;
  }
  std::string moved = k.hasMask ? "mask, " : k.isVarlen() ? "cu_seqlens, " : "";
  for (const ParamSpec &p : k.params)
    if (p.isWorkspace)
      moved += p.name + ", ";
  for (const std::string &o : stageOutputs(k.stage))
    moved += std::string(o == "grad_query" ? "dQ"
                         : o == "grad_key" ? "dK"
                                           : "dV") +
             (o == "grad_key" ? ", " : "");
  if (moved.size() >= 2 && moved.compare(moved.size() - 2, 2, ", ") == 0)
    moved.resize(moved.size() - 2);
  const char *products = k.stage == GradStage::DKDV     ? "2D+2Dv"
                         : k.stage == GradStage::DQ     ? "2D+Dv"
                         : k.stage == GradStage::DKDVDQ ? "3D+2Dv"
                                                        : nullptr;
  // A packed stage scores each sequence's own (query, key) pairs.
  const char *pairs = k.isVarlen() ? "the sum over sequences of 2*Hq*Lq_b*Lk_b"
                                   : "2*B*Hq*Lq*Lk";
  const char *halved = !k.flopsHalvedForCausal() ? ""
                       : k.isVarlen()
                           ? ", halved: causal with Lq_b = Lk_b in every "
                             "sequence"
                           : ", halved: causal with Lq = Lk";
  std::string flopsText =
      products ? format("%.4e FLOP (the %s stage's products: %s*(%s)%s) -> "
                        "%.3f TFLOP/s",
                        k.flops(), stageName(k.stage), pairs, products, halved,
                        result.tflops)
               : format("no matrix products (the %s stage; 0 FLOP counted)",
                        stageName(k.stage));
  out(format("  %s; %s moved (Q, K, V, O, lse, dO%s%s once) -> %.1f GB/s\n",
             flopsText.c_str(), formatBytes(k.bytesMoved()).c_str(),
             moved.empty() ? "" : ", ", moved.c_str(), result.gbps));
}

void timeForward(ForwardSet &set, const RunOptions &options, ForwardResult &r) {
  if (set.size() == 1) {
    timeKernel(set.kernel(0), set.binding(0), set.launcher(0), options,
               r.total);
    r.kernels.assign(1, r.total);
    return;
  }
  for (size_t i = 0; i < set.size(); ++i) {
    out("  kernel " + set.kernel(i).name + ":\n");
    timeKernel(set.kernel(i), set.binding(i), set.launcher(i), options,
               r.kernels[i]);
  }
  const ForwardKernels &f = set.kernels();
  Timing t = timeLaunches([&] { set.launchAll(); }, options.warmup,
                          options.iters, forwardText(f));
  const KernelSpec &k = set.last();
  // Q, K, V, mask read and O, lse written once (the workspaces aside).
  uint64_t bytes = 0;
  for (const ParamSpec &p : k.params)
    if (p.kind == ParamSpec::Kind::Tensor && !p.isWorkspace)
      bytes += k.bytesMovedBy(p);
  r.total.ms = t.ms;
  if (!std::isnan(t.ms) && t.ms > 0) {
    r.total.tflops = k.forwardFlops() / (t.ms * 1e-3) / 1e12;
    r.total.gbps = double(bytes) / (t.ms * 1e-3) / 1e9;
    out(format("  group %s (%zu kernels back to back): median %.5f ms (min "
               "%.5f, max %.5f) -> %.3f TFLOP/s (the forward's %.4e FLOP), "
               "%.1f GB/s (Q, K, V%s, %sO%s once)\n",
               f.name.c_str(), set.size(), t.ms, t.minMs, t.maxMs,
               r.total.tflops, k.forwardFlops(), r.total.gbps,
               k.isPaged() ? " of the sequences' tokens, block_table, "
                             "cache_seqlens"
                           : "",
               k.hasMask ? "mask, " : "", k.hasLse ? ", lse" : ""));
  }
  for (KernelResult &kr : r.kernels)
    kr.status = r.total.status;
  r.kernels.back().outErr = r.total.outErr;
  r.kernels.back().lseErr = r.total.lseErr;
  r.kernels.back().nans = r.total.nans;
}

} // namespace attnrt::runner
