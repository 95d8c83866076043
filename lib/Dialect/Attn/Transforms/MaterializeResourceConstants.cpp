//===- MaterializeResourceConstants.cpp - dense_resource constants --------===//
//
// torch-mlir writes the buffers of a module (GPT-2's causal `bias`, a
// `torch.tril(torch.ones(L, L))`) as `dense_resource` blobs, which the
// constant folders and attn-normalize-chains' mask evaluation do not read.
// A small such constant (at most kMaxMaterializedElements, the size masks
// are evaluated up to) becomes the same values as a dense constant; larger
// ones (weights) are left as they are.
//
//===----------------------------------------------------------------------===//

#include "attnopt/Dialect/Attn/Transforms/Transforms.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/IR/BuiltinAttributes.h"
#include "mlir/IR/DialectResourceBlobManager.h"
#include "mlir/IR/PatternMatch.h"

using namespace mlir;

std::optional<DenseElementsAttr>
mlir::attn::denseElementsOfResource(Attribute attr) {
  auto resource = dyn_cast<DenseResourceElementsAttr>(attr);
  if (!resource)
    return std::nullopt;
  AsmResourceBlob *blob = resource.getRawHandle().getBlob();
  ShapedType type = resource.getType();
  if (!blob)
    return std::nullopt;
  ArrayRef<char> data = blob->getData();
  // i1 blobs hold a byte per element (PyTorch's bool), which dense
  // attributes pack.
  if (type.getElementType().isInteger(1)) {
    if (!type.hasStaticShape() ||
        static_cast<int64_t>(data.size()) != type.getNumElements())
      return std::nullopt;
    SmallVector<bool> bits(
        llvm::map_range(data, [](char c) { return c != 0; }));
    return DenseElementsAttr::get(type, ArrayRef<bool>(bits));
  }
  bool splat = false;
  if (!DenseElementsAttr::isValidRawBuffer(type, data, splat))
    return std::nullopt;
  return DenseElementsAttr::getFromRawBuffer(type, data);
}

namespace {

struct MaterializeSmallResource final : OpRewritePattern<arith::ConstantOp> {
  using OpRewritePattern::OpRewritePattern;

  LogicalResult matchAndRewrite(arith::ConstantOp op,
                                PatternRewriter &rewriter) const override {
    auto resource = dyn_cast<DenseResourceElementsAttr>(op.getValue());
    if (!resource || resource.getType().getNumElements() >
                         mlir::attn::kMaxMaterializedElements)
      return failure();
    std::optional<DenseElementsAttr> dense =
        mlir::attn::denseElementsOfResource(resource);
    if (!dense)
      return failure();
    rewriter.replaceOpWithNewOp<arith::ConstantOp>(op, *dense);
    return success();
  }
};

} // namespace

void mlir::attn::populateMaterializeResourceConstantsPatterns(
    RewritePatternSet &patterns) {
  patterns.add<MaterializeSmallResource>(patterns.getContext());
}
