//===- AttentionGradFiniteDifference.cpp - check the gradient reference ---===//
//
// Checks referenceAttentionGrad against central finite differences of the
// forward reference. The loss is L = sum(out * W) for a fixed random W, so
// dL/dout = W is the `dout` given to the gradient reference, and dL/dq,
// dL/dk, dL/dv are differentiated numerically element by element.
//
// Every case also checks that fully masked rows (lse = -inf) get a zero dq
// and contribute nothing: replacing their out and dout by garbage must not
// change any gradient.
//
// Plain executable (no test framework): one line per case, exit code 1 if any
// case fails.
//
//===----------------------------------------------------------------------===//

#include "attnopt/Reference/AttentionGradReference.h"
#include "attnopt/Reference/AttentionReference.h"

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <limits>
#include <string>
#include <vector>

using namespace attnopt::ref;

namespace {

constexpr double kTolerance = 1e-6;
constexpr double kRelativeStep = 1e-6;
const double kNegInf = -std::numeric_limits<double>::infinity();

/// splitmix64: a tiny deterministic generator, identical on every platform
/// (std::uniform_real_distribution is not).
class Rng {
public:
  explicit Rng(uint64_t seed) : state(seed) {}
  uint64_t next() {
    uint64_t z = (state += 0x9E3779B97F4A7C15ull);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
    return z ^ (z >> 31);
  }
  /// Uniform in [0, 1).
  double unit() { return double(next() >> 11) * 0x1.0p-53; }
  /// Uniform in [lo, hi).
  double uniform(double lo, double hi) { return lo + (hi - lo) * unit(); }

private:
  uint64_t state;
};

struct Case {
  std::string name;
  AttentionProblem p;
  /// Boolean mask: one mask row all false. Additive mask: one mask row all
  /// -inf. Either way the rows reading it are fully masked.
  bool maskFullRow = false;
  /// Additive mask: some entries are -inf (act like excluded positions).
  bool additiveNegInf = false;
  /// The case is built to have fully masked rows; check that it does.
  bool expectMaskedRows = false;
};

AttentionProblem shape(int64_t b, int64_t hq, int64_t hkv, int64_t lq,
                       int64_t lk, int64_t d, int64_t dv) {
  AttentionProblem p;
  p.batch = b;
  p.queryHeads = hq;
  p.kvHeads = hkv;
  p.queryLen = lq;
  p.keyLen = lk;
  p.headDim = d;
  p.valueDim = dv;
  // The op's default scale: 1/sqrt(D) rounded to f32.
  p.scale = float(1.0 / std::sqrt(double(d)));
  return p;
}

std::vector<double> randomVector(Rng &rng, int64_t n) {
  std::vector<double> x(n);
  for (double &e : x) {
    // Uniform in [-1, 1], bounded away from 0 so no input is (near) zero.
    double mag = rng.uniform(0.05, 1.0);
    e = rng.next() & 1 ? mag : -mag;
  }
  return x;
}

std::vector<double> makeMask(const Case &c, Rng &rng) {
  const AttentionProblem &p = c.p;
  if (p.maskKind == MaskKind::None)
    return {};
  std::vector<double> mask(p.maskElements());
  for (double &m : mask) {
    if (p.maskKind == MaskKind::Boolean) {
      m = rng.unit() < 0.75 ? 1.0 : 0.0;
    } else {
      m = rng.uniform(-2.0, 2.0);
      if (c.additiveNegInf && rng.unit() < 0.2)
        m = kNegInf;
    }
  }
  if (c.maskFullRow) {
    // The last mask row (every key of it) of the first batch and head.
    const auto &s = p.maskShape;
    int64_t rowStart = (s[2] - 1) * s[3];
    for (int64_t j = 0; j < s[3]; ++j)
      mask[rowStart + j] = p.maskKind == MaskKind::Boolean ? 0.0 : kNegInf;
  }
  return mask;
}

double loss(const AttentionProblem &p, const std::vector<double> &q,
            const std::vector<double> &k, const std::vector<double> &v,
            const std::vector<double> &mask, const std::vector<double> &w) {
  std::vector<double> out, lse;
  referenceAttention(p, q, k, v, mask, out, lse);
  double l = 0.0;
  for (size_t i = 0; i < out.size(); ++i)
    l += out[i] * w[i];
  return l;
}

/// Central differences of the loss with respect to every element of `x`
/// (one of q, k, v, passed by reference so that it can be perturbed).
std::vector<double>
finiteDifference(const AttentionProblem &p, std::vector<double> &x,
                 const std::vector<double> &q, const std::vector<double> &k,
                 const std::vector<double> &v, const std::vector<double> &mask,
                 const std::vector<double> &w) {
  std::vector<double> grad(x.size());
  for (size_t idx = 0; idx < x.size(); ++idx) {
    double x0 = x[idx];
    double h = kRelativeStep * std::max(1.0, std::fabs(x0));
    double xPlus = x0 + h, xMinus = x0 - h;
    x[idx] = xPlus;
    double lPlus = loss(p, q, k, v, mask, w);
    x[idx] = xMinus;
    double lMinus = loss(p, q, k, v, mask, w);
    x[idx] = x0;
    // Divide by the step actually taken (x0 +- h is rounded).
    grad[idx] = (lPlus - lMinus) / (xPlus - xMinus);
  }
  return grad;
}

/// max |a - b| / max(|b|) (0 when both are zero everywhere).
double relativeError(const std::vector<double> &analytic,
                     const std::vector<double> &numeric) {
  double maxDiff = 0.0, maxAbs = 0.0;
  for (size_t i = 0; i < analytic.size(); ++i) {
    maxDiff = std::max(maxDiff, std::fabs(analytic[i] - numeric[i]));
    maxAbs = std::max(maxAbs, std::fabs(numeric[i]));
  }
  if (std::isnan(maxDiff))
    return std::numeric_limits<double>::infinity();
  if (maxAbs == 0.0)
    return maxDiff == 0.0 ? 0.0 : std::numeric_limits<double>::infinity();
  return maxDiff / maxAbs;
}

bool runCase(const Case &c, uint64_t seed) {
  const AttentionProblem &p = c.p;
  Rng rng(seed);
  std::vector<double> q = randomVector(rng, p.queryElements());
  std::vector<double> k = randomVector(rng, p.keyElements());
  std::vector<double> v = randomVector(rng, p.valueElements());
  std::vector<double> w = randomVector(rng, p.outputElements());
  std::vector<double> mask = makeMask(c, rng);

  std::vector<double> out, lse;
  std::vector<uint8_t> keep;
  referenceAttention(p, q, k, v, mask, out, lse, &keep);

  std::vector<double> dq, dk, dv;
  referenceAttentionGrad(p, q, k, v, mask, out, w, lse, dq, dk, dv);

  std::vector<double> fdq = finiteDifference(p, q, q, k, v, mask, w);
  std::vector<double> fdk = finiteDifference(p, k, q, k, v, mask, w);
  std::vector<double> fdv = finiteDifference(p, v, q, k, v, mask, w);
  double errQ = relativeError(dq, fdq);
  double errK = relativeError(dk, fdk);
  double errV = relativeError(dv, fdv);
  std::vector<std::string> problems;
  if (!(errQ <= kTolerance && errK <= kTolerance && errV <= kTolerance))
    problems.push_back("gradient mismatch");

  // Fully masked rows: dq is exactly zero, and their out / dout (whatever
  // they hold) do not reach any gradient.
  int64_t maskedRows = 0;
  std::vector<double> garbageOut = out, garbageDout = w;
  for (int64_t row = 0; row < p.lseElements(); ++row) {
    if (lse[row] != kNegInf)
      continue;
    ++maskedRows;
    for (int64_t d = 0; d < p.headDim; ++d)
      if (dq[row * p.headDim + d] != 0.0) {
        problems.push_back("nonzero dq in a fully masked row");
        break;
      }
    for (int64_t e = 0; e < p.valueDim; ++e) {
      garbageOut[row * p.valueDim + e] = rng.uniform(-1e3, 1e3);
      garbageDout[row * p.valueDim + e] = rng.uniform(-1e3, 1e3);
    }
  }
  if (maskedRows > 0) {
    std::vector<double> dq2, dk2, dv2;
    referenceAttentionGrad(p, q, k, v, mask, garbageOut, garbageDout, lse, dq2,
                           dk2, dv2);
    if (dq2 != dq || dk2 != dk || dv2 != dv)
      problems.push_back("fully masked rows contribute to the gradients");
  }
  if (c.expectMaskedRows && maskedRows == 0)
    problems.push_back("expected fully masked rows, found none");

  // Dropout must actually drop and keep something, or the case tests
  // nothing about it.
  if (p.dropoutP > 0.0f) {
    size_t dropped = std::count(keep.begin(), keep.end(), uint8_t(0));
    if (dropped == 0 || dropped == keep.size())
      problems.push_back("dropout kept or dropped everything");
  }

  std::printf("%-34s dq %.2e  dk %.2e  dv %.2e  masked rows %2lld  %s",
              c.name.c_str(), errQ, errK, errV, (long long)maskedRows,
              problems.empty() ? "PASS" : "FAIL");
  for (const std::string &problem : problems)
    std::printf(" (%s)", problem.c_str());
  std::printf("\n");
  return problems.empty();
}

std::vector<Case> makeCases() {
  std::vector<Case> cases;
  auto add = [&](const std::string &name, AttentionProblem p) -> Case & {
    Case c;
    c.name = name;
    c.p = p;
    cases.push_back(c);
    return cases.back();
  };

  add("plain", shape(1, 2, 2, 4, 5, 3, 4));
  add("plain-b2", shape(2, 3, 3, 6, 3, 5, 2));
  {
    AttentionProblem p = shape(2, 2, 2, 3, 6, 4, 2);
    p.scale = 0.9f;
    add("scale", p);
    p.scale = -0.7f;
    add("scale-negative", p);
  }
  {
    AttentionProblem p = shape(1, 2, 2, 4, 7, 3, 2);
    p.causal = Causal::TopLeft;
    add("causal-top-left-lq<lk", p);
    p = shape(1, 2, 1, 8, 5, 2, 3);
    p.causal = Causal::TopLeft;
    add("causal-top-left-lq>lk", p);
    p = shape(2, 2, 2, 4, 7, 3, 5);
    p.causal = Causal::BottomRight;
    add("causal-bottom-right-lq<lk", p);
    p = shape(1, 2, 2, 8, 5, 3, 2);
    p.causal = Causal::BottomRight;
    add("causal-bottom-right-lq>lk", p).expectMaskedRows = true;
  }
  {
    AttentionProblem p = shape(1, 2, 2, 6, 9, 3, 4);
    p.hasWindow = true;
    p.windowLeft = 2;
    p.windowRight = 1;
    add("window-both", p);
    p = shape(1, 2, 2, 9, 4, 4, 2);
    p.hasWindow = true;
    p.windowLeft = 1;
    p.windowRight = 1;
    add("window-both-lq>lk", p).expectMaskedRows = true;
    p = shape(2, 2, 1, 5, 8, 2, 3);
    p.causal = Causal::BottomRight;
    p.hasWindow = true;
    p.windowLeft = 2;
    p.windowRight = -1;
    add("window-left-only-bottom-right", p);
    p = shape(1, 2, 2, 7, 6, 3, 2);
    p.hasWindow = true;
    p.windowLeft = -1;
    p.windowRight = 1;
    add("window-right-only", p);
  }
  {
    AttentionProblem p = shape(2, 2, 1, 5, 6, 4, 3);
    p.scale = 1.3f;
    p.hasSoftcap = true;
    p.softcap = 1.5f;
    add("softcap", p);
    p.causal = Causal::TopLeft;
    p.softcap = 0.5f;
    add("softcap-small-causal", p);
  }
  {
    AttentionProblem p = shape(2, 2, 2, 5, 6, 3, 2);
    p.maskKind = MaskKind::Boolean;
    p.maskShape = {2, 1, 5, 6};
    Case &c = add("bool-mask-[B,1,Lq,Lk]-full-row", p);
    c.maskFullRow = true;
    c.expectMaskedRows = true;
    p = shape(1, 4, 2, 3, 7, 2, 5);
    p.maskKind = MaskKind::Boolean;
    p.maskShape = {1, 4, 1, 7};
    add("bool-mask-[1,Hq,1,Lk]", p);
    p = shape(2, 2, 2, 6, 5, 3, 3);
    p.maskKind = MaskKind::Boolean;
    p.maskShape = {1, 2, 6, 1};
    Case &c2 = add("bool-mask-[1,Hq,Lq,1]-full-row", p);
    c2.maskFullRow = true;
    c2.expectMaskedRows = true;
  }
  {
    AttentionProblem p = shape(2, 2, 2, 4, 6, 3, 4);
    p.maskKind = MaskKind::Additive;
    p.maskShape = {2, 2, 4, 6};
    add("additive-mask", p);
    p = shape(1, 2, 1, 5, 4, 2, 3);
    p.maskKind = MaskKind::Additive;
    p.maskShape = {1, 2, 1, 4};
    add("additive-mask-[1,Hq,1,Lk]", p);
    p = shape(2, 2, 2, 5, 6, 3, 2);
    p.maskKind = MaskKind::Additive;
    p.maskShape = {2, 1, 5, 6};
    Case &c = add("additive-mask-neg-inf-full-row", p);
    c.additiveNegInf = true;
    c.maskFullRow = true;
    c.expectMaskedRows = true;
  }
  add("gqa-hq4-hkv2", shape(2, 4, 2, 5, 6, 3, 4));
  add("mqa-hq4-hkv1", shape(1, 4, 1, 6, 5, 4, 2));
  add("mqa-hq3-hkv1", shape(2, 3, 1, 3, 4, 2, 3));
  {
    AttentionProblem p = shape(2, 2, 2, 5, 7, 3, 4);
    p.dropoutP = 0.3f;
    p.seed = 42;
    p.offset = 7;
    add("dropout-0.3", p);
    p = shape(1, 4, 2, 6, 9, 2, 3);
    p.dropoutP = 0.3f;
    p.seed = 0x123456789abcdefull;
    p.offset = 1ull << 40;
    p.causal = Causal::TopLeft;
    add("dropout-0.3-gqa-causal", p);
  }
  {
    add("lq1", shape(1, 2, 1, 1, 6, 3, 2));
    add("lq1-lk1", shape(2, 2, 2, 1, 1, 4, 3));
    AttentionProblem p = shape(1, 2, 2, 1, 5, 2, 4);
    p.causal = Causal::BottomRight;
    add("lq1-causal-bottom-right", p);
    p.causal = Causal::TopLeft;
    add("lq1-causal-top-left", p);
  }
  {
    AttentionProblem p = shape(2, 4, 2, 5, 8, 3, 5);
    p.scale = 0.8f;
    p.causal = Causal::BottomRight;
    p.hasWindow = true;
    p.windowLeft = 3;
    p.windowRight = -1;
    p.hasSoftcap = true;
    p.softcap = 2.0f;
    p.maskKind = MaskKind::Additive;
    p.maskShape = {1, 4, 1, 8};
    p.dropoutP = 0.3f;
    p.seed = 7;
    p.offset = 3;
    add("combined-additive", p).additiveNegInf = true;

    p = shape(2, 4, 1, 9, 6, 5, 2);
    p.scale = 0.6f;
    p.causal = Causal::BottomRight;
    p.hasWindow = true;
    p.windowLeft = 2;
    p.windowRight = 0;
    p.hasSoftcap = true;
    p.softcap = 1.0f;
    p.maskKind = MaskKind::Boolean;
    p.maskShape = {2, 1, 9, 6};
    p.dropoutP = 0.3f;
    p.seed = 99;
    p.offset = 0;
    Case &c = add("combined-boolean-lq>lk", p);
    c.maskFullRow = true;
    c.expectMaskedRows = true;
  }
  return cases;
}

} // namespace

int main() {
  std::vector<Case> cases = makeCases();
  int failures = 0;
  for (size_t i = 0; i < cases.size(); ++i)
    if (!runCase(cases[i], 0x5EED0000ull + i))
      ++failures;
  std::printf("%d of %zu cases failed (tolerance %.0e, relative to the max "
              "abs gradient)\n",
              failures, cases.size(), kTolerance);
  return failures == 0 ? 0 : 1;
}
