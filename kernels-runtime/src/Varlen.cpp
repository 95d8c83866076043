//===- Varlen.cpp - sequence lengths of packed kernels --------------------===//

#include "attnrt/Varlen.h"
#include "attnrt/Error.h"
#include "attnrt/Util.h"

#include <algorithm>
#include <cerrno>
#include <cmath>
#include <cstdlib>

namespace attnrt {

namespace {

constexpr int64_t kMaxI32 = 2147483647;

uint64_t splitmix64(uint64_t z) {
  z += 0x9E3779B97F4A7C15ull;
  z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
  z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
  return z ^ (z >> 31);
}

/// Draw `n` of stream `stream` of `seed`: counter-based, so a draw does not
/// depend on how many were made before it. (Salted apart from the input
/// generator's streams, which use the same seed.)
uint64_t draw(uint64_t seed, uint64_t stream, uint64_t n) {
  return splitmix64(splitmix64(seed ^ 0x5EC1E45ull) ^
                    splitmix64(0x7000 + stream) ^ splitmix64(n));
}

/// A non-negative decimal integer up to `hi`, or -1.
int64_t parseCount(const std::string &text, int64_t hi) {
  errno = 0;
  char *rest = nullptr;
  long long v = std::strtoll(text.c_str(), &rest, 10);
  if (text.empty() || text[0] == '-' || text[0] == '+' || errno || *rest ||
      v < 0 || v > hi)
    return -1;
  return v;
}

} // namespace

std::string seqlenOffsetsProblem(const int32_t *cu, size_t count,
                                 int64_t batch, int64_t total) {
  if (batch < 1 || batch > kMaxSequences)
    return "batch = " + std::to_string(batch) +
           ": expected 1 to 65535 sequences (one grid row each)";
  if (total < 0 || total > kMaxI32)
    return "total = " + std::to_string(total) +
           ": expected 0 to 2^31 - 1 tokens (offsets are i32)";
  if (count != size_t(batch) + 1)
    return std::to_string(count) + " offsets for " + std::to_string(batch) +
           " sequences: expected batch + 1 = " + std::to_string(batch + 1);
  if (cu[0] != 0)
    return "cu[0] = " + std::to_string(cu[0]) + ": expected 0";
  for (size_t b = 1; b < count; ++b)
    if (cu[b] < cu[b - 1])
      return "cu[" + std::to_string(b) + "] = " + std::to_string(cu[b]) +
             " is less than cu[" + std::to_string(b - 1) + "] = " +
             std::to_string(cu[b - 1]) + " (offsets never decrease)";
  if (cu[count - 1] != total)
    return "cu[" + std::to_string(count - 1) + "] = " +
           std::to_string(cu[count - 1]) + ": expected the token total " +
           std::to_string(total);
  return "";
}

void checkSeqlenOffsets(const std::vector<int32_t> &cu, int64_t batch,
                        int64_t total, const std::string &what) {
  std::string problem =
      cu.empty() ? std::string("no offsets (expected batch + 1 of them)")
                 : seqlenOffsetsProblem(cu.data(), cu.size(), batch, total);
  if (!problem.empty())
    throw Error(what + ": " + problem, kExitInput);
}

std::vector<int32_t> offsetsFromLengths(const std::vector<int64_t> &lengths,
                                        const std::string &what) {
  if (lengths.empty())
    throw Error(what + ": no sequence lengths", kExitInput);
  std::vector<int32_t> cu = {0};
  int64_t sum = 0;
  for (size_t b = 0; b < lengths.size(); ++b) {
    if (lengths[b] < 0)
      throw Error(what + ": length " + std::to_string(b) + " is " +
                      std::to_string(lengths[b]) + " (expected >= 0)",
                  kExitInput);
    // Each length is at most 2^31 - 1 once the running sum is, so the sum
    // cannot overflow int64 before it is refused.
    if (lengths[b] > kMaxI32 - sum)
      throw Error(what + ": the lengths add up to more than 2^31 - 1 tokens "
                         "(offsets are i32)",
                  kExitInput);
    sum += lengths[b];
    cu.push_back(int32_t(sum));
  }
  return cu;
}

std::vector<int64_t> lengthsFromOffsets(const std::vector<int32_t> &cu) {
  std::vector<int64_t> lengths;
  for (size_t b = 0; b + 1 < cu.size(); ++b)
    lengths.push_back(int64_t(cu[b + 1]) - cu[b]);
  return lengths;
}

std::vector<int64_t> parseSeqlens(const std::string &text,
                                  const std::string &option) {
  std::vector<int64_t> lengths;
  size_t start = 0;
  while (start <= text.size()) {
    size_t end = text.find(',', start);
    if (end == std::string::npos)
      end = text.size();
    std::string part = text.substr(start, end - start);
    int64_t v = parseCount(part, kMaxI32);
    if (v < 0)
      throw Error(option + " '" + text + "': '" + part +
                      "' is not a sequence length (expected L0,L1,... with "
                      "integers in [0, 2^31 - 1])",
                  kExitInput);
    lengths.push_back(v);
    if (lengths.size() > size_t(kMaxSequences))
      throw Error(option + ": more than 65535 sequences", kExitInput);
    start = end + 1;
  }
  return lengths;
}

std::vector<int64_t> randomSplit(int64_t total, int64_t parts, uint64_t seed,
                                 uint64_t stream) {
  std::vector<int64_t> cuts;
  for (int64_t c = 0; c + 1 < parts; ++c)
    cuts.push_back(int64_t(draw(seed, stream, uint64_t(c)) %
                           uint64_t(total + 1)));
  std::sort(cuts.begin(), cuts.end());
  cuts.push_back(total);
  std::vector<int64_t> lengths;
  int64_t previous = 0;
  for (int64_t cut : cuts) {
    lengths.push_back(cut - previous);
    previous = cut;
  }
  return lengths;
}

LongTail parseSeqlensDist(const std::string &text) {
  auto bad = [&](const std::string &why) {
    throw Error("--seqlens-dist '" + text + "': " + why +
                    " (expected longtail:B:MIN:MAX, B sequences with lengths "
                    "log-uniform in [MIN, MAX])",
                kExitInput);
  };
  std::vector<std::string> parts;
  size_t start = 0;
  while (start <= text.size()) {
    size_t end = text.find(':', start);
    if (end == std::string::npos)
      end = text.size();
    parts.push_back(text.substr(start, end - start));
    start = end + 1;
  }
  if (parts[0] != "longtail")
    bad("unknown distribution '" + parts[0] + "'");
  if (parts.size() != 4)
    bad("expected 3 numbers after 'longtail'");
  LongTail d;
  d.batch = parseCount(parts[1], kMaxSequences);
  d.minLen = parseCount(parts[2], kMaxI32);
  d.maxLen = parseCount(parts[3], kMaxI32);
  if (d.batch < 1)
    bad("B must be an integer in [1, 65535], got '" + parts[1] + "'");
  if (d.minLen < 1 || d.maxLen < 1)
    bad("MIN and MAX must be integers in [1, 2^31 - 1]");
  if (d.minLen > d.maxLen)
    bad("MIN is larger than MAX");
  return d;
}

std::vector<int64_t> longTailLengths(const LongTail &d, uint64_t seed) {
  std::vector<int64_t> lengths;
  const double lo = std::log(double(d.minLen)), hi = std::log(double(d.maxLen));
  for (int64_t b = 0; b < d.batch; ++b) {
    // 53 random bits: u uniform in [0, 1).
    double u = double(draw(seed, 1, uint64_t(b)) >> 11) * 0x1.0p-53;
    int64_t len = std::llround(std::exp(lo + u * (hi - lo)));
    lengths.push_back(std::min(d.maxLen, std::max(d.minLen, len)));
  }
  return lengths;
}

std::string lengthsText(const std::vector<int64_t> &lengths, size_t head,
                        size_t tail) {
  std::string s = "[";
  const size_t n = lengths.size();
  const bool abbreviate = n > head + tail;
  for (size_t b = 0; b < n; ++b) {
    if (abbreviate && b == head) {
      s += format("... (%zu more) ..., ", n - head - tail);
      b = n - tail - 1;
      continue;
    }
    s += std::to_string(lengths[b]) + (b + 1 < n ? ", " : "");
  }
  return s + "]";
}

SequenceDraw drawSequences(const KernelSpec &k, const SeqlenOptions &o,
                           const RuntimeSizes &sizes, uint64_t seed) {
  SequenceDraw d;
  if (!o.q.empty()) {
    d.q = o.q;
    d.k = o.k.empty() ? o.q : o.k;
    d.how = o.k.empty() ? "given: --seqlens-q" : "given: --seqlens-q, "
                                                 "--seqlens-k";
    return d;
  }
  if (o.dist.batch > 0) {
    d.q = longTailLengths(o.dist, seed);
    d.k = d.q;
    d.random = true;
    d.how = format("longtail:%lld:%lld:%lld, seed %llu",
                   (long long)o.dist.batch, (long long)o.dist.minLen,
                   (long long)o.dist.maxLen, (unsigned long long)seed);
    return d;
  }
  // A random split of the token totals: each from the manifest where
  // static, else from --sizes.
  const struct {
    int64_t manifest, given;
    const char *field, *sizeName;
  } need[] = {{k.batch, sizes.batch, "batch", "batch"},
              {k.totalQueryTokens, sizes.queryLen, "total_query_tokens",
               "query_len"},
              {k.totalKeyTokens, sizes.keyLen, "total_key_tokens",
               "key_len"}};
  int64_t values[3];
  std::string missing;
  for (int i = 0; i < 3; ++i) {
    values[i] = need[i].manifest != kRuntimeSize ? need[i].manifest
                                                 : need[i].given;
    if (values[i] == 0 && need[i].manifest == kRuntimeSize)
      missing += (missing.empty() ? "" : ", ") + std::string(need[i].field) +
                 " (--sizes " + need[i].sizeName + "=...)";
  }
  if (!missing.empty())
    throw Error("kernel '" + k.name +
                    "': a packed kernel (varlen_attention) needs its "
                    "sequence lengths: give --seqlens-q=L0,L1,... [--seqlens-"
                    "k=...], or --seqlens-dist=longtail:B:MIN:MAX, or the "
                    "sizes of a random split; no value for " +
                    missing,
                kExitInput);
  const int64_t batch = values[0], tq = values[1], tk = values[2];
  if (batch > kMaxSequences)
    throw Error("kernel '" + k.name + "': batch = " + std::to_string(batch) +
                    ": a packed kernel takes at most 65535 sequences (one "
                    "grid row each)",
                kExitInput);
  d.q = randomSplit(tq, batch, seed, 2);
  d.k = tq == tk ? d.q : randomSplit(tk, batch, seed, 3);
  d.random = true;
  d.how = format("random split of %lld query and %lld key tokens into %lld "
                 "sequences, seed %llu",
                 (long long)tq, (long long)tk, (long long)batch,
                 (unsigned long long)seed);
  return d;
}

int64_t packedWorkspaceRows(int64_t totalQueryTokens, int64_t batch) {
  if (totalQueryTokens == kRuntimeSize || batch == kRuntimeSize)
    return kRuntimeSize;
  return 4 * ((totalQueryTokens + 3) / 4) + 68 * batch;
}

namespace {

/// The size a null dimension of packed tensor `p` stands for: B + 1 for the
/// offsets, W for a workspace, the key tokens for key, value and their
/// gradients, else the query tokens (query, output, grad_output,
/// grad_query at dimension 0, lse at dimension 1).
int64_t packedNullDimension(const ParamSpec &p, const KernelSpec &b) {
  if (p.name == "cu_seqlens_q" || p.name == "cu_seqlens_k")
    return b.batch + 1;
  if (p.isWorkspace)
    return packedWorkspaceRows(b.totalQueryTokens, b.batch);
  const bool keys = p.name == "key" || p.name == "value" ||
                    p.name == "grad_key" || p.name == "grad_value";
  return keys ? b.totalKeyTokens : b.totalQueryTokens;
}

} // namespace

KernelSpec bindSequences(const KernelSpec &k, const std::vector<int32_t> &cuQ,
                         const std::vector<int32_t> &cuK, int indexBits) {
  auto fail = [&](const std::string &message) -> void {
    throw Error("kernel '" + k.name + "': " + message, kExitInput);
  };
  if (!k.isVarlen())
    fail("not a packed kernel (\"op\": \"varlen_attention\" or "
         "\"varlen_attention_grad\"): it takes no sequence offsets");
  const int64_t batch = int64_t(cuQ.size()) - 1;
  if (batch < 1)
    fail("no sequences: expected at least one sequence length");
  if (cuK.size() != cuQ.size())
    fail(std::to_string(batch) + " query sequences but " +
         std::to_string(int64_t(cuK.size()) - 1) +
         " key sequences (cu_seqlens_q and cu_seqlens_k have B + 1 entries "
         "each)");
  if (k.batch != kRuntimeSize && k.batch != batch)
    fail(std::to_string(batch) + " sequences, but the kernel's batch is " +
         std::to_string(k.batch) + " (static in the manifest)");
  // Tq and Tk are the last offsets; a static total must agree with them.
  const struct {
    const std::vector<int32_t> &cu;
    int64_t manifest;
    const char *name, *side;
  } sides[] = {{cuQ, k.totalQueryTokens, "cu_seqlens_q", "query"},
               {cuK, k.totalKeyTokens, "cu_seqlens_k", "key"}};
  for (const auto &s : sides) {
    const int64_t total = s.cu.back();
    if (s.manifest != kRuntimeSize && s.manifest != total)
      fail(std::string("the ") + s.side + " lengths add up to " +
           std::to_string(total) + " tokens, but the kernel's total_" +
           s.side + "_tokens is " + std::to_string(s.manifest) +
           " (static in the manifest)");
    checkSeqlenOffsets(s.cu, batch, total,
                       "kernel '" + k.name + "': " + s.name);
  }

  KernelSpec b = k;
  b.batch = batch;
  b.totalQueryTokens = cuQ.back();
  b.totalKeyTokens = cuK.back();
  b.cuSeqlensQ = cuQ;
  b.cuSeqlensK = cuK;
  b.queryLen = 0;
  b.keyLen = 0;
  for (int64_t s = 0; s < batch; ++s) {
    const int64_t lq = int64_t(cuQ[s + 1]) - cuQ[s],
                  lk = int64_t(cuK[s + 1]) - cuK[s];
    // The compiler clamps window sides of kernels with run-time lengths to
    // 2^30, which is exact (and free of 32-bit overflow) only while
    // Lq_b + Lk_b <= 2^30.
    if (lq + lk > (int64_t(1) << 30))
      fail("sequence " + std::to_string(s) + ": query length " +
           std::to_string(lq) + " + key length " + std::to_string(lk) +
           " = " + std::to_string(lq + lk) +
           ": kernels with run-time sizes take at most 2^30 positions");
    b.queryLen = std::max(b.queryLen, lq);
    b.keyLen = std::max(b.keyLen, lk);
  }

  for (ParamSpec &p : b.params) {
    if (p.kind == ParamSpec::Kind::I32) {
      p.sizeValue = int32_t(p.name == "batch"                ? b.batch
                            : p.name == "total_query_tokens" ? b.totalQueryTokens
                                                             : b.totalKeyTokens);
      continue;
    }
    if (p.kind != ParamSpec::Kind::Tensor)
      continue;
    for (int64_t &d : p.shape)
      if (d == kRuntimeSize)
        d = packedNullDimension(p, b);
    // The static part of a shape is below 2^50 elements, but times a token
    // total it can pass what int64 holds (and sizeBytes with it).
    checkTensorElements(b, p, indexBits);
  }
  // One block per (query block of the longest sequence, query head,
  // sequence), or for dkdv and dkdv_dq per (key block part of the longest
  // sequence, kv head, sequence); at least one block in x, so that the
  // launch is valid when every sequence is empty.
  const bool overKeys =
      b.stage == GradStage::DKDV || b.stage == GradStage::DKDVDQ;
  const int64_t longest = overKeys ? b.keyLen : b.queryLen;
  const int64_t blocks =
      std::max<int64_t>(1, (longest + b.gridTile - 1) / b.gridTile);
  // codegen.key_block_parts may be as large as 2^40: compare by division.
  if (blocks > kMaxI32 / b.gridParts)
    fail("grid x: " + std::to_string(b.gridParts) + " x " +
         std::to_string(blocks) + " blocks for the longest " +
         (overKeys ? "key" : "query") + " sequence (" +
         std::to_string(longest) + "), more than the 2^31 - 1 CUDA allows");
  b.grid[0] = uint32_t(blocks * b.gridParts);
  if (b.grid[2] == 0)
    b.grid[2] = uint32_t(batch);
  return b;
}

} // namespace attnrt
