// A clamp of the scores from below, max(x, c): OPT's and BioGPT's
// `torch.max(w, torch.tensor(finfo.min))` after the mask (torch-mlir writes
// select(x > c, x, c), TOSA `maximum`, lowered to arith.maximumf). With
// c = -inf it is x (raised by default); with c the lowest finite value it
// only turns the mask's -inf into c, a masked score under
// large-negative-is-masked (raised with it: a row masked whole then
// averages V in the chain where the op gives 0, the option's documented
// difference; the proof's random masks keep some key in every row). Other
// clamps, and a finite clamp before the scale, are left with a reason.
// RUN: attention-opt %s --attn-raise-pipeline=explain -verify-diagnostics | FileCheck %s
// RUN: attn-raise-check %s --runs=2 --seed=5 | FileCheck %s --check-prefix=PROOF --implicit-check-not=FAIL
// RUN: attention-opt %s --attn-raise-pipeline=large-negative-is-masked | FileCheck %s --check-prefix=OPTION
// RUN: attn-raise-check %s --runs=2 --seed=6 --function=clamp_lowest --pipeline='attn-raise-pipeline{large-negative-is-masked}' | FileCheck %s --check-prefix=OPTION-PROOF --implicit-check-not=FAIL
#qk = affine_map<(b, h, i, j, d) -> (b, h, i, d)>
#kk = affine_map<(b, h, i, j, d) -> (b, h, j, d)>
#sk = affine_map<(b, h, i, j, d) -> (b, h, i, j)>
#pv_p = affine_map<(b, h, i, d, j) -> (b, h, i, j)>
#pv_v = affine_map<(b, h, i, d, j) -> (b, h, j, d)>
#pv_o = affine_map<(b, h, i, d, j) -> (b, h, i, d)>
#id = affine_map<(b, h, i, j) -> (b, h, i, j)>
#pad = affine_map<(b, h, i, j) -> (b, 0, 0, j)>

