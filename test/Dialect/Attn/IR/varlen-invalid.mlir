// RUN: attention-opt %s -split-input-file -verify-diagnostics

// One case per verifier rule of the packed variable-length ops. Unless a
// case says otherwise: Tq = 10, Tk = 12, Hq = 4, Hkv = 2, D = 16, Dv = 8,
// B = 3 (4 offsets).

// query of rank 4 (the dense form).
func.func @f(%q: tensor<1x10x4x16xf32>, %k: tensor<12x2x16xf32>, %v: tensor<12x2x8xf32>, %cq: tensor<4xi32>, %ck: tensor<4xi32>) -> tensor<10x4x8xf32> {
  // expected-error @+1 {{query: expected rank 3, got rank 4 ('tensor<1x10x4x16xf32>')}}
  %o = attn.varlen_attention ins(%q, %k, %v : tensor<1x10x4x16xf32>, tensor<12x2x16xf32>, tensor<12x2x8xf32>) seqlens(%cq, %ck : tensor<4xi32>, tensor<4xi32>) -> tensor<10x4x8xf32>
  return %o : tensor<10x4x8xf32>
}

// -----

// key tokens differ from value tokens.
func.func @f(%q: tensor<10x4x16xf32>, %k: tensor<12x2x16xf32>, %v: tensor<11x2x8xf32>, %cq: tensor<4xi32>, %ck: tensor<4xi32>) -> tensor<10x4x8xf32> {
  // expected-error @+1 {{value: expected dimension 0 (key tokens) to be 12 (key's tokens), got 11}}
  %o = attn.varlen_attention ins(%q, %k, %v : tensor<10x4x16xf32>, tensor<12x2x16xf32>, tensor<11x2x8xf32>) seqlens(%cq, %ck : tensor<4xi32>, tensor<4xi32>) -> tensor<10x4x8xf32>
  return %o : tensor<10x4x8xf32>
}

// -----

// query heads not a multiple of kv heads.
func.func @f(%q: tensor<10x3x16xf32>, %k: tensor<12x2x16xf32>, %v: tensor<12x2x8xf32>, %cq: tensor<4xi32>, %ck: tensor<4xi32>) -> tensor<10x3x8xf32> {
  // expected-error @+1 {{query heads (3) must be a multiple of kv heads (2)}}
  %o = attn.varlen_attention ins(%q, %k, %v : tensor<10x3x16xf32>, tensor<12x2x16xf32>, tensor<12x2x8xf32>) seqlens(%cq, %ck : tensor<4xi32>, tensor<4xi32>) -> tensor<10x3x8xf32>
  return %o : tensor<10x3x8xf32>
}

// -----

// output tokens differ from the query's.
func.func @f(%q: tensor<10x4x16xf32>, %k: tensor<12x2x16xf32>, %v: tensor<12x2x8xf32>, %cq: tensor<4xi32>, %ck: tensor<4xi32>) -> tensor<9x4x8xf32> {
  // expected-error @+1 {{output: expected dimension 0 (query tokens) to be 10 (query's tokens), got 9}}
  %o = attn.varlen_attention ins(%q, %k, %v : tensor<10x4x16xf32>, tensor<12x2x16xf32>, tensor<12x2x8xf32>) seqlens(%cq, %ck : tensor<4xi32>, tensor<4xi32>) -> tensor<9x4x8xf32>
  return %o : tensor<9x4x8xf32>
}

// -----

// i64 offsets.
func.func @f(%q: tensor<10x4x16xf32>, %k: tensor<12x2x16xf32>, %v: tensor<12x2x8xf32>, %cq: tensor<4xi64>, %ck: tensor<4xi32>) -> tensor<10x4x8xf32> {
  // expected-error @+1 {{cu_seqlens_q: expected a rank-1 tensor of i32 offsets (batch + 1 entries), got 'tensor<4xi64>'}}
  %o = attn.varlen_attention ins(%q, %k, %v : tensor<10x4x16xf32>, tensor<12x2x16xf32>, tensor<12x2x8xf32>) seqlens(%cq, %ck : tensor<4xi64>, tensor<4xi32>) -> tensor<10x4x8xf32>
  return %o : tensor<10x4x8xf32>
}

