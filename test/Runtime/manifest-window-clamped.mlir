// A window side far past the sequences (the verifier allows up to 2^62)
// excludes nothing beyond Lq + Lk: the kernels and the manifest use it
// clamped to Lq + Lk, so index arithmetic stays in 32 bits and the runtime,
// which refuses sides above 2^40, accepts what attn-compile writes (issue
// 17). An unbounded side stays -1.
// RUN: attn-compile %s --chip=sm_90a -o %t.ptx
// RUN: FileCheck %s < %t.json
// RUN: attn-manifest-check %t.json | FileCheck %s --check-prefix=OK

// CHECK: "window": [
// CHECK-NEXT: 300,
// CHECK-NEXT: -1
// (The op's 2 x 100 rows on 2 heads make a split-KV group: both stages
// carry the clamped window.)
// CHECK: "window": [
// CHECK-NEXT: 300,
// CHECK-NEXT: -1
// OK: valid, 2 kernels for sm_90a
func.func @wide_window(%q: tensor<1x2x100x64xbf16>, %k: tensor<1x2x200x64xbf16>, %v: tensor<1x2x200x64xbf16>) -> tensor<1x2x100x64xbf16> {
  %o = attn.attention ins(%q, %k, %v : tensor<1x2x100x64xbf16>, tensor<1x2x200x64xbf16>, tensor<1x2x200x64xbf16>) {window = array<i64: 4611686018427387904, -1>} -> tensor<1x2x100x64xbf16>
  return %o : tensor<1x2x100x64xbf16>
}
