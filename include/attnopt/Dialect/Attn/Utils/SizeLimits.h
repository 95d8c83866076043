//===- SizeLimits.h - the problem sizes the tools support -------*- C++ -*-===//
//
// One set of size limits for every tool (attn-select-tiles, attn-tile,
// attn-cpu-run, attn-to-gpu / attn-compile), checked in one place, so that
// a size beyond what a tool supports gets a diagnostic naming the limit
// instead of a division by zero, a wrapped byte count, a hang or a fault.
// The verifier accepts larger IR (an op is valid at any size); these are the
// limits of the implementations.
//
//===----------------------------------------------------------------------===//

#ifndef ATTNOPT_DIALECT_ATTN_UTILS_SIZELIMITS_H
#define ATTNOPT_DIALECT_ATTN_UTILS_SIZELIMITS_H

#include "attnopt/Dialect/Attn/IR/AttnOps.h"

#include <optional>

namespace mlir::attn {

/// Batch, heads and sequence lengths: at most 2^31 - 1 (32-bit lengths in
/// the kernels, grid dimensions, a closed-form IO model).
constexpr int64_t kMaxSequenceDim = (int64_t(1) << 31) - 1;
/// Head dims: at most 2^16, so that tile, register and shared-memory byte
/// counts (head dim x tile rows x element bytes x stages) cannot overflow.
constexpr int64_t kMaxHeadDim = int64_t(1) << 16;
/// Elements of one tensor: at most 2^56, so that byte counts of 8-byte
/// (float64 reference) elements fit in 64 bits.
constexpr int64_t kMaxTensorElements = int64_t(1) << 56;

/// The product of `sizes`, or nullopt if it overflows int64 (or a size is
/// negative or dynamic).
std::optional<int64_t> checkedProduct(ArrayRef<int64_t> sizes);

/// Checks the static sizes of `op` (operands and results) against the
/// limits above; on failure emits an error at the op that names `tool`, the
/// size and the limit.
LogicalResult checkSizeLimits(Operation *op, StringRef tool);

} // namespace mlir::attn

#endif // ATTNOPT_DIALECT_ATTN_UTILS_SIZELIMITS_H
