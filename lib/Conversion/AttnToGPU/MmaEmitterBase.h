//===- MmaEmitterBase.h - tensor-core kernel building blocks ----*- C++ -*-===//
//
// Private to lib/Conversion/AttnToGPU: what every tensor-core kernel builds
// (the forward in TensorCoreKernelBuilder.cpp, the backward in
// TensorCoreGradKernelBuilder.cpp): scalar index/f32 helpers, ldmatrix,
// mma.sync m16n8k16, packing f32 pairs into 16-bit operands, ex2, and
// cp.async tile copies. Fragment layouts are documented at the top of
// TensorCoreKernelBuilder.cpp.
//
//===----------------------------------------------------------------------===//

#ifndef ATTNOPT_LIB_CONVERSION_ATTNTOGPU_MMAEMITTERBASE_H
#define ATTNOPT_LIB_CONVERSION_ATTNTOGPU_MMAEMITTERBASE_H

#include "KernelCommon.h"
#include "RuntimeSizes.h"
#include "WarpSpecialization.h"
#include "attnopt/Dialect/Attn/Utils/ScoreModifiers.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/IR/Builders.h"

#include <array>
#include <optional>

namespace mlir::attn {

/// Four f32 accumulators of one m16n8 C fragment.
using Frag = std::array<Value, 4>;

/// A wgmma accumulator list (4 f32 per n-tile of 8 columns, in mma.sync C
/// fragment order) as its fragments.
inline SmallVector<Frag> groupFragments(ArrayRef<Value> acc) {
  SmallVector<Frag> f(acc.size() / 4);
  for (size_t i = 0; i < acc.size(); ++i)
    f[i / 4][i % 4] = acc[i];
  return f;
}

/// The 128-byte swizzled (SW128) tiles of the wgmma kernels start at
/// multiples of this: a kernel rounds the dynamic shared memory's start up
/// to it and asks for this much slack (MmaEmitterBase::alignForSwizzle128).
constexpr int64_t kSwizzle128Alignment = 1024;

/// Bytes of one f16/bf16 operand element.
constexpr int64_t kOperandBytes = 2;

/// The padded shared-memory row stride (elements) of the mma.sync tiles, 16
/// bytes past the row: 8 rows of one ldmatrix 8x8 matrix land in 8 distinct
/// 16-byte bank groups (and with f32 elements, the tf32 kernel's scalar V
/// loads of rows 2t, 2t + 1 in distinct banks).
inline int64_t paddedStride(int64_t headDim,
                            int64_t operandBytes = kOperandBytes) {
  return headDim + 16 / operandBytes;
}

/// The width of one copied tile's rows: `cols` elements per row of the
/// tensor, `tileCols` per row of the shared-memory tile (both multiples of
/// 8, tileCols >= cols). The tile's columns [cols, tileCols) are zero-filled:
/// a head dim that is not a multiple of the matrix instruction's k-step (or
/// n-step) is padded in shared memory, never by reading past the tensor's
/// rows.
struct TileRowWidth {
  int64_t cols, tileCols;
  /// A tile as wide as the tensor.
  static TileRowWidth exact(int64_t cols) { return {cols, cols}; }
  bool padded() const { return tileCols != cols; }
};

/// Where the rows of one sequence lie in a global tensor viewed as rows of
/// TileRowWidth::cols elements: sequence row r is global row
/// `base + r * step`. Step 1 for [B, H, L, X] tensors, whose (b, h) slices
/// are contiguous; H for token-major [T, H, X] tensors (a packed batch),
/// where the rows of one head are H rows apart.
struct GlobalRows {
  /// A paged key/value cache (attn.paged_attention): the sequence's row r is
  /// token `table[tableRow + r div pageSize] * pageSize + r mod pageSize` of
  /// the token-major cache (`table` the flat i32 block table, `tableRow`
  /// the first entry of the sequence's row).
  struct Pages {
    Value table, tableRow;
    int64_t pageSize;
  };
  GlobalRows(Value base, int64_t step = 1, std::optional<Pages> pages = {})
      : base(base), step(step), pages(pages) {}
  Value base;
  int64_t step;
  /// Row r is global row `base + token(r) * step`, token(r) read through the
  /// block table; without pages token(r) = r.
  std::optional<Pages> pages;
};

using kernel::roundUp;

/// The hardware named barriers (bar.sync / bar.arrive ids; 16 per block)
/// the kernels use. Families take one id per consumer warpgroup: id =
/// the value + warpgroup.
enum class NamedBarrier : int64_t {
  /// 0: the whole block (gpu.barrier, __syncthreads).
  Block = 0,
  /// 1, 2: one consumer warpgroup's 128 threads before its epilogue (its
  /// wgmmas read all 64 of its Q rows, which the epilogue overwrites).
  WarpgroupEpilogue = 1,
  /// 3, 4: the ping-pong turn of consumer warpgroup w (both consumer
  /// warpgroups, 256 threads; FlashAttention-3's scheduling).
  PingPongTurn = 3,
  /// 5: the warp-specialized backward key-block kernel's consumers after
  /// writing their dSᵀ rows, before dQ = dS K reads all of them.
  ScoresWritten = 5,
  /// 6, 7: one consumer warpgroup of the wgmma key-block kernel after staging
  /// its dQ
  /// columns, before its first thread adds them to dq_accum in bulk.
  DqStaged = 6,
};

class MmaEmitterBase : protected kernel::ScalarOps {
protected:
  /// `elt` is the operand type (f16 or bf16; f32 for the forward's tf32
  /// kernel); `headDim` the query's head dim; `threads` the block size.
  MmaEmitterBase(OpBuilder &b, Location loc, Type elt, int64_t headDim,
                 int64_t threads)
      : ScalarOps(b, loc), ctx(b.getContext()), elt(elt), headDim(headDim),
        threads(threads) {}

