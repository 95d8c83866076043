//===- AttnOps.h - attn operations ------------------------------*- C++ -*-===//

#ifndef ATTNOPT_DIALECT_ATTN_IR_ATTNOPS_H
#define ATTNOPT_DIALECT_ATTN_IR_ATTNOPS_H

#include "attnopt/Dialect/Attn/IR/AttnDialect.h"
#include "mlir/Dialect/Linalg/IR/LinalgInterfaces.h"
#include "mlir/IR/BuiltinTypes.h"
#include "mlir/IR/OpDefinition.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"

#include <cmath>

#include "attnopt/Dialect/Attn/IR/AttnEnums.h.inc"

#define GET_ATTRDEF_CLASSES
#include "attnopt/Dialect/Attn/IR/AttnAttrs.h.inc"

#include "attnopt/Dialect/Attn/IR/AttnInterfaces.h.inc"

#define GET_OP_CLASSES
#include "attnopt/Dialect/Attn/IR/AttnOps.h.inc"

#endif // ATTNOPT_DIALECT_ATTN_IR_ATTNOPS_H
