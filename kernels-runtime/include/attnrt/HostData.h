//===- HostData.h - host tensors, input generation, comparison --*- C++ -*-===//
//
// Host-side data for attn-run: dense buffers in the manifest's element types,
// the seeded input generator (the distributions of attn-cpu-run: q, k in
// [-2, 2], v in [-1, 1], masks 25% off and 10% of rows off, additive masks
// -inf or U(-3, 3); then random seed and offset), and the error measures
// used for validation.
//
//===----------------------------------------------------------------------===//

#ifndef ATTNRT_HOSTDATA_H
#define ATTNRT_HOSTDATA_H

#include "attnrt/DType.h"

#include <cstdint>
#include <functional>
#include <vector>

namespace attnrt {

/// A dense row-major host buffer of one element type.
class HostTensor {
public:
  HostTensor() = default;
  HostTensor(DType type, std::vector<int64_t> shape);

  DType dtype() const { return type; }
  const std::vector<int64_t> &shape() const { return dims; }
  int64_t numElements() const { return count; }
  size_t sizeBytes() const { return bytes.size(); }
  void *data() { return bytes.data(); }
  const void *data() const { return bytes.data(); }

  /// Stores `value` rounded to nearest even in the element type (i1: value
  /// != 0) and returns the value actually stored.
  double store(int64_t index, double value);
  double load(int64_t index) const { return loadElement(bytes.data(), type, index); }
  /// All elements as double.
  std::vector<double> toDouble() const;

private:
  DType type = DType::F32;
  std::vector<int64_t> dims;
  int64_t count = 0;
  std::vector<uint8_t> bytes;
};

/// Random inputs that make softmax neither uniform nor one-hot; masks with
/// 25% of entries off and 10% of whole rows (last dimension) off.
///
/// Counter-based: element i of the n-th tensor filled is a hash of (seed, n,
/// i) (SplitMix64), so the values do not depend on how many threads fill
/// them, and large tensors are filled in parallel.
class InputGenerator {
public:
  explicit InputGenerator(uint64_t seed) : seed(seed) {}

  /// Uniform in [lo, hi), rounded to the tensor's type. Returns the stored
  /// values when `keepValues`, else an empty vector.
  std::vector<double> fill(HostTensor &t, double lo, double hi,
                           bool keepValues = true);
  /// i1: 1 = keep, 0 = off; float: U(-3, 3) where kept, -inf where off.
  /// `rowLen` is the mask's last dimension.
  std::vector<double> fillMask(HostTensor &t, int64_t rowLen,
                               bool keepValues = true);
  /// An i1 dropout keep mask: 1 (keep) with probability 1 - `p`.
  std::vector<double> fillKeep(HostTensor &t, double p, bool keepValues = true);
  /// The next 64-bit value of this generator's scalar stream.
  uint64_t next();

private:
  uint64_t seed;
  uint64_t tensors = 0; // tensors filled so far
  uint64_t scalars = 0; // next() calls so far
};

/// Runs fn(begin, end) over [0, n) in chunks on up to hardware_concurrency
/// threads (inline when n is small).
void parallelFor(int64_t n, const std::function<void(int64_t, int64_t)> &fn);

/// Validation errors of one output (and lse) against a reference.
struct Comparison {
  double outMaxAbsDiff = 0.0, refMaxAbs = 0.0;
  double outRelErr = 0.0; // max|o - r| / max|r| (max|o - r| if r == 0)
  int64_t outNaNs = 0;    // NaN where the reference is not NaN
  bool hasLse = false;
  double lseErr = 0.0;    // max |l - r| / max(1, |r|) over finite r
  int64_t lseInfMismatches = 0; // (r == -inf) != (l == -inf), or l = +inf
  int64_t lseNaNs = 0;
  int64_t emptyRows = 0;  // reference rows with lse = -inf
};

Comparison compareResults(const std::vector<double> &out,
                          const std::vector<double> &refOut,
                          const std::vector<double> *lse,
                          const std::vector<double> *refLse);

/// Output tolerance by element type: f32 1e-5, f16 2e-3, bf16 8e-3; f32
/// multiplied in tf32 (`tf32`) 4e-3: the rounding of P to tf32 (as f16
/// kernels round P to f16), against a reference that reads Q, K and V
/// rounded to tf32 as the products do (runGpuReference's tf32Operands;
/// docs/semantics.md §2.1).
double defaultOutputTolerance(DType t, bool tf32 = false);

/// Gradient tolerance (max|g - r| / max|r| per gradient) by element type:
/// f32 1e-4, f16 1e-2, bf16 2e-2. Looser than the output's: a backward
/// kernel rounds P and dS to the element type for its matrix products and
/// sums many more terms.
double defaultGradTolerance(DType t);

} // namespace attnrt

#endif // ATTNRT_HOSTDATA_H
