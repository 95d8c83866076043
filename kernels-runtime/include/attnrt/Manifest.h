//===- Manifest.h - the attn-kernels-v1 kernel manifest ---------*- C++ -*-===//
//
// Loading and validation of the JSON manifest that attention-opt writes next
// to each PTX file (docs/kernel-manifest.md). Validation is complete: every
// field is checked for presence, type and value, and the parameter list for
// consistency with the problem (shapes and dtypes of query, key, value, mask,
// output and lse; seed/offset with dropout). Backward kernels ("op":
// "attention_grad", one "stage" of an ordered group sharing f32 workspaces)
// are checked against the backward ABI (parameter names, order, roles,
// dtypes and shapes), each group as a whole (same problem, every gradient
// written once, workspaces consistent and initialized by a "prep" stage),
// and a "forward" field against the named forward kernel (or split-KV
// forward group). A split-KV forward group ("op": "attention", stages
// "split_kv" then "combine" sharing the f32 workspaces partial_output and
// partial_lse, docs/kernel-manifest.md "Split-KV forward groups") is checked
// against its ABI and as a whole (one split_kv followed by one combine, one
// problem, the same codegen.splits, or both a split count decided at
// launch with the same codegen.split_rule). Packed kernels
// ("op": "varlen_attention" and its backward stages "varlen_attention_grad",
// docs/semantics.md §14) are checked against their ABI (token-major
// tensors, i32 offsets, token totals, workspaces of W rows per head; see
// Varlen.h for their sequence lengths). Paged kernels ("op":
// "paged_attention", docs/kernel-manifest.md "Paged key/value caches") are
// always a split_kv + combine group over a paged cache (key_cache,
// value_cache, the i32 block_table and cache_seqlens; see Paged.h for their
// run-time contract). One validator checks every
// parameter list against a table of the op's expected parameters. The forward
// parameters must come in the documented order; "ptx" must name a file; the
// launch is checked against the CUDA limits, the chip's shared memory per
// block and, where the kernel's "codegen" gives the tiling, the grid and
// shared memory the compiler launches with (docs/kernel-manifest.md,
// "Launch checks"). Errors are attnrt::Error (kExitInput) with
// "<file>:<line>:<column>: kernel '<name>': <message>".
//
//===----------------------------------------------------------------------===//

#ifndef ATTNRT_MANIFEST_H
#define ATTNRT_MANIFEST_H

#include "attnopt/KernelAbi/KernelParameters.h"
#include "attnopt/Reference/AttentionReference.h"
#include "attnrt/DType.h"
#include "attnrt/Sizes.h"

#include <array>
#include <cstdint>
#include <string>
#include <vector>

