// The head split at D = 8, Dv = 256 (D + Dv > 256: the chooser takes it):
// dK's and dQ's 8 columns all go to the first warpgroup, and the second has
// no dQ product. It must still wait for its dV products and release its
// Q / dO stage every step (the empty mbarrier counts both warpgroups'
// 256 threads): without it the producer waited forever on its first
// refill (session 46's early release sat inside the dQ chunk loop).
// RUN: attention-opt %s --attn-select-kernels="chip=sm_90a" | FileCheck %s --check-prefix=CHOICE
// RUN: attn-compile %s --chip=sm_90a --emit=gpu -o %t.mlir
// RUN: FileCheck %s < %t.mlir
// RUN: attn-compile %s --chip=sm_90a -o %t.ptx
// RUN: FileCheck %s --check-prefix=PTX < %t.ptx

// CHOICE: #attn.grad_kernels<kernel = wgmma, key_block = 64, dq = atomic, loads = tma, split = warpgroups>

// The first warpgroup: dV (m64n64k16), dK and the dQ chunk (m64n8k16); its
// stage released after dV and dK, while dQ's product runs.
// CHECK-LABEL: gpu.func @attn_bwd_dkdv_dq_0(
// CHECK: llvm.call_intrinsic "llvm.nvvm.barrier.cta.sync.count"(%{{.+}}, %c256_i32{{(_[0-9]+)?}})
// CHECK: m64n64k16
// CHECK: m64n8k16
// CHECK: nvvm.wgmma.wait.group.sync.aligned 1
// CHECK: nvvm.mbarrier.arrive %
// CHECK-NEXT: nvvm.wgmma.wait.group.sync.aligned 0
// CHECK: cp.reduce.async.bulk
// The second: dV only, then the wait and the release, then the next step.
// CHECK: llvm.call_intrinsic "llvm.nvvm.barrier.cta.sync.count"(%{{.+}}, %c256_i32{{(_[0-9]+)?}})
// CHECK-COUNT-8: m64n64k16
// CHECK-NOT: m64n8k16
// CHECK: nvvm.wgmma.wait.group.sync.aligned 0
// CHECK: nvvm.mbarrier.arrive %
// CHECK-NEXT: scf.yield
// CHECK-LABEL: gpu.func @attn_bwd_dq_convert_0(

// PTX-LABEL: .entry attn_bwd_dkdv_dq_0(
// PTX-COUNT-2: mbarrier.arrive.shared.b64
// PTX-NOT: mbarrier.arrive.shared.b64
// PTX-LABEL: .entry attn_bwd_dq_convert_0(
func.func @d8_dv256(%q: tensor<1x2x130x8xbf16>, %k: tensor<1x2x130x8xbf16>, %v: tensor<1x2x130x256xbf16>, %o: tensor<1x2x130x256xbf16>, %lse: tensor<1x2x130xf32>, %do: tensor<1x2x130x256xbf16>) -> (tensor<1x2x130x8xbf16>, tensor<1x2x130x8xbf16>, tensor<1x2x130x256xbf16>) {
  %dq, %dk, %dv = attn.attention_grad ins(%q, %k, %v : tensor<1x2x130x8xbf16>, tensor<1x2x130x8xbf16>, tensor<1x2x130x256xbf16>) forward(%o, %lse : tensor<1x2x130x256xbf16>, tensor<1x2x130xf32>) grad_output(%do : tensor<1x2x130x256xbf16>) -> tensor<1x2x130x8xbf16>, tensor<1x2x130x8xbf16>, tensor<1x2x130x256xbf16>
  return %dq, %dk, %dv : tensor<1x2x130x8xbf16>, tensor<1x2x130x8xbf16>, tensor<1x2x130x256xbf16>
}
