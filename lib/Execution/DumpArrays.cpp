//===- DumpArrays.cpp - write one op's inputs and results to disk ---------===//

#include "DumpArrays.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "llvm/Support/EndianStream.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/JSON.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/raw_ostream.h"

#include <string>

using namespace mlir;
using namespace mlir::attn;
using attnopt::ref::AttentionProblem;

namespace {

/// The position of `op` among the ops of its kind (OpTy) in its outermost
/// module, in the order runAttentionOnCpu visits them (the same module walk).
template <typename OpTy> int64_t opIndex(OpTy op) {
  Operation *top = op;
  while (auto parent = top->template getParentOfType<ModuleOp>())
    top = parent;
  int64_t index = 0, found = -1;
  top->walk([&](OpTy other) {
    if (other == op)
      found = index;
    ++index;
  });
  return found;
}

std::string typeString(Type t) {
  std::string s;
  llvm::raw_string_ostream os(s);
  t.print(os);
  return s;
}

LogicalResult writeBin(Operation *op, StringRef path,
                       llvm::ArrayRef<double> values) {
  std::error_code ec;
  llvm::raw_fd_ostream os(path, ec, llvm::sys::fs::OF_None);
  if (ec)
    return op->emitError("attn-cpu-run: cannot write ")
           << path << ": " << ec.message();
  // x86-64 and aarch64 hosts are little-endian, the format numpy reads.
  os.write(reinterpret_cast<const char *>(values.data()),
           values.size() * sizeof(double));
  os.close();
  if (os.has_error())
    return op->emitError("attn-cpu-run: error writing ") << path;
  return success();
}

std::vector<double> decode(const HostTensor &t) {
  std::vector<double> values(t.numElements());
  for (int64_t i = 0; i < t.numElements(); ++i)
    values[i] = t.load(i);
  return values;
}

struct Array {
  const char *name;
  std::vector<int64_t> shape;
  std::vector<double> values;
};

/// Writes DIR/<stem>.<name>.bin for every array and DIR/<stem>.json with the
/// problem's fields; `extra(j)` adds op-specific fields before "arrays",
/// `head(j)` before "index".
LogicalResult writeDump(StringRef dir, AttentionOpInterface op, int64_t index,
                        StringRef stem, const AttentionProblem &p,
                        uint64_t inputSeed, const std::vector<Array> &arrays,
                        llvm::function_ref<void(llvm::json::OStream &)> head,
                        llvm::function_ref<void(llvm::json::OStream &)> extra) {
  Operation *operation = op.getOperation();
  if (std::error_code ec = llvm::sys::fs::create_directories(dir))
    return operation->emitError("attn-cpu-run: cannot create ")
           << dir << ": " << ec.message();
  for (const Array &a : arrays) {
    llvm::SmallString<256> path(dir);
    llvm::sys::path::append(path, (stem + "." + a.name + ".bin").str());
    if (failed(writeBin(operation, path, a.values)))
      return failure();
  }

  llvm::SmallString<256> jsonPath(dir);
  llvm::sys::path::append(jsonPath, (stem + ".json").str());
  std::error_code ec;
  llvm::raw_fd_ostream os(jsonPath, ec, llvm::sys::fs::OF_Text);
  if (ec)
    return operation->emitError("attn-cpu-run: cannot write ")
           << jsonPath << ": " << ec.message();
  std::string loc;
  llvm::raw_string_ostream locStream(loc);
  operation->getLoc().print(locStream);
  auto func = operation->getParentOfType<func::FuncOp>();

  llvm::json::OStream j(os, /*IndentSize=*/2);
  j.object([&] {
    head(j);
    j.attribute("index", index);
    j.attribute("function", func ? func.getSymName().str() : std::string());
    j.attribute("location", loc);
    j.attribute("input_seed", static_cast<int64_t>(inputSeed));
    j.attribute("element_type", typeString(op.getQueryType().getElementType()));
    j.attribute("batch", p.batch);
    j.attribute("query_heads", p.queryHeads);
    j.attribute("kv_heads", p.kvHeads);
    j.attribute("query_len", p.queryLen);
    j.attribute("key_len", p.keyLen);
    j.attribute("head_dim", p.headDim);
    j.attribute("value_dim", p.valueDim);
    // The f32 scale actually applied, widened exactly to double.
    j.attribute("scale", static_cast<double>(p.scale));
    j.attribute("causal", stringifyCausalMode(op.getCausal()).str());
    if (p.hasWindow)
      j.attributeArray("window", [&] {
        j.value(p.windowLeft);
        j.value(p.windowRight);
      });
    else
      j.attribute("window", nullptr);
    if (p.hasSoftcap)
      j.attribute("softcap", static_cast<double>(p.softcap));
    else
      j.attribute("softcap", nullptr);
    j.attributeObject("mask", [&] {
      const char *kind = "none";
      if (p.maskKind == attnopt::ref::MaskKind::Boolean)
        kind = "boolean";
      else if (p.maskKind == attnopt::ref::MaskKind::Additive)
        kind = "additive";
      j.attribute("kind", kind);
      if (Value m = op.getMask()) {
        j.attribute("element_type", typeString(getElementTypeOrSelf(m)));
        j.attributeArray("shape", [&] {
          for (int64_t s : p.maskShape)
            j.value(s);
        });
      }
    });
    j.attribute("dropout_p", static_cast<double>(p.dropoutP));
    j.attribute("dropout_seed", static_cast<int64_t>(p.seed));
    j.attribute("dropout_offset", static_cast<int64_t>(p.offset));
    extra(j);
    j.attributeObject("arrays", [&] {
      for (const Array &a : arrays)
        j.attributeObject(a.name, [&] {
          j.attribute("file", (stem + "." + a.name + ".bin").str());
          j.attributeArray("shape", [&] {
            for (int64_t s : a.shape)
              j.value(s);
          });
        });
    });
  });
  os << "\n";
  os.close();
  if (os.has_error())
    return operation->emitError("attn-cpu-run: error writing ") << jsonPath;
  return success();
}

/// Which dimensions an array of a dump has: query rows ([B, Hq, Lq, W]; a
/// packed batch's [Tq, Hq, W]), key rows ([B, Hkv, Lk, W]; [Tk, Hkv, W]),
/// an lse ([B, Hq, Lq]; [Hq, Tq]) or the mask (its own shape, dense only).
enum class Layout { QueryRows, KeyRows, Lse, Mask };

/// An array of a dump before it is laid out: its name, layout, row width
/// and values (in the op's layout, dense or packed).
struct Source {
  const char *name;
  Layout layout;
  int64_t width;
  std::vector<double> values;
};

/// q, k, v and (if any) mask.
std::vector<Source> inputSources(const AttentionProblem &p,
                                 const std::vector<double> &q,
                                 const std::vector<double> &k,
                                 const std::vector<double> &v,
                                 const std::vector<double> &mask) {
  std::vector<Source> sources = {{"q", Layout::QueryRows, p.headDim, q},
                                 {"k", Layout::KeyRows, p.headDim, k},
                                 {"v", Layout::KeyRows, p.valueDim, v}};
  if (p.maskKind != attnopt::ref::MaskKind::None)
    sources.push_back({"mask", Layout::Mask, 0, mask});
  return sources;
}

/// The opN / varlenN arrays.
std::vector<Source>
forwardSources(const AttentionProblem &p, const std::vector<double> &q,
               const std::vector<double> &k, const std::vector<double> &v,
               const std::vector<double> &mask, const HostTensor &out,
               const HostTensor *lse, const std::vector<double> &refOut,
               const std::vector<double> &refLse) {
  std::vector<Source> sources = inputSources(p, q, k, v, mask);
  sources.push_back({"out", Layout::QueryRows, p.valueDim, decode(out)});
  if (lse)
    sources.push_back({"lse", Layout::Lse, 1, decode(*lse)});
  sources.push_back({"ref_out", Layout::QueryRows, p.valueDim, refOut});
  sources.push_back({"ref_lse", Layout::Lse, 1, refLse});
  return sources;
}

/// The gradN / vgradN arrays.
std::vector<Source> gradientSources(const AttentionProblem &p,
                                    const GradientDump &d) {
  const int64_t D = p.headDim, Dv = p.valueDim;
  std::vector<Source> sources = inputSources(p, d.q, d.k, d.v, d.mask);
  std::vector<Source> rest = {{"dout", Layout::QueryRows, Dv, d.dout},
                              {"out", Layout::QueryRows, Dv, d.out},
                              {"lse", Layout::Lse, 1, d.lse},
                              {"dq", Layout::QueryRows, D, decode(d.dq)},
                              {"dk", Layout::KeyRows, D, decode(d.dk)},
                              {"dv", Layout::KeyRows, Dv, decode(d.dv)},
                              {"ref_dq", Layout::QueryRows, D, d.refDq},
                              {"ref_dk", Layout::KeyRows, D, d.refDk},
                              {"ref_dv", Layout::KeyRows, Dv, d.refDv},
                              {"ref_out", Layout::QueryRows, Dv, d.refOut},
                              {"ref_lse", Layout::Lse, 1, d.refLse},
                              {"ref64_dq", Layout::QueryRows, D, d.ref64Dq},
                              {"ref64_dk", Layout::KeyRows, D, d.ref64Dk},
                              {"ref64_dv", Layout::KeyRows, Dv, d.ref64Dv}};
  for (Source &s : rest)
    sources.push_back(std::move(s));
  return sources;
}

/// The dense shape of `s` in problem `p`.
std::vector<int64_t> denseShape(const AttentionProblem &p, const Source &s) {
  switch (s.layout) {
  case Layout::QueryRows:
    return {p.batch, p.queryHeads, p.queryLen, s.width};
  case Layout::KeyRows:
    return {p.batch, p.kvHeads, p.keyLen, s.width};
  case Layout::Lse:
    return {p.batch, p.queryHeads, p.queryLen};
  case Layout::Mask:
    break;
  }
  return {p.maskShape[0], p.maskShape[1], p.maskShape[2], p.maskShape[3]};
}

/// A dense op's arrays: the sources as they are.
std::vector<Array> denseArrays(const AttentionProblem &p,
                               std::vector<Source> sources) {
  std::vector<Array> arrays;
  for (Source &s : sources)
    arrays.push_back({s.name, denseShape(p, s), std::move(s.values)});
  return arrays;
}

} // namespace

