// Large scores: f32 scores carry an absolute rounding error the float64
// reference has not, up to 2^-24 |scale| sqrt(D) max|q| max|k|, and the
// output tolerance is widened by what that allows; the runner says so
// where it more than doubles the default. Past f32's range the scores are
// inf and the rows NaN (docs/semantics.md, "Scale"): a FAIL, never a pass.
// RUN: not attn-cpu-run %s --seed=3 | FileCheck %s

// CHECK: tolerance-large-scores.mlir":[[@LINE+6]]
// CHECK: output: max rel err {{.*}} (tolerance {{[0-9.]+e-0[1-4]}})
// CHECK-NEXT: score rounding: up to {{.*}} per score in f32 (|scale| sqrt(D) max|q| max|k| 2^-24); the tolerance 1.0e-05 is widened by it{{$}}
// CHECK-NEXT: rows with no allowed key
// CHECK-NEXT: PASS
func.func @scale_1e4(%q: tensor<1x2x16x8xf32>, %k: tensor<1x2x16x8xf32>, %v: tensor<1x2x16x8xf32>) -> tensor<1x2x16x8xf32> {
  %o = attn.attention ins(%q, %k, %v : tensor<1x2x16x8xf32>, tensor<1x2x16x8xf32>, tensor<1x2x16x8xf32>) {scale = 1.0e4 : f32} -> tensor<1x2x16x8xf32>
  return %o : tensor<1x2x16x8xf32>
}

// CHECK: tolerance-large-scores.mlir":[[@LINE+5]]
// CHECK: score rounding: {{.*}}, and past 1 excludes only NaN
// CHECK-NEXT: NaN or unwritten outputs:
// CHECK: FAIL
func.func @scale_3e38(%q: tensor<1x1x4x8xf32>, %k: tensor<1x1x4x8xf32>, %v: tensor<1x1x4x8xf32>) -> tensor<1x1x4x8xf32> {
  %o = attn.attention ins(%q, %k, %v : tensor<1x1x4x8xf32>, tensor<1x1x4x8xf32>, tensor<1x1x4x8xf32>) {scale = 3.0e38 : f32} -> tensor<1x1x4x8xf32>
  return %o : tensor<1x1x4x8xf32>
}

// CHECK: tolerance-large-scores.mlir":[[@LINE+6]]
// CHECK: output: max rel err {{.*}} (tolerance 1.{{[0-9]}}e-05)
// CHECK-NEXT: rows with no allowed key
// CHECK-NEXT: PASS
// CHECK: of 3 attention op(s), 1 did not match
func.func @scale_default(%q: tensor<1x2x16x8xf32>, %k: tensor<1x2x16x8xf32>, %v: tensor<1x2x16x8xf32>) -> tensor<1x2x16x8xf32> {
  %o = attn.attention ins(%q, %k, %v : tensor<1x2x16x8xf32>, tensor<1x2x16x8xf32>, tensor<1x2x16x8xf32>) -> tensor<1x2x16x8xf32>
  return %o : tensor<1x2x16x8xf32>
}
