//===- PagedAttention.cpp - attn.paged_attention: verifier, decomposition -===//
//
// attn.paged_attention (docs/semantics.md, section 15) reads each
// sequence's keys and values from a paged cache: key position j of
// sequence b is row j mod page_size of page block_table[b, j div page_size].
// By definition it is attn.attention over the gathered cache with the
// sequence's own key length cache_seqlens[b]; the decomposition builds
// exactly that: K and V gathered to [B, Hkv, max_pages * page_size, X], an
// i1 [B, 1, Lq, max_pages * page_size] mask that keeps j < cache_seqlens[b]
// and the causal / window rules at that length, and one attn.attention
// without causal or window. It is the reference the paged kernels are
// validated against (quadratic in the capacity, on purpose).
//
//===----------------------------------------------------------------------===//

#include "OpVerification.h"
#include "attnopt/Dialect/Attn/IR/AttnOps.h"
#include "attnopt/Dialect/Attn/Utils/ScoreModifiers.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Arith/Utils/Utils.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/IR/Matchers.h"

using namespace mlir;
using namespace mlir::attn;
using namespace mlir::attn::opverify;

//===----------------------------------------------------------------------===//
// Verifier
//===----------------------------------------------------------------------===//

namespace {
constexpr const char *kQueryDims[] = {"batch", "query heads", "query length",
                                      "head dim"};
constexpr const char *kKeyCacheDims[] = {"pages", "page size", "kv heads",
                                         "head dim"};
constexpr const char *kValueCacheDims[] = {"pages", "page size", "kv heads",
                                           "value head dim"};
constexpr const char *kOutputDims[] = {"batch", "query heads", "query length",
                                       "value head dim"};
constexpr const char *kTableDims[] = {"batch", "pages per sequence"};
constexpr const char *kSeqlensDims[] = {"batch"};

/// The constant integer values of `v`, if it is a constant.
std::optional<SmallVector<int64_t>> constantInts(Value v) {
  DenseIntElementsAttr values;
  if (!matchPattern(v, m_Constant(&values)))
    return std::nullopt;
  SmallVector<int64_t> out;
  for (const APInt &x : values.getValues<APInt>())
    out.push_back(x.getSExtValue());
  return out;
}

/// Constant cache lengths within [0, capacity], and, with a constant table
/// too, the pages they use within [0, pages).
LogicalResult verifyConstantPages(PagedAttentionOp op, int64_t capacity,
                                  int64_t pages) {
  std::optional<SmallVector<int64_t>> lens = constantInts(op.getCacheSeqlens());
  if (!lens)
    return success();
  for (auto [b, len] : llvm::enumerate(*lens))
    if (len < 0 || (!ShapedType::isDynamic(capacity) && len > capacity))
      return op.emitOpError("cache_seqlens: expected every length in [0, ")
             << sizeStr(capacity)
             << "] (max pages per sequence x page size), got " << len
             << " for sequence " << b;
  std::optional<SmallVector<int64_t>> table = constantInts(op.getBlockTable());
  int64_t pageSize = op.getPageSize();
  auto tableType = cast<RankedTensorType>(op.getBlockTable().getType());
  int64_t perSeq = tableType.getDimSize(1);
  if (!table || ShapedType::isDynamic(pages) || ShapedType::isDynamic(perSeq))
    return success();
  for (auto [b, len] : llvm::enumerate(*lens))
    for (int64_t i = 0; i * pageSize < len; ++i) {
      int64_t page = (*table)[b * perSeq + i];
      if (page < 0 || page >= pages)
        return op.emitOpError("block_table: entry [")
               << b << ", " << i << "] is " << page << ", but sequence " << b
               << " reads it (length " << len
               << ") and the cache has pages [0, " << pages << ")";
    }
  return success();
}
} // namespace

