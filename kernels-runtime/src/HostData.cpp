//===- HostData.cpp - host tensors, input generation, comparison ----------===//

#include "attnrt/HostData.h"

#include <algorithm>
#include <cmath>
#include <cstring>
#include <limits>

namespace attnrt {

HostTensor::HostTensor(DType type, std::vector<int64_t> shape)
    : type(type), dims(std::move(shape)) {
  count = 1;
  for (int64_t d : dims)
    count *= d;
  bytes.assign(size_t(count) * dtypeSize(type), 0);
}

double HostTensor::store(int64_t index, double value) {
  uint8_t *p = bytes.data() + size_t(index) * dtypeSize(type);
  switch (type) {
  case DType::F16: {
    uint16_t bits = toHalfBits(value);
    std::memcpy(p, &bits, 2);
    return fromHalfBits(bits);
  }
  case DType::BF16: {
    uint16_t bits = toBFloat16Bits(value);
    std::memcpy(p, &bits, 2);
    return fromBFloat16Bits(bits);
  }
  case DType::F32: {
    float f = static_cast<float>(value);
    std::memcpy(p, &f, 4);
    return f;
  }
  case DType::I1:
    *p = value != 0.0 ? 1 : 0;
    return *p;
  }
  return 0.0;
}

std::vector<double> HostTensor::toDouble() const {
  std::vector<double> v(static_cast<size_t>(count));
  for (int64_t i = 0; i < count; ++i)
    v[size_t(i)] = load(i);
  return v;
}

std::vector<double> InputGenerator::fill(HostTensor &t, double lo, double hi,
                                         bool keepValues) {
  std::uniform_real_distribution<double> dist(lo, hi);
  std::vector<double> values;
  if (keepValues)
    values.resize(size_t(t.numElements()));
  for (int64_t i = 0; i < t.numElements(); ++i) {
    double v = t.store(i, dist(rng));
    if (keepValues)
      values[size_t(i)] = v;
  }
  return values;
}

std::vector<double> InputGenerator::fillMask(HostTensor &t, int64_t rowLen,
                                             bool keepValues) {
  std::uniform_real_distribution<double> unit(0.0, 1.0);
  std::vector<double> values;
  if (keepValues)
    values.resize(size_t(t.numElements()));
  bool boolean = t.dtype() == DType::I1;
  rowLen = std::max<int64_t>(rowLen, 1);
  for (int64_t row = 0; row < t.numElements() / rowLen; ++row) {
    bool rowOff = unit(rng) < 0.1;
    for (int64_t j = 0; j < rowLen; ++j) {
      int64_t i = row * rowLen + j;
      bool off = rowOff || unit(rng) < 0.25;
      double v = boolean ? (off ? 0.0 : 1.0)
                         : (off ? -std::numeric_limits<double>::infinity()
                                : 6.0 * unit(rng) - 3.0);
      v = t.store(i, v);
      if (keepValues)
        values[size_t(i)] = v;
    }
  }
  return values;
}

Comparison compareResults(const std::vector<double> &out,
                          const std::vector<double> &refOut,
                          const std::vector<double> *lse,
                          const std::vector<double> *refLse) {
  Comparison c;
  size_t n = std::min(out.size(), refOut.size());
  for (size_t i = 0; i < n; ++i) {
    double got = out[i], want = refOut[i];
    if (std::isnan(want))
      continue;
    c.refMaxAbs = std::max(c.refMaxAbs, std::fabs(want));
    if (std::isnan(got)) {
      ++c.outNaNs;
      continue;
    }
    double diff = std::fabs(got - want);
    if (std::isnan(diff) || std::isinf(diff)) {
      ++c.outNaNs; // inf where the reference is finite counts as broken too
      continue;
    }
    c.outMaxAbsDiff = std::max(c.outMaxAbsDiff, diff);
  }
  c.outRelErr = c.refMaxAbs > 0.0 ? c.outMaxAbsDiff / c.refMaxAbs
                                  : c.outMaxAbsDiff;
  if (refLse)
    for (double want : *refLse)
      c.emptyRows += std::isinf(want) && want < 0;
  if (!lse || !refLse)
    return c;
  c.hasLse = true;
  size_t m = std::min(lse->size(), refLse->size());
  for (size_t i = 0; i < m; ++i) {
    double got = (*lse)[i], want = (*refLse)[i];
    if (std::isnan(want))
      continue;
    if (std::isnan(got)) {
      ++c.lseNaNs;
      continue;
    }
    if (std::isinf(want) || std::isinf(got)) {
      c.lseInfMismatches += got != want;
      continue;
    }
    c.lseErr = std::max(c.lseErr,
                        std::fabs(got - want) / std::max(1.0, std::fabs(want)));
  }
  return c;
}

double defaultOutputTolerance(DType t) {
  switch (t) {
  case DType::F32:
    return 1e-5;
  case DType::F16:
    return 2e-3;
  default:
    return 8e-3;
  }
}

} // namespace attnrt
