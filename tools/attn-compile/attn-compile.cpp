//===- attn-compile.cpp - attention IR to PTX + manifest ------------------===//
//
//   attn-compile input.mlir --chip=sm_90a -o out.ptx [--manifest=out.json]
//                [--emit=ptx|gpu] [--kernel=auto|tensor-core|cuda-core]
//                [--block-q=0|64|128] [--grad-dq=auto|separate|atomic]
//                [--grad-block-kv=0|64|128] [--split-kv=auto|off|N]
//                [--sm-count=N] [--ptxas-check]
//                [--poison-shared-memory]
//
// Generates one kernel per attn.attention and the group of kernels of each
// attn.attention_grad (after the forward ones; docs/kernel-manifest.md,
// "Backward kernels"), lowers them through the device half of
// attn-gpu-pipeline (buildAttnGpuDeviceLoweringPipeline) to PTX, and writes the
// PTX file and the JSON manifest a runtime needs to launch it
// (docs/kernel-manifest.md).
//
//===----------------------------------------------------------------------===//

#include "PtxasReport.h"
#include "ToolInput.h"

#include "attnopt/Conversion/AttnToGPU/AttnToGPU.h"
#include "attnopt/Conversion/Passes.h"
#include "attnopt/Dialect/Attn/Utils/SizeLimits.h"
#include "attnopt/Pipelines/Pipelines.h"

#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/IR/MLIRContext.h"
#include "mlir/IR/Verifier.h"
#include "mlir/Pass/PassManager.h"
#include "mlir/Pass/PassRegistry.h"
#include "mlir/Support/FileUtilities.h"
#include "mlir/Target/LLVMIR/Dialect/All.h"
#include "llvm/Support/CommandLine.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/InitLLVM.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/ToolOutputFile.h"

#include <limits>
#include <optional>

using namespace mlir;

/// The tool's own options: --help lists these, not LLVM's.
static llvm::cl::OptionCategory toolOptions("attn-compile options");

static llvm::cl::opt<std::string> inputFilename(llvm::cl::Positional,
                                                llvm::cl::cat(toolOptions),
                                                llvm::cl::desc("<input.mlir>"),
                                                llvm::cl::init("-"));
static llvm::cl::opt<std::string> outputFilename(
    "o", llvm::cl::cat(toolOptions), llvm::cl::desc("Output PTX file"),
    llvm::cl::value_desc("file"), llvm::cl::init("attention.ptx"));
static llvm::cl::opt<std::string> manifestFilename(
    "manifest", llvm::cl::cat(toolOptions),
    llvm::cl::desc("Output manifest (default: the PTX name with .json)"),
    llvm::cl::init(""));
static llvm::cl::opt<std::string> chip(
    "chip", llvm::cl::cat(toolOptions),
    llvm::cl::desc("Target: sm_80, sm_86, sm_89 (the sm_80 kernels in 99 "
                   "KiB of shared memory), sm_90 (without wgmma and TMA) or "
                   "sm_90a"),
    llvm::cl::init("sm_90a"));
static llvm::cl::opt<std::string>
    emit("emit", llvm::cl::cat(toolOptions),
         llvm::cl::desc("What to write to -o: ptx (default) or gpu (the "
                        "kernel IR before NVVM lowering)"),
         llvm::cl::init("ptx"));

static llvm::cl::opt<std::string> kernelKind(
    "kernel", llvm::cl::cat(toolOptions),
    llvm::cl::desc("Kernel: auto (default; tensor cores for f16/bf16, and "
                   "f32 with --f32-precision=tf32, where D and Dv are "
                   "multiples of 8 up to 256; else CUDA cores, with a "
                   "remark), tensor-core, or cuda-core"),
    llvm::cl::init("auto"));

static llvm::cl::opt<int64_t> blockQ(
    "block-q", llvm::cl::cat(toolOptions),
    llvm::cl::desc("Query rows per block of the forward tensor-core kernel: "
                   "64 or 128; 0 (default) chooses (the attn.tiles block_q "
                   "if any)"),
    llvm::cl::init(0));

static llvm::cl::opt<int64_t> blockKV(
    "block-kv", llvm::cl::cat(toolOptions),
    llvm::cl::desc("Keys per step of the forward tensor-core kernel: 32, "
                   "64 or 128; 0 (default) chooses"),
    llvm::cl::init(0));

