// The pipeline route and attn-compile produce the same PTX, byte for byte
// (issue 18, step 7): attn-gpu-pipeline with the index width attn-compile
// picks (32 bits for these sizes) against attn-compile's file, on sm_90a
// (wgmma forward, atomic backward group) and sm_80 (mma.sync kernels).
// REQUIRES: libdevice
// RUN: attention-opt %S/gpu-pipeline-kernels.mlir --attn-gpu-pipeline="chip=sm_90a index-bitwidth=32 toolkit=%cuda_toolkit" \
// RUN:   | python3 %S/Inputs/binary-ptx.py > %t.pipeline90.ptx
// RUN: attn-compile %S/gpu-pipeline-kernels.mlir --chip=sm_90a --cuda-path=%cuda_toolkit -o %t.compile90.ptx
// RUN: diff %t.pipeline90.ptx %t.compile90.ptx
// RUN: attention-opt %S/gpu-pipeline-kernels.mlir --attn-gpu-pipeline="chip=sm_80 index-bitwidth=32 toolkit=%cuda_toolkit" \
// RUN:   | python3 %S/Inputs/binary-ptx.py > %t.pipeline80.ptx
// RUN: attn-compile %S/gpu-pipeline-kernels.mlir --chip=sm_80 --cuda-path=%cuda_toolkit -o %t.compile80.ptx
// RUN: diff %t.pipeline80.ptx %t.compile80.ptx
// RUN: FileCheck %s < %t.pipeline90.ptx

// CHECK: .target sm_90a
// CHECK: .entry attn_fwd_0(
// CHECK: wgmma.mma_async
// CHECK: .entry attn_bwd_dkdv_dq_0(
