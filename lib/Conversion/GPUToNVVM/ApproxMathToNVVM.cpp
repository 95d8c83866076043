//===- ApproxMathToNVVM.cpp - attn-approx-math-to-nvvm pass ---------------===//
//
// Lowers math ops that allow approximation (fastmath<afn>) to NVVM's
// approximate instructions (Passes.td has the description).
//
//===----------------------------------------------------------------------===//

#include "attnopt/Conversion/Passes.h"

#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/Math/IR/Math.h"

namespace mlir::attn {
#define GEN_PASS_DEF_ATTNAPPROXMATHTONVVMPASS
#include "attnopt/Conversion/Passes.h.inc"

namespace {

/// Whether `tanh` may become tanh.approx.f32: scalar f32 with afn.
bool isApproximableTanh(math::TanhOp tanh) {
  return tanh.getType().isF32() &&
         arith::bitEnumContainsAll(tanh.getFastmath(),
                                   arith::FastMathFlags::afn);
}

Value emitTanhApprox(OpBuilder &b, Location loc, Value x) {
  return LLVM::InlineAsmOp::create(
             b, loc, b.getF32Type(), ValueRange{x}, "tanh.approx.f32 $0, $1;",
             "=f,f",
             /*has_side_effects=*/false, /*is_align_stack=*/false,
             LLVM::tailcallkind::TailCallKind::None,
             LLVM::AsmDialectAttr::get(b.getContext(),
                                       LLVM::AsmDialect::AD_ATT),
             ArrayAttr())
      .getResult(0);
}

struct AttnApproxMathToNVVMPass
    : impl::AttnApproxMathToNVVMPassBase<AttnApproxMathToNVVMPass> {
  void runOnOperation() override {
    SmallVector<math::TanhOp> worklist;
    getOperation()->walk([&](math::TanhOp tanh) {
      if (isApproximableTanh(tanh))
        worklist.push_back(tanh);
    });
    for (math::TanhOp tanh : worklist) {
      OpBuilder b(tanh);
      tanh.replaceAllUsesWith(
          emitTanhApprox(b, tanh.getLoc(), tanh.getOperand()));
      tanh.erase();
    }
  }
};

} // namespace
} // namespace mlir::attn
