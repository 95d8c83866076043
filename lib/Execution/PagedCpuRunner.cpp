//===- PagedCpuRunner.cpp - run attn.paged_attention on the CPU -----------===//
//
// attn.paged_attention is compiled like the dense ops (CpuRunnerSupport.h)
// and run on caches drawn per run: each sequence's length uniform in
// [0, capacity] (draw 0 also pins the extremes: an empty cache and a full
// one), its used block-table entries random pages of the pool (shuffled,
// shared between sequences), unused entries -1 (never read). The results
// are compared with the float64 reference that gathers each sequence on its
// own (attnopt/Reference/PagedReference.h), which does not share the
// decomposition's capacity-wide gather and length mask. A run-time batch,
// page count or block-table width comes from --sizes (batch=B,num_pages=P,
// max_pages_per_seq=W), each draw run --runs times.
//
//===----------------------------------------------------------------------===//

#include "PagedCpuRunner.h"
#include "CpuRunnerSupport.h"
#include "attnopt/Dialect/Attn/Utils/SizeLimits.h"
#include "attnopt/Reference/PagedReference.h"

using namespace mlir;
using namespace mlir::attn;
using attnopt::ref::PagedCache;

namespace {

/// The op's problem under `sizes` (its batch, page count and block-table
/// width where they are run-time ones; every other size is static): the
/// dense query side, and the cache's geometry.
FailureOr<PagedCache> pagedProblemOf(PagedAttentionOp op,
                                     const RunSizes &sizes) {
  if (failed(checkSizeLimits(op, "attn-cpu-run")))
    return failure();
  SmallVector<Value> tensors(op->getOperands());
  llvm::append_range(tensors, op->getResults());
  for (Value v : tensors)
    if (auto t = dyn_cast<RankedTensorType>(v.getType()))
      for (int64_t d = 1; d < t.getRank(); ++d)
        if (t.isDynamicDim(d) && !(v == op.getBlockTable() && d == 1))
          return op.emitError("attn-cpu-run: ")
                 << t << " is dynamic at dimension " << d
                 << "; attn.paged_attention takes only its batch, page "
                    "count (dimension 0) and block-table width at run time";
  if (sizes.queryLen != RunSizes::kNotGiven ||
      sizes.keyLen != RunSizes::kNotGiven)
    return op.emitError("attn-cpu-run: attn.paged_attention takes batch, "
                        "num_pages and max_pages_per_seq in --sizes (its key "
                        "lengths are drawn per sequence; its query length is "
                        "static)");
  RankedTensorType q = op.getQueryType(), k = op.getKeyType();
  // A static size, or the draw's value (which must then be given).
  auto size = [&](int64_t fixed, int64_t given,
                  StringRef name) -> FailureOr<int64_t> {
    if (!ShapedType::isDynamic(fixed)) {
      if (given != RunSizes::kNotGiven && given != fixed)
        return op.emitError("attn-cpu-run: --sizes ")
               << name << "=" << given << ", but the op's " << name << " is "
               << fixed;
      return fixed;
    }
    if (given == RunSizes::kNotGiven)
      return op.emitError("attn-cpu-run: the op's ")
             << name << " is a run-time size: give it with --sizes " << name
             << "=N (repeat --sizes for several draws)";
    return given;
  };
  FailureOr<int64_t> batch = size(q.getDimSize(0), sizes.batch, "batch");
  if (failed(batch))
    return failure();
  FailureOr<int64_t> pages = size(k.getDimSize(0), sizes.numPages, "num_pages");
  if (failed(pages))
    return failure();
  // As the verifier for a static pool and attn-run's binding: a block table
  // entry must name a page.
  if (*pages < 1)
    return op.emitError("attn-cpu-run: --sizes num_pages=")
           << *pages << ": the pool needs at least one page";
  FailureOr<int64_t> width =
      size(cast<RankedTensorType>(op.getBlockTable().getType()).getDimSize(1),
           sizes.maxPagesPerSeq, "max_pages_per_seq");
  if (failed(width))
    return failure();
  PagedCache c;
  AttentionProblem &p = c.problem;
  p.batch = *batch;
  p.queryHeads = q.getDimSize(1);
  p.queryLen = q.getDimSize(2);
  p.headDim = q.getDimSize(3);
  p.kvHeads = k.getDimSize(2);
  p.valueDim = op.getValueDimSize();
  setScoreAttributes(op, p);
  c.pages = *pages;
  c.pageSize = k.getDimSize(1);
  c.maxPages = *width;
  return c;
}

/// Draws the lengths and the block table of run `draw` into `c` and the
/// i32 tensors.
void drawPages(InputGenerator &gen, unsigned draw, PagedCache &c,
               HostTensor &table, HostTensor &lengths) {
  const int64_t batch = c.problem.batch, capacity = c.maxPages * c.pageSize;
  c.lengths.assign(batch, 0);
  c.table.assign(batch * c.maxPages, -1);
  for (int64_t b = 0; b < batch; ++b) {
    int64_t len = static_cast<int64_t>(gen.next() % uint64_t(capacity + 1));
    if (draw == 0 && b == 0)
      len = 0;
    if (draw == 0 && b == batch - 1 && batch > 1)
      len = capacity;
    c.lengths[b] = len;
    for (int64_t i = 0; i * c.pageSize < len; ++i)
      c.table[b * c.maxPages + i] =
          static_cast<int64_t>(gen.next() % uint64_t(c.pages));
  }
  for (int64_t i = 0; i < batch * c.maxPages; ++i)
    table.store(i, double(c.table[i]));
  for (int64_t b = 0; b < batch; ++b)
    lengths.store(b, double(c.lengths[b]));
}

LogicalResult runDraw(PagedAttentionOp op, ExecutionEngine &engine,
                      PagedCache c, unsigned draw, const CpuRunOptions &options,
                      llvm::raw_ostream &os) {
  Type elt = op.getQueryType().getElementType();
  FailureOr<HostElementType> t = hostType(op, elt);
  if (failed(t))
    return failure();
  const AttentionProblem &p = c.problem;
  InputGenerator gen(options.seed + draw);
  HostTensor q(*t, {p.batch, p.queryHeads, p.queryLen, p.headDim}),
      k(*t, {c.pages, c.pageSize, p.kvHeads, p.headDim}),
      v(*t, {c.pages, c.pageSize, p.kvHeads, p.valueDim});
  HostTensor table(HostElementType::I32, {p.batch, c.maxPages}),
      lengths(HostElementType::I32, {p.batch});
  std::vector<double> qValues = gen.fill(q, -2.0, 2.0);
  std::vector<double> kValues = gen.fill(k, -2.0, 2.0);
  std::vector<double> vValues = gen.fill(v, -1.0, 1.0);
  drawPages(gen, draw, c, table, lengths);

  HostTensor out(*t, {p.batch, p.queryHeads, p.queryLen, p.valueDim});
  out.poison();
  std::optional<HostTensor> lse;
  SmallVector<HostTensor *> tensors = {&q, &k, &v, &table, &lengths, &out};
  if (op.getLse()) {
    lse.emplace(HostElementType::F32,
                std::vector<int64_t>{p.batch, p.queryHeads, p.queryLen});
    lse->poison();
    tensors.push_back(&*lse);
  }
  if (failed(invokeOnTensors(op, engine, tensors)))
    return failure();

  std::vector<double> refOut, refLse;
  attnopt::ref::referencePagedAttention(c, qValues, kValues, vValues, refOut,
                                        refLse);
  ForwardComparison cmp =
      compareForward(out, refOut, lse ? &*lse : nullptr, refLse);
  double tol = options.tolerance.value_or(defaultTolerance(elt));

  std::string loc;
  llvm::raw_string_ostream locStream(loc);
  op.getLoc().print(locStream);
  os << op->getName() << " at " << loc << "\n  B=" << p.batch
     << " Hq=" << p.queryHeads << " Hkv=" << p.kvHeads << " Lq=" << p.queryLen
     << " D=" << p.headDim << " Dv=" << p.valueDim << " pages=" << c.pages
     << "x" << c.pageSize << " max_pages=" << c.maxPages << " " << elt
     << " causal=" << stringifyCausalMode(op.getCausal())
     << (p.hasWindow ? " window" : "") << (p.hasSoftcap ? " softcap" : "")
     << "\n  cache lengths [";
  for (auto [b, len] : llvm::enumerate(c.lengths))
    os << (b ? "," : "") << len;
  os << "]\n";
  const bool ok = reportForward(os, cmp, tol, lse.has_value());
  os << "  rows with no allowed key: "
     << llvm::count_if(refLse, [](double l) { return std::isinf(l); }) << " of "
     << refLse.size() << "\n";
  os << (ok ? "  PASS\n" : "  FAIL\n");
  return success(ok);
}

} // namespace

