//===- WarpgroupMma.cpp - wgmma.mma_async building blocks -----------------===//
//
// The sm_90a warpgroup MMA helpers of MmaEmitterBase (MmaEmitterBase.h,
// "warpgroup MMA"). wgmma is emitted as inline PTX: the NVVM dialect's
// nvvm.wgmma.mma_async takes both operands from shared memory, and the
// backward kernels feed P and dS from registers.
//
//===----------------------------------------------------------------------===//

#include "InlinePtx.h"
#include "MmaEmitterBase.h"

#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/LLVMIR/NVVMDialect.h"
#include "mlir/Dialect/NVGPU/IR/NVGPUDialect.h"

#include "llvm/ADT/Twine.h"

#include <numeric>

using namespace mlir;
using namespace mlir::attn;

Value MmaEmitterBase::wgmmaDescriptor(Value byteAddr, int64_t lbo, int64_t sbo,
                                      bool swizzle128) {
  // Bits 0-13: address >> 4 (the 18-bit shared window), 16-29: LBO >> 4,
  // 32-45: SBO >> 4; base offset 0 (bits 49-51: tiles are 1024-byte
  // aligned); layout type (bits 62-63) 1 for the 128-byte swizzle, else 0.
  Type i64 = b.getI64Type();
  auto c = [&](int64_t v) -> Value {
    return arith::ConstantIntOp::create(b, loc, i64, v);
  };
  Value addr = arith::IndexCastUIOp::create(b, loc, i64, byteAddr);
  Value start = arith::ShRUIOp::create(
      b, loc, arith::AndIOp::create(b, loc, addr, c(0x3FFFF)), c(4));
  int64_t fixed = ((lbo >> 4) << 16) | ((sbo >> 4) << 32) |
                  (swizzle128 ? int64_t(1) << 62 : 0);
  return arith::OrIOp::create(b, loc, start, c(fixed));
}

/// The wgmma inline assembly: `n / 2` f32 accumulators tied in and out, then
/// `operands` with `operandConstraints`, then the immediates.
static SmallVector<Value> emitWgmma(OpBuilder &b, Location loc, Type elt,
                                    int64_t n, ValueRange operands,
                                    StringRef operandPtx,
                                    StringRef operandConstraints,
                                    StringRef immediates, ValueRange acc) {
  const int64_t regs = n / 2;
  assert(static_cast<int64_t>(acc.size()) == regs && "n / 2 accumulators");
  std::string ptx;
  llvm::raw_string_ostream os(ptx);
  os << "wgmma.mma_async.sync.aligned.m64n" << n << "k16.f32."
     << (elt.isBF16() ? "bf16.bf16" : "f16.f16") << " {";
  for (int64_t i = 0; i < regs; ++i)
    os << (i ? ", $" : "$") << i;
  os << "}, " << operandPtx << ", " << immediates << ";";
  std::string constraints;
  for (int64_t i = 0; i < regs; ++i)
    constraints += "=f,";
  constraints += operandConstraints.str();
  for (int64_t i = 0; i < regs; ++i)
    constraints += "," + std::to_string(i);
  SmallVector<Value> inputs(operands.begin(), operands.end());
  inputs.append(acc.begin(), acc.end());
  return ptx::withResults(b, loc, SmallVector<Type>(regs, b.getF32Type()),
                          inputs, ptx, constraints, /*sideEffects=*/true);
}

/// "$first, $first + 1, ..." for `count` operands.
static std::string operandList(int64_t first, int64_t count) {
  std::string s;
  for (int64_t i = 0; i < count; ++i)
    s += (i ? ", $" : "$") + std::to_string(first + i);
  return s;
}

SmallVector<Value> MmaEmitterBase::wgmmaRegA(ArrayRef<Value> a, Value descB,
                                             bool transB, ArrayRef<Value> acc) {
  const int64_t regs = acc.size();
  SmallVector<Value> operands(a.begin(), a.end());
  operands.push_back(descB);
  std::string ptx =
      "{" + operandList(regs, 4) + "}, $" + std::to_string(regs + 4);
  // scale-d, scale-a = scale-b = 1, then trans-b.
  std::string imm = std::string(wgmmaAccumulates ? "1" : "0") + ", 1, 1, " +
                    (transB ? "1" : "0");
  wgmmaAccumulates = true;
  return emitWgmma(b, loc, elt, 2 * regs, operands, ptx, "r,r,r,r,l", imm, acc);
}