// -----

// No offsets at all.
func.func @f(%q: tensor<10x4x16xf32>, %k: tensor<12x2x16xf32>, %v: tensor<12x2x8xf32>, %cq: tensor<0xi32>, %ck: tensor<0xi32>) -> tensor<10x4x8xf32> {
  // expected-error @+1 {{cu_seqlens_q: expected batch + 1 >= 2 offsets (at least one sequence), got 0}}
  %o = attn.varlen_attention ins(%q, %k, %v : tensor<10x4x16xf32>, tensor<12x2x16xf32>, tensor<12x2x8xf32>) seqlens(%cq, %ck : tensor<0xi32>, tensor<0xi32>) -> tensor<10x4x8xf32>
  return %o : tensor<10x4x8xf32>
}

// -----

// Different batch on the two sides.
func.func @f(%q: tensor<10x4x16xf32>, %k: tensor<12x2x16xf32>, %v: tensor<12x2x8xf32>, %cq: tensor<4xi32>, %ck: tensor<3xi32>) -> tensor<10x4x8xf32> {
  // expected-error @+1 {{cu_seqlens_k: expected 4 offsets (batch + 1, as cu_seqlens_q), got 3}}
  %o = attn.varlen_attention ins(%q, %k, %v : tensor<10x4x16xf32>, tensor<12x2x16xf32>, tensor<12x2x8xf32>) seqlens(%cq, %ck : tensor<4xi32>, tensor<3xi32>) -> tensor<10x4x8xf32>
  return %o : tensor<10x4x8xf32>
}

// -----

// Constant offsets that decrease.
func.func @f(%q: tensor<10x4x16xf32>, %k: tensor<12x2x16xf32>, %v: tensor<12x2x8xf32>, %ck: tensor<4xi32>) -> tensor<10x4x8xf32> {
  %cq = arith.constant dense<[0, 6, 4, 10]> : tensor<4xi32>
  // expected-error @+1 {{cu_seqlens_q: offsets must be non-decreasing, but offset 2 (4) is below offset 1 (6)}}
  %o = attn.varlen_attention ins(%q, %k, %v : tensor<10x4x16xf32>, tensor<12x2x16xf32>, tensor<12x2x8xf32>) seqlens(%cq, %ck : tensor<4xi32>, tensor<4xi32>) -> tensor<10x4x8xf32>
  return %o : tensor<10x4x8xf32>
}

// -----

// Constant offsets that do not start at 0.
func.func @f(%q: tensor<10x4x16xf32>, %k: tensor<12x2x16xf32>, %v: tensor<12x2x8xf32>, %cq: tensor<4xi32>) -> tensor<10x4x8xf32> {
  %ck = arith.constant dense<[2, 3, 4, 12]> : tensor<4xi32>
  // expected-error @+1 {{cu_seqlens_k: expected the first offset to be 0, got 2}}
  %o = attn.varlen_attention ins(%q, %k, %v : tensor<10x4x16xf32>, tensor<12x2x16xf32>, tensor<12x2x8xf32>) seqlens(%cq, %ck : tensor<4xi32>, tensor<4xi32>) -> tensor<10x4x8xf32>
  return %o : tensor<10x4x8xf32>
}

// -----

// Constant offsets whose last is not the token total.
func.func @f(%q: tensor<10x4x16xf32>, %k: tensor<12x2x16xf32>, %v: tensor<12x2x8xf32>, %ck: tensor<4xi32>) -> tensor<10x4x8xf32> {
  %cq = arith.constant dense<[0, 3, 4, 9]> : tensor<4xi32>
  // expected-error @+1 {{cu_seqlens_q: expected the last offset to be 10 (query's tokens), got 9}}
  %o = attn.varlen_attention ins(%q, %k, %v : tensor<10x4x16xf32>, tensor<12x2x16xf32>, tensor<12x2x8xf32>) seqlens(%cq, %ck : tensor<4xi32>, tensor<4xi32>) -> tensor<10x4x8xf32>
  return %o : tensor<10x4x8xf32>
}

