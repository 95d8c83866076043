//===- PtxasReport.cpp - attn-compile --ptxas-check -----------------------===//
//
// See PtxasReport.h.
//
//===----------------------------------------------------------------------===//

#include "PtxasReport.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Program.h"

#include <optional>

using namespace llvm;

namespace attn_compile {

/// The quoted name in `line` after `marker` ("... function 'name' ...").
static StringRef quotedAfter(StringRef line, StringRef marker) {
  size_t at = line.find(marker);
  if (at == StringRef::npos)
    return {};
  StringRef rest = line.drop_front(at + marker.size());
  return rest.take_until([](char c) { return c == '\''; });
}

/// The integer right before `suffix` in `line` ("..., 12 bytes spill
/// stores"), or nullopt.
static std::optional<int64_t> numberBefore(StringRef line, StringRef suffix) {
  size_t at = line.find(suffix);
  if (at == StringRef::npos)
    return std::nullopt;
  StringRef head = line.take_front(at).rtrim();
  StringRef digits =
      head.take_back(head.size() - head.find_last_not_of("0123456789") - 1);
  int64_t value;
  if (digits.empty() || digits.getAsInteger(10, value))
    return std::nullopt;
  return value;
}

SmallVector<PtxasKernelReport> parsePtxasVerbose(StringRef log) {
  SmallVector<PtxasKernelReport> kernels;
  auto find = [&](StringRef name) -> PtxasKernelReport * {
    for (PtxasKernelReport &k : kernels)
      if (k.name == name)
        return &k;
    return nullptr;
  };
  PtxasKernelReport *current = nullptr;
  SmallVector<StringRef> lines;
  log.split(lines, '\n');
  for (StringRef line : lines) {
    if (StringRef name = quotedAfter(line, "Compiling entry function '");
        !name.empty()) {
      kernels.push_back({name.str()});
      current = &kernels.back();
      continue;
    }
    if (line.contains("Function properties for ")) { // unquoted name
      current = find(line.split("Function properties for ").second.trim());
      continue;
    }
    if (line.contains("Potential Performance Loss")) {
      StringRef name = quotedAfter(line, "in the function '");
      if (PtxasKernelReport *k = name.empty() ? current : find(name))
        k->performanceNotes.push_back(
            line.split("Potential Performance Loss: ").second.trim().str());
      continue;
    }
    if (!current)
      continue;
    if (auto v = numberBefore(line, " bytes spill stores"))
      current->spillStoreBytes = *v;
    if (auto v = numberBefore(line, " bytes spill loads"))
      current->spillLoadBytes = *v;
    if (auto v = numberBefore(line, " registers"))
      current->registers = *v;
  }
  return kernels;
}

/// ptxas from the toolkit, else from PATH; empty when neither has it.
static std::string findPtxas(StringRef toolkit) {
  std::string inToolkit = (toolkit + "/bin/ptxas").str();
  if (sys::fs::can_execute(inToolkit))
    return inToolkit;
  if (ErrorOr<std::string> onPath = sys::findProgramByName("ptxas"))
    return *onPath;
  return {};
}

bool checkWithPtxas(StringRef toolkit, StringRef chip, StringRef ptxPath,
                    raw_ostream &out, raw_ostream &errs) {
  std::string ptxas = findPtxas(toolkit);
  if (ptxas.empty()) {
    errs << "attn-compile: --ptxas-check: no ptxas under " << toolkit
         << "/bin or on PATH (set --cuda-path)\n";
    return false;
  }
  SmallString<128> logPath, cubinPath;
  if (sys::fs::createTemporaryFile("attn-compile-ptxas", "log", logPath) ||
      sys::fs::createTemporaryFile("attn-compile-ptxas", "cubin", cubinPath)) {
    errs << "attn-compile: --ptxas-check: cannot create a temporary file\n";
    return false;
  }
  std::string arch = ("-arch=" + chip).str();
  SmallVector<StringRef> args = {ptxas, arch, "-v", ptxPath, "-o", cubinPath};
  std::optional<StringRef> redirects[] = {std::nullopt, StringRef(logPath),
                                          StringRef(logPath)};
  std::string execError;
  int rc =
      sys::ExecuteAndWait(ptxas, args, /*Env=*/std::nullopt, redirects,
                          /*SecondsToWait=*/0, /*MemoryLimit=*/0, &execError);
  auto log = MemoryBuffer::getFile(logPath);
  std::string text = log ? (*log)->getBuffer().str() : std::string();
  sys::fs::remove(logPath);
  sys::fs::remove(cubinPath);
  if (rc != 0) {
    errs << "attn-compile: --ptxas-check: " << ptxas << " " << arch << " "
         << ptxPath << " failed"
         << (execError.empty() ? "" : (": " + execError)) << ":\n"
         << text;
    return false;
  }
  // ptxas reports the entries in its own order; print them in the PTX's
  // (the manifest's) order.
  SmallVector<PtxasKernelReport> kernels = parsePtxasVerbose(text);
  if (auto ptx = MemoryBuffer::getFile(ptxPath)) {
    StringRef code = (*ptx)->getBuffer();
    auto position = [&](const PtxasKernelReport &k) {
      return code.find(".entry " + k.name + "(");
    };
    llvm::stable_sort(
        kernels, [&](const PtxasKernelReport &x, const PtxasKernelReport &y) {
          return position(x) < position(y);
        });
  }
  for (const PtxasKernelReport &k : kernels) {
    bool spills = k.spillStoreBytes || k.spillLoadBytes;
    out << "attn-compile: " << (spills ? "warning: " : "")
        << "ptxas: " << k.name << ": " << k.registers << " registers, ";
    if (spills)
      out << k.spillStoreBytes << " bytes spill stores, " << k.spillLoadBytes
          << " bytes spill loads (spilled registers live in local memory: "
             "correct, but slower)\n";
    else
      out << "no spills\n";
    for (const std::string &note : k.performanceNotes)
      out << "attn-compile: warning: ptxas: " << k.name << ": " << note << "\n";
  }
  return true;
}

} // namespace attn_compile
