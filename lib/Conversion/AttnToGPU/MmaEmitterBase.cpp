//===- MmaEmitterBase.cpp - mma.sync building blocks ----------------------===//

#include "MmaEmitterBase.h"

#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/LLVMIR/NVVMDialect.h"
#include "mlir/Dialect/NVGPU/IR/NVGPUDialect.h"
#include "mlir/Dialect/SCF/IR/SCF.h"

using namespace mlir;
using namespace mlir::attn;

Value MmaEmitterBase::sharedPointer(Value byteAddr, bool cluster) {
  // NVVM's address spaces: 3 shared::cta, 7 shared::cluster. A
  // shared::cta address is a valid shared::cluster address of the
  // executing block (PTX ISA, "Shared memory").
  Value asI64 = arith::IndexCastUIOp::create(b, loc, b.getI64Type(), byteAddr);
  return LLVM::IntToPtrOp::create(
      b, loc, LLVM::LLVMPointerType::get(ctx, cluster ? 7 : 3), asI64);
}

std::array<Value, 4> MmaEmitterBase::ldmatrix4(Value byteAddr, bool transpose) {
  Value ptr = sharedPointer(byteAddr);
  Type i32 = b.getI32Type();
  auto structTy = LLVM::LLVMStructType::getLiteral(ctx, {i32, i32, i32, i32});
  // layout<col> selects ldmatrix...trans.
  Value res = NVVM::LdMatrixOp::create(
      b, loc, structTy, ptr, /*num=*/4u,
      transpose ? NVVM::MMALayout::col : NVVM::MMALayout::row,
      NVVM::LdStMatrixShapeAttr::get(ctx, 8, 8), NVVM::LdStMatrixEltType::B16);
  std::array<Value, 4> regs;
  for (int64_t i = 0; i < 4; ++i)
    regs[i] = LLVM::ExtractValueOp::create(b, loc, res, i);
  return regs;
}

Frag MmaEmitterBase::mma(ArrayRef<Value> a, Value b0, Value b1, const Frag &c) {
  Type f = b.getF32Type();
  auto structTy = LLVM::LLVMStructType::getLiteral(ctx, {f, f, f, f});
  auto fragment = [&](Value res) {
    Frag d;
    for (int64_t i = 0; i < 4; ++i)
      d[i] = LLVM::ExtractValueOp::create(b, loc, res, i);
    return d;
  };
  if (elt.isF32()) {
    // tf32 operands: four A and two B registers of i32 tf32 bits.
    Value res = NVVM::MmaOp::create(
        b, loc, structTy, a, ValueRange{b0, b1}, ValueRange(c),
        ArrayRef<int64_t>{16, 8, 8}, std::nullopt, std::nullopt,
        std::array<NVVM::MMATypes, 2>{NVVM::MMATypes::tf32,
                                      NVVM::MMATypes::tf32},
        std::array<NVVM::MMALayout, 2>{NVVM::MMALayout::row,
                                       NVVM::MMALayout::col});
    return fragment(res);
  }
  NVVM::MMATypes type =
      elt.isBF16() ? NVVM::MMATypes::bf16 : NVVM::MMATypes::f16;
  // bf16 operands are i32 pairs; f16 operands are vector<2xf16>.
  auto operand = [&](Value pair) -> Value {
    if (elt.isBF16())
      return pair;
    return LLVM::BitcastOp::create(b, loc, VectorType::get({2}, b.getF16Type()),
                                   pair);
  };
  SmallVector<Value> av, bv = {operand(b0), operand(b1)};
  for (Value v : a)
    av.push_back(operand(v));
  Value res = NVVM::MmaOp::create(
      b, loc, structTy, av, bv, ValueRange(c), ArrayRef<int64_t>{16, 8, 16},
      std::nullopt, std::nullopt, std::array<NVVM::MMATypes, 2>{type, type},
      std::array<NVVM::MMALayout, 2>{NVVM::MMALayout::row,
                                     NVVM::MMALayout::col});
  return fragment(res);
}

