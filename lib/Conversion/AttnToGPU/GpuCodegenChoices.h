//===- GpuCodegenChoices.h - pass options to GpuCodegenChoices --*- C++ -*-===//
//
// Private to lib/Conversion/AttnToGPU: the passes that share the forward
// kernel chooser's options (Passes.td, AttnForwardKernelOptions) read them
// into GpuCodegenChoices the same way.
//
//===----------------------------------------------------------------------===//

#ifndef ATTNOPT_LIB_CONVERSION_ATTNTOGPU_GPUCODEGENCHOICES_H
#define ATTNOPT_LIB_CONVERSION_ATTNTOGPU_GPUCODEGENCHOICES_H

#include "attnopt/Conversion/AttnToGPU/AttnToGPU.h"

namespace mlir::attn {

/// The forward choices of a pass with AttnForwardKernelOptions (its
/// options, in their order; pass options are protected members, so the
/// pass passes them); the backward ones keep their defaults
/// (withBackwardChoices sets them).
inline GpuCodegenChoices
forwardCodegenChoices(StringRef chip, StringRef kernel, StringRef mma,
                      StringRef tma, int64_t blockQ, int64_t blockKV,
                      int64_t warps, StringRef splitKV, int64_t smCount,
                      StringRef persistent, StringRef f32Precision) {
  GpuCodegenChoices choices;
  choices.chip = chip.str();
  choices.kernel = kernel.str();
  choices.mma = mma.str();
  choices.tma = tma.str();
  choices.blockQ = blockQ;
  choices.blockKV = blockKV;
  choices.warps = warps;
  choices.splitKV = splitKV.str();
  choices.smCount = smCount;
  choices.persistent = persistent.str();
  choices.f32Precision = f32Precision.str();
  return choices;
}

/// `choices` with the backward choices of a pass with
/// AttnBackwardKernelOptions.
inline GpuCodegenChoices
withBackwardChoices(GpuCodegenChoices choices, StringRef gradMma,
                    StringRef gradTma, StringRef gradDq, int64_t gradBlockKV) {
  choices.gradMma = gradMma.str();
  choices.gradTma = gradTma.str();
  choices.gradDq = gradDq.str();
  choices.gradBlockKV = gradBlockKV;
  return choices;
}

} // namespace mlir::attn

#endif // ATTNOPT_LIB_CONVERSION_ATTNTOGPU_GPUCODEGENCHOICES_H
