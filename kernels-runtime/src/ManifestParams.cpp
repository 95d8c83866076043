//===- ManifestParams.cpp - parameter lists -------------------------------===//
//
// Validator::paramList: a kernel's parameter list against its table
// (ManifestParamTables.cpp), in order, each entry's kind, role, dtype and
// shape; the workspaces of backward kernels; the trailing TMA tensor maps.
//
//===----------------------------------------------------------------------===//

#include "ManifestValidator.h"
#include "attnrt/TensorMap.h"

#include <algorithm>
#include <string>

namespace attnrt::validation {

namespace {

/// "query, key, ... or key_len" (or "..., key_len or a workspace: ...").
std::string knownText(const ParamTable &t) {
  std::string s;
  for (size_t i = 0; i < t.known.size(); ++i)
    s += (i == 0                                     ? ""
          : i + 1 == t.known.size() && !t.workspaces ? " or "
                                                     : ", ") +
         t.known[i];
  if (t.workspaces)
    s += " or a workspace: row_dot, lse_log2, dq_accum";
  return s;
}

} // namespace

void Validator::checkTensorParam(const Value &pv, const std::string &at,
                                 ParamSpec &p, const TensorExpectation &want) {
  p.kind = ParamSpec::Kind::Tensor;
  checkKeys(pv, {"name", "kind", "role", "dtype", "shape"}, at);
  const Value &role = field(pv, "role", at);
  std::string roleText = string(role, at + ": role");
  const std::string wantRole = want.workspace ? "workspace"
                               : want.output  ? "output"
                                              : "input";
  if (roleText != "input" && roleText != "output" && roleText != "workspace")
    fail(role,
         at + ": role: expected " +
             (want.workspace ? "\"workspace\"" : "\"input\" or \"output\"") +
             ", got \"" + roleText + "\"");
  if (roleText != wantRole)
    fail(role, at + ": role: expected \"" + wantRole + "\" for '" + p.name +
                   "', got \"" + roleText + "\"");
  p.isOutput = want.output;
  p.isWorkspace = want.workspace;
  const Value &dt = field(pv, "dtype", at);
  p.dtype = dtype(dt, at + ": dtype", /*allowI1=*/true, /*allowI32=*/true);
  if (p.dtype != want.dtype)
    fail(dt, at + ": dtype: expected " + dtypeName(want.dtype) +
                 want.dtypeNote + ", got " + dtypeName(p.dtype));
  const Value &sv = field(pv, "shape", at);
  p.shape = shape(sv, at + ": shape");
  if (p.shape != want.shape)
    fail(sv, at + ": shape " + formatShape(p.shape) + " does not match " +
                 want.shapeText + " = " + formatShape(want.shape));
}

void Validator::workspaceParam(const Value &pv, const std::string &at,
                               const KernelSpec &k, ParamSpec &p,
                               const ParamTable &t) {
  p.kind = ParamSpec::Kind::Tensor;
  p.isWorkspace = true;
  // A packed workspace has a shape fixed by the ABI (W rows per head), so
  // no query_len_multiple.
  auto fixed = t.workspaceShapes.find(p.name);
  const bool packed = fixed != t.workspaceShapes.end();
  if (packed)
    checkKeys(pv, {"name", "kind", "role", "dtype", "shape"}, at);
  else
    checkKeys(pv,
              {"name", "kind", "role", "dtype", "shape", "query_len_multiple"},
              at);
  const Value &role = field(pv, "role", at);
  std::string roleText = string(role, at + ": role");
  if (roleText != "workspace")
    fail(role, at + ": role: expected \"workspace\" for '" + p.name +
                   "', got \"" + roleText + "\"");
  const Value &dt = field(pv, "dtype", at);
  p.dtype = dtype(dt, at + ": dtype", /*allowI1=*/true, /*allowI32=*/true);
  if (p.dtype != DType::F32)
    fail(dt, at + ": dtype: expected f32 (workspaces are f32), got " +
                 dtypeName(p.dtype));
  const Value &sv = field(pv, "shape", at);
  p.shape = shape(sv, at + ": shape");
  if (!packed) {
    checkDenseWorkspaceShape(pv, at, k, p);
    return;
  }
  if (p.shape != fixed->second.shape)
    fail(sv, at + ": shape " + formatShape(p.shape) + " does not match " +
                 fixed->second.shapeText + " = " +
                 formatShape(fixed->second.shape));
}

/// A dense backward workspace may have any shape (the compiler chooses it,
/// e.g. rows padded to a tile; the group check makes the kernels sharing it
/// agree), but one that grows with the kernel's run-time sizes.
void Validator::checkDenseWorkspaceShape(const Value &pv, const std::string &at,
                                         const KernelSpec &k, ParamSpec &p) {
  const Value &sv = *pv.find("shape");
  // Run-time sizes: a workspace is [B, Hq, Lq padded, ...], so bindSizes
  // can only fill in a null at dimension 0 (the batch) and at dimension 2
  // (the query length, rounded up to "query_len_multiple"). A static
  // dimension where the kernel's size is a run-time one would be a buffer
  // that does not grow with the size the kernel indexes it by.
  for (size_t d = 0; d < p.shape.size(); ++d) {
    const bool null = p.shape[d] == kRuntimeSize;
    const std::string dim = at + ": shape[" + std::to_string(d) + "]";
    if (d != 0 && d != 2) {
      if (null)
        fail(sv.array[d], dim + " is null, but only dimension 0 (the batch) "
                                "and 2 (the query length) of a workspace can "
                                "be a run-time size");
      continue;
    }
    const int64_t size = d == 0 ? k.batch : k.queryLen;
    const char *sizeName = d == 0 ? "batch" : "query_len";
    if (null && size != kRuntimeSize)
      fail(sv.array[d], dim + " is null, but the kernel's " + sizeName +
                            " is " + std::to_string(size) +
                            " (null in a workspace stands for a run-time " +
                            sizeName + ")");
    if (!null && size == kRuntimeSize)
      fail(sv.array[d], dim + " is " + std::to_string(p.shape[d]) +
                            ", but the kernel's " + sizeName +
                            " is null (a run-time size): expected null, "
                            "the workspace grows with it");
  }
  if (k.queryLen == kRuntimeSize && p.shape.size() < 3)
    fail(sv, at + ": shape " + formatShape(p.shape) +
                 " has no dimension 2, but the kernel's query_len is null (a "
                 "run-time size): expected [batch, query_heads, null, ...]");

  const bool paddedRows = p.shape.size() > 2 && p.shape[2] == kRuntimeSize;
  const Value *multiple = pv.find("query_len_multiple");
  if (multiple && !paddedRows)
    fail(*multiple, at + ": query_len_multiple: only for a workspace whose "
                         "shape[2] is null (a run-time query length), but "
                         "shape is " + formatShape(p.shape));
  if (!multiple && paddedRows)
    fail(pv, at + ": missing field 'query_len_multiple' (shape[2] is null: "
                  "the run-time query length rounded up to a multiple of "
                  "query_len_multiple)");
  if (multiple)
    p.queryLenMultiple = positive(*multiple, at + ": query_len_multiple");
}

void Validator::checkParamKind(const Value &pv, const std::string &at,
                               const ParamSpec &p, ParamSpec::Kind want) const {
  const char *wantKind = want == ParamSpec::Kind::I32   ? "i32"
                         : want == ParamSpec::Kind::U64 ? "u64"
                                                        : "tensor";
  checkKnownKind(pv, at);
  const Value &kind = field(pv, "kind", at);
  const std::string &kindText = kind.text;
  if (kindText != wantKind)
    fail(kind, at + ": kind: expected \"" + std::string(wantKind) + "\" for '" +
                   p.name + "', got \"" + kindText + "\"");
}

void Validator::checkKnownKind(const Value &pv, const std::string &at) const {
  const Value &kind = field(pv, "kind", at);
  const std::string kindText = string(kind, at + ": kind");
  if (kindText != "tensor" && kindText != "u64" && kindText != "i32" &&
      kindText != "tensor_map")
    fail(kind, at +
                   ": kind: expected \"tensor\", \"u64\", \"i32\" or "
                   "\"tensor_map\" (after every other parameter), got \"" +
                   kindText + "\"");
}

/// Whether a params entry is a tensor map (kind "tensor_map").
static bool isTensorMapValue(const Value &pv) {
  const Value *kind = pv.isObject() ? pv.find("kind") : nullptr;
  return kind && kind->isString() && kind->text == "tensor_map";
}

void Validator::tensorMapParam(const Value &pv, const std::string &at,
                               KernelSpec &k) {
  ParamSpec p;
  p.kind = ParamSpec::Kind::TensorMap;
  p.name = string(field(pv, "name", at), at + ".name");
  const std::string where = "param '" + p.name + "'";
  checkKeys(pv, {"name", "kind", "tensor", "box", "swizzle"}, where);
  for (const ParamSpec &q : k.params)
    if (q.name == p.name)
      fail(pv, where + ": listed twice");
  const Value &tensorValue = field(pv, "tensor", where);
  p.mapOf = string(tensorValue, where + ": tensor");
  const ParamSpec *tensor = k.findParam(p.mapOf);
  if (!tensor || tensor->kind != ParamSpec::Kind::Tensor)
    fail(tensorValue, where + ": tensor: '" + p.mapOf +
                          "' is not a tensor parameter listed before it");
  if (tensor->isOutput || tensor->isWorkspace)
    fail(tensorValue, where + ": tensor: '" + p.mapOf +
                          "' is an output or a workspace (tensor maps load "
                          "inputs)");
  if (tensorMapDataType(tensor->dtype) < 0)
    fail(tensorValue, where + ": tensor: '" + p.mapOf + "' is " +
                          dtypeName(tensor->dtype) +
                          " (tensor maps take f16, bf16 or f32)");
  const size_t rank = tensor->shape.size();
  if (rank < 1 || rank > size_t(kMaxTensorMapRank))
    fail(tensorValue, where + ": tensor: '" + p.mapOf + "' has " +
                          std::to_string(rank) +
                          " dimensions (a tensor map has 1 to 5)");
  // Every stride is a multiple of the innermost one (the row), so a row
  // that is a multiple of 16 bytes is what TMA needs; a static row is
  // checked here, a run-time one at launch (tensorMapLayout).
  const int64_t elementBytes = int64_t(dtypeSize(tensor->dtype));
  const int64_t row = tensor->shape.back();
  if (rank > 1 && row != kRuntimeSize && row * elementBytes % 16)
    fail(tensorValue, where + ": tensor: '" + p.mapOf + "' has rows of " +
                          std::to_string(row * elementBytes) +
                          " bytes, not a multiple of 16 (TMA strides are)");
  const Value &swizzle = field(pv, "swizzle", where);
  p.swizzle = integer(swizzle, where + ": swizzle", 0, 128, "0, 32, 64 or 128");
  if (tensorMapSwizzleMode(p.swizzle) < 0)
    fail(swizzle, where + ": swizzle: expected 0, 32, 64 or 128, got " +
                      std::to_string(p.swizzle));
  const Value &box = field(pv, "box", where);
  if (!box.isArray() || box.array.size() != rank)
    fail(box, where + ": box: expected an array of " + std::to_string(rank) +
                  " extents (one per dimension of '" + p.mapOf +
                  "', innermost first), " + got(box));
  for (size_t i = 0; i < rank; ++i)
    p.box.push_back(integer(box.array[i],
                            where + ": box[" + std::to_string(i) + "]", 1, 256,
                            "an integer from 1 to 256"));
  // cuTensorMapEncodeTiled's rules for the innermost extent, in bytes.
  const int64_t boxRow = p.box[0] * elementBytes;
  const std::string boxRowText =
      "box[0] (the innermost extent) is " + std::to_string(p.box[0]) +
      " elements of " + std::to_string(elementBytes) +
      " bytes = " + std::to_string(boxRow) + " bytes";
  if (boxRow % 16)
    fail(box.array[0],
         where + ": " + boxRowText + ", not a multiple of 16 bytes");
  if (p.swizzle && boxRow > p.swizzle)
    fail(box.array[0], where + ": " + boxRowText +
                           ", more than the swizzle span (" +
                           std::to_string(p.swizzle) + " bytes)");
  k.params.push_back(std::move(p));
}

void Validator::paramList(const Value &v, KernelSpec &k, const ParamTable &t) {
  if (!v.isArray())
    fail(v, "params: expected an array of parameter objects, " + got(v));
  // Tensor maps follow every other parameter; the op's table describes
  // the ones before them.
  size_t mapsFrom = v.array.size();
  while (mapsFrom > 0 && isTensorMapValue(v.array[mapsFrom - 1]))
    --mapsFrom;
  const std::vector<ExpectedParam> &order = t.order;
  const std::string abi = " (" + t.title + ", in order: " + t.orderText + ")";
  const std::string workspacePlace =
      " (workspaces come after the inputs and before the outputs)";
  // params[idx] (called `what`) stands where order[next] belongs: either
  // order[next] is missing altogether or it comes later.
  auto outOfPlace = [&](const Value &nameValue, const std::string &at,
                        size_t idx, size_t next, const std::string &what,
                        const std::string &note) {
    const ExpectedParam &want = order[next];
    bool listedLater = false;
    for (size_t j = idx + 1; j < v.array.size(); ++j)
      if (const Value *n =
              v.array[j].isObject() ? v.array[j].find("name") : nullptr)
        listedLater = listedLater || (n->isString() && n->text == want.name);
    if (!listedLater)
      fail(nameValue, at + ": missing parameter '" + want.name + "' before " +
                          what + want.why + note + abi);
    fail(nameValue, at + ": expected parameter '" + want.name + "' here, got " +
                        what + note + abi);
  };

  size_t next = 0; // the index in `order` of the next non-workspace
  for (size_t idx = 0; idx < mapsFrom; ++idx) {
    const Value &pv = v.array[idx];
    std::string at = "params[" + std::to_string(idx) + "]";
    if (!pv.isObject())
      fail(pv, at + ": expected a parameter object, " + got(pv));
    if (isTensorMapValue(pv)) {
      // The entry that ends the run of maps: a misspelt kind there reads
      // better as such than as a map out of place.
      const Value &after = v.array[mapsFrom - 1];
      const std::string afterAt =
          "params[" + std::to_string(mapsFrom - 1) + "]";
      if (!after.isObject())
        fail(after, afterAt + ": expected a parameter object, " + got(after));
      checkKnownKind(after, afterAt);
      const Value *later = after.find("name");
      fail(pv, at + ": a tensor map before params[" +
                   std::to_string(mapsFrom - 1) + "]" +
                   (later && later->isString() ? " ('" + later->text + "')"
                                               : std::string()) +
                   " (tensor maps come after every other parameter)");
    }
    ParamSpec p;
    const Value &nameValue = field(pv, "name", at);
    p.name = string(nameValue, at + ".name");
    const Value *roleValue = pv.find("role");
    const bool workspaceRole =
        roleValue && roleValue->isString() && roleValue->text == "workspace";
    const bool workspace = t.workspaces && isWorkspaceName(p.name);
    if (!workspace &&
        std::find(t.known.begin(), t.known.end(), p.name) == t.known.end()) {
      if (t.workspaces && workspaceRole)
        fail(nameValue, at + ".name: unknown workspace \"" + p.name +
                            "\" (expected row_dot, lse_log2 or dq_accum)");
      fail(nameValue, at + ".name: unknown parameter \"" + p.name + "\"" +
                          t.unknownTo + " (expected " + knownText(t) + ")");
    }
    for (size_t j = 0; j < k.params.size(); ++j)
      if (k.params[j].name == p.name)
        fail(nameValue, at + ": parameter '" + p.name +
                            "' is listed twice (also params[" +
                            std::to_string(j) + "])");
    auto excluded = t.excluded.find(p.name);
    if (excluded != t.excluded.end())
      fail(nameValue, "param '" + p.name + "': " + excluded->second);

    const ExpectedParam *want = nullptr;
    if (workspace) {
      // Workspaces may come in any order, but only between the inputs and
      // the outputs.
      if (next < t.numInputs)
        outOfPlace(nameValue, at, idx, next, "workspace '" + p.name + "'",
                   workspacePlace);
      if (next > t.numInputs)
        fail(nameValue, at + ": workspace '" + p.name + "' after " +
                            (order[next - 1].kind == ParamSpec::Kind::I32
                                 ? "the size parameter '"
                                 : "the output '") +
                            order[next - 1].name + "'" + workspacePlace + abi);
    } else {
      if (next >= order.size())
        fail(nameValue, at + ": unexpected parameter '" + p.name +
                            "' after the last one" + abi);
      if (p.name != order[next].name)
        outOfPlace(nameValue, at, idx, next, "'" + p.name + "'", "");
      want = &order[next++];
    }
    at = "param '" + p.name + "'";
    checkParamKind(pv, at, p, want ? want->kind : ParamSpec::Kind::Tensor);

    if (want && want->kind != ParamSpec::Kind::Tensor) {
      p.kind = want->kind;
      checkKeys(pv, {"name", "kind", "role"}, at);
      if (roleValue && string(*roleValue, at + ": role") != "input")
        fail(*roleValue, at + ": role: expected \"input\", got \"" +
                             roleValue->text + "\"");
    } else if (workspace) {
      workspaceParam(pv, at, k, p, t);
    } else {
      if (t.workspaces && workspaceRole)
        fail(*roleValue,
             at +
                 ": role: \"workspace\" is only for the "
                 "workspaces row_dot, lse_log2 and dq_accum "
                 "(expected \"" +
                 std::string(want->tensor.output ? "output" : "input") +
                 "\" for '" + p.name + "')");
      checkTensorParam(pv, at, p, want->tensor);
    }
    k.params.push_back(std::move(p));
  }
  if (next < order.size())
    fail(v, "params: missing parameter '" + order[next].name + "'" +
                order[next].why + abi);
  for (size_t idx = mapsFrom; idx < v.array.size(); ++idx)
    tensorMapParam(v.array[idx], "params[" + std::to_string(idx) + "]", k);
}

} // namespace attnrt::validation
