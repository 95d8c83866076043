//===- sample_kernels.cu - naive attention kernels with the manifest ABI --===//
//
// Test fixtures for attn-run: small, naive (one thread per query row, f32
// arithmetic) attention kernels whose parameters follow the attn-kernels-v1
// ABI: tensors as pointers, seed/offset as u64, in the order listed by the
// manifests next to this file; every shape and attribute is compiled in, as
// in attention-opt's kernels. Compiled to PTX by the build (Tests.cmake).
//
// Some kernels are wrong on purpose: one uses a slightly wrong scale and one
// writes past the end of its output (wrong.json), one faults (fault.json).
//
// The backward kernels (grad.json, the ABI of docs/kernel-manifest.md,
// "Backward kernels") are as naive: one thread per key row (stage dkdv) or
// per query row (stage dq), f32 arithmetic, no atomics. In wrong-grad.json
// one dkdv kernel forgets the other query heads of a GQA group and one dq
// kernel changes a bit of its result on every second launch (a stand-in for
// a kernel whose results depend on the order of atomic additions, which its
// manifest wrongly calls "deterministic": the repeat check fails it).
//
// The backward group (grad-group.json) is the tensor-core backward's shape
// of work done naively: prep (row_dot, lse_log2, zeroed dq_accum), dkdv_dq
// (one thread per key row, dQ added to dq_accum with atomics) and
// dq_convert; in wrong-grad-group.json the prep kernel forgets to zero
// dq_accum (the runtime's NaN-poisoned workspace then reaches grad_query).
//
// The packed kernels (varlen.json, "op": "varlen_attention",
// docs/semantics.md §14) take token-major tensors and the offsets
// cu_seqlens_q / cu_seqlens_k, one block per (query block, head, sequence)
// with one thread per query row; blocks past their sequence's queries exit.
// In varlen-wrong.json one draws its dropout bits at the dense coordinates
// of its sequence (b, local i and j) instead of the packed ones.
//
//===----------------------------------------------------------------------===//

#include <cuda_bf16.h>
#include <cuda_fp16.h>
#include <stdint.h>

#include "attnopt/Reference/Philox.h"

