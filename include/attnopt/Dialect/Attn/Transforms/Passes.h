//===- Passes.h - attn transformation passes --------------------*- C++ -*-===//

#ifndef ATTNOPT_DIALECT_ATTN_TRANSFORMS_PASSES_H
#define ATTNOPT_DIALECT_ATTN_TRANSFORMS_PASSES_H

#include "attnopt/Dialect/Attn/IR/AttnOps.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Pass/Pass.h"

namespace mlir::attn {

#define GEN_PASS_DECL
#include "attnopt/Dialect/Attn/Transforms/Passes.h.inc"

#define GEN_PASS_REGISTRATION
#include "attnopt/Dialect/Attn/Transforms/Passes.h.inc"

} // namespace mlir::attn

#endif // ATTNOPT_DIALECT_ATTN_TRANSFORMS_PASSES_H
