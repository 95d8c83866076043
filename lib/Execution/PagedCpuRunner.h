//===- PagedCpuRunner.h - run attn.paged_attention on the CPU ---*- C++ -*-===//

#ifndef ATTNOPT_LIB_EXECUTION_PAGEDCPURUNNER_H
#define ATTNOPT_LIB_EXECUTION_PAGEDCPURUNNER_H

#include "attnopt/Dialect/Attn/IR/AttnOps.h"
#include "attnopt/Execution/CpuRunner.h"

namespace mlir::attn {

/// Compiles and runs one attn.paged_attention on caches whose sequence
/// lengths and block tables are drawn at random for each run and compares
/// its results with the per-sequence float64 reference; prints a report to
/// `os`.
LogicalResult runPagedOnCpu(PagedAttentionOp op, const CpuRunOptions &options,
                            llvm::raw_ostream &os);

} // namespace mlir::attn

#endif // ATTNOPT_LIB_EXECUTION_PAGEDCPURUNNER_H
