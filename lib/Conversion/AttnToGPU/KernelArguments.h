//===- KernelArguments.h - the kernel ABI seen from inside ------*- C++ -*-===//
//
// The forward GPU kernels take the op's tensors and scalars in manifest order
// (docs/kernel-manifest.md): query, key, value, [mask], [dropout_mask],
// [seed, offset], output, [lse], [batch], [query_len], [key_len] (the
// run-time sizes, RuntimeSizes.h); the backward kernels those of
// attn.attention_grad. This names them once.
//
//===----------------------------------------------------------------------===//

#ifndef ATTNOPT_LIB_CONVERSION_ATTNTOGPU_KERNELARGUMENTS_H
#define ATTNOPT_LIB_CONVERSION_ATTNTOGPU_KERNELARGUMENTS_H

#include "RuntimeSizes.h"
#include "attnopt/Conversion/AttnToGPU/AttnToGPU.h"
#include "attnopt/Dialect/Attn/IR/AttnOps.h"
#include "mlir/IR/Block.h"
#include "llvm/ADT/StringSwitch.h"

namespace mlir::attn {

struct KernelArguments {
  Value query, key, value, mask, dropoutMask, seed, offset, output, lse;
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
  /// A paged cache's run-time page count (i32; the kernels do not read it).
  Value numPages;

  /// The arguments of a stage of a split-KV forward group
  /// (docs/kernel-manifest.md, "Split-KV forward groups"), by the names of
  /// the parameter list describeSplitKVAttentionKernels wrote: query, key,
  /// value, [mask], partial_output, partial_lse, [output, lse], then the
  /// run-time sizes, [num_splits], [the tensor maps, which the emitter
  /// binds itself]; for a paged cache query, key_cache, value_cache,
  /// block_table, cache_seqlens, then the workspaces and results.
  static KernelArguments unpackByName(Block &entry, const KernelSpec &spec) {
    KernelArguments a;
    for (auto [i, p] : llvm::enumerate(spec.params)) {
      if (p.isTensorMap())
        continue;
      Value *slot = llvm::StringSwitch<Value *>(p.name)
                        .Case("query", &a.query)
                        .Case("key", &a.key)
                        .Case("value", &a.value)
                        .Case("key_cache", &a.key)
                        .Case("value_cache", &a.value)
                        .Case("block_table", &a.blockTable)
                        .Case("cache_seqlens", &a.cacheSeqlens)
                        .Case("mask", &a.mask)
                        .Case("partial_output", &a.partialOutput)
                        .Case("partial_lse", &a.partialLse)
                        .Case("output", &a.output)
                        .Case("lse", &a.lse)
                        .Case("batch", &a.batch)
                        .Case("query_len", &a.queryLen)
                        .Case("key_len", &a.keyLen)
                        .Case("num_splits", &a.numSplits)
                        .Case("num_pages", &a.numPages)
                        .Default(nullptr);
      assert(slot && "a parameter the split-KV stages do not have");
      *slot = entry.getArgument(i);
    }
    return a;
  }

  /// The arguments of a packed forward kernel (docs/kernel-manifest.md,
  /// "Packed variable-length batches"): query, key, value, cu_seqlens_q,
  /// cu_seqlens_k, [seed, offset], output, [lse], then the run-time sizes
  /// [batch], [total_query_tokens], [total_key_tokens].
  static KernelArguments unpack(Block &entry, VarlenAttentionOp op) {
    KernelArguments a;
    unsigned arg = 0;
    for (Value *v : {&a.query, &a.key, &a.value, &a.cuSeqlensQ, &a.cuSeqlensK})
      *v = entry.getArgument(arg++);
    if (op.getSeed()) {
      a.seed = entry.getArgument(arg++);
      a.offset = entry.getArgument(arg++);
    }
    a.output = entry.getArgument(arg++);
    if (op.getLse())
      a.lse = entry.getArgument(arg++);
    if (cast<ShapedType>(op.getCuSeqlensQ().getType()).isDynamicDim(0))
      a.batch = entry.getArgument(arg++);
    if (op.getQueryType().isDynamicDim(0))
      a.totalQueryTokens = entry.getArgument(arg++);
    if (op.getKeyType().isDynamicDim(0))
      a.totalKeyTokens = entry.getArgument(arg++);
    return a;
  }

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
    // Then the run-time sizes, in kernel::appendSizeParams's order.
    kernel::DynamicSizes dynamic = kernel::DynamicSizes::of(op);
    if (dynamic.batch)
      a.batch = entry.getArgument(arg++);
    if (dynamic.queryLen)
      a.queryLen = entry.getArgument(arg++);
    if (dynamic.keyLen)
      a.keyLen = entry.getArgument(arg++);
    return a;
  }
};

