//===- FoldBandConstantSlices.cpp - sliced tril buffers become indices ----===//
//
// GPT-2 and nanoGPT keep their causal mask as a module buffer of the
// largest context, `tril(ones(1024, 1024))`, and slice it to the sequence:
//
//   att.masked_fill(self.bias[:, :, :T, :T] == 0, float("-inf"))
//
// Exported, the buffer is a [1, 1, 1024, 1024] constant (a `dense_resource`
// blob from torch-mlir) read through `tensor.extract_slice` at offsets 0 and
// sizes T. Too large to evaluate into a mask constant, and with a run-time T
// not a constant at all, it stayed a mask tensor. The buffer is a band,
// though: its value depends only on j - i (one value inside lo <= j - i <=
// hi, another outside). A slice of it at static offsets (oi, oj) is
//
//   select(lo <= (j + oj) - (i + oi) <= hi, inside, outside)
//
// at any size, which this pattern writes as an input-less generic of
// linalg.index comparisons: the form attn-fuse reads as causal / window
// (with a comparison of it, `== 0`, folded into the body by the fusion of
// attn-normalize-chains' last phase and CompareOfConstantSelect below).
// The rewrite is exact: every element of the constant is checked, and a
// slice must lie inside its source (tensor.extract_slice's contract), so
// every index the generic evaluates is one the constant defines.
//
//===----------------------------------------------------------------------===//

#include "attnopt/Dialect/Attn/Transforms/Transforms.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/Dialect/Tensor/Transforms/Transforms.h"
#include "mlir/IR/Matchers.h"
#include "mlir/IR/PatternMatch.h"

using namespace mlir;
using namespace mlir::attn;

