//===- TensorCoreGradKernelBuilder.cpp - mma.sync attention backward ------===//
//
// The tensor-core mapping of attn.attention_grad (FlashAttention-2's backward
// with recomputation), f16/bf16 with D and Dv multiples of 8 up to 256, as an
// ordered group of kernels sharing f32 workspaces (docs/kernel-manifest.md,
// "Backward kernels"): prep, dkdv, dq without atomics (sm_80,
// `deterministic`, decoding, --grad-dq=separate, head dims other than
// D = Dv = 64 or 128); prep, dkdv_dq, dq_convert with the atomic dQ (the
// default on sm_90: GradDqMode::Auto).
//
// Head dims: the mma.sync tiles hold D and Dv rounded up to the k-step of 16
// (tcgrad::tileDim; the copies zero-fill the padding columns, which are
// never stored), Q and K in rows of tileDimQK, V and dO in rows of tileDimV.
// One warp of the dkdv kernel holds 16 keys x (D + Dv) f32 accumulators,
// (D + Dv) / 2 registers per thread; past padded D + Dv = 256 that does not
// fit beside the products, and the kernel runs two blocks per key block
// (tcgrad::keyBlockParts): the even one computes Sᵀ, Pᵀ and dV, the odd one
// Sᵀ, Pᵀ, dPᵀ, dSᵀ and dK (one more product per block pair than the fused
// kernel, half the accumulators each). The warp-specialized wgmma kernel
// splits the head dims between its two consumer warpgroups instead
// (KernelSpec::headSplit, TensorCoreGradKeyBlockHeadSplit.cpp): no product
// recomputed.
//
// The key-block kernels take keyBlock = 64 or 128 keys (spec.blockKV; 128 by
// default with the atomic dQ, 64 without), one warp per 16 keys; the
// description below is written for 64 (4 warps).
//
// prep: grid = (ceil(Lq / 64), Hq, B): row_dot = D_i = dO_i · O_i and
//   lse_log2 = lse_i·log2(e) per query row (0 and +inf for rows past Lq,
//   +inf where lse = -inf, so that P = 0 there), padded to whole 64-row
//   blocks; zeroes dq_accum in the atomic group.
// dkdv: grid = (ceil(Lk / 64), Hkv, B), 4 warps; warp w owns keys
//   [16w, 16w + 16) of the block's 64. Everything is computed transposed,
//   with keys as the M dimension, so that Pᵀ and dSᵀ leave mma.sync as C
//   fragments that are directly the A operands of the next products (no
//   trip through shared memory):
//     shared (dynamic): K [64][D+8], V [64][D+8] (loaded once),
//                       Q [2][64][D+8], dO [2][64][D+8], lse·log2(e)
//                       [2][64], D [2][64] (double-buffered, cp.async)
//     for each query head h of the kv head's group, for each query block
//     that can see the key block (emitVisibleQueryBlocks), flattened into
//     one loop with the next (h, block) prefetched:
//       Sᵀ  = K Qᵀ                (A: K rows, B: Q non-transposed)
//       Pᵀ  = exp2(Sᵀ·scale·log2 e - lse·log2 e), score modifiers at global
//             (query, key); dropout at (b, h, query, key)
//       dV += Pdᵀ dO              (A: Pdᵀ from C, B: dO via ldmatrix.trans)
//       dPᵀ = V dOᵀ              (A: V rows, B: dO non-transposed)
//       dSᵀ = Pᵀ (dPᵀ·keep/(1-p) - D) (·softcap')
//       dK += dSᵀ Q               (A: dSᵀ from C, B: Q via ldmatrix.trans)
//     dK *= scale; keys past Lk are computed on zero-filled rows with P = 0
//     (the ragged last key block takes the masked path) and never stored.
// dkdv_dq: dkdv, and per step dSᵀ also goes to shared memory
//   [keyBlock][64+8]; after a barrier warp w computes dS K for query rows
//   32 (w % 2) .. + 32 and D / (warps / 2) columns (A: dS via
//   ldmatrix.trans of the [key][query] tile, B: K via ldmatrix.trans) and
//   adds it to dq_accum with red.global.add (v4 on sm_90 after a pair swap
//   between lanes t4 and t4 ^ 1).
// dq: grid = (ceil(Lq / 64), Hq, B), 4 warps (128 query rows and 8 warps
//   for the split head dims where they fit, tcgrad::dqRows); warp w owns
//   query rows [16w, 16w + 16), like the forward kernel:
//     shared: Q [64][D+8], dO [64][D+8], K [2][64][D+8], V [2][64][D+8]
//     D_i and lse_i·log2(e) of the thread's two rows in registers
//     for each visible key block (emitVisibleKeyBlocks), K/V prefetched:
//       S = Q Kᵀ, P = exp2(...), dP = dO Vᵀ (B: V non-transposed),
//       dS = P (dP·keep/(1-p) - D) (·softcap'), dQ += dS K (B: K via
//       ldmatrix.trans)
//     dQ *= scale.
// dq_convert: grad_query = dq_accum · scale in the element type.
//
// The default group has no atomics: dQ is not accumulated across key blocks
// by several CTAs (the dq kernel recomputes S, P and dP instead), so every
// gradient is bit-identical from run to run whatever `deterministic` says,
// at the cost of 7 instead of FlashAttention-2's 5 matrix products per
// (query block, key block) pair. With 64-key blocks the atomic group's
// reductions cost about as much as those two products (docs/performance.md).
//
// On sm_90a (KernelSpec::warpgroupMma, GradMma) the key-block kernels are
// emitted by emitKeyBlocksWarpgroup instead: the same steps with wgmma, one
// warpgroup per 64 keys, K, V, Q and dO in 128-byte swizzled tiles and dSᵀ
// in the core-matrix layout (MmaEmitterBase.h), read by the tensor cores
// through matrix descriptors; Pdᵀ and dSᵀ still feed dV and dK from registers,
// and warp w still owns keys [16w, 16w + 16), so the C-fragment code
// (TensorCoreGradScores.cpp, TensorCoreGradFragments.cpp) is shared. It
// takes D and Dv multiples of 8 up to 256 (tcgrad::hasWarpgroupKeyBlock):
// tiles padded to whole 64-column panels, products over the real k-steps
// (D rounded up to 16: an odd multiple of 8 reads 8 zero-filled columns),
// dK and dV exactly D and Dv wide; where D + Dv > 256 its blocks split dK
// and dV as the mma.sync kernel's do.
//
// Fragment layouts and the ldmatrix lane patterns are those of the forward
// (TensorCoreKernelBuilder.cpp, header comment):
//   A operand, rows r0.. of a [rows][k] tile: lane l -> row r0 + l % 16,
//     column k0 + 8 (l / 16), ldmatrix.x4 non-transposed.
//   B operand from a [n][k] tile ("non-transposed"): lane l -> row
//     n0 + l % 8 + 8 (l / 16), column k0 + 8 ((l / 8) % 2).
//   B operand from a [k][n] tile ("transposed"): lane l -> row
//     k0 + l % 8 + 8 ((l / 8) % 2), column n0 + 8 (l / 16), ldmatrix.trans.
//   C fragment of n-tile nt: c0, c1 at (row g, columns 8nt + 2t + {0, 1}),
//     c2, c3 at row g + 8; the C fragments of n-tiles 2kk, 2kk + 1 packed in
//     pairs are the A fragment of k-step kk.
//
// This file holds tcgrad::emitKernel, which picks the kernel of spec.stage;
// the emitter is declared in TensorCoreGradEmitter.h, which lists the files
// that define its parts.
//
//===----------------------------------------------------------------------===//

#include "TensorCoreGradEmitter.h"

using namespace mlir;
using namespace mlir::attn;
using tcgrad::GradEmitter;

void tcgrad::emitKernel(OpBuilder &b, gpu::GPUFuncOp func,
                        AttentionOpInterface op, const KernelSpec &spec) {
  GradEmitter emitter(b, op, spec);
  if (spec.stage == abi::Stage::Prep)
    emitter.emitPrep(func);
  else if ((spec.stage == abi::Stage::DKDV ||
            spec.stage == abi::Stage::DKDVDQ) &&
           spec.warpgroupMma)
    emitter.emitKeyBlocksWarpgroup(func, spec.stage == abi::Stage::DKDVDQ);
  else if (spec.stage == abi::Stage::DKDV || spec.stage == abi::Stage::DKDVDQ)
    emitter.emitKeyBlocks(func, spec.stage == abi::Stage::DKDVDQ);
  else if (spec.stage == abi::Stage::DQ)
    emitter.emitDq(func);
  else
    emitter.emitDqConvert(func);
}
