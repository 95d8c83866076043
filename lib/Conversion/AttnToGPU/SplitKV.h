//===- SplitKV.h - the split-KV forward group's private parts ---*- C++ -*-===//
//
// Private to lib/Conversion/AttnToGPU: what SplitKVKernels.cpp (describe /
// build) and CombineKernelBuilder.cpp (the combine stage) share
// (docs/kernel-manifest.md, "Split-KV forward groups").
//
//===----------------------------------------------------------------------===//

#ifndef ATTNOPT_LIB_CONVERSION_ATTNTOGPU_SPLITKV_H
#define ATTNOPT_LIB_CONVERSION_ATTNTOGPU_SPLITKV_H

#include "attnopt/Conversion/AttnToGPU/AttnToGPU.h"

namespace mlir::attn::splitkv {

/// Output rows (b, h, t) per block of the combine stage: one warp each.
constexpr int64_t kCombineRowsPerBlock = 4;

/// Emits the body of the combine stage `func` (arguments in `spec`'s
/// parameter order): per output row, lse = log sum_s exp(partial_lse_s) and
/// O = sum_s exp(partial_lse_s - lse) partial_output_s, in the op's types.
void emitCombineKernel(OpBuilder &b, gpu::GPUFuncOp func, AttentionOp op,
                       const KernelSpec &spec);

} // namespace mlir::attn::splitkv

#endif // ATTNOPT_LIB_CONVERSION_ATTNTOGPU_SPLITKV_H
