//===- RunnerSelfTest.cpp - attn-run --self-test --------------------------===//
//
// runSelfTest (Runner.h): the GPU float64 references (forward, gradient,
// packed, Philox, rounding) against the CPU float64 references of
// lib/Reference on small problems covering every feature.
//
//===----------------------------------------------------------------------===//

#include "RunnerBuffers.h"
#include "RunnerReport.h"
#include "attnopt/Reference/AttentionGradReference.h"
#include "attnopt/Reference/PackedReference.h"
#include "attnopt/Reference/Philox.h"
#include "attnrt/Cuda.h"
#include "attnrt/HostData.h"
#include "attnrt/ReferenceKernel.h"
#include "attnrt/Runner.h"
#include "attnrt/Util.h"

#include <algorithm>
#include <array>
#include <cmath>
#include <cstring>
#include <vector>

namespace attnrt {

using namespace runner;

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
    // An explicit keep mask (broadcast over heads) instead of Philox bits.
    auto c = makeCase("dropout-mask-0.25-broadcast", DType::F16, 2, 4, 2, 9, 13,
                      8, 8);
    c.p.dropoutP = 0.25f;
    c.p.hasDropoutMask = true;
    c.p.dropoutMaskShape = {2, 1, 9, 13};
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

/// A packed batch (docs/semantics.md §14) for the self-test.
struct PackedCase {
  std::string name;
  attnopt::ref::PackedBatch batch;
  DType dtype = DType::F32;
};

PackedCase makePackedCase(const std::string &name, DType t, int64_t Hq,
                          int64_t Hkv, std::vector<int64_t> lq,
                          std::vector<int64_t> lk, int64_t D, int64_t Dv) {
  PackedCase c;
  c.name = name;
  c.dtype = t;
  attnopt::ref::AttentionProblem &p = c.batch.problem;
  p.batch = int64_t(lq.size());
  p.queryHeads = Hq;
  p.kvHeads = Hkv;
  p.headDim = D;
  p.valueDim = Dv;
  p.scale = float(1.0 / std::sqrt(double(D)));
  c.batch.cuQ = {0};
  c.batch.cuK = {0};
  for (size_t b = 0; b < lq.size(); ++b) {
    c.batch.cuQ.push_back(c.batch.cuQ.back() + lq[b]);
    c.batch.cuK.push_back(c.batch.cuK.back() + lk[b]);
  }
  p.queryLen = c.batch.cuQ.back();
  p.keyLen = c.batch.cuK.back();
  return c;
}

/// Sequences with no query, with no key, with more queries than keys and
/// the other way round, so that every positional rule meets its per-sequence
/// lengths; dropout at the packed coordinates.
std::vector<PackedCase> packedSelfTestCases() {
  using attnopt::ref::Causal;
  std::vector<PackedCase> cases;
  {
    auto c = makePackedCase("varlen-gqa-bf16-bottom-right", DType::BF16, 8,
                            2, {5, 0, 17, 9, 3}, {7, 3, 0, 20, 3}, 32, 32);
    c.batch.problem.causal = Causal::BottomRight;
    cases.push_back(c);
  }
  {
    auto c = makePackedCase("varlen-mqa-f16-window-softcap", DType::F16, 4, 1,
                            {12, 1, 30}, {12, 40, 30}, 16, 16);
    c.batch.problem.hasWindow = true;
    c.batch.problem.windowLeft = 3;
    c.batch.problem.windowRight = 2;
    c.batch.problem.hasSoftcap = true;
    c.batch.problem.softcap = 5.0f;
    cases.push_back(c);
  }
  {
    auto c = makePackedCase("varlen-dropout-0.25-top-left", DType::F32, 2, 2,
                            {9, 13, 6}, {11, 5, 14}, 8, 16);
    c.batch.problem.causal = Causal::TopLeft;
    c.batch.problem.dropoutP = 0.25f;
    cases.push_back(c);
  }
  {
    auto c = makePackedCase("varlen-dropout-window-bottom-right", DType::BF16,
                            4, 2, {1, 33, 0, 140}, {300, 20, 5, 140}, 64, 48);
    c.batch.problem.causal = Causal::BottomRight;
    c.batch.problem.hasWindow = true;
    c.batch.problem.windowLeft = 16;
    c.batch.problem.windowRight = -1;
    c.batch.problem.dropoutP = 0.1f;
    cases.push_back(c);
  }
  return cases;
}

/// The packed gradient reference (runGpuReferenceVarlenGrad: the dense
/// gradient kernels per sequence, strided over the token-major tensors)
/// against attnopt::ref::referencePackedAttentionGrad, given the GPU
/// reference forward `dout`/`dlse` rounded as a forward kernel writes it and
/// a random grad_output. Prints a line; false on a difference above
/// `limit`.
bool checkPackedGrad(const PackedCase &c, InputGenerator &gen,
                     const DeviceBuffer &dq, const DeviceBuffer &dk,
                     const DeviceBuffer &dv, const DeviceBuffer &dout,
                     const DeviceBuffer &dlse, const std::vector<double> &qv,
                     const std::vector<double> &kv,
                     const std::vector<double> &vv, double limit) {
  const attnopt::ref::AttentionProblem &p = c.batch.problem;
  const int64_t tq = p.queryLen, tk = p.keyLen;
  const std::vector<int64_t> oShape = {tq, p.queryHeads, p.valueDim};
  HostTensor hdo(c.dtype, oShape);
  std::vector<double> dov = gen.fill(hdo, -1.0, 1.0);
  DeviceBuffer ddo(hdo.sizeBytes(), "grad_output");
  ddo.upload(hdo.data(), hdo.sizeBytes());
  HostTensor ho(c.dtype, oShape), hl(DType::F32, {p.queryHeads, tq});
  DeviceBuffer dor(ho.sizeBytes(), "rounded reference output");
  DeviceBuffer dlr(hl.sizeBytes(), "rounded reference lse");
  runGpuRound(dout.ptr(), c.dtype, dor.ptr(), ho.numElements());
  runGpuRound(dlse.ptr(), DType::F32, dlr.ptr(), hl.numElements());
  dor.download(ho.data(), ho.sizeBytes());
  dlr.download(hl.data(), hl.sizeBytes());
  auto poisoned = [](int64_t elements, const char *what) {
    DeviceBuffer b(uint64_t(std::max<int64_t>(1, elements)) * 8, what);
    b.fill(kPoisonByte, b.size());
    return b;
  };
  DeviceBuffer gq = poisoned(tq * p.queryHeads * p.headDim, "grad_query");
  DeviceBuffer gk = poisoned(tk * p.kvHeads * p.headDim, "grad_key");
  DeviceBuffer gv = poisoned(tk * p.kvHeads * p.valueDim, "grad_value");
  std::vector<int32_t> cuQ(c.batch.cuQ.begin(), c.batch.cuQ.end()),
      cuK(c.batch.cuK.begin(), c.batch.cuK.end());
  runGpuReferenceVarlenGrad(p, c.dtype, cuQ, cuK, dq.ptr(), dk.ptr(), dv.ptr(),
                            dor.ptr(), dlr.ptr(), ddo.ptr(), gq.ptr(), gk.ptr(),
                            gv.ptr());
  std::vector<double> cpuDq, cpuDk, cpuDv;
  attnopt::ref::referencePackedAttentionGrad(c.batch, qv, kv, vv, ho.toDouble(),
                                             dov, hl.toDouble(), cpuDq, cpuDk,
                                             cpuDv);
  auto compare = [](const DeviceBuffer &gpu, const std::vector<double> &cpu) {
    std::vector<double> got = downloadDoubles(gpu);
    got.resize(cpu.size());
    return compareResults(got, cpu, nullptr, nullptr);
  };
  Comparison cq = compare(gq, cpuDq), ck = compare(gk, cpuDk),
             cv = compare(gv, cpuDv);
  const int64_t nans = cq.outNaNs + ck.outNaNs + cv.outNaNs;
  const bool ok = nans == 0 && cq.outRelErr <= limit && ck.outRelErr <= limit &&
                  cv.outRelErr <= limit;
  out(format("  %-36s grad: dq/dk/dv max rel diff %.2e/%.2e/%.2e, NaN "
             "%lld%s",
             "", cq.outRelErr, ck.outRelErr, cv.outRelErr, (long long)nans,
             ok ? ": PASS\n" : ": FAIL\n"));
  return ok;
}

} // namespace

