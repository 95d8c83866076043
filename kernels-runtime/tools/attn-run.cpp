//===- attn-run.cpp - run, validate and time attention-opt kernels --------===//
//
//   attn-run MANIFEST.json [--kernel NAME] [--seed N] [--warmup N]
//            [--iters N] [--no-validate] [--device N] [--tolerance X]
//            [--lse-tolerance X] [--grad-tolerance X] [--train] [--api]
//            [--repeat N]
//            [--sizes batch=B,query_len=LQ,key_len=LK,num_pages=P,
//                     max_pages_per_seq=W,num_splits=S]...
//            [--seqlens-q=L0,L1,... [--seqlens-k=...]]
//            [--seqlens-dist=longtail:B:MIN:MAX]
//            [--cache-seqlens=L0,L1,...]... [--verbose]
//   attn-run --self-test [--seed N] [--device N]
//
// Exit status: 0 all kernels passed; 1 a kernel failed validation or a CUDA
// error occurred; 2 no CUDA driver / GPU; 3 bad command line, manifest, JSON
// or missing file.
//
//===----------------------------------------------------------------------===//

#include "attnrt/Error.h"
#include "attnrt/Manifest.h"
#include "attnrt/Runner.h"

#include <cerrno>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <exception>
#include <string>

using namespace attnrt;

static const char *kUsage =
    "usage: attn-run MANIFEST.json [options]\n"
    "       attn-run --self-test [--seed N] [--device N]\n"
    "\n"
    "Loads the PTX named by an attn-kernels-v1 manifest through the CUDA\n"
    "driver, runs each kernel on seeded random inputs, validates it against\n"
    "a float64 GPU reference and times it with CUDA events. One line per\n"
    "kernel starts with RESULT (key=value fields, for scripts).\n"
    "Backward kernels (\"op\": \"attention_grad\") run group by group\n"
    "(\"group\": in manifest order, on shared inputs and workspaces) with\n"
    "the reference forward's output and lse; a GROUP line follows a group's\n"
    "RESULT lines. With --train, each forward kernel runs with the backward\n"
    "kernels that name it (\"forward\"), as a training step, and a TRAIN\n"
    "line gives the forward, backward and forward + backward times.\n"
    "\n"
    "options:\n"
    "  --kernel NAME       run only this kernel (a backward kernel: its\n"
    "                      whole group)\n"
    "  --seed N            input seed (default 1)\n"
    "  --warmup N          untimed launches before timing (default 10)\n"
    "  --iters N           timed launches; the median is reported (default "
    "50)\n"
    "  --no-validate       skip the comparison with the reference\n"
    "  --device N          CUDA device ordinal (default 0)\n"
    "  --tolerance X       output tolerance (default by dtype: f32 1e-5,\n"
    "                      f16 2e-3, bf16 8e-3)\n"
    "  --lse-tolerance X   lse tolerance (default 1e-4)\n"
    "  --grad-tolerance X  gradient tolerance (default by dtype: f32 1e-4,\n"
    "                      f16 1e-2, bf16 2e-2)\n"
    "  --train             run each forward kernel with its backward\n"
    "                      kernels (forward saving lse, backward on its\n"
    "                      output and lse); validate and time forward,\n"
    "                      backward and forward + backward\n"
    "  --api               launch forward sets (split-KV and paged groups\n"
    "                      too), backward groups and merge kernels through\n"
    "                      the runtime library (docs/runtime.md), so that\n"
    "                      the validation checks its launches; per-kernel\n"
    "                      timings of a group still use attn-run's own\n"
    "                      launchers\n"
    "  --repeat N          run everything N times, each time with fresh\n"
    "                      inputs (seeds seed, seed + 1, ...): a race or a\n"
    "                      read of unwritten memory fails some runs only\n"
    "  --sizes LIST        values of the run-time sizes, e.g.\n"
    "                      batch=2,query_len=1000,key_len=77 (required for\n"
    "                      kernels whose manifest has null sizes); repeat\n"
    "                      it to run everything once per draw. num_splits=S\n"
    "                      sets the split count of split-KV groups that\n"
    "                      decide it at launch (codegen.splits null; 1 to\n"
    "                      codegen.split_rule.max_splits); without it, the\n"
    "                      split rule on the device. num_pages=P: the pages\n"
    "                      of a paged cache with a run-time page count\n"
    "                      (e.g. batch=3,num_pages=250);\n"
    "                      max_pages_per_seq=W: the width of its block\n"
    "                      table where that is a run-time size\n"
    "  --seqlens-q LIST    packed kernels (varlen_attention): the query\n"
    "                      length of each sequence, e.g. 100,0,37 (B is\n"
    "                      their count, the token total their sum)\n"
    "  --seqlens-k LIST    their key lengths (default: the query lengths)\n"
    "  --seqlens-dist longtail:B:MIN:MAX\n"
    "                      packed kernels: B lengths log-uniform in\n"
    "                      [MIN, MAX] from --seed (keys the same)\n"
    "                      Without these, a packed kernel's lengths are a\n"
    "                      random split (from --seed) of its token totals\n"
    "                      into B sequences: from the manifest where static,\n"
    "                      else --sizes batch=B,query_len=Tq,key_len=Tk\n"
    "  --cache-seqlens LIST paged groups (paged_attention): the cache length\n"
    "                      of each sequence, e.g. 0,192,17 (B of them, each\n"
    "                      in [0, max_pages_per_seq * page_size]); repeat\n"
    "                      it to run everything once per list. Without it,\n"
    "                      the lengths are drawn from --seed (0 and the\n"
    "                      capacity included); the block table is always\n"
    "                      drawn (shuffled pages, -1 in unused entries)\n"
    "  --verbose           print the JIT info log\n"
    "  --self-test         check the GPU references (forward and gradient)\n"
    "                      against the CPU float64 references on small\n"
    "                      problems (no manifest)\n"
    "  -h, --help          this text\n"
    "\n"
    "exit status: 0 pass; 1 validation failure or CUDA error; 2 no CUDA\n"
    "driver/GPU; 3 bad command line, manifest or file\n";

