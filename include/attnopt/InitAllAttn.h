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
#include "mlir/IR/DialectRegistry.h"

namespace mlir::attn {

inline void registerAttnDialect(DialectRegistry &registry) {
  registry.insert<AttnDialect>();
}

/// Registers every attention-opt pass (the register functions themselves are
/// generated from the Passes.td files).
inline void registerAllAttnPasses() {
  registerAttnPasses();
  registerAttnConversionPasses();
}

} // namespace mlir::attn

#endif // ATTNOPT_INITALLATTN_H
