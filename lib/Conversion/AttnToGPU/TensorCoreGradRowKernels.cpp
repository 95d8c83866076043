//===- TensorCoreGradRowKernels.cpp - prep and dq_convert -----------------===//
//
// The tensor-core backward's kernels over query blocks without tensor cores
// (TensorCoreGradEmitter.h): prep (D_i = dO_i · O_i and lse·log2(e) per
// query row, and the zeroed dQ accumulator of the atomic group) and
// dq_convert (grad_query = dq_accum · scale in the element type), with the
// row dot products D_i that the dq kernel also computes.
//
//===----------------------------------------------------------------------===//

#include "TensorCoreGradEmitter.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"

#include <numeric>

using namespace mlir;
using namespace mlir::attn;
using tcgrad::GradEmitter;

Value GradEmitter::partialRowDot(Value rowC, Value col0, int64_t cols,
                                 function_ref<Value(Value)> loadDO) {
  Value sum = f32(0.0f);
  for (int64_t c = 0; c < cols; c += 8)
    sum = chunkDot(rowC, add(col0, c), loadDO, sum);
  return sum;
}

Value GradEmitter::stridedRowDot(Value rowC, Value firstChunk, int64_t step,
                                 function_ref<Value(Value)> loadDO) {
  const int64_t chunks = valueDim / 8;
  Value sum = f32(0.0f);
  for (int64_t pass = 0; pass * step < chunks; ++pass) {
    Value chunk = add(firstChunk, pass * step);
    if ((pass + 1) * step <= chunks) {
      sum = chunkDot(rowC, mul(chunk, 8), loadDO, sum);
      continue;
    }
    // A last, partial pass: threads past the row re-read its last chunk and
    // add nothing.
    Value dot =
        chunkDot(rowC, mul(minS(chunk, chunks - 1), 8), loadDO, f32(0.0f));
    sum = fadd(sum, arith::SelectOp::create(b, loc, ltC(chunk, chunks), dot,
                                            f32(0.0f)));
  }
  return sum;
}

Value GradEmitter::chunkDot(Value rowC, Value col,
                            function_ref<Value(Value)> loadDO, Value sum) {
  auto chunkTy = VectorType::get({8}, elt);
  Value o = vector::LoadOp::create(b, loc, chunkTy, args.output,
                                   ValueRange{add(mul(rowC, valueDim), col)},
                                   /*nontemporal=*/false, llvm::MaybeAlign(16));
  Value d = loadDO(col);
  for (int64_t e = 0; e < 8; ++e) {
    Value oElt = vector::ExtractOp::create(b, loc, o, e);
    Value dElt = vector::ExtractOp::create(b, loc, d, e);
    Value oe = arith::ExtFOp::create(b, loc, b.getF32Type(), oElt);
    Value de = arith::ExtFOp::create(b, loc, b.getF32Type(), dElt);
    sum = fmaC(oe, de, sum);
  }
  return sum;
}

void GradEmitter::emitPrep(gpu::GPUFuncOp func) {
  QueryBlock qb = setUpQueryBlock(func);
  Value q0 = qb.q0, paddedRow0 = qb.paddedRow0;
  scf::IfOp live = enterLiveBlock([&] { return q0; }, queryLen);
  auto chunkTy = VectorType::get({8}, elt);

  // Two threads per row, each over half of Dv (whole 8-column chunks: Dv a
  // multiple of 16), else every other chunk.
  Value r = divu(tid, 2), part = remu(tid, 2);
  Value query = add(q0, r);
  Value valid = lessThan(query, queryLen);
  Value queryC = clampToLast(query, queryLen);
  Value rowC = globalRow(qb.rows, queryC);
  auto loadDO = [&](Value col) -> Value {
    return vector::LoadOp::create(b, loc, chunkTy, args.gradOutput,
                                  ValueRange{add(mul(rowC, valueDim), col)},
                                  /*nontemporal=*/false, llvm::MaybeAlign(16));
  };
  Value dot = valueDim % 16 == 0 ? partialRowDot(rowC, mul(part, valueDim / 2),
                                                 valueDim / 2, loadDO)
                                 : stridedRowDot(rowC, part, 2, loadDO);
  dot = fadd(dot, shflXor(dot, 1));
  Value first =
      arith::CmpIOp::create(b, loc, arith::CmpIPredicate::eq, part, idx(0));
  emitIf(first, [&] {
    Value at = add(paddedRow0, r);
    memref::StoreOp::create(
        b, loc, arith::SelectOp::create(b, loc, valid, dot, f32(0.0f)),
        args.rowDot, at);
    memref::StoreOp::create(b, loc, lseLog2(lseIndex(qb.h, queryC), valid),
                            args.lseLog2, at);
  });

  if (args.dqAccum) {
    // Zero the block's kBlock x D accumulator rows, 4 floats per store.
    auto quadTy = VectorType::get({4}, b.getF32Type());
    Value zeros = arith::ConstantOp::create(
        b, loc, DenseElementsAttr::get(quadTy, b.getF32FloatAttr(0.0f)));
    const int64_t quadsPerRow = headDim / 4;
    forEachInPasses(kBlock * quadsPerRow, [&](Value quad) {
      Value ptr = dqAccumAt(add(paddedRow0, divu(quad, quadsPerRow)),
                            mul(remu(quad, quadsPerRow), 4));
      LLVM::StoreOp::create(b, loc, zeros, ptr, /*alignment=*/16);
    });
  }
  leaveLiveBlock(live);
  gpu::ReturnOp::create(b, loc);
}

