// RUN: attention-opt %s --attn-select-tiles="chip=sm_80 report" -o /dev/null 2>&1 | FileCheck %s --check-prefix=SM80
// RUN: attention-opt %s --attn-select-tiles="chip=sm_90a report" 2>/dev/null | FileCheck %s --check-prefix=ATTR
// RUN: attention-opt %s --attn-select-tiles="chip=sm_90a report" -o /dev/null 2>&1 | FileCheck %s --check-prefix=SM90
// RUN: not attention-opt %s --attn-select-tiles="chip=sm_75" -o /dev/null 2>&1 | FileCheck %s --check-prefix=BADCHIP

// BADCHIP: unknown chip 'sm_75'

// Worked by hand (docs/io-model.md has the formulas):
// @mha_1k, sm_80, bf16, B=H=1, L=1024, D=Dv=64:
//   M = 163 KiB / 2 B = 83456 elements; rule Bc = ceil(83456 / (4*64)) = 326,
//   Br = min(326, 64) = 64. Refined: Br = 64 (4 warps x m16), Bc = 128 (cap);
//   registers ceil(64 * (64 + 128) / 128) + 32 = 128 <= 255.
//   Q tile 64*64*2 = 8192 B, one K+V stage 128*128*2 = 32768 B: 4 fit, sm_80
//   prefers 2 -> 8192 + 2*32768 = 73728 B.
//   naive bytes = (4 * 1024*64) * 2 + 4 * 1024*1024 * 2 = 8912896
//   tiled bytes = Q + O (2 * 1024*64*2) + 16 query blocks x 8 key blocks x
//                 128*(64+64)*2 = 262144 + 4194304 = 4456448
//   FLOPs = 2 * 1024*1024 * (64+64) = 268435456; intensity 30.1 and 60.2.
// SM80: remark: attn-select-tiles sm_80: block_q=64 block_kv=128 stages=2 warps=4 (FlashAttention rule: Br=64 Bc=326); shared memory 73728 B of 166912, ~128 registers/thread
// SM80-NEXT: HBM bytes: naive 8912896, tiled 4456448 (2.00x less)
// SM80-NEXT: FLOPs: dense 268435456, executed 268435456 (128 of 128 blocks per head)
// SM80-NEXT: arithmetic intensity: naive 30.1, tiled 60.2 FLOP/byte
// ATTR-LABEL: func @mha_1k
// ATTR: attn.tiles = #attn.tiles<block_q = 64, block_kv = 128, stages = 3, warps = 4>
func.func @mha_1k(%q: tensor<1x1x1024x64xbf16>, %k: tensor<1x1x1024x64xbf16>, %v: tensor<1x1x1024x64xbf16>) -> tensor<1x1x1024x64xbf16> {
  %o = attn.attention ins(%q, %k, %v : tensor<1x1x1024x64xbf16>, tensor<1x1x1024x64xbf16>, tensor<1x1x1024x64xbf16>) -> tensor<1x1x1024x64xbf16>
  return %o : tensor<1x1x1024x64xbf16>
}