namespace {

/// Buffers larger than this are not inspected (compile time): 2048 x 2048.
constexpr int64_t kMaxBandElements = 1 << 22;

/// The allowed band lo <= j - i <= hi of a constant (either side none =
/// unbounded), and the values inside and outside it.
struct ConstantBand {
  std::optional<int64_t> lo, hi;
  TypedAttr inside, outside;
};

/// The element values of a dense or dense_resource constant, as attributes
/// (i1 resource blobs hold one byte per element).
std::optional<DenseElementsAttr> elementsOf(Attribute attr) {
  if (auto dense = dyn_cast<DenseElementsAttr>(attr))
    return dense;
  return denseElementsOfResource(attr);
}

/// The band of a constant whose dims other than the last two have size 1:
/// its value must be a function of j - i taking two values, one of them on
/// an interval of j - i. Checked on every element.
std::optional<ConstantBand> bandOf(DenseElementsAttr values) {
  auto type = cast<RankedTensorType>(values.getType());
  int64_t rank = type.getRank();
  if (rank < 2 || values.isSplat() || !type.hasStaticShape() ||
      type.getNumElements() > kMaxBandElements ||
      !type.getElementType().isIntOrFloat())
    return std::nullopt;
  for (int64_t d = 0; d < rank - 2; ++d)
    if (type.getDimSize(d) != 1)
      return std::nullopt;
  int64_t rows = type.getDimSize(rank - 2), cols = type.getDimSize(rank - 1);
  // Element bits, compared instead of attributes (a million elements).
  SmallVector<uint64_t> bits;
  bits.reserve(type.getNumElements());
  if (isa<FloatType>(type.getElementType())) {
    for (const APFloat &v : values.getValues<APFloat>())
      bits.push_back(v.bitcastToAPInt().getZExtValue());
  } else {
    if (type.getElementType().getIntOrFloatBitWidth() > 64)
      return std::nullopt;
    for (const APInt &v : values.getValues<APInt>())
      bits.push_back(v.getZExtValue());
  }
  // diagonal[d + rows - 1] is the value at j - i = d, from the first column
  // and the first row; then every element must agree.
  SmallVector<uint64_t> diagonal(rows + cols - 1);
  for (int64_t i = 0; i < rows; ++i)
    diagonal[rows - 1 - i] = bits[i * cols];
  for (int64_t j = 0; j < cols; ++j)
    diagonal[rows - 1 + j] = bits[j];
  for (int64_t i = 0; i < rows; ++i)
    for (int64_t j = 0; j < cols; ++j)
      if (bits[i * cols + j] != diagonal[rows - 1 + j - i])
        return std::nullopt;
  // Two values, one of them on one interval [first, last] of diagonals.
  uint64_t a = diagonal.front();
  auto other = llvm::find_if(diagonal, [&](uint64_t v) { return v != a; });
  if (other == diagonal.end())
    return std::nullopt; // one value (a splat not stored as one)
  uint64_t b = *other;
  if (llvm::any_of(diagonal, [&](uint64_t v) { return v != a && v != b; }))
    return std::nullopt;
  auto intervalOf =
      [&](uint64_t v) -> std::optional<std::pair<int64_t, int64_t>> {
    int64_t first = -1, last = -1;
    for (auto [k, x] : llvm::enumerate(diagonal)) {
      if (x != v)
        continue;
      if (last >= 0 && last != static_cast<int64_t>(k) - 1)
        return std::nullopt; // a second run of v
      if (first < 0)
        first = k;
      last = k;
    }
    return std::make_pair(first, last);
  };
  // The value at the first diagonal; where its diagonals are not one
  // interval (a band with both sides excluded), the other value's are.
  uint64_t insideBits = a;
  std::optional<std::pair<int64_t, int64_t>> run = intervalOf(a);
  if (!run) {
    insideBits = b;
    run = intervalOf(b);
    if (!run)
      return std::nullopt;
  }
  ConstantBand band;
  int64_t lastDiagonal = rows + cols - 2;
  if (run->first > 0)
    band.lo = run->first - (rows - 1);
  if (run->second < lastDiagonal)
    band.hi = run->second - (rows - 1);
  auto flatOf = [&](uint64_t v) {
    return static_cast<int64_t>(llvm::find(bits, v) - bits.begin());
  };
  auto elements = values.getValues<Attribute>();
  band.inside = cast<TypedAttr>(elements[flatOf(insideBits)]);
  band.outside = cast<TypedAttr>(elements[flatOf(insideBits == a ? b : a)]);
  return band;
}

/// tensor.extract_slice of a band constant at static offsets and unit
/// strides -> an input-less generic selecting the constant's two values by
/// index comparisons.
struct BandConstantSliceToIndices final
    : OpRewritePattern<tensor::ExtractSliceOp> {
  using OpRewritePattern::OpRewritePattern;

  LogicalResult matchAndRewrite(tensor::ExtractSliceOp slice,
                                PatternRewriter &rewriter) const override {
    Attribute attr;
    if (!matchPattern(slice.getSource(), m_Constant(&attr)))
      return failure();
    // A slice that is only sliced again (torch-mlir slices rows, then
    // columns) is merged with those slices first.
    if (!slice->use_empty() &&
        llvm::all_of(slice->getUsers(), llvm::IsaPred<tensor::ExtractSliceOp>))
      return failure();
    if (!llvm::all_of(slice.getStaticStrides(),
                      [](int64_t s) { return s == 1; }) ||
        llvm::any_of(slice.getStaticOffsets(), ShapedType::isDynamic))
      return failure();
    RankedTensorType source = slice.getSourceType();
    int64_t rank = source.getRank();
    if (rank < 2 || source.getNumElements() > kMaxBandElements)
      return failure();
    std::optional<DenseElementsAttr> values = elementsOf(attr);
    if (!values)
      return failure();
    std::optional<ConstantBand> band = bandOf(*values);
    if (!band)
      return failure();
    // The row and column dims must stay in the result (a slice dropping
    // one of them is a single row or column: left alone).
    llvm::SmallBitVector dropped = slice.getDroppedDims();
    if (dropped.test(rank - 2) || dropped.test(rank - 1))
      return failure();
    RankedTensorType result = slice.getResultType();
    int64_t resultRank = result.getRank();
    int64_t offset =
        slice.getStaticOffsets()[rank - 1] - slice.getStaticOffsets()[rank - 2];

    Location loc = slice.getLoc();
    // The result's sizes are the slice's, of the dims it keeps.
    SmallVector<Value> dynamicSizes;
    for (OpFoldResult size : slice.getMixedSizes())
      if (auto v = dyn_cast<Value>(size))
        dynamicSizes.push_back(v);
    Value init = tensor::EmptyOp::create(rewriter, loc, result.getShape(),
                                         result.getElementType(), dynamicSizes);
    SmallVector<AffineMap> maps{rewriter.getMultiDimIdentityMap(resultRank)};
    SmallVector<utils::IteratorType> iterators(resultRank,
                                               utils::IteratorType::parallel);
    auto generic = linalg::GenericOp::create(
        rewriter, loc, result, ValueRange{}, ValueRange{init}, maps, iterators,
        [&](OpBuilder &b, Location loc, ValueRange) {
          Value i = linalg::IndexOp::create(b, loc, resultRank - 2);
          Value j = linalg::IndexOp::create(b, loc, resultRank - 1);
          // lo <= j + offset - i <= hi  <=>  i + (lo - offset) <= j and
          // j <= i + (hi - offset).
          auto plus = [&](int64_t c) -> Value {
            if (c == 0)
              return i;
            return arith::AddIOp::create(
                b, loc, i, arith::ConstantIndexOp::create(b, loc, c));
          };
          Value inside;
          if (band->hi)
            inside = arith::CmpIOp::create(b, loc, arith::CmpIPredicate::sle, j,
                                           plus(*band->hi - offset));
          if (band->lo) {
            Value above = arith::CmpIOp::create(
                b, loc, arith::CmpIPredicate::sge, j, plus(*band->lo - offset));
            inside =
                inside ? arith::AndIOp::create(b, loc, inside, above) : above;
          }
          Value in = arith::ConstantOp::create(b, loc, band->inside);
          Value out = arith::ConstantOp::create(b, loc, band->outside);
          linalg::YieldOp::create(
              b, loc, Value(arith::SelectOp::create(b, loc, inside, in, out)));
        });
    rewriter.replaceOp(slice, generic.getResult(0));
    return success();
  }
};

/// The comparison of two constants, for arith.cmpi / arith.cmpf.
std::optional<bool> compareConstants(arith::CmpIOp cmp, Attribute lhs,
                                     Attribute rhs) {
  auto l = dyn_cast<IntegerAttr>(lhs), r = dyn_cast<IntegerAttr>(rhs);
  if (!l || !r)
    return std::nullopt;
  return arith::applyCmpPredicate(cmp.getPredicate(), l.getValue(),
                                  r.getValue());
}
std::optional<bool> compareConstants(arith::CmpFOp cmp, Attribute lhs,
                                     Attribute rhs) {
  auto l = dyn_cast<FloatAttr>(lhs), r = dyn_cast<FloatAttr>(rhs);
  if (!l || !r)
    return std::nullopt;
  return arith::applyCmpPredicate(cmp.getPredicate(), l.getValue(),
                                  r.getValue());
}

/// Replaces the i1 comparison `cmp` by `cond`, or by its negation.
void replaceByCondition(PatternRewriter &rewriter, Operation *cmp, Value cond,
                        bool negate) {
  if (!negate) {
    rewriter.replaceOp(cmp, cond);
    return;
  }
  Value one = arith::ConstantIntOp::create(rewriter, cmp->getLoc(), 1, 1);
  rewriter.replaceOpWithNewOp<arith::XOrIOp>(cmp, cond, one);
}

/// cmp(select(c, k1, k2), k3) with scalar constants k1, k2, k3 -> c, !c,
/// or a constant: the comparison of a sliced band (`bias[:T, :T] == 0`) is
/// the band's condition.
template <typename CmpOp>
struct CompareOfConstantSelect final : OpRewritePattern<CmpOp> {
  using OpRewritePattern<CmpOp>::OpRewritePattern;

