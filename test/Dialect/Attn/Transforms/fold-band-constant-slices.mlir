// attn-normalize-chains on slices of band constants: GPT-2's causal buffer
// `tril(ones(1024, 1024))` sliced to the sequence (FoldBandConstantSlices.cpp).
// The buffers here are 8 x 8; the slices have run-time sizes, so nothing can
// be evaluated into a constant.
// RUN: attention-opt %s --attn-normalize-chains --split-input-file | FileCheck %s

// The band j - i <= 0 of ones and zeros, at offsets 0: j <= i.
// CHECK-LABEL: func.func @tril_to_length
// CHECK-DAG: %[[ZERO:.*]] = arith.constant 0.000000e+00 : f32
// CHECK-DAG: %[[ONE:.*]] = arith.constant 1.000000e+00 : f32
// CHECK-NOT: tensor.extract_slice
// CHECK: linalg.generic {{.*}} outs(
// CHECK: %[[I:.*]] = linalg.index 0 : index
// CHECK: %[[J:.*]] = linalg.index 1 : index
// CHECK: %[[IN:.*]] = arith.cmpi sle, %[[J]], %[[I]] : index
// CHECK: %[[V:.*]] = arith.select %[[IN]], %[[ONE]], %[[ZERO]] : f32
// CHECK: linalg.yield %[[V]]
func.func @tril_to_length(%t: index) -> tensor<?x?xf32> {
  %c = arith.constant dense<[[1.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0], [1.0, 1.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0], [1.0, 1.0, 1.0, 0.0, 0.0, 0.0, 0.0, 0.0], [1.0, 1.0, 1.0, 1.0, 0.0, 0.0, 0.0, 0.0], [1.0, 1.0, 1.0, 1.0, 1.0, 0.0, 0.0, 0.0], [1.0, 1.0, 1.0, 1.0, 1.0, 1.0, 0.0, 0.0], [1.0, 1.0, 1.0, 1.0, 1.0, 1.0, 1.0, 0.0], [1.0, 1.0, 1.0, 1.0, 1.0, 1.0, 1.0, 1.0]]> : tensor<8x8xf32>
  %s = tensor.extract_slice %c[0, 0] [%t, %t] [1, 1] : tensor<8x8xf32> to tensor<?x?xf32>
  return %s : tensor<?x?xf32>
}

// -----

// Rows from 2 on (a slice for the last queries of a longer buffer): element
// (i, j) is the buffer's (i + 2, j), allowed where j <= i + 2.
// CHECK-LABEL: func.func @tril_rows_from_2
// CHECK-DAG: %[[C2:.*]] = arith.constant 2 : index
// CHECK-NOT: tensor.extract_slice
// CHECK: %[[I:.*]] = linalg.index 0 : index
// CHECK: %[[J:.*]] = linalg.index 1 : index
// CHECK: %[[I2:.*]] = arith.addi %[[I]], %[[C2]] : index
// CHECK: arith.cmpi sle, %[[J]], %[[I2]] : index
func.func @tril_rows_from_2(%t: index) -> tensor<1x?x?xf32> {
  %c = arith.constant dense<[[[1.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0], [1.0, 1.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0], [1.0, 1.0, 1.0, 0.0, 0.0, 0.0, 0.0, 0.0], [1.0, 1.0, 1.0, 1.0, 0.0, 0.0, 0.0, 0.0], [1.0, 1.0, 1.0, 1.0, 1.0, 0.0, 0.0, 0.0], [1.0, 1.0, 1.0, 1.0, 1.0, 1.0, 0.0, 0.0], [1.0, 1.0, 1.0, 1.0, 1.0, 1.0, 1.0, 0.0], [1.0, 1.0, 1.0, 1.0, 1.0, 1.0, 1.0, 1.0]]]> : tensor<1x8x8xf32>
  %s = tensor.extract_slice %c[0, 2, 0] [1, %t, %t] [1, 1, 1] : tensor<1x8x8xf32> to tensor<1x?x?xf32>
  return %s : tensor<1x?x?xf32>
}

// -----

