//===- DType.cpp - element types and f16/bf16 conversions -----------------===//

#include "attnrt/DType.h"

#include <cmath>
#include <cstring>
#include <limits>

namespace attnrt {

const char *dtypeName(DType t) {
  switch (t) {
  case DType::F16:
    return "f16";
  case DType::BF16:
    return "bf16";
  case DType::F32:
    return "f32";
  case DType::I1:
    return "i1";
  case DType::I32:
    return "i32";
  }
  return "?";
}

bool parseDType(const std::string &name, DType &out) {
  if (name == "f16")
    out = DType::F16;
  else if (name == "bf16")
    out = DType::BF16;
  else if (name == "f32")
    out = DType::F32;
  else if (name == "i1")
    out = DType::I1;
  else if (name == "i32")
    out = DType::I32;
  else
    return false;
  return true;
}

/// Rounds `v` to the binary format with `expBits` exponent bits and
/// `mantBits` explicit mantissa bits (IEEE layout, bias 2^(e-1)-1), round to
/// nearest even, and returns its bit pattern.
static uint16_t roundToFormat(double v, int expBits, int mantBits,
                              uint16_t quietNaN) {
  const int bias = (1 << (expBits - 1)) - 1;
  const int emin = 1 - bias, emax = bias;
  const uint16_t signBit = uint16_t(1u << (expBits + mantBits));
  const uint16_t infBits = uint16_t(((1u << expBits) - 1) << mantBits);
  if (std::isnan(v))
    return quietNaN | (std::signbit(v) ? signBit : 0);
  uint16_t sign = std::signbit(v) ? signBit : 0;
  double a = std::fabs(v);
  if (std::isinf(a))
    return sign | infBits;
  if (a == 0.0)
    return sign;
  int e;
  (void)std::frexp(a, &e); // a = f * 2^e, f in [0.5, 1)
  --e;                     // a = 1.x * 2^e
  int quantumExp = (e < emin ? emin : e) - mantBits;
  if (e > emax)
    return sign | infBits;
  // Exact: scaling by a power of two, and q < 2^(mantBits + 1) fits double.
  double q = std::ldexp(a, -quantumExp);
  double r = std::nearbyint(q); // round half to even (default rounding mode)
  double value = std::ldexp(r, quantumExp);
  if (value == 0.0)
    return sign;
  (void)std::frexp(value, &e);
  --e;
  if (e > emax)
    return sign | infBits;
  if (e < emin) // subnormal
    return sign | uint16_t(std::ldexp(value, mantBits - emin));
  uint32_t mant = uint32_t(std::ldexp(value, mantBits - e)) - (1u << mantBits);
  return sign | uint16_t(uint32_t(e + bias) << mantBits) | uint16_t(mant);
}

/// The common case on bits: |v| normal in the target format and not
/// rounding up to infinity. False (and the general path) otherwise.
static inline bool roundNormal(double v, int expBits, int mantBits,
                               uint16_t &out) {
  const int bias = (1 << (expBits - 1)) - 1;
  uint64_t bits;
  std::memcpy(&bits, &v, 8);
  int e = int((bits >> 52) & 0x7FF) - 1023;
  if (e < 1 - bias || e > bias)
    return false; // zero, subnormal, overflow, inf, NaN
  const int shift = 52 - mantBits;
  uint64_t magnitude = bits & 0x7FFFFFFFFFFFFFFFull;
  uint64_t lsb = (magnitude >> shift) & 1;
  magnitude += ((uint64_t(1) << (shift - 1)) - 1) + lsb; // nearest, even
  int rounded = int(magnitude >> 52) - 1023;
  if (rounded > bias)
    return false; // rounds to infinity
  uint64_t mantissa = (magnitude >> shift) & ((uint64_t(1) << mantBits) - 1);
  out = uint16_t(((bits >> 63) << (expBits + mantBits)) |
                 (uint64_t(rounded + bias) << mantBits) | mantissa);
  return true;
}

uint16_t toHalfBits(double v) {
  uint16_t bits;
  if (roundNormal(v, 5, 10, bits))
    return bits;
  return roundToFormat(v, 5, 10, 0x7E00);
}

uint16_t toBFloat16Bits(double v) {
  uint16_t bits;
  if (roundNormal(v, 8, 7, bits))
    return bits;
  return roundToFormat(v, 8, 7, 0x7FC0);
}

} // namespace attnrt