LogicalResult PagedAttentionOp::verify() {
  if (failed(verifyNoEncodings(*this)) ||
      failed(verifyNoStrayAttributes(*this)))
    return failure();
  RankedTensorType q = getQueryType(), k = getKeyType(), v = getValueType(),
                   out = getOutputType();
  auto table = cast<RankedTensorType>(getBlockTable().getType());
  auto lens = cast<RankedTensorType>(getCacheSeqlens().getType());
  if (failed(verifyRank(*this, "query", q, kQueryDims)) ||
      failed(verifyRank(*this, "key", k, kKeyCacheDims)) ||
      failed(verifyRank(*this, "value", v, kValueCacheDims)) ||
      failed(verifyRank(*this, "output", out, kOutputDims)) ||
      failed(verifyRank(*this, "block_table", table, kTableDims)) ||
      failed(verifyRank(*this, "cache_seqlens", lens, kSeqlensDims)))
    return failure();
  if (failed(verifyElementTypes(*this, q, k, v, {{"output", out}})))
    return failure();
  for (auto [name, type] :
       {std::pair<StringRef, RankedTensorType>{"block_table", table},
        {"cache_seqlens", lens}})
    if (!type.getElementType().isSignlessInteger(32))
      return emitOpError() << name << ": expected element type i32, got "
                           << type.getElementType();

  AttentionDims dims;
  dims.batch = firstStatic({{"query", q, 0},
                            {"output", out, 0},
                            {"block_table", table, 0},
                            {"cache_seqlens", lens, 0}},
                           "batch");
  dims.hq = firstStatic({{"query", q, 1}, {"output", out, 1}}, "heads");
  dims.lq = firstStatic({{"query", q, 2}, {"output", out, 2}}, "length");
  dims.d = firstStatic({{"query", q, 3}, {"key", k, 3}}, "head dim");
  dims.hkv = firstStatic({{"key", k, 2}, {"value", v, 2}}, "kv heads");
  dims.dv = firstStatic({{"value", v, 3}, {"output", out, 3}}, "head dim");
  SharedDim pages = firstStatic({{"key", k, 0}, {"value", v, 0}}, "pages");
  SharedDim pageSize =
      firstStatic({{"key", k, 1}, {"value", v, 1}}, "page size");
  struct Check {
    StringRef name;
    RankedTensorType type;
    ArrayRef<const char *> names;
    SmallVector<const SharedDim *, 4> expected;
  };
  const Check checks[] = {
      {"query", q, kQueryDims, {&dims.batch, &dims.hq, &dims.lq, &dims.d}},
      {"key", k, kKeyCacheDims, {&pages, &pageSize, &dims.hkv, &dims.d}},
      {"value", v, kValueCacheDims, {&pages, &pageSize, &dims.hkv, &dims.dv}},
      {"output", out, kOutputDims, {&dims.batch, &dims.hq, &dims.lq, &dims.dv}},
      {"block_table", table, kTableDims, {&dims.batch}},
      {"cache_seqlens", lens, kSeqlensDims, {&dims.batch}}};
  for (const Check &c : checks)
    for (auto [i, expected] : llvm::enumerate(c.expected))
      if (failed(verifyDim(*this, c.name, c.type, i, c.names[i], expected->size,
                           expected->what)))
        return failure();
  if (failed(verifyHeadCounts(*this, dims.hq, dims.hkv)))
    return failure();
  if (pageSize.size == 0)
    return emitOpError("key: expected a page size of at least 1, got 0");
  // The decomposition gathers from page 0 for positions past a sequence's
  // length, so a cache needs a page even when every length is 0.
  if (pages.size == 0)
    return emitOpError("key: expected at least one page, got 0");
  if (Value lse = getLse())
    if (failed(verifyLse(*this, cast<RankedTensorType>(lse.getType()), dims)))
      return failure();
  int64_t perSeq = table.getDimSize(1);
  int64_t capacity =
      ShapedType::isDynamic(perSeq) || ShapedType::isDynamic(pageSize.size)
          ? ShapedType::kDynamic
          : perSeq * pageSize.size;
  if (failed(verifyConstantPages(*this, capacity, pages.size)))
    return failure();
  return verifyScoreAttributes(*this, dims);
}

//===----------------------------------------------------------------------===//
// Decomposition
//===----------------------------------------------------------------------===//

namespace {
/// Builds the dense form of one paged op.
class PagedCacheBuilder {
public:
  PagedCacheBuilder(OpBuilder &b, PagedAttentionOp op)
      : b(b), loc(op.getLoc()), op(op), mods(ScoreModifiers::get(op)) {}

  /// The cache `cache` ([P, page_size, Hkv, X]) gathered per sequence to
  /// [B, Hkv, max_pages * page_size, X]; positions past a sequence's length
  /// read page 0 (the mask excludes them).
  Value gather(Value cache);
  /// The i1 [B, 1, Lq, max_pages * page_size] mask: key j allowed for query
  /// row i of sequence b iff j < cache_seqlens[b] and the causal / window
  /// rules allow (i, j) with Lk = cache_seqlens[b].
  Value mask();

private:
  OpFoldResult dim(Value tensor, int64_t d) {
    return tensor::getMixedSize(b, loc, tensor, d);
  }
  /// max_pages * page_size.
  OpFoldResult capacity();
  /// cache_seqlens[batch] as an index, inside a linalg body.
  Value lengthOf(OpBuilder &nb, Location l, Value batch) {
    Value len = tensor::ExtractOp::create(nb, l, op.getCacheSeqlens(), batch);
    return arith::IndexCastOp::create(nb, l, nb.getIndexType(), len);
  }

