// attn.merge_partials' kernels (docs/kernel-manifest.md, "Merging partial
// results") assemble with ptxas without spilling on sm_90a and sm_80: f32,
// bf16 and f16 partials, Dv 8 to 256 (columns past 32 lanes and a ragged
// last column group), one to 64 partials.
// REQUIRES: ptxas
// RUN: attn-compile %s --chip=sm_90a -o %t.sm90.ptx | FileCheck %s --check-prefix=COMPILE
// RUN: ptxas -arch=sm_90a -v %t.sm90.ptx -o %t.sm90.cubin 2>&1 | FileCheck %s
// RUN: attn-compile %s --chip=sm_80 -o %t.sm80.ptx | FileCheck %s --check-prefix=COMPILE
// RUN: ptxas -arch=sm_80 -v %t.sm80.ptx -o %t.sm80.cubin 2>&1 | FileCheck %s

// COMPILE: (4 kernels,
// CHECK-COUNT-4: 0 bytes spill stores, 0 bytes spill loads
// CHECK-NOT: bytes spill stores

func.func @a(%po: tensor<8x4x32x1x128xf32>, %pl: tensor<8x4x32x1xf32>) -> (tensor<4x32x1x128xbf16>, tensor<4x32x1xf32>) {
  %o, %l = attn.merge_partials ins(%po, %pl : tensor<8x4x32x1x128xf32>, tensor<8x4x32x1xf32>) -> tensor<4x32x1x128xbf16>, tensor<4x32x1xf32>
  return %o, %l : tensor<4x32x1x128xbf16>, tensor<4x32x1xf32>
}
func.func @b(%po: tensor<2x1000x16x256xbf16>, %pl: tensor<2x1000x16xf32>) -> tensor<1000x16x256xbf16> {
  %o = attn.merge_partials ins(%po, %pl : tensor<2x1000x16x256xbf16>, tensor<2x1000x16xf32>) -> tensor<1000x16x256xbf16>
  return %o : tensor<1000x16x256xbf16>
}
func.func @c(%po: tensor<64x3x80xf16>, %pl: tensor<64x3xf32>) -> (tensor<3x80xf32>, tensor<3xf32>) {
  %o, %l = attn.merge_partials ins(%po, %pl : tensor<64x3x80xf16>, tensor<64x3xf32>) -> tensor<3x80xf32>, tensor<3xf32>
  return %o, %l : tensor<3x80xf32>, tensor<3xf32>
}
func.func @d(%po: tensor<1x7x8xf32>, %pl: tensor<1x7xf32>) -> tensor<7x8xf16> {
  %o = attn.merge_partials ins(%po, %pl : tensor<1x7x8xf32>, tensor<1x7xf32>) -> tensor<7x8xf16>
  return %o : tensor<7x8xf16>
}
