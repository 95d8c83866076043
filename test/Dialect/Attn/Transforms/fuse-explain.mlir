// RUN: attention-opt %s -split-input-file --attn-fuse="explain" -verify-diagnostics | FileCheck %s

// attn-fuse explain: near-miss attention chains that are left alone. Each
// gets a remark with the reason at its softmax anchor (a linalg.softmax or
// the row max of a decomposed softmax) and a note at the first op that
// blocks the match. Unless said otherwise the scores are 4x6x10 (B*H = 4,
// Lq = 6, Lk = 10), the head dim 8 and the value dim 5.

// A sliding window written with its second bound the wrong way round
// (j - i <= 3 instead of i - j <= 3): both comparisons bound j from above.
#id3 = affine_map<(d0, d1, d2) -> (d0, d1, d2)>
// CHECK-LABEL: func @band_same_side
// CHECK-NOT: attn.attention
func.func @band_same_side(%q: tensor<4x6x8xf32>, %k: tensor<4x10x8xf32>, %v: tensor<4x10x5xf32>) -> tensor<4x6x5xf32> {
  %zero = arith.constant 0.0 : f32
  %ninf = arith.constant 0xFF800000 : f32
  %es = tensor.empty() : tensor<4x6x10xf32>
  %zs = linalg.fill ins(%zero : f32) outs(%es : tensor<4x6x10xf32>) -> tensor<4x6x10xf32>
  %s = linalg.batch_matmul indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d0, d1, d3)>, affine_map<(d0, d1, d2, d3) -> (d0, d2, d3)>, affine_map<(d0, d1, d2, d3) -> (d0, d1, d2)>] ins(%q, %k : tensor<4x6x8xf32>, tensor<4x10x8xf32>) outs(%zs : tensor<4x6x10xf32>) -> tensor<4x6x10xf32>
  %sc = linalg.generic {indexing_maps = [#id3, #id3], iterator_types = ["parallel", "parallel", "parallel"]} ins(%s : tensor<4x6x10xf32>) outs(%es : tensor<4x6x10xf32>) {
  ^bb0(%x: f32, %o: f32):
    %i = linalg.index 1 : index
    %j = linalg.index 2 : index
    %c3 = arith.constant 3 : index
    %ji = arith.subi %j, %i : index
    %causal = arith.cmpi sle, %j, %i : index
    %near = arith.cmpi sle, %ji, %c3 : index
    // expected-note @below {{the first op that blocks it: 'arith.andi'}}
    %keep = arith.andi %causal, %near : i1
    %r = arith.select %keep, %x, %ninf : f32
    linalg.yield %r : f32
  } -> tensor<4x6x10xf32>
  // expected-remark @below {{attn-fuse: not fused: the index-built mask bounds the keys twice on the same side}}
  %p = linalg.softmax dimension(2) ins(%sc : tensor<4x6x10xf32>) outs(%es : tensor<4x6x10xf32>) -> tensor<4x6x10xf32>
  %eo = tensor.empty() : tensor<4x6x5xf32>
  %zo = linalg.fill ins(%zero : f32) outs(%eo : tensor<4x6x5xf32>) -> tensor<4x6x5xf32>
  %o = linalg.batch_matmul ins(%p, %v : tensor<4x6x10xf32>, tensor<4x10x5xf32>) outs(%zo : tensor<4x6x5xf32>) -> tensor<4x6x5xf32>
  return %o : tensor<4x6x5xf32>
}

// -----

// The causal comparison and a key-padding mask (an i1 input of the same
// generic) combined in one condition: the padding side is no comparison.
// The note can only name the generic that holds the block argument.
#id3 = affine_map<(d0, d1, d2) -> (d0, d1, d2)>
#pad = affine_map<(d0, d1, d2) -> (d0, d2)>
// CHECK-LABEL: func @causal_and_padding_arg
// CHECK-NOT: attn.attention
func.func @causal_and_padding_arg(%q: tensor<4x6x8xf32>, %k: tensor<4x10x8xf32>, %v: tensor<4x10x5xf32>, %pad: tensor<4x10xi1>) -> tensor<4x6x5xf32> {
  %zero = arith.constant 0.0 : f32
  %ninf = arith.constant 0xFF800000 : f32
  %es = tensor.empty() : tensor<4x6x10xf32>
  %zs = linalg.fill ins(%zero : f32) outs(%es : tensor<4x6x10xf32>) -> tensor<4x6x10xf32>
  %s = linalg.batch_matmul indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d0, d1, d3)>, affine_map<(d0, d1, d2, d3) -> (d0, d2, d3)>, affine_map<(d0, d1, d2, d3) -> (d0, d1, d2)>] ins(%q, %k : tensor<4x6x8xf32>, tensor<4x10x8xf32>) outs(%zs : tensor<4x6x10xf32>) -> tensor<4x6x10xf32>
  // expected-note @below {{the first op that blocks it: 'linalg.generic'}}
  %sc = linalg.generic {indexing_maps = [#id3, #pad, #id3], iterator_types = ["parallel", "parallel", "parallel"]} ins(%s, %pad : tensor<4x6x10xf32>, tensor<4x10xi1>) outs(%es : tensor<4x6x10xf32>) {
  ^bb0(%x: f32, %valid: i1, %o: f32):
    %i = linalg.index 1 : index
    %j = linalg.index 2 : index
    %causal = arith.cmpi ule, %j, %i : index
    %keep = arith.andi %causal, %valid : i1
    %r = arith.select %keep, %x, %ninf : f32
    linalg.yield %r : f32
  } -> tensor<4x6x10xf32>
  // expected-remark @below {{attn-fuse: not fused: the index-built mask condition is not an arith.cmpi}}
  %p = linalg.softmax dimension(2) ins(%sc : tensor<4x6x10xf32>) outs(%es : tensor<4x6x10xf32>) -> tensor<4x6x10xf32>
  %eo = tensor.empty() : tensor<4x6x5xf32>
  %zo = linalg.fill ins(%zero : f32) outs(%eo : tensor<4x6x5xf32>) -> tensor<4x6x5xf32>
  %o = linalg.batch_matmul ins(%p, %v : tensor<4x6x10xf32>, tensor<4x10x5xf32>) outs(%zo : tensor<4x6x5xf32>) -> tensor<4x6x5xf32>
  return %o : tensor<4x6x5xf32>
}

// -----

// Key padding to a static length (keys j >= 7 excluded) built from
// linalg.index: it does not involve the query index.
#id3 = affine_map<(d0, d1, d2) -> (d0, d1, d2)>
// CHECK-LABEL: func @static_key_padding
// CHECK-NOT: attn.attention
func.func @static_key_padding(%q: tensor<4x6x8xf32>, %k: tensor<4x10x8xf32>, %v: tensor<4x10x5xf32>) -> tensor<4x6x5xf32> {
  %zero = arith.constant 0.0 : f32
  %ninf = arith.constant 0xFF800000 : f32
  %es = tensor.empty() : tensor<4x6x10xf32>
  %zs = linalg.fill ins(%zero : f32) outs(%es : tensor<4x6x10xf32>) -> tensor<4x6x10xf32>
  %s = linalg.batch_matmul indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d0, d1, d3)>, affine_map<(d0, d1, d2, d3) -> (d0, d2, d3)>, affine_map<(d0, d1, d2, d3) -> (d0, d1, d2)>] ins(%q, %k : tensor<4x6x8xf32>, tensor<4x10x8xf32>) outs(%zs : tensor<4x6x10xf32>) -> tensor<4x6x10xf32>
  %sc = linalg.generic {indexing_maps = [#id3, #id3], iterator_types = ["parallel", "parallel", "parallel"]} ins(%s : tensor<4x6x10xf32>) outs(%es : tensor<4x6x10xf32>) {
  ^bb0(%x: f32, %o: f32):
    %j = linalg.index 2 : index
    %len = arith.constant 7 : index
    // expected-note @below {{the first op that blocks it: 'arith.cmpi'}}
    %c = arith.cmpi sge, %j, %len : index
    %r = arith.select %c, %ninf, %x : f32
    linalg.yield %r : f32
  } -> tensor<4x6x10xf32>
  // expected-remark @below {{attn-fuse: not fused: the index-built mask does not compare the key index with the query index plus a constant}}
  %p = linalg.softmax dimension(2) ins(%sc : tensor<4x6x10xf32>) outs(%es : tensor<4x6x10xf32>) -> tensor<4x6x10xf32>
  %eo = tensor.empty() : tensor<4x6x5xf32>
  %zo = linalg.fill ins(%zero : f32) outs(%eo : tensor<4x6x5xf32>) -> tensor<4x6x5xf32>
  %o = linalg.batch_matmul ins(%p, %v : tensor<4x6x10xf32>, tensor<4x10x5xf32>) outs(%zo : tensor<4x6x5xf32>) -> tensor<4x6x5xf32>
  return %o : tensor<4x6x5xf32>
}

// -----

// The causal mask applied twice, before and after the scale (e.g. by the
// model and again by its attention wrapper). The note names the comparison
// of the second mask the matcher meets (the earlier one in the IR).
#id3 = affine_map<(d0, d1, d2) -> (d0, d1, d2)>
// CHECK-LABEL: func @causal_twice
// CHECK-NOT: attn.attention
func.func @causal_twice(%q: tensor<4x6x8xf32>, %k: tensor<4x10x8xf32>, %v: tensor<4x10x5xf32>) -> tensor<4x6x5xf32> {
  %zero = arith.constant 0.0 : f32
  %ninf = arith.constant 0xFF800000 : f32
  %es = tensor.empty() : tensor<4x6x10xf32>
  %zs = linalg.fill ins(%zero : f32) outs(%es : tensor<4x6x10xf32>) -> tensor<4x6x10xf32>
  %s = linalg.batch_matmul indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d0, d1, d3)>, affine_map<(d0, d1, d2, d3) -> (d0, d2, d3)>, affine_map<(d0, d1, d2, d3) -> (d0, d1, d2)>] ins(%q, %k : tensor<4x6x8xf32>, tensor<4x10x8xf32>) outs(%zs : tensor<4x6x10xf32>) -> tensor<4x6x10xf32>
  %c1 = linalg.generic {indexing_maps = [#id3, #id3], iterator_types = ["parallel", "parallel", "parallel"]} ins(%s : tensor<4x6x10xf32>) outs(%es : tensor<4x6x10xf32>) {
  ^bb0(%x: f32, %o: f32):
    %i = linalg.index 1 : index
    %j = linalg.index 2 : index
    // expected-note @below {{the first op that blocks it: 'arith.cmpi'}}
    %c = arith.cmpi ugt, %j, %i : index
    %r = arith.select %c, %ninf, %x : f32
    linalg.yield %r : f32
  } -> tensor<4x6x10xf32>
  %ss = linalg.generic {indexing_maps = [#id3, #id3], iterator_types = ["parallel", "parallel", "parallel"]} ins(%c1 : tensor<4x6x10xf32>) outs(%es : tensor<4x6x10xf32>) {
  ^bb0(%x: f32, %o: f32):
    %c = arith.constant 0.125 : f32
    %m = arith.mulf %x, %c : f32
    linalg.yield %m : f32
  } -> tensor<4x6x10xf32>
  %c2 = linalg.generic {indexing_maps = [#id3, #id3], iterator_types = ["parallel", "parallel", "parallel"]} ins(%ss : tensor<4x6x10xf32>) outs(%es : tensor<4x6x10xf32>) {
  ^bb0(%x: f32, %o: f32):
    %i = linalg.index 1 : index
    %j = linalg.index 2 : index
    %c = arith.cmpi ugt, %j, %i : index
    %r = arith.select %c, %ninf, %x : f32
    linalg.yield %r : f32
  } -> tensor<4x6x10xf32>
  // expected-remark @below {{attn-fuse: not fused: two index-built causal masks}}
  %p = linalg.softmax dimension(2) ins(%c2 : tensor<4x6x10xf32>) outs(%es : tensor<4x6x10xf32>) -> tensor<4x6x10xf32>
  %eo = tensor.empty() : tensor<4x6x5xf32>
  %zo = linalg.fill ins(%zero : f32) outs(%eo : tensor<4x6x5xf32>) -> tensor<4x6x5xf32>
  %o = linalg.batch_matmul ins(%p, %v : tensor<4x6x10xf32>, tensor<4x10x5xf32>) outs(%zo : tensor<4x6x5xf32>) -> tensor<4x6x5xf32>
  return %o : tensor<4x6x5xf32>
}

// -----

// A block-causal (chunked) mask: query and key blocks of 2 compared with
// arith.divui, which an index-built mask may not use.
#id3 = affine_map<(d0, d1, d2) -> (d0, d1, d2)>
// CHECK-LABEL: func @block_causal
// CHECK-NOT: attn.attention
func.func @block_causal(%q: tensor<4x6x8xf32>, %k: tensor<4x10x8xf32>, %v: tensor<4x10x5xf32>) -> tensor<4x6x5xf32> {
  %zero = arith.constant 0.0 : f32
  %ninf = arith.constant 0xFF800000 : f32
  %es = tensor.empty() : tensor<4x6x10xf32>
  %zs = linalg.fill ins(%zero : f32) outs(%es : tensor<4x6x10xf32>) -> tensor<4x6x10xf32>
  %s = linalg.batch_matmul indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d0, d1, d3)>, affine_map<(d0, d1, d2, d3) -> (d0, d2, d3)>, affine_map<(d0, d1, d2, d3) -> (d0, d1, d2)>] ins(%q, %k : tensor<4x6x8xf32>, tensor<4x10x8xf32>) outs(%zs : tensor<4x6x10xf32>) -> tensor<4x6x10xf32>
  %sc = linalg.generic {indexing_maps = [#id3, #id3], iterator_types = ["parallel", "parallel", "parallel"]} ins(%s : tensor<4x6x10xf32>) outs(%es : tensor<4x6x10xf32>) {
  ^bb0(%x: f32, %o: f32):
    %i = linalg.index 1 : index
    %j = linalg.index 2 : index
    %c2 = arith.constant 2 : index
    // expected-note @below {{the first op that blocks it: 'arith.divui'}}
    %bi = arith.divui %i, %c2 : index
    %bj = arith.divui %j, %c2 : index
    %c = arith.cmpi ugt, %bj, %bi : index
    %r = arith.select %c, %ninf, %x : f32
    linalg.yield %r : f32
  } -> tensor<4x6x10xf32>
  // expected-remark @below {{attn-fuse: not fused: the index-built mask has other operations in its body}}
  %p = linalg.softmax dimension(2) ins(%sc : tensor<4x6x10xf32>) outs(%es : tensor<4x6x10xf32>) -> tensor<4x6x10xf32>
  %eo = tensor.empty() : tensor<4x6x5xf32>
  %zo = linalg.fill ins(%zero : f32) outs(%eo : tensor<4x6x5xf32>) -> tensor<4x6x5xf32>
  %o = linalg.batch_matmul ins(%p, %v : tensor<4x6x10xf32>, tensor<4x10x5xf32>) outs(%zo : tensor<4x6x5xf32>) -> tensor<4x6x5xf32>
  return %o : tensor<4x6x5xf32>
}

// -----

// The fill of the causal mask is a runtime value (a function argument).
#id3 = affine_map<(d0, d1, d2) -> (d0, d1, d2)>
// CHECK-LABEL: func @causal_runtime_fill
// CHECK-NOT: attn.attention
func.func @causal_runtime_fill(%q: tensor<4x6x8xf32>, %k: tensor<4x10x8xf32>, %v: tensor<4x10x5xf32>, %fill: f32) -> tensor<4x6x5xf32> {
  %zero = arith.constant 0.0 : f32
  %es = tensor.empty() : tensor<4x6x10xf32>
  %zs = linalg.fill ins(%zero : f32) outs(%es : tensor<4x6x10xf32>) -> tensor<4x6x10xf32>
  %s = linalg.batch_matmul indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d0, d1, d3)>, affine_map<(d0, d1, d2, d3) -> (d0, d2, d3)>, affine_map<(d0, d1, d2, d3) -> (d0, d1, d2)>] ins(%q, %k : tensor<4x6x8xf32>, tensor<4x10x8xf32>) outs(%zs : tensor<4x6x10xf32>) -> tensor<4x6x10xf32>
  %sc = linalg.generic {indexing_maps = [#id3, #id3], iterator_types = ["parallel", "parallel", "parallel"]} ins(%s : tensor<4x6x10xf32>) outs(%es : tensor<4x6x10xf32>) {
  ^bb0(%x: f32, %o: f32):
    %i = linalg.index 1 : index
    %j = linalg.index 2 : index
    %c = arith.cmpi ugt, %j, %i : index
    // expected-note @below {{the first op that blocks it: 'arith.select'}}
    %r = arith.select %c, %fill, %x : f32
    linalg.yield %r : f32
  } -> tensor<4x6x10xf32>
  // expected-remark @below {{attn-fuse: not fused: the index-built mask selects a non-constant}}
  %p = linalg.softmax dimension(2) ins(%sc : tensor<4x6x10xf32>) outs(%es : tensor<4x6x10xf32>) -> tensor<4x6x10xf32>
  %eo = tensor.empty() : tensor<4x6x5xf32>
  %zo = linalg.fill ins(%zero : f32) outs(%eo : tensor<4x6x5xf32>) -> tensor<4x6x5xf32>
  %o = linalg.batch_matmul ins(%p, %v : tensor<4x6x10xf32>, tensor<4x10x5xf32>) outs(%zo : tensor<4x6x5xf32>) -> tensor<4x6x5xf32>
  return %o : tensor<4x6x5xf32>
}

// -----

// A bias tensor and the causal bias added in one generic, (s + b) + causal:
// the outer addition does not add to the scores themselves.
#id3 = affine_map<(d0, d1, d2) -> (d0, d1, d2)>
#bias = affine_map<(d0, d1, d2) -> (d1, d2)>
// CHECK-LABEL: func @bias_then_causal_one_generic
// CHECK-NOT: attn.attention
func.func @bias_then_causal_one_generic(%q: tensor<4x6x8xf32>, %k: tensor<4x10x8xf32>, %v: tensor<4x10x5xf32>, %b: tensor<6x10xf32>) -> tensor<4x6x5xf32> {
  %zero = arith.constant 0.0 : f32
  %ninf = arith.constant 0xFF800000 : f32
  %es = tensor.empty() : tensor<4x6x10xf32>
  %zs = linalg.fill ins(%zero : f32) outs(%es : tensor<4x6x10xf32>) -> tensor<4x6x10xf32>
  %s = linalg.batch_matmul indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d0, d1, d3)>, affine_map<(d0, d1, d2, d3) -> (d0, d2, d3)>, affine_map<(d0, d1, d2, d3) -> (d0, d1, d2)>] ins(%q, %k : tensor<4x6x8xf32>, tensor<4x10x8xf32>) outs(%zs : tensor<4x6x10xf32>) -> tensor<4x6x10xf32>
  %sc = linalg.generic {indexing_maps = [#id3, #bias, #id3], iterator_types = ["parallel", "parallel", "parallel"]} ins(%s, %b : tensor<4x6x10xf32>, tensor<6x10xf32>) outs(%es : tensor<4x6x10xf32>) {
  ^bb0(%x: f32, %y: f32, %o: f32):
    %i = linalg.index 1 : index
    %j = linalg.index 2 : index
    %c = arith.cmpi ugt, %j, %i : index
    %cb = arith.select %c, %ninf, %zero : f32
    %xb = arith.addf %x, %y : f32
    // expected-note @below {{the first op that blocks it: 'arith.addf'}}
    %r = arith.addf %xb, %cb : f32
    linalg.yield %r : f32
  } -> tensor<4x6x10xf32>
  // expected-remark @below {{attn-fuse: not fused: the index-built mask does not add to the scores}}
  %p = linalg.softmax dimension(2) ins(%sc : tensor<4x6x10xf32>) outs(%es : tensor<4x6x10xf32>) -> tensor<4x6x10xf32>
  %eo = tensor.empty() : tensor<4x6x5xf32>
  %zo = linalg.fill ins(%zero : f32) outs(%eo : tensor<4x6x5xf32>) -> tensor<4x6x5xf32>
  %o = linalg.batch_matmul ins(%p, %v : tensor<4x6x10xf32>, tensor<4x10x5xf32>) outs(%zo : tensor<4x6x5xf32>) -> tensor<4x6x5xf32>
  return %o : tensor<4x6x5xf32>
}

// -----

