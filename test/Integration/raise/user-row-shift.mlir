// The row max subtracted by the user right before the softmax (`s -
// s.amax(-1, keepdim=True)`, a stable softmax written out before calling
// one): softmax(s - max(s)) is softmax(s) exactly (its own max is then
// fl(m - m) = 0), so the chain is raised without the shift. A max over the
// queries (a per-key shift, which the softmax over the keys does not
// cancel) is not such a shift, and a shifted tensor with another user is
// left. attn-raise-check proves the raising.
// RUN: attention-opt %s --attn-raise-pipeline | FileCheck %s
// RUN: attn-raise-check %s --runs=2 --seed=7 | FileCheck %s --check-prefix=PROOF --implicit-check-not=FAIL
#qk = affine_map<(b, h, i, j, d) -> (b, h, i, d)>
#kk = affine_map<(b, h, i, j, d) -> (b, h, j, d)>
#sk = affine_map<(b, h, i, j, d) -> (b, h, i, j)>
#pv_p = affine_map<(b, h, i, d, j) -> (b, h, i, j)>
#pv_v = affine_map<(b, h, i, d, j) -> (b, h, j, d)>
#pv_o = affine_map<(b, h, i, d, j) -> (b, h, i, d)>
#id = affine_map<(b, h, i, j) -> (b, h, i, j)>
#row = affine_map<(b, h, i, j) -> (b, h, i)>
#col = affine_map<(b, h, i, j) -> (b, h, j)>
#colred_in = affine_map<(b, h, j, i) -> (b, h, i, j)>
#colred_out = affine_map<(b, h, j, i) -> (b, h, j)>

