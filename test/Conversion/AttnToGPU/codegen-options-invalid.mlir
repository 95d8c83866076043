// Explicit code generation choices that exclude each other are an error
// naming both, on every route (attn-compile, attn-to-gpu): one of them was
// dropped without a word (tma=on with mma=mma-sync compiled cp.async
// loads; persistent=on with tma=off a grid of one block per tile).
// RUN: not attn-compile %s --tma=on --mma=mma-sync -o %t.ptx 2>&1 | FileCheck %s --check-prefix=TMA
// RUN: not attn-compile %s --grad-tma=on --grad-mma=mma-sync -o %t.ptx 2>&1 | FileCheck %s --check-prefix=GRADTMA
// RUN: not attn-compile %s --persistent=on --mma=mma-sync -o %t.ptx 2>&1 | FileCheck %s --check-prefix=PERSMMA
// RUN: not attn-compile %s --persistent=on --tma=off -o %t.ptx 2>&1 | FileCheck %s --check-prefix=PERSTMA
// RUN: not attn-compile %s --persistent=on --split-kv=8 -o %t.ptx 2>&1 | FileCheck %s --check-prefix=PERSSPLIT
// RUN: not attention-opt %s --attn-to-gpu="chip=sm_90a tma=on mma=mma-sync" 2>&1 | FileCheck %s --check-prefix=TMA
// RUN: not attn-compile %s --kernel=cuda-core --tma=on -o %t.ptx 2>&1 | FileCheck %s --check-prefix=CUDATMA
// RUN: not attn-compile %s --kernel=cuda-core --mma=wgmma -o %t.ptx 2>&1 | FileCheck %s --check-prefix=CUDAMMA
// RUN: not attn-compile %s --kernel=cuda-core --f32-precision=tf32 -o %t.ptx 2>&1 | FileCheck %s --check-prefix=CUDATF32
// RUN: not attn-compile %s --f32-precision=half -o %t.ptx 2>&1 | FileCheck %s --check-prefix=BADPREC
// RUN: attn-compile %s --persistent=on --split-kv=off -o %t.ptx | FileCheck %s --check-prefix=OK
// RUN: attn-compile %s --kernel=cuda-core --tma=off -o %t.ptx | FileCheck %s --check-prefix=OK

// TMA: tma=on needs the wgmma forward (the TMA loads feed the wgmma kernels), but mma=mma-sync
// GRADTMA: grad-tma=on needs the wgmma key-block kernel (the TMA loads feed the wgmma kernels), but grad-mma=mma-sync
// PERSMMA: persistent=on is the TMA-fed wgmma forward, but mma=mma-sync
// PERSTMA: persistent=on is the TMA-fed wgmma forward, but tma=off
// PERSSPLIT: persistent=on schedules the one-kernel forward, but split-kv=8 asks for the split-KV group everywhere
// CUDATMA: kernel=cuda-core excludes tma=on (a choice of the tensor-core kernels)
// CUDAMMA: kernel=cuda-core excludes mma=wgmma (a choice of the tensor-core kernels)
// CUDATF32: kernel=cuda-core excludes f32-precision=tf32 (a choice of the tensor-core kernels)
// BADPREC: unsupported f32-precision=half (expected ieee or tf32)
// OK: wrote {{.*}} (1 kernel, sm_90a
func.func @f(%q: tensor<2x8x1024x64xf16>, %k: tensor<2x8x1024x64xf16>, %v: tensor<2x8x1024x64xf16>) -> tensor<2x8x1024x64xf16> {
  %o = attn.attention ins(%q, %k, %v : tensor<2x8x1024x64xf16>, tensor<2x8x1024x64xf16>, tensor<2x8x1024x64xf16>) -> tensor<2x8x1024x64xf16>
  return %o : tensor<2x8x1024x64xf16>
}
