//===- HostTests.cpp - attnrt tests that need no GPU ----------------------===//
//
// attnrt-host-tests MANIFEST_DIR
//
// The JSON parser, manifest validation (a good manifest, and one malformed or
// inconsistent variant per rule with the expected message), the f16/bf16
// conversions, input generation, result comparison, Philox known answers and
// the FLOP convention. Plain checks (independent of NDEBUG); the exit status
// is the number of failed checks (capped at 100).
//
//===----------------------------------------------------------------------===//

#include "attnopt/Reference/Philox.h"
#include "attnrt/DType.h"
#include "attnrt/Error.h"
#include "attnrt/HostData.h"
#include "attnrt/Json.h"
#include "attnrt/Manifest.h"
#include "attnrt/Merge.h"
#include "attnrt/Paged.h"
#include "attnrt/TensorMap.h"
#include "attnrt/Util.h"
#include "attnrt/Varlen.h"

#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <functional>
#include <limits>
#include <random>
#include <string>
#include <vector>

using namespace attnrt;

static int failures = 0;
static int checks = 0;
/// The directory of test/manifests (the argument).
static std::string manifestDir;

#define CHECK(cond, message)                                                   \
  do {                                                                         \
    ++checks;                                                                  \
    if (!(cond)) {                                                             \
      ++failures;                                                              \
      std::fprintf(stderr, "%s:%d: CHECK(%s) failed: %s\n", __FILE__,         \
                   __LINE__, #cond, std::string(message).c_str());             \
    }                                                                          \
  } while (0)

/// Runs `f`, which must throw attnrt::Error whose message contains `want`.
static void expectError(const std::string &what,
                        const std::function<void()> &f,
                        const std::string &want, int exitCode = kExitInput) {
  ++checks;
  try {
    f();
  } catch (const Error &e) {
    std::string got = e.what();
    if (got.find(want) == std::string::npos) {
      ++failures;
      std::fprintf(stderr,
                   "FAIL %s:\n  expected an error containing: %s\n  got: %s\n",
                   what.c_str(), want.c_str(), got.c_str());
    } else if (e.exitCode() != exitCode) {
      ++failures;
      std::fprintf(stderr, "FAIL %s: exit code %d, expected %d (%s)\n",
                   what.c_str(), e.exitCode(), exitCode, got.c_str());
    }
    return;
  } catch (const std::exception &e) {
    ++failures;
    std::fprintf(stderr, "FAIL %s: a non-attnrt exception: %s\n",
                 what.c_str(), e.what());
    return;
  }
  ++failures;
  std::fprintf(stderr, "FAIL %s: no error (expected: %s)\n", what.c_str(),
               want.c_str());
}

static std::string replaceOnce(std::string s, const std::string &from,
                               const std::string &to) {
  size_t at = s.find(from);
  if (at == std::string::npos) {
    ++failures;
    std::fprintf(stderr, "test bug: '%s' not found in the base manifest\n",
                 from.c_str());
    return s;
  }
  return s.replace(at, from.size(), to);
}

//===----------------------------------------------------------------------===//
// JSON
//===----------------------------------------------------------------------===//

static void testJson() {
  using json::Value;
  Value v = json::parse(R"({"a": [1, -2.5e3, 0, true, false, null],
  "s": "q\"\\\/\b\f\n\r\t\u00e9\ud83d\ude00",
  "o": {"x": {}}, "e": [], "big": 12345678901234})",
                        "t.json");
  CHECK(v.isObject() && v.object.size() == 5, "top-level object");
  const Value *a = v.find("a");
  CHECK(a && a->isArray() && a->array.size() == 6, "array a");
  if (a && a->array.size() == 6) {
    CHECK(a->array[0].isInteger() && a->array[0].asInteger() == 1, "1");
    CHECK(a->array[1].isNumber() && !a->array[1].isInteger() &&
              a->array[1].number == -2500.0,
          "-2.5e3");
    CHECK(a->array[2].isInteger() && a->array[2].asInteger() == 0, "0");
    CHECK(a->array[3].isBool() && a->array[3].boolean, "true");
    CHECK(a->array[4].isBool() && !a->array[4].boolean, "false");
    CHECK(a->array[5].isNull(), "null");
    CHECK(a->array[1].loc.line == 1 && a->array[1].loc.column == 11,
          "location of -2.5e3: " + std::to_string(a->array[1].loc.line) +
              ":" + std::to_string(a->array[1].loc.column));
  }
  const Value *s = v.find("s");
  CHECK(s && s->text == "q\"\\/\b\f\n\r\t\xC3\xA9\xF0\x9F\x98\x80",
        "escapes and UTF-8");
  CHECK(s && s->loc.line == 2 && s->loc.column == 8, "location of s");
  CHECK(v.find("big") && v.find("big")->asInteger() == 12345678901234LL,
        "large integer");
  CHECK(!v.find("missing"), "find of a missing key");
  CHECK(json::parse("  7 ", "t").isInteger(), "scalar document");
  CHECK(!json::parse("1e2", "t").isInteger(), "1e2 is not written as an int");
  CHECK(!json::parse("99999999999999999999", "t").isInteger(),
        "int64 overflow is not an integer");

  struct Bad {
    const char *text, *want;
  } bad[] = {
      // Syntax errors: nlohmann/json's message, at the token that is out
      // of place (columns count characters).
      {"", "t.json:1:1: expected a JSON value, got an empty document"},
      {" \n ", "t.json:1:1: expected a JSON value, got an empty document"},
      {"[1, ", "t.json:1:5: syntax error while parsing value - unexpected "
               "end of input"},
      {"{\"a\": 1,}", "t.json:1:9: syntax error while parsing object key - "
                      "unexpected '}'; expected string literal"},
      {"[1, 2,]", "t.json:1:7: syntax error while parsing value - "
                  "unexpected ']'"},
      {"{\"a\" 1}", "t.json:1:6: syntax error while parsing object separator "
                    "- unexpected number literal; expected ':'"},
      {"{\"a\": 1 \"b\": 2}", "t.json:1:9: syntax error while parsing object "
                              "- unexpected string literal; expected '}'"},
      {"[1 2]", "t.json:1:4: syntax error while parsing array - unexpected "
                "number literal; expected ']'"},
      {"{} x", "t.json:1:4: syntax error while parsing value - invalid "
               "literal"},
      {"tru", "t.json:1:1: syntax error while parsing value - invalid literal; "
              "last read: 'tru'"},
      {"nul", "t.json:1:1: syntax error while parsing value - invalid "
              "literal"},
      {"'single'", "t.json:1:1: syntax error while parsing value - invalid "
                   "literal"},
      {"[\xC3\xA9]", "t.json:1:2: syntax error while parsing value - invalid "
                     "literal; last read: '[\\xC3'"},
      // Malformed strings and numbers: where the lexer stopped.
      {"\n  \"abc", "t.json:2:7: syntax error while parsing value - invalid "
                    "string: missing closing quote"},
      {"\"a\\qb\"", "t.json:1:4: syntax error while parsing value - invalid "
                    "string: forbidden character after backslash"},
      {"\"a\nb\"", "t.json:1:3: syntax error while parsing value - invalid "
                   "string: control character U+000A (LF) must be escaped"},
      {"012", "t.json:1:1: syntax error while parsing value - unexpected "
              "number literal; expected end of input"},
      {"1.", "t.json:1:3: syntax error while parsing value - invalid number; "
             "expected digit after '.'"},
      {"1e+", "t.json:1:4: syntax error while parsing value - invalid "
              "number; expected digit after exponent sign"},
      {"-x", "t.json:1:2: syntax error while parsing value - invalid number; "
             "expected digit after '-'"},
      {"\"\\ud800\"", "t.json:1:8: syntax error while parsing value - "
                      "invalid string: surrogate U+D800..U+DBFF must be "
                      "followed by U+DC00..U+DFFF"},
      {"\"\\u12G4\"", "t.json:1:6: syntax error while parsing value - "
                      "invalid string: '\\u' must be followed by 4 hex "
                      "digits"},
      // Checked on top of the grammar.
      {"{\"a\": 1,\n \"a\": 2}",
       "t.json:2:2: duplicate key \"a\" (first at line 1, column 2)"},
      // JSON text is UTF-8 (RFC 8259 section 8.1): ill-formed sequences in
      // strings are rejected at the byte where they go wrong, and the
      // message shows bytes that are not printable ASCII as \xNN.
      {"\"a\xFF"
       "b\"",
       "t.json:1:3: syntax error while parsing value - invalid string: "
       "ill-formed UTF-8 byte; last read: '\"a\\xFF'"},
      {"\"\x80\"", "t.json:1:2: syntax error while parsing value - invalid "
                   "string: ill-formed UTF-8 byte"},
      {"\"\xC0\xAF\"", "t.json:1:2: syntax error while parsing value - "
                       "invalid string: ill-formed UTF-8 byte"},
      {"\"\xE0\x80\xAF\"", "t.json:1:3: syntax error while parsing value - "
                           "invalid string: ill-formed UTF-8 byte"},
      {"\"\xED\xA0\x80\"", "t.json:1:3: syntax error while parsing value - "
                           "invalid string: ill-formed UTF-8 byte"},
      {"\"\xF4\x90\x80\x80\"", "t.json:1:3: syntax error while parsing value "
                               "- invalid string: ill-formed UTF-8 byte"},
      {"\"\xF5\x80\x80\x80\"", "t.json:1:2: syntax error while parsing value "
                               "- invalid string: ill-formed UTF-8 byte"},
      {"\"\xE2\x82(\"", "t.json:1:3: syntax error while parsing value - "
                        "invalid string: ill-formed UTF-8 byte; last read: "
                        "'\"\\xE2\\x82('"},
      {"\"\xC3", "t.json:1:3: syntax error while parsing value - invalid "
                 "string: ill-formed UTF-8 byte"},
      {"{\"k\xFF\": 1}", "t.json:1:4: syntax error while parsing object key - "
                         "invalid string: ill-formed UTF-8 byte"},
      {"[\"\xC3\xA9\xE2\x82\xAC\",\n \"\xC3\xA9\xFF\"]",
       "t.json:2:4: syntax error while parsing value - invalid string: "
       "ill-formed UTF-8 byte"},
  };
  for (const Bad &b : bad)
    expectError(std::string("JSON ") + b.text,
                [&] { json::parse(b.text, "t.json"); }, b.want);
  // Well-formed UTF-8 up to U+10FFFF is kept as is.
  const char *utf8 = "\xC3\xA9\xE2\x82\xAC\xEF\xBF\xBF\xF0\x90\x80\x80"
                     "\xF4\x8F\xBF\xBF";
  CHECK(json::parse(std::string("\"") + utf8 + "\"", "t").text == utf8,
        "well-formed UTF-8");
  std::string deep(1000, '[');
  expectError("deep nesting", [&] { json::parse(deep, "t.json"); },
              "nesting deeper than");
}

/// Objects with many keys: the duplicate-key check scanned the earlier keys
/// of the object for each key, so 200,000 keys took over 30 s (issue 17).
static void testLargeObjects() {
  using Clock = std::chrono::steady_clock;
  auto secondsSince = [](Clock::time_point start) {
    return std::chrono::duration<double>(Clock::now() - start).count();
  };
  constexpr int kKeys = 200000;
  // One key per line: key i is on line i + 2, column 1.
  std::string text = "{";
  for (int i = 0; i < kKeys; ++i)
    text += std::string(i ? ",\n" : "\n") + "\"k" + std::to_string(i) +
            "\": " + std::to_string(i);
  text += "\n}";
  Clock::time_point start = Clock::now();
  json::Value v = json::parse(text, "t.json");
  double took = secondsSince(start);
  CHECK(v.isObject() && v.object.size() == size_t(kKeys),
        "an object of 200000 keys");
  CHECK(v.object.size() == size_t(kKeys) &&
            v.object.back().first == "k199999" &&
            v.object[123].second.asInteger() == 123,
        "members in file order");
  CHECK(took < 1.0, format("parsing an object of %d keys took %.2f s "
                           "(expected well under 1 s)",
                           kKeys, took));
  // A duplicate after all of them is still reported, with the first one.
  std::string dup = text.substr(0, text.size() - 2) + ",\n\"k123\": 0\n}";
  start = Clock::now();
  expectError(
      "duplicate key among 200000", [&] { json::parse(dup, "t.json"); },
      "t.json:200002:1: duplicate key \"k123\" (first at line 125, column "
      "1)");
  took = secondsSince(start);
  CHECK(took < 1.0, format("finding the duplicate took %.2f s", took));

  // A valid manifest whose informational "codegen" object has 200000
  // fields, through the whole of attn-manifest-check's validation.
  std::string many = "\"codegen\": {";
  for (int i = 0; i < kKeys; ++i)
    many += "\"note" + std::to_string(i) + "\": 0, ";
  std::string manifest =
      replaceOnce(readFile(manifestDir + "/compiler-sm90a.json", "test"),
                  "\"codegen\": {", many);
  start = Clock::now();
  try {
    Manifest m = parseManifest(manifest, "m.json");
    CHECK(m.kernels.size() == 4, "four kernels");
  } catch (const std::exception &e) {
    CHECK(false, std::string("rejected: ") + e.what());
  }
  took = secondsSince(start);
  CHECK(took < 1.0, format("validating a manifest with a %d-field codegen "
                           "took %.2f s (expected well under 1 s)",
                           kKeys, took));
}

//===----------------------------------------------------------------------===//
// Manifest
//===----------------------------------------------------------------------===//

static void testGoodManifests() {
  Manifest m = loadManifest(manifestDir + "/doc-example.json");
  CHECK(m.format == "attn-kernels-v1", "format");
  CHECK(m.ptx == "attention.ptx", "ptx");
  CHECK(m.ptxPath == manifestDir + "/attention.ptx",
        "ptx resolved against the manifest's directory: " + m.ptxPath);
  CHECK(m.chip == "sm_90a" && m.chipMajor == 9 && m.chipMinor == 0, "chip");
  CHECK(m.kernels.size() == 1, "one kernel");
  if (m.kernels.size() == 1) {
    const KernelSpec &k = m.kernels[0];
    CHECK(k.name == "attn_fwd_0", "name");
    CHECK(k.source == "examples/attention.mlir:7:16", "source");
    CHECK(k.dtype == DType::BF16, "dtype");
    CHECK(k.batch == 2 && k.queryHeads == 8 && k.kvHeads == 2 &&
              k.queryLen == 128 && k.keyLen == 192 && k.headDim == 64 &&
              k.valueDim == 64,
          "dims");
    CHECK(k.scale == 0.125f, "scale");
    CHECK(k.causal == CausalMode::BottomRight, "causal");
    CHECK(!k.hasWindow && !k.hasSoftcap && !k.hasMask && k.hasLse &&
              k.dropoutP == 0.0f,
          "optional features");
    CHECK(k.grid == (std::array<uint32_t, 3>{2, 8, 2}), "grid");
    CHECK(k.block == (std::array<uint32_t, 3>{128, 1, 1}), "block");
    CHECK(k.dynamicSharedMemory == 0, "smem");
    CHECK(k.params.size() == 5 && k.params[0].name == "query" &&
              k.params[3].name == "output" && k.params[3].isOutput &&
              k.params[4].dtype == DType::F32,
          "params");
    // FLOPs: 2*B*Hq*Lq*Lk*(D+Dv), not halved (causal but Lq != Lk).
    CHECK(k.flops() == 4.0 * 2 * 8 * 128 * 192 * 64, "flops");
    CHECK(!k.flopsHalvedForCausal(), "not halved when Lq != Lk");
    uint64_t bytes = 2ull * (2 * 8 * 128 * 64) * 2 +   // q, o
                     2ull * (2 * 2 * 192 * 64) * 2 +   // k, v
                     4ull * (2 * 8 * 128);             // lse
    CHECK(k.bytesMoved() == bytes, "bytes moved");
    attnopt::ref::AttentionProblem p = k.problem();
    CHECK(p.causal == attnopt::ref::Causal::BottomRight && p.kvHeads == 2 &&
              p.maskKind == attnopt::ref::MaskKind::None,
          "problem()");
  }

  Manifest all = loadManifest(manifestDir + "/all-features.json");
  CHECK(all.kernels.size() == 2, "two kernels");
  CHECK(all.chipMajor == 8 && all.chipMinor == 0, "sm_80");
  CHECK(all.ptxPath == manifestDir + "/kernels/everything.ptx", "ptx path");
  if (all.kernels.size() == 2) {
    const KernelSpec &e = all.kernels[0];
    CHECK(e.hasWindow && e.windowLeft == 8 && e.windowRight == -1, "window");
    CHECK(e.hasSoftcap && e.softcap == 30.0f, "softcap");
    CHECK(!e.softcapApprox, "softcap_approx absent: the exact tanh");
    CHECK(e.dropoutP == 0.25f, "dropout");
    CHECK(e.hasMask && e.maskDtype == DType::F32 &&
              e.maskShape == (std::array<int64_t, 4>{1, 8, 1, 32}),
          "mask");
    CHECK(e.findParam("seed") &&
              e.findParam("seed")->kind == ParamSpec::Kind::U64 &&
              e.findParam("offset"),
          "seed and offset");
    CHECK(e.dynamicSharedMemory == 65536, "dynamic smem");
    CHECK(e.problem().maskKind == attnopt::ref::MaskKind::Additive,
          "additive");
    const KernelSpec &b = all.kernels[1];
    CHECK(b.maskDtype == DType::I1 &&
              b.problem().maskKind == attnopt::ref::MaskKind::Boolean,
          "boolean mask");
    CHECK(b.causal == CausalMode::TopLeft && !b.flopsHalvedForCausal(),
          "top_left with Lq != Lk is not halved");
    CHECK(b.flops() == 2.0 * 3 * 2 * 12 * 40 * (32 + 32), "flops, D + Dv");
  }

  // Causal with Lq = Lk halves the FLOPs: 4*B*H*L*L*D / 2.
  KernelSpec k;
  k.batch = 2;
  k.queryHeads = 16;
  k.queryLen = k.keyLen = 1024;
  k.headDim = k.valueDim = 128;
  CHECK(k.flops() == 4.0 * 2 * 16 * 1024 * 1024 * 128, "dense flops");
  k.causal = CausalMode::TopLeft;
  CHECK(k.flops() == 2.0 * 2 * 16 * 1024 * 1024 * 128, "causal flops");
  k.causal = CausalMode::BottomRight;
  CHECK(k.flopsHalvedForCausal(), "bottom_right with Lq = Lk is halved");
}

static void testBadManifests() {
  const std::string base = readFile(manifestDir + "/doc-example.json", "test");
  const std::string all = readFile(manifestDir + "/all-features.json", "test");
  struct Case {
    const char *what;
    const std::string *text;
    const char *from, *to, *want;
  } cases[] = {
      {"format", &base, "\"attn-kernels-v1\"", "\"attn-kernels-v2\"",
       "m.json:2:13: format: unsupported manifest format \"attn-kernels-v2\" "
       "(expected \"attn-kernels-v1\")"},
      {"missing ptx", &base, "\"ptx\": \"attention.ptx\",", "",
       "m.json:1:1: missing field 'ptx' in the manifest"},
      {"empty ptx", &base, "\"attention.ptx\"", "\"\"",
       "ptx: expected a non-empty string"},
      {"chip", &base, "\"sm_90a\"", "\"gfx90a\"",
       "chip: expected an NVIDIA architecture like \"sm_80\" or \"sm_90a\", "
       "got \"gfx90a\""},
      {"chip older than sm_80", &base, "\"sm_90a\"", "\"sm_10\"",
       "chip: \"sm_10\" is older than the kernels' targets (sm_80 and "
       "later"},
      {"unknown top-level field", &base, "\"chip\": \"sm_90a\",",
       "\"chip\": \"sm_90a\", \"tiles\": 3,",
       "unknown field 'tiles' in the manifest"},
      {"kernels not an array", &base, "\"kernels\": [",
       "\"kernels\": {\"x\": 1}, \"unused\": [", "unknown field 'unused'"},
      {"no kernels", &all, "\"kernels\": [", "\"kernels\": [], \"k\": [",
       "unknown field 'k'"},
      {"kernel name", &base, "\"attn_fwd_0\"", "\"attn fwd\"",
       "kernels[0]: name: expected a PTX entry name"},
      {"missing name", &base, "\"name\": \"attn_fwd_0\",", "",
       "m.json:6:5: kernels[0]: missing field 'name' in the kernel"},
      {"codegen not an object", &base, "\"has_lse\": true,",
       "\"has_lse\": true, \"codegen\": \"wgmma\",",
       "kernel 'attn_fwd_0': codegen: expected an object, got \"wgmma\""},
      {"unknown kernel field", &base, "\"has_lse\": true,",
       "\"has_lse\": true, \"num_warps\": 4,",
       "kernel 'attn_fwd_0': unknown field 'num_warps' in the kernel"},
      {"batch type", &base, "\"batch\": 2,", "\"batch\": \"2\",",
       "m.json:10:16: kernel 'attn_fwd_0': batch: expected a positive "
       "integer or null (a run-time size), got \"2\" (string)"},
      {"batch zero", &base, "\"batch\": 2,", "\"batch\": 0,",
       "batch: expected a positive integer or null (a run-time size), got 0 "
       "(number)"},
      {"batch fraction", &base, "\"batch\": 2,", "\"batch\": 2.5,",
       "batch: expected a positive integer or null (a run-time size), got "
       "2.5 (number)"},
      {"missing head_dim", &base, "\"head_dim\": 64, ", "",
       "kernel 'attn_fwd_0': missing field 'head_dim' in the kernel"},
      {"kv heads", &base, "\"kv_heads\": 2", "\"kv_heads\": 3",
       "m.json:10:49: kernel 'attn_fwd_0': query_heads (8) must be a "
       "multiple of kv_heads (3)"},
      {"dtype", &base, "\"dtype\": \"bf16\",", "\"dtype\": \"fp8\",",
       "dtype: unknown dtype \"fp8\" (expected f16, bf16 or f32)"},
      {"dtype i1", &base, "\"dtype\": \"bf16\",", "\"dtype\": \"i1\",",
       "dtype: unknown dtype \"i1\" (expected f16, bf16 or f32)"},
      {"scale type", &base, "\"scale\": 0.125", "\"scale\": \"0.125\"",
       "scale: expected a number, got \"0.125\" (string)"},
      {"scale overflow", &base, "\"scale\": 0.125", "\"scale\": 1e39",
       "scale: expected a finite f32 value, got 1e39"},
      {"causal", &base, "\"bottom_right\"", "\"bottom-right\"",
       "causal: expected \"none\", \"top_left\" or \"bottom_right\", got "
       "\"bottom-right\""},
      {"window size", &base, "\"window\": null", "\"window\": [8]",
       "window: expected null or [left, right]"},
      {"window value", &base, "\"window\": null", "\"window\": [-2, 0]",
       "window[0] (left): expected an integer >= 0 (or -1 for unbounded), "
       "got -2 (number)"},
      {"softcap zero", &base, "\"softcap\": null", "\"softcap\": 0",
       "softcap: expected null or a finite value > 0, got 0"},
      {"softcap_approx without softcap", &base, "\"softcap\": null",
       "\"softcap\": null, \"softcap_approx\": true",
       "softcap_approx: true without a softcap"},
      {"softcap_approx type", &all, "\"softcap\": 30.0",
       "\"softcap\": 30.0, \"softcap_approx\": 1",
       "softcap_approx: expected true or false, got 1 (number)"},
      {"matmul_precision on bf16", &base, "\"softcap\": null",
       "\"softcap\": null, \"matmul_precision\": \"tf32\"",
       "matmul_precision: \"tf32\" is for f32 kernels, not bf16"},
      {"matmul_precision value", &base, "\"softcap\": null",
       "\"softcap\": null, \"matmul_precision\": \"bf16x3\"",
       "matmul_precision: expected \"tf32\", got \"bf16x3\" (string)"},
      {"dropout one", &base, "\"dropout_p\": 0.0", "\"dropout_p\": 1.0",
       "dropout_p: expected a value in [0, 1) (as f32), got 1.0"},
      {"dropout rounds to one", &base, "\"dropout_p\": 0.0",
       "\"dropout_p\": 0.99999999",
       "dropout_p: expected a value in [0, 1) (as f32), got 0.99999999"},
      {"dropout without rng", &base, "\"dropout_p\": 0.0", "\"dropout_p\": 0.1",
       "params[3]: missing parameter 'seed' before 'output' (dropout_p > 0 "
       "needs the seed and offset parameters) (the forward parameters, in "
       "order: query, key, value, seed, offset, output, lse)"},
      {"seed without offset", &all,
       "{\"name\": \"offset\", \"kind\": \"u64\"},", "",
       "params[5]: missing parameter 'offset' before 'output' (dropout_p > 0 "
       "needs the seed and offset parameters)"},
      {"seed kind", &all, "{\"name\": \"seed\",   \"kind\": \"u64\"",
       "{\"name\": \"seed\",   \"kind\": \"tensor\"",
       "param 'seed': kind: expected \"u64\" for 'seed', got \"tensor\""},
      {"seed with shape", &all, "\"kind\": \"u64\",    \"role\": \"input\"}",
       "\"kind\": \"u64\", \"role\": \"input\", \"shape\": [1]}",
       "m.json:27:69: kernel 'attn_everything': unknown field 'shape' in param "
       "'seed' (expected fields: name, kind, role)"},
      {"has_lse type", &base, "\"has_lse\": true", "\"has_lse\": 1",
       "has_lse: expected true or false, got 1 (number)"},
      {"lse listed without has_lse", &base, "\"has_lse\": true",
       "\"has_lse\": false", "param 'lse': listed, but has_lse is false"},
      {"lse missing", &base,
       ",\n        {\"name\": \"lse\",    \"kind\": \"tensor\", \"role\": "
       "\"output\", \"dtype\": \"f32\",  \"shape\": [2, 8, 128]}",
       "", "params: missing parameter 'lse' (has_lse is true)"},
      {"lse dtype", &base, "\"dtype\": \"f32\",  \"shape\": [2, 8, 128]",
       "\"dtype\": \"bf16\",  \"shape\": [2, 8, 128]",
       "param 'lse': dtype: expected f32 (lse is always f32), got bf16"},
      {"lse shape", &base, "\"shape\": [2, 8, 128]}", "\"shape\": [2, 8]}",
       "param 'lse': shape [2, 8] does not match [batch, query_heads, "
       "query_len] = [2, 8, 128]"},
      {"key shape", &base, "\"shape\": [2, 2, 192, 64]}",
       "\"shape\": [2, 2, 190, 64]}",
       "m.json:24:90: kernel 'attn_fwd_0': param 'key': shape [2, 2, 190, "
       "64] does not match [batch, kv_heads, key_len, head_dim] = [2, 2, "
       "192, 64]"},
      {"query rank", &base, "\"shape\": [2, 8, 128, 64]}",
       "\"shape\": [2, 8, 128]}",
       "param 'query': shape [2, 8, 128] does not match [batch, query_heads, "
       "query_len, head_dim] = [2, 8, 128, 64]"},
      {"query dtype", &base,
       "\"role\": \"input\",  \"dtype\": \"bf16\", \"shape\": [2, 8, 128, 64]",
       "\"role\": \"input\",  \"dtype\": \"f16\", \"shape\": [2, 8, 128, 64]",
       "param 'query': dtype: expected bf16 (the kernel's dtype), got f16"},
      {"output role", &base,
       "{\"name\": \"output\", \"kind\": \"tensor\", "
       "\"role\": \"output\"",
       "{\"name\": \"output\", \"kind\": \"tensor\", \"role\": \"input\"",
       "param 'output': role: expected \"output\" for 'output', got "
       "\"input\""},
      {"role value", &base,
       "{\"name\": \"query\",  \"kind\": \"tensor\", "
       "\"role\": \"input\"",
       "{\"name\": \"query\",  \"kind\": \"tensor\", \"role\": \"in\"",
       "param 'query': role: expected \"input\" or \"output\", got \"in\""},
      {"unknown param", &base, "{\"name\": \"query\",", "{\"name\": \"q\",",
       "params[0].name: unknown parameter \"q\" (expected query, key, value, "
       "mask, dropout_mask, seed, offset, output, lse, batch, query_len or "
       "key_len)"},
      {"duplicate param", &base, "{\"name\": \"key\",", "{\"name\": \"query\",",
       "params[1]: parameter 'query' is listed twice (also params[0])"},
      {"missing value param", &base,
       "{\"name\": \"value\",  \"kind\": \"tensor\", \"role\": \"input\",  "
       "\"dtype\": \"bf16\", \"shape\": [2, 2, 192, 64]},",
       "",
       "params[2]: missing parameter 'value' before 'output' (the "
       "forward parameters, in order: query, key, value, output, lse)"},
      {"mask without param", &base, "\"mask\": null",
       "\"mask\": {\"dtype\": \"i1\", \"shape\": [2, 1, 1, 192]}",
       "params[3]: missing parameter 'mask' before 'output' (the kernel's "
       "field 'mask' is set)"},
      {"mask param without mask", &all,
       "\"mask\": {\"dtype\": \"f32\", \"shape\": [1, 8, 1, 32]}",
       "\"mask\": null",
       "param 'mask': listed, but the kernel's field "
       "'mask' is null"},
      {"mask shape broadcast", &all,
       "\"mask\": {\"dtype\": \"f32\", \"shape\": [1, 8, 1, 32]}",
       "\"mask\": {\"dtype\": \"f32\", \"shape\": [1, 2, 1, 32]}",
       "mask.shape[1] (query heads): expected 1 or 8, got 2"},
      {"mask rank", &all,
       "\"mask\": {\"dtype\": \"f32\", \"shape\": [1, 8, 1, 32]}",
       "\"mask\": {\"dtype\": \"f32\", \"shape\": [8, 1, 32]}",
       "mask.shape: expected rank 4"},
      {"mask dtype", &all,
       "\"mask\": {\"dtype\": \"f32\", \"shape\": [1, 8, 1, 32]}",
       "\"mask\": {\"dtype\": \"f64\", \"shape\": [1, 8, 1, 32]}",
       "mask.dtype: unknown dtype \"f64\" (expected i1, f16, bf16 or f32)"},
      {"mask param dtype", &all,
       "\"mask\": {\"dtype\": \"f32\", \"shape\": [1, 8, 1, 32]}",
       "\"mask\": {\"dtype\": \"bf16\", \"shape\": [1, 8, 1, 32]}",
       "param 'mask': dtype: expected bf16 (the kernel's mask.dtype), got "
       "f32"},
      {"grid zero", &base, "\"grid\": [2, 8, 2]", "\"grid\": [0, 8, 2]",
       "grid[0]: expected an integer in [1, 2147483647], got 0 (number)"},
      {"grid size", &base, "\"grid\": [2, 8, 2]", "\"grid\": [2, 8]",
       "grid: expected an array of 3 positive integers, got an array"},
      {"block limit", &base, "\"block\": [128, 1, 1]",
       "\"block\": [2048, 1, 1]",
       "block[0]: expected an integer in [1, 1024], got 2048 (number)"},
      {"block threads", &base, "\"block\": [128, 1, 1]",
       "\"block\": [128, 16, 1]",
       "block: 2048 threads per block, more than the 1024 CUDA allows"},
      {"smem negative", &base, "\"dynamic_shared_memory\": 0",
       "\"dynamic_shared_memory\": -1",
       "dynamic_shared_memory: expected a non-negative integer (bytes), got "
       "-1 (number)"},
      {"params type", &base, "\"params\": [", "\"params\": 5, \"x\": [",
       "unknown field 'x'"},
      {"json error", &base, "\"has_lse\": true,", "\"has_lse\": true",
       "m.json:19:7: syntax error while parsing object - unexpected string "
       "literal; expected '}'"},
  };
  for (const Case &c : cases) {
    std::string text = replaceOnce(*c.text, c.from, c.to);
    expectError(std::string("manifest: ") + c.what,
                [&] { parseManifest(text, "m.json"); }, c.want);
  }
  // Two kernels with one name.
  {
    std::string text = replaceOnce(all, "\"attn_bool_mask\"",
                                   "\"attn_everything\"");
    expectError("duplicate kernel names", [&] { parseManifest(text, "m.json"); },
                "kernels[1]: name: duplicate kernel name 'attn_everything' "
                "(also kernels[0])");
  }
  expectError("kernels empty",
              [&] {
                parseManifest("{\"format\": \"attn-kernels-v1\", \"ptx\": "
                              "\"a.ptx\", \"chip\": \"sm_80\", \"kernels\": "
                              "[]}",
                              "m.json");
              },
              "m.json:1:75: kernels: expected at least one kernel, got an "
              "empty array");
  expectError("kernels not an array",
              [&] {
                parseManifest("{\"format\": \"attn-kernels-v1\", \"ptx\": "
                              "\"a.ptx\", \"chip\": \"sm_80\", \"kernels\": "
                              "{}}",
                              "m.json");
              },
              "kernels: expected an array of kernel objects, got an object");
  expectError("manifest not an object",
              [&] { parseManifest("[1]", "m.json"); },
              "m.json:1:1: expected the manifest to be a JSON object, got an "
              "array");
  // Files.
  expectError("missing manifest file",
              [&] { loadManifest(manifestDir + "/no-such-file.json"); },
              "cannot read manifest '" + manifestDir +
                  "/no-such-file.json': No such file or directory");
  expectError("manifest is a directory",
              [&] { loadManifest(manifestDir); },
              "cannot read manifest '" + manifestDir +
                  "': not a regular file");
  expectError(
      "bad-json.json", [&] { loadManifest(manifestDir + "/bad-json.json"); },
      manifestDir + "/bad-json.json:4:3: syntax error while parsing "
                    "object - unexpected string literal; expected '}'");
  expectError("bad-shape.json",
              [&] { loadManifest(manifestDir + "/bad-shape.json"); },
              "param 'key': shape [2, 2, 190, 64] does not match");
}

//===----------------------------------------------------------------------===//
// Backward kernels in the manifest
//===----------------------------------------------------------------------===//

/// `s` with the first `from` after the first `marker` replaced by `to`.
static std::string replaceAfter(std::string s, const std::string &marker,
                                const std::string &from,
                                const std::string &to) {
  size_t m = s.find(marker);
  size_t at = m == std::string::npos ? m : s.find(from, m);
  if (at == std::string::npos) {
    ++failures;
    std::fprintf(stderr, "test bug: '%s' not found after '%s'\n",
                 from.c_str(), marker.c_str());
    return s;
  }
  return s.replace(at, from.size(), to);
}

