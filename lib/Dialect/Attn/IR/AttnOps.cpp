//===- AttnOps.cpp - attn operations and their verifiers ------------------===//
//
// The verifier is the only thing between malformed IR and the passes: the
// Debian LLVM build has assertions off, so every shape relation that a pass
// relies on is checked here, with a message naming the operand, the
// dimension, and the expected and actual sizes.
//
//===----------------------------------------------------------------------===//

#include "attnopt/Dialect/Attn/IR/AttnOps.h"
#include "OpVerification.h"

#include "mlir/IR/Builders.h"
#include "mlir/IR/Matchers.h"
#include "mlir/IR/OpImplementation.h"
#include "mlir/IR/TypeUtilities.h"
#include "llvm/ADT/STLExtras.h"

#include <cmath>

using namespace mlir;
using namespace mlir::attn;

#include "attnopt/Dialect/Attn/IR/AttnInterfaces.cpp.inc"

#define GET_OP_CLASSES
#include "attnopt/Dialect/Attn/IR/AttnOps.cpp.inc"

using namespace mlir::attn::opverify;

namespace mlir::attn::opverify {
constexpr const char *kQueryDims[] = {"batch", "query heads", "query length",
                                      "head dim"};
constexpr const char *kKeyDims[] = {"batch", "kv heads", "key length",
                                    "head dim"};
constexpr const char *kValueDims[] = {"batch", "kv heads", "key length",
                                      "value head dim"};
constexpr const char *kOutputDims[] = {"batch", "query heads", "query length",
                                       "value head dim"};
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
                           << ", got rank " << type.getRank() << " (" << type
                           << ")";
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
                           << dimName << ") to be " << expected << " (" << what
                           << "), got " << actual;
}

bool isSupportedElementType(Type t) {
  return t.isF16() || t.isBF16() || t.isF32();
}

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
} // namespace mlir::attn::opverify

namespace mlir::attn::opverify {
/// query, key, value and the output-shaped tensors share one element type
/// among f16, bf16 and f32.
LogicalResult
verifyElementTypes(Operation *op, RankedTensorType q, RankedTensorType k,
                   RankedTensorType v,
                   ArrayRef<std::pair<StringRef, RankedTensorType>> outs) {
  Type elt = q.getElementType();
  if (!isSupportedElementType(elt))
    return op->emitOpError()
           << "query: expected element type f16, bf16 or f32, got " << elt;
  SmallVector<std::pair<StringRef, RankedTensorType>> all = {{"key", k},
                                                             {"value", v}};
  all.append(outs.begin(), outs.end());
  for (auto [name, type] : all)
    if (type.getElementType() != elt)
      return op->emitOpError() << name << ": expected element type " << elt
                               << " (query's), got " << type.getElementType();
  return success();
}

/// At least one head on each side, and Hq a multiple of Hkv.
LogicalResult verifyHeadCounts(Operation *op, const SharedDim &hq,
                               const SharedDim &hkv) {
  if (hkv.size == 0)
    return op->emitOpError()
           << hkv.operand << ": expected at least one kv head, got 0";
  // Zero query heads would make the group size Hq / Hkv zero, which the
  // GQA head map (h floordiv G) cannot express.
  if (hq.size == 0)
    return op->emitOpError()
           << hq.operand << ": expected at least one query head, got 0";
  if (!ShapedType::isDynamic(hq.size) && !ShapedType::isDynamic(hkv.size) &&
      hq.size % hkv.size != 0)
    return op->emitOpError()
           << "query heads (" << hq.size << ") must be a multiple of kv heads ("
           << hkv.size << ")";
  return success();
}
} // namespace mlir::attn::opverify

