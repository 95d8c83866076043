//===- MmaEmitterBase.h - mma.sync building blocks ---------------*- C++
//-*-===//
//
// Private to lib/Conversion/AttnToGPU: what every tensor-core kernel builds
// (the forward in TensorCoreKernelBuilder.cpp, the backward in
// TensorCoreGradKernelBuilder.cpp): scalar index/f32 helpers, ldmatrix,
// mma.sync m16n8k16, packing f32 pairs into 16-bit operands, ex2, and
// cp.async tile copies. Fragment layouts are documented at the top of
// TensorCoreKernelBuilder.cpp.
//
//===----------------------------------------------------------------------===//

#ifndef ATTNOPT_LIB_CONVERSION_ATTNTOGPU_MMAEMITTERBASE_H
#define ATTNOPT_LIB_CONVERSION_ATTNTOGPU_MMAEMITTERBASE_H

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/IR/Builders.h"

#include <array>

namespace mlir::attn {

/// Four f32 accumulators of one m16n8 C fragment.
using Frag = std::array<Value, 4>;

class MmaEmitterBase {
protected:
  /// `elt` is the 16-bit operand type; `headDim` the row width (elements)
  /// copyTile copies; `threads` the block size.
  MmaEmitterBase(OpBuilder &b, Location loc, Type elt, int64_t headDim,
                 int64_t threads)
      : b(b), ctx(b.getContext()), loc(loc), elt(elt), headDim(headDim),
        threads(threads) {}

  // --- scalar helpers -------------------------------------------------------
  Value idx(int64_t v) { return arith::ConstantIndexOp::create(b, loc, v); }
  Value i32c(int32_t v) {
    return arith::ConstantIntOp::create(b, loc, b.getI32Type(), v);
  }
  Value f32(float v) {
    return arith::ConstantFloatOp::create(b, loc, b.getF32Type(), APFloat(v));
  }
  Value add(Value x, Value y) { return arith::AddIOp::create(b, loc, x, y); }
  Value add(Value x, int64_t c) { return c == 0 ? x : add(x, idx(c)); }
  Value mul(Value x, Value y) { return arith::MulIOp::create(b, loc, x, y); }
  Value mul(Value x, int64_t c) { return mul(x, idx(c)); }
  Value divu(Value x, int64_t c) {
    return arith::DivUIOp::create(b, loc, x, idx(c));
  }
  Value remu(Value x, int64_t c) {
    return arith::RemUIOp::create(b, loc, x, idx(c));
  }
  Value minS(Value x, int64_t c) {
    return arith::MinSIOp::create(b, loc, x, idx(c));
  }
  Value ltC(Value x, int64_t c) {
    return arith::CmpIOp::create(b, loc, arith::CmpIPredicate::slt, x, idx(c));
  }
  Value fmax(Value x, Value y) {
    return arith::MaximumFOp::create(b, loc, x, y);
  }
  Value fmul(Value x, Value y) { return arith::MulFOp::create(b, loc, x, y); }
  Value fadd(Value x, Value y) { return arith::AddFOp::create(b, loc, x, y); }
  /// x * y + z as mul and add marked `contract`, which the NVPTX backend
  /// fuses into one fma.rn (without the flag it emits mul.rn + add.rn, which
  /// ptxas must not fuse).
  Value fmaC(Value x, Value y, Value z) {
    auto contract =
        arith::FastMathFlagsAttr::get(ctx, arith::FastMathFlags::contract);
    Value p = arith::MulFOp::create(b, loc, x, y, contract);
    return arith::AddFOp::create(b, loc, p, z, contract);
  }
  Value shflXor(Value v, int32_t offset) {
    return gpu::ShuffleOp::create(b, loc, v, offset, 32, gpu::ShuffleMode::XOR)
        .getShuffleResult();
  }
  /// Whether `pred` (i1) holds in any lane of the warp (vote.sync.any): a
  /// warp-uniform condition.
  Value warpAny(Value pred);

  // --- tensor-core helpers --------------------------------------------------
  /// ldmatrix.x4 (optionally .trans) at a shared-memory byte address (index).
  std::array<Value, 4> ldmatrix4(Value byteAddr, bool transpose);
  /// D = A * B + C, m16n8k16, 16-bit A/B as packed i32 pairs, f32 C/D.
  Frag mma(ArrayRef<Value> a, Value b0, Value b1, const Frag &c);
  /// A pair register (i32) of two f32 values rounded to the element type;
  /// `lo` goes to the low half.
  Value packPair(Value lo, Value hi);

  /// exp2 of an f32 (ex2.approx.ftz.f32).
  Value exp2(Value x);

  /// Issues cp.async copies of tile rows [first, first + tileRows) of a
  /// sequence of length `len` (rows of `headDim` elements starting at global
  /// row `rowBase`) into `dst[lead..., r, c]`. Rows past `len` are
  /// zero-filled.
  void copyTile(Value global, Value rowBase, Value first, int64_t len,
                int64_t tileRows, Value dst, ValueRange lead,
                SmallVectorImpl<Value> &tokens);

  /// Waits for every outstanding cp.async group of this thread, then
  /// synchronizes the block: afterwards every copy issued so far is visible
  /// to all threads. (`anchor` is any group token: the lowering is
  /// cp.async.wait_group 0.)
  void emitWaitAllCopies(Value anchor);
  /// The head of step `step` of a double-buffered loop that ends before
  /// `end` and reads stage `stage`: emitWaitAllCopies, then, when
  /// step + 1 < end, `issue(step + 1, 1 - stage)` prefetches the next step
  /// into the other stage. One barrier per step is enough: the prefetch
  /// overwrites the stage that step - 1 read, and every warp has finished
  /// step - 1 once it passes this step's barrier.
  void emitPrefetchingStepHead(Value anchor, Value step, Value stage, Value end,
                               function_ref<void(Value, Value)> issue);
  /// `body` under scf.if `cond` (no results).
  void emitIf(Value cond, function_ref<void()> body);
  /// The values of `compute(true)` where the block-uniform `cond` holds and
  /// of `compute(false)` elsewhere, as one scf.if: the masked and the plain
  /// variant of a per-element computation.
  SmallVector<Value>
  emitUniformChoice(Value cond, function_ref<SmallVector<Value>(bool)> compute);

  OpBuilder &b;
  MLIRContext *ctx;
  Location loc;
  Type elt;
  int64_t headDim, threads;
  Value tid; ///< threadIdx.x, set by the kernel emitter
  /// packPair converts bf16 pairs with one cvt.rn.bf16x2.f32. The dq
  /// kernel turns it off: with it, ptxas for sm_80 schedules the D = 128 dq
  /// kernel past 255 registers (32 bytes of spills); the scalar form (two
  /// cvt.rn.bf16.f32, widening, shift, or) does not.
  bool packedBF16Convert = true;
};

} // namespace mlir::attn

#endif // ATTNOPT_LIB_CONVERSION_ATTNTOGPU_MMAEMITTERBASE_H
