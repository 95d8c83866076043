// RUN: attention-opt %s -split-input-file --attn-to-gpu="kernel=cuda-core" | FileCheck %s

// One kernel per op, with the tensors as flat memrefs in manifest order and
// the K/V blocks in workgroup memory. D = 64: one thread per query row.
// CHECK: module attributes {gpu.container_module}
// CHECK: gpu.module @attn_kernels
// CHECK: gpu.func @attn_fwd_0(%{{.+}}: memref<65536xbf16>, %{{.+}}: memref<16384xbf16>, %{{.+}}: memref<16384xbf16>, %{{.+}}: memref<65536xbf16>, %{{.+}}: memref<1024xf32>)
// CHECK-SAME: workgroup(%[[KS:.+]] : memref<64x64xbf16, #gpu.address_space<workgroup>>, %[[VS:.+]] : memref<64x64xbf16, #gpu.address_space<workgroup>>)
// CHECK-SAME: kernel
// CHECK-SAME: known_block_size = array<i32: 64, 1, 1>
//   Visible key blocks of the query block (causal bounds), staged K/V.
// CHECK:   arith.ceildivsi
// CHECK:   scf.for
// CHECK:     gpu.barrier
// CHECK:     memref.store %{{.+}}, %[[KS]]
// CHECK:     memref.store %{{.+}}, %[[VS]]
// CHECK:     gpu.barrier
//   Per key: the score, then the online max/sum/accumulator update.
// CHECK:     scf.for
// CHECK:       arith.mulf
// CHECK:       arith.addf
// CHECK:       arith.maximumf
// CHECK:       math.exp
// CHECK:       math.exp
// CHECK:   arith.truncf
// CHECK:   math.log
func.func @causal_gqa(%q: tensor<1x4x256x64xbf16>, %k: tensor<1x1x256x64xbf16>, %v: tensor<1x1x256x64xbf16>) -> (tensor<1x4x256x64xbf16>, tensor<1x4x256xf32>) {
  %o, %l = attn.attention ins(%q, %k, %v : tensor<1x4x256x64xbf16>, tensor<1x1x256x64xbf16>, tensor<1x1x256x64xbf16>) {causal = #attn.causal<top_left>} -> tensor<1x4x256x64xbf16>, tensor<1x4x256xf32>
  return %o, %l : tensor<1x4x256x64xbf16>, tensor<1x4x256xf32>
}

// -----

// D = 128: two threads per row; their partial dot products meet in a
// butterfly shuffle. The i1 mask is passed as bytes; dropout takes seed and
// offset by value.
// CHECK: // -----
// CHECK: gpu.func @attn_fwd_0
// CHECK-SAME: memref<2048xi8>, %{{.+}}: i64, %{{.+}}: i64, %{{.+}}: memref<2048xf16>
// CHECK-SAME: known_block_size = array<i32: 32, 1, 1>
// CHECK: gpu.shuffle  xor
// CHECK: arith.mului_extended
func.func @masked_dropout(%q: tensor<1x1x16x128xf16>, %k: tensor<1x1x128x128xf16>, %v: tensor<1x1x128x128xf16>, %m: tensor<1x1x16x128xi1>, %s: i64, %o: i64) -> tensor<1x1x16x128xf16> {
  %r = attn.attention ins(%q, %k, %v : tensor<1x1x16x128xf16>, tensor<1x1x128x128xf16>, tensor<1x1x128x128xf16>) mask(%m : tensor<1x1x16x128xi1>) rng(%s, %o) {dropout_p = 0.1 : f32} -> tensor<1x1x16x128xf16>
  return %r : tensor<1x1x16x128xf16>
}

// -----

// CHECK: // -----
// CHECK-NOT: gpu.module
func.func @no_attention(%a: tensor<4xf32>) -> tensor<4xf32> {
  return %a : tensor<4xf32>
}
