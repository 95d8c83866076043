//===- attention-opt.cpp - the attention-opt driver -----------------------===//
//
// mlir-opt with every upstream dialect, pass and extension plus `attn`.
//
//===----------------------------------------------------------------------===//

#include "attnopt/InitAllAttn.h"

#include "mlir/IR/DialectRegistry.h"
#include "mlir/InitAllDialects.h"
#include "mlir/InitAllExtensions.h"
#include "mlir/InitAllPasses.h"
#include "mlir/Tools/mlir-opt/MlirOptMain.h"

int main(int argc, char **argv) {
  mlir::registerAllPasses();
  mlir::attn::registerAllAttnPasses();

  mlir::DialectRegistry registry;
  mlir::registerAllDialects(registry);
  mlir::registerAllExtensions(registry);
  mlir::attn::registerAttnDialect(registry);

  return mlir::asMainReturnCode(mlir::MlirOptMain(
      argc, argv, "attention-opt: attention compiler driver\n", registry));
}
