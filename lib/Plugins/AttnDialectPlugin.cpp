//===- AttnDialectPlugin.cpp - attn dialect plugin for mlir-opt -----------===//
//
//   mlir-opt --load-dialect-plugin=lib/AttnDialectPlugin.so in.mlir
//
// Registers the attn dialect with mlir-opt's DialectRegistry.
//
//===----------------------------------------------------------------------===//

#include "PluginSupport.h"

#include "mlir/Tools/Plugins/DialectPlugin.h"
#include "llvm/Config/llvm-config.h"

extern "C" LLVM_ATTRIBUTE_WEAK mlir::DialectPluginLibraryInfo
mlirGetDialectPluginInfo() {
  return {MLIR_PLUGIN_API_VERSION, "AttnDialectPlugin", LLVM_VERSION_STRING,
          [](mlir::DialectRegistry *registry) {
            mlir::attn::registerAttnPluginDialects(*registry);
          }};
}
