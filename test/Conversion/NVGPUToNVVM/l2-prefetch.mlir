// attn-convert-nvgpu-to-nvvm lowers a 16-byte cp.async that carries
// attn.l2_prefetch_bytes = 128 (the split-KV stage's K/V copies) to
// cp.async.cg with the .L2::128B qualifier, through inline PTX (NVVM's
// cp.async op has no such qualifier): with and without a zero-filling
// source size. Copies without the attribute keep upstream's lowering. The
// PTX assembles (the ptxas test of the split-KV kernels).
// RUN: attention-opt %s --pass-pipeline="builtin.module(gpu.module(attn-convert-nvgpu-to-nvvm{index-bitwidth=32}))" | FileCheck %s

// CHECK-LABEL: gpu.func @copies
// CHECK: %[[DST:.*]] = llvm.ptrtoint %{{.*}} : !llvm.ptr<3> to i64
// CHECK: %[[SRC:.*]] = llvm.ptrtoint %{{.*}} : !llvm.ptr<1> to i64
// CHECK: llvm.inline_asm has_side_effects asm_dialect = att "cp.async.cg.shared.global.L2::128B [$0], [$1], 16;", "l,l" %[[DST]], %[[SRC]] : (i64, i64) -> ()
// The source size in bytes: the elements to read times 2 (f16).
// CHECK: %[[TWO:.*]] = llvm.mlir.constant(2 : i32) : i32
// CHECK: %[[BYTES:.*]] = llvm.mul %{{.*}}, %[[TWO]] : i32
// CHECK: llvm.inline_asm has_side_effects asm_dialect = att "cp.async.cg.shared.global.L2::128B [$0], [$1], 16, $2;", "l,l,r" %{{.*}}, %{{.*}}, %[[BYTES]] : (i64, i64, i32) -> ()
// CHECK: nvvm.cp.async.shared.global {{.*}}, 16, cache = cg
// CHECK-NOT: L2::128B
gpu.module @kernels {
  gpu.func @copies(%src: memref<1024xf16>, %i: index, %n: index) workgroup(%dst: memref<64x8xf16, #gpu.address_space<workgroup>>) kernel {
    %c0 = arith.constant 0 : index
    %a = nvgpu.device_async_copy %src[%i], %dst[%c0, %c0], 8 {bypassL1, attn.l2_prefetch_bytes = 128 : i64} : memref<1024xf16> to memref<64x8xf16, #gpu.address_space<workgroup>>
    %b = nvgpu.device_async_copy %src[%i], %dst[%c0, %c0], 8, %n {bypassL1, attn.l2_prefetch_bytes = 128 : i64} : memref<1024xf16> to memref<64x8xf16, #gpu.address_space<workgroup>>
    %c = nvgpu.device_async_copy %src[%i], %dst[%c0, %c0], 8 {bypassL1} : memref<1024xf16> to memref<64x8xf16, #gpu.address_space<workgroup>>
    %g = nvgpu.device_async_create_group %a, %b, %c
    nvgpu.device_async_wait %g {numGroups = 0 : i32}
    gpu.return
  }
}
