// A --sizes value that contradicts a tensor where the same size is static
// (the verifier does not compare a dynamic size with a static one) is an
// error, not buffers of the wrong size; the matching value runs.
// RUN: not attn-cpu-run %s --sizes batch=1 2>&1 | FileCheck %s --check-prefix=BAD
// RUN: attn-cpu-run %s --sizes batch=2 | FileCheck %s --check-prefix=GOOD

// BAD: runtime-sizes-mismatch.mlir:[[@LINE+4]]:{{[0-9]+}}: error: attn-cpu-run: the batch is 1 (the query's or key's, with --sizes) but 2 in dimension 0 of 'tensor<2x4x16x32xf32>'; a run-time size must agree with the tensors where it is static
// GOOD: B=2 Hq=4 Hkv=4 Lq=16 Lk=16 D=32 Dv=32 f32
// GOOD: PASS
func.func @f(%q: tensor<?x4x16x32xf32>, %k: tensor<2x4x16x32xf32>, %v: tensor<2x4x16x32xf32>) -> tensor<2x4x16x32xf32> {
  %o = attn.attention ins(%q, %k, %v : tensor<?x4x16x32xf32>, tensor<2x4x16x32xf32>, tensor<2x4x16x32xf32>) -> tensor<2x4x16x32xf32>
  return %o : tensor<2x4x16x32xf32>
}
