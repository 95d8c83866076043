// The atomic dQ on sm_86 / sm_89 (99 KiB of shared memory a block): where
// 128 keys per block do not fit (D = 128 needs 123392 bytes), the chooser
// takes 64 instead of failing with "use grad-block-kv=64"; sm_80 keeps 128.
// RUN: attn-compile %s --chip=sm_86 --grad-dq=atomic -o %t.sm86.ptx
// RUN: FileCheck %s --check-prefix=KEYS64 < %t.sm86.json
// RUN: ptxas -arch=sm_86 %t.sm86.ptx -o /dev/null
// RUN: attn-compile %s --chip=sm_89 --grad-dq=atomic -o %t.sm89.ptx
// RUN: FileCheck %s --check-prefix=KEYS64 < %t.sm89.json
// RUN: attn-compile %s --chip=sm_80 --grad-dq=atomic -o %t.sm80.ptx
// RUN: FileCheck %s --check-prefix=KEYS128 < %t.sm80.json

// (Each kernel's fields are in name order: block_kv before stage.)
// KEYS64: "stage": "prep"
// KEYS64: "block_kv": 64
// KEYS64-NOT: "stage"
// KEYS64: "stage": "dkdv_dq"

// KEYS128: "stage": "prep"
// KEYS128: "block_kv": 128
// KEYS128-NOT: "stage"
// KEYS128: "stage": "dkdv_dq"

func.func @g(%q: tensor<1x1x64x128xf16>, %k: tensor<1x1x64x128xf16>, %v: tensor<1x1x64x128xf16>, %o: tensor<1x1x64x128xf16>, %l: tensor<1x1x64xf32>, %do: tensor<1x1x64x128xf16>) -> (tensor<1x1x64x128xf16>, tensor<1x1x64x128xf16>, tensor<1x1x64x128xf16>) {
  %dq, %dk, %dv = attn.attention_grad ins(%q, %k, %v : tensor<1x1x64x128xf16>, tensor<1x1x64x128xf16>, tensor<1x1x64x128xf16>) forward(%o, %l : tensor<1x1x64x128xf16>, tensor<1x1x64xf32>) grad_output(%do : tensor<1x1x64x128xf16>) -> tensor<1x1x64x128xf16>, tensor<1x1x64x128xf16>, tensor<1x1x64x128xf16>
  return %dq, %dk, %dv : tensor<1x1x64x128xf16>, tensor<1x1x64x128xf16>, tensor<1x1x64x128xf16>
}
