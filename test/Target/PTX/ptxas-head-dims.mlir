// Issue 19: every head dim that is a multiple of 8 up to 256, D != Dv
// included, gets a tensor-core forward kernel that assembles with ptxas
// without spilling, on sm_90a (attn-compile's default: the wgmma kernel for
// whole 64-column panels and for the padded dims where it pays,
// tc::chooseTiling's wgmmaPaysForPadding, dropout included, with 64 keys
// per step; mma.sync for D = 32) and on sm_80 (mma.sync). Each head dim in three variants: causal
// with GQA, every modifier but dropout (softcap, window, key-padding mask),
// and dropout; Lq = Lk = 1000 (ragged). Needs only the CUDA toolkit.
// REQUIRES: ptxas
// RUN: attn-compile %s --chip=sm_90a -o %t.sm90.ptx | FileCheck %s --check-prefix=COMPILE90
// RUN: ptxas -arch=sm_90a -v %t.sm90.ptx -o %t.sm90.cubin 2>&1 | FileCheck %s
// RUN: FileCheck %s --check-prefix=KIND90 < %t.sm90.json
// RUN: attn-compile %s --chip=sm_80 -o %t.sm80.ptx | FileCheck %s --check-prefix=COMPILE80
// RUN: ptxas -arch=sm_80 -v %t.sm80.ptx -o %t.sm80.cubin 2>&1 | FileCheck %s
// RUN: FileCheck %s --check-prefix=KIND80 < %t.sm80.json

// COMPILE90: (30 kernels, sm_90a,
// COMPILE80: (30 kernels, sm_80,
// CHECK-COUNT-30: 0 bytes spill stores, 0 bytes spill loads
// CHECK-NOT: bytes spill stores

