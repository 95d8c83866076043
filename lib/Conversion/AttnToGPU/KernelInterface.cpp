//===- KernelInterface.cpp - an op's kernel parameters from the ABI -------===//

#include "KernelInterface.h"
#include "KernelCommon.h"
#include "RuntimeSizes.h"

#include "llvm/ADT/StringSwitch.h"
#include "llvm/ADT/TypeSwitch.h"

using namespace mlir;
using namespace mlir::attn;
using namespace mlir::attn::kernel;

static bool isDynamicDim(Value v, unsigned d) {
  return cast<ShapedType>(v.getType()).isDynamicDim(d);
}

/// The run-time sizes of a dense forward or backward op: batch, query and
/// key length.
static void setDenseSizes(AttentionOpInterface op, abi::Features &f) {
  DynamicSizes d = DynamicSizes::of(op);
  f.runtimeBatch = d.batch;
  f.runtimeQueryRows = d.queryLen;
  f.runtimeKeyRows = d.keyLen;
}

/// The run-time sizes of a packed op: the batch (the offsets' length - 1)
/// and the token totals.
static void setPackedSizes(AttentionOpInterface op, abi::Features &f) {
  f.runtimeBatch = ShapedType::isDynamic(packedBatch(op));
  f.runtimeQueryRows = op.getQueryType().isDynamicDim(0);
  f.runtimeKeyRows = op.getKeyType().isDynamicDim(0);
}

abi::Features kernel::abiFeatures(Operation *op) {
  abi::Features f;
  TypeSwitch<Operation *>(op)
      .Case([&](AttentionOp a) {
        f.mask = static_cast<bool>(a.getMask());
        f.dropoutMask = static_cast<bool>(a.getDropoutMask());
        f.rng = static_cast<bool>(a.getSeed());
        f.lse = static_cast<bool>(a.getLse());
        setDenseSizes(a, f);
      })
      .Case([&](VarlenAttentionOp a) {
        f.rng = static_cast<bool>(a.getSeed());
        f.lse = static_cast<bool>(a.getLse());
        setPackedSizes(a, f);
      })
      .Case([&](PagedAttentionOp a) {
        // The batch, the page count and the block table's width
        // (PagedKernels.cpp refuses others).
        f.lse = static_cast<bool>(a.getLse());
        f.runtimeBatch = isDynamicDim(a.getQuery(), 0);
        f.runtimeKeyRows = isDynamicDim(a.getKey(), 0);
        f.runtimeMaxPages = isDynamicDim(a.getBlockTable(), 1);
      })
      .Case([&](AttentionGradOp a) {
        f.mask = static_cast<bool>(a.getMask());
        f.rng = static_cast<bool>(a.getSeed());
        setDenseSizes(a, f);
      })
      .Case([&](VarlenAttentionGradOp a) {
        f.rng = static_cast<bool>(a.getSeed());
        setPackedSizes(a, f);
      })
      .Case([&](MergePartialsOp m) { f.lse = static_cast<bool>(m.getLse()); })
      .Default([](Operation *) {
        llvm_unreachable("an op the GPU kernels do not take");
      });
  return f;
}

/// The tensors a gradient op (dense or packed) shares by name.
template <typename GradOpT>
static Value gradOperand(GradOpT op, StringRef name) {
  return llvm::StringSwitch<Value>(name)
      .Case("query", op.getQuery())
      .Case("key", op.getKey())
      .Case("value", op.getValue())
      .Case("output", op.getOutput())
      .Case("lse", op.getLse())
      .Case("grad_output", op.getGradOutput())
      .Case("mask", op.getMask())
      .Case("grad_query", op.getGradQuery())
      .Case("grad_key", op.getGradKey())
      .Case("grad_value", op.getGradValue())
      .Default(Value());
}

Value kernel::abiOperand(Operation *op, StringRef name) {
  return TypeSwitch<Operation *, Value>(op)
      .Case([&](AttentionOp a) {
        return llvm::StringSwitch<Value>(name)
            .Case("query", a.getQuery())
            .Case("key", a.getKey())
            .Case("value", a.getValue())
            .Case("mask", a.getMask())
            .Case("dropout_mask", a.getDropoutMask())
            .Case("output", a.getOutput())
            .Case("lse", a.getLse())
            .Default(Value());
      })
      .Case([&](VarlenAttentionOp a) {
        return llvm::StringSwitch<Value>(name)
            .Case("query", a.getQuery())
            .Case("key", a.getKey())
            .Case("value", a.getValue())
            .Case("cu_seqlens_q", a.getCuSeqlensQ())
            .Case("cu_seqlens_k", a.getCuSeqlensK())
            .Case("output", a.getOutput())
            .Case("lse", a.getLse())
            .Default(Value());
      })
      .Case([&](PagedAttentionOp a) {
        return llvm::StringSwitch<Value>(name)
            .Case("query", a.getQuery())
            .Case("key_cache", a.getKey())
            .Case("value_cache", a.getValue())
            .Case("block_table", a.getBlockTable())
            .Case("cache_seqlens", a.getCacheSeqlens())
            .Case("output", a.getOutput())
            .Case("lse", a.getLse())
            .Default(Value());
      })
      .Case([&](AttentionGradOp a) { return gradOperand(a, name); })
      .Case([&](VarlenAttentionGradOp a) -> Value {
        if (name == "cu_seqlens_q")
          return a.getCuSeqlensQ();
        if (name == "cu_seqlens_k")
          return a.getCuSeqlensK();
        return gradOperand(a, name);
      })
      .Case([&](MergePartialsOp m) {
        return llvm::StringSwitch<Value>(name)
            .Case("partial_output", m.getPartialOutput())
            .Case("partial_lse", m.getPartialLse())
            .Case("output", m.getOutput())
            .Case("lse", m.getLse())
            .Default(Value());
      })
      .Default([](Operation *) { return Value(); });
}

SmallVector<KernelParam> kernel::abiParams(Operation *op, abi::Family family,
                                           const abi::Features &features,
                                           ArrayRef<KernelParam> workspaces) {
  const abi::ParameterList list = abi::parameterList(family, features);
  auto workspaceNamed = [&](StringRef name) {
    for (const KernelParam &w : workspaces)
      if (w.name == name)
        return w;
    llvm_unreachable("a workspace the ABI lists but the caller did not give");
  };
  bool listsWorkspaces = false;
  SmallVector<KernelParam> params;
  for (const abi::Param &p : list.params) {
    switch (p.kind) {
    case abi::ParamKind::U64:
      params.push_back(scalarParam(p.name));
      break;
    case abi::ParamKind::I32:
      params.push_back(sizeParam(p.name));
      break;
    case abi::ParamKind::Tensor:
      if (p.role == abi::ParamRole::Workspace) {
        params.push_back(workspaceNamed(p.name));
        listsWorkspaces = true;
        break;
      }
      Value v = abiOperand(op, p.name);
      assert(v && "a tensor parameter the op does not have");
      params.push_back(tensorParam(p.name, v, p.isOutput()));
      break;
    }
  }
  // A backward stage's workspaces, which the ABI places but does not name.
  // (SmallVector::insert of an empty range before the end self-moves the
  // elements after it, which empties their strings.)
  if (!listsWorkspaces && !workspaces.empty())
    params.insert(params.begin() + list.workspacesAt, workspaces.begin(),
                  workspaces.end());
  return params;
}
