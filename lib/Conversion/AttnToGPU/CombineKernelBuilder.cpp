//===- CombineKernelBuilder.cpp - merge split-KV chunks by their lse ------===//
//
// The combine stage of a split-KV forward group (docs/kernel-manifest.md,
// "Split-KV forward groups"): grid (ceil(Hq Lq / 4), B), one warp per output
// row r = (h, t) of batch b. Chunk s left its normalised output O_s and its
// log-sum-exp lse_s (−inf for a chunk without keys, whose O_s is 0); the row
// is
//   m = max_s lse_s,  w_s = exp(lse_s − m),  lse = m + log Σ_s w_s,
//   O = Σ_s w_s O_s / Σ_s w_s,
// exact up to f32 rounding (each O_s is already divided by its own sum, so
// the weights are the chunks' shares of the row's total), and O = 0,
// lse = −inf when every chunk is empty. Every lane reads all the lse_s (at
// most 64, from L2) and accumulates columns lane, lane + 32, ... of O over
// the chunks; the work is a few reads per output element, far below the
// split_kv stage's K and V traffic.
//
//===----------------------------------------------------------------------===//

#include "KernelArguments.h"
#include "KernelCommon.h"
#include "SplitKV.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"

using namespace mlir;
using namespace mlir::attn;

namespace {

class CombineEmitter : public kernel::ScalarOps {
public:
  CombineEmitter(OpBuilder &b, Location loc, const splitkv::CombineLayout &l,
                 const KernelSpec &spec)
      : ScalarOps(b, loc), layout(l), spec(spec) {}

  void emit(gpu::GPUFuncOp func) {
    Block &entry = func.getBody().front();
    b.setInsertionPointToStart(&entry);
    args = KernelArguments::unpack(entry, spec);
    if (args.numSplits)
      splitsAtLaunch = arith::IndexCastUIOp::create(b, loc, b.getIndexType(),
                                                    args.numSplits);
    rowsPerBatch = layout.rowsPerBatch;
    valueDim = layout.valueDim;
    Value tid = gpu::ThreadIdOp::create(b, loc, gpu::Dimension::x);
    Value warp = divu(tid, 32);
    lane = remu(tid, 32);
    Value row = add(mul(gpu::BlockIdOp::create(b, loc, gpu::Dimension::x),
                        idx(splitkv::kCombineRowsPerBlock)),
                    warp);
    batch = gpu::BlockIdOp::create(b, loc, gpu::Dimension::y);
    auto live = scf::IfOp::create(
        b, loc,
        arith::CmpIOp::create(b, loc, arith::CmpIPredicate::ult, row,
                              idx(rowsPerBatch)),
        /*withElseRegion=*/false);
    b.setInsertionPoint(live.thenBlock()->getTerminator());
    emitRow(row);
    b.setInsertionPointAfter(live);
    gpu::ReturnOp::create(b, loc);
  }

private:
  /// The chunk count: static, or the num_splits argument.
  Value splits() { return splitsAtLaunch ? splitsAtLaunch : idx(spec.splits); }
  /// Chunk s's row of the partials: of [B, S, Hq, Lq] in a group, of
  /// [S, rows] for attn.merge_partials (batch 0).
  Value partialRow(Value s, Value row) {
    if (layout.splitMajor)
      return add(mul(s, idx(rowsPerBatch)), row);
    return add(mul(add(mul(batch, splits()), s), idx(rowsPerBatch)), row);
  }
  Value partialLse(Value s, Value row) {
    return memref::LoadOp::create(b, loc, args.partialLse,
                                  ValueRange{partialRow(s, row)});
  }
  /// scf.for over the chunks carrying `init`.
  SmallVector<Value>
  overChunks(ValueRange init,
             function_ref<SmallVector<Value>(Value, ValueRange)> body) {
    auto loop = scf::ForOp::create(b, loc, idx(0), splits(), idx(1), init);
    OpBuilder::InsertionGuard guard(b);
    b.setInsertionPointToStart(loop.getBody());
    scf::YieldOp::create(
        b, loc, body(loop.getInductionVar(), loop.getRegionIterArgs()));
    return SmallVector<Value>(loop.getResults());
  }

