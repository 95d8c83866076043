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

/// The position of `op` among the attn.attention ops of its outermost module,
/// in the order runAttentionOnCpu visits them (the same module walk).
int64_t opIndex(AttentionOp op) {
  Operation *top = op;
  while (auto parent = top->getParentOfType<ModuleOp>())
    top = parent;
  int64_t index = 0, found = -1;
  top->walk([&](AttentionOp other) {
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

LogicalResult writeBin(AttentionOp op, StringRef path,
                       llvm::ArrayRef<double> values) {
  std::error_code ec;
  llvm::raw_fd_ostream os(path, ec, llvm::sys::fs::OF_None);
  if (ec)
    return op.emitError("attn-cpu-run: cannot write ")
           << path << ": " << ec.message();
  // x86-64 and aarch64 hosts are little-endian, the format numpy reads.
  os.write(reinterpret_cast<const char *>(values.data()),
           values.size() * sizeof(double));
  os.close();
  if (os.has_error())
    return op.emitError("attn-cpu-run: error writing ") << path;
  return success();
}

std::vector<double> decode(const HostTensor &t) {
  std::vector<double> values(t.numElements());
  for (int64_t i = 0; i < t.numElements(); ++i)
    values[i] = t.load(i);
  return values;
}

} // namespace

LogicalResult mlir::attn::dumpArrays(
    StringRef dir, AttentionOp op, const AttentionProblem &p,
    uint64_t inputSeed, const std::vector<double> &q,
    const std::vector<double> &k, const std::vector<double> &v,
    const std::vector<double> &mask, const HostTensor &out,
    const HostTensor *lse, const std::vector<double> &refOut,
    const std::vector<double> &refLse) {
  if (std::error_code ec = llvm::sys::fs::create_directories(dir))
    return op.emitError("attn-cpu-run: cannot create ")
           << dir << ": " << ec.message();
  std::string stem = "op" + std::to_string(opIndex(op));

  struct Array {
    const char *name;
    std::vector<int64_t> shape;
    std::vector<double> values;
  };
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
  arrays.push_back({"out", {B, Hq, Lq, Dv}, decode(out)});
  if (lse)
    arrays.push_back({"lse", {B, Hq, Lq}, decode(*lse)});
  arrays.push_back({"ref_out", {B, Hq, Lq, Dv}, refOut});
  arrays.push_back({"ref_lse", {B, Hq, Lq}, refLse});

  for (const Array &a : arrays) {
    llvm::SmallString<256> path(dir);
    llvm::sys::path::append(path, stem + "." + a.name + ".bin");
    if (failed(writeBin(op, path, a.values)))
      return failure();
  }

  llvm::SmallString<256> jsonPath(dir);
  llvm::sys::path::append(jsonPath, stem + ".json");
  std::error_code ec;
  llvm::raw_fd_ostream os(jsonPath, ec, llvm::sys::fs::OF_Text);
  if (ec)
    return op.emitError("attn-cpu-run: cannot write ")
           << jsonPath << ": " << ec.message();
  std::string loc;
  llvm::raw_string_ostream locStream(loc);
  op.getLoc().print(locStream);
  auto func = op->getParentOfType<func::FuncOp>();

  llvm::json::OStream j(os, /*IndentSize=*/2);
  j.object([&] {
    j.attribute("index", opIndex(op));
    j.attribute("function", func ? func.getSymName().str() : std::string());
    j.attribute("location", loc);
    j.attribute("input_seed", static_cast<int64_t>(inputSeed));
    j.attribute("element_type",
                typeString(op.getQueryType().getElementType()));
    j.attribute("batch", B);
    j.attribute("query_heads", Hq);
    j.attribute("kv_heads", Hkv);
    j.attribute("query_len", Lq);
    j.attribute("key_len", Lk);
    j.attribute("head_dim", D);
    j.attribute("value_dim", Dv);
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
    j.attribute("has_lse", lse != nullptr);
    j.attributeObject("arrays", [&] {
      for (const Array &a : arrays)
        j.attributeObject(a.name, [&] {
          j.attribute("file", stem + "." + a.name + ".bin");
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
    return op.emitError("attn-cpu-run: error writing ") << jsonPath;
  return success();
}
