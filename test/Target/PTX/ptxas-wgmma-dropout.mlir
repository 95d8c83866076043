// Dropout on the wgmma forward (sm_90a, session 43): 64 keys per step
// (tc::chooseTiling; with 128, the keep bits spilled 4-52 bytes beside a
// mask, window, softcap, packed batch or the persistent schedule). The
// variants that spilled at 128 keys assemble without spills: a boolean
// key-padding mask with bottom-right causal at D = 128 and D = 192 / 128, a
// window at D = 80, every modifier at D = 64, a packed batch at D = 128,
// the persistent schedule at D = 64 and 128 (persistent=auto takes it with
// more tiles than SMs and no causal rule), and D = 256 (one consumer
// warpgroup) with a mask and a window. Needs only the CUDA toolkit.
// REQUIRES: ptxas
// RUN: attn-compile %s --chip=sm_90a -o %t.ptx | FileCheck %s --check-prefix=COMPILE
// RUN: FileCheck %s --check-prefix=MANIFEST < %t.json
// RUN: FileCheck %s --check-prefix=WGMMA < %t.json
// RUN: ptxas -arch=sm_90a -v %t.ptx -o %t.cubin 2>&1 | FileCheck %s

// COMPILE: (8 kernels, sm_90a,
// CHECK-COUNT-8: 0 bytes spill stores, 0 bytes spill loads
// CHECK-NOT: bytes spill stores

// Every kernel is the wgmma one with 64 keys per step (the manifest lists
// "codegen" before "name").
// MANIFEST-COUNT-8: "block_kv": 64,
// MANIFEST-NOT: "block_kv"
// WGMMA-COUNT-8: "mma": "wgmma",
// WGMMA-NOT: "mma":

