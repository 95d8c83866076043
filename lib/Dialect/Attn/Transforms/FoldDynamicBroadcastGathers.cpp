//===- FoldDynamicBroadcastGathers.cpp - torch-mlir's dynamic broadcasts --===//
//
// PyTorch broadcasts the batch dims of a matmul (and the operands of
// elementwise ops) against each other. With static sizes torch-mlir knows
// which dims broadcast; with dynamic ones it cannot, and writes each operand
// as a gather that reads index 0 where the operand's dim is 1 at run time:
//
//   %b = linalg.generic {maps = [id]} outs(%empty : tensor<?x4x?x32xf32>) {
//     %i = linalg.index 0 : index
//     %one = arith.cmpi eq, %dim0_of_x, %c1 : index
//     %i0 = arith.select %one, %c0, %i : index
//     ...
//     %e = tensor.extract %x[%i0, %j, %k0, %l] : tensor<?x4x?x32xf32>
//     linalg.yield %e : f32
//   }
//
// Where the gather's size equals its source's in every dim, the gather is
// the identity (a size-1 dim broadcast to size 1 reads index 0 either way),
// and it is replaced by its source; where it also reads index 0 of static
// size-1 dims (Llama's repeat_kv, SDPA's enable_gqa), by a generic copying
// the source through the broadcasting map a static export has. A dim whose
// sizes are not provably equal (SymbolicSizes.h: torch-mlir takes the batch of
// the result from one operand and the query length from another) gets a
// run-time check, a `cf.assert` that they are: what is lost is a size-1 dim of
// one operand broadcast against a larger one of another at run time, which
// attention's operands do not do (PyTorch's own kernels reject a query batch of
// 1 with a key batch of 8 too). Any other index (a gather that is not a
// broadcast) is left alone.
//
//===----------------------------------------------------------------------===//

#include "LinalgLoops.h"
#include "SymbolicSizes.h"
#include "attnopt/Dialect/Attn/Transforms/Transforms.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/ControlFlow/IR/ControlFlowOps.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/IR/Matchers.h"
#include "mlir/IR/PatternMatch.h"

using namespace mlir;
using namespace mlir::attn;

namespace {

/// Whether `v` is `linalg.index dim` of the body it is used in.
bool isIndex(Value v, int64_t dim) {
  auto index = v.getDefiningOp<linalg::IndexOp>();
  return index && static_cast<int64_t>(index.getDim()) == dim;
}

/// How the gather reads dim `dim`: the loop index (`Plain`),
/// `size == 1 ? 0 : index` with `size` the source's size there (`Dynamic`,
/// a broadcast of a dynamic size), or 0 where the source's size is 1
/// (`Zero`, a static broadcast: repeat_kv's new dim). None for any other
/// index.
enum class IndexForm { Plain, Dynamic, Zero };

std::optional<IndexForm> formOf(Value index, int64_t dim, Value source,
                                SymbolicSizes &sizes) {
  if (isIndex(index, dim))
    return IndexForm::Plain;
  if (matchPattern(index, m_Zero())) {
    std::optional<SymbolicSize> size = sizes.dimOf(source, dim);
    if (size && *size == SymbolicSize::ofConstant(1))
      return IndexForm::Zero;
    return std::nullopt;
  }
  auto select = index.getDefiningOp<arith::SelectOp>();
  if (!select || !isIndex(select.getFalseValue(), dim) ||
      !matchPattern(select.getTrueValue(), m_Zero()))
    return std::nullopt;
  auto cmp = select.getCondition().getDefiningOp<arith::CmpIOp>();
  if (!cmp || cmp.getPredicate() != arith::CmpIPredicate::eq ||
      !matchPattern(cmp.getRhs(), m_One()))
    return std::nullopt;
  std::optional<SymbolicSize> tested = sizes.sizeOf(cmp.getLhs());
  std::optional<SymbolicSize> actual = sizes.dimOf(source, dim);
  if (!tested || !actual || *tested != *actual)
    return std::nullopt;
  return IndexForm::Dynamic;
}

struct BroadcastGatherIsItsSource final : OpRewritePattern<linalg::GenericOp> {
  using OpRewritePattern::OpRewritePattern;

