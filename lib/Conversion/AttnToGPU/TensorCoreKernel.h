//===- TensorCoreKernel.h - FA2-style mma.sync attention kernel --*- C++ -*-===//
//
// Private to lib/Conversion/AttnToGPU: the tensor-core emitter that
// describeAttentionKernel / buildAttentionKernel dispatch to when
// KernelSpec::tensorCores is set.
//
//===----------------------------------------------------------------------===//

#ifndef ATTNOPT_LIB_CONVERSION_ATTNTOGPU_TENSORCOREKERNEL_H
#define ATTNOPT_LIB_CONVERSION_ATTNTOGPU_TENSORCOREKERNEL_H

#include "attnopt/Conversion/AttnToGPU/AttnToGPU.h"

#include <string>

namespace mlir::attn::tc {

/// Keys per step; query rows owned by one warp.
constexpr int64_t kBlockKV = 64, kRowsPerWarp = 16;

/// Threads per block for a query block of `blockQ` rows (64 -> 4 warps,
/// 128 -> 8 warps).
constexpr int64_t threadsFor(int64_t blockQ) {
  return blockQ / kRowsPerWarp * 32;
}

/// The query block the kernel uses for `op` when not forced: 128 rows
/// (8 warps) when Lq >= 128, 64 rows (4 warps) for short queries (Lq < 128,
/// decoding). The op's attn.tiles block_q, when present, picks 64 (<= 64) or
/// 128 (> 64) instead of the Lq rule.
int64_t defaultBlockQ(AttentionOp op);

/// Whether `op` can use the tensor-core kernel; when not, `why` says why.
bool isEligible(AttentionOp op, std::string &why);

/// Bytes of dynamic shared memory the kernel for `op` needs
/// (Q tile of `blockQ` rows + double-buffered K and V tiles, padded rows).
int64_t sharedMemoryBytes(AttentionOp op, int64_t blockQ);

/// Emits the body of `func` (arguments in manifest order, no workgroup
/// attributions; shared memory is dynamic).
void emitKernel(OpBuilder &b, gpu::GPUFuncOp func, AttentionOp op,
                const KernelSpec &spec);

} // namespace mlir::attn::tc

#endif // ATTNOPT_LIB_CONVERSION_ATTNTOGPU_TENSORCOREKERNEL_H
