// RUN: attention-opt %s -split-input-file --attn-fuse="explain" -verify-diagnostics | FileCheck %s
// RUN: attn-raise-check %s --runs=2 --seed=31 --pipeline=attn-fuse | FileCheck %s --check-prefix=PROOF --implicit-check-not=FAIL

// attn-fuse with two mask tensors on one chain: the op has one mask
// operand, so the rewrite combines them into one tensor at the broadcast of
// their shapes (RewriteAttentionChain.cpp, combineMasks): a keep mask and a
// bias give select(keep, bias, -inf), two biases their f32 sum, two keep
// masks their `and`. Scores 4x6x10 (B*H = 4, Lq = 6, Lk = 10), D = 8,
// Dv = 5. The proof (attn-raise-check) runs each function before and after the
// fusion against the chain in float64.

// A keep mask over [B*H, Lk] (padding) applied after a bias over [Lq, Lk]
// (ALiBi-like): select(keep, s + bias, -inf).
// CHECK-LABEL: func @keep_mask_and_bias
// CHECK: %[[B:.*]] = tensor.expand_shape %arg4 {{.*}} into tensor<1x1x6x10xf32>
// CHECK: %[[M:.*]] = tensor.expand_shape %arg3 {{.*}} into tensor<1x4x1x10xi1>
// CHECK: %[[C:.*]] = linalg.generic {{.*}} ins(%[[M]], %[[B]] : tensor<1x4x1x10xi1>, tensor<1x1x6x10xf32>) outs({{.*}} : tensor<1x4x6x10xf32>)
// CHECK: arith.select %{{.*}}, %{{.*}}, %{{.*}} : f32
// CHECK: attn.attention ins({{.*}}) mask(%[[C]] : tensor<1x4x6x10xf32>) {scale = 1.250000e-01 : f32}
// PROOF: @keep_mask_and_bias: 1 attn.attention after the raising
// PROOF: run 1 result 0 {{.*}}: PASS
func.func @keep_mask_and_bias(%q: tensor<4x6x8xf32>, %k: tensor<4x10x8xf32>, %v: tensor<4x10x5xf32>, %sm_t: tensor<4x10xi1>, %sb_t: tensor<6x10xf32>) -> tensor<4x6x5xf32> {
  %zero = arith.constant 0.0 : f32
  %ninf = arith.constant 0xFF800000 : f32
  %es = tensor.empty() : tensor<4x6x10xf32>
  %zs = linalg.fill ins(%zero : f32) outs(%es : tensor<4x6x10xf32>) -> tensor<4x6x10xf32>
  %s = linalg.batch_matmul indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d0, d1, d3)>, affine_map<(d0, d1, d2, d3) -> (d0, d2, d3)>, affine_map<(d0, d1, d2, d3) -> (d0, d1, d2)>] ins(%q, %k : tensor<4x6x8xf32>, tensor<4x10x8xf32>) outs(%zs : tensor<4x6x10xf32>) -> tensor<4x6x10xf32>
  %ss = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d1, d2)>, affine_map<(d0, d1, d2) -> (d0, d1, d2)>], iterator_types = ["parallel", "parallel", "parallel"]} ins(%s : tensor<4x6x10xf32>) outs(%es : tensor<4x6x10xf32>) {
  ^bb0(%x: f32, %o: f32):
    %c = arith.constant 0.125 : f32
    %m = arith.mulf %x, %c : f32
    linalg.yield %m : f32
  } -> tensor<4x6x10xf32>
  %sb = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d1, d2)>, affine_map<(d0, d1, d2) -> (d1, d2)>, affine_map<(d0, d1, d2) -> (d0, d1, d2)>], iterator_types = ["parallel", "parallel", "parallel"]} ins(%ss, %sb_t : tensor<4x6x10xf32>, tensor<6x10xf32>) outs(%es : tensor<4x6x10xf32>) {
  ^bb0(%x: f32, %b: f32, %o: f32):
    %r = arith.addf %x, %b : f32
    linalg.yield %r : f32
  } -> tensor<4x6x10xf32>
  %sm = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d2)>, affine_map<(d0, d1, d2) -> (d0, d1, d2)>, affine_map<(d0, d1, d2) -> (d0, d1, d2)>], iterator_types = ["parallel", "parallel", "parallel"]} ins(%sm_t, %sb : tensor<4x10xi1>, tensor<4x6x10xf32>) outs(%es : tensor<4x6x10xf32>) {
  ^bb0(%m: i1, %x: f32, %o: f32):
    %r = arith.select %m, %x, %ninf : f32
    linalg.yield %r : f32
  } -> tensor<4x6x10xf32>
  %p = linalg.softmax dimension(2) ins(%sm : tensor<4x6x10xf32>) outs(%es : tensor<4x6x10xf32>) -> tensor<4x6x10xf32>
  %eo = tensor.empty() : tensor<4x6x5xf32>
  %zo = linalg.fill ins(%zero : f32) outs(%eo : tensor<4x6x5xf32>) -> tensor<4x6x5xf32>
  %o = linalg.batch_matmul ins(%p, %v : tensor<4x6x10xf32>, tensor<4x10x5xf32>) outs(%zo : tensor<4x6x5xf32>) -> tensor<4x6x5xf32>
  return %o : tensor<4x6x5xf32>
}

