//===- CpuRunnerSupport.cpp - shared pieces of the CPU runners ------------===//

#include "CpuRunnerSupport.h"
#include "attnopt/Dialect/Attn/Utils/SizeLimits.h"
#include "attnopt/Pipelines/Pipelines.h"

#include "mlir/Dialect/Bufferization/IR/Bufferization.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/ExecutionEngine/OptUtils.h"
#include "mlir/IR/Builders.h"
#include "mlir/IR/IRMapping.h"
#include "mlir/Pass/PassManager.h"
#include "mlir/Pass/PassRegistry.h"

#include <cmath>

using namespace mlir;
using namespace mlir::attn;

FailureOr<HostElementType> mlir::attn::hostType(Operation *op, Type t) {
  if (t.isF16())
    return HostElementType::F16;
  if (t.isBF16())
    return HostElementType::BF16;
  if (t.isF32())
    return HostElementType::F32;
  if (t.isInteger(1))
    return HostElementType::I1;
  return op->emitError() << "attn-cpu-run: unsupported element type " << t;
}

std::vector<int64_t> mlir::attn::shapeOf(Value v) {
  ArrayRef<int64_t> s = cast<ShapedType>(v.getType()).getShape();
  return std::vector<int64_t>(s.begin(), s.end());
}

/// Reads the problem definition off a verified, statically shaped op.
FailureOr<AttentionProblem> mlir::attn::problemOf(AttentionOpInterface op) {
  for (Type type :
       llvm::concat<Type>(op->getOperandTypes(), op->getResultTypes()))
    if (auto t = dyn_cast<RankedTensorType>(type); t && !t.hasStaticShape())
      return op->emitError("attn-cpu-run needs static shapes, got ") << t;
  if (failed(checkSizeLimits(op, "attn-cpu-run")))
    return failure();
  // Host memory: each tensor as stored, as float64 values and as float64
  // reference results (~24 bytes an element), plus the reference's float64
  // score rows. A validation tool for small problems: refuse, with the
  // number, what would not fit rather than abort in an allocation.
  constexpr double kHostBudgetBytes = 8.0 * (int64_t(1) << 30);
  double bytes = 0;
  for (Type type :
       llvm::concat<Type>(op->getOperandTypes(), op->getResultTypes()))
    if (auto t = dyn_cast<RankedTensorType>(type))
      bytes += 24.0 * double(*checkedProduct(t.getShape()));
  bytes += 8.0 * double(op.getQueryType().getDimSize(2)) *
           double(op.getKeyType().getDimSize(2));
  if (bytes > kHostBudgetBytes)
    return op->emitError("attn-cpu-run: the problem needs about ")
           << static_cast<int64_t>(std::ceil(bytes / double(int64_t(1) << 30)))
           << " GiB of host memory, above the 8 GiB the CPU runner allows "
              "(it validates small problems; use attn-compile and attn-run "
              "on a GPU for large ones)";
  AttentionProblem p;
  ArrayRef<int64_t> q = op.getQueryType().getShape();
  p.batch = q[0];
  p.queryHeads = q[1];
  p.queryLen = q[2];
  p.headDim = q[3];
  p.kvHeads = op.getKeyType().getDimSize(1);
  p.keyLen = op.getKeyType().getDimSize(2);
  p.valueDim = op.getValueType().getDimSize(3);
  p.scale = op.getEffectiveScale();
  switch (op.getCausal()) {
  case CausalMode::none:
    p.causal = attnopt::ref::Causal::None;
    break;
  case CausalMode::top_left:
    p.causal = attnopt::ref::Causal::TopLeft;
    break;
  case CausalMode::bottom_right:
    p.causal = attnopt::ref::Causal::BottomRight;
    break;
  }
  if (std::optional<ArrayRef<int64_t>> w = op.getWindow()) {
    p.hasWindow = true;
    p.windowLeft = (*w)[0];
    p.windowRight = (*w)[1];
  }
  if (FloatAttr softcap = op.getSoftcapAttr()) {
    p.hasSoftcap = true;
    p.softcap = softcap.getValue().convertToFloat();
  }
  if (Value mask = op.getMask()) {
    auto t = cast<RankedTensorType>(mask.getType());
    p.maskKind = t.getElementType().isInteger(1)
                     ? attnopt::ref::MaskKind::Boolean
                     : attnopt::ref::MaskKind::Additive;
    for (int i = 0; i < 4; ++i)
      p.maskShape[i] = t.getDimSize(i);
  }
  p.dropoutP = op.getDropoutP().convertToFloat();
  if (Value keep = op.getDropoutMask()) {
    p.hasDropoutMask = true;
    for (int i = 0; i < 4; ++i)
      p.dropoutMaskShape[i] =
          cast<RankedTensorType>(keep.getType()).getDimSize(i);
  }
  return p;
}

