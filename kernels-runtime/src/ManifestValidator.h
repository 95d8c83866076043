//===- ManifestValidator.h - the manifest validator -------------*- C++ -*-===//
//
// The validator of attn-kernels-v1 manifests (private to
// kernels-runtime/src): the Validator class, which parseManifest runs over
// the parsed JSON, the parameter tables it checks parameter lists against,
// and the helpers that its parts share (sizeOf binds sizes in
// ManifestSizes.cpp too). Its members are defined by job:
// ManifestValidator.cpp (the manifest and kernel objects),
// ManifestOpFields.cpp, ManifestLaunch.cpp, ManifestParams.cpp and
// ManifestGroups.cpp; the tables are ManifestParamTables.cpp's.
//
//===----------------------------------------------------------------------===//

#ifndef ATTNRT_MANIFEST_VALIDATOR_H
#define ATTNRT_MANIFEST_VALIDATOR_H

#include "attnrt/DType.h"
#include "attnrt/Error.h"
#include "attnrt/Json.h"
#include "attnrt/Manifest.h"
#include "attnrt/Util.h"

#include <array>
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <initializer_list>
#include <map>
#include <string>
#include <vector>

#include "attnopt/KernelAbi/KernelParameters.h"

namespace attnrt::validation {

using json::Value;

using attnopt::abi::stageGradients;

/// The kernel's value of size `name` (kRuntimeSize where run-time).
int64_t sizeOf(const KernelSpec &k, const std::string &name);

/// A size as the manifest writes it: "null" for a run-time one.
std::string sizeText(int64_t size);

/// Why a paged cache of `maxPagesPerSeq` pages of `pageSize` tokens per
/// sequence is too large (its capacity passes the 2^31 - 1 an i32
/// cache_seqlens entry holds); "" where it is not. Checked where the width
/// is static (the manifest) and where it is bound (bindSizes).
std::string capacityOverflow(int64_t maxPagesPerSeq, int64_t pageSize);

/// What a tensor parameter must look like.
struct TensorExpectation {
  bool output = false;
  /// A workspace at a fixed place in the ABI (role "workspace"; the split-KV
  /// forward's): neither an input nor an output.
  bool workspace = false;
  DType dtype = DType::F32;
  std::vector<int64_t> shape;
  std::string shapeText;
  const char *dtypeNote = " (the kernel's dtype)";
};

/// One parameter of a kernel's ABI and what it must be.
struct ExpectedParam {
  std::string name;
  ParamSpec::Kind kind = ParamSpec::Kind::Tensor;
  TensorExpectation tensor; // Kind::Tensor only
  /// Why the kernel has it, for the message when it is missing (" (has_lse
  /// is true)"); "" for a parameter every kernel of the op has.
  std::string why;
};

/// The parameter list that one kernel must have (docs/kernel-manifest.md).
/// Each op (dense or packed, forward or backward stage) builds one from the
/// kernel's fields, and one validator (Validator::paramList) checks every
/// list against its table, so that the ops share their rules and messages.
struct ParamTable {
  /// Names the list in messages: "the forward parameters".
  std::string title;
  /// Whom an unknown name is unknown to: " for a backward kernel".
  std::string unknownTo;
  /// Every parameter name of the op (workspaces aside), for the message on
  /// an unknown one.
  std::vector<std::string> known;
  /// The kernel's parameters in ABI order (workspaces aside).
  std::vector<ExpectedParam> order;
  /// Backward kernels: workspaces come, in any order, after the inputs
  /// order[0, numInputs) and before the rest (outputs, then sizes).
  bool workspaces = false;
  size_t numInputs = 0;
  /// Packed backward kernels: each workspace's shape. Empty for the dense
  /// backward, whose workspaces may have any shape that grows with its
  /// run-time sizes.
  std::map<std::string, TensorExpectation> workspaceShapes;
  /// Names of the op that this kernel must not list, with the reason
  /// ("listed, but has_lse is false").
  std::map<std::string, std::string> excluded;
  /// The ABI order as messages give it.
  std::string orderText;
};

/// The parameter table of kernel `k` (its op and fields read), for a list
/// that names seed or offset when `rngListed`.
ParamTable paramTable(const KernelSpec &k, bool rngListed);
/// Whether parameter list `v` names seed or offset (then both are
/// expected, dropout or not).
bool listsRng(const Value &v);

/// A grid as messages give it: a 0 entry (computed at launch from a run-time
/// size) prints as null.
template <typename T> std::string gridText(const std::array<T, 3> &g) {
  auto entry = [](int64_t x) { return x == 0 ? kRuntimeSize : x; };
  return formatShape(
      {entry(int64_t(g[0])), entry(int64_t(g[1])), entry(int64_t(g[2]))});
}

/// The fields of a kernel's "codegen" object that the validator checks the
/// launch against, or null where absent. The object is informational: a
/// field the runtime does not know is accepted unread.
struct Codegen {
  const Value *kernel = nullptr;  // "tensor-core" or "cuda-core"
  const Value *mma = nullptr;     // "wgmma", "mma.sync" or "none"
  const Value *blockQ = nullptr;  // a positive integer
  const Value *blockKV = nullptr; // a positive integer
  const Value *threads = nullptr; // a positive integer, block[0]
  /// A positive integer, dkdv / dkdv_dq only: blocks per key block (2: dK
  /// and dV accumulated by separate blocks).
  const Value *keyBlockParts = nullptr;
  /// A positive integer or null, split-KV forward stages only (and
  /// required there): the key chunks S, null where S is decided at launch.
  const Value *splits = nullptr;
  /// An object, split-KV forward stages only, exactly where splits is null:
  /// the constants of the split rule.
  const Value *splitRule = nullptr;
  /// "grid" or "persistent", a dense forward only: "persistent" launches
  /// fewer blocks than tiles (one per SM), each looping over the tiles.
  const Value *schedule = nullptr;
};

class Validator {
public:
  explicit Validator(const std::string &path) : path(path) {}

