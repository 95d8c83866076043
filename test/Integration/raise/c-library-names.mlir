// RUN: attn-raise-check %s --require-raised --runs=2 --seed=3 | FileCheck %s --implicit-check-not=FAIL

// Functions named after C library symbols that the CPU lowering calls
// (math.exp becomes a call to `exp`, buffers come from `malloc`): the
// check renames the functions it compiles, so a user's @exp or @malloc
// does not capture those calls (before: a crash inside the JIT code, or
// "Symbols not found: malloc_0").

// CHECK: @exp: 1 attn.attention after the raising
// CHECK: run 1 result 0 tensor<2x3x12x8xf32>: {{.*}}: PASS
func.func @exp(%q: tensor<2x3x12x8xf32>, %k: tensor<2x3x12x8xf32>, %v: tensor<2x3x12x8xf32>) -> tensor<2x3x12x8xf32> {
  %zero = arith.constant 0.0 : f32
  %qkinit = arith.constant 0.0 : f32
  %c = arith.constant 0.25 : f32
  %minit = arith.constant 0xFF800000 : f32
  %sinit = arith.constant 0.0 : f32
  %es = tensor.empty() : tensor<2x3x12x12xf32>
  %zs = linalg.fill ins(%qkinit : f32) outs(%es : tensor<2x3x12x12xf32>) -> tensor<2x3x12x12xf32>
  %s = linalg.generic {indexing_maps = [affine_map<(b, h, i, j, d) -> (b, h, i, d)>, affine_map<(b, h, i, j, d) -> (b, h, j, d)>, affine_map<(b, h, i, j, d) -> (b, h, i, j)>], iterator_types = ["parallel", "parallel", "parallel", "parallel", "reduction"]} ins(%q, %k : tensor<2x3x12x8xf32>, tensor<2x3x12x8xf32>) outs(%zs : tensor<2x3x12x12xf32>) {
  ^bb0(%a: f32, %b_: f32, %acc: f32):
    %m = arith.mulf %a, %b_ : f32
    %r = arith.addf %acc, %m : f32
    linalg.yield %r : f32
  } -> tensor<2x3x12x12xf32>
  %ss = linalg.generic {indexing_maps = [affine_map<(b, h, i, j) -> (b, h, i, j)>, affine_map<(b, h, i, j) -> (b, h, i, j)>], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%s : tensor<2x3x12x12xf32>) outs(%es : tensor<2x3x12x12xf32>) {
  ^bb0(%x: f32, %o: f32):
    %y = arith.mulf %x, %c : f32
    linalg.yield %y : f32
  } -> tensor<2x3x12x12xf32>

  %er = tensor.empty() : tensor<2x3x12xf32>
  %fm = linalg.fill ins(%minit : f32) outs(%er : tensor<2x3x12xf32>) -> tensor<2x3x12xf32>
  %mx0 = linalg.generic {indexing_maps = [affine_map<(b, h, i, j) -> (b, h, i, j)>, affine_map<(b, h, i, j) -> (b, h, i)>], iterator_types = ["parallel", "parallel", "parallel", "reduction"]} ins(%ss : tensor<2x3x12x12xf32>) outs(%fm : tensor<2x3x12xf32>) {
  ^bb0(%x: f32, %acc: f32):
    %r = arith.maximumf %x, %acc : f32
    linalg.yield %r : f32
  } -> tensor<2x3x12xf32>
  %ex = linalg.generic {indexing_maps = [affine_map<(b, h, i, j) -> (b, h, i, j)>, affine_map<(b, h, i, j) -> (b, h, i)>, affine_map<(b, h, i, j) -> (b, h, i, j)>], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%ss, %mx0 : tensor<2x3x12x12xf32>, tensor<2x3x12xf32>) outs(%es : tensor<2x3x12x12xf32>) {
  ^bb0(%x: f32, %mx: f32, %o: f32):
    %d = arith.subf %x, %mx : f32
    %e = math.exp %d : f32
    linalg.yield %e : f32
  } -> tensor<2x3x12x12xf32>
  %fl = linalg.fill ins(%sinit : f32) outs(%er : tensor<2x3x12xf32>) -> tensor<2x3x12xf32>
  %l = linalg.generic {indexing_maps = [affine_map<(b, h, i, j) -> (b, h, i, j)>, affine_map<(b, h, i, j) -> (b, h, i)>], iterator_types = ["parallel", "parallel", "parallel", "reduction"]} ins(%ex : tensor<2x3x12x12xf32>) outs(%fl : tensor<2x3x12xf32>) {
  ^bb0(%x: f32, %acc: f32):
    %r = arith.addf %x, %acc : f32
    linalg.yield %r : f32
  } -> tensor<2x3x12xf32>
  %p = linalg.generic {indexing_maps = [affine_map<(b, h, i, j) -> (b, h, i, j)>, affine_map<(b, h, i, j) -> (b, h, i)>, affine_map<(b, h, i, j) -> (b, h, i, j)>], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%ex, %l : tensor<2x3x12x12xf32>, tensor<2x3x12xf32>) outs(%es : tensor<2x3x12x12xf32>) {
  ^bb0(%x: f32, %s_: f32, %o: f32):
    %r = arith.divf %x, %s_ : f32
    linalg.yield %r : f32
  } -> tensor<2x3x12x12xf32>
  %eo = tensor.empty() : tensor<2x3x12x8xf32>
  %zo = linalg.fill ins(%zero : f32) outs(%eo : tensor<2x3x12x8xf32>) -> tensor<2x3x12x8xf32>
  %o = linalg.generic {indexing_maps = [affine_map<(b, h, i, j, e) -> (b, h, i, j)>, affine_map<(b, h, i, j, e) -> (b, h, j, e)>, affine_map<(b, h, i, j, e) -> (b, h, i, e)>], iterator_types = ["parallel", "parallel", "parallel", "reduction", "parallel"]} ins(%p, %v : tensor<2x3x12x12xf32>, tensor<2x3x12x8xf32>) outs(%zo : tensor<2x3x12x8xf32>) {
  ^bb0(%a: f32, %b_: f32, %acc: f32):
    %m = arith.mulf %a, %b_ : f32
    %r = arith.addf %acc, %m : f32
    linalg.yield %r : f32
  } -> tensor<2x3x12x8xf32>
  return %o : tensor<2x3x12x8xf32>
}