namespace attnrt {

enum class CausalMode { None, TopLeft, BottomRight };

/// "none", "top_left", "bottom_right".
const char *causalName(CausalMode c);

/// What a kernel computes: the forward (attn.attention), one stage of the
/// backward (attn.attention_grad), the forward of a packed variable-length
/// batch (attn.varlen_attention, docs/semantics.md §14) or one stage of its
/// backward (attn.varlen_attention_grad), or one stage of the forward group
/// of attention against a paged key/value cache (attn.paged_attention), or
/// the merge of S partial results by their log-sum-exp
/// (attn.merge_partials, docs/kernel-manifest.md "Merging partial
/// results").
enum class KernelOp {
  Attention,
  AttentionGrad,
  VarlenAttention,
  VarlenAttentionGrad,
  PagedAttention,
  MergePartials
};
/// The stage of a kernel in its group (the manifest's "stage"), as the
/// compiler writes it: attnopt/KernelAbi/KernelParameters.h.
using GradStage = attnopt::abi::Stage;

/// "attention", "attention_grad", "varlen_attention",
/// "varlen_attention_grad", "paged_attention", "merge_partials".
const char *opName(KernelOp op);
using attnopt::abi::stageName;

/// The gradients a stage writes, in parameter order: none for prep,
/// grad_key and grad_value for dkdv and dkdv_dq, grad_query for dq and
/// dq_convert; none for the forward stages.
std::vector<std::string> stageOutputs(GradStage s);

/// Whether `name` is a workspace of the backward ABI (row_dot, lse_log2,
/// dq_accum).
bool isWorkspaceName(const std::string &name);

/// A size that a kernel (forward or backward) takes at run time: the
/// manifest's null in "batch", "query_len", "key_len", the shapes and the
/// grid (docs/kernel-manifest.md, "Run-time sizes"). bindSizes replaces it.
constexpr int64_t kRuntimeSize = -1;

struct ParamSpec {
  /// U64: seed, offset. I32: a run-time size (batch, query_len, key_len;
  /// total_query_tokens, total_key_tokens of a packed kernel) or the split
  /// count num_splits of a split-KV stage, passed by value. TensorMap: a
  /// TMA tensor map over the tensor parameter `mapOf` (docs/kernel-
  /// manifest.md, "TMA tensor maps"), after every other parameter; the
  /// runtime encodes it at launch (TensorMap.h) and passes the 128-byte
  /// CUtensorMap by value.
  enum class Kind { Tensor, U64, I32, TensorMap };
  // query key value mask dropout_mask seed offset output lse (forward); also
  // grad_output grad_query grad_key grad_value and the workspaces row_dot
  // lse_log2 dq_accum (backward); cu_seqlens_q cu_seqlens_k (packed)
  std::string name;
  Kind kind = Kind::Tensor;
  bool isOutput = false;
  /// An f32 scratch buffer shared by the kernels of a backward or split-KV
  /// forward group (role "workspace"): neither an input nor an output.
  bool isWorkspace = false;
  DType dtype = DType::F32;    // tensors only
  std::vector<int64_t> shape;  // tensors only; kRuntimeSize until bound
  /// I32 only: the value bindSizes (a size) or bindSplits (num_splits)
  /// gave it.
  int32_t sizeValue = 0;
  /// Workspaces only: "query_len_multiple", present exactly when shape[2]
  /// is null (kernels with a run-time query length pad their workspace
  /// rows to whole query tiles); bindSizes makes shape[2] the query length
  /// rounded up to a multiple of it. 0 when absent.
  int64_t queryLenMultiple = 0;
  /// TensorMap only: the mapped tensor parameter, the box (elements,
  /// innermost dimension first) and the swizzle span in bytes.
  std::string mapOf;
  std::vector<int64_t> box;
  int64_t swizzle = 0;

