//===- Pipelines.cpp - named attention-opt pass pipelines -----------------===//
//
// This file builds and registers attn-cpu-pipeline,
// attn-lower-to-llvm-pipeline and attn-gpu-pipeline (Pipelines.h).
//
//===----------------------------------------------------------------------===//

#include "attnopt/Pipelines/Pipelines.h"

#include "attnopt/Conversion/Passes.h"
#include "attnopt/Dialect/Attn/Transforms/Passes.h"

#include "mlir/Conversion/Passes.h"
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

void mlir::attn::buildAttnLowerToLLVMPipeline(OpPassManager &pm) {
  // What attn-cpu-run JITs (lib/Execution/CpuRunner.cpp runs this after the
  // user's lowering).
  pm.addPass(createCanonicalizerPass());
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
  pm.addPass(createAttnToGPUPass());
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
  target.features = options.features;
  target.optLevel = options.optLevel;
  pm.addPass(createGpuNVVMAttachTarget(target));

  OpPassManager &device = pm.nest<gpu::GPUModuleOp>();
  AttnConvertNVGPUToNVVMPassOptions nvgpu;
  nvgpu.indexBitwidth = options.indexBitwidth;
  device.addPass(createAttnConvertNVGPUToNVVMPass(nvgpu));
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

void mlir::attn::registerAttnPipelines() {
  PassPipelineRegistration<AttnCpuPipelineOptions>(
      "attn-cpu-pipeline",
      "attn-select-tiles and attn-tile on every func.func, then "
      "bufferization and lowering to the LLVM dialect (lower-to-llvm)",
      buildAttnCpuPipeline);
  PassPipelineRegistration<>(
      "attn-lower-to-llvm-pipeline",
      "Bufferize tiled or decomposed attention and lower it to the LLVM "
      "dialect (the lowering attn-cpu-run JITs)",
      buildAttnLowerToLLVMPipeline);
  PassPipelineRegistration<AttnGpuPipelineOptions>(
      "attn-gpu-pipeline",
      "attn-to-gpu, then the NVVM lowering of gpu.module @attn_kernels to a "
      "gpu.binary (PTX by default)",
      buildAttnGpuPipeline);
}
