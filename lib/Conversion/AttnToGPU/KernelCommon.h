//===- KernelCommon.h - helpers shared by the kernel builders --*- C++ -*-===//
//
// Private to lib/Conversion/AttnToGPU: what the forward CUDA-core kernel
// (AttentionKernelBuilder.cpp), the tensor-core kernel and the backward
// kernels (AttentionGradKernelBuilder.cpp) have in common: scalar emission
// helpers, the broadcast mask load, staging rows of a [.., L, width] tensor
// into shared memory, and the manifest fields every kernel entry carries.
//
//===----------------------------------------------------------------------===//

#ifndef ATTNOPT_LIB_CONVERSION_ATTNTOGPU_KERNELCOMMON_H
#define ATTNOPT_LIB_CONVERSION_ATTNTOGPU_KERNELCOMMON_H

#include "KernelInterface.h"
#include "RuntimeSizes.h"
#include "attnopt/Conversion/AttnToGPU/AttnToGPU.h"
#include "attnopt/Dialect/Attn/Utils/ScoreModifiers.h"
#include "attnopt/Dialect/Attn/Utils/SizeLimits.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "llvm/Support/raw_ostream.h"

#include <limits>
#include <string>

namespace mlir::attn::kernel {

/// Float constants of the kernels' softmax arithmetic.
constexpr float kNegInf = -std::numeric_limits<float>::infinity();
constexpr float kPosInf = std::numeric_limits<float>::infinity();
constexpr float kLog2E = 1.4426950408889634f, kLn2 = 0.6931471805599453f;

/// `v` rounded up to a multiple of `m` (> 0).
inline int64_t roundUp(int64_t v, int64_t m) { return (v + m - 1) / m * m; }

/// The manifest spelling of an element type.
inline std::string dtypeName(Type t) {
  if (t.isF16())
    return "f16";
  if (t.isBF16())
    return "bf16";
  if (t.isF32())
    return "f32";
  if (t.isInteger(1))
    return "i1";
  if (t.isInteger(32))
    return "i32";
  return "unsupported";
}

inline SmallVector<int64_t> shapeOf(Value v) {
  return SmallVector<int64_t>(cast<ShapedType>(v.getType()).getShape());
}

inline int64_t numElements(ArrayRef<int64_t> shape) {
  int64_t n = 1;
  for (int64_t s : shape)
    n *= s;
  return n;
}

/// file:line:col of `loc` (the manifest's "source"), or the printed location.
inline std::string sourceOf(Location loc) {
  std::string src;
  llvm::raw_string_ostream os(src);
  if (auto fl = dyn_cast<FileLineColLoc>(loc))
    os << fl.getFilename().getValue() << ":" << fl.getLine() << ":"
       << fl.getColumn();
  else
    loc.print(os);
  return src;
}

/// Fails with a diagnostic at `op` unless its tensors have shapes the kernels
/// take: static, except the batch and the sequence lengths, which may be
/// run-time sizes (RuntimeSizes.h), each dynamic in every tensor that
/// carries it or in none; within the supported sizes (SizeLimits.h), not
/// empty, and with grids that fit CUDA's limits: (blocks over a length,
/// heads, batch), so heads and a static batch at most 65535 (the x
/// dimension is a length over a tile, below 2^31 already).
LogicalResult checkKernelShapes(AttentionOpInterface op);

/// Fails with a diagnostic at `op` unless a packed batch can be compiled
/// under `choice`: static head counts and head dims, grids within CUDA's
/// limits, and the tensor-core kernel (packed batches have no other).
LogicalResult checkPackedKernel(VarlenAttentionOp op, KernelChoice choice);

/// The same for a packed batch's backward on a chip of compute capability
/// `smVersion` (80, 90): the tensor-core group, its only kernels.
LogicalResult checkPackedGradKernel(VarlenAttentionGradOp op,
                                    KernelChoice choice, int64_t smVersion);

/// Whether the kernels can take the paged cache `op` (PagedKernels.cpp)
/// under `choice`: static shapes, every size >= 1, grids within CUDA's
/// limits, and the tensor-core split-KV group (its only kernels).
LogicalResult checkPagedKernel(PagedAttentionOp op, KernelChoice choice);

/// Loads the dialects the tensor-core kernels are built from (their
/// argument types included: the backward's dq_accum is an LLVM pointer).
void loadTensorCoreDialects(MLIRContext *ctx);

/// An empty tensor-core kernel function (forward or backward stage) named
/// spec.name with `argTypes`, appended to `module`, with the launch
/// attributes of `spec` (block size, dynamic shared memory, register
/// budget).
gpu::GPUFuncOp createTensorCoreFunc(OpBuilder &b, gpu::GPUModuleOp module,
                                    Location loc, const KernelSpec &spec,
                                    TypeRange argTypes);

inline KernelParam tensorParam(StringRef name, Value v, bool isOutput) {
  KernelParam p;
  p.name = name.str();
  p.isOutput = isOutput;
  p.dtype = dtypeName(cast<ShapedType>(v.getType()).getElementType());
  p.shape = shapeOf(v);
  return p;
}

/// The TMA tensor map of tensor parameter `tensor` (named
/// `<tensor>_tensor_map`) with `box` (innermost first) and the 128-byte
/// swizzle of the SW128 tiles.
inline KernelParam tensorMapParam(StringRef tensor, ArrayRef<int64_t> box) {
  KernelParam p;
  p.name = (tensor + "_tensor_map").str();
  p.isTensor = false;
  p.tensorMapOf = tensor.str();
  p.box.assign(box.begin(), box.end());
  p.swizzle = 128;
  return p;
}

/// The box of one SW128 panel (64 columns, 128 bytes) of a `rows`-row
/// tile, innermost first: {64, rows, 1, 1} in a dense [B, H, L, D] tensor,
/// {64, 1, rows} in a packed [T, H, D] one (MmaEmitterBase's
/// tmaRowCoordinates).
inline SmallVector<int64_t, 4> tmaTileBox(bool packed, int64_t rows) {
  if (packed)
    return {64, 1, rows};
  return {64, rows, 1, 1};
}

/// Appends the TMA forward's tensor maps to `spec.params`: one SW128 panel
/// of the Q tile's rows (spec.blockQ) and of a K / V block's
/// (spec.blockKV) per copy, boxes as tmaTileBox gives them.
inline void appendForwardTensorMaps(KernelSpec &spec, bool packed) {
  spec.params.push_back(
      tensorMapParam("query", tmaTileBox(packed, spec.blockQ)));
  for (StringRef t : {"key", "value"})
    spec.params.push_back(tensorMapParam(t, tmaTileBox(packed, spec.blockKV)));
}

/// The backward ABI's parameters (docs/kernel-manifest.md) of gradient op
/// `op` appended to `spec` (abi::parameterList): the inputs, then
/// `workspaces`, then the stage's gradients `outputs`, then the run-time
/// sizes.
void addGradParams(AttentionOpInterface op, KernelSpec &spec,
                   ArrayRef<KernelParam> workspaces, abi::GradOutputs outputs);

inline KernelParam scalarParam(StringRef name) {
  KernelParam p;
  p.name = name.str();
  p.isTensor = false;
  return p;
}

/// The kernel argument type of a parameter: a tensor of element type `elt`
/// is a flat memref (i1 masks are passed as bytes), a run-time size an i32,
/// seed and offset i64. A tensor with run-time sizes gets the largest
/// supported extent (kMaxTensorElements): the bare-pointer calling
/// convention needs a static memref, and the kernel indexes it with the
/// run-time sizes, so the extent is a bound, never read.
inline Type flatArgumentType(OpBuilder &b, const KernelParam &p, Type elt) {
  // The address of the kernel's copy of the CUtensorMap: attn-tensor-map-
  // params makes the argument a 128-byte by-value grid constant.
  if (p.isTensorMap()) {
    // The kernel arguments are typed before the kernel's dialects are
    // loaded (createTensorCoreFunc).
    b.getContext()->getOrLoadDialect<LLVM::LLVMDialect>();
    return LLVM::LLVMPointerType::get(b.getContext());
  }
  if (!p.isTensor)
    return p.isSize ? b.getI32Type() : b.getI64Type();
  if (p.dtype == "i1")
    elt = b.getI8Type();
  bool dynamic = llvm::any_of(p.shape, ShapedType::isDynamic);
  return MemRefType::get({dynamic ? kMaxTensorElements : numElements(p.shape)},
                         elt);
}

/// The "params" array of a manifest entry: `spec`'s parameters in order.
llvm::json::Array manifestParams(const KernelSpec &spec);

/// The manifest fields every kernel entry shares (docs/kernel-manifest.md),
/// params included; the caller adds "op", "has_lse" and the backward fields.
llvm::json::Object manifestFields(AttentionOpInterface op,
                                  const KernelSpec &spec);

/// manifestFields and the fields of a backward kernel (`spec` one of
/// `specs.kernels`): stage, group, deterministic, has_lse and, when
/// `forwardKernel` is not empty, forward. The caller adds "op".
llvm::json::Object gradManifestFields(AttentionOpInterface op,
                                      const GradKernelSpecs &specs,
                                      const KernelSpec &spec,
                                      StringRef forwardKernel);

/// Small arith emission helpers on one builder and location.
class ScalarOps {
public:
  ScalarOps(OpBuilder &b, Location loc) : b(b), loc(loc) {}