// The same, associated the other way, s + (b + causal): what is added to
// the scores is a sum, not the select of an index-built bias.
#id3 = affine_map<(d0, d1, d2) -> (d0, d1, d2)>
#bias = affine_map<(d0, d1, d2) -> (d1, d2)>
// CHECK-LABEL: func @bias_plus_causal_one_generic
// CHECK-NOT: attn.attention
func.func @bias_plus_causal_one_generic(%q: tensor<4x6x8xf32>, %k: tensor<4x10x8xf32>, %v: tensor<4x10x5xf32>, %b: tensor<6x10xf32>) -> tensor<4x6x5xf32> {
  %zero = arith.constant 0.0 : f32
  %ninf = arith.constant 0xFF800000 : f32
  %es = tensor.empty() : tensor<4x6x10xf32>
  %zs = linalg.fill ins(%zero : f32) outs(%es : tensor<4x6x10xf32>) -> tensor<4x6x10xf32>
  %s = linalg.batch_matmul indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d0, d1, d3)>, affine_map<(d0, d1, d2, d3) -> (d0, d2, d3)>, affine_map<(d0, d1, d2, d3) -> (d0, d1, d2)>] ins(%q, %k : tensor<4x6x8xf32>, tensor<4x10x8xf32>) outs(%zs : tensor<4x6x10xf32>) -> tensor<4x6x10xf32>
  %sc = linalg.generic {indexing_maps = [#id3, #bias, #id3], iterator_types = ["parallel", "parallel", "parallel"]} ins(%s, %b : tensor<4x6x10xf32>, tensor<6x10xf32>) outs(%es : tensor<4x6x10xf32>) {
  ^bb0(%x: f32, %y: f32, %o: f32):
    %i = linalg.index 1 : index
    %j = linalg.index 2 : index
    %c = arith.cmpi ugt, %j, %i : index
    %cb = arith.select %c, %ninf, %zero : f32
    // expected-note @below {{the first op that blocks it: 'arith.addf'}}
    %bc = arith.addf %y, %cb : f32
    %r = arith.addf %x, %bc : f32
    linalg.yield %r : f32
  } -> tensor<4x6x10xf32>
  // expected-remark @below {{attn-fuse: not fused: the index-built bias is not a select}}
  %p = linalg.softmax dimension(2) ins(%sc : tensor<4x6x10xf32>) outs(%es : tensor<4x6x10xf32>) -> tensor<4x6x10xf32>
  %eo = tensor.empty() : tensor<4x6x5xf32>
  %zo = linalg.fill ins(%zero : f32) outs(%eo : tensor<4x6x5xf32>) -> tensor<4x6x5xf32>
  %o = linalg.batch_matmul ins(%p, %v : tensor<4x6x10xf32>, tensor<4x10x5xf32>) outs(%zo : tensor<4x6x5xf32>) -> tensor<4x6x5xf32>
  return %o : tensor<4x6x5xf32>
}

// -----

// A causal bias that is 1 (a multiplicative keep value) at allowed
// positions, not 0.
#id3 = affine_map<(d0, d1, d2) -> (d0, d1, d2)>
// CHECK-LABEL: func @causal_bias_one
// CHECK-NOT: attn.attention
func.func @causal_bias_one(%q: tensor<4x6x8xf32>, %k: tensor<4x10x8xf32>, %v: tensor<4x10x5xf32>) -> tensor<4x6x5xf32> {
  %zero = arith.constant 0.0 : f32
  %one = arith.constant 1.0 : f32
  %ninf = arith.constant 0xFF800000 : f32
  %es = tensor.empty() : tensor<4x6x10xf32>
  %zs = linalg.fill ins(%zero : f32) outs(%es : tensor<4x6x10xf32>) -> tensor<4x6x10xf32>
  %s = linalg.batch_matmul indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d0, d1, d3)>, affine_map<(d0, d1, d2, d3) -> (d0, d2, d3)>, affine_map<(d0, d1, d2, d3) -> (d0, d1, d2)>] ins(%q, %k : tensor<4x6x8xf32>, tensor<4x10x8xf32>) outs(%zs : tensor<4x6x10xf32>) -> tensor<4x6x10xf32>
  %sc = linalg.generic {indexing_maps = [#id3, #id3], iterator_types = ["parallel", "parallel", "parallel"]} ins(%s : tensor<4x6x10xf32>) outs(%es : tensor<4x6x10xf32>) {
  ^bb0(%x: f32, %o: f32):
    %i = linalg.index 1 : index
    %j = linalg.index 2 : index
    %c = arith.cmpi ugt, %j, %i : index
    // expected-note @below {{the first op that blocks it: 'arith.select'}}
    %cb = arith.select %c, %ninf, %one : f32
    %r = arith.addf %x, %cb : f32
    linalg.yield %r : f32
  } -> tensor<4x6x10xf32>
  // expected-remark @below {{attn-fuse: not fused: the index-built bias is not 0 at allowed positions}}
  %p = linalg.softmax dimension(2) ins(%sc : tensor<4x6x10xf32>) outs(%es : tensor<4x6x10xf32>) -> tensor<4x6x10xf32>
  %eo = tensor.empty() : tensor<4x6x5xf32>
  %zo = linalg.fill ins(%zero : f32) outs(%eo : tensor<4x6x5xf32>) -> tensor<4x6x5xf32>
  %o = linalg.batch_matmul ins(%p, %v : tensor<4x6x10xf32>, tensor<4x10x5xf32>) outs(%zo : tensor<4x6x5xf32>) -> tensor<4x6x5xf32>
  return %o : tensor<4x6x5xf32>
}

// -----

// A causal bias with the lowest f32 (torch.finfo(float32).min) instead of
// -inf, as Hugging Face models write it; accepted with
// large-negative-is-masked.
#id3 = affine_map<(d0, d1, d2) -> (d0, d1, d2)>
// CHECK-LABEL: func @causal_bias_finfo_min
// CHECK-NOT: attn.attention
func.func @causal_bias_finfo_min(%q: tensor<4x6x8xf32>, %k: tensor<4x10x8xf32>, %v: tensor<4x10x5xf32>) -> tensor<4x6x5xf32> {
  %zero = arith.constant 0.0 : f32
  %min = arith.constant -3.40282347E+38 : f32
  %es = tensor.empty() : tensor<4x6x10xf32>
  %zs = linalg.fill ins(%zero : f32) outs(%es : tensor<4x6x10xf32>) -> tensor<4x6x10xf32>
  %s = linalg.batch_matmul indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d0, d1, d3)>, affine_map<(d0, d1, d2, d3) -> (d0, d2, d3)>, affine_map<(d0, d1, d2, d3) -> (d0, d1, d2)>] ins(%q, %k : tensor<4x6x8xf32>, tensor<4x10x8xf32>) outs(%zs : tensor<4x6x10xf32>) -> tensor<4x6x10xf32>
  %sc = linalg.generic {indexing_maps = [#id3, #id3], iterator_types = ["parallel", "parallel", "parallel"]} ins(%s : tensor<4x6x10xf32>) outs(%es : tensor<4x6x10xf32>) {
  ^bb0(%x: f32, %o: f32):
    %i = linalg.index 1 : index
    %j = linalg.index 2 : index
    %c = arith.cmpi ugt, %j, %i : index
    // expected-note @below {{the first op that blocks it: 'arith.select'}}
    %cb = arith.select %c, %min, %zero : f32
    %r = arith.addf %x, %cb : f32
    linalg.yield %r : f32
  } -> tensor<4x6x10xf32>
  // expected-remark @below {{attn-fuse: not fused: the index-built bias is finite, not -inf (see option large-negative-is-masked)}}
  %p = linalg.softmax dimension(2) ins(%sc : tensor<4x6x10xf32>) outs(%es : tensor<4x6x10xf32>) -> tensor<4x6x10xf32>
  %eo = tensor.empty() : tensor<4x6x5xf32>
  %zo = linalg.fill ins(%zero : f32) outs(%eo : tensor<4x6x5xf32>) -> tensor<4x6x5xf32>
  %o = linalg.batch_matmul ins(%p, %v : tensor<4x6x10xf32>, tensor<4x10x5xf32>) outs(%zo : tensor<4x6x5xf32>) -> tensor<4x6x5xf32>
  return %o : tensor<4x6x5xf32>
}

// -----

// A causal bias whose excluded value is a runtime scalar.
#id3 = affine_map<(d0, d1, d2) -> (d0, d1, d2)>
// CHECK-LABEL: func @causal_bias_runtime_fill
// CHECK-NOT: attn.attention
func.func @causal_bias_runtime_fill(%q: tensor<4x6x8xf32>, %k: tensor<4x10x8xf32>, %v: tensor<4x10x5xf32>, %fill: f32) -> tensor<4x6x5xf32> {
  %zero = arith.constant 0.0 : f32
  %es = tensor.empty() : tensor<4x6x10xf32>
  %zs = linalg.fill ins(%zero : f32) outs(%es : tensor<4x6x10xf32>) -> tensor<4x6x10xf32>
  %s = linalg.batch_matmul indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d0, d1, d3)>, affine_map<(d0, d1, d2, d3) -> (d0, d2, d3)>, affine_map<(d0, d1, d2, d3) -> (d0, d1, d2)>] ins(%q, %k : tensor<4x6x8xf32>, tensor<4x10x8xf32>) outs(%zs : tensor<4x6x10xf32>) -> tensor<4x6x10xf32>
  %sc = linalg.generic {indexing_maps = [#id3, #id3], iterator_types = ["parallel", "parallel", "parallel"]} ins(%s : tensor<4x6x10xf32>) outs(%es : tensor<4x6x10xf32>) {
  ^bb0(%x: f32, %o: f32):
    %i = linalg.index 1 : index
    %j = linalg.index 2 : index
    %c = arith.cmpi ugt, %j, %i : index
    // expected-note @below {{the first op that blocks it: 'arith.select'}}
    %cb = arith.select %c, %fill, %zero : f32
    %r = arith.addf %cb, %x : f32
    linalg.yield %r : f32
  } -> tensor<4x6x10xf32>
  // expected-remark @below {{attn-fuse: not fused: the index-built bias selects a non-constant}}
  %p = linalg.softmax dimension(2) ins(%sc : tensor<4x6x10xf32>) outs(%es : tensor<4x6x10xf32>) -> tensor<4x6x10xf32>
  %eo = tensor.empty() : tensor<4x6x5xf32>
  %zo = linalg.fill ins(%zero : f32) outs(%eo : tensor<4x6x5xf32>) -> tensor<4x6x5xf32>
  %o = linalg.batch_matmul ins(%p, %v : tensor<4x6x10xf32>, tensor<4x10x5xf32>) outs(%zo : tensor<4x6x5xf32>) -> tensor<4x6x5xf32>
  return %o : tensor<4x6x5xf32>
}
// -----