Value MmaEmitterBase::roundToTf32(Value x) {
  if (x.getType().isInteger(32))
    x = arith::BitcastOp::create(b, loc, b.getF32Type(), x);
  // cvt.rna.tf32.f32.
  return NVVM::ConvertFloatToTF32Op::create(b, loc, b.getI32Type(), x,
                                            NVVM::FPRoundingMode::RNA,
                                            NVVM::SaturationMode::NONE,
                                            /*relu=*/false);
}

Value MmaEmitterBase::warpAny(Value pred) {
  return NVVM::VoteSyncOp::create(b, loc, b.getI1Type(), i32c(-1), pred,
                                  NVVM::VoteSyncKind::any);
}

Value MmaEmitterBase::packPair(Value lo, Value hi) {
  // One cvt.rn.{bf16x2,f16x2}.f32 (d = {hi, lo}: the first source goes to
  // the upper half). Two scalar truncations joined by shift/or cost four
  // instructions per pair (two cvt.rn, widening, shift, or): a 10-15% slower
  // bf16 forward on the H200. For f16 the NVPTX backend fuses the scalar
  // form, but only sometimes (half of the pairs of the wgmma backward
  // kernel): packedF16Convert asks for the instruction. See
  // packedBF16Convert for the kernels that keep the scalar bf16 form.
  if (elt.isF16() ? packedF16Convert : packedBF16Convert) {
    Type pair = VectorType::get({2}, elt);
    Value packed =
        elt.isF16()
            ? NVVM::ConvertF32x2ToF16x2Op::create(b, loc, pair, hi, lo, Value(),
                                                  NVVM::FPRoundingMode::RN,
                                                  NVVM::SaturationMode::NONE,
                                                  /*relu=*/false)
                  .getResult()
            : NVVM::ConvertF32x2ToBF16x2Op::create(
                  b, loc, pair, hi, lo, Value(), NVVM::FPRoundingMode::RN,
                  NVVM::SaturationMode::NONE,
                  /*relu=*/false)
                  .getResult();
    return LLVM::BitcastOp::create(b, loc, b.getI32Type(), packed);
  }
  Type i16 = b.getI16Type(), i32 = b.getI32Type();
  auto bits = [&](Value v) -> Value {
    Value t = arith::TruncFOp::create(b, loc, elt, v);
    Value i = arith::BitcastOp::create(b, loc, i16, t);
    return arith::ExtUIOp::create(b, loc, i32, i);
  };
  Value h = arith::ShLIOp::create(b, loc, bits(hi), i32c(16));
  return arith::OrIOp::create(b, loc, bits(lo), h);
}

Value MmaEmitterBase::exp2(Value x) {
  // math.exp2 goes through libdevice's __nv_exp2f (non-ftz ex2 plus denormal
  // scaling); the softmax only needs the hardware instruction (MUFU.EX2).
  // ex2(-inf) = +0, which the online softmax relies on.
  return LLVM::CallIntrinsicOp::create(
             b, loc, b.getF32Type(),
             b.getStringAttr("llvm.nvvm.ex2.approx.ftz.f32"), ValueRange{x})
      .getResult(0);
}

void MmaEmitterBase::copyTile(Value global, TileRowWidth width, GlobalRows rows,
                              Value first, kernel::Extent len, int64_t tileRows,
                              Value dst, ValueRange lead,
                              SmallVectorImpl<Value> &tokens) {
  // 16-byte chunks (chunkElements: 8 f16 / bf16, 4 f32); chunk c of the
  // tile: row c / chunksPerRow, column (c % chunksPerRow) * chunkElements;
  // thread tid takes chunks tid, tid + threads, ...
  emitRowGuardedCopy(first, len, tileRows, tokens,
                     [&](bool guard, SmallVectorImpl<Value> &out) {
                       copyTileRows(global, width, rows, first, len, tileRows,
                                    dst, lead, guard, out);
                     });
}

