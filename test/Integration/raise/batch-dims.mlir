// Raising chains with more than two batch dims (issue 24): the leading ones
// are merged into the op's batch dim (tensor.collapse_shape of Q, K, V and
// the masks that have them) and the result is expanded back; a mask that has
// none of them is broadcast over the merged dim, one with some of them over
// the rest first; with grouped-query heads the KV-head and group dims stay
// the op's query-head dim. attn-raise-check proves the
// raised functions equal to the chains in float64; attn-compile takes them.
// RUN: attention-opt %s --attn-raise-pipeline | FileCheck %s
// RUN: attn-raise-check %s --require-raised --runs=2 --seed=11 | FileCheck %s --check-prefix=PROOF --implicit-check-not=FAIL
// RUN: attention-opt %s --attn-fuse | FileCheck %s --check-prefix=FUSE
// RUN: attention-opt %s --attn-raise-pipeline | attn-compile - --chip=sm_90a -o %t.ptx 2>&1 | FileCheck %s --check-prefix=COMPILE
// COMPILE: attn-compile: wrote

// Scores [A, B, H, Lq, Lk] with a keep mask over [A, B, 1, 1, Lk]: A and B
// merged, the mask too.
// CHECK-LABEL: func.func @five_d
// CHECK: tensor.collapse_shape %{{.*}} {{\[}}[0, 1], [2], [3], [4]] : tensor<2x3x2x16x8xf32> into tensor<6x2x16x8xf32>
// CHECK: tensor.collapse_shape %{{.*}} {{\[}}[0, 1], [2], [3], [4]] : tensor<2x3x1x1x12xi1> into tensor<6x1x1x12xi1>
// CHECK: attn.attention ins({{.*}} : tensor<6x2x16x8xf32>, tensor<6x2x12x8xf32>, tensor<6x2x12x8xf32>) mask({{.*}} : tensor<6x1x1x12xi1>) {scale = 3.500000e-01 : f32}
// CHECK: tensor.expand_shape %{{.*}} {{\[}}[0, 1], [2], [3], [4]] output_shape [2, 3, 2, 16, 8]
// CHECK-NOT: linalg.generic
// PROOF: @five_d: 1 attn.attention after the raising
// PROOF: run 1 result 0 {{.*}}: PASS
#q5 = affine_map<(a, b, h, i, j, d) -> (a, b, h, i, d)>
#k5 = affine_map<(a, b, h, i, j, d) -> (a, b, h, j, d)>
#s5 = affine_map<(a, b, h, i, j, d) -> (a, b, h, i, j)>
#p5 = affine_map<(a, b, h, i, d, j) -> (a, b, h, i, j)>
#v5 = affine_map<(a, b, h, i, d, j) -> (a, b, h, j, d)>
#o5 = affine_map<(a, b, h, i, d, j) -> (a, b, h, i, d)>
#id5 = affine_map<(a, b, h, i, j) -> (a, b, h, i, j)>
#m5 = affine_map<(a, b, h, i, j) -> (a, b, 0, 0, j)>
func.func @five_d(%q: tensor<2x3x2x16x8xf32>, %k: tensor<2x3x2x12x8xf32>, %v: tensor<2x3x2x12x8xf32>, %keep: tensor<2x3x1x1x12xi1>) -> tensor<2x3x2x16x8xf32> {
  %zero = arith.constant 0.0 : f32
  %ninf = arith.constant 0xFF800000 : f32
  %c = arith.constant 0.35 : f32
  %es = tensor.empty() : tensor<2x3x2x16x12xf32>
  %zs = linalg.fill ins(%zero : f32) outs(%es : tensor<2x3x2x16x12xf32>) -> tensor<2x3x2x16x12xf32>
  %s = linalg.generic {indexing_maps = [#q5, #k5, #s5], iterator_types = ["parallel", "parallel", "parallel", "parallel", "parallel", "reduction"]} ins(%q, %k : tensor<2x3x2x16x8xf32>, tensor<2x3x2x12x8xf32>) outs(%zs : tensor<2x3x2x16x12xf32>) {
  ^bb0(%a: f32, %b: f32, %acc: f32):
    %m = arith.mulf %a, %b : f32
    %r = arith.addf %acc, %m : f32
    linalg.yield %r : f32
  } -> tensor<2x3x2x16x12xf32>
  %ms = linalg.generic {indexing_maps = [#id5, #m5, #id5], iterator_types = ["parallel", "parallel", "parallel", "parallel", "parallel"]} ins(%s, %keep : tensor<2x3x2x16x12xf32>, tensor<2x3x1x1x12xi1>) outs(%es : tensor<2x3x2x16x12xf32>) {
  ^bb0(%x: f32, %kp: i1, %o: f32):
    %y = arith.mulf %x, %c : f32
    %z = arith.select %kp, %y, %ninf : f32
    linalg.yield %z : f32
  } -> tensor<2x3x2x16x12xf32>
  %p = linalg.softmax dimension(4) ins(%ms : tensor<2x3x2x16x12xf32>) outs(%es : tensor<2x3x2x16x12xf32>) -> tensor<2x3x2x16x12xf32>
  %eo = tensor.empty() : tensor<2x3x2x16x8xf32>
  %zo = linalg.fill ins(%zero : f32) outs(%eo : tensor<2x3x2x16x8xf32>) -> tensor<2x3x2x16x8xf32>
  %o = linalg.generic {indexing_maps = [#p5, #v5, #o5], iterator_types = ["parallel", "parallel", "parallel", "parallel", "parallel", "reduction"]} ins(%p, %v : tensor<2x3x2x16x12xf32>, tensor<2x3x2x12x8xf32>) outs(%zo : tensor<2x3x2x16x8xf32>) {
  ^bb0(%a: f32, %b: f32, %acc: f32):
    %m = arith.mulf %a, %b : f32
    %r = arith.addf %acc, %m : f32
    linalg.yield %r : f32
  } -> tensor<2x3x2x16x8xf32>
  return %o : tensor<2x3x2x16x8xf32>
}

// Scores of rank 6 with a bias over (Lq, Lk) only: three dims merged, the
// bias broadcast.
// CHECK-LABEL: func.func @six_d_bias
// CHECK: tensor.collapse_shape %{{.*}} {{\[}}[0, 1, 2], [3], [4], [5]] : tensor<2x2x3x2x10x16xf32> into tensor<12x2x10x16xf32>
// CHECK: tensor.expand_shape %{{.*}} {{\[}}[0, 1, 2], [3]] output_shape [1, 1, 10, 9] : tensor<10x9xf32> into tensor<1x1x10x9xf32>
// CHECK: attn.attention ins({{.*}} : tensor<12x2x10x16xf32>, tensor<12x2x9x16xf32>, tensor<12x2x9x8xf32>) mask({{.*}} : tensor<1x1x10x9xf32>) {scale = 2.500000e-01 : f32}
// CHECK: tensor.expand_shape %{{.*}} {{\[}}[0, 1, 2], [3], [4], [5]] output_shape [2, 2, 3, 2, 10, 8]
// PROOF: @six_d_bias: 1 attn.attention after the raising
// PROOF: run 1 result 0 {{.*}}: PASS

#q6 = affine_map<(a, b, c, h, i, j, d) -> (a, b, c, h, i, d)>
#k6 = affine_map<(a, b, c, h, i, j, d) -> (a, b, c, h, j, d)>
#s6 = affine_map<(a, b, c, h, i, j, d) -> (a, b, c, h, i, j)>
#p6 = affine_map<(a, b, c, h, i, d, j) -> (a, b, c, h, i, j)>
#v6 = affine_map<(a, b, c, h, i, d, j) -> (a, b, c, h, j, d)>
#o6 = affine_map<(a, b, c, h, i, d, j) -> (a, b, c, h, i, d)>
#id6 = affine_map<(a, b, c, h, i, j) -> (a, b, c, h, i, j)>
#b6 = affine_map<(a, b, c, h, i, j) -> (i, j)>
func.func @six_d_bias(%q: tensor<2x2x3x2x10x16xf32>, %k: tensor<2x2x3x2x9x16xf32>, %v: tensor<2x2x3x2x9x8xf32>, %bias: tensor<10x9xf32>) -> tensor<2x2x3x2x10x8xf32> {
  %zero = arith.constant 0.0 : f32
  %c = arith.constant 0.25 : f32
  %es = tensor.empty() : tensor<2x2x3x2x10x9xf32>
  %zs = linalg.fill ins(%zero : f32) outs(%es : tensor<2x2x3x2x10x9xf32>) -> tensor<2x2x3x2x10x9xf32>
  %s = linalg.generic {indexing_maps = [#q6, #k6, #s6], iterator_types = ["parallel", "parallel", "parallel", "parallel", "parallel", "parallel", "reduction"]} ins(%q, %k : tensor<2x2x3x2x10x16xf32>, tensor<2x2x3x2x9x16xf32>) outs(%zs : tensor<2x2x3x2x10x9xf32>) {
  ^bb0(%a: f32, %b: f32, %acc: f32):
    %m = arith.mulf %a, %b : f32
    %r = arith.addf %acc, %m : f32
    linalg.yield %r : f32
  } -> tensor<2x2x3x2x10x9xf32>
  %sb = linalg.generic {indexing_maps = [#id6, #b6, #id6], iterator_types = ["parallel", "parallel", "parallel", "parallel", "parallel", "parallel"]} ins(%s, %bias : tensor<2x2x3x2x10x9xf32>, tensor<10x9xf32>) outs(%es : tensor<2x2x3x2x10x9xf32>) {
  ^bb0(%x: f32, %y: f32, %o: f32):
    %t = arith.mulf %x, %c : f32
    %u = arith.addf %t, %y : f32
    linalg.yield %u : f32
  } -> tensor<2x2x3x2x10x9xf32>
  %p = linalg.softmax dimension(5) ins(%sb : tensor<2x2x3x2x10x9xf32>) outs(%es : tensor<2x2x3x2x10x9xf32>) -> tensor<2x2x3x2x10x9xf32>
  %eo = tensor.empty() : tensor<2x2x3x2x10x8xf32>
  %zo = linalg.fill ins(%zero : f32) outs(%eo : tensor<2x2x3x2x10x8xf32>) -> tensor<2x2x3x2x10x8xf32>
  %o = linalg.generic {indexing_maps = [#p6, #v6, #o6], iterator_types = ["parallel", "parallel", "parallel", "parallel", "parallel", "parallel", "reduction"]} ins(%p, %v : tensor<2x2x3x2x10x9xf32>, tensor<2x2x3x2x9x8xf32>) outs(%zo : tensor<2x2x3x2x10x8xf32>) {
  ^bb0(%a: f32, %b: f32, %acc: f32):
    %m = arith.mulf %a, %b : f32
    %r = arith.addf %acc, %m : f32
    linalg.yield %r : f32
  } -> tensor<2x2x3x2x10x8xf32>
  return %o : tensor<2x2x3x2x10x8xf32>
}

// A dynamic leading dim: the merged size and the expanded output shape are
// computed at run time (attn-raise-check runs only static functions).
// CHECK-LABEL: func.func @five_d_dynamic
// CHECK: tensor.collapse_shape %{{.*}} {{\[}}[0, 1], [2], [3], [4]] : tensor<?x3x2x16x8xf32> into tensor<?x2x16x8xf32>
// CHECK: attn.attention ins({{.*}} : tensor<?x2x16x8xf32>, tensor<?x2x12x8xf32>, tensor<?x2x12x8xf32>) mask({{.*}} : tensor<?x1x1x12xi1>)
// CHECK: tensor.expand_shape %{{.*}} {{\[}}[0, 1], [2], [3], [4]] output_shape [%{{.*}}, 3, 2, 16, 8] : tensor<?x2x16x8xf32> into tensor<?x3x2x16x8xf32>
func.func @five_d_dynamic(%q: tensor<?x3x2x16x8xf32>, %k: tensor<?x3x2x12x8xf32>, %v: tensor<?x3x2x12x8xf32>, %keep: tensor<?x3x1x1x12xi1>) -> tensor<?x3x2x16x8xf32> {
  %zero = arith.constant 0.0 : f32
  %ninf = arith.constant 0xFF800000 : f32
  %c = arith.constant 0.35 : f32
  %c0 = arith.constant 0 : index
  %n = tensor.dim %q, %c0 : tensor<?x3x2x16x8xf32>
  %es = tensor.empty(%n) : tensor<?x3x2x16x12xf32>
  %zs = linalg.fill ins(%zero : f32) outs(%es : tensor<?x3x2x16x12xf32>) -> tensor<?x3x2x16x12xf32>
  %s = linalg.generic {indexing_maps = [#q5, #k5, #s5], iterator_types = ["parallel", "parallel", "parallel", "parallel", "parallel", "reduction"]} ins(%q, %k : tensor<?x3x2x16x8xf32>, tensor<?x3x2x12x8xf32>) outs(%zs : tensor<?x3x2x16x12xf32>) {
  ^bb0(%a: f32, %b: f32, %acc: f32):
    %m = arith.mulf %a, %b : f32
    %r = arith.addf %acc, %m : f32
    linalg.yield %r : f32
  } -> tensor<?x3x2x16x12xf32>
  %ms = linalg.generic {indexing_maps = [#id5, #m5, #id5], iterator_types = ["parallel", "parallel", "parallel", "parallel", "parallel"]} ins(%s, %keep : tensor<?x3x2x16x12xf32>, tensor<?x3x1x1x12xi1>) outs(%es : tensor<?x3x2x16x12xf32>) {
  ^bb0(%x: f32, %kp: i1, %o: f32):
    %y = arith.mulf %x, %c : f32
    %z = arith.select %kp, %y, %ninf : f32
    linalg.yield %z : f32
  } -> tensor<?x3x2x16x12xf32>
  %p = linalg.softmax dimension(4) ins(%ms : tensor<?x3x2x16x12xf32>) outs(%es : tensor<?x3x2x16x12xf32>) -> tensor<?x3x2x16x12xf32>
  %eo = tensor.empty(%n) : tensor<?x3x2x16x8xf32>
  %zo = linalg.fill ins(%zero : f32) outs(%eo : tensor<?x3x2x16x8xf32>) -> tensor<?x3x2x16x8xf32>
  %o = linalg.generic {indexing_maps = [#p5, #v5, #o5], iterator_types = ["parallel", "parallel", "parallel", "parallel", "parallel", "reduction"]} ins(%p, %v : tensor<?x3x2x16x12xf32>, tensor<?x3x2x12x8xf32>) outs(%zo : tensor<?x3x2x16x8xf32>) {
  ^bb0(%a: f32, %b: f32, %acc: f32):
    %m = arith.mulf %a, %b : f32
    %r = arith.addf %acc, %m : f32
    linalg.yield %r : f32
  } -> tensor<?x3x2x16x8xf32>
  return %o : tensor<?x3x2x16x8xf32>
}


// A keep mask over A but not B (of the two dims merged into the op's batch
// dim): broadcast over B first (a merged dim cannot be broadcast in part).
// CHECK-LABEL: func.func @five_d_partial_mask
// CHECK: linalg.generic {{.*}} ins(%{{.*}} : tensor<2x12xi1>) outs(%{{.*}} : tensor<2x3x12xi1>)
// CHECK: tensor.collapse_shape %{{.*}} {{\[}}[0, 1], [2]] : tensor<2x3x12xi1> into tensor<6x12xi1>
// CHECK: attn.attention ins({{.*}} : tensor<6x2x16x8xf32>, tensor<6x2x12x8xf32>, tensor<6x2x12x8xf32>) mask({{.*}} : tensor<6x1x1x12xi1>)
// PROOF: @five_d_partial_mask: 1 attn.attention after the raising
// PROOF: run 1 result 0 {{.*}}: PASS
#q5p = affine_map<(a, b, h, i, j, d) -> (a, b, h, i, d)>
#k5p = affine_map<(a, b, h, i, j, d) -> (a, b, h, j, d)>
#s5p = affine_map<(a, b, h, i, j, d) -> (a, b, h, i, j)>
#p5p = affine_map<(a, b, h, i, d, j) -> (a, b, h, i, j)>
#v5p = affine_map<(a, b, h, i, d, j) -> (a, b, h, j, d)>
#o5p = affine_map<(a, b, h, i, d, j) -> (a, b, h, i, d)>
#id5p = affine_map<(a, b, h, i, j) -> (a, b, h, i, j)>
#m5p = affine_map<(a, b, h, i, j) -> (a, 0, 0, 0, j)>
func.func @five_d_partial_mask(%q: tensor<2x3x2x16x8xf32>, %k: tensor<2x3x2x12x8xf32>, %v: tensor<2x3x2x12x8xf32>, %keep: tensor<2x1x1x1x12xi1>) -> tensor<2x3x2x16x8xf32> {
  %zero = arith.constant 0.0 : f32
  %ninf = arith.constant 0xFF800000 : f32
  %c = arith.constant 0.35 : f32
  %es = tensor.empty() : tensor<2x3x2x16x12xf32>
  %zs = linalg.fill ins(%zero : f32) outs(%es : tensor<2x3x2x16x12xf32>) -> tensor<2x3x2x16x12xf32>
  %s = linalg.generic {indexing_maps = [#q5p, #k5p, #s5p], iterator_types = ["parallel", "parallel", "parallel", "parallel", "parallel", "reduction"]} ins(%q, %k : tensor<2x3x2x16x8xf32>, tensor<2x3x2x12x8xf32>) outs(%zs : tensor<2x3x2x16x12xf32>) {
  ^bb0(%a: f32, %b: f32, %acc: f32):
    %m = arith.mulf %a, %b : f32
    %r = arith.addf %acc, %m : f32
    linalg.yield %r : f32
  } -> tensor<2x3x2x16x12xf32>
  %ms = linalg.generic {indexing_maps = [#id5p, #m5p, #id5p], iterator_types = ["parallel", "parallel", "parallel", "parallel", "parallel"]} ins(%s, %keep : tensor<2x3x2x16x12xf32>, tensor<2x1x1x1x12xi1>) outs(%es : tensor<2x3x2x16x12xf32>) {
  ^bb0(%x: f32, %kp: i1, %o: f32):
    %y = arith.mulf %x, %c : f32
    %z = arith.select %kp, %y, %ninf : f32
    linalg.yield %z : f32
  } -> tensor<2x3x2x16x12xf32>
  %p = linalg.softmax dimension(4) ins(%ms : tensor<2x3x2x16x12xf32>) outs(%es : tensor<2x3x2x16x12xf32>) -> tensor<2x3x2x16x12xf32>
  %eo = tensor.empty() : tensor<2x3x2x16x8xf32>
  %zo = linalg.fill ins(%zero : f32) outs(%eo : tensor<2x3x2x16x8xf32>) -> tensor<2x3x2x16x8xf32>
  %o = linalg.generic {indexing_maps = [#p5p, #v5p, #o5p], iterator_types = ["parallel", "parallel", "parallel", "parallel", "parallel", "reduction"]} ins(%p, %v : tensor<2x3x2x16x12xf32>, tensor<2x3x2x12x8xf32>) outs(%zo : tensor<2x3x2x16x8xf32>) {
  ^bb0(%a: f32, %b: f32, %acc: f32):
    %m = arith.mulf %a, %b : f32
    %r = arith.addf %acc, %m : f32
    linalg.yield %r : f32
  } -> tensor<2x3x2x16x8xf32>
  return %o : tensor<2x3x2x16x8xf32>
}

// Grouped-query heads with more than two batch dims: scores [A, B, Hkv, G,
// Lq, Lk], K and V [A, B, Hkv, Lk, D] broadcast over G, a bias over (A, Lq,
// Lk). K and V are read through maps without G (no broadcast op). A and B
// merge into the op's batch dim, Hkv and G into its query-head dim (GQA with
// 2 KV heads), the bias is broadcast over B.
// CHECK-LABEL: func.func @gqa_six_d
// CHECK: tensor.collapse_shape %{{.*}} {{\[}}[0, 1], [2, 3], [4], [5]] : tensor<2x2x2x2x10x8xf32> into tensor<4x4x10x8xf32>
// CHECK: attn.attention ins({{.*}} : tensor<4x4x10x8xf32>, tensor<4x2x9x8xf32>, tensor<4x2x9x8xf32>) mask({{.*}} : tensor<4x1x10x9xf32>) {scale = 5.000000e-01 : f32}
// CHECK: tensor.expand_shape %{{.*}} {{\[}}[0, 1], [2, 3], [4], [5]] output_shape [2, 2, 2, 2, 10, 8]
// PROOF: @gqa_six_d: 1 attn.attention after the raising
// PROOF: run 1 result 0 {{.*}}: PASS
#qg = affine_map<(a, b, h, g, i, j, d) -> (a, b, h, g, i, d)>
#kg = affine_map<(a, b, h, g, i, j, d) -> (a, b, h, j, d)>
#sg = affine_map<(a, b, h, g, i, j, d) -> (a, b, h, g, i, j)>
#pg = affine_map<(a, b, h, g, i, e, j) -> (a, b, h, g, i, j)>
#vg = affine_map<(a, b, h, g, i, e, j) -> (a, b, h, j, e)>
#og = affine_map<(a, b, h, g, i, e, j) -> (a, b, h, g, i, e)>
#idg = affine_map<(a, b, h, g, i, j) -> (a, b, h, g, i, j)>
#bg = affine_map<(a, b, h, g, i, j) -> (a, i, j)>
func.func @gqa_six_d(%q: tensor<2x2x2x2x10x8xf32>, %k: tensor<2x2x2x9x8xf32>, %v: tensor<2x2x2x9x8xf32>, %bias: tensor<2x10x9xf32>) -> tensor<2x2x2x2x10x8xf32> {
  %zero = arith.constant 0.0 : f32
  %c = arith.constant 0.5 : f32
  %es = tensor.empty() : tensor<2x2x2x2x10x9xf32>
  %zs = linalg.fill ins(%zero : f32) outs(%es : tensor<2x2x2x2x10x9xf32>) -> tensor<2x2x2x2x10x9xf32>
  %s = linalg.generic {indexing_maps = [#qg, #kg, #sg], iterator_types = ["parallel", "parallel", "parallel", "parallel", "parallel", "parallel", "reduction"]} ins(%q, %k : tensor<2x2x2x2x10x8xf32>, tensor<2x2x2x9x8xf32>) outs(%zs : tensor<2x2x2x2x10x9xf32>) {
  ^bb0(%a: f32, %b: f32, %acc: f32):
    %m = arith.mulf %a, %b : f32
    %r = arith.addf %acc, %m : f32
    linalg.yield %r : f32
  } -> tensor<2x2x2x2x10x9xf32>
  %sb = linalg.generic {indexing_maps = [#idg, #bg, #idg], iterator_types = ["parallel", "parallel", "parallel", "parallel", "parallel", "parallel"]} ins(%s, %bias : tensor<2x2x2x2x10x9xf32>, tensor<2x10x9xf32>) outs(%es : tensor<2x2x2x2x10x9xf32>) {
  ^bb0(%x: f32, %y: f32, %o: f32):
    %t = arith.mulf %x, %c : f32
    %u = arith.addf %t, %y : f32
    linalg.yield %u : f32
  } -> tensor<2x2x2x2x10x9xf32>
  %p = linalg.softmax dimension(5) ins(%sb : tensor<2x2x2x2x10x9xf32>) outs(%es : tensor<2x2x2x2x10x9xf32>) -> tensor<2x2x2x2x10x9xf32>
  %eo = tensor.empty() : tensor<2x2x2x2x10x8xf32>
  %zo = linalg.fill ins(%zero : f32) outs(%eo : tensor<2x2x2x2x10x8xf32>) -> tensor<2x2x2x2x10x8xf32>
  %o = linalg.generic {indexing_maps = [#pg, #vg, #og], iterator_types = ["parallel", "parallel", "parallel", "parallel", "parallel", "parallel", "reduction"]} ins(%p, %v : tensor<2x2x2x2x10x9xf32>, tensor<2x2x2x9x8xf32>) outs(%zo : tensor<2x2x2x2x10x8xf32>) {
  ^bb0(%a: f32, %b: f32, %acc: f32):
    %m = arith.mulf %a, %b : f32
    %r = arith.addf %acc, %m : f32
    linalg.yield %r : f32
  } -> tensor<2x2x2x2x10x8xf32>
  return %o : tensor<2x2x2x2x10x8xf32>
}

// A keep mask [A, 1, H, 1, Lk] read with a constant index on B (size 1 in
// the mask, 3 in the scores), raised by attn-fuse alone: broadcast over B
// before A and B merge. (Before, the mask was collapsed to A alone, which
// the op's verifier refused.)
// FUSE-LABEL: func.func @five_d_unit_mask
// FUSE: linalg.generic {{.*}} ins(%{{.*}} : tensor<2x1x2x1x12xi1>) outs(%{{.*}} : tensor<2x3x2x1x12xi1>)
// FUSE: attn.attention ins({{.*}} : tensor<6x2x16x8xf32>, tensor<6x2x12x8xf32>, tensor<6x2x12x8xf32>) mask({{.*}} : tensor<6x2x1x12xi1>)
// CHECK-LABEL: func.func @five_d_unit_mask
// CHECK: attn.attention
// PROOF: @five_d_unit_mask: 1 attn.attention after the raising
// PROOF: run 1 result 0 {{.*}}: PASS
#q5u = affine_map<(a, b, h, i, j, d) -> (a, b, h, i, d)>
#k5u = affine_map<(a, b, h, i, j, d) -> (a, b, h, j, d)>
#s5u = affine_map<(a, b, h, i, j, d) -> (a, b, h, i, j)>
#p5u = affine_map<(a, b, h, i, d, j) -> (a, b, h, i, j)>
#v5u = affine_map<(a, b, h, i, d, j) -> (a, b, h, j, d)>
#o5u = affine_map<(a, b, h, i, d, j) -> (a, b, h, i, d)>
#id5u = affine_map<(a, b, h, i, j) -> (a, b, h, i, j)>
#m5u = affine_map<(a, b, h, i, j) -> (a, 0, h, 0, j)>
func.func @five_d_unit_mask(%q: tensor<2x3x2x16x8xf32>, %k: tensor<2x3x2x12x8xf32>, %v: tensor<2x3x2x12x8xf32>, %keep: tensor<2x1x2x1x12xi1>) -> tensor<2x3x2x16x8xf32> {
  %zero = arith.constant 0.0 : f32
  %ninf = arith.constant 0xFF800000 : f32
  %c = arith.constant 0.35 : f32
  %es = tensor.empty() : tensor<2x3x2x16x12xf32>
  %zs = linalg.fill ins(%zero : f32) outs(%es : tensor<2x3x2x16x12xf32>) -> tensor<2x3x2x16x12xf32>
  %s = linalg.generic {indexing_maps = [#q5u, #k5u, #s5u], iterator_types = ["parallel", "parallel", "parallel", "parallel", "parallel", "reduction"]} ins(%q, %k : tensor<2x3x2x16x8xf32>, tensor<2x3x2x12x8xf32>) outs(%zs : tensor<2x3x2x16x12xf32>) {
  ^bb0(%a: f32, %b: f32, %acc: f32):
    %m = arith.mulf %a, %b : f32
    %r = arith.addf %acc, %m : f32
    linalg.yield %r : f32
  } -> tensor<2x3x2x16x12xf32>
  %ms = linalg.generic {indexing_maps = [#id5u, #m5u, #id5u], iterator_types = ["parallel", "parallel", "parallel", "parallel", "parallel"]} ins(%s, %keep : tensor<2x3x2x16x12xf32>, tensor<2x1x2x1x12xi1>) outs(%es : tensor<2x3x2x16x12xf32>) {
  ^bb0(%x: f32, %kp: i1, %o: f32):
    %z = arith.select %kp, %x, %ninf : f32
    linalg.yield %z : f32
  } -> tensor<2x3x2x16x12xf32>
  %p = linalg.softmax dimension(4) ins(%ms : tensor<2x3x2x16x12xf32>) outs(%es : tensor<2x3x2x16x12xf32>) -> tensor<2x3x2x16x12xf32>
  %eo = tensor.empty() : tensor<2x3x2x16x8xf32>
  %zo = linalg.fill ins(%zero : f32) outs(%eo : tensor<2x3x2x16x8xf32>) -> tensor<2x3x2x16x8xf32>
  %o = linalg.generic {indexing_maps = [#p5u, #v5u, #o5u], iterator_types = ["parallel", "parallel", "parallel", "parallel", "parallel", "reduction"]} ins(%p, %v : tensor<2x3x2x16x12xf32>, tensor<2x3x2x12x8xf32>) outs(%zo : tensor<2x3x2x16x8xf32>) {
  ^bb0(%a: f32, %b: f32, %acc: f32):
    %m = arith.mulf %a, %b : f32
    %r = arith.addf %acc, %m : f32
    linalg.yield %r : f32
  } -> tensor<2x3x2x16x8xf32>
  return %o : tensor<2x3x2x16x8xf32>
}
