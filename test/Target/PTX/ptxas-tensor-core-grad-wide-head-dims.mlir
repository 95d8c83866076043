// Issue 19: the tensor-core backward for head dims past 128 and D != Dv
// (mma.sync prep + dkdv + dq; TensorCoreGradKernelBuilder.cpp). Where the
// padded D + Dv exceed 256, one warp cannot hold both dK and dV, and the
// dkdv kernel splits them between two blocks per key block
// (tcgrad::keyBlockParts; "key_block_parts": 2 in the manifest). Three
// variants per pair (causal GQA; softcap + window + key-padding mask;
// dropout), Lq = Lk = 1000, on sm_90a and sm_80 (D = 256 with Dv = 256 does
// not fit sm_80's shared memory: ptxas-tensor-core-grad-d256.mlir). Most
// kernels do not spill; measured 2026-12-01 with ptxas 13, the dropout dkdv
// kernels at D = 136 spill up to 48 bytes (sm_80) and a few others 4 to 32
// bytes; this test bounds every kernel at 99 bytes. With the shared dropout
// draw (session 42, SharedDropoutDraw.h) two kernels spill on sm_90a, 24
// and 52 bytes (228 bytes in five kernels before), and two on sm_80, 4
// bytes each (144 in five). The GPU validation runs
// these head dims (bench/make_cases.py BWD_WIDE_HEAD_DIMS). Since session
// 44 dropout at D = 256, Dv = 128 runs the split dkdv on wgmma (no spills
// there). Session 48 (one column a lane in the backward's copies): none on
// sm_90a, one kernel on sm_80 spills 4 bytes (the split dkdv at D = 256,
// Dv = 128 with mask, softcap and window).
// REQUIRES: ptxas
// RUN: attn-compile %s --chip=sm_90a -o %t.sm90.ptx | FileCheck %s --check-prefix=COMPILE90
// RUN: ptxas -arch=sm_90a -v %t.sm90.ptx -o %t.sm90.cubin 2>&1 | FileCheck %s
// RUN: FileCheck %s --check-prefix=KIND90 < %t.sm90.json
// RUN: not grep -q cuda-core %t.sm90.json
// RUN: attn-compile %s --chip=sm_80 -o %t.sm80.ptx | FileCheck %s --check-prefix=COMPILE80
// RUN: ptxas -arch=sm_80 -v %t.sm80.ptx -o %t.sm80.cubin 2>&1 | FileCheck %s
// RUN: FileCheck %s --check-prefix=KIND80 < %t.sm80.json
// RUN: not grep -q cuda-core %t.sm80.json

// Four kernels per training step: forward, prep, dkdv, dq.
// COMPILE90: (84 kernels, sm_90a,
// COMPILE80: (84 kernels, sm_80,
// CHECK-COUNT-84: {{^ *([0-9]|[1-9][0-9])[0-9]? bytes stack frame, ([0-9]|[1-9][0-9]) bytes spill stores}}
// CHECK-NOT: bytes spill stores

