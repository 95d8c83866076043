// A public function that calls a private helper holding the chain (JAX
// exports put code in private functions reached by func.call): the
// raising happens in the helper, and attn-raise-check's float64 reference
// promotes the whole call tree (before session 40 the call site's types no
// longer matched the callee's, and the check failed).
// RUN: attention-opt %s --attn-raise-pipeline | FileCheck %s
// RUN: attn-raise-check %s --require-raised --runs=2 --seed=43 | FileCheck %s --check-prefix=PROOF --implicit-check-not=FAIL
// CHECK-LABEL: func.func private @attn
// CHECK: attn.attention
// CHECK-LABEL: func.func @main
// CHECK: call @attn
// PROOF: @main: 1 attn.attention after the raising
// PROOF: run 1 result 0 {{.*}}: PASS
func.func private @attn(%q: tensor<4x16x8xf32>, %k: tensor<4x16x8xf32>, %v: tensor<4x16x8xf32>) -> tensor<4x16x8xf32> {
  %zero = arith.constant 0.0 : f32
  %es = tensor.empty() : tensor<4x16x16xf32>
  %zs = linalg.fill ins(%zero : f32) outs(%es : tensor<4x16x16xf32>) -> tensor<4x16x16xf32>
  %s = linalg.batch_matmul indexing_maps = [affine_map<(b, i, j, d) -> (b, i, d)>, affine_map<(b, i, j, d) -> (b, j, d)>, affine_map<(b, i, j, d) -> (b, i, j)>] ins(%q, %k : tensor<4x16x8xf32>, tensor<4x16x8xf32>) outs(%zs : tensor<4x16x16xf32>) -> tensor<4x16x16xf32>
  %p = linalg.softmax dimension(2) ins(%s : tensor<4x16x16xf32>) outs(%es : tensor<4x16x16xf32>) -> tensor<4x16x16xf32>
  %eo = tensor.empty() : tensor<4x16x8xf32>
  %zo = linalg.fill ins(%zero : f32) outs(%eo : tensor<4x16x8xf32>) -> tensor<4x16x8xf32>
  %o = linalg.batch_matmul ins(%p, %v : tensor<4x16x16xf32>, tensor<4x16x8xf32>) outs(%zo : tensor<4x16x8xf32>) -> tensor<4x16x8xf32>
  return %o : tensor<4x16x8xf32>
}
func.func @main(%q: tensor<4x16x8xf32>, %k: tensor<4x16x8xf32>, %v: tensor<4x16x8xf32>) -> tensor<4x16x8xf32> {
  %o = func.call @attn(%q, %k, %v) : (tensor<4x16x8xf32>, tensor<4x16x8xf32>, tensor<4x16x8xf32>) -> tensor<4x16x8xf32>
  return %o : tensor<4x16x8xf32>
}
