// RUN: attention-opt %s -split-input-file -verify-diagnostics

// One case per verifier rule of attn.attention (and the ODS-generated
// checks of the generic form). Unless a case says otherwise, the shapes are
// B = 2, Hq = 4, Hkv = 2, Lq = 8, Lk = 6, D = 16, Dv = 12. Cases marked "was
// accepted" were let through by an earlier verifier.

// query of rank 3.
func.func @f(%q: tensor<4x8x16xf32>, %k: tensor<2x2x6x16xf32>, %v: tensor<2x2x6x12xf32>) -> (tensor<2x4x8x12xf32>) {
  // expected-error @+1 {{query: expected rank 4, got rank 3 ('tensor<4x8x16xf32>')}}
  %o = attn.attention ins(%q, %k, %v : tensor<4x8x16xf32>, tensor<2x2x6x16xf32>, tensor<2x2x6x12xf32>) -> tensor<2x4x8x12xf32>
  return %o : tensor<2x4x8x12xf32>
}

// -----

// key of rank 5.
func.func @f(%q: tensor<2x4x8x16xf32>, %k: tensor<2x2x6x16x1xf32>, %v: tensor<2x2x6x12xf32>) -> (tensor<2x4x8x12xf32>) {
  // expected-error @+1 {{key: expected rank 4, got rank 5 ('tensor<2x2x6x16x1xf32>')}}
  %o = attn.attention ins(%q, %k, %v : tensor<2x4x8x16xf32>, tensor<2x2x6x16x1xf32>, tensor<2x2x6x12xf32>) -> tensor<2x4x8x12xf32>
  return %o : tensor<2x4x8x12xf32>
}

// -----

// value of rank 3.
func.func @f(%q: tensor<2x4x8x16xf32>, %k: tensor<2x2x6x16xf32>, %v: tensor<2x6x12xf32>) -> (tensor<2x4x8x12xf32>) {
  // expected-error @+1 {{value: expected rank 4, got rank 3 ('tensor<2x6x12xf32>')}}
  %o = attn.attention ins(%q, %k, %v : tensor<2x4x8x16xf32>, tensor<2x2x6x16xf32>, tensor<2x6x12xf32>) -> tensor<2x4x8x12xf32>
  return %o : tensor<2x4x8x12xf32>
}

// -----

// output of rank 3.
func.func @f(%q: tensor<2x4x8x16xf32>, %k: tensor<2x2x6x16xf32>, %v: tensor<2x2x6x12xf32>) -> (tensor<2x8x12xf32>) {
  // expected-error @+1 {{output: expected rank 4, got rank 3 ('tensor<2x8x12xf32>')}}
  %o = attn.attention ins(%q, %k, %v : tensor<2x4x8x16xf32>, tensor<2x2x6x16xf32>, tensor<2x2x6x12xf32>) -> tensor<2x8x12xf32>
  return %o : tensor<2x8x12xf32>
}

// -----

// mask of rank 2.
func.func @f(%q: tensor<2x4x8x16xf32>, %k: tensor<2x2x6x16xf32>, %v: tensor<2x2x6x12xf32>, %m: tensor<8x6xi1>) -> (tensor<2x4x8x12xf32>) {
  // expected-error @+1 {{mask: expected rank 4, got rank 2 ('tensor<8x6xi1>')}}
  %o = attn.attention ins(%q, %k, %v : tensor<2x4x8x16xf32>, tensor<2x2x6x16xf32>, tensor<2x2x6x12xf32>) mask(%m : tensor<8x6xi1>) -> tensor<2x4x8x12xf32>
  return %o : tensor<2x4x8x12xf32>
}

// -----

// lse of rank 4.
func.func @f(%q: tensor<2x4x8x16xf32>, %k: tensor<2x2x6x16xf32>, %v: tensor<2x2x6x12xf32>) -> (tensor<2x4x8x12xf32>, tensor<2x4x8x1xf32>) {
  // expected-error @+1 {{lse: expected rank 3 ([batch, query heads, query length]), got rank 4}}
  %o, %lse = attn.attention ins(%q, %k, %v : tensor<2x4x8x16xf32>, tensor<2x2x6x16xf32>, tensor<2x2x6x12xf32>) -> tensor<2x4x8x12xf32>, tensor<2x4x8x1xf32>
  return %o, %lse : tensor<2x4x8x12xf32>, tensor<2x4x8x1xf32>
}

// -----

// 1-D tensors.
func.func @f(%q: tensor<16xf32>, %k: tensor<16xf32>, %v: tensor<16xf32>) -> (tensor<16xf32>) {
  // expected-error @+1 {{query: expected rank 4, got rank 1 ('tensor<16xf32>')}}
  %o = attn.attention ins(%q, %k, %v : tensor<16xf32>, tensor<16xf32>, tensor<16xf32>) -> tensor<16xf32>
  return %o : tensor<16xf32>
}

// -----

// 0-D tensors.
func.func @f(%q: tensor<f32>, %k: tensor<f32>, %v: tensor<f32>) -> (tensor<f32>) {
  // expected-error @+1 {{query: expected rank 4, got rank 0 ('tensor<f32>')}}
  %o = attn.attention ins(%q, %k, %v : tensor<f32>, tensor<f32>, tensor<f32>) -> tensor<f32>
  return %o : tensor<f32>
}

// -----

// A 1-D key after a valid query.
func.func @f(%q: tensor<2x4x8x16xf32>, %k: tensor<16xf32>, %v: tensor<2x2x6x12xf32>) -> (tensor<2x4x8x12xf32>) {
  // expected-error @+1 {{key: expected rank 4, got rank 1 ('tensor<16xf32>')}}
  %o = attn.attention ins(%q, %k, %v : tensor<2x4x8x16xf32>, tensor<16xf32>, tensor<2x2x6x12xf32>) -> tensor<2x4x8x12xf32>
  return %o : tensor<2x4x8x12xf32>
}

// -----

// Unsupported element type i32.
func.func @f(%q: tensor<2x4x8x16xi32>, %k: tensor<2x2x6x16xi32>, %v: tensor<2x2x6x12xi32>) -> (tensor<2x4x8x12xi32>) {
  // expected-error @+1 {{query: expected element type f16, bf16 or f32, got 'i32'}}
  %o = attn.attention ins(%q, %k, %v : tensor<2x4x8x16xi32>, tensor<2x2x6x16xi32>, tensor<2x2x6x12xi32>) -> tensor<2x4x8x12xi32>
  return %o : tensor<2x4x8x12xi32>
}

// -----

// Unsupported element type f64.
func.func @f(%q: tensor<2x4x8x16xf64>, %k: tensor<2x2x6x16xf64>, %v: tensor<2x2x6x12xf64>) -> (tensor<2x4x8x12xf64>) {
  // expected-error @+1 {{query: expected element type f16, bf16 or f32, got 'f64'}}
  %o = attn.attention ins(%q, %k, %v : tensor<2x4x8x16xf64>, tensor<2x2x6x16xf64>, tensor<2x2x6x12xf64>) -> tensor<2x4x8x12xf64>
  return %o : tensor<2x4x8x12xf64>
}

// -----

// Unsupported element type f8E4M3FN.
func.func @f(%q: tensor<2x4x8x16xf8E4M3FN>, %k: tensor<2x2x6x16xf8E4M3FN>, %v: tensor<2x2x6x12xf8E4M3FN>) -> (tensor<2x4x8x12xf8E4M3FN>) {
  // expected-error @+1 {{query: expected element type f16, bf16 or f32, got 'f8E4M3FN'}}
  %o = attn.attention ins(%q, %k, %v : tensor<2x4x8x16xf8E4M3FN>, tensor<2x2x6x16xf8E4M3FN>, tensor<2x2x6x12xf8E4M3FN>) -> tensor<2x4x8x12xf8E4M3FN>
  return %o : tensor<2x4x8x12xf8E4M3FN>
}

// -----

// key element type differs from query.
func.func @f(%q: tensor<2x4x8x16xf32>, %k: tensor<2x2x6x16xf16>, %v: tensor<2x2x6x12xf32>) -> (tensor<2x4x8x12xf32>) {
  // expected-error @+1 {{key: expected element type 'f32' (query's), got 'f16'}}
  %o = attn.attention ins(%q, %k, %v : tensor<2x4x8x16xf32>, tensor<2x2x6x16xf16>, tensor<2x2x6x12xf32>) -> tensor<2x4x8x12xf32>
  return %o : tensor<2x4x8x12xf32>
}

// -----

// value element type differs from query.
func.func @f(%q: tensor<2x4x8x16xf32>, %k: tensor<2x2x6x16xf32>, %v: tensor<2x2x6x12xbf16>) -> (tensor<2x4x8x12xf32>) {
  // expected-error @+1 {{value: expected element type 'f32' (query's), got 'bf16'}}
  %o = attn.attention ins(%q, %k, %v : tensor<2x4x8x16xf32>, tensor<2x2x6x16xf32>, tensor<2x2x6x12xbf16>) -> tensor<2x4x8x12xf32>
  return %o : tensor<2x4x8x12xf32>
}

// -----

// output element type differs from query (no implicit cast).
func.func @f(%q: tensor<2x4x8x16xf32>, %k: tensor<2x2x6x16xf32>, %v: tensor<2x2x6x12xf32>) -> (tensor<2x4x8x12xf16>) {
  // expected-error @+1 {{output: expected element type 'f32' (query's), got 'f16'}}
  %o = attn.attention ins(%q, %k, %v : tensor<2x4x8x16xf32>, tensor<2x2x6x16xf32>, tensor<2x2x6x12xf32>) -> tensor<2x4x8x12xf16>
  return %o : tensor<2x4x8x12xf16>
}

// -----

// key batch differs from query.
func.func @f(%q: tensor<2x4x8x16xf32>, %k: tensor<3x2x6x16xf32>, %v: tensor<2x2x6x12xf32>) -> (tensor<2x4x8x12xf32>) {
  // expected-error @+1 {{key: expected dimension 0 (batch) to be 2 (query's batch), got 3}}
  %o = attn.attention ins(%q, %k, %v : tensor<2x4x8x16xf32>, tensor<3x2x6x16xf32>, tensor<2x2x6x12xf32>) -> tensor<2x4x8x12xf32>
  return %o : tensor<2x4x8x12xf32>
}

// -----

// value batch differs from query.
func.func @f(%q: tensor<2x4x8x16xf32>, %k: tensor<2x2x6x16xf32>, %v: tensor<3x2x6x12xf32>) -> (tensor<2x4x8x12xf32>) {
  // expected-error @+1 {{value: expected dimension 0 (batch) to be 2 (query's batch), got 3}}
  %o = attn.attention ins(%q, %k, %v : tensor<2x4x8x16xf32>, tensor<2x2x6x16xf32>, tensor<3x2x6x12xf32>) -> tensor<2x4x8x12xf32>
  return %o : tensor<2x4x8x12xf32>
}

// -----

// Key and value batch differ while the query batch is dynamic (was accepted).
func.func @f(%q: tensor<?x4x8x16xf32>, %k: tensor<2x2x6x16xf32>, %v: tensor<3x2x6x12xf32>) -> (tensor<?x4x8x12xf32>) {
  // expected-error @+1 {{value: expected dimension 0 (batch) to be 2 (key's batch), got 3}}
  %o = attn.attention ins(%q, %k, %v : tensor<?x4x8x16xf32>, tensor<2x2x6x16xf32>, tensor<3x2x6x12xf32>) -> tensor<?x4x8x12xf32>
  return %o : tensor<?x4x8x12xf32>
}

// -----