static void testGradManifests() {
  Manifest m = loadManifest(manifestDir + "/grad-example.json");
  CHECK(m.kernels.size() == 4, "four kernels");
  if (m.kernels.size() != 4)
    return;
  const KernelSpec &f = m.kernels[0], &kv = m.kernels[1], &q = m.kernels[2],
                   &q1 = m.kernels[3];
  CHECK(f.op == KernelOp::Attention && !f.isGrad() &&
            f.stage == GradStage::None && f.forward.empty(),
        "explicit \"op\": \"attention\"");
  CHECK(kv.isGrad() && kv.stage == GradStage::DKDV && kv.deterministic &&
            kv.forward == "attn_fwd_0" && !kv.hasLse,
        "dkdv kernel fields");
  CHECK(q.isGrad() && q.stage == GradStage::DQ && !q.deterministic &&
            q.forward == "attn_fwd_0",
        "dq kernel fields (deterministic defaults to false)");
  CHECK(q1.isGrad() && q1.forward.empty() && !q1.hasMask &&
            !q1.findParam("seed"),
        "\"forward\": null, no mask, no rng");
  const char *dkdvNames[] = {"query", "key",  "value",  "output",
                             "lse",   "grad_output", "mask", "seed",
                             "offset", "grad_key", "grad_value"};
  bool namesOk = kv.params.size() == 11;
  for (size_t i = 0; namesOk && i < 11; ++i)
    namesOk = kv.params[i].name == dkdvNames[i];
  CHECK(namesOk, "dkdv parameters in ABI order");
  CHECK(!kv.findParam("output")->isOutput && !kv.findParam("lse")->isOutput &&
            !kv.findParam("grad_output")->isOutput &&
            kv.findParam("grad_key")->isOutput &&
            kv.findParam("grad_value")->isOutput &&
            kv.findParam("seed")->kind == ParamSpec::Kind::U64,
        "backward roles: output and lse are inputs, the gradients outputs");
  CHECK(q.params.size() == 10 && q.params.back().name == "grad_query" &&
            q.params.back().isOutput &&
            q.params.back().shape == (std::vector<int64_t>{2, 8, 128, 64}),
        "dq parameters");
  CHECK(kv.findParam("grad_value")->shape ==
            (std::vector<int64_t>{2, 2, 256, 48}),
        "grad_value shape");
  CHECK(findKernel(m, "attn_bwd_dq_0") == &q && !findKernel(m, "nope"),
        "findKernel");
  double fwd = 2.0 * 2 * 8 * 128 * 256 * (64 + 48);
  CHECK(f.flops() == fwd && f.forwardFlops() == fwd, "forward flops");
  CHECK(kv.flops() == 2.0 * 2 * 8 * 128 * 256 * (2 * 64 + 2 * 48),
        "dkdv flops: S, dP, dV, dK");
  CHECK(q.flops() == 2.0 * 2 * 8 * 128 * 256 * (2 * 64 + 48),
        "dq flops: S, dP, dQ");
  CHECK(kv.backwardFlops() == 2.5 * fwd && kv.forwardFlops() == fwd,
        "backward convention: 2.5 x forward");
  uint64_t bytes = 1ull * (2 * 8 * 128 * 64) * 2 +  // q (no dq here)
                   2ull * (2 * 2 * 256 * 64) * 2 +  // k, dk
                   2ull * (2 * 2 * 256 * 48) * 2 +  // v, dv
                   2ull * (2 * 8 * 128 * 48) * 2 +  // o, do
                   4ull * (2 * 8 * 128) +           // lse
                   1ull * (2 * 256);                // mask
  CHECK(kv.bytesMoved() == bytes, "dkdv bytes moved");
  CHECK(std::string(opName(KernelOp::AttentionGrad)) == "attention_grad" &&
            std::string(stageName(GradStage::DKDV)) == "dkdv" &&
            std::string(stageName(GradStage::DQ)) == "dq",
        "names");
  // Without "group", each backward kernel is its own group.
  std::vector<GradGroup> groups = gradGroups(m);
  CHECK(groups.size() == 3 && !groups[0].explicitGroup &&
            groups[0].name == "attn_bwd_dkdv_0" &&
            groups[0].kernels.size() == 1 && groups[0].kernels[0] == &kv &&
            groups[2].kernels[0] == &q1 && kv.group.empty(),
        "old-style backward kernels are groups of one");
  CHECK(gradGroupOf(m, q).kernels.size() == 1 &&
            gradGroupOf(m, q).kernels[0] == &q,
        "gradGroupOf an ungrouped kernel");
  KernelSpec causal = q1;
  causal.queryLen = causal.keyLen = 64;
  causal.causal = CausalMode::TopLeft;
  CHECK(causal.flops() == 2.0 * 1 * 2 * 64 * 64 * (2 * 40 + 40) / 2,
        "backward stage flops halved with causal and Lq = Lk");

  // Doc example: no "op" field means a forward kernel.
  Manifest doc = loadManifest(manifestDir + "/doc-example.json");
  CHECK(doc.kernels.size() == 1 && !doc.kernels[0].isGrad(),
        "op defaults to attention");

  const std::string base = readFile(manifestDir + "/grad-example.json",
                                    "test");
  const std::string dkdvOrder =
      "(the \"dkdv\" parameters, in order: query, key, value, output, lse, "
      "grad_output, mask, seed, offset, grad_key, grad_value)";
  const std::string dqOrder =
      "(the \"dq\" parameters, in order: query, key, value, output, lse, "
      "grad_output, mask, seed, offset, grad_query)";
  const char *gradOut = "{\"name\": \"grad_output\", \"kind\": \"tensor\", "
                        "\"role\": \"input\",  \"dtype\": \"bf16\", "
                        "\"shape\": [2, 8, 128, 48]},\n        ";
  struct Case {
    const char *what;
    std::string marker, from, to, want;
  } cases[] = {
      {"op value", "attn_bwd_dkdv_0", "\"op\": \"attention_grad\"",
       "\"op\": \"attention_backward\"",
       "kernel 'attn_bwd_dkdv_0': op: expected \"attention\", "
       "\"attention_grad\", \"varlen_attention\", "
       "\"varlen_attention_grad\", \"paged_attention\" or "
       "\"merge_partials\", got "
       "\"attention_backward\""},
      {"op type", "attn_fwd_0", "\"op\": \"attention\"", "\"op\": 1",
       "m.json:9:13: kernel 'attn_fwd_0': op: expected a string, got 1 "
       "(number)"},
      // A forward kernel has a stage only in a split-KV group.
      {"backward stage on a forward kernel", "attn_fwd_0",
       "\"op\": \"attention\",", "\"op\": \"attention\", \"stage\": \"dq\",",
       "m.json:9:35: kernel 'attn_fwd_0': stage: expected \"split_kv\" or "
       "\"combine\" for a forward kernel (\"op\": \"attention\"; the other "
       "stages are a backward kernel's), got \"dq\""},
      {"forward on a forward kernel", "attn_fwd_0", "\"op\": \"attention\",",
       "\"op\": \"attention\", \"forward\": \"attn_fwd_0\",",
       "kernel 'attn_fwd_0': forward: only a backward kernel"},
      {"deterministic on a forward kernel", "attn_fwd_0",
       "\"op\": \"attention\",",
       "\"op\": \"attention\", \"deterministic\": true,",
       "kernel 'attn_fwd_0': deterministic: only a backward kernel"},
      {"missing stage", "attn_bwd_dkdv_0", "\"stage\": \"dkdv\",", "",
       "kernel 'attn_bwd_dkdv_0': missing field 'stage' in a backward kernel "
       "(\"op\": \"attention_grad\")"},
      {"stage value", "attn_bwd_dkdv_0", "\"stage\": \"dkdv\"",
       "\"stage\": \"dk\"",
       "m.json:38:16: kernel 'attn_bwd_dkdv_0': stage: expected \"prep\", "
       "\"dkdv\", \"dq\", \"dkdv_dq\" or \"dq_convert\", got \"dk\""},
      {"deterministic type", "attn_bwd_dkdv_0", "\"deterministic\": true",
       "\"deterministic\": \"yes\"",
       "deterministic: expected true or false, got \"yes\" (string)"},
      {"forward type", "attn_bwd_dkdv_0", "\"forward\": \"attn_fwd_0\"",
       "\"forward\": 3",
       "forward (null or the name of a forward kernel): expected a string, "
       "got 3 (number)"},
      {"forward unknown", "attn_bwd_dkdv_0", "\"forward\": \"attn_fwd_0\"",
       "\"forward\": \"attn_fwd_9\"",
       "m.json:40:18: kernel 'attn_bwd_dkdv_0': forward: no kernel named "
       "'attn_fwd_9' in this manifest (its forward kernels: attn_fwd_0)"},
      {"forward names a backward kernel", "attn_bwd_dkdv_0",
       "\"forward\": \"attn_fwd_0\"", "\"forward\": \"attn_bwd_dq_0\"",
       "kernel 'attn_bwd_dkdv_0': forward: kernel 'attn_bwd_dq_0' is a "
       "backward kernel (\"op\": \"attention_grad\"), not a forward one"},
      {"forward scale", "attn_bwd_dq_0", "\"scale\": 0.125", "\"scale\": 0.25",
       "kernel 'attn_bwd_dq_0': forward: kernel 'attn_fwd_0' has scale = "
       "0.125, this kernel 0.25 (a backward kernel must have its forward's "
       "problem)"},
      {"forward causal", "attn_bwd_dkdv_0", "\"causal\": \"bottom_right\"",
       "\"causal\": \"top_left\"",
       "forward: kernel 'attn_fwd_0' has causal = bottom_right, this kernel "
       "top_left"},
      {"forward window", "attn_bwd_dq_0", "\"window\": [64, -1]",
       "\"window\": [32, -1]",
       "forward: kernel 'attn_fwd_0' has window = [64, -1], this kernel "
       "[32, -1]"},
      {"forward softcap", "attn_bwd_dq_0", "\"softcap\": 30.0",
       "\"softcap\": null",
       "forward: kernel 'attn_fwd_0' has softcap = 30, this kernel null"},
      {"forward softcap_approx", "attn_bwd_dq_0", "\"softcap\": 30.0",
       "\"softcap\": 30.0, \"softcap_approx\": true",
       "forward: kernel 'attn_fwd_0' has softcap_approx = false, this kernel "
       "true"},
      {"forward dropout", "attn_bwd_dq_0", "\"dropout_p\": 0.1",
       "\"dropout_p\": 0.2",
       "forward: kernel 'attn_fwd_0' has dropout_p = 0.100000001, this "
       "kernel 0.200000003"},
      {"forward value_dim", "attn_bwd_dkdv_0",
       "\"head_dim\": 64, \"value_dim\": 48",
       "\"head_dim\": 64, \"value_dim\": 64",
       "param 'value': shape [2, 2, 256, 48] does not match [batch, "
       "kv_heads, key_len, value_dim] = [2, 2, 256, 64]"},
      {"has_lse on a backward kernel", "attn_bwd_dkdv_0", "\"has_lse\": false",
       "\"has_lse\": true",
       "kernel 'attn_bwd_dkdv_0': has_lse: expected false for a backward "
       "kernel (it reads lse, it does not write it)"},
      {"missing grad_output", "attn_bwd_dq_0", gradOut, "",
       "kernel 'attn_bwd_dq_0': params[5]: missing parameter 'grad_output' "
       "before 'mask' " +
           dqOrder},
      {"output as an output", "attn_bwd_dq_0",
       "{\"name\": \"output\",      \"kind\": \"tensor\", \"role\": "
       "\"input\"",
       "{\"name\": \"output\",      \"kind\": \"tensor\", \"role\": "
       "\"output\"",
       "param 'output': role: expected \"input\" for 'output', got "
       "\"output\""},
      {"lse as an output", "attn_bwd_dkdv_0",
       "{\"name\": \"lse\",         \"kind\": \"tensor\", \"role\": "
       "\"input\"",
       "{\"name\": \"lse\",         \"kind\": \"tensor\", \"role\": "
       "\"output\"",
       "param 'lse': role: expected \"input\" for 'lse', got \"output\""},
      {"grad_query as an input", "attn_bwd_dq_0",
       "\"grad_query\",  \"kind\": \"tensor\", \"role\": \"output\"",
       "\"grad_query\",  \"kind\": \"tensor\", \"role\": \"input\"",
       "param 'grad_query': role: expected \"output\" for 'grad_query', got "
       "\"input\""},
      {"grad_key in a dq kernel", "attn_bwd_dq_0",
       "{\"name\": \"grad_query\",  \"kind\": \"tensor\", \"role\": "
       "\"output\", \"dtype\": \"bf16\", \"shape\": [2, 8, 128, 64]}",
       "{\"name\": \"grad_key\",  \"kind\": \"tensor\", \"role\": "
       "\"output\", \"dtype\": \"bf16\", \"shape\": [2, 2, 256, 64]}",
       "param 'grad_key': a \"dq\" kernel writes only grad_query (grad_key "
       "is the \"dkdv\" stage's)"},
      {"grad_query in a dkdv kernel", "attn_bwd_dkdv_0",
       "{\"name\": \"grad_key\",    \"kind\": \"tensor\", \"role\": "
       "\"output\", \"dtype\": \"bf16\", \"shape\": [2, 2, 256, 64]}",
       "{\"name\": \"grad_query\",    \"kind\": \"tensor\", \"role\": "
       "\"output\", \"dtype\": \"bf16\", \"shape\": [2, 8, 128, 64]}",
       "param 'grad_query': a \"dkdv\" kernel writes only grad_key and "
       "grad_value (grad_query is the \"dq\" stage's)"},
      {"missing grad_value", "attn_bwd_dkdv_0",
       ",\n        {\"name\": \"grad_value\",  \"kind\": \"tensor\", "
       "\"role\": \"output\", \"dtype\": \"bf16\", \"shape\": [2, 2, 256, "
       "48]}",
       "",
       "kernel 'attn_bwd_dkdv_0': params: missing parameter 'grad_value' " +
           dkdvOrder},
      {"grad_value before grad_key", "attn_bwd_dkdv_0",
       "{\"name\": \"grad_key\",    \"kind\": \"tensor\", \"role\": "
       "\"output\", \"dtype\": \"bf16\", \"shape\": [2, 2, 256, 64]},\n"
       "        {\"name\": \"grad_value\",  \"kind\": \"tensor\", \"role\": "
       "\"output\", \"dtype\": \"bf16\", \"shape\": [2, 2, 256, 48]}",
       "{\"name\": \"grad_value\",  \"kind\": \"tensor\", \"role\": "
       "\"output\", \"dtype\": \"bf16\", \"shape\": [2, 2, 256, 48]},\n"
       "        {\"name\": \"grad_key\",    \"kind\": \"tensor\", \"role\": "
       "\"output\", \"dtype\": \"bf16\", \"shape\": [2, 2, 256, 64]}",
       "params[9]: expected parameter 'grad_key' here, got 'grad_value' " +
           dkdvOrder},
      {"dropout without seed", "attn_bwd_dq_0",
       "{\"name\": \"seed\",        \"kind\": \"u64\",    \"role\": "
       "\"input\"},\n        {\"name\": \"offset\",      \"kind\": \"u64\",  "
       "  \"role\": \"input\"},\n        ",
       "",
       "params[7]: missing parameter 'seed' before 'grad_query' (dropout_p > "
       "0 needs the seed and offset parameters)"},
      {"seed without offset", "attn_bwd_dq_1", "{\"name\": \"grad_query\"",
       "{\"name\": \"seed\", \"kind\": \"u64\"},\n        "
       "{\"name\": \"grad_query\"",
       "params[7]: missing parameter 'offset' before 'grad_query' (seed and "
       "offset come together)"},
      {"mask without the mask field", "attn_bwd_dq_1",
       "{\"name\": \"grad_query\"",
       "{\"name\": \"mask\", \"kind\": \"tensor\", \"role\": \"input\", "
       "\"dtype\": \"i1\", \"shape\": [1, 1, 1, 77]},\n        "
       "{\"name\": \"grad_query\"",
       "kernel 'attn_bwd_dq_1': param 'mask': listed, but the kernel's field "
       "'mask' is null"},
      {"unknown backward param", "attn_bwd_dq_1", "{\"name\": \"grad_query\"",
       "{\"name\": \"grad_lse\"",
       "params[6].name: unknown parameter \"grad_lse\" for a backward kernel "
       "(expected query, key, value, output, lse, grad_output, mask, seed, "
       "offset, grad_query, grad_key, grad_value, batch, query_len, key_len "
       "or a workspace: row_dot, lse_log2, dq_accum)"},
      {"extra param", "attn_bwd_dq_1", "\"shape\": [1, 2, 1, 40]}\n      ]",
       "\"shape\": [1, 2, 1, 40]},\n        {\"name\": \"grad_key\", "
       "\"kind\": \"tensor\", \"role\": \"output\", \"dtype\": \"f32\", "
       "\"shape\": [1, 1, 77, 40]}\n      ]",
       "param 'grad_key': a \"dq\" kernel writes only grad_query"},
      {"duplicate param", "attn_bwd_dq_1", "{\"name\": \"value\",",
       "{\"name\": \"query\",",
       "params[2]: parameter 'query' is listed twice (also params[0])"},
      {"grad_query shape", "attn_bwd_dq_1",
       "\"role\": \"output\", \"dtype\": \"f32\", \"shape\": [1, 2, 1, 40]",
       "\"role\": \"output\", \"dtype\": \"f32\", \"shape\": [1, 2, 1, 41]",
       "param 'grad_query': shape [1, 2, 1, 41] does not match [batch, "
       "query_heads, query_len, head_dim] = [1, 2, 1, 40]"},
      {"grad_output dtype", "attn_bwd_dq_1",
       "\"grad_output\", \"kind\": \"tensor\", \"role\": \"input\",  "
       "\"dtype\": \"f32\"",
       "\"grad_output\", \"kind\": \"tensor\", \"role\": \"input\",  "
       "\"dtype\": \"bf16\"",
       "param 'grad_output': dtype: expected f32 (the kernel's dtype), got "
       "bf16"},
      {"grad_output shape", "attn_bwd_dq_1",
       "\"dtype\": \"f32\", \"shape\": [1, 2, 1, 40]},\n        "
       "{\"name\": \"grad_query\"",
       "\"dtype\": \"f32\", \"shape\": [1, 2, 40, 1]},\n        "
       "{\"name\": \"grad_query\"",
       "param 'grad_output': shape [1, 2, 40, 1] does not match [batch, "
       "query_heads, query_len, value_dim] = [1, 2, 1, 40]"},
      {"backward lse dtype", "attn_bwd_dq_1",
       "\"lse\",         \"kind\": \"tensor\", \"role\": \"input\",  "
       "\"dtype\": \"f32\"",
       "\"lse\",         \"kind\": \"tensor\", \"role\": \"input\",  "
       "\"dtype\": \"f16\"",
       "param 'lse': dtype: expected f32 (lse is always f32), got f16"},
      {"seed as a tensor", "attn_bwd_dq_0",
       "{\"name\": \"seed\",        \"kind\": \"u64\"",
       "{\"name\": \"seed\",        \"kind\": \"tensor\"",
       "param 'seed': kind: expected \"u64\" for 'seed', got \"tensor\""},
      {"backward params type", "attn_bwd_dq_1", "\"params\": [",
       "\"params\": {}, \"x\": [", "unknown field 'x'"},
  };
  for (const Case &c : cases) {
    std::string text = replaceAfter(base, c.marker, c.from, c.to);
    expectError(std::string("grad manifest: ") + c.what,
                [&] { parseManifest(text, "m.json"); }, c.want);
  }
  // The forward kernel does not write lse.
  {
    std::string text = replaceAfter(base, "attn_fwd_0", "\"has_lse\": true",
                                    "\"has_lse\": false");
    text = replaceAfter(text, "attn_fwd_0",
                        ",\n        {\"name\": \"lse\",    \"kind\": "
                        "\"tensor\", \"role\": \"output\", \"dtype\": "
                        "\"f32\",  \"shape\": [2, 8, 128]}",
                        "");
    expectError("grad manifest: forward without lse",
                [&] { parseManifest(text, "m.json"); },
                "kernel 'attn_bwd_dkdv_0': forward: kernel 'attn_fwd_0' does "
                "not write lse (has_lse is false); the backward needs the "
                "forward's lse");
  }
  // A different mask (field and parameter).
  {
    std::string text = replaceAfter(base, "attn_bwd_dkdv_0",
                                    "\"shape\": [2, 1, 1, 256]}",
                                    "\"shape\": [1, 1, 1, 256]}");
    text = replaceAfter(text, "attn_bwd_dkdv_0",
                        "\"dtype\": \"i1\",   \"shape\": [2, 1, 1, 256]}",
                        "\"dtype\": \"i1\",   \"shape\": [1, 1, 1, 256]}");
    expectError("grad manifest: forward mask",
                [&] { parseManifest(text, "m.json"); },
                "forward: kernel 'attn_fwd_0' has mask = i1[2, 1, 1, 256], "
                "this kernel i1[1, 1, 1, 256]");
  }
  expectError("bad-grad-order.json",
              [&] { loadManifest(manifestDir + "/bad-grad-order.json"); },
              manifestDir + "/bad-grad-order.json:91:18: kernel "
                            "'attn_bwd_dq_0': params[3]: expected parameter "
                            "'output' here, got 'lse' " + dqOrder);
  // Robustness: every manifest one line or one character short is either
  // valid or an attnrt::Error (never a crash or another exception).
  {
    int other = 0, parsed = 0, rejected = 0;
    auto attempt = [&](const std::string &text) {
      try {
        parseManifest(text, "m.json");
        ++parsed;
      } catch (const Error &) {
        ++rejected;
      } catch (...) {
        ++other;
      }
    };
    for (size_t at = 0; at < base.size(); ++at) {
      attempt(base.substr(0, at) + base.substr(at + 1));
      if (at == 0 || base[at - 1] == '\n') {
        size_t end = base.find('\n', at);
        if (end != std::string::npos)
          attempt(base.substr(0, at) + base.substr(end + 1));
      }
    }
    CHECK(other == 0 && rejected > 0,
          std::to_string(other) + " mutations threw something other than "
          "attnrt::Error (" + std::to_string(parsed) + " parsed, " +
          std::to_string(rejected) + " rejected)");
  }
  // The forward ABI does not know the backward's parameters.
  expectError(
      "grad_output in a forward kernel",
      [&] {
        parseManifest(replaceAfter(base, "attn_fwd_0", "{\"name\": \"mask\",",
                                   "{\"name\": \"grad_output\","),
                      "m.json");
      },
      "params[3].name: unknown parameter \"grad_output\" (expected "
      "query, key, value, mask, dropout_mask, seed, offset, output, "
      "lse, batch, query_len or key_len)");
}

/// A forward kernel and one attn.attention_grad compiled to the ordered
/// group prep -> dkdv_dq -> dq_convert with workspaces, plus an ungrouped
/// dq kernel of the same problem.
static void testGradGroupManifests() {
  Manifest m = loadManifest(manifestDir + "/grad-group.json");
  CHECK(m.kernels.size() == 5, "five kernels");
  if (m.kernels.size() != 5)
    return;
  const KernelSpec &f = m.kernels[0], &prep = m.kernels[1], &kvq = m.kernels[2],
                   &conv = m.kernels[3], &solo = m.kernels[4];
  CHECK(prep.stage == GradStage::Prep && kvq.stage == GradStage::DKDVDQ &&
            conv.stage == GradStage::DQConvert && solo.stage == GradStage::DQ,
        "stages");
  CHECK(prep.group == "attn_bwd_0" && kvq.group == "attn_bwd_0" &&
            conv.group == "attn_bwd_0" && solo.group.empty() && f.group.empty(),
        "group fields");
  CHECK(std::string(stageName(GradStage::Prep)) == "prep" &&
            std::string(stageName(GradStage::DKDVDQ)) == "dkdv_dq" &&
            std::string(stageName(GradStage::DQConvert)) == "dq_convert",
        "new stage names");
  CHECK(stageOutputs(GradStage::Prep).empty() &&
            stageOutputs(GradStage::DKDVDQ) ==
                (std::vector<std::string>{"grad_key", "grad_value"}) &&
            stageOutputs(GradStage::DQConvert) ==
                (std::vector<std::string>{"grad_query"}),
        "stage outputs");
  CHECK(isWorkspaceName("row_dot") && isWorkspaceName("lse_log2") &&
            isWorkspaceName("dq_accum") && !isWorkspaceName("grad_query"),
        "workspace names");
  const char *prepNames[] = {"query",   "key",      "value",
                             "output",  "lse",      "grad_output",
                             "row_dot", "lse_log2", "dq_accum"};
  bool namesOk = prep.params.size() == 9;
  for (size_t i = 0; namesOk && i < 9; ++i)
    namesOk = prep.params[i].name == prepNames[i];
  CHECK(namesOk, "prep parameters: the inputs, then the workspaces");
  const ParamSpec *rowDot = prep.findParam("row_dot");
  CHECK(rowDot && rowDot->isWorkspace && !rowDot->isOutput &&
            rowDot->dtype == DType::F32 &&
            rowDot->shape == (std::vector<int64_t>{2, 8, 256}),
        "row_dot workspace");
  CHECK(kvq.params.size() == 11 && kvq.params[8].name == "dq_accum" &&
            kvq.params[8].isWorkspace && kvq.params[9].name == "grad_key" &&
            kvq.params[9].isOutput && !kvq.findParam("grad_query"),
        "dkdv_dq parameters");
  CHECK(conv.params.size() == 8 && conv.params[6].name == "dq_accum" &&
            conv.params[7].name == "grad_query" && conv.params[7].isOutput,
        "dq_convert parameters");

  // FLOPs: products only; prep and dq_convert execute none.
  const double elements = 2.0 * 2 * 8 * 200 * 256;
  CHECK(prep.flops() == 0.0 && conv.flops() == 0.0,
        "prep and dq_convert: 0 FLOP");
  CHECK(kvq.flops() == elements * (3 * 64 + 2 * 64),
        "dkdv_dq flops: S, dP, dV, dK and dQ");
  CHECK(solo.flops() == elements * (2 * 64 + 64), "dq flops");
  CHECK(kvq.backwardFlops() == 2.5 * f.forwardFlops() &&
            prep.backwardFlops() == 2.5 * f.forwardFlops(),
        "the backward convention is unchanged");

  // Groups: the explicit one (manifest order), then the ungrouped kernel.
  std::vector<GradGroup> groups = gradGroups(m);
  CHECK(groups.size() == 2, "two backward groups");
  if (groups.size() == 2) {
    CHECK(groups[0].explicitGroup && groups[0].name == "attn_bwd_0" &&
              groups[0].kernels ==
                  (std::vector<const KernelSpec *>{&prep, &kvq, &conv}),
          "the group's kernels in manifest order");
    CHECK(!groups[1].explicitGroup && groups[1].kernels.size() == 1 &&
              groups[1].kernels[0] == &solo,
          "an ungrouped kernel is its own group");
  }
  CHECK(gradGroupOf(m, conv).name == "attn_bwd_0" &&
            gradGroupOf(m, conv).kernels.size() == 3,
        "gradGroupOf a grouped kernel");

  // The example of docs/kernel-manifest.md ("What the compiler emits").
  Manifest doc = loadManifest(manifestDir + "/doc-grad-example.json");
  std::vector<GradGroup> docGroups = gradGroups(doc);
  CHECK(docGroups.size() == 1 && docGroups[0].explicitGroup &&
            docGroups[0].name == "attn_bwd_0" &&
            docGroups[0].kernels.size() == 3 &&
            docGroups[0].kernels[1]->stage == GradStage::DKDVDQ &&
            !docGroups[0].kernels[0]->deterministic,
        "the docs' atomic group");

  const std::string base = readFile(manifestDir + "/grad-group.json", "test");
  const std::string prepK = "\"attn_bwd_prep_0\"",
                    kvqK = "\"attn_bwd_dkdv_dq_0\"",
                    convK = "\"attn_bwd_dq_convert_0\"",
                    soloK = "\"attn_bwd_dq_1\"";
  const std::string rowDotLine =
      "{\"name\": \"row_dot\",     \"kind\": \"tensor\", \"role\": "
      "\"workspace\", \"dtype\": \"f32\",  \"shape\": [2, 8, 256]},\n"
      "        ";
  const std::string dqAccumLine =
      "{\"name\": \"dq_accum\",    \"kind\": \"tensor\", \"role\": "
      "\"workspace\", \"dtype\": \"f32\",  \"shape\": [2, 8, 200, 64]}";
  const std::string gradQueryLine =
      "{\"name\": \"grad_query\",  \"kind\": \"tensor\", \"role\": "
      "\"output\",    \"dtype\": \"bf16\", \"shape\": [2, 8, 200, 64]}";
  const std::string onePerGroup = "; each of grad_query, grad_key and "
                                  "grad_value is written by exactly one "
                                  "kernel of a group";
  struct Case {
    const char *what;
    std::string marker, from, to, want;
  } cases[] = {
      {"unknown workspace", kvqK, "\"row_dot\",     ", "\"dk_accum\",    ",
       "kernel 'attn_bwd_dkdv_dq_0': params[6].name: unknown workspace "
       "\"dk_accum\" (expected row_dot, lse_log2 or dq_accum)"},
      {"workspace not f32", prepK,
       "\"workspace\", \"dtype\": \"f32\",  \"shape\": [2, 8, 256]",
       "\"workspace\", \"dtype\": \"bf16\", \"shape\": [2, 8, 256]",
       "kernel 'attn_bwd_prep_0': param 'row_dot': dtype: expected f32 "
       "(workspaces are f32), got bf16"},
      {"workspace role on an input", kvqK,
       "\"grad_output\", \"kind\": \"tensor\", \"role\": \"input\",    ",
       "\"grad_output\", \"kind\": \"tensor\", \"role\": \"workspace\",",
       "kernel 'attn_bwd_dkdv_dq_0': param 'grad_output': role: "
       "\"workspace\" is only for the workspaces row_dot, lse_log2 and "
       "dq_accum (expected \"input\" for 'grad_output')"},
      {"workspace role on an output", convK,
       "\"grad_query\",  \"kind\": \"tensor\", \"role\": \"output\",   ",
       "\"grad_query\",  \"kind\": \"tensor\", \"role\": \"workspace\",",
       "param 'grad_query': role: \"workspace\" is only for the workspaces "
       "row_dot, lse_log2 and dq_accum (expected \"output\" for "
       "'grad_query')"},
      {"workspace with role input", prepK,
       "\"row_dot\",     \"kind\": \"tensor\", \"role\": \"workspace\", ",
       "\"row_dot\",     \"kind\": \"tensor\", \"role\": \"input\", ",
       "kernel 'attn_bwd_prep_0': param 'row_dot': role: expected "
       "\"workspace\" for 'row_dot', got \"input\""},
      {"workspace after an output", convK,
       dqAccumLine + ",\n        " + gradQueryLine,
       gradQueryLine + ",\n        " + dqAccumLine,
       "kernel 'attn_bwd_dq_convert_0': params[7]: workspace 'dq_accum' "
       "after the output 'grad_query' (workspaces come after the inputs and "
       "before the outputs) (the \"dq_convert\" parameters, in order: query, "
       "key, value, output, lse, grad_output, grad_query)"},
      {"workspace before an input", prepK, "{\"name\": \"grad_output\"",
       rowDotLine + "{\"name\": \"grad_output\"",
       "kernel 'attn_bwd_prep_0': params[5]: expected parameter "
       "'grad_output' here, got workspace 'row_dot' (workspaces come after "
       "the inputs and before the outputs) (the \"prep\" parameters, in "
       "order: query, key, value, output, lse, grad_output, then its "
       "workspaces)"},
      {"duplicate workspace", kvqK, "\"lse_log2\",    ", "\"row_dot\",     ",
       "kernel 'attn_bwd_dkdv_dq_0': params[7]: parameter 'row_dot' is "
       "listed twice (also params[6])"},
      {"missing dq_convert output", convK, ",\n        " + gradQueryLine, "",
       "kernel 'attn_bwd_dq_convert_0': params: missing parameter "
       "'grad_query' (the \"dq_convert\" parameters, in order: query, key, "
       "value, output, lse, grad_output, grad_query)"},
      {"gradient in a prep kernel", prepK,
       "\"shape\": [2, 8, 200, 64]}\n      ]",
       "\"shape\": [2, 8, 200, 64]},\n        " + gradQueryLine + "\n      ]",
       "kernel 'attn_bwd_prep_0': param 'grad_query': a \"prep\" kernel "
       "writes no gradient (it initializes workspaces)"},
      {"grad_query in a dkdv_dq kernel", kvqK, "\"grad_key\",    ",
       "\"grad_query\",  ",
       "kernel 'attn_bwd_dkdv_dq_0': param 'grad_query': a \"dkdv_dq\" "
       "kernel writes only grad_key and grad_value (it adds dS K into the "
       "workspace dq_accum; a \"dq_convert\" kernel writes grad_query)"},
      {"grad_key in a dq_convert kernel", convK, "\"grad_query\",  ",
       "\"grad_key\",    ",
       "kernel 'attn_bwd_dq_convert_0': param 'grad_key': a \"dq_convert\" "
       "kernel writes only grad_query (grad_key is written by a \"dkdv\" or "
       "\"dkdv_dq\" kernel)"},
      {"grad_query written twice", soloK, "\"forward\": null,",
       "\"forward\": \"attn_fwd_0\", \"group\": \"attn_bwd_0\",",
       "kernel 'attn_bwd_dq_1': group: grad_query is written by kernel "
       "'attn_bwd_dq_convert_0' (dq_convert) and by this kernel (dq) of "
       "group 'attn_bwd_0'" +
           onePerGroup},
      {"grad_query never written", convK, "\n      \"group\": \"attn_bwd_0\",",
       "",
       "kernel 'attn_bwd_dkdv_dq_0': group: no kernel of group 'attn_bwd_0' "
       "writes grad_query (its kernels: attn_bwd_prep_0 (prep), "
       "attn_bwd_dkdv_dq_0 (dkdv_dq))" +
           onePerGroup},
      {"group problem: deterministic", kvqK, "\"deterministic\": false",
       "\"deterministic\": true",
       "kernel 'attn_bwd_dkdv_dq_0': group: kernel 'attn_bwd_prep_0' of "
       "group 'attn_bwd_0' has deterministic = false, this kernel true (the "
       "kernels of a group must have the same problem)"},
      {"group problem: forward", soloK, "\"forward\": null,",
       "\"forward\": null, \"group\": \"attn_bwd_0\",",
       "kernel 'attn_bwd_dq_1': group: kernel 'attn_bwd_prep_0' of group "
       "'attn_bwd_0' has forward = attn_fwd_0, this kernel null (the kernels "
       "of a group must have the same problem)"},
      {"first workspace user not prep", prepK, rowDotLine, "",
       "kernel 'attn_bwd_dkdv_dq_0': param 'row_dot': the first kernel of "
       "group 'attn_bwd_0' that lists workspace 'row_dot' is this "
       "\"dkdv_dq\" kernel; it must be a \"prep\" kernel (prep initializes "
       "the workspaces)"},
      {"workspace in an ungrouped kernel", soloK, "{\"name\": \"grad_query\"",
       dqAccumLine + ",\n        {\"name\": \"grad_query\"",
       "kernel 'attn_bwd_dq_1': param 'dq_accum': the first kernel of its "
       "own group (no \"group\" field) that lists workspace 'dq_accum' is "
       "this \"dq\" kernel; it must be a \"prep\" kernel"},
      {"workspace shapes differ", convK,
       "\"workspace\", \"dtype\": \"f32\",  \"shape\": [2, 8, 200, 64]",
       "\"workspace\", \"dtype\": \"f32\",  \"shape\": [2, 8, 256, 64]",
       "kernel 'attn_bwd_dq_convert_0': param 'dq_accum': shape [2, 8, 256, "
       "64] differs from [2, 8, 200, 64] in kernel 'attn_bwd_prep_0' of "
       "group 'attn_bwd_0' (a workspace is one buffer shared by the group)"},
      {"group on a forward kernel", "\"attn_fwd_0\"", "\"op\": \"attention\",",
       "\"op\": \"attention\", \"group\": \"attn_bwd_0\",",
       "kernel 'attn_fwd_0': group: only a backward kernel (\"op\": "
       "\"attention_grad\" or \"varlen_attention_grad\") has this field"},
      {"group type", prepK, "\"group\": \"attn_bwd_0\"", "\"group\": 3",
       "kernel 'attn_bwd_prep_0': group: expected a string, got 3 (number)"},
      {"unknown stage", kvqK, "\"stage\": \"dkdv_dq\"", "\"stage\": \"dkdvdq\"",
       "kernel 'attn_bwd_dkdv_dq_0': stage: expected \"prep\", \"dkdv\", "
       "\"dq\", \"dkdv_dq\" or \"dq_convert\", got \"dkdvdq\""},
  };
  for (const Case &c : cases) {
    std::string text = replaceAfter(base, c.marker, c.from, c.to);
    expectError(
        std::string("grad group manifest: ") + c.what,
        [&] { parseManifest(text, "m.json"); }, c.want);
  }
  // A different problem in one kernel of the group (its "forward" is null,
  // so the forward check does not catch it first).
  {
    std::string text = replaceAfter(base, soloK, "\"forward\": null,",
                                    "\"forward\": null, \"group\": "
                                    "\"attn_bwd_0\",");
    text = replaceAfter(text, soloK, "\"scale\": 0.125", "\"scale\": 0.25");
    expectError(
        "grad group manifest: group problem: scale",
        [&] { parseManifest(text, "m.json"); },
        "kernel 'attn_bwd_dq_1': group: kernel 'attn_bwd_prep_0' of "
        "group 'attn_bwd_0' has scale = 0.125, this kernel 0.25 (the "
        "kernels of a group must have the same problem)");
  }
  // Kernels of a group need not be contiguous: the ungrouped kernel moved
  // between the group's kernels changes nothing.
  {
    size_t soloAt = base.rfind("    {\n      \"name\": \"attn_bwd_dq_1\"");
    size_t convAt =
        base.find("    {\n      \"name\": \"attn_bwd_dq_convert_0\"");
    if (soloAt != std::string::npos && convAt != std::string::npos) {
      std::string soloText = base.substr(soloAt, base.rfind("\n  ]") - soloAt);
      std::string text = base.substr(0, convAt) + soloText + ",\n" +
                         base.substr(convAt, soloAt - 2 - convAt) +
                         base.substr(base.rfind("\n  ]"));
      Manifest moved = parseManifest(text, "m.json");
      std::vector<GradGroup> g = gradGroups(moved);
      CHECK(g.size() == 2 && g[0].kernels.size() == 3 &&
                g[0].kernels[2]->name == "attn_bwd_dq_convert_0" &&
                g[1].kernels[0]->name == "attn_bwd_dq_1",
            "a group split by another kernel keeps its manifest order");
    } else {
      CHECK(false, "test bug: kernels not found in grad-group.json");
    }
  }
  // Robustness, as for grad-example.json.
  int other = 0;
  for (size_t at = 0; at < base.size(); at += 7) {
    try {
      parseManifest(base.substr(0, at) + base.substr(at + 1), "m.json");
    } catch (const Error &) {
    } catch (...) {
      ++other;
    }
  }
  CHECK(other == 0, std::to_string(other) +
                        " mutations of grad-group.json "
                        "threw something other than attnrt::Error");
}