// An exclusion mask (true = excluded) before the scale and a bias after
// it (GPT-NeoX writes where(causal, s, min) + padding): the mask is
// negated, then combined.
// CHECK-LABEL: func @bias_after_keep_mask
// CHECK: arith.xori
// CHECK: linalg.generic {{.*}} ins(%{{.*}}, %{{.*}} : tensor<1x4x1x10xf32>, tensor<1x4x6x10xi1>) outs({{.*}} : tensor<1x4x6x10xf32>)
// CHECK: arith.select %{{.*}}, %{{.*}}, %{{.*}} : f32
// CHECK: attn.attention ins({{.*}}) mask(%{{.*}} : tensor<1x4x6x10xf32>) {scale = 1.250000e-01 : f32}
// PROOF: @bias_after_keep_mask: 1 attn.attention after the raising
// PROOF: run 1 result 0 {{.*}}: PASS
func.func @bias_after_keep_mask(%q: tensor<4x6x8xf32>, %k: tensor<4x10x8xf32>, %v: tensor<4x10x5xf32>, %sm_t: tensor<4x6x10xi1>, %sb_t: tensor<4x10xf32>) -> tensor<4x6x5xf32> {
  %zero = arith.constant 0.0 : f32
  %ninf = arith.constant 0xFF800000 : f32
  %es = tensor.empty() : tensor<4x6x10xf32>
  %zs = linalg.fill ins(%zero : f32) outs(%es : tensor<4x6x10xf32>) -> tensor<4x6x10xf32>
  %s = linalg.batch_matmul indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d0, d1, d3)>, affine_map<(d0, d1, d2, d3) -> (d0, d2, d3)>, affine_map<(d0, d1, d2, d3) -> (d0, d1, d2)>] ins(%q, %k : tensor<4x6x8xf32>, tensor<4x10x8xf32>) outs(%zs : tensor<4x6x10xf32>) -> tensor<4x6x10xf32>
  %sm = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d1, d2)>, affine_map<(d0, d1, d2) -> (d0, d1, d2)>, affine_map<(d0, d1, d2) -> (d0, d1, d2)>], iterator_types = ["parallel", "parallel", "parallel"]} ins(%sm_t, %s : tensor<4x6x10xi1>, tensor<4x6x10xf32>) outs(%es : tensor<4x6x10xf32>) {
  ^bb0(%m: i1, %x: f32, %o: f32):
    %r = arith.select %m, %ninf, %x : f32
    linalg.yield %r : f32
  } -> tensor<4x6x10xf32>
  %ss = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d1, d2)>, affine_map<(d0, d1, d2) -> (d0, d1, d2)>], iterator_types = ["parallel", "parallel", "parallel"]} ins(%sm : tensor<4x6x10xf32>) outs(%es : tensor<4x6x10xf32>) {
  ^bb0(%x: f32, %o: f32):
    %c = arith.constant 0.125 : f32
    %m = arith.mulf %x, %c : f32
    linalg.yield %m : f32
  } -> tensor<4x6x10xf32>
  %sb = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d1, d2)>, affine_map<(d0, d1, d2) -> (d0, d2)>, affine_map<(d0, d1, d2) -> (d0, d1, d2)>], iterator_types = ["parallel", "parallel", "parallel"]} ins(%ss, %sb_t : tensor<4x6x10xf32>, tensor<4x10xf32>) outs(%es : tensor<4x6x10xf32>) {
  ^bb0(%x: f32, %b: f32, %o: f32):
    %r = arith.addf %x, %b : f32
    linalg.yield %r : f32
  } -> tensor<4x6x10xf32>
  %p = linalg.softmax dimension(2) ins(%sb : tensor<4x6x10xf32>) outs(%es : tensor<4x6x10xf32>) -> tensor<4x6x10xf32>
  %eo = tensor.empty() : tensor<4x6x5xf32>
  %zo = linalg.fill ins(%zero : f32) outs(%eo : tensor<4x6x5xf32>) -> tensor<4x6x5xf32>
  %o = linalg.batch_matmul ins(%p, %v : tensor<4x6x10xf32>, tensor<4x10x5xf32>) outs(%zo : tensor<4x6x5xf32>) -> tensor<4x6x5xf32>
  return %o : tensor<4x6x5xf32>
}