  void emitRow(Value row) {
    Value m = overChunks({f32(kernel::kNegInf)}, [&](Value s, ValueRange acc) {
      return SmallVector<Value>{
          arith::MaximumFOp::create(b, loc, acc[0], partialLse(s, row))};
    })[0];
    Value empty = arith::CmpFOp::create(b, loc, arith::CmpFPredicate::OEQ, m,
                                        f32(kernel::kNegInf));
    Value mSafe = arith::SelectOp::create(b, loc, empty, f32(0.0f), m);
    // Columns lane + 32 j of O, j < cols; the last may run past Dv.
    const int64_t cols = (valueDim + 31) / 32;
    SmallVector<Value> init(cols + 1, f32(0.0f)); // O columns, then sum w_s
    SmallVector<Value> acc = overChunks(init, [&](Value s, ValueRange state) {
      Value lseS = partialLse(s, row);
      Value w = math::ExpOp::create(b, loc,
                                    arith::SubFOp::create(b, loc, lseS, mSafe));
      Value emptyChunk;
      if (layout.ignoreEmptyOutputs)
        emptyChunk = arith::CmpFOp::create(b, loc, arith::CmpFPredicate::OEQ,
                                           lseS, f32(kernel::kNegInf));
      SmallVector<Value> next;
      Value base = mul(partialRow(s, row), idx(valueDim));
      for (int64_t j = 0; j < cols; ++j) {
        Value col = add(lane, idx(32 * j));
        // Past Dv: read column 0 (in bounds), never stored.
        if ((j + 1) * 32 > valueDim)
          col = arith::SelectOp::create(b, loc, columnExists(col), col, idx(0));
        Value o = memref::LoadOp::create(b, loc, args.partialOutput,
                                         ValueRange{add(base, col)});
        if (!o.getType().isF32())
          o = arith::ExtFOp::create(b, loc, b.getF32Type(), o);
        Value sum = fma(w, o, state[j]);
        // A chunk with lse -inf adds nothing, whatever its output holds
        // (attn.merge_partials: a user's empty partial may be NaN; a
        // group's empty chunks write 0, so w = 0 serves there).
        if (layout.ignoreEmptyOutputs)
          sum = arith::SelectOp::create(b, loc, emptyChunk, state[j], sum);
        next.push_back(sum);
      }
      next.push_back(arith::AddFOp::create(b, loc, state[cols], w));
      return next;
    });
    Value sum = acc[cols];
    Value inv =
        arith::SelectOp::create(b, loc, empty, f32(0.0f),
                                arith::DivFOp::create(b, loc, f32(1.0f), sum));
    Value outRow = add(mul(batch, idx(rowsPerBatch)), row);
    Type elt = layout.outputType;
    for (int64_t j = 0; j < cols; ++j) {
      Value col = add(lane, idx(32 * j));
      auto store = [&] {
        Value o = arith::MulFOp::create(b, loc, acc[j], inv);
        if (elt != o.getType())
          o = arith::TruncFOp::create(b, loc, elt, o);
        memref::StoreOp::create(
            b, loc, o, args.output,
            ValueRange{add(mul(outRow, idx(valueDim)), col)});
      };
      if ((j + 1) * 32 > valueDim)
        emitIf(columnExists(col), store);
      else
        store();
    }
    if (args.lse)
      emitIf(
          arith::CmpIOp::create(b, loc, arith::CmpIPredicate::eq, lane, idx(0)),
          [&] {
            Value lse = arith::SelectOp::create(
                b, loc, empty, f32(kernel::kNegInf),
                arith::AddFOp::create(b, loc, mSafe,
                                      math::LogOp::create(b, loc, sum)));
            memref::StoreOp::create(b, loc, lse, args.lse, ValueRange{outRow});
          });
  }

  Value columnExists(Value col) {
    return arith::CmpIOp::create(b, loc, arith::CmpIPredicate::ult, col,
                                 idx(valueDim));
  }

  const splitkv::CombineLayout &layout;
  const KernelSpec &spec;
  KernelArguments args;
  int64_t rowsPerBatch = 0, valueDim = 0;
  Value lane, batch;
  Value splitsAtLaunch; ///< the num_splits argument as an index, or null
};

} // namespace

splitkv::CombineLayout
splitkv::CombineLayout::ofGroup(AttentionOpInterface op) {
  RankedTensorType q = op.getQueryType();
  CombineLayout l;
  l.rowsPerBatch = q.getDimSize(1) * q.getDimSize(2);
  l.valueDim = op.getValueDimSize();
  l.outputType = q.getElementType();
  return l;
}

void splitkv::emitCombineKernel(OpBuilder &b, gpu::GPUFuncOp func,
                                AttentionOpInterface op, const KernelSpec &spec) {
  CombineLayout layout = CombineLayout::ofGroup(op);
  CombineEmitter(b, op.getLoc(), layout, spec).emit(func);
}

void splitkv::emitCombineKernel(OpBuilder &b, gpu::GPUFuncOp func, Location loc,
                                const CombineLayout &layout,
                                const KernelSpec &spec) {
  CombineEmitter(b, loc, layout, spec).emit(func);
}
