//===- RuntimeSizes.cpp - which sizes a kernel may take at run time -------===//

#include "RuntimeSizes.h"
#include "KernelCommon.h"

#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "llvm/ADT/TypeSwitch.h"

using namespace mlir;
using namespace mlir::attn;
using namespace mlir::attn::kernel;

namespace {
/// What one dimension of an operand or result is.
enum Dim { Batch, QueryLen, KeyLen, Fixed };

struct TensorDims {
  Value tensor;
  StringRef name;
  SmallVector<Dim, 4> dims;
  /// Masks broadcast: a static 1 is allowed where the size is dynamic.
  bool broadcasts = false;
};
} // namespace

static StringRef sizeName(Dim d) {
  switch (d) {
  case Dim::Batch:
    return "the batch";
  case Dim::QueryLen:
    return "the query length";
  case Dim::KeyLen:
    return "the key length";
  case Dim::Fixed:
    break;
  }
  return "a head count or head dim";
}

/// The tensors of a forward or backward op and what their dimensions are.
static SmallVector<TensorDims> tensorDims(AttentionOpInterface op) {
  const SmallVector<Dim, 4> queryRows = {Batch, Fixed, QueryLen, Fixed},
                            keyRows = {Batch, Fixed, KeyLen, Fixed},
                            scores = {Batch, Fixed, QueryLen, KeyLen};
  SmallVector<TensorDims> t = {{op.getQuery(), "query", queryRows},
                               {op.getKey(), "key", keyRows},
                               {op.getValue(), "value", keyRows}};
  if (Value mask = op.getMask())
    t.push_back({mask, "mask", scores, true});
  if (Value keep = op.getDropoutMask())
    t.push_back({keep, "dropout_mask", scores, true});
  if (auto fwd = dyn_cast<AttentionOp>(op.getOperation())) {
    t.push_back({fwd.getOutput(), "output", queryRows});
    if (fwd.getLse())
      t.push_back({fwd.getLse(), "lse", {Batch, Fixed, QueryLen}});
    return t;
  }
  auto grad = cast<AttentionGradOp>(op.getOperation());
  t.push_back({grad.getOutput(), "output", queryRows});
  t.push_back({grad.getLse(), "lse", {Batch, Fixed, QueryLen}});
  t.push_back({grad.getGradOutput(), "grad_output", queryRows});
  t.push_back({grad.getGradQuery(), "grad_query", queryRows});
  t.push_back({grad.getGradKey(), "grad_key", keyRows});
  t.push_back({grad.getGradValue(), "grad_value", keyRows});
  return t;
}

/// With run-time sizes: each of batch, Lq, Lk dynamic everywhere or nowhere
/// (where it is dynamic, a mask may still broadcast it with a static 1), and
/// everything else static.
static LogicalResult checkRuntimeSizeDims(AttentionOpInterface op) {
  DynamicSizes dyn = DynamicSizes::of(op);
  auto isDynamic = [&](Dim d) {
    return d == Dim::Batch      ? dyn.batch
           : d == Dim::QueryLen ? dyn.queryLen
                                : dyn.keyLen;
  };
  for (const TensorDims &t : tensorDims(op)) {
    auto type = cast<RankedTensorType>(t.tensor.getType());
    for (auto [i, d] : llvm::enumerate(t.dims)) {
      int64_t size = type.getDimSize(i);
      bool dynamic = ShapedType::isDynamic(size);
      if (d == Dim::Fixed) {
        if (dynamic)
          return op->emitOpError("GPU code generation needs static head "
                                 "counts and head dims: dimension ")
                 << i << " of the " << t.name << " (" << type
                 << ") is dynamic (run-time sizes: batch, query and key "
                    "lengths)";
        continue;
      }
      if (dynamic == isDynamic(d) || (t.broadcasts && size == 1))
        continue;
      return op->emitOpError("GPU code generation: ")
             << sizeName(d) << " is " << (dynamic ? "dynamic" : "static")
             << " in dimension " << i << " of the " << t.name << " (" << type
             << ") but " << (dynamic ? "static" : "dynamic")
             << " in the query or key; a size must be static in every tensor "
                "or dynamic in every tensor"
             << (t.broadcasts ? " (a mask may also broadcast it with 1)" : "");
    }
  }
  return success();
}

