//===- CpuRunner.cpp - run attn.attention on the CPU and validate ---------===//

#include "attnopt/Execution/CpuRunner.h"
#include "attnopt/Pipelines/Pipelines.h"
#include "DumpArrays.h"
#include "HostTensors.h"
#include "attnopt/Dialect/Attn/IR/AttnOps.h"
#include "attnopt/Dialect/Attn/Utils/Philox.h"
#include "attnopt/Reference/AttentionReference.h"
#include "attnopt/Reference/Philox.h"

#include "mlir/Dialect/Bufferization/IR/Bufferization.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/ExecutionEngine/ExecutionEngine.h"
#include "mlir/ExecutionEngine/OptUtils.h"
#include "mlir/IR/Builders.h"
#include "mlir/IR/IRMapping.h"
#include "mlir/Pass/PassManager.h"
#include "mlir/Pass/PassRegistry.h"
#include "mlir/Target/LLVMIR/Dialect/Builtin/BuiltinToLLVMIRTranslation.h"
#include "mlir/Target/LLVMIR/Dialect/LLVMIR/LLVMToLLVMIRTranslation.h"
#include "llvm/Support/Format.h"
#include "llvm/Support/TargetSelect.h"

#include <cmath>
#include <limits>
#include <random>

using namespace mlir;
using namespace mlir::attn;
using attnopt::ref::AttentionProblem;

