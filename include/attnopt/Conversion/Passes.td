//===- Passes.td - attention-opt conversion passes ---------*- tablegen -*-===//

#ifndef ATTNOPT_CONVERSION_PASSES_TD
#define ATTNOPT_CONVERSION_PASSES_TD

include "mlir/Pass/PassBase.td"

// The options of the forward kernel chooser, shared by attn-select-kernels
// and attn-to-gpu (same names and defaults as attn-compile's flags).
defvar AttnForwardKernelOptions = [
    Option<"chip", "chip", "std::string", "\"sm_90a\"",
           "Target: sm_80, sm_86, sm_89, sm_90 or sm_90a (wgmma: sm_90a)">,
    Option<"kernel", "kernel", "std::string", "\"auto\"",
           "auto (tensor cores where supported), tensor-core or cuda-core">,
    Option<"mma", "mma", "std::string", "\"auto\"",
           "Forward tensor-core kernel: auto (wgmma on sm_90a), wgmma or "
           "mma-sync">,
    Option<"tma", "tma", "std::string", "\"auto\"",
           "Forward wgmma loads: auto (TMA on sm_90a for dense ops' "
           "one-kernel forward), on (also the split stage of decoding) or "
           "off (cp.async)">,
    Option<"persistent", "persistent", "std::string", "\"auto\"",
           "TMA-fed wgmma forward: on (a block per SM looping over tiles; "
           "static sizes), off (a block per tile) or auto (persistent "
           "where the rule finds it pays: more tiles than SMs, no causal "
           "rule, window, mask or softcap, D and Dv up to 128)">,
    Option<"blockQ", "block-q", "int64_t", "0",
           "Forward tensor-core query block (64 or 128); 0 chooses">,
    Option<"blockKV", "block-kv", "int64_t", "0",
           "Forward tensor-core keys per step (64 or 128); 0 chooses">,
    Option<"warps", "warps", "int64_t", "0",
           "Forward tensor-core warps per block; 0 chooses">,
    Option<"splitKV", "split-kv", "std::string", "\"auto\"",
           "Forward split-KV group (decoding): auto, off or a number of "
           "chunks (1-64)">,
    Option<"f32Precision", "f32-precision", "std::string", "\"ieee\"",
           "f32 matrix products: ieee (the exact CUDA-core kernel) or tf32 "
           "(the mma.sync tensor-core forward, operands rounded to tf32, f32 "
           "accumulation)">,
    Option<"smCount", "sm-count", "int64_t", "132",
           "SMs of the target GPU: the split-KV chooser fills them, a "
           "persistent forward launches as many blocks">,
];

// The options of the backward kernel chooser, shared by attn-select-kernels
// and attn-to-gpu (same names and defaults as attn-compile's flags).
defvar AttnBackwardKernelOptions = [
    Option<"gradMma", "grad-mma", "std::string", "\"auto\"",
           "Backward key-block kernel: auto, wgmma or mma-sync">,
    Option<"gradTma", "grad-tma", "std::string", "\"auto\"",
           "Loads of the backward's wgmma key-block kernel: auto (TMA with "
           "a producer warpgroup on sm_90a), on or off (cp.async by every "
           "thread)">,
    Option<"gradDq", "grad-dq", "std::string", "\"auto\"",
           "dQ of the tensor-core backward: auto (atomic on sm_90), "
           "separate or atomic">,
    Option<"gradBlockKV", "grad-block-kv", "int64_t", "0",
           "Keys per block of the backward key-block kernel (64 or 128); 0 "
           "chooses">,
];

