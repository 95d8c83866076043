//===- CpuRunner.cpp - run attn.attention on the CPU and validate ---------===//

#include "attnopt/Execution/CpuRunner.h"
#include "CpuRunnerSupport.h"
#include "DumpArrays.h"
#include "GradientCpuRunner.h"
#include "HostTensors.h"
#include "MergeCpuRunner.h"
#include "PackedCpuRunner.h"
#include "PagedCpuRunner.h"
#include "attnopt/Dialect/Attn/IR/AttnOps.h"
#include "attnopt/Dialect/Attn/Utils/Philox.h"
#include "attnopt/Pipelines/Pipelines.h"
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
#include "mlir/IR/Matchers.h"
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

constexpr llvm::StringLiteral kKeepName = "attn_dropout_keep";

/// The kernel module of a forward op: the entry function, plus, for dropout,
/// a function that writes the MLIR-emitted keep mask so it can be compared
/// bit for bit.
OwningOpRef<ModuleOp> buildKernelModule(AttentionOp op) {
  MLIRContext *ctx = op.getContext();
  Location loc = op.getLoc();
  OpBuilder b(ctx);
  OwningOpRef<ModuleOp> module = ModuleOp::create(loc);
  buildCpuEntryFunction(b, *module, op);
  bool hasRng = static_cast<bool>(op.getSeed());
  if (hasRng && op.getDropoutP().convertToFloat() > 0.0f) {
    b.setInsertionPointToEnd(module->getBody());
    // [B, Hq, Lq, Lk], dynamic where the op's sizes are.
    SmallVector<int64_t> shape = {
        op.getQueryType().getDimSize(0), op.getQueryType().getDimSize(1),
        op.getQueryType().getDimSize(2), op.getKeyType().getDimSize(2)};
    auto keepType = MemRefType::get(shape, b.getI8Type());
    auto keepFunc = func::FuncOp::create(
        b, loc, kKeepName,
        b.getFunctionType({b.getI64Type(), b.getI64Type(), keepType}, {}));
    keepFunc->setAttr(LLVM::LLVMDialect::getEmitCWrapperAttrName(),
                      b.getUnitAttr());
    Block *body = keepFunc.addEntryBlock();
    b.setInsertionPointToStart(body);
    Value heads = arith::ConstantIndexOp::create(b, loc, shape[1]);
    Value queryLen =
        ShapedType::isDynamic(shape[2])
            ? memref::DimOp::create(b, loc, body->getArgument(2), 2).getResult()
            : arith::ConstantIndexOp::create(b, loc, shape[2]).getResult();
    float p = op.getDropoutP().convertToFloat();
    AffineMap id = b.getMultiDimIdentityMap(4);
    auto par = utils::IteratorType::parallel;
    linalg::GenericOp::create(
        b, loc, TypeRange{}, ValueRange{}, ValueRange{body->getArgument(2)},
        ArrayRef<AffineMap>{id},
        ArrayRef<utils::IteratorType>{par, par, par, par},
        [&](OpBuilder &nb, Location l, ValueRange) {
          DropoutPosition pos{linalg::IndexOp::create(nb, l, 0),
                              linalg::IndexOp::create(nb, l, 1),
                              linalg::IndexOp::create(nb, l, 2),
                              linalg::IndexOp::create(nb, l, 3),
                              heads,
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

std::string describe(const AttentionProblem &p, Type elt) {
  std::string s;
  llvm::raw_string_ostream os(s);
  os << "B=" << p.batch << " Hq=" << p.queryHeads << " Hkv=" << p.kvHeads
     << " Lq=" << p.queryLen << " Lk=" << p.keyLen << " D=" << p.headDim
     << " Dv=" << p.valueDim << " " << elt;
  return s;
}

/// Runs the compiled `op` once on inputs of problem `p` (size draw `draw`:
/// the inputs are seeded with options.seed + draw) and prints the report;
/// fails if it does not match the reference.
LogicalResult runDraw(AttentionOp op, ExecutionEngine &engine,
                      AttentionProblem p, unsigned draw,
                      const CpuRunOptions &options, llvm::raw_ostream &os) {
  Type elt = op.getQueryType().getElementType();

  // Inputs, with the values the reference sees (after rounding).
  InputGenerator gen(options.seed + draw);
  FailureOr<AttentionInputs> inputs = AttentionInputs::generate(op, gen, p);
  if (failed(inputs))
    return failure();
  AttentionInputs &in = *inputs;
  HostElementType t = in.type;
  HostTensor &q = in.q, &k = in.k, &v = in.v;
  std::optional<HostTensor> &mask = in.mask;
  const std::vector<double> &qv = in.qValues, &kv = in.kValues,
                            &vv = in.vValues, &maskValues = in.maskValues;
  int64_t seed = in.seed, offset = in.offset;

  HostTensor out(t, {p.batch, p.queryHeads, p.queryLen, p.valueDim});
  out.poison();
  std::optional<HostTensor> lse;
  if (op.getLse()) {
    lse.emplace(HostElementType::F32,
                std::vector<int64_t>{p.batch, p.queryHeads, p.queryLen});
    lse->poison();
  }

  // Packed arguments: pointers to the descriptor pointers and scalars.
  SmallVector<void *> descs;
  SmallVector<HostTensor *> memrefArgs = {&q, &k, &v};
  if (mask)
    memrefArgs.push_back(&*mask);
  if (in.dropoutMask)
    memrefArgs.push_back(&*in.dropoutMask);
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
  if (llvm::Error err =
          engine.invokePacked(("_mlir_ciface_" + kCpuKernelName).str(), args))
    return op.emitError("attn-cpu-run: invocation failed: ")
           << llvm::toString(std::move(err));

  std::vector<double> refOut, refLse;
  std::vector<uint8_t> refKeep;
  attnopt::ref::referenceAttention(p, qv, kv, vv, maskValues, refOut, refLse,
                                   &refKeep, &in.dropoutMaskValues);
  if (!options.dumpDir.empty() &&
      failed(dumpArrays(options.dumpDir, op, p, options.seed, qv, kv, vv,
                        maskValues, out, lse ? &*lse : nullptr, refOut,
                        refLse)))
    return failure();
  ForwardComparison c =
      compareForward(out, refOut, lse ? &*lse : nullptr, refLse);
  double tol = options.tolerance.value_or(defaultTolerance(elt));
  double lseTol = 1e-5;
  // Large scores carry f32 rounding the float64 reference does not
  // (scoreRoundingError); a given --tolerance is taken as it is.
  const double e = scoreRoundingError(p.scale, p.headDim, qv, kv);
  double refMaxAbs = 0.0, maxV = 0.0;
  for (double x : refOut)
    refMaxAbs = std::max(refMaxAbs, std::fabs(x));
  for (double x : vv)
    maxV = std::max(maxV, std::fabs(x));
  const double defaultTol = tol;
  if (!options.tolerance && refMaxAbs > 0.0)
    tol += std::expm1(2.0 * e) * maxV / (1.0 - double(p.dropoutP)) / refMaxAbs;
  lseTol += e;
  bool ok = c.nans == 0 && c.outRelErr <= tol && c.lseErr <= lseTol &&
            c.lseInfMismatches == 0;

  std::string loc;
  llvm::raw_string_ostream locStream(loc);
  op.getLoc().print(locStream);
  os << "attn.attention at " << loc << "\n  " << describe(p, elt)
     << " causal=" << stringifyCausalMode(op.getCausal())
     << (p.maskKind != attnopt::ref::MaskKind::None ? " masked" : "")
     << (p.hasWindow ? " window" : "") << (p.hasSoftcap ? " softcap" : "")
     << (p.dropoutP > 0.0f ? " dropout" : "")
     << (p.hasDropoutMask ? " dropout_mask" : "") << "\n";
  os << llvm::format("  output: max rel err %.3e (tolerance %.1e)\n",
                     c.outRelErr, tol);
  // (Said where it at least doubles the tolerance: every run widens it a
  // little.)
  if (tol > 2.0 * defaultTol)
    os << llvm::format("  score rounding: up to %.1e per score in f32 "
                       "(|scale| sqrt(D) max|q| max|k| 2^-24); the tolerance "
                       "%.1e is widened by it%s\n",
                       e, defaultTol,
                       tol >= 1.0 ? ", and past 1 excludes only NaN" : "");
  if (lse)
    os << llvm::format("  lse: max rel err %.3e (tolerance %.1e), "
                       "-inf mismatches %lld\n",
                       c.lseErr, lseTol, (long long)c.lseInfMismatches);
  if (c.nans)
    os << "  NaN or unwritten outputs: " << c.nans << "\n";
  int64_t emptyRows =
      llvm::count_if(refLse, [](double l) { return std::isinf(l); });
  os << "  rows with no allowed key: " << emptyRows << " of " << refLse.size()
     << "\n";

  // Philox dropout: the MLIR-emitted keep mask must equal the C++ one
  // exactly. (An explicit dropout_mask is an input both sides read.)
  if (p.dropoutP > 0.0f && !p.hasDropoutMask) {
    HostTensor keep(HostElementType::I1,
                    {p.batch, p.queryHeads, p.queryLen, p.keyLen});
    keep.poison();
    void *keepDesc = keep.descriptor();
    SmallVector<void *> keepArgs = {&seed, &offset, &keepDesc};
    if (llvm::Error err =
            engine.invokePacked(("_mlir_ciface_" + kKeepName).str(), keepArgs))
      return op.emitError("attn-cpu-run: invocation failed: ")
             << llvm::toString(std::move(err));
    // The reference records keep bits only for rows with an allowed key;
    // recompute all of them from the C++ Philox.
    int64_t mismatches = 0, kept = 0;
    for (int64_t b = 0, idx = 0; b < p.batch; ++b)
      for (int64_t h = 0; h < p.queryHeads; ++h)
        for (int64_t i = 0; i < p.queryLen; ++i)
          for (int64_t j = 0; j < p.keyLen; ++j, ++idx) {
            bool want =
                attnopt::ref::dropoutKeep(p.seed, p.offset, b, h, i, j,
                                          p.queryHeads, p.queryLen, p.dropoutP);
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

LogicalResult runOne(AttentionOp op, const CpuRunOptions &options,
                     llvm::raw_ostream &os) {
  return runEachDraw(
      op, options, [&](const RunSizes &s) { return problemOf(op, s); },
      [&] { return buildKernelModule(op); },
      [&](ExecutionEngine &engine, const AttentionProblem &p, unsigned draw) {
        return runDraw(op, engine, p, draw, options, os);
      });
}

} // namespace

/// The runner draws every operand of `op` at random: one the IR fixes as a
/// constant (a mask, sequence offsets, a block table, a seed) is not what
/// the run validates, and says so.
static void noteConstantOperands(Operation *op, llvm::raw_ostream &os) {
  for (OpOperand &operand : op->getOpOperands())
    if (matchPattern(operand.get(), m_Constant()))
      os << "note: operand #" << operand.getOperandNumber() << " of "
         << op->getName() << " at " << op->getLoc()
         << " is a constant in the IR; attn-cpu-run validates the op on "
            "random values of every operand instead\n";
}

LogicalResult mlir::attn::runAttentionOnCpu(ModuleOp module,
                                            const CpuRunOptions &options,
                                            llvm::raw_ostream &os) {
  prepareForJit(module.getContext());

  SmallVector<Operation *> ops;
  module.walk([&](Operation *op) {
    if (isa<AttentionOp, AttentionGradOp, VarlenAttentionOp,
            VarlenAttentionGradOp, PagedAttentionOp, MergePartialsOp>(op))
      ops.push_back(op);
  });
  if (ops.empty())
    return module.emitError(
        "attn-cpu-run: no attn.attention, attn.attention_grad, "
        "attn.varlen_attention, attn.varlen_attention_grad, "
        "attn.paged_attention or attn.merge_partials op in the input");
  // An op that failed with an error (refused: no --sizes for a dynamic op,
  // a lowering that does not apply) was not compared at all: counted apart
  // from the ones that ran and did not match. The errors still reach the
  // caller's handler (this one only counts them).
  int64_t errors = 0;
  ScopedDiagnosticHandler countErrors(
      module.getContext(), [&](Diagnostic &d) -> LogicalResult {
        if (d.getSeverity() == DiagnosticSeverity::Error)
          ++errors;
        return failure();
      });
  int64_t mismatched = 0, refused = 0;
  for (Operation *op : ops) {
    noteConstantOperands(op, os);
    int64_t errorsBefore = errors;
    LogicalResult result = success();
    if (isa<VarlenAttentionOp, VarlenAttentionGradOp>(op))
      result = runPackedOnCpu(op, options, os);
    else if (auto paged = dyn_cast<PagedAttentionOp>(op))
      result = runPagedOnCpu(paged, options, os);
    else if (auto merge = dyn_cast<MergePartialsOp>(op))
      result = runMergeOnCpu(merge, options, os);
    else if (auto grad = dyn_cast<AttentionGradOp>(op))
      result = runGradientOnCpu(grad, options, os);
    else
      result = runOne(cast<AttentionOp>(op), options, os);
    if (failed(result))
      ++(errors > errorsBefore ? refused : mismatched);
  }
  if (mismatched == 0 && refused == 0) {
    os << "all " << ops.size()
       << " attention op(s) match the float64 reference\n";
    return success();
  }
  os << "FAILED: of " << ops.size() << " attention op(s), " << mismatched
     << " did not match the float64 reference and " << refused
     << " could not be run (see the errors above)\n";
  return failure();
}
