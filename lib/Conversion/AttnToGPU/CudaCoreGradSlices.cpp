//===- CudaCoreGradSlices.cpp - a row's slices across its lanes -----------===//
//
// The data movement every CUDA-core backward kernel (CudaCoreGradEmitter.h)
// is built from: unpacking the kernel's arguments and binding its sizes,
// and a row's head-dim slices spread over the row's T lanes (element e in
// slot e / T of lane e % T): loads into registers with zeros in the padding,
// rounded stores of the accumulators, partial dot products against a staged
// shared-memory row, the xor-butterfly sum over the lanes, and the fused
// accumulation of a staged row. Both kernels use them for every row and key.
//
//===----------------------------------------------------------------------===//

#include "CudaCoreGradEmitter.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"

using namespace mlir;
using namespace mlir::attn;
using namespace mlir::attn::kernel;
using ccgrad::GradEmitter;

KernelArguments GradEmitter::unpackArguments(Block &entry) {
  KernelArguments args = KernelArguments::unpack(entry, spec);
  mask = args.mask;
  seed = args.seed;
  offset = args.offset;
  sizes =
      KernelExtents::get(b, loc, op, args.batch, args.queryLen, args.keyLen);
  queryLen = sizes.queryLen.value(b, loc);
  keyLen = sizes.keyLen.value(b, loc);
  if (mask)
    maskDims = maskExtents(op.getMask().getType(), sizes);
  return args;
}

GradEmitter::ThreadRow GradEmitter::bindThreadRow(int64_t rows, Value len) {
  ThreadRow r;
  r.tid = gpu::ThreadIdOp::create(b, loc, gpu::Dimension::x);
  Value block = gpu::BlockIdOp::create(b, loc, gpu::Dimension::x);
  r.blockY = gpu::BlockIdOp::create(b, loc, gpu::Dimension::y);
  r.blockZ = gpu::BlockIdOp::create(b, loc, gpu::Dimension::z);
  r.inBlock = arith::DivUIOp::create(b, loc, r.tid, idx(t));
  lane = arith::RemUIOp::create(b, loc, r.tid, idx(t));
  r.start = mul(block, idx(rows));
  Value pos = add(r.start, r.inBlock);
  r.valid = cmp(arith::CmpIPredicate::slt, pos, len);
  r.clamped = clampToLast(pos, len);
  return r;
}

SmallVector<Value> GradEmitter::loadSlice(Value global, Value base,
                                          int64_t width) {
  SmallVector<Value> out;
  for (int64_t s = 0, e = ceilDiv(width, t); s < e; ++s) {
    Value element = slotElement(s);
    Value valid = slotValid(s, width);
    if (valid)
      element = arith::MinUIOp::create(b, loc, element, idx(width - 1));
    Value v = memref::LoadOp::create(b, loc, global, add(base, element));
    if (valid)
      v = select(valid, v, zeroElt());
    out.push_back(v);
  }
  return out;
}

void GradEmitter::storeSlice(Value global, Value base, int64_t width,
                             ArrayRef<Value> values, float scale) {
  for (auto [s, value] : llvm::enumerate(values)) {
    auto store = [&, s = s, value = value] {
      Value v = value;
      if (scale != 1.0f)
        v = fmul(v, f32(scale));
      if (!elt.isF32())
        v = arith::TruncFOp::create(b, loc, elt, v);
      memref::StoreOp::create(b, loc, v, global, add(base, slotElement(s)));
    };
    if (Value valid = slotValid(s, width))
      emitIf(valid, store);
    else
      store();
  }
}

Value GradEmitter::partialDot(ArrayRef<Value> regs, Value shared, Value row) {
  // Independent chains so that consecutive FMAs do not wait on each other.
  constexpr int64_t kDotChains = 4;
  int64_t chains = std::min<int64_t>(kDotChains, regs.size());
  SmallVector<Value> sums(chains, Value());
  for (auto [s, reg] : llvm::enumerate(regs)) {
    Value x = toF32(memref::LoadOp::create(b, loc, shared,
                                           ValueRange{row, slotElement(s)}));
    Value &sum = sums[s % chains];
    sum = sum ? fmaC(reg, x, sum) : fmul(reg, x);
  }
  Value total = sums[0];
  for (int64_t c = 1; c < chains; ++c)
    total = arith::AddFOp::create(b, loc, total, sums[c]);
  return total;
}

Value GradEmitter::laneSum(Value v) {
  for (int64_t s = 1; s < t; s *= 2) {
    auto shfl = gpu::ShuffleOp::create(b, loc, v, static_cast<int32_t>(s), 32,
                                       gpu::ShuffleMode::XOR);
    v = arith::AddFOp::create(b, loc, v, shfl.getShuffleResult());
  }
  return v;
}

SmallVector<Value> GradEmitter::accumulate(ValueRange acc, Value factor,
                                           Value shared, Value row) {
  SmallVector<Value> next;
  for (auto [s, a] : llvm::enumerate(acc)) {
    Value x = toF32(memref::LoadOp::create(b, loc, shared,
                                           ValueRange{row, slotElement(s)}));
    next.push_back(fmaC(factor, x, a));
  }
  return next;
}
