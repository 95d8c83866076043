// What attn-raise-pipeline leaves alone, and why (explain), and an option.
// Near misses stay unraised; attn-raise-check still proves the pipeline kept
// them intact, and --require-raised fails on them.
// RUN: attention-opt %s --attn-raise-pipeline=explain -verify-diagnostics | FileCheck %s
// RUN: attn-raise-check %s --runs=1 --seed=5 | FileCheck %s --check-prefix=PROOF --implicit-check-not=FAIL
// RUN: not attn-raise-check %s --runs=1 --require-raised --function=no_softmax
// RUN: attention-opt %s --attn-raise-pipeline=large-negative-is-masked | FileCheck %s --check-prefix=OPTION
// RUN: attn-raise-check %s --runs=1 --seed=6 --function=finite_fill --pipeline='attn-raise-pipeline{large-negative-is-masked}' | FileCheck %s --check-prefix=OPTION-PROOF
// RUN: attention-opt %s --attn-raise-pipeline=allow-precision-change | FileCheck %s --check-prefix=PRECISION
// RUN: attn-raise-check %s --runs=2 --seed=8 --function=f16_softmax --pipeline='attn-raise-pipeline{allow-precision-change}' | FileCheck %s --check-prefix=PRECISION-PROOF
// RUN: attn-raise-check %s --runs=2 --seed=9 --function=f64_chain --tolerance=1e-5 --pipeline='attn-raise-pipeline{allow-precision-change}' | FileCheck %s --check-prefix=F64-PROOF
// RUN: attn-raise-check %s --runs=2 --seed=10 --function=f32_probs_bf16_v --pipeline='attn-raise-pipeline{allow-precision-change}' | FileCheck %s --check-prefix=PV-PROOF
// RUN: attention-opt %s --attn-raise-pipeline=allow-precision-change | attn-compile - --chip=sm_90a -o %t.ptx 2>&1 | FileCheck %s --check-prefix=COMPILE
// COMPILE: attn-compile: wrote

// Softmax over the query axis.
// CHECK-LABEL: func.func @softmax_over_queries
// CHECK-NOT: attn.attention
// PROOF: @softmax_over_queries: 0 attn.attention after the raising (nothing raised)
// PROOF: run 0 result 0 {{.*}}: PASS
func.func @softmax_over_queries(%q: tensor<4x16x8xf32>, %k: tensor<4x16x8xf32>, %v: tensor<4x16x8xf32>) -> tensor<4x16x8xf32> {
  %zero = arith.constant 0.0 : f32
  %es = tensor.empty() : tensor<4x16x16xf32>
  %zs = linalg.fill ins(%zero : f32) outs(%es : tensor<4x16x16xf32>) -> tensor<4x16x16xf32>
  %s = linalg.batch_matmul indexing_maps = [affine_map<(b, i, j, d) -> (b, i, d)>, affine_map<(b, i, j, d) -> (b, j, d)>, affine_map<(b, i, j, d) -> (b, i, j)>] ins(%q, %k : tensor<4x16x8xf32>, tensor<4x16x8xf32>) outs(%zs : tensor<4x16x16xf32>) -> tensor<4x16x16xf32>
  // expected-remark @below {{attn-fuse: not fused: softmax is over dimension 1, not the key dimension 2}}
  // expected-note @below {{the first op that blocks it: 'linalg.generic' (the softmax itself)}}
  %p = linalg.softmax dimension(1) ins(%s : tensor<4x16x16xf32>) outs(%es : tensor<4x16x16xf32>) -> tensor<4x16x16xf32>
  %eo = tensor.empty() : tensor<4x16x8xf32>
  %zo = linalg.fill ins(%zero : f32) outs(%eo : tensor<4x16x8xf32>) -> tensor<4x16x8xf32>
  %o = linalg.batch_matmul ins(%p, %v : tensor<4x16x16xf32>, tensor<4x16x8xf32>) outs(%zo : tensor<4x16x8xf32>) -> tensor<4x16x8xf32>
  return %o : tensor<4x16x8xf32>
}