MemRefType mlir::attn::memrefFor(Value tensor) {
  auto t = cast<RankedTensorType>(tensor.getType());
  return MemRefType::get(t.getShape(), t.getElementType());
}

void mlir::attn::buildCpuEntryFunction(OpBuilder &b, ModuleOp module,
                                       Operation *op) {
  Location loc = op->getLoc();
  OpBuilder::InsertionGuard guard(b);
  b.setInsertionPointToEnd(module.getBody());
  SmallVector<Value> tensorInputs, scalarInputs;
  for (Value v : op->getOperands())
    (isa<RankedTensorType>(v.getType()) ? tensorInputs : scalarInputs)
        .push_back(v);
  SmallVector<Type> argTypes;
  for (Value v : tensorInputs)
    argTypes.push_back(memrefFor(v));
  for (Value v : scalarInputs)
    argTypes.push_back(v.getType());
  for (Value r : op->getResults())
    argTypes.push_back(memrefFor(r));

  auto func = func::FuncOp::create(b, loc, kCpuKernelName,
                                   b.getFunctionType(argTypes, {}));
  func->setAttr(LLVM::LLVMDialect::getEmitCWrapperAttrName(), b.getUnitAttr());
  Block *entry = func.addEntryBlock();
  b.setInsertionPointToStart(entry);
  // One argument per operand *position*, not per value: in self-attention
  // (`ins(%x, %x, %x ...)`) or `rng(%s, %s)` one value fills several
  // operands, and the runner gives each operand its own buffer (a mapping by
  // value would make all three read the last one).
  SmallVector<Value> operandArgs(op->getNumOperands());
  unsigned arg = 0;
  for (OpOperand &use : op->getOpOperands())
    if (isa<RankedTensorType>(use.get().getType()))
      operandArgs[use.getOperandNumber()] = bufferization::ToTensorOp::create(
          b, loc, use.get().getType(), entry->getArgument(arg++),
          /*restrict=*/true);
  for (OpOperand &use : op->getOpOperands())
    if (!isa<RankedTensorType>(use.get().getType()))
      operandArgs[use.getOperandNumber()] = entry->getArgument(arg++);
  Operation *clone = b.clone(*op);
  clone->setOperands(operandArgs);
  for (Value r : clone->getResults()) {
    auto mat = bufferization::MaterializeInDestinationOp::create(
        b, loc, TypeRange{}, r, entry->getArgument(arg++));
    mat.setRestrict(true);
    mat.setWritable(true);
  }
  func::ReturnOp::create(b, loc);
}

LogicalResult mlir::attn::lowerToLLVM(ModuleOp module,
                                      const CpuRunOptions &options) {
  PassManager pm(module.getContext());
  // The user's lowering removes attn.attention; the common tail
  // (attn-lower-to-llvm-pipeline) bufferizes and lowers to LLVM.
  std::string pipeline = "func.func(" + options.lowering + ")";
  std::string errors;
  llvm::raw_string_ostream errStream(errors);
  if (failed(parsePassPipeline(pipeline, pm, errStream)))
    return module.emitError("invalid lowering pipeline '")
           << options.lowering << "': " << errors;
  buildAttnLowerToLLVMPipeline(pm);
  return pm.run(module);
}

