// attn-normalize-chains on dynamic sizes as torch-mlir writes them
// (FoldComputedReshapes.cpp, FoldDynamicBroadcastGathers.cpp).
// RUN: attention-opt %s --attn-normalize-chains --split-input-file | FileCheck %s

// torch-mlir's `view(b * h, l, d)`: the shape is computed from the dims,
// with the selects it emits for a `-1` (x < 0 ? inferred : x); a
// collapse of the batch and heads.
// CHECK-LABEL: func.func @view_collapse
// CHECK-SAME: (%[[X:.*]]: tensor<?x4x?x32xf32>)
// CHECK: %[[C:.*]] = tensor.collapse_shape %[[X]] {{\[}}[0, 1], [2], [3]] : tensor<?x4x?x32xf32> into tensor<?x?x32xf32>
// CHECK-NOT: tensor.reshape
// CHECK: return %[[C]]
func.func @view_collapse(%x: tensor<?x4x?x32xf32>) -> tensor<?x?x32xf32> {
  %c0 = arith.constant 0 : index
  %c2 = arith.constant 2 : index
  %c0_i64 = arith.constant 0 : i64
  %c1_i64 = arith.constant 1 : i64
  %c4_i64 = arith.constant 4 : i64
  %c32_i64 = arith.constant 32 : i64
  %b = tensor.dim %x, %c0 : tensor<?x4x?x32xf32>
  %l = tensor.dim %x, %c2 : tensor<?x4x?x32xf32>
  %b64 = arith.index_cast %b : index to i64
  %l64 = arith.index_cast %l : index to i64
  %bh = arith.muli %b64, %c4_i64 : i64
  // The size inferred for a -1 (never taken: bh is not negative).
  %neg = arith.cmpi slt, %bh, %c0_i64 : i64
  %all = arith.muli %bh, %l64 : i64
  %all32 = arith.muli %all, %c32_i64 : i64
  %rest = arith.muli %l64, %c32_i64 : i64
  %inferred = arith.divsi %all32, %rest : i64
  %d0 = arith.select %neg, %inferred, %bh : i64
  %shape = tensor.from_elements %d0, %l64, %c32_i64 : tensor<3xi64>
  %r = tensor.reshape %x(%shape) : (tensor<?x4x?x32xf32>, tensor<3xi64>) -> tensor<?x?x32xf32>
  return %r : tensor<?x?x32xf32>
}

// -----

// `view(b, h, l, l2)` of a `[b*h, l, l2]` matmul result: an expansion whose
// dynamic output sizes are the computed ones.
// CHECK-LABEL: func.func @view_expand
// CHECK-SAME: (%[[X:.*]]: tensor<?x4x?x32xf32>, %[[S:.*]]: tensor<?x?x?xf32>)
// CHECK: %[[E:.*]] = tensor.expand_shape %[[S]] {{\[}}[0, 1], [2], [3]] output_shape [%{{.*}}, 4, %{{.*}}, %{{.*}}] : tensor<?x?x?xf32> into tensor<?x4x?x?xf32>
// CHECK-NOT: tensor.reshape
// CHECK: return %[[E]]
func.func @view_expand(%x: tensor<?x4x?x32xf32>, %s: tensor<?x?x?xf32>) -> tensor<?x4x?x?xf32> {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %c4_i64 = arith.constant 4 : i64
  %b = tensor.dim %x, %c0 : tensor<?x4x?x32xf32>
  %b64 = arith.index_cast %b : index to i64
  %bh = arith.muli %b64, %c4_i64 : i64
  %bhi = arith.index_cast %bh : i64 to index
  %l = tensor.dim %s, %c1 : tensor<?x?x?xf32>
  %m = tensor.dim %s, %c2 : tensor<?x?x?xf32>
  %l64 = arith.index_cast %l : index to i64
  %m64 = arith.index_cast %m : index to i64
  // The matmul's result is [b*4, l, m], as its tensor.empty says.
  %e = tensor.empty(%bhi, %l, %m) : tensor<?x?x?xf32>
  %t = linalg.copy ins(%s : tensor<?x?x?xf32>) outs(%e : tensor<?x?x?xf32>) -> tensor<?x?x?xf32>
  %shape = tensor.from_elements %b64, %c4_i64, %l64, %m64 : tensor<4xi64>
  %r = tensor.reshape %t(%shape) : (tensor<?x?x?xf32>, tensor<4xi64>) -> tensor<?x4x?x?xf32>
  return %r : tensor<?x4x?x?xf32>
}

// -----