static llvm::cl::opt<int64_t>
    warps("warps", llvm::cl::cat(toolOptions),
          llvm::cl::desc("Warps per block of the forward tensor-core kernel "
                         "(16 or 32 query rows each); 0 (default) chooses"),
          llvm::cl::init(0));

static llvm::cl::opt<std::string> gradDq(
    "grad-dq", llvm::cl::cat(toolOptions),
    llvm::cl::desc("dQ of the tensor-core backward: auto (default; atomic on "
                   "sm_90, separate on sm_80), separate (a dq kernel over "
                   "query blocks, no atomics) or atomic (added to an f32 "
                   "accumulator by the key-block kernel; ops without "
                   "`deterministic`, Lq >= 64)"),
    llvm::cl::init("auto"));

static llvm::cl::opt<int64_t> gradBlockKV(
    "grad-block-kv", llvm::cl::cat(toolOptions),
    llvm::cl::desc("Keys per block of the tensor-core backward's dkdv / "
                   "dkdv_dq kernel: 64 (4 warps) or 128 (8 warps); 0 "
                   "(default) chooses"),
    llvm::cl::init(0));

static llvm::cl::opt<std::string> splitKV(
    "split-kv", llvm::cl::cat(toolOptions),
    llvm::cl::desc("Split the key range of the forward over several blocks "
                   "per (batch, KV head), with the query heads of a KV head "
                   "packed into one tile, and combine the chunks by their "
                   "log-sum-exp (decoding): auto (default; where the "
                   "one-kernel forward would not fill the chip), off, or a "
                   "number of chunks from 1 to 64"),
    llvm::cl::init("auto"));

static llvm::cl::opt<int64_t> smCount(
    "sm-count", llvm::cl::cat(toolOptions),
    llvm::cl::desc("Streaming multiprocessors the split-KV chooser fills "
                   "(default 132, the H200's)"),
    llvm::cl::init(132));

static llvm::cl::opt<std::string> fwdMma(
    "mma", llvm::cl::cat(toolOptions),
    llvm::cl::desc("Matrix instructions of the forward tensor-core kernel: "
                   "auto (default; wgmma on sm_90a, mma.sync elsewhere), "
                   "wgmma (sm_90a only) or mma-sync. The wgmma kernel "
                   "(warp-specialized, 128-byte swizzled tiles) serves the "
                   "variants with Lq > 64 (dropout with 64 keys per step); "
                   "the others keep mma.sync"),
    llvm::cl::init("auto"));

static llvm::cl::opt<std::string> fwdTma(
    "tma", llvm::cl::cat(toolOptions),
    llvm::cl::desc("How the wgmma forward's producer loads Q, K and V: auto "
                   "(default; the chooser's rule: TMA for the one-kernel "
                   "forward of a dense attn.attention on sm_90a), on (TMA, "
                   "cp.async.bulk.tensor with tensor maps the runtime "
                   "builds, also in the split stage of decoding where its "
                   "64 packed query rows are whole boxes: Lq x Hq/Hkv <= 64, "
                   "Lq dividing 64, or Hq = Hkv) or off (cp.async)"),
    llvm::cl::init("auto"));

static llvm::cl::opt<std::string> fwdPersistent(
    "persistent", llvm::cl::cat(toolOptions),
    llvm::cl::desc("How the TMA-fed wgmma forward's blocks take their tiles "
                   "(sm_90a, static sizes): on (one block per SM, "
                   "--sm-count, each looping over tiles with the next "
                   "tile's loads overlapping the current one), off (one "
                   "block per (query block, head, batch)) or auto (default: "
                   "persistent with more tiles than SMs and the same work "
                   "in each, no causal rule, window, mask or softcap, D and "
                   "Dv up to 128)"),
    llvm::cl::init("auto"));

static llvm::cl::opt<std::string> f32Precision(
    "f32-precision", llvm::cl::cat(toolOptions),
    llvm::cl::desc("Matrix products of f32 attention: ieee (default: the "
                   "exact CUDA-core kernel) or tf32 (the mma.sync tensor-core "
                   "forward; Q, K, V and P rounded to tf32, f32 accumulation; "
                   "docs/semantics.md §2.1)"),
    llvm::cl::init("ieee"));