// torch-mlir style: the row max reduced without keepdim, then
// tensor.expand_shape back to [B, Lq, 1] before the subtraction. The
// subtraction reads the reshaped max, not the row max.
#id3 = affine_map<(d0, d1, d2) -> (d0, d1, d2)>
#row = affine_map<(d0, d1, d2) -> (d0, d1)>
#row1 = affine_map<(d0, d1, d2) -> (d0, d1, 0)>
// CHECK-LABEL: func @max_expand_shape
// CHECK-NOT: attn.attention
func.func @max_expand_shape(%q: tensor<4x6x8xf32>, %k: tensor<4x10x8xf32>, %v: tensor<4x10x5xf32>) -> tensor<4x6x5xf32> {
  %zero = arith.constant 0.0 : f32
  %ninf = arith.constant 0xFF800000 : f32
  %es = tensor.empty() : tensor<4x6x10xf32>
  %zs = linalg.fill ins(%zero : f32) outs(%es : tensor<4x6x10xf32>) -> tensor<4x6x10xf32>
  %s = linalg.batch_matmul indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d0, d1, d3)>, affine_map<(d0, d1, d2, d3) -> (d0, d2, d3)>, affine_map<(d0, d1, d2, d3) -> (d0, d1, d2)>] ins(%q, %k : tensor<4x6x8xf32>, tensor<4x10x8xf32>) outs(%zs : tensor<4x6x10xf32>) -> tensor<4x6x10xf32>
  %er = tensor.empty() : tensor<4x6xf32>
  %mi = linalg.fill ins(%ninf : f32) outs(%er : tensor<4x6xf32>) -> tensor<4x6xf32>
  // expected-remark @below {{attn-fuse: not fused: the row max is not subtracted from the scores}}
  %m = linalg.generic {indexing_maps = [#id3, #row], iterator_types = ["parallel", "parallel", "reduction"]} ins(%s : tensor<4x6x10xf32>) outs(%mi : tensor<4x6xf32>) {
  ^bb0(%x: f32, %acc: f32):
    %r = arith.maximumf %x, %acc : f32
    linalg.yield %r : f32
  } -> tensor<4x6xf32>
  // expected-note @below {{the first op that blocks it: 'tensor.expand_shape'}}
  %m1 = tensor.expand_shape %m [[0], [1, 2]] output_shape [4, 6, 1] : tensor<4x6xf32> into tensor<4x6x1xf32>
  %d = linalg.generic {indexing_maps = [#id3, #row1, #id3], iterator_types = ["parallel", "parallel", "parallel"]} ins(%s, %m1 : tensor<4x6x10xf32>, tensor<4x6x1xf32>) outs(%es : tensor<4x6x10xf32>) {
  ^bb0(%x: f32, %y: f32, %o: f32):
    %r = arith.subf %x, %y : f32
    linalg.yield %r : f32
  } -> tensor<4x6x10xf32>
  %e = linalg.generic {indexing_maps = [#id3, #id3], iterator_types = ["parallel", "parallel", "parallel"]} ins(%d : tensor<4x6x10xf32>) outs(%es : tensor<4x6x10xf32>) {
  ^bb0(%x: f32, %o: f32):
    %r = math.exp %x : f32
    linalg.yield %r : f32
  } -> tensor<4x6x10xf32>
  %li = linalg.fill ins(%zero : f32) outs(%er : tensor<4x6xf32>) -> tensor<4x6xf32>
  %l = linalg.generic {indexing_maps = [#id3, #row], iterator_types = ["parallel", "parallel", "reduction"]} ins(%e : tensor<4x6x10xf32>) outs(%li : tensor<4x6xf32>) {
  ^bb0(%x: f32, %acc: f32):
    %r = arith.addf %x, %acc : f32
    linalg.yield %r : f32
  } -> tensor<4x6xf32>
  %p = linalg.generic {indexing_maps = [#id3, #row, #id3], iterator_types = ["parallel", "parallel", "parallel"]} ins(%e, %l : tensor<4x6x10xf32>, tensor<4x6xf32>) outs(%es : tensor<4x6x10xf32>) {
  ^bb0(%x: f32, %y: f32, %o: f32):
    %r = arith.divf %x, %y : f32
    linalg.yield %r : f32
  } -> tensor<4x6x10xf32>
  %eo = tensor.empty() : tensor<4x6x5xf32>
  %zo = linalg.fill ins(%zero : f32) outs(%eo : tensor<4x6x5xf32>) -> tensor<4x6x5xf32>
  %o = linalg.batch_matmul ins(%p, %v : tensor<4x6x10xf32>, tensor<4x10x5xf32>) outs(%zo : tensor<4x6x5xf32>) -> tensor<4x6x5xf32>
  return %o : tensor<4x6x5xf32>
}

// -----

// TOSA softmax whose shifted scores s - max are also returned.
// CHECK-LABEL: func @shifted_returned
// CHECK-NOT: attn.attention
func.func @shifted_returned(%q: tensor<4x6x8xf32>, %k: tensor<4x10x8xf32>, %v: tensor<4x10x5xf32>) -> (tensor<4x6x5xf32>, tensor<4x6x10xf32>) {
  %zp = "tosa.const"() <{values = dense<0.0> : tensor<1xf32>}> : () -> tensor<1xf32>
  %shift = "tosa.const"() <{values = dense<0> : tensor<1xi8>}> : () -> tensor<1xi8>
  %kt = tosa.transpose %k {perms = array<i32: 0, 2, 1>} : (tensor<4x10x8xf32>) -> tensor<4x8x10xf32>
  %s = tosa.matmul %q, %kt, %zp, %zp : (tensor<4x6x8xf32>, tensor<4x8x10xf32>, tensor<1xf32>, tensor<1xf32>) -> tensor<4x6x10xf32>
  // expected-remark @below {{attn-fuse: not fused: s - max has another user}}
  %m = tosa.reduce_max %s {axis = 2 : i32} : (tensor<4x6x10xf32>) -> tensor<4x6x1xf32>
  %d = tosa.sub %s, %m : (tensor<4x6x10xf32>, tensor<4x6x1xf32>) -> tensor<4x6x10xf32>
  %e = tosa.exp %d : (tensor<4x6x10xf32>) -> tensor<4x6x10xf32>
  %l = tosa.reduce_sum %e {axis = 2 : i32} : (tensor<4x6x10xf32>) -> tensor<4x6x1xf32>
  %r = tosa.reciprocal %l : (tensor<4x6x1xf32>) -> tensor<4x6x1xf32>
  %p = tosa.mul %e, %r, %shift : (tensor<4x6x10xf32>, tensor<4x6x1xf32>, tensor<1xi8>) -> tensor<4x6x10xf32>
  %o = tosa.matmul %p, %v, %zp, %zp : (tensor<4x6x10xf32>, tensor<4x10x5xf32>, tensor<1xf32>, tensor<1xf32>) -> tensor<4x6x5xf32>
  // expected-note @below {{the first op that blocks it: 'func.return'}}
  return %o, %d : tensor<4x6x5xf32>, tensor<4x6x10xf32>
}

// -----

// An exp2-based softmax: s - max is multiplied by log2(e) and fed to
// math.exp2 (as flash-attention kernels write it).
#id3 = affine_map<(d0, d1, d2) -> (d0, d1, d2)>
#row = affine_map<(d0, d1, d2) -> (d0, d1)>
// CHECK-LABEL: func @exp2_softmax
// CHECK-NOT: attn.attention
func.func @exp2_softmax(%q: tensor<4x6x8xf32>, %k: tensor<4x10x8xf32>, %v: tensor<4x10x5xf32>) -> tensor<4x6x5xf32> {
  %zero = arith.constant 0.0 : f32
  %ninf = arith.constant 0xFF800000 : f32
  %log2e = arith.constant 1.44269502 : f32
  %es = tensor.empty() : tensor<4x6x10xf32>
  %zs = linalg.fill ins(%zero : f32) outs(%es : tensor<4x6x10xf32>) -> tensor<4x6x10xf32>
  %s = linalg.batch_matmul indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d0, d1, d3)>, affine_map<(d0, d1, d2, d3) -> (d0, d2, d3)>, affine_map<(d0, d1, d2, d3) -> (d0, d1, d2)>] ins(%q, %k : tensor<4x6x8xf32>, tensor<4x10x8xf32>) outs(%zs : tensor<4x6x10xf32>) -> tensor<4x6x10xf32>
  %er = tensor.empty() : tensor<4x6xf32>
  %mi = linalg.fill ins(%ninf : f32) outs(%er : tensor<4x6xf32>) -> tensor<4x6xf32>
  // expected-remark @below {{attn-fuse: not fused: s - max is not exponentiated}}
  %m = linalg.generic {indexing_maps = [#id3, #row], iterator_types = ["parallel", "parallel", "reduction"]} ins(%s : tensor<4x6x10xf32>) outs(%mi : tensor<4x6xf32>) {
  ^bb0(%x: f32, %acc: f32):
    %r = arith.maximumf %x, %acc : f32
    linalg.yield %r : f32
  } -> tensor<4x6xf32>
  %d = linalg.generic {indexing_maps = [#id3, #row, #id3], iterator_types = ["parallel", "parallel", "parallel"]} ins(%s, %m : tensor<4x6x10xf32>, tensor<4x6xf32>) outs(%es : tensor<4x6x10xf32>) {
  ^bb0(%x: f32, %y: f32, %o: f32):
    %r = arith.subf %x, %y : f32
    linalg.yield %r : f32
  } -> tensor<4x6x10xf32>
  // expected-note @below {{the first op that blocks it: 'linalg.generic'}}
  %d2 = linalg.generic {indexing_maps = [#id3, #id3], iterator_types = ["parallel", "parallel", "parallel"]} ins(%d : tensor<4x6x10xf32>) outs(%es : tensor<4x6x10xf32>) {
  ^bb0(%x: f32, %o: f32):
    %r = arith.mulf %x, %log2e : f32
    linalg.yield %r : f32
  } -> tensor<4x6x10xf32>
  %e = linalg.generic {indexing_maps = [#id3, #id3], iterator_types = ["parallel", "parallel", "parallel"]} ins(%d2 : tensor<4x6x10xf32>) outs(%es : tensor<4x6x10xf32>) {
  ^bb0(%x: f32, %o: f32):
    %r = math.exp2 %x : f32
    linalg.yield %r : f32
  } -> tensor<4x6x10xf32>
  %li = linalg.fill ins(%zero : f32) outs(%er : tensor<4x6xf32>) -> tensor<4x6xf32>
  %l = linalg.generic {indexing_maps = [#id3, #row], iterator_types = ["parallel", "parallel", "reduction"]} ins(%e : tensor<4x6x10xf32>) outs(%li : tensor<4x6xf32>) {
  ^bb0(%x: f32, %acc: f32):
    %r = arith.addf %x, %acc : f32
    linalg.yield %r : f32
  } -> tensor<4x6xf32>
  %p = linalg.generic {indexing_maps = [#id3, #row, #id3], iterator_types = ["parallel", "parallel", "parallel"]} ins(%e, %l : tensor<4x6x10xf32>, tensor<4x6xf32>) outs(%es : tensor<4x6x10xf32>) {
  ^bb0(%x: f32, %y: f32, %o: f32):
    %r = arith.divf %x, %y : f32
    linalg.yield %r : f32
  } -> tensor<4x6x10xf32>
  %eo = tensor.empty() : tensor<4x6x5xf32>
  %zo = linalg.fill ins(%zero : f32) outs(%eo : tensor<4x6x5xf32>) -> tensor<4x6x5xf32>
  %o = linalg.batch_matmul ins(%p, %v : tensor<4x6x10xf32>, tensor<4x10x5xf32>) outs(%zo : tensor<4x6x5xf32>) -> tensor<4x6x5xf32>
  return %o : tensor<4x6x5xf32>
}

// -----

// The unnormalized exp(s - max) is also returned.
// CHECK-LABEL: func @exp_returned
// CHECK-NOT: attn.attention
func.func @exp_returned(%q: tensor<4x6x8xf32>, %k: tensor<4x10x8xf32>, %v: tensor<4x10x5xf32>) -> (tensor<4x6x5xf32>, tensor<4x6x10xf32>) {
  %zp = "tosa.const"() <{values = dense<0.0> : tensor<1xf32>}> : () -> tensor<1xf32>
  %shift = "tosa.const"() <{values = dense<0> : tensor<1xi8>}> : () -> tensor<1xi8>
  %kt = tosa.transpose %k {perms = array<i32: 0, 2, 1>} : (tensor<4x10x8xf32>) -> tensor<4x8x10xf32>
  %s = tosa.matmul %q, %kt, %zp, %zp : (tensor<4x6x8xf32>, tensor<4x8x10xf32>, tensor<1xf32>, tensor<1xf32>) -> tensor<4x6x10xf32>
  // expected-remark @below {{attn-fuse: not fused: exp(s - max) must feed the row sum and the normalization only}}
  %m = tosa.reduce_max %s {axis = 2 : i32} : (tensor<4x6x10xf32>) -> tensor<4x6x1xf32>
  %d = tosa.sub %s, %m : (tensor<4x6x10xf32>, tensor<4x6x1xf32>) -> tensor<4x6x10xf32>
  %e = tosa.exp %d : (tensor<4x6x10xf32>) -> tensor<4x6x10xf32>
  %l = tosa.reduce_sum %e {axis = 2 : i32} : (tensor<4x6x10xf32>) -> tensor<4x6x1xf32>
  %r = tosa.reciprocal %l : (tensor<4x6x1xf32>) -> tensor<4x6x1xf32>
  %p = tosa.mul %e, %r, %shift : (tensor<4x6x10xf32>, tensor<4x6x1xf32>, tensor<1xi8>) -> tensor<4x6x10xf32>
  %o = tosa.matmul %p, %v, %zp, %zp : (tensor<4x6x10xf32>, tensor<4x10x5xf32>, tensor<1xf32>, tensor<1xf32>) -> tensor<4x6x5xf32>
  // expected-note @below {{the first op that blocks it: 'func.return'}}
  return %o, %e : tensor<4x6x5xf32>, tensor<4x6x10xf32>
}

// -----

// "softmax1" (an off-by-one softmax, exp(s - m) / (1 + sum)): the row sum
// starts from 1, so it is no plain sum reduction.
#id3 = affine_map<(d0, d1, d2) -> (d0, d1, d2)>
#row = affine_map<(d0, d1, d2) -> (d0, d1)>
// CHECK-LABEL: func @softmax_one
// CHECK-NOT: attn.attention
func.func @softmax_one(%q: tensor<4x6x8xf32>, %k: tensor<4x10x8xf32>, %v: tensor<4x10x5xf32>) -> tensor<4x6x5xf32> {
  %zero = arith.constant 0.0 : f32
  %one = arith.constant 1.0 : f32
  %ninf = arith.constant 0xFF800000 : f32
  %es = tensor.empty() : tensor<4x6x10xf32>
  %zs = linalg.fill ins(%zero : f32) outs(%es : tensor<4x6x10xf32>) -> tensor<4x6x10xf32>
  %s = linalg.batch_matmul indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d0, d1, d3)>, affine_map<(d0, d1, d2, d3) -> (d0, d2, d3)>, affine_map<(d0, d1, d2, d3) -> (d0, d1, d2)>] ins(%q, %k : tensor<4x6x8xf32>, tensor<4x10x8xf32>) outs(%zs : tensor<4x6x10xf32>) -> tensor<4x6x10xf32>
  %er = tensor.empty() : tensor<4x6xf32>
  %mi = linalg.fill ins(%ninf : f32) outs(%er : tensor<4x6xf32>) -> tensor<4x6xf32>
  // expected-remark @below {{attn-fuse: not fused: exp(s - max) is not summed over a row}}
  %m = linalg.generic {indexing_maps = [#id3, #row], iterator_types = ["parallel", "parallel", "reduction"]} ins(%s : tensor<4x6x10xf32>) outs(%mi : tensor<4x6xf32>) {
  ^bb0(%x: f32, %acc: f32):
    %r = arith.maximumf %x, %acc : f32
    linalg.yield %r : f32
  } -> tensor<4x6xf32>
  %d = linalg.generic {indexing_maps = [#id3, #row, #id3], iterator_types = ["parallel", "parallel", "parallel"]} ins(%s, %m : tensor<4x6x10xf32>, tensor<4x6xf32>) outs(%es : tensor<4x6x10xf32>) {
  ^bb0(%x: f32, %y: f32, %o: f32):
    %r = arith.subf %x, %y : f32
    linalg.yield %r : f32
  } -> tensor<4x6x10xf32>
  %e = linalg.generic {indexing_maps = [#id3, #id3], iterator_types = ["parallel", "parallel", "parallel"]} ins(%d : tensor<4x6x10xf32>) outs(%es : tensor<4x6x10xf32>) {
  ^bb0(%x: f32, %o: f32):
    %r = math.exp %x : f32
    linalg.yield %r : f32
  } -> tensor<4x6x10xf32>
  %li = linalg.fill ins(%one : f32) outs(%er : tensor<4x6xf32>) -> tensor<4x6xf32>
  // expected-note @below {{the first op that blocks it: 'linalg.generic'}}
  %l = linalg.generic {indexing_maps = [#id3, #row], iterator_types = ["parallel", "parallel", "reduction"]} ins(%e : tensor<4x6x10xf32>) outs(%li : tensor<4x6xf32>) {
  ^bb0(%x: f32, %acc: f32):
    %r = arith.addf %x, %acc : f32
    linalg.yield %r : f32
  } -> tensor<4x6xf32>
  %p = linalg.generic {indexing_maps = [#id3, #row, #id3], iterator_types = ["parallel", "parallel", "parallel"]} ins(%e, %l : tensor<4x6x10xf32>, tensor<4x6xf32>) outs(%es : tensor<4x6x10xf32>) {
  ^bb0(%x: f32, %y: f32, %o: f32):
    %r = arith.divf %x, %y : f32
    linalg.yield %r : f32
  } -> tensor<4x6x10xf32>
  %eo = tensor.empty() : tensor<4x6x5xf32>
  %zo = linalg.fill ins(%zero : f32) outs(%eo : tensor<4x6x5xf32>) -> tensor<4x6x5xf32>
  %o = linalg.batch_matmul ins(%p, %v : tensor<4x6x10xf32>, tensor<4x10x5xf32>) outs(%zo : tensor<4x6x5xf32>) -> tensor<4x6x5xf32>
  return %o : tensor<4x6x5xf32>
}

// -----

// The row sum taken over the query dim (axis 1) instead of the keys.
// CHECK-LABEL: func @sum_over_queries
// CHECK-NOT: attn.attention
func.func @sum_over_queries(%q: tensor<4x6x8xf32>, %k: tensor<4x10x8xf32>, %v: tensor<4x10x5xf32>) -> tensor<4x6x5xf32> {
  %zp = "tosa.const"() <{values = dense<0.0> : tensor<1xf32>}> : () -> tensor<1xf32>
  %shift = "tosa.const"() <{values = dense<0> : tensor<1xi8>}> : () -> tensor<1xi8>
  %kt = tosa.transpose %k {perms = array<i32: 0, 2, 1>} : (tensor<4x10x8xf32>) -> tensor<4x8x10xf32>
  %s = tosa.matmul %q, %kt, %zp, %zp : (tensor<4x6x8xf32>, tensor<4x8x10xf32>, tensor<1xf32>, tensor<1xf32>) -> tensor<4x6x10xf32>
  // expected-remark @below {{attn-fuse: not fused: the softmax sum is over dimension 1, not the key dimension 2}}
  %m = tosa.reduce_max %s {axis = 2 : i32} : (tensor<4x6x10xf32>) -> tensor<4x6x1xf32>
  %d = tosa.sub %s, %m : (tensor<4x6x10xf32>, tensor<4x6x1xf32>) -> tensor<4x6x10xf32>
  %e = tosa.exp %d : (tensor<4x6x10xf32>) -> tensor<4x6x10xf32>
  // expected-note @below {{the first op that blocks it: 'tosa.reduce_sum'}}
  %l = tosa.reduce_sum %e {axis = 1 : i32} : (tensor<4x6x10xf32>) -> tensor<4x1x10xf32>
  %r = tosa.reciprocal %l : (tensor<4x1x10xf32>) -> tensor<4x1x10xf32>
  %p = tosa.mul %e, %r, %shift : (tensor<4x6x10xf32>, tensor<4x1x10xf32>, tensor<1xi8>) -> tensor<4x6x10xf32>
  %o = tosa.matmul %p, %v, %zp, %zp : (tensor<4x6x10xf32>, tensor<4x10x5xf32>, tensor<1xf32>, tensor<1xf32>) -> tensor<4x6x5xf32>
  return %o : tensor<4x6x5xf32>
}

// -----

// The row sums are also returned (softmax statistics kept for a backward
// pass).
// CHECK-LABEL: func @row_sum_returned
// CHECK-NOT: attn.attention
func.func @row_sum_returned(%q: tensor<4x6x8xf32>, %k: tensor<4x10x8xf32>, %v: tensor<4x10x5xf32>) -> (tensor<4x6x5xf32>, tensor<4x6x1xf32>) {
  %zp = "tosa.const"() <{values = dense<0.0> : tensor<1xf32>}> : () -> tensor<1xf32>
  %shift = "tosa.const"() <{values = dense<0> : tensor<1xi8>}> : () -> tensor<1xi8>
  %kt = tosa.transpose %k {perms = array<i32: 0, 2, 1>} : (tensor<4x10x8xf32>) -> tensor<4x8x10xf32>
  %s = tosa.matmul %q, %kt, %zp, %zp : (tensor<4x6x8xf32>, tensor<4x8x10xf32>, tensor<1xf32>, tensor<1xf32>) -> tensor<4x6x10xf32>
  // expected-remark @below {{attn-fuse: not fused: the row sum has another user}}
  %m = tosa.reduce_max %s {axis = 2 : i32} : (tensor<4x6x10xf32>) -> tensor<4x6x1xf32>
  %d = tosa.sub %s, %m : (tensor<4x6x10xf32>, tensor<4x6x1xf32>) -> tensor<4x6x10xf32>
  %e = tosa.exp %d : (tensor<4x6x10xf32>) -> tensor<4x6x10xf32>
  %l = tosa.reduce_sum %e {axis = 2 : i32} : (tensor<4x6x10xf32>) -> tensor<4x6x1xf32>
  %r = tosa.reciprocal %l : (tensor<4x6x1xf32>) -> tensor<4x6x1xf32>
  %p = tosa.mul %e, %r, %shift : (tensor<4x6x10xf32>, tensor<4x6x1xf32>, tensor<1xi8>) -> tensor<4x6x10xf32>
  %o = tosa.matmul %p, %v, %zp, %zp : (tensor<4x6x10xf32>, tensor<4x10x5xf32>, tensor<1xf32>, tensor<1xf32>) -> tensor<4x6x5xf32>
  // expected-note @below {{the first op that blocks it: 'func.return'}}
  return %o, %l : tensor<4x6x5xf32>, tensor<4x6x1xf32>
}

// -----

// The reciprocal of the row sums is also returned.
// CHECK-LABEL: func @reciprocal_returned
// CHECK-NOT: attn.attention
func.func @reciprocal_returned(%q: tensor<4x6x8xf32>, %k: tensor<4x10x8xf32>, %v: tensor<4x10x5xf32>) -> (tensor<4x6x5xf32>, tensor<4x6x1xf32>) {
  %zp = "tosa.const"() <{values = dense<0.0> : tensor<1xf32>}> : () -> tensor<1xf32>
  %shift = "tosa.const"() <{values = dense<0> : tensor<1xi8>}> : () -> tensor<1xi8>
  %kt = tosa.transpose %k {perms = array<i32: 0, 2, 1>} : (tensor<4x10x8xf32>) -> tensor<4x8x10xf32>
  %s = tosa.matmul %q, %kt, %zp, %zp : (tensor<4x6x8xf32>, tensor<4x8x10xf32>, tensor<1xf32>, tensor<1xf32>) -> tensor<4x6x10xf32>
  // expected-remark @below {{attn-fuse: not fused: the reciprocal of the row sum has another user}}
  %m = tosa.reduce_max %s {axis = 2 : i32} : (tensor<4x6x10xf32>) -> tensor<4x6x1xf32>
  %d = tosa.sub %s, %m : (tensor<4x6x10xf32>, tensor<4x6x1xf32>) -> tensor<4x6x10xf32>
  %e = tosa.exp %d : (tensor<4x6x10xf32>) -> tensor<4x6x10xf32>
  %l = tosa.reduce_sum %e {axis = 2 : i32} : (tensor<4x6x10xf32>) -> tensor<4x6x1xf32>
  %r = tosa.reciprocal %l : (tensor<4x6x1xf32>) -> tensor<4x6x1xf32>
  %p = tosa.mul %e, %r, %shift : (tensor<4x6x10xf32>, tensor<4x6x1xf32>, tensor<1xi8>) -> tensor<4x6x10xf32>
  %o = tosa.matmul %p, %v, %zp, %zp : (tensor<4x6x10xf32>, tensor<4x10x5xf32>, tensor<1xf32>, tensor<1xf32>) -> tensor<4x6x5xf32>
  // expected-note @below {{the first op that blocks it: 'func.return'}}
  return %o, %r : tensor<4x6x5xf32>, tensor<4x6x1xf32>
}

// -----

// Mixed precision: exp(s - max) is cast to f16 before it is normalized
// (in f16), so what follows the exponential is a tosa.cast.
// CHECK-LABEL: func @normalized_after_cast
// CHECK-NOT: attn.attention
func.func @normalized_after_cast(%q: tensor<4x6x8xf32>, %k: tensor<4x10x8xf32>, %v: tensor<4x10x5xf16>) -> tensor<4x6x5xf16> {
  %zp = "tosa.const"() <{values = dense<0.0> : tensor<1xf32>}> : () -> tensor<1xf32>
  %zph = "tosa.const"() <{values = dense<0.0> : tensor<1xf16>}> : () -> tensor<1xf16>
  %shift = "tosa.const"() <{values = dense<0> : tensor<1xi8>}> : () -> tensor<1xi8>
  %kt = tosa.transpose %k {perms = array<i32: 0, 2, 1>} : (tensor<4x10x8xf32>) -> tensor<4x8x10xf32>
  %s = tosa.matmul %q, %kt, %zp, %zp : (tensor<4x6x8xf32>, tensor<4x8x10xf32>, tensor<1xf32>, tensor<1xf32>) -> tensor<4x6x10xf32>
  // expected-remark @below {{attn-fuse: not fused: the softmax is not normalized by the row sum}}
  %m = tosa.reduce_max %s {axis = 2 : i32} : (tensor<4x6x10xf32>) -> tensor<4x6x1xf32>
  %d = tosa.sub %s, %m : (tensor<4x6x10xf32>, tensor<4x6x1xf32>) -> tensor<4x6x10xf32>
  %e = tosa.exp %d : (tensor<4x6x10xf32>) -> tensor<4x6x10xf32>
  %l = tosa.reduce_sum %e {axis = 2 : i32} : (tensor<4x6x10xf32>) -> tensor<4x6x1xf32>
  %r = tosa.reciprocal %l : (tensor<4x6x1xf32>) -> tensor<4x6x1xf32>
  %rh = tosa.cast %r : (tensor<4x6x1xf32>) -> tensor<4x6x1xf16>
  // expected-note @below {{the first op that blocks it: 'tosa.cast'}}
  %eh = tosa.cast %e : (tensor<4x6x10xf32>) -> tensor<4x6x10xf16>
  %p = tosa.mul %eh, %rh, %shift : (tensor<4x6x10xf16>, tensor<4x6x1xf16>, tensor<1xi8>) -> tensor<4x6x10xf16>
  %o = tosa.matmul %p, %v, %zph, %zph : (tensor<4x6x10xf16>, tensor<4x10x5xf16>, tensor<1xf16>, tensor<1xf16>) -> tensor<4x6x5xf16>
  return %o : tensor<4x6x5xf16>
}
// -----

// A softmax whose row max is also returned, reshaped to [B, Lq] (kept for
// a backward pass): with a second user the row max is taken for that of a
// log-sum-exp softmax, which it is not either.
// CHECK-LABEL: func @row_max_returned
// CHECK-NOT: attn.attention
func.func @row_max_returned(%q: tensor<4x6x8xf32>, %k: tensor<4x10x8xf32>, %v: tensor<4x10x5xf32>) -> (tensor<4x6x5xf32>, tensor<4x6xf32>) {
  %zp = "tosa.const"() <{values = dense<0.0> : tensor<1xf32>}> : () -> tensor<1xf32>
  %shift = "tosa.const"() <{values = dense<0> : tensor<1xi8>}> : () -> tensor<1xi8>
  %kt = tosa.transpose %k {perms = array<i32: 0, 2, 1>} : (tensor<4x10x8xf32>) -> tensor<4x8x10xf32>
  %s = tosa.matmul %q, %kt, %zp, %zp : (tensor<4x6x8xf32>, tensor<4x8x10xf32>, tensor<1xf32>, tensor<1xf32>) -> tensor<4x6x10xf32>
  // expected-remark @below {{attn-fuse: not fused: the row max has another user}}
  %m = tosa.reduce_max %s {axis = 2 : i32} : (tensor<4x6x10xf32>) -> tensor<4x6x1xf32>
  %d = tosa.sub %s, %m : (tensor<4x6x10xf32>, tensor<4x6x1xf32>) -> tensor<4x6x10xf32>
  %e = tosa.exp %d : (tensor<4x6x10xf32>) -> tensor<4x6x10xf32>
  %l = tosa.reduce_sum %e {axis = 2 : i32} : (tensor<4x6x10xf32>) -> tensor<4x6x1xf32>
  %r = tosa.reciprocal %l : (tensor<4x6x1xf32>) -> tensor<4x6x1xf32>
  %p = tosa.mul %e, %r, %shift : (tensor<4x6x10xf32>, tensor<4x6x1xf32>, tensor<1xi8>) -> tensor<4x6x10xf32>
  %o = tosa.matmul %p, %v, %zp, %zp : (tensor<4x6x10xf32>, tensor<4x10x5xf32>, tensor<1xf32>, tensor<1xf32>) -> tensor<4x6x5xf32>
  %mshape = tosa.const_shape {values = dense<[4, 6]> : tensor<2xindex>} : () -> !tosa.shape<2>
  // expected-note @below {{the first op that blocks it: 'tosa.reshape'}}
  %mr = tosa.reshape %m, %mshape : (tensor<4x6x1xf32>, !tosa.shape<2>) -> tensor<4x6xf32>
  return %o, %mr : tensor<4x6x5xf32>, tensor<4x6xf32>
}

// -----

// Log-sum-exp softmax, p = exp(s - (m + log sum exp(s - m))), whose
// shifted scores s - m are also returned.
// CHECK-LABEL: func @lse_shifted_returned
// CHECK-NOT: attn.attention
func.func @lse_shifted_returned(%q: tensor<4x6x8xf32>, %k: tensor<4x10x8xf32>, %v: tensor<4x10x5xf32>) -> (tensor<4x6x5xf32>, tensor<4x6x10xf32>) {
  %zp = "tosa.const"() <{values = dense<0.0> : tensor<1xf32>}> : () -> tensor<1xf32>
  %kt = tosa.transpose %k {perms = array<i32: 0, 2, 1>} : (tensor<4x10x8xf32>) -> tensor<4x8x10xf32>
  %s = tosa.matmul %q, %kt, %zp, %zp : (tensor<4x6x8xf32>, tensor<4x8x10xf32>, tensor<1xf32>, tensor<1xf32>) -> tensor<4x6x10xf32>
  // expected-remark @below {{attn-fuse: not fused: s - max is not exponentiated (log-sum-exp softmax)}}
  %m = tosa.reduce_max %s {axis = 2 : i32} : (tensor<4x6x10xf32>) -> tensor<4x6x1xf32>
  %d = tosa.sub %s, %m : (tensor<4x6x10xf32>, tensor<4x6x1xf32>) -> tensor<4x6x10xf32>
  %e = tosa.exp %d : (tensor<4x6x10xf32>) -> tensor<4x6x10xf32>
  %l = tosa.reduce_sum %e {axis = 2 : i32} : (tensor<4x6x10xf32>) -> tensor<4x6x1xf32>
  %lg = tosa.log %l : (tensor<4x6x1xf32>) -> tensor<4x6x1xf32>
  %lse = tosa.add %m, %lg : (tensor<4x6x1xf32>, tensor<4x6x1xf32>) -> tensor<4x6x1xf32>
  %t = tosa.sub %s, %lse : (tensor<4x6x10xf32>, tensor<4x6x1xf32>) -> tensor<4x6x10xf32>
  %p = tosa.exp %t : (tensor<4x6x10xf32>) -> tensor<4x6x10xf32>
  %o = tosa.matmul %p, %v, %zp, %zp : (tensor<4x6x10xf32>, tensor<4x10x5xf32>, tensor<1xf32>, tensor<1xf32>) -> tensor<4x6x5xf32>
  // expected-note @below {{the first op that blocks it: 'func.return'}}
  return %o, %d : tensor<4x6x5xf32>, tensor<4x6x10xf32>
}

// -----

// Log-sum-exp softmax whose sum of exp(s - m) is also returned.
// CHECK-LABEL: func @lse_exp_returned
// CHECK-NOT: attn.attention
func.func @lse_exp_returned(%q: tensor<4x6x8xf32>, %k: tensor<4x10x8xf32>, %v: tensor<4x10x5xf32>) -> (tensor<4x6x5xf32>, tensor<4x6x10xf32>) {
  %zp = "tosa.const"() <{values = dense<0.0> : tensor<1xf32>}> : () -> tensor<1xf32>
  %kt = tosa.transpose %k {perms = array<i32: 0, 2, 1>} : (tensor<4x10x8xf32>) -> tensor<4x8x10xf32>
  %s = tosa.matmul %q, %kt, %zp, %zp : (tensor<4x6x8xf32>, tensor<4x8x10xf32>, tensor<1xf32>, tensor<1xf32>) -> tensor<4x6x10xf32>
  // expected-remark @below {{attn-fuse: not fused: exp(s - max) is not summed over a row (log-sum-exp softmax)}}
  %m = tosa.reduce_max %s {axis = 2 : i32} : (tensor<4x6x10xf32>) -> tensor<4x6x1xf32>
  %d = tosa.sub %s, %m : (tensor<4x6x10xf32>, tensor<4x6x1xf32>) -> tensor<4x6x10xf32>
  %e = tosa.exp %d : (tensor<4x6x10xf32>) -> tensor<4x6x10xf32>
  %l = tosa.reduce_sum %e {axis = 2 : i32} : (tensor<4x6x10xf32>) -> tensor<4x6x1xf32>
  %lg = tosa.log %l : (tensor<4x6x1xf32>) -> tensor<4x6x1xf32>
  %lse = tosa.add %m, %lg : (tensor<4x6x1xf32>, tensor<4x6x1xf32>) -> tensor<4x6x1xf32>
  %t = tosa.sub %s, %lse : (tensor<4x6x10xf32>, tensor<4x6x1xf32>) -> tensor<4x6x10xf32>
  %p = tosa.exp %t : (tensor<4x6x10xf32>) -> tensor<4x6x10xf32>
  %o = tosa.matmul %p, %v, %zp, %zp : (tensor<4x6x10xf32>, tensor<4x10x5xf32>, tensor<1xf32>, tensor<1xf32>) -> tensor<4x6x5xf32>
  // expected-note @below {{the first op that blocks it: 'func.return'}}
  return %o, %e : tensor<4x6x5xf32>, tensor<4x6x10xf32>
}

// -----

// Log-sum-exp with an epsilon added to the row sum before the log.
// CHECK-LABEL: func @lse_log_epsilon
// CHECK-NOT: attn.attention
func.func @lse_log_epsilon(%q: tensor<4x6x8xf32>, %k: tensor<4x10x8xf32>, %v: tensor<4x10x5xf32>) -> tensor<4x6x5xf32> {
  %zp = "tosa.const"() <{values = dense<0.0> : tensor<1xf32>}> : () -> tensor<1xf32>
  %eps = "tosa.const"() <{values = dense<1.0e-6> : tensor<1x1x1xf32>}> : () -> tensor<1x1x1xf32>
  %kt = tosa.transpose %k {perms = array<i32: 0, 2, 1>} : (tensor<4x10x8xf32>) -> tensor<4x8x10xf32>
  %s = tosa.matmul %q, %kt, %zp, %zp : (tensor<4x6x8xf32>, tensor<4x8x10xf32>, tensor<1xf32>, tensor<1xf32>) -> tensor<4x6x10xf32>
  // expected-remark @below {{attn-fuse: not fused: the row sum is not the log-sum-exp's log}}
  %m = tosa.reduce_max %s {axis = 2 : i32} : (tensor<4x6x10xf32>) -> tensor<4x6x1xf32>
  %d = tosa.sub %s, %m : (tensor<4x6x10xf32>, tensor<4x6x1xf32>) -> tensor<4x6x10xf32>
  %e = tosa.exp %d : (tensor<4x6x10xf32>) -> tensor<4x6x10xf32>
  %l = tosa.reduce_sum %e {axis = 2 : i32} : (tensor<4x6x10xf32>) -> tensor<4x6x1xf32>
  // expected-note @below {{the first op that blocks it: 'tosa.add'}}
  %le = tosa.add %l, %eps : (tensor<4x6x1xf32>, tensor<1x1x1xf32>) -> tensor<4x6x1xf32>
  %lg = tosa.log %le : (tensor<4x6x1xf32>) -> tensor<4x6x1xf32>
  %lse = tosa.add %m, %lg : (tensor<4x6x1xf32>, tensor<4x6x1xf32>) -> tensor<4x6x1xf32>
  %t = tosa.sub %s, %lse : (tensor<4x6x10xf32>, tensor<4x6x1xf32>) -> tensor<4x6x10xf32>
  %p = tosa.exp %t : (tensor<4x6x10xf32>) -> tensor<4x6x10xf32>
  %o = tosa.matmul %p, %v, %zp, %zp : (tensor<4x6x10xf32>, tensor<4x10x5xf32>, tensor<1xf32>, tensor<1xf32>) -> tensor<4x6x5xf32>
  return %o : tensor<4x6x5xf32>
}

// -----

// Log-sum-exp whose log of the row sum is also returned.
// CHECK-LABEL: func @lse_log_returned
// CHECK-NOT: attn.attention
func.func @lse_log_returned(%q: tensor<4x6x8xf32>, %k: tensor<4x10x8xf32>, %v: tensor<4x10x5xf32>) -> (tensor<4x6x5xf32>, tensor<4x6x1xf32>) {
  %zp = "tosa.const"() <{values = dense<0.0> : tensor<1xf32>}> : () -> tensor<1xf32>
  %kt = tosa.transpose %k {perms = array<i32: 0, 2, 1>} : (tensor<4x10x8xf32>) -> tensor<4x8x10xf32>
  %s = tosa.matmul %q, %kt, %zp, %zp : (tensor<4x6x8xf32>, tensor<4x8x10xf32>, tensor<1xf32>, tensor<1xf32>) -> tensor<4x6x10xf32>
  // expected-remark @below {{attn-fuse: not fused: the log of the row sum is not added to the row max}}
  %m = tosa.reduce_max %s {axis = 2 : i32} : (tensor<4x6x10xf32>) -> tensor<4x6x1xf32>
  %d = tosa.sub %s, %m : (tensor<4x6x10xf32>, tensor<4x6x1xf32>) -> tensor<4x6x10xf32>
  %e = tosa.exp %d : (tensor<4x6x10xf32>) -> tensor<4x6x10xf32>
  %l = tosa.reduce_sum %e {axis = 2 : i32} : (tensor<4x6x10xf32>) -> tensor<4x6x1xf32>
  %lg = tosa.log %l : (tensor<4x6x1xf32>) -> tensor<4x6x1xf32>
  %lse = tosa.add %m, %lg : (tensor<4x6x1xf32>, tensor<4x6x1xf32>) -> tensor<4x6x1xf32>
  %t = tosa.sub %s, %lse : (tensor<4x6x10xf32>, tensor<4x6x1xf32>) -> tensor<4x6x10xf32>
  %p = tosa.exp %t : (tensor<4x6x10xf32>) -> tensor<4x6x10xf32>
  %o = tosa.matmul %p, %v, %zp, %zp : (tensor<4x6x10xf32>, tensor<4x10x5xf32>, tensor<1xf32>, tensor<1xf32>) -> tensor<4x6x5xf32>
  // expected-note @below {{the first op that blocks it: 'func.return'}}
  return %o, %lg : tensor<4x6x5xf32>, tensor<4x6x1xf32>
}

// -----

// Log-sum-exp whose lse = m + log l is also returned (as a forward pass
// for training keeps it).
// CHECK-LABEL: func @lse_returned
// CHECK-NOT: attn.attention
func.func @lse_returned(%q: tensor<4x6x8xf32>, %k: tensor<4x10x8xf32>, %v: tensor<4x10x5xf32>) -> (tensor<4x6x5xf32>, tensor<4x6x1xf32>) {
  %zp = "tosa.const"() <{values = dense<0.0> : tensor<1xf32>}> : () -> tensor<1xf32>
  %kt = tosa.transpose %k {perms = array<i32: 0, 2, 1>} : (tensor<4x10x8xf32>) -> tensor<4x8x10xf32>
  %s = tosa.matmul %q, %kt, %zp, %zp : (tensor<4x6x8xf32>, tensor<4x8x10xf32>, tensor<1xf32>, tensor<1xf32>) -> tensor<4x6x10xf32>
  // expected-remark @below {{attn-fuse: not fused: the log-sum-exp is not subtracted from the scores}}
  %m = tosa.reduce_max %s {axis = 2 : i32} : (tensor<4x6x10xf32>) -> tensor<4x6x1xf32>
  %d = tosa.sub %s, %m : (tensor<4x6x10xf32>, tensor<4x6x1xf32>) -> tensor<4x6x10xf32>
  %e = tosa.exp %d : (tensor<4x6x10xf32>) -> tensor<4x6x10xf32>
  %l = tosa.reduce_sum %e {axis = 2 : i32} : (tensor<4x6x10xf32>) -> tensor<4x6x1xf32>
  %lg = tosa.log %l : (tensor<4x6x1xf32>) -> tensor<4x6x1xf32>
  %lse = tosa.add %m, %lg : (tensor<4x6x1xf32>, tensor<4x6x1xf32>) -> tensor<4x6x1xf32>
  %t = tosa.sub %s, %lse : (tensor<4x6x10xf32>, tensor<4x6x1xf32>) -> tensor<4x6x10xf32>
  %p = tosa.exp %t : (tensor<4x6x10xf32>) -> tensor<4x6x10xf32>
  %o = tosa.matmul %p, %v, %zp, %zp : (tensor<4x6x10xf32>, tensor<4x10x5xf32>, tensor<1xf32>, tensor<1xf32>) -> tensor<4x6x5xf32>
  // expected-note @below {{the first op that blocks it: 'func.return'}}
  return %o, %lse : tensor<4x6x5xf32>, tensor<4x6x1xf32>
}

// -----

// Log-sum-exp whose log-probabilities s - lse are also returned.
// CHECK-LABEL: func @lse_log_probs_returned
// CHECK-NOT: attn.attention
func.func @lse_log_probs_returned(%q: tensor<4x6x8xf32>, %k: tensor<4x10x8xf32>, %v: tensor<4x10x5xf32>) -> (tensor<4x6x5xf32>, tensor<4x6x10xf32>) {
  %zp = "tosa.const"() <{values = dense<0.0> : tensor<1xf32>}> : () -> tensor<1xf32>
  %kt = tosa.transpose %k {perms = array<i32: 0, 2, 1>} : (tensor<4x10x8xf32>) -> tensor<4x8x10xf32>
  %s = tosa.matmul %q, %kt, %zp, %zp : (tensor<4x6x8xf32>, tensor<4x8x10xf32>, tensor<1xf32>, tensor<1xf32>) -> tensor<4x6x10xf32>
  // expected-remark @below {{attn-fuse: not fused: s - lse is not exponentiated}}
  %m = tosa.reduce_max %s {axis = 2 : i32} : (tensor<4x6x10xf32>) -> tensor<4x6x1xf32>
  %d = tosa.sub %s, %m : (tensor<4x6x10xf32>, tensor<4x6x1xf32>) -> tensor<4x6x10xf32>
  %e = tosa.exp %d : (tensor<4x6x10xf32>) -> tensor<4x6x10xf32>
  %l = tosa.reduce_sum %e {axis = 2 : i32} : (tensor<4x6x10xf32>) -> tensor<4x6x1xf32>
  %lg = tosa.log %l : (tensor<4x6x1xf32>) -> tensor<4x6x1xf32>
  %lse = tosa.add %m, %lg : (tensor<4x6x1xf32>, tensor<4x6x1xf32>) -> tensor<4x6x1xf32>
  %t = tosa.sub %s, %lse : (tensor<4x6x10xf32>, tensor<4x6x1xf32>) -> tensor<4x6x10xf32>
  %p = tosa.exp %t : (tensor<4x6x10xf32>) -> tensor<4x6x10xf32>
  %o = tosa.matmul %p, %v, %zp, %zp : (tensor<4x6x10xf32>, tensor<4x10x5xf32>, tensor<1xf32>, tensor<1xf32>) -> tensor<4x6x5xf32>
  // expected-note @below {{the first op that blocks it: 'func.return'}}
  return %o, %t : tensor<4x6x5xf32>, tensor<4x6x10xf32>
}
// -----

// The raw (unscaled) scores are also returned.
#id3 = affine_map<(d0, d1, d2) -> (d0, d1, d2)>
// CHECK-LABEL: func @raw_scores_returned
// CHECK-NOT: attn.attention
func.func @raw_scores_returned(%q: tensor<4x6x8xf32>, %k: tensor<4x10x8xf32>, %v: tensor<4x10x5xf32>) -> (tensor<4x6x5xf32>, tensor<4x6x10xf32>) {
  %zero = arith.constant 0.0 : f32
  %es = tensor.empty() : tensor<4x6x10xf32>
  %zs = linalg.fill ins(%zero : f32) outs(%es : tensor<4x6x10xf32>) -> tensor<4x6x10xf32>
  %s = linalg.batch_matmul indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d0, d1, d3)>, affine_map<(d0, d1, d2, d3) -> (d0, d2, d3)>, affine_map<(d0, d1, d2, d3) -> (d0, d1, d2)>] ins(%q, %k : tensor<4x6x8xf32>, tensor<4x10x8xf32>) outs(%zs : tensor<4x6x10xf32>) -> tensor<4x6x10xf32>
  %ss = linalg.generic {indexing_maps = [#id3, #id3], iterator_types = ["parallel", "parallel", "parallel"]} ins(%s : tensor<4x6x10xf32>) outs(%es : tensor<4x6x10xf32>) {
  ^bb0(%x: f32, %o: f32):
    %c = arith.constant 0.125 : f32
    %m = arith.mulf %x, %c : f32
    linalg.yield %m : f32
  } -> tensor<4x6x10xf32>
  // expected-remark @below {{attn-fuse: not fused: an intermediate score tensor has another user}}
  %p = linalg.softmax dimension(2) ins(%ss : tensor<4x6x10xf32>) outs(%es : tensor<4x6x10xf32>) -> tensor<4x6x10xf32>
  %eo = tensor.empty() : tensor<4x6x5xf32>
  %zo = linalg.fill ins(%zero : f32) outs(%eo : tensor<4x6x5xf32>) -> tensor<4x6x5xf32>
  %o = linalg.batch_matmul ins(%p, %v : tensor<4x6x10xf32>, tensor<4x10x5xf32>) outs(%zo : tensor<4x6x5xf32>) -> tensor<4x6x5xf32>
  // expected-note @below {{the first op that blocks it: 'func.return'}}
  return %o, %s : tensor<4x6x5xf32>, tensor<4x6x10xf32>
}

// -----

// torch.where(mask, s, fill) with a fill tensor instead of a scalar.
#id3 = affine_map<(d0, d1, d2) -> (d0, d1, d2)>
// CHECK-LABEL: func @select_fill_tensor
// CHECK-NOT: attn.attention
func.func @select_fill_tensor(%q: tensor<4x6x8xf32>, %k: tensor<4x10x8xf32>, %v: tensor<4x10x5xf32>, %mask: tensor<4x6x10xi1>, %fill: tensor<4x6x10xf32>) -> tensor<4x6x5xf32> {
  %zero = arith.constant 0.0 : f32
  %es = tensor.empty() : tensor<4x6x10xf32>
  %zs = linalg.fill ins(%zero : f32) outs(%es : tensor<4x6x10xf32>) -> tensor<4x6x10xf32>
  %s = linalg.batch_matmul indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d0, d1, d3)>, affine_map<(d0, d1, d2, d3) -> (d0, d2, d3)>, affine_map<(d0, d1, d2, d3) -> (d0, d1, d2)>] ins(%q, %k : tensor<4x6x8xf32>, tensor<4x10x8xf32>) outs(%zs : tensor<4x6x10xf32>) -> tensor<4x6x10xf32>
  // expected-note @below {{the first op that blocks it: 'linalg.generic'}}
  %sm = linalg.generic {indexing_maps = [#id3, #id3, #id3, #id3], iterator_types = ["parallel", "parallel", "parallel"]} ins(%mask, %s, %fill : tensor<4x6x10xi1>, tensor<4x6x10xf32>, tensor<4x6x10xf32>) outs(%es : tensor<4x6x10xf32>) {
  ^bb0(%b: i1, %x: f32, %f: f32, %o: f32):
    %r = arith.select %b, %x, %f : f32
    linalg.yield %r : f32
  } -> tensor<4x6x10xf32>
  // expected-remark @below {{attn-fuse: not fused: unsupported select on the scores}}
  %p = linalg.softmax dimension(2) ins(%sm : tensor<4x6x10xf32>) outs(%es : tensor<4x6x10xf32>) -> tensor<4x6x10xf32>
  %eo = tensor.empty() : tensor<4x6x5xf32>
  %zo = linalg.fill ins(%zero : f32) outs(%eo : tensor<4x6x5xf32>) -> tensor<4x6x5xf32>
  %o = linalg.batch_matmul ins(%p, %v : tensor<4x6x10xf32>, tensor<4x10x5xf32>) outs(%zo : tensor<4x6x5xf32>) -> tensor<4x6x5xf32>
  return %o : tensor<4x6x5xf32>
}

// -----

// A runtime scalar added to every score.
#id3 = affine_map<(d0, d1, d2) -> (d0, d1, d2)>
// CHECK-LABEL: func @scalar_bias
// CHECK-NOT: attn.attention
func.func @scalar_bias(%q: tensor<4x6x8xf32>, %k: tensor<4x10x8xf32>, %v: tensor<4x10x5xf32>, %t: f32) -> tensor<4x6x5xf32> {
  %zero = arith.constant 0.0 : f32
  %es = tensor.empty() : tensor<4x6x10xf32>
  %zs = linalg.fill ins(%zero : f32) outs(%es : tensor<4x6x10xf32>) -> tensor<4x6x10xf32>
  %s = linalg.batch_matmul indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d0, d1, d3)>, affine_map<(d0, d1, d2, d3) -> (d0, d2, d3)>, affine_map<(d0, d1, d2, d3) -> (d0, d1, d2)>] ins(%q, %k : tensor<4x6x8xf32>, tensor<4x10x8xf32>) outs(%zs : tensor<4x6x10xf32>) -> tensor<4x6x10xf32>
  // expected-note @below {{the first op that blocks it: 'linalg.generic'}}
  %sb = linalg.generic {indexing_maps = [#id3, #id3], iterator_types = ["parallel", "parallel", "parallel"]} ins(%s : tensor<4x6x10xf32>) outs(%es : tensor<4x6x10xf32>) {
  ^bb0(%x: f32, %o: f32):
    %a = arith.addf %x, %t : f32
    linalg.yield %a : f32
  } -> tensor<4x6x10xf32>
  // expected-remark @below {{attn-fuse: not fused: a scalar is added to the scores}}
  %p = linalg.softmax dimension(2) ins(%sb : tensor<4x6x10xf32>) outs(%es : tensor<4x6x10xf32>) -> tensor<4x6x10xf32>
  %eo = tensor.empty() : tensor<4x6x5xf32>
  %zo = linalg.fill ins(%zero : f32) outs(%eo : tensor<4x6x5xf32>) -> tensor<4x6x5xf32>
  %o = linalg.batch_matmul ins(%p, %v : tensor<4x6x10xf32>, tensor<4x10x5xf32>) outs(%zo : tensor<4x6x5xf32>) -> tensor<4x6x5xf32>
  return %o : tensor<4x6x5xf32>
}

// -----

// The operands of the scaling division swapped: sqrt(d) / s.
#id3 = affine_map<(d0, d1, d2) -> (d0, d1, d2)>
// CHECK-LABEL: func @scores_divisor
// CHECK-NOT: attn.attention
func.func @scores_divisor(%q: tensor<4x6x8xf32>, %k: tensor<4x10x8xf32>, %v: tensor<4x10x5xf32>) -> tensor<4x6x5xf32> {
  %zero = arith.constant 0.0 : f32
  %es = tensor.empty() : tensor<4x6x10xf32>
  %zs = linalg.fill ins(%zero : f32) outs(%es : tensor<4x6x10xf32>) -> tensor<4x6x10xf32>
  %s = linalg.batch_matmul indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d0, d1, d3)>, affine_map<(d0, d1, d2, d3) -> (d0, d2, d3)>, affine_map<(d0, d1, d2, d3) -> (d0, d1, d2)>] ins(%q, %k : tensor<4x6x8xf32>, tensor<4x10x8xf32>) outs(%zs : tensor<4x6x10xf32>) -> tensor<4x6x10xf32>
  // expected-note @below {{the first op that blocks it: 'linalg.generic'}}
  %ss = linalg.generic {indexing_maps = [#id3, #id3], iterator_types = ["parallel", "parallel", "parallel"]} ins(%s : tensor<4x6x10xf32>) outs(%es : tensor<4x6x10xf32>) {
  ^bb0(%x: f32, %o: f32):
    %c = arith.constant 2.82842708 : f32
    %m = arith.divf %c, %x : f32
    linalg.yield %m : f32
  } -> tensor<4x6x10xf32>
  // expected-remark @below {{attn-fuse: not fused: the scores are a divisor}}
  %p = linalg.softmax dimension(2) ins(%ss : tensor<4x6x10xf32>) outs(%es : tensor<4x6x10xf32>) -> tensor<4x6x10xf32>
  %eo = tensor.empty() : tensor<4x6x5xf32>
  %zo = linalg.fill ins(%zero : f32) outs(%eo : tensor<4x6x5xf32>) -> tensor<4x6x5xf32>
  %o = linalg.batch_matmul ins(%p, %v : tensor<4x6x10xf32>, tensor<4x10x5xf32>) outs(%zo : tensor<4x6x5xf32>) -> tensor<4x6x5xf32>
  return %o : tensor<4x6x5xf32>
}

// -----

// An f64 chain scaled by 1/sqrt(100) = 0.1, which f32 cannot hold exactly
// (checked before the f64 element type is).
#id3 = affine_map<(d0, d1, d2) -> (d0, d1, d2)>
// CHECK-LABEL: func @scale_not_f32
// CHECK-NOT: attn.attention
func.func @scale_not_f32(%q: tensor<4x6x100xf64>, %k: tensor<4x10x100xf64>, %v: tensor<4x10x5xf64>) -> tensor<4x6x5xf64> {
  %zero = arith.constant 0.0 : f64
  %es = tensor.empty() : tensor<4x6x10xf64>
  %zs = linalg.fill ins(%zero : f64) outs(%es : tensor<4x6x10xf64>) -> tensor<4x6x10xf64>
  %s = linalg.batch_matmul indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d0, d1, d3)>, affine_map<(d0, d1, d2, d3) -> (d0, d2, d3)>, affine_map<(d0, d1, d2, d3) -> (d0, d1, d2)>] ins(%q, %k : tensor<4x6x100xf64>, tensor<4x10x100xf64>) outs(%zs : tensor<4x6x10xf64>) -> tensor<4x6x10xf64>
  // expected-note @below {{the first op that blocks it: 'linalg.generic'}}
  %ss = linalg.generic {indexing_maps = [#id3, #id3], iterator_types = ["parallel", "parallel", "parallel"]} ins(%s : tensor<4x6x10xf64>) outs(%es : tensor<4x6x10xf64>) {
  ^bb0(%x: f64, %o: f64):
    %c = arith.constant 0.1 : f64
    %m = arith.mulf %x, %c : f64
    linalg.yield %m : f64
  } -> tensor<4x6x10xf64>
  // expected-remark @below {{attn-fuse: not fused: the scale constant is not exact in f32}}
  %p = linalg.softmax dimension(2) ins(%ss : tensor<4x6x10xf64>) outs(%es : tensor<4x6x10xf64>) -> tensor<4x6x10xf64>
  %eo = tensor.empty() : tensor<4x6x5xf64>
  %zo = linalg.fill ins(%zero : f64) outs(%eo : tensor<4x6x5xf64>) -> tensor<4x6x5xf64>
  %o = linalg.batch_matmul ins(%p, %v : tensor<4x6x10xf64>, tensor<4x10x5xf64>) outs(%zo : tensor<4x6x5xf64>) -> tensor<4x6x5xf64>
  return %o : tensor<4x6x5xf64>
}

// -----

// f16 scores widened to f64 for the softmax (and the probabilities
// narrowed back to f16): attn.attention's softmax runs in f32.
#id3 = affine_map<(d0, d1, d2) -> (d0, d1, d2)>
// CHECK-LABEL: func @widened_to_f64
// CHECK-NOT: attn.attention
func.func @widened_to_f64(%q: tensor<4x6x8xf16>, %k: tensor<4x10x8xf16>, %v: tensor<4x10x5xf16>) -> tensor<4x6x5xf16> {
  %zero = arith.constant 0.0 : f16
  %es = tensor.empty() : tensor<4x6x10xf16>
  %ed = tensor.empty() : tensor<4x6x10xf64>
  %zs = linalg.fill ins(%zero : f16) outs(%es : tensor<4x6x10xf16>) -> tensor<4x6x10xf16>
  %s = linalg.batch_matmul indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d0, d1, d3)>, affine_map<(d0, d1, d2, d3) -> (d0, d2, d3)>, affine_map<(d0, d1, d2, d3) -> (d0, d1, d2)>] ins(%q, %k : tensor<4x6x8xf16>, tensor<4x10x8xf16>) outs(%zs : tensor<4x6x10xf16>) -> tensor<4x6x10xf16>
  // expected-note @below {{the first op that blocks it: 'linalg.generic'}}
  %sw = linalg.generic {indexing_maps = [#id3, #id3], iterator_types = ["parallel", "parallel", "parallel"]} ins(%s : tensor<4x6x10xf16>) outs(%ed : tensor<4x6x10xf64>) {
  ^bb0(%x: f16, %o: f64):
    %w = arith.extf %x : f16 to f64
    linalg.yield %w : f64
  } -> tensor<4x6x10xf64>
  // expected-remark @below {{attn-fuse: not fused: the scores are widened to another type than f32, or twice}}
  %pw = linalg.softmax dimension(2) ins(%sw : tensor<4x6x10xf64>) outs(%ed : tensor<4x6x10xf64>) -> tensor<4x6x10xf64>
  %p = linalg.generic {indexing_maps = [#id3, #id3], iterator_types = ["parallel", "parallel", "parallel"]} ins(%pw : tensor<4x6x10xf64>) outs(%es : tensor<4x6x10xf16>) {
  ^bb0(%x: f64, %o: f16):
    %n = arith.truncf %x : f64 to f16
    linalg.yield %n : f16
  } -> tensor<4x6x10xf16>
  %eo = tensor.empty() : tensor<4x6x5xf16>
  %zo = linalg.fill ins(%zero : f16) outs(%eo : tensor<4x6x5xf16>) -> tensor<4x6x5xf16>
  %o = linalg.batch_matmul ins(%p, %v : tensor<4x6x10xf16>, tensor<4x10x5xf16>) outs(%zo : tensor<4x6x5xf16>) -> tensor<4x6x5xf16>
  return %o : tensor<4x6x5xf16>
}

// -----

// Learned queries shared over the batch (Perceiver-style cross-attention):
// Q is [Lq, D], read without the batch dim.
#qs = affine_map<(b, i, j, d) -> (i, d)>
#ks = affine_map<(b, i, j, d) -> (b, j, d)>
#ss = affine_map<(b, i, j, d) -> (b, i, j)>
// CHECK-LABEL: func @shared_queries
// CHECK-NOT: attn.attention
func.func @shared_queries(%q: tensor<6x8xf32>, %k: tensor<4x10x8xf32>, %v: tensor<4x10x5xf32>) -> tensor<4x6x5xf32> {
  %zero = arith.constant 0.0 : f32
  %es = tensor.empty() : tensor<4x6x10xf32>
  %zs = linalg.fill ins(%zero : f32) outs(%es : tensor<4x6x10xf32>) -> tensor<4x6x10xf32>
  // expected-note @below {{the first op that blocks it: 'linalg.generic'}}
  %s = linalg.generic {indexing_maps = [#qs, #ks, #ss], iterator_types = ["parallel", "parallel", "parallel", "reduction"]} ins(%q, %k : tensor<6x8xf32>, tensor<4x10x8xf32>) outs(%zs : tensor<4x6x10xf32>) {
  ^bb0(%a: f32, %b: f32, %acc: f32):
    %m = arith.mulf %a, %b : f32
    %r = arith.addf %acc, %m : f32
    linalg.yield %r : f32
  } -> tensor<4x6x10xf32>
  // expected-remark @below {{attn-fuse: not fused: the score contraction is not Q·Kᵀ over the head dimension}}
  %p = linalg.softmax dimension(2) ins(%s : tensor<4x6x10xf32>) outs(%es : tensor<4x6x10xf32>) -> tensor<4x6x10xf32>
  %eo = tensor.empty() : tensor<4x6x5xf32>
  %zo = linalg.fill ins(%zero : f32) outs(%eo : tensor<4x6x5xf32>) -> tensor<4x6x5xf32>
  %o = linalg.batch_matmul ins(%p, %v : tensor<4x6x10xf32>, tensor<4x10x5xf32>) outs(%zo : tensor<4x6x5xf32>) -> tensor<4x6x5xf32>
  return %o : tensor<4x6x5xf32>
}
// -----

// torch-mlir style bmm: the 4-D probabilities [B, H, Lq, Lk] are collapsed
// to [B*H, Lq, Lk] before the P·V batch_matmul.
#id4 = affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>
// CHECK-LABEL: func @probs_collapsed
// CHECK-NOT: attn.attention
func.func @probs_collapsed(%q: tensor<4x6x8xf32>, %k: tensor<4x10x8xf32>, %v: tensor<4x10x5xf32>) -> tensor<4x6x5xf32> {
  %zero = arith.constant 0.0 : f32
  %es = tensor.empty() : tensor<4x6x10xf32>
  %zs = linalg.fill ins(%zero : f32) outs(%es : tensor<4x6x10xf32>) -> tensor<4x6x10xf32>
  %s = linalg.batch_matmul indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d0, d1, d3)>, affine_map<(d0, d1, d2, d3) -> (d0, d2, d3)>, affine_map<(d0, d1, d2, d3) -> (d0, d1, d2)>] ins(%q, %k : tensor<4x6x8xf32>, tensor<4x10x8xf32>) outs(%zs : tensor<4x6x10xf32>) -> tensor<4x6x10xf32>
  %s4 = tensor.expand_shape %s [[0, 1], [2], [3]] output_shape [2, 2, 6, 10] : tensor<4x6x10xf32> into tensor<2x2x6x10xf32>
  %e4 = tensor.empty() : tensor<2x2x6x10xf32>
  // expected-remark @below {{attn-fuse: not fused: the probabilities are not consumed by a P·V contraction (not a contraction)}}
  %p4 = linalg.softmax dimension(3) ins(%s4 : tensor<2x2x6x10xf32>) outs(%e4 : tensor<2x2x6x10xf32>) -> tensor<2x2x6x10xf32>
  // expected-note @below {{the first op that blocks it: 'tensor.collapse_shape'}}
  %p = tensor.collapse_shape %p4 [[0, 1], [2], [3]] : tensor<2x2x6x10xf32> into tensor<4x6x10xf32>
  %eo = tensor.empty() : tensor<4x6x5xf32>
  %zo = linalg.fill ins(%zero : f32) outs(%eo : tensor<4x6x5xf32>) -> tensor<4x6x5xf32>
  %o = linalg.batch_matmul ins(%p, %v : tensor<4x6x10xf32>, tensor<4x10x5xf32>) outs(%zo : tensor<4x6x5xf32>) -> tensor<4x6x5xf32>
  return %o : tensor<4x6x5xf32>
}

// -----

// V is one value per key ([B, Lk], e.g. pooling weights) and the result is
// broadcast over an output-only dim: V has no dim of its own.
#pp = affine_map<(b, i, e, j) -> (b, i, j)>
#vv = affine_map<(b, i, e, j) -> (b, j)>
#oo = affine_map<(b, i, e, j) -> (b, i, e)>
// CHECK-LABEL: func @per_key_scalar_values
// CHECK-NOT: attn.attention
func.func @per_key_scalar_values(%q: tensor<4x6x8xf32>, %k: tensor<4x10x8xf32>, %v: tensor<4x10xf32>) -> tensor<4x6x5xf32> {
  %zero = arith.constant 0.0 : f32
  %es = tensor.empty() : tensor<4x6x10xf32>
  %zs = linalg.fill ins(%zero : f32) outs(%es : tensor<4x6x10xf32>) -> tensor<4x6x10xf32>
  %s = linalg.batch_matmul indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d0, d1, d3)>, affine_map<(d0, d1, d2, d3) -> (d0, d2, d3)>, affine_map<(d0, d1, d2, d3) -> (d0, d1, d2)>] ins(%q, %k : tensor<4x6x8xf32>, tensor<4x10x8xf32>) outs(%zs : tensor<4x6x10xf32>) -> tensor<4x6x10xf32>
  // expected-remark @below {{attn-fuse: not fused: V has no value dimension}}
  %p = linalg.softmax dimension(2) ins(%s : tensor<4x6x10xf32>) outs(%es : tensor<4x6x10xf32>) -> tensor<4x6x10xf32>
  %eo = tensor.empty() : tensor<4x6x5xf32>
  %zo = linalg.fill ins(%zero : f32) outs(%eo : tensor<4x6x5xf32>) -> tensor<4x6x5xf32>
  // expected-note @below {{the first op that blocks it: 'linalg.generic'}}
  %o = linalg.generic {indexing_maps = [#pp, #vv, #oo], iterator_types = ["parallel", "parallel", "parallel", "reduction"]} ins(%p, %v : tensor<4x6x10xf32>, tensor<4x10xf32>) outs(%zo : tensor<4x6x5xf32>) {
  ^bb0(%a: f32, %b: f32, %acc: f32):
    %m = arith.mulf %a, %b : f32
    %r = arith.addf %acc, %m : f32
    linalg.yield %r : f32
  } -> tensor<4x6x5xf32>
  return %o : tensor<4x6x5xf32>
}

// -----

// A P·V generic whose value loop `e` is marked parallel but left out of the
// output, which indexes an output-only loop `y` instead (an iterator or map
// typo): the result is not [batch..., query, value].
#pp = affine_map<(b, i, y, e, j) -> (b, i, j)>
#vv = affine_map<(b, i, y, e, j) -> (b, j, e)>
#oo = affine_map<(b, i, y, e, j) -> (b, i, y)>
// CHECK-LABEL: func @pv_result_not_value
// CHECK-NOT: attn.attention
func.func @pv_result_not_value(%q: tensor<4x6x8xf32>, %k: tensor<4x10x8xf32>, %v: tensor<4x10x5xf32>) -> tensor<4x6x5xf32> {
  %zero = arith.constant 0.0 : f32
  %es = tensor.empty() : tensor<4x6x10xf32>
  %zs = linalg.fill ins(%zero : f32) outs(%es : tensor<4x6x10xf32>) -> tensor<4x6x10xf32>
  %s = linalg.batch_matmul indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d0, d1, d3)>, affine_map<(d0, d1, d2, d3) -> (d0, d2, d3)>, affine_map<(d0, d1, d2, d3) -> (d0, d1, d2)>] ins(%q, %k : tensor<4x6x8xf32>, tensor<4x10x8xf32>) outs(%zs : tensor<4x6x10xf32>) -> tensor<4x6x10xf32>
  // expected-remark @below {{attn-fuse: not fused: the P·V result is not [batch..., query, value]}}
  %p = linalg.softmax dimension(2) ins(%s : tensor<4x6x10xf32>) outs(%es : tensor<4x6x10xf32>) -> tensor<4x6x10xf32>
  %eo = tensor.empty() : tensor<4x6x5xf32>
  %zo = linalg.fill ins(%zero : f32) outs(%eo : tensor<4x6x5xf32>) -> tensor<4x6x5xf32>
  // expected-note @below {{the first op that blocks it: 'linalg.generic'}}
  %o = linalg.generic {indexing_maps = [#pp, #vv, #oo], iterator_types = ["parallel", "parallel", "parallel", "parallel", "reduction"]} ins(%p, %v : tensor<4x6x10xf32>, tensor<4x10x5xf32>) outs(%zo : tensor<4x6x5xf32>) {
  ^bb0(%a: f32, %b: f32, %acc: f32):
    %m = arith.mulf %a, %b : f32
    %r = arith.addf %acc, %m : f32
    linalg.yield %r : f32
  } -> tensor<4x6x5xf32>
  return %o : tensor<4x6x5xf32>
}

// -----

// V shared over the batch ([Lk, Dv], e.g. a learned memory) read without
// the batch dim in the P·V generic.
#pp = affine_map<(b, i, e, j) -> (b, i, j)>
#vv = affine_map<(b, i, e, j) -> (j, e)>
#oo = affine_map<(b, i, e, j) -> (b, i, e)>
// CHECK-LABEL: func @shared_values
// CHECK-NOT: attn.attention
func.func @shared_values(%q: tensor<4x6x8xf32>, %k: tensor<4x10x8xf32>, %v: tensor<10x5xf32>) -> tensor<4x6x5xf32> {
  %zero = arith.constant 0.0 : f32
  %es = tensor.empty() : tensor<4x6x10xf32>
  %zs = linalg.fill ins(%zero : f32) outs(%es : tensor<4x6x10xf32>) -> tensor<4x6x10xf32>
  %s = linalg.batch_matmul indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d0, d1, d3)>, affine_map<(d0, d1, d2, d3) -> (d0, d2, d3)>, affine_map<(d0, d1, d2, d3) -> (d0, d1, d2)>] ins(%q, %k : tensor<4x6x8xf32>, tensor<4x10x8xf32>) outs(%zs : tensor<4x6x10xf32>) -> tensor<4x6x10xf32>
  // expected-remark @below {{attn-fuse: not fused: V is not [batch..., key, value] in the P·V contraction}}
  %p = linalg.softmax dimension(2) ins(%s : tensor<4x6x10xf32>) outs(%es : tensor<4x6x10xf32>) -> tensor<4x6x10xf32>
  %eo = tensor.empty() : tensor<4x6x5xf32>
  %zo = linalg.fill ins(%zero : f32) outs(%eo : tensor<4x6x5xf32>) -> tensor<4x6x5xf32>
  // expected-note @below {{the first op that blocks it: 'linalg.generic'}}
  %o = linalg.generic {indexing_maps = [#pp, #vv, #oo], iterator_types = ["parallel", "parallel", "parallel", "reduction"]} ins(%p, %v : tensor<4x6x10xf32>, tensor<10x5xf32>) outs(%zo : tensor<4x6x5xf32>) {
  ^bb0(%a: f32, %b: f32, %acc: f32):
    %m = arith.mulf %a, %b : f32
    %r = arith.addf %acc, %m : f32
    linalg.yield %r : f32
  } -> tensor<4x6x5xf32>
  return %o : tensor<4x6x5xf32>
}

// -----

// Grouped-query attention with three batch dims laid out [A, G, Hkv, Lq,
// Lk] plus a head dim: K and V are read without the group dim G, which is
// not the one right before the query dim.
#qg = affine_map<(a, b, g, h, i, j, d) -> (a, b, g, h, i, d)>
#kg = affine_map<(a, b, g, h, i, j, d) -> (a, b, h, j, d)>
#sg = affine_map<(a, b, g, h, i, j, d) -> (a, b, g, h, i, j)>
#pg = affine_map<(a, b, g, h, i, e, j) -> (a, b, g, h, i, j)>
#vg = affine_map<(a, b, g, h, i, e, j) -> (a, b, h, j, e)>
#og = affine_map<(a, b, g, h, i, e, j) -> (a, b, g, h, i, e)>
// CHECK-LABEL: func @gqa_group_before_kv_heads
// CHECK-NOT: attn.attention
func.func @gqa_group_before_kv_heads(%q: tensor<2x2x2x3x6x8xf32>, %k: tensor<2x2x3x10x8xf32>, %v: tensor<2x2x3x10x5xf32>) -> tensor<2x2x2x3x6x5xf32> {
  %zero = arith.constant 0.0 : f32
  %es = tensor.empty() : tensor<2x2x2x3x6x10xf32>
  %zs = linalg.fill ins(%zero : f32) outs(%es : tensor<2x2x2x3x6x10xf32>) -> tensor<2x2x2x3x6x10xf32>
  %s = linalg.generic {indexing_maps = [#qg, #kg, #sg], iterator_types = ["parallel", "parallel", "parallel", "parallel", "parallel", "parallel", "reduction"]} ins(%q, %k : tensor<2x2x2x3x6x8xf32>, tensor<2x2x3x10x8xf32>) outs(%zs : tensor<2x2x2x3x6x10xf32>) {
  ^bb0(%a: f32, %b: f32, %acc: f32):
    %m = arith.mulf %a, %b : f32
    %r = arith.addf %acc, %m : f32
    linalg.yield %r : f32
  } -> tensor<2x2x2x3x6x10xf32>
  // expected-remark @below {{attn-fuse: not fused: the query heads of a group are score dim 2, not the one right before the query dim: K and V are repeated in tile order ([.., group, KV head, Lq, Lk]), and only the interleaved order ([.., KV head, group, Lq, Lk], repeat_kv's) is raised}}
  %p = linalg.softmax dimension(5) ins(%s : tensor<2x2x2x3x6x10xf32>) outs(%es : tensor<2x2x2x3x6x10xf32>) -> tensor<2x2x2x3x6x10xf32>
  %eo = tensor.empty() : tensor<2x2x2x3x6x5xf32>
  %zo = linalg.fill ins(%zero : f32) outs(%eo : tensor<2x2x2x3x6x5xf32>) -> tensor<2x2x2x3x6x5xf32>
  // expected-note @below {{the first op that blocks it: 'linalg.generic'}}
  %o = linalg.generic {indexing_maps = [#pg, #vg, #og], iterator_types = ["parallel", "parallel", "parallel", "parallel", "parallel", "parallel", "reduction"]} ins(%p, %v : tensor<2x2x2x3x6x10xf32>, tensor<2x2x3x10x5xf32>) outs(%zo : tensor<2x2x2x3x6x5xf32>) {
  ^bb0(%a: f32, %b: f32, %acc: f32):
    %m = arith.mulf %a, %b : f32
    %r = arith.addf %acc, %m : f32
    linalg.yield %r : f32
  } -> tensor<2x2x2x3x6x5xf32>
  return %o : tensor<2x2x2x3x6x5xf32>
}

// -----

// Q in f16 and K in f32 (a K cache kept in f32), contracted by a mixed-type
// batch_matmul.
// CHECK-LABEL: func @q_k_types_differ
// CHECK-NOT: attn.attention
func.func @q_k_types_differ(%q: tensor<4x6x8xf16>, %k: tensor<4x10x8xf32>, %v: tensor<4x10x5xf16>) -> tensor<4x6x5xf16> {
  %zero = arith.constant 0.0 : f32
  %zh = arith.constant 0.0 : f16
  %es = tensor.empty() : tensor<4x6x10xf32>
  %zs = linalg.fill ins(%zero : f32) outs(%es : tensor<4x6x10xf32>) -> tensor<4x6x10xf32>
  // expected-note @below {{the first op that blocks it: 'linalg.batch_matmul'}}
  %s = linalg.batch_matmul indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d0, d1, d3)>, affine_map<(d0, d1, d2, d3) -> (d0, d2, d3)>, affine_map<(d0, d1, d2, d3) -> (d0, d1, d2)>] ins(%q, %k : tensor<4x6x8xf16>, tensor<4x10x8xf32>) outs(%zs : tensor<4x6x10xf32>) -> tensor<4x6x10xf32>
  // expected-remark @below {{attn-fuse: not fused: Q and K do not share one element type}}
  %p = linalg.softmax dimension(2) ins(%s : tensor<4x6x10xf32>) outs(%es : tensor<4x6x10xf32>) -> tensor<4x6x10xf32>
  %eh = tensor.empty() : tensor<4x6x10xf16>
  %ph = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d1, d2)>, affine_map<(d0, d1, d2) -> (d0, d1, d2)>], iterator_types = ["parallel", "parallel", "parallel"]} ins(%p : tensor<4x6x10xf32>) outs(%eh : tensor<4x6x10xf16>) {
  ^bb0(%x: f32, %o: f16):
    %n = arith.truncf %x : f32 to f16
    linalg.yield %n : f16
  } -> tensor<4x6x10xf16>
  %eo = tensor.empty() : tensor<4x6x5xf16>
  %zo = linalg.fill ins(%zh : f16) outs(%eo : tensor<4x6x5xf16>) -> tensor<4x6x5xf16>
  %o = linalg.batch_matmul ins(%ph, %v : tensor<4x6x10xf16>, tensor<4x10x5xf16>) outs(%zo : tensor<4x6x5xf16>) -> tensor<4x6x5xf16>
  return %o : tensor<4x6x5xf16>
}

