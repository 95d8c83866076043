//===- TensorCoreEpilogue.cpp - the tensor-core forward's epilogues -------===//
//
// The end of the tensor-core forward (TensorCoreEmitter.h): O / l staged
// through the warp's own rows of the Q tile and stored in 16-byte chunks,
// and lse; for a split-KV group's split_kv stage, the chunk's O / l and lse
// to the f32 workspaces instead.
//
//===----------------------------------------------------------------------===//

#include "TensorCoreEmitter.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/LLVMIR/NVVMDialect.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"

using namespace mlir;
using namespace mlir::attn;
using kernel::kLn2;
using kernel::kNegInf;
using tc::TensorCoreEmitter;

std::pair<Value, SmallVector<Value, 2>>
TensorCoreEmitter::staged(Value row, Value chunk, int64_t inChunk) {
  if (!wgmma)
    return {qS, {row, add(mul(chunk, chunkElements()), inChunk)}};
  // The SW128 offset of (row, 8 chunk + inChunk) in the Q tile: the warp's
  // own rows in every panel.
  Value slot = arith::XOrIOp::create(b, loc, remu(chunk, 8), remu(row, 8));
  Value tileStart =
      persistent ? divu(queryTileOffset(), eltBytes) : idx(qOff / eltBytes);
  return {tiles,
          {add(add(tileStart, mul(divu(chunk, 8), 64 * blockQ)),
               add(mul(row, 64), add(mul(slot, 8), inChunk)))}};
}

void TensorCoreEmitter::emitPartialEpilogue(ArrayRef<Value> finalState) {
  // Row slot i = 2mt + r: the chunk's O / l (0 when l == 0) straight from
  // the fragments, two f32 per store (columns 8nt + 2t, + 1), and its lse
  // (-inf without keys), to the partials' row partialRowBase + row.
  auto pairTy = VectorType::get({2}, b.getF32Type());
  for (int64_t i = 0; i < nRows; ++i) {
    int64_t mt = i / 2, r = i % 2;
    Value m = finalState[i], l = finalState[nRows + i];
    l = fadd(l, shflXor(l, 1));
    l = fadd(l, shflXor(l, 2));
    emitIf(lessThan(rows[i], queryLen), [&] {
      Value isEmpty = arith::CmpFOp::create(b, loc, arith::CmpFPredicate::OEQ,
                                            l, f32(0.0f));
      Value inv =
          arith::SelectOp::create(b, loc, isEmpty, f32(0.0f),
                                  arith::DivFOp::create(b, loc, f32(1.0f), l));
      Value row = add(partialRowBase, rows[i]);
      Value rowStart = mul(row, valueDim);
      for (int64_t nt = 0; nt < valueDim / 8; ++nt) {
        Value pair = vector::FromElementsOp::create(
            b, loc, pairTy,
            ValueRange{fmul(finalState[oIndex(mt, nt, 2 * r)], inv),
                       fmul(finalState[oIndex(mt, nt, 2 * r + 1)], inv)});
        vector::StoreOp::create(
            b, loc, pair, partialOutput,
            ValueRange{add(rowStart, add(mul(t4, 2), 8 * nt))},
            /*nontemporal=*/false, llvm::MaybeAlign(8));
      }
      emitIf(
          arith::CmpIOp::create(b, loc, arith::CmpIPredicate::eq, t4, idx(0)),
          [&] {
            Value noKey = arith::CmpFOp::create(
                b, loc, arith::CmpFPredicate::OEQ, m, f32(kNegInf));
            Value v = arith::SelectOp::create(
                b, loc, noKey, f32(kNegInf),
                fmul(fadd(m, math::Log2Op::create(b, loc, l)), f32(kLn2)));
            memref::StoreOp::create(b, loc, v, partialLse, row);
          });
    });
  }
}

