//===- AttentionKernelBuilder.cpp - attn.attention as a gpu.func ----------===//
//
// The first GPU mapping of attention (CUDA cores, no tensor cores yet):
//
//   grid  = (ceil(Lq / Br), Hq, B); block = Br * T threads
//   T threads share one query row: each holds D/T of its query values and
//   Dv/T of its f32 accumulator in registers; partial dot products are summed
//   with butterfly shuffles.
//   K and V blocks of Bc keys are staged in shared memory by the whole block;
//   only the key blocks that the causal/window rules leave visible for the
//   block's rows are loaded (the bounds of attn-tile).
//   Per key, the row's running max m, sum l and accumulator are updated
//   online (exactly the attn-tile recurrence with Bc = 1 per step).
//
// Score modifiers and dropout bits come from the same emitters as the
// reference decomposition and the tiled form (Utils/ScoreModifiers.h,
// Utils/Philox.h).
//
// f16/bf16 ops with D = Dv in {64, 128} get the tensor-core (mma.sync)
// kernel of TensorCoreKernelBuilder.cpp instead, unless KernelChoice says
// otherwise.
//
//===----------------------------------------------------------------------===//

#include "CudaCoreKernel.h"
#include "KernelArguments.h"
#include "KernelCommon.h"
#include "PersistentSchedule.h"
#include "TensorCoreKernel.h"
#include "attnopt/Conversion/AttnToGPU/AttnToGPU.h"
#include "attnopt/Dialect/Attn/Utils/Philox.h"
#include "attnopt/Dialect/Attn/Utils/ScoreModifiers.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/LLVMIR/NVVMDialect.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/NVGPU/IR/NVGPUDialect.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"

#include <limits>

using namespace mlir;
using namespace mlir::attn;
using namespace mlir::attn::kernel;

namespace {

/// Emits the kernel body. Values prefixed `row`/`key` are global positions.
class KernelEmitter : ScalarOps {
public:
  KernelEmitter(OpBuilder &b, AttentionOp op, const KernelSpec &spec)
      : ScalarOps(b, op.getLoc()), op(op), spec(spec),
        mods(ScoreModifiers::get(op)) {
    auto q = op.getQueryType();
    heads = q.getDimSize(1);
    headDim = q.getDimSize(3);
    kvHeads = op.getKeyType().getDimSize(1);
    valueDim = op.getValueType().getDimSize(3);
    elt = q.getElementType();
  }

  void emit(gpu::GPUFuncOp func);

private:
  Value maskValue(Value mask, Value bIdx, Value hIdx, Value row, Value key) {
    return emitMaskLoad(b, loc, mask,
                        maskExtents(op.getMask().getType(), sizes),
                        mods.booleanMask, bIdx, hIdx, row, key);
  }
  /// Copies keys [key0, key0 + Bc) of one kv head (rows of `width` elements)
  /// into shared memory, zero-filling rows past the last key.
  void stageTile(Value global, Value shared, int64_t width, Value kvBase,
                 Value key0, Value tid) {
    emitStageRows(b, loc, global, shared, elt, spec.blockKV, width, width,
                  kvBase, key0, sizes.keyLen, tid, spec.block[0]);
  }