//===----------------------------------------------------------------------===//
// f16 / bf16
//===----------------------------------------------------------------------===//

/// Whether `bits` is the correctly rounded (nearest, ties to even) encoding
/// of `v`, checked against its neighbours.
static bool isNearestEven(double v, uint16_t bits,
                          double (*decode)(uint16_t)) {
  double got = decode(bits);
  if (std::isnan(v))
    return std::isnan(got);
  if (std::isinf(got)) {
    // Overflow: |v| must be at least max + half an ulp.
    uint16_t maxBits = uint16_t((bits & 0x8000) | ((bits & 0x7FFF) - 1));
    double maxV = std::fabs(decode(maxBits));
    double below = std::fabs(decode(uint16_t(maxBits - 1)));
    return std::fabs(v) >= maxV + (maxV - below) / 2 &&
           std::signbit(got) == std::signbit(v);
  }
  double err = std::fabs(got - v);
  for (int delta : {-1, 1}) {
    uint16_t nb = uint16_t(bits + delta);
    if ((nb & 0x7FFF) == 0x7FFF || ((bits & 0x7FFF) == 0 && delta < 0))
      continue;
    double other = decode(nb);
    if (std::isnan(other) || std::isinf(other) ||
        std::signbit(other) != std::signbit(got))
      continue;
    double otherErr = std::fabs(other - v);
    if (otherErr < err)
      return false;
    if (otherErr == err && (bits & 1))
      return false; // a tie must go to the even mantissa
  }
  return true;
}

static void testConversions() {
  // Exact round trips of every finite 16-bit pattern.
  int halfBad = 0, bfBad = 0;
  for (uint32_t b = 0; b < 0x10000; ++b) {
    uint16_t bits = uint16_t(b);
    double h = fromHalfBits(bits);
    if (!std::isnan(h) && toHalfBits(h) != bits)
      ++halfBad;
    if (std::isnan(h) && !std::isnan(fromHalfBits(toHalfBits(h))))
      ++halfBad;
    double f = fromBFloat16Bits(bits);
    if (!std::isnan(f) && toBFloat16Bits(f) != bits)
      ++bfBad;
    if (std::isnan(f) && !std::isnan(fromBFloat16Bits(toBFloat16Bits(f))))
      ++bfBad;
  }
  CHECK(halfBad == 0, std::to_string(halfBad) + " f16 round-trip failures");
  CHECK(bfBad == 0, std::to_string(bfBad) + " bf16 round-trip failures");

  // Known values.
  CHECK(toHalfBits(1.0) == 0x3C00, "f16 1.0");
  CHECK(toHalfBits(-2.0) == 0xC000, "f16 -2.0");
  CHECK(toHalfBits(65504.0) == 0x7BFF, "f16 max");
  CHECK(toHalfBits(65519.99) == 0x7BFF, "f16 just below the overflow tie");
  CHECK(toHalfBits(65520.0) == 0x7C00, "f16 overflow tie rounds to inf");
  CHECK(toHalfBits(1e10) == 0x7C00 && toHalfBits(-1e10) == 0xFC00,
        "f16 overflow");
  CHECK(toHalfBits(std::ldexp(1.0, -24)) == 0x0001, "f16 min subnormal");
  CHECK(toHalfBits(std::ldexp(1.0, -25)) == 0x0000,
        "f16 half the min subnormal ties to even (0)");
  CHECK(toHalfBits(std::ldexp(1.5, -25)) == 0x0001, "f16 0.75 ulp rounds up");
  CHECK(toHalfBits(std::ldexp(3.0, -25)) == 0x0002,
        "f16 1.5 ulp ties to even (2)");
  CHECK(toHalfBits(-0.0) == 0x8000, "f16 -0");
  CHECK(toHalfBits(1.0 + std::ldexp(1.0, -11)) == 0x3C00,
        "f16 tie 1 + 2^-11 to even");
  CHECK(toHalfBits(1.0 + 3 * std::ldexp(1.0, -11)) == 0x3C02,
        "f16 tie 1 + 3*2^-11 to even");
  CHECK(toHalfBits(1.0 + std::ldexp(1.0, -11) + std::ldexp(1.0, -40)) ==
            0x3C01,
        "f16 just above the tie (no double rounding through f32)");
  CHECK(std::isnan(fromHalfBits(toHalfBits(NAN))), "f16 NaN");
  CHECK(fromHalfBits(0x7C00) == INFINITY && fromHalfBits(0xFC00) == -INFINITY,
        "f16 inf");
  CHECK(fromHalfBits(0x3555) == 0.333251953125, "f16 decode 0x3555");
  CHECK(toBFloat16Bits(1.0) == 0x3F80, "bf16 1.0");
  CHECK(toBFloat16Bits(-3.0) == 0xC040, "bf16 -3.0");
  CHECK(toBFloat16Bits(1.0 + std::ldexp(1.0, -8)) == 0x3F80,
        "bf16 tie to even");
  CHECK(toBFloat16Bits(1.0 + 3 * std::ldexp(1.0, -8)) == 0x3F82,
        "bf16 tie 1 + 3*2^-8 to even");
  CHECK(toBFloat16Bits(1.0 + std::ldexp(1.0, -8) + std::ldexp(1.0, -30)) ==
            0x3F81,
        "bf16 just above the tie: direct rounding from double (an f32 "
        "detour would round to the tie, then to even)");
  CHECK(toBFloat16Bits(3.4e38) == 0x7F80, "bf16 3.4e38 rounds to inf");
  CHECK(toBFloat16Bits(3.38e38) == 0x7F7E, "bf16 3.38e38");
  CHECK(toBFloat16Bits(1e300) == 0x7F80 && toBFloat16Bits(-1e300) == 0xFF80,
        "bf16 overflow");
  CHECK(toBFloat16Bits(std::ldexp(1.0, -133)) == 0x0001,
        "bf16 min subnormal");
  CHECK(toBFloat16Bits(-INFINITY) == 0xFF80, "bf16 -inf");
  CHECK(std::isnan(fromBFloat16Bits(toBFloat16Bits(NAN))), "bf16 NaN");

  // Random values, checked against the neighbouring encodings.
  std::mt19937_64 rng(42);
  std::uniform_real_distribution<double> mant(1.0, 2.0);
  std::uniform_int_distribution<int> expo(-30, 17);
  int notNearest = 0;
  for (int t = 0; t < 200000; ++t) {
    double v = std::ldexp(mant(rng), expo(rng)) * (t & 1 ? -1 : 1);
    if (!isNearestEven(v, toHalfBits(v), fromHalfBits))
      ++notNearest;
    double w = std::ldexp(mant(rng), expo(rng) * 4);
    if (!isNearestEven(w, toBFloat16Bits(w), fromBFloat16Bits))
      ++notNearest;
  }
  CHECK(notNearest == 0,
        std::to_string(notNearest) + " conversions not nearest-even");
#if defined(__FLT16_MAX__) && !defined(__clang__)
  // The compiler's _Float16 conversion as an oracle (direct from double).
  int oracleBad = 0;
  for (int t = 0; t < 200000; ++t) {
    double v = std::ldexp(mant(rng), expo(rng));
    _Float16 h = static_cast<_Float16>(v);
    uint16_t bits;
    std::memcpy(&bits, &h, 2);
    oracleBad += bits != toHalfBits(v);
  }
  CHECK(oracleBad == 0, std::to_string(oracleBad) + " mismatches vs _Float16");
#endif

  // HostTensor stores what the reference sees.
  HostTensor t(DType::BF16, {2, 3});
  CHECK(t.sizeBytes() == 12 && t.numElements() == 6, "bf16 tensor size");
  double stored = t.store(1, 0.1);
  CHECK(stored == fromBFloat16Bits(toBFloat16Bits(0.1)) && t.load(1) == stored,
        "bf16 store/load");
  HostTensor m(DType::I1, {4});
  CHECK(m.store(0, 3.0) == 1.0 && m.store(1, 0.0) == 0.0 &&
            static_cast<const uint8_t *>(m.data())[0] == 1,
        "i1 store");
  CHECK(dtypeSize(DType::F16) == 2 && dtypeSize(DType::F32) == 4 &&
            dtypeSize(DType::I1) == 1,
        "dtype sizes");
}

//===----------------------------------------------------------------------===//
// Inputs, comparison, Philox
//===----------------------------------------------------------------------===//

static void testInputsAndCompare() {
  InputGenerator g1(7), g2(7);
  HostTensor a(DType::F16, {1000}), b(DType::F16, {1000});
  std::vector<double> va = g1.fill(a, -2.0, 2.0);
  std::vector<double> vb = g2.fill(b, -2.0, 2.0, /*keepValues=*/false);
  CHECK(vb.empty() && std::memcmp(a.data(), b.data(), a.sizeBytes()) == 0,
        "deterministic inputs");
  double lo = 1e9, hi = -1e9;
  for (double v : va) {
    lo = std::min(lo, v);
    hi = std::max(hi, v);
  }
  CHECK(lo >= -2.0 && hi <= 2.0 && lo < -1.9 && hi > 1.9, "range [-2, 2]");

  HostTensor bm(DType::I1, {200, 64});
  std::vector<double> mv = g1.fillMask(bm, 64);
  int64_t off = 0, rowsOff = 0;
  for (int r = 0; r < 200; ++r) {
    int64_t rowOff = 0;
    for (int j = 0; j < 64; ++j)
      rowOff += mv[size_t(r * 64 + j)] == 0.0;
    off += rowOff;
    rowsOff += rowOff == 64;
  }
  double fracOff = double(off) / (200 * 64);
  // Expected: 0.1 + 0.9 * 0.25 = 0.325 off, 10% + whole rows.
  CHECK(fracOff > 0.27 && fracOff < 0.38,
        "boolean mask off fraction " + std::to_string(fracOff));
  CHECK(rowsOff >= 8 && rowsOff <= 40,
        "whole rows off: " + std::to_string(rowsOff));
  HostTensor am(DType::F32, {100, 50});
  std::vector<double> av = g1.fillMask(am, 50);
  int64_t inf = 0, inRange = 0;
  for (double v : av) {
    inf += std::isinf(v) && v < 0;
    inRange += v >= -3.0 && v <= 3.0;
  }
  CHECK(inf + inRange == 5000 && inf > 1000 && inf < 2200,
        "additive mask: -inf or U(-3, 3)");

  const double ninf = -std::numeric_limits<double>::infinity();
  Comparison c = compareResults({1.0, 2.0, 0.0}, {1.0, 2.5, 0.0}, nullptr,
                                nullptr);
  CHECK(c.outMaxAbsDiff == 0.5 && c.refMaxAbs == 2.5 &&
            c.outRelErr == 0.5 / 2.5 && c.outNaNs == 0,
        "relative max-norm error");
  c = compareResults({NAN, 1.0}, {0.0, 1.0}, nullptr, nullptr);
  CHECK(c.outNaNs == 1, "NaN counted");
  std::vector<double> lse = {0.5, ninf, 2.0, ninf}, ref = {0.5001, ninf, ninf,
                                                           1.0};
  c = compareResults({0.0}, {0.0}, &lse, &ref);
  CHECK(c.lseInfMismatches == 2 && c.emptyRows == 2 &&
            std::fabs(c.lseErr - 1e-4) < 1e-12,
        "lse: -inf positions must match");
  std::vector<double> lse2 = {NAN};
  std::vector<double> ref2 = {100.0};
  c = compareResults({0.0}, {0.0}, &lse2, &ref2);
  CHECK(c.lseNaNs == 1, "lse NaN");
  CHECK(defaultOutputTolerance(DType::F32, /*tf32=*/true) == 4e-3,
        "tf32 tolerance");
  CHECK(defaultOutputTolerance(DType::F32) == 1e-5 &&
            defaultOutputTolerance(DType::F16) == 2e-3 &&
            defaultOutputTolerance(DType::BF16) == 8e-3,
        "tolerances");
  CHECK(defaultGradTolerance(DType::F32) == 1e-4 &&
            defaultGradTolerance(DType::F16) == 1e-2 &&
            defaultGradTolerance(DType::BF16) == 2e-2,
        "gradient tolerances");
}

static void testPhilox() {
  using attnopt::ref::philox4x32_10;
  auto r0 = philox4x32_10({0, 0, 0, 0}, {0, 0});
  CHECK(r0 == (std::array<uint32_t, 4>{0x6627e8d5u, 0xe169c58du, 0xbc57ac4cu,
                                       0x9b00dbd8u}),
        "Philox KAT 0");
  auto r1 = philox4x32_10({0xffffffffu, 0xffffffffu, 0xffffffffu,
                           0xffffffffu},
                          {0xffffffffu, 0xffffffffu});
  CHECK(r1 == (std::array<uint32_t, 4>{0x408f276du, 0x41c83b0eu, 0xa20bc7c6u,
                                       0x6d5451fdu}),
        "Philox KAT 1");
  auto r2 = philox4x32_10({0x243f6a88u, 0x85a308d3u, 0x13198a2eu,
                           0x03707344u},
                          {0xa4093822u, 0x299f31d0u});
  CHECK(r2 == (std::array<uint32_t, 4>{0xd16cfe09u, 0x94fdccebu, 0x5001e420u,
                                       0x24126ea1u}),
        "Philox KAT pi");
  const uint32_t want[8] = {0xe3e80670u, 0xe50a0ebcu, 0x95f222c0u,
                            0xb615aa27u, 0xac08141bu, 0xdfc5ccbeu,
                            0x79c07a47u, 0xa7f66093u};
  bool ok = true;
  for (int j = 0; j < 8; ++j)
    ok = ok && attnopt::ref::dropoutBits(1, 0, 0, 0, 0, j, 1, 1) == want[j];
  CHECK(ok, "dropout words for seed 1, offset 0 (docs/semantics.md 8.4)");
  CHECK(attnopt::ref::dropoutThreshold(0.1f) == 0x199999A0u &&
            attnopt::ref::dropoutThreshold(0.25f) == 0x40000000u &&
            attnopt::ref::dropoutThreshold(0.9f) == 0xE6666600u &&
            attnopt::ref::dropoutThreshold(0.0f) == 0,
        "dropout thresholds");
}

static void testUtil() {
  CHECK(directoryOf("a/b/c.json") == "a/b" && directoryOf("c.json") == "." &&
            directoryOf("/c.json") == "/",
        "directoryOf");
  CHECK(joinPath("a/b", "x.ptx") == "a/b/x.ptx" &&
            joinPath("a", "/abs.ptx") == "/abs.ptx" &&
            joinPath(".", "x.ptx") == "x.ptx",
        "joinPath");
  CHECK(formatShape({2, 8, 128}) == "[2, 8, 128]", "formatShape");
  CHECK(formatShape({kRuntimeSize, 8}) == "[null, 8]", "formatShape: null");
  CHECK(formatBytes(1536) == "1.50 KiB (1536 bytes)", "formatBytes");
}

/// A forward kernel with an explicit dropout keep mask (doc-example.json
/// with dropout_p = 0.25, a [2, 1, 128, 192] i1 keep mask and its parameter).
static void testDropoutMaskManifests() {
  const std::string base = readFile(manifestDir + "/doc-example.json", "test");
  std::string text =
      replaceOnce(base, "\"dropout_p\": 0.0,",
                  "\"dropout_p\": 0.25, \"dropout_mask\": {\"dtype\": \"i1\", "
                  "\"shape\": [2, 1, 128, 192]},");
  text = replaceOnce(
      text, "{\"name\": \"output\",",
      "{\"name\": \"dropout_mask\", \"kind\": \"tensor\", \"role\": "
      "\"input\", \"dtype\": \"i1\", \"shape\": [2, 1, 128, 192]},\n"
      "        {\"name\": \"output\",");
  Manifest m = parseManifest(text, "m.json");
  CHECK(m.kernels.size() == 1, "one kernel");
  if (m.kernels.size() == 1) {
    const KernelSpec &k = m.kernels[0];
    CHECK(k.hasDropoutMask && k.dropoutP == 0.25f &&
              k.dropoutMaskShape == (std::array<int64_t, 4>{2, 1, 128, 192}),
          "dropout_mask field");
    const ParamSpec *keep = k.findParam("dropout_mask");
    CHECK(keep && keep->dtype == DType::I1 && !keep->isOutput &&
              k.params[3].name == "dropout_mask",
          "dropout_mask parameter, after value");
    CHECK(!k.findParam("seed"), "no seed/offset with a dropout mask");
    attnopt::ref::AttentionProblem p = k.problem();
    CHECK(p.hasDropoutMask && p.dropoutMaskShape[1] == 1 && p.dropoutP == 0.25f,
          "problem() carries the dropout mask");
  }
  struct Case {
    const char *what, *from, *to, *want;
  } cases[] = {
      {"dtype", "\"dtype\": \"i1\", \"shape\": [2, 1, 128, 192]},",
       "\"dtype\": \"f16\", \"shape\": [2, 1, 128, 192]},",
       "dropout_mask.dtype: expected i1 (true = keep), got f16"},
      {"shape", "\"shape\": [2, 1, 128, 192]},",
       "\"shape\": [2, 3, 128, 192]},",
       "dropout_mask.shape[1] (query heads): expected 1 or 8, got 3"},
      {"without dropout_p", "\"dropout_p\": 0.25,", "\"dropout_p\": 0.0,",
       "dropout_mask: needs dropout_p > 0"},
      {"missing parameter",
       "{\"name\": \"dropout_mask\", \"kind\": \"tensor\", \"role\": "
       "\"input\", \"dtype\": \"i1\", \"shape\": [2, 1, 128, 192]},",
       "",
       "params[3]: missing parameter 'dropout_mask' before 'output' (the "
       "kernel's field 'dropout_mask' is set)"},
      {"after output",
       "{\"name\": \"dropout_mask\", \"kind\": \"tensor\", \"role\": "
       "\"input\", \"dtype\": \"i1\", \"shape\": [2, 1, 128, 192]},\n"
       "        {\"name\": \"output\", \"kind\": \"tensor\", \"role\": "
       "\"output\", \"dtype\": \"bf16\", \"shape\": [2, 8, 128, 64]},",
       "{\"name\": \"output\", \"kind\": \"tensor\", \"role\": "
       "\"output\", \"dtype\": \"bf16\", \"shape\": [2, 8, 128, 64]},\n"
       "        {\"name\": \"dropout_mask\", \"kind\": \"tensor\", \"role\": "
       "\"input\", \"dtype\": \"i1\", \"shape\": [2, 1, 128, 192]},",
       "params[3]: expected parameter 'dropout_mask' here, got 'output' (the "
       "forward parameters, in order: query, key, value, dropout_mask, "
       "output, lse)"},
      {"with seed", "{\"name\": \"output\",",
       "{\"name\": \"seed\", \"kind\": \"u64\"}, {\"name\": \"offset\", "
       "\"kind\": \"u64\"}, {\"name\": \"output\",",
       "param 'seed': listed, but the kernel reads its keep bits from "
       "'dropout_mask' (seed/offset and dropout_mask are exclusive)"},
  };
  for (const Case &c : cases) {
    std::string bad = replaceOnce(text, c.from, c.to);
    expectError(
        std::string("dropout mask manifest: ") + c.what,
        [&] { parseManifest(bad, "m.json"); }, c.want);
  }
  // The parameter without the field.
  std::string noField = replaceOnce(
      text,
      "\"dropout_mask\": {\"dtype\": \"i1\", \"shape\": [2, 1, 128, "
      "192]},",
      "");
  expectError(
      "dropout mask manifest: parameter without field",
      [&] { parseManifest(noField, "m.json"); },
      "param 'dropout_mask': listed, but the kernel has no field "
      "'dropout_mask'");
}

//===----------------------------------------------------------------------===//
// Launch checks, "ptx" and the forward parameter order (issue 17)
//===----------------------------------------------------------------------===//

/// `s` with occurrence `n` (from 0) of `from` replaced by `to`.
static std::string replaceNth(std::string s, const std::string &from,
                              const std::string &to, int n) {
  size_t at = s.find(from);
  for (int i = 0; i < n && at != std::string::npos; ++i)
    at = s.find(from, at + from.size());
  if (at == std::string::npos) {
    ++failures;
    std::fprintf(stderr, "test bug: occurrence %d of '%s' not found\n", n,
                 from.c_str());
    return s;
  }
  return s.replace(at, from.size(), to);
}

/// `s` with the first `a` and the first `b` (after it) exchanged.
static std::string swapText(const std::string &s, const std::string &a,
                            const std::string &b) {
  size_t i = s.find(a);
  size_t j = i == std::string::npos ? i : s.find(b, i + a.size());
  if (j == std::string::npos) {
    ++failures;
    std::fprintf(stderr, "test bug: '%s' then '%s' not found\n", a.c_str(),
                 b.c_str());
    return s;
  }
  return s.substr(0, i) + b + s.substr(i + a.size(), j - i - a.size()) + a +
         s.substr(j + b.size());
}

/// `text` must be a valid manifest.
static void expectValid(const std::string &what, const std::string &text) {
  ++checks;
  try {
    parseManifest(text, "m.json");
  } catch (const std::exception &e) {
    ++failures;
    std::fprintf(stderr, "FAIL %s: rejected: %s\n", what.c_str(), e.what());
  }
}

static void testLaunchChecks() {
  // What attn-compile writes for test/Runtime/manifests-accepted.mlir: on
  // sm_90a the wgmma forward and the atomic backward group, and with
  // --kernel=cuda-core on sm_80 the CUDA-core forward and backward (static
  // shared memory: 0 dynamic bytes everywhere).
  const std::string tc = readFile(manifestDir + "/compiler-sm90a.json", "t");
  const std::string cc =
      readFile(manifestDir + "/compiler-sm80-cuda-core.json", "t");
  const std::string doc = readFile(manifestDir + "/doc-example.json", "t");
  const std::string all = readFile(manifestDir + "/all-features.json", "t");
  Manifest m = parseManifest(tc, "m.json");
  CHECK(m.kernels.size() == 4 && m.kernels[0].dynamicSharedMemory == 83016 &&
            m.kernels[0].grid == (std::array<uint32_t, 3>{2, 4, 2}) &&
            m.kernels[2].dynamicSharedMemory == 83968 &&
            m.kernels[2].grid == (std::array<uint32_t, 3>{2, 2, 2}),
        "the compiler's sm_90a manifest");
  Manifest c = parseManifest(cc, "m.json");
  CHECK(c.kernels.size() == 3 && c.kernels[1].stage == GradStage::DKDV &&
            c.kernels[1].dynamicSharedMemory == 0,
        "the compiler's CUDA-core manifest");
  // attn-compile --mma=mma-sync: Br = 128, 4 warps, 64 keys per step.
  std::string sync =
      replaceOnce(tc, "\"block\": [384, 1, 1]", "\"block\": [128, 1, 1]");
  sync =
      replaceOnce(sync,
                  "\"block_kv\": 128, \"block_q\": 128, \"kernel\": "
                  "\"tensor-core\", \"mma\": \"wgmma\", \"threads\": 384",
                  "\"block_kv\": 64, \"block_q\": 128, \"kernel\": "
                  "\"tensor-core\", \"mma\": \"mma.sync\", \"threads\": 128");
  sync = replaceOnce(sync, "\"dynamic_shared_memory\": 83016",
                     "\"dynamic_shared_memory\": 55296");
  expectValid("the compiler's mma.sync forward", sync);
  // The sample kernels' manifests: no "codegen", 1-D grids and a dkdv_dq
  // stage with static shared memory only.
  for (const char *sample :
       {"sample", "grad", "grad-group", "wrong", "wrong-grad",
        "wrong-grad-group", "fault", "oom", "missing-kernel", "sm100a"})
    expectValid(std::string("sample manifest ") + sample,
                readFile(manifestDir + "/../sample/" + sample + ".json", "t"));

  // Accepted at the edges.
  const std::string smem0 = "\"dynamic_shared_memory\": 0";
  expectValid("smem at the sm_90a limit",
              replaceOnce(doc, smem0, "\"dynamic_shared_memory\": 232448"));
  expectValid(
      "smem at the sm_100a limit",
      replaceOnce(replaceOnce(doc, smem0, "\"dynamic_shared_memory\": 232448"),
                  "\"sm_90a\"", "\"sm_100a\""));
  expectValid("smem at the sm_80 limit",
              replaceOnce(all, "\"dynamic_shared_memory\": 65536",
                          "\"dynamic_shared_memory\": 166912"));
  expectValid("grid at the CUDA limits",
              replaceOnce(doc, "\"grid\": [2, 8, 2]",
                          "\"grid\": [2147483647, 65535, 65535]"));
  expectValid(
      "codegen fields the runtime does not know",
      replaceOnce(tc, "\"threads\": 384}", "\"threads\": 384, \"stages\": 2}"));
  expectValid("codegen without the tiling (no grid formula)",
              replaceOnce(doc, "\"has_lse\": true,",
                          "\"has_lse\": true, \"codegen\": {},"));
  expectValid("ptx in a subdirectory",
              replaceOnce(doc, "\"attention.ptx\"", "\"./sub/..a.ptx\""));
  expectValid("UTF-8 in source",
              replaceOnce(doc, "examples/attention.mlir",
                          "examples/\xC3\xA9t\xC3\xA9.mlir"));

  const std::string all86 = replaceOnce(all, "\"sm_80\"", "\"sm_86\"");
  // The codegen lines of the CUDA-core manifest: the forward's, then those
  // of dkdv and dq (128 threads each).
  const std::string ccFwd =
      "\"kernel\": \"cuda-core\", \"mma\": \"none\", \"threads\": 64";
  const std::string ccBwd =
      "\"kernel\": \"cuda-core\", \"mma\": \"none\", \"threads\": 128";
  const std::string tcBwd =
      "\"kernel\": \"tensor-core\", \"mma\": \"mma.sync\", \"threads\": 128";
  const std::string order = " (the forward parameters, in order: query, "
                            "key, value, output, lse)";
  // A dkdv kernel whose key blocks are split between two blocks (dV and dK,
  // padded D + Dv > 256): twice the key blocks in grid x.
  const std::string partsBwd = ccBwd + ", \"key_block_parts\": 2";
  expectValid("dkdv with key_block_parts",
              replaceOnce(replaceNth(cc, ccBwd, partsBwd, 0),
                          "\"grid\": [4, 2, 2]", "\"grid\": [8, 2, 2]"));
  // A persistent forward (codegen.schedule): fewer blocks than its 2 x 4 x
  // 2 tiles, in x.
  const std::string tcPersistent = replaceOnce(
      replaceOnce(tc, "\"grid\": [2, 4, 2]", "\"grid\": [3, 1, 1]"),
      "\"mma\": \"wgmma\"", "\"mma\": \"wgmma\", \"schedule\": \"persistent\"");
  expectValid("persistent forward", tcPersistent);
  struct Case {
    const char *what;
    std::string text;
    std::string want;
  } cases[] = {
      {"persistent grid past the tiles",
       replaceOnce(tcPersistent, "\"grid\": [3, 1, 1]", "\"grid\": [17, 1, 1]"),
       "kernel 'attn_fwd_0': grid: [17, 1, 1] does not match the problem: a "
       "forward kernel with codegen.schedule \"persistent\" runs [n, 1, 1] "
       "blocks with 1 <= n <= 16 (its tiles: (query block, query head, "
       "batch) = [2, 4, 2])"},
      {"persistent grid in y",
       replaceOnce(tcPersistent, "\"grid\": [3, 1, 1]", "\"grid\": [3, 2, 1]"),
       "grid: [3, 2, 1] does not match the problem: a forward kernel with "
       "codegen.schedule \"persistent\""},
      {"codegen schedule",
       replaceOnce(tcPersistent, "\"persistent\"", "\"looped\""),
       "codegen.schedule: expected \"grid\" or \"persistent\", got "
       "\"looped\""},
      // dynamic_shared_memory: at most what a block can use on the chip.
      {"smem 4294967295",
       replaceOnce(doc, smem0, "\"dynamic_shared_memory\": 4294967295"),
       "m.json:21:32: kernel 'attn_fwd_0': dynamic_shared_memory: 4294967295 "
       "bytes, more than the 232448 bytes (227 KiB) a thread block can use "
       "on sm_90a"},
      {"smem past the sm_90a limit",
       replaceOnce(doc, smem0, "\"dynamic_shared_memory\": 232449"),
       "dynamic_shared_memory: 232449 bytes, more than the 232448 bytes"},
      {"smem past the sm_80 limit",
       replaceOnce(all, "\"dynamic_shared_memory\": 65536",
                   "\"dynamic_shared_memory\": 166913"),
       "kernel 'attn_everything': dynamic_shared_memory: 166913 bytes, more "
       "than the 166912 bytes (163 KiB) a thread block can use on sm_80"},
      {"smem past the sm_86 limit",
       replaceOnce(all86, "\"dynamic_shared_memory\": 65536",
                   "\"dynamic_shared_memory\": 101377"),
       "101377 bytes, more than the 101376 bytes (99 KiB) a thread block can "
       "use on sm_86"},
      {"smem past int64",
       replaceOnce(doc, smem0,
                   "\"dynamic_shared_memory\": 99999999999999999999"),
       "dynamic_shared_memory: expected a non-negative integer (bytes), got "
       "99999999999999999999 (number)"},
      // A tensor-core matrix stage without dynamic shared memory.
      {"tensor-core dkdv_dq without smem",
       replaceOnce(tc, "\"dynamic_shared_memory\": 83968",
                   "\"dynamic_shared_memory\": 0"),
       "m.json:83:32: kernel 'attn_bwd_dkdv_dq_0': dynamic_shared_memory: 0 "
       "bytes, but a \"dkdv_dq\" kernel on tensor cores (codegen.kernel is "
       "\"tensor-core\") stages its tiles in dynamic shared memory (expected "
       "more than 0)"},
      {"tensor-core forward without smem",
       replaceOnce(tc, "\"dynamic_shared_memory\": 83016",
                   "\"dynamic_shared_memory\": 0"),
       "kernel 'attn_fwd_0': dynamic_shared_memory: 0 bytes, but a forward "
       "kernel on tensor cores"},
      {"tensor-core dkdv without smem", replaceNth(cc, ccBwd, tcBwd, 0),
       "kernel 'attn_bwd_dkdv_0': dynamic_shared_memory: 0 bytes, but a "
       "\"dkdv\" kernel on tensor cores"},
      {"tensor-core dq without smem", replaceNth(cc, ccBwd, tcBwd, 1),
       "kernel 'attn_bwd_dq_0': dynamic_shared_memory: 0 bytes, but a \"dq\" "
       "kernel on tensor cores"},
      {"mma.sync without smem",
       replaceOnce(cc, ccFwd, "\"mma\": \"mma.sync\", \"threads\": 64"),
       "kernel 'attn_fwd_0': dynamic_shared_memory: 0 bytes, but a forward "
       "kernel on tensor cores (codegen.mma is \"mma.sync\")"},
      // The grid from the tiling in "codegen".
      {"forward grid z",
       replaceOnce(tc, "\"grid\": [2, 4, 2]", "\"grid\": [2, 4, 1]"),
       "m.json:13:15: kernel 'attn_fwd_0': grid: [2, 4, 1] does not match "
       "the problem: a forward kernel runs one block per (query block, query "
       "head, batch) = (ceil(query_len / codegen.block_q), query_heads, "
       "batch) = [2, 4, 2]"},
      {"forward grid x",
       replaceOnce(tc, "\"grid\": [2, 4, 2]", "\"grid\": [1, 4, 2]"),
       "kernel 'attn_fwd_0': grid: [1, 4, 2] does not match the problem"},
      {"forward block_q",
       replaceOnce(tc, "\"block_q\": 128", "\"block_q\": 64"),
       "kernel 'attn_fwd_0': grid: [2, 4, 2] does not match the problem: "
       "a forward kernel runs one block per (query block, query head, batch) "
       "= (ceil(query_len / codegen.block_q), query_heads, batch) = [4, 4, "
       "2]"},
      {"dkdv_dq grid",
       replaceOnce(tc, "\"grid\": [2, 2, 2]", "\"grid\": [4, 2, 2]"),
       "kernel 'attn_bwd_dkdv_dq_0': grid: [4, 2, 2] does not match the "
       "problem: a \"dkdv_dq\" kernel runs one block per (key block, kv "
       "head, batch) = (ceil(key_len / codegen.block_kv), kv_heads, batch) = "
       "[2, 2, 2]"},
      {"prep grid",
       replaceNth(tc, "\"grid\": [4, 4, 2]", "\"grid\": [4, 2, 2]", 0),
       "kernel 'attn_bwd_prep_0': grid: [4, 2, 2] does not match the "
       "problem: a \"prep\" kernel runs one block per (query block, query "
       "head, batch)"},
      {"dq_convert grid",
       replaceNth(tc, "\"grid\": [4, 4, 2]", "\"grid\": [5, 4, 2]", 1),
       "kernel 'attn_bwd_dq_convert_0': grid: [5, 4, 2] does not match"},
      {"CUDA-core dkdv grid",
       replaceOnce(cc, "\"grid\": [4, 2, 2]", "\"grid\": [2, 2, 2]"),
       "kernel 'attn_bwd_dkdv_0': grid: [2, 2, 2] does not match the "
       "problem: a \"dkdv\" kernel runs one block per (key block, kv head, "
       "batch)"},
      {"dkdv key_block_parts grid", replaceNth(cc, ccBwd, partsBwd, 0),
       "kernel 'attn_bwd_dkdv_0': grid: [4, 2, 2] does not match the "
       "problem: a \"dkdv\" kernel runs one block per (key block part, kv "
       "head, batch) = (codegen.key_block_parts * ceil(key_len / "
       "codegen.block_kv), kv_heads, batch) = [8, 2, 2]"},
      {"key_block_parts on a dq kernel", replaceNth(cc, ccBwd, partsBwd, 1),
       "kernel 'attn_bwd_dq_0': codegen.key_block_parts: only a \"dkdv\" or "
       "\"dkdv_dq\" kernel splits its key blocks, not a \"dq\" kernel"},
      {"codegen key_block_parts 0",
       replaceNth(cc, ccBwd, ccBwd + ", \"key_block_parts\": 0", 0),
       "codegen.key_block_parts: expected a positive integer, got 0 "
       "(number)"},
      {"CUDA-core dq grid",
       replaceNth(cc, "\"grid\": [4, 4, 2]", "\"grid\": [4, 4, 1]", 1),
       "kernel 'attn_bwd_dq_0': grid: [4, 4, 1] does not match the problem: "
       "a \"dq\" kernel runs one block per (query block, query head, batch)"},
      // Without "codegen": the CUDA limits.
      {"grid x limit",
       replaceOnce(doc, "\"grid\": [2, 8, 2]", "\"grid\": [2147483648, 8, 2]"),
       "grid[0]: expected an integer in [1, 2147483647], got 2147483648 "
       "(number)"},
      {"grid y limit",
       replaceOnce(doc, "\"grid\": [2, 8, 2]", "\"grid\": [2, 65536, 2]"),
       "grid[1]: expected an integer in [1, 65535], got 65536 (number)"},
      {"grid z limit",
       replaceOnce(doc, "\"grid\": [2, 8, 2]", "\"grid\": [2, 8, 65536]"),
       "grid[2]: expected an integer in [1, 65535], got 65536 (number)"},
      // The "codegen" fields the checks read.
      {"codegen threads",
       replaceOnce(tc, "\"threads\": 384", "\"threads\": 256"),
       "m.json:9:104: kernel 'attn_fwd_0': codegen.threads: 256, but "
       "block[0] is 384 (threads is the block's x size)"},
      {"codegen kernel", replaceOnce(tc, "\"tensor-core\"", "\"tensor_core\""),
       "kernel 'attn_fwd_0': codegen.kernel: expected \"tensor-core\" or "
       "\"cuda-core\", got \"tensor_core\""},
      {"codegen kernel type", replaceOnce(tc, "\"tensor-core\"", "1"),
       "codegen.kernel: expected a string, got 1 (number)"},
      {"codegen mma", replaceOnce(tc, "\"wgmma\"", "\"wmma\""),
       "codegen.mma: expected \"wgmma\", \"mma.sync\" or \"none\", got "
       "\"wmma\""},
      {"codegen block_q", replaceOnce(tc, "\"block_q\": 128", "\"block_q\": 0"),
       "codegen.block_q: expected a positive integer, got 0 (number)"},
      {"codegen CUDA-core mma",
       replaceOnce(cc, ccFwd,
                   "\"kernel\": \"cuda-core\", \"mma\": \"mma.sync\", "
                   "\"threads\": 64"),
       "kernel 'attn_fwd_0': codegen.mma: \"mma.sync\" for a CUDA-core kernel "
       "(expected \"none\": it does not use the tensor cores)"},
      {"codegen tensor-core forward without mma",
       replaceOnce(tc, "\"mma\": \"wgmma\"", "\"mma\": \"none\""),
       "kernel 'attn_fwd_0': codegen.mma: \"none\" for a forward kernel on "
       "tensor cores (expected \"wgmma\" or \"mma.sync\")"},
      {"codegen prep with mma",
       replaceOnce(tc, "\"mma\": \"none\"", "\"mma\": \"wgmma\""),
       "kernel 'attn_bwd_prep_0': codegen.mma: \"wgmma\" for a \"prep\" "
       "kernel (expected \"none\": it multiplies no matrices)"},
      // "ptx" names a file.
      {"ptx .", replaceOnce(doc, "\"attention.ptx\"", "\".\""),
       "m.json:3:10: ptx: \".\" names a directory, not a PTX file (expected a "
       "file name such as \"attention.ptx\")"},
      {"ptx ..", replaceOnce(doc, "\"attention.ptx\"", "\"..\""),
       "ptx: \"..\" names a directory"},
      {"ptx ./", replaceOnce(doc, "\"attention.ptx\"", "\"./\""),
       "ptx: \"./\" names a directory"},
      {"ptx ending in /", replaceOnce(doc, "\"attention.ptx\"", "\"kernels/\""),
       "ptx: \"kernels/\" names a directory"},
      {"ptx ending in /..",
       replaceOnce(doc, "\"attention.ptx\"", "\"kernels/..\""),
       "ptx: \"kernels/..\" names a directory"},
      {"ptx ending in /.", replaceOnce(doc, "\"attention.ptx\"", "\"/tmp/.\""),
       "ptx: \"/tmp/.\" names a directory"},
      {"ptx with NUL",
       replaceOnce(doc, "\"attention.ptx\"", "\"attention\\u0000.ptx\""),
       "m.json:3:10: ptx: the file name contains a NUL character"},
      // The forward parameters in the documented order.
      {"forward key after value",
       swapText(doc, "{\"name\": \"key\",    ", "{\"name\": \"value\",  "),
       "m.json:24:18: kernel 'attn_fwd_0': params[1]: expected parameter "
       "'key' here, got 'value'" +
           order},
      {"forward lse before output",
       swapText(doc,
                "{\"name\": \"output\", \"kind\": \"tensor\", \"role\": "
                "\"output\", \"dtype\": \"bf16\", \"shape\": [2, 8, 128, 64]}",
                "{\"name\": \"lse\",    \"kind\": \"tensor\", \"role\": "
                "\"output\", \"dtype\": \"f32\",  \"shape\": [2, 8, 128]}"),
       "params[3]: expected parameter 'output' here, got 'lse'" + order},
      {"forward mask after offset",
       swapText(all,
                "{\"name\": \"mask\",   \"kind\": \"tensor\", \"role\": "
                "\"input\",  \"dtype\": \"f32\", \"shape\": [1, 8, 1, 32]}",
                "{\"name\": \"offset\", \"kind\": \"u64\"}"),
       "kernel 'attn_everything': params[3]: expected parameter 'mask' here, "
       "got 'offset' (the forward parameters, in order: query, key, value, "
       "mask, seed, offset, output, lse)"},
      {"forward offset before seed",
       swapText(all,
                "{\"name\": \"seed\",   \"kind\": \"u64\",    \"role\": "
                "\"input\"}",
                "{\"name\": \"offset\", \"kind\": \"u64\"}"),
       "params[4]: expected parameter 'seed' here, got 'offset'"},
      // Invalid UTF-8, located in the manifest.
      {"invalid UTF-8",
       replaceOnce(doc, "examples/attention.mlir", "examples/attention\xC3("),
       "m.json:8:37: syntax error while parsing value - invalid string: "
       "ill-formed UTF-8 byte; last read: '\"examples/attention\\xC3('"},
  };
  for (const Case &c : cases)
    expectError(
        std::string("launch: ") + c.what,
        [&] { parseManifest(c.text, "m.json"); }, c.want);
}

