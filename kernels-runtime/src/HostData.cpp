//===- HostData.cpp - host tensors, input generation, comparison ----------===//

#include "attnrt/HostData.h"

#include <algorithm>
#include <atomic>
#include <thread>
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
  case DType::I32: {
    // Offsets and sizes: exact integers (callers store values in range).
    int32_t i = static_cast<int32_t>(std::llround(value));
    std::memcpy(p, &i, 4);
    return i;
  }
  }
  return 0.0;
}

std::vector<double> HostTensor::toDouble() const {
  std::vector<double> v(static_cast<size_t>(count));
  for (int64_t i = 0; i < count; ++i)
    v[size_t(i)] = load(i);
  return v;
}

namespace {

uint64_t splitmix64(uint64_t z) {
  z += 0x9E3779B97F4A7C15ull;
  z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
  z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
  return z ^ (z >> 31);
}

/// A uniform double in [0, 1) for (key, index, lane).
inline double unit(uint64_t key, uint64_t index, uint64_t lane = 0) {
  uint64_t h = splitmix64(key ^ splitmix64(index * 4 + lane));
  return double(h >> 11) * (1.0 / 9007199254740992.0);
}

} // namespace

void parallelFor(int64_t n,
                 const std::function<void(int64_t, int64_t)> &fn) {
  const int64_t kChunk = 1 << 16;
  unsigned hw = std::thread::hardware_concurrency();
  int64_t threads = std::min<int64_t>(hw ? hw : 1, 32);
  threads = std::min<int64_t>(threads, (n + kChunk - 1) / kChunk);
  if (threads <= 1) {
    if (n > 0)
      fn(0, n);
    return;
  }
  std::atomic<int64_t> nextChunk{0};
  auto worker = [&] {
    for (;;) {
      int64_t begin = nextChunk.fetch_add(kChunk);
      if (begin >= n)
        return;
      fn(begin, std::min(n, begin + kChunk));
    }
  };
  std::vector<std::thread> pool;
  for (int64_t t = 1; t < threads; ++t)
    pool.emplace_back(worker);
  worker();
  for (std::thread &t : pool)
    t.join();
}

uint64_t InputGenerator::next() {
  return splitmix64(splitmix64(seed) ^ splitmix64(~scalars++));
}

/// Fills `t` with valueAt(i) for every element, in parallel, writing the
/// element type's bits directly; returns the stored values when `keep`.
template <class ValueAt>
static std::vector<double> fillWith(HostTensor &t, bool keep,
                                    const ValueAt &valueAt) {
  std::vector<double> values;
  if (keep)
    values.resize(size_t(t.numElements()));
  double *kept = keep ? values.data() : nullptr;
  void *data = t.data();
  const DType type = t.dtype();
  parallelFor(t.numElements(), [&](int64_t begin, int64_t end) {
    switch (type) {
    case DType::BF16: {
      uint16_t *p = static_cast<uint16_t *>(data);
      for (int64_t i = begin; i < end; ++i) {
        p[i] = toBFloat16Bits(valueAt(i));
        if (kept)
          kept[i] = fromBFloat16Bits(p[i]);
      }
      break;
    }
    case DType::F16: {
      uint16_t *p = static_cast<uint16_t *>(data);
      for (int64_t i = begin; i < end; ++i) {
        p[i] = toHalfBits(valueAt(i));
        if (kept)
          kept[i] = fromHalfBits(p[i]);
      }
      break;
    }
    case DType::F32: {
      float *p = static_cast<float *>(data);
      for (int64_t i = begin; i < end; ++i) {
        p[i] = static_cast<float>(valueAt(i));
        if (kept)
          kept[i] = p[i];
      }
      break;
    }
    case DType::I1: {
      uint8_t *p = static_cast<uint8_t *>(data);
      for (int64_t i = begin; i < end; ++i) {
        p[i] = valueAt(i) != 0.0 ? 1 : 0;
        if (kept)
          kept[i] = p[i];
      }
      break;
    }
    case DType::I32: {
      int32_t *p = static_cast<int32_t *>(data);
      for (int64_t i = begin; i < end; ++i) {
        p[i] = static_cast<int32_t>(std::llround(valueAt(i)));
        if (kept)
          kept[i] = p[i];
      }
      break;
    }
    }
  });
  return values;
}

std::vector<double> InputGenerator::fill(HostTensor &t, double lo, double hi,
                                         bool keepValues) {
  const uint64_t key = splitmix64(seed) ^ splitmix64(0x1000 + tensors++);
  const double width = hi - lo;
  return fillWith(t, keepValues, [&](int64_t i) {
    return lo + width * unit(key, uint64_t(i));
  });
}

std::vector<double> InputGenerator::fillMask(HostTensor &t, int64_t rowLen,
                                             bool keepValues) {
  const uint64_t key = splitmix64(seed) ^ splitmix64(0x1000 + tensors++);
  const bool boolean = t.dtype() == DType::I1;
  rowLen = std::max<int64_t>(rowLen, 1);
  return fillWith(t, keepValues, [&](int64_t i) {
    bool rowOff = unit(key, uint64_t(i / rowLen), 1) < 0.1;
    bool off = rowOff || unit(key, uint64_t(i), 2) < 0.25;
    return boolean ? (off ? 0.0 : 1.0)
                   : (off ? -std::numeric_limits<double>::infinity()
                          : 6.0 * unit(key, uint64_t(i), 3) - 3.0);
  });
}

std::vector<double> InputGenerator::fillKeep(HostTensor &t, double p,
                                             bool keepValues) {
  const uint64_t key = splitmix64(seed) ^ splitmix64(0x1000 + tensors++);
  return fillWith(t, keepValues, [&](int64_t i) {
    return unit(key, uint64_t(i), 4) >= p ? 1.0 : 0.0;
  });
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

double defaultOutputTolerance(DType t, bool tf32) {
  switch (t) {
  case DType::F32:
    return tf32 ? 4e-3 : 1e-5;
  case DType::F16:
    return 2e-3;
  default:
    return 8e-3;
  }
}

double defaultGradTolerance(DType t) {
  switch (t) {
  case DType::F32:
    return 1e-4;
  case DType::F16:
    return 1e-2;
  default:
    return 2e-2;
  }
}

} // namespace attnrt
