//===- InlinePtx.h - PTX that has no NVVM op --------------------*- C++ -*-===//
//
// The one way the GPU kernel builders write PTX that MLIR 22's NVVM dialect
// has no op for (wgmma with a register A operand, the non-tensor bulk
// reduction, vector reductions, the mbarrier wait loop without a suspend
// hint, register fences): an llvm.inline_asm in AT&T dialect. Everything
// that has an op (ldmatrix, mma.sync, mbarrier init / arrive, named
// barriers, bulk and tensor copies, their groups, cvt packs, fences,
// setmaxnreg) is built with that op instead, so that LLVM sees what it is.
//
//===----------------------------------------------------------------------===//

#ifndef ATTNOPT_LIB_CONVERSION_ATTNTOGPU_INLINEPTX_H
#define ATTNOPT_LIB_CONVERSION_ATTNTOGPU_INLINEPTX_H

#include "mlir/IR/Builders.h"

namespace mlir::attn::ptx {

/// A PTX statement with side effects and no results: `operands` bound to
/// `$0, $1, ...` by `constraints` ("r", "l", "f", comma separated).
void statement(OpBuilder &b, Location loc, const Twine &text,
               StringRef constraints, ValueRange operands);

/// PTX with results of `resultTypes` (outputs `$0 .. $n-1`, their
/// constraints first in `constraints`), then `operands`. `sideEffects`
/// keeps LLVM from moving, merging or dropping it.
SmallVector<Value> withResults(OpBuilder &b, Location loc,
                               TypeRange resultTypes, ValueRange operands,
                               const Twine &text, StringRef constraints,
                               bool sideEffects);

} // namespace mlir::attn::ptx

#endif // ATTNOPT_LIB_CONVERSION_ATTNTOGPU_INLINEPTX_H
