//===- InitAllAttn.h - register the attn dialect and passes -----*- C++ -*-===//
//
// Shared by every tool (attention-opt, attn-cpu-run) and the plugins.
//
//===----------------------------------------------------------------------===//

#ifndef ATTNOPT_INITALLATTN_H
#define ATTNOPT_INITALLATTN_H

#include "attnopt/Conversion/Passes.h"
#include "attnopt/Dialect/Attn/IR/AttnOps.h"
#include "attnopt/Dialect/Attn/Transforms/Passes.h"
#include "attnopt/Pipelines/Pipelines.h"
#include "mlir/IR/DialectRegistry.h"
#include "mlir/Target/LLVMIR/Dialect/Builtin/BuiltinToLLVMIRTranslation.h"
#include "mlir/Target/LLVMIR/Dialect/GPU/GPUToLLVMIRTranslation.h"
#include "mlir/Target/LLVMIR/Dialect/LLVMIR/LLVMToLLVMIRTranslation.h"
#include "mlir/Target/LLVMIR/Dialect/NVVM/NVVMToLLVMIRTranslation.h"

namespace mlir::attn {

/// Registers the translations to LLVM IR that attn-gpu-pipeline's
/// gpu-module-to-binary needs (builtin, gpu, llvm, nvvm). Registering them
/// again (mlir-opt, attn-compile) is harmless: extensions are deduplicated.
inline void registerAttnPipelineTranslations(DialectRegistry &registry) {
  registerBuiltinDialectTranslation(registry);
  registerGPUDialectTranslation(registry);
  registerLLVMDialectTranslation(registry);
  registerNVVMDialectTranslation(registry);
}

/// Registers the attn dialect, and what the attn pipelines need to run to
/// the end in any tool that registers attn
/// (registerAttnPipelineTranslations).
inline void registerAttnDialect(DialectRegistry &registry) {
  registry.insert<AttnDialect>();
  registerAttnPipelineTranslations(registry);
}

/// Registers every attention-opt pass (the register functions themselves are
/// generated from the Passes.td files) and the named pipelines
/// (attn-cpu-pipeline, attn-lower-to-llvm-pipeline, attn-gpu-pipeline; see
/// attnopt/Pipelines/Pipelines.h). Link AttnOptPipelines.
inline void registerAllAttnPasses() {
  registerAttnPasses();
  registerAttnConversionPasses();
  registerAttnPipelines();
}

} // namespace mlir::attn

#endif // ATTNOPT_INITALLATTN_H
