// The CUDA-core forward kernel with an explicit dropout keep mask assembles
// with ptxas for sm_80 and sm_90a without spilling. Needs only the CUDA
// toolkit, not a GPU.
// REQUIRES: ptxas
// RUN: attn-compile %s --chip=sm_90a -o %t.sm90.ptx
// RUN: ptxas -arch=sm_90a -v %t.sm90.ptx -o %t.sm90.cubin 2>&1 | FileCheck %s
// RUN: attn-compile %s --chip=sm_80 -o %t.sm80.ptx
// RUN: ptxas -arch=sm_80 -v %t.sm80.ptx -o %t.sm80.cubin 2>&1 | FileCheck %s

// CHECK-COUNT-2: 0 bytes spill stores, 0 bytes spill loads
// CHECK-NOT: bytes spill stores

func.func @d64_f16_keep(%q: tensor<2x8x256x64xf16>, %k: tensor<2x2x256x64xf16>, %v: tensor<2x2x256x64xf16>, %keep: tensor<2x8x256x256xi1>) -> (tensor<2x8x256x64xf16>, tensor<2x8x256xf32>) {
  %o, %l = attn.attention ins(%q, %k, %v : tensor<2x8x256x64xf16>, tensor<2x2x256x64xf16>, tensor<2x2x256x64xf16>) dropout_mask(%keep : tensor<2x8x256x256xi1>) {causal = #attn.causal<bottom_right>, dropout_p = 0.1 : f32} -> tensor<2x8x256x64xf16>, tensor<2x8x256xf32>
  return %o, %l : tensor<2x8x256x64xf16>, tensor<2x8x256xf32>
}

func.func @d64_f32_broadcast_keep(%q: tensor<1x4x100x64xf32>, %k: tensor<1x4x130x64xf32>, %v: tensor<1x4x130x64xf32>, %m: tensor<1x1x100x130xf32>, %keep: tensor<1x1x1x130xi1>) -> tensor<1x4x100x64xf32> {
  %o = attn.attention ins(%q, %k, %v : tensor<1x4x100x64xf32>, tensor<1x4x130x64xf32>, tensor<1x4x130x64xf32>) mask(%m : tensor<1x1x100x130xf32>) dropout_mask(%keep : tensor<1x1x1x130xi1>) {dropout_p = 0.5 : f32, softcap = 30.0 : f32} -> tensor<1x4x100x64xf32>
  return %o : tensor<1x4x100x64xf32>
}