  // --- scalar helpers (the rest: kernel::ScalarOps) -------------------------
  // The overloads below add Extent forms; keep the base's visible.
  using ScalarOps::clampToLast;
  using ScalarOps::mul;
  Value i32c(int32_t v) {
    return arith::ConstantIntOp::create(b, loc, b.getI32Type(), v);
  }
  // A batch or length that may be a run-time one (RuntimeSizes.h); the
  // static case emits what the int64_t helpers emit.
  Value size(const kernel::Extent &e) { return e.value(b, loc); }
  Value mul(Value x, const kernel::Extent &e) {
    return e.isStatic() ? mul(x, e.getStatic()) : mul(x, e.getDynamic());
  }
  /// ceil(x / e), unsigned.
  Value ceilDivU(Value x, const kernel::Extent &e) {
    if (e.isStatic())
      return divu(add(x, e.getStatic() - 1), e.getStatic());
    Value d = e.getDynamic();
    return arith::DivUIOp::create(
        b, loc, arith::SubIOp::create(b, loc, add(x, d), idx(1)), d);
  }
  /// x < e.
  Value lessThan(Value x, const kernel::Extent &e) {
    return e.isStatic() ? ltC(x, e.getStatic()) : lt(x, e.getDynamic());
  }
  /// min(x, e - 1): a position clamped to the last one that exists.
  Value clampToLast(Value x, const kernel::Extent &e) {
    if (e.isStatic())
      return minS(x, e.getStatic() - 1);
    return arith::MinSIOp::create(
        b, loc, x, arith::SubIOp::create(b, loc, e.getDynamic(), idx(1)));
  }
  /// gridDim.x - 1 - blockX: the grid's first blocks take the last blocks
  /// of x (the longest tiles of a causal slice first; docs/architecture.md,
  /// "Query block order").
  Value lastBlockFirst(Value blockX) {
    Value last = arith::SubIOp::create(
        b, loc, gpu::GridDimOp::create(b, loc, gpu::Dimension::x), idx(1));
    return arith::SubIOp::create(b, loc, last, blockX);
  }
  Value fmax(Value x, Value y) {
    return arith::MaximumFOp::create(b, loc, x, y);
  }
  Value shflXor(Value v, int32_t offset) {
    return gpu::ShuffleOp::create(b, loc, v, offset, 32, gpu::ShuffleMode::XOR)
        .getShuffleResult();
  }
  /// Whether `pred` (i1) holds in any lane of the warp (vote.sync.any): a
  /// warp-uniform condition.
  Value warpAny(Value pred);

  // --- tensor-core helpers --------------------------------------------------
  /// The LLVM pointer (address space 3, shared::cta; 7, shared::cluster
  /// where `cluster`) of a shared-window byte address (index), as the NVVM
  /// ops take it.
  Value sharedPointer(Value byteAddr, bool cluster = false);
  /// ldmatrix.x4 (optionally .trans) at a shared-memory byte address (index).
  std::array<Value, 4> ldmatrix4(Value byteAddr, bool transpose);
  /// D = A * B + C, f32 C/D: m16n8k16 with 16-bit A/B as packed i32 pairs,
  /// or with f32 operands m16n8k8 in tf32 (A/B as i32 tf32 bits,
  /// roundToTf32).
  Frag mma(ArrayRef<Value> a, Value b0, Value b1, const Frag &c);
  /// An f32 (or its bits as i32) rounded to tf32 (cvt.rna.tf32.f32: to
  /// nearest, ties away from zero), as the i32 an m16n8k8 tf32 mma takes.
  /// Without it the tensor cores would truncate the low 13 bits.
  Value roundToTf32(Value x);
  /// Bytes of one operand element, and elements of one 16-byte chunk
  /// (cp.async, ldmatrix rows).
  int64_t operandBytes() const { return elt.getIntOrFloatBitWidth() / 8; }
  int64_t chunkElements() const { return 16 / operandBytes(); }
  /// A pair register (i32) of two f32 values rounded to the element type;
  /// `lo` goes to the low half.
  Value packPair(Value lo, Value hi);

