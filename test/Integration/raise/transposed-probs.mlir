// P transposed for P·V: a channels-first product V·Pᵀ (OpenAI's
// QKVAttention, `einsum('bts,bcs->bct', w, v)`) reads P through a
// transpose copy; the op gets V and its result is transposed back. A
// transposed P contracted over the query dim (Pᵀ·V) is no attention and
// is left. attn-raise-check proves the raising.
// RUN: attention-opt %s --attn-raise-pipeline=explain -verify-diagnostics | FileCheck %s
// RUN: attn-raise-check %s --runs=2 --seed=9 | FileCheck %s --check-prefix=PROOF --implicit-check-not=FAIL
#q = affine_map<(b, i, j, d) -> (b, i, d)>
#k = affine_map<(b, i, j, d) -> (b, j, d)>
#s = affine_map<(b, i, j, d) -> (b, i, j)>
#id = affine_map<(b, x, y) -> (b, x, y)>
#t = affine_map<(b, x, y) -> (b, y, x)>
// V [B, C, Lk] times Pᵀ [B, Lk, Lq]: O [B, C, Lq].
#vc = affine_map<(b, c, i, j) -> (b, c, j)>
#pt = affine_map<(b, c, i, j) -> (b, j, i)>
#oc = affine_map<(b, c, i, j) -> (b, c, i)>

