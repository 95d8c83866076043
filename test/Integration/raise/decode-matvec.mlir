// A decode step written with matrix-vector products: the one new query
// token has no query dim, so Q·Kᵀ and P·V are `einsum('bhd,bhkd->bhk')`
// and `einsum('bhk,bhkd->bhd')` (JAX, hand-written decoders) or linalg's
// batch_matvec / batch_vecmat over heads folded into the batch.
// attn-normalize-chains gives the chain a unit query dim back
// (RestoreUnitQueryDims.cpp) and attn-fuse raises it to one op on
// [B, H, 1, D], reshaped at its edges.
// RUN: attention-opt %s --attn-raise-pipeline | FileCheck %s
// RUN: attn-raise-check %s --require-raised --runs=2 --seed=7 | FileCheck %s --check-prefix=PROOF --implicit-check-not=FAIL
// RUN: attn-raise-check %s --require-raised --runs=1 --function=einsum_decode_dynamic '--shapes=3x4x8,3x4x37x8,3x4x37x8->3x4x8' '--shapes=1x4x8,1x4x1x8,1x4x1x8->1x4x8' '--shapes=2x4x8,2x4x130x8,2x4x130x8->2x4x8' | FileCheck %s --check-prefix=DYNAMIC --implicit-check-not=FAIL
// RUN: attention-opt %s --attn-raise-pipeline | attn-compile - --chip=sm_90a -o %t.ptx 2>&1 | FileCheck %s --check-prefix=COMPILE
// COMPILE: attn-compile: wrote
// PROOF: @einsum_decode: 1 attn.attention after the raising
// PROOF: run 1 result 0 tensor<2x4x8xf32>: {{.*}}: PASS
// PROOF: @einsum_decode_dynamic: dynamic sizes, skipped (give --shapes to check it)
// PROOF: @batch_matvec_decode: 1 attn.attention after the raising
// PROOF: run 1 result 0 tensor<8x16xf16>: {{.*}}: PASS
// DYNAMIC: @einsum_decode_dynamic at {{.*}}: 1 attn.attention after the raising
// DYNAMIC: run 0 result 0 tensor<3x4x8xf32>: {{.*}}: PASS
// DYNAMIC: @einsum_decode_dynamic at {{.*}}: 1 attn.attention after the raising
// DYNAMIC: run 0 result 0 tensor<1x4x8xf32>: {{.*}}: PASS
// DYNAMIC: @einsum_decode_dynamic at {{.*}}: 1 attn.attention after the raising
// DYNAMIC: run 0 result 0 tensor<2x4x8xf32>: {{.*}}: PASS

