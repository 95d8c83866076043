//===- Manifest.h - the attn-kernels-v1 kernel manifest ---------*- C++ -*-===//
//
// Loading and validation of the JSON manifest that attention-opt writes next
// to each PTX file (docs/kernel-manifest.md). Validation is complete: every
// field is checked for presence, type and value, and the parameter list for
// consistency with the problem (shapes and dtypes of query, key, value, mask,
// output and lse; seed/offset with dropout). Backward kernels ("op":
// "attention_grad", "stage": "dkdv" | "dq") are checked against the backward
// ABI (parameter names, order, roles, dtypes and shapes), and a "forward"
// field against the named forward kernel. Errors are attnrt::Error
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

/// What a kernel computes: the forward (attn.attention) or one stage of the
/// backward (attn.attention_grad).
enum class KernelOp { Attention, AttentionGrad };
/// The backward stage: "dkdv" writes grad_key and grad_value, "dq" writes
/// grad_query. None for a forward kernel.
enum class GradStage { None, DKDV, DQ };

/// "attention", "attention_grad".
const char *opName(KernelOp op);
/// "none", "dkdv", "dq".
const char *stageName(GradStage s);

struct ParamSpec {
  enum class Kind { Tensor, U64 };
  // query key value mask dropout_mask seed offset output lse (forward); also
  // grad_output grad_query grad_key grad_value (backward)
  std::string name;
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
  KernelOp op = KernelOp::Attention;
  GradStage stage = GradStage::None;
  bool deterministic = false; // backward only, informational
  std::string forward;        // backward only: the forward kernel, or ""
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
  /// An explicit dropout keep mask (i1, forward kernels only) replaces the
  /// Philox bits of seed/offset.
  bool hasDropoutMask = false;
  std::array<int64_t, 4> dropoutMaskShape = {1, 1, 1, 1};
  bool hasLse = false;
  std::array<uint32_t, 3> grid = {1, 1, 1};
  std::array<uint32_t, 3> block = {1, 1, 1};
  uint32_t dynamicSharedMemory = 0;
  std::vector<ParamSpec> params; // in ABI order

  /// The parameter called `name`, or null.
  const ParamSpec *findParam(const std::string &name) const;

  /// The problem in the float64 reference's terms (seed/offset left 0).
  attnopt::ref::AttentionProblem problem() const;

  bool isGrad() const { return op == KernelOp::AttentionGrad; }

  /// Benchmark-table FLOPs of the forward of this problem:
  /// 2*B*Hq*Lq*Lk*(D+Dv) (= 4*B*H*L*L*D for D = Dv), halved when causal !=
  /// none and Lq == Lk. Masks, windows and dropout are not counted.
  double forwardFlops() const;
  /// FLOPs of this kernel. A forward kernel: forwardFlops(). A backward
  /// stage: the matrix products it executes, 2*B*Hq*Lq*Lk times
  /// (2*D + 2*Dv) for dkdv (S = QK^T, dP = dO V^T, dV = P^T dO, dK = dS^T Q)
  /// and (2*D + Dv) for dq (S, dP, dQ = dS K), halved like the forward.
  /// (The benchmark's convention for a whole backward pass is
  /// backwardFlops() = 2.5 * forwardFlops(), whatever the kernels execute.)
  double flops() const;
  /// The benchmark convention for one backward pass: 2.5 * forwardFlops().
  double backwardFlops() const { return 2.5 * forwardFlops(); }
  bool flopsHalvedForCausal() const {
    return causal != CausalMode::None && queryLen == keyLen;
  }
  /// Bytes of every tensor parameter (forward: Q, K, V, mask read, O, lse
  /// written; backward: Q, K, V, O, lse, dO, mask read, the gradients
  /// written), each counted once.
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

/// The kernel called `name`, or null.
const KernelSpec *findKernel(const Manifest &m, const std::string &name);

/// Parses and validates manifest text. `path` is used for messages and to
/// resolve the PTX file name (which is not opened here).
Manifest parseManifest(const std::string &text, const std::string &path);

/// Reads, parses and validates a manifest file.
Manifest loadManifest(const std::string &path);

} // namespace attnrt

#endif // ATTNRT_MANIFEST_H
