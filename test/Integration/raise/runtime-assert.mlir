// A cf.assert that fails while attn-raise-check runs a function on its
// random inputs ends the tool with the assertion's message at its location
// and exit status 1 (it aborted with a stack dump before); one that holds
// changes nothing.
// RUN: not attn-raise-check %s --runs=2 --seed=1 --function=never_nan_free 2>&1 | FileCheck %s --check-prefix=FAILS
// RUN: attn-raise-check %s --runs=2 --seed=1 --function=holds | FileCheck %s --check-prefix=HOLDS

// FAILS: @never_nan_free: 0 attn.attention after the raising
// FAILS: runtime-assert.mlir:[[@LINE+6]]:3: error: cf.assert failed at run time: "the first element is NaN" (the function was run on random inputs
// FAILS-NOT: PASS
func.func @never_nan_free(%x: tensor<4x8xf32>) -> tensor<4x8xf32> {
  %c0 = arith.constant 0 : index
  %e = tensor.extract %x[%c0, %c0] : tensor<4x8xf32>
  %nan = arith.cmpf uno, %e, %e : f32
  cf.assert %nan, "the first element is NaN"
  return %x : tensor<4x8xf32>
}

// HOLDS: @holds: 0 attn.attention after the raising
// HOLDS: run 1 result 0 tensor<4x8xf32>: {{.*}}: PASS
func.func @holds(%x: tensor<4x8xf32>) -> tensor<4x8xf32> {
  %c0 = arith.constant 0 : index
  %e = tensor.extract %x[%c0, %c0] : tensor<4x8xf32>
  %ordered = arith.cmpf ord, %e, %e : f32
  cf.assert %ordered, "the first element is a number"
  return %x : tensor<4x8xf32>
}
