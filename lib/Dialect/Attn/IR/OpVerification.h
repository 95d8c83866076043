//===- OpVerification.h - shared pieces of the attn verifiers ---*- C++ -*-===//
//
// Private to lib/Dialect/Attn/IR: the checks every attn op's verifier builds
// on (ranks, dimensions named in the message, element types, head counts,
// the score attributes), shared by AttnOps.cpp and the verifiers of the
// ops in their own files (PagedAttention.cpp).
//
//===----------------------------------------------------------------------===//

#ifndef ATTNOPT_LIB_DIALECT_ATTN_IR_OPVERIFICATION_H
#define ATTNOPT_LIB_DIALECT_ATTN_IR_OPVERIFICATION_H

#include "attnopt/Dialect/Attn/IR/AttnOps.h"

#include <string>

namespace mlir::attn::opverify {

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

/// The sizes every attention op relates its operands by.
struct AttentionDims {
  SharedDim batch, hq, lq, d, hkv, lk, dv;
};

/// "?" for a dynamic size, else the number.
std::string sizeStr(int64_t size);
/// The first static size of `sources`, labelled "<operand>'s <label>".
SharedDim firstStatic(ArrayRef<DimSource> sources, StringRef label);
/// Checks that `type` has rank `names.size()`.
LogicalResult verifyRank(Operation *op, StringRef name, RankedTensorType type,
                         ArrayRef<const char *> names);
/// Checks dimension `dim` of `type` against `expected` (skipped when either
/// is dynamic). `what` says where `expected` comes from.
LogicalResult verifyDim(Operation *op, StringRef name, RankedTensorType type,
                        unsigned dim, const char *dimName, int64_t expected,
                        StringRef what);
/// query, key, value and the output-shaped tensors share one element type
/// among f16, bf16 and f32.
LogicalResult
verifyElementTypes(Operation *op, RankedTensorType q, RankedTensorType k,
                   RankedTensorType v,
                   ArrayRef<std::pair<StringRef, RankedTensorType>> outs);
/// At least one head on each side, and Hq a multiple of Hkv.
LogicalResult verifyHeadCounts(Operation *op, const SharedDim &hq,
                               const SharedDim &hkv);
/// The [B, Hq, Lq] f32 log-sum-exp.
LogicalResult verifyLse(Operation *op, RankedTensorType lseType,
                        const AttentionDims &dims);
/// The mask operands and the score attributes (scale, window, softcap,
/// dropout).
LogicalResult verifyScoreAttributes(AttentionOpInterface iface,
                                    const AttentionDims &dims);
/// Operands and results are dense tensors without an encoding.
LogicalResult verifyNoEncodings(Operation *op);
/// No attn attribute name (scale, causal, window, softcap, dropout_p,
/// deterministic) as a discardable attribute: the op does not define
/// it and would ignore it.
LogicalResult verifyNoStrayAttributes(Operation *op);

} // namespace mlir::attn::opverify

#endif // ATTNOPT_LIB_DIALECT_ATTN_IR_OPVERIFICATION_H
