//===- TensorCoreKernelBuilder.cpp - FA2-style mma.sync attention ---------===//
//
// The tensor-core mapping of attention (FlashAttention-2 forward), used for
// f16/bf16 with D = Dv in {64, 128}:
//
//   grid  = (ceil(Lq / Br), Hq, B); block = Br / 16 warps
//   Br = 64 (4 warps, 128 threads) by default, Br = 128 (8 warps) on request
//   (tc::defaultBlockQ; attn.tiles block_q or attn-compile --block-q).
//   Warp w owns query rows [16w, 16w + 16) of the block's Br rows.
//   Shared memory (dynamic, KernelSpec::dynamicSharedBytes):
//     Q [Br][D + 8], K [2][64][D + 8], V [2][64][D + 8]   (element type)
//   The +8 element pad makes consecutive rows start 16 bytes apart modulo
//   128 bytes, so the 8 row addresses of one ldmatrix 8x8 matrix hit 8
//   distinct 16-byte bank groups (no bank conflicts).
//
//   Prologue: Q tile and the first visible K/V block are copied with cp.async
//   (nvgpu.device_async_copy, 16-byte chunks, rows past Lq/Lk zero-filled
//   through srcElements = 0); for D = 64 Q is then loaded once into mma A
//   fragments (ldmatrix.x4) that stay in registers; for D = 128 the Q
//   fragments are re-read from shared memory at each k-step (register
//   pressure).
//   Per visible key block kb (emitVisibleKeyBlocks), with stage = (kb-first)%2:
//     wait for all cp.async groups; barrier;
//     if kb + 1 < last: cp.async block kb+1 into stage 1-stage, commit;
//     S = Q K^T                  (mma.sync m16n8k16, f32 accumulators)
//     score epilogue, chosen per key block (uniform branch): blocks that the
//       causal/window rules or the Lk bound can cut for this query block
//       (diagonal, window edges, last ragged block) apply them per element
//       at global (row, key) (emitModifiedScore, -inf for key >= Lk); the
//       others only scale (+ softcap, tensor mask, where present);
//     online softmax on the warp's rows (quad shuffles) in the log2 domain:
//       p = exp2(s * scale * log2 e - m) (one FMA + ex2.approx.ftz; with
//       softcap or an additive mask the modified score times log2 e),
//       dropout on P (l sums P before dropout);
//     O = O * alpha + P V        (P re-packed from C to A fragments).
//   The single barrier per step is enough: the prefetch of step kb+1 writes
//   the stage that step kb-1 read, and every warp has passed step kb-1's
//   compute once it reaches step kb's barrier.
//   Epilogue: O / l (0 when l == 0) staged through the warp's own rows of the
//   Q tile and stored with 16-byte stores; lse = (m + log2 l) * ln 2 (m is
//   in the log2 domain; -inf when m == -inf). The CUDA-core kernel and the
//   CPU paths keep exp / log.
//
// mma.sync is emitted as nvvm.mma.sync (nvgpu.mma.sync cannot deduce bf16 PTX
// types in MLIR 22) and ldmatrix as nvvm.ldmatrix on shared-memory byte
// addresses computed here.
//
// Fragment layouts (PTX ISA, "Matrix fragments for mma.m16n8k16", 16-bit
// types), lane = threadIdx.x % 32, g = lane / 4, t = lane % 4. A "pair" is
// one 32-bit register holding two 16-bit values, the lower column (or k) in
// the low half.
//   A (16x16, row major):  a0 = A[g][2t..2t+1]     a1 = A[g+8][2t..2t+1]
//                          a2 = A[g][2t+8..2t+9]   a3 = A[g+8][2t+8..2t+9]
//   B (16x8, "col"):       b0 = B[2t..2t+1][g]     b1 = B[2t+8..2t+9][g]
//   C/D (16x8, f32):       c0,c1 = C[g][2t], C[g][2t+1]
//                          c2,c3 = C[g+8][2t], C[g+8][2t+1]
//   ldmatrix.x4: lanes 8j..8j+7 give the row addresses of matrix j; matrix j
//   lands in result register j; without .trans lane gets row g, columns
//   2t..2t+1 of each matrix; with .trans it gets rows 2t..2t+1 of column g.
//
//===----------------------------------------------------------------------===//