  LogicalResult matchAndRewrite(linalg::GenericOp op,
                                PatternRewriter &rewriter) const override {
    if (op.getNumDpsInputs() != 0 || op.getNumDpsInits() != 1 ||
        op.getNumParallelLoops() != op.getNumLoops() ||
        !op.getIndexingMapsArray()[0].isIdentity() ||
        !op.hasPureTensorSemantics())
      return rewriter.notifyMatchFailure(op, "not an all-parallel gather");
    auto yield = cast<linalg::YieldOp>(op.getBody()->getTerminator());
    auto extract = yield.getValues()[0].getDefiningOp<tensor::ExtractOp>();
    if (!extract || extract->getBlock() != op.getBody())
      return rewriter.notifyMatchFailure(op, "does not yield an extract");
    Value source = extract.getTensor();
    Value init = op.getDpsInits()[0];
    auto sourceType = dyn_cast<RankedTensorType>(source.getType());
    auto resultType = cast<RankedTensorType>(op.getResult(0).getType());
    if (!sourceType || sourceType.getRank() != resultType.getRank() ||
        sourceType.getElementType() != resultType.getElementType() ||
        op.getRegion().isAncestor(source.getParentRegion()))
      return rewriter.notifyMatchFailure(op, "not a gather of one tensor");
    SymbolicSizes sizes;
    SmallVector<int64_t> unproven;
    // The source read through a broadcasting map: d_k, or 0 for a static
    // size-1 dim.
    SmallVector<AffineExpr> reads;
    for (auto [dim, index] : llvm::enumerate(extract.getIndices())) {
      std::optional<IndexForm> form = formOf(index, dim, source, sizes);
      if (!form)
        return rewriter.notifyMatchFailure(op, "an index is not a broadcast");
      if (*form == IndexForm::Zero) {
        reads.push_back(rewriter.getAffineConstantExpr(0));
        continue;
      }
      reads.push_back(rewriter.getAffineDimExpr(dim));
      std::optional<SymbolicSize> from = sizes.dimOf(source, dim);
      std::optional<SymbolicSize> to = sizes.dimOf(init, dim);
      if (from && to && *from == *to)
        continue;
      // A broadcast of a static size 1 to another static size is a real
      // broadcast, not one of dynamic sizes.
      if (from && to && from->isConstant() && to->isConstant())
        return rewriter.notifyMatchFailure(op, "a static broadcast");
      unproven.push_back(dim);
    }
    Location loc = op.getLoc();
    for (int64_t dim : unproven) {
      Value a = tensor::DimOp::create(rewriter, loc, source, dim);
      Value b = tensor::DimOp::create(rewriter, loc, init, dim);
      Value same =
          arith::CmpIOp::create(rewriter, loc, arith::CmpIPredicate::eq, a, b);
      cf::AssertOp::create(
          rewriter, loc, same,
          rewriter.getStringAttr(
              "attn-normalize-chains: dim " + std::to_string(dim) +
              " of a tensor broadcast at run time (torch-mlir's gather of "
              "dynamic sizes) is taken to be the size it is broadcast to; "
              "broadcasting a size-1 dim to a larger one is not supported "
              "with dynamic shapes"));
    }
    int64_t rank = resultType.getRank();
    AffineMap map = AffineMap::get(rank, 0, reads, rewriter.getContext());
    if (map.isIdentity()) {
      Value replacement = source;
      if (sourceType != resultType)
        replacement = tensor::CastOp::create(rewriter, loc, resultType, source);
      rewriter.replaceOp(op, replacement);
      return success();
    }
    // A static broadcast as well: the copy through the broadcasting map that
    // the static export would have written.
    rewriter.replaceOp(
        op,
        createCopyThroughMap(rewriter, loc, source, map, init).getResults());
    return success();
  }
};

} // namespace

void mlir::attn::populateFoldDynamicBroadcastGathersPatterns(
    RewritePatternSet &patterns) {
  patterns.add<BroadcastGatherIsItsSource>(patterns.getContext());
}
