// sm_86 and sm_89 (GA10x and Ada: A10, A40, L4, L40S, RTX 30xx/40xx) run the
// sm_80 mma.sync kernels, but a block has 99 KiB (101376 B) of shared memory
// there, not sm_80's 163 KiB. The choosers size the tiles for it: the
// forward at D >= 160 takes 32-key steps; the backward past D = Dv = 112
// one stage of streamed tiles (query_stages / key_stages 1); a backward
// whose smallest tensor-core tiles do not fit even so (D = Dv past 176)
// falls to the CUDA-core kernels with a remark.
// The manifest passes the runtime's launch checks for the chip
// (attn-manifest-check), and the sm_80 kernels of the same ops, labelled
// sm_86, do not: the budget is real. Every kernel assembles for its chip.
// REQUIRES: ptxas
// RUN: attn-compile %s --chip=sm_86 -o %t.sm86.ptx 2>&1 | FileCheck %s --check-prefix=COMPILE86
// RUN: ptxas -arch=sm_86 -v %t.sm86.ptx -o %t.sm86.cubin 2>&1 | FileCheck %s
// RUN: FileCheck %s --check-prefix=KIND < %t.sm86.json
// RUN: attn-manifest-check %t.sm86.json | FileCheck %s --check-prefix=OK86
// RUN: attn-compile %s --chip=sm_89 -o %t.sm89.ptx 2>&1 | FileCheck %s --check-prefix=COMPILE89
// RUN: ptxas -arch=sm_89 -v %t.sm89.ptx -o %t.sm89.cubin 2>&1 | FileCheck %s
// RUN: attn-manifest-check %t.sm89.json | FileCheck %s --check-prefix=OK89
// RUN: attn-compile %s --chip=sm_80 -o %t.sm80.ptx 2>/dev/null
// RUN: sed 's/"chip": "sm_80"/"chip": "sm_86"/; s/sm80\.ptx/sm80.ptx/' %t.sm80.json > %t.relabelled.json
// RUN: not attn-manifest-check %t.relabelled.json 2>&1 | FileCheck %s --check-prefix=TOOBIG
// RUN: attention-opt %s --attn-select-kernels="chip=sm_89 report=true" 2>&1 | FileCheck %s --check-prefix=REPORT

// COMPILE86: remark: GPU code generation: CUDA-core backward kernels, no tensor-core backward: the kernels' tiles at D = 192, Dv = 192 need 102912 bytes of shared memory, more than the 101376 a block has on sm_86
// COMPILE86: wrote {{.*}} (14 kernels, sm_86,
// COMPILE89: wrote {{.*}} (14 kernels, sm_89,
// OK86: valid, 14 kernels for sm_86
// OK89: valid, 14 kernels for sm_89

// No spills. The tensor-core kernels have no static shared memory (their
// dynamic region is declared extern: attn-extern-dynamic-shared-memory), so
// the D = 256 forward may take all of the 101376 bytes; the CUDA-core
// backward of D = 192 (the first two kernels ptxas reports) has static tiles.
// CHECK-COUNT-2: 0 bytes spill stores, 0 bytes spill loads
// CHECK-COUNT-12: 0 bytes spill stores, 0 bytes spill loads{{$}}
// CHECK-NEXT: Used {{[0-9]+}} registers, used {{[0-9]+}} barriers, {{[0-9]+}} bytes cmem[0]
// CHECK-NOT: bytes spill stores
// TOOBIG: dynamic_shared_memory{{.*}}sm_86
// REPORT: remark: attn-select-kernels sm_89: #attn.tiles<block_q = {{[0-9]+}}, block_kv = 32, {{.*}}kernel = mma_sync>; 128 threads, dynamic shared memory {{[0-9]+}} B of 101376