//===----------------------------------------------------------------------===//
// TMA tensor maps
//===----------------------------------------------------------------------===//

/// `text` with parameter `entry` appended to every kernel's params (the
/// hand-written manifests' arrays end with "}\n      ]").
static std::string appendToParams(std::string text, const std::string &entry) {
  const std::string end = "}\n      ]";
  const std::string with = "},\n        " + entry + "\n      ]";
  int appended = 0;
  for (size_t at = text.find(end); at != std::string::npos;
       at = text.find(end, at + with.size())) {
    text.replace(at, end.size(), with);
    ++appended;
  }
  CHECK(appended > 0, "test bug: no params array to append to");
  return text;
}

/// The layout of tensor map `mapName` of `k` over the tensor it names,
/// which must be valid.
static TensorMapLayout layoutOf(const KernelSpec &k,
                                const std::string &mapName) {
  TensorMapLayout l;
  const ParamSpec *map = k.findParam(mapName);
  const ParamSpec *tensor = map ? k.findParam(map->mapOf) : nullptr;
  if (!tensor) {
    CHECK(false, "kernel '" + k.name + "': no tensor map " + mapName);
    return l;
  }
  const std::string why = tensorMapLayout(*map, *tensor, l);
  CHECK(why.empty(), mapName + ": " + why);
  return l;
}

/// Host part of the encoding: what cuTensorMapEncodeTiled gets for a map
/// over a bound tensor (innermost dimension first), and the layouts TMA
/// cannot take.
static void testTensorMapLayouts() {
  // [B, H, L, D] = [2, 16, 1000, 128] bf16, box [64, 128, 1, 1]: 64
  // columns (one 128-byte swizzle span) of 128 rows.
  ParamSpec t;
  t.name = "key";
  t.dtype = DType::BF16;
  t.shape = {2, 16, 1000, 128};
  ParamSpec map;
  map.kind = ParamSpec::Kind::TensorMap;
  map.name = "key_tensor_map";
  map.mapOf = "key";
  map.box = {64, 128, 1, 1};
  map.swizzle = 128;
  TensorMapLayout l;
  std::string why = tensorMapLayout(map, t, l);
  CHECK(why.empty(), "[2, 16, 1000, 128]: " + why);
  CHECK(l.rank == 4 && l.dataType == kTensorMapBFloat16 && l.swizzle == 3,
        "rank 4, BFLOAT16, SWIZZLE_128B");
  CHECK((l.dims == std::array<uint64_t, 5>{128, 1000, 16, 2, 0}),
        "dims: D, L, H, B");
  CHECK((l.strides ==
         std::array<uint64_t, 4>{256, 256 * 1000, 256 * 1000 * 16, 0}),
        "strides: a row, a head, a batch entry (bytes)");
  CHECK((l.box == std::array<uint32_t, 5>{64, 128, 1, 1, 0}), "box");

  // f16 and f32, rank 1 (no strides), swizzle 0 (NONE).
  t.dtype = DType::F16;
  t.shape = {300};
  map.box = {64};
  map.swizzle = 0;
  why = tensorMapLayout(map, t, l);
  CHECK(why.empty() && l.rank == 1 && l.dims[0] == 300 && l.strides[0] == 0 &&
            l.dataType == kTensorMapFloat16 && l.swizzle == 0,
        "rank 1 f16: " + why);
  t.dtype = DType::F32;
  t.shape = {3, 32};
  map.box = {32, 3};
  map.swizzle = 128;
  why = tensorMapLayout(map, t, l);
  CHECK(why.empty() && l.dataType == kTensorMapFloat32 && l.strides[0] == 128,
        "f32: " + why);

  // What TMA cannot take, found before the driver.
  struct Bad {
    const char *what;
    DType dtype;
    std::vector<int64_t> shape, box;
    const char *want;
  } bad[] = {
      {"72-byte rows",
       DType::F16,
       {300, 6, 36},
       {32, 1, 64},
       "tensor map 'key_tensor_map' of 'key' [300, 6, 36] f16: the stride of "
       "dimension 1 (72 bytes) is not a multiple of 16 bytes"},
      {"unbound size",
       DType::BF16,
       {kRuntimeSize, 6, 64},
       {64, 1, 64},
       "dimension 0 is not bound"},
      {"a dimension past 2^32",
       DType::F16,
       {(int64_t(1) << 32) + 1},
       {64},
       "dimension 0 (4294967297) is over 2^32"},
      {"a stride of 2^40 bytes",
       DType::BF16,
       {2, int64_t(1) << 32, 128},
       {64, 1, 1},
       "the stride of dimension 0 is 2^40 bytes or more"},
      {"a box of another rank",
       DType::BF16,
       {2, 8, 64},
       {64, 1, 1, 1},
       "rank 3 with a box of 4 extents"},
      {"i1", DType::I1, {2, 64}, {64, 1}, "no TMA data type for i1"},
  };
  for (const Bad &c : bad) {
    t.dtype = c.dtype;
    t.shape = c.shape;
    map.box = c.box;
    why = tensorMapLayout(map, t, l);
    CHECK(why.find(c.want) != std::string::npos,
          std::string(c.what) + ": " + why);
  }
}

/// tensor-maps.json (runtime-sizes.json with the wgmma forward's maps over
/// query, key and value appended, as attn-compile --tma=on writes them) and
/// tma.json (attn-compile's own output): parsed, the maps' layouts at bound
/// sizes, each rule of docs/kernel-manifest.md "TMA tensor maps" broken
/// once; the packed and backward validators take trailing maps too.
static void testTensorMaps() {
  const std::string base = readFile(manifestDir + "/tensor-maps.json", "test");
  Manifest m = parseManifest(base, "m.json");
  const KernelSpec &k = m.kernels[0];
  const ParamSpec *qm = k.findParam("query_tensor_map");
  CHECK(qm && qm->kind == ParamSpec::Kind::TensorMap && qm->mapOf == "query" &&
            qm->box == (std::vector<int64_t>{64, 128, 1, 1}) &&
            qm->swizzle == 128,
        "query_tensor_map parsed");
  CHECK(k.params.size() == 12 && k.params[8].name == "key_len" &&
            k.params.back().name == "value_tensor_map",
        "the maps come last");
  const Manifest compiled =
      parseManifest(readFile(manifestDir + "/tma.json", "test"), "tma.json");
  CHECK(compiled.kernels.size() == 1 &&
            compiled.kernels[0].params.back().kind ==
                ParamSpec::Kind::TensorMap &&
            compiled.kernels[0].params.back().mapOf == "value",
        "attn-compile --tma=on's manifest");

  // Unbound, a map has no layout; bound, its tensor's sizes are the
  // launch's: query [2, 8, 77, 128], key [2, 2, 1000, 128].
  TensorMapLayout l;
  CHECK(tensorMapLayout(*qm, *k.findParam("query"), l)
                .find("dimension 2 is not bound") != std::string::npos,
        "unbound query_len");
  const KernelSpec b = bindSizes(
      k, parseRuntimeSizes("batch=2,query_len=77,key_len=1000"), m.indexBits);
  l = layoutOf(b, "query_tensor_map");
  CHECK((l.dims == std::array<uint64_t, 5>{128, 77, 8, 2, 0}) &&
            (l.strides ==
             std::array<uint64_t, 4>{256, 256 * 77, 256 * 77 * 8, 0}),
        "query at query_len = 77");
  l = layoutOf(b, "key_tensor_map");
  CHECK((l.dims == std::array<uint64_t, 5>{128, 1000, 2, 2, 0}) &&
            (l.strides ==
             std::array<uint64_t, 4>{256, 256 * 1000, 256 * 1000 * 2, 0}),
        "key at key_len = 1000 (GQA: 2 heads)");

  // A packed kernel's [T, H, D] tensors: the token total bound from the
  // offsets (varlen.json, a map over query appended to both kernels).
  const Manifest packed = parseManifest(
      appendToParams(readFile(manifestDir + "/varlen.json", "test"),
                     R"({"name": "query_tensor_map", )"
                     R"("kind": "tensor_map", "tensor": )"
                     R"("query", "box": [64, 1, 128], )"
                     R"("swizzle": 128})"),
      "varlen.json");
  const KernelSpec p0 = bindSequences(packed.kernels[0], {0, 100, 100, 357},
                                      {0, 50, 300, 301}, packed.indexBits);
  l = layoutOf(p0, "query_tensor_map");
  CHECK(l.rank == 3 && (l.dims == std::array<uint64_t, 5>{128, 8, 357, 0, 0}) &&
            (l.strides == std::array<uint64_t, 4>{256, 256 * 8, 0, 0}) &&
            (l.box == std::array<uint32_t, 5>{64, 1, 128, 0, 0}),
        "packed query [357, 8, 128] bf16");
  const KernelSpec p1 = bindSequences(packed.kernels[1], {0, 100, 250, 300},
                                      {0, 200, 300, 500}, packed.indexBits);
  l = layoutOf(p1, "query_tensor_map");
  CHECK((l.dims == std::array<uint64_t, 5>{64, 4, 300, 0, 0}) &&
            l.strides[0] == 128 && l.strides[1] == 512 &&
            l.dataType == kTensorMapFloat16,
        "packed query [300, 4, 64] f16 (static totals)");

  // Backward groups, dense and packed (and their forward kernels): every
  // stage may end with maps.
  const Manifest grad = parseManifest(
      appendToParams(readFile(manifestDir + "/grad-group.json", "test"),
                     R"({"name": "query_tensor_map", "kind": "tensor_map", )"
                     R"("tensor": "query", "box": [64, 64, 1, 1], )"
                     R"("swizzle": 128})"),
      "grad-group.json");
  int mappedStages = 0;
  for (const KernelSpec &g : grad.kernels)
    mappedStages += g.isGrad() &&
                    g.params.back().kind == ParamSpec::Kind::TensorMap &&
                    g.params.back().mapOf == "query";
  CHECK(mappedStages == 4, "attention_grad stages with a map over query");
  const Manifest varlenGrad = parseManifest(
      appendToParams(readFile(manifestDir + "/varlen-grad.json", "test"),
                     R"({"name": "query_tensor_map", "kind": "tensor_map", )"
                     R"("tensor": "query", "box": [64, 1, 64], )"
                     R"("swizzle": 128})"),
      "varlen-grad.json");
  CHECK(varlenGrad.kernels.size() == 7 &&
            varlenGrad.kernels.back().params.back().kind ==
                ParamSpec::Kind::TensorMap,
        "varlen_attention_grad stages with a map over query");

  // Each rule broken once.
  const std::string valueMap =
      R"("tensor": "value", "box": [64, 128, 1, 1], "swizzle": 128})";
  const std::string queryMapLine =
      R"(        {"name": "query_tensor_map", "kind": "tensor_map", )"
      R"("tensor": "query", "box": [64, 128, 1, 1], "swizzle": 128},)"
      "\n";
  const std::string moved = replaceOnce(
      replaceOnce(base, queryMapLine, ""), R"(        {"name": "batch",)",
      queryMapLine + R"(        {"name": "batch",)");
  struct Bad {
    const char *what;
    std::string text, want;
  } bad[] = {
      {"unknown tensor",
       replaceOnce(base, R"("tensor": "value")", R"("tensor": "nope")"),
       "kernel 'attn_fwd_0': param 'value_tensor_map': tensor: 'nope' is not "
       "a tensor parameter listed before it"},
      {"a map over a parameter after it",
       replaceOnce(base, R"("tensor": "query")",
                   R"("tensor": "value_tensor_map")"),
       "param 'query_tensor_map': tensor: 'value_tensor_map' is not a tensor "
       "parameter listed before it"},
      {"a map over a size",
       replaceOnce(base, R"("tensor": "value")", R"("tensor": "key_len")"),
       "tensor: 'key_len' is not a tensor parameter listed before it"},
      {"a map before other parameters", moved,
       "kernel 'attn_fwd_0': params[6]: a tensor map before params[9] "
       "('key_len') (tensor maps come after every other parameter)"},
      {"an output",
       replaceOnce(base, R"("tensor": "value")", R"("tensor": "output")"),
       "param 'value_tensor_map': tensor: 'output' is an output or a "
       "workspace (tensor maps load inputs)"},
      {"an i1 mask",
       replaceOnce(base, R"("tensor": "value")", R"("tensor": "mask")"),
       "tensor: 'mask' is i1 (tensor maps take f16, bf16 or f32)"},
      {"box of another rank",
       replaceOnce(
           base, valueMap,
           R"("tensor": "value", "box": [64, 128, 1], "swizzle": 128})"),
       "param 'value_tensor_map': box: expected an array of 4 extents (one "
       "per dimension of 'value', innermost first)"},
      {"box extent 0",
       replaceOnce(
           base, valueMap,
           R"("tensor": "value", "box": [64, 0, 1, 1], "swizzle": 128})"),
       "param 'value_tensor_map': box[1]: expected an integer from 1 to 256"},
      {"box extent past 256",
       replaceOnce(
           base, valueMap,
           R"("tensor": "value", "box": [64, 300, 1, 1], "swizzle": 128})"),
       "box[1]: expected an integer from 1 to 256, got 300"},
      {"box too wide for the swizzle",
       replaceOnce(
           base, valueMap,
           R"("tensor": "value", "box": [128, 128, 1, 1], "swizzle": 128})"),
       "param 'value_tensor_map': box[0] (the innermost extent) is 128 "
       "elements of 2 bytes = 256 bytes, more than the swizzle span (128 "
       "bytes)"},
      {"box row of 8 bytes",
       replaceOnce(
           base, valueMap,
           R"("tensor": "value", "box": [4, 128, 1, 1], "swizzle": 0})"),
       "box[0] (the innermost extent) is 4 elements of 2 bytes = 8 bytes, not "
       "a multiple of 16 bytes"},
      {"swizzle 96",
       replaceOnce(
           base, valueMap,
           R"("tensor": "value", "box": [64, 128, 1, 1], "swizzle": 96})"),
       "param 'value_tensor_map': swizzle: expected 0, 32, 64 or 128, got 96"},
      {"swizzle 256",
       replaceOnce(
           base, valueMap,
           R"("tensor": "value", "box": [64, 128, 1, 1], "swizzle": 256})"),
       "swizzle: expected 0, 32, 64 or 128"},
      {"no box",
       replaceOnce(base, valueMap, R"("tensor": "value", "swizzle": 128})"),
       "box"},
      {"an unknown field",
       replaceOnce(base, valueMap,
                   R"("tensor": "value", "mode": "tile", )"
                   R"("box": [64, 128, 1, 1], "swizzle": 128})"),
       "unknown field 'mode' in param 'value_tensor_map'"},
      {"a name listed twice",
       replaceOnce(base, R"("name": "value_tensor_map")",
                   R"("name": "key_tensor_map")"),
       "param 'key_tensor_map': listed twice"},
      {"the kind misspelt",
       replaceOnce(base, R"("name": "value_tensor_map", "kind": "tensor_map")",
                   R"("name": "value_tensor_map", "kind": "tensor-map")"),
       "kind: expected \"tensor\", \"u64\", \"i32\" or \"tensor_map\""},
  };
  for (const Bad &c : bad)
    expectError(
        std::string("tensor map: ") + c.what,
        [&] { parseManifest(c.text, "m.json"); }, c.want);
  // The swizzle span is the only limit on a row's width: 256 bytes
  // unswizzled is fine.
  const Manifest wide = parseManifest(
      replaceOnce(
          base, valueMap,
          R"("tensor": "value", "box": [128, 128, 1, 1], "swizzle": 0})"),
      "m.json");
  CHECK(wide.kernels[0].params.back().swizzle == 0, "swizzle 0, 256-byte box");
}

/// A forward kernel with run-time batch and lengths (runtime-sizes.json,
/// as attn-compile writes it for tensor<?x8x?x128xbf16> operands): parsed
/// with its sizes unbound, bound by bindSizes, and each rule broken once.
static void testRuntimeSizes() {
  const std::string base =
      readFile(manifestDir + "/runtime-sizes.json", "test");
  Manifest m = parseManifest(base, "m.json");
  CHECK(m.indexBits == 32 && hasRuntimeSizes(m), "index_bits, run-time sizes");
  if (m.kernels.size() != 1)
    return;
  const KernelSpec &k = m.kernels[0];
  CHECK(k.batch == kRuntimeSize && k.queryLen == kRuntimeSize &&
            k.keyLen == kRuntimeSize && k.grid[0] == 0 && k.grid[2] == 0 &&
            k.gridTile == 128,
        "unbound sizes and grid");
  const ParamSpec *ql = k.findParam("query_len");
  CHECK(ql && ql->kind == ParamSpec::Kind::I32, "query_len is an i32 param");

  RuntimeSizes sizes = parseRuntimeSizes("key_len=300,batch=3,query_len=1");
  CHECK(sizes.batch == 3 && sizes.queryLen == 1 && sizes.keyLen == 300,
        "parseRuntimeSizes");
  CHECK(runtimeSizesText(sizes) == "batch=3,query_len=1,key_len=300",
        "runtimeSizesText");
  KernelSpec b = bindSizes(k, sizes, m.indexBits);
  CHECK(!b.hasRuntimeSizes() && b.batch == 3 && b.queryLen == 1 &&
            b.keyLen == 300,
        "bound sizes");
  CHECK(b.grid == (std::array<uint32_t, 3>{1, 8, 3}), "bound grid");
  CHECK(b.maskShape == (std::array<int64_t, 4>{3, 1, 1, 300}), "bound mask");
  const ParamSpec *q = b.findParam("query"), *v = b.findParam("value"),
                  *mask = b.findParam("mask"), *lse = b.findParam("lse"),
                  *kl = b.findParam("key_len");
  CHECK(q && q->shape == (std::vector<int64_t>{3, 8, 1, 128}), "query shape");
  CHECK(v && v->shape == (std::vector<int64_t>{3, 2, 300, 128}), "value");
  CHECK(mask && mask->shape == (std::vector<int64_t>{3, 1, 1, 300}), "mask");
  CHECK(lse && lse->shape == (std::vector<int64_t>{3, 8, 1}), "lse shape");
  CHECK(kl && kl->sizeValue == 300, "key_len value");
  KernelSpec tall = bindSizes(k, parseRuntimeSizes("batch=1,query_len=257,"
                                                   "key_len=1"),
                              m.indexBits);
  CHECK(tall.grid == (std::array<uint32_t, 3>{3, 8, 1}), "ceil(257 / 128)");

  // Binding errors.
  expectError(
      "bind: missing size",
      [&] { bindSizes(k, parseRuntimeSizes("batch=1,query_len=4"), 32); },
      "kernel 'attn_fwd_0': no value for the run-time size key_len");
  expectError(
      "bind: batch past the grid",
      [&] {
        bindSizes(k, parseRuntimeSizes("batch=70000,query_len=4,key_len=4"),
                  32);
      },
      "batch = 70000: the grid has one block row per batch entry");
  expectError(
      "bind: 32-bit indices",
      [&] {
        bindSizes(k,
                  parseRuntimeSizes("batch=64,query_len=40000,key_len=4"),
                  32);
      },
      "'query' [64, 8, 40000, 128] has 2621440000 elements: the kernels' "
      "32-bit indices need fewer than 2^31");
  CHECK(bindSizes(k, parseRuntimeSizes("batch=64,query_len=40000,key_len=4"),
                  64)
                .queryLen == 40000,
        "64-bit indices take it");
  expectError(
      "bind: positions",
      [&] {
        bindSizes(k,
                  parseRuntimeSizes("batch=1,query_len=600000000,"
                                    "key_len=600000000"),
                  64);
      },
      "query_len + key_len = 1200000000: kernels with run-time sizes take "
      "at most 2^30 positions");
  for (const char *bad : {"batch", "batch=0", "batch=1,batch=2",
                          "heads=2", "query_len=x", "key_len=2147483648"})
    expectError(
        std::string("sizes: ") + bad, [&] { parseRuntimeSizes(bad); },
        std::string("sizes '") + bad + "'");

  // Manifest rules.
  struct Case {
    const char *what, *from, *to, *want;
  } cases[] = {
      {"grid not null", "\"grid\": [null, 8, null]", "\"grid\": [1, 8, null]",
       "grid: [1, 8, null] does not match the problem"},
      {"missing size param",
       ",\n        {\"name\": \"key_len\",   "
       "\"kind\": \"i32\"}",
       "",
       "params: missing parameter 'key_len' (the kernel's key_len is "
       "null: a run-time size)"},
      {"size param kind", "{\"name\": \"batch\",     \"kind\": \"i32\"}",
       "{\"name\": \"batch\",     \"kind\": \"u64\"}",
       "param 'batch': kind: expected \"i32\" for 'batch', got \"u64\""},
      {"size params order", "{\"name\": \"batch\",     \"kind\": \"i32\"},", "",
       "params[6]: missing parameter 'batch' before 'query_len' (the "
       "kernel's batch is null: a run-time size)"},
      {"mask static where dynamic",
       "\"mask\": {\"dtype\": \"i1\", "
       "\"shape\": [null, 1, 1, null]}",
       "\"mask\": {\"dtype\": \"i1\", \"shape\": [null, 1, 1, 300]}",
       "mask.shape[3] (key length): expected 1 or null, got 300"},
      {"no codegen",
       "\"codegen\": {\"kernel\": \"tensor-core\", \"mma\": \"wgmma\", "
       "\"block_q\": 128, \"block_kv\": 128, \"threads\": 384},",
       "", "a kernel with run-time sizes needs codegen.block_q"},
      {"index_bits", "\"index_bits\": 32,", "\"index_bits\": 16,",
       "index_bits: expected 32 or 64"},
  };
  for (const Case &c : cases) {
    std::string text = replaceOnce(base, c.from, c.to);
    expectError(
        std::string("runtime sizes: ") + c.what,
        [&] { parseManifest(text, "m.json"); }, c.want);
  }
  // A size parameter for a static size.
  const std::string doc = readFile(manifestDir + "/doc-example.json", "test");
  expectError(
      "runtime sizes: static size, size param",
      [&] {
        parseManifest(
            replaceOnce(doc, "\"shape\": [2, 8, 128]}",
                        "\"shape\": [2, 8, 128]},\n{\"name\": \"batch\", "
                        "\"kind\": \"i32\"}"),
            "m.json");
      },
      "param 'batch': listed, but the kernel's 'batch' is 2 (a size "
      "parameter is only for a run-time size, null)");
}