namespace {

[[noreturn]] void usageError(const std::string &message) {
  throw Error(message + " (see attn-run --help)", kExitInput);
}

long long parseInteger(const std::string &option, const std::string &text,
                       long long lo, long long hi) {
  errno = 0;
  char *end = nullptr;
  long long v = std::strtoll(text.c_str(), &end, 10);
  if (text.empty() || errno != 0 || *end != '\0' || v < lo || v > hi)
    usageError(option + ": expected an integer in [" + std::to_string(lo) +
               ", " + std::to_string(hi) + "], got '" + text + "'");
  return v;
}

uint64_t parseUnsigned(const std::string &option, const std::string &text) {
  errno = 0;
  char *end = nullptr;
  unsigned long long v = std::strtoull(text.c_str(), &end, 0);
  if (text.empty() || text[0] == '-' || errno != 0 || *end != '\0')
    usageError(option + ": expected a non-negative 64-bit integer, got '" +
               text + "'");
  return v;
}

double parseDouble(const std::string &option, const std::string &text) {
  errno = 0;
  char *end = nullptr;
  double v = std::strtod(text.c_str(), &end);
  if (text.empty() || errno != 0 || *end != '\0' || !(v >= 0.0))
    usageError(option + ": expected a non-negative number, got '" + text +
               "'");
  return v;
}

int realMain(int argc, char **argv) {
  RunOptions options;
  bool selfTest = false;
  for (int a = 1; a < argc; ++a) {
    std::string arg = argv[a];
    std::string value;
    bool hasInlineValue = false;
    if (arg.compare(0, 2, "--") == 0) {
      size_t eq = arg.find('=');
      if (eq != std::string::npos) {
        value = arg.substr(eq + 1);
        arg = arg.substr(0, eq);
        hasInlineValue = true;
      }
    }
    auto takeValue = [&]() -> std::string {
      if (hasInlineValue)
        return value;
      if (a + 1 >= argc)
        usageError(arg + ": missing value");
      return argv[++a];
    };
    auto noValue = [&]() {
      if (hasInlineValue)
        usageError(arg + ": takes no value");
    };
    if (arg == "-h" || arg == "--help") {
      std::fputs(kUsage, stdout);
      return kExitOk;
    } else if (arg == "--kernel") {
      options.kernel = takeValue();
      if (options.kernel.empty())
        usageError("--kernel: expected a kernel name");
    } else if (arg == "--seed") {
      options.seed = parseUnsigned(arg, takeValue());
    } else if (arg == "--warmup") {
      options.warmup = int(parseInteger(arg, takeValue(), 0, 1000000));
    } else if (arg == "--iters") {
      options.iters = int(parseInteger(arg, takeValue(), 1, 1000000));
    } else if (arg == "--repeat") {
      options.repeat = int(parseInteger(arg, takeValue(), 1, 1000000));
    } else if (arg == "--device") {
      options.device = int(parseInteger(arg, takeValue(), 0, 1024));
    } else if (arg == "--tolerance") {
      options.outTolerance = parseDouble(arg, takeValue());
    } else if (arg == "--lse-tolerance") {
      options.lseTolerance = parseDouble(arg, takeValue());
    } else if (arg == "--grad-tolerance") {
      options.gradTolerance = parseDouble(arg, takeValue());
    } else if (arg == "--sizes") {
      options.sizes.push_back(parseRuntimeSizes(takeValue()));
    } else if (arg == "--seqlens-q" || arg == "--seqlens-k") {
      std::vector<int64_t> &lengths =
          arg == "--seqlens-q" ? options.seqlens.q : options.seqlens.k;
      if (!lengths.empty())
        usageError(arg + " given twice");
      lengths = parseSeqlens(takeValue(), arg);
    } else if (arg == "--seqlens-dist") {
      if (options.seqlens.dist.batch > 0)
        usageError(arg + " given twice");
      options.seqlens.dist = parseSeqlensDist(takeValue());
    } else if (arg == "--cache-seqlens") {
      options.cacheSeqlens.push_back(parseSeqlens(takeValue(), arg));
    } else if (arg == "--train") {
      noValue();
      options.train = true;
    } else if (arg == "--api") {
      noValue();
      options.viaApi = true;
    } else if (arg == "--no-validate") {
      noValue();
      options.validate = false;
    } else if (arg == "--verbose") {
      noValue();
      options.verbose = true;
    } else if (arg == "--self-test") {
      noValue();
      selfTest = true;
    } else if (!arg.empty() && arg[0] == '-' && arg != "-") {
      usageError("unknown option '" + arg + "'");
    } else if (options.manifestPath.empty()) {
      options.manifestPath = arg;
    } else {
      usageError("more than one manifest given ('" + options.manifestPath +
                 "' and '" + arg + "')");
    }
  }
  if (selfTest) {
    if (!options.manifestPath.empty())
      usageError("--self-test takes no manifest");
    if (options.train)
      usageError("--self-test and --train do not go together");
    return runSelfTest(options);
  }
  if (options.manifestPath.empty())
    usageError("no manifest given");
  const SeqlenOptions &seqlens = options.seqlens;
  if (!seqlens.k.empty() && seqlens.q.empty())
    usageError("--seqlens-k needs --seqlens-q");
  if (!seqlens.q.empty() && seqlens.dist.batch > 0)
    usageError("--seqlens-q and --seqlens-dist do not go together");
  if (!seqlens.k.empty() && seqlens.k.size() != seqlens.q.size())
    usageError("--seqlens-q has " + std::to_string(seqlens.q.size()) +
               " lengths, --seqlens-k " + std::to_string(seqlens.k.size()) +
               " (one of each per sequence)");
  return runManifest(options);
}

} // namespace

int main(int argc, char **argv) {
  try {
    return realMain(argc, argv);
  } catch (const Error &e) {
    std::fflush(stdout);
    std::fprintf(stderr, "attn-run: %s%s\n",
                 e.exitCode() == kExitNoDevice ? "" : "error: ", e.what());
    return e.exitCode();
  } catch (const std::bad_alloc &) {
    std::fflush(stdout);
    std::fprintf(stderr, "attn-run: error: out of host memory\n");
    return kExitFailure;
  } catch (const std::exception &e) {
    std::fflush(stdout);
    std::fprintf(stderr, "attn-run: error: %s\n", e.what());
    return kExitFailure;
  }
}
