// Wide f32 heads on the CUDA-core kernel: the K/V tiles are static shared
// memory (at most 48 KiB, which ptxas enforces for sm_80), so the key block
// shrinks with the row width (64 keys would need 64 KiB at D = Dv = 128 in
// f32); heads too wide for even one key row are a diagnostic.
// REQUIRES: ptxas
// RUN: attn-compile %s --chip=sm_80 -o %t.sm80.ptx
// RUN: ptxas -arch=sm_80 -v %t.sm80.ptx -o %t.sm80.cubin 2>&1 | FileCheck %s
// RUN: attn-compile %s --chip=sm_90a -o %t.sm90.ptx
// RUN: ptxas -arch=sm_90a -v %t.sm90.ptx -o %t.sm90.cubin 2>&1 | FileCheck %s
// RUN: attn-compile %s --emit=gpu -o %t.gpu.mlir
// RUN: FileCheck %s --check-prefix=TILES < %t.gpu.mlir
// RUN: sed 's/x256xf32/x8192xf32/g' %s > %t.huge.mlir
// RUN: not attn-compile %t.huge.mlir -o %t.huge.ptx 2>&1 | FileCheck %s --check-prefix=HUGE

// CHECK-COUNT-2: 0 bytes spill stores, 0 bytes spill loads
// CHECK-NOT: bytes spill stores
// TILES: gpu.func @attn_fwd_0({{.*}}) workgroup({{.*}} : memref<32x128xf32, #gpu.address_space<workgroup>>, {{.*}} : memref<32x128xf32, #gpu.address_space<workgroup>>)
// TILES: gpu.func @attn_fwd_1({{.*}}) workgroup({{.*}} : memref<16x256xf32, #gpu.address_space<workgroup>>, {{.*}} : memref<16x256xf32, #gpu.address_space<workgroup>>)
// HUGE: error: 'attn.attention' op GPU code generation: head dims 8192 and 8192 are too wide for the CUDA-core kernel: one key row of K and V takes 65536 bytes of shared memory (at most 49152)
func.func @f32_d128(%q: tensor<1x4x100x128xf32>, %k: tensor<1x2x150x128xf32>, %v: tensor<1x2x150x128xf32>) -> (tensor<1x4x100x128xf32>, tensor<1x4x100xf32>) {
  %o, %l = attn.attention ins(%q, %k, %v : tensor<1x4x100x128xf32>, tensor<1x2x150x128xf32>, tensor<1x2x150x128xf32>) {causal = #attn.causal<bottom_right>} -> tensor<1x4x100x128xf32>, tensor<1x4x100xf32>
  return %o, %l : tensor<1x4x100x128xf32>, tensor<1x4x100xf32>
}
func.func @f32_d256(%q: tensor<1x2x70x256xf32>, %k: tensor<1x2x90x256xf32>, %v: tensor<1x2x90x256xf32>) -> (tensor<1x2x70x256xf32>, tensor<1x2x70xf32>) {
  %o, %l = attn.attention ins(%q, %k, %v : tensor<1x2x70x256xf32>, tensor<1x2x90x256xf32>, tensor<1x2x90x256xf32>) {window = array<i64: 30, 5>} -> tensor<1x2x70x256xf32>, tensor<1x2x70xf32>
  return %o, %l : tensor<1x2x70x256xf32>, tensor<1x2x70xf32>
}
