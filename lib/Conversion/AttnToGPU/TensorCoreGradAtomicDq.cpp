//===- TensorCoreGradAtomicDq.cpp - the backward's atomic dQ --------------===//
//
// The atomic dQ of the tensor-core backward's dkdv_dq kernel
// (TensorCoreGradEmitter.h): dSᵀ to shared memory, dQ = dS K per warp tile
// with mma.sync, and the f32 reductions into dq_accum (red.global.add, v4 on
// sm_90 after a pair swap between lanes); the wgmma kernel shares the
// reductions (addToDqAccum) or, where the staging tile fits
// (KernelSpec::bulkDq), stages its dQ columns in shared memory for bulk
// reductions (stageDqColumns, addStagedDq).
//
//===----------------------------------------------------------------------===//

#include "InlinePtx.h"
#include "TensorCoreGradEmitter.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"

#include <algorithm>

using namespace mlir;
using namespace mlir::attn;
using tcgrad::GradEmitter;

Value GradEmitter::dqAccumAt(Value row, Value col) {
  Type i64 = b.getI64Type();
  Value r = arith::IndexCastUIOp::create(b, loc, i64, row);
  Value c = arith::IndexCastUIOp::create(b, loc, i64, col);
  Value lin = arith::AddIOp::create(
      b, loc,
      arith::MulIOp::create(b, loc, r,
                            arith::ConstantIntOp::create(b, loc, i64, headDim)),
      c);
  return LLVM::GEPOp::create(b, loc, args.dqAccum.getType(), b.getF32Type(),
                             args.dqAccum, ValueRange{lin});
}

void GradEmitter::atomicAdd(Value ptr, int64_t byteOffset, Value v) {
  // red (no result) with the byte offset in the address operand; LLVM's
  // atomicrmw fadd gives atom.global.add.f32 with the offset added apart,
  // and has no form of the vector reduction below.
  ptx::statement(b, loc,
                 "red.global.add.f32 [$0+" + Twine(byteOffset) + "], $1;",
                 "l,f", ValueRange{ptr, v});
}

std::array<Value, 4> GradEmitter::quadOfPairs(const Frag &c, Value odd) {
  // Even threads keep row g (c0, c1) and take the partner's row-g pair; odd
  // threads keep row g + 8 (c2, c3) and take the partner's row-g + 8 pair.
  auto pick = [&](Value ifOdd, Value ifEven) -> Value {
    return arith::SelectOp::create(b, loc, odd, ifOdd, ifEven);
  };
  Value got0 = shflXor(pick(c[0], c[2]), 1);
  Value got1 = shflXor(pick(c[1], c[3]), 1);
  return {pick(got0, c[0]), pick(got1, c[1]), pick(c[2], got0),
          pick(c[3], got1)};
}

void GradEmitter::atomicAdd4(Value ptr, int64_t byteOffset,
                             const std::array<Value, 4> &v) {
  ptx::statement(b, loc,
                 "red.global.add.v4.f32 [$0+" + Twine(byteOffset) +
                     "], {$1, $2, $3, $4};",
                 "l,f,f,f,f", ValueRange{ptr, v[0], v[1], v[2], v[3]});
}

void GradEmitter::storeTransposedScores(Value dsS,
                                        const std::array<Value, 4> &a,
                                        int64_t kk) {
  Value key = add(mul(warp, 16), g);
  Value col = add(t4, 8 * kk);
  memref::StoreOp::create(b, loc, a[0], dsS, ValueRange{key, col});
  memref::StoreOp::create(b, loc, a[1], dsS, ValueRange{add(key, 8), col});
  memref::StoreOp::create(b, loc, a[2], dsS, ValueRange{key, add(col, 4)});
  memref::StoreOp::create(b, loc, a[3], dsS,
                          ValueRange{add(key, 8), add(col, 4)});
}

void GradEmitter::emitAtomicDq(Value dsBase, int64_t dsStride, Value kBase,
                               Value paddedRow0, int64_t keys) {
  // Warp tiles of 32 query rows (two m-tiles) x D / (warps / 2) columns,
  // computed in chunks of up to 32 columns: per k-step two dS and one or two
  // K ldmatrix feed four or eight mma.sync (16-row tiles re-reading dS for
  // every 16 columns needed one ldmatrix per mma.sync).
  const int64_t colsPerWarp = headDim * 2 / (threads / 32);
  const int64_t chunk = std::min<int64_t>(32, colsPerWarp);
  Value row0 = mul(remu(warp, 2), 32);
  Value col0 = mul(divu(warp, 2), colsPerWarp);
  // A operand from a [k][m] tile (ldmatrix.trans): lane l -> key row
  // 16kk + l % 8 + 8 (l / 16), query column row0 + 16m + 8 ((l / 8) % 2).
  Value aOff =
      mul(add(mul(add(remu(lane, 8), mul(divu(lane, 16), 8)), dsStride),
              add(mul(remu(divu(lane, 8), 2), 8), row0)),
          kOperandBytes);
  Value bTOff = add(bTransLaneOffset(strideQK), mul(col0, kOperandBytes));
  Frag zero{f32(0.0f), f32(0.0f), f32(0.0f), f32(0.0f)};
  for (int64_t c0 = 0; c0 < colsPerWarp; c0 += chunk) {
    SmallVector<Frag> acc(2 * chunk / 8, zero); // [m][n-tile]
    for (int64_t kk = 0; kk < keys / 16; ++kk) {
      std::array<Value, 4> da[2];
      for (int64_t m = 0; m < 2; ++m)
        da[m] = ldmatrix4(add(add(dsBase, aOff),
                              (16 * kk * dsStride + 16 * m) * kOperandBytes),
                          true);
      for (int64_t np = 0; np < chunk / 16; ++np) {
        auto kr =
            ldmatrix4(add(add(kBase, bTOff),
                          (16 * kk * strideQK + c0 + 16 * np) * kOperandBytes),
                      true);
        for (int64_t m = 0; m < 2; ++m) {
          Frag &lo = acc[m * chunk / 8 + 2 * np];
          Frag &hi = acc[m * chunk / 8 + 2 * np + 1];
          lo = mma(da[m], kr[0], kr[1], lo);
          hi = mma(da[m], kr[2], kr[3], hi);
        }
      }
    }
    addToDqAccum(acc, 2, add(paddedRow0, row0), add(col0, c0));
  }
}

