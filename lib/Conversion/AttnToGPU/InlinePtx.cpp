//===- InlinePtx.cpp - PTX that has no NVVM op ----------------------------===//

#include "InlinePtx.h"

#include "mlir/Dialect/LLVMIR/LLVMDialect.h"

using namespace mlir;
using namespace mlir::attn;

static LLVM::InlineAsmOp create(OpBuilder &b, Location loc, Type resultType,
                                ValueRange operands, const Twine &text,
                                StringRef constraints, bool sideEffects) {
  return LLVM::InlineAsmOp::create(
      b, loc, resultType ? TypeRange{resultType} : TypeRange{}, operands,
      text.str(), constraints, sideEffects, /*is_align_stack=*/false,
      LLVM::tailcallkind::TailCallKind::None,
      LLVM::AsmDialectAttr::get(b.getContext(), LLVM::AsmDialect::AD_ATT),
      ArrayAttr());
}

void ptx::statement(OpBuilder &b, Location loc, const Twine &text,
                    StringRef constraints, ValueRange operands) {
  create(b, loc, Type(), operands, text, constraints, /*sideEffects=*/true);
}

SmallVector<Value> ptx::withResults(OpBuilder &b, Location loc,
                                    TypeRange resultTypes, ValueRange operands,
                                    const Twine &text, StringRef constraints,
                                    bool sideEffects) {
  assert(!resultTypes.empty() && "statement() writes PTX without results");
  if (resultTypes.size() == 1)
    return {create(b, loc, resultTypes.front(), operands, text, constraints,
                   sideEffects)
                .getResult(0)};
  // Several outputs come back as one literal struct.
  auto structTy = LLVM::LLVMStructType::getLiteral(
      b.getContext(), SmallVector<Type>(resultTypes));
  Value all = create(b, loc, structTy, operands, text, constraints, sideEffects)
                  .getResult(0);
  SmallVector<Value> out;
  for (int64_t i = 0, e = resultTypes.size(); i < e; ++i)
    out.push_back(LLVM::ExtractValueOp::create(b, loc, all, i));
  return out;
}