  AttentionOp op;
  const KernelSpec &spec;
  ScoreModifiers mods;
  int64_t heads, headDim, kvHeads, valueDim;
  /// The batch and lengths (run-time ones from the kernel's arguments) and
  /// the lengths as index values, set by emit().
  KernelExtents sizes = {0, 0, 0};
  Value queryLen, keyLen;
  Type elt;
};

void KernelEmitter::emit(gpu::GPUFuncOp func) {
  Block &entry = func.getBody().front();
  b.setInsertionPointToStart(&entry);
  const int64_t t = spec.threadsPerRow;
  const int64_t dPer = headDim / t, dvPer = valueDim / t;
  const int64_t group = heads / kvHeads;

  // Arguments in manifest order, then the two workgroup buffers.
  KernelArguments args = KernelArguments::unpack(entry, spec);
  Value query = args.query, key = args.key, value = args.value,
        mask = args.mask, dropoutMask = args.dropoutMask, seed = args.seed,
        offset = args.offset, out = args.output, lse = args.lse;
  Value kShared = func.getWorkgroupAttributions()[0];
  Value vShared = func.getWorkgroupAttributions()[1];
  sizes =
      KernelExtents::get(b, loc, op, args.batch, args.queryLen, args.keyLen);
  queryLen = sizes.queryLen.value(b, loc);
  keyLen = sizes.keyLen.value(b, loc);

  Value tid = gpu::ThreadIdOp::create(b, loc, gpu::Dimension::x);
  Value qBlock = gpu::BlockIdOp::create(b, loc, gpu::Dimension::x);
  Value hIdx = gpu::BlockIdOp::create(b, loc, gpu::Dimension::y);
  Value bIdx = gpu::BlockIdOp::create(b, loc, gpu::Dimension::z);
  Value rowInBlock = arith::DivUIOp::create(b, loc, tid, idx(t));
  Value lane = arith::RemUIOp::create(b, loc, tid, idx(t));
  Value q0 = mul(qBlock, idx(spec.blockQ));
  Value row = add(q0, rowInBlock);
  Value rowValid =
      arith::CmpIOp::create(b, loc, arith::CmpIPredicate::slt, row, queryLen);
  // Padding rows compute on the last row (their results are not stored).
  Value rowClamped = clampToLast(row, queryLen);
  Value kvHead = arith::DivUIOp::create(b, loc, hIdx, idx(group));
  Value kvBase = mul(add(mul(bIdx, idx(kvHeads)), kvHead), keyLen);

  // This thread's slice of the query row, in f32 registers.
  SmallVector<Value> qRegs;
  Value qRowBase =
      mul(add(mul(add(mul(bIdx, idx(heads)), hIdx), queryLen), rowClamped),
          idx(headDim));
  Value dBase = mul(lane, idx(dPer));
  for (int64_t d = 0; d < dPer; ++d)
    qRegs.push_back(toF32(memref::LoadOp::create(
        b, loc, query, add(qRowBase, add(dBase, idx(d))))));
  Value dvBase = mul(lane, idx(dvPer));

  Value rowsInBlock = arith::MinSIOp::create(
      b, loc, idx(spec.blockQ), arith::SubIOp::create(b, loc, queryLen, q0));
  auto [firstBlock, lastBlock] = emitVisibleKeyBlocks(
      b, loc, mods, q0, rowsInBlock, queryLen, keyLen, spec.blockKV);

  SmallVector<Value> init = {f32(kNegInf), f32(0.0f)};
  for (int64_t e = 0; e < dvPer; ++e)
    init.push_back(f32(0.0f));
  float dropP = op.getDropoutP().convertToFloat();

  auto blockLoop = scf::ForOp::create(
      b, loc, firstBlock, lastBlock, idx(1), init,
      [&](OpBuilder &nb, Location, Value kb, ValueRange state) {
        OpBuilder::InsertionGuard g(b);
        b.setInsertionPoint(nb.getInsertionBlock(), nb.getInsertionPoint());
        Value key0 = mul(kb, idx(spec.blockKV));
        gpu::BarrierOp::create(b, loc);
        stageTile(key, kShared, headDim, kvBase, key0, tid);
        stageTile(value, vShared, valueDim, kvBase, key0, tid);
        gpu::BarrierOp::create(b, loc);
        Value keysHere =
            arith::MinSIOp::create(b, loc, idx(spec.blockKV),
                                   arith::SubIOp::create(b, loc, keyLen, key0));
        auto keyLoop = scf::ForOp::create(
            b, loc, idx(0), keysHere, idx(1), state,
            [&](OpBuilder &kb2, Location, Value j, ValueRange st) {
              OpBuilder::InsertionGuard g2(b);
              b.setInsertionPoint(kb2.getInsertionBlock(),
                                  kb2.getInsertionPoint());
              // dot = q · k_j, summed over the T threads of the row.
              Value dot = f32(0.0f);
              for (int64_t d = 0; d < dPer; ++d) {
                Value kv = toF32(memref::LoadOp::create(
                    b, loc, kShared, ValueRange{j, add(dBase, idx(d))}));
                dot = fma(qRegs[d], kv, dot);
              }
              for (int64_t s = 1; s < t; s *= 2) {
                auto shfl =
                    gpu::ShuffleOp::create(b, loc, dot, static_cast<int32_t>(s),
                                           32, gpu::ShuffleMode::XOR);
                dot =
                    arith::AddFOp::create(b, loc, dot, shfl.getShuffleResult());
              }
              Value keyIdx = add(key0, j);
              Value mv = mask ? maskValue(mask, bIdx, hIdx, rowClamped, keyIdx)
                              : Value();
              Value s = emitModifiedScore(b, loc, mods, dot, mv, rowClamped,
                                          keyIdx, queryLen, keyLen);
              Value m = st[0], l = st[1];
              Value mNew = arith::MaximumFOp::create(b, loc, m, s);
              Value isEmpty = arith::CmpFOp::create(
                  b, loc, arith::CmpFPredicate::OEQ, mNew, f32(kNegInf));
              Value safe =
                  arith::SelectOp::create(b, loc, isEmpty, f32(0.0f), mNew);
              Value alpha = math::ExpOp::create(
                  b, loc, arith::SubFOp::create(b, loc, m, safe));
              Value p = math::ExpOp::create(
                  b, loc, arith::SubFOp::create(b, loc, s, safe));
              Value lNew = fma(l, alpha, p);
              Value weight = p;
              if (dropP > 0.0f) {
                // The explicit keep mask (bytes, like a boolean mask), or
                // the Philox bit.
                Value keep;
                if (dropoutMask) {
                  keep = emitMaskLoad(
                      b, loc, dropoutMask,
                      maskExtents(op.getDropoutMask().getType(), sizes),
                      /*boolean=*/true, bIdx, hIdx, rowClamped, keyIdx);
                } else {
                  DropoutPosition pos{bIdx,   hIdx,       rowClamped,
                                      keyIdx, idx(heads), queryLen};
                  keep = emitDropoutKeep(b, loc, seed, offset, pos, dropP);
                }
                Value scaled = arith::MulFOp::create(
                    b, loc, p, f32(1.0f / (1.0f - dropP)));
                weight =
                    arith::SelectOp::create(b, loc, keep, scaled, f32(0.0f));
              }
              SmallVector<Value> next = {mNew, lNew};
              for (int64_t e = 0; e < dvPer; ++e) {
                Value vv = toF32(memref::LoadOp::create(
                    b, loc, vShared, ValueRange{j, add(dvBase, idx(e))}));
                Value scaledAcc =
                    arith::MulFOp::create(b, loc, st[2 + e], alpha);
                next.push_back(fma(weight, vv, scaledAcc));
              }
              scf::YieldOp::create(b, loc, next);
            });
        scf::YieldOp::create(b, loc, keyLoop.getResults());
      });

  // Epilogue: O = acc / l (0 for rows with no allowed key), lse = m + log l.
  scf::IfOp::create(b, loc, rowValid, [&](OpBuilder &nb, Location) {
    OpBuilder::InsertionGuard g(b);
    b.setInsertionPoint(nb.getInsertionBlock(), nb.getInsertionPoint());
    Value m = blockLoop.getResult(0), l = blockLoop.getResult(1);
    Value isEmpty =
        arith::CmpFOp::create(b, loc, arith::CmpFPredicate::OEQ, l, f32(0.0f));
    Value inv =
        arith::SelectOp::create(b, loc, isEmpty, f32(0.0f),
                                arith::DivFOp::create(b, loc, f32(1.0f), l));
    Value outBase =
        mul(add(mul(add(mul(bIdx, idx(heads)), hIdx), queryLen), row),
            idx(valueDim));
    for (int64_t e = 0; e < dvPer; ++e) {
      Value o = arith::MulFOp::create(b, loc, blockLoop.getResult(2 + e), inv);
      if (!elt.isF32())
        o = arith::TruncFOp::create(b, loc, elt, o);
      memref::StoreOp::create(b, loc, o, out,
                              add(outBase, add(dvBase, idx(e))));
    }
    if (lse) {
      Value first =
          arith::CmpIOp::create(b, loc, arith::CmpIPredicate::eq, lane, idx(0));
      scf::IfOp::create(b, loc, first, [&](OpBuilder &lb, Location) {
        OpBuilder::InsertionGuard g2(b);
        b.setInsertionPoint(lb.getInsertionBlock(), lb.getInsertionPoint());
        Value noKey = arith::CmpFOp::create(b, loc, arith::CmpFPredicate::OEQ,
                                            m, f32(kNegInf));
        Value value = arith::SelectOp::create(
            b, loc, noKey, f32(kNegInf),
            arith::AddFOp::create(b, loc, m, math::LogOp::create(b, loc, l)));
        Value at = add(mul(add(mul(bIdx, idx(heads)), hIdx), queryLen), row);
        memref::StoreOp::create(b, loc, value, lse, at);
        scf::YieldOp::create(b, loc);
      });
    }
    scf::YieldOp::create(b, loc);
  });
  gpu::ReturnOp::create(b, loc);
}

} // namespace

