//===- PluginSupport.cpp - what the attn mlir-opt plugins register --------===//
//
// This file implements the shared library behind AttnDialectPlugin.so and
// AttnPassPlugin.so (PluginSupport.h).
//
//===----------------------------------------------------------------------===//

#include "PluginSupport.h"

#include "attnopt/InitAllAttn.h"

#include "mlir/IR/DialectRegistry.h"

void mlir::attn::registerAttnPluginDialects(DialectRegistry &registry) {
  registerAttnDialect(registry);
}

void mlir::attn::registerAttnPluginPasses() {
  static bool registered = [] {
    registerAllAttnPasses();
    return true;
  }();
  (void)registered;
}
