//===- ManifestParamTables.cpp - the parameter tables ---------------------===//
//
// What each op's parameter list must be (docs/kernel-manifest.md): one
// ParamTable per kernel, built from its fields, for the dense and packed
// forward, the split-KV and paged stages, the merge kernel and each
// backward stage, dense or packed; Validator::paramList checks every list
// against its table.
//
//===----------------------------------------------------------------------===//

#include "ManifestValidator.h"
#include "attnrt/Varlen.h"

#include <algorithm>
#include <iterator>
#include <map>
#include <string>
#include <vector>

namespace attnrt::validation {

namespace {

const char *const kParamNames[] = {
    "query",  "key",    "value", "mask",  "dropout_mask", "seed",
    "offset", "output", "lse",   "batch", "query_len",    "key_len"};

/// Every parameter name of a packed forward kernel (varlen_attention).
const char *const kVarlenParamNames[] = {
    "query",  "key",    "value", "cu_seqlens_q", "cu_seqlens_k",
    "seed",   "offset", "output", "lse",         "batch",
    "total_query_tokens",        "total_key_tokens"};

/// Every parameter name of a split-KV forward stage (split_kv, combine).
const char *const kSplitKVParamNames[] = {
    "query",  "key", "value", "mask",      "partial_output", "partial_lse",
    "output", "lse", "batch", "query_len", "key_len",        "num_splits"};

/// Every parameter name of a paged forward stage (paged_attention).
const char *const kPagedParamNames[] = {
    "query",         "key_cache",      "value_cache", "block_table",
    "cache_seqlens", "partial_output", "partial_lse", "output",
    "lse",           "batch",          "num_pages",   "num_splits"};

/// Every parameter name of a backward kernel (the workspaces aside).
const char *const kGradParamNames[] = {
    "query",    "key",        "value",     "output",  "lse",
    "grad_output",            "mask",      "seed",    "offset",
    "grad_query", "grad_key", "grad_value",
    "batch",    "query_len",  "key_len"};

/// Every parameter name of a packed backward kernel (the workspaces aside).
const char *const kVarlenGradParamNames[] = {
    "query",           "key",          "value",
    "output",          "lse",          "grad_output",
    "cu_seqlens_q",    "cu_seqlens_k", "seed",
    "offset",          "grad_query",   "grad_key",
    "grad_value",      "batch",        "total_query_tokens",
    "total_key_tokens"};

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

void expect(ParamTable &t, const std::string &name, ParamSpec::Kind kind,
            const std::string &why = "") {
  ExpectedParam e;
  e.name = name;
  e.kind = kind;
  e.why = why;
  t.order.push_back(std::move(e));
}

void expectTensor(ParamTable &t, const std::string &name,
                  TensorExpectation tensor, bool output,
                  const std::string &why = "") {
  expect(t, name, ParamSpec::Kind::Tensor, why);
  tensor.output = output;
  t.order.back().tensor = std::move(tensor);
}

/// seed and offset: required with dropout; otherwise optional, but listed
/// together (`listed`: the list names one of them).
void expectRng(ParamTable &t, const KernelSpec &k, bool listed) {
  if (!listed && !(k.dropoutP > 0.0f))
    return;
  const std::string why =
      k.dropoutP > 0.0f
          ? " (dropout_p > 0 needs the seed and offset parameters)"
          : " (seed and offset come together)";
  for (const char *n : {"seed", "offset"})
    expect(t, n, ParamSpec::Kind::U64, why);
}

/// The i32 size parameters `names`: those that are run-time sizes, in this
/// order; a static one must not be listed.
void expectSizes(ParamTable &t, const KernelSpec &k,
                 std::initializer_list<const char *> names) {
  for (const char *n : names) {
    const int64_t value = sizeOf(k, n);
    if (value == kRuntimeSize)
      expect(t, n, ParamSpec::Kind::I32,
             " (the kernel's " + std::string(n) + " is null: a run-time size)");
    else
      t.excluded[n] = "listed, but the kernel's '" + std::string(n) + "' is " +
                      std::to_string(value) +
                      " (a size parameter is only for a run-time size, null)";
  }
}

/// lse: an output of the forward exactly when has_lse.
void expectForwardLse(ParamTable &t, const KernelSpec &k,
                      TensorExpectation lse) {
  if (k.hasLse)
    expectTensor(t, "lse", std::move(lse), true, " (has_lse is true)");
  else
    t.excluded["lse"] = "listed, but has_lse is false";
}

/// "a, b, c" of order[from, to).
std::string orderNames(const ParamTable &t, size_t from, size_t to) {
  std::string s;
  for (size_t i = from; i < to; ++i)
    s += (s.empty() ? "" : ", ") + t.order[i].name;
  return s;
}

/// The dense mask: an input exactly when the kernel's field 'mask' is set.
void expectMask(ParamTable &t, const KernelSpec &k) {
  if (k.hasMask)
    expectTensor(t, "mask", denseTensor(k, "mask"), false,
                 " (the kernel's field 'mask' is set)");
  else
    t.excluded["mask"] = "listed, but the kernel's field 'mask' is null";
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

/// num_splits (i32), the last parameter of a split-KV stage (dense or
/// paged) whose split count is decided at launch; excluded otherwise.
void expectSplitCount(ParamTable &t, const KernelSpec &k) {
  if (k.splitsAtLaunch())
    expect(t, "num_splits", ParamSpec::Kind::I32,
           " (codegen.splits is null: the split count S is decided at "
           "launch)");
  else
    t.excluded["num_splits"] =
        "listed, but codegen.splits is " + std::to_string(k.splits) +
        " (num_splits is only for a split count decided at launch, "
        "codegen.splits null)";
}

/// The ABI of a split-KV forward stage (docs/kernel-manifest.md, "Split-KV
/// forward groups"): query, key, value, mask (with one), the workspaces
/// partial_output and partial_lse, then for combine only output and lse
/// (when has_lse), then the run-time sizes (batch, key_len; the query
/// length is static), then num_splits where the split count is decided at
/// launch.
ParamTable splitKVTable(const KernelSpec &k) {
  const std::string stage = stageName(k.stage);
  ParamTable t;
  t.title = "the \"" + stage + "\" parameters";
  t.unknownTo = " for a \"" + stage + "\" kernel";
  t.known.assign(std::begin(kSplitKVParamNames), std::end(kSplitKVParamNames));
  for (const char *n : {"query", "key", "value"})
    expectTensor(t, n, denseTensor(k, n), false);
  expectMask(t, k);
  for (const char *n : {"partial_output", "partial_lse"})
    expectTensor(t, n, splitKVWorkspace(k, n), false);
  if (k.stage == GradStage::Combine) {
    expectTensor(t, "output", denseTensor(k, "output"), true);
    expectForwardLse(t, k, denseTensor(k, "lse"));
  } else {
    for (const char *n : {"output", "lse"})
      t.excluded[n] = "listed, but a \"split_kv\" kernel writes only the "
                      "workspaces partial_output and partial_lse (" +
                      std::string(n) + " is the \"combine\" stage's)";
  }
  expectSizes(t, k, {"batch", "query_len", "key_len"});
  expectSplitCount(t, k);
  t.orderText = orderNames(t, 0, t.order.size());
  return t;
}

/// The dense forward ABI: query, key, value, mask, dropout_mask, seed,
/// offset, output, lse (those the kernel has), then the run-time sizes.
ParamTable forwardTable(const KernelSpec &k, bool rngListed) {
  if (k.isForwardStage())
    return splitKVTable(k);
  ParamTable t;
  t.title = "the forward parameters";
  t.known.assign(std::begin(kParamNames), std::end(kParamNames));
  for (const char *n : {"query", "key", "value"})
    expectTensor(t, n, denseTensor(k, n), false);
  expectMask(t, k);
  if (k.hasDropoutMask) {
    expectTensor(t, "dropout_mask", denseTensor(k, "dropout_mask"), false,
                 " (the kernel's field 'dropout_mask' is set)");
    for (const char *n : {"seed", "offset"})
      t.excluded[n] = "listed, but the kernel reads its keep bits from "
                      "'dropout_mask' (seed/offset and dropout_mask are "
                      "exclusive)";
  } else {
    t.excluded["dropout_mask"] =
        "listed, but the kernel has no field 'dropout_mask'";
    expectRng(t, k, rngListed);
  }
  expectTensor(t, "output", denseTensor(k, "output"), true);
  expectForwardLse(t, k, denseTensor(k, "lse"));
  expectSizes(t, k, {"batch", "query_len", "key_len"});
  t.orderText = orderNames(t, 0, t.order.size());
  return t;
}

/// The packed forward ABI (docs/kernel-manifest.md): query, key, value,
/// cu_seqlens_q, cu_seqlens_k, seed and offset, output, lse (when has_lse),
/// then the run-time sizes among batch, total_query_tokens,
/// total_key_tokens.
ParamTable varlenTable(const KernelSpec &k, bool rngListed) {
  ParamTable t;
  t.title = "the \"varlen_attention\" parameters";
  t.unknownTo = " for a \"varlen_attention\" kernel";
  t.known.assign(std::begin(kVarlenParamNames), std::end(kVarlenParamNames));
  for (const char *n :
       {"query", "key", "value", "cu_seqlens_q", "cu_seqlens_k"})
    expectTensor(t, n, packedTensor(k, n), false);
  expectRng(t, k, rngListed);
  expectTensor(t, "output", packedTensor(k, "output"), true);
  expectForwardLse(t, k, packedTensor(k, "lse"));
  expectSizes(t, k, {"batch", "total_query_tokens", "total_key_tokens"});
  t.orderText = orderNames(t, 0, t.order.size());
  return t;
}

/// The backward ABI of one stage, dense or packed (docs/kernel-manifest.md,
/// "Parameters" and "Packed backward kernels"): the inputs query, key,
/// value, output, lse, grad_output, then the mask (dense) or the offsets
/// (packed), seed and offset; then the workspaces; the stage's gradients;
/// the run-time sizes.
ParamTable gradTable(const KernelSpec &k, bool rngListed) {
  const bool packed = k.isVarlen();
  auto tensor = [&](const std::string &n) {
    return packed ? packedTensor(k, n) : denseTensor(k, n);
  };
  ParamTable t;
  t.title = std::string("the ") + (packed ? "packed " : "") + "\"" +
            stageName(k.stage) + "\" parameters";
  t.unknownTo = packed ? " for a \"varlen_attention_grad\" kernel"
                       : " for a backward kernel";
  if (packed)
    t.known.assign(std::begin(kVarlenGradParamNames),
                   std::end(kVarlenGradParamNames));
  else
    t.known.assign(std::begin(kGradParamNames), std::end(kGradParamNames));
  t.workspaces = true;
  for (const char *n :
       {"query", "key", "value", "output", "lse", "grad_output"})
    expectTensor(t, n, tensor(n), false);
  if (packed) {
    for (const char *n : {"cu_seqlens_q", "cu_seqlens_k"})
      expectTensor(t, n, tensor(n), false);
    t.workspaceShapes = packedWorkspaceShapes(k);
  } else {
    expectMask(t, k);
  }
  expectRng(t, k, rngListed);
  t.numInputs = t.order.size();
  const std::vector<std::string> outputs = stageOutputs(k.stage);
  for (const std::string &o : outputs)
    expectTensor(t, o, tensor(o), true);
  for (const char *g : {"grad_query", "grad_key", "grad_value"})
    if (std::find(outputs.begin(), outputs.end(), g) == outputs.end())
      t.excluded[g] = notThisStage(k.stage, g);
  const size_t numFixed = t.order.size();
  if (packed)
    expectSizes(t, k, {"batch", "total_query_tokens", "total_key_tokens"});
  else
    expectSizes(t, k, {"batch", "query_len", "key_len"});
  // "query, ..., grad_query, batch": a prep kernel, which has no outputs,
  // says where its workspaces go.
  t.orderText = orderNames(t, 0, numFixed);
  if (outputs.empty())
    t.orderText += ", then its workspaces";
  if (numFixed < t.order.size())
    t.orderText += (outputs.empty() ? ", then " : ", ") +
                   orderNames(t, numFixed, t.order.size());
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

/// The ABI of a paged forward stage (docs/kernel-manifest.md, "Paged
/// key/value caches"): query, key_cache, value_cache, block_table,
/// cache_seqlens, the workspaces partial_output and partial_lse, then for
/// combine only output and lse (when has_lse), then the run-time sizes
/// among batch, num_pages, then num_splits where the split count is
/// decided at launch.
ParamTable pagedTable(const KernelSpec &k) {
  const std::string stage = stageName(k.stage);
  ParamTable t;
  t.title = "the paged \"" + stage + "\" parameters";
  t.unknownTo = " for a \"paged_attention\" kernel";
  t.known.assign(std::begin(kPagedParamNames), std::end(kPagedParamNames));
  expectTensor(t, "query", denseTensor(k, "query"), false);
  for (const char *n :
       {"key_cache", "value_cache", "block_table", "cache_seqlens"})
    expectTensor(t, n, pagedTensor(k, n), false);
  for (const char *n : {"partial_output", "partial_lse"})
    expectTensor(t, n, splitKVWorkspace(k, n), false);
  if (k.stage == GradStage::Combine) {
    expectTensor(t, "output", denseTensor(k, "output"), true);
    expectForwardLse(t, k, denseTensor(k, "lse"));
  } else {
    for (const char *n : {"output", "lse"})
      t.excluded[n] = "listed, but a \"split_kv\" kernel writes only the "
                      "workspaces partial_output and partial_lse (" +
                      std::string(n) + " is the \"combine\" stage's)";
  }
  expectSizes(t, k, {"batch", "num_pages"});
  expectSplitCount(t, k);
  t.orderText = orderNames(t, 0, t.order.size());
  return t;
}

/// The ABI of a merge kernel (docs/kernel-manifest.md, "Merging partial
/// results"): partial_output [S, d..., Dv] (partial_dtype), partial_lse [S,
/// d...] (f32), output [d..., Dv] (dtype), lse [d...] (f32, when has_lse);
/// d... is k.rowDims. No workspaces, no size parameters.
ParamTable mergeTable(const KernelSpec &k) {
  ParamTable t;
  t.title = "the \"merge_partials\" parameters";
  t.unknownTo = " for a \"merge_partials\" kernel";
  t.known = {"partial_output", "partial_lse", "output", "lse"};
  auto shapeOf = [&](bool split, bool value) {
    std::vector<int64_t> s;
    if (split)
      s.push_back(k.splits);
    s.insert(s.end(), k.rowDims.begin(), k.rowDims.end());
    if (value)
      s.push_back(k.valueDim);
    return s;
  };
  TensorExpectation partialOutput;
  partialOutput.dtype = k.partialDtype;
  partialOutput.dtypeNote = " (the kernel's partial_dtype)";
  partialOutput.shape = shapeOf(true, true);
  partialOutput.shapeText = "[splits, d..., value_dim]";
  expectTensor(t, "partial_output", partialOutput, false);
  TensorExpectation partialLse;
  partialLse.dtype = DType::F32;
  partialLse.dtypeNote = " (partial_lse holds f32 log-sum-exps)";
  partialLse.shape = shapeOf(true, false);
  partialLse.shapeText = "[splits, d...]";
  expectTensor(t, "partial_lse", partialLse, false);
  TensorExpectation output;
  output.dtype = k.dtype;
  output.shape = shapeOf(false, true);
  output.shapeText = "[d..., value_dim]";
  expectTensor(t, "output", output, true);
  TensorExpectation lse;
  lse.dtype = DType::F32;
  lse.dtypeNote = " (lse is f32)";
  lse.shape = shapeOf(false, false);
  lse.shapeText = "[d...]";
  expectForwardLse(t, k, lse);
  t.orderText = orderNames(t, 0, t.order.size());
  return t;
}

} // namespace

ParamTable paramTable(const KernelSpec &k, bool rngListed) {
  if (k.isMerge())
    return mergeTable(k);
  if (k.isPaged())
    return pagedTable(k);
  if (k.isGrad())
    return gradTable(k, rngListed);
  return k.isVarlen() ? varlenTable(k, rngListed) : forwardTable(k, rngListed);
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