namespace {

struct Config {
  int B, Hq, Hkv, Lq, Lk, D, Dv;
  float scale;
  int causal; // 0 none, 1 top_left, 2 bottom_right
  int windowLeft, windowRight; // -2: no window; -1: unbounded side
  float softcap;               // 0: none
  float dropout;
  int maskKind; // 0 none, 1 boolean, 2 additive
  int mb, mh, mi, mj; // mask shape
};

__device__ float toFloat(float x) { return x; }
__device__ float toFloat(__half x) { return __half2float(x); }
__device__ float toFloat(__nv_bfloat16 x) { return __bfloat162float(x); }
__device__ float toFloat(uint8_t x) { return x ? 1.0f : 0.0f; }
template <class T> __device__ T fromFloat(float x);
template <> __device__ float fromFloat<float>(float x) { return x; }
template <> __device__ __half fromFloat<__half>(float x) {
  return __float2half_rn(x);
}
template <> __device__ __nv_bfloat16 fromFloat<__nv_bfloat16>(float x) {
  return __float2bfloat16_rn(x);
}

constexpr int kMaxDv = 128;

template <class T, class M>
__device__ float score(const Config &c, const T *qRow, const T *k,
                       const M *mask, int b, int h, int hk, int i, int j) {
  const T *kRow = k + ((int64_t(b) * c.Hkv + hk) * c.Lk + j) * c.D;
  float dot = 0.0f;
  for (int d = 0; d < c.D; ++d)
    dot += toFloat(qRow[d]) * toFloat(kRow[d]);
  float s = c.scale * dot;
  if (c.softcap > 0.0f)
    s = c.softcap * tanhf(s / c.softcap);
  int diag = i + (c.causal == 2 ? c.Lk - c.Lq : 0);
  bool allowed = !(c.causal != 0 && j > diag);
  if (c.windowLeft != -2) {
    if (c.windowLeft >= 0 && j < diag - c.windowLeft)
      allowed = false;
    if (c.windowRight >= 0 && j > diag + c.windowRight)
      allowed = false;
  }
  if (c.maskKind != 0) {
    int64_t idx = ((int64_t(c.mb == 1 ? 0 : b) * c.mh + (c.mh == 1 ? 0 : h)) *
                       c.mi +
                   (c.mi == 1 ? 0 : i)) *
                      c.mj +
                  (c.mj == 1 ? 0 : j);
    float m = toFloat(mask[idx]);
    if (c.maskKind == 1)
      allowed = allowed && m != 0.0f;
    else
      s += m;
  }
  return allowed ? s : -INFINITY;
}

template <class T, class M>
__device__ void attention(const Config c, const T *q, const T *k, const T *v,
                          const M *mask, uint64_t seed, uint64_t offset,
                          T *out, float *lse, bool oobWrite = false) {
  int64_t row = int64_t(blockIdx.x) * blockDim.x + threadIdx.x;
  int64_t rows = int64_t(c.B) * c.Hq * c.Lq;
  if (oobWrite && row == 0)
    out[rows * c.Dv] = fromFloat<T>(1.0f); // one element past the end
  if (row >= rows)
    return;
  int i = int(row % c.Lq), h = int((row / c.Lq) % c.Hq),
      b = int(row / (int64_t(c.Lq) * c.Hq));
  int hk = h / (c.Hq / c.Hkv);
  const T *qRow = q + row * c.D;

  float m = -INFINITY, l = 0.0f;
  for (int j = 0; j < c.Lk; ++j) {
    float s = score(c, qRow, k, mask, b, h, hk, i, j);
    if (s == -INFINITY)
      continue;
    if (s > m) {
      l = l * expf(m - s) + 1.0f;
      m = s;
    } else {
      l += expf(s - m);
    }
  }
  if (m == -INFINITY) {
    for (int e = 0; e < c.Dv; ++e)
      out[row * c.Dv + e] = fromFloat<T>(0.0f);
    if (lse)
      lse[row] = -INFINITY;
    return;
  }
  float acc[kMaxDv];
  for (int e = 0; e < c.Dv; ++e)
    acc[e] = 0.0f;
  const uint32_t threshold = attnopt::ref::dropoutThreshold(c.dropout);
  const float keepScale = 1.0f / (1.0f - c.dropout);
  for (int j = 0; j < c.Lk; ++j) {
    float s = score(c, qRow, k, mask, b, h, hk, i, j);
    if (s == -INFINITY)
      continue;
    float a = expf(s - m) / l;
    if (c.dropout > 0.0f)
      a = attnopt::ref::dropoutBits(seed, offset, b, h, i, j, c.Hq, c.Lq) >=
                  threshold
              ? a * keepScale
              : 0.0f;
    const T *vRow = v + ((int64_t(b) * c.Hkv + hk) * c.Lk + j) * c.Dv;
    for (int e = 0; e < c.Dv; ++e)
      acc[e] += a * toFloat(vRow[e]);
  }
  for (int e = 0; e < c.Dv; ++e)
    out[row * c.Dv + e] = fromFloat<T>(acc[e]);
  if (lse)
    lse[row] = m + logf(l);
}

using bf16 = __nv_bfloat16;
using f16 = __half;

//                     B  Hq Hkv Lq   Lk  D    Dv  scale   causal wl  wr  cap  drop mk  mask shape
constexpr Config kGqa{2, 8, 2, 128, 192, 64, 64, 0.125f, 2, -2, -2, 0.f, 0.f, 0, 1, 1, 1, 1};
constexpr Config kWrong{2, 8, 2, 128, 192, 64, 64, 0.13f, 2, -2, -2, 0.f, 0.f, 0, 1, 1, 1, 1};
constexpr Config kEverything{2, 8, 2, 16, 32, 64, 48, 0.5f, 2, 8, -1, 30.f, 0.25f, 2, 1, 8, 1, 32};
constexpr Config kBoolMask{3, 2, 2, 12, 40, 32, 32, 0.17677669f, 1, 4, 2, 0.f, 0.f, 1, 3, 1, 1, 40};
constexpr Config kDecode{4, 16, 2, 1, 1000, 128, 128, 0.088388346f, 2, -2, -2, 0.f, 0.f, 2, 4, 1, 1, 1000};
constexpr Config kFullyMasked{1, 2, 1, 24, 16, 16, 16, 0.25f, 2, -2, -2, 0.f, 0.f, 2, 1, 1, 24, 16};
constexpr Config kBench{4, 16, 16, 1024, 1024, 64, 64, 0.125f, 1, -2, -2, 0.f, 0.f, 0, 1, 1, 1, 1};

//===----------------------------------------------------------------------===//
// Packed batches
//===----------------------------------------------------------------------===//

struct VarlenConfig {
  int Hq, Hkv, D, Dv;
  float scale;
  int causal;                  // 0 none, 1 top_left, 2 bottom_right
  int windowLeft, windowRight; // -2: no window; -1: unbounded side
  float softcap;               // 0: none
  float dropout;
};

/// One thread per query row i of sequence blockIdx.z, head blockIdx.y:
/// token t = cuQ[b] + i, its keys cuK[b] ... cuK[b + 1] - 1, the positional
/// rules at the sequence's own lengths. `denseDropout` (wrong on purpose)
/// draws the keep bits at (b, h, i, j) of a [B, Hq, Lq_b, Lk_b] problem.
template <class T>
__device__ void varlenAttention(const VarlenConfig c, const T *q, const T *k,
                                const T *v, const int32_t *cuQ,
                                const int32_t *cuK, uint64_t seed,
                                uint64_t offset, T *out, float *lse,
                                int totalQ, bool denseDropout = false) {
  const int b = blockIdx.z, h = blockIdx.y;
  const int q0 = cuQ[b], lq = cuQ[b + 1] - q0;
  const int k0 = cuK[b], lk = cuK[b + 1] - k0;
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= lq)
    return; // past this sequence's queries
  const int t = q0 + i, hk = h / (c.Hq / c.Hkv);
  const T *qRow = q + (int64_t(t) * c.Hq + h) * c.D;
  auto score = [&](int j) {
    const T *kRow = k + (int64_t(k0 + j) * c.Hkv + hk) * c.D;
    float dot = 0.0f;
    for (int d = 0; d < c.D; ++d)
      dot += toFloat(qRow[d]) * toFloat(kRow[d]);
    float s = c.scale * dot;
    if (c.softcap > 0.0f)
      s = c.softcap * tanhf(s / c.softcap);
    int diag = i + (c.causal == 2 ? lk - lq : 0);
    bool allowed = !(c.causal != 0 && j > diag);
    if (c.windowLeft != -2) {
      if (c.windowLeft >= 0 && j < diag - c.windowLeft)
        allowed = false;
      if (c.windowRight >= 0 && j > diag + c.windowRight)
        allowed = false;
    }
    return allowed ? s : -INFINITY;
  };
  float m = -INFINITY, l = 0.0f;
  for (int j = 0; j < lk; ++j) {
    float s = score(j);
    if (s == -INFINITY)
      continue;
    if (s > m) {
      l = l * expf(m - s) + 1.0f;
      m = s;
    } else {
      l += expf(s - m);
    }
  }
  T *outRow = out + (int64_t(t) * c.Hq + h) * c.Dv;
  if (m == -INFINITY) {
    for (int e = 0; e < c.Dv; ++e)
      outRow[e] = fromFloat<T>(0.0f);
    if (lse)
      lse[int64_t(h) * totalQ + t] = -INFINITY;
    return;
  }
  float acc[kMaxDv];
  for (int e = 0; e < c.Dv; ++e)
    acc[e] = 0.0f;
  const uint32_t threshold = attnopt::ref::dropoutThreshold(c.dropout);
  const float keepScale = 1.0f / (1.0f - c.dropout);
  for (int j = 0; j < lk; ++j) {
    float s = score(j);
    if (s == -INFINITY)
      continue;
    float a = expf(s - m) / l;
    if (c.dropout > 0.0f) {
      uint32_t bits =
          denseDropout
              ? attnopt::ref::dropoutBits(seed, offset, b, h, i, j, c.Hq, lq)
              : attnopt::ref::dropoutBits(seed, offset, 0, h, t, k0 + j, c.Hq,
                                          totalQ);
      a = bits >= threshold ? a * keepScale : 0.0f;
    }
    const T *vRow = v + (int64_t(k0 + j) * c.Hkv + hk) * c.Dv;
    for (int e = 0; e < c.Dv; ++e)
      acc[e] += a * toFloat(vRow[e]);
  }
  for (int e = 0; e < c.Dv; ++e)
    outRow[e] = fromFloat<T>(acc[e]);
  if (lse)
    lse[int64_t(h) * totalQ + t] = m + logf(l);
}

