//===- Pipelines.cpp - named attention-opt pass pipelines -----------------===//
//
// This file builds and registers attn-raise-pipeline, attn-cpu-pipeline,
// attn-lower-to-llvm-pipeline and attn-gpu-pipeline (Pipelines.h).
//
//===----------------------------------------------------------------------===//

#include "attnopt/Pipelines/Pipelines.h"

#include "attnopt/Conversion/AttnToGPU/AttnToGPU.h"
#include "attnopt/Conversion/Passes.h"
#include "attnopt/Dialect/Attn/Analysis/TileSelection.h"
#include "attnopt/Dialect/Attn/Transforms/Passes.h"

#include "mlir/Conversion/Passes.h"
#include "mlir/Conversion/TosaToLinalg/TosaToLinalg.h"
#include "mlir/Conversion/VectorToSCF/VectorToSCF.h"
#include "mlir/Dialect/Arith/Transforms/Passes.h"
#include "mlir/Dialect/Bufferization/Pipelines/Passes.h"
#include "mlir/Dialect/Bufferization/Transforms/Passes.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/GPU/Transforms/Passes.h"
#include "mlir/Dialect/Linalg/Passes.h"
#include "mlir/Dialect/MemRef/Transforms/Passes.h"
#include "mlir/Dialect/SCF/Transforms/Passes.h"
#include "mlir/Pass/PassManager.h"
#include "mlir/Pass/PassRegistry.h"
#include "mlir/Transforms/Passes.h"

using namespace mlir;
using namespace mlir::attn;

void mlir::attn::buildAttnRaisePipeline(
    OpPassManager &pm, const AttnRaisePipelineOptions &options) {
  OpPassManager &func = pm.nest<func::FuncOp>();
  // TOSA to linalg first: the normalization and the matcher then see one
  // dialect whatever the front end emitted.
  func.addPass(tosa::createTosaToLinalgNamed());
  func.addPass(tosa::createTosaToLinalg());
  func.addPass(createTosaToTensorPass());
  func.addPass(createTosaToArithPass());
  func.addPass(createConvertElementwiseToLinalgPass());
  func.addPass(createAttnNormalizeChainsPass());
  func.addPass(createCanonicalizerPass());
  func.addPass(createCSEPass());
  AttnFusePassOptions fuse;
  fuse.explain = options.explain;
  fuse.inexactReciprocal = options.inexactReciprocal;
  fuse.largeNegativeIsMasked = options.largeNegativeIsMasked;
  fuse.allowPrecisionChange = options.allowPrecisionChange;
  func.addPass(createAttnFusePass(fuse));
  func.addPass(createCanonicalizerPass());
  func.addPass(createCSEPass());
}

void mlir::attn::buildAttnLowerToLLVMPipeline(OpPassManager &pm) {
  // What attn-cpu-run JITs (lib/Execution/CpuRunner.cpp runs this after the
  // user's lowering).
  pm.addPass(createCanonicalizerPass());
  // Elementwise arith / math on tensors around the attention ops (`%s =
  // arith.addf %o, %o2 : tensor<...>`) has no bufferization of its own.
  pm.addNestedPass<func::FuncOp>(createConvertElementwiseToLinalgPass());
  bufferization::OneShotBufferizePassOptions bufferize;
  bufferize.bufferizeFunctionBoundaries = true;
  bufferize.functionBoundaryTypeConversion =
      bufferization::LayoutMapOption::IdentityLayoutMap;
  bufferize.allowReturnAllocsFromLoops = true;
  pm.addPass(bufferization::createOneShotBufferizePass(bufferize));
  pm.addPass(createCanonicalizerPass());
  bufferization::buildBufferDeallocationPipeline(pm);
  pm.addPass(createConvertBufferizationToMemRefPass());
  pm.addNestedPass<func::FuncOp>(createConvertLinalgToLoopsPass());
  pm.addPass(createForallToForLoopPass());
  pm.addPass(memref::createExpandStridedMetadataPass());
  pm.addPass(createLowerAffinePass());
  pm.addPass(createSCFToControlFlowPass());
  arith::ArithExpandOpsPassOptions expand;
  expand.includeBf16 = true;
  pm.addPass(arith::createArithExpandOpsPass(expand));
  pm.addPass(createConvertMathToLLVMPass());
  pm.addPass(createConvertMathToLibmPass());
  pm.addPass(createFinalizeMemRefToLLVMConversionPass());
  pm.addPass(createArithToLLVMConversionPass());
  pm.addPass(createConvertIndexToLLVMPass());
  pm.addPass(createConvertControlFlowToLLVMPass());
  pm.addPass(createConvertFuncToLLVMPass());
  pm.addPass(createReconcileUnrealizedCastsPass());
}

