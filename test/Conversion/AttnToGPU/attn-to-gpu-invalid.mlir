// RUN: not attention-opt %s --attn-to-gpu 2>&1 | FileCheck %s
// RUN: not attn-compile %s -o %t.ptx 2>&1 | FileCheck %s
// RUN: not attn-compile %s --chip=sm_70 -o %t.ptx 2>&1 | FileCheck %s --check-prefix=CHIP

// CHECK: GPU code generation needs static head counts and head dims: dimension 3 of the query ('tensor<1x2x8x?xf16>') is dynamic (run-time sizes: batch, query and key lengths)
// CHIP: attn-compile: unsupported chip=sm_70 (expected sm_80, sm_86, sm_89, sm_90 or sm_90a)
func.func @dynamic_head_dim(%q: tensor<1x2x8x?xf16>, %k: tensor<1x2x8x?xf16>, %v: tensor<1x2x8x?xf16>) -> tensor<1x2x8x?xf16> {
  %o = attn.attention ins(%q, %k, %v : tensor<1x2x8x?xf16>, tensor<1x2x8x?xf16>, tensor<1x2x8x?xf16>) {scale = 0.125 : f32} -> tensor<1x2x8x?xf16>
  return %o : tensor<1x2x8x?xf16>
}
