// The shipped kernel configurations assemble with ptxas for sm_80 and
// sm_90a without spilling. Needs only the CUDA toolkit, not a GPU.
// REQUIRES: ptxas
// RUN: attn-compile %s --chip=sm_90a -o %t.sm90.ptx | FileCheck %s --check-prefix=COMPILE
// RUN: ptxas -arch=sm_90a -v %t.sm90.ptx -o %t.sm90.cubin 2>&1 | FileCheck %s --check-prefix=TC
// RUN: attn-compile %s --chip=sm_80 -o %t.sm80.ptx
// RUN: ptxas -arch=sm_80 -v %t.sm80.ptx -o %t.sm80.cubin 2>&1 | FileCheck %s --check-prefix=TC
// RUN: FileCheck %s --check-prefix=PTX < %t.sm90.ptx
// RUN: FileCheck %s --check-prefix=MANIFEST < %t.sm90.json
// The same ops on the CUDA-core kernel (--kernel=auto above gives the bf16/f16
// D = 64/128 ops the tensor-core kernel; ptxas-tensor-core.mlir covers more).
// RUN: attn-compile %s --kernel=cuda-core --chip=sm_90a -o %t.cc.sm90.ptx
// RUN: ptxas -arch=sm_90a -v %t.cc.sm90.ptx -o %t.cc.sm90.cubin 2>&1 | FileCheck %s
// RUN: attn-compile %s --kernel=cuda-core --chip=sm_80 -o %t.cc.sm80.ptx
// RUN: ptxas -arch=sm_80 -v %t.cc.sm80.ptx -o %t.cc.sm80.cubin 2>&1 | FileCheck %s

// The decoding op is a split-KV group (split_kv + combine).
// COMPILE: attn-compile: wrote {{.*}}.ptx and {{.*}}.json (5 kernels, sm_90a, 32-bit indices)
// PTX: .target sm_90a
// PTX: .visible .entry attn_fwd_0(
// MANIFEST: "format": "attn-kernels-v1"
// MANIFEST: "name": "attn_fwd_0"

// Every kernel: no spills (the CUDA-core build has no split-KV group).
// TC-COUNT-5: 0 bytes spill stores, 0 bytes spill loads
// TC-NOT: bytes spill stores
// CHECK-COUNT-4: 0 bytes spill stores, 0 bytes spill loads
// CHECK-NOT: bytes spill stores

func.func @d64_bf16_causal(%q: tensor<4x16x1024x64xbf16>, %k: tensor<4x16x1024x64xbf16>, %v: tensor<4x16x1024x64xbf16>) -> tensor<4x16x1024x64xbf16> {
  %o = attn.attention ins(%q, %k, %v : tensor<4x16x1024x64xbf16>, tensor<4x16x1024x64xbf16>, tensor<4x16x1024x64xbf16>) {causal = #attn.causal<top_left>} -> tensor<4x16x1024x64xbf16>
  return %o : tensor<4x16x1024x64xbf16>
}
func.func @d128_f16_lse(%q: tensor<2x16x1024x128xf16>, %k: tensor<2x16x1024x128xf16>, %v: tensor<2x16x1024x128xf16>) -> (tensor<2x16x1024x128xf16>, tensor<2x16x1024xf32>) {
  %o, %l = attn.attention ins(%q, %k, %v : tensor<2x16x1024x128xf16>, tensor<2x16x1024x128xf16>, tensor<2x16x1024x128xf16>) -> tensor<2x16x1024x128xf16>, tensor<2x16x1024xf32>
  return %o, %l : tensor<2x16x1024x128xf16>, tensor<2x16x1024xf32>
}
func.func @d128_everything(%q: tensor<1x8x512x128xbf16>, %k: tensor<1x2x512x128xbf16>, %v: tensor<1x2x512x128xbf16>, %m: tensor<1x1x512x512xf32>, %s: i64, %off: i64) -> tensor<1x8x512x128xbf16> {
  %o = attn.attention ins(%q, %k, %v : tensor<1x8x512x128xbf16>, tensor<1x2x512x128xbf16>, tensor<1x2x512x128xbf16>) mask(%m : tensor<1x1x512x512xf32>) rng(%s, %off) {causal = #attn.causal<bottom_right>, window = array<i64: 128, 0>, softcap = 30.0 : f32, dropout_p = 0.1 : f32} -> tensor<1x8x512x128xbf16>
  return %o : tensor<1x8x512x128xbf16>
}
func.func @decode_gqa(%q: tensor<8x32x1x128xbf16>, %k: tensor<8x8x4096x128xbf16>, %v: tensor<8x8x4096x128xbf16>) -> tensor<8x32x1x128xbf16> {
  %o = attn.attention ins(%q, %k, %v : tensor<8x32x1x128xbf16>, tensor<8x8x4096x128xbf16>, tensor<8x8x4096x128xbf16>) {causal = #attn.causal<bottom_right>} -> tensor<8x32x1x128xbf16>
  return %o : tensor<8x32x1x128xbf16>
}