// -----

// lse in the dense layout.
func.func @f(%q: tensor<10x4x16xf32>, %k: tensor<12x2x16xf32>, %v: tensor<12x2x8xf32>, %cq: tensor<4xi32>, %ck: tensor<4xi32>) -> (tensor<10x4x8xf32>, tensor<1x4x10xf32>) {
  // expected-error @+1 {{lse: expected rank 2 ([query heads, query tokens]), got rank 3}}
  %o, %l = attn.varlen_attention ins(%q, %k, %v : tensor<10x4x16xf32>, tensor<12x2x16xf32>, tensor<12x2x8xf32>) seqlens(%cq, %ck : tensor<4xi32>, tensor<4xi32>) -> tensor<10x4x8xf32>, tensor<1x4x10xf32>
  return %o, %l : tensor<10x4x8xf32>, tensor<1x4x10xf32>
}

// -----

// lse token-major.
func.func @f(%q: tensor<10x4x16xf32>, %k: tensor<12x2x16xf32>, %v: tensor<12x2x8xf32>, %cq: tensor<4xi32>, %ck: tensor<4xi32>) -> (tensor<10x4x8xf32>, tensor<10x4xf32>) {
  // expected-error @+1 {{lse: expected dimension 0 (query heads) to be 4 (query's heads), got 10}}
  %o, %l = attn.varlen_attention ins(%q, %k, %v : tensor<10x4x16xf32>, tensor<12x2x16xf32>, tensor<12x2x8xf32>) seqlens(%cq, %ck : tensor<4xi32>, tensor<4xi32>) -> tensor<10x4x8xf32>, tensor<10x4xf32>
  return %o, %l : tensor<10x4x8xf32>, tensor<10x4xf32>
}

// -----

// Default scale with a dynamic head dim.
func.func @f(%q: tensor<10x4x?xf32>, %k: tensor<12x2x?xf32>, %v: tensor<12x2x8xf32>, %cq: tensor<4xi32>, %ck: tensor<4xi32>) -> tensor<10x4x8xf32> {
  // expected-error @+1 {{scale: the default 1/sqrt(head dim) needs a static, non-zero head dim (got ?); give `scale` explicitly}}
  %o = attn.varlen_attention ins(%q, %k, %v : tensor<10x4x?xf32>, tensor<12x2x?xf32>, tensor<12x2x8xf32>) seqlens(%cq, %ck : tensor<4xi32>, tensor<4xi32>) -> tensor<10x4x8xf32>
  return %o : tensor<10x4x8xf32>
}

// -----

// Dropout without rng.
func.func @f(%q: tensor<10x4x16xf32>, %k: tensor<12x2x16xf32>, %v: tensor<12x2x8xf32>, %cq: tensor<4xi32>, %ck: tensor<4xi32>) -> tensor<10x4x8xf32> {
  // expected-error-re @+1 {{dropout_p = 1.000000e-01 needs the rng(seed, offset) operands{{$}}}}
  %o = attn.varlen_attention ins(%q, %k, %v : tensor<10x4x16xf32>, tensor<12x2x16xf32>, tensor<12x2x8xf32>) seqlens(%cq, %ck : tensor<4xi32>, tensor<4xi32>) {dropout_p = 0.1 : f32} -> tensor<10x4x8xf32>
  return %o : tensor<10x4x8xf32>
}

// -----

