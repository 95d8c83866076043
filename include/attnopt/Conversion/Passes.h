//===- Passes.h - attention-opt conversion passes ---------------*- C++ -*-===//

#ifndef ATTNOPT_CONVERSION_PASSES_H
#define ATTNOPT_CONVERSION_PASSES_H

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/LLVMIR/NVVMDialect.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/Pass/Pass.h"

namespace mlir::attn {

#define GEN_PASS_DECL
#include "attnopt/Conversion/Passes.h.inc"

#define GEN_PASS_REGISTRATION
#include "attnopt/Conversion/Passes.h.inc"

} // namespace mlir::attn

#endif // ATTNOPT_CONVERSION_PASSES_H
