// An explicit dropout keep mask on the GPU: the CUDA-core kernel takes it
// (as bytes, like a boolean mask) after the mask and reads it instead of
// generating Philox bits; the manifest gets a "dropout_mask" field and
// parameter. The tensor-core kernel is not eligible, so --kernel=auto falls
// back to the CUDA-core kernel even for f16 D = 64.
// RUN: attention-opt %s --attn-to-gpu="kernel=cuda-core" | FileCheck %s
// RUN: attn-compile %s -o %t.ptx
// RUN: FileCheck %s --check-prefix=MANIFEST < %t.json
// RUN: not attn-compile %s --kernel=tensor-core -o %t.tc.ptx 2>&1 | FileCheck %s --check-prefix=FORCED

// CHECK: gpu.func @attn_fwd_0(%{{.+}}: memref<8192xf16>, %{{.+}}: memref<8192xf16>, %{{.+}}: memref<8192xf16>, %[[MASK:.+]]: memref<4096xi8>, %[[KEEP:.+]]: memref<128xi8>, %{{.+}}: memref<8192xf16>)
// CHECK-SAME: workgroup(
// CHECK:       memref.load %[[MASK]]
// CHECK:       %[[BYTE:.+]] = memref.load %[[KEEP]]
// CHECK:       arith.cmpi ne, %[[BYTE]]
// CHECK-NOT: gpu.func

// MANIFEST: "dropout_mask": {
// MANIFEST-NEXT: "dtype": "i1",
// MANIFEST-NEXT: "shape": [
// MANIFEST-NEXT: 1,
// MANIFEST-NEXT: 2,
// MANIFEST-NEXT: 1,
// MANIFEST-NEXT: 64
// MANIFEST: "name": "mask"
// MANIFEST: "name": "dropout_mask"
// MANIFEST: "name": "output"

// FORCED: error: 'attn.attention' op GPU code generation: no tensor-core kernel: the op has an explicit dropout_mask (the tensor-core kernel only generates Philox keep bits)
func.func @dropout_mask(%q: tensor<1x2x64x64xf16>, %k: tensor<1x2x64x64xf16>, %v: tensor<1x2x64x64xf16>, %m: tensor<1x1x64x64xi1>, %keep: tensor<1x2x1x64xi1>) -> tensor<1x2x64x64xf16> {
  %o = attn.attention ins(%q, %k, %v : tensor<1x2x64x64xf16>, tensor<1x2x64x64xf16>, tensor<1x2x64x64xf16>) mask(%m : tensor<1x1x64x64xi1>) dropout_mask(%keep : tensor<1x2x1x64xi1>) {dropout_p = 0.25 : f32} -> tensor<1x2x64x64xf16>
  return %o : tensor<1x2x64x64xf16>
}