namespace mlir::attn::opverify {
/// Ranks, element types and shape relations of query, key, value and the
/// tensors shaped like the forward output ([B, Hq, Lq, Dv]; `output` for the
/// forward op, `output` and `grad_output` for the gradient).
FailureOr<AttentionDims>
verifyOperandShapes(Operation *op, RankedTensorType q, RankedTensorType k,
                    RankedTensorType v,
                    ArrayRef<std::pair<StringRef, RankedTensorType>> outs) {
  if (failed(verifyRank(op, "query", q, kQueryDims)) ||
      failed(verifyRank(op, "key", k, kKeyDims)) ||
      failed(verifyRank(op, "value", v, kValueDims)))
    return failure();
  for (auto [name, type] : outs)
    if (failed(verifyRank(op, name, type, kOutputDims)))
      return failure();
  if (failed(verifyElementTypes(op, q, k, v, outs)))
    return failure();

  // Shape relations: B, heads, lengths and head dims.
  auto sources = [&](unsigned dim, ArrayRef<DimSource> inputs) {
    SmallVector<DimSource> list(inputs);
    for (auto [name, type] : outs)
      list.push_back({name, type, dim});
    return list;
  };
  AttentionDims dims;
  dims.batch = firstStatic(
      sources(0, {{"query", q, 0}, {"key", k, 0}, {"value", v, 0}}), "batch");
  dims.hq = firstStatic(sources(1, {{"query", q, 1}}), "heads");
  dims.lq = firstStatic(sources(2, {{"query", q, 2}}), "length");
  dims.d = firstStatic({{"query", q, 3}, {"key", k, 3}}, "head dim");
  dims.hkv = firstStatic({{"key", k, 1}, {"value", v, 1}}, "kv heads");
  dims.lk = firstStatic({{"key", k, 2}, {"value", v, 2}}, "key length");
  dims.dv = firstStatic(sources(3, {{"value", v, 3}}), "head dim");
  if (failed(verifyDim(op, "key", k, 0, kKeyDims[0], dims.batch.size,
                       dims.batch.what)) ||
      failed(
          verifyDim(op, "key", k, 3, kKeyDims[3], dims.d.size, dims.d.what)) ||
      failed(verifyDim(op, "value", v, 0, kValueDims[0], dims.batch.size,
                       dims.batch.what)) ||
      failed(verifyDim(op, "value", v, 1, kValueDims[1], dims.hkv.size,
                       dims.hkv.what)) ||
      failed(verifyDim(op, "value", v, 2, kValueDims[2], dims.lk.size,
                       dims.lk.what)))
    return failure();
  if (failed(verifyHeadCounts(op, dims.hq, dims.hkv)))
    return failure();
  if (failed(verifyDim(op, "query", q, 1, kQueryDims[1], dims.hq.size,
                       dims.hq.what)) ||
      failed(verifyDim(op, "query", q, 2, kQueryDims[2], dims.lq.size,
                       dims.lq.what)))
    return failure();
  const SharedDim *outShape[] = {&dims.batch, &dims.hq, &dims.lq, &dims.dv};
  for (auto [name, type] : outs)
    for (unsigned i = 0; i < 4; ++i)
      if (failed(verifyDim(op, name, type, i, kOutputDims[i], outShape[i]->size,
                           outShape[i]->what)))
        return failure();
  return dims;
}

/// The [B, Hq, Lq] f32 log-sum-exp, a result of the forward op and an
/// operand of the gradient.
LogicalResult verifyLse(Operation *op, RankedTensorType lseType,
                        const AttentionDims &dims) {
  if (lseType.getRank() != 3)
    return op->emitOpError() << "lse: expected rank 3 ([batch, query heads, "
                                "query length]), got rank "
                             << lseType.getRank();
  if (!lseType.getElementType().isF32())
    return op->emitOpError() << "lse: expected element type f32, got "
                             << lseType.getElementType();
  const SharedDim *shape[] = {&dims.batch, &dims.hq, &dims.lq};
  for (unsigned i = 0; i < 3; ++i)
    if (failed(verifyDim(op, "lse", lseType, i, kOutputDims[i], shape[i]->size,
                         shape[i]->what)))
      return failure();
  return success();
}

/// Each dimension of a rank-4 mask-like operand is 1 (broadcast) or the
/// full [B, Hq, Lq, Lk] size.
LogicalResult verifyBroadcastable(Operation *op, StringRef name,
                                  RankedTensorType type,
                                  const AttentionDims &dims) {
  int64_t full[] = {dims.batch.size, dims.hq.size, dims.lq.size, dims.lk.size};
  for (unsigned i = 0; i < 4; ++i) {
    int64_t size = type.getDimSize(i);
    if (ShapedType::isDynamic(size) || size == 1 ||
        ShapedType::isDynamic(full[i]) || size == full[i])
      continue;
    return op->emitOpError()
           << name << ": expected dimension " << i << " (" << kMaskDims[i]
           << ") to be 1 or " << full[i] << ", got " << size;
  }
  return success();
}

/// The mask and the attributes, which the forward and the gradient share.
LogicalResult verifyScoreAttributes(AttentionOpInterface iface,
                                    const AttentionDims &dims) {
  Operation *op = iface.getOperation();
  // Mask: rank 4, each dimension 1 or the full size.
  if (Value mask = iface.getMask()) {
    auto maskType = cast<RankedTensorType>(mask.getType());
    if (failed(verifyRank(op, "mask", maskType, kMaskDims)))
      return failure();
    Type maskElt = maskType.getElementType();
    // Signless i1 only: the decomposition feeds the mask to arith.andi and
    // arith.select, which reject ui1 and si1.
    if (!maskElt.isSignlessInteger(1) && !isSupportedElementType(maskElt))
      return op->emitOpError()
             << "mask: expected element type i1 (keep mask) or f16, bf16, "
                "f32 (additive bias), got "
             << maskElt;
    if (failed(verifyBroadcastable(op, "mask", maskType, dims)))
      return failure();
  }
  // Explicit dropout keep mask: i1, broadcast like the mask.
  if (Value keep = iface.getDropoutMask()) {
    auto keepType = cast<RankedTensorType>(keep.getType());
    if (failed(verifyRank(op, "dropout_mask", keepType, kMaskDims)))
      return failure();
    if (!keepType.getElementType().isSignlessInteger(1))
      return op->emitOpError()
             << "dropout_mask: expected element type i1 (true = keep), got "
             << keepType.getElementType();
    if (failed(verifyBroadcastable(op, "dropout_mask", keepType, dims)))
      return failure();
  }

  if (FloatAttr scaleAttr = iface.getScaleAttr()) {
    float scale = scaleAttr.getValue().convertToFloat();
    if (!std::isfinite(scale))
      return op->emitOpError()
             << "scale: expected a finite value, got " << scale;
  } else if (int64_t qd = iface.getHeadDimSize();
             ShapedType::isDynamic(qd) || qd == 0) {
    // The query's own head dim: getEffectiveScale() reads that one.
    return op->emitOpError()
           << "scale: the default 1/sqrt(head dim) needs a static, non-zero "
              "head dim (got "
           << sizeStr(qd) << "); give `scale` explicitly";
  }
  if (std::optional<ArrayRef<int64_t>> window = iface.getWindow()) {
    if (window->size() != 2)
      return op->emitOpError()
             << "window: expected 2 values [left, right], got "
             << window->size();
    // A named array: an ArrayRef of a braced list inside the range-for
    // header would dangle (the list dies before the loop body runs).
    const char *sides[] = {"left", "right"};
    // Bounded so that the index arithmetic of every lowering (row + delta
    // +/- side) cannot overflow 64 bits.
    constexpr int64_t kMaxWindow = int64_t(1) << 62;
    for (unsigned i = 0; i < 2; ++i) {
      if ((*window)[i] < -1)
        return op->emitOpError()
               << "window: expected " << sides[i]
               << " >= 0 (or -1 for unbounded), got " << (*window)[i];
      if ((*window)[i] > kMaxWindow)
        return op->emitOpError()
               << "window: expected " << sides[i]
               << " <= 2^62 (use -1 for unbounded), got " << (*window)[i];
    }
  }
  if (FloatAttr softcapAttr = iface.getSoftcapAttr()) {
    float softcap = softcapAttr.getValue().convertToFloat();
    if (!std::isfinite(softcap) || !(softcap > 0.0f))
      return op->emitOpError()
             << "softcap: expected a finite value > 0, got " << softcap;
  }
  if (iface.getSoftcapApprox() && !iface.getSoftcapAttr())
    return op->emitOpError() << "softcap_approx without softcap: the "
                                "approximation is of the softcap's tanh";
  float p = iface.getDropoutP().convertToFloat();
  if (!(p >= 0.0f && p < 1.0f))
    return op->emitOpError()
           << "dropout_p: expected a value in [0, 1), got " << p;
  if (static_cast<bool>(iface.getSeed()) !=
      static_cast<bool>(iface.getOffset()))
    return op->emitOpError() << "rng: expected both seed and offset";
  if (iface.getDropoutMask()) {
    if (iface.getSeed())
      return op->emitOpError()
             << "dropout_mask and rng(seed, offset) are exclusive: the keep "
                "mask is either explicit or the Philox stream";
    if (!(p > 0.0f))
      return op->emitOpError()
             << "dropout_mask needs dropout_p in (0, 1) (the kept values are "
                "scaled by 1/(1 - dropout_p)), got "
             << p;
  }
  // (The packed ops have no dropout_mask operand: only the Philox stream.)
  bool takesKeepMask = !isa<VarlenAttentionOp, VarlenAttentionGradOp>(op);
  if (p > 0.0f && !iface.getSeed() && !iface.getDropoutMask())
    return op->emitOpError()
           << "dropout_p = " << p << " needs the rng(seed, offset) operands"
           << (takesKeepMask ? " or a dropout_mask" : "");
  return success();
}

/// The op's inherent attribute name closest to `name` (a misspelling such
/// as `casual`, another case such as `CAUSAL`, or a longer form such as
/// `softcapping`), or "" where none is close.
static StringRef closestAttributeName(Operation *op, StringRef name) {
  StringRef best;
  unsigned bestDistance = 3; // at most two edits
  std::string lower = name.lower();
  if (std::optional<RegisteredOperationName> info = op->getRegisteredInfo())
    for (StringAttr candidate : info->getAttributeNames()) {
      if (candidate.size() >= 5 && StringRef(lower).starts_with(candidate))
        return candidate.strref();
      unsigned d = StringRef(lower).edit_distance(
          candidate.strref(), /*AllowReplacements=*/true, bestDistance);
      if (d < bestDistance) {
        best = candidate.strref();
        bestDistance = d;
      }
    }
  return best;
}

/// Other frameworks' names for the attn ops' attributes (PyTorch SDPA,
/// FlashAttention, JAX, Triton, Hugging Face configs), with what to write
/// instead: too far from the op's names for closestAttributeName, they would
/// be kept as discardable attributes and the op would compute plain
/// attention without a word.
struct ForeignAttributeName {
  StringLiteral name, instead;
};
static constexpr ForeignAttributeName kForeignAttributeNames[] = {
    {"is_causal", "causal = #attn.causal<top_left> (PyTorch's is_causal is "
                  "top-left aligned; bottom_right for FlashAttention's "
                  "causal=True with Lq != Lk)"},
    {"window_size", "window = array<i64: left, right> (FlashAttention's "
                    "window_size = (left, right); -1 for unbounded)"},
    {"sliding_window", "window = array<i64: left, 0>"},
    {"local_window", "window = array<i64: left, right>"},
    {"softmax_scale", "scale = <f32>"},
    {"sm_scale", "scale = <f32>"},
    {"scale_factor", "scale = <f32>"},
    {"dropout", "dropout_p = <f32> with rng(seed, offset)"},
    {"dropout_rate", "dropout_p = <f32> with rng(seed, offset)"},
    {"dropout_prob", "dropout_p = <f32> with rng(seed, offset)"},
    {"mask", "the mask(...) operand (attn.attention and "
             "attn.attention_grad; a packed batch takes none)"},
    {"dropout_mask", "the dropout_mask(...) operand"},
    {"attn_mask", "the mask(...) operand"},
    {"attention_mask", "the mask(...) operand"},
    {"logit_softcap", "softcap = <f32>"},
    {"logits_soft_cap", "softcap = <f32>"},
    {"attn_logit_softcapping", "softcap = <f32>"},
    {"enable_gqa", "nothing: grouped-query attention follows from the "
                   "query and key/value head counts"},
};

/// Attributes an op does not define. The attn ops' names on an op without
/// them (`dropout_p` on attn.paged_attention, which has no dropout) and
/// near-misses of the op's own names (`casual = ...`, a misspelt `causal`)
/// would be carried as discardable attributes and silently ignored, as
/// would other frameworks' names (kForeignAttributeNames). Other names are
/// left alone: discardable attributes are normally
/// dialect-prefixed (`attn.tiles`), but some tools attach unprefixed ones
/// (`lowering_config`, `__inplace_operands_attr__`).
LogicalResult verifyNoStrayAttributes(Operation *op) {
  static constexpr StringLiteral kAttnAttributes[] = {
      "scale",          "causal",    "window",       "softcap",
      "softcap_approx", "dropout_p", "deterministic"};
  for (NamedAttribute attr : op->getDiscardableAttrs()) {
    StringRef name = attr.getName().strref();
    if (llvm::is_contained(kAttnAttributes, name))
      return op->emitOpError()
             << "'" << name
             << "' is not an attribute of this op (docs/semantics.md lists "
                "each op's attributes)";
    // A kernel configuration under another name would be ignored by every
    // pass (the attn.* names are checked by the dialect).
    if (!name.starts_with("attn.") &&
        isa<TileConfigAttr, GradKernelConfigAttr>(attr.getValue()))
      return op->emitOpError()
             << "a kernel configuration in '" << name << "' is read by no "
             << "pass: write it as '"
             << (isa<TileConfigAttr>(attr.getValue()) ? "attn.tiles"
                                                      : "attn.grad_kernels")
             << "'";
    if (name.contains('.') || name.starts_with("_"))
      continue;
    for (const ForeignAttributeName &foreign : kForeignAttributeNames)
      if (name.equals_insensitive(foreign.name))
        return op->emitOpError()
               << "unknown attribute '" << name << "': write "
               << foreign.instead
               << "; docs/semantics.md lists each op's attributes";
    if (StringRef guess = closestAttributeName(op, name); !guess.empty())
      return op->emitOpError()
             << "unknown attribute '" << name << "' (did you mean '" << guess
             << "'?); docs/semantics.md lists each op's attributes";
  }
  return success();
}

/// Operands and results are dense tensors: an encoding (sparse_tensor, or
/// any other layout) would be read as dense by every lowering.
LogicalResult verifyNoEncodings(Operation *op) {
  auto check = [&](Type t, StringRef what, unsigned i) -> LogicalResult {
    auto ranked = dyn_cast<RankedTensorType>(t);
    if (!ranked || !ranked.getEncoding())
      return success();
    return op->emitOpError()
           << what << " #" << i
           << ": expected a dense tensor without an encoding, got " << ranked;
  };
  for (auto [i, t] : llvm::enumerate(op->getOperandTypes()))
    if (failed(check(t, "operand", i)))
      return failure();
  for (auto [i, t] : llvm::enumerate(op->getResultTypes()))
    if (failed(check(t, "result", i)))
      return failure();
  return success();
}

/// When forward(%o, %lse) are the results of a `ForwardOp` (attn.attention
/// or attn.varlen_attention), the gradient must differentiate that op: the
/// same score attributes (a different `causal` or window would recompute
/// probabilities that do not match the saved lse, silently wrong gradients).
template <typename ForwardOp, typename GradOp>
LogicalResult verifyMatchesForward(GradOp grad) {
  auto fwd = grad.getOutput().template getDefiningOp<ForwardOp>();
  if (!fwd || fwd.getLse() != grad.getLse())
    return success();
  auto mismatch = [&](StringRef what, auto there, auto here) {
    std::string a, b;
    llvm::raw_string_ostream(a) << there;
    llvm::raw_string_ostream(b) << here;
    return grad.emitOpError()
           << what << " differs from the " << ForwardOp::getOperationName()
           << " whose output and lse "
           << "it differentiates (" << a << " there, " << b << " here)";
  };
  if (fwd.getCausal() != grad.getCausal())
    return mismatch("causal", stringifyCausalMode(fwd.getCausal()),
                    stringifyCausalMode(grad.getCausal()));
  // [-1, -1] restricts nothing, as no window does (docs/semantics.md).
  auto windowText = [](AttentionOpInterface op) {
    std::optional<ArrayRef<int64_t>> w = op.getWindow();
    if (!w || ((*w)[0] < 0 && (*w)[1] < 0))
      return std::string("none");
    return "[" + std::to_string((*w)[0]) + ", " + std::to_string((*w)[1]) + "]";
  };
  if (windowText(fwd) != windowText(grad))
    return mismatch("window", windowText(fwd), windowText(grad));
  auto softcapOf = [](AttentionOpInterface op) {
    FloatAttr a = op.getSoftcapAttr();
    return a ? a.getValue().convertToFloat() : 0.0f;
  };
  if (softcapOf(fwd) != softcapOf(grad))
    return mismatch("softcap", softcapOf(fwd), softcapOf(grad));
  // The recomputed probabilities match the saved lse only when both
  // directions evaluate the same tanh.
  auto approxOf = [](AttentionOpInterface op) {
    return op.getSoftcapApprox() ? "approximate" : "exact";
  };
  if (fwd.getSoftcapApprox() != grad.getSoftcapApprox())
    return mismatch("softcap_approx", approxOf(fwd), approxOf(grad));
  if (fwd.getEffectiveScale() != grad.getEffectiveScale())
    return mismatch("scale", fwd.getEffectiveScale(), grad.getEffectiveScale());
  if (fwd.getDropoutP() != grad.getDropoutP())
    return mismatch("dropout_p", fwd.getDropoutP().convertToFloat(),
                    grad.getDropoutP().convertToFloat());
  // The operands that change the probabilities: present on both or on
  // neither, and not provably different. (Two distinct values may still
  // hold the same data, so only constants and swaps are refused.)
  auto presence = [](Value v) { return v ? "present" : "absent"; };
  auto operandMismatch = [&](StringRef what, Value there,
                             Value here) -> std::optional<LogicalResult> {
    if (!there != !here)
      return mismatch(what, presence(there), presence(here));
    APInt a, b;
    if (there && matchPattern(there, m_ConstantInt(&a)) &&
        matchPattern(here, m_ConstantInt(&b)) && a != b)
      return mismatch(what, a.getSExtValue(), b.getSExtValue());
    return std::nullopt;
  };
  if (auto r = operandMismatch("mask", fwd.getMask(), grad.getMask()))
    return *r;
  if (auto r = operandMismatch("dropout_mask", fwd.getDropoutMask(),
                               grad.getDropoutMask()))
    return *r;
  if (auto r = operandMismatch("seed", fwd.getSeed(), grad.getSeed()))
    return *r;
  if (auto r = operandMismatch("offset", fwd.getOffset(), grad.getOffset()))
    return *r;
  if (fwd.getSeed() && fwd.getSeed() != fwd.getOffset() &&
      fwd.getSeed() == grad.getOffset() && fwd.getOffset() == grad.getSeed())
    return grad.emitOpError()
           << "seed and offset are swapped with respect to the "
           << ForwardOp::getOperationName()
           << " whose output and lse it differentiates (the dropout keep "
              "bits would differ)";
  return success();
}

/// A gradient result has exactly the type of the operand it differentiates.
LogicalResult verifyGradientType(Operation *op, StringRef name,
                                 RankedTensorType grad, StringRef operand,
                                 RankedTensorType expected) {
  if (grad.getRank() != expected.getRank() ||
      grad.getElementType() != expected.getElementType() ||
      failed(verifyCompatibleShape(grad.getShape(), expected.getShape())))
    return op->emitOpError() << name << ": expected the type of " << operand
                             << " (" << expected << "), got " << grad;
  return success();
}
} // namespace mlir::attn::opverify

