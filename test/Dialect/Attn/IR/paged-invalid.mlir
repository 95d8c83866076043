// RUN: attention-opt %s -split-input-file -verify-diagnostics

// One case per verifier rule of attn.paged_attention. Unless a case says
// otherwise: B = 2, Hq = 4, Lq = 3, D = 16, Dv = 8, P = 9 pages of 16
// tokens, Hkv = 2, 5 pages per sequence.

// query of rank 3.
func.func @f(%q: tensor<2x4x16xf32>, %kc: tensor<9x16x2x16xf32>, %vc: tensor<9x16x2x8xf32>, %t: tensor<2x5xi32>, %n: tensor<2xi32>) -> (tensor<2x4x3x8xf32>) {
  // expected-error @+1 {{query: expected rank 4, got rank 3 ('tensor<2x4x16xf32>')}}
  %o = attn.paged_attention ins(%q : tensor<2x4x16xf32>) cache(%kc, %vc : tensor<9x16x2x16xf32>, tensor<9x16x2x8xf32>) pages(%t, %n : tensor<2x5xi32>, tensor<2xi32>) -> tensor<2x4x3x8xf32>
  return %o : tensor<2x4x3x8xf32>
}

// -----

// key cache of rank 3 (a contiguous cache).
func.func @f(%q: tensor<2x4x3x16xf32>, %kc: tensor<9x16x16xf32>, %vc: tensor<9x16x2x8xf32>, %t: tensor<2x5xi32>, %n: tensor<2xi32>) -> (tensor<2x4x3x8xf32>) {
  // expected-error @+1 {{key: expected rank 4, got rank 3 ('tensor<9x16x16xf32>')}}
  %o = attn.paged_attention ins(%q : tensor<2x4x3x16xf32>) cache(%kc, %vc : tensor<9x16x16xf32>, tensor<9x16x2x8xf32>) pages(%t, %n : tensor<2x5xi32>, tensor<2xi32>) -> tensor<2x4x3x8xf32>
  return %o : tensor<2x4x3x8xf32>
}

// -----

// value pages differ from key pages.
func.func @f(%q: tensor<2x4x3x16xf32>, %kc: tensor<9x16x2x16xf32>, %vc: tensor<8x16x2x8xf32>, %t: tensor<2x5xi32>, %n: tensor<2xi32>) -> (tensor<2x4x3x8xf32>) {
  // expected-error @+1 {{value: expected dimension 0 (pages) to be 9 (key's pages), got 8}}
  %o = attn.paged_attention ins(%q : tensor<2x4x3x16xf32>) cache(%kc, %vc : tensor<9x16x2x16xf32>, tensor<8x16x2x8xf32>) pages(%t, %n : tensor<2x5xi32>, tensor<2xi32>) -> tensor<2x4x3x8xf32>
  return %o : tensor<2x4x3x8xf32>
}

// -----

// value page size differs.
func.func @f(%q: tensor<2x4x3x16xf32>, %kc: tensor<9x16x2x16xf32>, %vc: tensor<9x32x2x8xf32>, %t: tensor<2x5xi32>, %n: tensor<2xi32>) -> (tensor<2x4x3x8xf32>) {
  // expected-error @+1 {{value: expected dimension 1 (page size) to be 16 (key's page size), got 32}}
  %o = attn.paged_attention ins(%q : tensor<2x4x3x16xf32>) cache(%kc, %vc : tensor<9x16x2x16xf32>, tensor<9x32x2x8xf32>) pages(%t, %n : tensor<2x5xi32>, tensor<2xi32>) -> tensor<2x4x3x8xf32>
  return %o : tensor<2x4x3x8xf32>
}

// -----

// kv heads differ.
func.func @f(%q: tensor<2x4x3x16xf32>, %kc: tensor<9x16x2x16xf32>, %vc: tensor<9x16x4x8xf32>, %t: tensor<2x5xi32>, %n: tensor<2xi32>) -> (tensor<2x4x3x8xf32>) {
  // expected-error @+1 {{value: expected dimension 2 (kv heads) to be 2 (key's kv heads), got 4}}
  %o = attn.paged_attention ins(%q : tensor<2x4x3x16xf32>) cache(%kc, %vc : tensor<9x16x2x16xf32>, tensor<9x16x4x8xf32>) pages(%t, %n : tensor<2x5xi32>, tensor<2xi32>) -> tensor<2x4x3x8xf32>
  return %o : tensor<2x4x3x8xf32>
}

// -----