#include "KernelArguments.h"
#include "MmaEmitterBase.h"
#include "TensorCoreKernel.h"

#include "attnopt/Dialect/Attn/Utils/Philox.h"
#include "attnopt/Dialect/Attn/Utils/ScoreModifiers.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/LLVMIR/NVVMDialect.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/NVGPU/IR/NVGPUDialect.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"

#include <limits>

using namespace mlir;
using namespace mlir::attn;

namespace {

constexpr float kNegInf = -std::numeric_limits<float>::infinity();
constexpr float kLog2E = 1.4426950408889634f, kLn2 = 0.6931471805599453f;
using tc::kBlockKV;
using tc::kRowsPerWarp;

/// Padded shared-memory row stride, in elements.
int64_t paddedStride(int64_t headDim) { return headDim + 8; }

class TensorCoreEmitter : public MmaEmitterBase {
public:
  TensorCoreEmitter(OpBuilder &b, AttentionOp op, const KernelSpec &spec)
      : MmaEmitterBase(b, op.getLoc(), op.getQueryType().getElementType(),
                       op.getQueryType().getDimSize(3),
                       tc::threadsFor(spec.blockQ)),
        op(op), spec(spec), mods(ScoreModifiers::get(op)), blockQ(spec.blockQ) {
    auto q = op.getQueryType();
    heads = q.getDimSize(1);
    queryLen = q.getDimSize(2);
    headDim = q.getDimSize(3);
    kvHeads = op.getKeyType().getDimSize(1);
    keyLen = op.getKeyType().getDimSize(2);
    valueDim = op.getValueType().getDimSize(3);
    elt = q.getElementType();
    stride = paddedStride(headDim);
  }

  void emit(gpu::GPUFuncOp func);

private:
  Value maskValue(Value mask, Value bIdx, Value hIdx, Value row, Value key);