LogicalResult mlir::attn::runPagedOnCpu(PagedAttentionOp op,
                                        const CpuRunOptions &options,
                                        llvm::raw_ostream &os) {
  if (!options.dumpDir.empty())
    return op.emitError("attn-cpu-run: --dump-dir does not support "
                        "attn.paged_attention yet");
  // One problem per --sizes draw (one without run-time sizes), each run
  // `runs` times with fresh caches.
  SmallVector<RunSizes> draws(1);
  if (hasRunTimeSizes(op) && !options.sizes.empty())
    draws.assign(options.sizes.begin(), options.sizes.end());
  std::vector<PagedCache> caches;
  for (const RunSizes &sizes : draws) {
    FailureOr<PagedCache> cache = pagedProblemOf(op, sizes);
    if (failed(cache))
      return failure();
    caches.push_back(*cache);
  }
  OpBuilder b(op.getContext());
  OwningOpRef<ModuleOp> module = ModuleOp::create(op.getLoc());
  buildCpuEntryFunction(b, *module, op);
  FailureOr<std::unique_ptr<ExecutionEngine>> engine =
      compileForCpu(op, *module, options);
  if (failed(engine))
    return failure();
  bool ok = true;
  unsigned draw = 0;
  for (const PagedCache &cache : caches)
    for (unsigned run = 0; run < options.runs; ++run, ++draw)
      ok &= succeeded(runDraw(op, **engine, cache, draw, options, os));
  return success(ok);
}
