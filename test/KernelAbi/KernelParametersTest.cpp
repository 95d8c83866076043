//===- KernelParametersTest.cpp - the ABI's lists as the docs give them ---===//
//
// Each kernel family's parameter list, with and without its optional
// parameters, written out as docs/kernel-manifest.md gives it: a change to
// the order (which both the compiler and kernels-runtime take from
// abi::parameterList, so neither would notice) has to change this test and
// the docs with it.
//
//===----------------------------------------------------------------------===//

#include "attnopt/KernelAbi/KernelParameters.h"

#include <cstdio>
#include <string>

using namespace attnopt::abi;

namespace {

int failures = 0;

/// "query key value | output" with '|' at workspacesAt (backward), kinds as
/// suffixes (":u64", ":i32"), outputs as "out:", workspaces as "ws:", and
/// non-problem element types as "/f32", "/i32", "/mask", "/keep",
/// "/partial".
std::string render(const ParameterList &l) {
  std::string s;
  for (size_t i = 0; i < l.params.size(); ++i) {
    if (i == l.workspacesAt)
      s += "| ";
    const Param &p = l.params[i];
    if (p.role == ParamRole::Output)
      s += "out:";
    if (p.role == ParamRole::Workspace)
      s += "ws:";
    s += p.name;
    if (p.kind == ParamKind::U64)
      s += ":u64";
    if (p.kind == ParamKind::I32)
      s += ":i32";
    if (p.kind == ParamKind::Tensor) {
      switch (p.element) {
      case ElementType::F32:
        s += "/f32";
        break;
      case ElementType::I32:
        s += "/i32";
        break;
      case ElementType::Mask:
        s += "/mask";
        break;
      case ElementType::Keep:
        s += "/keep";
        break;
      case ElementType::Partial:
        s += "/partial";
        break;
      case ElementType::Problem:
        break;
      }
    }
    s += " ";
  }
  if (!s.empty())
    s.pop_back();
  return s;
}

void expectList(const char *what, Family family, const Features &f,
                const std::string &want) {
  const std::string got = render(parameterList(family, f));
  if (got == want)
    return;
  ++failures;
  std::printf("FAIL %s\n  expected: %s\n  got:      %s\n", what, want.c_str(),
              got.c_str());
}

void expectNames(const char *what, const std::vector<std::string> &got,
                 const std::string &want) {
  std::string s;
  for (const std::string &n : got)
    s += (s.empty() ? "" : " ") + n;
  if (s == want)
    return;
  ++failures;
  std::printf("FAIL %s\n  expected: %s\n  got:      %s\n", what, want.c_str(),
              s.c_str());
}

/// Each stage by its manifest spelling, whether it is a backward stage and
/// the gradients it writes; every name parses back to its stage.
void expectStages(const std::string &want) {
  std::string s;
  for (Stage stage :
       {Stage::None, Stage::Prep, Stage::DKDV, Stage::DQ, Stage::DKDVDQ,
        Stage::DQConvert, Stage::SplitKV, Stage::Combine}) {
    Stage parsed = Stage::Combine;
    const bool roundTrip =
        parseStage(stageName(stage), parsed) && parsed == stage;
    const GradOutputs g = stageGradients(stage);
    s += std::string(s.empty() ? "" : " ") + stageName(stage) +
         (isBackwardStage(stage) ? "/bwd" : "") +
         (g == GradOutputs::KeyValue ? ":kv"
          : g == GradOutputs::Query  ? ":q"
                                     : "") +
         (roundTrip ? "" : "(no round trip)");
  }
  Stage unchanged = Stage::Prep;
  if (parseStage("dkdv ", unchanged) || parseStage("", unchanged) ||
      unchanged != Stage::Prep)
    s += " (parsed a misspelt stage)";
  if (s == want)
    return;
  ++failures;
  std::printf("FAIL stages\n  expected: %s\n  got:      %s\n", want.c_str(),
              s.c_str());
}

} // namespace

