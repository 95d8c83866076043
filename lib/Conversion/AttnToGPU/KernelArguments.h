//===- KernelArguments.h - the kernel ABI seen from inside ------*- C++ -*-===//
//
// The forward GPU kernels take the op's tensors and scalars in manifest order
// (docs/kernel-manifest.md): query, key, value, [mask], [dropout_mask],
// [seed, offset], output, [lse]; the backward kernels those of
// attn.attention_grad. This names them once.
//
//===----------------------------------------------------------------------===//

#ifndef ATTNOPT_LIB_CONVERSION_ATTNTOGPU_KERNELARGUMENTS_H
#define ATTNOPT_LIB_CONVERSION_ATTNTOGPU_KERNELARGUMENTS_H

#include "attnopt/Dialect/Attn/IR/AttnOps.h"
#include "mlir/IR/Block.h"

namespace mlir::attn {

struct KernelArguments {
  Value query, key, value, mask, dropoutMask, seed, offset, output, lse;

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
    if (op.getDropoutMask())
      a.dropoutMask = entry.getArgument(arg++);
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

/// The backward kernels' arguments (docs/kernel-manifest.md, "Backward
/// kernels"): query, key, value, output, lse, grad_output, [mask],
/// [seed, offset], then grad_key, grad_value (stage "dkdv") or grad_query
/// (stage "dq").
struct GradKernelArguments {
  Value query, key, value, output, lse, gradOutput, mask, seed, offset;
  Value gradQuery, gradKey, gradValue;

  static GradKernelArguments unpack(Block &entry, AttentionGradOp op,
                                    bool dkdvStage) {
    GradKernelArguments a;
    unsigned arg = 0;
    a.query = entry.getArgument(arg++);
    a.key = entry.getArgument(arg++);
    a.value = entry.getArgument(arg++);
    a.output = entry.getArgument(arg++);
    a.lse = entry.getArgument(arg++);
    a.gradOutput = entry.getArgument(arg++);
    if (op.getMask())
      a.mask = entry.getArgument(arg++);
    if (op.getSeed()) {
      a.seed = entry.getArgument(arg++);
      a.offset = entry.getArgument(arg++);
    }
    if (dkdvStage) {
      a.gradKey = entry.getArgument(arg++);
      a.gradValue = entry.getArgument(arg++);
    } else {
      a.gradQuery = entry.getArgument(arg++);
    }
    return a;
  }
};

} // namespace mlir::attn

#endif // ATTNOPT_LIB_CONVERSION_ATTNTOGPU_KERNELARGUMENTS_H
