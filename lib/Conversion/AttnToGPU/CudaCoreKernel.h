//===- CudaCoreKernel.h - the CUDA-core forward kernel's tiling -*- C++ -*-===//
//
// Private to lib/Conversion/AttnToGPU: how the CUDA-core forward kernel
// (AttentionKernelBuilder.cpp) tiles an op, for the kernel-configuration
// chooser (ForwardKernelChooser.cpp) and describeAttentionKernel.
//
//===----------------------------------------------------------------------===//

#ifndef ATTNOPT_LIB_CONVERSION_ATTNTOGPU_CUDACOREKERNEL_H
#define ATTNOPT_LIB_CONVERSION_ATTNTOGPU_CUDACOREKERNEL_H

#include "attnopt/Conversion/AttnToGPU/AttnToGPU.h"

namespace mlir::attn::cc {

/// `blockQ` query rows per block, `threadsPerRow` threads each (1, 2 or 4
/// by the widest head dim); `blockKV` keys per step, staged once (one
/// stage) in static shared memory.
struct Tiling {
  int64_t blockQ = 64, blockKV = 64, threadsPerRow = 1;
  int64_t threads() const { return blockQ * threadsPerRow; }
};

/// The tiling for `op`: blockQ from `blockQHint` (> 0; at most 128) or 64,
/// never above Lq rounded up to 16; blockKV = 64 halved until K and V fit
/// 48 KiB. Fails with a diagnostic at the op where the head dims do not fit.
FailureOr<Tiling> chooseTiling(AttentionOp op, int64_t blockQHint);

/// The configuration of `tiling` as the chooser records it: one stage, the
/// block's threads in whole warps.
ForwardKernelConfig configOf(const Tiling &tiling);

} // namespace mlir::attn::cc

#endif // ATTNOPT_LIB_CONVERSION_ATTNTOGPU_CUDACOREKERNEL_H
