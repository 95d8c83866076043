//===- MergeCpuRunner.h - run attn.merge_partials on the CPU ----*- C++ -*-===//

#ifndef ATTNOPT_LIB_EXECUTION_MERGECPURUNNER_H
#define ATTNOPT_LIB_EXECUTION_MERGECPURUNNER_H

#include "attnopt/Dialect/Attn/IR/AttnOps.h"
#include "attnopt/Execution/CpuRunner.h"

namespace mlir::attn {

/// Compiles and runs one attn.merge_partials on random partials (some
/// empty: lse -inf with a NaN output, which must not leak; some rows with
/// every partial empty) `options.runs` times and compares it with a float64
/// evaluation of docs/semantics.md section 16; prints a report to `os`.
LogicalResult runMergeOnCpu(MergePartialsOp op, const CpuRunOptions &options,
                            llvm::raw_ostream &os);

} // namespace mlir::attn

#endif // ATTNOPT_LIB_EXECUTION_MERGECPURUNNER_H