// Two bias tensors added one after the other (T5's position bias and a
// padding bias, CLIP's causal and padding masks as inputs): their sum.
// CHECK-LABEL: func @two_biases
// CHECK: linalg.generic {{.*}} ins(%{{.*}}, %{{.*}} : tensor<1x4x1x10xf32>, tensor<1x1x6x10xf32>) outs({{.*}} : tensor<1x4x6x10xf32>)
// CHECK: arith.addf %{{.*}}, %{{.*}} : f32
// CHECK: attn.attention ins({{.*}}) mask(%{{.*}} : tensor<1x4x6x10xf32>) {scale = 1.250000e-01 : f32}
// PROOF: @two_biases: 1 attn.attention after the raising
// PROOF: run 1 result 0 {{.*}}: PASS
func.func @two_biases(%q: tensor<4x6x8xf32>, %k: tensor<4x10x8xf32>, %v: tensor<4x10x5xf32>, %sa_t: tensor<6x10xf32>, %sb_t: tensor<4x10xf32>) -> tensor<4x6x5xf32> {
  %zero = arith.constant 0.0 : f32
  %ninf = arith.constant 0xFF800000 : f32
  %es = tensor.empty() : tensor<4x6x10xf32>
  %zs = linalg.fill ins(%zero : f32) outs(%es : tensor<4x6x10xf32>) -> tensor<4x6x10xf32>
  %s = linalg.batch_matmul indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d0, d1, d3)>, affine_map<(d0, d1, d2, d3) -> (d0, d2, d3)>, affine_map<(d0, d1, d2, d3) -> (d0, d1, d2)>] ins(%q, %k : tensor<4x6x8xf32>, tensor<4x10x8xf32>) outs(%zs : tensor<4x6x10xf32>) -> tensor<4x6x10xf32>
  %ss = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d1, d2)>, affine_map<(d0, d1, d2) -> (d0, d1, d2)>], iterator_types = ["parallel", "parallel", "parallel"]} ins(%s : tensor<4x6x10xf32>) outs(%es : tensor<4x6x10xf32>) {
  ^bb0(%x: f32, %o: f32):
    %c = arith.constant 0.125 : f32
    %m = arith.mulf %x, %c : f32
    linalg.yield %m : f32
  } -> tensor<4x6x10xf32>
  %sa = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d1, d2)>, affine_map<(d0, d1, d2) -> (d1, d2)>, affine_map<(d0, d1, d2) -> (d0, d1, d2)>], iterator_types = ["parallel", "parallel", "parallel"]} ins(%ss, %sa_t : tensor<4x6x10xf32>, tensor<6x10xf32>) outs(%es : tensor<4x6x10xf32>) {
  ^bb0(%x: f32, %b: f32, %o: f32):
    %r = arith.addf %x, %b : f32
    linalg.yield %r : f32
  } -> tensor<4x6x10xf32>
  %sb = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d1, d2)>, affine_map<(d0, d1, d2) -> (d0, d2)>, affine_map<(d0, d1, d2) -> (d0, d1, d2)>], iterator_types = ["parallel", "parallel", "parallel"]} ins(%sa, %sb_t : tensor<4x6x10xf32>, tensor<4x10xf32>) outs(%es : tensor<4x6x10xf32>) {
  ^bb0(%x: f32, %b: f32, %o: f32):
    %r = arith.addf %x, %b : f32
    linalg.yield %r : f32
  } -> tensor<4x6x10xf32>
  %p = linalg.softmax dimension(2) ins(%sb : tensor<4x6x10xf32>) outs(%es : tensor<4x6x10xf32>) -> tensor<4x6x10xf32>
  %eo = tensor.empty() : tensor<4x6x5xf32>
  %zo = linalg.fill ins(%zero : f32) outs(%eo : tensor<4x6x5xf32>) -> tensor<4x6x5xf32>
  %o = linalg.batch_matmul ins(%p, %v : tensor<4x6x10xf32>, tensor<4x10x5xf32>) outs(%zo : tensor<4x6x5xf32>) -> tensor<4x6x5xf32>
  return %o : tensor<4x6x5xf32>
}