/// Backward groups with run-time sizes (runtime-sizes-grad.json, trimmed
/// from what attn-compile writes): attn_bwd_0 (prep, dkdv_dq, dq_convert)
/// with every size at run time and a mask, attn_bwd_3 (prep, dkdv with
/// key_block_parts 2, dq) with a static batch of 2; each after its forward
/// kernel. Parsed unbound, bound by bindSizes, and each new rule broken.
static void testRuntimeSizesGrad() {
  const std::string base =
      readFile(manifestDir + "/runtime-sizes-grad.json", "test");
  const std::string multiple = ", \"query_len_multiple\": 64";
  Manifest m = parseManifest(base, "m.json");
  CHECK(m.kernels.size() == 8 && hasRuntimeSizes(m), "8 kernels, run-time");
  const KernelSpec *prep0 = findKernel(m, "attn_bwd_prep_0"),
                   *dkdvdq0 = findKernel(m, "attn_bwd_dkdv_dq_0"),
                   *conv0 = findKernel(m, "attn_bwd_dq_convert_0"),
                   *dkdv3 = findKernel(m, "attn_bwd_dkdv_3");
  CHECK(prep0 && dkdvdq0 && conv0 && dkdv3, "the kernels");
  if (!prep0 || !dkdvdq0 || !conv0 || !dkdv3)
    return;
  CHECK(gradGroups(m).size() == 2, "two backward groups");
  CHECK(prep0->batch == kRuntimeSize && prep0->queryLen == kRuntimeSize &&
            prep0->keyLen == kRuntimeSize && prep0->grid[0] == 0 &&
            prep0->grid[2] == 0 && prep0->gridTile == 64,
        "unbound backward sizes and grid");
  CHECK(dkdv3->batch == 2 && dkdv3->grid[0] == 0 && dkdv3->grid[2] == 2 &&
            dkdv3->gridTile == 128 && dkdv3->gridParts == 2,
        "dkdv grid formula over key blocks, 2 parts");
  const ParamSpec *ws = prep0->findParam("dq_accum");
  CHECK(ws && ws->isWorkspace && ws->queryLenMultiple == 64 &&
            ws->shape == (std::vector<int64_t>{kRuntimeSize, 8, kRuntimeSize,
                                               128}),
        "unbound dq_accum");
  const ParamSpec *bp = prep0->findParam("batch");
  CHECK(bp && bp->kind == ParamSpec::Kind::I32 &&
            prep0->params.back().name == "key_len",
        "backward size params");

  // Bound: every kernel gets the same sizes (the static batch of group 3
  // ignores the 3 given).
  Manifest b = bindSizes(m, parseRuntimeSizes("batch=3,query_len=100,"
                                              "key_len=300"));
  CHECK(!hasRuntimeSizes(b), "all bound");
  const KernelSpec &f0 = *findKernel(b, "attn_fwd_0"),
                   &p0 = *findKernel(b, "attn_bwd_prep_0"),
                   &kv0 = *findKernel(b, "attn_bwd_dkdv_dq_0"),
                   &c0 = *findKernel(b, "attn_bwd_dq_convert_0"),
                   &p3 = *findKernel(b, "attn_bwd_prep_3"),
                   &kv3 = *findKernel(b, "attn_bwd_dkdv_3"),
                   &q3 = *findKernel(b, "attn_bwd_dq_3");
  auto shapeOf = [](const KernelSpec &k, const char *name) {
    const ParamSpec *p = k.findParam(name);
    return p ? p->shape : std::vector<int64_t>();
  };
  auto sizeOf = [](const KernelSpec &k, const char *name) {
    const ParamSpec *p = k.findParam(name);
    return p ? p->sizeValue : -1;
  };
  // Workspace rows: 100 rounded up to a multiple of 64.
  CHECK(shapeOf(p0, "row_dot") == (std::vector<int64_t>{3, 8, 128}),
        "row_dot rounded");
  CHECK(shapeOf(p0, "dq_accum") == (std::vector<int64_t>{3, 8, 128, 128}),
        "dq_accum rounded");
  CHECK(shapeOf(c0, "dq_accum") == shapeOf(p0, "dq_accum"),
        "one workspace shape in the group");
  CHECK(shapeOf(p3, "lse_log2") == (std::vector<int64_t>{2, 4, 128}),
        "static batch workspace");
  CHECK(shapeOf(c0, "grad_query") == (std::vector<int64_t>{3, 8, 100, 128}),
        "grad_query");
  CHECK(shapeOf(kv0, "grad_key") == (std::vector<int64_t>{3, 2, 300, 128}),
        "grad_key: key length");
  CHECK(shapeOf(kv3, "grad_value") == (std::vector<int64_t>{2, 4, 300, 128}),
        "grad_value: key length");
  CHECK(shapeOf(p0, "mask") == (std::vector<int64_t>{3, 1, 1, 300}) &&
            p0.maskShape == (std::array<int64_t, 4>{3, 1, 1, 300}),
        "backward mask");
  // The backward reads the forward's buffers: the same bound shapes.
  for (const char *n : {"query", "key", "value", "output", "lse", "mask"})
    CHECK(shapeOf(f0, n) == shapeOf(p0, n) && !shapeOf(f0, n).empty(),
          std::string("forward and backward ") + n);
  CHECK(sizeOf(p0, "batch") == 3 && sizeOf(kv0, "query_len") == 100 &&
            sizeOf(c0, "key_len") == 300 && sizeOf(q3, "query_len") == 100 &&
            !q3.findParam("batch"),
        "i32 values");
  // prep and dq_convert over query blocks of 64, dkdv_dq over key blocks of
  // 128, dkdv over 2 parts of key blocks of 128, dq over query blocks of
  // 128.
  CHECK(p0.grid == (std::array<uint32_t, 3>{2, 8, 3}), "prep grid");
  CHECK(kv0.grid == (std::array<uint32_t, 3>{3, 2, 3}), "dkdv_dq grid");
  CHECK(c0.grid == (std::array<uint32_t, 3>{2, 8, 3}), "dq_convert grid");
  CHECK(kv3.grid == (std::array<uint32_t, 3>{6, 4, 2}), "dkdv grid, parts");
  CHECK(q3.grid == (std::array<uint32_t, 3>{1, 4, 2}), "dq grid");
  // Exactly a multiple: no padding.
  KernelSpec even = bindSizes(*prep0, parseRuntimeSizes("batch=1,query_len="
                                                        "64,key_len=1"),
                              m.indexBits);
  CHECK(shapeOf(even, "row_dot") == (std::vector<int64_t>{1, 8, 64}),
        "64 stays 64");

  // The padded dq_accum passes 2^31 elements where grad_query does not.
  const RuntimeSizes tall = parseRuntimeSizes("batch=1,query_len=2097151,"
                                              "key_len=1");
  expectError(
      "bind: padded workspace, 32-bit indices",
      [&] { bindSizes(*conv0, tall, 32); },
      "kernel 'attn_bwd_dq_convert_0': 'dq_accum' [1, 8, 2097152, 128] has "
      "2147483648 elements: the kernels' 32-bit indices need fewer than "
      "2^31");
  CHECK(bindSizes(*conv0, tall, 64).findParam("dq_accum")->shape[2] ==
            2097152,
        "64-bit indices take it");
  // A huge query_len_multiple (up to 2^40 is a valid manifest) pads past
  // what int64 counts: refused, not wrapped around.
  {
    std::string huge = base;
    for (size_t at = huge.find(multiple); at != std::string::npos;
         at = huge.find(multiple, at))
      huge.replace(at, multiple.size(),
                   ", \"query_len_multiple\": 1099511627776");
    Manifest hm = parseManifest(huge, "m.json");
    expectError(
        "bind: padded workspace past int64",
        [&] {
          bindSizes(*findKernel(hm, "attn_bwd_prep_0"),
                    parseRuntimeSizes("batch=65535,query_len=1,key_len=1"),
                    64);
        },
        "kernel 'attn_bwd_prep_0': 'row_dot' [65535, 8, 1099511627776] has "
        "more than 2^56 elements");
  }
  expectError(
      "bind: backward batch past the grid",
      [&] {
        bindSizes(*dkdvdq0,
                  parseRuntimeSizes("batch=65536,query_len=1,key_len=1"), 64);
      },
      "kernel 'attn_bwd_dkdv_dq_0': batch = 65536: the grid has one block "
      "row per batch entry");
  expectError(
      "bind: backward missing size",
      [&] { bindSizes(*dkdv3, parseRuntimeSizes("query_len=4"), 32); },
      "kernel 'attn_bwd_dkdv_3': no value for the run-time size key_len");

  // Manifest rules. Each case edits the text after `marker` (a kernel's
  // name).
  const std::string prep0Line = "\"name\": \"attn_bwd_prep_0\"",
                    kvq0Line = "\"name\": \"attn_bwd_dkdv_dq_0\"",
                    conv0Line = "\"name\": \"attn_bwd_dq_convert_0\"",
                    prep3Line = "\"name\": \"attn_bwd_prep_3\"",
                    dkdv3Line = "\"name\": \"attn_bwd_dkdv_3\"",
                    dq3Line = "\"name\": \"attn_bwd_dq_3\"";
  struct Case {
    const char *what;
    std::string marker, from, to;
    const char *want;
  } cases[] = {
      {"backward null size without its param", dq3Line,
       ",\n        {\"name\": \"key_len\",    \"kind\": \"i32\"}", "",
       "kernel 'attn_bwd_dq_3': params: missing parameter 'key_len' (the "
       "kernel's key_len is null: a run-time size) (the \"dq\" parameters, "
       "in order: query, key, value, output, lse, grad_output, grad_query, "
       "query_len, key_len)"},
      {"backward size params order", prep0Line,
       "{\"name\": \"batch\",      \"kind\": \"i32\"},", "",
       "kernel 'attn_bwd_prep_0': params[10]: missing parameter 'batch' "
       "before 'query_len' (the kernel's batch is null: a run-time size) (the "
       "\"prep\" parameters, in order: query, key, value, output, lse, "
       "grad_output, mask, then its workspaces, then batch, query_len, "
       "key_len)"},
      {"backward size param for a static size", dq3Line,
       "{\"name\": \"query_len\"",
       "{\"name\": \"batch\", \"kind\": \"i32\"},\n{\"name\": \"query_len\"",
       "kernel 'attn_bwd_dq_3': param 'batch': listed, but the kernel's "
       "'batch' is 2 (a size parameter is only for a run-time size, null)"},
      {"backward size param kind", kvq0Line,
       "{\"name\": \"query_len\",  \"kind\": \"i32\"}",
       "{\"name\": \"query_len\",  \"kind\": \"u64\"}",
       "kernel 'attn_bwd_dkdv_dq_0': param 'query_len': kind: expected "
       "\"i32\" for 'query_len', got \"u64\""},
      {"backward size param before the outputs", conv0Line,
       "{\"name\": \"grad_query\"",
       "{\"name\": \"batch\", \"kind\": \"i32\"},\n{\"name\": \"grad_query\"",
       "kernel 'attn_bwd_dq_convert_0': params[8]: expected parameter "
       "'grad_query' here, got 'batch' (the \"dq_convert\" parameters, in "
       "order: query, key, value, output, lse, grad_output, mask, "
       "grad_query, batch, query_len, key_len)"},
      {"workspace after the size params", prep3Line,
       "\"kind\": \"i32\"}\n      ]",
       "\"kind\": \"i32\"},\n{\"name\": \"dq_accum\", \"kind\": \"tensor\", "
       "\"role\": \"workspace\", \"dtype\": \"f32\", \"shape\": [2, 4, "
       "null, 192], \"query_len_multiple\": 64}\n      ]",
       "kernel 'attn_bwd_prep_3': params[10]: workspace 'dq_accum' after the "
       "size parameter 'key_len' (workspaces come after the inputs and "
       "before the outputs) (the \"prep\" parameters, in order: query, key, "
       "value, output, lse, grad_output, then its workspaces, then "
       "query_len, key_len)"},
      {"backward grid not null", dkdv3Line, "\"grid\": [null, 4, 2]",
       "\"grid\": [4, 4, 2]",
       "kernel 'attn_bwd_dkdv_3': grid: [4, 4, 2] does not match the "
       "problem: a \"dkdv\" kernel runs one block per (key block part, kv "
       "head, batch) = (codegen.key_block_parts * ceil(key_len / "
       "codegen.block_kv), kv_heads, batch) = [null, 4, 2]"},
      {"workspace without query_len_multiple", prep0Line,
       "\"shape\": [null, 8, null]" + multiple, "\"shape\": [null, 8, null]",
       "kernel 'attn_bwd_prep_0': param 'row_dot': missing field "
       "'query_len_multiple' (shape[2] is null: the run-time query length "
       "rounded up to a multiple of query_len_multiple)"},
      {"query_len_multiple 0", prep0Line, multiple,
       ", \"query_len_multiple\": 0",
       "kernel 'attn_bwd_prep_0': param 'row_dot': query_len_multiple: "
       "expected a positive integer, got 0"},
      {"query_len_multiple negative", prep0Line, multiple,
       ", \"query_len_multiple\": -64",
       "param 'row_dot': query_len_multiple: expected a positive integer, "
       "got -64"},
      {"query_len_multiple not an integer", prep0Line, multiple,
       ", \"query_len_multiple\": \"64\"",
       "param 'row_dot': query_len_multiple: expected a positive integer, "
       "got \"64\""},
      {"query_len_multiple differs in the group", kvq0Line, multiple,
       ", \"query_len_multiple\": 128",
       "kernel 'attn_bwd_dkdv_dq_0': param 'row_dot': query_len_multiple "
       "128 differs from 64 in kernel 'attn_bwd_prep_0' of group "
       "'attn_bwd_0' (a workspace is one buffer shared by the group)"},
      {"workspace static where the query length is null", prep0Line,
       "\"shape\": [null, 8, null]" + multiple, "\"shape\": [null, 8, 128]",
       "kernel 'attn_bwd_prep_0': param 'row_dot': shape[2] is 128, but the "
       "kernel's query_len is null (a run-time size): expected null, the "
       "workspace grows with it"},
      {"workspace null head dimension", prep0Line,
       "\"shape\": [null, 8, null]" + multiple,
       "\"shape\": [null, null, null]" + multiple,
       "kernel 'attn_bwd_prep_0': param 'row_dot': shape[1] is null, but "
       "only dimension 0 (the batch) and 2 (the query length) of a "
       "workspace can be a run-time size"},
      {"workspace null batch where static", prep3Line,
       "\"shape\": [2, 4, null]" + multiple,
       "\"shape\": [null, 4, null]" + multiple,
       "kernel 'attn_bwd_prep_3': param 'row_dot': shape[0] is null, but the "
       "kernel's batch is 2 (null in a workspace stands for a run-time "
       "batch)"},
  };
  for (const Case &c : cases) {
    std::string text = replaceAfter(base, c.marker, c.from, c.to);
    expectError(
        std::string("runtime sizes backward: ") + c.what,
        [&] { parseManifest(text, "m.json"); }, c.want);
  }

  // query_len_multiple on a workspace with a static query length.
  const std::string grad =
      readFile(manifestDir + "/doc-grad-example.json", "test");
  expectError(
      "runtime sizes backward: query_len_multiple with a static dimension",
      [&] {
        parseManifest(
            replaceOnce(grad, "\"shape\": [2, 8, 256]}",
                        "\"shape\": [2, 8, 256], \"query_len_multiple\": "
                        "64}"),
            "m.json");
      },
      "param 'row_dot': query_len_multiple: only for a workspace whose "
      "shape[2] is null (a run-time query length), but shape is [2, 8, 256]");
  // A backward kernel with a run-time batch and no codegen tile has no grid
  // formula (the check the forward kernels have).
  expectError(
      "runtime sizes backward: no codegen",
      [&] {
        parseManifest(replaceOnce(grad, "\"batch\": 2,", "\"batch\": null,"),
                      "m.json");
      },
      "a kernel with run-time sizes needs codegen.block_q");
}

/// Packed forward kernels (varlen.json: attn_fwd_0 with every size at run
/// time, lse and Philox dropout, as the compiler writes it; attn_fwd_1 with
/// a static batch and token totals, no lse, no "mask" field): parsed, and
/// each rule broken once.
static void testVarlenManifests() {
  const std::string base = readFile(manifestDir + "/varlen.json", "test");
  Manifest m = parseManifest(base, "m.json");
  CHECK(m.kernels.size() == 2, "2 packed kernels");
  CHECK(!hasRuntimeSizes(m), "packed kernels are not --sizes kernels");
  if (m.kernels.size() != 2)
    return;
  const KernelSpec &k = m.kernels[0], &s = m.kernels[1];
  CHECK(k.isVarlen() && !k.isGrad() && std::string(opName(k.op)) ==
                                           "varlen_attention",
        "op");
  CHECK(k.batch == kRuntimeSize && k.totalQueryTokens == kRuntimeSize &&
            k.totalKeyTokens == kRuntimeSize && k.queryLen == kRuntimeSize &&
            k.keyLen == kRuntimeSize && k.hasRuntimeSizes(),
        "run-time sizes");
  CHECK(k.grid == (std::array<uint32_t, 3>{0, 8, 0}) && k.gridTile == 128,
        "unbound grid");
  CHECK(k.params.size() == 12 && k.hasLse && !k.hasMask, "params");
  const ParamSpec *cu = k.findParam("cu_seqlens_q"), *lse = k.findParam("lse");
  CHECK(cu && cu->dtype == DType::I32 && !cu->isOutput &&
            cu->shape == (std::vector<int64_t>{kRuntimeSize}),
        "cu_seqlens_q");
  CHECK(lse && lse->isOutput &&
            lse->shape == (std::vector<int64_t>{8, kRuntimeSize}),
        "lse [Hq, Tq]");
  CHECK(s.batch == 3 && s.totalQueryTokens == 300 &&
            s.totalKeyTokens == 500 && s.grid == (std::array<uint32_t, 3>{
                                                      0, 4, 3}) &&
            !s.hasLse && s.hasWindow && s.hasSoftcap && s.gridTile == 64,
        "static packed kernel");
  CHECK(s.findParam("cu_seqlens_k") &&
            s.findParam("cu_seqlens_k")->shape == (std::vector<int64_t>{4}),
        "static offsets shape [B + 1]");

  struct Case {
    const char *what, *from, *to, *want;
  } cases[] = {
      {"query_len not null", "\"query_len\": null, \"key_len\": null,",
       "\"query_len\": 128, \"key_len\": null,",
       "m.json:14:20: kernel 'attn_fwd_0': query_len: expected null for a "
       "\"varlen_attention\" kernel (each sequence's length comes from "
       "cu_seqlens_q / cu_seqlens_k), got 128 (number)"},
      {"missing total", "\"total_query_tokens\": null, ", "",
       "kernel 'attn_fwd_0': missing field 'total_query_tokens' in a packed "
       "kernel (\"op\": \"varlen_attention\")"},
      {"static total 0", "\"total_query_tokens\": 300", "\"total_query_tokens\": 0",
       "kernel 'attn_fwd_1': total_query_tokens: expected a positive integer "
       "or null (a run-time size), got 0"},
      {"mask", "\"mask\": null,",
       "\"mask\": {\"dtype\": \"i1\", \"shape\": [1, 1, 1, 1]},",
       "kernel 'attn_fwd_0': mask: a \"varlen_attention\" kernel takes none "
       "(a packed batch has no [B, Hq, Lq, Lk] score tensor to apply one "
       "to): expected null or no field, got an object"},
      {"dropout_mask", "\"has_lse\": false,",
       "\"has_lse\": false, \"dropout_mask\": {\"dtype\": \"i1\", \"shape\": "
       "[1, 1, 1, 1]},",
       "kernel 'attn_fwd_1': dropout_mask: a \"varlen_attention\" kernel "
       "takes none"},
      {"grid x", "\"grid\": [null, 8, null]", "\"grid\": [4, 8, null]",
       "kernel 'attn_fwd_0': grid[0]: expected null for a \"varlen_attention\" "
       "kernel (x = max(1, ceil(longest query sequence / codegen.block_q)), "
       "computed at launch from the offsets), got 4"},
      {"grid z", "\"grid\": [null, 8, null]", "\"grid\": [null, 8, 2]",
       "kernel 'attn_fwd_0': grid: [null, 8, 2] does not match the problem: "
       "a \"varlen_attention\" kernel runs one block per (query block of the "
       "longest sequence, query head, sequence) = (null: computed at launch, "
       "query_heads, batch) = [null, 8, null]"},
      {"grid y", "\"grid\": [null, 4, 3]", "\"grid\": [null, 1, 3]",
       "kernel 'attn_fwd_1': grid: [null, 1, 3] does not match the problem"},
      {"no block_q", "\"block_q\": 128, ", "",
       "kernel 'attn_fwd_0': a \"varlen_attention\" kernel needs "
       "codegen.block_q (its grid is computed at launch from the longest "
       "sequence)"},
      {"offsets dtype", "\"dtype\": \"i32\",  \"shape\": [null]}",
       "\"dtype\": \"f32\",  \"shape\": [null]}",
       "kernel 'attn_fwd_0': param 'cu_seqlens_q': dtype: expected i32 "
       "(sequence offsets are i32), got f32"},
      {"offsets shape", "\"shape\": [4]}", "\"shape\": [3]}",
       "kernel 'attn_fwd_1': param 'cu_seqlens_q': shape [3] does not match "
       "[batch + 1] = [4]"},
      {"query shape", "\"shape\": [null, 8, 128]}",
       "\"shape\": [null, 8, null, 128]}",
       "param 'query': shape [null, 8, null, 128] does not match "
       "[total_query_tokens, query_heads, head_dim] = [null, 8, 128]"},
      {"key shape", "\"shape\": [500, 4, 64]}", "\"shape\": [300, 4, 64]}",
       "param 'key': shape [300, 4, 64] does not match [total_key_tokens, "
       "kv_heads, head_dim] = [500, 4, 64]"},
      {"lse shape", "\"shape\": [8, null]}", "\"shape\": [null, 8]}",
       "param 'lse': shape [null, 8] does not match [query_heads, "
       "total_query_tokens] = [8, null]"},
      {"lse role", "\"role\": \"output\", \"dtype\": \"f32\"",
       "\"role\": \"input\", \"dtype\": \"f32\"",
       "param 'lse': role: expected \"output\" for 'lse', got \"input\""},
      {"missing size param",
       ",\n        {\"name\": \"total_key_tokens\",   \"kind\": \"i32\"}", "",
       "kernel 'attn_fwd_0': params: missing parameter 'total_key_tokens' "
       "(the kernel's total_key_tokens is null: a run-time size) (the "
       "\"varlen_attention\" parameters, in order: query, key, value, "
       "cu_seqlens_q, cu_seqlens_k, seed, offset, output, lse, batch, "
       "total_query_tokens, total_key_tokens)"},
      {"size param kind", "{\"name\": \"batch\",              \"kind\": \"i32\"}",
       "{\"name\": \"batch\",              \"kind\": \"u64\"}",
       "param 'batch': kind: expected \"i32\" for 'batch', got \"u64\""},
      {"size param for a static size",
       "\"shape\": [300, 4, 64]}\n      ]",
       "\"shape\": [300, 4, 64]},\n{\"name\": \"batch\", \"kind\": \"i32\"}]",
       "kernel 'attn_fwd_1': param 'batch': listed, but the kernel's 'batch' "
       "is 3 (a size parameter is only for a run-time size, null)"},
      {"offsets order", "{\"name\": \"cu_seqlens_q\",       ",
       "{\"name\": \"cu_seqlens_x\",       ",
       "params[3].name: unknown parameter \"cu_seqlens_x\" for a "
       "\"varlen_attention\" kernel"},
      {"a mask param", "{\"name\": \"cu_seqlens_k\",       ",
       "{\"name\": \"mask\",       ",
       "params[4].name: unknown parameter \"mask\" for a \"varlen_attention\" "
       "kernel (expected query, key, value, cu_seqlens_q, cu_seqlens_k, "
       "seed, offset, output, lse, batch, total_query_tokens or "
       "total_key_tokens)"},
      {"dropout without seed",
       "{\"name\": \"seed\",               \"kind\": \"u64\"},\n        "
       "{\"name\": \"offset\",             \"kind\": \"u64\"},\n        ",
       "",
       "kernel 'attn_fwd_0': params[5]: missing parameter 'seed' before "
       "'output' (dropout_p > 0 needs the seed and offset parameters)"},
      {"lse without has_lse", "\"has_lse\": true,", "\"has_lse\": false,",
       "kernel 'attn_fwd_0': param 'lse': listed, but has_lse is false"},
      {"lse missing",
       "{\"name\": \"lse\",                \"kind\": \"tensor\", \"role\": "
       "\"output\", \"dtype\": \"f32\",  \"shape\": [8, null]},\n        ",
       "",
       "params[8]: missing parameter 'lse' before 'batch' (has_lse is true)"},
  };
  for (const Case &c : cases) {
    std::string text = replaceOnce(base, c.from, c.to);
    expectError(
        std::string("varlen manifest: ") + c.what,
        [&] { parseManifest(text, "m.json"); }, c.want);
  }
  // Two offsets parameters swapped: the first out of place is named.
  {
    std::string text = swapText(base,
                                "{\"name\": \"cu_seqlens_q\",       \"kind\"",
                                "{\"name\": \"cu_seqlens_k\",       \"kind\"");
    expectError(
        "varlen manifest: offsets swapped",
        [&] { parseManifest(text, "m.json"); },
        "params[3]: expected parameter 'cu_seqlens_q' here, got "
        "'cu_seqlens_k'");
  }
  // The packed fields belong to packed kernels only.
  const std::string doc = readFile(manifestDir + "/doc-example.json", "test");
  expectError(
      "varlen manifest: total in a dense kernel",
      [&] {
        parseManifest(replaceOnce(doc, "\"batch\": 2,",
                                  "\"batch\": 2, \"total_query_tokens\": 4,"),
                      "m.json");
      },
      "total_query_tokens: only a packed kernel (\"op\": "
      "\"varlen_attention\" or \"varlen_attention_grad\") has this field");
  expectError(
      "varlen manifest: i32 mask dtype",
      [&] {
        parseManifest(replaceOnce(doc, "\"mask\": null",
                                  "\"mask\": {\"dtype\": \"i32\", \"shape\": "
                                  "[1, 1, 1, 1]}"),
                      "m.json");
      },
      "mask.dtype: unknown dtype \"i32\" (expected i1, f16, bf16 or f32)");
}

/// Offsets, length options and draws, and the binding of a packed kernel
/// (its sizes, shapes, size parameters and grid) with its limits.
static void testVarlenSequences() {
  // Offsets.
  const std::vector<int32_t> good = {0, 3, 3, 10};
  CHECK(seqlenOffsetsProblem(good.data(), good.size(), 3, 10).empty(),
        "valid offsets");
  struct {
    std::vector<int32_t> cu;
    int64_t batch, total;
    const char *want;
  } bad[] = {
      {{0, 3, 10}, 3, 10, "3 offsets for 3 sequences: expected batch + 1 = 4"},
      {{1, 3, 3, 10}, 3, 10, "cu[0] = 1: expected 0"},
      {{0, 3, 2, 10}, 3, 10,
       "cu[2] = 2 is less than cu[1] = 3 (offsets never decrease)"},
      {{0, 3, 3, 9}, 3, 10, "cu[3] = 9: expected the token total 10"},
      {{0}, 0, 0, "batch = 0: expected 1 to 65535 sequences"},
      {{0, 0}, 65536, 0, "batch = 65536: expected 1 to 65535 sequences"},
      {{0, 0}, 1, -1, "total = -1: expected 0 to 2^31 - 1 tokens"},
  };
  for (const auto &b : bad) {
    std::string got =
        seqlenOffsetsProblem(b.cu.data(), b.cu.size(), b.batch, b.total);
    CHECK(got.find(b.want) != std::string::npos,
          std::string("offsets: expected '") + b.want + "', got '" + got +
              "'");
  }
  expectError(
      "checkSeqlenOffsets", [&] { checkSeqlenOffsets({0, 5, 4}, 2, 4, "cu"); },
      "cu: cu[2] = 4 is less than cu[1] = 5");
  expectError(
      "checkSeqlenOffsets empty", [&] { checkSeqlenOffsets({}, 2, 4, "cu"); },
      "cu: no offsets");
  CHECK(offsetsFromLengths({3, 0, 7}, "t") == good, "offsetsFromLengths");
  CHECK(lengthsFromOffsets(good) == (std::vector<int64_t>{3, 0, 7}),
        "lengthsFromOffsets");
  expectError(
      "offsets: negative", [&] { offsetsFromLengths({3, -1}, "q"); },
      "q: length 1 is -1 (expected >= 0)");
  expectError(
      "offsets: i32", [&] { offsetsFromLengths({2147483647, 1}, "q"); },
      "q: the lengths add up to more than 2^31 - 1 tokens");
  expectError(
      "offsets: none", [&] { offsetsFromLengths({}, "q"); },
      "q: no sequence lengths");

  // --seqlens-q / --seqlens-dist.
  CHECK(parseSeqlens("3,0,7", "--seqlens-q") ==
            (std::vector<int64_t>{3, 0, 7}),
        "parseSeqlens");
  for (const char *text : {"", "3,,4", "-1", "x", "2147483648", "3,"})
    expectError(
        std::string("parseSeqlens '") + text + "'",
        [&] { parseSeqlens(text, "--seqlens-q"); },
        std::string("--seqlens-q '") + text + "': ");
  LongTail d = parseSeqlensDist("longtail:64:16:4096");
  CHECK(d.batch == 64 && d.minLen == 16 && d.maxLen == 4096,
        "parseSeqlensDist");
  for (const char *text : {"longtail:0:1:2", "longtail:2:0:5", "longtail:2:9:5",
                           "longtail:2:1", "uniform:2:1:5", "longtail:x:1:2"})
    expectError(
        std::string("parseSeqlensDist '") + text + "'",
        [&] { parseSeqlensDist(text); },
        std::string("--seqlens-dist '") + text + "': ");
  std::vector<int64_t> tail = longTailLengths(d, 7);
  bool inRange = tail.size() == 64;
  for (int64_t len : tail)
    inRange = inRange && len >= 16 && len <= 4096;
  CHECK(inRange && tail == longTailLengths(d, 7) &&
            tail != longTailLengths(d, 8),
        "longTailLengths: in range, a function of the seed");

  // The random split: a pure function of its arguments, summing to the
  // total (the draw attn-run printed for --sizes batch=4,query_len=1000 at
  // seed 1 on the machine that wrote this test).
  CHECK(randomSplit(1000, 4, 1, 2) == (std::vector<int64_t>{298, 72, 329, 301}),
        "randomSplit known answer");
  bool sums = true;
  for (uint64_t seed = 0; seed < 50; ++seed) {
    std::vector<int64_t> split = randomSplit(777, 1 + int64_t(seed % 9), seed);
    int64_t sum = 0;
    for (int64_t len : split)
      sums = sums && len >= 0;
    for (int64_t len : split)
      sum += len;
    sums = sums && sum == 777 && int64_t(split.size()) == 1 + int64_t(seed % 9);
  }
  CHECK(sums, "randomSplit: B non-negative lengths adding up to the total");
  CHECK(randomSplit(0, 3, 1) == (std::vector<int64_t>{0, 0, 0}),
        "randomSplit of nothing");
  CHECK(randomSplit(5, 1, 1) == (std::vector<int64_t>{5}), "one sequence");
  CHECK(lengthsText({1, 2, 3}) == "[1, 2, 3]", "lengthsText");
  CHECK(lengthsText({1, 2, 3, 4, 5, 6, 7}, 2, 2) ==
            "[1, 2, ... (3 more) ..., 6, 7]",
        "lengthsText abbreviated");

  Manifest m =
      parseManifest(readFile(manifestDir + "/varlen.json", "test"), "m.json");
  if (m.kernels.size() != 2)
    return;
  const KernelSpec &k = m.kernels[0], &s = m.kernels[1];

  // Where the lengths come from.
  SeqlenOptions o;
  RuntimeSizes none;
  SequenceDraw split = drawSequences(s, o, none, 3);
  int64_t sumQ = 0, sumK = 0;
  for (int64_t len : split.q)
    sumQ += len;
  for (int64_t len : split.k)
    sumK += len;
  CHECK(split.random && split.q.size() == 3 && split.k.size() == 3 &&
            sumQ == 300 && sumK == 500,
        "split of the static totals");
  SequenceDraw fromSizes =
      drawSequences(k, o, parseRuntimeSizes("batch=5,query_len=64,key_len=64"),
                    3);
  CHECK(fromSizes.q.size() == 5 && fromSizes.q == fromSizes.k,
        "split from --sizes; keys the same when Tq = Tk");
  expectError(
      "draw: nothing given",
      [&] { drawSequences(k, o, parseRuntimeSizes("batch=2"), 1); },
      "kernel 'attn_fwd_0': a packed kernel (varlen_attention) needs its "
      "sequence lengths: give --seqlens-q=L0,L1,... [--seqlens-k=...], or "
      "--seqlens-dist=longtail:B:MIN:MAX, or the sizes of a random split; no "
      "value for total_query_tokens (--sizes query_len=...), "
      "total_key_tokens (--sizes key_len=...)");
  o.q = {4, 5};
  SequenceDraw given = drawSequences(k, o, none, 1);
  CHECK(!given.random && given.q == o.q && given.k == o.q,
        "given lengths; keys default to them");
  o.q.clear();
  o.dist = d;
  CHECK(drawSequences(k, o, none, 7).q == tail, "long-tail draw");

  // Binding: sizes, shapes, size parameters and the grid.
  const std::vector<int32_t> cuQ = {0, 100, 100, 357}, cuK = {0, 50, 300, 301};
  KernelSpec b = bindSequences(k, cuQ, cuK, m.indexBits);
  CHECK(!b.hasRuntimeSizes() && b.batch == 3 && b.totalQueryTokens == 357 &&
            b.totalKeyTokens == 301 && b.queryLen == 257 && b.keyLen == 250,
        "bound sizes: longest sequences");
  CHECK(b.grid == (std::array<uint32_t, 3>{3, 8, 3}),
        "grid: ceil(257 / 128), Hq, B");
  const ParamSpec *q = b.findParam("query"), *v = b.findParam("value"),
                  *lse = b.findParam("lse"), *cq = b.findParam("cu_seqlens_q"),
                  *tk = b.findParam("total_key_tokens");
  CHECK(q && q->shape == (std::vector<int64_t>{357, 8, 128}), "query shape");
  CHECK(v && v->shape == (std::vector<int64_t>{301, 2, 128}), "value shape");
  CHECK(lse && lse->shape == (std::vector<int64_t>{8, 357}), "lse shape");
  CHECK(cq && cq->shape == (std::vector<int64_t>{4}), "offsets shape");
  CHECK(tk && tk->sizeValue == 301 && b.findParam("batch")->sizeValue == 3,
        "size parameters");
  CHECK(b.problem().queryLen == 357 && b.problem().batch == 3,
        "problem(): the PackedBatch convention");
  // FLOPs: per sequence; not halved (causal, but Lq_b != Lk_b).
  CHECK(b.forwardFlops() ==
                2.0 * 8 * (100.0 * 50 + 0.0 * 250 + 257.0 * 1) * 256 &&
            !b.flopsHalvedForCausal(),
        "packed FLOPs");
  KernelSpec same = bindSequences(k, cuQ, cuQ, 32);
  CHECK(same.flopsHalvedForCausal() &&
            same.forwardFlops() ==
                2.0 * 8 * (100.0 * 100 + 257.0 * 257) * 256 / 2,
        "packed FLOPs halved when every sequence has Lq_b = Lk_b");
  KernelSpec empty = bindSequences(k, {0, 0, 0}, {0, 7, 7}, 32);
  CHECK(empty.grid == (std::array<uint32_t, 3>{1, 8, 2}) &&
            empty.queryLen == 0 && empty.totalQueryTokens == 0,
        "no query token: one block in x");
  CHECK(bindSequences(s, {0, 100, 100, 300}, {0, 1, 499, 500}, 32).grid ==
            (std::array<uint32_t, 3>{4, 4, 3}),
        "static kernel: ceil(200 / 64)");

  expectError(
      "bind: static batch", [&] { bindSequences(s, {0, 300}, {0, 500}, 32); },
      "kernel 'attn_fwd_1': 1 sequences, but the kernel's batch is 3 (static "
      "in the manifest)");
  expectError(
      "bind: static total",
      [&] { bindSequences(s, {0, 100, 100, 299}, {0, 1, 2, 500}, 32); },
      "kernel 'attn_fwd_1': the query lengths add up to 299 tokens, but the "
      "kernel's total_query_tokens is 300 (static in the manifest)");
  expectError(
      "bind: key sequences", [&] { bindSequences(k, {0, 1, 2}, {0, 1}, 32); },
      "kernel 'attn_fwd_0': 2 query sequences but 1 key sequences");
  expectError(
      "bind: bad offsets", [&] { bindSequences(k, {0, 5, 4}, {0, 1, 2}, 32); },
      "kernel 'attn_fwd_0': cu_seqlens_q: cu[2] = 4 is less than cu[1] = 5");
  expectError(
      "bind: no sequence", [&] { bindSequences(k, {0}, {0}, 32); },
      "kernel 'attn_fwd_0': no sequences");
  expectError(
      "bind: not packed",
      [&] {
        bindSequences(
            parseManifest(readFile(manifestDir + "/runtime-sizes.json", "t"),
                          "m.json")
                .kernels[0],
            {0, 1}, {0, 1}, 32);
      },
      "not a packed kernel");
  expectError(
      "bind: 32-bit indices",
      [&] { bindSequences(k, {0, 3000000}, {0, 1}, 32); },
      "kernel 'attn_fwd_0': 'query' [3000000, 8, 128] has 3072000000 "
      "elements: the kernels' 32-bit indices need fewer than 2^31");
  CHECK(bindSequences(k, {0, 3000000}, {0, 1}, 64).totalQueryTokens ==
            3000000,
        "64-bit indices take it");
  expectError(
      "bind: positions",
      [&] { bindSequences(k, {0, 600000000}, {0, 600000000}, 64); },
      "kernel 'attn_fwd_0': sequence 0: query length 600000000 + key length "
      "600000000 = 1200000000: kernels with run-time sizes take at most 2^30 "
      "positions");
  // bindSizes leaves packed kernels to bindSequences.
  CHECK(bindSizes(m, parseRuntimeSizes("batch=2,query_len=8,key_len=8"))
                .kernels[0]
                .hasRuntimeSizes(),
        "bindSizes skips packed kernels");
}

//===----------------------------------------------------------------------===//
// Packed backward kernels (varlen_attention_grad)
//===----------------------------------------------------------------------===//