int runSelfTest(const RunOptions &options) {
  CudaContext ctx(options.device);
  out("attn-run --self-test: GPU float64 reference (forward and gradient) vs "
      "CPU float64 reference (lib/Reference)\n");
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
    HostTensor hkeep;
    std::vector<double> keepValues;
    if (p.hasDropoutMask) {
      hkeep = HostTensor(
          DType::I1, {p.dropoutMaskShape.begin(), p.dropoutMaskShape.end()});
      keepValues = gen.fillKeep(hkeep, p.dropoutP);
    }

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
    DeviceBuffer dkeep;
    if (p.hasDropoutMask) {
      dkeep = DeviceBuffer(hkeep.sizeBytes(), "dropout mask");
      dkeep.upload(hkeep.data(), hkeep.sizeBytes());
    }
    DeviceBuffer dout(uint64_t(p.outputElements()) * 8, "reference output");
    DeviceBuffer dlse(uint64_t(p.lseElements()) * 8, "reference lse");
    dout.fill(kPoisonByte, dout.size());
    dlse.fill(kPoisonByte, dlse.size());
    runGpuReference(p, c.dtype, c.maskDtype, dq.ptr(), dk.ptr(), dv.ptr(),
                    dm.ptr(), dout.ptr(), dlse.ptr(), dkeep.ptr());
    std::vector<double> gpuOut(size_t(p.outputElements())),
        gpuLse(size_t(p.lseElements()));
    dout.download(gpuOut.data(), dout.size());
    dlse.download(gpuLse.data(), dlse.size());

    std::vector<double> cpuOut, cpuLse;
    attnopt::ref::referenceAttention(p, qv, kv, vv, mv, cpuOut, cpuLse, nullptr,
                                     &keepValues);
    Comparison cmp = compareResults(gpuOut, cpuOut, &gpuLse, &cpuLse);
    // The lse error measure of compareResults is relative to max(1, |r|);
    // also report the plain maximum absolute difference.
    double lseAbs = 0.0;
    for (size_t r = 0; r < cpuLse.size(); ++r)
      if (std::isfinite(cpuLse[r]) && std::isfinite(gpuLse[r]))
        lseAbs = std::max(lseAbs, std::fabs(gpuLse[r] - cpuLse[r]));

    int64_t bitMismatches = 0, bitCount = 0;
    if (p.dropoutP > 0.0f && !p.hasDropoutMask) {
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

    // No backward kernel takes an explicit dropout mask, nor does the GPU
    // gradient reference: the forward check is all for such a case.
    if (p.hasDropoutMask)
      continue;

    // The gradient reference, given the GPU reference forward rounded as a
    // forward kernel writes it (output in the element type, lse in f32)
    // and a random grad_output, against referenceAttentionGrad on the same
    // values. The rounding kernel is checked against the host's rounding.
    const std::vector<int64_t> oShape = {p.batch, p.queryHeads, p.queryLen,
                                         p.valueDim};
    HostTensor hdo(c.dtype, oShape);
    std::vector<double> dov = gen.fill(hdo, -1.0, 1.0);
    DeviceBuffer ddo(hdo.sizeBytes(), "grad_output");
    ddo.upload(hdo.data(), hdo.sizeBytes());
    HostTensor ho(c.dtype, oShape), hl(DType::F32, {p.batch, p.queryHeads,
                                                    p.queryLen});
    DeviceBuffer dor(ho.sizeBytes(), "rounded reference output");
    DeviceBuffer dlr(hl.sizeBytes(), "rounded reference lse");
    runGpuRound(dout.ptr(), c.dtype, dor.ptr(), p.outputElements());
    runGpuRound(dlse.ptr(), DType::F32, dlr.ptr(), p.lseElements());
    dor.download(ho.data(), ho.sizeBytes());
    dlr.download(hl.data(), hl.sizeBytes());
    int64_t roundMismatches = 0;
    {
      HostTensor wo(c.dtype, oShape), wl(DType::F32, hl.shape());
      for (int64_t e = 0; e < wo.numElements(); ++e)
        wo.store(e, gpuOut[size_t(e)]);
      for (int64_t e = 0; e < wl.numElements(); ++e)
        wl.store(e, gpuLse[size_t(e)]);
      const size_t w = dtypeSize(c.dtype);
      for (int64_t e = 0; e < wo.numElements(); ++e)
        roundMismatches +=
            std::memcmp(static_cast<const uint8_t *>(wo.data()) + e * w,
                        static_cast<const uint8_t *>(ho.data()) + e * w,
                        w) != 0;
      for (int64_t e = 0; e < wl.numElements(); ++e)
        roundMismatches +=
            std::memcmp(static_cast<const uint8_t *>(wl.data()) + e * 4,
                        static_cast<const uint8_t *>(hl.data()) + e * 4,
                        4) != 0;
    }
    std::vector<double> ov = ho.toDouble(), lv = hl.toDouble();
    DeviceBuffer gq(uint64_t(p.queryElements()) * 8, "reference grad_query");
    DeviceBuffer gk(uint64_t(p.keyElements()) * 8, "reference grad_key");
    DeviceBuffer gv(uint64_t(p.valueElements()) * 8, "reference grad_value");
    gq.fill(kPoisonByte, gq.size());
    gk.fill(kPoisonByte, gk.size());
    gv.fill(kPoisonByte, gv.size());
    runGpuReferenceGrad(p, c.dtype, c.maskDtype, dq.ptr(), dk.ptr(), dv.ptr(),
                        dm.ptr(), dor.ptr(), dlr.ptr(), ddo.ptr(), gq.ptr(),
                        gk.ptr(), gv.ptr());
    std::vector<double> cpuDq, cpuDk, cpuDv;
    attnopt::ref::referenceAttentionGrad(p, qv, kv, vv, mv, ov, dov, lv, cpuDq,
                                         cpuDk, cpuDv);
    Comparison cq = compareResults(downloadDoubles(gq), cpuDq, nullptr,
                                   nullptr);
    Comparison ck = compareResults(downloadDoubles(gk), cpuDk, nullptr,
                                   nullptr);
    Comparison cv = compareResults(downloadDoubles(gv), cpuDv, nullptr,
                                   nullptr);
    int64_t gradNaNs = cq.outNaNs + ck.outNaNs + cv.outNaNs;
    bool gradOk = gradNaNs == 0 && roundMismatches == 0 &&
                  cq.outRelErr <= kLimit && ck.outRelErr <= kLimit &&
                  cv.outRelErr <= kLimit;
    failures += !gradOk;
    out(format("  %-36s grad: dq/dk/dv max rel diff %.2e/%.2e/%.2e, "
               "rounding to %s/f32 %lld mismatches, NaN %lld",
               "", cq.outRelErr, ck.outRelErr, cv.outRelErr,
               dtypeName(c.dtype), (long long)roundMismatches,
               (long long)gradNaNs) +
        (gradOk ? ": PASS\n" : ": FAIL\n"));
  }
  // The packed form: the GPU reference against the CPU's per-sequence one
  // (attnopt::ref::referencePackedAttention, dense problems of batch 1 with
  // their Philox origin), which shares none of its indexing.
  for (PackedCase &c : packedSelfTestCases()) {
    attnopt::ref::AttentionProblem &p = c.batch.problem;
    const int64_t tq = p.queryLen, tk = p.keyLen;
    InputGenerator gen(caseSeed++);
    HostTensor hq(c.dtype, {tq, p.queryHeads, p.headDim});
    HostTensor hk(c.dtype, {tk, p.kvHeads, p.headDim});
    HostTensor hv(c.dtype, {tk, p.kvHeads, p.valueDim});
    std::vector<double> qv = gen.fill(hq, -2.0, 2.0);
    std::vector<double> kv = gen.fill(hk, -2.0, 2.0);
    std::vector<double> vv = gen.fill(hv, -1.0, 1.0);
    p.seed = gen.next();
    p.offset = gen.next() & 0xFFFFFFFFFFull;
    DeviceBuffer dq(hq.sizeBytes(), "query"), dk(hk.sizeBytes(), "key"),
        dv(hv.sizeBytes(), "value");
    dq.upload(hq.data(), hq.sizeBytes());
    dk.upload(hk.data(), hk.sizeBytes());
    dv.upload(hv.data(), hv.sizeBytes());
    const int64_t outElements = tq * p.queryHeads * p.valueDim,
                  lseElements = p.queryHeads * tq;
    DeviceBuffer dout(uint64_t(outElements) * 8, "reference output");
    DeviceBuffer dlse(uint64_t(lseElements) * 8, "reference lse");
    dout.fill(kPoisonByte, dout.size());
    dlse.fill(kPoisonByte, dlse.size());
    std::vector<int32_t> cuQ(c.batch.cuQ.begin(), c.batch.cuQ.end()),
        cuK(c.batch.cuK.begin(), c.batch.cuK.end());
    runGpuReferenceVarlen(p, c.dtype, cuQ, cuK, dq.ptr(), dk.ptr(), dv.ptr(),
                          dout.ptr(), dlse.ptr());
    std::vector<double> gpuOut = downloadDoubles(dout),
                        gpuLse = downloadDoubles(dlse);
    gpuOut.resize(size_t(outElements));
    gpuLse.resize(size_t(lseElements));
    std::vector<double> cpuOut, cpuLse;
    attnopt::ref::referencePackedAttention(c.batch, qv, kv, vv, cpuOut,
                                           cpuLse);
    Comparison cmp = compareResults(gpuOut, cpuOut, &gpuLse, &cpuLse);
    double lseAbs = 0.0;
    for (size_t r = 0; r < cpuLse.size(); ++r)
      if (std::isfinite(cpuLse[r]) && std::isfinite(gpuLse[r]))
        lseAbs = std::max(lseAbs, std::fabs(gpuLse[r] - cpuLse[r]));
    bool ok = cmp.outNaNs == 0 && cmp.lseNaNs == 0 &&
              cmp.lseInfMismatches == 0 && cmp.outRelErr <= kLimit &&
              lseAbs <= kLimit;
    failures += !ok;
    out(format("  %-36s out max rel diff %.2e, lse max abs diff %.2e, "
               "empty rows %lld/%lld (-inf mismatches %lld), NaN %lld%s",
               c.name.c_str(), cmp.outRelErr, lseAbs,
               (long long)cmp.emptyRows, (long long)lseElements,
               (long long)cmp.lseInfMismatches,
               (long long)(cmp.outNaNs + cmp.lseNaNs),
               ok ? ": PASS\n" : ": FAIL\n"));
    failures +=
        !checkPackedGrad(c, gen, dq, dk, dv, dout, dlse, qv, kv, vv, kLimit);
  }
  out(format("attn-run --self-test: %s (limit %.0e)\n",
             failures ? "FAIL" : "PASS", kLimit));
  return failures ? kExitFailure : kExitOk;
}

} // namespace attnrt
