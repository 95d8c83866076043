//===- KernelInterface.h - an op's kernel parameters, ABI -*- C++ -*-===//
//
// Private to lib/Conversion/AttnToGPU. The parameter order of every kernel
// is attnopt::abi::parameterList (include/attnopt/KernelAbi), shared with
// kernels-runtime's manifest validator; this maps it onto an attn op: which
// optional parameters and run-time sizes the op has (abiFeatures), the
// operand or result each tensor parameter stands for (abiOperand), and the
// KernelParams of a manifest entry (abiParams).
//
//===----------------------------------------------------------------------===//

#ifndef ATTNOPT_LIB_CONVERSION_ATTNTOGPU_KERNELINTERFACE_H
#define ATTNOPT_LIB_CONVERSION_ATTNTOGPU_KERNELINTERFACE_H

#include "attnopt/Conversion/AttnToGPU/AttnToGPU.h"
#include "attnopt/KernelAbi/KernelParameters.h"

namespace mlir::attn::kernel {

/// What the parameter list of `op`'s kernels depends on: its optional
/// operands and results, and which of its sizes are run-time ones. `op` is
/// any attn op the GPU kernels take (attention, varlen, paged, merge, and
/// the gradients); the stage fields (combine, gradients) stay unset.
abi::Features abiFeatures(Operation *op);

/// The operand or result of `op` that tensor parameter `name` stands for
/// (key_cache is a paged op's key); null for a name `op` does not have.
Value abiOperand(Operation *op, StringRef name);

/// The parameters of a `family` kernel of `op` with `features`, in the ABI's
/// order: tensors with the dtype and shape of their operand or result,
/// seed/offset and the run-time sizes by value. The workspaces come from
/// `workspaces` (by name where the family lists them, otherwise all of them
/// at the list's workspace position: a backward stage's); the tensor maps,
/// which follow every other parameter, are the caller's.
SmallVector<KernelParam> abiParams(Operation *op, abi::Family family,
                                   const abi::Features &features,
                                   ArrayRef<KernelParam> workspaces = {});

} // namespace mlir::attn::kernel

#endif // ATTNOPT_LIB_CONVERSION_ATTNTOGPU_KERNELINTERFACE_H
