//===- ExternDynamicSharedMemory.cpp - attn-extern-dynamic-shared-memory --===//
//
// Declares the dynamic shared memory placeholders of the lowered kernels
// external, as CUDA C++'s `extern __shared__` (Passes.td has the
// description).
//
//===----------------------------------------------------------------------===//

#include "attnopt/Conversion/Passes.h"

#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/LLVMIR/NVVMDialect.h"

namespace mlir::attn {
#define GEN_PASS_DEF_ATTNEXTERNDYNAMICSHAREDMEMORYPASS
#include "attnopt/Conversion/Passes.h.inc"

namespace {

/// Whether `global` is what convert-gpu-to-nvvm makes of
/// gpu.dynamic_shared_memory: a shared (address space 3), zero-length byte
/// array without a value.
bool isDynamicSharedPlaceholder(LLVM::GlobalOp global) {
  auto array = dyn_cast<LLVM::LLVMArrayType>(global.getGlobalType());
  return global.getAddrSpace() ==
             static_cast<unsigned>(NVVM::NVVMMemorySpace::Shared) &&
         array && array.getNumElements() == 0 &&
         array.getElementType().isInteger(8) && !global.getValueOrNull() &&
         global.getInitializerRegion().empty();
}

struct AttnExternDynamicSharedMemoryPass final
    : impl::AttnExternDynamicSharedMemoryPassBase<
          AttnExternDynamicSharedMemoryPass> {
  using Base::Base;

  void runOnOperation() override {
    getOperation().walk([](LLVM::GlobalOp global) {
      if (isDynamicSharedPlaceholder(global) &&
          global.getLinkage() != LLVM::Linkage::External) {
        global.setLinkage(LLVM::Linkage::External);
        // A declaration has no dso_local / visibility of its own.
        global.setVisibility_(LLVM::Visibility::Default);
      }
    });
  }
};

} // namespace
} // namespace mlir::attn
