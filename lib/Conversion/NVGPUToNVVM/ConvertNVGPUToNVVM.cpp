//===- ConvertNVGPUToNVVM.cpp - nvgpu to nvvm with an index width ---------===//
//
// attn-convert-nvgpu-to-nvvm: upstream's nvgpu lowering patterns under a type
// converter that agrees with convert-gpu-to-nvvm{index-bitwidth=N}, so that
// both produce the same memref descriptor structs.
//
//===----------------------------------------------------------------------===//

#include "attnopt/Conversion/Passes.h"

#include "mlir/Conversion/LLVMCommon/ConversionTarget.h"
#include "mlir/Conversion/LLVMCommon/LoweringOptions.h"
#include "mlir/Conversion/LLVMCommon/TypeConverter.h"
#include "mlir/Conversion/NVGPUToNVVM/NVGPUToNVVM.h"
#include "mlir/Dialect/NVGPU/IR/NVGPUDialect.h"
#include "mlir/Dialect/SCF/Transforms/Patterns.h"
#include "mlir/Transforms/DialectConversion.h"

namespace mlir::attn {
#define GEN_PASS_DEF_ATTNCONVERTNVGPUTONVVMPASS
#include "attnopt/Conversion/Passes.h.inc"

namespace {
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