LogicalResult
mlir::attn::dumpArrays(StringRef dir, AttentionOp op, const AttentionProblem &p,
                       uint64_t inputSeed, const std::vector<double> &q,
                       const std::vector<double> &k,
                       const std::vector<double> &v,
                       const std::vector<double> &mask, const HostTensor &out,
                       const HostTensor *lse, const std::vector<double> &refOut,
                       const std::vector<double> &refLse) {
  int64_t index = opIndex(op);
  return writeDump(
      dir, op, index, "op" + std::to_string(index), p, inputSeed,
      denseArrays(p,
                  forwardSources(p, q, k, v, mask, out, lse, refOut, refLse)),
      [](llvm::json::OStream &) {},
      [&](llvm::json::OStream &j) { j.attribute("has_lse", lse != nullptr); });
}

LogicalResult mlir::attn::dumpGradientArrays(StringRef dir, AttentionGradOp op,
                                             const AttentionProblem &p,
                                             uint64_t inputSeed,
                                             const GradientDump &d) {
  int64_t index = opIndex(op);
  return writeDump(
      dir, op, index, "grad" + std::to_string(index), p, inputSeed,
      denseArrays(p, gradientSources(p, d)),
      [](llvm::json::OStream &j) {
        j.attribute("op", AttentionGradOp::getOperationName().str());
      },
      [&](llvm::json::OStream &j) {
        j.attribute("deterministic", op.getDeterministic());
      });
}