// An additive causal bias, triu(full(-inf), diagonal=1): 0 where j <= i.
// CHECK-LABEL: func.func @triu_neg_inf
// CHECK-DAG: %[[NEGINF:.*]] = arith.constant 0xFF800000 : f32
// CHECK-DAG: %[[ZERO:.*]] = arith.constant 0.000000e+00 : f32
// CHECK: %[[IN:.*]] = arith.cmpi sle
// CHECK: arith.select %[[IN]], %[[ZERO]], %[[NEGINF]] : f32
func.func @triu_neg_inf(%t: index) -> tensor<?x?xf32> {
  %c = arith.constant dense<[[0.0, 0xFF800000, 0xFF800000, 0xFF800000, 0xFF800000, 0xFF800000, 0xFF800000, 0xFF800000], [0.0, 0.0, 0xFF800000, 0xFF800000, 0xFF800000, 0xFF800000, 0xFF800000, 0xFF800000], [0.0, 0.0, 0.0, 0xFF800000, 0xFF800000, 0xFF800000, 0xFF800000, 0xFF800000], [0.0, 0.0, 0.0, 0.0, 0xFF800000, 0xFF800000, 0xFF800000, 0xFF800000], [0.0, 0.0, 0.0, 0.0, 0.0, 0xFF800000, 0xFF800000, 0xFF800000], [0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0xFF800000, 0xFF800000], [0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0xFF800000], [0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0]]> : tensor<8x8xf32>
  %s = tensor.extract_slice %c[0, 0] [%t, %t] [1, 1] : tensor<8x8xf32> to tensor<?x?xf32>
  return %s : tensor<?x?xf32>
}

// -----

// A window i - 2 <= j <= i of booleans: the `true` diagonals are the
// interval (the `false` ones are on both sides of it); select(c, true, false)
// is c.
// CHECK-LABEL: func.func @window_i1
// CHECK-DAG: %[[CM2:.*]] = arith.constant -2 : index
// CHECK: %[[HI:.*]] = arith.cmpi sle
// CHECK: %[[LO:.*]] = arith.cmpi sge, %{{.*}}, %{{.*}} : index
// CHECK: %[[IN:.*]] = arith.andi %[[HI]], %[[LO]] : i1
// CHECK: linalg.yield %[[IN]] : i1
func.func @window_i1(%t: index) -> tensor<?x?xi1> {
  %c = arith.constant dense<[[true, false, false, false, false, false, false, false], [true, true, false, false, false, false, false, false], [true, true, true, false, false, false, false, false], [false, true, true, true, false, false, false, false], [false, false, true, true, true, false, false, false], [false, false, false, true, true, true, false, false], [false, false, false, false, true, true, true, false], [false, false, false, false, false, true, true, true]]> : tensor<8x8xi1>
  %s = tensor.extract_slice %c[0, 0] [%t, %t] [1, 1] : tensor<8x8xi1> to tensor<?x?xi1>
  return %s : tensor<?x?xi1>
}

// -----

// Not a function of j - i: the slice stays.
// CHECK-LABEL: func.func @not_a_band
// CHECK: tensor.extract_slice
// CHECK-NOT: linalg.generic
func.func @not_a_band(%t: index) -> tensor<?x?xf32> {
  %c = arith.constant dense<[[0.0, 1.0, 1.0, 1.0, 1.0, 0.0, 1.0, 1.0], [1.0, 0.0, 1.0, 1.0, 1.0, 1.0, 0.0, 1.0], [1.0, 1.0, 0.0, 1.0, 1.0, 1.0, 1.0, 0.0], [1.0, 1.0, 1.0, 0.0, 1.0, 1.0, 1.0, 1.0], [1.0, 1.0, 1.0, 1.0, 0.0, 1.0, 1.0, 1.0], [0.0, 1.0, 1.0, 1.0, 1.0, 0.0, 1.0, 1.0], [1.0, 0.0, 1.0, 1.0, 1.0, 1.0, 0.0, 1.0], [1.0, 1.0, 0.0, 1.0, 1.0, 1.0, 1.0, 0.0]]> : tensor<8x8xf32>
  %s = tensor.extract_slice %c[0, 0] [%t, %t] [1, 1] : tensor<8x8xf32> to tensor<?x?xf32>
  return %s : tensor<?x?xf32>
}

