//===- AttnToGPU.h - attn.attention to a GPU kernel -------------*- C++ -*-===//
//
// Lowers an attn.attention to a gpu.func that computes it with the
// online-softmax (FlashAttention) algorithm, and an attn.attention_grad to
// the gpu.funcs of its backward pass (static shapes, or a run-time batch
// and lengths), and describes the kernels' launch interface for the
// manifest (docs/kernel-manifest.md).
//
//===----------------------------------------------------------------------===//

#ifndef ATTNOPT_CONVERSION_ATTNTOGPU_ATTNTOGPU_H
#define ATTNOPT_CONVERSION_ATTNTOGPU_ATTNTOGPU_H

#include "attnopt/Dialect/Attn/IR/AttnOps.h"
#include "attnopt/KernelAbi/KernelParameters.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "llvm/Support/JSON.h"

#include <array>
#include <optional>
#include <string>

namespace mlir::attn {

namespace abi = ::attnopt::abi;

struct ForwardKernelConfig;

/// The discardable attribute (i64, bytes) with which the kernel builders
/// record a kernel's dynamic shared memory on its gpu.func (read by
/// attn-poison-shared-memory; the manifest carries the same number).
constexpr StringLiteral kDynamicSharedMemoryAttrName =
    "attn.dynamic_shared_memory";

/// The discardable attribute (i64, bytes: 128) with which a kernel builder
/// asks for an L2 prefetch hint on a 16-byte nvgpu.device_async_copy:
/// attn-convert-nvgpu-to-nvvm lowers it to cp.async.cg ... .L2::128B
/// (inline PTX: NVVM's cp.async op has no such qualifier).
constexpr StringLiteral kL2PrefetchAttrName = "attn.l2_prefetch_bytes";

/// The discardable attribute (dense i32 array) with which a kernel builder
/// marks the gpu.func arguments that are TMA tensor maps
/// (KernelParam::tensorMapOf): attn-tensor-map-params gives them, once
/// lowered to llvm.func arguments, the by-value grid-constant ABI.
constexpr StringLiteral kTensorMapArgsAttrName = "attn.tensor_map_args";

/// One kernel parameter, in launch order.
struct KernelParam {
  std::string name; ///< query, key, value, mask, seed, offset, output, lse,
                    ///< batch, query_len, key_len; backward: also
                    ///< grad_output, grad_query, grad_key, grad_value
  bool isTensor = true;
  bool isOutput = false;
  /// A scratch buffer (f32) the kernels of one backward group share: the
  /// runtime allocates it, the group's "prep" kernel initializes it
  /// (row_dot, lse_log2, dq_accum; docs/kernel-manifest.md).
  bool isWorkspace = false;
  /// A run-time size (batch, query_len, key_len: kind "i32", passed by
  /// value), present where the op's IR has that size dynamic.
  bool isSize = false;
  std::string dtype; ///< f16, bf16, f32, i1 (tensors only)
  /// ShapedType::kDynamic where the size is a run-time one (the manifest's
  /// null).
  SmallVector<int64_t> shape;
  /// A workspace whose query-row dimension is a run-time one: that
  /// dimension is the query length rounded up to a multiple of this (the
  /// manifest's "query_len_multiple"); 0 otherwise.
  int64_t queryLenMultiple = 0;
  /// A TMA tensor map (kind "tensor_map", docs/kernel-manifest.md): the
  /// name of the tensor parameter it maps, whole, as the runtime binds it;
  /// empty for every other parameter. The kernel takes the 128-byte
  /// CUtensorMap by value (a grid constant), after all other parameters.
  std::string tensorMapOf;
  /// A tensor map's box (elements, innermost dimension first) and swizzle
  /// span in bytes (128: the SW128 tiles' layout).
  SmallVector<int64_t> box;
  int64_t swizzle = 0;
  bool isTensorMap() const { return !tensorMapOf.empty(); }
};

/// Which kernel family the forward chooser (chooseForwardKernel) and the
/// backward groups take where an op does not name one.
enum class KernelChoice {
  Auto,       ///< Tensor cores where supported (f16/bf16, D = Dv in {64, 128}).
  TensorCore, ///< Tensor cores; an error where not supported.
  CudaCore,   ///< Always the CUDA-core kernel.
};

/// Parses "auto", "tensor-core" or "cuda-core".
std::optional<KernelChoice> parseKernelChoice(StringRef name);

/// How one attention op maps onto the GPU and how to launch the result.
struct KernelSpec {
  std::string name;
  std::string source; ///< file:line:col of the op
  /// The kernel's stage in its group (abi::Stage; docs/kernel-manifest.md,
  /// "Backward kernels" and "Split-KV forward groups"): prep (fills the
  /// workspaces), dkdv / dkdv_dq (grid over key blocks, write grad_key and
  /// grad_value; dkdv_dq also adds dS K into the dq_accum workspace), dq /
  /// dq_convert (grid over query blocks, write grad_query); split_kv and
  /// combine. None for a forward kernel on its own.
  abi::Stage stage = abi::Stage::None;
  /// Backward kernels and split-KV forward groups ("split_kv", then
  /// "combine"; docs/kernel-manifest.md, "Split-KV forward groups"): the
  /// kernels of one op share this group name and run in order.
  std::string group;
  /// Split-KV forward groups: the key-range chunks per (batch, KV head, row
  /// block) (codegen.splits), ShapedType::kDynamic where the count is
  /// decided at launch (the i32 parameter num_splits); 0 for every other
  /// kernel.
  int64_t splits = 0;
  int64_t blockQ = 64, blockKV = 64;
  int64_t threadsPerRow = 1; ///< Threads sharing one query row's head dims
                             ///< (CUDA-core kernel only).
  /// The FA2-style mma.sync kernel (TensorCoreKernelBuilder.cpp): block[0] /
  /// 32 warps of 16 or 32 query rows, blockKV keys per step, K/V
  /// double-buffered in dynamic shared memory.
  bool tensorCores = false;
  /// Backward dkdv_dq kernel: GradKernelOptions::vectorReductions.
  bool vectorReductions = false;
  /// wgmma.mma_async instead of mma.sync (sm_90a): the forward kernel
  /// (TensorCoreTiling::warpgroupMma) or the backward's dkdv / dkdv_dq
  /// kernel (GradKernelOptions::mma).
  bool warpgroupMma = false;
  /// The wgmma forward's producer loads Q, K and V with TMA through the
  /// spec's tensor-map parameters (KernelParam::tensorMapOf); in the
  /// backward's wgmma dkdv / dkdv_dq kernel, the warp-specialized form
  /// (GradKernelOptions::tma): a producer warpgroup loads K, V, Q and dO
  /// with TMA and the staged rows with bulk copies.
  bool tma = false;
  /// The wgmma dkdv_dq kernel and its dq_convert: each step's dQ
  /// tile is staged in shared memory and added to dq_accum with one bulk
  /// reduction (cp.reduce.async.bulk) per column chunk, which keeps
  /// dq_accum's 64-row tiles in MMA-fragment order (docs/kernel-manifest.md,
  /// "dq_accum"); dq_convert reads that order. Where the staging buffer does
  /// not fit beside the kernel's tiles (tcgrad::KeyBlockLayout::dqStaging),
  /// the per-thread reductions and row-major tiles.
  bool bulkDq = false;
  /// The TMA-fed wgmma forward as a persistent kernel: grid[0] blocks loop
  /// over the (query block, head, batch) tiles (codegen.schedule).
  bool persistent = false;
  /// Backward dkdv / dkdv_dq kernel: blocks per key block
  /// (tcgrad::keyBlockParts): 2 where dK and dV are accumulated by separate
  /// blocks (even blockIdx.x: dV, odd: dK), which doubles grid[0].
  int64_t keyBlockParts = 1;
  /// Backward wgmma dkdv / dkdv_dq kernel (GradKernelConfig::headSplit):
  /// two consumer warpgroups share each 64-key block and split its head
  /// dims.
  bool headSplit = false;
  /// Backward dkdv / dkdv_dq kernel (GradKernelConfig::queryStages): its
  /// Q / dO stages (the warp-specialized kernel's ring, or the mma.sync
  /// kernel's cp.async buffers).
  int64_t queryStages = 2;
  /// Backward mma.sync dq kernel: its K / V cp.async stages (1 with the
  /// group's queryStages 1).
  int64_t keyStages = 2;
  int64_t dynamicSharedBytes = 0; ///< Launch with this much dynamic smem.
  /// 0 in grid: computed at launch from a run-time size (the manifest's
  /// null; docs/kernel-manifest.md, "Run-time sizes").
  std::array<int64_t, 3> grid = {1, 1, 1}, block = {1, 1, 1};
  SmallVector<KernelParam> params;
};

/// Whether the TMA-fed wgmma forward runs as a persistent kernel (one block
/// per SM looping over the tiles): never, where tc::chooseTiling's rule
/// finds it pays (attn-compile's default), or wherever it applies.
enum class PersistentChoice { off, automatic, on };

/// The forward tensor-core kernel's tiling as a user requests it (attn-compile
/// --block-q, --block-kv, --warps); 0 leaves a field to the default rule.
struct TensorCoreTiling {
  int64_t blockQ = 0, blockKV = 0, warps = 0;
  /// The target's compute capability x 10 (80, 90): where ptxas allocates
  /// registers differently the defaults differ (tc::chooseTiling). 0 means
  /// unknown and takes sm_80's rules.
  int64_t smVersion = 0;
  /// Allows the wgmma forward kernel (sm_90a targets only; attn-compile's
  /// default there, --mma): warpgroups of 64 query rows, Q, K and V read by
  /// the tensor cores from 128-byte swizzled shared-memory tiles, a
  /// producer warpgroup copying them (mbarriers signal the stages), the
  /// consumer loop software-pipelined. tc::chooseTiling takes it for the
  /// variants with Lq > 64 and no requested warp count (dropout since
  /// session 43, with 64 keys per step).
  /// Measured 1.27-1.75x FlashAttention-2 on the H200 (docs/performance.md,
  /// session 9).
  bool warpgroupMma = false;
  /// Allows the wgmma forward's producer to load with TMA (tc::tmaApplies;
  /// attn-compile --tma).
  bool tma = false;
  /// TMA also where the chooser's rule keeps cp.async because it measured
  /// faster (the split_kv stage; attn-compile --tma=on, `loads = tma` in
  /// #attn.tiles).
  bool tmaEverywhere = false;
  /// The TMA-fed wgmma forward as a persistent kernel of `smCount` blocks
  /// (tc::persistentApplies; attn-compile --persistent).
  PersistentChoice persistent = PersistentChoice::off;
  int64_t smCount = 132;
  /// f32 operands multiplied on the tensor cores in tf32 (the mma.sync
  /// forward; attn-compile --f32-precision=tf32): Q, K, V and P rounded to
  /// 10-bit mantissas, f32 accumulation. Without it f32 takes the exact
  /// CUDA-core kernel.
  bool tf32 = false;
  /// The user asked for wgmma (--mma=wgmma, not auto): where the rule still
  /// takes mma.sync, a remark says why.
  bool warpgroupMmaRequested = false;
};

/// The mapping of `op` (static shapes, or a run-time batch, query and key
/// length: kernel-manifest.md, "Run-time sizes"; fails with a diagnostic
/// otherwise) under the forward kernel configuration `config`
/// (chooseForwardKernel; config.splits must be 0).
FailureOr<KernelSpec>
describeAttentionKernel(AttentionOp op, StringRef name,
                        const ForwardKernelConfig &config);

/// Appends the kernel for `op` to `module`.
FailureOr<gpu::GPUFuncOp> buildAttentionKernel(OpBuilder &b,
                                               gpu::GPUModuleOp module,
                                               AttentionOp op,
                                               const KernelSpec &spec);

/// The manifest entry of one kernel (docs/kernel-manifest.md), a single
/// forward kernel or a stage of a split-KV group.
llvm::json::Object kernelManifestEntry(AttentionOp op, const KernelSpec &spec);

/// How the forward may split the key range over several blocks per (batch,
/// KV head) (attn-compile --split-kv; docs/kernel-manifest.md, "Split-KV
/// forward groups").
/// The most key-range chunks a split-KV forward takes.
constexpr int64_t kMaxSplitKV = 64;
/// The split rule's blocks per SM (two 4-warp split_kv blocks keep enough
/// K/V copies in flight to stream the cache).
constexpr int64_t kSplitKVBlocksPerSM = 2;

/// The split rule (docs/kernel-manifest.md, "Split-KV forward groups"):
/// max(1, min(kMaxSplitKV, floor(kSplitKVBlocksPerSM * smCount /
/// (blocksPerChunk * batch)), ceil(keyLen / minChunkKeys))), the key-length
/// term only where `keyLen` is static. `blocksPerChunk` is the split_kv
/// grid's y (row blocks times KV heads). The compiler applies it to static
/// sizes; kernels-runtime applies the same rule at launch (the manifest's
/// codegen.split_rule) where the batch or the key length is a run-time one.
int64_t splitKVRule(int64_t smCount, int64_t blocksPerChunk, int64_t batch,
                    int64_t keyLen, int64_t minChunkKeys);

struct SplitKVOptions {
  /// -1: the chooser decides (auto); 0: never split (off); N > 0: N chunks
  /// where the op allows a split at all; ShapedType::kDynamic: the group
  /// with the chunk count decided at launch (`splits = ?` in #attn.tiles).
  int64_t splits = -1;
  /// The streaming multiprocessors the chooser fills (132 on the H200).
  int64_t smCount = 132;
};

/// The split-KV forward group of `op` (attn.attention, or
/// attn.paged_attention, whose only kernels these are) under `config`
/// (config.splits chunks, from chooseForwardKernel), named
/// attn_fwd_split_kv_<n> and attn_fwd_combine_<n>, group attn_fwd_<n>, in
/// launch order.
FailureOr<SmallVector<KernelSpec, 2>>
describeSplitKVAttentionKernels(AttentionOpInterface op, int64_t n,
                                const ForwardKernelConfig &config);

/// Appends the kernels of describeSplitKVAttentionKernels to `module`.
LogicalResult buildSplitKVAttentionKernels(OpBuilder &b,
                                           gpu::GPUModuleOp module,
                                           AttentionOpInterface op,
                                           ArrayRef<KernelSpec> specs);

/// The kernel of attn.merge_partials (docs/kernel-manifest.md, "Merging
/// partial results"), its construction and its manifest entry.
FailureOr<KernelSpec> describeMergeKernel(MergePartialsOp op, StringRef name);
LogicalResult buildMergeKernel(OpBuilder &b, gpu::GPUModuleOp module,
                               MergePartialsOp op, const KernelSpec &spec);
llvm::json::Object kernelManifestEntry(MergePartialsOp op,
                                       const KernelSpec &spec);

/// The manifest entry of a kernel of a paged cache's group
/// (docs/kernel-manifest.md, "Paged key/value caches").
llvm::json::Object kernelManifestEntry(PagedAttentionOp op,
                                       const KernelSpec &spec);

/// The forward kernel of a packed variable-length batch
/// (docs/kernel-manifest.md, "Packed variable-length batches") under
/// `config` (chooseForwardKernel: the tensor-core kernel only).
FailureOr<KernelSpec>
describePackedAttentionKernel(VarlenAttentionOp op, StringRef name,
                              const ForwardKernelConfig &config);
FailureOr<gpu::GPUFuncOp> buildPackedAttentionKernel(OpBuilder &b,
                                                     gpu::GPUModuleOp module,
                                                     VarlenAttentionOp op,
                                                     const KernelSpec &spec);
llvm::json::Object kernelManifestEntry(VarlenAttentionOp op,
                                       const KernelSpec &spec);

/// The kernels of one attn.attention_grad (docs/kernel-manifest.md,
/// "Backward kernels"), in launch order:
///  - tensor cores: prep, dkdv, dq (no atomics); with GradDqMode::Atomic
///    and an op that is not `deterministic`: prep, dkdv_dq (dQ accumulated
///    with f32 atomics), dq_convert;
///  - CUDA cores: dkdv, dq (no workspaces, either order).
struct GradKernelSpecs {
  SmallVector<KernelSpec, 3> kernels;
  /// Whether the gradients are bit-identical from run to run (no atomics).
  bool deterministic = true;
};

/// How the tensor-core backward accumulates dQ (attn-compile --grad-dq).
enum class GradDqMode {
  /// Atomic where the reductions are vectorized
  /// (GradKernelOptions::vectorReductions, sm_90), else Separate: on the
  /// H200 the atomic group with 128-key blocks was 0-20 % faster than the
  /// separate one at D = 128 and -8 to +4 % at D = 64 (docs/performance.md,
  /// session 5); sm_80 is not measured.
  Auto,
  /// A dq kernel over query blocks recomputes S and dP (seven products per
  /// block pair, no atomics).
  Separate,
  /// dQ += dS K inside the key-block kernel with f32 atomics, converted by
  /// a last kernel (five products; FlashAttention-2's scheme). Used only for
  /// ops without `deterministic` and with at least 64 queries.
  Atomic,
};

/// Matrix instructions of the tensor-core backward's key-block kernel
/// (attn-compile --grad-mma).
enum class GradMma {
  /// mma.sync m16n8k16 fed by ldmatrix, one warp per 16 keys (sm_80 and
  /// later).
  MmaSync,
  /// wgmma.mma_async (sm_90a targets only): one warpgroup per 64 keys, Q,
  /// dO, K, V and dSᵀ read by the tensor cores from shared memory. 15-30 %
  /// faster than MmaSync on the H200 (docs/performance.md, session 6).
  Wgmma,
  /// Wgmma, except where ptxas spills its kernel (D = 128 with dropout:
  /// 76-260 bytes at the 255-register limit), which keeps MmaSync. The
  /// default on sm_90a.
  Auto,
};

/// Code generation choices of the backward kernels.
struct GradKernelOptions {
  GradDqMode dqMode = GradDqMode::Auto;
  /// The atomic dQ uses red.global.add.v4.f32 (sm_90 and later, PTX 8.1)
  /// instead of one reduction per element.
  bool vectorReductions = false;
  /// Keys per block of the tensor-core dkdv / dkdv_dq kernel: 64 (4 warps)
  /// or 128 (8 warps; half the Q/dO tile copies and, with the atomic dQ,
  /// half the reductions per FLOP); 0 chooses (128 with the atomic dQ, 64
  /// without).
  int64_t keyBlock = 0;
  /// Matrix instructions of the dkdv / dkdv_dq kernel (GradMma).
  GradMma mma = GradMma::MmaSync;
  /// The wgmma dkdv / dkdv_dq kernel is warp-specialized: a producer
  /// warpgroup loads K, V and the Q / dO stages with TMA and the staged
  /// rows with bulk copies (dense ops and, since session 52, packed
  /// batches: rank-3 tensor maps of their [T, H, D] tensors).
  bool tma = false;
  /// The target's compute capability x 10 (80, 86, 89, 90): the tensor-core
  /// kernels must fit its shared memory (0: sm_80's limit).
  int64_t smVersion = 0;
  /// The target is sm_90a: the wgmma key-block kernel and its TMA loads
  /// exist (an #attn.grad_kernels may ask for them whatever `mma` and
  /// `tma` say).
  bool archSpecific = false;
  /// Where D + Dv > 256: how a key block's dK and dV are shared
  /// (GradKernelConfig::headSplit); unset lets the chooser decide.
  std::optional<KeyBlockSplit> split;
  /// The Q / dO stages of the key-block kernel (and the K / V stages of
  /// the mma.sync dq kernel; GradKernelConfig::queryStages); 0 lets the
  /// chooser decide.
  int64_t queryStages = 0;
};

/// The name of the discardable attribute (#attn.grad_kernels) that holds a
/// gradient op's backward kernel configuration.
constexpr StringLiteral kGradKernelsAttrName = "attn.grad_kernels";

/// What the backward kernel chooser decides for one gradient op
/// (attn.attention_grad, attn.varlen_attention_grad): the key-block
/// kernel's family, its keys per block, and how dQ is accumulated (the
/// group's stages follow: prep, dkdv, dq or prep, dkdv_dq, dq_convert; or
/// the CUDA-core dkdv and dq). Recorded on the op as #attn.grad_kernels
/// (toAttr), where a user can read it and override it; every GPU route
/// honours such an attribute.
struct GradKernelConfig {
  KernelFamily kernel = KernelFamily::cuda_core;
  /// Tensor cores: keys per block of the dkdv / dkdv_dq kernel.
  int64_t keyBlock = 0;
  /// Tensor cores: dQ added by the key-block kernel with f32 atomics.
  bool atomicDq = false;
  /// wgmma: a producer warpgroup loads the key-block kernel's tiles with
  /// TMA.
  bool tma = false;
  /// wgmma with TMA, D + Dv > 256: the two consumer warpgroups of one
  /// 64-key block split the head dims of dK, dV and dQ and share Pᵀ and
  /// dSᵀ through shared memory (`split = warpgroups`), instead of two
  /// blocks per key block that each recompute Sᵀ (tcgrad::keyBlockParts).
  bool headSplit = false;
  /// The shared-memory stages of the streamed tiles (`query_stages`). With
  /// `tma`: the Q and dO tiles the producer fills ahead of the consumers, 2
  /// or, with the head split, 1 where that leaves room for the bulk dQ's
  /// staging tile and two stages would not. mma.sync: the cp.async buffers
  /// of Q and dO in the dkdv / dkdv_dq kernel and of K and V in the dq
  /// kernel, 2 or 1 where two do not fit the chip's shared memory (D = Dv
  /// past 208 on sm_80, past 112 on sm_86 / sm_89).
  int64_t queryStages = 2;

