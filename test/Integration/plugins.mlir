// The stock mlir-opt of the LLVM installation (Debian's
// /usr/lib/llvm-22/bin/mlir-opt, not one we build) with our plugins:
// AttnDialectPlugin.so registers the attn dialect, AttnPassPlugin.so the attn
// passes and pipelines, reachable through --pass-pipeline.
// REQUIRES: mlir-opt

// Parse and print through the dialect plugin, and round-trip the output.
// RUN: mlir-opt %s --load-dialect-plugin=%attn_dialect_plugin \
// RUN:   | mlir-opt --load-dialect-plugin=%attn_dialect_plugin \
// RUN:   | FileCheck %s --check-prefix=PRINT

// A pass from the pass plugin.
// RUN: mlir-opt %s --load-dialect-plugin=%attn_dialect_plugin \
// RUN:   --load-pass-plugin=%attn_pass_plugin \
// RUN:   --pass-pipeline='builtin.module(func.func(attn-decompose))' \
// RUN:   | FileCheck %s --check-prefix=DECOMP

// Passes with options, and a named pipeline from the pass plugin.
// RUN: mlir-opt %s --load-dialect-plugin=%attn_dialect_plugin \
// RUN:   --load-pass-plugin=%attn_pass_plugin \
// RUN:   --pass-pipeline='builtin.module(func.func(attn-select-tiles{chip=sm_80},attn-tile{block-q=16 block-kv=16}))' \
// RUN:   | FileCheck %s --check-prefix=TILE
// RUN: mlir-opt %s --load-dialect-plugin=%attn_dialect_plugin \
// RUN:   --load-pass-plugin=%attn_pass_plugin \
// RUN:   --pass-pipeline='builtin.module(attn-cpu-pipeline{lower-to-llvm=false block-q=16 block-kv=16})' \
// RUN:   | FileCheck %s --check-prefix=TILE

// The plugins are what makes mlir-opt know attn: without them it fails.
// RUN: not mlir-opt %s 2>&1 | FileCheck %s --check-prefix=NODIALECT
// RUN: not mlir-opt %s --load-dialect-plugin=%attn_dialect_plugin \
// RUN:   --pass-pipeline='builtin.module(func.func(attn-decompose))' 2>&1 \
// RUN:   | FileCheck %s --check-prefix=NOPASS

// PRINT-LABEL: func.func @causal
// PRINT:       attn.attention ins(%{{.+}}, %{{.+}}, %{{.+}} : tensor<1x2x40x16xf32>, tensor<1x2x40x16xf32>, tensor<1x2x40x16xf32>) {causal = #attn.causal<top_left>} -> tensor<1x2x40x16xf32>, tensor<1x2x40xf32>

// DECOMP-LABEL: func.func @causal
// DECOMP-NOT:   attn.attention
// DECOMP:       linalg.generic
// DECOMP:       math.exp
// DECOMP-NOT:   attn.attention

// TILE-LABEL: func.func @causal
// TILE-NOT:   attn.attention
// TILE:       scf.forall
// TILE:         scf.for
// TILE-SAME:      -> (tensor<16x16xf32>, tensor<16xf32>, tensor<16xf32>)

// NODIALECT: Dialect `attn' not found

// NOPASS: 'attn-decompose' does not refer to a registered pass or pass pipeline

func.func @causal(%q: tensor<1x2x40x16xf32>, %k: tensor<1x2x40x16xf32>, %v: tensor<1x2x40x16xf32>) -> (tensor<1x2x40x16xf32>, tensor<1x2x40xf32>) {
  %o, %l = attn.attention ins(%q, %k, %v : tensor<1x2x40x16xf32>, tensor<1x2x40x16xf32>, tensor<1x2x40x16xf32>) {causal = #attn.causal<top_left>} -> tensor<1x2x40x16xf32>, tensor<1x2x40xf32>
  return %o, %l : tensor<1x2x40x16xf32>, tensor<1x2x40xf32>
}
