// attn-cpu-run's --lowering: a func.func pipeline runs nested in each
// function, a module pipeline (attn-cpu-pipeline, whose passes need the
// module) on the module; a lowering that leaves an attn op in place is an
// error naming the op and the pipeline, and an unknown pass is an invalid
// pipeline.
// RUN: attn-cpu-run %s --lowering=attn-tile | FileCheck %s --check-prefix=PASS
// RUN: attn-cpu-run %s --lowering=attn-cpu-pipeline | FileCheck %s --check-prefix=PASS
// A pipeline written with its anchor runs as written.
// RUN: attn-cpu-run %s --lowering="func.func(attn-decompose)" | FileCheck %s --check-prefix=PASS
// RUN: attn-cpu-run %s --lowering="builtin.module(func.func(attn-tile))" | FileCheck %s --check-prefix=PASS
// A module pipeline's own option error is the one reported.
// RUN: not attn-cpu-run %s --lowering="attn-cpu-pipeline{chip=sm_70}" 2>&1 | FileCheck %s --check-prefix=OPTION
// RUN: not attn-cpu-run %s --lowering=canonicalize 2>&1 | FileCheck %s --check-prefix=LEFT
// RUN: not attn-cpu-run %s --lowering=attn-to-gpu 2>&1 | FileCheck %s --check-prefix=LEFT-GPU
// RUN: not attn-cpu-run %s --lowering=no-such-pass 2>&1 | FileCheck %s --check-prefix=UNKNOWN

// PASS: all 1 attention op(s) match the float64 reference
// LEFT: lowering-pipelines.mlir:[[@LINE+7]]:12: error: attn-cpu-run: the --lowering pipeline 'canonicalize' left 'attn.attention' in place
// LEFT-GPU: error: attn-cpu-run: the --lowering pipeline 'attn-to-gpu' left 'attn.attention' in place
// UNKNOWN: error: invalid lowering pipeline 'no-such-pass'
// OPTION: error: invalid lowering pipeline 'attn-cpu-pipeline{chip=sm_70}': attn-cpu-pipeline: unknown chip 'sm_70'
func.func @f(%q: tensor<1x2x7x8xf32>, %k: tensor<1x2x13x8xf32>,
             %v: tensor<1x2x13x8xf32>)
    -> (tensor<1x2x7x8xf32>, tensor<1x2x7xf32>) {
  %o, %l = attn.attention ins(%q, %k, %v : tensor<1x2x7x8xf32>, tensor<1x2x13x8xf32>, tensor<1x2x13x8xf32>) {causal = #attn.causal<bottom_right>} -> tensor<1x2x7x8xf32>, tensor<1x2x7xf32>
  return %o, %l : tensor<1x2x7x8xf32>, tensor<1x2x7xf32>
}