void GradEmitter::addToDqAccum(ArrayRef<Frag> frags, int64_t mTiles, Value row0,
                               Value col0) {
  const int64_t nTiles = frags.size() / mTiles;
  // This thread's first element: row row0 + g, column col0 + 2 t4.
  Value base = dqAccumAt(add(row0, g), add(col0, mul(t4, 2)));
  // Vector reductions: threads t4 and t4 ^ 1 swap a pair (quadOfPairs), so
  // that an even t4 adds columns 2 t4 .. 2 t4 + 3 of row g and an odd one
  // columns 2 t4 - 2 .. 2 t4 + 1 of row g + 8, 16-byte aligned.
  Value odd, quadBase;
  if (spec.vectorReductions) {
    odd = arith::CmpIOp::create(b, loc, arith::CmpIPredicate::ne, remu(t4, 2),
                                idx(0));
    Value shift = arith::SelectOp::create(
        b, loc, odd,
        arith::ConstantIntOp::create(b, loc, b.getI32Type(),
                                     (8 * headDim - 2) * 4),
        arith::ConstantIntOp::create(b, loc, b.getI32Type(), 0));
    quadBase = LLVM::GEPOp::create(b, loc, base.getType(), b.getI8Type(), base,
                                   ValueRange{shift});
  }
  for (int64_t m = 0; m < mTiles; ++m)
    for (int64_t nt = 0; nt < nTiles; ++nt) {
      const Frag &f = frags[m * nTiles + nt];
      const int64_t at = 16 * m * headDim + 8 * nt;
      if (quadBase) {
        atomicAdd4(quadBase, at * 4, quadOfPairs(f, odd));
        continue;
      }
      for (int64_t e = 0; e < 4; ++e)
        atomicAdd(base, (at + 8 * (e / 2) * headDim + e % 2) * 4, f[e]);
    }
}

GradEmitter::BulkDqStaging
GradEmitter::bulkDqStaging(const KeyBlockLayout &layout, bool withDq) {
  assert((!withDq || spec.bulkDq == layout.dqStaging.has_value()) &&
         "the manifest's dq_accum order is the kernel's");
  if (!withDq || !spec.bulkDq)
    return {};
  return {layout.dqStaging,
          cmp(arith::CmpIPredicate::eq, remu(tid, 128), idx(0))};
}

void GradEmitter::stageDqColumns(int64_t staging, ArrayRef<Frag> frags,
                                 Value col0) {
  // Fragment f is the 16 bytes of thread t (of the warpgroup) in column
  // block col0 / 8 + f.
  Value tile = view(staging, {tcgrad::kBlock * headDim}, b.getF32Type());
  auto quadTy = VectorType::get({4}, b.getF32Type());
  Value first = add(mul(divu(col0, 8), tcgrad::kDqColumnBlockFloats),
                    mul(remu(tid, 128), 4));
  for (auto [f, frag] : llvm::enumerate(frags)) {
    Value quad =
        vector::FromElementsOp::create(b, loc, quadTy, ValueRange(frag));
    vector::StoreOp::create(
        b, loc, quad, tile,
        ValueRange{
            add(first, static_cast<int64_t>(f) * tcgrad::kDqColumnBlockFloats)},
        /*nontemporal=*/false, llvm::MaybeAlign(16));
  }
}

void GradEmitter::addStagedDq(int64_t staging, Value wgIdx, Value leader,
                              Value tileRow,
                              ArrayRef<std::pair<Value, int64_t>> chunks) {
  // The stores reach the async proxy that the bulk copies read through.
  fenceProxyAsync();
  namedBarrier(NamedBarrier::DqStaged, wgIdx, 128);
  emitIf(leader, [&] {
    // Columns c0 .. c0 + width of a 64-row tile in fragment order are the
    // 64 width floats from 64 c0 on, in shared memory as in dq_accum.
    Value tileBase = dqAccumAt(tileRow, idx(0));
    for (auto [c0, width] : chunks) {
      Value at = arith::IndexCastUIOp::create(b, loc, b.getI64Type(),
                                              mul(c0, tcgrad::kBlock));
      Value dst = LLVM::GEPOp::create(b, loc, tileBase.getType(),
                                      b.getF32Type(), tileBase, ValueRange{at});
      bulkReduceAddF32(dst,
                       add(add(smemBase, staging), mul(c0, 4 * tcgrad::kBlock)),
                       tcgrad::kBlock * width * 4);
    }
    bulkCommitGroup();
  });
}
