//===- attn-raise-check.cpp - prove a raising equivalent on the CPU -------===//
//
//   attn-raise-check input.mlir [--pipeline=PIPELINE] [--lowering=PIPELINE]
//                    [--seed=N] [--runs=K] [--tolerance=X]
//                    [--require-raised] [--function=NAME]
//                    [--shapes=ARGS[->RESULTS]]...
//
// For each public function with ranked tensor arguments and results: runs
// it as written, as written in float64, and after the raising (default
// attn-raise-pipeline) on the same seeded random inputs, and compares every
// result with the float64 run. Exit status 0 only if all match (and, with
// --require-raised, every checked function raised an attn.attention). A
// function with dynamic sizes is raised as written and run at each
// --shapes given (skipped without).
//
//===----------------------------------------------------------------------===//

#include "ToolInput.h"

#include "attnopt/Execution/RaiseCheck.h"

#include "mlir/IR/MLIRContext.h"
#include "llvm/Support/CommandLine.h"
#include "llvm/Support/InitLLVM.h"

using namespace mlir;

/// The tool's own options: --help lists these, not LLVM's.
static llvm::cl::OptionCategory toolOptions("attn-raise-check options");

static llvm::cl::opt<std::string> inputFilename(llvm::cl::Positional,
                                                llvm::cl::cat(toolOptions),
                                                llvm::cl::desc("<input.mlir>"),
                                                llvm::cl::init("-"));
static llvm::cl::opt<std::string> pipeline(
    "pipeline", llvm::cl::cat(toolOptions),
    llvm::cl::desc("The raising, a pass pipeline on builtin.module (default: "
                   "attn-raise-pipeline)"),
    llvm::cl::init("attn-raise-pipeline"));
static llvm::cl::opt<std::string> lowering(
    "lowering", llvm::cl::cat(toolOptions),
    llvm::cl::desc("func.func pipeline that removes the attn ops after the "
                   "raising (default: attn-decompose, the op's reference "
                   "semantics; e.g. attn-tile for the tiled form)"),
    llvm::cl::init("attn-decompose"));
static llvm::cl::opt<uint64_t> seed("seed", llvm::cl::cat(toolOptions),
                                    llvm::cl::desc("Seed of the random inputs"),
                                    llvm::cl::init(1));
static llvm::cl::opt<unsigned>
    runs("runs", llvm::cl::cat(toolOptions),
         llvm::cl::desc("Input draws per function (default 2)"),
         llvm::cl::init(2));
static llvm::cl::opt<double> tolerance(
    "tolerance", llvm::cl::cat(toolOptions),
    llvm::cl::desc("Max relative error against the chain run in float64 "
                   "(default: f32 1e-5, f16 2e-3, bf16 8e-3, f64 1e-12, or "
                   "twice the error of the chain as written if larger)"),
    llvm::cl::init(-1.0));
static llvm::cl::opt<bool>
    requireRaised("require-raised", llvm::cl::cat(toolOptions),
                  llvm::cl::desc("Fail a function in which nothing was raised"),
                  llvm::cl::init(false));
static llvm::cl::opt<std::string>
    function("function", llvm::cl::cat(toolOptions),
             llvm::cl::desc("Check only this function"), llvm::cl::init(""));
static llvm::cl::list<std::string> shapes(
    "shapes", llvm::cl::cat(toolOptions),
    llvm::cl::desc("Shapes to run functions with dynamic sizes at, one draw "
                   "per occurrence: the arguments' and, after '->', the "
                   "results' (e.g. 2x4x16x32,2x4x9x32,2x4x9x32->2x4x16x32; "
                   "static results may be left out)"));

int main(int argc, char **argv) {
  llvm::InitLLVM y(argc, argv);
  attn::tool::parseCommandLine(
      argc, argv, toolOptions,
      "attn-raise-check: prove a raising equivalent by running the function "
      "before and after it on the CPU\n");

  DialectRegistry registry;
  attn::tool::registerDialects(registry);
  MLIRContext context(registry);
  // A diagnostic names its op by location; the op itself printed in generic
  // form (three times, once per variant) would bury the message.
  context.printOpOnDiagnostic(false);

  attn::tool::InputModule module(context);
  std::string error;
  if (failed(module.load(inputFilename, error))) {
    if (!error.empty())
      llvm::errs() << "attn-raise-check: " << error << "\n";
    return 1;
  }

  attn::RaiseCheckOptions options;
  options.seed = seed;
  if (runs == 0) {
    llvm::errs() << "attn-raise-check: --runs must be at least 1\n";
    return 1;
  }
  options.runs = runs;
  options.pipeline = pipeline;
  options.lowering = lowering;
  if (tolerance.getNumOccurrences()) {
    if (!(tolerance >= 0.0)) {
      llvm::errs() << "attn-raise-check: --tolerance must be a non-negative "
                      "number, got "
                   << tolerance << "\n";
      return 1;
    }
    options.tolerance = tolerance;
  }
  options.requireRaised = requireRaised;
  options.function = function;
  options.shapes.assign(shapes.begin(), shapes.end());
  return failed(attn::checkRaising(*module, options, llvm::outs())) ? 1 : 0;
}
