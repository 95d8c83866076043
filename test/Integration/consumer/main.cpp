//===- main.cpp - a consumer of the installed AttnOpt package -------------===//
//
// Registers the attn dialect and passes, parses an attn.attention, runs
// attn-decompose (once created directly, once by name) and prints OK.
//
//===----------------------------------------------------------------------===//

#include "attnopt/Dialect/Attn/Transforms/Passes.h"
#include "attnopt/InitAllAttn.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/MLIRContext.h"
#include "mlir/Parser/Parser.h"
#include "mlir/Pass/PassManager.h"
#include "mlir/Pass/PassRegistry.h"
#include "llvm/Support/raw_ostream.h"

static const char *const kInput = R"mlir(
func.func @f(%q: tensor<1x2x8x16xf32>, %k: tensor<1x2x8x16xf32>,
             %v: tensor<1x2x8x16xf32>)
    -> (tensor<1x2x8x16xf32>, tensor<1x2x8xf32>) {
  %o, %l = attn.attention ins(%q, %k, %v : tensor<1x2x8x16xf32>,
      tensor<1x2x8x16xf32>, tensor<1x2x8x16xf32>)
      -> tensor<1x2x8x16xf32>, tensor<1x2x8xf32>
  return %o, %l : tensor<1x2x8x16xf32>, tensor<1x2x8xf32>
}
)mlir";

static int countAttention(mlir::ModuleOp module) {
  int n = 0;
  module.walk([&](mlir::attn::AttentionOp) { ++n; });
  return n;
}

static bool decompose(mlir::MLIRContext &context, bool byName) {
  mlir::OwningOpRef<mlir::ModuleOp> module =
      mlir::parseSourceString<mlir::ModuleOp>(kInput, &context);
  if (!module)
    return false;
  if (countAttention(*module) != 1) {
    llvm::errs() << "attn-consumer: expected one attn.attention after parsing\n";
    return false;
  }
  mlir::PassManager pm(&context);
  if (byName) {
    if (mlir::failed(mlir::parsePassPipeline(
            "func.func(attn-decompose)", pm, llvm::errs())))
      return false;
  } else {
    pm.addNestedPass<mlir::func::FuncOp>(mlir::attn::createAttnDecomposePass());
  }
  if (mlir::failed(pm.run(*module)))
    return false;
  if (countAttention(*module) != 0) {
    llvm::errs() << "attn-consumer: attn-decompose left an attn.attention\n";
    return false;
  }
  return true;
}

int main() {
  mlir::attn::registerAllAttnPasses();
  mlir::DialectRegistry registry;
  registry.insert<mlir::func::FuncDialect>();
  mlir::attn::registerAttnDialect(registry);
  mlir::MLIRContext context(registry);

  if (!decompose(context, /*byName=*/false) ||
      !decompose(context, /*byName=*/true)) {
    llvm::errs() << "attn-consumer: FAILED\n";
    return 1;
  }
  llvm::outs() << "OK\n";
  return 0;
}