  Value idx(int64_t v) { return arith::ConstantIndexOp::create(b, loc, v); }
  Value f32(float v) {
    return arith::ConstantFloatOp::create(b, loc, b.getF32Type(), APFloat(v));
  }
  Value add(Value x, Value y) { return arith::AddIOp::create(b, loc, x, y); }
  Value add(Value x, int64_t c) { return c == 0 ? x : add(x, idx(c)); }
  Value mul(Value x, Value y) { return arith::MulIOp::create(b, loc, x, y); }
  Value mul(Value x, int64_t c) { return mul(x, idx(c)); }
  Value divu(Value x, int64_t c) {
    return arith::DivUIOp::create(b, loc, x, idx(c));
  }
  Value remu(Value x, int64_t c) {
    return arith::RemUIOp::create(b, loc, x, idx(c));
  }
  Value minS(Value x, int64_t c) {
    return arith::MinSIOp::create(b, loc, x, idx(c));
  }
  /// x < c and x < y, signed.
  Value ltC(Value x, int64_t c) {
    return arith::CmpIOp::create(b, loc, arith::CmpIPredicate::slt, x, idx(c));
  }
  Value lt(Value x, Value y) {
    return arith::CmpIOp::create(b, loc, arith::CmpIPredicate::slt, x, y);
  }
  /// `body` under scf.if `cond` (no results).
  void emitIf(Value cond, function_ref<void()> body) {
    scf::IfOp::create(b, loc, cond, [&](OpBuilder &nb, Location) {
      OpBuilder::InsertionGuard guard(b);
      b.setInsertionPoint(nb.getInsertionBlock(), nb.getInsertionPoint());
      body();
      scf::YieldOp::create(b, loc);
    });
  }
  /// min(x, len - 1): a position clamped to the last one that exists.
  Value clampToLast(Value x, Value len) {
    return arith::MinSIOp::create(b, loc, x,
                                  arith::SubIOp::create(b, loc, len, idx(1)));
  }
  /// a * b + c as mul and add, which the NVPTX backend contracts into fma
  /// (math.fma would become a libdevice call).
  Value fma(Value a, Value x, Value c) {
    return arith::AddFOp::create(b, loc, arith::MulFOp::create(b, loc, a, x),
                                 c);
  }
  /// x * y + z as mul and add marked `contract`, which the NVPTX backend
  /// fuses into one fma.rn (without the flag it emits mul.rn + add.rn, which
  /// ptxas must not fuse).
  Value fmaC(Value x, Value y, Value z) {
    auto contract = arith::FastMathFlagsAttr::get(
        b.getContext(), arith::FastMathFlags::contract);
    Value p = arith::MulFOp::create(b, loc, x, y, contract);
    return arith::AddFOp::create(b, loc, p, z, contract);
  }
  Value fmul(Value x, Value y) { return arith::MulFOp::create(b, loc, x, y); }
  Value fadd(Value x, Value y) { return arith::AddFOp::create(b, loc, x, y); }
  Value cmp(arith::CmpIPredicate pred, Value x, Value y) {
    return arith::CmpIOp::create(b, loc, pred, x, y);
  }
  Value select(Value c, Value x, Value y) {
    return arith::SelectOp::create(b, loc, c, x, y);
  }
  /// scf.for from lb to ub (step 1) carrying `init`: `step(iv, state)`
  /// emits one iteration through `b` and returns the next state. Returns
  /// the loop's results.
  SmallVector<Value>
  emitLoop(Value lb, Value ub, ValueRange init,
           function_ref<SmallVector<Value>(Value, ValueRange)> step) {
    auto loop = scf::ForOp::create(
        b, loc, lb, ub, idx(1), init,
        [&](OpBuilder &nb, Location, Value iv, ValueRange state) {
          OpBuilder::InsertionGuard guard(b);
          b.setInsertionPoint(nb.getInsertionBlock(), nb.getInsertionPoint());
          scf::YieldOp::create(b, loc, step(iv, state));
        });
    return SmallVector<Value>(loop.getResults());
  }
  Value toF32(Value v) {
    return v.getType().isF32()
               ? v
               : arith::ExtFOp::create(b, loc, b.getF32Type(), v).getResult();
  }
  /// Linear index of `indices` in a row-major tensor of `shape`.
  Value linear(ArrayRef<Extent> shape, ArrayRef<Value> indices) {
    Value lin = indices[0];
    for (size_t d = 1; d < shape.size(); ++d)
      lin = add(mul(lin, shape[d].value(b, loc)), indices[d]);
    return lin;
  }

protected:
  OpBuilder &b;
  Location loc;
};

/// The dimensions of a [B|1, Hq|1, Lq|1, Lk|1] mask (or dropout mask) of
/// type `maskType` in a kernel: its static sizes, and `sizes`' run-time
/// batch, query or key length where the mask's dimension is dynamic.
inline SmallVector<Extent, 4> maskExtents(Type maskType,
                                          const KernelExtents &sizes) {
  auto shape = cast<ShapedType>(maskType).getShape();
  const Extent full[] = {sizes.batch, Extent(shape[1]), sizes.queryLen,
                         sizes.keyLen};
  SmallVector<Extent, 4> dims;
  for (auto [d, size] : llvm::enumerate(shape))
    dims.push_back(ShapedType::isDynamic(size) ? full[d] : Extent(size));
  return dims;
}

/// Loads element (b, h, row, key) of the rank-4 broadcast mask `mask` (flat
/// argument of dimensions `shape`; dimensions of size 1 read index 0). A
/// boolean mask (stored as i8) gives an i1, an additive mask its element.
inline Value emitMaskLoad(OpBuilder &b, Location loc, Value mask,
                          ArrayRef<Extent> shape, bool boolean, Value bIdx,
                          Value hIdx, Value row, Value key) {
  ScalarOps s(b, loc);
  Value zero = s.idx(0);
  auto one = [](const Extent &e) { return e.isStatic() && e.getStatic() == 1; };
  Value pos[] = {one(shape[0]) ? zero : bIdx, one(shape[1]) ? zero : hIdx,
                 one(shape[2]) ? zero : row, one(shape[3]) ? zero : key};
  Value v = memref::LoadOp::create(b, loc, mask, s.linear(shape, pos));
  if (boolean)
    return arith::CmpIOp::create(
        b, loc, arith::CmpIPredicate::ne, v,
        arith::ConstantIntOp::create(b, loc, b.getI8Type(), 0));
  return v;
}

/// emitMaskLoad for a mask of static `shape`.
inline Value emitMaskLoad(OpBuilder &b, Location loc, Value mask,
                          ArrayRef<int64_t> shape, bool boolean, Value bIdx,
                          Value hIdx, Value row, Value key) {
  SmallVector<Extent, 4> dims(shape.begin(), shape.end());
  return emitMaskLoad(b, loc, mask, dims, boolean, bIdx, hIdx, row, key);
}

/// Copies rows [first, first + rows) of a sequence of `len` rows of `width`
/// elements (global row r at flat element (rowBase + r) * width) into
/// shared[r - first][c] for c < paddedWidth. Rows at or past `len` and
/// columns at or past `width` are zero-filled. Thread `tid` of `threads`
/// copies elements tid, tid + threads, ... of the tile.
inline void emitStageRows(OpBuilder &b, Location loc, Value global,
                          Value shared, Type elt, int64_t rows, int64_t width,
                          int64_t paddedWidth, Value rowBase, Value first,
                          Extent len, Value tid, int64_t threads) {
  ScalarOps s(b, loc);
  int64_t count = rows * paddedWidth;
  scf::ForOp::create(
      b, loc, tid, s.idx(count), s.idx(threads), ValueRange{},
      [&](OpBuilder &nb, Location, Value e, ValueRange) {
        OpBuilder::InsertionGuard g(b);
        b.setInsertionPoint(nb.getInsertionBlock(), nb.getInsertionPoint());
        Value j = arith::DivUIOp::create(b, loc, e, s.idx(paddedWidth));
        Value d = arith::RemUIOp::create(b, loc, e, s.idx(paddedWidth));
        Value pos = s.add(first, j);
        Value inside = arith::CmpIOp::create(b, loc, arith::CmpIPredicate::slt,
                                             pos, len.value(b, loc));
        if (paddedWidth != width)
          inside = arith::AndIOp::create(
              b, loc, inside,
              arith::CmpIOp::create(b, loc, arith::CmpIPredicate::ult, d,
                                    s.idx(width)));
        auto ifOp = scf::IfOp::create(
            b, loc, inside,
            [&](OpBuilder &tb, Location tl) {
              Value at = arith::AddIOp::create(
                  tb, tl,
                  arith::MulIOp::create(
                      tb, tl, arith::AddIOp::create(tb, tl, rowBase, pos),
                      arith::ConstantIndexOp::create(tb, tl, width)),
                  d);
              Value v = memref::LoadOp::create(tb, tl, global, at);
              scf::YieldOp::create(tb, tl, v);
            },
            [&](OpBuilder &eb, Location el) {
              Value z = arith::ConstantOp::create(eb, el, eb.getZeroAttr(elt));
              scf::YieldOp::create(eb, el, z);
            });
        memref::StoreOp::create(b, loc, ifOp.getResult(0), shared,
                                ValueRange{j, d});
        scf::YieldOp::create(b, loc);
      });
}

/// A tensor-core kernel's score modifiers in the two forms it applies them:
/// `masked` in the key blocks that need the causal / window rules, `plain`
/// (neither) in the others. With `foldScale` (a positive scale and nothing
/// that must see the scaled score: no softcap, no additive mask) the scale
/// goes into the exponent, exp2(s * scale * log2 e - m), and both forms
/// carry scale 1.
struct ScoreModifierForms {
  ScoreModifiers masked, plain;
  bool foldScale = false;

  explicit ScoreModifierForms(const ScoreModifiers &mods)
      : masked(mods),
        foldScale(mods.scale > 0.0f && !mods.softcap && !mods.additiveMask) {
    if (foldScale)
      masked.scale = 1.0f;
    plain = masked;
    plain.causal = CausalMode::none;
    plain.window.reset();
  }
};

} // namespace mlir::attn::kernel

#endif // ATTNOPT_LIB_CONVERSION_ATTNTOGPU_KERNELCOMMON_H
