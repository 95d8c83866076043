//===- MergeCpuRunner.cpp - run attn.merge_partials on the CPU ------------===//
//
// attn.merge_partials is compiled like the attention ops
// (CpuRunnerSupport.h) and run on random partials: outputs uniform in
// [-1, 1], lse uniform in [-5, 5], about one partial in five empty (lse
// -inf, output NaN: the op must not read it), and the first rows of the
// first run with every partial empty (output 0, lse -inf). The results are
// compared with a float64 evaluation of docs/semantics.md section 16
// written here.
//
//===----------------------------------------------------------------------===//

#include "MergeCpuRunner.h"
#include "CpuRunnerSupport.h"

#include <cmath>
#include <limits>

using namespace mlir;
using namespace mlir::attn;

namespace {
constexpr double kNegInf = -std::numeric_limits<double>::infinity();

/// The float64 merge of `s` partials of `rows` rows of `dv` columns.
void referenceMerge(int64_t s, int64_t rows, int64_t dv,
                    const std::vector<double> &po,
                    const std::vector<double> &pl, std::vector<double> &out,
                    std::vector<double> &lse) {
  out.assign(rows * dv, 0.0);
  lse.assign(rows, kNegInf);
  for (int64_t r = 0; r < rows; ++r) {
    double m = kNegInf;
    for (int64_t i = 0; i < s; ++i)
      m = std::max(m, pl[i * rows + r]);
    if (m == kNegInf)
      continue;
    double sum = 0.0;
    for (int64_t i = 0; i < s; ++i) {
      if (pl[i * rows + r] == kNegInf)
        continue;
      double w = std::exp(pl[i * rows + r] - m);
      sum += w;
      for (int64_t e = 0; e < dv; ++e)
        out[r * dv + e] += w * po[(i * rows + r) * dv + e];
    }
    for (int64_t e = 0; e < dv; ++e)
      out[r * dv + e] /= sum;
    lse[r] = m + std::log(sum);
  }
}

LogicalResult runDraw(MergePartialsOp op, ExecutionEngine &engine,
                      unsigned draw, const CpuRunOptions &options,
                      llvm::raw_ostream &os) {
  RankedTensorType partial = op.getPartialOutputType();
  FailureOr<HostElementType> pt = hostType(op, partial.getElementType());
  FailureOr<HostElementType> ot =
      hostType(op, op.getOutputType().getElementType());
  if (failed(pt) || failed(ot))
    return failure();
  const int64_t s = partial.getDimSize(0),
                dv = partial.getDimSize(partial.getRank() - 1);
  const int64_t rows = partial.getNumElements() / (s * dv);
  InputGenerator gen(options.seed + draw);
  HostTensor po(*pt, shapeOf(op.getPartialOutput()));
  HostTensor pl(HostElementType::F32, shapeOf(op.getPartialLse()));
  std::vector<double> poValues = gen.fill(po, -1.0, 1.0);
  std::vector<double> plValues = gen.fill(pl, -5.0, 5.0);
  const int64_t emptyRows = draw == 0 ? std::min<int64_t>(2, rows) : 0;
  for (int64_t i = 0; i < s; ++i)
    for (int64_t r = 0; r < rows; ++r) {
      if (r >= emptyRows && gen.next() % 5 != 0)
        continue;
      plValues[i * rows + r] = pl.store(i * rows + r, kNegInf);
      for (int64_t e = 0; e < dv; ++e)
        po.store((i * rows + r) * dv + e,
                 std::numeric_limits<double>::quiet_NaN());
    }
  HostTensor out(*ot, shapeOf(op.getOutput()));
  out.poison();
  std::optional<HostTensor> lse;
  SmallVector<HostTensor *> tensors = {&po, &pl, &out};
  if (op.getLse()) {
    lse.emplace(HostElementType::F32, shapeOf(op.getLse()));
    lse->poison();
    tensors.push_back(&*lse);
  }
  if (failed(invokeOnTensors(op, engine, tensors)))
    return failure();

  std::vector<double> refOut, refLse;
  referenceMerge(s, rows, dv, poValues, plValues, refOut, refLse);
  ForwardComparison cmp =
      compareForward(out, refOut, lse ? &*lse : nullptr, refLse);
  double tol = options.tolerance.value_or(
      defaultTolerance(op.getOutputType().getElementType()));
  std::string loc;
  llvm::raw_string_ostream locStream(loc);
  op.getLoc().print(locStream);
  os << op->getName() << " at " << loc << "\n  S=" << s << " rows=" << rows
     << " Dv=" << dv << " " << partial.getElementType() << " -> "
     << op.getOutputType().getElementType() << "\n";
  const bool ok = reportForward(os, cmp, tol, lse.has_value());
  os << "  rows with every partial empty: "
     << llvm::count_if(refLse, [](double l) { return std::isinf(l); }) << " of "
     << rows << "\n";
  os << (ok ? "  PASS\n" : "  FAIL\n");
  return success(ok);
}
} // namespace

LogicalResult mlir::attn::runMergeOnCpu(MergePartialsOp op,
                                        const CpuRunOptions &options,
                                        llvm::raw_ostream &os) {
  if (!options.dumpDir.empty())
    return op.emitError("attn-cpu-run: --dump-dir does not support "
                        "attn.merge_partials");
  if (hasRunTimeSizes(op))
    return op.emitError("attn-cpu-run: attn.merge_partials needs static "
                        "shapes");
  if (op.getPartialOutputType().getNumElements() == 0) {
    // Nothing to merge or compare (and no row count to derive from the
    // element count).
    os << op->getName() << " at " << op.getLoc() << "\n  empty ("
       << op.getPartialOutputType() << "): nothing to compare\n";
    return success();
  }
  OpBuilder b(op.getContext());
  OwningOpRef<ModuleOp> module = ModuleOp::create(op.getLoc());
  buildCpuEntryFunction(b, *module, op);
  FailureOr<std::unique_ptr<ExecutionEngine>> engine =
      compileForCpu(op, *module, options);
  if (failed(engine))
    return failure();
  bool ok = true;
  for (unsigned draw = 0; draw < options.runs; ++draw)
    ok &= succeeded(runDraw(op, **engine, draw, options, os));
  return success(ok);
}
