// The chains that attn-fuse rewrites compute the same numbers after fusion.
//
// 1. The fused attn.attention ops are checked against the float64 reference
//    on random inputs by attn-cpu-run (through attn-decompose and through
//    the tiled form).
// RUN: attention-opt %s --attn-fuse | attn-cpu-run --seed=3 | FileCheck %s
// RUN: attention-opt %s --attn-fuse | attn-cpu-run --seed=4 --lowering="attn-tile{block-q=4 block-kv=4}" | FileCheck %s
//
// 2. The fused chains are checked against the unfused originals: @main calls
//    each chain (fused by the pass) and a copy of it that attn-fuse leaves
//    alone because its probabilities have a second user (they are also
//    returned), on the same deterministic inputs, and returns the largest
//    absolute difference of the outputs (outputs are O(1)).
// RUN: attention-opt %s --pass-pipeline="builtin.module(attn-fuse,func.func(attn-decompose),canonicalize,one-shot-bufferize{bufferize-function-boundaries function-boundary-type-conversion=identity-layout-map},canonicalize,buffer-deallocation-pipeline,convert-bufferization-to-memref,func.func(convert-linalg-to-loops),expand-strided-metadata,lower-affine,convert-scf-to-cf,arith-expand,convert-math-to-llvm,convert-math-to-libm,finalize-memref-to-llvm,convert-arith-to-llvm,convert-index-to-llvm,convert-cf-to-llvm,convert-func-to-llvm,reconcile-unrealized-casts)" \
// RUN:   | mlir-runner -e main -entry-point-result=f32 | FileCheck %s --check-prefix=DIFF
//
// The chains are fused; the reference copies are not:
// RUN: attention-opt %s --attn-fuse | FileCheck %s --check-prefix=IR

// IR-LABEL: func @scaled_bias
// IR: attn.attention {{.*}} mask({{.*}} : tensor<1x1x6x10xf32>) {scale = 1.250000e-01 : f32}
// IR-LABEL: func @scaled_bias_ref
// IR-NOT: attn.attention
// IR-LABEL: func @keep_mask
// IR: attn.attention {{.*}} mask({{.*}} : tensor<1x4x6x10xi1>) {scale = 2.500000e-01 : f32}
// IR-LABEL: func @keep_mask_ref
// IR-NOT: attn.attention
// IR-LABEL: func @causal_br
// IR: attn.attention {{.*}} {causal = #attn.causal<bottom_right>, scale = 1.250000e-01 : f32}
// IR-LABEL: func @causal_br_ref
// IR-NOT: attn.attention
// IR-LABEL: func @causal_add
// IR: attn.attention {{.*}} {causal = #attn.causal<top_left>, scale = 1.250000e-01 : f32}
// IR-LABEL: func @causal_add_ref
// IR-NOT: attn.attention
// IR-LABEL: func @causal_win
// IR: attn.attention {{.*}} {scale = 1.250000e-01 : f32, window = array<i64: -1, 2>}
// IR-LABEL: func @causal_win_ref
// IR-NOT: attn.attention
// IR-LABEL: func @dropout_keep
// IR: attn.attention {{.*}} dropout_mask({{.*}} : tensor<1x4x6x10xi1>) {dropout_p = 0.333333313 : f32, scale = 2.500000e-01 : f32}
// IR-LABEL: func @dropout_keep_ref
// IR-NOT: attn.attention

// CHECK: attn.attention
// CHECK-NEXT: B=1 Hq=4 Hkv=4 Lq=6 Lk=10 D=64 Dv=5 f32 causal=none masked
// CHECK: PASS
// CHECK: attn.attention
// CHECK-NEXT: B=1 Hq=4 Hkv=4 Lq=6 Lk=10 D=16 Dv=5 f32 causal=none masked
// CHECK: PASS
// CHECK: attn.attention
// CHECK-NEXT: B=1 Hq=4 Hkv=4 Lq=6 Lk=10 D=64 Dv=5 f32 causal=bottom_right{{$}}
// CHECK: PASS
// CHECK: attn.attention
// CHECK-NEXT: B=1 Hq=4 Hkv=4 Lq=6 Lk=10 D=64 Dv=5 f32 causal=top_left{{$}}
// CHECK: PASS
// CHECK: attn.attention
// CHECK-NEXT: B=1 Hq=4 Hkv=4 Lq=6 Lk=10 D=64 Dv=5 f32 causal=none window{{$}}
// CHECK: PASS
// CHECK: attn.attention
// CHECK-NEXT: B=1 Hq=4 Hkv=4 Lq=6 Lk=10 D=16 Dv=5 f32 causal=none dropout dropout_mask{{$}}
// CHECK: PASS
// CHECK: all 6 attention op(s) match the float64 reference

// Largest |fused - unfused| over all chains: below 1e-5.
// DIFF: {{^(0|[0-9](\.[0-9]+)?e-(0[6-9]|[1-9][0-9]))$}}

#id3 = affine_map<(d0, d1, d2) -> (d0, d1, d2)>
#row = affine_map<(d0, d1, d2) -> (d0, d1)>
#kv = affine_map<(d0, d1, d2) -> (d1, d2)>

