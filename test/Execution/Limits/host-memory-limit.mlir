// attn-cpu-run validates small problems: one that would need more than 8 GiB
// of host memory is refused with the number (issue 17: a dim of 2^31
// aborted in an allocation), and so is a size past the supported limits.
// (Not in test/Execution/CPU: scripts/jax_peer_check.py runs every file
// there and expects attn-cpu-run to succeed.)
// RUN: not attn-cpu-run %s 2>&1 | FileCheck %s

// CHECK: attn-cpu-run: the problem needs about {{[0-9]+}} GiB of host memory, above the 8 GiB the CPU runner allows
func.func @big(%q: tensor<1x16x32768x128xf32>, %k: tensor<1x16x32768x128xf32>, %v: tensor<1x16x32768x128xf32>) -> tensor<1x16x32768x128xf32> {
  %o = attn.attention ins(%q, %k, %v : tensor<1x16x32768x128xf32>, tensor<1x16x32768x128xf32>, tensor<1x16x32768x128xf32>) -> tensor<1x16x32768x128xf32>
  return %o : tensor<1x16x32768x128xf32>
}

// CHECK: attn-cpu-run: operand #0 ('tensor<1x1x2147483648x8xf32>'): dimension 2 is 2147483648, above the supported size 2147483647 (2^31 - 1)
func.func @too_long(%q: tensor<1x1x2147483648x8xf32>, %k: tensor<1x1x4x8xf32>, %v: tensor<1x1x4x8xf32>) -> tensor<1x1x2147483648x8xf32> {
  %o = attn.attention ins(%q, %k, %v : tensor<1x1x2147483648x8xf32>, tensor<1x1x4x8xf32>, tensor<1x1x4x8xf32>) -> tensor<1x1x2147483648x8xf32>
  return %o : tensor<1x1x2147483648x8xf32>
}
