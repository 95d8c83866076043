// A chain scaled by inf or NaN, or capped by an infinite softcap, computes
// NaN scores; attn.attention's scale and softcap are finite (its verifier).
// attn-raise-pipeline leaves such chains as written, with the reason,
// instead of building an op the verifier rejects.
// RUN: attention-opt %s --attn-raise-pipeline=explain -verify-diagnostics | FileCheck %s
// RUN: attn-raise-check %s --runs=1 --seed=2 | FileCheck %s --check-prefix=PROOF --implicit-check-not=FAIL
//
// attn-raise-check judges a raising against the chain as written: where
// the chain's own f32 formula overflows (S * 1e30 * 1e30; its float64
// form does not), the same non-finite positions are no failure of the
// raising.
// PROOF: @scale_inf: 0 attn.attention
// PROOF: @overflowing_chain: 0 attn.attention after the raising (nothing raised)
// PROOF-NEXT: run 0 result 0 {{.*}}, 512 non-finite where the reference is finite (as written 512): PASS

#id3 = affine_map<(b, i, j) -> (b, i, j)>

// CHECK-LABEL: func.func @scale_inf
// CHECK-NOT: attn.attention
func.func @scale_inf(%q: tensor<4x16x8xf32>, %kt: tensor<4x8x16xf32>, %v: tensor<4x16x8xf32>) -> tensor<4x16x8xf32> {
  %zero = arith.constant 0.0 : f32
  %es = tensor.empty() : tensor<4x16x16xf32>
  %zs = linalg.fill ins(%zero : f32) outs(%es : tensor<4x16x16xf32>) -> tensor<4x16x16xf32>
  %s = linalg.batch_matmul ins(%q, %kt : tensor<4x16x8xf32>, tensor<4x8x16xf32>) outs(%zs : tensor<4x16x16xf32>) -> tensor<4x16x16xf32>
  // expected-note @below {{the first op that blocks it: 'linalg.generic'}}
  %ss = linalg.generic {indexing_maps = [#id3, #id3], iterator_types = ["parallel", "parallel", "parallel"]} ins(%s : tensor<4x16x16xf32>) outs(%es : tensor<4x16x16xf32>) {
  ^bb0(%x: f32, %o: f32):
    %c = arith.constant 0x7F800000 : f32
    %y = arith.mulf %x, %c : f32
    linalg.yield %y : f32
  } -> tensor<4x16x16xf32>
  // expected-remark @below {{attn-fuse: not fused: the scores are scaled by +Inf, not a finite f32}}
  %p = linalg.softmax dimension(2) ins(%ss : tensor<4x16x16xf32>) outs(%es : tensor<4x16x16xf32>) -> tensor<4x16x16xf32>
  %eo = tensor.empty() : tensor<4x16x8xf32>
  %zo = linalg.fill ins(%zero : f32) outs(%eo : tensor<4x16x8xf32>) -> tensor<4x16x8xf32>
  %o = linalg.batch_matmul ins(%p, %v : tensor<4x16x16xf32>, tensor<4x16x8xf32>) outs(%zo : tensor<4x16x8xf32>) -> tensor<4x16x8xf32>
  return %o : tensor<4x16x8xf32>
}

// CHECK-LABEL: func.func @divided_by_nan
// CHECK-NOT: attn.attention
func.func @divided_by_nan(%q: tensor<4x16x8xf32>, %kt: tensor<4x8x16xf32>, %v: tensor<4x16x8xf32>) -> tensor<4x16x8xf32> {
  %zero = arith.constant 0.0 : f32
  %es = tensor.empty() : tensor<4x16x16xf32>
  %zs = linalg.fill ins(%zero : f32) outs(%es : tensor<4x16x16xf32>) -> tensor<4x16x16xf32>
  %s = linalg.batch_matmul ins(%q, %kt : tensor<4x16x8xf32>, tensor<4x8x16xf32>) outs(%zs : tensor<4x16x16xf32>) -> tensor<4x16x16xf32>
  // expected-note @below {{the first op that blocks it: 'linalg.generic'}}
  %ss = linalg.generic {indexing_maps = [#id3, #id3], iterator_types = ["parallel", "parallel", "parallel"]} ins(%s : tensor<4x16x16xf32>) outs(%es : tensor<4x16x16xf32>) {
  ^bb0(%x: f32, %o: f32):
    %c = arith.constant 0x7FC00000 : f32
    %y = arith.divf %x, %c : f32
    linalg.yield %y : f32
  } -> tensor<4x16x16xf32>
  // expected-remark @below {{attn-fuse: not fused: the scores are divided by NaN, not a finite f32}}
  %p = linalg.softmax dimension(2) ins(%ss : tensor<4x16x16xf32>) outs(%es : tensor<4x16x16xf32>) -> tensor<4x16x16xf32>
  %eo = tensor.empty() : tensor<4x16x8xf32>
  %zo = linalg.fill ins(%zero : f32) outs(%eo : tensor<4x16x8xf32>) -> tensor<4x16x8xf32>
  %o = linalg.batch_matmul ins(%p, %v : tensor<4x16x16xf32>, tensor<4x16x8xf32>) outs(%zo : tensor<4x16x8xf32>) -> tensor<4x16x8xf32>
  return %o : tensor<4x16x8xf32>
}

// inf * tanh(S / inf): not a softcap (the cap must be finite), so its outer
// product is seen as a scale by inf.
// CHECK-LABEL: func.func @softcap_inf
// CHECK-NOT: attn.attention
func.func @softcap_inf(%q: tensor<4x16x8xf32>, %kt: tensor<4x8x16xf32>, %v: tensor<4x16x8xf32>) -> tensor<4x16x8xf32> {
  %zero = arith.constant 0.0 : f32
  %es = tensor.empty() : tensor<4x16x16xf32>
  %zs = linalg.fill ins(%zero : f32) outs(%es : tensor<4x16x16xf32>) -> tensor<4x16x16xf32>
  %s = linalg.batch_matmul ins(%q, %kt : tensor<4x16x8xf32>, tensor<4x8x16xf32>) outs(%zs : tensor<4x16x16xf32>) -> tensor<4x16x16xf32>
  // expected-note @below {{the first op that blocks it: 'linalg.generic'}}
  %ss = linalg.generic {indexing_maps = [#id3, #id3], iterator_types = ["parallel", "parallel", "parallel"]} ins(%s : tensor<4x16x16xf32>) outs(%es : tensor<4x16x16xf32>) {
  ^bb0(%x: f32, %o: f32):
    %c = arith.constant 0x7F800000 : f32
    %d = arith.divf %x, %c : f32
    %t = math.tanh %d : f32
    %y = arith.mulf %t, %c : f32
    linalg.yield %y : f32
  } -> tensor<4x16x16xf32>
  // expected-remark @below {{attn-fuse: not fused: the scores are scaled by +Inf, not a finite f32}}
  %p = linalg.softmax dimension(2) ins(%ss : tensor<4x16x16xf32>) outs(%es : tensor<4x16x16xf32>) -> tensor<4x16x16xf32>
  %eo = tensor.empty() : tensor<4x16x8xf32>
  %zo = linalg.fill ins(%zero : f32) outs(%eo : tensor<4x16x8xf32>) -> tensor<4x16x8xf32>
  %o = linalg.batch_matmul ins(%p, %v : tensor<4x16x16xf32>, tensor<4x16x8xf32>) outs(%zo : tensor<4x16x8xf32>) -> tensor<4x16x8xf32>
  return %o : tensor<4x16x8xf32>
}

// TOSA: tosa.mul by a splat inf.
// CHECK-LABEL: func.func @tosa_scale_inf
// CHECK-NOT: attn.attention
func.func @tosa_scale_inf(%q: tensor<8x16x8xf32>, %k: tensor<8x8x16xf32>, %v: tensor<8x16x8xf32>) -> tensor<8x16x8xf32> {
  %zp = "tosa.const"() <{values = dense<0.0> : tensor<1xf32>}> : () -> tensor<1xf32>
  %shift = "tosa.const"() <{values = dense<0> : tensor<1xi8>}> : () -> tensor<1xi8>
  %c = "tosa.const"() <{values = dense<0x7F800000> : tensor<1x1x1xf32>}> : () -> tensor<1x1x1xf32>
  %s = tosa.matmul %q, %k, %zp, %zp : (tensor<8x16x8xf32>, tensor<8x8x16xf32>, tensor<1xf32>, tensor<1xf32>) -> tensor<8x16x16xf32>
  // expected-note @below {{the first op that blocks it: 'linalg.generic'}}
  %ss = tosa.mul %s, %c, %shift : (tensor<8x16x16xf32>, tensor<1x1x1xf32>, tensor<1xi8>) -> tensor<8x16x16xf32>
  // expected-remark @below {{attn-fuse: not fused: the scores are scaled by +Inf, not a finite f32}}
  %m = tosa.reduce_max %ss {axis = 2 : i32} : (tensor<8x16x16xf32>) -> tensor<8x16x1xf32>
  %d = tosa.sub %ss, %m : (tensor<8x16x16xf32>, tensor<8x16x1xf32>) -> tensor<8x16x16xf32>
  %e = tosa.exp %d : (tensor<8x16x16xf32>) -> tensor<8x16x16xf32>
  %l = tosa.reduce_sum %e {axis = 2 : i32} : (tensor<8x16x16xf32>) -> tensor<8x16x1xf32>
  %r = tosa.reciprocal %l : (tensor<8x16x1xf32>) -> tensor<8x16x1xf32>
  %p = tosa.mul %e, %r, %shift : (tensor<8x16x16xf32>, tensor<8x16x1xf32>, tensor<1xi8>) -> tensor<8x16x16xf32>
  %o = tosa.matmul %p, %v, %zp, %zp : (tensor<8x16x16xf32>, tensor<8x16x8xf32>, tensor<1xf32>, tensor<1xf32>) -> tensor<8x16x8xf32>
  return %o : tensor<8x16x8xf32>
}

// CHECK-LABEL: func.func @overflowing_chain
// CHECK-NOT: attn.attention
func.func @overflowing_chain(%q: tensor<4x16x8xf32>, %kt: tensor<4x8x16xf32>, %v: tensor<4x16x8xf32>) -> tensor<4x16x8xf32> {
  %zero = arith.constant 0.0 : f32
  %es = tensor.empty() : tensor<4x16x16xf32>
  %zs = linalg.fill ins(%zero : f32) outs(%es : tensor<4x16x16xf32>) -> tensor<4x16x16xf32>
  %s = linalg.batch_matmul ins(%q, %kt : tensor<4x16x8xf32>, tensor<4x8x16xf32>) outs(%zs : tensor<4x16x16xf32>) -> tensor<4x16x16xf32>
  // expected-note @below {{the first op that blocks it: 'linalg.generic'}}
  %ss = linalg.generic {indexing_maps = [#id3, #id3], iterator_types = ["parallel", "parallel", "parallel"]} ins(%s : tensor<4x16x16xf32>) outs(%es : tensor<4x16x16xf32>) {
  ^bb0(%x: f32, %o: f32):
    %c = arith.constant 1.0e30 : f32
    %t = arith.mulf %x, %c : f32
    %y = arith.mulf %t, %c : f32
    linalg.yield %y : f32
  } -> tensor<4x16x16xf32>
  // expected-remark @below {{attn-fuse: not fused: the scores are scaled twice, and the product of the factors is not a finite, nonzero f32}}
  %p = linalg.softmax dimension(2) ins(%ss : tensor<4x16x16xf32>) outs(%es : tensor<4x16x16xf32>) -> tensor<4x16x16xf32>
  %eo = tensor.empty() : tensor<4x16x8xf32>
  %zo = linalg.fill ins(%zero : f32) outs(%eo : tensor<4x16x8xf32>) -> tensor<4x16x8xf32>
  %o = linalg.batch_matmul ins(%p, %v : tensor<4x16x16xf32>, tensor<4x16x8xf32>) outs(%zo : tensor<4x16x8xf32>) -> tensor<4x16x8xf32>
  return %o : tensor<4x16x8xf32>
}
