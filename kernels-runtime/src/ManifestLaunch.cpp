//===- ManifestLaunch.cpp - launch checks ---------------------------------===//
//
// A kernel's launch against its codegen object (docs/kernel-manifest.md,
// "Launch checks"): the matrix instructions of its stage, dynamic shared
// memory, and the grid of a dense, split-KV, paged or packed kernel,
// with the grid formula recorded for run-time sizes; the split rule of a
// split count decided at launch.
//
//===----------------------------------------------------------------------===//

#include "ManifestValidator.h"

#include <string>

namespace attnrt::validation {

/// The kernel's launch (grid, block and dynamic shared memory) against what
/// its "codegen" says about how it was generated. Only a manifest that
/// states the tiling is held to the compiler's formulas: hand-written
/// kernels (the runtime's samples, with their own 1-D grids and static
/// shared memory) carry no "codegen" and get the CUDA limits alone.
void Validator::checkLaunch(const Value &v, KernelSpec &k,
                            const Codegen &cg) const {
  if (cg.threads && cg.threads->asInteger() != int64_t(k.block[0]))
    fail(*cg.threads, "codegen.threads: " + cg.threads->text +
                          ", but block[0] is " + std::to_string(k.block[0]) +
                          " (threads is the block's x size)");

  // What the kernel multiplies with must suit its stage: the CUDA-core
  // kernels and the backward's prep and dq_convert stages multiply no
  // matrices ("mma": "none"); a tensor-core forward, dkdv, dkdv_dq or dq
  // kernel does (wgmma or mma.sync).
  const bool matrixStage =
      k.stage == GradStage::None || k.stage == GradStage::DKDV ||
      k.stage == GradStage::DKDVDQ || k.stage == GradStage::DQ ||
      k.stage == GradStage::SplitKV;
  const std::string what =
      k.stage != GradStage::None
          ? "a \"" + std::string(stageName(k.stage)) + "\" kernel"
      : k.isVarlen() ? std::string("a \"varlen_attention\" kernel")
                     : std::string("a forward kernel");
  if (cg.mma && cg.kernel) {
    bool tensorCore = cg.kernel->text == "tensor-core";
    bool multiplies = cg.mma->text != "none";
    if (!tensorCore && multiplies)
      fail(*cg.mma, "codegen.mma: \"" + cg.mma->text +
                        "\" for a CUDA-core kernel (expected \"none\": it "
                        "does not use the tensor cores)");
    if (tensorCore && matrixStage && !multiplies)
      fail(*cg.mma, "codegen.mma: \"none\" for " + what +
                        " on tensor cores (expected \"wgmma\" or "
                        "\"mma.sync\")");
  }
  if (cg.mma && !matrixStage && cg.mma->text != "none")
    fail(*cg.mma, "codegen.mma: \"" + cg.mma->text + "\" for " + what +
                      " (expected \"none\": it multiplies no matrices)");

  // A tensor-core matrix stage stages its Q/K/V (and dO) tiles in dynamic
  // shared memory: launched with none, it reads and writes past the end of
  // the block's shared memory. (A CUDA-core kernel's tiles are static
  // shared memory, so 0 dynamic bytes is right for it.)
  std::string tensorCores; // the field that says so, if any
  if (cg.kernel && cg.kernel->text == "tensor-core")
    tensorCores = "codegen.kernel is \"tensor-core\"";
  else if (cg.mma && cg.mma->text != "none")
    tensorCores = "codegen.mma is \"" + cg.mma->text + "\"";
  if (matrixStage && !tensorCores.empty() && k.dynamicSharedMemory == 0)
    fail(*v.find("dynamic_shared_memory"),
         "dynamic_shared_memory: 0 bytes, but " + what + " on tensor cores (" +
             tensorCores +
             ") stages its tiles in dynamic shared memory (expected more "
             "than 0)");

  // The grid: one block per (query block, query head, batch) for the
  // forward and the prep, dq and dq_convert stages, one per (key block, kv
  // head, batch) for dkdv and dkdv_dq (docs/kernel-manifest.md).
  const bool overKeys =
      k.stage == GradStage::DKDV || k.stage == GradStage::DKDVDQ;
  if (cg.keyBlockParts && !overKeys)
    fail(*cg.keyBlockParts, "codegen.key_block_parts: only a \"dkdv\" or "
                            "\"dkdv_dq\" kernel splits its key blocks, not " +
                                what);
  if (cg.splits && !k.isForwardStage())
    fail(*cg.splits, "codegen.splits: only a stage of a split-KV forward "
                     "group (\"split_kv\" or \"combine\") splits the keys, "
                     "not " +
                         what);
  if (cg.splitRule && !k.isForwardStage())
    fail(*cg.splitRule, "codegen.split_rule: only a stage of a split-KV "
                        "forward group (\"split_kv\" or \"combine\") "
                        "decides a split count at launch, not " +
                            what);
  if (k.isForwardStage()) {
    checkSplitKVLaunch(v, k, cg);
    return;
  }
  if (k.isVarlen()) {
    checkVarlenGrid(v, k, cg);
    return;
  }
  const bool persistent = cg.schedule && cg.schedule->text == "persistent";
  k.persistent = persistent;
  if (persistent && (k.isGrad() || k.hasRuntimeSizes() || !cg.blockQ))
    fail(*cg.schedule, "codegen.schedule: \"persistent\" is a dense forward "
                       "kernel's with static sizes and codegen.block_q, not " +
                           what);
  const Value *tile = overKeys ? cg.blockKV : cg.blockQ;
  if (!tile) {
    // Without the tile there is no formula to compute a run-time grid.
    if (k.hasRuntimeSizes())
      fail(v, std::string("a kernel with run-time sizes needs codegen.") +
                  (overKeys ? "block_kv" : "block_q") +
                  " (its grid is computed at launch from it)");
    return;
  }
  int64_t rows = tile->asInteger();
  int64_t len = overKeys ? k.keyLen : k.queryLen;
  const int64_t parts = cg.keyBlockParts ? cg.keyBlockParts->asInteger() : 1;
  k.gridTile = rows;
  k.gridParts = parts;
  // A run-time length or batch: null in the grid (0 here).
  const std::array<int64_t, 3> want = {
      len == kRuntimeSize ? 0 : parts * ((len + rows - 1) / rows),
      overKeys ? k.kvHeads : k.queryHeads,
      k.batch == kRuntimeSize ? 0 : k.batch};
  if (want[0] == k.grid[0] && want[1] == k.grid[1] && want[2] == k.grid[2])
    return;
  if (persistent) {
    // Blocks that loop over the want[0] x want[1] x want[2] tiles.
    const int64_t tiles = want[0] * want[1] * want[2];
    if (k.grid[1] == 1 && k.grid[2] == 1 && k.grid[0] >= 1 &&
        int64_t(k.grid[0]) <= tiles)
      return;
    fail(*v.find("grid"), "grid: " + gridText(k.grid) +
                              " does not match the problem: " + what +
                              " with codegen.schedule \"persistent\" runs "
                              "[n, 1, 1] blocks with 1 <= n <= " +
                              std::to_string(tiles) +
                              " (its tiles: (query block, query head, batch) "
                              "= " +
                              gridText(want) + ")");
  }
  fail(*v.find("grid"),
       "grid: " + gridText(k.grid) + " does not match the problem: " + what +
           " runs one block per " +
           (overKeys && parts > 1 ? "(key block part, kv head, batch) = "
                                    "(codegen.key_block_parts * ceil(key_len / "
                                    "codegen.block_kv), kv_heads, batch)"
            : overKeys ? "(key block, kv head, batch) = (ceil(key_len / "
                         "codegen.block_kv), kv_heads, batch)"
                       : "(query block, query head, batch) = (ceil(query_len "
                         "/ codegen.block_q), query_heads, batch)") +
           " = " + gridText(want));
}

/// codegen.split_rule of split-KV stage `k` (dense or paged): present
/// exactly where codegen.splits is null (the split count decided at
/// launch), an object of three positive integers; max_splits at most
/// 2^31 - 1 (S is grid x and an i32 parameter).
void Validator::checkSplitRule(KernelSpec &k, const Codegen &cg) const {
  const Value *rule = cg.splitRule;
  const std::string ruleFields =
      "{\"blocks_per_sm\": ..., \"max_splits\": ..., \"min_chunk_keys\": "
      "...}";
  if (k.splitsAtLaunch() && !rule)
    fail(*cg.splits, "codegen.splits: null (the split count decided at "
                     "launch) needs codegen.split_rule, the split rule's "
                     "constants " +
                         ruleFields);
  if (!rule)
    return;
  if (!k.splitsAtLaunch())
    fail(*rule, "codegen.split_rule: only for a split count decided at "
                "launch (codegen.splits null), but codegen.splits is " +
                    cg.splits->text);
  const std::string what = "codegen.split_rule";
  if (!rule->isObject())
    fail(*rule,
         what + ": expected an object " + ruleFields + ", " + got(*rule));
  checkKeys(*rule, {"blocks_per_sm", "max_splits", "min_chunk_keys"}, what);
  k.splitRule.blocksPerSm =
      positive(field(*rule, "blocks_per_sm", what), what + ".blocks_per_sm");
  k.splitRule.maxSplits = integer(
      field(*rule, "max_splits", what), what + ".max_splits", 1, 2147483647,
      "an integer in [1, 2^31 - 1] (S is the split_kv grid's x and "
      "an i32 parameter)");
  k.splitRule.minChunkKeys =
      positive(field(*rule, "min_chunk_keys", what), what + ".min_chunk_keys");
}

/// The launch of a split-KV forward stage (docs/kernel-manifest.md,
/// "Split-KV forward groups"). codegen.splits is required: it sizes the
/// grid and the workspaces (null with codegen.split_rule where S is decided
/// at launch: then split_kv's grid x and the workspaces' dimension 1 are
/// null). split_kv runs (S, R * kv_heads, batch) blocks, R = ceil(G *
/// query_len / block_q) blocks of the G * query_len rows of the G =
/// query_heads / kv_heads heads that share a KV head; combine runs
/// (ceil(query_heads * query_len / 4), batch, 1) blocks of 128 threads (a
/// warp per row) without dynamic shared memory. Only the batch and S can be
/// run-time grid entries (the query length is static in this form).
void Validator::checkSplitKVLaunch(const Value &v, KernelSpec &k,
                                   const Codegen &cg) const {
  const bool split = k.stage == GradStage::SplitKV;
  const std::string what =
      "a \"" + std::string(stageName(k.stage)) + "\" kernel";
  const Value *object = v.find("codegen");
  if (!cg.splits)
    fail(object ? *object : v,
         what + " needs codegen.splits (the key chunks S: its grid and the "
                "workspaces partial_output and partial_lse depend on it; "
                "null with codegen.split_rule where S is decided at launch)");
  k.splits = cg.splits->isNull() ? kRuntimeSize : cg.splits->asInteger();
  checkSplitRule(k, cg);
  // What each stage's code is: the tensor-core forward (wgmma or mma.sync,
  // which checkLaunch holds it to) over a chunk, and a CUDA-core reduction.
  const std::string wantKernel = split ? "tensor-core" : "cuda-core";
  if (cg.kernel && cg.kernel->text != wantKernel)
    fail(*cg.kernel, "codegen.kernel: \"" + cg.kernel->text + "\" for " + what +
                         " (expected \"" + wantKernel + "\")");

  const Value &grid = *v.find("grid");
  const int64_t batch = k.batch == kRuntimeSize ? 0 : k.batch;
  int64_t rows = 0; // query rows: G * query_len, or query_heads * query_len
  if (__builtin_mul_overflow(split ? k.queryHeads / k.kvHeads : k.queryHeads,
                             k.queryLen, &rows))
    fail(grid, "grid: query_heads * query_len overflows 64 bits");
  std::array<int64_t, 3> want;
  std::string formula;
  if (split) {
    if (!cg.blockQ)
      fail(object ? *object : v,
           what + " needs codegen.block_q (its grid packs the query rows of "
                  "the query heads sharing a KV head into blocks of block_q "
                  "rows)");
    const int64_t tile = cg.blockQ->asInteger();
    // S decided at launch: grid x is null (0 here), and nothing else.
    if (k.splitsAtLaunch() && k.grid[0] != 0)
      fail(grid.array[0], "grid[0]: expected null for " + what +
                              " whose split count is decided at launch "
                              "(codegen.splits is null; x = S at launch), "
                              "got " +
                              grid.array[0].text);
    want = {k.splitsAtLaunch() ? 0 : k.splits,
            (rows + tile - 1) / tile * k.kvHeads, batch};
    formula = "(chunk, row block, batch) = (codegen.splits, "
              "ceil(query_heads / kv_heads * query_len / codegen.block_q) * "
              "kv_heads, batch)";
  } else {
    if (k.block != std::array<uint32_t, 3>{128, 1, 1})
      fail(*v.find("block"),
           "block: " + formatShape({k.block[0], k.block[1], k.block[2]}) +
               ", but a \"combine\" kernel runs 128 threads, [128, 1, 1] (a "
               "warp per (batch, query head, query) row)");
    if (k.dynamicSharedMemory != 0)
      fail(*v.find("dynamic_shared_memory"),
           "dynamic_shared_memory: " + std::to_string(k.dynamicSharedMemory) +
               " bytes, but a \"combine\" kernel uses none (expected 0)");
    want = {(rows + 3) / 4, batch, 1};
    formula = "(4 rows of (query head, query), batch) = (ceil(query_heads * "
              "query_len / 4), batch, 1)";
  }
  if (want[0] == int64_t(k.grid[0]) && want[1] == int64_t(k.grid[1]) &&
      want[2] == int64_t(k.grid[2]))
    return;
  fail(grid, "grid: " + gridText(k.grid) +
                 " does not match the problem: " + what +
                 " runs one block per " + formula + " = " + gridText(want));
}

/// A packed kernel's grid: one block per (query block of the longest
/// sequence, query head, sequence), or for the backward's dkdv and dkdv_dq
/// stages per (key block of the longest sequence, times
/// codegen.key_block_parts, kv head, sequence). x is always computed at
/// launch from the offsets (a block past its own sequence's end exits at
/// once), so it must be null, and the kernel must carry the tile its
/// formula divides by.
void Validator::checkVarlenGrid(const Value &v, KernelSpec &k,
                                const Codegen &cg) const {
  const bool overKeys =
      k.stage == GradStage::DKDV || k.stage == GradStage::DKDVDQ;
  const std::string what =
      k.isGrad() ? "a packed \"" + std::string(stageName(k.stage)) +
                       "\" kernel (\"op\": \"varlen_attention_grad\")"
                 : std::string("a \"varlen_attention\" kernel");
  const Value *tile = overKeys ? cg.blockKV : cg.blockQ;
  const char *tileName = overKeys ? "codegen.block_kv" : "codegen.block_q";
  if (!tile)
    fail(v, what + " needs " + tileName +
                " (its grid is computed at launch from the longest "
                "sequence)");
  k.gridTile = tile->asInteger();
  k.gridParts = cg.keyBlockParts ? cg.keyBlockParts->asInteger() : 1;
  const std::string x =
      overKeys ? "max(1, ceil(longest key sequence / codegen.block_kv)) * "
                 "codegen.key_block_parts"
               : "max(1, ceil(longest query sequence / codegen.block_q))";
  const Value &grid = *v.find("grid");
  if (k.grid[0] != 0)
    fail(grid.array[0], "grid[0]: expected null for " + what + " (x = " + x +
                            ", computed at launch from the offsets), got " +
                            grid.array[0].text);
  const std::array<int64_t, 3> want = {0, overKeys ? k.kvHeads : k.queryHeads,
                                       k.batch == kRuntimeSize ? 0 : k.batch};
  if (int64_t(k.grid[1]) == want[1] && int64_t(k.grid[2]) == want[2])
    return;
  fail(grid, "grid: " + gridText(k.grid) + " does not match the problem: " +
                 what + " runs one block per " +
                 (overKeys ? "(key block of the longest sequence, kv head, "
                             "sequence) = (null: computed at launch, "
                             "kv_heads, batch) = "
                           : "(query block of the longest sequence, query "
                             "head, sequence) = (null: computed at launch, "
                             "query_heads, batch) = ") +
                 gridText(want));
}

} // namespace attnrt::validation