// CHECK-LABEL: func.func @row_shift
// CHECK: attn.attention ins({{.*}}) {scale = 3.500000e-01 : f32}
// CHECK-NOT: linalg.
// PROOF: @row_shift: 1 attn.attention after the raising
// PROOF: run 1 result 0 {{.*}}: PASS
func.func @row_shift(%q: tensor<2x4x16x8xf32>, %k: tensor<2x4x24x8xf32>, %v: tensor<2x4x24x8xf32>) -> (tensor<2x4x16x8xf32>) {
  %zero = arith.constant 0.0 : f32
  %ninf = arith.constant 0xFF800000 : f32
  %sc = arith.constant 0.35 : f32
  %es = tensor.empty() : tensor<2x4x16x24xf32>
  %zs = linalg.fill ins(%zero : f32) outs(%es : tensor<2x4x16x24xf32>) -> tensor<2x4x16x24xf32>
  %s = linalg.generic {indexing_maps = [#qk, #kk, #sk], iterator_types = ["parallel", "parallel", "parallel", "parallel", "reduction"]} ins(%q, %k : tensor<2x4x16x8xf32>, tensor<2x4x24x8xf32>) outs(%zs : tensor<2x4x16x24xf32>) {
  ^bb0(%x: f32, %y: f32, %o: f32):
    %m0 = arith.mulf %x, %y : f32
    %r = arith.addf %o, %m0 : f32
    linalg.yield %r : f32
  } -> tensor<2x4x16x24xf32>
  %s1 = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%s : tensor<2x4x16x24xf32>) outs(%es : tensor<2x4x16x24xf32>) {
  ^bb0(%x: f32, %o: f32):
    %r = arith.mulf %x, %sc : f32
    linalg.yield %r : f32
  } -> tensor<2x4x16x24xf32>
  %mi = tensor.empty() : tensor<2x4x16xf32>
  %mf = linalg.fill ins(%ninf : f32) outs(%mi : tensor<2x4x16xf32>) -> tensor<2x4x16xf32>
  %m = linalg.generic {indexing_maps = [#id, #row], iterator_types = ["parallel", "parallel", "parallel", "reduction"]} ins(%s1 : tensor<2x4x16x24xf32>) outs(%mf : tensor<2x4x16xf32>) {
  ^bb0(%x: f32, %o: f32):
    %r = arith.maximumf %x, %o : f32
    linalg.yield %r : f32
  } -> tensor<2x4x16xf32>
  %sh = linalg.generic {indexing_maps = [#id, #row, #id], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%s1, %m : tensor<2x4x16x24xf32>, tensor<2x4x16xf32>) outs(%es : tensor<2x4x16x24xf32>) {
  ^bb0(%x: f32, %y: f32, %o: f32):
    %r = arith.subf %x, %y : f32
    linalg.yield %r : f32
  } -> tensor<2x4x16x24xf32>
  %p = linalg.softmax dimension(3) ins(%sh : tensor<2x4x16x24xf32>) outs(%es : tensor<2x4x16x24xf32>) -> tensor<2x4x16x24xf32>
  %eo = tensor.empty() : tensor<2x4x16x8xf32>
  %zo = linalg.fill ins(%zero : f32) outs(%eo : tensor<2x4x16x8xf32>) -> tensor<2x4x16x8xf32>
  %o = linalg.generic {indexing_maps = [#pv_p, #pv_v, #pv_o], iterator_types = ["parallel", "parallel", "parallel", "parallel", "reduction"]} ins(%p, %v : tensor<2x4x16x24xf32>, tensor<2x4x24x8xf32>) outs(%zo : tensor<2x4x16x8xf32>) {
  ^bb0(%x: f32, %y: f32, %acc: f32):
    %m0 = arith.mulf %x, %y : f32
    %r = arith.addf %acc, %m0 : f32
    linalg.yield %r : f32
  } -> tensor<2x4x16x8xf32>
  return %o : tensor<2x4x16x8xf32>
}


// CHECK-LABEL: func.func @column_shift
// CHECK-NOT: attn.attention
// PROOF: @column_shift: 0 attn.attention after the raising (nothing raised)
// PROOF: run 1 result 0 {{.*}}: PASS
func.func @column_shift(%q: tensor<2x4x16x8xf32>, %k: tensor<2x4x24x8xf32>, %v: tensor<2x4x24x8xf32>) -> (tensor<2x4x16x8xf32>) {
  %zero = arith.constant 0.0 : f32
  %ninf = arith.constant 0xFF800000 : f32
  %sc = arith.constant 0.35 : f32
  %es = tensor.empty() : tensor<2x4x16x24xf32>
  %zs = linalg.fill ins(%zero : f32) outs(%es : tensor<2x4x16x24xf32>) -> tensor<2x4x16x24xf32>
  %s = linalg.generic {indexing_maps = [#qk, #kk, #sk], iterator_types = ["parallel", "parallel", "parallel", "parallel", "reduction"]} ins(%q, %k : tensor<2x4x16x8xf32>, tensor<2x4x24x8xf32>) outs(%zs : tensor<2x4x16x24xf32>) {
  ^bb0(%x: f32, %y: f32, %o: f32):
    %m0 = arith.mulf %x, %y : f32
    %r = arith.addf %o, %m0 : f32
    linalg.yield %r : f32
  } -> tensor<2x4x16x24xf32>
  %s1 = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%s : tensor<2x4x16x24xf32>) outs(%es : tensor<2x4x16x24xf32>) {
  ^bb0(%x: f32, %o: f32):
    %r = arith.mulf %x, %sc : f32
    linalg.yield %r : f32
  } -> tensor<2x4x16x24xf32>
  %mi = tensor.empty() : tensor<2x4x24xf32>
  %mf = linalg.fill ins(%ninf : f32) outs(%mi : tensor<2x4x24xf32>) -> tensor<2x4x24xf32>
  %m = linalg.generic {indexing_maps = [#colred_in, #colred_out], iterator_types = ["parallel", "parallel", "parallel", "reduction"]} ins(%s1 : tensor<2x4x16x24xf32>) outs(%mf : tensor<2x4x24xf32>) {
  ^bb0(%x: f32, %o: f32):
    %r = arith.maximumf %x, %o : f32
    linalg.yield %r : f32
  } -> tensor<2x4x24xf32>
  %sh = linalg.generic {indexing_maps = [#id, #col, #id], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%s1, %m : tensor<2x4x16x24xf32>, tensor<2x4x24xf32>) outs(%es : tensor<2x4x16x24xf32>) {
  ^bb0(%x: f32, %y: f32, %o: f32):
    %r = arith.subf %x, %y : f32
    linalg.yield %r : f32
  } -> tensor<2x4x16x24xf32>
  %p = linalg.softmax dimension(3) ins(%sh : tensor<2x4x16x24xf32>) outs(%es : tensor<2x4x16x24xf32>) -> tensor<2x4x16x24xf32>
  %eo = tensor.empty() : tensor<2x4x16x8xf32>
  %zo = linalg.fill ins(%zero : f32) outs(%eo : tensor<2x4x16x8xf32>) -> tensor<2x4x16x8xf32>
  %o = linalg.generic {indexing_maps = [#pv_p, #pv_v, #pv_o], iterator_types = ["parallel", "parallel", "parallel", "parallel", "reduction"]} ins(%p, %v : tensor<2x4x16x24xf32>, tensor<2x4x24x8xf32>) outs(%zo : tensor<2x4x16x8xf32>) {
  ^bb0(%x: f32, %y: f32, %acc: f32):
    %m0 = arith.mulf %x, %y : f32
    %r = arith.addf %acc, %m0 : f32
    linalg.yield %r : f32
  } -> tensor<2x4x16x8xf32>
  return %o : tensor<2x4x16x8xf32>
}


// CHECK-LABEL: func.func @shifted_scores_returned
// CHECK-NOT: attn.attention
// PROOF: @shifted_scores_returned: 0 attn.attention after the raising (nothing raised)
// PROOF: run 1 result 0 {{.*}}: PASS
func.func @shifted_scores_returned(%q: tensor<2x4x16x8xf32>, %k: tensor<2x4x24x8xf32>, %v: tensor<2x4x24x8xf32>) -> (tensor<2x4x16x8xf32>, tensor<2x4x16x24xf32>) {
  %zero = arith.constant 0.0 : f32
  %ninf = arith.constant 0xFF800000 : f32
  %sc = arith.constant 0.35 : f32
  %es = tensor.empty() : tensor<2x4x16x24xf32>
  %zs = linalg.fill ins(%zero : f32) outs(%es : tensor<2x4x16x24xf32>) -> tensor<2x4x16x24xf32>
  %s = linalg.generic {indexing_maps = [#qk, #kk, #sk], iterator_types = ["parallel", "parallel", "parallel", "parallel", "reduction"]} ins(%q, %k : tensor<2x4x16x8xf32>, tensor<2x4x24x8xf32>) outs(%zs : tensor<2x4x16x24xf32>) {
  ^bb0(%x: f32, %y: f32, %o: f32):
    %m0 = arith.mulf %x, %y : f32
    %r = arith.addf %o, %m0 : f32
    linalg.yield %r : f32
  } -> tensor<2x4x16x24xf32>
  %s1 = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%s : tensor<2x4x16x24xf32>) outs(%es : tensor<2x4x16x24xf32>) {
  ^bb0(%x: f32, %o: f32):
    %r = arith.mulf %x, %sc : f32
    linalg.yield %r : f32
  } -> tensor<2x4x16x24xf32>
  %mi = tensor.empty() : tensor<2x4x16xf32>
  %mf = linalg.fill ins(%ninf : f32) outs(%mi : tensor<2x4x16xf32>) -> tensor<2x4x16xf32>
  %m = linalg.generic {indexing_maps = [#id, #row], iterator_types = ["parallel", "parallel", "parallel", "reduction"]} ins(%s1 : tensor<2x4x16x24xf32>) outs(%mf : tensor<2x4x16xf32>) {
  ^bb0(%x: f32, %o: f32):
    %r = arith.maximumf %x, %o : f32
    linalg.yield %r : f32
  } -> tensor<2x4x16xf32>
  %sh = linalg.generic {indexing_maps = [#id, #row, #id], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%s1, %m : tensor<2x4x16x24xf32>, tensor<2x4x16xf32>) outs(%es : tensor<2x4x16x24xf32>) {
  ^bb0(%x: f32, %y: f32, %o: f32):
    %r = arith.subf %x, %y : f32
    linalg.yield %r : f32
  } -> tensor<2x4x16x24xf32>
  %p = linalg.softmax dimension(3) ins(%sh : tensor<2x4x16x24xf32>) outs(%es : tensor<2x4x16x24xf32>) -> tensor<2x4x16x24xf32>
  %eo = tensor.empty() : tensor<2x4x16x8xf32>
  %zo = linalg.fill ins(%zero : f32) outs(%eo : tensor<2x4x16x8xf32>) -> tensor<2x4x16x8xf32>
  %o = linalg.generic {indexing_maps = [#pv_p, #pv_v, #pv_o], iterator_types = ["parallel", "parallel", "parallel", "parallel", "reduction"]} ins(%p, %v : tensor<2x4x16x24xf32>, tensor<2x4x24x8xf32>) outs(%zo : tensor<2x4x16x8xf32>) {
  ^bb0(%x: f32, %y: f32, %acc: f32):
    %m0 = arith.mulf %x, %y : f32
    %r = arith.addf %acc, %m0 : f32
    linalg.yield %r : f32
  } -> tensor<2x4x16x8xf32>
  return %o, %s1 : tensor<2x4x16x8xf32>, tensor<2x4x16x24xf32>
}
