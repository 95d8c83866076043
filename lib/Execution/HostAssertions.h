//===- HostAssertions.h - run-time assertions of JIT-run code ---*- C++ -*-===//
//
// attn-cpu-run and attn-raise-check run the user's functions on random
// inputs. A `cf.assert` whose condition fails at run time lowers to
// abort(), which took the whole tool down with a stack dump and without the
// assertion's message. These two steps route it to the host instead: the
// assertion becomes a call of a host function that reports the message at
// the assertion's location and ends the tool with exit status 1 (the
// function cannot go on: what its assertion guards may be out of bounds).
//
//===----------------------------------------------------------------------===//

#ifndef ATTNOPT_LIB_EXECUTION_HOSTASSERTIONS_H
#define ATTNOPT_LIB_EXECUTION_HOSTASSERTIONS_H

#include "mlir/ExecutionEngine/ExecutionEngine.h"
#include "mlir/IR/BuiltinOps.h"

namespace mlir::attn {

/// Replaces every `cf.assert %c, "msg"` in `module` by `scf.if (!%c)` around
/// a call of the host's assertion handler with the assertion's id (its
/// message and location are kept on the host). Run after the user's lowering
/// (which may add assertions) and before the lowering to LLVM.
void routeAssertionsToHost(ModuleOp module);

/// Binds the handler's symbol in `engine`.
void registerHostAssertions(ExecutionEngine &engine);

} // namespace mlir::attn

#endif // ATTNOPT_LIB_EXECUTION_HOSTASSERTIONS_H