LogicalResult AttentionOp::verify() {
  if (failed(verifyNoEncodings(*this)) ||
      failed(verifyNoStrayAttributes(*this)))
    return failure();
  FailureOr<AttentionDims> dims =
      verifyOperandShapes(*this, getQueryType(), getKeyType(), getValueType(),
                          {{"output", getOutputType()}});
  if (failed(dims))
    return failure();
  if (Value lse = getLse())
    if (failed(verifyLse(*this, cast<RankedTensorType>(lse.getType()), *dims)))
      return failure();
  return verifyScoreAttributes(*this, *dims);
}

LogicalResult AttentionGradOp::verify() {
  if (failed(verifyNoEncodings(*this)) ||
      failed(verifyNoStrayAttributes(*this)))
    return failure();
  auto gradOutputType = cast<RankedTensorType>(getGradOutput().getType());
  FailureOr<AttentionDims> dims = verifyOperandShapes(
      *this, getQueryType(), getKeyType(), getValueType(),
      {{"output", getOutputType()}, {"grad_output", gradOutputType}});
  if (failed(dims) ||
      failed(verifyLse(*this, cast<RankedTensorType>(getLse().getType()),
                       *dims)) ||
      failed(verifyScoreAttributes(*this, *dims)))
    return failure();
  auto typeOf = [](Value v) { return cast<RankedTensorType>(v.getType()); };
  if (failed(verifyGradientType(*this, "grad_query", typeOf(getGradQuery()),
                                "query", getQueryType())) ||
      failed(verifyGradientType(*this, "grad_key", typeOf(getGradKey()), "key",
                                getKeyType())) ||
      failed(verifyGradientType(*this, "grad_value", typeOf(getGradValue()),
                                "value", getValueType())))
    return failure();
  return verifyMatchesForward<AttentionOp>(*this);
}