//                               Hq Hkv D   Dv  scale   causal wl  wr  cap   drop
constexpr VarlenConfig kVarlenBf16{8, 2, 64, 64, 0.125f, 2, -2, -2, 0.f, 0.1f};
constexpr VarlenConfig kVarlenF16{4, 4, 32, 32, 0.17677669f, 0, 16, 0, 30.f,
                                  0.f};

//===----------------------------------------------------------------------===//
// Backward
//===----------------------------------------------------------------------===//

constexpr int kMaxD = 128;

/// dS_ij and Pd_ij (docs/semantics.md §13) of query row (b, h, i) and key j,
/// given the row's lse (finite) and D_i; false where the position is
/// excluded (no gradient flows).
template <class T, class M>
__device__ bool gradPoint(const Config &c, const T *q, const T *k, const T *v,
                          const M *mask, const T *dout, uint64_t seed,
                          uint64_t offset, int b, int h, int i, int j,
                          float lse, float rowD, float &ds, float &pd) {
  int hk = h / (c.Hq / c.Hkv);
  int64_t row = (int64_t(b) * c.Hq + h) * c.Lq + i;
  int64_t kv = (int64_t(b) * c.Hkv + hk) * c.Lk + j;
  float dot = 0.0f;
  for (int d = 0; d < c.D; ++d)
    dot += toFloat(q[row * c.D + d]) * toFloat(k[kv * c.D + d]);
  float s = c.scale * dot, t = 0.0f;
  if (c.softcap > 0.0f) {
    t = tanhf(s / c.softcap);
    s = c.softcap * t;
  }
  int diag = i + (c.causal == 2 ? c.Lk - c.Lq : 0);
  bool allowed = !(c.causal != 0 && j > diag);
  if (c.windowLeft != -2) {
    if (c.windowLeft >= 0 && j < diag - c.windowLeft)
      allowed = false;
    if (c.windowRight >= 0 && j > diag + c.windowRight)
      allowed = false;
  }
  if (c.maskKind != 0) {
    int64_t idx = ((int64_t(c.mb == 1 ? 0 : b) * c.mh + (c.mh == 1 ? 0 : h)) *
                       c.mi +
                   (c.mi == 1 ? 0 : i)) *
                      c.mj +
                  (c.mj == 1 ? 0 : j);
    float m = toFloat(mask[idx]);
    if (c.maskKind == 1)
      allowed = allowed && m != 0.0f;
    else
      s += m;
  }
  if (!allowed)
    return false;
  float prob = expf(s - lse); // 0 for a -inf bias
  float factor = 1.0f;
  if (c.dropout > 0.0f)
    factor = attnopt::ref::dropoutBits(seed, offset, b, h, i, j, c.Hq, c.Lq) >=
                     attnopt::ref::dropoutThreshold(c.dropout)
                 ? 1.0f / (1.0f - c.dropout)
                 : 0.0f;
  float dPd = 0.0f;
  for (int e = 0; e < c.Dv; ++e)
    dPd += toFloat(dout[row * c.Dv + e]) * toFloat(v[kv * c.Dv + e]);
  pd = prob * factor;
  ds = prob * (dPd * factor - rowD);
  if (c.softcap > 0.0f)
    ds *= 1.0f - t * t;
  return true;
}

