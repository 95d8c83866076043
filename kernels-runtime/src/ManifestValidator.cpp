//===- ManifestValidator.cpp - the manifest and kernel objects ------------===//
//
// Validator::run (the manifest object: format, ptx, chip, index_bits, then
// each kernel and the checks across kernels) and Validator::kernel (a
// kernel object: op and stage, the problem fields, masks, has_lse, grid,
// block and shared memory, then its launch checks and parameter list), with
// the codegen object's fields and the size helpers the other parts share.
//
//===----------------------------------------------------------------------===//

#include "ManifestValidator.h"

#include <limits>
#include <string>

namespace attnrt::validation {

int64_t sizeOf(const KernelSpec &k, const std::string &name) {
  return name == "batch"                ? k.batch
         : name == "query_len"          ? k.queryLen
         : name == "key_len"            ? k.keyLen
         : name == "num_pages"          ? k.numPages
         : name == "max_pages_per_seq"  ? k.maxPagesPerSeq
         : name == "total_query_tokens" ? k.totalQueryTokens
                                        : k.totalKeyTokens;
}

std::string sizeText(int64_t size) {
  return size == kRuntimeSize ? "null" : std::to_string(size);
}

std::string capacityOverflow(int64_t maxPagesPerSeq, int64_t pageSize) {
  if (maxPagesPerSeq <= 2147483647 / pageSize)
    return "";
  return "max_pages_per_seq * page_size = " + std::to_string(maxPagesPerSeq) +
         " * " + std::to_string(pageSize) +
         " tokens, more than the 2^31 - 1 an i32 cache_seqlens entry holds";
}

namespace {

/// The most dynamic shared memory one thread block may use on
/// sm_<major><minor> after opting in (CU_FUNC_ATTRIBUTE_MAX_DYNAMIC_SHARED_
/// SIZE_BYTES, which attnrt sets): the CUDA C++ Programming Guide's maximum
/// shared memory per thread block. A chip this table does not know gets the
/// most any chip allows, 227 KiB (sm_90, sm_100), so that the bound never
/// rejects a kernel a newer chip could run.
int64_t maxDynamicSharedMemory(int major, int minor) {
  constexpr int64_t KiB = 1024;
  switch (major) {
  case 7: // sm_75; sm_70, sm_72
    return minor == 5 ? 64 * KiB : 96 * KiB;
  case 8: // sm_80, sm_87; sm_86, sm_89
    return minor == 0 || minor == 7 ? 163 * KiB : 99 * KiB;
  case 12: // sm_120, sm_121
    return 99 * KiB;
  default:
    return 227 * KiB;
  }
}

} // namespace

Manifest Validator::run(const Value &root) {
  Manifest m;
  m.path = path;
  if (!root.isObject())
    fail(root, "expected the manifest to be a JSON object, " + got(root));
  checkKeys(root, {"format", "ptx", "chip", "index_bits", "kernels"},
            "the manifest");

  const Value &format = field(root, "format", "the manifest");
  m.format = string(format, "format");
  if (m.format != "attn-kernels-v1")
    fail(format, "format: unsupported manifest format \"" + m.format +
                     "\" (expected \"attn-kernels-v1\")");

  const Value &ptx = field(root, "ptx", "the manifest");
  m.ptx = string(ptx, "ptx");
  checkPtxName(ptx);
  m.ptxPath = joinPath(directoryOf(path), m.ptx);

  const Value &chip = field(root, "chip", "the manifest");
  m.chip = string(chip, "chip");
  {
    // sm_<digits>[a|f]
    const std::string &c = m.chip;
    size_t end = c.size();
    if (end > 0 && (c[end - 1] == 'a' || c[end - 1] == 'f'))
      --end;
    bool ok = c.compare(0, 3, "sm_") == 0 && end > 4 && end <= 6;
    for (size_t i = 3; ok && i < end; ++i)
      ok = c[i] >= '0' && c[i] <= '9';
    if (!ok)
      fail(chip, "chip: expected an NVIDIA architecture like \"sm_80\" or "
                 "\"sm_90a\", got \"" + c + "\"");
    int number = std::stoi(c.substr(3, end - 3));
    // The compiler's targets (attn-compile --chip) are sm_80 and later;
    // the launch checks know the limits of those chips only (majors 8 to
    // 12, written without a leading zero).
    if (number < 80)
      fail(chip, "chip: \"" + c +
                     "\" is older than the kernels' targets (sm_80 and "
                     "later: cp.async, ldmatrix and bf16 mma.sync)");
    if (c[3] == '0' || number > 129)
      fail(chip, "chip: \"" + c +
                     "\" is not an NVIDIA architecture the launch checks "
                     "know (sm_80 to sm_12x)");
    m.chipMajor = number / 10;
    m.chipMinor = number % 10;
  }
  if (const Value *bits = root.find("index_bits")) {
    if (!bits->isInteger() ||
        (bits->asInteger() != 32 && bits->asInteger() != 64))
      fail(*bits, "index_bits: expected 32 or 64, " + got(*bits));
    m.indexBits = int(bits->asInteger());
  }
  manifest = &m;

  const Value &kernels = field(root, "kernels", "the manifest");
  if (!kernels.isArray())
    fail(kernels, "kernels: expected an array of kernel objects, " +
                      got(kernels));
  if (kernels.array.empty())
    fail(kernels, "kernels: expected at least one kernel, got an empty array");
  for (size_t i = 0; i < kernels.array.size(); ++i) {
    context = "kernels[" + std::to_string(i) + "]: ";
    KernelSpec k = kernel(kernels.array[i]);
    context = "kernels[" + std::to_string(i) + "]: ";
    auto [other, inserted] = kernelIndex.emplace(k.name, i);
    if (!inserted)
      fail(*kernels.array[i].find("name"),
           "name: duplicate kernel name '" + k.name + "' (also kernels[" +
               std::to_string(other->second) + "])");
    m.kernels.push_back(std::move(k));
  }
  // The split-KV forward groups first: a backward kernel may name one.
  for (const GradGroup &g : forwardGroups(m))
    checkForwardGroup(g, kernels, m);
  // Backward kernels naming their forward kernel (or forward group): it
  // must exist, be a forward writing lse, and have the same problem.
  for (size_t i = 0; i < m.kernels.size(); ++i) {
    const KernelSpec &k = m.kernels[i];
    if (k.forward.empty())
      continue;
    context = "kernel '" + k.name + "': ";
    checkForwardLink(*kernels.array[i].find("forward"), k, m);
  }
  for (const GradGroup &g : gradGroups(m))
    checkGroup(g, kernels, m);
  context.clear();
  return m;
}

/// "ptx" must name a file. The existence of the path is no proof (a
/// directory exists too, and "." always does), so names that can only be a
/// directory are rejected here; whether the file is a regular file is for
/// the tools that open it (attn-run, attn-manifest-check).
void Validator::checkPtxName(const Value &ptx) const {
  const std::string &name = ptx.text;
  if (name.find('\0') != std::string::npos)
    fail(ptx, "ptx: the file name contains a NUL character");
  size_t slash = name.find_last_of('/');
  std::string last = slash == std::string::npos ? name : name.substr(slash + 1);
  if (last.empty() || last == "." || last == "..")
    fail(ptx, "ptx: \"" + name +
                  "\" names a directory, not a PTX file (expected a file "
                  "name such as \"attention.ptx\")");
}

Codegen Validator::codegen(const Value &v) const {
  Codegen cg;
  const Value *object = v.find("codegen");
  if (!object)
    return cg;
  auto oneOf = [&](const char *key,
                   std::initializer_list<const char *> values) {
    const Value *f = object->find(key);
    if (!f)
      return f;
    const std::string name = std::string("codegen.") + key;
    std::string text = string(*f, name);
    std::string list;
    bool known = false;
    size_t i = 0;
    for (const char *value : values) {
      known = known || text == value;
      list += std::string(i == 0                   ? ""
                          : i + 1 == values.size() ? " or "
                                                   : ", ") +
              "\"" + value + "\"";
      ++i;
    }
    if (!known)
      fail(*f, name + ": expected " + list + ", got \"" + text + "\"");
    return f;
  };
  cg.kernel = oneOf("kernel", {"tensor-core", "cuda-core"});
  cg.mma = oneOf("mma", {"wgmma", "mma.sync", "none"});
  cg.schedule = oneOf("schedule", {"grid", "persistent"});
  auto count = [&](const char *key) {
    const Value *f = object->find(key);
    if (f)
      positive(*f, std::string("codegen.") + key);
    return f;
  };
  cg.blockQ = count("block_q");
  cg.blockKV = count("block_kv");
  cg.threads = count("threads");
  cg.keyBlockParts = count("key_block_parts");
  cg.splits = object->find("splits");
  if (cg.splits && !cg.splits->isNull())
    integer(*cg.splits, "codegen.splits", 1, int64_t(1) << 40,
            "a positive integer (or null with codegen.split_rule: S decided "
            "at launch)");
  cg.splitRule = object->find("split_rule");
  return cg;
}

KernelSpec Validator::kernel(const Value &v) {
  KernelSpec k;
  if (!v.isObject())
    fail(v, "expected a kernel object, " + got(v));
  const std::string what = "the kernel";
  const Value &name = field(v, "name", what);
  k.name = string(name, "name");
  bool ident = !(k.name[0] >= '0' && k.name[0] <= '9');
  for (char c : k.name)
    ident = ident && ((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') ||
                      (c >= '0' && c <= '9') || c == '_' || c == '$' ||
                      c == '.');
  if (!ident)
    fail(name, "name: expected a PTX entry name ([A-Za-z_$.][A-Za-z0-9_$.]*), "
               "got \"" + k.name + "\"");
  context = "kernel '" + k.name + "': ";
  checkKeys(v,
            {"name",
             "source",
             "op",
             "stage",
             "deterministic",
             "forward",
             "group",
             "dtype",
             "batch",
             "query_heads",
             "kv_heads",
             "total_query_tokens",
             "total_key_tokens",
             "query_len",
             "key_len",
             "head_dim",
             "value_dim",
             "page_size",
             "num_pages",
             "max_pages_per_seq",
             "scale",
             "causal",
             "window",
             "softcap",
             "softcap_approx",
             "matmul_precision",
             "dropout_p",
             "mask",
             "dropout_mask",
             "has_lse",
             "grid",
             "block",
             "dynamic_shared_memory",
             "params",
             "codegen",
             "partial_dtype",
             "splits",
             "rows"},
            what);
  // "codegen" (how the compiler generated the kernel) is informational: an
  // object whose fields the runtime does not read.
  if (const Value *codegen = v.find("codegen"))
    if (!codegen->isObject())
      fail(*codegen, "codegen: expected an object, " + got(*codegen));

  // "op" (default "attention"); "deterministic" and "forward" belong to
  // backward kernels only, "stage" and "group" to backward kernels and the
  // stages of a split-KV forward group.
  if (const Value *op = v.find("op")) {
    std::string text = string(*op, "op");
    if (text == "attention")
      k.op = KernelOp::Attention;
    else if (text == "attention_grad")
      k.op = KernelOp::AttentionGrad;
    else if (text == "varlen_attention")
      k.op = KernelOp::VarlenAttention;
    else if (text == "varlen_attention_grad")
      k.op = KernelOp::VarlenAttentionGrad;
    else if (text == "paged_attention")
      k.op = KernelOp::PagedAttention;
    else if (text == "merge_partials")
      k.op = KernelOp::MergePartials;
    else
      fail(*op, "op: expected \"attention\", \"attention_grad\", "
                "\"varlen_attention\", \"varlen_attention_grad\", "
                "\"paged_attention\" or \"merge_partials\", got \"" +
                    text + "\"");
  }
  // A merge kernel has its own fields (no attention problem).
  if (k.isMerge()) {
    mergeKernel(v, k);
    return k;
  }
  for (const char *mergeOnly : {"partial_dtype", "splits", "rows"})
    if (const Value *f = v.find(mergeOnly))
      fail(*f, std::string(mergeOnly) +
                   ": only a merge kernel (\"op\": \"merge_partials\") has "
                   "this field, not a \"" +
                   opName(k.op) + "\" kernel");
  if (!k.isGrad()) {
    for (const char *gradOnly :
         {"stage", "deterministic", "forward", "group"}) {
      const Value *f = v.find(gradOnly);
      const bool grouped =
          std::string(gradOnly) == "stage" || std::string(gradOnly) == "group";
      if (!f || (grouped && (k.op == KernelOp::Attention || k.isPaged())))
        continue;
      fail(*f, std::string(gradOnly) +
                   ": only a backward kernel (\"op\": "
                   "\"attention_grad\" or \"varlen_attention_grad\") has "
                   "this field" +
                   (grouped ? ", or a stage of a split-KV forward group "
                              "(\"op\": \"attention\" or "
                              "\"paged_attention\")"
                            : ""));
    }
    if (k.op == KernelOp::Attention || k.isPaged())
      forwardStageFields(v, k);
  } else {
    const Value &stage = field(v, "stage",
                               "a backward kernel (\"op\": \"" +
                                   std::string(opName(k.op)) + "\")");
    std::string text = string(stage, "stage");
    GradStage parsed = GradStage::None;
    if (attnopt::abi::parseStage(text, parsed) &&
        attnopt::abi::isBackwardStage(parsed))
      k.stage = parsed;
    if (k.stage == GradStage::None)
      fail(stage, "stage: expected \"prep\", \"dkdv\", \"dq\", "
                  "\"dkdv_dq\" or \"dq_convert\", got \"" +
                      text + "\"");
    if (const Value *d = v.find("deterministic")) {
      if (!d->isBool())
        fail(*d, "deterministic: expected true or false, " + got(*d));
      k.deterministic = d->boolean;
    }
    if (const Value *f = v.find("forward"))
      if (!f->isNull())
        k.forward = string(*f, "forward (null or the name of a forward "
                               "kernel)");
    if (const Value *g = v.find("group"))
      k.group = string(*g, "group");
  }

  k.source = string(field(v, "source", what), "source", /*allowEmpty=*/true);
  k.dtype = dtype(field(v, "dtype", what), "dtype", /*allowI1=*/false);
  k.batch = lengthField(field(v, "batch", what), "batch");
  k.queryHeads = positive(field(v, "query_heads", what), "query_heads");
  const Value &kvHeads = field(v, "kv_heads", what);
  k.kvHeads = positive(kvHeads, "kv_heads");
  k.queryLen = lengthField(field(v, "query_len", what), "query_len");
  k.keyLen = lengthField(field(v, "key_len", what), "key_len");
  // The token totals and the per-sequence lengths of a packed kernel.
  varlenFields(v, k);
  // The cache geometry of a paged kernel (whose key_len is null).
  pagedFields(v, k);
  k.headDim = positive(field(v, "head_dim", what), "head_dim");
  k.valueDim = positive(field(v, "value_dim", what), "value_dim");
  if (k.queryHeads % k.kvHeads != 0)
    fail(kvHeads, "query_heads (" + std::to_string(k.queryHeads) +
                      ") must be a multiple of kv_heads (" +
                      std::to_string(k.kvHeads) + ")");

  k.scale = f32(field(v, "scale", what), "scale");

  const Value &causal = field(v, "causal", what);
  std::string c = string(causal, "causal");
  if (c == "none")
    k.causal = CausalMode::None;
  else if (c == "top_left")
    k.causal = CausalMode::TopLeft;
  else if (c == "bottom_right")
    k.causal = CausalMode::BottomRight;
  else
    fail(causal, "causal: expected \"none\", \"top_left\" or "
                 "\"bottom_right\", got \"" + c + "\"");

  const Value &window = field(v, "window", what);
  if (!window.isNull()) {
    if (!window.isArray() || window.array.size() != 2)
      fail(window, "window: expected null or [left, right] (integers >= 0, "
                   "-1 for unbounded), " + got(window));
    k.hasWindow = true;
    k.windowLeft = integer(window.array[0], "window[0] (left)", -1,
                           int64_t(1) << 40, "an integer >= 0 (or -1 for "
                           "unbounded)");
    k.windowRight = integer(window.array[1], "window[1] (right)", -1,
                            int64_t(1) << 40, "an integer >= 0 (or -1 for "
                            "unbounded)");
  }

  const Value &softcap = field(v, "softcap", what);
  if (!softcap.isNull()) {
    k.hasSoftcap = true;
    k.softcap = f32(softcap, "softcap");
    if (!(k.softcap > 0.0f))
      fail(softcap, "softcap: expected null or a finite value > 0, got " +
                        softcap.text);
  }
  if (const Value *approx = v.find("softcap_approx")) {
    if (!approx->isBool())
      fail(*approx, "softcap_approx: expected true or false, " + got(*approx));
    if (approx->boolean && !k.hasSoftcap)
      fail(*approx, "softcap_approx: true without a softcap");
    k.softcapApprox = approx->boolean;
  }
  if (const Value *precision = v.find("matmul_precision")) {
    if (!precision->isString() || precision->text != "tf32")
      fail(*precision,
           "matmul_precision: expected \"tf32\", " + got(*precision));
    if (k.dtype != DType::F32)
      fail(*precision, "matmul_precision: \"tf32\" is for f32 kernels, not " +
                           std::string(dtypeName(k.dtype)));
    k.tf32 = true;
  }

  const Value &dropout = field(v, "dropout_p", what);
  k.dropoutP = f32(dropout, "dropout_p");
  if (!(k.dropoutP >= 0.0f && k.dropoutP < 1.0f))
    fail(dropout, "dropout_p: expected a value in [0, 1) (as f32), got " +
                      dropout.text);
  // The split-KV form is for decoding: no dropout, and a static query
  // length (its grid and workspaces are sized by it).
  if (k.isForwardStage() && k.dropoutP != 0.0f)
    fail(dropout, "dropout_p: a split-KV forward stage has no dropout: "
                  "expected 0, got " +
                      dropout.text);
  if (k.isForwardStage() && k.queryLen == kRuntimeSize)
    fail(*v.find("query_len"), "query_len: a split-KV forward stage has a "
                               "static query length: expected a positive "
                               "integer, got null");

  // A mask-like field: null or {"dtype": ..., "shape": [B|1, Hq|1, Lq|1,
  // Lk|1]}. Returns whether it is set.
  auto maskField = [&](const Value &m, const std::string &name, DType &type,
                       std::array<int64_t, 4> &shapeOut) {
    if (m.isNull())
      return false;
    if (!m.isObject())
      fail(m, name +
                  ": expected null or {\"dtype\": ..., \"shape\": "
                  "[...]}, " +
                  got(m));
    checkKeys(m, {"dtype", "shape"}, name);
    type = dtype(field(m, "dtype", name), name + ".dtype", true);
    const Value &shapeValue = field(m, "shape", name);
    std::vector<int64_t> s = shape(shapeValue, name + ".shape");
    if (s.size() != 4)
      fail(shapeValue, name +
                           ".shape: expected rank 4 ([B|1, Hq|1, Lq|1, "
                           "Lk|1]), got rank " +
                           std::to_string(s.size()));
    const int64_t full[4] = {k.batch, k.queryHeads, k.queryLen, k.keyLen};
    const char *names[4] = {"batch", "query heads", "query length",
                            "key length"};
    for (int d = 0; d < 4; ++d) {
      if (s[d] != 1 && s[d] != full[d])
        fail(shapeValue.array[d], name + ".shape[" + std::to_string(d) + "] (" +
                                      names[d] + "): expected 1 or " +
                                      sizeText(full[d]) + ", got " +
                                      sizeText(s[d]));
      shapeOut[d] = s[d];
    }
    return true;
  };
  // A packed kernel has no [B, Hq, Lq, Lk] score tensor to broadcast a mask
  // over (docs/semantics.md §14): varlenFields saw to it that its "mask",
  // if there, is null.
  if (!k.isVarlen())
    k.hasMask =
        maskField(field(v, "mask", what), "mask", k.maskDtype, k.maskShape);

  // Optional (absent = null): the explicit dropout keep mask.
  if (const Value *keep = v.find("dropout_mask")) {
    DType keepType = DType::I1;
    k.hasDropoutMask =
        maskField(*keep, "dropout_mask", keepType, k.dropoutMaskShape);
    if (k.hasDropoutMask) {
      if (keepType != DType::I1)
        fail(*keep, "dropout_mask.dtype: expected i1 (true = keep), got " +
                        std::string(dtypeName(keepType)));
      if (k.isGrad())
        fail(*keep, "dropout_mask: a backward kernel cannot take an "
                    "explicit dropout mask");
      if (!(k.dropoutP > 0.0f))
        fail(*keep, "dropout_mask: needs dropout_p > 0 (the scale of the "
                    "kept values)");
    }
  }

  const Value &hasLse = field(v, "has_lse", what);
  if (!hasLse.isBool())
    fail(hasLse, "has_lse: expected true or false, " + got(hasLse));
  k.hasLse = hasLse.boolean;
  if (k.isGrad() && k.hasLse)
    fail(hasLse, "has_lse: expected false for a backward kernel (it reads "
                 "lse, it does not write it)");

  // A split-KV stage's grid x may be its split count decided at launch
  // (checkSplitKVLaunch says which entries must be null).
  k.grid = dim3(field(v, "grid", what), "grid", {2147483647, 65535, 65535},
                /*allowNull=*/k.hasRuntimeSizes() || k.isForwardStage());
  const Value &block = field(v, "block", what);
  k.block = dim3(block, "block", {1024, 1024, 64});
  uint64_t threads = uint64_t(k.block[0]) * k.block[1] * k.block[2];
  if (threads > 1024)
    fail(block, "block: " + std::to_string(threads) +
                    " threads per block, more than the 1024 CUDA allows");
  const Value &smem = field(v, "dynamic_shared_memory", what);
  int64_t smemBytes = integer(smem, "dynamic_shared_memory", 0,
                              std::numeric_limits<int64_t>::max(),
                              "a non-negative integer (bytes)");
  int64_t smemLimit =
      maxDynamicSharedMemory(manifest->chipMajor, manifest->chipMinor);
  if (smemBytes > smemLimit)
    fail(smem, "dynamic_shared_memory: " + std::to_string(smemBytes) +
                   " bytes, more than the " + std::to_string(smemLimit) +
                   " bytes (" + std::to_string(smemLimit / 1024) +
                   " KiB) a thread block can use on " + manifest->chip);
  k.dynamicSharedMemory = uint32_t(smemBytes);

  checkLaunch(v, k, codegen(v));

  const Value &params = field(v, "params", what);
  paramList(params, k, paramTable(k, listsRng(params)));
  return k;
}

/// "stage" and "group" of a forward kernel ("op": "attention"): both or
/// neither; with them the kernel is one of the two stages of a split-KV
/// forward group (docs/kernel-manifest.md, "Split-KV forward groups").
void Validator::forwardStageFields(const Value &v, KernelSpec &k) {
  const Value *stage = v.find("stage"), *group = v.find("group");
  // A paged kernel is always a stage of its group.
  if (!stage && k.isPaged())
    fail(v, "missing field 'stage' in a \"paged_attention\" kernel (it is "
            "the \"split_kv\" or the \"combine\" stage of a paged forward "
            "group)");
  if (!stage && !group)
    return;
  if (!stage)
    fail(*group, "group: only a backward kernel (\"op\": \"attention_grad\" "
                 "or \"varlen_attention_grad\") has this field, or a stage "
                 "of a split-KV forward group (\"op\": \"attention\") with "
                 "\"stage\": \"split_kv\" or \"combine\"");
  std::string text = string(*stage, "stage");
  for (GradStage s : {GradStage::SplitKV, GradStage::Combine})
    if (text == stageName(s))
      k.stage = s;
  if (k.stage == GradStage::None)
    fail(*stage, "stage: expected \"split_kv\" or \"combine\" for a forward "
                 "kernel (\"op\": \"" +
                     std::string(opName(k.op)) +
                     "\"; the other stages are a backward kernel's), got \"" +
                     text + "\"");
  k.group =
      string(field(v, "group",
                   "a split-KV forward stage (\"stage\": \"" + text + "\")"),
             "group");
}

} // namespace attnrt::validation