// Every kernel is a tensor-core one; the backward: prep, then dkdv (split
// where D + Dv > 256) and dq. On sm_90a the key-block kernel is the wgmma
// one with the atomic dQ (dkdv_dq, dq_convert), and where D + Dv > 256 its
// two consumer warpgroups split the head dims (split = warpgroups,
// session 45; at D = 256 beside one Q / dO stage, session 47); on sm_80 mma.sync dkdv and dq, two blocks per key block
// where D + Dv > 256.
// KIND90-NOT: "key_block_parts"
// KIND90: "mma": "none",
// KIND90: "name": "attn_bwd_prep_0"
// KIND90-NOT: "key_block_parts"
// KIND90: "key_block_split": "warpgroups",
// KIND90: "mma": "wgmma",
// KIND90: "name": "attn_bwd_dkdv_dq_0"
// KIND90-NOT: "key_block_parts"
// KIND90: "mma": "none",
// KIND90: "name": "attn_bwd_dq_convert_0"
// KIND90-NOT: "key_block_parts"
// KIND90: "mma": "none",
// KIND90: "name": "attn_bwd_prep_1"
// KIND90-NOT: "key_block_parts"
// KIND90: "key_block_split": "warpgroups",
// KIND90: "mma": "wgmma",
// KIND90: "name": "attn_bwd_dkdv_dq_1"
// KIND90-NOT: "key_block_parts"
// KIND90: "mma": "none",
// KIND90: "name": "attn_bwd_dq_convert_1"
// KIND90-NOT: "key_block_parts"
// KIND90: "mma": "none",
// KIND90: "name": "attn_bwd_prep_2"
// KIND90-NOT: "key_block_parts"
// KIND90: "key_block_split": "warpgroups",
// KIND90: "mma": "wgmma",
// KIND90: "name": "attn_bwd_dkdv_dq_2"
// KIND90-NOT: "key_block_parts"
// KIND90: "mma": "none",
// KIND90: "name": "attn_bwd_dq_convert_2"
// KIND90-NOT: "key_block_parts"
// KIND90: "mma": "none",
// KIND90: "name": "attn_bwd_prep_3"
// KIND90-NOT: "key_block_parts"
// KIND90: "key_block_split": "warpgroups",
// KIND90: "mma": "wgmma",
// KIND90: "name": "attn_bwd_dkdv_dq_3"
// KIND90-NOT: "key_block_parts"
// KIND90: "mma": "none",
// KIND90: "name": "attn_bwd_dq_convert_3"
// KIND90-NOT: "key_block_parts"
// KIND90: "mma": "none",
// KIND90: "name": "attn_bwd_prep_4"
// KIND90-NOT: "key_block_parts"
// KIND90: "key_block_split": "warpgroups",
// KIND90: "mma": "wgmma",
// KIND90: "name": "attn_bwd_dkdv_dq_4"
// KIND90-NOT: "key_block_parts"
// KIND90: "mma": "none",
// KIND90: "name": "attn_bwd_dq_convert_4"
// KIND90-NOT: "key_block_parts"
// KIND90: "mma": "none",
// KIND90: "name": "attn_bwd_prep_5"
// KIND90-NOT: "key_block_parts"
// KIND90: "key_block_split": "warpgroups",
// KIND90: "mma": "wgmma",
// KIND90: "name": "attn_bwd_dkdv_dq_5"
// KIND90-NOT: "key_block_parts"
// KIND90: "mma": "none",
// KIND90: "name": "attn_bwd_dq_convert_5"
// KIND90-NOT: "key_block_parts"
// KIND90: "mma": "none",
// KIND90: "name": "attn_bwd_prep_6"
// KIND90-NOT: "key_block_parts"
// KIND90: "key_block_split": "warpgroups",
// KIND90: "mma": "wgmma",
// KIND90: "name": "attn_bwd_dkdv_dq_6"
// KIND90-NOT: "key_block_parts"
// KIND90: "mma": "none",
// KIND90: "name": "attn_bwd_dq_convert_6"
// KIND90-NOT: "key_block_parts"
// KIND90: "mma": "none",
// KIND90: "name": "attn_bwd_prep_7"
// KIND90-NOT: "key_block_parts"
// KIND90: "key_block_split": "warpgroups",
// KIND90: "mma": "wgmma",
// KIND90: "name": "attn_bwd_dkdv_dq_7"
// KIND90-NOT: "key_block_parts"
// KIND90: "mma": "none",
// KIND90: "name": "attn_bwd_dq_convert_7"
// KIND90-NOT: "key_block_parts"
// KIND90: "mma": "none",
// KIND90: "name": "attn_bwd_prep_8"
// KIND90-NOT: "key_block_parts"
// KIND90: "key_block_split": "warpgroups",
// KIND90: "mma": "wgmma",
// KIND90: "name": "attn_bwd_dkdv_dq_8"
// KIND90-NOT: "key_block_parts"
// KIND90: "mma": "none",
// KIND90: "name": "attn_bwd_dq_convert_8"
// KIND90-NOT: "key_block_parts"
// KIND90: "mma": "none",
// KIND90: "name": "attn_bwd_prep_9"
// KIND90-NOT: "key_block_parts"
// KIND90: "key_block_split": "warpgroups",
// KIND90: "mma": "wgmma",
// KIND90: "query_stages": 1,
// KIND90: "name": "attn_bwd_dkdv_dq_9"
// KIND90-NOT: "key_block_parts"
// KIND90: "mma": "none",
// KIND90: "name": "attn_bwd_dq_convert_9"
// KIND90-NOT: "key_block_parts"
// KIND90: "mma": "none",
// KIND90: "name": "attn_bwd_prep_10"
// KIND90-NOT: "key_block_parts"
// KIND90: "key_block_split": "warpgroups",
// KIND90: "mma": "wgmma",
// KIND90: "query_stages": 1,
// KIND90: "name": "attn_bwd_dkdv_dq_10"
// KIND90-NOT: "key_block_parts"
// KIND90: "mma": "none",
// KIND90: "name": "attn_bwd_dq_convert_10"
// KIND90-NOT: "key_block_parts"
// KIND90: "mma": "none",
// KIND90: "name": "attn_bwd_prep_11"
// KIND90-NOT: "key_block_parts"
// KIND90: "key_block_split": "warpgroups",
// KIND90: "mma": "wgmma",
// KIND90: "query_stages": 1,
// KIND90: "name": "attn_bwd_dkdv_dq_11"
// KIND90-NOT: "key_block_parts"
// KIND90: "mma": "none",
// KIND90: "name": "attn_bwd_dq_convert_11"
// KIND90-NOT: "key_block_parts"
// KIND90: "mma": "none",
// KIND90: "name": "attn_bwd_prep_12"
// KIND90-NOT: "key_block_parts"
// KIND90: "mma": "wgmma",
// KIND90: "name": "attn_bwd_dkdv_dq_12"
// KIND90-NOT: "key_block_parts"
// KIND90: "mma": "none",
// KIND90: "name": "attn_bwd_dq_convert_12"
// KIND90-NOT: "key_block_parts"
// KIND90: "mma": "none",
// KIND90: "name": "attn_bwd_prep_13"
// KIND90-NOT: "key_block_parts"
// KIND90: "mma": "wgmma",
// KIND90: "name": "attn_bwd_dkdv_dq_13"
// KIND90-NOT: "key_block_parts"
// KIND90: "mma": "none",
// KIND90: "name": "attn_bwd_dq_convert_13"
// KIND90-NOT: "key_block_parts"
// KIND90: "mma": "none",
// KIND90: "name": "attn_bwd_prep_14"
// KIND90-NOT: "key_block_parts"
// KIND90: "mma": "wgmma",
// KIND90: "name": "attn_bwd_dkdv_dq_14"
// KIND90-NOT: "key_block_parts"
// KIND90: "mma": "none",
// KIND90: "name": "attn_bwd_dq_convert_14"
// KIND90-NOT: "key_block_parts"
// KIND90: "mma": "none",
// KIND90: "name": "attn_bwd_prep_15"
// KIND90-NOT: "key_block_parts"
// KIND90: "mma": "wgmma",
// KIND90: "name": "attn_bwd_dkdv_dq_15"
// KIND90-NOT: "key_block_parts"
// KIND90: "mma": "none",
// KIND90: "name": "attn_bwd_dq_convert_15"
// KIND90-NOT: "key_block_parts"
// KIND90: "mma": "none",
// KIND90: "name": "attn_bwd_prep_16"
// KIND90-NOT: "key_block_parts"
// KIND90: "mma": "wgmma",
// KIND90: "name": "attn_bwd_dkdv_dq_16"
// KIND90-NOT: "key_block_parts"
// KIND90: "mma": "none",
// KIND90: "name": "attn_bwd_dq_convert_16"
// KIND90-NOT: "key_block_parts"
// KIND90: "mma": "none",
// KIND90: "name": "attn_bwd_prep_17"
// KIND90-NOT: "key_block_parts"
// KIND90: "mma": "wgmma",
// KIND90: "name": "attn_bwd_dkdv_dq_17"
// KIND90-NOT: "key_block_parts"
// KIND90: "mma": "none",
// KIND90: "name": "attn_bwd_dq_convert_17"
// KIND90-NOT: "key_block_parts"
// KIND90: "mma": "none",
// KIND90: "name": "attn_bwd_prep_18"
// KIND90-NOT: "key_block_parts"
// KIND90: "key_block_split": "warpgroups",
// KIND90: "mma": "wgmma",
// KIND90: "name": "attn_bwd_dkdv_dq_18"
// KIND90-NOT: "key_block_parts"
// KIND90: "mma": "none",
// KIND90: "name": "attn_bwd_dq_convert_18"
// KIND90-NOT: "key_block_parts"
// KIND90: "mma": "none",
// KIND90: "name": "attn_bwd_prep_19"
// KIND90-NOT: "key_block_parts"
// KIND90: "key_block_split": "warpgroups",
// KIND90: "mma": "wgmma",
// KIND90: "name": "attn_bwd_dkdv_dq_19"
// KIND90-NOT: "key_block_parts"
// KIND90: "mma": "none",
// KIND90: "name": "attn_bwd_dq_convert_19"
// KIND90-NOT: "key_block_parts"
// KIND90: "mma": "none",
// KIND90: "name": "attn_bwd_prep_20"
// KIND90-NOT: "key_block_parts"
// KIND90: "key_block_split": "warpgroups",
// KIND90: "mma": "wgmma",
// KIND90: "name": "attn_bwd_dkdv_dq_20"
// KIND90-NOT: "key_block_parts"
// KIND90: "mma": "none",
// KIND90: "name": "attn_bwd_dq_convert_20"
// KIND80-NOT: "key_block_parts"
// KIND80: "mma": "none",
// KIND80: "name": "attn_bwd_prep_0"
// KIND80: "key_block_parts": 2,
// KIND80: "mma": "mma.sync",
// KIND80: "name": "attn_bwd_dkdv_0"
// KIND80-NOT: "key_block_parts"
// KIND80: "mma": "mma.sync",
// KIND80: "name": "attn_bwd_dq_0"
// KIND80-NOT: "key_block_parts"
// KIND80: "mma": "none",
// KIND80: "name": "attn_bwd_prep_1"
// KIND80: "key_block_parts": 2,
// KIND80: "mma": "mma.sync",
// KIND80: "name": "attn_bwd_dkdv_1"
// KIND80-NOT: "key_block_parts"
// KIND80: "mma": "mma.sync",
// KIND80: "name": "attn_bwd_dq_1"
// KIND80-NOT: "key_block_parts"
// KIND80: "mma": "none",
// KIND80: "name": "attn_bwd_prep_2"
// KIND80: "key_block_parts": 2,
// KIND80: "mma": "mma.sync",
// KIND80: "name": "attn_bwd_dkdv_2"
// KIND80-NOT: "key_block_parts"
// KIND80: "mma": "mma.sync",
// KIND80: "name": "attn_bwd_dq_2"
// KIND80-NOT: "key_block_parts"
// KIND80: "mma": "none",
// KIND80: "name": "attn_bwd_prep_3"
// KIND80: "key_block_parts": 2,
// KIND80: "mma": "mma.sync",
// KIND80: "name": "attn_bwd_dkdv_3"
// KIND80-NOT: "key_block_parts"
// KIND80: "mma": "mma.sync",
// KIND80: "name": "attn_bwd_dq_3"
// KIND80-NOT: "key_block_parts"
// KIND80: "mma": "none",
// KIND80: "name": "attn_bwd_prep_4"
// KIND80: "key_block_parts": 2,
// KIND80: "mma": "mma.sync",
// KIND80: "name": "attn_bwd_dkdv_4"
// KIND80-NOT: "key_block_parts"
// KIND80: "mma": "mma.sync",
// KIND80: "name": "attn_bwd_dq_4"
// KIND80-NOT: "key_block_parts"
// KIND80: "mma": "none",
// KIND80: "name": "attn_bwd_prep_5"
// KIND80: "key_block_parts": 2,
// KIND80: "mma": "mma.sync",
// KIND80: "name": "attn_bwd_dkdv_5"
// KIND80-NOT: "key_block_parts"
// KIND80: "mma": "mma.sync",
// KIND80: "name": "attn_bwd_dq_5"
// KIND80-NOT: "key_block_parts"
// KIND80: "mma": "none",
// KIND80: "name": "attn_bwd_prep_6"
// KIND80: "key_block_parts": 2,
// KIND80: "mma": "mma.sync",
// KIND80: "name": "attn_bwd_dkdv_6"
// KIND80-NOT: "key_block_parts"
// KIND80: "mma": "mma.sync",
// KIND80: "name": "attn_bwd_dq_6"
// KIND80-NOT: "key_block_parts"
// KIND80: "mma": "none",
// KIND80: "name": "attn_bwd_prep_7"
// KIND80: "key_block_parts": 2,
// KIND80: "mma": "mma.sync",
// KIND80: "name": "attn_bwd_dkdv_7"
// KIND80-NOT: "key_block_parts"
// KIND80: "mma": "mma.sync",
// KIND80: "name": "attn_bwd_dq_7"
// KIND80-NOT: "key_block_parts"
// KIND80: "mma": "none",
// KIND80: "name": "attn_bwd_prep_8"
// KIND80: "key_block_parts": 2,
// KIND80: "mma": "mma.sync",
// KIND80: "name": "attn_bwd_dkdv_8"
// KIND80-NOT: "key_block_parts"
// KIND80: "mma": "mma.sync",
// KIND80: "name": "attn_bwd_dq_8"
// KIND80-NOT: "key_block_parts"
// KIND80: "mma": "none",
// KIND80: "name": "attn_bwd_prep_9"
// KIND80: "key_block_parts": 2,
// KIND80: "mma": "mma.sync",
// KIND80: "name": "attn_bwd_dkdv_9"
// KIND80-NOT: "key_block_parts"
// KIND80: "mma": "mma.sync",
// KIND80: "name": "attn_bwd_dq_9"
// KIND80-NOT: "key_block_parts"
// KIND80: "mma": "none",
// KIND80: "name": "attn_bwd_prep_10"
// KIND80: "key_block_parts": 2,
// KIND80: "mma": "mma.sync",
// KIND80: "name": "attn_bwd_dkdv_10"
// KIND80-NOT: "key_block_parts"
// KIND80: "mma": "mma.sync",
// KIND80: "name": "attn_bwd_dq_10"
// KIND80-NOT: "key_block_parts"
// KIND80: "mma": "none",
// KIND80: "name": "attn_bwd_prep_11"
// KIND80: "key_block_parts": 2,
// KIND80: "mma": "mma.sync",
// KIND80: "name": "attn_bwd_dkdv_11"
// KIND80-NOT: "key_block_parts"
// KIND80: "mma": "mma.sync",
// KIND80: "name": "attn_bwd_dq_11"
// KIND80-NOT: "key_block_parts"
// KIND80: "mma": "none",
// KIND80: "name": "attn_bwd_prep_12"
// KIND80-NOT: "key_block_parts"
// KIND80: "mma": "mma.sync",
// KIND80: "name": "attn_bwd_dkdv_12"
// KIND80-NOT: "key_block_parts"
// KIND80: "mma": "mma.sync",
// KIND80: "name": "attn_bwd_dq_12"
// KIND80-NOT: "key_block_parts"
// KIND80: "mma": "none",
// KIND80: "name": "attn_bwd_prep_13"
// KIND80-NOT: "key_block_parts"
// KIND80: "mma": "mma.sync",
// KIND80: "name": "attn_bwd_dkdv_13"
// KIND80-NOT: "key_block_parts"
// KIND80: "mma": "mma.sync",
// KIND80: "name": "attn_bwd_dq_13"
// KIND80-NOT: "key_block_parts"
// KIND80: "mma": "none",
// KIND80: "name": "attn_bwd_prep_14"
// KIND80-NOT: "key_block_parts"
// KIND80: "mma": "mma.sync",
// KIND80: "name": "attn_bwd_dkdv_14"
// KIND80-NOT: "key_block_parts"
// KIND80: "mma": "mma.sync",
// KIND80: "name": "attn_bwd_dq_14"
// KIND80-NOT: "key_block_parts"
// KIND80: "mma": "none",
// KIND80: "name": "attn_bwd_prep_15"
// KIND80-NOT: "key_block_parts"
// KIND80: "mma": "mma.sync",
// KIND80: "name": "attn_bwd_dkdv_15"
// KIND80-NOT: "key_block_parts"
// KIND80: "mma": "mma.sync",
// KIND80: "name": "attn_bwd_dq_15"
// KIND80-NOT: "key_block_parts"
// KIND80: "mma": "none",
// KIND80: "name": "attn_bwd_prep_16"
// KIND80-NOT: "key_block_parts"
// KIND80: "mma": "mma.sync",
// KIND80: "name": "attn_bwd_dkdv_16"
// KIND80-NOT: "key_block_parts"
// KIND80: "mma": "mma.sync",
// KIND80: "name": "attn_bwd_dq_16"
// KIND80-NOT: "key_block_parts"
// KIND80: "mma": "none",
// KIND80: "name": "attn_bwd_prep_17"
// KIND80-NOT: "key_block_parts"
// KIND80: "mma": "mma.sync",
// KIND80: "name": "attn_bwd_dkdv_17"
// KIND80-NOT: "key_block_parts"
// KIND80: "mma": "mma.sync",
// KIND80: "name": "attn_bwd_dq_17"
// KIND80-NOT: "key_block_parts"
// KIND80: "mma": "none",
// KIND80: "name": "attn_bwd_prep_18"
// KIND80: "key_block_parts": 2,
// KIND80: "mma": "mma.sync",
// KIND80: "name": "attn_bwd_dkdv_18"
// KIND80-NOT: "key_block_parts"
// KIND80: "mma": "mma.sync",
// KIND80: "name": "attn_bwd_dq_18"
// KIND80-NOT: "key_block_parts"
// KIND80: "mma": "none",
// KIND80: "name": "attn_bwd_prep_19"
// KIND80: "key_block_parts": 2,
// KIND80: "mma": "mma.sync",
// KIND80: "name": "attn_bwd_dkdv_19"
// KIND80-NOT: "key_block_parts"
// KIND80: "mma": "mma.sync",
// KIND80: "name": "attn_bwd_dq_19"
// KIND80-NOT: "key_block_parts"
// KIND80: "mma": "none",
// KIND80: "name": "attn_bwd_prep_20"
// KIND80: "key_block_parts": 2,
// KIND80: "mma": "mma.sync",
// KIND80: "name": "attn_bwd_dkdv_20"
// KIND80-NOT: "key_block_parts"
// KIND80: "mma": "mma.sync",
// KIND80: "name": "attn_bwd_dq_20"