// @causal_4k, sm_90a, bf16, B=2, H=16, L=4096, D=Dv=128, top-left causal, lse:
//   M = 227 KiB / 2 B = 116224; rule Bc = 116224 / 512 = 227, Br = 128.
//   Bc = 128 needs ceil(128*256/128) + 32 = 288 registers > 255, so Bc = 64
//   (224 registers). Q tile 32768 B, K+V stage 64*256*2 = 32768 B: 6 fit,
//   sm_90 prefers 3 -> 32768 + 3*32768 = 131072 B.
//   Query block qb visits key blocks 0 .. 2qb+1: sum_{qb<32} (2qb+2) = 1056
//   of 32*64 = 2048 blocks.
//   naive = 32 pairs x [(2 * 4096*128 * 2) * 2 + 4 * 4096^2 * 2 + 4*4096 (lse)]
//         = 32 x 138428416 = 4429709312
//   tiled = 32 x [4096*256*2 (Q+O) + 16384 (lse) + 1056 * 64*256*2]
//         = 32 x 36716544 = 1174929408
//   dense FLOPs = 32 x 2*4096^2*256 = 274877906944;
//   executed = 32 x 1056 * 128*64 * 2*256 = 141733920768.
// SM90: remark: attn-select-tiles sm_90a: block_q=128 block_kv=64 stages=3 warps=4 (FlashAttention rule: Br=128 Bc=227); shared memory 131072 B of 232448, ~224 registers/thread
// SM90-NEXT: HBM bytes: naive 4429709312, tiled 1174929408 (3.77x less)
// SM90-NEXT: FLOPs: dense 274877906944, executed 141733920768 (1056 of 2048 blocks per head)
// SM90-NEXT: arithmetic intensity: naive 62.1, tiled 120.6 FLOP/byte
// ATTR-LABEL: func @causal_4k
// ATTR: attn.tiles = #attn.tiles<block_q = 128, block_kv = 64, stages = 3, warps = 4>
func.func @causal_4k(%q: tensor<2x16x4096x128xbf16>, %k: tensor<2x16x4096x128xbf16>, %v: tensor<2x16x4096x128xbf16>) -> (tensor<2x16x4096x128xbf16>, tensor<2x16x4096xf32>) {
  %o, %l = attn.attention ins(%q, %k, %v : tensor<2x16x4096x128xbf16>, tensor<2x16x4096x128xbf16>, tensor<2x16x4096x128xbf16>) {causal = #attn.causal<top_left>} -> tensor<2x16x4096x128xbf16>, tensor<2x16x4096xf32>
  return %o, %l : tensor<2x16x4096x128xbf16>, tensor<2x16x4096xf32>
}

// @decode, sm_90a, f16, B=8, Hq=32 over Hkv=8, Lq=1, Lk=8192, D=Dv=128:
//   Br shrinks to 16 (one warp) for a single query; Bc = 128 now fits the
//   registers (ceil(16*256/32) + 32 = 160). Q tile 4096 B, stage 65536 B:
//   3 fit -> 4096 + 3*65536 = 200704 B.
//   naive = 256 x [(128 + 8192*128*2 + 128) * 2 + 4 * 8192 * 2] = 1090650112
//   tiled = 256 x [256*2 + 64 * 128*256*2] = 1073872896: decoding is
//   bandwidth-bound either way (about 1 FLOP per byte).
// SM90: remark: attn-select-tiles sm_90a: block_q=16 block_kv=128 stages=3 warps=1 (FlashAttention rule: Br=128 Bc=227); shared memory 200704 B of 232448, ~160 registers/thread
// SM90-NEXT: HBM bytes: naive 1090650112, tiled 1073872896 (1.02x less)
// SM90-NEXT: FLOPs: dense 1073741824, executed 1073741824 (64 of 64 blocks per head)
// SM90-NEXT: arithmetic intensity: naive 1.0, tiled 1.0 FLOP/byte
func.func @decode(%q: tensor<8x32x1x128xf16>, %k: tensor<8x8x8192x128xf16>, %v: tensor<8x8x8192x128xf16>) -> tensor<8x32x1x128xf16> {
  %o = attn.attention ins(%q, %k, %v : tensor<8x32x1x128xf16>, tensor<8x8x8192x128xf16>, tensor<8x8x8192x128xf16>) {causal = #attn.causal<bottom_right>} -> tensor<8x32x1x128xf16>
  return %o : tensor<8x32x1x128xf16>
}

// @mha_1k with an explicit dropout keep mask, sm_90a: the mask is read like
// an i1 mask (e_mask = 1):
//   naive = 8912896 + 1024*1024 = 9961472
//   tiled = 4456448 + 16 x 8 x 64*128 = 5505024
// SM90: remark: attn-select-tiles sm_90a: block_q=64 block_kv=128
// SM90-NEXT: HBM bytes: naive 9961472, tiled 5505024 (1.81x less)
func.func @mha_1k_dropout_mask(%q: tensor<1x1x1024x64xbf16>, %k: tensor<1x1x1024x64xbf16>, %v: tensor<1x1x1024x64xbf16>, %keep: tensor<1x1x1024x1024xi1>) -> tensor<1x1x1024x64xbf16> {
  %o = attn.attention ins(%q, %k, %v : tensor<1x1x1024x64xbf16>, tensor<1x1x1024x64xbf16>, tensor<1x1x1024x64xbf16>) dropout_mask(%keep : tensor<1x1x1024x1024xi1>) {dropout_p = 0.1 : f32} -> tensor<1x1x1024x64xbf16>
  return %o : tensor<1x1x1024x64xbf16>
}
