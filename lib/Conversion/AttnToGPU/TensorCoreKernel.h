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

/// Query rows per block, keys per step, threads per block (4 warps, each
/// owning 16 query rows).
constexpr int64_t kBlockQ = 64, kBlockKV = 64, kThreads = 128;

/// Whether `op` can use the tensor-core kernel; when not, `why` says why.
bool isEligible(AttentionOp op, std::string &why);

/// Bytes of dynamic shared memory the kernel for `op` needs
/// (Q tile + double-buffered K and V tiles, padded rows).
int64_t sharedMemoryBytes(AttentionOp op);

/// Emits the body of `func` (arguments in manifest order, no workgroup
/// attributions; shared memory is dynamic).
void emitKernel(OpBuilder &b, gpu::GPUFuncOp func, AttentionOp op,
                const KernelSpec &spec);

} // namespace mlir::attn::tc

#endif // ATTNOPT_LIB_CONVERSION_ATTNTOGPU_TENSORCOREKERNEL_H
