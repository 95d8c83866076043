// attn-compile --poison-shared-memory: the tensor-core kernels (forward on
// wgmma and the atomic backward group) fill their dynamic shared memory
// with NaN at entry; the PTX still assembles. Without the flag there is no
// fill loop.
// REQUIRES: ptxas
// RUN: attn-compile %s --chip=sm_90a --poison-shared-memory --emit=gpu -o %t.gpu.mlir
// RUN: FileCheck %s --check-prefix=GPU < %t.gpu.mlir
// RUN: attn-compile %s --chip=sm_90a --poison-shared-memory -o %t.ptx
// RUN: ptxas -arch=sm_90a %t.ptx -o %t.cubin
// RUN: attn-compile %s --chip=sm_90a --emit=gpu -o %t.plain.mlir
// RUN: FileCheck %s --check-prefix=PLAIN < %t.plain.mlir

// GPU-LABEL: gpu.func @attn_fwd_0
// GPU-SAME: attn.dynamic_shared_memory = {{[0-9]+}} : i64
// GPU: gpu.block_dim x
// GPU: gpu.dynamic_shared_memory
// GPU: arith.constant -1 : i32
// GPU: nvvm.fence.proxy {kind = #nvvm.proxy_kind<async.shared>, space = #nvvm.shared_space<cta>}
// GPU-NEXT: gpu.barrier
// GPU-LABEL: gpu.func @attn_bwd_prep_0
// GPU-LABEL: gpu.func @attn_bwd_dkdv_dq_0
// GPU: gpu.block_dim x
// GPU: arith.constant -1 : i32
// GPU: nvvm.fence.proxy {kind = #nvvm.proxy_kind<async.shared>, space = #nvvm.shared_space<cta>}
// GPU-NEXT: gpu.barrier

// The fill loop's stride is the only gpu.block_dim (the builders use the
// known block size).
// PLAIN-NOT: gpu.block_dim
func.func @train(%q: tensor<1x2x130x64xbf16>, %k: tensor<1x1x70x64xbf16>, %v: tensor<1x1x70x64xbf16>, %do: tensor<1x2x130x64xbf16>) -> (tensor<1x2x130x64xbf16>, tensor<1x2x130x64xbf16>, tensor<1x1x70x64xbf16>, tensor<1x1x70x64xbf16>) {
  %o, %l = attn.attention ins(%q, %k, %v : tensor<1x2x130x64xbf16>, tensor<1x1x70x64xbf16>, tensor<1x1x70x64xbf16>) -> tensor<1x2x130x64xbf16>, tensor<1x2x130xf32>
  %dq, %dk, %dv = attn.attention_grad ins(%q, %k, %v : tensor<1x2x130x64xbf16>, tensor<1x1x70x64xbf16>, tensor<1x1x70x64xbf16>) forward(%o, %l : tensor<1x2x130x64xbf16>, tensor<1x2x130xf32>) grad_output(%do : tensor<1x2x130x64xbf16>) -> tensor<1x2x130x64xbf16>, tensor<1x1x70x64xbf16>, tensor<1x1x70x64xbf16>
  return %o, %dq, %dk, %dv : tensor<1x2x130x64xbf16>, tensor<1x2x130x64xbf16>, tensor<1x1x70x64xbf16>, tensor<1x1x70x64xbf16>
}