namespace {

constexpr llvm::StringLiteral kKernelName = "attn_kernel";
constexpr llvm::StringLiteral kKeepName = "attn_dropout_keep";


FailureOr<HostElementType> hostType(Operation *op, Type t) {
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

std::vector<int64_t> shapeOf(Value v) {
  ArrayRef<int64_t> s = cast<ShapedType>(v.getType()).getShape();
  return std::vector<int64_t>(s.begin(), s.end());
}

/// Reads the problem definition off a verified, statically shaped op.
FailureOr<AttentionProblem> problemOf(AttentionOp op) {
  for (Type type : llvm::concat<Type>(op->getOperandTypes(),
                                      op->getResultTypes()))
    if (auto t = dyn_cast<RankedTensorType>(type); t && !t.hasStaticShape())
      return op.emitError("attn-cpu-run needs static shapes, got ") << t;
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
  return p;
}

MemRefType memrefFor(Value tensor) {
  auto t = cast<RankedTensorType>(tensor.getType());
  return MemRefType::get(t.getShape(), t.getElementType());
}

/// Builds `func @attn_kernel(q, k, v, [mask], [seed, offset], out, [lse])`
/// over memrefs, with a clone of `op` inside, plus, for dropout, a function
/// that writes the MLIR-emitted keep mask so it can be compared bit for bit.
OwningOpRef<ModuleOp> buildKernelModule(AttentionOp op) {
  MLIRContext *ctx = op.getContext();
  Location loc = op.getLoc();
  OpBuilder b(ctx);
  OwningOpRef<ModuleOp> module = ModuleOp::create(loc);
  b.setInsertionPointToEnd(module->getBody());

  SmallVector<Value> tensorInputs = {op.getQuery(), op.getKey(), op.getValue()};
  if (op.getMask())
    tensorInputs.push_back(op.getMask());
  SmallVector<Type> argTypes;
  for (Value v : tensorInputs)
    argTypes.push_back(memrefFor(v));
  bool hasRng = static_cast<bool>(op.getSeed());
  if (hasRng)
    argTypes.append({b.getI64Type(), b.getI64Type()});
  for (Value r : op->getResults())
    argTypes.push_back(memrefFor(r));

  auto func = func::FuncOp::create(b, loc, kKernelName,
                                   b.getFunctionType(argTypes, {}));
  func->setAttr(LLVM::LLVMDialect::getEmitCWrapperAttrName(), b.getUnitAttr());
  Block *entry = func.addEntryBlock();
  b.setInsertionPointToStart(entry);
  IRMapping mapping;
  unsigned arg = 0;
  for (Value v : tensorInputs) {
    Value t = bufferization::ToTensorOp::create(
        b, loc, v.getType(), entry->getArgument(arg++), /*restrict=*/true);
    mapping.map(v, t);
  }
  if (hasRng) {
    mapping.map(op.getSeed(), entry->getArgument(arg++));
    mapping.map(op.getOffset(), entry->getArgument(arg++));
  }
  Operation *clone = b.clone(*op.getOperation(), mapping);
  for (Value r : clone->getResults()) {
    auto mat = bufferization::MaterializeInDestinationOp::create(
        b, loc, TypeRange{}, r, entry->getArgument(arg++));
    mat.setRestrict(true);
    mat.setWritable(true);
  }
  func::ReturnOp::create(b, loc);

  if (hasRng && op.getDropoutP().convertToFloat() > 0.0f) {
    b.setInsertionPointToEnd(module->getBody());
    SmallVector<int64_t> shape = {op.getQueryType().getDimSize(0),
                                  op.getQueryType().getDimSize(1),
                                  op.getQueryType().getDimSize(2),
                                  op.getKeyType().getDimSize(2)};
    auto keepType = MemRefType::get(shape, b.getI8Type());
    auto keepFunc = func::FuncOp::create(
        b, loc, kKeepName,
        b.getFunctionType({b.getI64Type(), b.getI64Type(), keepType}, {}));
    keepFunc->setAttr(LLVM::LLVMDialect::getEmitCWrapperAttrName(),
                      b.getUnitAttr());
    Block *body = keepFunc.addEntryBlock();
    b.setInsertionPointToStart(body);
    Value heads = arith::ConstantIndexOp::create(b, loc, shape[1]);
    Value queryLen = arith::ConstantIndexOp::create(b, loc, shape[2]);
    float p = op.getDropoutP().convertToFloat();
    AffineMap id = b.getMultiDimIdentityMap(4);
    auto par = utils::IteratorType::parallel;
    linalg::GenericOp::create(
        b, loc, TypeRange{}, ValueRange{}, ValueRange{body->getArgument(2)},
        ArrayRef<AffineMap>{id}, ArrayRef<utils::IteratorType>{par, par, par, par},
        [&](OpBuilder &nb, Location l, ValueRange) {
          DropoutPosition pos{linalg::IndexOp::create(nb, l, 0),
                              linalg::IndexOp::create(nb, l, 1),
                              linalg::IndexOp::create(nb, l, 2),
                              linalg::IndexOp::create(nb, l, 3), heads,
                              queryLen};
          Value keep = emitDropoutKeep(nb, l, body->getArgument(0),
                                       body->getArgument(1), pos, p);
          linalg::YieldOp::create(
              nb, l,
              arith::ExtUIOp::create(nb, l, nb.getI8Type(), keep).getResult());
        });
    func::ReturnOp::create(b, loc);
  }
  return module;
}

LogicalResult lowerToLLVM(ModuleOp module, const CpuRunOptions &options) {
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

/// Random inputs that make softmax neither uniform nor one-hot; masks with
/// some excluded entries and some fully excluded rows.
class InputGenerator {
public:
  explicit InputGenerator(uint64_t seed) : rng(seed) {}

  std::vector<double> fill(HostTensor &t, double lo, double hi) {
    std::uniform_real_distribution<double> dist(lo, hi);
    std::vector<double> values(t.numElements());
    for (int64_t i = 0; i < t.numElements(); ++i)
      values[i] = t.store(i, dist(rng));
    return values;
  }

  std::vector<double> fillMask(HostTensor &t, int64_t rowLen) {
    std::uniform_real_distribution<double> unit(0.0, 1.0);
    std::vector<double> values(t.numElements());
    bool boolean = t.elementType() == HostElementType::I1;
    for (int64_t row = 0; row < t.numElements() / std::max<int64_t>(rowLen, 1);
         ++row) {
      bool rowOff = unit(rng) < 0.1;
      for (int64_t j = 0; j < rowLen; ++j) {
        int64_t i = row * rowLen + j;
        bool off = rowOff || unit(rng) < 0.25;
        double v = boolean ? (off ? 0.0 : 1.0)
                           : (off ? -std::numeric_limits<double>::infinity()
                                  : 6.0 * unit(rng) - 3.0);
        values[i] = t.store(i, v);
      }
    }
    return values;
  }

  uint64_t next() { return rng(); }

private:
  std::mt19937_64 rng;
};

double defaultTolerance(Type elt) {
  if (elt.isF32())
    return 1e-5;
  if (elt.isF16())
    return 2e-3;
  return 8e-3;
}

struct Comparison {
  double outRelErr = 0.0, lseErr = 0.0;
  int64_t lseInfMismatches = 0, nans = 0;
};

Comparison compare(const HostTensor &out, const std::vector<double> &refOut,
                   const HostTensor *lse, const std::vector<double> &refLse) {
  Comparison c;
  double maxRef = 0.0, maxDiff = 0.0;
  for (int64_t i = 0; i < out.numElements(); ++i) {
    double got = out.load(i);
    if (std::isnan(got)) {
      ++c.nans;
      continue;
    }
    maxRef = std::max(maxRef, std::fabs(refOut[i]));
    maxDiff = std::max(maxDiff, std::fabs(got - refOut[i]));
  }
  c.outRelErr = maxRef > 0.0 ? maxDiff / maxRef : maxDiff;
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

std::string describe(const AttentionProblem &p, Type elt) {
  std::string s;
  llvm::raw_string_ostream os(s);
  os << "B=" << p.batch << " Hq=" << p.queryHeads << " Hkv=" << p.kvHeads
     << " Lq=" << p.queryLen << " Lk=" << p.keyLen << " D=" << p.headDim
     << " Dv=" << p.valueDim << " " << elt;
  return s;
}

LogicalResult runOne(AttentionOp op, const CpuRunOptions &options,
                     llvm::raw_ostream &os) {
  FailureOr<AttentionProblem> problem = problemOf(op);
  if (failed(problem))
    return failure();
  AttentionProblem &p = *problem;
  Type elt = op.getQueryType().getElementType();

  OwningOpRef<ModuleOp> module = buildKernelModule(op);
  if (failed(lowerToLLVM(*module, options)))
    return op.emitError("attn-cpu-run: lowering to LLVM failed");
  if (options.dumpLowered)
    module->print(*options.dumpLowered);

  ExecutionEngineOptions engineOptions;
  auto transformer = makeOptimizingTransformer(2, 0, nullptr);
  engineOptions.transformer = transformer;
  // memrefCopy and friends, which the bufferized code calls.
  SmallVector<StringRef> sharedLibs = {ATTN_MLIR_C_RUNNER_UTILS};
  engineOptions.sharedLibPaths = sharedLibs;
  auto engine = ExecutionEngine::create(*module, engineOptions);
  if (!engine)
    return op.emitError("attn-cpu-run: JIT compilation failed: ")
           << llvm::toString(engine.takeError());

  // Inputs, with the values the reference sees (after rounding).
  InputGenerator gen(options.seed);
  HostElementType t = *hostType(op, elt);
  HostTensor q(t, shapeOf(op.getQuery())), k(t, shapeOf(op.getKey())),
      v(t, shapeOf(op.getValue()));
  std::vector<double> qv = gen.fill(q, -2.0, 2.0);
  std::vector<double> kv = gen.fill(k, -2.0, 2.0);
  std::vector<double> vv = gen.fill(v, -1.0, 1.0);
  std::optional<HostTensor> mask;
  std::vector<double> maskValues;
  if (Value m = op.getMask()) {
    FailureOr<HostElementType> mt =
        hostType(op, cast<ShapedType>(m.getType()).getElementType());
    if (failed(mt))
      return failure();
    mask.emplace(*mt, shapeOf(m));
    maskValues = gen.fillMask(*mask, p.maskShape[3]);
  }
  int64_t seed = static_cast<int64_t>(gen.next());
  int64_t offset = static_cast<int64_t>(gen.next() & 0xFFFFFFFFFFull);
  p.seed = static_cast<uint64_t>(seed);
  p.offset = static_cast<uint64_t>(offset);

  HostTensor out(t, shapeOf(op.getOutput()));
  out.poison();
  std::optional<HostTensor> lse;
  if (Value l = op.getLse()) {
    lse.emplace(HostElementType::F32, shapeOf(l));
    lse->poison();
  }

  // Packed arguments: pointers to the descriptor pointers and scalars.
  SmallVector<void *> descs;
  SmallVector<HostTensor *> memrefArgs = {&q, &k, &v};
  if (mask)
    memrefArgs.push_back(&*mask);
  for (HostTensor *h : memrefArgs)
    descs.push_back(h->descriptor());
  descs.push_back(out.descriptor());
  if (lse)
    descs.push_back(lse->descriptor());
  SmallVector<void *> args;
  unsigned numInputs = memrefArgs.size();
  for (unsigned i = 0; i < numInputs; ++i)
    args.push_back(&descs[i]);
  if (op.getSeed()) {
    args.push_back(&seed);
    args.push_back(&offset);
  }
  for (unsigned i = numInputs; i < descs.size(); ++i)
    args.push_back(&descs[i]);
  if (llvm::Error err = (*engine)->invokePacked(
          ("_mlir_ciface_" + kKernelName).str(), args))
    return op.emitError("attn-cpu-run: invocation failed: ")
           << llvm::toString(std::move(err));

  std::vector<double> refOut, refLse;
  std::vector<uint8_t> refKeep;
  attnopt::ref::referenceAttention(p, qv, kv, vv, maskValues, refOut, refLse,
                                   &refKeep);
  if (!options.dumpDir.empty() &&
      failed(dumpArrays(options.dumpDir, op, p, options.seed, qv, kv, vv,
                        maskValues, out, lse ? &*lse : nullptr, refOut,
                        refLse)))
    return failure();
  Comparison c = compare(out, refOut, lse ? &*lse : nullptr, refLse);
  double tol = options.tolerance > 0.0 ? options.tolerance
                                       : defaultTolerance(elt);
  const double lseTol = 1e-5;
  bool ok = c.nans == 0 && c.outRelErr <= tol && c.lseErr <= lseTol &&
            c.lseInfMismatches == 0;

  std::string loc;
  llvm::raw_string_ostream locStream(loc);
  op.getLoc().print(locStream);
  os << "attn.attention at " << loc << "\n  " << describe(p, elt)
     << " causal=" << stringifyCausalMode(op.getCausal())
     << (p.maskKind != attnopt::ref::MaskKind::None ? " masked" : "")
     << (p.hasWindow ? " window" : "") << (p.hasSoftcap ? " softcap" : "")
     << (p.dropoutP > 0.0f ? " dropout" : "") << "\n";
  os << llvm::format("  output: max rel err %.3e (tolerance %.1e)\n",
                     c.outRelErr, tol);
  if (lse)
    os << llvm::format("  lse: max rel err %.3e (tolerance %.1e), "
                       "-inf mismatches %lld\n",
                       c.lseErr, lseTol, (long long)c.lseInfMismatches);
  if (c.nans)
    os << "  NaN or unwritten outputs: " << c.nans << "\n";
  int64_t emptyRows = llvm::count_if(refLse, [](double l) { return std::isinf(l); });
  os << "  rows with no allowed key: " << emptyRows << " of " << refLse.size()
     << "\n";

  // Dropout: the MLIR-emitted keep mask must equal the C++ one exactly.
  if (p.dropoutP > 0.0f) {
    HostTensor keep(HostElementType::I1,
                    {p.batch, p.queryHeads, p.queryLen, p.keyLen});
    keep.poison();
    void *keepDesc = keep.descriptor();
    SmallVector<void *> keepArgs = {&seed, &offset, &keepDesc};
    if (llvm::Error err = (*engine)->invokePacked(
            ("_mlir_ciface_" + kKeepName).str(), keepArgs))
      return op.emitError("attn-cpu-run: invocation failed: ")
             << llvm::toString(std::move(err));
    // The reference records keep bits only for rows with an allowed key;
    // recompute all of them from the C++ Philox.
    int64_t mismatches = 0, kept = 0;
    for (int64_t b = 0, idx = 0; b < p.batch; ++b)
      for (int64_t h = 0; h < p.queryHeads; ++h)
        for (int64_t i = 0; i < p.queryLen; ++i)
          for (int64_t j = 0; j < p.keyLen; ++j, ++idx) {
            bool want = attnopt::ref::dropoutKeep(p.seed, p.offset, b, h, i, j,
                                                  p.queryHeads, p.queryLen,
                                                  p.dropoutP);
            kept += want;
            mismatches += (keep.load(idx) != 0.0) != want;
          }
    os << "  dropout keep mask: " << mismatches << " mismatches of "
       << keep.numElements() << " (kept " << kept << ")\n";
    ok = ok && mismatches == 0;
  }
  os << (ok ? "  PASS\n" : "  FAIL\n");
  return success(ok);
}

} // namespace

LogicalResult mlir::attn::runAttentionOnCpu(ModuleOp module,
                                            const CpuRunOptions &options,
                                            llvm::raw_ostream &os) {
  static bool initialized = [] {
    llvm::InitializeNativeTarget();
    llvm::InitializeNativeTargetAsmPrinter();
    return true;
  }();
  (void)initialized;
  MLIRContext *ctx = module.getContext();
  // The kernel module is built with ops the input need not contain.
  ctx->loadDialect<arith::ArithDialect, bufferization::BufferizationDialect,
                   func::FuncDialect, linalg::LinalgDialect,
                   LLVM::LLVMDialect, memref::MemRefDialect>();
  registerBuiltinDialectTranslation(*module.getContext());
  registerLLVMDialectTranslation(*module.getContext());

  SmallVector<AttentionOp> ops;
  module.walk([&](AttentionOp op) { ops.push_back(op); });
  if (ops.empty())
    return module.emitError("attn-cpu-run: no attn.attention op in the input");
  bool allPassed = true;
  for (AttentionOp op : ops)
    allPassed &= succeeded(runOne(op, options, os));
  os << (allPassed ? "all " : "FAILED: not all ") << ops.size()
     << " attention op(s) match the float64 reference\n";
  return success(allPassed);
}