  int64_t numElements() const;
  uint64_t sizeBytes() const { return uint64_t(numElements()) * dtypeSize(dtype); }
};

/// codegen.split_rule of a split-KV forward group whose split count is
/// decided at launch (docs/kernel-manifest.md, "Split-KV forward groups"):
/// the constants of the split rule (splitRuleCount). All 0 when absent.
struct SplitRule {
  int64_t blocksPerSm = 0, maxSplits = 0, minChunkKeys = 0;
  bool operator==(const SplitRule &o) const {
    return blocksPerSm == o.blocksPerSm && maxSplits == o.maxSplits &&
           minChunkKeys == o.minChunkKeys;
  }
  bool operator!=(const SplitRule &o) const { return !(*this == o); }
};

struct KernelSpec {
  std::string name;
  std::string source;
  KernelOp op = KernelOp::Attention;
  GradStage stage = GradStage::None;
  /// Backward only: the group's gradients are bit-identical from run to run
  /// (false when dQ is accumulated with atomics).
  bool deterministic = false;
  /// Backward only: the forward kernel or split-KV forward group, or "".
  std::string forward;
  /// The "group" field: the kernels of one attn.attention_grad, or the two
  /// stages of a split-KV forward; "" when absent (a backward kernel is then
  /// its own group, a forward kernel runs alone).
  std::string group;
  /// A split-KV forward stage only: codegen.splits, the key chunks S (the
  /// workspaces' dimension 1 and split_kv's grid x), kRuntimeSize where S
  /// is decided at launch (codegen.splits null) until bindSizes or
  /// bindSplits gives it; a merge kernel's "splits" (the partial results
  /// S); 0 otherwise.
  int64_t splits = 0;
  /// A split-KV forward stage whose S is decided at launch only:
  /// codegen.split_rule, kept once S is bound (all 0 where codegen.splits
  /// is a number).
  SplitRule splitRule;
  /// Merge kernels only ("op": "merge_partials"): "partial_dtype" (of
  /// partial_output), "rows" (R, the product of the row dimensions) and
  /// the row dimensions d... themselves (from the parameters' shapes:
  /// partial_output [S, d..., Dv], partial_lse [S, d...], output [d...,
  /// Dv], lse [d...]). A merge kernel has none of the attention fields: its
  /// sizes other than valueDim keep their defaults.
  DType partialDtype = DType::F32;
  int64_t rows = 0;
  std::vector<int64_t> rowDims;
  DType dtype = DType::F32;
  /// batch, queryLen and keyLen may be kRuntimeSize (forward and backward
  /// kernels) until bindSizes gives them values. A packed kernel
  /// (varlen_attention) has no single length: its queryLen and keyLen are
  /// kRuntimeSize until bindSequences makes them the longest sequence's
  /// (what its grid is computed from).
  int64_t batch = 1, queryHeads = 1, kvHeads = 1;
  int64_t queryLen = 1, keyLen = 1, headDim = 1, valueDim = 1;
  /// Packed kernels only: the token totals Tq and Tk ("total_query_tokens",
  /// "total_key_tokens"; kRuntimeSize until bindSequences where null); 0 for
  /// the other ops.
  int64_t totalQueryTokens = 0, totalKeyTokens = 0;
  /// Packed kernels only, set by bindSequences: the offsets cu_seqlens_q
  /// and cu_seqlens_k (B + 1 entries each, checked by
  /// checkSeqlenOffsets), which attn-run uploads as the kernel's inputs.
  std::vector<int32_t> cuSeqlensQ, cuSeqlensK;
  /// Paged kernels only ("op": "paged_attention"): "page_size",
  /// "num_pages" (P; kRuntimeSize where null until bindSizes) and
  /// "max_pages_per_seq"; 0 for the other ops. A paged kernel's keyLen is
  /// the capacity max_pages_per_seq * page_size (the manifest's key_len is
  /// null: each sequence has its own length); its batch may be a run-time
  /// size.
  int64_t pageSize = 0, numPages = 0, maxPagesPerSeq = 0;
  /// Paged kernels only, set for one run by bindPaged (Paged.h): the cache
  /// lengths (B entries) and the block table (B * max_pages_per_seq
  /// entries, row-major), which attn-run uploads as the kernel's inputs.
  /// Empty until then.
  std::vector<int32_t> cacheSeqlens, blockTable;
  float scale = 1.0f;
  CausalMode causal = CausalMode::None;
  bool hasWindow = false;
  int64_t windowLeft = -1, windowRight = -1;
  bool hasSoftcap = false;
  float softcap = 0.0f;
  /// The kernel evaluates the softcap's tanh with tanh.approx.f32
  /// (manifest "softcap_approx"); validation widens its tolerances by the
  /// approximation's error bound (RunnerValidation.cpp).
  bool softcapApprox = false;
  /// f32 multiplied on the tensor cores in tf32 (manifest
  /// "matmul_precision": "tf32"): validated against a reference that
  /// reads Q, K and V rounded to tf32, at defaultOutputTolerance's.
  bool tf32 = false;
  float dropoutP = 0.0f;
  bool hasMask = false;
  DType maskDtype = DType::I1;
  std::array<int64_t, 4> maskShape = {1, 1, 1, 1};
  /// An explicit dropout keep mask (i1, forward kernels only) replaces the
  /// Philox bits of seed/offset.
  bool hasDropoutMask = false;
  std::array<int64_t, 4> dropoutMaskShape = {1, 1, 1, 1};
  bool hasLse = false;
  /// 0 where computed from a run-time size (null in the manifest).
  std::array<uint32_t, 3> grid = {1, 1, 1};
  /// The launch formula's tile (codegen.block_q, or block_kv for dkdv and
  /// dkdv_dq) and codegen.key_block_parts; 0 without codegen. bindSizes
  /// computes a run-time grid from them.
  int64_t gridTile = 0, gridParts = 1;
  /// codegen.schedule "persistent": grid[0] blocks loop over the tiles with
  /// stride gridDim.x, so any count from 1 to grid[0] computes the same
  /// result; KernelLauncher caps it at what the device holds at once.
  bool persistent = false;
  std::array<uint32_t, 3> block = {1, 1, 1};
  uint32_t dynamicSharedMemory = 0;
  std::vector<ParamSpec> params; // in ABI order