  /// exp2 of an f32 (ex2.approx.ftz.f32).
  Value exp2(Value x);

  // --- warpgroup MMA (sm_90a, WarpgroupMma.cpp) -----------------------------
  // Shared-memory operands are tiles in one of two layouts. The backward's
  // dS^T tile uses the no-swizzle core-matrix layout:
  // element (r, c) of an [R][C] tile (C contiguous) at byte
  //   (r / 8) 16 C + (c / 8) 128 + (r % 8) 16 + 2 (c % 8),
  // i.e. 8x8 core matrices of 128 contiguous bytes, row blocks of C / 8 of
  // them. Read K-major (K = C) its descriptor has LBO = 128 (next core
  // matrix along K) and SBO = 16 C (along M/N); read MN-major (MN = C, K =
  // R, the transpose flag) LBO = 16 C (along K) and SBO = 128 (along MN).
  // Checked on the H200 by bench/probes/wgmma_layout_probe.cu.
  /// Byte offset of element (r, c) of an [R][C] core-matrix tile.
  static int64_t coreMatrixOffset(int64_t r, int64_t c, int64_t cols) {
    return (r / 8) * 16 * cols + (c / 8) * 128 + (r % 8) * 16 + 2 * (c % 8);
  }
  /// The wgmma matrix descriptor (i64) of the operand starting at
  /// shared-memory byte address `byteAddr` (index); `swizzle128`: layout
  /// type 1 (128-byte swizzle) instead of none.
  Value wgmmaDescriptor(Value byteAddr, int64_t lbo, int64_t sbo,
                        bool swizzle128 = false);
  /// Descriptor of a K-major operand, tile of `cols` elements per row.
  Value kMajorDescriptor(Value byteAddr, int64_t cols) {
    return wgmmaDescriptor(byteAddr, 128, 16 * cols);
  }
  /// Descriptor of an MN-major (transposed) operand, tile of `cols` elements
  /// per row (the MN dimension).
  Value mnMajorDescriptor(Value byteAddr, int64_t cols) {
    return wgmmaDescriptor(byteAddr, 16 * cols, 128);
  }

