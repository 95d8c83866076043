//===- Paged.cpp - cache lengths and block tables of paged kernels --------===//

#include "attnrt/Paged.h"
#include "attnrt/Error.h"
#include "attnrt/Util.h"

#include <algorithm>
#include <cstring>
#include <numeric>

namespace attnrt {

namespace {

uint64_t splitmix64(uint64_t z) {
  z += 0x9E3779B97F4A7C15ull;
  z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
  z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
  return z ^ (z >> 31);
}

/// A small counter-based stream: the same numbers on every machine (no
/// std distributions, whose results differ between libraries).
class Stream {
public:
  Stream(uint64_t seed, uint64_t stream)
      : key(splitmix64(splitmix64(seed ^ 0x9A6EDull) ^ splitmix64(stream))) {}
  uint64_t next() { return splitmix64(key ^ splitmix64(count++)); }
  /// Uniform in [0, n] (n >= 0; the bias of the modulo is below 2^-32 for
  /// the sizes here).
  int64_t upTo(int64_t n) { return int64_t(next() % uint64_t(n + 1)); }

private:
  uint64_t key;
  uint64_t count = 0;
};

int64_t capacityOf(const KernelSpec &k) {
  return k.maxPagesPerSeq * k.pageSize;
}

std::string capacityText(const KernelSpec &k) {
  return "max_pages_per_seq * page_size = " + std::to_string(k.maxPagesPerSeq) +
         " * " + std::to_string(k.pageSize) + " = " +
         std::to_string(capacityOf(k));
}

} // namespace

int64_t pagesFor(int64_t length, int64_t pageSize) {
  return length <= 0 ? 0 : (length + pageSize - 1) / pageSize;
}

std::string pagedInputsProblem(const KernelSpec &k,
                               const std::vector<int32_t> &cacheSeqlens,
                               const std::vector<int32_t> &blockTable) {
  if (int64_t(cacheSeqlens.size()) != k.batch)
    return "cache_seqlens has " + std::to_string(cacheSeqlens.size()) +
           " entries, expected batch = " + std::to_string(k.batch) +
           " (one per sequence)";
  const int64_t columns = k.maxPagesPerSeq;
  if (int64_t(blockTable.size()) != k.batch * columns)
    return "block_table has " + std::to_string(blockTable.size()) +
           " entries, expected batch * max_pages_per_seq = " +
           std::to_string(k.batch) + " * " + std::to_string(columns) + " = " +
           std::to_string(k.batch * columns);
  const int64_t capacity = capacityOf(k);
  for (size_t b = 0; b < cacheSeqlens.size(); ++b) {
    const int64_t len = cacheSeqlens[b];
    if (len < 0 || len > capacity)
      return "cache_seqlens[" + std::to_string(b) +
             "] = " + std::to_string(len) + " is outside [0, " +
             std::to_string(capacity) + "] (0 to " + capacityText(k) + ")";
  }
  for (size_t b = 0; b < cacheSeqlens.size(); ++b) {
    const int64_t used = pagesFor(cacheSeqlens[b], k.pageSize);
    for (int64_t j = 0; j < used; ++j) {
      const int64_t page = blockTable[b * columns + j];
      if (page < 0 || page >= k.numPages)
        return "block_table[" + std::to_string(b) + ", " + std::to_string(j) +
               "] = " + std::to_string(page) + " is not a page in [0, " +
               std::to_string(k.numPages) + ") (num_pages), but sequence " +
               std::to_string(b) + " of " + std::to_string(cacheSeqlens[b]) +
               " tokens reads its first " + std::to_string(used) + " entries";
    }
  }
  return "";
}

void checkPagedInputs(const KernelSpec &k,
                      const std::vector<int32_t> &cacheSeqlens,
                      const std::vector<int32_t> &blockTable,
                      const std::string &what) {
  std::string problem = pagedInputsProblem(k, cacheSeqlens, blockTable);
  if (!problem.empty())
    throw Error(what + ": " + problem, kExitInput);
}

std::vector<int32_t> cacheSeqlensFor(const KernelSpec &k,
                                     const std::vector<int64_t> &lengths,
                                     const std::string &what) {
  if (int64_t(lengths.size()) != k.batch)
    throw Error(what + ": " + std::to_string(lengths.size()) +
                    " cache length(s), but kernel '" + k.name + "' has batch " +
                    std::to_string(k.batch) + " (one length per sequence)",
                kExitInput);
  const int64_t capacity = capacityOf(k);
  std::vector<int32_t> out;
  for (size_t b = 0; b < lengths.size(); ++b) {
    if (lengths[b] < 0 || lengths[b] > capacity)
      throw Error(what + ": length " + std::to_string(b) + " is " +
                      std::to_string(lengths[b]) + ", outside [0, " +
                      std::to_string(capacity) + "] (the cache of kernel '" +
                      k.name + "' holds " + capacityText(k) +
                      " tokens per sequence)",
                  kExitInput);
    out.push_back(int32_t(lengths[b]));
  }
  return out;
}

std::vector<int32_t> drawCacheSeqlens(const KernelSpec &k, uint64_t seed) {
  Stream s(seed, 1);
  const int64_t capacity = capacityOf(k);
  std::vector<int32_t> lengths;
  for (int64_t b = 0; b < k.batch; ++b) {
    const uint64_t kind = s.next() % 8;
    int64_t len;
    if (kind == 0)
      len = 0;
    else if (kind == 1)
      len = capacity;
    else if (kind == 2 && k.causal == CausalMode::BottomRight)
      len = s.upTo(std::min(capacity, k.queryLen - 1));
    else
      len = s.upTo(capacity);
    lengths.push_back(int32_t(len));
  }
  return lengths;
}

std::vector<int32_t> drawBlockTable(const KernelSpec &k,
                                    const std::vector<int32_t> &cacheSeqlens,
                                    uint64_t seed, int64_t *sharedEntries) {
  Stream s(seed, 2);
  std::vector<int32_t> pages(size_t(k.numPages));
  std::iota(pages.begin(), pages.end(), 0);
  for (size_t i = pages.size(); i > 1; --i) // Fisher-Yates
    std::swap(pages[i - 1], pages[size_t(s.next() % i)]);
  std::vector<int32_t> table(size_t(k.batch * k.maxPagesPerSeq), -1);
  size_t nextPage = 0;
  int64_t shared = 0;
  for (size_t b = 0; b < cacheSeqlens.size() && int64_t(b) < k.batch; ++b) {
    const int64_t used =
        std::min(pagesFor(cacheSeqlens[b], k.pageSize), k.maxPagesPerSeq);
    for (int64_t j = 0; j < used; ++j) {
      int32_t page;
      if (nextPage < pages.size()) {
        page = pages[nextPage++];
      } else {
        page = int32_t(s.next() % uint64_t(k.numPages));
        ++shared;
      }
      table[b * k.maxPagesPerSeq + j] = page;
    }
  }
  if (sharedEntries)
    *sharedEntries = shared;
  return table;
}

KernelSpec bindPaged(const KernelSpec &k,
                     const std::vector<int32_t> &cacheSeqlens,
                     const std::vector<int32_t> &blockTable) {
  checkPagedInputs(k, cacheSeqlens, blockTable, "kernel '" + k.name + "'");
  KernelSpec b = k;
  b.cacheSeqlens = cacheSeqlens;
  b.blockTable = blockTable;
  return b;
}

void gatherPagedSequence(const KernelSpec &k, const void *cache,
                         size_t elementBytes, int64_t width,
                         const int32_t *tableRow, int64_t length, void *dst) {
  const size_t row = size_t(width) * elementBytes; // one head of one token
  const auto *src = static_cast<const uint8_t *>(cache);
  auto *out = static_cast<uint8_t *>(dst);
  for (int64_t j = 0; j < length; ++j) {
    const int64_t column = j / k.pageSize;
    const int64_t page = column < k.maxPagesPerSeq ? tableRow[column] : -1;
    if (page < 0 || page >= k.numPages)
      throw Error("kernel '" + k.name + "': token " + std::to_string(j) +
                      " is on block table entry " + std::to_string(column) +
                      " = " + std::to_string(page) + ", not a page in [0, " +
                      std::to_string(k.numPages) + ")",
                  kExitInput);
    const int64_t token = page * k.pageSize + j % k.pageSize;
    for (int64_t h = 0; h < k.kvHeads; ++h)
      std::memcpy(out + size_t(h * length + j) * row,
                  src + size_t(token * k.kvHeads + h) * row, row);
  }
}

} // namespace attnrt
