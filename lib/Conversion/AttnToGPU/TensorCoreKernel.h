//===- TensorCoreKernel.h - FA2-style mma.sync attention kernel --*- C++
//-*-===//
//
// Private to lib/Conversion/AttnToGPU: the tensor-core emitter that
// describeAttentionKernel / buildAttentionKernel dispatch to when
// KernelSpec::tensorCores is set.
//
//===----------------------------------------------------------------------===//

#ifndef ATTNOPT_LIB_CONVERSION_ATTNTOGPU_TENSORCOREKERNEL_H
#define ATTNOPT_LIB_CONVERSION_ATTNTOGPU_TENSORCOREKERNEL_H

#include "SharedMemoryPlan.h"
#include "WarpSpecialization.h"
#include "attnopt/Conversion/AttnToGPU/AttnToGPU.h"

#include <optional>
#include <string>

namespace mlir::attn::tc {

/// How many shared-memory stages of K and of V the wgmma forward's
/// producer warpgroup (kProducerWarpgroupThreads, WarpSpecialization.h)
/// fills ahead of the consumer warpgroups that own the query rows.
constexpr int64_t kWgmmaStages = 2;
/// The mma.sync forward's K/V stages: block kb + 1 is copied while block kb
/// is multiplied.
constexpr int64_t kMmaSyncStages = 2;

/// The blocks per SM a tensor-core forward kernel is compiled for
/// (.minnctapersm): a split_kv stage kSplitKVBlocksPerSM (the split rule
/// counts on them); otherwise 8 warps per SM either way (2 blocks of 4
/// warps, or 1 of 8 or more), which lets ptxas use up to 255 registers on
/// the heavy configurations (without it ptxas aims for more blocks, 128
/// registers, on the lighter ones and spills).
inline int64_t blocksPerSM(const KernelSpec &spec) {
  if (spec.stage == abi::Stage::SplitKV)
    return kSplitKVBlocksPerSM;
  return spec.block[0] <= 128 ? 2 : 1;
}

/// The widest head dim (D or Dv) the tensor-core kernels take: O's
/// accumulators of one m16 tile (Dv / 2 f32 per thread) must leave room in
/// 255 registers.
constexpr int64_t kMaxTensorCoreHeadDim = 256;

/// How the forward kernel tiles one (batch, head): `blockQ` query rows per
/// thread block, `blockKV` keys per step, `warps` warps of
/// blockQ / warps rows each (16 or 32: one or two m16 tiles per warp, so
/// every K/V fragment read from shared memory feeds one or two mma.sync).
struct Tiling {
  int64_t blockQ = 64, blockKV = 64, warps = 4;
  /// wgmma instead of mma.sync (16 rows per warp, blockQ a multiple of 64).
  bool warpgroupMma = false;
  /// wgmma only: the producer loads Q, K and V with TMA (tmaApplies).
  bool tma = false;
  /// TMA wgmma only: a persistent kernel of this many blocks
  /// (persistentApplies); 0: one block per tile.
  int64_t persistentBlocks = 0;
  int64_t rowsPerWarp() const { return blockQ / warps; }
  /// Threads per block: the `warps` that own query rows, and with wgmma the
  /// producer warpgroup.
  int64_t threads() const {
    return warps * 32 + (warpgroupMma ? kProducerWarpgroupThreads : 0);
  }
};

/// The tiling of a tensor-core configuration (kernel mma_sync or wgmma).
Tiling tilingOf(const ForwardKernelConfig &config);

/// The configuration of `tiling` as the chooser records it (#attn.tiles):
/// kWgmmaStages or 2 stages.
ForwardKernelConfig configOf(const Tiling &tiling);

/// Whether the wgmma forward takes `op` (it serves neither dropout nor
/// query lengths up to 64, nor the padded head dims where it does not pay);
/// when not, `why` says why.
bool wgmmaApplies(AttentionOpInterface op, std::string &why);
/// Whether the TMA-fed wgmma forward of `op` can be persistent: a dense op
/// with static sizes (the tile count is the loop's bound); else `why`.
bool persistentApplies(AttentionOpInterface op, std::string &why);

/// Whether the wgmma forward of `op` may load its tiles with TMA: a dense
/// attn.attention, whose [B, H, L, D] tensors a 4-D tensor map covers with
/// rows past L zero-filled (a packed batch's sequences end inside the
/// token-major rows a map would cover, and a paged cache has no wgmma
/// kernel); when not, `why` says why.
bool tmaApplies(AttentionOpInterface op, std::string &why);

/// The head dims as the kernel's tiles hold them: Q and K rows of `qk`
/// elements, V and O rows of `v`: the tensors' D and Dv rounded up to the
/// k-step of 32 bytes (mma.sync: a whole ldmatrix.x4 of Q K^T's k and of
/// P V's dv; 16 elements of f16 / bf16, 8 of f32 in tf32), or to whole
/// 64-column SW128 panels (wgmma, whose P V then runs over the padded Dv; Q
/// K^T's k-steps stop at D rounded up to 16). The padding columns are
/// zero-filled in shared memory (TileRowWidth); O's are never stored.
struct TileDims {
  int64_t qk, v;
};
TileDims tileDims(int64_t headDim, int64_t valueDim, bool warpgroupMma,
                  int64_t operandBytes = 2);

/// The wgmma forward's registers per consumer thread for its S (blockKV /
/// 2 f32), packed P (blockKV / 4) and O (dims.v / 2 f32) fragments.
int64_t wgmmaFragmentRegisters(int64_t blockKV, TileDims dims);

/// The tiling for `op`: the fields of `requested` that are non-zero, the
/// default for the others (see the definition for the rule and where it was
/// measured). Fails with `why` on an unsupported combination: blockQ in
/// {64, 128}, blockKV in {64, 128}, 16 or 32 rows per warp, and the
/// per-thread accumulators (S and O: rows/16 * (blockKV + Dv) / 2 f32
/// registers) at most 192.
std::optional<Tiling> chooseTiling(AttentionOpInterface op,
                                   TensorCoreTiling requested,
                                   std::string &why);

/// Whether the kernel skips the O rescale of a key block in which no row of
/// the warp gets a new maximum (a warp vote; bit-identical): for O tiles of
/// 128 columns or more, where it saves the most and frees registers (see
/// the definition).
bool skipsUnchangedRescale(int64_t valueTileDim);

/// Whether the warp's Q fragments stay in registers for the whole kernel
/// (else they are re-read from shared memory at every key block): when the
/// accumulators plus the fragments fit in 160 registers, which leaves room
/// for the softmax temporaries of the masked / dropout variants.
bool keepsQueryInRegisters(int64_t rowsPerWarp, int64_t blockKV, TileDims dims,
                           int64_t operandBytes = 2);

/// Whether `op` can use the tensor-core kernel (f16/bf16, or f32 in tf32
/// where `tf32` allows it; D and Dv multiples of 8 up to 256); when not,
/// `why` says why.
bool isEligible(AttentionOpInterface op, std::string &why, bool tf32 = false);

/// Bytes of one operand element of `op`'s kernel: 2 (f16, bf16) or 4 (f32,
/// multiplied in tf32 by the mma.sync kernel).
int64_t operandBytes(AttentionOpInterface op);

/// The forward kernel's dynamic shared memory: the Q tile of blockQ rows
/// (wide enough to stage O in the epilogue: max(qk, v) columns), `stages`
/// tiles of blockKV rows of K, then of V (rows padded to paddedStride
/// elements for mma.sync, unpadded in the 128-byte swizzled layout for
/// wgmma), and with wgmma the mbarriers (K full, V full, K empty, V empty
/// per stage, then Q full) and kSwizzle128Alignment bytes of slack.
/// Offsets in bytes from the (aligned) base; rows in elements.
struct SharedLayout {
  int64_t queryRow, keyRow, valueRow;
  int64_t keyTileBytes, valueTileBytes, queryTileBytes, stages;
  int64_t query, keys, values, barriers;
  SharedMemoryPlan plan;
};
SharedLayout sharedLayout(TileDims dims, const Tiling &tiling,
                          int64_t operandBytes = 2);

/// Bytes of dynamic shared memory the kernel for `op` needs
/// (sharedLayout's launch bytes).
int64_t sharedMemoryBytes(AttentionOpInterface op, const Tiling &tiling);

/// Emits the body of `func` (arguments in manifest order, no workgroup
/// attributions; shared memory is dynamic).
void emitKernel(OpBuilder &b, gpu::GPUFuncOp func, AttentionOpInterface op,
                const KernelSpec &spec);

} // namespace mlir::attn::tc

#endif // ATTNOPT_LIB_CONVERSION_ATTNTOGPU_TENSORCOREKERNEL_H
