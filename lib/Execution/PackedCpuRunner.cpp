//===- PackedCpuRunner.cpp - run the packed-batch ops on the CPU ----------===//
//
// attn.varlen_attention and attn.varlen_attention_grad are compiled like the
// dense ops (CpuRunnerSupport.h) and run on packed batches whose sequence
// lengths are drawn at random for each run: B - 1 cut points uniform over
// the token total, so that lengths vary widely and empty and one-token
// sequences occur. The key offsets equal the query offsets when the two
// totals are equal (self-attention), else they are drawn on their own. The
// results are compared with the per-sequence float64 reference
// (attnopt/Reference/PackedReference.h), which does not share the
// decomposition's block-diagonal construction.
//
//===----------------------------------------------------------------------===//

#include "PackedCpuRunner.h"
#include "CpuRunnerSupport.h"
#include "DumpArrays.h"
#include "attnopt/Dialect/Attn/Utils/SizeLimits.h"
#include "attnopt/Reference/PackedReference.h"

#include "llvm/Support/Format.h"

#include <algorithm>
#include <cstring>

using namespace mlir;
using namespace mlir::attn;
using attnopt::ref::PackedBatch;

namespace {

/// The packed op's problem for one size draw: batch = number of sequences,
/// queryLen / keyLen = the token totals Tq / Tk. Fails at the op for a
/// dynamic head count or head dim, a size not given, or a given size that
/// disagrees with a tensor where it is static.
FailureOr<AttentionProblem> packedProblemOf(AttentionOpInterface op, Value cuQ,
                                            const RunSizes &sizes) {
  if (failed(checkSizeLimits(op, "attn-cpu-run")))
    return failure();
  auto type = [](Value v) { return cast<RankedTensorType>(v.getType()); };
  // Each size from the first tensor that has it static, else from --sizes.
  auto bind = [&](int64_t staticSize, int64_t given, const char *name,
                  int64_t bias) -> FailureOr<int64_t> {
    if (!ShapedType::isDynamic(staticSize))
      return staticSize - bias;
    if (given == RunSizes::kNotGiven)
      return op->emitError("attn-cpu-run: the packed op has a dynamic ")
             << name << "; give it with --sizes " << name
             << "=N (batch = sequences, query_len / key_len = token totals)";
    return given;
  };
  FailureOr<int64_t> batch =
      bind(type(cuQ).getDimSize(0), sizes.batch, "batch", 1);
  FailureOr<int64_t> totalQ =
      bind(op.getQueryType().getDimSize(0), sizes.queryLen, "query_len", 0);
  FailureOr<int64_t> totalK =
      bind(op.getKeyType().getDimSize(0), sizes.keyLen, "key_len", 0);
  if (failed(batch) || failed(totalQ) || failed(totalK))
    return failure();
  // A given size must agree with every tensor where it is static.
  struct Want {
    Value tensor;
    unsigned dim;
    int64_t size, bias;
    const char *name;
  };
  SmallVector<Want> wants;
  for (Value v : op->getOperands()) {
    auto t = dyn_cast<RankedTensorType>(v.getType());
    if (!t)
      continue;
    if (t.getRank() == 1)
      wants.push_back({v, 0, *batch, 1, "batch"});
  }
  wants.push_back({op.getQuery(), 0, *totalQ, 0, "query_len"});
  wants.push_back({op.getKey(), 0, *totalK, 0, "key_len"});
  wants.push_back({op.getValue(), 0, *totalK, 0, "key_len"});
  for (const Want &w : wants) {
    int64_t s = type(w.tensor).getDimSize(w.dim);
    if (!ShapedType::isDynamic(s) && s - w.bias != w.size)
      return op->emitError("attn-cpu-run: ")
             << w.name << " is " << w.size << " but " << type(w.tensor)
             << " says " << s - w.bias
             << "; a run-time size must agree with the tensors where it is "
                "static";
  }
  if (*batch == 0 && (*totalQ > 0 || *totalK > 0))
    return op->emitError("attn-cpu-run: a packed batch of no sequences "
                         "cannot hold ")
           << *totalQ << " query and " << *totalK << " key tokens";
  for (auto [name, t] :
       {std::pair<const char *, RankedTensorType>{"query", op.getQueryType()},
        {"key", op.getKeyType()},
        {"value", op.getValueType()}})
    if (t.isDynamicDim(1) || t.isDynamicDim(2))
      return op->emitError("attn-cpu-run: the ")
             << name << " " << t
             << " has a dynamic head count or head dim; only the batch and "
                "the token totals may be dynamic";
  AttentionProblem p;
  p.batch = *batch;
  p.queryLen = *totalQ;
  p.keyLen = *totalK;
  p.queryHeads = op.getQueryType().getDimSize(1);
  p.headDim = op.getQueryType().getDimSize(2);
  p.kvHeads = op.getKeyType().getDimSize(1);
  p.valueDim = op.getValueType().getDimSize(2);
  setScoreAttributes(op, p);
  return p;
}

/// B + 1 offsets of a random composition of `total` into `batch` lengths.
std::vector<int64_t> drawOffsets(InputGenerator &gen, int64_t batch,
                                 int64_t total) {
  std::vector<int64_t> offsets = {0};
  for (int64_t b = 1; b < batch; ++b)
    offsets.push_back(
        static_cast<int64_t>(gen.next() % static_cast<uint64_t>(total + 1)));
  std::sort(offsets.begin() + 1, offsets.end());
  if (batch > 0)
    offsets.push_back(total);
  return offsets;
}

/// The inputs of one run: the packed batch (offsets drawn), Q, K in
/// [-2, 2], V in [-1, 1] and the rng operands, from one generator.
struct PackedInputs {
  PackedInputs(InputGenerator &gen, HostElementType t, AttentionProblem p)
      : q(t, {p.queryLen, p.queryHeads, p.headDim}),
        k(t, {p.keyLen, p.kvHeads, p.headDim}),
        v(t, {p.keyLen, p.kvHeads, p.valueDim}),
        cuQ(HostElementType::I32, {p.batch + 1}),
        cuK(HostElementType::I32, {p.batch + 1}) {
    batch.cuQ = drawOffsets(gen, p.batch, p.queryLen);
    batch.cuK = p.keyLen == p.queryLen ? batch.cuQ
                                       : drawOffsets(gen, p.batch, p.keyLen);
    for (int64_t b = 0; b <= p.batch; ++b) {
      cuQ.store(b, double(batch.cuQ[b]));
      cuK.store(b, double(batch.cuK[b]));
    }
    qValues = gen.fill(q, -2.0, 2.0);
    kValues = gen.fill(k, -2.0, 2.0);
    vValues = gen.fill(v, -1.0, 1.0);
    seed = static_cast<int64_t>(gen.next());
    offset = static_cast<int64_t>(gen.next() & 0xFFFFFFFFFFull);
    p.seed = static_cast<uint64_t>(seed);
    p.offset = static_cast<uint64_t>(offset);
    batch.problem = p;
  }