void GradEmitter::emitDqConvert(gpu::GPUFuncOp func) {
  QueryBlock qb = setUpQueryBlock(func);
  Value q0 = qb.q0, paddedRow0 = qb.paddedRow0;
  scf::IfOp live = enterLiveBlock([&] { return q0; }, queryLen);
  auto quadTy = VectorType::get({4}, b.getF32Type());
  auto outTy = VectorType::get({8}, elt);
  auto wideTy = VectorType::get({8}, b.getF32Type());
  Value scale = arith::ConstantOp::create(
      b, loc, DenseElementsAttr::get(wideTy, b.getF32FloatAttr(mods.scale)));
  // grad_query[row q0 + r, col ..] = 8 f32 `wide` · scale (the row inside
  // the query length).
  auto storeRow = [&](Value r, Value col, Value wide) {
    Value v = arith::TruncFOp::create(
        b, loc, outTy, arith::MulFOp::create(b, loc, wide, scale));
    vector::StoreOp::create(
        b, loc, v, args.gradQuery,
        ValueRange{add(mul(globalRow(qb.rows, add(q0, r)), headDim), col)},
        /*nontemporal=*/false, llvm::MaybeAlign(16));
  };
  const int64_t octsPerRow = headDim / 8;
  if (spec.bulkDq) {
    // Fragment order (kDqColumnBlockFloats): the 16 floats from block cb, 16 p
    // on, of the tile hold columns 8 cb .. 8 cb + 7 of rows r = 16 (p / 8) + p
    // % 8 and r + 8, as four (row r pair, row r + 8 pair) quads. Thread tid
    // takes one such (p, cb) per pass, cb fastest: 64 contiguous bytes in,
    // two 16-byte row pieces out.
    Value tile = dqAccumAt(paddedRow0, idx(0));
    forEachInPasses(32 * octsPerRow, [&](Value item) {
      Value cb = remu(item, octsPerRow), p = divu(item, octsPerRow);
      Value first = add(mul(cb, tcgrad::kDqColumnBlockFloats), mul(p, 16));
      SmallVector<Value, 4> quads;
      for (int64_t j = 0; j < 4; ++j) {
        Value at = arith::IndexCastUIOp::create(b, loc, b.getI64Type(),
                                                add(first, 4 * j));
        quads.push_back(LLVM::LoadOp::create(
            b, loc, quadTy,
            LLVM::GEPOp::create(b, loc, tile.getType(), b.getF32Type(), tile,
                                ValueRange{at}),
            /*alignment=*/16));
      }
      auto cat = [&](Value x, Value y, int64_t n) {
        SmallVector<int64_t> all(2 * n);
        std::iota(all.begin(), all.end(), 0);
        return vector::ShuffleOp::create(b, loc, x, y, all).getResult();
      };
      Value all =
          cat(cat(quads[0], quads[1], 4), cat(quads[2], quads[3], 4), 8);
      Value r = add(mul(divu(p, 8), 16), remu(p, 8)), col = mul(cb, 8);
      for (int64_t hi = 0; hi < 2; ++hi) {
        Value row = add(r, 8 * hi);
        emitIf(lessThan(add(q0, row), queryLen), [&] {
          SmallVector<int64_t> picks;
          for (int64_t j = 0; j < 4; ++j)
            picks.append({4 * j + 2 * hi, 4 * j + 2 * hi + 1});
          storeRow(row, col,
                   vector::ShuffleOp::create(b, loc, all, all, picks));
        });
      }
    });
    leaveLiveBlock(live);
    gpu::ReturnOp::create(b, loc);
    return;
  }
  // Row-major: thread tid converts 8 consecutive elements per pass.
  forEachInPasses(kBlock * octsPerRow, [&](Value oct) {
    Value r = divu(oct, octsPerRow), col = mul(remu(oct, octsPerRow), 8);
    emitIf(lessThan(add(q0, r), queryLen), [&] {
      Value ptr = dqAccumAt(add(paddedRow0, r), col);
      Value lo = LLVM::LoadOp::create(b, loc, quadTy, ptr, /*alignment=*/16);
      Value hi = LLVM::LoadOp::create(
          b, loc, quadTy,
          LLVM::GEPOp::create(b, loc, ptr.getType(), b.getF32Type(), ptr,
                              ArrayRef<LLVM::GEPArg>{4}),
          /*alignment=*/16);
      Value wide = vector::ShuffleOp::create(
          b, loc, lo, hi, ArrayRef<int64_t>{0, 1, 2, 3, 4, 5, 6, 7});
      storeRow(r, col, wide);
    });
  });
  leaveLiveBlock(live);
  gpu::ReturnOp::create(b, loc);
}
