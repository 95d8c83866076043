//===- RunnerValidation.cpp - references and checks -----------------------===//
//
// The float64 GPU references of what attn-run launches, and the checks of
// the kernels' outputs, gradients, guards and repeat launches against them.
//
//===----------------------------------------------------------------------===//

#include "RunnerValidation.h"
#include "attnopt/Reference/AttentionGradReference.h"
#include "attnrt/Error.h"
#include "attnrt/HostData.h"
#include "attnrt/Paged.h"
#include "attnrt/ReferenceKernel.h"
#include "attnrt/Util.h"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstring>
#include <limits>

namespace attnrt::runner {

static double elapsedMs(std::chrono::steady_clock::time_point t0) {
  return std::chrono::duration<double, std::milli>(
             std::chrono::steady_clock::now() - t0)
      .count();
}

ReferenceForward referenceForward(const KernelSpec &k,
                                  const attnopt::ref::AttentionProblem &p,
                                  CUdeviceptr q, CUdeviceptr kk, CUdeviceptr v,
                                  CUdeviceptr mask, bool download,
                                  CUdeviceptr dropoutMask) {
  ReferenceForward r;
  // A packed problem's p.batch counts sequences, not rows of the tensors:
  // its output is [Tq, Hq, Dv] and its lse [Hq, Tq].
  const int64_t outElements =
      k.isVarlen() ? p.queryLen * p.queryHeads * p.valueDim
                   : p.outputElements();
  const int64_t lseElements =
      k.isVarlen() ? p.queryHeads * p.queryLen : p.lseElements();
  r.out = DeviceBuffer(uint64_t(outElements) * sizeof(double),
                       "the reference output (f64)");
  r.lse = DeviceBuffer(uint64_t(lseElements) * sizeof(double),
                       "the reference lse (f64)");
  auto t0 = std::chrono::steady_clock::now();
  if (k.isVarlen())
    runGpuReferenceVarlen(p, k.dtype, k.cuSeqlensQ, k.cuSeqlensK, q, kk, v,
                          r.out.ptr(), r.lse.ptr());
  else
    runGpuReference(p, k.dtype, k.maskDtype, q, kk, v, mask, r.out.ptr(),
                    r.lse.ptr(), dropoutMask, k.tf32);
  r.ms = elapsedMs(t0);
  if (download) {
    r.hostOut = downloadDoubles(r.out);
    r.hostLse = downloadDoubles(r.lse);
  }
  return r;
}

ReferenceForward referencePaged(const KernelSpec &k,
                                const attnopt::ref::AttentionProblem &p,
                                CUdeviceptr q, const PagedCaches &caches) {
  ReferenceForward r;
  const int64_t rows = k.queryHeads * k.queryLen;
  const size_t elem = dtypeSize(k.dtype);
  r.hostOut.assign(size_t(k.batch * rows * k.valueDim), 0.0);
  r.hostLse.assign(size_t(k.batch * rows),
                   -std::numeric_limits<double>::infinity());
  auto t0 = std::chrono::steady_clock::now();
  for (int64_t b = 0; b < k.batch; ++b) {
    const int64_t len = k.cacheSeqlens[size_t(b)];
    if (len == 0)
      continue;
    attnopt::ref::AttentionProblem pb = p;
    pb.batch = 1;
    pb.keyLen = len;
    const int32_t *row = k.blockTable.data() + b * k.maxPagesPerSeq;
    std::vector<uint8_t> keys(size_t(k.kvHeads * len * k.headDim) * elem),
        values(size_t(k.kvHeads * len * k.valueDim) * elem);
    gatherPagedSequence(k, caches.key.data(), elem, k.headDim, row, len,
                        keys.data());
    gatherPagedSequence(k, caches.value.data(), elem, k.valueDim, row, len,
                        values.data());
    const std::string seq = " of sequence " + std::to_string(b);
    DeviceBuffer dk(keys.size(), "the gathered keys" + seq),
        dv(values.size(), "the gathered values" + seq),
        out(uint64_t(rows * k.valueDim) * sizeof(double),
            "the reference output" + seq + " (f64)"),
        lse(uint64_t(rows) * sizeof(double),
            "the reference lse" + seq + " (f64)");
    dk.upload(keys.data(), keys.size());
    dv.upload(values.data(), values.size());
    runGpuReference(pb, k.dtype, k.maskDtype,
                    q + CUdeviceptr(b * rows * k.headDim * int64_t(elem)),
                    dk.ptr(), dv.ptr(), 0, out.ptr(), lse.ptr());
    out.download(r.hostOut.data() + b * rows * k.valueDim,
                 uint64_t(rows * k.valueDim) * sizeof(double));
    lse.download(r.hostLse.data() + b * rows, uint64_t(rows) * sizeof(double));
  }
  r.ms = elapsedMs(t0);
  return r;
}

/// How far a softcap_approx kernel's t = tanh(x) may be from the exact one:
/// the largest |tanh.approx.f32(x) - tanh(x)| over every finite f32 x,
/// 7.984e-6 at x = -1.2187, measured exhaustively on the H200
/// (bench/tanh_approx_error.cu, 2026-12-04), plus 1e-7 for the argument's
/// f32 rounding (x = dot * fl(scale / softcap): |dx| <= 2^-23 |x|, and
/// |x| sech^2(x) <= 0.45).
constexpr double kTanhApproxMaxAbsError = 8.1e-6;

/// How far a softcap_approx kernel's scores may move from the exact ones:
/// softcap * tanh(x) changes by at most softcap * kTanhApproxMaxAbsError.
/// 0 for kernels with the exact tanh.
static double approxScoreError(const KernelSpec &k) {
  return k.softcapApprox ? double(k.softcap) * kTanhApproxMaxAbsError : 0.0;
}

/// The forward's output tolerance widened by a score error `e` (a
/// softcap_approx kernel's tanh). With every
/// score off by at most e, each lse is off by at most e and each
/// probability by a factor within exp(+-2e), so an output row moves by at
/// most (exp(2e) - 1) * max|v| / (1 - dropout_p); relative to max|ref|
/// (the metric of compareResults), that is added to the tolerance.
static double widenedOutputTolerance(const KernelSpec &k, Binding &inputs,
                                     double e, double tol, double refMaxAbs) {
  if (e == 0.0 || !(refMaxAbs > 0.0))
    return tol;
  Bound *vB = inputs.find("value");
  if (!vB)
    vB = inputs.find("value_cache");
  if (!vB)
    throw Error("kernel '" + k.name +
                "' has no value parameter to bound its output error by");
  double maxV = 0.0;
  for (double x : downloadAsDouble(*vB->spec, vB->ptr))
    maxV = std::max(maxV, std::fabs(x));
  return tol +
         std::expm1(2.0 * e) * maxV / (1.0 - double(k.dropoutP)) / refMaxAbs;
}

bool checkForward(const KernelSpec &k, Binding &binding,
                  const ReferenceForward &ref, const RunOptions &options,
                  KernelResult &result, Binding *inputs) {
  Bound *oB = binding.find("output"), *lB = binding.find("lse");
  std::vector<double> gotO = downloadAsDouble(*oB->spec, oB->ptr);
  std::vector<double> gotL;
  if (lB)
    gotL = downloadAsDouble(*lB->spec, lB->ptr);
  Comparison c = compareResults(gotO, ref.hostOut, lB ? &gotL : nullptr,
                                &ref.hostLse);
  double tol = options.outTolerance >= 0
                   ? options.outTolerance
                   : defaultOutputTolerance(k.dtype, k.tf32);
  // A tf32 kernel's reference takes Q, K and V rounded as its products do
  // (referenceOf): its scores and lse are then exact but for f32
  // arithmetic, and P's rounding is the output tolerance's.
  const double scoreError = approxScoreError(k);
  tol = widenedOutputTolerance(k, inputs ? *inputs : binding, scoreError, tol,
                               c.refMaxAbs);
  const double lseTol = options.lseTolerance + scoreError;
  result.outErr = c.outRelErr;
  result.nans = c.outNaNs + c.lseNaNs;
  bool ok = true;
  bool outOk = c.outNaNs == 0 && c.outRelErr <= tol;
  out(format("  output: max rel err %.3e (max abs diff %.3e, max |ref| "
             "%.3e; tolerance %.1e), NaN/inf %lld%s\n",
             c.outRelErr, c.outMaxAbsDiff, c.refMaxAbs, tol,
             (long long)c.outNaNs, outOk ? "" : "  <-- FAIL"));
  ok = ok && outOk;
  if (lB) {
    result.lseErr = c.lseErr;
    bool lseOk =
        c.lseNaNs == 0 && c.lseInfMismatches == 0 && c.lseErr <= lseTol;
    out(format("  lse: max err %.3e (|l - r| / max(1, |r|); tolerance "
               "%.1e), -inf mismatches %lld, NaN %lld%s\n",
               c.lseErr, lseTol, (long long)c.lseInfMismatches,
               (long long)c.lseNaNs, lseOk ? "" : "  <-- FAIL"));
    ok = ok && lseOk;
  }
  out(format("  rows with no allowed key: %lld of %lld; float64 GPU "
             "reference took %.1f ms\n",
             (long long)c.emptyRows, (long long)ref.hostLse.size(), ref.ms));
  if (k.dropoutP > 0 && !k.hasDropoutMask)
    out("  note: dropout keep bits are checked through the output only\n");
  if (k.softcapApprox)
    out(format("  note: softcap_approx: tolerances widened by the "
               "tanh.approx.f32 bound (scores within %.1e)\n",
               approxScoreError(k)));
  if (k.tf32)
    out("  note: tf32: the reference reads Q, K and V rounded to tf32, as "
        "the kernel's products do\n");
  return binding.checkGuards() && ok;
}

ReferenceGrad referenceGrad(const KernelSpec &k,
                            const attnopt::ref::AttentionProblem &p,
                            CUdeviceptr q, CUdeviceptr kk, CUdeviceptr v,
                            CUdeviceptr mask, CUdeviceptr o, CUdeviceptr lse,
                            CUdeviceptr dout) {
  ReferenceGrad r;
  // A gradient has its input's shape (dense, or packed token-major).
  auto doubles = [&](const char *input) {
    return uint64_t(k.findParam(input)->numElements()) * sizeof(double);
  };
  const uint64_t dqBytes = doubles("query"), dkBytes = doubles("key"),
                 dvBytes = doubles("value");
  auto run = [=, &k](bool magnitude, std::vector<double> &outQ,
                     std::vector<double> &outK, std::vector<double> &outV) {
    DeviceBuffer dq(dqBytes, "the reference grad_query (f64)");
    DeviceBuffer dk(dkBytes, "the reference grad_key (f64)");
    DeviceBuffer dv(dvBytes, "the reference grad_value (f64)");
    if (k.isVarlen())
      runGpuReferenceVarlenGrad(p, k.dtype, k.cuSeqlensQ, k.cuSeqlensK, q, kk,
                                v, o, lse, dout, dq.ptr(), dk.ptr(), dv.ptr(),
                                magnitude);
    else
      runGpuReferenceGrad(p, k.dtype, k.maskDtype, q, kk, v, mask, o, lse, dout,
                          dq.ptr(), dk.ptr(), dv.ptr(), magnitude);
    outQ = downloadDoubles(dq);
    outK = downloadDoubles(dk);
    outV = downloadDoubles(dv);
  };
  auto t0 = std::chrono::steady_clock::now();
  run(false, r.dq, r.dk, r.dv);
  r.ms = elapsedMs(t0);
  // The inputs are still alive when checkGrad asks (the caller's buffers).
  r.sizes = [run](ReferenceGrad &g) {
    if (g.dqSize.empty() && g.dkSize.empty() && g.dvSize.empty())
      run(true, g.dqSize, g.dkSize, g.dvSize);
  };
  return r;
}

/// Where a gradient's terms cancel (a row with one visible key: dS = P (dP
/// - D) is 0 exactly), the reference is rounding noise and an error relative
/// to it means nothing. Such a gradient passes when each element is within
/// tolerance · max|ref| plus attnopt::ref::kGradientCancellationFloor times
/// the size of the terms it sums (ReferenceGrad::sizes).
using attnopt::ref::gradientCancellationRatio;
using attnopt::ref::kGradientCancellationFloor;

void roundForward(const KernelSpec &k, const ReferenceForward &ref,
                  CUdeviceptr o, CUdeviceptr lse) {
  runGpuRound(ref.out.ptr(), k.dtype, o, int64_t(ref.out.size() / 8));
  runGpuRound(ref.lse.ptr(), DType::F32, lse, int64_t(ref.lse.size() / 8));
}

bool checkGrad(const KernelSpec &k, Binding &binding, ReferenceGrad &ref,
               const RunOptions &options, KernelResult &result,
               const std::string &label) {
  double tol = options.gradTolerance >= 0 ? options.gradTolerance
                                          : defaultGradTolerance(k.dtype);
  // softcap_approx (first order, per term of a gradient's sum): P within
  // a factor exp(+-2e) (score and lse), D_i through the forward's output
  // by as much, and the factor 1 - t^2 by 2 * kTanhApproxMaxAbsError,
  // which is relative to it while the score stays in the softcap's
  // unsaturated range (|s| < 3 softcap: 1 - t^2 > 0.01).
  const double floor = kGradientCancellationFloor +
                       (k.softcapApprox ? 4.0 * approxScoreError(k) +
                                              200.0 * kTanhApproxMaxAbsError
                                        : 0.0);
  bool ok = true;
  if (binding.outputs().empty())
    return binding.checkGuards();
  result.outErr = 0.0;
  result.nans = 0;
  for (Bound *b : binding.outputs()) {
    const std::string &n = b->spec->name;
    const std::vector<double> &want =
        n == "grad_query" ? ref.dq : n == "grad_key" ? ref.dk : ref.dv;
    std::vector<double> got = downloadAsDouble(*b->spec, b->ptr);
    Comparison c = compareResults(got, want, nullptr, nullptr);
    bool good = c.outNaNs == 0 && c.outRelErr <= tol;
    std::string floorNote;
    if (!good && c.outNaNs == 0 && ref.sizes) {
      ref.sizes(ref);
      const std::vector<double> &size = n == "grad_query" ? ref.dqSize
                                        : n == "grad_key" ? ref.dkSize
                                                          : ref.dvSize;
      double ratio =
          gradientCancellationRatio(got, want, size, tol, c.refMaxAbs, floor);
      good = ratio <= 1.0;
      floorNote =
          format("; cancelling terms: %s (worst %.2f of tolerance + "
                 "%.1e x |terms|)",
                 good ? "within their rounding" : "beyond it", ratio, floor);
    }
    out(format("  %s%s: max rel err %.3e (max abs diff %.3e, max |ref| "
               "%.3e; tolerance %.1e%s), NaN/inf %lld%s\n",
               n.c_str(), label.c_str(), c.outRelErr, c.outMaxAbsDiff,
               c.refMaxAbs, tol, floorNote.c_str(), (long long)c.outNaNs,
               good ? "" : "  <-- FAIL"));
    (n == "grad_query" ? result.dqErr
     : n == "grad_key" ? result.dkErr
                       : result.dvErr) = c.outRelErr;
    result.outErr = std::max(result.outErr, c.outRelErr);
    result.nans += c.outNaNs;
    ok = ok && good;
  }
  return binding.checkGuards() && ok;
}

void checkRepeat(BackwardSet &set, const BackwardSet::Group &g,
                 SharedBuffers &shared, std::vector<KernelResult> &results,
                 std::vector<bool> &ok) {
  std::vector<std::vector<std::vector<uint8_t>>> first;
  for (size_t i : g.members) {
    first.emplace_back();
    for (Bound *b : set.binding(i).outputs())
      first.back().push_back(set.binding(i).bytesOf(b));
    set.binding(i).poisonOutputs();
  }
  shared.poisonWorkspaces(g.key);
  for (size_t i : g.members)
    set.launchChecked(i, " (repeat launch)");
  const bool deterministic = set.kernel(g.members.front()).deterministic;
  std::string text;
  bool groupSame = true;
  for (size_t m = 0; m < g.members.size(); ++m) {
    size_t i = g.members[m];
    bool same = true;
    size_t idx = 0;
    for (Bound *b : set.binding(i).outputs()) {
      std::vector<uint8_t> second = set.binding(i).bytesOf(b);
      const size_t width = dtypeSize(b->spec->dtype);
      int64_t differ = 0;
      for (size_t e = 0; e * width < second.size(); ++e)
        differ += std::memcmp(&first[m][idx][e * width], &second[e * width],
                              width) != 0;
      text += format("%s%s %lld of %lld elements differ",
                     text.empty() ? "" : "; ", b->spec->name.c_str(),
                     (long long)differ, (long long)b->spec->numElements());
      same = same && differ == 0;
      ++idx;
    }
    results[i].repeatIdentical = same ? 1 : 0;
    ok[i] = ok[i] && (same || !deterministic);
    groupSame = groupSame && same;
  }
  for (size_t i : g.members)
    if (set.binding(i).outputs().empty())
      results[i].repeatIdentical = groupSame ? 1 : 0;
  std::string verdict = groupSame       ? ""
                        : deterministic ? "  <-- FAIL"
                                        : "  (not required: \"deterministic\" "
                                          "is false)";
  out("  repeat launch" +
      (g.members.size() > 1 ? " of group '" + g.group.name + "'"
                            : std::string()) +
      " on the same inputs: " +
      std::string(groupSame ? "bit-identical" : "NOT bit-identical") + " (" +
      text + ")" + verdict + "\n");
}

ReferenceForward referenceOf(ForwardSet &set,
                             const attnopt::ref::AttentionProblem &p) {
  return referenceForward(set.kernel(0), p, set.ptr("query"), set.ptr("key"),
                          set.ptr("value"), set.ptr("mask"), true,
                          set.ptr("dropout_mask"));
}

bool checkForwardSet(ForwardSet &set, const ReferenceForward &ref,
                     const RunOptions &options, KernelResult &result) {
  bool ok = checkForward(set.last(), set.lastBinding(), ref, options, result,
                         &set.binding(0));
  return set.checkWorkspaceGuards() && ok;
}

std::vector<bool> checkBackward(BackwardSet &set, SharedBuffers &shared,
                                ReferenceGrad &ref, const RunOptions &options,
                                std::vector<KernelResult> &results,
                                const std::function<void(size_t)> &before) {
  std::vector<bool> ok(set.size(), true);
  for (const BackwardSet::Group &g : set.groups()) {
    bool named = g.members.size() > 1;
    for (size_t i : g.members) {
      if (before)
        before(i);
      ok[i] = checkGrad(set.kernel(i), set.binding(i), ref, options, results[i],
                        named ? " (" + set.kernel(i).name + ")" : "");
    }
    bool groupOk = shared.checkWorkspaceGuards(g.key);
    checkRepeat(set, g, shared, results, ok);
    for (size_t i : g.members)
      groupOk = groupOk && ok[i];
    for (size_t i : g.members)
      if (set.binding(i).outputs().empty())
        ok[i] = groupOk;
  }
  return ok;
}

} // namespace attnrt::runner