LogicalResult kernel::checkKernelShapes(AttentionOpInterface op) {
  if (failed(checkRuntimeSizeDims(op)))
    return failure();
  if (failed(checkSizeLimits(op, "GPU code generation")))
    return failure();
  RankedTensorType q = op.getQueryType();
  int64_t batch = q.getDimSize(0), heads = q.getDimSize(1),
          queryLen = q.getDimSize(2), headDim = q.getDimSize(3);
  int64_t kvHeads = op.getKeyType().getDimSize(1),
          keyLen = op.getKeyType().getDimSize(2),
          valueDim = op.getValueType().getDimSize(3);
  auto text = [](int64_t s) {
    return ShapedType::isDynamic(s) ? std::string("?") : std::to_string(s);
  };
  if (batch == 0 || heads == 0 || kvHeads == 0 || queryLen == 0 ||
      keyLen == 0 || headDim == 0 || valueDim == 0)
    return op->emitOpError("GPU code generation: empty tensor (B = ")
           << text(batch) << ", Hq = " << heads << ", Hkv = " << kvHeads
           << ", Lq = " << text(queryLen) << ", Lk = " << text(keyLen)
           << ", D = " << headDim << ", Dv = " << valueDim
           << "): the kernels need every size >= 1";
  if (heads > 65535 || batch > 65535)
    return op->emitOpError("GPU code generation: ")
           << heads << " query heads and batch " << text(batch)
           << ": the kernels' grid has one block row per head and per batch "
              "entry, and CUDA allows at most 65535 in each";
  return success();
}

int64_t kernel::packedBatch(AttentionOpInterface op) {
  Value offsets = TypeSwitch<Operation *, Value>(op.getOperation())
                      .Case<VarlenAttentionOp, VarlenAttentionGradOp>(
                          [](auto packed) { return packed.getCuSeqlensQ(); })
                      .Default([](Operation *) { return Value(); });
  assert(offsets && "not a packed op");
  int64_t count = cast<ShapedType>(offsets.getType()).getDimSize(0);
  return ShapedType::isDynamic(count) ? count : count - 1;
}

LogicalResult kernel::checkOneSize(Operation *op, StringRef size,
                                   ArrayRef<SizeUse> uses) {
  std::optional<std::pair<SizeUse, RankedTensorType>> first;
  for (const SizeUse &use : uses) {
    Value v = abiOperand(op, use.name);
    if (!v)
      continue;
    auto type = cast<RankedTensorType>(v.getType());
    if (!first) {
      first = {use, type};
      continue;
    }
    if (type.isDynamicDim(use.dim) ==
        first->second.isDynamicDim(first->first.dim))
      continue;
    auto where = [](const SizeUse &u, RankedTensorType t) {
      return (Twine(t.isDynamicDim(u.dim) ? "dynamic" : "static") +
              " in dimension " + Twine(u.dim) + " of the " + u.name)
          .str();
    };
    return op->emitOpError("GPU code generation: ")
           << size << " is " << where(first->first, first->second) << " ("
           << first->second << ") but " << where(use, type) << " (" << type
           << "); a size must be static in every tensor or dynamic in every "
              "tensor";
  }
  return success();
}

Value kernel::sizeValue(OpBuilder &b, Location loc, int64_t size, Value arg) {
  if (!ShapedType::isDynamic(size))
    return arith::ConstantIndexOp::create(b, loc, size);
  assert(arg && "a dynamic size needs its kernel argument");
  return arith::IndexCastOp::create(b, loc, b.getIndexType(), arg);
}

kernel::PackedSequence kernel::PackedSequence::load(OpBuilder &b, Location loc,
                                                    Value cuSeqlensQ,
                                                    Value cuSeqlensK,
                                                    Value seq) {
  auto offsetAt = [&](Value offsets, Value i) -> Value {
    Value v = memref::LoadOp::create(b, loc, offsets, ValueRange{i});
    return arith::IndexCastOp::create(b, loc, b.getIndexType(), v);
  };
  Value next = arith::AddIOp::create(b, loc, seq,
                                     arith::ConstantIndexOp::create(b, loc, 1));
  PackedSequence s;
  s.queryToken0 = offsetAt(cuSeqlensQ, seq);
  s.keyToken0 = offsetAt(cuSeqlensK, seq);
  s.queryLen = Extent::dynamic(
      arith::SubIOp::create(b, loc, offsetAt(cuSeqlensQ, next), s.queryToken0));
  s.keyLen = Extent::dynamic(
      arith::SubIOp::create(b, loc, offsetAt(cuSeqlensK, next), s.keyToken0));
  return s;
}