static llvm::cl::opt<std::string> gradMma(
    "grad-mma", llvm::cl::cat(toolOptions),
    llvm::cl::desc("Matrix instructions of the tensor-core backward's dkdv / "
                   "dkdv_dq kernel: auto (default; wgmma on sm_90a, except "
                   "a mask or softcap at D or Dv > 192 outside the head "
                   "split (D + Dv > 256) and dropout where it measured "
                   "slower (docs/kernel-manifest.md); mma.sync elsewhere), "
                   "wgmma (sm_90a only) or mma-sync"),
    llvm::cl::init("auto"));

static llvm::cl::opt<std::string> gradTma(
    "grad-tma", llvm::cl::cat(toolOptions),
    llvm::cl::desc("How the backward's wgmma dkdv / dkdv_dq kernel loads: "
                   "auto (default; on for a dense op on sm_90a), on (a "
                   "producer warpgroup loads K, V, Q and dO with TMA and the "
                   "staged rows with bulk copies; a packed batch keeps "
                   "cp.async) or off (cp.async by every thread)"),
    llvm::cl::init("auto"));

static llvm::cl::opt<unsigned> indexBits(
    "index-bits", llvm::cl::cat(toolOptions),
    llvm::cl::desc("Bits of the kernels' index arithmetic: 0 (default) "
                   "chooses 32 when every static tensor of every compiled op "
                   "has fewer than 2^31 elements, else 64; 32 or 64 force it "
                   "(32 is refused for larger tensors; with 32, the runtime "
                   "refuses run-time sizes that make a tensor that large)"),
    llvm::cl::init(0));

static llvm::cl::opt<std::string>
    cudaPath("cuda-path", llvm::cl::cat(toolOptions),
             llvm::cl::desc("CUDA toolkit whose libdevice is linked (default: "
                            "$CUDA_HOME, else /usr/local/cuda)"),
             llvm::cl::init(""));

static llvm::cl::opt<bool> ptxasCheck(
    "ptxas-check", llvm::cl::cat(toolOptions),
    llvm::cl::desc("Assemble the written PTX with the toolkit's ptxas -v and "
                   "print each kernel's registers and spills (spills and "
                   "serialized wgmma as warnings); fails if ptxas is missing "
                   "or rejects the PTX"),
    llvm::cl::init(false));

static llvm::cl::opt<bool> poisonSharedMemory(
    "poison-shared-memory", llvm::cl::cat(toolOptions),
    llvm::cl::desc("Debug: every kernel fills its shared memory with NaN at "
                   "entry (attn-poison-shared-memory), so that a read of an "
                   "element it never wrote shows on the first launch; for "
                   "validation, not for timing"),
    llvm::cl::init(false));

static int fail(const Twine &msg) {
  llvm::errs() << "attn-compile: " << msg << "\n";
  return 1;
}

static LogicalResult writeFile(StringRef path, StringRef contents) {
  std::string error;
  auto file = openOutputFile(path, &error);
  if (!file) {
    llvm::errs() << "attn-compile: " << error << "\n";
    return failure();
  }
  file->os() << contents;
  file->keep();
  return success();
}

/// The manifest's "ptx" field: the PTX file relative to the manifest's
/// directory (docs/kernel-manifest.md), i.e. its name where both are written
/// to one directory, else its absolute path.
static std::string ptxPathFromManifest(StringRef ptxPath,
                                       StringRef manifestPath) {
  llvm::SmallString<256> ptx(ptxPath), manifest(manifestPath);
  llvm::sys::fs::make_absolute(ptx);
  llvm::sys::fs::make_absolute(manifest);
  llvm::sys::path::remove_dots(ptx, /*remove_dot_dot=*/true);
  llvm::sys::path::remove_dots(manifest, /*remove_dot_dot=*/true);
  if (llvm::sys::path::parent_path(ptx) ==
      llvm::sys::path::parent_path(manifest))
    return llvm::sys::path::filename(ptx).str();
  return std::string(ptx);
}