// A shape from a run-time argument is not provably a collapse: left alone.
// CHECK-LABEL: func.func @view_unknown
// CHECK: tensor.reshape
func.func @view_unknown(%x: tensor<?x4x?x32xf32>, %n: i64) -> tensor<?x?x32xf32> {
  %c32_i64 = arith.constant 32 : i64
  %shape = tensor.from_elements %n, %n, %c32_i64 : tensor<3xi64>
  %r = tensor.reshape %x(%shape) : (tensor<?x4x?x32xf32>, tensor<3xi64>) -> tensor<?x?x32xf32>
  return %r : tensor<?x?x32xf32>
}

// -----

// A broadcast of dynamic sizes to the source's own sizes is the identity:
// replaced by the source, with no run-time check.
// CHECK-LABEL: func.func @gather_identity
// CHECK-SAME: (%[[X:.*]]: tensor<?x4x?x32xf32>)
// CHECK-NOT: cf.assert
// CHECK-NOT: linalg.generic
// CHECK: return %[[X]]
func.func @gather_identity(%x: tensor<?x4x?x32xf32>) -> tensor<?x4x?x32xf32> {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %b = tensor.dim %x, %c0 : tensor<?x4x?x32xf32>
  %l = tensor.dim %x, %c2 : tensor<?x4x?x32xf32>
  %e = tensor.empty(%b, %l) : tensor<?x4x?x32xf32>
  %g = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} outs(%e : tensor<?x4x?x32xf32>) {
  ^bb0(%out: f32):
    %i0 = linalg.index 0 : index
    %i1 = linalg.index 1 : index
    %i2 = linalg.index 2 : index
    %i3 = linalg.index 3 : index
    %b1 = arith.cmpi eq, %b, %c1 : index
    %j0 = arith.select %b1, %c0, %i0 : index
    %l1 = arith.cmpi eq, %l, %c1 : index
    %j2 = arith.select %l1, %c0, %i2 : index
    %v = tensor.extract %x[%j0, %i1, %j2, %i3] : tensor<?x4x?x32xf32>
    linalg.yield %v : f32
  } -> tensor<?x4x?x32xf32>
  return %g : tensor<?x4x?x32xf32>
}

// -----

// Broadcast to the batch of another tensor: that they are the same size is
// not provable here, so it is checked at run time.
// CHECK-LABEL: func.func @gather_other_batch
// CHECK-SAME: (%[[X:.*]]: tensor<?x4x?x32xf32>, %[[Y:.*]]: tensor<?x4x?x32xf32>)
// CHECK-DAG: %[[XB:.*]] = tensor.dim %[[X]], %c0
// CHECK-DAG: %[[YB:.*]] = tensor.dim %[[Y]], %c0
// CHECK: %[[SAME:.*]] = arith.cmpi eq, %[[XB]], %[[YB]] : index
// CHECK: cf.assert %[[SAME]], "attn-normalize-chains: dim 0 of a tensor broadcast at run time (torch-mlir's gather of dynamic sizes) is taken to be the size it is broadcast to; broadcasting a size-1 dim to a larger one is not supported with dynamic shapes"
// CHECK-NOT: cf.assert
// CHECK-NOT: linalg.generic
// CHECK: return %[[X]]
func.func @gather_other_batch(%x: tensor<?x4x?x32xf32>, %y: tensor<?x4x?x32xf32>) -> tensor<?x4x?x32xf32> {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %bx = tensor.dim %x, %c0 : tensor<?x4x?x32xf32>
  %by = tensor.dim %y, %c0 : tensor<?x4x?x32xf32>
  %l = tensor.dim %x, %c2 : tensor<?x4x?x32xf32>
  %e = tensor.empty(%by, %l) : tensor<?x4x?x32xf32>
  %g = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} outs(%e : tensor<?x4x?x32xf32>) {
  ^bb0(%out: f32):
    %i0 = linalg.index 0 : index
    %i1 = linalg.index 1 : index
    %i2 = linalg.index 2 : index
    %i3 = linalg.index 3 : index
    %b1 = arith.cmpi eq, %bx, %c1 : index
    %j0 = arith.select %b1, %c0, %i0 : index
    %l1 = arith.cmpi eq, %l, %c1 : index
    %j2 = arith.select %l1, %c0, %i2 : index
    %v = tensor.extract %x[%j0, %i1, %j2, %i3] : tensor<?x4x?x32xf32>
    linalg.yield %v : f32
  } -> tensor<?x4x?x32xf32>
  return %g : tensor<?x4x?x32xf32>
}

// -----