//===----------------------------------------------------------------------===//
// Packed batches: one dense batch-1 problem per sequence
//===----------------------------------------------------------------------===//

namespace {

/// Sequence b's part of the packed `sources`, laid out as the batch-1 dense
/// problem `seq`: token-major rows [t0, t0 + L) of [T, H, W] as [1, H, L, W],
/// lse columns [t0, t0 + L) of [H, T] as [1, H, L].
std::vector<Array> sequenceArrays(const attnopt::ref::PackedBatch &batch,
                                  int64_t b, const AttentionProblem &seq,
                                  const std::vector<Source> &sources) {
  const int64_t totalQ = batch.problem.queryLen;
  std::vector<Array> arrays;
  for (const Source &s : sources) {
    assert(s.layout != Layout::Mask && "packed batches have no mask");
    const bool keys = s.layout == Layout::KeyRows;
    const int64_t t0 = keys ? batch.cuK[b] : batch.cuQ[b];
    const int64_t len = keys ? seq.keyLen : seq.queryLen;
    const int64_t heads = keys ? seq.kvHeads : seq.queryHeads;
    std::vector<double> dense(heads * len * s.width);
    for (int64_t h = 0; h < heads; ++h)
      for (int64_t t = 0; t < len; ++t)
        for (int64_t c = 0; c < s.width; ++c)
          dense[(h * len + t) * s.width + c] =
              s.layout == Layout::Lse
                  ? s.values[h * totalQ + t0 + t]
                  : s.values[((t0 + t) * heads + h) * s.width + c];
    arrays.push_back({s.name, denseShape(seq, s), std::move(dense)});
  }
  return arrays;
}

/// Writes `stem`.seqB for every sequence b with a query and a key (an empty
/// side leaves nothing for a peer to compute), with the "packed" field and
/// `extra`'s.
LogicalResult
writeSequenceDumps(StringRef dir, AttentionOpInterface op, int64_t index,
                   StringRef stem, const attnopt::ref::PackedBatch &batch,
                   uint64_t inputSeed, const std::vector<Source> &sources,
                   llvm::function_ref<void(llvm::json::OStream &)> head,
                   llvm::function_ref<void(llvm::json::OStream &)> extra) {
  for (int64_t b = 0; b < batch.problem.batch; ++b) {
    if (batch.cuQ[b + 1] == batch.cuQ[b] || batch.cuK[b + 1] == batch.cuK[b])
      continue;
    AttentionProblem seq = attnopt::ref::sequenceProblem(batch, b);
    auto fields = [&](llvm::json::OStream &j) {
      extra(j);
      j.attributeObject("packed", [&] {
        j.attribute("sequence", b);
        j.attribute("query_token", batch.cuQ[b]);
        j.attribute("key_token", batch.cuK[b]);
        j.attribute("batch", batch.problem.batch);
      });
    };
    if (failed(writeDump(
            dir, op, index, (stem + ".seq" + std::to_string(b)).str(), seq,
            inputSeed, sequenceArrays(batch, b, seq, sources), head, fields)))
      return failure();
  }
  return success();
}

} // namespace