  LogicalResult matchAndRewrite(CmpOp cmp,
                                PatternRewriter &rewriter) const override {
    for (int side = 0; side < 2; ++side) {
      auto select =
          cmp->getOperand(side).template getDefiningOp<arith::SelectOp>();
      Attribute k, t, f;
      if (!select || !cmp.getType().isInteger(1) ||
          !select.getCondition().getType().isInteger(1) ||
          !matchPattern(cmp->getOperand(1 - side), m_Constant(&k)) ||
          !matchPattern(select.getTrueValue(), m_Constant(&t)) ||
          !matchPattern(select.getFalseValue(), m_Constant(&f)))
        continue;
      auto evaluate = [&](Attribute v) {
        return side == 0 ? compareConstants(cmp, v, k)
                         : compareConstants(cmp, k, v);
      };
      std::optional<bool> ifTrue = evaluate(t), ifFalse = evaluate(f);
      if (!ifTrue || !ifFalse)
        return failure();
      if (*ifTrue == *ifFalse)
        rewriter.replaceOpWithNewOp<arith::ConstantIntOp>(cmp, *ifTrue, 1);
      else
        replaceByCondition(rewriter, cmp, select.getCondition(), !*ifTrue);
      return success();
    }
    return failure();
  }
};

/// cmpi eq / ne of an i1 with a constant -> the i1 or its negation
/// (`mask == 0` of a boolean buffer), the forms attn-fuse reads in masks.
struct CompareBooleanWithConstant final : OpRewritePattern<arith::CmpIOp> {
  using OpRewritePattern::OpRewritePattern;

  LogicalResult matchAndRewrite(arith::CmpIOp cmp,
                                PatternRewriter &rewriter) const override {
    using P = arith::CmpIPredicate;
    if (!cmp.getLhs().getType().isInteger(1) ||
        (cmp.getPredicate() != P::eq && cmp.getPredicate() != P::ne))
      return failure();
    for (int side = 0; side < 2; ++side) {
      APInt k;
      if (!matchPattern(cmp->getOperand(1 - side), m_ConstantInt(&k)))
        continue;
      // x == 1 and x != 0 are x; x == 0 and x != 1 are !x.
      replaceByCondition(rewriter, cmp, cmp->getOperand(side),
                         k.isOne() != (cmp.getPredicate() == P::eq));
      return success();
    }
    return failure();
  }
};

} // namespace

void mlir::attn::populateFoldBandConstantSlicesPatterns(
    RewritePatternSet &patterns) {
  patterns.add<BandConstantSliceToIndices, CompareBooleanWithConstant,
               CompareOfConstantSelect<arith::CmpIOp>,
               CompareOfConstantSelect<arith::CmpFOp>>(patterns.getContext());
  tensor::populateMergeConsecutiveInsertExtractSlicePatterns(patterns);
}
