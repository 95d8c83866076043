//===- AttnOps.cpp - attn operations and their verifiers ------------------===//
//
// The verifier is the only thing between malformed IR and the passes: the
// Debian LLVM build has assertions off, so every shape relation that a pass
// relies on is checked here, with a message naming the operand, the
// dimension, and the expected and actual sizes.
//
//===----------------------------------------------------------------------===//

#include "attnopt/Dialect/Attn/IR/AttnOps.h"

#include "mlir/IR/Builders.h"
#include "mlir/IR/OpImplementation.h"
#include "llvm/ADT/STLExtras.h"

#include <cmath>

using namespace mlir;
using namespace mlir::attn;

#define GET_OP_CLASSES
#include "attnopt/Dialect/Attn/IR/AttnOps.cpp.inc"

namespace {
constexpr const char *kQueryDims[] = {"batch", "query heads", "query length",
                                      "head dim"};
constexpr const char *kKeyDims[] = {"batch", "kv heads", "key length",
                                    "head dim"};
constexpr const char *kValueDims[] = {"batch", "kv heads", "key length",
                                      "value head dim"};
constexpr const char *kOutputDims[] = {"batch", "query heads",
                                       "query length", "value head dim"};
constexpr const char *kMaskDims[] = {"batch", "query heads", "query length",
                                     "key length"};

std::string sizeStr(int64_t size) {
  return ShapedType::isDynamic(size) ? "?" : std::to_string(size);
}

/// Checks that `type` has rank `names.size()`.
LogicalResult verifyRank(Operation *op, StringRef name, RankedTensorType type,
                         ArrayRef<const char *> names) {
  if (type.getRank() == static_cast<int64_t>(names.size()))
    return success();
  return op->emitOpError() << name << ": expected rank " << names.size()
                           << ", got rank " << type.getRank() << " ("
                           << type << ")";
}

/// Checks dimension `dim` of `type` against `expected` (skipped when either
/// is dynamic). `what` says where `expected` comes from.
LogicalResult verifyDim(Operation *op, StringRef name, RankedTensorType type,
                        unsigned dim, const char *dimName, int64_t expected,
                        StringRef what) {
  int64_t actual = type.getDimSize(dim);
  if (ShapedType::isDynamic(actual) || ShapedType::isDynamic(expected) ||
      actual == expected)
    return success();
  return op->emitOpError() << name << ": expected dimension " << dim << " ("
                           << dimName << ") to be " << expected << " ("
                           << what << "), got " << actual;
}

bool isSupportedElementType(Type t) { return t.isF16() || t.isBF16() || t.isF32(); }

/// A size that several operands share (e.g. the batch of query, key, value
/// and output): the first static one among them, and where it comes from.
/// Taking the first static size rather than always the query's means that
/// two static sizes are compared even when the query's is dynamic.
struct SharedDim {
  int64_t size = ShapedType::kDynamic;
  StringRef operand; // the operand the size comes from, e.g. "key"
  std::string what;  // e.g. "key's batch"
};

struct DimSource {
  StringRef operand;
  RankedTensorType type;
  unsigned dim;
};

SharedDim firstStatic(ArrayRef<DimSource> sources, StringRef label) {
  SharedDim shared;
  shared.operand = sources.front().operand;
  for (const DimSource &src : sources) {
    int64_t size = src.type.getDimSize(src.dim);
    if (ShapedType::isDynamic(size))
      continue;
    shared.size = size;
    shared.operand = src.operand;
    break;
  }
  shared.what = (shared.operand + "'s " + label).str();
  return shared;
}
} // namespace

float AttentionOp::getEffectiveScale() {
  if (FloatAttr scale = getScaleAttr())
    return scale.getValue().convertToFloat();
  int64_t d = getQueryType().getDimSize(3);
  return static_cast<float>(1.0 / std::sqrt(static_cast<double>(d)));
}