  /// The parameter called `name`, or null.
  const ParamSpec *findParam(const std::string &name) const;

  /// The problem in the float64 reference's terms (seed/offset left 0). A
  /// packed kernel's is the PackedBatch convention: batch B, queryLen and
  /// keyLen the token totals Tq and Tk (its offsets are cuSeqlensQ/K).
  attnopt::ref::AttentionProblem problem() const;

  /// A backward stage, dense (attention_grad) or packed
  /// (varlen_attention_grad).
  bool isGrad() const {
    return op == KernelOp::AttentionGrad || op == KernelOp::VarlenAttentionGrad;
  }
  /// A stage of the forward group of a paged cache (paged_attention).
  bool isPaged() const { return op == KernelOp::PagedAttention; }
  /// A merge of partial results (merge_partials): no attention problem.
  bool isMerge() const { return op == KernelOp::MergePartials; }
  /// A stage of a split-KV forward group (split_kv or combine), dense or
  /// paged.
  bool isForwardStage() const {
    return stage == GradStage::SplitKV || stage == GradStage::Combine;
  }
  /// A split-KV stage whose split count is still to be decided (manifest
  /// codegen.splits null; bindSizes with RuntimeSizes::splits, or
  /// bindSplits, decides it).
  bool splitsAtLaunch() const { return splits == kRuntimeSize; }
  /// A packed kernel, forward (varlen_attention) or backward
  /// (varlen_attention_grad): token-major tensors, lengths from offsets.
  bool isVarlen() const {
    return op == KernelOp::VarlenAttention ||
           op == KernelOp::VarlenAttentionGrad;
  }
  /// Whether a size is still a run-time one (bindSizes, or bindSequences for
  /// a packed kernel, not applied). Always true for an unbound packed
  /// kernel: its sequence lengths are data.
  bool hasRuntimeSizes() const {
    return batch == kRuntimeSize || queryLen == kRuntimeSize ||
           keyLen == kRuntimeSize || totalQueryTokens == kRuntimeSize ||
           totalKeyTokens == kRuntimeSize || numPages == kRuntimeSize ||
           maxPagesPerSeq == kRuntimeSize;
  }

