//===- KernelParameters.h - the kernels' parameter lists, once --*- C++ -*-===//
//
// The contract between the compiler and kernels-runtime: which parameters a
// generated kernel takes, in which order, of which kind and element type
// (docs/kernel-manifest.md, "Parameters" and the sections of each kernel
// family). The compiler's describe functions build every kernel's parameter
// list from parameterList(); kernels-runtime's manifest validator checks
// every manifest's list against the same function, adding only what it
// knows of the problem (shapes, the reasons it gives in its messages). So
// the order is written once, here.
//
// Plain C++17 without LLVM, like lib/Reference: kernels-runtime builds it on
// a machine with only the CUDA toolkit.
//
//===----------------------------------------------------------------------===//

#ifndef ATTNOPT_KERNELABI_KERNELPARAMETERS_H
#define ATTNOPT_KERNELABI_KERNELPARAMETERS_H

#include <cstddef>
#include <string>
#include <vector>

namespace attnopt::abi {

/// How a parameter is passed: a tensor's global address, a u64 by value
/// (seed, offset) or an i32 by value (a run-time size, num_splits). A TMA
/// tensor map (kind "tensor_map") is not in the lists: it follows every
/// other parameter and names the tensor it maps.
enum class ParamKind { Tensor, U64, I32 };

/// What a tensor parameter is to the kernel.
enum class ParamRole {
  Input,
  Output,
  /// An f32 scratch buffer the kernels of one group share (split-KV
  /// partial results; a backward group's row_dot, lse_log2, dq_accum).
  Workspace
};

/// The element type of a tensor parameter.
enum class ElementType {
  Problem, ///< the attention's dtype (query, key, value, output, ...)
  F32,     ///< lse and workspaces
  I32,     ///< sequence offsets, block tables, cache lengths
  Mask,    ///< the op's mask dtype (i1 or a float)
  Keep,    ///< a dropout keep mask: i1
  Partial, ///< merge_partials' partial_output: its own dtype
};

/// One parameter of a kernel.
struct Param {
  std::string name;
  ParamKind kind = ParamKind::Tensor;
  ParamRole role = ParamRole::Input;
  ElementType element = ElementType::Problem;

  bool isOutput() const { return role == ParamRole::Output; }
};

/// The kernel families, each with its own parameter order.
enum class Family {
  Forward,        ///< attn.attention in one kernel
  PackedForward,  ///< attn.varlen_attention
  SplitKV,        ///< a stage of a split-KV forward group (split_kv, combine)
  Paged,          ///< a stage of attn.paged_attention's group
  Merge,          ///< attn.merge_partials
  Backward,       ///< a stage of attn.attention_grad's group
  PackedBackward, ///< a stage of attn.varlen_attention_grad's group
};

/// A backward stage by the gradients it writes.
enum class GradOutputs {
  None,     ///< prep: workspaces only
  KeyValue, ///< dkdv, dkdv_dq: grad_key, grad_value
  Query,    ///< dq, dq_convert: grad_query
};

/// The stage of a kernel in its group (the manifest's "stage"). Backward
/// stages, by what each writes: prep no gradient (it initializes the
/// workspaces), dkdv and dkdv_dq grad_key and grad_value (dkdv_dq also adds
/// dS K into the dq_accum workspace), dq and dq_convert grad_query
/// (dq_convert from dq_accum). Forward stages of a split-KV or paged group:
/// split_kv writes each key chunk's partial_output and partial_lse
/// workspaces, combine output and lse from them. None for a kernel on its
/// own.
enum class Stage { None, Prep, DKDV, DQ, DKDVDQ, DQConvert, SplitKV, Combine };

/// "none", "prep", "dkdv", "dq", "dkdv_dq", "dq_convert", "split_kv",
/// "combine": the manifest's spelling, and the kernel names' infix.
const char *stageName(Stage stage);

/// The stage named `name` (stageName's spelling); false when none is.
bool parseStage(const std::string &name, Stage &stage);

/// prep, dkdv, dq, dkdv_dq, dq_convert.
bool isBackwardStage(Stage stage);

/// The gradients `stage` writes: none for prep and the forward stages.
GradOutputs stageGradients(Stage stage);

/// What a kernel's parameter list depends on besides its family. Each
/// field applies to the families its comment names and is ignored by the
/// others.
struct Features {
  bool mask = false;        ///< Forward, SplitKV, Backward: a mask tensor
  bool dropoutMask = false; ///< Forward: a given keep mask
  bool rng = false;         ///< Forward, packed, Backward: seed and offset
  bool lse = false;         ///< forward results: lse is written
  bool combine = false;     ///< SplitKV, Paged: the combine stage
  GradOutputs gradients = GradOutputs::None; ///< backward families
  /// The run-time sizes: batch, then the query rows (query_len;
  /// total_query_tokens of a packed batch), then the keys (key_len;
  /// total_key_tokens; a paged cache's num_pages), then num_splits where
  /// a split-KV or paged group's chunk count is decided at launch.
  bool runtimeBatch = false, runtimeQueryRows = false, runtimeKeyRows = false,
       splitsAtLaunch = false;
  /// Paged: the block table's width (max_pages_per_seq) is a run-time size.
  bool runtimeMaxPages = false;
};

/// A kernel's parameter list (tensor maps aside).
struct ParameterList {
  std::vector<Param> params;
  /// Backward families: a stage lists its workspaces (those it uses, in
  /// the compiler's order) before params[workspacesAt], after its inputs.
  /// params.size() for the other families.
  size_t workspacesAt = 0;
};

/// The parameters of a kernel of `family` with `features`, in order.
ParameterList parameterList(Family family, const Features &features);

/// The size parameters of `family` in their order (see Features): batch,
/// query_len, key_len; batch, total_query_tokens, total_key_tokens for the
/// packed families; batch, num_pages, max_pages_per_seq for a paged group;
/// none for a merge.
/// The paged and split-KV families add num_splits after them.
std::vector<std::string> sizeNames(Family family);

/// Every name a kernel of `family` may list (the backward workspaces and
/// tensor maps aside), in the order of a list that has them all.
std::vector<std::string> knownNames(Family family);

/// The backward workspaces: row_dot, lse_log2, dq_accum.
const std::vector<std::string> &workspaceNames();

/// The gradients a backward stage writes, in parameter order.
std::vector<std::string> gradientNames(GradOutputs outputs);

} // namespace attnopt::abi

#endif // ATTNOPT_KERNELABI_KERNELPARAMETERS_H
