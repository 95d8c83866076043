//===- CpuRunnerSupport.cpp - shared pieces of the CPU runners ------------===//

#include "CpuRunnerSupport.h"
#include "HostAssertions.h"
#include "attnopt/Reference/AttentionGradReference.h"

#include "attnopt/Dialect/Attn/IR/AttnDialect.h"
#include "attnopt/Dialect/Attn/Utils/SizeLimits.h"
#include "attnopt/Pipelines/Pipelines.h"
#include "llvm/Support/Format.h"

#include "mlir/Dialect/Bufferization/IR/Bufferization.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/ExecutionEngine/OptUtils.h"
#include "mlir/IR/Builders.h"
#include "mlir/IR/IRMapping.h"
#include "mlir/Pass/PassManager.h"
#include "mlir/Pass/PassRegistry.h"
#include "mlir/Target/LLVMIR/Dialect/Builtin/BuiltinToLLVMIRTranslation.h"
#include "mlir/Target/LLVMIR/Dialect/LLVMIR/LLVMToLLVMIRTranslation.h"
#include "llvm/Support/TargetSelect.h"

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

FailureOr<RunSizes> mlir::attn::parseRunSizes(StringRef text,
                                              std::string &error) {
  RunSizes sizes;
  SmallVector<StringRef> items;
  text.split(items, ',');
  for (StringRef item : items) {
    auto [name, value] = item.trim().split('=');
    name = name.trim();
    value = value.trim();
    int64_t *field = name == "batch"               ? &sizes.batch
                     : name == "query_len"         ? &sizes.queryLen
                     : name == "key_len"           ? &sizes.keyLen
                     : name == "num_pages"         ? &sizes.numPages
                     : name == "max_pages_per_seq" ? &sizes.maxPagesPerSeq
                                                   : nullptr;
    if (!field) {
      error = ("unknown size '" + name +
               "' (expected batch, query_len, key_len, num_pages or "
               "max_pages_per_seq, e.g. batch=2,query_len=100,key_len=77)")
                  .str();
      return failure();
    }
    if (*field != RunSizes::kNotGiven) {
      error = ("size " + name + " given twice").str();
      return failure();
    }
    if (value.getAsInteger(10, *field) || *field < 0) {
      error = ("size " + name + ": expected a non-negative integer, got '" +
               value + "'")
                  .str();
      return failure();
    }
  }
  return sizes;
}

namespace {
/// What the dynamic dimensions of a tensor of the op stand for.
enum class SizeRole { QueryRows, KeyRows, Scores };
} // namespace

/// `t`'s shape with its dynamic batch (dimension 0) and length (dimension 2;
/// 3 of a score-shaped mask) replaced by `sizes`; fails at `op` for a
/// dynamic head count or head dim, or a size not given.
static FailureOr<std::vector<int64_t>>
bindShape(Operation *op, Type type, SizeRole role, const RunSizes &sizes) {
  auto t = cast<RankedTensorType>(type);
  std::vector<int64_t> shape(t.getShape().begin(), t.getShape().end());
  for (size_t d = 0; d < shape.size(); ++d) {
    if (!ShapedType::isDynamic(shape[d]))
      continue;
    const bool keyDim = (role == SizeRole::KeyRows && d == 2) ||
                        (role == SizeRole::Scores && d == 3);
    const bool queryDim = role != SizeRole::KeyRows && d == 2;
    const char *name = d == 0     ? "batch"
                       : keyDim   ? "key_len"
                       : queryDim ? "query_len"
                                  : nullptr;
    if (!name)
      return op->emitError("attn-cpu-run: dimension ")
             << d << " of " << t
             << " is dynamic; only the batch and the sequence lengths may be "
                "(run-time sizes)";
    int64_t value = d == 0   ? sizes.batch
                    : keyDim ? sizes.keyLen
                             : sizes.queryLen;
    if (value == RunSizes::kNotGiven)
      return op->emitError("attn-cpu-run: ")
             << t << " has a dynamic " << name << "; give it with --sizes "
             << name << "=N (e.g. --sizes batch=2,query_len=100,key_len=77)";
    shape[d] = value;
  }
  return shape;
}

bool mlir::attn::hasRunTimeSizes(Operation *op) {
  for (Type type :
       llvm::concat<Type>(op->getOperandTypes(), op->getResultTypes()))
    if (auto t = dyn_cast<RankedTensorType>(type); t && !t.hasStaticShape())
      return true;
  return false;
}

