// attn-gpu-pipeline to the end: a gpu.binary holding the PTX of every kernel
// (gpu-module-to-binary links libdevice from the CUDA toolkit), from
// attention-opt and from the stock mlir-opt with the plugins.
// REQUIRES: libdevice
// RUN: attention-opt %s --attn-gpu-pipeline="chip=sm_80 toolkit=%cuda_toolkit" \
// RUN:   | FileCheck %s
// RUN: mlir-opt %s --load-dialect-plugin=%attn_dialect_plugin \
// RUN:   --load-pass-plugin=%attn_pass_plugin \
// RUN:   --pass-pipeline='builtin.module(attn-gpu-pipeline{chip=sm_80 toolkit=%cuda_toolkit})' \
// RUN:   | FileCheck %s

// CHECK-LABEL: func.func @causal_gqa
// CHECK:         attn.attention
// CHECK-NOT:   gpu.module
// CHECK:       gpu.binary @attn_kernels [#gpu.object<#nvvm.target<O = 3, chip = "sm_80", features = "+ptx80">
// CHECK-SAME:    .target sm_80
// CHECK-SAME:    .entry attn_fwd_0(

func.func @causal_gqa(%q: tensor<1x4x128x64xbf16>, %k: tensor<1x1x128x64xbf16>, %v: tensor<1x1x128x64xbf16>) -> (tensor<1x4x128x64xbf16>, tensor<1x4x128xf32>) {
  %o, %l = attn.attention ins(%q, %k, %v : tensor<1x4x128x64xbf16>, tensor<1x1x128x64xbf16>, tensor<1x1x128x64xbf16>) {causal = #attn.causal<top_left>} -> tensor<1x4x128x64xbf16>, tensor<1x4x128xf32>
  return %o, %l : tensor<1x4x128x64xbf16>, tensor<1x4x128xf32>
}