void MmaEmitterBase::emitRowGuardedCopy(
    Value first, kernel::Extent len, int64_t tileRows,
    SmallVectorImpl<Value> &tokens,
    function_ref<void(bool, SmallVectorImpl<Value> &)> copy) {
  // Tile rows can run past `len` only if len is not a multiple of the tile
  // (the callers never copy a tile that starts at or past len); that is
  // known for a static length and for a run-time one emitted under a check
  // (Extent::knownMultipleOf).
  if (len.isStatic() || len.isMultipleOf(tileRows)) {
    copy(!len.isMultipleOf(tileRows), tokens);
    return;
  }
  // A run-time length: only a last, ragged tile needs the per-chunk clamp
  // and zero fill, so branch once per tile (block-uniform). The tokens stay
  // inside the branches (cp.async.commit_group commits them all the same).
  Value fits = arith::CmpIOp::create(b, loc, arith::CmpIPredicate::sle,
                                     add(first, tileRows), size(len));
  auto branch = scf::IfOp::create(b, loc, fits, /*withElseRegion=*/true);
  for (auto [region, guard] : {std::make_pair(&branch.getThenRegion(), false),
                               std::make_pair(&branch.getElseRegion(), true)}) {
    OpBuilder::InsertionGuard insertion(b);
    b.setInsertionPoint(region->front().getTerminator());
    SmallVector<Value> inner;
    copy(guard, inner);
  }
}

Value MmaEmitterBase::cacheToken(const GlobalRows::Pages &pages, Value r) {
  Value entry = memref::LoadOp::create(
      b, loc, pages.table, ValueRange{add(pages.tableRow, divu(r, pages.pageSize))});
  Value page = arith::IndexCastOp::create(b, loc, b.getIndexType(), entry);
  return add(mul(page, pages.pageSize), remu(r, pages.pageSize));
}

GlobalRows MmaEmitterBase::withinOnePage(const GlobalRows &rows, Value first,
                                         int64_t tileRows) {
  if (!rows.pages || rows.pages->pageSize % tileRows != 0)
    return rows;
  // Row first + i is token cacheToken(first) + i: the rows of the tile are
  // consecutive tokens (index arithmetic wraps, so the difference may be
  // negative).
  Value shift = arith::SubIOp::create(b, loc, cacheToken(*rows.pages, first),
                                      first);
  return GlobalRows(add(rows.base, mul(shift, rows.step)), rows.step);
}

void MmaEmitterBase::copyTileRows(Value global, TileRowWidth width,
                                  GlobalRows pagedRows, Value first,
                                  kernel::Extent len, int64_t tileRows,
                                  Value dst, ValueRange lead, bool guard,
                                  SmallVectorImpl<Value> &tokens) {
  const GlobalRows rows = withinOnePage(pagedRows, first, tileRows);
  const int64_t chunksPerRow = width.tileCols / chunkElements();
  // Tile row r, the chunk whose column is dstCol (its source column and
  // validity from sourceColumn).
  auto copyAt = [&](Value r, Value dstCol, std::pair<Value, Value> src,
                    SmallVectorImpl<Value> &out) {
    auto [srcRow, srcElements] = sourceRow(add(first, r), len, guard);
    Value srcIdx = add(mul(globalRow(rows, srcRow), width.cols), src.first);
    SmallVector<Value> dstIdx(lead.begin(), lead.end());
    dstIdx.push_back(r);
    dstIdx.push_back(dstCol);
    copyChunk(global, srcIdx, srcElements, src.second, dst, dstIdx, out);
  };
  if (threads % chunksPerRow == 0 && tileRows % (threads / chunksPerRow) == 0) {
    // Each thread keeps one column: the row advances by a constant per pass.
    const int64_t rowsPerPass = threads / chunksPerRow;
    Value cRow = divu(tid, chunksPerRow);
    Value cChunk = remu(tid, chunksPerRow);
    std::pair<Value, Value> src = sourceColumn(cChunk, width);
    Value cCol = width.padded() ? mul(cChunk, chunkElements()) : src.first;
    for (int64_t pass = 0; pass < tileRows / rowsPerPass; ++pass)
      copyAt(add(cRow, pass * rowsPerPass), cCol, src, tokens);
    return;
  }
  // The same with idle lanes (copyColumnPerLane): each row takes the next
  // power of two of lanes, those past its chunks copy nothing. A thread's
  // addresses then differ by constants from pass to pass.
  if (const int64_t lanesPerRow = llvm::PowerOf2Ceil(chunksPerRow);
      copyColumnPerLane && threads % lanesPerRow == 0 &&
      tileRows % (threads / lanesPerRow) == 0) {
    const int64_t rowsPerPass = threads / lanesPerRow;
    Value cRow = divu(tid, lanesPerRow);
    Value cChunk = remu(tid, lanesPerRow);
    // The tokens stay inside the guard (cp.async.commit_group commits them
    // all the same).
    emitIf(ltC(cChunk, chunksPerRow), [&] {
      SmallVector<Value> inner;
      std::pair<Value, Value> src = sourceColumn(cChunk, width);
      Value cCol = mul(cChunk, chunkElements());
      for (int64_t pass = 0; pass < tileRows / rowsPerPass; ++pass)
        copyAt(add(cRow, pass * rowsPerPass), cCol, src, inner);
    });
    return;
  }
  // Rows of a chunk count that does not divide the threads (head dims such
  // as 80 or 96): the thread's row and column change from pass to pass. The
  // copies of a last, partial pass are guarded; their tokens stay inside
  // the guard (cp.async.commit_group commits them all the same).
  forEachInPasses(
      tid, threads, tileRows * chunksPerRow, [&](Value c, bool guarded) {
        SmallVector<Value> inner;
        Value chunk = remu(c, chunksPerRow);
        copyAt(divu(c, chunksPerRow), mul(chunk, chunkElements()),
               sourceColumn(chunk, width), guarded ? inner : tokens);
      });
}