// CHECK: @malloc: 1 attn.attention after the raising
// CHECK: run 1 result 0 tensor<2x3x12x8xf32>: {{.*}}: PASS
func.func @malloc(%q: tensor<2x3x12x8xf32>, %k: tensor<2x3x12x8xf32>, %v: tensor<2x3x12x8xf32>) -> tensor<2x3x12x8xf32> {
  %zero = arith.constant 0.0 : f32
  %qkinit = arith.constant 0.0 : f32
  %c = arith.constant 0.25 : f32
  %minit = arith.constant 0xFF800000 : f32
  %sinit = arith.constant 0.0 : f32
  %es = tensor.empty() : tensor<2x3x12x12xf32>
  %zs = linalg.fill ins(%qkinit : f32) outs(%es : tensor<2x3x12x12xf32>) -> tensor<2x3x12x12xf32>
  %s = linalg.generic {indexing_maps = [affine_map<(b, h, i, j, d) -> (b, h, i, d)>, affine_map<(b, h, i, j, d) -> (b, h, j, d)>, affine_map<(b, h, i, j, d) -> (b, h, i, j)>], iterator_types = ["parallel", "parallel", "parallel", "parallel", "reduction"]} ins(%q, %k : tensor<2x3x12x8xf32>, tensor<2x3x12x8xf32>) outs(%zs : tensor<2x3x12x12xf32>) {
  ^bb0(%a: f32, %b_: f32, %acc: f32):
    %m = arith.mulf %a, %b_ : f32
    %r = arith.addf %acc, %m : f32
    linalg.yield %r : f32
  } -> tensor<2x3x12x12xf32>
  %ss = linalg.generic {indexing_maps = [affine_map<(b, h, i, j) -> (b, h, i, j)>, affine_map<(b, h, i, j) -> (b, h, i, j)>], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%s : tensor<2x3x12x12xf32>) outs(%es : tensor<2x3x12x12xf32>) {
  ^bb0(%x: f32, %o: f32):
    %y = arith.mulf %x, %c : f32
    linalg.yield %y : f32
  } -> tensor<2x3x12x12xf32>

  %er = tensor.empty() : tensor<2x3x12xf32>
  %fm = linalg.fill ins(%minit : f32) outs(%er : tensor<2x3x12xf32>) -> tensor<2x3x12xf32>
  %mx0 = linalg.generic {indexing_maps = [affine_map<(b, h, i, j) -> (b, h, i, j)>, affine_map<(b, h, i, j) -> (b, h, i)>], iterator_types = ["parallel", "parallel", "parallel", "reduction"]} ins(%ss : tensor<2x3x12x12xf32>) outs(%fm : tensor<2x3x12xf32>) {
  ^bb0(%x: f32, %acc: f32):
    %r = arith.maximumf %x, %acc : f32
    linalg.yield %r : f32
  } -> tensor<2x3x12xf32>
  %ex = linalg.generic {indexing_maps = [affine_map<(b, h, i, j) -> (b, h, i, j)>, affine_map<(b, h, i, j) -> (b, h, i)>, affine_map<(b, h, i, j) -> (b, h, i, j)>], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%ss, %mx0 : tensor<2x3x12x12xf32>, tensor<2x3x12xf32>) outs(%es : tensor<2x3x12x12xf32>) {
  ^bb0(%x: f32, %mx: f32, %o: f32):
    %d = arith.subf %x, %mx : f32
    %e = math.exp %d : f32
    linalg.yield %e : f32
  } -> tensor<2x3x12x12xf32>
  %fl = linalg.fill ins(%sinit : f32) outs(%er : tensor<2x3x12xf32>) -> tensor<2x3x12xf32>
  %l = linalg.generic {indexing_maps = [affine_map<(b, h, i, j) -> (b, h, i, j)>, affine_map<(b, h, i, j) -> (b, h, i)>], iterator_types = ["parallel", "parallel", "parallel", "reduction"]} ins(%ex : tensor<2x3x12x12xf32>) outs(%fl : tensor<2x3x12xf32>) {
  ^bb0(%x: f32, %acc: f32):
    %r = arith.addf %x, %acc : f32
    linalg.yield %r : f32
  } -> tensor<2x3x12xf32>
  %p = linalg.generic {indexing_maps = [affine_map<(b, h, i, j) -> (b, h, i, j)>, affine_map<(b, h, i, j) -> (b, h, i)>, affine_map<(b, h, i, j) -> (b, h, i, j)>], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%ex, %l : tensor<2x3x12x12xf32>, tensor<2x3x12xf32>) outs(%es : tensor<2x3x12x12xf32>) {
  ^bb0(%x: f32, %s_: f32, %o: f32):
    %r = arith.divf %x, %s_ : f32
    linalg.yield %r : f32
  } -> tensor<2x3x12x12xf32>
  %eo = tensor.empty() : tensor<2x3x12x8xf32>
  %zo = linalg.fill ins(%zero : f32) outs(%eo : tensor<2x3x12x8xf32>) -> tensor<2x3x12x8xf32>
  %o = linalg.generic {indexing_maps = [affine_map<(b, h, i, j, e) -> (b, h, i, j)>, affine_map<(b, h, i, j, e) -> (b, h, j, e)>, affine_map<(b, h, i, j, e) -> (b, h, i, e)>], iterator_types = ["parallel", "parallel", "parallel", "reduction", "parallel"]} ins(%p, %v : tensor<2x3x12x12xf32>, tensor<2x3x12x8xf32>) outs(%zo : tensor<2x3x12x8xf32>) {
  ^bb0(%a: f32, %b_: f32, %acc: f32):
    %m = arith.mulf %a, %b_ : f32
    %r = arith.addf %acc, %m : f32
    linalg.yield %r : f32
  } -> tensor<2x3x12x8xf32>
  return %o : tensor<2x3x12x8xf32>
}