// -----

// f16 Q, K and V with both contractions accumulating into f32 and the f32
// result returned: the result type is not that of Q and V.
// CHECK-LABEL: func @f32_result_of_f16
// CHECK-NOT: attn.attention
func.func @f32_result_of_f16(%q: tensor<4x6x8xf16>, %k: tensor<4x10x8xf16>, %v: tensor<4x10x5xf16>) -> tensor<4x6x5xf32> {
  %zero = arith.constant 0.0 : f32
  %es = tensor.empty() : tensor<4x6x10xf32>
  %zs = linalg.fill ins(%zero : f32) outs(%es : tensor<4x6x10xf32>) -> tensor<4x6x10xf32>
  %s = linalg.batch_matmul indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d0, d1, d3)>, affine_map<(d0, d1, d2, d3) -> (d0, d2, d3)>, affine_map<(d0, d1, d2, d3) -> (d0, d1, d2)>] ins(%q, %k : tensor<4x6x8xf16>, tensor<4x10x8xf16>) outs(%zs : tensor<4x6x10xf32>) -> tensor<4x6x10xf32>
  // expected-remark @below {{attn-fuse: not fused: Q, V and the result do not share one element type}}
  %p = linalg.softmax dimension(2) ins(%s : tensor<4x6x10xf32>) outs(%es : tensor<4x6x10xf32>) -> tensor<4x6x10xf32>
  %eh = tensor.empty() : tensor<4x6x10xf16>
  %ph = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d1, d2)>, affine_map<(d0, d1, d2) -> (d0, d1, d2)>], iterator_types = ["parallel", "parallel", "parallel"]} ins(%p : tensor<4x6x10xf32>) outs(%eh : tensor<4x6x10xf16>) {
  ^bb0(%x: f32, %o: f16):
    %n = arith.truncf %x : f32 to f16
    linalg.yield %n : f16
  } -> tensor<4x6x10xf16>
  %eo = tensor.empty() : tensor<4x6x5xf32>
  %zo = linalg.fill ins(%zero : f32) outs(%eo : tensor<4x6x5xf32>) -> tensor<4x6x5xf32>
  // expected-note @below {{the first op that blocks it: 'linalg.batch_matmul'}}
  %o = linalg.batch_matmul ins(%ph, %v : tensor<4x6x10xf16>, tensor<4x10x5xf16>) outs(%zo : tensor<4x6x5xf32>) -> tensor<4x6x5xf32>
  return %o : tensor<4x6x5xf32>
}
// -----