func.func @t160_160_causal(%q: tensor<2x8x1000x160xbf16>, %k: tensor<2x2x1000x160xbf16>, %v: tensor<2x2x1000x160xbf16>, %do: tensor<2x8x1000x160xbf16>) -> (tensor<2x8x1000x160xbf16>, tensor<2x8x1000xf32>, tensor<2x8x1000x160xbf16>, tensor<2x2x1000x160xbf16>, tensor<2x2x1000x160xbf16>) {
  %o, %l = attn.attention ins(%q, %k, %v : tensor<2x8x1000x160xbf16>, tensor<2x2x1000x160xbf16>, tensor<2x2x1000x160xbf16>) {causal = #attn.causal<bottom_right>} -> tensor<2x8x1000x160xbf16>, tensor<2x8x1000xf32>
  %dq, %dk, %dv = attn.attention_grad ins(%q, %k, %v : tensor<2x8x1000x160xbf16>, tensor<2x2x1000x160xbf16>, tensor<2x2x1000x160xbf16>) forward(%o, %l : tensor<2x8x1000x160xbf16>, tensor<2x8x1000xf32>) grad_output(%do : tensor<2x8x1000x160xbf16>) {causal = #attn.causal<bottom_right>} -> tensor<2x8x1000x160xbf16>, tensor<2x2x1000x160xbf16>, tensor<2x2x1000x160xbf16>
  return %o, %l, %dq, %dk, %dv : tensor<2x8x1000x160xbf16>, tensor<2x8x1000xf32>, tensor<2x8x1000x160xbf16>, tensor<2x2x1000x160xbf16>, tensor<2x2x1000x160xbf16>
}

func.func @t160_160_heavy(%q: tensor<2x8x1000x160xbf16>, %k: tensor<2x2x1000x160xbf16>, %v: tensor<2x2x1000x160xbf16>, %do: tensor<2x8x1000x160xbf16>, %m: tensor<2x1x1x1000xi1>) -> (tensor<2x8x1000x160xbf16>, tensor<2x8x1000xf32>, tensor<2x8x1000x160xbf16>, tensor<2x2x1000x160xbf16>, tensor<2x2x1000x160xbf16>) {
  %o, %l = attn.attention ins(%q, %k, %v : tensor<2x8x1000x160xbf16>, tensor<2x2x1000x160xbf16>, tensor<2x2x1000x160xbf16>) mask(%m : tensor<2x1x1x1000xi1>) {softcap = 30.0 : f32, window = array<i64: 100, 0>, causal = #attn.causal<bottom_right>} -> tensor<2x8x1000x160xbf16>, tensor<2x8x1000xf32>
  %dq, %dk, %dv = attn.attention_grad ins(%q, %k, %v : tensor<2x8x1000x160xbf16>, tensor<2x2x1000x160xbf16>, tensor<2x2x1000x160xbf16>) forward(%o, %l : tensor<2x8x1000x160xbf16>, tensor<2x8x1000xf32>) grad_output(%do : tensor<2x8x1000x160xbf16>) mask(%m : tensor<2x1x1x1000xi1>) {softcap = 30.0 : f32, window = array<i64: 100, 0>, causal = #attn.causal<bottom_right>} -> tensor<2x8x1000x160xbf16>, tensor<2x2x1000x160xbf16>, tensor<2x2x1000x160xbf16>
  return %o, %l, %dq, %dk, %dv : tensor<2x8x1000x160xbf16>, tensor<2x8x1000xf32>, tensor<2x8x1000x160xbf16>, tensor<2x2x1000x160xbf16>, tensor<2x2x1000x160xbf16>
}

func.func @t160_160_dropout(%q: tensor<2x8x1000x160xbf16>, %k: tensor<2x2x1000x160xbf16>, %v: tensor<2x2x1000x160xbf16>, %do: tensor<2x8x1000x160xbf16>, %seed: i64, %off: i64) -> (tensor<2x8x1000x160xbf16>, tensor<2x8x1000xf32>, tensor<2x8x1000x160xbf16>, tensor<2x2x1000x160xbf16>, tensor<2x2x1000x160xbf16>) {
  %o, %l = attn.attention ins(%q, %k, %v : tensor<2x8x1000x160xbf16>, tensor<2x2x1000x160xbf16>, tensor<2x2x1000x160xbf16>) rng(%seed, %off) {dropout_p = 0.1 : f32} -> tensor<2x8x1000x160xbf16>, tensor<2x8x1000xf32>
  %dq, %dk, %dv = attn.attention_grad ins(%q, %k, %v : tensor<2x8x1000x160xbf16>, tensor<2x2x1000x160xbf16>, tensor<2x2x1000x160xbf16>) forward(%o, %l : tensor<2x8x1000x160xbf16>, tensor<2x8x1000xf32>) grad_output(%do : tensor<2x8x1000x160xbf16>) rng(%seed, %off) {dropout_p = 0.1 : f32} -> tensor<2x8x1000x160xbf16>, tensor<2x2x1000x160xbf16>, tensor<2x2x1000x160xbf16>
  return %o, %l, %dq, %dk, %dv : tensor<2x8x1000x160xbf16>, tensor<2x8x1000xf32>, tensor<2x8x1000x160xbf16>, tensor<2x2x1000x160xbf16>, tensor<2x2x1000x160xbf16>
}

func.func @t192_192_causal(%q: tensor<2x8x1000x192xbf16>, %k: tensor<2x2x1000x192xbf16>, %v: tensor<2x2x1000x192xbf16>, %do: tensor<2x8x1000x192xbf16>) -> (tensor<2x8x1000x192xbf16>, tensor<2x8x1000xf32>, tensor<2x8x1000x192xbf16>, tensor<2x2x1000x192xbf16>, tensor<2x2x1000x192xbf16>) {
  %o, %l = attn.attention ins(%q, %k, %v : tensor<2x8x1000x192xbf16>, tensor<2x2x1000x192xbf16>, tensor<2x2x1000x192xbf16>) {causal = #attn.causal<bottom_right>} -> tensor<2x8x1000x192xbf16>, tensor<2x8x1000xf32>
  %dq, %dk, %dv = attn.attention_grad ins(%q, %k, %v : tensor<2x8x1000x192xbf16>, tensor<2x2x1000x192xbf16>, tensor<2x2x1000x192xbf16>) forward(%o, %l : tensor<2x8x1000x192xbf16>, tensor<2x8x1000xf32>) grad_output(%do : tensor<2x8x1000x192xbf16>) {causal = #attn.causal<bottom_right>} -> tensor<2x8x1000x192xbf16>, tensor<2x2x1000x192xbf16>, tensor<2x2x1000x192xbf16>
  return %o, %l, %dq, %dk, %dv : tensor<2x8x1000x192xbf16>, tensor<2x8x1000xf32>, tensor<2x8x1000x192xbf16>, tensor<2x2x1000x192xbf16>, tensor<2x2x1000x192xbf16>
}

func.func @t192_192_heavy(%q: tensor<2x8x1000x192xbf16>, %k: tensor<2x2x1000x192xbf16>, %v: tensor<2x2x1000x192xbf16>, %do: tensor<2x8x1000x192xbf16>, %m: tensor<2x1x1x1000xi1>) -> (tensor<2x8x1000x192xbf16>, tensor<2x8x1000xf32>, tensor<2x8x1000x192xbf16>, tensor<2x2x1000x192xbf16>, tensor<2x2x1000x192xbf16>) {
  %o, %l = attn.attention ins(%q, %k, %v : tensor<2x8x1000x192xbf16>, tensor<2x2x1000x192xbf16>, tensor<2x2x1000x192xbf16>) mask(%m : tensor<2x1x1x1000xi1>) {softcap = 30.0 : f32, window = array<i64: 100, 0>, causal = #attn.causal<bottom_right>} -> tensor<2x8x1000x192xbf16>, tensor<2x8x1000xf32>
  %dq, %dk, %dv = attn.attention_grad ins(%q, %k, %v : tensor<2x8x1000x192xbf16>, tensor<2x2x1000x192xbf16>, tensor<2x2x1000x192xbf16>) forward(%o, %l : tensor<2x8x1000x192xbf16>, tensor<2x8x1000xf32>) grad_output(%do : tensor<2x8x1000x192xbf16>) mask(%m : tensor<2x1x1x1000xi1>) {softcap = 30.0 : f32, window = array<i64: 100, 0>, causal = #attn.causal<bottom_right>} -> tensor<2x8x1000x192xbf16>, tensor<2x2x1000x192xbf16>, tensor<2x2x1000x192xbf16>
  return %o, %l, %dq, %dk, %dv : tensor<2x8x1000x192xbf16>, tensor<2x8x1000xf32>, tensor<2x8x1000x192xbf16>, tensor<2x2x1000x192xbf16>, tensor<2x2x1000x192xbf16>
}

func.func @t192_192_dropout(%q: tensor<2x8x1000x192xbf16>, %k: tensor<2x2x1000x192xbf16>, %v: tensor<2x2x1000x192xbf16>, %do: tensor<2x8x1000x192xbf16>, %seed: i64, %off: i64) -> (tensor<2x8x1000x192xbf16>, tensor<2x8x1000xf32>, tensor<2x8x1000x192xbf16>, tensor<2x2x1000x192xbf16>, tensor<2x2x1000x192xbf16>) {
  %o, %l = attn.attention ins(%q, %k, %v : tensor<2x8x1000x192xbf16>, tensor<2x2x1000x192xbf16>, tensor<2x2x1000x192xbf16>) rng(%seed, %off) {dropout_p = 0.1 : f32} -> tensor<2x8x1000x192xbf16>, tensor<2x8x1000xf32>
  %dq, %dk, %dv = attn.attention_grad ins(%q, %k, %v : tensor<2x8x1000x192xbf16>, tensor<2x2x1000x192xbf16>, tensor<2x2x1000x192xbf16>) forward(%o, %l : tensor<2x8x1000x192xbf16>, tensor<2x8x1000xf32>) grad_output(%do : tensor<2x8x1000x192xbf16>) rng(%seed, %off) {dropout_p = 0.1 : f32} -> tensor<2x8x1000x192xbf16>, tensor<2x2x1000x192xbf16>, tensor<2x2x1000x192xbf16>
  return %o, %l, %dq, %dk, %dv : tensor<2x8x1000x192xbf16>, tensor<2x8x1000xf32>, tensor<2x8x1000x192xbf16>, tensor<2x2x1000x192xbf16>, tensor<2x2x1000x192xbf16>
}

func.func @t192_128_causal(%q: tensor<2x8x1000x192xbf16>, %k: tensor<2x2x1000x192xbf16>, %v: tensor<2x2x1000x128xbf16>, %do: tensor<2x8x1000x128xbf16>) -> (tensor<2x8x1000x128xbf16>, tensor<2x8x1000xf32>, tensor<2x8x1000x192xbf16>, tensor<2x2x1000x192xbf16>, tensor<2x2x1000x128xbf16>) {
  %o, %l = attn.attention ins(%q, %k, %v : tensor<2x8x1000x192xbf16>, tensor<2x2x1000x192xbf16>, tensor<2x2x1000x128xbf16>) {causal = #attn.causal<bottom_right>} -> tensor<2x8x1000x128xbf16>, tensor<2x8x1000xf32>
  %dq, %dk, %dv = attn.attention_grad ins(%q, %k, %v : tensor<2x8x1000x192xbf16>, tensor<2x2x1000x192xbf16>, tensor<2x2x1000x128xbf16>) forward(%o, %l : tensor<2x8x1000x128xbf16>, tensor<2x8x1000xf32>) grad_output(%do : tensor<2x8x1000x128xbf16>) {causal = #attn.causal<bottom_right>} -> tensor<2x8x1000x192xbf16>, tensor<2x2x1000x192xbf16>, tensor<2x2x1000x128xbf16>
  return %o, %l, %dq, %dk, %dv : tensor<2x8x1000x128xbf16>, tensor<2x8x1000xf32>, tensor<2x8x1000x192xbf16>, tensor<2x2x1000x192xbf16>, tensor<2x2x1000x128xbf16>
}

func.func @t192_128_heavy(%q: tensor<2x8x1000x192xbf16>, %k: tensor<2x2x1000x192xbf16>, %v: tensor<2x2x1000x128xbf16>, %do: tensor<2x8x1000x128xbf16>, %m: tensor<2x1x1x1000xi1>) -> (tensor<2x8x1000x128xbf16>, tensor<2x8x1000xf32>, tensor<2x8x1000x192xbf16>, tensor<2x2x1000x192xbf16>, tensor<2x2x1000x128xbf16>) {
  %o, %l = attn.attention ins(%q, %k, %v : tensor<2x8x1000x192xbf16>, tensor<2x2x1000x192xbf16>, tensor<2x2x1000x128xbf16>) mask(%m : tensor<2x1x1x1000xi1>) {softcap = 30.0 : f32, window = array<i64: 100, 0>, causal = #attn.causal<bottom_right>} -> tensor<2x8x1000x128xbf16>, tensor<2x8x1000xf32>
  %dq, %dk, %dv = attn.attention_grad ins(%q, %k, %v : tensor<2x8x1000x192xbf16>, tensor<2x2x1000x192xbf16>, tensor<2x2x1000x128xbf16>) forward(%o, %l : tensor<2x8x1000x128xbf16>, tensor<2x8x1000xf32>) grad_output(%do : tensor<2x8x1000x128xbf16>) mask(%m : tensor<2x1x1x1000xi1>) {softcap = 30.0 : f32, window = array<i64: 100, 0>, causal = #attn.causal<bottom_right>} -> tensor<2x8x1000x192xbf16>, tensor<2x2x1000x192xbf16>, tensor<2x2x1000x128xbf16>
  return %o, %l, %dq, %dk, %dv : tensor<2x8x1000x128xbf16>, tensor<2x8x1000xf32>, tensor<2x8x1000x192xbf16>, tensor<2x2x1000x192xbf16>, tensor<2x2x1000x128xbf16>
}

func.func @t192_128_dropout(%q: tensor<2x8x1000x192xbf16>, %k: tensor<2x2x1000x192xbf16>, %v: tensor<2x2x1000x128xbf16>, %do: tensor<2x8x1000x128xbf16>, %seed: i64, %off: i64) -> (tensor<2x8x1000x128xbf16>, tensor<2x8x1000xf32>, tensor<2x8x1000x192xbf16>, tensor<2x2x1000x192xbf16>, tensor<2x2x1000x128xbf16>) {
  %o, %l = attn.attention ins(%q, %k, %v : tensor<2x8x1000x192xbf16>, tensor<2x2x1000x192xbf16>, tensor<2x2x1000x128xbf16>) rng(%seed, %off) {dropout_p = 0.1 : f32} -> tensor<2x8x1000x128xbf16>, tensor<2x8x1000xf32>
  %dq, %dk, %dv = attn.attention_grad ins(%q, %k, %v : tensor<2x8x1000x192xbf16>, tensor<2x2x1000x192xbf16>, tensor<2x2x1000x128xbf16>) forward(%o, %l : tensor<2x8x1000x128xbf16>, tensor<2x8x1000xf32>) grad_output(%do : tensor<2x8x1000x128xbf16>) rng(%seed, %off) {dropout_p = 0.1 : f32} -> tensor<2x8x1000x192xbf16>, tensor<2x2x1000x192xbf16>, tensor<2x2x1000x128xbf16>
  return %o, %l, %dq, %dk, %dv : tensor<2x8x1000x128xbf16>, tensor<2x8x1000xf32>, tensor<2x8x1000x192xbf16>, tensor<2x2x1000x192xbf16>, tensor<2x2x1000x128xbf16>
}

func.func @t256_128_causal(%q: tensor<2x8x1000x256xbf16>, %k: tensor<2x2x1000x256xbf16>, %v: tensor<2x2x1000x128xbf16>, %do: tensor<2x8x1000x128xbf16>) -> (tensor<2x8x1000x128xbf16>, tensor<2x8x1000xf32>, tensor<2x8x1000x256xbf16>, tensor<2x2x1000x256xbf16>, tensor<2x2x1000x128xbf16>) {
  %o, %l = attn.attention ins(%q, %k, %v : tensor<2x8x1000x256xbf16>, tensor<2x2x1000x256xbf16>, tensor<2x2x1000x128xbf16>) {causal = #attn.causal<bottom_right>} -> tensor<2x8x1000x128xbf16>, tensor<2x8x1000xf32>
  %dq, %dk, %dv = attn.attention_grad ins(%q, %k, %v : tensor<2x8x1000x256xbf16>, tensor<2x2x1000x256xbf16>, tensor<2x2x1000x128xbf16>) forward(%o, %l : tensor<2x8x1000x128xbf16>, tensor<2x8x1000xf32>) grad_output(%do : tensor<2x8x1000x128xbf16>) {causal = #attn.causal<bottom_right>} -> tensor<2x8x1000x256xbf16>, tensor<2x2x1000x256xbf16>, tensor<2x2x1000x128xbf16>
  return %o, %l, %dq, %dk, %dv : tensor<2x8x1000x128xbf16>, tensor<2x8x1000xf32>, tensor<2x8x1000x256xbf16>, tensor<2x2x1000x256xbf16>, tensor<2x2x1000x128xbf16>
}

func.func @t256_128_heavy(%q: tensor<2x8x1000x256xbf16>, %k: tensor<2x2x1000x256xbf16>, %v: tensor<2x2x1000x128xbf16>, %do: tensor<2x8x1000x128xbf16>, %m: tensor<2x1x1x1000xi1>) -> (tensor<2x8x1000x128xbf16>, tensor<2x8x1000xf32>, tensor<2x8x1000x256xbf16>, tensor<2x2x1000x256xbf16>, tensor<2x2x1000x128xbf16>) {
  %o, %l = attn.attention ins(%q, %k, %v : tensor<2x8x1000x256xbf16>, tensor<2x2x1000x256xbf16>, tensor<2x2x1000x128xbf16>) mask(%m : tensor<2x1x1x1000xi1>) {softcap = 30.0 : f32, window = array<i64: 100, 0>, causal = #attn.causal<bottom_right>} -> tensor<2x8x1000x128xbf16>, tensor<2x8x1000xf32>
  %dq, %dk, %dv = attn.attention_grad ins(%q, %k, %v : tensor<2x8x1000x256xbf16>, tensor<2x2x1000x256xbf16>, tensor<2x2x1000x128xbf16>) forward(%o, %l : tensor<2x8x1000x128xbf16>, tensor<2x8x1000xf32>) grad_output(%do : tensor<2x8x1000x128xbf16>) mask(%m : tensor<2x1x1x1000xi1>) {softcap = 30.0 : f32, window = array<i64: 100, 0>, causal = #attn.causal<bottom_right>} -> tensor<2x8x1000x256xbf16>, tensor<2x2x1000x256xbf16>, tensor<2x2x1000x128xbf16>
  return %o, %l, %dq, %dk, %dv : tensor<2x8x1000x128xbf16>, tensor<2x8x1000xf32>, tensor<2x8x1000x256xbf16>, tensor<2x2x1000x256xbf16>, tensor<2x2x1000x128xbf16>
}

func.func @t256_128_dropout(%q: tensor<2x8x1000x256xbf16>, %k: tensor<2x2x1000x256xbf16>, %v: tensor<2x2x1000x128xbf16>, %do: tensor<2x8x1000x128xbf16>, %seed: i64, %off: i64) -> (tensor<2x8x1000x128xbf16>, tensor<2x8x1000xf32>, tensor<2x8x1000x256xbf16>, tensor<2x2x1000x256xbf16>, tensor<2x2x1000x128xbf16>) {
  %o, %l = attn.attention ins(%q, %k, %v : tensor<2x8x1000x256xbf16>, tensor<2x2x1000x256xbf16>, tensor<2x2x1000x128xbf16>) rng(%seed, %off) {dropout_p = 0.1 : f32} -> tensor<2x8x1000x128xbf16>, tensor<2x8x1000xf32>
  %dq, %dk, %dv = attn.attention_grad ins(%q, %k, %v : tensor<2x8x1000x256xbf16>, tensor<2x2x1000x256xbf16>, tensor<2x2x1000x128xbf16>) forward(%o, %l : tensor<2x8x1000x128xbf16>, tensor<2x8x1000xf32>) grad_output(%do : tensor<2x8x1000x128xbf16>) rng(%seed, %off) {dropout_p = 0.1 : f32} -> tensor<2x8x1000x256xbf16>, tensor<2x2x1000x256xbf16>, tensor<2x2x1000x128xbf16>
  return %o, %l, %dq, %dk, %dv : tensor<2x8x1000x128xbf16>, tensor<2x8x1000xf32>, tensor<2x8x1000x256xbf16>, tensor<2x2x1000x256xbf16>, tensor<2x2x1000x128xbf16>
}

func.func @t128_64_causal(%q: tensor<2x8x1000x128xbf16>, %k: tensor<2x2x1000x128xbf16>, %v: tensor<2x2x1000x64xbf16>, %do: tensor<2x8x1000x64xbf16>) -> (tensor<2x8x1000x64xbf16>, tensor<2x8x1000xf32>, tensor<2x8x1000x128xbf16>, tensor<2x2x1000x128xbf16>, tensor<2x2x1000x64xbf16>) {
  %o, %l = attn.attention ins(%q, %k, %v : tensor<2x8x1000x128xbf16>, tensor<2x2x1000x128xbf16>, tensor<2x2x1000x64xbf16>) {causal = #attn.causal<bottom_right>} -> tensor<2x8x1000x64xbf16>, tensor<2x8x1000xf32>
  %dq, %dk, %dv = attn.attention_grad ins(%q, %k, %v : tensor<2x8x1000x128xbf16>, tensor<2x2x1000x128xbf16>, tensor<2x2x1000x64xbf16>) forward(%o, %l : tensor<2x8x1000x64xbf16>, tensor<2x8x1000xf32>) grad_output(%do : tensor<2x8x1000x64xbf16>) {causal = #attn.causal<bottom_right>} -> tensor<2x8x1000x128xbf16>, tensor<2x2x1000x128xbf16>, tensor<2x2x1000x64xbf16>
  return %o, %l, %dq, %dk, %dv : tensor<2x8x1000x64xbf16>, tensor<2x8x1000xf32>, tensor<2x8x1000x128xbf16>, tensor<2x2x1000x128xbf16>, tensor<2x2x1000x64xbf16>
}

func.func @t128_64_heavy(%q: tensor<2x8x1000x128xbf16>, %k: tensor<2x2x1000x128xbf16>, %v: tensor<2x2x1000x64xbf16>, %do: tensor<2x8x1000x64xbf16>, %m: tensor<2x1x1x1000xi1>) -> (tensor<2x8x1000x64xbf16>, tensor<2x8x1000xf32>, tensor<2x8x1000x128xbf16>, tensor<2x2x1000x128xbf16>, tensor<2x2x1000x64xbf16>) {
  %o, %l = attn.attention ins(%q, %k, %v : tensor<2x8x1000x128xbf16>, tensor<2x2x1000x128xbf16>, tensor<2x2x1000x64xbf16>) mask(%m : tensor<2x1x1x1000xi1>) {softcap = 30.0 : f32, window = array<i64: 100, 0>, causal = #attn.causal<bottom_right>} -> tensor<2x8x1000x64xbf16>, tensor<2x8x1000xf32>
  %dq, %dk, %dv = attn.attention_grad ins(%q, %k, %v : tensor<2x8x1000x128xbf16>, tensor<2x2x1000x128xbf16>, tensor<2x2x1000x64xbf16>) forward(%o, %l : tensor<2x8x1000x64xbf16>, tensor<2x8x1000xf32>) grad_output(%do : tensor<2x8x1000x64xbf16>) mask(%m : tensor<2x1x1x1000xi1>) {softcap = 30.0 : f32, window = array<i64: 100, 0>, causal = #attn.causal<bottom_right>} -> tensor<2x8x1000x128xbf16>, tensor<2x2x1000x128xbf16>, tensor<2x2x1000x64xbf16>
  return %o, %l, %dq, %dk, %dv : tensor<2x8x1000x64xbf16>, tensor<2x8x1000xf32>, tensor<2x8x1000x128xbf16>, tensor<2x2x1000x128xbf16>, tensor<2x2x1000x64xbf16>
}

func.func @t128_64_dropout(%q: tensor<2x8x1000x128xbf16>, %k: tensor<2x2x1000x128xbf16>, %v: tensor<2x2x1000x64xbf16>, %do: tensor<2x8x1000x64xbf16>, %seed: i64, %off: i64) -> (tensor<2x8x1000x64xbf16>, tensor<2x8x1000xf32>, tensor<2x8x1000x128xbf16>, tensor<2x2x1000x128xbf16>, tensor<2x2x1000x64xbf16>) {
  %o, %l = attn.attention ins(%q, %k, %v : tensor<2x8x1000x128xbf16>, tensor<2x2x1000x128xbf16>, tensor<2x2x1000x64xbf16>) rng(%seed, %off) {dropout_p = 0.1 : f32} -> tensor<2x8x1000x64xbf16>, tensor<2x8x1000xf32>
  %dq, %dk, %dv = attn.attention_grad ins(%q, %k, %v : tensor<2x8x1000x128xbf16>, tensor<2x2x1000x128xbf16>, tensor<2x2x1000x64xbf16>) forward(%o, %l : tensor<2x8x1000x64xbf16>, tensor<2x8x1000xf32>) grad_output(%do : tensor<2x8x1000x64xbf16>) rng(%seed, %off) {dropout_p = 0.1 : f32} -> tensor<2x8x1000x128xbf16>, tensor<2x2x1000x128xbf16>, tensor<2x2x1000x64xbf16>
  return %o, %l, %dq, %dk, %dv : tensor<2x8x1000x64xbf16>, tensor<2x8x1000xf32>, tensor<2x8x1000x128xbf16>, tensor<2x2x1000x128xbf16>, tensor<2x2x1000x64xbf16>
}

func.func @t40_96_causal(%q: tensor<2x8x1000x40xbf16>, %k: tensor<2x2x1000x40xbf16>, %v: tensor<2x2x1000x96xbf16>, %do: tensor<2x8x1000x96xbf16>) -> (tensor<2x8x1000x96xbf16>, tensor<2x8x1000xf32>, tensor<2x8x1000x40xbf16>, tensor<2x2x1000x40xbf16>, tensor<2x2x1000x96xbf16>) {
  %o, %l = attn.attention ins(%q, %k, %v : tensor<2x8x1000x40xbf16>, tensor<2x2x1000x40xbf16>, tensor<2x2x1000x96xbf16>) {causal = #attn.causal<bottom_right>} -> tensor<2x8x1000x96xbf16>, tensor<2x8x1000xf32>
  %dq, %dk, %dv = attn.attention_grad ins(%q, %k, %v : tensor<2x8x1000x40xbf16>, tensor<2x2x1000x40xbf16>, tensor<2x2x1000x96xbf16>) forward(%o, %l : tensor<2x8x1000x96xbf16>, tensor<2x8x1000xf32>) grad_output(%do : tensor<2x8x1000x96xbf16>) {causal = #attn.causal<bottom_right>} -> tensor<2x8x1000x40xbf16>, tensor<2x2x1000x40xbf16>, tensor<2x2x1000x96xbf16>
  return %o, %l, %dq, %dk, %dv : tensor<2x8x1000x96xbf16>, tensor<2x8x1000xf32>, tensor<2x8x1000x40xbf16>, tensor<2x2x1000x40xbf16>, tensor<2x2x1000x96xbf16>
}

func.func @t40_96_heavy(%q: tensor<2x8x1000x40xbf16>, %k: tensor<2x2x1000x40xbf16>, %v: tensor<2x2x1000x96xbf16>, %do: tensor<2x8x1000x96xbf16>, %m: tensor<2x1x1x1000xi1>) -> (tensor<2x8x1000x96xbf16>, tensor<2x8x1000xf32>, tensor<2x8x1000x40xbf16>, tensor<2x2x1000x40xbf16>, tensor<2x2x1000x96xbf16>) {
  %o, %l = attn.attention ins(%q, %k, %v : tensor<2x8x1000x40xbf16>, tensor<2x2x1000x40xbf16>, tensor<2x2x1000x96xbf16>) mask(%m : tensor<2x1x1x1000xi1>) {softcap = 30.0 : f32, window = array<i64: 100, 0>, causal = #attn.causal<bottom_right>} -> tensor<2x8x1000x96xbf16>, tensor<2x8x1000xf32>
  %dq, %dk, %dv = attn.attention_grad ins(%q, %k, %v : tensor<2x8x1000x40xbf16>, tensor<2x2x1000x40xbf16>, tensor<2x2x1000x96xbf16>) forward(%o, %l : tensor<2x8x1000x96xbf16>, tensor<2x8x1000xf32>) grad_output(%do : tensor<2x8x1000x96xbf16>) mask(%m : tensor<2x1x1x1000xi1>) {softcap = 30.0 : f32, window = array<i64: 100, 0>, causal = #attn.causal<bottom_right>} -> tensor<2x8x1000x40xbf16>, tensor<2x2x1000x40xbf16>, tensor<2x2x1000x96xbf16>
  return %o, %l, %dq, %dk, %dv : tensor<2x8x1000x96xbf16>, tensor<2x8x1000xf32>, tensor<2x8x1000x40xbf16>, tensor<2x2x1000x40xbf16>, tensor<2x2x1000x96xbf16>
}

func.func @t40_96_dropout(%q: tensor<2x8x1000x40xbf16>, %k: tensor<2x2x1000x40xbf16>, %v: tensor<2x2x1000x96xbf16>, %do: tensor<2x8x1000x96xbf16>, %seed: i64, %off: i64) -> (tensor<2x8x1000x96xbf16>, tensor<2x8x1000xf32>, tensor<2x8x1000x40xbf16>, tensor<2x2x1000x40xbf16>, tensor<2x2x1000x96xbf16>) {
  %o, %l = attn.attention ins(%q, %k, %v : tensor<2x8x1000x40xbf16>, tensor<2x2x1000x40xbf16>, tensor<2x2x1000x96xbf16>) rng(%seed, %off) {dropout_p = 0.1 : f32} -> tensor<2x8x1000x96xbf16>, tensor<2x8x1000xf32>
  %dq, %dk, %dv = attn.attention_grad ins(%q, %k, %v : tensor<2x8x1000x40xbf16>, tensor<2x2x1000x40xbf16>, tensor<2x2x1000x96xbf16>) forward(%o, %l : tensor<2x8x1000x96xbf16>, tensor<2x8x1000xf32>) grad_output(%do : tensor<2x8x1000x96xbf16>) rng(%seed, %off) {dropout_p = 0.1 : f32} -> tensor<2x8x1000x40xbf16>, tensor<2x2x1000x40xbf16>, tensor<2x2x1000x96xbf16>
  return %o, %l, %dq, %dk, %dv : tensor<2x8x1000x96xbf16>, tensor<2x8x1000xf32>, tensor<2x8x1000x40xbf16>, tensor<2x2x1000x40xbf16>, tensor<2x2x1000x96xbf16>
}

func.func @t136_136_causal(%q: tensor<2x8x1000x136xbf16>, %k: tensor<2x2x1000x136xbf16>, %v: tensor<2x2x1000x136xbf16>, %do: tensor<2x8x1000x136xbf16>) -> (tensor<2x8x1000x136xbf16>, tensor<2x8x1000xf32>, tensor<2x8x1000x136xbf16>, tensor<2x2x1000x136xbf16>, tensor<2x2x1000x136xbf16>) {
  %o, %l = attn.attention ins(%q, %k, %v : tensor<2x8x1000x136xbf16>, tensor<2x2x1000x136xbf16>, tensor<2x2x1000x136xbf16>) {causal = #attn.causal<bottom_right>} -> tensor<2x8x1000x136xbf16>, tensor<2x8x1000xf32>
  %dq, %dk, %dv = attn.attention_grad ins(%q, %k, %v : tensor<2x8x1000x136xbf16>, tensor<2x2x1000x136xbf16>, tensor<2x2x1000x136xbf16>) forward(%o, %l : tensor<2x8x1000x136xbf16>, tensor<2x8x1000xf32>) grad_output(%do : tensor<2x8x1000x136xbf16>) {causal = #attn.causal<bottom_right>} -> tensor<2x8x1000x136xbf16>, tensor<2x2x1000x136xbf16>, tensor<2x2x1000x136xbf16>
  return %o, %l, %dq, %dk, %dv : tensor<2x8x1000x136xbf16>, tensor<2x8x1000xf32>, tensor<2x8x1000x136xbf16>, tensor<2x2x1000x136xbf16>, tensor<2x2x1000x136xbf16>
}

func.func @t136_136_heavy(%q: tensor<2x8x1000x136xbf16>, %k: tensor<2x2x1000x136xbf16>, %v: tensor<2x2x1000x136xbf16>, %do: tensor<2x8x1000x136xbf16>, %m: tensor<2x1x1x1000xi1>) -> (tensor<2x8x1000x136xbf16>, tensor<2x8x1000xf32>, tensor<2x8x1000x136xbf16>, tensor<2x2x1000x136xbf16>, tensor<2x2x1000x136xbf16>) {
  %o, %l = attn.attention ins(%q, %k, %v : tensor<2x8x1000x136xbf16>, tensor<2x2x1000x136xbf16>, tensor<2x2x1000x136xbf16>) mask(%m : tensor<2x1x1x1000xi1>) {softcap = 30.0 : f32, window = array<i64: 100, 0>, causal = #attn.causal<bottom_right>} -> tensor<2x8x1000x136xbf16>, tensor<2x8x1000xf32>
  %dq, %dk, %dv = attn.attention_grad ins(%q, %k, %v : tensor<2x8x1000x136xbf16>, tensor<2x2x1000x136xbf16>, tensor<2x2x1000x136xbf16>) forward(%o, %l : tensor<2x8x1000x136xbf16>, tensor<2x8x1000xf32>) grad_output(%do : tensor<2x8x1000x136xbf16>) mask(%m : tensor<2x1x1x1000xi1>) {softcap = 30.0 : f32, window = array<i64: 100, 0>, causal = #attn.causal<bottom_right>} -> tensor<2x8x1000x136xbf16>, tensor<2x2x1000x136xbf16>, tensor<2x2x1000x136xbf16>
  return %o, %l, %dq, %dk, %dv : tensor<2x8x1000x136xbf16>, tensor<2x8x1000xf32>, tensor<2x8x1000x136xbf16>, tensor<2x2x1000x136xbf16>, tensor<2x2x1000x136xbf16>
}

func.func @t136_136_dropout(%q: tensor<2x8x1000x136xbf16>, %k: tensor<2x2x1000x136xbf16>, %v: tensor<2x2x1000x136xbf16>, %do: tensor<2x8x1000x136xbf16>, %seed: i64, %off: i64) -> (tensor<2x8x1000x136xbf16>, tensor<2x8x1000xf32>, tensor<2x8x1000x136xbf16>, tensor<2x2x1000x136xbf16>, tensor<2x2x1000x136xbf16>) {
  %o, %l = attn.attention ins(%q, %k, %v : tensor<2x8x1000x136xbf16>, tensor<2x2x1000x136xbf16>, tensor<2x2x1000x136xbf16>) rng(%seed, %off) {dropout_p = 0.1 : f32} -> tensor<2x8x1000x136xbf16>, tensor<2x8x1000xf32>
  %dq, %dk, %dv = attn.attention_grad ins(%q, %k, %v : tensor<2x8x1000x136xbf16>, tensor<2x2x1000x136xbf16>, tensor<2x2x1000x136xbf16>) forward(%o, %l : tensor<2x8x1000x136xbf16>, tensor<2x8x1000xf32>) grad_output(%do : tensor<2x8x1000x136xbf16>) rng(%seed, %off) {dropout_p = 0.1 : f32} -> tensor<2x8x1000x136xbf16>, tensor<2x2x1000x136xbf16>, tensor<2x2x1000x136xbf16>
  return %o, %l, %dq, %dk, %dv : tensor<2x8x1000x136xbf16>, tensor<2x8x1000xf32>, tensor<2x8x1000x136xbf16>, tensor<2x2x1000x136xbf16>, tensor<2x2x1000x136xbf16>
}