// Llama's repeat_kv with dynamic sizes: a static size-1 dim read at 0 as
// well. The gather becomes the copy through a broadcasting map that the
// static export has (its unit dim then collapsed away).
// CHECK-DAG: #[[$BCAST:.*]] = affine_map<(d0, d1, d2, d3, d4) -> (d0, d1, d3, d4)>
// CHECK-DAG: #[[$ID:.*]] = affine_map<(d0, d1, d2, d3, d4) -> (d0, d1, d2, d3, d4)>
// CHECK-LABEL: func.func @gather_repeat
// CHECK-SAME: (%[[X:.*]]: tensor<?x2x?x32xf32>)
// CHECK-NOT: cf.assert
// CHECK: linalg.generic {indexing_maps = [#[[$BCAST]], #[[$ID]]], {{.*}}} ins(%[[X]] : tensor<?x2x?x32xf32>) outs(%{{.*}} : tensor<?x2x2x?x32xf32>)
// CHECK-NEXT: ^bb0(%[[IN:.*]]: f32, %{{.*}}: f32):
// CHECK-NEXT: linalg.yield %[[IN]] : f32
// CHECK-NOT: tensor.extract
func.func @gather_repeat(%x: tensor<?x2x?x32xf32>) -> tensor<?x2x2x?x32xf32> {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %b = tensor.dim %x, %c0 : tensor<?x2x?x32xf32>
  %l = tensor.dim %x, %c2 : tensor<?x2x?x32xf32>
  %x5 = tensor.expand_shape %x [[0], [1], [2, 3], [4]] output_shape [%b, 2, 1, %l, 32] : tensor<?x2x?x32xf32> into tensor<?x2x1x?x32xf32>
  %e = tensor.empty(%b, %l) : tensor<?x2x2x?x32xf32>
  %g = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3, d4) -> (d0, d1, d2, d3, d4)>], iterator_types = ["parallel", "parallel", "parallel", "parallel", "parallel"]} outs(%e : tensor<?x2x2x?x32xf32>) {
  ^bb0(%out: f32):
    %i0 = linalg.index 0 : index
    %i1 = linalg.index 1 : index
    %i3 = linalg.index 3 : index
    %i4 = linalg.index 4 : index
    %b1 = arith.cmpi eq, %b, %c1 : index
    %j0 = arith.select %b1, %c0, %i0 : index
    %l1 = arith.cmpi eq, %l, %c1 : index
    %j3 = arith.select %l1, %c0, %i3 : index
    %v = tensor.extract %x5[%j0, %i1, %c0, %j3, %i4] : tensor<?x2x1x?x32xf32>
    linalg.yield %v : f32
  } -> tensor<?x2x2x?x32xf32>
  return %g : tensor<?x2x2x?x32xf32>
}

// -----

// Gathers that are not broadcasts of dynamic sizes stay: a shifted index,
// and a select on a size that is not the source's.
// CHECK-LABEL: func.func @gather_not_broadcast
// CHECK-COUNT-2: tensor.extract
// CHECK-NOT: cf.assert
func.func @gather_not_broadcast(%x: tensor<?x32xf32>, %n: index) -> (tensor<?x32xf32>, tensor<?x32xf32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %b = tensor.dim %x, %c0 : tensor<?x32xf32>
  %e = tensor.empty(%b) : tensor<?x32xf32>
  %shifted = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} outs(%e : tensor<?x32xf32>) {
  ^bb0(%out: f32):
    %i0 = linalg.index 0 : index
    %i1 = linalg.index 1 : index
    %k = arith.subi %b, %i0 : index
    %v = tensor.extract %x[%k, %i1] : tensor<?x32xf32>
    linalg.yield %v : f32
  } -> tensor<?x32xf32>
  %other = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} outs(%e : tensor<?x32xf32>) {
  ^bb0(%out: f32):
    %i0 = linalg.index 0 : index
    %i1 = linalg.index 1 : index
    %n1 = arith.cmpi eq, %n, %c1 : index
    %j0 = arith.select %n1, %c0, %i0 : index
    %v = tensor.extract %x[%j0, %i1] : tensor<?x32xf32>
    linalg.yield %v : f32
  } -> tensor<?x32xf32>
  return %shifted, %other : tensor<?x32xf32>, tensor<?x32xf32>
}

// -----

