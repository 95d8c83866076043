// RUN: attention-opt %s -split-input-file -verify-diagnostics | FileCheck %s

// attn.merge_partials prints and parses back, and its verifier: one case
// per rule.

// CHECK-LABEL: func.func @merge
// CHECK: attn.merge_partials ins(%{{.*}}, %{{.*}} : tensor<2x4x32x1x128xf32>, tensor<2x4x32x1xf32>) -> tensor<4x32x1x128xbf16>, tensor<4x32x1xf32>
func.func @merge(%po: tensor<2x4x32x1x128xf32>, %pl: tensor<2x4x32x1xf32>) -> (tensor<4x32x1x128xbf16>, tensor<4x32x1xf32>) {
  %o, %l = attn.merge_partials ins(%po, %pl : tensor<2x4x32x1x128xf32>, tensor<2x4x32x1xf32>)
      -> tensor<4x32x1x128xbf16>, tensor<4x32x1xf32>
  return %o, %l : tensor<4x32x1x128xbf16>, tensor<4x32x1xf32>
}

// -----

// CHECK-LABEL: func.func @dynamic_rows
// CHECK: attn.merge_partials ins(%{{.*}}, %{{.*}} : tensor<3x?x8x64xbf16>, tensor<3x?x8xf32>) -> tensor<?x8x64xf16>
func.func @dynamic_rows(%po: tensor<3x?x8x64xbf16>, %pl: tensor<3x?x8xf32>) -> tensor<?x8x64xf16> {
  %o = attn.merge_partials ins(%po, %pl : tensor<3x?x8x64xbf16>, tensor<3x?x8xf32>) -> tensor<?x8x64xf16>
  return %o : tensor<?x8x64xf16>
}

// -----

func.func @rank2(%po: tensor<2x64xf32>, %pl: tensor<2xf32>) -> tensor<64xf32> {
  // expected-error @+1 {{partial_output: expected rank >= 3 ([S, d..., Dv] with at least one d), got rank 2 ('tensor<2x64xf32>')}}
  %o = attn.merge_partials ins(%po, %pl : tensor<2x64xf32>, tensor<2xf32>) -> tensor<64xf32>
  return %o : tensor<64xf32>
}

// -----

func.func @no_partials(%po: tensor<0x4x64xf32>, %pl: tensor<0x4xf32>) -> tensor<4x64xf32> {
  // expected-error @+1 {{partial_output: expected at least one partial (dimension 0), got 0}}
  %o = attn.merge_partials ins(%po, %pl : tensor<0x4x64xf32>, tensor<0x4xf32>) -> tensor<4x64xf32>
  return %o : tensor<4x64xf32>
}

// -----

func.func @lse_f16(%po: tensor<2x4x64xf32>, %pl: tensor<2x4xf16>) -> tensor<4x64xf32> {
  // expected-error @+1 {{partial_lse: expected element type f32, got 'f16'}}
  %o = attn.merge_partials ins(%po, %pl : tensor<2x4x64xf32>, tensor<2x4xf16>) -> tensor<4x64xf32>
  return %o : tensor<4x64xf32>
}

// -----

func.func @lse_shape(%po: tensor<2x4x64xf32>, %pl: tensor<3x4xf32>) -> tensor<4x64xf32> {
  // expected-error @+1 {{partial_lse: expected dimension 0 to be 2 (partial_output's shape without Dv), got 3}}
  %o = attn.merge_partials ins(%po, %pl : tensor<2x4x64xf32>, tensor<3x4xf32>) -> tensor<4x64xf32>
  return %o : tensor<4x64xf32>
}

// -----

func.func @output_shape(%po: tensor<2x4x64xf32>, %pl: tensor<2x4xf32>) -> tensor<4x32xf32> {
  // expected-error @+1 {{output: expected dimension 1 to be 64 (partial_output's shape without S), got 32}}
  %o = attn.merge_partials ins(%po, %pl : tensor<2x4x64xf32>, tensor<2x4xf32>) -> tensor<4x32xf32>
  return %o : tensor<4x32xf32>
}

// -----

func.func @output_int(%po: tensor<2x4x64xf32>, %pl: tensor<2x4xf32>) -> tensor<4x64xi32> {
  // expected-error @+1 {{output: expected element type f16, bf16 or f32, got 'i32'}}
  %o = attn.merge_partials ins(%po, %pl : tensor<2x4x64xf32>, tensor<2x4xf32>) -> tensor<4x64xi32>
  return %o : tensor<4x64xi32>
}

// -----

func.func @partial_f64(%po: tensor<2x4x64xf64>, %pl: tensor<2x4xf32>) -> tensor<4x64xf32> {
  // expected-error @+1 {{partial_output: expected element type f16, bf16 or f32, got 'f64'}}
  %o = attn.merge_partials ins(%po, %pl : tensor<2x4x64xf64>, tensor<2x4xf32>) -> tensor<4x64xf32>
  return %o : tensor<4x64xf32>
}

// -----

func.func @lse_result(%po: tensor<2x4x64xf32>, %pl: tensor<2x4xf32>) -> (tensor<4x64xf32>, tensor<4x64xf32>) {
  // expected-error @+1 {{lse: expected rank 1 (partial_output's shape without S and Dv), got rank 2 ('tensor<4x64xf32>')}}
  %o, %l = attn.merge_partials ins(%po, %pl : tensor<2x4x64xf32>, tensor<2x4xf32>) -> tensor<4x64xf32>, tensor<4x64xf32>
  return %o, %l : tensor<4x64xf32>, tensor<4x64xf32>
}
