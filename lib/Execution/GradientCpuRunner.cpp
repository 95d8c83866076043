//===- GradientCpuRunner.cpp - run attn.attention_grad on the CPU ---------===//
//
// One attn.attention_grad is compiled like a forward op (CpuRunnerSupport.h)
// and run on the inputs a training step would give it: random Q, K, V and
// dO, and the forward's O and lse from the float64 forward reference,
// rounded to the types the op takes. Its dQ, dK, dV are compared with the
// float64 gradient reference (attnopt/Reference/AttentionGradReference.h)
// evaluated on exactly those rounded inputs.
//
//===----------------------------------------------------------------------===//

#include "GradientCpuRunner.h"
#include "CpuRunnerSupport.h"
#include "DumpArrays.h"
#include "attnopt/Reference/AttentionGradReference.h"

#include "llvm/Support/Format.h"

#include <cstring>

using namespace mlir;
using namespace mlir::attn;

namespace {

/// The forward's bounds hold for the gradients too (f32 accumulation; the
/// only roundings to the element type are the inputs, O and the results).
double gradientTolerance(Type elt) { return defaultTolerance(elt); }

} // namespace

/// Runs the compiled gradient `op` once on a training step's inputs of
/// problem `p` (size draw `draw`: seeded with options.seed + draw) and
/// prints the report; fails if it does not match the reference.
static LogicalResult runGradientDraw(AttentionGradOp op,
                                     ExecutionEngine &engine,
                                     AttentionProblem p, unsigned draw,
                                     const CpuRunOptions &options,
                                     llvm::raw_ostream &os) {
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
  const std::vector<int64_t> queryRows = {p.batch, p.queryHeads, p.queryLen,
                                          p.valueDim};
  HostTensor dOut(t, queryRows);
  std::vector<double> dOutValues = gen.fill(dOut, -1.0, 1.0);

  // The forward's results, as the op receives them: O in the element type,
  // lse in f32.
  std::vector<double> refOut, refLse;
  attnopt::ref::referenceAttention(p, qv, kv, vv, maskValues, refOut, refLse,
                                   nullptr, &in.dropoutMaskValues);
  HostTensor out(t, queryRows);
  HostTensor lse(HostElementType::F32, {p.batch, p.queryHeads, p.queryLen});
  std::vector<double> outValues = storeAll(out, refOut);
  std::vector<double> lseValues = storeAll(lse, refLse);

  HostTensor dq(t, {p.batch, p.queryHeads, p.queryLen, p.headDim}),
      dk(t, {p.batch, p.kvHeads, p.keyLen, p.headDim}),
      dv(t, {p.batch, p.kvHeads, p.keyLen, p.valueDim});
  for (HostTensor *g : {&dq, &dk, &dv})
    g->poison();

  // Operand order of the entry function: tensors in operand order (q, k, v,
  // output, lse, grad_output, [mask], [dropout_mask]), [seed, offset], then
  // the results.
  SmallVector<HostTensor *> tensors = {&q, &k, &v, &out, &lse, &dOut};
  if (mask)
    tensors.push_back(&*mask);
  if (in.dropoutMask)
    tensors.push_back(&*in.dropoutMask);
  SmallVector<void *> descs;
  for (HostTensor *h : tensors)
    descs.push_back(h->descriptor());
  for (HostTensor *h : {&dq, &dk, &dv})
    descs.push_back(h->descriptor());
  SmallVector<void *> args;
  for (unsigned i = 0; i < tensors.size(); ++i)
    args.push_back(&descs[i]);
  if (op.getSeed()) {
    args.push_back(&seed);
    args.push_back(&offset);
  }
  for (unsigned i = tensors.size(); i < descs.size(); ++i)
    args.push_back(&descs[i]);
  auto invoke = [&]() -> LogicalResult {
    if (llvm::Error err =
            engine.invokePacked(("_mlir_ciface_" + kCpuKernelName).str(), args))
      return op.emitError("attn-cpu-run: invocation failed: ")
             << llvm::toString(std::move(err));
    return success();
  };
  if (failed(invoke()))
    return failure();
  // Determinism: a second run on the same inputs (outputs poisoned again)
  // must reproduce every bit of the first.
  auto snapshot = [&]() {
    std::vector<double> all;
    for (HostTensor *g : {&dq, &dk, &dv})
      for (int64_t i = 0; i < g->numElements(); ++i)
        all.push_back(g->load(i));
    return all;
  };
  std::vector<double> first = snapshot();
  for (HostTensor *g : {&dq, &dk, &dv})
    g->poison();
  if (failed(invoke()))
    return failure();
  std::vector<double> second = snapshot();
  int64_t repeatMismatches = 0;
  for (size_t i = 0; i < first.size(); ++i)
    repeatMismatches += std::memcmp(&first[i], &second[i], sizeof(double)) != 0;

  std::vector<double> refDq, refDk, refDv;
  attnopt::ref::referenceAttentionGrad(p, qv, kv, vv, maskValues, outValues,
                                       dOutValues, lseValues, refDq, refDk,
                                       refDv, &in.dropoutMaskValues);
  if (!options.dumpDir.empty()) {
    // For a peer that differentiates its own forward (jax's VJP): the
    // reference on the unrounded float64 forward results as well.
    std::vector<double> ref64Dq, ref64Dk, ref64Dv;
    attnopt::ref::referenceAttentionGrad(p, qv, kv, vv, maskValues, refOut,
                                         dOutValues, refLse, ref64Dq, ref64Dk,
                                         ref64Dv, &in.dropoutMaskValues);
    GradientDump d{qv,        kv,     vv,     maskValues, dOutValues, outValues,
                   lseValues, refOut, refLse, dq,         dk,         dv,
                   refDq,     refDk,  refDv,  ref64Dq,    ref64Dk,    ref64Dv};
    if (failed(dumpGradientArrays(options.dumpDir, op, p, options.seed, d)))
      return failure();
  }
  double tol = options.tolerance.value_or(gradientTolerance(elt));
  int64_t nans = 0;
  auto sizes = [&] {
    std::array<std::vector<double>, 3> size;
    attnopt::ref::referenceAttentionGradMagnitudes(
        p, qv, kv, vv, maskValues, outValues, dOutValues, lseValues, size[0],
        size[1], size[2], &in.dropoutMaskValues);
    return size;
  };

  std::string loc;
  llvm::raw_string_ostream locStream(loc);
  op.getLoc().print(locStream);
  os << "attn.attention_grad at " << loc << "\n  B=" << p.batch
     << " Hq=" << p.queryHeads << " Hkv=" << p.kvHeads << " Lq=" << p.queryLen
     << " Lk=" << p.keyLen << " D=" << p.headDim << " Dv=" << p.valueDim << " "
     << elt << " causal=" << stringifyCausalMode(op.getCausal())
     << (p.maskKind != attnopt::ref::MaskKind::None ? " masked" : "")
     << (p.hasWindow ? " window" : "") << (p.hasSoftcap ? " softcap" : "")
     << (p.dropoutP > 0.0f ? " dropout" : "")
     << (p.hasDropoutMask ? " dropout_mask" : "") << "\n";
  bool ok = checkGradients({{&dq, &dk, &dv}, {&refDq, &refDk, &refDv}}, tol,
                           sizes, os, nans);
  os << "  second run: " << repeatMismatches
     << " elements differ in their bits (of " << first.size() << ")\n";
  ok = ok && repeatMismatches == 0;
  int64_t emptyRows =
      llvm::count_if(refLse, [](double l) { return std::isinf(l); });
  os << "  rows with no allowed key: " << emptyRows << " of " << refLse.size()
     << "\n";
  os << (ok ? "  PASS\n" : "  FAIL\n");
  return success(ok);
}

LogicalResult mlir::attn::runGradientOnCpu(AttentionGradOp op,
                                           const CpuRunOptions &options,
                                           llvm::raw_ostream &os) {
  return runEachDraw(
      op, options, [&](const RunSizes &s) { return problemOf(op, s); },
      [&] {
        OpBuilder b(op.getContext());
        OwningOpRef<ModuleOp> module = ModuleOp::create(op.getLoc());
        buildCpuEntryFunction(b, *module, op);
        return module;
      },
      [&](ExecutionEngine &engine, const AttentionProblem &p, unsigned draw) {
        return runGradientDraw(op, engine, p, draw, options, os);
      });
}