  AttentionOp op;
  const KernelSpec &spec;
  ScoreModifiers mods;
  int64_t blockQ; // 64 / 128 query rows (4 / 8 warps)
  int64_t heads, queryLen, kvHeads, keyLen, valueDim, stride;
};

Value TensorCoreEmitter::maskValue(Value mask, Value bIdx, Value hIdx,
                                   Value row, Value key) {
  auto shape = cast<ShapedType>(op.getMask().getType()).getShape();
  Value zero = idx(0);
  Value pos[] = {shape[0] == 1 ? zero : bIdx, shape[1] == 1 ? zero : hIdx,
                 shape[2] == 1 ? zero : row, shape[3] == 1 ? zero : key};
  Value lin = pos[0];
  for (size_t d = 1; d < 4; ++d)
    lin = add(mul(lin, shape[d]), pos[d]);
  Value v = memref::LoadOp::create(b, loc, mask, lin);
  if (mods.booleanMask)
    return arith::CmpIOp::create(
        b, loc, arith::CmpIPredicate::ne, v,
        arith::ConstantIntOp::create(b, loc, b.getI8Type(), 0));
  return v;
}

void TensorCoreEmitter::emit(gpu::GPUFuncOp func) {
  Block &entry = func.getBody().front();
  b.setInsertionPointToStart(&entry);
  const int64_t group = heads / kvHeads;
  const int64_t nTilesS = kBlockKV / 8;   // 8 key n-tiles of S per warp
  const int64_t kStepsQK = headDim / 16;  // k-steps of Q K^T
  const int64_t nTilesO = valueDim / 8;   // dv n-tiles of O per warp
  const int64_t kStepsPV = kBlockKV / 16; // k-steps of P V
  const int64_t eltBytes = 2;
  const int64_t tileBytes = kBlockKV * stride * eltBytes;
  const int64_t qOff = 0, kOff = blockQ * stride * eltBytes,
                vOff = kOff + 2 * tileBytes;
  float dropP = op.getDropoutP().convertToFloat();

  KernelArguments args = KernelArguments::unpack(entry, op);
  Value query = args.query, key = args.key, value = args.value,
        mask = args.mask, seed = args.seed, offset = args.offset,
        out = args.output, lse = args.lse;

  // Shared memory: one dynamic buffer, viewed as Q [64][S], K/V [2][64][S].
  auto workgroup =
      gpu::AddressSpaceAttr::get(ctx, gpu::AddressSpace::Workgroup);
  Value dyn = gpu::DynamicSharedMemoryOp::create(
      b, loc,
      MemRefType::get({ShapedType::kDynamic}, b.getI8Type(), AffineMap(),
                      workgroup));
  auto view = [&](int64_t byteOff, ArrayRef<int64_t> shape) -> Value {
    return memref::ViewOp::create(
        b, loc, MemRefType::get(shape, elt, AffineMap(), workgroup), dyn,
        idx(byteOff), ValueRange{});
  };
  Value qS = view(qOff, {blockQ, stride});
  Value kS = view(kOff, {2, kBlockKV, stride});
  Value vS = view(vOff, {2, kBlockKV, stride});
  Value smemBase = memref::ExtractAlignedPointerAsIndexOp::create(b, loc, dyn);

  tid = gpu::ThreadIdOp::create(b, loc, gpu::Dimension::x);
  Value qBlock = gpu::BlockIdOp::create(b, loc, gpu::Dimension::x);
  Value hIdx = gpu::BlockIdOp::create(b, loc, gpu::Dimension::y);
  Value bIdx = gpu::BlockIdOp::create(b, loc, gpu::Dimension::z);
  Value warp = divu(tid, 32), lane = remu(tid, 32);
  Value g = divu(lane, 4), t4 = remu(lane, 4);
  Value q0 = mul(qBlock, blockQ);
  Value kvHead = divu(hIdx, group);
  // Row indices (in units of rows) of the first row of this (b, h) slice.
  Value qRowBase = mul(add(mul(bIdx, heads), hIdx), queryLen);
  Value kvRowBase = mul(add(mul(bIdx, kvHeads), kvHead), keyLen);

  Value rowsInBlock = arith::MinSIOp::create(
      b, loc, idx(blockQ), arith::SubIOp::create(b, loc, idx(queryLen), q0));
  auto [firstBlock, lastBlock] = emitVisibleKeyBlocks(
      b, loc, mods, q0, rowsInBlock, idx(queryLen), idx(keyLen), kBlockKV);

  // Prologue: Q tile, and the first visible K/V block when there is one.
  SmallVector<Value> qTokens;
  copyTile(query, qRowBase, q0, queryLen, blockQ, qS, ValueRange{}, qTokens);
  Value qGroup = nvgpu::DeviceAsyncCreateGroupOp::create(
      b, loc, nvgpu::DeviceAsyncTokenType::get(ctx), qTokens);
  auto issueKV = [&](Value kb, Value stage) {
    SmallVector<Value> tokens;
    Value key0 = mul(kb, kBlockKV);
    copyTile(key, kvRowBase, key0, keyLen, kBlockKV, kS, ValueRange{stage},
             tokens);
    copyTile(value, kvRowBase, key0, keyLen, kBlockKV, vS, ValueRange{stage},
             tokens);
    nvgpu::DeviceAsyncCreateGroupOp::create(
        b, loc, nvgpu::DeviceAsyncTokenType::get(ctx), tokens);
  };
  Value anyBlock = arith::CmpIOp::create(b, loc, arith::CmpIPredicate::slt,
                                         firstBlock, lastBlock);
  emitIf(anyBlock, [&] { issueKV(firstBlock, idx(0)); });
  // All groups (the wait's token operand is only an anchor: the lowering is
  // cp.async.wait_group numGroups).
  auto waitAll = [&]() {
    nvgpu::DeviceAsyncWaitOp::create(b, loc, qGroup, b.getI32IntegerAttr(0));
  };
  waitAll();
  gpu::BarrierOp::create(b, loc);

  // Q A-fragments of this warp's 16 rows, one x4 per k-step of 16 dims:
  // lane l addresses row 16w + l % 16, column 16ks + 8 * (l / 16), so
  // matrices 0..3 = (rows 0-7, cols 0-7), (8-15, 0-7), (0-7, 8-15),
  // (8-15, 8-15) = a0..a3.
  Value qLaneAddr = add(add(smemBase, qOff),
                        mul(add(mul(add(mul(warp, 16), remu(lane, 16)), stride),
                                mul(divu(lane, 16), 8)),
                            eltBytes));
  // D = 64: the fragments stay in registers for the whole kernel (16 regs).
  // D = 128: they are re-read from the (never overwritten) Q tile once per
  // k-step and key block: keeping 32 more registers live pushes the masked /
  // dropout variants past 255 registers (ptxas spills).
  const bool qInRegisters = headDim <= 64;
  SmallVector<std::array<Value, 4>> qFrag;
  if (qInRegisters)
    for (int64_t ks = 0; ks < kStepsQK; ++ks)
      qFrag.push_back(ldmatrix4(add(qLaneAddr, ks * 16 * eltBytes), false));

  // K B-fragments, one x4 per (pair of key n-tiles, k-step): lane l addresses
  // key 16np + l % 8 + 8 * (l / 16), dim 16ks + 8 * ((l / 8) % 2); registers
  // {0, 1} = (b0, b1) of n-tile 2np, {2, 3} = (b0, b1) of n-tile 2np + 1.
  Value kLaneOff =
      mul(add(mul(add(remu(lane, 8), mul(divu(lane, 16), 8)), stride),
              mul(remu(divu(lane, 8), 2), 8)),
          eltBytes);
  // V B-fragments (transposed), one x4 per (pair of dv n-tiles, k-step of 16
  // keys): lane l addresses key 16kk + l % 8 + 8 * ((l / 8) % 2), dv
  // 16np + 8 * (l / 16); registers {0, 1} = (b0, b1) of dv n-tile 2np,
  // {2, 3} = (b0, b1) of dv n-tile 2np + 1.
  Value vLaneOff =
      mul(add(mul(add(remu(lane, 8), mul(remu(divu(lane, 8), 2), 8)), stride),
              mul(divu(lane, 16), 8)),
          eltBytes);

  // This thread's two query rows (C-fragment rows g and g + 8 of the warp's
  // 16), global and clamped (padding rows compute on the last row, as in the
  // CUDA-core kernel; their results are not stored).
  Value rowA = add(q0, add(mul(warp, 16), g));
  Value rows[2] = {rowA, add(rowA, 8)};
  Value rowsC[2] = {minS(rows[0], queryLen - 1), minS(rows[1], queryLen - 1)};

  // Loop state: m[2], l[2] (l is this thread's partial sum over its columns;
  // the quad's partial sums are added in the epilogue), O fragments.
  SmallVector<Value> init = {f32(kNegInf), f32(kNegInf), f32(0.0f), f32(0.0f)};
  for (int64_t i = 0; i < nTilesO * 4; ++i)
    init.push_back(f32(0.0f));

  // Score epilogues (in the loop): the masked one applies the positional
  // rules and the Lk bound per element, the plain one only what exists
  // everywhere (scale, softcap, tensor mask). blockNeedsMask is uniform per
  // (query block, key block): whether the causal/window rules or Lk can
  // exclude any (row, key) of the pair (as in attn-tile's blockNeedsMask).
  const bool keyGuard = keyLen % kBlockKV != 0;
  const bool maySkipMask = keyGuard || mods.hasPositionalMask();
  const bool foldScale =
      mods.scale > 0.0f && !mods.softcap && !mods.additiveMask;
  const float log2Scale = mods.scale * kLog2E;
  ScoreModifiers maskedMods = mods;
  if (foldScale)
    maskedMods.scale = 1.0f; // applied in the exponent
  ScoreModifiers plainMods = maskedMods;
  plainMods.causal = CausalMode::none;
  plainMods.window.reset();
  auto blockNeedsMask = [&](Value k0) -> Value {
    auto cmp = [&](arith::CmpIPredicate p, Value x, Value y) -> Value {
      return arith::CmpIOp::create(b, loc, p, x, y);
    };
    Value blockEnd = add(k0, kBlockKV);
    Value needs = keyGuard
                      ? cmp(arith::CmpIPredicate::sgt, blockEnd, idx(keyLen))
                      : arith::ConstantIntOp::create(b, loc, 0, 1);
    if (!mods.hasPositionalMask())
      return needs;
    int64_t delta =
        mods.causal == CausalMode::bottom_right ? keyLen - queryLen : 0;
    std::optional<int64_t> right;
    if (mods.causal != CausalMode::none)
      right = 0;
    if (mods.window && mods.window->second >= 0)
      right =
          right ? std::min(*right, mods.window->second) : mods.window->second;
    // Upper edge: the first row's diagonal (+ right) must cover the last key.
    if (right)
      needs =
          arith::OrIOp::create(b, loc, needs,
                               cmp(arith::CmpIPredicate::sgt, add(blockEnd, -1),
                                   add(q0, delta + *right)));
    // Lower edge: the last row's window start must not pass the first key.
    if (mods.window && mods.window->first >= 0) {
      Value lastRow =
          add(q0, arith::SubIOp::create(b, loc, rowsInBlock, idx(1)));
      needs =
          arith::OrIOp::create(b, loc, needs,
                               cmp(arith::CmpIPredicate::slt, k0,
                                   add(lastRow, delta - mods.window->first)));
    }
    return needs;
  };

  auto blockLoop = scf::ForOp::create(
      b, loc, firstBlock, lastBlock, idx(1), init,
      [&](OpBuilder &nb, Location, Value kb, ValueRange state) {
        OpBuilder::InsertionGuard guard(b);
        b.setInsertionPoint(nb.getInsertionBlock(), nb.getInsertionPoint());
        Value stage = remu(arith::SubIOp::create(b, loc, kb, firstBlock), 2);
        waitAll();
        gpu::BarrierOp::create(b, loc);
        // Prefetch block kb + 1 into the other stage.
        Value next = add(kb, 1);
        Value hasNext = arith::CmpIOp::create(b, loc, arith::CmpIPredicate::slt,
                                              next, lastBlock);
        emitIf(hasNext, [&] {
          issueKV(next, arith::SubIOp::create(b, loc, idx(1), stage));
        });
        Value stageBytes = mul(stage, tileBytes);
        Value kBase = add(add(add(smemBase, kOff), stageBytes), kLaneOff);
        Value vBase = add(add(add(smemBase, vOff), stageBytes), vLaneOff);

        // S = Q K^T: 8 n-tiles of 8 keys, f32.
        SmallVector<Frag> s(nTilesS,
                            Frag{f32(0.0f), f32(0.0f), f32(0.0f), f32(0.0f)});
        for (int64_t ks = 0; ks < kStepsQK; ++ks) {
          std::array<Value, 4> qf =
              qInRegisters
                  ? qFrag[ks]
                  : ldmatrix4(add(qLaneAddr, ks * 16 * eltBytes), false);
          for (int64_t np = 0; np < nTilesS / 2; ++np) {
            auto kr = ldmatrix4(
                add(kBase, (16 * np * stride + 16 * ks) * eltBytes), false);
            s[2 * np] = mma(qf, kr[0], kr[1], s[2 * np]);
            s[2 * np + 1] = mma(qf, kr[2], kr[3], s[2 * np + 1]);
          }
        }

        // Score modifiers at global (row, key): element e of n-tile nt is at
        // row rows[e / 2], key key0 + 8nt + 2t + e % 2. With `foldScale` the
        // scores stay raw (masked ones -inf) and scale * log2(e) is applied in
        // the exponent (one FMA per element); otherwise they leave here
        // modified and multiplied by log2(e). Either way m is in the log2
        // domain.
        Value key0 = mul(kb, kBlockKV);
        Value keyT = add(key0, mul(t4, 2));
        auto modifiedScores = [&](bool masked) {
          const ScoreModifiers &m = masked ? maskedMods : plainMods;
          const bool guardKeys = masked && keyGuard;
          SmallVector<Value> out;
          for (int64_t nt = 0; nt < nTilesS; ++nt)
            for (int64_t e = 0; e < 4; ++e) {
              Value keyIdx = add(keyT, 8 * nt + e % 2);
              Value row = rowsC[e / 2];
              Value mv;
              if (mask)
                mv = maskValue(mask, bIdx, hIdx, row,
                               guardKeys ? minS(keyIdx, keyLen - 1) : keyIdx);
              Value sc = emitModifiedScore(b, loc, m, s[nt][e], mv, row, keyIdx,
                                           idx(queryLen), idx(keyLen));
              if (guardKeys)
                sc = arith::SelectOp::create(b, loc, ltC(keyIdx, keyLen), sc,
                                             f32(kNegInf));
              if (!foldScale)
                sc = fmul(sc, f32(kLog2E));
              out.push_back(sc);
            }
          return out;
        };
        SmallVector<Value> scores;
        if (!maySkipMask) {
          scores = modifiedScores(/*masked=*/false);
        } else {
          // Uniform per block: only diagonal / window-edge / last (ragged)
          // key blocks take the elementwise positional path.
          // (Result types come from the yields.)
          scores = emitUniformChoice(blockNeedsMask(key0), modifiedScores);
        }
        for (int64_t nt = 0; nt < nTilesS; ++nt)
          for (int64_t e = 0; e < 4; ++e)
            s[nt][e] = scores[4 * nt + e];

        // Online softmax per row (r = 0: elements 0, 1; r = 1: elements 2,
        // 3). The 4 threads of a quad (same g) share a row.
        SmallVector<Value> next2(state.begin(), state.end());
        Value alpha[2];
        for (int64_t r = 0; r < 2; ++r) {
          Value mx = s[0][2 * r];
          for (int64_t nt = 0; nt < nTilesS; ++nt)
            for (int64_t j = 0; j < 2; ++j)
              if (nt || j)
                mx = fmax(mx, s[nt][2 * r + j]);
          mx = fmax(mx, shflXor(mx, 1));
          mx = fmax(mx, shflXor(mx, 2));
          if (foldScale)
            mx = fmul(mx, f32(log2Scale));
          Value m = state[r], l = state[2 + r];
          Value mNew = fmax(m, mx);
          Value isEmpty = arith::CmpFOp::create(
              b, loc, arith::CmpFPredicate::OEQ, mNew, f32(kNegInf));
          Value safe =
              arith::SelectOp::create(b, loc, isEmpty, f32(0.0f), mNew);
          alpha[r] = exp2(arith::SubFOp::create(b, loc, m, safe));
          Value sum = f32(0.0f);
          for (int64_t nt = 0; nt < nTilesS; ++nt)
            for (int64_t j = 0; j < 2; ++j) {
              Value &sv = s[nt][2 * r + j];
              // s * (scale log2 e) - m: one FMA.
              Value negSafe = arith::NegFOp::create(b, loc, safe);
              Value x = foldScale ? fmaC(sv, f32(log2Scale), negSafe)
                                  : fadd(sv, negSafe);
              Value p = exp2(x);
              sum = fadd(sum, p);
              Value weight = p;
              if (dropP > 0.0f) {
                Value keyIdx = add(keyT, 8 * nt + j);
                DropoutPosition pos{bIdx,   hIdx,       rowsC[r],
                                    keyIdx, idx(heads), idx(queryLen)};
                Value keep = emitDropoutKeep(b, loc, seed, offset, pos, dropP);
                weight = arith::SelectOp::create(
                    b, loc, keep, fmul(p, f32(1.0f / (1.0f - dropP))),
                    f32(0.0f));
              }
              sv = weight; // s now holds the (dropped-out) P.
            }
          next2[r] = mNew;
          next2[2 + r] = fmaC(l, alpha[r], sum);
        }

        // O = O * alpha + P V. P's C fragments of n-tiles 2kk, 2kk + 1 are
        // the A fragment of k-step kk: a0 = (P[2kk].c0, c1), a1 = (P[2kk].c2,
        // c3), a2 = (P[2kk+1].c0, c1), a3 = (P[2kk+1].c2, c3).
        SmallVector<Frag> o(nTilesO);
        for (int64_t nt = 0; nt < nTilesO; ++nt)
          for (int64_t e = 0; e < 4; ++e)
            o[nt][e] = fmul(state[4 + 4 * nt + e], alpha[e / 2]);
        for (int64_t kk = 0; kk < kStepsPV; ++kk) {
          const Frag &p0 = s[2 * kk], &p1 = s[2 * kk + 1];
          Value pa[4] = {packPair(p0[0], p0[1]), packPair(p0[2], p0[3]),
                         packPair(p1[0], p1[1]), packPair(p1[2], p1[3])};
          for (int64_t np = 0; np < nTilesO / 2; ++np) {
            auto vr = ldmatrix4(
                add(vBase, (16 * kk * stride + 16 * np) * eltBytes), true);
            o[2 * np] = mma(pa, vr[0], vr[1], o[2 * np]);
            o[2 * np + 1] = mma(pa, vr[2], vr[3], o[2 * np + 1]);
          }
        }
        for (int64_t nt = 0; nt < nTilesO; ++nt)
          for (int64_t e = 0; e < 4; ++e)
            next2[4 + 4 * nt + e] = o[nt][e];
        scf::YieldOp::create(b, loc, next2);
      });

  // Epilogue. Row r of this thread: O[nt][2r], O[nt][2r + 1] at dv
  // 8nt + 2t + {0, 1}. The normalized O goes through this warp's own 16
  // rows of the Q tile (only this warp ever reads them, and its last read
  // has completed: no block barrier), then to global memory in 16-byte
  // stores of whole row segments.
  Value warpRow0 = mul(warp, kRowsPerWarp);
  for (int64_t r = 0; r < 2; ++r) {
    Value m = blockLoop.getResult(r), l = blockLoop.getResult(2 + r);
    l = fadd(l, shflXor(l, 1));
    l = fadd(l, shflXor(l, 2));
    Value isEmpty =
        arith::CmpFOp::create(b, loc, arith::CmpFPredicate::OEQ, l, f32(0.0f));
    Value inv =
        arith::SelectOp::create(b, loc, isEmpty, f32(0.0f),
                                arith::DivFOp::create(b, loc, f32(1.0f), l));
    Value smemRow = add(warpRow0, add(g, 8 * r));
    auto pairTy = VectorType::get({2}, elt);
    for (int64_t nt = 0; nt < nTilesO; ++nt) {
      Value lo = fmul(blockLoop.getResult(4 + 4 * nt + 2 * r), inv);
      Value hi = fmul(blockLoop.getResult(4 + 4 * nt + 2 * r + 1), inv);
      Value pair = vector::FromElementsOp::create(
          b, loc, pairTy,
          ValueRange{arith::TruncFOp::create(b, loc, elt, lo),
                     arith::TruncFOp::create(b, loc, elt, hi)});
      vector::StoreOp::create(b, loc, pair, qS,
                              ValueRange{smemRow, add(mul(t4, 2), 8 * nt)},
                              /*nontemporal=*/false, llvm::MaybeAlign(4));
    }
    if (lse) {
      Value valid = ltC(rows[r], queryLen);
      Value first =
          arith::CmpIOp::create(b, loc, arith::CmpIPredicate::eq, t4, idx(0));
      scf::IfOp::create(
          b, loc, arith::AndIOp::create(b, loc, valid, first),
          [&](OpBuilder &lb, Location) {
            OpBuilder::InsertionGuard g2(b);
            b.setInsertionPoint(lb.getInsertionBlock(), lb.getInsertionPoint());
            // m is in the log2 domain: lse = (m + log2 l) * ln 2.
            Value noKey = arith::CmpFOp::create(
                b, loc, arith::CmpFPredicate::OEQ, m, f32(kNegInf));
            Value v = arith::SelectOp::create(
                b, loc, noKey, f32(kNegInf),
                fmul(fadd(m, math::Log2Op::create(b, loc, l)), f32(kLn2)));
            memref::StoreOp::create(b, loc, v, lse, add(qRowBase, rows[r]));
            scf::YieldOp::create(b, loc);
          });
    }
  }
  NVVM::SyncWarpOp::create(b, loc, i32c(-1));
  // Lane l copies 16-byte chunks l, l + 32, ... of the warp's 16 x Dv tile.
  const int64_t chunksPerRow = valueDim / 8;
  const int64_t rowsPerPass = 32 / chunksPerRow;
  Value cRow = divu(lane, chunksPerRow);
  Value cCol = mul(remu(lane, chunksPerRow), 8);
  auto chunkTy = VectorType::get({8}, elt);
  for (int64_t pass = 0; pass < kRowsPerWarp / rowsPerPass; ++pass) {
    Value smemRow = add(warpRow0, add(cRow, pass * rowsPerPass));
    Value row = add(q0, smemRow);
    emitIf(ltC(row, queryLen), [&] {
      Value chunk =
          vector::LoadOp::create(b, loc, chunkTy, qS, ValueRange{smemRow, cCol},
                                 /*nontemporal=*/false, llvm::MaybeAlign(16));
      Value at = add(mul(add(qRowBase, row), valueDim), cCol);
      vector::StoreOp::create(b, loc, chunk, out, ValueRange{at},
                              /*nontemporal=*/false, llvm::MaybeAlign(16));
    });
  }
  gpu::ReturnOp::create(b, loc);
}

} // namespace

