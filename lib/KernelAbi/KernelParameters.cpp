//===- KernelParameters.cpp - the kernels' parameter lists, once ----------===//
//
// docs/kernel-manifest.md describes each order in prose; this is the one
// definition the compiler and kernels-runtime share.
//
//===----------------------------------------------------------------------===//

#include "attnopt/KernelAbi/KernelParameters.h"

namespace attnopt::abi {

namespace {

bool isPacked(Family f) {
  return f == Family::PackedForward || f == Family::PackedBackward;
}
bool isBackward(Family f) {
  return f == Family::Backward || f == Family::PackedBackward;
}
bool isGroupStage(Family f) {
  return f == Family::SplitKV || f == Family::Paged;
}

/// Appends parameters in order. `all` builds the list of every name a
/// family may have (knownNames): every optional parameter and every
/// gradient.
class ListBuilder {
public:
  ListBuilder(Family family, const Features &features, bool all)
      : family(family), f(features), all(all) {}

  ParameterList build() {
    switch (family) {
    case Family::Forward:
      forward();
      break;
    case Family::PackedForward:
      packedForward();
      break;
    case Family::SplitKV:
    case Family::Paged:
      groupStage();
      break;
    case Family::Merge:
      merge();
      break;
    case Family::Backward:
    case Family::PackedBackward:
      backward();
      break;
    }
    if (!isBackward(family))
      list.workspacesAt = list.params.size();
    return std::move(list);
  }

private:
  void add(const char *name, ParamKind kind, ParamRole role,
           ElementType element) {
    list.params.push_back(Param{name, kind, role, element});
  }
  void input(const char *name, ElementType element = ElementType::Problem) {
    add(name, ParamKind::Tensor, ParamRole::Input, element);
  }
  void output(const char *name, ElementType element = ElementType::Problem) {
    add(name, ParamKind::Tensor, ParamRole::Output, element);
  }
  void workspace(const char *name) {
    add(name, ParamKind::Tensor, ParamRole::Workspace, ElementType::F32);
  }
  void size(const std::string &name) {
    list.params.push_back(
        Param{name, ParamKind::I32, ParamRole::Input, ElementType::I32});
  }
  void rng() {
    if (all || f.rng)
      for (const char *n : {"seed", "offset"})
        add(n, ParamKind::U64, ParamRole::Input, ElementType::Problem);
  }
  void mask() {
    if (all || f.mask)
      input("mask", ElementType::Mask);
  }
  /// output and, where the kernel writes it, lse.
  void results() {
    output("output");
    if (all || f.lse)
      output("lse", ElementType::F32);
  }
  /// The run-time sizes among sizeNames(family), then num_splits.
  void sizes() {
    const std::vector<std::string> names = sizeNames(family);
    // A paged group's sizes are its batch, its page count (a key-side size)
    // and its block table's width.
    const bool paged = family == Family::Paged;
    const bool runtime[] = {f.runtimeBatch,
                            paged ? f.runtimeKeyRows : f.runtimeQueryRows,
                            paged ? f.runtimeMaxPages : f.runtimeKeyRows};
    for (size_t i = 0; i < names.size(); ++i)
      if (all || runtime[i])
        size(names[i]);
    if (isGroupStage(family) && (all || f.splitsAtLaunch))
      size("num_splits");
  }

  void forward() {
    for (const char *n : {"query", "key", "value"})
      input(n);
    mask();
    if (all || f.dropoutMask)
      input("dropout_mask", ElementType::Keep);
    rng();
    results();
    sizes();
  }

  void packedForward() {
    for (const char *n : {"query", "key", "value"})
      input(n);
    for (const char *n : {"cu_seqlens_q", "cu_seqlens_k"})
      input(n, ElementType::I32);
    rng();
    results();
    sizes();
  }

