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
template <typename OpTy>
int64_t opIndex(OpTy op) {
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
LogicalResult
writeDump(StringRef dir, AttentionOpInterface op, int64_t index,
          StringRef stem, const AttentionProblem &p, uint64_t inputSeed,
          const std::vector<Array> &arrays,
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
    j.attribute("element_type",
                typeString(op.getQueryType().getElementType()));
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

/// q, k, v and (if any) mask, with their shapes.
std::vector<Array> inputArrays(const AttentionProblem &p,
                               const std::vector<double> &q,
                               const std::vector<double> &k,
                               const std::vector<double> &v,
                               const std::vector<double> &mask) {
  const int64_t B = p.batch, Hq = p.queryHeads, Hkv = p.kvHeads,
                Lq = p.queryLen, Lk = p.keyLen, D = p.headDim,
                Dv = p.valueDim;
  std::vector<Array> arrays = {
      {"q", {B, Hq, Lq, D}, q},
      {"k", {B, Hkv, Lk, D}, k},
      {"v", {B, Hkv, Lk, Dv}, v},
  };
  if (p.maskKind != attnopt::ref::MaskKind::None)
    arrays.push_back({"mask",
                      {p.maskShape[0], p.maskShape[1], p.maskShape[2],
                       p.maskShape[3]},
                      mask});
  return arrays;
}

} // namespace

LogicalResult mlir::attn::dumpArrays(
    StringRef dir, AttentionOp op, const AttentionProblem &p,
    uint64_t inputSeed, const std::vector<double> &q,
    const std::vector<double> &k, const std::vector<double> &v,
    const std::vector<double> &mask, const HostTensor &out,
    const HostTensor *lse, const std::vector<double> &refOut,
    const std::vector<double> &refLse) {
  const int64_t B = p.batch, Hq = p.queryHeads, Lq = p.queryLen,
                Dv = p.valueDim;
  std::vector<Array> arrays = inputArrays(p, q, k, v, mask);
  arrays.push_back({"out", {B, Hq, Lq, Dv}, decode(out)});
  if (lse)
    arrays.push_back({"lse", {B, Hq, Lq}, decode(*lse)});
  arrays.push_back({"ref_out", {B, Hq, Lq, Dv}, refOut});
  arrays.push_back({"ref_lse", {B, Hq, Lq}, refLse});
  int64_t index = opIndex(op);
  return writeDump(
      dir, op, index, "op" + std::to_string(index), p, inputSeed, arrays,
      [](llvm::json::OStream &) {},
      [&](llvm::json::OStream &j) { j.attribute("has_lse", lse != nullptr); });
}

LogicalResult mlir::attn::dumpGradientArrays(StringRef dir, AttentionGradOp op,
                                             const AttentionProblem &p,
                                             uint64_t inputSeed,
                                             const GradientDump &d) {
  const int64_t B = p.batch, Hq = p.queryHeads, Hkv = p.kvHeads,
                Lq = p.queryLen, Lk = p.keyLen, D = p.headDim,
                Dv = p.valueDim;
  std::vector<Array> arrays = inputArrays(p, d.q, d.k, d.v, d.mask);
  const std::vector<int64_t> outShape = {B, Hq, Lq, Dv},
                             lseShape = {B, Hq, Lq}, dqShape = {B, Hq, Lq, D},
                             dkShape = {B, Hkv, Lk, D},
                             dvShape = {B, Hkv, Lk, Dv};
  arrays.push_back({"dout", outShape, d.dout});
  arrays.push_back({"out", outShape, d.out});
  arrays.push_back({"lse", lseShape, d.lse});
  arrays.push_back({"dq", dqShape, decode(d.dq)});
  arrays.push_back({"dk", dkShape, decode(d.dk)});
  arrays.push_back({"dv", dvShape, decode(d.dv)});
  arrays.push_back({"ref_dq", dqShape, d.refDq});
  arrays.push_back({"ref_dk", dkShape, d.refDk});
  arrays.push_back({"ref_dv", dvShape, d.refDv});
  arrays.push_back({"ref_out", outShape, d.refOut});
  arrays.push_back({"ref_lse", lseShape, d.refLse});
  arrays.push_back({"ref64_dq", dqShape, d.ref64Dq});
  arrays.push_back({"ref64_dk", dkShape, d.ref64Dk});
  arrays.push_back({"ref64_dv", dvShape, d.ref64Dv});
  int64_t index = opIndex(op);
  return writeDump(
      dir, op, index, "grad" + std::to_string(index), p, inputSeed, arrays,
      [](llvm::json::OStream &j) {
        j.attribute("op", AttentionGradOp::getOperationName().str());
      },
      [&](llvm::json::OStream &j) {
        j.attribute("deterministic", op.getDeterministic());
      });
}
