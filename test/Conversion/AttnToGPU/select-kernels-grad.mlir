// The backward kernel chooser behind attn-select-kernels, attn-to-gpu and
// attn-compile: each gradient op's decision recorded as #attn.grad_kernels.
// RUN: attention-opt %s --attn-select-kernels="chip=sm_90a" | FileCheck %s
// RUN: attention-opt %s --attn-select-kernels="chip=sm_80" | FileCheck %s --check-prefix=SM80
// RUN: attention-opt %s --attn-select-kernels="chip=sm_90a grad-dq=separate grad-tma=off" | FileCheck %s --check-prefix=OPTS
// RUN: attention-opt %s --attn-select-kernels="chip=sm_90a report" 2>&1 >/dev/null | FileCheck %s --check-prefix=REPORT
// The pass is idempotent, and attn-to-gpu records the same choices.
// RUN: attention-opt %s --attn-select-kernels="chip=sm_90a" --attn-select-kernels="chip=sm_90a" | FileCheck %s
// RUN: attention-opt %s --attn-to-gpu="chip=sm_90a" | FileCheck %s
// A recorded choice outranks the options.
// RUN: attention-opt %s --attn-select-kernels="chip=sm_90a" --attn-to-gpu="chip=sm_90a grad-mma=mma-sync grad-dq=separate" | FileCheck %s --check-prefix=KEPT
// attn-compile honours a user's choice (its manifest's codegen).
// RUN: attn-compile %s --chip=sm_90a -o %t.ptx 2>/dev/null
// RUN: FileCheck %s --check-prefix=MANIFEST < %t.json

