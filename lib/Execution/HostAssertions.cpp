//===- HostAssertions.cpp - run-time assertions of JIT-run code -----------===//

#include "HostAssertions.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/ControlFlow/IR/ControlFlowOps.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/IR/Builders.h"
#include "llvm/ExecutionEngine/Orc/Mangling.h"
#include "llvm/Support/raw_ostream.h"

#include <cstdio>
#include <cstdlib>
#include <string>
#include <vector>

using namespace mlir;

static constexpr llvm::StringLiteral kHandler = "attn_host_assertion_failed";

/// The reports of the routed assertions, by id (every module the tool
/// compiles appends to it; the tools are single-threaded).
static std::vector<std::string> &assertionReports() {
  static std::vector<std::string> reports;
  return reports;
}

extern "C" void attn_host_assertion_failed(int64_t id) {
  const std::vector<std::string> &reports = assertionReports();
  // What the tool reported so far comes first.
  llvm::outs().flush();
  std::fflush(stdout);
  llvm::errs() << (id >= 0 && id < static_cast<int64_t>(reports.size())
                       ? reports[id]
                       : std::string("error: a cf.assert failed at run time"))
               << "\n";
  llvm::errs().flush();
  std::fflush(nullptr);
  std::_Exit(1);
}

static std::string reportFor(cf::AssertOp op) {
  std::string text;
  llvm::raw_string_ostream os(text);
  if (auto loc = dyn_cast<FileLineColLoc>(op.getLoc()))
    os << loc.getFilename().getValue() << ":" << loc.getLine() << ":"
       << loc.getColumn() << ": ";
  else
    os << op.getLoc() << ": ";
  os << "error: cf.assert failed at run time: \"" << op.getMsg()
     << "\" (the function was run on random inputs, which its assertion "
        "does not accept; attn-cpu-run and attn-raise-check cannot check a "
        "function whose assertions constrain its input values)";
  return text;
}

void mlir::attn::routeAssertionsToHost(ModuleOp module) {
  SmallVector<cf::AssertOp> asserts;
  module.walk([&](cf::AssertOp op) { asserts.push_back(op); });
  if (asserts.empty())
    return;
  MLIRContext *ctx = module.getContext();
  ctx->loadDialect<arith::ArithDialect, func::FuncDialect, scf::SCFDialect>();
  OpBuilder b(ctx);
  if (!module.lookupSymbol<func::FuncOp>(kHandler)) {
    b.setInsertionPointToEnd(module.getBody());
    auto decl = func::FuncOp::create(b, module.getLoc(), kHandler,
                                     b.getFunctionType({b.getI64Type()}, {}));
    decl.setPrivate();
  }
  std::vector<std::string> &reports = assertionReports();
  for (cf::AssertOp op : asserts) {
    b.setInsertionPoint(op);
    Location loc = op.getLoc();
    Value failed = arith::XOrIOp::create(
        b, loc, op.getArg(), arith::ConstantIntOp::create(b, loc, 1, 1));
    auto ifOp = scf::IfOp::create(b, loc, TypeRange{}, failed,
                                  /*withElseRegion=*/false);
    b.setInsertionPointToStart(ifOp.thenBlock());
    Value id = arith::ConstantIntOp::create(
        b, loc, static_cast<int64_t>(reports.size()), 64);
    func::CallOp::create(b, loc, kHandler, TypeRange{}, ValueRange{id});
    reports.push_back(reportFor(op));
    op.erase();
  }
}

void mlir::attn::registerHostAssertions(ExecutionEngine &engine) {
  engine.registerSymbols([](llvm::orc::MangleAndInterner interner) {
    llvm::orc::SymbolMap symbols;
    symbols[interner(kHandler)] = {
        llvm::orc::ExecutorAddr::fromPtr(&attn_host_assertion_failed),
        llvm::JITSymbolFlags::Exported};
    return symbols;
  });
}