/// D_i = grad_output_i . output_i.
template <class T>
__device__ float rowDot(const Config &c, const T *out, const T *dout,
                        int64_t row) {
  float sum = 0.0f;
  for (int e = 0; e < c.Dv; ++e)
    sum += toFloat(dout[row * c.Dv + e]) * toFloat(out[row * c.Dv + e]);
  return sum;
}

/// Stage dkdv: one thread per key row (b, hk, j). `onlyFirstHead` is the
/// deliberate bug of wrong-grad.json (the group's other heads are ignored).
template <class T, class M>
__device__ void gradKeyValue(const Config c, const T *q, const T *k,
                             const T *v, const T *out, const float *lse,
                             const T *dout, const M *mask, uint64_t seed,
                             uint64_t offset, T *dk, T *dv,
                             bool onlyFirstHead = false) {
  int64_t kvRow = int64_t(blockIdx.x) * blockDim.x + threadIdx.x;
  if (kvRow >= int64_t(c.B) * c.Hkv * c.Lk)
    return;
  int j = int(kvRow % c.Lk), hk = int((kvRow / c.Lk) % c.Hkv),
      b = int(kvRow / (int64_t(c.Lk) * c.Hkv));
  int group = c.Hq / c.Hkv;
  float accK[kMaxD], accV[kMaxDv];
  for (int d = 0; d < c.D; ++d)
    accK[d] = 0.0f;
  for (int e = 0; e < c.Dv; ++e)
    accV[e] = 0.0f;
  for (int g = 0; g < (onlyFirstHead ? 1 : group); ++g) {
    int h = hk * group + g;
    for (int i = 0; i < c.Lq; ++i) {
      int64_t row = (int64_t(b) * c.Hq + h) * c.Lq + i;
      float l = lse[row];
      if (l == -INFINITY)
        continue; // a fully masked row contributes nothing
      float ds, pd;
      if (!gradPoint(c, q, k, v, mask, dout, seed, offset, b, h, i, j, l,
                     rowDot(c, out, dout, row), ds, pd))
        continue;
      for (int d = 0; d < c.D; ++d)
        accK[d] += ds * toFloat(q[row * c.D + d]);
      for (int e = 0; e < c.Dv; ++e)
        accV[e] += pd * toFloat(dout[row * c.Dv + e]);
    }
  }
  for (int d = 0; d < c.D; ++d)
    dk[kvRow * c.D + d] = fromFloat<T>(c.scale * accK[d]);
  for (int e = 0; e < c.Dv; ++e)
    dv[kvRow * c.Dv + e] = fromFloat<T>(accV[e]);
}