  // Every other tile (Q, K, V, dO) uses the 128-byte swizzled layout
  // (FlashAttention-3's and CUTLASS's SW128), read by wgmma at full
  // shared-memory bandwidth: an [R][C] tile (C a multiple of 64) is C / 64
  // panels of R rows x 128 bytes, panel p holding columns [64 p, 64 p + 64)
  // at byte p 128 R; 16-byte chunk j of panel row r sits at chunk
  // j ^ (r % 8), so element (r, c) is at element offset
  //   (c / 64) 64 R + 64 r + (((c % 64) / 8) ^ (r % 8)) 8 + c % 8.
  // Tiles start 1024-byte aligned (the hardware swizzles address bits 4-6
  // with bits 7-9, so descriptors may also start inside a panel row, e.g.
  // 32 bytes per K-major k-step). The no-swizzle
  // core-matrix layout above makes wgmma's shared-memory reads take about
  // three times the ideal wavefronts (ncu on the H200, 2026-11-30: 67 %
  // excessive, L1 96 % busy, tensor pipe 34 %). Conventions checked on the
  // H200 by bench/probes/tma_swizzle_probe.cu.
  /// The shared-memory byte address `addr` (index) rounded up to
  /// kSwizzle128Alignment.
  Value alignForSwizzle128(Value addr) {
    return arith::AndIOp::create(b, loc, add(addr, kSwizzle128Alignment - 1),
                                 idx(-kSwizzle128Alignment));
  }
  /// Descriptor of k-step `kStep` (16 columns) of a K-major SW128 operand
  /// whose rows start at `byteAddr` in a tile of `tileRows` rows: the
  /// panel's start plus 32 bytes per k-step inside it; SBO = 1024 (8 rows),
  /// LBO unused.
  Value swizzledKMajorDescriptor(Value byteAddr, int64_t tileRows,
                                 int64_t kStep) {
    return wgmmaDescriptor(
        add(byteAddr, (kStep / 4) * 128 * tileRows + (kStep % 4) * 32), 16,
        1024, /*swizzle128=*/true);
  }
  /// Descriptor of k-step `kStep` (tile rows [16 kStep, 16 kStep + 16)) of
  /// an MN-major SW128 operand (MN = the tile's columns): LBO = one panel
  /// (the next 64 columns), SBO = 1024 (the next 8 rows).
  Value swizzledMnMajorDescriptor(Value byteAddr, int64_t tileRows,
                                  int64_t kStep) {
    return wgmmaDescriptor(add(byteAddr, kStep * 16 * 128), 128 * tileRows,
                           1024, /*swizzle128=*/true);
  }
  /// acc += A B, wgmma.mma_async m64n<n>k16 with f32 accumulators (n / 2
  /// per thread, in the order of n / 8 mma.sync C fragments), A from
  /// registers (the mma.sync A fragment of the warp's 16 rows), B from
  /// shared memory (`transB`: MN-major). Asynchronous: the caller fences,
  /// commits and waits.
  SmallVector<Value> wgmmaRegA(ArrayRef<Value> a, Value descB, bool transB,
                               ArrayRef<Value> acc);
  /// acc += A B with both operands in shared memory.
  SmallVector<Value> wgmmaSharedA(Value descA, bool transA, Value descB,
                                  bool transB, ArrayRef<Value> acc);
  /// `regs` poison f32 values: the accumulators of a chain's first wgmma
  /// that only writes them (wgmmaNoAccumulate). Zeroes would be register
  /// moves between wgmma.fence and the wgmma, which ptxas answers with an
  /// injected warpgroup.arrive.
  SmallVector<Value> freshAccumulators(int64_t regs);
  /// Whether the next wgmma adds to its accumulators (scale-d = 1) or
  /// overwrites them (0); reset to true by every wgmma.
  bool wgmmaAccumulates = true;
  /// wgmma.fence: orders register writes before the next wgmma reads them.
  void wgmmaFence();
  /// wgmma.commit_group, then wgmma.wait_group `pending`.
  void wgmmaCommitAndWait(int64_t pending);
  void wgmmaWait(int64_t pending);
  void wgmmaCommit();
  /// `regs` (f32 or i32) passed through an empty volatile asm that reads
  /// and writes them: placed after a wgmma.wait_group, it keeps LLVM from
  /// moving reads of a wgmma's accumulators above the wait. (It emits no
  /// PTX, so it cannot keep ptxas from reusing a register operand of a
  /// wgmma in flight: write those only after the wait.)
  SmallVector<Value> wgmmaFenceOperands(ArrayRef<Value> regs);
  /// `index` through an empty inline asm with side effects: the same value,
  /// but one LLVM cannot hoist out of the loop it is computed in, nor what
  /// is computed from it.
  Value loopVariant(Value index);
  /// fence.proxy.async.shared::cta: makes this thread's ordinary (and
  /// cp.async) shared-memory writes visible to the tensor cores' async proxy;
  /// a barrier must follow before another thread's wgmma reads them.
  void fenceProxyAsync();
  // --- warp specialization (sm_90, WarpgroupMma.cpp) ------------------------
  // A producer warpgroup fills shared-memory stages that consumer
  // warpgroups read; per stage, a "full" mbarrier (the producer's copies
  // have landed) and an "empty" one (every consumer is done reading). Shared
  // addresses are byte addresses (index) in the shared window.
  /// mbarrier.init: the 8-byte mbarrier at `addr` completes a phase after
  /// `count` arrivals.
  void mbarrierInit(Value addr, int64_t count);
  /// mbarrier.arrive by this thread (release semantics, CTA scope).
  void mbarrierArrive(Value addr);
  /// mbarrier.arrive.expect_tx by this thread: arrives, and adds `bytes` to
  /// the transactions the current phase waits for (the TMA copies that
  /// complete_tx on it).
  void mbarrierArriveExpectTx(Value addr, int64_t bytes);
  /// cp.async.bulk.tensor (TMA, tile mode, 1 to 5 dimensions): the box of
  /// the tensor map at `tensorMap` (the generic address of a grid-constant
  /// CUtensorMap) whose first element is at `coords` (indices, innermost
  /// first) lands at the shared-window byte address `dst` and completes
  /// its bytes of transactions on the mbarrier at `mbarrier`. Elements
  /// past the tensor's extents read as zeros.
  void tmaLoad(Value dst, Value tensorMap, ArrayRef<Value> coords,
               Value mbarrier);
  /// The coordinates after the column (innermost first) of a tile's first
  /// row in a tensor map (kernel::tmaTileBox): row `row` of (head, batch)
  /// of a dense [B, H, L, D] tensor is (row, head, batch); with `token0`
  /// (the first token of a packed batch's sequence), row `row` of `head`
  /// of a packed [T, H, D] tensor is (head, token0 + row). A packed tile
  /// that runs past its sequence reads the next sequence's first tokens
  /// (zeros only past the tensor): the kernels mask those rows.
  SmallVector<Value, 3> tmaRowCoordinates(Value row, Value head, Value batch,
                                          Value token0 = Value());
  /// TMA loads of the `rows`-row SW128 tile at shared-window byte address
  /// `tile` from `map` whose first row is at `rowCoords`
  /// (tmaRowCoordinates), `cols` columns (whole 64-column panels), one box
  /// per panel (panel p at byte 128 rows p), completing on `full`. A box of
  /// fewer rows than `rows` (the packed rows of a split_kv stage) leaves
  /// the others unwritten.
  void tmaSwizzledTile(Value tile, Value map, ArrayRef<Value> rowCoords,
                       int64_t rows, int64_t cols, Value full);
  /// cp.async.bulk (1-D, no tensor map): `bytes` (a multiple of 16) from
  /// the global address `src` (an LLVM pointer, 16-byte aligned) to the
  /// shared-window byte address `dst` (16-byte aligned), completing that
  /// many transactions on the mbarrier at `mbarrier`.
  void bulkCopyToShared(Value dst, Value src, int64_t bytes, Value mbarrier);
  /// cp.reduce.async.bulk .add.f32 (1-D, bulk-group completion): adds the
  /// `bytes` (a multiple of 16) of f32 at the shared-window byte address
  /// `src` to those at the global address `dst` (an LLVM pointer); both
  /// 16-byte aligned. The issuing thread commits its bulk group
  /// (bulkCommitGroup) and waits with bulkWaitGroup before `src` is
  /// rewritten or the block exits.
  void bulkReduceAddF32(Value dst, Value src, int64_t bytes);
  /// cp.async.bulk.commit_group: this thread's bulk operations since the
  /// last commit form a group.
  void bulkCommitGroup();
  /// cp.async.bulk.wait_group(.read) `pending`: until at most `pending` of
  /// this thread's groups are unfinished; `readsOnly`: only their reads of
  /// shared memory need to have finished (the source may be rewritten).
  void bulkWaitGroup(int64_t pending, bool readsOnly);
  /// Blocks until the mbarrier's phase of parity `parity` (index, 0 or 1)
  /// has completed (an mbarrier.try_wait.parity loop; acquire semantics).
  void mbarrierWait(Value addr, Value parity);
  /// bar.sync on the named barrier `which` (+ `warpgroup`, an index that
  /// picks one of a family, when given; warp-uniform) among `count` threads
  /// (whole warps), leaving the block's other warps running. `aligned`
  /// false: barrier.sync without .aligned, for threads that reach the
  /// barrier at different instructions (PTX leaves bar.sync, the aligned
  /// form, undefined there; compute-sanitizer's synccheck reports it).
  void namedBarrier(NamedBarrier which, Value warpgroup, int64_t count,
                    bool aligned = true);
  /// bar.arrive on the same: counts this warp towards the barrier's `count`
  /// threads without waiting.
  void namedBarrierArrive(NamedBarrier which, Value warpgroup, int64_t count);
  /// The i32 id of named barrier `which` (+ `warpgroup` when given).
  Value namedBarrierId(NamedBarrier which, Value warpgroup);

