//===- AttentionGradKernelBuilder.cpp - attn.attention_grad as gpu.funcs --===//
//
// The first GPU mapping of the attention backward pass (CUDA cores, no
// tensor cores yet; correctness first). One attn.attention_grad becomes two
// kernels (docs/kernel-manifest.md, "Backward kernels"), both of which
// recompute the probabilities from Q, K and the saved lse
// (P = exp(s - lse), docs/semantics.md §13) and never materialize anything
// of size Lq x Lk:
//
//   attn_bwd_dkdv_<n>: grid = (ceil(Lk / Bc), Hkv, B); block = Bc * T threads
//     T threads own key row j of the block: k_j and v_j slices in f32
//     registers and the f32 accumulators dK_j, dV_j. For each of the G query
//     heads h of the kv head's group and each query block (of Br rows) that
//     the causal/window rules let see some key of the block
//     (emitVisibleQueryBlocks), the block stages Q (Br x D) in shared memory,
//     and, per row, dO (zeroed for rows without any allowed key), lse and
//     D_i = rowsum(dO_i * O_i) (computed here by the T threads of a row group
//     from dO and the given O). Then per query row i of the tile and key j:
//       raw  = q_i . k_j                      (T partial sums + xor shuffles)
//       p    = exp(emitModifiedScore(raw) - lse_i)   (0 when lse_i = -inf)
//       keep = Philox bit of (b, h, i, j), h the query head
//       dV_j += p * keep / (1 - p_drop) * dO_i
//       dP   = (dO_i . v_j) * keep / (1 - p_drop)
//       dS   = p * (dP - D_i) * (1 - tanh^2)   (softcap factor if any)
//       dK_j += dS * q_i
//     and finally dK_j *= scale; dK, dV are rounded to the element type and
//     stored (key rows past Lk are not stored).
//
//   attn_bwd_dq_<n>: grid = (ceil(Lq / Br), Hq, B); block = Br * T threads
//     T threads own query row i: q_i, dO_i in f32 registers, D_i and lse_i,
//     an f32 dQ_i accumulator. For each key block (of Bc keys) the rules
//     leave visible (emitVisibleKeyBlocks), K and V are staged in shared
//     memory; per key the same element math as above gives dS, and
//     dQ_i += dS * k_j. Finally dQ_i *= scale, rounded and stored.
//
// Thread mapping: head-dim element e of a row belongs to lane e % T of the
// row's T threads (slot e / T): the T lanes of a row read consecutive
// shared-memory words (no bank conflicts; rows of a warp read the same
// tile row, a broadcast). D and Dv are padded to multiples of T in registers
// and shared memory (zeros), so any head dim works. T is the smallest power
// of two (at most 32) that leaves at most kMaxPerThread elements of the
// widest head dim per thread, which bounds the registers: the dkdv thread
// holds 4 such arrays (k, v, dK, dV), the dq thread 3 (q, dO, dQ); ptxas
// reports 160-245 registers per thread and no spills (test/Target/PTX/
// ptxas-grad.mlir). Blocks have at most 256 threads so that ptxas may use
// that many (64 rows per block for T <= 4, fewer for wider heads), and the
// staged tiles are halved until they fit 48 KiB of static shared memory.
//
// Determinism: there are no atomics. Every element of grad_key/grad_value is
// accumulated by one thread of one dkdv block (over the group's query heads
// and the query rows, in a fixed order) and every element of grad_query by
// one thread of one dq block, so the results are bit-identical from run to
// run whether or not the op is `deterministic`. The price is that the dkdv
// and dq kernels each recompute Q K^T, dO V^T, P and the dropout bits.
//
// Score modifiers, recomputed probabilities, the softcap derivative and the
// dropout bits come from the emitters that the reference decomposition
// (AttentionGradDecomposition.cpp) uses (Utils/ScoreModifiers.h,
// Utils/Philox.h).
//
// This file chooses between the tensor-core and the CUDA-core group
// (describeAttentionGradKernels), writes the parameter lists both share
// (kernel::addGradParams), tiles the CUDA-core pair and creates its
// gpu.funcs, whose bodies come from ccgrad::GradEmitter (its parts are
// listed in CudaCoreGradEmitter.h). TensorCoreGradDescribe.cpp describes
// the tensor-core group; its kernels are in the other TensorCoreGrad* files.
//
//===----------------------------------------------------------------------===//

#include "CudaCoreGradEmitter.h"
#include "KernelCommon.h"
#include "TensorCoreGradKernel.h"
#include "attnopt/Conversion/AttnToGPU/AttnToGPU.h"

#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "llvm/ADT/StringSwitch.h"

using namespace mlir;
using namespace mlir::attn;
using namespace mlir::attn::kernel;
using ccgrad::ceilDiv;
using ccgrad::GradEmitter;