std::pair<Value, Value> MmaEmitterBase::sourceColumn(Value chunk,
                                                     TileRowWidth width) {
  Value col = mul(chunk, chunkElements());
  if (!width.padded())
    return {col, Value()};
  Value real = ltC(chunk, width.cols / chunkElements());
  return {arith::SelectOp::create(b, loc, real, col, idx(0)), real};
}

void MmaEmitterBase::copyChunk(Value global, Value srcIdx, Value srcElements,
                               Value columnOk, Value dst, ValueRange dstIdx,
                               SmallVectorImpl<Value> &tokens) {
  if (columnOk)
    srcElements = arith::SelectOp::create(
        b, loc, columnOk, srcElements ? srcElements : idx(chunkElements()),
        idx(0));
  auto copy = nvgpu::DeviceAsyncCopyOp::create(
      b, loc, nvgpu::DeviceAsyncTokenType::get(ctx), dst, dstIdx, global,
      ValueRange{srcIdx}, b.getIndexAttr(chunkElements()), srcElements,
      /*bypassL1=*/b.getUnitAttr());
  if (l2Prefetch128)
    copy->setAttr(kL2PrefetchAttrName, b.getI64IntegerAttr(128));
  tokens.push_back(copy);
}

std::pair<Value, Value> MmaEmitterBase::sourceRow(Value pos, kernel::Extent len,
                                                  bool guard) {
  if (!guard)
    return {pos, Value()};
  // Clamp the address to a valid row; copy 0 of the chunk's elements (zero
  // fill).
  return {clampToLast(pos, len),
          arith::SelectOp::create(b, loc, lessThan(pos, len),
                                  idx(chunkElements()), idx(0))};
}

void MmaEmitterBase::emitWaitAllCopies(Value anchor) {
  if (anchor)
    nvgpu::DeviceAsyncWaitOp::create(b, loc, anchor, b.getI32IntegerAttr(0));
  else
    cpAsyncWait(0);
  if (tensorCoresReadShared)
    fenceProxyAsync();
  gpu::BarrierOp::create(b, loc);
}

void MmaEmitterBase::emitPrefetchingStepHead(
    Value anchor, Value step, Value stage, Value end,
    function_ref<void(Value, Value)> issue, int64_t stages) {
  assert((stages == 1 || stages == 2) && "one or two cp.async stages");
  emitWaitAllCopies(anchor);
  if (stages == 1)
    return;
  Value next = add(step, 1);
  Value hasNext =
      arith::CmpIOp::create(b, loc, arith::CmpIPredicate::slt, next, end);
  emitIf(hasNext,
         [&] { issue(next, arith::SubIOp::create(b, loc, idx(1), stage)); });
}

