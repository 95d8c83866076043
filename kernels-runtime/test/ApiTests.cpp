//===- ApiTests.cpp - the runtime library's API without a GPU -------------===//
//
// What of attnrt/Runtime.h and attnrt/RuntimeC.h runs without a device,
// against the toolkit's stub driver (ctest puts it on LD_LIBRARY_PATH):
// the argument names (paged caches and merge inputs included), the sizes a
// launch carries (num_pages, num_splits kept by the C setters), the
// one-call sized C functions' argument checks, and
// Library::load of paged and merge manifests reaching the driver (so
// failing with "no CUDA driver/GPU", status 2, after the manifest passed).
//
//   attnrt-api-tests TEST-DATA-DIR   (paged.json, merge.json with their PTX)
//
//===----------------------------------------------------------------------===//

#include "attnrt/Runtime.h"
#include "attnrt/RuntimeC.h"

#include <cstdio>
#include <string>

namespace {

int checks = 0, failures = 0;

void check(bool cond, const std::string &what) {
  ++checks;
  if (!cond) {
    ++failures;
    std::fprintf(stderr, "FAIL %s\n", what.c_str());
  }
}

/// Every name of the paged and merge sets is a tensor name; others are not.
void testArgumentNames() {
  const char *const *names = attnrt::Arguments::tensorNames();
  for (const char *want : {"key_cache", "value_cache", "block_table",
                           "cache_seqlens", "partial_output", "partial_lse"}) {
    bool found = false;
    for (int i = 0; i < attnrt::Arguments::kNumTensors; ++i)
      found = found || std::string(names[i]) == want;
    check(found, std::string("tensor name ") + want);
    attnrt::Arguments args;
    args.set(want, CUdeviceptr(256));
    check(args.unknownName().empty(), std::string("Arguments::set ") + want);
  }
  attnrt::Arguments args;
  args.set("key_cache", CUdeviceptr(256)).set("kv_cache", CUdeviceptr(512));
  check(args.unknownName() == "kv_cache", "an unknown name is reported");
}

/// The C setters keep each other's sizes.
void testCSizes() {
  attnrt_arguments *args = attnrt_arguments_new();
  check(attnrt_arguments_set(args, "block_table", 256) == 0 &&
            attnrt_arguments_set(args, "partial_lse", 512) == 0,
        "attnrt_arguments_set of paged and merge names");
  check(attnrt_arguments_set(args, "pages", 256) == 3 &&
            std::string(attnrt_last_error()).find("'pages'") !=
                std::string::npos,
        "attnrt_arguments_set of an unknown name");
  attnrt_arguments_num_pages(args, 250);
  attnrt_arguments_num_splits(args, 7);
  attnrt_arguments_sizes(args, 3, 0, 0);
  attnrt_arguments_num_pages(nullptr, 1); // ignored
  attnrt_arguments_free(args);

  attnrt::Arguments a;
  attnrt::RuntimeSizes s;
  s.batch = 3;
  s.numPages = 250;
  s.splits = 7;
  a.sizes(s);
  check(a.sizes().batch == 3 && a.sizes().numPages == 250 &&
            a.sizes().splits == 7,
        "Arguments::sizes carries num_pages and num_splits");
}

/// The one-call sized functions check their arguments before the set.
void testCSized() {
  check(attnrt_api_version() == 3,
        "API version 3 (attnrt_sizes with max_pages_per_seq)");
  uint64_t bytes = 0;
  check(attnrt_workspace_bytes_sized(nullptr, nullptr, &bytes) == 3 &&
            std::string(attnrt_last_error()).find("null argument") !=
                std::string::npos,
        "attnrt_workspace_bytes_sized without a set");
  attnrt_sizes sizes = {};
  sizes.batch = 2;
  sizes.offsets_count = 3; // without the arrays
  check(attnrt_launch_pointers_sized(nullptr, 0, nullptr, nullptr, &sizes, 0, 0,
                                     nullptr, 0, 0) == 3,
        "attnrt_launch_pointers_sized without a set");
  check(attnrt_launch_pointers(nullptr, 0, nullptr, nullptr, 0, 0, nullptr, 0,
                               0) == 3 &&
            std::string(attnrt_last_error()) ==
                "attnrt_launch_pointers: null argument",
        "attnrt_launch_pointers keeps its message");
}

/// Paged and merge manifests are offered: load validates them and reaches
/// the driver (the stub's "no CUDA driver/GPU", status 2).
void testLoad(const std::string &dir) {
  for (const char *name : {"paged.json", "paged-runtime.json", "merge.json"}) {
    auto lib = attnrt::Library::load(dir + "/" + name);
    check(!lib.ok() && lib.status().code() == attnrt::StatusCode::NoDevice &&
              lib.status().message().find("no CUDA driver/GPU") !=
                  std::string::npos,
          std::string("Library::load ") + name + ": " + lib.status().message());
    attnrt_library *c = nullptr;
    check(attnrt_library_load((dir + "/" + name).c_str(), 0, &c) == 2 && !c,
          std::string("attnrt_library_load ") + name);
  }
}

} // namespace

int main(int argc, char **argv) {
  if (argc != 2) {
    std::fprintf(stderr, "usage: attnrt-api-tests TEST-DATA-DIR\n");
    return 2;
  }
  testArgumentNames();
  testCSizes();
  testCSized();
  testLoad(argv[1]);
  std::printf("attnrt-api-tests: %d checks, %d failed\n", checks, failures);
  return failures ? 1 : 0;
}
