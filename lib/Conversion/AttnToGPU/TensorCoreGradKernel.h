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

#include <string>

namespace mlir::attn::tcgrad {

/// Query rows and keys per block (Br = Bc), and threads per block (4 warps
/// of 16 rows each).
constexpr int64_t kBlock = 64, kThreads = 128;

/// Whether `op` can use the tensor-core backward; when not, `why` says why.
bool isEligible(AttentionGradOp op, std::string &why);

/// Bytes of dynamic shared memory of the `stage` ("dkdv" or "dq") kernel.
int64_t sharedMemoryBytes(AttentionGradOp op, StringRef stage);

/// Emits the body of `func` (arguments in manifest order) for spec.stage.
void emitKernel(OpBuilder &b, gpu::GPUFuncOp func, AttentionGradOp op,
                const KernelSpec &spec);

} // namespace mlir::attn::tcgrad

#endif // ATTNOPT_LIB_CONVERSION_ATTNTOGPU_TENSORCOREGRADKERNEL_H
