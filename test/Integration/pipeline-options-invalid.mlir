// The named pipelines check their options before building anything: a chip
// the kernels cannot target (or an empty one, which upstream's
// nvvm-attach-target crashed on) is an error naming the option, never a
// segfault or a binary for the wrong chip (issue 17).
// RUN: not attention-opt %s --attn-gpu-pipeline="chip=bogus" 2>&1 | FileCheck %s --check-prefix=BOGUS
// RUN: not attention-opt %s --attn-gpu-pipeline="chip=sm_75" 2>&1 | FileCheck %s --check-prefix=SM75
// RUN: not attention-opt %s --attn-gpu-pipeline="chip=" 2>&1 | FileCheck %s --check-prefix=EMPTY
// RUN: not attention-opt %s --attn-gpu-pipeline="index-bitwidth=16" 2>&1 | FileCheck %s --check-prefix=BITS
// RUN: not attention-opt %s --attn-cpu-pipeline="chip=sm_75" 2>&1 | FileCheck %s --check-prefix=CPUCHIP
// RUN: not attention-opt %s --attn-cpu-pipeline="block-q=-4" 2>&1 | FileCheck %s --check-prefix=CPUBLOCK
// RUN: not attention-opt %s --attn-gpu-pipeline="format=bogus" 2>&1 | FileCheck %s --check-prefix=FORMAT
// RUN: not attention-opt %s --attn-gpu-pipeline="persistent=bogus" 2>&1 | FileCheck %s --check-prefix=PERSISTENT
// RUN: not attention-opt %s --attn-gpu-pipeline="sm-count=0" 2>&1 | FileCheck %s --check-prefix=SMCOUNT
// RUN: not attention-opt %s --attn-gpu-pipeline="f32-precision=tf16" 2>&1 | FileCheck %s --check-prefix=F32PREC
// The pipelines run module passes: nested on func.func they are an error
// naming the nesting (OpPassManager::addPass aborted the process before).
// RUN: not attention-opt %s --pass-pipeline="builtin.module(func.func(attn-cpu-pipeline))" 2>&1 | FileCheck %s --check-prefix=NESTED-CPU
// RUN: not attention-opt %s --pass-pipeline="builtin.module(func.func(attn-gpu-pipeline))" 2>&1 | FileCheck %s --check-prefix=NESTED-GPU
// RUN: not attention-opt %s --pass-pipeline="builtin.module(func.func(attn-lower-to-llvm-pipeline))" 2>&1 | FileCheck %s --check-prefix=NESTED-LLVM
// RUN: not attention-opt %s --pass-pipeline="builtin.module(func.func(attn-raise-pipeline))" 2>&1 | FileCheck %s --check-prefix=NESTED-RAISE

// BOGUS: attn-gpu-pipeline: unsupported chip 'bogus' (expected sm_80, sm_86, sm_89, sm_90 or sm_90a
// SM75: attn-gpu-pipeline: unsupported chip 'sm_75'
// EMPTY: attn-gpu-pipeline: unsupported chip ''
// BITS: attn-gpu-pipeline: unsupported index-bitwidth 16 (expected 32 or 64)
// CPUCHIP: attn-cpu-pipeline: unknown chip 'sm_75'
// CPUBLOCK: attn-cpu-pipeline: block-q and block-kv must not be negative
// FORMAT: attn-gpu-pipeline: unsupported format 'bogus' (expected offloading, llvm, assembly, isa, binary, bin, fatbinary or fatbin)
// PERSISTENT: attn-gpu-pipeline: unsupported persistent 'bogus' (expected auto, on or off)
// SMCOUNT: attn-gpu-pipeline: unsupported sm-count 0 (expected 1 to 1024)
// F32PREC: attn-gpu-pipeline: unsupported f32-precision 'tf16' (expected ieee or tf32)
// NESTED-CPU: attn-cpu-pipeline: runs on builtin.module, not nested on 'func.func'
// NESTED-GPU: attn-gpu-pipeline: runs on builtin.module, not nested on 'func.func'
// NESTED-LLVM: attn-lower-to-llvm-pipeline: runs on builtin.module, not nested on 'func.func'
// NESTED-RAISE: attn-raise-pipeline: runs on builtin.module, not nested on 'func.func'
func.func @f(%q: tensor<1x2x16x64xf16>, %k: tensor<1x2x16x64xf16>, %v: tensor<1x2x16x64xf16>) -> tensor<1x2x16x64xf16> {
  %o = attn.attention ins(%q, %k, %v : tensor<1x2x16x64xf16>, tensor<1x2x16x64xf16>, tensor<1x2x16x64xf16>) -> tensor<1x2x16x64xf16>
  return %o : tensor<1x2x16x64xf16>
}
