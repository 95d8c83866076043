//===- TensorCoreEmitterSetup.cpp - the tensor-core forward's setup -------===//
//
// TensorCoreEmitter's setup (TensorCoreEmitter.h): the constants the op and
// the tiling fix (constructor), then, at the kernel's entry, the arguments,
// the dynamic shared memory's views, the block and thread indices and the
// rows this block reads and writes: per (batch, head) slice, per sequence of
// a packed batch (bindPackedSequence), or per packed row block and key chunk
// of a split-KV group, with a paged cache's block table (bindSplitKVBlock),
// and the visible key blocks.
//
//===----------------------------------------------------------------------===//

#include "PersistentSchedule.h"
#include "TensorCoreEmitter.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"

using namespace mlir;
using namespace mlir::attn;
using kernel::kLog2E;
using tc::TensorCoreEmitter;

TensorCoreEmitter::TensorCoreEmitter(OpBuilder &b, AttentionOpInterface op,
                                     const KernelSpec &spec)
    : MmaEmitterBase(b, op.getLoc(), op.getQueryType().getElementType(),
                     op.getHeadDimSize(), spec.block[0]),
      op(op), spec(spec), packed(op.isPacked()),
      splitKV(spec.stage == abi::Stage::SplitKV), splits(spec.splits),
      paged(op.isPaged()), mods(ScoreModifiers::get(op)), blockQ(spec.blockQ),
      blockKV(spec.blockKV), wgmma(spec.warpgroupMma), tma(spec.tma),
      persistent(spec.persistent) {
  consumerThreads = spec.block[0] - (wgmma ? kProducerWarpgroupThreads : 0);
  rowsPerWarp = blockQ / (consumerThreads / 32);
  auto q = op.getQueryType();
  heads = q.getDimSize(1);
  kvHeads = op.getKeyHeads();
  // A packed batch's (and a paged cache's key) lengths are read per block
  // (emitSetup).
  queryLen = op.getUniformQueryLen();
  keyLen = op.getUniformKeyLen();
  valueDim = op.getValueDimSize();
  eltBytes = operandBytes();
  kStepElements = 32 / eltBytes;
  tf32 = elt.isF32();
  assert((!tf32 || (!wgmma && !splitKV)) &&
         "tf32 is the mma.sync kernel's (tc::wgmmaApplies)");
  dims = tc::tileDims(headDim, valueDim, wgmma, eltBytes);

  group = heads / kvHeads;
  if (splitKV)
    tokens = op.getUniformQueryLen();
  mTiles = rowsPerWarp / 16;
  nTilesS = blockKV / 8;
  // Only Q K^T's k-steps that hold real dims (the tile may be padded to
  // whole panels further).
  kStepsQK = roundUp(headDim, kStepElements) / kStepElements;
  nTilesO = dims.v / 8;
  kStepsPV = blockKV / kStepElements;
  // The layout describeAttentionKernel sized the launch by: with a
  // persistent kernel's second Q tile (any non-zero block count).
  assert((!persistent || tma) && "a persistent kernel loads with TMA");
  tc::Tiling tiling{blockQ, blockKV, consumerThreads / 32, wgmma};
  tiling.persistentBlocks = persistent ? 1 : 0;
  tc::SharedLayout layout = tc::sharedLayout(dims, tiling, eltBytes);
  qStride = layout.queryRow;
  kStride = layout.keyRow;
  vStride = layout.valueRow;
  kTileBytes = layout.keyTileBytes;
  vTileBytes = layout.valueTileBytes;
  stages = layout.stages;
  qOff = layout.query;
  qTileBytes = layout.queryTileBytes;
  kOff = layout.keys;
  vOff = layout.values;
  barOff = layout.barriers;
  nRows = 2 * mTiles;
  oState = 2 * nRows;
  dropP = op.getDropoutP().convertToFloat();
  qInRegisters =
      !wgmma && tc::keepsQueryInRegisters(rowsPerWarp, blockKV, dims, eltBytes);
  blockThreads = threads;
  setKeyGuard();
  log2Scale = mods.scale * kLog2E;
}