func.func @d128_mask_causal(%q: tensor<2x8x1000x128xbf16>, %k: tensor<2x8x1000x128xbf16>, %v: tensor<2x8x1000x128xbf16>, %m: tensor<2x1x1x1000xi1>, %s: i64, %off: i64) -> tensor<2x8x1000x128xbf16> {
  %o = attn.attention ins(%q, %k, %v : tensor<2x8x1000x128xbf16>, tensor<2x8x1000x128xbf16>, tensor<2x8x1000x128xbf16>) mask(%m : tensor<2x1x1x1000xi1>) rng(%s, %off) {dropout_p = 0.1 : f32, causal = #attn.causal<bottom_right>} -> tensor<2x8x1000x128xbf16>
  return %o : tensor<2x8x1000x128xbf16>
}
func.func @mla_mask_causal(%q: tensor<2x8x1000x192xbf16>, %k: tensor<2x8x1000x192xbf16>, %v: tensor<2x8x1000x128xbf16>, %m: tensor<2x1x1x1000xi1>, %s: i64, %off: i64) -> tensor<2x8x1000x128xbf16> {
  %o = attn.attention ins(%q, %k, %v : tensor<2x8x1000x192xbf16>, tensor<2x8x1000x192xbf16>, tensor<2x8x1000x128xbf16>) mask(%m : tensor<2x1x1x1000xi1>) rng(%s, %off) {dropout_p = 0.1 : f32, causal = #attn.causal<bottom_right>} -> tensor<2x8x1000x128xbf16>
  return %o : tensor<2x8x1000x128xbf16>
}
func.func @d80_window(%q: tensor<2x8x1000x80xf16>, %k: tensor<2x8x1000x80xf16>, %v: tensor<2x8x1000x80xf16>, %s: i64, %off: i64) -> tensor<2x8x1000x80xf16> {
  %o = attn.attention ins(%q, %k, %v : tensor<2x8x1000x80xf16>, tensor<2x8x1000x80xf16>, tensor<2x8x1000x80xf16>) rng(%s, %off) {dropout_p = 0.1 : f32, causal = #attn.causal<bottom_right>, window = array<i64: 128, 0>} -> tensor<2x8x1000x80xf16>
  return %o : tensor<2x8x1000x80xf16>
}
func.func @d64_everything(%q: tensor<1x8x512x64xbf16>, %k: tensor<1x2x512x64xbf16>, %v: tensor<1x2x512x64xbf16>, %m: tensor<1x1x512x512xbf16>, %s: i64, %off: i64) -> (tensor<1x8x512x64xbf16>, tensor<1x8x512xf32>) {
  %o, %l = attn.attention ins(%q, %k, %v : tensor<1x8x512x64xbf16>, tensor<1x2x512x64xbf16>, tensor<1x2x512x64xbf16>) mask(%m : tensor<1x1x512x512xbf16>) rng(%s, %off) {causal = #attn.causal<bottom_right>, window = array<i64: 128, 0>, softcap = 30.0 : f32, dropout_p = 0.1 : f32} -> tensor<1x8x512x64xbf16>, tensor<1x8x512xf32>
  return %o, %l : tensor<1x8x512x64xbf16>, tensor<1x8x512xf32>
}
func.func @packed_d128_causal(%q: tensor<300x8x128xbf16>, %k: tensor<500x2x128xbf16>, %v: tensor<500x2x128xbf16>, %cq: tensor<4xi32>, %ck: tensor<4xi32>, %s: i64, %off: i64) -> (tensor<300x8x128xbf16>, tensor<8x300xf32>) {
  %o, %l = attn.varlen_attention ins(%q, %k, %v : tensor<300x8x128xbf16>, tensor<500x2x128xbf16>, tensor<500x2x128xbf16>) seqlens(%cq, %ck : tensor<4xi32>, tensor<4xi32>) rng(%s, %off) {dropout_p = 0.15 : f32, causal = #attn.causal<bottom_right>} -> tensor<300x8x128xbf16>, tensor<8x300xf32>
  return %o, %l : tensor<300x8x128xbf16>, tensor<8x300xf32>
}
func.func @d64_full_many_tiles(%q: tensor<8x16x1024x64xbf16>, %k: tensor<8x16x1024x64xbf16>, %v: tensor<8x16x1024x64xbf16>, %s: i64, %off: i64) -> tensor<8x16x1024x64xbf16> {
  %o = attn.attention ins(%q, %k, %v : tensor<8x16x1024x64xbf16>, tensor<8x16x1024x64xbf16>, tensor<8x16x1024x64xbf16>) rng(%s, %off) {dropout_p = 0.1 : f32} -> tensor<8x16x1024x64xbf16>
  return %o : tensor<8x16x1024x64xbf16>
}
func.func @d128_full_many_tiles(%q: tensor<4x16x2048x128xbf16>, %k: tensor<4x16x2048x128xbf16>, %v: tensor<4x16x2048x128xbf16>, %s: i64, %off: i64) -> tensor<4x16x2048x128xbf16> {
  %o = attn.attention ins(%q, %k, %v : tensor<4x16x2048x128xbf16>, tensor<4x16x2048x128xbf16>, tensor<4x16x2048x128xbf16>) rng(%s, %off) {dropout_p = 0.1 : f32} -> tensor<4x16x2048x128xbf16>
  return %o : tensor<4x16x2048x128xbf16>
}
func.func @d256_mask_window(%q: tensor<2x8x1000x256xbf16>, %k: tensor<2x8x1000x256xbf16>, %v: tensor<2x8x1000x256xbf16>, %m: tensor<2x1x1x1000xi1>, %s: i64, %off: i64) -> tensor<2x8x1000x256xbf16> {
  %o = attn.attention ins(%q, %k, %v : tensor<2x8x1000x256xbf16>, tensor<2x8x1000x256xbf16>, tensor<2x8x1000x256xbf16>) mask(%m : tensor<2x1x1x1000xi1>) rng(%s, %off) {dropout_p = 0.1 : f32, causal = #attn.causal<bottom_right>, window = array<i64: 128, 0>} -> tensor<2x8x1000x256xbf16>
  return %o : tensor<2x8x1000x256xbf16>
}
