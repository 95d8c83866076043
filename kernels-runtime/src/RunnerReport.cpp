//===- RunnerReport.cpp - attn-run's report lines -------------------------===//
//
// Everything attn-run prints about a kernel that is not a measurement: the
// header (problem, launch, packed sequences, paged cache) and the RESULT,
// GROUP and TRAIN lines (docs/kernel-manifest.md, attn-run's output).
//
//===----------------------------------------------------------------------===//

#include "RunnerReport.h"
#include "RunnerGroups.h"
#include "attnrt/Util.h"
#include "attnrt/Varlen.h"

#include <algorithm>
#include <cstdio>

namespace attnrt::runner {

void out(const std::string &s) {
  std::fputs(s.c_str(), stdout);
  std::fflush(stdout);
}

void warn(const std::string &s) {
  std::fflush(stdout);
  std::fprintf(stderr, "attn-run: warning: %s\n", s.c_str());
  std::fflush(stderr);
}

static std::string sci(double v) {
  if (std::isnan(v))
    return "nan";
  return format("%.3e", v);
}

static std::string shortFloat(double v) { return format("%g", v); }

std::string noSpaces(std::string s) {
  s.erase(std::remove(s.begin(), s.end(), ' '), s.end());
  return s;
}

static std::string windowText(const KernelSpec &k) {
  if (!k.hasWindow)
    return "none";
  return std::to_string(k.windowLeft) + "," + std::to_string(k.windowRight);
}

static std::string maskText(const KernelSpec &k) {
  if (!k.hasMask)
    return "none";
  return std::string(dtypeName(k.maskDtype)) +
         noSpaces(formatShape({k.maskShape.begin(), k.maskShape.end()}));
}

static std::string msText(double ms) {
  return std::isnan(ms) ? std::string("nan") : format("%.5f", ms);
}

static std::string tflopsText(double t) {
  return std::isnan(t) ? std::string("nan") : format("%.3f", t);
}

/// The problem's fields of a RESULT/TRAIN line, from dtype to mask. A
/// packed kernel has no single length: its token totals Tq, Tk and its
/// longest sequences Lq_max, Lk_max instead of Lq, Lk; a paged kernel its
/// capacity Lk_max and its cache geometry.
static std::string problemFields(const KernelSpec &k) {
  std::string s;
  s += std::string(" dtype=") + dtypeName(k.dtype);
  s += " B=" + std::to_string(k.batch) + " Hq=" + std::to_string(k.queryHeads) +
       " Hkv=" + std::to_string(k.kvHeads);
  if (k.isVarlen())
    s += " Tq=" + std::to_string(k.totalQueryTokens) +
         " Tk=" + std::to_string(k.totalKeyTokens) +
         " Lq_max=" + std::to_string(k.queryLen) +
         " Lk_max=" + std::to_string(k.keyLen);
  else if (k.isPaged())
    s += " Lq=" + std::to_string(k.queryLen) +
         " Lk_max=" + std::to_string(k.keyLen) +
         " page_size=" + std::to_string(k.pageSize) +
         " num_pages=" + std::to_string(k.numPages) +
         " max_pages_per_seq=" + std::to_string(k.maxPagesPerSeq);
  else
    s += " Lq=" + std::to_string(k.queryLen) +
         " Lk=" + std::to_string(k.keyLen);
  s += " D=" + std::to_string(k.headDim) + " Dv=" + std::to_string(k.valueDim);
  s += std::string(" causal=") + causalName(k.causal);
  s += " window=" + windowText(k);
  s += " softcap=" + (k.hasSoftcap ? shortFloat(k.softcap) : "none");
  if (k.softcapApprox)
    s += " (tanh.approx)";
  if (k.tf32)
    s += " matmul=tf32";
  s += " dropout=" + shortFloat(k.dropoutP);
  s += " mask=" + maskText(k);
  return s;
}

std::string resultLine(const KernelSpec &k, const KernelResult &r) {
  std::string s = "RESULT";
  s += " name=" + k.name;
  s += k.op == KernelOp::Attention ? "" : std::string(" op=") + opName(k.op);
  if (k.isGrad() || k.isForwardStage())
    s += std::string(" stage=") + stageName(k.stage) +
         (k.group.empty() ? std::string() : " group=" + k.group);
  // The key chunks of the launch (decided at launch where the manifest
  // leaves codegen.splits null).
  if (k.isForwardStage())
    s += " splits=" + std::to_string(k.splits);
  // A merge kernel has no attention problem: its dtypes and sizes.
  s += k.isMerge() ? std::string(" dtype=") + dtypeName(k.dtype) +
                         " partial_dtype=" + dtypeName(k.partialDtype) +
                         " S=" + std::to_string(k.splits) +
                         " rows=" + std::to_string(k.rows) +
                         " Dv=" + std::to_string(k.valueDim)
                   : problemFields(k);
  s += std::string(" lse=") + (k.hasLse ? "1" : "0");
  s += format(" flops=%.6e", k.flops());
  s += std::string(" causal_halved=") + (k.flopsHalvedForCausal() ? "1" : "0");
  s += " ms=" + msText(r.ms);
  s += " tflops=" + tflopsText(r.tflops);
  s += " gbps=" +
       (std::isnan(r.gbps) ? std::string("nan") : format("%.1f", r.gbps));
  s += " max_rel_err=" + sci(r.outErr);
  s += " lse_err=" + sci(r.lseErr);
  if (k.isGrad()) {
    // The errors of the gradients this stage writes (none for prep).
    for (const std::string &out : stageOutputs(k.stage))
      if (out == "grad_query")
        s += " dq_err=" + sci(r.dqErr);
      else if (out == "grad_key")
        s += " dk_err=" + sci(r.dkErr) + " dv_err=" + sci(r.dvErr);
    s += " repeat_identical=" +
         (r.repeatIdentical < 0 ? std::string("nan")
                                : std::to_string(r.repeatIdentical));
  }
  s += " nans=" + (r.nans < 0 ? std::string("nan") : std::to_string(r.nans));
  s += " status=" + r.status;
  return s + "\n";
}

/// The sequences of a bound packed kernel, for its report: "  packed
/// (varlen_attention): 3 sequences, 900 query / 1200 key tokens\n  query
/// lengths [...]\n  key lengths [...]\n".
static std::string packedText(const KernelSpec &k) {
  std::vector<int64_t> q = lengthsFromOffsets(k.cuSeqlensQ),
                       kl = lengthsFromOffsets(k.cuSeqlensK);
  return format("  packed (varlen_attention): %lld sequences, %lld query / "
                "%lld key tokens\n",
                (long long)k.batch, (long long)k.totalQueryTokens,
                (long long)k.totalKeyTokens) +
         "  query lengths " + lengthsText(q) + "\n  key lengths   " +
         (q == kl ? std::string("the same") : lengthsText(kl)) + "\n";
}

/// The cache of a bound paged kernel, for its report: "  paged cache: 40
/// pages of 16 tokens, block table [3, 12] (up to 192 tokens per
/// sequence)\n  cache lengths [...]\n".
static std::string pagedText(const KernelSpec &k) {
  return format("  paged cache (paged_attention): %lld pages of %lld tokens, "
                "block table [%lld, %lld] (up to %lld tokens per sequence)\n",
                (long long)k.numPages, (long long)k.pageSize,
                (long long)k.batch, (long long)k.maxPagesPerSeq,
                (long long)k.keyLen) +
         "  cache lengths " +
         lengthsText(std::vector<int64_t>(k.cacheSeqlens.begin(),
                                          k.cacheSeqlens.end())) +
         "\n";
}

std::string launchLine(const KernelSpec &k, const KernelLauncher &launcher) {
  const FunctionAttributes &attrs = launcher.attributes();
  const std::array<uint32_t, 3> &grid = launcher.launchGrid();
  std::string persistent;
  if (k.persistent)
    persistent = grid[0] == k.grid[0]
                     ? " (persistent)"
                     : format(" (persistent; the manifest's %u blocks capped "
                              "at the blocks this GPU holds at once)",
                              k.grid[0]);
  return format("  launch: grid [%u, %u, %u]%s block [%u, %u, %u], %u B "
                "dynamic shared memory; %d registers, %d B static shared, %d "
                "B local\n",
                grid[0], grid[1], grid[2], persistent.c_str(), k.block[0],
                k.block[1], k.block[2], k.dynamicSharedMemory, attrs.numRegs,
                attrs.staticShared, attrs.localBytes);
}

void printHeader(const KernelSpec &k, const KernelLauncher &launcher) {
  out("\nkernel " + k.name +
      (k.source.empty() ? std::string() : " (" + k.source + ")") + "\n");
  if (k.isGrad())
    out(std::string("  backward, stage ") + stageName(k.stage) +
        (k.deterministic ? ", deterministic" : "") +
        (k.group.empty() ? std::string() : ", group " + k.group) +
        (k.forward.empty() ? std::string() : ", forward kernel " + k.forward) +
        "\n");
  if (k.isForwardStage())
    out(std::string(k.isPaged() ? "  paged" : "  split-KV") +
        " forward, stage " + stageName(k.stage) + ", group " + k.group + ", " +
        std::to_string(k.splits) + " key chunks" +
        (k.splitRule.maxSplits ? " (decided at launch)" : "") + "\n");
  if (k.isVarlen())
    out(packedText(k));
  if (k.isPaged())
    out(pagedText(k));
  out(format("  %s B=%lld Hq=%lld Hkv=%lld %s=%lld %s=%lld D=%lld Dv=%lld "
             "scale=%g causal=%s",
             dtypeName(k.dtype), (long long)k.batch, (long long)k.queryHeads,
             (long long)k.kvHeads, k.isVarlen() ? "Lq_max" : "Lq",
             (long long)k.queryLen,
             k.isVarlen() || k.isPaged() ? "Lk_max" : "Lk", (long long)k.keyLen,
             (long long)k.headDim, (long long)k.valueDim, double(k.scale),
             causalName(k.causal)) +
      (k.hasWindow ? " window=[" + windowText(k) + "]" : "") +
      (k.hasSoftcap ? " softcap=" + shortFloat(k.softcap) : "") +
      (k.softcapApprox ? " softcap_approx" : "") +
      (k.tf32 ? " matmul_precision=tf32" : "") +
      (k.dropoutP > 0 ? " dropout_p=" + shortFloat(k.dropoutP) : "") +
      (k.hasMask ? " mask=" + maskText(k) : "") +
      (k.hasDropoutMask ? " dropout_mask=" +
                              noSpaces(formatShape({k.dropoutMaskShape.begin(),
                                                    k.dropoutMaskShape.end()}))
                        : "") +
      (k.hasLse ? " lse" : "") + "\n");
  const FunctionAttributes &attrs = launcher.attributes();
  out(launchLine(k, launcher));
  if (attrs.localBytes > 0)
    out(format("  note: %d bytes of local memory per thread (register "
               "spills or local arrays)\n",
               attrs.localBytes));
}

std::string forwardText(const ForwardKernels &f) {
  return (f.group ? "forward group '" : "kernel '") + f.name + "'";
}

std::string groupLine(const GradGroup &g, const GroupResult &r) {
  const KernelSpec &k = *g.kernels.front();
  std::string names, stages;
  for (const KernelSpec *x : g.kernels) {
    names += (names.empty() ? "" : ",") + x->name;
    stages += (stages.empty() ? "" : ",") + std::string(stageName(x->stage));
  }
  double dq = NAN, dk = NAN, dv = NAN, err = NAN;
  int repeat = -1;
  auto maxOf = [](double a, double b) {
    return std::isnan(a) ? b : std::isnan(b) ? a : std::max(a, b);
  };
  for (const KernelResult &x : r.kernels) {
    dq = maxOf(dq, x.dqErr);
    dk = maxOf(dk, x.dkErr);
    dv = maxOf(dv, x.dvErr);
    err = maxOf(err, x.outErr);
    if (x.repeatIdentical >= 0)
      repeat =
          repeat < 0 ? x.repeatIdentical : std::min(repeat, x.repeatIdentical);
  }
  std::string s =
      "GROUP name=" + g.name + " kernels=" + names + " stages=" + stages;
  s += problemFields(k);
  s += std::string(" deterministic=") + (k.deterministic ? "1" : "0");
  s += format(" bwd_flops=%.6e", k.backwardFlops());
  s += std::string(" causal_halved=") + (k.flopsHalvedForCausal() ? "1" : "0");
  s += " ms=" + msText(r.ms) + " tflops=" + tflopsText(r.tflops);
  s += " max_rel_err=" + sci(err) + " dq_err=" + sci(dq) +
       " dk_err=" + sci(dk) + " dv_err=" + sci(dv);
  s += " repeat_identical=" +
       (repeat < 0 ? std::string("nan") : std::to_string(repeat));
  s += " status=" + r.status;
  return s + "\n";
}

std::string forwardGroupLine(const ForwardKernels &f, const KernelResult &r) {
  const KernelSpec &k = *f.kernels.back();
  std::string names, stages;
  for (const KernelSpec *x : f.kernels) {
    names += (names.empty() ? "" : ",") + x->name;
    stages += (stages.empty() ? "" : ",") + std::string(stageName(x->stage));
  }
  std::string s =
      "GROUP name=" + f.name + " kernels=" + names + " stages=" + stages;
  s += problemFields(k);
  s += std::string(" lse=") + (k.hasLse ? "1" : "0");
  s += " splits=" + std::to_string(k.splits);
  s += format(" flops=%.6e", k.forwardFlops());
  s += std::string(" causal_halved=") + (k.flopsHalvedForCausal() ? "1" : "0");
  s += " ms=" + msText(r.ms) + " tflops=" + tflopsText(r.tflops);
  s += " gbps=" +
       (std::isnan(r.gbps) ? std::string("nan") : format("%.1f", r.gbps));
  s += " max_rel_err=" + sci(r.outErr) + " lse_err=" + sci(r.lseErr);
  s += " nans=" + (r.nans < 0 ? std::string("nan") : std::to_string(r.nans));
  s += " status=" + r.status;
  return s + "\n";
}

void printForward(const ForwardKernels &f, const ForwardResult &r) {
  for (size_t i = 0; i < f.kernels.size(); ++i)
    out(resultLine(*f.kernels[i],
                   i < r.kernels.size() ? r.kernels[i] : KernelResult()));
  if (f.group)
    out(forwardGroupLine(f, r.total));
}

std::string trainLine(const TrainGroup &g, const TrainResult &r) {
  const KernelSpec &f = *g.forward.kernels.back();
  std::string names;
  for (const KernelSpec *b : g.backward)
    names += (names.empty() ? "" : ",") + b->name;
  double fwdFlops = f.forwardFlops(), bwdFlops = f.backwardFlops();
  auto tf = [](double flops, double ms) {
    return std::isnan(ms) || ms <= 0 ? NAN : flops / (ms * 1e-3) / 1e12;
  };
  std::string s = "TRAIN forward=" + g.forward.name + " backward=" + names;
  s += problemFields(f);
  s += format(" fwd_flops=%.6e bwd_flops=%.6e", fwdFlops, bwdFlops);
  s += std::string(" causal_halved=") + (f.flopsHalvedForCausal() ? "1" : "0");
  s += " fwd_ms=" + msText(r.fwdMs) + " bwd_ms=" + msText(r.bwdMs) +
       " fwdbwd_ms=" + msText(r.fwdBwdMs);
  s += " fwd_tflops=" + tflopsText(tf(fwdFlops, r.fwdMs)) +
       " bwd_tflops=" + tflopsText(tf(bwdFlops, r.bwdMs)) +
       " fwdbwd_tflops=" + tflopsText(tf(fwdFlops + bwdFlops, r.fwdBwdMs));
  double dq = NAN, dk = NAN, dv = NAN;
  int repeat = -1;
  for (const KernelResult &b : r.backward) {
    if (!std::isnan(b.dqErr))
      dq = std::isnan(dq) ? b.dqErr : std::max(dq, b.dqErr);
    if (!std::isnan(b.dkErr))
      dk = std::isnan(dk) ? b.dkErr : std::max(dk, b.dkErr);
    if (!std::isnan(b.dvErr))
      dv = std::isnan(dv) ? b.dvErr : std::max(dv, b.dvErr);
    if (b.repeatIdentical >= 0)
      repeat = repeat < 0 ? b.repeatIdentical
                          : std::min(repeat, b.repeatIdentical);
  }
  s += " out_err=" + sci(r.forward.total.outErr) +
       " lse_err=" + sci(r.forward.total.lseErr) + " dq_err=" + sci(dq) +
       " dk_err=" + sci(dk) + " dv_err=" + sci(dv);
  s += " repeat_identical=" +
       (repeat < 0 ? std::string("nan") : std::to_string(repeat));
  s += " status=" + r.status;
  return s + "\n";
}

} // namespace attnrt::runner