SmallVector<Value> MmaEmitterBase::wgmmaSharedA(Value descA, bool transA,
                                                Value descB, bool transB,
                                                ArrayRef<Value> acc) {
  const int64_t regs = acc.size();
  std::string ptx = operandList(regs, 2);
  std::string imm = std::string(wgmmaAccumulates ? "1" : "0") + ", 1, 1, " +
                    (transA ? "1" : "0") + ", " + (transB ? "1" : "0");
  wgmmaAccumulates = true;
  return emitWgmma(b, loc, elt, 2 * regs, ValueRange{descA, descB}, ptx, "l,l",
                   imm, acc);
}

void MmaEmitterBase::wgmmaFence() { NVVM::WgmmaFenceAlignedOp::create(b, loc); }

void MmaEmitterBase::wgmmaCommit() {
  NVVM::WgmmaGroupSyncAlignedOp::create(b, loc);
}

void MmaEmitterBase::wgmmaWait(int64_t pending) {
  NVVM::WgmmaWaitGroupSyncOp::create(b, loc, pending);
}

void MmaEmitterBase::wgmmaCommitAndWait(int64_t pending) {
  wgmmaCommit();
  wgmmaWait(pending);
}

SmallVector<Value> MmaEmitterBase::wgmmaFenceOperands(ArrayRef<Value> regs) {
  if (regs.empty())
    return {};
  std::string constraints;
  SmallVector<Type> types;
  for (Value r : regs) {
    constraints += (constraints.empty() ? "=" : ",=");
    constraints += r.getType().isF32() ? "f" : "r";
    types.push_back(r.getType());
  }
  for (size_t i = 0; i < regs.size(); ++i)
    constraints += "," + std::to_string(i);
  return ptx::withResults(b, loc, types, regs, "", constraints,
                          /*sideEffects=*/true);
}

Value MmaEmitterBase::loopVariant(Value index) {
  Value wide =
      arith::IndexCastUIOp::create(b, loc, b.getI64Type(), index).getResult();
  Value opaque = ptx::withResults(b, loc, b.getI64Type(), wide, "", "=l,0",
                                  /*sideEffects=*/true)[0];
  return arith::IndexCastUIOp::create(b, loc, b.getIndexType(), opaque);
}

void MmaEmitterBase::copyTileSwizzled128(Value global, TileRowWidth width,
                                         GlobalRows rows, Value first,
                                         kernel::Extent len, int64_t tileRows,
                                         Value dst, Value dstBase,
                                         SmallVectorImpl<Value> &tokens) {
  emitRowGuardedCopy(first, len, tileRows, tokens,
                     [&](bool guard, SmallVectorImpl<Value> &out) {
                       copyTileRowsSwizzled128(global, width, rows, first, len,
                                               tileRows, dst, dstBase, guard,
                                               out);
                     });
}

void MmaEmitterBase::copyTileRowsSwizzled128(Value global, TileRowWidth width,
                                             GlobalRows pagedRows, Value first,
                                             kernel::Extent len,
                                             int64_t tileRows, Value dst,
                                             Value dstBase, bool guard,
                                             SmallVectorImpl<Value> &tokens) {
  const GlobalRows rows = withinOnePage(pagedRows, first, tileRows);
  // A thread copies one chunk of a group of `group` consecutive chunks per
  // row (whole panels: the largest that divides the threads), rows
  // rowsPerPass apart, group after group.
  const int64_t chunksPerRow = width.tileCols / 8;
  const int64_t group = std::gcd(chunksPerRow, threads);
  const int64_t rowsPerPass = threads / group;
  assert(width.tileCols % 64 == 0 && group % 8 == 0 &&
         tileRows % rowsPerPass == 0 && "whole panels and passes");
  // This thread's chunk c of rows r0 + rowsPerPass i. The addresses are
  // built from per-thread values plus constants (and one of at most 8
  // swizzled row bases), so that the producer's few registers suffice.
  Value c = remu(tid, group), r0 = divu(tid, group);
  Value rowStart =
      add(dstBase, add(mul(divu(c, 8), 64 * tileRows), mul(r0, 64)));
  Value chunkInPanel = remu(c, 8);
  SmallVector<Value, 8> swizzledBase(8);
  auto base = [&](int64_t rowShift) {
    Value &v = swizzledBase[rowShift % 8];
    if (!v) {
      // The SW128 offset of (r0 + rowShift, 8 c) minus 64 rowShift.
      Value slot = arith::XOrIOp::create(b, loc, chunkInPanel,
                                         remu(add(r0, rowShift % 8), 8));
      v = add(rowStart, mul(slot, 8));
    }
    return v;
  };
  Value srcFirst = add(first, r0);
  for (int64_t g0 = 0; g0 < chunksPerRow; g0 += group) {
    // Group g0 / group starts g0 / 8 panels further.
    for (int64_t pass = 0; pass < tileRows / rowsPerPass; ++pass) {
      const int64_t rowShift = pass * rowsPerPass;
      auto [srcRow, srcElements] =
          sourceRow(add(srcFirst, rowShift), len, guard);
      auto [srcCol, columnOk] = sourceColumn(add(c, g0), width);
      Value srcIdx = add(mul(globalRow(rows, srcRow), width.cols), srcCol);
      Value dstIdx =
          add(base(rowShift), 64 * rowShift + (g0 / 8) * 64 * tileRows);
      copyChunk(global, srcIdx, srcElements, columnOk, dst, ValueRange{dstIdx},
                tokens);
    }
  }
}