// key head dim differs from query.
func.func @f(%q: tensor<2x4x8x16xf32>, %k: tensor<2x2x6x8xf32>, %v: tensor<2x2x6x12xf32>) -> (tensor<2x4x8x12xf32>) {
  // expected-error @+1 {{key: expected dimension 3 (head dim) to be 16 (query's head dim), got 8}}
  %o = attn.attention ins(%q, %k, %v : tensor<2x4x8x16xf32>, tensor<2x2x6x8xf32>, tensor<2x2x6x12xf32>) -> tensor<2x4x8x12xf32>
  return %o : tensor<2x4x8x12xf32>
}

// -----

// value kv heads differ from key.
func.func @f(%q: tensor<2x4x8x16xf32>, %k: tensor<2x2x6x16xf32>, %v: tensor<2x4x6x12xf32>) -> (tensor<2x4x8x12xf32>) {
  // expected-error @+1 {{value: expected dimension 1 (kv heads) to be 2 (key's kv heads), got 4}}
  %o = attn.attention ins(%q, %k, %v : tensor<2x4x8x16xf32>, tensor<2x2x6x16xf32>, tensor<2x4x6x12xf32>) -> tensor<2x4x8x12xf32>
  return %o : tensor<2x4x8x12xf32>
}

// -----

// value key length differs from key.
func.func @f(%q: tensor<2x4x8x16xf32>, %k: tensor<2x2x6x16xf32>, %v: tensor<2x2x7x12xf32>) -> (tensor<2x4x8x12xf32>) {
  // expected-error @+1 {{value: expected dimension 2 (key length) to be 6 (key's key length), got 7}}
  %o = attn.attention ins(%q, %k, %v : tensor<2x4x8x16xf32>, tensor<2x2x6x16xf32>, tensor<2x2x7x12xf32>) -> tensor<2x4x8x12xf32>
  return %o : tensor<2x4x8x12xf32>
}

// -----

// Query heads not a multiple of kv heads.
func.func @f(%q: tensor<2x4x8x16xf32>, %k: tensor<2x3x6x16xf32>, %v: tensor<2x3x6x12xf32>) -> (tensor<2x4x8x12xf32>) {
  // expected-error @+1 {{query heads (4) must be a multiple of kv heads (3)}}
  %o = attn.attention ins(%q, %k, %v : tensor<2x4x8x16xf32>, tensor<2x3x6x16xf32>, tensor<2x3x6x12xf32>) -> tensor<2x4x8x12xf32>
  return %o : tensor<2x4x8x12xf32>
}

// -----

// Fewer query heads than kv heads.
func.func @f(%q: tensor<2x4x8x16xf32>, %k: tensor<2x8x6x16xf32>, %v: tensor<2x8x6x12xf32>) -> (tensor<2x4x8x12xf32>) {
  // expected-error @+1 {{query heads (4) must be a multiple of kv heads (8)}}
  %o = attn.attention ins(%q, %k, %v : tensor<2x4x8x16xf32>, tensor<2x8x6x16xf32>, tensor<2x8x6x12xf32>) -> tensor<2x4x8x12xf32>
  return %o : tensor<2x4x8x12xf32>
}

// -----

// Query heads from the output when the query's are dynamic (was accepted).
func.func @f(%q: tensor<2x?x8x16xf32>, %k: tensor<2x3x6x16xf32>, %v: tensor<2x3x6x12xf32>) -> (tensor<2x4x8x12xf32>) {
  // expected-error @+1 {{query heads (4) must be a multiple of kv heads (3)}}
  %o = attn.attention ins(%q, %k, %v : tensor<2x?x8x16xf32>, tensor<2x3x6x16xf32>, tensor<2x3x6x12xf32>) -> tensor<2x4x8x12xf32>
  return %o : tensor<2x4x8x12xf32>
}

// -----

// Zero kv heads.
func.func @f(%q: tensor<1x4x4x8xf32>, %k: tensor<1x0x4x8xf32>, %v: tensor<1x0x4x8xf32>) -> (tensor<1x4x4x8xf32>) {
  // expected-error @+1 {{key: expected at least one kv head, got 0}}
  %o = attn.attention ins(%q, %k, %v : tensor<1x4x4x8xf32>, tensor<1x0x4x8xf32>, tensor<1x0x4x8xf32>) -> tensor<1x4x4x8xf32>
  return %o : tensor<1x4x4x8xf32>
}

// -----

// Zero kv heads in value while the key's are dynamic (was accepted).
func.func @f(%q: tensor<1x4x4x8xf32>, %k: tensor<1x?x4x8xf32>, %v: tensor<1x0x4x8xf32>) -> (tensor<1x4x4x8xf32>) {
  // expected-error @+1 {{value: expected at least one kv head, got 0}}
  %o = attn.attention ins(%q, %k, %v : tensor<1x4x4x8xf32>, tensor<1x?x4x8xf32>, tensor<1x0x4x8xf32>) -> tensor<1x4x4x8xf32>
  return %o : tensor<1x4x4x8xf32>
}

// -----

// Zero query heads (was accepted; the decomposition built an affine
// "floordiv 0" head map and the linalg verifier then read garbage).
func.func @f(%q: tensor<1x0x4x8xf32>, %k: tensor<1x2x4x8xf32>, %v: tensor<1x2x4x8xf32>) -> (tensor<1x0x4x8xf32>) {
  // expected-error @+1 {{query: expected at least one query head, got 0}}
  %o = attn.attention ins(%q, %k, %v : tensor<1x0x4x8xf32>, tensor<1x2x4x8xf32>, tensor<1x2x4x8xf32>) -> tensor<1x0x4x8xf32>
  return %o : tensor<1x0x4x8xf32>
}

// -----

// Zero query heads known from the output only.
func.func @f(%q: tensor<1x?x4x8xf32>, %k: tensor<1x2x4x8xf32>, %v: tensor<1x2x4x8xf32>) -> (tensor<1x0x4x8xf32>) {
  // expected-error @+1 {{output: expected at least one query head, got 0}}
  %o = attn.attention ins(%q, %k, %v : tensor<1x?x4x8xf32>, tensor<1x2x4x8xf32>, tensor<1x2x4x8xf32>) -> tensor<1x0x4x8xf32>
  return %o : tensor<1x0x4x8xf32>
}

// -----

// output batch.
func.func @f(%q: tensor<2x4x8x16xf32>, %k: tensor<2x2x6x16xf32>, %v: tensor<2x2x6x12xf32>) -> (tensor<1x4x8x12xf32>) {
  // expected-error @+1 {{output: expected dimension 0 (batch) to be 2 (query's batch), got 1}}
  %o = attn.attention ins(%q, %k, %v : tensor<2x4x8x16xf32>, tensor<2x2x6x16xf32>, tensor<2x2x6x12xf32>) -> tensor<1x4x8x12xf32>
  return %o : tensor<1x4x8x12xf32>
}

// -----

// output heads.
func.func @f(%q: tensor<2x4x8x16xf32>, %k: tensor<2x2x6x16xf32>, %v: tensor<2x2x6x12xf32>) -> (tensor<2x2x8x12xf32>) {
  // expected-error @+1 {{output: expected dimension 1 (query heads) to be 4 (query's heads), got 2}}
  %o = attn.attention ins(%q, %k, %v : tensor<2x4x8x16xf32>, tensor<2x2x6x16xf32>, tensor<2x2x6x12xf32>) -> tensor<2x2x8x12xf32>
  return %o : tensor<2x2x8x12xf32>
}

// -----

// output length.
func.func @f(%q: tensor<2x4x8x16xf32>, %k: tensor<2x2x6x16xf32>, %v: tensor<2x2x6x12xf32>) -> (tensor<2x4x6x12xf32>) {
  // expected-error @+1 {{output: expected dimension 2 (query length) to be 8 (query's length), got 6}}
  %o = attn.attention ins(%q, %k, %v : tensor<2x4x8x16xf32>, tensor<2x2x6x16xf32>, tensor<2x2x6x12xf32>) -> tensor<2x4x6x12xf32>
  return %o : tensor<2x4x6x12xf32>
}

// -----

// output value head dim (D, not Dv).
func.func @f(%q: tensor<2x4x8x16xf32>, %k: tensor<2x2x6x16xf32>, %v: tensor<2x2x6x12xf32>) -> (tensor<2x4x8x16xf32>) {
  // expected-error @+1 {{output: expected dimension 3 (value head dim) to be 12 (value's head dim), got 16}}
  %o = attn.attention ins(%q, %k, %v : tensor<2x4x8x16xf32>, tensor<2x2x6x16xf32>, tensor<2x2x6x12xf32>) -> tensor<2x4x8x16xf32>
  return %o : tensor<2x4x8x16xf32>
}

// -----

// output batch against the key's when query and value are dynamic (was accepted).
func.func @f(%q: tensor<?x4x8x16xf32>, %k: tensor<2x2x6x16xf32>, %v: tensor<?x2x6x12xf32>) -> (tensor<5x4x8x12xf32>) {
  // expected-error @+1 {{output: expected dimension 0 (batch) to be 2 (key's batch), got 5}}
  %o = attn.attention ins(%q, %k, %v : tensor<?x4x8x16xf32>, tensor<2x2x6x16xf32>, tensor<?x2x6x12xf32>) -> tensor<5x4x8x12xf32>
  return %o : tensor<5x4x8x12xf32>
}

// -----

// lse element type.
func.func @f(%q: tensor<2x4x8x16xf32>, %k: tensor<2x2x6x16xf32>, %v: tensor<2x2x6x12xf32>) -> (tensor<2x4x8x12xf32>, tensor<2x4x8xf16>) {
  // expected-error @+1 {{lse: expected element type f32, got 'f16'}}
  %o, %lse = attn.attention ins(%q, %k, %v : tensor<2x4x8x16xf32>, tensor<2x2x6x16xf32>, tensor<2x2x6x12xf32>) -> tensor<2x4x8x12xf32>, tensor<2x4x8xf16>
  return %o, %lse : tensor<2x4x8x12xf32>, tensor<2x4x8xf16>
}

// -----

// lse of rank 2.
func.func @f(%q: tensor<2x4x8x16xf32>, %k: tensor<2x2x6x16xf32>, %v: tensor<2x2x6x12xf32>) -> (tensor<2x4x8x12xf32>, tensor<2x4xf32>) {
  // expected-error @+1 {{lse: expected rank 3 ([batch, query heads, query length]), got rank 2}}
  %o, %lse = attn.attention ins(%q, %k, %v : tensor<2x4x8x16xf32>, tensor<2x2x6x16xf32>, tensor<2x2x6x12xf32>) -> tensor<2x4x8x12xf32>, tensor<2x4xf32>
  return %o, %lse : tensor<2x4x8x12xf32>, tensor<2x4xf32>
}

// -----

// lse batch.
func.func @f(%q: tensor<2x4x8x16xf32>, %k: tensor<2x2x6x16xf32>, %v: tensor<2x2x6x12xf32>) -> (tensor<2x4x8x12xf32>, tensor<1x4x8xf32>) {
  // expected-error @+1 {{lse: expected dimension 0 (batch) to be 2 (query's batch), got 1}}
  %o, %lse = attn.attention ins(%q, %k, %v : tensor<2x4x8x16xf32>, tensor<2x2x6x16xf32>, tensor<2x2x6x12xf32>) -> tensor<2x4x8x12xf32>, tensor<1x4x8xf32>
  return %o, %lse : tensor<2x4x8x12xf32>, tensor<1x4x8xf32>
}

// -----

