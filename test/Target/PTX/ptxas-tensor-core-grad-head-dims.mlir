// Issue 19: the tensor-core backward for D = Dv multiples of 8 up to 128
// besides 64 and 128 (16, 24, 32, 40, 48, 72, 80, 96, 104, 112; those that are not
// multiples of 16 pad their tiles to the k-step, tcgrad::tileDim): on
// sm_80 the mma.sync dkdv + dq pair after the prep kernel; on sm_90a the
// wgmma key-block kernel (tcgrad::hasWarpgroupKeyBlock: every multiple of
// 8, tiles padded to whole 64-column panels, products over D up to D
// rounded up to 16) with the atomic dQ; in four variants each (causal
// GQA, softcap + window + key-padding mask, dropout, `deterministic`),
// Lq = Lk = 1000. They assemble for sm_90a and sm_80; one kernel spills 4
// bytes (ptxas 13, session 48: the sm_80 dkdv kernel of D = 104 with
// dropout; before, the dropout dkdv kernels from D = 56 on and a few others
// spilled 4 to 92 bytes on sm_80). The backward's copies keep one column a
// lane (MmaEmitterBase::copyColumnPerLane); the scalar bf16 conversion
// would remove the last 4 bytes but measured 1.5-1.8 % slower
// (TensorCoreGradKeyBlock.cpp). This test bounds every kernel at 9 bytes.
// The GPU validation runs them (bench/make_cases.py
// validation_bwd_head_dims).
// REQUIRES: ptxas
// RUN: attn-compile %s --chip=sm_90a -o %t.sm90.ptx | FileCheck %s --check-prefix=COMPILE90
// RUN: ptxas -arch=sm_90a -v %t.sm90.ptx -o %t.sm90.cubin 2>&1 | FileCheck %s
// RUN: FileCheck %s --check-prefix=KIND90 < %t.sm90.json
// RUN: not grep -q cuda-core %t.sm90.json
// RUN: attn-compile %s --chip=sm_80 -o %t.sm80.ptx | FileCheck %s --check-prefix=COMPILE80
// RUN: ptxas -arch=sm_80 -v %t.sm80.ptx -o %t.sm80.cubin 2>&1 | FileCheck %s
// RUN: FileCheck %s --check-prefix=KIND80 < %t.sm80.json
// RUN: not grep -q cuda-core %t.sm80.json

// Four kernels per training step: forward, prep, dkdv (dkdv_dq), dq (dq_convert).
// COMPILE90: (160 kernels, sm_90a,
// COMPILE80: (160 kernels, sm_80,
// CHECK-COUNT-160: {{^ *([0-9]|[1-9][0-9]) bytes stack frame, [0-9] bytes spill stores}}
// CHECK-NOT: bytes spill stores