// The forward kernels are tensor-core ones (D = 256 with 32-key steps, at
// the chip's limit), the backward of D = 64 too, and that of D = 160 with one
// stage; that of D = 192 the CUDA-core dkdv and dq.
// KIND: "kernel": "tensor-core",
// KIND-NEXT: "mma": "mma.sync",
// KIND: "dynamic_shared_memory": 101376,
// KIND: "name": "attn_fwd_0"
// KIND: "kernel": "tensor-core",
// KIND-NEXT: "mma": "mma.sync",
// KIND: "name": "attn_fwd_1"
// KIND: "kernel": "tensor-core",
// KIND-NEXT: "mma": "mma.sync",
// KIND: "name": "attn_fwd_2"
// KIND: "kernel": "tensor-core",
// KIND-NEXT: "mma": "mma.sync",
// KIND: "name": "attn_fwd_3"
// KIND: "kernel": "tensor-core",
// KIND-NEXT: "mma": "mma.sync",
// KIND: "name": "attn_fwd_4"
// KIND: "kernel": "tensor-core",
// KIND-NEXT: "mma": "mma.sync",
// KIND: "name": "attn_fwd_5"
// KIND: "kernel": "tensor-core",
// KIND-NEXT: "mma": "none",
// KIND: "name": "attn_bwd_prep_0"
// KIND: "kernel": "tensor-core",
// KIND-NEXT: "mma": "mma.sync",
// KIND: "name": "attn_bwd_dkdv_0"
// KIND: "kernel": "tensor-core",
// KIND-NEXT: "mma": "mma.sync",
// KIND: "name": "attn_bwd_dq_0"
// KIND: "name": "attn_bwd_prep_1"
// KIND: "key_block_parts": 2,
// KIND-NEXT: "mma": "mma.sync",
// KIND-NEXT: "query_stages": 1,
// KIND: "name": "attn_bwd_dkdv_1"
// KIND: "kernel": "tensor-core",
// KIND-NEXT: "key_stages": 1,
// KIND-NEXT: "mma": "mma.sync",
// KIND: "name": "attn_bwd_dq_1"
// KIND: "kernel": "cuda-core",
// KIND: "name": "attn_bwd_dkdv_2"
// KIND: "kernel": "cuda-core",
// KIND: "name": "attn_bwd_dq_2"