// Dropout with a runtime keep probability: P * keep / keep_prob.
#id3 = affine_map<(d0, d1, d2) -> (d0, d1, d2)>
// CHECK-LABEL: func @dropout_runtime_keep_prob
// CHECK-NOT: attn.attention
func.func @dropout_runtime_keep_prob(%q: tensor<4x6x8xf32>, %k: tensor<4x10x8xf32>, %v: tensor<4x10x5xf32>, %keep: tensor<4x6x10xi1>, %keep_prob: f32) -> tensor<4x6x5xf32> {
  %zero = arith.constant 0.0 : f32
  %es = tensor.empty() : tensor<4x6x10xf32>
  %zs = linalg.fill ins(%zero : f32) outs(%es : tensor<4x6x10xf32>) -> tensor<4x6x10xf32>
  %s = linalg.batch_matmul indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d0, d1, d3)>, affine_map<(d0, d1, d2, d3) -> (d0, d2, d3)>, affine_map<(d0, d1, d2, d3) -> (d0, d1, d2)>] ins(%q, %k : tensor<4x6x8xf32>, tensor<4x10x8xf32>) outs(%zs : tensor<4x6x10xf32>) -> tensor<4x6x10xf32>
  // expected-remark @below {{attn-fuse: not fused: dropout: the dropout generic divides by a non-constant}}
  %p = linalg.softmax dimension(2) ins(%s : tensor<4x6x10xf32>) outs(%es : tensor<4x6x10xf32>) -> tensor<4x6x10xf32>
  %pd = linalg.generic {indexing_maps = [#id3, #id3, #id3], iterator_types = ["parallel", "parallel", "parallel"]} ins(%p, %keep : tensor<4x6x10xf32>, tensor<4x6x10xi1>) outs(%es : tensor<4x6x10xf32>) {
  ^bb0(%x: f32, %b: i1, %o: f32):
    %f = arith.uitofp %b : i1 to f32
    %m = arith.mulf %x, %f : f32
    // expected-note @below {{the first op that blocks it: 'arith.divf'}}
    %r = arith.divf %m, %keep_prob : f32
    linalg.yield %r : f32
  } -> tensor<4x6x10xf32>
  %eo = tensor.empty() : tensor<4x6x5xf32>
  %zo = linalg.fill ins(%zero : f32) outs(%eo : tensor<4x6x5xf32>) -> tensor<4x6x5xf32>
  %o = linalg.batch_matmul ins(%pd, %v : tensor<4x6x10xf32>, tensor<4x10x5xf32>) outs(%zo : tensor<4x6x5xf32>) -> tensor<4x6x5xf32>
  return %o : tensor<4x6x5xf32>
}

