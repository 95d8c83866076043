// The softmax normalized after P·V, as FlashAttention computes it: `e =
// exp(s - max(s)); o = (e @ v) / e.sum(-1)` (or `* (1 / sum)`). Σ_j (e_j /
// l) v_j and (Σ_j e_j v_j) / l are equal in real arithmetic (rounding
// only), so the chain is softmax(s) @ v and raises to one attn.attention.
// A row whose every key is masked gives 0 from the op where the chain gives
// NaN (0 / 0), as for the softmax normalized before P·V (passes.md,
// attn-fuse); attn-raise-check skips the positions where the float64 chain
// is NaN. Near misses stay chains: l read along another dim of the result,
// l + eps, P·V's result with another user, and the sum of exp(s) without
// the row max (which overflows where the op does not).
// RUN: attention-opt %s --attn-raise-pipeline | FileCheck %s
// RUN: attention-opt %s --attn-raise-pipeline=explain 2>&1 | FileCheck %s --check-prefix=EXPLAIN
// RUN: attn-raise-check %s --runs=2 --seed=11 | FileCheck %s --check-prefix=PROOF --implicit-check-not=FAIL
#qk_q = affine_map<(b, h, i, j, d) -> (b, h, i, d)>
#qk_k = affine_map<(b, h, i, j, d) -> (b, h, j, d)>
#qk_s = affine_map<(b, h, i, j, d) -> (b, h, i, j)>
#pv_p = affine_map<(b, h, i, d, j) -> (b, h, i, j)>
#pv_v = affine_map<(b, h, i, d, j) -> (b, h, j, d)>
#pv_o = affine_map<(b, h, i, d, j) -> (b, h, i, d)>
#pv_ot = affine_map<(b, h, i, d, j) -> (b, i, h, d)>
#id = affine_map<(b, h, i, j) -> (b, h, i, j)>
#row = affine_map<(b, h, i, j) -> (b, h, i)>
#rowt = affine_map<(b, i, h, d) -> (b, h, i)>
#wrong = affine_map<(b, h, i, d) -> (b, h, d)>
#keep = affine_map<(b, h, i, j) -> (b, i, j)>
#id3 = affine_map<(b, h, i) -> (b, h, i)>
// (e @ v) / l: raised.
// CHECK-LABEL: func.func @deferred_div
// CHECK: attn.attention {{.*}} {scale = 2.500000e-01 : f32}
// CHECK-NOT: linalg.
// PROOF: @deferred_div: 1 attn.attention after the raising
// PROOF: run 1 result 0 {{.*}}: PASS
func.func @deferred_div(%q: tensor<2x2x16x16xf32>, %k: tensor<2x2x16x16xf32>, %v: tensor<2x2x16x16xf32>) -> (tensor<2x2x16x16xf32>) {
  %zero = arith.constant 0.0 : f32
  %ninf = arith.constant 0xFF800000 : f32
  %c = arith.constant 0.25 : f32
  %es = tensor.empty() : tensor<2x2x16x16xf32>
  %zs = linalg.fill ins(%zero : f32) outs(%es : tensor<2x2x16x16xf32>) -> tensor<2x2x16x16xf32>
  %s0 = linalg.generic {indexing_maps = [#qk_q, #qk_k, #qk_s], iterator_types = ["parallel", "parallel", "parallel", "parallel", "reduction"]} ins(%q, %k : tensor<2x2x16x16xf32>, tensor<2x2x16x16xf32>) outs(%zs : tensor<2x2x16x16xf32>) {
  ^bb0(%a: f32, %b: f32, %acc: f32):
    %m = arith.mulf %a, %b : f32
    %r = arith.addf %acc, %m : f32
    linalg.yield %r : f32
  } -> tensor<2x2x16x16xf32>
  %s1 = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%s0 : tensor<2x2x16x16xf32>) outs(%es : tensor<2x2x16x16xf32>) {
  ^bb0(%x: f32, %o: f32):
    %r = arith.mulf %x, %c : f32
    linalg.yield %r : f32
  } -> tensor<2x2x16x16xf32>
  %s = tensor.cast %s1 : tensor<2x2x16x16xf32> to tensor<2x2x16x16xf32>
  %er = tensor.empty() : tensor<2x2x16xf32>
  %fm = linalg.fill ins(%ninf : f32) outs(%er : tensor<2x2x16xf32>) -> tensor<2x2x16xf32>
  %mx = linalg.generic {indexing_maps = [#id, #row], iterator_types = ["parallel", "parallel", "parallel", "reduction"]} ins(%s : tensor<2x2x16x16xf32>) outs(%fm : tensor<2x2x16xf32>) {
  ^bb0(%x: f32, %a: f32):
    %r = arith.maximumf %x, %a : f32
    linalg.yield %r : f32
  } -> tensor<2x2x16xf32>
  %sh = linalg.generic {indexing_maps = [#id, #row, #id], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%s, %mx : tensor<2x2x16x16xf32>, tensor<2x2x16xf32>) outs(%es : tensor<2x2x16x16xf32>) {
  ^bb0(%x: f32, %y: f32, %o: f32):
    %r = arith.subf %x, %y : f32
    linalg.yield %r : f32
  } -> tensor<2x2x16x16xf32>
  %e = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%sh : tensor<2x2x16x16xf32>) outs(%es : tensor<2x2x16x16xf32>) {
  ^bb0(%x: f32, %o: f32):
    %r = math.exp %x : f32
    linalg.yield %r : f32
  } -> tensor<2x2x16x16xf32>
  %fz = linalg.fill ins(%zero : f32) outs(%er : tensor<2x2x16xf32>) -> tensor<2x2x16xf32>
  %l = linalg.generic {indexing_maps = [#id, #row], iterator_types = ["parallel", "parallel", "parallel", "reduction"]} ins(%e : tensor<2x2x16x16xf32>) outs(%fz : tensor<2x2x16xf32>) {
  ^bb0(%x: f32, %a: f32):
    %r = arith.addf %x, %a : f32
    linalg.yield %r : f32
  } -> tensor<2x2x16xf32>
  %eo = tensor.empty() : tensor<2x2x16x16xf32>
  %zo = linalg.fill ins(%zero : f32) outs(%eo : tensor<2x2x16x16xf32>) -> tensor<2x2x16x16xf32>
  %o = linalg.generic {indexing_maps = [#pv_p, #pv_v, #pv_o], iterator_types = ["parallel", "parallel", "parallel", "parallel", "reduction"]} ins(%e, %v : tensor<2x2x16x16xf32>, tensor<2x2x16x16xf32>) outs(%zo : tensor<2x2x16x16xf32>) {
  ^bb0(%a: f32, %b: f32, %acc: f32):
    %m = arith.mulf %a, %b : f32
    %r = arith.addf %acc, %m : f32
    linalg.yield %r : f32
  } -> tensor<2x2x16x16xf32>
  %out = linalg.generic {indexing_maps = [#id, #row, #id], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%o, %l : tensor<2x2x16x16xf32>, tensor<2x2x16xf32>) outs(%eo : tensor<2x2x16x16xf32>) {
  ^bb0(%x: f32, %y: f32, %z: f32):
    %r = arith.divf %x, %y : f32
    linalg.yield %r : f32
  } -> tensor<2x2x16x16xf32>
  return %out : tensor<2x2x16x16xf32>
}

// With a boolean mask: rows the mask empties are NaN in the chain, 0 in the op.
// CHECK-LABEL: func.func @deferred_masked
// CHECK: attn.attention {{.*}} mask({{.*}} : tensor<2x1x16x16xi1>) {scale = 2.500000e-01 : f32}
// PROOF: @deferred_masked: 1 attn.attention after the raising
// PROOF: run 1 result 0 {{.*}}: PASS
func.func @deferred_masked(%q: tensor<2x2x16x16xf32>, %k: tensor<2x2x16x16xf32>, %v: tensor<2x2x16x16xf32>, %keep: tensor<2x16x16xi1>) -> (tensor<2x2x16x16xf32>) {
  %zero = arith.constant 0.0 : f32
  %ninf = arith.constant 0xFF800000 : f32
  %c = arith.constant 0.25 : f32
  %es = tensor.empty() : tensor<2x2x16x16xf32>
  %zs = linalg.fill ins(%zero : f32) outs(%es : tensor<2x2x16x16xf32>) -> tensor<2x2x16x16xf32>
  %s0 = linalg.generic {indexing_maps = [#qk_q, #qk_k, #qk_s], iterator_types = ["parallel", "parallel", "parallel", "parallel", "reduction"]} ins(%q, %k : tensor<2x2x16x16xf32>, tensor<2x2x16x16xf32>) outs(%zs : tensor<2x2x16x16xf32>) {
  ^bb0(%a: f32, %b: f32, %acc: f32):
    %m = arith.mulf %a, %b : f32
    %r = arith.addf %acc, %m : f32
    linalg.yield %r : f32
  } -> tensor<2x2x16x16xf32>
  %s1 = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%s0 : tensor<2x2x16x16xf32>) outs(%es : tensor<2x2x16x16xf32>) {
  ^bb0(%x: f32, %o: f32):
    %r = arith.mulf %x, %c : f32
    linalg.yield %r : f32
  } -> tensor<2x2x16x16xf32>
  %s = linalg.generic {indexing_maps = [#keep, #id, #id], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%keep, %s1 : tensor<2x16x16xi1>, tensor<2x2x16x16xf32>) outs(%es : tensor<2x2x16x16xf32>) {
  ^bb0(%kp: i1, %x: f32, %o: f32):
    %r = arith.select %kp, %x, %ninf : f32
    linalg.yield %r : f32
  } -> tensor<2x2x16x16xf32>
  %er = tensor.empty() : tensor<2x2x16xf32>
  %fm = linalg.fill ins(%ninf : f32) outs(%er : tensor<2x2x16xf32>) -> tensor<2x2x16xf32>
  %mx = linalg.generic {indexing_maps = [#id, #row], iterator_types = ["parallel", "parallel", "parallel", "reduction"]} ins(%s : tensor<2x2x16x16xf32>) outs(%fm : tensor<2x2x16xf32>) {
  ^bb0(%x: f32, %a: f32):
    %r = arith.maximumf %x, %a : f32
    linalg.yield %r : f32
  } -> tensor<2x2x16xf32>
  %sh = linalg.generic {indexing_maps = [#id, #row, #id], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%s, %mx : tensor<2x2x16x16xf32>, tensor<2x2x16xf32>) outs(%es : tensor<2x2x16x16xf32>) {
  ^bb0(%x: f32, %y: f32, %o: f32):
    %r = arith.subf %x, %y : f32
    linalg.yield %r : f32
  } -> tensor<2x2x16x16xf32>
  %e = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%sh : tensor<2x2x16x16xf32>) outs(%es : tensor<2x2x16x16xf32>) {
  ^bb0(%x: f32, %o: f32):
    %r = math.exp %x : f32
    linalg.yield %r : f32
  } -> tensor<2x2x16x16xf32>
  %fz = linalg.fill ins(%zero : f32) outs(%er : tensor<2x2x16xf32>) -> tensor<2x2x16xf32>
  %l = linalg.generic {indexing_maps = [#id, #row], iterator_types = ["parallel", "parallel", "parallel", "reduction"]} ins(%e : tensor<2x2x16x16xf32>) outs(%fz : tensor<2x2x16xf32>) {
  ^bb0(%x: f32, %a: f32):
    %r = arith.addf %x, %a : f32
    linalg.yield %r : f32
  } -> tensor<2x2x16xf32>
  %eo = tensor.empty() : tensor<2x2x16x16xf32>
  %zo = linalg.fill ins(%zero : f32) outs(%eo : tensor<2x2x16x16xf32>) -> tensor<2x2x16x16xf32>
  %o = linalg.generic {indexing_maps = [#pv_p, #pv_v, #pv_o], iterator_types = ["parallel", "parallel", "parallel", "parallel", "reduction"]} ins(%e, %v : tensor<2x2x16x16xf32>, tensor<2x2x16x16xf32>) outs(%zo : tensor<2x2x16x16xf32>) {
  ^bb0(%a: f32, %b: f32, %acc: f32):
    %m = arith.mulf %a, %b : f32
    %r = arith.addf %acc, %m : f32
    linalg.yield %r : f32
  } -> tensor<2x2x16x16xf32>
  %out = linalg.generic {indexing_maps = [#id, #row, #id], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%o, %l : tensor<2x2x16x16xf32>, tensor<2x2x16xf32>) outs(%eo : tensor<2x2x16x16xf32>) {
  ^bb0(%x: f32, %y: f32, %z: f32):
    %r = arith.divf %x, %y : f32
    linalg.yield %r : f32
  } -> tensor<2x2x16x16xf32>
  return %out : tensor<2x2x16x16xf32>
}

// (e @ v) * (1 / l), the result written [b, i, h, d]: l read as (b, h, i) along it.
// CHECK-LABEL: func.func @deferred_reciprocal_token_major
// CHECK: attn.attention
// CHECK: linalg.transpose
// PROOF: @deferred_reciprocal_token_major: 1 attn.attention after the raising
// PROOF: run 1 result 0 {{.*}}: PASS
func.func @deferred_reciprocal_token_major(%q: tensor<2x2x16x16xf32>, %k: tensor<2x2x16x16xf32>, %v: tensor<2x2x16x16xf32>) -> (tensor<2x16x2x16xf32>) {
  %zero = arith.constant 0.0 : f32
  %ninf = arith.constant 0xFF800000 : f32
  %c = arith.constant 0.25 : f32
  %es = tensor.empty() : tensor<2x2x16x16xf32>
  %zs = linalg.fill ins(%zero : f32) outs(%es : tensor<2x2x16x16xf32>) -> tensor<2x2x16x16xf32>
  %s0 = linalg.generic {indexing_maps = [#qk_q, #qk_k, #qk_s], iterator_types = ["parallel", "parallel", "parallel", "parallel", "reduction"]} ins(%q, %k : tensor<2x2x16x16xf32>, tensor<2x2x16x16xf32>) outs(%zs : tensor<2x2x16x16xf32>) {
  ^bb0(%a: f32, %b: f32, %acc: f32):
    %m = arith.mulf %a, %b : f32
    %r = arith.addf %acc, %m : f32
    linalg.yield %r : f32
  } -> tensor<2x2x16x16xf32>
  %s1 = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%s0 : tensor<2x2x16x16xf32>) outs(%es : tensor<2x2x16x16xf32>) {
  ^bb0(%x: f32, %o: f32):
    %r = arith.mulf %x, %c : f32
    linalg.yield %r : f32
  } -> tensor<2x2x16x16xf32>
  %s = tensor.cast %s1 : tensor<2x2x16x16xf32> to tensor<2x2x16x16xf32>
  %er = tensor.empty() : tensor<2x2x16xf32>
  %fm = linalg.fill ins(%ninf : f32) outs(%er : tensor<2x2x16xf32>) -> tensor<2x2x16xf32>
  %mx = linalg.generic {indexing_maps = [#id, #row], iterator_types = ["parallel", "parallel", "parallel", "reduction"]} ins(%s : tensor<2x2x16x16xf32>) outs(%fm : tensor<2x2x16xf32>) {
  ^bb0(%x: f32, %a: f32):
    %r = arith.maximumf %x, %a : f32
    linalg.yield %r : f32
  } -> tensor<2x2x16xf32>
  %sh = linalg.generic {indexing_maps = [#id, #row, #id], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%s, %mx : tensor<2x2x16x16xf32>, tensor<2x2x16xf32>) outs(%es : tensor<2x2x16x16xf32>) {
  ^bb0(%x: f32, %y: f32, %o: f32):
    %r = arith.subf %x, %y : f32
    linalg.yield %r : f32
  } -> tensor<2x2x16x16xf32>
  %e = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%sh : tensor<2x2x16x16xf32>) outs(%es : tensor<2x2x16x16xf32>) {
  ^bb0(%x: f32, %o: f32):
    %r = math.exp %x : f32
    linalg.yield %r : f32
  } -> tensor<2x2x16x16xf32>
  %fz = linalg.fill ins(%zero : f32) outs(%er : tensor<2x2x16xf32>) -> tensor<2x2x16xf32>
  %l = linalg.generic {indexing_maps = [#id, #row], iterator_types = ["parallel", "parallel", "parallel", "reduction"]} ins(%e : tensor<2x2x16x16xf32>) outs(%fz : tensor<2x2x16xf32>) {
  ^bb0(%x: f32, %a: f32):
    %r = arith.addf %x, %a : f32
    linalg.yield %r : f32
  } -> tensor<2x2x16xf32>
  %rl = linalg.generic {indexing_maps = [#id3, #id3], iterator_types = ["parallel", "parallel", "parallel"]} ins(%l : tensor<2x2x16xf32>) outs(%er : tensor<2x2x16xf32>) {
  ^bb0(%x: f32, %o: f32):
    %one = arith.constant 1.0 : f32
    %r = arith.divf %one, %x : f32
    linalg.yield %r : f32
  } -> tensor<2x2x16xf32>
  %eo = tensor.empty() : tensor<2x16x2x16xf32>
  %zo = linalg.fill ins(%zero : f32) outs(%eo : tensor<2x16x2x16xf32>) -> tensor<2x16x2x16xf32>
  %o = linalg.generic {indexing_maps = [#pv_p, #pv_v, #pv_ot], iterator_types = ["parallel", "parallel", "parallel", "parallel", "reduction"]} ins(%e, %v : tensor<2x2x16x16xf32>, tensor<2x2x16x16xf32>) outs(%zo : tensor<2x16x2x16xf32>) {
  ^bb0(%a: f32, %b: f32, %acc: f32):
    %m = arith.mulf %a, %b : f32
    %r = arith.addf %acc, %m : f32
    linalg.yield %r : f32
  } -> tensor<2x16x2x16xf32>
  %out = linalg.generic {indexing_maps = [#id, #rowt, #id], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%o, %rl : tensor<2x16x2x16xf32>, tensor<2x2x16xf32>) outs(%eo : tensor<2x16x2x16xf32>) {
  ^bb0(%x: f32, %y: f32, %z: f32):
    %r = arith.mulf %x, %y : f32
    linalg.yield %r : f32
  } -> tensor<2x16x2x16xf32>
  return %out : tensor<2x16x2x16xf32>
}

// l read along the value dim of the result instead of the query dim (Lq = Dv): not attention.
// CHECK-LABEL: func.func @deferred_wrong_dim
// CHECK-NOT: attn.attention
// EXPLAIN: remark: attn-fuse: not fused: exp(s - max)·V is not normalized by the row sum l of exp(s - max): 'linalg.generic' is not (e·V) / l or (e·V) * (1 / l) with l read back along the value dim
// PROOF: @deferred_wrong_dim: 0 attn.attention after the raising
// PROOF: run 1 result 0 {{.*}}: PASS
func.func @deferred_wrong_dim(%q: tensor<2x2x16x16xf32>, %k: tensor<2x2x16x16xf32>, %v: tensor<2x2x16x16xf32>) -> (tensor<2x2x16x16xf32>) {
  %zero = arith.constant 0.0 : f32
  %ninf = arith.constant 0xFF800000 : f32
  %c = arith.constant 0.25 : f32
  %es = tensor.empty() : tensor<2x2x16x16xf32>
  %zs = linalg.fill ins(%zero : f32) outs(%es : tensor<2x2x16x16xf32>) -> tensor<2x2x16x16xf32>
  %s0 = linalg.generic {indexing_maps = [#qk_q, #qk_k, #qk_s], iterator_types = ["parallel", "parallel", "parallel", "parallel", "reduction"]} ins(%q, %k : tensor<2x2x16x16xf32>, tensor<2x2x16x16xf32>) outs(%zs : tensor<2x2x16x16xf32>) {
  ^bb0(%a: f32, %b: f32, %acc: f32):
    %m = arith.mulf %a, %b : f32
    %r = arith.addf %acc, %m : f32
    linalg.yield %r : f32
  } -> tensor<2x2x16x16xf32>
  %s1 = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%s0 : tensor<2x2x16x16xf32>) outs(%es : tensor<2x2x16x16xf32>) {
  ^bb0(%x: f32, %o: f32):
    %r = arith.mulf %x, %c : f32
    linalg.yield %r : f32
  } -> tensor<2x2x16x16xf32>
  %s = tensor.cast %s1 : tensor<2x2x16x16xf32> to tensor<2x2x16x16xf32>
  %er = tensor.empty() : tensor<2x2x16xf32>
  %fm = linalg.fill ins(%ninf : f32) outs(%er : tensor<2x2x16xf32>) -> tensor<2x2x16xf32>
  %mx = linalg.generic {indexing_maps = [#id, #row], iterator_types = ["parallel", "parallel", "parallel", "reduction"]} ins(%s : tensor<2x2x16x16xf32>) outs(%fm : tensor<2x2x16xf32>) {
  ^bb0(%x: f32, %a: f32):
    %r = arith.maximumf %x, %a : f32
    linalg.yield %r : f32
  } -> tensor<2x2x16xf32>
  %sh = linalg.generic {indexing_maps = [#id, #row, #id], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%s, %mx : tensor<2x2x16x16xf32>, tensor<2x2x16xf32>) outs(%es : tensor<2x2x16x16xf32>) {
  ^bb0(%x: f32, %y: f32, %o: f32):
    %r = arith.subf %x, %y : f32
    linalg.yield %r : f32
  } -> tensor<2x2x16x16xf32>
  %e = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%sh : tensor<2x2x16x16xf32>) outs(%es : tensor<2x2x16x16xf32>) {
  ^bb0(%x: f32, %o: f32):
    %r = math.exp %x : f32
    linalg.yield %r : f32
  } -> tensor<2x2x16x16xf32>
  %fz = linalg.fill ins(%zero : f32) outs(%er : tensor<2x2x16xf32>) -> tensor<2x2x16xf32>
  %l = linalg.generic {indexing_maps = [#id, #row], iterator_types = ["parallel", "parallel", "parallel", "reduction"]} ins(%e : tensor<2x2x16x16xf32>) outs(%fz : tensor<2x2x16xf32>) {
  ^bb0(%x: f32, %a: f32):
    %r = arith.addf %x, %a : f32
    linalg.yield %r : f32
  } -> tensor<2x2x16xf32>
  %eo = tensor.empty() : tensor<2x2x16x16xf32>
  %zo = linalg.fill ins(%zero : f32) outs(%eo : tensor<2x2x16x16xf32>) -> tensor<2x2x16x16xf32>
  %o = linalg.generic {indexing_maps = [#pv_p, #pv_v, #pv_o], iterator_types = ["parallel", "parallel", "parallel", "parallel", "reduction"]} ins(%e, %v : tensor<2x2x16x16xf32>, tensor<2x2x16x16xf32>) outs(%zo : tensor<2x2x16x16xf32>) {
  ^bb0(%a: f32, %b: f32, %acc: f32):
    %m = arith.mulf %a, %b : f32
    %r = arith.addf %acc, %m : f32
    linalg.yield %r : f32
  } -> tensor<2x2x16x16xf32>
  %out = linalg.generic {indexing_maps = [#id, #wrong, #id], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%o, %l : tensor<2x2x16x16xf32>, tensor<2x2x16xf32>) outs(%eo : tensor<2x2x16x16xf32>) {
  ^bb0(%x: f32, %y: f32, %z: f32):
    %r = arith.divf %x, %y : f32
    linalg.yield %r : f32
  } -> tensor<2x2x16x16xf32>
  return %out : tensor<2x2x16x16xf32>
}

// (e @ v) / (l + eps): not the row sum.
// CHECK-LABEL: func.func @deferred_eps
// CHECK-NOT: attn.attention
// EXPLAIN: remark: attn-fuse: not fused: exp(s - max)·V is not normalized by the row sum l
// PROOF: @deferred_eps: 0 attn.attention after the raising
// PROOF: run 1 result 0 {{.*}}: PASS
func.func @deferred_eps(%q: tensor<2x2x16x16xf32>, %k: tensor<2x2x16x16xf32>, %v: tensor<2x2x16x16xf32>) -> (tensor<2x2x16x16xf32>) {
  %zero = arith.constant 0.0 : f32
  %ninf = arith.constant 0xFF800000 : f32
  %c = arith.constant 0.25 : f32
  %es = tensor.empty() : tensor<2x2x16x16xf32>
  %zs = linalg.fill ins(%zero : f32) outs(%es : tensor<2x2x16x16xf32>) -> tensor<2x2x16x16xf32>
  %s0 = linalg.generic {indexing_maps = [#qk_q, #qk_k, #qk_s], iterator_types = ["parallel", "parallel", "parallel", "parallel", "reduction"]} ins(%q, %k : tensor<2x2x16x16xf32>, tensor<2x2x16x16xf32>) outs(%zs : tensor<2x2x16x16xf32>) {
  ^bb0(%a: f32, %b: f32, %acc: f32):
    %m = arith.mulf %a, %b : f32
    %r = arith.addf %acc, %m : f32
    linalg.yield %r : f32
  } -> tensor<2x2x16x16xf32>
  %s1 = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%s0 : tensor<2x2x16x16xf32>) outs(%es : tensor<2x2x16x16xf32>) {
  ^bb0(%x: f32, %o: f32):
    %r = arith.mulf %x, %c : f32
    linalg.yield %r : f32
  } -> tensor<2x2x16x16xf32>
  %s = tensor.cast %s1 : tensor<2x2x16x16xf32> to tensor<2x2x16x16xf32>
  %er = tensor.empty() : tensor<2x2x16xf32>
  %fm = linalg.fill ins(%ninf : f32) outs(%er : tensor<2x2x16xf32>) -> tensor<2x2x16xf32>
  %mx = linalg.generic {indexing_maps = [#id, #row], iterator_types = ["parallel", "parallel", "parallel", "reduction"]} ins(%s : tensor<2x2x16x16xf32>) outs(%fm : tensor<2x2x16xf32>) {
  ^bb0(%x: f32, %a: f32):
    %r = arith.maximumf %x, %a : f32
    linalg.yield %r : f32
  } -> tensor<2x2x16xf32>
  %sh = linalg.generic {indexing_maps = [#id, #row, #id], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%s, %mx : tensor<2x2x16x16xf32>, tensor<2x2x16xf32>) outs(%es : tensor<2x2x16x16xf32>) {
  ^bb0(%x: f32, %y: f32, %o: f32):
    %r = arith.subf %x, %y : f32
    linalg.yield %r : f32
  } -> tensor<2x2x16x16xf32>
  %e = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%sh : tensor<2x2x16x16xf32>) outs(%es : tensor<2x2x16x16xf32>) {
  ^bb0(%x: f32, %o: f32):
    %r = math.exp %x : f32
    linalg.yield %r : f32
  } -> tensor<2x2x16x16xf32>
  %fz = linalg.fill ins(%zero : f32) outs(%er : tensor<2x2x16xf32>) -> tensor<2x2x16xf32>
  %l = linalg.generic {indexing_maps = [#id, #row], iterator_types = ["parallel", "parallel", "parallel", "reduction"]} ins(%e : tensor<2x2x16x16xf32>) outs(%fz : tensor<2x2x16xf32>) {
  ^bb0(%x: f32, %a: f32):
    %r = arith.addf %x, %a : f32
    linalg.yield %r : f32
  } -> tensor<2x2x16xf32>
  %eps = arith.constant 1.0e-6 : f32
  %le = linalg.generic {indexing_maps = [#id3, #id3], iterator_types = ["parallel", "parallel", "parallel"]} ins(%l : tensor<2x2x16xf32>) outs(%er : tensor<2x2x16xf32>) {
  ^bb0(%x: f32, %o: f32):
    %r = arith.addf %x, %eps : f32
    linalg.yield %r : f32
  } -> tensor<2x2x16xf32>
  %eo = tensor.empty() : tensor<2x2x16x16xf32>
  %zo = linalg.fill ins(%zero : f32) outs(%eo : tensor<2x2x16x16xf32>) -> tensor<2x2x16x16xf32>
  %o = linalg.generic {indexing_maps = [#pv_p, #pv_v, #pv_o], iterator_types = ["parallel", "parallel", "parallel", "parallel", "reduction"]} ins(%e, %v : tensor<2x2x16x16xf32>, tensor<2x2x16x16xf32>) outs(%zo : tensor<2x2x16x16xf32>) {
  ^bb0(%a: f32, %b: f32, %acc: f32):
    %m = arith.mulf %a, %b : f32
    %r = arith.addf %acc, %m : f32
    linalg.yield %r : f32
  } -> tensor<2x2x16x16xf32>
  %out = linalg.generic {indexing_maps = [#id, #row, #id], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%o, %le : tensor<2x2x16x16xf32>, tensor<2x2x16xf32>) outs(%eo : tensor<2x2x16x16xf32>) {
  ^bb0(%x: f32, %y: f32, %z: f32):
    %r = arith.divf %x, %y : f32
    linalg.yield %r : f32
  } -> tensor<2x2x16x16xf32>
  return %out : tensor<2x2x16x16xf32>
}

// e @ v also returned unnormalized.
// CHECK-LABEL: func.func @deferred_other_user
// CHECK-NOT: attn.attention
// EXPLAIN: remark: attn-fuse: not fused: exp(s - max)·V is not normalized by the row sum: it has another user
// PROOF: @deferred_other_user: 0 attn.attention after the raising
// PROOF: run 1 result 0 {{.*}}: PASS
func.func @deferred_other_user(%q: tensor<2x2x16x16xf32>, %k: tensor<2x2x16x16xf32>, %v: tensor<2x2x16x16xf32>) -> (tensor<2x2x16x16xf32>, tensor<2x2x16x16xf32>) {
  %zero = arith.constant 0.0 : f32
  %ninf = arith.constant 0xFF800000 : f32
  %c = arith.constant 0.25 : f32
  %es = tensor.empty() : tensor<2x2x16x16xf32>
  %zs = linalg.fill ins(%zero : f32) outs(%es : tensor<2x2x16x16xf32>) -> tensor<2x2x16x16xf32>
  %s0 = linalg.generic {indexing_maps = [#qk_q, #qk_k, #qk_s], iterator_types = ["parallel", "parallel", "parallel", "parallel", "reduction"]} ins(%q, %k : tensor<2x2x16x16xf32>, tensor<2x2x16x16xf32>) outs(%zs : tensor<2x2x16x16xf32>) {
  ^bb0(%a: f32, %b: f32, %acc: f32):
    %m = arith.mulf %a, %b : f32
    %r = arith.addf %acc, %m : f32
    linalg.yield %r : f32
  } -> tensor<2x2x16x16xf32>
  %s1 = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%s0 : tensor<2x2x16x16xf32>) outs(%es : tensor<2x2x16x16xf32>) {
  ^bb0(%x: f32, %o: f32):
    %r = arith.mulf %x, %c : f32
    linalg.yield %r : f32
  } -> tensor<2x2x16x16xf32>
  %s = tensor.cast %s1 : tensor<2x2x16x16xf32> to tensor<2x2x16x16xf32>
  %er = tensor.empty() : tensor<2x2x16xf32>
  %fm = linalg.fill ins(%ninf : f32) outs(%er : tensor<2x2x16xf32>) -> tensor<2x2x16xf32>
  %mx = linalg.generic {indexing_maps = [#id, #row], iterator_types = ["parallel", "parallel", "parallel", "reduction"]} ins(%s : tensor<2x2x16x16xf32>) outs(%fm : tensor<2x2x16xf32>) {
  ^bb0(%x: f32, %a: f32):
    %r = arith.maximumf %x, %a : f32
    linalg.yield %r : f32
  } -> tensor<2x2x16xf32>
  %sh = linalg.generic {indexing_maps = [#id, #row, #id], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%s, %mx : tensor<2x2x16x16xf32>, tensor<2x2x16xf32>) outs(%es : tensor<2x2x16x16xf32>) {
  ^bb0(%x: f32, %y: f32, %o: f32):
    %r = arith.subf %x, %y : f32
    linalg.yield %r : f32
  } -> tensor<2x2x16x16xf32>
  %e = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%sh : tensor<2x2x16x16xf32>) outs(%es : tensor<2x2x16x16xf32>) {
  ^bb0(%x: f32, %o: f32):
    %r = math.exp %x : f32
    linalg.yield %r : f32
  } -> tensor<2x2x16x16xf32>
  %fz = linalg.fill ins(%zero : f32) outs(%er : tensor<2x2x16xf32>) -> tensor<2x2x16xf32>
  %l = linalg.generic {indexing_maps = [#id, #row], iterator_types = ["parallel", "parallel", "parallel", "reduction"]} ins(%e : tensor<2x2x16x16xf32>) outs(%fz : tensor<2x2x16xf32>) {
  ^bb0(%x: f32, %a: f32):
    %r = arith.addf %x, %a : f32
    linalg.yield %r : f32
  } -> tensor<2x2x16xf32>
  %eo = tensor.empty() : tensor<2x2x16x16xf32>
  %zo = linalg.fill ins(%zero : f32) outs(%eo : tensor<2x2x16x16xf32>) -> tensor<2x2x16x16xf32>
  %o = linalg.generic {indexing_maps = [#pv_p, #pv_v, #pv_o], iterator_types = ["parallel", "parallel", "parallel", "parallel", "reduction"]} ins(%e, %v : tensor<2x2x16x16xf32>, tensor<2x2x16x16xf32>) outs(%zo : tensor<2x2x16x16xf32>) {
  ^bb0(%a: f32, %b: f32, %acc: f32):
    %m = arith.mulf %a, %b : f32
    %r = arith.addf %acc, %m : f32
    linalg.yield %r : f32
  } -> tensor<2x2x16x16xf32>
  %out = linalg.generic {indexing_maps = [#id, #row, #id], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%o, %l : tensor<2x2x16x16xf32>, tensor<2x2x16xf32>) outs(%eo : tensor<2x2x16x16xf32>) {
  ^bb0(%x: f32, %y: f32, %z: f32):
    %r = arith.divf %x, %y : f32
    linalg.yield %r : f32
  } -> tensor<2x2x16x16xf32>
  return %out, %o : tensor<2x2x16x16xf32>, tensor<2x2x16x16xf32>
}

// exp(s) @ v / sum exp(s), without the row max: overflows where the op does not (the existing rule for exp(s) / sum exp(s)).
// CHECK-LABEL: func.func @deferred_no_max
// CHECK-NOT: attn.attention
// EXPLAIN: remark: attn-fuse: not fused: a softmax without its row max
// PROOF: @deferred_no_max: 0 attn.attention after the raising
// PROOF: run 1 result 0 {{.*}}: PASS
func.func @deferred_no_max(%q: tensor<2x2x16x16xf32>, %k: tensor<2x2x16x16xf32>, %v: tensor<2x2x16x16xf32>) -> (tensor<2x2x16x16xf32>) {
  %zero = arith.constant 0.0 : f32
  %ninf = arith.constant 0xFF800000 : f32
  %c = arith.constant 0.25 : f32
  %es = tensor.empty() : tensor<2x2x16x16xf32>
  %zs = linalg.fill ins(%zero : f32) outs(%es : tensor<2x2x16x16xf32>) -> tensor<2x2x16x16xf32>
  %s0 = linalg.generic {indexing_maps = [#qk_q, #qk_k, #qk_s], iterator_types = ["parallel", "parallel", "parallel", "parallel", "reduction"]} ins(%q, %k : tensor<2x2x16x16xf32>, tensor<2x2x16x16xf32>) outs(%zs : tensor<2x2x16x16xf32>) {
  ^bb0(%a: f32, %b: f32, %acc: f32):
    %m = arith.mulf %a, %b : f32
    %r = arith.addf %acc, %m : f32
    linalg.yield %r : f32
  } -> tensor<2x2x16x16xf32>
  %s1 = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%s0 : tensor<2x2x16x16xf32>) outs(%es : tensor<2x2x16x16xf32>) {
  ^bb0(%x: f32, %o: f32):
    %r = arith.mulf %x, %c : f32
    linalg.yield %r : f32
  } -> tensor<2x2x16x16xf32>
  %s = tensor.cast %s1 : tensor<2x2x16x16xf32> to tensor<2x2x16x16xf32>
  %er = tensor.empty() : tensor<2x2x16xf32>
  %sh = tensor.cast %s : tensor<2x2x16x16xf32> to tensor<2x2x16x16xf32>
  %e = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%sh : tensor<2x2x16x16xf32>) outs(%es : tensor<2x2x16x16xf32>) {
  ^bb0(%x: f32, %o: f32):
    %r = math.exp %x : f32
    linalg.yield %r : f32
  } -> tensor<2x2x16x16xf32>
  %fz = linalg.fill ins(%zero : f32) outs(%er : tensor<2x2x16xf32>) -> tensor<2x2x16xf32>
  %l = linalg.generic {indexing_maps = [#id, #row], iterator_types = ["parallel", "parallel", "parallel", "reduction"]} ins(%e : tensor<2x2x16x16xf32>) outs(%fz : tensor<2x2x16xf32>) {
  ^bb0(%x: f32, %a: f32):
    %r = arith.addf %x, %a : f32
    linalg.yield %r : f32
  } -> tensor<2x2x16xf32>
  %eo = tensor.empty() : tensor<2x2x16x16xf32>
  %zo = linalg.fill ins(%zero : f32) outs(%eo : tensor<2x2x16x16xf32>) -> tensor<2x2x16x16xf32>
  %o = linalg.generic {indexing_maps = [#pv_p, #pv_v, #pv_o], iterator_types = ["parallel", "parallel", "parallel", "parallel", "reduction"]} ins(%e, %v : tensor<2x2x16x16xf32>, tensor<2x2x16x16xf32>) outs(%zo : tensor<2x2x16x16xf32>) {
  ^bb0(%a: f32, %b: f32, %acc: f32):
    %m = arith.mulf %a, %b : f32
    %r = arith.addf %acc, %m : f32
    linalg.yield %r : f32
  } -> tensor<2x2x16x16xf32>
  %out = linalg.generic {indexing_maps = [#id, #row, #id], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%o, %l : tensor<2x2x16x16xf32>, tensor<2x2x16xf32>) outs(%eo : tensor<2x2x16x16xf32>) {
  ^bb0(%x: f32, %y: f32, %z: f32):
    %r = arith.divf %x, %y : f32
    linalg.yield %r : f32
  } -> tensor<2x2x16x16xf32>
  return %out : tensor<2x2x16x16xf32>
}

