// RUN: attention-opt %s --pass-pipeline='builtin.module(gpu.module(attn-extern-dynamic-shared-memory))' | FileCheck %s

// convert-gpu-to-nvvm's placeholder for gpu.dynamic_shared_memory (a shared
// zero-length byte array) becomes a declaration, which PTX prints as CUDA's
// `extern __shared__`: no static shared memory, so the whole opt-in limit is
// left to the dynamic tiles. Other globals keep their linkage.

// CHECK: llvm.mlir.global external @__dynamic_shmem__0() {addr_space = 3 : i32, alignment = 16 : i64} : !llvm.array<0 x i8>
// CHECK: llvm.mlir.global internal @sized() {addr_space = 3 : i32, alignment = 16 : i64} : !llvm.array<16 x i8>
// CHECK: llvm.mlir.global internal @global_memory() {addr_space = 0 : i32, alignment = 16 : i64} : !llvm.array<0 x i8>
// CHECK: llvm.mlir.global internal @with_value(dense<0> : tensor<4xi8>) {addr_space = 3 : i32} : !llvm.array<4 x i8>
gpu.module @m {
  llvm.mlir.global internal @__dynamic_shmem__0() {addr_space = 3 : i32, alignment = 16 : i64} : !llvm.array<0 x i8>
  llvm.mlir.global internal @sized() {addr_space = 3 : i32, alignment = 16 : i64} : !llvm.array<16 x i8>
  llvm.mlir.global internal @global_memory() {alignment = 16 : i64} : !llvm.array<0 x i8>
  llvm.mlir.global internal @with_value(dense<0> : tensor<4xi8>) {addr_space = 3 : i32} : !llvm.array<4 x i8>
}


// The whole route: test/Target/PTX/ptxas-sm86-sm89.mlir.
