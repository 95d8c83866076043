// attn-convert-nvgpu-to-nvvm lowers nvgpu ops with the requested index width,
// so its memref descriptors match convert-gpu-to-nvvm{index-bitwidth=32}.
// RUN: attention-opt %s --pass-pipeline="builtin.module(gpu.module(attn-convert-nvgpu-to-nvvm{index-bitwidth=32}))" | FileCheck %s --check-prefix=I32
// RUN: attention-opt %s --pass-pipeline="builtin.module(gpu.module(attn-convert-nvgpu-to-nvvm))" | FileCheck %s --check-prefix=I64
// Both widths then lower the whole kernel to LLVM without leftover casts.
// RUN: attention-opt %s --pass-pipeline="builtin.module(gpu.module(attn-convert-nvgpu-to-nvvm{index-bitwidth=32},convert-arith-to-llvm{index-bitwidth=32},convert-gpu-to-nvvm{index-bitwidth=32 use-bare-ptr-memref-call-conv=1},reconcile-unrealized-casts))" | FileCheck %s --check-prefix=FULL

// I32-LABEL: gpu.func @copy
// I32: llvm.extractvalue {{.*}} : !llvm.struct<(ptr, ptr, i32, array<1 x i32>, array<1 x i32>)>
// I32: llvm.getelementptr {{.*}} : (!llvm.ptr, i32) -> !llvm.ptr, f16
// I32: nvvm.cp.async.shared.global {{.*}}, 16, cache = cg
// I32: nvvm.cp.async.commit.group
// I32: nvvm.cp.async.wait.group 0
// I32-NOT: nvgpu.
// I64-LABEL: gpu.func @copy
// I64: llvm.extractvalue {{.*}} : !llvm.struct<(ptr, ptr, i64, array<1 x i64>, array<1 x i64>)>
// FULL-LABEL: llvm.func @copy
// FULL-NOT: unrealized_conversion_cast
// FULL: nvvm.cp.async.shared.global
gpu.module @kernels {
  gpu.func @copy(%src: memref<1024xf16>, %i: index) workgroup(%dst: memref<64x8xf16, #gpu.address_space<workgroup>>) kernel {
    %c0 = arith.constant 0 : index
    %t = nvgpu.device_async_copy %src[%i], %dst[%c0, %c0], 8 {bypassL1} : memref<1024xf16> to memref<64x8xf16, #gpu.address_space<workgroup>>
    %g = nvgpu.device_async_create_group %t
    nvgpu.device_async_wait %g {numGroups = 0 : i32}
    gpu.return
  }
}