  PackedBatch batch;
  HostTensor q, k, v, cuQ, cuK;
  std::vector<double> qValues, kValues, vValues;
  int64_t seed = 0, offset = 0;
};

/// Invokes the entry function on `tensors` (operands in operand order),
/// the rng operands if the op has them, then `results`.
LogicalResult invoke(AttentionOpInterface op, ExecutionEngine &engine,
                     ArrayRef<HostTensor *> tensors, PackedInputs &in,
                     ArrayRef<HostTensor *> results) {
  SmallVector<void *> descs;
  for (HostTensor *h : llvm::concat<HostTensor *const>(tensors, results))
    descs.push_back(h->descriptor());
  SmallVector<void *> args;
  for (unsigned i = 0; i < tensors.size(); ++i)
    args.push_back(&descs[i]);
  if (op.getSeed()) {
    args.push_back(&in.seed);
    args.push_back(&in.offset);
  }
  for (unsigned i = tensors.size(); i < descs.size(); ++i)
    args.push_back(&descs[i]);
  if (llvm::Error err =
          engine.invokePacked(("_mlir_ciface_" + kCpuKernelName).str(), args))
    return op->emitError("attn-cpu-run: invocation failed: ")
           << llvm::toString(std::move(err));
  return success();
}

/// The header of a run's report: the op, the problem and the lengths.
void printHeader(AttentionOpInterface op, const PackedBatch &batch,
                 llvm::raw_ostream &os) {
  const AttentionProblem &p = batch.problem;
  std::string loc;
  llvm::raw_string_ostream locStream(loc);
  op.getLoc().print(locStream);
  os << op->getName() << " at " << loc << "\n  B=" << p.batch
     << " Tq=" << p.queryLen << " Tk=" << p.keyLen << " Hq=" << p.queryHeads
     << " Hkv=" << p.kvHeads << " D=" << p.headDim << " Dv=" << p.valueDim
     << " " << op.getQueryType().getElementType()
     << " causal=" << stringifyCausalMode(op.getCausal())
     << (p.hasWindow ? " window" : "") << (p.hasSoftcap ? " softcap" : "")
     << (p.dropoutP > 0.0f ? " dropout" : "") << "\n";
  auto lengths = [&](const std::vector<int64_t> &cu) {
    std::string s;
    for (size_t b = 0; b + 1 < cu.size(); ++b)
      s += (b ? "," : "") + std::to_string(cu[b + 1] - cu[b]);
    return s;
  };
  os << "  query lengths [" << lengths(batch.cuQ) << "], key lengths ["
     << lengths(batch.cuK) << "]\n";
}

LogicalResult runForwardDraw(VarlenAttentionOp op, ExecutionEngine &engine,
                             const AttentionProblem &problem, unsigned draw,
                             const CpuRunOptions &options,
                             llvm::raw_ostream &os) {
  Type elt = op.getQueryType().getElementType();
  FailureOr<HostElementType> t = hostType(op, elt);
  if (failed(t))
    return failure();
  InputGenerator gen(options.seed + draw);
  PackedInputs in(gen, *t, problem);
  const AttentionProblem &p = in.batch.problem;
  HostTensor out(*t, {p.queryLen, p.queryHeads, p.valueDim});
  out.poison();
  std::optional<HostTensor> lse;
  SmallVector<HostTensor *> results = {&out};
  if (op.getLse()) {
    lse.emplace(HostElementType::F32,
                std::vector<int64_t>{p.queryHeads, p.queryLen});
    lse->poison();
    results.push_back(&*lse);
  }
  if (failed(invoke(op, engine, {&in.q, &in.k, &in.v, &in.cuQ, &in.cuK}, in,
                    results)))
    return failure();

  std::vector<double> refOut, refLse;
  attnopt::ref::referencePackedAttention(in.batch, in.qValues, in.kValues,
                                         in.vValues, refOut, refLse);
  ForwardComparison c =
      compareForward(out, refOut, lse ? &*lse : nullptr, refLse);
  double tol = options.tolerance.value_or(defaultTolerance(elt));
  const double lseTol = 1e-5;
  bool ok = c.nans == 0 && c.outRelErr <= tol && c.lseErr <= lseTol &&
            c.lseInfMismatches == 0;
  printHeader(op, in.batch, os);
  os << llvm::format("  output: max rel err %.3e (tolerance %.1e)\n",
                     c.outRelErr, tol);
  if (lse)
    os << llvm::format("  lse: max rel err %.3e (tolerance %.1e), -inf "
                       "mismatches %lld\n",
                       c.lseErr, lseTol, (long long)c.lseInfMismatches);
  if (c.nans)
    os << "  NaN or unwritten outputs: " << c.nans << "\n";
  os << "  tokens with no allowed key: "
     << llvm::count_if(refLse, [](double l) { return std::isinf(l); }) << " of "
     << refLse.size() << " (token, head) rows\n";
  os << (ok ? "  PASS\n" : "  FAIL\n");
  if (!options.dumpDir.empty() &&
      failed(dumpPackedArrays(
          options.dumpDir, op, in.batch, options.seed + draw, in.qValues,
          in.kValues, in.vValues, out, lse ? &*lse : nullptr, refOut, refLse)))
    return failure();
  return success(ok);
}

LogicalResult runGradientDraw(VarlenAttentionGradOp op, ExecutionEngine &engine,
                              const AttentionProblem &problem, unsigned draw,
                              const CpuRunOptions &options,
                              llvm::raw_ostream &os) {
  Type elt = op.getQueryType().getElementType();
  FailureOr<HostElementType> t = hostType(op, elt);
  if (failed(t))
    return failure();
  InputGenerator gen(options.seed + draw);
  PackedInputs in(gen, *t, problem);
  const AttentionProblem &p = in.batch.problem;
  const std::vector<int64_t> outShape = {p.queryLen, p.queryHeads, p.valueDim};
  HostTensor dOut(*t, outShape);
  std::vector<double> dOutValues = gen.fill(dOut, -1.0, 1.0);
  // The forward's results as the op receives them: O in the element type,
  // lse in f32.
  std::vector<double> refOut, refLse;
  attnopt::ref::referencePackedAttention(in.batch, in.qValues, in.kValues,
                                         in.vValues, refOut, refLse);
  HostTensor out(*t, outShape);
  HostTensor lse(HostElementType::F32, {p.queryHeads, p.queryLen});
  std::vector<double> outValues = storeAll(out, refOut);
  std::vector<double> lseValues = storeAll(lse, refLse);
  HostTensor dq(*t, {p.queryLen, p.queryHeads, p.headDim}),
      dk(*t, {p.keyLen, p.kvHeads, p.headDim}),
      dv(*t, {p.keyLen, p.kvHeads, p.valueDim});
  for (HostTensor *g : {&dq, &dk, &dv})
    g->poison();
  if (failed(invoke(op, engine,
                    {&in.q, &in.k, &in.v, &in.cuQ, &in.cuK, &out, &lse, &dOut},
                    in, {&dq, &dk, &dv})))
    return failure();

  std::vector<double> refDq, refDk, refDv;
  attnopt::ref::referencePackedAttentionGrad(in.batch, in.qValues, in.kValues,
                                             in.vValues, outValues, dOutValues,
                                             lseValues, refDq, refDk, refDv);
  double tol = options.tolerance.value_or(defaultTolerance(elt));
  int64_t nans = 0;
  printHeader(op, in.batch, os);
  bool ok = checkGradients(
      {{&dq, &dk, &dv}, {&refDq, &refDk, &refDv}}, tol,
      [&] {
        std::array<std::vector<double>, 3> size;
        attnopt::ref::referencePackedAttentionGradMagnitudes(
            in.batch, in.qValues, in.kValues, in.vValues, outValues, dOutValues,
            lseValues, size[0], size[1], size[2]);
        return size;
      },
      os, nans);
  os << (ok ? "  PASS\n" : "  FAIL\n");
  if (!options.dumpDir.empty()) {
    // The exact gradient of the inputs (on the unrounded forward results),
    // what an autodiff peer computes.
    std::vector<double> ref64Dq, ref64Dk, ref64Dv;
    attnopt::ref::referencePackedAttentionGrad(
        in.batch, in.qValues, in.kValues, in.vValues, refOut, dOutValues,
        refLse, ref64Dq, ref64Dk, ref64Dv);
    const std::vector<double> noMask;
    GradientDump d{in.qValues, in.kValues, in.vValues, noMask, dOutValues,
                   outValues,  lseValues,  refOut,     refLse, dq,
                   dk,         dv,         refDq,      refDk,  refDv,
                   ref64Dq,    ref64Dk,    ref64Dv};
    if (failed(dumpPackedGradientArrays(options.dumpDir, op, in.batch,
                                        options.seed + draw, d)))
      return failure();
  }
  return success(ok);
}

template <typename OpTy>
LogicalResult
runPacked(OpTy op, const CpuRunOptions &options, llvm::raw_ostream &os,
          LogicalResult (*runDraw)(OpTy, ExecutionEngine &,
                                   const AttentionProblem &, unsigned,
                                   const CpuRunOptions &,
                                   llvm::raw_ostream &)) {
  return runEachDraw(
      op, options,
      [&](const RunSizes &s) {
        return packedProblemOf(op, op.getCuSeqlensQ(), s);
      },
      [&] {
        OpBuilder b(op.getContext());
        OwningOpRef<ModuleOp> module = ModuleOp::create(op.getLoc());
        buildCpuEntryFunction(b, *module, op);
        return module;
      },
      [&](ExecutionEngine &engine, const AttentionProblem &p, unsigned draw) {
        return runDraw(op, engine, p, draw, options, os);
      });
}

} // namespace

LogicalResult mlir::attn::runPackedOnCpu(Operation *op,
                                         const CpuRunOptions &options,
                                         llvm::raw_ostream &os) {
  if (auto grad = dyn_cast<VarlenAttentionGradOp>(op))
    return runPacked(grad, options, os, runGradientDraw);
  return runPacked(cast<VarlenAttentionOp>(op), options, os, runForwardDraw);
}
