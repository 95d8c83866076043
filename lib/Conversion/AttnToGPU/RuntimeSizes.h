//===- RuntimeSizes.h - the sizes a kernel reads at run time ----*- C++ -*-===//
//
// Private to lib/Conversion/AttnToGPU. The batch and the sequence lengths
// that are dynamic (`?`) in an attn.attention become i32 kernel parameters
// named batch, query_len and key_len, after the kernel's other parameters
// (docs/kernel-manifest.md, "Run-time sizes"); head counts, head dims,
// dtypes and features stay compile-time. Inside a kernel builder each of
// these sizes is an Extent: the constant where the IR has one, else the
// parameter's value, so the builders have one code path and a static size
// keeps the code it had before dynamic sizes existed.
//
//===----------------------------------------------------------------------===//

#ifndef ATTNOPT_LIB_CONVERSION_ATTNTOGPU_RUNTIMESIZES_H
#define ATTNOPT_LIB_CONVERSION_ATTNTOGPU_RUNTIMESIZES_H

#include "attnopt/Conversion/AttnToGPU/AttnToGPU.h"

#include "mlir/Dialect/Arith/IR/Arith.h"

#include <cassert>

namespace mlir::attn::kernel {

/// A batch or sequence length inside a kernel: static, or the run-time
/// value of its size parameter (index-typed).
class Extent {
public:
  /// A static size (implicit: the builders' existing int64_t sizes), or,
  /// for ShapedType::kDynamic, a run-time size whose value is not bound yet
  /// (enough for the decisions that only ask whether it is static).
  Extent(int64_t size) : size(size) {}
  static Extent dynamic(Value v) {
    Extent e(ShapedType::kDynamic);
    e.v = v;
    return e;
  }

  bool isStatic() const { return !ShapedType::isDynamic(size); }
  int64_t getStatic() const {
    assert(isStatic() && "a run-time size has no static value");
    return size;
  }
  Value getDynamic() const {
    assert(v && "a run-time size used before its value was bound");
    return v;
  }
  /// The size as an index value: a constant, or the parameter's value.
  Value value(OpBuilder &b, Location loc) const {
    return isStatic() ? arith::ConstantIndexOp::create(b, loc, size).getResult()
                      : getDynamic();
  }
  /// Whether the size is known to be a multiple of `m` (a dynamic one only
  /// where knownMultipleOf says so: otherwise the kernels guard a ragged
  /// last tile).
  bool isMultipleOf(int64_t m) const {
    return isStatic() ? size % m == 0 : divisor % m == 0;
  }
  /// The same run-time size, known to be a multiple of `m` (code emitted
  /// under a check that it is).
  Extent knownMultipleOf(int64_t m) const {
    Extent e = *this;
    e.divisor = m;
    return e;
  }

private:
  int64_t size;
  Value v;
  int64_t divisor = 1; ///< a run-time size is a multiple of this
};

/// Length queries of the tiling choosers, which treat a dynamic length as a
/// long one (prefill, training): the kernels are correct for every length,
/// only tuned for long ones.
inline bool isShortLength(int64_t len, int64_t bound) {
  return !ShapedType::isDynamic(len) && len <= bound;
}
inline bool isLongLength(int64_t len, int64_t bound) {
  return ShapedType::isDynamic(len) || len >= bound;
}

/// Blocks of `tile` rows over a length: 0 where the length is a run-time
/// one (a grid entry computed at launch, KernelSpec::grid).
inline int64_t gridBlocks(int64_t len, int64_t tile) {
  return ShapedType::isDynamic(len) ? 0 : (len + tile - 1) / tile;
}

/// A grid entry of one block per batch entry: 0 for a run-time batch.
inline int64_t gridBatch(int64_t batch) {
  return ShapedType::isDynamic(batch) ? 0 : batch;
}

/// The sizes of an attention op that are dynamic in its IR.
struct DynamicSizes {
  bool batch = false, queryLen = false, keyLen = false;

  static DynamicSizes of(AttentionOpInterface op) {
    DynamicSizes d;
    d.batch = op.getQueryType().isDynamicDim(0);
    d.queryLen = op.getQueryType().isDynamicDim(2);
    d.keyLen = op.getKeyType().isDynamicDim(2);
    return d;
  }
  bool any() const { return batch || queryLen || keyLen; }
};

/// The kernel parameter of a run-time size (kind "i32",
/// docs/kernel-manifest.md).
inline KernelParam sizeParam(StringRef name) {
  KernelParam p;
  p.name = name.str();
  p.isTensor = false;
  p.isSize = true;
  return p;
}

/// The batch and the sequence lengths as a kernel sees them.
struct KernelExtents {
  Extent batch, queryLen, keyLen;

  /// Static sizes from `op`'s types; the dynamic ones from the kernel's
  /// i32 arguments `batchArg`, `queryLenArg`, `keyLenArg` (null where the
  /// size is static), cast to index at the builder's insertion point.
  static KernelExtents get(OpBuilder &b, Location loc, AttentionOpInterface op,
                           Value batchArg, Value queryLenArg, Value keyLenArg) {
    auto extent = [&](int64_t size, Value arg) -> Extent {
      if (!ShapedType::isDynamic(size))
        return Extent(size);
      assert(arg && "a dynamic size needs its kernel argument");
      return Extent::dynamic(
          arith::IndexCastUIOp::create(b, loc, b.getIndexType(), arg));
    };
    return {extent(op.getQueryType().getDimSize(0), batchArg),
            extent(op.getQueryType().getDimSize(2), queryLenArg),
            extent(op.getKeyType().getDimSize(2), keyLenArg)};
  }
};

/// The number of sequences of a packed op (attn.varlen_attention or
/// attn.varlen_attention_grad): its offsets' length - 1, or
/// ShapedType::kDynamic for a run-time batch.
int64_t packedBatch(AttentionOpInterface op);

/// Where a tensor parameter holds one size of its op: dimension `dim` of
/// the operand or result named `name` (an abi name, KernelInterface.h).
struct SizeUse {
  StringRef name;
  unsigned dim;
};

/// Fails with a diagnostic at `op` unless `size` ("the batch") is static in
/// every one of `uses` that `op` has or dynamic in every one: the kernels
/// and the manifest take one value for it, a constant or a run-time
/// parameter.
LogicalResult checkOneSize(Operation *op, StringRef size,
                           ArrayRef<SizeUse> uses);

/// A static size, or the kernel's i32 argument `arg` cast to index.
Value sizeValue(OpBuilder &b, Location loc, int64_t size, Value arg);

/// Sequence `seq` of a packed batch as its blocks see it: its first query
/// and key tokens and its lengths, read from the i32 offsets.
struct PackedSequence {
  Value queryToken0, keyToken0;
  Extent queryLen = 0, keyLen = 0;

  static PackedSequence load(OpBuilder &b, Location loc, Value cuSeqlensQ,
                             Value cuSeqlensK, Value seq);
};

} // namespace mlir::attn::kernel

#endif // ATTNOPT_LIB_CONVERSION_ATTNTOGPU_RUNTIMESIZES_H