void TensorCoreEmitter::setKeyGuard() {
  keyGuard = !keyLen.isMultipleOf(blockKV);
  maySkipMask = keyGuard || mods.hasPositionalMask();
}

void TensorCoreEmitter::bindPackedSequence(const KernelArguments &args) {
  kernel::PackedSequence seq = kernel::PackedSequence::load(
      b, loc, args.cuSeqlensQ, args.cuSeqlensK, bIdx);
  qToken0 = seq.queryToken0;
  kToken0 = seq.keyToken0;
  queryLen = seq.queryLen;
  keyLen = seq.keyLen;
  totalQueryTokens = kernel::sizeValue(b, loc, op.getQueryType().getDimSize(0),
                                       args.totalQueryTokens);
  // Token t of head h is row t * H + h of the [T * H, D] view.
  qRowBase = add(mul(qToken0, heads), hIdx);
  qRowStep = heads;
  kvRowBase = add(mul(kToken0, kvHeads), kvHead);
  kvRowStep = kvHeads;
  lseBase = add(mul(hIdx, totalQueryTokens), qToken0); // lse is [Hq, Tq]
}

void TensorCoreEmitter::emitSetup(Block &entry) {
  b.setInsertionPointToStart(&entry);
  packedF16Convert = wgmma;
  l2Prefetch128 = splitKV;
  KernelArguments args = KernelArguments::unpack(entry, spec);
  query = args.query;
  key = args.key;
  value = args.value;
  mask = args.mask;
  seed = args.seed;
  offset = args.offset;
  out = args.output;
  lse = args.lse;
  partialOutput = args.partialOutput;
  partialLse = args.partialLse;
  blockTable = args.blockTable;
  cacheSeqlens = args.cacheSeqlens;
  for (auto [i, p] : llvm::enumerate(spec.params))
    if (p.isTensorMap())
      *(p.tensorMapOf == "query" ? &queryMap
        : p.tensorMapOf == "key" ? &keyMap
                                 : &valueMap) = entry.getArgument(i);
  if (args.numSplits)
    splits = kernel::Extent::dynamic(
        arith::IndexCastUIOp::create(b, loc, b.getIndexType(), args.numSplits));
  if (paged) {
    queryLen = op.getUniformQueryLen(); // static; the key length per block
    const int64_t width =
        cast<ShapedType>(op.getBlockTable().getType()).getDimSize(1);
    tableWidth = ShapedType::isDynamic(width)
                     ? kernel::Extent::dynamic(arith::IndexCastUIOp::create(
                           b, loc, b.getIndexType(), args.maxPagesPerSeq))
                     : kernel::Extent(width);
  } else if (!packed) {
    kernel::KernelExtents sizes = kernel::KernelExtents::get(
        b, loc, op, args.batch, args.queryLen, args.keyLen);
    queryLen = sizes.queryLen;
    keyLen = sizes.keyLen;
    if (op.getMask())
      maskDims = kernel::maskExtents(op.getMask().getType(), sizes);
  }

  // Shared memory: one dynamic buffer, viewed as Q [Br][S], K/V [2][Bc][S].
  auto workgroup =
      gpu::AddressSpaceAttr::get(ctx, gpu::AddressSpace::Workgroup);
  Value dyn = gpu::DynamicSharedMemoryOp::create(
      b, loc,
      MemRefType::get({ShapedType::kDynamic}, b.getI8Type(), AffineMap(),
                      workgroup));
  auto view = [&](int64_t byteOff, ArrayRef<int64_t> shape) -> Value {
    return memref::ViewOp::create(
        b, loc, MemRefType::get(shape, elt, AffineMap(), workgroup), dyn,
        idx(byteOff), ValueRange{});
  };
  qS = view(qOff, {blockQ, qStride});
  kS = view(kOff, {stages, blockKV, kStride});
  vS = view(vOff, {stages, blockKV, vStride});
  smemBase = memref::ExtractAlignedPointerAsIndexOp::create(b, loc, dyn);
  if (wgmma) {
    // The SW128 tiles start at the first 1024-byte boundary (the buffer
    // has kSwizzle128Alignment bytes of slack); `tiles` views them as one
    // flat array of elements (qS, kS and vS above are unused).
    Value aligned = alignForSwizzle128(smemBase);
    tiles = memref::ViewOp::create(
        b, loc,
        MemRefType::get({barOff / eltBytes}, elt, AffineMap(), workgroup), dyn,
        arith::SubIOp::create(b, loc, aligned, smemBase), ValueRange{});
    smemBase = aligned;
  }

  threadId = gpu::ThreadIdOp::create(b, loc, gpu::Dimension::x);
  tid = threadId;
  qBlock = gpu::BlockIdOp::create(b, loc, gpu::Dimension::x);
  // Where later query blocks see more keys, the grid's first blocks (the
  // hardware dispatches in index order) take the last query blocks, so the
  // longest tiles start first and the last wave is the shortest ones
  // (docs/architecture.md, "Query block order"). A persistent kernel has
  // its own tile order; a split-KV group's x is its key chunk.
  if (!persistent && !splitKV && mods.rightBoundByRow())
    qBlock = lastBlockFirst(qBlock);
  hIdx = gpu::BlockIdOp::create(b, loc, gpu::Dimension::y);
  bIdx = gpu::BlockIdOp::create(b, loc, gpu::Dimension::z);
  // With wgmma the thread coordinates are set once the roles have split
  // (consumer threads count from 0).
  if (!wgmma)
    setThreadCoordinates();
  // A persistent kernel binds each tile in its loop (emitTileLoop).
  if (!persistent)
    bindTile(&args);
}