  /// Every stage of a split-KV or paged group takes the inputs and the
  /// workspaces; combine also writes the results.
  void groupStage() {
    input("query");
    if (family == Family::Paged) {
      for (const char *n : {"key_cache", "value_cache"})
        input(n);
      for (const char *n : {"block_table", "cache_seqlens"})
        input(n, ElementType::I32);
    } else {
      for (const char *n : {"key", "value"})
        input(n);
      mask();
    }
    for (const char *n : {"partial_output", "partial_lse"})
      workspace(n);
    if (all || f.combine)
      results();
    sizes();
  }

  void merge() {
    input("partial_output", ElementType::Partial);
    input("partial_lse", ElementType::F32);
    results();
  }

  void backward() {
    for (const char *n : {"query", "key", "value", "output"})
      input(n);
    input("lse", ElementType::F32);
    input("grad_output");
    if (isPacked(family)) {
      for (const char *n : {"cu_seqlens_q", "cu_seqlens_k"})
        input(n, ElementType::I32);
    } else {
      mask();
    }
    rng();
    list.workspacesAt = list.params.size();
    std::vector<std::string> grads =
        all ? std::vector<std::string>{"grad_query", "grad_key", "grad_value"}
            : gradientNames(f.gradients);
    for (const std::string &g : grads)
      list.params.push_back(
          Param{g, ParamKind::Tensor, ParamRole::Output, ElementType::Problem});
    sizes();
  }

  Family family;
  const Features &f;
  bool all;
  ParameterList list;
};

} // namespace

ParameterList parameterList(Family family, const Features &features) {
  return ListBuilder(family, features, /*all=*/false).build();
}

std::vector<std::string> sizeNames(Family family) {
  switch (family) {
  case Family::Merge:
    return {};
  case Family::Paged:
    return {"batch", "num_pages", "max_pages_per_seq"};
  case Family::PackedForward:
  case Family::PackedBackward:
    return {"batch", "total_query_tokens", "total_key_tokens"};
  case Family::Forward:
  case Family::SplitKV:
  case Family::Backward:
    break;
  }
  return {"batch", "query_len", "key_len"};
}

std::vector<std::string> knownNames(Family family) {
  Features none;
  std::vector<std::string> names;
  for (const Param &p : ListBuilder(family, none, /*all=*/true).build().params)
    names.push_back(p.name);
  return names;
}

const std::vector<std::string> &workspaceNames() {
  static const std::vector<std::string> names = {"row_dot", "lse_log2",
                                                 "dq_accum"};
  return names;
}

std::vector<std::string> gradientNames(GradOutputs outputs) {
  switch (outputs) {
  case GradOutputs::None:
    return {};
  case GradOutputs::KeyValue:
    return {"grad_key", "grad_value"};
  case GradOutputs::Query:
    break;
  }
  return {"grad_query"};
}

const char *stageName(Stage stage) {
  switch (stage) {
  case Stage::None:
    return "none";
  case Stage::Prep:
    return "prep";
  case Stage::DKDV:
    return "dkdv";
  case Stage::DQ:
    return "dq";
  case Stage::DKDVDQ:
    return "dkdv_dq";
  case Stage::DQConvert:
    return "dq_convert";
  case Stage::SplitKV:
    return "split_kv";
  case Stage::Combine:
    return "combine";
  }
  return "?";
}

bool parseStage(const std::string &name, Stage &stage) {
  for (Stage s :
       {Stage::None, Stage::Prep, Stage::DKDV, Stage::DQ, Stage::DKDVDQ,
        Stage::DQConvert, Stage::SplitKV, Stage::Combine})
    if (name == stageName(s)) {
      stage = s;
      return true;
    }
  return false;
}

bool isBackwardStage(Stage stage) {
  return stage != Stage::None && stage != Stage::SplitKV &&
         stage != Stage::Combine;
}

GradOutputs stageGradients(Stage stage) {
  switch (stage) {
  case Stage::DKDV:
  case Stage::DKDVDQ:
    return GradOutputs::KeyValue;
  case Stage::DQ:
  case Stage::DQConvert:
    return GradOutputs::Query;
  case Stage::None:
  case Stage::Prep:
  case Stage::SplitKV:
  case Stage::Combine:
    break;
  }
  return GradOutputs::None;
}

} // namespace attnopt::abi