int main(int argc, char **argv) {
  llvm::InitLLVM y(argc, argv);
  attn::tool::parseCommandLine(argc, argv, toolOptions,
                               "attn-compile: attention IR to PTX\n");
  if (emit != "ptx" && emit != "gpu")
    return fail("unsupported --emit=" + emit + " (expected ptx or gpu)");
  if (ptxasCheck && (emit != "ptx" || outputFilename == "-"))
    return fail("--ptxas-check needs --emit=ptx and -o FILE");
  // Where the manifest goes, decided before anything is written: never
  // over the PTX, and never a file named after stdout.
  std::string manifestPath = manifestFilename;
  if (emit == "ptx" && outputFilename == "-")
    return fail("-o - would write the PTX to stdout, but the manifest must "
                "name the PTX file it describes: give -o FILE.ptx");
  if (emit == "ptx" && manifestPath.empty()) {
    llvm::SmallString<256> path(outputFilename);
    llvm::sys::path::replace_extension(path, "json");
    manifestPath = std::string(path);
  }
  if (emit == "ptx" && manifestPath == outputFilename)
    return fail("the manifest and the PTX would both be written to " +
                manifestPath +
                ": name the PTX differently (-o out.ptx) or "
                "give --manifest=FILE");
  // The same validation and choices as the attn-to-gpu pass's options.
  attn::GpuCodegenChoices choices;
  choices.chip = chip;
  choices.kernel = kernelKind;
  choices.mma = fwdMma;
  choices.gradMma = gradMma;
  choices.gradTma = gradTma;
  choices.tma = fwdTma;
  choices.persistent = fwdPersistent;
  choices.f32Precision = f32Precision;
  choices.gradDq = gradDq;
  choices.blockQ = blockQ;
  choices.blockKV = blockKV;
  choices.warps = warps;
  choices.gradBlockKV = gradBlockKV;
  choices.splitKV = splitKV;
  choices.smCount = smCount;
  std::string optionError;
  FailureOr<attn::GpuCodegenOptions> codegen =
      attn::resolveGpuCodegenOptions(choices, optionError);
  if (failed(codegen))
    return fail(optionError);
  const bool hopper = codegen->forward.smVersion >= 90;

  DialectRegistry registry;
  attn::tool::registerDialects(registry);
  registerAllToLLVMIRTranslations(registry);
  MLIRContext context(registry);
  context.loadDialect<gpu::GPUDialect, attn::AttnDialect>();

  attn::tool::InputModule module(context);
  std::string error;
  if (failed(module.load(inputFilename, error)))
    return error.empty() ? 1 : fail(error);

  // The kernels go into a module of their own: the host functions that hold
  // the attention ops on tensors are not lowered here.
  bool anyOp = false;
  module->walk([&](Operation *op) {
    if (isa<attn::AttentionOp, attn::AttentionGradOp, attn::VarlenAttentionOp,
            attn::VarlenAttentionGradOp, attn::PagedAttentionOp,
            attn::MergePartialsOp>(op))
      anyOp = true;
  });
  if (!anyOp)
    return fail("no attn op to compile in " + inputFilename +
                " (attn.attention, attn.attention_grad, attn.varlen_attention, "
                "attn.varlen_attention_grad, attn.paged_attention, "
                "attn.merge_partials)");
  if (indexBits != 0 && indexBits != 32 && indexBits != 64)
    return fail("unsupported --index-bits=" + std::to_string(indexBits) +
                " (expected 0, 32 or 64)");
  OpBuilder b(&context);
  OwningOpRef<ModuleOp> kernels = ModuleOp::create(module->getLoc());
  (*kernels)->setAttr(gpu::GPUDialect::getContainerModuleAttrName(),
                      b.getUnitAttr());
  b.setInsertionPointToEnd(kernels->getBody());
  auto gpuModule =
      gpu::GPUModuleOp::create(b, module->getLoc(), "attn_kernels");
  llvm::json::Array manifestKernels;
  if (failed(attn::buildAttentionKernels(*module, b, gpuModule, *codegen,
                                         &manifestKernels)))
    return 1;
  if (failed(verify(*kernels)))
    return fail("generated kernel IR does not verify");
  // 32-bit index arithmetic is exact when every flat offset the kernels
  // compute (at most a tensor's element count) is below 2^31. (Sizes past
  // the supported limits are refused by the kernel builders.) Every tensor
  // parameter of every kernel counts, the workspaces included (a split-KV
  // group's partial output is S times the output). A tensor with run-time
  // sizes does not count: the manifest's "index_bits" tells the runtime to
  // refuse sizes that make it 2^31 elements or more (--index-bits=64 lifts
  // that).
  int64_t largest = 0;
  for (const llvm::json::Value &kernel : manifestKernels)
    if (const llvm::json::Array *params =
            kernel.getAsObject()->getArray("params"))
      for (const llvm::json::Value &param : *params) {
        const llvm::json::Array *shape = param.getAsObject()->getArray("shape");
        if (!shape)
          continue;
        SmallVector<int64_t> dims;
        for (const llvm::json::Value &d : *shape)
          if (std::optional<int64_t> n = d.getAsInteger())
            dims.push_back(*n);
        if (dims.size() != shape->size())
          continue; // a run-time size (null)
        std::optional<int64_t> n = attn::checkedProduct(dims);
        largest =
            std::max(largest, n.value_or(std::numeric_limits<int64_t>::max()));
      }
  const bool fits32 = largest < (int64_t(1) << 31);
  if (indexBits == 32 && !fits32)
    return fail("--index-bits=32: a tensor has " + std::to_string(largest) +
                " elements (32-bit offsets need fewer than 2^31)");
  const unsigned bits = indexBits ? unsigned(indexBits) : fits32 ? 32 : 64;

  if (poisonSharedMemory) {
    PassManager poison(&context);
    poison.addNestedPass<gpu::GPUModuleOp>(
        attn::createAttnPoisonSharedMemoryPass());
    if (failed(poison.run(*kernels)))
      return fail("--poison-shared-memory failed");
  }

  if (emit == "gpu") {
    std::string text;
    llvm::raw_string_ostream os(text);
    kernels->print(os);
    return failed(writeFile(outputFilename, text)) ? 1 : 0;
  }

  // The device half of attn-gpu-pipeline, with the toolkit (libdevice for
  // exp/log/tanh) explicit rather than found through the environment.
  std::string toolkit = cudaPath;
  if (toolkit.empty()) {
    const char *env = std::getenv("CUDA_HOME");
    toolkit = env && *env ? env : "/usr/local/cuda";
  }
  if (!llvm::sys::fs::exists(toolkit + "/nvvm/libdevice"))
    return fail("no libdevice under " + toolkit +
                "/nvvm/libdevice (set --cuda-path)");
  attn::AttnGpuPipelineOptions lowering;
  lowering.chip = chip;
  lowering.features = hopper ? "+ptx81" : "+ptx80";
  lowering.optLevel = 3;
  lowering.toolkit = toolkit;
  lowering.format = "isa";
  lowering.indexBitwidth = bits;
  lowering.toBinary = true;
  PassManager pm(&context);
  attn::buildAttnGpuDeviceLoweringPipeline(pm, lowering);
  if (failed(pm.run(*kernels)))
    return fail("lowering to PTX failed");

  std::string ptx;
  kernels->walk([&](gpu::BinaryOp binary) {
    for (Attribute attr : binary.getObjects())
      if (auto object = dyn_cast<gpu::ObjectAttr>(attr))
        ptx += object.getObject().getValue().str();
  });
  if (ptx.empty())
    return fail("the NVVM pipeline produced no PTX");
  if (failed(writeFile(outputFilename, ptx)))
    return 1;

  size_t numKernels = manifestKernels.size();
  llvm::json::Object manifest{
      {"format", "attn-kernels-v1"},
      {"ptx", ptxPathFromManifest(outputFilename, manifestPath)},
      {"chip", chip},
      {"index_bits", static_cast<int64_t>(bits)},
      {"kernels", std::move(manifestKernels)}};
  std::string json;
  llvm::raw_string_ostream os(json);
  os << llvm::formatv("{0:2}", llvm::json::Value(std::move(manifest))) << "\n";
  if (failed(writeFile(manifestPath, json)))
    return 1;
  llvm::outs() << "attn-compile: wrote " << outputFilename << " and "
               << manifestPath << " (" << numKernels << " kernel"
               << (numKernels == 1 ? "" : "s") << ", " << chip << ", " << bits
               << "-bit indices)\n";
  if (ptxasCheck && !attn_compile::checkWithPtxas(toolkit, chip, outputFilename,
                                                  llvm::outs(), llvm::errs()))
    return 1;
  return 0;
}
