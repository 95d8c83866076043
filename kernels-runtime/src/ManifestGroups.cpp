//===- ManifestGroups.cpp - groups and forward links ----------------------===//
//
// The checks across kernels: a backward group (one problem, every gradient
// written once, workspaces shared and initialized by a prep stage), a
// split-KV or paged forward group (split_kv then combine on one problem),
// and a backward kernel's "forward" (an existing forward writing lse,
// with the same problem).
//
//===----------------------------------------------------------------------===//

#include "ManifestValidator.h"

#include <algorithm>
#include <map>
#include <string>

namespace attnrt::validation {

namespace {

/// codegen.split_rule as the manifest writes it, or "null" when absent.
std::string splitRuleText(const SplitRule &r) {
  if (r.maxSplits == 0)
    return "null";
  return "{\"blocks_per_sm\": " + std::to_string(r.blocksPerSm) +
         ", \"max_splits\": " + std::to_string(r.maxSplits) +
         ", \"min_chunk_keys\": " + std::to_string(r.minChunkKeys) + "}";
}

/// The first problem field (dtype, sizes, scale, causal, window, softcap,
/// dropout_p, mask) in which two kernels differ, with both values as text;
/// an empty field when they have the same problem.
struct ProblemDifference {
  std::string field, theirs, ours;
};

ProblemDifference problemDifference(const KernelSpec &f, const KernelSpec &k) {
  auto num = [](double x) { return format("%.9g", x); };
  if (f.dtype != k.dtype)
    return {"dtype", dtypeName(f.dtype), dtypeName(k.dtype)};
  const struct {
    const char *field;
    int64_t theirs, ours;
  } sizes[] = {{"batch", f.batch, k.batch},
               {"query_heads", f.queryHeads, k.queryHeads},
               {"kv_heads", f.kvHeads, k.kvHeads},
               {"query_len", f.queryLen, k.queryLen},
               {"key_len", f.keyLen, k.keyLen},
               {"total_query_tokens", f.totalQueryTokens, k.totalQueryTokens},
               {"total_key_tokens", f.totalKeyTokens, k.totalKeyTokens},
               {"head_dim", f.headDim, k.headDim},
               {"value_dim", f.valueDim, k.valueDim},
               {"page_size", f.pageSize, k.pageSize},
               {"num_pages", f.numPages, k.numPages},
               {"max_pages_per_seq", f.maxPagesPerSeq, k.maxPagesPerSeq}};
  for (const auto &s : sizes)
    if (s.theirs != s.ours)
      return {s.field, sizeText(s.theirs), sizeText(s.ours)};
  if (f.scale != k.scale)
    return {"scale", num(f.scale), num(k.scale)};
  if (f.causal != k.causal)
    return {"causal", causalName(f.causal), causalName(k.causal)};
  auto window = [](const KernelSpec &x) {
    return x.hasWindow ? "[" + std::to_string(x.windowLeft) + ", " +
                             std::to_string(x.windowRight) + "]"
                       : std::string("null");
  };
  if (window(f) != window(k))
    return {"window", window(f), window(k)};
  auto softcap = [&](const KernelSpec &x) {
    return x.hasSoftcap ? num(x.softcap) : std::string("null");
  };
  if (softcap(f) != softcap(k))
    return {"softcap", softcap(f), softcap(k)};
  if (f.softcapApprox != k.softcapApprox)
    return {"softcap_approx", f.softcapApprox ? "true" : "false",
            k.softcapApprox ? "true" : "false"};
  if (f.dropoutP != k.dropoutP)
    return {"dropout_p", num(f.dropoutP), num(k.dropoutP)};
  auto mask = [](const KernelSpec &x) {
    return x.hasMask ? std::string(dtypeName(x.maskDtype)) +
                           formatShape({x.maskShape.begin(), x.maskShape.end()})
                     : std::string("null");
  };
  if (mask(f) != mask(k))
    return {"mask", mask(f), mask(k)};
  return {};
}

/// The JSON object of kernel `k` (of `m`, parsed from `kernels`).
const Value &kernelValue(const Value &kernels, const Manifest &m,
                         const KernelSpec &k) {
  return kernels.array[size_t(&k - m.kernels.data())];
}

/// The JSON object of parameter `name` of a validated kernel object.
const Value &paramValue(const Value &kernel, const std::string &name) {
  const Value &params = *kernel.find("params");
  for (const Value &pv : params.array)
    if (pv.find("name")->text == name)
      return pv;
  return params;
}

/// "group 'g'", or how a kernel without a "group" field is grouped.
std::string groupText(const GradGroup &g) {
  return g.explicitGroup ? "group '" + g.name + "'"
                         : std::string("its own group (no \"group\" field)");
}

} // namespace

void Validator::checkGroup(const GradGroup &g, const Value &kernels,
                           const Manifest &m) {
  if (g.explicitGroup) {
    checkGroupProblem(g, kernels, m);
    checkGroupOutputs(g, kernels, m);
  }
  checkGroupWorkspaces(g, kernels, m);
}

/// The kernels of a group work on one problem: the same problem fields as
/// the group's first kernel, and the same "deterministic" and "forward".
void Validator::checkGroupProblem(const GradGroup &g, const Value &kernels,
                                  const Manifest &m) {
  const KernelSpec &first = *g.kernels.front();
  for (const KernelSpec *k : g.kernels) {
    ProblemDifference d = problemDifference(first, *k);
    if (first.op != k->op)
      d = {"op", opName(first.op), opName(k->op)};
    if (d.field.empty() && first.deterministic != k->deterministic)
      d = {"deterministic", first.deterministic ? "true" : "false",
           k->deterministic ? "true" : "false"};
    auto orNull = [](const std::string &s) {
      return s.empty() ? std::string("null") : s;
    };
    if (d.field.empty() && first.forward != k->forward)
      d = {"forward", orNull(first.forward), orNull(k->forward)};
    // A split-KV forward: the group writes lse or not, and its stages
    // index the shared workspaces by the same number of chunks.
    if (d.field.empty() && first.hasLse != k->hasLse)
      d = {"has_lse", first.hasLse ? "true" : "false",
           k->hasLse ? "true" : "false"};
    std::string why = "the kernels of a group must have the same problem";
    if (d.field.empty() && first.splits != k->splits) {
      d = {"codegen.splits", sizeText(first.splits), sizeText(k->splits)};
      why = "the stages of a split-KV group share the workspaces "
            "partial_output and partial_lse of codegen.splits chunks";
    }
    if (d.field.empty() && first.splitRule != k->splitRule) {
      d = {"codegen.split_rule", splitRuleText(first.splitRule),
           splitRuleText(k->splitRule)};
      why = "the stages of a split-KV group take one split count, decided "
            "at launch by one rule";
    }
    if (d.field.empty())
      continue;
    context = "kernel '" + k->name + "': ";
    fail(*kernelValue(kernels, m, *k).find("group"),
         "group: kernel '" + first.name + "' of group '" + g.name + "' has " +
             d.field + " = " + d.theirs + ", this kernel " + d.ours + " (" +
             why + ")");
  }
}

/// Each gradient of an attn.attention_grad is written by exactly one kernel
/// of its group.
void Validator::checkGroupOutputs(const GradGroup &g, const Value &kernels,
                                  const Manifest &m) {
  const std::string rule = "each of grad_query, grad_key and grad_value is "
                           "written by exactly one kernel of a group";
  std::map<std::string, const KernelSpec *> writer;
  for (const KernelSpec *k : g.kernels)
    for (const std::string &out : stageOutputs(k->stage)) {
      if (const KernelSpec *other = writer[out]) {
        context = "kernel '" + k->name + "': ";
        fail(*kernelValue(kernels, m, *k).find("group"),
             "group: " + out + " is written by kernel '" + other->name + "' (" +
                 stageName(other->stage) + ") and by this kernel (" +
                 stageName(k->stage) + ") of group '" + g.name + "'; " + rule);
      }
      writer[out] = k;
    }
  for (const char *out : {"grad_query", "grad_key", "grad_value"}) {
    if (writer[out])
      continue;
    const std::string members = memberList(g);
    const KernelSpec &last = *g.kernels.back();
    context = "kernel '" + last.name + "': ";
    fail(*kernelValue(kernels, m, last).find("group"),
         "group: no kernel of group '" + g.name + "' writes " + out +
             " (its kernels: " + members + "); " + rule);
  }
}

/// A workspace is one buffer of the group: the same shape wherever it is
/// listed, and initialized by a "prep" kernel before any other kernel uses
/// it (so the first kernel listing it must be a prep stage).
void Validator::checkGroupWorkspaces(const GradGroup &g, const Value &kernels,
                                     const Manifest &m) {
  std::map<std::string, const KernelSpec *> firstUser;
  for (const KernelSpec *k : g.kernels)
    for (const ParamSpec &p : k->params) {
      if (!p.isWorkspace)
        continue;
      const Value &pv = paramValue(kernelValue(kernels, m, *k), p.name);
      context = "kernel '" + k->name + "': ";
      const KernelSpec *first = firstUser[p.name];
      if (!first) {
        if (k->stage != GradStage::Prep)
          fail(*pv.find("role"),
               "param '" + p.name + "': the first kernel of " + groupText(g) +
                   " that lists workspace '" + p.name + "' is this \"" +
                   stageName(k->stage) +
                   "\" kernel; it must be a \"prep\" "
                   "kernel (prep initializes the workspaces)");
        firstUser[p.name] = k;
        continue;
      }
      const ParamSpec &theirs = *first->findParam(p.name);
      if (theirs.shape != p.shape)
        fail(*pv.find("shape"),
             "param '" + p.name + "': shape " + formatShape(p.shape) +
                 " differs from " + formatShape(theirs.shape) + " in kernel '" +
                 first->name + "' of " + groupText(g) +
                 " (a workspace is one buffer shared by the group)");
      // With the same (null) shape, the rounding must agree too, or the
      // kernels would index one buffer with different row counts.
      if (theirs.queryLenMultiple != p.queryLenMultiple)
        fail(*pv.find("query_len_multiple"),
             "param '" + p.name + "': query_len_multiple " +
                 std::to_string(p.queryLenMultiple) + " differs from " +
                 std::to_string(theirs.queryLenMultiple) + " in kernel '" +
                 first->name + "' of " + groupText(g) +
                 " (a workspace is one buffer shared by the group)");
    }
}

/// A split-KV forward group: exactly one "split_kv" kernel followed (in
/// manifest order, the launch order) by one "combine" kernel, on one
/// problem and with the same codegen.splits, so that the workspaces they
/// share have one shape. (output and lse are the combine stage's by the
/// stages' parameter tables; the split_kv stage writes every element of
/// both workspaces, so no prep stage initializes them.) Its name must not
/// be a kernel's: a backward kernel's "forward" names either.
void Validator::checkForwardGroup(const GradGroup &g, const Value &kernels,
                                  const Manifest &m) {
  const GradStage order[] = {GradStage::SplitKV, GradStage::Combine};
  size_t good = 0;
  while (good < 2 && good < g.kernels.size() &&
         g.kernels[good]->stage == order[good])
    ++good;
  if (good < 2 || g.kernels.size() > 2) {
    const KernelSpec &at = *g.kernels[std::min(good, g.kernels.size() - 1)];
    context = "kernel '" + at.name + "': ";
    fail(*kernelValue(kernels, m, at).find("group"),
         "group: group '" + g.name + "' has the kernels " + memberList(g) +
             "; a " +
             (g.kernels.front()->isPaged()
                  ? "paged forward group (\"op\": \"paged_attention\")"
                  : "split-KV forward group") +
             " is one \"split_kv\" kernel followed by one \"combine\" "
             "kernel (launched in manifest order)");
  }
  auto kernel = kernelIndex.find(g.name);
  if (kernel != kernelIndex.end()) {
    const KernelSpec &first = *g.kernels.front();
    context = "kernel '" + first.name + "': ";
    fail(*kernelValue(kernels, m, first).find("group"),
         "group: '" + g.name + "' is also the name of kernels[" +
             std::to_string(kernel->second) +
             "] (a backward kernel's \"forward\" names a kernel or a "
             "split-KV forward group, so the names must differ)");
  }
  checkGroupProblem(g, kernels, m);
}

void Validator::checkForwardLink(const Value &fv, const KernelSpec &k,
                                 const Manifest &m) {
  auto at = kernelIndex.find(k.forward);
  const KernelSpec *f =
      at == kernelIndex.end() ? nullptr : &m.kernels[at->second];
  std::string who = f ? "forward: kernel '" + f->name + "'" : "";
  // Or a split-KV forward group, which stands for its combine stage (the
  // one writing output and lse); checkForwardGroup made its stages agree.
  const GradGroup group = f ? GradGroup() : findForwardGroup(m, k.forward);
  if (!group.kernels.empty()) {
    f = group.kernels.back();
    who = "forward: forward group '" + group.name + "'";
  }
  if (!f) {
    std::string names, groups;
    for (const KernelSpec &o : m.kernels)
      if (!o.isGrad() && !o.isForwardStage() && !o.isMerge())
        names += (names.empty() ? "" : ", ") + o.name;
    for (const GradGroup &g : forwardGroups(m))
      groups += (groups.empty() ? "" : ", ") + g.name;
    fail(fv, "forward: no kernel named '" + k.forward +
                 "' in this manifest (its forward kernels: " +
                 (names.empty() ? std::string("none") : names) +
                 (groups.empty() ? ""
                                 : "; its split-KV forward groups: " + groups) +
                 ")");
  }
  if (group.kernels.empty() && f->isForwardStage())
    fail(fv, who + " is the \"" + stageName(f->stage) +
                 "\" stage of the split-KV forward group '" + f->group +
                 "': name the group (\"forward\": \"" + f->group + "\")");
  if (f->isGrad())
    fail(fv, who + " is a backward kernel (\"op\": \"" + opName(f->op) +
                 "\"), not a forward one");
  if (f->isPaged())
    fail(fv, who + " is a paged forward (\"op\": \"paged_attention\"), "
                   "which has no backward kernels");
  if (f->isMerge())
    fail(fv, who + " is a merge kernel (\"op\": \"merge_partials\"), not "
                   "a forward one");
  // A dense backward runs on a dense forward, a packed one on a packed
  // forward: the two lay out output and lse differently.
  if (f->isVarlen() != k.isVarlen())
    fail(fv, who + " is a " + (f->isVarlen() ? "packed" : "dense") +
                 " forward kernel (\"op\": \"" + opName(f->op) + "\"), but " +
                 "this \"" + opName(k.op) + "\" kernel needs a \"" +
                 (k.isVarlen() ? "varlen_attention" : "attention") +
                 "\" forward");
  if (!f->hasLse)
    fail(fv, who + " does not write lse (has_lse is false); the backward "
                   "needs the forward's lse");
  ProblemDifference d = problemDifference(*f, k);
  if (!d.field.empty())
    fail(fv, who + " has " + d.field + " = " + d.theirs + ", this kernel " +
                 d.ours +
                 " (a backward kernel must have its forward's "
                 "problem)");
  if (f->hasDropoutMask)
    fail(fv, who + " has a dropout_mask, which no backward kernel supports");
  if (k.dropoutP > 0.0f &&
      (!f->findParam("seed") || !f->findParam("offset")))
    fail(fv, who + " has no seed/offset parameters, but dropout_p > 0");
}

} // namespace attnrt::validation