namespace {

/// Elements of the widest head dim one thread holds (per register array).
constexpr int64_t kMaxPerThread = 32;
/// Threads per block at most: 256 threads leave ptxas up to 255 registers
/// per thread (64K registers per SM), which the 4 (dkdv) or 3 (dq) register
/// arrays of 32 elements plus the score math need; 512 threads would cap it
/// at 128 and spill. Wide head dims (T = 8, 16, 32) get fewer rows per block.
constexpr int64_t kMaxThreadsPerBlock = 256;
/// Static shared memory a kernel may use without opting in (48 KiB).
constexpr int64_t kSharedBudget = 48 * 1024;
/// Rows (keys or queries) per tile at most.
constexpr int64_t kTileRows = 64;

/// Threads sharing one row's head dims (a power of two, <= 32).
int64_t gradThreadsPerRow(int64_t d, int64_t dv) {
  int64_t widest = std::max(d, dv), t = 1;
  while (t < 32 && ceilDiv(widest, t) > kMaxPerThread)
    t *= 2;
  return t;
}

/// Rows of a tile over a sequence of `len` rows: 64, or `len` rounded up to
/// 16 when shorter (64 for a run-time length).
int64_t tileRowsFor(int64_t len) {
  if (!isShortLength(len, kTileRows))
    return kTileRows;
  return std::max<int64_t>(16, roundUp(len, 16));
}

} // namespace

void kernel::addGradParams(AttentionOpInterface op, KernelSpec &spec,
                           ArrayRef<KernelParam> workspaces,
                           abi::GradOutputs outputs) {
  abi::Features features = abiFeatures(op);
  features.gradients = outputs;
  spec.params.append(abiParams(
      op, op.isPacked() ? abi::Family::PackedBackward : abi::Family::Backward,
      features, workspaces));
}

/// The argument types of a backward kernel, in the order of its parameters.
static SmallVector<Type> gradArgumentTypes(OpBuilder &b,
                                           AttentionOpInterface op,
                                           const KernelSpec &spec) {
  SmallVector<Type> argTypes;
  for (const KernelParam &p : spec.params) {
    // The dQ accumulator is only reached through atomics (inline PTX),
    // which need its 64-bit address: a global pointer, not a memref (whose
    // aligned pointer is an index, 32 bits wide in 32-bit index mode).
    // So are the staged rows where the warp-specialized key-block kernel
    // reads them with bulk copies.
    if (p.name == "dq_accum" ||
        (spec.tma && (p.name == "lse_log2" || p.name == "row_dot"))) {
      argTypes.push_back(LLVM::LLVMPointerType::get(b.getContext(), 1));
      continue;
    }
    Value v = abiOperand(op, p.name);
    argTypes.push_back(flatArgumentType(
        b, p,
        v ? cast<ShapedType>(v.getType()).getElementType() : b.getF32Type()));
  }
  return argTypes;
}

void tcgrad::buildKernel(OpBuilder &b, gpu::GPUModuleOp module,
                         AttentionOpInterface op, const KernelSpec &spec) {
  OpBuilder::InsertionGuard guard(b);
  loadTensorCoreDialects(b.getContext()); // before the argument types
  gpu::GPUFuncOp func = createTensorCoreFunc(b, module, op.getLoc(), spec,
                                             gradArgumentTypes(b, op, spec));
  tcgrad::emitKernel(b, func, op, spec);
}

FailureOr<GradKernelSpecs>
mlir::attn::describeAttentionGradKernels(AttentionGradOp op, int64_t n,
                                         const GradKernelConfig &config,
                                         const GradKernelOptions &options) {
  if (config.kernel != KernelFamily::cuda_core)
    return tcgrad::describeKernels(op, n, options, config);
  RankedTensorType q = op.getQueryType();
  int64_t batch = q.getDimSize(0), heads = q.getDimSize(1),
          queryLen = q.getDimSize(2), headDim = q.getDimSize(3);
  int64_t kvHeads = op.getKeyType().getDimSize(1),
          keyLen = op.getKeyType().getDimSize(2),
          valueDim = op.getValueType().getDimSize(3);

  const int64_t t = gradThreadsPerRow(headDim, valueDim);
  const int64_t eltBytes = q.getElementType().isF32() ? 4 : 2;
  // Bytes of one staged row: the padded head dims of Q and dO (dkdv) or of K
  // and V (dq).
  const int64_t rowBytes =
      (roundUp(headDim, t) + roundUp(valueDim, t)) * eltBytes;
  // The largest tile of at most `rows` rows that fits the shared budget
  // (`extra` more bytes per row).
  auto fitRows = [&](int64_t rows, int64_t extra) -> int64_t {
    while (rows > 1 && rows * (rowBytes + extra) > kSharedBudget)
      rows /= 2;
    return rows * (rowBytes + extra) > kSharedBudget ? 0 : rows;
  };

  GradKernelSpecs specs;
  specs.kernels.resize(2);
  std::string source = sourceOf(op.getLoc());
  for (KernelSpec &spec : specs.kernels) {
    spec.source = source;
    spec.group = "attn_bwd_" + std::to_string(n);
    spec.threadsPerRow = t;
  }

  // dkdv: Bc keys per block (one row group each), query tiles of Br rows
  // staged with their lse and D_i (8 bytes per row).
  KernelSpec &kv = specs.kernels[0];
  kv.name = "attn_bwd_dkdv_" + std::to_string(n);
  kv.stage = abi::Stage::DKDV;
  kv.blockKV = std::min(tileRowsFor(keyLen), kMaxThreadsPerBlock / t);
  kv.blockQ = fitRows(tileRowsFor(queryLen), 8);
  kv.block = {kv.blockKV * t, 1, 1};
  // 0 in a grid: computed at launch from a run-time size.
  const int64_t batchBlocks = gridBatch(batch);
  kv.grid = {gridBlocks(keyLen, kv.blockKV), kvHeads, batchBlocks};

  // dq: Br queries per block, key tiles of Bc rows.
  KernelSpec &qs = specs.kernels[1];
  qs.name = "attn_bwd_dq_" + std::to_string(n);
  qs.stage = abi::Stage::DQ;
  qs.blockQ = std::min(tileRowsFor(queryLen), kMaxThreadsPerBlock / t);
  qs.blockKV = fitRows(tileRowsFor(keyLen), 0);
  qs.block = {qs.blockQ * t, 1, 1};
  qs.grid = {gridBlocks(queryLen, qs.blockQ), heads, batchBlocks};

  if (kv.blockQ == 0 || qs.blockKV == 0)
    return op.emitOpError("GPU code generation: head dims ")
           << headDim << " and " << valueDim
           << " need more than 48 KiB of shared memory for one staged row "
              "of the backward kernels";

  kernel::addGradParams(op, kv, {}, abi::GradOutputs::KeyValue);
  kernel::addGradParams(op, qs, {}, abi::GradOutputs::Query);
  return specs;
}

