// Chains with run-time batch and lengths raise like static ones (the op
// takes dynamic sizes; attn-compile then builds the run-time-size kernels).
// attn-raise-check raises each function as written (dynamic) and proves it
// at the shapes --shapes gives; without them it skips the function, and a
// wrong shape is an error.
// RUN: attention-opt %s --attn-raise-pipeline | FileCheck %s
// RUN: attention-opt %s --attn-raise-pipeline | attn-compile - --chip=sm_90a -o %t.ptx 2>&1 | FileCheck %s --check-prefix=COMPILE
// COMPILE: attn-compile: wrote
// RUN: attn-raise-check %s --require-raised --runs=1 --function=dynamic_causal '--shapes=2x4x9x16,2x4x9x16,2x4x9x16->2x4x9x16' '--shapes=1x4x1x16,1x4x1x16,1x4x1x16->1x4x1x16' '--shapes=3x4x70x16,3x4x70x16,3x4x70x16->3x4x70x16' | FileCheck %s --check-prefix=PROOF --implicit-check-not=FAIL
// PROOF: @dynamic_causal at (tensor<2x4x9x16xf32>, tensor<2x4x9x16xf32>, tensor<2x4x9x16xf32>) -> tensor<2x4x9x16xf32>: 1 attn.attention after the raising
// PROOF: run 0 result 0 tensor<2x4x9x16xf32>: {{.*}}: PASS
// PROOF: @dynamic_causal at {{.*}}: 1 attn.attention after the raising
// PROOF: run 0 result 0 tensor<1x4x1x16xf32>: {{.*}}: PASS
// PROOF: @dynamic_causal at {{.*}}: 1 attn.attention after the raising
// PROOF: run 0 result 0 tensor<3x4x70x16xf32>: {{.*}}: PASS
// RUN: attn-raise-check %s --require-raised --runs=1 --function=dynamic_gqa_decode '--shapes=2x8x1x64,2x2x33x64,2x2x33x64->2x8x1x64' | FileCheck %s --check-prefix=DECODE --implicit-check-not=FAIL
// DECODE: @dynamic_gqa_decode at {{.*}}: 1 attn.attention after the raising
// DECODE: run 0 result 0 tensor<2x8x1x64xf16>: {{.*}}: PASS
// RUN: not attn-raise-check %s --runs=1 2>&1 | FileCheck %s --check-prefix=SKIP
// SKIP-DAG: @dynamic_causal: dynamic sizes, skipped (give --shapes to check it)
// SKIP-DAG: @dynamic_gqa_decode: dynamic sizes, skipped (give --shapes to check it)
// SKIP-DAG: error: attn-raise-check: no function to check (public functions with ranked tensor arguments and results, static or with --shapes)
// RUN: not attn-raise-check %s --function=dynamic_causal 2>&1 | FileCheck %s --check-prefix=NO-SHAPES
// NO-SHAPES: error: attn-raise-check: @dynamic_causal has dynamic sizes: give the shapes to run it at (--shapes)
// RUN: not attn-raise-check %s --function=dynamic_causal --shapes=2x4x9x16,2x4x9x16 2>&1 | FileCheck %s --check-prefix=COUNT
// COUNT: error: attn-raise-check: --shapes gives 2 argument shapes, @dynamic_causal has 3
// RUN: not attn-raise-check %s --function=dynamic_causal --shapes=2x5x9x16,2x4x9x16,2x4x9x16 2>&1 | FileCheck %s --check-prefix=STATIC-DIM
// STATIC-DIM: error: attn-raise-check: --shapes: argument 0 of @dynamic_causal is 'tensor<?x4x?x16xf32>', '2x5x9x16' differs in dim 1
// RUN: not attn-raise-check %s --function=dynamic_causal --shapes=2x4x9,2x4x9x16,2x4x9x16 2>&1 | FileCheck %s --check-prefix=RANK
// RUN: not attn-raise-check %s --function=dynamic_causal --shapes=2x4xAx16,2x4x9x16,2x4x9x16 2>&1 | FileCheck %s --check-prefix=NOT-A-SHAPE
// RANK: error: attn-raise-check: --shapes: argument 0 of @dynamic_causal has rank 4, '2x4x9' has 3
// NOT-A-SHAPE: error: attn-raise-check: --shapes: '2x4xAx16' is not a shape (sizes joined by 'x')
// RUN: not attn-raise-check %s --function=dynamic_causal --shapes=2x4x9x16,2x4x9x16,2x4x9x16 2>&1 | FileCheck %s --check-prefix=NO-RESULT
// NO-RESULT: error: attn-raise-check: --shapes gives no result shapes, and @dynamic_causal's are dynamic

