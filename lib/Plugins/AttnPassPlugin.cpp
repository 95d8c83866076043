//===- AttnPassPlugin.cpp - attn pass plugin for mlir-opt -----------------===//
//
//   mlir-opt --load-dialect-plugin=lib/AttnDialectPlugin.so \
//     --load-pass-plugin=lib/AttnPassPlugin.so \
//     --pass-pipeline='builtin.module(func.func(attn-decompose))' in.mlir
//
// Registers every attn pass and the named pipelines (attn-cpu-pipeline,
// attn-lower-to-llvm-pipeline, attn-gpu-pipeline). mlir-opt loads pass
// plugins while it parses its command line, after it has made the per-pass
// flags, so plugin passes are reached through --pass-pipeline, not --attn-*.
//
//===----------------------------------------------------------------------===//

#include "PluginSupport.h"

#include "mlir/Tools/Plugins/PassPlugin.h"
#include "llvm/Config/llvm-config.h"

extern "C" LLVM_ATTRIBUTE_WEAK mlir::PassPluginLibraryInfo
mlirGetPassPluginInfo() {
  return {MLIR_PLUGIN_API_VERSION, "AttnPassPlugin", LLVM_VERSION_STRING,
          []() { mlir::attn::registerAttnPluginPasses(); }};
}
