//===- ManifestParamTables.cpp - the parameter tables ---------------------===//
//
// What each op's parameter list must be (docs/kernel-manifest.md): one
// ParamTable per kernel, built from its fields, for the dense and packed
// forward, the split-KV and paged stages, the merge kernel and each
// backward stage, dense or packed; Validator::paramList checks every list
// against its table. The order and the names come from the ABI the
// compiler writes its lists from (attnopt/KernelAbi/KernelParameters.h);
// this adds what the runtime knows of the problem: each tensor's shape and
// dtype, and why a parameter is expected or excluded.
//
//===----------------------------------------------------------------------===//

#include "ManifestValidator.h"
#include "attnopt/KernelAbi/KernelParameters.h"
#include "attnrt/Varlen.h"

#include <algorithm>
#include <iterator>
#include <map>
#include <string>
#include <vector>

namespace attnrt::validation {

namespace {

namespace abi = attnopt::abi;

/// Why gradient `name` is not a parameter of a `stage` kernel.
std::string notThisStage(GradStage stage, const std::string &name) {
  switch (stage) {
  case GradStage::DKDV:
    return "a \"dkdv\" kernel writes only grad_key and grad_value "
           "(grad_query is the \"dq\" stage's)";
  case GradStage::DQ:
    return "a \"dq\" kernel writes only grad_query (" + name +
           " is the \"dkdv\" stage's)";
  case GradStage::DKDVDQ:
    return "a \"dkdv_dq\" kernel writes only grad_key and grad_value (it "
           "adds dS K into the workspace dq_accum; a \"dq_convert\" kernel "
           "writes grad_query)";
  case GradStage::DQConvert:
    return "a \"dq_convert\" kernel writes only grad_query (" + name +
           " is written by a \"dkdv\" or \"dkdv_dq\" kernel)";
  case GradStage::Prep:
  case GradStage::None:
  case GradStage::SplitKV: // forward stages: not in a backward table
  case GradStage::Combine:
    break;
  }
  return "a \"prep\" kernel writes no gradient (it initializes workspaces)";
}

/// The tensor `n` of a dense kernel: query, key, value, output and their
/// gradients [batch, heads, length, width], lse [batch, query_heads,
/// query_len], the masks in their fields' shapes.
TensorExpectation denseTensor(const KernelSpec &k, const std::string &n) {
  TensorExpectation t;
  t.dtype = k.dtype;
  if (n == "query" || n == "grad_query") {
    t.shape = {k.batch, k.queryHeads, k.queryLen, k.headDim};
    t.shapeText = "[batch, query_heads, query_len, head_dim]";
  } else if (n == "key" || n == "grad_key") {
    t.shape = {k.batch, k.kvHeads, k.keyLen, k.headDim};
    t.shapeText = "[batch, kv_heads, key_len, head_dim]";
  } else if (n == "value" || n == "grad_value") {
    t.shape = {k.batch, k.kvHeads, k.keyLen, k.valueDim};
    t.shapeText = "[batch, kv_heads, key_len, value_dim]";
  } else if (n == "output" || n == "grad_output") {
    t.shape = {k.batch, k.queryHeads, k.queryLen, k.valueDim};
    t.shapeText = "[batch, query_heads, query_len, value_dim]";
  } else if (n == "lse") {
    t.dtype = DType::F32;
    t.dtypeNote = " (lse is always f32)";
    t.shape = {k.batch, k.queryHeads, k.queryLen};
    t.shapeText = "[batch, query_heads, query_len]";
  } else if (n == "mask") {
    t.dtype = k.maskDtype;
    t.dtypeNote = " (the kernel's mask.dtype)";
    t.shape.assign(k.maskShape.begin(), k.maskShape.end());
    t.shapeText = "the kernel's mask.shape";
  } else { // dropout_mask
    t.dtype = DType::I1;
    t.dtypeNote = " (a keep mask is i1)";
    t.shape.assign(k.dropoutMaskShape.begin(), k.dropoutMaskShape.end());
    t.shapeText = "the kernel's dropout_mask.shape";
  }
  return t;
}

/// The tensor `n` of a packed kernel: token-major [tokens, heads, width]
/// for query, key, value, output and their gradients, lse [query_heads,
/// total_query_tokens], the offsets i32 [batch + 1].
TensorExpectation packedTensor(const KernelSpec &k, const std::string &n) {
  TensorExpectation t;
  t.dtype = k.dtype;
  const int64_t tq = k.totalQueryTokens, tk = k.totalKeyTokens;
  if (n == "query" || n == "grad_query") {
    t.shape = {tq, k.queryHeads, k.headDim};
    t.shapeText = "[total_query_tokens, query_heads, head_dim]";
  } else if (n == "key" || n == "grad_key") {
    t.shape = {tk, k.kvHeads, k.headDim};
    t.shapeText = "[total_key_tokens, kv_heads, head_dim]";
  } else if (n == "value" || n == "grad_value") {
    t.shape = {tk, k.kvHeads, k.valueDim};
    t.shapeText = "[total_key_tokens, kv_heads, value_dim]";
  } else if (n == "output" || n == "grad_output") {
    t.shape = {tq, k.queryHeads, k.valueDim};
    t.shapeText = "[total_query_tokens, query_heads, value_dim]";
  } else if (n == "lse") {
    t.dtype = DType::F32;
    t.dtypeNote = " (lse is always f32)";
    t.shape = {k.queryHeads, tq};
    t.shapeText = "[query_heads, total_query_tokens]";
  } else { // cu_seqlens_q, cu_seqlens_k
    t.dtype = DType::I32;
    t.dtypeNote = " (sequence offsets are i32)";
    t.shape = {k.batch == kRuntimeSize ? kRuntimeSize : k.batch + 1};
    t.shapeText = "[batch + 1]";
  }
  return t;
}

/// The workspaces of a packed backward kernel: row_dot and lse_log2
/// [query_heads, W], dq_accum [query_heads, W, head_dim], W =
/// packedWorkspaceRows (null where the batch or Tq is a run-time size).
std::map<std::string, TensorExpectation>
packedWorkspaceShapes(const KernelSpec &k) {
  const int64_t w = packedWorkspaceRows(k.totalQueryTokens, k.batch);
  const std::string wText =
      " (W = 4 * ceil(total_query_tokens / 4) + 68 * batch)";
  std::map<std::string, TensorExpectation> shapes;
  for (const char *n : {"row_dot", "lse_log2", "dq_accum"}) {
    TensorExpectation &t = shapes[n];
    t.dtype = DType::F32;
    const bool rows = std::string(n) == "dq_accum";
    t.shape = {k.queryHeads, w};
    if (rows)
      t.shape.push_back(k.headDim);
    t.shapeText =
        std::string(rows ? "[query_heads, W, head_dim]" : "[query_heads, W]") +
        wText;
  }
  return shapes;
}

/// The workspace `n` of a split-KV forward group: partial_output [batch,
/// splits, query_heads, query_len, value_dim] or partial_lse [batch, splits,
/// query_heads, query_len] (batch null where it is a run-time size).
TensorExpectation splitKVWorkspace(const KernelSpec &k, const std::string &n) {
  TensorExpectation t;
  t.dtype = DType::F32;
  t.dtypeNote = " (workspaces are f32)";
  t.workspace = true;
  t.shape = {k.batch, k.splits, k.queryHeads, k.queryLen};
  t.shapeText = k.splitsAtLaunch()
                    ? "[batch, S (null: codegen.splits is null, S decided at "
                      "launch), query_heads, query_len"
                    : "[batch, codegen.splits, query_heads, query_len";
  if (n == "partial_output") {
    t.shape.push_back(k.valueDim);
    t.shapeText += ", value_dim";
  }
  t.shapeText += "]";
  return t;
}

/// The tensor `n` of a merge kernel: partial_output [S, d..., Dv]
/// (partial_dtype), partial_lse [S, d...] (f32), output [d..., Dv] (dtype),
/// lse [d...] (f32); d... is k.rowDims.
TensorExpectation mergeTensor(const KernelSpec &k, const std::string &n) {
  const bool split = n == "partial_output" || n == "partial_lse";
  const bool value = n == "partial_output" || n == "output";
  TensorExpectation t;
  if (split)
    t.shape.push_back(k.splits);
  t.shape.insert(t.shape.end(), k.rowDims.begin(), k.rowDims.end());
  if (value)
    t.shape.push_back(k.valueDim);
  t.shapeText = std::string("[") + (split ? "splits, " : "") + "d..." +
                (value ? ", value_dim" : "") + "]";
  if (n == "partial_output") {
    t.dtype = k.partialDtype;
    t.dtypeNote = " (the kernel's partial_dtype)";
  } else if (n == "output") {
    t.dtype = k.dtype;
  } else {
    t.dtype = DType::F32;
    t.dtypeNote =
        n == "lse" ? " (lse is f32)" : " (partial_lse holds f32 log-sum-exps)";
  }
  return t;
}

/// The tensor `n` of a paged kernel's cache: key_cache [num_pages,
/// page_size, kv_heads, head_dim], value_cache (value_dim), the i32
/// block_table [batch, max_pages_per_seq] and cache_seqlens [batch].
TensorExpectation pagedTensor(const KernelSpec &k, const std::string &n) {
  TensorExpectation t;
  t.dtype = k.dtype;
  if (n == "key_cache") {
    t.shape = {k.numPages, k.pageSize, k.kvHeads, k.headDim};
    t.shapeText = "[num_pages, page_size, kv_heads, head_dim]";
  } else if (n == "value_cache") {
    t.shape = {k.numPages, k.pageSize, k.kvHeads, k.valueDim};
    t.shapeText = "[num_pages, page_size, kv_heads, value_dim]";
  } else if (n == "block_table") {
    t.dtype = DType::I32;
    t.dtypeNote = " (block_table holds i32 page indices)";
    t.shape = {k.batch, k.maxPagesPerSeq};
    t.shapeText = "[batch, max_pages_per_seq]";
  } else { // cache_seqlens
    t.dtype = DType::I32;
    t.dtypeNote = " (cache_seqlens holds i32 lengths)";
    t.shape = {k.batch};
    t.shapeText = "[batch]";
  }
  return t;
}

/// The ABI family of kernel `k`.
abi::Family familyOf(const KernelSpec &k) {
  if (k.isMerge())
    return abi::Family::Merge;
  if (k.isPaged())
    return abi::Family::Paged;
  if (k.isGrad())
    return k.isVarlen() ? abi::Family::PackedBackward : abi::Family::Backward;
  if (k.isForwardStage())
    return abi::Family::SplitKV;
  return k.isVarlen() ? abi::Family::PackedForward : abi::Family::Forward;
}

/// The ABI's inputs from the kernel's fields. seed and offset are expected
/// with dropout from the RNG, and otherwise when the list names one of them
/// (`rngListed`: then both, together); a given keep mask excludes them.
abi::Features featuresOf(const KernelSpec &k, abi::Family family,
                         bool rngListed) {
  abi::Features f;
  f.mask = k.hasMask;
  f.dropoutMask = k.hasDropoutMask;
  f.rng = !k.hasDropoutMask && (k.dropoutP > 0.0f || rngListed);
  f.lse = k.hasLse;
  f.combine = k.stage == GradStage::Combine;
  f.gradients = stageGradients(k.stage);
  const std::vector<std::string> sizes = abi::sizeNames(family);
  // A paged group's sizes: batch, num_pages (key-side), max_pages_per_seq.
  const bool paged = family == abi::Family::Paged;
  bool *runtime[] = {&f.runtimeBatch,
                     paged ? &f.runtimeKeyRows : &f.runtimeQueryRows,
                     paged ? &f.runtimeMaxPages : &f.runtimeKeyRows};
  for (size_t i = 0; i < sizes.size(); ++i)
    *runtime[i] = sizeOf(k, sizes[i]) == kRuntimeSize;
  f.splitsAtLaunch = k.splitsAtLaunch();
  return f;
}

/// What tensor parameter `n` of a `family` kernel must be.
TensorExpectation tensorOf(const KernelSpec &k, abi::Family family,
                           const std::string &n) {
  if (n == "partial_output" || n == "partial_lse")
    return family == abi::Family::Merge ? mergeTensor(k, n)
                                        : splitKVWorkspace(k, n);
  switch (family) {
  case abi::Family::Merge:
    return mergeTensor(k, n);
  case abi::Family::PackedForward:
  case abi::Family::PackedBackward:
    return packedTensor(k, n);
  case abi::Family::Paged:
    if (n != "query" && n != "output" && n != "lse")
      return pagedTensor(k, n);
    break;
  case abi::Family::Forward:
  case abi::Family::SplitKV:
  case abi::Family::Backward:
    break;
  }
  return denseTensor(k, n);
}

/// Why the kernel has parameter `p`, for the message when it is missing;
/// "" for one every kernel of its family has.
std::string whyListed(const KernelSpec &k, const abi::Param &p) {
  if (p.name == "mask" || p.name == "dropout_mask")
    return " (the kernel's field '" + p.name + "' is set)";
  if (p.name == "lse" && p.isOutput())
    return " (has_lse is true)";
  if (p.kind == abi::ParamKind::U64)
    return k.dropoutP > 0.0f
               ? " (dropout_p > 0 needs the seed and offset parameters)"
               : " (seed and offset come together)";
  if (p.name == "num_splits")
    return " (codegen.splits is null: the split count S is decided at "
           "launch)";
  if (p.kind == abi::ParamKind::I32)
    return " (the kernel's " + p.name + " is null: a run-time size)";
  return "";
}

/// Why a kernel must not list `name`, a parameter of its family's that its
/// fields leave out.
std::string whyExcluded(const KernelSpec &k, const std::string &name) {
  const bool splitStage = k.stage == GradStage::SplitKV;
  if ((name == "output" || name == "lse") && splitStage)
    return "listed, but a \"split_kv\" kernel writes only the workspaces "
           "partial_output and partial_lse (" +
           name + " is the \"combine\" stage's)";
  if (name == "lse")
    return "listed, but has_lse is false";
  if (name == "mask")
    return "listed, but the kernel's field 'mask' is null";
  if (name == "dropout_mask")
    return "listed, but the kernel has no field 'dropout_mask'";
  if (name == "seed" || name == "offset")
    return "listed, but the kernel reads its keep bits from 'dropout_mask' "
           "(seed/offset and dropout_mask are exclusive)";
  if (name == "grad_query" || name == "grad_key" || name == "grad_value")
    return notThisStage(k.stage, name);
  if (name == "num_splits")
    return "listed, but codegen.splits is " + std::to_string(k.splits) +
           " (num_splits is only for a split count decided at launch, "
           "codegen.splits null)";
  return "listed, but the kernel's '" + name + "' is " +
         std::to_string(sizeOf(k, name)) +
         " (a size parameter is only for a run-time size, null)";
}

/// "a, b, c" of order[from, to).
std::string orderNames(const ParamTable &t, size_t from, size_t to) {
  std::string s;
  for (size_t i = from; i < to; ++i)
    s += (s.empty() ? "" : ", ") + t.order[i].name;
  return s;
}

/// How messages name the list and whom an unknown name is unknown to.
void describe(ParamTable &t, const KernelSpec &k, abi::Family family) {
  const std::string stage = stageName(k.stage);
  switch (family) {
  case abi::Family::Forward:
    t.title = "the forward parameters";
    return;
  case abi::Family::PackedForward:
    t.title = "the \"varlen_attention\" parameters";
    t.unknownTo = " for a \"varlen_attention\" kernel";
    return;
  case abi::Family::SplitKV:
    t.title = "the \"" + stage + "\" parameters";
    t.unknownTo = " for a \"" + stage + "\" kernel";
    return;
  case abi::Family::Paged:
    t.title = "the paged \"" + stage + "\" parameters";
    t.unknownTo = " for a \"paged_attention\" kernel";
    return;
  case abi::Family::Merge:
    t.title = "the \"merge_partials\" parameters";
    t.unknownTo = " for a \"merge_partials\" kernel";
    return;
  case abi::Family::Backward:
    t.title = "the \"" + stage + "\" parameters";
    t.unknownTo = " for a backward kernel";
    return;
  case abi::Family::PackedBackward:
    t.title = "the packed \"" + stage + "\" parameters";
    t.unknownTo = " for a \"varlen_attention_grad\" kernel";
    return;
  }
}

/// The backward's order as messages give it: "query, ..., grad_query,
/// batch"; a prep kernel, which has no outputs, says where its workspaces
/// go.
std::string backwardOrderText(const ParamTable &t, const KernelSpec &k) {
  size_t numFixed = t.order.size();
  while (numFixed > 0 && t.order[numFixed - 1].kind == ParamSpec::Kind::I32)
    --numFixed;
  const bool noOutputs = stageGradients(k.stage) == abi::GradOutputs::None;
  std::string text = orderNames(t, 0, numFixed);
  if (noOutputs)
    text += ", then its workspaces";
  if (numFixed < t.order.size())
    text += (noOutputs ? ", then " : ", ") +
            orderNames(t, numFixed, t.order.size());
  return text;
}

ParamSpec::Kind kindOf(abi::ParamKind kind) {
  switch (kind) {
  case abi::ParamKind::U64:
    return ParamSpec::Kind::U64;
  case abi::ParamKind::I32:
    return ParamSpec::Kind::I32;
  case abi::ParamKind::Tensor:
    break;
  }
  return ParamSpec::Kind::Tensor;
}

} // namespace

ParamTable paramTable(const KernelSpec &k, bool rngListed) {
  const abi::Family family = familyOf(k);
  const abi::ParameterList list =
      abi::parameterList(family, featuresOf(k, family, rngListed));
  ParamTable t;
  describe(t, k, family);
  t.known = abi::knownNames(family);
  t.workspaces =
      family == abi::Family::Backward || family == abi::Family::PackedBackward;
  t.numInputs = list.workspacesAt;
  if (family == abi::Family::PackedBackward)
    t.workspaceShapes = packedWorkspaceShapes(k);
  for (const abi::Param &p : list.params) {
    ExpectedParam e;
    e.name = p.name;
    e.kind = kindOf(p.kind);
    e.why = whyListed(k, p);
    if (p.kind == abi::ParamKind::Tensor) {
      e.tensor = tensorOf(k, family, p.name);
      e.tensor.output = p.isOutput();
    }
    t.order.push_back(std::move(e));
  }
  for (const std::string &name : t.known)
    if (std::none_of(list.params.begin(), list.params.end(),
                     [&](const abi::Param &p) { return p.name == name; }))
      t.excluded[name] = whyExcluded(k, name);
  t.orderText =
      t.workspaces ? backwardOrderText(t, k) : orderNames(t, 0, t.order.size());
  return t;
}

bool listsRng(const Value &v) {
  bool listed = false;
  if (v.isArray())
    for (const Value &pv : v.array)
      if (pv.isObject())
        if (const Value *n = pv.find("name"))
          listed = listed || (n->isString() &&
                              (n->text == "seed" || n->text == "offset"));
  return listed;
}

} // namespace attnrt::validation
