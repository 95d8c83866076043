//===- Philox.h - Philox4x32-10 and the dropout keep function ---*- C++ -*-===//
//
// The one C++ definition of the dropout random bits (docs/semantics.md,
// "Dropout"). The MLIR lowering (attnopt/Dialect/Attn/Utils/Philox.h) emits
// the same function; tests compare the two bit for bit.
//
//===----------------------------------------------------------------------===//

#ifndef ATTNOPT_REFERENCE_PHILOX_H
#define ATTNOPT_REFERENCE_PHILOX_H

#include <array>
#include <cmath>
#include <cstdint>

namespace attnopt::ref {

/// Philox4x32 with 10 rounds (Salmon et al., SC'11), as in Random123.
inline std::array<uint32_t, 4> philox4x32_10(std::array<uint32_t, 4> ctr,
                                             std::array<uint32_t, 2> key) {
  constexpr uint32_t kMul0 = 0xD2511F53u, kMul1 = 0xCD9E8D57u;
  constexpr uint32_t kWeyl0 = 0x9E3779B9u, kWeyl1 = 0xBB67AE85u;
  for (int round = 0; round < 10; ++round) {
    uint64_t p0 = uint64_t(kMul0) * ctr[0];
    uint64_t p1 = uint64_t(kMul1) * ctr[2];
    uint32_t hi0 = uint32_t(p0 >> 32), lo0 = uint32_t(p0);
    uint32_t hi1 = uint32_t(p1 >> 32), lo1 = uint32_t(p1);
    ctr = {hi1 ^ ctr[1] ^ key[0], lo1, hi0 ^ ctr[3] ^ key[1], lo0};
    key[0] += kWeyl0;
    key[1] += kWeyl1;
  }
  return ctr;
}

/// Random words below this threshold drop the element: floor(p * 2^32),
/// with p the f32 attribute widened to double, clamped to 2^32 - 1.
inline uint32_t dropoutThreshold(float p) {
  double t = std::floor(double(p) * 4294967296.0);
  if (!(t > 0.0))
    return 0;
  return t >= 4294967295.0 ? 0xFFFFFFFFu : uint32_t(t);
}

/// The 32-bit random word of element (b, h, i, j) of the [B, Hq, Lq, Lk]
/// probability matrix.
inline uint32_t dropoutBits(uint64_t seed, uint64_t offset, int64_t b,
                            int64_t h, int64_t i, int64_t j, int64_t numHeads,
                            int64_t lq) {
  uint64_t row = (uint64_t(b) * uint64_t(numHeads) + uint64_t(h)) *
                     uint64_t(lq) +
                 uint64_t(i);
  std::array<uint32_t, 4> ctr = {uint32_t(uint64_t(j) >> 2), uint32_t(row),
                                 uint32_t(offset), uint32_t(offset >> 32)};
  std::array<uint32_t, 2> key = {uint32_t(seed), uint32_t(seed >> 32)};
  return philox4x32_10(ctr, key)[uint64_t(j) & 3];
}

/// Whether element (b, h, i, j) survives dropout with probability p.
inline bool dropoutKeep(uint64_t seed, uint64_t offset, int64_t b, int64_t h,
                        int64_t i, int64_t j, int64_t numHeads, int64_t lq,
                        float p) {
  return dropoutBits(seed, offset, b, h, i, j, numHeads, lq) >=
         dropoutThreshold(p);
}

} // namespace attnopt::ref

#endif // ATTNOPT_REFERENCE_PHILOX_H