  GradKernelConfigAttr toAttr(MLIRContext *ctx) const;
  bool operator==(const GradKernelConfig &o) const {
    return kernel == o.kernel && keyBlock == o.keyBlock &&
           atomicDq == o.atomicDq && tma == o.tma && headSplit == o.headSplit &&
           queryStages == o.queryStages;
  }
};

/// The kernels of `op`'s backward under `config` (chooseBackwardKernel),
/// named attn_bwd_<stage>_<n>, group attn_bwd_<n> (static shapes, or a
/// run-time batch, query and key length as for the forward).
FailureOr<GradKernelSpecs>
describeAttentionGradKernels(AttentionGradOp op, int64_t n,
                             const GradKernelConfig &config,
                             const GradKernelOptions &options);

/// Appends the backward kernels of `op` to `module`, in launch order.
LogicalResult buildAttentionGradKernels(OpBuilder &b, gpu::GPUModuleOp module,
                                        AttentionGradOp op,
                                        const GradKernelSpecs &specs);

/// The manifest entry of one backward kernel (`spec` one of
/// `specs.kernels`). `forwardKernel`, when not empty, is the name of the
/// forward kernel whose output and lse the op consumes ("forward" field).
llvm::json::Object kernelManifestEntry(AttentionGradOp op,
                                       const GradKernelSpecs &specs,
                                       const KernelSpec &spec,
                                       StringRef forwardKernel = "");

/// The backward kernels of a packed variable-length batch
/// (docs/kernel-manifest.md, "Packed backward kernels") under `config`: the
/// tensor-core group as for a dense op of run-time lengths.
FailureOr<GradKernelSpecs>
describePackedAttentionGradKernels(VarlenAttentionGradOp op, int64_t n,
                                   const GradKernelConfig &config,
                                   const GradKernelOptions &options);
LogicalResult buildPackedAttentionGradKernels(OpBuilder &b,
                                              gpu::GPUModuleOp module,
                                              VarlenAttentionGradOp op,
                                              const GradKernelSpecs &specs);
llvm::json::Object kernelManifestEntry(VarlenAttentionGradOp op,
                                       const GradKernelSpecs &specs,
                                       const KernelSpec &spec,
                                       StringRef forwardKernel = "");

//===----------------------------------------------------------------------===//
// The whole job: every attention op of a module to kernels
//===----------------------------------------------------------------------===//

/// The chips the GPU code generation targets, as its diagnostics list them.
/// sm_86 and sm_89 (GA10x and Ada: A10, A40, L4, L40S, RTX 30xx/40xx) run
/// the sm_80 kernels within their smaller shared memory (99 KiB a block).
constexpr StringLiteral kGpuChipList = "sm_80, sm_86, sm_89, sm_90 or sm_90a";

/// `chip`'s compute capability x 10 (80, 86, 89, 90), or std::nullopt when
/// the GPU code generation does not target it.
std::optional<int64_t> gpuChipVersion(StringRef chip);

/// The code generation choices as a user spells them: attn-compile's flags
/// and the attn-to-gpu pass's options (same names, same defaults).
struct GpuCodegenChoices {
  std::string chip = "sm_90a";  ///< one of kGpuChipList
  std::string kernel = "auto";  ///< auto, tensor-core, cuda-core
  std::string mma = "auto";     ///< forward: auto, wgmma, mma-sync
  std::string gradMma = "auto"; ///< backward key-block kernel: same
  std::string tma = "auto";     ///< forward wgmma loads: auto, on, off
  std::string persistent = "auto"; ///< TMA wgmma forward: auto, on, off
  std::string gradTma = "auto"; ///< backward key-block loads: same as tma
  std::string gradDq = "auto";  ///< auto, separate, atomic
  int64_t blockQ = 0, blockKV = 0, warps = 0; ///< forward tiling; 0 chooses
  int64_t gradBlockKV = 0;                    ///< 0, 64 or 128
  std::string splitKV = "auto"; ///< forward split-KV: auto, off or a count
  int64_t smCount = 132;        ///< SMs the split-KV chooser fills
  std::string f32Precision = "ieee"; ///< f32 matrix products: ieee or tf32
};

/// The choices validated and resolved for the chip.
struct GpuCodegenOptions {
  std::string chip;
  KernelChoice kernel = KernelChoice::Auto;
  TensorCoreTiling forward;
  SplitKVOptions splitKV;
  GradKernelOptions grad;
};

/// Validates `choices`; on failure returns the message, which names the
/// option and what it accepts.
FailureOr<GpuCodegenOptions>
resolveGpuCodegenOptions(const GpuCodegenChoices &choices, std::string &error);

//===----------------------------------------------------------------------===//
// The forward kernel chooser
//===----------------------------------------------------------------------===//

/// The name of the discardable attribute (#attn.tiles) that holds an op's
/// tiles and, with a `kernel` field, its GPU kernel configuration.
constexpr StringLiteral kTilesAttrName = "attn.tiles";

/// What the GPU kernel chooser decides for one forward op
/// (attn.attention, attn.varlen_attention): the kernel family, its tiles,
/// and the split-KV chunk count. Recorded on the op as #attn.tiles with a
/// `kernel` field (toAttr), where a user can read it and override it; every
/// GPU route (attn-select-kernels, attn-to-gpu, attn-gpu-pipeline,
/// attn-compile) honours such an attribute (docs/passes.md).
struct ForwardKernelConfig {
  KernelFamily kernel = KernelFamily::cuda_core;
  /// Query rows per block, keys per step, K/V tiles in shared memory, and
  /// the warps that own query rows (wgmma: plus a producer warpgroup).
  int64_t blockQ = 0, blockKV = 0, stages = 0, warps = 0;
  /// Key-range chunks of the split-KV group (mma_sync only), or
  /// ShapedType::kDynamic: decided at launch; 0: one kernel.
  int64_t splits = 0;
  /// wgmma only: the producer loads Q, K and V with TMA (`loads = tma`).
  bool tma = false;
  /// `schedule = persistent`: this many blocks (the SM count), each
  /// looping over the tiles; 0: one block per tile.
  int64_t persistentBlocks = 0;

