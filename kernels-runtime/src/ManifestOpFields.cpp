//===- ManifestOpFields.cpp - packed, paged and merge fields --------------===//
//
// The fields that only some ops have: the token totals of a packed kernel
// (varlen_attention), the cache geometry of a paged one (paged_attention),
// and the whole of a merge kernel (merge_partials), with its launch and
// its row dimensions.
//
//===----------------------------------------------------------------------===//

#include "ManifestValidator.h"

#include <algorithm>
#include <iterator>
#include <limits>
#include <string>

namespace attnrt::validation {

/// The fields of a packed kernel ("op": "varlen_attention" or
/// "varlen_attention_grad", docs/semantics.md §14): the token totals, which
/// no other op has; no single query or key length (each sequence has its
/// own, from the offsets), and no mask or explicit dropout mask.
void Validator::varlenFields(const Value &v, KernelSpec &k) {
  const char *const totals[] = {"total_query_tokens", "total_key_tokens"};
  if (!k.isVarlen()) {
    for (const char *name : totals)
      if (const Value *f = v.find(name))
        fail(*f, std::string(name) + ": only a packed kernel (\"op\": "
                                     "\"varlen_attention\" or "
                                     "\"varlen_attention_grad\") has this "
                                     "field");
    return;
  }
  const std::string op = opName(k.op);
  const std::string what = "a packed kernel (\"op\": \"" + op + "\")";
  for (const char *name : {"query_len", "key_len"}) {
    const Value &f = *v.find(name); // present: kernel() read it
    if (!f.isNull())
      fail(f, std::string(name) + ": expected null for a \"" + op +
                  "\" kernel (each sequence's length comes from "
                  "cu_seqlens_q / cu_seqlens_k), " +
                  got(f));
  }
  k.totalQueryTokens = lengthField(field(v, totals[0], what), totals[0]);
  k.totalKeyTokens = lengthField(field(v, totals[1], what), totals[1]);
  for (const char *name : {"mask", "dropout_mask"})
    if (const Value *f = v.find(name))
      if (!f->isNull())
        fail(*f, std::string(name) + ": a \"" + op +
                     "\" kernel takes none (a packed batch has no [B, Hq, "
                     "Lq, Lk] score tensor to apply one to): expected null "
                     "or no field, " +
                     got(*f));
}

/// The fields of a paged kernel ("op": "paged_attention",
/// docs/kernel-manifest.md "Paged key/value caches"): page_size, num_pages
/// and max_pages_per_seq, which no other op has; key_len null (each
/// sequence's length is its cache_seqlens entry; keyLen becomes the
/// capacity max_pages_per_seq * page_size), no mask. The batch (read by
/// kernel()) and num_pages may be null: run-time sizes.
void Validator::pagedFields(const Value &v, KernelSpec &k) {
  const char *const paging[] = {"page_size", "num_pages", "max_pages_per_seq"};
  if (!k.isPaged()) {
    for (const char *name : paging)
      if (const Value *f = v.find(name))
        fail(*f, std::string(name) +
                     ": only a paged kernel (\"op\": \"paged_attention\") "
                     "has this field, not a \"" +
                     opName(k.op) + "\" kernel");
    return;
  }
  const std::string what = "a \"paged_attention\" kernel";
  const Value &keyLen = *v.find("key_len"); // present: kernel() read it
  if (!keyLen.isNull())
    fail(keyLen, "key_len: expected null for " + what +
                     " (each sequence's cache length comes from "
                     "cache_seqlens; there is no key_len size parameter), " +
                     got(keyLen));
  k.pageSize = positive(field(v, "page_size", what), "page_size");
  const Value &pages = field(v, "num_pages", what);
  k.numPages = lengthField(pages, "num_pages");
  if (k.numPages > 2147483647)
    fail(pages, "num_pages: " + std::to_string(k.numPages) +
                    " pages, more than the 2^31 - 1 an i32 block_table "
                    "entry can index");
  // The block table's width: null where it is a run-time size, and then
  // so is the capacity (the key length), bound with it (bindSizes).
  const Value &perSeq = field(v, "max_pages_per_seq", what);
  k.maxPagesPerSeq = lengthField(perSeq, "max_pages_per_seq");
  if (k.maxPagesPerSeq == kRuntimeSize) {
    k.keyLen = kRuntimeSize;
  } else {
    const std::string why =
        validation::capacityOverflow(k.maxPagesPerSeq, k.pageSize);
    if (!why.empty())
      fail(perSeq, "max_pages_per_seq: " + why);
    k.keyLen = k.maxPagesPerSeq * k.pageSize;
  }
  const Value &mask = field(v, "mask", what);
  if (!mask.isNull())
    fail(mask, "mask: " + what +
                   " takes none (attn.paged_attention has no "
                   "mask): expected null, " +
                   got(mask));
  if (const Value *keep = v.find("dropout_mask"))
    if (!keep->isNull())
      fail(*keep, "dropout_mask: " + what +
                      " has no dropout: expected null or no field, " +
                      got(*keep));
}

/// A merge kernel ("op": "merge_partials", docs/kernel-manifest.md
/// "Merging partial results"): its own fields (none of the attention
/// problem's), its launch ((ceil(rows / 4), 1, 1) blocks of 128 threads, no
/// dynamic shared memory; codegen, when present, that of a CUDA-core
/// kernel with block_q 4) and its parameters.
void Validator::mergeKernel(const Value &v, KernelSpec &k) {
  const std::string what = "a \"merge_partials\" kernel";
  static const char *const fields[] = {
      "name",          "source", "op",    "dtype",
      "partial_dtype", "splits", "rows",  "value_dim",
      "has_lse",       "grid",   "block", "dynamic_shared_memory",
      "params",        "codegen"};
  std::string list;
  for (const char *f : fields)
    list += std::string(list.empty() ? "" : ", ") + f;
  for (const auto &member : v.object)
    if (std::find_if(std::begin(fields), std::end(fields), [&](const char *f) {
          return member.first == f;
        }) == std::end(fields))
      fail(member.second,
           member.first + ": " + what +
               " has no such field (it merges partial results and has none "
               "of the attention fields such as heads, lengths, scale, "
               "causal, window, softcap, dropout_p or mask; expected "
               "fields: " +
               list + ")");
  k.source = string(field(v, "source", what), "source", /*allowEmpty=*/true);
  k.dtype = dtype(field(v, "dtype", what), "dtype", /*allowI1=*/false);
  k.partialDtype =
      dtype(field(v, "partial_dtype", what), "partial_dtype", false);
  k.splits = positive(field(v, "splits", what), "splits");
  const Value &rows = field(v, "rows", what);
  k.rows = positive(rows, "rows");
  k.valueDim = positive(field(v, "value_dim", what), "value_dim");
  const Value &hasLse = field(v, "has_lse", what);
  if (!hasLse.isBool())
    fail(hasLse, "has_lse: expected true or false, " + got(hasLse));
  k.hasLse = hasLse.boolean;

  const Value &grid = field(v, "grid", what);
  k.grid = dim3(grid, "grid", {2147483647, 65535, 65535});
  const Value &block = field(v, "block", what);
  k.block = dim3(block, "block", {1024, 1024, 64});
  const Value &smem = field(v, "dynamic_shared_memory", what);
  if (integer(smem, "dynamic_shared_memory", 0,
              std::numeric_limits<int64_t>::max(),
              "a non-negative integer (bytes)") != 0)
    fail(smem, "dynamic_shared_memory: " + smem.text + " bytes, but " + what +
                   " uses none (expected 0)");

  // codegen, when present: a CUDA-core kernel of 4 rows per block.
  const Codegen cg = codegen(v);
  if (cg.kernel && cg.kernel->text != "cuda-core")
    fail(*cg.kernel, "codegen.kernel: \"" + cg.kernel->text + "\" for " + what +
                         " (expected \"cuda-core\")");
  if (cg.mma && cg.mma->text != "none")
    fail(*cg.mma, "codegen.mma: \"" + cg.mma->text + "\" for " + what +
                      " (expected \"none\": it multiplies no matrices)");
  if (cg.blockQ && cg.blockQ->asInteger() != 4)
    fail(*cg.blockQ, "codegen.block_q: " + cg.blockQ->text + " for " + what +
                         " (expected 4: a warp per row, 4 rows per block)");
  for (const Value *other : {cg.blockKV, cg.keyBlockParts, cg.splits})
    if (other)
      fail(*other, "codegen: " + what +
                       " has no key blocks or key chunks (expected only "
                       "kernel, mma, block_q and threads), got " +
                       other->text);
  if (cg.threads && cg.threads->asInteger() != int64_t(k.block[0]))
    fail(*cg.threads, "codegen.threads: " + cg.threads->text +
                          ", but block[0] is " + std::to_string(k.block[0]) +
                          " (threads is the block's x size)");
  if (k.block != std::array<uint32_t, 3>{128, 1, 1})
    fail(block, "block: " + formatShape({k.block[0], k.block[1], k.block[2]}) +
                    ", but " + what +
                    " runs 128 threads, [128, 1, 1] (a warp per row)");
  const std::array<int64_t, 3> want = {(k.rows + 3) / 4, 1, 1};
  if (want[0] != int64_t(k.grid[0]) || k.grid[1] != 1 || k.grid[2] != 1)
    fail(grid, "grid: " + gridText(k.grid) +
                   " does not match the problem: " + what +
                   " runs one block per 4 rows = (ceil(rows / 4), 1, 1) = " +
                   gridText(want));

  const Value &params = field(v, "params", what);
  k.rowDims = mergeRowDims(params, k);
  paramList(params, k, paramTable(k, false));
}

/// The row dimensions d... of a merge kernel, read from the shape of its
/// parameter partial_output ([splits, d..., value_dim]; static, at least 3
/// dimensions, the product of d... equal to "rows"). [rows] when the list
/// has no such parameter with a shape (paramList then reports it).
std::vector<int64_t> Validator::mergeRowDims(const Value &params,
                                             const KernelSpec &k) const {
  if (!params.isArray())
    return {k.rows};
  for (const Value &pv : params.array) {
    const Value *n = pv.isObject() ? pv.find("name") : nullptr;
    if (!n || !n->isString() || n->text != "partial_output")
      continue;
    const Value *sv = pv.find("shape");
    if (!sv)
      return {k.rows};
    const std::string at = "param 'partial_output': shape";
    std::vector<int64_t> s = shape(*sv, at);
    for (size_t i = 0; i < s.size(); ++i)
      if (s[i] == kRuntimeSize)
        fail(sv->array[i], at + "[" + std::to_string(i) +
                               "]: null, but a \"merge_partials\" kernel has "
                               "static shapes");
    if (s.size() < 3)
      fail(*sv, at + " " + formatShape(s) +
                    " does not match [splits, d..., value_dim] (expected at "
                    "least 3 dimensions: one or more row dimensions d... "
                    "between splits and value_dim)");
    std::vector<int64_t> dims(s.begin() + 1, s.end() - 1);
    int64_t product = 1;
    for (int64_t d : dims)
      product *= d; // shape() bounds the elements by 2^50
    if (product != k.rows)
      fail(*sv, at + " " + formatShape(s) + ": the row dimensions d... = " +
                    formatShape(dims) + " hold " + std::to_string(product) +
                    " rows, but the kernel's rows is " +
                    std::to_string(k.rows));
    return dims;
  }
  return {k.rows};
}

} // namespace attnrt::validation