  Manifest run(const Value &root);

private:
  const std::string &path;
  std::string context; // "kernel 'x': " or "kernels[3]: "
  /// The manifest being built, once its "chip" is known (the kernels'
  /// shared memory limit depends on it).
  const Manifest *manifest = nullptr;
  /// The index of each kernel name in the manifest: a tree, so that
  /// looking names up does not make many kernels quadratic.
  std::map<std::string, size_t> kernelIndex;

  [[noreturn]] void fail(const Value &at, const std::string &message) const {
    throw Error(path + ":" + std::to_string(at.loc.line) + ":" +
                    std::to_string(at.loc.column) + ": " + context + message,
                kExitInput);
  }

  static std::string got(const Value &v) {
    if (v.isObject() || v.isArray())
      return std::string("got ") + (v.isObject() ? "an object" : "an array");
    return "got " + v.brief() + " (" + v.kindName() + ")";
  }

  void checkKeys(const Value &obj, std::initializer_list<const char *> keys,
                 const std::string &what) const {
    for (const auto &member : obj.object) {
      bool known = false;
      for (const char *k : keys)
        known = known || member.first == k;
      if (!known) {
        std::string list;
        for (const char *k : keys)
          list += std::string(list.empty() ? "" : ", ") + k;
        fail(member.second, "unknown field '" + member.first + "' in " +
                                what + " (expected fields: " + list + ")");
      }
    }
  }

  const Value &field(const Value &obj, const char *key,
                     const std::string &what) const {
    const Value *v = obj.find(key);
    if (!v)
      fail(obj, std::string("missing field '") + key + "' in " + what);
    return *v;
  }

  std::string string(const Value &v, const std::string &name,
                     bool allowEmpty = false) const {
    if (!v.isString())
      fail(v, name + ": expected a string, " + got(v));
    if (!allowEmpty && v.text.empty())
      fail(v, name + ": expected a non-empty string");
    return v.text;
  }

  int64_t integer(const Value &v, const std::string &name, int64_t lo,
                  int64_t hi, const char *expectation) const {
    if (!v.isInteger() || v.asInteger() < lo || v.asInteger() > hi)
      fail(v, name + ": expected " + expectation + ", " + got(v));
    return v.asInteger();
  }

  int64_t positive(const Value &v, const std::string &name) const {
    return integer(v, name, 1, int64_t(1) << 40, "a positive integer");
  }

  /// A batch or sequence length: positive, or null (kRuntimeSize), in
  /// forward and backward kernels alike.
  int64_t lengthField(const Value &v, const std::string &name) const {
    if (v.isNull())
      return kRuntimeSize;
    return integer(v, name, 1, int64_t(1) << 40,
                   "a positive integer or null (a run-time size)");
  }

  float f32(const Value &v, const std::string &name) const {
    if (!v.isNumber())
      fail(v, name + ": expected a number, " + got(v));
    float f = float(v.number);
    if (!std::isfinite(f))
      fail(v, name + ": expected a finite f32 value, got " + v.text);
    return f;
  }