void TensorCoreEmitter::bindTile(const KernelArguments *args) {
  if (splitKV) {
    bindSplitKVBlock();
  } else {
    q0 = mul(qBlock, blockQ);
    kvHead = divu(hIdx, group);
  }
  if (packed) {
    bindPackedSequence(*args);
  } else if (!splitKV) {
    // Row indices (in units of rows) of the first row of this (b, h) slice.
    qRowBase = mul(add(mul(bIdx, heads), hIdx), queryLen);
    kvRowBase = mul(add(mul(bIdx, kvHeads), kvHead), keyLen);
    lseBase = qRowBase;
  }

  rowsInBlock = arith::MinSIOp::create(
      b, loc, idx(blockQ), arith::SubIOp::create(b, loc, size(queryLen), q0));
  if (!splitKV) {
    posFirst = q0;
    posRows = rowsInBlock;
    posLen = queryLen;
  } else {
    setPackedHeadPositions();
  }
  std::tie(firstBlock, lastBlock) = emitVisibleKeyBlocks(
      b, loc, mods, posFirst, posRows, size(posLen), size(keyLen), blockKV);
  if (splitKV)
    restrictToChunk();
}

void TensorCoreEmitter::emitTileLoop(function_ref<void()> body) {
  const int64_t queryBlocks = (queryLen.getStatic() + blockQ - 1) / blockQ;
  const int64_t batch = op.getQueryType().getDimSize(0);
  // The order the chooser modelled (PersistentSchedule.h); spec.grid[0]
  // is the resident block count.
  const TileOrder order = chooseTileOrder(op, blockQ, blockKV, spec.grid[0]);
  Value firstTile = gpu::BlockIdOp::create(b, loc, gpu::Dimension::x);
  Value gridBlocks = gpu::GridDimOp::create(b, loc, gpu::Dimension::x);
  // Tiles firstTile + i gridBlocks for i < ceil((tiles - firstTile) /
  // gridBlocks); the grid has at most one block per tile.
  Value count = arith::DivUIOp::create(
      b, loc,
      add(arith::SubIOp::create(b, loc, idx(queryBlocks * heads * batch),
                                firstTile),
          arith::SubIOp::create(b, loc, gridBlocks, idx(1))),
      gridBlocks);
  emitLoop(idx(0), count, ValueRange{idx(0)},
           [&](Value i, ValueRange state) -> SmallVector<Value> {
             tileIter = i;
             ringBase = state[0];
             Value tile = add(firstTile, mul(i, gridBlocks));
             Value slice;
             if (order.section == 0) {
               qBlock = remu(tile, queryBlocks);
               slice = divu(tile, queryBlocks);
             } else {
               // Sections of S slices, query blocks longest first.
               const int64_t s = order.section;
               Value inSection = remu(tile, s * queryBlocks);
               qBlock = arith::SubIOp::create(b, loc, idx(queryBlocks - 1),
                                              divu(inSection, s));
               slice =
                   add(mul(divu(tile, s * queryBlocks), s), remu(inSection, s));
             }
             hIdx = remu(slice, heads);
             bIdx = divu(slice, heads);
             bindTile(nullptr);
             anyBlock = anyBlockOf();
             Value buffer = remu(i, 2);
             Value barriers = add(smemBase, barOff + 8 * 4 * stages);
             queryFull = add(barriers, mul(buffer, 8));
             queryEmpty = add(barriers, add(mul(buffer, 8), 16));
             body();
             // The rings' fills of this tile: its visible key blocks.
             Value visible = arith::MaxSIOp::create(
                 b, loc, arith::SubIOp::create(b, loc, lastBlock, firstBlock),
                 idx(0));
             return {add(state[0], visible)};
           });
  tileIter = ringBase = Value();
}

