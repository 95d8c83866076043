// RUN: attention-opt %s \
// RUN:   --pass-pipeline='builtin.module(gpu.module(attn-approx-math-to-nvvm))' | FileCheck %s

// An f32 math.tanh that allows approximation (fastmath<afn>, which the
// kernel builders set under softcap_approx) becomes tanh.approx.f32; exact
// ones (no flag, or other flags only) and other types stay for
// convert-gpu-to-nvvm's libdevice call.

// CHECK-LABEL: gpu.func @tanhs(
// CHECK-SAME: %[[X:.*]]: f32, %[[H:.*]]: f16)
// CHECK: %[[A:.*]] = llvm.inline_asm asm_dialect = att "tanh.approx.f32 $0, $1;", "=f,f" %[[X]] : (f32) -> f32
// CHECK: %[[E:.*]] = math.tanh %[[X]] : f32
// CHECK: %[[C:.*]] = math.tanh %[[X]] fastmath<contract> : f32
// CHECK: %[[F:.*]] = llvm.inline_asm asm_dialect = att "tanh.approx.f32 $0, $1;", "=f,f" %[[X]] : (f32) -> f32
// CHECK: %[[G:.*]] = math.tanh %[[H]] fastmath<afn> : f16
// CHECK: gpu.return %[[A]], %[[E]], %[[C]], %[[F]], %[[G]]
gpu.module @m {
  gpu.func @tanhs(%x: f32, %h: f16) -> (f32, f32, f32, f32, f16) {
    %a = math.tanh %x fastmath<afn> : f32
    %e = math.tanh %x : f32
    %c = math.tanh %x fastmath<contract> : f32
    %f = math.tanh %x fastmath<fast> : f32
    %g = math.tanh %h fastmath<afn> : f16
    gpu.return %a, %e, %c, %f, %g : f32, f32, f32, f32, f16
  }
}