// bf16 D = 128 training step: the warp-specialized wgmma key-block kernel
// (TMA loads, 128 keys per block) adding dQ with atomics.
// CHECK-LABEL: func.func @train
// CHECK: attn.grad_kernels = #attn.grad_kernels<kernel = wgmma, key_block = 128, dq = atomic, loads = tma>
// SM80-LABEL: func.func @train
// SM80: attn.grad_kernels = #attn.grad_kernels<kernel = mma_sync, key_block = 64, dq = separate>
// OPTS-LABEL: func.func @train
// OPTS: attn.grad_kernels = #attn.grad_kernels<kernel = wgmma, key_block = 64, dq = separate>
// REPORT: remark: attn-select-kernels sm_90a: #attn.grad_kernels<kernel = wgmma, key_block = 128, dq = atomic, loads = tma>; prep 128 threads, dkdv_dq 384 threads with 198696 B of dynamic shared memory (of 232448), dq_convert 128 threads; dQ added with f32 atomics (not bit-reproducible)
// KEPT: gpu.func @attn_bwd_dkdv_dq_0({{.*}} known_block_size = array<i32: 384, 1, 1>
func.func @train(%q: tensor<2x8x1024x128xbf16>, %k: tensor<2x8x1024x128xbf16>, %v: tensor<2x8x1024x128xbf16>, %do: tensor<2x8x1024x128xbf16>) -> (tensor<2x8x1024x128xbf16>, tensor<2x8x1024x128xbf16>, tensor<2x8x1024x128xbf16>) {
  %o, %lse = attn.attention ins(%q, %k, %v : tensor<2x8x1024x128xbf16>, tensor<2x8x1024x128xbf16>, tensor<2x8x1024x128xbf16>) {causal = #attn.causal<bottom_right>} -> tensor<2x8x1024x128xbf16>, tensor<2x8x1024xf32>
  %dq, %dk, %dv = attn.attention_grad ins(%q, %k, %v : tensor<2x8x1024x128xbf16>, tensor<2x8x1024x128xbf16>, tensor<2x8x1024x128xbf16>) forward(%o, %lse : tensor<2x8x1024x128xbf16>, tensor<2x8x1024xf32>) grad_output(%do : tensor<2x8x1024x128xbf16>) {causal = #attn.causal<bottom_right>} -> tensor<2x8x1024x128xbf16>, tensor<2x8x1024x128xbf16>, tensor<2x8x1024x128xbf16>
  return %dq, %dk, %dv : tensor<2x8x1024x128xbf16>, tensor<2x8x1024x128xbf16>, tensor<2x8x1024x128xbf16>
}

// `deterministic`: the separate dq kernel, no atomics.
// CHECK-LABEL: func.func @deterministic
// CHECK: attn.grad_kernels = #attn.grad_kernels<kernel = wgmma, key_block = 64, dq = separate, loads = tma>
// REPORT: remark: attn-select-kernels sm_90a: #attn.grad_kernels<kernel = wgmma, key_block = 64, dq = separate, loads = tma>; prep 128 threads, dkdv 256 threads with {{[0-9]+}} B of dynamic shared memory (of 232448), dq 128 threads with {{[0-9]+}} B of dynamic shared memory (of 232448); bit-reproducible
func.func @deterministic(%q: tensor<1x4x512x64xf16>, %k: tensor<1x4x512x64xf16>, %v: tensor<1x4x512x64xf16>, %o: tensor<1x4x512x64xf16>, %lse: tensor<1x4x512xf32>, %do: tensor<1x4x512x64xf16>) -> (tensor<1x4x512x64xf16>, tensor<1x4x512x64xf16>, tensor<1x4x512x64xf16>) {
  %dq, %dk, %dv = attn.attention_grad ins(%q, %k, %v : tensor<1x4x512x64xf16>, tensor<1x4x512x64xf16>, tensor<1x4x512x64xf16>) forward(%o, %lse : tensor<1x4x512x64xf16>, tensor<1x4x512xf32>) grad_output(%do : tensor<1x4x512x64xf16>) {deterministic} -> tensor<1x4x512x64xf16>, tensor<1x4x512x64xf16>, tensor<1x4x512x64xf16>
  return %dq, %dk, %dv : tensor<1x4x512x64xf16>, tensor<1x4x512x64xf16>, tensor<1x4x512x64xf16>
}

// f32: the CUDA-core kernels (a remark says why).
// CHECK-LABEL: func.func @f32
// CHECK: attn.grad_kernels = #attn.grad_kernels<kernel = cuda_core>
// REPORT: remark: GPU code generation: CUDA-core backward kernels, no tensor-core backward: the element type is not f16 or bf16
// REPORT: remark: attn-select-kernels sm_90a: #attn.grad_kernels<kernel = cuda_core>; dkdv 128 threads, dq 128 threads; bit-reproducible
func.func @f32(%q: tensor<1x2x100x64xf32>, %k: tensor<1x2x100x64xf32>, %v: tensor<1x2x100x64xf32>, %o: tensor<1x2x100x64xf32>, %lse: tensor<1x2x100xf32>, %do: tensor<1x2x100x64xf32>) -> (tensor<1x2x100x64xf32>, tensor<1x2x100x64xf32>, tensor<1x2x100x64xf32>) {
  %dq, %dk, %dv = attn.attention_grad ins(%q, %k, %v : tensor<1x2x100x64xf32>, tensor<1x2x100x64xf32>, tensor<1x2x100x64xf32>) forward(%o, %lse : tensor<1x2x100x64xf32>, tensor<1x2x100xf32>) grad_output(%do : tensor<1x2x100x64xf32>) -> tensor<1x2x100x64xf32>, tensor<1x2x100x64xf32>, tensor<1x2x100x64xf32>
  return %dq, %dk, %dv : tensor<1x2x100x64xf32>, tensor<1x2x100x64xf32>, tensor<1x2x100x64xf32>
}

// A user's choice is kept as written (mma.sync with the separate dQ, where
// the chooser would take the wgmma kernel with atomics), and compiled so.
// CHECK-LABEL: func.func @override
// CHECK: attn.grad_kernels = #attn.grad_kernels<kernel = mma_sync, key_block = 64, dq = separate>
// SM80-LABEL: func.func @override
// SM80: attn.grad_kernels = #attn.grad_kernels<kernel = mma_sync, key_block = 64, dq = separate>
// KEPT: gpu.func @attn_bwd_dkdv_3({{.*}} known_block_size = array<i32: 128, 1, 1>
// MANIFEST: "name": "attn_bwd_dkdv_3",
// MANIFEST: "codegen": {
// MANIFEST-NEXT: "block_kv": 64,
// MANIFEST-NEXT: "block_q": 64,
// MANIFEST-NEXT: "kernel": "tensor-core",
// MANIFEST-NEXT: "mma": "mma.sync",
// MANIFEST-NEXT: "threads": 128
// MANIFEST: "name": "attn_bwd_dq_3",
func.func @override(%q: tensor<2x8x1024x128xbf16>, %k: tensor<2x8x1024x128xbf16>, %v: tensor<2x8x1024x128xbf16>, %o: tensor<2x8x1024x128xbf16>, %lse: tensor<2x8x1024xf32>, %do: tensor<2x8x1024x128xbf16>) -> (tensor<2x8x1024x128xbf16>, tensor<2x8x1024x128xbf16>, tensor<2x8x1024x128xbf16>) {
  %dq, %dk, %dv = attn.attention_grad ins(%q, %k, %v : tensor<2x8x1024x128xbf16>, tensor<2x8x1024x128xbf16>, tensor<2x8x1024x128xbf16>) forward(%o, %lse : tensor<2x8x1024x128xbf16>, tensor<2x8x1024xf32>) grad_output(%do : tensor<2x8x1024x128xbf16>) {attn.grad_kernels = #attn.grad_kernels<kernel = mma_sync, key_block = 64, dq = separate>} -> tensor<2x8x1024x128xbf16>, tensor<2x8x1024x128xbf16>, tensor<2x8x1024x128xbf16>
  return %dq, %dk, %dv : tensor<2x8x1024x128xbf16>, tensor<2x8x1024x128xbf16>, tensor<2x8x1024x128xbf16>
}

// A packed batch: the tensor-core group, warp-specialized with TMA loads
// (the rows a box reads past a sequence's end are masked).
// CHECK-LABEL: func.func @packed
// CHECK: attn.grad_kernels = #attn.grad_kernels<kernel = wgmma, key_block = {{64|128}}, dq = {{atomic|separate}}, loads = tma>
func.func @packed(%q: tensor<?x8x128xbf16>, %k: tensor<?x2x128xbf16>, %v: tensor<?x2x128xbf16>, %cq: tensor<?xi32>, %ck: tensor<?xi32>, %do: tensor<?x8x128xbf16>) -> (tensor<?x8x128xbf16>, tensor<?x2x128xbf16>, tensor<?x2x128xbf16>) {
  %o, %l = attn.varlen_attention ins(%q, %k, %v : tensor<?x8x128xbf16>, tensor<?x2x128xbf16>, tensor<?x2x128xbf16>) seqlens(%cq, %ck : tensor<?xi32>, tensor<?xi32>) {causal = #attn.causal<bottom_right>} -> tensor<?x8x128xbf16>, tensor<8x?xf32>
  %dq, %dk, %dv = attn.varlen_attention_grad ins(%q, %k, %v : tensor<?x8x128xbf16>, tensor<?x2x128xbf16>, tensor<?x2x128xbf16>) seqlens(%cq, %ck : tensor<?xi32>, tensor<?xi32>) forward(%o, %l : tensor<?x8x128xbf16>, tensor<8x?xf32>) grad_output(%do : tensor<?x8x128xbf16>) {causal = #attn.causal<bottom_right>} -> tensor<?x8x128xbf16>, tensor<?x2x128xbf16>, tensor<?x2x128xbf16>
  return %dq, %dk, %dv : tensor<?x8x128xbf16>, tensor<?x2x128xbf16>, tensor<?x2x128xbf16>
}

// D = 256 on sm_80: the mma.sync group with one stage of its streamed tiles
// (two do not fit a block's 163 KiB; ptxas-tensor-core-grad-one-stage-sm80.mlir).
// SM80-LABEL: func.func @train_d256_sm80
// SM80: attn.grad_kernels = #attn.grad_kernels<kernel = mma_sync, key_block = 64, dq = separate, query_stages = 1>
func.func @train_d256_sm80(%q: tensor<1x2x100x256xbf16>, %k: tensor<1x2x100x256xbf16>, %v: tensor<1x2x100x256xbf16>, %o: tensor<1x2x100x256xbf16>, %lse: tensor<1x2x100xf32>, %do: tensor<1x2x100x256xbf16>) -> tensor<1x2x100x256xbf16> {
  %dq, %dk, %dv = attn.attention_grad ins(%q, %k, %v : tensor<1x2x100x256xbf16>, tensor<1x2x100x256xbf16>, tensor<1x2x100x256xbf16>) forward(%o, %lse : tensor<1x2x100x256xbf16>, tensor<1x2x100xf32>) grad_output(%do : tensor<1x2x100x256xbf16>) -> tensor<1x2x100x256xbf16>, tensor<1x2x100x256xbf16>, tensor<1x2x100x256xbf16>
  return %dq : tensor<1x2x100x256xbf16>
}