// head dims differ.
func.func @f(%q: tensor<2x4x3x16xf32>, %kc: tensor<9x16x2x32xf32>, %vc: tensor<9x16x2x8xf32>, %t: tensor<2x5xi32>, %n: tensor<2xi32>) -> (tensor<2x4x3x8xf32>) {
  // expected-error @+1 {{key: expected dimension 3 (head dim) to be 16 (query's head dim), got 32}}
  %o = attn.paged_attention ins(%q : tensor<2x4x3x16xf32>) cache(%kc, %vc : tensor<9x16x2x32xf32>, tensor<9x16x2x8xf32>) pages(%t, %n : tensor<2x5xi32>, tensor<2xi32>) -> tensor<2x4x3x8xf32>
  return %o : tensor<2x4x3x8xf32>
}

// -----

// query heads not a multiple of kv heads.
func.func @f(%q: tensor<2x3x3x16xf32>, %kc: tensor<9x16x2x16xf32>, %vc: tensor<9x16x2x8xf32>, %t: tensor<2x5xi32>, %n: tensor<2xi32>) -> (tensor<2x3x3x8xf32>) {
  // expected-error @+1 {{query heads (3) must be a multiple of kv heads (2)}}
  %o = attn.paged_attention ins(%q : tensor<2x3x3x16xf32>) cache(%kc, %vc : tensor<9x16x2x16xf32>, tensor<9x16x2x8xf32>) pages(%t, %n : tensor<2x5xi32>, tensor<2xi32>) -> tensor<2x3x3x8xf32>
  return %o : tensor<2x3x3x8xf32>
}

// -----

// block table of another batch.
func.func @f(%q: tensor<2x4x3x16xf32>, %kc: tensor<9x16x2x16xf32>, %vc: tensor<9x16x2x8xf32>, %t: tensor<3x5xi32>, %n: tensor<2xi32>) -> (tensor<2x4x3x8xf32>) {
  // expected-error @+1 {{block_table: expected dimension 0 (batch) to be 2 (query's batch), got 3}}
  %o = attn.paged_attention ins(%q : tensor<2x4x3x16xf32>) cache(%kc, %vc : tensor<9x16x2x16xf32>, tensor<9x16x2x8xf32>) pages(%t, %n : tensor<3x5xi32>, tensor<2xi32>) -> tensor<2x4x3x8xf32>
  return %o : tensor<2x4x3x8xf32>
}

// -----

// block table of i64.
func.func @f(%q: tensor<2x4x3x16xf32>, %kc: tensor<9x16x2x16xf32>, %vc: tensor<9x16x2x8xf32>, %t: tensor<2x5xi64>, %n: tensor<2xi32>) -> (tensor<2x4x3x8xf32>) {
  // expected-error @+1 {{block_table: expected element type i32, got 'i64'}}
  %o = attn.paged_attention ins(%q : tensor<2x4x3x16xf32>) cache(%kc, %vc : tensor<9x16x2x16xf32>, tensor<9x16x2x8xf32>) pages(%t, %n : tensor<2x5xi64>, tensor<2xi32>) -> tensor<2x4x3x8xf32>
  return %o : tensor<2x4x3x8xf32>
}

// -----

// cache lengths of rank 2.
func.func @f(%q: tensor<2x4x3x16xf32>, %kc: tensor<9x16x2x16xf32>, %vc: tensor<9x16x2x8xf32>, %t: tensor<2x5xi32>, %n: tensor<2x1xi32>) -> (tensor<2x4x3x8xf32>) {
  // expected-error @+1 {{cache_seqlens: expected rank 1, got rank 2 ('tensor<2x1xi32>')}}
  %o = attn.paged_attention ins(%q : tensor<2x4x3x16xf32>) cache(%kc, %vc : tensor<9x16x2x16xf32>, tensor<9x16x2x8xf32>) pages(%t, %n : tensor<2x5xi32>, tensor<2x1xi32>) -> tensor<2x4x3x8xf32>
  return %o : tensor<2x4x3x8xf32>
}

// -----

// cache lengths of another batch.
func.func @f(%q: tensor<2x4x3x16xf32>, %kc: tensor<9x16x2x16xf32>, %vc: tensor<9x16x2x8xf32>, %t: tensor<2x5xi32>, %n: tensor<3xi32>) -> (tensor<2x4x3x8xf32>) {
  // expected-error @+1 {{cache_seqlens: expected dimension 0 (batch) to be 2 (query's batch), got 3}}
  %o = attn.paged_attention ins(%q : tensor<2x4x3x16xf32>) cache(%kc, %vc : tensor<9x16x2x16xf32>, tensor<9x16x2x8xf32>) pages(%t, %n : tensor<2x5xi32>, tensor<3xi32>) -> tensor<2x4x3x8xf32>
  return %o : tensor<2x4x3x8xf32>
}

// -----