//===----------------------------------------------------------------------===//
// Packed variable-length batches
//===----------------------------------------------------------------------===//

namespace {
constexpr const char *kPackedQueryDims[] = {"query tokens", "query heads",
                                            "head dim"};
constexpr const char *kPackedKeyDims[] = {"key tokens", "kv heads", "head dim"};
constexpr const char *kPackedValueDims[] = {"key tokens", "kv heads",
                                            "value head dim"};
constexpr const char *kPackedOutputDims[] = {"query tokens", "query heads",
                                             "value head dim"};

/// The sizes a packed op relates its operands by: token totals, heads and
/// head dims.
struct PackedDims {
  SharedDim tq, hq, d, tk, hkv, dv;
};

/// Ranks, element types and shape relations of the packed query
/// ([Tq, Hq, D]), key ([Tk, Hkv, D]), value ([Tk, Hkv, Dv]) and the tensors
/// shaped like the output ([Tq, Hq, Dv]).
FailureOr<PackedDims>
verifyPackedShapes(Operation *op, RankedTensorType q, RankedTensorType k,
                   RankedTensorType v,
                   ArrayRef<std::pair<StringRef, RankedTensorType>> outs) {
  if (failed(verifyRank(op, "query", q, kPackedQueryDims)) ||
      failed(verifyRank(op, "key", k, kPackedKeyDims)) ||
      failed(verifyRank(op, "value", v, kPackedValueDims)))
    return failure();
  for (auto [name, type] : outs)
    if (failed(verifyRank(op, name, type, kPackedOutputDims)))
      return failure();
  if (failed(verifyElementTypes(op, q, k, v, outs)))
    return failure();
  auto withOuts = [&](unsigned dim, ArrayRef<DimSource> inputs) {
    SmallVector<DimSource> list(inputs);
    for (auto [name, type] : outs)
      list.push_back({name, type, dim});
    return list;
  };
  PackedDims dims;
  dims.tq = firstStatic(withOuts(0, {{"query", q, 0}}), "tokens");
  dims.hq = firstStatic(withOuts(1, {{"query", q, 1}}), "heads");
  dims.d = firstStatic({{"query", q, 2}, {"key", k, 2}}, "head dim");
  dims.tk = firstStatic({{"key", k, 0}, {"value", v, 0}}, "tokens");
  dims.hkv = firstStatic({{"key", k, 1}, {"value", v, 1}}, "kv heads");
  dims.dv = firstStatic(withOuts(2, {{"value", v, 2}}), "head dim");
  struct Check {
    StringRef name;
    RankedTensorType type;
    ArrayRef<const char *> names;
    SmallVector<const SharedDim *, 3> expected;
  };
  SmallVector<Check> checks = {
      {"query", q, kPackedQueryDims, {&dims.tq, &dims.hq, &dims.d}},
      {"key", k, kPackedKeyDims, {&dims.tk, &dims.hkv, &dims.d}},
      {"value", v, kPackedValueDims, {&dims.tk, &dims.hkv, &dims.dv}}};
  for (auto [name, type] : outs)
    checks.push_back(
        {name, type, kPackedOutputDims, {&dims.tq, &dims.hq, &dims.dv}});
  for (const Check &c : checks)
    for (unsigned i = 0; i < 3; ++i)
      if (failed(verifyDim(op, c.name, c.type, i, c.names[i],
                           c.expected[i]->size, c.expected[i]->what)))
        return failure();
  if (failed(verifyHeadCounts(op, dims.hq, dims.hkv)))
    return failure();
  return dims;
}

/// The packed lse: [Hq, Tq] f32 (per query head, per token).
LogicalResult verifyPackedLse(Operation *op, RankedTensorType lseType,
                              const PackedDims &dims) {
  if (lseType.getRank() != 2)
    return op->emitOpError()
           << "lse: expected rank 2 ([query heads, query tokens]), got rank "
           << lseType.getRank();
  if (!lseType.getElementType().isF32())
    return op->emitOpError() << "lse: expected element type f32, got "
                             << lseType.getElementType();
  if (failed(verifyDim(op, "lse", lseType, 0, "query heads", dims.hq.size,
                       dims.hq.what)) ||
      failed(verifyDim(op, "lse", lseType, 1, "query tokens", dims.tq.size,
                       dims.tq.what)))
    return failure();
  return success();
}

/// One offsets operand: rank 1, i32, at least two entries (B + 1 >= 2: a
/// batch of at least one sequence); when it is a constant, 0 first,
/// non-decreasing and the token total last.
LogicalResult verifyOffsets(Operation *op, StringRef name, Value offsets,
                            const SharedDim &total) {
  auto type = cast<RankedTensorType>(offsets.getType());
  if (type.getRank() != 1 || !type.getElementType().isSignlessInteger(32))
    return op->emitOpError() << name
                             << ": expected a rank-1 tensor of i32 offsets "
                                "(batch + 1 entries), got "
                             << type;
  if (type.getDimSize(0) == 0 || type.getDimSize(0) == 1)
    return op->emitOpError()
           << name << ": expected batch + 1 >= 2 offsets (at least one "
           << "sequence), got " << type.getDimSize(0);
  DenseIntElementsAttr values;
  if (!matchPattern(offsets, m_Constant(&values)))
    return success();
  SmallVector<int64_t> v;
  for (const APInt &x : values.getValues<APInt>())
    v.push_back(x.getSExtValue());
  if (v.front() != 0)
    return op->emitOpError()
           << name << ": expected the first offset to be 0, got " << v.front();
  for (size_t b = 1; b < v.size(); ++b)
    if (v[b] < v[b - 1])
      return op->emitOpError()
             << name << ": offsets must be non-decreasing, but offset " << b
             << " (" << v[b] << ") is below offset " << b - 1 << " ("
             << v[b - 1] << ")";
  if (!ShapedType::isDynamic(total.size) && v.back() != total.size)
    return op->emitOpError()
           << name << ": expected the last offset to be " << total.size << " ("
           << total.what << "), got " << v.back();
  return success();
}

/// Both offsets operands, which must have the same number of entries.
LogicalResult verifySeqlens(Operation *op, Value cuQ, Value cuK,
                            const PackedDims &dims) {
  if (failed(verifyOffsets(op, "cu_seqlens_q", cuQ, dims.tq)) ||
      failed(verifyOffsets(op, "cu_seqlens_k", cuK, dims.tk)))
    return failure();
  int64_t nq = cast<RankedTensorType>(cuQ.getType()).getDimSize(0);
  int64_t nk = cast<RankedTensorType>(cuK.getType()).getDimSize(0);
  if (!ShapedType::isDynamic(nq) && !ShapedType::isDynamic(nk) && nq != nk)
    return op->emitOpError()
           << "cu_seqlens_k: expected " << nq
           << " offsets (batch + 1, as cu_seqlens_q), got " << nk;
  return success();
}
} // namespace

