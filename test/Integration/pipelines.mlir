// The named pipelines (lib/Pipelines/Pipelines.cpp), from attention-opt and
// from the stock mlir-opt with the pass plugin.

// attn-cpu-pipeline: attn-select-tiles + attn-tile, then bufferization and
// the lowering to the LLVM dialect that attn-cpu-run JITs.
// RUN: attention-opt %s --attn-cpu-pipeline="lower-to-llvm=false" \
// RUN:   | FileCheck %s --check-prefix=TILED
// RUN: attention-opt %s --attn-cpu-pipeline > %t.cpu.mlir
// RUN: FileCheck %s --check-prefix=LLVM < %t.cpu.mlir
// It is exactly its parts, spelled out as a --pass-pipeline:
// RUN: attention-opt %s --pass-pipeline='builtin.module(func.func(attn-select-tiles,attn-tile),attn-lower-to-llvm-pipeline)' \
// RUN:   | diff %t.cpu.mlir -
// The result is all LLVM dialect: it translates to LLVM IR.
// RUN: mlir-translate --mlir-to-llvmir %t.cpu.mlir | FileCheck %s --check-prefix=LLVMIR
// The same passes, JIT-compiled and compared with the float64 reference:
// RUN: attn-cpu-run %s --seed=5 --lowering="attn-select-tiles,attn-tile" \
// RUN:   | FileCheck %s --check-prefix=EXEC
// Through the stock mlir-opt and the plugins: the same output.
// RUN: mlir-opt %s --load-dialect-plugin=%attn_dialect_plugin \
// RUN:   --load-pass-plugin=%attn_pass_plugin \
// RUN:   --pass-pipeline='builtin.module(attn-cpu-pipeline)' | diff %t.cpu.mlir -

// attn-gpu-pipeline: attn-to-gpu, then the NVVM lowering of the kernels.
// RUN: attention-opt %s --attn-gpu-pipeline="to-binary=false chip=sm_80" \
// RUN:   | FileCheck %s --check-prefix=NVVM
// RUN: mlir-opt %s --load-dialect-plugin=%attn_dialect_plugin \
// RUN:   --load-pass-plugin=%attn_pass_plugin \
// RUN:   --pass-pipeline='builtin.module(attn-gpu-pipeline{to-binary=false chip=sm_80})' \
// RUN:   | FileCheck %s --check-prefix=NVVM

// TILED-LABEL: func.func @cpu_causal
// TILED-NOT:   attn.attention
// TILED:       scf.forall
// TILED:         scf.for {{.*}} iter_args
// TILED-LABEL: func.func @gpu_causal_gqa

// LLVM-NOT:    tensor<
// LLVM-NOT:    attn.
// LLVM-LABEL:  llvm.func @cpu_causal
// LLVM:        llvm.intr.exp
// LLVM-LABEL:  llvm.func @gpu_causal_gqa

// LLVMIR: define {{.*}} @cpu_causal(
// LLVMIR: define {{.*}} @gpu_causal_gqa(

// EXEC: Lq=40 Lk=40 {{.*}} causal=top_left
// EXEC: PASS
// EXEC: Lq=128 Lk=128 {{.*}} causal=top_left
// EXEC: PASS

// The host functions keep their attn.attention (a runtime launches the
// kernels from the manifest); gpu.module @attn_kernels is in NVVM/LLVM.
// NVVM-LABEL: func.func @cpu_causal
// NVVM:         attn.attention
// NVVM-LABEL: func.func @gpu_causal_gqa
// NVVM:         attn.attention
// NVVM:       gpu.module @attn_kernels [#nvvm.target<O = 3, chip = "sm_80", features = "+ptx80">]
// NVVM-NOT:     gpu.func
// NVVM:         llvm.func @attn_fwd_0({{.*}}) attributes {gpu.kernel, {{.*}}nvvm.kernel
// NVVM:           nvvm.read.ptx.sreg.ctaid.x
// The bf16 D = 64 op takes the tensor-core kernel, as attn-compile picks it
// (mma.sync on sm_80; attn-gpu-pipeline-kernels.mlir has sm_90a).
// NVVM:         llvm.func @attn_fwd_1({{.*}}) attributes {attn.dynamic_shared_memory = {{[0-9]+}} : i64, gpu.kernel, {{.*}}nvvm.kernel
// NVVM:           nvvm.ldmatrix
// NVVM:           nvvm.mma.sync

func.func @cpu_causal(%q: tensor<1x2x40x16xf32>, %k: tensor<1x2x40x16xf32>, %v: tensor<1x2x40x16xf32>) -> (tensor<1x2x40x16xf32>, tensor<1x2x40xf32>) {
  %o, %l = attn.attention ins(%q, %k, %v : tensor<1x2x40x16xf32>, tensor<1x2x40x16xf32>, tensor<1x2x40x16xf32>) {causal = #attn.causal<top_left>} -> tensor<1x2x40x16xf32>, tensor<1x2x40xf32>
  return %o, %l : tensor<1x2x40x16xf32>, tensor<1x2x40xf32>
}

func.func @gpu_causal_gqa(%q: tensor<1x4x128x64xbf16>, %k: tensor<1x1x128x64xbf16>, %v: tensor<1x1x128x64xbf16>) -> (tensor<1x4x128x64xbf16>, tensor<1x4x128xf32>) {
  %o, %l = attn.attention ins(%q, %k, %v : tensor<1x4x128x64xbf16>, tensor<1x1x128x64xbf16>, tensor<1x1x128x64xbf16>) {causal = #attn.causal<top_left>} -> tensor<1x4x128x64xbf16>, tensor<1x4x128xf32>
  return %o, %l : tensor<1x4x128x64xbf16>, tensor<1x4x128xf32>
}