// -----

// A boolean buffer as torch-mlir writes it (a dense_resource blob, a byte
// per element), sliced twice (rows, then columns) and compared with 0:
// one input-less generic computing !(j <= i).
// CHECK-LABEL: func.func @masked_fill_of_resource
// CHECK-DAG: %[[TRUE:.*]] = arith.constant true
// CHECK-NOT: tensor.extract_slice
// CHECK: linalg.generic {{.*}} outs(
// CHECK: %[[IN:.*]] = arith.cmpi sle
// CHECK: %[[OUT:.*]] = arith.xori %[[IN]], %[[TRUE]] : i1
// CHECK: linalg.yield %[[OUT]] : i1
#id = affine_map<(d0, d1) -> (d0, d1)>
func.func @masked_fill_of_resource(%t: index) -> tensor<?x?xi1> {
  %c = arith.constant dense_resource<tril_bool> : tensor<1x1x8x8xi1>
  %rows = tensor.extract_slice %c[0, 0, 0, 0] [1, 1, %t, 8] [1, 1, 1, 1] : tensor<1x1x8x8xi1> to tensor<?x8xi1>
  %s = tensor.extract_slice %rows[0, 0] [%t, %t] [1, 1] : tensor<?x8xi1> to tensor<?x?xi1>
  %e = tensor.empty(%t, %t) : tensor<?x?xi1>
  %m = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel"]} ins(%s : tensor<?x?xi1>) outs(%e : tensor<?x?xi1>) {
  ^bb0(%in: i1, %out: i1):
    %false = arith.constant false
    %x = arith.cmpi eq, %in, %false : i1
    linalg.yield %x : i1
  } -> tensor<?x?xi1>
  return %m : tensor<?x?xi1>
}
{-#
  dialect_resources: {
    builtin: {
      tril_bool: "0x0100000001000000000000000101000000000000010101000000000001010101000000000101010101000000010101010101000001010101010101000101010101010101"
    }
  }
#-}

// -----

// nanoGPT's `att.masked_fill(bias[:T, :T] == 0, -inf)` on a float buffer:
// the comparison is fused into the band's generic and folded to !(j <= i).
// CHECK-LABEL: func.func @masked_fill_of_float_buffer
// CHECK-NOT: tensor.extract_slice
// CHECK: linalg.generic {{.*}} outs(
// CHECK: %[[IN:.*]] = arith.cmpi sle
// CHECK: %[[OUT:.*]] = arith.xori %[[IN]], %{{.*}} : i1
// CHECK: linalg.yield %[[OUT]] : i1
#id = affine_map<(d0, d1) -> (d0, d1)>
func.func @masked_fill_of_float_buffer(%t: index) -> tensor<?x?xi1> {
  %zero = arith.constant 0.0 : f32
  %c = arith.constant dense<[[1.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0], [1.0, 1.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0], [1.0, 1.0, 1.0, 0.0, 0.0, 0.0, 0.0, 0.0], [1.0, 1.0, 1.0, 1.0, 0.0, 0.0, 0.0, 0.0], [1.0, 1.0, 1.0, 1.0, 1.0, 0.0, 0.0, 0.0], [1.0, 1.0, 1.0, 1.0, 1.0, 1.0, 0.0, 0.0], [1.0, 1.0, 1.0, 1.0, 1.0, 1.0, 1.0, 0.0], [1.0, 1.0, 1.0, 1.0, 1.0, 1.0, 1.0, 1.0]]> : tensor<8x8xf32>
  %s = tensor.extract_slice %c[0, 0] [%t, %t] [1, 1] : tensor<8x8xf32> to tensor<?x?xf32>
  %e = tensor.empty(%t, %t) : tensor<?x?xi1>
  %m = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel"]} ins(%s : tensor<?x?xf32>) outs(%e : tensor<?x?xi1>) {
  ^bb0(%in: f32, %out: i1):
    %x = arith.cmpf oeq, %in, %zero : f32
    linalg.yield %x : i1
  } -> tensor<?x?xi1>
  return %m : tensor<?x?xi1>
}