void MmaEmitterBase::emitRefillingStepTail(
    Value step, Value end, function_ref<void(Value, Value)> issue,
    int64_t stages) {
  if (stages != 1)
    return;
  gpu::BarrierOp::create(b, loc);
  Value next = add(step, 1);
  emitIf(arith::CmpIOp::create(b, loc, arith::CmpIPredicate::slt, next, end),
         [&] { issue(next, idx(0)); });
}

Value MmaEmitterBase::crossesPositionalEdge(const ScoreModifiers &mods,
                                            kernel::Extent queryLen,
                                            kernel::Extent keyLen, Value q0,
                                            Value rows, Value k0, int64_t keys,
                                            Value needs) {
  auto cmp = [&](arith::CmpIPredicate p, Value x, Value y) -> Value {
    return arith::CmpIOp::create(b, loc, p, x, y);
  };
  if (!needs)
    needs = arith::ConstantIntOp::create(b, loc, 0, 1);
  // q0 + delta + c, delta = Lk - Lq for bottom-right causal (else 0): one
  // constant where both lengths are static.
  const bool bottomRight = mods.causal == CausalMode::bottom_right;
  auto diagonal = [&](Value row, int64_t c) -> Value {
    if (!bottomRight)
      return add(row, c);
    if (queryLen.isStatic() && keyLen.isStatic())
      return add(row, keyLen.getStatic() - queryLen.getStatic() + c);
    return add(
        add(row, arith::SubIOp::create(b, loc, size(keyLen), size(queryLen))),
        c);
  };
  std::optional<int64_t> right;
  if (mods.causal != CausalMode::none)
    right = 0;
  if (mods.window && mods.window->second >= 0)
    right = right ? std::min(*right, mods.window->second) : mods.window->second;
  // Upper edge: the first row's diagonal (+ right) must cover the last key.
  if (right)
    needs = arith::OrIOp::create(b, loc, needs,
                                 cmp(arith::CmpIPredicate::sgt,
                                     add(k0, keys - 1), diagonal(q0, *right)));
  // Lower edge: the last row's window start must not pass the first key.
  if (mods.window && mods.window->first >= 0) {
    Value lastRow = add(q0, arith::SubIOp::create(b, loc, rows, idx(1)));
    needs = arith::OrIOp::create(b, loc, needs,
                                 cmp(arith::CmpIPredicate::slt, k0,
                                     diagonal(lastRow, -mods.window->first)));
  }
  return needs;
}

SmallVector<Value> MmaEmitterBase::emitUniformChoice(
    Value cond, function_ref<SmallVector<Value>(bool)> compute) {
  auto branchBody = [&](bool masked) {
    return [&, masked](OpBuilder &nb, Location) {
      OpBuilder::InsertionGuard guard(b);
      b.setInsertionPoint(nb.getInsertionBlock(), nb.getInsertionPoint());
      scf::YieldOp::create(b, loc, compute(masked));
    };
  };
  auto branch =
      scf::IfOp::create(b, loc, cond, branchBody(true), branchBody(false));
  return SmallVector<Value>(branch.getResults());
}

Value MmaEmitterBase::blockPairNeedsMask(const ScoreModifiers &mods,
                                         kernel::Extent queryLen,
                                         kernel::Extent keyLen, Value q0,
                                         Value rows, Value k0, int64_t keys) {
  const bool raggedKeys = !keyLen.isMultipleOf(keys);
  if (!mods.hasPositionalMask() && !raggedKeys)
    return Value();
  Value needs;
  if (raggedKeys)
    needs = arith::CmpIOp::create(b, loc, arith::CmpIPredicate::sgt,
                                  add(k0, keys), size(keyLen));
  if (!mods.hasPositionalMask())
    return needs;
  return crossesPositionalEdge(mods, queryLen, keyLen, q0, rows, k0, keys,
                               needs);
}
