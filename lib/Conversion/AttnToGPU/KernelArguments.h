//===- KernelArguments.h - the kernel ABI seen from inside ------*- C++ -*-===//
//
// A kernel's entry block arguments by the names of its parameters, which
// abiParams (KernelInterface.h) wrote from the ABI shared with
// kernels-runtime (attnopt/KernelAbi/KernelParameters.h). Every kernel
// family unpacks its arguments here; a parameter a kernel does not have
// stays null.
//
//===----------------------------------------------------------------------===//

#ifndef ATTNOPT_LIB_CONVERSION_ATTNTOGPU_KERNELARGUMENTS_H
#define ATTNOPT_LIB_CONVERSION_ATTNTOGPU_KERNELARGUMENTS_H

#include "attnopt/Conversion/AttnToGPU/AttnToGPU.h"
#include "mlir/IR/Block.h"
#include "llvm/ADT/StringSwitch.h"
#include "llvm/Support/ErrorHandling.h"

namespace mlir::attn {

struct KernelArguments {
  Value query, key, value, mask, dropoutMask, seed, offset, output, lse;
  /// The backward's inputs and gradients.
  Value gradOutput, gradQuery, gradKey, gradValue;
  /// The f32 workspaces of a backward group.
  Value rowDot, lseLog2, dqAccum;
  /// The run-time sizes (i32), null where the op's size is static.
  Value batch, queryLen, keyLen;
  /// A packed batch's offsets (i32 tensors) and run-time token totals
  /// (i32, null where static).
  Value cuSeqlensQ, cuSeqlensK, totalQueryTokens, totalKeyTokens;
  /// The f32 workspaces of a split-KV forward group, and its chunk count
  /// where that is decided at launch (i32; null where static).
  Value partialOutput, partialLse, numSplits;
  /// A paged cache's block table and cache lengths (i32 tensors; its key
  /// and value caches are `key` and `value`).
  Value blockTable, cacheSeqlens;
  /// A paged cache's run-time page count (i32; the kernels do not read it)
  /// and block-table width (i32, the table's row stride).
  Value numPages, maxPagesPerSeq;
  /// TMA tensor maps (the forward emitters bind theirs from the parameter
  /// list themselves; the warp-specialized key-block kernel reads these).
  Value queryMap, keyMap, valueMap, gradOutputMap;

  /// The arguments of `entry`, a kernel with `spec`'s parameters.
  static KernelArguments unpack(Block &entry, const KernelSpec &spec) {
    KernelArguments a;
    for (auto [i, p] : llvm::enumerate(spec.params)) {
      Value *slot = a.slotNamed(p.name);
      if (!slot)
        llvm::report_fatal_error(llvm::Twine("kernel parameter '") + p.name +
                                 "' has no argument slot");
      *slot = entry.getArgument(i);
    }
    return a;
  }

private:
  Value *slotNamed(StringRef name) {
    return llvm::StringSwitch<Value *>(name)
        .Case("query", &query)
        .Case("key", &key)
        .Case("value", &value)
        .Case("key_cache", &key)
        .Case("value_cache", &value)
        .Case("mask", &mask)
        .Case("dropout_mask", &dropoutMask)
        .Case("seed", &seed)
        .Case("offset", &offset)
        .Case("output", &output)
        .Case("lse", &lse)
        .Case("grad_output", &gradOutput)
        .Case("grad_query", &gradQuery)
        .Case("grad_key", &gradKey)
        .Case("grad_value", &gradValue)
        .Case("row_dot", &rowDot)
        .Case("lse_log2", &lseLog2)
        .Case("dq_accum", &dqAccum)
        .Case("batch", &batch)
        .Case("query_len", &queryLen)
        .Case("key_len", &keyLen)
        .Case("cu_seqlens_q", &cuSeqlensQ)
        .Case("cu_seqlens_k", &cuSeqlensK)
        .Case("total_query_tokens", &totalQueryTokens)
        .Case("total_key_tokens", &totalKeyTokens)
        .Case("partial_output", &partialOutput)
        .Case("partial_lse", &partialLse)
        .Case("num_splits", &numSplits)
        .Case("block_table", &blockTable)
        .Case("cache_seqlens", &cacheSeqlens)
        .Case("num_pages", &numPages)
        .Case("max_pages_per_seq", &maxPagesPerSeq)
        .Case("query_tensor_map", &queryMap)
        .Case("key_tensor_map", &keyMap)
        .Case("value_tensor_map", &valueMap)
        .Case("grad_output_tensor_map", &gradOutputMap)
        .Default(nullptr);
  }
};

} // namespace mlir::attn

#endif // ATTNOPT_LIB_CONVERSION_ATTNTOGPU_KERNELARGUMENTS_H