void MmaEmitterBase::fenceProxyAsync() {
  NVVM::FenceProxyOp::create(
      b, loc, NVVM::ProxyKindAttr::get(ctx, NVVM::ProxyKind::async_shared),
      NVVM::SharedSpaceAttr::get(ctx, NVVM::SharedSpace::shared_cta));
}

void MmaEmitterBase::mbarrierInit(Value addr, int64_t count) {
  NVVM::MBarrierInitOp::create(b, loc, sharedPointer(addr), i32c(count),
                               /*predicate=*/Value());
}

void MmaEmitterBase::mbarrierArrive(Value addr) {
  NVVM::MBarrierArriveOp::create(b, loc, /*res=*/Type(), sharedPointer(addr),
                                 /*count=*/Value());
}

void MmaEmitterBase::mbarrierArriveExpectTx(Value addr, int64_t bytes) {
  NVVM::MBarrierArriveExpectTxOp::create(
      b, loc, /*res=*/Type(), sharedPointer(addr), i32c(bytes),
      NVVM::MemScopeKind::CTA, /*relaxed=*/false, /*predicate=*/Value());
}

void MmaEmitterBase::tmaLoad(Value dst, Value tensorMap, ArrayRef<Value> coords,
                             Value mbarrier) {
  assert(!coords.empty() && coords.size() <= 5 && "TMA takes 1 to 5 dims");
  SmallVector<Value> coordinates;
  for (Value c : coords)
    coordinates.push_back(
        arith::IndexCastUIOp::create(b, loc, b.getI32Type(), c));
  NVVM::CpAsyncBulkTensorGlobalToSharedClusterOp::create(
      b, loc, sharedPointer(dst, /*cluster=*/true), tensorMap, coordinates,
      sharedPointer(mbarrier), /*im2colOffsets=*/ValueRange{},
      /*multicastMask=*/Value(), /*l2CacheHint=*/Value(),
      NVVM::TMALoadMode::TILE, /*isCTAOnly=*/false,
      /*group=*/NVVM::CTAGroupKindAttr(), /*predicate=*/Value());
}

SmallVector<Value, 3> MmaEmitterBase::tmaRowCoordinates(Value row, Value head,
                                                        Value batch,
                                                        Value token0) {
  if (token0)
    return {head, add(token0, row)};
  return {row, head, batch};
}

void MmaEmitterBase::tmaSwizzledTile(Value tile, Value map,
                                     ArrayRef<Value> rowCoords, int64_t rows,
                                     int64_t cols, Value full) {
  SmallVector<Value, 4> coords{Value()};
  llvm::append_range(coords, rowCoords);
  for (int64_t p = 0; p < cols / 64; ++p) {
    coords[0] = idx(64 * p);
    tmaLoad(add(tile, 128 * rows * p), map, coords, full);
  }
}

void MmaEmitterBase::bulkCopyToShared(Value dst, Value src, int64_t bytes,
                                      Value mbarrier) {
  assert(bytes % 16 == 0 && "bulk copies move whole 16-byte units");
  NVVM::CpAsyncBulkGlobalToSharedClusterOp::create(
      b, loc, sharedPointer(dst, /*cluster=*/true), src,
      sharedPointer(mbarrier), i32c(bytes), /*multicastMask=*/Value(),
      /*l2CacheHint=*/Value());
}

