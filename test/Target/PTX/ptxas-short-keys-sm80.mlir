// The mma.sync forward on sm_80 with a mask tensor, D or Dv >= 128 and two
// key blocks (64 < Lk < 128; Lk = 128 with a causal rule, a window or a
// head dim above 192): with 64-key blocks both blocks are straight-line
// code and ptxas spilled 8-288 bytes (session 39's sweep: 152 bytes at
// D = 160 with a per-row mask and Lk = 100, 16 at D = 128, 24-28 with a
// causal rule at Lk = 128); the chooser takes 32-key blocks there, which
// keep a loop and fit. A longer key length keeps 64.
// REQUIRES: ptxas
// RUN: attn-compile %s --chip=sm_80 --split-kv=off -o %t.ptx | FileCheck %s --check-prefix=COMPILE
// RUN: ptxas -arch=sm_80 -v %t.ptx -o %t.cubin 2>&1 | FileCheck %s
// RUN: FileCheck %s --check-prefix=MANIFEST < %t.json

// COMPILE: (5 kernels, sm_80, 32-bit indices)
// CHECK-COUNT-5: 0 bytes spill stores, 0 bytes spill loads
// CHECK-NOT: bytes spill stores

// MANIFEST: "block_kv": 32,
// MANIFEST: "name": "attn_fwd_0",
// MANIFEST: "block_kv": 32,
// MANIFEST: "name": "attn_fwd_1",
// MANIFEST: "block_kv": 32,
// MANIFEST: "name": "attn_fwd_2",
// MANIFEST: "block_kv": 32,
// MANIFEST: "name": "attn_fwd_3",
// MANIFEST: "block_kv": 64,
// MANIFEST: "name": "attn_fwd_4",

func.func @d160_row_mask(%q: tensor<2x4x100x160xf16>, %k: tensor<2x4x100x160xf16>, %v: tensor<2x4x100x160xf16>, %m: tensor<2x1x100x100xi1>) -> tensor<2x4x100x160xf16> {
  %o = attn.attention ins(%q, %k, %v : tensor<2x4x100x160xf16>, tensor<2x4x100x160xf16>, tensor<2x4x100x160xf16>) mask(%m : tensor<2x1x100x100xi1>) -> tensor<2x4x100x160xf16>
  return %o : tensor<2x4x100x160xf16>
}

func.func @d128_row_mask_bf16(%q: tensor<2x4x30x128xbf16>, %k: tensor<2x4x65x128xbf16>, %v: tensor<2x4x65x128xbf16>, %m: tensor<2x1x30x65xi1>) -> tensor<2x4x30x128xbf16> {
  %o = attn.attention ins(%q, %k, %v : tensor<2x4x30x128xbf16>, tensor<2x4x65x128xbf16>, tensor<2x4x65x128xbf16>) mask(%m : tensor<2x1x30x65xi1>) {causal = #attn.causal<bottom_right>} -> tensor<2x4x30x128xbf16>
  return %o : tensor<2x4x30x128xbf16>
}

func.func @d224_key_mask_causal(%q: tensor<2x4x100x224xf16>, %k: tensor<2x4x128x224xf16>, %v: tensor<2x4x128x224xf16>, %m: tensor<2x1x1x128xi1>) -> tensor<2x4x100x224xf16> {
  %o = attn.attention ins(%q, %k, %v : tensor<2x4x100x224xf16>, tensor<2x4x128x224xf16>, tensor<2x4x128x224xf16>) mask(%m : tensor<2x1x1x128xi1>) {causal = #attn.causal<bottom_right>} -> tensor<2x4x100x224xf16>
  return %o : tensor<2x4x100x224xf16>
}

func.func @d192_bias_softcap(%q: tensor<1x2x100x192xbf16>, %k: tensor<1x2x100x192xbf16>, %v: tensor<1x2x100x192xbf16>, %m: tensor<1x2x100x100xbf16>) -> tensor<1x2x100x192xbf16> {
  %o = attn.attention ins(%q, %k, %v : tensor<1x2x100x192xbf16>, tensor<1x2x100x192xbf16>, tensor<1x2x100x192xbf16>) mask(%m : tensor<1x2x100x100xbf16>) {softcap = 30.0 : f32} -> tensor<1x2x100x192xbf16>
  return %o : tensor<1x2x100x192xbf16>
}

func.func @d160_row_mask_long(%q: tensor<2x4x100x160xf16>, %k: tensor<2x4x1000x160xf16>, %v: tensor<2x4x1000x160xf16>, %m: tensor<2x1x100x1000xi1>) -> tensor<2x4x100x160xf16> {
  %o = attn.attention ins(%q, %k, %v : tensor<2x4x100x160xf16>, tensor<2x4x1000x160xf16>, tensor<2x4x1000x160xf16>) mask(%m : tensor<2x1x100x1000xi1>) -> tensor<2x4x100x160xf16>
  return %o : tensor<2x4x100x160xf16>
}