/// test/manifests/varlen-grad.json: a packed forward with its atomic
/// backward group (every size at run time, dropout), and a static separate
/// group (split dkdv, window, softcap): accepted, then one broken rule each.
static void testVarlenGradManifests() {
  const std::string base = readFile(manifestDir + "/varlen-grad.json", "test");
  Manifest m = parseManifest(base, "m.json");
  CHECK(m.kernels.size() == 7, "7 kernels");
  if (m.kernels.size() != 7)
    return;
  const KernelSpec &prep0 = m.kernels[1], &kvq0 = m.kernels[2],
                   &prep1 = m.kernels[4], &dkdv1 = m.kernels[5];
  CHECK(kvq0.isGrad() && kvq0.isVarlen() &&
            std::string(opName(kvq0.op)) == "varlen_attention_grad" &&
            kvq0.stage == GradStage::DKDVDQ && kvq0.forward == "attn_fwd_0",
        "op, stage, forward");
  CHECK(gradGroups(m).size() == 2 && gradGroups(m)[0].kernels.size() == 3,
        "two packed groups");
  CHECK(kvq0.grid == (std::array<uint32_t, 3>{0, 2, 0}) &&
            kvq0.gridTile == 128 && kvq0.gridParts == 1,
        "dkdv_dq grid: [null, kv_heads, null] over block_kv");
  CHECK(dkdv1.grid == (std::array<uint32_t, 3>{0, 2, 3}) &&
            dkdv1.gridTile == 64 && dkdv1.gridParts == 2,
        "static split dkdv grid");
  const ParamSpec *rd0 = prep0.findParam("row_dot"),
                  *acc0 = prep0.findParam("dq_accum"),
                  *rd1 = prep1.findParam("row_dot");
  CHECK(rd0 && rd0->isWorkspace &&
            rd0->shape == (std::vector<int64_t>{8, kRuntimeSize}) && acc0 &&
            acc0->shape == (std::vector<int64_t>{8, kRuntimeSize, 128}) &&
            acc0->queryLenMultiple == 0,
        "run-time workspaces [Hq, null] and [Hq, null, D]");
  CHECK(rd1 && rd1->shape == (std::vector<int64_t>{4, 504}),
        "static workspace: W = 4 * 75 + 68 * 3 = 504");

  struct Case {
    const char *what, *marker, *from, *to, *want;
  } cases[] = {
      {"workspace not W", "attn_bwd_prep_1", "[4, 504]", "[4, 512]",
       "kernel 'attn_bwd_prep_1': param 'row_dot': shape [4, 512] does not "
       "match [query_heads, W] (W = 4 * ceil(total_query_tokens / 4) + 68 * "
       "batch) = [4, 504]"},
      {"static W for a run-time one", "attn_bwd_prep_0", "[8, null, 128]",
       "[8, 1000, 128]",
       "kernel 'attn_bwd_prep_0': param 'dq_accum': shape [8, 1000, 128] "
       "does not match [query_heads, W, head_dim] (W = 4 * "
       "ceil(total_query_tokens / 4) + 68 * batch) = [8, null, 128]"},
      {"query_len_multiple", "attn_bwd_prep_0",
       "\"workspace\", \"dtype\": \"f32\", \"shape\": [8, null]}",
       "\"workspace\", \"dtype\": \"f32\", \"shape\": [8, null], "
       "\"query_len_multiple\": 64}",
       "kernel 'attn_bwd_prep_0': unknown field 'query_len_multiple' in "
       "param 'row_dot'"},
      {"missing cu_seqlens_k", "attn_bwd_dq_convert_0",
       "{\"name\": \"cu_seqlens_k\", \"kind\": \"tensor\", \"role\": "
       "\"input\", \"dtype\": \"i32\", \"shape\": [null]},",
       "",
       "kernel 'attn_bwd_dq_convert_0': params[7]: missing parameter "
       "'cu_seqlens_k' before 'seed' (the packed \"dq_convert\" parameters, "
       "in order: query, key, value, output, lse, grad_output, cu_seqlens_q, "
       "cu_seqlens_k, seed, offset, grad_query, batch, total_query_tokens, "
       "total_key_tokens)"},
      {"missing size parameter", "attn_bwd_dq_convert_0",
       ",\n        {\"name\": \"total_key_tokens\", \"kind\": \"i32\"}", "",
       "kernel 'attn_bwd_dq_convert_0': params: missing parameter "
       "'total_key_tokens' (the kernel's total_key_tokens is null: a "
       "run-time size)"},
      {"grid x not null", "attn_bwd_dkdv_dq_0", "[null, 2, null]",
       "[2, 2, null]",
       "kernel 'attn_bwd_dkdv_dq_0': grid[0]: expected null for a packed "
       "\"dkdv_dq\" kernel (\"op\": \"varlen_attention_grad\") (x = max(1, "
       "ceil(longest key sequence / codegen.block_kv)) * "
       "codegen.key_block_parts, computed at launch from the offsets), got "
       "2"},
      {"grid y of a key-block stage", "attn_bwd_dkdv_dq_0", "[null, 2, null]",
       "[null, 8, null]",
       "kernel 'attn_bwd_dkdv_dq_0': grid: [null, 8, null] does not match "
       "the problem: a packed \"dkdv_dq\" kernel (\"op\": "
       "\"varlen_attention_grad\") runs one block per (key block of the "
       "longest sequence, kv head, sequence) = (null: computed at launch, "
       "kv_heads, batch) = [null, 2, null]"},
      {"grid z static", "attn_bwd_dq_1", "[null, 4, 3]", "[null, 4, 2]",
       "kernel 'attn_bwd_dq_1': grid: [null, 4, 2] does not match"},
      {"no block_kv", "attn_bwd_dkdv_1", "\"block_kv\": 64, ", "",
       "kernel 'attn_bwd_dkdv_1': a packed \"dkdv\" kernel (\"op\": "
       "\"varlen_attention_grad\") needs codegen.block_kv"},
      {"a mask parameter", "attn_bwd_dq_1", "{\"name\": \"cu_seqlens_q\"",
       "{\"name\": \"mask\"",
       "kernel 'attn_bwd_dq_1': params[6].name: unknown parameter \"mask\" "
       "for a \"varlen_attention_grad\" kernel (expected query, key, value, "
       "output, lse, grad_output, cu_seqlens_q, cu_seqlens_k, seed, offset, "
       "grad_query, grad_key, grad_value, batch, total_query_tokens, "
       "total_key_tokens or a workspace: row_dot, lse_log2, dq_accum)"},
      {"dense lse", "attn_bwd_prep_0", "[8, null]}", "[null, 8]}",
       "kernel 'attn_bwd_prep_0': param 'lse': shape [null, 8] does not "
       "match [query_heads, total_query_tokens] = [8, null]"},
      {"lse an output", "attn_bwd_prep_0",
       "{\"name\": \"lse\", \"kind\": \"tensor\", \"role\": \"input\"",
       "{\"name\": \"lse\", \"kind\": \"tensor\", \"role\": \"output\"",
       "kernel 'attn_bwd_prep_0': param 'lse': role: expected \"input\" for "
       "'lse', got \"output\""},
      {"query_len", "attn_bwd_dq_1", "\"query_len\": null",
       "\"query_len\": 100",
       "kernel 'attn_bwd_dq_1': query_len: expected null for a "
       "\"varlen_attention_grad\" kernel"},
      {"grad_query in dkdv", "attn_bwd_dkdv_1", "{\"name\": \"grad_key\"",
       "{\"name\": \"grad_query\"",
       "kernel 'attn_bwd_dkdv_1': param 'grad_query': a \"dkdv\" kernel "
       "writes only grad_key and grad_value"},
      {"forward is a backward kernel", "attn_bwd_prep_0",
       "\"forward\": \"attn_fwd_0\"", "\"forward\": \"attn_bwd_prep_1\"",
       "kernel 'attn_bwd_prep_0': forward: kernel 'attn_bwd_prep_1' is a "
       "backward kernel (\"op\": \"varlen_attention_grad\"), not a forward "
       "one"},
      {"group of another problem", "attn_bwd_dq_convert_0",
       "\"dropout_p\": 0.1", "\"dropout_p\": 0.2",
       "forward: kernel 'attn_fwd_0' has dropout_p = 0.100000001, this "
       "kernel 0.200000003"},
  };
  for (const Case &c : cases)
    expectError(
        std::string("packed backward manifest: ") + c.what,
        [&] {
          parseManifest(replaceAfter(base, c.marker, c.from, c.to), "m.json");
        },
        c.want);
  expectError(
      "packed backward manifest: inputs out of order",
      [&] {
        parseManifest(
            swapText(base,
                     "{\"name\": \"grad_output\", \"kind\": \"tensor\", "
                     "\"role\": \"input\", \"dtype\": \"bf16\", \"shape\": "
                     "[null, 8, 128]}",
                     "{\"name\": \"cu_seqlens_q\", \"kind\": \"tensor\", "
                     "\"role\": \"input\", \"dtype\": \"i32\", \"shape\": "
                     "[null]}"),
            "m.json");
      },
      "kernel 'attn_bwd_prep_0': params[5]: expected parameter "
      "'grad_output' here, got 'cu_seqlens_q' (the packed \"prep\" "
      "parameters, in order: query, key, value, output, lse, grad_output, "
      "cu_seqlens_q, cu_seqlens_k, seed, offset, then its workspaces, then "
      "batch, total_query_tokens, total_key_tokens)");
  // A packed backward needs a packed forward: the dense forward of
  // doc-example.json, added to the manifest, is refused.
  {
    const std::string doc = readFile(manifestDir + "/doc-example.json", "test");
    const size_t from = doc.find('{', doc.find("\"kernels\""));
    const size_t to = doc.rfind("}", doc.rfind(']'));
    std::string dense = replaceOnce(doc.substr(from, to + 1 - from),
                                    "\"attn_fwd_0\"", "\"attn_fwd_dense\"");
    std::string text = replaceOnce(base, "\"kernels\": [\n",
                                   "\"kernels\": [\n" + dense + ",\n");
    text = replaceAfter(text, "attn_bwd_prep_0", "\"forward\": \"attn_fwd_0\"",
                        "\"forward\": \"attn_fwd_dense\"");
    expectError(
        "packed backward manifest: dense forward",
        [&] { parseManifest(text, "m.json"); },
        "kernel 'attn_bwd_prep_0': forward: kernel 'attn_fwd_dense' is a "
        "dense forward kernel (\"op\": \"attention\"), but this "
        "\"varlen_attention_grad\" kernel needs a \"varlen_attention\" "
        "forward");
  }
}

/// W, shapes, per-stage grids and size parameters of packed backward
/// kernels bound to sequence lengths, with empty sequences and limits.
static void testVarlenGradSequences() {
  CHECK(packedWorkspaceRows(300, 3) == 504 && packedWorkspaceRows(0, 1) == 68 &&
            packedWorkspaceRows(5, 2) == 8 + 136 &&
            packedWorkspaceRows(kRuntimeSize, 2) == kRuntimeSize &&
            packedWorkspaceRows(8, kRuntimeSize) == kRuntimeSize,
        "packedWorkspaceRows: 4 * ceil(Tq / 4) + 68 * B");
  Manifest m = parseManifest(
      readFile(manifestDir + "/varlen-grad.json", "test"), "m.json");
  if (m.kernels.size() != 7)
    return;
  const KernelSpec &fwd = m.kernels[0], &prep0 = m.kernels[1],
                   &kvq0 = m.kernels[2], &conv0 = m.kernels[3],
                   &prep1 = m.kernels[4], &dkdv1 = m.kernels[5],
                   &dq1 = m.kernels[6];
  auto shapeOf = [](const KernelSpec &k, const char *name) {
    const ParamSpec *p = k.findParam(name);
    return p ? p->shape : std::vector<int64_t>{};
  };
  using Grid = std::array<uint32_t, 3>;

  const std::vector<int32_t> cuQ = {0, 100, 100, 357}, cuK = {0, 50, 300, 301};
  KernelSpec b = bindSequences(kvq0, cuQ, cuK, m.indexBits);
  // W = 4 * ceil(357 / 4) + 68 * 3 = 360 + 204.
  CHECK(!b.hasRuntimeSizes() && b.batch == 3 && b.queryLen == 257 &&
            b.keyLen == 250,
        "bound sizes");
  CHECK(b.grid == (Grid{2, 2, 3}), "dkdv_dq grid: ceil(250 / 128), Hkv, B");
  CHECK(shapeOf(b, "dq_accum") == (std::vector<int64_t>{8, 564, 128}) &&
            shapeOf(b, "row_dot") == (std::vector<int64_t>{8, 564}),
        "workspaces [Hq, W, D], [Hq, W]");
  CHECK(shapeOf(b, "grad_key") == (std::vector<int64_t>{301, 2, 128}) &&
            shapeOf(b, "grad_output") == (std::vector<int64_t>{357, 8, 128}) &&
            shapeOf(b, "lse") == (std::vector<int64_t>{8, 357}) &&
            shapeOf(b, "cu_seqlens_k") == (std::vector<int64_t>{4}),
        "packed tensor shapes");
  CHECK(b.findParam("batch")->sizeValue == 3 &&
            b.findParam("total_query_tokens")->sizeValue == 357 &&
            b.findParam("total_key_tokens")->sizeValue == 301,
        "size parameters");
  CHECK(b.flops() == 2.0 * 8 * (100.0 * 50 + 257.0 * 1) * (3 * 128 + 2 * 128),
        "dkdv_dq FLOPs: the sum over sequences");
  CHECK(bindSequences(prep0, cuQ, cuK, 32).grid == (Grid{5, 8, 3}) &&
            bindSequences(conv0, cuQ, cuK, 32).grid == (Grid{5, 8, 3}),
        "prep, dq_convert grids: ceil(257 / 64), Hq, B");
  CHECK(bindSequences(fwd, cuQ, cuK, 32).grid == (Grid{3, 8, 3}),
        "the forward of the same lengths: ceil(257 / 128)");

  // Static group: split dkdv (key_block_parts 2), 128-row dq.
  const std::vector<int32_t> sq = {0, 100, 100, 300}, sk = {0, 1, 499, 500};
  CHECK(bindSequences(dkdv1, sq, sk, 32).grid == (Grid{16, 2, 3}),
        "split dkdv: 2 * ceil(498 / 64)");
  CHECK(bindSequences(dq1, sq, sk, 32).grid == (Grid{2, 4, 3}) &&
            bindSequences(prep1, sq, sk, 32).grid == (Grid{4, 4, 3}),
        "dq ceil(200 / 128), prep ceil(200 / 64)");
  CHECK(shapeOf(bindSequences(prep1, sq, sk, 32), "lse_log2") ==
            (std::vector<int64_t>{4, 504}),
        "static W unchanged");

  // Empty sequences: no keys anywhere, no queries anywhere, one sequence.
  CHECK(bindSequences(kvq0, {0, 5, 9}, {0, 0, 0}, 32).grid == (Grid{1, 2, 2}),
        "Lk_b = 0 everywhere: one key block in x");
  CHECK(bindSequences(conv0, {0, 5, 9}, {0, 0, 0}, 32).grid == (Grid{1, 8, 2}),
        "Lk_b = 0: dq_convert over the queries");
  KernelSpec noQueries = bindSequences(prep0, {0, 0}, {0, 7}, 32);
  CHECK(noQueries.grid == (Grid{1, 8, 1}) &&
            shapeOf(noQueries, "row_dot") == (std::vector<int64_t>{8, 68}) &&
            shapeOf(noQueries, "query") == (std::vector<int64_t>{0, 8, 128}),
        "B = 1, Lq_b = 0: x = 1, W = 68");
  CHECK(bindSequences(kvq0, {0, 0}, {0, 7}, 32).grid == (Grid{1, 2, 1}),
        "Lq_b = 0: dkdv_dq still runs over the keys");
  CHECK(bindSequences(dkdv1, {0, 0, 0, 300}, {0, 0, 500, 500}, 32).grid ==
            (Grid{16, 2, 3}),
        "split dkdv, one sequence with every key");

  expectError(
      "packed backward bind: bad offsets",
      [&] {
        bindSequences(kvq0, {0, 5, 4}, {0, 1, 2}, 32);
      },
      "kernel 'attn_bwd_dkdv_dq_0': cu_seqlens_q: cu[2] = 4 is less than "
      "cu[1] = 5");
  expectError(
      "packed backward bind: static batch",
      [&] {
        bindSequences(dq1, {0, 100, 200}, {0, 250, 500}, 32);
      },
      "kernel 'attn_bwd_dq_1': 2 sequences, but the kernel's batch is 3");
  // W pads Tq: the workspace passes 2^31 elements where query does not.
  expectError(
      "packed backward bind: 32-bit workspace",
      [&] {
        bindSequences(prep0, {0, 2097150}, {0, 1}, 32);
      },
      "kernel 'attn_bwd_prep_0': 'dq_accum' [8, 2097220, 128] has "
      "2147553280 elements: the kernels' 32-bit indices need fewer than "
      "2^31");
}

//===----------------------------------------------------------------------===//
// Split-KV forward groups (docs/kernel-manifest.md, "Split-KV forward groups")
//===----------------------------------------------------------------------===//

/// The two stages of a split-KV forward, static (with a backward group
/// naming the forward group) and with a run-time batch and key length:
/// parsed, grouped, bound; then one broken variant per rule.
static void testSplitKVManifests() {
  const std::string base = readFile(manifestDir + "/split-kv.json", "test");
  const std::string dyn =
      readFile(manifestDir + "/split-kv-runtime.json", "test");
  Manifest m = parseManifest(base, "m.json");
  Manifest d = parseManifest(dyn, "d.json");
  CHECK(m.kernels.size() == 4 && d.kernels.size() == 2, "kernel counts");
  if (m.kernels.size() != 4 || d.kernels.size() != 2)
    return;
  using Grid = std::array<uint32_t, 3>;
  const KernelSpec &split = m.kernels[0], &combine = m.kernels[1],
                   &dkdv = m.kernels[2];
  CHECK(split.op == KernelOp::Attention && !split.isGrad() &&
            split.stage == GradStage::SplitKV && split.isForwardStage() &&
            combine.stage == GradStage::Combine &&
            std::string(stageName(split.stage)) == "split_kv" &&
            std::string(stageName(combine.stage)) == "combine" &&
            split.group == "attn_fwd_0" && combine.group == "attn_fwd_0" &&
            split.splits == 8 && combine.splits == 8,
        "stages, group, splits");
  const ParamSpec *po = split.findParam("partial_output"),
                  *pl = combine.findParam("partial_lse");
  CHECK(po && po->isWorkspace && !po->isOutput &&
            po->shape == (std::vector<int64_t>{2, 8, 8, 1, 128}) && pl &&
            pl->isWorkspace && pl->shape == (std::vector<int64_t>{2, 8, 8, 1}),
        "workspaces [B, S, Hq, Lq, Dv] and [B, S, Hq, Lq]");
  CHECK(!split.findParam("output") && combine.findParam("output") &&
            combine.findParam("output")->isOutput && combine.findParam("lse"),
        "output and lse on combine only");
  CHECK(split.grid == (Grid{8, 2, 2}) && combine.grid == (Grid{2, 2, 1}),
        "grids (S, R * Hkv, B) and (ceil(Hq * Lq / 4), B, 1)");
  CHECK(split.flops() == split.forwardFlops() && combine.flops() == 0.0,
        "the products are split_kv's");
  std::vector<GradGroup> fg = forwardGroups(m);
  CHECK(fg.size() == 1 && fg[0].name == "attn_fwd_0" &&
            fg[0].kernels.size() == 2 && fg[0].kernels[0] == &split &&
            fg[0].kernels[1] == &combine,
        "one forward group, split_kv then combine");
  CHECK(findForwardGroup(m, "attn_fwd_0").kernels.size() == 2 &&
            findForwardGroup(m, "attn_fwd_1").kernels.empty(),
        "findForwardGroup");
  CHECK(gradGroups(m).size() == 1 && gradGroups(m)[0].kernels.size() == 2 &&
            dkdv.forward == "attn_fwd_0",
        "the backward group names the forward group");

  // Run-time batch and key length: only the batch is a null grid entry
  // (z of split_kv, y of combine) and a null workspace dimension.
  const KernelSpec &ds = d.kernels[0], &dc = d.kernels[1];
  CHECK(ds.grid == (Grid{4, 8, 0}) && dc.grid == (Grid{16, 0, 1}) &&
            ds.findParam("partial_output")->shape ==
                (std::vector<int64_t>{kRuntimeSize, 4, 32, 2, 128}) &&
            !dc.findParam("lse") && dc.findParam("mask"),
        "run-time split-KV group");
  RuntimeSizes sizes;
  sizes.batch = 3;
  sizes.keyLen = 1000;
  Manifest bd = bindSizes(d, sizes);
  CHECK(bd.kernels[0].grid == (Grid{4, 8, 3}) &&
            bd.kernels[1].grid == (Grid{16, 3, 1}),
        "bound grids");
  CHECK(bd.kernels[1].findParam("partial_output")->shape ==
                (std::vector<int64_t>{3, 4, 32, 2, 128}) &&
            bd.kernels[0].findParam("partial_lse")->shape ==
                (std::vector<int64_t>{3, 4, 32, 2}) &&
            bd.kernels[0].findParam("key")->shape ==
                (std::vector<int64_t>{3, 8, 1000, 128}) &&
            bd.kernels[1].findParam("batch")->sizeValue == 3 &&
            bd.kernels[1].findParam("key_len")->sizeValue == 1000,
        "bound shapes and size parameters");

  const char *splitK = "\"attn_fwd_split_kv_0\"",
             *combineK = "\"attn_fwd_combine_0\"";
  struct Case {
    const char *what, *marker, *from, *to, *want;
  } cases[] = {
      {"wrong workspace shape", splitK, "[2, 8, 8, 1, 128]", "[2, 8, 8, 1, 64]",
       "m.json:31:101: kernel 'attn_fwd_split_kv_0': param 'partial_output': "
       "shape [2, 8, 8, 1, 64] does not match [batch, codegen.splits, "
       "query_heads, query_len, value_dim] = [2, 8, 8, 1, 128]"},
      {"missing splits", splitK, ", \"splits\": 8", "",
       "kernel 'attn_fwd_split_kv_0': a \"split_kv\" kernel needs "
       "codegen.splits (the key chunks S: its grid and the workspaces "
       "partial_output and partial_lse depend on it; null with "
       "codegen.split_rule where S is decided at launch)"},
      {"combine with wrong grid", combineK, "\"grid\": [2, 2, 1]",
       "\"grid\": [8, 2, 1]",
       "m.json:51:15: kernel 'attn_fwd_combine_0': grid: [8, 2, 1] does not "
       "match the problem: a \"combine\" kernel runs one block per (4 rows "
       "of (query head, query), batch) = (ceil(query_heads * query_len / "
       "4), batch, 1) = [2, 2, 1]"},
      {"split_kv with wrong grid", splitK, "\"grid\": [8, 2, 2]",
       "\"grid\": [8, 8, 2]",
       "kernel 'attn_fwd_split_kv_0': grid: [8, 8, 2] does not match the "
       "problem: a \"split_kv\" kernel runs one block per (chunk, row block, "
       "batch) = (codegen.splits, ceil(query_heads / kv_heads * query_len / "
       "codegen.block_q) * kv_heads, batch) = [8, 2, 2]"},
      {"output listed on split_kv", splitK, "\"shape\": [2, 8, 8, 1]}",
       "\"shape\": [2, 8, 8, 1]},\n        {\"name\": \"output\", \"kind\": "
       "\"tensor\", \"role\": \"output\", \"dtype\": \"bf16\", \"shape\": "
       "[2, 8, 1, 128]}",
       "kernel 'attn_fwd_split_kv_0': param 'output': listed, but a "
       "\"split_kv\" kernel writes only the workspaces partial_output and "
       "partial_lse (output is the \"combine\" stage's)"},
      {"backward stage name on a forward", splitK, "\"stage\": \"split_kv\"",
       "\"stage\": \"prep\"",
       "m.json:11:16: kernel 'attn_fwd_split_kv_0': stage: expected "
       "\"split_kv\" or \"combine\" for a forward kernel (\"op\": "
       "\"attention\"; the other stages are a backward kernel's), got "
       "\"prep\""},
      {"forward stage name on a backward kernel", "\"attn_bwd_dq_0\"",
       "\"stage\": \"dq\"", "\"stage\": \"combine\"",
       "kernel 'attn_bwd_dq_0': stage: expected \"prep\", \"dkdv\", \"dq\", "
       "\"dkdv_dq\" or \"dq_convert\", got \"combine\""},
      {"stage without group", splitK, "\"group\": \"attn_fwd_0\",", "",
       "kernel 'attn_fwd_split_kv_0': missing field 'group' in a split-KV "
       "forward stage (\"stage\": \"split_kv\")"},
      {"workspace role", combineK,
       "{\"name\": \"partial_lse\",    \"kind\": \"tensor\", \"role\": "
       "\"workspace\"",
       "{\"name\": \"partial_lse\",    \"kind\": \"tensor\", \"role\": "
       "\"input\"",
       "kernel 'attn_fwd_combine_0': param 'partial_lse': role: expected "
       "\"workspace\" for 'partial_lse', got \"input\""},
      {"a backward workspace", splitK, "\"name\": \"partial_lse\"",
       "\"name\": \"row_dot\"",
       "kernel 'attn_fwd_split_kv_0': params[4].name: unknown parameter "
       "\"row_dot\" for a \"split_kv\" kernel (expected query, key, value, "
       "mask, partial_output, partial_lse, output, lse, batch, query_len, "
       "key_len or num_splits)"},
      {"combine block", combineK,
       "\"block\": [128, 1, 1],\n      \"dynamic_shared_memory\": 0,\n      "
       "\"codegen\": {\"kernel\": \"cuda-core\", \"mma\": \"none\", "
       "\"threads\": 128",
       "\"block\": [256, 1, 1],\n      \"dynamic_shared_memory\": 0,\n      "
       "\"codegen\": {\"kernel\": \"cuda-core\", \"mma\": \"none\", "
       "\"threads\": 256",
       "kernel 'attn_fwd_combine_0': block: [256, 1, 1], but a \"combine\" "
       "kernel runs 128 threads, [128, 1, 1]"},
      {"combine shared memory", combineK, "\"dynamic_shared_memory\": 0",
       "\"dynamic_shared_memory\": 1024",
       "kernel 'attn_fwd_combine_0': dynamic_shared_memory: 1024 bytes, but "
       "a \"combine\" kernel uses none (expected 0)"},
      {"split_kv without shared memory", splitK,
       "\"dynamic_shared_memory\": 51200", "\"dynamic_shared_memory\": 0",
       "kernel 'attn_fwd_split_kv_0': dynamic_shared_memory: 0 bytes, but a "
       "\"split_kv\" kernel on tensor cores"},
      {"split_kv multiplying nothing", splitK, "\"mma\": \"mma.sync\"",
       "\"mma\": \"none\"",
       "kernel 'attn_fwd_split_kv_0': codegen.mma: \"none\" for a "
       "\"split_kv\" kernel on tensor cores (expected \"wgmma\" or "
       "\"mma.sync\")"},
      {"combine on tensor cores", combineK, "\"kernel\": \"cuda-core\"",
       "\"kernel\": \"tensor-core\"",
       "kernel 'attn_fwd_combine_0': codegen.kernel: \"tensor-core\" for a "
       "\"combine\" kernel (expected \"cuda-core\")"},
      {"split_kv without block_q", splitK, "\"block_q\": 64, ", "",
       "kernel 'attn_fwd_split_kv_0': a \"split_kv\" kernel needs "
       "codegen.block_q"},
      {"dropout", splitK, "\"dropout_p\": 0.0", "\"dropout_p\": 0.1",
       "kernel 'attn_fwd_split_kv_0': dropout_p: a split-KV forward stage "
       "has no dropout: expected 0, got 0.1"},
      {"combine in another group", combineK, "\"group\": \"attn_fwd_0\"",
       "\"group\": \"attn_fwd_1\"",
       "kernel 'attn_fwd_split_kv_0': group: group 'attn_fwd_0' has the "
       "kernels attn_fwd_split_kv_0 (split_kv); a split-KV forward group is "
       "one \"split_kv\" kernel followed by one \"combine\" kernel"},
      {"group has_lse", splitK, "\"has_lse\": true", "\"has_lse\": false",
       "kernel 'attn_fwd_combine_0': group: kernel 'attn_fwd_split_kv_0' of "
       "group 'attn_fwd_0' has has_lse = false, this kernel true"},
      {"group problem", combineK, "\"key_len\": 4096", "\"key_len\": 4095",
       "kernel 'attn_fwd_combine_0': param 'key': shape [2, 2, 4096, 128] "
       "does not match"},
      {"forward names a stage", "\"attn_bwd_dkdv_0\"",
       "\"forward\": \"attn_fwd_0\"", "\"forward\": \"attn_fwd_combine_0\"",
       "kernel 'attn_bwd_dkdv_0': forward: kernel 'attn_fwd_combine_0' is "
       "the \"combine\" stage of the split-KV forward group 'attn_fwd_0': "
       "name the group (\"forward\": \"attn_fwd_0\")"},
      {"forward unknown", "\"attn_bwd_dkdv_0\"", "\"forward\": \"attn_fwd_0\"",
       "\"forward\": \"attn_fwd_9\"",
       "kernel 'attn_bwd_dkdv_0': forward: no kernel named 'attn_fwd_9' in "
       "this manifest (its forward kernels: none; its split-KV forward "
       "groups: attn_fwd_0)"},
      {"forward group of another problem", "\"attn_bwd_dkdv_0\"",
       "\"scale\": 0.08838834764831845", "\"scale\": 0.125",
       "kernel 'attn_bwd_dkdv_0': forward: forward group 'attn_fwd_0' has "
       "scale = 0.0883883461, this kernel 0.125"},
      {"group named like a kernel", "\"attn_bwd_dkdv_0\"",
       "\"name\": \"attn_bwd_dq_0\"", "\"name\": \"attn_fwd_0\"",
       "kernel 'attn_fwd_split_kv_0': group: 'attn_fwd_0' is also the name "
       "of kernels[3]"},
  };
  for (const Case &c : cases)
    expectError(
        std::string("split-KV manifest: ") + c.what,
        [&] {
          parseManifest(replaceAfter(base, c.marker, c.from, c.to), "m.json");
        },
        c.want);

  // combine before split_kv: the two kernel objects exchanged.
  {
    const size_t a =
        base.find("    {\n      \"name\": \"attn_fwd_split_kv_0\"");
    const size_t b = base.find("    {\n      \"name\": \"attn_fwd_combine_0\"");
    const size_t e = base.find("    {\n      \"name\": \"attn_bwd_dkdv_0\"");
    CHECK(a < b && b < e && e != std::string::npos, "test bug: kernel order");
    if (a < b && b < e && e != std::string::npos)
      expectError(
          "split-KV manifest: combine before split_kv",
          [&] {
            parseManifest(base.substr(0, a) + base.substr(b, e - b) +
                              base.substr(a, b - a) + base.substr(e),
                          "m.json");
          },
          "kernel 'attn_fwd_combine_0': group: group 'attn_fwd_0' has the "
          "kernels attn_fwd_combine_0 (combine), attn_fwd_split_kv_0 "
          "(split_kv); a split-KV forward group is one \"split_kv\" kernel "
          "followed by one \"combine\" kernel (launched in manifest order)");
  }
  // The two stages with different splits (each consistent with its own
  // workspace shapes).
  {
    std::string text = base;
    for (const char *from :
         {"\"splits\": 8", "[2, 8, 8, 1, 128]", "\"shape\": [2, 8, 8, 1]}"}) {
      std::string to = from;
      to.replace(to.find('8'), 1, "4");
      if (std::string(from) != "\"splits\": 8")
        to = std::string(from).replace(std::string(from).find("8, 8"), 4,
                                       "4, 8");
      text = replaceAfter(text, combineK, from, to);
    }
    expectError(
        "split-KV manifest: mismatched splits",
        [&] { parseManifest(text, "m.json"); },
        "kernel 'attn_fwd_combine_0': group: kernel 'attn_fwd_split_kv_0' of "
        "group 'attn_fwd_0' has codegen.splits = 8, this kernel 4 (the "
        "stages of a split-KV group share the workspaces partial_output and "
        "partial_lse of codegen.splits chunks)");
  }
  // A backward group on a forward group that writes no lse.
  {
    std::string text = base;
    for (int i = 0; i < 2; ++i)
      text = replaceNth(text, "\"has_lse\": true", "\"has_lse\": false", 0);
    text = replaceOnce(text,
                       ",\n        {\"name\": \"lse\",            \"kind\": "
                       "\"tensor\", \"role\": \"output\",    \"dtype\": "
                       "\"f32\",  \"shape\": [2, 8, 1]}",
                       "");
    expectError(
        "split-KV manifest: forward group without lse",
        [&] { parseManifest(text, "m.json"); },
        "kernel 'attn_bwd_dkdv_0': forward: forward group 'attn_fwd_0' does "
        "not write lse (has_lse is false)");
  }
  // codegen.splits elsewhere: a forward kernel and a backward stage.
  expectError(
      "split-KV manifest: splits on a forward kernel",
      [&] {
        parseManifest(
            replaceOnce(readFile(manifestDir + "/runtime-sizes.json", "test"),
                        "\"threads\": 384}",
                        "\"threads\": 384, \"splits\": 4}"),
            "r.json");
      },
      "kernel 'attn_fwd_0': codegen.splits: only a stage of a split-KV "
      "forward group (\"split_kv\" or \"combine\") splits the keys, not a "
      "forward kernel");
  // (Fields sorted: the codegen after dkdv_dq's stage is dq_convert's.)
  expectError(
      "split-KV manifest: splits on a backward stage",
      [&] {
        parseManifest(
            replaceAfter(readFile(manifestDir + "/compiler-sm90a.json", "test"),
                         "\"stage\": \"dkdv_dq\"", "\"threads\": 128}",
                         "\"threads\": 128, \"splits\": 2}"),
            "c.json");
      },
      "codegen.splits: only a stage of a split-KV forward group (\"split_kv\" "
      "or \"combine\") splits the keys, not a \"dq_convert\" kernel");

  // Run-time sizes: a static batch in a workspace, a run-time query length.
  expectError(
      "split-KV manifest: static batch in a run-time workspace",
      [&] {
        parseManifest(replaceAfter(dyn, combineK, "[null, 4, 32, 2, 128]",
                                   "[3, 4, 32, 2, 128]"),
                      "d.json");
      },
      "kernel 'attn_fwd_combine_0': param 'partial_output': shape [3, 4, 32, "
      "2, 128] does not match [batch, codegen.splits, query_heads, "
      "query_len, value_dim] = [null, 4, 32, 2, 128]");
  expectError(
      "split-KV manifest: run-time query length",
      [&] {
        parseManifest(replaceAfter(dyn, splitK, "\"query_len\": 2",
                                   "\"query_len\": null"),
                      "d.json");
      },
      "kernel 'attn_fwd_split_kv_0': query_len: a split-KV forward stage has "
      "a static query length: expected a positive integer, got null");
  expectError(
      "split-KV manifest: combine grid y static with a run-time batch",
      [&] {
        parseManifest(replaceAfter(dyn, combineK, "\"grid\": [16, null, 1]",
                                   "\"grid\": [16, 3, 1]"),
                      "d.json");
      },
      "kernel 'attn_fwd_combine_0': grid: [16, 3, 1] does not match the "
      "problem: a \"combine\" kernel runs one block per (4 rows of (query "
      "head, query), batch) = (ceil(query_heads * query_len / 4), batch, 1) "
      "= [16, null, 1]");
  expectError(
      "split-KV manifest: query_len size parameter",
      [&] {
        parseManifest(replaceAfter(dyn, combineK,
                                   "{\"name\": \"key_len\",        \"kind\": "
                                   "\"i32\"}",
                                   "{\"name\": \"query_len\", \"kind\": "
                                   "\"i32\"}"),
                      "d.json");
      },
      "kernel 'attn_fwd_combine_0': param 'query_len': listed, but the "
      "kernel's 'query_len' is 2");
}

//===----------------------------------------------------------------------===//
// Split-KV groups whose split count is decided at launch
//===----------------------------------------------------------------------===//

/// The split rule (splitRuleCount) at several batches, key lengths and SM
/// counts: each term winning, the clamps at 1 and max_splits, Lk = 1.
static void testSplitRule() {
  const SplitRule rule{2, 64, 128}; // attn-compile's: two 4-warp blocks per SM
  struct Case {
    int64_t gridY, batch, keyLen, sms, want;
    const char *why;
  } cases[] = {
      {8, 2, 1000, 132, 8, "keys: ceil(1000 / 128) = 8 < floor(264 / 16)"},
      {8, 3, 4321, 132, 11, "wave: floor(264 / 24) = 11 < 34 chunks of keys"},
      {8, 1, 131072, 132, 33, "wave: floor(264 / 8) = 33"},
      {1, 1, 1000000, 132, 64, "clamped at max_splits (264 and 7813)"},
      {8, 40, 999, 132, 1, "clamped at 1: floor(264 / 320) = 0"},
      {8, 5, 70000, 132, 6, "wave: floor(264 / 40) = 6"},
      {8, 1, 1, 132, 1, "Lk = 1: one chunk"},
      {8, 1, 128, 132, 1, "Lk = min_chunk_keys: one chunk"},
      {8, 1, 129, 132, 2, "Lk = min_chunk_keys + 1: two chunks"},
      {8, 1, 100000, 1, 1, "one SM: floor(2 / 8) = 0, clamped at 1"},
      {8, 1, 100000, 16, 4, "16 SMs: floor(32 / 8) = 4"},
      {16, 2, 100000, 144, 9, "floor(288 / 32) = 9 (Lq = 2, G = 8: R = 1)"},
  };
  for (const Case &c : cases) {
    const int64_t got = splitRuleCount(rule, c.gridY, c.batch, c.keyLen, c.sms);
    CHECK(got == c.want, std::string(c.why) + ": got " + std::to_string(got) +
                             ", expected " + std::to_string(c.want));
  }
  // Other constants; products past int64 saturate instead of wrapping.
  CHECK(splitRuleCount({4, 32, 256}, 1, 3, 1000, 132) == 4 &&
            splitRuleCount({4, 32, 256}, 1, 3, 100000, 132) == 32 &&
            splitRuleCount({1, 7, 1}, 2, 2, 1000, 100) == 7,
        "other rule constants");
  CHECK(splitRuleCount({int64_t(1) << 40, 64, 128}, 1, 1, 1 << 20,
                       int64_t(1) << 40) == 64,
        "blocks_per_sm * SMs past int64: max_splits");
  expectError(
      "split rule without SMs", [&] { splitRuleCount(rule, 8, 2, 1000, 0); },
      "split rule: the SM count = 0 (expected at least 1)");
  expectError(
      "split rule with key_len 0", [&] { splitRuleCount(rule, 8, 2, 0, 132); },
      "split rule: key_len = 0 (expected at least 1)");
  expectError(
      "split rule without its constants",
      [&] { splitRuleCount(SplitRule(), 8, 2, 1000, 132); },
      "split rule: split_rule.blocks_per_sm = 0 (expected at least 1)");
}