__device__ unsigned int gLaunches; // for the non-reproducible dq kernel

/// Stage dq: one thread per query row (b, h, i). `flipEveryOther` is the
/// deliberate bug of wrong-grad.json.
template <class T, class M>
__device__ void gradQuery(const Config c, const T *q, const T *k, const T *v,
                          const T *out, const float *lse, const T *dout,
                          const M *mask, uint64_t seed, uint64_t offset,
                          T *dq, bool flipEveryOther = false) {
  int64_t row = int64_t(blockIdx.x) * blockDim.x + threadIdx.x;
  if (row >= int64_t(c.B) * c.Hq * c.Lq)
    return;
  int i = int(row % c.Lq), h = int((row / c.Lq) % c.Hq),
      b = int(row / (int64_t(c.Lq) * c.Hq));
  float acc[kMaxD];
  for (int d = 0; d < c.D; ++d)
    acc[d] = 0.0f;
  float l = lse[row];
  if (l != -INFINITY) {
    float rowD = rowDot(c, out, dout, row);
    int hk = h / (c.Hq / c.Hkv);
    for (int j = 0; j < c.Lk; ++j) {
      float ds, pd;
      if (!gradPoint(c, q, k, v, mask, dout, seed, offset, b, h, i, j, l,
                     rowD, ds, pd))
        continue;
      const T *kRow = k + ((int64_t(b) * c.Hkv + hk) * c.Lk + j) * c.D;
      for (int d = 0; d < c.D; ++d)
        acc[d] += ds * toFloat(kRow[d]);
    }
  }
  for (int d = 0; d < c.D; ++d) {
    float g = c.scale * acc[d];
    if (flipEveryOther && row == 0 && d == 0 && (atomicAdd(&gLaunches, 1) & 1))
      g = __uint_as_float(__float_as_uint(g) ^ 1u);
    dq[row * c.D + d] = fromFloat<T>(g);
  }
}

//===----------------------------------------------------------------------===//
// Backward group: prep -> dkdv_dq -> dq_convert
//===----------------------------------------------------------------------===//

constexpr float kLog2e = 1.4426950408889634f;

/// Query rows of row_dot and lse_log2, padded to a multiple of 64 like the
/// tensor-core kernels' workspaces.
__device__ int paddedRows(const Config &c) { return (c.Lq + 63) / 64 * 64; }

