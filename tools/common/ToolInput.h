//===- ToolInput.h - what the attn command-line tools share -----*- C++ -*-===//
//
// attn-compile, attn-cpu-run and attn-raise-check each read one MLIR file
// and act on its attn ops. They parse their own options the same way (every
// pass registered, so that pipelines named in options parse; LLVM's own
// options hidden from --help), read the same dialects, and parse the input
// with diagnostics that name file:line:col.
//
//===----------------------------------------------------------------------===//

#ifndef ATTNOPT_TOOLS_COMMON_TOOLINPUT_H
#define ATTNOPT_TOOLS_COMMON_TOOLINPUT_H

#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/Diagnostics.h"
#include "mlir/IR/OwningOpRef.h"
#include "llvm/Support/CommandLine.h"
#include "llvm/Support/SourceMgr.h"

#include <string>

namespace mlir::attn::tool {

/// Registers every upstream and attn pass, hides the options outside
/// `category` from --help and parses the command line (exits on a bad
/// option, as LLVM's parser does).
void parseCommandLine(int argc, char **argv, llvm::cl::OptionCategory &category,
                      llvm::StringRef overview);

/// The dialects the tools read: every upstream dialect and its extensions,
/// and attn.
void registerDialects(DialectRegistry &registry);

/// The tool's input module, parsed in `context` with a diagnostic handler
/// that prints file:line:col; the handler and the module live as long as
/// this object.
class InputModule {
public:
  explicit InputModule(MLIRContext &context)
      : context(context), handler(sourceMgr, &context) {}

  /// Reads and parses `filename` ("-": stdin). Failure with `error` set when
  /// the file cannot be read; failure with `error` empty when it does not
  /// parse (the parser's diagnostic is printed).
  LogicalResult load(llvm::StringRef filename, std::string &error);

  ModuleOp get() { return module.get(); }
  ModuleOp operator*() { return module.get(); }
  ModuleOp operator->() { return module.get(); }

private:
  MLIRContext &context;
  llvm::SourceMgr sourceMgr;
  SourceMgrDiagnosticHandler handler;
  OwningOpRef<ModuleOp> module;
};

} // namespace mlir::attn::tool

#endif // ATTNOPT_TOOLS_COMMON_TOOLINPUT_H
