// Issue 19's tf32 option: f32 attention on the tensor cores
// (--f32-precision=tf32; docs/semantics.md §2.1). The dense forward for
// D / Dv in {32, 64, 80, 128, 192/128, 256} in three variants (causal GQA
// with lse; softcap + window + an additive f32 key mask; dropout), Lq = Lk
// = 1000 (ragged), is the mma.sync kernel with m16n8k8 tf32 products and
// operands rounded by cvt.rna.tf32.f32, on sm_90a (wgmma does not take f32)
// and on sm_80, where D = 256's 4-byte tiles exceed the shared memory and
// keep the exact CUDA-core kernel with a remark. Every kernel assembles
// with ptxas without spilling. The default (ieee) keeps every f32 op on the
// CUDA-core kernel. Needs only the CUDA toolkit.
// REQUIRES: ptxas
// RUN: attn-compile %s --chip=sm_90a --f32-precision=tf32 -o %t.sm90.ptx | FileCheck %s --check-prefix=COMPILE90
// RUN: ptxas -arch=sm_90a -v %t.sm90.ptx -o %t.sm90.cubin 2>&1 | FileCheck %s
// RUN: FileCheck %s --check-prefix=KIND90 < %t.sm90.json
// RUN: FileCheck %s --check-prefix=PTX < %t.sm90.ptx
// RUN: attn-compile %s --chip=sm_80 --f32-precision=tf32 -o %t.sm80.ptx 2>&1 | FileCheck %s --check-prefix=COMPILE80
// RUN: ptxas -arch=sm_80 -v %t.sm80.ptx -o %t.sm80.cubin 2>&1 | FileCheck %s
// RUN: FileCheck %s --check-prefix=KIND80 < %t.sm80.json
// RUN: attn-compile %s --chip=sm_90a -o %t.ieee.ptx
// RUN: FileCheck %s --check-prefix=IEEE < %t.ieee.json

// COMPILE90: (18 kernels, sm_90a,
// CHECK-COUNT-18: 0 bytes spill stores, 0 bytes spill loads
// CHECK-NOT: bytes spill stores

// PTX: mma.sync.aligned.m16n8k8.row.col.f32.tf32.tf32.f32
// PTX: cvt.rna.tf32.f32

// KIND90-COUNT-18: "matmul_precision": "tf32"
// KIND90-NOT: "kernel": "cuda-core"

// COMPILE80-COUNT-3: remark: GPU code generation: CUDA-core kernel (exact f32), no tf32 tensor-core kernel: D = 256, Dv = 256 with 64 query rows and 32 keys per step needs 199680 bytes of shared memory (at most 166912)
// COMPILE80: (18 kernels, sm_80,
// KIND80-COUNT-15: "matmul_precision": "tf32"
// KIND80-NOT: "matmul_precision"

// IEEE-NOT: "matmul_precision"
// IEEE-NOT: "kernel": "tensor-core"