// A gradient whose key gradient is not shaped like the key.
func.func @f(%q: tensor<10x4x16xf32>, %k: tensor<12x2x16xf32>, %v: tensor<12x2x8xf32>, %cq: tensor<4xi32>, %ck: tensor<4xi32>, %o: tensor<10x4x8xf32>, %l: tensor<4x10xf32>, %do: tensor<10x4x8xf32>) -> tensor<12x4x16xf32> {
  // expected-error @+1 {{grad_key: expected the type of key ('tensor<12x2x16xf32>'), got 'tensor<12x4x16xf32>'}}
  %dq, %dk, %dv = attn.varlen_attention_grad ins(%q, %k, %v : tensor<10x4x16xf32>, tensor<12x2x16xf32>, tensor<12x2x8xf32>) seqlens(%cq, %ck : tensor<4xi32>, tensor<4xi32>) forward(%o, %l : tensor<10x4x8xf32>, tensor<4x10xf32>) grad_output(%do : tensor<10x4x8xf32>) -> tensor<10x4x16xf32>, tensor<12x4x16xf32>, tensor<12x2x8xf32>
  return %dk : tensor<12x4x16xf32>
}

// -----

// A gradient of a forward with another causal mode.
func.func @f(%q: tensor<10x4x16xf32>, %k: tensor<12x2x16xf32>, %v: tensor<12x2x8xf32>, %cq: tensor<4xi32>, %ck: tensor<4xi32>, %do: tensor<10x4x8xf32>) -> tensor<10x4x16xf32> {
  %o, %l = attn.varlen_attention ins(%q, %k, %v : tensor<10x4x16xf32>, tensor<12x2x16xf32>, tensor<12x2x8xf32>) seqlens(%cq, %ck : tensor<4xi32>, tensor<4xi32>) {causal = #attn.causal<bottom_right>} -> tensor<10x4x8xf32>, tensor<4x10xf32>
  // expected-error @+1 {{causal differs from the attn.varlen_attention whose output and lse it differentiates (bottom_right there, none here)}}
  %dq, %dk, %dv = attn.varlen_attention_grad ins(%q, %k, %v : tensor<10x4x16xf32>, tensor<12x2x16xf32>, tensor<12x2x8xf32>) seqlens(%cq, %ck : tensor<4xi32>, tensor<4xi32>) forward(%o, %l : tensor<10x4x8xf32>, tensor<4x10xf32>) grad_output(%do : tensor<10x4x8xf32>) -> tensor<10x4x16xf32>, tensor<12x2x16xf32>, tensor<12x2x8xf32>
  return %dq : tensor<10x4x16xf32>
}

// -----

// One offset: a batch of no sequences (the verifier asks for at least one).
func.func @f(%q: tensor<10x4x16xf32>, %k: tensor<12x2x16xf32>, %v: tensor<12x2x8xf32>, %cq: tensor<1xi32>, %ck: tensor<1xi32>) -> tensor<10x4x8xf32> {
  // expected-error @+1 {{cu_seqlens_q: expected batch + 1 >= 2 offsets (at least one sequence), got 1}}
  %o = attn.varlen_attention ins(%q, %k, %v : tensor<10x4x16xf32>, tensor<12x2x16xf32>, tensor<12x2x8xf32>) seqlens(%cq, %ck : tensor<1xi32>, tensor<1xi32>) -> tensor<10x4x8xf32>
  return %o : tensor<10x4x8xf32>
}

// -----

// A mask written as an attribute would be kept and ignored: a packed batch
// takes no mask.
func.func @mask_attribute(%q: tensor<22x4x64xbf16>, %k: tensor<29x2x64xbf16>, %v: tensor<29x2x64xbf16>, %cq: tensor<4xi32>, %ck: tensor<4xi32>) -> tensor<22x4x64xbf16> {
  // expected-error @+1 {{unknown attribute 'mask': write the mask(...) operand (attn.attention and attn.attention_grad; a packed batch takes none)}}
  %o, %l = attn.varlen_attention ins(%q, %k, %v : tensor<22x4x64xbf16>, tensor<29x2x64xbf16>, tensor<29x2x64xbf16>) seqlens(%cq, %ck : tensor<4xi32>, tensor<4xi32>) {mask = dense<true> : tensor<1xi1>} -> tensor<22x4x64xbf16>, tensor<4x22xf32>
  return %o : tensor<22x4x64xbf16>
}
