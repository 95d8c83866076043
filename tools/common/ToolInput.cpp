//===- ToolInput.cpp - what the attn command-line tools share -------------===//

#include "ToolInput.h"

#include "attnopt/InitAllAttn.h"

#include "mlir/InitAllDialects.h"
#include "mlir/InitAllExtensions.h"
#include "mlir/InitAllPasses.h"
#include "mlir/Parser/Parser.h"
#include "mlir/Support/FileUtilities.h"

using namespace mlir;

void attn::tool::parseCommandLine(int argc, char **argv,
                                  llvm::cl::OptionCategory &category,
                                  StringRef overview) {
  registerAllPasses();
  attn::registerAllAttnPasses();
  llvm::cl::HideUnrelatedOptions(category);
  llvm::cl::ParseCommandLineOptions(argc, argv, overview);
}

void attn::tool::registerDialects(DialectRegistry &registry) {
  registerAllDialects(registry);
  registerAllExtensions(registry);
  attn::registerAttnDialect(registry);
}

LogicalResult attn::tool::InputModule::load(StringRef filename,
                                            std::string &error) {
  auto file = openInputFile(filename, &error);
  if (!file)
    return failure();
  sourceMgr.AddNewSourceBuffer(std::move(file), llvm::SMLoc());
  module = parseSourceFile<ModuleOp>(sourceMgr, &context);
  return success(static_cast<bool>(module));
}
