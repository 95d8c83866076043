//===- PoisonSharedMemory.cpp - attn-poison-shared-memory pass ------------===//
//
// Fills every kernel's shared memory with all-ones bytes (NaN in f16, bf16
// and f32) at entry, so that a read of an element the kernel never wrote is
// visible on the first launch (Passes.td has the description).
//
//===----------------------------------------------------------------------===//

#include "attnopt/Conversion/AttnToGPU/AttnToGPU.h"
#include "attnopt/Conversion/Passes.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/LLVMIR/NVVMDialect.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"

namespace mlir::attn {
#define GEN_PASS_DEF_ATTNPOISONSHAREDMEMORYPASS
#include "attnopt/Conversion/Passes.h.inc"

namespace {

/// The all-ones bit pattern of a scalar type (NaN for floats).
Value allOnes(OpBuilder &b, Location loc, Type type) {
  if (auto f = dyn_cast<FloatType>(type))
    return arith::ConstantOp::create(
        b, loc,
        b.getFloatAttr(f, APFloat(f.getFloatSemantics(),
                                  APInt::getAllOnes(f.getWidth()))));
  return arith::ConstantOp::create(
      b, loc,
      b.getIntegerAttr(type, APInt::getAllOnes(type.getIntOrFloatBitWidth())));
}

/// Stores `value` into every element of the statically shaped `memref`,
/// thread t of `threads` taking the elements t, t + threads, ...
void fillByThreads(OpBuilder &b, Location loc, Value memref, Value value,
                   Value tid, Value threads) {
  auto type = cast<MemRefType>(memref.getType());
  int64_t elements = type.getNumElements();
  Value end = arith::ConstantIndexOp::create(b, loc, elements);
  auto loop = scf::ForOp::create(b, loc, tid, end, threads);
  OpBuilder::InsertionGuard guard(b);
  b.setInsertionPointToStart(loop.getBody());
  // Row-major indices of the linear index, innermost first.
  SmallVector<Value> indices(type.getRank());
  Value rest = loop.getInductionVar();
  for (int64_t d = type.getRank() - 1; d >= 0; --d) {
    Value extent = arith::ConstantIndexOp::create(b, loc, type.getDimSize(d));
    indices[d] = arith::RemUIOp::create(b, loc, rest, extent);
    rest = arith::DivUIOp::create(b, loc, rest, extent);
  }
  memref::StoreOp::create(b, loc, value, memref, indices);
}

/// Whether the kernel reads shared memory through the async proxy (wgmma,
/// as NVVM ops or inline PTX): the poison's generic-proxy stores must then
/// be fenced before those reads.
bool readsThroughAsyncProxy(gpu::GPUFuncOp func) {
  bool found = false;
  func.walk([&](Operation *op) {
    if (isa<NVVM::WgmmaFenceAlignedOp, NVVM::WgmmaMmaAsyncOp>(op))
      found = true;
    else if (auto asmOp = dyn_cast<LLVM::InlineAsmOp>(op))
      found |= asmOp.getAsmString().contains("wgmma.");
  });
  return found;
}

LogicalResult poisonKernel(gpu::GPUFuncOp func) {
  std::optional<int64_t> dynamicBytes;
  if (auto attr =
          func->getAttrOfType<IntegerAttr>(kDynamicSharedMemoryAttrName))
    dynamicBytes = attr.getInt();
  bool takesDynamic = false;
  func.walk([&](gpu::DynamicSharedMemoryOp) { takesDynamic = true; });
  if (takesDynamic && !dynamicBytes)
    return func.emitOpError("uses gpu.dynamic_shared_memory but has no '")
           << kDynamicSharedMemoryAttrName
           << "' attribute: attn-poison-shared-memory cannot know its size";
  if (func.getWorkgroupAttributions().empty() &&
      (!dynamicBytes || *dynamicBytes == 0))
    return success();
  for (Value attribution : func.getWorkgroupAttributions())
    if (!cast<MemRefType>(attribution.getType()).hasStaticShape())
      return func.emitOpError("workgroup attribution of dynamic shape: "
                              "attn-poison-shared-memory needs static shapes");

  Location loc = func.getLoc();
  OpBuilder b = OpBuilder::atBlockBegin(&func.getBody().front());
  Value tid = gpu::ThreadIdOp::create(b, loc, gpu::Dimension::x);
  Value threads = gpu::BlockDimOp::create(b, loc, gpu::Dimension::x);
  for (Value attribution : func.getWorkgroupAttributions()) {
    Type elt = cast<MemRefType>(attribution.getType()).getElementType();
    fillByThreads(b, loc, attribution, allOnes(b, loc, elt), tid, threads);
  }
  if (dynamicBytes && *dynamicBytes > 0) {
    // The whole allocation as 32-bit words (the builders' sizes are
    // multiples of 16 bytes; a tail of 1 to 3 bytes is filled bytewise).
    auto workgroup = gpu::AddressSpaceAttr::get(b.getContext(),
                                                gpu::AddressSpace::Workgroup);
    Value raw = gpu::DynamicSharedMemoryOp::create(
        b, loc,
        MemRefType::get({ShapedType::kDynamic}, b.getI8Type(), AffineMap(),
                        workgroup));
    Value zero = arith::ConstantIndexOp::create(b, loc, 0);
    if (int64_t words = *dynamicBytes / 4) {
      Value asWords = memref::ViewOp::create(
          b, loc,
          MemRefType::get({words}, b.getI32Type(), AffineMap(), workgroup), raw,
          zero, ValueRange{});
      fillByThreads(b, loc, asWords, allOnes(b, loc, b.getI32Type()), tid,
                    threads);
    }
    if (int64_t tail = *dynamicBytes % 4) {
      Value tailBytes = memref::ViewOp::create(
          b, loc,
          MemRefType::get({tail}, b.getI8Type(), AffineMap(), workgroup), raw,
          arith::ConstantIndexOp::create(b, loc, *dynamicBytes - tail),
          ValueRange{});
      fillByThreads(b, loc, tailBytes, allOnes(b, loc, b.getI8Type()), tid,
                    threads);
    }
  }
  if (readsThroughAsyncProxy(func))
    NVVM::FenceProxyOp::create(
        b, loc,
        NVVM::ProxyKindAttr::get(b.getContext(), NVVM::ProxyKind::async_shared),
        NVVM::SharedSpaceAttr::get(b.getContext(),
                                   NVVM::SharedSpace::shared_cta));
  gpu::BarrierOp::create(b, loc);
  return success();
}

struct AttnPoisonSharedMemoryPass final
    : impl::AttnPoisonSharedMemoryPassBase<AttnPoisonSharedMemoryPass> {
  using Base::Base;

  void runOnOperation() override {
    for (auto func : getOperation().getOps<gpu::GPUFuncOp>())
      if (func.isKernel() && failed(poisonKernel(func)))
        return signalPassFailure();
  }
};

} // namespace
} // namespace mlir::attn