std::optional<KernelChoice> mlir::attn::parseKernelChoice(StringRef name) {
  if (name == "auto")
    return KernelChoice::Auto;
  if (name == "tensor-core")
    return KernelChoice::TensorCore;
  if (name == "cuda-core")
    return KernelChoice::CudaCore;
  return std::nullopt;
}

FailureOr<cc::Tiling> cc::chooseTiling(AttentionOp op, int64_t blockQHint) {
  if (failed(checkKernelShapes(op)))
    return failure();
  RankedTensorType q = op.getQueryType();
  int64_t d = q.getDimSize(3), dv = op.getValueType().getDimSize(3);
  Tiling t;
  int64_t widest = std::max(d, dv);
  t.threadsPerRow = widest <= 64 ? 1 : widest <= 128 ? 2 : 4;
  if (d % t.threadsPerRow || dv % t.threadsPerRow)
    return op.emitOpError("GPU code generation: head dims ")
           << d << " and " << dv << " must be multiples of " << t.threadsPerRow
           << " (threads per query row)";
  t.blockQ = 64;
  if (blockQHint > 0)
    t.blockQ = std::min<int64_t>(blockQHint, 128);
  if (!q.isDynamicDim(2))
    t.blockQ = std::min<int64_t>(
        t.blockQ, std::max<int64_t>(16, (q.getDimSize(2) + 15) / 16 * 16));
  // The K and V tiles are static shared memory, which may not exceed
  // 48 KiB (ptxas rejects more for sm_80): wide f32 heads (D = Dv = 128 in
  // f32 needs 64 KiB at 64 keys) take fewer keys per step.
  const int64_t rowBytes =
      (d + dv) * q.getElementType().getIntOrFloatBitWidth() / 8;
  constexpr int64_t kStaticSharedLimit = 48 * 1024;
  t.blockKV = 64;
  while (t.blockKV > 1 && t.blockKV * rowBytes > kStaticSharedLimit)
    t.blockKV /= 2;
  if (t.blockKV * rowBytes > kStaticSharedLimit)
    return op.emitOpError("GPU code generation: head dims ")
           << d << " and " << dv
           << " are too wide for the CUDA-core kernel: one key row of K "
              "and V takes "
           << rowBytes << " bytes of shared memory (at most "
           << kStaticSharedLimit << ")";
  return t;
}

