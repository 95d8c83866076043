// RUN: attention-opt %s -split-input-file --attn-to-gpu="kernel=cuda-core" | FileCheck %s
// RUN: attention-opt %s -split-input-file --attn-to-gpu="kernel=cuda-core" | FileCheck %s --check-prefix=NOLQLK

// The backward kernels of attn.attention_grad (AttentionGradKernelBuilder.cpp):
// attn_bwd_dkdv_<n> (grid over key blocks) and attn_bwd_dq_<n> (grid over
// query blocks), CUDA cores, parameters in manifest order
// (docs/kernel-manifest.md, "Backward kernels").
//
// Neither kernel materializes anything of size Lq x Lk (Lq = 200, Lk = 130
// below; 200 * 130 = 26000), allocates global scratch, or accumulates with
// atomics: every gradient element is summed by one thread in a fixed order.
// NOLQLK-NOT: {{[^0-9](200x130|130x200)[^0-9]}}
// NOLQLK-NOT: memref<26000x
// NOLQLK-NOT: memref.alloc
// NOLQLK-NOT: atomic

// bf16, D = 64: T = 2 threads per row (32 head-dim elements each, lane l
// holding elements l, l + 2, ...), GQA with 4 query heads per kv head,
// bottom-right causal, Lq and Lk not multiples of the 64-row tiles.
//
// dK/dV: block = 64 keys x 2 threads. Q tiles (64 x 64) and, per row, dO,
// lse and D_i = dO_i . O_i in shared memory.
// CHECK-LABEL: gpu.func @attn_bwd_dkdv_0(
// CHECK-SAME: %{{.+}}: memref<51200xbf16>, %{{.+}}: memref<8320xbf16>, %{{.+}}: memref<8320xbf16>, %{{.+}}: memref<51200xbf16>, %{{.+}}: memref<800xf32>, %{{.+}}: memref<51200xbf16>, %[[DK:.+]]: memref<8320xbf16>, %[[DV:.+]]: memref<8320xbf16>)
// CHECK-SAME: workgroup(%[[QS:.+]] : memref<64x64xbf16, #gpu.address_space<workgroup>>, %[[DOS:.+]] : memref<64x64xbf16, #gpu.address_space<workgroup>>, %[[LSES:.+]] : memref<64xf32, #gpu.address_space<workgroup>>, %[[DS:.+]] : memref<64xf32, #gpu.address_space<workgroup>>)
// CHECK-SAME: kernel attributes {known_block_size = array<i32: 128, 1, 1>}
//   Key block, kv head, batch.
// CHECK:   gpu.block_id  x
// CHECK:   gpu.block_id  y
// CHECK:   gpu.block_id  z
//   The query blocks that can see this key block (causal bounds).
// CHECK:   arith.ceildivsi
//   The 4 query heads of the group, then the visible query blocks; dK and dV
//   (32 + 32 f32 slots) are loop-carried.
// CHECK:   scf.for %{{.+}} = %{{.+}} to %c4{{(_[0-9]+)?}} step %{{.+}} iter_args({{.*}}) -> (f32, f32
// CHECK:     scf.for {{.*}} -> (f32, f32
// CHECK:       gpu.barrier
//   Q tile, element by element over the block's 128 threads.
// CHECK:       scf.for %{{.+}} = %thread_id_x to %c4096 step %c128 {
// CHECK:         memref.store %{{.+}}, %[[QS]]
//   Per row group: D_i (a shuffle across the row's 2 threads), dO, lse, D_i.
// CHECK:       gpu.shuffle  xor %{{.+}}, %c1_i32
// CHECK:       memref.store %{{.+}}, %[[DOS]]
// CHECK:       memref.store %{{.+}}, %[[LSES]]
// CHECK:       memref.store %{{.+}}, %[[DS]]
// CHECK:       gpu.barrier
//   Per query row of the tile: q.k and dO.v (shuffles), P from lse, then
//   dK += dS q and dV += P dO.
// CHECK:       scf.for {{.*}} -> (f32, f32
// CHECK:         memref.load %[[QS]]
// CHECK:         gpu.shuffle  xor
// CHECK:         memref.load %[[DOS]]
// CHECK:         gpu.shuffle  xor
// CHECK:         memref.load %[[LSES]]
// CHECK:         memref.load %[[DS]]
// CHECK:         arith.cmpi sle
// CHECK:         math.exp
// CHECK:         memref.load %[[QS]]
// CHECK:         memref.load %[[DOS]]
// CHECK:         scf.yield
//   Epilogue: keys inside Lk store scale * dK and dV in bf16.
// CHECK:   scf.if
// CHECK:     arith.mulf
// CHECK:     arith.truncf
// CHECK:     memref.store %{{.+}}, %[[DK]]
// CHECK:     memref.store %{{.+}}, %[[DV]]
// CHECK:   gpu.return
//
// dQ: block = 64 query rows x 2 threads; K and V tiles of 64 keys in shared
// memory, the visible key blocks only.
// CHECK-LABEL: gpu.func @attn_bwd_dq_0(
// CHECK-SAME: %{{.+}}: memref<51200xbf16>, %{{.+}}: memref<8320xbf16>, %{{.+}}: memref<8320xbf16>, %{{.+}}: memref<51200xbf16>, %{{.+}}: memref<800xf32>, %{{.+}}: memref<51200xbf16>, %[[DQ:.+]]: memref<51200xbf16>)
// CHECK-SAME: workgroup(%[[KS:.+]] : memref<64x64xbf16, #gpu.address_space<workgroup>>, %[[VS:.+]] : memref<64x64xbf16, #gpu.address_space<workgroup>>)
// CHECK-SAME: kernel attributes {known_block_size = array<i32: 128, 1, 1>}
//   D_i of the thread's row.
// CHECK:   gpu.shuffle  xor
// CHECK:   arith.ceildivsi
// CHECK:   scf.for {{.*}} -> (f32, f32
// CHECK:     gpu.barrier
// CHECK:     memref.store %{{.+}}, %[[KS]]
// CHECK:     memref.store %{{.+}}, %[[VS]]
// CHECK:     gpu.barrier
// CHECK:     scf.for {{.*}} -> (f32, f32
// CHECK:       memref.load %[[KS]]
// CHECK:       gpu.shuffle  xor
// CHECK:       memref.load %[[VS]]
// CHECK:       gpu.shuffle  xor
// CHECK:       math.exp
// CHECK:       memref.load %[[KS]]
// CHECK:       scf.yield
// CHECK:   scf.if
// CHECK:     arith.truncf
// CHECK:     memref.store %{{.+}}, %[[DQ]]
// CHECK:   gpu.return
func.func @causal_gqa(%q: tensor<1x4x200x64xbf16>, %k: tensor<1x1x130x64xbf16>, %v: tensor<1x1x130x64xbf16>, %o: tensor<1x4x200x64xbf16>, %lse: tensor<1x4x200xf32>, %do: tensor<1x4x200x64xbf16>) -> (tensor<1x4x200x64xbf16>, tensor<1x1x130x64xbf16>, tensor<1x1x130x64xbf16>) {
  %dq, %dk, %dv = attn.attention_grad ins(%q, %k, %v : tensor<1x4x200x64xbf16>, tensor<1x1x130x64xbf16>, tensor<1x1x130x64xbf16>) forward(%o, %lse : tensor<1x4x200x64xbf16>, tensor<1x4x200xf32>) grad_output(%do : tensor<1x4x200x64xbf16>) {causal = #attn.causal<bottom_right>} -> tensor<1x4x200x64xbf16>, tensor<1x1x130x64xbf16>, tensor<1x1x130x64xbf16>
  return %dq, %dk, %dv : tensor<1x4x200x64xbf16>, tensor<1x1x130x64xbf16>, tensor<1x1x130x64xbf16>
}

// -----

// f32, D = Dv = 128: T = 4 (xor shuffles 1 and 2); f32 tiles of 64 rows
// would not fit 48 KiB, so dkdv stages 32 query rows and dq 32 keys at a time
// (the blocks still own 64 keys / 64 query rows). The i1 mask is passed as bytes, seed and offset by value;
// dropout draws the forward's Philox bits (mului_extended) and softcap
// multiplies dS by 1 - tanh^2. The forward op's kernel comes first.
// CHECK: // -----
// CHECK-LABEL: gpu.func @attn_fwd_0(
// CHECK-LABEL: gpu.func @attn_bwd_dkdv_0(
// CHECK-SAME: memref<8192xi8>, %{{.+}}: i64, %{{.+}}: i64, %{{.+}}: memref<16384xf32>, %{{.+}}: memref<16384xf32>)
// CHECK-SAME: workgroup(%{{.+}} : memref<32x128xf32, #gpu.address_space<workgroup>>, %{{.+}} : memref<32x128xf32, #gpu.address_space<workgroup>>, %{{.+}} : memref<32xf32, #gpu.address_space<workgroup>>, %{{.+}} : memref<32xf32, #gpu.address_space<workgroup>>)
// CHECK-SAME: known_block_size = array<i32: 256, 1, 1>
// CHECK:       gpu.shuffle  xor %{{.+}}, %c1_i32
// CHECK:       gpu.shuffle  xor %{{.+}}, %c2_i32
// CHECK:       math.tanh
// CHECK:       math.exp
// CHECK:       arith.mului_extended
// CHECK:       arith.subf
// CHECK:   gpu.return
// CHECK-LABEL: gpu.func @attn_bwd_dq_0(
// CHECK-SAME: memref<8192xi8>, %{{.+}}: i64, %{{.+}}: i64, %{{.+}}: memref<16384xf32>)
// CHECK-SAME: workgroup(%{{.+}} : memref<32x128xf32, #gpu.address_space<workgroup>>, %{{.+}} : memref<32x128xf32, #gpu.address_space<workgroup>>)
// CHECK-SAME: known_block_size = array<i32: 256, 1, 1>
// CHECK:       math.tanh
// CHECK:       math.exp
// CHECK:       arith.mului_extended
// CHECK:   gpu.return
func.func @f32_mask_dropout_softcap(%q: tensor<1x2x64x128xf32>, %k: tensor<1x1x128x128xf32>, %v: tensor<1x1x128x128xf32>, %do: tensor<1x2x64x128xf32>, %m: tensor<1x1x64x128xi1>, %s: i64, %off: i64) -> (tensor<1x2x64x128xf32>, tensor<1x1x128x128xf32>, tensor<1x1x128x128xf32>) {
  %o, %lse = attn.attention ins(%q, %k, %v : tensor<1x2x64x128xf32>, tensor<1x1x128x128xf32>, tensor<1x1x128x128xf32>) mask(%m : tensor<1x1x64x128xi1>) rng(%s, %off) {softcap = 20.0 : f32, dropout_p = 0.1 : f32} -> tensor<1x2x64x128xf32>, tensor<1x2x64xf32>
  %dq, %dk, %dv = attn.attention_grad ins(%q, %k, %v : tensor<1x2x64x128xf32>, tensor<1x1x128x128xf32>, tensor<1x1x128x128xf32>) forward(%o, %lse : tensor<1x2x64x128xf32>, tensor<1x2x64xf32>) grad_output(%do : tensor<1x2x64x128xf32>) mask(%m : tensor<1x1x64x128xi1>) rng(%s, %off) {softcap = 20.0 : f32, dropout_p = 0.1 : f32} -> tensor<1x2x64x128xf32>, tensor<1x1x128x128xf32>, tensor<1x1x128x128xf32>
  return %dq, %dk, %dv : tensor<1x2x64x128xf32>, tensor<1x1x128x128xf32>, tensor<1x1x128x128xf32>
}

// -----

// Head dims that are not multiples of T are padded: D = 80, Dv = 48 give
// T = 4 (20 and 12 slots per thread; shared tiles padded to 80 and 48
// columns, here exact). Lq = 1 (decoding) gives a 16-row dq block.
// CHECK: // -----
// CHECK-LABEL: gpu.func @attn_bwd_dkdv_0(
// CHECK-SAME: workgroup(%{{.+}} : memref<16x80xf16, #gpu.address_space<workgroup>>, %{{.+}} : memref<16x48xf16, #gpu.address_space<workgroup>>
// CHECK-SAME: known_block_size = array<i32: 256, 1, 1>
// CHECK-LABEL: gpu.func @attn_bwd_dq_0(
// CHECK-SAME: workgroup(%{{.+}} : memref<64x80xf16, #gpu.address_space<workgroup>>, %{{.+}} : memref<64x48xf16, #gpu.address_space<workgroup>>)
// CHECK-SAME: known_block_size = array<i32: 64, 1, 1>
func.func @odd_dims_decode(%q: tensor<1x3x1x80xf16>, %k: tensor<1x1x70x80xf16>, %v: tensor<1x1x70x48xf16>, %o: tensor<1x3x1x48xf16>, %lse: tensor<1x3x1xf32>, %do: tensor<1x3x1x48xf16>) -> (tensor<1x3x1x80xf16>, tensor<1x1x70x80xf16>, tensor<1x1x70x48xf16>) {
  %dq, %dk, %dv = attn.attention_grad ins(%q, %k, %v : tensor<1x3x1x80xf16>, tensor<1x1x70x80xf16>, tensor<1x1x70x48xf16>) forward(%o, %lse : tensor<1x3x1x48xf16>, tensor<1x3x1xf32>) grad_output(%do : tensor<1x3x1x48xf16>) {causal = #attn.causal<bottom_right>, window = array<i64: 8, -1>} -> tensor<1x3x1x80xf16>, tensor<1x1x70x80xf16>, tensor<1x1x70x48xf16>
  return %dq, %dk, %dv : tensor<1x3x1x80xf16>, tensor<1x1x70x80xf16>, tensor<1x1x70x48xf16>
}
