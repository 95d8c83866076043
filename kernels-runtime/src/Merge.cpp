//===- Merge.cpp - merge_partials inputs and float64 reference ------------===//

#include "attnrt/Merge.h"

#include <cmath>
#include <cstring>
#include <limits>

namespace attnrt {

void mergeReference(int64_t splits, int64_t rows, int64_t valueDim,
                    const std::vector<double> &partialOutput,
                    const std::vector<double> &partialLse,
                    std::vector<double> &output, std::vector<double> &lse) {
  const double inf = std::numeric_limits<double>::infinity();
  output.assign(size_t(rows * valueDim), 0.0);
  lse.assign(size_t(rows), -inf);
  for (int64_t r = 0; r < rows; ++r) {
    double m = -inf;
    for (int64_t s = 0; s < splits; ++s)
      m = std::max(m, partialLse[size_t(s * rows + r)]);
    if (m == -inf)
      continue; // output 0, lse -inf
    double sum = 0.0;
    double *o = &output[size_t(r * valueDim)];
    for (int64_t s = 0; s < splits; ++s) {
      const double l = partialLse[size_t(s * rows + r)];
      if (l == -inf)
        continue; // contributes nothing; its output may be NaN
      const double w = std::exp(l - m);
      sum += w;
      const double *p = &partialOutput[size_t((s * rows + r) * valueDim)];
      for (int64_t j = 0; j < valueDim; ++j)
        o[j] += w * p[j];
    }
    for (int64_t j = 0; j < valueDim; ++j)
      o[j] /= sum;
    lse[size_t(r)] = m + std::log(sum);
  }
}

namespace {

uint64_t splitMix64(uint64_t &state) {
  uint64_t z = (state += 0x9E3779B97F4A7C15ull);
  z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
  z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
  return z ^ (z >> 31);
}

} // namespace

MergeInputs drawMergeInputs(const KernelSpec &k, uint64_t seed) {
  const ParamSpec *po = k.findParam("partial_output"),
                  *pl = k.findParam("partial_lse");
  MergeInputs in;
  in.partialOutput = HostTensor(po->dtype, po->shape);
  in.partialLse = HostTensor(pl->dtype, pl->shape);
  InputGenerator gen(seed);
  gen.fill(in.partialOutput, -1.0, 1.0, /*keepValues=*/false);
  gen.fill(in.partialLse, -5.0, 5.0, /*keepValues=*/false);
  uint64_t state = gen.next();
  const int64_t S = k.splits, R = k.rows, Dv = k.valueDim;
  const size_t elementBytes = dtypeSize(po->dtype);
  auto *outBytes = static_cast<uint8_t *>(in.partialOutput.data());
  for (int64_t r = 0; r < R; ++r) {
    const bool empty = (r == 0 && R >= 2) || splitMix64(state) % 20 == 0;
    in.emptyRows += empty;
    for (int64_t s = 0; s < S; ++s) {
      if (!empty && splitMix64(state) % 5 != 0)
        continue;
      ++in.infPartials;
      in.partialLse.store(s * R + r, -std::numeric_limits<double>::infinity());
      // NaN in every float type: the kernel must not read it.
      std::memset(outBytes + size_t((s * R + r) * Dv) * elementBytes, 0xFF,
                  size_t(Dv) * elementBytes);
    }
  }
  return in;
}

} // namespace attnrt
