//===- GradientCpuRunner.h - run attn.attention_grad on the CPU -*- C++ -*-===//

#ifndef ATTNOPT_LIB_EXECUTION_GRADIENTCPURUNNER_H
#define ATTNOPT_LIB_EXECUTION_GRADIENTCPURUNNER_H

#include "attnopt/Dialect/Attn/IR/AttnOps.h"
#include "attnopt/Execution/CpuRunner.h"

namespace mlir::attn {

/// Compiles and runs one gradient op and compares dQ, dK, dV with the
/// float64 gradient reference; prints a report to `os`.
LogicalResult runGradientOnCpu(AttentionGradOp op, const CpuRunOptions &options,
                               llvm::raw_ostream &os);

} // namespace mlir::attn

#endif // ATTNOPT_LIB_EXECUTION_GRADIENTCPURUNNER_H