  /// A ring of `stages` shared-memory buffers that producer threads fill
  /// and consumer threads read, each stage guarded by a full and an empty
  /// mbarrier (CUTLASS's PipelineAsync). Fill n of the stream goes to stage
  /// n % stages, as round n / stages of that stage; the mbarriers' phase
  /// parity is the round's. The mbarriers are 8 bytes each, the stages'
  /// full ones consecutive at `fullOffset` and the empty ones at
  /// `emptyOffset` (bytes from `base`, a shared-window byte address).
  class MbarrierRing {
  public:
    MbarrierRing(MmaEmitterBase &e, Value base, int64_t fullOffset,
                 int64_t emptyOffset, int64_t stages)
        : e(e), base(base), fullOffset(fullOffset), emptyOffset(emptyOffset),
          stages(stages) {}
    /// The full / empty mbarrier of `stage` (shared-window byte address).
    Value full(Value stage) { return at(fullOffset, stage); }
    Value empty(Value stage) { return at(emptyOffset, stage); }
    /// One thread, before any use: `stage`'s full mbarrier completes a
    /// phase after `producers` arrivals, its empty one after `consumers`.
    void initFull(int64_t stage, int64_t producers) {
      e.mbarrierInit(full(e.idx(stage)), producers);
    }
    void initEmpty(int64_t stage, int64_t consumers) {
      e.mbarrierInit(empty(e.idx(stage)), consumers);
    }
    /// Producer, before fill `round` of `stage`: from the second round on,
    /// waits until the consumers released the stage's previous round.
    void acquire(Value stage, Value round);
    /// Producer: this thread's part of the stage has landed (after
    /// `landed`'s copies completed and were fenced for the async proxy).
    void commit(Value stage) { e.mbarrierArrive(full(stage)); }
    /// Consumer: waits for fill `round` of `stage`.
    void wait(Value stage, Value round);
    /// Consumer: done reading `stage`; the producer may refill it.
    void release(Value stage) { e.mbarrierArrive(empty(stage)); }
    /// The stage and round of fill `n`. With one stage, the stage (0) is
    /// hidden from LLVM (loopVariant): the stage's tile addresses and the
    /// wgmma descriptors made from them stay in the loop instead of being
    /// hoisted out of it into registers held across it (ptxas spilled 400
    /// bytes in the D = 256 backward).
    std::pair<Value, Value> slot(Value n) {
      if (stages == 1)
        return {e.loopVariant(e.idx(0)), n};
      return {e.remu(n, stages), e.divu(n, stages)};
    }

