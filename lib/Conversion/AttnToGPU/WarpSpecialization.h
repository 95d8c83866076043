//===- WarpSpecialization.h - producer / consumer warpgroups ----*- C++ -*-===//
//
// Private to lib/Conversion/AttnToGPU: the launch shape of the
// warp-specialized kernels (the wgmma forward, TensorCoreCopies.cpp, and
// the backward's wgmma key-block kernel, TensorCoreGradKeyBlockWgmma.cpp):
// one producer warpgroup in front of the consumer warpgroups, and how
// setmaxnreg shares the registers between them. No MLIR here: the kernel
// choosers (describe*) use it as well as the emitters.
//
//===----------------------------------------------------------------------===//

#ifndef ATTNOPT_LIB_CONVERSION_ATTNTOGPU_WARPSPECIALIZATION_H
#define ATTNOPT_LIB_CONVERSION_ATTNTOGPU_WARPSPECIALIZATION_H

#include <cstdint>

namespace mlir::attn {

/// The producer warpgroup's threads; they come before the consumers'.
constexpr int64_t kProducerWarpgroupThreads = 128;

/// setmaxnreg budgets of a warp-specialized kernel. A block starts with its
/// share of the SM's 65536 registers (at `blocksPerSM` blocks per SM,
/// rounded down to 8 per thread, at most 255), and setmaxnreg.inc only
/// takes registers that the block's setmaxnreg.dec gave back (it blocks
/// until then: a budget over the entry's total hung a kernel on the H200).
/// So the producer gives back down to `producer` and the consumers share
/// the rest (at most 248).
struct RegisterBudgets {
  int64_t atEntry, producer, consumers;
  constexpr bool rebalance() const { return atEntry < 255; }
};
constexpr RegisterBudgets registerBudgets(int64_t blockThreads,
                                          int64_t consumerThreads,
                                          int64_t blocksPerSM,
                                          int64_t producer) {
  const int64_t perThread = 65536 / blocksPerSM / blockThreads;
  const int64_t atEntry = perThread >= 255 ? 255 : perThread / 8 * 8;
  const int64_t spare =
      atEntry * blockThreads - kProducerWarpgroupThreads * producer;
  const int64_t consumers = spare / consumerThreads / 8 * 8;
  return {atEntry, producer, consumers > 248 ? 248 : consumers};
}

} // namespace mlir::attn

#endif // ATTNOPT_LIB_CONVERSION_ATTNTOGPU_WARPSPECIALIZATION_H
