//===- attn-cpu-run.cpp - validate attention IR on the CPU ----------------===//
//
//   attn-cpu-run input.mlir [--seed=N] [--lowering=PIPELINE] [--tolerance=X]
//                [--dump-dir=DIR]
//
// JIT-compiles each attn.attention of the input through the chosen lowering
// and compares it with the float64 C++ reference on seeded random inputs.
// Exit status 0 only if every op matches.
//
//===----------------------------------------------------------------------===//

#include "ToolInput.h"

#include "attnopt/Execution/CpuRunner.h"

#include "mlir/IR/MLIRContext.h"
#include "llvm/Support/CommandLine.h"
#include "llvm/Support/InitLLVM.h"
#include "llvm/Support/ToolOutputFile.h"

using namespace mlir;

/// The tool's own options: --help lists these, not LLVM's.
static llvm::cl::OptionCategory toolOptions("attn-cpu-run options");

static llvm::cl::opt<std::string> inputFilename(llvm::cl::Positional,
                                                llvm::cl::cat(toolOptions),
                                                llvm::cl::desc("<input.mlir>"),
                                                llvm::cl::init("-"));
static llvm::cl::opt<uint64_t> seed("seed", llvm::cl::cat(toolOptions),
                                    llvm::cl::desc("Seed of the random inputs"),
                                    llvm::cl::init(1));
static llvm::cl::opt<std::string> lowering(
    "lowering", llvm::cl::cat(toolOptions),
    llvm::cl::desc("Pass pipeline that replaces the attn ops: a func.func "
                   "one (default: attn-decompose, the unfused reference; "
                   "attn-tile{...}) or a module one (attn-cpu-pipeline)"),
    llvm::cl::init("attn-decompose"));
static llvm::cl::opt<double>
    tolerance("tolerance", llvm::cl::cat(toolOptions),
              llvm::cl::desc("Max relative error of the outputs (default: by "
                             "element type; 0 asks for exact results)"),
              llvm::cl::init(-1.0));
static llvm::cl::opt<bool>
    dumpLowered("dump-lowered", llvm::cl::cat(toolOptions),
                llvm::cl::desc("Print the LLVM-dialect module of each op"),
                llvm::cl::init(false));

static llvm::cl::opt<std::string> dumpDir(
    "dump-dir", llvm::cl::cat(toolOptions),
    llvm::cl::desc("Write each op's inputs, compiled results and float64 "
                   "reference results to this directory (opN.json, "
                   "opN.*.bin as little-endian float64)"),
    llvm::cl::value_desc("DIR"), llvm::cl::init(""));

static llvm::cl::list<std::string> sizeDraws(
    "sizes", llvm::cl::cat(toolOptions),
    llvm::cl::desc("Values of the dynamic batch and sequence lengths, e.g. "
                   "batch=2,query_len=100,key_len=77; repeat to run each op "
                   "with run-time sizes once per draw (compiled once). For "
                   "the packed ops (attn.varlen_attention*) batch is the "
                   "number of sequences and query_len / key_len the token "
                   "totals; the sequence lengths are drawn at random (a "
                   "random split of each total; keys split like queries "
                   "when the totals are equal). For attn.paged_attention "
                   "batch, num_pages (the caches' pages) and "
                   "max_pages_per_seq (the block table's width)"),
    llvm::cl::value_desc("batch=B,query_len=LQ,key_len=LK"));

static llvm::cl::opt<unsigned>
    runs("runs", llvm::cl::cat(toolOptions),
         llvm::cl::desc("Runs of each attn.paged_attention and "
                        "attn.merge_partials, each with fresh inputs (paged: "
                        "cache lengths and block tables; the first run pins an "
                        "empty and a full cache), compiled once"),
         llvm::cl::init(1));

int main(int argc, char **argv) {
  llvm::InitLLVM y(argc, argv);
  attn::tool::parseCommandLine(
      argc, argv, toolOptions,
      "attn-cpu-run: run attention IR on the CPU and compare it "
      "with the float64 reference\n");

  DialectRegistry registry;
  attn::tool::registerDialects(registry);
  MLIRContext context(registry);
  // Its diagnostics name the op by file:line; a dump of the whole module
  // (in generic form) after each adds nothing a user can read.
  context.printOpOnDiagnostic(false);

  attn::tool::InputModule module(context);
  std::string error;
  if (failed(module.load(inputFilename, error))) {
    if (!error.empty())
      llvm::errs() << "attn-cpu-run: " << error << "\n";
    return 1;
  }

  attn::CpuRunOptions options;
  options.seed = seed;
  options.lowering = lowering;
  // Unset means "the element type's default"; an explicit 0 means exact.
  if (tolerance.getNumOccurrences()) {
    if (!(tolerance >= 0.0)) {
      llvm::errs() << "attn-cpu-run: --tolerance must be a non-negative "
                      "number, got "
                   << tolerance << "\n";
      return 1;
    }
    options.tolerance = tolerance;
  }
  options.dumpDir = dumpDir;
  if (runs < 1 || runs > 1000) {
    llvm::errs() << "attn-cpu-run: --runs must be 1 to 1000, got " << runs
                 << "\n";
    return 1;
  }
  options.runs = runs;
  for (const std::string &text : sizeDraws) {
    std::string error;
    FailureOr<attn::RunSizes> sizes = attn::parseRunSizes(text, error);
    if (failed(sizes)) {
      llvm::errs() << "attn-cpu-run: --sizes " << text << ": " << error << "\n";
      return 1;
    }
    options.sizes.push_back(*sizes);
  }
  if (options.sizes.size() > 1 && !options.dumpDir.empty()) {
    llvm::errs() << "attn-cpu-run: --dump-dir writes one problem per op; give "
                    "one --sizes draw with it\n";
    return 1;
  }
  if (dumpLowered)
    options.dumpLowered = &llvm::errs();
  return failed(attn::runAttentionOnCpu(*module, options, llvm::outs())) ? 1
                                                                         : 0;
}