  /// An array of positive integers; null entries (run-time sizes) are
  /// kRuntimeSize, and the caller compares them with the kernel's sizes.
  std::vector<int64_t> shape(const Value &v, const std::string &name) const {
    if (!v.isArray())
      fail(v, name + ": expected an array of positive integers, " + got(v));
    std::vector<int64_t> s;
    int64_t elements = 1;
    for (size_t i = 0; i < v.array.size(); ++i) {
      if (v.array[i].isNull()) {
        s.push_back(kRuntimeSize);
        continue;
      }
      int64_t d = positive(v.array[i], name + "[" + std::to_string(i) + "]");
      if (elements > (int64_t(1) << 50) / d)
        fail(v, name + ": " + formatShape(s) + "... has more than 2^50 "
                "elements");
      elements *= d;
      s.push_back(d);
    }
    return s;
  }

  /// With `allowI32` (tensor parameters, which are then compared with
  /// what their name needs), also i32 (the offsets of a packed batch).
  DType dtype(const Value &v, const std::string &name, bool allowI1,
              bool allowI32 = false) const {
    std::string s = string(v, name);
    DType t;
    if (!parseDType(s, t) || (!allowI1 && t == DType::I1) ||
        (!allowI32 && t == DType::I32))
      fail(v, name + ": unknown dtype \"" + s + "\" (expected " +
                  (allowI32  ? "i1, i32, f16, bf16 or f32"
                   : allowI1 ? "i1, f16, bf16 or f32"
                             : "f16, bf16 or f32") +
                  ")");
    return t;
  }

  /// With `allowNull` (the grid), a null entry is 0: computed at launch.
  std::array<uint32_t, 3> dim3(const Value &v, const std::string &name,
                               const std::array<int64_t, 3> &limits,
                               bool allowNull = false) const {
    if (!v.isArray() || v.array.size() != 3)
      fail(v, name + ": expected an array of 3 positive integers, " + got(v));
    std::array<uint32_t, 3> out;
    for (int i = 0; i < 3; ++i)
      out[i] = allowNull && v.array[i].isNull() ? 0 : uint32_t(integer(
          v.array[i], name + "[" + std::to_string(i) + "]", 1, limits[i],
          ("an integer in [1, " + std::to_string(limits[i]) + "]").c_str()));
    return out;
  }

  void checkPtxName(const Value &ptx) const;
  KernelSpec kernel(const Value &v);
  Codegen codegen(const Value &kernel) const;
  /// Checks the launch and records the grid formula (gridTile, gridParts).
  void checkLaunch(const Value &kernel, KernelSpec &k, const Codegen &cg) const;
  void forwardStageFields(const Value &v, KernelSpec &k);
  void checkSplitKVLaunch(const Value &v, KernelSpec &k,
                          const Codegen &cg) const;
  void checkSplitRule(KernelSpec &k, const Codegen &cg) const;
  void checkForwardGroup(const GradGroup &g, const Value &kernels,
                         const Manifest &m);
  /// Checks parameter list `v` against `t` and fills k.params.
  void paramList(const Value &v, KernelSpec &k, const ParamTable &t);
  /// A trailing parameter of kind "tensor_map" (docs/kernel-manifest.md,
  /// "TMA tensor maps"), checked against the tensors listed before it.
  void tensorMapParam(const Value &pv, const std::string &at, KernelSpec &k);
  void checkParamKind(const Value &pv, const std::string &at,
                      const ParamSpec &p, ParamSpec::Kind want) const;
  /// Fails unless pv's "kind" is one that the manifest knows (a string
  /// among "tensor", "u64", "i32", "tensor_map").
  void checkKnownKind(const Value &pv, const std::string &at) const;
  void varlenFields(const Value &v, KernelSpec &k);
  void pagedFields(const Value &v, KernelSpec &k);
  void mergeKernel(const Value &v, KernelSpec &k);
  std::vector<int64_t> mergeRowDims(const Value &params,
                                    const KernelSpec &k) const;
  void checkVarlenGrid(const Value &v, KernelSpec &k, const Codegen &cg) const;
  void workspaceParam(const Value &pv, const std::string &at,
                      const KernelSpec &k, ParamSpec &p, const ParamTable &t);
  void checkDenseWorkspaceShape(const Value &pv, const std::string &at,
                                const KernelSpec &k, ParamSpec &p);
  void checkTensorParam(const Value &pv, const std::string &at, ParamSpec &p,
                        const TensorExpectation &want);
  void checkForwardLink(const Value &forwardValue, const KernelSpec &k,
                        const Manifest &m);
  void checkGroup(const GradGroup &g, const Value &kernels, const Manifest &m);
  void checkGroupProblem(const GradGroup &g, const Value &kernels,
                         const Manifest &m);
  void checkGroupOutputs(const GradGroup &g, const Value &kernels,
                         const Manifest &m);
  void checkGroupWorkspaces(const GradGroup &g, const Value &kernels,
                            const Manifest &m);
};

} // namespace attnrt::validation

#endif // ATTNRT_MANIFEST_VALIDATOR_H
