//===- SharedMemoryPlan.h - one kernel's dynamic shared memory --*- C++ -*-===//
//
// The layout of a tensor-core kernel's dynamic shared memory: regions placed
// one after another, and the byte count the kernel is launched with. Each
// kernel's layout is one function (TensorCoreKernel.h,
// TensorCoreGradKernel.h) that both the emitter (for the offsets of its
// views) and the manifest's `dynamic_shared_memory` call, so the two cannot
// disagree (before, the offsets and the byte count were written twice).
//
//===----------------------------------------------------------------------===//

#ifndef ATTNOPT_LIB_CONVERSION_ATTNTOGPU_SHAREDMEMORYPLAN_H
#define ATTNOPT_LIB_CONVERSION_ATTNTOGPU_SHAREDMEMORYPLAN_H

#include <cassert>
#include <cstdint>

namespace mlir::attn {

class SharedMemoryPlan {
public:
  /// Appends a region of `bytes` and returns its byte offset. Regions are
  /// packed: each size is a multiple of the alignment its users need (16
  /// bytes for cp.async chunks, 8 for mbarriers), which the caller keeps.
  int64_t place(int64_t bytes) {
    assert(bytes >= 0 && "a region of negative size");
    int64_t at = end;
    end += bytes;
    return at;
  }
  /// Bytes after the last region for a kernel that moves its tiles up to
  /// the next multiple of `alignment` at run time (the dynamic buffer's base
  /// is only guaranteed 16-byte aligned; 128-byte swizzled tiles need 1024).
  void reserveAlignmentSlack(int64_t alignment) { slack = alignment; }
  /// Where the regions end (the offsets above are relative to the aligned
  /// base when there is slack).
  int64_t regionBytes() const { return end; }
  /// What the kernel is launched with.
  int64_t launchBytes() const { return end + slack; }

private:
  int64_t end = 0, slack = 0;
};

/// The dynamic shared memory one block may use on a chip of compute
/// capability `smVersion` x 10 (the opt-in per-block limit; sm_80's when the
/// target is unknown, 0).
inline int64_t maxDynamicSharedBytes(int64_t smVersion) {
  if (smVersion >= 90)
    return 227 * 1024;
  if (smVersion == 86 || smVersion == 87 || smVersion == 89)
    return 99 * 1024;
  return 163 * 1024;
}

} // namespace mlir::attn

#endif // ATTNOPT_LIB_CONVERSION_ATTNTOGPU_SHAREDMEMORYPLAN_H