// output of another value head dim.
func.func @f(%q: tensor<2x4x3x16xf32>, %kc: tensor<9x16x2x16xf32>, %vc: tensor<9x16x2x8xf32>, %t: tensor<2x5xi32>, %n: tensor<2xi32>) -> (tensor<2x4x3x16xf32>) {
  // expected-error @+1 {{output: expected dimension 3 (value head dim) to be 8 (value's head dim), got 16}}
  %o = attn.paged_attention ins(%q : tensor<2x4x3x16xf32>) cache(%kc, %vc : tensor<9x16x2x16xf32>, tensor<9x16x2x8xf32>) pages(%t, %n : tensor<2x5xi32>, tensor<2xi32>) -> tensor<2x4x3x16xf32>
  return %o : tensor<2x4x3x16xf32>
}

// -----

// an empty page size.
func.func @f(%q: tensor<2x4x3x16xf32>, %kc: tensor<9x0x2x16xf32>, %vc: tensor<9x0x2x8xf32>, %t: tensor<2x5xi32>, %n: tensor<2xi32>) -> (tensor<2x4x3x8xf32>) {
  // expected-error @+1 {{key: expected a page size of at least 1, got 0}}
  %o = attn.paged_attention ins(%q : tensor<2x4x3x16xf32>) cache(%kc, %vc : tensor<9x0x2x16xf32>, tensor<9x0x2x8xf32>) pages(%t, %n : tensor<2x5xi32>, tensor<2xi32>) -> tensor<2x4x3x8xf32>
  return %o : tensor<2x4x3x8xf32>
}

// -----

// no pages.
func.func @f(%q: tensor<2x4x3x16xf32>, %kc: tensor<0x16x2x16xf32>, %vc: tensor<0x16x2x8xf32>, %t: tensor<2x5xi32>, %n: tensor<2xi32>) -> (tensor<2x4x3x8xf32>) {
  // expected-error @+1 {{key: expected at least one page, got 0}}
  %o = attn.paged_attention ins(%q : tensor<2x4x3x16xf32>) cache(%kc, %vc : tensor<0x16x2x16xf32>, tensor<0x16x2x8xf32>) pages(%t, %n : tensor<2x5xi32>, tensor<2xi32>) -> tensor<2x4x3x8xf32>
  return %o : tensor<2x4x3x8xf32>
}

// -----

// lse of rank 2.
func.func @f(%q: tensor<2x4x3x16xf32>, %kc: tensor<9x16x2x16xf32>, %vc: tensor<9x16x2x8xf32>, %t: tensor<2x5xi32>, %n: tensor<2xi32>) -> (tensor<2x4x3x8xf32>, tensor<2x4xf32>) {
  // expected-error @+1 {{lse: expected rank 3 ([batch, query heads, query length]), got rank 2}}
  %o, %l = attn.paged_attention ins(%q : tensor<2x4x3x16xf32>) cache(%kc, %vc : tensor<9x16x2x16xf32>, tensor<9x16x2x8xf32>) pages(%t, %n : tensor<2x5xi32>, tensor<2xi32>) -> tensor<2x4x3x8xf32>, tensor<2x4xf32>
  return %o, %l : tensor<2x4x3x8xf32>, tensor<2x4xf32>
}

// -----

// mixed element types.
func.func @f(%q: tensor<2x4x3x16xf32>, %kc: tensor<9x16x2x16xf16>, %vc: tensor<9x16x2x8xf32>, %t: tensor<2x5xi32>, %n: tensor<2xi32>) -> (tensor<2x4x3x8xf32>) {
  // expected-error @+1 {{key: expected element type 'f32' (query's), got 'f16'}}
  %o = attn.paged_attention ins(%q : tensor<2x4x3x16xf32>) cache(%kc, %vc : tensor<9x16x2x16xf16>, tensor<9x16x2x8xf32>) pages(%t, %n : tensor<2x5xi32>, tensor<2xi32>) -> tensor<2x4x3x8xf32>
  return %o : tensor<2x4x3x8xf32>
}

// -----

// a negative window side.
func.func @f(%q: tensor<2x4x3x16xf32>, %kc: tensor<9x16x2x16xf32>, %vc: tensor<9x16x2x8xf32>, %t: tensor<2x5xi32>, %n: tensor<2xi32>) -> (tensor<2x4x3x8xf32>) {
  // expected-error @+1 {{window: expected left >= 0 (or -1 for unbounded), got -2}}
  %o = attn.paged_attention ins(%q : tensor<2x4x3x16xf32>) cache(%kc, %vc : tensor<9x16x2x16xf32>, tensor<9x16x2x8xf32>) pages(%t, %n : tensor<2x5xi32>, tensor<2xi32>) {window = array<i64: -2, 0>} -> tensor<2x4x3x8xf32>
  return %o : tensor<2x4x3x8xf32>
}

// -----