// A gemm, an elementwise op and a gemm, without a normalization: nothing
// softmax-like, no remark.
// CHECK-LABEL: func.func @no_softmax
// CHECK-NOT: attn.attention
// PROOF: @no_softmax: 0 attn.attention after the raising (nothing raised)
// PROOF: run 0 result 0 {{.*}}: PASS
func.func @no_softmax(%q: tensor<4x16x8xf32>, %k: tensor<4x16x8xf32>, %v: tensor<4x16x8xf32>) -> tensor<4x16x8xf32> {
  %zero = arith.constant 0.0 : f32
  %es = tensor.empty() : tensor<4x16x16xf32>
  %zs = linalg.fill ins(%zero : f32) outs(%es : tensor<4x16x16xf32>) -> tensor<4x16x16xf32>
  %s = linalg.batch_matmul indexing_maps = [affine_map<(b, i, j, d) -> (b, i, d)>, affine_map<(b, i, j, d) -> (b, j, d)>, affine_map<(b, i, j, d) -> (b, i, j)>] ins(%q, %k : tensor<4x16x8xf32>, tensor<4x16x8xf32>) outs(%zs : tensor<4x16x16xf32>) -> tensor<4x16x16xf32>
  %e = math.exp %s : tensor<4x16x16xf32>
  %eo = tensor.empty() : tensor<4x16x8xf32>
  %zo = linalg.fill ins(%zero : f32) outs(%eo : tensor<4x16x8xf32>) -> tensor<4x16x8xf32>
  %o = linalg.batch_matmul ins(%e, %v : tensor<4x16x16xf32>, tensor<4x16x8xf32>) outs(%zo : tensor<4x16x8xf32>) -> tensor<4x16x8xf32>
  return %o : tensor<4x16x8xf32>
}

