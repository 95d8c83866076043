//===- ReferenceKernel.cu - the float64 GPU attention reference -----------===//
//
// docs/semantics.md evaluated in double, mirroring lib/Reference: scores
// s = scale * (q . k) (sequential dot product), softcap, additive mask, then
// exclusion (boolean mask, causal, window); row max and sum; a = e / l,
// dropout (Philox keep bits, scale 1 / (1 - p)); out = sum_j a[j] * v[j]
// accumulated sequentially in j as the CPU reference does. Fully masked rows
// give out = 0 and lse = -inf.
//
// The packed form (docs/semantics.md §14, runGpuReferenceVarlen) runs the
// same row code on each (token, head) of a packed batch, with the lengths,
// key rows and Philox coordinates of the token's sequence (RowView).
//
// One block of kBlock threads per row (grid-stride over rows):
//   pass 1: threads over keys, online (max, sum) per thread, tree reduction;
//   pass 2: per tile of kBlock keys, threads compute a[j] into shared
//           memory, then threads over value columns accumulate.
//
// The gradients (docs/semantics.md §13, mirroring lib/Reference's
// referenceAttentionGrad) take three kernels:
//   rowD:  D_i = grad_output_i . output_i, one thread per row;
//   dq:    one block per query row (b, h, i): per tile of kBlock keys,
//          threads compute dS_ij into shared memory, then threads over head
//          columns accumulate sum_j dS_ij k_j in key order;
//   dkdv:  one block per key row (b, hk, j): over the G query heads of hk
//          and tiles of kBlock query rows, threads compute dS_ij and Pd_ij,
//          then threads over columns accumulate sum_i dS_ij q_i and
//          sum_i Pd_ij grad_output_i (heads, then rows, in order).
// Scores use the forward's helpers (positionAllowed, maskIndex, the same
// Philox keep bits); P = exp(s - lse) from the given lse, rows with
// lse = -inf are skipped.
// The gradient kernels index their tensors through row strides
// (RefParams::qB...lI) and take a Philox origin, so that the packed
// gradient (runGpuReferenceVarlenGrad) is the same kernels launched once
// per sequence on its token-major rows: the batch-1 dense problem of
// docs/semantics.md §14.2.
//
//===----------------------------------------------------------------------===//

#include "attnrt/Cuda.h"
#include "attnrt/ReferenceKernel.h"
#include "attnrt/Util.h"
#include "attnopt/Reference/Philox.h"

#include <cuda_bf16.h>
#include <cuda_fp16.h>
#include <cuda_runtime.h>

#include <algorithm>