/// The backward kernels' arguments (docs/kernel-manifest.md, "Backward
/// kernels"): query, key, value, output, lse, grad_output, [mask],
/// [seed, offset], the stage's workspaces, its outputs, then the run-time
/// sizes [batch], [query_len], [key_len]; for a packed batch ("Packed
/// backward kernels") cu_seqlens_q and cu_seqlens_k after grad_output and
/// the sizes [batch], [total_query_tokens], [total_key_tokens]. Unpacked by the
/// names of the kernel's parameter list, which describeAttentionGradKernels
/// wrote in that order; absent ones stay null.
struct GradKernelArguments {
  Value query, key, value, output, lse, gradOutput, mask, seed, offset;
  Value rowDot, lseLog2, dqAccum; ///< workspaces
  Value gradQuery, gradKey, gradValue;
  /// The warp-specialized key-block kernel's TMA tensor maps.
  Value queryMap, keyMap, valueMap, gradOutputMap;
  /// The run-time sizes (i32), null where the op's size is static.
  Value batch, queryLen, keyLen;
  /// A packed batch's offsets (i32 tensors) and run-time token totals.
  Value cuSeqlensQ, cuSeqlensK, totalQueryTokens, totalKeyTokens;

  static GradKernelArguments unpack(Block &entry, const KernelSpec &spec) {
    GradKernelArguments a;
    for (auto [i, p] : llvm::enumerate(spec.params)) {
      Value arg = entry.getArgument(i);
      llvm::StringSwitch<Value *>(p.name)
          .Case("query", &a.query)
          .Case("key", &a.key)
          .Case("value", &a.value)
          .Case("output", &a.output)
          .Case("lse", &a.lse)
          .Case("grad_output", &a.gradOutput)
          .Case("mask", &a.mask)
          .Case("seed", &a.seed)
          .Case("offset", &a.offset)
          .Case("row_dot", &a.rowDot)
          .Case("lse_log2", &a.lseLog2)
          .Case("dq_accum", &a.dqAccum)
          .Case("grad_query", &a.gradQuery)
          .Case("grad_key", &a.gradKey)
          .Case("grad_value", &a.gradValue)
          .Case("batch", &a.batch)
          .Case("query_len", &a.queryLen)
          .Case("key_len", &a.keyLen)
          .Case("cu_seqlens_q", &a.cuSeqlensQ)
          .Case("cu_seqlens_k", &a.cuSeqlensK)
          .Case("total_query_tokens", &a.totalQueryTokens)
          .Case("total_key_tokens", &a.totalKeyTokens)
          .Case("query_tensor_map", &a.queryMap)
          .Case("key_tensor_map", &a.keyMap)
          .Case("value_tensor_map", &a.valueMap)
          .Case("grad_output_tensor_map", &a.gradOutputMap)
          .Default(nullptr)
          ->
          operator=(arg);
    }
    return a;
  }
};

} // namespace mlir::attn

#endif // ATTNOPT_LIB_CONVERSION_ATTNTOGPU_KERNELARGUMENTS_H
