//===- ConvertNVGPUToNVVM.cpp - nvgpu to nvvm with an index width ---------===//
//
// attn-convert-nvgpu-to-nvvm: upstream's nvgpu lowering patterns under a type
// converter that agrees with convert-gpu-to-nvvm{index-bitwidth=N}, so that
// both produce the same memref descriptor structs; plus the cp.async with an
// L2 prefetch hint that upstream's cannot express.
//
//===----------------------------------------------------------------------===//

#include "attnopt/Conversion/AttnToGPU/AttnToGPU.h"
#include "attnopt/Conversion/Passes.h"

#include "mlir/Conversion/LLVMCommon/ConversionTarget.h"
#include "mlir/Conversion/LLVMCommon/LoweringOptions.h"
#include "mlir/Conversion/LLVMCommon/Pattern.h"
#include "mlir/Conversion/LLVMCommon/TypeConverter.h"
#include "mlir/Conversion/NVGPUToNVVM/NVGPUToNVVM.h"
#include "mlir/Dialect/LLVMIR/NVVMDialect.h"
#include "mlir/Dialect/NVGPU/IR/NVGPUDialect.h"
#include "mlir/Dialect/SCF/Transforms/Patterns.h"
#include "mlir/IR/ImplicitLocOpBuilder.h"
#include "mlir/Transforms/DialectConversion.h"

namespace mlir::attn {
#define GEN_PASS_DEF_ATTNCONVERTNVGPUTONVVMPASS
#include "attnopt/Conversion/Passes.h.inc"

namespace {
/// A 16-byte nvgpu.device_async_copy that bypasses L1 and carries
/// kL2PrefetchAttrName: cp.async.cg with the .L2::128B prefetch qualifier,
/// which NVVM's cp.async op cannot express, as inline PTX. Ahead of
/// upstream's lowering (benefit 2), which takes every other copy.
struct AsyncCopyWithL2Prefetch final
    : ConvertOpToLLVMPattern<nvgpu::DeviceAsyncCopyOp> {
  explicit AsyncCopyWithL2Prefetch(const LLVMTypeConverter &converter)
      : ConvertOpToLLVMPattern(converter, /*benefit=*/2) {}

  LogicalResult
  matchAndRewrite(nvgpu::DeviceAsyncCopyOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    auto prefetch = op->getAttrOfType<IntegerAttr>(kL2PrefetchAttrName);
    if (!prefetch)
      return failure();
    auto dstType = cast<MemRefType>(op.getDst().getType());
    auto srcType = cast<MemRefType>(op.getSrc().getType());
    const int64_t bytes =
        dstType.getElementTypeBitWidth() * op.getDstElements().getZExtValue() /
        8;
    if (prefetch.getInt() != 128 || bytes != 16 || !op.getBypassL1())
      return rewriter.notifyMatchFailure(
          op, "the L2 prefetch hint is for 16-byte cp.async.cg copies, 128 "
              "bytes");
    ImplicitLocOpBuilder b(op.getLoc(), rewriter);
    Type i32 = b.getI32Type(), i64 = b.getI64Type();
    // The shared-window address of the destination, the global one of the
    // source, as 64-bit registers.
    Value dst = getStridedElementPtr(rewriter, op.getLoc(), dstType,
                                     adaptor.getDst(), adaptor.getDstIndices());
    Value src = getStridedElementPtr(rewriter, op.getLoc(), srcType,
                                     adaptor.getSrc(), adaptor.getSrcIndices());
    src = LLVM::AddrSpaceCastOp::create(
        b,
        LLVM::LLVMPointerType::get(
            b.getContext(),
            static_cast<unsigned>(NVVM::NVVMMemorySpace::Global)),
        src);
    SmallVector<Value> operands = {LLVM::PtrToIntOp::create(b, i64, dst),
                                   LLVM::PtrToIntOp::create(b, i64, src)};
    std::string ptx = "cp.async.cg.shared.global.L2::128B [$0], [$1], 16";
    std::string constraints = "l,l";
    if (Value elements = adaptor.getSrcElements()) {
      // Only the first src-size bytes are read; the rest are zero-filled.
      if (elements.getType() != i32)
        elements = LLVM::TruncOp::create(b, i32, elements);
      Value eltBytes = LLVM::ConstantOp::create(
          b, i32, b.getI32IntegerAttr(srcType.getElementTypeBitWidth() / 8));
      operands.push_back(LLVM::MulOp::create(b, elements, eltBytes));
      ptx += ", $2";
      constraints += ",r";
    }
    LLVM::InlineAsmOp::create(
        b, TypeRange{}, operands, ptx + ";", constraints,
        /*has_side_effects=*/true, /*is_align_stack=*/false,
        LLVM::tailcallkind::TailCallKind::None,
        LLVM::AsmDialectAttr::get(b.getContext(), LLVM::AsmDialect::AD_ATT),
        ArrayAttr());
    // The token is a dummy i32, as upstream's lowering makes it.
    rewriter.replaceOp(op, LLVM::ConstantOp::create(b, i32,
                                                    b.getI32IntegerAttr(0)));
    return success();
  }
};

struct AttnConvertNVGPUToNVVMPass final
    : impl::AttnConvertNVGPUToNVVMPassBase<AttnConvertNVGPUToNVVMPass> {
  using Base::Base;

  void runOnOperation() override {
    MLIRContext *ctx = &getContext();
    LowerToLLVMOptions options(ctx);
    options.overrideIndexBitwidth(indexBitwidth);
    LLVMTypeConverter converter(ctx, options);
    // Async tokens become dummy i32s, GPU memory spaces NVVM's numbers.
    nvgpu::populateCommonGPUTypeAndAttributeConversions(converter);
    converter.addConversion([&](nvgpu::DeviceAsyncTokenType type) -> Type {
      return converter.convertType(IntegerType::get(type.getContext(), 32));
    });
    RewritePatternSet patterns(ctx);
    patterns.add<AsyncCopyWithL2Prefetch>(converter);
    populateNVGPUToNVVMConversionPatterns(converter, patterns);
    LLVMConversionTarget target(*ctx);
    target.addLegalDialect<LLVM::LLVMDialect, NVVM::NVVMDialect,
                           arith::ArithDialect, memref::MemRefDialect>();
    scf::populateSCFStructuralTypeConversionsAndLegality(converter, patterns,
                                                         target);
    if (failed(applyPartialConversion(getOperation(), target,
                                      std::move(patterns))))
      signalPassFailure();
  }
};
} // namespace
} // namespace mlir::attn
