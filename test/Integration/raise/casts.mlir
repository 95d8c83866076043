// tensor.cast between static and dynamic types, as front ends write them
// where shape refinement stops (torch-mlir, TOSA reshapes typed less
// static than their shape): attn-raise-pipeline terminates on them (its
// cleanups fold a cast into the linalg op that reads it; before session 40,
// linalg's elementwise fusion and tensor.empty's canonicalization rebuilt
// such an init forever), and a chain through casts is raised.
// RUN: attention-opt %s --attn-raise-pipeline | FileCheck %s
// RUN: attn-raise-check %s --function=cast_in_chain --runs=2 --seed=41 | FileCheck %s --check-prefix=PROOF --implicit-check-not=FAIL

// A dynamic tensor.empty of constant size as an unread init.
// CHECK-LABEL: func.func @empty_const
// CHECK: math.exp
#map = affine_map<(d0) -> (d0)>
func.func @empty_const(%a: tensor<4xf32>) -> tensor<?xf32> {
  %c4 = arith.constant 4 : index
  %ad = tensor.cast %a : tensor<4xf32> to tensor<?xf32>
  %e = tensor.empty(%c4) : tensor<?xf32>
  %r = linalg.generic {indexing_maps = [#map, #map], iterator_types = ["parallel"]} ins(%ad : tensor<?xf32>) outs(%e : tensor<?xf32>) {
  ^bb0(%in: f32, %out: f32):
    %x = math.exp %in : f32
    linalg.yield %x : f32
  } -> tensor<?xf32>
  return %r : tensor<?xf32>
}

// An elementwise generic into a tensor.cast of its own input.
// CHECK-LABEL: func.func @cast_init
// CHECK: math.exp
#map2 = affine_map<(d0, d1) -> (d0, d1)>
func.func @cast_init(%a: tensor<4x8xf32>) -> tensor<?x?xf32> {
  %c = tensor.cast %a : tensor<4x8xf32> to tensor<?x?xf32>
  %r = linalg.generic {indexing_maps = [#map2, #map2], iterator_types = ["parallel", "parallel"]} ins(%c : tensor<?x?xf32>) outs(%c : tensor<?x?xf32>) {
  ^bb0(%in: f32, %out: f32):
    %x = math.exp %in : f32
    linalg.yield %x : f32
  } -> tensor<?x?xf32>
  return %r : tensor<?x?xf32>
}

// A TOSA reshape typed less static than its shape ([-1, 128] as ?x?).
// CHECK-LABEL: func.func @tosa_reshape
// CHECK: math.exp
func.func @tosa_reshape(%q: tensor<2x4x8x32xf32>) -> tensor<?x?xf32> {
  %sq = tosa.const_shape {values = dense<[-1, 128]> : tensor<2xindex>} : () -> !tosa.shape<2>
  %q3 = tosa.reshape %q, %sq : (tensor<2x4x8x32xf32>, !tosa.shape<2>) -> tensor<?x?xf32>
  %e = tosa.exp %q3 : (tensor<?x?xf32>) -> tensor<?x?xf32>
  return %e : tensor<?x?xf32>
}

// The scores cast to a dynamic type for the softmax and back for P·V (as
// torch-mlir writes them where shape refinement stops): raised.
// CHECK-LABEL: func.func @cast_in_chain
// CHECK: attn.attention {{.*}}{scale = 0.353553385 : f32}
// PROOF: @cast_in_chain: 1 attn.attention after the raising
// PROOF: run 1 result 0 {{.*}}: PASS
func.func @cast_in_chain(%q: tensor<4x16x8xf32>, %k: tensor<4x16x8xf32>, %v: tensor<4x16x8xf32>) -> tensor<4x16x8xf32> {
  %zero = arith.constant 0.0 : f32
  %c = arith.constant 0.353553385 : f32
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %es = tensor.empty() : tensor<4x16x16xf32>
  %zs = linalg.fill ins(%zero : f32) outs(%es : tensor<4x16x16xf32>) -> tensor<4x16x16xf32>
  %s = linalg.batch_matmul indexing_maps = [affine_map<(b, i, j, d) -> (b, i, d)>, affine_map<(b, i, j, d) -> (b, j, d)>, affine_map<(b, i, j, d) -> (b, i, j)>] ins(%q, %k : tensor<4x16x8xf32>, tensor<4x16x8xf32>) outs(%zs : tensor<4x16x16xf32>) -> tensor<4x16x16xf32>
  %sd = tensor.cast %s : tensor<4x16x16xf32> to tensor<?x?x?xf32>
  %d0 = tensor.dim %sd, %c0 : tensor<?x?x?xf32>
  %d1 = tensor.dim %sd, %c1 : tensor<?x?x?xf32>
  %d2 = tensor.dim %sd, %c2 : tensor<?x?x?xf32>
  %ed = tensor.empty(%d0, %d1, %d2) : tensor<?x?x?xf32>
  %ss = linalg.generic {indexing_maps = [affine_map<(b, i, j) -> (b, i, j)>, affine_map<(b, i, j) -> (b, i, j)>], iterator_types = ["parallel", "parallel", "parallel"]} ins(%sd : tensor<?x?x?xf32>) outs(%ed : tensor<?x?x?xf32>) {
  ^bb0(%x: f32, %o: f32):
    %y = arith.mulf %x, %c : f32
    linalg.yield %y : f32
  } -> tensor<?x?x?xf32>
  %pd = linalg.softmax dimension(2) ins(%ss : tensor<?x?x?xf32>) outs(%ed : tensor<?x?x?xf32>) -> tensor<?x?x?xf32>
  %p = tensor.cast %pd : tensor<?x?x?xf32> to tensor<4x16x16xf32>
  %eo = tensor.empty() : tensor<4x16x8xf32>
  %zo = linalg.fill ins(%zero : f32) outs(%eo : tensor<4x16x8xf32>) -> tensor<4x16x8xf32>
  %o = linalg.batch_matmul ins(%p, %v : tensor<4x16x16xf32>, tensor<4x16x8xf32>) outs(%zo : tensor<4x16x8xf32>) -> tensor<4x16x8xf32>
  return %o : tensor<4x16x8xf32>
}