  /// The (query, key) pairs of one head that the problem scores: B*Lq*Lk,
  /// or for a bound packed kernel the sum over its sequences of Lq_b*Lk_b
  /// (each sequence attends only to its own keys), for a bound paged kernel
  /// Lq times the sum of its cache lengths (unbound: the capacity's).
  double lengthProducts() const;
  /// Benchmark-table FLOPs of the forward of this problem:
  /// 2*B*Hq*Lq*Lk*(D+Dv) (= 4*B*H*L*L*D for D = Dv), halved when causal !=
  /// none and Lq == Lk. Masks, windows and dropout are not counted. A bound
  /// packed kernel: the sum over its sequences of 2*Hq*Lq_b*Lk_b*(D+Dv),
  /// halved when causal != none and every sequence has Lq_b == Lk_b.
  double forwardFlops() const;
  /// FLOPs of this kernel. A forward kernel and a split_kv stage:
  /// forwardFlops(); a combine stage and a merge kernel 0 (no products). A
  /// backward stage: the matrix products it executes, 2*Hq*lengthProducts()
  /// times (2*D + 2*Dv) for dkdv (S = QK^T, dP = dO V^T, dV = P^T dO, dK = dS^T
  /// Q), (2*D + Dv) for dq (S, dP, dQ = dS K) and (3*D + 2*Dv) for dkdv_dq (S,
  /// dP, dV, dK and dQ), halved like the forward; 0 for prep and dq_convert
  /// (no products). (The benchmark's convention for a whole backward pass
  /// is backwardFlops() = 2.5 * forwardFlops(), whatever the kernels
  /// execute.)
  double flops() const;
  /// The benchmark convention for one backward pass: 2.5 * forwardFlops().
  double backwardFlops() const { return 2.5 * forwardFlops(); }
  bool flopsHalvedForCausal() const {
    if (isPaged())
      return false; // decoding: Lq is not each cache length
    if (isVarlen())
      return causal != CausalMode::None && cuSeqlensQ == cuSeqlensK;
    return causal != CausalMode::None && queryLen == keyLen;
  }
  /// Bytes of every tensor parameter (forward: Q, K, V, mask read, O, lse
  /// written; backward: Q, K, V, O, lse, dO, mask read, the workspaces and
  /// the gradients written), each counted once. A bound paged kernel's
  /// caches count the tokens its sequences hold, not all P pages.
  uint64_t bytesMoved() const;
  /// The bytes of parameter `p` that bytesMoved() counts.
  uint64_t bytesMovedBy(const ParamSpec &p) const;
};

struct Manifest {
  std::string path;      // the manifest file as given
  std::string format;    // "attn-kernels-v1"
  std::string ptx;       // as written in the manifest
  std::string ptxPath;   // resolved against the manifest's directory
  std::string chip;      // e.g. "sm_90a"
  int chipMajor = 0, chipMinor = 0; // 9, 0 for sm_90a
  /// "index_bits": 32 or 64, the kernels' index arithmetic; 0 when absent
  /// (manifests written before run-time sizes). With 32, bindSizes refuses
  /// sizes that give a tensor 2^31 elements or more.
  int indexBits = 0;
  std::vector<KernelSpec> kernels;
};

/// Parses "batch=2,query_len=100,key_len=37,num_pages=300,num_splits=5"
/// (any subset, any order; num_splits is RuntimeSizes::splits, num_pages
/// RuntimeSizes::numPages); throws Error (kExitInput) naming the bad part.
RuntimeSizes parseRuntimeSizes(const std::string &text);

/// "batch=2,query_len=100,key_len=37,num_pages=300,num_splits=5" (the given
/// sizes only).
std::string runtimeSizesText(const RuntimeSizes &s);

/// The split rule (docs/kernel-manifest.md, "Split-KV forward groups"):
/// S = max(1, min(max_splits, floor(blocks_per_sm * smCount / (gridY *
/// batch)), ceil(keyLen / min_chunk_keys))), one wave of `blocks_per_sm`
/// blocks per SM and chunks of at least min_chunk_keys keys. `gridY` is
/// grid[1] of the split_kv stage (row blocks times kv heads), `batch` and
/// `keyLen` those of the launch (a paged group's: its capacity
/// max_pages_per_seq * page_size), `smCount` the device's multiprocessors
/// (CU_DEVICE_ATTRIBUTE_MULTIPROCESSOR_COUNT). Throws Error (kExitInput)
/// for a rule constant or an argument below 1. The one place the rule is
/// computed: attn-run and the runtime library call it through
/// ruleSplits.
int64_t splitRuleCount(const SplitRule &rule, int64_t gridY, int64_t batch,
                       int64_t keyLen, int64_t smCount);

/// splitRuleCount for the "split_kv" stage `splitKV` of a group whose split
/// count is decided at launch, its sizes bound (gridY is its grid[1]; both
/// stages of the group take the S it gives). Throws Error (kExitInput) for
/// another kernel or a size still a run-time one.
int64_t ruleSplits(const KernelSpec &splitKV, int64_t smCount);

/// Split-KV stage `k` (split count decided at launch) with S = `splits`:
/// split_kv's grid x, dimension 1 of the workspaces partial_output and
/// partial_lse, the value of the i32 parameter num_splits. Throws Error
/// (kExitInput) naming the kernel for S outside [1, max_splits] or a
/// workspace of 2^31 elements or more with 32-bit indices. Other kernels
/// come back unchanged.
KernelSpec bindSplits(const KernelSpec &k, int64_t splits, int indexBits);

/// The split-KV groups of `m` whose split count is still to be decided,
/// bound in place (their KernelSpecs keep their addresses) to the split
/// rule (ruleSplits of each group's split_kv stage) on a device of
/// `smCount` SMs. Their sizes must be bound.
void bindSplitsByRule(Manifest &m, int64_t smCount);

/// Kernel `k` (forward or backward) of a manifest with `indexBits`
/// (Manifest::indexBits) with its run-time sizes replaced by `sizes` (sizes
/// it has static are ignored; a paged kernel's run-time sizes are batch and
/// num_pages): the shapes (a workspace's dimension 2 is the query length
/// rounded up to its queryLenMultiple; dimension 0 of a paged cache is
/// num_pages), the grid
/// (docs/kernel-manifest.md, "Launch checks") and the values of its i32
/// parameters. Throws Error (kExitInput) when a run-time size is not given
/// or out of range: below 1, above 2^31 - 1, a batch above 65535 (the
/// grid), Lq + Lk above 2^30 (run-time lengths only: a paged kernel's key
/// length is its static capacity), a grid x above 2^31 - 1, or a tensor
/// (workspaces included) of 2^31 elements or more with 32-bit indices. A
/// split-KV stage whose split count is decided at launch also gets S =
/// sizes.splits where given (bindSplits); with sizes.splits 0 its S stays
/// to be decided (bindSplits with ruleSplits). A kernel without run-time
/// sizes or split count comes back unchanged.
KernelSpec bindSizes(const KernelSpec &k, const RuntimeSizes &sizes,
                     int indexBits);

/// Throws Error (kExitInput) naming kernel `k` when tensor parameter `p`
/// (its shape bound) has more elements than int64 and byte counts carry
/// (2^56), or, with 32-bit indices, 2^31 or more. A shape still holding a
/// run-time dimension is left for the check once it is bound.
void checkTensorElements(const KernelSpec &k, const ParamSpec &p,
                         int indexBits);

/// bindSizes on every kernel of `m` but the packed (varlen_attention) ones,
/// whose sizes come from their sequence lengths (bindSequences in
/// Varlen.h). Every kernel gets the same sizes, so a backward group and its
/// forward kernel stay one problem. sizes.splits given for a manifest
/// without a split count decided at launch is an error (kExitInput).
Manifest bindSizes(const Manifest &m, const RuntimeSizes &sizes);

/// Whether a kernel of `m` other than a packed one has run-time sizes (a
/// packed kernel always takes its lengths at run time; bindSequences).
bool hasRuntimeSizes(const Manifest &m);

/// The kernel called `name`, or null.
const KernelSpec *findKernel(const Manifest &m, const std::string &name);

/// The backward kernels of one attn.attention_grad, or the split_kv and
/// combine kernels of one split-KV forward, launched one after another in
/// manifest order on shared inputs and workspaces.
struct GradGroup {
  /// The "group" field, or the kernel's name for a kernel without one.
  std::string name;
  /// Whether the kernels have a "group" field (false: one old-style kernel).
  bool explicitGroup = false;
  std::vector<const KernelSpec *> kernels; // manifest order
};

/// The backward groups of `m`, ordered by their first kernel. The pointers
/// point into m.kernels.
std::vector<GradGroup> gradGroups(const Manifest &m);

/// "a (prep), b (dkdv_dq), c (dq_convert)": the kernels of a group and
/// their stages, as messages and reports name them.
std::string memberList(const GradGroup &g);

/// The group of backward kernel `k` (of `m`).
GradGroup gradGroupOf(const Manifest &m, const KernelSpec &k);

/// The split-KV forward groups of `m` (forward kernels with a "group"),
/// ordered by their first kernel. The pointers point into m.kernels.
std::vector<GradGroup> forwardGroups(const Manifest &m);

/// The split-KV forward group called `name`; no kernels when there is none.
GradGroup findForwardGroup(const Manifest &m, const std::string &name);

/// Parses and validates manifest text. `path` is used for messages and to
/// resolve the PTX file name (which is not opened here).
Manifest parseManifest(const std::string &text, const std::string &path);

/// Reads, parses and validates a manifest file.
Manifest loadManifest(const std::string &path);

} // namespace attnrt

#endif // ATTNRT_MANIFEST_H