// Chain 1: batch_matmul with K through linalg.transpose, / sqrt(64), plus a
// bias [Lq, Lk], softmax as generics (max, sub, exp, sum, div), P·V.
func.func @scaled_bias(%q: tensor<4x6x64xf32>, %k: tensor<4x10x64xf32>, %v: tensor<4x10x5xf32>, %bias: tensor<6x10xf32>) -> tensor<4x6x5xf32> {
  %zero = arith.constant 0.0 : f32
  %ninf = arith.constant 0xFF800000 : f32
  %c8 = arith.constant 8.0 : f32
  %ekt = tensor.empty() : tensor<4x64x10xf32>
  %kt = linalg.transpose ins(%k : tensor<4x10x64xf32>) outs(%ekt : tensor<4x64x10xf32>) permutation = [0, 2, 1]
  %es = tensor.empty() : tensor<4x6x10xf32>
  %zs = linalg.fill ins(%zero : f32) outs(%es : tensor<4x6x10xf32>) -> tensor<4x6x10xf32>
  %s = linalg.batch_matmul ins(%q, %kt : tensor<4x6x64xf32>, tensor<4x64x10xf32>) outs(%zs : tensor<4x6x10xf32>) -> tensor<4x6x10xf32>
  %ss = linalg.generic {indexing_maps = [#id3, #id3], iterator_types = ["parallel", "parallel", "parallel"]} ins(%s : tensor<4x6x10xf32>) outs(%es : tensor<4x6x10xf32>) {
  ^bb0(%x: f32, %o: f32):
    %r = arith.divf %x, %c8 : f32
    linalg.yield %r : f32
  } -> tensor<4x6x10xf32>
  %sb = linalg.generic {indexing_maps = [#id3, #kv, #id3], iterator_types = ["parallel", "parallel", "parallel"]} ins(%ss, %bias : tensor<4x6x10xf32>, tensor<6x10xf32>) outs(%es : tensor<4x6x10xf32>) {
  ^bb0(%x: f32, %b: f32, %o: f32):
    %r = arith.addf %x, %b : f32
    linalg.yield %r : f32
  } -> tensor<4x6x10xf32>
  %er = tensor.empty() : tensor<4x6xf32>
  %mi = linalg.fill ins(%ninf : f32) outs(%er : tensor<4x6xf32>) -> tensor<4x6xf32>
  %m = linalg.generic {indexing_maps = [#id3, #row], iterator_types = ["parallel", "parallel", "reduction"]} ins(%sb : tensor<4x6x10xf32>) outs(%mi : tensor<4x6xf32>) {
  ^bb0(%x: f32, %acc: f32):
    %r = arith.maximumf %x, %acc : f32
    linalg.yield %r : f32
  } -> tensor<4x6xf32>
  %d = linalg.generic {indexing_maps = [#id3, #row, #id3], iterator_types = ["parallel", "parallel", "parallel"]} ins(%sb, %m : tensor<4x6x10xf32>, tensor<4x6xf32>) outs(%es : tensor<4x6x10xf32>) {
  ^bb0(%x: f32, %y: f32, %o: f32):
    %r = arith.subf %x, %y : f32
    linalg.yield %r : f32
  } -> tensor<4x6x10xf32>
  %e = linalg.exp ins(%d : tensor<4x6x10xf32>) outs(%es : tensor<4x6x10xf32>) -> tensor<4x6x10xf32>
  %li = linalg.fill ins(%zero : f32) outs(%er : tensor<4x6xf32>) -> tensor<4x6xf32>
  %l = linalg.generic {indexing_maps = [#id3, #row], iterator_types = ["parallel", "parallel", "reduction"]} ins(%e : tensor<4x6x10xf32>) outs(%li : tensor<4x6xf32>) {
  ^bb0(%x: f32, %acc: f32):
    %r = arith.addf %x, %acc : f32
    linalg.yield %r : f32
  } -> tensor<4x6xf32>
  %p = linalg.generic {indexing_maps = [#id3, #row, #id3], iterator_types = ["parallel", "parallel", "parallel"]} ins(%e, %l : tensor<4x6x10xf32>, tensor<4x6xf32>) outs(%es : tensor<4x6x10xf32>) {
  ^bb0(%x: f32, %y: f32, %o: f32):
    %r = arith.divf %x, %y : f32
    linalg.yield %r : f32
  } -> tensor<4x6x10xf32>
  %eo = tensor.empty() : tensor<4x6x5xf32>
  %zo = linalg.fill ins(%zero : f32) outs(%eo : tensor<4x6x5xf32>) -> tensor<4x6x5xf32>
  %out = linalg.batch_matmul ins(%p, %v : tensor<4x6x10xf32>, tensor<4x10x5xf32>) outs(%zo : tensor<4x6x5xf32>) -> tensor<4x6x5xf32>
  return %out : tensor<4x6x5xf32>
}
func.func @scaled_bias_ref(%q: tensor<4x6x64xf32>, %k: tensor<4x10x64xf32>, %v: tensor<4x10x5xf32>, %bias: tensor<6x10xf32>) -> (tensor<4x6x5xf32>, tensor<4x6x10xf32>) {
  %zero = arith.constant 0.0 : f32
  %ninf = arith.constant 0xFF800000 : f32
  %c8 = arith.constant 8.0 : f32
  %ekt = tensor.empty() : tensor<4x64x10xf32>
  %kt = linalg.transpose ins(%k : tensor<4x10x64xf32>) outs(%ekt : tensor<4x64x10xf32>) permutation = [0, 2, 1]
  %es = tensor.empty() : tensor<4x6x10xf32>
  %zs = linalg.fill ins(%zero : f32) outs(%es : tensor<4x6x10xf32>) -> tensor<4x6x10xf32>
  %s = linalg.batch_matmul ins(%q, %kt : tensor<4x6x64xf32>, tensor<4x64x10xf32>) outs(%zs : tensor<4x6x10xf32>) -> tensor<4x6x10xf32>
  %ss = linalg.generic {indexing_maps = [#id3, #id3], iterator_types = ["parallel", "parallel", "parallel"]} ins(%s : tensor<4x6x10xf32>) outs(%es : tensor<4x6x10xf32>) {
  ^bb0(%x: f32, %o: f32):
    %r = arith.divf %x, %c8 : f32
    linalg.yield %r : f32
  } -> tensor<4x6x10xf32>
  %sb = linalg.generic {indexing_maps = [#id3, #kv, #id3], iterator_types = ["parallel", "parallel", "parallel"]} ins(%ss, %bias : tensor<4x6x10xf32>, tensor<6x10xf32>) outs(%es : tensor<4x6x10xf32>) {
  ^bb0(%x: f32, %b: f32, %o: f32):
    %r = arith.addf %x, %b : f32
    linalg.yield %r : f32
  } -> tensor<4x6x10xf32>
  %er = tensor.empty() : tensor<4x6xf32>
  %mi = linalg.fill ins(%ninf : f32) outs(%er : tensor<4x6xf32>) -> tensor<4x6xf32>
  %m = linalg.generic {indexing_maps = [#id3, #row], iterator_types = ["parallel", "parallel", "reduction"]} ins(%sb : tensor<4x6x10xf32>) outs(%mi : tensor<4x6xf32>) {
  ^bb0(%x: f32, %acc: f32):
    %r = arith.maximumf %x, %acc : f32
    linalg.yield %r : f32
  } -> tensor<4x6xf32>
  %d = linalg.generic {indexing_maps = [#id3, #row, #id3], iterator_types = ["parallel", "parallel", "parallel"]} ins(%sb, %m : tensor<4x6x10xf32>, tensor<4x6xf32>) outs(%es : tensor<4x6x10xf32>) {
  ^bb0(%x: f32, %y: f32, %o: f32):
    %r = arith.subf %x, %y : f32
    linalg.yield %r : f32
  } -> tensor<4x6x10xf32>
  %e = linalg.exp ins(%d : tensor<4x6x10xf32>) outs(%es : tensor<4x6x10xf32>) -> tensor<4x6x10xf32>
  %li = linalg.fill ins(%zero : f32) outs(%er : tensor<4x6xf32>) -> tensor<4x6xf32>
  %l = linalg.generic {indexing_maps = [#id3, #row], iterator_types = ["parallel", "parallel", "reduction"]} ins(%e : tensor<4x6x10xf32>) outs(%li : tensor<4x6xf32>) {
  ^bb0(%x: f32, %acc: f32):
    %r = arith.addf %x, %acc : f32
    linalg.yield %r : f32
  } -> tensor<4x6xf32>
  %p = linalg.generic {indexing_maps = [#id3, #row, #id3], iterator_types = ["parallel", "parallel", "parallel"]} ins(%e, %l : tensor<4x6x10xf32>, tensor<4x6xf32>) outs(%es : tensor<4x6x10xf32>) {
  ^bb0(%x: f32, %y: f32, %o: f32):
    %r = arith.divf %x, %y : f32
    linalg.yield %r : f32
  } -> tensor<4x6x10xf32>
  %eo = tensor.empty() : tensor<4x6x5xf32>
  %zo = linalg.fill ins(%zero : f32) outs(%eo : tensor<4x6x5xf32>) -> tensor<4x6x5xf32>
  %out = linalg.batch_matmul ins(%p, %v : tensor<4x6x10xf32>, tensor<4x10x5xf32>) outs(%zo : tensor<4x6x5xf32>) -> tensor<4x6x5xf32>
  return %out, %p : tensor<4x6x5xf32>, tensor<4x6x10xf32>
}

// Chain 2: batch_matmul reading K transposed through indexing_maps, * 0.25,
// select(keep, s, -inf), softmax with linalg.reduce / linalg.broadcast /
// named linalg.sub and linalg.exp, normalized by a reciprocal, P·V.
func.func @keep_mask(%q: tensor<4x6x16xf32>, %k: tensor<4x10x16xf32>, %v: tensor<4x10x5xf32>, %mask: tensor<4x6x10xi1>) -> tensor<4x6x5xf32> {
  %zero = arith.constant 0.0 : f32
  %one = arith.constant 1.0 : f32
  %ninf = arith.constant 0xFF800000 : f32
  %c = arith.constant 0.25 : f32
  %es = tensor.empty() : tensor<4x6x10xf32>
  %zs = linalg.fill ins(%zero : f32) outs(%es : tensor<4x6x10xf32>) -> tensor<4x6x10xf32>
  %s = linalg.batch_matmul indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d0, d1, d3)>, affine_map<(d0, d1, d2, d3) -> (d0, d2, d3)>, affine_map<(d0, d1, d2, d3) -> (d0, d1, d2)>] ins(%q, %k : tensor<4x6x16xf32>, tensor<4x10x16xf32>) outs(%zs : tensor<4x6x10xf32>) -> tensor<4x6x10xf32>
  %ss = linalg.generic {indexing_maps = [#id3, #id3], iterator_types = ["parallel", "parallel", "parallel"]} ins(%s : tensor<4x6x10xf32>) outs(%es : tensor<4x6x10xf32>) {
  ^bb0(%x: f32, %o: f32):
    %r = arith.mulf %c, %x : f32
    linalg.yield %r : f32
  } -> tensor<4x6x10xf32>
  %sm = linalg.generic {indexing_maps = [#id3, #id3, #id3], iterator_types = ["parallel", "parallel", "parallel"]} ins(%mask, %ss : tensor<4x6x10xi1>, tensor<4x6x10xf32>) outs(%es : tensor<4x6x10xf32>) {
  ^bb0(%b: i1, %x: f32, %o: f32):
    %r = arith.select %b, %x, %ninf : f32
    linalg.yield %r : f32
  } -> tensor<4x6x10xf32>
  %er = tensor.empty() : tensor<4x6xf32>
  %mi = linalg.fill ins(%ninf : f32) outs(%er : tensor<4x6xf32>) -> tensor<4x6xf32>
  %m = linalg.reduce ins(%sm : tensor<4x6x10xf32>) outs(%mi : tensor<4x6xf32>) dimensions = [2]
    (%x: f32, %acc: f32) {
      %r = arith.maximumf %x, %acc : f32
      linalg.yield %r : f32
    }
  %eb = tensor.empty() : tensor<4x6x10xf32>
  %mb = linalg.broadcast ins(%m : tensor<4x6xf32>) outs(%eb : tensor<4x6x10xf32>) dimensions = [2]
  %d = linalg.sub ins(%sm, %mb : tensor<4x6x10xf32>, tensor<4x6x10xf32>) outs(%es : tensor<4x6x10xf32>) -> tensor<4x6x10xf32>
  %e = linalg.exp ins(%d : tensor<4x6x10xf32>) outs(%es : tensor<4x6x10xf32>) -> tensor<4x6x10xf32>
  %li = linalg.fill ins(%zero : f32) outs(%er : tensor<4x6xf32>) -> tensor<4x6xf32>
  %l = linalg.reduce ins(%e : tensor<4x6x10xf32>) outs(%li : tensor<4x6xf32>) dimensions = [2]
    (%x: f32, %acc: f32) {
      %r = arith.addf %x, %acc : f32
      linalg.yield %r : f32
    }
  %rl = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%l : tensor<4x6xf32>) outs(%er : tensor<4x6xf32>) {
  ^bb0(%x: f32, %o: f32):
    %r = arith.divf %one, %x : f32
    linalg.yield %r : f32
  } -> tensor<4x6xf32>
  %p = linalg.generic {indexing_maps = [#id3, #row, #id3], iterator_types = ["parallel", "parallel", "parallel"]} ins(%e, %rl : tensor<4x6x10xf32>, tensor<4x6xf32>) outs(%es : tensor<4x6x10xf32>) {
  ^bb0(%x: f32, %y: f32, %o: f32):
    %r = arith.mulf %x, %y : f32
    linalg.yield %r : f32
  } -> tensor<4x6x10xf32>
  %eo = tensor.empty() : tensor<4x6x5xf32>
  %zo = linalg.fill ins(%zero : f32) outs(%eo : tensor<4x6x5xf32>) -> tensor<4x6x5xf32>
  %out = linalg.batch_matmul ins(%p, %v : tensor<4x6x10xf32>, tensor<4x10x5xf32>) outs(%zo : tensor<4x6x5xf32>) -> tensor<4x6x5xf32>
  return %out : tensor<4x6x5xf32>
}
func.func @keep_mask_ref(%q: tensor<4x6x16xf32>, %k: tensor<4x10x16xf32>, %v: tensor<4x10x5xf32>, %mask: tensor<4x6x10xi1>) -> (tensor<4x6x5xf32>, tensor<4x6x10xf32>) {
  %zero = arith.constant 0.0 : f32
  %one = arith.constant 1.0 : f32
  %ninf = arith.constant 0xFF800000 : f32
  %c = arith.constant 0.25 : f32
  %es = tensor.empty() : tensor<4x6x10xf32>
  %zs = linalg.fill ins(%zero : f32) outs(%es : tensor<4x6x10xf32>) -> tensor<4x6x10xf32>
  %s = linalg.batch_matmul indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d0, d1, d3)>, affine_map<(d0, d1, d2, d3) -> (d0, d2, d3)>, affine_map<(d0, d1, d2, d3) -> (d0, d1, d2)>] ins(%q, %k : tensor<4x6x16xf32>, tensor<4x10x16xf32>) outs(%zs : tensor<4x6x10xf32>) -> tensor<4x6x10xf32>
  %ss = linalg.generic {indexing_maps = [#id3, #id3], iterator_types = ["parallel", "parallel", "parallel"]} ins(%s : tensor<4x6x10xf32>) outs(%es : tensor<4x6x10xf32>) {
  ^bb0(%x: f32, %o: f32):
    %r = arith.mulf %c, %x : f32
    linalg.yield %r : f32
  } -> tensor<4x6x10xf32>
  %sm = linalg.generic {indexing_maps = [#id3, #id3, #id3], iterator_types = ["parallel", "parallel", "parallel"]} ins(%mask, %ss : tensor<4x6x10xi1>, tensor<4x6x10xf32>) outs(%es : tensor<4x6x10xf32>) {
  ^bb0(%b: i1, %x: f32, %o: f32):
    %r = arith.select %b, %x, %ninf : f32
    linalg.yield %r : f32
  } -> tensor<4x6x10xf32>
  %er = tensor.empty() : tensor<4x6xf32>
  %mi = linalg.fill ins(%ninf : f32) outs(%er : tensor<4x6xf32>) -> tensor<4x6xf32>
  %m = linalg.reduce ins(%sm : tensor<4x6x10xf32>) outs(%mi : tensor<4x6xf32>) dimensions = [2]
    (%x: f32, %acc: f32) {
      %r = arith.maximumf %x, %acc : f32
      linalg.yield %r : f32
    }
  %eb = tensor.empty() : tensor<4x6x10xf32>
  %mb = linalg.broadcast ins(%m : tensor<4x6xf32>) outs(%eb : tensor<4x6x10xf32>) dimensions = [2]
  %d = linalg.sub ins(%sm, %mb : tensor<4x6x10xf32>, tensor<4x6x10xf32>) outs(%es : tensor<4x6x10xf32>) -> tensor<4x6x10xf32>
  %e = linalg.exp ins(%d : tensor<4x6x10xf32>) outs(%es : tensor<4x6x10xf32>) -> tensor<4x6x10xf32>
  %li = linalg.fill ins(%zero : f32) outs(%er : tensor<4x6xf32>) -> tensor<4x6xf32>
  %l = linalg.reduce ins(%e : tensor<4x6x10xf32>) outs(%li : tensor<4x6xf32>) dimensions = [2]
    (%x: f32, %acc: f32) {
      %r = arith.addf %x, %acc : f32
      linalg.yield %r : f32
    }
  %rl = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%l : tensor<4x6xf32>) outs(%er : tensor<4x6xf32>) {
  ^bb0(%x: f32, %o: f32):
    %r = arith.divf %one, %x : f32
    linalg.yield %r : f32
  } -> tensor<4x6xf32>
  %p = linalg.generic {indexing_maps = [#id3, #row, #id3], iterator_types = ["parallel", "parallel", "parallel"]} ins(%e, %rl : tensor<4x6x10xf32>, tensor<4x6xf32>) outs(%es : tensor<4x6x10xf32>) {
  ^bb0(%x: f32, %y: f32, %o: f32):
    %r = arith.mulf %x, %y : f32
    linalg.yield %r : f32
  } -> tensor<4x6x10xf32>
  %eo = tensor.empty() : tensor<4x6x5xf32>
  %zo = linalg.fill ins(%zero : f32) outs(%eo : tensor<4x6x5xf32>) -> tensor<4x6x5xf32>
  %out = linalg.batch_matmul ins(%p, %v : tensor<4x6x10xf32>, tensor<4x10x5xf32>) outs(%zo : tensor<4x6x5xf32>) -> tensor<4x6x5xf32>
  return %out, %p : tensor<4x6x5xf32>, tensor<4x6x10xf32>
}

// Chain 3: as chain 1 with select(j > i + 4, -inf, s) in one generic
// (Lk - Lq = 4): causal = bottom_right.
func.func @causal_br(%q: tensor<4x6x64xf32>, %k: tensor<4x10x64xf32>, %v: tensor<4x10x5xf32>) -> tensor<4x6x5xf32> {
  %zero = arith.constant 0.0 : f32
  %ninf = arith.constant 0xFF800000 : f32
  %c8 = arith.constant 8.0 : f32
  %ekt = tensor.empty() : tensor<4x64x10xf32>
  %kt = linalg.transpose ins(%k : tensor<4x10x64xf32>) outs(%ekt : tensor<4x64x10xf32>) permutation = [0, 2, 1]
  %es = tensor.empty() : tensor<4x6x10xf32>
  %zs = linalg.fill ins(%zero : f32) outs(%es : tensor<4x6x10xf32>) -> tensor<4x6x10xf32>
  %s = linalg.batch_matmul ins(%q, %kt : tensor<4x6x64xf32>, tensor<4x64x10xf32>) outs(%zs : tensor<4x6x10xf32>) -> tensor<4x6x10xf32>
  %ss = linalg.generic {indexing_maps = [#id3, #id3], iterator_types = ["parallel", "parallel", "parallel"]} ins(%s : tensor<4x6x10xf32>) outs(%es : tensor<4x6x10xf32>) {
  ^bb0(%x: f32, %o: f32):
    %r = arith.divf %x, %c8 : f32
    linalg.yield %r : f32
  } -> tensor<4x6x10xf32>
  %sb = linalg.generic {indexing_maps = [#id3, #id3], iterator_types = ["parallel", "parallel", "parallel"]} ins(%ss : tensor<4x6x10xf32>) outs(%es : tensor<4x6x10xf32>) {
  ^bb0(%x: f32, %o: f32):
    %i = linalg.index 1 : index
    %j = linalg.index 2 : index
    %c4 = arith.constant 4 : index
    %i4 = arith.addi %i, %c4 : index
    %c = arith.cmpi ugt, %j, %i4 : index
    %r = arith.select %c, %ninf, %x : f32
    linalg.yield %r : f32
  } -> tensor<4x6x10xf32>
  %er = tensor.empty() : tensor<4x6xf32>
  %mi = linalg.fill ins(%ninf : f32) outs(%er : tensor<4x6xf32>) -> tensor<4x6xf32>
  %m = linalg.generic {indexing_maps = [#id3, #row], iterator_types = ["parallel", "parallel", "reduction"]} ins(%sb : tensor<4x6x10xf32>) outs(%mi : tensor<4x6xf32>) {
  ^bb0(%x: f32, %acc: f32):
    %r = arith.maximumf %x, %acc : f32
    linalg.yield %r : f32
  } -> tensor<4x6xf32>
  %d = linalg.generic {indexing_maps = [#id3, #row, #id3], iterator_types = ["parallel", "parallel", "parallel"]} ins(%sb, %m : tensor<4x6x10xf32>, tensor<4x6xf32>) outs(%es : tensor<4x6x10xf32>) {
  ^bb0(%x: f32, %y: f32, %o: f32):
    %r = arith.subf %x, %y : f32
    linalg.yield %r : f32
  } -> tensor<4x6x10xf32>
  %e = linalg.exp ins(%d : tensor<4x6x10xf32>) outs(%es : tensor<4x6x10xf32>) -> tensor<4x6x10xf32>
  %li = linalg.fill ins(%zero : f32) outs(%er : tensor<4x6xf32>) -> tensor<4x6xf32>
  %l = linalg.generic {indexing_maps = [#id3, #row], iterator_types = ["parallel", "parallel", "reduction"]} ins(%e : tensor<4x6x10xf32>) outs(%li : tensor<4x6xf32>) {
  ^bb0(%x: f32, %acc: f32):
    %r = arith.addf %x, %acc : f32
    linalg.yield %r : f32
  } -> tensor<4x6xf32>
  %p = linalg.generic {indexing_maps = [#id3, #row, #id3], iterator_types = ["parallel", "parallel", "parallel"]} ins(%e, %l : tensor<4x6x10xf32>, tensor<4x6xf32>) outs(%es : tensor<4x6x10xf32>) {
  ^bb0(%x: f32, %y: f32, %o: f32):
    %r = arith.divf %x, %y : f32
    linalg.yield %r : f32
  } -> tensor<4x6x10xf32>
  %eo = tensor.empty() : tensor<4x6x5xf32>
  %zo = linalg.fill ins(%zero : f32) outs(%eo : tensor<4x6x5xf32>) -> tensor<4x6x5xf32>
  %out = linalg.batch_matmul ins(%p, %v : tensor<4x6x10xf32>, tensor<4x10x5xf32>) outs(%zo : tensor<4x6x5xf32>) -> tensor<4x6x5xf32>
  return %out : tensor<4x6x5xf32>
}
func.func @causal_br_ref(%q: tensor<4x6x64xf32>, %k: tensor<4x10x64xf32>, %v: tensor<4x10x5xf32>) -> (tensor<4x6x5xf32>, tensor<4x6x10xf32>) {
  %zero = arith.constant 0.0 : f32
  %ninf = arith.constant 0xFF800000 : f32
  %c8 = arith.constant 8.0 : f32
  %ekt = tensor.empty() : tensor<4x64x10xf32>
  %kt = linalg.transpose ins(%k : tensor<4x10x64xf32>) outs(%ekt : tensor<4x64x10xf32>) permutation = [0, 2, 1]
  %es = tensor.empty() : tensor<4x6x10xf32>
  %zs = linalg.fill ins(%zero : f32) outs(%es : tensor<4x6x10xf32>) -> tensor<4x6x10xf32>
  %s = linalg.batch_matmul ins(%q, %kt : tensor<4x6x64xf32>, tensor<4x64x10xf32>) outs(%zs : tensor<4x6x10xf32>) -> tensor<4x6x10xf32>
  %ss = linalg.generic {indexing_maps = [#id3, #id3], iterator_types = ["parallel", "parallel", "parallel"]} ins(%s : tensor<4x6x10xf32>) outs(%es : tensor<4x6x10xf32>) {
  ^bb0(%x: f32, %o: f32):
    %r = arith.divf %x, %c8 : f32
    linalg.yield %r : f32
  } -> tensor<4x6x10xf32>
  %sb = linalg.generic {indexing_maps = [#id3, #id3], iterator_types = ["parallel", "parallel", "parallel"]} ins(%ss : tensor<4x6x10xf32>) outs(%es : tensor<4x6x10xf32>) {
  ^bb0(%x: f32, %o: f32):
    %i = linalg.index 1 : index
    %j = linalg.index 2 : index
    %c4 = arith.constant 4 : index
    %i4 = arith.addi %i, %c4 : index
    %c = arith.cmpi ugt, %j, %i4 : index
    %r = arith.select %c, %ninf, %x : f32
    linalg.yield %r : f32
  } -> tensor<4x6x10xf32>
  %er = tensor.empty() : tensor<4x6xf32>
  %mi = linalg.fill ins(%ninf : f32) outs(%er : tensor<4x6xf32>) -> tensor<4x6xf32>
  %m = linalg.generic {indexing_maps = [#id3, #row], iterator_types = ["parallel", "parallel", "reduction"]} ins(%sb : tensor<4x6x10xf32>) outs(%mi : tensor<4x6xf32>) {
  ^bb0(%x: f32, %acc: f32):
    %r = arith.maximumf %x, %acc : f32
    linalg.yield %r : f32
  } -> tensor<4x6xf32>
  %d = linalg.generic {indexing_maps = [#id3, #row, #id3], iterator_types = ["parallel", "parallel", "parallel"]} ins(%sb, %m : tensor<4x6x10xf32>, tensor<4x6xf32>) outs(%es : tensor<4x6x10xf32>) {
  ^bb0(%x: f32, %y: f32, %o: f32):
    %r = arith.subf %x, %y : f32
    linalg.yield %r : f32
  } -> tensor<4x6x10xf32>
  %e = linalg.exp ins(%d : tensor<4x6x10xf32>) outs(%es : tensor<4x6x10xf32>) -> tensor<4x6x10xf32>
  %li = linalg.fill ins(%zero : f32) outs(%er : tensor<4x6xf32>) -> tensor<4x6xf32>
  %l = linalg.generic {indexing_maps = [#id3, #row], iterator_types = ["parallel", "parallel", "reduction"]} ins(%e : tensor<4x6x10xf32>) outs(%li : tensor<4x6xf32>) {
  ^bb0(%x: f32, %acc: f32):
    %r = arith.addf %x, %acc : f32
    linalg.yield %r : f32
  } -> tensor<4x6xf32>
  %p = linalg.generic {indexing_maps = [#id3, #row, #id3], iterator_types = ["parallel", "parallel", "parallel"]} ins(%e, %l : tensor<4x6x10xf32>, tensor<4x6xf32>) outs(%es : tensor<4x6x10xf32>) {
  ^bb0(%x: f32, %y: f32, %o: f32):
    %r = arith.divf %x, %y : f32
    linalg.yield %r : f32
  } -> tensor<4x6x10xf32>
  %eo = tensor.empty() : tensor<4x6x5xf32>
  %zo = linalg.fill ins(%zero : f32) outs(%eo : tensor<4x6x5xf32>) -> tensor<4x6x5xf32>
  %out = linalg.batch_matmul ins(%p, %v : tensor<4x6x10xf32>, tensor<4x10x5xf32>) outs(%zo : tensor<4x6x5xf32>) -> tensor<4x6x5xf32>
  return %out, %p : tensor<4x6x5xf32>, tensor<4x6x10xf32>
}
// Chain 4: as chain 1 with s + select(i >= j, 0, -inf) in one generic:
// causal = top_left.
func.func @causal_add(%q: tensor<4x6x64xf32>, %k: tensor<4x10x64xf32>, %v: tensor<4x10x5xf32>) -> tensor<4x6x5xf32> {
  %zero = arith.constant 0.0 : f32
  %ninf = arith.constant 0xFF800000 : f32
  %c8 = arith.constant 8.0 : f32
  %ekt = tensor.empty() : tensor<4x64x10xf32>
  %kt = linalg.transpose ins(%k : tensor<4x10x64xf32>) outs(%ekt : tensor<4x64x10xf32>) permutation = [0, 2, 1]
  %es = tensor.empty() : tensor<4x6x10xf32>
  %zs = linalg.fill ins(%zero : f32) outs(%es : tensor<4x6x10xf32>) -> tensor<4x6x10xf32>
  %s = linalg.batch_matmul ins(%q, %kt : tensor<4x6x64xf32>, tensor<4x64x10xf32>) outs(%zs : tensor<4x6x10xf32>) -> tensor<4x6x10xf32>
  %ss = linalg.generic {indexing_maps = [#id3, #id3], iterator_types = ["parallel", "parallel", "parallel"]} ins(%s : tensor<4x6x10xf32>) outs(%es : tensor<4x6x10xf32>) {
  ^bb0(%x: f32, %o: f32):
    %r = arith.divf %x, %c8 : f32
    linalg.yield %r : f32
  } -> tensor<4x6x10xf32>
  %sb = linalg.generic {indexing_maps = [#id3, #id3], iterator_types = ["parallel", "parallel", "parallel"]} ins(%ss : tensor<4x6x10xf32>) outs(%es : tensor<4x6x10xf32>) {
  ^bb0(%x: f32, %o: f32):
    %i = linalg.index 1 : index
    %j = linalg.index 2 : index
    %c = arith.cmpi uge, %i, %j : index
    %b = arith.select %c, %zero, %ninf : f32
    %r = arith.addf %x, %b : f32
    linalg.yield %r : f32
  } -> tensor<4x6x10xf32>
  %er = tensor.empty() : tensor<4x6xf32>
  %mi = linalg.fill ins(%ninf : f32) outs(%er : tensor<4x6xf32>) -> tensor<4x6xf32>
  %m = linalg.generic {indexing_maps = [#id3, #row], iterator_types = ["parallel", "parallel", "reduction"]} ins(%sb : tensor<4x6x10xf32>) outs(%mi : tensor<4x6xf32>) {
  ^bb0(%x: f32, %acc: f32):
    %r = arith.maximumf %x, %acc : f32
    linalg.yield %r : f32
  } -> tensor<4x6xf32>
  %d = linalg.generic {indexing_maps = [#id3, #row, #id3], iterator_types = ["parallel", "parallel", "parallel"]} ins(%sb, %m : tensor<4x6x10xf32>, tensor<4x6xf32>) outs(%es : tensor<4x6x10xf32>) {
  ^bb0(%x: f32, %y: f32, %o: f32):
    %r = arith.subf %x, %y : f32
    linalg.yield %r : f32
  } -> tensor<4x6x10xf32>
  %e = linalg.exp ins(%d : tensor<4x6x10xf32>) outs(%es : tensor<4x6x10xf32>) -> tensor<4x6x10xf32>
  %li = linalg.fill ins(%zero : f32) outs(%er : tensor<4x6xf32>) -> tensor<4x6xf32>
  %l = linalg.generic {indexing_maps = [#id3, #row], iterator_types = ["parallel", "parallel", "reduction"]} ins(%e : tensor<4x6x10xf32>) outs(%li : tensor<4x6xf32>) {
  ^bb0(%x: f32, %acc: f32):
    %r = arith.addf %x, %acc : f32
    linalg.yield %r : f32
  } -> tensor<4x6xf32>
  %p = linalg.generic {indexing_maps = [#id3, #row, #id3], iterator_types = ["parallel", "parallel", "parallel"]} ins(%e, %l : tensor<4x6x10xf32>, tensor<4x6xf32>) outs(%es : tensor<4x6x10xf32>) {
  ^bb0(%x: f32, %y: f32, %o: f32):
    %r = arith.divf %x, %y : f32
    linalg.yield %r : f32
  } -> tensor<4x6x10xf32>
  %eo = tensor.empty() : tensor<4x6x5xf32>
  %zo = linalg.fill ins(%zero : f32) outs(%eo : tensor<4x6x5xf32>) -> tensor<4x6x5xf32>
  %out = linalg.batch_matmul ins(%p, %v : tensor<4x6x10xf32>, tensor<4x10x5xf32>) outs(%zo : tensor<4x6x5xf32>) -> tensor<4x6x5xf32>
  return %out : tensor<4x6x5xf32>
}
func.func @causal_add_ref(%q: tensor<4x6x64xf32>, %k: tensor<4x10x64xf32>, %v: tensor<4x10x5xf32>) -> (tensor<4x6x5xf32>, tensor<4x6x10xf32>) {
  %zero = arith.constant 0.0 : f32
  %ninf = arith.constant 0xFF800000 : f32
  %c8 = arith.constant 8.0 : f32
  %ekt = tensor.empty() : tensor<4x64x10xf32>
  %kt = linalg.transpose ins(%k : tensor<4x10x64xf32>) outs(%ekt : tensor<4x64x10xf32>) permutation = [0, 2, 1]
  %es = tensor.empty() : tensor<4x6x10xf32>
  %zs = linalg.fill ins(%zero : f32) outs(%es : tensor<4x6x10xf32>) -> tensor<4x6x10xf32>
  %s = linalg.batch_matmul ins(%q, %kt : tensor<4x6x64xf32>, tensor<4x64x10xf32>) outs(%zs : tensor<4x6x10xf32>) -> tensor<4x6x10xf32>
  %ss = linalg.generic {indexing_maps = [#id3, #id3], iterator_types = ["parallel", "parallel", "parallel"]} ins(%s : tensor<4x6x10xf32>) outs(%es : tensor<4x6x10xf32>) {
  ^bb0(%x: f32, %o: f32):
    %r = arith.divf %x, %c8 : f32
    linalg.yield %r : f32
  } -> tensor<4x6x10xf32>
  %sb = linalg.generic {indexing_maps = [#id3, #id3], iterator_types = ["parallel", "parallel", "parallel"]} ins(%ss : tensor<4x6x10xf32>) outs(%es : tensor<4x6x10xf32>) {
  ^bb0(%x: f32, %o: f32):
    %i = linalg.index 1 : index
    %j = linalg.index 2 : index
    %c = arith.cmpi uge, %i, %j : index
    %b = arith.select %c, %zero, %ninf : f32
    %r = arith.addf %x, %b : f32
    linalg.yield %r : f32
  } -> tensor<4x6x10xf32>
  %er = tensor.empty() : tensor<4x6xf32>
  %mi = linalg.fill ins(%ninf : f32) outs(%er : tensor<4x6xf32>) -> tensor<4x6xf32>
  %m = linalg.generic {indexing_maps = [#id3, #row], iterator_types = ["parallel", "parallel", "reduction"]} ins(%sb : tensor<4x6x10xf32>) outs(%mi : tensor<4x6xf32>) {
  ^bb0(%x: f32, %acc: f32):
    %r = arith.maximumf %x, %acc : f32
    linalg.yield %r : f32
  } -> tensor<4x6xf32>
  %d = linalg.generic {indexing_maps = [#id3, #row, #id3], iterator_types = ["parallel", "parallel", "parallel"]} ins(%sb, %m : tensor<4x6x10xf32>, tensor<4x6xf32>) outs(%es : tensor<4x6x10xf32>) {
  ^bb0(%x: f32, %y: f32, %o: f32):
    %r = arith.subf %x, %y : f32
    linalg.yield %r : f32
  } -> tensor<4x6x10xf32>
  %e = linalg.exp ins(%d : tensor<4x6x10xf32>) outs(%es : tensor<4x6x10xf32>) -> tensor<4x6x10xf32>
  %li = linalg.fill ins(%zero : f32) outs(%er : tensor<4x6xf32>) -> tensor<4x6xf32>
  %l = linalg.generic {indexing_maps = [#id3, #row], iterator_types = ["parallel", "parallel", "reduction"]} ins(%e : tensor<4x6x10xf32>) outs(%li : tensor<4x6xf32>) {
  ^bb0(%x: f32, %acc: f32):
    %r = arith.addf %x, %acc : f32
    linalg.yield %r : f32
  } -> tensor<4x6xf32>
  %p = linalg.generic {indexing_maps = [#id3, #row, #id3], iterator_types = ["parallel", "parallel", "parallel"]} ins(%e, %l : tensor<4x6x10xf32>, tensor<4x6xf32>) outs(%es : tensor<4x6x10xf32>) {
  ^bb0(%x: f32, %y: f32, %o: f32):
    %r = arith.divf %x, %y : f32
    linalg.yield %r : f32
  } -> tensor<4x6x10xf32>
  %eo = tensor.empty() : tensor<4x6x5xf32>
  %zo = linalg.fill ins(%zero : f32) outs(%eo : tensor<4x6x5xf32>) -> tensor<4x6x5xf32>
  %out = linalg.batch_matmul ins(%p, %v : tensor<4x6x10xf32>, tensor<4x10x5xf32>) outs(%zo : tensor<4x6x5xf32>) -> tensor<4x6x5xf32>
  return %out, %p : tensor<4x6x5xf32>, tensor<4x6x10xf32>
}
// Chain 5: as chain 1 with select(j - 2 > i, -inf, s): window = [-1, 2].
func.func @causal_win(%q: tensor<4x6x64xf32>, %k: tensor<4x10x64xf32>, %v: tensor<4x10x5xf32>) -> tensor<4x6x5xf32> {
  %zero = arith.constant 0.0 : f32
  %ninf = arith.constant 0xFF800000 : f32
  %c8 = arith.constant 8.0 : f32
  %ekt = tensor.empty() : tensor<4x64x10xf32>
  %kt = linalg.transpose ins(%k : tensor<4x10x64xf32>) outs(%ekt : tensor<4x64x10xf32>) permutation = [0, 2, 1]
  %es = tensor.empty() : tensor<4x6x10xf32>
  %zs = linalg.fill ins(%zero : f32) outs(%es : tensor<4x6x10xf32>) -> tensor<4x6x10xf32>
  %s = linalg.batch_matmul ins(%q, %kt : tensor<4x6x64xf32>, tensor<4x64x10xf32>) outs(%zs : tensor<4x6x10xf32>) -> tensor<4x6x10xf32>
  %ss = linalg.generic {indexing_maps = [#id3, #id3], iterator_types = ["parallel", "parallel", "parallel"]} ins(%s : tensor<4x6x10xf32>) outs(%es : tensor<4x6x10xf32>) {
  ^bb0(%x: f32, %o: f32):
    %r = arith.divf %x, %c8 : f32
    linalg.yield %r : f32
  } -> tensor<4x6x10xf32>
  %sb = linalg.generic {indexing_maps = [#id3, #id3], iterator_types = ["parallel", "parallel", "parallel"]} ins(%ss : tensor<4x6x10xf32>) outs(%es : tensor<4x6x10xf32>) {
  ^bb0(%x: f32, %o: f32):
    %i = linalg.index 1 : index
    %j = linalg.index 2 : index
    %c2 = arith.constant 2 : index
    %j2 = arith.subi %j, %c2 : index
    %c = arith.cmpi sgt, %j2, %i : index
    %r = arith.select %c, %ninf, %x : f32
    linalg.yield %r : f32
  } -> tensor<4x6x10xf32>
  %er = tensor.empty() : tensor<4x6xf32>
  %mi = linalg.fill ins(%ninf : f32) outs(%er : tensor<4x6xf32>) -> tensor<4x6xf32>
  %m = linalg.generic {indexing_maps = [#id3, #row], iterator_types = ["parallel", "parallel", "reduction"]} ins(%sb : tensor<4x6x10xf32>) outs(%mi : tensor<4x6xf32>) {
  ^bb0(%x: f32, %acc: f32):
    %r = arith.maximumf %x, %acc : f32
    linalg.yield %r : f32
  } -> tensor<4x6xf32>
  %d = linalg.generic {indexing_maps = [#id3, #row, #id3], iterator_types = ["parallel", "parallel", "parallel"]} ins(%sb, %m : tensor<4x6x10xf32>, tensor<4x6xf32>) outs(%es : tensor<4x6x10xf32>) {
  ^bb0(%x: f32, %y: f32, %o: f32):
    %r = arith.subf %x, %y : f32
    linalg.yield %r : f32
  } -> tensor<4x6x10xf32>
  %e = linalg.exp ins(%d : tensor<4x6x10xf32>) outs(%es : tensor<4x6x10xf32>) -> tensor<4x6x10xf32>
  %li = linalg.fill ins(%zero : f32) outs(%er : tensor<4x6xf32>) -> tensor<4x6xf32>
  %l = linalg.generic {indexing_maps = [#id3, #row], iterator_types = ["parallel", "parallel", "reduction"]} ins(%e : tensor<4x6x10xf32>) outs(%li : tensor<4x6xf32>) {
  ^bb0(%x: f32, %acc: f32):
    %r = arith.addf %x, %acc : f32
    linalg.yield %r : f32
  } -> tensor<4x6xf32>
  %p = linalg.generic {indexing_maps = [#id3, #row, #id3], iterator_types = ["parallel", "parallel", "parallel"]} ins(%e, %l : tensor<4x6x10xf32>, tensor<4x6xf32>) outs(%es : tensor<4x6x10xf32>) {
  ^bb0(%x: f32, %y: f32, %o: f32):
    %r = arith.divf %x, %y : f32
    linalg.yield %r : f32
  } -> tensor<4x6x10xf32>
  %eo = tensor.empty() : tensor<4x6x5xf32>
  %zo = linalg.fill ins(%zero : f32) outs(%eo : tensor<4x6x5xf32>) -> tensor<4x6x5xf32>
  %out = linalg.batch_matmul ins(%p, %v : tensor<4x6x10xf32>, tensor<4x10x5xf32>) outs(%zo : tensor<4x6x5xf32>) -> tensor<4x6x5xf32>
  return %out : tensor<4x6x5xf32>
}
func.func @causal_win_ref(%q: tensor<4x6x64xf32>, %k: tensor<4x10x64xf32>, %v: tensor<4x10x5xf32>) -> (tensor<4x6x5xf32>, tensor<4x6x10xf32>) {
  %zero = arith.constant 0.0 : f32
  %ninf = arith.constant 0xFF800000 : f32
  %c8 = arith.constant 8.0 : f32
  %ekt = tensor.empty() : tensor<4x64x10xf32>
  %kt = linalg.transpose ins(%k : tensor<4x10x64xf32>) outs(%ekt : tensor<4x64x10xf32>) permutation = [0, 2, 1]
  %es = tensor.empty() : tensor<4x6x10xf32>
  %zs = linalg.fill ins(%zero : f32) outs(%es : tensor<4x6x10xf32>) -> tensor<4x6x10xf32>
  %s = linalg.batch_matmul ins(%q, %kt : tensor<4x6x64xf32>, tensor<4x64x10xf32>) outs(%zs : tensor<4x6x10xf32>) -> tensor<4x6x10xf32>
  %ss = linalg.generic {indexing_maps = [#id3, #id3], iterator_types = ["parallel", "parallel", "parallel"]} ins(%s : tensor<4x6x10xf32>) outs(%es : tensor<4x6x10xf32>) {
  ^bb0(%x: f32, %o: f32):
    %r = arith.divf %x, %c8 : f32
    linalg.yield %r : f32
  } -> tensor<4x6x10xf32>
  %sb = linalg.generic {indexing_maps = [#id3, #id3], iterator_types = ["parallel", "parallel", "parallel"]} ins(%ss : tensor<4x6x10xf32>) outs(%es : tensor<4x6x10xf32>) {
  ^bb0(%x: f32, %o: f32):
    %i = linalg.index 1 : index
    %j = linalg.index 2 : index
    %c2 = arith.constant 2 : index
    %j2 = arith.subi %j, %c2 : index
    %c = arith.cmpi sgt, %j2, %i : index
    %r = arith.select %c, %ninf, %x : f32
    linalg.yield %r : f32
  } -> tensor<4x6x10xf32>
  %er = tensor.empty() : tensor<4x6xf32>
  %mi = linalg.fill ins(%ninf : f32) outs(%er : tensor<4x6xf32>) -> tensor<4x6xf32>
  %m = linalg.generic {indexing_maps = [#id3, #row], iterator_types = ["parallel", "parallel", "reduction"]} ins(%sb : tensor<4x6x10xf32>) outs(%mi : tensor<4x6xf32>) {
  ^bb0(%x: f32, %acc: f32):
    %r = arith.maximumf %x, %acc : f32
    linalg.yield %r : f32
  } -> tensor<4x6xf32>
  %d = linalg.generic {indexing_maps = [#id3, #row, #id3], iterator_types = ["parallel", "parallel", "parallel"]} ins(%sb, %m : tensor<4x6x10xf32>, tensor<4x6xf32>) outs(%es : tensor<4x6x10xf32>) {
  ^bb0(%x: f32, %y: f32, %o: f32):
    %r = arith.subf %x, %y : f32
    linalg.yield %r : f32
  } -> tensor<4x6x10xf32>
  %e = linalg.exp ins(%d : tensor<4x6x10xf32>) outs(%es : tensor<4x6x10xf32>) -> tensor<4x6x10xf32>
  %li = linalg.fill ins(%zero : f32) outs(%er : tensor<4x6xf32>) -> tensor<4x6xf32>
  %l = linalg.generic {indexing_maps = [#id3, #row], iterator_types = ["parallel", "parallel", "reduction"]} ins(%e : tensor<4x6x10xf32>) outs(%li : tensor<4x6xf32>) {
  ^bb0(%x: f32, %acc: f32):
    %r = arith.addf %x, %acc : f32
    linalg.yield %r : f32
  } -> tensor<4x6xf32>
  %p = linalg.generic {indexing_maps = [#id3, #row, #id3], iterator_types = ["parallel", "parallel", "parallel"]} ins(%e, %l : tensor<4x6x10xf32>, tensor<4x6xf32>) outs(%es : tensor<4x6x10xf32>) {
  ^bb0(%x: f32, %y: f32, %o: f32):
    %r = arith.divf %x, %y : f32
    linalg.yield %r : f32
  } -> tensor<4x6x10xf32>
  %eo = tensor.empty() : tensor<4x6x5xf32>
  %zo = linalg.fill ins(%zero : f32) outs(%eo : tensor<4x6x5xf32>) -> tensor<4x6x5xf32>
  %out = linalg.batch_matmul ins(%p, %v : tensor<4x6x10xf32>, tensor<4x10x5xf32>) outs(%zo : tensor<4x6x5xf32>) -> tensor<4x6x5xf32>
  return %out, %p : tensor<4x6x5xf32>, tensor<4x6x10xf32>
}

// Chain 6: dropout. Scores * 0.25, softmax as generics, then P * uitofp(keep)
// (linalg.mul) * 1.5 (a generic): dropout_p = 1/3 with the keep mask as
// dropout_mask. (@keep drops about a third of the keys.)
func.func @dropout_keep(%q: tensor<4x6x16xf32>, %k: tensor<4x10x16xf32>, %v: tensor<4x10x5xf32>, %keep: tensor<4x6x10xi1>) -> tensor<4x6x5xf32> {
  %zero = arith.constant 0.0 : f32
  %c = arith.constant 0.25 : f32
  %es = tensor.empty() : tensor<4x6x10xf32>
  %zs = linalg.fill ins(%zero : f32) outs(%es : tensor<4x6x10xf32>) -> tensor<4x6x10xf32>
  %s = linalg.batch_matmul indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d0, d1, d3)>, affine_map<(d0, d1, d2, d3) -> (d0, d2, d3)>, affine_map<(d0, d1, d2, d3) -> (d0, d1, d2)>] ins(%q, %k : tensor<4x6x16xf32>, tensor<4x10x16xf32>) outs(%zs : tensor<4x6x10xf32>) -> tensor<4x6x10xf32>
  %ss = linalg.generic {indexing_maps = [#id3, #id3], iterator_types = ["parallel", "parallel", "parallel"]} ins(%s : tensor<4x6x10xf32>) outs(%es : tensor<4x6x10xf32>) {
  ^bb0(%x: f32, %o: f32):
    %r = arith.mulf %x, %c : f32
    linalg.yield %r : f32
  } -> tensor<4x6x10xf32>
  %ninf = arith.constant 0xFF800000 : f32
  %er = tensor.empty() : tensor<4x6xf32>
  %mi = linalg.fill ins(%ninf : f32) outs(%er : tensor<4x6xf32>) -> tensor<4x6xf32>
  %m = linalg.generic {indexing_maps = [#id3, #row], iterator_types = ["parallel", "parallel", "reduction"]} ins(%ss : tensor<4x6x10xf32>) outs(%mi : tensor<4x6xf32>) {
  ^bb0(%x: f32, %acc: f32):
    %r = arith.maximumf %x, %acc : f32
    linalg.yield %r : f32
  } -> tensor<4x6xf32>
  %d = linalg.generic {indexing_maps = [#id3, #row, #id3], iterator_types = ["parallel", "parallel", "parallel"]} ins(%ss, %m : tensor<4x6x10xf32>, tensor<4x6xf32>) outs(%es : tensor<4x6x10xf32>) {
  ^bb0(%x: f32, %y: f32, %o: f32):
    %r = arith.subf %x, %y : f32
    linalg.yield %r : f32
  } -> tensor<4x6x10xf32>
  %e = linalg.exp ins(%d : tensor<4x6x10xf32>) outs(%es : tensor<4x6x10xf32>) -> tensor<4x6x10xf32>
  %li = linalg.fill ins(%zero : f32) outs(%er : tensor<4x6xf32>) -> tensor<4x6xf32>
  %l = linalg.generic {indexing_maps = [#id3, #row], iterator_types = ["parallel", "parallel", "reduction"]} ins(%e : tensor<4x6x10xf32>) outs(%li : tensor<4x6xf32>) {
  ^bb0(%x: f32, %acc: f32):
    %r = arith.addf %x, %acc : f32
    linalg.yield %r : f32
  } -> tensor<4x6xf32>
  %p = linalg.generic {indexing_maps = [#id3, #row, #id3], iterator_types = ["parallel", "parallel", "parallel"]} ins(%e, %l : tensor<4x6x10xf32>, tensor<4x6xf32>) outs(%es : tensor<4x6x10xf32>) {
  ^bb0(%x: f32, %y: f32, %o: f32):
    %r = arith.divf %x, %y : f32
    linalg.yield %r : f32
  } -> tensor<4x6x10xf32>
  %kf = linalg.generic {indexing_maps = [#id3, #id3], iterator_types = ["parallel", "parallel", "parallel"]} ins(%keep : tensor<4x6x10xi1>) outs(%es : tensor<4x6x10xf32>) {
  ^bb0(%b: i1, %o: f32):
    %f = arith.uitofp %b : i1 to f32
    linalg.yield %f : f32
  } -> tensor<4x6x10xf32>
  %pk = linalg.mul ins(%p, %kf : tensor<4x6x10xf32>, tensor<4x6x10xf32>) outs(%es : tensor<4x6x10xf32>) -> tensor<4x6x10xf32>
  %pd = linalg.generic {indexing_maps = [#id3, #id3], iterator_types = ["parallel", "parallel", "parallel"]} ins(%pk : tensor<4x6x10xf32>) outs(%es : tensor<4x6x10xf32>) {
  ^bb0(%x: f32, %o: f32):
    %c15 = arith.constant 1.5 : f32
    %r = arith.mulf %x, %c15 : f32
    linalg.yield %r : f32
  } -> tensor<4x6x10xf32>
  %eo = tensor.empty() : tensor<4x6x5xf32>
  %zo = linalg.fill ins(%zero : f32) outs(%eo : tensor<4x6x5xf32>) -> tensor<4x6x5xf32>
  %o = linalg.batch_matmul ins(%pd, %v : tensor<4x6x10xf32>, tensor<4x10x5xf32>) outs(%zo : tensor<4x6x5xf32>) -> tensor<4x6x5xf32>
  return %o : tensor<4x6x5xf32>
}
func.func @dropout_keep_ref(%q: tensor<4x6x16xf32>, %k: tensor<4x10x16xf32>, %v: tensor<4x10x5xf32>, %keep: tensor<4x6x10xi1>) -> (tensor<4x6x5xf32>, tensor<4x6x10xf32>) {
  %zero = arith.constant 0.0 : f32
  %c = arith.constant 0.25 : f32
  %es = tensor.empty() : tensor<4x6x10xf32>
  %zs = linalg.fill ins(%zero : f32) outs(%es : tensor<4x6x10xf32>) -> tensor<4x6x10xf32>
  %s = linalg.batch_matmul indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d0, d1, d3)>, affine_map<(d0, d1, d2, d3) -> (d0, d2, d3)>, affine_map<(d0, d1, d2, d3) -> (d0, d1, d2)>] ins(%q, %k : tensor<4x6x16xf32>, tensor<4x10x16xf32>) outs(%zs : tensor<4x6x10xf32>) -> tensor<4x6x10xf32>
  %ss = linalg.generic {indexing_maps = [#id3, #id3], iterator_types = ["parallel", "parallel", "parallel"]} ins(%s : tensor<4x6x10xf32>) outs(%es : tensor<4x6x10xf32>) {
  ^bb0(%x: f32, %o: f32):
    %r = arith.mulf %x, %c : f32
    linalg.yield %r : f32
  } -> tensor<4x6x10xf32>
  %ninf = arith.constant 0xFF800000 : f32
  %er = tensor.empty() : tensor<4x6xf32>
  %mi = linalg.fill ins(%ninf : f32) outs(%er : tensor<4x6xf32>) -> tensor<4x6xf32>
  %m = linalg.generic {indexing_maps = [#id3, #row], iterator_types = ["parallel", "parallel", "reduction"]} ins(%ss : tensor<4x6x10xf32>) outs(%mi : tensor<4x6xf32>) {
  ^bb0(%x: f32, %acc: f32):
    %r = arith.maximumf %x, %acc : f32
    linalg.yield %r : f32
  } -> tensor<4x6xf32>
  %d = linalg.generic {indexing_maps = [#id3, #row, #id3], iterator_types = ["parallel", "parallel", "parallel"]} ins(%ss, %m : tensor<4x6x10xf32>, tensor<4x6xf32>) outs(%es : tensor<4x6x10xf32>) {
  ^bb0(%x: f32, %y: f32, %o: f32):
    %r = arith.subf %x, %y : f32
    linalg.yield %r : f32
  } -> tensor<4x6x10xf32>
  %e = linalg.exp ins(%d : tensor<4x6x10xf32>) outs(%es : tensor<4x6x10xf32>) -> tensor<4x6x10xf32>
  %li = linalg.fill ins(%zero : f32) outs(%er : tensor<4x6xf32>) -> tensor<4x6xf32>
  %l = linalg.generic {indexing_maps = [#id3, #row], iterator_types = ["parallel", "parallel", "reduction"]} ins(%e : tensor<4x6x10xf32>) outs(%li : tensor<4x6xf32>) {
  ^bb0(%x: f32, %acc: f32):
    %r = arith.addf %x, %acc : f32
    linalg.yield %r : f32
  } -> tensor<4x6xf32>
  %p = linalg.generic {indexing_maps = [#id3, #row, #id3], iterator_types = ["parallel", "parallel", "parallel"]} ins(%e, %l : tensor<4x6x10xf32>, tensor<4x6xf32>) outs(%es : tensor<4x6x10xf32>) {
  ^bb0(%x: f32, %y: f32, %o: f32):
    %r = arith.divf %x, %y : f32
    linalg.yield %r : f32
  } -> tensor<4x6x10xf32>
  %kf = linalg.generic {indexing_maps = [#id3, #id3], iterator_types = ["parallel", "parallel", "parallel"]} ins(%keep : tensor<4x6x10xi1>) outs(%es : tensor<4x6x10xf32>) {
  ^bb0(%b: i1, %o: f32):
    %f = arith.uitofp %b : i1 to f32
    linalg.yield %f : f32
  } -> tensor<4x6x10xf32>
  %pk = linalg.mul ins(%p, %kf : tensor<4x6x10xf32>, tensor<4x6x10xf32>) outs(%es : tensor<4x6x10xf32>) -> tensor<4x6x10xf32>
  %pd = linalg.generic {indexing_maps = [#id3, #id3], iterator_types = ["parallel", "parallel", "parallel"]} ins(%pk : tensor<4x6x10xf32>) outs(%es : tensor<4x6x10xf32>) {
  ^bb0(%x: f32, %o: f32):
    %c15 = arith.constant 1.5 : f32
    %r = arith.mulf %x, %c15 : f32
    linalg.yield %r : f32
  } -> tensor<4x6x10xf32>
  %eo = tensor.empty() : tensor<4x6x5xf32>
  %zo = linalg.fill ins(%zero : f32) outs(%eo : tensor<4x6x5xf32>) -> tensor<4x6x5xf32>
  %o = linalg.batch_matmul ins(%pd, %v : tensor<4x6x10xf32>, tensor<4x10x5xf32>) outs(%zo : tensor<4x6x5xf32>) -> tensor<4x6x5xf32>
  return %o, %pd : tensor<4x6x5xf32>, tensor<4x6x10xf32>
}

// Deterministic inputs in [-2, 2].
func.func private @q64() -> tensor<4x6x64xf32> {
  %c6 = arith.constant 6 : index
  %c64 = arith.constant 64 : index
  %ca = arith.constant 0.731 : f32
  %cb = arith.constant 0.1 : f32
  %cs = arith.constant 2.0 : f32
  %e = tensor.empty() : tensor<4x6x64xf32>
  %r = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d1, d2)>], iterator_types = ["parallel", "parallel", "parallel"]} outs(%e : tensor<4x6x64xf32>) {
  ^bb0(%o: f32):
    %i0 = linalg.index 0 : index
    %i1 = linalg.index 1 : index
    %i2 = linalg.index 2 : index
    %m1 = arith.muli %i0, %c6 : index
    %a1 = arith.addi %m1, %i1 : index
    %m2 = arith.muli %a1, %c64 : index
    %a2 = arith.addi %m2, %i2 : index
    %n = arith.index_cast %a2 : index to i32
    %f = arith.sitofp %n : i32 to f32
    %g = arith.mulf %f, %ca : f32
    %h = arith.addf %g, %cb : f32
    %y = math.sin %h : f32
    %z = arith.mulf %y, %cs : f32
    linalg.yield %z : f32
  } -> tensor<4x6x64xf32>
  return %r : tensor<4x6x64xf32>
}
func.func private @k64() -> tensor<4x10x64xf32> {
  %c10 = arith.constant 10 : index
  %c64 = arith.constant 64 : index
  %ca = arith.constant 1.377 : f32
  %cb = arith.constant 0.4 : f32
  %cs = arith.constant 2.0 : f32
  %e = tensor.empty() : tensor<4x10x64xf32>
  %r = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d1, d2)>], iterator_types = ["parallel", "parallel", "parallel"]} outs(%e : tensor<4x10x64xf32>) {
  ^bb0(%o: f32):
    %i0 = linalg.index 0 : index
    %i1 = linalg.index 1 : index
    %i2 = linalg.index 2 : index
    %m1 = arith.muli %i0, %c10 : index
    %a1 = arith.addi %m1, %i1 : index
    %m2 = arith.muli %a1, %c64 : index
    %a2 = arith.addi %m2, %i2 : index
    %n = arith.index_cast %a2 : index to i32
    %f = arith.sitofp %n : i32 to f32
    %g = arith.mulf %f, %ca : f32
    %h = arith.addf %g, %cb : f32
    %y = math.sin %h : f32
    %z = arith.mulf %y, %cs : f32
    linalg.yield %z : f32
  } -> tensor<4x10x64xf32>
  return %r : tensor<4x10x64xf32>
}
func.func private @v() -> tensor<4x10x5xf32> {
  %c5 = arith.constant 5 : index
  %c10 = arith.constant 10 : index
  %ca = arith.constant 0.577 : f32
  %cb = arith.constant 0.9 : f32
  %cs = arith.constant 2.0 : f32
  %e = tensor.empty() : tensor<4x10x5xf32>
  %r = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d1, d2)>], iterator_types = ["parallel", "parallel", "parallel"]} outs(%e : tensor<4x10x5xf32>) {
  ^bb0(%o: f32):
    %i0 = linalg.index 0 : index
    %i1 = linalg.index 1 : index
    %i2 = linalg.index 2 : index
    %m1 = arith.muli %i0, %c10 : index
    %a1 = arith.addi %m1, %i1 : index
    %m2 = arith.muli %a1, %c5 : index
    %a2 = arith.addi %m2, %i2 : index
    %n = arith.index_cast %a2 : index to i32
    %f = arith.sitofp %n : i32 to f32
    %g = arith.mulf %f, %ca : f32
    %h = arith.addf %g, %cb : f32
    %y = math.sin %h : f32
    %z = arith.mulf %y, %cs : f32
    linalg.yield %z : f32
  } -> tensor<4x10x5xf32>
  return %r : tensor<4x10x5xf32>
}
func.func private @bias() -> tensor<6x10xf32> {
  %c10 = arith.constant 10 : index
  %ca = arith.constant 2.1 : f32
  %cb = arith.constant 0.3 : f32
  %cs = arith.constant 2.0 : f32
  %e = tensor.empty() : tensor<6x10xf32>
  %r = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} outs(%e : tensor<6x10xf32>) {
  ^bb0(%o: f32):
    %i0 = linalg.index 0 : index
    %i1 = linalg.index 1 : index
    %m1 = arith.muli %i0, %c10 : index
    %a1 = arith.addi %m1, %i1 : index
    %n = arith.index_cast %a1 : index to i32
    %f = arith.sitofp %n : i32 to f32
    %g = arith.mulf %f, %ca : f32
    %h = arith.addf %g, %cb : f32
    %y = math.sin %h : f32
    %z = arith.mulf %y, %cs : f32
    linalg.yield %z : f32
  } -> tensor<6x10xf32>
  return %r : tensor<6x10xf32>
}
func.func private @q16() -> tensor<4x6x16xf32> {
  %c6 = arith.constant 6 : index
  %c16 = arith.constant 16 : index
  %ca = arith.constant 0.913 : f32
  %cb = arith.constant 0.2 : f32
  %cs = arith.constant 2.0 : f32
  %e = tensor.empty() : tensor<4x6x16xf32>
  %r = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d1, d2)>], iterator_types = ["parallel", "parallel", "parallel"]} outs(%e : tensor<4x6x16xf32>) {
  ^bb0(%o: f32):
    %i0 = linalg.index 0 : index
    %i1 = linalg.index 1 : index
    %i2 = linalg.index 2 : index
    %m1 = arith.muli %i0, %c6 : index
    %a1 = arith.addi %m1, %i1 : index
    %m2 = arith.muli %a1, %c16 : index
    %a2 = arith.addi %m2, %i2 : index
    %n = arith.index_cast %a2 : index to i32
    %f = arith.sitofp %n : i32 to f32
    %g = arith.mulf %f, %ca : f32
    %h = arith.addf %g, %cb : f32
    %y = math.sin %h : f32
    %z = arith.mulf %y, %cs : f32
    linalg.yield %z : f32
  } -> tensor<4x6x16xf32>
  return %r : tensor<4x6x16xf32>
}
func.func private @k16() -> tensor<4x10x16xf32> {
  %c10 = arith.constant 10 : index
  %c16 = arith.constant 16 : index
  %ca = arith.constant 1.211 : f32
  %cb = arith.constant 0.7 : f32
  %cs = arith.constant 2.0 : f32
  %e = tensor.empty() : tensor<4x10x16xf32>
  %r = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d1, d2)>], iterator_types = ["parallel", "parallel", "parallel"]} outs(%e : tensor<4x10x16xf32>) {
  ^bb0(%o: f32):
    %i0 = linalg.index 0 : index
    %i1 = linalg.index 1 : index
    %i2 = linalg.index 2 : index
    %m1 = arith.muli %i0, %c10 : index
    %a1 = arith.addi %m1, %i1 : index
    %m2 = arith.muli %a1, %c16 : index
    %a2 = arith.addi %m2, %i2 : index
    %n = arith.index_cast %a2 : index to i32
    %f = arith.sitofp %n : i32 to f32
    %g = arith.mulf %f, %ca : f32
    %h = arith.addf %g, %cb : f32
    %y = math.sin %h : f32
    %z = arith.mulf %y, %cs : f32
    linalg.yield %z : f32
  } -> tensor<4x10x16xf32>
  return %r : tensor<4x10x16xf32>
}

// Keep key j for (n, i) unless (n + i + 2j) % 3 == 0: every row keeps keys.
func.func private @keep() -> tensor<4x6x10xi1> {
  %c0 = arith.constant 0 : index
  %c2 = arith.constant 2 : index
  %c3 = arith.constant 3 : index
  %e = tensor.empty() : tensor<4x6x10xi1>
  %r = linalg.generic {indexing_maps = [#id3], iterator_types = ["parallel", "parallel", "parallel"]} outs(%e : tensor<4x6x10xi1>) {
  ^bb0(%o: i1):
    %n = linalg.index 0 : index
    %i = linalg.index 1 : index
    %j = linalg.index 2 : index
    %j2 = arith.muli %j, %c2 : index
    %s0 = arith.addi %n, %i : index
    %s1 = arith.addi %s0, %j2 : index
    %m = arith.remui %s1, %c3 : index
    %b = arith.cmpi ne, %m, %c0 : index
    linalg.yield %b : i1
  } -> tensor<4x6x10xi1>
  return %r : tensor<4x6x10xi1>
}

func.func private @maxabsdiff(%a: tensor<4x6x5xf32>, %b: tensor<4x6x5xf32>) -> f32 {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<f32>
  %z = linalg.fill ins(%zero : f32) outs(%e : tensor<f32>) -> tensor<f32>
  %r = linalg.generic {indexing_maps = [#id3, #id3, affine_map<(d0, d1, d2) -> ()>], iterator_types = ["reduction", "reduction", "reduction"]} ins(%a, %b : tensor<4x6x5xf32>, tensor<4x6x5xf32>) outs(%z : tensor<f32>) {
  ^bb0(%x: f32, %y: f32, %acc: f32):
    %d = arith.subf %x, %y : f32
    %ad = math.absf %d : f32
    %m = arith.maximumf %ad, %acc : f32
    linalg.yield %m : f32
  } -> tensor<f32>
  %v = tensor.extract %r[] : tensor<f32>
  return %v : f32
}

func.func @main() -> f32 {
  %q64 = call @q64() : () -> tensor<4x6x64xf32>
  %k64 = call @k64() : () -> tensor<4x10x64xf32>
  %q16 = call @q16() : () -> tensor<4x6x16xf32>
  %k16 = call @k16() : () -> tensor<4x10x16xf32>
  %v = call @v() : () -> tensor<4x10x5xf32>
  %bias = call @bias() : () -> tensor<6x10xf32>
  %keep = call @keep() : () -> tensor<4x6x10xi1>
  %o1 = call @scaled_bias(%q64, %k64, %v, %bias) : (tensor<4x6x64xf32>, tensor<4x10x64xf32>, tensor<4x10x5xf32>, tensor<6x10xf32>) -> tensor<4x6x5xf32>
  %r1, %p1 = call @scaled_bias_ref(%q64, %k64, %v, %bias) : (tensor<4x6x64xf32>, tensor<4x10x64xf32>, tensor<4x10x5xf32>, tensor<6x10xf32>) -> (tensor<4x6x5xf32>, tensor<4x6x10xf32>)
  %o2 = call @keep_mask(%q16, %k16, %v, %keep) : (tensor<4x6x16xf32>, tensor<4x10x16xf32>, tensor<4x10x5xf32>, tensor<4x6x10xi1>) -> tensor<4x6x5xf32>
  %r2, %p2 = call @keep_mask_ref(%q16, %k16, %v, %keep) : (tensor<4x6x16xf32>, tensor<4x10x16xf32>, tensor<4x10x5xf32>, tensor<4x6x10xi1>) -> (tensor<4x6x5xf32>, tensor<4x6x10xf32>)
  %d1 = call @maxabsdiff(%o1, %r1) : (tensor<4x6x5xf32>, tensor<4x6x5xf32>) -> f32
  %d2 = call @maxabsdiff(%o2, %r2) : (tensor<4x6x5xf32>, tensor<4x6x5xf32>) -> f32
  %o3 = call @causal_br(%q64, %k64, %v) : (tensor<4x6x64xf32>, tensor<4x10x64xf32>, tensor<4x10x5xf32>) -> tensor<4x6x5xf32>
  %r3, %p3 = call @causal_br_ref(%q64, %k64, %v) : (tensor<4x6x64xf32>, tensor<4x10x64xf32>, tensor<4x10x5xf32>) -> (tensor<4x6x5xf32>, tensor<4x6x10xf32>)
  %d3 = call @maxabsdiff(%o3, %r3) : (tensor<4x6x5xf32>, tensor<4x6x5xf32>) -> f32
  %o4 = call @causal_add(%q64, %k64, %v) : (tensor<4x6x64xf32>, tensor<4x10x64xf32>, tensor<4x10x5xf32>) -> tensor<4x6x5xf32>
  %r4, %p4 = call @causal_add_ref(%q64, %k64, %v) : (tensor<4x6x64xf32>, tensor<4x10x64xf32>, tensor<4x10x5xf32>) -> (tensor<4x6x5xf32>, tensor<4x6x10xf32>)
  %d4 = call @maxabsdiff(%o4, %r4) : (tensor<4x6x5xf32>, tensor<4x6x5xf32>) -> f32
  %o5 = call @causal_win(%q64, %k64, %v) : (tensor<4x6x64xf32>, tensor<4x10x64xf32>, tensor<4x10x5xf32>) -> tensor<4x6x5xf32>
  %r5, %p5 = call @causal_win_ref(%q64, %k64, %v) : (tensor<4x6x64xf32>, tensor<4x10x64xf32>, tensor<4x10x5xf32>) -> (tensor<4x6x5xf32>, tensor<4x6x10xf32>)
  %d5 = call @maxabsdiff(%o5, %r5) : (tensor<4x6x5xf32>, tensor<4x6x5xf32>) -> f32
  %d12 = arith.maximumf %d1, %d2 : f32
  %d123 = arith.maximumf %d12, %d3 : f32
  %d1234 = arith.maximumf %d123, %d4 : f32
  %o6 = call @dropout_keep(%q16, %k16, %v, %keep) : (tensor<4x6x16xf32>, tensor<4x10x16xf32>, tensor<4x10x5xf32>, tensor<4x6x10xi1>) -> tensor<4x6x5xf32>
  %r6, %p6 = call @dropout_keep_ref(%q16, %k16, %v, %keep) : (tensor<4x6x16xf32>, tensor<4x10x16xf32>, tensor<4x10x5xf32>, tensor<4x6x10xi1>) -> (tensor<4x6x5xf32>, tensor<4x6x10xf32>)
  %d6 = call @maxabsdiff(%o6, %r6) : (tensor<4x6x5xf32>, tensor<4x6x5xf32>) -> f32
  %d12345 = arith.maximumf %d1234, %d5 : f32
  %d = arith.maximumf %d12345, %d6 : f32
  return %d : f32
}
