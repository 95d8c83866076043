// Front ends run their own elementwise fusion before they hand IR over
// (IREE's --iree-...-fuse, upstream --linalg-fuse-elementwise-ops): the
// scale and bias are then computed again inside the row max and the
// exponential, the normalization inside the P·V contraction, keepdim
// reductions over [.., L, 1, Lk]. attn-raise-pipeline still raises the
// chains of linalg.mlir and tosa.mlir after that fusion (every one but
// those listed as 0), and attn-raise-check proves each raised function equal to
// the fused chain in float64.
// RUN: attention-opt %S/linalg.mlir --linalg-fuse-elementwise-ops -o %t.linalg.mlir
// RUN: attn-raise-check %t.linalg.mlir --runs=1 --seed=3 | FileCheck %s --check-prefix=LINALG --implicit-check-not=FAIL
// RUN: attention-opt %S/tosa.mlir --tosa-to-linalg-pipeline --linalg-fuse-elementwise-ops -o %t.tosa.mlir
// RUN: attn-raise-check %t.tosa.mlir --runs=1 --seed=4 | FileCheck %s --check-prefix=TOSA --implicit-check-not=FAIL

// LINALG: @torch_mha: 1 attn.attention after the raising
// LINALG: @mixed_f16: 1 attn.attention after the raising
// LINALG: @tensor_math: 1 attn.attention after the raising
// LINALG: @gqa_repeat_kv: 1 attn.attention after the raising
// LINALG: @softcap: 1 attn.attention after the raising
// LINALG: @index_window: 1 attn.attention after the raising
// LINALG: @gqa_decode_bf16: 1 attn.attention after the raising
// LINALG: @triu_bias: 1 attn.attention after the raising
// (P narrowed to bf16 inside the fused P·V body is peeled in its narrow
// type.)
// LINALG: @bf16_f32_accumulators: 1 attn.attention after the raising
// LINALG: @fused_recompute: 1 attn.attention after the raising
// LINALG: @f16_scale_then_widened: 1 attn.attention after the raising
// (dropout and P's narrowing fused into P·V's body:)
// LINALG: @f16_dropout_f32_softmax: 1 attn.attention after the raising

// TOSA: @tosa_mha: 1 attn.attention after the raising
// (The log-sum-exp softmax's log is fused with the addition of the max.)
// TOSA: @tosa_lse: 0 attn.attention after the raising
// TOSA: @gqa_tile: 1 attn.attention after the raising
// TOSA: @tosa_arange_causal_large: 1 attn.attention after the raising
// TOSA: @tosa_decode: 1 attn.attention after the raising
