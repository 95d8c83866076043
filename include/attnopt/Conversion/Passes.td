//===- Passes.td - attention-opt conversion passes ---------*- tablegen -*-===//

#ifndef ATTNOPT_CONVERSION_PASSES_TD
#define ATTNOPT_CONVERSION_PASSES_TD

include "mlir/Pass/PassBase.td"

def AttnToGPUPass : Pass<"attn-to-gpu", "::mlir::ModuleOp"> {
  let summary = "Generate a GPU kernel for each attn.attention";
  let description = [{
    Adds a `gpu.module @attn_kernels` holding one `gpu.func` kernel
    `@attn_fwd_<n>` per statically shaped `attn.attention` in the module (in
    walk order). The kernel takes the op's tensors as flat memrefs in the
    order query, key, value, [mask], [seed, offset], output, [lse]
    (docs/kernel-manifest.md) and computes attention with the online-softmax
    recurrence: one thread block per (query block, head, batch), K/V blocks
    staged in shared memory, visible key blocks only (causal/window block
    skipping), running max/sum/accumulator in registers. This pass always emits
    the CUDA-core kernel; `attn-compile --kernel=auto` (the default) picks the
    FlashAttention-2-style tensor-core kernel (mma.sync, ldmatrix, cp.async)
    for f16/bf16 with D = Dv in {64, 128}.

    The attention ops themselves are left in place; `attn-compile` lowers the
    kernels to PTX and writes the manifest.
  }];
  let dependentDialects = [
    "::mlir::arith::ArithDialect", "::mlir::gpu::GPUDialect",
    "::mlir::math::MathDialect", "::mlir::memref::MemRefDialect",
    "::mlir::scf::SCFDialect"
  ];
}

#endif // ATTNOPT_CONVERSION_PASSES_TD