namespace attnrt {
namespace {

constexpr int kBlock = 128; // a power of two (tree reduction)

struct RefParams {
  int64_t B, Hq, Hkv, Lq, Lk, D, Dv;
  double scale;
  int causal; // 0 none, 1 top_left, 2 bottom_right
  int hasWindow;
  int64_t windowLeft, windowRight;
  int hasSoftcap;
  double softcap;
  int maskKind; // 0 none, 1 boolean, 2 additive
  DType maskDtype;
  int64_t maskShape[4];
  int hasDropout;
  int hasDropoutMask; // keep bits from an explicit i1 mask, not Philox
  int64_t dropoutMaskShape[4];
  uint32_t dropThreshold;
  double dropScale;
  uint64_t seed, offset;
  /// The Philox coordinates of (b, h, i, j) are (b, h, dropRowOrigin + i,
  /// dropColOrigin + j) in a problem of dropRows query rows: (0, 0, Lq) for
  /// a dense problem, the sequence's first tokens and Tq for one sequence
  /// of a packed batch (docs/semantics.md §14.3).
  int64_t dropRowOrigin, dropColOrigin, dropRows;
  /// Where the gradient kernels find row (b, h, i) of q, out, grad_output
  /// and dq (in rows of D or Dv elements): b * qB + h * qH + i * qI; row
  /// (b, hk, j) of k, v, dk and dv: b * kB + hk * kH + j * kJ; lse (b, h,
  /// i): b * lB + h * lH + i * lI. Dense [B, H, L, ...] tensors, or one
  /// sequence of token-major packed ones (runGpuReferenceVarlenGrad).
  int64_t qB, qH, qI, kB, kH, kJ, lB, lH, lI;
  /// The gradient kernels compute, instead of the gradients, the size of
  /// the terms they sum (runGpuReferenceGrad's `magnitude`): |dO|·|V| for
  /// dP, |dO|·|O| for D, dS = P (|dP| + |D|), and |Q|, |K|, |dO| in the
  /// products.
  int magnitude;
  /// The forward reads Q, K and V as a tf32 kernel's matrix products take
  /// them: rounded to tf32 (docs/semantics.md §2.1; tf32Operand).
  int tf32Operands;
};

/// An operand as a tf32 kernel's matrix products take it (with
/// tf32Operands; else x): rounded to tf32, 10 mantissa bits, ties away from
/// zero, as cvt.rna.tf32.f32 does. x is an f32 value.
__device__ double tf32Operand(const RefParams &p, double x) {
  if (!p.tf32Operands)
    return x;
  unsigned u = __float_as_uint(float(x));
  if ((u & 0x7f800000u) != 0x7f800000u) // not inf or NaN
    u = (u + 0x1000u) & 0xffffe000u;
  return double(__uint_as_float(u));
}

/// x, or |x| in the magnitude pass.
__device__ double sized(const RefParams &p, double x) {
  return p.magnitude ? fabs(x) : x;
}

__device__ int64_t queryRowAt(const RefParams &p, int64_t b, int64_t h,
                              int64_t i) {
  return b * p.qB + h * p.qH + i * p.qI;
}

__device__ int64_t keyRowAt(const RefParams &p, int64_t b, int64_t hk,
                            int64_t j) {
  return b * p.kB + hk * p.kH + j * p.kJ;
}

__device__ int64_t lseAt(const RefParams &p, int64_t b, int64_t h, int64_t i) {
  return b * p.lB + h * p.lH + i * p.lI;
}

/// The causal and window rules for query position i and key position j of
/// a sequence of lq queries and lk keys.
__device__ bool positionAllowedAt(const RefParams &p, int64_t i, int64_t j,
                                  int64_t lq, int64_t lk) {
  int64_t delta = p.causal == 2 ? lk - lq : 0;
  int64_t diag = i + delta;
  if (p.causal != 0 && j > diag)
    return false;
  if (p.hasWindow) {
    if (p.windowLeft >= 0 && j < diag - p.windowLeft)
      return false;
    if (p.windowRight >= 0 && j > diag + p.windowRight)
      return false;
  }
  return true;
}

__device__ bool positionAllowed(const RefParams &p, int64_t i, int64_t j) {
  return positionAllowedAt(p, i, j, p.Lq, p.Lk);
}

__device__ int64_t maskIndex(const RefParams &p, int64_t b, int64_t h,
                             int64_t i, int64_t j) {
  const int64_t *s = p.maskShape;
  int64_t bb = s[0] == 1 ? 0 : b, hh = s[1] == 1 ? 0 : h;
  int64_t ii = s[2] == 1 ? 0 : i, jj = s[3] == 1 ? 0 : j;
  return ((bb * s[1] + hh) * s[2] + ii) * s[3] + jj;
}

/// Where the data of one query row lives and which rules apply to it: a row
/// (b, h, i) of the dense [B, Hq, Lq] problem, or one (token, head) of a
/// packed batch (docs/semantics.md §14), which is a row of its sequence's
/// batch-1 problem.
struct RowView {
  int64_t b, h, hk; // b: the mask's and the Philox stream's batch index
  int64_t i;        // the query position within its sequence
  int64_t lq, lk;   // the sequence's lengths (causal and window rules)
  int64_t qIndex;   // element index of q[row][0]
  /// Key j of the row is row keyRow0 + j * keyStride of k ([.., D]) and v
  /// ([.., Dv]).
  int64_t keyRow0, keyStride;
  /// The Philox coordinates of key j: (b, h, dropI, dropJ0 + j) in a
  /// problem of dropRows query rows.
  int64_t dropI, dropJ0, dropRows;
  int64_t outIndex, lseIndex; // element index of out[row][0], lse[row]
};

/// The modified score s[j] of a row: -inf where excluded.
template <DType T>
__device__ double score(const RefParams &p, const RowView &r,
                        const double *qRow, const void *k, const void *mask,
                        int64_t j) {
  const int64_t kBase = (r.keyRow0 + j * r.keyStride) * p.D;
  double dot = 0.0;
  for (int64_t d = 0; d < p.D; ++d)
    dot += qRow[d] * tf32Operand(p, loadElement(k, T, kBase + d));
  double s = p.scale * dot;
  if (p.hasSoftcap)
    s = p.softcap * tanh(s / p.softcap);
  bool allowed = positionAllowedAt(p, r.i, j, r.lq, r.lk);
  if (p.maskKind != 0) {
    double m = loadElement(mask, p.maskDtype, maskIndex(p, r.b, r.h, r.i, j));
    if (p.maskKind == 1)
      allowed = allowed && m != 0.0;
    else
      s += m;
  }
  return allowed ? s : -INFINITY;
}

/// Index of (b, h, i, j) in the explicit dropout keep mask.
__device__ int64_t dropoutMaskIndex(const RefParams &p, int64_t b, int64_t h,
                                    int64_t i, int64_t j) {
  const int64_t *s = p.dropoutMaskShape;
  int64_t bb = s[0] == 1 ? 0 : b, hh = s[1] == 1 ? 0 : h;
  int64_t ii = s[2] == 1 ? 0 : i, jj = s[3] == 1 ? 0 : j;
  return ((bb * s[1] + hh) * s[2] + ii) * s[3] + jj;
}

/// One row of the forward, by the whole block (every thread calls it).
/// `shared` holds D + Dv + 3 * kBlock doubles.
template <DType T>
__device__ void referenceRow(const RefParams &p, const RowView &r,
                             const void *q, const void *k, const void *v,
                             const void *mask, const void *dropoutMask,
                             double *out, double *lse, double *shared) {
  const int tid = threadIdx.x;
  double *qRow = shared;             // [D]
  double *acc = qRow + p.D;          // [Dv]
  double *probs = acc + p.Dv;        // [kBlock]
  double *redMax = probs + kBlock;   // [kBlock]
  double *redSum = redMax + kBlock;  // [kBlock]
  for (int64_t d = tid; d < p.D; d += kBlock)
    qRow[d] = tf32Operand(p, loadElement(q, T, r.qIndex + d));
  for (int64_t e = tid; e < p.Dv; e += kBlock)
    acc[e] = 0.0;
  __syncthreads();

  // Pass 1: row max and sum of exp(s - max), online per thread.
  double m = -INFINITY, l = 0.0;
  for (int64_t j = tid; j < r.lk; j += kBlock) {
    double s = score<T>(p, r, qRow, k, mask, j);
    if (s == -INFINITY)
      continue;
    if (s > m) {
      l = l * exp(m - s) + 1.0;
      m = s;
    } else {
      l += exp(s - m);
    }
  }
  redMax[tid] = m;
  redSum[tid] = l;
  __syncthreads();
  for (int stride = kBlock / 2; stride > 0; stride >>= 1) {
    if (tid < stride) {
      double m1 = redMax[tid], m2 = redMax[tid + stride];
      double mm = fmax(m1, m2);
      double ll = 0.0;
      if (mm != -INFINITY)
        ll = redSum[tid] * exp(m1 - mm) + redSum[tid + stride] * exp(m2 - mm);
      redMax[tid] = mm;
      redSum[tid] = ll;
    }
    __syncthreads();
  }
  m = redMax[0];
  l = redSum[0];

  if (m == -INFINITY) {
    // No finite score (also no key at all): output 0, lse -inf.
    for (int64_t e = tid; e < p.Dv; e += kBlock)
      out[r.outIndex + e] = 0.0;
    if (tid == 0)
      lse[r.lseIndex] = -INFINITY;
    __syncthreads();
    return;
  }

  // Pass 2: probabilities tile by tile, output accumulated in key order.
  for (int64_t j0 = 0; j0 < r.lk; j0 += kBlock) {
    const int64_t j = j0 + tid;
    double a = 0.0;
    if (j < r.lk) {
      double s = score<T>(p, r, qRow, k, mask, j);
      a = exp(s - m) / l;
      if (p.hasDropout) {
        bool keep =
            p.hasDropoutMask
                ? loadElement(dropoutMask, DType::I1,
                              dropoutMaskIndex(p, r.b, r.h, r.i, j)) != 0.0
                : attnopt::ref::dropoutBits(p.seed, p.offset, r.b, r.h,
                                            r.dropI, r.dropJ0 + j, p.Hq,
                                            r.dropRows) >= p.dropThreshold;
        a = keep ? a * p.dropScale : 0.0;
      }
    }
    probs[tid] = a;
    __syncthreads();
    const int64_t n = r.lk - j0 < kBlock ? r.lk - j0 : kBlock;
    for (int64_t e = tid; e < p.Dv; e += kBlock) {
      double sum = acc[e];
      for (int64_t jj = 0; jj < n; ++jj) {
        double pr = probs[jj];
        if (pr != 0.0)
          sum += pr *
                 tf32Operand(
                     p, loadElement(
                            v, T,
                            (r.keyRow0 + (j0 + jj) * r.keyStride) * p.Dv + e));
      }
      acc[e] = sum;
    }
    __syncthreads();
  }
  for (int64_t e = tid; e < p.Dv; e += kBlock)
    out[r.outIndex + e] = acc[e];
  if (tid == 0)
    lse[r.lseIndex] = m + log(l);
  __syncthreads();
}

template <DType T>
__global__ void __launch_bounds__(kBlock)
    referenceAttentionKernel(RefParams p, const void *q, const void *k,
                             const void *v, const void *mask,
                             const void *dropoutMask, double *out,
                             double *lse) {
  extern __shared__ double shared[];
  const int64_t rows = p.B * p.Hq * p.Lq;
  const int64_t group = p.Hq / p.Hkv;
  for (int64_t row = blockIdx.x; row < rows; row += gridDim.x) {
    RowView r;
    r.i = row % p.Lq;
    const int64_t bh = row / p.Lq;
    r.h = bh % p.Hq;
    r.b = bh / p.Hq;
    r.hk = r.h / group;
    r.lq = p.Lq;
    r.lk = p.Lk;
    r.qIndex = row * p.D;
    r.keyRow0 = (r.b * p.Hkv + r.hk) * p.Lk;
    r.keyStride = 1;
    r.dropI = p.dropRowOrigin + r.i;
    r.dropJ0 = p.dropColOrigin;
    r.dropRows = p.dropRows;
    r.outIndex = row * p.Dv;
    r.lseIndex = row;
    referenceRow<T>(p, r, q, k, v, mask, dropoutMask, out, lse, shared);
  }
}

/// The packed form (docs/semantics.md §14): p.B sequences, p.Lq = Tq and
/// p.Lk = Tk tokens, q [Tq, Hq, D], k [Tk, Hkv, D], v [Tk, Hkv, Dv]; out
/// [Tq, Hq, Dv] and lse [Hq, Tq]. One (token, head) row at a time: its
/// sequence by binary search in the offsets (the last s with cuQ[s] <= t,
/// which skips empty sequences), then the row of that sequence's batch-1
/// problem, its keys at token cuK[s] on, the Philox bits at the packed
/// coordinates (b = 0, i = t, j = cuK[s] + j, Tq rows).
template <DType T>
__global__ void __launch_bounds__(kBlock)
    referenceVarlenKernel(RefParams p, const int32_t *cuQ, const int32_t *cuK,
                          const void *q, const void *k, const void *v,
                          double *out, double *lse) {
  extern __shared__ double shared[];
  const int64_t rows = p.Lq * p.Hq;
  const int64_t group = p.Hq / p.Hkv;
  for (int64_t row = blockIdx.x; row < rows; row += gridDim.x) {
    const int64_t t = row / p.Hq;
    int64_t lo = 0, hi = p.B; // cuQ[lo] <= t < cuQ[hi]
    while (hi - lo > 1) {
      const int64_t mid = (lo + hi) / 2;
      if (cuQ[mid] <= t)
        lo = mid;
      else
        hi = mid;
    }
    const int64_t s = lo;
    RowView r;
    r.h = row % p.Hq;
    r.b = 0;
    r.hk = r.h / group;
    r.i = t - cuQ[s];
    r.lq = cuQ[s + 1] - cuQ[s];
    r.lk = cuK[s + 1] - cuK[s];
    r.qIndex = row * p.D;
    r.keyRow0 = int64_t(cuK[s]) * p.Hkv + r.hk;
    r.keyStride = p.Hkv;
    r.dropI = t;
    r.dropJ0 = cuK[s];
    r.dropRows = p.Lq;
    r.outIndex = row * p.Dv;
    r.lseIndex = r.h * p.Lq + t;
    referenceRow<T>(p, r, q, k, v, nullptr, nullptr, out, lse, shared);
  }
}

//===----------------------------------------------------------------------===//
// Gradients
//===----------------------------------------------------------------------===//

/// The score of (b, h, i, j) as the gradient needs it: whether the position
/// is allowed (causal, window, boolean mask), the modified score s (scale,
/// softcap, additive mask; -inf for a -inf bias) and t = tanh(x / softcap)
/// (0 without softcap).
struct GradScore {
  bool allowed;
  double s, t;
};

__device__ GradScore gradScore(const RefParams &p, double dot,
                               const void *mask, int64_t b, int64_t h,
                               int64_t i, int64_t j) {
  GradScore g;
  g.s = p.scale * dot;
  g.t = 0.0;
  if (p.hasSoftcap) {
    g.t = tanh(g.s / p.softcap);
    g.s = p.softcap * g.t;
  }
  g.allowed = positionAllowed(p, i, j);
  if (p.maskKind != 0) {
    double m = loadElement(mask, p.maskDtype, maskIndex(p, b, h, i, j));
    if (p.maskKind == 1)
      g.allowed = g.allowed && m != 0.0;
    else
      g.s += m;
  }
  return g;
}

/// dS_ij and Pd_ij of an allowed position, from dPd_ij = do_i . v_j, the
/// row's lse and D_i.
__device__ void gradTerms(const RefParams &p, const GradScore &g, double rowLse,
                          double dProbDropped, double rowD, int64_t b,
                          int64_t h, int64_t i, int64_t j, double &dScore,
                          double &probDropped) {
  double prob = exp(g.s - rowLse);
  double dropFactor = 1.0;
  if (p.hasDropout)
    dropFactor = attnopt::ref::dropoutBits(
                     p.seed, p.offset, b, h, p.dropRowOrigin + i,
                     p.dropColOrigin + j, p.Hq, p.dropRows) >= p.dropThreshold
                     ? p.dropScale
                     : 0.0;
  probDropped = prob * dropFactor;
  // In the magnitude pass dProbDropped and rowD are sums of |terms|.
  dScore = p.magnitude ? prob * (dProbDropped * dropFactor + rowD)
                       : prob * (dProbDropped * dropFactor - rowD);
  // In the magnitude pass the factor carries the rounding of t as well: a
  // kernel's 1 - t^2 from an f32 t is off by about 2|t| f32 roundoffs,
  // which is all of it where the tanh saturates.
  if (p.hasSoftcap)
    dScore *= p.magnitude ? 1.0 - g.t * g.t + 2.0 * fabs(g.t) : 1.0 - g.t * g.t;
}

/// D_i = sum_e grad_output[row, e] * output[row, e], one thread per row.
template <DType T>
__global__ void referenceRowDKernel(RefParams p, const void *out,
                                    const void *dout, double *rowD) {
  const int64_t rows = p.B * p.Hq * p.Lq;
  for (int64_t row = int64_t(blockIdx.x) * blockDim.x + threadIdx.x;
       row < rows; row += int64_t(gridDim.x) * blockDim.x) {
    const int64_t i = row % p.Lq, bh = row / p.Lq;
    const int64_t at = queryRowAt(p, bh / p.Hq, bh % p.Hq, i) * p.Dv;
    double sum = 0.0;
    for (int64_t e = 0; e < p.Dv; ++e)
      sum += sized(p, loadElement(dout, T, at + e) * loadElement(out, T, at + e));
    rowD[row] = sum;
  }
}

template <DType T>
__global__ void __launch_bounds__(kBlock)
    referenceGradQueryKernel(RefParams p, const void *q, const void *k,
                             const void *v, const void *mask,
                             const float *lse, const void *dout,
                             const double *rowDs, double *dq) {
  extern __shared__ double shared[];
  const int tid = threadIdx.x;
  double *qRow = shared;          // [D]
  double *doRow = qRow + p.D;     // [Dv]
  double *acc = doRow + p.Dv;     // [D]
  double *dsTile = acc + p.D;     // [kBlock]
  const int64_t rows = p.B * p.Hq * p.Lq;
  const int64_t group = p.Hq / p.Hkv;

  for (int64_t row = blockIdx.x; row < rows; row += gridDim.x) {
    const int64_t i = row % p.Lq, bh = row / p.Lq;
    const int64_t h = bh % p.Hq, b = bh / p.Hq, hk = h / group;
    const int64_t qr = queryRowAt(p, b, h, i);
    const double rowLse = double(lse[lseAt(p, b, h, i)]);
    if (rowLse == -INFINITY) {
      // A fully masked row: grad_query is 0.
      for (int64_t d = tid; d < p.D; d += kBlock)
        dq[qr * p.D + d] = 0.0;
      continue; // the same for every thread of the block
    }
    for (int64_t d = tid; d < p.D; d += kBlock) {
      qRow[d] = loadElement(q, T, qr * p.D + d);
      acc[d] = 0.0;
    }
    for (int64_t e = tid; e < p.Dv; e += kBlock)
      doRow[e] = loadElement(dout, T, qr * p.Dv + e);
    const double rowD = rowDs[row];
    __syncthreads();

    for (int64_t j0 = 0; j0 < p.Lk; j0 += kBlock) {
      const int64_t j = j0 + tid;
      double ds = 0.0;
      if (j < p.Lk) {
        const int64_t kvRow = keyRowAt(p, b, hk, j);
        double dot = 0.0;
        for (int64_t d = 0; d < p.D; ++d)
          dot += qRow[d] * loadElement(k, T, kvRow * p.D + d);
        GradScore g = gradScore(p, dot, mask, b, h, i, j);
        if (g.allowed) {
          double dPd = 0.0;
          for (int64_t e = 0; e < p.Dv; ++e)
            dPd += sized(p, doRow[e] * loadElement(v, T, kvRow * p.Dv + e));
          double pd;
          gradTerms(p, g, rowLse, dPd, rowD, b, h, i, j, ds, pd);
        }
      }
      dsTile[tid] = ds;
      __syncthreads();
      const int64_t n = p.Lk - j0 < kBlock ? p.Lk - j0 : kBlock;
      for (int64_t d = tid; d < p.D; d += kBlock) {
        double sum = acc[d];
        for (int64_t jj = 0; jj < n; ++jj) {
          double w = dsTile[jj];
          if (w != 0.0)
            sum += w * sized(p, loadElement(
                               k, T, keyRowAt(p, b, hk, j0 + jj) * p.D + d));
        }
        acc[d] = sum;
      }
      __syncthreads();
    }
    for (int64_t d = tid; d < p.D; d += kBlock)
      dq[qr * p.D + d] = p.scale * acc[d];
    __syncthreads();
  }
}

template <DType T>
__global__ void __launch_bounds__(kBlock)
    referenceGradKeyValueKernel(RefParams p, const void *q, const void *k,
                                const void *v, const void *mask,
                                const float *lse, const void *dout,
                                const double *rowDs, double *dk, double *dv) {
  extern __shared__ double shared[];
  const int tid = threadIdx.x;
  double *kRow = shared;          // [D]
  double *vRow = kRow + p.D;      // [Dv]
  double *accK = vRow + p.Dv;     // [D]
  double *accV = accK + p.D;      // [Dv]
  double *dsTile = accV + p.Dv;   // [kBlock]
  double *pdTile = dsTile + kBlock; // [kBlock]
  const int64_t kvRows = p.B * p.Hkv * p.Lk;
  const int64_t group = p.Hq / p.Hkv;

  for (int64_t kvRow = blockIdx.x; kvRow < kvRows; kvRow += gridDim.x) {
    const int64_t j = kvRow % p.Lk, bhk = kvRow / p.Lk;
    const int64_t hk = bhk % p.Hkv, b = bhk / p.Hkv;
    const int64_t kr = keyRowAt(p, b, hk, j);
    for (int64_t d = tid; d < p.D; d += kBlock) {
      kRow[d] = loadElement(k, T, kr * p.D + d);
      accK[d] = 0.0;
    }
    for (int64_t e = tid; e < p.Dv; e += kBlock) {
      vRow[e] = loadElement(v, T, kr * p.Dv + e);
      accV[e] = 0.0;
    }
    __syncthreads();

    for (int64_t g = 0; g < group; ++g) {
      const int64_t h = hk * group + g;
      const int64_t row0 = (b * p.Hq + h) * p.Lq;
      for (int64_t i0 = 0; i0 < p.Lq; i0 += kBlock) {
        const int64_t i = i0 + tid;
        double ds = 0.0, pd = 0.0;
        if (i < p.Lq) {
          const int64_t qr = queryRowAt(p, b, h, i);
          const double rowLse = double(lse[lseAt(p, b, h, i)]);
          if (rowLse != -INFINITY) {
            double dot = 0.0;
            for (int64_t d = 0; d < p.D; ++d)
              dot += loadElement(q, T, qr * p.D + d) * kRow[d];
            GradScore gs = gradScore(p, dot, mask, b, h, i, j);
            if (gs.allowed) {
              double dPd = 0.0;
              for (int64_t e = 0; e < p.Dv; ++e)
                dPd += sized(p, loadElement(dout, T, qr * p.Dv + e) * vRow[e]);
              gradTerms(p, gs, rowLse, dPd, rowDs[row0 + i], b, h, i, j, ds,
                        pd);
            }
          }
        }
        dsTile[tid] = ds;
        pdTile[tid] = pd;
        __syncthreads();
        const int64_t n = p.Lq - i0 < kBlock ? p.Lq - i0 : kBlock;
        for (int64_t c = tid; c < p.D + p.Dv; c += kBlock) {
          if (c < p.D) {
            double sum = accK[c];
            for (int64_t ii = 0; ii < n; ++ii) {
              double w = dsTile[ii];
              if (w != 0.0)
                sum += w * sized(p, loadElement(q, T,
                                                queryRowAt(p, b, h, i0 + ii) *
                                                        p.D +
                                                    c));
            }
            accK[c] = sum;
          } else {
            const int64_t e = c - p.D;
            double sum = accV[e];
            for (int64_t ii = 0; ii < n; ++ii) {
              double w = pdTile[ii];
              if (w != 0.0)
                sum += w * sized(p, loadElement(dout, T,
                                                queryRowAt(p, b, h, i0 + ii) *
                                                        p.Dv +
                                                    e));
            }
            accV[e] = sum;
          }
        }
        __syncthreads();
      }
    }
    for (int64_t d = tid; d < p.D; d += kBlock)
      dk[kr * p.D + d] = p.scale * accK[d];
    for (int64_t e = tid; e < p.Dv; e += kBlock)
      dv[kr * p.Dv + e] = accV[e];
    __syncthreads();
  }
}

template <DType T>
__global__ void roundKernel(const double *src, void *dst, int64_t n) {
  for (int64_t idx = int64_t(blockIdx.x) * blockDim.x + threadIdx.x; idx < n;
       idx += int64_t(gridDim.x) * blockDim.x) {
    if constexpr (T == DType::F16)
      static_cast<__half *>(dst)[idx] = __double2half(src[idx]);
    else if constexpr (T == DType::BF16)
      static_cast<__nv_bfloat16 *>(dst)[idx] = __double2bfloat16(src[idx]);
    else
      static_cast<float *>(dst)[idx] = float(src[idx]);
  }
}

__global__ void dropoutBitsKernel(RefParams p, uint32_t *bits) {
  const int64_t total = p.B * p.Hq * p.Lq * p.Lk;
  for (int64_t idx = int64_t(blockIdx.x) * blockDim.x + threadIdx.x;
       idx < total; idx += int64_t(gridDim.x) * blockDim.x) {
    int64_t j = idx % p.Lk, r = idx / p.Lk;
    int64_t i = r % p.Lq, bh = r / p.Lq;
    int64_t h = bh % p.Hq, b = bh / p.Hq;
    bits[idx] = attnopt::ref::dropoutBits(p.seed, p.offset, b, h, i, j, p.Hq,
                                          p.Lq);
  }
}

__global__ void philoxKernel(const uint32_t *in, uint32_t *out, int n) {
  int t = blockIdx.x * blockDim.x + threadIdx.x;
  if (t < n)
    attnopt::ref::philox4x32_10Words(in + 6 * t, in + 6 * t + 4, out + 4 * t);
}

void checkRuntime(cudaError_t e, const char *what) {
  if (e == cudaSuccess)
    return;
  std::string message = std::string("GPU reference: ") + what + " failed: " +
                        cudaGetErrorName(e) + " (" + cudaGetErrorString(e) +
                        ")";
  if (e == cudaErrorNoKernelImageForDevice ||
      e == cudaErrorUnsupportedPtxVersion)
    message += "; attnrt was built for CUDA architectures " +
               std::string(ATTNRT_CUDA_ARCHITECTURES) +
               ": rebuild with -DCMAKE_CUDA_ARCHITECTURES=<this GPU's>";
  throw Error(message);
}

RefParams makeParams(const attnopt::ref::AttentionProblem &p,
                     DType maskDtype) {
  if (p.kvHeads <= 0 || p.queryHeads % p.kvHeads != 0)
    throw Error("GPU reference: query heads must be a multiple of kv heads");
  RefParams r{};
  r.B = p.batch;
  r.Hq = p.queryHeads;
  r.Hkv = p.kvHeads;
  r.Lq = p.queryLen;
  r.Lk = p.keyLen;
  r.D = p.headDim;
  r.Dv = p.valueDim;
  r.scale = double(p.scale);
  r.causal = p.causal == attnopt::ref::Causal::None      ? 0
             : p.causal == attnopt::ref::Causal::TopLeft ? 1
                                                         : 2;
  r.hasWindow = p.hasWindow;
  r.windowLeft = p.windowLeft;
  r.windowRight = p.windowRight;
  r.hasSoftcap = p.hasSoftcap;
  r.softcap = double(p.softcap);
  r.maskKind = p.maskKind == attnopt::ref::MaskKind::None      ? 0
               : p.maskKind == attnopt::ref::MaskKind::Boolean ? 1
                                                               : 2;
  r.maskDtype = maskDtype;
  for (int d = 0; d < 4; ++d)
    r.maskShape[d] = p.maskShape[d];
  r.hasDropout = p.dropoutP > 0.0f;
  r.hasDropoutMask = p.hasDropoutMask;
  for (int d = 0; d < 4; ++d)
    r.dropoutMaskShape[d] = p.dropoutMaskShape[d];
  r.dropThreshold = attnopt::ref::dropoutThreshold(p.dropoutP);
  r.dropScale = 1.0 / (1.0 - double(p.dropoutP));
  r.seed = p.seed;
  r.offset = p.offset;
  r.dropRowOrigin = p.dropoutRowOrigin;
  r.dropColOrigin = p.dropoutColOrigin;
  r.dropRows = p.dropoutRows > 0 ? p.dropoutRows : p.queryLen;
  // Dense [B, H, L, ...] tensors.
  r.qI = r.lI = 1;
  r.qH = r.lH = r.Lq;
  r.qB = r.lB = r.Hq * r.Lq;
  r.kJ = 1;
  r.kH = r.Lk;
  r.kB = r.Hkv * r.Lk;
  return r;
}

unsigned gridFor(int64_t work) {
  return unsigned(std::max<int64_t>(1, std::min<int64_t>(work, 1 << 20)));
}

/// Raises the dynamic shared memory limit of `kernel` when needed.
template <class Kernel>
void allowShared(Kernel kernel, size_t shared, const char *what) {
  if (shared > 48 * 1024)
    checkRuntime(cudaFuncSetAttribute(
                     kernel, cudaFuncAttributeMaxDynamicSharedMemorySize,
                     int(shared)),
                 ("raising shared memory to " + std::to_string(shared) +
                  " bytes for the " + what + " (head_dim + value_dim too "
                  "large?)")
                     .c_str());
}

template <DType T>
void launchGrad(const RefParams &r, CUdeviceptr q, CUdeviceptr k,
                CUdeviceptr v, CUdeviceptr mask, CUdeviceptr out,
                CUdeviceptr lse, CUdeviceptr dout, CUdeviceptr rowD,
                CUdeviceptr dq, CUdeviceptr dk, CUdeviceptr dv) {
  auto ptr = [](CUdeviceptr x) { return reinterpret_cast<const void *>(x); };
  const int64_t rows = r.B * r.Hq * r.Lq, kvRows = r.B * r.Hkv * r.Lk;
  referenceRowDKernel<T><<<gridFor((rows + 127) / 128), 128>>>(
      r, ptr(out), ptr(dout), reinterpret_cast<double *>(rowD));
  checkRuntime(cudaGetLastError(), "launching the reference rowD kernel");

  size_t sharedQ = size_t(2 * r.D + r.Dv + kBlock) * sizeof(double);
  allowShared(referenceGradQueryKernel<T>, sharedQ, "reference dq kernel");
  referenceGradQueryKernel<T><<<gridFor(rows), kBlock, sharedQ>>>(
      r, ptr(q), ptr(k), ptr(v), ptr(mask),
      reinterpret_cast<const float *>(lse), ptr(dout),
      reinterpret_cast<const double *>(rowD), reinterpret_cast<double *>(dq));
  checkRuntime(cudaGetLastError(), "launching the reference dq kernel");

  size_t sharedKV = size_t(2 * r.D + 2 * r.Dv + 2 * kBlock) * sizeof(double);
  allowShared(referenceGradKeyValueKernel<T>, sharedKV,
              "reference dkdv kernel");
  referenceGradKeyValueKernel<T><<<gridFor(kvRows), kBlock, sharedKV>>>(
      r, ptr(q), ptr(k), ptr(v), ptr(mask),
      reinterpret_cast<const float *>(lse), ptr(dout),
      reinterpret_cast<const double *>(rowD), reinterpret_cast<double *>(dk),
      reinterpret_cast<double *>(dv));
  checkRuntime(cudaGetLastError(), "launching the reference dkdv kernel");
}

/// launchGrad for element type `dtype`.
void launchGradFor(DType dtype, const RefParams &r, CUdeviceptr q,
                   CUdeviceptr k, CUdeviceptr v, CUdeviceptr mask,
                   CUdeviceptr out, CUdeviceptr lse, CUdeviceptr dout,
                   CUdeviceptr rowD, CUdeviceptr dq, CUdeviceptr dk,
                   CUdeviceptr dv) {
  switch (dtype) {
  case DType::F16:
    return launchGrad<DType::F16>(r, q, k, v, mask, out, lse, dout, rowD, dq,
                                  dk, dv);
  case DType::BF16:
    return launchGrad<DType::BF16>(r, q, k, v, mask, out, lse, dout, rowD, dq,
                                   dk, dv);
  case DType::F32:
    return launchGrad<DType::F32>(r, q, k, v, mask, out, lse, dout, rowD, dq,
                                  dk, dv);
  default:
    throw Error("GPU reference: unsupported element type " +
                std::string(dtypeName(dtype)));
  }
}

/// The checks every packed reference makes: no mask, offsets that fit.
void checkPackedProblem(const RefParams &r,
                        const attnopt::ref::AttentionProblem &p,
                        const std::vector<int32_t> &cuQ,
                        const std::vector<int32_t> &cuK) {
  if (r.maskKind != 0 || p.hasDropoutMask)
    throw Error("GPU reference: a packed batch takes no mask or dropout mask");
  if (int64_t(cuQ.size()) != r.B + 1 || int64_t(cuK.size()) != r.B + 1 ||
      cuQ.back() != r.Lq || cuK.back() != r.Lk)
    throw Error("GPU reference: the offsets do not match the packed batch "
                "(B + 1 entries each, the last the token total)");
}

} // namespace

void runGpuReferenceGrad(const attnopt::ref::AttentionProblem &p, DType dtype,
                         DType maskDtype, CUdeviceptr q, CUdeviceptr k,
                         CUdeviceptr v, CUdeviceptr mask, CUdeviceptr out,
                         CUdeviceptr lse, CUdeviceptr dout, CUdeviceptr dq,
                         CUdeviceptr dk, CUdeviceptr dv, bool magnitude) {
  RefParams r = makeParams(p, maskDtype);
  r.magnitude = magnitude;
  if (r.maskKind != 0 && !mask)
    throw Error("GPU reference: the problem has a mask but no mask buffer");
  if (r.hasDropoutMask)
    throw Error("GPU reference: the gradient reference does not support an "
                "explicit dropout mask (no backward kernel takes one)");
  DeviceBuffer rowD(uint64_t(r.B * r.Hq * r.Lq) * sizeof(double),
                    "the reference gradient's D = rowsum(dO * O) (f64)");
  launchGradFor(dtype, r, q, k, v, mask, out, lse, dout, rowD.ptr(), dq, dk,
                dv);
  ATTNRT_CU_CHECK_MSG(cuCtxSynchronize(),
                      "running the GPU reference gradient kernels");
}

void runGpuReferenceVarlenGrad(const attnopt::ref::AttentionProblem &p,
                               DType dtype, const std::vector<int32_t> &cuQ,
                               const std::vector<int32_t> &cuK, CUdeviceptr q,
                               CUdeviceptr k, CUdeviceptr v, CUdeviceptr out,
                               CUdeviceptr lse, CUdeviceptr dout,
                               CUdeviceptr dq, CUdeviceptr dk, CUdeviceptr dv,
                               bool magnitude) {
  RefParams packed = makeParams(p, DType::I1);
  packed.magnitude = magnitude;
  checkPackedProblem(packed, p, cuQ, cuK);
  const int64_t tq = packed.Lq, hq = packed.Hq, hkv = packed.Hkv;
  // D_i of the longest sequence at most: each sequence's kernels finish
  // before the next sequence's start (one stream).
  DeviceBuffer rowD(uint64_t(std::max<int64_t>(1, tq * hq)) * sizeof(double),
                    "the reference gradient's D = rowsum(dO * O) (f64)");
  const uint64_t elem = dtypeSize(dtype);
  for (int64_t s = 0; s < packed.B; ++s) {
    // Sequence s is the batch-1 dense problem of docs/semantics.md §14.2 on
    // its own tokens: the dense kernels, pointed at its first rows, with
    // the strides of the token-major tensors and its Philox origin.
    RefParams r = packed;
    r.B = 1;
    r.Lq = cuQ[s + 1] - cuQ[s];
    r.Lk = cuK[s + 1] - cuK[s];
    if (r.Lq == 0 && r.Lk == 0)
      continue;
    r.dropRowOrigin = cuQ[s];
    r.dropColOrigin = cuK[s];
    r.dropRows = tq;
    r.qB = r.kB = r.lB = 0;
    r.qH = r.kH = 1; // [T, H, width]: heads are consecutive rows
    r.qI = hq;
    r.kJ = hkv;
    r.lH = tq; // lse [Hq, Tq]
    r.lI = 1;
    const uint64_t qRow = uint64_t(cuQ[s]) * hq, kRow = uint64_t(cuK[s]) * hkv;
    launchGradFor(
        dtype, r, q + qRow * r.D * elem, k + kRow * r.D * elem,
        v + kRow * r.Dv * elem, 0, out + qRow * r.Dv * elem,
        lse + uint64_t(cuQ[s]) * sizeof(float), dout + qRow * r.Dv * elem,
        rowD.ptr(), dq + qRow * r.D * sizeof(double),
        dk + kRow * r.D * sizeof(double), dv + kRow * r.Dv * sizeof(double));
  }
  ATTNRT_CU_CHECK_MSG(cuCtxSynchronize(),
                      "running the packed GPU reference gradient kernels");
}

void runGpuRound(CUdeviceptr src, DType dtype, CUdeviceptr dst, int64_t n) {
  if (n <= 0)
    return;
  const double *in = reinterpret_cast<const double *>(src);
  void *outPtr = reinterpret_cast<void *>(dst);
  unsigned blocks = gridFor((n + 255) / 256);
  switch (dtype) {
  case DType::F16:
    roundKernel<DType::F16><<<blocks, 256>>>(in, outPtr, n);
    break;
  case DType::BF16:
    roundKernel<DType::BF16><<<blocks, 256>>>(in, outPtr, n);
    break;
  case DType::F32:
    roundKernel<DType::F32><<<blocks, 256>>>(in, outPtr, n);
    break;
  default:
    throw Error("rounding to " + std::string(dtypeName(dtype)) +
                " is not supported");
  }
  checkRuntime(cudaGetLastError(), "launching the rounding kernel");
  ATTNRT_CU_CHECK_MSG(cuCtxSynchronize(), "running the rounding kernel");
}

void runGpuReference(const attnopt::ref::AttentionProblem &p, DType dtype,
                     DType maskDtype, CUdeviceptr q, CUdeviceptr k,
                     CUdeviceptr v, CUdeviceptr mask, CUdeviceptr out,
                     CUdeviceptr lse, CUdeviceptr dropoutMask,
                     bool tf32Operands) {
  RefParams r = makeParams(p, maskDtype);
  r.tf32Operands = tf32Operands;
  if (r.maskKind != 0 && !mask)
    throw Error("GPU reference: the problem has a mask but no mask buffer");
  if (r.hasDropout && r.hasDropoutMask && !dropoutMask)
    throw Error("GPU reference: the problem has a dropout mask but no "
                "dropout mask buffer");
  size_t shared = size_t(r.D + r.Dv + 3 * kBlock) * sizeof(double);
  const int64_t rows = r.B * r.Hq * r.Lq;
  auto launch = [&](auto kernel) {
    if (shared > 48 * 1024)
      checkRuntime(cudaFuncSetAttribute(
                       kernel, cudaFuncAttributeMaxDynamicSharedMemorySize,
                       int(shared)),
                   ("raising shared memory to " + std::to_string(shared) +
                    " bytes (head_dim + value_dim too large?)")
                       .c_str());
    kernel<<<gridFor(rows), kBlock, shared>>>(
        r, reinterpret_cast<const void *>(q), reinterpret_cast<const void *>(k),
        reinterpret_cast<const void *>(v), reinterpret_cast<const void *>(mask),
        reinterpret_cast<const void *>(dropoutMask),
        reinterpret_cast<double *>(out), reinterpret_cast<double *>(lse));
  };
  switch (dtype) {
  case DType::F16:
    launch(referenceAttentionKernel<DType::F16>);
    break;
  case DType::BF16:
    launch(referenceAttentionKernel<DType::BF16>);
    break;
  case DType::F32:
    launch(referenceAttentionKernel<DType::F32>);
    break;
  default:
    throw Error("GPU reference: unsupported element type " +
                std::string(dtypeName(dtype)));
  }
  checkRuntime(cudaGetLastError(), "launching the reference kernel");
  ATTNRT_CU_CHECK_MSG(cuCtxSynchronize(), "running the GPU reference kernel");
}

void runGpuReferenceVarlen(const attnopt::ref::AttentionProblem &p,
                           DType dtype, const std::vector<int32_t> &cuQ,
                           const std::vector<int32_t> &cuK, CUdeviceptr q,
                           CUdeviceptr k, CUdeviceptr v, CUdeviceptr out,
                           CUdeviceptr lse) {
  RefParams r = makeParams(p, DType::I1);
  checkPackedProblem(r, p, cuQ, cuK);
  // The reference reads its own copy of the offsets, not the kernel's input
  // buffers (which a faulty kernel could have overwritten).
  DeviceBuffer dq(cuQ.size() * sizeof(int32_t), "the reference cu_seqlens_q");
  DeviceBuffer dk(cuK.size() * sizeof(int32_t), "the reference cu_seqlens_k");
  dq.upload(cuQ.data(), dq.size());
  dk.upload(cuK.data(), dk.size());
  size_t shared = size_t(r.D + r.Dv + 3 * kBlock) * sizeof(double);
  const int64_t rows = r.Lq * r.Hq;
  auto launch = [&](auto kernel) {
    allowShared(kernel, shared, "packed reference kernel");
    kernel<<<gridFor(rows), kBlock, shared>>>(
        r, reinterpret_cast<const int32_t *>(dq.ptr()),
        reinterpret_cast<const int32_t *>(dk.ptr()),
        reinterpret_cast<const void *>(q), reinterpret_cast<const void *>(k),
        reinterpret_cast<const void *>(v), reinterpret_cast<double *>(out),
        reinterpret_cast<double *>(lse));
  };
  switch (dtype) {
  case DType::F16:
    launch(referenceVarlenKernel<DType::F16>);
    break;
  case DType::BF16:
    launch(referenceVarlenKernel<DType::BF16>);
    break;
  case DType::F32:
    launch(referenceVarlenKernel<DType::F32>);
    break;
  default:
    throw Error("GPU reference: unsupported element type " +
                std::string(dtypeName(dtype)));
  }
  checkRuntime(cudaGetLastError(), "launching the packed reference kernel");
  ATTNRT_CU_CHECK_MSG(cuCtxSynchronize(),
                      "running the packed GPU reference kernel");
}

void runGpuDropoutBits(const attnopt::ref::AttentionProblem &p,
                       CUdeviceptr bits) {
  RefParams r = makeParams(p, DType::I1);
  int64_t total = r.B * r.Hq * r.Lq * r.Lk;
  dropoutBitsKernel<<<gridFor((total + 255) / 256), 256>>>(
      r, reinterpret_cast<uint32_t *>(bits));
  checkRuntime(cudaGetLastError(), "launching the dropout bits kernel");
  ATTNRT_CU_CHECK_MSG(cuCtxSynchronize(), "running the dropout bits kernel");
}

std::vector<std::array<uint32_t, 4>>
runGpuPhilox(const std::vector<std::array<uint32_t, 6>> &inputs) {
  int n = int(inputs.size());
  std::vector<std::array<uint32_t, 4>> outputs(inputs.size());
  if (n == 0)
    return outputs;
  DeviceBuffer in(inputs.size() * 6 * sizeof(uint32_t), "Philox inputs");
  DeviceBuffer res(inputs.size() * 4 * sizeof(uint32_t), "Philox outputs");
  in.upload(inputs.data(), in.size());
  philoxKernel<<<(n + 63) / 64, 64>>>(
      reinterpret_cast<const uint32_t *>(in.ptr()),
      reinterpret_cast<uint32_t *>(res.ptr()), n);
  checkRuntime(cudaGetLastError(), "launching the Philox kernel");
  ATTNRT_CU_CHECK_MSG(cuCtxSynchronize(), "running the Philox kernel");
  res.download(outputs.data(), res.size());
  return outputs;
}

} // namespace attnrt
