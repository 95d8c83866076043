//===- attn-manifest-check.cpp - validate manifests without a GPU ---------===//
//
//   attn-manifest-check MANIFEST.json...
//
// Parses and validates each attn-kernels-v1 manifest exactly as attn-run
// does before it touches the CUDA driver, and checks that the PTX file it
// names is a readable regular file. Needs no driver and no GPU: for the
// machine that compiles (CI checks that what attn-compile writes, the
// runtime accepts) and for a deployment's sanity check.
//
// Exit status: 0 every manifest is valid; 3 otherwise (attn-run's status
// for a bad manifest or missing file).
//
//===----------------------------------------------------------------------===//

#include "attnrt/Error.h"
#include "attnrt/Manifest.h"

#include <cctype>
#include <cerrno>
#include <cstdio>
#include <cstring>
#include <exception>
#include <fstream>
#include <string>
#include <sys/stat.h>

using namespace attnrt;

/// Why the PTX file at `path` cannot be loaded, or "" when it can be read.
/// A directory opens as a stream too, so opening it proves nothing.
static std::string ptxFileProblem(const std::string &path) {
  struct stat st;
  if (::stat(path.c_str(), &st) != 0)
    return std::string("cannot be read: ") + std::strerror(errno);
  if (S_ISDIR(st.st_mode))
    return "is a directory, not a PTX file";
  if (!S_ISREG(st.st_mode))
    return "is not a regular file";
  std::ifstream in(path);
  if (!in)
    return "cannot be read";
  // Not a proof that it is PTX (the runtime's driver is), but a manifest
  // written over its PTX (attn-compile -o out.json before it refused that)
  // is caught: PTX text never starts with a JSON object.
  char first = 0;
  while (in.get(first) && std::isspace(static_cast<unsigned char>(first)))
    ;
  if (in && first == '{')
    return "is a JSON document, not PTX";
  return "";
}

int main(int argc, char **argv) {
  if (argc < 2 || std::string(argv[1]) == "-h" ||
      std::string(argv[1]) == "--help") {
    std::fprintf(stderr, "usage: attn-manifest-check MANIFEST.json...\n");
    return argc < 2 ? kExitInput : 0;
  }
  int status = 0;
  for (int i = 1; i < argc; ++i) {
    try {
      Manifest m = loadManifest(argv[i]);
      std::string problem = ptxFileProblem(m.ptxPath);
      if (!problem.empty())
        throw Error(m.path + ": the PTX file \"" + m.ptxPath + "\" it names " +
                        problem,
                    kExitInput);
      std::printf("%s: valid, %zu kernel%s for %s, PTX %s\n", argv[i],
                  m.kernels.size(), m.kernels.size() == 1 ? "" : "s",
                  m.chip.c_str(), m.ptxPath.c_str());
    } catch (const std::exception &e) {
      std::fprintf(stderr, "attn-manifest-check: %s\n", e.what());
      status = kExitInput;
    }
  }
  return status;
}