// torch-mlir's einsum views Q as `[b' * 4, l, 32]` with b' the batch of
// another tensor (V): equal to Q's batch only by the program's shapes. The
// size has the form of Q's `b * 4` (constant 4, one run-time factor): the
// collapse it is, with a run-time check that the sizes agree.
// CHECK-LABEL: func.func @view_sized_by_another_tensor
// CHECK-SAME: (%[[X:.*]]: tensor<?x4x?x32xf32>, %[[V:.*]]: tensor<?x4x?x32xf32>)
// CHECK-DAG: %[[XB:.*]] = tensor.dim %[[X]], %c0
// CHECK-DAG: %[[VB:.*]] = tensor.dim %[[V]], %c0
// CHECK: %[[XBH:.*]] = arith.muli %[[XB]], %c4
// CHECK: %[[SAME:.*]] = arith.cmpi eq, %[[XBH]], %{{.*}} : index
// CHECK: cf.assert %[[SAME]], "attn-normalize-chains: a reshape's size computed from another tensor
// CHECK: %[[C:.*]] = tensor.collapse_shape %[[X]] {{\[}}[0, 1], [2], [3]] : tensor<?x4x?x32xf32> into tensor<?x?x32xf32>
// CHECK-NOT: tensor.reshape
// CHECK: return %[[C]]
func.func @view_sized_by_another_tensor(%x: tensor<?x4x?x32xf32>, %v: tensor<?x4x?x32xf32>) -> tensor<?x?x32xf32> {
  %c0 = arith.constant 0 : index
  %c2 = arith.constant 2 : index
  %c4_i64 = arith.constant 4 : i64
  %c32_i64 = arith.constant 32 : i64
  %vb = tensor.dim %v, %c0 : tensor<?x4x?x32xf32>
  %l = tensor.dim %x, %c2 : tensor<?x4x?x32xf32>
  %vb64 = arith.index_cast %vb : index to i64
  %l64 = arith.index_cast %l : index to i64
  %bh = arith.muli %vb64, %c4_i64 : i64
  %shape = tensor.from_elements %bh, %l64, %c32_i64 : tensor<3xi64>
  %r = tensor.reshape %x(%shape) : (tensor<?x4x?x32xf32>, tensor<3xi64>) -> tensor<?x?x32xf32>
  return %r : tensor<?x?x32xf32>
}

// -----

// A size of another form (here 2 * b' for Q's 4 * b) is no such view: the
// reshape stays.
// CHECK-LABEL: func.func @view_of_another_form
// CHECK: tensor.reshape
func.func @view_of_another_form(%x: tensor<?x4x?x32xf32>, %v: tensor<?x4x?x32xf32>) -> tensor<?x?x64xf32> {
  %c0 = arith.constant 0 : index
  %c2 = arith.constant 2 : index
  %c2_i64 = arith.constant 2 : i64
  %c64_i64 = arith.constant 64 : i64
  %vb = tensor.dim %v, %c0 : tensor<?x4x?x32xf32>
  %l = tensor.dim %x, %c2 : tensor<?x4x?x32xf32>
  %vb64 = arith.index_cast %vb : index to i64
  %l64 = arith.index_cast %l : index to i64
  %bh = arith.muli %vb64, %c2_i64 : i64
  %shape = tensor.from_elements %bh, %l64, %c64_i64 : tensor<3xi64>
  %r = tensor.reshape %x(%shape) : (tensor<?x4x?x32xf32>, tensor<3xi64>) -> tensor<?x?x64xf32>
  return %r : tensor<?x?x64xf32>
}

// -----

// A unit dim moved: `[b, 4, l, 1]` viewed as `[b * 4, 1, l]` (torch-mlir's
// unsqueeze and squeeze around a bmm). Collapsed to the sizes other than 1,
// then expanded to the result.
// CHECK-LABEL: func.func @view_moving_a_unit_dim
// CHECK-SAME: (%[[X:.*]]: tensor<?x4x?x1xf32>)
// CHECK: %[[C:.*]] = tensor.collapse_shape %[[X]] {{\[}}[0, 1], [2, 3]] : tensor<?x4x?x1xf32> into tensor<?x?xf32>
// CHECK: %[[E:.*]] = tensor.expand_shape %[[C]] {{\[}}[0], [1, 2]] output_shape [%{{.*}}, 1, %{{.*}}] : tensor<?x?xf32> into tensor<?x1x?xf32>
// CHECK-NOT: tensor.reshape
// CHECK: return %[[E]]
func.func @view_moving_a_unit_dim(%x: tensor<?x4x?x1xf32>) -> tensor<?x1x?xf32> {
  %c0 = arith.constant 0 : index
  %c2 = arith.constant 2 : index
  %c1_i64 = arith.constant 1 : i64
  %c4_i64 = arith.constant 4 : i64
  %b = tensor.dim %x, %c0 : tensor<?x4x?x1xf32>
  %l = tensor.dim %x, %c2 : tensor<?x4x?x1xf32>
  %b64 = arith.index_cast %b : index to i64
  %l64 = arith.index_cast %l : index to i64
  %bh = arith.muli %b64, %c4_i64 : i64
  %shape = tensor.from_elements %bh, %c1_i64, %l64 : tensor<3xi64>
  %r = tensor.reshape %x(%shape) : (tensor<?x4x?x1xf32>, tensor<3xi64>) -> tensor<?x1x?xf32>
  return %r : tensor<?x1x?xf32>
}