/// test/manifests/split-kv-launch.json (two groups deciding S at launch:
/// run-time batch and key length; static batch 3 with a run-time key
/// length), bound to given counts and to the rule; then one broken variant
/// per rule of the form.
static void testSplitKVLaunch() {
  using Grid = std::array<uint32_t, 3>;
  using Shape = std::vector<int64_t>;
  const std::string base =
      readFile(manifestDir + "/split-kv-launch.json", "test");
  const std::string fixed =
      readFile(manifestDir + "/split-kv-runtime.json", "test");
  Manifest m = parseManifest(base, "l.json");
  CHECK(m.kernels.size() == 4, "kernel count");
  if (m.kernels.size() != 4)
    return;
  const KernelSpec &s0 = m.kernels[0], &c0 = m.kernels[1], &s1 = m.kernels[2],
                   &c1 = m.kernels[3];
  const SplitRule rule0{2, 64, 128}, rule1{2, 32, 256};
  CHECK(s0.splitsAtLaunch() && c0.splitsAtLaunch() && s1.splitsAtLaunch() &&
            s0.splits == kRuntimeSize && s0.splitRule == rule0 &&
            c0.splitRule == rule0 && s1.splitRule == rule1 &&
            c1.splitRule == rule1,
        "split counts at launch and their rules");
  CHECK(s0.grid == (Grid{0, 8, 0}) && c0.grid == (Grid{8, 0, 1}) &&
            s1.grid == (Grid{0, 1, 3}) && c1.grid == (Grid{4, 3, 1}),
        "grids: x of split_kv at launch");
  CHECK(s0.findParam("partial_output")->shape ==
                (Shape{kRuntimeSize, kRuntimeSize, 32, 1, 128}) &&
            c1.findParam("partial_lse")->shape ==
                (Shape{3, kRuntimeSize, 16, 1}),
        "workspaces null at dimension 1");
  CHECK(s0.params.back().name == "num_splits" &&
            s0.params.back().kind == ParamSpec::Kind::I32 &&
            c0.params.back().name == "num_splits" &&
            c1.params[c1.params.size() - 2].name == "key_len" &&
            c1.params.back().name == "num_splits",
        "num_splits after the size parameters");
  CHECK(forwardGroups(m).size() == 2 && !hasRuntimeSizes(Manifest()) &&
            hasRuntimeSizes(m),
        "two forward groups");

  // Given: S = 5 for both stages (grid x, workspaces, num_splits).
  RuntimeSizes sizes;
  sizes.batch = 2;
  sizes.keyLen = 1000;
  sizes.splits = 5;
  Manifest b = bindSizes(m, sizes);
  CHECK(b.kernels[0].splits == 5 && b.kernels[1].splits == 5 &&
            !b.kernels[0].splitsAtLaunch() && b.kernels[0].splitRule == rule0,
        "given S bound, the rule kept");
  CHECK(b.kernels[0].grid == (Grid{5, 8, 2}) &&
            b.kernels[1].grid == (Grid{8, 2, 1}) &&
            b.kernels[2].grid == (Grid{5, 1, 3}),
        "bound grids");
  CHECK(b.kernels[1].findParam("partial_output")->shape ==
                (Shape{2, 5, 32, 1, 128}) &&
            b.kernels[0].findParam("partial_lse")->shape ==
                (Shape{2, 5, 32, 1}) &&
            b.kernels[3].findParam("partial_output")->shape ==
                (Shape{3, 5, 16, 1, 128}) &&
            b.kernels[0].findParam("num_splits")->sizeValue == 5 &&
            b.kernels[1].findParam("num_splits")->sizeValue == 5 &&
            b.kernels[1].findParam("batch")->sizeValue == 2 &&
            b.kernels[1].findParam("key_len")->sizeValue == 1000 &&
            b.kernels[0].findParam("partial_output")->sizeBytes() ==
                uint64_t(2 * 5 * 32 * 128 * 4),
        "bound workspaces and parameters");
  // Not given: the sizes bound, S still to be decided; the rule then
  // decides per group, in place.
  sizes.splits = 0;
  Manifest r = bindSizes(m, sizes);
  CHECK(r.kernels[0].splitsAtLaunch() && r.kernels[0].grid == (Grid{0, 8, 2}) &&
            r.kernels[0].findParam("partial_output")->shape ==
                (Shape{2, kRuntimeSize, 32, 1, 128}) &&
            r.kernels[1].findParam("key_len")->sizeValue == 1000,
        "sizes bound, S left to the rule");
  CHECK(ruleSplits(r.kernels[0], 132) == 8 &&
            ruleSplits(r.kernels[2], 132) == 4,
        "ruleSplits: min(floor(264 / 16), ceil(1000 / 128)) = 8; "
        "min(floor(264 / 3), ceil(1000 / 256)) = 4");
  const KernelSpec *before = &r.kernels[2];
  bindSplitsByRule(r, 132);
  CHECK(&r.kernels[2] == before && r.kernels[0].splits == 8 &&
            r.kernels[1].splits == 8 && r.kernels[2].splits == 4 &&
            r.kernels[3].splits == 4 && r.kernels[0].grid == (Grid{8, 8, 2}) &&
            r.kernels[2].grid == (Grid{4, 1, 3}) &&
            r.kernels[1].findParam("num_splits")->sizeValue == 8 &&
            r.kernels[3].findParam("partial_lse")->shape ==
                (Shape{3, 4, 16, 1}),
        "bindSplitsByRule: each group its S, in place");
  // Without run-time sizes (all bound) S is still decided at launch.
  {
    RuntimeSizes keys;
    keys.keyLen = 1000;
    KernelSpec k = bindSizes(m.kernels[2], keys, 32);
    k = bindSizes(k, RuntimeSizes(), 32);
    CHECK(k.splitsAtLaunch() && k.keyLen == 1000, "nothing given: unchanged");
    RuntimeSizes only;
    only.splits = 3;
    k = bindSizes(k, only, 32);
    CHECK(k.splits == 3 && k.grid == (Grid{3, 1, 3}) &&
              k.findParam("num_splits")->sizeValue == 3,
          "static sizes, S given");
  }
  expectError(
      "split rule before the sizes", [&] { ruleSplits(m.kernels[0], 132); },
      "kernel 'attn_fwd_split_kv_0': the split rule needs the batch and key "
      "length (bind the run-time sizes first)");
  expectError(
      "split rule of a combine stage", [&] { ruleSplits(r.kernels[1], 132); },
      "kernel 'attn_fwd_combine_0': the split rule is for the \"split_kv\" "
      "stage of a group whose split count is decided at launch");
  // Given counts out of range, each group against its own max_splits.
  for (int64_t bad : {int64_t(65), int64_t(-1)}) {
    sizes.splits = bad;
    expectError(
        "num_splits " + std::to_string(bad), [&] { bindSizes(m, sizes); },
        "kernel 'attn_fwd_split_kv_0': num_splits = " + std::to_string(bad) +
            ": expected 1 to 64 (codegen.split_rule.max_splits)");
  }
  sizes.splits = 40;
  expectError(
      "num_splits above the second group's max_splits",
      [&] { bindSizes(m, sizes); },
      "kernel 'attn_fwd_split_kv_1': num_splits = 40: expected 1 to 32 "
      "(codegen.split_rule.max_splits)");
  // The workspaces grow with S: 32-bit indices are checked once S is known.
  sizes.batch = 8192;
  sizes.keyLen = 1;
  sizes.splits = 64;
  expectError(
      "workspace past 32-bit indices", [&] { bindSizes(m, sizes); },
      "kernel 'attn_fwd_split_kv_0': 'partial_output' [8192, 64, 32, 1, 128] "
      "has 2147483648 elements: the kernels' 32-bit indices need fewer than "
      "2^31");
  sizes.splits = 63;
  CHECK(bindSizes(m.kernels[0], sizes, 32)
                .findParam("partial_output")
                ->shape[1] == 63,
        "S = 63 at batch 8192 fits");
  // num_splits for a manifest whose split counts are compiled in.
  {
    Manifest f = parseManifest(fixed, "d.json");
    RuntimeSizes s;
    s.batch = 2;
    s.keyLen = 100;
    s.splits = 3;
    expectError(
        "num_splits for a static split count", [&] { bindSizes(f, s); },
        "'d.json': num_splits = 3 given, but no split-KV group of this "
        "manifest decides its split count at launch (codegen.splits null)");
    CHECK(bindSizes(f.kernels[0], s, 32).splits == 4,
          "a static split count ignores num_splits");
  }
  // --sizes text.
  {
    RuntimeSizes s = parseRuntimeSizes("batch=2,key_len=1000,num_splits=5");
    CHECK(s.batch == 2 && s.keyLen == 1000 && s.splits == 5 &&
              runtimeSizesText(s) == "batch=2,key_len=1000,num_splits=5",
          "parse num_splits");
    expectError(
        "num_splits=0", [&] { parseRuntimeSizes("num_splits=0"); },
        "sizes 'num_splits=0': 'num_splits' must be an integer in [1, 2^31 - "
        "1], got '0' (expected name=value[,name=value...] with names batch, "
        "query_len, key_len, num_pages, max_pages_per_seq, num_splits)");
  }

  const char *split0 = "\"attn_fwd_split_kv_0\"",
             *combine0 = "\"attn_fwd_combine_0\"";
  const std::string rule0Text =
      "\"split_rule\": {\"blocks_per_sm\": 2, \"max_splits\": 64, "
      "\"min_chunk_keys\": 128}";
  struct Case {
    const char *what, *marker, *from, *to, *want;
  } cases[] = {
      {"splits null without split_rule", split0,
       ", \"split_rule\": {\"blocks_per_sm\": 2, \"max_splits\": 64, "
       "\"min_chunk_keys\": 128}",
       "",
       "l.json:26:120: kernel 'attn_fwd_split_kv_0': codegen.splits: null "
       "(the split count decided at launch) needs codegen.split_rule, the "
       "split rule's constants {\"blocks_per_sm\": ..., \"max_splits\": ..., "
       "\"min_chunk_keys\": ...}"},
      {"split_rule with a number", split0, "\"splits\": null", "\"splits\": 4",
       "kernel 'attn_fwd_split_kv_0': codegen.split_rule: only for a split "
       "count decided at launch (codegen.splits null), but codegen.splits is "
       "4"},
      {"split_rule not an object", split0,
       "{\"blocks_per_sm\": 2, \"max_splits\": 64, \"min_chunk_keys\": 128}",
       "2",
       "kernel 'attn_fwd_split_kv_0': codegen.split_rule: expected an object "
       "{\"blocks_per_sm\": ..., \"max_splits\": ..., \"min_chunk_keys\": "
       "...}, got 2"},
      {"max_splits 0", split0, "\"max_splits\": 64", "\"max_splits\": 0",
       "kernel 'attn_fwd_split_kv_0': codegen.split_rule.max_splits: "
       "expected an integer in [1, 2^31 - 1] (S is the split_kv grid's x and "
       "an i32 parameter), got 0"},
      {"max_splits past i32", split0, "\"max_splits\": 64",
       "\"max_splits\": 2147483648",
       "codegen.split_rule.max_splits: expected an integer in [1, 2^31 - 1]"},
      {"blocks_per_sm fractional", split0, "\"blocks_per_sm\": 2",
       "\"blocks_per_sm\": 1.5",
       "kernel 'attn_fwd_split_kv_0': codegen.split_rule.blocks_per_sm: "
       "expected a positive integer, got 1.5"},
      {"min_chunk_keys negative", combine0, "\"min_chunk_keys\": 128",
       "\"min_chunk_keys\": -128",
       "kernel 'attn_fwd_combine_0': codegen.split_rule.min_chunk_keys: "
       "expected a positive integer, got -128"},
      {"min_chunk_keys missing", split0, ", \"min_chunk_keys\": 128", "",
       "kernel 'attn_fwd_split_kv_0': missing field 'min_chunk_keys' in "
       "codegen.split_rule"},
      {"unknown split_rule field", split0, "\"min_chunk_keys\": 128",
       "\"min_chunk_keys\": 128, \"waves\": 1",
       "kernel 'attn_fwd_split_kv_0': unknown field 'waves' in "
       "codegen.split_rule (expected fields: blocks_per_sm, max_splits, "
       "min_chunk_keys)"},
      {"splits not a number", split0, "\"splits\": null", "\"splits\": \"S\"",
       "kernel 'attn_fwd_split_kv_0': codegen.splits: expected a positive "
       "integer (or null with codegen.split_rule: S decided at launch), got "
       "\"S\""},
      {"num_splits missing", split0,
       ",\n        {\"name\": \"num_splits\",     \"kind\": \"i32\"}", "",
       "kernel 'attn_fwd_split_kv_0': params: missing parameter 'num_splits' "
       "(codegen.splits is null: the split count S is decided at launch) "
       "(the \"split_kv\" parameters, in order: query, key, value, "
       "partial_output, partial_lse, batch, key_len, num_splits)"},
      {"num_splits before key_len", combine0,
       "{\"name\": \"key_len\",        \"kind\": \"i32\"},\n        "
       "{\"name\": \"num_splits\",     \"kind\": \"i32\"}",
       "{\"name\": \"num_splits\",     \"kind\": \"i32\"},\n        "
       "{\"name\": \"key_len\",        \"kind\": \"i32\"}",
       "kernel 'attn_fwd_combine_0': params[8]: expected parameter 'key_len' "
       "here, got 'num_splits' (the \"combine\" parameters, in order: query, "
       "key, value, partial_output, partial_lse, output, lse, batch, "
       "key_len, num_splits)"},
      {"num_splits a tensor", split0,
       "{\"name\": \"num_splits\",     \"kind\": \"i32\"}",
       "{\"name\": \"num_splits\",     \"kind\": \"tensor\"}",
       "kernel 'attn_fwd_split_kv_0': param 'num_splits': kind: expected "
       "\"i32\" for 'num_splits', got \"tensor\""},
      {"num_splits twice", split0,
       "{\"name\": \"num_splits\",     \"kind\": \"i32\"}",
       "{\"name\": \"num_splits\",     \"kind\": \"i32\"}, {\"name\": "
       "\"num_splits\", \"kind\": \"i32\"}",
       "kernel 'attn_fwd_split_kv_0': params[8]: parameter 'num_splits' is "
       "listed twice (also params[7])"},
      {"static S in a workspace", split0, "[null, null, 32, 1, 128]",
       "[null, 4, 32, 1, 128]",
       "kernel 'attn_fwd_split_kv_0': param 'partial_output': shape [null, 4, "
       "32, 1, 128] does not match [batch, S (null: codegen.splits is null, S "
       "decided at launch), query_heads, query_len, value_dim] = [null, null, "
       "32, 1, 128]"},
      {"grid x static", split0, "\"grid\": [null, 8, null]",
       "\"grid\": [4, 8, null]",
       "l.json:23:16: kernel 'attn_fwd_split_kv_0': grid[0]: expected null "
       "for a \"split_kv\" kernel whose split count is decided at launch "
       "(codegen.splits is null; x = S at launch), got 4"},
      {"combine grid x null", combine0, "\"grid\": [8, null, 1]",
       "\"grid\": [null, null, 1]",
       "kernel 'attn_fwd_combine_0': grid: [null, null, 1] does not match the "
       "problem: a \"combine\" kernel runs one block per (4 rows of (query "
       "head, query), batch) = (ceil(query_heads * query_len / 4), batch, 1) "
       "= [8, null, 1]"},
      {"stages with different rules", combine0, "\"max_splits\": 64",
       "\"max_splits\": 32",
       "kernel 'attn_fwd_combine_0': group: kernel 'attn_fwd_split_kv_0' of "
       "group 'attn_fwd_0' has codegen.split_rule = {\"blocks_per_sm\": 2, "
       "\"max_splits\": 64, \"min_chunk_keys\": 128}, this kernel "
       "{\"blocks_per_sm\": 2, \"max_splits\": 32, \"min_chunk_keys\": 128} "
       "(the stages of a split-KV group take one split count, decided at "
       "launch by one rule)"},
  };
  for (const Case &c : cases)
    expectError(
        std::string("split count at launch: ") + c.what,
        [&] {
          parseManifest(replaceAfter(base, c.marker, c.from, c.to), "l.json");
        },
        c.want);

  // One stage deciding at launch, the other compiled for 4 (its own
  // workspaces, parameters and codegen consistent).
  {
    std::string text = base;
    text = replaceAfter(text, combine0, "\"splits\": null, " + rule0Text,
                        "\"splits\": 4");
    for (int i = 0; i < 2; ++i)
      text =
          replaceAfter(text, combine0, "[null, null, 32, 1", "[null, 4, 32, 1");
    text = replaceAfter(text, combine0,
                        ",\n        {\"name\": \"num_splits\",     \"kind\": "
                        "\"i32\"}",
                        "");
    expectError(
        "split count at launch: one stage compiled for 4",
        [&] { parseManifest(text, "l.json"); },
        "kernel 'attn_fwd_combine_0': group: kernel 'attn_fwd_split_kv_0' of "
        "group 'attn_fwd_0' has codegen.splits = null, this kernel 4 (the "
        "stages of a split-KV group share the workspaces partial_output and "
        "partial_lse of codegen.splits chunks)");
  }
  // The static form (split-kv-runtime.json, codegen.splits 4) with pieces
  // of the launch form.
  const char *fixedSplit = "\"attn_fwd_split_kv_0\"";
  expectError(
      "static split count with num_splits",
      [&] {
        parseManifest(replaceAfter(fixed, fixedSplit,
                                   "{\"name\": \"key_len\",        \"kind\": "
                                   "\"i32\"}",
                                   "{\"name\": \"key_len\",        \"kind\": "
                                   "\"i32\"}, {\"name\": \"num_splits\", "
                                   "\"kind\": \"i32\"}"),
                      "d.json");
      },
      "kernel 'attn_fwd_split_kv_0': param 'num_splits': listed, but "
      "codegen.splits is 4 (num_splits is only for a split count decided at "
      "launch, codegen.splits null)");
  expectError(
      "static split count with a null workspace dimension",
      [&] {
        parseManifest(replaceAfter(fixed, fixedSplit, "[null, 4, 32, 2, 128]",
                                   "[null, null, 32, 2, 128]"),
                      "d.json");
      },
      "kernel 'attn_fwd_split_kv_0': param 'partial_output': shape [null, "
      "null, 32, 2, 128] does not match [batch, codegen.splits, query_heads, "
      "query_len, value_dim] = [null, 4, 32, 2, 128]");
  expectError(
      "static split count with a null grid x",
      [&] {
        parseManifest(replaceAfter(fixed, fixedSplit, "\"grid\": [4, 8, null]",
                                   "\"grid\": [null, 8, null]"),
                      "d.json");
      },
      "kernel 'attn_fwd_split_kv_0': grid: [null, 8, null] does not match the "
      "problem: a \"split_kv\" kernel runs one block per (chunk, row block, "
      "batch) = (codegen.splits, ceil(query_heads / kv_heads * query_len / "
      "codegen.block_q) * kv_heads, batch) = [4, 8, null]");
  // Elsewhere: a forward kernel, a plain forward's parameter list (paged
  // groups: testPagedRuntimeSizes).
  const std::string runtimeSizes =
      readFile(manifestDir + "/runtime-sizes.json", "test");
  expectError(
      "split_rule on a forward kernel",
      [&] {
        parseManifest(replaceOnce(runtimeSizes, "\"threads\": 384}",
                                  "\"threads\": 384, " + rule0Text + "}"),
                      "r.json");
      },
      "kernel 'attn_fwd_0': codegen.split_rule: only a stage of a split-KV "
      "forward group (\"split_kv\" or \"combine\") decides a split count at "
      "launch, not a forward kernel");
  expectError(
      "num_splits on a forward kernel",
      [&] {
        parseManifest(replaceOnce(runtimeSizes,
                                  "{\"name\": \"key_len\",   \"kind\": "
                                  "\"i32\"}",
                                  "{\"name\": \"key_len\",   \"kind\": "
                                  "\"i32\"}, {\"name\": \"num_splits\", "
                                  "\"kind\": \"i32\"}"),
                      "r.json");
      },
      "kernel 'attn_fwd_0': params[9].name: unknown parameter \"num_splits\"");
}

//===----------------------------------------------------------------------===//
// Paged key/value caches (docs/kernel-manifest.md, "Paged key/value caches")
//===----------------------------------------------------------------------===//

/// The paged forward group (split_kv + combine of "op": "paged_attention"):
/// parsed and grouped; then one broken variant per rule.
static void testPagedManifests() {
  const std::string base = readFile(manifestDir + "/paged.json", "test");
  Manifest m = parseManifest(base, "p.json");
  CHECK(m.kernels.size() == 2, "kernel count");
  if (m.kernels.size() != 2)
    return;
  using Grid = std::array<uint32_t, 3>;
  const KernelSpec &split = m.kernels[0], &combine = m.kernels[1];
  CHECK(split.op == KernelOp::PagedAttention && split.isPaged() &&
            combine.isPaged() && !split.isGrad() && !split.isVarlen() &&
            split.isForwardStage() && split.stage == GradStage::SplitKV &&
            combine.stage == GradStage::Combine &&
            std::string(opName(split.op)) == "paged_attention" &&
            split.group == "attn_fwd_0" && split.splits == 4 &&
            combine.splits == 4,
        "op, stages, group, splits");
  CHECK(split.pageSize == 16 && split.numPages == 40 &&
            split.maxPagesPerSeq == 12 && split.keyLen == 192 &&
            !split.hasRuntimeSizes() && !hasRuntimeSizes(m),
        "cache geometry; keyLen is the capacity; no run-time sizes");
  const ParamSpec *kc = split.findParam("key_cache"),
                  *bt = split.findParam("block_table"),
                  *cs = combine.findParam("cache_seqlens");
  CHECK(kc && kc->shape == (std::vector<int64_t>{40, 16, 2, 64}) &&
            kc->dtype == DType::BF16 && !kc->isOutput && bt &&
            bt->dtype == DType::I32 &&
            bt->shape == (std::vector<int64_t>{3, 12}) && cs &&
            cs->dtype == DType::I32 && cs->shape == (std::vector<int64_t>{3}),
        "cache, block table and lengths");
  CHECK(!split.findParam("output") && combine.findParam("output") &&
            combine.findParam("lse") &&
            combine.findParam("partial_lse")->isWorkspace,
        "output and lse on combine only");
  CHECK(split.grid == (Grid{4, 2, 3}) && combine.grid == (Grid{2, 3, 1}),
        "grids (S, R * Hkv, B) and (ceil(Hq * Lq / 4), B, 1)");
  std::vector<GradGroup> fg = forwardGroups(m);
  CHECK(fg.size() == 1 && fg[0].kernels.size() == 2 &&
            fg[0].kernels[0] == &split && gradGroups(m).empty(),
        "one paged forward group");
  // Unbound: the capacity of every sequence; bound: the cache lengths.
  CHECK(split.lengthProducts() == 3.0 * 192.0 && combine.flops() == 0.0 &&
            !split.flopsHalvedForCausal(),
        "unbound FLOP count");
  const std::vector<int32_t> lens = {0, 192, 17};
  std::vector<int32_t> table(36, -1);
  for (int j = 0; j < 12; ++j)
    table[12 + j] = 39 - j;
  table[24] = 3;
  table[25] = 5;
  KernelSpec bound = bindPaged(split, lens, table);
  CHECK(bound.lengthProducts() == 209.0 &&
            bound.bytesMovedBy(*bound.findParam("key_cache")) ==
                209u * 2u * 64u * 2u &&
            bound.bytesMovedBy(*bound.findParam("query")) == 3u * 8u * 64u * 2u,
        "bound FLOP and byte counts follow the cache lengths");

  const char *splitK = "\"attn_fwd_split_kv_0\"",
             *combineK = "\"attn_fwd_combine_0\"";
  const std::string btLine =
      "{\"name\": \"block_table\",    \"kind\": \"tensor\", \"role\": "
      "\"input\",     \"dtype\": \"i32\",  \"shape\": [3, 12]},";
  const std::string csLine =
      "{\"name\": \"cache_seqlens\",  \"kind\": \"tensor\", \"role\": "
      "\"input\",     \"dtype\": \"i32\",  \"shape\": [3]},";
  struct Case {
    const char *what, *marker;
    std::string from, to;
    const char *want;
  } cases[] = {
      {"missing page_size", splitK, "\"page_size\": 16, ", "",
       "p.json:7:5: kernel 'attn_fwd_split_kv_0': missing field 'page_size' "
       "in a \"paged_attention\" kernel"},
      {"page_size zero", splitK, "\"page_size\": 16", "\"page_size\": 0",
       "kernel 'attn_fwd_split_kv_0': page_size: expected a positive "
       "integer, got 0 (number)"},
      {"key_len not null", splitK, "\"key_len\": null", "\"key_len\": 192",
       "p.json:15:34: kernel 'attn_fwd_split_kv_0': key_len: expected null "
       "for a \"paged_attention\" kernel (each sequence's cache length comes "
       "from cache_seqlens; there is no key_len size parameter), got 192 "
       "(number)"},
      {"run-time batch, static grid", splitK, "\"batch\": 3", "\"batch\": null",
       "kernel 'attn_fwd_split_kv_0': grid: [4, 2, 3] does not match the "
       "problem: a \"split_kv\" kernel runs one block per (chunk, row block, "
       "batch) = (codegen.splits, ceil(query_heads / kv_heads * query_len / "
       "codegen.block_q) * kv_heads, batch) = [4, 2, null]"},
      {"run-time page count, static cache", splitK, "\"num_pages\": 40",
       "\"num_pages\": null",
       "kernel 'attn_fwd_split_kv_0': param 'key_cache': shape [40, 16, 2, "
       "64] does not match [num_pages, page_size, kv_heads, head_dim] = "
       "[null, 16, 2, 64]"},
      {"mask", splitK, "\"mask\": null",
       "\"mask\": {\"dtype\": \"i1\", \"shape\": [1, 1, 1, 192]}",
       "kernel 'attn_fwd_split_kv_0': mask: a \"paged_attention\" kernel "
       "takes none (attn.paged_attention has no mask): expected null, got an "
       "object"},
      {"block_table dtype", splitK, "\"dtype\": \"i32\",  \"shape\": [3, 12]",
       "\"dtype\": \"f32\",  \"shape\": [3, 12]",
       "kernel 'attn_fwd_split_kv_0': param 'block_table': dtype: expected "
       "i32 (block_table holds i32 page indices), got f32"},
      {"block_table shape", combineK, "\"shape\": [3, 12]",
       "\"shape\": [3, 10]",
       "kernel 'attn_fwd_combine_0': param 'block_table': shape [3, 10] does "
       "not match [batch, max_pages_per_seq] = [3, 12]"},
      {"cache_seqlens shape", splitK, "\"shape\": [3]}", "\"shape\": [3, 1]}",
       "kernel 'attn_fwd_split_kv_0': param 'cache_seqlens': shape [3, 1] "
       "does not match [batch] = [3]"},
      {"key cache head-major", splitK, "\"shape\": [40, 16, 2, 64]",
       "\"shape\": [40, 2, 16, 64]",
       "kernel 'attn_fwd_split_kv_0': param 'key_cache': shape [40, 2, 16, "
       "64] does not match [num_pages, page_size, kv_heads, head_dim] = [40, "
       "16, 2, 64]"},
      {"dense key name", splitK, "\"name\": \"key_cache\"", "\"name\": \"key\"",
       "kernel 'attn_fwd_split_kv_0': params[1].name: unknown parameter "
       "\"key\" for a \"paged_attention\" kernel (expected query, key_cache, "
       "value_cache, block_table, cache_seqlens, partial_output, partial_lse, "
       "output, lse, batch, num_pages, max_pages_per_seq or num_splits)"},
      {"param order", splitK, btLine + "\n        " + csLine,
       csLine + "\n        " + btLine,
       "kernel 'attn_fwd_split_kv_0': params[3]: expected parameter "
       "'block_table' here, got 'cache_seqlens' (the paged \"split_kv\" "
       "parameters, in order: query, key_cache, value_cache, block_table, "
       "cache_seqlens, partial_output, partial_lse)"},
      {"split_kv grid", splitK, "\"grid\": [4, 2, 3]", "\"grid\": [4, 8, 3]",
       "kernel 'attn_fwd_split_kv_0': grid: [4, 8, 3] does not match the "
       "problem: a \"split_kv\" kernel runs one block per (chunk, row block, "
       "batch) = (codegen.splits, ceil(query_heads / kv_heads * query_len / "
       "codegen.block_q) * kv_heads, batch) = [4, 2, 3]"},
      {"combine grid", combineK, "\"grid\": [2, 3, 1]", "\"grid\": [8, 3, 1]",
       "kernel 'attn_fwd_combine_0': grid: [8, 3, 1] does not match the "
       "problem: a \"combine\" kernel runs one block per (4 rows of (query "
       "head, query), batch) = (ceil(query_heads * query_len / 4), batch, "
       "1) = [2, 3, 1]"},
      {"lone split_kv stage", combineK, "\"group\": \"attn_fwd_0\"",
       "\"group\": \"attn_fwd_1\"",
       "kernel 'attn_fwd_split_kv_0': group: group 'attn_fwd_0' has the "
       "kernels attn_fwd_split_kv_0 (split_kv); a paged forward group "
       "(\"op\": \"paged_attention\") is one \"split_kv\" kernel followed by "
       "one \"combine\" kernel (launched in manifest order)"},
      {"missing stage", splitK, "\"stage\": \"split_kv\",\n      ", "",
       "kernel 'attn_fwd_split_kv_0': missing field 'stage' in a "
       "\"paged_attention\" kernel (it is the \"split_kv\" or the \"combine\" "
       "stage of a paged forward group)"},
      {"group problem", combineK, "\"scale\": 0.125", "\"scale\": 0.25",
       "kernel 'attn_fwd_combine_0': group: kernel 'attn_fwd_split_kv_0' of "
       "group 'attn_fwd_0' has scale = 0.125, this kernel 0.25"},
      {"mixed ops in a group", combineK, "\"op\": \"paged_attention\"",
       "\"op\": \"attention\"",
       "kernel 'attn_fwd_combine_0': page_size: only a paged kernel (\"op\": "
       "\"paged_attention\") has this field, not a \"attention\" kernel"},
      {"capacity past i32", splitK, "\"max_pages_per_seq\": 12",
       "\"max_pages_per_seq\": 200000000",
       "kernel 'attn_fwd_split_kv_0': max_pages_per_seq: max_pages_per_seq "
       "* page_size = 200000000 * 16 tokens, more than the 2^31 - 1 an i32 "
       "cache_seqlens entry holds"},
  };
  for (const Case &c : cases)
    expectError(
        std::string("paged manifest: ") + c.what,
        [&] {
          parseManifest(replaceAfter(base, c.marker, c.from, c.to), "p.json");
        },
        c.want);
  // The paged fields on a dense kernel.
  expectError(
      "paged manifest: page_size on a dense split-KV stage",
      [&] {
        parseManifest(
            replaceOnce(readFile(manifestDir + "/split-kv.json", "test"),
                        "\"value_dim\": 128,",
                        "\"value_dim\": 128, \"page_size\": 16,"),
            "m.json");
      },
      "kernel 'attn_fwd_split_kv_0': page_size: only a paged kernel (\"op\": "
      "\"paged_attention\") has this field, not a \"attention\" kernel");
}

