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

// Everything but the std::array overload of philox4x32_10 is also usable from
// CUDA device code (kernels-runtime's GPU reference): under nvcc the functions
// are __host__ __device__; for any other compiler the macro is empty.
#if defined(__CUDACC__)
#define ATTNOPT_HOST_DEVICE __host__ __device__
#else
#define ATTNOPT_HOST_DEVICE
#endif

namespace attnopt::ref {

/// Philox4x32 with 10 rounds (Salmon et al., SC'11), as in Random123, on
/// plain arrays (device-compatible form): out = philox(ctr, key).
ATTNOPT_HOST_DEVICE inline void philox4x32_10Words(const uint32_t ctrIn[4],
                                                   const uint32_t keyIn[2],
                                                   uint32_t out[4]) {
  constexpr uint32_t kMul0 = 0xD2511F53u, kMul1 = 0xCD9E8D57u;
  constexpr uint32_t kWeyl0 = 0x9E3779B9u, kWeyl1 = 0xBB67AE85u;
  uint32_t c0 = ctrIn[0], c1 = ctrIn[1], c2 = ctrIn[2], c3 = ctrIn[3];
  uint32_t k0 = keyIn[0], k1 = keyIn[1];
  for (int round = 0; round < 10; ++round) {
    uint64_t p0 = uint64_t(kMul0) * c0;
    uint64_t p1 = uint64_t(kMul1) * c2;
    uint32_t hi0 = uint32_t(p0 >> 32), lo0 = uint32_t(p0);
    uint32_t hi1 = uint32_t(p1 >> 32), lo1 = uint32_t(p1);
    uint32_t n0 = hi1 ^ c1 ^ k0, n1 = lo1, n2 = hi0 ^ c3 ^ k1, n3 = lo0;
    c0 = n0;
    c1 = n1;
    c2 = n2;
    c3 = n3;
    k0 += kWeyl0;
    k1 += kWeyl1;
  }
  out[0] = c0;
  out[1] = c1;
  out[2] = c2;
  out[3] = c3;
}

/// Philox4x32 with 10 rounds (Salmon et al., SC'11), as in Random123.
inline std::array<uint32_t, 4> philox4x32_10(std::array<uint32_t, 4> ctr,
                                             std::array<uint32_t, 2> key) {
  std::array<uint32_t, 4> out;
  philox4x32_10Words(ctr.data(), key.data(), out.data());
  return out;
}

/// Random words below this threshold drop the element: floor(p * 2^32),
/// with p the f32 attribute widened to double, clamped to 2^32 - 1.
ATTNOPT_HOST_DEVICE inline uint32_t dropoutThreshold(float p) {
  double t = std::floor(double(p) * 4294967296.0);
  if (!(t > 0.0))
    return 0;
  return t >= 4294967295.0 ? 0xFFFFFFFFu : uint32_t(t);
}

/// The 32-bit random word of element (b, h, i, j) of the [B, Hq, Lq, Lk]
/// probability matrix.
ATTNOPT_HOST_DEVICE inline uint32_t dropoutBits(uint64_t seed,
                                                uint64_t offset, int64_t b,
                                                int64_t h, int64_t i,
                                                int64_t j, int64_t numHeads,
                                                int64_t lq) {
  uint64_t row = (uint64_t(b) * uint64_t(numHeads) + uint64_t(h)) *
                     uint64_t(lq) +
                 uint64_t(i);
  uint32_t ctr[4] = {uint32_t(uint64_t(j) >> 2), uint32_t(row),
                     uint32_t(offset), uint32_t(offset >> 32)};
  uint32_t key[2] = {uint32_t(seed), uint32_t(seed >> 32)};
  uint32_t words[4];
  philox4x32_10Words(ctr, key, words);
  return words[uint64_t(j) & 3];
}

/// Whether element (b, h, i, j) survives dropout with probability p.
ATTNOPT_HOST_DEVICE inline bool dropoutKeep(uint64_t seed, uint64_t offset,
                                            int64_t b, int64_t h, int64_t i,
                                            int64_t j, int64_t numHeads,
                                            int64_t lq, float p) {
  return dropoutBits(seed, offset, b, h, i, j, numHeads, lq) >=
         dropoutThreshold(p);
}

} // namespace attnopt::ref

#endif // ATTNOPT_REFERENCE_PHILOX_H
