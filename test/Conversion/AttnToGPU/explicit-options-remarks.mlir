// An option the user gave explicitly that the kernel choice does not follow
// is said in a remark (the op still compiles): --mma=wgmma where the rule
// keeps mma.sync, --split-kv=N on a packed batch (no split-KV group), and
// --tma=on where the split_kv stage keeps cp.async (16 query heads of 5
// tokens per KV head: 80 packed rows, no whole TMA boxes).
// Under the defaults (auto) the same choices are silent. (--split-kv=4 puts
// the dense op into the split-KV group.)
// RUN: attn-compile %s --chip=sm_90a --mma=wgmma --emit=gpu -o %t.mlir 2>&1 | FileCheck %s --check-prefix=WGMMA
// RUN: attn-compile %s --chip=sm_90a --split-kv=4 --emit=gpu -o %t.split.mlir 2>&1 | FileCheck %s --check-prefix=SPLIT
// RUN: attn-compile %s --chip=sm_90a --tma=on --emit=gpu -o %t.tma.mlir 2>&1 | FileCheck %s --check-prefix=TMA
// RUN: attn-compile %s --chip=sm_90a --emit=gpu -o %t.auto.mlir 2>&1 | FileCheck %s --allow-empty --check-prefix=AUTO

// WGMMA: remark: GPU code generation: --mma=wgmma not taken, the mma.sync kernel instead: D = 40 and Dv = 72 are padded to 64-column panels, which does not pay at this key length
// SPLIT: remark: GPU code generation: --split-kv=4 does not apply to a packed batch (no split-KV group for attn.varlen_attention): one kernel
// TMA: remark: GPU code generation: --tma=on not taken in the split_kv stage, cp.async instead: its 64 packed query rows are not whole boxes
// AUTO-NOT: remark

func.func @f(%q: tensor<1x4x65x40xbf16>, %k: tensor<1x2x63x40xbf16>, %v: tensor<1x2x63x72xbf16>) -> (tensor<1x4x65x72xbf16>, tensor<1x4x65xf32>) {
  %o, %l = attn.attention ins(%q, %k, %v : tensor<1x4x65x40xbf16>, tensor<1x2x63x40xbf16>, tensor<1x2x63x72xbf16>) {causal = #attn.causal<bottom_right>} -> tensor<1x4x65x72xbf16>, tensor<1x4x65xf32>
  return %o, %l : tensor<1x4x65x72xbf16>, tensor<1x4x65xf32>
}

func.func @v(%q: tensor<22x4x64xbf16>, %k: tensor<29x2x64xbf16>, %v: tensor<29x2x64xbf16>) -> (tensor<22x4x64xbf16>, tensor<4x22xf32>) {
  %cq = arith.constant dense<[0, 5, 5, 22]> : tensor<4xi32>
  %ck = arith.constant dense<[0, 9, 12, 29]> : tensor<4xi32>
  %o, %l = attn.varlen_attention ins(%q, %k, %v : tensor<22x4x64xbf16>, tensor<29x2x64xbf16>, tensor<29x2x64xbf16>) seqlens(%cq, %ck : tensor<4xi32>, tensor<4xi32>) {causal = #attn.causal<top_left>} -> tensor<22x4x64xbf16>, tensor<4x22xf32>
  return %o, %l : tensor<22x4x64xbf16>, tensor<4x22xf32>
}

func.func @decode(%q: tensor<1x16x5x128xf16>, %k: tensor<1x1x129x128xf16>, %v: tensor<1x1x129x128xf16>) -> (tensor<1x16x5x128xf16>, tensor<1x16x5xf32>) {
  %o, %l = attn.attention ins(%q, %k, %v : tensor<1x16x5x128xf16>, tensor<1x1x129x128xf16>, tensor<1x1x129x128xf16>) {causal = #attn.causal<bottom_right>} -> tensor<1x16x5x128xf16>, tensor<1x16x5xf32>
  return %o, %l : tensor<1x16x5x128xf16>, tensor<1x16x5xf32>
}