ForwardKernelConfig cc::configOf(const Tiling &tiling) {
  ForwardKernelConfig c;
  c.kernel = KernelFamily::cuda_core;
  c.blockQ = tiling.blockQ;
  c.blockKV = tiling.blockKV;
  c.stages = 1;
  c.warps = (tiling.threads() + 31) / 32;
  return c;
}

FailureOr<KernelSpec>
mlir::attn::describeAttentionKernel(AttentionOp op, StringRef name,
                                    const ForwardKernelConfig &config) {
  if (failed(checkKernelShapes(op)))
    return failure();
  KernelSpec spec;
  spec.name = name.str();
  spec.source = sourceOf(op.getLoc());
  RankedTensorType q = op.getQueryType();
  spec.tensorCores = config.kernel != KernelFamily::cuda_core;
  if (spec.tensorCores) {
    const tc::Tiling t = tc::tilingOf(config);
    spec.blockQ = t.blockQ;
    spec.blockKV = t.blockKV;
    spec.block = {t.threads(), 1, 1};
    spec.warpgroupMma = t.warpgroupMma;
    spec.tma = t.tma;
    spec.persistent = t.persistentBlocks > 0;
    spec.dynamicSharedBytes = tc::sharedMemoryBytes(op, t);
  } else {
    FailureOr<cc::Tiling> t = cc::chooseTiling(op, config.blockQ);
    if (failed(t))
      return failure();
    spec.threadsPerRow = t->threadsPerRow;
    spec.blockQ = t->blockQ;
    spec.blockKV = t->blockKV;
    spec.block = {t->threads(), 1, 1};
  }
  // 0: computed at launch from the run-time size (the manifest's null).
  spec.grid = {gridBlocks(q.getDimSize(2), spec.blockQ), q.getDimSize(1),
               gridBatch(q.getDimSize(0))};
  if (spec.persistent) {
    // One block per SM (at most one per tile), looping over the tiles.
    const int64_t tiles = spec.grid[0] * spec.grid[1] * spec.grid[2];
    spec.grid = {std::min(tiles, tc::tilingOf(config).persistentBlocks), 1, 1};
  }

  spec.params = abiParams(op, abi::Family::Forward, abiFeatures(op));
  if (spec.tma)
    appendForwardTensorMaps(spec, /*packed=*/false);
  return spec;
}