// A finite fill (-1e9) instead of -inf: raised only with
// large-negative-is-masked, since a row with every key masked then gives 0
// instead of the chain's mean of V.
// CHECK-LABEL: func.func @finite_fill
// CHECK-NOT: attn.attention
// OPTION-LABEL: func.func @finite_fill
// OPTION: attn.attention {{.*}} mask(%{{.*}} : tensor<1x4x1x16xi1>) {scale = 1.250000e-01 : f32}
// OPTION-PROOF: @finite_fill: 1 attn.attention after the raising
// OPTION-PROOF: run 0 result 0 {{.*}}: PASS
#id = affine_map<(b, i, j) -> (b, i, j)>
#m = affine_map<(b, i, j) -> (b, 0, j)>
func.func @finite_fill(%q: tensor<4x16x8xf32>, %k: tensor<4x16x8xf32>, %v: tensor<4x16x8xf32>, %keep: tensor<4x1x16xi1>) -> tensor<4x16x8xf32> {
  %zero = arith.constant 0.0 : f32
  %fill = arith.constant -1.0e9 : f32
  %es = tensor.empty() : tensor<4x16x16xf32>
  %zs = linalg.fill ins(%zero : f32) outs(%es : tensor<4x16x16xf32>) -> tensor<4x16x16xf32>
  %s = linalg.batch_matmul indexing_maps = [affine_map<(b, i, j, d) -> (b, i, d)>, affine_map<(b, i, j, d) -> (b, j, d)>, affine_map<(b, i, j, d) -> (b, i, j)>] ins(%q, %k : tensor<4x16x8xf32>, tensor<4x16x8xf32>) outs(%zs : tensor<4x16x16xf32>) -> tensor<4x16x16xf32>
  // expected-note @below {{the first op that blocks it: 'linalg.generic'}}
  %sm = linalg.generic {indexing_maps = [#id, #m, #id], iterator_types = ["parallel", "parallel", "parallel"]} ins(%s, %keep : tensor<4x16x16xf32>, tensor<4x1x16xi1>) outs(%es : tensor<4x16x16xf32>) {
  ^bb0(%x: f32, %mk: i1, %o: f32):
    %c = arith.constant 0.125 : f32
    %y = arith.mulf %x, %c : f32
    %r = arith.select %mk, %y, %fill : f32
    linalg.yield %r : f32
  } -> tensor<4x16x16xf32>
  // expected-remark @below {{attn-fuse: not fused: the masked scores are set to a finite value, not -inf (see option large-negative-is-masked)}}
  %p = linalg.softmax dimension(2) ins(%sm : tensor<4x16x16xf32>) outs(%es : tensor<4x16x16xf32>) -> tensor<4x16x16xf32>
  %eo = tensor.empty() : tensor<4x16x8xf32>
  %zo = linalg.fill ins(%zero : f32) outs(%eo : tensor<4x16x8xf32>) -> tensor<4x16x8xf32>
  %o = linalg.batch_matmul ins(%p, %v : tensor<4x16x16xf32>, tensor<4x16x8xf32>) outs(%zo : tensor<4x16x8xf32>) -> tensor<4x16x8xf32>
  return %o : tensor<4x16x8xf32>
}

// A row max that also returns its argmax, which the function returns: the
// chain is left alone, and explain names the reduction.
// CHECK-LABEL: func.func @max_with_argmax
// CHECK-NOT: attn.attention
// PROOF: @max_with_argmax: 0 attn.attention after the raising (nothing raised)
// PROOF: run 0 result 0 {{.*}}: PASS
// PROOF: run 0 result 1 tensor<4x16xi32>: {{.*}}: PASS
func.func @max_with_argmax(%q: tensor<4x16x8xf32>, %k: tensor<4x16x8xf32>, %v: tensor<4x16x8xf32>) -> (tensor<4x16x8xf32>, tensor<4x16xi32>) {
  %zero = arith.constant 0.0 : f32
  %ninf = arith.constant 0xFF800000 : f32
  %c0 = arith.constant 0 : i32
  %es = tensor.empty() : tensor<4x16x16xf32>
  %zs = linalg.fill ins(%zero : f32) outs(%es : tensor<4x16x16xf32>) -> tensor<4x16x16xf32>
  %s = linalg.batch_matmul indexing_maps = [affine_map<(b, i, j, d) -> (b, i, d)>, affine_map<(b, i, j, d) -> (b, j, d)>, affine_map<(b, i, j, d) -> (b, i, j)>] ins(%q, %k : tensor<4x16x8xf32>, tensor<4x16x8xf32>) outs(%zs : tensor<4x16x16xf32>) -> tensor<4x16x16xf32>
  %er = tensor.empty() : tensor<4x16xf32>
  %fm = linalg.fill ins(%ninf : f32) outs(%er : tensor<4x16xf32>) -> tensor<4x16xf32>
  %ei = tensor.empty() : tensor<4x16xi32>
  %fi = linalg.fill ins(%c0 : i32) outs(%ei : tensor<4x16xi32>) -> tensor<4x16xi32>
  // expected-remark @below {{attn-fuse: not fused: the max reduction has 2 results (an argmax?); a softmax's row max has one}}
  // expected-note @below {{the first op that blocks it: 'linalg.generic' (the reduction itself)}}
  %m:2 = linalg.generic {indexing_maps = [affine_map<(b, i, j) -> (b, i, j)>, affine_map<(b, i, j) -> (b, i)>, affine_map<(b, i, j) -> (b, i)>], iterator_types = ["parallel", "parallel", "reduction"]} ins(%s : tensor<4x16x16xf32>) outs(%fm, %fi : tensor<4x16xf32>, tensor<4x16xi32>) {
  ^bb0(%x: f32, %acc: f32, %idx: i32):
    %j = linalg.index 2 : index
    %ji = arith.index_cast %j : index to i32
    %gt = arith.cmpf ogt, %x, %acc : f32
    %mx = arith.maximumf %x, %acc : f32
    %ni = arith.select %gt, %ji, %idx : i32
    linalg.yield %mx, %ni : f32, i32
  } -> (tensor<4x16xf32>, tensor<4x16xi32>)
  %mb = linalg.broadcast ins(%m#0 : tensor<4x16xf32>) outs(%es : tensor<4x16x16xf32>) dimensions = [2]
  %d = arith.subf %s, %mb : tensor<4x16x16xf32>
  %e = math.exp %d : tensor<4x16x16xf32>
  %fl = linalg.fill ins(%zero : f32) outs(%er : tensor<4x16xf32>) -> tensor<4x16xf32>
  %l = linalg.reduce ins(%e : tensor<4x16x16xf32>) outs(%fl : tensor<4x16xf32>) dimensions = [2]
    (%x: f32, %acc: f32) { %r = arith.addf %x, %acc : f32
      linalg.yield %r : f32 }
  %lb = linalg.broadcast ins(%l : tensor<4x16xf32>) outs(%es : tensor<4x16x16xf32>) dimensions = [2]
  %p = arith.divf %e, %lb : tensor<4x16x16xf32>
  %eo = tensor.empty() : tensor<4x16x8xf32>
  %zo = linalg.fill ins(%zero : f32) outs(%eo : tensor<4x16x8xf32>) -> tensor<4x16x8xf32>
  %o = linalg.batch_matmul ins(%p, %v : tensor<4x16x16xf32>, tensor<4x16x8xf32>) outs(%zo : tensor<4x16x8xf32>) -> tensor<4x16x8xf32>
  return %o, %m#1 : tensor<4x16x8xf32>, tensor<4x16xi32>
}

// The scores are also returned: raising would lose them. explain names the
// op that blocks it, at its location.
// CHECK-LABEL: func.func @scores_escape
// CHECK-NOT: attn.attention
// PROOF: @scores_escape: 0 attn.attention after the raising (nothing raised)
// PROOF: run 0 result 1 tensor<4x16x16xf32>: {{.*}}: PASS
func.func @scores_escape(%q: tensor<4x16x8xf32>, %k: tensor<4x16x8xf32>, %v: tensor<4x16x8xf32>) -> (tensor<4x16x8xf32>, tensor<4x16x16xf32>) {
  %zero = arith.constant 0.0 : f32
  %es = tensor.empty() : tensor<4x16x16xf32>
  %zs = linalg.fill ins(%zero : f32) outs(%es : tensor<4x16x16xf32>) -> tensor<4x16x16xf32>
  %s = linalg.batch_matmul indexing_maps = [affine_map<(b, i, j, d) -> (b, i, d)>, affine_map<(b, i, j, d) -> (b, j, d)>, affine_map<(b, i, j, d) -> (b, i, j)>] ins(%q, %k : tensor<4x16x8xf32>, tensor<4x16x8xf32>) outs(%zs : tensor<4x16x16xf32>) -> tensor<4x16x16xf32>
  // expected-remark @below {{attn-fuse: not fused: the scores have users other than the softmax}}
  %p = linalg.softmax dimension(2) ins(%s : tensor<4x16x16xf32>) outs(%es : tensor<4x16x16xf32>) -> tensor<4x16x16xf32>
  %eo = tensor.empty() : tensor<4x16x8xf32>
  %zo = linalg.fill ins(%zero : f32) outs(%eo : tensor<4x16x8xf32>) -> tensor<4x16x8xf32>
  %o = linalg.batch_matmul ins(%p, %v : tensor<4x16x16xf32>, tensor<4x16x8xf32>) outs(%zo : tensor<4x16x8xf32>) -> tensor<4x16x8xf32>
  // expected-note @below {{the first op that blocks it: 'func.return'}}
  return %o, %s : tensor<4x16x8xf32>, tensor<4x16x16xf32>
}

// The softmax itself in f16 (exp and the row sum rounded to f16): the op
// computes it in f32 and cannot reproduce that rounding, so the chain is
// left alone unless allow-precision-change. (A softmax widened to f32
// between f16 contractions, as in linalg.mlir's @mixed_f16, is raised.)
// CHECK-LABEL: func.func @f16_softmax
// CHECK-NOT: attn.attention
// PROOF: @f16_softmax: 0 attn.attention after the raising (nothing raised)
// PRECISION-LABEL: func.func @f16_softmax
// PRECISION: attn.attention {{.*}} : tensor<1x4x16x8xf16>, tensor<1x4x16x8xf16>, tensor<1x4x16x8xf16>) {attn.chain_softmax_type = f16, scale = 1.000000e+00 : f32}
// PRECISION-PROOF: @f16_softmax: 1 attn.attention after the raising
// PRECISION-PROOF: run 1 result 0 tensor<4x16x8xf16>: {{.*}}: PASS
func.func @f16_softmax(%q: tensor<4x16x8xf16>, %k: tensor<4x16x8xf16>, %v: tensor<4x16x8xf16>) -> tensor<4x16x8xf16> {
  %zero = arith.constant 0.0 : f16
  %es = tensor.empty() : tensor<4x16x16xf16>
  %zs = linalg.fill ins(%zero : f16) outs(%es : tensor<4x16x16xf16>) -> tensor<4x16x16xf16>
  %s = linalg.batch_matmul indexing_maps = [affine_map<(b, i, j, d) -> (b, i, d)>, affine_map<(b, i, j, d) -> (b, j, d)>, affine_map<(b, i, j, d) -> (b, i, j)>] ins(%q, %k : tensor<4x16x8xf16>, tensor<4x16x8xf16>) outs(%zs : tensor<4x16x16xf16>) -> tensor<4x16x16xf16>
  // expected-remark @below {{attn-fuse: not fused: the softmax runs in f16; attn.attention computes it in f32, so the results would differ by the chain's own rounding (see option allow-precision-change)}}
  // expected-note @below {{the first op that blocks it: 'linalg.generic' (the softmax itself)}}
  %p = linalg.softmax dimension(2) ins(%s : tensor<4x16x16xf16>) outs(%es : tensor<4x16x16xf16>) -> tensor<4x16x16xf16>
  %eo = tensor.empty() : tensor<4x16x8xf16>
  %zo = linalg.fill ins(%zero : f16) outs(%eo : tensor<4x16x8xf16>) -> tensor<4x16x8xf16>
  %o = linalg.batch_matmul ins(%p, %v : tensor<4x16x16xf16>, tensor<4x16x8xf16>) outs(%zo : tensor<4x16x8xf16>) -> tensor<4x16x8xf16>
  return %o : tensor<4x16x8xf16>
}

// An f64 chain with an f64 bias: the op has no f64 form, so it is left alone
// unless allow-precision-change, which raises it with Q, K, V and the bias
// rounded to f32 (arith.truncf generics) and the result widened back.
// CHECK-LABEL: func.func @f64_chain
// CHECK-NOT: attn.attention
// PROOF: @f64_chain: 0 attn.attention after the raising (nothing raised)
// PRECISION-LABEL: func.func @f64_chain
// PRECISION: arith.truncf %{{.*}} : f64 to f32
// PRECISION: attn.attention ins({{.*}} : tensor<1x4x16x8xf32>, tensor<1x4x16x8xf32>, tensor<1x4x16x8xf32>) mask({{.*}} : tensor<1x4x16x16xf32>) {attn.chain_softmax_type = f64, scale = 2.500000e-01 : f32}
// PRECISION: arith.extf %{{.*}} : f32 to f64
// PRECISION: return %{{.*}} : tensor<4x16x8xf64>
// F64-PROOF: @f64_chain: 1 attn.attention after the raising
// (The f64 tolerance, 1e-12, does not apply to a chain rounded to f32 on
// request: the proof takes f32's, 1e-5.)
// F64-PROOF: run 1 result 0 tensor<4x16x8xf64>: {{.*}}: PASS
func.func @f64_chain(%q: tensor<4x16x8xf64>, %k: tensor<4x16x8xf64>, %v: tensor<4x16x8xf64>, %bias: tensor<4x16x16xf64>) -> tensor<4x16x8xf64> {
  %zero = arith.constant 0.0 : f64
  %c = arith.constant 0.25 : f64
  %es = tensor.empty() : tensor<4x16x16xf64>
  %zs = linalg.fill ins(%zero : f64) outs(%es : tensor<4x16x16xf64>) -> tensor<4x16x16xf64>
  // expected-note @below {{the first op that blocks it: 'linalg.generic'}}
  %s = linalg.batch_matmul indexing_maps = [affine_map<(b, i, j, d) -> (b, i, d)>, affine_map<(b, i, j, d) -> (b, j, d)>, affine_map<(b, i, j, d) -> (b, i, j)>] ins(%q, %k : tensor<4x16x8xf64>, tensor<4x16x8xf64>) outs(%zs : tensor<4x16x16xf64>) -> tensor<4x16x16xf64>
  %sc = linalg.generic {indexing_maps = [affine_map<(b, i, j) -> (b, i, j)>, affine_map<(b, i, j) -> (b, i, j)>, affine_map<(b, i, j) -> (b, i, j)>], iterator_types = ["parallel", "parallel", "parallel"]} ins(%s, %bias : tensor<4x16x16xf64>, tensor<4x16x16xf64>) outs(%es : tensor<4x16x16xf64>) {
  ^bb0(%x: f64, %y: f64, %o: f64):
    %t = arith.mulf %x, %c : f64
    %u = arith.addf %t, %y : f64
    linalg.yield %u : f64
  } -> tensor<4x16x16xf64>
  // expected-remark @below {{attn-fuse: not fused: Q, K and V are f64; attn.attention computes in f16, bf16 or f32, so the results would lose f64's precision (see option allow-precision-change, which raises the chain with its operands rounded to f32)}}
  %p = linalg.softmax dimension(2) ins(%sc : tensor<4x16x16xf64>) outs(%es : tensor<4x16x16xf64>) -> tensor<4x16x16xf64>
  %eo = tensor.empty() : tensor<4x16x8xf64>
  %zo = linalg.fill ins(%zero : f64) outs(%eo : tensor<4x16x8xf64>) -> tensor<4x16x8xf64>
  %o = linalg.batch_matmul ins(%p, %v : tensor<4x16x16xf64>, tensor<4x16x8xf64>) outs(%zo : tensor<4x16x8xf64>) -> tensor<4x16x8xf64>
  return %o : tensor<4x16x8xf64>
}

// GQA in tile order (jnp.tile, torch .repeat(1, G, 1, 1)): K and V
// broadcast to [B, G, Hkv, L, D] and merged, so query head h reads KV head
// h % Hkv, not repeat_interleave's h / G. Left alone (it produced an invalid
// attn.attention before: B * G query heads beside Hkv K heads).
// CHECK-LABEL: func.func @gqa_tile_order
// CHECK-NOT: attn.attention
// PROOF: @gqa_tile_order: 0 attn.attention after the raising (nothing raised)
#tq_q = affine_map<(b, h, i, j, d) -> (b, h, i, d)>
#tq_k = affine_map<(b, h, i, j, d) -> (b, h, j, d)>
#tq_s = affine_map<(b, h, i, j, d) -> (b, h, i, j)>
#tp_p = affine_map<(b, h, i, d, j) -> (b, h, i, j)>
#tp_v = affine_map<(b, h, i, d, j) -> (b, h, j, d)>
#tp_o = affine_map<(b, h, i, d, j) -> (b, h, i, d)>
#tid = affine_map<(b, h, i, j) -> (b, h, i, j)>
func.func @gqa_tile_order(%q: tensor<2x8x16x16xf32>, %k: tensor<2x2x16x16xf32>, %v: tensor<2x2x16x16xf32>) -> tensor<2x8x16x16xf32> {
  %zero = arith.constant 0.0 : f32
  %c = arith.constant 0.25 : f32
  %eb = tensor.empty() : tensor<2x4x2x16x16xf32>
  %kb = linalg.broadcast ins(%k : tensor<2x2x16x16xf32>) outs(%eb : tensor<2x4x2x16x16xf32>) dimensions = [1]
  %vb = linalg.broadcast ins(%v : tensor<2x2x16x16xf32>) outs(%eb : tensor<2x4x2x16x16xf32>) dimensions = [1]
  %kr = tensor.collapse_shape %kb [[0], [1, 2], [3], [4]] : tensor<2x4x2x16x16xf32> into tensor<2x8x16x16xf32>
  %vr = tensor.collapse_shape %vb [[0], [1, 2], [3], [4]] : tensor<2x4x2x16x16xf32> into tensor<2x8x16x16xf32>
  %es = tensor.empty() : tensor<2x8x16x16xf32>
  %zs = linalg.fill ins(%zero : f32) outs(%es : tensor<2x8x16x16xf32>) -> tensor<2x8x16x16xf32>
  %s = linalg.generic {indexing_maps = [#tq_q, #tq_k, #tq_s], iterator_types = ["parallel", "parallel", "parallel", "parallel", "reduction"]}
      ins(%q, %kr : tensor<2x8x16x16xf32>, tensor<2x8x16x16xf32>) outs(%zs : tensor<2x8x16x16xf32>) {
  ^bb0(%a: f32, %b: f32, %o: f32):
    %m = arith.mulf %a, %b : f32
    %r = arith.addf %o, %m : f32
    linalg.yield %r : f32
  } -> tensor<2x8x16x16xf32>
  %ss = linalg.generic {indexing_maps = [#tid, #tid], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%s : tensor<2x8x16x16xf32>) outs(%es : tensor<2x8x16x16xf32>) {
  ^bb0(%x: f32, %o: f32):
    %y = arith.mulf %c, %x : f32
    linalg.yield %y : f32
  } -> tensor<2x8x16x16xf32>
  // expected-remark @below {{attn-fuse: not fused: the query heads of a group are score dim 1, not the one right before the query dim: K and V are repeated in tile order ([.., group, KV head, Lq, Lk]), and only the interleaved order ([.., KV head, group, Lq, Lk], repeat_kv's) is raised}}
  %p = linalg.softmax dimension(3) ins(%ss : tensor<2x8x16x16xf32>) outs(%es : tensor<2x8x16x16xf32>) -> tensor<2x8x16x16xf32>
  %zo = linalg.fill ins(%zero : f32) outs(%es : tensor<2x8x16x16xf32>) -> tensor<2x8x16x16xf32>
  // expected-note @below {{the first op that blocks it: 'linalg.generic'}}
  %o = linalg.generic {indexing_maps = [#tp_p, #tp_v, #tp_o], iterator_types = ["parallel", "parallel", "parallel", "parallel", "reduction"]}
      ins(%p, %vr : tensor<2x8x16x16xf32>, tensor<2x8x16x16xf32>) outs(%zo : tensor<2x8x16x16xf32>) {
  ^bb0(%a: f32, %b: f32, %o: f32):
    %m = arith.mulf %a, %b : f32
    %r = arith.addf %o, %m : f32
    linalg.yield %r : f32
  } -> tensor<2x8x16x16xf32>
  return %o : tensor<2x8x16x16xf32>
}

// A softmax without its row max, exp(s) / sum exp(s): equal to the softmax
// where exp(s) does not overflow, and not raised (the op subtracts the
// max); explain names it at the row sum (it said nothing before).
// CHECK-LABEL: func.func @softmax_without_max
// CHECK-NOT: attn.attention
// PROOF: @softmax_without_max: 0 attn.attention after the raising (nothing raised)
#nm_id = affine_map<(b, i, j) -> (b, i, j)>
#nm_row = affine_map<(b, i, j) -> (b, i)>
func.func @softmax_without_max(%q: tensor<8x16x16xf32>, %k: tensor<8x16x16xf32>, %v: tensor<8x16x16xf32>) -> tensor<8x16x16xf32> {
  %zero = arith.constant 0.0 : f32
  %c = arith.constant 0.25 : f32
  %es = tensor.empty() : tensor<8x16x16xf32>
  %zs = linalg.fill ins(%zero : f32) outs(%es : tensor<8x16x16xf32>) -> tensor<8x16x16xf32>
  %s = linalg.batch_matmul indexing_maps = [affine_map<(b, m, n, k) -> (b, m, k)>, affine_map<(b, m, n, k) -> (b, n, k)>, affine_map<(b, m, n, k) -> (b, m, n)>]
       ins(%q, %k : tensor<8x16x16xf32>, tensor<8x16x16xf32>) outs(%zs : tensor<8x16x16xf32>) -> tensor<8x16x16xf32>
  // expected-note @below {{the first op that blocks it: 'linalg.generic'}}
  %e = linalg.generic {indexing_maps = [#nm_id, #nm_id], iterator_types = ["parallel", "parallel", "parallel"]} ins(%s : tensor<8x16x16xf32>) outs(%es : tensor<8x16x16xf32>) {
  ^bb0(%x: f32, %o: f32):
    %y = arith.mulf %x, %c : f32
    %r = math.exp %y : f32
    linalg.yield %r : f32
  } -> tensor<8x16x16xf32>
  %er = tensor.empty() : tensor<8x16xf32>
  %fl = linalg.fill ins(%zero : f32) outs(%er : tensor<8x16xf32>) -> tensor<8x16xf32>
  // expected-remark @below {{attn-fuse: not fused: a softmax without its row max, exp(s) / sum_j exp(s): attn.attention subtracts the row max (it does not overflow where this chain does); write exp(s - max) to raise it}}
  %l = linalg.reduce ins(%e : tensor<8x16x16xf32>) outs(%fl : tensor<8x16xf32>) dimensions = [2]
    (%in: f32, %acc: f32) {
      %r = arith.addf %in, %acc : f32
      linalg.yield %r : f32
    }
  %p = linalg.generic {indexing_maps = [#nm_id, #nm_row, #nm_id], iterator_types = ["parallel", "parallel", "parallel"]} ins(%e, %l : tensor<8x16x16xf32>, tensor<8x16xf32>) outs(%es : tensor<8x16x16xf32>) {
  ^bb0(%x: f32, %s_: f32, %o: f32):
    %r = arith.divf %x, %s_ : f32
    linalg.yield %r : f32
  } -> tensor<8x16x16xf32>
  %zo = linalg.fill ins(%zero : f32) outs(%es : tensor<8x16x16xf32>) -> tensor<8x16x16xf32>
  %o = linalg.batch_matmul ins(%p, %v : tensor<8x16x16xf32>, tensor<8x16x16xf32>) outs(%zo : tensor<8x16x16xf32>) -> tensor<8x16x16xf32>
  return %o : tensor<8x16x16xf32>
}

// The same with P·V reading the f32 probabilities (V widened in its body):
// the op would round P to bf16 for P·V, which this chain does not; raised
// under allow-precision-change only.
// CHECK-LABEL: func.func @f32_probs_bf16_v
// CHECK-NOT: attn.attention
// PRECISION-LABEL: func.func @f32_probs_bf16_v
// PRECISION: attn.attention ins(%arg0, %arg1, %arg2 : tensor<2x8x16x32xbf16>, tensor<2x2x24x32xbf16>, tensor<2x2x24x32xbf16>) {scale = 0.176776692 : f32} -> tensor<2x8x16x32xbf16>
// PV-PROOF: @f32_probs_bf16_v: 1 attn.attention after the raising
// PV-PROOF: run 1 result 0 {{.*}}: PASS
#fp_qk_q = affine_map<(b, h, g, i, j, d) -> (b, h, g, i, d)>
#fp_qk_k = affine_map<(b, h, g, i, j, d) -> (b, h, j, d)>
#fp_qk_s = affine_map<(b, h, g, i, j, d) -> (b, h, g, i, j)>
#fp_pv_p = affine_map<(b, h, g, i, d, j) -> (b, h, g, i, j)>
#fp_pv_v = affine_map<(b, h, g, i, d, j) -> (b, h, j, d)>
#fp_pv_o = affine_map<(b, h, g, i, d, j) -> (b, h, g, i, d)>
#fp_id = affine_map<(b, h, g, i, j) -> (b, h, g, i, j)>
func.func @f32_probs_bf16_v(%q: tensor<2x8x16x32xbf16>, %k: tensor<2x2x24x32xbf16>, %v: tensor<2x2x24x32xbf16>) -> tensor<2x8x16x32xbf16> {
  %zero = arith.constant 0.0 : f32
  %c = arith.constant 0.176776695 : f32
  %q5 = tensor.expand_shape %q [[0], [1, 2], [3], [4]] output_shape [2, 2, 4, 16, 32] : tensor<2x8x16x32xbf16> into tensor<2x2x4x16x32xbf16>
  %es = tensor.empty() : tensor<2x2x4x16x24xf32>
  %zs = linalg.fill ins(%zero : f32) outs(%es : tensor<2x2x4x16x24xf32>) -> tensor<2x2x4x16x24xf32>
  %s = linalg.generic {indexing_maps = [#fp_qk_q, #fp_qk_k, #fp_qk_s], iterator_types = ["parallel", "parallel", "parallel", "parallel", "parallel", "reduction"]}
      ins(%q5, %k : tensor<2x2x4x16x32xbf16>, tensor<2x2x24x32xbf16>) outs(%zs : tensor<2x2x4x16x24xf32>) {
  ^bb0(%a: bf16, %b: bf16, %o: f32):
    %aw = arith.extf %a : bf16 to f32
    %bw = arith.extf %b : bf16 to f32
    %m = arith.mulf %aw, %bw : f32
    %r = arith.addf %o, %m : f32
    linalg.yield %r : f32
  } -> tensor<2x2x4x16x24xf32>
  %ss = linalg.generic {indexing_maps = [#fp_id, #fp_id], iterator_types = ["parallel", "parallel", "parallel", "parallel", "parallel"]} ins(%s : tensor<2x2x4x16x24xf32>) outs(%es : tensor<2x2x4x16x24xf32>) {
  ^bb0(%x: f32, %o: f32):
    %y = arith.mulf %x, %c : f32
    linalg.yield %y : f32
  } -> tensor<2x2x4x16x24xf32>
  // expected-remark @below {{attn-fuse: not fused: P·V multiplies the probabilities in f32 by V in bf16 and rounds its f32 result to bf16: attn.attention rounds P to bf16 for P·V (as FlashAttention does), which the chain does not (see option allow-precision-change)}}
  %p32 = linalg.softmax dimension(4) ins(%ss : tensor<2x2x4x16x24xf32>) outs(%es : tensor<2x2x4x16x24xf32>) -> tensor<2x2x4x16x24xf32>
  %eo = tensor.empty() : tensor<2x2x4x16x32xf32>
  %zo = linalg.fill ins(%zero : f32) outs(%eo : tensor<2x2x4x16x32xf32>) -> tensor<2x2x4x16x32xf32>
  // expected-note @below {{the first op that blocks it: 'linalg.generic'}}
  %o = linalg.generic {indexing_maps = [#fp_pv_p, #fp_pv_v, #fp_pv_o], iterator_types = ["parallel", "parallel", "parallel", "parallel", "parallel", "reduction"]}
      ins(%p32, %v : tensor<2x2x4x16x24xf32>, tensor<2x2x24x32xbf16>) outs(%zo : tensor<2x2x4x16x32xf32>) {
  ^bb0(%a: f32, %b: bf16, %o: f32):
    %bw = arith.extf %b : bf16 to f32
    %m = arith.mulf %a, %bw : f32
    %r = arith.addf %o, %m : f32
    linalg.yield %r : f32
  } -> tensor<2x2x4x16x32xf32>
  %ebo = tensor.empty() : tensor<2x2x4x16x32xbf16>
  %ob = linalg.generic {indexing_maps = [affine_map<(b, h, g, i, d) -> (b, h, g, i, d)>, affine_map<(b, h, g, i, d) -> (b, h, g, i, d)>], iterator_types = ["parallel", "parallel", "parallel", "parallel", "parallel"]} ins(%o : tensor<2x2x4x16x32xf32>) outs(%ebo : tensor<2x2x4x16x32xbf16>) {
  ^bb0(%x: f32, %o2: bf16):
    %t = arith.truncf %x : f32 to bf16
    linalg.yield %t : bf16
  } -> tensor<2x2x4x16x32xbf16>
  %o4 = tensor.collapse_shape %ob [[0], [1, 2], [3], [4]] : tensor<2x2x4x16x32xbf16> into tensor<2x8x16x32xbf16>
  return %o4 : tensor<2x8x16x32xbf16>
}

// A decode step of one sequence and one head: q [D] against k [Lk, D], so
// the scores have rank 1 and no dim could take the query's.
// CHECK-LABEL: func.func @one_query_one_head
// CHECK-NOT: attn.attention
// PROOF: @one_query_one_head: 0 attn.attention after the raising (nothing raised)
// PROOF: run 0 result 0 {{.*}}: PASS
func.func @one_query_one_head(%q: tensor<8xf32>, %k: tensor<16x8xf32>, %v: tensor<16x8xf32>) -> tensor<8xf32> {
  %zero = arith.constant 0.0 : f32
  %es = tensor.empty() : tensor<16xf32>
  %s0 = linalg.fill ins(%zero : f32) outs(%es : tensor<16xf32>) -> tensor<16xf32>
  %s = linalg.matvec ins(%k, %q : tensor<16x8xf32>, tensor<8xf32>) outs(%s0 : tensor<16xf32>) -> tensor<16xf32>
  // expected-remark @below {{attn-fuse: not fused: the scores have rank 1 (one query row with neither a batch nor a head dim); attn.attention needs [batch..., query, key] scores: give the query a batch or head dim of size 1}}
  // expected-note @below {{the first op that blocks it: 'linalg.generic' (the softmax itself)}}
  %p = linalg.softmax dimension(0) ins(%s : tensor<16xf32>) outs(%es : tensor<16xf32>) -> tensor<16xf32>
  %eo = tensor.empty() : tensor<8xf32>
  %o0 = linalg.fill ins(%zero : f32) outs(%eo : tensor<8xf32>) -> tensor<8xf32>
  %o = linalg.vecmat ins(%p, %v : tensor<16xf32>, tensor<16x8xf32>) outs(%o0 : tensor<8xf32>) -> tensor<8xf32>
  return %o : tensor<8xf32>
}
