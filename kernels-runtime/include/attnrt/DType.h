//===- DType.h - element types and f16/bf16 conversions ---------*- C++ -*-===//
//
// The element types of the manifest (f16, bf16, f32, i1 stored as one byte
// per element, and i32 for the offsets of packed batches) and exact conversions between double and the 16-bit formats.
// Decoding is __host__ __device__ so that the GPU reference reads inputs with
// the same code the host uses; encoding rounds to nearest even, directly from
// double (no double rounding through f32).
//
//===----------------------------------------------------------------------===//

#ifndef ATTNRT_DTYPE_H
#define ATTNRT_DTYPE_H

#include <cmath>
#include <cstdint>
#include <cstring>
#include <string>

#if defined(__CUDACC__)
#define ATTNRT_HOST_DEVICE __host__ __device__
#else
#define ATTNRT_HOST_DEVICE
#endif

namespace attnrt {

enum class DType : int { F16 = 0, BF16 = 1, F32 = 2, I1 = 3, I32 = 4 };

/// "f16", "bf16", "f32", "i1", "i32".
const char *dtypeName(DType t);
/// Parses one of the names above; false if unknown.
bool parseDType(const std::string &name, DType &out);
/// Bytes per element: 2, 2, 4, 1, 4.
inline size_t dtypeSize(DType t) {
  return t == DType::F32 || t == DType::I32 ? 4 : t == DType::I1 ? 1 : 2;
}

/// Round to nearest even; overflow gives +-inf, NaN stays NaN (quiet).
uint16_t toHalfBits(double v);
uint16_t toBFloat16Bits(double v);

ATTNRT_HOST_DEVICE inline double fromHalfBits(uint16_t bits) {
  int sign = bits >> 15, exponent = (bits >> 10) & 0x1F, mantissa = bits & 0x3FF;
  double v;
  if (exponent == 0)
    v = std::ldexp(double(mantissa), -24);
  else if (exponent == 31)
    v = mantissa ? NAN : INFINITY;
  else
    v = std::ldexp(double(mantissa + 1024), exponent - 25);
  return sign ? -v : v;
}

ATTNRT_HOST_DEVICE inline double fromBFloat16Bits(uint16_t bits) {
  uint32_t word = uint32_t(bits) << 16;
  float f;
  std::memcpy(&f, &word, 4);
  return double(f);
}

ATTNRT_HOST_DEVICE inline double fromFloatBits(uint32_t bits) {
  float f;
  std::memcpy(&f, &bits, 4);
  return double(f);
}

/// Element `index` of a dense buffer of type `t`, as double (i1: 0 or 1).
ATTNRT_HOST_DEVICE inline double loadElement(const void *data, DType t,
                                             int64_t index) {
  switch (t) {
  case DType::F16:
    return fromHalfBits(static_cast<const uint16_t *>(data)[index]);
  case DType::BF16:
    return fromBFloat16Bits(static_cast<const uint16_t *>(data)[index]);
  case DType::F32:
    return double(static_cast<const float *>(data)[index]);
  case DType::I1:
    return static_cast<const uint8_t *>(data)[index] != 0 ? 1.0 : 0.0;
  case DType::I32:
    return double(static_cast<const int32_t *>(data)[index]);
  }
  return 0.0;
}

} // namespace attnrt

#endif // ATTNRT_DTYPE_H
