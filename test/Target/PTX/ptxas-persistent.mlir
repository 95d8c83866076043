// attn-compile --persistent=on (docs/architecture.md, "The persistent
// forward"): the TMA-fed wgmma forward as a persistent kernel, one block per
// SM (at most one per tile) looping over (query block, head, batch) tiles
// with two Q tiles in shared memory; D = 256, where the second Q tile does
// not fit, keeps one block per tile. Every kernel assembles without spills.
// The default (--persistent=auto) takes it for the cross-attention only
// (the causal one is left to one block per tile); --persistent=off never.
// REQUIRES: ptxas
// RUN: attn-compile %s --chip=sm_90a --persistent=on -o %t.ptx | FileCheck %s --check-prefix=COMPILE
// RUN: FileCheck %s --check-prefix=MANIFEST < %t.json
// RUN: FileCheck %s --check-prefix=PTX < %t.ptx
// RUN: ptxas -arch=sm_90a -v %t.ptx -o %t.cubin 2>&1 | FileCheck %s --check-prefix=SPILLS
// RUN: attn-compile %s --chip=sm_90a -o %t.auto.ptx
// RUN: FileCheck %s --check-prefix=AUTO < %t.auto.json
// RUN: attn-compile %s --chip=sm_90a --persistent=off -o %t.grid.ptx
// RUN: FileCheck %s --check-prefix=GRID < %t.grid.json
// RUN: not attn-compile %s --chip=sm_80 --persistent=on -o %t.sm80.ptx 2>&1 | FileCheck %s --check-prefix=SM80

// COMPILE: (3 kernels, sm_90a,

// MANIFEST: "schedule": "persistent"
// MANIFEST: "dynamic_shared_memory": 99424,
// MANIFEST-NEXT: "grid": [
// MANIFEST-NEXT: 132,
// MANIFEST-NEXT: 1,
// MANIFEST-NEXT: 1
// MANIFEST: "name": "attn_fwd_0"
// MANIFEST: "schedule": "persistent"
// MANIFEST: "grid": [
// MANIFEST-NEXT: 128,
// MANIFEST-NEXT: 1,
// MANIFEST-NEXT: 1
// MANIFEST: "name": "attn_fwd_1"
// MANIFEST-NOT: "schedule"
// MANIFEST: "grid": [
// MANIFEST-NEXT: 4,
// MANIFEST-NEXT: 4,
// MANIFEST-NEXT: 1
// MANIFEST: "name": "attn_fwd_2"

// The tile loop's bound counts the grid's blocks.
// PTX-LABEL: .entry attn_fwd_0(
// PTX: %nctaid.x
// PTX-LABEL: .entry attn_fwd_1(
// PTX: %nctaid.x
// PTX-LABEL: .entry attn_fwd_2(
// PTX-NOT: %nctaid.x

// SPILLS-COUNT-3: 0 bytes spill stores, 0 bytes spill loads

// AUTO: "schedule": "persistent"
// AUTO: "name": "attn_fwd_0"
// AUTO-NOT: "schedule"
// GRID-NOT: "schedule"

// SM80: persistent=on needs chip=sm_90a

// Stable Diffusion's cross-attention: 2560 tiles over 132 blocks.
func.func @sd_cross(%q: tensor<8x10x4096x64xf16>, %k: tensor<8x10x77x64xf16>, %v: tensor<8x10x77x64xf16>) -> tensor<8x10x4096x64xf16> {
  %o = attn.attention ins(%q, %k, %v : tensor<8x10x4096x64xf16>, tensor<8x10x77x64xf16>, tensor<8x10x77x64xf16>) -> tensor<8x10x4096x64xf16>
  return %o : tensor<8x10x4096x64xf16>
}
// GQA, bottom-right causal, lse: 8 x 8 x 2 = 128 tiles, fewer than the SMs.
func.func @gqa_causal(%q: tensor<2x8x1000x128xbf16>, %k: tensor<2x2x1000x128xbf16>, %v: tensor<2x2x1000x128xbf16>) -> (tensor<2x8x1000x128xbf16>, tensor<2x8x1000xf32>) {
  %o, %l = attn.attention ins(%q, %k, %v : tensor<2x8x1000x128xbf16>, tensor<2x2x1000x128xbf16>, tensor<2x2x1000x128xbf16>) {causal = #attn.causal<bottom_right>} -> tensor<2x8x1000x128xbf16>, tensor<2x8x1000xf32>
  return %o, %l : tensor<2x8x1000x128xbf16>, tensor<2x8x1000xf32>
}
// D = 256: the second Q tile does not fit; one block per tile.
func.func @d256(%q: tensor<1x4x512x256xbf16>, %k: tensor<1x4x512x256xbf16>, %v: tensor<1x4x512x256xbf16>) -> tensor<1x4x512x256xbf16> {
  %o = attn.attention ins(%q, %k, %v : tensor<1x4x512x256xbf16>, tensor<1x4x512x256xbf16>, tensor<1x4x512x256xbf16>) -> tensor<1x4x512x256xbf16>
  return %o : tensor<1x4x512x256xbf16>
}