void mlir::attn::buildAttnCpuPipeline(OpPassManager &pm,
                                      const AttnCpuPipelineOptions &options) {
  AttnSelectTilesPassOptions select;
  select.chip = options.chip;
  pm.addNestedPass<func::FuncOp>(createAttnSelectTilesPass(select));
  AttnTilePassOptions tile;
  tile.blockQ = options.blockQ;
  tile.blockKV = options.blockKV;
  tile.chip = options.chip;
  pm.addNestedPass<func::FuncOp>(createAttnTilePass(tile));
  if (options.lowerToLLVM)
    buildAttnLowerToLLVMPipeline(pm);
}

void mlir::attn::buildAttnGpuPipeline(OpPassManager &pm,
                                      const AttnGpuPipelineOptions &options) {
  // The kernel choice of attn-compile for the same chip (both call
  // buildAttentionKernels).
  AttnToGPUPassOptions toGPU;
  toGPU.chip = options.chip;
  toGPU.kernel = options.kernel;
  toGPU.splitKV = options.splitKV;
  toGPU.persistent = options.persistent;
  toGPU.f32Precision = options.f32Precision;
  toGPU.smCount = options.smCount;
  pm.addPass(createAttnToGPUPass(toGPU));
  buildAttnGpuDeviceLoweringPipeline(pm, options);
}

void mlir::attn::buildAttnGpuDeviceLoweringPipeline(
    OpPassManager &pm, const AttnGpuPipelineOptions &options) {
  // Upstream's gpu-lower-to-nvvm-pipeline with the device-side steps nested
  // in gpu.module: attn-to-gpu leaves the host functions on tensors, which
  // the *-to-llvm passes must not touch. There is no gpu.launch_func to
  // outline or to lower on the host.
  GpuNVVMAttachTargetOptions target;
  target.chip = options.chip;
  target.features = !options.features.empty() ? options.features.getValue()
                    : gpuChipVersion(options.chip).value_or(90) < 90
                        ? std::string("+ptx80")
                        : std::string("+ptx81");
  target.optLevel = options.optLevel;
  pm.addPass(createGpuNVVMAttachTarget(target));

  OpPassManager &device = pm.nest<gpu::GPUModuleOp>();
  AttnConvertNVGPUToNVVMPassOptions nvgpu;
  nvgpu.indexBitwidth = options.indexBitwidth;
  device.addPass(createAttnConvertNVGPUToNVVMPass(nvgpu));
  // Before convert-gpu-to-nvvm, which would call libdevice's exact tanh.
  device.addPass(createAttnApproxMathToNVVMPass());
  device.addPass(createConvertVectorToSCFPass());
  device.addPass(createSCFToControlFlowPass());
  device.addPass(createConvertNVVMToLLVMPass());
  device.addPass(memref::createExpandStridedMetadataPass());
  device.addPass(createLowerAffinePass());
  ArithToLLVMConversionPassOptions arith;
  arith.indexBitwidth = options.indexBitwidth;
  device.addPass(createArithToLLVMConversionPass(arith));
  ConvertIndexToLLVMPassOptions index;
  index.indexBitwidth = options.indexBitwidth;
  device.addPass(createConvertIndexToLLVMPass(index));
  device.addPass(createCanonicalizerPass());
  device.addPass(createCSEPass());
  ConvertGpuOpsToNVVMOpsOptions toNVVM;
  toNVVM.useBarePtrCallConv = true;
  toNVVM.indexBitwidth = options.indexBitwidth;
  device.addPass(createConvertGpuOpsToNVVMOps(toNVVM));
  device.addPass(createAttnTensorMapParamsPass());
  device.addPass(createAttnExternDynamicSharedMemoryPass());
  device.addPass(createCanonicalizerPass());
  device.addPass(createCSEPass());
  device.addPass(createReconcileUnrealizedCastsPass());

  if (!options.toBinary)
    return;
  GpuModuleToBinaryPassOptions binary;
  binary.toolkitPath = options.toolkit;
  binary.compilationTarget = options.format;
  pm.addPass(createGpuModuleToBinaryPass(binary));
}

std::optional<std::string> mlir::attn::checkGpuChip(StringRef chip) {
  if (gpuChipVersion(chip))
    return std::nullopt;
  return ("unsupported chip '" + chip + "' (expected " + kGpuChipList +
          ": the kernels use cp.async, ldmatrix and bf16 mma.sync, which "
          "need sm_80 or later)")
      .str();
}

/// The error of a pipeline nested on an op other than a module: each of
/// these pipelines runs module passes (bufferization, attn-to-gpu) or nests
/// its own func.func passes, so it needs the module (`pm` anchored on
/// builtin.module, or on any op).
static std::optional<std::string> checkModuleAnchor(const OpPassManager &pm) {
  StringRef anchor = pm.getOpAnchorName();
  if (anchor == ModuleOp::getOperationName() ||
      anchor == OpPassManager::getAnyOpAnchorName())
    return std::nullopt;
  return "runs on builtin.module, not nested on '" + anchor.str() +
         "' (write it at the top level of the pipeline, e.g. "
         "builtin.module(<pipeline>))";
}

