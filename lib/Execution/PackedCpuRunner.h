//===- PackedCpuRunner.h - run the packed-batch ops on the CPU --*- C++ -*-===//

#ifndef ATTNOPT_LIB_EXECUTION_PACKEDCPURUNNER_H
#define ATTNOPT_LIB_EXECUTION_PACKEDCPURUNNER_H

#include "attnopt/Dialect/Attn/IR/AttnOps.h"
#include "attnopt/Execution/CpuRunner.h"

namespace mlir::attn {

/// Compiles and runs one attn.varlen_attention or attn.varlen_attention_grad
/// on packed batches with randomly drawn sequence lengths and compares its
/// results with the per-sequence float64 reference; prints a report to
/// `os`.
LogicalResult runPackedOnCpu(Operation *op, const CpuRunOptions &options,
                             llvm::raw_ostream &os);

} // namespace mlir::attn

#endif // ATTNOPT_LIB_EXECUTION_PACKEDCPURUNNER_H