// lse heads.
func.func @f(%q: tensor<2x4x8x16xf32>, %k: tensor<2x2x6x16xf32>, %v: tensor<2x2x6x12xf32>) -> (tensor<2x4x8x12xf32>, tensor<2x2x8xf32>) {
  // expected-error @+1 {{lse: expected dimension 1 (query heads) to be 4 (query's heads), got 2}}
  %o, %lse = attn.attention ins(%q, %k, %v : tensor<2x4x8x16xf32>, tensor<2x2x6x16xf32>, tensor<2x2x6x12xf32>) -> tensor<2x4x8x12xf32>, tensor<2x2x8xf32>
  return %o, %lse : tensor<2x4x8x12xf32>, tensor<2x2x8xf32>
}

// -----

// lse length.
func.func @f(%q: tensor<2x4x8x16xf32>, %k: tensor<2x2x6x16xf32>, %v: tensor<2x2x6x12xf32>) -> (tensor<2x4x8x12xf32>, tensor<2x4x12xf32>) {
  // expected-error @+1 {{lse: expected dimension 2 (query length) to be 8 (query's length), got 12}}
  %o, %lse = attn.attention ins(%q, %k, %v : tensor<2x4x8x16xf32>, tensor<2x2x6x16xf32>, tensor<2x2x6x12xf32>) -> tensor<2x4x8x12xf32>, tensor<2x4x12xf32>
  return %o, %lse : tensor<2x4x8x12xf32>, tensor<2x4x12xf32>
}

// -----

// lse length against the output's when the query's is dynamic (was accepted).
func.func @f(%q: tensor<2x4x?x16xf32>, %k: tensor<2x2x6x16xf32>, %v: tensor<2x2x6x12xf32>) -> (tensor<2x4x8x12xf32>, tensor<2x4x12xf32>) {
  // expected-error @+1 {{lse: expected dimension 2 (query length) to be 8 (output's length), got 12}}
  %o, %lse = attn.attention ins(%q, %k, %v : tensor<2x4x?x16xf32>, tensor<2x2x6x16xf32>, tensor<2x2x6x12xf32>) -> tensor<2x4x8x12xf32>, tensor<2x4x12xf32>
  return %o, %lse : tensor<2x4x8x12xf32>, tensor<2x4x12xf32>
}

// -----

// mask element type i8.
func.func @f(%q: tensor<2x4x8x16xf32>, %k: tensor<2x2x6x16xf32>, %v: tensor<2x2x6x12xf32>, %m: tensor<2x4x8x6xi8>) -> (tensor<2x4x8x12xf32>) {
  // expected-error @+1 {{mask: expected element type i1 (keep mask) or f16, bf16, f32 (additive bias), got 'i8'}}
  %o = attn.attention ins(%q, %k, %v : tensor<2x4x8x16xf32>, tensor<2x2x6x16xf32>, tensor<2x2x6x12xf32>) mask(%m : tensor<2x4x8x6xi8>) -> tensor<2x4x8x12xf32>
  return %o : tensor<2x4x8x12xf32>
}

// -----

// mask element type f64.
func.func @f(%q: tensor<2x4x8x16xf32>, %k: tensor<2x2x6x16xf32>, %v: tensor<2x2x6x12xf32>, %m: tensor<2x4x8x6xf64>) -> (tensor<2x4x8x12xf32>) {
  // expected-error @+1 {{mask: expected element type i1 (keep mask) or f16, bf16, f32 (additive bias), got 'f64'}}
  %o = attn.attention ins(%q, %k, %v : tensor<2x4x8x16xf32>, tensor<2x2x6x16xf32>, tensor<2x2x6x12xf32>) mask(%m : tensor<2x4x8x6xf64>) -> tensor<2x4x8x12xf32>
  return %o : tensor<2x4x8x12xf32>
}

// -----

