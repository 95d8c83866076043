// RUN: not attn-compile %s --chip=sm_90a --grad-block-kv=128 -o %t.ptx 2>&1 | FileCheck %s
// RUN: attn-compile %s --chip=sm_90a -o %t.default.ptx | FileCheck %s --check-prefix=DEFAULT
// RUN: FileCheck %s --check-prefix=MANIFEST < %t.default.json

// 128-key blocks of the D = 256 backward (split dkdv kernel, wgmma on
// sm_90a: 128-byte swizzled tiles of whole panels) need more
// shared memory than a block has, even on sm_90: asking for them is an error
// at the op that says what fits (the default there is the head split,
// whose two consumer warpgroups share one 64-key block, with one Q / dO
// stage and the bulk dQ).
// CHECK: grad-shared-memory-invalid.mlir:[[@LINE+10]]:{{[0-9]+}}: error: 'attn.attention_grad' op GPU code generation: the dkdv kernel with 128 keys per block needs 264232 bytes of shared memory at D = 256, Dv = 256, more than the 232448 a block has (use 64 keys per block: grad-block-kv=64)
// DEFAULT: (3 kernels, sm_90a,
// MANIFEST: "name": "attn_bwd_prep_0"
// MANIFEST: "block_kv": 64,
// MANIFEST-NEXT: "block_q": 64,
// MANIFEST: "kernel": "tensor-core",
// MANIFEST-NEXT: "key_block_split": "warpgroups",
// MANIFEST: "query_stages": 1,
// MANIFEST: "name": "attn_bwd_dkdv_dq_0"
func.func @d256(%q: tensor<1x2x64x256xbf16>, %k: tensor<1x2x64x256xbf16>, %v: tensor<1x2x64x256xbf16>, %o: tensor<1x2x64x256xbf16>, %lse: tensor<1x2x64xf32>, %do: tensor<1x2x64x256xbf16>) -> (tensor<1x2x64x256xbf16>, tensor<1x2x64x256xbf16>, tensor<1x2x64x256xbf16>) {
  %dq, %dk, %dv = attn.attention_grad ins(%q, %k, %v : tensor<1x2x64x256xbf16>, tensor<1x2x64x256xbf16>, tensor<1x2x64x256xbf16>) forward(%o, %lse : tensor<1x2x64x256xbf16>, tensor<1x2x64xf32>) grad_output(%do : tensor<1x2x64x256xbf16>) -> tensor<1x2x64x256xbf16>, tensor<1x2x64x256xbf16>, tensor<1x2x64x256xbf16>
  return %dq, %dk, %dv : tensor<1x2x64x256xbf16>, tensor<1x2x64x256xbf16>, tensor<1x2x64x256xbf16>
}
