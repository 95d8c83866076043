// The pipeline route emits the kernels attn-compile emits (issue 18, step 7:
// both call buildAttentionKernels with the same options): on sm_90a the
// warp-specialized wgmma forward and the atomic backward group with the
// warp-specialized wgmma key-block kernel (TMA loads), not the CUDA-core kernels the pass used to emit.
// The manifest's kernel entries ride along on the gpu.module.
// RUN: attention-opt %s --attn-to-gpu="chip=sm_90a" | FileCheck %s --check-prefixes=KERNELS,PASS
// RUN: attn-compile %s --chip=sm_90a --emit=gpu -o - | FileCheck %s --check-prefix=KERNELS
// RUN: attention-opt %s --attn-gpu-pipeline="chip=sm_90a to-binary=false" | FileCheck %s --check-prefix=NVVM
// RUN: attention-opt %s --attn-to-gpu="chip=sm_90a kernel=cuda-core" | FileCheck %s --check-prefix=CUDA
// RUN: not attention-opt %s --attn-to-gpu="chip=sm_80 mma=wgmma" 2>&1 | FileCheck %s --check-prefix=BAD

// PASS: gpu.module @attn_kernels attributes {attn.manifest_kernels = "[{
// PASS-SAME: \22kernel\22:\22tensor-core\22,\22loads\22:\22tma\22,\22mma\22:\22wgmma\22
// PASS-SAME: \22stage\22:\22dkdv_dq\22
// KERNELS-LABEL: gpu.func @attn_fwd_0
// KERNELS-SAME: known_block_size = array<i32: 384, 1, 1>
// KERNELS: nvvm.setmaxregister
// KERNELS: wgmma.mma_async
// KERNELS-LABEL: gpu.func @attn_bwd_prep_0
// KERNELS-LABEL: gpu.func @attn_bwd_dkdv_dq_0
// KERNELS: wgmma.mma_async
// KERNELS: cp.reduce.async.bulk.global.shared::cta.bulk_group.add.f32
// KERNELS-LABEL: gpu.func @attn_bwd_dq_convert_0

// NVVM: gpu.module @attn_kernels [#nvvm.target<O = 3, chip = "sm_90a", features = "+ptx81">]
// NVVM: llvm.func @attn_fwd_0
// NVVM: wgmma.mma_async

// CUDA-LABEL: gpu.func @attn_fwd_0
// CUDA-SAME: workgroup(
// CUDA-NOT: wgmma
// BAD: attn-to-gpu: mma=wgmma needs chip=sm_90a (wgmma is an sm_90a instruction), not sm_80
func.func @train(%q: tensor<1x4x256x128xbf16>, %k: tensor<1x2x256x128xbf16>, %v: tensor<1x2x256x128xbf16>, %do: tensor<1x4x256x128xbf16>) -> (tensor<1x4x256x128xbf16>, tensor<1x4x256x128xbf16>, tensor<1x2x256x128xbf16>, tensor<1x2x256x128xbf16>) {
  %o, %l = attn.attention ins(%q, %k, %v : tensor<1x4x256x128xbf16>, tensor<1x2x256x128xbf16>, tensor<1x2x256x128xbf16>) {causal = #attn.causal<top_left>} -> tensor<1x4x256x128xbf16>, tensor<1x4x256xf32>
  %dq, %dk, %dv = attn.attention_grad ins(%q, %k, %v : tensor<1x4x256x128xbf16>, tensor<1x2x256x128xbf16>, tensor<1x2x256x128xbf16>) forward(%o, %l : tensor<1x4x256x128xbf16>, tensor<1x4x256xf32>) grad_output(%do : tensor<1x4x256x128xbf16>) {causal = #attn.causal<top_left>} -> tensor<1x4x256x128xbf16>, tensor<1x2x256x128xbf16>, tensor<1x2x256x128xbf16>
  return %o, %dq, %dk, %dv : tensor<1x4x256x128xbf16>, tensor<1x4x256x128xbf16>, tensor<1x2x256x128xbf16>, tensor<1x2x256x128xbf16>
}
