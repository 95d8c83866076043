//===- ManifestSizes.cpp - run-time sizes and split counts ----------------===//
//
// --sizes (parseRuntimeSizes), and kernels and manifests bound to their
// run-time sizes (bindSizes) and split counts (bindSplits, the split rule):
// shapes, size parameters and grids, with the element counts checked.
//
//===----------------------------------------------------------------------===//

#include "ManifestValidator.h"
#include "attnrt/Error.h"
#include "attnrt/Manifest.h"
#include "attnrt/Util.h"

#include <algorithm>
#include <cerrno>
#include <cstdlib>
#include <string>

namespace attnrt {

using validation::sizeOf;

RuntimeSizes parseRuntimeSizes(const std::string &text) {
  RuntimeSizes sizes;
  auto bad = [&](const std::string &why) {
    throw Error("sizes '" + text + "': " + why +
                    " (expected name=value[,name=value...] with names "
                    "batch, query_len, key_len, num_pages, "
                    "max_pages_per_seq, num_splits)",
                kExitInput);
  };
  size_t start = 0;
  while (start <= text.size()) {
    size_t end = text.find(',', start);
    if (end == std::string::npos)
      end = text.size();
    std::string part = text.substr(start, end - start);
    size_t eq = part.find('=');
    if (eq == std::string::npos)
      bad("'" + part + "' has no '='");
    std::string name = part.substr(0, eq), value = part.substr(eq + 1);
    int64_t *slot = name == "batch"               ? &sizes.batch
                    : name == "query_len"         ? &sizes.queryLen
                    : name == "key_len"           ? &sizes.keyLen
                    : name == "num_pages"         ? &sizes.numPages
                    : name == "max_pages_per_seq" ? &sizes.maxPagesPerSeq
                    : name == "num_splits"        ? &sizes.splits
                                                  : nullptr;
    if (!slot)
      bad("unknown size '" + name + "'");
    if (*slot)
      bad("'" + name + "' given twice");
    errno = 0;
    char *rest = nullptr;
    long long v = std::strtoll(value.c_str(), &rest, 10);
    if (value.empty() || errno || *rest || v < 1 || v > 2147483647LL)
      bad("'" + name + "' must be an integer in [1, 2^31 - 1], got '" + value +
          "'");
    *slot = v;
    start = end + 1;
  }
  return sizes;
}

std::string runtimeSizesText(const RuntimeSizes &s) {
  std::string text;
  auto add = [&](const char *name, int64_t v) {
    if (v)
      text += (text.empty() ? "" : ",") + std::string(name) + "=" +
              std::to_string(v);
  };
  add("batch", s.batch);
  add("query_len", s.queryLen);
  add("key_len", s.keyLen);
  add("num_pages", s.numPages);
  add("max_pages_per_seq", s.maxPagesPerSeq);
  add("num_splits", s.splits);
  return text;
}

/// Throws for tensor parameter `p` of kernel `k` (its shape bound) when it
/// has more elements than int64 and sizeBytes can carry, or, with 32-bit
/// indices, 2^31 or more. A shape with a dimension still to be decided (a
/// split count at launch) is checked once bound.
void checkTensorElements(const KernelSpec &k, const ParamSpec &p,
                         int indexBits) {
  auto fail = [&](const std::string &message) {
    throw Error("kernel '" + k.name + "': " + message, kExitInput);
  };
  if (std::count(p.shape.begin(), p.shape.end(), kRuntimeSize))
    return;
  // The static part of a shape is below 2^50 elements, but times a batch,
  // a length and a padded length it can pass what int64 holds (and
  // sizeBytes with it): refuse that before numElements() is used.
  int64_t elements = 1;
  for (int64_t d : p.shape)
    if (__builtin_mul_overflow(elements, d, &elements) ||
        elements > (int64_t(1) << 56))
      fail("'" + p.name + "' " + formatShape(p.shape) +
           " has more than 2^56 elements");
  if (indexBits == 32 && p.numElements() >= (int64_t(1) << 31))
    fail("'" + p.name + "' " + formatShape(p.shape) + " has " +
         std::to_string(p.numElements()) +
         " elements: the kernels' 32-bit indices need fewer than 2^31 "
         "(compile with --index-bits=64 for larger tensors)");
}

namespace {

/// `k` with its run-time sizes (batch, query_len, key_len) bound; the split
/// count is bindSplits'.
KernelSpec bindLengths(const KernelSpec &k, const RuntimeSizes &sizes,
                       int indexBits);

} // namespace

int64_t splitRuleCount(const SplitRule &rule, int64_t gridY, int64_t batch,
                       int64_t keyLen, int64_t smCount) {
  const struct {
    int64_t value;
    const char *name;
  } args[] = {{rule.blocksPerSm, "split_rule.blocks_per_sm"},
              {rule.maxSplits, "split_rule.max_splits"},
              {rule.minChunkKeys, "split_rule.min_chunk_keys"},
              {gridY, "grid y"},
              {batch, "batch"},
              {keyLen, "key_len"},
              {smCount, "the SM count"}};
  for (const auto &a : args)
    if (a.value < 1)
      throw Error(std::string("split rule: ") + a.name + " = " +
                      std::to_string(a.value) + " (expected at least 1)",
                  kExitInput);
  // One wave: blocks_per_sm blocks on each SM, gridY * batch blocks per
  // chunk. (Products past int64, which no device or launch reaches, give
  // the clamps: more blocks than that, no limit; more per chunk, one.)
  int64_t blocks = 0, perChunk = 0, byWave = rule.maxSplits;
  if (__builtin_mul_overflow(gridY, batch, &perChunk))
    byWave = 1;
  else if (!__builtin_mul_overflow(rule.blocksPerSm, smCount, &blocks))
    byWave = std::min(rule.maxSplits, blocks / perChunk);
  // At least min_chunk_keys keys per chunk: no more chunks than that.
  const int64_t byKeys = (keyLen + rule.minChunkKeys - 1) / rule.minChunkKeys;
  return std::max<int64_t>(1, std::min({rule.maxSplits, byWave, byKeys}));
}

int64_t ruleSplits(const KernelSpec &splitKV, int64_t smCount) {
  auto fail = [&](const std::string &message) -> void {
    throw Error("kernel '" + splitKV.name + "': " + message, kExitInput);
  };
  if (splitKV.stage != GradStage::SplitKV || !splitKV.splitsAtLaunch())
    fail("the split rule is for the \"split_kv\" stage of a group whose "
         "split count is decided at launch (codegen.splits null)");
  if (splitKV.batch == kRuntimeSize || splitKV.keyLen == kRuntimeSize)
    fail("the split rule needs the batch and key length (bind the run-time "
         "sizes first)");
  return splitRuleCount(splitKV.splitRule, splitKV.grid[1], splitKV.batch,
                        splitKV.keyLen, smCount);
}

KernelSpec bindSplits(const KernelSpec &k, int64_t splits, int indexBits) {
  if (!k.splitsAtLaunch())
    return k;
  if (splits < 1 || splits > k.splitRule.maxSplits)
    throw Error("kernel '" + k.name +
                    "': num_splits = " + std::to_string(splits) +
                    ": expected 1 to " + std::to_string(k.splitRule.maxSplits) +
                    " (codegen.split_rule.max_splits)",
                kExitInput);
  KernelSpec b = k;
  b.splits = splits;
  // One block column per chunk: (S, R * kv_heads, batch).
  if (b.stage == GradStage::SplitKV)
    b.grid[0] = uint32_t(splits);
  for (ParamSpec &p : b.params) {
    if (p.kind == ParamSpec::Kind::I32 && p.name == "num_splits")
      p.sizeValue = int32_t(splits);
    // partial_output [B, S, Hq, Lq, Dv] and partial_lse [B, S, Hq, Lq].
    if (!p.isWorkspace || p.shape.size() < 2 || p.shape[1] != kRuntimeSize)
      continue;
    p.shape[1] = splits;
    checkTensorElements(b, p, indexBits);
  }
  return b;
}

void bindSplitsByRule(Manifest &m, int64_t smCount) {
  for (const GradGroup &g : forwardGroups(m)) {
    const KernelSpec &first = *g.kernels.front();
    if (!first.splitsAtLaunch())
      continue;
    const int64_t splits = ruleSplits(first, smCount);
    for (const KernelSpec *member : g.kernels) {
      KernelSpec &k = m.kernels[size_t(member - m.kernels.data())];
      k = bindSplits(k, splits, m.indexBits);
    }
  }
}

KernelSpec bindSizes(const KernelSpec &k, const RuntimeSizes &sizes,
                     int indexBits) {
  KernelSpec b = bindLengths(k, sizes, indexBits);
  if (b.splitsAtLaunch() && sizes.splits != 0)
    b = bindSplits(b, sizes.splits, indexBits);
  return b;
}

namespace {

KernelSpec bindLengths(const KernelSpec &k, const RuntimeSizes &sizes,
                       int indexBits) {
  // A packed kernel's sizes come from its sequence lengths (bindSequences).
  if (!k.hasRuntimeSizes() || k.isVarlen())
    return k;
  auto fail = [&](const std::string &message) -> void {
    throw Error("kernel '" + k.name + "': " + message, kExitInput);
  };
  KernelSpec b = k;
  const struct {
    int64_t *field;
    int64_t given;
    const char *name;
  } runtime[] = {
      {&b.batch, sizes.batch, "batch"},
      {&b.queryLen, sizes.queryLen, "query_len"},
      {&b.keyLen, sizes.keyLen, "key_len"},
      {&b.numPages, sizes.numPages, "num_pages"},
      {&b.maxPagesPerSeq, sizes.maxPagesPerSeq, "max_pages_per_seq"}};
  for (const auto &r : runtime) {
    // A paged kernel's key length is its capacity (below), no size.
    if (*r.field != kRuntimeSize || (k.isPaged() && r.field == &b.keyLen))
      continue;
    if (r.given < 1 || r.given > 2147483647LL)
      fail(std::string(r.given ? "run-time size " : "no value for the "
                                                    "run-time size ") +
           r.name +
           (r.given ? " = " + std::to_string(r.given) +
                          " (expected 1 to 2^31 - 1)"
                    : std::string(" (give it, e.g. --sizes ") + r.name +
                          "=128)"));
    *r.field = r.given;
  }
  if (b.batch > 65535)
    fail("batch = " + std::to_string(b.batch) +
         ": the grid has one block row per batch entry, and CUDA allows at "
         "most 65535");
  // A paged kernel's key length is its capacity, max_pages_per_seq *
  // page_size, which cache_seqlens' i32 entries must be able to hold.
  if (k.isPaged() && k.maxPagesPerSeq == kRuntimeSize) {
    const std::string why =
        validation::capacityOverflow(b.maxPagesPerSeq, b.pageSize);
    if (!why.empty())
      fail("max_pages_per_seq = " + std::to_string(b.maxPagesPerSeq) + ": " +
           why);
    b.keyLen = b.maxPagesPerSeq * b.pageSize;
  }
  // The compiler clamps window sides of kernels with run-time lengths to
  // 2^30, which is exact (and free of 32-bit overflow) only while
  // Lq + Lk <= 2^30. (A paged kernel's key length is its capacity, a
  // run-time length where its block table's width is.)
  const bool runtimeLengths =
      k.queryLen == kRuntimeSize || k.keyLen == kRuntimeSize;
  if (runtimeLengths && b.queryLen + b.keyLen > (int64_t(1) << 30))
    fail(std::string(k.isPaged() ? "query_len + max_pages_per_seq * "
                                   "page_size = "
                                 : "query_len + key_len = ") +
         std::to_string(b.queryLen + b.keyLen) +
         ": kernels with run-time sizes take at most 2^30 positions");

  auto bindMask = [&](std::array<int64_t, 4> &shape) {
    const int64_t full[4] = {b.batch, b.queryHeads, b.queryLen, b.keyLen};
    for (int d = 0; d < 4; ++d)
      if (shape[d] == kRuntimeSize)
        shape[d] = full[d];
  };
  bindMask(b.maskShape);
  bindMask(b.dropoutMaskShape);
  for (ParamSpec &p : b.params) {
    // num_splits is bindSplits'.
    if (p.kind == ParamSpec::Kind::I32 && p.name != "num_splits") {
      p.sizeValue = int32_t(sizeOf(b, p.name));
      continue;
    }
    if (p.kind != ParamSpec::Kind::Tensor)
      continue;
    // Dimension 0 is the batch; dimension 2 the key length for key, value
    // and their gradients, the query length rounded up to
    // query_len_multiple for a workspace (its rows padded to whole query
    // tiles), else the query length; dimension 3 (masks, [B, Hq, Lq, Lk]:
    // the only tensors with a run-time size there) the key length.
    const bool keys = p.name == "key" || p.name == "value" ||
                      p.name == "grad_key" || p.name == "grad_value";
    int64_t rows = b.queryLen;
    if (p.isWorkspace && p.queryLenMultiple > 0)
      rows = (b.queryLen + p.queryLenMultiple - 1) / p.queryLenMultiple *
             p.queryLenMultiple;
    // Dimension 1 of a split-KV workspace is the split count (bindSplits).
    const bool splitWorkspace = p.isWorkspace && b.isForwardStage();
    // Dimension 0 of a paged cache is its page count, dimension 1 of a
    // block table its width.
    const bool cache = p.name == "key_cache" || p.name == "value_cache";
    const bool table = p.name == "block_table";
    for (size_t d = 0; d < p.shape.size(); ++d) {
      if (p.shape[d] != kRuntimeSize || (splitWorkspace && d == 1))
        continue;
      p.shape[d] = d == 0 && cache   ? b.numPages
                   : d == 1 && table ? b.maxPagesPerSeq
                   : d == 0          ? b.batch
                   : d == 3          ? b.keyLen
                   : keys            ? b.keyLen
                                     : rows;
    }
    checkTensorElements(b, p, indexBits);
  }
  // The grid of docs/kernel-manifest.md, "Launch checks": over query
  // blocks, or over key blocks (times codegen.key_block_parts) for dkdv
  // and dkdv_dq.
  const bool overKeys =
      b.stage == GradStage::DKDV || b.stage == GradStage::DKDVDQ;
  const int64_t len = overKeys ? b.keyLen : b.queryLen;
  // A split-KV stage's null x is its split count (bindSplits).
  if (b.grid[0] == 0 && !b.isForwardStage()) {
    // codegen.key_block_parts may be as large as 2^40, so the product is
    // checked by division rather than computed and then compared.
    const int64_t blocks = (len + b.gridTile - 1) / b.gridTile;
    if (blocks > 2147483647 / b.gridParts)
      fail("grid x: " + std::to_string(b.gridParts) + " x " +
           std::to_string(blocks) + " blocks for " +
           (overKeys ? "key_len" : "query_len") + " = " +
           std::to_string(len) + ", more than the 2^31 - 1 CUDA allows");
    b.grid[0] = uint32_t(b.gridParts * blocks);
  }
  // z is the batch; y only for a split-KV combine stage, whose grid is
  // (rows / 4, batch, 1).
  if (b.grid[2] == 0)
    b.grid[2] = uint32_t(b.batch);
  if (b.grid[1] == 0)
    b.grid[1] = uint32_t(b.batch);
  return b;
}

} // namespace

Manifest bindSizes(const Manifest &m, const RuntimeSizes &sizes) {
  if (sizes.splits != 0 &&
      std::none_of(m.kernels.begin(), m.kernels.end(),
                   [](const KernelSpec &k) { return k.splitsAtLaunch(); }))
    throw Error("'" + m.path +
                    "': num_splits = " + std::to_string(sizes.splits) +
                    " given, but no split-KV group of this manifest decides "
                    "its split count at launch (codegen.splits null); "
                    "num_splits is for those",
                kExitInput);
  Manifest b = m;
  for (KernelSpec &k : b.kernels)
    k = bindSizes(k, sizes, m.indexBits);
  return b;
}

bool hasRuntimeSizes(const Manifest &m) {
  for (const KernelSpec &k : m.kernels)
    if (k.hasRuntimeSizes() && !k.isVarlen())
      return true;
  return false;
}

} // namespace attnrt
