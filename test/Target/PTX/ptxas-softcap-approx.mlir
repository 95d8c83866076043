// softcap_approx (docs/semantics.md section 3.1) on every kernel family: the
// wgmma forward and warp-specialized dkdv_dq backward (sm_90a), the mma.sync
// ones (sm_80) and the CUDA-core f32 kernels evaluate the softcap's tanh with
// tanh.approx.f32 and its argument with a multiplication (no IEEE division,
// which the exact softcap's libdevice tanhf and s / softcap cost); the
// manifest says so; every kernel assembles without spills.
// REQUIRES: ptxas
// RUN: attn-compile %s --chip=sm_90a -o %t.sm90.ptx 2>/dev/null | FileCheck %s --check-prefix=COMPILE90
// RUN: FileCheck %s --check-prefixes=PTX,PTX90 < %t.sm90.ptx
// RUN: FileCheck %s --check-prefix=NODIV < %t.sm90.ptx
// RUN: FileCheck %s --check-prefix=MANIFEST < %t.sm90.json
// RUN: ptxas -arch=sm_90a -v %t.sm90.ptx -o %t.sm90.cubin 2>&1 | FileCheck %s --check-prefix=SPILLS
// RUN: attn-compile %s --chip=sm_80 -o %t.sm80.ptx 2>/dev/null | FileCheck %s --check-prefix=COMPILE80
// RUN: FileCheck %s --check-prefixes=PTX,PTX80 < %t.sm80.ptx
// RUN: FileCheck %s --check-prefix=NODIV < %t.sm80.ptx
// RUN: ptxas -arch=sm_80 -v %t.sm80.ptx -o %t.sm80.cubin 2>&1 | FileCheck %s --check-prefix=SPILLS

// COMPILE90: (7 kernels, sm_90a,
// COMPILE80: (7 kernels, sm_80,

// PTX-LABEL: .entry attn_fwd_0(
// PTX: tanh.approx.f32
// PTX-LABEL: .entry attn_fwd_1(
// PTX: tanh.approx.f32
// PTX90-LABEL: .entry attn_bwd_dkdv_dq_0(
// PTX90: tanh.approx.f32
// PTX80-LABEL: .entry attn_bwd_dkdv_0(
// PTX80: tanh.approx.f32
// PTX80-LABEL: .entry attn_bwd_dq_0(
// PTX80: tanh.approx.f32
// PTX-LABEL: .entry attn_bwd_dkdv_1(
// PTX: tanh.approx.f32
// PTX-LABEL: .entry attn_bwd_dq_1(
// PTX: tanh.approx.f32

// NODIV-NOT: div.rn.f32

// MANIFEST-COUNT-7: "softcap_approx": true

// SPILLS-COUNT-7: 0 bytes spill stores, 0 bytes spill loads
// SPILLS-NOT: bytes spill stores

func.func @d128(%q: tensor<1x4x256x128xbf16>, %k: tensor<1x2x256x128xbf16>, %v: tensor<1x2x256x128xbf16>, %do: tensor<1x4x256x128xbf16>) -> (tensor<1x4x256x128xbf16>, tensor<1x4x256x128xbf16>, tensor<1x2x256x128xbf16>, tensor<1x2x256x128xbf16>) {
  %o, %l = attn.attention ins(%q, %k, %v : tensor<1x4x256x128xbf16>, tensor<1x2x256x128xbf16>, tensor<1x2x256x128xbf16>) {softcap = 30.0 : f32, softcap_approx, causal = #attn.causal<bottom_right>} -> tensor<1x4x256x128xbf16>, tensor<1x4x256xf32>
  %dq, %dk, %dv = attn.attention_grad ins(%q, %k, %v : tensor<1x4x256x128xbf16>, tensor<1x2x256x128xbf16>, tensor<1x2x256x128xbf16>) forward(%o, %l : tensor<1x4x256x128xbf16>, tensor<1x4x256xf32>) grad_output(%do : tensor<1x4x256x128xbf16>) {softcap = 30.0 : f32, softcap_approx, causal = #attn.causal<bottom_right>} -> tensor<1x4x256x128xbf16>, tensor<1x2x256x128xbf16>, tensor<1x2x256x128xbf16>
  return %o, %dq, %dk, %dv : tensor<1x4x256x128xbf16>, tensor<1x4x256x128xbf16>, tensor<1x2x256x128xbf16>, tensor<1x2x256x128xbf16>
}
func.func @f32(%q: tensor<1x2x100x64xf32>, %k: tensor<1x2x100x64xf32>, %v: tensor<1x2x100x64xf32>, %do: tensor<1x2x100x64xf32>) -> (tensor<1x2x100x64xf32>, tensor<1x2x100x64xf32>, tensor<1x2x100x64xf32>, tensor<1x2x100x64xf32>) {
  %o, %l = attn.attention ins(%q, %k, %v : tensor<1x2x100x64xf32>, tensor<1x2x100x64xf32>, tensor<1x2x100x64xf32>) {softcap = 30.0 : f32, softcap_approx} -> tensor<1x2x100x64xf32>, tensor<1x2x100xf32>
  %dq, %dk, %dv = attn.attention_grad ins(%q, %k, %v : tensor<1x2x100x64xf32>, tensor<1x2x100x64xf32>, tensor<1x2x100x64xf32>) forward(%o, %l : tensor<1x2x100x64xf32>, tensor<1x2x100xf32>) grad_output(%do : tensor<1x2x100x64xf32>) {softcap = 30.0 : f32, softcap_approx} -> tensor<1x2x100x64xf32>, tensor<1x2x100x64xf32>, tensor<1x2x100x64xf32>
  return %o, %dq, %dk, %dv : tensor<1x2x100x64xf32>, tensor<1x2x100x64xf32>, tensor<1x2x100x64xf32>, tensor<1x2x100x64xf32>
}