void kernel::loadTensorCoreDialects(MLIRContext *ctx) {
  // Outside a pass these may not be loaded yet (the attn-to-gpu pass
  // declares them as dependent dialects).
  ctx->getOrLoadDialect<LLVM::LLVMDialect>();
  ctx->getOrLoadDialect<NVVM::NVVMDialect>();
  ctx->getOrLoadDialect<nvgpu::NVGPUDialect>();
  ctx->getOrLoadDialect<vector::VectorDialect>();
}

gpu::GPUFuncOp kernel::createTensorCoreFunc(OpBuilder &b,
                                            gpu::GPUModuleOp module,
                                            Location loc,
                                            const KernelSpec &spec,
                                            TypeRange argTypes) {
  loadTensorCoreDialects(b.getContext());
  OpBuilder::InsertionGuard guard(b);
  b.setInsertionPointToEnd(module.getBody());
  auto func =
      gpu::GPUFuncOp::create(b, loc, spec.name, b.getFunctionType(argTypes, {}),
                             TypeRange{}, TypeRange{});
  func->setAttr(gpu::GPUDialect::getKernelFuncAttrName(), b.getUnitAttr());
  func.setKnownBlockSizeAttr(
      b.getDenseI32ArrayAttr({static_cast<int32_t>(spec.block[0]), 1, 1}));
  // .minnctapersm (tc::blocksPerSM).
  func->setAttr(NVVM::NVVMDialect::getMinctasmAttrName(),
                b.getI32IntegerAttr(tc::blocksPerSM(spec)));
  func->setAttr(kDynamicSharedMemoryAttrName,
                b.getI64IntegerAttr(spec.dynamicSharedBytes));
  SmallVector<int32_t> tensorMaps;
  for (auto [i, p] : llvm::enumerate(spec.params))
    if (p.isTensorMap())
      tensorMaps.push_back(static_cast<int32_t>(i));
  if (!tensorMaps.empty())
    func->setAttr(kTensorMapArgsAttrName, b.getDenseI32ArrayAttr(tensorMaps));
  return func;
}

FailureOr<gpu::GPUFuncOp>
mlir::attn::buildAttentionKernel(OpBuilder &b, gpu::GPUModuleOp module,
                                 AttentionOp op, const KernelSpec &spec) {
  MLIRContext *ctx = b.getContext();
  SmallVector<Type> argTypes;
  for (const KernelParam &p : spec.params) {
    Value v = abiOperand(op, p.name);
    argTypes.push_back(flatArgumentType(
        b, p,
        p.isTensor ? cast<ShapedType>(v.getType()).getElementType() : Type()));
  }
  Type elt = op.getQueryType().getElementType();
  auto workgroup =
      gpu::AddressSpaceAttr::get(ctx, gpu::AddressSpace::Workgroup);
  int64_t d = op.getQueryType().getDimSize(3),
          dv = op.getValueType().getDimSize(3);
  SmallVector<Type> shared = {
      MemRefType::get({spec.blockKV, d}, elt, AffineMap(), workgroup),
      MemRefType::get({spec.blockKV, dv}, elt, AffineMap(), workgroup)};

  OpBuilder::InsertionGuard guard(b);
  b.setInsertionPointToEnd(module.getBody());
  if (spec.tensorCores) {
    gpu::GPUFuncOp func =
        kernel::createTensorCoreFunc(b, module, op.getLoc(), spec, argTypes);
    tc::emitKernel(b, func, op, spec);
    return func;
  }
  auto func = gpu::GPUFuncOp::create(b, op.getLoc(), spec.name,
                                     b.getFunctionType(argTypes, {}), shared,
                                     TypeRange{});
  func->setAttr(gpu::GPUDialect::getKernelFuncAttrName(), b.getUnitAttr());
  func.setKnownBlockSizeAttr(
      b.getDenseI32ArrayAttr({static_cast<int32_t>(spec.block[0]), 1, 1}));
  KernelEmitter(b, op, spec).emit(func);
  return func;
}