  OpBuilder &b;
  Location loc;
  PagedAttentionOp op;
  ScoreModifiers mods;
};

OpFoldResult PagedCacheBuilder::capacity() {
  int64_t capacity = op.getKeyLenBound();
  if (!ShapedType::isDynamic(capacity))
    return b.getIndexAttr(capacity);
  return arith::MulIOp::create(
             b, loc,
             getValueOrCreateConstantIndexOp(b, loc,
                                             dim(op.getBlockTable(), 1)),
             getValueOrCreateConstantIndexOp(b, loc, dim(op.getKey(), 1)))
      .getResult();
}

Value PagedCacheBuilder::gather(Value cache) {
  auto type = cast<RankedTensorType>(cache.getType());
  SmallVector<OpFoldResult> shape = {dim(op.getQuery(), 0), dim(cache, 2),
                                     capacity(), dim(cache, 3)};
  Value init = tensor::EmptyOp::create(b, loc, shape, type.getElementType());
  auto rank4 = AffineMap::getMultiDimIdentityMap(4, b.getContext());
  auto par = utils::IteratorType::parallel;
  const int64_t pageSize = op.getPageSize();
  return linalg::GenericOp::create(
             b, loc, TypeRange{init.getType()}, ValueRange{}, ValueRange{init},
             ArrayRef<AffineMap>{rank4},
             ArrayRef<utils::IteratorType>{par, par, par, par},
             [&](OpBuilder &nb, Location l, ValueRange) {
               Value batch = linalg::IndexOp::create(nb, l, 0);
               Value head = linalg::IndexOp::create(nb, l, 1);
               Value pos = linalg::IndexOp::create(nb, l, 2);
               Value col = linalg::IndexOp::create(nb, l, 3);
               Value size = arith::ConstantIndexOp::create(nb, l, pageSize);
               Value entry = tensor::ExtractOp::create(
                   nb, l, op.getBlockTable(),
                   ValueRange{batch, arith::DivUIOp::create(nb, l, pos, size)});
               Value page =
                   arith::IndexCastOp::create(nb, l, nb.getIndexType(), entry);
               Value used =
                   arith::CmpIOp::create(nb, l, arith::CmpIPredicate::slt, pos,
                                         lengthOf(nb, l, batch));
               page = arith::SelectOp::create(
                   nb, l, used, page, arith::ConstantIndexOp::create(nb, l, 0));
               Value slot = arith::RemUIOp::create(nb, l, pos, size);
               Value x = tensor::ExtractOp::create(
                   nb, l, cache, ValueRange{page, slot, head, col});
               linalg::YieldOp::create(nb, l, x);
             })
      .getResult(0);
}

Value PagedCacheBuilder::mask() {
  SmallVector<OpFoldResult> shape = {dim(op.getQuery(), 0), b.getIndexAttr(1),
                                     dim(op.getQuery(), 2), capacity()};
  Value init = tensor::EmptyOp::create(b, loc, shape, b.getI1Type());
  auto rank4 = AffineMap::getMultiDimIdentityMap(4, b.getContext());
  auto par = utils::IteratorType::parallel;
  Value queryLen =
      getValueOrCreateConstantIndexOp(b, loc, dim(op.getQuery(), 2));
  return linalg::GenericOp::create(
             b, loc, TypeRange{init.getType()}, ValueRange{}, ValueRange{init},
             ArrayRef<AffineMap>{rank4},
             ArrayRef<utils::IteratorType>{par, par, par, par},
             [&](OpBuilder &nb, Location l, ValueRange) {
               Value row = linalg::IndexOp::create(nb, l, 2);
               Value col = linalg::IndexOp::create(nb, l, 3);
               Value len = lengthOf(nb, l, linalg::IndexOp::create(nb, l, 0));
               Value keep = arith::CmpIOp::create(
                   nb, l, arith::CmpIPredicate::slt, col, len);
               if (mods.hasPositionalMask())
                 keep = arith::AndIOp::create(
                     nb, l, keep,
                     emitPositionAllowed(nb, l, mods, row, col, queryLen, len));
               linalg::YieldOp::create(nb, l, keep);
             })
      .getResult(0);
}
} // namespace

FailureOr<SmallVector<Value>>
PagedAttentionOp::decomposeOperation(OpBuilder &b) {
  PagedCacheBuilder pb(b, *this);
  Value k = pb.gather(getKey()), v = pb.gather(getValue());
  Value mask = pb.mask();
  SmallVector<Type> resultTypes = {getOutput().getType()};
  if (getLse())
    resultTypes.push_back(getLse().getType());
  auto dense = AttentionOp::create(
      b, getLoc(), resultTypes, getQuery(), k, v, mask, Value(), Value(),
      Value(), b.getF32FloatAttr(getEffectiveScale()),
      CausalModeAttr::get(b.getContext(), CausalMode::none),
      DenseI64ArrayAttr(), getSoftcapAttr(), getSoftcapApproxAttr(),
      b.getF32FloatAttr(0.0f));
  return SmallVector<Value>(dense->getResults());
}