/// Stage prep: one thread per padded query row (b, h, i): row_dot = D_i
/// (0 past Lq), lse_log2 = lse * log2(e) (+inf for an empty row or past
/// Lq), and the row of dq_accum zeroed (unless `skipZero`, the deliberate
/// bug of wrong-grad-group.json).
template <class T>
__device__ void groupPrep(const Config c, const T *out, const float *lse,
                          const T *dout, float *rowDotWs, float *lseLog2,
                          float *dqAccum, bool skipZero = false) {
  int pad = paddedRows(c);
  int64_t prow = int64_t(blockIdx.x) * blockDim.x + threadIdx.x;
  if (prow >= int64_t(c.B) * c.Hq * pad)
    return;
  int i = int(prow % pad);
  if (i >= c.Lq) {
    rowDotWs[prow] = 0.0f;
    lseLog2[prow] = INFINITY;
    return;
  }
  int64_t row = prow / pad * c.Lq + i;
  rowDotWs[prow] = rowDot(c, out, dout, row);
  lseLog2[prow] = lse[row] == -INFINITY ? INFINITY : lse[row] * kLog2e;
  for (int d = 0; !skipZero && d < c.D; ++d)
    dqAccum[row * c.D + d] = 0.0f;
}

/// Stage dkdv_dq: gradKeyValue reading D_i and lse from the workspaces, and
/// adding each dS_ij K_j into dq_accum with atomics (so the order of the
/// additions, and the last bits of dQ, may change from run to run).
template <class T, class M>
__device__ void groupKeyValueQuery(const Config c, const T *q, const T *k,
                                   const T *v, const T *dout, const M *mask,
                                   const float *rowDotWs, const float *lseLog2,
                                   float *dqAccum, T *dk, T *dv) {
  int64_t kvRow = int64_t(blockIdx.x) * blockDim.x + threadIdx.x;
  if (kvRow >= int64_t(c.B) * c.Hkv * c.Lk)
    return;
  int j = int(kvRow % c.Lk), hk = int((kvRow / c.Lk) % c.Hkv),
      b = int(kvRow / (int64_t(c.Lk) * c.Hkv));
  int group = c.Hq / c.Hkv, pad = paddedRows(c);
  float accK[kMaxD], accV[kMaxDv];
  for (int d = 0; d < c.D; ++d)
    accK[d] = 0.0f;
  for (int e = 0; e < c.Dv; ++e)
    accV[e] = 0.0f;
  for (int h = hk * group; h < (hk + 1) * group; ++h) {
    for (int i = 0; i < c.Lq; ++i) {
      int64_t row = (int64_t(b) * c.Hq + h) * c.Lq + i;
      int64_t prow = (int64_t(b) * c.Hq + h) * pad + i;
      if (lseLog2[prow] == INFINITY)
        continue; // a fully masked row contributes nothing
      float ds, pd;
      if (!gradPoint(c, q, k, v, mask, dout, 0, 0, b, h, i, j,
                     lseLog2[prow] / kLog2e, rowDotWs[prow], ds, pd))
        continue;
      for (int d = 0; d < c.D; ++d) {
        accK[d] += ds * toFloat(q[row * c.D + d]);
        atomicAdd(&dqAccum[row * c.D + d], ds * toFloat(k[kvRow * c.D + d]));
      }
      for (int e = 0; e < c.Dv; ++e)
        accV[e] += pd * toFloat(dout[row * c.Dv + e]);
    }
  }
  for (int d = 0; d < c.D; ++d)
    dk[kvRow * c.D + d] = fromFloat<T>(c.scale * accK[d]);
  for (int e = 0; e < c.Dv; ++e)
    dv[kvRow * c.Dv + e] = fromFloat<T>(accV[e]);
}

/// Stage dq_convert: one thread per query row, grad_query = dq_accum *
/// scale in the element type.
template <class T>
__device__ void groupConvert(const Config c, const float *dqAccum, T *dq) {
  int64_t row = int64_t(blockIdx.x) * blockDim.x + threadIdx.x;
  if (row >= int64_t(c.B) * c.Hq * c.Lq)
    return;
  for (int d = 0; d < c.D; ++d)
    dq[row * c.D + d] = fromFloat<T>(c.scale * dqAccum[row * c.D + d]);
}

//                        B  Hq Hkv Lq  Lk  D   Dv  scale  causal wl  wr  cap  drop  mk  mask shape
constexpr Config kGradF32{2, 4, 2, 24, 40, 32, 24, 0.3f, 2, 16, -1, 5.f, 0.2f, 2, 1, 4, 1, 40};
constexpr Config kGradBf16{2, 6, 2, 33, 33, 64, 64, 0.125f, 1, -2, -2, 0.f, 0.f, 1, 2, 1, 33, 33};

} // namespace