LogicalResult
mlir::attn::buildAttentionGradKernels(OpBuilder &b, gpu::GPUModuleOp module,
                                      AttentionGradOp op,
                                      const GradKernelSpecs &specs) {
  MLIRContext *ctx = b.getContext();
  Type elt = op.getQueryType().getElementType();
  auto workgroup =
      gpu::AddressSpaceAttr::get(ctx, gpu::AddressSpace::Workgroup);
  auto sharedTile = [&](int64_t rows, int64_t width, Type type) {
    return MemRefType::get({rows, width}, type, AffineMap(), workgroup);
  };
  auto sharedVector = [&](int64_t rows) {
    return MemRefType::get({rows}, b.getF32Type(), AffineMap(), workgroup);
  };
  int64_t d = op.getQueryType().getDimSize(3),
          dv = op.getValueType().getDimSize(3);

  OpBuilder::InsertionGuard guard(b);
  for (const KernelSpec &specRef : specs.kernels) {
    const KernelSpec *spec = &specRef;
    if (spec->tensorCores) {
      tcgrad::buildKernel(b, module, op, *spec);
      continue;
    }
    b.setInsertionPointToEnd(module.getBody());
    SmallVector<Type> argTypes = gradArgumentTypes(b, op, *spec);
    const int64_t t = spec->threadsPerRow;
    const int64_t dPad = roundUp(d, t), dvPad = roundUp(dv, t);
    bool dkdv = spec->stage == abi::Stage::DKDV;
    SmallVector<Type> shared;
    if (dkdv)
      shared = {sharedTile(spec->blockQ, dPad, elt),
                sharedTile(spec->blockQ, dvPad, elt),
                sharedVector(spec->blockQ), sharedVector(spec->blockQ)};
    else
      shared = {sharedTile(spec->blockKV, dPad, elt),
                sharedTile(spec->blockKV, dvPad, elt)};
    auto func = gpu::GPUFuncOp::create(b, op.getLoc(), spec->name,
                                       b.getFunctionType(argTypes, {}), shared,
                                       TypeRange{});
    func->setAttr(gpu::GPUDialect::getKernelFuncAttrName(), b.getUnitAttr());
    func.setKnownBlockSizeAttr(
        b.getDenseI32ArrayAttr({static_cast<int32_t>(spec->block[0]), 1, 1}));
    GradEmitter emitter(b, op, *spec);
    if (dkdv)
      emitter.emitKeyValueKernel(func);
    else
      emitter.emitQueryKernel(func);
  }
  return success();
}

llvm::json::Object kernel::gradManifestFields(AttentionOpInterface op,
                                              const GradKernelSpecs &specs,
                                              const KernelSpec &spec,
                                              StringRef forwardKernel) {
  llvm::json::Object entry = manifestFields(op, spec);
  entry["stage"] = abi::stageName(spec.stage);
  entry["group"] = spec.group;
  // What the kernels guarantee, which can be more than the op asked for: the
  // atomic-free kernels are bit-reproducible either way.
  entry["deterministic"] = specs.deterministic;
  entry["has_lse"] = false;
  if (!forwardKernel.empty())
    entry["forward"] = forwardKernel.str();
  return entry;
}

llvm::json::Object mlir::attn::kernelManifestEntry(AttentionGradOp op,
                                                   const GradKernelSpecs &specs,
                                                   const KernelSpec &spec,
                                                   StringRef forwardKernel) {
  llvm::json::Object entry = gradManifestFields(op, specs, spec, forwardKernel);
  entry["op"] = "attention_grad";
  return entry;
}