// Every kernel is a tensor-core one. sm_80: prep, then the mma.sync dkdv
// and dq. sm_90a: the wgmma key-block kernel, with the atomic dQ (prep,
// dkdv_dq, dq_convert) unless the op is `deterministic` (prep, dkdv, dq);
// with dropout too since session 30 (before, dropout at D + Dv > 128 took
// the mma.sync dkdv and dq).
// KIND80: "mma": "none",
// KIND80: "name": "attn_bwd_prep_0"
// KIND80: "mma": "mma.sync",
// KIND80: "name": "attn_bwd_dkdv_0"
// KIND80: "mma": "mma.sync",
// KIND80: "name": "attn_bwd_dq_0"
// KIND80: "mma": "none",
// KIND80: "name": "attn_bwd_prep_1"
// KIND80: "mma": "mma.sync",
// KIND80: "name": "attn_bwd_dkdv_1"
// KIND80: "mma": "mma.sync",
// KIND80: "name": "attn_bwd_dq_1"
// KIND80: "mma": "none",
// KIND80: "name": "attn_bwd_prep_2"
// KIND80: "mma": "mma.sync",
// KIND80: "name": "attn_bwd_dkdv_2"
// KIND80: "mma": "mma.sync",
// KIND80: "name": "attn_bwd_dq_2"
// KIND80: "mma": "none",
// KIND80: "name": "attn_bwd_prep_3"
// KIND80: "mma": "mma.sync",
// KIND80: "name": "attn_bwd_dkdv_3"
// KIND80: "mma": "mma.sync",
// KIND80: "name": "attn_bwd_dq_3"
// KIND80: "mma": "none",
// KIND80: "name": "attn_bwd_prep_4"
// KIND80: "mma": "mma.sync",
// KIND80: "name": "attn_bwd_dkdv_4"
// KIND80: "mma": "mma.sync",
// KIND80: "name": "attn_bwd_dq_4"
// KIND80: "mma": "none",
// KIND80: "name": "attn_bwd_prep_5"
// KIND80: "mma": "mma.sync",
// KIND80: "name": "attn_bwd_dkdv_5"
// KIND80: "mma": "mma.sync",
// KIND80: "name": "attn_bwd_dq_5"
// KIND80: "mma": "none",
// KIND80: "name": "attn_bwd_prep_6"
// KIND80: "mma": "mma.sync",
// KIND80: "name": "attn_bwd_dkdv_6"
// KIND80: "mma": "mma.sync",
// KIND80: "name": "attn_bwd_dq_6"
// KIND80: "mma": "none",
// KIND80: "name": "attn_bwd_prep_7"
// KIND80: "mma": "mma.sync",
// KIND80: "name": "attn_bwd_dkdv_7"
// KIND80: "mma": "mma.sync",
// KIND80: "name": "attn_bwd_dq_7"
// KIND80: "mma": "none",
// KIND80: "name": "attn_bwd_prep_8"
// KIND80: "mma": "mma.sync",
// KIND80: "name": "attn_bwd_dkdv_8"
// KIND80: "mma": "mma.sync",
// KIND80: "name": "attn_bwd_dq_8"
// KIND80: "mma": "none",
// KIND80: "name": "attn_bwd_prep_9"
// KIND80: "mma": "mma.sync",
// KIND80: "name": "attn_bwd_dkdv_9"
// KIND80: "mma": "mma.sync",
// KIND80: "name": "attn_bwd_dq_9"
// KIND80: "mma": "none",
// KIND80: "name": "attn_bwd_prep_10"
// KIND80: "mma": "mma.sync",
// KIND80: "name": "attn_bwd_dkdv_10"
// KIND80: "mma": "mma.sync",
// KIND80: "name": "attn_bwd_dq_10"
// KIND80: "mma": "none",
// KIND80: "name": "attn_bwd_prep_11"
// KIND80: "mma": "mma.sync",
// KIND80: "name": "attn_bwd_dkdv_11"
// KIND80: "mma": "mma.sync",
// KIND80: "name": "attn_bwd_dq_11"
// KIND80: "mma": "none",
// KIND80: "name": "attn_bwd_prep_12"
// KIND80: "mma": "mma.sync",
// KIND80: "name": "attn_bwd_dkdv_12"
// KIND80: "mma": "mma.sync",
// KIND80: "name": "attn_bwd_dq_12"
// KIND80: "mma": "none",
// KIND80: "name": "attn_bwd_prep_13"
// KIND80: "mma": "mma.sync",
// KIND80: "name": "attn_bwd_dkdv_13"
// KIND80: "mma": "mma.sync",
// KIND80: "name": "attn_bwd_dq_13"
// KIND80: "mma": "none",
// KIND80: "name": "attn_bwd_prep_14"
// KIND80: "mma": "mma.sync",
// KIND80: "name": "attn_bwd_dkdv_14"
// KIND80: "mma": "mma.sync",
// KIND80: "name": "attn_bwd_dq_14"
// KIND80: "mma": "none",
// KIND80: "name": "attn_bwd_prep_15"
// KIND80: "mma": "mma.sync",
// KIND80: "name": "attn_bwd_dkdv_15"
// KIND80: "mma": "mma.sync",
// KIND80: "name": "attn_bwd_dq_15"
// KIND80: "mma": "none",
// KIND80: "name": "attn_bwd_prep_16"
// KIND80: "mma": "mma.sync",
// KIND80: "name": "attn_bwd_dkdv_16"
// KIND80: "mma": "mma.sync",
// KIND80: "name": "attn_bwd_dq_16"
// KIND80: "mma": "none",
// KIND80: "name": "attn_bwd_prep_17"
// KIND80: "mma": "mma.sync",
// KIND80: "name": "attn_bwd_dkdv_17"
// KIND80: "mma": "mma.sync",
// KIND80: "name": "attn_bwd_dq_17"
// KIND80: "mma": "none",
// KIND80: "name": "attn_bwd_prep_18"
// KIND80: "mma": "mma.sync",
// KIND80: "name": "attn_bwd_dkdv_18"
// KIND80: "mma": "mma.sync",
// KIND80: "name": "attn_bwd_dq_18"
// KIND80: "mma": "none",
// KIND80: "name": "attn_bwd_prep_19"
// KIND80: "mma": "mma.sync",
// KIND80: "name": "attn_bwd_dkdv_19"
// KIND80: "mma": "mma.sync",
// KIND80: "name": "attn_bwd_dq_19"
// KIND80: "mma": "none",
// KIND80: "name": "attn_bwd_prep_20"
// KIND80: "mma": "mma.sync",
// KIND80: "name": "attn_bwd_dkdv_20"
// KIND80: "mma": "mma.sync",
// KIND80: "name": "attn_bwd_dq_20"
// KIND80: "mma": "none",
// KIND80: "name": "attn_bwd_prep_21"
// KIND80: "mma": "mma.sync",
// KIND80: "name": "attn_bwd_dkdv_21"
// KIND80: "mma": "mma.sync",
// KIND80: "name": "attn_bwd_dq_21"
// KIND80: "mma": "none",
// KIND80: "name": "attn_bwd_prep_22"
// KIND80: "mma": "mma.sync",
// KIND80: "name": "attn_bwd_dkdv_22"
// KIND80: "mma": "mma.sync",
// KIND80: "name": "attn_bwd_dq_22"
// KIND80: "mma": "none",
// KIND80: "name": "attn_bwd_prep_23"
// KIND80: "mma": "mma.sync",
// KIND80: "name": "attn_bwd_dkdv_23"
// KIND80: "mma": "mma.sync",
// KIND80: "name": "attn_bwd_dq_23"
// KIND80: "mma": "none",
// KIND80: "name": "attn_bwd_prep_24"
// KIND80: "mma": "mma.sync",
// KIND80: "name": "attn_bwd_dkdv_24"
// KIND80: "mma": "mma.sync",
// KIND80: "name": "attn_bwd_dq_24"
// KIND80: "mma": "none",
// KIND80: "name": "attn_bwd_prep_25"
// KIND80: "mma": "mma.sync",
// KIND80: "name": "attn_bwd_dkdv_25"
// KIND80: "mma": "mma.sync",
// KIND80: "name": "attn_bwd_dq_25"
// KIND80: "mma": "none",
// KIND80: "name": "attn_bwd_prep_26"
// KIND80: "mma": "mma.sync",
// KIND80: "name": "attn_bwd_dkdv_26"
// KIND80: "mma": "mma.sync",
// KIND80: "name": "attn_bwd_dq_26"
// KIND80: "mma": "none",
// KIND80: "name": "attn_bwd_prep_27"
// KIND80: "mma": "mma.sync",
// KIND80: "name": "attn_bwd_dkdv_27"
// KIND80: "mma": "mma.sync",
// KIND80: "name": "attn_bwd_dq_27"
// KIND80: "mma": "none",
// KIND80: "name": "attn_bwd_prep_28"
// KIND80: "mma": "mma.sync",
// KIND80: "name": "attn_bwd_dkdv_28"
// KIND80: "mma": "mma.sync",
// KIND80: "name": "attn_bwd_dq_28"
// KIND80: "mma": "none",
// KIND80: "name": "attn_bwd_prep_29"
// KIND80: "mma": "mma.sync",
// KIND80: "name": "attn_bwd_dkdv_29"
// KIND80: "mma": "mma.sync",
// KIND80: "name": "attn_bwd_dq_29"
// KIND80: "mma": "none",
// KIND80: "name": "attn_bwd_prep_30"
// KIND80: "mma": "mma.sync",
// KIND80: "name": "attn_bwd_dkdv_30"
// KIND80: "mma": "mma.sync",
// KIND80: "name": "attn_bwd_dq_30"
// KIND80: "mma": "none",
// KIND80: "name": "attn_bwd_prep_31"
// KIND80: "mma": "mma.sync",
// KIND80: "name": "attn_bwd_dkdv_31"
// KIND80: "mma": "mma.sync",
// KIND80: "name": "attn_bwd_dq_31"
// KIND80: "mma": "none",
// KIND80: "name": "attn_bwd_prep_32"
// KIND80: "mma": "mma.sync",
// KIND80: "name": "attn_bwd_dkdv_32"
// KIND80: "mma": "mma.sync",
// KIND80: "name": "attn_bwd_dq_32"
// KIND80: "mma": "none",
// KIND80: "name": "attn_bwd_prep_33"
// KIND80: "mma": "mma.sync",
// KIND80: "name": "attn_bwd_dkdv_33"
// KIND80: "mma": "mma.sync",
// KIND80: "name": "attn_bwd_dq_33"
// KIND80: "mma": "none",
// KIND80: "name": "attn_bwd_prep_34"
// KIND80: "mma": "mma.sync",
// KIND80: "name": "attn_bwd_dkdv_34"
// KIND80: "mma": "mma.sync",
// KIND80: "name": "attn_bwd_dq_34"
// KIND80: "mma": "none",
// KIND80: "name": "attn_bwd_prep_35"
// KIND80: "mma": "mma.sync",
// KIND80: "name": "attn_bwd_dkdv_35"
// KIND80: "mma": "mma.sync",
// KIND80: "name": "attn_bwd_dq_35"
// KIND80: "mma": "none",
// KIND80: "name": "attn_bwd_prep_36"
// KIND80: "mma": "mma.sync",
// KIND80: "name": "attn_bwd_dkdv_36"
// KIND80: "mma": "mma.sync",
// KIND80: "name": "attn_bwd_dq_36"
// KIND80: "mma": "none",
// KIND80: "name": "attn_bwd_prep_37"
// KIND80: "mma": "mma.sync",
// KIND80: "name": "attn_bwd_dkdv_37"
// KIND80: "mma": "mma.sync",
// KIND80: "name": "attn_bwd_dq_37"
// KIND80: "mma": "none",
// KIND80: "name": "attn_bwd_prep_38"
// KIND80: "mma": "mma.sync",
// KIND80: "name": "attn_bwd_dkdv_38"
// KIND80: "mma": "mma.sync",
// KIND80: "name": "attn_bwd_dq_38"
// KIND80: "mma": "none",
// KIND80: "name": "attn_bwd_prep_39"
// KIND80: "mma": "mma.sync",
// KIND80: "name": "attn_bwd_dkdv_39"
// KIND80: "mma": "mma.sync",
// KIND80: "name": "attn_bwd_dq_39"
// KIND90: "mma": "none",
// KIND90: "name": "attn_bwd_prep_0"
// KIND90: "mma": "wgmma",
// KIND90: "name": "attn_bwd_dkdv_dq_0"
// KIND90: "mma": "none",
// KIND90: "name": "attn_bwd_dq_convert_0"
// KIND90: "mma": "none",
// KIND90: "name": "attn_bwd_prep_1"
// KIND90: "mma": "wgmma",
// KIND90: "name": "attn_bwd_dkdv_dq_1"
// KIND90: "mma": "none",
// KIND90: "name": "attn_bwd_dq_convert_1"
// KIND90: "mma": "none",
// KIND90: "name": "attn_bwd_prep_2"
// KIND90: "mma": "wgmma",
// KIND90: "name": "attn_bwd_dkdv_dq_2"
// KIND90: "mma": "none",
// KIND90: "name": "attn_bwd_dq_convert_2"
// KIND90: "mma": "none",
// KIND90: "name": "attn_bwd_prep_3"
// KIND90: "mma": "wgmma",
// KIND90: "name": "attn_bwd_dkdv_3"
// KIND90: "mma": "mma.sync",
// KIND90: "name": "attn_bwd_dq_3"
// KIND90: "mma": "none",
// KIND90: "name": "attn_bwd_prep_4"
// KIND90: "mma": "wgmma",
// KIND90: "name": "attn_bwd_dkdv_dq_4"
// KIND90: "mma": "none",
// KIND90: "name": "attn_bwd_dq_convert_4"
// KIND90: "mma": "none",
// KIND90: "name": "attn_bwd_prep_5"
// KIND90: "mma": "wgmma",
// KIND90: "name": "attn_bwd_dkdv_dq_5"
// KIND90: "mma": "none",
// KIND90: "name": "attn_bwd_dq_convert_5"
// KIND90: "mma": "none",
// KIND90: "name": "attn_bwd_prep_6"
// KIND90: "mma": "wgmma",
// KIND90: "name": "attn_bwd_dkdv_dq_6"
// KIND90: "mma": "none",
// KIND90: "name": "attn_bwd_dq_convert_6"
// KIND90: "mma": "none",
// KIND90: "name": "attn_bwd_prep_7"
// KIND90: "mma": "wgmma",
// KIND90: "name": "attn_bwd_dkdv_7"
// KIND90: "mma": "mma.sync",
// KIND90: "name": "attn_bwd_dq_7"
// KIND90: "mma": "none",
// KIND90: "name": "attn_bwd_prep_8"
// KIND90: "mma": "wgmma",
// KIND90: "name": "attn_bwd_dkdv_dq_8"
// KIND90: "mma": "none",
// KIND90: "name": "attn_bwd_dq_convert_8"
// KIND90: "mma": "none",
// KIND90: "name": "attn_bwd_prep_9"
// KIND90: "mma": "wgmma",
// KIND90: "name": "attn_bwd_dkdv_dq_9"
// KIND90: "mma": "none",
// KIND90: "name": "attn_bwd_dq_convert_9"
// KIND90: "mma": "none",
// KIND90: "name": "attn_bwd_prep_10"
// KIND90: "mma": "wgmma",
// KIND90: "name": "attn_bwd_dkdv_dq_10"
// KIND90: "mma": "none",
// KIND90: "name": "attn_bwd_dq_convert_10"
// KIND90: "mma": "none",
// KIND90: "name": "attn_bwd_prep_11"
// KIND90: "mma": "wgmma",
// KIND90: "name": "attn_bwd_dkdv_11"
// KIND90: "mma": "mma.sync",
// KIND90: "name": "attn_bwd_dq_11"
// KIND90: "mma": "none",
// KIND90: "name": "attn_bwd_prep_12"
// KIND90: "mma": "wgmma",
// KIND90: "name": "attn_bwd_dkdv_dq_12"
// KIND90: "mma": "none",
// KIND90: "name": "attn_bwd_dq_convert_12"
// KIND90: "mma": "none",
// KIND90: "name": "attn_bwd_prep_13"
// KIND90: "mma": "wgmma",
// KIND90: "name": "attn_bwd_dkdv_dq_13"
// KIND90: "mma": "none",
// KIND90: "name": "attn_bwd_dq_convert_13"
// KIND90: "mma": "none",
// KIND90: "name": "attn_bwd_prep_14"
// KIND90: "mma": "wgmma",
// KIND90: "name": "attn_bwd_dkdv_dq_14"
// KIND90: "mma": "none",
// KIND90: "name": "attn_bwd_dq_convert_14"
// KIND90: "mma": "none",
// KIND90: "name": "attn_bwd_prep_15"
// KIND90: "mma": "wgmma",
// KIND90: "name": "attn_bwd_dkdv_15"
// KIND90: "mma": "mma.sync",
// KIND90: "name": "attn_bwd_dq_15"
// KIND90: "mma": "none",
// KIND90: "name": "attn_bwd_prep_16"
// KIND90: "mma": "wgmma",
// KIND90: "name": "attn_bwd_dkdv_dq_16"
// KIND90: "mma": "none",
// KIND90: "name": "attn_bwd_dq_convert_16"
// KIND90: "mma": "none",
// KIND90: "name": "attn_bwd_prep_17"
// KIND90: "mma": "wgmma",
// KIND90: "name": "attn_bwd_dkdv_dq_17"
// KIND90: "mma": "none",
// KIND90: "name": "attn_bwd_dq_convert_17"
// KIND90: "mma": "none",
// KIND90: "name": "attn_bwd_prep_18"
// KIND90: "mma": "wgmma",
// KIND90: "name": "attn_bwd_dkdv_dq_18"
// KIND90: "mma": "none",
// KIND90: "name": "attn_bwd_dq_convert_18"
// KIND90: "mma": "none",
// KIND90: "name": "attn_bwd_prep_19"
// KIND90: "mma": "wgmma",
// KIND90: "name": "attn_bwd_dkdv_19"
// KIND90: "mma": "mma.sync",
// KIND90: "name": "attn_bwd_dq_19"
// KIND90: "mma": "none",
// KIND90: "name": "attn_bwd_prep_20"
// KIND90: "mma": "wgmma",
// KIND90: "name": "attn_bwd_dkdv_dq_20"
// KIND90: "mma": "none",
// KIND90: "name": "attn_bwd_dq_convert_20"
// KIND90: "mma": "none",
// KIND90: "name": "attn_bwd_prep_21"
// KIND90: "mma": "wgmma",
// KIND90: "name": "attn_bwd_dkdv_dq_21"
// KIND90: "mma": "none",
// KIND90: "name": "attn_bwd_dq_convert_21"
// KIND90: "mma": "none",
// KIND90: "name": "attn_bwd_prep_22"
// KIND90: "mma": "wgmma",
// KIND90: "name": "attn_bwd_dkdv_dq_22"
// KIND90: "mma": "none",
// KIND90: "name": "attn_bwd_dq_convert_22"
// KIND90: "mma": "none",
// KIND90: "name": "attn_bwd_prep_23"
// KIND90: "mma": "wgmma",
// KIND90: "name": "attn_bwd_dkdv_23"
// KIND90: "mma": "mma.sync",
// KIND90: "name": "attn_bwd_dq_23"
// KIND90: "mma": "none",
// KIND90: "name": "attn_bwd_prep_24"
// KIND90: "mma": "wgmma",
// KIND90: "name": "attn_bwd_dkdv_dq_24"
// KIND90: "mma": "none",
// KIND90: "name": "attn_bwd_dq_convert_24"
// KIND90: "mma": "none",
// KIND90: "name": "attn_bwd_prep_25"
// KIND90: "mma": "wgmma",
// KIND90: "name": "attn_bwd_dkdv_dq_25"
// KIND90: "mma": "none",
// KIND90: "name": "attn_bwd_dq_convert_25"
// KIND90: "mma": "none",
// KIND90: "name": "attn_bwd_prep_26"
// KIND90: "mma": "wgmma",
// KIND90: "name": "attn_bwd_dkdv_dq_26"
// KIND90: "mma": "none",
// KIND90: "name": "attn_bwd_dq_convert_26"
// KIND90: "mma": "none",
// KIND90: "name": "attn_bwd_prep_27"
// KIND90: "mma": "wgmma",
// KIND90: "name": "attn_bwd_dkdv_27"
// KIND90: "mma": "mma.sync",
// KIND90: "name": "attn_bwd_dq_27"
// KIND90: "mma": "none",
// KIND90: "name": "attn_bwd_prep_28"
// KIND90: "mma": "wgmma",
// KIND90: "name": "attn_bwd_dkdv_dq_28"
// KIND90: "mma": "none",
// KIND90: "name": "attn_bwd_dq_convert_28"
// KIND90: "mma": "none",
// KIND90: "name": "attn_bwd_prep_29"
// KIND90: "mma": "wgmma",
// KIND90: "name": "attn_bwd_dkdv_dq_29"
// KIND90: "mma": "none",
// KIND90: "name": "attn_bwd_dq_convert_29"
// KIND90: "mma": "none",
// KIND90: "name": "attn_bwd_prep_30"
// KIND90: "mma": "wgmma",
// KIND90: "name": "attn_bwd_dkdv_dq_30"
// KIND90: "mma": "none",
// KIND90: "name": "attn_bwd_dq_convert_30"
// KIND90: "mma": "none",
// KIND90: "name": "attn_bwd_prep_31"
// KIND90: "mma": "wgmma",
// KIND90: "name": "attn_bwd_dkdv_31"
// KIND90: "mma": "mma.sync",
// KIND90: "name": "attn_bwd_dq_31"
// KIND90: "mma": "none",
// KIND90: "name": "attn_bwd_prep_32"
// KIND90: "mma": "wgmma",
// KIND90: "name": "attn_bwd_dkdv_dq_32"
// KIND90: "mma": "none",
// KIND90: "name": "attn_bwd_dq_convert_32"
// KIND90: "mma": "none",
// KIND90: "name": "attn_bwd_prep_33"
// KIND90: "mma": "wgmma",
// KIND90: "name": "attn_bwd_dkdv_dq_33"
// KIND90: "mma": "none",
// KIND90: "name": "attn_bwd_dq_convert_33"
// KIND90: "mma": "none",
// KIND90: "name": "attn_bwd_prep_34"
// KIND90: "mma": "wgmma",
// KIND90: "name": "attn_bwd_dkdv_dq_34"
// KIND90: "mma": "none",
// KIND90: "name": "attn_bwd_dq_convert_34"
// KIND90: "mma": "none",
// KIND90: "name": "attn_bwd_prep_35"
// KIND90: "mma": "wgmma",
// KIND90: "name": "attn_bwd_dkdv_35"
// KIND90: "mma": "mma.sync",
// KIND90: "name": "attn_bwd_dq_35"
// KIND90: "mma": "none",
// KIND90: "name": "attn_bwd_prep_36"
// KIND90: "mma": "wgmma",
// KIND90: "name": "attn_bwd_dkdv_dq_36"
// KIND90: "mma": "none",
// KIND90: "name": "attn_bwd_dq_convert_36"
// KIND90: "mma": "none",
// KIND90: "name": "attn_bwd_prep_37"
// KIND90: "mma": "wgmma",
// KIND90: "name": "attn_bwd_dkdv_dq_37"
// KIND90: "mma": "none",
// KIND90: "name": "attn_bwd_dq_convert_37"
// KIND90: "mma": "none",
// KIND90: "name": "attn_bwd_prep_38"
// KIND90: "mma": "wgmma",
// KIND90: "name": "attn_bwd_dkdv_dq_38"
// KIND90: "mma": "none",
// KIND90: "name": "attn_bwd_dq_convert_38"
// KIND90: "mma": "none",
// KIND90: "name": "attn_bwd_prep_39"
// KIND90: "mma": "wgmma",
// KIND90: "name": "attn_bwd_dkdv_39"
// KIND90: "mma": "mma.sync",
// KIND90: "name": "attn_bwd_dq_39"

