//===- TensorCoreGradKernel.h - mma.sync attention backward -----*- C++ -*-===//
//
// Private to lib/Conversion/AttnToGPU: the tensor-core backward kernels that
// describeAttentionGradKernels / buildAttentionGradKernels dispatch to when
// KernelSpec::tensorCores is set (TensorCoreGradKernelBuilder.cpp).
//
//===----------------------------------------------------------------------===//

#ifndef ATTNOPT_LIB_CONVERSION_ATTNTOGPU_TENSORCOREGRADKERNEL_H
#define ATTNOPT_LIB_CONVERSION_ATTNTOGPU_TENSORCOREGRADKERNEL_H

#include "attnopt/Conversion/AttnToGPU/AttnToGPU.h"

#include <optional>
#include <string>

namespace mlir::attn::tcgrad {

/// Query rows per block (every kernel) and keys per block of the dq kernel,
/// and threads of the kernels over query blocks (4 warps of 16 rows each).
constexpr int64_t kBlock = 64, kThreads = 128;

/// Keys per block of the dkdv (`atomicDq` false) or dkdv_dq kernel for
/// `requested` (64, 128, or 0 for the default); its threads are 2 * keys
/// (one warp per 16 keys). Fails with `why` on other values.
std::optional<int64_t> chooseKeyBlock(int64_t requested, bool atomicDq,
                                      std::string &why);

/// Whether `op` can use the tensor-core backward; when not, `why` says why.
bool isEligible(AttentionGradOp op, std::string &why);

/// Bytes of dynamic shared memory of the `stage` kernel ("dkdv",
/// "dkdv_dq" with `keyBlock` keys per block, "dq"; 0 for the others).
/// `warpgroupMma`: the wgmma key-block kernel (unpadded core-matrix tiles).
int64_t sharedMemoryBytes(AttentionGradOp op, StringRef stage, int64_t keyBlock,
                          bool warpgroupMma);

/// Emits the body of `func` (arguments in manifest order) for spec.stage.
void emitKernel(OpBuilder &b, gpu::GPUFuncOp func, AttentionGradOp op,
                const KernelSpec &spec);

} // namespace mlir::attn::tcgrad

#endif // ATTNOPT_LIB_CONVERSION_ATTNTOGPU_TENSORCOREGRADKERNEL_H
