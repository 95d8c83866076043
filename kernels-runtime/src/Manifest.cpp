//===- Manifest.cpp - the attn-kernels-v1 kernel manifest -----------------===//
//
// The names and KernelSpec queries of Manifest.h, the groups of a
// manifest, and loading (parseManifest, loadManifest). The validation is
// ManifestValidator.h's Validator, whose parts are in ManifestValidator.cpp
// (the manifest and kernel objects), ManifestOpFields.cpp (packed, paged
// and merge fields), ManifestLaunch.cpp (grids and launches),
// ManifestParamTables.cpp and ManifestParams.cpp (parameter lists) and
// ManifestGroups.cpp (groups and forward links); ManifestSizes.cpp binds
// run-time sizes and split counts.
//
//===----------------------------------------------------------------------===//

#include "attnrt/Manifest.h"
#include "ManifestValidator.h"
#include "attnopt/KernelAbi/KernelParameters.h"
#include "attnrt/Json.h"
#include "attnrt/Util.h"

#include <algorithm>
#include <map>

namespace attnrt {

using json::Value;
using validation::Validator;

const char *causalName(CausalMode c) {
  switch (c) {
  case CausalMode::None:
    return "none";
  case CausalMode::TopLeft:
    return "top_left";
  case CausalMode::BottomRight:
    return "bottom_right";
  }
  return "?";
}

const char *opName(KernelOp op) {
  switch (op) {
  case KernelOp::Attention:
    return "attention";
  case KernelOp::AttentionGrad:
    return "attention_grad";
  case KernelOp::VarlenAttention:
    return "varlen_attention";
  case KernelOp::VarlenAttentionGrad:
    return "varlen_attention_grad";
  case KernelOp::PagedAttention:
    return "paged_attention";
  case KernelOp::MergePartials:
    return "merge_partials";
  }
  return "?";
}

std::vector<std::string> stageOutputs(GradStage s) {
  return attnopt::abi::gradientNames(attnopt::abi::stageGradients(s));
}

bool isWorkspaceName(const std::string &name) {
  const std::vector<std::string> &names = attnopt::abi::workspaceNames();
  return std::find(names.begin(), names.end(), name) != names.end();
}

int64_t ParamSpec::numElements() const {
  if (kind != Kind::Tensor)
    return 0;
  int64_t n = 1;
  for (int64_t d : shape)
    n *= d;
  return n;
}

const ParamSpec *KernelSpec::findParam(const std::string &n) const {
  for (const ParamSpec &p : params)
    if (p.name == n)
      return &p;
  return nullptr;
}

attnopt::ref::AttentionProblem KernelSpec::problem() const {
  attnopt::ref::AttentionProblem p;
  p.batch = batch;
  p.queryHeads = queryHeads;
  p.kvHeads = kvHeads;
  // A packed batch's lengths are its token totals (PackedBatch).
  p.queryLen = isVarlen() ? totalQueryTokens : queryLen;
  p.keyLen = isVarlen() ? totalKeyTokens : keyLen;
  p.headDim = headDim;
  p.valueDim = valueDim;
  p.scale = scale;
  p.causal = causal == CausalMode::None      ? attnopt::ref::Causal::None
             : causal == CausalMode::TopLeft ? attnopt::ref::Causal::TopLeft
                                             : attnopt::ref::Causal::BottomRight;
  p.hasWindow = hasWindow;
  p.windowLeft = windowLeft;
  p.windowRight = windowRight;
  p.hasSoftcap = hasSoftcap;
  p.softcap = softcap;
  p.maskKind = !hasMask ? attnopt::ref::MaskKind::None
               : maskDtype == DType::I1 ? attnopt::ref::MaskKind::Boolean
                                        : attnopt::ref::MaskKind::Additive;
  p.maskShape = maskShape;
  p.dropoutP = dropoutP;
  p.hasDropoutMask = hasDropoutMask;
  p.dropoutMaskShape = dropoutMaskShape;
  return p;
}

double KernelSpec::lengthProducts() const {
  // A bound paged kernel scores each sequence's cache; unbound, the
  // capacity (keyLen) of every sequence.
  if (isPaged() && !cacheSeqlens.empty()) {
    double keys = 0.0;
    for (int32_t len : cacheSeqlens)
      keys += double(len);
    return double(queryLen) * keys;
  }
  if (!isVarlen())
    return double(batch) * double(queryLen) * double(keyLen);
  double sum = 0.0;
  for (size_t b = 0; b + 1 < cuSeqlensQ.size() && b + 1 < cuSeqlensK.size();
       ++b)
    sum += double(cuSeqlensQ[b + 1] - cuSeqlensQ[b]) *
           double(cuSeqlensK[b + 1] - cuSeqlensK[b]);
  return sum;
}

double KernelSpec::forwardFlops() const {
  double f =
      2.0 * double(queryHeads) * lengthProducts() * double(headDim + valueDim);
  return flopsHalvedForCausal() ? f / 2.0 : f;
}

double KernelSpec::flops() const {
  // A split-KV group's products are all in its split_kv stage.
  if (!isGrad())
    return stage == GradStage::Combine || isMerge() ? 0.0 : forwardFlops();
  // The matrix products per (query, key) element: S = QK^T and dP = dO V^T
  // (D + Dv) in every stage that has any, then dV = P^T dO (Dv), dK = dS^T Q
  // (D) and dQ = dS K (D) where the stage computes them.
  int64_t perElement = 0;
  switch (stage) {
  case GradStage::DKDV:
    perElement = 2 * headDim + 2 * valueDim;
    break;
  case GradStage::DQ:
    perElement = 2 * headDim + valueDim;
    break;
  case GradStage::DKDVDQ:
    perElement = 3 * headDim + 2 * valueDim;
    break;
  case GradStage::None:
  case GradStage::Prep:
  case GradStage::DQConvert:
  case GradStage::SplitKV:
  case GradStage::Combine:
    return 0.0;
  }
  double f = 2.0 * double(queryHeads) * lengthProducts() * double(perElement);
  return flopsHalvedForCausal() ? f / 2.0 : f;
}

const KernelSpec *findKernel(const Manifest &m, const std::string &name) {
  for (const KernelSpec &k : m.kernels)
    if (k.name == name)
      return &k;
  return nullptr;
}

namespace {

/// The groups of the backward kernels of `m` (`forward` false; a kernel
/// without "group" is its own) or of its split-KV forward stages (`forward`
/// true; only explicit groups), ordered by their first kernel.
std::vector<GradGroup> collectGroups(const Manifest &m, bool forward) {
  std::vector<GradGroup> groups;
  // The index in `groups` of each explicit group (a tree rather than a scan
  // of the groups so far, which made many groups quadratic).
  std::map<std::string, size_t> explicitGroups;
  for (const KernelSpec &k : m.kernels) {
    if (forward ? k.isGrad() || k.group.empty() : !k.isGrad())
      continue;
    // Kernels without "group" are alone even when a group has their name.
    if (!k.group.empty()) {
      auto [at, inserted] = explicitGroups.emplace(k.group, groups.size());
      if (!inserted) {
        groups[at->second].kernels.push_back(&k);
        continue;
      }
    }
    groups.emplace_back();
    GradGroup &g = groups.back();
    g.name = k.group.empty() ? k.name : k.group;
    g.explicitGroup = !k.group.empty();
    g.kernels.push_back(&k);
  }
  return groups;
}

} // namespace

std::string memberList(const GradGroup &g) {
  std::string s;
  for (const KernelSpec *k : g.kernels)
    s += (s.empty() ? "" : ", ") + k->name + " (" + stageName(k->stage) + ")";
  return s;
}

std::vector<GradGroup> gradGroups(const Manifest &m) {
  return collectGroups(m, /*forward=*/false);
}

std::vector<GradGroup> forwardGroups(const Manifest &m) {
  return collectGroups(m, /*forward=*/true);
}

GradGroup findForwardGroup(const Manifest &m, const std::string &name) {
  for (GradGroup &g : forwardGroups(m))
    if (g.name == name)
      return g;
  return GradGroup{name, true, {}};
}

GradGroup gradGroupOf(const Manifest &m, const KernelSpec &k) {
  for (GradGroup &g : gradGroups(m))
    for (const KernelSpec *member : g.kernels)
      if (member == &k)
        return g;
  return GradGroup{k.name, false, {&k}};
}

uint64_t KernelSpec::bytesMovedBy(const ParamSpec &p) const {
  if (p.kind != ParamSpec::Kind::Tensor)
    return 0;
  // A paged cache is read only where the sequences' tokens are.
  if (isPaged() && !cacheSeqlens.empty() &&
      (p.name == "key_cache" || p.name == "value_cache")) {
    uint64_t tokens = 0;
    for (int32_t len : cacheSeqlens)
      tokens += uint64_t(std::max<int32_t>(len, 0));
    const int64_t width = p.name == "key_cache" ? headDim : valueDim;
    return tokens * uint64_t(kvHeads) * uint64_t(width) * dtypeSize(p.dtype);
  }
  return p.sizeBytes();
}

uint64_t KernelSpec::bytesMoved() const {
  uint64_t bytes = 0;
  for (const ParamSpec &p : params)
    bytes += bytesMovedBy(p);
  return bytes;
}

Manifest parseManifest(const std::string &text, const std::string &path) {
  Value root = json::parse(text, path);
  return Validator(path).run(root);
}

Manifest loadManifest(const std::string &path) {
  return parseManifest(readFile(path, "manifest"), path);
}

} // namespace attnrt