// A keep mask per query row (a size-1 key dim) before the scale and a
// padding keep mask after it: their `and`.
// CHECK-LABEL: func @two_keep_masks
// CHECK: linalg.generic {{.*}} outs({{.*}} : tensor<1x4x6x10xi1>)
// CHECK: arith.andi %{{.*}}, %{{.*}} : i1
// CHECK: attn.attention ins({{.*}}) mask(%{{.*}} : tensor<1x4x6x10xi1>) {scale = 1.250000e-01 : f32}
// PROOF: @two_keep_masks: 1 attn.attention after the raising
// PROOF: run 1 result 0 {{.*}}: PASS
func.func @two_keep_masks(%q: tensor<4x6x8xf32>, %k: tensor<4x10x8xf32>, %v: tensor<4x10x5xf32>, %sa_t: tensor<4x6x1xi1>, %sb_t: tensor<4x10xi1>) -> tensor<4x6x5xf32> {
  %zero = arith.constant 0.0 : f32
  %ninf = arith.constant 0xFF800000 : f32
  %es = tensor.empty() : tensor<4x6x10xf32>
  %zs = linalg.fill ins(%zero : f32) outs(%es : tensor<4x6x10xf32>) -> tensor<4x6x10xf32>
  %s = linalg.batch_matmul indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d0, d1, d3)>, affine_map<(d0, d1, d2, d3) -> (d0, d2, d3)>, affine_map<(d0, d1, d2, d3) -> (d0, d1, d2)>] ins(%q, %k : tensor<4x6x8xf32>, tensor<4x10x8xf32>) outs(%zs : tensor<4x6x10xf32>) -> tensor<4x6x10xf32>
  %sa = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d1, 0)>, affine_map<(d0, d1, d2) -> (d0, d1, d2)>, affine_map<(d0, d1, d2) -> (d0, d1, d2)>], iterator_types = ["parallel", "parallel", "parallel"]} ins(%sa_t, %s : tensor<4x6x1xi1>, tensor<4x6x10xf32>) outs(%es : tensor<4x6x10xf32>) {
  ^bb0(%m: i1, %x: f32, %o: f32):
    %r = arith.select %m, %x, %ninf : f32
    linalg.yield %r : f32
  } -> tensor<4x6x10xf32>
  %ss = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d1, d2)>, affine_map<(d0, d1, d2) -> (d0, d1, d2)>], iterator_types = ["parallel", "parallel", "parallel"]} ins(%sa : tensor<4x6x10xf32>) outs(%es : tensor<4x6x10xf32>) {
  ^bb0(%x: f32, %o: f32):
    %c = arith.constant 0.125 : f32
    %m = arith.mulf %x, %c : f32
    linalg.yield %m : f32
  } -> tensor<4x6x10xf32>
  %sb = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d2)>, affine_map<(d0, d1, d2) -> (d0, d1, d2)>, affine_map<(d0, d1, d2) -> (d0, d1, d2)>], iterator_types = ["parallel", "parallel", "parallel"]} ins(%sb_t, %ss : tensor<4x10xi1>, tensor<4x6x10xf32>) outs(%es : tensor<4x6x10xf32>) {
  ^bb0(%m: i1, %x: f32, %o: f32):
    %r = arith.select %m, %x, %ninf : f32
    linalg.yield %r : f32
  } -> tensor<4x6x10xf32>
  %p = linalg.softmax dimension(2) ins(%sb : tensor<4x6x10xf32>) outs(%es : tensor<4x6x10xf32>) -> tensor<4x6x10xf32>
  %eo = tensor.empty() : tensor<4x6x5xf32>
  %zo = linalg.fill ins(%zero : f32) outs(%eo : tensor<4x6x5xf32>) -> tensor<4x6x5xf32>
  %o = linalg.batch_matmul ins(%p, %v : tensor<4x6x10xf32>, tensor<4x10x5xf32>) outs(%zo : tensor<4x6x5xf32>) -> tensor<4x6x5xf32>
  return %o : tensor<4x6x5xf32>
}

