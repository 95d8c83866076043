//===- TensorMapParams.cpp - attn-tensor-map-params pass
//-------------------===//
//
// Gives the TMA tensor-map arguments of the lowered kernels the by-value
// grid-constant ABI (Passes.td has the description).
//
//===----------------------------------------------------------------------===//

#include "attnopt/Conversion/AttnToGPU/AttnToGPU.h"
#include "attnopt/Conversion/Passes.h"

#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/LLVMIR/NVVMDialect.h"

namespace mlir::attn {
#define GEN_PASS_DEF_ATTNTENSORMAPPARAMSPASS
#include "attnopt/Conversion/Passes.h.inc"

namespace {

/// Bytes of a CUtensorMap, and the alignment the driver requires of it.
constexpr int64_t kTensorMapBytes = 128, kTensorMapAlignment = 64;

LogicalResult markTensorMaps(LLVM::LLVMFuncOp func, DenseI32ArrayAttr indices) {
  if (!func->hasAttr(NVVM::NVVMDialect::getKernelFuncAttrName()))
    return func.emitError("attn-tensor-map-params: '")
           << kTensorMapArgsAttrName
           << "' on a function that is not a kernel (tensor maps are kernel "
              "parameters)";
  MLIRContext *ctx = func.getContext();
  OpBuilder b(ctx);
  Type bytes = LLVM::LLVMArrayType::get(b.getI8Type(), kTensorMapBytes);
  for (int32_t i : indices.asArrayRef()) {
    if (i < 0 || i >= static_cast<int32_t>(func.getNumArguments()))
      return func.emitError("attn-tensor-map-params: argument index ")
             << i << " out of range (the kernel has " << func.getNumArguments()
             << " arguments)";
    auto ptr = dyn_cast<LLVM::LLVMPointerType>(func.getArgument(i).getType());
    if (!ptr || ptr.getAddressSpace() != 0)
      return func.emitError("attn-tensor-map-params: argument ")
             << i << " is a tensor map and must be !llvm.ptr, not "
             << func.getArgument(i).getType();
    func.setArgAttr(i, LLVM::LLVMDialect::getByValAttrName(),
                    TypeAttr::get(bytes));
    func.setArgAttr(i, LLVM::LLVMDialect::getAlignAttrName(),
                    b.getI64IntegerAttr(kTensorMapAlignment));
    func.setArgAttr(i, NVVM::NVVMDialect::getGridConstantAttrName(),
                    b.getUnitAttr());
  }
  func->removeAttr(kTensorMapArgsAttrName);
  return success();
}

struct AttnTensorMapParamsPass
    : impl::AttnTensorMapParamsPassBase<AttnTensorMapParamsPass> {
  void runOnOperation() override {
    for (auto func : getOperation().getOps<LLVM::LLVMFuncOp>()) {
      auto indices =
          func->getAttrOfType<DenseI32ArrayAttr>(kTensorMapArgsAttrName);
      if (indices && failed(markTensorMaps(func, indices)))
        return signalPassFailure();
    }
  }
};

} // namespace
} // namespace mlir::attn