/// The matrix instruction a kernel multiplies with: wgmma, mma.sync, or
/// none (the CUDA-core kernels, and the backward's prep and dq_convert
/// stages, which do not multiply matrices).
static StringRef matrixInstruction(const KernelSpec &spec) {
  if (spec.warpgroupMma)
    return "wgmma";
  bool multiplies =
      spec.stage == abi::Stage::None || spec.stage == abi::Stage::DKDV ||
      spec.stage == abi::Stage::DKDVDQ || spec.stage == abi::Stage::DQ ||
      spec.stage == abi::Stage::SplitKV;
  return spec.tensorCores && multiplies ? "mma.sync" : "none";
}

/// A size of the manifest: null where it is a run-time one.
static llvm::json::Value sizeOrNull(int64_t size) {
  if (ShapedType::isDynamic(size))
    return nullptr;
  return size;
}
/// A grid dimension: null where it is computed at launch (KernelSpec::grid).
static llvm::json::Value gridOrNull(int64_t blocks) {
  if (blocks == 0)
    return nullptr;
  return blocks;
}

llvm::json::Object kernel::manifestFields(AttentionOpInterface op,
                                          const KernelSpec &spec) {
  using llvm::json::Array;
  using llvm::json::Object;
  RankedTensorType q = op.getQueryType();
  Object entry{
      {"name", spec.name},
      {"source", spec.source},
      {"dtype", dtypeName(q.getElementType())},
      // A packed batch's entry sets the batch (kernelManifestEntry).
      {"batch",
       sizeOrNull(op.isPacked() ? ShapedType::kDynamic : q.getDimSize(0))},
      {"query_heads", q.getDimSize(1)},
      {"kv_heads", op.getKeyHeads()},
      {"query_len", sizeOrNull(op.getUniformQueryLen())},
      {"key_len", sizeOrNull(op.getUniformKeyLen())},
      {"head_dim", op.getHeadDimSize()},
      {"value_dim", op.getValueDimSize()},
      {"scale", static_cast<double>(op.getEffectiveScale())},
      {"causal", stringifyCausalMode(op.getCausal()).str()},
      {"dropout_p", static_cast<double>(op.getDropoutP().convertToFloat())},
      {"grid", Array{gridOrNull(spec.grid[0]), gridOrNull(spec.grid[1]),
                     gridOrNull(spec.grid[2])}},
      {"block", Array{spec.block[0], spec.block[1], spec.block[2]}},
      {"dynamic_shared_memory", spec.dynamicSharedBytes},
      // How the kernel was generated; informational (a runtime needs none
      // of it), e.g. to see which tiling and instructions a flag produced.
      {"codegen",
       Object{{"kernel", spec.tensorCores ? "tensor-core" : "cuda-core"},
              {"mma", matrixInstruction(spec).str()},
              {"block_q", spec.blockQ},
              {"block_kv", spec.blockKV},
              {"threads", spec.block[0]}}},
  };
  if (spec.keyBlockParts > 1)
    entry.getObject("codegen")->insert({"key_block_parts", spec.keyBlockParts});
  if (spec.headSplit)
    entry.getObject("codegen")->insert({"key_block_split", "warpgroups"});
  if (spec.tma)
    entry.getObject("codegen")->insert({"loads", "tma"});
  // Always for the TMA producer's ring; for the cp.async kernels only when
  // not 2 (docs/kernel-manifest.md).
  const bool keyBlockStage =
      spec.stage == abi::Stage::DKDV || spec.stage == abi::Stage::DKDVDQ;
  if (keyBlockStage && (spec.tma || spec.queryStages != 2))
    entry.getObject("codegen")->insert({"query_stages", spec.queryStages});
  if (spec.stage == abi::Stage::DQ && spec.keyStages != 2)
    entry.getObject("codegen")->insert({"key_stages", spec.keyStages});
  if (spec.persistent) {
    entry.getObject("codegen")->insert({"schedule", "persistent"});
    // The tile order, where not the index order (docs/kernel-manifest.md).
    if (int64_t section =
            tc::chooseTileOrder(op, spec.blockQ, spec.blockKV, spec.grid[0])
                .section)
      entry.getObject("codegen")->insert({"tile_section", section});
  }
  if (spec.bulkDq)
    entry.getObject("codegen")->insert({"dq_accum", "fragments"});
  if (ShapedType::isDynamic(spec.splits)) {
    // Decided at launch: the rule's constants (splitKVRule).
    entry.getObject("codegen")->insert({"splits", nullptr});
    entry.getObject("codegen")->insert(
        {"split_rule",
         llvm::json::Object{{"blocks_per_sm", kSplitKVBlocksPerSM},
                            {"max_splits", kMaxSplitKV},
                            {"min_chunk_keys", 2 * spec.blockKV}}});
  } else if (spec.splits) {
    entry.getObject("codegen")->insert({"splits", spec.splits});
  }
  // The window as the kernels apply it (ScoreModifiers: a side past Lq + Lk
  // is clamped there, which excludes the same keys).
  if (std::optional<std::pair<int64_t, int64_t>> w =
          ScoreModifiers::get(op).window)
    entry["window"] = Array{w->first, w->second};
  else
    entry["window"] = nullptr;
  if (FloatAttr softcap = op.getSoftcapAttr())
    entry["softcap"] = static_cast<double>(softcap.getValue().convertToFloat());
  else
    entry["softcap"] = nullptr;
  // Only present when set: a runtime that does not know the field rejects
  // the kernel rather than validate an approximation at exact tolerances.
  if (op.getSoftcapApprox())
    entry["softcap_approx"] = true;
  // Likewise: f32 multiplied on the tensor cores in tf32 (--f32-precision).
  if (spec.tensorCores && q.getElementType().isF32())
    entry["matmul_precision"] = "tf32";
  if (Value mask = op.getMask()) {
    auto t = cast<RankedTensorType>(mask.getType());
    Array shape;
    for (int64_t s : t.getShape())
      shape.push_back(sizeOrNull(s));
    entry["mask"] = Object{{"dtype", dtypeName(t.getElementType())},
                           {"shape", std::move(shape)}};
  } else {
    entry["mask"] = nullptr;
  }
  // Only present with an explicit dropout keep mask (older runtimes reject
  // the field rather than ignore the mask).
  if (Value keep = op.getDropoutMask()) {
    auto t = cast<RankedTensorType>(keep.getType());
    Array shape;
    for (int64_t s : t.getShape())
      shape.push_back(sizeOrNull(s));
    entry["dropout_mask"] = Object{{"dtype", dtypeName(t.getElementType())},
                                   {"shape", std::move(shape)}};
  }
  entry["params"] = manifestParams(spec);
  return entry;
}