LogicalResult VarlenAttentionOp::verify() {
  if (failed(verifyNoEncodings(*this)) ||
      failed(verifyNoStrayAttributes(*this)))
    return failure();
  FailureOr<PackedDims> dims =
      verifyPackedShapes(*this, getQueryType(), getKeyType(), getValueType(),
                         {{"output", getOutputType()}});
  if (failed(dims) ||
      failed(verifySeqlens(*this, getCuSeqlensQ(), getCuSeqlensK(), *dims)))
    return failure();
  if (Value lse = getLse())
    if (failed(verifyPackedLse(*this, cast<RankedTensorType>(lse.getType()),
                               *dims)))
      return failure();
  return verifyScoreAttributes(*this, AttentionDims());
}

LogicalResult VarlenAttentionGradOp::verify() {
  if (failed(verifyNoEncodings(*this)) ||
      failed(verifyNoStrayAttributes(*this)))
    return failure();
  auto gradOutputType = cast<RankedTensorType>(getGradOutput().getType());
  FailureOr<PackedDims> dims = verifyPackedShapes(
      *this, getQueryType(), getKeyType(), getValueType(),
      {{"output", getOutputType()}, {"grad_output", gradOutputType}});
  if (failed(dims) ||
      failed(verifySeqlens(*this, getCuSeqlensQ(), getCuSeqlensK(), *dims)) ||
      failed(verifyPackedLse(*this, cast<RankedTensorType>(getLse().getType()),
                             *dims)) ||
      failed(verifyScoreAttributes(*this, AttentionDims())))
    return failure();
  auto typeOf = [](Value v) { return cast<RankedTensorType>(v.getType()); };
  if (failed(verifyGradientType(*this, "grad_query", typeOf(getGradQuery()),
                                "query", getQueryType())) ||
      failed(verifyGradientType(*this, "grad_key", typeOf(getGradKey()), "key",
                                getKeyType())) ||
      failed(verifyGradientType(*this, "grad_value", typeOf(getGradValue()),
                                "value", getValueType())))
    return failure();
  return verifyMatchesForward<VarlenAttentionOp>(*this);
}
