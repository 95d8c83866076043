// The IO report at the longest supported lengths (2^31 - 1) finishes at
// once: one closed-form step per query block instead of a walk over every
// (query block, key block) pair, which hung (issue 17). Bytes and FLOPs pass
// 2^63 there and are reported as floating-point integers.
// RUN: attention-opt %s --attn-select-tiles="chip=sm_90a report" -o /dev/null 2>&1 | FileCheck %s

// CHECK: attn-select-tiles sm_90a: block_q=64 block_kv=128
// CHECK: HBM bytes: naive {{[0-9]+}}, tiled {{[0-9]+}}
// CHECK: FLOPs: dense {{[0-9]+}}, executed {{[0-9]+}} (281474993487872 of 562949953421312 blocks per head)
func.func @longest(%q: tensor<1x1x2147483647x64xbf16>, %k: tensor<1x1x2147483647x64xbf16>, %v: tensor<1x1x2147483647x64xbf16>) -> tensor<1x1x2147483647x64xbf16> {
  %o = attn.attention ins(%q, %k, %v : tensor<1x1x2147483647x64xbf16>, tensor<1x1x2147483647x64xbf16>, tensor<1x1x2147483647x64xbf16>) {causal = #attn.causal<top_left>} -> tensor<1x1x2147483647x64xbf16>
  return %o : tensor<1x1x2147483647x64xbf16>
}
