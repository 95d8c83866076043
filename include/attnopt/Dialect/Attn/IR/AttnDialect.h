//===- AttnDialect.h - attn dialect -----------------------------*- C++ -*-===//

#ifndef ATTNOPT_DIALECT_ATTN_IR_ATTNDIALECT_H
#define ATTNOPT_DIALECT_ATTN_IR_ATTNDIALECT_H

#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/IR/Dialect.h"

#include "attnopt/Dialect/Attn/IR/AttnOpsDialect.h.inc"

#endif // ATTNOPT_DIALECT_ATTN_IR_ATTNDIALECT_H