  private:
    Value at(int64_t offset, Value stage) {
      return e.add(e.add(base, offset), e.mul(stage, 8));
    }
    MmaEmitterBase &e;
    Value base;
    int64_t fullOffset, emptyOffset, stages;
  };
  /// setmaxnreg.{inc,dec}: this warpgroup's register budget becomes `count`
  /// per thread (the kernel needs a register cap at entry).
  void setMaxRegisters(int64_t count, bool increase);
  /// cp.async.wait_group `pending`: all but the newest `pending` cp.async
  /// groups of this thread have landed.
  void cpAsyncWait(int64_t pending);
  /// cp.async.commit_group: this thread's copies since the last commit form
  /// a group. Returns the group's token (an anchor for emitWaitAllCopies),
  /// or null where none of the copies' tokens reaches here (all of them
  /// inside guards, which the commit covers all the same):
  /// nvgpu.device_async_create_group without operands prints in a form its
  /// parser cannot read back, so that commit is nvvm.cp.async.commit.group.
  Value commitCopies(ValueRange tokens);

  /// copyTile into an SW128 tile (`dst` a 1-D view of elements, the tile at
  /// element `dstBase`, 1024-byte aligned; width.tileCols a multiple of 64,
  /// whole panels). Consecutive lanes copy consecutive chunks of a row: 8
  /// lanes read 128 contiguous bytes and write one panel row
  /// (conflict-free), so cp.async.cg (L2 only) serves.
  void copyTileSwizzled128(Value global, TileRowWidth width, GlobalRows rows,
                           Value first, kernel::Extent len, int64_t tileRows,
                           Value dst, Value dstBase,
                           SmallVectorImpl<Value> &tokens);

  /// Issues cp.async copies of tile rows [first, first + tileRows) of a
  /// sequence of length `len` (rows of width.cols elements at global rows
  /// `rows`) into `dst[lead..., r, c]`, c < width.tileCols.
  /// Rows past `len` and columns past width.cols are zero-filled.
  void copyTile(Value global, TileRowWidth width, GlobalRows rows, Value first,
                kernel::Extent len, int64_t tileRows, Value dst,
                ValueRange lead, SmallVectorImpl<Value> &tokens);

