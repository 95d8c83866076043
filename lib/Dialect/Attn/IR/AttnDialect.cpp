//===- AttnDialect.cpp - attn dialect registration ------------------------===//

#include "attnopt/Dialect/Attn/IR/AttnDialect.h"
#include "attnopt/Dialect/Attn/IR/AttnOps.h"

#include "mlir/IR/Builders.h"
#include "mlir/IR/DialectImplementation.h"
#include "llvm/ADT/TypeSwitch.h"

using namespace mlir;
using namespace mlir::attn;

#include "attnopt/Dialect/Attn/IR/AttnOpsDialect.cpp.inc"
#include "attnopt/Dialect/Attn/IR/AttnEnums.cpp.inc"

#define GET_ATTRDEF_CLASSES
#include "attnopt/Dialect/Attn/IR/AttnAttrs.cpp.inc"

void AttnDialect::initialize() {
  addAttributes<
#define GET_ATTRDEF_LIST
#include "attnopt/Dialect/Attn/IR/AttnAttrs.cpp.inc"
      >();
  addOperations<
#define GET_OP_LIST
#include "attnopt/Dialect/Attn/IR/AttnOps.cpp.inc"
      >();
}