func.func @t32_32_causal(%q: tensor<2x8x1000x32xf32>, %k: tensor<2x2x1000x32xf32>, %v: tensor<2x2x1000x32xf32>) -> (tensor<2x8x1000x32xf32>, tensor<2x8x1000xf32>) {
  %o, %l = attn.attention ins(%q, %k, %v : tensor<2x8x1000x32xf32>, tensor<2x2x1000x32xf32>, tensor<2x2x1000x32xf32>) {causal = #attn.causal<bottom_right>} -> tensor<2x8x1000x32xf32>, tensor<2x8x1000xf32>
  return %o, %l : tensor<2x8x1000x32xf32>, tensor<2x8x1000xf32>
}

func.func @t32_32_heavy(%q: tensor<2x8x1000x32xf32>, %k: tensor<2x2x1000x32xf32>, %v: tensor<2x2x1000x32xf32>, %m: tensor<2x1x1x1000xf32>) -> (tensor<2x8x1000x32xf32>, tensor<2x8x1000xf32>) {
  %o, %l = attn.attention ins(%q, %k, %v : tensor<2x8x1000x32xf32>, tensor<2x2x1000x32xf32>, tensor<2x2x1000x32xf32>) mask(%m : tensor<2x1x1x1000xf32>) {softcap = 30.0 : f32, window = array<i64: 100, 0>, causal = #attn.causal<bottom_right>} -> tensor<2x8x1000x32xf32>, tensor<2x8x1000xf32>
  return %o, %l : tensor<2x8x1000x32xf32>, tensor<2x8x1000xf32>
}

func.func @t32_32_dropout(%q: tensor<2x8x1000x32xf32>, %k: tensor<2x2x1000x32xf32>, %v: tensor<2x2x1000x32xf32>, %seed: i64, %off: i64) -> (tensor<2x8x1000x32xf32>, tensor<2x8x1000xf32>) {
  %o, %l = attn.attention ins(%q, %k, %v : tensor<2x8x1000x32xf32>, tensor<2x2x1000x32xf32>, tensor<2x2x1000x32xf32>) rng(%seed, %off) {dropout_p = 0.1 : f32} -> tensor<2x8x1000x32xf32>, tensor<2x8x1000xf32>
  return %o, %l : tensor<2x8x1000x32xf32>, tensor<2x8x1000xf32>
}

func.func @t64_64_causal(%q: tensor<2x8x1000x64xf32>, %k: tensor<2x2x1000x64xf32>, %v: tensor<2x2x1000x64xf32>) -> (tensor<2x8x1000x64xf32>, tensor<2x8x1000xf32>) {
  %o, %l = attn.attention ins(%q, %k, %v : tensor<2x8x1000x64xf32>, tensor<2x2x1000x64xf32>, tensor<2x2x1000x64xf32>) {causal = #attn.causal<bottom_right>} -> tensor<2x8x1000x64xf32>, tensor<2x8x1000xf32>
  return %o, %l : tensor<2x8x1000x64xf32>, tensor<2x8x1000xf32>
}

func.func @t64_64_heavy(%q: tensor<2x8x1000x64xf32>, %k: tensor<2x2x1000x64xf32>, %v: tensor<2x2x1000x64xf32>, %m: tensor<2x1x1x1000xf32>) -> (tensor<2x8x1000x64xf32>, tensor<2x8x1000xf32>) {
  %o, %l = attn.attention ins(%q, %k, %v : tensor<2x8x1000x64xf32>, tensor<2x2x1000x64xf32>, tensor<2x2x1000x64xf32>) mask(%m : tensor<2x1x1x1000xf32>) {softcap = 30.0 : f32, window = array<i64: 100, 0>, causal = #attn.causal<bottom_right>} -> tensor<2x8x1000x64xf32>, tensor<2x8x1000xf32>
  return %o, %l : tensor<2x8x1000x64xf32>, tensor<2x8x1000xf32>
}

func.func @t64_64_dropout(%q: tensor<2x8x1000x64xf32>, %k: tensor<2x2x1000x64xf32>, %v: tensor<2x2x1000x64xf32>, %seed: i64, %off: i64) -> (tensor<2x8x1000x64xf32>, tensor<2x8x1000xf32>) {
  %o, %l = attn.attention ins(%q, %k, %v : tensor<2x8x1000x64xf32>, tensor<2x2x1000x64xf32>, tensor<2x2x1000x64xf32>) rng(%seed, %off) {dropout_p = 0.1 : f32} -> tensor<2x8x1000x64xf32>, tensor<2x8x1000xf32>
  return %o, %l : tensor<2x8x1000x64xf32>, tensor<2x8x1000xf32>
}

func.func @t80_80_causal(%q: tensor<2x8x1000x80xf32>, %k: tensor<2x2x1000x80xf32>, %v: tensor<2x2x1000x80xf32>) -> (tensor<2x8x1000x80xf32>, tensor<2x8x1000xf32>) {
  %o, %l = attn.attention ins(%q, %k, %v : tensor<2x8x1000x80xf32>, tensor<2x2x1000x80xf32>, tensor<2x2x1000x80xf32>) {causal = #attn.causal<bottom_right>} -> tensor<2x8x1000x80xf32>, tensor<2x8x1000xf32>
  return %o, %l : tensor<2x8x1000x80xf32>, tensor<2x8x1000xf32>
}

func.func @t80_80_heavy(%q: tensor<2x8x1000x80xf32>, %k: tensor<2x2x1000x80xf32>, %v: tensor<2x2x1000x80xf32>, %m: tensor<2x1x1x1000xf32>) -> (tensor<2x8x1000x80xf32>, tensor<2x8x1000xf32>) {
  %o, %l = attn.attention ins(%q, %k, %v : tensor<2x8x1000x80xf32>, tensor<2x2x1000x80xf32>, tensor<2x2x1000x80xf32>) mask(%m : tensor<2x1x1x1000xf32>) {softcap = 30.0 : f32, window = array<i64: 100, 0>, causal = #attn.causal<bottom_right>} -> tensor<2x8x1000x80xf32>, tensor<2x8x1000xf32>
  return %o, %l : tensor<2x8x1000x80xf32>, tensor<2x8x1000xf32>
}

func.func @t80_80_dropout(%q: tensor<2x8x1000x80xf32>, %k: tensor<2x2x1000x80xf32>, %v: tensor<2x2x1000x80xf32>, %seed: i64, %off: i64) -> (tensor<2x8x1000x80xf32>, tensor<2x8x1000xf32>) {
  %o, %l = attn.attention ins(%q, %k, %v : tensor<2x8x1000x80xf32>, tensor<2x2x1000x80xf32>, tensor<2x2x1000x80xf32>) rng(%seed, %off) {dropout_p = 0.1 : f32} -> tensor<2x8x1000x80xf32>, tensor<2x8x1000xf32>
  return %o, %l : tensor<2x8x1000x80xf32>, tensor<2x8x1000xf32>
}

func.func @t128_128_causal(%q: tensor<2x8x1000x128xf32>, %k: tensor<2x2x1000x128xf32>, %v: tensor<2x2x1000x128xf32>) -> (tensor<2x8x1000x128xf32>, tensor<2x8x1000xf32>) {
  %o, %l = attn.attention ins(%q, %k, %v : tensor<2x8x1000x128xf32>, tensor<2x2x1000x128xf32>, tensor<2x2x1000x128xf32>) {causal = #attn.causal<bottom_right>} -> tensor<2x8x1000x128xf32>, tensor<2x8x1000xf32>
  return %o, %l : tensor<2x8x1000x128xf32>, tensor<2x8x1000xf32>
}

func.func @t128_128_heavy(%q: tensor<2x8x1000x128xf32>, %k: tensor<2x2x1000x128xf32>, %v: tensor<2x2x1000x128xf32>, %m: tensor<2x1x1x1000xf32>) -> (tensor<2x8x1000x128xf32>, tensor<2x8x1000xf32>) {
  %o, %l = attn.attention ins(%q, %k, %v : tensor<2x8x1000x128xf32>, tensor<2x2x1000x128xf32>, tensor<2x2x1000x128xf32>) mask(%m : tensor<2x1x1x1000xf32>) {softcap = 30.0 : f32, window = array<i64: 100, 0>, causal = #attn.causal<bottom_right>} -> tensor<2x8x1000x128xf32>, tensor<2x8x1000xf32>
  return %o, %l : tensor<2x8x1000x128xf32>, tensor<2x8x1000xf32>
}

func.func @t128_128_dropout(%q: tensor<2x8x1000x128xf32>, %k: tensor<2x2x1000x128xf32>, %v: tensor<2x2x1000x128xf32>, %seed: i64, %off: i64) -> (tensor<2x8x1000x128xf32>, tensor<2x8x1000xf32>) {
  %o, %l = attn.attention ins(%q, %k, %v : tensor<2x8x1000x128xf32>, tensor<2x2x1000x128xf32>, tensor<2x2x1000x128xf32>) rng(%seed, %off) {dropout_p = 0.1 : f32} -> tensor<2x8x1000x128xf32>, tensor<2x8x1000xf32>
  return %o, %l : tensor<2x8x1000x128xf32>, tensor<2x8x1000xf32>
}

func.func @t192_128_causal(%q: tensor<2x8x1000x192xf32>, %k: tensor<2x2x1000x192xf32>, %v: tensor<2x2x1000x128xf32>) -> (tensor<2x8x1000x128xf32>, tensor<2x8x1000xf32>) {
  %o, %l = attn.attention ins(%q, %k, %v : tensor<2x8x1000x192xf32>, tensor<2x2x1000x192xf32>, tensor<2x2x1000x128xf32>) {causal = #attn.causal<bottom_right>} -> tensor<2x8x1000x128xf32>, tensor<2x8x1000xf32>
  return %o, %l : tensor<2x8x1000x128xf32>, tensor<2x8x1000xf32>
}

func.func @t192_128_heavy(%q: tensor<2x8x1000x192xf32>, %k: tensor<2x2x1000x192xf32>, %v: tensor<2x2x1000x128xf32>, %m: tensor<2x1x1x1000xf32>) -> (tensor<2x8x1000x128xf32>, tensor<2x8x1000xf32>) {
  %o, %l = attn.attention ins(%q, %k, %v : tensor<2x8x1000x192xf32>, tensor<2x2x1000x192xf32>, tensor<2x2x1000x128xf32>) mask(%m : tensor<2x1x1x1000xf32>) {softcap = 30.0 : f32, window = array<i64: 100, 0>, causal = #attn.causal<bottom_right>} -> tensor<2x8x1000x128xf32>, tensor<2x8x1000xf32>
  return %o, %l : tensor<2x8x1000x128xf32>, tensor<2x8x1000xf32>
}

func.func @t192_128_dropout(%q: tensor<2x8x1000x192xf32>, %k: tensor<2x2x1000x192xf32>, %v: tensor<2x2x1000x128xf32>, %seed: i64, %off: i64) -> (tensor<2x8x1000x128xf32>, tensor<2x8x1000xf32>) {
  %o, %l = attn.attention ins(%q, %k, %v : tensor<2x8x1000x192xf32>, tensor<2x2x1000x192xf32>, tensor<2x2x1000x128xf32>) rng(%seed, %off) {dropout_p = 0.1 : f32} -> tensor<2x8x1000x128xf32>, tensor<2x8x1000xf32>
  return %o, %l : tensor<2x8x1000x128xf32>, tensor<2x8x1000xf32>
}

func.func @t256_256_causal(%q: tensor<2x8x1000x256xf32>, %k: tensor<2x2x1000x256xf32>, %v: tensor<2x2x1000x256xf32>) -> (tensor<2x8x1000x256xf32>, tensor<2x8x1000xf32>) {
  %o, %l = attn.attention ins(%q, %k, %v : tensor<2x8x1000x256xf32>, tensor<2x2x1000x256xf32>, tensor<2x2x1000x256xf32>) {causal = #attn.causal<bottom_right>} -> tensor<2x8x1000x256xf32>, tensor<2x8x1000xf32>
  return %o, %l : tensor<2x8x1000x256xf32>, tensor<2x8x1000xf32>
}

func.func @t256_256_heavy(%q: tensor<2x8x1000x256xf32>, %k: tensor<2x2x1000x256xf32>, %v: tensor<2x2x1000x256xf32>, %m: tensor<2x1x1x1000xf32>) -> (tensor<2x8x1000x256xf32>, tensor<2x8x1000xf32>) {
  %o, %l = attn.attention ins(%q, %k, %v : tensor<2x8x1000x256xf32>, tensor<2x2x1000x256xf32>, tensor<2x2x1000x256xf32>) mask(%m : tensor<2x1x1x1000xf32>) {softcap = 30.0 : f32, window = array<i64: 100, 0>, causal = #attn.causal<bottom_right>} -> tensor<2x8x1000x256xf32>, tensor<2x8x1000xf32>
  return %o, %l : tensor<2x8x1000x256xf32>, tensor<2x8x1000xf32>
}

func.func @t256_256_dropout(%q: tensor<2x8x1000x256xf32>, %k: tensor<2x2x1000x256xf32>, %v: tensor<2x2x1000x256xf32>, %seed: i64, %off: i64) -> (tensor<2x8x1000x256xf32>, tensor<2x8x1000xf32>) {
  %o, %l = attn.attention ins(%q, %k, %v : tensor<2x8x1000x256xf32>, tensor<2x2x1000x256xf32>, tensor<2x2x1000x256xf32>) rng(%seed, %off) {dropout_p = 0.1 : f32} -> tensor<2x8x1000x256xf32>, tensor<2x8x1000xf32>
  return %o, %l : tensor<2x8x1000x256xf32>, tensor<2x8x1000xf32>
}
