//===- Manifest.h - the attn-kernels-v1 kernel manifest ---------*- C++ -*-===//
//
// Loading and validation of the JSON manifest that attention-opt writes next
// to each PTX file (docs/kernel-manifest.md). Validation is complete: every
// field is checked for presence, type and value, and the parameter list for
// consistency with the problem (shapes and dtypes of query, key, value, mask,
// output and lse; seed/offset with dropout). Errors are attnrt::Error
// (kExitInput) with "<file>:<line>:<column>: kernel '<name>': <message>".
//
//===----------------------------------------------------------------------===//

#ifndef ATTNRT_MANIFEST_H
#define ATTNRT_MANIFEST_H

#include "attnrt/DType.h"
#include "attnopt/Reference/AttentionReference.h"

#include <array>
#include <cstdint>
#include <string>
#include <vector>

namespace attnrt {

enum class CausalMode { None, TopLeft, BottomRight };

/// "none", "top_left", "bottom_right".
const char *causalName(CausalMode c);

struct ParamSpec {
  enum class Kind { Tensor, U64 };
  std::string name; // query key value mask seed offset output lse
  Kind kind = Kind::Tensor;
  bool isOutput = false;
  DType dtype = DType::F32;    // tensors only
  std::vector<int64_t> shape;  // tensors only

  int64_t numElements() const;
  uint64_t sizeBytes() const { return uint64_t(numElements()) * dtypeSize(dtype); }
};

struct KernelSpec {
  std::string name;
  std::string source;
  DType dtype = DType::F32;
  int64_t batch = 1, queryHeads = 1, kvHeads = 1;
  int64_t queryLen = 1, keyLen = 1, headDim = 1, valueDim = 1;
  float scale = 1.0f;
  CausalMode causal = CausalMode::None;
  bool hasWindow = false;
  int64_t windowLeft = -1, windowRight = -1;
  bool hasSoftcap = false;
  float softcap = 0.0f;
  float dropoutP = 0.0f;
  bool hasMask = false;
  DType maskDtype = DType::I1;
  std::array<int64_t, 4> maskShape = {1, 1, 1, 1};
  bool hasLse = false;
  std::array<uint32_t, 3> grid = {1, 1, 1};
  std::array<uint32_t, 3> block = {1, 1, 1};
  uint32_t dynamicSharedMemory = 0;
  std::vector<ParamSpec> params; // in ABI order

  /// The parameter called `name`, or null.
  const ParamSpec *findParam(const std::string &name) const;

  /// The problem in the float64 reference's terms (seed/offset left 0).
  attnopt::ref::AttentionProblem problem() const;

  /// Benchmark-table FLOPs: 2*B*Hq*Lq*Lk*(D+Dv) (= 4*B*H*L*L*D for D = Dv),
  /// halved when causal != none and Lq == Lk. Masks, windows and dropout
  /// are not counted.
  double flops() const;
  bool flopsHalvedForCausal() const {
    return causal != CausalMode::None && queryLen == keyLen;
  }
  /// Bytes of every tensor parameter (Q, K, V, mask read; O, lse written),
  /// each counted once.
  uint64_t bytesMoved() const;
};

struct Manifest {
  std::string path;      // the manifest file as given
  std::string format;    // "attn-kernels-v1"
  std::string ptx;       // as written in the manifest
  std::string ptxPath;   // resolved against the manifest's directory
  std::string chip;      // e.g. "sm_90a"
  int chipMajor = 0, chipMinor = 0; // 9, 0 for sm_90a
  std::vector<KernelSpec> kernels;
};

/// Parses and validates manifest text. `path` is used for messages and to
/// resolve the PTX file name (which is not opened here).
Manifest parseManifest(const std::string &text, const std::string &path);

/// Reads, parses and validates a manifest file.
Manifest loadManifest(const std::string &path);

} // namespace attnrt

#endif // ATTNRT_MANIFEST_H