  /// `copy(guard, tokens)` for a tile of rows [first, first + tileRows) of
  /// a sequence of `len` rows, guard saying whether rows past `len` must be
  /// clamped and zero-filled: for a static length, whether it is ragged; for
  /// a run-time one, an scf.if per tile, so that every tile but a last,
  /// ragged one copies without the per-chunk guard.
  void
  emitRowGuardedCopy(Value first, kernel::Extent len, int64_t tileRows,
                     SmallVectorImpl<Value> &tokens,
                     function_ref<void(bool, SmallVectorImpl<Value> &)> copy);
  /// copyTile / copyTileSwizzled128 with the guard decided.
  void copyTileRows(Value global, TileRowWidth width, GlobalRows rows,
                    Value first, kernel::Extent len, int64_t tileRows,
                    Value dst, ValueRange lead, bool guard,
                    SmallVectorImpl<Value> &tokens);
  void copyTileRowsSwizzled128(Value global, TileRowWidth width,
                               GlobalRows rows, Value first, kernel::Extent len,
                               int64_t tileRows, Value dst, Value dstBase,
                               bool guard, SmallVectorImpl<Value> &tokens);
  /// Global row `r` of the sequence at `rows` (no multiply for step 1).
  Value globalRow(const GlobalRows &rows, Value r) {
    if (rows.pages)
      r = cacheToken(*rows.pages, r);
    return add(rows.base, rows.step == 1 ? r : mul(r, rows.step));
  }
  /// The cache token of sequence row `r` (one block-table read).
  Value cacheToken(const GlobalRows::Pages &pages, Value r);
  /// `rows` for tile rows [first, first + tileRows) without a table read
  /// per row where the tile lies in one page (the page size a multiple of
  /// the tile's rows, `first` a multiple of them): one read for the tile.
  GlobalRows withinOnePage(const GlobalRows &rows, Value first,
                           int64_t tileRows);
  /// The global row a 16-byte chunk of tile row `pos` is copied from and
  /// how many of its 8 elements (null: all): with `guard`, rows past `len`
  /// read row len - 1 and copy 0 elements (cp.async zero-fills).
  std::pair<Value, Value> sourceRow(Value pos, kernel::Extent len, bool guard);
  /// Where the 16-byte chunk `chunk` (index) of a tile row of `width` reads
  /// (its first column in the tensor's row) and whether it is a real chunk
  /// (null when the tile is not padded): padding chunks read the row's
  /// first chunk and copy nothing.
  std::pair<Value, Value> sourceColumn(Value chunk, TileRowWidth width);
  /// cp.async of one 16-byte chunk: 8 elements of `global` at `srcIdx` to
  /// `dst[dstIdx]`, of which `srcElements` (null: all 8) are read and the
  /// rest zero-filled; `columnOk` (null: true) false copies none.
  void copyChunk(Value global, Value srcIdx, Value srcElements, Value columnOk,
                 Value dst, ValueRange dstIdx, SmallVectorImpl<Value> &tokens);
  /// Waits for every outstanding cp.async group of this thread (with
  /// tensorCoresReadShared, fences them for the async proxy), then
  /// synchronizes the block: afterwards every copy issued so far is visible
  /// to all threads. (`anchor` is any group token: the lowering is
  /// cp.async.wait_group 0.)
  void emitWaitAllCopies(Value anchor);
  /// The head of step `step` of a double-buffered loop that ends before
  /// `end` and reads stage `stage`: emitWaitAllCopies, then, when
  /// step + 1 < end, `issue(step + 1, 1 - stage)` prefetches the next step
  /// into the other stage. One barrier per step is enough: the prefetch
  /// overwrites the stage that step - 1 read, and every warp has finished
  /// step - 1 once it passes this step's barrier.
  /// The stage step `step` of such a loop reads: step % 2 with two
  /// `stages` (step counted from the loop's first), 0 with one.
  Value copyStage(Value step, int64_t stages) {
    return stages == 2 ? remu(step, 2) : idx(0);
  }
  /// With `stages` = 1 (one buffer: the tiles of step + 1 have nowhere to
  /// go before every warp has read step's), the head only waits, and
  /// emitRefillingStepTail issues the next step.
  void emitPrefetchingStepHead(Value anchor, Value step, Value stage, Value end,
                               function_ref<void(Value, Value)> issue,
                               int64_t stages = 2);
  /// The tail of step `step` of such a loop: with one stage, a barrier
  /// (every warp has read the stage), then `issue(step + 1, 0)` when
  /// step + 1 < end; nothing with two. One stage trades the copies'
  /// overlap with the products for half the streamed tiles' shared memory
  /// (FlashAttention-2's `No_double_buffer`).
  void emitRefillingStepTail(Value step, Value end,
                             function_ref<void(Value, Value)> issue,
                             int64_t stages);
  /// Whether the causal / window rules of `mods` can exclude some (query,
  /// key) of query rows [q0, q0 + rows) x keys [k0, k0 + keys) of sequences
  /// of `queryLen` and `keyLen` (i1, uniform per block pair), or'ed into
  /// `needs` when given.
  Value crossesPositionalEdge(const ScoreModifiers &mods,
                              kernel::Extent queryLen, kernel::Extent keyLen,
                              Value q0, Value rows, Value k0, int64_t keys,
                              Value needs = {});
  /// Whether the block pair of query rows [q0, q0 + rows) x keys [k0, k0 +
  /// keys) needs the elementwise (masked) path: it crosses a positional
  /// edge, or its key block runs past `keyLen` (a ragged last key block,
  /// whose zero-filled rows must get P = 0: exp(0 - lse) can overflow, and
  /// an infinite P times a zero row is NaN). Null when no block pair of the
  /// problem ever needs it.
  Value blockPairNeedsMask(const ScoreModifiers &mods, kernel::Extent queryLen,
                           kernel::Extent keyLen, Value q0, Value rows,
                           Value k0, int64_t keys);
  /// The values of `compute(true)` where the block-uniform `cond` holds and
  /// of `compute(false)` elsewhere, as one scf.if: the masked and the plain
  /// variant of a per-element computation.
  SmallVector<Value>
  emitUniformChoice(Value cond, function_ref<SmallVector<Value>(bool)> compute);
  /// `body(i, guarded)` for the items i = first + stride * pass of [0, n)
  /// (`first` is this thread's index among `stride` threads or lanes): the
  /// whole passes unguarded, a last partial one inside `if (i < n)`, where
  /// `guarded` is true (n need not be a multiple of `stride`: a row of
  /// D / 8 chunks at D = 72 or 80).
  void forEachInPasses(Value first, int64_t stride, int64_t n,
                       function_ref<void(Value, bool)> body) {
    for (int64_t pass = 0; pass * stride < n; ++pass) {
      Value i = add(first, pass * stride);
      if ((pass + 1) * stride <= n)
        body(i, /*guarded=*/false);
      else
        emitIf(ltC(i, n), [&] { body(i, /*guarded=*/true); });
    }
  }
  /// The same over the block's threads (tid of `threads`).
  void forEachInPasses(int64_t n, function_ref<void(Value)> body) {
    forEachInPasses(tid, threads, n, [&](Value i, bool) { body(i); });
  }