FailureOr<std::unique_ptr<ExecutionEngine>>
mlir::attn::compileForCpu(Operation *op, ModuleOp module,
                          const CpuRunOptions &options) {
  if (failed(lowerToLLVM(module, options)))
    return op->emitError("attn-cpu-run: lowering to LLVM failed");
  if (options.dumpLowered)
    module->print(*options.dumpLowered);
  ExecutionEngineOptions engineOptions;
  auto transformer = makeOptimizingTransformer(2, 0, nullptr);
  engineOptions.transformer = transformer;
  // memrefCopy and friends, which the bufferized code calls.
  SmallVector<StringRef> sharedLibs = {ATTN_MLIR_C_RUNNER_UTILS};
  engineOptions.sharedLibPaths = sharedLibs;
  auto engine = ExecutionEngine::create(module, engineOptions);
  if (!engine)
    return op->emitError("attn-cpu-run: JIT compilation failed: ")
           << llvm::toString(engine.takeError());
  return std::move(*engine);
}

double mlir::attn::defaultTolerance(Type elt) {
  if (elt.isF32())
    return 1e-5;
  if (elt.isF16())
    return 2e-3;
  return 8e-3;
}

double mlir::attn::maxRelativeError(const HostTensor &got,
                                    const std::vector<double> &ref,
                                    int64_t &nans) {
  double maxRef = 0.0, maxDiff = 0.0;
  for (int64_t i = 0; i < got.numElements(); ++i) {
    double g = got.load(i);
    if (std::isnan(g)) {
      ++nans;
      continue;
    }
    maxRef = std::max(maxRef, std::fabs(ref[i]));
    maxDiff = std::max(maxDiff, std::fabs(g - ref[i]));
  }
  return maxRef > 0.0 ? maxDiff / maxRef : maxDiff;
}

FailureOr<std::optional<HostElementType>>
mlir::attn::maskHostType(AttentionOpInterface op) {
  Value m = op.getMask();
  if (!m)
    return std::optional<HostElementType>();
  FailureOr<HostElementType> t =
      hostType(op, cast<ShapedType>(m.getType()).getElementType());
  if (failed(t))
    return failure();
  return std::optional<HostElementType>(*t);
}

FailureOr<AttentionInputs>
AttentionInputs::generate(AttentionOpInterface op, InputGenerator &gen,
                          AttentionProblem &p) {
  FailureOr<HostElementType> t =
      hostType(op, op.getQueryType().getElementType());
  if (failed(t))
    return failure();
  FailureOr<std::optional<HostElementType>> maskType = maskHostType(op);
  if (failed(maskType))
    return failure();
  return AttentionInputs(op, *t, *maskType, gen, p);
}

AttentionInputs::AttentionInputs(AttentionOpInterface op, HostElementType t,
                                 std::optional<HostElementType> maskType,
                                 InputGenerator &gen, AttentionProblem &p)
    : type(t), q(t, shapeOf(op.getQuery())), k(t, shapeOf(op.getKey())),
      v(t, shapeOf(op.getValue())) {
  qValues = gen.fill(q, -2.0, 2.0);
  kValues = gen.fill(k, -2.0, 2.0);
  vValues = gen.fill(v, -1.0, 1.0);
  if (maskType) {
    mask.emplace(*maskType, shapeOf(op.getMask()));
    maskValues = gen.fillMask(*mask, p.maskShape[3]);
  }
  seed = static_cast<int64_t>(gen.next());
  offset = static_cast<int64_t>(gen.next() & 0xFFFFFFFFFFull);
  p.seed = static_cast<uint64_t>(seed);
  p.offset = static_cast<uint64_t>(offset);
  if (p.hasDropoutMask) {
    dropoutMask.emplace(HostElementType::I1, shapeOf(op.getDropoutMask()));
    dropoutMaskValues = gen.fillKeep(*dropoutMask, p.dropoutP);
  }
}
