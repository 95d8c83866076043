// Gradients whose terms cancel: with softcap = 1e-3 the tanh saturates, and
// the factor 1 - t^2 computed from an f32 t is rounding noise, so is dS and
// with it most of dQ and dK; their error relative to max|ref| is 1e-4 and
// over f32's 1e-5. attn-cpu-run then judges each element against the
// rounding of the terms it sums (referenceAttentionGradMagnitudes), as
// kernels-runtime does for the GPU's gradients.
//
// RUN: attn-cpu-run %s --seed=3 | FileCheck %s
// RUN: attn-cpu-run %s --seed=3 --lowering="attn-tile{block-q=8 block-kv=8}" | FileCheck %s
// The floor is 64 f32 roundoffs of the terms' size: dV, whose terms do not
// cancel, stays within 0.1 of it even with no relative tolerance at all.
// RUN: attn-cpu-run %s --seed=3 --tolerance=0 | FileCheck %s --check-prefix=FLOOR

// CHECK: softcap
// CHECK: grad_query: max rel err {{.*}}cancelling terms: within their rounding (worst {{0\.[0-9]+}} of tolerance
// CHECK: grad_key: max rel err {{.*}}cancelling terms: within their rounding
// CHECK: grad_value: max rel err
// CHECK: PASS
// FLOOR: grad_value: max rel err {{.*}}(tolerance 0.0e+00); cancelling terms: within their rounding (worst 0.0{{[0-9]}}
func.func @saturated_softcap(%q: tensor<1x2x16x32xf32>, %k: tensor<1x2x24x32xf32>, %v: tensor<1x2x24x32xf32>, %o: tensor<1x2x16x32xf32>, %lse: tensor<1x2x16xf32>, %do: tensor<1x2x16x32xf32>) -> (tensor<1x2x16x32xf32>, tensor<1x2x24x32xf32>, tensor<1x2x24x32xf32>) {
  %dq, %dk, %dv = attn.attention_grad ins(%q, %k, %v : tensor<1x2x16x32xf32>, tensor<1x2x24x32xf32>, tensor<1x2x24x32xf32>) forward(%o, %lse : tensor<1x2x16x32xf32>, tensor<1x2x16xf32>) grad_output(%do : tensor<1x2x16x32xf32>) {softcap = 1.0e-3 : f32} -> tensor<1x2x16x32xf32>, tensor<1x2x24x32xf32>, tensor<1x2x24x32xf32>
  return %dq, %dk, %dv : tensor<1x2x16x32xf32>, tensor<1x2x24x32xf32>, tensor<1x2x24x32xf32>
}