int64_t AttentionOp::getGroupSize() {
  return getQueryType().getDimSize(1) / getKeyType().getDimSize(1);
}

LogicalResult AttentionOp::verify() {
  Operation *op = getOperation();
  RankedTensorType q = getQueryType(), k = getKeyType(), v = getValueType(),
                   o = getOutputType();

  // Ranks and element types.
  if (failed(verifyRank(op, "query", q, kQueryDims)) ||
      failed(verifyRank(op, "key", k, kKeyDims)) ||
      failed(verifyRank(op, "value", v, kValueDims)) ||
      failed(verifyRank(op, "output", o, kOutputDims)))
    return failure();
  Type elt = q.getElementType();
  if (!isSupportedElementType(elt))
    return emitOpError() << "query: expected element type f16, bf16 or f32, "
                            "got "
                         << elt;
  for (auto [name, type] : {std::pair<StringRef, RankedTensorType>{"key", k},
                            {"value", v}, {"output", o}})
    if (type.getElementType() != elt)
      return emitOpError() << name << ": expected element type " << elt
                           << " (query's), got " << type.getElementType();

  // Shape relations: B, heads, lengths and head dims.
  SharedDim batch = firstStatic({{"query", q, 0},
                                 {"key", k, 0},
                                 {"value", v, 0},
                                 {"output", o, 0}},
                                "batch");
  SharedDim hq = firstStatic({{"query", q, 1}, {"output", o, 1}}, "heads");
  SharedDim lq = firstStatic({{"query", q, 2}, {"output", o, 2}}, "length");
  SharedDim d = firstStatic({{"query", q, 3}, {"key", k, 3}}, "head dim");
  SharedDim hkv = firstStatic({{"key", k, 1}, {"value", v, 1}}, "kv heads");
  SharedDim lk = firstStatic({{"key", k, 2}, {"value", v, 2}}, "key length");
  SharedDim dv = firstStatic({{"value", v, 3}, {"output", o, 3}}, "head dim");
  if (failed(verifyDim(op, "key", k, 0, kKeyDims[0], batch.size,
                       batch.what)) ||
      failed(verifyDim(op, "key", k, 3, kKeyDims[3], d.size, d.what)) ||
      failed(verifyDim(op, "value", v, 0, kValueDims[0], batch.size,
                       batch.what)) ||
      failed(verifyDim(op, "value", v, 1, kValueDims[1], hkv.size,
                       hkv.what)) ||
      failed(verifyDim(op, "value", v, 2, kValueDims[2], lk.size, lk.what)))
    return failure();
  if (hkv.size == 0)
    return emitOpError() << hkv.operand
                         << ": expected at least one kv head, got 0";
  // Zero query heads would make the group size Hq / Hkv zero, which the
  // GQA head map (h floordiv G) cannot express.
  if (hq.size == 0)
    return emitOpError() << hq.operand
                         << ": expected at least one query head, got 0";
  if (!ShapedType::isDynamic(hq.size) && !ShapedType::isDynamic(hkv.size) &&
      hq.size % hkv.size != 0)
    return emitOpError() << "query heads (" << hq.size
                         << ") must be a multiple of kv heads (" << hkv.size
                         << ")";

  const SharedDim *outShape[] = {&batch, &hq, &lq, &dv};
  for (unsigned i = 0; i < 4; ++i)
    if (failed(verifyDim(op, "output", o, i, kOutputDims[i],
                         outShape[i]->size, outShape[i]->what)))
      return failure();

  // Log-sum-exp result.
  if (Value lse = getLse()) {
    auto lseType = cast<RankedTensorType>(lse.getType());
    if (lseType.getRank() != 3)
      return emitOpError() << "lse: expected rank 3 ([batch, query heads, "
                              "query length]), got rank "
                           << lseType.getRank();
    if (!lseType.getElementType().isF32())
      return emitOpError() << "lse: expected element type f32, got "
                           << lseType.getElementType();
    for (unsigned i = 0; i < 3; ++i)
      if (failed(verifyDim(op, "lse", lseType, i, kOutputDims[i],
                           outShape[i]->size, outShape[i]->what)))
        return failure();
  }

  // Mask: rank 4, each dimension 1 or the full size.
  if (Value mask = getMask()) {
    auto maskType = cast<RankedTensorType>(mask.getType());
    if (failed(verifyRank(op, "mask", maskType, kMaskDims)))
      return failure();
    Type maskElt = maskType.getElementType();
    // Signless i1 only: the decomposition feeds the mask to arith.andi and
    // arith.select, which reject ui1 and si1.
    if (!maskElt.isSignlessInteger(1) && !isSupportedElementType(maskElt))
      return emitOpError() << "mask: expected element type i1 (keep mask) or "
                              "f16, bf16, f32 (additive bias), got "
                           << maskElt;
    int64_t full[] = {batch.size, hq.size, lq.size, lk.size};
    for (unsigned i = 0; i < 4; ++i) {
      int64_t size = maskType.getDimSize(i);
      if (ShapedType::isDynamic(size) || size == 1 ||
          ShapedType::isDynamic(full[i]) || size == full[i])
        continue;
      return emitOpError() << "mask: expected dimension " << i << " ("
                           << kMaskDims[i] << ") to be 1 or " << full[i]
                           << ", got " << size;
    }
  }

  // Attributes.
  if (FloatAttr scaleAttr = getScaleAttr()) {
    float scale = scaleAttr.getValue().convertToFloat();
    if (!std::isfinite(scale))
      return emitOpError() << "scale: expected a finite value, got " << scale;
  } else if (int64_t qd = q.getDimSize(3);
             ShapedType::isDynamic(qd) || qd == 0) {
    // The query's own head dim: getEffectiveScale() reads that one.
    return emitOpError() << "scale: the default 1/sqrt(head dim) needs a "
                            "static, non-zero head dim (got "
                         << sizeStr(qd) << "); give `scale` explicitly";
  }
  if (std::optional<ArrayRef<int64_t>> window = getWindow()) {
    if (window->size() != 2)
      return emitOpError() << "window: expected 2 values [left, right], got "
                           << window->size();
    // A named array: an ArrayRef of a braced list inside the range-for
    // header would dangle (the list dies before the loop body runs).
    const char *sides[] = {"left", "right"};
    // Bounded so that the index arithmetic of every lowering (row + delta
    // +/- side) cannot overflow 64 bits.
    constexpr int64_t kMaxWindow = int64_t(1) << 62;
    for (unsigned i = 0; i < 2; ++i) {
      if ((*window)[i] < -1)
        return emitOpError() << "window: expected " << sides[i]
                             << " >= 0 (or -1 for unbounded), got "
                             << (*window)[i];
      if ((*window)[i] > kMaxWindow)
        return emitOpError() << "window: expected " << sides[i]
                             << " <= 2^62 (use -1 for unbounded), got "
                             << (*window)[i];
    }
  }
  if (FloatAttr softcapAttr = getSoftcapAttr()) {
    float softcap = softcapAttr.getValue().convertToFloat();
    if (!std::isfinite(softcap) || !(softcap > 0.0f))
      return emitOpError() << "softcap: expected a finite value > 0, got "
                           << softcap;
  }
  float p = getDropoutP().convertToFloat();
  if (!(p >= 0.0f && p < 1.0f))
    return emitOpError() << "dropout_p: expected a value in [0, 1), got " << p;
  if (static_cast<bool>(getSeed()) != static_cast<bool>(getOffset()))
    return emitOpError() << "rng: expected both seed and offset";
  if (p > 0.0f && !getSeed())
    return emitOpError() << "dropout_p = " << p
                         << " needs the rng(seed, offset) operands";
  return success();
}
