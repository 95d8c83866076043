// What attn-compile writes, the runtime accepts: the manifests of a forward
// kernel (mma.sync, wgmma, CUDA-core) and of a backward group go through
// kernels-runtime's manifest parser (attn-manifest-check: attn-run's checks
// before it touches the driver; no GPU needed). The manifest's informational
// "codegen" object records the kernel family, matrix instruction and tiling.
// RUN: attn-compile %s --chip=sm_90a --mma=mma-sync -o %t.ptx
// RUN: attn-manifest-check %t.json | FileCheck %s
// RUN: FileCheck %s --check-prefix=CODEGEN < %t.json
// RUN: attn-compile %s --chip=sm_90a -o %t.wgmma.ptx
// RUN: attn-manifest-check %t.wgmma.json | FileCheck %s
// RUN: FileCheck %s --check-prefix=WGMMA < %t.wgmma.json
// RUN: attn-compile %s --chip=sm_80 --kernel=cuda-core -o %t.cuda.ptx
// RUN: attn-manifest-check %t.cuda.json | FileCheck %s
// RUN: FileCheck %s --check-prefix=CUDA < %t.cuda.json
// RUN: rm %t.cuda.ptx
// RUN: not attn-manifest-check %t.cuda.json 2>&1 | FileCheck %s --check-prefix=NOPTX
// The manifest never overwrites the PTX, nor goes to a file named after
// stdout; a manifest whose "ptx" names a JSON file is refused.
// RUN: not attn-compile %s --chip=sm_80 -o %t.same.json 2>&1 | FileCheck %s --check-prefix=SAME
// RUN: not attn-compile %s --chip=sm_80 -o %t.x.ptx --manifest=%t.x.ptx 2>&1 | FileCheck %s --check-prefix=SAME
// RUN: not attn-compile %s --chip=sm_80 -o - 2>&1 | FileCheck %s --check-prefix=STDOUT
// RUN: not attn-compile %s --chip=sm_80 -o - --manifest=%t.stdout.json 2>&1 | FileCheck %s --check-prefix=STDOUT
// A manifest in another directory names the PTX by its absolute path.
// RUN: rm -rf %t.elsewhere && mkdir -p %t.elsewhere
// RUN: attn-compile %s --chip=sm_80 --kernel=cuda-core -o %t.k.ptx --manifest=%t.elsewhere/k.json
// RUN: attn-manifest-check %t.elsewhere/k.json | FileCheck %s --check-prefix=ELSEWHERE
// RUN: FileCheck %s --check-prefix=ELSEWHERE-PTX < %t.elsewhere/k.json
// RUN: attn-compile %s --chip=sm_80 --kernel=cuda-core -o %t.j.ptx
// RUN: cp %t.j.json %t.j.ptx
// RUN: not attn-manifest-check %t.j.json 2>&1 | FileCheck %s --check-prefix=JSONPTX

// CHECK: .json: valid, {{[34]}} kernels for {{sm_90a|sm_80}}, PTX {{.*}}.ptx

// Forward on sm_90a with --mma=mma-sync: the mma.sync tensor-core kernel,
// Br = 128, 4 warps;
// the backward group: prep (no matrix products), dkdv_dq on wgmma with 128
// keys per block (8 warps), dq_convert; keys sorted by llvm::json.
// CODEGEN-LABEL: "codegen": {
// CODEGEN-NEXT: "block_kv": 64,
// CODEGEN-NEXT: "block_q": 128,
// CODEGEN-NEXT: "kernel": "tensor-core",
// CODEGEN-NEXT: "mma": "mma.sync",
// CODEGEN-NEXT: "threads": 128
// CODEGEN: "name": "attn_fwd_0"
// CODEGEN: "mma": "none",
// CODEGEN: "name": "attn_bwd_prep_0"
// CODEGEN: "mma": "wgmma",
// CODEGEN: "name": "attn_bwd_dkdv_dq_0"
// CODEGEN: "mma": "none",
// CODEGEN: "name": "attn_bwd_dq_convert_0"

// By default (--mma=auto, --tma=auto) on sm_90a: the wgmma kernel, two
// consumer warpgroups after the producer warpgroup, which loads with TMA
// (the tensor maps are the last parameters).
// WGMMA-LABEL: "codegen": {
// WGMMA-NEXT: "block_kv": 128,
// WGMMA-NEXT: "block_q": 128,
// WGMMA-NEXT: "kernel": "tensor-core",
// WGMMA-NEXT: "loads": "tma",
// WGMMA-NEXT: "mma": "wgmma",
// WGMMA-NEXT: "threads": 384
// WGMMA: "name": "attn_fwd_0"

// CUDA: "kernel": "cuda-core",
// CUDA-NEXT: "mma": "none",
// CUDA: "name": "attn_fwd_0"

// SAME: attn-compile: the manifest and the PTX would both be written to {{.*}}: name the PTX differently (-o out.ptx) or give --manifest=FILE
// STDOUT: attn-compile: -o - would write the PTX to stdout, but the manifest must name the PTX file it describes: give -o FILE.ptx
// ELSEWHERE: k.json: valid, {{[0-9]+}} kernels for sm_80
// ELSEWHERE-PTX: "ptx": "/{{.*}}.k.ptx"
// JSONPTX: attn-manifest-check: {{.*}}.j.json: the PTX file "{{.*}}.j.ptx" it names is a JSON document, not PTX
// NOPTX: attn-manifest-check: {{.*}}.json: the PTX file "{{.*}}.cuda.ptx" it names cannot be read

func.func @step(%q: tensor<2x4x256x64xbf16>, %k: tensor<2x2x256x64xbf16>, %v: tensor<2x2x256x64xbf16>, %do: tensor<2x4x256x64xbf16>) -> (tensor<2x4x256x64xbf16>, tensor<2x4x256x64xbf16>, tensor<2x2x256x64xbf16>, tensor<2x2x256x64xbf16>) {
  %o, %lse = attn.attention ins(%q, %k, %v : tensor<2x4x256x64xbf16>, tensor<2x2x256x64xbf16>, tensor<2x2x256x64xbf16>) {causal = #attn.causal<top_left>} -> tensor<2x4x256x64xbf16>, tensor<2x4x256xf32>
  %dq, %dk, %dv = attn.attention_grad ins(%q, %k, %v : tensor<2x4x256x64xbf16>, tensor<2x2x256x64xbf16>, tensor<2x2x256x64xbf16>) forward(%o, %lse : tensor<2x4x256x64xbf16>, tensor<2x4x256xf32>) grad_output(%do : tensor<2x4x256x64xbf16>) {causal = #attn.causal<top_left>} -> tensor<2x4x256x64xbf16>, tensor<2x2x256x64xbf16>, tensor<2x2x256x64xbf16>
  return %o, %dq, %dk, %dv : tensor<2x4x256x64xbf16>, tensor<2x4x256x64xbf16>, tensor<2x2x256x64xbf16>, tensor<2x2x256x64xbf16>
}