/// A paged group with a run-time batch and page count (test/manifests/
/// paged-runtime.json, attn-compile's pgd_gqa4_lq1_ps64: "batch" and
/// "num_pages" null, the split count decided at launch): parsed, bound to
/// sizes, its inputs drawn within them; then one broken variant per rule.
static void testPagedRuntimeSizes() {
  using Grid = std::array<uint32_t, 3>;
  using Shape = std::vector<int64_t>;
  const std::string base =
      readFile(manifestDir + "/paged-runtime.json", "test");
  Manifest m = parseManifest(base, "d.json");
  CHECK(m.kernels.size() == 2, "kernel count");
  if (m.kernels.size() != 2)
    return;
  const KernelSpec &split = m.kernels[0], &combine = m.kernels[1];
  CHECK(split.isPaged() && split.batch == kRuntimeSize &&
            split.numPages == kRuntimeSize &&
            combine.numPages == kRuntimeSize && split.keyLen == 6400 &&
            split.splitsAtLaunch() && combine.splitsAtLaunch() &&
            split.splitRule == (SplitRule{2, 64, 128}) &&
            split.hasRuntimeSizes() && hasRuntimeSizes(m),
        "run-time batch, page count and split count");
  CHECK(split.grid == (Grid{0, 8, 0}) && combine.grid == (Grid{8, 0, 1}),
        "grids: S and the batch at launch");
  CHECK(split.findParam("key_cache")->shape ==
                (Shape{kRuntimeSize, 64, 8, 128}) &&
            split.findParam("block_table")->shape ==
                (Shape{kRuntimeSize, 100}) &&
            combine.findParam("partial_output")->shape ==
                (Shape{kRuntimeSize, kRuntimeSize, 32, 1, 128}),
        "null shapes");
  const size_t n = combine.params.size();
  CHECK(n >= 3 && combine.params[n - 3].name == "batch" &&
            combine.params[n - 2].name == "num_pages" &&
            combine.params[n - 1].name == "num_splits" &&
            combine.params[n - 2].kind == ParamSpec::Kind::I32,
        "size parameters batch, num_pages, then num_splits");

  // Bound: the batch and page count in shapes, grids and parameters; S by
  // the rule with key length max_pages_per_seq * page_size = 6400.
  const RuntimeSizes sizes = parseRuntimeSizes("num_pages=250,batch=3");
  CHECK(sizes.batch == 3 && sizes.numPages == 250 &&
            runtimeSizesText(sizes) == "batch=3,num_pages=250",
        "--sizes num_pages");
  Manifest b = bindSizes(m, sizes);
  const KernelSpec &bs = b.kernels[0], &bc = b.kernels[1];
  CHECK(bs.batch == 3 && bs.numPages == 250 && !bs.hasRuntimeSizes() &&
            bs.splitsAtLaunch() && bs.grid == (Grid{0, 8, 3}) &&
            bc.grid == (Grid{8, 3, 1}),
        "bound sizes and grids, S still to decide");
  CHECK(bs.findParam("key_cache")->shape == (Shape{250, 64, 8, 128}) &&
            bc.findParam("value_cache")->shape == (Shape{250, 64, 8, 128}) &&
            bs.findParam("query")->shape == (Shape{3, 32, 1, 128}) &&
            bs.findParam("block_table")->shape == (Shape{3, 100}) &&
            bc.findParam("cache_seqlens")->shape == (Shape{3}) &&
            bc.findParam("lse")->shape == (Shape{3, 32, 1}) &&
            bc.findParam("partial_lse")->shape ==
                (Shape{3, kRuntimeSize, 32, 1}),
        "bound shapes: the caches by num_pages, the rest by batch");
  CHECK(bc.findParam("batch")->sizeValue == 3 &&
            bc.findParam("num_pages")->sizeValue == 250,
        "size parameter values");
  // min(64, floor(2 * 132 / (8 * 3)) = 11, ceil(6400 / 128) = 50) = 11.
  CHECK(ruleSplits(bs, 132) == 11, "the split rule with the capacity");
  bindSplitsByRule(b, 132);
  CHECK(b.kernels[0].splits == 11 && b.kernels[1].splits == 11 &&
            b.kernels[0].grid == (Grid{11, 8, 3}) &&
            b.kernels[1].findParam("partial_output")->shape ==
                (Shape{3, 11, 32, 1, 128}) &&
            b.kernels[1].findParam("num_splits")->sizeValue == 11,
        "S by the rule");
  Manifest forced = bindSizes(m, parseRuntimeSizes("batch=2,num_pages=90,"
                                                   "num_splits=7"));
  CHECK(forced.kernels[0].splits == 7 &&
            forced.kernels[0].grid == (Grid{7, 8, 2}),
        "S given");

  // The inputs drawn within the bound sizes: B lengths, pages in [0, P)
  // (shared once the pool is smaller than the sequences need).
  for (const char *text : {"batch=40,num_pages=700", "batch=1,num_pages=1",
                           "batch=2,num_pages=30"}) {
    const KernelSpec k = bindSizes(m, parseRuntimeSizes(text)).kernels[0];
    bool valid = true;
    for (uint64_t seed = 1; seed <= 4; ++seed) {
      const std::vector<int32_t> lens = drawCacheSeqlens(k, seed);
      const std::vector<int32_t> table = drawBlockTable(k, lens, seed);
      valid = valid && int64_t(lens.size()) == k.batch &&
              pagedInputsProblem(k, lens, table).empty();
      for (int32_t page : table)
        valid = valid && page < k.numPages;
    }
    CHECK(valid, std::string("drawn inputs within ") + text);
  }
  const KernelSpec small =
      bindSizes(m, parseRuntimeSizes("batch=2,num_pages=30")).kernels[0];
  std::vector<int32_t> table(200, -1);
  table[0] = 30;
  CHECK(pagedInputsProblem(small, {1, 0}, table) ==
            "block_table[0, 0] = 30 is not a page in [0, 30) (num_pages), "
            "but sequence 0 of 1 tokens reads its first 1 entries",
        "a page past the bound page count");
  expectError(
      "paged run-time sizes: cache lengths for another batch",
      [&] {
        cacheSeqlensFor(small, {1, 2, 3}, "--cache-seqlens");
      },
      "--cache-seqlens: 3 cache length(s), but kernel 'attn_fwd_split_kv_0' "
      "has batch 2 (one length per sequence)");

  // Limits at launch.
  const struct {
    const char *what, *sizes, *want;
  } limits[] = {
      {"no num_pages", "batch=2",
       "kernel 'attn_fwd_split_kv_0': no value for the run-time size "
       "num_pages (give it, e.g. --sizes num_pages=128)"},
      {"no batch", "num_pages=2",
       "kernel 'attn_fwd_split_kv_0': no value for the run-time size batch"},
      {"batch past the grid", "batch=65536,num_pages=2",
       "kernel 'attn_fwd_split_kv_0': batch = 65536: the grid has one block "
       "row per batch entry, and CUDA allows at most 65535"},
      {"cache past 32-bit indices", "batch=1,num_pages=32768",
       "kernel 'attn_fwd_split_kv_0': 'key_cache' [32768, 64, 8, 128] has "
       "2147483648 elements: the kernels' 32-bit indices need fewer than "
       "2^31"},
      {"S past max_splits", "batch=1,num_pages=2,num_splits=65",
       "kernel 'attn_fwd_split_kv_0': num_splits = 65: expected 1 to 64 "
       "(codegen.split_rule.max_splits)"},
  };
  for (const auto &c : limits)
    expectError(
        std::string("paged run-time sizes: ") + c.what,
        [&] { bindSizes(m, parseRuntimeSizes(c.sizes)); }, c.want);
  expectError(
      "paged run-time sizes: num_pages=0",
      [&] { parseRuntimeSizes("num_pages=0"); },
      "sizes 'num_pages=0': 'num_pages' must be an integer in [1, 2^31 - 1]");
  CHECK(bindSizes(m, parseRuntimeSizes("batch=1,num_pages=32767"))
                .kernels[0]
                .numPages == 32767,
        "the largest cache below 2^31 elements");

  // Broken variants: mixed static and run-time forms, malformed fields.
  // The compiler writes the fields in alphabetical order: a kernel's fields
  // before "name" follow the previous kernel's name (or "kernels").
  const char *splitK = "\"attn_fwd_split_kv_0\"",
             *combineK = "\"attn_fwd_combine_0\"";
  const std::string pagesParam = "{\"kind\": \"i32\", \"name\": \"num_pages\"}";
  const std::string splitsParam =
      "{\"kind\": \"i32\", \"name\": \"num_splits\"}";
  struct Case {
    const char *what, *marker;
    std::string from, to;
    const char *want;
  } cases[] = {
      {"num_pages negative", splitK, "\"num_pages\": null", "\"num_pages\": -1",
       "kernel 'attn_fwd_split_kv_0': num_pages: expected a positive integer "
       "or null (a run-time size), got -1 (number)"},
      {"num_pages null, cache static", combineK, "[null, 64, 8, 128]",
       "[250, 64, 8, 128]",
       "kernel 'attn_fwd_combine_0': param 'key_cache': shape [250, 64, 8, "
       "128] does not match [num_pages, page_size, kv_heads, head_dim] = "
       "[null, 64, 8, 128]"},
      {"num_pages static, cache null", splitK, "\"num_pages\": null",
       "\"num_pages\": 250",
       "kernel 'attn_fwd_split_kv_0': param 'key_cache': shape [null, 64, 8, "
       "128] does not match [num_pages, page_size, kv_heads, head_dim] = "
       "[250, 64, 8, 128]"},
      {"batch null, block table static", splitK, "\"shape\": [null, 100]",
       "\"shape\": [3, 100]",
       "kernel 'attn_fwd_split_kv_0': param 'block_table': shape [3, 100] "
       "does not match [batch, max_pages_per_seq] = [null, 100]"},
      {"batch null, grid z static", "\"kernels\"", "\"grid\": [null, 8, null]",
       "\"grid\": [null, 8, 3]",
       "kernel 'attn_fwd_split_kv_0': grid: [null, 8, 3] does not match the "
       "problem"},
      {"batch null, combine grid y static", splitK, "\"grid\": [8, null, 1]",
       "\"grid\": [8, 3, 1]",
       "kernel 'attn_fwd_combine_0': grid: [8, 3, 1] does not match the "
       "problem: a \"combine\" kernel runs one block per (4 rows of (query "
       "head, query), batch) = (ceil(query_heads * query_len / 4), batch, 1) "
       "= [8, null, 1]"},
      {"num_pages parameter missing", splitK, pagesParam + ",\n", "",
       "kernel 'attn_fwd_split_kv_0': params[8]: missing parameter "
       "'num_pages' before 'num_splits' (the kernel's num_pages is null: a "
       "run-time size) (the paged \"split_kv\" parameters, in order: query, "
       "key_cache, value_cache, block_table, cache_seqlens, partial_output, "
       "partial_lse, batch, num_pages, num_splits)"},
      {"num_splits before num_pages", combineK,
       pagesParam + ",\n        " + splitsParam,
       splitsParam + ",\n        " + pagesParam,
       "kernel 'attn_fwd_combine_0': params[10]: expected parameter "
       "'num_pages' here, got 'num_splits'"},
      {"num_pages a tensor", splitK, pagesParam,
       "{\"kind\": \"tensor\", \"name\": \"num_pages\"}",
       "kernel 'attn_fwd_split_kv_0': param 'num_pages': kind: expected "
       "\"i32\" for 'num_pages', got \"tensor\""},
      {"key_len parameter", splitK, pagesParam,
       pagesParam + ", {\"kind\": \"i32\", \"name\": \"key_len\"}",
       "kernel 'attn_fwd_split_kv_0': params[9].name: unknown parameter "
       "\"key_len\" for a \"paged_attention\" kernel"},
      {"split count null without a rule", "\"kernels\"",
       ", \"split_rule\": {\"blocks_per_sm\": 2, \"max_splits\": 64, "
       "\"min_chunk_keys\": 128}",
       "",
       "kernel 'attn_fwd_split_kv_0': codegen.splits: null (the split count "
       "decided at launch) needs codegen.split_rule"},
  };
  for (const Case &c : cases)
    expectError(
        std::string("paged run-time sizes: ") + c.what,
        [&] {
          parseManifest(replaceAfter(base, c.marker, c.from, c.to), "d.json");
        },
        c.want);

  // A static page count listed as a size parameter, and a group whose
  // stages disagree on it (each stage consistent on its own).
  std::string text =
      replaceAfter(base, splitK, "\"num_pages\": null", "\"num_pages\": 250");
  for (int i = 0; i < 2; ++i)
    text =
        replaceAfter(text, splitK, "[null, 64, 8, 128]", "[250, 64, 8, 128]");
  expectError(
      "paged run-time sizes: static num_pages listed",
      [&] { parseManifest(text, "d.json"); },
      "kernel 'attn_fwd_split_kv_0': param 'num_pages': listed, but the "
      "kernel's 'num_pages' is 250 (a size parameter is only for a run-time "
      "size, null)");
  text = replaceAfter(text, splitK, pagesParam + ",\n", "");
  expectError(
      "paged run-time sizes: stages with different page counts",
      [&] { parseManifest(text, "d.json"); },
      "kernel 'attn_fwd_combine_0': group: kernel 'attn_fwd_split_kv_0' of "
      "group 'attn_fwd_0' has num_pages = 250, this kernel null (the kernels "
      "of a group must have the same problem)");
}

/// A paged group whose block table's width is a run-time size too
/// (test/manifests/paged-width.json, attn-compile's: "batch", "num_pages"
/// and "max_pages_per_seq" null): the width binds block_table's dimension
/// 1, the capacity (the key length of the split rule and of the cache
/// length checks) and the size parameter; a width whose capacity passes
/// i32 is refused; a static width listed as a size parameter, or a null
/// width with a static table, is a broken manifest.
static void testPagedRuntimeWidth() {
  using Shape = std::vector<int64_t>;
  const std::string base = readFile(manifestDir + "/paged-width.json", "test");
  Manifest m = parseManifest(base, "w.json");
  CHECK(m.kernels.size() == 2, "kernel count");
  if (m.kernels.size() != 2)
    return;
  const KernelSpec &split = m.kernels[0], &combine = m.kernels[1];
  CHECK(split.maxPagesPerSeq == kRuntimeSize && split.keyLen == kRuntimeSize &&
            combine.maxPagesPerSeq == kRuntimeSize &&
            split.findParam("block_table")->shape ==
                (Shape{kRuntimeSize, kRuntimeSize}),
        "run-time width: capacity and table width null");
  const size_t n = combine.params.size();
  CHECK(n >= 4 && combine.params[n - 4].name == "batch" &&
            combine.params[n - 3].name == "num_pages" &&
            combine.params[n - 2].name == "max_pages_per_seq" &&
            combine.params[n - 1].name == "num_splits",
        "size parameters batch, num_pages, max_pages_per_seq, num_splits");
  const RuntimeSizes sizes =
      parseRuntimeSizes("max_pages_per_seq=7,batch=3,num_pages=250");
  CHECK(sizes.maxPagesPerSeq == 7 &&
            runtimeSizesText(sizes) ==
                "batch=3,num_pages=250,max_pages_per_seq=7",
        "--sizes max_pages_per_seq");
  Manifest b = bindSizes(m, sizes);
  const KernelSpec &bs = b.kernels[0], &bc = b.kernels[1];
  CHECK(bs.maxPagesPerSeq == 7 && bs.keyLen == 7 * 64 &&
            !bs.hasRuntimeSizes() &&
            bs.findParam("block_table")->shape == (Shape{3, 7}) &&
            bc.findParam("max_pages_per_seq")->sizeValue == 7 &&
            bc.findParam("batch")->sizeValue == 3,
        "bound width: table shape, capacity, size parameter");
  // min(64, floor(2 * 132 / (8 * 3)) = 11, ceil(448 / 128) = 4) = 4: the
  // rule follows the bound capacity.
  CHECK(ruleSplits(bs, 132) == 4, "the split rule with the bound capacity");
  const std::vector<int32_t> lens = drawCacheSeqlens(bs, 3);
  const std::vector<int32_t> table = drawBlockTable(bs, lens, 3);
  bool within = table.size() == 3 * 7;
  for (int32_t len : lens)
    within = within && len >= 0 && len <= 448;
  CHECK(within && pagedInputsProblem(bs, lens, table).empty(),
        "inputs drawn within the bound width");
  expectError(
      "paged run-time width: lengths past the bound capacity",
      [&] {
        cacheSeqlensFor(bs, {1, 449, 0}, "--cache-seqlens");
      },
      "--cache-seqlens: length 1 is 449, outside [0, 448]");
  expectError(
      "paged run-time width: missing",
      [&] { bindSizes(m, parseRuntimeSizes("batch=2,num_pages=30")); },
      "kernel 'attn_fwd_split_kv_0': no value for the run-time size "
      "max_pages_per_seq (give it, e.g. --sizes max_pages_per_seq=128)");
  expectError(
      "paged run-time width: capacity past i32",
      [&] {
        bindSizes(m, parseRuntimeSizes(
                         "batch=1,num_pages=2,max_pages_per_seq=33554432"));
      },
      "kernel 'attn_fwd_split_kv_0': max_pages_per_seq = 33554432: "
      "max_pages_per_seq * page_size = 33554432 * 64 tokens, more than the "
      "2^31 - 1 an i32 cache_seqlens entry holds");
  // The window clamp of kernels with run-time lengths: Lq + capacity <=
  // 2^30 (Lq = 1 here).
  expectError(
      "paged run-time width: positions past 2^30",
      [&] {
        bindSizes(m, parseRuntimeSizes(
                         "batch=1,num_pages=2,max_pages_per_seq=16777216"));
      },
      "kernel 'attn_fwd_split_kv_0': query_len + max_pages_per_seq * "
      "page_size = 1073741825: kernels with run-time sizes take at most 2^30 "
      "positions");
  CHECK(bindSizes(m, parseRuntimeSizes(
                         "batch=1,num_pages=2,max_pages_per_seq=16777215"))
                .kernels[0]
                .keyLen == int64_t(16777215) * 64,
        "the widest table within the limits");

  // Mixed forms: a static width with a null table dimension, a null width
  // with a static one, a static width still listed as a size parameter.
  const char *splitK = "\"attn_fwd_split_kv_0\"";
  expectError(
      "paged run-time width: null width, static table",
      [&] {
        parseManifest(replaceAfter(base, splitK, "\"shape\": [null, null]",
                                   "\"shape\": [null, 100]"),
                      "w.json");
      },
      "kernel 'attn_fwd_split_kv_0': param 'block_table': shape [null, 100] "
      "does not match [batch, max_pages_per_seq] = [null, null]");
  std::string text =
      replaceAfter(base, "\"kernels\"", "\"max_pages_per_seq\": null",
                   "\"max_pages_per_seq\": 100");
  text = replaceAfter(text, "\"kernels\"", "\"shape\": [null, null]",
                      "\"shape\": [null, 100]");
  expectError(
      "paged run-time width: static width listed",
      [&] { parseManifest(text, "w.json"); },
      "kernel 'attn_fwd_split_kv_0': param 'max_pages_per_seq': listed, but "
      "the kernel's 'max_pages_per_seq' is 100 (a size parameter is only for "
      "a run-time size, null)");
}

/// The run-time contract of paged kernels (cache_seqlens, block_table),
/// attn-run's draws, and the gather for the dense reference.
static void testPagedInputs() {
  Manifest m =
      parseManifest(readFile(manifestDir + "/paged.json", "test"), "p.json");
  if (m.kernels.empty())
    return;
  const KernelSpec &k = m.kernels[0];
  CHECK(pagesFor(0, 16) == 0 && pagesFor(1, 16) == 1 && pagesFor(16, 16) == 1 &&
            pagesFor(17, 16) == 2,
        "pagesFor");

  // Draws: always valid; the extremes and shuffled tables show up.
  bool sawEmpty = false, sawFull = false, sawShuffled = false,
       distinctPages = true, unusedMinusOne = true, allValid = true;
  for (uint64_t seed = 1; seed <= 64; ++seed) {
    std::vector<int32_t> lens = drawCacheSeqlens(k, seed);
    int64_t shared = -1;
    std::vector<int32_t> table = drawBlockTable(k, lens, seed, &shared);
    allValid = allValid && pagedInputsProblem(k, lens, table).empty() &&
               lens.size() == 3 && shared == 0;
    std::vector<int> seen(40, 0);
    for (size_t b = 0; b < lens.size(); ++b) {
      sawEmpty = sawEmpty || lens[b] == 0;
      sawFull = sawFull || lens[b] == 192;
      const int64_t used = pagesFor(lens[b], 16);
      for (int64_t j = 0; j < 12; ++j) {
        int32_t page = table[b * 12 + j];
        if (j >= used) {
          unusedMinusOne = unusedMinusOne && page == -1;
          continue;
        }
        if (page >= 0 && page < 40)
          distinctPages = distinctPages && seen[page]++ == 0;
        if (j > 0 && page != table[b * 12 + j - 1] + 1)
          sawShuffled = true;
      }
    }
  }
  CHECK(allValid, "drawn lengths and tables keep the contract");
  CHECK(sawEmpty && sawFull, "drawn lengths include 0 and the capacity");
  CHECK(sawShuffled && distinctPages && unusedMinusOne,
        "tables: shuffled distinct pages, -1 in unused entries");
  CHECK(drawCacheSeqlens(k, 7) == drawCacheSeqlens(k, 7) &&
            drawBlockTable(k, drawCacheSeqlens(k, 7), 7) ==
                drawBlockTable(k, drawCacheSeqlens(k, 7), 7),
        "draws are a function of the seed");
  // bottom_right with Lq = 4: some lengths below Lq.
  {
    KernelSpec q = k;
    q.queryLen = 4;
    bool below = false;
    for (uint64_t seed = 1; seed <= 64; ++seed)
      for (int32_t len : drawCacheSeqlens(q, seed))
        below = below || (len > 0 && len < 4);
    CHECK(below, "bottom_right draws lengths below query_len");
  }
  // More pages needed than the cache has: pages are shared, still valid.
  {
    KernelSpec small = k;
    small.numPages = 5;
    std::vector<int32_t> lens = {192, 192, 100};
    int64_t shared = 0;
    std::vector<int32_t> table = drawBlockTable(small, lens, 3, &shared);
    CHECK(shared == 12 + 12 + 7 - 5 &&
              pagedInputsProblem(small, lens, table).empty(),
          "shared pages when the sequences outgrow the cache");
  }

  // The contract's violations.
  std::vector<int32_t> lens = {0, 192, 17};
  std::vector<int32_t> table(36, -1);
  for (int j = 0; j < 12; ++j)
    table[12 + j] = j;
  table[24] = 30;
  table[25] = 31;
  CHECK(pagedInputsProblem(k, lens, table).empty(),
        "a valid hand-made table (unused entries -1)");
  auto problem = [&](std::vector<int32_t> l, std::vector<int32_t> t) {
    return pagedInputsProblem(k, l, t);
  };
  auto has = [](const std::string &s, const std::string &want) {
    return s.find(want) != std::string::npos;
  };
  CHECK(has(problem({0, 193, 17}, table),
            "cache_seqlens[1] = 193 is outside [0, 192] (0 to "
            "max_pages_per_seq * page_size = 12 * 16 = 192)"),
        "length past the capacity");
  CHECK(has(problem({-1, 192, 17}, table),
            "cache_seqlens[0] = -1 is outside [0, 192]"),
        "negative length");
  CHECK(has(problem({0, 192}, table),
            "cache_seqlens has 2 entries, expected batch = 3"),
        "length count");
  CHECK(has(problem(lens, std::vector<int32_t>(35, 0)),
            "block_table has 35 entries, expected batch * max_pages_per_seq "
            "= 3 * 12 = 36"),
        "table size");
  {
    std::vector<int32_t> t = table;
    t[25] = 40;
    CHECK(problem(lens, t) ==
              "block_table[2, 1] = 40 is not a page in [0, 40) (num_pages), "
              "but sequence 2 of 17 tokens reads its first 2 entries",
          "page past num_pages");
    t[25] = -1;
    CHECK(has(problem(lens, t), "block_table[2, 1] = -1 is not a page"),
          "-1 in a used entry");
    t = table;
    t[26] = 99; // past sequence 2's pages: never read
    CHECK(problem(lens, t).empty(), "unused entries may hold anything");
  }
  expectError(
      "paged inputs: checkPagedInputs",
      [&] {
        checkPagedInputs(k, {0, 500, 1}, table, "--cache-seqlens");
      },
      "--cache-seqlens: cache_seqlens[1] = 500 is outside [0, 192]");
  expectError(
      "paged inputs: bindPaged",
      [&] {
        bindPaged(k, {0, 1}, table);
      },
      "kernel 'attn_fwd_split_kv_0': cache_seqlens has 2 entries");
  // Given lengths (--cache-seqlens).
  CHECK(cacheSeqlensFor(k, {0, 192, 5}, "--cache-seqlens") ==
            (std::vector<int32_t>{0, 192, 5}),
        "given lengths");
  expectError(
      "paged inputs: given count",
      [&] {
        cacheSeqlensFor(k, {1, 2}, "--cache-seqlens");
      },
      "--cache-seqlens: 2 cache length(s), but kernel 'attn_fwd_split_kv_0' "
      "has batch 3 (one length per sequence)");
  expectError(
      "paged inputs: given length past the capacity",
      [&] {
        cacheSeqlensFor(k, {1, 2, 193}, "--cache-seqlens");
      },
      "--cache-seqlens: length 2 is 193, outside [0, 192] (the cache of "
      "kernel 'attn_fwd_split_kv_0' holds max_pages_per_seq * page_size = 12 "
      "* 16 = 192 tokens per sequence)");

  // The gather: a cache of 3 pages of 2 tokens, 2 heads, width 2, whose
  // elements encode (page, row, head, e).
  {
    KernelSpec g = k;
    g.pageSize = 2;
    g.numPages = 3;
    g.maxPagesPerSeq = 3;
    g.kvHeads = 2;
    std::vector<int32_t> cache(3 * 2 * 2 * 2);
    for (int p = 0; p < 3; ++p)
      for (int r = 0; r < 2; ++r)
        for (int h = 0; h < 2; ++h)
          for (int e = 0; e < 2; ++e)
            cache[((p * 2 + r) * 2 + h) * 2 + e] =
                p * 1000 + r * 100 + h * 10 + e;
    const int32_t row[3] = {2, 0, -1};
    std::vector<int32_t> dst(2 * 3 * 2, -7);
    gatherPagedSequence(g, cache.data(), sizeof(int32_t), 2, row, 3,
                        dst.data());
    // [Hkv, L, width]: token j on page row[j / 2], row j % 2.
    const std::vector<int32_t> want = {2000, 2001, 2100, 2101, 0,  1,
                                       2010, 2011, 2110, 2111, 10, 11};
    CHECK(dst == want,
          "gatherPagedSequence: [Hkv, L, width] through the table");
    expectError(
        "paged inputs: gather past the used pages",
        [&] {
          // Room for 5 tokens: the tokens before the bad one are written.
          std::vector<int32_t> big(2 * 5 * 2, -7);
          gatherPagedSequence(g, cache.data(), sizeof(int32_t), 2, row, 5,
                              big.data());
        },
        "token 4 is on block table entry 2 = -1, not a page in [0, 3)");
  }
}

//===----------------------------------------------------------------------===//
// Merging partial results (docs/kernel-manifest.md, "Merging partial
// results")
//===----------------------------------------------------------------------===//

/// The merge kernel ("op": "merge_partials"): parsed; then one broken
/// variant per rule.
static void testMergeManifests() {
  const std::string base = readFile(manifestDir + "/merge.json", "test");
  Manifest m = parseManifest(base, "g.json");
  CHECK(m.kernels.size() == 1, "kernel count");
  if (m.kernels.size() != 1)
    return;
  const KernelSpec &k = m.kernels[0];
  CHECK(k.op == KernelOp::MergePartials && k.isMerge() && !k.isGrad() &&
            !k.isForwardStage() && !k.isPaged() && !k.isVarlen() &&
            std::string(opName(k.op)) == "merge_partials" &&
            k.dtype == DType::BF16 && k.partialDtype == DType::F32 &&
            k.splits == 4 && k.rows == 48 && k.valueDim == 64 && k.hasLse &&
            k.rowDims == (std::vector<int64_t>{2, 8, 3}),
        "op, dtypes, splits, rows, value_dim, row dims");
  CHECK(k.grid == (std::array<uint32_t, 3>{12, 1, 1}) &&
            k.block == (std::array<uint32_t, 3>{128, 1, 1}) &&
            k.dynamicSharedMemory == 0 && k.params.size() == 4 &&
            k.params[0].name == "partial_output" &&
            k.params[0].shape == (std::vector<int64_t>{4, 2, 8, 3, 64}) &&
            k.params[2].isOutput && k.params[3].isOutput &&
            forwardGroups(m).empty() && gradGroups(m).empty(),
        "launch, parameters, no groups");
  CHECK(k.flops() == 0.0 && k.bytesMoved() == 4u * 48u * 64u * 4u +
                                                  4u * 48u * 4u +
                                                  48u * 64u * 2u + 48u * 4u,
        "no FLOPs; bytes read and written");

  const std::string k0 = "kernel 'attn_merge_0': ";
  struct Case {
    const char *what;
    std::string from, to, want;
  } cases[] = {
      {"attention field", "\"splits\": 4,", "\"splits\": 4, \"scale\": 0.5,",
       k0 + "scale: a \"merge_partials\" kernel has no such field (it merges "
            "partial results and has none of the attention fields"},
      {"heads field", "\"rows\": 48,", "\"rows\": 48, \"query_heads\": 8,",
       k0 + "query_heads: a \"merge_partials\" kernel has no such field"},
      {"missing partial_dtype", "\"partial_dtype\": \"f32\",", "",
       k0 + "missing field 'partial_dtype' in a \"merge_partials\" kernel"},
      {"partial_dtype i1", "\"partial_dtype\": \"f32\"",
       "\"partial_dtype\": \"i1\"",
       k0 + "partial_dtype: unknown dtype \"i1\" (expected f16, bf16 or f32)"},
      {"splits zero", "\"splits\": 4", "\"splits\": 0",
       k0 + "splits: expected a positive integer, got 0 (number)"},
      {"rows product", "\"rows\": 48", "\"rows\": 45",
       k0 + "param 'partial_output': shape [4, 2, 8, 3, 64]: the row "
            "dimensions d... = [2, 8, 3] hold 48 rows, but the kernel's rows "
            "is 45"},
      {"grid", "\"grid\": [12, 1, 1]", "\"grid\": [48, 1, 1]",
       k0 + "grid: [48, 1, 1] does not match the problem: a "
            "\"merge_partials\" kernel runs one block per 4 rows = "
            "(ceil(rows / 4), 1, 1) = [12, 1, 1]"},
      {"block", "\"block\": [128, 1, 1]", "\"block\": [256, 1, 1]",
       k0 + "codegen.threads: 128, but block[0] is 256"},
      {"shared memory", "\"dynamic_shared_memory\": 0",
       "\"dynamic_shared_memory\": 1024",
       k0 + "dynamic_shared_memory: 1024 bytes, but a \"merge_partials\" "
            "kernel uses none (expected 0)"},
      {"codegen tensor-core", "\"kernel\": \"cuda-core\"",
       "\"kernel\": \"tensor-core\"",
       k0 + "codegen.kernel: \"tensor-core\" for a \"merge_partials\" kernel "
            "(expected \"cuda-core\")"},
      {"partial_lse dtype", "\"dtype\": \"f32\",  \"shape\": [4, 2, 8, 3]}",
       "\"dtype\": \"bf16\", \"shape\": [4, 2, 8, 3]}",
       k0 + "param 'partial_lse': dtype: expected f32 (partial_lse holds f32 "
            "log-sum-exps), got bf16"},
      {"partial_output dtype",
       "\"dtype\": \"f32\",  \"shape\": [4, 2, 8, 3, 64]",
       "\"dtype\": \"bf16\", \"shape\": [4, 2, 8, 3, 64]",
       k0 + "param 'partial_output': dtype: expected f32 (the kernel's "
            "partial_dtype), got bf16"},
      {"output shape", "\"shape\": [2, 8, 3, 64]", "\"shape\": [48, 64]",
       k0 + "param 'output': shape [48, 64] does not match [d..., value_dim] "
            "= [2, 8, 3, 64]"},
      {"no row dims", "\"shape\": [4, 2, 8, 3, 64]", "\"shape\": [4, 64]",
       k0 + "param 'partial_output': shape [4, 64] does not match [splits, "
            "d..., value_dim] (expected at least 3 dimensions"},
      {"run-time shape", "\"shape\": [4, 2, 8, 3, 64]",
       "\"shape\": [4, null, 8, 3, 64]",
       k0 + "param 'partial_output': shape[1]: null, but a \"merge_partials\" "
            "kernel has static shapes"},
      {"lse without has_lse", "\"has_lse\": true", "\"has_lse\": false",
       k0 + "param 'lse': listed, but has_lse is false"},
      {"param order", "{\"name\": \"partial_output\"",
       "{\"name\": \"partial_lse_x\"",
       k0 + "params[0].name: unknown parameter \"partial_lse_x\" for a "
            "\"merge_partials\" kernel (expected partial_output, partial_lse, "
            "output or lse)"},
      {"stage field", "\"splits\": 4,",
       "\"splits\": 4, \"stage\": \"combine\",",
       k0 + "stage: a \"merge_partials\" kernel has no such field"},
  };
  for (const Case &c : cases)
    expectError(
        std::string("merge manifest: ") + c.what,
        [&] { parseManifest(replaceOnce(base, c.from, c.to), "g.json"); },
        c.want);
  // The merge fields on another op.
  expectError(
      "merge manifest: partial_dtype on a forward kernel",
      [&] {
        parseManifest(
            replaceOnce(readFile(manifestDir + "/split-kv.json", "test"),
                        "\"value_dim\": 128,",
                        "\"value_dim\": 128, \"partial_dtype\": \"f32\","),
            "m.json");
      },
      "kernel 'attn_fwd_split_kv_0': partial_dtype: only a merge kernel "
      "(\"op\": \"merge_partials\") has this field, not a \"attention\" "
      "kernel");
}

/// The float64 reference of the merge on a hand-computed case, and the
/// draw of its inputs.
static void testMergeReference() {
  const double inf = std::numeric_limits<double>::infinity();
  const double nan = std::numeric_limits<double>::quiet_NaN();
  // S = 2, R = 3, Dv = 2. Row 0: equal lse; row 1: the second partial -inf
  // with a NaN output; row 2: every partial -inf (NaN outputs).
  const std::vector<double> po = {1.0, 2.0, 5.0, -1.0, nan, nan,  // s = 0
                                  3.0, 6.0, nan, nan,  nan, 7.0}; // s = 1
  const std::vector<double> pl = {0.5, std::log(2.0), -inf,       //
                                  0.5, -inf,          -inf};
  std::vector<double> o, l;
  mergeReference(2, 3, 2, po, pl, o, l);
  auto near = [](double a, double b) { return std::fabs(a - b) < 1e-12; };
  CHECK(o.size() == 6 && l.size() == 3, "reference sizes");
  if (o.size() != 6 || l.size() != 3)
    return;
  CHECK(near(o[0], 2.0) && near(o[1], 4.0) && near(l[0], 0.5 + std::log(2.0)),
        "equal weights: the mean, lse + log 2");
  CHECK(near(o[2], 5.0) && near(o[3], -1.0) && near(l[1], std::log(2.0)),
        "a -inf partial (NaN output) is ignored");
  CHECK(o[4] == 0.0 && o[5] == 0.0 && l[2] == -inf,
        "every partial -inf: output 0, lse -inf");
  // Unequal weights: lse 0 and log 3 -> weights 1/4 and 3/4.
  std::vector<double> o2, l2;
  mergeReference(2, 1, 1, {4.0, 8.0}, {0.0, std::log(3.0)}, o2, l2);
  CHECK(o2.size() == 1 && near(o2[0], 7.0) && near(l2[0], std::log(4.0)),
        "weights exp(lse - m) / sum");

  // The draw on merge.json: -inf partials with NaN outputs, row 0 empty.
  Manifest m =
      parseManifest(readFile(manifestDir + "/merge.json", "test"), "g.json");
  const KernelSpec &k = m.kernels[0];
  MergeInputs in = drawMergeInputs(k, 7);
  std::vector<double> dpo = in.partialOutput.toDouble(),
                      dpl = in.partialLse.toDouble();
  bool consistent = true, inRange = true;
  int64_t infs = 0;
  for (int64_t i = 0; i < k.splits * k.rows; ++i) {
    const bool isInf = dpl[size_t(i)] == -inf;
    infs += isInf;
    for (int64_t j = 0; j < k.valueDim; ++j) {
      const double v = dpo[size_t(i * k.valueDim + j)];
      consistent = consistent && (isInf == std::isnan(v));
      inRange = inRange && (std::isnan(v) || (v >= -1.0 && v <= 1.0));
    }
    inRange =
        inRange && (isInf || (dpl[size_t(i)] >= -5.0 && dpl[size_t(i)] <= 5.0));
  }
  bool row0Empty = true;
  for (int64_t s = 0; s < k.splits; ++s)
    row0Empty = row0Empty && dpl[size_t(s * k.rows)] == -inf;
  CHECK(consistent && inRange && infs == in.infPartials && row0Empty &&
            in.emptyRows >= 1 && infs > 0 && infs < k.splits * k.rows,
        "draw: -inf partials have NaN outputs, ranges, an empty row");
  MergeInputs again = drawMergeInputs(k, 7), other = drawMergeInputs(k, 8);
  CHECK(again.partialLse.toDouble() == dpl ||
            std::equal(dpl.begin(), dpl.end(),
                       again.partialLse.toDouble().begin()),
        "draw: the same seed gives the same inputs");
  CHECK(other.partialOutput.toDouble() != dpo, "draw: another seed differs");
  std::vector<double> ro, rl;
  mergeReference(k.splits, k.rows, k.valueDim, dpo, dpl, ro, rl);
  bool noNaN = true;
  for (double v : ro)
    noNaN = noNaN && !std::isnan(v);
  CHECK(noNaN && rl[0] == -inf, "reference of the draw: no NaN, row 0 empty");
}

int main(int argc, char **argv) {
  if (argc != 2) {
    std::fprintf(stderr, "usage: attnrt-host-tests MANIFEST_DIR\n");
    return 2;
  }
  manifestDir = argv[1];
  struct {
    const char *name;
    void (*fn)();
  } groups[] = {{"json", testJson},
                {"json large objects", testLargeObjects},
                {"good manifests", testGoodManifests},
                {"bad manifests", testBadManifests},
                {"backward manifests", testGradManifests},
                {"backward groups", testGradGroupManifests},
                {"dropout mask manifests", testDropoutMaskManifests},
                {"launch, ptx and order", testLaunchChecks},
                {"run-time sizes", testRuntimeSizes},
                {"tensor map layouts", testTensorMapLayouts},
                {"tensor maps", testTensorMaps},
                {"run-time sizes backward", testRuntimeSizesGrad},
                {"packed manifests", testVarlenManifests},
                {"packed sequences", testVarlenSequences},
                {"packed backward manifests", testVarlenGradManifests},
                {"packed backward sequences", testVarlenGradSequences},
                {"split-KV forward groups", testSplitKVManifests},
                {"split rule", testSplitRule},
                {"split count at launch", testSplitKVLaunch},
                {"paged manifests", testPagedManifests},
                {"paged inputs", testPagedInputs},
                {"paged run-time sizes", testPagedRuntimeSizes},
                {"paged run-time width", testPagedRuntimeWidth},
                {"merge manifests", testMergeManifests},
                {"merge reference", testMergeReference},
                {"conversions", testConversions},
                {"inputs and comparison", testInputsAndCompare},
                {"philox", testPhilox},
                {"util", testUtil}};
  for (auto &g : groups) {
    int before = failures;
    try {
      g.fn();
    } catch (const std::exception &e) {
      ++failures;
      std::fprintf(stderr, "FAIL %s: unexpected exception: %s\n", g.name,
                   e.what());
    }
    std::printf("%-24s %s\n", g.name, failures == before ? "ok" : "FAILED");
  }
  std::printf("attnrt-host-tests: %d checks, %d failed\n", checks, failures);
  return failures > 100 ? 100 : failures;
}
