// The IR attn-to-gpu writes reads back in: a packed batch's kernels commit
// cp.async groups whose copies are all inside guards
// (nvvm.cp.async.commit.group; an nvgpu.device_async_create_group without
// operands printed in a form its parser misread), and a second attn-to-gpu
// on that output is an error naming the first run's kernels, not a
// duplicate symbol.
// RUN: attention-opt %s --attn-to-gpu="chip=sm_90a" | attention-opt | FileCheck %s
// RUN: attention-opt %s --attn-to-gpu="chip=sm_90a" | not attention-opt --attn-to-gpu 2>&1 | FileCheck %s --check-prefix=TWICE

// CHECK: gpu.module @attn_kernels
// CHECK: nvvm.cp.async.commit.group
// TWICE: error: attn-to-gpu: the module already holds @attn_kernels, the kernels of an earlier attn-to-gpu run
func.func @one_token(%q: tensor<1x1x8xf16>, %k: tensor<1x1x8xf16>, %v: tensor<1x1x8xf16>, %cq: tensor<2xi32>, %ck: tensor<2xi32>) -> tensor<1x1x8xf16> {
  %o = attn.varlen_attention ins(%q, %k, %v : tensor<1x1x8xf16>, tensor<1x1x8xf16>, tensor<1x1x8xf16>) seqlens(%cq, %ck : tensor<2xi32>, tensor<2xi32>) -> tensor<1x1x8xf16>
  return %o : tensor<1x1x8xf16>
}