  TileConfigAttr toAttr(MLIRContext *ctx) const;
};

/// The forward kernel configuration of `op`: its #attn.tiles when that names
/// a kernel (checked: a diagnostic at the op says what the kernel cannot
/// take), else the chooser's rules under `options` (the tensor-core
/// kernels where they apply, with a remark where they do not; the split-KV
/// group for decoding-like ops; the tilings measured on the H200). A
/// kernel-less #attn.tiles (attn-select-tiles) only hints the query block.
FailureOr<ForwardKernelConfig>
chooseForwardKernel(AttentionOpInterface op, const GpuCodegenOptions &options);

/// The backward kernel configuration of `op` (attn.attention_grad or
/// attn.varlen_attention_grad): its #attn.grad_kernels (checked: a
/// diagnostic at the op names the configuration its kernels take, or says
/// why they cannot), else the chooser's rules under `options` (the
/// tensor-core kernels where they apply, with a remark where they do not;
/// the wgmma key-block kernel, its TMA loads, the keys per block and the
/// atomic dQ as measured on the H200). Fails with a diagnostic at the op
/// where its shapes or operands have no GPU backward.
FailureOr<GradKernelConfig>
chooseBackwardKernel(AttentionOpInterface op, const GpuCodegenOptions &options);

/// Appends to `gpuModule` the kernel of every attn.attention under `root`
/// (attn_fwd_<n>, in walk order), then the kernel group of every
/// attn.attention_grad (attn_bwd_<n>), and, when `manifest` is given, their
/// manifest entries (docs/kernel-manifest.md). The one implementation
/// behind attn-compile and the attn-to-gpu pass, so that both routes emit
/// the same kernels.
LogicalResult buildAttentionKernels(Operation *root, OpBuilder &b,
                                    gpu::GPUModuleOp gpuModule,
                                    const GpuCodegenOptions &options,
                                    llvm::json::Array *manifest = nullptr);

} // namespace mlir::attn

#endif // ATTNOPT_CONVERSION_ATTNTOGPU_ATTNTOGPU_H
