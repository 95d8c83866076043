// RUN: attention-opt %s -split-input-file -verify-diagnostics \
// RUN:   --pass-pipeline='builtin.module(gpu.module(attn-tensor-map-params))' | FileCheck %s

// The TMA tensor maps marked by the kernel builders (attn.tensor_map_args)
// become 128-byte by-value grid constants, which the NVPTX backend emits as
// `.param .align 64 .b8 name[128]` with `cvta.param` for their address; the
// marker goes away and unmarked arguments keep their attributes.

// CHECK-LABEL: llvm.func @kernel(
// CHECK-SAME: %{{.*}}: !llvm.ptr {llvm.noalias},
// CHECK-SAME: %{{.*}}: !llvm.ptr {llvm.align = 64 : i64, llvm.byval = !llvm.array<128 x i8>, nvvm.grid_constant},
// CHECK-SAME: %{{.*}}: !llvm.ptr {llvm.align = 64 : i64, llvm.byval = !llvm.array<128 x i8>, nvvm.grid_constant})
// CHECK-NOT: attn.tensor_map_args
// CHECK-SAME: nvvm.kernel
// CHECK-LABEL: llvm.func @unmarked(
// CHECK-SAME: %{{.*}}: !llvm.ptr)
gpu.module @m {
  llvm.func @kernel(%out: !llvm.ptr {llvm.noalias}, %q: !llvm.ptr, %k: !llvm.ptr)
      attributes {nvvm.kernel, attn.tensor_map_args = array<i32: 1, 2>} {
    llvm.return
  }
  llvm.func @unmarked(%p: !llvm.ptr) attributes {nvvm.kernel} {
    llvm.return
  }
}

// -----

gpu.module @m {
  // expected-error @+1 {{attn-tensor-map-params: 'attn.tensor_map_args' on a function that is not a kernel (tensor maps are kernel parameters)}}
  llvm.func @device(%q: !llvm.ptr) attributes {attn.tensor_map_args = array<i32: 0>} {
    llvm.return
  }
}

// -----

gpu.module @m {
  // expected-error @+1 {{attn-tensor-map-params: argument index 3 out of range (the kernel has 1 arguments)}}
  llvm.func @kernel(%q: !llvm.ptr) attributes {nvvm.kernel, attn.tensor_map_args = array<i32: 3>} {
    llvm.return
  }
}

// -----

gpu.module @m {
  // expected-error @+1 {{attn-tensor-map-params: argument 0 is a tensor map and must be !llvm.ptr, not '!llvm.ptr<1>'}}
  llvm.func @kernel(%q: !llvm.ptr<1>) attributes {nvvm.kernel, attn.tensor_map_args = array<i32: 0>} {
    llvm.return
  }
}