  MLIRContext *ctx;
  Type elt;
  int64_t headDim, threads;
  Value tid; ///< threadIdx.x, set by the kernel emitter
  /// The thread's coordinates in the mma.sync fragments' layout, from tid
  /// (setThreadCoordinates): its warp and lane, the lane's row group g =
  /// lane / 4 and its thread in the group t4 = lane % 4 (an m16n8k16
  /// accumulator holds rows g and g + 8, columns 2 t4 and 2 t4 + 1).
  Value warp, lane, g, t4;
  void setThreadCoordinates() {
    warp = divu(tid, 32);
    lane = remu(tid, 32);
    g = divu(lane, 4);
    t4 = remu(lane, 4);
  }
  /// packPair converts bf16 pairs with one cvt.rn.bf16x2.f32. The dq
  /// kernel turns it off: with it, ptxas for sm_80 schedules the D = 128 dq
  /// kernel past 255 registers (32 bytes of spills); the scalar form (two
  /// cvt.rn.bf16.f32, widening, shift, or) does not.
  bool packedBF16Convert = true;
  /// packPair converts f16 pairs with an explicit cvt.rn.f16x2.f32 instead
  /// of leaving the fusion to the backend. Off by default: the forward
  /// kernel measured up to 1.5 % slower with it on the H200 (f16, D = 128,
  /// L = 4k/16k; ptxas schedules differently), the wgmma backward 3-13 %
  /// faster.
  bool packedF16Convert = false;
  /// copyTile where a row's chunks do not divide the threads (head dims
  /// such as 80, 200): each lane keeps one chunk column and the rows take
  /// the next power of two of lanes (those past the row's chunks idle),
  /// instead of every lane busy with a row and column that change from pass
  /// to pass. The backward kernels take it: there the per-pass addresses,
  /// hoisted out of the loop, pushed ptxas 13 past 255 registers (sm_80:
  /// 32-72 bytes of spills in the split dkdv kernels at D = 200-232, 4-12
  /// in a few others at D = 72-112; none with it), and it measured as fast
  /// (sm_80 PTX on an H100, B2 H16 L2048 backward: D = 72 causal and 96
  /// full equal, D = 200 full 1.5 % faster; session 48). The forward keeps
  /// the busy-lane form (measured as it is).
  bool copyColumnPerLane = false;
  /// wgmma reads the copied tiles from shared memory (the async proxy):
  /// emitWaitAllCopies fences the copies for it before its barrier.
  bool tensorCoresReadShared = false;
  /// The cp.async copies carry the .L2::128B prefetch hint
  /// (kL2PrefetchAttrName): each 16-byte request also pulls the rest of its
  /// 128-byte line into L2. On by the split-KV stage, which streams K and V
  /// once: 2-3 % more bandwidth on the H200 (docs/performance.md, session
  /// 17); the other kernels are not measured with it.
  bool l2Prefetch128 = false;
};

} // namespace mlir::attn

#endif // ATTNOPT_LIB_CONVERSION_ATTNTOGPU_MMAEMITTERBASE_H