llvm::json::Array kernel::manifestParams(const KernelSpec &spec) {
  using llvm::json::Array;
  using llvm::json::Object;
  Array params;
  for (const KernelParam &p : spec.params) {
    if (p.isTensorMap()) {
      Array box;
      for (int64_t e : p.box)
        box.push_back(e);
      params.push_back(Object{{"name", p.name},
                              {"kind", "tensor_map"},
                              {"tensor", p.tensorMapOf},
                              {"box", std::move(box)},
                              {"swizzle", p.swizzle}});
      continue;
    }
    if (!p.isTensor) {
      params.push_back(
          Object{{"name", p.name}, {"kind", p.isSize ? "i32" : "u64"}});
      continue;
    }
    Array shape;
    for (int64_t s : p.shape)
      shape.push_back(sizeOrNull(s));
    Object param{{"name", p.name},
                 {"kind", "tensor"},
                 {"role", p.isWorkspace ? "workspace"
                          : p.isOutput  ? "output"
                                        : "input"},
                 {"dtype", p.dtype},
                 {"shape", std::move(shape)}};
    if (p.queryLenMultiple)
      param["query_len_multiple"] = p.queryLenMultiple;
    params.push_back(std::move(param));
  }
  return params;
}

llvm::json::Object mlir::attn::kernelManifestEntry(AttentionOp op,
                                                   const KernelSpec &spec) {
  llvm::json::Object entry = manifestFields(op, spec);
  entry["op"] = "attention";
  entry["has_lse"] = static_cast<bool>(op.getLse());
  // A stage of a split-KV forward group.
  if (spec.stage != abi::Stage::None) {
    entry["stage"] = abi::stageName(spec.stage);
    entry["group"] = spec.group;
  }
  return entry;
}