// The kernel each op gets, in order (the manifest lists "codegen" before
// "name"; the wgmma kernels load with TMA on sm_90a).
// KIND90: "kernel": "tensor-core",
// KIND90-NEXT: "mma": "mma.sync",
// KIND90: "name": "attn_fwd_0"
// KIND90: "kernel": "tensor-core",
// KIND90-NEXT: "mma": "mma.sync",
// KIND90: "name": "attn_fwd_1"
// KIND90: "kernel": "tensor-core",
// KIND90-NEXT: "mma": "mma.sync",
// KIND90: "name": "attn_fwd_2"
// KIND90: "kernel": "tensor-core",
// KIND90-NEXT: "loads": "tma",
// KIND90-NEXT: "mma": "wgmma",
// KIND90: "name": "attn_fwd_3"
// KIND90: "kernel": "tensor-core",
// KIND90-NEXT: "loads": "tma",
// KIND90-NEXT: "mma": "wgmma",
// KIND90: "name": "attn_fwd_4"
// KIND90: "kernel": "tensor-core",
// KIND90-NEXT: "loads": "tma",
// KIND90-NEXT: "mma": "wgmma",
// KIND90: "name": "attn_fwd_5"
// KIND90: "kernel": "tensor-core",
// KIND90-NEXT: "loads": "tma",
// KIND90-NEXT: "mma": "wgmma",
// KIND90: "name": "attn_fwd_6"
// KIND90: "kernel": "tensor-core",
// KIND90-NEXT: "loads": "tma",
// KIND90-NEXT: "mma": "wgmma",
// KIND90: "name": "attn_fwd_7"
// KIND90: "kernel": "tensor-core",
// KIND90-NEXT: "loads": "tma",
// KIND90-NEXT: "mma": "wgmma",
// KIND90: "name": "attn_fwd_8"
// KIND90: "kernel": "tensor-core",
// KIND90-NEXT: "loads": "tma",
// KIND90-NEXT: "mma": "wgmma",
// KIND90: "name": "attn_fwd_9"
// KIND90: "kernel": "tensor-core",
// KIND90-NEXT: "loads": "tma",
// KIND90-NEXT: "mma": "wgmma",
// KIND90: "name": "attn_fwd_10"
// KIND90: "kernel": "tensor-core",
// KIND90-NEXT: "loads": "tma",
// KIND90-NEXT: "mma": "wgmma",
// KIND90: "name": "attn_fwd_11"
// KIND90: "kernel": "tensor-core",
// KIND90-NEXT: "loads": "tma",
// KIND90-NEXT: "mma": "wgmma",
// KIND90: "name": "attn_fwd_12"
// KIND90: "kernel": "tensor-core",
// KIND90-NEXT: "loads": "tma",
// KIND90-NEXT: "mma": "wgmma",
// KIND90: "name": "attn_fwd_13"
// KIND90: "kernel": "tensor-core",
// KIND90-NEXT: "loads": "tma",
// KIND90-NEXT: "mma": "wgmma",
// KIND90: "name": "attn_fwd_14"
// KIND90: "kernel": "tensor-core",
// KIND90-NEXT: "loads": "tma",
// KIND90-NEXT: "mma": "wgmma",
// KIND90: "name": "attn_fwd_15"
// KIND90: "kernel": "tensor-core",
// KIND90-NEXT: "loads": "tma",
// KIND90-NEXT: "mma": "wgmma",
// KIND90: "name": "attn_fwd_16"
// KIND90: "kernel": "tensor-core",
// KIND90-NEXT: "loads": "tma",
// KIND90-NEXT: "mma": "wgmma",
// KIND90: "name": "attn_fwd_17"
// KIND90: "kernel": "tensor-core",
// KIND90-NEXT: "loads": "tma",
// KIND90-NEXT: "mma": "wgmma",
// KIND90: "name": "attn_fwd_18"
// KIND90: "kernel": "tensor-core",
// KIND90-NEXT: "loads": "tma",
// KIND90-NEXT: "mma": "wgmma",
// KIND90: "name": "attn_fwd_19"
// KIND90: "kernel": "tensor-core",
// KIND90-NEXT: "loads": "tma",
// KIND90-NEXT: "mma": "wgmma",
// KIND90: "name": "attn_fwd_20"
// KIND90: "kernel": "tensor-core",
// KIND90-NEXT: "loads": "tma",
// KIND90-NEXT: "mma": "wgmma",
// KIND90: "name": "attn_fwd_21"
// KIND90: "kernel": "tensor-core",
// KIND90-NEXT: "loads": "tma",
// KIND90-NEXT: "mma": "wgmma",
// KIND90: "name": "attn_fwd_22"
// KIND90: "kernel": "tensor-core",
// KIND90-NEXT: "loads": "tma",
// KIND90-NEXT: "mma": "wgmma",
// KIND90: "name": "attn_fwd_23"
// KIND90: "kernel": "tensor-core",
// KIND90-NEXT: "loads": "tma",
// KIND90-NEXT: "mma": "wgmma",
// KIND90: "name": "attn_fwd_24"
// KIND90: "kernel": "tensor-core",
// KIND90-NEXT: "loads": "tma",
// KIND90-NEXT: "mma": "wgmma",
// KIND90: "name": "attn_fwd_25"
// KIND90: "kernel": "tensor-core",
// KIND90-NEXT: "loads": "tma",
// KIND90-NEXT: "mma": "wgmma",
// KIND90: "name": "attn_fwd_26"
// KIND90: "kernel": "tensor-core",
// KIND90-NEXT: "loads": "tma",
// KIND90-NEXT: "mma": "wgmma",
// KIND90: "name": "attn_fwd_27"
// KIND90: "kernel": "tensor-core",
// KIND90-NEXT: "loads": "tma",
// KIND90-NEXT: "mma": "wgmma",
// KIND90: "name": "attn_fwd_28"
// KIND90: "kernel": "tensor-core",
// KIND90-NEXT: "loads": "tma",
// KIND90-NEXT: "mma": "wgmma",
// KIND90: "name": "attn_fwd_29"
// KIND80: "kernel": "tensor-core",
// KIND80-NEXT: "mma": "mma.sync",
// KIND80: "name": "attn_fwd_0"
// KIND80: "kernel": "tensor-core",
// KIND80-NEXT: "mma": "mma.sync",
// KIND80: "name": "attn_fwd_1"
// KIND80: "kernel": "tensor-core",
// KIND80-NEXT: "mma": "mma.sync",
// KIND80: "name": "attn_fwd_2"
// KIND80: "kernel": "tensor-core",
// KIND80-NEXT: "mma": "mma.sync",
// KIND80: "name": "attn_fwd_3"
// KIND80: "kernel": "tensor-core",
// KIND80-NEXT: "mma": "mma.sync",
// KIND80: "name": "attn_fwd_4"
// KIND80: "kernel": "tensor-core",
// KIND80-NEXT: "mma": "mma.sync",
// KIND80: "name": "attn_fwd_5"
// KIND80: "kernel": "tensor-core",
// KIND80-NEXT: "mma": "mma.sync",
// KIND80: "name": "attn_fwd_6"
// KIND80: "kernel": "tensor-core",
// KIND80-NEXT: "mma": "mma.sync",
// KIND80: "name": "attn_fwd_7"
// KIND80: "kernel": "tensor-core",
// KIND80-NEXT: "mma": "mma.sync",
// KIND80: "name": "attn_fwd_8"
// KIND80: "kernel": "tensor-core",
// KIND80-NEXT: "mma": "mma.sync",
// KIND80: "name": "attn_fwd_9"
// KIND80: "kernel": "tensor-core",
// KIND80-NEXT: "mma": "mma.sync",
// KIND80: "name": "attn_fwd_10"
// KIND80: "kernel": "tensor-core",
// KIND80-NEXT: "mma": "mma.sync",
// KIND80: "name": "attn_fwd_11"
// KIND80: "kernel": "tensor-core",
// KIND80-NEXT: "mma": "mma.sync",
// KIND80: "name": "attn_fwd_12"
// KIND80: "kernel": "tensor-core",
// KIND80-NEXT: "mma": "mma.sync",
// KIND80: "name": "attn_fwd_13"
// KIND80: "kernel": "tensor-core",
// KIND80-NEXT: "mma": "mma.sync",
// KIND80: "name": "attn_fwd_14"
// KIND80: "kernel": "tensor-core",
// KIND80-NEXT: "mma": "mma.sync",
// KIND80: "name": "attn_fwd_15"
// KIND80: "kernel": "tensor-core",
// KIND80-NEXT: "mma": "mma.sync",
// KIND80: "name": "attn_fwd_16"
// KIND80: "kernel": "tensor-core",
// KIND80-NEXT: "mma": "mma.sync",
// KIND80: "name": "attn_fwd_17"
// KIND80: "kernel": "tensor-core",
// KIND80-NEXT: "mma": "mma.sync",
// KIND80: "name": "attn_fwd_18"
// KIND80: "kernel": "tensor-core",
// KIND80-NEXT: "mma": "mma.sync",
// KIND80: "name": "attn_fwd_19"
// KIND80: "kernel": "tensor-core",
// KIND80-NEXT: "mma": "mma.sync",
// KIND80: "name": "attn_fwd_20"
// KIND80: "kernel": "tensor-core",
// KIND80-NEXT: "mma": "mma.sync",
// KIND80: "name": "attn_fwd_21"
// KIND80: "kernel": "tensor-core",
// KIND80-NEXT: "mma": "mma.sync",
// KIND80: "name": "attn_fwd_22"
// KIND80: "kernel": "tensor-core",
// KIND80-NEXT: "mma": "mma.sync",
// KIND80: "name": "attn_fwd_23"
// KIND80: "kernel": "tensor-core",
// KIND80-NEXT: "mma": "mma.sync",
// KIND80: "name": "attn_fwd_24"
// KIND80: "kernel": "tensor-core",
// KIND80-NEXT: "mma": "mma.sync",
// KIND80: "name": "attn_fwd_25"
// KIND80: "kernel": "tensor-core",
// KIND80-NEXT: "mma": "mma.sync",
// KIND80: "name": "attn_fwd_26"
// KIND80: "kernel": "tensor-core",
// KIND80-NEXT: "mma": "mma.sync",
// KIND80: "name": "attn_fwd_27"
// KIND80: "kernel": "tensor-core",
// KIND80-NEXT: "mma": "mma.sync",
// KIND80: "name": "attn_fwd_28"
// KIND80: "kernel": "tensor-core",
// KIND80-NEXT: "mma": "mma.sync",
// KIND80: "name": "attn_fwd_29"