int main() {
  Features none;
  expectList("forward, plain", Family::Forward, none,
             "query key value out:output");
  Features all;
  all.mask = all.rng = all.lse = true;
  all.runtimeBatch = all.runtimeQueryRows = all.runtimeKeyRows = true;
  expectList("forward, mask, rng, lse, run-time sizes", Family::Forward, all,
             "query key value mask/mask seed:u64 offset:u64 out:output "
             "out:lse/f32 batch:i32 query_len:i32 key_len:i32");
  Features keep;
  keep.dropoutMask = true;
  keep.runtimeKeyRows = true;
  expectList("forward, keep mask, run-time key length", Family::Forward, keep,
             "query key value dropout_mask/keep out:output key_len:i32");

  expectList("packed forward", Family::PackedForward, all,
             "query key value cu_seqlens_q/i32 cu_seqlens_k/i32 seed:u64 "
             "offset:u64 out:output out:lse/f32 batch:i32 "
             "total_query_tokens:i32 total_key_tokens:i32");

  Features split;
  split.mask = true;
  split.lse = true;
  split.runtimeBatch = true;
  split.splitsAtLaunch = true;
  expectList(
      "split_kv stage", Family::SplitKV, split,
      "query key value mask/mask ws:partial_output/f32 ws:partial_lse/f32 "
      "batch:i32 num_splits:i32");
  split.combine = true;
  expectList(
      "combine stage", Family::SplitKV, split,
      "query key value mask/mask ws:partial_output/f32 ws:partial_lse/f32 "
      "out:output out:lse/f32 batch:i32 num_splits:i32");

  Features paged;
  paged.combine = true;
  paged.runtimeQueryRows = true; // not a size of a paged group: ignored
  paged.runtimeKeyRows = true;   // the page count
  expectList(
      "paged combine, run-time page count", Family::Paged, paged,
      "query key_cache value_cache block_table/i32 cache_seqlens/i32 "
      "ws:partial_output/f32 ws:partial_lse/f32 out:output num_pages:i32");
  paged.runtimeMaxPages = true; // the block table's width
  paged.splitsAtLaunch = true;
  expectList("paged combine, run-time page count and width", Family::Paged,
             paged,
             "query key_cache value_cache block_table/i32 cache_seqlens/i32 "
             "ws:partial_output/f32 ws:partial_lse/f32 out:output "
             "num_pages:i32 max_pages_per_seq:i32 num_splits:i32");

  Features merge;
  merge.lse = true;
  merge.runtimeBatch = true; // a merge has no size parameters
  expectList("merge", Family::Merge, merge,
             "partial_output/partial partial_lse/f32 out:output out:lse/f32");

  Features grad;
  grad.mask = true;
  grad.rng = true;
  grad.gradients = GradOutputs::KeyValue;
  grad.runtimeQueryRows = true;
  expectList("backward dkdv", Family::Backward, grad,
             "query key value output lse/f32 grad_output mask/mask seed:u64 "
             "offset:u64 | out:grad_key out:grad_value query_len:i32");
  grad.gradients = GradOutputs::None;
  expectList("backward prep", Family::Backward, grad,
             "query key value output lse/f32 grad_output mask/mask seed:u64 "
             "offset:u64 | query_len:i32");
  Features packedGrad;
  packedGrad.mask = true; // a packed batch has no mask: ignored
  packedGrad.gradients = GradOutputs::Query;
  packedGrad.runtimeBatch = true;
  expectList("packed backward dq", Family::PackedBackward, packedGrad,
             "query key value output lse/f32 grad_output cu_seqlens_q/i32 "
             "cu_seqlens_k/i32 | out:grad_query batch:i32");

  expectNames("known names, backward", knownNames(Family::Backward),
              "query key value output lse grad_output mask seed offset "
              "grad_query grad_key grad_value batch query_len key_len");
  expectNames("known names, paged", knownNames(Family::Paged),
              "query key_cache value_cache block_table cache_seqlens "
              "partial_output partial_lse output lse batch num_pages "
              "max_pages_per_seq num_splits");
  expectNames("workspaces", workspaceNames(), "row_dot lse_log2 dq_accum");
  expectStages("none prep/bwd dkdv/bwd:kv dq/bwd:q dkdv_dq/bwd:kv "
               "dq_convert/bwd:q split_kv combine");

  if (failures) {
    std::printf("%d parameter list(s) differ from docs/kernel-manifest.md\n",
                failures);
    return 1;
  }
  std::printf("all parameter lists as documented\n");
  return 0;
}