def AttnSelectKernelsPass : Pass<"attn-select-kernels"> {
  let summary = "Choose the GPU kernel configuration of each attention op and "
                "record it as #attn.tiles (forward) or #attn.grad_kernels "
                "(backward)";
  let description = [{
    Runs the GPU kernel-configuration chooser (the one behind `attn-to-gpu`,
    `attn-gpu-pipeline` and `attn-compile`) on every `attn.attention` and
    `attn.varlen_attention` and records its decision on the op as
    `attn.tiles = #attn.tiles<block_q, block_kv, stages, warps, kernel,
    splits>`: the kernel family (`wgmma`, `mma_sync`, `cuda_core`), its
    query rows per block, keys per step, K/V stages in shared memory and
    warps, and the split-KV chunk count of a decoding group. An op that
    already names a kernel in its `attn.tiles` keeps it after a check (an
    error at the op names the nearest configuration the kernel can take),
    so a user can read the choice, edit it, and every GPU route compiles
    exactly that. A kernel-less `attn.tiles` (attn-select-tiles) is
    replaced.

    Each `attn.attention_grad` and `attn.varlen_attention_grad` gets the
    backward chooser's decision the same way, as `attn.grad_kernels =
    #attn.grad_kernels<kernel, key_block, dq, loads>`: the family of the
    key-block kernel (`wgmma`, `mma_sync`, or `cuda_core` for the CUDA-core
    dkdv and dq kernels), its keys per block, whether dQ is added with
    atomics (`dq = atomic`) or by a separate kernel, and its TMA loads; an
    op that carries one is checked and kept.

    With `report`, each op also gets a remark with the kernel's launch
    (threads, dynamic shared memory against the chip's limit) and the IO
    model's predicted HBM bytes and FLOPs for those tiles
    (docs/io-model.md):

    ```
    attention-opt --attn-select-kernels="chip=sm_90a report" in.mlir
    ```
  }];
  let options = !listconcat(AttnForwardKernelOptions,
                            AttnBackwardKernelOptions, [
    Option<"report", "report", "bool", "false",
           "Emit a remark with the launch and the IO report of each op">,
  ]);
}

def AttnToGPUPass : Pass<"attn-to-gpu", "::mlir::ModuleOp"> {
  let summary = "Generate GPU kernels for each attn.attention and "
                "attn.attention_grad";
  let description = [{
    Adds a `gpu.module @attn_kernels` holding one `gpu.func` kernel
    `@attn_fwd_<n>` per statically shaped `attn.attention` in the module (in
    walk order), then the kernel group `attn_bwd_<stage>_<n>` of each
    `attn.attention_grad`: the same kernels `attn-compile` generates for the
    same options (both call `buildAttentionKernels`), so that the pipeline
    route (`attn-gpu-pipeline`, the mlir-opt plugin) and attn-compile agree.
    The kernels take the op's tensors as flat memrefs in the manifest's
    parameter order (docs/kernel-manifest.md); the manifest's kernel entries
    are attached to the gpu.module as the JSON string attribute
    `attn.manifest_kernels` (a runtime needs them to launch the kernels).

    With `kernel=auto` (the default) f16/bf16 with D = Dv in {64, 128} take
    the tensor-core kernels: on sm_90a the warp-specialized wgmma forward
    (128-byte swizzled tiles; not for dropout or Lq <= 64) and the wgmma
    backward key-block kernel, else FlashAttention-2-style mma.sync kernels;
    everything else, and `kernel=cuda-core`, the CUDA-core kernels (one
    thread block per (query block, head, batch), K/V blocks staged in
    shared memory, the online-softmax recurrence; backward: dkdv and dq
    without atomics).

    Each forward op's kernel configuration comes from the chooser of
    `attn-select-kernels` and is recorded on the op (`attn.tiles` with a
    `kernel` field); an op that already carries one is compiled as it says
    (per-op attributes take precedence over the options above).

    The attention ops themselves are left in place; `attn-compile` lowers the
    kernels to PTX and writes the manifest, `attn-gpu-pipeline` lowers them
    to a gpu.binary.
  }];
  let options = !listconcat(AttnForwardKernelOptions,
                            AttnBackwardKernelOptions);
  let dependentDialects = [
    "::mlir::arith::ArithDialect", "::mlir::gpu::GPUDialect",
    "::mlir::math::MathDialect", "::mlir::memref::MemRefDialect",
    "::mlir::scf::SCFDialect"
  ];
}

def AttnConvertNVGPUToNVVMPass
    : Pass<"attn-convert-nvgpu-to-nvvm"> {
  let summary = "Upstream's nvgpu-to-nvvm patterns with a chosen index "
                "bitwidth";
  let description = [{
    Runs upstream's NVGPU-to-NVVM conversion patterns
    (populateNVGPUToNVVMConversionPatterns) with an LLVM type converter whose
    index type has `index-bitwidth` bits. Upstream's
    `convert-nvgpu-to-nvvm` always uses the 64-bit default, so its memref
    descriptors cannot meet those of `convert-gpu-to-nvvm{index-bitwidth=32}`
    (the two leave unrealized casts between i64 and i32 descriptors). The
    kernels of attn-compile use 32-bit indices when every tensor has fewer
    than 2^31 elements: half the registers for addresses and 32-bit integer
    arithmetic instead of 64-bit pairs.
  }];
  let options = [
    Option<"indexBitwidth", "index-bitwidth", "unsigned", "64",
           "Bitwidth of the index type (as in convert-gpu-to-nvvm)">,
  ];
  let dependentDialects = [
    "::mlir::LLVM::LLVMDialect", "::mlir::NVVM::NVVMDialect"
  ];
}

def AttnApproxMathToNVVMPass
    : Pass<"attn-approx-math-to-nvvm", "::mlir::gpu::GPUModuleOp"> {
  let summary = "Lower math ops that allow approximation (fastmath<afn>) to "
                "NVVM's approximate instructions";
  let description = [{
    `convert-gpu-to-nvvm` lowers `math.tanh` to libdevice's `__nv_tanhf`
    (an exp2 and an IEEE division, exact to a few ulp) whatever its fastmath
    flags: libdevice has no fast tanh. This pass, run before it, rewrites an
    f32 `math.tanh` that carries `afn` (approximate functions allowed) to
    the single instruction `tanh.approx.f32` (sm_75 and later; its error is
    in docs/semantics.md, section 3). The attn kernel builders put `afn` on
    the softcap's tanh of an op with `softcap_approx`, and only there; a
    `math.tanh` without `afn`, or of another type, is left alone.

    Example:
    ```mlir
    %t = math.tanh %x fastmath<afn> : f32
    // becomes
    %t = llvm.inline_asm "tanh.approx.f32 $0, $1;", "=f,f" %x : (f32) -> f32
    ```
  }];
  let dependentDialects = ["::mlir::LLVM::LLVMDialect"];
}

def AttnTensorMapParamsPass
    : Pass<"attn-tensor-map-params", "::mlir::gpu::GPUModuleOp"> {
  let summary = "Pass the TMA tensor maps of the lowered kernels by value, "
                "as grid constants";
  let description = [{
    A kernel that loads with the Tensor Memory Accelerator takes each tensor
    map (a 128-byte `CUtensorMap` the runtime encodes at launch,
    docs/kernel-manifest.md) by value, as CUDA's
    `const __grid_constant__ CUtensorMap` does: PTX `.param .align 64 .b8
    name[128]`, whose generic address (`cvta.param`) is the operand of
    `cp.async.bulk.tensor`. The kernel builders type such an argument
    `!llvm.ptr` and list its index in the function's
    `attn.tensor_map_args` attribute; `convert-gpu-to-nvvm` keeps that
    attribute but not argument attributes, and the NVVM verifier refuses
    `nvvm.grid_constant` on a `gpu.func`. So this pass runs after it: on
    every `llvm.func` kernel of the module with `attn.tensor_map_args`, it
    gives those arguments `llvm.byval = !llvm.array<128 x i8>`,
    `llvm.align = 64` and `nvvm.grid_constant`, and drops the marker.

    Example (after `convert-gpu-to-nvvm`):
    ```mlir
    llvm.func @k(%map: !llvm.ptr, %out: !llvm.ptr)
        attributes {nvvm.kernel, attn.tensor_map_args = array<i32: 0>}
    // becomes
    llvm.func @k(%map: !llvm.ptr {llvm.align = 64 : i64,
                                  llvm.byval = !llvm.array<128 x i8>,
                                  nvvm.grid_constant},
                 %out: !llvm.ptr) attributes {nvvm.kernel}
    ```
    A marked argument that is not a generic `!llvm.ptr`, an index out of
    range, or a marked function that is not a kernel is an error.
  }];
  let dependentDialects = [
    "::mlir::LLVM::LLVMDialect", "::mlir::NVVM::NVVMDialect"
  ];
}

def AttnExternDynamicSharedMemoryPass
    : Pass<"attn-extern-dynamic-shared-memory", "::mlir::gpu::GPUModuleOp"> {
  let summary = "Declare the dynamic shared memory placeholders external, "
                "so that they take no static shared memory";
  let description = [{
    `convert-gpu-to-nvvm` lowers `gpu.dynamic_shared_memory` to the address
    of an internal zero-length global in shared memory, which the NVPTX
    backend prints as a one-byte `.shared .align 16 .b8 __dynamic_shmem__0;`:
    every tensor-core kernel then has one byte of static shared memory. The
    per-block opt-in limit counts static and dynamic bytes together, so a
    kernel whose tiles use the whole limit (D = 256 on sm_86 and sm_89:
    101376 bytes) could not be launched (cuFuncSetAttribute refuses that
    dynamic size). This pass, run after `convert-gpu-to-nvvm`, gives each
    such placeholder external linkage, which PTX prints as CUDA C++ prints
    `extern __shared__`: `.extern .shared .align 16 .b8
    __dynamic_shmem__0[];`, no static bytes. The dynamic region begins at
    the same address; nothing else changes.

    Example (after `convert-gpu-to-nvvm`):
    ```mlir
    llvm.mlir.global internal @__dynamic_shmem__0()
        {addr_space = 3 : i32, alignment = 16 : i64} : !llvm.array<0 x i8>
    // becomes
    llvm.mlir.global external @__dynamic_shmem__0()
        {addr_space = 3 : i32, alignment = 16 : i64} : !llvm.array<0 x i8>
    ```
    Globals with a value or a size, and those outside shared memory, are
    left alone.
  }];
  let dependentDialects = ["::mlir::LLVM::LLVMDialect"];
}

def AttnPoisonSharedMemoryPass
    : Pass<"attn-poison-shared-memory", "::mlir::gpu::GPUModuleOp"> {
  let summary = "Fill each kernel's shared memory with NaN at entry (debug)";
  let description = [{
    A validation aid: at the entry of every kernel of the module, the block's
    threads fill all of its shared memory with all-ones bytes (a NaN in f16,
    bf16 and f32, -1 in integers), then meet at a barrier (and, where the
    kernel reads shared memory through the tensor cores' async proxy, a
    `fence.proxy.async`), before anything else runs. A kernel that reads an
    element it never wrote (a key row past Lk that a copy skipped, a padding
    column, a stage not yet filled) then sees NaN on the first launch, rather
    than whatever an earlier kernel left there, which is harmless in most
    launches and wrong in a few.

    Shared memory is found in two forms: the `workgroup` attributions of a
    `gpu.func` (the CUDA-core kernels), and the dynamic shared memory of the
    tensor-core kernels, whose size the kernel builders record in the
    function's `attn.dynamic_shared_memory` attribute (bytes). A kernel that
    takes `gpu.dynamic_shared_memory` without that attribute is an error:
    the pass cannot know how much to fill.

    Example:
    ```
    attn-compile in.mlir --chip=sm_90a --poison-shared-memory -o out.ptx
    attention-opt in.mlir --attn-to-gpu \
        --pass-pipeline='builtin.module(gpu.module(attn-poison-shared-memory))'
    ```
    Costs a few microseconds per launch; not for benchmarking.
  }];
  let dependentDialects = [
    "::mlir::arith::ArithDialect", "::mlir::gpu::GPUDialect",
    "::mlir::LLVM::LLVMDialect", "::mlir::NVVM::NVVMDialect",
    "::mlir::memref::MemRefDialect", "::mlir::scf::SCFDialect"
  ];
}

#endif // ATTNOPT_CONVERSION_PASSES_TD
