// Raising front-end attention (issue 24): attn-raise-pipeline turns each chain
// into one attn.attention, attn-raise-check proves the raised function equal
// to the chain run in float64 on fresh seeded inputs, and attn-compile takes
// the result.
// RUN: attention-opt %s --attn-raise-pipeline | FileCheck %s
// RUN: attn-raise-check %s --require-raised --runs=2 --seed=7 | FileCheck %s --check-prefix=PROOF --implicit-check-not=FAIL
// RUN: attention-opt %s --attn-raise-pipeline | attn-compile - --chip=sm_90a -o %t.ptx 2>&1 | FileCheck %s --check-prefix=COMPILE
// RUN: FileCheck %s --check-prefix=MANIFEST < %t.json
// MANIFEST: "stage": "split_kv"
// MANIFEST: "stage": "combine"
// COMPILE: attn-compile: wrote

// torch-mlir style: [B, L, H*D] projections split into heads and transposed,
// 3-D batch_matmuls on [B*H, L, D], the scale and the bias in one generic
// body, exp(s - max) in one body, keepdim reductions, the output transposed
// back and merged.
// CHECK-LABEL: func.func @torch_mha
// CHECK: %[[O:.*]] = attn.attention ins({{.*}} : tensor<2x4x16x8xf32>, tensor<2x4x16x8xf32>, tensor<2x4x16x8xf32>) mask(%arg3 : tensor<2x1x1x16xf32>) {scale = 0.353553385 : f32}
// The output transpose to [B, L, H, D] (a generalized linalg.transpose) and
// the merge of the heads remain.
// CHECK: linalg.generic {{.*}} ins(%[[O]] : tensor<2x4x16x8xf32>)
// CHECK: tensor.collapse_shape
// CHECK-NEXT: return
// PROOF: @torch_mha: 1 attn.attention after the raising
// PROOF: run 1 result 0 {{.*}}: PASS
#id4 = affine_map<(b, h, i, j) -> (b, h, i, j)>
#bias = affine_map<(b, h, i, j) -> (b, 0, 0, j)>
#row = affine_map<(b, h, i, j) -> (b, h, i, 0)>
#red = affine_map<(b, h, i, j) -> (b, h, i, 0)>
func.func @torch_mha(%q: tensor<2x16x32xf32>, %k: tensor<2x16x32xf32>, %v: tensor<2x16x32xf32>, %bias: tensor<2x1x1x16xf32>) -> tensor<2x16x32xf32> {
  %c = arith.constant 0.353553385 : f32
  %zero = arith.constant 0.0 : f32
  %ninf = arith.constant 0xFF800000 : f32
  %q4 = tensor.expand_shape %q [[0], [1], [2, 3]] output_shape [2, 16, 4, 8] : tensor<2x16x32xf32> into tensor<2x16x4x8xf32>
  %k4 = tensor.expand_shape %k [[0], [1], [2, 3]] output_shape [2, 16, 4, 8] : tensor<2x16x32xf32> into tensor<2x16x4x8xf32>
  %v4 = tensor.expand_shape %v [[0], [1], [2, 3]] output_shape [2, 16, 4, 8] : tensor<2x16x32xf32> into tensor<2x16x4x8xf32>
  %eq = tensor.empty() : tensor<2x4x16x8xf32>
  %qt = linalg.transpose ins(%q4 : tensor<2x16x4x8xf32>) outs(%eq : tensor<2x4x16x8xf32>) permutation = [0, 2, 1, 3]
  %ek = tensor.empty() : tensor<2x4x8x16xf32>
  %kt = linalg.transpose ins(%k4 : tensor<2x16x4x8xf32>) outs(%ek : tensor<2x4x8x16xf32>) permutation = [0, 2, 3, 1]
  %ev = tensor.empty() : tensor<2x4x16x8xf32>
  %vt = linalg.transpose ins(%v4 : tensor<2x16x4x8xf32>) outs(%ev : tensor<2x4x16x8xf32>) permutation = [0, 2, 1, 3]
  %q3 = tensor.collapse_shape %qt [[0, 1], [2], [3]] : tensor<2x4x16x8xf32> into tensor<8x16x8xf32>
  %k3 = tensor.collapse_shape %kt [[0, 1], [2], [3]] : tensor<2x4x8x16xf32> into tensor<8x8x16xf32>
  %v3 = tensor.collapse_shape %vt [[0, 1], [2], [3]] : tensor<2x4x16x8xf32> into tensor<8x16x8xf32>
  %es = tensor.empty() : tensor<8x16x16xf32>
  %zs = linalg.fill ins(%zero : f32) outs(%es : tensor<8x16x16xf32>) -> tensor<8x16x16xf32>
  %s3 = linalg.batch_matmul ins(%q3, %k3 : tensor<8x16x8xf32>, tensor<8x8x16xf32>) outs(%zs : tensor<8x16x16xf32>) -> tensor<8x16x16xf32>
  %s = tensor.expand_shape %s3 [[0, 1], [2], [3]] output_shape [2, 4, 16, 16] : tensor<8x16x16xf32> into tensor<2x4x16x16xf32>
  %e4 = tensor.empty() : tensor<2x4x16x16xf32>
  %sb = linalg.generic {indexing_maps = [#id4, #bias, #id4], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%s, %bias : tensor<2x4x16x16xf32>, tensor<2x1x1x16xf32>) outs(%e4 : tensor<2x4x16x16xf32>) {
  ^bb0(%x: f32, %b: f32, %o: f32):
    %y = arith.mulf %x, %c : f32
    %z = arith.addf %y, %b : f32
    linalg.yield %z : f32
  } -> tensor<2x4x16x16xf32>
  %em = tensor.empty() : tensor<2x4x16x1xf32>
  %fm = linalg.fill ins(%ninf : f32) outs(%em : tensor<2x4x16x1xf32>) -> tensor<2x4x16x1xf32>
  %m = linalg.generic {indexing_maps = [#id4, #red], iterator_types = ["parallel", "parallel", "parallel", "reduction"]} ins(%sb : tensor<2x4x16x16xf32>) outs(%fm : tensor<2x4x16x1xf32>) {
  ^bb0(%x: f32, %acc: f32):
    %r = arith.maximumf %x, %acc : f32
    linalg.yield %r : f32
  } -> tensor<2x4x16x1xf32>
  %ex = linalg.generic {indexing_maps = [#id4, #row, #id4], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%sb, %m : tensor<2x4x16x16xf32>, tensor<2x4x16x1xf32>) outs(%e4 : tensor<2x4x16x16xf32>) {
  ^bb0(%x: f32, %mx: f32, %o: f32):
    %d = arith.subf %x, %mx : f32
    %e = math.exp %d : f32
    linalg.yield %e : f32
  } -> tensor<2x4x16x16xf32>
  %fl = linalg.fill ins(%zero : f32) outs(%em : tensor<2x4x16x1xf32>) -> tensor<2x4x16x1xf32>
  %l = linalg.generic {indexing_maps = [#id4, #red], iterator_types = ["parallel", "parallel", "parallel", "reduction"]} ins(%ex : tensor<2x4x16x16xf32>) outs(%fl : tensor<2x4x16x1xf32>) {
  ^bb0(%x: f32, %acc: f32):
    %r = arith.addf %x, %acc : f32
    linalg.yield %r : f32
  } -> tensor<2x4x16x1xf32>
  %p = linalg.generic {indexing_maps = [#id4, #row, #id4], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%ex, %l : tensor<2x4x16x16xf32>, tensor<2x4x16x1xf32>) outs(%e4 : tensor<2x4x16x16xf32>) {
  ^bb0(%x: f32, %s_: f32, %o: f32):
    %r = arith.divf %x, %s_ : f32
    linalg.yield %r : f32
  } -> tensor<2x4x16x16xf32>
  %p3 = tensor.collapse_shape %p [[0, 1], [2], [3]] : tensor<2x4x16x16xf32> into tensor<8x16x16xf32>
  %eo = tensor.empty() : tensor<8x16x8xf32>
  %zo = linalg.fill ins(%zero : f32) outs(%eo : tensor<8x16x8xf32>) -> tensor<8x16x8xf32>
  %o3 = linalg.batch_matmul ins(%p3, %v3 : tensor<8x16x16xf32>, tensor<8x16x8xf32>) outs(%zo : tensor<8x16x8xf32>) -> tensor<8x16x8xf32>
  %o4 = tensor.expand_shape %o3 [[0, 1], [2], [3]] output_shape [2, 4, 16, 8] : tensor<8x16x8xf32> into tensor<2x4x16x8xf32>
  %eot = tensor.empty() : tensor<2x16x4x8xf32>
  %ot = linalg.transpose ins(%o4 : tensor<2x4x16x8xf32>) outs(%eot : tensor<2x16x4x8xf32>) permutation = [0, 2, 1, 3]
  %o = tensor.collapse_shape %ot [[0], [1], [2, 3]] : tensor<2x16x4x8xf32> into tensor<2x16x32xf32>
  return %o : tensor<2x16x32xf32>
}

// Mixed precision: f16 contractions, the softmax widened to f32 (extf
// before it, fused with the scale; truncf after it); linalg.softmax.
// CHECK-LABEL: func.func @mixed_f16
// CHECK: attn.attention ins({{.*}} : tensor<1x4x16x8xf16>, tensor<1x4x16x8xf16>, tensor<1x4x16x8xf16>) {scale = 0.353553385 : f32}
// CHECK-NOT: linalg.generic
// PROOF: @mixed_f16: 1 attn.attention after the raising
// PROOF: run 1 result 0 tensor<4x16x8xf16>: {{.*}}: PASS
func.func @mixed_f16(%q: tensor<4x16x8xf16>, %k: tensor<4x16x8xf16>, %v: tensor<4x16x8xf16>) -> tensor<4x16x8xf16> {
  %zero = arith.constant 0.0 : f16
  %ek = tensor.empty() : tensor<4x8x16xf16>
  %kt = linalg.transpose ins(%k : tensor<4x16x8xf16>) outs(%ek : tensor<4x8x16xf16>) permutation = [0, 2, 1]
  %es = tensor.empty() : tensor<4x16x16xf16>
  %zs = linalg.fill ins(%zero : f16) outs(%es : tensor<4x16x16xf16>) -> tensor<4x16x16xf16>
  %s = linalg.batch_matmul ins(%q, %kt : tensor<4x16x8xf16>, tensor<4x8x16xf16>) outs(%zs : tensor<4x16x16xf16>) -> tensor<4x16x16xf16>
  %e32 = tensor.empty() : tensor<4x16x16xf32>
  %s32 = linalg.generic {indexing_maps = [affine_map<(b, i, j) -> (b, i, j)>, affine_map<(b, i, j) -> (b, i, j)>], iterator_types = ["parallel", "parallel", "parallel"]} ins(%s : tensor<4x16x16xf16>) outs(%e32 : tensor<4x16x16xf32>) {
  ^bb0(%x: f16, %o: f32):
    %y = arith.extf %x : f16 to f32
    %c = arith.constant 0.353553385 : f32
    %z = arith.mulf %y, %c : f32
    linalg.yield %z : f32
  } -> tensor<4x16x16xf32>
  %p32 = linalg.softmax dimension(2) ins(%s32 : tensor<4x16x16xf32>) outs(%e32 : tensor<4x16x16xf32>) -> tensor<4x16x16xf32>
  %p = linalg.generic {indexing_maps = [affine_map<(b, i, j) -> (b, i, j)>, affine_map<(b, i, j) -> (b, i, j)>], iterator_types = ["parallel", "parallel", "parallel"]} ins(%p32 : tensor<4x16x16xf32>) outs(%es : tensor<4x16x16xf16>) {
  ^bb0(%x: f32, %o: f16):
    %y = arith.truncf %x : f32 to f16
    linalg.yield %y : f16
  } -> tensor<4x16x16xf16>
  %eo = tensor.empty() : tensor<4x16x8xf16>
  %zo = linalg.fill ins(%zero : f16) outs(%eo : tensor<4x16x8xf16>) -> tensor<4x16x8xf16>
  %o = linalg.batch_matmul ins(%p, %v : tensor<4x16x16xf16>, tensor<4x16x8xf16>) outs(%zo : tensor<4x16x8xf16>) -> tensor<4x16x8xf16>
  return %o : tensor<4x16x8xf16>
}

// Elementwise arith/math ops on whole tensors, a tensor.splat scale,
// linalg.reduce and linalg.broadcast of the row statistics.
// CHECK-LABEL: func.func @tensor_math
// CHECK: attn.attention {{.*}} {scale = 5.000000e-01 : f32}
// CHECK-NOT: linalg.generic
// PROOF: @tensor_math: 1 attn.attention after the raising
// PROOF: run 1 result 0 {{.*}}: PASS
func.func @tensor_math(%q: tensor<4x16x8xf32>, %k: tensor<4x16x8xf32>, %v: tensor<4x16x8xf32>) -> tensor<4x16x8xf32> {
  %zero = arith.constant 0.0 : f32
  %ninf = arith.constant 0xFF800000 : f32
  %half = arith.constant 0.5 : f32
  %es = tensor.empty() : tensor<4x16x16xf32>
  %zs = linalg.fill ins(%zero : f32) outs(%es : tensor<4x16x16xf32>) -> tensor<4x16x16xf32>
  %s = linalg.batch_matmul indexing_maps = [affine_map<(b, i, j, d) -> (b, i, d)>, affine_map<(b, i, j, d) -> (b, j, d)>, affine_map<(b, i, j, d) -> (b, i, j)>] ins(%q, %k : tensor<4x16x8xf32>, tensor<4x16x8xf32>) outs(%zs : tensor<4x16x16xf32>) -> tensor<4x16x16xf32>
  %c = tensor.splat %half : tensor<4x16x16xf32>
  %ss = arith.mulf %s, %c : tensor<4x16x16xf32>
  %er = tensor.empty() : tensor<4x16xf32>
  %fm = linalg.fill ins(%ninf : f32) outs(%er : tensor<4x16xf32>) -> tensor<4x16xf32>
  %m = linalg.reduce ins(%ss : tensor<4x16x16xf32>) outs(%fm : tensor<4x16xf32>) dimensions = [2]
    (%x: f32, %acc: f32) { %r = arith.maximumf %x, %acc : f32
      linalg.yield %r : f32 }
  %mb = linalg.broadcast ins(%m : tensor<4x16xf32>) outs(%es : tensor<4x16x16xf32>) dimensions = [2]
  %d = arith.subf %ss, %mb : tensor<4x16x16xf32>
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
  return %o : tensor<4x16x8xf32>
}

// An exclusion mask, select(m, -inf, s): the op gets the keep mask !m.
// CHECK-LABEL: func.func @inverted_select
// CHECK: %[[KEEP:.*]] = linalg.generic {{.*}} ins(%{{.*}} : tensor<1x4x1x16xi1>)
// CHECK: arith.xori
// CHECK: attn.attention {{.*}} mask(%[[KEEP]] : tensor<1x4x1x16xi1>) {scale = 0.353553385 : f32}
// PROOF: @inverted_select: 1 attn.attention after the raising
// PROOF: run 1 result 0 {{.*}}: PASS

// An additive mask made from a 0/1 float mask, (1 - m) * -1e4: a bias
// computed outside the chain, passed as the op's float mask.
// CHECK-LABEL: func.func @additive_from_keep
// CHECK: %[[BIAS:.*]] = linalg.generic
// CHECK: attn.attention {{.*}} mask(%{{.*}} : tensor<1x4x1x16xf32>) {scale = 0.353553385 : f32}
// PROOF: @additive_from_keep: 1 attn.attention after the raising
// PROOF: run 1 result 0 {{.*}}: PASS
#id = affine_map<(b, i, j) -> (b, i, j)>
#m = affine_map<(b, i, j) -> (b, 0, j)>
func.func @inverted_select(%q: tensor<4x16x8xf32>, %k: tensor<4x16x8xf32>, %v: tensor<4x16x8xf32>, %pad: tensor<4x1x16xi1>) -> tensor<4x16x8xf32> {
  %zero = arith.constant 0.0 : f32
  %ninf = arith.constant 0xFF800000 : f32
  %es = tensor.empty() : tensor<4x16x16xf32>
  %zs = linalg.fill ins(%zero : f32) outs(%es : tensor<4x16x16xf32>) -> tensor<4x16x16xf32>
  %s = linalg.batch_matmul indexing_maps = [affine_map<(b, i, j, d) -> (b, i, d)>, affine_map<(b, i, j, d) -> (b, j, d)>, affine_map<(b, i, j, d) -> (b, i, j)>] ins(%q, %k : tensor<4x16x8xf32>, tensor<4x16x8xf32>) outs(%zs : tensor<4x16x16xf32>) -> tensor<4x16x16xf32>
  %sm = linalg.generic {indexing_maps = [#id, #m, #id], iterator_types = ["parallel", "parallel", "parallel"]} ins(%s, %pad : tensor<4x16x16xf32>, tensor<4x1x16xi1>) outs(%es : tensor<4x16x16xf32>) {
  ^bb0(%x: f32, %mk: i1, %o: f32):
    %c = arith.constant 0.353553385 : f32
    %y = arith.mulf %x, %c : f32
    %r = arith.select %mk, %ninf, %y : f32
    linalg.yield %r : f32
  } -> tensor<4x16x16xf32>
  %p = linalg.softmax dimension(2) ins(%sm : tensor<4x16x16xf32>) outs(%es : tensor<4x16x16xf32>) -> tensor<4x16x16xf32>
  %eo = tensor.empty() : tensor<4x16x8xf32>
  %zo = linalg.fill ins(%zero : f32) outs(%eo : tensor<4x16x8xf32>) -> tensor<4x16x8xf32>
  %o = linalg.batch_matmul ins(%p, %v : tensor<4x16x16xf32>, tensor<4x16x8xf32>) outs(%zo : tensor<4x16x8xf32>) -> tensor<4x16x8xf32>
  return %o : tensor<4x16x8xf32>
}
func.func @additive_from_keep(%q: tensor<4x16x8xf32>, %k: tensor<4x16x8xf32>, %v: tensor<4x16x8xf32>, %keep: tensor<4x1x16xf32>) -> tensor<4x16x8xf32> {
  %zero = arith.constant 0.0 : f32
  %one = arith.constant 1.0 : f32
  %big = arith.constant -10000.0 : f32
  %eb = tensor.empty() : tensor<4x1x16xf32>
  %bias = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel", "parallel"]} ins(%keep : tensor<4x1x16xf32>) outs(%eb : tensor<4x1x16xf32>) {
  ^bb0(%x: f32, %o: f32):
    %a = arith.subf %one, %x : f32
    %b = arith.mulf %a, %big : f32
    linalg.yield %b : f32
  } -> tensor<4x1x16xf32>
  %es = tensor.empty() : tensor<4x16x16xf32>
  %zs = linalg.fill ins(%zero : f32) outs(%es : tensor<4x16x16xf32>) -> tensor<4x16x16xf32>
  %s = linalg.batch_matmul indexing_maps = [affine_map<(b, i, j, d) -> (b, i, d)>, affine_map<(b, i, j, d) -> (b, j, d)>, affine_map<(b, i, j, d) -> (b, i, j)>] ins(%q, %k : tensor<4x16x8xf32>, tensor<4x16x8xf32>) outs(%zs : tensor<4x16x16xf32>) -> tensor<4x16x16xf32>
  %sm = linalg.generic {indexing_maps = [#id, #m, #id], iterator_types = ["parallel", "parallel", "parallel"]} ins(%s, %bias : tensor<4x16x16xf32>, tensor<4x1x16xf32>) outs(%es : tensor<4x16x16xf32>) {
  ^bb0(%x: f32, %b: f32, %o: f32):
    %c = arith.constant 0.353553385 : f32
    %y = arith.mulf %x, %c : f32
    %r = arith.addf %y, %b : f32
    linalg.yield %r : f32
  } -> tensor<4x16x16xf32>
  %p = linalg.softmax dimension(2) ins(%sm : tensor<4x16x16xf32>) outs(%es : tensor<4x16x16xf32>) -> tensor<4x16x16xf32>
  %eo = tensor.empty() : tensor<4x16x8xf32>
  %zo = linalg.fill ins(%zero : f32) outs(%eo : tensor<4x16x8xf32>) -> tensor<4x16x8xf32>
  %o = linalg.batch_matmul ins(%p, %v : tensor<4x16x16xf32>, tensor<4x16x8xf32>) outs(%zo : tensor<4x16x8xf32>) -> tensor<4x16x8xf32>
  return %o : tensor<4x16x8xf32>
}

// Grouped-query attention written like repeat_kv: K and V [B, Hkv, L, D]
// expanded to [B, Hkv, 1, L, D], broadcast (a copy generic for K,
// linalg.broadcast for V) to [B, Hkv, G, L, D] and merged to [B, Hq, L, D],
// then folded into the batch for 3-D matmuls.
// CHECK-LABEL: func.func @gqa_repeat_kv
// CHECK-NEXT: %[[O:.*]] = attn.attention ins(%arg0, %arg1, %arg2 : tensor<2x8x16x8xf32>, tensor<2x2x16x8xf32>, tensor<2x2x16x8xf32>) mask(%arg3 : tensor<2x1x1x16xf32>) {scale = 0.353553385 : f32}
// CHECK-NEXT: return %[[O]]
// PROOF: @gqa_repeat_kv: 1 attn.attention after the raising
// PROOF: run 1 result 0 {{.*}}: PASS
func.func @gqa_repeat_kv(%q: tensor<2x8x16x8xf32>, %k: tensor<2x2x16x8xf32>, %v: tensor<2x2x16x8xf32>, %mask: tensor<2x1x1x16xf32>) -> tensor<2x8x16x8xf32> {
  %zero = arith.constant 0.0 : f32
  %k5 = tensor.expand_shape %k [[0], [1, 2], [3], [4]] output_shape [2, 2, 1, 16, 8] : tensor<2x2x16x8xf32> into tensor<2x2x1x16x8xf32>
  %ek = tensor.empty() : tensor<2x2x4x16x8xf32>
  %kb = linalg.generic {indexing_maps = [affine_map<(b, h, g, l, d) -> (b, h, 0, l, d)>, affine_map<(b, h, g, l, d) -> (b, h, g, l, d)>], iterator_types = ["parallel", "parallel", "parallel", "parallel", "parallel"]} ins(%k5 : tensor<2x2x1x16x8xf32>) outs(%ek : tensor<2x2x4x16x8xf32>) {
  ^bb0(%x: f32, %o: f32):
    linalg.yield %x : f32
  } -> tensor<2x2x4x16x8xf32>
  %kr = tensor.collapse_shape %kb [[0], [1, 2], [3], [4]] : tensor<2x2x4x16x8xf32> into tensor<2x8x16x8xf32>
  %vb = linalg.broadcast ins(%v : tensor<2x2x16x8xf32>) outs(%ek : tensor<2x2x4x16x8xf32>) dimensions = [2]
  %vr = tensor.collapse_shape %vb [[0], [1, 2], [3], [4]] : tensor<2x2x4x16x8xf32> into tensor<2x8x16x8xf32>
  %ekt = tensor.empty() : tensor<2x8x8x16xf32>
  %kt = linalg.transpose ins(%kr : tensor<2x8x16x8xf32>) outs(%ekt : tensor<2x8x8x16xf32>) permutation = [0, 1, 3, 2]
  %q3 = tensor.collapse_shape %q [[0, 1], [2], [3]] : tensor<2x8x16x8xf32> into tensor<16x16x8xf32>
  %k3 = tensor.collapse_shape %kt [[0, 1], [2], [3]] : tensor<2x8x8x16xf32> into tensor<16x8x16xf32>
  %v3 = tensor.collapse_shape %vr [[0, 1], [2], [3]] : tensor<2x8x16x8xf32> into tensor<16x16x8xf32>
  %es = tensor.empty() : tensor<16x16x16xf32>
  %zs = linalg.fill ins(%zero : f32) outs(%es : tensor<16x16x16xf32>) -> tensor<16x16x16xf32>
  %s3 = linalg.batch_matmul ins(%q3, %k3 : tensor<16x16x8xf32>, tensor<16x8x16xf32>) outs(%zs : tensor<16x16x16xf32>) -> tensor<16x16x16xf32>
  %s = tensor.expand_shape %s3 [[0, 1], [2], [3]] output_shape [2, 8, 16, 16] : tensor<16x16x16xf32> into tensor<2x8x16x16xf32>
  %e4 = tensor.empty() : tensor<2x8x16x16xf32>
  %sb = linalg.generic {indexing_maps = [affine_map<(b, h, i, j) -> (b, h, i, j)>, affine_map<(b, h, i, j) -> (b, 0, 0, j)>, affine_map<(b, h, i, j) -> (b, h, i, j)>], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%s, %mask : tensor<2x8x16x16xf32>, tensor<2x1x1x16xf32>) outs(%e4 : tensor<2x8x16x16xf32>) {
  ^bb0(%x: f32, %b: f32, %o: f32):
    %c = arith.constant 0.353553385 : f32
    %y = arith.mulf %x, %c : f32
    %z = arith.addf %y, %b : f32
    linalg.yield %z : f32
  } -> tensor<2x8x16x16xf32>
  %p = linalg.softmax dimension(3) ins(%sb : tensor<2x8x16x16xf32>) outs(%e4 : tensor<2x8x16x16xf32>) -> tensor<2x8x16x16xf32>
  %p3 = tensor.collapse_shape %p [[0, 1], [2], [3]] : tensor<2x8x16x16xf32> into tensor<16x16x16xf32>
  %eo = tensor.empty() : tensor<16x16x8xf32>
  %zo = linalg.fill ins(%zero : f32) outs(%eo : tensor<16x16x8xf32>) -> tensor<16x16x8xf32>
  %o3 = linalg.batch_matmul ins(%p3, %v3 : tensor<16x16x16xf32>, tensor<16x16x8xf32>) outs(%zo : tensor<16x16x8xf32>) -> tensor<16x16x8xf32>
  %o = tensor.expand_shape %o3 [[0, 1], [2], [3]] output_shape [2, 8, 16, 8] : tensor<16x16x8xf32> into tensor<2x8x16x8xf32>
  return %o : tensor<2x8x16x8xf32>
}

// The same with a bias per query head (ALiBi-like): the mask's KV-head and
// group dims are merged like Q's.
// CHECK-LABEL: func.func @gqa_head_mask
// CHECK-NEXT: %[[O:.*]] = attn.attention ins(%arg0, %arg1, %arg2 : tensor<2x8x16x8xf32>, tensor<2x2x16x8xf32>, tensor<2x2x16x8xf32>) mask(%arg3 : tensor<2x8x1x16xf32>) {scale = 0.353553385 : f32}
// CHECK-NEXT: return %[[O]]
// PROOF: @gqa_head_mask: 1 attn.attention after the raising
// PROOF: run 1 result 0 {{.*}}: PASS
func.func @gqa_head_mask(%q: tensor<2x8x16x8xf32>, %k: tensor<2x2x16x8xf32>, %v: tensor<2x2x16x8xf32>, %mask: tensor<2x8x1x16xf32>) -> tensor<2x8x16x8xf32> {
  %zero = arith.constant 0.0 : f32
  %k5 = tensor.expand_shape %k [[0], [1, 2], [3], [4]] output_shape [2, 2, 1, 16, 8] : tensor<2x2x16x8xf32> into tensor<2x2x1x16x8xf32>
  %ek = tensor.empty() : tensor<2x2x4x16x8xf32>
  %kb = linalg.generic {indexing_maps = [affine_map<(b, h, g, l, d) -> (b, h, 0, l, d)>, affine_map<(b, h, g, l, d) -> (b, h, g, l, d)>], iterator_types = ["parallel", "parallel", "parallel", "parallel", "parallel"]} ins(%k5 : tensor<2x2x1x16x8xf32>) outs(%ek : tensor<2x2x4x16x8xf32>) {
  ^bb0(%x: f32, %o: f32):
    linalg.yield %x : f32
  } -> tensor<2x2x4x16x8xf32>
  %kr = tensor.collapse_shape %kb [[0], [1, 2], [3], [4]] : tensor<2x2x4x16x8xf32> into tensor<2x8x16x8xf32>
  %vb = linalg.broadcast ins(%v : tensor<2x2x16x8xf32>) outs(%ek : tensor<2x2x4x16x8xf32>) dimensions = [2]
  %vr = tensor.collapse_shape %vb [[0], [1, 2], [3], [4]] : tensor<2x2x4x16x8xf32> into tensor<2x8x16x8xf32>
  %ekt = tensor.empty() : tensor<2x8x8x16xf32>
  %kt = linalg.transpose ins(%kr : tensor<2x8x16x8xf32>) outs(%ekt : tensor<2x8x8x16xf32>) permutation = [0, 1, 3, 2]
  %q3 = tensor.collapse_shape %q [[0, 1], [2], [3]] : tensor<2x8x16x8xf32> into tensor<16x16x8xf32>
  %k3 = tensor.collapse_shape %kt [[0, 1], [2], [3]] : tensor<2x8x8x16xf32> into tensor<16x8x16xf32>
  %v3 = tensor.collapse_shape %vr [[0, 1], [2], [3]] : tensor<2x8x16x8xf32> into tensor<16x16x8xf32>
  %es = tensor.empty() : tensor<16x16x16xf32>
  %zs = linalg.fill ins(%zero : f32) outs(%es : tensor<16x16x16xf32>) -> tensor<16x16x16xf32>
  %s3 = linalg.batch_matmul ins(%q3, %k3 : tensor<16x16x8xf32>, tensor<16x8x16xf32>) outs(%zs : tensor<16x16x16xf32>) -> tensor<16x16x16xf32>
  %s = tensor.expand_shape %s3 [[0, 1], [2], [3]] output_shape [2, 8, 16, 16] : tensor<16x16x16xf32> into tensor<2x8x16x16xf32>
  %e4 = tensor.empty() : tensor<2x8x16x16xf32>
  %sb = linalg.generic {indexing_maps = [affine_map<(b, h, i, j) -> (b, h, i, j)>, affine_map<(b, h, i, j) -> (b, h, 0, j)>, affine_map<(b, h, i, j) -> (b, h, i, j)>], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%s, %mask : tensor<2x8x16x16xf32>, tensor<2x8x1x16xf32>) outs(%e4 : tensor<2x8x16x16xf32>) {
  ^bb0(%x: f32, %b: f32, %o: f32):
    %c = arith.constant 0.353553385 : f32
    %y = arith.mulf %x, %c : f32
    %z = arith.addf %y, %b : f32
    linalg.yield %z : f32
  } -> tensor<2x8x16x16xf32>
  %p = linalg.softmax dimension(3) ins(%sb : tensor<2x8x16x16xf32>) outs(%e4 : tensor<2x8x16x16xf32>) -> tensor<2x8x16x16xf32>
  %p3 = tensor.collapse_shape %p [[0, 1], [2], [3]] : tensor<2x8x16x16xf32> into tensor<16x16x16xf32>
  %eo = tensor.empty() : tensor<16x16x8xf32>
  %zo = linalg.fill ins(%zero : f32) outs(%eo : tensor<16x16x8xf32>) -> tensor<16x16x8xf32>
  %o3 = linalg.batch_matmul ins(%p3, %v3 : tensor<16x16x16xf32>, tensor<16x16x8xf32>) outs(%zo : tensor<16x16x8xf32>) -> tensor<16x16x8xf32>
  %o = tensor.expand_shape %o3 [[0, 1], [2], [3]] output_shape [2, 8, 16, 8] : tensor<16x16x8xf32> into tensor<2x8x16x8xf32>
  return %o : tensor<2x8x16x8xf32>
}

// A constant additive band (0 inside, -inf outside) over [Lq, Lk] = [4, 6]
// allowing keys i + 1 .. i + 2: bottom-right causal with window [1, -1].
// CHECK-LABEL: func.func @const_window_bias
// CHECK: attn.attention ins({{.*}}) {causal = #attn.causal<bottom_right>, scale = 1.000000e+00 : f32, window = array<i64: 1, -1>}
// PROOF: @const_window_bias: 1 attn.attention after the raising
// PROOF: run 1 result 0 {{.*}}: PASS
func.func @const_window_bias(%q: tensor<2x4x8xf32>, %k: tensor<2x6x8xf32>, %v: tensor<2x6x8xf32>) -> tensor<2x4x8xf32> {
  %zero = arith.constant 0.0 : f32
  %bias = arith.constant dense<[[0xFF800000, 0.0, 0.0, 0xFF800000, 0xFF800000, 0xFF800000], [0xFF800000, 0xFF800000, 0.0, 0.0, 0xFF800000, 0xFF800000], [0xFF800000, 0xFF800000, 0xFF800000, 0.0, 0.0, 0xFF800000], [0xFF800000, 0xFF800000, 0xFF800000, 0xFF800000, 0.0, 0.0]]> : tensor<4x6xf32>
  %es = tensor.empty() : tensor<2x4x6xf32>
  %zs = linalg.fill ins(%zero : f32) outs(%es : tensor<2x4x6xf32>) -> tensor<2x4x6xf32>
  %s = linalg.batch_matmul indexing_maps = [affine_map<(b, i, j, d) -> (b, i, d)>, affine_map<(b, i, j, d) -> (b, j, d)>, affine_map<(b, i, j, d) -> (b, i, j)>] ins(%q, %k : tensor<2x4x8xf32>, tensor<2x6x8xf32>) outs(%zs : tensor<2x4x6xf32>) -> tensor<2x4x6xf32>
  %sb = linalg.generic {indexing_maps = [affine_map<(b, i, j) -> (b, i, j)>, affine_map<(b, i, j) -> (i, j)>, affine_map<(b, i, j) -> (b, i, j)>], iterator_types = ["parallel", "parallel", "parallel"]} ins(%s, %bias : tensor<2x4x6xf32>, tensor<4x6xf32>) outs(%es : tensor<2x4x6xf32>) {
  ^bb0(%x: f32, %b: f32, %o: f32):
    %y = arith.addf %x, %b : f32
    linalg.yield %y : f32
  } -> tensor<2x4x6xf32>
  %p = linalg.softmax dimension(2) ins(%sb : tensor<2x4x6xf32>) outs(%es : tensor<2x4x6xf32>) -> tensor<2x4x6xf32>
  %eo = tensor.empty() : tensor<2x4x8xf32>
  %zo = linalg.fill ins(%zero : f32) outs(%eo : tensor<2x4x8xf32>) -> tensor<2x4x8xf32>
  %o = linalg.batch_matmul ins(%p, %v : tensor<2x4x6xf32>, tensor<2x6x8xf32>) outs(%zo : tensor<2x4x8xf32>) -> tensor<2x4x8xf32>
  return %o : tensor<2x4x8xf32>
}

// A row max that also computes an argmax nobody reads: the dead result is
// dropped and the chain is raised.
// CHECK-LABEL: func.func @unused_argmax
// CHECK: attn.attention
// PROOF: @unused_argmax: 1 attn.attention after the raising
// PROOF: run 1 result 0 {{.*}}: PASS
func.func @unused_argmax(%q: tensor<4x16x8xf32>, %k: tensor<4x16x8xf32>, %v: tensor<4x16x8xf32>) -> tensor<4x16x8xf32> {
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
  return %o : tensor<4x16x8xf32>
}

// Soft capping (Gemma 2): 5 * tanh(s / 5) after the scale, and a causal mask
// from linalg.index written as an exclusion (select(j > i, -inf, s)), all in
// one generic body.
// CHECK-LABEL: func.func @softcap
// CHECK: attn.attention ins({{.*}}) {causal = #attn.causal<top_left>, scale = 0.353553385 : f32, softcap = 5.000000e+00 : f32}
// PROOF: @softcap: 1 attn.attention after the raising
// PROOF: run 1 result 0 {{.*}}: PASS
func.func @softcap(%q: tensor<4x16x8xf32>, %k: tensor<4x16x8xf32>, %v: tensor<4x16x8xf32>) -> tensor<4x16x8xf32> {
  %zero = arith.constant 0.0 : f32
  %ninf = arith.constant 0xFF800000 : f32
  %es = tensor.empty() : tensor<4x16x16xf32>
  %zs = linalg.fill ins(%zero : f32) outs(%es : tensor<4x16x16xf32>) -> tensor<4x16x16xf32>
  %s = linalg.batch_matmul indexing_maps = [affine_map<(b, i, j, d) -> (b, i, d)>, affine_map<(b, i, j, d) -> (b, j, d)>, affine_map<(b, i, j, d) -> (b, i, j)>] ins(%q, %k : tensor<4x16x8xf32>, tensor<4x16x8xf32>) outs(%zs : tensor<4x16x16xf32>) -> tensor<4x16x16xf32>
  %capped = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel", "parallel"]} ins(%s : tensor<4x16x16xf32>) outs(%es : tensor<4x16x16xf32>) {
  ^bb0(%x: f32, %o: f32):
    %c = arith.constant 0.353553385 : f32
    %cap = arith.constant 5.0 : f32
    %y = arith.mulf %x, %c : f32
    %d = arith.divf %y, %cap : f32
    %t = math.tanh %d : f32
    %z = arith.mulf %t, %cap : f32
    %i = linalg.index 1 : index
    %j = linalg.index 2 : index
    %after = arith.cmpi ugt, %j, %i : index
    %r = arith.select %after, %ninf, %z : f32
    linalg.yield %r : f32
  } -> tensor<4x16x16xf32>
  %p = linalg.softmax dimension(2) ins(%capped : tensor<4x16x16xf32>) outs(%es : tensor<4x16x16xf32>) -> tensor<4x16x16xf32>
  %eo = tensor.empty() : tensor<4x16x8xf32>
  %zo = linalg.fill ins(%zero : f32) outs(%eo : tensor<4x16x8xf32>) -> tensor<4x16x8xf32>
  %o = linalg.batch_matmul ins(%p, %v : tensor<4x16x16xf32>, tensor<4x16x8xf32>) outs(%zo : tensor<4x16x8xf32>) -> tensor<4x16x8xf32>
  return %o : tensor<4x16x8xf32>
}

// The same with a "fast math" tanh (fastmath<afn>): softcap_approx, which
// lets the GPU kernels use tanh.approx.f32 (docs/semantics.md section 3.1).
// CHECK-LABEL: func.func @softcap_fast
// CHECK: attn.attention ins({{.*}}) {causal = #attn.causal<top_left>, scale = 0.353553385 : f32, softcap = 5.000000e+00 : f32, softcap_approx}
// PROOF: @softcap_fast: 1 attn.attention after the raising
// PROOF: run 1 result 0 {{.*}}: PASS
func.func @softcap_fast(%q: tensor<4x16x8xf32>, %k: tensor<4x16x8xf32>, %v: tensor<4x16x8xf32>) -> tensor<4x16x8xf32> {
  %zero = arith.constant 0.0 : f32
  %ninf = arith.constant 0xFF800000 : f32
  %es = tensor.empty() : tensor<4x16x16xf32>
  %zs = linalg.fill ins(%zero : f32) outs(%es : tensor<4x16x16xf32>) -> tensor<4x16x16xf32>
  %s = linalg.batch_matmul indexing_maps = [affine_map<(b, i, j, d) -> (b, i, d)>, affine_map<(b, i, j, d) -> (b, j, d)>, affine_map<(b, i, j, d) -> (b, i, j)>] ins(%q, %k : tensor<4x16x8xf32>, tensor<4x16x8xf32>) outs(%zs : tensor<4x16x16xf32>) -> tensor<4x16x16xf32>
  %capped = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel", "parallel"]} ins(%s : tensor<4x16x16xf32>) outs(%es : tensor<4x16x16xf32>) {
  ^bb0(%x: f32, %o: f32):
    %c = arith.constant 0.353553385 : f32
    %cap = arith.constant 5.0 : f32
    %y = arith.mulf %x, %c : f32
    %d = arith.divf %y, %cap : f32
    %t = math.tanh %d fastmath<afn> : f32
    %z = arith.mulf %t, %cap : f32
    %i = linalg.index 1 : index
    %j = linalg.index 2 : index
    %after = arith.cmpi ugt, %j, %i : index
    %r = arith.select %after, %ninf, %z : f32
    linalg.yield %r : f32
  } -> tensor<4x16x16xf32>
  %p = linalg.softmax dimension(2) ins(%capped : tensor<4x16x16xf32>) outs(%es : tensor<4x16x16xf32>) -> tensor<4x16x16xf32>
  %eo = tensor.empty() : tensor<4x16x8xf32>
  %zo = linalg.fill ins(%zero : f32) outs(%eo : tensor<4x16x8xf32>) -> tensor<4x16x8xf32>
  %o = linalg.batch_matmul ins(%p, %v : tensor<4x16x16xf32>, tensor<4x16x8xf32>) outs(%zo : tensor<4x16x8xf32>) -> tensor<4x16x8xf32>
  return %o : tensor<4x16x8xf32>
}

// A sliding window with a left edge (i - 3 <= j <= i) built from two
// linalg.index comparisons in its own generic: evaluated to a constant band,
// it becomes causal = top_left with window [3, -1].
// CHECK-LABEL: func.func @index_window
// CHECK: attn.attention ins({{.*}}) {causal = #attn.causal<top_left>, scale = 1.000000e+00 : f32, window = array<i64: 3, -1>}
// PROOF: @index_window: 1 attn.attention after the raising
// PROOF: run 1 result 0 {{.*}}: PASS
func.func @index_window(%q: tensor<4x16x8xf32>, %k: tensor<4x16x8xf32>, %v: tensor<4x16x8xf32>) -> tensor<4x16x8xf32> {
  %zero = arith.constant 0.0 : f32
  %ninf = arith.constant 0xFF800000 : f32
  %c3 = arith.constant 3 : index
  %es = tensor.empty() : tensor<4x16x16xf32>
  %zs = linalg.fill ins(%zero : f32) outs(%es : tensor<4x16x16xf32>) -> tensor<4x16x16xf32>
  %s = linalg.batch_matmul indexing_maps = [affine_map<(b, i, j, d) -> (b, i, d)>, affine_map<(b, i, j, d) -> (b, j, d)>, affine_map<(b, i, j, d) -> (b, i, j)>] ins(%q, %k : tensor<4x16x8xf32>, tensor<4x16x8xf32>) outs(%zs : tensor<4x16x16xf32>) -> tensor<4x16x16xf32>
  %em = tensor.empty() : tensor<16x16xi1>
  %keep = linalg.generic {indexing_maps = [affine_map<(i, j) -> (i, j)>], iterator_types = ["parallel", "parallel"]} outs(%em : tensor<16x16xi1>) {
  ^bb0(%o: i1):
    %i = linalg.index 0 : index
    %j = linalg.index 1 : index
    %notAfter = arith.cmpi ule, %j, %i : index
    %j3 = arith.addi %j, %c3 : index
    %inWindow = arith.cmpi uge, %j3, %i : index
    %ok = arith.andi %notAfter, %inWindow : i1
    linalg.yield %ok : i1
  } -> tensor<16x16xi1>
  %sm = linalg.generic {indexing_maps = [affine_map<(b, i, j) -> (b, i, j)>, affine_map<(b, i, j) -> (i, j)>, affine_map<(b, i, j) -> (b, i, j)>], iterator_types = ["parallel", "parallel", "parallel"]} ins(%s, %keep : tensor<4x16x16xf32>, tensor<16x16xi1>) outs(%es : tensor<4x16x16xf32>) {
  ^bb0(%x: f32, %m: i1, %o: f32):
    %r = arith.select %m, %x, %ninf : f32
    linalg.yield %r : f32
  } -> tensor<4x16x16xf32>
  %p = linalg.softmax dimension(2) ins(%sm : tensor<4x16x16xf32>) outs(%es : tensor<4x16x16xf32>) -> tensor<4x16x16xf32>
  %eo = tensor.empty() : tensor<4x16x8xf32>
  %zo = linalg.fill ins(%zero : f32) outs(%eo : tensor<4x16x8xf32>) -> tensor<4x16x8xf32>
  %o = linalg.batch_matmul ins(%p, %v : tensor<4x16x16xf32>, tensor<4x16x8xf32>) outs(%zo : tensor<4x16x8xf32>) -> tensor<4x16x8xf32>
  return %o : tensor<4x16x8xf32>
}

// Decoding with grouped-query heads in bf16 (Hq 8 / Hkv 2, one new token, a
// 512-key cache), 4-D einsum contractions, the softmax widened to f32: one
// op, which attn-compile turns into the split-KV group (MANIFEST above).
// CHECK-LABEL: func.func @gqa_decode_bf16
// CHECK-NEXT: %[[O:.*]] = attn.attention ins(%arg0, %arg1, %arg2 : tensor<1x8x1x128xbf16>, tensor<1x2x512x128xbf16>, tensor<1x2x512x128xbf16>) {scale = 0.0883883461 : f32}
// CHECK-NEXT: return %[[O]]
// PROOF: @gqa_decode_bf16: 1 attn.attention after the raising
// PROOF: run 1 result 0 tensor<1x8x1x128xbf16>: {{.*}}: PASS
#dq = affine_map<(b, h, i, j, d) -> (b, h, i, d)>
#dk = affine_map<(b, h, i, j, d) -> (b, h, j, d)>
#ds = affine_map<(b, h, i, j, d) -> (b, h, i, j)>
#dp = affine_map<(b, h, i, d, j) -> (b, h, i, j)>
#dv = affine_map<(b, h, i, d, j) -> (b, h, j, d)>
#do = affine_map<(b, h, i, d, j) -> (b, h, i, d)>
func.func @gqa_decode_bf16(%q: tensor<1x8x1x128xbf16>, %k: tensor<1x2x512x128xbf16>, %v: tensor<1x2x512x128xbf16>) -> tensor<1x8x1x128xbf16> {
  %zero = arith.constant 0.0 : bf16
  %e5 = tensor.empty() : tensor<1x2x4x512x128xbf16>
  %kb = linalg.broadcast ins(%k : tensor<1x2x512x128xbf16>) outs(%e5 : tensor<1x2x4x512x128xbf16>) dimensions = [2]
  %vb = linalg.broadcast ins(%v : tensor<1x2x512x128xbf16>) outs(%e5 : tensor<1x2x4x512x128xbf16>) dimensions = [2]
  %kr = tensor.collapse_shape %kb [[0], [1, 2], [3], [4]] : tensor<1x2x4x512x128xbf16> into tensor<1x8x512x128xbf16>
  %vr = tensor.collapse_shape %vb [[0], [1, 2], [3], [4]] : tensor<1x2x4x512x128xbf16> into tensor<1x8x512x128xbf16>
  %es = tensor.empty() : tensor<1x8x1x512xbf16>
  %zs = linalg.fill ins(%zero : bf16) outs(%es : tensor<1x8x1x512xbf16>) -> tensor<1x8x1x512xbf16>
  %s = linalg.generic {indexing_maps = [#dq, #dk, #ds], iterator_types = ["parallel", "parallel", "parallel", "parallel", "reduction"]} ins(%q, %kr : tensor<1x8x1x128xbf16>, tensor<1x8x512x128xbf16>) outs(%zs : tensor<1x8x1x512xbf16>) {
  ^bb0(%a: bf16, %b: bf16, %acc: bf16):
    %m = arith.mulf %a, %b : bf16
    %r = arith.addf %acc, %m : bf16
    linalg.yield %r : bf16
  } -> tensor<1x8x1x512xbf16>
  %e32 = tensor.empty() : tensor<1x8x1x512xf32>
  %s32 = linalg.generic {indexing_maps = [affine_map<(b, h, i, j) -> (b, h, i, j)>, affine_map<(b, h, i, j) -> (b, h, i, j)>], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%s : tensor<1x8x1x512xbf16>) outs(%e32 : tensor<1x8x1x512xf32>) {
  ^bb0(%x: bf16, %o: f32):
    %y = arith.extf %x : bf16 to f32
    %c = arith.constant 0.0883883461 : f32
    %z = arith.mulf %y, %c : f32
    linalg.yield %z : f32
  } -> tensor<1x8x1x512xf32>
  %p32 = linalg.softmax dimension(3) ins(%s32 : tensor<1x8x1x512xf32>) outs(%e32 : tensor<1x8x1x512xf32>) -> tensor<1x8x1x512xf32>
  %pb = linalg.generic {indexing_maps = [affine_map<(b, h, i, j) -> (b, h, i, j)>, affine_map<(b, h, i, j) -> (b, h, i, j)>], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%p32 : tensor<1x8x1x512xf32>) outs(%es : tensor<1x8x1x512xbf16>) {
  ^bb0(%x: f32, %o: bf16):
    %y = arith.truncf %x : f32 to bf16
    linalg.yield %y : bf16
  } -> tensor<1x8x1x512xbf16>
  %eo = tensor.empty() : tensor<1x8x1x128xbf16>
  %zo = linalg.fill ins(%zero : bf16) outs(%eo : tensor<1x8x1x128xbf16>) -> tensor<1x8x1x128xbf16>
  %o = linalg.generic {indexing_maps = [#dp, #dv, #do], iterator_types = ["parallel", "parallel", "parallel", "parallel", "reduction"]} ins(%pb, %vr : tensor<1x8x1x512xbf16>, tensor<1x8x512x128xbf16>) outs(%zo : tensor<1x8x1x128xbf16>) {
  ^bb0(%a: bf16, %b: bf16, %acc: bf16):
    %m = arith.mulf %a, %b : bf16
    %r = arith.addf %acc, %m : bf16
    linalg.yield %r : bf16
  } -> tensor<1x8x1x128xbf16>
  return %o : tensor<1x8x1x128xbf16>
}

// Additive masks built from index comparisons in the scores' generic,
// s + select(j <= i + 16, 0, -inf) (chunked prefill, Lq = 16 against Lk = 32):
// attn-normalize-chains evaluates the comparison into a boolean constant and
// leaves the select as the bias; the bias select(keep, 0, -inf) is that
// boolean mask, whose band becomes causal = bottom_right (it became a
// [1, 8, 16, 32] f32 mask operand before).
// CHECK-LABEL: func.func @additive_index_causal
// CHECK-NOT: mask(
// CHECK: attn.attention {{.*}} {causal = #attn.causal<bottom_right>, scale = 1.000000e+00 : f32}
// PROOF: @additive_index_causal: 1 attn.attention after the raising
// PROOF: run 1 result 0 {{.*}}: PASS
#ac_id = affine_map<(b, i, j) -> (b, i, j)>
func.func @additive_index_causal(%q: tensor<8x16x16xf32>, %kt: tensor<8x16x32xf32>, %v: tensor<8x32x16xf32>) -> tensor<8x16x16xf32> {
  %zero = arith.constant 0.0 : f32
  %ninf = arith.constant 0xFF800000 : f32
  %c = arith.constant 0.25 : f32
  %c16 = arith.constant 16 : i32
  %es = tensor.empty() : tensor<8x16x32xf32>
  %zs = linalg.fill ins(%zero : f32) outs(%es : tensor<8x16x32xf32>) -> tensor<8x16x32xf32>
  %s = linalg.batch_matmul ins(%q, %kt : tensor<8x16x16xf32>, tensor<8x16x32xf32>) outs(%zs : tensor<8x16x32xf32>) -> tensor<8x16x32xf32>
  %sm = linalg.generic {indexing_maps = [#ac_id, #ac_id], iterator_types = ["parallel", "parallel", "parallel"]} ins(%s : tensor<8x16x32xf32>) outs(%es : tensor<8x16x32xf32>) {
  ^bb0(%x: f32, %o: f32):
    %i = linalg.index 1 : index
    %j = linalg.index 2 : index
    %i32 = arith.index_cast %i : index to i32
    %j32 = arith.index_cast %j : index to i32
    %lim = arith.addi %c16, %i32 : i32
    %ok = arith.cmpi ule, %j32, %lim : i32
    %b = arith.select %ok, %zero, %ninf : f32
    %z = arith.addf %x, %b : f32
    linalg.yield %z : f32
  } -> tensor<8x16x32xf32>
  %p = linalg.softmax dimension(2) ins(%sm : tensor<8x16x32xf32>) outs(%es : tensor<8x16x32xf32>) -> tensor<8x16x32xf32>
  %eo = tensor.empty() : tensor<8x16x16xf32>
  %zo = linalg.fill ins(%zero : f32) outs(%eo : tensor<8x16x16xf32>) -> tensor<8x16x16xf32>
  %o = linalg.batch_matmul ins(%p, %v : tensor<8x16x32xf32>, tensor<8x32x16xf32>) outs(%zo : tensor<8x16x16xf32>) -> tensor<8x16x16xf32>
  return %o : tensor<8x16x16xf32>
}

// torch.triu(full(-inf), 1) as an input-less [L, L] f32 bias generic,
// broadcast over batch and heads: causal = top_left, no mask operand.
// CHECK-LABEL: func.func @triu_bias
// CHECK-NOT: mask(
// CHECK: attn.attention {{.*}} {causal = #attn.causal<top_left>, scale = 2.500000e-01 : f32}
// PROOF: @triu_bias: 1 attn.attention after the raising
// PROOF: run 1 result 0 {{.*}}: PASS
#tb_m2 = affine_map<(i, j) -> (i, j)>
#tb_id = affine_map<(b, h, i, j) -> (b, h, i, j)>
#tb_mk = affine_map<(b, h, i, j) -> (i, j)>
#tb_row = affine_map<(b, h, i, j) -> (b, h, i)>
func.func @triu_bias(%q: tensor<2x4x32x16xf32>, %k: tensor<2x4x32x16xf32>, %v: tensor<2x4x32x16xf32>) -> tensor<2x4x32x16xf32> {
  %zero = arith.constant 0.0 : f32
  %one = arith.constant 1.0 : f32
  %ninf = arith.constant 0xFF800000 : f32
  %scale = arith.constant dense<0.25> : tensor<2x4x32x32xf32>
  %em = tensor.empty() : tensor<32x32xf32>
  %keep = linalg.generic {indexing_maps = [#tb_m2], iterator_types = ["parallel", "parallel"]} outs(%em : tensor<32x32xf32>) {
  ^bb0(%o: f32):
    %i = linalg.index 0 : index
    %j = linalg.index 1 : index
    %i64 = arith.index_cast %i : index to i64
    %j64 = arith.index_cast %j : index to i64
    %c = arith.cmpi sgt, %j64, %i64 : i64
    %bv = arith.select %c, %ninf, %zero : f32
    linalg.yield %bv : f32
  } -> tensor<32x32xf32>
  %es = tensor.empty() : tensor<2x4x32x32xf32>
  %zs = linalg.fill ins(%zero : f32) outs(%es : tensor<2x4x32x32xf32>) -> tensor<2x4x32x32xf32>
  %s = linalg.generic {indexing_maps = [affine_map<(b, h, i, j, d) -> (b, h, i, d)>, affine_map<(b, h, i, j, d) -> (b, h, j, d)>, affine_map<(b, h, i, j, d) -> (b, h, i, j)>], iterator_types = ["parallel", "parallel", "parallel", "parallel", "reduction"]}
      ins(%q, %k : tensor<2x4x32x16xf32>, tensor<2x4x32x16xf32>) outs(%zs : tensor<2x4x32x32xf32>) {
  ^bb0(%a: f32, %b: f32, %c: f32):
    %m = arith.mulf %a, %b : f32
    %r = arith.addf %c, %m : f32
    linalg.yield %r : f32
  } -> tensor<2x4x32x32xf32>
  %ss = arith.mulf %s, %scale : tensor<2x4x32x32xf32>
  %sm = linalg.generic {indexing_maps = [#tb_id, #tb_mk, #tb_id], iterator_types = ["parallel", "parallel", "parallel", "parallel"]}
      ins(%ss, %keep : tensor<2x4x32x32xf32>, tensor<32x32xf32>) outs(%es : tensor<2x4x32x32xf32>) {
  ^bb0(%x: f32, %kp: f32, %o: f32):
    %r = arith.addf %kp, %x : f32
    linalg.yield %r : f32
  } -> tensor<2x4x32x32xf32>
  %er = tensor.empty() : tensor<2x4x32xf32>
  %fm = linalg.fill ins(%ninf : f32) outs(%er : tensor<2x4x32xf32>) -> tensor<2x4x32xf32>
  %mx = linalg.reduce ins(%sm : tensor<2x4x32x32xf32>) outs(%fm : tensor<2x4x32xf32>) dimensions = [3]
    (%in: f32, %acc: f32) {
      %r = arith.maxnumf %in, %acc : f32
      linalg.yield %r : f32
    }
  %ex = linalg.generic {indexing_maps = [#tb_id, #tb_row, #tb_id], iterator_types = ["parallel", "parallel", "parallel", "parallel"]}
      ins(%sm, %mx : tensor<2x4x32x32xf32>, tensor<2x4x32xf32>) outs(%es : tensor<2x4x32x32xf32>) {
  ^bb0(%x: f32, %m: f32, %o: f32):
    %d = arith.subf %x, %m : f32
    %e = math.exp %d : f32
    linalg.yield %e : f32
  } -> tensor<2x4x32x32xf32>
  %fs = linalg.fill ins(%zero : f32) outs(%er : tensor<2x4x32xf32>) -> tensor<2x4x32xf32>
  %sum = linalg.reduce ins(%ex : tensor<2x4x32x32xf32>) outs(%fs : tensor<2x4x32xf32>) dimensions = [3]
    (%in: f32, %acc: f32) {
      %r = arith.addf %in, %acc : f32
      linalg.yield %r : f32
    }
  %rc = linalg.map ins(%sum : tensor<2x4x32xf32>) outs(%er : tensor<2x4x32xf32>)
    (%x: f32, %init: f32) {
      %r = arith.divf %one, %x : f32
      linalg.yield %r : f32
    }
  %p = linalg.generic {indexing_maps = [#tb_id, #tb_row, #tb_id], iterator_types = ["parallel", "parallel", "parallel", "parallel"]}
      ins(%ex, %rc : tensor<2x4x32x32xf32>, tensor<2x4x32xf32>) outs(%es : tensor<2x4x32x32xf32>) {
  ^bb0(%x: f32, %r: f32, %o: f32):
    %y = arith.mulf %x, %r : f32
    linalg.yield %y : f32
  } -> tensor<2x4x32x32xf32>
  %eo = tensor.empty() : tensor<2x4x32x16xf32>
  %zo = linalg.fill ins(%zero : f32) outs(%eo : tensor<2x4x32x16xf32>) -> tensor<2x4x32x16xf32>
  %o = linalg.generic {indexing_maps = [affine_map<(b, h, i, d, j) -> (b, h, i, j)>, affine_map<(b, h, i, d, j) -> (b, h, j, d)>, affine_map<(b, h, i, d, j) -> (b, h, i, d)>], iterator_types = ["parallel", "parallel", "parallel", "parallel", "reduction"]}
      ins(%p, %v : tensor<2x4x32x32xf32>, tensor<2x4x32x16xf32>) outs(%zo : tensor<2x4x32x16xf32>) {
  ^bb0(%a: f32, %b: f32, %c: f32):
    %m = arith.mulf %a, %b : f32
    %r = arith.addf %c, %m : f32
    linalg.yield %r : f32
  } -> tensor<2x4x32x16xf32>
  return %o : tensor<2x4x32x16xf32>
}

// torch-mlir's bf16 matmuls: bf16 operands widened in the contractions'
// bodies, f32 accumulators, the f32 softmax's P rounded to bf16 for P·V, and
// P·V's f32 result rounded to bf16 by its only user: that rounding is the
// op's own (it said "Q, V and the result do not share one element type").
// GQA (Hq = 8, Hkv = 2) with K and V read through maps that lack the group.
// CHECK-LABEL: func.func @bf16_f32_accumulators
// CHECK: attn.attention ins(%arg0, %arg1, %arg2 : tensor<2x8x16x32xbf16>, tensor<2x2x24x32xbf16>, tensor<2x2x24x32xbf16>) {scale = 0.176776692 : f32} -> tensor<2x8x16x32xbf16>
// PROOF: @bf16_f32_accumulators: 1 attn.attention after the raising
// PROOF: run 1 result 0 {{.*}}: PASS
#bf_qk_q = affine_map<(b, h, g, i, j, d) -> (b, h, g, i, d)>
#bf_qk_k = affine_map<(b, h, g, i, j, d) -> (b, h, j, d)>
#bf_qk_s = affine_map<(b, h, g, i, j, d) -> (b, h, g, i, j)>
#bf_pv_p = affine_map<(b, h, g, i, d, j) -> (b, h, g, i, j)>
#bf_pv_v = affine_map<(b, h, g, i, d, j) -> (b, h, j, d)>
#bf_pv_o = affine_map<(b, h, g, i, d, j) -> (b, h, g, i, d)>
#bf_id = affine_map<(b, h, g, i, j) -> (b, h, g, i, j)>
func.func @bf16_f32_accumulators(%q: tensor<2x8x16x32xbf16>, %k: tensor<2x2x24x32xbf16>, %v: tensor<2x2x24x32xbf16>) -> tensor<2x8x16x32xbf16> {
  %zero = arith.constant 0.0 : f32
  %c = arith.constant 0.176776695 : f32
  %q5 = tensor.expand_shape %q [[0], [1, 2], [3], [4]] output_shape [2, 2, 4, 16, 32] : tensor<2x8x16x32xbf16> into tensor<2x2x4x16x32xbf16>
  %es = tensor.empty() : tensor<2x2x4x16x24xf32>
  %zs = linalg.fill ins(%zero : f32) outs(%es : tensor<2x2x4x16x24xf32>) -> tensor<2x2x4x16x24xf32>
  %s = linalg.generic {indexing_maps = [#bf_qk_q, #bf_qk_k, #bf_qk_s], iterator_types = ["parallel", "parallel", "parallel", "parallel", "parallel", "reduction"]}
      ins(%q5, %k : tensor<2x2x4x16x32xbf16>, tensor<2x2x24x32xbf16>) outs(%zs : tensor<2x2x4x16x24xf32>) {
  ^bb0(%a: bf16, %b: bf16, %o: f32):
    %aw = arith.extf %a : bf16 to f32
    %bw = arith.extf %b : bf16 to f32
    %m = arith.mulf %aw, %bw : f32
    %r = arith.addf %o, %m : f32
    linalg.yield %r : f32
  } -> tensor<2x2x4x16x24xf32>
  %ss = linalg.generic {indexing_maps = [#bf_id, #bf_id], iterator_types = ["parallel", "parallel", "parallel", "parallel", "parallel"]} ins(%s : tensor<2x2x4x16x24xf32>) outs(%es : tensor<2x2x4x16x24xf32>) {
  ^bb0(%x: f32, %o: f32):
    %y = arith.mulf %x, %c : f32
    linalg.yield %y : f32
  } -> tensor<2x2x4x16x24xf32>
  %p32 = linalg.softmax dimension(4) ins(%ss : tensor<2x2x4x16x24xf32>) outs(%es : tensor<2x2x4x16x24xf32>) -> tensor<2x2x4x16x24xf32>
  %eb = tensor.empty() : tensor<2x2x4x16x24xbf16>
  %p = linalg.generic {indexing_maps = [#bf_id, #bf_id], iterator_types = ["parallel", "parallel", "parallel", "parallel", "parallel"]} ins(%p32 : tensor<2x2x4x16x24xf32>) outs(%eb : tensor<2x2x4x16x24xbf16>) {
  ^bb0(%x: f32, %o: bf16):
    %t = arith.truncf %x : f32 to bf16
    linalg.yield %t : bf16
  } -> tensor<2x2x4x16x24xbf16>
  %eo = tensor.empty() : tensor<2x2x4x16x32xf32>
  %zo = linalg.fill ins(%zero : f32) outs(%eo : tensor<2x2x4x16x32xf32>) -> tensor<2x2x4x16x32xf32>
  %o = linalg.generic {indexing_maps = [#bf_pv_p, #bf_pv_v, #bf_pv_o], iterator_types = ["parallel", "parallel", "parallel", "parallel", "parallel", "reduction"]}
      ins(%p, %v : tensor<2x2x4x16x24xbf16>, tensor<2x2x24x32xbf16>) outs(%zo : tensor<2x2x4x16x32xf32>) {
  ^bb0(%a: bf16, %b: bf16, %o: f32):
    %aw = arith.extf %a : bf16 to f32
    %bw = arith.extf %b : bf16 to f32
    %m = arith.mulf %aw, %bw : f32
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

// PyTorch's `scores / math.sqrt(d)` at d = 32 (5.65685415, no exact f32
// reciprocal), torch-mlir's permutes around it: scale = fl(1/c) (it needed
// inexact-reciprocal before session 32).
// CHECK-LABEL: func.func @torch_sqrt_d
// CHECK: attn.attention {{.*}}scale = 0.176776{{[0-9]+}} : f32
// PROOF: @torch_sqrt_d: 1 attn.attention after the raising
// PROOF: run 1 result 0 {{.*}}: PASS
#sq_p4 = affine_map<(b, h, l, d) -> (b, l, h, d)>
#sq_id4 = affine_map<(b, h, l, d) -> (b, h, l, d)>
#sq_pk = affine_map<(b, h, d, l) -> (b, l, h, d)>
#sq_id3 = affine_map<(b, i, j) -> (b, i, j)>
#sq_kd = affine_map<(b, i, j) -> (b, i, 0)>
#sq_po = affine_map<(b, l, h, d) -> (b, h, l, d)>
func.func @torch_sqrt_d(%q: tensor<2x16x4x32xf32>, %k: tensor<2x16x4x32xf32>, %v: tensor<2x16x4x32xf32>) -> tensor<2x16x4x32xf32> {
  %zero = arith.constant 0.0 : f32
  %ninf = arith.constant 0xFF800000 : f32
  %c = arith.constant 5.65685415 : f32
  %e4 = tensor.empty() : tensor<2x4x16x32xf32>
  %qt = linalg.generic {indexing_maps = [#sq_p4, #sq_id4], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%q : tensor<2x16x4x32xf32>) outs(%e4 : tensor<2x4x16x32xf32>) {
  ^bb0(%x: f32, %o: f32):
    linalg.yield %x : f32
  } -> tensor<2x4x16x32xf32>
  %vt = linalg.generic {indexing_maps = [#sq_p4, #sq_id4], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%v : tensor<2x16x4x32xf32>) outs(%e4 : tensor<2x4x16x32xf32>) {
  ^bb0(%x: f32, %o: f32):
    linalg.yield %x : f32
  } -> tensor<2x4x16x32xf32>
  %ek = tensor.empty() : tensor<2x4x32x16xf32>
  %kt = linalg.generic {indexing_maps = [#sq_pk, #sq_id4], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%k : tensor<2x16x4x32xf32>) outs(%ek : tensor<2x4x32x16xf32>) {
  ^bb0(%x: f32, %o: f32):
    linalg.yield %x : f32
  } -> tensor<2x4x32x16xf32>
  %q3 = tensor.collapse_shape %qt [[0, 1], [2], [3]] : tensor<2x4x16x32xf32> into tensor<8x16x32xf32>
  %k3 = tensor.collapse_shape %kt [[0, 1], [2], [3]] : tensor<2x4x32x16xf32> into tensor<8x32x16xf32>
  %v3 = tensor.collapse_shape %vt [[0, 1], [2], [3]] : tensor<2x4x16x32xf32> into tensor<8x16x32xf32>
  %es = tensor.empty() : tensor<8x16x16xf32>
  %zs = linalg.fill ins(%zero : f32) outs(%es : tensor<8x16x16xf32>) -> tensor<8x16x16xf32>
  %s = linalg.batch_matmul ins(%q3, %k3 : tensor<8x16x32xf32>, tensor<8x32x16xf32>) outs(%zs : tensor<8x16x16xf32>) -> tensor<8x16x16xf32>
  %sd = linalg.generic {indexing_maps = [#sq_id3, #sq_id3], iterator_types = ["parallel", "parallel", "parallel"]} ins(%s : tensor<8x16x16xf32>) outs(%es : tensor<8x16x16xf32>) {
  ^bb0(%x: f32, %o: f32):
    %y = arith.divf %x, %c : f32
    linalg.yield %y : f32
  } -> tensor<8x16x16xf32>
  %em = tensor.empty() : tensor<8x16x1xf32>
  %fm = linalg.fill ins(%ninf : f32) outs(%em : tensor<8x16x1xf32>) -> tensor<8x16x1xf32>
  %m = linalg.generic {indexing_maps = [#sq_id3, #sq_kd], iterator_types = ["parallel", "parallel", "reduction"]} ins(%sd : tensor<8x16x16xf32>) outs(%fm : tensor<8x16x1xf32>) {
  ^bb0(%x: f32, %acc: f32):
    %r = arith.maximumf %acc, %x : f32
    linalg.yield %r : f32
  } -> tensor<8x16x1xf32>
  %ex = linalg.generic {indexing_maps = [#sq_id3, #sq_kd, #sq_id3], iterator_types = ["parallel", "parallel", "parallel"]} ins(%sd, %m : tensor<8x16x16xf32>, tensor<8x16x1xf32>) outs(%es : tensor<8x16x16xf32>) {
  ^bb0(%x: f32, %mx: f32, %o: f32):
    %d = arith.subf %x, %mx : f32
    %e = math.exp %d : f32
    linalg.yield %e : f32
  } -> tensor<8x16x16xf32>
  %fl = linalg.fill ins(%zero : f32) outs(%em : tensor<8x16x1xf32>) -> tensor<8x16x1xf32>
  %l = linalg.generic {indexing_maps = [#sq_id3, #sq_kd], iterator_types = ["parallel", "parallel", "reduction"]} ins(%ex : tensor<8x16x16xf32>) outs(%fl : tensor<8x16x1xf32>) {
  ^bb0(%x: f32, %acc: f32):
    %r = arith.addf %acc, %x : f32
    linalg.yield %r : f32
  } -> tensor<8x16x1xf32>
  %p = linalg.generic {indexing_maps = [#sq_id3, #sq_kd, #sq_id3], iterator_types = ["parallel", "parallel", "parallel"]} ins(%ex, %l : tensor<8x16x16xf32>, tensor<8x16x1xf32>) outs(%es : tensor<8x16x16xf32>) {
  ^bb0(%x: f32, %s_: f32, %o: f32):
    %r = arith.divf %x, %s_ : f32
    linalg.yield %r : f32
  } -> tensor<8x16x16xf32>
  %eo = tensor.empty() : tensor<8x16x32xf32>
  %zo = linalg.fill ins(%zero : f32) outs(%eo : tensor<8x16x32xf32>) -> tensor<8x16x32xf32>
  %o3 = linalg.batch_matmul ins(%p, %v3 : tensor<8x16x16xf32>, tensor<8x16x32xf32>) outs(%zo : tensor<8x16x32xf32>) -> tensor<8x16x32xf32>
  %o4 = tensor.expand_shape %o3 [[0, 1], [2], [3]] output_shape [2, 4, 16, 32] : tensor<8x16x32xf32> into tensor<2x4x16x32xf32>
  %eb = tensor.empty() : tensor<2x16x4x32xf32>
  %ob = linalg.generic {indexing_maps = [#sq_po, #sq_id4], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%o4 : tensor<2x4x16x32xf32>) outs(%eb : tensor<2x16x4x32xf32>) {
  ^bb0(%x: f32, %o: f32):
    linalg.yield %x : f32
  } -> tensor<2x16x4x32xf32>
  return %ob : tensor<2x16x4x32xf32>
}

// After elementwise fusion (IREE's): the scale and the bias computed again
// inside the row max's body and inside exp(s - max)'s. attn-normalize-chains
// peels the row max's producer into its own generic, which CSE merges with
// the exponential's: one chain again (it was left alone before).
// CHECK-LABEL: func.func @fused_recompute
// CHECK: attn.attention {{.*}} mask(%arg3 : tensor<2x1x1x16xf32>) {scale = 0.176776692 : f32}
// PROOF: @fused_recompute: 1 attn.attention after the raising
// PROOF: run 1 result 0 {{.*}}: PASS
#fz_id = affine_map<(b, h, i, j) -> (b, h, i, j)>
#fz_bias = affine_map<(b, h, i, j) -> (b, 0, 0, j)>
#fz_row = affine_map<(b, h, i, j) -> (b, h, i)>
func.func @fused_recompute(%q: tensor<2x4x16x32xf32>, %k: tensor<2x4x16x32xf32>, %v: tensor<2x4x16x32xf32>, %bias: tensor<2x1x1x16xf32>) -> tensor<2x4x16x32xf32> {
  %zero = arith.constant 0.0 : f32
  %one = arith.constant 1.0 : f32
  %ninf = arith.constant 0xFF800000 : f32
  %c = arith.constant 0.176776695 : f32
  %es = tensor.empty() : tensor<2x4x16x16xf32>
  %zs = linalg.fill ins(%zero : f32) outs(%es : tensor<2x4x16x16xf32>) -> tensor<2x4x16x16xf32>
  %s = linalg.generic {indexing_maps = [affine_map<(b, h, i, j, d) -> (b, h, i, d)>, affine_map<(b, h, i, j, d) -> (b, h, j, d)>, affine_map<(b, h, i, j, d) -> (b, h, i, j)>], iterator_types = ["parallel", "parallel", "parallel", "parallel", "reduction"]}
      ins(%q, %k : tensor<2x4x16x32xf32>, tensor<2x4x16x32xf32>) outs(%zs : tensor<2x4x16x16xf32>) {
  ^bb0(%a: f32, %b: f32, %o: f32):
    %m = arith.mulf %a, %b : f32
    %r = arith.addf %o, %m : f32
    linalg.yield %r : f32
  } -> tensor<2x4x16x16xf32>
  %er = tensor.empty() : tensor<2x4x16xf32>
  %fm = linalg.fill ins(%ninf : f32) outs(%er : tensor<2x4x16xf32>) -> tensor<2x4x16xf32>
  %mx = linalg.generic {indexing_maps = [#fz_id, #fz_bias, #fz_row], iterator_types = ["parallel", "parallel", "parallel", "reduction"]}
      ins(%s, %bias : tensor<2x4x16x16xf32>, tensor<2x1x1x16xf32>) outs(%fm : tensor<2x4x16xf32>) {
  ^bb0(%x: f32, %bb: f32, %acc: f32):
    %y = arith.mulf %x, %c : f32
    %z = arith.addf %y, %bb : f32
    %r = arith.maximumf %z, %acc : f32
    linalg.yield %r : f32
  } -> tensor<2x4x16xf32>
  %ex = linalg.generic {indexing_maps = [#fz_id, #fz_bias, #fz_row, #fz_id], iterator_types = ["parallel", "parallel", "parallel", "parallel"]}
      ins(%s, %bias, %mx : tensor<2x4x16x16xf32>, tensor<2x1x1x16xf32>, tensor<2x4x16xf32>) outs(%es : tensor<2x4x16x16xf32>) {
  ^bb0(%x: f32, %bb: f32, %m: f32, %o: f32):
    %y = arith.mulf %x, %c : f32
    %z = arith.addf %y, %bb : f32
    %d = arith.subf %z, %m : f32
    %e = math.exp %d : f32
    linalg.yield %e : f32
  } -> tensor<2x4x16x16xf32>
  %fs = linalg.fill ins(%zero : f32) outs(%er : tensor<2x4x16xf32>) -> tensor<2x4x16xf32>
  %sum = linalg.generic {indexing_maps = [#fz_id, #fz_row], iterator_types = ["parallel", "parallel", "parallel", "reduction"]}
      ins(%ex : tensor<2x4x16x16xf32>) outs(%fs : tensor<2x4x16xf32>) {
  ^bb0(%x: f32, %acc: f32):
    %r = arith.addf %x, %acc : f32
    linalg.yield %r : f32
  } -> tensor<2x4x16xf32>
  %p = linalg.generic {indexing_maps = [#fz_id, #fz_row, #fz_id], iterator_types = ["parallel", "parallel", "parallel", "parallel"]}
      ins(%ex, %sum : tensor<2x4x16x16xf32>, tensor<2x4x16xf32>) outs(%es : tensor<2x4x16x16xf32>) {
  ^bb0(%x: f32, %l: f32, %o: f32):
    %rc = arith.divf %one, %l : f32
    %y = arith.mulf %x, %rc : f32
    linalg.yield %y : f32
  } -> tensor<2x4x16x16xf32>
  %eo = tensor.empty() : tensor<2x4x16x32xf32>
  %zo = linalg.fill ins(%zero : f32) outs(%eo : tensor<2x4x16x32xf32>) -> tensor<2x4x16x32xf32>
  %o = linalg.generic {indexing_maps = [affine_map<(b, h, i, d, j) -> (b, h, i, j)>, affine_map<(b, h, i, d, j) -> (b, h, j, d)>, affine_map<(b, h, i, d, j) -> (b, h, i, d)>], iterator_types = ["parallel", "parallel", "parallel", "parallel", "reduction"]}
      ins(%p, %v : tensor<2x4x16x16xf32>, tensor<2x4x16x32xf32>) outs(%zo : tensor<2x4x16x32xf32>) {
  ^bb0(%a: f32, %b: f32, %o: f32):
    %m = arith.mulf %a, %b : f32
    %r = arith.addf %o, %m : f32
    linalg.yield %r : f32
  } -> tensor<2x4x16x32xf32>
  return %o : tensor<2x4x16x32xf32>
}

// HF with .half(): the scale applied to the f16 scores before they are
// widened for the f32 softmax (the widening is peeled wherever it sits
// between the steps; it was taken for the scores before).
// CHECK-LABEL: func.func @f16_scale_then_widened
// CHECK: attn.attention ins(%arg0, %arg1, %arg2 : tensor<2x4x16x16xf16>, tensor<2x4x24x16xf16>, tensor<2x4x24x16xf16>) {scale = 1.250000e-01 : f32}
// PROOF: @f16_scale_then_widened: 1 attn.attention after the raising
// PROOF: run 1 result 0 {{.*}}: PASS

func.func @f16_scale_then_widened(%q: tensor<2x4x16x16xf16>, %k: tensor<2x4x24x16xf16>, %v: tensor<2x4x24x16xf16>) -> tensor<2x4x16x16xf16> {
  %zero = arith.constant 0.0 : f32
  %zero32 = arith.constant 0.0 : f32
  %ninf = arith.constant 0xFF800000 : f32
  %es_f32 = tensor.empty() : tensor<2x4x16x24xf32>
  %es_f16 = tensor.empty() : tensor<2x4x16x24xf16>
  %es_bf16 = tensor.empty() : tensor<2x4x16x24xbf16>
  %zh = arith.constant 0.0 : f16
  %ch = arith.constant 0.125 : f16
  %es_acc = tensor.empty() : tensor<2x4x16x24xf16>
  %zs = linalg.fill ins(%zh : f16) outs(%es_acc : tensor<2x4x16x24xf16>) -> tensor<2x4x16x24xf16>
  %s = linalg.generic {indexing_maps = [affine_map<(b, h, i, j, d) -> (b, h, i, d)>, affine_map<(b, h, i, j, d) -> (b, h, j, d)>, affine_map<(b, h, i, j, d) -> (b, h, i, j)>], iterator_types = ["parallel", "parallel", "parallel", "parallel", "reduction"]}
      ins(%q, %k : tensor<2x4x16x16xf16>, tensor<2x4x24x16xf16>) outs(%zs : tensor<2x4x16x24xf16>) {
  ^bb0(%a: f16, %b2: f16, %c0: f16):
    %m = arith.mulf %a, %b2 : f16
    %r = arith.addf %c0, %m : f16
    linalg.yield %r : f16
  } -> tensor<2x4x16x24xf16>
  %ss = linalg.generic {indexing_maps = [affine_map<(b, h, i, j) -> (b, h, i, j)>, affine_map<(b, h, i, j) -> (b, h, i, j)>], iterator_types = ["parallel", "parallel", "parallel", "parallel"]}
      ins(%s : tensor<2x4x16x24xf16>) outs(%es_f16 : tensor<2x4x16x24xf16>) {
  ^bb0(%x: f16, %o: f16):
    %y = arith.mulf %x, %ch : f16
    linalg.yield %y : f16
  } -> tensor<2x4x16x24xf16>
  %sf = linalg.generic {indexing_maps = [affine_map<(b, h, i, j) -> (b, h, i, j)>, affine_map<(b, h, i, j) -> (b, h, i, j)>], iterator_types = ["parallel", "parallel", "parallel", "parallel"]}
      ins(%ss : tensor<2x4x16x24xf16>) outs(%es_f32 : tensor<2x4x16x24xf32>) {
  ^bb0(%x: f16, %o: f32):
    %y = arith.extf %x : f16 to f32
    linalg.yield %y : f32
  } -> tensor<2x4x16x24xf32>
  %er = tensor.empty() : tensor<2x4x16xf32>
  %fm = linalg.fill ins(%ninf : f32) outs(%er : tensor<2x4x16xf32>) -> tensor<2x4x16xf32>
  %mx = linalg.generic {indexing_maps = [affine_map<(b, h, i, j) -> (b, h, i, j)>, affine_map<(b, h, i, j) -> (b, h, i)>], iterator_types = ["parallel", "parallel", "parallel", "reduction"]} ins(%sf : tensor<2x4x16x24xf32>) outs(%fm : tensor<2x4x16xf32>) {
  ^bb0(%x: f32, %acc: f32):
    %r = arith.maximumf %x, %acc : f32
    linalg.yield %r : f32
  } -> tensor<2x4x16xf32>
  %sub = linalg.generic {indexing_maps = [affine_map<(b, h, i, j) -> (b, h, i, j)>, affine_map<(b, h, i, j) -> (b, h, i)>, affine_map<(b, h, i, j) -> (b, h, i, j)>], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%sf, %mx : tensor<2x4x16x24xf32>, tensor<2x4x16xf32>) outs(%es_f32 : tensor<2x4x16x24xf32>) {
  ^bb0(%x: f32, %m: f32, %o: f32):
    %d = arith.subf %x, %m : f32
    linalg.yield %d : f32
  } -> tensor<2x4x16x24xf32>
  %ex = linalg.generic {indexing_maps = [affine_map<(b, h, i, j) -> (b, h, i, j)>, affine_map<(b, h, i, j) -> (b, h, i, j)>], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%sub : tensor<2x4x16x24xf32>) outs(%es_f32 : tensor<2x4x16x24xf32>) {
  ^bb0(%x: f32, %o: f32):
    %e = math.exp %x : f32
    linalg.yield %e : f32
  } -> tensor<2x4x16x24xf32>
  %fs = linalg.fill ins(%zero32 : f32) outs(%er : tensor<2x4x16xf32>) -> tensor<2x4x16xf32>
  %sum = linalg.generic {indexing_maps = [affine_map<(b, h, i, j) -> (b, h, i, j)>, affine_map<(b, h, i, j) -> (b, h, i)>], iterator_types = ["parallel", "parallel", "parallel", "reduction"]} ins(%ex : tensor<2x4x16x24xf32>) outs(%fs : tensor<2x4x16xf32>) {
  ^bb0(%x: f32, %acc: f32):
    %r = arith.addf %x, %acc : f32
    linalg.yield %r : f32
  } -> tensor<2x4x16xf32>
  %p = linalg.generic {indexing_maps = [affine_map<(b, h, i, j) -> (b, h, i, j)>, affine_map<(b, h, i, j) -> (b, h, i)>, affine_map<(b, h, i, j) -> (b, h, i, j)>], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%ex, %sum : tensor<2x4x16x24xf32>, tensor<2x4x16xf32>) outs(%es_f32 : tensor<2x4x16x24xf32>) {
  ^bb0(%x: f32, %l: f32, %o: f32):
    %d = arith.divf %x, %l : f32
    linalg.yield %d : f32
  } -> tensor<2x4x16x24xf32>
  %ph = linalg.generic {indexing_maps = [affine_map<(b, h, i, j) -> (b, h, i, j)>, affine_map<(b, h, i, j) -> (b, h, i, j)>], iterator_types = ["parallel", "parallel", "parallel", "parallel"]}
      ins(%p : tensor<2x4x16x24xf32>) outs(%es_f16 : tensor<2x4x16x24xf16>) {
  ^bb0(%x: f32, %o: f16):
    %y = arith.truncf %x : f32 to f16
    linalg.yield %y : f16
  } -> tensor<2x4x16x24xf16>
  %eo = tensor.empty() : tensor<2x4x16x16xf16>
  %zo = linalg.fill ins(%zh : f16) outs(%eo : tensor<2x4x16x16xf16>) -> tensor<2x4x16x16xf16>
  %o = linalg.generic {indexing_maps = [affine_map<(b, h, i, d, j) -> (b, h, i, j)>, affine_map<(b, h, i, d, j) -> (b, h, j, d)>, affine_map<(b, h, i, d, j) -> (b, h, i, d)>], iterator_types = ["parallel", "parallel", "parallel", "parallel", "reduction"]}
      ins(%ph, %v : tensor<2x4x16x24xf16>, tensor<2x4x24x16xf16>) outs(%zo : tensor<2x4x16x16xf16>) {
  ^bb0(%a: f16, %b2: f16, %c0: f16):
    %m = arith.mulf %a, %b2 : f16
    %r = arith.addf %c0, %m : f16
    linalg.yield %r : f16
  } -> tensor<2x4x16x16xf16>
  return %o : tensor<2x4x16x16xf16>
}

// f16 with f32 accumulators, an f32 softmax and dropout by an i1 keep mask:
// the op's dropout with its explicit mask.
// CHECK-LABEL: func.func @f16_dropout_f32_softmax
// CHECK: attn.attention ins(%arg0, %arg1, %arg2 : tensor<2x4x16x16xf16>, tensor<2x4x24x16xf16>, tensor<2x4x24x16xf16>) dropout_mask(%arg3 : tensor<2x4x16x24xi1>) {dropout_p = 2.000000e-01 : f32, scale = 2.500000e-01 : f32}
// PROOF: @f16_dropout_f32_softmax: 1 attn.attention after the raising
// PROOF: run 1 result 0 {{.*}}: PASS

func.func @f16_dropout_f32_softmax(%q: tensor<2x4x16x16xf16>, %k: tensor<2x4x24x16xf16>, %v: tensor<2x4x24x16xf16>, %keep: tensor<2x4x16x24xi1>) -> tensor<2x4x16x16xf16> {
  %c = arith.constant 0.25 : f32
  %dc = arith.constant 1.25 : f32
  %zero = arith.constant 0.0 : f32
  %zero32 = arith.constant 0.0 : f32
  %ninf = arith.constant 0xFF800000 : f32
  %es_f32 = tensor.empty() : tensor<2x4x16x24xf32>
  %es_f16 = tensor.empty() : tensor<2x4x16x24xf16>
  %es_o16 = tensor.empty() : tensor<2x4x16x16xf16>
  %es_acc = tensor.empty() : tensor<2x4x16x24xf32>
  %zs = linalg.fill ins(%zero : f32) outs(%es_acc : tensor<2x4x16x24xf32>) -> tensor<2x4x16x24xf32>
  %s = linalg.generic {indexing_maps = [affine_map<(b, h, i, j, d) -> (b, h, i, d)>, affine_map<(b, h, i, j, d) -> (b, h, j, d)>, affine_map<(b, h, i, j, d) -> (b, h, i, j)>], iterator_types = ["parallel", "parallel", "parallel", "parallel", "reduction"]}
      ins(%q, %k : tensor<2x4x16x16xf16>, tensor<2x4x24x16xf16>) outs(%zs : tensor<2x4x16x24xf32>) {
  ^bb0(%a: f16, %b2: f16, %c0: f32):
    %aw = arith.extf %a : f16 to f32
    %bw = arith.extf %b2 : f16 to f32
    %m = arith.mulf %aw, %bw : f32
    %r = arith.addf %c0, %m : f32
    linalg.yield %r : f32
  } -> tensor<2x4x16x24xf32>
  %ss = linalg.generic {indexing_maps = [affine_map<(b, h, i, j) -> (b, h, i, j)>, affine_map<(b, h, i, j) -> (b, h, i, j)>], iterator_types = ["parallel", "parallel", "parallel", "parallel"]}
      ins(%s : tensor<2x4x16x24xf32>) outs(%es_f32 : tensor<2x4x16x24xf32>) {
  ^bb0(%x: f32, %o: f32):
    %y = arith.mulf %x, %c : f32
    linalg.yield %y : f32
  } -> tensor<2x4x16x24xf32>
  %er = tensor.empty() : tensor<2x4x16xf32>
  %fm = linalg.fill ins(%ninf : f32) outs(%er : tensor<2x4x16xf32>) -> tensor<2x4x16xf32>
  %mx = linalg.generic {indexing_maps = [affine_map<(b, h, i, j) -> (b, h, i, j)>, affine_map<(b, h, i, j) -> (b, h, i)>], iterator_types = ["parallel", "parallel", "parallel", "reduction"]} ins(%ss : tensor<2x4x16x24xf32>) outs(%fm : tensor<2x4x16xf32>) {
  ^bb0(%x: f32, %acc: f32):
    %r = arith.maximumf %x, %acc : f32
    linalg.yield %r : f32
  } -> tensor<2x4x16xf32>
  %sub = linalg.generic {indexing_maps = [affine_map<(b, h, i, j) -> (b, h, i, j)>, affine_map<(b, h, i, j) -> (b, h, i)>, affine_map<(b, h, i, j) -> (b, h, i, j)>], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%ss, %mx : tensor<2x4x16x24xf32>, tensor<2x4x16xf32>) outs(%es_f32 : tensor<2x4x16x24xf32>) {
  ^bb0(%x: f32, %m: f32, %o: f32):
    %d = arith.subf %x, %m : f32
    linalg.yield %d : f32
  } -> tensor<2x4x16x24xf32>
  %ex = linalg.generic {indexing_maps = [affine_map<(b, h, i, j) -> (b, h, i, j)>, affine_map<(b, h, i, j) -> (b, h, i, j)>], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%sub : tensor<2x4x16x24xf32>) outs(%es_f32 : tensor<2x4x16x24xf32>) {
  ^bb0(%x: f32, %o: f32):
    %e = math.exp %x : f32
    linalg.yield %e : f32
  } -> tensor<2x4x16x24xf32>
  %fs = linalg.fill ins(%zero32 : f32) outs(%er : tensor<2x4x16xf32>) -> tensor<2x4x16xf32>
  %sum = linalg.generic {indexing_maps = [affine_map<(b, h, i, j) -> (b, h, i, j)>, affine_map<(b, h, i, j) -> (b, h, i)>], iterator_types = ["parallel", "parallel", "parallel", "reduction"]} ins(%ex : tensor<2x4x16x24xf32>) outs(%fs : tensor<2x4x16xf32>) {
  ^bb0(%x: f32, %acc: f32):
    %r = arith.addf %x, %acc : f32
    linalg.yield %r : f32
  } -> tensor<2x4x16xf32>
  %p = linalg.generic {indexing_maps = [affine_map<(b, h, i, j) -> (b, h, i, j)>, affine_map<(b, h, i, j) -> (b, h, i)>, affine_map<(b, h, i, j) -> (b, h, i, j)>], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%ex, %sum : tensor<2x4x16x24xf32>, tensor<2x4x16xf32>) outs(%es_f32 : tensor<2x4x16x24xf32>) {
  ^bb0(%x: f32, %l: f32, %o: f32):
    %d = arith.divf %x, %l : f32
    linalg.yield %d : f32
  } -> tensor<2x4x16x24xf32>
  %pd = linalg.generic {indexing_maps = [affine_map<(b, h, i, j) -> (b, h, i, j)>, affine_map<(b, h, i, j) -> (b, h, i, j)>, affine_map<(b, h, i, j) -> (b, h, i, j)>], iterator_types = ["parallel", "parallel", "parallel", "parallel"]}
      ins(%p, %keep : tensor<2x4x16x24xf32>, tensor<2x4x16x24xi1>) outs(%es_f32 : tensor<2x4x16x24xf32>) {
  ^bb0(%x: f32, %kp: i1, %o: f32):
    %kf = arith.uitofp %kp : i1 to f32
    %y = arith.mulf %x, %kf : f32
    %y2 = arith.mulf %y, %dc : f32
    linalg.yield %y2 : f32
  } -> tensor<2x4x16x24xf32>
  %ph = linalg.generic {indexing_maps = [affine_map<(b, h, i, j) -> (b, h, i, j)>, affine_map<(b, h, i, j) -> (b, h, i, j)>], iterator_types = ["parallel", "parallel", "parallel", "parallel"]}
      ins(%pd : tensor<2x4x16x24xf32>) outs(%es_f16 : tensor<2x4x16x24xf16>) {
  ^bb0(%x: f32, %o: f16):
    %y = arith.truncf %x : f32 to f16
    linalg.yield %y : f16
  } -> tensor<2x4x16x24xf16>
  %eo = tensor.empty() : tensor<2x4x16x16xf32>
  %zo = linalg.fill ins(%zero : f32) outs(%eo : tensor<2x4x16x16xf32>) -> tensor<2x4x16x16xf32>
  %o = linalg.generic {indexing_maps = [affine_map<(b, h, i, d, j) -> (b, h, i, j)>, affine_map<(b, h, i, d, j) -> (b, h, j, d)>, affine_map<(b, h, i, d, j) -> (b, h, i, d)>], iterator_types = ["parallel", "parallel", "parallel", "parallel", "reduction"]}
      ins(%ph, %v : tensor<2x4x16x24xf16>, tensor<2x4x24x16xf16>) outs(%zo : tensor<2x4x16x16xf32>) {
  ^bb0(%a: f16, %b2: f16, %c0: f32):
    %aw = arith.extf %a : f16 to f32
    %bw = arith.extf %b2 : f16 to f32
    %m = arith.mulf %aw, %bw : f32
    %r = arith.addf %c0, %m : f32
    linalg.yield %r : f32
  } -> tensor<2x4x16x16xf32>
  %oh = linalg.generic {indexing_maps = [affine_map<(b, h, i, j) -> (b, h, i, j)>, affine_map<(b, h, i, j) -> (b, h, i, j)>], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%o : tensor<2x4x16x16xf32>) outs(%es_o16 : tensor<2x4x16x16xf16>) {
  ^bb0(%x: f32, %y0: f16):
    %y = arith.truncf %x : f32 to f16
    linalg.yield %y : f16
  } -> tensor<2x4x16x16xf16>
  return %oh : tensor<2x4x16x16xf16>
}

// An i8 mask argument narrowed to i1 (trunci) for the select: raised with
// the i1 mask, and attn-raise-check draws the i8 argument as 0/1 (it
// refused integer arguments other than i1 and i32 before).
// CHECK-LABEL: func.func @i8_mask
// CHECK: attn.attention
// PROOF: @i8_mask: 1 attn.attention after the raising
// PROOF: run 1 result 0 {{.*}}: PASS

func.func @i8_mask(%q: tensor<2x4x16x16xf32>, %k: tensor<2x4x24x16xf32>, %v: tensor<2x4x24x16xf32>, %m8: tensor<2x1x16x24xi8>) -> tensor<2x4x16x16xf32> {
  %zero = arith.constant 0.0 : f32
  %zero32 = arith.constant 0.0 : f32
  %ninf = arith.constant 0xFF800000 : f32
  %es_f32 = tensor.empty() : tensor<2x4x16x24xf32>
  %es_f16 = tensor.empty() : tensor<2x4x16x24xf16>
  %es_bf16 = tensor.empty() : tensor<2x4x16x24xbf16>
  %es_i1 = tensor.empty() : tensor<2x4x16x24xi1>
  %c = arith.constant 0.25 : f32
  %e1 = tensor.empty() : tensor<2x1x16x24xi1>
  %kb = linalg.generic {indexing_maps = [affine_map<(b, h, i, j) -> (b, h, i, j)>, affine_map<(b, h, i, j) -> (b, h, i, j)>], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%m8 : tensor<2x1x16x24xi8>) outs(%e1 : tensor<2x1x16x24xi1>) {
  ^bb0(%x: i8, %o: i1):
    %b1 = arith.trunci %x : i8 to i1
    linalg.yield %b1 : i1
  } -> tensor<2x1x16x24xi1>
  %es_acc = tensor.empty() : tensor<2x4x16x24xf32>
  %zs = linalg.fill ins(%zero : f32) outs(%es_acc : tensor<2x4x16x24xf32>) -> tensor<2x4x16x24xf32>
  %s = linalg.generic {indexing_maps = [affine_map<(b, h, i, j, d) -> (b, h, i, d)>, affine_map<(b, h, i, j, d) -> (b, h, j, d)>, affine_map<(b, h, i, j, d) -> (b, h, i, j)>], iterator_types = ["parallel", "parallel", "parallel", "parallel", "reduction"]}
      ins(%q, %k : tensor<2x4x16x16xf32>, tensor<2x4x24x16xf32>) outs(%zs : tensor<2x4x16x24xf32>) {
  ^bb0(%a: f32, %b2: f32, %c0: f32):
    %m = arith.mulf %a, %b2 : f32
    %r = arith.addf %c0, %m : f32
    linalg.yield %r : f32
  } -> tensor<2x4x16x24xf32>
  %t0 = linalg.generic {indexing_maps = [affine_map<(b, h, i, j) -> (b, h, i, j)>, affine_map<(b, h, i, j) -> (b, h, i, j)>], iterator_types = ["parallel", "parallel", "parallel", "parallel"]}
      ins(%s : tensor<2x4x16x24xf32>) outs(%es_f32 : tensor<2x4x16x24xf32>) {
  ^bb0(%x: f32, %o: f32):
    %y = arith.mulf %x, %c : f32
    linalg.yield %y : f32
  } -> tensor<2x4x16x24xf32>
  %t1 = linalg.generic {indexing_maps = [affine_map<(b, h, i, j) -> (b, h, i, j)>, affine_map<(b, h, i, j) -> (b, 0, i, j)>, affine_map<(b, h, i, j) -> (b, h, i, j)>], iterator_types = ["parallel", "parallel", "parallel", "parallel"]}
      ins(%t0, %kb : tensor<2x4x16x24xf32>, tensor<2x1x16x24xi1>) outs(%es_f32 : tensor<2x4x16x24xf32>) {
  ^bb0(%x: f32, %kp: i1, %o: f32):
    %z = arith.select %kp, %x, %ninf : f32
    linalg.yield %z : f32
  } -> tensor<2x4x16x24xf32>
  %er = tensor.empty() : tensor<2x4x16xf32>
  %fm = linalg.fill ins(%ninf : f32) outs(%er : tensor<2x4x16xf32>) -> tensor<2x4x16xf32>
  %mx = linalg.generic {indexing_maps = [affine_map<(b, h, i, j) -> (b, h, i, j)>, affine_map<(b, h, i, j) -> (b, h, i)>], iterator_types = ["parallel", "parallel", "parallel", "reduction"]} ins(%t1 : tensor<2x4x16x24xf32>) outs(%fm : tensor<2x4x16xf32>) {
  ^bb0(%x: f32, %acc: f32):
    %r = arith.maximumf %x, %acc : f32
    linalg.yield %r : f32
  } -> tensor<2x4x16xf32>
  %sub = linalg.generic {indexing_maps = [affine_map<(b, h, i, j) -> (b, h, i, j)>, affine_map<(b, h, i, j) -> (b, h, i)>, affine_map<(b, h, i, j) -> (b, h, i, j)>], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%t1, %mx : tensor<2x4x16x24xf32>, tensor<2x4x16xf32>) outs(%es_f32 : tensor<2x4x16x24xf32>) {
  ^bb0(%x: f32, %m: f32, %o: f32):
    %d = arith.subf %x, %m : f32
    linalg.yield %d : f32
  } -> tensor<2x4x16x24xf32>
  %ex = linalg.generic {indexing_maps = [affine_map<(b, h, i, j) -> (b, h, i, j)>, affine_map<(b, h, i, j) -> (b, h, i, j)>], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%sub : tensor<2x4x16x24xf32>) outs(%es_f32 : tensor<2x4x16x24xf32>) {
  ^bb0(%x: f32, %o: f32):
    %e = math.exp %x : f32
    linalg.yield %e : f32
  } -> tensor<2x4x16x24xf32>
  %fs = linalg.fill ins(%zero32 : f32) outs(%er : tensor<2x4x16xf32>) -> tensor<2x4x16xf32>
  %sum = linalg.generic {indexing_maps = [affine_map<(b, h, i, j) -> (b, h, i, j)>, affine_map<(b, h, i, j) -> (b, h, i)>], iterator_types = ["parallel", "parallel", "parallel", "reduction"]} ins(%ex : tensor<2x4x16x24xf32>) outs(%fs : tensor<2x4x16xf32>) {
  ^bb0(%x: f32, %acc: f32):
    %r = arith.addf %x, %acc : f32
    linalg.yield %r : f32
  } -> tensor<2x4x16xf32>
  %p = linalg.generic {indexing_maps = [affine_map<(b, h, i, j) -> (b, h, i, j)>, affine_map<(b, h, i, j) -> (b, h, i)>, affine_map<(b, h, i, j) -> (b, h, i, j)>], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%ex, %sum : tensor<2x4x16x24xf32>, tensor<2x4x16xf32>) outs(%es_f32 : tensor<2x4x16x24xf32>) {
  ^bb0(%x: f32, %l: f32, %o: f32):
    %d = arith.divf %x, %l : f32
    linalg.yield %d : f32
  } -> tensor<2x4x16x24xf32>
  %eo = tensor.empty() : tensor<2x4x16x16xf32>
  %zo = linalg.fill ins(%zero : f32) outs(%eo : tensor<2x4x16x16xf32>) -> tensor<2x4x16x16xf32>
  %o = linalg.generic {indexing_maps = [affine_map<(b, h, i, d, j) -> (b, h, i, j)>, affine_map<(b, h, i, d, j) -> (b, h, j, d)>, affine_map<(b, h, i, d, j) -> (b, h, i, d)>], iterator_types = ["parallel", "parallel", "parallel", "parallel", "reduction"]}
      ins(%p, %v : tensor<2x4x16x24xf32>, tensor<2x4x24x16xf32>) outs(%zo : tensor<2x4x16x16xf32>) {
  ^bb0(%a: f32, %b2: f32, %c0: f32):
    %m = arith.mulf %a, %b2 : f32
    %r = arith.addf %c0, %m : f32
    linalg.yield %r : f32
  } -> tensor<2x4x16x16xf32>
  return %o : tensor<2x4x16x16xf32>
}