// Three mask tensors: at most two are combined.
// CHECK-LABEL: func @three_masks
// CHECK-NOT: attn.attention
// PROOF: @three_masks: 0 attn.attention after the raising (nothing raised)
// PROOF: run 1 result 0 {{.*}}: PASS
func.func @three_masks(%q: tensor<4x6x8xf32>, %k: tensor<4x10x8xf32>, %v: tensor<4x10x5xf32>, %sa_t: tensor<6x10xf32>, %sb_t: tensor<4x10xf32>, %sm_t: tensor<4x6x10xi1>) -> tensor<4x6x5xf32> {
  %zero = arith.constant 0.0 : f32
  %ninf = arith.constant 0xFF800000 : f32
  %es = tensor.empty() : tensor<4x6x10xf32>
  %zs = linalg.fill ins(%zero : f32) outs(%es : tensor<4x6x10xf32>) -> tensor<4x6x10xf32>
  %s = linalg.batch_matmul indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d0, d1, d3)>, affine_map<(d0, d1, d2, d3) -> (d0, d2, d3)>, affine_map<(d0, d1, d2, d3) -> (d0, d1, d2)>] ins(%q, %k : tensor<4x6x8xf32>, tensor<4x10x8xf32>) outs(%zs : tensor<4x6x10xf32>) -> tensor<4x6x10xf32>
  %ss = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d1, d2)>, affine_map<(d0, d1, d2) -> (d0, d1, d2)>], iterator_types = ["parallel", "parallel", "parallel"]} ins(%s : tensor<4x6x10xf32>) outs(%es : tensor<4x6x10xf32>) {
  ^bb0(%x: f32, %o: f32):
    %c = arith.constant 0.125 : f32
    %m = arith.mulf %x, %c : f32
    linalg.yield %m : f32
  } -> tensor<4x6x10xf32>
  // expected-note @below {{the first op that blocks it: 'linalg.generic'}}
  %sa = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d1, d2)>, affine_map<(d0, d1, d2) -> (d1, d2)>, affine_map<(d0, d1, d2) -> (d0, d1, d2)>], iterator_types = ["parallel", "parallel", "parallel"]} ins(%ss, %sa_t : tensor<4x6x10xf32>, tensor<6x10xf32>) outs(%es : tensor<4x6x10xf32>) {
  ^bb0(%x: f32, %b: f32, %o: f32):
    %r = arith.addf %x, %b : f32
    linalg.yield %r : f32
  } -> tensor<4x6x10xf32>
  %sb = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d1, d2)>, affine_map<(d0, d1, d2) -> (d0, d2)>, affine_map<(d0, d1, d2) -> (d0, d1, d2)>], iterator_types = ["parallel", "parallel", "parallel"]} ins(%sa, %sb_t : tensor<4x6x10xf32>, tensor<4x10xf32>) outs(%es : tensor<4x6x10xf32>) {
  ^bb0(%x: f32, %b: f32, %o: f32):
    %r = arith.addf %x, %b : f32
    linalg.yield %r : f32
  } -> tensor<4x6x10xf32>
  %sm = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d1, d2)>, affine_map<(d0, d1, d2) -> (d0, d1, d2)>, affine_map<(d0, d1, d2) -> (d0, d1, d2)>], iterator_types = ["parallel", "parallel", "parallel"]} ins(%sm_t, %sb : tensor<4x6x10xi1>, tensor<4x6x10xf32>) outs(%es : tensor<4x6x10xf32>) {
  ^bb0(%m: i1, %x: f32, %o: f32):
    %r = arith.select %m, %x, %ninf : f32
    linalg.yield %r : f32
  } -> tensor<4x6x10xf32>
  // expected-remark @below {{attn-fuse: not fused: three mask tensors (the op has one mask operand, into which two are combined)}}
  %p = linalg.softmax dimension(2) ins(%sm : tensor<4x6x10xf32>) outs(%es : tensor<4x6x10xf32>) -> tensor<4x6x10xf32>
  %eo = tensor.empty() : tensor<4x6x5xf32>
  %zo = linalg.fill ins(%zero : f32) outs(%eo : tensor<4x6x5xf32>) -> tensor<4x6x5xf32>
  %o = linalg.batch_matmul ins(%p, %v : tensor<4x6x10xf32>, tensor<4x10x5xf32>) outs(%zo : tensor<4x6x5xf32>) -> tensor<4x6x5xf32>
  return %o : tensor<4x6x5xf32>
}