// a constant cache length beyond the capacity (5 pages x 16).
func.func @f(%q: tensor<2x4x3x16xf32>, %kc: tensor<9x16x2x16xf32>, %vc: tensor<9x16x2x8xf32>, %t: tensor<2x5xi32>, %n: tensor<2xi32>) -> (tensor<2x4x3x8xf32>) {
  %n2 = arith.constant dense<[5, 81]> : tensor<2xi32>
  // expected-error @+1 {{cache_seqlens: expected every length in [0, 80] (max pages per sequence x page size), got 81 for sequence 1}}
  %o = attn.paged_attention ins(%q : tensor<2x4x3x16xf32>) cache(%kc, %vc : tensor<9x16x2x16xf32>, tensor<9x16x2x8xf32>) pages(%t, %n2 : tensor<2x5xi32>, tensor<2xi32>) -> tensor<2x4x3x8xf32>
  return %o : tensor<2x4x3x8xf32>
}

// -----

// a negative constant cache length.
func.func @f(%q: tensor<2x4x3x16xf32>, %kc: tensor<9x16x2x16xf32>, %vc: tensor<9x16x2x8xf32>, %t: tensor<2x5xi32>, %n: tensor<2xi32>) -> (tensor<2x4x3x8xf32>) {
  %n2 = arith.constant dense<[-1, 3]> : tensor<2xi32>
  // expected-error @+1 {{cache_seqlens: expected every length in [0, 80] (max pages per sequence x page size), got -1 for sequence 0}}
  %o = attn.paged_attention ins(%q : tensor<2x4x3x16xf32>) cache(%kc, %vc : tensor<9x16x2x16xf32>, tensor<9x16x2x8xf32>) pages(%t, %n2 : tensor<2x5xi32>, tensor<2xi32>) -> tensor<2x4x3x8xf32>
  return %o : tensor<2x4x3x8xf32>
}

// -----

// A constant table whose used entry is past the cache (sequence 1 has 17
// keys: pages 0 and 1 of its row are read; entry [1, 1] is 9).
func.func @f(%q: tensor<2x4x3x16xf32>, %kc: tensor<9x16x2x16xf32>, %vc: tensor<9x16x2x8xf32>) -> tensor<2x4x3x8xf32> {
  %t = arith.constant dense<[[0, -1, -1, -1, -1], [3, 9, -1, -1, -1]]> : tensor<2x5xi32>
  %n = arith.constant dense<[16, 17]> : tensor<2xi32>
  // expected-error @+1 {{block_table: entry [1, 1] is 9, but sequence 1 reads it (length 17) and the cache has pages [0, 9)}}
  %o = attn.paged_attention ins(%q : tensor<2x4x3x16xf32>) cache(%kc, %vc : tensor<9x16x2x16xf32>, tensor<9x16x2x8xf32>) pages(%t, %n : tensor<2x5xi32>, tensor<2xi32>) -> tensor<2x4x3x8xf32>
  return %o : tensor<2x4x3x8xf32>
}

// -----

// Entries past a sequence's pages are never read: -1 there is valid.
func.func @f(%q: tensor<2x4x3x16xf32>, %kc: tensor<9x16x2x16xf32>, %vc: tensor<9x16x2x8xf32>) -> tensor<2x4x3x8xf32> {
  %t = arith.constant dense<[[0, -1, -1, -1, -1], [3, 8, -1, -1, -1]]> : tensor<2x5xi32>
  %n = arith.constant dense<[0, 32]> : tensor<2xi32>
  %o = attn.paged_attention ins(%q : tensor<2x4x3x16xf32>) cache(%kc, %vc : tensor<9x16x2x16xf32>, tensor<9x16x2x8xf32>) pages(%t, %n : tensor<2x5xi32>, tensor<2xi32>) -> tensor<2x4x3x8xf32>
  return %o : tensor<2x4x3x8xf32>
}

// -----

// An attribute another attn op has but this one does not: rejected, not
// silently ignored (a paged cache has no dropout).
func.func @f(%q: tensor<2x4x1x16xf16>, %kc: tensor<5x8x2x16xf16>, %vc: tensor<5x8x2x16xf16>, %t: tensor<2x3xi32>, %n: tensor<2xi32>) -> tensor<2x4x1x16xf16> {
  // expected-error @+1 {{'dropout_p' is not an attribute of this op}}
  %o = attn.paged_attention ins(%q : tensor<2x4x1x16xf16>) cache(%kc, %vc : tensor<5x8x2x16xf16>, tensor<5x8x2x16xf16>) pages(%t, %n : tensor<2x3xi32>, tensor<2xi32>) {dropout_p = 5.0e-01 : f32} -> tensor<2x4x1x16xf16>
  return %o : tensor<2x4x1x16xf16>
}
