//===- PtxasReport.h - attn-compile --ptxas-check -------------*- C++ -*-===//
//
// Assembles a PTX file with the CUDA toolkit's ptxas -v and reports, per
// kernel, its registers and spills. The LLVM NVPTX backend cannot know how
// ptxas will allocate registers, so a tiling forced with --block-q /
// --block-kv / --warps may spill (slow, but correct) or make ptxas
// serialize wgmma; this is how a user finds out without a GPU.
//
//===----------------------------------------------------------------------===//

#ifndef ATTNOPT_TOOLS_ATTNCOMPILE_PTXASREPORT_H
#define ATTNOPT_TOOLS_ATTNCOMPILE_PTXASREPORT_H

#include "llvm/ADT/SmallVector.h"
#include "llvm/ADT/StringRef.h"
#include "llvm/Support/raw_ostream.h"

#include <cstdint>
#include <string>

namespace attn_compile {

/// What ptxas -v said about one entry function.
struct PtxasKernelReport {
  std::string name;
  int64_t registers = -1;
  int64_t spillStoreBytes = 0, spillLoadBytes = 0;
  /// ptxas's "Potential Performance Loss" notes (e.g. serialized wgmma).
  llvm::SmallVector<std::string> performanceNotes;
};

/// Parses the output of `ptxas -v`.
llvm::SmallVector<PtxasKernelReport> parsePtxasVerbose(llvm::StringRef log);

/// Runs `ptxas -arch=<chip> -v` on `ptxPath`, ptxas taken from
/// `toolkit`/bin or else from PATH, and prints one line per kernel to `out`
/// (spills and performance notes as warnings). Returns false, after printing
/// why to `errs`, when ptxas is missing or rejects the PTX.
bool checkWithPtxas(llvm::StringRef toolkit, llvm::StringRef chip,
                    llvm::StringRef ptxPath, llvm::raw_ostream &out,
                    llvm::raw_ostream &errs);

} // namespace attn_compile

#endif // ATTNOPT_TOOLS_ATTNCOMPILE_PTXASREPORT_H