func.func @t16_causal(%q: tensor<2x8x1000x16xbf16>, %k: tensor<2x2x1000x16xbf16>, %v: tensor<2x2x1000x16xbf16>, %do: tensor<2x8x1000x16xbf16>) -> (tensor<2x8x1000x16xbf16>, tensor<2x8x1000xf32>, tensor<2x8x1000x16xbf16>, tensor<2x2x1000x16xbf16>, tensor<2x2x1000x16xbf16>) {
  %o, %l = attn.attention ins(%q, %k, %v : tensor<2x8x1000x16xbf16>, tensor<2x2x1000x16xbf16>, tensor<2x2x1000x16xbf16>) {causal = #attn.causal<bottom_right>} -> tensor<2x8x1000x16xbf16>, tensor<2x8x1000xf32>
  %dq, %dk, %dv = attn.attention_grad ins(%q, %k, %v : tensor<2x8x1000x16xbf16>, tensor<2x2x1000x16xbf16>, tensor<2x2x1000x16xbf16>) forward(%o, %l : tensor<2x8x1000x16xbf16>, tensor<2x8x1000xf32>) grad_output(%do : tensor<2x8x1000x16xbf16>) {causal = #attn.causal<bottom_right>} -> tensor<2x8x1000x16xbf16>, tensor<2x2x1000x16xbf16>, tensor<2x2x1000x16xbf16>
  return %o, %l, %dq, %dk, %dv : tensor<2x8x1000x16xbf16>, tensor<2x8x1000xf32>, tensor<2x8x1000x16xbf16>, tensor<2x2x1000x16xbf16>, tensor<2x2x1000x16xbf16>
}

func.func @t16_heavy(%q: tensor<2x8x1000x16xbf16>, %k: tensor<2x2x1000x16xbf16>, %v: tensor<2x2x1000x16xbf16>, %do: tensor<2x8x1000x16xbf16>, %m: tensor<2x1x1x1000xi1>) -> (tensor<2x8x1000x16xbf16>, tensor<2x8x1000xf32>, tensor<2x8x1000x16xbf16>, tensor<2x2x1000x16xbf16>, tensor<2x2x1000x16xbf16>) {
  %o, %l = attn.attention ins(%q, %k, %v : tensor<2x8x1000x16xbf16>, tensor<2x2x1000x16xbf16>, tensor<2x2x1000x16xbf16>) mask(%m : tensor<2x1x1x1000xi1>) {softcap = 30.0 : f32, window = array<i64: 100, 0>, causal = #attn.causal<bottom_right>} -> tensor<2x8x1000x16xbf16>, tensor<2x8x1000xf32>
  %dq, %dk, %dv = attn.attention_grad ins(%q, %k, %v : tensor<2x8x1000x16xbf16>, tensor<2x2x1000x16xbf16>, tensor<2x2x1000x16xbf16>) forward(%o, %l : tensor<2x8x1000x16xbf16>, tensor<2x8x1000xf32>) grad_output(%do : tensor<2x8x1000x16xbf16>) mask(%m : tensor<2x1x1x1000xi1>) {softcap = 30.0 : f32, window = array<i64: 100, 0>, causal = #attn.causal<bottom_right>} -> tensor<2x8x1000x16xbf16>, tensor<2x2x1000x16xbf16>, tensor<2x2x1000x16xbf16>
  return %o, %l, %dq, %dk, %dv : tensor<2x8x1000x16xbf16>, tensor<2x8x1000xf32>, tensor<2x8x1000x16xbf16>, tensor<2x2x1000x16xbf16>, tensor<2x2x1000x16xbf16>
}

func.func @t16_dropout(%q: tensor<2x8x1000x16xbf16>, %k: tensor<2x2x1000x16xbf16>, %v: tensor<2x2x1000x16xbf16>, %do: tensor<2x8x1000x16xbf16>, %seed: i64, %off: i64) -> (tensor<2x8x1000x16xbf16>, tensor<2x8x1000xf32>, tensor<2x8x1000x16xbf16>, tensor<2x2x1000x16xbf16>, tensor<2x2x1000x16xbf16>) {
  %o, %l = attn.attention ins(%q, %k, %v : tensor<2x8x1000x16xbf16>, tensor<2x2x1000x16xbf16>, tensor<2x2x1000x16xbf16>) rng(%seed, %off) {dropout_p = 0.1 : f32} -> tensor<2x8x1000x16xbf16>, tensor<2x8x1000xf32>
  %dq, %dk, %dv = attn.attention_grad ins(%q, %k, %v : tensor<2x8x1000x16xbf16>, tensor<2x2x1000x16xbf16>, tensor<2x2x1000x16xbf16>) forward(%o, %l : tensor<2x8x1000x16xbf16>, tensor<2x8x1000xf32>) grad_output(%do : tensor<2x8x1000x16xbf16>) rng(%seed, %off) {dropout_p = 0.1 : f32} -> tensor<2x8x1000x16xbf16>, tensor<2x2x1000x16xbf16>, tensor<2x2x1000x16xbf16>
  return %o, %l, %dq, %dk, %dv : tensor<2x8x1000x16xbf16>, tensor<2x8x1000xf32>, tensor<2x8x1000x16xbf16>, tensor<2x2x1000x16xbf16>, tensor<2x2x1000x16xbf16>
}

func.func @t16_det(%q: tensor<2x8x1000x16xbf16>, %k: tensor<2x2x1000x16xbf16>, %v: tensor<2x2x1000x16xbf16>, %do: tensor<2x8x1000x16xbf16>) -> (tensor<2x8x1000x16xbf16>, tensor<2x8x1000xf32>, tensor<2x8x1000x16xbf16>, tensor<2x2x1000x16xbf16>, tensor<2x2x1000x16xbf16>) {
  %o, %l = attn.attention ins(%q, %k, %v : tensor<2x8x1000x16xbf16>, tensor<2x2x1000x16xbf16>, tensor<2x2x1000x16xbf16>) -> tensor<2x8x1000x16xbf16>, tensor<2x8x1000xf32>
  %dq, %dk, %dv = attn.attention_grad ins(%q, %k, %v : tensor<2x8x1000x16xbf16>, tensor<2x2x1000x16xbf16>, tensor<2x2x1000x16xbf16>) forward(%o, %l : tensor<2x8x1000x16xbf16>, tensor<2x8x1000xf32>) grad_output(%do : tensor<2x8x1000x16xbf16>) {deterministic} -> tensor<2x8x1000x16xbf16>, tensor<2x2x1000x16xbf16>, tensor<2x2x1000x16xbf16>
  return %o, %l, %dq, %dk, %dv : tensor<2x8x1000x16xbf16>, tensor<2x8x1000xf32>, tensor<2x8x1000x16xbf16>, tensor<2x2x1000x16xbf16>, tensor<2x2x1000x16xbf16>
}

func.func @t24_causal(%q: tensor<2x8x1000x24xbf16>, %k: tensor<2x2x1000x24xbf16>, %v: tensor<2x2x1000x24xbf16>, %do: tensor<2x8x1000x24xbf16>) -> (tensor<2x8x1000x24xbf16>, tensor<2x8x1000xf32>, tensor<2x8x1000x24xbf16>, tensor<2x2x1000x24xbf16>, tensor<2x2x1000x24xbf16>) {
  %o, %l = attn.attention ins(%q, %k, %v : tensor<2x8x1000x24xbf16>, tensor<2x2x1000x24xbf16>, tensor<2x2x1000x24xbf16>) {causal = #attn.causal<bottom_right>} -> tensor<2x8x1000x24xbf16>, tensor<2x8x1000xf32>
  %dq, %dk, %dv = attn.attention_grad ins(%q, %k, %v : tensor<2x8x1000x24xbf16>, tensor<2x2x1000x24xbf16>, tensor<2x2x1000x24xbf16>) forward(%o, %l : tensor<2x8x1000x24xbf16>, tensor<2x8x1000xf32>) grad_output(%do : tensor<2x8x1000x24xbf16>) {causal = #attn.causal<bottom_right>} -> tensor<2x8x1000x24xbf16>, tensor<2x2x1000x24xbf16>, tensor<2x2x1000x24xbf16>
  return %o, %l, %dq, %dk, %dv : tensor<2x8x1000x24xbf16>, tensor<2x8x1000xf32>, tensor<2x8x1000x24xbf16>, tensor<2x2x1000x24xbf16>, tensor<2x2x1000x24xbf16>
}

func.func @t24_heavy(%q: tensor<2x8x1000x24xbf16>, %k: tensor<2x2x1000x24xbf16>, %v: tensor<2x2x1000x24xbf16>, %do: tensor<2x8x1000x24xbf16>, %m: tensor<2x1x1x1000xi1>) -> (tensor<2x8x1000x24xbf16>, tensor<2x8x1000xf32>, tensor<2x8x1000x24xbf16>, tensor<2x2x1000x24xbf16>, tensor<2x2x1000x24xbf16>) {
  %o, %l = attn.attention ins(%q, %k, %v : tensor<2x8x1000x24xbf16>, tensor<2x2x1000x24xbf16>, tensor<2x2x1000x24xbf16>) mask(%m : tensor<2x1x1x1000xi1>) {softcap = 30.0 : f32, window = array<i64: 100, 0>, causal = #attn.causal<bottom_right>} -> tensor<2x8x1000x24xbf16>, tensor<2x8x1000xf32>
  %dq, %dk, %dv = attn.attention_grad ins(%q, %k, %v : tensor<2x8x1000x24xbf16>, tensor<2x2x1000x24xbf16>, tensor<2x2x1000x24xbf16>) forward(%o, %l : tensor<2x8x1000x24xbf16>, tensor<2x8x1000xf32>) grad_output(%do : tensor<2x8x1000x24xbf16>) mask(%m : tensor<2x1x1x1000xi1>) {softcap = 30.0 : f32, window = array<i64: 100, 0>, causal = #attn.causal<bottom_right>} -> tensor<2x8x1000x24xbf16>, tensor<2x2x1000x24xbf16>, tensor<2x2x1000x24xbf16>
  return %o, %l, %dq, %dk, %dv : tensor<2x8x1000x24xbf16>, tensor<2x8x1000xf32>, tensor<2x8x1000x24xbf16>, tensor<2x2x1000x24xbf16>, tensor<2x2x1000x24xbf16>
}

func.func @t24_dropout(%q: tensor<2x8x1000x24xbf16>, %k: tensor<2x2x1000x24xbf16>, %v: tensor<2x2x1000x24xbf16>, %do: tensor<2x8x1000x24xbf16>, %seed: i64, %off: i64) -> (tensor<2x8x1000x24xbf16>, tensor<2x8x1000xf32>, tensor<2x8x1000x24xbf16>, tensor<2x2x1000x24xbf16>, tensor<2x2x1000x24xbf16>) {
  %o, %l = attn.attention ins(%q, %k, %v : tensor<2x8x1000x24xbf16>, tensor<2x2x1000x24xbf16>, tensor<2x2x1000x24xbf16>) rng(%seed, %off) {dropout_p = 0.1 : f32} -> tensor<2x8x1000x24xbf16>, tensor<2x8x1000xf32>
  %dq, %dk, %dv = attn.attention_grad ins(%q, %k, %v : tensor<2x8x1000x24xbf16>, tensor<2x2x1000x24xbf16>, tensor<2x2x1000x24xbf16>) forward(%o, %l : tensor<2x8x1000x24xbf16>, tensor<2x8x1000xf32>) grad_output(%do : tensor<2x8x1000x24xbf16>) rng(%seed, %off) {dropout_p = 0.1 : f32} -> tensor<2x8x1000x24xbf16>, tensor<2x2x1000x24xbf16>, tensor<2x2x1000x24xbf16>
  return %o, %l, %dq, %dk, %dv : tensor<2x8x1000x24xbf16>, tensor<2x8x1000xf32>, tensor<2x8x1000x24xbf16>, tensor<2x2x1000x24xbf16>, tensor<2x2x1000x24xbf16>
}

func.func @t24_det(%q: tensor<2x8x1000x24xbf16>, %k: tensor<2x2x1000x24xbf16>, %v: tensor<2x2x1000x24xbf16>, %do: tensor<2x8x1000x24xbf16>) -> (tensor<2x8x1000x24xbf16>, tensor<2x8x1000xf32>, tensor<2x8x1000x24xbf16>, tensor<2x2x1000x24xbf16>, tensor<2x2x1000x24xbf16>) {
  %o, %l = attn.attention ins(%q, %k, %v : tensor<2x8x1000x24xbf16>, tensor<2x2x1000x24xbf16>, tensor<2x2x1000x24xbf16>) -> tensor<2x8x1000x24xbf16>, tensor<2x8x1000xf32>
  %dq, %dk, %dv = attn.attention_grad ins(%q, %k, %v : tensor<2x8x1000x24xbf16>, tensor<2x2x1000x24xbf16>, tensor<2x2x1000x24xbf16>) forward(%o, %l : tensor<2x8x1000x24xbf16>, tensor<2x8x1000xf32>) grad_output(%do : tensor<2x8x1000x24xbf16>) {deterministic} -> tensor<2x8x1000x24xbf16>, tensor<2x2x1000x24xbf16>, tensor<2x2x1000x24xbf16>
  return %o, %l, %dq, %dk, %dv : tensor<2x8x1000x24xbf16>, tensor<2x8x1000xf32>, tensor<2x8x1000x24xbf16>, tensor<2x2x1000x24xbf16>, tensor<2x2x1000x24xbf16>
}

func.func @t32_causal(%q: tensor<2x8x1000x32xbf16>, %k: tensor<2x2x1000x32xbf16>, %v: tensor<2x2x1000x32xbf16>, %do: tensor<2x8x1000x32xbf16>) -> (tensor<2x8x1000x32xbf16>, tensor<2x8x1000xf32>, tensor<2x8x1000x32xbf16>, tensor<2x2x1000x32xbf16>, tensor<2x2x1000x32xbf16>) {
  %o, %l = attn.attention ins(%q, %k, %v : tensor<2x8x1000x32xbf16>, tensor<2x2x1000x32xbf16>, tensor<2x2x1000x32xbf16>) {causal = #attn.causal<bottom_right>} -> tensor<2x8x1000x32xbf16>, tensor<2x8x1000xf32>
  %dq, %dk, %dv = attn.attention_grad ins(%q, %k, %v : tensor<2x8x1000x32xbf16>, tensor<2x2x1000x32xbf16>, tensor<2x2x1000x32xbf16>) forward(%o, %l : tensor<2x8x1000x32xbf16>, tensor<2x8x1000xf32>) grad_output(%do : tensor<2x8x1000x32xbf16>) {causal = #attn.causal<bottom_right>} -> tensor<2x8x1000x32xbf16>, tensor<2x2x1000x32xbf16>, tensor<2x2x1000x32xbf16>
  return %o, %l, %dq, %dk, %dv : tensor<2x8x1000x32xbf16>, tensor<2x8x1000xf32>, tensor<2x8x1000x32xbf16>, tensor<2x2x1000x32xbf16>, tensor<2x2x1000x32xbf16>
}

func.func @t32_heavy(%q: tensor<2x8x1000x32xbf16>, %k: tensor<2x2x1000x32xbf16>, %v: tensor<2x2x1000x32xbf16>, %do: tensor<2x8x1000x32xbf16>, %m: tensor<2x1x1x1000xi1>) -> (tensor<2x8x1000x32xbf16>, tensor<2x8x1000xf32>, tensor<2x8x1000x32xbf16>, tensor<2x2x1000x32xbf16>, tensor<2x2x1000x32xbf16>) {
  %o, %l = attn.attention ins(%q, %k, %v : tensor<2x8x1000x32xbf16>, tensor<2x2x1000x32xbf16>, tensor<2x2x1000x32xbf16>) mask(%m : tensor<2x1x1x1000xi1>) {softcap = 30.0 : f32, window = array<i64: 100, 0>, causal = #attn.causal<bottom_right>} -> tensor<2x8x1000x32xbf16>, tensor<2x8x1000xf32>
  %dq, %dk, %dv = attn.attention_grad ins(%q, %k, %v : tensor<2x8x1000x32xbf16>, tensor<2x2x1000x32xbf16>, tensor<2x2x1000x32xbf16>) forward(%o, %l : tensor<2x8x1000x32xbf16>, tensor<2x8x1000xf32>) grad_output(%do : tensor<2x8x1000x32xbf16>) mask(%m : tensor<2x1x1x1000xi1>) {softcap = 30.0 : f32, window = array<i64: 100, 0>, causal = #attn.causal<bottom_right>} -> tensor<2x8x1000x32xbf16>, tensor<2x2x1000x32xbf16>, tensor<2x2x1000x32xbf16>
  return %o, %l, %dq, %dk, %dv : tensor<2x8x1000x32xbf16>, tensor<2x8x1000xf32>, tensor<2x8x1000x32xbf16>, tensor<2x2x1000x32xbf16>, tensor<2x2x1000x32xbf16>
}

func.func @t32_dropout(%q: tensor<2x8x1000x32xbf16>, %k: tensor<2x2x1000x32xbf16>, %v: tensor<2x2x1000x32xbf16>, %do: tensor<2x8x1000x32xbf16>, %seed: i64, %off: i64) -> (tensor<2x8x1000x32xbf16>, tensor<2x8x1000xf32>, tensor<2x8x1000x32xbf16>, tensor<2x2x1000x32xbf16>, tensor<2x2x1000x32xbf16>) {
  %o, %l = attn.attention ins(%q, %k, %v : tensor<2x8x1000x32xbf16>, tensor<2x2x1000x32xbf16>, tensor<2x2x1000x32xbf16>) rng(%seed, %off) {dropout_p = 0.1 : f32} -> tensor<2x8x1000x32xbf16>, tensor<2x8x1000xf32>
  %dq, %dk, %dv = attn.attention_grad ins(%q, %k, %v : tensor<2x8x1000x32xbf16>, tensor<2x2x1000x32xbf16>, tensor<2x2x1000x32xbf16>) forward(%o, %l : tensor<2x8x1000x32xbf16>, tensor<2x8x1000xf32>) grad_output(%do : tensor<2x8x1000x32xbf16>) rng(%seed, %off) {dropout_p = 0.1 : f32} -> tensor<2x8x1000x32xbf16>, tensor<2x2x1000x32xbf16>, tensor<2x2x1000x32xbf16>
  return %o, %l, %dq, %dk, %dv : tensor<2x8x1000x32xbf16>, tensor<2x8x1000xf32>, tensor<2x8x1000x32xbf16>, tensor<2x2x1000x32xbf16>, tensor<2x2x1000x32xbf16>
}

func.func @t32_det(%q: tensor<2x8x1000x32xbf16>, %k: tensor<2x2x1000x32xbf16>, %v: tensor<2x2x1000x32xbf16>, %do: tensor<2x8x1000x32xbf16>) -> (tensor<2x8x1000x32xbf16>, tensor<2x8x1000xf32>, tensor<2x8x1000x32xbf16>, tensor<2x2x1000x32xbf16>, tensor<2x2x1000x32xbf16>) {
  %o, %l = attn.attention ins(%q, %k, %v : tensor<2x8x1000x32xbf16>, tensor<2x2x1000x32xbf16>, tensor<2x2x1000x32xbf16>) -> tensor<2x8x1000x32xbf16>, tensor<2x8x1000xf32>
  %dq, %dk, %dv = attn.attention_grad ins(%q, %k, %v : tensor<2x8x1000x32xbf16>, tensor<2x2x1000x32xbf16>, tensor<2x2x1000x32xbf16>) forward(%o, %l : tensor<2x8x1000x32xbf16>, tensor<2x8x1000xf32>) grad_output(%do : tensor<2x8x1000x32xbf16>) {deterministic} -> tensor<2x8x1000x32xbf16>, tensor<2x2x1000x32xbf16>, tensor<2x2x1000x32xbf16>
  return %o, %l, %dq, %dk, %dv : tensor<2x8x1000x32xbf16>, tensor<2x8x1000xf32>, tensor<2x8x1000x32xbf16>, tensor<2x2x1000x32xbf16>, tensor<2x2x1000x32xbf16>
}

func.func @t40_causal(%q: tensor<2x8x1000x40xbf16>, %k: tensor<2x2x1000x40xbf16>, %v: tensor<2x2x1000x40xbf16>, %do: tensor<2x8x1000x40xbf16>) -> (tensor<2x8x1000x40xbf16>, tensor<2x8x1000xf32>, tensor<2x8x1000x40xbf16>, tensor<2x2x1000x40xbf16>, tensor<2x2x1000x40xbf16>) {
  %o, %l = attn.attention ins(%q, %k, %v : tensor<2x8x1000x40xbf16>, tensor<2x2x1000x40xbf16>, tensor<2x2x1000x40xbf16>) {causal = #attn.causal<bottom_right>} -> tensor<2x8x1000x40xbf16>, tensor<2x8x1000xf32>
  %dq, %dk, %dv = attn.attention_grad ins(%q, %k, %v : tensor<2x8x1000x40xbf16>, tensor<2x2x1000x40xbf16>, tensor<2x2x1000x40xbf16>) forward(%o, %l : tensor<2x8x1000x40xbf16>, tensor<2x8x1000xf32>) grad_output(%do : tensor<2x8x1000x40xbf16>) {causal = #attn.causal<bottom_right>} -> tensor<2x8x1000x40xbf16>, tensor<2x2x1000x40xbf16>, tensor<2x2x1000x40xbf16>
  return %o, %l, %dq, %dk, %dv : tensor<2x8x1000x40xbf16>, tensor<2x8x1000xf32>, tensor<2x8x1000x40xbf16>, tensor<2x2x1000x40xbf16>, tensor<2x2x1000x40xbf16>
}

func.func @t40_heavy(%q: tensor<2x8x1000x40xbf16>, %k: tensor<2x2x1000x40xbf16>, %v: tensor<2x2x1000x40xbf16>, %do: tensor<2x8x1000x40xbf16>, %m: tensor<2x1x1x1000xi1>) -> (tensor<2x8x1000x40xbf16>, tensor<2x8x1000xf32>, tensor<2x8x1000x40xbf16>, tensor<2x2x1000x40xbf16>, tensor<2x2x1000x40xbf16>) {
  %o, %l = attn.attention ins(%q, %k, %v : tensor<2x8x1000x40xbf16>, tensor<2x2x1000x40xbf16>, tensor<2x2x1000x40xbf16>) mask(%m : tensor<2x1x1x1000xi1>) {softcap = 30.0 : f32, window = array<i64: 100, 0>, causal = #attn.causal<bottom_right>} -> tensor<2x8x1000x40xbf16>, tensor<2x8x1000xf32>
  %dq, %dk, %dv = attn.attention_grad ins(%q, %k, %v : tensor<2x8x1000x40xbf16>, tensor<2x2x1000x40xbf16>, tensor<2x2x1000x40xbf16>) forward(%o, %l : tensor<2x8x1000x40xbf16>, tensor<2x8x1000xf32>) grad_output(%do : tensor<2x8x1000x40xbf16>) mask(%m : tensor<2x1x1x1000xi1>) {softcap = 30.0 : f32, window = array<i64: 100, 0>, causal = #attn.causal<bottom_right>} -> tensor<2x8x1000x40xbf16>, tensor<2x2x1000x40xbf16>, tensor<2x2x1000x40xbf16>
  return %o, %l, %dq, %dk, %dv : tensor<2x8x1000x40xbf16>, tensor<2x8x1000xf32>, tensor<2x8x1000x40xbf16>, tensor<2x2x1000x40xbf16>, tensor<2x2x1000x40xbf16>
}

func.func @t40_dropout(%q: tensor<2x8x1000x40xbf16>, %k: tensor<2x2x1000x40xbf16>, %v: tensor<2x2x1000x40xbf16>, %do: tensor<2x8x1000x40xbf16>, %seed: i64, %off: i64) -> (tensor<2x8x1000x40xbf16>, tensor<2x8x1000xf32>, tensor<2x8x1000x40xbf16>, tensor<2x2x1000x40xbf16>, tensor<2x2x1000x40xbf16>) {
  %o, %l = attn.attention ins(%q, %k, %v : tensor<2x8x1000x40xbf16>, tensor<2x2x1000x40xbf16>, tensor<2x2x1000x40xbf16>) rng(%seed, %off) {dropout_p = 0.1 : f32} -> tensor<2x8x1000x40xbf16>, tensor<2x8x1000xf32>
  %dq, %dk, %dv = attn.attention_grad ins(%q, %k, %v : tensor<2x8x1000x40xbf16>, tensor<2x2x1000x40xbf16>, tensor<2x2x1000x40xbf16>) forward(%o, %l : tensor<2x8x1000x40xbf16>, tensor<2x8x1000xf32>) grad_output(%do : tensor<2x8x1000x40xbf16>) rng(%seed, %off) {dropout_p = 0.1 : f32} -> tensor<2x8x1000x40xbf16>, tensor<2x2x1000x40xbf16>, tensor<2x2x1000x40xbf16>
  return %o, %l, %dq, %dk, %dv : tensor<2x8x1000x40xbf16>, tensor<2x8x1000xf32>, tensor<2x8x1000x40xbf16>, tensor<2x2x1000x40xbf16>, tensor<2x2x1000x40xbf16>
}

func.func @t40_det(%q: tensor<2x8x1000x40xbf16>, %k: tensor<2x2x1000x40xbf16>, %v: tensor<2x2x1000x40xbf16>, %do: tensor<2x8x1000x40xbf16>) -> (tensor<2x8x1000x40xbf16>, tensor<2x8x1000xf32>, tensor<2x8x1000x40xbf16>, tensor<2x2x1000x40xbf16>, tensor<2x2x1000x40xbf16>) {
  %o, %l = attn.attention ins(%q, %k, %v : tensor<2x8x1000x40xbf16>, tensor<2x2x1000x40xbf16>, tensor<2x2x1000x40xbf16>) -> tensor<2x8x1000x40xbf16>, tensor<2x8x1000xf32>
  %dq, %dk, %dv = attn.attention_grad ins(%q, %k, %v : tensor<2x8x1000x40xbf16>, tensor<2x2x1000x40xbf16>, tensor<2x2x1000x40xbf16>) forward(%o, %l : tensor<2x8x1000x40xbf16>, tensor<2x8x1000xf32>) grad_output(%do : tensor<2x8x1000x40xbf16>) {deterministic} -> tensor<2x8x1000x40xbf16>, tensor<2x2x1000x40xbf16>, tensor<2x2x1000x40xbf16>
  return %o, %l, %dq, %dk, %dv : tensor<2x8x1000x40xbf16>, tensor<2x8x1000xf32>, tensor<2x8x1000x40xbf16>, tensor<2x2x1000x40xbf16>, tensor<2x2x1000x40xbf16>
}

func.func @t48_causal(%q: tensor<2x8x1000x48xbf16>, %k: tensor<2x2x1000x48xbf16>, %v: tensor<2x2x1000x48xbf16>, %do: tensor<2x8x1000x48xbf16>) -> (tensor<2x8x1000x48xbf16>, tensor<2x8x1000xf32>, tensor<2x8x1000x48xbf16>, tensor<2x2x1000x48xbf16>, tensor<2x2x1000x48xbf16>) {
  %o, %l = attn.attention ins(%q, %k, %v : tensor<2x8x1000x48xbf16>, tensor<2x2x1000x48xbf16>, tensor<2x2x1000x48xbf16>) {causal = #attn.causal<bottom_right>} -> tensor<2x8x1000x48xbf16>, tensor<2x8x1000xf32>
  %dq, %dk, %dv = attn.attention_grad ins(%q, %k, %v : tensor<2x8x1000x48xbf16>, tensor<2x2x1000x48xbf16>, tensor<2x2x1000x48xbf16>) forward(%o, %l : tensor<2x8x1000x48xbf16>, tensor<2x8x1000xf32>) grad_output(%do : tensor<2x8x1000x48xbf16>) {causal = #attn.causal<bottom_right>} -> tensor<2x8x1000x48xbf16>, tensor<2x2x1000x48xbf16>, tensor<2x2x1000x48xbf16>
  return %o, %l, %dq, %dk, %dv : tensor<2x8x1000x48xbf16>, tensor<2x8x1000xf32>, tensor<2x8x1000x48xbf16>, tensor<2x2x1000x48xbf16>, tensor<2x2x1000x48xbf16>
}

func.func @t48_heavy(%q: tensor<2x8x1000x48xbf16>, %k: tensor<2x2x1000x48xbf16>, %v: tensor<2x2x1000x48xbf16>, %do: tensor<2x8x1000x48xbf16>, %m: tensor<2x1x1x1000xi1>) -> (tensor<2x8x1000x48xbf16>, tensor<2x8x1000xf32>, tensor<2x8x1000x48xbf16>, tensor<2x2x1000x48xbf16>, tensor<2x2x1000x48xbf16>) {
  %o, %l = attn.attention ins(%q, %k, %v : tensor<2x8x1000x48xbf16>, tensor<2x2x1000x48xbf16>, tensor<2x2x1000x48xbf16>) mask(%m : tensor<2x1x1x1000xi1>) {softcap = 30.0 : f32, window = array<i64: 100, 0>, causal = #attn.causal<bottom_right>} -> tensor<2x8x1000x48xbf16>, tensor<2x8x1000xf32>
  %dq, %dk, %dv = attn.attention_grad ins(%q, %k, %v : tensor<2x8x1000x48xbf16>, tensor<2x2x1000x48xbf16>, tensor<2x2x1000x48xbf16>) forward(%o, %l : tensor<2x8x1000x48xbf16>, tensor<2x8x1000xf32>) grad_output(%do : tensor<2x8x1000x48xbf16>) mask(%m : tensor<2x1x1x1000xi1>) {softcap = 30.0 : f32, window = array<i64: 100, 0>, causal = #attn.causal<bottom_right>} -> tensor<2x8x1000x48xbf16>, tensor<2x2x1000x48xbf16>, tensor<2x2x1000x48xbf16>
  return %o, %l, %dq, %dk, %dv : tensor<2x8x1000x48xbf16>, tensor<2x8x1000xf32>, tensor<2x8x1000x48xbf16>, tensor<2x2x1000x48xbf16>, tensor<2x2x1000x48xbf16>
}

func.func @t48_dropout(%q: tensor<2x8x1000x48xbf16>, %k: tensor<2x2x1000x48xbf16>, %v: tensor<2x2x1000x48xbf16>, %do: tensor<2x8x1000x48xbf16>, %seed: i64, %off: i64) -> (tensor<2x8x1000x48xbf16>, tensor<2x8x1000xf32>, tensor<2x8x1000x48xbf16>, tensor<2x2x1000x48xbf16>, tensor<2x2x1000x48xbf16>) {
  %o, %l = attn.attention ins(%q, %k, %v : tensor<2x8x1000x48xbf16>, tensor<2x2x1000x48xbf16>, tensor<2x2x1000x48xbf16>) rng(%seed, %off) {dropout_p = 0.1 : f32} -> tensor<2x8x1000x48xbf16>, tensor<2x8x1000xf32>
  %dq, %dk, %dv = attn.attention_grad ins(%q, %k, %v : tensor<2x8x1000x48xbf16>, tensor<2x2x1000x48xbf16>, tensor<2x2x1000x48xbf16>) forward(%o, %l : tensor<2x8x1000x48xbf16>, tensor<2x8x1000xf32>) grad_output(%do : tensor<2x8x1000x48xbf16>) rng(%seed, %off) {dropout_p = 0.1 : f32} -> tensor<2x8x1000x48xbf16>, tensor<2x2x1000x48xbf16>, tensor<2x2x1000x48xbf16>
  return %o, %l, %dq, %dk, %dv : tensor<2x8x1000x48xbf16>, tensor<2x8x1000xf32>, tensor<2x8x1000x48xbf16>, tensor<2x2x1000x48xbf16>, tensor<2x2x1000x48xbf16>
}

func.func @t48_det(%q: tensor<2x8x1000x48xbf16>, %k: tensor<2x2x1000x48xbf16>, %v: tensor<2x2x1000x48xbf16>, %do: tensor<2x8x1000x48xbf16>) -> (tensor<2x8x1000x48xbf16>, tensor<2x8x1000xf32>, tensor<2x8x1000x48xbf16>, tensor<2x2x1000x48xbf16>, tensor<2x2x1000x48xbf16>) {
  %o, %l = attn.attention ins(%q, %k, %v : tensor<2x8x1000x48xbf16>, tensor<2x2x1000x48xbf16>, tensor<2x2x1000x48xbf16>) -> tensor<2x8x1000x48xbf16>, tensor<2x8x1000xf32>
  %dq, %dk, %dv = attn.attention_grad ins(%q, %k, %v : tensor<2x8x1000x48xbf16>, tensor<2x2x1000x48xbf16>, tensor<2x2x1000x48xbf16>) forward(%o, %l : tensor<2x8x1000x48xbf16>, tensor<2x8x1000xf32>) grad_output(%do : tensor<2x8x1000x48xbf16>) {deterministic} -> tensor<2x8x1000x48xbf16>, tensor<2x2x1000x48xbf16>, tensor<2x2x1000x48xbf16>
  return %o, %l, %dq, %dk, %dv : tensor<2x8x1000x48xbf16>, tensor<2x8x1000xf32>, tensor<2x8x1000x48xbf16>, tensor<2x2x1000x48xbf16>, tensor<2x2x1000x48xbf16>
}

func.func @t72_causal(%q: tensor<2x8x1000x72xbf16>, %k: tensor<2x2x1000x72xbf16>, %v: tensor<2x2x1000x72xbf16>, %do: tensor<2x8x1000x72xbf16>) -> (tensor<2x8x1000x72xbf16>, tensor<2x8x1000xf32>, tensor<2x8x1000x72xbf16>, tensor<2x2x1000x72xbf16>, tensor<2x2x1000x72xbf16>) {
  %o, %l = attn.attention ins(%q, %k, %v : tensor<2x8x1000x72xbf16>, tensor<2x2x1000x72xbf16>, tensor<2x2x1000x72xbf16>) {causal = #attn.causal<bottom_right>} -> tensor<2x8x1000x72xbf16>, tensor<2x8x1000xf32>
  %dq, %dk, %dv = attn.attention_grad ins(%q, %k, %v : tensor<2x8x1000x72xbf16>, tensor<2x2x1000x72xbf16>, tensor<2x2x1000x72xbf16>) forward(%o, %l : tensor<2x8x1000x72xbf16>, tensor<2x8x1000xf32>) grad_output(%do : tensor<2x8x1000x72xbf16>) {causal = #attn.causal<bottom_right>} -> tensor<2x8x1000x72xbf16>, tensor<2x2x1000x72xbf16>, tensor<2x2x1000x72xbf16>
  return %o, %l, %dq, %dk, %dv : tensor<2x8x1000x72xbf16>, tensor<2x8x1000xf32>, tensor<2x8x1000x72xbf16>, tensor<2x2x1000x72xbf16>, tensor<2x2x1000x72xbf16>
}

func.func @t72_heavy(%q: tensor<2x8x1000x72xbf16>, %k: tensor<2x2x1000x72xbf16>, %v: tensor<2x2x1000x72xbf16>, %do: tensor<2x8x1000x72xbf16>, %m: tensor<2x1x1x1000xi1>) -> (tensor<2x8x1000x72xbf16>, tensor<2x8x1000xf32>, tensor<2x8x1000x72xbf16>, tensor<2x2x1000x72xbf16>, tensor<2x2x1000x72xbf16>) {
  %o, %l = attn.attention ins(%q, %k, %v : tensor<2x8x1000x72xbf16>, tensor<2x2x1000x72xbf16>, tensor<2x2x1000x72xbf16>) mask(%m : tensor<2x1x1x1000xi1>) {softcap = 30.0 : f32, window = array<i64: 100, 0>, causal = #attn.causal<bottom_right>} -> tensor<2x8x1000x72xbf16>, tensor<2x8x1000xf32>
  %dq, %dk, %dv = attn.attention_grad ins(%q, %k, %v : tensor<2x8x1000x72xbf16>, tensor<2x2x1000x72xbf16>, tensor<2x2x1000x72xbf16>) forward(%o, %l : tensor<2x8x1000x72xbf16>, tensor<2x8x1000xf32>) grad_output(%do : tensor<2x8x1000x72xbf16>) mask(%m : tensor<2x1x1x1000xi1>) {softcap = 30.0 : f32, window = array<i64: 100, 0>, causal = #attn.causal<bottom_right>} -> tensor<2x8x1000x72xbf16>, tensor<2x2x1000x72xbf16>, tensor<2x2x1000x72xbf16>
  return %o, %l, %dq, %dk, %dv : tensor<2x8x1000x72xbf16>, tensor<2x8x1000xf32>, tensor<2x8x1000x72xbf16>, tensor<2x2x1000x72xbf16>, tensor<2x2x1000x72xbf16>
}

func.func @t72_dropout(%q: tensor<2x8x1000x72xbf16>, %k: tensor<2x2x1000x72xbf16>, %v: tensor<2x2x1000x72xbf16>, %do: tensor<2x8x1000x72xbf16>, %seed: i64, %off: i64) -> (tensor<2x8x1000x72xbf16>, tensor<2x8x1000xf32>, tensor<2x8x1000x72xbf16>, tensor<2x2x1000x72xbf16>, tensor<2x2x1000x72xbf16>) {
  %o, %l = attn.attention ins(%q, %k, %v : tensor<2x8x1000x72xbf16>, tensor<2x2x1000x72xbf16>, tensor<2x2x1000x72xbf16>) rng(%seed, %off) {dropout_p = 0.1 : f32} -> tensor<2x8x1000x72xbf16>, tensor<2x8x1000xf32>
  %dq, %dk, %dv = attn.attention_grad ins(%q, %k, %v : tensor<2x8x1000x72xbf16>, tensor<2x2x1000x72xbf16>, tensor<2x2x1000x72xbf16>) forward(%o, %l : tensor<2x8x1000x72xbf16>, tensor<2x8x1000xf32>) grad_output(%do : tensor<2x8x1000x72xbf16>) rng(%seed, %off) {dropout_p = 0.1 : f32} -> tensor<2x8x1000x72xbf16>, tensor<2x2x1000x72xbf16>, tensor<2x2x1000x72xbf16>
  return %o, %l, %dq, %dk, %dv : tensor<2x8x1000x72xbf16>, tensor<2x8x1000xf32>, tensor<2x8x1000x72xbf16>, tensor<2x2x1000x72xbf16>, tensor<2x2x1000x72xbf16>
}

func.func @t72_det(%q: tensor<2x8x1000x72xbf16>, %k: tensor<2x2x1000x72xbf16>, %v: tensor<2x2x1000x72xbf16>, %do: tensor<2x8x1000x72xbf16>) -> (tensor<2x8x1000x72xbf16>, tensor<2x8x1000xf32>, tensor<2x8x1000x72xbf16>, tensor<2x2x1000x72xbf16>, tensor<2x2x1000x72xbf16>) {
  %o, %l = attn.attention ins(%q, %k, %v : tensor<2x8x1000x72xbf16>, tensor<2x2x1000x72xbf16>, tensor<2x2x1000x72xbf16>) -> tensor<2x8x1000x72xbf16>, tensor<2x8x1000xf32>
  %dq, %dk, %dv = attn.attention_grad ins(%q, %k, %v : tensor<2x8x1000x72xbf16>, tensor<2x2x1000x72xbf16>, tensor<2x2x1000x72xbf16>) forward(%o, %l : tensor<2x8x1000x72xbf16>, tensor<2x8x1000xf32>) grad_output(%do : tensor<2x8x1000x72xbf16>) {deterministic} -> tensor<2x8x1000x72xbf16>, tensor<2x2x1000x72xbf16>, tensor<2x2x1000x72xbf16>
  return %o, %l, %dq, %dk, %dv : tensor<2x8x1000x72xbf16>, tensor<2x8x1000xf32>, tensor<2x8x1000x72xbf16>, tensor<2x2x1000x72xbf16>, tensor<2x2x1000x72xbf16>
}

func.func @t80_causal(%q: tensor<2x8x1000x80xbf16>, %k: tensor<2x2x1000x80xbf16>, %v: tensor<2x2x1000x80xbf16>, %do: tensor<2x8x1000x80xbf16>) -> (tensor<2x8x1000x80xbf16>, tensor<2x8x1000xf32>, tensor<2x8x1000x80xbf16>, tensor<2x2x1000x80xbf16>, tensor<2x2x1000x80xbf16>) {
  %o, %l = attn.attention ins(%q, %k, %v : tensor<2x8x1000x80xbf16>, tensor<2x2x1000x80xbf16>, tensor<2x2x1000x80xbf16>) {causal = #attn.causal<bottom_right>} -> tensor<2x8x1000x80xbf16>, tensor<2x8x1000xf32>
  %dq, %dk, %dv = attn.attention_grad ins(%q, %k, %v : tensor<2x8x1000x80xbf16>, tensor<2x2x1000x80xbf16>, tensor<2x2x1000x80xbf16>) forward(%o, %l : tensor<2x8x1000x80xbf16>, tensor<2x8x1000xf32>) grad_output(%do : tensor<2x8x1000x80xbf16>) {causal = #attn.causal<bottom_right>} -> tensor<2x8x1000x80xbf16>, tensor<2x2x1000x80xbf16>, tensor<2x2x1000x80xbf16>
  return %o, %l, %dq, %dk, %dv : tensor<2x8x1000x80xbf16>, tensor<2x8x1000xf32>, tensor<2x8x1000x80xbf16>, tensor<2x2x1000x80xbf16>, tensor<2x2x1000x80xbf16>
}

func.func @t80_heavy(%q: tensor<2x8x1000x80xbf16>, %k: tensor<2x2x1000x80xbf16>, %v: tensor<2x2x1000x80xbf16>, %do: tensor<2x8x1000x80xbf16>, %m: tensor<2x1x1x1000xi1>) -> (tensor<2x8x1000x80xbf16>, tensor<2x8x1000xf32>, tensor<2x8x1000x80xbf16>, tensor<2x2x1000x80xbf16>, tensor<2x2x1000x80xbf16>) {
  %o, %l = attn.attention ins(%q, %k, %v : tensor<2x8x1000x80xbf16>, tensor<2x2x1000x80xbf16>, tensor<2x2x1000x80xbf16>) mask(%m : tensor<2x1x1x1000xi1>) {softcap = 30.0 : f32, window = array<i64: 100, 0>, causal = #attn.causal<bottom_right>} -> tensor<2x8x1000x80xbf16>, tensor<2x8x1000xf32>
  %dq, %dk, %dv = attn.attention_grad ins(%q, %k, %v : tensor<2x8x1000x80xbf16>, tensor<2x2x1000x80xbf16>, tensor<2x2x1000x80xbf16>) forward(%o, %l : tensor<2x8x1000x80xbf16>, tensor<2x8x1000xf32>) grad_output(%do : tensor<2x8x1000x80xbf16>) mask(%m : tensor<2x1x1x1000xi1>) {softcap = 30.0 : f32, window = array<i64: 100, 0>, causal = #attn.causal<bottom_right>} -> tensor<2x8x1000x80xbf16>, tensor<2x2x1000x80xbf16>, tensor<2x2x1000x80xbf16>
  return %o, %l, %dq, %dk, %dv : tensor<2x8x1000x80xbf16>, tensor<2x8x1000xf32>, tensor<2x8x1000x80xbf16>, tensor<2x2x1000x80xbf16>, tensor<2x2x1000x80xbf16>
}

func.func @t80_dropout(%q: tensor<2x8x1000x80xbf16>, %k: tensor<2x2x1000x80xbf16>, %v: tensor<2x2x1000x80xbf16>, %do: tensor<2x8x1000x80xbf16>, %seed: i64, %off: i64) -> (tensor<2x8x1000x80xbf16>, tensor<2x8x1000xf32>, tensor<2x8x1000x80xbf16>, tensor<2x2x1000x80xbf16>, tensor<2x2x1000x80xbf16>) {
  %o, %l = attn.attention ins(%q, %k, %v : tensor<2x8x1000x80xbf16>, tensor<2x2x1000x80xbf16>, tensor<2x2x1000x80xbf16>) rng(%seed, %off) {dropout_p = 0.1 : f32} -> tensor<2x8x1000x80xbf16>, tensor<2x8x1000xf32>
  %dq, %dk, %dv = attn.attention_grad ins(%q, %k, %v : tensor<2x8x1000x80xbf16>, tensor<2x2x1000x80xbf16>, tensor<2x2x1000x80xbf16>) forward(%o, %l : tensor<2x8x1000x80xbf16>, tensor<2x8x1000xf32>) grad_output(%do : tensor<2x8x1000x80xbf16>) rng(%seed, %off) {dropout_p = 0.1 : f32} -> tensor<2x8x1000x80xbf16>, tensor<2x2x1000x80xbf16>, tensor<2x2x1000x80xbf16>
  return %o, %l, %dq, %dk, %dv : tensor<2x8x1000x80xbf16>, tensor<2x8x1000xf32>, tensor<2x8x1000x80xbf16>, tensor<2x2x1000x80xbf16>, tensor<2x2x1000x80xbf16>
}

func.func @t80_det(%q: tensor<2x8x1000x80xbf16>, %k: tensor<2x2x1000x80xbf16>, %v: tensor<2x2x1000x80xbf16>, %do: tensor<2x8x1000x80xbf16>) -> (tensor<2x8x1000x80xbf16>, tensor<2x8x1000xf32>, tensor<2x8x1000x80xbf16>, tensor<2x2x1000x80xbf16>, tensor<2x2x1000x80xbf16>) {
  %o, %l = attn.attention ins(%q, %k, %v : tensor<2x8x1000x80xbf16>, tensor<2x2x1000x80xbf16>, tensor<2x2x1000x80xbf16>) -> tensor<2x8x1000x80xbf16>, tensor<2x8x1000xf32>
  %dq, %dk, %dv = attn.attention_grad ins(%q, %k, %v : tensor<2x8x1000x80xbf16>, tensor<2x2x1000x80xbf16>, tensor<2x2x1000x80xbf16>) forward(%o, %l : tensor<2x8x1000x80xbf16>, tensor<2x8x1000xf32>) grad_output(%do : tensor<2x8x1000x80xbf16>) {deterministic} -> tensor<2x8x1000x80xbf16>, tensor<2x2x1000x80xbf16>, tensor<2x2x1000x80xbf16>
  return %o, %l, %dq, %dk, %dv : tensor<2x8x1000x80xbf16>, tensor<2x8x1000xf32>, tensor<2x8x1000x80xbf16>, tensor<2x2x1000x80xbf16>, tensor<2x2x1000x80xbf16>
}

func.func @t96_causal(%q: tensor<2x8x1000x96xbf16>, %k: tensor<2x2x1000x96xbf16>, %v: tensor<2x2x1000x96xbf16>, %do: tensor<2x8x1000x96xbf16>) -> (tensor<2x8x1000x96xbf16>, tensor<2x8x1000xf32>, tensor<2x8x1000x96xbf16>, tensor<2x2x1000x96xbf16>, tensor<2x2x1000x96xbf16>) {
  %o, %l = attn.attention ins(%q, %k, %v : tensor<2x8x1000x96xbf16>, tensor<2x2x1000x96xbf16>, tensor<2x2x1000x96xbf16>) {causal = #attn.causal<bottom_right>} -> tensor<2x8x1000x96xbf16>, tensor<2x8x1000xf32>
  %dq, %dk, %dv = attn.attention_grad ins(%q, %k, %v : tensor<2x8x1000x96xbf16>, tensor<2x2x1000x96xbf16>, tensor<2x2x1000x96xbf16>) forward(%o, %l : tensor<2x8x1000x96xbf16>, tensor<2x8x1000xf32>) grad_output(%do : tensor<2x8x1000x96xbf16>) {causal = #attn.causal<bottom_right>} -> tensor<2x8x1000x96xbf16>, tensor<2x2x1000x96xbf16>, tensor<2x2x1000x96xbf16>
  return %o, %l, %dq, %dk, %dv : tensor<2x8x1000x96xbf16>, tensor<2x8x1000xf32>, tensor<2x8x1000x96xbf16>, tensor<2x2x1000x96xbf16>, tensor<2x2x1000x96xbf16>
}

func.func @t96_heavy(%q: tensor<2x8x1000x96xbf16>, %k: tensor<2x2x1000x96xbf16>, %v: tensor<2x2x1000x96xbf16>, %do: tensor<2x8x1000x96xbf16>, %m: tensor<2x1x1x1000xi1>) -> (tensor<2x8x1000x96xbf16>, tensor<2x8x1000xf32>, tensor<2x8x1000x96xbf16>, tensor<2x2x1000x96xbf16>, tensor<2x2x1000x96xbf16>) {
  %o, %l = attn.attention ins(%q, %k, %v : tensor<2x8x1000x96xbf16>, tensor<2x2x1000x96xbf16>, tensor<2x2x1000x96xbf16>) mask(%m : tensor<2x1x1x1000xi1>) {softcap = 30.0 : f32, window = array<i64: 100, 0>, causal = #attn.causal<bottom_right>} -> tensor<2x8x1000x96xbf16>, tensor<2x8x1000xf32>
  %dq, %dk, %dv = attn.attention_grad ins(%q, %k, %v : tensor<2x8x1000x96xbf16>, tensor<2x2x1000x96xbf16>, tensor<2x2x1000x96xbf16>) forward(%o, %l : tensor<2x8x1000x96xbf16>, tensor<2x8x1000xf32>) grad_output(%do : tensor<2x8x1000x96xbf16>) mask(%m : tensor<2x1x1x1000xi1>) {softcap = 30.0 : f32, window = array<i64: 100, 0>, causal = #attn.causal<bottom_right>} -> tensor<2x8x1000x96xbf16>, tensor<2x2x1000x96xbf16>, tensor<2x2x1000x96xbf16>
  return %o, %l, %dq, %dk, %dv : tensor<2x8x1000x96xbf16>, tensor<2x8x1000xf32>, tensor<2x8x1000x96xbf16>, tensor<2x2x1000x96xbf16>, tensor<2x2x1000x96xbf16>
}

func.func @t96_dropout(%q: tensor<2x8x1000x96xbf16>, %k: tensor<2x2x1000x96xbf16>, %v: tensor<2x2x1000x96xbf16>, %do: tensor<2x8x1000x96xbf16>, %seed: i64, %off: i64) -> (tensor<2x8x1000x96xbf16>, tensor<2x8x1000xf32>, tensor<2x8x1000x96xbf16>, tensor<2x2x1000x96xbf16>, tensor<2x2x1000x96xbf16>) {
  %o, %l = attn.attention ins(%q, %k, %v : tensor<2x8x1000x96xbf16>, tensor<2x2x1000x96xbf16>, tensor<2x2x1000x96xbf16>) rng(%seed, %off) {dropout_p = 0.1 : f32} -> tensor<2x8x1000x96xbf16>, tensor<2x8x1000xf32>
  %dq, %dk, %dv = attn.attention_grad ins(%q, %k, %v : tensor<2x8x1000x96xbf16>, tensor<2x2x1000x96xbf16>, tensor<2x2x1000x96xbf16>) forward(%o, %l : tensor<2x8x1000x96xbf16>, tensor<2x8x1000xf32>) grad_output(%do : tensor<2x8x1000x96xbf16>) rng(%seed, %off) {dropout_p = 0.1 : f32} -> tensor<2x8x1000x96xbf16>, tensor<2x2x1000x96xbf16>, tensor<2x2x1000x96xbf16>
  return %o, %l, %dq, %dk, %dv : tensor<2x8x1000x96xbf16>, tensor<2x8x1000xf32>, tensor<2x8x1000x96xbf16>, tensor<2x2x1000x96xbf16>, tensor<2x2x1000x96xbf16>
}

func.func @t96_det(%q: tensor<2x8x1000x96xbf16>, %k: tensor<2x2x1000x96xbf16>, %v: tensor<2x2x1000x96xbf16>, %do: tensor<2x8x1000x96xbf16>) -> (tensor<2x8x1000x96xbf16>, tensor<2x8x1000xf32>, tensor<2x8x1000x96xbf16>, tensor<2x2x1000x96xbf16>, tensor<2x2x1000x96xbf16>) {
  %o, %l = attn.attention ins(%q, %k, %v : tensor<2x8x1000x96xbf16>, tensor<2x2x1000x96xbf16>, tensor<2x2x1000x96xbf16>) -> tensor<2x8x1000x96xbf16>, tensor<2x8x1000xf32>
  %dq, %dk, %dv = attn.attention_grad ins(%q, %k, %v : tensor<2x8x1000x96xbf16>, tensor<2x2x1000x96xbf16>, tensor<2x2x1000x96xbf16>) forward(%o, %l : tensor<2x8x1000x96xbf16>, tensor<2x8x1000xf32>) grad_output(%do : tensor<2x8x1000x96xbf16>) {deterministic} -> tensor<2x8x1000x96xbf16>, tensor<2x2x1000x96xbf16>, tensor<2x2x1000x96xbf16>
  return %o, %l, %dq, %dk, %dv : tensor<2x8x1000x96xbf16>, tensor<2x8x1000xf32>, tensor<2x8x1000x96xbf16>, tensor<2x2x1000x96xbf16>, tensor<2x2x1000x96xbf16>
}

func.func @t104_causal(%q: tensor<2x8x1000x104xbf16>, %k: tensor<2x2x1000x104xbf16>, %v: tensor<2x2x1000x104xbf16>, %do: tensor<2x8x1000x104xbf16>) -> (tensor<2x8x1000x104xbf16>, tensor<2x8x1000xf32>, tensor<2x8x1000x104xbf16>, tensor<2x2x1000x104xbf16>, tensor<2x2x1000x104xbf16>) {
  %o, %l = attn.attention ins(%q, %k, %v : tensor<2x8x1000x104xbf16>, tensor<2x2x1000x104xbf16>, tensor<2x2x1000x104xbf16>) {causal = #attn.causal<bottom_right>} -> tensor<2x8x1000x104xbf16>, tensor<2x8x1000xf32>
  %dq, %dk, %dv = attn.attention_grad ins(%q, %k, %v : tensor<2x8x1000x104xbf16>, tensor<2x2x1000x104xbf16>, tensor<2x2x1000x104xbf16>) forward(%o, %l : tensor<2x8x1000x104xbf16>, tensor<2x8x1000xf32>) grad_output(%do : tensor<2x8x1000x104xbf16>) {causal = #attn.causal<bottom_right>} -> tensor<2x8x1000x104xbf16>, tensor<2x2x1000x104xbf16>, tensor<2x2x1000x104xbf16>
  return %o, %l, %dq, %dk, %dv : tensor<2x8x1000x104xbf16>, tensor<2x8x1000xf32>, tensor<2x8x1000x104xbf16>, tensor<2x2x1000x104xbf16>, tensor<2x2x1000x104xbf16>
}

func.func @t104_heavy(%q: tensor<2x8x1000x104xbf16>, %k: tensor<2x2x1000x104xbf16>, %v: tensor<2x2x1000x104xbf16>, %do: tensor<2x8x1000x104xbf16>, %m: tensor<2x1x1x1000xi1>) -> (tensor<2x8x1000x104xbf16>, tensor<2x8x1000xf32>, tensor<2x8x1000x104xbf16>, tensor<2x2x1000x104xbf16>, tensor<2x2x1000x104xbf16>) {
  %o, %l = attn.attention ins(%q, %k, %v : tensor<2x8x1000x104xbf16>, tensor<2x2x1000x104xbf16>, tensor<2x2x1000x104xbf16>) mask(%m : tensor<2x1x1x1000xi1>) {softcap = 30.0 : f32, window = array<i64: 100, 0>, causal = #attn.causal<bottom_right>} -> tensor<2x8x1000x104xbf16>, tensor<2x8x1000xf32>
  %dq, %dk, %dv = attn.attention_grad ins(%q, %k, %v : tensor<2x8x1000x104xbf16>, tensor<2x2x1000x104xbf16>, tensor<2x2x1000x104xbf16>) forward(%o, %l : tensor<2x8x1000x104xbf16>, tensor<2x8x1000xf32>) grad_output(%do : tensor<2x8x1000x104xbf16>) mask(%m : tensor<2x1x1x1000xi1>) {softcap = 30.0 : f32, window = array<i64: 100, 0>, causal = #attn.causal<bottom_right>} -> tensor<2x8x1000x104xbf16>, tensor<2x2x1000x104xbf16>, tensor<2x2x1000x104xbf16>
  return %o, %l, %dq, %dk, %dv : tensor<2x8x1000x104xbf16>, tensor<2x8x1000xf32>, tensor<2x8x1000x104xbf16>, tensor<2x2x1000x104xbf16>, tensor<2x2x1000x104xbf16>
}

func.func @t104_dropout(%q: tensor<2x8x1000x104xbf16>, %k: tensor<2x2x1000x104xbf16>, %v: tensor<2x2x1000x104xbf16>, %do: tensor<2x8x1000x104xbf16>, %seed: i64, %off: i64) -> (tensor<2x8x1000x104xbf16>, tensor<2x8x1000xf32>, tensor<2x8x1000x104xbf16>, tensor<2x2x1000x104xbf16>, tensor<2x2x1000x104xbf16>) {
  %o, %l = attn.attention ins(%q, %k, %v : tensor<2x8x1000x104xbf16>, tensor<2x2x1000x104xbf16>, tensor<2x2x1000x104xbf16>) rng(%seed, %off) {dropout_p = 0.1 : f32} -> tensor<2x8x1000x104xbf16>, tensor<2x8x1000xf32>
  %dq, %dk, %dv = attn.attention_grad ins(%q, %k, %v : tensor<2x8x1000x104xbf16>, tensor<2x2x1000x104xbf16>, tensor<2x2x1000x104xbf16>) forward(%o, %l : tensor<2x8x1000x104xbf16>, tensor<2x8x1000xf32>) grad_output(%do : tensor<2x8x1000x104xbf16>) rng(%seed, %off) {dropout_p = 0.1 : f32} -> tensor<2x8x1000x104xbf16>, tensor<2x2x1000x104xbf16>, tensor<2x2x1000x104xbf16>
  return %o, %l, %dq, %dk, %dv : tensor<2x8x1000x104xbf16>, tensor<2x8x1000xf32>, tensor<2x8x1000x104xbf16>, tensor<2x2x1000x104xbf16>, tensor<2x2x1000x104xbf16>
}

func.func @t104_det(%q: tensor<2x8x1000x104xbf16>, %k: tensor<2x2x1000x104xbf16>, %v: tensor<2x2x1000x104xbf16>, %do: tensor<2x8x1000x104xbf16>) -> (tensor<2x8x1000x104xbf16>, tensor<2x8x1000xf32>, tensor<2x8x1000x104xbf16>, tensor<2x2x1000x104xbf16>, tensor<2x2x1000x104xbf16>) {
  %o, %l = attn.attention ins(%q, %k, %v : tensor<2x8x1000x104xbf16>, tensor<2x2x1000x104xbf16>, tensor<2x2x1000x104xbf16>) -> tensor<2x8x1000x104xbf16>, tensor<2x8x1000xf32>
  %dq, %dk, %dv = attn.attention_grad ins(%q, %k, %v : tensor<2x8x1000x104xbf16>, tensor<2x2x1000x104xbf16>, tensor<2x2x1000x104xbf16>) forward(%o, %l : tensor<2x8x1000x104xbf16>, tensor<2x8x1000xf32>) grad_output(%do : tensor<2x8x1000x104xbf16>) {deterministic} -> tensor<2x8x1000x104xbf16>, tensor<2x2x1000x104xbf16>, tensor<2x2x1000x104xbf16>
  return %o, %l, %dq, %dk, %dv : tensor<2x8x1000x104xbf16>, tensor<2x8x1000xf32>, tensor<2x8x1000x104xbf16>, tensor<2x2x1000x104xbf16>, tensor<2x2x1000x104xbf16>
}

func.func @t112_causal(%q: tensor<2x8x1000x112xbf16>, %k: tensor<2x2x1000x112xbf16>, %v: tensor<2x2x1000x112xbf16>, %do: tensor<2x8x1000x112xbf16>) -> (tensor<2x8x1000x112xbf16>, tensor<2x8x1000xf32>, tensor<2x8x1000x112xbf16>, tensor<2x2x1000x112xbf16>, tensor<2x2x1000x112xbf16>) {
  %o, %l = attn.attention ins(%q, %k, %v : tensor<2x8x1000x112xbf16>, tensor<2x2x1000x112xbf16>, tensor<2x2x1000x112xbf16>) {causal = #attn.causal<bottom_right>} -> tensor<2x8x1000x112xbf16>, tensor<2x8x1000xf32>
  %dq, %dk, %dv = attn.attention_grad ins(%q, %k, %v : tensor<2x8x1000x112xbf16>, tensor<2x2x1000x112xbf16>, tensor<2x2x1000x112xbf16>) forward(%o, %l : tensor<2x8x1000x112xbf16>, tensor<2x8x1000xf32>) grad_output(%do : tensor<2x8x1000x112xbf16>) {causal = #attn.causal<bottom_right>} -> tensor<2x8x1000x112xbf16>, tensor<2x2x1000x112xbf16>, tensor<2x2x1000x112xbf16>
  return %o, %l, %dq, %dk, %dv : tensor<2x8x1000x112xbf16>, tensor<2x8x1000xf32>, tensor<2x8x1000x112xbf16>, tensor<2x2x1000x112xbf16>, tensor<2x2x1000x112xbf16>
}

func.func @t112_heavy(%q: tensor<2x8x1000x112xbf16>, %k: tensor<2x2x1000x112xbf16>, %v: tensor<2x2x1000x112xbf16>, %do: tensor<2x8x1000x112xbf16>, %m: tensor<2x1x1x1000xi1>) -> (tensor<2x8x1000x112xbf16>, tensor<2x8x1000xf32>, tensor<2x8x1000x112xbf16>, tensor<2x2x1000x112xbf16>, tensor<2x2x1000x112xbf16>) {
  %o, %l = attn.attention ins(%q, %k, %v : tensor<2x8x1000x112xbf16>, tensor<2x2x1000x112xbf16>, tensor<2x2x1000x112xbf16>) mask(%m : tensor<2x1x1x1000xi1>) {softcap = 30.0 : f32, window = array<i64: 100, 0>, causal = #attn.causal<bottom_right>} -> tensor<2x8x1000x112xbf16>, tensor<2x8x1000xf32>
  %dq, %dk, %dv = attn.attention_grad ins(%q, %k, %v : tensor<2x8x1000x112xbf16>, tensor<2x2x1000x112xbf16>, tensor<2x2x1000x112xbf16>) forward(%o, %l : tensor<2x8x1000x112xbf16>, tensor<2x8x1000xf32>) grad_output(%do : tensor<2x8x1000x112xbf16>) mask(%m : tensor<2x1x1x1000xi1>) {softcap = 30.0 : f32, window = array<i64: 100, 0>, causal = #attn.causal<bottom_right>} -> tensor<2x8x1000x112xbf16>, tensor<2x2x1000x112xbf16>, tensor<2x2x1000x112xbf16>
  return %o, %l, %dq, %dk, %dv : tensor<2x8x1000x112xbf16>, tensor<2x8x1000xf32>, tensor<2x8x1000x112xbf16>, tensor<2x2x1000x112xbf16>, tensor<2x2x1000x112xbf16>
}

func.func @t112_dropout(%q: tensor<2x8x1000x112xbf16>, %k: tensor<2x2x1000x112xbf16>, %v: tensor<2x2x1000x112xbf16>, %do: tensor<2x8x1000x112xbf16>, %seed: i64, %off: i64) -> (tensor<2x8x1000x112xbf16>, tensor<2x8x1000xf32>, tensor<2x8x1000x112xbf16>, tensor<2x2x1000x112xbf16>, tensor<2x2x1000x112xbf16>) {
  %o, %l = attn.attention ins(%q, %k, %v : tensor<2x8x1000x112xbf16>, tensor<2x2x1000x112xbf16>, tensor<2x2x1000x112xbf16>) rng(%seed, %off) {dropout_p = 0.1 : f32} -> tensor<2x8x1000x112xbf16>, tensor<2x8x1000xf32>
  %dq, %dk, %dv = attn.attention_grad ins(%q, %k, %v : tensor<2x8x1000x112xbf16>, tensor<2x2x1000x112xbf16>, tensor<2x2x1000x112xbf16>) forward(%o, %l : tensor<2x8x1000x112xbf16>, tensor<2x8x1000xf32>) grad_output(%do : tensor<2x8x1000x112xbf16>) rng(%seed, %off) {dropout_p = 0.1 : f32} -> tensor<2x8x1000x112xbf16>, tensor<2x2x1000x112xbf16>, tensor<2x2x1000x112xbf16>
  return %o, %l, %dq, %dk, %dv : tensor<2x8x1000x112xbf16>, tensor<2x8x1000xf32>, tensor<2x8x1000x112xbf16>, tensor<2x2x1000x112xbf16>, tensor<2x2x1000x112xbf16>
}

func.func @t112_det(%q: tensor<2x8x1000x112xbf16>, %k: tensor<2x2x1000x112xbf16>, %v: tensor<2x2x1000x112xbf16>, %do: tensor<2x8x1000x112xbf16>) -> (tensor<2x8x1000x112xbf16>, tensor<2x8x1000xf32>, tensor<2x8x1000x112xbf16>, tensor<2x2x1000x112xbf16>, tensor<2x2x1000x112xbf16>) {
  %o, %l = attn.attention ins(%q, %k, %v : tensor<2x8x1000x112xbf16>, tensor<2x2x1000x112xbf16>, tensor<2x2x1000x112xbf16>) -> tensor<2x8x1000x112xbf16>, tensor<2x8x1000xf32>
  %dq, %dk, %dv = attn.attention_grad ins(%q, %k, %v : tensor<2x8x1000x112xbf16>, tensor<2x2x1000x112xbf16>, tensor<2x2x1000x112xbf16>) forward(%o, %l : tensor<2x8x1000x112xbf16>, tensor<2x8x1000xf32>) grad_output(%do : tensor<2x8x1000x112xbf16>) {deterministic} -> tensor<2x8x1000x112xbf16>, tensor<2x2x1000x112xbf16>, tensor<2x2x1000x112xbf16>
  return %o, %l, %dq, %dk, %dv : tensor<2x8x1000x112xbf16>, tensor<2x8x1000xf32>, tensor<2x8x1000x112xbf16>, tensor<2x2x1000x112xbf16>, tensor<2x2x1000x112xbf16>
}
