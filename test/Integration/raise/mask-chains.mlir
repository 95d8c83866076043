// Boolean masks applied one after the other
// (`s.masked_fill(a, -inf).masked_fill(b, -inf)`, or a causal band then a
// padding mask): select(a, select(b, s, -inf), -inf) is select(a and b, s,
// -inf), so two in a row are one exclusion mask of the op (they were not
// raised: only one select was taken between the other steps). Three mask
// tensors are more than the op's one mask operand takes: left, with the
// reason. attn-raise-check proves the raising.
// RUN: attention-opt %s --attn-raise-pipeline=explain -verify-diagnostics | FileCheck %s
// RUN: attn-raise-check %s --runs=2 --seed=3 | FileCheck %s --check-prefix=PROOF --implicit-check-not=FAIL

// CHECK-LABEL: func.func @two_masks
// CHECK: arith.xori
// CHECK: %[[M:.*]] = linalg.generic
// CHECK-NEXT: ^bb0
// CHECK-NEXT: arith.andi
// CHECK: attn.attention ins({{.*}}) mask(%[[M]] : tensor<2x1x16x24xi1>) {scale = 3.500000e-01 : f32}
// CHECK-NOT: arith.select
// PROOF: @two_masks: 1 attn.attention after the raising
// PROOF: run 1 result 0 {{.*}}: PASS
#qk = affine_map<(b, h, i, j, d) -> (b, h, i, d)>
#kk = affine_map<(b, h, i, j, d) -> (b, h, j, d)>
#sk = affine_map<(b, h, i, j, d) -> (b, h, i, j)>
#pv_p = affine_map<(b, h, i, d, j) -> (b, h, i, j)>
#pv_v = affine_map<(b, h, i, d, j) -> (b, h, j, d)>
#pv_o = affine_map<(b, h, i, d, j) -> (b, h, i, d)>
#id = affine_map<(b, h, i, j) -> (b, h, i, j)>
#m1 = affine_map<(b, h, i, j) -> (b, 0, i, j)>
#m2 = affine_map<(b, h, i, j) -> (0, 0, i, j)>
#m3 = affine_map<(b, h, i, j) -> (b, 0, 0, j)>
func.func @two_masks(%q: tensor<2x4x16x8xf32>, %k: tensor<2x4x24x8xf32>, %v: tensor<2x4x24x8xf32>, %a: tensor<2x1x16x24xi1>, %c: tensor<2x1x1x24xi1>) -> tensor<2x4x16x8xf32> {
  %zero = arith.constant 0.0 : f32
  %ninf = arith.constant 0xFF800000 : f32
  %sc = arith.constant 0.35 : f32
  %es = tensor.empty() : tensor<2x4x16x24xf32>
  %zs = linalg.fill ins(%zero : f32) outs(%es : tensor<2x4x16x24xf32>) -> tensor<2x4x16x24xf32>
  %s = linalg.generic {indexing_maps = [#qk, #kk, #sk], iterator_types = ["parallel", "parallel", "parallel", "parallel", "reduction"]} ins(%q, %k : tensor<2x4x16x8xf32>, tensor<2x4x24x8xf32>) outs(%zs : tensor<2x4x16x24xf32>) {
  ^bb0(%x: f32, %y: f32, %o: f32):
    %m = arith.mulf %x, %y : f32
    %r = arith.addf %o, %m : f32
    linalg.yield %r : f32
  } -> tensor<2x4x16x24xf32>
  %s1 = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%s : tensor<2x4x16x24xf32>) outs(%es : tensor<2x4x16x24xf32>) {
  ^bb0(%x: f32, %o: f32):
    %r = arith.mulf %x, %sc : f32
    linalg.yield %r : f32
  } -> tensor<2x4x16x24xf32>
  %s2 = linalg.generic {indexing_maps = [#m1, #id, #id], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%a, %s1 : tensor<2x1x16x24xi1>, tensor<2x4x16x24xf32>) outs(%es : tensor<2x4x16x24xf32>) {
  ^bb0(%m: i1, %x: f32, %o: f32):
    %r = arith.select %m, %ninf, %x : f32
    linalg.yield %r : f32
  } -> tensor<2x4x16x24xf32>
  %s4 = linalg.generic {indexing_maps = [#m3, #id, #id], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%c, %s2 : tensor<2x1x1x24xi1>, tensor<2x4x16x24xf32>) outs(%es : tensor<2x4x16x24xf32>) {
  ^bb0(%m: i1, %x: f32, %o: f32):
    %r = arith.select %m, %x, %ninf : f32
    linalg.yield %r : f32
  } -> tensor<2x4x16x24xf32>
  %p = linalg.softmax dimension(3) ins(%s4 : tensor<2x4x16x24xf32>) outs(%es : tensor<2x4x16x24xf32>) -> tensor<2x4x16x24xf32>
  %eo = tensor.empty() : tensor<2x4x16x8xf32>
  %zo = linalg.fill ins(%zero : f32) outs(%eo : tensor<2x4x16x8xf32>) -> tensor<2x4x16x8xf32>
  %o = linalg.generic {indexing_maps = [#pv_p, #pv_v, #pv_o], iterator_types = ["parallel", "parallel", "parallel", "parallel", "reduction"]} ins(%p, %v : tensor<2x4x16x24xf32>, tensor<2x4x24x8xf32>) outs(%zo : tensor<2x4x16x8xf32>) {
  ^bb0(%x: f32, %y: f32, %acc: f32):
    %m = arith.mulf %x, %y : f32
    %r = arith.addf %acc, %m : f32
    linalg.yield %r : f32
  } -> tensor<2x4x16x8xf32>
  return %o : tensor<2x4x16x8xf32>
}

// CHECK-LABEL: func.func @three_masks
// CHECK-NOT: attn.attention
// PROOF: @three_masks: 0 attn.attention after the raising (nothing raised)
// PROOF: run 1 result 0 {{.*}}: PASS
func.func @three_masks(%q: tensor<2x4x16x8xf32>, %k: tensor<2x4x24x8xf32>, %v: tensor<2x4x24x8xf32>, %a: tensor<2x1x16x24xi1>, %b: tensor<1x1x16x24xi1>, %c: tensor<2x1x1x24xi1>) -> tensor<2x4x16x8xf32> {
  %zero = arith.constant 0.0 : f32
  %ninf = arith.constant 0xFF800000 : f32
  %sc = arith.constant 0.35 : f32
  %es = tensor.empty() : tensor<2x4x16x24xf32>
  %zs = linalg.fill ins(%zero : f32) outs(%es : tensor<2x4x16x24xf32>) -> tensor<2x4x16x24xf32>
  %s = linalg.generic {indexing_maps = [#qk, #kk, #sk], iterator_types = ["parallel", "parallel", "parallel", "parallel", "reduction"]} ins(%q, %k : tensor<2x4x16x8xf32>, tensor<2x4x24x8xf32>) outs(%zs : tensor<2x4x16x24xf32>) {
  ^bb0(%x: f32, %y: f32, %o: f32):
    %m = arith.mulf %x, %y : f32
    %r = arith.addf %o, %m : f32
    linalg.yield %r : f32
  } -> tensor<2x4x16x24xf32>
  %s1 = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%s : tensor<2x4x16x24xf32>) outs(%es : tensor<2x4x16x24xf32>) {
  ^bb0(%x: f32, %o: f32):
    %r = arith.mulf %x, %sc : f32
    linalg.yield %r : f32
  } -> tensor<2x4x16x24xf32>
  // expected-note @below {{the first op that blocks it: 'linalg.generic'}}
  %s2 = linalg.generic {indexing_maps = [#m1, #id, #id], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%a, %s1 : tensor<2x1x16x24xi1>, tensor<2x4x16x24xf32>) outs(%es : tensor<2x4x16x24xf32>) {
  ^bb0(%m: i1, %x: f32, %o: f32):
    %r = arith.select %m, %ninf, %x : f32
    linalg.yield %r : f32
  } -> tensor<2x4x16x24xf32>
  %s3 = linalg.generic {indexing_maps = [#m2, #id, #id], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%b, %s2 : tensor<1x1x16x24xi1>, tensor<2x4x16x24xf32>) outs(%es : tensor<2x4x16x24xf32>) {
  ^bb0(%m: i1, %x: f32, %o: f32):
    %r = arith.select %m, %ninf, %x : f32
    linalg.yield %r : f32
  } -> tensor<2x4x16x24xf32>
  %s4 = linalg.generic {indexing_maps = [#m3, #id, #id], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%c, %s3 : tensor<2x1x1x24xi1>, tensor<2x4x16x24xf32>) outs(%es : tensor<2x4x16x24xf32>) {
  ^bb0(%m: i1, %x: f32, %o: f32):
    %r = arith.select %m, %x, %ninf : f32
    linalg.yield %r : f32
  } -> tensor<2x4x16x24xf32>
  // expected-remark @below {{attn-fuse: not fused: three mask tensors (the op has one mask operand, into which two are combined)}}
  %p = linalg.softmax dimension(3) ins(%s4 : tensor<2x4x16x24xf32>) outs(%es : tensor<2x4x16x24xf32>) -> tensor<2x4x16x24xf32>
  %eo = tensor.empty() : tensor<2x4x16x8xf32>
  %zo = linalg.fill ins(%zero : f32) outs(%eo : tensor<2x4x16x8xf32>) -> tensor<2x4x16x8xf32>
  %o = linalg.generic {indexing_maps = [#pv_p, #pv_v, #pv_o], iterator_types = ["parallel", "parallel", "parallel", "parallel", "reduction"]} ins(%p, %v : tensor<2x4x16x24xf32>, tensor<2x4x24x8xf32>) outs(%zo : tensor<2x4x16x8xf32>) {
  ^bb0(%x: f32, %y: f32, %acc: f32):
    %m = arith.mulf %x, %y : f32
    %r = arith.addf %acc, %m : f32
    linalg.yield %r : f32
  } -> tensor<2x4x16x8xf32>
  return %o : tensor<2x4x16x8xf32>
}