extern "C" {

__global__ void sample_gqa_bf16(const bf16 *q, const bf16 *k, const bf16 *v,
                                bf16 *out, float *lse) {
  attention<bf16, uint8_t>(kGqa, q, k, v, nullptr, 0, 0, out, lse);
}

__global__ void sample_everything_f16(const f16 *q, const f16 *k,
                                      const f16 *v, const float *mask,
                                      uint64_t seed, uint64_t offset,
                                      f16 *out, float *lse) {
  attention(kEverything, q, k, v, mask, seed, offset, out, lse);
}

__global__ void sample_boolmask_f32(const float *q, const float *k,
                                    const float *v, const uint8_t *mask,
                                    float *out) {
  attention(kBoolMask, q, k, v, mask, 0, 0, out, nullptr);
}

__global__ void sample_decode_bf16(const bf16 *q, const bf16 *k,
                                   const bf16 *v, const bf16 *mask,
                                   bf16 *out) {
  attention(kDecode, q, k, v, mask, 0, 0, out, nullptr);
}

__global__ void sample_fullymasked_f32(const float *q, const float *k,
                                       const float *v, const f16 *mask,
                                       float *out, float *lse) {
  attention(kFullyMasked, q, k, v, mask, 0, 0, out, lse);
}

__global__ void sample_bench_bf16(const bf16 *q, const bf16 *k,
                                  const bf16 *v, bf16 *out, float *lse) {
  attention<bf16, uint8_t>(kBench, q, k, v, nullptr, 0, 0, out, lse);
}

__global__ void sample_wrong_scale_bf16(const bf16 *q, const bf16 *k,
                                        const bf16 *v, bf16 *out,
                                        float *lse) {
  attention<bf16, uint8_t>(kWrong, q, k, v, nullptr, 0, 0, out, lse);
}

__global__ void sample_oob_write_f32(const float *q, const float *k,
                                     const float *v, const uint8_t *mask,
                                     float *out) {
  attention(kBoolMask, q, k, v, mask, 0, 0, out, nullptr, true);
}

__global__ void sample_illegal_address_f32(const float *q, const float *k,
                                           const float *v, const uint8_t *mask,
                                           float *out) {
  // A kernel that faults: the CUDA context is unusable afterwards.
  if (threadIdx.x == 0)
    *reinterpret_cast<volatile float *>(uintptr_t(16)) = 1.0f;
  attention(kBoolMask, q, k, v, mask, 0, 0, out, nullptr);
}

// Backward samples (grad.json, wrong-grad.json): each forward kernel saves
// lse; the backward kernels take the backward ABI's parameters.

__global__ void sample_grad_fwd_f32(const float *q, const float *k,
                                    const float *v, const float *mask,
                                    uint64_t seed, uint64_t offset,
                                    float *out, float *lse) {
  attention(kGradF32, q, k, v, mask, seed, offset, out, lse);
}

__global__ void sample_grad_dkdv_f32(const float *q, const float *k,
                                     const float *v, const float *out,
                                     const float *lse, const float *dout,
                                     const float *mask, uint64_t seed,
                                     uint64_t offset, float *dk, float *dv) {
  gradKeyValue(kGradF32, q, k, v, out, lse, dout, mask, seed, offset, dk, dv);
}

__global__ void sample_grad_dq_f32(const float *q, const float *k,
                                   const float *v, const float *out,
                                   const float *lse, const float *dout,
                                   const float *mask, uint64_t seed,
                                   uint64_t offset, float *dq) {
  gradQuery(kGradF32, q, k, v, out, lse, dout, mask, seed, offset, dq);
}

__global__ void sample_grad_fwd_bf16(const bf16 *q, const bf16 *k,
                                     const bf16 *v, const uint8_t *mask,
                                     bf16 *out, float *lse) {
  attention(kGradBf16, q, k, v, mask, 0, 0, out, lse);
}

__global__ void sample_grad_dkdv_bf16(const bf16 *q, const bf16 *k,
                                      const bf16 *v, const bf16 *out,
                                      const float *lse, const bf16 *dout,
                                      const uint8_t *mask, bf16 *dk,
                                      bf16 *dv) {
  gradKeyValue(kGradBf16, q, k, v, out, lse, dout, mask, 0, 0, dk, dv);
}

__global__ void sample_grad_dq_bf16(const bf16 *q, const bf16 *k,
                                    const bf16 *v, const bf16 *out,
                                    const float *lse, const bf16 *dout,
                                    const uint8_t *mask, bf16 *dq) {
  gradQuery(kGradBf16, q, k, v, out, lse, dout, mask, 0, 0, dq);
}

__global__ void sample_grad_wrong_dkdv_f32(const float *q, const float *k,
                                           const float *v, const float *out,
                                           const float *lse,
                                           const float *dout,
                                           const float *mask, uint64_t seed,
                                           uint64_t offset, float *dk,
                                           float *dv) {
  gradKeyValue(kGradF32, q, k, v, out, lse, dout, mask, seed, offset, dk, dv,
               /*onlyFirstHead=*/true);
}

__global__ void sample_grad_flaky_dq_f32(const float *q, const float *k,
                                         const float *v, const float *out,
                                         const float *lse, const float *dout,
                                         const float *mask, uint64_t seed,
                                         uint64_t offset, float *dq) {
  gradQuery(kGradF32, q, k, v, out, lse, dout, mask, seed, offset, dq,
            /*flipEveryOther=*/true);
}

// The backward group of sample_grad_fwd_bf16's problem (grad-group.json,
// wrong-grad-group.json).

__global__ void sample_group_prep_bf16(const bf16 *q, const bf16 *k,
                                       const bf16 *v, const bf16 *out,
                                       const float *lse, const bf16 *dout,
                                       const uint8_t *mask, float *rowDotWs,
                                       float *lseLog2, float *dqAccum) {
  groupPrep(kGradBf16, out, lse, dout, rowDotWs, lseLog2, dqAccum);
}

__global__ void
sample_group_prep_nozero_bf16(const bf16 *q, const bf16 *k, const bf16 *v,
                              const bf16 *out, const float *lse,
                              const bf16 *dout, const uint8_t *mask,
                              float *rowDotWs, float *lseLog2, float *dqAccum) {
  groupPrep(kGradBf16, out, lse, dout, rowDotWs, lseLog2, dqAccum,
            /*skipZero=*/true);
}

__global__ void sample_group_dkdv_dq_bf16(const bf16 *q, const bf16 *k,
                                          const bf16 *v, const bf16 *out,
                                          const float *lse, const bf16 *dout,
                                          const uint8_t *mask,
                                          const float *rowDotWs,
                                          const float *lseLog2, float *dqAccum,
                                          bf16 *dk, bf16 *dv) {
  groupKeyValueQuery(kGradBf16, q, k, v, dout, mask, rowDotWs, lseLog2, dqAccum,
                     dk, dv);
}

__global__ void sample_group_dq_convert_bf16(const bf16 *q, const bf16 *k,
                                             const bf16 *v, const bf16 *out,
                                             const float *lse, const bf16 *dout,
                                             const uint8_t *mask,
                                             const float *dqAccum, bf16 *dq) {
  groupConvert(kGradBf16, dqAccum, dq);
}

// Packed batches: every size at run time (batch, total_query_tokens,
// total_key_tokens), and all static (3 sequences, 300 / 500 tokens).
__global__ void sample_varlen_bf16(const bf16 *q, const bf16 *k,
                                   const bf16 *v, const int32_t *cuQ,
                                   const int32_t *cuK, uint64_t seed,
                                   uint64_t offset, bf16 *out, float *lse,
                                   int batch, int totalQ, int totalK) {
  (void)batch;
  (void)totalK;
  varlenAttention(kVarlenBf16, q, k, v, cuQ, cuK, seed, offset, out, lse,
                  totalQ);
}

__global__ void sample_varlen_static_f16(const f16 *q, const f16 *k,
                                         const f16 *v, const int32_t *cuQ,
                                         const int32_t *cuK, f16 *out) {
  varlenAttention(kVarlenF16, q, k, v, cuQ, cuK, 0, 0, out, nullptr, 300);
}

__global__ void sample_varlen_dense_dropout_bf16(
    const bf16 *q, const bf16 *k, const bf16 *v, const int32_t *cuQ,
    const int32_t *cuK, uint64_t seed, uint64_t offset, bf16 *out, float *lse,
    int batch, int totalQ, int totalK) {
  (void)batch;
  (void)totalK;
  varlenAttention(kVarlenBf16, q, k, v, cuQ, cuK, seed, offset, out, lse,
                  totalQ, /*denseDropout=*/true);
}

} // extern "C"