void MmaEmitterBase::bulkReduceAddF32(Value dst, Value src, int64_t bytes) {
  assert(bytes % 16 == 0 && "bulk reductions move whole 16-byte units");
  // No NVVM op: the non-tensor cp.reduce.async.bulk has none in MLIR 22.
  ptx::statement(
      b, loc,
      "cp.reduce.async.bulk.global.shared::cta.bulk_group.add."
      "f32 [$0], [$1], " +
          Twine(bytes) + ";",
      "l,r",
      ValueRange{LLVM::PtrToIntOp::create(b, loc, b.getI64Type(), dst),
                 arith::IndexCastUIOp::create(b, loc, b.getI32Type(), src)});
}

void MmaEmitterBase::bulkCommitGroup() {
  NVVM::CpAsyncBulkCommitGroupOp::create(b, loc);
}

void MmaEmitterBase::bulkWaitGroup(int64_t pending, bool readsOnly) {
  NVVM::CpAsyncBulkWaitGroupOp::create(
      b, loc, pending, readsOnly ? b.getUnitAttr() : UnitAttr());
}

void MmaEmitterBase::mbarrierWait(Value addr, Value parity) {
  // The label is local to the braces, so the statement may appear many
  // times in one kernel. (nvvm.mbarrier.try_wait.parity would do with a
  // suspend-time hint operand, which changes the wait's behaviour.)
  ptx::statement(
      b, loc,
      "{\n.reg .pred P1;\nLAB_WAIT:\n"
      "mbarrier.try_wait.parity.shared::cta.b64 P1, [$0], $1;\n"
      "@!P1 bra LAB_WAIT;\n}",
      "r,r",
      ValueRange{arith::IndexCastUIOp::create(b, loc, b.getI32Type(), addr),
                 arith::IndexCastUIOp::create(b, loc, b.getI32Type(), parity)});
}

Value MmaEmitterBase::namedBarrierId(NamedBarrier which, Value warpgroup) {
  int64_t base = static_cast<int64_t>(which);
  Value id = warpgroup ? add(warpgroup, base) : idx(base);
  return arith::IndexCastUIOp::create(b, loc, b.getI32Type(), id);
}

void MmaEmitterBase::namedBarrier(NamedBarrier which, Value warpgroup,
                                  int64_t count, bool aligned) {
  Value id = namedBarrierId(which, warpgroup);
  if (aligned) {
    // bar.sync id, count (barrier.sync.aligned).
    NVVM::BarrierOp::create(b, loc, TypeRange{}, id, i32c(count),
                            NVVM::BarrierReductionAttr(), Value());
    return;
  }
  // nvvm.barrier is always .aligned; the intrinsic without it.
  LLVM::CallIntrinsicOp::create(
      b, loc, b.getStringAttr("llvm.nvvm.barrier.cta.sync.count"),
      ValueRange{id, i32c(count)});
}

void MmaEmitterBase::namedBarrierArrive(NamedBarrier which, Value warpgroup,
                                        int64_t count) {
  NVVM::BarrierArriveOp::create(b, loc, namedBarrierId(which, warpgroup),
                                i32c(count));
}

void MmaEmitterBase::setMaxRegisters(int64_t count, bool increase) {
  NVVM::SetMaxRegisterOp::create(b, loc, count,
                                 increase
                                     ? NVVM::SetMaxRegisterAction::increase
                                     : NVVM::SetMaxRegisterAction::decrease);
}

void MmaEmitterBase::cpAsyncWait(int64_t pending) {
  NVVM::CpAsyncWaitGroupOp::create(b, loc, pending);
}

Value MmaEmitterBase::commitCopies(ValueRange tokens) {
  if (tokens.empty()) {
    NVVM::CpAsyncCommitGroupOp::create(b, loc);
    return Value();
  }
  return nvgpu::DeviceAsyncCreateGroupOp::create(
      b, loc, nvgpu::DeviceAsyncTokenType::get(ctx), tokens);
}

SmallVector<Value> MmaEmitterBase::freshAccumulators(int64_t regs) {
  Value poison = LLVM::PoisonOp::create(b, loc, b.getF32Type());
  return SmallVector<Value>(regs, poison);
}

void MmaEmitterBase::MbarrierRing::acquire(Value stage, Value round) {
  Value reused = arith::CmpIOp::create(e.b, e.loc, arith::CmpIPredicate::uge,
                                       round, e.idx(1));
  e.emitIf(reused, [&] {
    Value parity = e.remu(e.add(round, -1), 2);
    e.mbarrierWait(empty(stage), parity);
  });
}

void MmaEmitterBase::MbarrierRing::wait(Value stage, Value round) {
  Value parity = e.remu(round, 2);
  e.mbarrierWait(full(stage), parity);
}