// -----

// The i1 keep mask converted with arith.sitofp, which makes true -1.0.
#id3 = affine_map<(d0, d1, d2) -> (d0, d1, d2)>
// CHECK-LABEL: func @dropout_sitofp
// CHECK-NOT: attn.attention
func.func @dropout_sitofp(%q: tensor<4x6x8xf32>, %k: tensor<4x10x8xf32>, %v: tensor<4x10x5xf32>, %keep: tensor<4x6x10xi1>) -> tensor<4x6x5xf32> {
  %zero = arith.constant 0.0 : f32
  %es = tensor.empty() : tensor<4x6x10xf32>
  %zs = linalg.fill ins(%zero : f32) outs(%es : tensor<4x6x10xf32>) -> tensor<4x6x10xf32>
  %s = linalg.batch_matmul indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d0, d1, d3)>, affine_map<(d0, d1, d2, d3) -> (d0, d2, d3)>, affine_map<(d0, d1, d2, d3) -> (d0, d1, d2)>] ins(%q, %k : tensor<4x6x8xf32>, tensor<4x10x8xf32>) outs(%zs : tensor<4x6x10xf32>) -> tensor<4x6x10xf32>
  // expected-remark @below {{attn-fuse: not fused: dropout: the dropout generic computes 'arith.sitofp', not a product with a keep mask}}
  %p = linalg.softmax dimension(2) ins(%s : tensor<4x6x10xf32>) outs(%es : tensor<4x6x10xf32>) -> tensor<4x6x10xf32>
  %pd = linalg.generic {indexing_maps = [#id3, #id3, #id3], iterator_types = ["parallel", "parallel", "parallel"]} ins(%p, %keep : tensor<4x6x10xf32>, tensor<4x6x10xi1>) outs(%es : tensor<4x6x10xf32>) {
  ^bb0(%x: f32, %b: i1, %o: f32):
    %c = arith.constant 1.25 : f32
    // expected-note @below {{the first op that blocks it: 'arith.sitofp'}}
    %f = arith.sitofp %b : i1 to f32
    %m = arith.mulf %x, %f : f32
    %r = arith.mulf %m, %c : f32
    linalg.yield %r : f32
  } -> tensor<4x6x10xf32>
  %eo = tensor.empty() : tensor<4x6x5xf32>
  %zo = linalg.fill ins(%zero : f32) outs(%eo : tensor<4x6x5xf32>) -> tensor<4x6x5xf32>
  %o = linalg.batch_matmul ins(%pd, %v : tensor<4x6x10xf32>, tensor<4x10x5xf32>) outs(%zo : tensor<4x6x5xf32>) -> tensor<4x6x5xf32>
  return %o : tensor<4x6x5xf32>
}

// -----

// A dropout select that leaves a small floor (1e-6), not 0, at dropped
// positions.
#id3 = affine_map<(d0, d1, d2) -> (d0, d1, d2)>
// CHECK-LABEL: func @dropout_select_floor
// CHECK-NOT: attn.attention
func.func @dropout_select_floor(%q: tensor<4x6x8xf32>, %k: tensor<4x10x8xf32>, %v: tensor<4x10x5xf32>, %keep: tensor<4x6x10xi1>) -> tensor<4x6x5xf32> {
  %zero = arith.constant 0.0 : f32
  %es = tensor.empty() : tensor<4x6x10xf32>
  %zs = linalg.fill ins(%zero : f32) outs(%es : tensor<4x6x10xf32>) -> tensor<4x6x10xf32>
  %s = linalg.batch_matmul indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d0, d1, d3)>, affine_map<(d0, d1, d2, d3) -> (d0, d2, d3)>, affine_map<(d0, d1, d2, d3) -> (d0, d1, d2)>] ins(%q, %k : tensor<4x6x8xf32>, tensor<4x10x8xf32>) outs(%zs : tensor<4x6x10xf32>) -> tensor<4x6x10xf32>
  // expected-remark @below {{attn-fuse: not fused: dropout: the dropout select does not put 0 at dropped positions}}
  %p = linalg.softmax dimension(2) ins(%s : tensor<4x6x10xf32>) outs(%es : tensor<4x6x10xf32>) -> tensor<4x6x10xf32>
  %pd = linalg.generic {indexing_maps = [#id3, #id3, #id3], iterator_types = ["parallel", "parallel", "parallel"]} ins(%p, %keep : tensor<4x6x10xf32>, tensor<4x6x10xi1>) outs(%es : tensor<4x6x10xf32>) {
  ^bb0(%x: f32, %b: i1, %o: f32):
    %c = arith.constant 1.25 : f32
    %floor = arith.constant 1.0e-6 : f32
    %m = arith.mulf %x, %c : f32
    // expected-note @below {{the first op that blocks it: 'arith.select'}}
    %r = arith.select %b, %m, %floor : f32
    linalg.yield %r : f32
  } -> tensor<4x6x10xf32>
  %eo = tensor.empty() : tensor<4x6x5xf32>
  %zo = linalg.fill ins(%zero : f32) outs(%eo : tensor<4x6x5xf32>) -> tensor<4x6x5xf32>
  %o = linalg.batch_matmul ins(%pd, %v : tensor<4x6x10xf32>, tensor<4x10x5xf32>) outs(%zo : tensor<4x6x5xf32>) -> tensor<4x6x5xf32>
  return %o : tensor<4x6x5xf32>
}

// -----

// Two keep masks (dropout and a second random mask) multiplied into the
// probabilities: attn.attention takes one dropout_mask.
#id3 = affine_map<(d0, d1, d2) -> (d0, d1, d2)>
// CHECK-LABEL: func @dropout_two_keep_masks
// CHECK-NOT: attn.attention
func.func @dropout_two_keep_masks(%q: tensor<4x6x8xf32>, %k: tensor<4x10x8xf32>, %v: tensor<4x10x5xf32>, %keep1: tensor<4x6x10xi1>, %keep2: tensor<4x6x10xi1>) -> tensor<4x6x5xf32> {
  %zero = arith.constant 0.0 : f32
  %es = tensor.empty() : tensor<4x6x10xf32>
  %zs = linalg.fill ins(%zero : f32) outs(%es : tensor<4x6x10xf32>) -> tensor<4x6x10xf32>
  %s = linalg.batch_matmul indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d0, d1, d3)>, affine_map<(d0, d1, d2, d3) -> (d0, d2, d3)>, affine_map<(d0, d1, d2, d3) -> (d0, d1, d2)>] ins(%q, %k : tensor<4x6x8xf32>, tensor<4x10x8xf32>) outs(%zs : tensor<4x6x10xf32>) -> tensor<4x6x10xf32>
  // expected-remark @below {{attn-fuse: not fused: dropout: the probabilities are multiplied by 2 keep masks}}
  %p = linalg.softmax dimension(2) ins(%s : tensor<4x6x10xf32>) outs(%es : tensor<4x6x10xf32>) -> tensor<4x6x10xf32>
  // expected-note @below {{the first op that blocks it: 'linalg.generic'}}
  %pd = linalg.generic {indexing_maps = [#id3, #id3, #id3, #id3], iterator_types = ["parallel", "parallel", "parallel"]} ins(%p, %keep1, %keep2 : tensor<4x6x10xf32>, tensor<4x6x10xi1>, tensor<4x6x10xi1>) outs(%es : tensor<4x6x10xf32>) {
  ^bb0(%x: f32, %b1: i1, %b2: i1, %o: f32):
    %c = arith.constant 2.0 : f32
    %f1 = arith.uitofp %b1 : i1 to f32
    %f2 = arith.uitofp %b2 : i1 to f32
    %m1 = arith.mulf %x, %f1 : f32
    %m2 = arith.mulf %m1, %f2 : f32
    %r = arith.mulf %m2, %c : f32
    linalg.yield %r : f32
  } -> tensor<4x6x10xf32>
  %eo = tensor.empty() : tensor<4x6x5xf32>
  %zo = linalg.fill ins(%zero : f32) outs(%eo : tensor<4x6x5xf32>) -> tensor<4x6x5xf32>
  %o = linalg.batch_matmul ins(%pd, %v : tensor<4x6x10xf32>, tensor<4x10x5xf32>) outs(%zo : tensor<4x6x5xf32>) -> tensor<4x6x5xf32>
  return %o : tensor<4x6x5xf32>
}
// -----

// A sliding window written with unsigned comparisons, excluding j < i - 3:
// i - 3 wraps around for the first queries.
#id3 = affine_map<(d0, d1, d2) -> (d0, d1, d2)>
// CHECK-LABEL: func @window_unsigned_negative
// CHECK-NOT: attn.attention
func.func @window_unsigned_negative(%q: tensor<4x6x8xf32>, %k: tensor<4x10x8xf32>, %v: tensor<4x10x5xf32>) -> tensor<4x6x5xf32> {
  %zero = arith.constant 0.0 : f32
  %ninf = arith.constant 0xFF800000 : f32
  %es = tensor.empty() : tensor<4x6x10xf32>
  %zs = linalg.fill ins(%zero : f32) outs(%es : tensor<4x6x10xf32>) -> tensor<4x6x10xf32>
  %s = linalg.batch_matmul indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d0, d1, d3)>, affine_map<(d0, d1, d2, d3) -> (d0, d2, d3)>, affine_map<(d0, d1, d2, d3) -> (d0, d1, d2)>] ins(%q, %k : tensor<4x6x8xf32>, tensor<4x10x8xf32>) outs(%zs : tensor<4x6x10xf32>) -> tensor<4x6x10xf32>
  %sc = linalg.generic {indexing_maps = [#id3, #id3], iterator_types = ["parallel", "parallel", "parallel"]} ins(%s : tensor<4x6x10xf32>) outs(%es : tensor<4x6x10xf32>) {
  ^bb0(%x: f32, %o: f32):
    %i = linalg.index 1 : index
    %j = linalg.index 2 : index
    %c3 = arith.constant 3 : index
    %lo = arith.subi %i, %c3 : index
    %future = arith.cmpi ugt, %j, %i : index
    // expected-note @below {{the first op that blocks it: 'arith.cmpi'}}
    %past = arith.cmpi ult, %j, %lo : index
    %drop = arith.ori %future, %past : i1
    %r = arith.select %drop, %ninf, %x : f32
    linalg.yield %r : f32
  } -> tensor<4x6x10xf32>
  // expected-remark @below {{attn-fuse: not fused: the index-built mask compares unsigned a side that may be negative}}
  %p = linalg.softmax dimension(2) ins(%sc : tensor<4x6x10xf32>) outs(%es : tensor<4x6x10xf32>) -> tensor<4x6x10xf32>
  %eo = tensor.empty() : tensor<4x6x5xf32>
  %zo = linalg.fill ins(%zero : f32) outs(%eo : tensor<4x6x5xf32>) -> tensor<4x6x5xf32>
  %o = linalg.batch_matmul ins(%p, %v : tensor<4x6x10xf32>, tensor<4x10x5xf32>) outs(%zo : tensor<4x6x5xf32>) -> tensor<4x6x5xf32>
  return %o : tensor<4x6x5xf32>
}

// -----

// A relative-position bias stored [Lk, Lq] and read transposed: no longer a
// near miss, the op gets the bias transposed (it was left with "the mask
// dimensions are permuted").
#id3 = affine_map<(d0, d1, d2) -> (d0, d1, d2)>
#biasT = affine_map<(d0, d1, d2) -> (d2, d1)>
// CHECK-LABEL: func @bias_transposed
// CHECK: %[[T:.*]] = linalg.transpose ins(%arg3 : tensor<10x6xf32>) outs(%{{.*}} : tensor<6x10xf32>) permutation = [1, 0]
// CHECK: %[[E:.*]] = tensor.expand_shape %[[T]] {{\[}}[0, 1, 2], [3]] output_shape [1, 1, 6, 10]
// CHECK: attn.attention {{.*}} mask(%[[E]] : tensor<1x1x6x10xf32>)
func.func @bias_transposed(%q: tensor<4x6x8xf32>, %k: tensor<4x10x8xf32>, %v: tensor<4x10x5xf32>, %bias: tensor<10x6xf32>) -> tensor<4x6x5xf32> {
  %zero = arith.constant 0.0 : f32
  %es = tensor.empty() : tensor<4x6x10xf32>
  %zs = linalg.fill ins(%zero : f32) outs(%es : tensor<4x6x10xf32>) -> tensor<4x6x10xf32>
  %s = linalg.batch_matmul indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d0, d1, d3)>, affine_map<(d0, d1, d2, d3) -> (d0, d2, d3)>, affine_map<(d0, d1, d2, d3) -> (d0, d1, d2)>] ins(%q, %k : tensor<4x6x8xf32>, tensor<4x10x8xf32>) outs(%zs : tensor<4x6x10xf32>) -> tensor<4x6x10xf32>
  %sb = linalg.generic {indexing_maps = [#id3, #biasT, #id3], iterator_types = ["parallel", "parallel", "parallel"]} ins(%s, %bias : tensor<4x6x10xf32>, tensor<10x6xf32>) outs(%es : tensor<4x6x10xf32>) {
  ^bb0(%x: f32, %b: f32, %o: f32):
    %a = arith.addf %x, %b : f32
    linalg.yield %a : f32
  } -> tensor<4x6x10xf32>
  %p = linalg.softmax dimension(2) ins(%sb : tensor<4x6x10xf32>) outs(%es : tensor<4x6x10xf32>) -> tensor<4x6x10xf32>
  %eo = tensor.empty() : tensor<4x6x5xf32>
  %zo = linalg.fill ins(%zero : f32) outs(%eo : tensor<4x6x5xf32>) -> tensor<4x6x5xf32>
  %o = linalg.batch_matmul ins(%p, %v : tensor<4x6x10xf32>, tensor<4x10x5xf32>) outs(%zo : tensor<4x6x5xf32>) -> tensor<4x6x5xf32>
  return %o : tensor<4x6x5xf32>
}

// -----