// CHECK-LABEL: func.func @v_times_pt
// CHECK: attn.attention ins({{.*}}) {scale = 3.500000e-01 : f32} -> tensor<1x4x16x8xf32>
// CHECK-NOT: linalg.softmax
// PROOF: @v_times_pt: 1 attn.attention after the raising
// PROOF: run 1 result 0 {{.*}}: PASS
func.func @v_times_pt(%q: tensor<4x16x8xf32>, %k: tensor<4x24x8xf32>, %v: tensor<4x8x24xf32>) -> tensor<4x8x16xf32> {
  %zero = arith.constant 0.0 : f32
  %c = arith.constant 0.35 : f32
  %es = tensor.empty() : tensor<4x16x24xf32>
  %zs = linalg.fill ins(%zero : f32) outs(%es : tensor<4x16x24xf32>) -> tensor<4x16x24xf32>
  %s = linalg.generic {indexing_maps = [#q, #k, #s], iterator_types = ["parallel", "parallel", "parallel", "reduction"]} ins(%q, %k : tensor<4x16x8xf32>, tensor<4x24x8xf32>) outs(%zs : tensor<4x16x24xf32>) {
  ^bb0(%x: f32, %y: f32, %o: f32):
    %m = arith.mulf %x, %y : f32
    %a = arith.addf %o, %m : f32
    linalg.yield %a : f32
  } -> tensor<4x16x24xf32>
  %ss = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel", "parallel"]} ins(%s : tensor<4x16x24xf32>) outs(%es : tensor<4x16x24xf32>) {
  ^bb0(%x: f32, %o: f32):
    %m = arith.mulf %x, %c : f32
    linalg.yield %m : f32
  } -> tensor<4x16x24xf32>
  %p = linalg.softmax dimension(2) ins(%ss : tensor<4x16x24xf32>) outs(%es : tensor<4x16x24xf32>) -> tensor<4x16x24xf32>
  %et = tensor.empty() : tensor<4x24x16xf32>
  %pt = linalg.generic {indexing_maps = [#t, #id], iterator_types = ["parallel", "parallel", "parallel"]} ins(%p : tensor<4x16x24xf32>) outs(%et : tensor<4x24x16xf32>) {
  ^bb0(%x: f32, %o: f32):
    linalg.yield %x : f32
  } -> tensor<4x24x16xf32>
  %eo = tensor.empty() : tensor<4x8x16xf32>
  %zo = linalg.fill ins(%zero : f32) outs(%eo : tensor<4x8x16xf32>) -> tensor<4x8x16xf32>
  %o = linalg.generic {indexing_maps = [#vc, #pt, #oc], iterator_types = ["parallel", "parallel", "parallel", "reduction"]} ins(%v, %pt : tensor<4x8x24xf32>, tensor<4x24x16xf32>) outs(%zo : tensor<4x8x16xf32>) {
  ^bb0(%x: f32, %y: f32, %a: f32):
    %m = arith.mulf %x, %y : f32
    %r = arith.addf %a, %m : f32
    linalg.yield %r : f32
  } -> tensor<4x8x16xf32>
  return %o : tensor<4x8x16xf32>
}

// Pᵀ [B, Lk, Lq] contracted over Lq with W [B, Lq, C]: a sum over the
// queries of each key's probabilities, not P·V.
// CHECK-LABEL: func.func @pt_over_queries
// CHECK-NOT: attn.attention
// PROOF: @pt_over_queries: 0 attn.attention after the raising (nothing raised)
// PROOF: run 1 result 0 {{.*}}: PASS
#w = affine_map<(b, j, c, i) -> (b, i, c)>
#ptq = affine_map<(b, j, c, i) -> (b, j, i)>
#oq = affine_map<(b, j, c, i) -> (b, j, c)>
func.func @pt_over_queries(%q: tensor<4x16x8xf32>, %k: tensor<4x24x8xf32>, %w: tensor<4x16x8xf32>) -> tensor<4x24x8xf32> {
  %zero = arith.constant 0.0 : f32
  %c = arith.constant 0.35 : f32
  %es = tensor.empty() : tensor<4x16x24xf32>
  %zs = linalg.fill ins(%zero : f32) outs(%es : tensor<4x16x24xf32>) -> tensor<4x16x24xf32>
  %s = linalg.generic {indexing_maps = [#q, #k, #s], iterator_types = ["parallel", "parallel", "parallel", "reduction"]} ins(%q, %k : tensor<4x16x8xf32>, tensor<4x24x8xf32>) outs(%zs : tensor<4x16x24xf32>) {
  ^bb0(%x: f32, %y: f32, %o: f32):
    %m = arith.mulf %x, %y : f32
    %a = arith.addf %o, %m : f32
    linalg.yield %a : f32
  } -> tensor<4x16x24xf32>
  %ss = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel", "parallel"]} ins(%s : tensor<4x16x24xf32>) outs(%es : tensor<4x16x24xf32>) {
  ^bb0(%x: f32, %o: f32):
    %m = arith.mulf %x, %c : f32
    linalg.yield %m : f32
  } -> tensor<4x16x24xf32>
  // expected-remark @below {{attn-fuse: not fused: the P·V contraction does not reduce over the key dimension}}
  %p = linalg.softmax dimension(2) ins(%ss : tensor<4x16x24xf32>) outs(%es : tensor<4x16x24xf32>) -> tensor<4x16x24xf32>
  %et = tensor.empty() : tensor<4x24x16xf32>
  %pt = linalg.generic {indexing_maps = [#t, #id], iterator_types = ["parallel", "parallel", "parallel"]} ins(%p : tensor<4x16x24xf32>) outs(%et : tensor<4x24x16xf32>) {
  ^bb0(%x: f32, %o: f32):
    linalg.yield %x : f32
  } -> tensor<4x24x16xf32>
  %eo = tensor.empty() : tensor<4x24x8xf32>
  %zo = linalg.fill ins(%zero : f32) outs(%eo : tensor<4x24x8xf32>) -> tensor<4x24x8xf32>
  // expected-note @below {{the first op that blocks it: 'linalg.generic'}}
  %o = linalg.generic {indexing_maps = [#w, #ptq, #oq], iterator_types = ["parallel", "parallel", "parallel", "reduction"]} ins(%w, %pt : tensor<4x16x8xf32>, tensor<4x24x16xf32>) outs(%zo : tensor<4x24x8xf32>) {
  ^bb0(%x: f32, %y: f32, %a: f32):
    %m = arith.mulf %x, %y : f32
    %r = arith.addf %a, %m : f32
    linalg.yield %r : f32
  } -> tensor<4x24x8xf32>
  return %o : tensor<4x24x8xf32>
}
