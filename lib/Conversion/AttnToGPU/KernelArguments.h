//===- KernelArguments.h - the kernel ABI seen from inside ------*- C++ -*-===//
//
// Both GPU kernels take the op's tensors and scalars in manifest order
// (docs/kernel-manifest.md): query, key, value, [mask], [seed, offset],
// output, [lse]. This names them once.
//
//===----------------------------------------------------------------------===//

#ifndef ATTNOPT_LIB_CONVERSION_ATTNTOGPU_KERNELARGUMENTS_H
#define ATTNOPT_LIB_CONVERSION_ATTNTOGPU_KERNELARGUMENTS_H

#include "attnopt/Dialect/Attn/IR/AttnOps.h"
#include "mlir/IR/Block.h"

namespace mlir::attn {

struct KernelArguments {
  Value query, key, value, mask, seed, offset, output, lse;

  /// Reads the arguments of `entry` (a kernel built for `op`); absent
  /// optional operands stay null.
  static KernelArguments unpack(Block &entry, AttentionOp op) {
    KernelArguments a;
    unsigned arg = 0;
    a.query = entry.getArgument(arg++);
    a.key = entry.getArgument(arg++);
    a.value = entry.getArgument(arg++);
    if (op.getMask())
      a.mask = entry.getArgument(arg++);
    if (op.getSeed()) {
      a.seed = entry.getArgument(arg++);
      a.offset = entry.getArgument(arg++);
    }
    a.output = entry.getArgument(arg++);
    if (op.getLse())
      a.lse = entry.getArgument(arg++);
    return a;
  }
};

} // namespace mlir::attn

#endif // ATTNOPT_LIB_CONVERSION_ATTNTOGPU_KERNELARGUMENTS_H