LogicalResult mlir::attn::dumpPackedArrays(
    StringRef dir, VarlenAttentionOp op, const attnopt::ref::PackedBatch &batch,
    uint64_t inputSeed, const std::vector<double> &q,
    const std::vector<double> &k, const std::vector<double> &v,
    const HostTensor &out, const HostTensor *lse,
    const std::vector<double> &refOut, const std::vector<double> &refLse) {
  int64_t index = opIndex(op);
  return writeSequenceDumps(
      dir, op, index, "varlen" + std::to_string(index), batch, inputSeed,
      forwardSources(batch.problem, q, k, v, {}, out, lse, refOut, refLse),
      [](llvm::json::OStream &) {},
      [&](llvm::json::OStream &j) { j.attribute("has_lse", lse != nullptr); });
}

LogicalResult
mlir::attn::dumpPackedGradientArrays(StringRef dir, VarlenAttentionGradOp op,
                                     const attnopt::ref::PackedBatch &batch,
                                     uint64_t inputSeed,
                                     const GradientDump &d) {
  int64_t index = opIndex(op);
  return writeSequenceDumps(
      dir, op, index, "vgrad" + std::to_string(index), batch, inputSeed,
      gradientSources(batch.problem, d),
      [](llvm::json::OStream &j) {
        j.attribute("op", VarlenAttentionGradOp::getOperationName().str());
      },
      [&](llvm::json::OStream &j) {
        j.attribute("deterministic", op.getDeterministic());
      });
}
