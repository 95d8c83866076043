// attn-poison-shared-memory: every kernel fills its shared memory with
// all-ones bytes (NaN in f16/bf16/f32) at entry, then meets at a barrier,
// so that a read of an element the kernel never wrote is NaN on the first
// launch (issue 17). Both forms of shared memory: workgroup attributions
// (the CUDA-core kernels of attn-to-gpu) and dynamic shared memory, sized
// by the attn.dynamic_shared_memory attribute the tensor-core builders set.
// RUN: attention-opt %s -split-input-file --pass-pipeline='builtin.module(attn-to-gpu{kernel=cuda-core}, gpu.module(attn-poison-shared-memory))' -verify-diagnostics | FileCheck %s

// CHECK-LABEL: gpu.func @attn_fwd_0
// CHECK-SAME: workgroup(%[[KS:.+]] : memref<64x64xbf16, #gpu.address_space<workgroup>>, %[[VS:.+]] : memref<64x64xbf16, #gpu.address_space<workgroup>>)
// CHECK:   %[[TID:.+]] = gpu.thread_id x
// CHECK:   %[[NT:.+]] = gpu.block_dim x
// CHECK:   %[[NAN:.+]] = arith.constant 0xFFFF : bf16
// CHECK:   scf.for %{{.+}} = %[[TID]] to %c4096{{.*}} step %[[NT]]
// CHECK:     memref.store %[[NAN]], %[[KS]]
// CHECK:   scf.for %{{.+}} = %[[TID]] to %c4096{{.*}} step %[[NT]]
// CHECK:     memref.store %{{.+}}, %[[VS]]
// CHECK:   gpu.barrier
func.func @cuda_core(%q: tensor<1x2x64x64xbf16>, %k: tensor<1x2x64x64xbf16>, %v: tensor<1x2x64x64xbf16>) -> tensor<1x2x64x64xbf16> {
  %o = attn.attention ins(%q, %k, %v : tensor<1x2x64x64xbf16>, tensor<1x2x64x64xbf16>, tensor<1x2x64x64xbf16>) -> tensor<1x2x64x64xbf16>
  return %o : tensor<1x2x64x64xbf16>
}

// -----

// Dynamic shared memory of 4102 bytes: 1025 words, then 2 tail bytes; a
// kernel that issues wgmma also fences the async proxy before the barrier.
// CHECK-LABEL: gpu.func @dynamic
// CHECK:   %[[RAW:.+]] = gpu.dynamic_shared_memory : memref<?xi8, #gpu.address_space<workgroup>>
// CHECK:   %[[WORDS:.+]] = memref.view %[[RAW]][%{{.+}}][] : memref<?xi8, #gpu.address_space<workgroup>> to memref<1025xi32, #gpu.address_space<workgroup>>
// CHECK:   arith.constant -1 : i32
// CHECK:   scf.for
// CHECK:     memref.store %{{.+}}, %[[WORDS]]
// CHECK:   memref.view %[[RAW]][%{{.+}}][] : memref<?xi8, #gpu.address_space<workgroup>> to memref<2xi8, #gpu.address_space<workgroup>>
// CHECK:   nvvm.fence.proxy {kind = #nvvm.proxy_kind<async.shared>, space = #nvvm.shared_space<cta>}
// CHECK-NEXT: gpu.barrier
// CHECK:   gpu.dynamic_shared_memory
// CHECK:   "wgmma.fence.sync.aligned;"
module attributes {gpu.container_module} {
  gpu.module @kernels {
    gpu.func @dynamic() kernel attributes {attn.dynamic_shared_memory = 4102 : i64} {
      %s = gpu.dynamic_shared_memory : memref<?xi8, #gpu.address_space<workgroup>>
      llvm.inline_asm has_side_effects "wgmma.fence.sync.aligned;", "" : () -> ()
      gpu.return
    }
  }
}

// -----

// Without the size attribute the pass cannot know how much to fill.
module attributes {gpu.container_module} {
  gpu.module @kernels {
    // expected-error @+1 {{uses gpu.dynamic_shared_memory but has no 'attn.dynamic_shared_memory' attribute}}
    gpu.func @unsized() kernel {
      %s = gpu.dynamic_shared_memory : memref<?xi8, #gpu.address_space<workgroup>>
      gpu.return
    }
  }
}
