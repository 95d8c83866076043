// The safe softmax written by the user from the boolean mask,
// `p = where(keep.any(-1, keepdim=True), softmax(s.masked_fill(~keep, -inf)),
// 0)`: the rows it zeroes are those with no kept key, which attn.attention
// gives as 0 (docs/semantics.md §6), so the select and its any() become part
// of the chain. The torch-mlir exports are in torch-mlir/safe_softmax_*.mlir;
// these cases are hand-written: a constant mask with rows masked whole (so
// that the proof compares the zeroed rows, which a random mask at these
// lengths rarely has) and a -0.0 fill, the mask beside a second one, and
// near misses: a row flag that is no any() (a keep mask, left to dropout),
// and any() of the mask over the queries read as a row.
// RUN: attention-opt %s --attn-raise-pipeline | FileCheck %s
// RUN: attention-opt %s --attn-raise-pipeline=explain 2>&1 | FileCheck %s --check-prefix=EXPLAIN
// RUN: attn-raise-check %s --runs=2 --seed=51 | FileCheck %s --check-prefix=PROOF --implicit-check-not=FAIL
#qk_q = affine_map<(b, h, i, j, d) -> (b, h, i, d)>
#qk_k = affine_map<(b, h, i, j, d) -> (b, h, j, d)>
#qk_s = affine_map<(b, h, i, j, d) -> (b, h, i, j)>
#pv_p = affine_map<(b, h, i, d, j) -> (b, h, i, j)>
#pv_v = affine_map<(b, h, i, d, j) -> (b, h, j, d)>
#pv_o = affine_map<(b, h, i, d, j) -> (b, h, i, d)>
#id = affine_map<(b, h, i, j) -> (b, h, i, j)>
#row = affine_map<(b, h, i, j) -> (b, h, i)>
#keep = affine_map<(b, h, i, j) -> (b, 0, i, j)>
#pad = affine_map<(b, h, i, j) -> (b, 0, 0, j)>
#anyrow = affine_map<(b, h, i, j) -> (b, 0, i)>
#keep3 = affine_map<(b, h, i, j) -> (b, i, j)>
#id3 = affine_map<(b, x, y) -> (b, x, y)>
#cols = affine_map<(b, x, y) -> (b, y)>
#queryrow = affine_map<(b, h, i, j) -> (b, i)>
// Rows 1 and 3 of the mask keep no key: the chain zeroes them (with -0.0),
// and so does the op.
// CHECK-LABEL: func.func @zeroed_rows
// CHECK: attn.attention {{.*}} mask(%{{.*}} : tensor<1x1x4x3xi1>) {scale = 0.353553{{[0-9]*}} : f32}
// CHECK-NOT: linalg.
// PROOF: @zeroed_rows: 1 attn.attention after the raising
// PROOF: run 0 result 0 {{.*}}: PASS
// PROOF: run 1 result 0 {{.*}}: PASS
func.func @zeroed_rows(%q: tensor<1x2x4x8xf32>, %k: tensor<1x2x3x8xf32>, %v: tensor<1x2x3x8xf32>) -> tensor<1x2x4x8xf32> {
  %keep = arith.constant dense<[[[[true, false, true], [false, false, false], [false, true, false], [false, false, false]]]]> : tensor<1x1x4x3xi1>
  %nzero = arith.constant -0.0 : f32
  %zero = arith.constant 0.0 : f32
  %ninf = arith.constant 0xFF800000 : f32
  %c = arith.constant 0.353553385 : f32
  %es = tensor.empty() : tensor<1x2x4x3xf32>
  %zs = linalg.fill ins(%zero : f32) outs(%es : tensor<1x2x4x3xf32>) -> tensor<1x2x4x3xf32>
  %s0 = linalg.generic {indexing_maps = [#qk_q, #qk_k, #qk_s], iterator_types = ["parallel", "parallel", "parallel", "parallel", "reduction"]} ins(%q, %k : tensor<1x2x4x8xf32>, tensor<1x2x3x8xf32>) outs(%zs : tensor<1x2x4x3xf32>) {
  ^bb0(%a: f32, %b: f32, %acc: f32):
    %m = arith.mulf %a, %b : f32
    %r = arith.addf %acc, %m : f32
    linalg.yield %r : f32
  } -> tensor<1x2x4x3xf32>
  %s1 = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%s0 : tensor<1x2x4x3xf32>) outs(%es : tensor<1x2x4x3xf32>) {
  ^bb0(%x: f32, %o: f32):
    %r = arith.mulf %x, %c : f32
    linalg.yield %r : f32
  } -> tensor<1x2x4x3xf32>
  %s2 = linalg.generic {indexing_maps = [#keep, #id, #id], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%keep, %s1 : tensor<1x1x4x3xi1>, tensor<1x2x4x3xf32>) outs(%es : tensor<1x2x4x3xf32>) {
  ^bb0(%m: i1, %x: f32, %o: f32):
    %r = arith.select %m, %x, %ninf : f32
    linalg.yield %r : f32
  } -> tensor<1x2x4x3xf32>
  %er = tensor.empty() : tensor<1x2x4xf32>
  %fm = linalg.fill ins(%ninf : f32) outs(%er : tensor<1x2x4xf32>) -> tensor<1x2x4xf32>
  %mx = linalg.generic {indexing_maps = [#id, #row], iterator_types = ["parallel", "parallel", "parallel", "reduction"]} ins(%s2 : tensor<1x2x4x3xf32>) outs(%fm : tensor<1x2x4xf32>) {
  ^bb0(%x: f32, %a: f32):
    %r = arith.maximumf %x, %a : f32
    linalg.yield %r : f32
  } -> tensor<1x2x4xf32>
  %sh = linalg.generic {indexing_maps = [#id, #row, #id], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%s2, %mx : tensor<1x2x4x3xf32>, tensor<1x2x4xf32>) outs(%es : tensor<1x2x4x3xf32>) {
  ^bb0(%x: f32, %y: f32, %o: f32):
    %r = arith.subf %x, %y : f32
    linalg.yield %r : f32
  } -> tensor<1x2x4x3xf32>
  %e = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%sh : tensor<1x2x4x3xf32>) outs(%es : tensor<1x2x4x3xf32>) {
  ^bb0(%x: f32, %o: f32):
    %r = math.exp %x : f32
    linalg.yield %r : f32
  } -> tensor<1x2x4x3xf32>
  %fz = linalg.fill ins(%zero : f32) outs(%er : tensor<1x2x4xf32>) -> tensor<1x2x4xf32>
  %l = linalg.generic {indexing_maps = [#id, #row], iterator_types = ["parallel", "parallel", "parallel", "reduction"]} ins(%e : tensor<1x2x4x3xf32>) outs(%fz : tensor<1x2x4xf32>) {
  ^bb0(%x: f32, %a: f32):
    %r = arith.addf %x, %a : f32
    linalg.yield %r : f32
  } -> tensor<1x2x4xf32>
  %p = linalg.generic {indexing_maps = [#id, #row, #id], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%e, %l : tensor<1x2x4x3xf32>, tensor<1x2x4xf32>) outs(%es : tensor<1x2x4x3xf32>) {
  ^bb0(%x: f32, %y: f32, %o: f32):
    %r = arith.divf %x, %y : f32
    linalg.yield %r : f32
  } -> tensor<1x2x4x3xf32>
  %false = arith.constant false
  %eb = tensor.empty() : tensor<1x1x4xi1>
  %fb = linalg.fill ins(%false : i1) outs(%eb : tensor<1x1x4xi1>) -> tensor<1x1x4xi1>
  %any = linalg.generic {indexing_maps = [#id, #row], iterator_types = ["parallel", "parallel", "parallel", "reduction"]} ins(%keep : tensor<1x1x4x3xi1>) outs(%fb : tensor<1x1x4xi1>) {
  ^bb0(%m: i1, %a: i1):
    %r = arith.ori %m, %a : i1
    linalg.yield %r : i1
  } -> tensor<1x1x4xi1>
  %pz = linalg.generic {indexing_maps = [#anyrow, #id, #id], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%any, %p : tensor<1x1x4xi1>, tensor<1x2x4x3xf32>) outs(%es : tensor<1x2x4x3xf32>) {
  ^bb0(%m: i1, %x: f32, %o: f32):
    %r = arith.select %m, %x, %nzero : f32
    linalg.yield %r : f32
  } -> tensor<1x2x4x3xf32>
  %eo = tensor.empty() : tensor<1x2x4x8xf32>
  %zo = linalg.fill ins(%zero : f32) outs(%eo : tensor<1x2x4x8xf32>) -> tensor<1x2x4x8xf32>
  %o = linalg.generic {indexing_maps = [#pv_p, #pv_v, #pv_o], iterator_types = ["parallel", "parallel", "parallel", "parallel", "reduction"]} ins(%pz, %v : tensor<1x2x4x3xf32>, tensor<1x2x3x8xf32>) outs(%zo : tensor<1x2x4x8xf32>) {
  ^bb0(%a: f32, %b: f32, %acc: f32):
    %m = arith.mulf %a, %b : f32
    %r = arith.addf %acc, %m : f32
    linalg.yield %r : f32
  } -> tensor<1x2x4x8xf32>
  return %o : tensor<1x2x4x8xf32>
}

// The mask beside a padding mask (the op's mask is their combination): the
// rows any(keep) zeroes keep no key in it either.
// CHECK-LABEL: func.func @beside_padding
// CHECK: attn.attention {{.*}} mask(%{{.*}} : tensor<1x1x4x3xi1>) {scale = 0.353553{{[0-9]*}} : f32}
// CHECK-NOT: linalg.generic
// PROOF: @beside_padding: 1 attn.attention after the raising
// PROOF: run 0 result 0 {{.*}}: PASS
// PROOF: run 1 result 0 {{.*}}: PASS
func.func @beside_padding(%q: tensor<1x2x4x8xf32>, %k: tensor<1x2x3x8xf32>, %v: tensor<1x2x3x8xf32>, %keep: tensor<1x1x4x3xi1>, %pad: tensor<1x1x1x3xi1>) -> tensor<1x2x4x8xf32> {
  %zero = arith.constant 0.0 : f32
  %ninf = arith.constant 0xFF800000 : f32
  %c = arith.constant 0.353553385 : f32
  %es = tensor.empty() : tensor<1x2x4x3xf32>
  %zs = linalg.fill ins(%zero : f32) outs(%es : tensor<1x2x4x3xf32>) -> tensor<1x2x4x3xf32>
  %s0 = linalg.generic {indexing_maps = [#qk_q, #qk_k, #qk_s], iterator_types = ["parallel", "parallel", "parallel", "parallel", "reduction"]} ins(%q, %k : tensor<1x2x4x8xf32>, tensor<1x2x3x8xf32>) outs(%zs : tensor<1x2x4x3xf32>) {
  ^bb0(%a: f32, %b: f32, %acc: f32):
    %m = arith.mulf %a, %b : f32
    %r = arith.addf %acc, %m : f32
    linalg.yield %r : f32
  } -> tensor<1x2x4x3xf32>
  %s1 = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%s0 : tensor<1x2x4x3xf32>) outs(%es : tensor<1x2x4x3xf32>) {
  ^bb0(%x: f32, %o: f32):
    %r = arith.mulf %x, %c : f32
    linalg.yield %r : f32
  } -> tensor<1x2x4x3xf32>
  %s2 = linalg.generic {indexing_maps = [#keep, #id, #id], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%keep, %s1 : tensor<1x1x4x3xi1>, tensor<1x2x4x3xf32>) outs(%es : tensor<1x2x4x3xf32>) {
  ^bb0(%m: i1, %x: f32, %o: f32):
    %r = arith.select %m, %x, %ninf : f32
    linalg.yield %r : f32
  } -> tensor<1x2x4x3xf32>
  %s3 = linalg.generic {indexing_maps = [#pad, #id, #id], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%pad, %s2 : tensor<1x1x1x3xi1>, tensor<1x2x4x3xf32>) outs(%es : tensor<1x2x4x3xf32>) {
  ^bb0(%m: i1, %x: f32, %o: f32):
    %r = arith.select %m, %x, %ninf : f32
    linalg.yield %r : f32
  } -> tensor<1x2x4x3xf32>
  %er = tensor.empty() : tensor<1x2x4xf32>
  %fm = linalg.fill ins(%ninf : f32) outs(%er : tensor<1x2x4xf32>) -> tensor<1x2x4xf32>
  %mx = linalg.generic {indexing_maps = [#id, #row], iterator_types = ["parallel", "parallel", "parallel", "reduction"]} ins(%s3 : tensor<1x2x4x3xf32>) outs(%fm : tensor<1x2x4xf32>) {
  ^bb0(%x: f32, %a: f32):
    %r = arith.maximumf %x, %a : f32
    linalg.yield %r : f32
  } -> tensor<1x2x4xf32>
  %sh = linalg.generic {indexing_maps = [#id, #row, #id], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%s3, %mx : tensor<1x2x4x3xf32>, tensor<1x2x4xf32>) outs(%es : tensor<1x2x4x3xf32>) {
  ^bb0(%x: f32, %y: f32, %o: f32):
    %r = arith.subf %x, %y : f32
    linalg.yield %r : f32
  } -> tensor<1x2x4x3xf32>
  %e = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%sh : tensor<1x2x4x3xf32>) outs(%es : tensor<1x2x4x3xf32>) {
  ^bb0(%x: f32, %o: f32):
    %r = math.exp %x : f32
    linalg.yield %r : f32
  } -> tensor<1x2x4x3xf32>
  %fz = linalg.fill ins(%zero : f32) outs(%er : tensor<1x2x4xf32>) -> tensor<1x2x4xf32>
  %l = linalg.generic {indexing_maps = [#id, #row], iterator_types = ["parallel", "parallel", "parallel", "reduction"]} ins(%e : tensor<1x2x4x3xf32>) outs(%fz : tensor<1x2x4xf32>) {
  ^bb0(%x: f32, %a: f32):
    %r = arith.addf %x, %a : f32
    linalg.yield %r : f32
  } -> tensor<1x2x4xf32>
  %p = linalg.generic {indexing_maps = [#id, #row, #id], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%e, %l : tensor<1x2x4x3xf32>, tensor<1x2x4xf32>) outs(%es : tensor<1x2x4x3xf32>) {
  ^bb0(%x: f32, %y: f32, %o: f32):
    %r = arith.divf %x, %y : f32
    linalg.yield %r : f32
  } -> tensor<1x2x4x3xf32>
  %false = arith.constant false
  %eb = tensor.empty() : tensor<1x1x4xi1>
  %fb = linalg.fill ins(%false : i1) outs(%eb : tensor<1x1x4xi1>) -> tensor<1x1x4xi1>
  %any = linalg.generic {indexing_maps = [#id, #row], iterator_types = ["parallel", "parallel", "parallel", "reduction"]} ins(%keep : tensor<1x1x4x3xi1>) outs(%fb : tensor<1x1x4xi1>) {
  ^bb0(%m: i1, %a: i1):
    %r = arith.ori %m, %a : i1
    linalg.yield %r : i1
  } -> tensor<1x1x4xi1>
  %pz = linalg.generic {indexing_maps = [#anyrow, #id, #id], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%any, %p : tensor<1x1x4xi1>, tensor<1x2x4x3xf32>) outs(%es : tensor<1x2x4x3xf32>) {
  ^bb0(%m: i1, %x: f32, %o: f32):
    %r = arith.select %m, %x, %zero : f32
    linalg.yield %r : f32
  } -> tensor<1x2x4x3xf32>
  %eo = tensor.empty() : tensor<1x2x4x8xf32>
  %zo = linalg.fill ins(%zero : f32) outs(%eo : tensor<1x2x4x8xf32>) -> tensor<1x2x4x8xf32>
  %o = linalg.generic {indexing_maps = [#pv_p, #pv_v, #pv_o], iterator_types = ["parallel", "parallel", "parallel", "parallel", "reduction"]} ins(%pz, %v : tensor<1x2x4x3xf32>, tensor<1x2x3x8xf32>) outs(%zo : tensor<1x2x4x8xf32>) {
  ^bb0(%a: f32, %b: f32, %acc: f32):
    %m = arith.mulf %a, %b : f32
    %r = arith.addf %acc, %m : f32
    linalg.yield %r : f32
  } -> tensor<1x2x4x8xf32>
  return %o : tensor<1x2x4x8xf32>
}

// A row flag that is no reduction is a keep mask, which dropout would scale
// by 1/(1 - p) (a row dropout is raised so): unscaled, it stays a chain.
// CHECK-LABEL: func.func @row_flag
// CHECK-NOT: attn.attention
// EXPLAIN: remark: attn-fuse: not fused: dropout: the kept probabilities are scaled by 1, which is not 1/(1 - p)
// PROOF: @row_flag: 0 attn.attention after the raising
// PROOF: run 0 result 0 {{.*}}: PASS
func.func @row_flag(%q: tensor<1x2x4x8xf32>, %k: tensor<1x2x3x8xf32>, %v: tensor<1x2x3x8xf32>, %keep: tensor<1x1x4x3xi1>, %flag: tensor<1x2x4xi1>) -> tensor<1x2x4x8xf32> {
  %zero = arith.constant 0.0 : f32
  %ninf = arith.constant 0xFF800000 : f32
  %c = arith.constant 0.353553385 : f32
  %es = tensor.empty() : tensor<1x2x4x3xf32>
  %zs = linalg.fill ins(%zero : f32) outs(%es : tensor<1x2x4x3xf32>) -> tensor<1x2x4x3xf32>
  %s0 = linalg.generic {indexing_maps = [#qk_q, #qk_k, #qk_s], iterator_types = ["parallel", "parallel", "parallel", "parallel", "reduction"]} ins(%q, %k : tensor<1x2x4x8xf32>, tensor<1x2x3x8xf32>) outs(%zs : tensor<1x2x4x3xf32>) {
  ^bb0(%a: f32, %b: f32, %acc: f32):
    %m = arith.mulf %a, %b : f32
    %r = arith.addf %acc, %m : f32
    linalg.yield %r : f32
  } -> tensor<1x2x4x3xf32>
  %s1 = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%s0 : tensor<1x2x4x3xf32>) outs(%es : tensor<1x2x4x3xf32>) {
  ^bb0(%x: f32, %o: f32):
    %r = arith.mulf %x, %c : f32
    linalg.yield %r : f32
  } -> tensor<1x2x4x3xf32>
  %s2 = linalg.generic {indexing_maps = [#keep, #id, #id], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%keep, %s1 : tensor<1x1x4x3xi1>, tensor<1x2x4x3xf32>) outs(%es : tensor<1x2x4x3xf32>) {
  ^bb0(%m: i1, %x: f32, %o: f32):
    %r = arith.select %m, %x, %ninf : f32
    linalg.yield %r : f32
  } -> tensor<1x2x4x3xf32>
  %er = tensor.empty() : tensor<1x2x4xf32>
  %fm = linalg.fill ins(%ninf : f32) outs(%er : tensor<1x2x4xf32>) -> tensor<1x2x4xf32>
  %mx = linalg.generic {indexing_maps = [#id, #row], iterator_types = ["parallel", "parallel", "parallel", "reduction"]} ins(%s2 : tensor<1x2x4x3xf32>) outs(%fm : tensor<1x2x4xf32>) {
  ^bb0(%x: f32, %a: f32):
    %r = arith.maximumf %x, %a : f32
    linalg.yield %r : f32
  } -> tensor<1x2x4xf32>
  %sh = linalg.generic {indexing_maps = [#id, #row, #id], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%s2, %mx : tensor<1x2x4x3xf32>, tensor<1x2x4xf32>) outs(%es : tensor<1x2x4x3xf32>) {
  ^bb0(%x: f32, %y: f32, %o: f32):
    %r = arith.subf %x, %y : f32
    linalg.yield %r : f32
  } -> tensor<1x2x4x3xf32>
  %e = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%sh : tensor<1x2x4x3xf32>) outs(%es : tensor<1x2x4x3xf32>) {
  ^bb0(%x: f32, %o: f32):
    %r = math.exp %x : f32
    linalg.yield %r : f32
  } -> tensor<1x2x4x3xf32>
  %fz = linalg.fill ins(%zero : f32) outs(%er : tensor<1x2x4xf32>) -> tensor<1x2x4xf32>
  %l = linalg.generic {indexing_maps = [#id, #row], iterator_types = ["parallel", "parallel", "parallel", "reduction"]} ins(%e : tensor<1x2x4x3xf32>) outs(%fz : tensor<1x2x4xf32>) {
  ^bb0(%x: f32, %a: f32):
    %r = arith.addf %x, %a : f32
    linalg.yield %r : f32
  } -> tensor<1x2x4xf32>
  %p = linalg.generic {indexing_maps = [#id, #row, #id], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%e, %l : tensor<1x2x4x3xf32>, tensor<1x2x4xf32>) outs(%es : tensor<1x2x4x3xf32>) {
  ^bb0(%x: f32, %y: f32, %o: f32):
    %r = arith.divf %x, %y : f32
    linalg.yield %r : f32
  } -> tensor<1x2x4x3xf32>
  %pz = linalg.generic {indexing_maps = [#row, #id, #id], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%flag, %p : tensor<1x2x4xi1>, tensor<1x2x4x3xf32>) outs(%es : tensor<1x2x4x3xf32>) {
  ^bb0(%m: i1, %x: f32, %o: f32):
    %r = arith.select %m, %x, %zero : f32
    linalg.yield %r : f32
  } -> tensor<1x2x4x3xf32>
  %eo = tensor.empty() : tensor<1x2x4x8xf32>
  %zo = linalg.fill ins(%zero : f32) outs(%eo : tensor<1x2x4x8xf32>) -> tensor<1x2x4x8xf32>
  %o = linalg.generic {indexing_maps = [#pv_p, #pv_v, #pv_o], iterator_types = ["parallel", "parallel", "parallel", "parallel", "reduction"]} ins(%pz, %v : tensor<1x2x4x3xf32>, tensor<1x2x3x8xf32>) outs(%zo : tensor<1x2x4x8xf32>) {
  ^bb0(%a: f32, %b: f32, %acc: f32):
    %m = arith.mulf %a, %b : f32
    %r = arith.addf %acc, %m : f32
    linalg.yield %r : f32
  } -> tensor<1x2x4x8xf32>
  return %o : tensor<1x2x4x8xf32>
}

// any() of the mask over the queries, read as a row flag (keep[b, i', i]
// for query i): the mask read transposed, not the op's rows.
// CHECK-LABEL: func.func @any_over_queries_as_rows
// CHECK-NOT: attn.attention
// EXPLAIN: remark: attn-fuse: not fused: a select zeroes the rows of the probabilities where any() of a boolean tensor over the keys is false, and that tensor is not the boolean mask that excludes the scores
// PROOF: @any_over_queries_as_rows: 0 attn.attention after the raising
// PROOF: run 0 result 0 {{.*}}: PASS
func.func @any_over_queries_as_rows(%q: tensor<1x2x4x8xf32>, %k: tensor<1x2x4x8xf32>, %v: tensor<1x2x4x8xf32>, %keep: tensor<1x4x4xi1>) -> tensor<1x2x4x8xf32> {
  %zero = arith.constant 0.0 : f32
  %ninf = arith.constant 0xFF800000 : f32
  %c = arith.constant 0.353553385 : f32
  %es = tensor.empty() : tensor<1x2x4x4xf32>
  %zs = linalg.fill ins(%zero : f32) outs(%es : tensor<1x2x4x4xf32>) -> tensor<1x2x4x4xf32>
  %s0 = linalg.generic {indexing_maps = [#qk_q, #qk_k, #qk_s], iterator_types = ["parallel", "parallel", "parallel", "parallel", "reduction"]} ins(%q, %k : tensor<1x2x4x8xf32>, tensor<1x2x4x8xf32>) outs(%zs : tensor<1x2x4x4xf32>) {
  ^bb0(%a: f32, %b: f32, %acc: f32):
    %m = arith.mulf %a, %b : f32
    %r = arith.addf %acc, %m : f32
    linalg.yield %r : f32
  } -> tensor<1x2x4x4xf32>
  %s1 = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%s0 : tensor<1x2x4x4xf32>) outs(%es : tensor<1x2x4x4xf32>) {
  ^bb0(%x: f32, %o: f32):
    %r = arith.mulf %x, %c : f32
    linalg.yield %r : f32
  } -> tensor<1x2x4x4xf32>
  %s2 = linalg.generic {indexing_maps = [#keep3, #id, #id], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%keep, %s1 : tensor<1x4x4xi1>, tensor<1x2x4x4xf32>) outs(%es : tensor<1x2x4x4xf32>) {
  ^bb0(%m: i1, %x: f32, %o: f32):
    %r = arith.select %m, %x, %ninf : f32
    linalg.yield %r : f32
  } -> tensor<1x2x4x4xf32>
  %er = tensor.empty() : tensor<1x2x4xf32>
  %fm = linalg.fill ins(%ninf : f32) outs(%er : tensor<1x2x4xf32>) -> tensor<1x2x4xf32>
  %mx = linalg.generic {indexing_maps = [#id, #row], iterator_types = ["parallel", "parallel", "parallel", "reduction"]} ins(%s2 : tensor<1x2x4x4xf32>) outs(%fm : tensor<1x2x4xf32>) {
  ^bb0(%x: f32, %a: f32):
    %r = arith.maximumf %x, %a : f32
    linalg.yield %r : f32
  } -> tensor<1x2x4xf32>
  %sh = linalg.generic {indexing_maps = [#id, #row, #id], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%s2, %mx : tensor<1x2x4x4xf32>, tensor<1x2x4xf32>) outs(%es : tensor<1x2x4x4xf32>) {
  ^bb0(%x: f32, %y: f32, %o: f32):
    %r = arith.subf %x, %y : f32
    linalg.yield %r : f32
  } -> tensor<1x2x4x4xf32>
  %e = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%sh : tensor<1x2x4x4xf32>) outs(%es : tensor<1x2x4x4xf32>) {
  ^bb0(%x: f32, %o: f32):
    %r = math.exp %x : f32
    linalg.yield %r : f32
  } -> tensor<1x2x4x4xf32>
  %fz = linalg.fill ins(%zero : f32) outs(%er : tensor<1x2x4xf32>) -> tensor<1x2x4xf32>
  %l = linalg.generic {indexing_maps = [#id, #row], iterator_types = ["parallel", "parallel", "parallel", "reduction"]} ins(%e : tensor<1x2x4x4xf32>) outs(%fz : tensor<1x2x4xf32>) {
  ^bb0(%x: f32, %a: f32):
    %r = arith.addf %x, %a : f32
    linalg.yield %r : f32
  } -> tensor<1x2x4xf32>
  %p = linalg.generic {indexing_maps = [#id, #row, #id], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%e, %l : tensor<1x2x4x4xf32>, tensor<1x2x4xf32>) outs(%es : tensor<1x2x4x4xf32>) {
  ^bb0(%x: f32, %y: f32, %o: f32):
    %r = arith.divf %x, %y : f32
    linalg.yield %r : f32
  } -> tensor<1x2x4x4xf32>
  %false = arith.constant false
  %eb = tensor.empty() : tensor<1x4xi1>
  %fb = linalg.fill ins(%false : i1) outs(%eb : tensor<1x4xi1>) -> tensor<1x4xi1>
  %any = linalg.generic {indexing_maps = [#id3, #cols], iterator_types = ["parallel", "reduction", "parallel"]} ins(%keep : tensor<1x4x4xi1>) outs(%fb : tensor<1x4xi1>) {
  ^bb0(%m: i1, %a: i1):
    %r = arith.ori %m, %a : i1
    linalg.yield %r : i1
  } -> tensor<1x4xi1>
  %pz = linalg.generic {indexing_maps = [#queryrow, #id, #id], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%any, %p : tensor<1x4xi1>, tensor<1x2x4x4xf32>) outs(%es : tensor<1x2x4x4xf32>) {
  ^bb0(%m: i1, %x: f32, %o: f32):
    %r = arith.select %m, %x, %zero : f32
    linalg.yield %r : f32
  } -> tensor<1x2x4x4xf32>
  %eo = tensor.empty() : tensor<1x2x4x8xf32>
  %zo = linalg.fill ins(%zero : f32) outs(%eo : tensor<1x2x4x8xf32>) -> tensor<1x2x4x8xf32>
  %o = linalg.generic {indexing_maps = [#pv_p, #pv_v, #pv_o], iterator_types = ["parallel", "parallel", "parallel", "parallel", "reduction"]} ins(%pz, %v : tensor<1x2x4x4xf32>, tensor<1x2x4x8xf32>) outs(%zo : tensor<1x2x4x8xf32>) {
  ^bb0(%a: f32, %b: f32, %acc: f32):
    %m = arith.mulf %a, %b : f32
    %r = arith.addf %acc, %m : f32
    linalg.yield %r : f32
  } -> tensor<1x2x4x8xf32>
  return %o : tensor<1x2x4x8xf32>
}