void TensorCoreEmitter::emitEpilogue(ArrayRef<Value> finalState) {
  if (splitKV) {
    emitPartialEpilogue(finalState);
    if (roles)
      b.setInsertionPointAfter(roles);
    return;
  }
  // wgmma: the warpgroup's wgmmas, which read all 64 of its Q rows, must
  // have retired in every one of its warps before a warp overwrites its own
  // rows.
  if (wgmma)
    namedBarrier(NamedBarrier::WarpgroupEpilogue, divu(warp, 4), 128);
  else
    // mma.sync: the warp's lanes overwrite Q rows that other lanes read
    // (ldmatrix). A block with visible key blocks has passed block
    // barriers since; one without any (a sequence with no keys, rows that
    // causal or window rules leave nothing) has not, and racecheck reports
    // the write-after-read within the warp (H200, 2026-12-02).
    NVVM::SyncWarpOp::create(b, loc, i32c(-1));
  // Epilogue. Row slot i = 2mt + r of this thread: O[mt][nt][2r],
  // O[mt][nt][2r + 1] at dv 8nt + 2t + {0, 1}. The normalized O goes through
  // this warp's own rows of the Q tile (only this warp ever reads them, and
  // its last read has completed: no block barrier), then to global memory in
  // 16-byte stores of whole row segments.
  for (int64_t i = 0; i < nRows; ++i) {
    int64_t mt = i / 2, r = i % 2;
    Value m = finalState[i], l = finalState[nRows + i];
    l = fadd(l, shflXor(l, 1));
    l = fadd(l, shflXor(l, 2));
    Value isEmpty =
        arith::CmpFOp::create(b, loc, arith::CmpFPredicate::OEQ, l, f32(0.0f));
    Value inv =
        arith::SelectOp::create(b, loc, isEmpty, f32(0.0f),
                                arith::DivFOp::create(b, loc, f32(1.0f), l));
    Value smemRow = add(tileRow0(mt), add(g, 8 * r));
    auto pairTy = VectorType::get({2}, elt);
    // Only O's real columns (not the tile's padding) are staged; n-tile nt
    // starts at 16-byte chunk nt * 8 / chunkElements.
    for (int64_t nt = 0; nt < valueDim / 8; ++nt) {
      Value lo = fmul(finalState[oIndex(mt, nt, 2 * r)], inv);
      Value hi = fmul(finalState[oIndex(mt, nt, 2 * r + 1)], inv);
      auto rounded = [&](Value x) -> Value {
        return elt.isF32() ? x : arith::TruncFOp::create(b, loc, elt, x);
      };
      Value pair = vector::FromElementsOp::create(
          b, loc, pairTy, ValueRange{rounded(lo), rounded(hi)});
      auto [buffer, at] = staged(smemRow, idx(nt * 8 / chunkElements()), 0);
      at.back() = add(at.back(), mul(t4, 2));
      vector::StoreOp::create(b, loc, pair, buffer, at,
                              /*nontemporal=*/false,
                              llvm::MaybeAlign(2 * eltBytes));
    }
    if (lse) {
      Value valid = lessThan(rows[i], queryLen);
      Value first =
          arith::CmpIOp::create(b, loc, arith::CmpIPredicate::eq, t4, idx(0));
      emitIf(arith::AndIOp::create(b, loc, valid, first), [&] {
        // m is in the log2 domain: lse = (m + log2 l) * ln 2.
        Value noKey = arith::CmpFOp::create(b, loc, arith::CmpFPredicate::OEQ,
                                            m, f32(kNegInf));
        Value v = arith::SelectOp::create(
            b, loc, noKey, f32(kNegInf),
            fmul(fadd(m, math::Log2Op::create(b, loc, l)), f32(kLn2)));
        memref::StoreOp::create(b, loc, v, lse, add(lseBase, rows[i]));
      });
    }
  }
  NVVM::SyncWarpOp::create(b, loc, i32c(-1));
  // Lane l copies 16-byte chunks l, l + 32, ... of the warp's rows x Dv tile.
  const int64_t chunksPerRow = valueDim / chunkElements();
  auto chunkTy = VectorType::get({chunkElements()}, elt);
  auto storeChunk = [&](Value warpRow, Value chunkIdx, Value col) {
    Value smemRow = add(warpRow0, warpRow);
    Value row = add(q0, smemRow);
    emitIf(lessThan(row, queryLen), [&] {
      auto [buffer, from] = staged(smemRow, chunkIdx, 0);
      Value chunk =
          vector::LoadOp::create(b, loc, chunkTy, buffer, from,
                                 /*nontemporal=*/false, llvm::MaybeAlign(16));
      Value at = add(mul(globalRow({qRowBase, qRowStep}, row), valueDim), col);
      vector::StoreOp::create(b, loc, chunk, out, ValueRange{at},
                              /*nontemporal=*/false, llvm::MaybeAlign(16));
    });
  };
  if (32 % chunksPerRow == 0) {
    // A lane keeps its column; rows advance by a constant per pass.
    const int64_t rowsPerPass = 32 / chunksPerRow;
    Value cRow = divu(lane, chunksPerRow);
    Value cChunk = remu(lane, chunksPerRow),
          cCol = mul(cChunk, chunkElements());
    for (int64_t pass = 0; pass < rowsPerWarp / rowsPerPass; ++pass)
      storeChunk(add(cRow, pass * rowsPerPass), cChunk, cCol);
  } else {
    // Dv such as 80 or 96: chunk c = lane + 32 pass of the warp's
    // rowsPerWarp x chunksPerRow chunks; a last, partial pass is guarded.
    forEachInPasses(lane, 32, rowsPerWarp * chunksPerRow, [&](Value c, bool) {
      Value chunk = remu(c, chunksPerRow);
      storeChunk(divu(c, chunksPerRow), chunk, mul(chunk, chunkElements()));
    });
  }
  // (A persistent kernel leaves the consumers' branch after its tile loop.)
  if (roles && !persistent)
    b.setInsertionPointAfter(roles);
}