// Scale and a causal mask from linalg.index in one body, dynamic B and L.
// CHECK-LABEL: func.func @dynamic_causal
// CHECK: attn.attention ins(%arg0, %arg1, %arg2 : tensor<?x4x?x16xf32>, tensor<?x4x?x16xf32>, tensor<?x4x?x16xf32>) {causal = #attn.causal<top_left>, scale = 1.250000e-01 : f32}
#dc_qk_q = affine_map<(b, h, i, j, d) -> (b, h, i, d)>
#dc_qk_k = affine_map<(b, h, i, j, d) -> (b, h, j, d)>
#dc_qk_s = affine_map<(b, h, i, j, d) -> (b, h, i, j)>
#dc_pv_p = affine_map<(b, h, i, d, j) -> (b, h, i, j)>
#dc_pv_v = affine_map<(b, h, i, d, j) -> (b, h, j, d)>
#dc_pv_o = affine_map<(b, h, i, d, j) -> (b, h, i, d)>
#dc_id = affine_map<(b, h, i, j) -> (b, h, i, j)>
#dc_row = affine_map<(b, h, i, j) -> (b, h, i)>
#dc_bj = affine_map<(b, h, i, j) -> (b, j)>
func.func @dynamic_causal(%q: tensor<?x4x?x16xf32>, %k: tensor<?x4x?x16xf32>, %v: tensor<?x4x?x16xf32>) -> tensor<?x4x?x16xf32> {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %zero = arith.constant 0.0 : f32
  %ninf = arith.constant 0xFF800000 : f32
  %c8 = arith.constant 8.0 : f32
  %B = tensor.dim %q, %c0 : tensor<?x4x?x16xf32>
    %Lq = tensor.dim %q, %c2 : tensor<?x4x?x16xf32>
  %Lk = tensor.dim %k, %c2 : tensor<?x4x?x16xf32>
  %es = tensor.empty(%B, %Lq, %Lk) : tensor<?x4x?x?xf32>
  %zs = linalg.fill ins(%zero : f32) outs(%es : tensor<?x4x?x?xf32>) -> tensor<?x4x?x?xf32>
  %s = linalg.generic {indexing_maps = [#dc_qk_q, #dc_qk_k, #dc_qk_s], iterator_types = ["parallel", "parallel", "parallel", "parallel", "reduction"]}
      ins(%q, %k : tensor<?x4x?x16xf32>, tensor<?x4x?x16xf32>) outs(%zs : tensor<?x4x?x?xf32>) {
  ^bb0(%a: f32, %b: f32, %o: f32):
    %m = arith.mulf %a, %b : f32
    %r = arith.addf %o, %m : f32
    linalg.yield %r : f32
  } -> tensor<?x4x?x?xf32>
  %sb = linalg.generic {indexing_maps = [#dc_id, #dc_id], iterator_types = ["parallel", "parallel", "parallel", "parallel"]}
      ins(%s : tensor<?x4x?x?xf32>) outs(%es : tensor<?x4x?x?xf32>) {
  ^bb0(%x: f32, %o: f32):
    %y = arith.divf %x, %c8 : f32
    %i = linalg.index 2 : index
    %j = linalg.index 3 : index
    %gt = arith.cmpi sgt, %j, %i : index
    %z = arith.select %gt, %ninf, %y : f32
    linalg.yield %z : f32
  } -> tensor<?x4x?x?xf32>
  %er = tensor.empty(%B, %Lq) : tensor<?x4x?xf32>
  %fm = linalg.fill ins(%ninf : f32) outs(%er : tensor<?x4x?xf32>) -> tensor<?x4x?xf32>
  %mx = linalg.generic {indexing_maps = [#dc_id, #dc_row], iterator_types = ["parallel", "parallel", "parallel", "reduction"]} ins(%sb : tensor<?x4x?x?xf32>) outs(%fm : tensor<?x4x?xf32>) {
  ^bb0(%x: f32, %acc: f32):
    %r = arith.maximumf %x, %acc : f32
    linalg.yield %r : f32
  } -> tensor<?x4x?xf32>
  %ex = linalg.generic {indexing_maps = [#dc_id, #dc_row, #dc_id], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%sb, %mx : tensor<?x4x?x?xf32>, tensor<?x4x?xf32>) outs(%es : tensor<?x4x?x?xf32>) {
  ^bb0(%x: f32, %m: f32, %o: f32):
    %d = arith.subf %x, %m : f32
    %e = math.exp %d : f32
    linalg.yield %e : f32
  } -> tensor<?x4x?x?xf32>
  %fs = linalg.fill ins(%zero : f32) outs(%er : tensor<?x4x?xf32>) -> tensor<?x4x?xf32>
  %sum = linalg.generic {indexing_maps = [#dc_id, #dc_row], iterator_types = ["parallel", "parallel", "parallel", "reduction"]} ins(%ex : tensor<?x4x?x?xf32>) outs(%fs : tensor<?x4x?xf32>) {
  ^bb0(%x: f32, %acc: f32):
    %r = arith.addf %x, %acc : f32
    linalg.yield %r : f32
  } -> tensor<?x4x?xf32>
  %p = linalg.generic {indexing_maps = [#dc_id, #dc_row, #dc_id], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%ex, %sum : tensor<?x4x?x?xf32>, tensor<?x4x?xf32>) outs(%es : tensor<?x4x?x?xf32>) {
  ^bb0(%x: f32, %l: f32, %o: f32):
    %d = arith.divf %x, %l : f32
    linalg.yield %d : f32
  } -> tensor<?x4x?x?xf32>
  %eo = tensor.empty(%B, %Lq) : tensor<?x4x?x16xf32>
  %zo = linalg.fill ins(%zero : f32) outs(%eo : tensor<?x4x?x16xf32>) -> tensor<?x4x?x16xf32>
  %o = linalg.generic {indexing_maps = [#dc_pv_p, #dc_pv_v, #dc_pv_o], iterator_types = ["parallel", "parallel", "parallel", "parallel", "reduction"]}
      ins(%p, %v : tensor<?x4x?x?xf32>, tensor<?x4x?x16xf32>) outs(%zo : tensor<?x4x?x16xf32>) {
  ^bb0(%a: f32, %b: f32, %o: f32):
    %m = arith.mulf %a, %b : f32
    %r = arith.addf %o, %m : f32
    linalg.yield %r : f32
  } -> tensor<?x4x?x16xf32>
  return %o : tensor<?x4x?x16xf32>
}

// f16 GQA decoding (Lq = 1) with a run-time batch and cache length.
// CHECK-LABEL: func.func @dynamic_gqa_decode
// CHECK: attn.attention ins(%arg0, %arg1, %arg2 : tensor<?x8x1x64xf16>, tensor<?x2x?x64xf16>, tensor<?x2x?x64xf16>) {scale = 1.250000e-01 : f32}
#dg_qk_q = affine_map<(b, h, g, i, j, d) -> (b, h, g, i, d)>
#dg_qk_k = affine_map<(b, h, g, i, j, d) -> (b, h, j, d)>
#dg_qk_s = affine_map<(b, h, g, i, j, d) -> (b, h, g, i, j)>
#dg_pv_p = affine_map<(b, h, g, i, d, j) -> (b, h, g, i, j)>
#dg_pv_v = affine_map<(b, h, g, i, d, j) -> (b, h, j, d)>
#dg_pv_o = affine_map<(b, h, g, i, d, j) -> (b, h, g, i, d)>
#dg_id = affine_map<(b, h, g, i, j) -> (b, h, g, i, j)>
#dg_row = affine_map<(b, h, g, i, j) -> (b, h, g, i)>
func.func @dynamic_gqa_decode(%q: tensor<?x8x1x64xf16>, %k: tensor<?x2x?x64xf16>, %v: tensor<?x2x?x64xf16>) -> tensor<?x8x1x64xf16> {
  %c0 = arith.constant 0 : index
  %c2 = arith.constant 2 : index
  %zero = arith.constant 0.0 : f32
  %ninf = arith.constant 0xFF800000 : f32
  %c = arith.constant 0.125 : f32
  %B = tensor.dim %q, %c0 : tensor<?x8x1x64xf16>
  %Lk = tensor.dim %k, %c2 : tensor<?x2x?x64xf16>
  %q5 = tensor.expand_shape %q [[0], [1, 2], [3], [4]] output_shape [%B, 2, 4, 1, 64] : tensor<?x8x1x64xf16> into tensor<?x2x4x1x64xf16>
  %es = tensor.empty(%B, %Lk) : tensor<?x2x4x1x?xf32>
  %zs = linalg.fill ins(%zero : f32) outs(%es : tensor<?x2x4x1x?xf32>) -> tensor<?x2x4x1x?xf32>
  %s = linalg.generic {indexing_maps = [#dg_qk_q, #dg_qk_k, #dg_qk_s], iterator_types = ["parallel", "parallel", "parallel", "parallel", "parallel", "reduction"]}
      ins(%q5, %k : tensor<?x2x4x1x64xf16>, tensor<?x2x?x64xf16>) outs(%zs : tensor<?x2x4x1x?xf32>) {
  ^bb0(%a: f16, %b: f16, %o: f32):
    %aw = arith.extf %a : f16 to f32
    %bw = arith.extf %b : f16 to f32
    %m = arith.mulf %aw, %bw : f32
    %r = arith.addf %o, %m : f32
    linalg.yield %r : f32
  } -> tensor<?x2x4x1x?xf32>
  %ss = linalg.generic {indexing_maps = [#dg_id, #dg_id], iterator_types = ["parallel", "parallel", "parallel", "parallel", "parallel"]} ins(%s : tensor<?x2x4x1x?xf32>) outs(%es : tensor<?x2x4x1x?xf32>) {
  ^bb0(%x: f32, %o: f32):
    %y = arith.mulf %x, %c : f32
    linalg.yield %y : f32
  } -> tensor<?x2x4x1x?xf32>
  %er = tensor.empty(%B) : tensor<?x2x4x1xf32>
  %fm = linalg.fill ins(%ninf : f32) outs(%er : tensor<?x2x4x1xf32>) -> tensor<?x2x4x1xf32>
  %mx = linalg.generic {indexing_maps = [#dg_id, #dg_row], iterator_types = ["parallel", "parallel", "parallel", "parallel", "reduction"]} ins(%ss : tensor<?x2x4x1x?xf32>) outs(%fm : tensor<?x2x4x1xf32>) {
  ^bb0(%x: f32, %acc: f32):
    %r = arith.maximumf %x, %acc : f32
    linalg.yield %r : f32
  } -> tensor<?x2x4x1xf32>
  %ex = linalg.generic {indexing_maps = [#dg_id, #dg_row, #dg_id], iterator_types = ["parallel", "parallel", "parallel", "parallel", "parallel"]} ins(%ss, %mx : tensor<?x2x4x1x?xf32>, tensor<?x2x4x1xf32>) outs(%es : tensor<?x2x4x1x?xf32>) {
  ^bb0(%x: f32, %m: f32, %o: f32):
    %d = arith.subf %x, %m : f32
    %e = math.exp %d : f32
    linalg.yield %e : f32
  } -> tensor<?x2x4x1x?xf32>
  %fs = linalg.fill ins(%zero : f32) outs(%er : tensor<?x2x4x1xf32>) -> tensor<?x2x4x1xf32>
  %sum = linalg.generic {indexing_maps = [#dg_id, #dg_row], iterator_types = ["parallel", "parallel", "parallel", "parallel", "reduction"]} ins(%ex : tensor<?x2x4x1x?xf32>) outs(%fs : tensor<?x2x4x1xf32>) {
  ^bb0(%x: f32, %acc: f32):
    %r = arith.addf %x, %acc : f32
    linalg.yield %r : f32
  } -> tensor<?x2x4x1xf32>
  %eh = tensor.empty(%B, %Lk) : tensor<?x2x4x1x?xf16>
  %p = linalg.generic {indexing_maps = [#dg_id, #dg_row, #dg_id], iterator_types = ["parallel", "parallel", "parallel", "parallel", "parallel"]} ins(%ex, %sum : tensor<?x2x4x1x?xf32>, tensor<?x2x4x1xf32>) outs(%eh : tensor<?x2x4x1x?xf16>) {
  ^bb0(%x: f32, %l: f32, %o: f16):
    %d = arith.divf %x, %l : f32
    %t = arith.truncf %d : f32 to f16
    linalg.yield %t : f16
  } -> tensor<?x2x4x1x?xf16>
  %eo = tensor.empty(%B) : tensor<?x2x4x1x64xf32>
  %zo = linalg.fill ins(%zero : f32) outs(%eo : tensor<?x2x4x1x64xf32>) -> tensor<?x2x4x1x64xf32>
  %o = linalg.generic {indexing_maps = [#dg_pv_p, #dg_pv_v, #dg_pv_o], iterator_types = ["parallel", "parallel", "parallel", "parallel", "parallel", "reduction"]}
      ins(%p, %v : tensor<?x2x4x1x?xf16>, tensor<?x2x?x64xf16>) outs(%zo : tensor<?x2x4x1x64xf32>) {
  ^bb0(%a: f16, %b: f16, %o: f32):
    %aw = arith.extf %a : f16 to f32
    %bw = arith.extf %b : f16 to f32
    %m = arith.mulf %aw, %bw : f32
    %r = arith.addf %o, %m : f32
    linalg.yield %r : f32
  } -> tensor<?x2x4x1x64xf32>
  %eoh = tensor.empty(%B) : tensor<?x2x4x1x64xf16>
  %oh = linalg.generic {indexing_maps = [#dg_id, #dg_id], iterator_types = ["parallel", "parallel", "parallel", "parallel", "parallel"]} ins(%o : tensor<?x2x4x1x64xf32>) outs(%eoh : tensor<?x2x4x1x64xf16>) {
  ^bb0(%x: f32, %y: f16):
    %t = arith.truncf %x : f32 to f16
    linalg.yield %t : f16
  } -> tensor<?x2x4x1x64xf16>
  %oc = tensor.collapse_shape %oh [[0], [1, 2], [3], [4]] : tensor<?x2x4x1x64xf16> into tensor<?x8x1x64xf16>
  return %oc : tensor<?x8x1x64xf16>
}