// torch.max(w, -inf) as torch-mlir writes it: x itself, raised.
// CHECK-LABEL: func.func @clamp_neg_inf
// CHECK: attn.attention ins({{.*}}) mask(%{{.*}} : tensor<2x1x1x24xf32>) {scale = 3.500000e-01 : f32}
// CHECK-NOT: arith.cmpf
// PROOF: @clamp_neg_inf: 1 attn.attention after the raising
// PROOF: run 1 result 0 {{.*}}: PASS
func.func @clamp_neg_inf(%q: tensor<2x4x16x8xf32>, %k: tensor<2x4x24x8xf32>, %v: tensor<2x4x24x8xf32>, %pad: tensor<2x1x1x24xf32>) -> tensor<2x4x16x8xf32> {
  %zero = arith.constant 0.0 : f32
  %ninf = arith.constant 0xFF800000 : f32
  %low = arith.constant -3.40282347E+38 : f32
  %five = arith.constant -5.0 : f32
  %sc = arith.constant 0.35 : f32
  %es = tensor.empty() : tensor<2x4x16x24xf32>
  %eb = tensor.empty() : tensor<2x4x16x24xi1>
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
  %s2 = linalg.generic {indexing_maps = [#id, #pad, #id], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%s1, %pad : tensor<2x4x16x24xf32>, tensor<2x1x1x24xf32>) outs(%es : tensor<2x4x16x24xf32>) {
  ^bb0(%x: f32, %b: f32, %o: f32):
    %r = arith.addf %x, %b : f32
    linalg.yield %r : f32
  } -> tensor<2x4x16x24xf32>
  %gtlast = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%s2 : tensor<2x4x16x24xf32>) outs(%eb : tensor<2x4x16x24xi1>) {
  ^bb0(%x: f32, %o: i1):
    %r = arith.cmpf ogt, %x, %ninf : f32
    linalg.yield %r : i1
  } -> tensor<2x4x16x24xi1>
  %last = linalg.generic {indexing_maps = [#id, #id, #id], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%s2, %gtlast : tensor<2x4x16x24xf32>, tensor<2x4x16x24xi1>) outs(%es : tensor<2x4x16x24xf32>) {
  ^bb0(%x: f32, %g: i1, %o: f32):
    %r = arith.select %g, %x, %ninf : f32
    linalg.yield %r : f32
  } -> tensor<2x4x16x24xf32>
  %p = linalg.softmax dimension(3) ins(%last : tensor<2x4x16x24xf32>) outs(%es : tensor<2x4x16x24xf32>) -> tensor<2x4x16x24xf32>
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


// OPT's clamp at finfo.min (TOSA's form): raised with
// large-negative-is-masked only.
// CHECK-LABEL: func.func @clamp_lowest
// CHECK-NOT: attn.attention
// PROOF: @clamp_lowest: 0 attn.attention after the raising (nothing raised)
// PROOF: run 1 result 0 {{.*}}: PASS
// OPTION-LABEL: func.func @clamp_lowest
// OPTION: attn.attention ins({{.*}}) mask(%{{.*}} : tensor<2x1x1x24xf32>) {scale = 3.500000e-01 : f32}
// OPTION-NOT: arith.maximumf
// OPTION-PROOF: @clamp_lowest: 1 attn.attention after the raising
// OPTION-PROOF: run 1 result 0 {{.*}}: PASS
func.func @clamp_lowest(%q: tensor<2x4x16x8xf32>, %k: tensor<2x4x24x8xf32>, %v: tensor<2x4x24x8xf32>, %pad: tensor<2x1x1x24xf32>) -> tensor<2x4x16x8xf32> {
  %zero = arith.constant 0.0 : f32
  %ninf = arith.constant 0xFF800000 : f32
  %low = arith.constant -3.40282347E+38 : f32
  %five = arith.constant -5.0 : f32
  %sc = arith.constant 0.35 : f32
  %es = tensor.empty() : tensor<2x4x16x24xf32>
  %eb = tensor.empty() : tensor<2x4x16x24xi1>
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
  %s2 = linalg.generic {indexing_maps = [#id, #pad, #id], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%s1, %pad : tensor<2x4x16x24xf32>, tensor<2x1x1x24xf32>) outs(%es : tensor<2x4x16x24xf32>) {
  ^bb0(%x: f32, %b: f32, %o: f32):
    %r = arith.addf %x, %b : f32
    linalg.yield %r : f32
  } -> tensor<2x4x16x24xf32>
  // expected-note @below {{the first op that blocks it: 'linalg.generic'}}
  %last = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%s2 : tensor<2x4x16x24xf32>) outs(%es : tensor<2x4x16x24xf32>) {
  ^bb0(%x: f32, %o: f32):
    %r = arith.maximumf %x, %low : f32
    linalg.yield %r : f32
  } -> tensor<2x4x16x24xf32>
  // expected-remark @below {{attn-fuse: not fused: the scores are clamped at the lowest finite value, which turns a mask's -inf into a finite value (see option large-negative-is-masked)}}
  %p = linalg.softmax dimension(3) ins(%last : tensor<2x4x16x24xf32>) outs(%es : tensor<2x4x16x24xf32>) -> tensor<2x4x16x24xf32>
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


// The clamp before the scale: scaled, its value is no longer the lowest.
// CHECK-LABEL: func.func @clamp_before_scale
// CHECK-NOT: attn.attention
// PROOF: @clamp_before_scale: 0 attn.attention after the raising (nothing raised)
// PROOF: run 1 result 0 {{.*}}: PASS
// OPTION-LABEL: func.func @clamp_before_scale
// OPTION-NOT: attn.attention
func.func @clamp_before_scale(%q: tensor<2x4x16x8xf32>, %k: tensor<2x4x24x8xf32>, %v: tensor<2x4x24x8xf32>, %pad: tensor<2x1x1x24xf32>) -> tensor<2x4x16x8xf32> {
  %zero = arith.constant 0.0 : f32
  %ninf = arith.constant 0xFF800000 : f32
  %low = arith.constant -3.40282347E+38 : f32
  %five = arith.constant -5.0 : f32
  %sc = arith.constant 0.35 : f32
  %es = tensor.empty() : tensor<2x4x16x24xf32>
  %eb = tensor.empty() : tensor<2x4x16x24xi1>
  %zs = linalg.fill ins(%zero : f32) outs(%es : tensor<2x4x16x24xf32>) -> tensor<2x4x16x24xf32>
  %s = linalg.generic {indexing_maps = [#qk, #kk, #sk], iterator_types = ["parallel", "parallel", "parallel", "parallel", "reduction"]} ins(%q, %k : tensor<2x4x16x8xf32>, tensor<2x4x24x8xf32>) outs(%zs : tensor<2x4x16x24xf32>) {
  ^bb0(%x: f32, %y: f32, %o: f32):
    %m0 = arith.mulf %x, %y : f32
    %r = arith.addf %o, %m0 : f32
    linalg.yield %r : f32
  } -> tensor<2x4x16x24xf32>
  %s1 = linalg.generic {indexing_maps = [#id, #pad, #id], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%s, %pad : tensor<2x4x16x24xf32>, tensor<2x1x1x24xf32>) outs(%es : tensor<2x4x16x24xf32>) {
  ^bb0(%x: f32, %b: f32, %o: f32):
    %r = arith.addf %x, %b : f32
    linalg.yield %r : f32
  } -> tensor<2x4x16x24xf32>
  // expected-note @below {{the first op that blocks it: 'linalg.generic'}}
  %s2 = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%s1 : tensor<2x4x16x24xf32>) outs(%es : tensor<2x4x16x24xf32>) {
  ^bb0(%x: f32, %o: f32):
    %r = arith.maximumf %x, %low : f32
    linalg.yield %r : f32
  } -> tensor<2x4x16x24xf32>
  %last = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%s2 : tensor<2x4x16x24xf32>) outs(%es : tensor<2x4x16x24xf32>) {
  ^bb0(%x: f32, %o: f32):
    %r = arith.mulf %x, %sc : f32
    linalg.yield %r : f32
  } -> tensor<2x4x16x24xf32>
  // expected-remark @below {{attn-fuse: not fused: the scores are clamped at the lowest finite value, which turns a mask's -inf into a finite value (see option large-negative-is-masked)}}
  %p = linalg.softmax dimension(3) ins(%last : tensor<2x4x16x24xf32>) outs(%es : tensor<2x4x16x24xf32>) -> tensor<2x4x16x24xf32>
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


// A clamp at -5: it changes scores, it is no mask.
// CHECK-LABEL: func.func @clamp_other
// CHECK-NOT: attn.attention
// PROOF: @clamp_other: 0 attn.attention after the raising (nothing raised)
// PROOF: run 1 result 0 {{.*}}: PASS
// OPTION-LABEL: func.func @clamp_other
// OPTION-NOT: attn.attention
func.func @clamp_other(%q: tensor<2x4x16x8xf32>, %k: tensor<2x4x24x8xf32>, %v: tensor<2x4x24x8xf32>, %pad: tensor<2x1x1x24xf32>) -> tensor<2x4x16x8xf32> {
  %zero = arith.constant 0.0 : f32
  %ninf = arith.constant 0xFF800000 : f32
  %low = arith.constant -3.40282347E+38 : f32
  %five = arith.constant -5.0 : f32
  %sc = arith.constant 0.35 : f32
  %es = tensor.empty() : tensor<2x4x16x24xf32>
  %eb = tensor.empty() : tensor<2x4x16x24xi1>
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
  // expected-note @below {{the first op that blocks it: 'linalg.generic'}}
  %last = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%s1 : tensor<2x4x16x24xf32>) outs(%es : tensor<2x4x16x24xf32>) {
  ^bb0(%x: f32, %o: f32):
    %r = arith.maximumf %x, %five : f32
    linalg.yield %r : f32
  } -> tensor<2x4x16x24xf32>
  // expected-remark @below {{attn-fuse: not fused: the scores are clamped from below at a finite value other than the lowest (a clamp, not a mask fill)}}
  %p = linalg.softmax dimension(3) ins(%last : tensor<2x4x16x24xf32>) outs(%es : tensor<2x4x16x24xf32>) -> tensor<2x4x16x24xf32>
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