// A bias read at (i, i), its diagonal, for every key: not a mask of the
// score dims.
#id3 = affine_map<(d0, d1, d2) -> (d0, d1, d2)>
#diag = affine_map<(d0, d1, d2) -> (d1, d1)>
// CHECK-LABEL: func @bias_diagonal
// CHECK-NOT: attn.attention
func.func @bias_diagonal(%q: tensor<4x6x8xf32>, %k: tensor<4x10x8xf32>, %v: tensor<4x10x5xf32>, %bias: tensor<6x6xf32>) -> tensor<4x6x5xf32> {
  %zero = arith.constant 0.0 : f32
  %es = tensor.empty() : tensor<4x6x10xf32>
  %zs = linalg.fill ins(%zero : f32) outs(%es : tensor<4x6x10xf32>) -> tensor<4x6x10xf32>
  %s = linalg.batch_matmul indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d0, d1, d3)>, affine_map<(d0, d1, d2, d3) -> (d0, d2, d3)>, affine_map<(d0, d1, d2, d3) -> (d0, d1, d2)>] ins(%q, %k : tensor<4x6x8xf32>, tensor<4x10x8xf32>) outs(%zs : tensor<4x6x10xf32>) -> tensor<4x6x10xf32>
  // expected-note @below {{the first op that blocks it: 'linalg.generic'}}
  %sb = linalg.generic {indexing_maps = [#id3, #diag, #id3], iterator_types = ["parallel", "parallel", "parallel"]} ins(%s, %bias : tensor<4x6x10xf32>, tensor<6x6xf32>) outs(%es : tensor<4x6x10xf32>) {
  ^bb0(%x: f32, %b: f32, %o: f32):
    %a = arith.addf %x, %b : f32
    linalg.yield %a : f32
  } -> tensor<4x6x10xf32>
  // expected-remark @below {{attn-fuse: not fused: the mask reads a score dimension twice}}
  %p = linalg.softmax dimension(2) ins(%sb : tensor<4x6x10xf32>) outs(%es : tensor<4x6x10xf32>) -> tensor<4x6x10xf32>
  %eo = tensor.empty() : tensor<4x6x5xf32>
  %zo = linalg.fill ins(%zero : f32) outs(%eo : tensor<4x6x5xf32>) -> tensor<4x6x5xf32>
  %o = linalg.batch_matmul ins(%p, %v : tensor<4x6x10xf32>, tensor<4x10x5xf32>) outs(%zo : tensor<4x6x5xf32>) -> tensor<4x6x5xf32>
  return %o : tensor<4x6x5xf32>
}

// -----

// The dropout keep mask computed in the generic from uniform random numbers
// (keep = u < 0.8) instead of read as an i1 tensor.
#id3 = affine_map<(d0, d1, d2) -> (d0, d1, d2)>
// CHECK-LABEL: func @dropout_keep_from_uniform
// CHECK-NOT: attn.attention
func.func @dropout_keep_from_uniform(%q: tensor<4x6x8xf32>, %k: tensor<4x10x8xf32>, %v: tensor<4x10x5xf32>, %u: tensor<4x6x10xf32>) -> tensor<4x6x5xf32> {
  %zero = arith.constant 0.0 : f32
  %es = tensor.empty() : tensor<4x6x10xf32>
  %zs = linalg.fill ins(%zero : f32) outs(%es : tensor<4x6x10xf32>) -> tensor<4x6x10xf32>
  %s = linalg.batch_matmul indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d0, d1, d3)>, affine_map<(d0, d1, d2, d3) -> (d0, d2, d3)>, affine_map<(d0, d1, d2, d3) -> (d0, d1, d2)>] ins(%q, %k : tensor<4x6x8xf32>, tensor<4x10x8xf32>) outs(%zs : tensor<4x6x10xf32>) -> tensor<4x6x10xf32>
  // expected-remark @below {{attn-fuse: not fused: dropout: the keep condition is not an i1 input of the generic}}
  %p = linalg.softmax dimension(2) ins(%s : tensor<4x6x10xf32>) outs(%es : tensor<4x6x10xf32>) -> tensor<4x6x10xf32>
  // expected-note @below {{the first op that blocks it: 'linalg.generic'}}
  %pd = linalg.generic {indexing_maps = [#id3, #id3, #id3], iterator_types = ["parallel", "parallel", "parallel"]} ins(%p, %u : tensor<4x6x10xf32>, tensor<4x6x10xf32>) outs(%es : tensor<4x6x10xf32>) {
  ^bb0(%x: f32, %r: f32, %o: f32):
    %keep_p = arith.constant 0.8 : f32
    %c = arith.constant 1.25 : f32
    %keep = arith.cmpf olt, %r, %keep_p : f32
    %m = arith.mulf %x, %c : f32
    %y = arith.select %keep, %m, %zero : f32
    linalg.yield %y : f32
  } -> tensor<4x6x10xf32>
  %eo = tensor.empty() : tensor<4x6x5xf32>
  %zo = linalg.fill ins(%zero : f32) outs(%eo : tensor<4x6x5xf32>) -> tensor<4x6x5xf32>
  %o = linalg.batch_matmul ins(%pd, %v : tensor<4x6x10xf32>, tensor<4x10x5xf32>) outs(%zo : tensor<4x6x5xf32>) -> tensor<4x6x5xf32>
  return %o : tensor<4x6x5xf32>
}

// -----

// Dropout scaled by a runtime 1/(1 - p) passed as a function argument
// (a block argument outside the generic).
#id3 = affine_map<(d0, d1, d2) -> (d0, d1, d2)>
// CHECK-LABEL: func @dropout_runtime_scale
// CHECK-NOT: attn.attention
func.func @dropout_runtime_scale(%q: tensor<4x6x8xf32>, %k: tensor<4x10x8xf32>, %v: tensor<4x10x5xf32>, %keep: tensor<4x6x10xi1>, %scale: f32) -> tensor<4x6x5xf32> {
  %zero = arith.constant 0.0 : f32
  %es = tensor.empty() : tensor<4x6x10xf32>
  %zs = linalg.fill ins(%zero : f32) outs(%es : tensor<4x6x10xf32>) -> tensor<4x6x10xf32>
  %s = linalg.batch_matmul indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d0, d1, d3)>, affine_map<(d0, d1, d2, d3) -> (d0, d2, d3)>, affine_map<(d0, d1, d2, d3) -> (d0, d1, d2)>] ins(%q, %k : tensor<4x6x8xf32>, tensor<4x10x8xf32>) outs(%zs : tensor<4x6x10xf32>) -> tensor<4x6x10xf32>
  // expected-remark @below {{attn-fuse: not fused: dropout: the dropout generic reads its output or a non-constant scalar}}
  %p = linalg.softmax dimension(2) ins(%s : tensor<4x6x10xf32>) outs(%es : tensor<4x6x10xf32>) -> tensor<4x6x10xf32>
  // expected-note @below {{the first op that blocks it: 'linalg.generic'}}
  %pd = linalg.generic {indexing_maps = [#id3, #id3, #id3], iterator_types = ["parallel", "parallel", "parallel"]} ins(%p, %keep : tensor<4x6x10xf32>, tensor<4x6x10xi1>) outs(%es : tensor<4x6x10xf32>) {
  ^bb0(%x: f32, %b: i1, %o: f32):
    %f = arith.uitofp %b : i1 to f32
    %m = arith.mulf %x, %f : f32
    %r = arith.mulf %m, %scale : f32
    linalg.yield %r : f32
  } -> tensor<4x6x10xf32>
  %eo = tensor.empty() : tensor<4x6x5xf32>
  %zo = linalg.fill ins(%zero : f32) outs(%eo : tensor<4x6x5xf32>) -> tensor<4x6x5xf32>
  %o = linalg.batch_matmul ins(%pd, %v : tensor<4x6x10xf32>, tensor<4x10x5xf32>) outs(%zo : tensor<4x6x5xf32>) -> tensor<4x6x5xf32>
  return %o : tensor<4x6x5xf32>
}

// -----

// Dropout scaled by 1/(1 - p) computed at run time from p.
#id3 = affine_map<(d0, d1, d2) -> (d0, d1, d2)>
// CHECK-LABEL: func @dropout_computed_scale
// CHECK-NOT: attn.attention
func.func @dropout_computed_scale(%q: tensor<4x6x8xf32>, %k: tensor<4x10x8xf32>, %v: tensor<4x10x5xf32>, %keep: tensor<4x6x10xi1>, %pdrop: f32) -> tensor<4x6x5xf32> {
  %zero = arith.constant 0.0 : f32
  %one = arith.constant 1.0 : f32
  %keep_p = arith.subf %one, %pdrop : f32
  %scale = arith.divf %one, %keep_p : f32
  %es = tensor.empty() : tensor<4x6x10xf32>
  %zs = linalg.fill ins(%zero : f32) outs(%es : tensor<4x6x10xf32>) -> tensor<4x6x10xf32>
  %s = linalg.batch_matmul indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d0, d1, d3)>, affine_map<(d0, d1, d2, d3) -> (d0, d2, d3)>, affine_map<(d0, d1, d2, d3) -> (d0, d1, d2)>] ins(%q, %k : tensor<4x6x8xf32>, tensor<4x10x8xf32>) outs(%zs : tensor<4x6x10xf32>) -> tensor<4x6x10xf32>
  // expected-remark @below {{attn-fuse: not fused: dropout: the probabilities are multiplied by a non-constant scalar}}
  %p = linalg.softmax dimension(2) ins(%s : tensor<4x6x10xf32>) outs(%es : tensor<4x6x10xf32>) -> tensor<4x6x10xf32>
  // expected-note @below {{the first op that blocks it: 'linalg.generic'}}
  %pd = linalg.generic {indexing_maps = [#id3, #id3, #id3], iterator_types = ["parallel", "parallel", "parallel"]} ins(%p, %keep : tensor<4x6x10xf32>, tensor<4x6x10xi1>) outs(%es : tensor<4x6x10xf32>) {
  ^bb0(%x: f32, %b: i1, %o: f32):
    %f = arith.uitofp %b : i1 to f32
    %m = arith.mulf %x, %f : f32
    %r = arith.mulf %m, %scale : f32
    linalg.yield %r : f32
  } -> tensor<4x6x10xf32>
  %eo = tensor.empty() : tensor<4x6x5xf32>
  %zo = linalg.fill ins(%zero : f32) outs(%eo : tensor<4x6x5xf32>) -> tensor<4x6x5xf32>
  %o = linalg.batch_matmul ins(%pd, %v : tensor<4x6x10xf32>, tensor<4x10x5xf32>) outs(%zo : tensor<4x6x5xf32>) -> tensor<4x6x5xf32>
  return %o : tensor<4x6x5xf32>
}

// -----

// A uint8 keep mask (as torch stores bool masks in some exports) converted
// with arith.uitofp.
#id3 = affine_map<(d0, d1, d2) -> (d0, d1, d2)>
// CHECK-LABEL: func @dropout_u8_keep
// CHECK-NOT: attn.attention
func.func @dropout_u8_keep(%q: tensor<4x6x8xf32>, %k: tensor<4x10x8xf32>, %v: tensor<4x10x5xf32>, %keep: tensor<4x6x10xi8>) -> tensor<4x6x5xf32> {
  %zero = arith.constant 0.0 : f32
  %es = tensor.empty() : tensor<4x6x10xf32>
  %zs = linalg.fill ins(%zero : f32) outs(%es : tensor<4x6x10xf32>) -> tensor<4x6x10xf32>
  %s = linalg.batch_matmul indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d0, d1, d3)>, affine_map<(d0, d1, d2, d3) -> (d0, d2, d3)>, affine_map<(d0, d1, d2, d3) -> (d0, d1, d2)>] ins(%q, %k : tensor<4x6x8xf32>, tensor<4x10x8xf32>) outs(%zs : tensor<4x6x10xf32>) -> tensor<4x6x10xf32>
  // expected-remark @below {{attn-fuse: not fused: dropout: the dropout generic converts a non-i1 integer to float}}
  %p = linalg.softmax dimension(2) ins(%s : tensor<4x6x10xf32>) outs(%es : tensor<4x6x10xf32>) -> tensor<4x6x10xf32>
  %pd = linalg.generic {indexing_maps = [#id3, #id3, #id3], iterator_types = ["parallel", "parallel", "parallel"]} ins(%p, %keep : tensor<4x6x10xf32>, tensor<4x6x10xi8>) outs(%es : tensor<4x6x10xf32>) {
  ^bb0(%x: f32, %b: i8, %o: f32):
    %c = arith.constant 1.25 : f32
    // expected-note @below {{the first op that blocks it: 'arith.uitofp'}}
    %f = arith.uitofp %b : i8 to f32
    %m = arith.mulf %x, %f : f32
    %r = arith.mulf %m, %c : f32
    linalg.yield %r : f32
  } -> tensor<4x6x10xf32>
  %eo = tensor.empty() : tensor<4x6x5xf32>
  %zo = linalg.fill ins(%zero : f32) outs(%eo : tensor<4x6x5xf32>) -> tensor<4x6x5xf32>
  %o = linalg.batch_matmul ins(%pd, %v : tensor<4x6x10xf32>, tensor<4x10x5xf32>) outs(%zo : tensor<4x6x5xf32>) -> tensor<4x6x5xf32>
  return %o : tensor<4x6x5xf32>
}

// -----

// TOSA dropout with an int8 keep mask cast to f32.
// CHECK-LABEL: func @tosa_dropout_i8_cast
// CHECK-NOT: attn.attention
func.func @tosa_dropout_i8_cast(%q: tensor<4x6x8xf32>, %k: tensor<4x10x8xf32>, %v: tensor<4x10x5xf32>, %keep: tensor<4x6x10xi8>) -> tensor<4x6x5xf32> {
  %zp = "tosa.const"() <{values = dense<0.0> : tensor<1xf32>}> : () -> tensor<1xf32>
  %shift = "tosa.const"() <{values = dense<0> : tensor<1xi8>}> : () -> tensor<1xi8>
  %c = "tosa.const"() <{values = dense<1.25> : tensor<1x1x1xf32>}> : () -> tensor<1x1x1xf32>
  %kt = tosa.transpose %k {perms = array<i32: 0, 2, 1>} : (tensor<4x10x8xf32>) -> tensor<4x8x10xf32>
  %s = tosa.matmul %q, %kt, %zp, %zp : (tensor<4x6x8xf32>, tensor<4x8x10xf32>, tensor<1xf32>, tensor<1xf32>) -> tensor<4x6x10xf32>
  // expected-remark @below {{attn-fuse: not fused: dropout: the dropout multiplier is a tosa.cast of a non-i1 tensor}}
  %m = tosa.reduce_max %s {axis = 2 : i32} : (tensor<4x6x10xf32>) -> tensor<4x6x1xf32>
  %d = tosa.sub %s, %m : (tensor<4x6x10xf32>, tensor<4x6x1xf32>) -> tensor<4x6x10xf32>
  %e = tosa.exp %d : (tensor<4x6x10xf32>) -> tensor<4x6x10xf32>
  %l = tosa.reduce_sum %e {axis = 2 : i32} : (tensor<4x6x10xf32>) -> tensor<4x6x1xf32>
  %r = tosa.reciprocal %l : (tensor<4x6x1xf32>) -> tensor<4x6x1xf32>
  %p = tosa.mul %e, %r, %shift : (tensor<4x6x10xf32>, tensor<4x6x1xf32>, tensor<1xi8>) -> tensor<4x6x10xf32>
  // expected-note @below {{the first op that blocks it: 'tosa.cast'}}
  %kf = tosa.cast %keep : (tensor<4x6x10xi8>) -> tensor<4x6x10xf32>
  %pk = tosa.mul %p, %kf, %shift : (tensor<4x6x10xf32>, tensor<4x6x10xf32>, tensor<1xi8>) -> tensor<4x6x10xf32>
  %pd = tosa.mul %pk, %c, %shift : (tensor<4x6x10xf32>, tensor<1x1x1xf32>, tensor<1xi8>) -> tensor<4x6x10xf32>
  %o = tosa.matmul %pd, %v, %zp, %zp : (tensor<4x6x10xf32>, tensor<4x10x5xf32>, tensor<1xf32>, tensor<1xf32>) -> tensor<4x6x5xf32>
  return %o : tensor<4x6x5xf32>
}

// -----

// Dropout applied to exp(s - max) before the division by the row sum
// (accepted), but the dropped-out tensor is also returned.
// CHECK-LABEL: func @dropped_exp_returned
// CHECK-NOT: attn.attention
func.func @dropped_exp_returned(%q: tensor<4x6x8xf32>, %k: tensor<4x10x8xf32>, %v: tensor<4x10x5xf32>, %keep: tensor<4x6x10xi1>) -> (tensor<4x6x5xf32>, tensor<4x6x10xf32>) {
  %zp = "tosa.const"() <{values = dense<0.0> : tensor<1xf32>}> : () -> tensor<1xf32>
  %shift = "tosa.const"() <{values = dense<0> : tensor<1xi8>}> : () -> tensor<1xi8>
  %c = "tosa.const"() <{values = dense<1.25> : tensor<1x1x1xf32>}> : () -> tensor<1x1x1xf32>
  %kt = tosa.transpose %k {perms = array<i32: 0, 2, 1>} : (tensor<4x10x8xf32>) -> tensor<4x8x10xf32>
  %s = tosa.matmul %q, %kt, %zp, %zp : (tensor<4x6x8xf32>, tensor<4x8x10xf32>, tensor<1xf32>, tensor<1xf32>) -> tensor<4x6x10xf32>
  // expected-remark @below {{attn-fuse: not fused: the dropped-out exp(s - max) has another user}}
  %m = tosa.reduce_max %s {axis = 2 : i32} : (tensor<4x6x10xf32>) -> tensor<4x6x1xf32>
  %d = tosa.sub %s, %m : (tensor<4x6x10xf32>, tensor<4x6x1xf32>) -> tensor<4x6x10xf32>
  %e = tosa.exp %d : (tensor<4x6x10xf32>) -> tensor<4x6x10xf32>
  %l = tosa.reduce_sum %e {axis = 2 : i32} : (tensor<4x6x10xf32>) -> tensor<4x6x1xf32>
  %r = tosa.reciprocal %l : (tensor<4x6x1xf32>) -> tensor<4x6x1xf32>
  %zf = "tosa.const"() <{values = dense<0.0> : tensor<1x1x1xf32>}> : () -> tensor<1x1x1xf32>
  %ek = tosa.select %keep, %e, %zf : (tensor<4x6x10xi1>, tensor<4x6x10xf32>, tensor<1x1x1xf32>) -> tensor<4x6x10xf32>
  %ed = tosa.mul %ek, %c, %shift : (tensor<4x6x10xf32>, tensor<1x1x1xf32>, tensor<1xi8>) -> tensor<4x6x10xf32>
  %p = tosa.mul %ed, %r, %shift : (tensor<4x6x10xf32>, tensor<4x6x1xf32>, tensor<1xi8>) -> tensor<4x6x10xf32>
  %o = tosa.matmul %p, %v, %zp, %zp : (tensor<4x6x10xf32>, tensor<4x10x5xf32>, tensor<1xf32>, tensor<1xf32>) -> tensor<4x6x5xf32>
  // expected-note @below {{the first op that blocks it: 'func.return'}}
  return %o, %ed : tensor<4x6x5xf32>, tensor<4x6x10xf32>
}

// -----

// FP8 (f8E4M3FN) Q, K and V with f32 scores and softmax: attn.attention
// takes f16, bf16 or f32 operands.
// CHECK-LABEL: func @fp8_operands
// CHECK-NOT: attn.attention
func.func @fp8_operands(%q: tensor<4x6x8xf8E4M3FN>, %k: tensor<4x10x8xf8E4M3FN>, %v: tensor<4x10x5xf8E4M3FN>) -> tensor<4x6x5xf32> {
  %zero = arith.constant 0.0 : f32
  %es = tensor.empty() : tensor<4x6x10xf32>
  %zs = linalg.fill ins(%zero : f32) outs(%es : tensor<4x6x10xf32>) -> tensor<4x6x10xf32>
  // expected-note @below {{the first op that blocks it: 'linalg.batch_matmul'}}
  %s = linalg.batch_matmul indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d0, d1, d3)>, affine_map<(d0, d1, d2, d3) -> (d0, d2, d3)>, affine_map<(d0, d1, d2, d3) -> (d0, d1, d2)>] ins(%q, %k : tensor<4x6x8xf8E4M3FN>, tensor<4x10x8xf8E4M3FN>) outs(%zs : tensor<4x6x10xf32>) -> tensor<4x6x10xf32>
  // expected-remark @below {{attn-fuse: not fused: Q is not f16, bf16, f32 or f64}}
  %p = linalg.softmax dimension(2) ins(%s : tensor<4x6x10xf32>) outs(%es : tensor<4x6x10xf32>) -> tensor<4x6x10xf32>
  %eo = tensor.empty() : tensor<4x6x5xf32>
  %zo = linalg.fill ins(%zero : f32) outs(%eo : tensor<4x6x5xf32>) -> tensor<4x6x5xf32>
  %o = linalg.batch_matmul ins(%p, %v : tensor<4x6x10xf32>, tensor<4x10x5xf8E4M3FN>) outs(%zo : tensor<4x6x5xf32>) -> tensor<4x6x5xf32>
  return %o : tensor<4x6x5xf32>
}

// -----