bool tc::isEligible(AttentionOp op, std::string &why) {
  if (op.getDropoutMask()) {
    why = "the op has an explicit dropout_mask (the tensor-core kernel only "
          "generates Philox keep bits)";
    return false;
  }
  RankedTensorType q = op.getQueryType();
  Type elt = q.getElementType();
  int64_t d = q.getDimSize(3), dv = op.getValueType().getDimSize(3);
  if (!elt.isF16() && !elt.isBF16()) {
    why = "the element type is not f16 or bf16";
    return false;
  }
  if (op.getKeyType().getElementType() != elt ||
      op.getValueType().getElementType() != elt) {
    why = "query, key and value element types differ";
    return false;
  }
  if (d != dv || (d != 64 && d != 128)) {
    why = "head dims must be equal and 64 or 128";
    return false;
  }
  return true;
}

// Br = 64 (4 warps) by default: on the H200 (2026-11-29, docs/performance.md)
// it beat Br = 128 (8 warps) on 22 of the 24 benchmark shapes, by up to 29%
// for D = 64, since two resident 4-warp blocks overlap one block's softmax
// with the other's mma better than one 8-warp block does. Br = 128 is kept for
// an explicit attn.tiles block_q > 64 or attn-compile --block-q=128.
int64_t tc::defaultBlockQ(AttentionOp op) {
  if (auto tiles = op->getAttrOfType<TileConfigAttr>("attn.tiles"))
    return tiles.getBlockQ() > 64 ? 128 : 64;
  return 64;
}

int64_t tc::sharedMemoryBytes(AttentionOp op, int64_t blockQ) {
  int64_t d = op.getQueryType().getDimSize(3);
  // Q tile of blockQ rows + 2 K tiles + 2 V tiles of 64 padded rows, 2 bytes
  // per element.
  return (blockQ + 4 * kBlockKV) * paddedStride(d) * 2;
}

void tc::emitKernel(OpBuilder &b, gpu::GPUFuncOp func, AttentionOp op,
                    const KernelSpec &spec) {
  TensorCoreEmitter(b, op, spec).emit(func);
}
