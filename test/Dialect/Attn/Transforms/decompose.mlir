// RUN: attention-opt %s -split-input-file --attn-decompose --mlir-print-local-scope -verify-diagnostics | FileCheck %s
// RUN: not attention-opt %s -split-input-file --attn-decompose 2>&1 | FileCheck %s --check-prefix=ERR

// The unfused reference decomposition: Q·Kᵀ, score modifiers, row max, exp,
// row sum, normalization (and dropout), P·V, then the cast to the output
// element type. The last two cases cannot be decomposed (dynamic head
// counts); -verify-diagnostics checks their error on the first RUN line and
// the second RUN line checks that the tool fails with that error.

// CHECK-LABEL: func @plain_f32
// CHECK-SAME: (%[[Q:[a-z0-9_]+]]: tensor<2x4x8x16xf32>, %[[K:[a-z0-9_]+]]: tensor<2x4x6x16xf32>, %[[V:[a-z0-9_]+]]: tensor<2x4x6x16xf32>)
// CHECK-NOT: attn.attention
// Q·Kᵀ: [B, Hq, Lq, Lk] reduced over D, accumulated in f32 from 0.
// CHECK: %[[ZERO_S:[^ ]+]] = linalg.fill ins(%{{.*}} : f32) outs(%{{.*}} : tensor<2x4x8x6xf32>)
// CHECK: %[[S:[^ ]+]] = linalg.generic
// CHECK-SAME: indexing_maps = [affine_map<(d0, d1, d2, d3, d4) -> (d0, d1, d2, d4)>, affine_map<(d0, d1, d2, d3, d4) -> (d0, d1, d3, d4)>, affine_map<(d0, d1, d2, d3, d4) -> (d0, d1, d2, d3)>]
// CHECK-SAME: iterator_types = ["parallel", "parallel", "parallel", "parallel", "reduction"]
// CHECK-SAME: ins(%[[Q]], %[[K]] : tensor<2x4x8x16xf32>, tensor<2x4x6x16xf32>) outs(%[[ZERO_S]] : tensor<2x4x8x6xf32>)
// CHECK: ^bb0(%[[QE:.+]]: f32, %[[KE:.+]]: f32, %[[ACC:.+]]: f32):
// CHECK-NEXT: %[[PROD:.+]] = arith.mulf %[[QE]], %[[KE]] : f32
// CHECK-NEXT: %[[SUM:.+]] = arith.addf %[[ACC]], %[[PROD]] : f32
// CHECK-NEXT: linalg.yield %[[SUM]] : f32
// Scores: only the default scale 1/sqrt(16); no mask, so no select.
// CHECK: %[[SM:[^ ]+]] = linalg.generic
// CHECK-SAME: iterator_types = ["parallel", "parallel", "parallel", "parallel"]
// CHECK-SAME: ins(%[[S]] : tensor<2x4x8x6xf32>)
// CHECK: %[[SCALE:.+]] = arith.constant 2.500000e-01 : f32
// CHECK-NEXT: %[[SCALED:.+]] = arith.mulf %{{.*}}, %[[SCALE]] : f32
// CHECK-NEXT: linalg.yield %[[SCALED]] : f32
// Row max, from -inf.
// CHECK: %[[NEG_INF_INIT:[^ ]+]] = linalg.fill ins(%{{.*}} : f32) outs(%{{.*}} : tensor<2x4x8xf32>)
// CHECK: %[[MAX:[^ ]+]] = linalg.generic
// CHECK-SAME: indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>, affine_map<(d0, d1, d2, d3) -> (d0, d1, d2)>]
// CHECK-SAME: iterator_types = ["parallel", "parallel", "parallel", "reduction"]
// CHECK-SAME: ins(%[[SM]] : tensor<2x4x8x6xf32>) outs(%[[NEG_INF_INIT]] : tensor<2x4x8xf32>)
// CHECK: arith.maximumf
// exp(s - m), with m = -inf (a row without keys) replaced by 0.
// CHECK: %[[P:[^ ]+]] = linalg.generic
// CHECK-SAME: ins(%[[SM]], %[[MAX]] : tensor<2x4x8x6xf32>, tensor<2x4x8xf32>)
// CHECK: %[[NEG_INF:.+]] = arith.constant 0xFF800000 : f32
// CHECK: arith.cmpf oeq, %{{.*}}, %[[NEG_INF]] : f32
// CHECK: arith.subf
// CHECK: math.exp
// Row sum.
// CHECK: %[[L:[^ ]+]] = linalg.generic
// CHECK-SAME: iterator_types = ["parallel", "parallel", "parallel", "reduction"]
// CHECK-SAME: ins(%[[P]] : tensor<2x4x8x6xf32>)
// CHECK: arith.addf
// Normalization p / l (0 where l = 0); no dropout.
// CHECK: %[[A:[^ ]+]] = linalg.generic
// CHECK-SAME: ins(%[[P]], %[[L]] : tensor<2x4x8x6xf32>, tensor<2x4x8xf32>)
// CHECK: arith.divf
// CHECK-NOT: arith.mului_extended
// P·V: [B, Hq, Lq, Dv] reduced over Lk.
// CHECK: %[[O:[^ ]+]] = linalg.generic
// CHECK-SAME: indexing_maps = [affine_map<(d0, d1, d2, d3, d4) -> (d0, d1, d2, d4)>, affine_map<(d0, d1, d2, d3, d4) -> (d0, d1, d4, d3)>, affine_map<(d0, d1, d2, d3, d4) -> (d0, d1, d2, d3)>]
// CHECK-SAME: iterator_types = ["parallel", "parallel", "parallel", "parallel", "reduction"]
// CHECK-SAME: ins(%[[A]], %[[V]] : tensor<2x4x8x6xf32>, tensor<2x4x6x16xf32>)
// CHECK: arith.mulf
// CHECK: arith.addf
// f32 output: no truncation, no cast.
// CHECK-NOT: arith.truncf
// CHECK-NOT: tensor.cast
// CHECK: return %[[O]] : tensor<2x4x8x16xf32>
func.func @plain_f32(%q: tensor<2x4x8x16xf32>, %k: tensor<2x4x6x16xf32>, %v: tensor<2x4x6x16xf32>) -> tensor<2x4x8x16xf32> {
  %o = attn.attention ins(%q, %k, %v : tensor<2x4x8x16xf32>, tensor<2x4x6x16xf32>, tensor<2x4x6x16xf32>) -> tensor<2x4x8x16xf32>
  return %o : tensor<2x4x8x16xf32>
}