// Grouped-query attention [B, Hkv, G, Lq, Lk] where V is read without the
// group dim but K was materialized per query head (repeat_interleave).
#q5 = affine_map<(b, h, g, i, j, d) -> (b, h, g, i, d)>
#k5 = affine_map<(b, h, g, i, j, d) -> (b, h, g, j, d)>
#s5 = affine_map<(b, h, g, i, j, d) -> (b, h, g, i, j)>
#p5 = affine_map<(b, h, g, i, e, j) -> (b, h, g, i, j)>
#v5 = affine_map<(b, h, g, i, e, j) -> (b, h, j, e)>
#o5 = affine_map<(b, h, g, i, e, j) -> (b, h, g, i, e)>
// CHECK-LABEL: func @gqa_k_repeated
// CHECK-NOT: attn.attention
func.func @gqa_k_repeated(%q: tensor<2x2x3x6x8xf32>, %k: tensor<2x2x3x10x8xf32>, %v: tensor<2x2x10x5xf32>) -> tensor<2x2x3x6x5xf32> {
  %zero = arith.constant 0.0 : f32
  %es = tensor.empty() : tensor<2x2x3x6x10xf32>
  %zs = linalg.fill ins(%zero : f32) outs(%es : tensor<2x2x3x6x10xf32>) -> tensor<2x2x3x6x10xf32>
  // expected-note @below {{the first op that blocks it: 'linalg.generic'}}
  %s = linalg.generic {indexing_maps = [#q5, #k5, #s5], iterator_types = ["parallel", "parallel", "parallel", "parallel", "parallel", "reduction"]} ins(%q, %k : tensor<2x2x3x6x8xf32>, tensor<2x2x3x10x8xf32>) outs(%zs : tensor<2x2x3x6x10xf32>) {
  ^bb0(%a: f32, %b: f32, %acc: f32):
    %m = arith.mulf %a, %b : f32
    %r = arith.addf %acc, %m : f32
    linalg.yield %r : f32
  } -> tensor<2x2x3x6x10xf32>
  // expected-remark @below {{attn-fuse: not fused: V is broadcast over the query heads of a group but K is not}}
  %p = linalg.softmax dimension(4) ins(%s : tensor<2x2x3x6x10xf32>) outs(%es : tensor<2x2x3x6x10xf32>) -> tensor<2x2x3x6x10xf32>
  %eo = tensor.empty() : tensor<2x2x3x6x5xf32>
  %zo = linalg.fill ins(%zero : f32) outs(%eo : tensor<2x2x3x6x5xf32>) -> tensor<2x2x3x6x5xf32>
  %o = linalg.generic {indexing_maps = [#p5, #v5, #o5], iterator_types = ["parallel", "parallel", "parallel", "parallel", "parallel", "reduction"]} ins(%p, %v : tensor<2x2x3x6x10xf32>, tensor<2x2x10x5xf32>) outs(%zo : tensor<2x2x3x6x5xf32>) {
  ^bb0(%a: f32, %b: f32, %acc: f32):
    %m = arith.mulf %a, %b : f32
    %r = arith.addf %acc, %m : f32
    linalg.yield %r : f32
  } -> tensor<2x2x3x6x5xf32>
  return %o : tensor<2x2x3x6x5xf32>
}

// -----

// Users without results (a func.return) where the matcher looks for an
// elementwise user: read through getElementwise(Operation *), which refuses
// them (getResult(0) on a return read past the op before).

// CHECK-LABEL: func.func @softmax_returned
// CHECK-NOT: attn.attention
func.func @softmax_returned(%s: tensor<4x6x10xf32>) -> tensor<4x6x10xf32> {
  %es = tensor.empty() : tensor<4x6x10xf32>
  // expected-remark @below {{attn-fuse: not fused: the probabilities are not consumed by a P·V contraction (not a contraction)}}
  %p = linalg.softmax dimension(2) ins(%s : tensor<4x6x10xf32>) outs(%es : tensor<4x6x10xf32>) -> tensor<4x6x10xf32>
  // expected-note @below {{the first op that blocks it: 'func.return'}}
  return %p : tensor<4x6x10xf32>
}

// -----

// CHECK-LABEL: func.func @row_max_and_scores_returned
// CHECK-NOT: attn.attention
func.func @row_max_and_scores_returned(%s: tensor<4x6x10xf32>) -> (tensor<4x6x10xf32>, tensor<4x6x1xf32>) {
  // expected-remark @below {{attn-fuse: not fused: the row max is not subtracted from the scores}}
  %m = tosa.reduce_max %s {axis = 2 : i32} : (tensor<4x6x10xf32>) -> tensor<4x6x1xf32>
  // expected-note @below {{the first op that blocks it: 'func.return'}}
  return %s, %m : tensor<4x6x10xf32>, tensor<4x6x1xf32>
}

// -----

// CHECK-LABEL: func.func @row_max_returned
// CHECK-NOT: attn.attention
func.func @row_max_returned(%s: tensor<4x6x10xf32>) -> (tensor<4x6x1xf32>, tensor<4x6x10xf32>) {
  // expected-remark @below {{attn-fuse: not fused: the row max has another user}}
  %m = tosa.reduce_max %s {axis = 2 : i32} : (tensor<4x6x10xf32>) -> tensor<4x6x1xf32>
  %d = tosa.sub %s, %m : (tensor<4x6x10xf32>, tensor<4x6x1xf32>) -> tensor<4x6x10xf32>
  // expected-note @below {{the first op that blocks it: 'func.return'}}
  return %m, %d : tensor<4x6x1xf32>, tensor<4x6x10xf32>
}

// -----

// A log-sum-exp softmax whose scores are also returned: the scores' extra
// user blocks it (not the row max, which has its two users).
// CHECK-LABEL: func.func @scores_extra_lse
// CHECK-NOT: attn.attention
func.func @scores_extra_lse(%q: tensor<4x6x8xf32>, %k: tensor<4x10x8xf32>, %v: tensor<4x10x5xf32>) -> (tensor<4x6x5xf32>, tensor<4x6x10xf32>) {
  %zp = "tosa.const"() <{values = dense<0.0> : tensor<1xf32>}> : () -> tensor<1xf32>
  %kt = tosa.transpose %k {perms = array<i32: 0, 2, 1>} : (tensor<4x10x8xf32>) -> tensor<4x8x10xf32>
  %s = tosa.matmul %q, %kt, %zp, %zp : (tensor<4x6x8xf32>, tensor<4x8x10xf32>, tensor<1xf32>, tensor<1xf32>) -> tensor<4x6x10xf32>
  // expected-remark @below {{attn-fuse: not fused: the scores have users other than the softmax}}
  %m = tosa.reduce_max %s {axis = 2 : i32} : (tensor<4x6x10xf32>) -> tensor<4x6x1xf32>
  %d = tosa.sub %s, %m : (tensor<4x6x10xf32>, tensor<4x6x1xf32>) -> tensor<4x6x10xf32>
  %e = tosa.exp %d : (tensor<4x6x10xf32>) -> tensor<4x6x10xf32>
  %l = tosa.reduce_sum %e {axis = 2 : i32} : (tensor<4x6x10xf32>) -> tensor<4x6x1xf32>
  %lg = tosa.log %l : (tensor<4x6x1xf32>) -> tensor<4x6x1xf32>
  %lse = tosa.add %m, %lg : (tensor<4x6x1xf32>, tensor<4x6x1xf32>) -> tensor<4x6x1xf32>
  %t = tosa.sub %s, %lse : (tensor<4x6x10xf32>, tensor<4x6x1xf32>) -> tensor<4x6x10xf32>
  %p = tosa.exp %t : (tensor<4x6x10xf32>) -> tensor<4x6x10xf32>
  %o = tosa.matmul %p, %v, %zp, %zp : (tensor<4x6x10xf32>, tensor<4x10x5xf32>, tensor<1xf32>, tensor<1xf32>) -> tensor<4x6x5xf32>
  // expected-note @below {{the first op that blocks it: 'func.return'}}
  return %o, %s : tensor<4x6x5xf32>, tensor<4x6x10xf32>
}

// -----

// The row sum read through `l + eps` before the reciprocal: no
// normalization attn.attention computes; the note names the addition (it was
// taken for a dropout step before, and blamed on a keep mask).
// CHECK-LABEL: func.func @eps_sum
// CHECK-NOT: attn.attention
func.func @eps_sum(%q: tensor<4x6x8xf32>, %k: tensor<4x10x8xf32>, %v: tensor<4x10x5xf32>) -> tensor<4x6x5xf32> {
  %zp = "tosa.const"() <{values = dense<0.0> : tensor<1xf32>}> : () -> tensor<1xf32>
  %shift = "tosa.const"() <{values = dense<0> : tensor<1xi8>}> : () -> tensor<1xi8>
  %eps = "tosa.const"() <{values = dense<1.0e-6> : tensor<1x1x1xf32>}> : () -> tensor<1x1x1xf32>
  %kt = tosa.transpose %k {perms = array<i32: 0, 2, 1>} : (tensor<4x10x8xf32>) -> tensor<4x8x10xf32>
  %s = tosa.matmul %q, %kt, %zp, %zp : (tensor<4x6x8xf32>, tensor<4x8x10xf32>, tensor<1xf32>, tensor<1xf32>) -> tensor<4x6x10xf32>
  // expected-remark @below {{attn-fuse: not fused: the softmax is not normalized by the row sum l: 'tosa.mul' reads it, but not as x / l or x * (1 / l) with l read back along the keys}}
  %m = tosa.reduce_max %s {axis = 2 : i32} : (tensor<4x6x10xf32>) -> tensor<4x6x1xf32>
  %d = tosa.sub %s, %m : (tensor<4x6x10xf32>, tensor<4x6x1xf32>) -> tensor<4x6x10xf32>
  %e = tosa.exp %d : (tensor<4x6x10xf32>) -> tensor<4x6x10xf32>
  %l = tosa.reduce_sum %e {axis = 2 : i32} : (tensor<4x6x10xf32>) -> tensor<4x6x1xf32>
  // expected-note @below {{the first op that blocks it: 'tosa.add'}}
  %le = tosa.add %l, %eps : (tensor<4x6x1xf32>, tensor<1x1x1xf32>) -> tensor<4x6x1xf32>
  %r = tosa.reciprocal %le : (tensor<4x6x1xf32>) -> tensor<4x6x1xf32>
  %p = tosa.mul %e, %r, %shift : (tensor<4x6x10xf32>, tensor<4x6x1xf32>, tensor<1xi8>) -> tensor<4x6x10xf32>
  %o = tosa.matmul %p, %v, %zp, %zp : (tensor<4x6x10xf32>, tensor<4x10x5xf32>, tensor<1xf32>, tensor<1xf32>) -> tensor<4x6x5xf32>
  return %o : tensor<4x6x5xf32>
}

// -----

// The scores added to themselves (S + S): no other user to name; the note
// names the softmax (this crashed explain before).
// CHECK-LABEL: func.func @scores_twice
// CHECK-NOT: attn.attention
#st_id3 = affine_map<(d0, d1, d2) -> (d0, d1, d2)>
#st_row = affine_map<(d0, d1, d2) -> (d0, d1)>
#st_rowb = affine_map<(d0, d1, d2) -> (d0, d1)>
func.func @scores_twice(%q: tensor<4x6x8xf32>, %k: tensor<4x10x8xf32>, %v: tensor<4x10x5xf32>) -> tensor<4x6x5xf32> {
  %zero = arith.constant 0.0 : f32
  %ninf = arith.constant 0xFF800000 : f32
  %es = tensor.empty() : tensor<4x6x10xf32>
  %zs = linalg.fill ins(%zero : f32) outs(%es : tensor<4x6x10xf32>) -> tensor<4x6x10xf32>
  %s = linalg.batch_matmul indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d0, d1, d3)>, affine_map<(d0, d1, d2, d3) -> (d0, d2, d3)>, affine_map<(d0, d1, d2, d3) -> (d0, d1, d2)>] ins(%q, %k : tensor<4x6x8xf32>, tensor<4x10x8xf32>) outs(%zs : tensor<4x6x10xf32>) -> tensor<4x6x10xf32>
  %ss = linalg.generic {indexing_maps = [#st_id3, #st_id3, #st_id3], iterator_types = ["parallel", "parallel", "parallel"]} ins(%s, %s : tensor<4x6x10xf32>, tensor<4x6x10xf32>) outs(%es : tensor<4x6x10xf32>) {
  ^bb0(%x: f32, %y: f32, %o: f32):
    %r = arith.addf %x, %y : f32
    linalg.yield %r : f32
  } -> tensor<4x6x10xf32>
  %er = tensor.empty() : tensor<4x6xf32>
  %mi = linalg.fill ins(%ninf : f32) outs(%er : tensor<4x6xf32>) -> tensor<4x6xf32>
  // expected-remark @below {{attn-fuse: not fused: an intermediate score tensor has another user}}
  // expected-note @below {{the first op that blocks it: 'linalg.generic' (the softmax itself)}}
  %m = linalg.generic {indexing_maps = [#st_id3, #st_row], iterator_types = ["parallel", "parallel", "reduction"]} ins(%ss : tensor<4x6x10xf32>) outs(%mi : tensor<4x6xf32>) {
  ^bb0(%x: f32, %a: f32):
    %r = arith.maximumf %x, %a : f32
    linalg.yield %r : f32
  } -> tensor<4x6xf32>
  %sh = linalg.generic {indexing_maps = [#st_id3, #st_rowb, #st_id3], iterator_types = ["parallel", "parallel", "parallel"]} ins(%ss, %m : tensor<4x6x10xf32>, tensor<4x6xf32>) outs(%es : tensor<4x6x10xf32>) {
  ^bb0(%x: f32, %y: f32, %o: f32):
    %r = arith.subf %x, %y : f32
    linalg.yield %r : f32
  } -> tensor<4x6x10xf32>
  %e = linalg.generic {indexing_maps = [#st_id3, #st_id3], iterator_types = ["parallel", "parallel", "parallel"]} ins(%sh : tensor<4x6x10xf32>) outs(%es : tensor<4x6x10xf32>) {
  ^bb0(%x: f32, %o: f32):
    %r = math.exp %x : f32
    linalg.yield %r : f32
  } -> tensor<4x6x10xf32>
  %li = linalg.fill ins(%zero : f32) outs(%er : tensor<4x6xf32>) -> tensor<4x6xf32>
  %l = linalg.generic {indexing_maps = [#st_id3, #st_row], iterator_types = ["parallel", "parallel", "reduction"]} ins(%e : tensor<4x6x10xf32>) outs(%li : tensor<4x6xf32>) {
  ^bb0(%x: f32, %a: f32):
    %r = arith.addf %x, %a : f32
    linalg.yield %r : f32
  } -> tensor<4x6xf32>
  %p = linalg.generic {indexing_maps = [#st_id3, #st_rowb, #st_id3], iterator_types = ["parallel", "parallel", "parallel"]} ins(%e, %l : tensor<4x6x10xf32>, tensor<4x6xf32>) outs(%es : tensor<4x6x10xf32>) {
  ^bb0(%x: f32, %y: f32, %o: f32):
    %r = arith.divf %x, %y : f32
    linalg.yield %r : f32
  } -> tensor<4x6x10xf32>
  %eo = tensor.empty() : tensor<4x6x5xf32>
  %zo = linalg.fill ins(%zero : f32) outs(%eo : tensor<4x6x5xf32>) -> tensor<4x6x5xf32>
  %o = linalg.batch_matmul ins(%p, %v : tensor<4x6x10xf32>, tensor<4x10x5xf32>) outs(%zo : tensor<4x6x5xf32>) -> tensor<4x6x5xf32>
  return %o : tensor<4x6x5xf32>
}

// -----

// A row sum that nothing reads, the probabilities only halved: the note
// names the step that should have divided by it (explain crashed before).
// CHECK-LABEL: func.func @row_sum_unused
// CHECK-NOT: attn.attention
#ru_id3 = affine_map<(d0, d1, d2) -> (d0, d1, d2)>
#ru_row = affine_map<(d0, d1, d2) -> (d0, d1)>
#ru_rowb = affine_map<(d0, d1, d2) -> (d0, d1)>
func.func @row_sum_unused(%q: tensor<4x6x8xf32>, %k: tensor<4x10x8xf32>, %v: tensor<4x10x5xf32>) -> tensor<4x6x5xf32> {
  %zero = arith.constant 0.0 : f32
  %ninf = arith.constant 0xFF800000 : f32
  %es = tensor.empty() : tensor<4x6x10xf32>
  %zs = linalg.fill ins(%zero : f32) outs(%es : tensor<4x6x10xf32>) -> tensor<4x6x10xf32>
  %s = linalg.batch_matmul indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d0, d1, d3)>, affine_map<(d0, d1, d2, d3) -> (d0, d2, d3)>, affine_map<(d0, d1, d2, d3) -> (d0, d1, d2)>] ins(%q, %k : tensor<4x6x8xf32>, tensor<4x10x8xf32>) outs(%zs : tensor<4x6x10xf32>) -> tensor<4x6x10xf32>
  %er = tensor.empty() : tensor<4x6xf32>
  %mi = linalg.fill ins(%ninf : f32) outs(%er : tensor<4x6xf32>) -> tensor<4x6xf32>
  // expected-remark @below {{attn-fuse: not fused: the row sum does not normalize the softmax}}
  %m = linalg.generic {indexing_maps = [#ru_id3, #ru_row], iterator_types = ["parallel", "parallel", "reduction"]} ins(%s : tensor<4x6x10xf32>) outs(%mi : tensor<4x6xf32>) {
  ^bb0(%x: f32, %a: f32):
    %r = arith.maximumf %x, %a : f32
    linalg.yield %r : f32
  } -> tensor<4x6xf32>
  %sh = linalg.generic {indexing_maps = [#ru_id3, #ru_rowb, #ru_id3], iterator_types = ["parallel", "parallel", "parallel"]} ins(%s, %m : tensor<4x6x10xf32>, tensor<4x6xf32>) outs(%es : tensor<4x6x10xf32>) {
  ^bb0(%x: f32, %y: f32, %o: f32):
    %r = arith.subf %x, %y : f32
    linalg.yield %r : f32
  } -> tensor<4x6x10xf32>
  %e = linalg.generic {indexing_maps = [#ru_id3, #ru_id3], iterator_types = ["parallel", "parallel", "parallel"]} ins(%sh : tensor<4x6x10xf32>) outs(%es : tensor<4x6x10xf32>) {
  ^bb0(%x: f32, %o: f32):
    %r = math.exp %x : f32
    linalg.yield %r : f32
  } -> tensor<4x6x10xf32>
  %li = linalg.fill ins(%zero : f32) outs(%er : tensor<4x6xf32>) -> tensor<4x6xf32>
  %l = linalg.generic {indexing_maps = [#ru_id3, #ru_row], iterator_types = ["parallel", "parallel", "reduction"]} ins(%e : tensor<4x6x10xf32>) outs(%li : tensor<4x6xf32>) {
  ^bb0(%x: f32, %a: f32):
    %r = arith.addf %x, %a : f32
    linalg.yield %r : f32
  } -> tensor<4x6xf32>
  // expected-note @below {{the first op that blocks it: 'linalg.generic'}}
  %p = linalg.generic {indexing_maps = [#ru_id3, #ru_id3], iterator_types = ["parallel", "parallel", "parallel"]} ins(%e : tensor<4x6x10xf32>) outs(%es : tensor<4x6x10xf32>) {
  ^bb0(%x: f32, %o: f32):
    %c5 = arith.constant 0.5 : f32
    %r = arith.mulf %x, %c5 : f32
    linalg.yield %r : f32
  } -> tensor<4x6x10xf32>
  %eo = tensor.empty() : tensor<4x6x5xf32>
  %zo = linalg.fill ins(%zero : f32) outs(%eo : tensor<4x6x5xf32>) -> tensor<4x6x5xf32>
  %o = linalg.batch_matmul ins(%p, %v : tensor<4x6x10xf32>, tensor<4x10x5xf32>) outs(%zo : tensor<4x6x5xf32>) -> tensor<4x6x5xf32>
  return %o : tensor<4x6x5xf32>
}

// -----

// A linalg.softmax over rank-1 scores (one query of one head: q [D] against
// k [Lk, D]) reaching attn-fuse without attn-normalize-chains: the op needs
// a query dim (attn-fuse aborted here, growing a vector to size -1).
// CHECK-LABEL: func @rank1_softmax_op
// CHECK-NOT: attn.attention
func.func @rank1_softmax_op(%q: tensor<8xf32>, %k: tensor<10x8xf32>, %v: tensor<10x5xf32>) -> tensor<5xf32> {
  %zero = arith.constant 0.0 : f32
  %es = tensor.empty() : tensor<10xf32>
  %s0 = linalg.fill ins(%zero : f32) outs(%es : tensor<10xf32>) -> tensor<10xf32>
  %s = linalg.matvec ins(%k, %q : tensor<10x8xf32>, tensor<8xf32>) outs(%s0 : tensor<10xf32>) -> tensor<10xf32>
  // expected-remark @below {{attn-fuse: not fused: the scores have rank 1 (one query row with neither a batch nor a head dim); attn.attention needs [batch..., query, key] scores: give the query a batch or head dim of size 1}}
  // expected-note @below {{the first op that blocks it: 'linalg.softmax' (the softmax itself)}}
  %p = linalg.softmax dimension(0) ins(%s : tensor<10xf32>) outs(%es : tensor<10xf32>) -> tensor<10xf32>
  %eo = tensor.empty() : tensor<5xf32>
  %o0 = linalg.fill ins(%zero : f32) outs(%eo : tensor<5xf32>) -> tensor<5xf32>
  %o = linalg.vecmat ins(%p, %v : tensor<10xf32>, tensor<10x5xf32>) outs(%o0 : tensor<5xf32>) -> tensor<5xf32>
  return %o : tensor<5xf32>
}
