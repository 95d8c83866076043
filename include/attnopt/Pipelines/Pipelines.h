//===- Pipelines.h - named attention-opt pass pipelines ---------*- C++ -*-===//
//
// The whole flow as named pipelines, usable from attention-opt, from
// mlir-opt with the pass plugin, and from C++ (build*Pipeline):
//
//   attn-cpu-pipeline: attn-select-tiles, attn-tile, then (unless
//       lower-to-llvm=false) bufferization and lowering to the LLVM dialect,
//       the same steps attn-cpu-run JITs (lib/Execution/CpuRunner.cpp).
//   attn-gpu-pipeline: attn-to-gpu, then the NVVM lowering of the generated
//       gpu.module that attn-compile spells out, ending in a gpu.binary.
//
// The builders create the passes directly, so they do not depend on any pass
// being registered by name.
//
//===----------------------------------------------------------------------===//

#ifndef ATTNOPT_PIPELINES_PIPELINES_H
#define ATTNOPT_PIPELINES_PIPELINES_H

#include "mlir/Pass/PassOptions.h"

#include <optional>
#include <string>

namespace mlir {
class OpPassManager;

namespace attn {

/// Options of `attn-cpu-pipeline`.
struct AttnCpuPipelineOptions
    : public PassPipelineOptions<AttnCpuPipelineOptions> {
  PassOptions::Option<std::string> chip{
      *this, "chip",
      llvm::cl::desc("Chip whose tile table attn-select-tiles uses"),
      llvm::cl::init("sm_90a")};
  PassOptions::Option<int64_t> blockQ{
      *this, "block-q",
      llvm::cl::desc("Query rows per tile; 0 keeps attn-select-tiles' pick"),
      llvm::cl::init(0)};
  PassOptions::Option<int64_t> blockKV{
      *this, "block-kv",
      llvm::cl::desc("Key rows per tile; 0 keeps attn-select-tiles' pick"),
      llvm::cl::init(0)};
  PassOptions::Option<bool> lowerToLLVM{
      *this, "lower-to-llvm",
      llvm::cl::desc("Bufferize and lower the tiled form to the LLVM dialect"),
      llvm::cl::init(true)};
};

/// Options of `attn-gpu-pipeline`.
struct AttnGpuPipelineOptions
    : public PassPipelineOptions<AttnGpuPipelineOptions> {
  PassOptions::Option<std::string> chip{
      *this, "chip", llvm::cl::desc("Target chip (nvvm-attach-target)"),
      llvm::cl::init("sm_90a")};
  PassOptions::Option<std::string> kernel{
      *this, "kernel",
      llvm::cl::desc("attn-to-gpu's kernel choice: auto (tensor cores where "
                     "supported, as attn-compile), tensor-core or cuda-core"),
      llvm::cl::init("auto")};
  PassOptions::Option<std::string> splitKV{
      *this, "split-kv",
      llvm::cl::desc("attn-to-gpu's split-KV forward group (decoding): auto "
                     "(as attn-compile), off or a number of chunks (1-64)"),
      llvm::cl::init("auto")};
  PassOptions::Option<std::string> persistent{
      *this, "persistent",
      llvm::cl::desc("attn-to-gpu's persistent forward: auto (as "
                     "attn-compile), on or off"),
      llvm::cl::init("auto")};
  PassOptions::Option<std::string> f32Precision{
      *this, "f32-precision",
      llvm::cl::desc("f32 matrix products: ieee (the CUDA-core kernel) or "
                     "tf32 (tensor cores), as attn-compile"),
      llvm::cl::init("ieee")};
  PassOptions::Option<int64_t> smCount{
      *this, "sm-count",
      llvm::cl::desc("SMs of the target GPU: the split-KV chooser fills "
                     "them, a persistent forward launches as many blocks"),
      llvm::cl::init(132)};
  PassOptions::Option<std::string> features{
      *this, "features",
      llvm::cl::desc("PTX features (nvvm-attach-target); empty: by chip, "
                     "+ptx81 on sm_90/sm_90a (vector reductions), +ptx80 on "
                     "sm_80, as attn-compile"),
      llvm::cl::init("")};
  PassOptions::Option<unsigned> optLevel{
      *this, "opt-level", llvm::cl::desc("LLVM optimization level (0-3)"),
      llvm::cl::init(3)};
  PassOptions::Option<std::string> toolkit{
      *this, "toolkit",
      llvm::cl::desc("CUDA toolkit holding nvvm/libdevice; empty: MLIR's "
                     "default (CUDA_ROOT, CUDA_HOME, CUDA_PATH, build path)"),
      llvm::cl::init("")};
  PassOptions::Option<std::string> format{
      *this, "format",
      llvm::cl::desc("gpu-module-to-binary format: offloading/llvm, "
                     "assembly/isa, binary/bin or fatbinary/fatbin"),
      llvm::cl::init("isa")};
  PassOptions::Option<unsigned> indexBitwidth{
      *this, "index-bitwidth",
      llvm::cl::desc("Bits of the index type in the kernels: 64 (default) or "
                     "32, which is only correct when every tensor has fewer "
                     "than 2^31 elements (attn-compile checks that and "
                     "chooses 32 itself)"),
      llvm::cl::init(64)};
  PassOptions::Option<bool> toBinary{
      *this, "to-binary",
      llvm::cl::desc("Serialize the gpu.module (gpu-module-to-binary); "
                     "false stops at the NVVM/LLVM dialect"),
      llvm::cl::init(true)};
};

/// Options of `attn-raise-pipeline` (the options of attn-fuse).
struct AttnRaisePipelineOptions
    : public PassPipelineOptions<AttnRaisePipelineOptions> {
  PassOptions::Option<bool> explain{
      *this, "explain",
      llvm::cl::desc("A remark at each softmax-like reduction that is not "
                     "raised, with the reason"),
      llvm::cl::init(false)};
  PassOptions::Option<bool> inexactReciprocal{
      *this, "inexact-reciprocal",
      llvm::cl::desc("attn-fuse's inexact-reciprocal (dropout factors)"),
      llvm::cl::init(false)};
  PassOptions::Option<bool> allowPrecisionChange{
      *this, "allow-precision-change",
      llvm::cl::desc("attn-fuse's allow-precision-change: raise chains whose "
                     "softmax runs in f16/bf16"),
      llvm::cl::init(false)};
  PassOptions::Option<bool> largeNegativeIsMasked{
      *this, "large-negative-is-masked",
      llvm::cl::desc("attn-fuse's large-negative-is-masked: a finite fill "
                     "<= -1e4 masks like -inf"),
      llvm::cl::init(false)};
};

/// Appends, on every func.func of `pm` (a pass manager on builtin.module):
/// the TOSA lowerings to linalg/tensor/arith, elementwise ops on tensors to
/// linalg, attn-normalize-chains, canonicalize and cse, attn-fuse with
/// `options`, and canonicalize and cse again. This is the front-end
/// raising that users put in front of their own pipelines.
void buildAttnRaisePipeline(OpPassManager &pm,
                            const AttnRaisePipelineOptions &options);

/// Appends the lowering of the kernels' gpu.modules (built by attn-to-gpu or
/// attn-compile) to the NVVM dialect: nvvm-attach-target, then, nested in
/// every gpu.module, nvgpu/vector/scf/arith/index/gpu to NVVM and LLVM with
/// `options.indexBitwidth`; with `options.toBinary`, gpu-module-to-binary.
/// Host code is left alone. `pm` runs on builtin.module.
void buildAttnGpuDeviceLoweringPipeline(OpPassManager &pm,
                                        const AttnGpuPipelineOptions &options);

/// Appends attn-select-tiles and attn-tile (on every func.func) to `pm`, a
/// pass manager on builtin.module (or op-agnostic), and the lowering to the
/// LLVM dialect when `options.lowerToLLVM` is set.
void buildAttnCpuPipeline(OpPassManager &pm,
                          const AttnCpuPipelineOptions &options);

/// Appends the lowering of bufferized, tiled attention (tensors already
/// turned into loops over linalg) to the LLVM dialect: bufferization with
/// identity-layout function boundaries, buffer deallocation, loops, and the
/// *-to-llvm conversions. `pm` runs on builtin.module.
void buildAttnLowerToLLVMPipeline(OpPassManager &pm);

/// Appends attn-to-gpu and the NVVM lowering of the generated
/// `gpu.module @attn_kernels` to `pm`, a pass manager on builtin.module. The
/// host functions are not lowered: the kernels are launched by a runtime
/// reading the manifest (docs/kernel-manifest.md), as with attn-compile.
void buildAttnGpuPipeline(OpPassManager &pm,
                          const AttnGpuPipelineOptions &options);

/// Registers attn-raise-pipeline, attn-cpu-pipeline,
/// attn-lower-to-llvm-pipeline and attn-gpu-pipeline with the global pass
/// pipeline registry.
void registerAttnPipelines();

/// Why `attn-gpu-pipeline` (and attn-compile) cannot target `chip`, or
/// nullopt when it can (kGpuChipList).
std::optional<std::string> checkGpuChip(StringRef chip);

} // namespace attn
} // namespace mlir

#endif // ATTNOPT_PIPELINES_PIPELINES_H