/// PassPipelineRegistration<Options> with a check of the parsed options and
/// of where the pipeline is nested: an option value the pipeline cannot
/// serve, or a nesting its passes cannot be added to (which would abort in
/// OpPassManager::addPass), is reported through the pipeline parser's error
/// handler (file and option named).
template <typename Options>
static void registerCheckedPipeline(
    StringRef arg, StringRef description,
    std::function<void(OpPassManager &, const Options &)> builder,
    std::function<std::optional<std::string>(const Options &)> check =
        [](const Options &) { return std::nullopt; }) {
  registerPassPipeline(
      arg, description,
      [=](OpPassManager &pm, StringRef optionsStr,
          function_ref<LogicalResult(const Twine &)> errorHandler) {
        Options options;
        if (failed(options.parseFromString(optionsStr)))
          return failure();
        if (std::optional<std::string> error = checkModuleAnchor(pm))
          return errorHandler(arg + ": " + *error);
        if (std::optional<std::string> error = check(options))
          return errorHandler(arg + ": " + *error);
        builder(pm, options);
        return success();
      },
      [](function_ref<void(const mlir::detail::PassOptions &)> optHandler) {
        optHandler(Options());
      });
}

void mlir::attn::registerAttnPipelines() {
  registerCheckedPipeline<AttnRaisePipelineOptions>(
      "attn-raise-pipeline",
      "Raise attention chains of front-end IR (TOSA, linalg) to "
      "attn.attention: TOSA to linalg, attn-normalize-chains, attn-fuse",
      buildAttnRaisePipeline);
  registerCheckedPipeline<AttnCpuPipelineOptions>(
      "attn-cpu-pipeline",
      "attn-select-tiles and attn-tile on every func.func, then "
      "bufferization and lowering to the LLVM dialect (lower-to-llvm)",
      buildAttnCpuPipeline,
      [](const AttnCpuPipelineOptions &o) -> std::optional<std::string> {
        if (!TargetDescription::get(o.chip))
          return "unknown chip '" + o.chip.getValue() +
                 "' (expected sm_80, sm_86, sm_89, sm_90 or sm_90a)";
        if (o.blockQ < 0 || o.blockKV < 0)
          return std::string("block-q and block-kv must not be negative "
                             "(0 keeps attn-select-tiles' pick)");
        return std::nullopt;
      });
  registerCheckedPipeline<EmptyPipelineOptions>(
      "attn-lower-to-llvm-pipeline",
      "Bufferize tiled or decomposed attention and lower it to the LLVM "
      "dialect (the lowering attn-cpu-run JITs)",
      [](OpPassManager &pm, const EmptyPipelineOptions &) {
        buildAttnLowerToLLVMPipeline(pm);
      });
  registerCheckedPipeline<AttnGpuPipelineOptions>(
      "attn-gpu-pipeline",
      "attn-to-gpu, then the NVVM lowering of gpu.module @attn_kernels to a "
      "gpu.binary (PTX by default)",
      buildAttnGpuPipeline,
      [](const AttnGpuPipelineOptions &o) -> std::optional<std::string> {
        if (std::optional<std::string> error = checkGpuChip(o.chip))
          return error;
        if (!parseKernelChoice(o.kernel))
          return "unsupported kernel '" + o.kernel.getValue() +
                 "' (expected auto, tensor-core or cuda-core)";
        if (!llvm::is_contained({"auto", "on", "off"}, StringRef(o.persistent)))
          return "unsupported persistent '" + o.persistent.getValue() +
                 "' (expected auto, on or off)";
        if (o.f32Precision != "ieee" && o.f32Precision != "tf32")
          return "unsupported f32-precision '" + o.f32Precision.getValue() +
                 "' (expected ieee or tf32)";
        if (o.smCount < 1 || o.smCount > 1024)
          return "unsupported sm-count " + std::to_string(o.smCount) +
                 " (expected 1 to 1024)";
        if (o.indexBitwidth != 32 && o.indexBitwidth != 64)
          return "unsupported index-bitwidth " +
                 std::to_string(o.indexBitwidth) + " (expected 32 or 64)";
        if (o.optLevel > 3)
          return "unsupported opt-level " + std::to_string(o.optLevel) +
                 " (expected 0 to 3)";
        // gpu-module-to-binary's names; it reports another one but does
        // not fail the pass.
        if (!llvm::is_contained({"offloading", "llvm", "assembly", "isa",
                                 "binary", "bin", "fatbinary", "fatbin"},
                                StringRef(o.format)))
          return "unsupported format '" + o.format.getValue() +
                 "' (expected offloading, llvm, assembly, isa, binary, bin, "
                 "fatbinary or fatbin)";
        return std::nullopt;
      });
}