// torch.baddbmm(zeros, q, kT, beta=1, alpha=c) adds a zero constant to the
// scaled scores: the scores themselves (one bias, no combination).
// CHECK-LABEL: func @baddbmm_zeros
// CHECK-NOT: linalg.generic
// CHECK: attn.attention ins({{.*}}) mask(%{{.*}} : tensor<1x4x1x10xf32>) {scale = 1.250000e-01 : f32}
// PROOF: @baddbmm_zeros: 1 attn.attention after the raising
// PROOF: run 1 result 0 {{.*}}: PASS
func.func @baddbmm_zeros(%q: tensor<4x6x8xf32>, %k: tensor<4x10x8xf32>, %v: tensor<4x10x5xf32>, %sb_t: tensor<4x10xf32>) -> tensor<4x6x5xf32> {
  %zero = arith.constant 0.0 : f32
  %ninf = arith.constant 0xFF800000 : f32
  %es = tensor.empty() : tensor<4x6x10xf32>
  %zs = linalg.fill ins(%zero : f32) outs(%es : tensor<4x6x10xf32>) -> tensor<4x6x10xf32>
  %s = linalg.batch_matmul indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d0, d1, d3)>, affine_map<(d0, d1, d2, d3) -> (d0, d2, d3)>, affine_map<(d0, d1, d2, d3) -> (d0, d1, d2)>] ins(%q, %k : tensor<4x6x8xf32>, tensor<4x10x8xf32>) outs(%zs : tensor<4x6x10xf32>) -> tensor<4x6x10xf32>
  %ss = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d1, d2)>, affine_map<(d0, d1, d2) -> (d0, d1, d2)>], iterator_types = ["parallel", "parallel", "parallel"]} ins(%s : tensor<4x6x10xf32>) outs(%es : tensor<4x6x10xf32>) {
  ^bb0(%x: f32, %o: f32):
    %c = arith.constant 0.125 : f32
    %m = arith.mulf %x, %c : f32
    linalg.yield %m : f32
  } -> tensor<4x6x10xf32>
  %zeros = arith.constant dense<0.0> : tensor<4x6x10xf32>
  %sz = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d1, d2)>, affine_map<(d0, d1, d2) -> (d0, d1, d2)>, affine_map<(d0, d1, d2) -> (d0, d1, d2)>], iterator_types = ["parallel", "parallel", "parallel"]} ins(%zeros, %ss : tensor<4x6x10xf32>, tensor<4x6x10xf32>) outs(%es : tensor<4x6x10xf32>) {
  ^bb0(%z: f32, %x: f32, %o: f32):
    %r = arith.addf %z, %x : f32
    linalg.yield %r : f32
  } -> tensor<4x6x10xf32>
  %sb = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d1, d2)>, affine_map<(d0, d1, d2) -> (d0, d2)>, affine_map<(d0, d1, d2) -> (d0, d1, d2)>], iterator_types = ["parallel", "parallel", "parallel"]} ins(%sz, %sb_t : tensor<4x6x10xf32>, tensor<4x10xf32>) outs(%es : tensor<4x6x10xf32>) {
  ^bb0(%x: f32, %b: f32, %o: f32):
    %r = arith.addf %x, %b : f32
    linalg.yield %r : f32
  } -> tensor<4x6x10xf32>
  %p = linalg.softmax dimension(2) ins(%sb : tensor<4x6x10xf32>) outs(%es : tensor<4x6x10xf32>) -> tensor<4x6x10xf32>
  %eo = tensor.empty() : tensor<4x6x5xf32>
  %zo = linalg.fill ins(%zero : f32) outs(%eo : tensor<4x6x5xf32>) -> tensor<4x6x5xf32>
  %o = linalg.batch_matmul ins(%p, %v : tensor<4x6x10xf32>, tensor<4x10x5xf32>) outs(%zo : tensor<4x6x5xf32>) -> tensor<4x6x5xf32>
  return %o : tensor<4x6x5xf32>
}