// Unsigned i1 mask (was accepted; the decomposition then built an invalid
// arith.andi / arith.select).
func.func @f(%q: tensor<2x4x8x16xf32>, %k: tensor<2x2x6x16xf32>, %v: tensor<2x2x6x12xf32>, %m: tensor<1x1x8x6xui1>) -> (tensor<2x4x8x12xf32>) {
  // expected-error @+1 {{mask: expected element type i1 (keep mask) or f16, bf16, f32 (additive bias), got 'ui1'}}
  %o = attn.attention ins(%q, %k, %v : tensor<2x4x8x16xf32>, tensor<2x2x6x16xf32>, tensor<2x2x6x12xf32>) mask(%m : tensor<1x1x8x6xui1>) {causal = #attn.causal<top_left>} -> tensor<2x4x8x12xf32>
  return %o : tensor<2x4x8x12xf32>
}

// -----

// Signed i1 mask (was accepted).
func.func @f(%q: tensor<2x4x8x16xf32>, %k: tensor<2x2x6x16xf32>, %v: tensor<2x2x6x12xf32>, %m: tensor<1x1x8x6xsi1>) -> (tensor<2x4x8x12xf32>) {
  // expected-error @+1 {{mask: expected element type i1 (keep mask) or f16, bf16, f32 (additive bias), got 'si1'}}
  %o = attn.attention ins(%q, %k, %v : tensor<2x4x8x16xf32>, tensor<2x2x6x16xf32>, tensor<2x2x6x12xf32>) mask(%m : tensor<1x1x8x6xsi1>) -> tensor<2x4x8x12xf32>
  return %o : tensor<2x4x8x12xf32>
}

// -----

// mask batch neither 1 nor B.
func.func @f(%q: tensor<2x4x8x16xf32>, %k: tensor<2x2x6x16xf32>, %v: tensor<2x2x6x12xf32>, %m: tensor<3x4x8x6xi1>) -> (tensor<2x4x8x12xf32>) {
  // expected-error @+1 {{mask: expected dimension 0 (batch) to be 1 or 2, got 3}}
  %o = attn.attention ins(%q, %k, %v : tensor<2x4x8x16xf32>, tensor<2x2x6x16xf32>, tensor<2x2x6x12xf32>) mask(%m : tensor<3x4x8x6xi1>) -> tensor<2x4x8x12xf32>
  return %o : tensor<2x4x8x12xf32>
}

// -----

// mask heads neither 1 nor Hq (Hkv is not enough).
func.func @f(%q: tensor<2x4x8x16xf32>, %k: tensor<2x2x6x16xf32>, %v: tensor<2x2x6x12xf32>, %m: tensor<2x2x8x6xi1>) -> (tensor<2x4x8x12xf32>) {
  // expected-error @+1 {{mask: expected dimension 1 (query heads) to be 1 or 4, got 2}}
  %o = attn.attention ins(%q, %k, %v : tensor<2x4x8x16xf32>, tensor<2x2x6x16xf32>, tensor<2x2x6x12xf32>) mask(%m : tensor<2x2x8x6xi1>) -> tensor<2x4x8x12xf32>
  return %o : tensor<2x4x8x12xf32>
}

// -----

// mask length neither 1 nor Lq.
func.func @f(%q: tensor<2x4x8x16xf32>, %k: tensor<2x2x6x16xf32>, %v: tensor<2x2x6x12xf32>, %m: tensor<1x1x6x6xf16>) -> (tensor<2x4x8x12xf32>) {
  // expected-error @+1 {{mask: expected dimension 2 (query length) to be 1 or 8, got 6}}
  %o = attn.attention ins(%q, %k, %v : tensor<2x4x8x16xf32>, tensor<2x2x6x16xf32>, tensor<2x2x6x12xf32>) mask(%m : tensor<1x1x6x6xf16>) -> tensor<2x4x8x12xf32>
  return %o : tensor<2x4x8x12xf32>
}

// -----

// mask key length neither 1 nor Lk.
func.func @f(%q: tensor<2x4x8x16xf32>, %k: tensor<2x2x6x16xf32>, %v: tensor<2x2x6x12xf32>, %m: tensor<1x1x8x8xf32>) -> (tensor<2x4x8x12xf32>) {
  // expected-error @+1 {{mask: expected dimension 3 (key length) to be 1 or 6, got 8}}
  %o = attn.attention ins(%q, %k, %v : tensor<2x4x8x16xf32>, tensor<2x2x6x16xf32>, tensor<2x2x6x12xf32>) mask(%m : tensor<1x1x8x8xf32>) -> tensor<2x4x8x12xf32>
  return %o : tensor<2x4x8x12xf32>
}

// -----

// mask zero-sized where the full size is not.
func.func @f(%q: tensor<2x4x8x16xf32>, %k: tensor<2x2x6x16xf32>, %v: tensor<2x2x6x12xf32>, %m: tensor<1x1x8x0xi1>) -> (tensor<2x4x8x12xf32>) {
  // expected-error @+1 {{mask: expected dimension 3 (key length) to be 1 or 6, got 0}}
  %o = attn.attention ins(%q, %k, %v : tensor<2x4x8x16xf32>, tensor<2x2x6x16xf32>, tensor<2x2x6x12xf32>) mask(%m : tensor<1x1x8x0xi1>) -> tensor<2x4x8x12xf32>
  return %o : tensor<2x4x8x12xf32>
}

// -----

// mask key length against the value's when the key's is dynamic (was accepted).
func.func @f(%q: tensor<2x4x8x16xf32>, %k: tensor<2x2x?x16xf32>, %v: tensor<2x2x6x12xf32>, %m: tensor<1x1x8x8xi1>) -> (tensor<2x4x8x12xf32>) {
  // expected-error @+1 {{mask: expected dimension 3 (key length) to be 1 or 6, got 8}}
  %o = attn.attention ins(%q, %k, %v : tensor<2x4x8x16xf32>, tensor<2x2x?x16xf32>, tensor<2x2x6x12xf32>) mask(%m : tensor<1x1x8x8xi1>) -> tensor<2x4x8x12xf32>
  return %o : tensor<2x4x8x12xf32>
}

// -----

// A dynamic mask does not hide a static mismatch in another dimension.
func.func @f(%q: tensor<2x4x8x16xf32>, %k: tensor<2x2x6x16xf32>, %v: tensor<2x2x6x12xf32>, %m: tensor<?x?x6x?xi1>) -> (tensor<2x4x8x12xf32>) {
  // expected-error @+1 {{mask: expected dimension 2 (query length) to be 1 or 8, got 6}}
  %o = attn.attention ins(%q, %k, %v : tensor<2x4x8x16xf32>, tensor<2x2x6x16xf32>, tensor<2x2x6x12xf32>) mask(%m : tensor<?x?x6x?xi1>) -> tensor<2x4x8x12xf32>
  return %o : tensor<2x4x8x12xf32>
}

// -----

// Infinite scale.
func.func @f(%q: tensor<2x4x8x16xf32>, %k: tensor<2x2x6x16xf32>, %v: tensor<2x2x6x12xf32>) -> (tensor<2x4x8x12xf32>) {
  // expected-error @+1 {{scale: expected a finite value, got INF}}
  %o = attn.attention ins(%q, %k, %v : tensor<2x4x8x16xf32>, tensor<2x2x6x16xf32>, tensor<2x2x6x12xf32>) {scale = 0x7F800000 : f32} -> tensor<2x4x8x12xf32>
  return %o : tensor<2x4x8x12xf32>
}

// -----

// NaN scale.
func.func @f(%q: tensor<2x4x8x16xf32>, %k: tensor<2x2x6x16xf32>, %v: tensor<2x2x6x12xf32>) -> (tensor<2x4x8x12xf32>) {
  // expected-error @+1 {{scale: expected a finite value, got nan}}
  %o = attn.attention ins(%q, %k, %v : tensor<2x4x8x16xf32>, tensor<2x2x6x16xf32>, tensor<2x2x6x12xf32>) {scale = 0x7FC00000 : f32} -> tensor<2x4x8x12xf32>
  return %o : tensor<2x4x8x12xf32>
}

// -----

// Default scale with a dynamic head dim.
func.func @f(%q: tensor<2x4x8x?xf32>, %k: tensor<2x2x6x?xf32>, %v: tensor<2x2x6x12xf32>) -> (tensor<2x4x8x12xf32>) {
  // expected-error @+1 {{scale: the default 1/sqrt(head dim) needs a static, non-zero head dim (got ?); give `scale` explicitly}}
  %o = attn.attention ins(%q, %k, %v : tensor<2x4x8x?xf32>, tensor<2x2x6x?xf32>, tensor<2x2x6x12xf32>) -> tensor<2x4x8x12xf32>
  return %o : tensor<2x4x8x12xf32>
}

// -----

// Default scale with a dynamic query head dim, even if the key's is static.
func.func @f(%q: tensor<2x4x8x?xf32>, %k: tensor<2x2x6x16xf32>, %v: tensor<2x2x6x12xf32>) -> (tensor<2x4x8x12xf32>) {
  // expected-error @+1 {{scale: the default 1/sqrt(head dim) needs a static, non-zero head dim (got ?); give `scale` explicitly}}
  %o = attn.attention ins(%q, %k, %v : tensor<2x4x8x?xf32>, tensor<2x2x6x16xf32>, tensor<2x2x6x12xf32>) -> tensor<2x4x8x12xf32>
  return %o : tensor<2x4x8x12xf32>
}

// -----

// Default scale with a zero head dim.
func.func @f(%q: tensor<2x4x8x0xf32>, %k: tensor<2x2x6x0xf32>, %v: tensor<2x2x6x12xf32>) -> (tensor<2x4x8x12xf32>) {
  // expected-error @+1 {{scale: the default 1/sqrt(head dim) needs a static, non-zero head dim (got 0); give `scale` explicitly}}
  %o = attn.attention ins(%q, %k, %v : tensor<2x4x8x0xf32>, tensor<2x2x6x0xf32>, tensor<2x2x6x12xf32>) -> tensor<2x4x8x12xf32>
  return %o : tensor<2x4x8x12xf32>
}

// -----

// scale must be an f32 attribute.
func.func @f(%q: tensor<2x4x8x16xf32>, %k: tensor<2x2x6x16xf32>, %v: tensor<2x2x6x12xf32>) -> (tensor<2x4x8x12xf32>) {
  // expected-error @+1 {{attribute 'scale' failed to satisfy constraint: 32-bit float attribute}}
  %o = attn.attention ins(%q, %k, %v : tensor<2x4x8x16xf32>, tensor<2x2x6x16xf32>, tensor<2x2x6x12xf32>) {scale = 0.125 : f64} -> tensor<2x4x8x12xf32>
  return %o : tensor<2x4x8x12xf32>
}

// -----

// window with one entry.
func.func @f(%q: tensor<2x4x8x16xf32>, %k: tensor<2x2x6x16xf32>, %v: tensor<2x2x6x12xf32>) -> (tensor<2x4x8x12xf32>) {
  // expected-error @+1 {{window: expected 2 values [left, right], got 1}}
  %o = attn.attention ins(%q, %k, %v : tensor<2x4x8x16xf32>, tensor<2x2x6x16xf32>, tensor<2x2x6x12xf32>) {window = array<i64: 16>} -> tensor<2x4x8x12xf32>
  return %o : tensor<2x4x8x12xf32>
}

// -----

// window with three entries.
func.func @f(%q: tensor<2x4x8x16xf32>, %k: tensor<2x2x6x16xf32>, %v: tensor<2x2x6x12xf32>) -> (tensor<2x4x8x12xf32>) {
  // expected-error @+1 {{window: expected 2 values [left, right], got 3}}
  %o = attn.attention ins(%q, %k, %v : tensor<2x4x8x16xf32>, tensor<2x2x6x16xf32>, tensor<2x2x6x12xf32>) {window = array<i64: 16, 0, 4>} -> tensor<2x4x8x12xf32>
  return %o : tensor<2x4x8x12xf32>
}

// -----

// Empty window.
func.func @f(%q: tensor<2x4x8x16xf32>, %k: tensor<2x2x6x16xf32>, %v: tensor<2x2x6x12xf32>) -> (tensor<2x4x8x12xf32>) {
  // expected-error @+1 {{window: expected 2 values [left, right], got 0}}
  %o = attn.attention ins(%q, %k, %v : tensor<2x4x8x16xf32>, tensor<2x2x6x16xf32>, tensor<2x2x6x12xf32>) {window = array<i64>} -> tensor<2x4x8x12xf32>
  return %o : tensor<2x4x8x12xf32>
}

// -----

// window left < -1 (crashed: the message read a dangling StringRef and
// aborted with "LLVM ERROR: out of memory").
func.func @f(%q: tensor<2x4x8x16xf32>, %k: tensor<2x2x6x16xf32>, %v: tensor<2x2x6x12xf32>) -> (tensor<2x4x8x12xf32>) {
  // expected-error @+1 {{window: expected left >= 0 (or -1 for unbounded), got -2}}
  %o = attn.attention ins(%q, %k, %v : tensor<2x4x8x16xf32>, tensor<2x2x6x16xf32>, tensor<2x2x6x12xf32>) {window = array<i64: -2, 0>} -> tensor<2x4x8x12xf32>
  return %o : tensor<2x4x8x12xf32>
}

// -----

// window right < -1 (printed an empty or garbage side name, or crashed).
func.func @f(%q: tensor<2x4x8x16xf32>, %k: tensor<2x2x6x16xf32>, %v: tensor<2x2x6x12xf32>) -> (tensor<2x4x8x12xf32>) {
  // expected-error @+1 {{window: expected right >= 0 (or -1 for unbounded), got -9223372036854775808}}
  %o = attn.attention ins(%q, %k, %v : tensor<2x4x8x16xf32>, tensor<2x2x6x16xf32>, tensor<2x2x6x12xf32>) {window = array<i64: 4, -9223372036854775808>} -> tensor<2x4x8x12xf32>
  return %o : tensor<2x4x8x12xf32>
}

// -----

// Zero softcap.
func.func @f(%q: tensor<2x4x8x16xf32>, %k: tensor<2x2x6x16xf32>, %v: tensor<2x2x6x12xf32>) -> (tensor<2x4x8x12xf32>) {
  // expected-error @+1 {{softcap: expected a finite value > 0, got 0.000000e+00}}
  %o = attn.attention ins(%q, %k, %v : tensor<2x4x8x16xf32>, tensor<2x2x6x16xf32>, tensor<2x2x6x12xf32>) {softcap = 0.0 : f32} -> tensor<2x4x8x12xf32>
  return %o : tensor<2x4x8x12xf32>
}

// -----

// Negative zero softcap.
func.func @f(%q: tensor<2x4x8x16xf32>, %k: tensor<2x2x6x16xf32>, %v: tensor<2x2x6x12xf32>) -> (tensor<2x4x8x12xf32>) {
  // expected-error @+1 {{softcap: expected a finite value > 0, got -0.000000e+00}}
  %o = attn.attention ins(%q, %k, %v : tensor<2x4x8x16xf32>, tensor<2x2x6x16xf32>, tensor<2x2x6x12xf32>) {softcap = -0.0 : f32} -> tensor<2x4x8x12xf32>
  return %o : tensor<2x4x8x12xf32>
}

// -----

// Negative softcap.
func.func @f(%q: tensor<2x4x8x16xf32>, %k: tensor<2x2x6x16xf32>, %v: tensor<2x2x6x12xf32>) -> (tensor<2x4x8x12xf32>) {
  // expected-error @+1 {{softcap: expected a finite value > 0, got -3.000000e+01}}
  %o = attn.attention ins(%q, %k, %v : tensor<2x4x8x16xf32>, tensor<2x2x6x16xf32>, tensor<2x2x6x12xf32>) {softcap = -30.0 : f32} -> tensor<2x4x8x12xf32>
  return %o : tensor<2x4x8x12xf32>
}

// -----

// Infinite softcap.
func.func @f(%q: tensor<2x4x8x16xf32>, %k: tensor<2x2x6x16xf32>, %v: tensor<2x2x6x12xf32>) -> (tensor<2x4x8x12xf32>) {
  // expected-error @+1 {{softcap: expected a finite value > 0, got INF}}
  %o = attn.attention ins(%q, %k, %v : tensor<2x4x8x16xf32>, tensor<2x2x6x16xf32>, tensor<2x2x6x12xf32>) {softcap = 0x7F800000 : f32} -> tensor<2x4x8x12xf32>
  return %o : tensor<2x4x8x12xf32>
}

// -----

// NaN softcap.
func.func @f(%q: tensor<2x4x8x16xf32>, %k: tensor<2x2x6x16xf32>, %v: tensor<2x2x6x12xf32>) -> (tensor<2x4x8x12xf32>) {
  // expected-error @+1 {{softcap: expected a finite value > 0, got nan}}
  %o = attn.attention ins(%q, %k, %v : tensor<2x4x8x16xf32>, tensor<2x2x6x16xf32>, tensor<2x2x6x12xf32>) {softcap = 0x7FC00000 : f32} -> tensor<2x4x8x12xf32>
  return %o : tensor<2x4x8x12xf32>
}

// -----

// softcap_approx approximates the softcap's tanh: without a softcap it is an
// error, not ignored.
func.func @f(%q: tensor<2x4x8x16xf32>, %k: tensor<2x2x6x16xf32>, %v: tensor<2x2x6x12xf32>) -> (tensor<2x4x8x12xf32>) {
  // expected-error @+1 {{softcap_approx without softcap: the approximation is of the softcap's tanh}}
  %o = attn.attention ins(%q, %k, %v : tensor<2x4x8x16xf32>, tensor<2x2x6x16xf32>, tensor<2x2x6x12xf32>) {softcap_approx} -> tensor<2x4x8x12xf32>
  return %o : tensor<2x4x8x12xf32>
}

// -----

// Negative dropout_p.
func.func @f(%q: tensor<2x4x8x16xf32>, %k: tensor<2x2x6x16xf32>, %v: tensor<2x2x6x12xf32>, %seed: i64, %offset: i64) -> (tensor<2x4x8x12xf32>) {
  // expected-error @+1 {{dropout_p: expected a value in [0, 1), got -1.000000e-01}}
  %o = attn.attention ins(%q, %k, %v : tensor<2x4x8x16xf32>, tensor<2x2x6x16xf32>, tensor<2x2x6x12xf32>) rng(%seed, %offset) {dropout_p = -0.1 : f32} -> tensor<2x4x8x12xf32>
  return %o : tensor<2x4x8x12xf32>
}

// -----

// dropout_p = 1.
func.func @f(%q: tensor<2x4x8x16xf32>, %k: tensor<2x2x6x16xf32>, %v: tensor<2x2x6x12xf32>, %seed: i64, %offset: i64) -> (tensor<2x4x8x12xf32>) {
  // expected-error @+1 {{dropout_p: expected a value in [0, 1), got 1.000000e+00}}
  %o = attn.attention ins(%q, %k, %v : tensor<2x4x8x16xf32>, tensor<2x2x6x16xf32>, tensor<2x2x6x12xf32>) rng(%seed, %offset) {dropout_p = 1.0 : f32} -> tensor<2x4x8x12xf32>
  return %o : tensor<2x4x8x12xf32>
}

// -----

// dropout_p > 1.
func.func @f(%q: tensor<2x4x8x16xf32>, %k: tensor<2x2x6x16xf32>, %v: tensor<2x2x6x12xf32>, %seed: i64, %offset: i64) -> (tensor<2x4x8x12xf32>) {
  // expected-error @+1 {{dropout_p: expected a value in [0, 1), got 1.500000e+00}}
  %o = attn.attention ins(%q, %k, %v : tensor<2x4x8x16xf32>, tensor<2x2x6x16xf32>, tensor<2x2x6x12xf32>) rng(%seed, %offset) {dropout_p = 1.5 : f32} -> tensor<2x4x8x12xf32>
  return %o : tensor<2x4x8x12xf32>
}

// -----

// NaN dropout_p.
func.func @f(%q: tensor<2x4x8x16xf32>, %k: tensor<2x2x6x16xf32>, %v: tensor<2x2x6x12xf32>, %seed: i64, %offset: i64) -> (tensor<2x4x8x12xf32>) {
  // expected-error @+1 {{dropout_p: expected a value in [0, 1), got nan}}
  %o = attn.attention ins(%q, %k, %v : tensor<2x4x8x16xf32>, tensor<2x2x6x16xf32>, tensor<2x2x6x12xf32>) rng(%seed, %offset) {dropout_p = 0x7FC00000 : f32} -> tensor<2x4x8x12xf32>
  return %o : tensor<2x4x8x12xf32>
}

// -----

// Infinite dropout_p.
func.func @f(%q: tensor<2x4x8x16xf32>, %k: tensor<2x2x6x16xf32>, %v: tensor<2x2x6x12xf32>, %seed: i64, %offset: i64) -> (tensor<2x4x8x12xf32>) {
  // expected-error @+1 {{dropout_p: expected a value in [0, 1), got INF}}
  %o = attn.attention ins(%q, %k, %v : tensor<2x4x8x16xf32>, tensor<2x2x6x16xf32>, tensor<2x2x6x12xf32>) rng(%seed, %offset) {dropout_p = 0x7F800000 : f32} -> tensor<2x4x8x12xf32>
  return %o : tensor<2x4x8x12xf32>
}

// -----

// dropout_p > 0 without rng.
func.func @f(%q: tensor<2x4x8x16xf32>, %k: tensor<2x2x6x16xf32>, %v: tensor<2x2x6x12xf32>) -> (tensor<2x4x8x12xf32>) {
  // expected-error @+1 {{dropout_p = 1.000000e-01 needs the rng(seed, offset) operands}}
  %o = attn.attention ins(%q, %k, %v : tensor<2x4x8x16xf32>, tensor<2x2x6x16xf32>, tensor<2x2x6x12xf32>) {dropout_p = 0.1 : f32} -> tensor<2x4x8x12xf32>
  return %o : tensor<2x4x8x12xf32>
}

// -----

// dropout_p must be an f32 attribute.
func.func @f(%q: tensor<2x4x8x16xf32>, %k: tensor<2x2x6x16xf32>, %v: tensor<2x2x6x12xf32>, %seed: i64, %offset: i64) -> (tensor<2x4x8x12xf32>) {
  // expected-error @+1 {{attribute 'dropout_p' failed to satisfy constraint: 32-bit float attribute}}
  %o = attn.attention ins(%q, %k, %v : tensor<2x4x8x16xf32>, tensor<2x2x6x16xf32>, tensor<2x2x6x12xf32>) rng(%seed, %offset) {dropout_p = 0.1 : f16} -> tensor<2x4x8x12xf32>
  return %o : tensor<2x4x8x12xf32>
}

// -----

// Unknown causal mode.
func.func @f(%q: tensor<2x4x8x16xf32>, %k: tensor<2x2x6x16xf32>, %v: tensor<2x2x6x12xf32>) -> tensor<2x4x8x12xf32> {
  // expected-error @+2 {{expected ::mlir::attn::CausalMode to be one of: none, top_left, bottom_right}}
  // expected-error @+1 {{failed to parse Attn_CausalModeAttr parameter 'value' which is to be a `::mlir::attn::CausalMode`}}
  %o = attn.attention ins(%q, %k, %v : tensor<2x4x8x16xf32>, tensor<2x2x6x16xf32>, tensor<2x2x6x12xf32>) {causal = #attn.causal<diagonal>} -> tensor<2x4x8x12xf32>
  return %o : tensor<2x4x8x12xf32>
}

// -----

// seed without offset (only expressible in the generic form).
func.func @f(%q: tensor<2x4x8x16xf32>, %k: tensor<2x2x6x16xf32>, %v: tensor<2x2x6x12xf32>, %m: tensor<1x1x8x6xi1>, %seed: i64, %offset: i64) -> tensor<2x4x8x12xf32> {
  // expected-error @+1 {{rng: expected both seed and offset}}
  %o = "attn.attention"(%q, %k, %v, %seed) <{operandSegmentSizes = array<i32: 1, 1, 1, 0, 0, 1, 0>}> : (tensor<2x4x8x16xf32>, tensor<2x2x6x16xf32>, tensor<2x2x6x12xf32>, i64) -> tensor<2x4x8x12xf32>
  return %o : tensor<2x4x8x12xf32>
}

// -----

// offset without seed.
func.func @f(%q: tensor<2x4x8x16xf32>, %k: tensor<2x2x6x16xf32>, %v: tensor<2x2x6x12xf32>, %m: tensor<1x1x8x6xi1>, %seed: i64, %offset: i64) -> tensor<2x4x8x12xf32> {
  // expected-error @+1 {{rng: expected both seed and offset}}
  %o = "attn.attention"(%q, %k, %v, %offset) <{operandSegmentSizes = array<i32: 1, 1, 1, 0, 0, 0, 1>}> : (tensor<2x4x8x16xf32>, tensor<2x2x6x16xf32>, tensor<2x2x6x12xf32>, i64) -> tensor<2x4x8x12xf32>
  return %o : tensor<2x4x8x12xf32>
}

// -----

// seed without offset is caught before the dropout rule.
func.func @f(%q: tensor<2x4x8x16xf32>, %k: tensor<2x2x6x16xf32>, %v: tensor<2x2x6x12xf32>, %m: tensor<1x1x8x6xi1>, %seed: i64, %offset: i64) -> tensor<2x4x8x12xf32> {
  // expected-error @+1 {{rng: expected both seed and offset}}
  %o = "attn.attention"(%q, %k, %v, %seed) <{operandSegmentSizes = array<i32: 1, 1, 1, 0, 0, 1, 0>, dropout_p = 0.5 : f32}> : (tensor<2x4x8x16xf32>, tensor<2x2x6x16xf32>, tensor<2x2x6x12xf32>, i64) -> tensor<2x4x8x12xf32>
  return %o : tensor<2x4x8x12xf32>
}

// -----

// Missing operand: the segment sizes promise rng operands.
func.func @f(%q: tensor<2x4x8x16xf32>, %k: tensor<2x2x6x16xf32>, %v: tensor<2x2x6x12xf32>, %m: tensor<1x1x8x6xi1>, %seed: i64, %offset: i64) -> tensor<2x4x8x12xf32> {
  // expected-error @+1 {{operand count (4) does not match with the total size (5) specified in attribute 'operandSegmentSizes'}}
  %o = "attn.attention"(%q, %k, %v, %seed) <{operandSegmentSizes = array<i32: 1, 1, 1, 0, 0, 1, 1>}> : (tensor<2x4x8x16xf32>, tensor<2x2x6x16xf32>, tensor<2x2x6x12xf32>, i64) -> tensor<2x4x8x12xf32>
  return %o : tensor<2x4x8x12xf32>
}

// -----

// Extra operand not covered by the segment sizes.
func.func @f(%q: tensor<2x4x8x16xf32>, %k: tensor<2x2x6x16xf32>, %v: tensor<2x2x6x12xf32>, %m: tensor<1x1x8x6xi1>, %seed: i64, %offset: i64) -> tensor<2x4x8x12xf32> {
  // expected-error @+1 {{operand count (4) does not match with the total size (3) specified in attribute 'operandSegmentSizes'}}
  %o = "attn.attention"(%q, %k, %v, %m) <{operandSegmentSizes = array<i32: 1, 1, 1, 0, 0, 0, 0>}> : (tensor<2x4x8x16xf32>, tensor<2x2x6x16xf32>, tensor<2x2x6x12xf32>, tensor<1x1x8x6xi1>) -> tensor<2x4x8x12xf32>
  return %o : tensor<2x4x8x12xf32>
}

// -----

// Only two operands.
func.func @f(%q: tensor<2x4x8x16xf32>, %k: tensor<2x2x6x16xf32>, %v: tensor<2x2x6x12xf32>, %m: tensor<1x1x8x6xi1>, %seed: i64, %offset: i64) -> tensor<2x4x8x12xf32> {
  // expected-error @+1 {{expected 3 or more operands, but found 2}}
  %o = "attn.attention"(%q, %k) <{operandSegmentSizes = array<i32: 1, 1, 1, 0, 0, 0, 0>}> : (tensor<2x4x8x16xf32>, tensor<2x2x6x16xf32>) -> tensor<2x4x8x12xf32>
  return %o : tensor<2x4x8x12xf32>
}

// -----

// Two operands in an optional group.
func.func @f(%q: tensor<2x4x8x16xf32>, %k: tensor<2x2x6x16xf32>, %v: tensor<2x2x6x12xf32>, %m: tensor<1x1x8x6xi1>, %seed: i64, %offset: i64) -> tensor<2x4x8x12xf32> {
  // expected-error @+1 {{operand group starting at #3 requires 0 or 1 element, but found 2}}
  %o = "attn.attention"(%q, %k, %v, %seed, %offset) <{operandSegmentSizes = array<i32: 1, 1, 1, 0, 0, 2, 0>}> : (tensor<2x4x8x16xf32>, tensor<2x2x6x16xf32>, tensor<2x2x6x12xf32>, i64, i64) -> tensor<2x4x8x12xf32>
  return %o : tensor<2x4x8x12xf32>
}

// -----

// Negative segment size.
func.func @f(%q: tensor<2x4x8x16xf32>, %k: tensor<2x2x6x16xf32>, %v: tensor<2x2x6x12xf32>, %m: tensor<1x1x8x6xi1>, %seed: i64, %offset: i64) -> tensor<2x4x8x12xf32> {
  // expected-error @+1 {{'operandSegmentSizes' attribute cannot have negative elements}}
  %o = "attn.attention"(%q, %k, %v, %seed, %offset) <{operandSegmentSizes = array<i32: 1, 1, 1, -1, 0, 2, 1>}> : (tensor<2x4x8x16xf32>, tensor<2x2x6x16xf32>, tensor<2x2x6x12xf32>, i64, i64) -> tensor<2x4x8x12xf32>
  return %o : tensor<2x4x8x12xf32>
}

// -----

// operandSegmentSizes with 5 entries.
func.func @f(%q: tensor<2x4x8x16xf32>, %k: tensor<2x2x6x16xf32>, %v: tensor<2x2x6x12xf32>, %m: tensor<1x1x8x6xi1>, %seed: i64, %offset: i64) -> tensor<2x4x8x12xf32> {
  // expected-error @+1 {{invalid properties {operandSegmentSizes = array<i32: 1, 1, 1, 0, 0>} for op attn.attention: size mismatch in attribute conversion: 5 vs 7}}
  %o = "attn.attention"(%q, %k, %v) <{operandSegmentSizes = array<i32: 1, 1, 1, 0, 0>}> : (tensor<2x4x8x16xf32>, tensor<2x2x6x16xf32>, tensor<2x2x6x12xf32>) -> tensor<2x4x8x12xf32>
  return %o : tensor<2x4x8x12xf32>
}

// -----

// A seed that is not i64.
func.func @f(%q: tensor<2x4x8x16xf32>, %k: tensor<2x2x6x16xf32>, %v: tensor<2x2x6x12xf32>, %s: i32) -> tensor<2x4x8x12xf32> {
  // expected-error @+1 {{operand #3 must be 64-bit signless integer, but got 'i32'}}
  %o = "attn.attention"(%q, %k, %v, %s, %s) <{operandSegmentSizes = array<i32: 1, 1, 1, 0, 0, 1, 1>}> : (tensor<2x4x8x16xf32>, tensor<2x2x6x16xf32>, tensor<2x2x6x12xf32>, i32, i32) -> tensor<2x4x8x12xf32>
  return %o : tensor<2x4x8x12xf32>
}

// -----

// The key is not a ranked tensor.
func.func @f(%q: tensor<2x4x8x16xf32>, %k: tensor<*xf32>, %v: tensor<2x2x6x12xf32>) -> tensor<2x4x8x12xf32> {
  // expected-error @+1 {{operand #1 must be ranked tensor of any type values, but got 'tensor<*xf32>'}}
  %o = "attn.attention"(%q, %k, %v) <{operandSegmentSizes = array<i32: 1, 1, 1, 0, 0, 0, 0>}> : (tensor<2x4x8x16xf32>, tensor<*xf32>, tensor<2x2x6x12xf32>) -> tensor<2x4x8x12xf32>
  return %o : tensor<2x4x8x12xf32>
}

// -----

// Wrong causal attribute in the generic form.
func.func @f(%q: tensor<2x4x8x16xf32>, %k: tensor<2x2x6x16xf32>, %v: tensor<2x2x6x12xf32>, %m: tensor<1x1x8x6xi1>, %seed: i64, %offset: i64) -> tensor<2x4x8x12xf32> {
  // expected-error @+1 {{invalid properties {causal = 1 : i32, operandSegmentSizes = array<i32: 1, 1, 1, 0, 0, 0, 0>} for op attn.attention: Invalid attribute `causal` in property conversion: 1 : i32}}
  %o = "attn.attention"(%q, %k, %v) <{operandSegmentSizes = array<i32: 1, 1, 1, 0, 0, 0, 0>, causal = 1 : i32}> : (tensor<2x4x8x16xf32>, tensor<2x2x6x16xf32>, tensor<2x2x6x12xf32>) -> tensor<2x4x8x12xf32>
  return %o : tensor<2x4x8x12xf32>
}

// -----

// window given as i32 array in the generic form.
func.func @f(%q: tensor<2x4x8x16xf32>, %k: tensor<2x2x6x16xf32>, %v: tensor<2x2x6x12xf32>, %m: tensor<1x1x8x6xi1>, %seed: i64, %offset: i64) -> tensor<2x4x8x12xf32> {
  // expected-error @+1 {{invalid properties {operandSegmentSizes = array<i32: 1, 1, 1, 0, 0, 0, 0>, window = array<i32: 16, 0>} for op attn.attention: Invalid attribute `window` in property conversion: array<i32: 16, 0>}}
  %o = "attn.attention"(%q, %k, %v) <{operandSegmentSizes = array<i32: 1, 1, 1, 0, 0, 0, 0>, window = array<i32: 16, 0>}> : (tensor<2x4x8x16xf32>, tensor<2x2x6x16xf32>, tensor<2x2x6x12xf32>) -> tensor<2x4x8x12xf32>
  return %o : tensor<2x4x8x12xf32>
}

// -----

// Three results.
func.func @f(%q: tensor<2x4x8x16xf32>, %k: tensor<2x2x6x16xf32>, %v: tensor<2x2x6x12xf32>, %m: tensor<1x1x8x6xi1>, %seed: i64, %offset: i64) -> tensor<2x4x8x12xf32> {
  // expected-error @+1 {{result group starting at #1 requires 0 or 1 element, but found 2}}
  %o:3 = "attn.attention"(%q, %k, %v) <{operandSegmentSizes = array<i32: 1, 1, 1, 0, 0, 0, 0>}> : (tensor<2x4x8x16xf32>, tensor<2x2x6x16xf32>, tensor<2x2x6x12xf32>) -> (tensor<2x4x8x12xf32>, tensor<2x4x8xf32>, tensor<2x4x8xf32>)
  return %o#0 : tensor<2x4x8x12xf32>
}

// -----

// No result.
func.func @f(%q: tensor<2x4x8x16xf32>, %k: tensor<2x2x6x16xf32>, %v: tensor<2x2x6x12xf32>) {
  // expected-error @+1 {{expected 1 or more results}}
  "attn.attention"(%q, %k, %v) <{operandSegmentSizes = array<i32: 1, 1, 1, 0, 0, 0, 0>}> : (tensor<2x4x8x16xf32>, tensor<2x2x6x16xf32>, tensor<2x2x6x12xf32>) -> ()
  return
}

// -----

// window side too large for 64-bit position arithmetic.
func.func @window_too_large(%q: tensor<1x1x8x16xf32>, %k: tensor<1x1x8x16xf32>, %v: tensor<1x1x8x16xf32>) -> tensor<1x1x8x16xf32> {
  // expected-error @+1 {{window: expected right <= 2^62 (use -1 for unbounded), got 9223372036854775000}}
  %o = attn.attention ins(%q, %k, %v : tensor<1x1x8x16xf32>, tensor<1x1x8x16xf32>, tensor<1x1x8x16xf32>) {window = array<i64: 4, 9223372036854775000>} -> tensor<1x1x8x16xf32>
  return %o : tensor<1x1x8x16xf32>
}

// -----

//===-- attn.attention_grad (shares the forward's shape and attribute rules;
//===-- these cases cover what is its own). ------------------------------===//

// grad_output with the wrong query length.
func.func @f(%q: tensor<2x4x8x16xf32>, %k: tensor<2x2x6x16xf32>, %v: tensor<2x2x6x12xf32>, %o: tensor<2x4x8x12xf32>, %lse: tensor<2x4x8xf32>, %do: tensor<2x4x7x12xf32>) {
  // expected-error @+1 {{grad_output: expected dimension 2 (query length) to be 8 (query's length), got 7}}
  %dq, %dk, %dv = attn.attention_grad ins(%q, %k, %v : tensor<2x4x8x16xf32>, tensor<2x2x6x16xf32>, tensor<2x2x6x12xf32>) forward(%o, %lse : tensor<2x4x8x12xf32>, tensor<2x4x8xf32>) grad_output(%do : tensor<2x4x7x12xf32>) -> tensor<2x4x8x16xf32>, tensor<2x2x6x16xf32>, tensor<2x2x6x12xf32>
  return
}

// -----

// grad_output of another element type.
func.func @f(%q: tensor<2x4x8x16xbf16>, %k: tensor<2x2x6x16xbf16>, %v: tensor<2x2x6x12xbf16>, %o: tensor<2x4x8x12xbf16>, %lse: tensor<2x4x8xf32>, %do: tensor<2x4x8x12xf32>) {
  // expected-error @+1 {{grad_output: expected element type 'bf16' (query's), got 'f32'}}
  %dq, %dk, %dv = attn.attention_grad ins(%q, %k, %v : tensor<2x4x8x16xbf16>, tensor<2x2x6x16xbf16>, tensor<2x2x6x12xbf16>) forward(%o, %lse : tensor<2x4x8x12xbf16>, tensor<2x4x8xf32>) grad_output(%do : tensor<2x4x8x12xf32>) -> tensor<2x4x8x16xbf16>, tensor<2x2x6x16xbf16>, tensor<2x2x6x12xbf16>
  return
}

// -----

// lse of the wrong element type.
func.func @f(%q: tensor<2x4x8x16xf32>, %k: tensor<2x2x6x16xf32>, %v: tensor<2x2x6x12xf32>, %o: tensor<2x4x8x12xf32>, %lse: tensor<2x4x8xf16>, %do: tensor<2x4x8x12xf32>) {
  // expected-error @+1 {{lse: expected element type f32, got 'f16'}}
  %dq, %dk, %dv = attn.attention_grad ins(%q, %k, %v : tensor<2x4x8x16xf32>, tensor<2x2x6x16xf32>, tensor<2x2x6x12xf32>) forward(%o, %lse : tensor<2x4x8x12xf32>, tensor<2x4x8xf16>) grad_output(%do : tensor<2x4x8x12xf32>) -> tensor<2x4x8x16xf32>, tensor<2x2x6x16xf32>, tensor<2x2x6x12xf32>
  return
}

// -----

// lse with the wrong number of heads.
func.func @f(%q: tensor<2x4x8x16xf32>, %k: tensor<2x2x6x16xf32>, %v: tensor<2x2x6x12xf32>, %o: tensor<2x4x8x12xf32>, %lse: tensor<2x2x8xf32>, %do: tensor<2x4x8x12xf32>) {
  // expected-error @+1 {{lse: expected dimension 1 (query heads) to be 4 (query's heads), got 2}}
  %dq, %dk, %dv = attn.attention_grad ins(%q, %k, %v : tensor<2x4x8x16xf32>, tensor<2x2x6x16xf32>, tensor<2x2x6x12xf32>) forward(%o, %lse : tensor<2x4x8x12xf32>, tensor<2x2x8xf32>) grad_output(%do : tensor<2x4x8x12xf32>) -> tensor<2x4x8x16xf32>, tensor<2x2x6x16xf32>, tensor<2x2x6x12xf32>
  return
}

// -----

// grad_key shaped like the query heads instead of the kv heads.
func.func @f(%q: tensor<2x4x8x16xf32>, %k: tensor<2x2x6x16xf32>, %v: tensor<2x2x6x12xf32>, %o: tensor<2x4x8x12xf32>, %lse: tensor<2x4x8xf32>, %do: tensor<2x4x8x12xf32>) {
  // expected-error @+1 {{grad_key: expected the type of key ('tensor<2x2x6x16xf32>'), got 'tensor<2x4x6x16xf32>'}}
  %dq, %dk, %dv = attn.attention_grad ins(%q, %k, %v : tensor<2x4x8x16xf32>, tensor<2x2x6x16xf32>, tensor<2x2x6x12xf32>) forward(%o, %lse : tensor<2x4x8x12xf32>, tensor<2x4x8xf32>) grad_output(%do : tensor<2x4x8x12xf32>) -> tensor<2x4x8x16xf32>, tensor<2x4x6x16xf32>, tensor<2x2x6x12xf32>
  return
}

// -----

// grad_query in another element type.
func.func @f(%q: tensor<2x4x8x16xf16>, %k: tensor<2x2x6x16xf16>, %v: tensor<2x2x6x12xf16>, %o: tensor<2x4x8x12xf16>, %lse: tensor<2x4x8xf32>, %do: tensor<2x4x8x12xf16>) {
  // expected-error @+1 {{grad_query: expected the type of query ('tensor<2x4x8x16xf16>'), got 'tensor<2x4x8x16xf32>'}}
  %dq, %dk, %dv = attn.attention_grad ins(%q, %k, %v : tensor<2x4x8x16xf16>, tensor<2x2x6x16xf16>, tensor<2x2x6x12xf16>) forward(%o, %lse : tensor<2x4x8x12xf16>, tensor<2x4x8xf32>) grad_output(%do : tensor<2x4x8x12xf16>) -> tensor<2x4x8x16xf32>, tensor<2x2x6x16xf16>, tensor<2x2x6x12xf16>
  return
}

// -----

// grad_value of the wrong rank.
func.func @f(%q: tensor<2x4x8x16xf32>, %k: tensor<2x2x6x16xf32>, %v: tensor<2x2x6x12xf32>, %o: tensor<2x4x8x12xf32>, %lse: tensor<2x4x8xf32>, %do: tensor<2x4x8x12xf32>) {
  // expected-error @+1 {{grad_value: expected the type of value ('tensor<2x2x6x12xf32>'), got 'tensor<2x2x72xf32>'}}
  %dq, %dk, %dv = attn.attention_grad ins(%q, %k, %v : tensor<2x4x8x16xf32>, tensor<2x2x6x16xf32>, tensor<2x2x6x12xf32>) forward(%o, %lse : tensor<2x4x8x12xf32>, tensor<2x4x8xf32>) grad_output(%do : tensor<2x4x8x12xf32>) -> tensor<2x4x8x16xf32>, tensor<2x2x6x16xf32>, tensor<2x2x72xf32>
  return
}

// -----

// Dropout without rng operands (shared rule, checked for the gradient too).
func.func @f(%q: tensor<2x4x8x16xf32>, %k: tensor<2x2x6x16xf32>, %v: tensor<2x2x6x12xf32>, %o: tensor<2x4x8x12xf32>, %lse: tensor<2x4x8xf32>, %do: tensor<2x4x8x12xf32>) {
  // expected-error @+1 {{dropout_p = 5.000000e-01 needs the rng(seed, offset) operands}}
  %dq, %dk, %dv = attn.attention_grad ins(%q, %k, %v : tensor<2x4x8x16xf32>, tensor<2x2x6x16xf32>, tensor<2x2x6x12xf32>) forward(%o, %lse : tensor<2x4x8x12xf32>, tensor<2x4x8xf32>) grad_output(%do : tensor<2x4x8x12xf32>) {dropout_p = 0.5 : f32} -> tensor<2x4x8x16xf32>, tensor<2x2x6x16xf32>, tensor<2x2x6x12xf32>
  return
}

// -----

// Mask of the wrong key length.
func.func @f(%q: tensor<2x4x8x16xf32>, %k: tensor<2x2x6x16xf32>, %v: tensor<2x2x6x12xf32>, %o: tensor<2x4x8x12xf32>, %lse: tensor<2x4x8xf32>, %do: tensor<2x4x8x12xf32>, %m: tensor<1x1x8x5xi1>) {
  // expected-error @+1 {{mask: expected dimension 3 (key length) to be 1 or 6, got 5}}
  %dq, %dk, %dv = attn.attention_grad ins(%q, %k, %v : tensor<2x4x8x16xf32>, tensor<2x2x6x16xf32>, tensor<2x2x6x12xf32>) forward(%o, %lse : tensor<2x4x8x12xf32>, tensor<2x4x8xf32>) grad_output(%do : tensor<2x4x8x12xf32>) mask(%m : tensor<1x1x8x5xi1>) -> tensor<2x4x8x16xf32>, tensor<2x2x6x16xf32>, tensor<2x2x6x12xf32>
  return
}

// -----

//===-- The explicit dropout keep mask. -----------------------------------===//

// dropout_mask without dropout_p.
func.func @f(%q: tensor<2x4x8x16xf32>, %k: tensor<2x2x6x16xf32>, %v: tensor<2x2x6x12xf32>, %keep: tensor<2x4x8x6xi1>) -> tensor<2x4x8x12xf32> {
  // expected-error @+1 {{dropout_mask needs dropout_p in (0, 1) (the kept values are scaled by 1/(1 - dropout_p)), got 0.000000e+00}}
  %o = attn.attention ins(%q, %k, %v : tensor<2x4x8x16xf32>, tensor<2x2x6x16xf32>, tensor<2x2x6x12xf32>) dropout_mask(%keep : tensor<2x4x8x6xi1>) -> tensor<2x4x8x12xf32>
  return %o : tensor<2x4x8x12xf32>
}

// -----

// dropout_mask together with the Philox rng operands.
func.func @f(%q: tensor<2x4x8x16xf32>, %k: tensor<2x2x6x16xf32>, %v: tensor<2x2x6x12xf32>, %keep: tensor<2x4x8x6xi1>, %seed: i64, %offset: i64) -> tensor<2x4x8x12xf32> {
  // expected-error @+1 {{dropout_mask and rng(seed, offset) are exclusive: the keep mask is either explicit or the Philox stream}}
  %o = attn.attention ins(%q, %k, %v : tensor<2x4x8x16xf32>, tensor<2x2x6x16xf32>, tensor<2x2x6x12xf32>) dropout_mask(%keep : tensor<2x4x8x6xi1>) rng(%seed, %offset) {dropout_p = 0.25 : f32} -> tensor<2x4x8x12xf32>
  return %o : tensor<2x4x8x12xf32>
}

// -----

// A float dropout mask (a 0/1 float tensor must be converted to i1).
func.func @f(%q: tensor<2x4x8x16xf32>, %k: tensor<2x2x6x16xf32>, %v: tensor<2x2x6x12xf32>, %keep: tensor<2x4x8x6xf32>) -> tensor<2x4x8x12xf32> {
  // expected-error @+1 {{dropout_mask: expected element type i1 (true = keep), got 'f32'}}
  %o = attn.attention ins(%q, %k, %v : tensor<2x4x8x16xf32>, tensor<2x2x6x16xf32>, tensor<2x2x6x12xf32>) dropout_mask(%keep : tensor<2x4x8x6xf32>) {dropout_p = 0.25 : f32} -> tensor<2x4x8x12xf32>
  return %o : tensor<2x4x8x12xf32>
}

// -----

// A dropout mask that does not broadcast to [B, Hq, Lq, Lk].
func.func @f(%q: tensor<2x4x8x16xf32>, %k: tensor<2x2x6x16xf32>, %v: tensor<2x2x6x12xf32>, %keep: tensor<1x2x8x6xi1>) -> tensor<2x4x8x12xf32> {
  // expected-error @+1 {{dropout_mask: expected dimension 1 (query heads) to be 1 or 4, got 2}}
  %o = attn.attention ins(%q, %k, %v : tensor<2x4x8x16xf32>, tensor<2x2x6x16xf32>, tensor<2x2x6x12xf32>) dropout_mask(%keep : tensor<1x2x8x6xi1>) {dropout_p = 0.25 : f32} -> tensor<2x4x8x12xf32>
  return %o : tensor<2x4x8x12xf32>
}

// -----

// A dropout mask of the wrong rank.
func.func @f(%q: tensor<2x4x8x16xf32>, %k: tensor<2x2x6x16xf32>, %v: tensor<2x2x6x12xf32>, %keep: tensor<8x6xi1>) -> tensor<2x4x8x12xf32> {
  // expected-error @+1 {{dropout_mask: expected rank 4, got rank 2}}
  %o = attn.attention ins(%q, %k, %v : tensor<2x4x8x16xf32>, tensor<2x2x6x16xf32>, tensor<2x2x6x12xf32>) dropout_mask(%keep : tensor<8x6xi1>) {dropout_p = 0.25 : f32} -> tensor<2x4x8x12xf32>
  return %o : tensor<2x4x8x12xf32>
}

// -----

// The gradient shares the rules: dropout_mask together with rng.
func.func @f(%q: tensor<2x4x8x16xf32>, %k: tensor<2x2x6x16xf32>, %v: tensor<2x2x6x12xf32>, %o: tensor<2x4x8x12xf32>, %lse: tensor<2x4x8xf32>, %do: tensor<2x4x8x12xf32>, %keep: tensor<2x4x8x6xi1>, %seed: i64, %offset: i64) {
  // expected-error @+1 {{dropout_mask and rng(seed, offset) are exclusive}}
  %dq, %dk, %dv = attn.attention_grad ins(%q, %k, %v : tensor<2x4x8x16xf32>, tensor<2x2x6x16xf32>, tensor<2x2x6x12xf32>) forward(%o, %lse : tensor<2x4x8x12xf32>, tensor<2x4x8xf32>) grad_output(%do : tensor<2x4x8x12xf32>) dropout_mask(%keep : tensor<2x4x8x6xi1>) rng(%seed, %offset) {dropout_p = 0.25 : f32} -> tensor<2x4x8x16xf32>, tensor<2x2x6x16xf32>, tensor<2x2x6x12xf32>
  return
}

// -----

// Encoded (e.g. sparse) tensors would be read as dense by every lowering.
#csr = #sparse_tensor.encoding<{ map = (d0, d1, d2, d3) -> (d0 : dense, d1 : dense, d2 : dense, d3 : compressed) }>
func.func @f(%q: tensor<1x2x8x16xf32, #csr>, %k: tensor<1x2x8x16xf32>, %v: tensor<1x2x8x16xf32>) -> tensor<1x2x8x16xf32> {
  // expected-error @+1 {{operand #0: expected a dense tensor without an encoding}}
  %o = attn.attention ins(%q, %k, %v : tensor<1x2x8x16xf32, #csr>, tensor<1x2x8x16xf32>, tensor<1x2x8x16xf32>) -> tensor<1x2x8x16xf32>
  return %o : tensor<1x2x8x16xf32>
}

// -----

// The gradient of an attn.attention must use that op's score attributes:
// another `causal` would recompute probabilities that do not match its lse.
func.func @f(%q: tensor<1x2x8x16xf32>, %k: tensor<1x2x8x16xf32>, %v: tensor<1x2x8x16xf32>, %do: tensor<1x2x8x16xf32>) {
  %o, %lse = attn.attention ins(%q, %k, %v : tensor<1x2x8x16xf32>, tensor<1x2x8x16xf32>, tensor<1x2x8x16xf32>) {causal = #attn.causal<top_left>} -> tensor<1x2x8x16xf32>, tensor<1x2x8xf32>
  // expected-error @+1 {{causal differs from the attn.attention whose output and lse it differentiates (top_left there, none here)}}
  %dq, %dk, %dv = attn.attention_grad ins(%q, %k, %v : tensor<1x2x8x16xf32>, tensor<1x2x8x16xf32>, tensor<1x2x8x16xf32>) forward(%o, %lse : tensor<1x2x8x16xf32>, tensor<1x2x8xf32>) grad_output(%do : tensor<1x2x8x16xf32>) -> tensor<1x2x8x16xf32>, tensor<1x2x8x16xf32>, tensor<1x2x8x16xf32>
  return
}

// -----

// The backward must evaluate the forward's tanh (exact or approximate), or
// its recomputed probabilities do not match the saved lse.
func.func @f(%q: tensor<1x2x8x16xf32>, %k: tensor<1x2x8x16xf32>, %v: tensor<1x2x8x16xf32>, %do: tensor<1x2x8x16xf32>) {
  %o, %lse = attn.attention ins(%q, %k, %v : tensor<1x2x8x16xf32>, tensor<1x2x8x16xf32>, tensor<1x2x8x16xf32>) {softcap = 30.0 : f32, softcap_approx} -> tensor<1x2x8x16xf32>, tensor<1x2x8xf32>
  // expected-error @+1 {{softcap_approx differs from the attn.attention whose output and lse it differentiates (approximate there, exact here)}}
  %dq, %dk, %dv = attn.attention_grad ins(%q, %k, %v : tensor<1x2x8x16xf32>, tensor<1x2x8x16xf32>, tensor<1x2x8x16xf32>) forward(%o, %lse : tensor<1x2x8x16xf32>, tensor<1x2x8xf32>) grad_output(%do : tensor<1x2x8x16xf32>) {softcap = 30.0 : f32} -> tensor<1x2x8x16xf32>, tensor<1x2x8x16xf32>, tensor<1x2x8x16xf32>
  return
}

// -----

func.func @f(%q: tensor<1x2x8x16xf32>, %k: tensor<1x2x8x16xf32>, %v: tensor<1x2x8x16xf32>, %do: tensor<1x2x8x16xf32>) {
  %o, %lse = attn.attention ins(%q, %k, %v : tensor<1x2x8x16xf32>, tensor<1x2x8x16xf32>, tensor<1x2x8x16xf32>) {window = array<i64: 3, 0>} -> tensor<1x2x8x16xf32>, tensor<1x2x8xf32>
  // expected-error @+1 {{window differs from the attn.attention whose output and lse it differentiates ([3, 0] there, [4, 0] here)}}
  %dq, %dk, %dv = attn.attention_grad ins(%q, %k, %v : tensor<1x2x8x16xf32>, tensor<1x2x8x16xf32>, tensor<1x2x8x16xf32>) forward(%o, %lse : tensor<1x2x8x16xf32>, tensor<1x2x8xf32>) grad_output(%do : tensor<1x2x8x16xf32>) {window = array<i64: 4, 0>} -> tensor<1x2x8x16xf32>, tensor<1x2x8x16xf32>, tensor<1x2x8x16xf32>
  return
}

// -----

// A mask of the forward must be the gradient's too: without it the
// recomputed probabilities do not match the saved lse.
func.func @f(%q: tensor<1x2x8x16xf32>, %k: tensor<1x2x8x16xf32>, %v: tensor<1x2x8x16xf32>, %do: tensor<1x2x8x16xf32>, %m: tensor<1x1x8x8xi1>) {
  %o, %lse = attn.attention ins(%q, %k, %v : tensor<1x2x8x16xf32>, tensor<1x2x8x16xf32>, tensor<1x2x8x16xf32>) mask(%m : tensor<1x1x8x8xi1>) -> tensor<1x2x8x16xf32>, tensor<1x2x8xf32>
  // expected-error @+1 {{mask differs from the attn.attention whose output and lse it differentiates (present there, absent here)}}
  %dq, %dk, %dv = attn.attention_grad ins(%q, %k, %v : tensor<1x2x8x16xf32>, tensor<1x2x8x16xf32>, tensor<1x2x8x16xf32>) forward(%o, %lse : tensor<1x2x8x16xf32>, tensor<1x2x8xf32>) grad_output(%do : tensor<1x2x8x16xf32>) -> tensor<1x2x8x16xf32>, tensor<1x2x8x16xf32>, tensor<1x2x8x16xf32>
  return
}

// -----

// Dropout's keep bits come from (seed, offset): constants that differ, or
// the two swapped, draw other bits than the forward did.
func.func @f(%q: tensor<1x2x8x16xf32>, %k: tensor<1x2x8x16xf32>, %v: tensor<1x2x8x16xf32>, %do: tensor<1x2x8x16xf32>) {
  %s = arith.constant 7 : i64
  %t = arith.constant 8 : i64
  %o, %lse = attn.attention ins(%q, %k, %v : tensor<1x2x8x16xf32>, tensor<1x2x8x16xf32>, tensor<1x2x8x16xf32>) rng(%s, %t) {dropout_p = 0.25 : f32} -> tensor<1x2x8x16xf32>, tensor<1x2x8xf32>
  // expected-error @+1 {{seed differs from the attn.attention whose output and lse it differentiates (7 there, 8 here)}}
  %dq, %dk, %dv = attn.attention_grad ins(%q, %k, %v : tensor<1x2x8x16xf32>, tensor<1x2x8x16xf32>, tensor<1x2x8x16xf32>) forward(%o, %lse : tensor<1x2x8x16xf32>, tensor<1x2x8xf32>) grad_output(%do : tensor<1x2x8x16xf32>) rng(%t, %t) {dropout_p = 0.25 : f32} -> tensor<1x2x8x16xf32>, tensor<1x2x8x16xf32>, tensor<1x2x8x16xf32>
  return
}

// -----

func.func @f(%q: tensor<1x2x8x16xf32>, %k: tensor<1x2x8x16xf32>, %v: tensor<1x2x8x16xf32>, %do: tensor<1x2x8x16xf32>, %s: i64, %t: i64) {
  %o, %lse = attn.attention ins(%q, %k, %v : tensor<1x2x8x16xf32>, tensor<1x2x8x16xf32>, tensor<1x2x8x16xf32>) rng(%s, %t) {dropout_p = 0.25 : f32} -> tensor<1x2x8x16xf32>, tensor<1x2x8xf32>
  // expected-error @+1 {{seed and offset are swapped with respect to the attn.attention whose output and lse it differentiates}}
  %dq, %dk, %dv = attn.attention_grad ins(%q, %k, %v : tensor<1x2x8x16xf32>, tensor<1x2x8x16xf32>, tensor<1x2x8x16xf32>) forward(%o, %lse : tensor<1x2x8x16xf32>, tensor<1x2x8xf32>) grad_output(%do : tensor<1x2x8x16xf32>) rng(%t, %s) {dropout_p = 0.25 : f32} -> tensor<1x2x8x16xf32>, tensor<1x2x8x16xf32>, tensor<1x2x8x16xf32>
  return
}

// -----

// A misspelt attribute is an error that suggests the op's own name: it was
// carried as a discardable attribute and the causal mask silently dropped.
func.func @misspelt_causal(%q: tensor<1x2x8x16xf32>, %k: tensor<1x2x8x16xf32>, %v: tensor<1x2x8x16xf32>) -> tensor<1x2x8x16xf32> {
  // expected-error @+1 {{unknown attribute 'casual' (did you mean 'causal'?); docs/semantics.md lists each op's attributes}}
  %o = attn.attention ins(%q, %k, %v : tensor<1x2x8x16xf32>, tensor<1x2x8x16xf32>, tensor<1x2x8x16xf32>) {casual = #attn.causal<top_left>} -> tensor<1x2x8x16xf32>
  return %o : tensor<1x2x8x16xf32>
}

// -----

// Another case of the op's own name, or a longer form of it, is no
// attribute of the op either: an error, not a silently plain attention.
func.func @upper_case_causal(%q: tensor<1x2x8x16xf32>, %k: tensor<1x2x8x16xf32>, %v: tensor<1x2x8x16xf32>) -> tensor<1x2x8x16xf32> {
  // expected-error @+1 {{unknown attribute 'CAUSAL' (did you mean 'causal'?)}}
  %o = attn.attention ins(%q, %k, %v : tensor<1x2x8x16xf32>, tensor<1x2x8x16xf32>, tensor<1x2x8x16xf32>) {CAUSAL = #attn.causal<top_left>} -> tensor<1x2x8x16xf32>
  return %o : tensor<1x2x8x16xf32>
}

// -----

func.func @longer_softcap(%q: tensor<1x2x8x16xf32>, %k: tensor<1x2x8x16xf32>, %v: tensor<1x2x8x16xf32>) -> tensor<1x2x8x16xf32> {
  // expected-error @+1 {{unknown attribute 'softcapping' (did you mean 'softcap'?)}}
  %o = attn.attention ins(%q, %k, %v : tensor<1x2x8x16xf32>, tensor<1x2x8x16xf32>, tensor<1x2x8x16xf32>) {softcapping = 30.0 : f32} -> tensor<1x2x8x16xf32>
  return %o : tensor<1x2x8x16xf32>
}

// -----

// Other frameworks' names are errors that say what to write: they were
// carried as discardable attributes and the op ran without them.
func.func @foreign_is_causal(%q: tensor<1x2x8x16xf32>, %k: tensor<1x2x8x16xf32>, %v: tensor<1x2x8x16xf32>) -> tensor<1x2x8x16xf32> {
  // expected-error @+1 {{unknown attribute 'is_causal': write causal = #attn.causal<top_left> (PyTorch's is_causal is top-left aligned; bottom_right for FlashAttention's causal=True with Lq != Lk); docs/semantics.md lists each op's attributes}}
  %o = attn.attention ins(%q, %k, %v : tensor<1x2x8x16xf32>, tensor<1x2x8x16xf32>, tensor<1x2x8x16xf32>) {is_causal = true} -> tensor<1x2x8x16xf32>
  return %o : tensor<1x2x8x16xf32>
}

// -----

func.func @foreign_window_size(%q: tensor<1x2x8x16xf32>, %k: tensor<1x2x8x16xf32>, %v: tensor<1x2x8x16xf32>) -> tensor<1x2x8x16xf32> {
  // expected-error @+1 {{unknown attribute 'window_size': write window = array<i64: left, right> (FlashAttention's window_size = (left, right); -1 for unbounded)}}
  %o = attn.attention ins(%q, %k, %v : tensor<1x2x8x16xf32>, tensor<1x2x8x16xf32>, tensor<1x2x8x16xf32>) {window_size = array<i64: 1, 0>} -> tensor<1x2x8x16xf32>
  return %o : tensor<1x2x8x16xf32>
}

// -----

func.func @foreign_softmax_scale(%q: tensor<1x2x8x16xf32>, %k: tensor<1x2x8x16xf32>, %v: tensor<1x2x8x16xf32>) -> tensor<1x2x8x16xf32> {
  // expected-error @+1 {{unknown attribute 'Softmax_Scale': write scale = <f32>}}
  %o = attn.attention ins(%q, %k, %v : tensor<1x2x8x16xf32>, tensor<1x2x8x16xf32>, tensor<1x2x8x16xf32>) {Softmax_Scale = 0.1 : f32} -> tensor<1x2x8x16xf32>
  return %o : tensor<1x2x8x16xf32>
}

// -----

func.func @foreign_enable_gqa(%q: tensor<1x4x8x16xf32>, %k: tensor<1x2x8x16xf32>, %v: tensor<1x2x8x16xf32>) -> tensor<1x4x8x16xf32> {
  // expected-error @+1 {{unknown attribute 'enable_gqa': write nothing: grouped-query attention follows from the query and key/value head counts}}
  %o = attn.attention ins(%q, %k, %v : tensor<1x4x8x16xf32>, tensor<1x2x8x16xf32>, tensor<1x2x8x16xf32>) {enable_gqa = true} -> tensor<1x4x8x16xf32>
  return %o : tensor<1x4x8x16xf32>
}

// -----

func.func @misspelt_softcap(%q: tensor<1x2x8x16xf32>, %k: tensor<1x2x8x16xf32>, %v: tensor<1x2x8x16xf32>, %o: tensor<1x2x8x16xf32>, %l: tensor<1x2x8xf32>, %do: tensor<1x2x8x16xf32>) -> tensor<1x2x8x16xf32> {
  // expected-error @+1 {{unknown attribute 'soft_cap' (did you mean 'softcap'?)}}
  %dq, %dk, %dv = attn.attention_grad ins(%q, %k, %v : tensor<1x2x8x16xf32>, tensor<1x2x8x16xf32>, tensor<1x2x8x16xf32>) forward(%o, %l : tensor<1x2x8x16xf32>, tensor<1x2x8xf32>) grad_output(%do : tensor<1x2x8x16xf32>) {soft_cap = 30.0 : f32} -> tensor<1x2x8x16xf32>, tensor<1x2x8x16xf32>, tensor<1x2x8x16xf32>
  return %dq : tensor<1x2x8x16xf32>
}

// -----

// A name far from every attribute of the op is a discardable attribute
// some tool attached (unprefixed ones exist: `lowering_config`), and stays,
// as do prefixed ones.
func.func @unknown_attribute(%q: tensor<1x2x8x16xf32>, %k: tensor<1x2x8x16xf32>, %v: tensor<1x2x8x16xf32>) -> tensor<1x2x8x16xf32> {
  %a = attn.attention ins(%q, %k, %v : tensor<1x2x8x16xf32>, tensor<1x2x8x16xf32>, tensor<1x2x8x16xf32>) {my_dialect.note = "kept"} -> tensor<1x2x8x16xf32>
  // expected-error @+1 {{unknown attribute 'windw' (did you mean 'window'?)}}
  %o = attn.attention ins(%q, %k, %a : tensor<1x2x8x16xf32>, tensor<1x2x8x16xf32>, tensor<1x2x8x16xf32>) {lowering_config = 1 : i32, windw = array<i64: 4, 0>} -> tensor<1x2x8x16xf32>
  return %o : tensor<1x2x8x16xf32>
}