// CHECK-LABEL: func.func @einsum_decode
// CHECK: %[[Q:.*]] = tensor.expand_shape %arg0 {{\[\[}}0], [1, 2], [3]] output_shape [2, 4, 1, 8] : tensor<2x4x8xf32> into tensor<2x4x1x8xf32>
// CHECK: %[[O:.*]] = attn.attention ins(%[[Q]], %arg1, %arg2 : tensor<2x4x1x8xf32>, tensor<2x4x16x8xf32>, tensor<2x4x16x8xf32>) {scale = 0.353553385 : f32} -> tensor<2x4x1x8xf32>
// CHECK: %[[R:.*]] = tensor.collapse_shape %[[O]] {{\[\[}}0], [1, 2], [3]] : tensor<2x4x1x8xf32> into tensor<2x4x8xf32>
// CHECK-NOT: linalg.
// CHECK: return %[[R]]
#q = affine_map<(b, h, k, d) -> (b, h, d)>
#k = affine_map<(b, h, k, d) -> (b, h, k, d)>
#s = affine_map<(b, h, k, d) -> (b, h, k)>
#p = affine_map<(b, h, d, k) -> (b, h, k)>
#v = affine_map<(b, h, d, k) -> (b, h, k, d)>
#o = affine_map<(b, h, d, k) -> (b, h, d)>
#id = affine_map<(b, h, k) -> (b, h, k)>
#row = affine_map<(b, h, k) -> (b, h)>
func.func @einsum_decode(%q: tensor<2x4x8xf32>, %k: tensor<2x4x16x8xf32>, %v: tensor<2x4x16x8xf32>) -> tensor<2x4x8xf32> {
  %zero = arith.constant 0.0 : f32
  %ninf = arith.constant 0xFF800000 : f32
  %scale = arith.constant 0.353553385 : f32
  %e0 = tensor.empty() : tensor<2x4x16xf32>
  %s0 = linalg.fill ins(%zero : f32) outs(%e0 : tensor<2x4x16xf32>) -> tensor<2x4x16xf32>
  %s = linalg.generic {indexing_maps = [#q, #k, #s], iterator_types = ["parallel", "parallel", "parallel", "reduction"]}
      ins(%q, %k : tensor<2x4x8xf32>, tensor<2x4x16x8xf32>) outs(%s0 : tensor<2x4x16xf32>) {
  ^bb0(%a: f32, %b: f32, %acc: f32):
    %m = arith.mulf %a, %b : f32
    %r = arith.addf %acc, %m : f32
    linalg.yield %r : f32
  } -> tensor<2x4x16xf32>
  %ss = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel", "parallel"]}
      ins(%s : tensor<2x4x16xf32>) outs(%e0 : tensor<2x4x16xf32>) {
  ^bb0(%a: f32, %o: f32):
    %r = arith.mulf %a, %scale : f32
    linalg.yield %r : f32
  } -> tensor<2x4x16xf32>
  %p = linalg.softmax dimension(2) ins(%ss : tensor<2x4x16xf32>) outs(%e0 : tensor<2x4x16xf32>) -> tensor<2x4x16xf32>
  %eo = tensor.empty() : tensor<2x4x8xf32>
  %o0 = linalg.fill ins(%zero : f32) outs(%eo : tensor<2x4x8xf32>) -> tensor<2x4x8xf32>
  %o = linalg.generic {indexing_maps = [#p, #v, #o], iterator_types = ["parallel", "parallel", "parallel", "reduction"]}
      ins(%p, %v : tensor<2x4x16xf32>, tensor<2x4x16x8xf32>) outs(%o0 : tensor<2x4x8xf32>) {
  ^bb0(%a: f32, %b: f32, %acc: f32):
    %m = arith.mulf %a, %b : f32
    %r = arith.addf %acc, %m : f32
    linalg.yield %r : f32
  } -> tensor<2x4x8xf32>
  return %o : tensor<2x4x8xf32>
}

// Run-time batch and cache length.
// CHECK-LABEL: func.func @einsum_decode_dynamic
// CHECK: attn.attention ins({{.*}} : tensor<?x4x1x8xf32>, tensor<?x4x?x8xf32>, tensor<?x4x?x8xf32>) {scale = 0.353553385 : f32} -> tensor<?x4x1x8xf32>
// CHECK-NOT: linalg.
// CHECK: return
func.func @einsum_decode_dynamic(%q: tensor<?x4x8xf32>, %k: tensor<?x4x?x8xf32>, %v: tensor<?x4x?x8xf32>) -> tensor<?x4x8xf32> {
  %zero = arith.constant 0.0 : f32
  %ninf = arith.constant 0xFF800000 : f32
  %scale = arith.constant 0.353553385 : f32
  %c0 = arith.constant 0 : index
  %c2 = arith.constant 2 : index
  %bs = tensor.dim %k, %c0 : tensor<?x4x?x8xf32>
  %lk = tensor.dim %k, %c2 : tensor<?x4x?x8xf32>
  %e0 = tensor.empty(%bs, %lk) : tensor<?x4x?xf32>
  %s0 = linalg.fill ins(%zero : f32) outs(%e0 : tensor<?x4x?xf32>) -> tensor<?x4x?xf32>
  %s = linalg.generic {indexing_maps = [#q, #k, #s], iterator_types = ["parallel", "parallel", "parallel", "reduction"]}
      ins(%q, %k : tensor<?x4x8xf32>, tensor<?x4x?x8xf32>) outs(%s0 : tensor<?x4x?xf32>) {
  ^bb0(%a: f32, %b: f32, %acc: f32):
    %m = arith.mulf %a, %b : f32
    %r = arith.addf %acc, %m : f32
    linalg.yield %r : f32
  } -> tensor<?x4x?xf32>
  %ss = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel", "parallel"]}
      ins(%s : tensor<?x4x?xf32>) outs(%e0 : tensor<?x4x?xf32>) {
  ^bb0(%a: f32, %o: f32):
    %r = arith.mulf %a, %scale : f32
    linalg.yield %r : f32
  } -> tensor<?x4x?xf32>
  %p = linalg.softmax dimension(2) ins(%ss : tensor<?x4x?xf32>) outs(%e0 : tensor<?x4x?xf32>) -> tensor<?x4x?xf32>
  %eo = tensor.empty(%bs) : tensor<?x4x8xf32>
  %o0 = linalg.fill ins(%zero : f32) outs(%eo : tensor<?x4x8xf32>) -> tensor<?x4x8xf32>
  %o = linalg.generic {indexing_maps = [#p, #v, #o], iterator_types = ["parallel", "parallel", "parallel", "reduction"]}
      ins(%p, %v : tensor<?x4x?xf32>, tensor<?x4x?x8xf32>) outs(%o0 : tensor<?x4x8xf32>) {
  ^bb0(%a: f32, %b: f32, %acc: f32):
    %m = arith.mulf %a, %b : f32
    %r = arith.addf %acc, %m : f32
    linalg.yield %r : f32
  } -> tensor<?x4x8xf32>
  return %o : tensor<?x4x8xf32>
}

// Heads folded into the batch, the products as linalg's named
// matrix-vector ops: s = K q (batch_matvec), o = p V (batch_vecmat); f16
// with the softmax in f32.
// CHECK-LABEL: func.func @batch_matvec_decode
// CHECK: attn.attention ins({{.*}} : tensor<1x8x1x16xf16>, tensor<1x8x40x16xf16>, tensor<1x8x40x16xf16>) {scale = 2.500000e-01 : f32} -> tensor<1x8x1x16xf16>
// CHECK-NOT: linalg.
// CHECK: return
func.func @batch_matvec_decode(%q: tensor<8x16xf16>, %k: tensor<8x40x16xf16>, %v: tensor<8x40x16xf16>) -> tensor<8x16xf16> {
  %zero = arith.constant 0.0 : f16
  %scale = arith.constant 0.25 : f16
  %e0 = tensor.empty() : tensor<8x40xf16>
  %s0 = linalg.fill ins(%zero : f16) outs(%e0 : tensor<8x40xf16>) -> tensor<8x40xf16>
  %s = linalg.batch_matvec ins(%k, %q : tensor<8x40x16xf16>, tensor<8x16xf16>) outs(%s0 : tensor<8x40xf16>) -> tensor<8x40xf16>
  %ss = linalg.generic {indexing_maps = [affine_map<(b, k) -> (b, k)>, affine_map<(b, k) -> (b, k)>], iterator_types = ["parallel", "parallel"]}
      ins(%s : tensor<8x40xf16>) outs(%e0 : tensor<8x40xf16>) {
  ^bb0(%a: f16, %o: f16):
    %r = arith.mulf %a, %scale : f16
    linalg.yield %r : f16
  } -> tensor<8x40xf16>
  %e32 = tensor.empty() : tensor<8x40xf32>
  %s32 = linalg.generic {indexing_maps = [affine_map<(b, k) -> (b, k)>, affine_map<(b, k) -> (b, k)>], iterator_types = ["parallel", "parallel"]}
      ins(%ss : tensor<8x40xf16>) outs(%e32 : tensor<8x40xf32>) {
  ^bb0(%a: f16, %o: f32):
    %r = arith.extf %a : f16 to f32
    linalg.yield %r : f32
  } -> tensor<8x40xf32>
  %p32 = linalg.softmax dimension(1) ins(%s32 : tensor<8x40xf32>) outs(%e32 : tensor<8x40xf32>) -> tensor<8x40xf32>
  %p = linalg.generic {indexing_maps = [affine_map<(b, k) -> (b, k)>, affine_map<(b, k) -> (b, k)>], iterator_types = ["parallel", "parallel"]}
      ins(%p32 : tensor<8x40xf32>) outs(%e0 : tensor<8x40xf16>) {
  ^bb0(%a: f32, %o: f16):
    %r = arith.truncf %a : f32 to f16
    linalg.yield %r : f16
  } -> tensor<8x40xf16>
  %eo = tensor.empty() : tensor<8x16xf16>
  %o0 = linalg.fill ins(%zero : f16) outs(%eo : tensor<8x16xf16>) -> tensor<8x16xf16>
  %o = linalg.batch_vecmat ins(%p, %v : tensor<8x40xf16>, tensor<8x40x16xf16>) outs(%o0 : tensor<8x16xf16>) -> tensor<8x16xf16>
  return %o : tensor<8x16xf16>
}
