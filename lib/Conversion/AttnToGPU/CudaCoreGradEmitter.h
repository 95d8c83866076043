//===- CudaCoreGradEmitter.h - CUDA-core backward emitter -------*- C++ -*-===//
//
// Private to lib/Conversion/AttnToGPU: the class that emits the two kernels
// of the CUDA-core backward (attn_bwd_dkdv_<n>, attn_bwd_dq_<n>; their
// design is documented at the top of AttentionGradKernelBuilder.cpp, which
// chooses their tiling and creates their gpu.funcs). It is shared by the
// parts that define its methods, by job:
//   CudaCoreGradSlices.cpp    the kernel's arguments and sizes, and a row's
//                             head-dim slices across its T lanes: loads,
//                             rounded stores, partial dot products, the
//                             lane sum, accumulation
//   CudaCoreGradScores.cpp    P, the dropped Pd and dS of one (row, key)
//   CudaCoreGradKeyBlock.cpp  attn_bwd_dkdv: dK and dV of one key block
//   CudaCoreGradDq.cpp        attn_bwd_dq: dQ of one query block
//
//===----------------------------------------------------------------------===//

#ifndef ATTNOPT_LIB_CONVERSION_ATTNTOGPU_CUDACOREGRADEMITTER_H
#define ATTNOPT_LIB_CONVERSION_ATTNTOGPU_CUDACOREGRADEMITTER_H

#include "KernelArguments.h"
#include "KernelCommon.h"
#include "attnopt/Conversion/AttnToGPU/AttnToGPU.h"
#include "attnopt/Dialect/Attn/Utils/ScoreModifiers.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/SCF/IR/SCF.h"

#include <utility>

namespace mlir::attn::ccgrad {

/// a / b rounded up (slots per lane, tiles per length).
inline int64_t ceilDiv(int64_t a, int64_t b) { return (a + b - 1) / b; }

/// Emits the body of one CUDA-core backward kernel of `op` as described by
/// `spec` (spec.threadsPerRow threads per key or query row) into a gpu.func
/// whose workgroup attributions buildAttentionGradKernels created.
class GradEmitter : kernel::ScalarOps {
public:
  GradEmitter(OpBuilder &b, AttentionGradOp op, const KernelSpec &spec)
      : kernel::ScalarOps(b, op.getLoc()), op(op), spec(spec),
        mods(ScoreModifiers::get(op)),
        dropP(op.getDropoutP().convertToFloat()) {
    RankedTensorType q = op.getQueryType();
    heads = q.getDimSize(1);
    headDim = q.getDimSize(3);
    kvHeads = op.getKeyType().getDimSize(1);
    valueDim = op.getValueType().getDimSize(3);
    group = heads / kvHeads;
    elt = q.getElementType();
    t = spec.threadsPerRow;
    dPer = ceilDiv(headDim, t);
    dvPer = ceilDiv(valueDim, t);
  }

  void emitKeyValueKernel(gpu::GPUFuncOp func);
  void emitQueryKernel(gpu::GPUFuncOp func);

private:
  Value zeroElt() {
    return arith::ConstantOp::create(b, loc, b.getZeroAttr(elt));
  }

  /// Element index of slot `slot` of this thread's lane (slot * T + lane).
  Value slotElement(int64_t slot) { return add(idx(slot * t), lane); }
  /// Whether slot `slot` of this lane is inside a head dim of `width`
  /// elements; null when it is for every lane.
  Value slotValid(int64_t slot, int64_t width) {
    if ((slot + 1) * t <= width)
      return Value();
    return cmp(arith::CmpIPredicate::slt, lane, idx(width - slot * t));
  }
  /// This lane's slots of the row at flat element `base` of `global` (rows
  /// of `width` elements), in the element type, zero in the padding.
  SmallVector<Value> loadSlice(Value global, Value base, int64_t width);
  /// Rounds `values` (times `scale` unless 1) to the element type and stores
  /// this lane's slots of the row at flat element `base`.
  void storeSlice(Value global, Value base, int64_t width,
                  ArrayRef<Value> values, float scale);
  /// sum over slots of regs[s] * shared[row][s * T + lane] (this lane's
  /// partial dot product; f32, in kDotChains interleaved chains).
  Value partialDot(ArrayRef<Value> regs, Value shared, Value row);
  /// Sum of `v` over the T lanes of a row (xor butterfly).
  Value laneSum(Value v);
  /// acc[s] += factor * shared[row][s * T + lane].
  SmallVector<Value> accumulate(ValueRange acc, Value factor, Value shared,
                                Value row);

  /// Both kernels' grid: block (x, y, z) = (a block of `rows` query or key
  /// rows, a head, a batch); thread `tid` works on row tid / T of the block
  /// (sets `lane` = tid % T). Rows past `len` compute on the last row
  /// (`clamped`) and store nothing (`valid` is false).
  struct ThreadRow {
    Value tid, blockY, blockZ;
    Value start;   ///< the block's first row
    Value inBlock; ///< this thread's row in the block, tid / T
    Value valid, clamped;
  };
  ThreadRow bindThreadRow(int64_t rows, Value len);

  /// The per-element gradient math for (row, key): returns the dropped
  /// probability Pd (for dV) and dS (for dQ, dK; unscaled).
  std::pair<Value, Value> elementGradients(Value raw, Value dPd, Value lse,
                                           Value delta, Value bIdx, Value hIdx,
                                           Value row, Value key);

  AttentionGradOp op;
  const KernelSpec &spec;
  ScoreModifiers mods;
  float dropP;
  int64_t heads, headDim, kvHeads, valueDim, group;
  int64_t t, dPer, dvPer;
  Type elt;
  Value lane, mask, seed, offset;
  /// The batch and lengths (static, or the kernel's run-time arguments;
  /// RuntimeSizes.h), the lengths as index values, the mask's dimensions.
  kernel::KernelExtents sizes = {0, 0, 0};
  Value queryLen, keyLen;
  SmallVector<kernel::Extent, 4> maskDims;

  /// Unpacks the kernel's arguments at the entry and binds the sizes.
  KernelArguments unpackArguments(Block &entry);
};

} // namespace mlir::attn::ccgrad

#endif // ATTNOPT_LIB_CONVERSION_ATTNTOGPU_CUDACOREGRADEMITTER_H