void TensorCoreEmitter::bindSplitKVBlock() {
  // Grid (S, R Hkv, B): y = kv R + row block.
  const int64_t rowBlocks = (group * tokens + blockQ - 1) / blockQ;
  splitIdx = qBlock;
  kvHead = divu(hIdx, rowBlocks);
  qBlock = remu(hIdx, rowBlocks);
  hIdx = mul(kvHead, group); // the first query head of the KV head
  q0 = mul(qBlock, blockQ);
  // The rows of query heads hIdx .. hIdx + G - 1 of batch b are contiguous
  // in [B, Hq, Lq, D]: one sequence of G Lq rows, from here on queryLen.
  posLen = queryLen;
  queryLen = group * tokens;
  qRowBase = mul(add(mul(bIdx, heads), hIdx), tokens);
  if (paged) {
    // Head kv of cache token t is row t * Hkv + kv of the [P * page_size *
    // Hkv, D] view; the sequence's tokens come from its block-table row.
    const int64_t pageSize = op.getKeyType().getDimSize(1);
    kvRowBase = kvHead;
    kvRowStep = kvHeads;
    kvPages = GlobalRows::Pages{blockTable, mul(bIdx, tableWidth), pageSize};
    Value len = memref::LoadOp::create(b, loc, cacheSeqlens, ValueRange{bIdx});
    keyLen = kernel::Extent::dynamic(
        arith::IndexCastUIOp::create(b, loc, b.getIndexType(), len));
  } else {
    kvRowBase = mul(add(mul(bIdx, kvHeads), kvHead), keyLen);
  }
  partialRowBase =
      mul(add(mul(add(mul(bIdx, splits), splitIdx), heads), hIdx), tokens);
}

void TensorCoreEmitter::setPackedHeadPositions() {
  // The tokens rows [q0, q0 + rowsInBlock) span: a run within one head, or
  // (conservatively) all Lq when they cross a head.
  if (tokens == 1) {
    posFirst = idx(0);
    posRows = idx(1);
    return;
  }
  Value lastRow = arith::SubIOp::create(b, loc, add(q0, rowsInBlock), idx(1));
  Value oneHead =
      arith::CmpIOp::create(b, loc, arith::CmpIPredicate::eq, divu(q0, tokens),
                            divu(lastRow, tokens));
  posFirst = arith::SelectOp::create(b, loc, oneHead, remu(q0, tokens), idx(0));
  posRows = arith::SelectOp::create(b, loc, oneHead, rowsInBlock, idx(tokens));
}

void TensorCoreEmitter::restrictToChunk() {
  // Chunk s: visible key blocks [first + s c, first + (s + 1) c) within
  // [first, last), c = ceil((last - first) / S); empty past the end.
  Value visible = arith::SubIOp::create(b, loc, lastBlock, firstBlock);
  Value perChunk = ceilDivU(visible, splits);
  Value from = arith::MinSIOp::create(
      b, loc, add(firstBlock, mul(splitIdx, perChunk)), lastBlock);
  lastBlock = arith::MinSIOp::create(b, loc, add(from, perChunk), lastBlock);
  firstBlock = from;
}