void mlir::attn::setScoreAttributes(AttentionOpInterface op,
                                    AttentionProblem &p) {
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
  p.dropoutP = op.getDropoutP().convertToFloat();
}

/// Reads the problem definition off a verified op, its dynamic batch and
/// lengths bound to `sizes`.
FailureOr<AttentionProblem> mlir::attn::problemOf(AttentionOpInterface op,
                                                  const RunSizes &sizes) {
  if (failed(checkSizeLimits(op, "attn-cpu-run")))
    return failure();
  // Every tensor with its role, bound.
  SmallVector<std::pair<Type, SizeRole>> tensors = {
      {op.getQueryType(), SizeRole::QueryRows},
      {op.getKeyType(), SizeRole::KeyRows},
      {op.getValueType(), SizeRole::KeyRows}};
  for (Value m : {op.getMask(), op.getDropoutMask()})
    if (m)
      tensors.push_back({m.getType(), SizeRole::Scores});
  if (auto grad = dyn_cast<AttentionGradOp>(op.getOperation())) {
    for (Value v : {grad.getOutput(), grad.getLse(), grad.getGradOutput(),
                    grad.getGradQuery()})
      tensors.push_back({v.getType(), SizeRole::QueryRows});
    for (Value v : {grad.getGradKey(), grad.getGradValue()})
      tensors.push_back({v.getType(), SizeRole::KeyRows});
  } else {
    for (Value r : op->getResults())
      tensors.push_back({r.getType(), SizeRole::QueryRows});
  }
  SmallVector<std::vector<int64_t>> shapes;
  for (auto [type, role] : tensors) {
    FailureOr<std::vector<int64_t>> shape = bindShape(op, type, role, sizes);
    if (failed(shape))
      return failure();
    shapes.push_back(*shape);
  }
  // The verifier does not compare a dynamic size with a static one: a given
  // size must agree with the tensors where that size is static (masks may
  // broadcast it with 1), or the buffers would not match the problem.
  const int64_t batch = shapes[0][0], queryLen = shapes[0][2],
                keyLen = shapes[1][2];
  for (auto [i, tensor] : llvm::enumerate(tensors)) {
    auto [type, role] = tensor;
    const std::vector<int64_t> &shape = shapes[i];
    struct Want {
      size_t dim;
      int64_t size;
      const char *name;
    };
    SmallVector<Want, 3> wants = {{0, batch, "batch"}};
    if (role == SizeRole::Scores) {
      wants.push_back({2, queryLen, "query length"});
      wants.push_back({3, keyLen, "key length"});
    } else {
      wants.push_back(
          {2, role == SizeRole::KeyRows ? keyLen : queryLen,
           role == SizeRole::KeyRows ? "key length" : "query length"});
    }
    for (const Want &w : wants) {
      if (w.dim >= shape.size() || shape[w.dim] == w.size ||
          (role == SizeRole::Scores && shape[w.dim] == 1))
        continue;
      return op->emitError("attn-cpu-run: the ")
             << w.name << " is " << w.size << " (the query's or key's, with "
             << "--sizes) but " << shape[w.dim] << " in dimension " << w.dim
             << " of " << type
             << "; a run-time size must agree with the tensors where it is "
                "static";
    }
  }
  // A size given where the op has it static everywhere binds nothing (a
  // draw applies to every op of the file, static ones included): said, so
  // that a run of another problem than the one asked for is not silent.
  for (auto [given, bound, name] :
       {std::tuple{sizes.batch, batch, "batch"},
        std::tuple{sizes.queryLen, queryLen, "query_len"},
        std::tuple{sizes.keyLen, keyLen, "key_len"}})
    if (given != RunSizes::kNotGiven && given != bound)
      op->emitWarning("attn-cpu-run: --sizes ")
          << name << "=" << given << " does not apply: the op's " << name
          << " is static (" << bound << ")";
  // Host memory: each tensor as stored, as float64 values and as float64
  // reference results (~24 bytes an element), plus the reference's float64
  // score rows. A validation tool for small problems: refuse, with the
  // number, what would not fit rather than abort in an allocation.
  constexpr double kHostBudgetBytes = 8.0 * (int64_t(1) << 30);
  double bytes = 0;
  for (const std::vector<int64_t> &shape : shapes) {
    double n = 1;
    for (int64_t d : shape)
      n *= double(d);
    bytes += 24.0 * n;
  }
  bytes += 8.0 * double(shapes[0][2]) * double(shapes[1][2]);
  if (bytes > kHostBudgetBytes)
    return op->emitError("attn-cpu-run: the problem needs about ")
           << static_cast<int64_t>(std::ceil(bytes / double(int64_t(1) << 30)))
           << " GiB of host memory, above the 8 GiB the CPU runner allows "
              "(it validates small problems; use attn-compile and attn-run "
              "on a GPU for large ones)";
  AttentionProblem p;
  const std::vector<int64_t> &q = shapes[0];
  p.batch = q[0];
  p.queryHeads = q[1];
  p.queryLen = q[2];
  p.headDim = q[3];
  p.kvHeads = shapes[1][1];
  p.keyLen = shapes[1][2];
  p.valueDim = shapes[2][3];
  setScoreAttributes(op, p);
  size_t next = 3; // the masks' shapes follow Q, K, V
  if (Value mask = op.getMask()) {
    auto t = cast<RankedTensorType>(mask.getType());
    p.maskKind = t.getElementType().isInteger(1)
                     ? attnopt::ref::MaskKind::Boolean
                     : attnopt::ref::MaskKind::Additive;
    for (int i = 0; i < 4; ++i)
      p.maskShape[i] = shapes[next][i];
    ++next;
  }
  if (op.getDropoutMask()) {
    p.hasDropoutMask = true;
    for (int i = 0; i < 4; ++i)
      p.dropoutMaskShape[i] = shapes[next][i];
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

void mlir::attn::prepareForJit(MLIRContext *ctx) {
  static bool initialized = [] {
    llvm::InitializeNativeTarget();
    llvm::InitializeNativeTargetAsmPrinter();
    return true;
  }();
  (void)initialized;
  ctx->loadDialect<arith::ArithDialect, bufferization::BufferizationDialect,
                   func::FuncDialect, linalg::LinalgDialect, LLVM::LLVMDialect,
                   memref::MemRefDialect>();
  registerBuiltinDialectTranslation(*ctx);
  registerLLVMDialectTranslation(*ctx);
}

/// The user's lowering as a pipeline on the module: one written with its
/// anchor (`builtin.module(...)`, `func.func(...)`) as written; otherwise a
/// func.func pipeline (attn-decompose, attn-tile{...}) nested in each
/// function, or failing that a module one (attn-cpu-pipeline).
static FailureOr<std::string> loweringPipeline(ModuleOp module,
                                               StringRef lowering) {
  std::string anchoredErrors;
  llvm::raw_string_ostream anchoredStream(anchoredErrors);
  if (FailureOr<OpPassManager> anchored =
          parsePassPipeline(lowering, anchoredStream);
      succeeded(anchored)) {
    // The caller parses the result into the module's pass manager: a
    // module pipeline without its anchor, a nested one with it.
    StringRef text = lowering.trim();
    if (anchored->getOpAnchorName() == ModuleOp::getOperationName())
      return text.drop_until([](char c) { return c == '('; })
          .drop_front()
          .drop_back()
          .str();
    return text.str();
  }
  std::string nested = ("func.func(" + lowering + ")").str(), nestedErrors;
  llvm::raw_string_ostream nestedStream(nestedErrors);
  OpPassManager probe(ModuleOp::getOperationName());
  if (succeeded(parsePassPipeline(nested, probe, nestedStream)))
    return nested;
  std::string moduleErrors;
  llvm::raw_string_ostream moduleStream(moduleErrors);
  OpPassManager moduleProbe(ModuleOp::getOperationName());
  if (succeeded(parsePassPipeline(lowering, moduleProbe, moduleStream)))
    return lowering.str();
  // Both failed: a module pipeline's own error (a bad option) says more
  // than that it cannot nest in func.func.
  const bool onlyAnchor =
      StringRef(nestedErrors).contains("runs on builtin.module") ||
      StringRef(nestedErrors).contains("restricted to 'builtin.module'");
  return module.emitError("invalid lowering pipeline '")
         << lowering << "': " << (onlyAnchor ? moduleErrors : nestedErrors);
}

LogicalResult mlir::attn::lowerToLLVM(ModuleOp module,
                                      const CpuRunOptions &options) {
  // The user's lowering removes the attn ops; the common tail
  // (attn-lower-to-llvm-pipeline) bufferizes and lowers to LLVM.
  FailureOr<std::string> pipeline = loweringPipeline(module, options.lowering);
  if (failed(pipeline))
    return failure();
  PassManager pm(module.getContext());
  if (failed(parsePassPipeline(*pipeline, pm)) || failed(pm.run(module)))
    return failure();
  WalkResult left = module.walk([&](Operation *op) {
    if (!isa<AttnDialect>(op->getDialect()))
      return WalkResult::advance();
    op->emitError("attn-cpu-run: the --lowering pipeline '")
        << options.lowering << "' left '" << op->getName()
        << "' in place (it must replace every attn op, as attn-decompose "
           "and attn-tile do)";
    return WalkResult::interrupt();
  });
  if (left.wasInterrupted())
    return failure();
  routeAssertionsToHost(module);
  PassManager tail(module.getContext());
  buildAttnLowerToLLVMPipeline(tail);
  return tail.run(module);
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
  registerHostAssertions(**engine);
  return std::move(*engine);
}

LogicalResult mlir::attn::runEachDraw(
    AttentionOpInterface op, const CpuRunOptions &options,
    function_ref<FailureOr<AttentionProblem>(const RunSizes &)> problemFor,
    function_ref<OwningOpRef<ModuleOp>()> buildModule,
    function_ref<LogicalResult(ExecutionEngine &, const AttentionProblem &,
                               unsigned)>
        run) {
  // Without draws, an op with run-time sizes fails in problemFor, which
  // says which size to give.
  SmallVector<RunSizes> draws(1);
  if (hasRunTimeSizes(op) && !options.sizes.empty())
    draws.assign(options.sizes.begin(), options.sizes.end());
  else
    // An op without run-time sizes runs once; its problem with each draw
    // bound warns where a given size does not apply.
    for (const RunSizes &sizes : options.sizes)
      if (failed(problemFor(sizes)))
        return failure();
  SmallVector<AttentionProblem> problems;
  for (const RunSizes &sizes : draws) {
    FailureOr<AttentionProblem> p = problemFor(sizes);
    if (failed(p))
      return failure();
    problems.push_back(*p);
  }
  OwningOpRef<ModuleOp> module = buildModule();
  FailureOr<std::unique_ptr<ExecutionEngine>> engine =
      compileForCpu(op, *module, options);
  if (failed(engine))
    return failure();
  bool ok = true;
  for (auto [i, p] : llvm::enumerate(problems))
    ok &= succeeded(run(**engine, p, static_cast<unsigned>(i)));
  return success(ok);
}

std::vector<double> mlir::attn::storeAll(HostTensor &t,
                                         const std::vector<double> &values) {
  std::vector<double> stored(values.size());
  for (size_t i = 0; i < values.size(); ++i)
    stored[i] = t.store(static_cast<int64_t>(i), values[i]);
  return stored;
}

ForwardComparison mlir::attn::compareForward(
    const HostTensor &out, const std::vector<double> &refOut,
    const HostTensor *lse, const std::vector<double> &refLse) {
  ForwardComparison c;
  c.outRelErr = maxRelativeError(out, refOut, c.nans);
  if (!lse)
    return c;
  for (int64_t i = 0; i < lse->numElements(); ++i) {
    double got = lse->load(i);
    if (std::isnan(got)) {
      ++c.nans;
      continue;
    }
    if (std::isinf(refLse[i]) || std::isinf(got)) {
      c.lseInfMismatches += got != refLse[i];
      continue;
    }
    c.lseErr = std::max(c.lseErr, std::fabs(got - refLse[i]) /
                                      std::max(1.0, std::fabs(refLse[i])));
  }
  return c;
}

double mlir::attn::scoreRoundingError(float scale, int64_t headDim,
                                      ArrayRef<double> q, ArrayRef<double> k) {
  auto maxAbs = [](ArrayRef<double> x) {
    double m = 0.0;
    for (double v : x)
      if (std::isfinite(v))
        m = std::max(m, std::fabs(v));
    return m;
  };
  return std::ldexp(1.0, -24) * std::fabs(double(scale)) *
         std::sqrt(double(headDim)) * maxAbs(q) * maxAbs(k);
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

FailureOr<AttentionInputs> AttentionInputs::generate(AttentionOpInterface op,
                                                     InputGenerator &gen,
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
    : type(t), q(t, {p.batch, p.queryHeads, p.queryLen, p.headDim}),
      k(t, {p.batch, p.kvHeads, p.keyLen, p.headDim}),
      v(t, {p.batch, p.kvHeads, p.keyLen, p.valueDim}) {
  qValues = gen.fill(q, -2.0, 2.0);
  kValues = gen.fill(k, -2.0, 2.0);
  vValues = gen.fill(v, -1.0, 1.0);
  if (maskType) {
    mask.emplace(*maskType,
                 std::vector<int64_t>(p.maskShape.begin(), p.maskShape.end()));
    maskValues = gen.fillMask(*mask, p.maskShape[3]);
  }
  seed = static_cast<int64_t>(gen.next());
  offset = static_cast<int64_t>(gen.next() & 0xFFFFFFFFFFull);
  p.seed = static_cast<uint64_t>(seed);
  p.offset = static_cast<uint64_t>(offset);
  if (p.hasDropoutMask) {
    dropoutMask.emplace(HostElementType::I1,
                        std::vector<int64_t>(p.dropoutMaskShape.begin(),
                                             p.dropoutMaskShape.end()));
    dropoutMaskValues = gen.fillKeep(*dropoutMask, p.dropoutP);
  }
}

bool mlir::attn::reportForward(llvm::raw_ostream &os,
                               const ForwardComparison &c, double tol,
                               bool hasLse) {
  const double lseTol = 1e-5;
  os << llvm::format("  output: max rel err %.3e (tolerance %.1e)\n",
                     c.outRelErr, tol);
  if (hasLse)
    os << llvm::format("  lse: max rel err %.3e (tolerance %.1e), -inf "
                       "mismatches %lld\n",
                       c.lseErr, lseTol, (long long)c.lseInfMismatches);
  if (c.nans)
    os << "  NaN or unwritten outputs: " << c.nans << "\n";
  return c.nans == 0 && c.outRelErr <= tol && c.lseErr <= lseTol &&
         c.lseInfMismatches == 0;
}

LogicalResult mlir::attn::invokeOnTensors(Operation *op,
                                          ExecutionEngine &engine,
                                          ArrayRef<HostTensor *> tensors) {
  SmallVector<void *> descs, args;
  for (HostTensor *h : tensors)
    descs.push_back(h->descriptor());
  for (void *&d : descs)
    args.push_back(&d);
  if (llvm::Error err =
          engine.invokePacked(("_mlir_ciface_" + kCpuKernelName).str(), args))
    return op->emitError("attn-cpu-run: invocation failed: ")
           << llvm::toString(std::move(err));
  return success();
}

bool mlir::attn::checkGradients(
    const GradientResults &grads, double tol,
    llvm::function_ref<std::array<std::vector<double>, 3>()> sizes,
    llvm::raw_ostream &os, int64_t &nans) {
  static const char *const names[] = {"grad_query", "grad_key", "grad_value"};
  std::array<double, 3> errs;
  for (int g = 0; g < 3; ++g)
    errs[g] = maxRelativeError(*grads.got[g], *grads.ref[g], nans);
  // Beyond the relative tolerance: the rounding of the terms (one call of
  // the magnitude reference for all three).
  std::array<std::optional<double>, 3> cancellation;
  if (nans == 0 && llvm::any_of(errs, [&](double e) { return e > tol; })) {
    std::array<std::vector<double>, 3> size = sizes();
    for (int g = 0; g < 3; ++g) {
      if (errs[g] <= tol)
        continue;
      const HostTensor &got = *grads.got[g];
      std::vector<double> values(got.numElements());
      double refMax = 0.0;
      for (int64_t i = 0; i < got.numElements(); ++i) {
        values[i] = got.load(i);
        refMax = std::max(refMax, std::fabs((*grads.ref[g])[i]));
      }
      cancellation[g] = attnopt::ref::gradientCancellationRatio(
          values, *grads.ref[g], size[g], tol, refMax,
          attnopt::ref::kGradientCancellationFloor);
    }
  }
  bool ok = nans == 0;
  for (int g = 0; g < 3; ++g) {
    os << llvm::format("  %s: max rel err %.3e (tolerance %.1e)", names[g],
                       errs[g], tol);
    bool good = errs[g] <= tol;
    if (cancellation[g]) {
      good = *cancellation[g] <= 1.0;
      os << llvm::format("; cancelling terms: %s (worst %.2f of tolerance + "
                         "%.1e x |terms|)",
                         good ? "within their rounding" : "beyond it",
                         *cancellation[g],
                         attnopt::ref::kGradientCancellationFloor);
    }
    os << "\n";
    ok = ok && good;
  }
  if (nans)
    os << "  NaN or unwritten gradients: " << nans << "\n";
  return ok;
}
