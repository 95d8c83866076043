//===- TensorCoreGradKernel.h - mma.sync attention backward -----*- C++ -*-===//
//
// Private to lib/Conversion/AttnToGPU: the tensor-core backward kernels that
// describeAttentionGradKernels / buildAttentionGradKernels dispatch to when
// KernelSpec::tensorCores is set (TensorCoreGradKernelBuilder.cpp).
//
//===----------------------------------------------------------------------===//

#ifndef ATTNOPT_LIB_CONVERSION_ATTNTOGPU_TENSORCOREGRADKERNEL_H
#define ATTNOPT_LIB_CONVERSION_ATTNTOGPU_TENSORCOREGRADKERNEL_H

#include "SharedMemoryPlan.h"
#include "attnopt/Conversion/AttnToGPU/AttnToGPU.h"

#include <optional>
#include <string>

namespace mlir::attn::tcgrad {

/// Query rows per block (every kernel) and keys per block of the dq kernel,
/// and threads of the kernels over query blocks (4 warps of 16 rows each).
constexpr int64_t kBlock = 64, kThreads = 128;
/// dq_accum in fragment order (KernelSpec::bulkDq; kernel-manifest.md,
/// "dq_accum"): each 64-row tile is a sequence of 64 x 8 column blocks of
/// this many floats, in each the 16 bytes of wgmma accumulator fragment of
/// warpgroup thread t at float 4 t.
constexpr int64_t kDqColumnBlockFloats = kBlock * 8;

/// Keys per block of the dkdv (`atomicDq` false) or dkdv_dq kernel for
/// `requested` (64, 128, or 0 for the default: 128 with the atomic dQ, and
/// for the split kernels of keyBlockParts where 128 keys fit the shared
/// memory of compute capability `smVersion` in the layout of the mma.sync
/// or (`warpgroupMma`) the wgmma kernel, `warpSpecialized` its TMA form;
/// else 64); its threads are 2 * keys (one warp per 16 keys; plus a
/// producer warpgroup when warp-specialized). Fails with `why` on other
/// values.
std::optional<int64_t> chooseKeyBlock(int64_t requested, bool atomicDq,
                                      int64_t headDim, int64_t valueDim,
                                      int64_t smVersion, bool warpgroupMma,
                                      bool warpSpecialized, std::string &why);

/// Whether `op` can use the tensor-core backward on a chip with compute
/// capability `smVersion` (80, 90): f16/bf16, D and Dv multiples of 8 (16-byte
/// rows) up to 256 whose kernels' shared memory fits the chip; when not,
/// `why` says why.
bool isEligible(AttentionOpInterface op, int64_t smVersion, std::string &why);

/// The head dim of the mma.sync kernels' tiles: D (or Dv) rounded up to the
/// k-step of 16, the padding columns zero-filled by the copies
/// (TileRowWidth) and never stored.
int64_t tileDim(int64_t headDim);

/// Blocks per key block of the mma.sync dkdv kernel: 1 where one warp's dK
/// and dV accumulators (16 keys x (D + Dv) f32, (D + Dv) / 2 registers per
/// thread) fit beside the products, i.e. padded D + Dv <= 256; else 2, an
/// even block (blockIdx.x = 2 kb) accumulating dV and the odd one dK of key
/// block kb, each recomputing Sᵀ (one more product per block pair, half the
/// accumulator registers).
int64_t keyBlockParts(int64_t headDim, int64_t valueDim);

/// Whether the dkdv_dq kernel (atomic dQ) exists for these head dims: with
/// mma.sync (`warpgroupMma` false) its warps split dQ's columns in chunks
/// of 32 (D = Dv = 64, 128; in the split mma.sync kernel's dK block an
/// atomic dQ measured 6-8 % faster causal, 2-3 % slower non-causal and
/// spilled at D = 192, 256: not taken, docs/performance.md session 12);
/// the wgmma kernel takes every head dim it has (hasWarpgroupKeyBlock),
/// split or not (the split kernel's dK block adds dQ; describeKernels
/// leaves it out where it spills). Other head dims take the atomic-free
/// dkdv + dq pair.
bool hasAtomicDq(int64_t headDim, int64_t valueDim, bool warpgroupMma);
/// Whether the wgmma key-block kernel exists for these head dims: D and Dv
/// multiples of 8 up to 256 (those of the tensor-core kernels); where
/// D + Dv > 256 its blocks split dK and dV as the mma.sync kernel's do
/// (keyBlockParts), so that a thread holds at most 128 accumulator
/// registers. Its tiles are padded to whole 64-column SW128 panels
/// (panelDim; the padding zero-filled, never read by a product beyond D
/// rounded up to 16: the products over D or Dv run ceil(D / 16) k-steps,
/// so an odd multiple of 8 reads 8 zero columns; those into dK and dV are
/// D and Dv wide).
bool hasWarpgroupKeyBlock(int64_t headDim, int64_t valueDim);
/// The head dim of the wgmma key-block kernel's SW128 tiles: D (or Dv)
/// rounded up to whole 64-column panels.
int64_t panelDim(int64_t headDim);

/// The key-block (dkdv / dkdv_dq) kernel's dynamic shared memory, byte
/// offsets: K and V tiles of keyBlock rows (loaded once), double-buffered Q
/// and dO tiles of kBlock rows, double-buffered lse·log2(e) and D rows
/// (f32), and with dQ the dSᵀ tile. mma.sync: rows padded to
/// paddedStride(headDim) (K, Q) or paddedStride(valueDim) (V, dO), dSᵀ
/// [keyBlock][kBlock + 8]; wgmma: 128-byte swizzled tiles of whole
/// panels (panelDim), dSᵀ [keyBlock][kBlock] in the core-matrix
/// layout, and kSwizzle128Alignment bytes of slack. `warpSpecialized`
/// (the wgmma kernel with a TMA producer, KernelSpec::tma): `dsBuffers`
/// dSᵀ tiles (two, so that a step writes one while the other warpgroup may
/// still read the previous step's) and the mbarriers at `barriers`: the K/V
/// tiles' full one, then the two Q/dO stages' full and empty ones;
/// `queryStages` (1 or 2; 1 only warp-specialized or with mma.sync) Q, dO,
/// lse and D_i stages.
/// `headSplit` (KernelSpec::headSplit; 64 keys, warp-specialized): two Pdᵀ
/// tiles at `probsT` and two dSᵀ tiles at `dsT` (with or without dQ), SW128
/// [64 keys][64 queries], written by both consumer warpgroups and read by
/// both (one per step parity).
struct KeyBlockLayout {
  int64_t keys, values, queries, gradOutputs, lse, delta, dsT;
  /// Stages of the Q, dO, lse and D_i tiles (each region holds that many).
  int64_t queryStages = 2;
  int64_t probsT = 0;
  int64_t dsBuffers = 1, barriers = 0;
  /// The wgmma dkdv_dq kernel's f32 [64 x D] dQ staging tile
  /// (KernelSpec::bulkDq), where it fits the block's shared memory beside
  /// the others; none otherwise.
  std::optional<int64_t> dqStaging;
  SharedMemoryPlan plan;
};
KeyBlockLayout keyBlockLayout(int64_t headDim, int64_t valueDim,
                              int64_t keyBlock, bool withDq, bool warpgroupMma,
                              bool warpSpecialized = false,
                              bool headSplit = false, int64_t queryStages = 2);

/// The dq kernel's: Q and dO tiles of `rows` query rows, `keyStages` (1 or
/// 2) K and V tiles of `keyRows` rows each, padded rows (Q and K of head dim
/// `headDim`, dO and V of `valueDim`).
struct DqLayout {
  int64_t queries, gradOutputs, keys, values;
  SharedMemoryPlan plan;
};
DqLayout dqLayout(int64_t headDim, int64_t valueDim, int64_t rows,
                  int64_t keyStages = 2, int64_t keyRows = kBlock);

/// Keys per step of the dq kernel: kBlock, or 32 where its dQ
/// accumulators are wide (D past 192) on the mma.sync chips before sm_90
/// (`smVersion`): ptxas 13 for sm_80 spilled 88 bytes at D = 256 with 64
/// (dQ's 128 f32 registers a thread beside S, P and dP of 64 keys); none
/// with 32.
int64_t dqKeys(int64_t headDim, int64_t smVersion);

/// Query rows per block of the dq kernel (one warp per 16): 128 for the head
/// dims whose dkdv kernel is split (keyBlockParts 2) where those tiles fit
/// the shared memory of compute capability `smVersion`, else kBlock.
int64_t dqRows(int64_t headDim, int64_t valueDim, int64_t smVersion);

/// Bytes of dynamic shared memory of the `stage` kernel ("dkdv",
/// "dkdv_dq" with `keyBlock` keys per block, "dq" with `queryRows` rows per
/// block; 0 for the others). `warpgroupMma`: the wgmma key-block kernel
/// (unpadded core-matrix tiles), `warpSpecialized` its TMA form; `stages`:
/// the streamed tiles' stages (Q / dO of the key-block kernel, K / V of the
/// dq kernel).
int64_t sharedMemoryBytes(AttentionOpInterface op, abi::Stage stage,
                          int64_t queryRows, int64_t keyBlock,
                          bool warpgroupMma, bool warpSpecialized = false,
                          bool headSplit = false, int64_t stages = 2);

/// The stages of the mma.sync group's streamed tiles (Q / dO in the
/// key-block kernel, K / V in the dq kernel) at D = `headDim`, Dv =
/// `valueDim` on compute capability `smVersion`: 2 where both kernels fit
/// with two, 1 where they fit only with one, 0 where they do not fit.
int64_t mmaSyncStages(int64_t headDim, int64_t valueDim, int64_t keyBlock,
                      bool withDq, int64_t smVersion);

/// Emits the body of `func` (arguments in manifest order) for spec.stage,
/// of an attn.attention_grad or attn.varlen_attention_grad `op`.
void emitKernel(OpBuilder &b, gpu::GPUFuncOp func, AttentionOpInterface op,
                const KernelSpec &spec);

/// The tensor-core backward's configuration of `op` (eligible, isEligible)
/// under `options`: the chooser's rules (TensorCoreGradDescribe.cpp), or,
/// for an #attn.grad_kernels, the same rules with its fields as the
/// options. Fails with a diagnostic at the op where the keys per block do
/// not fit.
FailureOr<GradKernelConfig> chooseConfig(AttentionOpInterface op,
                                         const GradKernelOptions &options);

/// The tensor-core group of an attn.attention_grad or
/// attn.varlen_attention_grad `op` under `config` (chooseConfig's), kernels
/// named attn_bwd_<stage>_<n>.
FailureOr<GradKernelSpecs> describeKernels(AttentionOpInterface op, int64_t n,
                                           const GradKernelOptions &options,
                                           const GradKernelConfig &config);

/// Appends the kernel of `spec` (one of describeKernels's) to `module`.
void buildKernel(OpBuilder &b, gpu::GPUModuleOp module, AttentionOpInterface op,
                 const KernelSpec &spec);

} // namespace mlir::attn::tcgrad

#endif // ATTNOPT_LIB_CONVERSION_ATTNTOGPU_TENSORCOREGRADKERNEL_H
