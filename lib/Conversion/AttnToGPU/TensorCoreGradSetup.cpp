//===- TensorCoreGradSetup.cpp - the tensor-core backward's setup ---------===//
//
// The setup every tensor-core backward kernel (TensorCoreGradEmitter.h) starts
// with: the emitter's constructor (head dims, padded tile widths and strides,
// the score modifiers with and without the causal / window rules), the
// kernel's arguments and run-time sizes, a packed batch's sequence and the
// branch that skips blocks past it, thread and block indices, views of the
// dynamic shared memory, and the global rows of Q / dO, K / V, lse and the
// f32 workspaces.
//
//===----------------------------------------------------------------------===//

#include "TensorCoreGradEmitter.h"

#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"

using namespace mlir;
using namespace mlir::attn;
using tcgrad::GradEmitter;

GradEmitter::GradEmitter(OpBuilder &b, AttentionOpInterface op,
                         const KernelSpec &spec)
    : MmaEmitterBase(b, op.getLoc(), op.getQueryType().getElementType(),
                     op.getHeadDimSize(), spec.block[0]),
      op(op), spec(spec), mods(ScoreModifiers::get(op)),
      dropP(op.getDropoutP().convertToFloat()), packed(op.isPacked()) {
  // Dimension 1 is the head count in the dense and the packed layouts.
  heads = op.getQueryType().getDimSize(1);
  kvHeads = op.getKeyType().getDimSize(1);
  valueDim = op.getValueDimSize();
  group = heads / kvHeads;
  // Static here; setUp binds the run-time ones to the kernel's arguments
  // (a packed batch's to its block's sequence).
  queryLen = op.getUniformQueryLen();
  keyLen = op.getUniformKeyLen();
  if (queryLen.isStatic())
    paddedLen = roundUp(queryLen.getStatic(), kBlock);
  copyColumnPerLane = true;
  tileDimQK = tcgrad::tileDim(headDim);
  tileDimV = tcgrad::tileDim(valueDim);
  strideQK = paddedStride(tileDimQK);
  strideV = paddedStride(tileDimV);
}

void GradEmitter::bindSizes() {
  kernel::KernelExtents sizes = kernel::KernelExtents::get(
      b, loc, op, args.batch, args.queryLen, args.keyLen);
  queryLen = sizes.queryLen;
  keyLen = sizes.keyLen;
  if (!queryLen.isStatic())
    paddedLen =
        kernel::Extent::dynamic(
            mul(divu(add(queryLen.getDynamic(), idx(kBlock - 1)), kBlock),
                kBlock))
            .knownMultipleOf(kBlock);
  if (op.getMask())
    maskDims = kernel::maskExtents(op.getMask().getType(), sizes);
}

void GradEmitter::bindPackedSequence() {
  kernel::PackedSequence seq = kernel::PackedSequence::load(
      b, loc, args.cuSeqlensQ, args.cuSeqlensK, bIdx);
  qToken0 = seq.queryToken0;
  kToken0 = seq.keyToken0;
  queryLen = seq.queryLen;
  keyLen = seq.keyLen;
  totalQueryTokens = kernel::sizeValue(b, loc, op.getQueryType().getDimSize(0),
                                       args.totalQueryTokens);
  Value batch = kernel::sizeValue(b, loc, kernel::packedBatch(op), args.batch);
  // W = 4 ceil(Tq / 4) + 68 B and P_b = 4 ceil(cu_seqlens_q[b] / 4) + 68 b:
  // each sequence's rows start 16-byte aligned (the key-block kernels copy
  // them 16 bytes at a time) and span its length rounded up to 64 without
  // reaching the next sequence's (P_(b+1) - P_b >= L_b - 3 + 68).
  auto alignedTo4 = [&](Value v) { return mul(divu(add(v, 3), 4), 4); };
  Value alignedTotal = alignedTo4(totalQueryTokens);
  workspaceRows = add(alignedTotal, mul(batch, 68));
  Value alignedStart = alignedTo4(qToken0);
  workspaceRow0 = add(alignedStart, mul(bIdx, 68));
}

scf::IfOp GradEmitter::enterLiveBlock(function_ref<Value()> start,
                                      kernel::Extent len) {
  if (!packed)
    return nullptr;
  auto live = scf::IfOp::create(b, loc, lessThan(start(), len),
                                /*withElseRegion=*/false);
  b.setInsertionPoint(live.thenBlock()->getTerminator());
  return live;
}

void GradEmitter::leaveLiveBlock(scf::IfOp live) {
  if (live)
    b.setInsertionPointAfter(live);
}

Value GradEmitter::setUp(gpu::GPUFuncOp func) {
  Block &entry = func.getBody().front();
  b.setInsertionPointToStart(&entry);
  args = KernelArguments::unpack(entry, spec);
  if (!packed)
    bindSizes();
  auto workgroup =
      gpu::AddressSpaceAttr::get(ctx, gpu::AddressSpace::Workgroup);
  dyn = gpu::DynamicSharedMemoryOp::create(
      b, loc,
      MemRefType::get({ShapedType::kDynamic}, b.getI8Type(), AffineMap(),
                      workgroup));
  smemBase = memref::ExtractAlignedPointerAsIndexOp::create(b, loc, dyn);
  tid = gpu::ThreadIdOp::create(b, loc, gpu::Dimension::x);
  setThreadCoordinates();
  bIdx = gpu::BlockIdOp::create(b, loc, gpu::Dimension::z);
  if (packed)
    bindPackedSequence(); // reads the offsets at the sequence bIdx
  return gpu::BlockIdOp::create(b, loc, gpu::Dimension::x);
}

GradEmitter::QueryBlock GradEmitter::setUpQueryBlock(gpu::GPUFuncOp func) {
  QueryBlock qb;
  qb.q0 = mul(setUp(func), kBlock);
  qb.h = gpu::BlockIdOp::create(b, loc, gpu::Dimension::y);
  qb.rows = queryRows(qb.h);
  qb.paddedRow0 = paddedRow(qb.h, qb.q0);
  return qb;
}

Value GradEmitter::view(int64_t byteOff, ArrayRef<int64_t> shape, Type type) {
  auto workgroup =
      gpu::AddressSpaceAttr::get(ctx, gpu::AddressSpace::Workgroup);
  return memref::ViewOp::create(
      b, loc, MemRefType::get(shape, type, AffineMap(), workgroup), dyn,
      viewShift ? add(viewShift, byteOff) : idx(byteOff), ValueRange{});
}

GlobalRows GradEmitter::queryRows(Value h) {
  // Token t of head h is row t * H + h of the packed [T * H, D] view.
  if (packed)
    return {add(mul(qToken0, heads), h), heads};
  return {mul(add(mul(bIdx, heads), h), queryLen)};
}

GlobalRows GradEmitter::keyRows(Value kvHead) {
  if (packed)
    return {add(mul(kToken0, kvHeads), kvHead), kvHeads};
  return {mul(add(mul(bIdx, kvHeads), kvHead), keyLen)};
}

Value GradEmitter::lseIndex(Value h, Value q) {
  if (packed)
    return add(add(mul(h, totalQueryTokens), qToken0), q);
  return add(queryRows(h).base, q);
}

Value GradEmitter::paddedRow(Value h, Value q) {
  if (packed)
    return add(add(mul(h, workspaceRows), workspaceRow0), q);
  return add(mul(add(mul(bIdx, heads), h), paddedLen), q);
}