// -----

// GQA (8 query heads on 2 kv heads: h floordiv 4), bottom-right causal, D
// != Dv, lse, bf16 in and out.
// CHECK-LABEL: func @gqa_bf16_causal_lse
// CHECK-SAME: (%[[Q:[a-z0-9_]+]]: tensor<1x8x4x16xbf16>, %[[K:[a-z0-9_]+]]: tensor<1x2x6x16xbf16>, %[[V:[a-z0-9_]+]]: tensor<1x2x6x8xbf16>)
// CHECK-NOT: attn.attention
// CHECK-DAG: %[[LQ:.+]] = arith.constant 4 : index
// CHECK-DAG: %[[LK:.+]] = arith.constant 6 : index
// CHECK: %[[S:[^ ]+]] = linalg.generic
// CHECK-SAME: indexing_maps = [affine_map<(d0, d1, d2, d3, d4) -> (d0, d1, d2, d4)>, affine_map<(d0, d1, d2, d3, d4) -> (d0, d1 floordiv 4, d3, d4)>, affine_map<(d0, d1, d2, d3, d4) -> (d0, d1, d2, d3)>]
// CHECK-SAME: iterator_types = ["parallel", "parallel", "parallel", "parallel", "reduction"]
// CHECK-SAME: ins(%[[Q]], %[[K]] : tensor<1x8x4x16xbf16>, tensor<1x2x6x16xbf16>) outs(%{{.*}} : tensor<1x8x4x6xf32>)
// CHECK-DAG: arith.extf %{{.*}} : bf16 to f32
// CHECK-DAG: arith.extf %{{.*}} : bf16 to f32
// CHECK: arith.mulf
// CHECK: arith.addf
// Causal bottom-right: key j is allowed iff j <= i + (Lk - Lq).
// CHECK: %[[SM:[^ ]+]] = linalg.generic
// CHECK-SAME: ins(%[[S]] : tensor<1x8x4x6xf32>)
// CHECK: %[[ROW:.+]] = linalg.index 2 : index
// CHECK: %[[COL:.+]] = linalg.index 3 : index
// CHECK: %[[SCALE:.+]] = arith.constant 2.500000e-01 : f32
// CHECK: %[[SCALED:.+]] = arith.mulf %{{.*}}, %[[SCALE]] : f32
// CHECK: %[[DELTA:.+]] = arith.subi %[[LK]], %[[LQ]] : index
// CHECK: %[[DIAG:.+]] = arith.addi %[[ROW]], %[[DELTA]] : index
// CHECK: %[[ALLOWED:.+]] = arith.cmpi sle, %[[COL]], %[[DIAG]] : index
// CHECK: %[[NEG_INF:.+]] = arith.constant 0xFF800000 : f32
// CHECK: %[[SEL:.+]] = arith.select %[[ALLOWED]], %[[SCALED]], %[[NEG_INF]] : f32
// CHECK: linalg.yield %[[SEL]] : f32
// CHECK: %[[MAX:[^ ]+]] = linalg.generic
// CHECK-SAME: ins(%[[SM]] : tensor<1x8x4x6xf32>)
// CHECK: arith.maximumf
// CHECK: %[[P:[^ ]+]] = linalg.generic
// CHECK-SAME: ins(%[[SM]], %[[MAX]] : tensor<1x8x4x6xf32>, tensor<1x8x4xf32>)
// CHECK: math.exp
// CHECK: %[[L:[^ ]+]] = linalg.generic
// CHECK-SAME: ins(%[[P]] : tensor<1x8x4x6xf32>)
// CHECK: arith.addf
// CHECK: %[[A:[^ ]+]] = linalg.generic
// CHECK-SAME: ins(%[[P]], %[[L]] : tensor<1x8x4x6xf32>, tensor<1x8x4xf32>)
// CHECK: arith.divf
// P·V with the same GQA head map on the value.
// CHECK: %[[OF32:[^ ]+]] = linalg.generic
// CHECK-SAME: indexing_maps = [affine_map<(d0, d1, d2, d3, d4) -> (d0, d1, d2, d4)>, affine_map<(d0, d1, d2, d3, d4) -> (d0, d1 floordiv 4, d4, d3)>, affine_map<(d0, d1, d2, d3, d4) -> (d0, d1, d2, d3)>]
// CHECK-SAME: iterator_types = ["parallel", "parallel", "parallel", "parallel", "reduction"]
// CHECK-SAME: ins(%[[A]], %[[V]] : tensor<1x8x4x6xf32>, tensor<1x2x6x8xbf16>) outs(%{{.*}} : tensor<1x8x4x8xf32>)
// CHECK: arith.extf %{{.*}} : bf16 to f32
// The f32 result is truncated to bf16.
// CHECK: %[[O:[^ ]+]] = linalg.generic
// CHECK-SAME: ins(%[[OF32]] : tensor<1x8x4x8xf32>) outs(%{{.*}} : tensor<1x8x4x8xbf16>)
// CHECK: arith.truncf %{{.*}} : f32 to bf16
// lse = max + log(sum), -inf for rows without keys.
// CHECK: %[[LSE:[^ ]+]] = linalg.generic
// CHECK-SAME: ins(%[[MAX]], %[[L]] : tensor<1x8x4xf32>, tensor<1x8x4xf32>) outs(%{{.*}} : tensor<1x8x4xf32>)
// CHECK: ^bb0(%[[M_E:.+]]: f32, %[[L_E:.+]]: f32, %{{.+}}: f32):
// CHECK: %[[NEG_INF2:.+]] = arith.constant 0xFF800000 : f32
// CHECK: %[[EMPTY:.+]] = arith.cmpf oeq, %[[M_E]], %[[NEG_INF2]] : f32
// CHECK: %[[LOG:.+]] = math.log %[[L_E]] : f32
// CHECK: %[[ADD:.+]] = arith.addf %[[M_E]], %[[LOG]] : f32
// CHECK: arith.select %[[EMPTY]], %[[NEG_INF2]], %[[ADD]] : f32
// CHECK: return %[[O]], %[[LSE]] : tensor<1x8x4x8xbf16>, tensor<1x8x4xf32>
func.func @gqa_bf16_causal_lse(%q: tensor<1x8x4x16xbf16>, %k: tensor<1x2x6x16xbf16>, %v: tensor<1x2x6x8xbf16>) -> (tensor<1x8x4x8xbf16>, tensor<1x8x4xf32>) {
  %o, %lse = attn.attention ins(%q, %k, %v : tensor<1x8x4x16xbf16>, tensor<1x2x6x16xbf16>, tensor<1x2x6x8xbf16>) {causal = #attn.causal<bottom_right>} -> tensor<1x8x4x8xbf16>, tensor<1x8x4xf32>
  return %o, %lse : tensor<1x8x4x8xbf16>, tensor<1x8x4xf32>
}

// -----

// MQA (one kv head): the head map is plain h floordiv 4 as well.
// CHECK-LABEL: func @mqa
// CHECK: linalg.generic {{.*}}affine_map<(d0, d1, d2, d3, d4) -> (d0, d1 floordiv 4, d3, d4)>
// CHECK-SAME: ins(%{{.*}}, %{{.*}} : tensor<1x4x4x16xf16>, tensor<1x1x6x16xf16>)
// CHECK: linalg.generic {{.*}}affine_map<(d0, d1, d2, d3, d4) -> (d0, d1 floordiv 4, d4, d3)>
// CHECK-SAME: ins(%{{.*}}, %{{.*}} : tensor<1x4x4x6xf32>, tensor<1x1x6x16xf16>)
// CHECK-NOT: attn.attention
func.func @mqa(%q: tensor<1x4x4x16xf16>, %k: tensor<1x1x6x16xf16>, %v: tensor<1x1x6x16xf16>) -> tensor<1x4x4x16xf16> {
  %o = attn.attention ins(%q, %k, %v : tensor<1x4x4x16xf16>, tensor<1x1x6x16xf16>, tensor<1x1x6x16xf16>) -> tensor<1x4x4x16xf16>
  return %o : tensor<1x4x4x16xf16>
}

// -----

// A boolean mask broadcast over batch and heads reads element (0, 0, i, j)
// and sends disallowed keys to -inf; combined with top-left causal.
// CHECK-LABEL: func @bool_mask_broadcast
// CHECK-SAME: %[[M:[a-z0-9_]+]]: tensor<1x1x4x6xi1>)
// CHECK-NOT: attn.attention
// CHECK: %[[S:[^ ]+]] = linalg.generic
// CHECK-SAME: iterator_types = ["parallel", "parallel", "parallel", "parallel", "reduction"]
// CHECK: %[[SM:[^ ]+]] = linalg.generic
// CHECK-SAME: indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>, affine_map<(d0, d1, d2, d3) -> (0, 0, d2, d3)>, affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>]
// CHECK-SAME: ins(%[[S]], %[[M]] : tensor<2x4x4x6xf32>, tensor<1x1x4x6xi1>)
// CHECK: ^bb0(%{{.+}}: f32, %[[KEEP:.+]]: i1, %{{.+}}: f32):
// CHECK: %[[ROW:.+]] = linalg.index 2 : index
// CHECK: %[[COL:.+]] = linalg.index 3 : index
// CHECK: %[[SCALED:.+]] = arith.mulf
// CHECK-NOT: arith.subi
// CHECK: %[[CAUSAL:.+]] = arith.cmpi sle, %[[COL]], %[[ROW]] : index
// CHECK: %[[ALLOWED:.+]] = arith.andi %[[CAUSAL]], %[[KEEP]] : i1
// CHECK: %[[NEG_INF:.+]] = arith.constant 0xFF800000 : f32
// CHECK: %[[SEL:.+]] = arith.select %[[ALLOWED]], %[[SCALED]], %[[NEG_INF]] : f32
// CHECK: linalg.yield %[[SEL]] : f32
// CHECK: arith.maximumf
// CHECK: math.exp
func.func @bool_mask_broadcast(%q: tensor<2x4x4x8xf32>, %k: tensor<2x4x6x8xf32>, %v: tensor<2x4x6x8xf32>, %m: tensor<1x1x4x6xi1>) -> tensor<2x4x4x8xf32> {
  %o = attn.attention ins(%q, %k, %v : tensor<2x4x4x8xf32>, tensor<2x4x6x8xf32>, tensor<2x4x6x8xf32>) mask(%m : tensor<1x1x4x6xi1>) {causal = #attn.causal<top_left>} -> tensor<2x4x4x8xf32>
  return %o : tensor<2x4x4x8xf32>
}

// -----

// An additive f16 mask broadcast over heads and query rows is widened and
// added after scaling; without positional rules there is no select.
// CHECK-LABEL: func @additive_mask
// CHECK-SAME: %[[M:[a-z0-9_]+]]: tensor<2x1x1x6xf16>)
// CHECK-NOT: attn.attention
// CHECK: %[[SM:[^ ]+]] = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>, affine_map<(d0, d1, d2, d3) -> (d0, 0, 0, d3)>, affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>]
// CHECK-SAME: ins(%{{.*}}, %[[M]] : tensor<2x4x4x6xf32>, tensor<2x1x1x6xf16>)
// CHECK: ^bb0(%[[DOT:.+]]: f32, %[[BIAS:.+]]: f16, %{{.+}}: f32):
// CHECK: %[[SCALE:.+]] = arith.constant 5.000000e-01 : f32
// CHECK: %[[SCALED:.+]] = arith.mulf %[[DOT]], %[[SCALE]] : f32
// CHECK: %[[BIAS32:.+]] = arith.extf %[[BIAS]] : f16 to f32
// CHECK: %[[BIASED:.+]] = arith.addf %[[SCALED]], %[[BIAS32]] : f32
// CHECK-NOT: arith.select
// CHECK: linalg.yield %[[BIASED]] : f32
// CHECK: arith.maximumf
func.func @additive_mask(%q: tensor<2x4x4x8xf16>, %k: tensor<2x4x6x8xf16>, %v: tensor<2x4x6x8xf16>, %m: tensor<2x1x1x6xf16>) -> tensor<2x4x4x8xf16> {
  %o = attn.attention ins(%q, %k, %v : tensor<2x4x4x8xf16>, tensor<2x4x6x8xf16>, tensor<2x4x6x8xf16>) mask(%m : tensor<2x1x1x6xf16>) {scale = 0.5 : f32} -> tensor<2x4x4x8xf16>
  return %o : tensor<2x4x4x8xf16>
}

// -----

// An f32 mask broadcast in every dimension reads element (0, 0, 0, 0).
// CHECK-LABEL: func @mask_broadcast_all
// CHECK: linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>, affine_map<(d0, d1, d2, d3) -> (0, 0, 0, 0)>, affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>]
// CHECK-SAME: ins(%{{.*}}, %{{.*}} : tensor<2x4x4x6xf32>, tensor<1x1x1x1xf32>)
// CHECK: arith.addf
// CHECK-NOT: attn.attention
func.func @mask_broadcast_all(%q: tensor<2x4x4x8xf32>, %k: tensor<2x4x6x8xf32>, %v: tensor<2x4x6x8xf32>, %m: tensor<1x1x1x1xf32>) -> tensor<2x4x4x8xf32> {
  %o = attn.attention ins(%q, %k, %v : tensor<2x4x4x8xf32>, tensor<2x4x6x8xf32>, tensor<2x4x6x8xf32>) mask(%m : tensor<1x1x1x1xf32>) -> tensor<2x4x4x8xf32>
  return %o : tensor<2x4x4x8xf32>
}

// -----

// Softcap: cap * tanh(s / cap), applied after the scale.
// CHECK-LABEL: func @softcap
// CHECK-NOT: attn.attention
// CHECK: linalg.generic
// CHECK-SAME: iterator_types = ["parallel", "parallel", "parallel", "parallel", "reduction"]
// CHECK: linalg.generic
// CHECK: %[[SCALE:.+]] = arith.constant 1.250000e-01 : f32
// CHECK: %[[SCALED:.+]] = arith.mulf %{{.*}}, %[[SCALE]] : f32
// CHECK: %[[CAP:.+]] = arith.constant 3.000000e+01 : f32
// CHECK: %[[DIV:.+]] = arith.divf %[[SCALED]], %[[CAP]] : f32
// CHECK: %[[TANH:.+]] = math.tanh %[[DIV]] : f32
// CHECK: %[[CAP2:.+]] = arith.constant 3.000000e+01 : f32
// CHECK: %[[CAPPED:.+]] = arith.mulf %[[TANH]], %[[CAP2]] : f32
// CHECK-NOT: arith.select
// CHECK: linalg.yield %[[CAPPED]] : f32
// CHECK: arith.maximumf
func.func @softcap(%q: tensor<1x2x4x64xf32>, %k: tensor<1x2x6x64xf32>, %v: tensor<1x2x6x64xf32>) -> tensor<1x2x4x64xf32> {
  %o = attn.attention ins(%q, %k, %v : tensor<1x2x4x64xf32>, tensor<1x2x6x64xf32>, tensor<1x2x6x64xf32>) {softcap = 30.0 : f32} -> tensor<1x2x4x64xf32>
  return %o : tensor<1x2x4x64xf32>
}

// -----

// softcap_approx: tanh(dot * fl(scale / softcap)) marked fastmath<afn> (only
// the GPU lowering approximates it; CPU lowerings ignore the flag), no
// division; 0.125 / 30 rounds to 0.00416666688 in f32.
// CHECK-LABEL: func @softcap_approx
// CHECK: linalg.generic
// CHECK: linalg.generic
// CHECK: %[[F:.+]] = arith.constant 0.00416666688 : f32
// CHECK: %[[ARG:.+]] = arith.mulf %in, %[[F]] : f32
// CHECK: %[[T:.+]] = math.tanh %[[ARG]] fastmath<afn> : f32
// CHECK: %[[CAP:.+]] = arith.constant 3.000000e+01 : f32
// CHECK: arith.mulf %[[T]], %[[CAP]] : f32
// CHECK-NOT: arith.divf
// CHECK: linalg.yield
func.func @softcap_approx(%q: tensor<1x2x4x64xf32>, %k: tensor<1x2x6x64xf32>, %v: tensor<1x2x6x64xf32>) -> tensor<1x2x4x64xf32> {
  %o = attn.attention ins(%q, %k, %v : tensor<1x2x4x64xf32>, tensor<1x2x6x64xf32>, tensor<1x2x6x64xf32>) {softcap = 30.0 : f32, softcap_approx} -> tensor<1x2x4x64xf32>
  return %o : tensor<1x2x4x64xf32>
}

// -----

// Sliding window [3, 1] without causal: i - 3 <= j <= i + 1.
// CHECK-LABEL: func @window
// CHECK-NOT: attn.attention
// CHECK: linalg.generic
// CHECK-SAME: iterator_types = ["parallel", "parallel", "parallel", "parallel", "reduction"]
// CHECK: linalg.generic
// CHECK: %[[ROW:.+]] = linalg.index 2 : index
// CHECK: %[[COL:.+]] = linalg.index 3 : index
// CHECK: %[[SCALED:.+]] = arith.mulf
// CHECK: %[[LEFT:.+]] = arith.constant -3 : index
// CHECK: %[[LO:.+]] = arith.addi %[[ROW]], %[[LEFT]] : index
// CHECK: %[[GE:.+]] = arith.cmpi sge, %[[COL]], %[[LO]] : index
// CHECK: %[[RIGHT:.+]] = arith.constant 1 : index
// CHECK: %[[HI:.+]] = arith.addi %[[ROW]], %[[RIGHT]] : index
// CHECK: %[[LE:.+]] = arith.cmpi sle, %[[COL]], %[[HI]] : index
// CHECK: %[[IN:.+]] = arith.andi %[[GE]], %[[LE]] : i1
// CHECK: %[[NEG_INF:.+]] = arith.constant 0xFF800000 : f32
// CHECK: arith.select %[[IN]], %[[SCALED]], %[[NEG_INF]] : f32
// CHECK: arith.maximumf
func.func @window(%q: tensor<1x2x8x16xf32>, %k: tensor<1x2x8x16xf32>, %v: tensor<1x2x8x16xf32>) -> tensor<1x2x8x16xf32> {
  %o = attn.attention ins(%q, %k, %v : tensor<1x2x8x16xf32>, tensor<1x2x8x16xf32>, tensor<1x2x8x16xf32>) {window = array<i64: 3, 1>} -> tensor<1x2x8x16xf32>
  return %o : tensor<1x2x8x16xf32>
}

// -----

// A window with an unbounded left side and causal top-left: only j <= i
// (causal) and j <= i + 0 (window right) remain.
// CHECK-LABEL: func @window_left_unbounded_causal
// CHECK-NOT: attn.attention
// CHECK: linalg.index 3 : index
// CHECK-NOT: arith.cmpi sge
// CHECK: arith.cmpi sle
// CHECK-NOT: arith.cmpi sge
// CHECK: arith.cmpi sle
// CHECK-NOT: arith.cmpi sge
// CHECK: arith.select
// CHECK: arith.maximumf
func.func @window_left_unbounded_causal(%q: tensor<1x2x8x16xf32>, %k: tensor<1x2x8x16xf32>, %v: tensor<1x2x8x16xf32>) -> tensor<1x2x8x16xf32> {
  %o = attn.attention ins(%q, %k, %v : tensor<1x2x8x16xf32>, tensor<1x2x8x16xf32>, tensor<1x2x8x16xf32>) {causal = #attn.causal<top_left>, window = array<i64: -1, 0>} -> tensor<1x2x8x16xf32>
  return %o : tensor<1x2x8x16xf32>
}

// -----

// Dropout with p = 0.5: Philox4x32-10 (ten rounds of two 32x32->64
// multiplies) keyed by the seed, keep iff bits >= floor(0.5 * 2^32), kept
// probabilities scaled by 1 / (1 - p) = 2.
// CHECK-LABEL: func @dropout
// CHECK-SAME: %[[SEED:[a-z0-9_]+]]: i64, %[[OFF:[a-z0-9_]+]]: i64)
// CHECK-NOT: attn.attention
// CHECK: math.exp
// CHECK: %[[L:[^ ]+]] = linalg.generic
// CHECK-SAME: iterator_types = ["parallel", "parallel", "parallel", "reduction"]
// CHECK: %[[A:[^ ]+]] = linalg.generic
// CHECK-SAME: ins(%{{.*}}, %[[L]] : tensor<1x2x4x6xf32>, tensor<1x2x4xf32>)
// CHECK: %[[PROB:.+]] = arith.select %{{.*}}, %{{.*}}, %{{.*}} : f32
// CHECK: linalg.index 0 : index
// CHECK: linalg.index 1 : index
// CHECK: linalg.index 2 : index
// CHECK: linalg.index 3 : index
// CHECK: arith.trunci %[[OFF]] : i64 to i32
// CHECK: arith.shrui %[[OFF]], %{{.*}} : i64
// CHECK: arith.trunci %[[SEED]] : i64 to i32
// CHECK: arith.shrui %[[SEED]], %{{.*}} : i64
// CHECK-COUNT-20: arith.mului_extended
// CHECK-NOT: arith.mului_extended
// CHECK: %[[THRESHOLD:.+]] = arith.constant -2147483648 : i32
// CHECK: %[[KEEP:.+]] = arith.cmpi uge, %{{.*}}, %[[THRESHOLD]] : i32
// CHECK: %[[INV:.+]] = arith.constant 2.000000e+00 : f32
// CHECK: %[[SCALED:.+]] = arith.mulf %[[PROB]], %[[INV]] : f32
// CHECK: %[[DROPPED:.+]] = arith.select %[[KEEP]], %[[SCALED]], %{{.*}} : f32
// CHECK: linalg.yield %[[DROPPED]] : f32
// CHECK: linalg.generic
// CHECK-SAME: ins(%[[A]], %{{.*}} : tensor<1x2x4x6xf32>, tensor<1x2x6x8xf32>)
func.func @dropout(%q: tensor<1x2x4x8xf32>, %k: tensor<1x2x6x8xf32>, %v: tensor<1x2x6x8xf32>, %seed: i64, %offset: i64) -> tensor<1x2x4x8xf32> {
  %o = attn.attention ins(%q, %k, %v : tensor<1x2x4x8xf32>, tensor<1x2x6x8xf32>, tensor<1x2x6x8xf32>) rng(%seed, %offset) {dropout_p = 0.5 : f32} -> tensor<1x2x4x8xf32>
  return %o : tensor<1x2x4x8xf32>
}

// -----

// rng operands without dropout_p: no Philox code.
// CHECK-LABEL: func @rng_without_dropout
// CHECK-NOT: arith.mului_extended
// CHECK-NOT: attn.attention
// CHECK: return
func.func @rng_without_dropout(%q: tensor<1x2x4x8xf32>, %k: tensor<1x2x6x8xf32>, %v: tensor<1x2x6x8xf32>, %seed: i64, %offset: i64) -> tensor<1x2x4x8xf32> {
  %o = attn.attention ins(%q, %k, %v : tensor<1x2x4x8xf32>, tensor<1x2x6x8xf32>, tensor<1x2x6x8xf32>) rng(%seed, %offset) -> tensor<1x2x4x8xf32>
  return %o : tensor<1x2x4x8xf32>
}

// -----

// Dynamic B, Lq and Lk (static heads): sizes come from tensor.dim, bottom-
// right causal uses the dynamic lengths, and results are cast back to the
// declared types.
// CHECK-LABEL: func @dynamic_lengths
// CHECK-SAME: (%[[Q:[a-z0-9_]+]]: tensor<?x4x?x16xf32>, %[[K:[a-z0-9_]+]]: tensor<?x2x?x16xf32>, %[[V:[a-z0-9_]+]]: tensor<?x2x?x16xf32>)
// CHECK-NOT: attn.attention
// CHECK-DAG: %[[C0:.+]] = arith.constant 0 : index
// CHECK-DAG: %[[C2:.+]] = arith.constant 2 : index
// CHECK-DAG: %[[B:.+]] = tensor.dim %[[Q]], %[[C0]] : tensor<?x4x?x16xf32>
// CHECK-DAG: %[[LQ:.+]] = tensor.dim %[[Q]], %[[C2]] : tensor<?x4x?x16xf32>
// CHECK-DAG: %[[LK:.+]] = tensor.dim %[[K]], %{{.+}} : tensor<?x2x?x16xf32>
// CHECK: tensor.empty(%[[B]], %[[LQ]], %[[LK]]) : tensor<?x4x?x?xf32>
// CHECK: %[[S:[^ ]+]] = linalg.generic
// CHECK-SAME: affine_map<(d0, d1, d2, d3, d4) -> (d0, d1 floordiv 2, d3, d4)>
// CHECK-SAME: ins(%[[Q]], %[[K]] : tensor<?x4x?x16xf32>, tensor<?x2x?x16xf32>) outs(%{{.*}} : tensor<?x4x?x?xf32>)
// CHECK: linalg.generic
// CHECK-SAME: ins(%[[S]] : tensor<?x4x?x?xf32>)
// CHECK: arith.subi %[[LK]], %[[LQ]] : index
// CHECK: arith.cmpi sle
// CHECK: arith.maximumf
// CHECK: math.exp
// CHECK: %[[O:[^ ]+]] = linalg.generic {{.*}}affine_map<(d0, d1, d2, d3, d4) -> (d0, d1 floordiv 2, d4, d3)>
// CHECK-SAME: ins(%{{.*}}, %[[V]] : tensor<?x4x?x?xf32>, tensor<?x2x?x16xf32>) outs(%{{.*}} : tensor<?x4x?x16xf32>)
// CHECK: %[[OCAST:.+]] = tensor.cast %[[O]] : tensor<?x4x?x16xf32> to tensor<?x?x?x?xf32>
// CHECK: %[[LSE:[^ ]+]] = linalg.generic
// CHECK: math.log
// CHECK: %[[LCAST:.+]] = tensor.cast %[[LSE]] : tensor<?x4x?xf32> to tensor<?x?x?xf32>
// CHECK: return %[[OCAST]], %[[LCAST]] : tensor<?x?x?x?xf32>, tensor<?x?x?xf32>
func.func @dynamic_lengths(%q: tensor<?x4x?x16xf32>, %k: tensor<?x2x?x16xf32>, %v: tensor<?x2x?x16xf32>) -> (tensor<?x?x?x?xf32>, tensor<?x?x?xf32>) {
  %o, %lse = attn.attention ins(%q, %k, %v : tensor<?x4x?x16xf32>, tensor<?x2x?x16xf32>, tensor<?x2x?x16xf32>) {causal = #attn.causal<bottom_right>} -> tensor<?x?x?x?xf32>, tensor<?x?x?xf32>
  return %o, %lse : tensor<?x?x?x?xf32>, tensor<?x?x?xf32>
}

// -----

// No keys at all (Lk = 0), a fully broadcast mask and dynamic mask dims:
// valid, and decomposed like any other shape.
// CHECK-LABEL: func @no_keys
// CHECK-NOT: attn.attention
// CHECK: linalg.generic
// CHECK-SAME: outs(%{{.*}} : tensor<1x4x3x0xf32>)
// CHECK: return %{{.*}}, %{{.*}} : tensor<1x4x3x8xf32>, tensor<1x4x3xf32>
func.func @no_keys(%q: tensor<1x4x3x8xf32>, %k: tensor<1x2x0x8xf32>, %v: tensor<1x2x0x8xf32>, %m: tensor<1x1x1x1xi1>) -> (tensor<1x4x3x8xf32>, tensor<1x4x3xf32>) {
  %o, %lse = attn.attention ins(%q, %k, %v : tensor<1x4x3x8xf32>, tensor<1x2x0x8xf32>, tensor<1x2x0x8xf32>) mask(%m : tensor<1x1x1x1xi1>) {causal = #attn.causal<bottom_right>} -> tensor<1x4x3x8xf32>, tensor<1x4x3xf32>
  return %o, %lse : tensor<1x4x3x8xf32>, tensor<1x4x3xf32>
}

// -----

// CHECK-LABEL: func @dynamic_mask
// CHECK: linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>, affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>, affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>]
// CHECK-SAME: ins(%{{.*}}, %{{.*}} : tensor<?x4x?x?xf32>, tensor<?x?x?x?xi1>)
// CHECK-NOT: attn.attention
func.func @dynamic_mask(%q: tensor<?x4x?x8xf32>, %k: tensor<?x4x?x8xf32>, %v: tensor<?x4x?x8xf32>, %m: tensor<?x?x?x?xi1>) -> tensor<?x4x?x8xf32> {
  %o = attn.attention ins(%q, %k, %v : tensor<?x4x?x8xf32>, tensor<?x4x?x8xf32>, tensor<?x4x?x8xf32>) mask(%m : tensor<?x?x?x?xi1>) -> tensor<?x4x?x8xf32>
  return %o : tensor<?x4x?x8xf32>
}

// -----

// Dynamic query heads: not decomposable (the group size is unknown).
// ERR: decompose.mlir:[[@LINE+3]]:8: error: 'attn.attention' op decomposition needs static head counts (the GQA head map is an affine floordiv by Hq/Hkv)
func.func @dynamic_query_heads(%q: tensor<1x?x4x8xf32>, %k: tensor<1x2x6x8xf32>, %v: tensor<1x2x6x8xf32>) -> tensor<1x?x4x8xf32> {
  // expected-error @+1 {{decomposition needs static head counts (the GQA head map is an affine floordiv by Hq/Hkv)}}
  %o = attn.attention ins(%q, %k, %v : tensor<1x?x4x8xf32>, tensor<1x2x6x8xf32>, tensor<1x2x6x8xf32>) {scale = 0.125 : f32} -> tensor<1x?x4x8xf32>
  return %o : tensor<1x?x4x8xf32>
}

// -----

// Dynamic kv heads: not decomposable either.
// ERR: decompose.mlir:[[@LINE+3]]:8: error: 'attn.attention' op decomposition needs static head counts (the GQA head map is an affine floordiv by Hq/Hkv)
func.func @dynamic_kv_heads(%q: tensor<1x4x4x8xf32>, %k: tensor<1x?x6x8xf32>, %v: tensor<1x?x6x8xf32>) -> tensor<1x4x4x8xf32> {
  // expected-error @+1 {{decomposition needs static head counts (the GQA head map is an affine floordiv by Hq/Hkv)}}
  %o = attn.attention ins(%q, %k, %v : tensor<1x4x4x8xf32>, tensor<1x?x6x8xf32>, tensor<1x?x6x8xf32>) -> tensor<1x4x4x8xf32>
  return %o : tensor<1x4x4x8xf32>
}

// -----

// The gradient: raw scores, recomputed P = exp(s - lse) (with the softcap),
// dropout of P, dV as a reduction over the group's query heads (the heads
// are split into [Hkv, G] so linalg can infer the loop bound), D = rowsum(dO
// * O), dP = dO·Vᵀ, dS with the softcap factor, dQ, dK (again over [Hkv, G]),
// and the scale.
// CHECK-LABEL: func @grad_gqa_softcap_dropout
// CHECK-NOT: attn.attention_grad
// CHECK: %[[RAW:.+]] = linalg.generic {{.*}} iterator_types = ["parallel", "parallel", "parallel", "parallel", "reduction"]} ins(%{{.*}}, %{{.*}} : tensor<1x4x8x16xf32>, tensor<1x2x6x16xf32>) outs(%{{.*}} : tensor<1x4x8x6xf32>)
// CHECK: %[[P:.+]] = linalg.generic {{.*}} ins(%[[RAW]], %{{.*}} : tensor<1x4x8x6xf32>, tensor<1x4x8xf32>)
// CHECK: math.tanh
// CHECK: math.exp
// CHECK: tensor.expand_shape {{.*}} {{\[}}[0], [1, 2], [3], [4]] output_shape [1, 2, 2, 8, 6] : tensor<1x4x8x6xf32> into tensor<1x2x2x8x6xf32>
// CHECK: linalg.generic {{.*}} iterator_types = ["parallel", "parallel", "parallel", "parallel", "reduction", "reduction"]} {{.*}} outs(%{{.*}} : tensor<1x2x6x12xf32>)
// CHECK: %[[DS:.+]] = linalg.generic {{.*}} ins(%[[RAW]], %[[P]], %{{.*}}, %{{.*}} : tensor<1x4x8x6xf32>, tensor<1x4x8x6xf32>, tensor<1x4x8x6xf32>, tensor<1x4x8xf32>)
// CHECK: math.tanh
// CHECK: linalg.generic {{.*}} ins(%[[DS]], %{{.*}} : tensor<1x4x8x6xf32>, tensor<1x2x6x16xf32>) outs(%{{.*}} : tensor<1x4x8x16xf32>)
// CHECK: linalg.generic {{.*}} iterator_types = ["parallel", "parallel", "parallel", "parallel", "reduction", "reduction"]} {{.*}} outs(%{{.*}} : tensor<1x2x6x16xf32>)
// CHECK: return
func.func @grad_gqa_softcap_dropout(%q: tensor<1x4x8x16xf32>, %k: tensor<1x2x6x16xf32>, %v: tensor<1x2x6x12xf32>, %o: tensor<1x4x8x12xf32>, %lse: tensor<1x4x8xf32>, %do: tensor<1x4x8x12xf32>, %s: i64, %f: i64) -> (tensor<1x4x8x16xf32>, tensor<1x2x6x16xf32>, tensor<1x2x6x12xf32>) {
  %dq, %dk, %dv = attn.attention_grad ins(%q, %k, %v : tensor<1x4x8x16xf32>, tensor<1x2x6x16xf32>, tensor<1x2x6x12xf32>) forward(%o, %lse : tensor<1x4x8x12xf32>, tensor<1x4x8xf32>) grad_output(%do : tensor<1x4x8x12xf32>) rng(%s, %f) {softcap = 2.0 : f32, dropout_p = 0.2 : f32, causal = #attn.causal<top_left>} -> tensor<1x4x8x16xf32>, tensor<1x2x6x16xf32>, tensor<1x2x6x12xf32>
  return %dq, %dk, %dv : tensor<1x4x8x16xf32>, tensor<1x2x6x16xf32>, tensor<1x2x6x12xf32>
}

// -----

// Dynamic head counts cannot be decomposed (the GQA head split needs them).
func.func @grad_dynamic_heads(%q: tensor<1x?x8x16xf32>, %k: tensor<1x?x6x16xf32>, %v: tensor<1x?x6x16xf32>, %o: tensor<1x?x8x16xf32>, %lse: tensor<1x?x8xf32>, %do: tensor<1x?x8x16xf32>) -> tensor<1x?x8x16xf32> {
  // expected-error @+2 {{decomposition needs static head counts}}
  // ERR: error: 'attn.attention_grad' op decomposition needs static head counts
  %dq, %dk, %dv = attn.attention_grad ins(%q, %k, %v : tensor<1x?x8x16xf32>, tensor<1x?x6x16xf32>, tensor<1x?x6x16xf32>) forward(%o, %lse : tensor<1x?x8x16xf32>, tensor<1x?x8xf32>) grad_output(%do : tensor<1x?x8x16xf32>) -> tensor<1x?x8x16xf32>, tensor<1x?x6x16xf32>, tensor<1x?x6x16xf32>
  return %dq : tensor<1x?x8x16xf32>
}