func.func @h32_32_plain(%q: tensor<2x8x1000x32xbf16>, %k: tensor<2x2x1000x32xbf16>, %v: tensor<2x2x1000x32xbf16>) -> (tensor<2x8x1000x32xbf16>, tensor<2x8x1000xf32>) {
  %o, %l = attn.attention ins(%q, %k, %v : tensor<2x8x1000x32xbf16>, tensor<2x2x1000x32xbf16>, tensor<2x2x1000x32xbf16>) {causal = #attn.causal<bottom_right>} -> tensor<2x8x1000x32xbf16>, tensor<2x8x1000xf32>
  return %o, %l : tensor<2x8x1000x32xbf16>, tensor<2x8x1000xf32>
}

func.func @h32_32_heavy(%q: tensor<2x8x1000x32xbf16>, %k: tensor<2x2x1000x32xbf16>, %v: tensor<2x2x1000x32xbf16>, %m: tensor<2x1x1x1000xi1>) -> (tensor<2x8x1000x32xbf16>, tensor<2x8x1000xf32>) {
  %o, %l = attn.attention ins(%q, %k, %v : tensor<2x8x1000x32xbf16>, tensor<2x2x1000x32xbf16>, tensor<2x2x1000x32xbf16>) mask(%m : tensor<2x1x1x1000xi1>) {softcap = 30.0 : f32, window = array<i64: 100, 0>, causal = #attn.causal<bottom_right>} -> tensor<2x8x1000x32xbf16>, tensor<2x8x1000xf32>
  return %o, %l : tensor<2x8x1000x32xbf16>, tensor<2x8x1000xf32>
}

func.func @h32_32_dropout(%q: tensor<2x8x1000x32xbf16>, %k: tensor<2x2x1000x32xbf16>, %v: tensor<2x2x1000x32xbf16>, %seed: i64, %off: i64) -> (tensor<2x8x1000x32xbf16>, tensor<2x8x1000xf32>) {
  %o, %l = attn.attention ins(%q, %k, %v : tensor<2x8x1000x32xbf16>, tensor<2x2x1000x32xbf16>, tensor<2x2x1000x32xbf16>) rng(%seed, %off) {dropout_p = 0.1 : f32} -> tensor<2x8x1000x32xbf16>, tensor<2x8x1000xf32>
  return %o, %l : tensor<2x8x1000x32xbf16>, tensor<2x8x1000xf32>
}

func.func @h40_40_plain(%q: tensor<2x8x1000x40xbf16>, %k: tensor<2x2x1000x40xbf16>, %v: tensor<2x2x1000x40xbf16>) -> (tensor<2x8x1000x40xbf16>, tensor<2x8x1000xf32>) {
  %o, %l = attn.attention ins(%q, %k, %v : tensor<2x8x1000x40xbf16>, tensor<2x2x1000x40xbf16>, tensor<2x2x1000x40xbf16>) {causal = #attn.causal<bottom_right>} -> tensor<2x8x1000x40xbf16>, tensor<2x8x1000xf32>
  return %o, %l : tensor<2x8x1000x40xbf16>, tensor<2x8x1000xf32>
}

func.func @h40_40_heavy(%q: tensor<2x8x1000x40xbf16>, %k: tensor<2x2x1000x40xbf16>, %v: tensor<2x2x1000x40xbf16>, %m: tensor<2x1x1x1000xi1>) -> (tensor<2x8x1000x40xbf16>, tensor<2x8x1000xf32>) {
  %o, %l = attn.attention ins(%q, %k, %v : tensor<2x8x1000x40xbf16>, tensor<2x2x1000x40xbf16>, tensor<2x2x1000x40xbf16>) mask(%m : tensor<2x1x1x1000xi1>) {softcap = 30.0 : f32, window = array<i64: 100, 0>, causal = #attn.causal<bottom_right>} -> tensor<2x8x1000x40xbf16>, tensor<2x8x1000xf32>
  return %o, %l : tensor<2x8x1000x40xbf16>, tensor<2x8x1000xf32>
}

func.func @h40_40_dropout(%q: tensor<2x8x1000x40xbf16>, %k: tensor<2x2x1000x40xbf16>, %v: tensor<2x2x1000x40xbf16>, %seed: i64, %off: i64) -> (tensor<2x8x1000x40xbf16>, tensor<2x8x1000xf32>) {
  %o, %l = attn.attention ins(%q, %k, %v : tensor<2x8x1000x40xbf16>, tensor<2x2x1000x40xbf16>, tensor<2x2x1000x40xbf16>) rng(%seed, %off) {dropout_p = 0.1 : f32} -> tensor<2x8x1000x40xbf16>, tensor<2x8x1000xf32>
  return %o, %l : tensor<2x8x1000x40xbf16>, tensor<2x8x1000xf32>
}

func.func @h72_72_plain(%q: tensor<2x8x1000x72xbf16>, %k: tensor<2x2x1000x72xbf16>, %v: tensor<2x2x1000x72xbf16>) -> (tensor<2x8x1000x72xbf16>, tensor<2x8x1000xf32>) {
  %o, %l = attn.attention ins(%q, %k, %v : tensor<2x8x1000x72xbf16>, tensor<2x2x1000x72xbf16>, tensor<2x2x1000x72xbf16>) {causal = #attn.causal<bottom_right>} -> tensor<2x8x1000x72xbf16>, tensor<2x8x1000xf32>
  return %o, %l : tensor<2x8x1000x72xbf16>, tensor<2x8x1000xf32>
}

func.func @h72_72_heavy(%q: tensor<2x8x1000x72xbf16>, %k: tensor<2x2x1000x72xbf16>, %v: tensor<2x2x1000x72xbf16>, %m: tensor<2x1x1x1000xi1>) -> (tensor<2x8x1000x72xbf16>, tensor<2x8x1000xf32>) {
  %o, %l = attn.attention ins(%q, %k, %v : tensor<2x8x1000x72xbf16>, tensor<2x2x1000x72xbf16>, tensor<2x2x1000x72xbf16>) mask(%m : tensor<2x1x1x1000xi1>) {softcap = 30.0 : f32, window = array<i64: 100, 0>, causal = #attn.causal<bottom_right>} -> tensor<2x8x1000x72xbf16>, tensor<2x8x1000xf32>
  return %o, %l : tensor<2x8x1000x72xbf16>, tensor<2x8x1000xf32>
}

func.func @h72_72_dropout(%q: tensor<2x8x1000x72xbf16>, %k: tensor<2x2x1000x72xbf16>, %v: tensor<2x2x1000x72xbf16>, %seed: i64, %off: i64) -> (tensor<2x8x1000x72xbf16>, tensor<2x8x1000xf32>) {
  %o, %l = attn.attention ins(%q, %k, %v : tensor<2x8x1000x72xbf16>, tensor<2x2x1000x72xbf16>, tensor<2x2x1000x72xbf16>) rng(%seed, %off) {dropout_p = 0.1 : f32} -> tensor<2x8x1000x72xbf16>, tensor<2x8x1000xf32>
  return %o, %l : tensor<2x8x1000x72xbf16>, tensor<2x8x1000xf32>
}

func.func @h80_80_plain(%q: tensor<2x8x1000x80xbf16>, %k: tensor<2x2x1000x80xbf16>, %v: tensor<2x2x1000x80xbf16>) -> (tensor<2x8x1000x80xbf16>, tensor<2x8x1000xf32>) {
  %o, %l = attn.attention ins(%q, %k, %v : tensor<2x8x1000x80xbf16>, tensor<2x2x1000x80xbf16>, tensor<2x2x1000x80xbf16>) {causal = #attn.causal<bottom_right>} -> tensor<2x8x1000x80xbf16>, tensor<2x8x1000xf32>
  return %o, %l : tensor<2x8x1000x80xbf16>, tensor<2x8x1000xf32>
}

func.func @h80_80_heavy(%q: tensor<2x8x1000x80xbf16>, %k: tensor<2x2x1000x80xbf16>, %v: tensor<2x2x1000x80xbf16>, %m: tensor<2x1x1x1000xi1>) -> (tensor<2x8x1000x80xbf16>, tensor<2x8x1000xf32>) {
  %o, %l = attn.attention ins(%q, %k, %v : tensor<2x8x1000x80xbf16>, tensor<2x2x1000x80xbf16>, tensor<2x2x1000x80xbf16>) mask(%m : tensor<2x1x1x1000xi1>) {softcap = 30.0 : f32, window = array<i64: 100, 0>, causal = #attn.causal<bottom_right>} -> tensor<2x8x1000x80xbf16>, tensor<2x8x1000xf32>
  return %o, %l : tensor<2x8x1000x80xbf16>, tensor<2x8x1000xf32>
}

func.func @h80_80_dropout(%q: tensor<2x8x1000x80xbf16>, %k: tensor<2x2x1000x80xbf16>, %v: tensor<2x2x1000x80xbf16>, %seed: i64, %off: i64) -> (tensor<2x8x1000x80xbf16>, tensor<2x8x1000xf32>) {
  %o, %l = attn.attention ins(%q, %k, %v : tensor<2x8x1000x80xbf16>, tensor<2x2x1000x80xbf16>, tensor<2x2x1000x80xbf16>) rng(%seed, %off) {dropout_p = 0.1 : f32} -> tensor<2x8x1000x80xbf16>, tensor<2x8x1000xf32>
  return %o, %l : tensor<2x8x1000x80xbf16>, tensor<2x8x1000xf32>
}

func.func @h96_96_plain(%q: tensor<2x8x1000x96xbf16>, %k: tensor<2x2x1000x96xbf16>, %v: tensor<2x2x1000x96xbf16>) -> (tensor<2x8x1000x96xbf16>, tensor<2x8x1000xf32>) {
  %o, %l = attn.attention ins(%q, %k, %v : tensor<2x8x1000x96xbf16>, tensor<2x2x1000x96xbf16>, tensor<2x2x1000x96xbf16>) {causal = #attn.causal<bottom_right>} -> tensor<2x8x1000x96xbf16>, tensor<2x8x1000xf32>
  return %o, %l : tensor<2x8x1000x96xbf16>, tensor<2x8x1000xf32>
}

func.func @h96_96_heavy(%q: tensor<2x8x1000x96xbf16>, %k: tensor<2x2x1000x96xbf16>, %v: tensor<2x2x1000x96xbf16>, %m: tensor<2x1x1x1000xi1>) -> (tensor<2x8x1000x96xbf16>, tensor<2x8x1000xf32>) {
  %o, %l = attn.attention ins(%q, %k, %v : tensor<2x8x1000x96xbf16>, tensor<2x2x1000x96xbf16>, tensor<2x2x1000x96xbf16>) mask(%m : tensor<2x1x1x1000xi1>) {softcap = 30.0 : f32, window = array<i64: 100, 0>, causal = #attn.causal<bottom_right>} -> tensor<2x8x1000x96xbf16>, tensor<2x8x1000xf32>
  return %o, %l : tensor<2x8x1000x96xbf16>, tensor<2x8x1000xf32>
}

func.func @h96_96_dropout(%q: tensor<2x8x1000x96xbf16>, %k: tensor<2x2x1000x96xbf16>, %v: tensor<2x2x1000x96xbf16>, %seed: i64, %off: i64) -> (tensor<2x8x1000x96xbf16>, tensor<2x8x1000xf32>) {
  %o, %l = attn.attention ins(%q, %k, %v : tensor<2x8x1000x96xbf16>, tensor<2x2x1000x96xbf16>, tensor<2x2x1000x96xbf16>) rng(%seed, %off) {dropout_p = 0.1 : f32} -> tensor<2x8x1000x96xbf16>, tensor<2x8x1000xf32>
  return %o, %l : tensor<2x8x1000x96xbf16>, tensor<2x8x1000xf32>
}

func.func @h160_160_plain(%q: tensor<2x8x1000x160xbf16>, %k: tensor<2x2x1000x160xbf16>, %v: tensor<2x2x1000x160xbf16>) -> (tensor<2x8x1000x160xbf16>, tensor<2x8x1000xf32>) {
  %o, %l = attn.attention ins(%q, %k, %v : tensor<2x8x1000x160xbf16>, tensor<2x2x1000x160xbf16>, tensor<2x2x1000x160xbf16>) {causal = #attn.causal<bottom_right>} -> tensor<2x8x1000x160xbf16>, tensor<2x8x1000xf32>
  return %o, %l : tensor<2x8x1000x160xbf16>, tensor<2x8x1000xf32>
}

func.func @h160_160_heavy(%q: tensor<2x8x1000x160xbf16>, %k: tensor<2x2x1000x160xbf16>, %v: tensor<2x2x1000x160xbf16>, %m: tensor<2x1x1x1000xi1>) -> (tensor<2x8x1000x160xbf16>, tensor<2x8x1000xf32>) {
  %o, %l = attn.attention ins(%q, %k, %v : tensor<2x8x1000x160xbf16>, tensor<2x2x1000x160xbf16>, tensor<2x2x1000x160xbf16>) mask(%m : tensor<2x1x1x1000xi1>) {softcap = 30.0 : f32, window = array<i64: 100, 0>, causal = #attn.causal<bottom_right>} -> tensor<2x8x1000x160xbf16>, tensor<2x8x1000xf32>
  return %o, %l : tensor<2x8x1000x160xbf16>, tensor<2x8x1000xf32>
}

func.func @h160_160_dropout(%q: tensor<2x8x1000x160xbf16>, %k: tensor<2x2x1000x160xbf16>, %v: tensor<2x2x1000x160xbf16>, %seed: i64, %off: i64) -> (tensor<2x8x1000x160xbf16>, tensor<2x8x1000xf32>) {
  %o, %l = attn.attention ins(%q, %k, %v : tensor<2x8x1000x160xbf16>, tensor<2x2x1000x160xbf16>, tensor<2x2x1000x160xbf16>) rng(%seed, %off) {dropout_p = 0.1 : f32} -> tensor<2x8x1000x160xbf16>, tensor<2x8x1000xf32>
  return %o, %l : tensor<2x8x1000x160xbf16>, tensor<2x8x1000xf32>
}

func.func @h192_192_plain(%q: tensor<2x8x1000x192xbf16>, %k: tensor<2x2x1000x192xbf16>, %v: tensor<2x2x1000x192xbf16>) -> (tensor<2x8x1000x192xbf16>, tensor<2x8x1000xf32>) {
  %o, %l = attn.attention ins(%q, %k, %v : tensor<2x8x1000x192xbf16>, tensor<2x2x1000x192xbf16>, tensor<2x2x1000x192xbf16>) {causal = #attn.causal<bottom_right>} -> tensor<2x8x1000x192xbf16>, tensor<2x8x1000xf32>
  return %o, %l : tensor<2x8x1000x192xbf16>, tensor<2x8x1000xf32>
}

func.func @h192_192_heavy(%q: tensor<2x8x1000x192xbf16>, %k: tensor<2x2x1000x192xbf16>, %v: tensor<2x2x1000x192xbf16>, %m: tensor<2x1x1x1000xi1>) -> (tensor<2x8x1000x192xbf16>, tensor<2x8x1000xf32>) {
  %o, %l = attn.attention ins(%q, %k, %v : tensor<2x8x1000x192xbf16>, tensor<2x2x1000x192xbf16>, tensor<2x2x1000x192xbf16>) mask(%m : tensor<2x1x1x1000xi1>) {softcap = 30.0 : f32, window = array<i64: 100, 0>, causal = #attn.causal<bottom_right>} -> tensor<2x8x1000x192xbf16>, tensor<2x8x1000xf32>
  return %o, %l : tensor<2x8x1000x192xbf16>, tensor<2x8x1000xf32>
}

func.func @h192_192_dropout(%q: tensor<2x8x1000x192xbf16>, %k: tensor<2x2x1000x192xbf16>, %v: tensor<2x2x1000x192xbf16>, %seed: i64, %off: i64) -> (tensor<2x8x1000x192xbf16>, tensor<2x8x1000xf32>) {
  %o, %l = attn.attention ins(%q, %k, %v : tensor<2x8x1000x192xbf16>, tensor<2x2x1000x192xbf16>, tensor<2x2x1000x192xbf16>) rng(%seed, %off) {dropout_p = 0.1 : f32} -> tensor<2x8x1000x192xbf16>, tensor<2x8x1000xf32>
  return %o, %l : tensor<2x8x1000x192xbf16>, tensor<2x8x1000xf32>
}

func.func @h256_256_plain(%q: tensor<2x8x1000x256xbf16>, %k: tensor<2x2x1000x256xbf16>, %v: tensor<2x2x1000x256xbf16>) -> (tensor<2x8x1000x256xbf16>, tensor<2x8x1000xf32>) {
  %o, %l = attn.attention ins(%q, %k, %v : tensor<2x8x1000x256xbf16>, tensor<2x2x1000x256xbf16>, tensor<2x2x1000x256xbf16>) {causal = #attn.causal<bottom_right>} -> tensor<2x8x1000x256xbf16>, tensor<2x8x1000xf32>
  return %o, %l : tensor<2x8x1000x256xbf16>, tensor<2x8x1000xf32>
}

func.func @h256_256_heavy(%q: tensor<2x8x1000x256xbf16>, %k: tensor<2x2x1000x256xbf16>, %v: tensor<2x2x1000x256xbf16>, %m: tensor<2x1x1x1000xi1>) -> (tensor<2x8x1000x256xbf16>, tensor<2x8x1000xf32>) {
  %o, %l = attn.attention ins(%q, %k, %v : tensor<2x8x1000x256xbf16>, tensor<2x2x1000x256xbf16>, tensor<2x2x1000x256xbf16>) mask(%m : tensor<2x1x1x1000xi1>) {softcap = 30.0 : f32, window = array<i64: 100, 0>, causal = #attn.causal<bottom_right>} -> tensor<2x8x1000x256xbf16>, tensor<2x8x1000xf32>
  return %o, %l : tensor<2x8x1000x256xbf16>, tensor<2x8x1000xf32>
}

func.func @h256_256_dropout(%q: tensor<2x8x1000x256xbf16>, %k: tensor<2x2x1000x256xbf16>, %v: tensor<2x2x1000x256xbf16>, %seed: i64, %off: i64) -> (tensor<2x8x1000x256xbf16>, tensor<2x8x1000xf32>) {
  %o, %l = attn.attention ins(%q, %k, %v : tensor<2x8x1000x256xbf16>, tensor<2x2x1000x256xbf16>, tensor<2x2x1000x256xbf16>) rng(%seed, %off) {dropout_p = 0.1 : f32} -> tensor<2x8x1000x256xbf16>, tensor<2x8x1000xf32>
  return %o, %l : tensor<2x8x1000x256xbf16>, tensor<2x8x1000xf32>
}

func.func @h192_128_plain(%q: tensor<2x8x1000x192xbf16>, %k: tensor<2x2x1000x192xbf16>, %v: tensor<2x2x1000x128xbf16>) -> (tensor<2x8x1000x128xbf16>, tensor<2x8x1000xf32>) {
  %o, %l = attn.attention ins(%q, %k, %v : tensor<2x8x1000x192xbf16>, tensor<2x2x1000x192xbf16>, tensor<2x2x1000x128xbf16>) {causal = #attn.causal<bottom_right>} -> tensor<2x8x1000x128xbf16>, tensor<2x8x1000xf32>
  return %o, %l : tensor<2x8x1000x128xbf16>, tensor<2x8x1000xf32>
}

func.func @h192_128_heavy(%q: tensor<2x8x1000x192xbf16>, %k: tensor<2x2x1000x192xbf16>, %v: tensor<2x2x1000x128xbf16>, %m: tensor<2x1x1x1000xi1>) -> (tensor<2x8x1000x128xbf16>, tensor<2x8x1000xf32>) {
  %o, %l = attn.attention ins(%q, %k, %v : tensor<2x8x1000x192xbf16>, tensor<2x2x1000x192xbf16>, tensor<2x2x1000x128xbf16>) mask(%m : tensor<2x1x1x1000xi1>) {softcap = 30.0 : f32, window = array<i64: 100, 0>, causal = #attn.causal<bottom_right>} -> tensor<2x8x1000x128xbf16>, tensor<2x8x1000xf32>
  return %o, %l : tensor<2x8x1000x128xbf16>, tensor<2x8x1000xf32>
}

func.func @h192_128_dropout(%q: tensor<2x8x1000x192xbf16>, %k: tensor<2x2x1000x192xbf16>, %v: tensor<2x2x1000x128xbf16>, %seed: i64, %off: i64) -> (tensor<2x8x1000x128xbf16>, tensor<2x8x1000xf32>) {
  %o, %l = attn.attention ins(%q, %k, %v : tensor<2x8x1000x192xbf16>, tensor<2x2x1000x192xbf16>, tensor<2x2x1000x128xbf16>) rng(%seed, %off) {dropout_p = 0.1 : f32} -> tensor<2x8x1000x128xbf16>, tensor<2x8x1000xf32>
  return %o, %l : tensor<2x8x1000x128xbf16>, tensor<2x8x1000xf32>
}

func.func @h64_256_plain(%q: tensor<2x8x1000x64xbf16>, %k: tensor<2x2x1000x64xbf16>, %v: tensor<2x2x1000x256xbf16>) -> (tensor<2x8x1000x256xbf16>, tensor<2x8x1000xf32>) {
  %o, %l = attn.attention ins(%q, %k, %v : tensor<2x8x1000x64xbf16>, tensor<2x2x1000x64xbf16>, tensor<2x2x1000x256xbf16>) {causal = #attn.causal<bottom_right>} -> tensor<2x8x1000x256xbf16>, tensor<2x8x1000xf32>
  return %o, %l : tensor<2x8x1000x256xbf16>, tensor<2x8x1000xf32>
}

func.func @h64_256_heavy(%q: tensor<2x8x1000x64xbf16>, %k: tensor<2x2x1000x64xbf16>, %v: tensor<2x2x1000x256xbf16>, %m: tensor<2x1x1x1000xi1>) -> (tensor<2x8x1000x256xbf16>, tensor<2x8x1000xf32>) {
  %o, %l = attn.attention ins(%q, %k, %v : tensor<2x8x1000x64xbf16>, tensor<2x2x1000x64xbf16>, tensor<2x2x1000x256xbf16>) mask(%m : tensor<2x1x1x1000xi1>) {softcap = 30.0 : f32, window = array<i64: 100, 0>, causal = #attn.causal<bottom_right>} -> tensor<2x8x1000x256xbf16>, tensor<2x8x1000xf32>
  return %o, %l : tensor<2x8x1000x256xbf16>, tensor<2x8x1000xf32>
}

func.func @h64_256_dropout(%q: tensor<2x8x1000x64xbf16>, %k: tensor<2x2x1000x64xbf16>, %v: tensor<2x2x1000x256xbf16>, %seed: i64, %off: i64) -> (tensor<2x8x1000x256xbf16>, tensor<2x8x1000xf32>) {
  %o, %l = attn.attention ins(%q, %k, %v : tensor<2x8x1000x64xbf16>, tensor<2x2x1000x64xbf16>, tensor<2x2x1000x256xbf16>) rng(%seed, %off) {dropout_p = 0.1 : f32} -> tensor<2x8x1000x256xbf16>, tensor<2x8x1000xf32>
  return %o, %l : tensor<2x8x1000x256xbf16>, tensor<2x8x1000xf32>
}