func.func @d256(%q: tensor<2x8x1000x256xbf16>, %k: tensor<2x2x1000x256xbf16>, %v: tensor<2x2x1000x256xbf16>) -> tensor<2x8x1000x256xbf16> {
  %o = attn.attention ins(%q, %k, %v : tensor<2x8x1000x256xbf16>, tensor<2x2x1000x256xbf16>, tensor<2x2x1000x256xbf16>) {causal = #attn.causal<bottom_right>} -> tensor<2x8x1000x256xbf16>
  return %o : tensor<2x8x1000x256xbf16>
}

func.func @d192_dropout(%q: tensor<2x8x1000x192xf16>, %k: tensor<2x8x1000x192xf16>, %v: tensor<2x8x1000x192xf16>, %seed: i64, %off: i64) -> tensor<2x8x1000x192xf16> {
  %o = attn.attention ins(%q, %k, %v : tensor<2x8x1000x192xf16>, tensor<2x8x1000x192xf16>, tensor<2x8x1000x192xf16>) rng(%seed, %off) {dropout_p = 0.1 : f32} -> tensor<2x8x1000x192xf16>
  return %o : tensor<2x8x1000x192xf16>
}

func.func @d128_window(%q: tensor<2x8x1000x128xbf16>, %k: tensor<2x8x1000x128xbf16>, %v: tensor<2x8x1000x128xbf16>, %m: tensor<2x1x1x1000xi1>) -> tensor<2x8x1000x128xbf16> {
  %o = attn.attention ins(%q, %k, %v : tensor<2x8x1000x128xbf16>, tensor<2x8x1000x128xbf16>, tensor<2x8x1000x128xbf16>) mask(%m : tensor<2x1x1x1000xi1>) {softcap = 30.0 : f32, window = array<i64: 100, 0>} -> tensor<2x8x1000x128xbf16>
  return %o : tensor<2x8x1000x128xbf16>
}

// Training steps: the forward, then the backward group.
func.func @train_d64(%q: tensor<2x8x1000x64xbf16>, %k: tensor<2x2x1000x64xbf16>, %v: tensor<2x2x1000x64xbf16>, %do: tensor<2x8x1000x64xbf16>) -> (tensor<2x8x1000x64xbf16>, tensor<2x2x1000x64xbf16>, tensor<2x2x1000x64xbf16>) {
  %o, %l = attn.attention ins(%q, %k, %v : tensor<2x8x1000x64xbf16>, tensor<2x2x1000x64xbf16>, tensor<2x2x1000x64xbf16>) {causal = #attn.causal<bottom_right>} -> tensor<2x8x1000x64xbf16>, tensor<2x8x1000xf32>
  %dq, %dk, %dv = attn.attention_grad ins(%q, %k, %v : tensor<2x8x1000x64xbf16>, tensor<2x2x1000x64xbf16>, tensor<2x2x1000x64xbf16>) forward(%o, %l : tensor<2x8x1000x64xbf16>, tensor<2x8x1000xf32>) grad_output(%do : tensor<2x8x1000x64xbf16>) {causal = #attn.causal<bottom_right>} -> tensor<2x8x1000x64xbf16>, tensor<2x2x1000x64xbf16>, tensor<2x2x1000x64xbf16>
  return %dq, %dk, %dv : tensor<2x8x1000x64xbf16>, tensor<2x2x1000x64xbf16>, tensor<2x2x1000x64xbf16>
}

func.func @train_d160(%q: tensor<1x4x500x160xbf16>, %k: tensor<1x4x500x160xbf16>, %v: tensor<1x4x500x160xbf16>, %do: tensor<1x4x500x160xbf16>) -> (tensor<1x4x500x160xbf16>, tensor<1x4x500x160xbf16>, tensor<1x4x500x160xbf16>) {
  %o, %l = attn.attention ins(%q, %k, %v : tensor<1x4x500x160xbf16>, tensor<1x4x500x160xbf16>, tensor<1x4x500x160xbf16>) -> tensor<1x4x500x160xbf16>, tensor<1x4x500xf32>
  %dq, %dk, %dv = attn.attention_grad ins(%q, %k, %v : tensor<1x4x500x160xbf16>, tensor<1x4x500x160xbf16>, tensor<1x4x500x160xbf16>) forward(%o, %l : tensor<1x4x500x160xbf16>, tensor<1x4x500xf32>) grad_output(%do : tensor<1x4x500x160xbf16>) -> tensor<1x4x500x160xbf16>, tensor<1x4x500x160xbf16>, tensor<1x4x500x160xbf16>
  return %dq, %dk, %dv : tensor<1x4x500x160xbf16>, tensor<1x4x500x160xbf16>, tensor<1x4x500x160xbf16>
}

func.func @train_d192(%q: tensor<1x4x300x192xbf16>, %k: tensor<1x4x300x192xbf16>, %v: tensor<1x4x300x192xbf16>, %do: tensor<1x4x300x192xbf16>) -> (tensor<1x4x300x192xbf16>, tensor<1x4x300x192xbf16>, tensor<1x4x300x192xbf16>) {
  %o, %l = attn.attention ins(%q, %k, %v : tensor<1x4x300x192xbf16>, tensor<1x4x300x192xbf16>, tensor<1x4x300x192xbf16>) {causal = #attn.causal<top_left>} -> tensor<1x4x300x192xbf16>, tensor<1x4x300xf32>
  %dq, %dk, %dv = attn.attention_grad ins(%q, %k, %v : tensor<1x4x300x192xbf16>, tensor<1x4x300x192xbf16>, tensor<1x4x300x192xbf16>) forward(%o, %l : tensor<1x4x300x192xbf16>, tensor<1x4x300xf32>) grad_output(%do : tensor<1x4x300x192xbf16>) {causal = #attn.causal<top_left>} -> tensor<1x4x300x192xbf16>, tensor<1x4x300x192xbf16>, tensor<1x4x300x192xbf16>
  return %dq, %dk, %dv : tensor<1x4x300x192xbf16>, tensor<1x4x300x192xbf16>, tensor<1x4x300x192xbf16>
}
