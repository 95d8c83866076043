// attn-compile --ptxas-check assembles the written PTX with the toolkit's
// ptxas -v and reports each kernel's registers and spills: the default
// tiling of a plain kernel does not spill (kernels in the PTX's order); Br = 128 with Bc = 64 forced on
// the D = 128 mma.sync kernel with every modifier does, and is reported as a warning
// (the PTX is still written: spilling is slow, not wrong). The option needs
// a PTX file.
// REQUIRES: ptxas
// RUN: attn-compile %s --chip=sm_90a -o %t.ptx --ptxas-check | FileCheck %s
// RUN: attn-compile %s --chip=sm_90a --mma=mma-sync --block-q=128 --block-kv=64 -o %t.forced.ptx --ptxas-check | FileCheck %s --check-prefix=FORCED
// RUN: not attn-compile %s --chip=sm_90a --emit=gpu --ptxas-check 2>&1 | FileCheck %s --check-prefix=BADEMIT

// CHECK: attn-compile: wrote {{.*}} (2 kernels, sm_90a, 32-bit indices)
// CHECK-NEXT: attn-compile: ptxas: attn_fwd_0: {{[0-9]+}} registers, no spills
// CHECK-NEXT: attn-compile: ptxas: attn_fwd_1: {{[0-9]+}} registers, no spills
// CHECK-NOT: warning

// FORCED: attn-compile: wrote {{.*}} (2 kernels, sm_90a, 32-bit indices)
// FORCED-NEXT: attn-compile: ptxas: attn_fwd_0: {{[0-9]+}} registers, no spills
// FORCED-NEXT: attn-compile: warning: ptxas: attn_fwd_1: 255 registers, {{[1-9][0-9]*}} bytes spill stores, {{[1-9][0-9]*}} bytes spill loads (spilled registers live in local memory: correct, but slower)

// BADEMIT: attn-compile: --ptxas-check needs --emit=ptx and -o FILE

func.func @plain(%q: tensor<2x8x1000x64xbf16>, %k: tensor<2x2x1000x64xbf16>, %v: tensor<2x2x1000x64xbf16>) -> (tensor<2x8x1000x64xbf16>, tensor<2x8x1000xf32>) {
  %o, %l = attn.attention ins(%q, %k, %v : tensor<2x8x1000x64xbf16>, tensor<2x2x1000x64xbf16>, tensor<2x2x1000x64xbf16>) {causal = #attn.causal<top_left>} -> tensor<2x8x1000x64xbf16>, tensor<2x8x1000xf32>
  return %o, %l : tensor<2x8x1000x64xbf16>, tensor<2x8x1000xf32>
}

func.func @everything(%q: tensor<1x8x512x128xbf16>, %k: tensor<1x2x512x128xbf16>, %v: tensor<1x2x512x128xbf16>, %m: tensor<1x1x512x512xbf16>, %s: i64, %off: i64) -> (tensor<1x8x512x128xbf16>) {
  %o = attn.attention ins(%q, %k, %v : tensor<1x8x512x128xbf16>, tensor<1x2x512x128xbf16>, tensor<1x2x512x128xbf16>) mask(%m : tensor<1x1x512x512xbf16>) rng(%s, %off) {causal = #attn.causal<bottom_right>, window = array<i64: 128, 0>, softcap = 30.0 : f32, dropout_p = 0.1 : f32} -> tensor<1x8x512x128xbf16>
  return %o : tensor<1x8x512x128xbf16>
}
